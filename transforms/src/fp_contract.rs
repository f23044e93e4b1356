//! `pb-fp-contract`: allow each float product to be fused with the sum or
//! difference that uses it (one FMA, one rounding), by adding `contract` to
//! the `fastmath` flags of both ops.
//!
//! Why: programs from the frameworks arrive without fastmath flags, so
//! LLVM keeps `a * b + c` as a multiply and an add, two vector instructions
//! where one fused multiply-add does (and is more accurate: the product is
//! not rounded). On AVX-512 hosts only two ports run 512-bit arithmetic, so
//! an elementwise kernel's speed is its op count: LayerNorm's `x * rstd *
//! weight + bias`, a variance's `d * d + acc`, a bias after a scale. This is
//! the contraction C compilers do within an expression (`-ffp-contract=on`),
//! and PyTorch's own CPU kernels use FMA for the same expressions (its
//! LayerNorm, its vectorized polynomials); results differ from separately
//! rounded ops by at most one rounding of the product. The cpu pipeline runs
//! it unless the `fp_contract` compile option (`--no-fp-contract`) is off.
//!
//! Only `arith.mulf` results used by `arith.addf`/`arith.subf` and those
//! users are flagged; no other reassociation is allowed.
//!
//! ```mlir
//! %p = arith.mulf %a, %b : vector<16xf32>
//! %s = arith.addf %p, %c : vector<16xf32>
//! // becomes
//! %p = arith.mulf %a, %b fastmath<contract> : vector<16xf32>
//! %s = arith.addf %p, %c fastmath<contract> : vector<16xf32>
//! ```

use melior::ir::{operation::WalkOrder, OperationRef};
use pb_support::{ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-fp-contract",
    summary: "Let float products fuse with the add or subtract that uses them (fastmath<contract>)",
    description: "Adds `contract` to the fastmath flags of each `arith.mulf` whose result is used by \
an `arith.addf` or `arith.subf`, and of those users, so that LLVM emits one fused multiply-add (one \
rounding) where the target has FMA. Nothing else is reassociated.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<FpContract>,
};

#[derive(Clone, Default)]
struct FpContract;

impl RustPass for FpContract {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &[]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let products = ffi::collect_ops(root, WalkOrder::PreOrder, |op| ir::is_named(op, "arith.mulf"));
        for product in products {
            let Ok(result) = product.result(0) else { continue };
            let sums: Vec<_> = ffi::users(result.into())
                .into_iter()
                .filter(|user| ir::is_named(*user, "arith.addf") || ir::is_named(*user, "arith.subf"))
                .collect();
            if sums.is_empty() {
                continue;
            }
            ffi::with_context(product, |context| {
                ir::add_fastmath_flag(context, product, "contract");
                for sum in &sums {
                    ir::add_fastmath_flag(context, *sum, "contract");
                }
            });
        }
        Ok(())
    }
}
