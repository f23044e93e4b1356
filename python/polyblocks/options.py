"""Compile options shared by every front (`compile_options={...}`).

Names follow the spec (`target`, `debug`, `static_argnums`); unknown names are
an error listing the valid ones, so a typo never silently does nothing.

Each option is declared once. Those the engine implements (vectorization,
fusion, the LLVM level, the budget, ...) are declared in its tables
(`pipelines/src/options.rs`, `compiler/src/options.rs`) and read here from
`pb-compile --list-options`: their meaning, default, type, command-line flag
and whether they change the generated code (the disk-cache key). Those the
Python side implements (the target's selection, caching, fallback, AOT
files, ...) are declared in `PYTHON_OPTIONS` below. docs/options.md lists
both (`markdown()`, run by scripts/gen-docs.sh).
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
from dataclasses import dataclass, field

# name -> (meaning, default, changes the generated code)
PYTHON_OPTIONS = {
    "target": ("'cpu' (default), 'nvgpu' (NVIDIA GPUs: kernels as PTX) or 'amdgpu' (AMD GPUs: kernels as AMDGPU code; runs emulated only so far)", "cpu", True),
    "debug": ("dump the IR after each stage into a folder and print per-stage compile times", False, False),
    "debug_dir": ("where debug dumps go (default: ./polyblocks_debug/<graph>)", None, False),
    "cache": ("use the on-disk compile cache ($POLYBLOCKS_CACHE_DIR or ~/.cache/polyblocks)", True, False),
    "fallback": ("run operators the engine does not support in the framework, with a warning", True, False),
    "prepack_weights": ("PyTorch inference: the matrices of a model's parameters are packed into the layout the contraction kernels read once per parameter version and kept between calls (more memory: about one more copy of those weights), instead of packed on every call", True, False),
    "threads": ("OpenMP threads for compiled code (default: all cores)", None, False),
    "static_argnums": ("JAX: indices of arguments treated as compile-time constants", (), False),
    "aot_name": ("AOT: base name of the .o/.h/.json files", None, False),
    "aot_dir": ("AOT: folder for the AOT files (default: current folder)", ".", False),
    "user_memory": ("AOT: generated code takes a trailing memory pool and allocates nothing", False, True),
}


@functools.lru_cache(maxsize=None)
def _engine_table(binary: str, identity: str) -> tuple:
    result = subprocess.run([binary, "--list-options"], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{binary} --list-options failed: {result.stderr.strip()}")
    return tuple(entry for entry in json.loads(result.stdout) if entry["python"])


def engine_options() -> dict[str, dict]:
    """The engine's options offered to the fronts, by name (its JSON
    entries: flag, kind, default, min/max, changes_code, help)."""
    from . import engine

    binary = engine.engine_binary()
    return {entry["name"]: entry for entry in _engine_table(str(binary), engine.engine_identity())}


def valid_options() -> dict[str, tuple]:
    """Every option: name -> (meaning, default); Python's first."""
    options = {name: (meaning, default) for name, (meaning, default, _) in PYTHON_OPTIONS.items()}
    for name, entry in engine_options().items():
        options[name] = (entry["help"], entry["default"])
    return options


def _default(name):
    if name in PYTHON_OPTIONS:
        return PYTHON_OPTIONS[name][1]
    return engine_options()[name]["default"]


TARGETS = ("cpu", "nvgpu", "amdgpu")
AVAILABLE_TARGETS = ("cpu", "nvgpu", "amdgpu")
NVIDIA_CHIPS = ("sm_80", "sm_86", "sm_89", "sm_90")
AMD_CHIPS = ("gfx1100",)


class OptionError(ValueError):
    """A compile option that does not exist or has a bad value."""


