"""The JAX front: `@polyblocks_jit_jax` and `polymage_jit_jax`.

Path: `jax.jit(f, static_argnums=..., keep_unused=True).lower(...)` gives
StableHLO, which the engine reads and compiles itself (as for TensorFlow:
no private jaxlib API on the path); the compiled function is called on the flattened pytree of
arrays (parameters passed as arguments, e.g. flax `variables`, stay
arguments), and outputs are unflattened into JAX's output tree.

Programs with ops the engine cannot compile run with `jax.jit` instead, with
one warning naming the op (compile option `fallback`, default on).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from . import cache, jit_common
from . import options as option_parsing

__all__ = ["polyblocks_jit_jax", "polymage_jit_jax"]


def _leaf_spec(leaf):
    array = jnp.asarray(leaf) if not hasattr(leaf, "dtype") else leaf
    return tuple(np.shape(array)), str(array.dtype)


def polyblocks_jit_jax(fn=None, *, compile_options: dict | None = None):
    """Compiles a JAX function with polyblocks when called.

    Non-static arguments may be arrays (`jax.device_put`, numpy) or pytrees of
    them; `compile_options={"static_argnums": (2, 3)}` treats those arguments
    as compile-time constants (they must be hashable). One compilation per
    new combination of shapes, dtypes and static values; cached on disk.
    """
    options = option_parsing.parse(compile_options)
    static = tuple(options.get("static_argnums") or ())

    def decorate(target):
        jitted = jax.jit(target, static_argnums=static, keep_unused=True)
        compiled: dict = {}

        @functools.wraps(target)
        def call(*args):
            for index in static:
                if index >= len(args):
                    raise option_parsing.OptionError(f"static_argnums names argument {index}, but only {len(args)} were given")
            dynamic = [a for i, a in enumerate(args) if i not in static]
            leaves, treedef = jax.tree_util.tree_flatten(dynamic)
            statics = tuple(args[i] for i in static)
            try:
                key = (treedef, tuple(_leaf_spec(leaf) for leaf in leaves), statics)
                hash(key)
            except TypeError as error:
                raise TypeError(f"static arguments must be hashable: {error}") from None
            entry = compiled.get(key)
            if entry is None:
                entry = compiled[key] = _compile(jitted, target, args, options)
            if entry[0] is None:  # fallback to jax.jit
                return jitted(*args)
            function, out_tree = entry
            arrays = [np.asarray(jnp.asarray(leaf)) for leaf in leaves]
            outputs = function(*arrays)
            outputs = outputs if isinstance(outputs, tuple) else (outputs,)
            return jax.tree_util.tree_unflatten(out_tree, [_to_jax(o) for o in outputs])

        return call

    return decorate(fn) if fn is not None else decorate


def _to_jax(array: np.ndarray):
    """Hands a (64-byte-aligned) result to JAX without copying when it can."""
    try:
        return jax.dlpack.from_dlpack(array)
    except Exception:  # noqa: BLE001 - e.g. bool arrays: copy instead
        return jnp.asarray(array)


def _compile(jitted, target, args, options):
    lowered = jitted.lower(*args)
    # With locations, so that errors name the user's source line.
    hlo = lowered.compiler_ir("stablehlo").operation.get_asm(enable_debug_info=True)
    library = jit_common.compile_stablehlo(cache.key("jax", hlo, options.cache_key()), hlo, options, target, "jax.jit")
    return (None, None) if library is None else (library["main"], lowered.out_tree)


def polymage_jit_jax(fn=None, *, execution_backend: str = "polyblocks", compile_options: dict | None = None):
    """Runs `fn` through `execution_backend`: 'std' (op by op), 'xla'
    (`jax.jit`) or 'polyblocks'."""
    backends = ("std", "xla", "polyblocks")
    if execution_backend not in backends:
        raise option_parsing.OptionError(f"execution_backend must be one of {backends}, got {execution_backend!r}")
    options = option_parsing.parse(compile_options)

    def decorate(target):
        if execution_backend == "std":
            return target
        if execution_backend == "xla":
            return jax.jit(target, static_argnums=tuple(options.get("static_argnums") or ()))
        return polyblocks_jit_jax(target, compile_options=compile_options)

    return decorate(fn) if fn is not None else decorate
