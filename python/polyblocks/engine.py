"""Driving the Rust engine: MLIR text in, a loadable library out.

The engine is the `pb-compile` binary built by the project's set-up (see
docs/architecture.md for why a binary and not an in-process extension).
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import tempfile

from .runtime import Library

_REPO = pathlib.Path(__file__).resolve().parents[2]


class CompileError(RuntimeError):
    """The engine rejected the program; the message names the op and place."""


def engine_binary() -> pathlib.Path:
    """Path of `pb-compile`: $POLYBLOCKS_COMPILE, else the workspace build."""
    override = os.environ.get("POLYBLOCKS_COMPILE")
    if override:
        return pathlib.Path(override)
    for profile in ("release", "debug"):
        candidate = _REPO / "target" / profile / "pb-compile"
        if candidate.exists():
            return candidate
    raise CompileError("pb-compile not found: run scripts/setup.sh (or set POLYBLOCKS_COMPILE)")


def compile_mlir(
    text: str,
    out_dir: str | os.PathLike | None = None,
    name: str = "module",
    extra_args: list[str] | None = None,
) -> Library:
    """Compiles MLIR `text` into `out_dir/lib<name>.so` and loads it."""
    out = pathlib.Path(out_dir or tempfile.mkdtemp(prefix="polyblocks-"))
    out.mkdir(parents=True, exist_ok=True)
    source = out / f"{name}.mlir"
    source.write_text(text)
    library = out / f"lib{name}.so"
    command = [str(engine_binary()), str(source), "-o", str(library), *(extra_args or [])]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise CompileError(result.stderr.strip() or f"pb-compile exited with {result.returncode}")
    return Library(library)
