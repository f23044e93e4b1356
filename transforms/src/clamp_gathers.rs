//! `pb-clamp-gathers`: clamp each computed index of a `tensor.extract` into
//! the tensor's bounds.
//!
//! Why: torch-mlir lowers PyTorch's gathers (`index`, `_unsafe_index`,
//! `embedding`, nearest and bilinear upsampling, `grid_sample`) to
//! `tensor.extract` at indices computed in the loop body, with no bounds
//! check: an index out of range reads outside the buffer, returning garbage
//! (nearest upsampling with scales that disagree with the output size read
//! values up to 1e25 past its input) or crashing the process. PyTorch's
//! kernels clamp there (upsampling: `min(floor(i * scale), size - 1)`) or
//! raise an `IndexError` (indexing); generated code cannot raise, and must
//! never read outside a buffer, so every index that is not a constant in
//! bounds becomes `min(max(i, 0), size - 1)`: PyTorch's result where it
//! clamps, a defined value where it would have raised. Two integer ops per
//! index, next to a load that is a gather anyway.
//!
//! ```mlir
//! %v = tensor.extract %t[%i, %c1] : tensor<2x4xf32>
//! // becomes
//! %lo = arith.maxsi %i, %c0 : index
//! %in = arith.minsi %lo, %c1 : index        // size 2 - 1
//! %v = tensor.extract %t[%in, %c1] : tensor<2x4xf32>
//! ```
//!
//! Dynamic sizes are left alone (the cpu pipeline takes static shapes).

use melior::{
    ir::{
        operation::{OperationLike, WalkOrder},
        r#type::{DimSize, RankedTensorType, ShapedTypeLike},
        OperationRef, ValueLike,
    },
    Context, IrRewriter,
};
use pb_support::{builder::Emitter, ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-clamp-gathers",
    summary: "Clamp the computed indices of tensor.extract into the tensor's bounds",
    description: "Each index of a `tensor.extract` on a statically shaped tensor that is not a \
constant within bounds becomes `minsi(maxsi(index, 0), size - 1)`: gathers lowered from PyTorch \
(indexing, embedding, upsampling) then never read outside their buffer, and nearest upsampling \
clamps as PyTorch's kernel does. Runs in the cpu pipeline's `legalize` stage.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<ClampGathers>,
};

#[derive(Clone, Default)]
struct ClampGathers;

impl RustPass for ClampGathers {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["arith"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let extracts = ffi::collect_ops(root, WalkOrder::PreOrder, |op| ir::is_named(op, "tensor.extract"));
        for extract in extracts {
            ffi::with_context(extract, |context| clamp(context, extract));
        }
        Ok(())
    }
}

fn clamp<'c>(context: &'c Context, extract: OperationRef<'c, '_>) {
    let Some(tensor) = ffi::operand(extract, 0) else { return };
    let Ok(ty) = RankedTensorType::try_from(tensor.r#type()) else { return };
    let ir_rewriter = IrRewriter::from_op(extract);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(extract);
    let emitter = Emitter { context, rewriter: &rewriter, location: extract.location() };
    for dim in 0..ty.rank() {
        let Ok(DimSize::Static(size)) = ty.dim_size(dim) else { continue };
        let Some(index) = ffi::operand(extract, dim + 1) else { continue };
        let size = size as i64;
        if ir::constant_int(index).is_some_and(|c| (0..size).contains(&c)) || size == 0 {
            continue;
        }
        let low = emitter.binary("arith.maxsi", index, emitter.index(0));
        let clamped = emitter.binary("arith.minsi", low, emitter.index(size - 1));
        ffi::set_operand(extract, dim + 1, clamped);
    }
}
