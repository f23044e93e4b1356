"""StableHLO to linalg-on-tensors text with jaxlib's bundled MLIR and
StableHLO passes (GUIDE §1): the path the fronts took before the engine
read StableHLO itself (`pb_dialects::stablehlo`, `pb-legalize-stablehlo`).
No front uses it now; `jit_common.compile_stablehlo(..., via_jaxlib=True)`
keeps it for benchmarks that compare the two paths (bench/tf_paths_bench.py)."""

from __future__ import annotations

from .engine import CompileError

PIPELINE = (
    "builtin.module(inline,func.func(chlo-legalize-to-stablehlo),"
    "func.func(stablehlo-legalize-to-linalg),canonicalize)"
)


def to_linalg(text: str, keep_locations: bool = False) -> str:
    """Converts StableHLO text and returns linalg text. Works on a copy (a
    fresh parse), so the caller's module stays usable by XLA. Ops without a
    linalg lowering are a `CompileError` naming them and their locations.
    `keep_locations`: the result keeps the source locations (profiles)."""
    try:
        from jax._src.interpreters import mlir as jax_mlir
        from jaxlib.mlir import ir, passmanager
        from jaxlib.mlir._mlir_libs import _stablehlo
    except ModuleNotFoundError as error:
        raise ImportError(
            f"converting StableHLO to linalg needs '{(error.name or 'jax').split('.')[0]}' today (jaxlib's "
            "StableHLO passes): pip install 'polyblocks[jax]'"
        ) from error

    _stablehlo.register_stablehlo_passes()
    with jax_mlir.make_ir_context():
        try:
            module = ir.Module.parse(text)
            passmanager.PassManager.parse(PIPELINE).run(module.operation)
        except ir.MLIRError as error:
            lines = [line.strip() for line in str(error).splitlines() if line.strip()]
            detail = next((line for line in lines if line.startswith("error:")), lines[-1] if lines else "")
            raise CompileError(f"StableHLO to linalg conversion failed: {detail}") from None
        left = []

        def visit(op):
            name = op.operation.name
            if name.split(".")[0] in ("stablehlo", "chlo", "mhlo"):
                left.append(f"unsupported op '{name}' at {op.operation.location}")
                return ir.WalkResult.SKIP
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
        if left:
            raise CompileError("; ".join(dict.fromkeys(left)) + " (no linalg lowering for it)")
        _strip_partitioning(module)
        return module.operation.get_asm(enable_debug_info=keep_locations)


def _strip_partitioning(module) -> None:
    """Removes what only XLA's partitioner reads: Shardy `sdy.mesh`
    declarations (present when inputs come from `jax.device_put`) and the
    argument/result attributes that carry shardings and layouts."""
    for op in list(module.body.operations):
        name = op.operation.name
        if name.startswith("sdy."):
            op.operation.erase()
        elif name == "func.func":
            for attribute in ("arg_attrs", "res_attrs"):
                if attribute in op.operation.attributes:
                    del op.operation.attributes[attribute]
