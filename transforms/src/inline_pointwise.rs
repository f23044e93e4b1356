//! `pb-inline-pointwise`: an elementwise `linalg.generic` cheap enough to
//! recompute (a product, a scaled copy: at most [`MAX_OPS`] arithmetic ops)
//! whose result is read by several elementwise consumers, or through slices
//! (a stencil reading it at several offsets), is recomputed for each reader
//! instead of stored once: a copy of it per use, which the elementwise
//! fusion that follows moves into that reader.
//!
//! Why: a stored temporary costs a store and a load per element and reader,
//! where recomputing costs the producer's few ops. Harris corner computes
//! its gradient products once and reads each at nine offsets in its box
//! sums; its Sobel terms are shared by both gradients. Stored, those are
//! seven tile buffers written and read per row; inlined (what Halide's
//! schedules do: `compute_inline`), only the two gradients are stored. The
//! values are the same: each copy runs the same ops on the same elements.
//!
//! ```mlir
//! %p = linalg.generic {ins(%ix, %ix) ...} { %m = arith.mulf %a, %b }   // ix * ix
//! %s0 = tensor.extract_slice %p[0, 0] [n, m] [1, 1]
//! %s1 = tensor.extract_slice %p[0, 1] [n, m] [1, 1]
//! // becomes one copy of the product per slice, on slices of its inputs:
//! %i0 = tensor.extract_slice %ix[0, 0] [n, m] [1, 1]
//! %s0 = linalg.generic {ins(%i0, %i0) ...} { %m = arith.mulf %a, %b }
//! ...
//! ```
//!
//! Only producers whose inputs all have identity maps (elementwise, no
//! broadcast) and whose body has no `linalg.index`, and only when every
//! use is an all-parallel `linalg.generic` input or a static
//! `tensor.extract_slice` whose uses all are: never into a reduction (a
//! convolution would recompute the producer per tap and channel).

use melior::{
    ir::{
        attribute::ArrayAttribute,
        block::BlockLike,
        operation::{OperationLike, WalkOrder},
        OperationRef, RegionLike, Value, ValueLike,
    },
    Context,
};
use pb_support::{builder, ffi, ir, ir::op_name, PassFailed, PassId, PassInfo, RustPass};

use crate::linalg_ops::{all_parallel, segments};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-inline-pointwise",
    summary: "Recompute cheap elementwise producers for each elementwise reader (or slice of them) instead of storing them",
    description: "An all-parallel linalg.generic on tensors with identity maps, one result and at most 2 \
arithmetic ops in its body, read only by all-parallel linalg.generics (directly, or through static \
tensor.extract_slices read only by them) and by more than one of them or through a slice, gets a copy \
per use (for a slice: the copy on the same slices of its inputs). Run before elementwise fusion, which \
moves each copy into its reader: a stencil's cheap stages are recomputed per offset instead of stored.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<InlinePointwise>,
};

/// Arithmetic ops a producer may have to be recomputed per reader: one
/// multiply-add's worth. A store and a load per element cost more.
pub const MAX_OPS: usize = 2;

#[derive(Clone, Default)]
struct InlinePointwise;

impl RustPass for InlinePointwise {
    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let generics = ffi::collect_ops(root, WalkOrder::PreOrder, |op| ir::is_named(op, "linalg.generic"));
        for generic in generics {
            ffi::with_context(generic, |context| {
                if cheap_pointwise(generic) {
                    inline_uses(context, generic);
                }
            });
        }
        Ok(())
    }
}

