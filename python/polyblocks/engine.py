"""Driving the Rust engine: MLIR text in, a loadable library out.

The engine is the `pb-compile` binary: the one the wheel installed beside
this package (its scripts folder), or in a checkout the project's own
build; see docs/architecture.md for why Python runs it as a process rather
than loading MLIR into the interpreter. A wheel also carries LLVM's OpenMP
runtime in `polyblocks/_lib`, which the compiled libraries link and load.
"""

from __future__ import annotations

import os
import pathlib
import re
import signal
import shutil
import subprocess
import sysconfig
import tempfile
import threading
import time
import warnings

from . import log
from .runtime import Library

_log = log.get("engine")

_PACKAGE = pathlib.Path(__file__).resolve().parent
_REPO = _PACKAGE.parents[1]
# What the wheel carries beside the package: LLVM's OpenMP runtime and
# the GPU runtime (absent in a checkout, where pb-compile uses LLVM 22's
# OpenMP runtime and the build has the GPU one).
LIB_DIR = _PACKAGE / "_lib"
VERSION = "0.1.0"


class CompileError(RuntimeError):
    """The engine rejected the program; the message names the op and place."""


def installed() -> bool:
    """Whether this package was installed from a wheel (not run from a
    checkout's `python/` folder)."""
    return not (_REPO / "Cargo.toml").is_file()


def engine_binary() -> pathlib.Path:
    """Path of `pb-compile`: $POLYBLOCKS_COMPILE; in a checkout the newest
    of the workspace's release and dev builds (the set-up builds the dev
    one; a developer who rebuilds only one of them gets that one, never a
    stale other); installed, the one the wheel put in the environment's
    scripts folder (else on PATH)."""
    override = os.environ.get("POLYBLOCKS_COMPILE")
    if override:
        return pathlib.Path(override)
    if not installed():
        candidates = [_REPO / "target" / profile / "pb-compile" for profile in ("release", "debug")]
        built = [c for c in candidates if c.exists()]
        if built:
            return max(built, key=lambda c: c.stat().st_mtime_ns)
        raise CompileError("pb-compile not found: run scripts/setup.sh (or set POLYBLOCKS_COMPILE)")
    for scripts in (sysconfig.get_path("scripts"), sysconfig.get_path("scripts", f"{os.name}_user")):
        candidate = pathlib.Path(scripts) / "pb-compile"
        if candidate.is_file():
            return candidate
    found = shutil.which("pb-compile")
    if found:
        return pathlib.Path(found)
    raise CompileError(
        f"pb-compile not found in {sysconfig.get_path('scripts')} or on PATH: reinstall the polyblocks wheel "
        "(or set POLYBLOCKS_COMPILE)"
    )


def engine_identity() -> str:
    """Identifies the engine build for cache keys: a rebuilt engine never
    reuses artifacts of another."""
    binary = engine_binary()
    stat = binary.stat()
    return f"polyblocks {VERSION} {binary} {stat.st_size} {stat.st_mtime_ns}"


def run_engine(source: pathlib.Path, args: list[str], what: str | None = None) -> str:
    """Runs pb-compile on `source`; returns its stderr (timings, paths).
    A compile running longer than `log.PROGRESS_AFTER_S` logs (INFO) which
    stage it is in, naming `what` (default: the file)."""
    if LIB_DIR.is_dir() and not any(a.startswith("--openmp-dir") for a in args):
        args = [*args, f"--openmp-dir={LIB_DIR}"]
    what = what or source.name
    started = time.monotonic()
    process = subprocess.Popen(
        [str(engine_binary()), str(source), *args, "--progress"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
    )
    lines: list[str] = []
    stage = ["parse"]
    reported = [False]

    def progress():
        elapsed = time.monotonic() - started
        if elapsed >= log.PROGRESS_AFTER_S:
            reported[0] = True
            _log.info("compiling %s: stage %s (%.0f s so far)", what, stage[0], elapsed)

    def read():
        for line in process.stderr:
            if line.startswith("pb-compile: stage "):
                stage[0] = line.split()[-1]
                progress()
            else:
                lines.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    # A long first stage still says something after PROGRESS_AFTER_S.
    try:
        process.wait(timeout=log.PROGRESS_AFTER_S)
    except subprocess.TimeoutExpired:
        if not reported[0]:
            progress()
        process.wait()
    reader.join()
    process.stderr.close()
    stderr = "".join(lines)
    elapsed = time.monotonic() - started
    if reported[0]:
        _log.info("compiled %s in %.1f s", what, elapsed)
    if process.returncode < 0:
        # A crash is the engine's bug, never the program's: say so, with
        # what to send (the module it was compiling).
        code = -process.returncode
        name = signal.Signals(code).name if code in signal.valid_signals() else str(code)
        raise CompileError(
            f"pb-compile crashed ({name}) compiling {source}: an internal error of polyblocks; "
            f"please report it with that file{': ' + stderr.strip() if stderr.strip() else ''}"
        )
    if process.returncode != 0:
        raise CompileError(stderr.strip() or f"pb-compile exited with {process.returncode}")
    _log.debug("compiled %s in %.1f s: %s", what, elapsed, " ".join(stderr.split()))
    return stderr


def parse_timings(stderr: str) -> dict[str, float]:
    """Stage name -> milliseconds, from `pb-compile --timing` output."""
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^\s*([\w-]+):\s+([\d.]+) ms$", stderr, re.M)}


def build_library(
    folder: pathlib.Path,
    text: str,
    name: str,
    extra_args: list[str] | None = None,
    debug_dir: pathlib.Path | None = None,
    what: str | None = None,
) -> dict[str, float]:
    """Compiles MLIR `text` into `folder/lib<name>.so` (+ manifest); returns
    the per-stage compile times. `what` names the program in progress
    messages."""
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / f"{name}.mlir"
    source.write_text(text)
    args = ["-o", str(folder / f"lib{name}.so"), "--timing", *(extra_args or [])]
    if debug_dir is not None:
        args.append(f"--debug-dir={debug_dir}")
    stderr = run_engine(source, args, what)
    for line in stderr.splitlines():
        if "compile budget spent" in line:
            warnings.warn(
                f"polyblocks: {line.split('warning: ', 1)[-1]} (a larger compile_options['compile_budget'] optimizes all of it)",
                stacklevel=2,
            )
    if "--report" in args:
        notes = [line for line in stderr.splitlines() if "note: [pb-" in line or "remark: [pb-" in line]
        for line in notes:
            _log.info("%s", line)
        # Kept beside the library for the HTML report (html_report).
        (folder / f"lib{name}.report").write_text("".join(f"{line}\n" for line in notes))
    return parse_timings(stderr)


def compile_mlir(
    text: str,
    out_dir: str | os.PathLike | None = None,
    name: str = "module",
    extra_args: list[str] | None = None,
) -> Library:
    """Compiles MLIR `text` into `out_dir/lib<name>.so` and loads it."""
    out = pathlib.Path(out_dir or tempfile.mkdtemp(prefix="polyblocks-"))
    build_library(out, text, name, extra_args)
    return Library(out / f"lib{name}.so")
