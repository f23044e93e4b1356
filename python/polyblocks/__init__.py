"""polyblocks-rs: compile array programs with a generated-code engine.

- `polyblocks_jit_torch`, `polymage_jit_torch`, `polyblocks_aot_torch`
  (also in `polyblocks.torch_polyblocks_compiler`): the PyTorch front.
- `polyblocks_jit_jax`, `polymage_jit_jax` (`polyblocks.jax_polyblocks_compiler`).
- `polyblocks_jit_tf`, `polymage_jit_tf` (`polyblocks.tf_polyblocks_compiler`).
- `polyblocks.common_utils.validate_outputs`: compare with eager results.
- `compile_mlir` / `Library`: the engine and runtime underneath.
- `polyblocks.cache`: the on-disk compile cache (`clear()`, `size()`).
- Messages go through `logging` under the logger `"polyblocks"`
  (`polyblocks.log`; `$POLYBLOCKS_LOG=debug` for details).

A framework is imported only when one of its entry points is first used.
"""

from . import cache, log
from .engine import CompileError, compile_mlir
from .options import OptionError
from .runtime import Library, LibraryError

__all__ = [
    "CompileError",
    "Library",
    "cache",
    "LibraryError",
    "OptionError",
    "compile_mlir",
    "polyblocks_aot_torch",
    "polyblocks_jit_jax",
    "polyblocks_jit_tf",
    "polyblocks_jit_torch",
    "polymage_jit_jax",
    "polymage_jit_tf",
    "polymage_jit_torch",
]

# Each front is imported only when first used: a JAX user never imports
# torch or TensorFlow.
_FRONTS = {
    "polyblocks_jit_torch": "torch_polyblocks_compiler",
    "polymage_jit_torch": "torch_polyblocks_compiler",
    "polyblocks_aot_torch": "torch_polyblocks_compiler",
    "polyblocks_jit_jax": "jax_polyblocks_compiler",
    "polymage_jit_jax": "jax_polyblocks_compiler",
    "polyblocks_jit_tf": "tf_polyblocks_compiler",
    "polymage_jit_tf": "tf_polyblocks_compiler",
}


# The packages each front needs, and the wheel's extra that installs them.
_NEEDS = {
    "torch_polyblocks_compiler": ("torch", {"torch", "torch_mlir"}),
    "jax_polyblocks_compiler": ("jax", {"jax", "jaxlib"}),
    "tf_polyblocks_compiler": ("tensorflow", {"tensorflow"}),
}


def __getattr__(name):
    if name in _FRONTS:
        import importlib

        front = _FRONTS[name]
        try:
            module = importlib.import_module(f".{front}", __name__)
        except ModuleNotFoundError as error:
            extra, needed = _NEEDS[front]
            missing = (error.name or "").split(".")[0]
            if missing not in needed:
                raise
            raise ImportError(
                f"polyblocks.{name} needs the Python package '{missing}', which is not installed: "
                f"pip install 'polyblocks[{extra}]' (or install {missing} yourself)"
            ) from error
        return getattr(module, name)
    raise AttributeError(f"module 'polyblocks' has no attribute {name!r}")