@dataclass(frozen=True)
class CompileOptions:
    """Validated options; hashable, so part of cache keys."""

    values: tuple = field(default_factory=tuple)

    def __getitem__(self, name):
        return dict(self.values)[name]

    def get(self, name):
        values = dict(self.values)
        return values[name] if name in values else _default(name)

    @property
    def debug(self) -> bool:
        return bool(self.get("debug")) or os.environ.get("POLYBLOCKS_DEBUG", "") not in ("", "0")

    @property
    def profile(self) -> bool:
        """Kernels timed: the option, $POLYBLOCKS_PROFILE, or an HTML report
        (which shows each kernel's share of the run time)."""
        from . import profile

        return bool(self.get("profile")) or profile.enabled_by_environment() or isinstance(self.get("report"), str)

    def _engine_value(self, name):
        """The value the engine gets for option `name` (None: not passed)."""
        on_gpu = self.get("target") in ("nvgpu", "amdgpu")
        if name == "profile":
            return self.profile
        if name == "report":
            return bool(self.get("report"))
        if name == "gpu":
            return self.gpu_chip if on_gpu else None
        if name == "emulate":
            return bool(self.get("emulate")) and on_gpu
        if name == "compile_budget":
            return float(self.get("compile_budget") or 0)
        return self.get(name)

    def engine_args(self) -> list[str]:
        """Command-line flags of pb-compile for these options: every engine
        option whose value is not the engine's default."""
        args = []
        for name, entry in engine_options().items():
            value = self._engine_value(name)
            if value is None or value == entry["default"]:
                continue
            if entry["kind"] == "switch":
                args.append(f"--{entry['flag']}" if value else f"--no-{entry['flag']}")
            else:
                args.append(f"--{entry['flag']}={value}")
        return args

    def cache_key(self) -> str:
        """The options that change generated code, as text."""
        # A compile cut short by its budget is cached under that budget: a
        # larger one compiles again.
        engine = engine_options()
        relevant = [name for name, (_, _, changes) in PYTHON_OPTIONS.items() if changes]
        relevant += [name for name, entry in engine.items() if entry["changes_code"]]
        return ",".join(f"{name}={self._engine_value(name) if name in engine else self.get(name)!r}" for name in relevant)

    @property
    def gpu_chip(self) -> str:
        """The NVIDIA chip compiled for: the option, else the GPU present
        (its compute capability, rounded down to a described chip), else
        sm_80 (the oldest described: its PTX runs on every later GPU)."""
        chip = self.get("gpu")
        if chip:
            return chip
        if self.get("target") == "amdgpu":
            return AMD_CHIPS[0]
        from . import gpu_runtime

        return gpu_runtime.detected_chip(NVIDIA_CHIPS) or "sm_80"


def parse(compile_options: dict | None, allowed: tuple[str, ...] | None = None) -> CompileOptions:
    """Checks `compile_options` and fills in defaults."""
    compile_options = dict(compile_options or {})
    if not isinstance(compile_options, dict):
        raise OptionError(f"compile_options must be a dict, got {type(compile_options).__name__}")
    described = valid_options()
    valid = allowed or tuple(described)
    unknown = sorted(set(compile_options) - set(valid))
    if unknown:
        listing = "\n".join(f"  {name}: {described[name][0]}" for name in valid)
        raise OptionError(f"unknown compile option(s) {', '.join(map(repr, unknown))}; valid options are:\n{listing}")
    target = compile_options.get("target", "cpu")
    if target not in TARGETS:
        raise OptionError(f"target must be one of {', '.join(map(repr, TARGETS))}, got {target!r}")
    if target not in AVAILABLE_TARGETS:
        raise OptionError(f"target {target!r} is not available yet in polyblocks-rs; use 'cpu', 'nvgpu' or 'amdgpu'")
    chip = compile_options.get("gpu")
    chips = AMD_CHIPS if target == "amdgpu" else NVIDIA_CHIPS
    if chip is not None and chip not in chips:
        raise OptionError(f"gpu must be one of {', '.join(map(repr, chips))} for target {target!r}, got {chip!r}")
    if (chip is not None or compile_options.get("emulate")) and target not in ("nvgpu", "amdgpu"):
        raise OptionError("the 'gpu' and 'emulate' options need target 'nvgpu' or 'amdgpu'")
    if target in ("nvgpu", "amdgpu") and compile_options.get("user_memory"):
        raise OptionError(f"user_memory (AOT into a caller's pool) is not supported with target {target!r} yet")
    level = compile_options.get("opt_level", 3)
    if not isinstance(level, int) or not 0 <= level <= 3:
        raise OptionError(f"opt_level must be an integer from 0 to 3, got {level!r}")
    budget = compile_options.get("compile_budget", 60)
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, (int, float)) or not budget >= 0):
        raise OptionError(f"compile_budget must be a number of seconds >= 0 (or None for no limit), got {budget!r}")
    threads = compile_options.get("threads")
    if threads is not None and (not isinstance(threads, int) or threads < 1):
        raise OptionError(f"threads must be a positive integer, got {threads!r}")
    for name, entry in engine_options().items():
        if name == "report" and isinstance(compile_options.get(name), str):
            if not compile_options[name].endswith((".html", ".htm")):
                raise OptionError(f"report must be True, False or the name of an .html file to write, got {compile_options[name]!r}")
            continue
        if name in compile_options and name not in ("compile_budget", "gpu", "opt_level"):
            _check_engine_value(name, entry, compile_options[name])
    values = {name: compile_options.get(name, described[name][1]) for name in valid}
    frozen = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in values.items()))
    return CompileOptions(frozen)


