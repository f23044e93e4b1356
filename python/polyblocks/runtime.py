"""Calling compiled functions on numpy arrays, with the ABI from the manifest.

A compiled library exports `void f(in..., out...)` taking plain pointers to
contiguous row-major buffers (scalars by value). `Library` reads the JSON
manifest written beside the library, checks every argument's dtype and
shape before the call, allocates the outputs and returns them.
"""

from __future__ import annotations

import ctypes
import json
import os
import pathlib
import threading

import numpy as np

# Compiled code runs its parallel loops on LLVM's OpenMP runtime, whose
# threads by default spin for 200 ms after each parallel region waiting for
# the next. Frameworks run their own thread pools: an eager PyTorch op right
# after a compiled call ran several times slower while ours spun. 1 ms keeps
# back-to-back compiled calls as fast (sleeping at once, 0, made a 0.08 ms
# call take 0.23 ms) and gives the cores back quickly. Set KMP_BLOCKTIME
# yourself to choose otherwise; it is read when the first library loads.
os.environ.setdefault("KMP_BLOCKTIME", "1")

_DTYPES = {
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
    "i1": np.bool_,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "index": np.int64,
    "complex<f32>": np.complex64,
    "complex<f64>": np.complex128,
}

_SCALAR_CTYPES = {
    "f32": ctypes.c_float,
    "f64": ctypes.c_double,
    "i1": ctypes.c_bool,
    "i8": ctypes.c_int8,
    "i16": ctypes.c_int16,
    "i32": ctypes.c_int32,
    "i64": ctypes.c_int64,
    "index": ctypes.c_int64,
}


def aligned_empty(shape, dtype, alignment: int = 64) -> np.ndarray:
    """An uninitialized array whose data starts on an `alignment`-byte
    boundary: full-width SIMD access, and zero-copy hand-over to frameworks
    (XLA imports a DLPack buffer without copying only if it is aligned)."""
    dtype = np.dtype(dtype)
    size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(size + alignment, dtype=np.uint8)
    offset = (-raw.ctypes.data) % alignment
    return raw[offset : offset + size].view(dtype).reshape(shape)


_HUGE_PAGE = 2 << 20
_MADV_HUGEPAGE = 14


