"""polyblocks-rs: compile array programs with a generated-code engine.

- `polyblocks_jit_torch`, `polymage_jit_torch`, `polyblocks_aot_torch`
  (also in `polyblocks.torch_polyblocks_compiler`): the PyTorch front.
- `polyblocks.common_utils.validate_outputs`: compare with eager results.
- `compile_mlir` / `Library`: the engine and runtime underneath.

PyTorch is imported only when a PyTorch entry point is first used.
"""

from .engine import CompileError, compile_mlir
from .options import OptionError
from .runtime import Library, LibraryError

__all__ = [
    "CompileError",
    "Library",
    "LibraryError",
    "OptionError",
    "compile_mlir",
    "polyblocks_aot_torch",
    "polyblocks_jit_torch",
    "polymage_jit_torch",
]

_TORCH_NAMES = ("polyblocks_jit_torch", "polymage_jit_torch", "polyblocks_aot_torch")


def __getattr__(name):
    if name in _TORCH_NAMES:
        from . import torch_polyblocks_compiler

        return getattr(torch_polyblocks_compiler, name)
    raise AttributeError(f"module 'polyblocks' has no attribute {name!r}")
