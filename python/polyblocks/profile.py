"""Per-kernel profiles of compiled code: where a compiled model's time goes.

With `compile_options={"profile": True}` (or `POLYBLOCKS_PROFILE=1` in the
environment) the fronts keep source locations in the module and the engine
times every kernel it generates (`pb-profile-kernels`): each loop nest or
register-tiled contraction adds its nanoseconds to a counter of the library.
`report()` turns the counters of every profiled library loaded in this
process into a table: per kernel its share of the function's time, its
milliseconds per call and the source lines of the operators fused into it;
kernels from the same lines (the layers of a model run one module's code)
are summed into one row, with their count. At exit the report is printed
on stderr when anything was profiled.

    POLYBLOCKS_PROFILE=1 python my_model.py
    # or
    from polyblocks import profile
    print(profile.report(top=20)); profile.reset()
"""

from __future__ import annotations

import atexit
import ctypes
import linecache
import os
import sys
import threading

_libraries: list = []
_lock = threading.Lock()
_registered_exit = False


def enabled_by_environment() -> bool:
    return os.environ.get("POLYBLOCKS_PROFILE", "") not in ("", "0")


class _Profiled:
    """The counters and their description of one loaded library."""

    def __init__(self, path, handle, description: dict):
        self.path = path
        self.kernels = description.get("kernels", [])
        self.functions = description.get("functions", [])
        slots = len(self.kernels) + 2 * len(self.functions)
        self.counters = (ctypes.c_int64 * slots).in_dll(handle, "pb_profile_ns")


def register(path, handle, description: dict) -> None:
    """Called by `runtime.Library` for a library built with `--profile`."""
    global _registered_exit
    with _lock:
        # One library loaded twice is one set of counters.
        if any(library.path == path for library in _libraries):
            return
        _libraries.append(_Profiled(path, handle, description))
        if not _registered_exit:
            atexit.register(_print_at_exit)
            _registered_exit = True


def reset() -> None:
    """Zeroes every counter."""
    with _lock:
        for library in _libraries:
            ctypes.memset(library.counters, 0, ctypes.sizeof(library.counters))


def _framework_folders() -> list[str]:
    """Install folders of the frameworks and of polyblocks: frames inside
    them are not the user's code."""
    folders = []
    for name in ("torch", "torch_mlir", "jax", "jaxlib", "flax", "tensorflow", "keras", "polyblocks", "functorch"):
        module = sys.modules.get(name)
        if module is not None and getattr(module, "__file__", None):
            folders.append(os.path.dirname(os.path.abspath(module.__file__)) + os.sep)
    return folders


def _user_frame(chain: str, folders: list[str]) -> str:
    """The innermost frame of `chain` (`file:line<caller:line...`) outside
    the frameworks, then, when the chain goes on into a framework (a model
    built of `torch.nn` layers), its innermost frame after a `>`: which
    layer of the user's line the operator came from."""
    frames = chain.split("<")
    for frame in frames:
        path = frame.rpartition(":")[0]
        if not any(os.path.abspath(path).startswith(folder) for folder in folders):
            return frame if frame == frames[0] else f"{frame}>{frames[0]}"
    return frames[0]


def _describe(frame: str) -> str:
    if ">" in frame:
        user, _, inner = frame.partition(">")
        path, _, line = inner.rpartition(":")
        return f"{_describe(user)} > {os.path.basename(path)}:{line}"
    path, _, line = frame.rpartition(":")
    text = linecache.getline(path, int(line)).strip() if line.isdigit() else ""
    label = f"{os.path.basename(path)}:{line}"
    return f"{label} {text[:60]}" if text else label


def _rows(library: _Profiled, folders: list[str]):
    """(function, calls, total ns, [(ns, count, operators, sources)]):
    kernels of the same operators (or kernel op, where the engine did not
    name them) from the same source lines summed (a model's layers run the
    same lines)."""
    counters = list(library.counters)
    groups: dict = {}
    for index, kernel in enumerate(library.kernels):
        # `operator@chain` where the engine named the operator.
        named = [chain.partition("@") if "@" in chain else ("", "", chain) for chain in kernel["sources"]]
        sources = tuple(dict.fromkeys(_user_frame(chain, folders) for _, _, chain in named if chain))
        operators = ",".join(dict.fromkeys(op for op, _, _ in named if op))
        key = (kernel["function"], sources, operators or kernel["op"])
        ns, count = groups.get(key, (0, 0))
        groups[key] = (ns + counters[index], count + 1)
    for position, function in enumerate(library.functions):
        base = len(library.kernels) + 2 * position
        calls, total = counters[base], counters[base + 1]
        rows = sorted(
            ((ns, count, op, sources) for (f, sources, op), (ns, count) in groups.items() if f == function),
            reverse=True,
        )
        yield function, calls, total, rows


def report(top: int = 25) -> str:
    """The profile of every profiled library called so far, as text."""
    folders = _framework_folders()
    out = []
    with _lock:
        libraries = list(_libraries)
    for library in libraries:
        for function, calls, total, rows in _rows(library, folders):
            if not calls:
                continue
            in_kernels = sum(r[0] for r in rows)
            out.append(
                f"polyblocks profile: {function} of {library.path}: {calls} calls, "
                f"{total / calls / 1e6:.3f} ms per call, {len(rows)} kernel groups "
                f"({100 * in_kernels / max(total, 1):.1f}% of the time in kernels)"
            )
            out.append(f"  {'share':>6} {'ms/call':>9} {'kernels':>7}  source [operators]")
            for ns, count, ops, sources in rows[:top]:
                described = "; ".join(_describe(s) for s in sources[:3]) or "(no source location)"
                more = f" +{len(sources) - 3} lines" if len(sources) > 3 else ""
                out.append(
                    f"  {100 * ns / max(total, 1):5.1f}% {ns / calls / 1e6:9.3f} {count:7d}  {described}{more} [{ops}]"
                )
            if len(rows) > top:
                rest = sum(r[0] for r in rows[top:])
                out.append(f"  {100 * rest / max(total, 1):5.1f}% {rest / calls / 1e6:9.3f}          {len(rows) - top} more groups")
    return "\n".join(out)


def _print_at_exit() -> None:
    text = report()
    if text:
        print(text, file=sys.stderr)
