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
        block::BlockLike,
        operation::{OperationLike, WalkOrder},
        OperationRef, RegionLike, Value, ValueLike,
    },
    Context,
};
use pb_support::{builder, ffi, ir, ir::op_name, PassFailed, PassId, PassInfo, RustPass};

use crate::linalg_ops::{all_parallel, integers, maps_of, segments};

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
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["linalg", "tensor"]
    }

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
    let Some(maps) = maps_of(op) else { return false };
    let identity = |m: &melior::ir::AffineMap| {
        m.result_count() == m.dim_count() && (0..m.result_count()).all(|r| m.result(r).is_ok_and(|e| e.is_dim() && e.dim_position() == r))
    };
    if maps.len() != inputs + outputs || !maps.iter().all(identity) {
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
    /// A static slice read only by all-parallel generics and by static
    /// slices of it read only by them (`x[..., 1:-1, :][..., :, 1:-1]`).
    Slice(OperationRef<'c, 'a>),
}

fn is_elementwise_reader(op: OperationRef, index: usize) -> bool {
    ir::is_named(op, "linalg.generic") && all_parallel(op) && segments(op).is_some_and(|(inputs, _)| index < inputs)
}

/// Offsets, sizes and strides of a static, rank-preserving `tensor.extract_slice`.
type Window = (Vec<i64>, Vec<i64>, Vec<i64>);

fn static_slice(op: OperationRef) -> Option<Window> {
    if !ir::is_named(op, "tensor.extract_slice") || op.operand_count() != 1 {
        return None;
    }
    let numbers = |name: &str| op.attribute(name).ok().and_then(integers);
    let (offsets, sizes, strides) = (numbers("static_offsets")?, numbers("static_sizes")?, numbers("static_strides")?);
    let rank = pb_dialects::type_utils::static_shape(op.result(0).ok()?.r#type())?.len();
    (offsets.len() == rank && sizes.len() == rank && strides.len() == rank).then_some((offsets, sizes, strides))
}

fn read_elementwise(value: Value) -> bool {
    ffi::uses(value).iter().all(|(u, i)| is_elementwise_reader(*u, *i))
}

/// A slice of the producer whose readers are elementwise ops, directly or
/// through one more static slice.
fn sliced_for_elementwise(op: OperationRef) -> bool {
    let Some(result) = static_slice(op).and_then(|_| op.result(0).ok()) else { return false };
    ffi::uses(result.into()).iter().all(|(u, i)| {
        is_elementwise_reader(*u, *i) || (static_slice(*u).is_some() && u.result(0).is_ok_and(|r| read_elementwise(r.into())))
    })
}

fn inline_uses<'c>(context: &'c Context, producer: OperationRef<'c, '_>) {
    let Ok(result) = producer.result(0) else { return };
    let mut uses = Vec::new();
    for (user, index) in ffi::uses(result.into()) {
        if is_elementwise_reader(user, index) {
            uses.push(Use::Direct(user, index));
        } else if sliced_for_elementwise(user) {
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
            Use::Slice(slice) => {
                let Some(outer) = static_slice(slice) else { continue };
                // Slices of the slice first, as one slice of the producer.
                let Ok(sliced) = slice.result(0) else { continue };
                for (user, _) in ffi::uses(sliced.into()) {
                    if let Some(inner) = static_slice(user) {
                        let composed = (
                            outer.0.iter().zip(&inner.0).zip(&outer.2).map(|((o, i), s)| o + i * s).collect(),
                            inner.1.clone(),
                            outer.2.iter().zip(&inner.2).map(|(a, b)| a * b).collect(),
                        );
                        slice_copy(context, producer, user, &composed);
                    }
                }
                if ffi::has_uses(Value::from(sliced)) {
                    slice_copy(context, producer, slice, &outer);
                } else {
                    // SAFETY: the slice's result has no uses (checked above); it has no regions and is
                    // not a linalg.generic of the pass's list.
                    unsafe { ffi::erase(slice) };
                }
            }
        }
    }
    if !ffi::has_uses(Value::from(result)) {
        // SAFETY: the producer's one result has no uses (checked on this line); linalg bodies hold
        // scalar ops only, so no later generic of the list is nested in it.
        unsafe { ffi::erase(producer) };
    }
}

/// Replaces `slice` by a copy of the producer on the `window` slices of its
/// inputs (the part of the producer's result `slice` holds), writing a fresh
/// tensor of the slice's type.
fn slice_copy<'c>(context: &'c Context, producer: OperationRef<'c, '_>, slice: OperationRef<'c, '_>, window: &Window) {
    let Some((inputs, _)) = segments(producer) else { return };
    let Some(block) = slice.block() else { return };
    let Ok(sliced) = slice.result(0) else { return };
    let ty = sliced.r#type();
    let location = slice.location();
    let mut operands: Vec<Value> = Vec::new();
    for k in 0..inputs {
        let Some(input) = ffi::operand(producer, k) else { return };
        let piece = builder::extract_slice_operation(context, location, input, &window.0, &window.1, &window.2);
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
    // SAFETY: the slice's one result was just replaced by the copy; it has no regions, and each slice
    // is visited once.
    unsafe { ffi::erase(slice) };
}
