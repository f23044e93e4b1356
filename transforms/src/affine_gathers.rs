//! `pb-affine-gathers`: a gather (`tensor.extract` in an elementwise
//! `linalg.generic`) whose every index is a function of one loop, computed
//! from loop indices and constants, reads through an affine map instead:
//! the indices are evaluated at every point of their loop at compile time,
//! fitted exactly by pieces of the form `base + step * floor((i + c) / d)`,
//! and the op is split along each loop at the pieces' boundaries into one
//! generic per box of pieces, each reading the gathered tensor through the
//! affine map of its piece, the boxes inserted into the result.
//!
//! Why: PyTorch's decompositions compute indices that are affine in truth
//! with `arange`-based index tensors and float arithmetic: replicate
//! padding reads `x[clamp(i - 1, 0, H - 1)]`, nearest upsampling by 2
//! `x[int(i * 0.5)]`, bilinear upsampling `x[floor((i + 0.5) / 2 - 0.5)]`
//! clamped. As gathers, every element costs its index arithmetic and a
//! scalar load, the loops do not vectorize, and the polyhedral passes see
//! an unknown access and fuse nothing across it (local laplacian: padding
//! and upsampling were 70% of its time). Through affine maps they are
//! plain stencil reads: vectorized, fused and tiled like the rest.
//!
//! Exact by construction: the fit is checked at every point of the loop,
//! so each piece reads exactly the elements the gather read (the index
//! arithmetic evaluated as written, without contraction: eager PyTorch's
//! values).
//!
//! ```mlir
//! // replicate padding along rows: out[i, j] = x[clamp(i - 1, 0, 3), j]
//! %r = linalg.generic {maps = [(i, j) -> (i, j)]} outs(%e : tensor<6x4xf32>) {
//!   %i = linalg.index 0 ... %k = arith.maxsi/minsi ...
//!   %v = tensor.extract %x[%k, %j] : tensor<4x4xf32> ...
//! // (rows 0, 0, 1, 2, 3, 3) becomes three generics: rows 0-1, 2-4 and 5,
//! // each over its own rows, reading (i, j) -> (0, j), (i + 1, j), (3, j)
//! // each inserted into %e at its rows.
//! ```
//!
//! Applies to all-parallel generics with one output indexed by the loops in
//! order, on static tensors, whose body's `tensor.extract`s read tensors
//! defined outside it, every index depending on at most one loop through
//! `linalg.index`, constants, and inputs that are themselves tensors
//! computed from constants and loop indices (at most 65536 elements); at
//! most [`MAX_PIECES`] pieces per loop and [`MAX_BOXES`] boxes; any other
//! gather is left as it is.

use std::collections::HashMap;

use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationLike, WalkOrder},
        AffineExpr, AffineMap, Attribute, Block, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use pb_support::{builder, ffi, ir, ir::op_name, PassFailed, PassId, PassInfo, RustPass};

use crate::{
    index_eval::{Evaluator, Generic},
    linalg_ops::{append_mapped, index_dim, ValueMap},
};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-affine-gathers",
    summary: "Read gathers whose indices are piecewise affine functions of one loop each through affine maps",
    description: "A tensor.extract in an all-parallel linalg.generic whose indices each depend on at most one \
loop (through linalg.index, constants, and index tensors computed from constants and loop indices) has \
its indices evaluated over their loop at compile time and fitted exactly by pieces base + step * \
floor((i + c) / d); the op is split into one generic per box of pieces, each reading the gathered tensor \
through the affine map of its piece, inserted into the result. Replicate padding and nearest or bilinear \
upsampling as PyTorch decomposes them become affine stencil reads.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<AffineGathers>,
};

/// The most pieces a loop is split into (a head, the body, a tail, ...).
pub const MAX_PIECES: usize = 4;
/// The most boxes (products of pieces) one op is split into.
pub const MAX_BOXES: usize = 16;
/// The largest divisor `d` tried in a piece's `floor((i + c) / d)`.
pub const MAX_PERIOD: i64 = 8;

#[derive(Clone, Default)]
struct AffineGathers;

