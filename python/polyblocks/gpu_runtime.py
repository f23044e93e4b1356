"""The GPU runtime: `libpb_gpu_runtime.so` (crate `runtime-gpu/`), which
defines the `mgpu*` functions that libraries compiled for `target='nvgpu'`
call to load their kernels, copy buffers and launch, on the CUDA driver
loaded at run time. It is loaded once, with its symbols global, before any
such library. Its errors are sticky until cleared: each call clears them
first and raises the first one after (`GpuError`)."""

from __future__ import annotations

import ctypes
import functools
import os
import pathlib
import re

_REPO = pathlib.Path(__file__).resolve().parents[2]
_LIBRARY = None


class GpuError(RuntimeError):
    """The GPU could not run compiled code (no driver or device, a failed
    allocation or launch); the message says what failed."""


def library_path() -> pathlib.Path:
    """$POLYBLOCKS_GPU_RUNTIME, else the one a wheel carries, else the build
    beside the engine binary."""
    override = os.environ.get("POLYBLOCKS_GPU_RUNTIME")
    if override:
        return pathlib.Path(override)
    from . import engine

    candidates = [engine.LIB_DIR, engine.engine_binary().parent] + [_REPO / "target" / p for p in ("release", "debug")]
    for folder in candidates:
        candidate = folder / "libpb_gpu_runtime.so"
        if candidate.exists():
            return candidate
    raise GpuError("libpb_gpu_runtime.so not found: run scripts/setup.sh (or set POLYBLOCKS_GPU_RUNTIME)")


def load() -> ctypes.CDLL:
    """The runtime library, loaded on first use with global symbols."""
    global _LIBRARY
    if _LIBRARY is None:
        library = ctypes.CDLL(str(library_path()), mode=ctypes.RTLD_GLOBAL)
        library.pb_gpu_last_error.restype = ctypes.c_char_p
        library.pb_gpu_available.restype = ctypes.c_int
        library.pb_gpu_device_info.restype = ctypes.c_int
        library.pb_gpu_device_info.argtypes = [ctypes.POINTER(ctypes.c_int)] * 3
        library.pb_gpu_kernel_timing.argtypes = [ctypes.c_int]
        library.pb_gpu_kernel_time_ms.restype = ctypes.c_double
        library.pb_gpu_kernel_profile.restype = ctypes.c_size_t
        library.pb_gpu_kernel_profile.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        _LIBRARY = library
    return _LIBRARY


def last_error() -> str | None:
    message = load().pb_gpu_last_error()
    return message.decode(errors="replace") if message else None


def clear() -> None:
    load().pb_gpu_clear_error()


def check(what: str) -> None:
    """Raises the pending error (then cleared), naming `what` failed."""
    message = last_error()
    if message is not None:
        clear()
        raise GpuError(f"{what}: {message}")


def available() -> bool:
    """Whether an NVIDIA GPU can run compiled code here."""
    try:
        library = load()
    except GpuError:
        return False
    ok = bool(library.pb_gpu_available())
    clear()
    return ok


@functools.lru_cache(maxsize=1)
def compute_capability() -> tuple[int, int, int] | None:
    """(major, minor, multiprocessors) of the GPU present, or None; asked
    once per process (each compile's options and cache key use it)."""
    if not available():
        return None
    major, minor, count = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    if load().pb_gpu_device_info(ctypes.byref(major), ctypes.byref(minor), ctypes.byref(count)) != 0:
        return None
    return major.value, minor.value, count.value


def detected_chip(chips: tuple[str, ...]) -> str | None:
    """The described chip closest below the GPU present (sm_90 for an
    H100, sm_89 for a later GPU we have no description of), or None."""
    found = compute_capability()
    if found is None:
        return None
    present = found[0] * 10 + found[1]
    numbers = sorted((int(re.sub(r"\D", "", c)), c) for c in chips)
    below = [c for n, c in numbers if n <= present]
    return below[-1] if below else None


def kernel_timing(on: bool) -> None:
    """Turns kernel timing on or off: while on, each launch is bracketed by
    CUDA timing events (a few microseconds each) and `kernel_time_ms`
    reads their sum; a benchmark's view of the GPU time alone, without the
    host copies and launch overhead that a call's wall time includes."""
    load().pb_gpu_kernel_timing(1 if on else 0)


def kernel_time_ms() -> float:
    """The summed GPU time of the kernels launched since timing was turned
    on or last read (waits for them to finish)."""
    total = load().pb_gpu_kernel_time_ms()
    check("timing the kernels")
    if total < 0:
        raise GpuError("kernel timing is off (gpu_runtime.kernel_timing(True) first)")
    return total


def kernel_profile() -> list[tuple[str, int, float]]:
    """(kernel name, launches, summed ms) of the kernels timed (and read by
    `kernel_time_ms`) since the last call, slowest first."""
    library = load()
    size = library.pb_gpu_kernel_profile(None, 0)
    buffer = ctypes.create_string_buffer(size)
    library.pb_gpu_kernel_profile(buffer, size)
    rows = []
    for line in buffer.value.decode(errors="replace").splitlines():
        name, count, ms = line.rsplit(" ", 2)
        rows.append((name, int(count), float(ms)))
    return rows