def _huge_page_buffer(size: int) -> np.ndarray:
    """`size` bytes for a pool: buffers of 2 MiB or more start on a 2 MiB
    boundary and ask Linux for transparent huge pages (where it grants them
    on request only, `madvise` mode), so that kernels streaming a pool's
    large buffers (prepacked weights) are not slowed by TLB misses."""
    if size < _HUGE_PAGE:
        return aligned_empty((size,), np.uint8)
    buffer = aligned_empty((size,), np.uint8, alignment=_HUGE_PAGE)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.madvise(ctypes.c_void_p(buffer.ctypes.data), ctypes.c_size_t(size // _HUGE_PAGE * _HUGE_PAGE), _MADV_HUGEPAGE)
    except (OSError, AttributeError):
        pass  # not Linux: ordinary pages
    return buffer


# The most arguments ctypes passes in one call (CPython's CTYPES_MAX_ARGCOUNT).
_CTYPES_MAX_ARGUMENTS = 1024


class LibraryError(ValueError):
    """A call with arguments that do not match the compiled signature."""


class CheckFailed(RuntimeError):
    """A run-time check of the compiled code failed (what PyTorch reports as
    an error for such inputs); the message is the check's."""


class Function:
    """One compiled function; call it with the inputs, get the outputs."""

    def __init__(self, handle, spec: dict, errors: list | None = None, gpu_error: str | None = None, gpu: bool = False):
        self.name = spec["name"]
        # Kernels on a GPU: the runtime's errors are checked around calls,
        # and a library whose kernels did not load cannot be called.
        self._gpu = gpu
        self._gpu_error = gpu_error
        self.inputs = [a for a in spec["args"] if a["role"] == "input"]
        self.outputs = [a for a in spec["args"] if a["role"] == "output"]
        # Libraries built with `--pool` take their temporaries from a
        # trailing buffer: one per thread, kept between calls (already
        # mapped, so a call allocates nothing and takes no page faults).
        pools = [a for a in spec["args"] if a["role"] == "user_memory"]
        self.pool_bytes = max(int(pools[0]["shape"][0]), 1) if pools else None
        self._pools = threading.local()
        # Functions compiled with static inputs (`--static-args`: a model's
        # parameters) keep what they prepare from them (packed weights) in
        # the pool; a word at this offset, 0 in a fresh pool, tells them to
        # prepare it again. `invalidate_prepared` zeroes it in every
        # thread's pool, lazily: a generation count per pool.
        self._prepared_flag = spec.get("prepared_flag")
        self._generation = 0
        self._fn = getattr(handle, self.name)
        self._fn.restype = None
        # Code with run-time checks records a failed one in the exported
        # `pb_error_code` (1-based position in `errors`) instead of aborting.
        self._errors = errors or []
        self._flag = ctypes.c_int32.in_dll(handle, "pb_error_code") if self._errors else None
        # ctypes passes at most 1024 arguments; a graph with more (one per
        # parameter) is called through its packed twin, which takes one
        # array of pointers to the arguments (pb-packed-entry-points).
        self._packed = None
        if len(self.inputs) + len(self.outputs) + len(pools) > _CTYPES_MAX_ARGUMENTS:
            self._packed = getattr(handle, self.name + "_packed")
            self._packed.restype = None
            self._packed.argtypes = [ctypes.c_void_p]
        # Declared argument types let ctypes take addresses as plain ints.
        elif not any(a["by_value"] for a in self.inputs):
            self._fn.argtypes = [ctypes.c_void_p] * (len(self.inputs) + len(self.outputs) + len(pools))

    def _pool(self) -> list:
        """The pool argument of this thread's calls ([] without a pool)."""
        if self.pool_bytes is None:
            return []
        return [self._pool_address()]

    def _pool_address(self) -> int:
        address = getattr(self._pools, "address", None)
        if address is None:
            pool = _huge_page_buffer(self.pool_bytes)
            pool.fill(0)  # map the pages now, not during the first call
            self._pools.buffer = pool
            self._pools.address = address = pool.ctypes.data
            self._pools.generation = self._generation
        elif self._prepared_flag is not None and self._pools.generation != self._generation:
            ctypes.memset(address + self._prepared_flag, 0, 4)
            self._pools.generation = self._generation
        return address

    @property
    def prepares(self) -> bool:
        """Does this function keep work on its static inputs between calls?"""
        return self._prepared_flag is not None and self.pool_bytes is not None

    def invalidate_prepared(self):
        """The static inputs changed (other tensors, or updated in place):
        the next call in each thread prepares from them again."""
        self._generation += 1

    def _before_call(self):
        if not self._gpu:
            return
        from . import gpu_runtime

        if self._gpu_error is not None:
            raise gpu_runtime.GpuError(f"{self.name} cannot run: {self._gpu_error}")
        gpu_runtime.clear()

    def _after_call(self):
        if self._gpu:
            from . import gpu_runtime

            gpu_runtime.check(f"{self.name} on the GPU")
        self._check_flag()

    def call_pointers(self, pointers):
        """Calls with raw addresses (int) or ctypes scalars, inputs then
        outputs; the caller has checked them against `inputs`/`outputs`."""
        self._before_call()
        if self._packed is not None:
            self._call_packed([*pointers, *self._pool()])
        elif self._fn.argtypes is not None:
            if self.pool_bytes is None:
                self._fn(*pointers)
            else:
                self._fn(*pointers, self._pool_address())
        else:
            pointers = list(pointers) + self._pool()
            self._fn(*[ctypes.c_void_p(p) if isinstance(p, int) else p for p in pointers])
        self._after_call()

    def _call_packed(self, arguments):
        """Calls the packed twin: an array holding the address of each
        argument's value (addresses as ints or c_void_p, scalars as ctypes
        numbers), which stay alive until it returns."""
        cells = [ctypes.c_void_p(a) if isinstance(a, int) else a for a in arguments]
        table = (ctypes.c_void_p * len(cells))(*[ctypes.addressof(cell) for cell in cells])
        self._packed(table)

    def _check_flag(self):
        """Raises the message of a run-time check the last call failed."""
        if self._flag is None or not self._flag.value:
            return
        code, self._flag.value = self._flag.value, 0
        message = self._errors[code - 1] if 0 < code <= len(self._errors) else f"check {code}"
        raise CheckFailed(f"{self.name}: {message}")

    def __call__(self, *args):
        if len(args) != len(self.inputs):
            raise LibraryError(f"{self.name} takes {len(self.inputs)} inputs, got {len(args)}")
        pointers, keep = [], []
        for position, (value, spec) in enumerate(zip(args, self.inputs)):
            dtype = np.dtype(_DTYPES[spec["dtype"]])
            if spec["by_value"]:
                pointers.append(_SCALAR_CTYPES[spec["dtype"]](value))
                continue
            array = np.asarray(value)
            if array.dtype != dtype:
                raise LibraryError(f"{self.name}: input {position} has dtype {array.dtype}, expected {dtype}")
            if tuple(array.shape) != tuple(spec["shape"]):
                raise LibraryError(
                    f"{self.name}: input {position} has shape {tuple(array.shape)}, expected {tuple(spec['shape'])}"
                )
            array = np.ascontiguousarray(array)
            keep.append(array)
            pointers.append(ctypes.c_void_p(array.ctypes.data))
        outputs = [aligned_empty(tuple(s["shape"]), _DTYPES[s["dtype"]]) for s in self.outputs]
        pointers.extend(ctypes.c_void_p(o.ctypes.data) for o in outputs)
        pointers.extend(ctypes.c_void_p(p) for p in self._pool())
        self._before_call()
        if self._packed is not None:
            self._call_packed(pointers)
        else:
            self._fn(*pointers)
        self._after_call()
        return outputs[0] if len(outputs) == 1 else tuple(outputs)


class Library:
    """A compiled shared library and the functions its manifest lists."""

    def __init__(self, path: str | pathlib.Path):
        self.path = pathlib.Path(path)
        manifest = self.path.with_suffix(".json")
        if not manifest.exists():
            raise LibraryError(f"{manifest} not found: not a polyblocks library")
        self.manifest = json.loads(manifest.read_text())
        # Kernels for a GPU: the runtime's mgpu* functions first (the
        # library's constructors load its kernels through them). Without a
        # driver the library still loads; its functions raise when called.
        gpu = "gpu" in self.manifest
        gpu_error = None
        if gpu:
            from . import gpu_runtime

            gpu_runtime.load()
            gpu_runtime.clear()
        self._handle = ctypes.CDLL(str(self.path))
        if gpu:
            gpu_error = gpu_runtime.last_error()
            gpu_runtime.clear()
            if str(self.manifest["gpu"]).startswith("gfx"):
                # The runtime loads NVIDIA code only: AMD kernels are
                # checked by their assembly and the emulation so far.
                gpu_error = (
                    f"kernels for the AMD GPU {self.manifest['gpu']} cannot run yet (polyblocks-rs has no HIP "
                    "runtime); compile with compile_options={'target': 'amdgpu', 'emulate': True} to run the "
                    "mapping on the CPU"
                )
        errors = self.manifest.get("errors", [])
        if "profile" in self.manifest:
            from . import profile

            profile.register(self.path.resolve(), self._handle, self.manifest["profile"])
        self.functions = {
            spec["name"]: Function(self._handle, spec, errors, gpu_error, gpu) for spec in self.manifest["functions"]
        }

    def __getitem__(self, name: str) -> Function:
        try:
            return self.functions[name]
        except KeyError:
            raise LibraryError(f"no function {name!r} (has: {', '.join(self.functions)})") from None
