//! `pb-unroll-filters`: a reduction over a small, fixed window whose weights
//! are the same for every output element — a convolution by a 5-tap blur, a
//! 3x3 Sobel gradient or box sum on single-channel images, as image
//! libraries on PyTorch write them (`conv2d` with a `(1, 1, kh, kw)` kernel)
//! — becomes an elementwise `linalg.generic` that reads its input once per
//! tap at a constant offset and sums the taps in its body.
//!
//! Why: that is the form the same filter has when written with shifted
//! slices (PolyMage's, and torch.compile's input), and the form the image
//! pipeline path is built for: `pb-fuse` fuses it with the stages around it
//! by overlapped tiling, and the vector loop runs along the image rows with
//! the taps' weights in registers. As a reduction it accumulates into its
//! output one tap at a time — a fill, then one read-modify-write pass over
//! each tile row per tap — and ran 2x slower than the slice form (blur_x_blur_y
//! 3x2048x2048: 16 ms against 8 ms; Harris, 61 ms against 28 ms).
//!
//! The same values, bit for bit: the body is the reduction's own body,
//! cloned once per tap in the order the reduction loops visit the taps
//! (row-major over the reduction dimensions), each copy taking the previous
//! one's result as its accumulator, the first the output's initial value.
//! The weights are read with `tensor.extract` before the op (constants fold
//! later; a weight that is a function argument is read once per call).
//!
//! ```mlir
//! %r = linalg.conv_2d_nchw_fchw ins(%img, %w : tensor<3x1x64x64xf32>, tensor<1x1x1x5xf32>)
//!                               outs(%zero : tensor<3x1x64x60xf32>)
//! // becomes (5 taps, d0..d3 = n, f, oh, ow)
//! %w0 = tensor.extract %w[%c0, %c0, %c0, %c0] ...  (one per tap)
//! %r = linalg.generic {indexing_maps = [(d0, d1, d2, d3) -> (d0, 0, d2, d3),
//!                                       (d0, d1, d2, d3) -> (d0, 0, d2, d3 + 1), ...,
//!                                       (d0, d1, d2, d3) -> (d0, d1, d2, d3)],
//!                      iterator_types = [parallel x 4]}
//!        ins(%img, %img, %img, %img, %img ...) outs(%zero ...) {
//!   ^bb0(%x0: f32, %x1: f32, ..., %acc: f32):
//!     %p0 = arith.mulf %x0, %w0   %s0 = arith.addf %acc, %p0
//!     %p1 = arith.mulf %x1, %w1   %s1 = arith.addf %s0, %p1  ...
//!     linalg.yield %s4 : f32 }
//! ```
//!
//! **Small channel mixes** take the same rewrite: a reduction with no such
//! weights input whose every reduction loop indexes its inputs directly
//! (no window: `sum_j ccm[i, j] rgb[j, h, w]`, a camera's 3x3 colour matrix
//! written as an einsum; a sum over 3 channels), of at most `channel-taps`
//! taps (the cpu pipeline: half the target's vector registers, so that the
//! coefficient each tap reads outside the vector loop stays in a register),
//! where every input per tap is read either at one element along the
//! innermost loop or contiguously along it (so the unrolled loop
//! vectorizes: a matrix-vector product, whose rows stride through memory,
//! stays a reduction). Such a contraction has an arithmetic intensity of a
//! few operations per element: memory-bound, so the contraction path's
//! register tiles and packing buy nothing there, while as an elementwise op
//! it fuses into the pipeline around it (no temporary in memory).
//!
//! Applies to `linalg.generic` and the convolutions and contractions
//! [`linalg_ops::named_maps`] knows, on static tensors, when: one input
//! (the weights) is indexed only by the reduction dimensions, each of them directly (`(f, c, kh, kw)` with
//! `f` of extent 1), every reduction dimension is one of them, the window
//! has at most [`MAX_TAPS`] taps and slides with the output (each
//! reduction loop of extent > 1 moves an input index together with a
//! parallel loop, as `oh + kh` does: a plain sum or a matrix-vector product
//! is no window), each other input index is linear in the loops with one
//! parallel loop at most, and the body has no regions. Ops with
//! weights that differ per output channel (a network's convolutions) are
//! contractions and stay as they are.

