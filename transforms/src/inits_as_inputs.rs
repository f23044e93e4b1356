//! `pb-inits-as-inputs`: an elementwise `linalg.generic` whose body reads
//! the initial value of an output takes that value as an input instead, and
//! writes a fresh `tensor.empty`.
//!
//! Why: in an op whose loops are all parallel, each output element is
//! written once, from its own initial value, so the init is just one more
//! input. Left as an output, upstream `linalg-fuse-elementwise-ops`
//! miscompiles it when the consumer broadcasts the result: the producer's
//! body moves into the consumer's loops with its output map made a
//! broadcast, so the read-modify-write of the init runs once per consumer
//! iteration and accumulates. torch-mlir writes such ops for a sum over a
//! 0-d tensor (`x.var()` of a 0-d `x`: the "sum" has no loops and adds the
//! value to its zero init): `v.var(correction=0) * w` for a 0-d `v` and a
//! `w` of 2 elements gave `[0, 2 v^2]` instead of `[0, 0]` (fuzz program
//! 0:8546). As an input, the init is read, never written, wherever the
//! body goes.
//!
//! ```mlir
//! %s = linalg.generic {indexing_maps = [#id0, #id0], iterator_types = []}
//!        ins(%x : tensor<f32>) outs(%zero : tensor<f32>) {
//!   ^bb0(%in: f32, %out: f32):
//!     %a = arith.addf %in, %out : f32
//!     linalg.yield %a : f32 } -> tensor<f32>
//! // becomes
//! %e = tensor.empty() : tensor<f32>
//! %s = linalg.generic {indexing_maps = [#id0, #id0, #id0], iterator_types = []}
//!        ins(%x, %zero : tensor<f32>, tensor<f32>) outs(%e : tensor<f32>) {
//!   ^bb0(%in: f32, %init: f32, %out: f32):
//!     %a = arith.addf %in, %init : f32
//!     linalg.yield %a : f32 } -> tensor<f32>
//! ```
//!
//! Ops with a reduction loop, memref operands and dynamic shapes are left
//! alone.

use melior::{
    ir::{
        attribute::ArrayAttribute,
        operation::{OperationLike, WalkOrder},
        r#type::{DimSize, RankedTensorType, ShapedTypeLike},
        Attribute, BlockLike, OperationRef, RegionLike, ValueLike,
    },
    Context, IrRewriter,
};
use crate::linalg_ops::{all_parallel, segments};
use pb_support::{builder::Emitter, ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-inits-as-inputs",
    summary: "Pass the initial value of an elementwise generic's output as an input, writing a fresh tensor",
    description: "In each `linalg.generic` on tensors whose loops are all parallel (or that has no \
loops), every output whose block argument is used in the body becomes an extra input (same \
indexing map) and the output is a new `tensor.empty` of its static type. Runs before \
linalg-fuse-elementwise-ops in the cpu pipeline: fused into a consumer that broadcasts it, an \
output read-modify-write would run once per consumer iteration.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<InitsAsInputs>,
};

#[derive(Clone, Default)]
struct InitsAsInputs;

impl RustPass for InitsAsInputs {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["linalg", "tensor"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let generics = ffi::collect_ops(root, WalkOrder::PreOrder, |op| ir::is_named(op, "linalg.generic"));
        for generic in generics {
            if all_parallel(generic) {
                ffi::with_context(generic, |context| while move_one_init(context, generic) {});
            }
        }
        Ok(())
    }
}

/// Moves the first output whose init the body reads into the inputs;
/// false when there is none (or the op is not one this pass rewrites).
fn move_one_init<'c>(context: &'c Context, generic: OperationRef<'c, '_>) -> bool {
    let Some((inputs, outputs)) = segments(generic) else { return false };
    let Some(body) = generic.region(0).ok().and_then(|r| r.first_block()) else { return false };
    if body.argument_count() != inputs + outputs || generic.operand_count() != inputs + outputs {
        return false;
    }
    let Some(maps) = generic.attribute("indexing_maps").ok().and_then(|a| ArrayAttribute::try_from(a).ok()) else {
        return false;
    };
    let Some(j) = (0..outputs).find(|&j| {
        let read = body.argument(inputs + j).map(ffi::has_uses).unwrap_or(false);
        let static_tensor = ffi::operand(generic, inputs + j)
            .and_then(|v| RankedTensorType::try_from(v.r#type()).ok())
            .map(|t| (0..t.rank()).all(|d| matches!(t.dim_size(d), Ok(DimSize::Static(_)))))
            .unwrap_or(false);
        read && static_tensor
    }) else {
        return false;
    };
    let mut operands: Vec<_> = (0..generic.operand_count()).filter_map(|k| ffi::operand(generic, k)).collect();
    let init = operands[inputs + j];
    let ir_rewriter = IrRewriter::from_op(generic);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(generic);
    let emitter = Emitter { context, rewriter: &rewriter, location: generic.location() };
    let empty = emitter.value("tensor.empty", &[], init.r#type(), &[]);
    operands[inputs + j] = empty;
    operands.insert(inputs, init);
    ffi::set_operands(generic, &operands);

    let old = body.argument(inputs + j).expect("output argument");
    let new = ffi::insert_block_argument(body, inputs, old.r#type(), generic.location());
    ffi::replace_all_uses(old.into(), new);

    let mut map_list: Vec<Attribute> = (0..maps.len()).filter_map(|k| maps.element(k).ok()).collect();
    map_list.insert(inputs, map_list[inputs + j]);
    ffi::set_attribute(generic, "indexing_maps", ArrayAttribute::new(context, &map_list).into());
    let sizes = emitter.attribute(&format!("array<i32: {}, {}>", inputs + 1, outputs));
    ffi::set_attribute(generic, "operandSegmentSizes", sizes);
    true
}
