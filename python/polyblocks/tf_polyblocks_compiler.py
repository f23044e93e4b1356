"""The TensorFlow front: `@polyblocks_jit_tf` and `polymage_jit_tf`.

Path: `tf.function(f, jit_compile=True).experimental_get_compiler_ir(...)`
gives StableHLO text, which the engine reads and compiles itself (its
StableHLO importer and `pb-legalize-stablehlo`): no JAX needed. TF passes variables (Keras weights) to the compiled program as
extra arguments after the explicit ones; we read their current values on
each call, so weights are never baked in.

Programs with ops the engine cannot compile run with TensorFlow's XLA JIT
instead, with one warning naming the op (compile option `fallback`).
"""

from __future__ import annotations

import functools

import numpy as np
import tensorflow as tf

from . import cache, jit_common
from . import options as option_parsing

__all__ = ["polyblocks_jit_tf", "polymage_jit_tf"]


def _captured_values(concrete) -> list:
    """Current values of what the function captures, in the order of its
    compiled arguments (after the explicit inputs)."""
    by_handle = {id(v.handle): v for v in concrete.variables}
    values = []
    for captured in concrete.captured_inputs:
        variable = by_handle.get(id(captured))
        values.append(np.asarray(variable.numpy() if variable is not None else captured.numpy()))
    return values


def polyblocks_jit_tf(fn=None, *, input_signature=None, compile_options: dict | None = None):
    """Compiles a TensorFlow function, Keras layer or model with polyblocks.

    `input_signature` (a list of `tf.TensorSpec`) fixes shapes and dtypes as
    for `tf.function`; without it, each new combination of input shapes and
    dtypes compiles once (and is cached on disk). Inputs may be numpy arrays
    or `tf.Tensor`s.
    """
    options = option_parsing.parse(compile_options)

    def decorate(target):
        xla_function = tf.function(target, input_signature=input_signature, jit_compile=True)
        compiled: dict = {}

        def call(*args):
            tensors = [tf.convert_to_tensor(a) for a in args]
            key = tuple((tuple(t.shape), t.dtype.name) for t in tensors)
            entry = compiled.get(key)
            if entry is None:
                entry = compiled[key] = _compile(xla_function, target, tensors, options)
            function, concrete = entry
            if function is None:
                return xla_function(*tensors)
            outputs = function(*[_to_numpy(t) for t in tensors], *_captured_values(concrete))
            outputs = outputs if isinstance(outputs, tuple) else (outputs,)
            return tf.nest.pack_sequence_as(concrete.structured_outputs, [_to_tf(o) for o in outputs])

        if callable(target) and hasattr(target, "__name__"):
            call = functools.wraps(target)(call)
        return call

    return decorate(fn) if fn is not None else decorate


def _to_numpy(tensor) -> np.ndarray:
    """A host tensor's memory as numpy, without a copy when DLPack allows."""
    try:
        return np.from_dlpack(tensor)
    except Exception:  # noqa: BLE001 - e.g. string or unaligned tensors
        return tensor.numpy()


def _to_tf(array: np.ndarray):
    """Hands a result to TensorFlow without copying when DLPack allows."""
    try:
        return tf.experimental.dlpack.from_dlpack(array.__dlpack__())
    except Exception:  # noqa: BLE001 - e.g. bool arrays: copy instead
        return tf.constant(array)


def _compile(xla_function, target, tensors, options):
    concrete = xla_function.get_concrete_function(*tensors)
    hlo = xla_function.experimental_get_compiler_ir(*tensors)(stage="stablehlo")
    key = cache.key("tf", hlo, options.cache_key())
    library = jit_common.compile_stablehlo(key, hlo, options, target, "TensorFlow's XLA JIT")
    return (None if library is None else library["main"]), concrete


def polymage_jit_tf(fn=None, *, execution_backend: str = "polyblocks", input_signature=None, compile_options=None):
    """Runs `fn` through `execution_backend`: 'std' (the TF executor, a plain
    `tf.function`), 'xla' (`jit_compile=True`) or 'polyblocks'."""
    backends = ("std", "xla", "polyblocks")
    if execution_backend not in backends:
        raise option_parsing.OptionError(f"execution_backend must be one of {backends}, got {execution_backend!r}")

    def decorate(target):
        if execution_backend == "std":
            return tf.function(target, input_signature=input_signature)
        if execution_backend == "xla":
            return tf.function(target, input_signature=input_signature, jit_compile=True)
        return polyblocks_jit_tf(target, input_signature=input_signature, compile_options=compile_options)

    return decorate(fn) if fn is not None else decorate