/// All loops parallel, one input per identity map, one result, a body of
/// at most [`MAX_OPS`] ops of the arith dialect (no division, no
/// `linalg.index`), static tensors.
fn cheap_pointwise(op: OperationRef) -> bool {
    let Some((inputs, outputs)) = segments(op) else { return false };
    if outputs != 1 || op.result_count() != 1 || inputs == 0 || !all_parallel(op) {
        return false;
    }
    let Some(maps) = op.attribute("indexing_maps").ok().and_then(|a| ArrayAttribute::try_from(a).ok()) else { return false };
    let identity = |k: usize| {
        maps.element(k).ok().and_then(ffi::affine_map_of).is_some_and(|m| {
            m.result_count() == m.dim_count() && (0..m.result_count()).all(|r| m.result(r).is_ok_and(|e| e.is_dim() && e.dim_position() == r))
        })
    };
    if !(0..inputs + outputs).all(identity) {
        return false;
    }
    let Some(result_type) = op.result(0).ok().map(|r| r.r#type()) else { return false };
    if pb_dialects::type_utils::static_shape(result_type).is_none()
        || (0..inputs).any(|k| ffi::operand(op, k).is_none_or(|v| v.r#type() != result_type && !same_shape(v, result_type)))
    {
        return false;
    }
    let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else { return false };
    let ops = ir::ops_before_terminator(body);
    ops.len() <= MAX_OPS
        && ops.iter().all(|o| {
            let name = op_name(*o);
            name.starts_with("arith.") && !name.starts_with("arith.div") && !name.starts_with("arith.rem") && o.region_count() == 0
        })
}

fn same_shape(value: Value, ty: melior::ir::Type) -> bool {
    pb_dialects::type_utils::static_shape(value.r#type()) == pb_dialects::type_utils::static_shape(ty)
}

/// What reads the producer's result.
enum Use<'c, 'a> {
    /// Operand `index` of an all-parallel generic.
    Direct(OperationRef<'c, 'a>, usize),
    /// A static slice read only by all-parallel generics.
    Slice(OperationRef<'c, 'a>),
}

fn is_elementwise_reader(op: OperationRef, index: usize) -> bool {
    ir::is_named(op, "linalg.generic") && all_parallel(op) && segments(op).is_some_and(|(inputs, _)| index < inputs)
}

fn inline_uses<'c>(context: &'c Context, producer: OperationRef<'c, '_>) {
    let Ok(result) = producer.result(0) else { return };
    let mut uses = Vec::new();
    for (user, index) in ffi::uses(result.into()) {
        if is_elementwise_reader(user, index) {
            uses.push(Use::Direct(user, index));
        } else if ir::is_named(user, "tensor.extract_slice")
            && user.operand_count() == 1
            && user.result(0).is_ok_and(|r| ffi::uses(r.into()).iter().all(|(u, i)| is_elementwise_reader(*u, *i)))
        {
            uses.push(Use::Slice(user));
        } else {
            return;
        }
    }
    let sliced = uses.iter().any(|u| matches!(u, Use::Slice(_)));
    if uses.len() < 2 && !sliced {
        return;
    }
    for u in uses {
        match u {
            Use::Direct(reader, index) => {
                let copy = reader.block().map(|b| b.insert_operation_before(reader, ffi::clone_operation(producer)));
                if let Some(value) = copy.and_then(|c| c.result(0).ok()) {
                    ffi::set_operand(reader, index, value.into());
                }
            }
            Use::Slice(slice) => slice_copy(context, producer, slice),
        }
    }
    if !ffi::has_uses(Value::from(result)) {
        ffi::erase(producer);
    }
}

/// Replaces `slice` (of the producer's result) by a copy of the producer on
/// the same slices of its inputs, writing a fresh tensor of the slice's type.
fn slice_copy<'c>(context: &'c Context, producer: OperationRef<'c, '_>, slice: OperationRef<'c, '_>) {
    let Some((inputs, _)) = segments(producer) else { return };
    let Some(block) = slice.block() else { return };
    let Ok(sliced) = slice.result(0) else { return };
    let ty = sliced.r#type();
    // A rank-reducing slice would not match the copy's maps.
    let rank = |t| pb_dialects::type_utils::static_shape(t).map(|s| s.len());
    if producer.result(0).ok().and_then(|r| rank(r.r#type())) != rank(ty) {
        return;
    }
    let attribute = |name: &str| slice.attribute(name).ok();
    let (Some(offsets), Some(sizes), Some(strides), Some(segments_attr)) =
        (attribute("static_offsets"), attribute("static_sizes"), attribute("static_strides"), attribute("operandSegmentSizes"))
    else {
        return;
    };
    let location = slice.location();
    let mut operands: Vec<Value> = Vec::new();
    for k in 0..inputs {
        let Some(input) = ffi::operand(producer, k) else { return };
        let element = pb_dialects::type_utils::shape_and_element(input.r#type()).1;
        let piece = builder::build_operation(
            context,
            location,
            "tensor.extract_slice",
            &[input],
            &[pb_dialects::type_utils::with_element(ty, element)],
            &[("static_offsets", offsets), ("static_sizes", sizes), ("static_strides", strides), ("operandSegmentSizes", segments_attr)],
            vec![],
        );
        let piece = block.insert_operation_before(slice, piece);
        let Ok(value) = piece.result(0) else { return };
        operands.push(value.into());
    }
    let empty = block.insert_operation_before(slice, builder::build_operation(context, location, "tensor.empty", &[], &[ty], &[], vec![]));
    let Ok(empty) = empty.result(0) else { return };
    operands.push(empty.into());
    let copy = block.insert_operation_before(slice, ffi::clone_operation(producer));
    ffi::set_operands(copy, &operands);
    let Ok(copied) = copy.result(0) else { return };
    ffi::set_type(copied.into(), ty);
    ffi::replace_all_uses(sliced.into(), copied.into());
    ffi::erase(slice);
}
