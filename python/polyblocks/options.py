"""Compile options shared by every front (`compile_options={...}`).

Names follow the spec (`target`, `debug`, `static_argnums`); unknown names are
an error listing the valid ones, so a typo never silently does nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

# name -> (meaning, default)
VALID_OPTIONS = {
    "target": ("'cpu' (default) or 'nvgpu' (NVIDIA GPUs: kernels as PTX); 'amdgpu' is not available yet", "cpu"),
    "gpu": ("nvgpu: the GPU to compile for, 'sm_80', 'sm_86', 'sm_89' or 'sm_90' (default: the GPU present, else 'sm_80')", None),
    "emulate": ("nvgpu: run the GPU mapping on the CPU instead (kernels as loops over grid and block), to check it without a GPU", False),
    "debug": ("dump the IR after each stage into a folder and print per-stage compile times", False),
    "debug_dir": ("where debug dumps go (default: ./polyblocks_debug/<graph>)", None),
    "cache": ("use the on-disk compile cache ($POLYBLOCKS_CACHE_DIR or ~/.cache/polyblocks)", True),
    "fallback": ("run operators the engine does not support in the framework, with a warning", True),
    "opt_level": ("LLVM optimization level 0-3", 3),
    "vectorize": ("vectorize innermost loops", True),
    "fp_contract": ("fuse a product with the add or subtract using it (one FMA, one rounding, as C compilers do)", True),
    "channels_last": ("store convolutions' feature maps channels-last (N x H x W x C) inside the compiled graph, converted only where it enters or leaves that layout (inputs and outputs keep the framework's layout)", True),
    "prepack_weights": ("PyTorch inference: the matrices of a model's parameters are packed into the layout the contraction kernels read once per parameter version and kept between calls (more memory: about one more copy of those weights), instead of packed on every call", True),
    "threads": ("OpenMP threads for compiled code (default: all cores)", None),
    "static_argnums": ("JAX: indices of arguments treated as compile-time constants", ()),
    "aot_name": ("AOT: base name of the .o/.h/.json files", None),
    "aot_dir": ("AOT: folder for the AOT files (default: current folder)", "."),
    "user_memory": ("AOT: generated code takes a trailing memory pool and allocates nothing", False),
    "profile": ("time every generated kernel; print per kernel its share of the run time and the source lines fused into it at exit (polyblocks.profile.report(); or POLYBLOCKS_PROFILE=1)", False),
    "report": ("print per loop nest what was fused or tiled, the sizes chosen and why (compiles even on a cache hit)", False),
    "compile_budget": ("seconds of optimization per compiled graph; past them the rest is left unfused, with a warning (0 or None: no limit)", 60),
}

TARGETS = ("cpu", "nvgpu", "amdgpu")
AVAILABLE_TARGETS = ("cpu", "nvgpu")
NVIDIA_CHIPS = ("sm_80", "sm_86", "sm_89", "sm_90")


class OptionError(ValueError):
    """A compile option that does not exist or has a bad value."""


@dataclass(frozen=True)
class CompileOptions:
    """Validated options; hashable, so part of cache keys."""

    values: tuple = field(default_factory=tuple)

    def __getitem__(self, name):
        return dict(self.values)[name]

    def get(self, name):
        return dict(self.values).get(name, VALID_OPTIONS[name][1])

    @property
    def debug(self) -> bool:
        return bool(self.get("debug")) or os.environ.get("POLYBLOCKS_DEBUG", "") not in ("", "0")

    @property
    def profile(self) -> bool:
        from . import profile

        return bool(self.get("profile")) or profile.enabled_by_environment()

    def engine_args(self) -> list[str]:
        """Command-line flags of pb-compile for these options."""
        args = [f"-O{int(self.get('opt_level'))}"]
        if not self.get("vectorize"):
            args.append("--no-vectorize")
        if not self.get("fp_contract"):
            args.append("--no-fp-contract")
        if not self.get("channels_last"):
            args.append("--no-channels-last")
        if self.get("report"):
            args.append("--report")
        if self.profile:
            args.append("--profile")
        if self.get("target") == "nvgpu":
            args.append(f"--gpu={self.gpu_chip}")
            if self.get("emulate"):
                args.append("--emulate")
        args.append(f"--compile-budget={float(self.get('compile_budget') or 0)}")
        return args

    def cache_key(self) -> str:
        """The options that change generated code, as text."""
        # A compile cut short by its budget is cached under that budget: a
        # larger one compiles again.
        relevant = ("target", "opt_level", "vectorize", "fp_contract", "channels_last", "user_memory", "compile_budget", "emulate")
        key = ",".join(f"{k}={self.get(k)!r}" for k in relevant) + (",profile" if self.profile else "")
        return key + (f",gpu={self.gpu_chip}" if self.get("target") == "nvgpu" else "")

    @property
    def gpu_chip(self) -> str:
        """The NVIDIA chip compiled for: the option, else the GPU present
        (its compute capability, rounded down to a described chip), else
        sm_80 (the oldest described: its PTX runs on every later GPU)."""
        chip = self.get("gpu")
        if chip:
            return chip
        from . import gpu_runtime

        return gpu_runtime.detected_chip(NVIDIA_CHIPS) or "sm_80"


def parse(compile_options: dict | None, allowed: tuple[str, ...] | None = None) -> CompileOptions:
    """Checks `compile_options` and fills in defaults."""
    compile_options = dict(compile_options or {})
    if not isinstance(compile_options, dict):
        raise OptionError(f"compile_options must be a dict, got {type(compile_options).__name__}")
    valid = allowed or tuple(VALID_OPTIONS)
    unknown = sorted(set(compile_options) - set(valid))
    if unknown:
        listing = "\n".join(f"  {name}: {VALID_OPTIONS[name][0]}" for name in valid)
        raise OptionError(f"unknown compile option(s) {', '.join(map(repr, unknown))}; valid options are:\n{listing}")
    target = compile_options.get("target", "cpu")
    if target not in TARGETS:
        raise OptionError(f"target must be one of {', '.join(map(repr, TARGETS))}, got {target!r}")
    if target not in AVAILABLE_TARGETS:
        raise OptionError(f"target {target!r} is not available yet in polyblocks-rs; use 'cpu' or 'nvgpu'")
    chip = compile_options.get("gpu")
    if chip is not None and chip not in NVIDIA_CHIPS:
        raise OptionError(f"gpu must be one of {', '.join(map(repr, NVIDIA_CHIPS))}, got {chip!r}")
    if (chip is not None or compile_options.get("emulate")) and target != "nvgpu":
        raise OptionError("the 'gpu' and 'emulate' options need target 'nvgpu'")
    if target == "nvgpu" and compile_options.get("user_memory"):
        raise OptionError("user_memory (AOT into a caller's pool) is not supported with target 'nvgpu' yet")
    level = compile_options.get("opt_level", 3)
    if not isinstance(level, int) or not 0 <= level <= 3:
        raise OptionError(f"opt_level must be an integer from 0 to 3, got {level!r}")
    budget = compile_options.get("compile_budget", 60)
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, (int, float)) or not budget >= 0):
        raise OptionError(f"compile_budget must be a number of seconds >= 0 (or None for no limit), got {budget!r}")
    threads = compile_options.get("threads")
    if threads is not None and (not isinstance(threads, int) or threads < 1):
        raise OptionError(f"threads must be a positive integer, got {threads!r}")
    values = {name: compile_options.get(name, VALID_OPTIONS[name][1]) for name in valid}
    frozen = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in values.items()))
    return CompileOptions(frozen)
