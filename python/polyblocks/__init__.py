"""polyblocks-rs: compile array programs with a generated-code engine.

Today this package holds the engine-facing pieces: compiling MLIR text with
the Rust engine (`engine.compile_mlir`) and calling the compiled functions on
numpy arrays (`runtime.Library`). The framework decorators
(`polyblocks_jit_torch`, ...) build on them.
"""

from .engine import CompileError, compile_mlir
from .runtime import Library, LibraryError

__all__ = ["CompileError", "Library", "LibraryError", "compile_mlir"]