use std::collections::HashMap;

use melior::{
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::{OperationLike, WalkOrder},
        AffineExpr, AffineMap, Attribute, Block, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use pb_support::{builder, ffi, ir, ir::op_name, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

use crate::linalg_ops::{append_mapped, generalize, index_dim, maps_of, named_maps, parallel_loops, segments, ValueMap};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-unroll-filters",
    summary: "Unroll reductions over a small window of weights shared by every output element into elementwise sums of shifted reads",
    description: "A linalg.generic or convolution on static tensors with one input indexed only by the \
reduction dimensions (each directly, every one of them; other dimensions of that input of extent 1) \
and at most 64 taps becomes an all-parallel linalg.generic reading each other input once per tap at \
the tap's offset, its body the reduction's body repeated per tap in loop order (the same values bit \
for bit), the weights read by tensor.extract before it. Filters written as conv2d (blurs, Sobel \
gradients, box sums) then fuse and vectorize like the same filters written with shifted slices. \
Reductions without such weights over at most channel-taps taps that index their inputs directly \
(a 3x3 colour matrix, a sum over channels), each input read per tap at one element or contiguously \
along the innermost loop, are unrolled the same way (each input sliced per tap).",
    anchor: "func.func",
    options: &[PassOption {
        name: "channel-taps",
        kind: OptionKind::UInt,
        default: "8",
        help: "Largest reduction without window weights unrolled (0: none); the cpu pipeline \
passes half the target's vector registers",
    }],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(UnrollFilters { channel_taps: options.uint("channel-taps") as i64 })
}

/// The largest window unrolled: a 7x7 filter (49 taps) is; beyond that the
/// body (one multiply-add and one input per tap) outgrows what a vector loop
/// keeps in registers, and such windows are rare outside contractions.
pub const MAX_TAPS: i64 = 64;

#[derive(Clone)]
struct UnrollFilters {
    /// The most taps of a reduction without window weights (a channel mix).
    channel_taps: i64,
}

impl RustPass for UnrollFilters {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["arith", "linalg", "tensor"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let candidates = ffi::collect_ops(root, WalkOrder::PreOrder, |op| {
            let name = op_name(op);
            name == "linalg.generic"
                || name.starts_with("linalg.conv_")
                || ["linalg.matmul", "linalg.batch_matmul", "linalg.matvec", "linalg.vecmat"].contains(&name.as_str())
        });
        for op in candidates {
            ffi::with_context(op, |context| {
                let Some(filter) = Filter::of(context, op, self.channel_taps) else { return };
                // A named convolution becomes a generic first (its maps are
                // the ones `Filter::of` checked).
                let op = if op_name(op) == "linalg.generic" { Some(op) } else { generalize(context, op) };
                if let Some(op) = op {
                    unroll(context, op, &filter);
                }
            });
        }
        Ok(())
    }
}

/// What an op that qualifies looks like.
struct Filter<'c> {
    maps: Vec<AffineMap<'c>>,
    parallel: Vec<bool>,
    inputs: usize,
    /// The weights' input position (`None`: a channel mix, every input
    /// sliced per tap).
    weights: Option<usize>,
    /// Extent of each loop (by dimension number).
    extents: HashMap<usize, i64>,
}