impl RustPass for AffineGathers {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["arith", "linalg", "tensor"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let candidates = ffi::collect_ops(root, WalkOrder::PreOrder, |op| {
            op_name(op) == "linalg.generic"
                && op.region(0).ok().and_then(|r| r.first_block()).is_some_and(|b| {
                    ir::ops_before_terminator(b).iter().any(|o| op_name(*o) == "tensor.extract")
                })
        });
        let mut evaluator = Evaluator::default();
        for op in candidates {
            ffi::with_context(op, |context| {
                if let Some(plan) = plan(&mut evaluator, op) {
                    rewrite(context, op, &plan);
                }
            });
        }
        Ok(())
    }
}

/// One piece of a fitted index: on loop values `[start, end)`, the index
/// is `base + step * floor((i - start + phase) / period)`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Piece {
    start: i64,
    end: i64,
    base: i64,
    step: i64,
    period: i64,
    phase: i64,
}

/// How one index of a gather is computed.
#[derive(Clone, Debug)]
enum Index {
    Constant(i64),
    /// Pieces covering the loop's range, in order, and the values.
    Fitted { loop_: usize, pieces: Vec<Piece>, values: Vec<i64> },
}

struct Plan<'c, 'a> {
    /// Per gather: the op and how each of its indices is computed.
    gathers: Vec<(OperationRef<'c, 'a>, Vec<Index>)>,
    /// Per loop: the boundaries of its pieces (0, ..., extent).
    cuts: Vec<Vec<i64>>,
}

