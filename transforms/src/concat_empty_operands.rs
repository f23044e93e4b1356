//! `pb-concat-empty-operands`: a `tensor.concat` loses the operands that
//! are empty along its dimension.
//!
//! Why: an empty piece contributes nothing, yet bufferization still makes
//! it a `memref.subview` at its offset; for a last operand that offset is
//! the full size, which the verifier rejects ("offset 0 is out-of-bounds:
//! 5 >= 5"), so valid input failed to compile. torch-mlir concatenates an
//! empty slice this way (`torch.roll` by a multiple of the size, `cat`
//! with an empty tensor: fuzz repro `concat_empty_last_operand.py`).
//! Sizes are read through `tensor.cast`s, which torch-mlir puts around
//! every operand (the empty one arrives as `tensor<?xf32>`).
//!
//! ```mlir
//! %c = tensor.concat dim(0) %a, %e : (tensor<?xf32>, tensor<?xf32>) -> tensor<5xf32>
//! // with %e of static size 0 behind its cast, becomes
//! %c = tensor.cast %a : tensor<?xf32> to tensor<5xf32>
//! ```
//!
//! With two or more non-empty operands left the concat keeps those; with
//! none (an empty result of static shape) it becomes a `tensor.empty`.

use melior::{
    ir::{
        operation::{OperationLike, WalkOrder},
        r#type::{DimSize, RankedTensorType},
        OperationRef, ShapedTypeLike, Value, ValueLike,
    },
    Context, IrRewriter,
};
use pb_support::{builder::Emitter, ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-concat-empty-operands",
    summary: "Drop the operands of tensor.concat that are empty along its dimension",
    description: "Removes from each `tensor.concat` the operands whose static size along the \
concatenated dimension is 0 (looking through tensor.cast): one operand left becomes a tensor.cast \
to the result type, none (a static empty result) a tensor.empty. Bufferization would otherwise \
make an out-of-bounds subview for an empty last operand.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<ConcatEmptyOperands>,
};

#[derive(Clone, Default)]
struct ConcatEmptyOperands;

/// The static size of `value` along `dim`, looking through `tensor.cast`s.
fn static_size(value: Value, dim: usize) -> Option<i64> {
    let mut value = value;
    loop {
        if let Ok(ty) = RankedTensorType::try_from(value.r#type()) {
            if let Ok(DimSize::Static(size)) = ty.dim_size(dim) {
                return Some(size as i64);
            }
        }
        let cast = ffi::defining_op(value).filter(|op| ir::is_named(*op, "tensor.cast"))?;
        value = cast.operand(0).ok()?;
    }
}

/// The `dim` attribute of a concat.
pub(crate) fn concat_dim(op: OperationRef) -> Option<usize> {
    let text = op.attribute("dim").ok()?.to_string();
    text.split(':').next()?.trim().parse().ok()
}

impl RustPass for ConcatEmptyOperands {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["tensor"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let concats = ffi::collect_ops(func, WalkOrder::PreOrder, |op| ir::is_named(op, "tensor.concat"));
        for concat in concats {
            let Some(dim) = concat_dim(concat) else { continue };
            let operands: Vec<Value> = (0..concat.operand_count()).filter_map(|i| concat.operand(i).ok()).collect();
            let kept: Vec<Value> = operands.iter().copied().filter(|v| static_size(*v, dim) != Some(0)).collect();
            if kept.len() == operands.len() {
                continue;
            }
            ffi::with_context(concat, |context| rewrite(context, concat, &kept));
        }
        Ok(())
    }
}

/// Replaces `concat` by the concatenation of `kept` alone.
fn rewrite<'c>(context: &'c Context, concat: OperationRef<'c, '_>, kept: &[Value<'c, '_>]) {
    let Ok(result) = concat.result(0) else { return };
    let result_type = result.r#type();
    let ir_rewriter = IrRewriter::from_op(concat);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(concat);
    let emitter = Emitter { context, rewriter: &rewriter, location: concat.location() };
    let replacement = match kept {
        [] => {
            let static_shape = RankedTensorType::try_from(result_type)
                .is_ok_and(|ty| (0..ty.rank()).all(|d| matches!(ty.dim_size(d), Ok(DimSize::Static(_)))));
            if !static_shape {
                return; // an empty result of dynamic shape: left as it is
            }
            emitter.value("tensor.empty", &[], result_type, &[])
        }
        [one] if one.r#type() == result_type => *one,
        [one] => emitter.value("tensor.cast", &[*one], result_type, &[]),
        several => {
            let dim = concat.attribute("dim").expect("checked by concat_dim");
            emitter.value("tensor.concat", several, result_type, &[("dim", dim)])
        }
    };
    ffi::replace_all_uses(result.into(), replacement);
    // SAFETY: its one result's uses were just replaced; `concat` is a tensor.concat (no regions), and
    // the pass's list holds no other handle to it.
    unsafe { ffi::erase(concat) };
}
