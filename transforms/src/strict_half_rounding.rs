//! `pb-strict-half-rounding`: every float16/bfloat16 rounding stays in the
//! program, by removing `contract` from the `fastmath` flags of
//! `arith.truncf` to, and `arith.extf` from, a 16-bit float type.
//!
//! Why: the `llvm` stage computes float16/bfloat16 arithmetic in float32
//! (`arith-emulate-unsupported-floats`), rounding each op's result back to
//! 16 bits as PyTorch's CPU kernels do. The emulation marks the
//! `truncf`/`extf` pairs it inserts with `contract`, and MLIR folds
//! `extf(truncf(x))` to `x` when both carry it: any later greedy rewrite
//! (`arith-expand`, `pb-expand-math`) then drops the rounding between two
//! ops of a fused kernel. `int64 -> float16` of 2197 then stayed 2197
//! (float16 has 2196 and 2198) and `remainder(2197, -2.125)` came out -0.25
//! where PyTorch gives -1.25 (fuzz program 3:6893). Without `contract` the
//! pair is kept, and LLVM keeps it too (it never drops a rounding that
//! changes values).
//!
//! ```mlir
//! %t = arith.truncf %x fastmath<contract> : f32 to f16
//! // becomes
//! %t = arith.truncf %x : f32 to f16
//! ```

use melior::ir::{operation::{OperationLike, WalkOrder}, OperationRef, ValueLike};
use pb_support::{ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-strict-half-rounding",
    summary: "Keep every float16/bfloat16 rounding (no `contract` on truncf/extf of 16-bit floats)",
    description: "Removes `contract` from the fastmath flags of arith.truncf ops producing, and \
arith.extf ops reading, float16 or bfloat16 values (scalars or vectors), so that folding cannot \
drop the rounding to 16 bits between two emulated ops: results round after each op, as PyTorch's \
CPU kernels compute them.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<StrictHalfRounding>,
};

#[derive(Clone, Default)]
struct StrictHalfRounding;

/// Whether `ty` (printed) is a 16-bit float or a vector of them.
fn is_half(ty: &str) -> bool {
    let element = ty.trim_end_matches('>').rsplit(['x', '<']).next().unwrap_or(ty);
    element == "f16" || element == "bf16"
}

impl RustPass for StrictHalfRounding {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &[]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let roundings = ffi::collect_ops(root, WalkOrder::PreOrder, |op| {
            let half = if ir::is_named(op, "arith.truncf") {
                op.result(0).map(|r| r.r#type().to_string())
            } else if ir::is_named(op, "arith.extf") {
                op.operand(0).map(|v| v.r#type().to_string())
            } else {
                return false;
            };
            half.is_ok_and(|ty| is_half(&ty)) && ir::fastmath_flags(op).iter().any(|f| f == "contract")
        });
        for op in roundings {
            ffi::with_context(op, |context| ir::remove_fastmath_flag(context, op, "contract"));
        }
        Ok(())
    }
}