/// The plan for `op`, or `None` where some gather is not piecewise affine.
fn plan<'c, 'a>(evaluator: &mut Evaluator, op: OperationRef<'c, 'a>) -> Option<Plan<'c, 'a>> {
    let generic = Generic::of(op)?;
    let extents = generic.extents()?;
    let output_map = generic.maps[generic.inputs];
    let identity = (0..output_map.result_count()).all(|r| output_map.result(r).is_ok_and(|e| e.is_dim() && e.dim_position() == r));
    if !identity || output_map.result_count() != extents.len() {
        return None;
    }
    if ir::ops_before_terminator(generic.body).iter().any(|o| o.region_count() > 0) {
        return None;
    }
    let mut gathers = Vec::new();
    for extract in ir::ops_before_terminator(generic.body).into_iter().filter(|o| op_name(*o) == "tensor.extract") {
        let source = ffi::operand(extract, 0)?;
        if ffi::defining_op(source).is_some_and(|d| d.block() == Some(generic.body))
            || ffi::block_argument(source).is_some_and(|a| a.owner() == generic.body)
        {
            return None;
        }
        let shape = pb_dialects::type_utils::static_shape(source.r#type())?;
        let mut indices = Vec::new();
        for (j, size) in shape.iter().enumerate() {
            let value = ffi::operand(extract, j + 1)?;
            let loops = evaluator.loops_of(&generic, value)?;
            let in_bounds = |v: i64| (0..*size).contains(&v);
            let index = match loops[..] {
                [] => {
                    let v = evaluator.eval(&generic, value, &vec![0; extents.len()])?.int()?;
                    in_bounds(v).then_some(Index::Constant(v))?
                }
                [k] => {
                    let mut point = vec![0; extents.len()];
                    let mut values = Vec::with_capacity(extents[k] as usize);
                    for i in 0..extents[k] {
                        point[k] = i;
                        let v = evaluator.eval(&generic, value, &point)?.int()?;
                        values.push(in_bounds(v).then_some(v)?);
                    }
                    Index::Fitted { loop_: k, pieces: fit(&values)?, values }
                }
                _ => return None,
            };
            indices.push(index);
        }
        gathers.push((extract, indices));
    }
    if gathers.is_empty() {
        return None;
    }
    let mut cuts: Vec<Vec<i64>> = extents.iter().map(|n| vec![0, *n]).collect();
    for (_, indices) in &gathers {
        for index in indices {
            if let Index::Fitted { loop_, pieces, .. } = index {
                cuts[*loop_].extend(pieces.iter().map(|p| p.start));
            }
        }
    }
    for c in &mut cuts {
        c.sort();
        c.dedup();
        if c.len() - 1 > MAX_PIECES {
            return None;
        }
    }
    let boxes: usize = cuts.iter().map(|c| c.len() - 1).product();
    (boxes <= MAX_BOXES).then_some(Plan { gathers, cuts })
}

/// `values` (an index at loop values 0, 1, ...) as at most [`MAX_PIECES`]
/// pieces, from the left: each the longest run from where the last ended
/// that one `base + step * floor((i - start + phase) / period)` matches
/// exactly, except that a run with period 1 (a contiguous or constant
/// read) is taken unless a longer period's run is more than twice as long
/// (replicate padding: rows 0, 0, 1, 2, 3, 3 read as a constant, then a
/// shift, not as halvings; nearest upsampling: one halving throughout).
fn fit(values: &[i64]) -> Option<Vec<Piece>> {
    let n = values.len() as i64;
    let mut pieces = Vec::new();
    let mut start = 0;
    while start < n {
        let base = values[start as usize];
        let run = |period: i64, phase: i64| {
            let first_step = start + period - phase;
            let step = if first_step < n { values[first_step as usize] - base } else { 0 };
            let mut end = start;
            while end < n && values[end as usize] == base + step * (end - start + phase).div_euclid(period) {
                end += 1;
            }
            Piece { start, end, base, step, period, phase }
        };
        let unit = run(1, 0);
        let mut best = unit;
        for period in 2..=MAX_PERIOD {
            for phase in 0..period {
                let candidate = run(period, phase);
                if candidate.end > best.end {
                    best = candidate;
                }
            }
        }
        let piece = if (unit.end - start) * 2 >= best.end - start { unit } else { best };
        pieces.push(piece);
        if pieces.len() > MAX_PIECES {
            return None;
        }
        start = piece.end;
    }
    Some(pieces)
}

/// Replaces `op` by one generic per box of pieces (see the module doc).
fn rewrite<'c>(context: &'c Context, op: OperationRef<'c, '_>, plan: &Plan<'c, '_>) {
    let Some(generic) = Generic::of(op) else { return };
    let Some(block) = op.block() else { return };
    let location = op.location();
    let rank = plan.cuts.len();
    let operands: Vec<Value> = (0..op.operand_count()).filter_map(|i| ffi::operand(op, i)).collect();
    let (inputs, init) = (&operands[..generic.inputs], operands[generic.inputs]);
    let element = |v: Value<'c, '_>| pb_dialects::type_utils::shape_and_element(v.r#type()).1;

    // Every box: per loop, the piece [lo, hi).
    let mut boxes: Vec<Vec<(i64, i64)>> = vec![Vec::new()];
    for cut in &plan.cuts {
        boxes = boxes
            .into_iter()
            .flat_map(|b| {
                cut.windows(2).map(move |w| {
                    let mut next = b.clone();
                    next.push((w[0], w[1]));
                    next
                })
            })
            .collect();
    }

    // The body's ops the result needs once the gathers read inputs (their
    // index arithmetic is not), and the inputs those read.
    let gathered: HashMap<usize, usize> =
        plan.gathers.iter().enumerate().map(|(g, (extract, _))| (extract.to_raw().ptr as usize, g)).collect();
    let Some(terminator) = generic.body.terminator() else { return };
    let mut live: Vec<usize> = Vec::new();
    let mut used_inputs: Vec<usize> = Vec::new();
    let mut pending: Vec<Value> = (0..terminator.operand_count()).filter_map(|k| ffi::operand(terminator, k)).collect();
    while let Some(value) = pending.pop() {
        if let Some(argument) = ffi::block_argument(value).filter(|a| a.owner() == generic.body) {
            if argument.argument_number() < generic.inputs && !used_inputs.contains(&argument.argument_number()) {
                used_inputs.push(argument.argument_number());
            }
            continue;
        }
        let Some(def) = ffi::defining_op(value).filter(|d| d.block() == Some(generic.body)) else { continue };
        let id = def.to_raw().ptr as usize;
        if live.contains(&id) {
            continue;
        }
        live.push(id);
        if !gathered.contains_key(&id) {
            pending.extend((0..def.operand_count()).filter_map(|k| ffi::operand(def, k)));
        }
    }
    used_inputs.sort();

    let mut full: Value = init;
    for bounds in boxes {
        let offsets: Vec<i64> = bounds.iter().map(|(lo, _)| *lo).collect();
        let sizes: Vec<i64> = bounds.iter().map(|(lo, hi)| hi - lo).collect();
        // Loop d of the box is loop d of the op shifted by offsets[d].
        let shift = AffineMap::new(
            context,
            rank,
            0,
            &(0..rank).map(|d| AffineExpr::dim(context, d) + AffineExpr::constant(context, offsets[d])).collect::<Vec<_>>(),
        );
        // The inputs still read: the box's part of each (a loop index read
        // directly is sliced; any other index is shifted by the box's
        // offsets, its dimension kept whole).
        let mut new_inputs: Vec<Value> = Vec::new();
        let mut maps: Vec<Attribute> = Vec::new();
        for &k in &used_inputs {
            let map = generic.maps[k];
            let Some(shape) = pb_dialects::type_utils::static_shape(inputs[k].r#type()) else { return };
            let (mut part_offsets, mut part_sizes, mut results) = (Vec::new(), Vec::new(), Vec::new());
            for (r, size) in shape.iter().enumerate() {
                let Ok(expr) = map.result(r) else { return };
                if expr.is_dim() {
                    part_offsets.push(offsets[expr.dim_position()]);
                    part_sizes.push(sizes[expr.dim_position()]);
                    results.push(expr);
                } else {
                    part_offsets.push(0);
                    part_sizes.push(*size);
                    results.push(ffi::compose_expr(expr, shift));
                }
            }
            let part = builder::extract_slice_operation(context, location, inputs[k], &part_offsets, &part_sizes, &vec![1; shape.len()]);
            let Ok(part) = block.insert_operation_before(op, part).result(0) else { return };
            new_inputs.push(part.into());
            maps.push(ffi::affine_map_attribute(AffineMap::new(context, rank, 0, &results)));
        }
        // Each gathered tensor: the part the box reads (an index that is a
        // loop itself must span the loop's extent: linalg infers loop
        // extents from such operands), read from its start.
        for (extract, indices) in &plan.gathers {
            let Some(source) = ffi::operand(*extract, 0) else { return };
            let (mut part_offsets, mut part_sizes, mut results) = (Vec::new(), Vec::new(), Vec::new());
            for index in indices {
                let (lo, hi) = index_range(index, &bounds);
                part_offsets.push(lo);
                part_sizes.push(hi - lo + 1);
                results.push(piece_expr(context, index, &offsets) + AffineExpr::constant(context, -lo));
            }
            let part = builder::extract_slice_operation(context, location, source, &part_offsets, &part_sizes, &vec![1; indices.len()]);
            let Ok(part) = block.insert_operation_before(op, part).result(0) else { return };
            new_inputs.push(part.into());
            maps.push(ffi::affine_map_attribute(AffineMap::new(context, rank, 0, &results)));
        }
        // The output: the box's part of the init, read in order.
        maps.push(ffi::affine_map_attribute(generic.maps[generic.inputs]));
        let slice = block.insert_operation_before(op, builder::extract_slice_operation(context, location, init, &offsets, &sizes, &vec![1; rank]));
        let Ok(out) = slice.result(0) else { return };
        let out: Value = out.into();

        // The body: the old one, gathers read from the new inputs, loop
        // indices shifted.
        let argument_types: Vec<(Type, Location)> = new_inputs.iter().chain([&out]).map(|v| (element(*v), location)).collect();
        let region = Region::new();
        let body = region.append_block(Block::new(&argument_types));
        let arg = |k: usize| -> Value { body.argument(k).expect("argument").into() };
        let mut mapped = ValueMap::default();
        for (position, &k) in used_inputs.iter().enumerate() {
            let Ok(old) = generic.body.argument(k) else { return };
            mapped.insert(old.into(), arg(position));
        }
        let Ok(old_out) = generic.body.argument(generic.inputs) else { return };
        mapped.insert(old_out.into(), arg(new_inputs.len()));
        for old in ir::ops_before_terminator(generic.body) {
            let id = old.to_raw().ptr as usize;
            if !live.contains(&id) {
                continue;
            }
            if let Some(g) = gathered.get(&id) {
                let Ok(result) = old.result(0) else { return };
                mapped.insert(result.into(), arg(used_inputs.len() + g));
                continue;
            }
            let new = append_mapped(body, old, ffi::clone_operation(old), &mut mapped);
            // A loop index of the box: plus the box's offset along it.
            let offset = (op_name(old) == "linalg.index").then(|| index_dim(old)).flatten().map(|d| offsets[d]).filter(|o| *o != 0);
            if let (Some(offset), Ok(index), Ok(old_index)) = (offset, new.result(0), old.result(0)) {
                let constant = body.append_operation(builder::index_constant_operation(context, location, offset));
                let Ok(constant) = constant.result(0) else { return };
                let sum = builder::build_operation(context, location, "arith.addi", &[index.into(), constant.into()], &[Type::index(context)], &[], vec![]);
                let Ok(sum) = body.append_operation(sum).result(0) else { return };
                mapped.insert(old_index.into(), sum.into());
            }
        }
        let yielded: Vec<Value> = (0..terminator.operand_count()).filter_map(|k| ffi::operand(terminator, k)).map(|v| mapped.get(v)).collect();
        body.append_operation(builder::build_operation(context, location, "linalg.yield", &yielded, &[], &[], vec![]));

        let piece = builder::generic_operation(context, location, (&new_inputs, &[out]), &maps, &vec![true; rank], &[out.r#type()], region);
        let piece = block.insert_operation_before(op, piece);
        let Ok(piece_result) = piece.result(0) else { return };
        let insert = block.insert_operation_before(op, builder::insert_slice_operation(context, location, piece_result.into(), full, &offsets));
        let Ok(inserted) = insert.result(0) else { return };
        full = inserted.into();
    }
    if let Ok(old) = op.result(0) {
        ffi::replace_all_uses(old.into(), full);
    }
    // SAFETY: `Generic::of` checked that the generic has one result, just replaced; linalg bodies hold
    // scalar ops only, so no later candidate is nested in it.
    unsafe { ffi::erase(op) };
}

/// The smallest and largest value `index` takes in the box `bounds`.
fn index_range(index: &Index, bounds: &[(i64, i64)]) -> (i64, i64) {
    match index {
        Index::Constant(v) => (*v, *v),
        Index::Fitted { loop_, values, .. } => {
            let (lo, hi) = bounds[*loop_];
            let part = &values[lo as usize..hi as usize];
            (part.iter().copied().min().unwrap_or(0), part.iter().copied().max().unwrap_or(0))
        }
    }
}

/// The index `index` in a box whose loops start at `offsets`, over the
/// box's own loops.
fn piece_expr<'c>(context: &'c Context, index: &Index, offsets: &[i64]) -> AffineExpr<'c> {
    let constant = |v: i64| AffineExpr::constant(context, v);
    match index {
        Index::Constant(v) => constant(*v),
        Index::Fitted { loop_, pieces, .. } => {
            let offset = offsets[*loop_];
            let p = pieces.iter().find(|p| p.start <= offset && offset < p.end).expect("boxes lie within pieces");
            // i = d + offset: base + step * floor((d + offset - start + phase) / period)
            let term = AffineExpr::dim(context, *loop_) + constant(offset - p.start + p.phase);
            let term = if p.period == 1 { term } else { AffineExpr::floor_div(term, constant(p.period)) };
            constant(p.base) + term * constant(p.step)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_at(pieces: &[Piece], i: i64) -> i64 {
        let p = pieces.iter().find(|p| p.start <= i && i < p.end).unwrap();
        p.base + p.step * (i - p.start + p.phase).div_euclid(p.period)
    }

    #[test]
    fn fits_clamped_shifts_and_halvings_exactly() {
        // Replicate padding: clamp(i - 1, 0, 4) over 7 loop values.
        let pad: Vec<i64> = (0..7).map(|i: i64| (i - 1).clamp(0, 4)).collect();
        let pieces = fit(&pad).unwrap();
        assert_eq!(pieces.len(), 3);
        // Bilinear by 2: floor(max((i + 0.5) / 2 - 0.5, 0)), then its
        // neighbour clamped to the last row.
        let low: Vec<i64> = (0..16).map(|i| (((i as f32 + 0.5) / 2.0 - 0.5).max(0.0)).floor() as i64).collect();
        let high: Vec<i64> = low.iter().map(|v| (v + 1).min(7)).collect();
        for values in [&pad, &low, &high] {
            let pieces = fit(values).unwrap();
            assert!(pieces.len() <= 3, "{pieces:?}");
            for (i, v) in values.iter().enumerate() {
                assert_eq!(value_at(&pieces, i as i64), *v);
            }
        }
        // Nearest by 2: one piece.
        let nearest: Vec<i64> = (0..16).map(|i| i / 2).collect();
        assert_eq!(fit(&nearest).unwrap().len(), 1);
    }

    #[test]
    fn a_permutation_is_not_fitted() {
        let scrambled = [3, 0, 7, 1, 6, 2, 5, 4, 9, 8];
        assert!(fit(&scrambled).is_none());
    }
}