def _check_engine_value(name: str, entry: dict, value) -> None:
    kind = entry["kind"]
    if kind == "switch" and not isinstance(value, bool):
        raise OptionError(f"{name} must be True or False, got {value!r}")
    if kind == "int" and (isinstance(value, bool) or not isinstance(value, int) or not entry["min"] <= value <= entry["max"]):
        raise OptionError(f"{name} must be an integer from {entry['min']} to {entry['max']}, got {value!r}")
    if kind == "seconds" and (isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0):
        raise OptionError(f"{name} must be a number >= 0, got {value!r}")
    if kind == "text" and value is not None and not isinstance(value, str):
        raise OptionError(f"{name} must be a string, got {value!r}")


def markdown() -> str:
    """docs/options.md: every option, from the tables."""
    lines = [
        "# Compile options",
        "",
        "Generated by `scripts/gen-docs.sh` from the option tables (`pipelines/src/options.rs`,",
        "`compiler/src/options.rs`: `pb-compile --list-options`) and `python/polyblocks/options.py`;",
        "do not edit by hand. Python: `compile_options={name: value}` in every front. pb-compile:",
        "the flag (a switch also as `--no-FLAG`). pb-opt: pipeline options as `--pb-FLAG` with",
        "`--pb-pipeline` (a switch as `--pb-no-FLAG`; `--pb-FLAG` may name a pass). Options that",
        "change the generated code are part of the disk-cache key.",
        "",
        "| name | pb-compile | pb-opt | default | in cache key | meaning |",
        "|---|---|---|---|---|---|",
    ]
    for name, (meaning, default, changes) in PYTHON_OPTIONS.items():
        lines.append(f"| `{name}` | | | `{default!r}` | {'yes' if changes else 'no'} | {meaning} |")
    from . import engine

    table = json.loads(subprocess.run([str(engine.engine_binary()), "--list-options"], capture_output=True, text=True, check=True).stdout)
    for entry in table:
        flag = f"--{entry['flag']}" + (f", --no-{entry['flag']}" if entry["kind"] == "switch" else "=…")
        pb_opt = ""
        if entry["scope"] == "pipeline":
            pb_opt = f"--pb-no-{entry['flag']}" if entry["kind"] == "switch" else f"--pb-{entry['flag']}=…"
        python = entry["name"] if entry["python"] else f"({entry['name']}: set by the fronts)"
        lines.append(
            f"| `{python}` | `{flag}` | {f'`{pb_opt}`' if pb_opt else ''} | `{entry['default']!r}` | "
            f"{'yes' if entry['changes_code'] else 'no'} | {entry['help']} |"
        )
    return "\n".join(lines) + "\n"