impl<'c> Filter<'c> {
    fn of(context: &'c Context, op: OperationRef<'c, '_>, channel_taps: i64) -> Option<Self> {
        let name = op_name(op);
        let (maps, parallel) = if name == "linalg.generic" {
            (maps_of(op)?, parallel_loops(op)?)
        } else {
            named_maps(context, op, &name)?
        };
        if parallel.iter().all(|p| *p) {
            return None;
        }
        let (inputs, outputs) = segments(op)?;
        if op.operand_count() != inputs + outputs || maps.len() != inputs + outputs || op.result_count() != outputs {
            return None;
        }
        let shapes: Vec<Vec<i64>> =
            (0..op.operand_count()).map(|i| ffi::operand(op, i).and_then(|v| pb_dialects::type_utils::static_shape(v.r#type()))).collect::<Option<_>>()?;
        let body = op.region(0).ok()?.first_block()?;
        if body.argument_count() != inputs + outputs || ir::ops_before_terminator(body).iter().any(|o| o.region_count() > 0) {
            return None;
        }
        // The weights: indexed by reduction dimensions only, each a plain
        // dimension, all of them; any other (parallel) result of extent 1 is
        // a constant 0 in effect.
        let reductions: Vec<usize> = (0..parallel.len()).filter(|d| !parallel[*d]).collect();
        let weights = (0..inputs).find(|&i| {
            let map = maps[i];
            let mut seen = Vec::new();
            for (r, extent) in shapes[i].iter().enumerate().take(map.result_count()) {
                let Ok(expr) = map.result(r) else { return false };
                if !expr.is_dim() {
                    return false;
                }
                let d = expr.dim_position();
                if parallel[d] {
                    if *extent != 1 {
                        return false;
                    }
                } else {
                    seen.push(d);
                }
            }
            seen.sort();
            seen.dedup();
            seen == reductions && body.argument(i).is_ok_and(ffi::has_uses)
        });
        // Extents of the reduction loops: from the weights, else from the
        // inputs that index them directly.
        let mut extents = HashMap::new();
        let sources: Vec<usize> = match weights {
            Some(w) => vec![w],
            None => (0..inputs).collect(),
        };
        for i in sources {
            for (r, extent) in shapes[i].iter().enumerate().take(maps[i].result_count()) {
                let expr = maps[i].result(r).ok()?;
                if expr.is_dim() && !parallel[expr.dim_position()] {
                    extents.entry(expr.dim_position()).or_insert(*extent);
                }
            }
        }
        if reductions.iter().any(|d| !extents.contains_key(d)) {
            return None;
        }
        let taps: i64 = extents.values().product();
        let limit = if weights.is_some() { MAX_TAPS } else { channel_taps };
        if !(1..=limit).contains(&taps) {
            return None;
        }
        // Extents of the parallel loops: from the operands that index them
        // directly, outputs first (every output map's results are loops).
        for i in (inputs..inputs + outputs).chain(0..inputs) {
            for (r, extent) in shapes[i].iter().enumerate().take(maps[i].result_count()) {
                let expr = maps[i].result(r).ok()?;
                if expr.is_dim() {
                    extents.entry(expr.dim_position()).or_insert(*extent);
                }
            }
        }
        if extents.len() != parallel.len() {
            return None;
        }
        // Each tap of another input is a strided slice of it: every index
        // a linear function of the loops, with at most one parallel loop
        // (times a positive step), each parallel loop in one index only.
        for i in (0..inputs).filter(|i| Some(*i) != weights) {
            let mut loops = Vec::new();
            for r in 0..maps[i].result_count() {
                let (terms, _) = linear(maps[i].result(r).ok()?)?;
                match terms.iter().filter(|(d, _)| parallel[*d]).collect::<Vec<_>>()[..] {
                    [] => {}
                    [(d, step)] if *step > 0 => loops.push(*d),
                    _ => return None,
                }
            }
            let count = loops.len();
            loops.sort();
            loops.dedup();
            if loops.len() != count {
                return None;
            }
        }
        // A window that slides with the output: each reduction loop moves
        // some input's index together with a parallel loop (`oh + kh`). A
        // plain sum or a matrix-vector product has no window: left alone.
        let slides = |d: usize| {
            (0..inputs).filter(|i| Some(*i) != weights).any(|i| {
                (0..maps[i].result_count()).any(|r| {
                    maps[i].result(r).ok().and_then(linear).is_some_and(|(terms, _)| {
                        terms.iter().any(|(e, _)| *e == d) && terms.iter().any(|(e, _)| parallel[*e])
                    })
                })
            })
        };
        match weights {
            Some(_) if !reductions.iter().all(|d| extents[d] == 1 || slides(*d)) => return None,
            // A channel mix: no window, and a loop that vectorizes.
            None if reductions.iter().any(|d| extents[d] > 1 && slides(*d)) || !vectorizes(&maps, &parallel, inputs) => {
                return None
            }
            _ => {}
        }
        Some(Filter { maps, parallel, inputs, weights, extents })
    }
}

/// Whether the all-parallel op left by unrolling vectorizes along its
/// innermost loop (the last parallel dimension): every output's last index
/// is that loop, and each input index that moves with it is the input's
/// last, at step 1.
fn vectorizes(maps: &[AffineMap], parallel: &[bool], inputs: usize) -> bool {
    let Some(innermost) = (0..parallel.len()).rev().find(|d| parallel[*d]) else { return false };
    maps.iter().enumerate().all(|(i, map)| {
        let last = map.result_count().checked_sub(1);
        (0..map.result_count()).all(|r| {
            let Some((terms, _)) = map.result(r).ok().and_then(linear) else { return false };
            match terms.iter().find(|(d, _)| *d == innermost).map(|(_, step)| *step) {
                None => i < inputs || Some(r) != last,
                Some(step) => Some(r) == last && step == 1,
            }
        })
    })
}

/// Rewrites the generic `op` that `filter` describes.
fn unroll<'c>(context: &'c Context, op: OperationRef<'c, '_>, filter: &Filter<'c>) {
    let location = op.location();
    let Some(block) = op.block() else { return };
    let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else { return };
    let operands: Vec<Value> = (0..op.operand_count()).filter_map(|i| ffi::operand(op, i)).collect();
    let (inputs, outputs) = (&operands[..filter.inputs], &operands[filter.inputs..]);

    // The loops left: the parallel ones, renumbered in order.
    let kept: Vec<usize> = (0..filter.parallel.len()).filter(|d| filter.parallel[*d]).collect();
    let reductions: Vec<usize> = (0..filter.parallel.len()).filter(|d| !filter.parallel[*d]).collect();
    let taps = tap_indices(&reductions, &filter.extents);
    if taps.is_empty() {
        return;
    }
    // Substitution for a tap: d -> new dimension, or the tap's coordinate.
    let substitution = |tap: &HashMap<usize, i64>| {
        let results: Vec<AffineExpr> = (0..filter.parallel.len())
            .map(|d| match kept.iter().position(|k| *k == d) {
                Some(new) => AffineExpr::dim(context, new),
                None => AffineExpr::constant(context, tap[&d]),
            })
            .collect();
        AffineMap::new(context, kept.len(), 0, &results)
    };
    let rewritten = |map: AffineMap<'c>, tap: &HashMap<usize, i64>| ffi::compose_map(context, map, substitution(tap));
    let reads_taps = |i: usize| reductions.iter().any(|d| (0..filter.maps[i].result_count()).any(|r| filter.maps[i].result(r).is_ok_and(|e| e.is_function_of_dim(*d))));

    let element = |v: Value<'c, '_>| pb_dialects::type_utils::shape_and_element(v.r#type()).1;
    let weights_at = match filter.weights {
        Some(w) => weight_reads(context, location, (block, op), inputs[w], filter.maps[w], &taps),
        None => Vec::new(),
    };

    // New inputs: each input that moves with the window once per tap, the
    // others once; the weights not at all.
    let mut new_inputs: Vec<Value> = Vec::new();
    let mut new_maps: Vec<Attribute> = Vec::new();
    // (input, tap or None) -> new block argument position.
    let mut position: HashMap<(usize, Option<usize>), usize> = HashMap::new();
    let first_tap = &taps[0];
    for (i, input) in inputs.iter().enumerate() {
        if Some(i) == filter.weights {
            continue;
        }
        if reads_taps(i) {
            for (t, tap) in taps.iter().enumerate() {
                position.insert((i, Some(t)), new_inputs.len());
                let (slice, map) =
                    tap_slice(context, op, *input, rewritten(filter.maps[i], tap), &kept, &filter.extents, filter.weights.is_none());
                new_inputs.push(slice);
                new_maps.push(ffi::affine_map_attribute(map));
            }
        } else {
            position.insert((i, None), new_inputs.len());
            new_inputs.push(*input);
            new_maps.push(ffi::affine_map_attribute(rewritten(filter.maps[i], first_tap)));
        }
    }
    for j in 0..outputs.len() {
        new_maps.push(ffi::affine_map_attribute(rewritten(filter.maps[filter.inputs + j], first_tap)));
    }

    // The body: the old one once per tap, accumulators chained.
    let argument_types: Vec<(Type, Location)> = new_inputs
        .iter()
        .chain(outputs)
        .map(|v| (element(*v), location))
        .collect();
    let new_block = Block::new(&argument_types);
    let region = Region::new();
    let new_body = region.append_block(new_block);
    let arg = |k: usize| -> Value { new_body.argument(k).expect("argument").into() };
    let mut accumulators: Vec<Value> = (0..outputs.len()).map(|j| arg(new_inputs.len() + j)).collect();
    let old_ops = ir::ops_before_terminator(body);
    let Some(terminator) = body.terminator() else { return };
    let index = Type::index(context);
    for (t, tap) in taps.iter().enumerate() {
        let mut mapped = ValueMap::default();
        for i in 0..filter.inputs {
            let Ok(old) = body.argument(i) else { return };
            let new = if Some(i) == filter.weights {
                weights_at[t]
            } else {
                let p = position.get(&(i, Some(t))).or_else(|| position.get(&(i, None))).copied().expect("every input placed");
                arg(p)
            };
            mapped.insert(old.into(), new);
        }
        for (j, acc) in accumulators.iter().enumerate() {
            let Ok(old) = body.argument(filter.inputs + j) else { return };
            mapped.insert(old.into(), *acc);
        }
        for old in &old_ops {
            // A loop index: the kept loop's, renumbered, or the tap's
            // coordinate of a reduction loop.
            let new = match (op_name(*old) == "linalg.index").then(|| index_dim(*old)) {
                Some(None) => return,
                Some(Some(d)) => match kept.iter().position(|k| *k == d) {
                    Some(new_dim) => builder::build_operation(
                        context,
                        old.location(),
                        "linalg.index",
                        &[],
                        &[index],
                        &[("dim", IntegerAttribute::new(Type::parse(context, "i64").expect("i64"), new_dim as i64).into())],
                        vec![],
                    ),
                    None => builder::index_constant_operation(context, old.location(), tap[&d]),
                },
                None => ffi::clone_operation(*old),
            };
            append_mapped(new_body, *old, new, &mut mapped);
        }
        accumulators = (0..terminator.operand_count()).filter_map(|k| ffi::operand(terminator, k)).map(|v| mapped.get(v)).collect();
    }
    new_body.append_operation(builder::build_operation(context, location, "linalg.yield", &accumulators, &[], &[], vec![]));

    let results: Vec<Type> = (0..op.result_count()).filter_map(|r| op.result(r).ok()).map(|r| r.r#type()).collect();
    let generic = builder::generic_operation(context, location, (&new_inputs, outputs), &new_maps, &vec![true; kept.len()], &results, region);
    let generic = block.insert_operation_before(op, generic);
    for r in 0..op.result_count() {
        if let (Ok(old), Ok(new)) = (op.result(r), generic.result(r)) {
            ffi::replace_all_uses(old.into(), new.into());
        }
    }
    // SAFETY: every result of `op` was just replaced by the new generic's; linalg bodies hold scalar
    // ops only, so no later candidate of the pass is nested in it, and the caller does not use `op`
    // again.
    unsafe { ffi::erase(op) };
}

/// The weights of each tap (`weights` read through `map`), read where the
/// value they come from is defined (through reshapes: a constant kernel at
/// the top of the function), not between the loop nests, where the reads
/// would cut a pipeline's nests into runs fused apart. `at`: the block and
/// op to read before when `weights` has no definition to follow.
fn weight_reads<'c, 'a>(
    context: &'c Context,
    location: Location<'c>,
    at: (melior::ir::BlockRef<'c, 'a>, OperationRef<'c, 'a>),
    weights: Value<'c, 'a>,
    map: AffineMap<'c>,
    taps: &[HashMap<usize, i64>],
) -> Vec<Value<'c, 'a>> {
    let weight_shape = pb_dialects::type_utils::static_shape(weights.r#type()).unwrap_or_default();
    let (source, source_shape) = reshape_source(weights);
    let element = pb_dialects::type_utils::shape_and_element(source.r#type()).1;
    let mut reads = Reads::after_definition(context, location, source, at.0, at.1);
    taps.iter()
        .map(|tap| {
            // The tap's element of the weights, as an offset in row-major
            // order (reshapes keep it), then as indices of the source.
            let mut linear = 0;
            for (r, extent) in weight_shape.iter().enumerate().take(map.result_count()) {
                let d = map.result(r).expect("checked").dim_position();
                linear = linear * extent + tap.get(&d).copied().unwrap_or(0);
            }
            let mut indices = vec![0; source_shape.len()];
            for (k, extent) in source_shape.iter().enumerate().rev() {
                indices[k] = linear % extent;
                linear /= extent;
            }
            reads.element(source, &indices, element)
        })
        .collect()
}

/// Every tap of the window, in the order loops over `reductions` (outermost
/// first) visit them: per tap, the coordinate of each reduction dimension.
fn tap_indices(reductions: &[usize], extents: &HashMap<usize, i64>) -> Vec<HashMap<usize, i64>> {
    let mut taps = vec![HashMap::new()];
    for d in reductions {
        taps = taps
            .into_iter()
            .flat_map(|tap| {
                (0..extents[d]).map(move |v| {
                    let mut next = tap.clone();
                    next.insert(*d, v);
                    next
                })
            })
            .collect();
    }
    taps
}

/// `expr` as a sum of loop terms (loop, factor) and a constant, or `None`
/// when it is not linear in the loops (a floor division, a symbol).
fn linear(expr: AffineExpr) -> Option<(Vec<(usize, i64)>, i64)> {
    if expr.is_dim() {
        return Some((vec![(expr.dim_position(), 1)], 0));
    }
    if expr.is_constant() {
        return Some((vec![], expr.constant_value()));
    }
    if expr.is_add() {
        let (mut terms, a) = linear(expr.lhs())?;
        let (more, b) = linear(expr.rhs())?;
        for (d, f) in more {
            match terms.iter_mut().find(|(e, _)| *e == d) {
                Some(term) => term.1 += f,
                None => terms.push((d, f)),
            }
        }
        terms.retain(|(_, f)| *f != 0);
        return Some((terms, a + b));
    }
    if expr.is_mul() {
        let (l, r) = (linear(expr.lhs())?, linear(expr.rhs())?);
        let ((terms, offset), factor) = match (l, r) {
            (l, (u, f)) if u.is_empty() => (l, f),
            ((u, f), r) if u.is_empty() => (r, f),
            _ => return None,
        };
        let terms = terms.into_iter().map(|(d, c)| (d, c * factor)).filter(|(_, c)| *c != 0).collect();
        return Some((terms, offset * factor));
    }
    None
}

/// The part of `input` one tap reads, as a `tensor.extract_slice` inserted
/// before `op`, and the map the unrolled op reads it with: `map` (the
/// input's map with the tap's window coordinates substituted, over the
/// `kept` loops renumbered) gives per index a loop times a step plus an
/// offset (the slice's stride and offset; its size the loop's extent), or
/// an offset (a slice of size 1; for a channel mix, `drop_units`, dropped
/// by a reshape when another index remains: every map then a projected
/// permutation, which upstream's reshape propagation needs to move an
/// einsum's reshapes through the mix. Not for windowed filters: the
/// reshapes spread unit dimensions through an image pyramid's stages, and
/// local laplacian ran 20% slower).
fn tap_slice<'c, 'a>(
    context: &'c Context,
    op: OperationRef<'c, 'a>,
    input: Value<'c, 'a>,
    map: AffineMap<'c>,
    kept: &[usize],
    extents: &HashMap<usize, i64>,
    drop_units: bool,
) -> (Value<'c, 'a>, AffineMap<'c>) {
    let (mut offsets, mut sizes, mut strides, mut results) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for r in 0..map.result_count() {
        let (terms, offset) = linear(map.result(r).expect("result")).expect("checked linear");
        offsets.push(offset);
        match terms[..] {
            [(d, step)] => {
                sizes.push(extents[&kept[d]]);
                strides.push(step);
                results.push(AffineExpr::dim(context, d));
            }
            _ => {
                sizes.push(1);
                strides.push(1);
                results.push(AffineExpr::constant(context, 0));
            }
        }
    }
    let indexed: Vec<bool> = results.iter().map(|r| !r.is_constant()).collect();
    let slice = builder::extract_slice_operation(context, op.location(), input, &offsets, &sizes, &strides);
    let block = op.block().expect("in a block");
    let mut slice: Value = block.insert_operation_before(op, slice).result(0).expect("one result").into();
    if drop_units && indexed.iter().any(|k| *k) && indexed.iter().any(|k| !*k) {
        // A reshape, not a rank-reducing slice: upstream moves slices
        // above reshapes only when they keep their rank.
        results.retain(|r| !r.is_constant());
        let collapse = builder::drop_unit_dims_operation(context, op.location(), slice, &indexed);
        slice = block.insert_operation_before(op, collapse).result(0).expect("one result").into();
    }
    (slice, AffineMap::new(context, kept.len(), 0, &results))
}

/// The value `value` reshapes (through `tensor.expand_shape` and
/// `tensor.collapse_shape` of static tensors: the same elements in the
/// same row-major order) and its shape.
fn reshape_source<'c: 'a, 'a>(value: Value<'c, 'a>) -> (Value<'c, 'a>, Vec<i64>) {
    let mut current = value;
    while let Some(op) = ffi::defining_op(current) {
        let name = op_name(op);
        if name != "tensor.expand_shape" && name != "tensor.collapse_shape" {
            break;
        }
        let Some(source) = ffi::operand(op, 0).filter(|v| pb_dialects::type_utils::static_shape(v.r#type()).is_some()) else { break };
        current = source;
    }
    let shape = pb_dialects::type_utils::static_shape(current.r#type()).unwrap_or_default();
    (current, shape)
}

/// Emits `tensor.extract`s of one tensor in a row, each after the last,
/// starting right after the tensor's definition (the start of its block
/// for a block argument), with their index constants.
struct Reads<'c, 'a> {
    context: &'c Context,
    location: Location<'c>,
    block: melior::ir::BlockRef<'c, 'a>,
    /// The op the next one goes after (`None`: the start of `block`).
    last: Option<OperationRef<'c, 'a>>,
    indices: HashMap<i64, Value<'c, 'a>>,
}

impl<'c, 'a> Reads<'c, 'a> {
    fn after_definition(
        context: &'c Context,
        location: Location<'c>,
        tensor: Value<'c, 'a>,
        fallback_block: melior::ir::BlockRef<'c, 'a>,
        fallback_before: OperationRef<'c, 'a>,
    ) -> Self {
        let (block, last) = match ffi::defining_op(tensor) {
            Some(def) => (def.block().unwrap_or(fallback_block), Some(def)),
            None => match ffi::defining_block(tensor) {
                Some(block) => (block, None),
                None => (fallback_block, fallback_before.previous_in_block()),
            },
        };
        Reads { context, location, block, last, indices: HashMap::new() }
    }

    fn insert(&mut self, op: melior::ir::Operation<'c>) -> OperationRef<'c, 'a> {
        let inserted = match self.last {
            Some(last) => self.block.insert_operation_after(last, op),
            None => self.block.insert_operation(0, op),
        };
        self.last = Some(inserted);
        inserted
    }

    fn index(&mut self, v: i64) -> Value<'c, 'a> {
        if let Some(value) = self.indices.get(&v) {
            return *value;
        }
        let constant = builder::index_constant_operation(self.context, self.location, v);
        let value: Value = self.insert(constant).result(0).expect("one result").into();
        self.indices.insert(v, value);
        value
    }

    /// `tensor[indices]`.
    fn element(&mut self, tensor: Value<'c, 'a>, indices: &[i64], element: Type<'c>) -> Value<'c, 'a> {
        let mut operands = vec![tensor];
        for i in indices {
            operands.push(self.index(*i));
        }
        let extract = builder::build_operation(self.context, self.location, "tensor.extract", &operands, &[element], &[], vec![]);
        self.insert(extract).result(0).expect("one result").into()
    }
}
