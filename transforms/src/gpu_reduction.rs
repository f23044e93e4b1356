//! Reductions across threads for `pb-gpu-map`: a parallel band whose body
//! is a reduction loop nest (`acc[i] = acc[i] ⊕ f(i, k)` for an
//! associative, commutative `⊕`: sums, products, maxima, minima, bitwise)
//! runs with `L` threads per band point instead of one.
//!
//! One thread per point would walk the whole reduction alone, and its
//! neighbours' loads of `x[i, k]` would lie a row apart: no coalescing, and
//! for a few hundred rows too few threads to fill the GPU (layernorm over
//! 512 rows of 768: 512 threads). With `L` lanes, lane `t` folds
//! `k = t, t + L, ...` into a register (neighbouring lanes read neighbouring
//! elements), the lanes' partial results meet in workgroup memory and
//! combine as a tree (one barrier per level), and lane 0 folds the total into
//! `acc[i]` (the earlier fill of `acc` stays where it was).
//!
//! Taken where the reduction has at least a warp's worth of iterations. Where
//! a load's contiguous index follows the band's innermost loop instead (a
//! small matmul's `B[k, j]`, column sums `x[k, j]`, an NHWC pooling), the
//! reduction is *transposed*: neighbouring points, not lanes, read
//! neighbouring elements, so points go on threadIdx.x and lanes on
//! threadIdx.y (`column_lanes`), and only when the band alone would leave
//! the GPU idle. A nest of reduction loops (a mean over `h, w`) is
//! flattened into one index. Floating-point sums are reassociated, as every
//! parallel reduction does.
//!
//! The tree uses workgroup memory and `gpu.barrier`, never divergent around
//! a barrier (inactive points run no iterations; lane 0 of an active point
//! alone writes), so the emulation (`pb-gpu-emulate`) runs it phase by phase
//! exactly as the GPU does.

use crate::emit_at::Emit;
use melior::ir::{
    block::BlockLike, operation::OperationLike, Block, BlockRef, OperationRef, Region, RegionLike, Type, TypeLike, Value,
    ValueLike,
};
use pb_support::{
    ffi,
    gpu_target::GpuDesc,
    ir::{self, is_named},
};

/// One accumulation `memref.store (load ⊕ v), acc[idx]` of the nest.
pub(crate) struct Update<'c, 'a> {
    load: OperationRef<'c, 'a>,
    combine: OperationRef<'c, 'a>,
    store: OperationRef<'c, 'a>,
    /// Which operand of `combine` is the load's value.
    position: usize,
    identity: String,
    element: Type<'c>,
}

/// A band body recognized as a reduction nest.
pub(crate) struct Reduction<'c, 'a> {
    /// The outermost reduction loop (the band body's last op).
    outer: OperationRef<'c, 'a>,
    /// (lower bound, trip count, step, induction variable) of the
    /// perfectly nested loops, outermost first.
    chain: Vec<(i64, i64, i64, Value<'c, 'a>)>,
    /// The innermost loop's body.
    body: BlockRef<'c, 'a>,
    updates: Vec<Update<'c, 'a>>,
    /// Iterations of the whole nest (per band point).
    trip: i64,
    /// A load's contiguous index follows the band's innermost loop
    /// (column sums, `x[k, j]`): neighbouring points, not neighbouring
    /// lanes, read neighbouring elements, so points go on threadIdx.x and
    /// the lanes on threadIdx.y (`column_lanes`).
    pub transposed: bool,
}

impl Reduction<'_, '_> {
    /// Iterations of the nest per band point.
    pub(crate) fn trip(&self) -> i64 {
        self.trip
    }
}

/// The band body `band_body` as a reduction nest worth spreading over a
/// warp, or None. `band_inner` is the band's innermost induction variable.
pub(crate) fn recognize<'c, 'a>(band_body: BlockRef<'c, 'a>, band_inner: Value<'c, 'a>, gpu: &GpuDesc) -> Option<Reduction<'c, 'a>> {
    let ops = ir::ops_before_terminator(band_body);
    let (&outer, before) = ops.split_last()?;
    recognize_nest(outer, before, Some(band_inner), gpu)
}

/// A reduction nest outside any parallel loop (a whole-array sum), as a
/// band of one point.
pub(crate) fn recognize_alone<'c, 'a>(outer: OperationRef<'c, 'a>, gpu: &GpuDesc) -> Option<Reduction<'c, 'a>> {
    recognize_nest(outer, &[], None, gpu)
}

/// The nest `outer` (after the band body's ops `before`) as a reduction.
fn recognize_nest<'c, 'a>(
    outer: OperationRef<'c, 'a>,
    before: &[OperationRef<'c, 'a>],
    band_inner: Option<Value<'c, 'a>>,
    gpu: &GpuDesc,
) -> Option<Reduction<'c, 'a>> {
    if !is_named(outer, "scf.for") || outer.result_count() != 0 {
        return None;
    }
    // Ops before the nest: scalar arithmetic and loads (run by every lane).
    if !before.iter().all(|op| ir::is_pure_scalar(*op) || is_named(*op, "memref.load") || ir::op_name(*op).starts_with("math.")) {
        return None;
    }
    let mut chain = Vec::new();
    let mut current = outer;
    let body = loop {
        let bound = |i: usize| ffi::operand(current, i).and_then(ir::constant_int);
        let (lower, upper, step) = (bound(0)?, bound(1)?, bound(2)?);
        if step <= 0 {
            return None;
        }
        let body = current.region(0).ok()?.first_block()?;
        chain.push((lower, ((upper - lower).max(0) + step - 1) / step, step, body.argument(0).ok()?.into()));
        let inner = ir::ops_before_terminator(body);
        match inner.as_slice() {
            [only] if is_named(*only, "scf.for") && only.result_count() == 0 => current = *only,
            _ => break body,
        }
    };
    let trip: i64 = chain.iter().map(|c| c.1).product();
    if trip < i64::from(gpu.warp_size) {
        return None;
    }
    let nest_ops = ir::ops_before_terminator(body);
    let allowed = |op: &OperationRef| {
        op.region_count() == 0
            && (ir::is_pure_scalar(*op)
                || ir::op_name(*op).starts_with("math.")
                || is_named(*op, "memref.load")
                || is_named(*op, "memref.store"))
    };
    if !nest_ops.iter().all(allowed) {
        return None;
    }
    let mut updates = Vec::new();
    for store in nest_ops.iter().filter(|op| is_named(**op, "memref.store")) {
        updates.push(update(*store, body, outer)?);
    }
    if updates.is_empty() {
        return None;
    }
    // The accumulators are touched only by their own load and store, and
    // no other load's contiguous index follows the band's innermost loop.
    let roots: Vec<Value> = updates.iter().map(|u| ir::view_root(ffi::operand(u.store, 1).expect("memref"))).collect();
    for (i, root_i) in roots.iter().enumerate() {
        if roots[..i].contains(root_i) {
            return None;
        }
    }
    let paired = |op: OperationRef| updates.iter().any(|u| u.load == op || u.store == op);
    let mut transposed = false;
    for op in nest_ops.iter().chain(before).filter(|op| is_named(**op, "memref.load") && !paired(**op)) {
        let memref = ffi::operand(*op, 0)?;
        if roots.contains(&ir::view_root(memref)) {
            return None;
        }
        if let (Some(last), Some(band_inner)) = (op.operands().skip(1).last(), band_inner) {
            transposed |= depends_on(last, band_inner);
        }
    }
    Some(Reduction { outer, chain, body, updates, trip, transposed })
}

/// `store` as an accumulation `acc[idx] = acc[idx] ⊕ v` of the nest whose
/// innermost body is `body` (indices invariant in the nest `outer`).
fn update<'c, 'a>(store: OperationRef<'c, 'a>, body: BlockRef<'c, 'a>, outer: OperationRef<'c, 'a>) -> Option<Update<'c, 'a>> {
    let operands: Vec<Value> = store.operands().collect();
    let (value, memref, indices) = (operands[0], operands[1], &operands[2..]);
    if indices.iter().any(|i| ir::defined_inside(*i, outer) || !pure_index(*i)) {
        return None;
    }
    let combine = ffi::defining_op(value).filter(|c| c.block() == Some(body))?;
    let identity = identity(&ir::op_name(combine), value.r#type())?;
    if combine.operand_count() != 2 || ffi::uses(value).len() != 1 {
        return None;
    }
    let (position, load) = (0..2).find_map(|p| {
        let load = ffi::operand(combine, p).and_then(ffi::defining_op)?;
        let same = is_named(load, "memref.load")
            && ffi::operand(load, 0) == Some(memref)
            && load.operands().skip(1).eq(indices.iter().copied())
            && load.block() == Some(body);
        same.then_some((p, load))
    })?;
    let other = ffi::operand(combine, 1 - position)?;
    if ffi::uses(load.result(0).ok()?.into()).len() != 1 || ffi::defining_op(other) == Some(load) {
        return None;
    }
    Some(Update { load, combine, store, position, identity, element: value.r#type() })
}

/// The value a combining op leaves unchanged, as an attribute of `ty`, or
/// None for an op that does not combine associatively and commutatively.
fn identity(op: &str, ty: Type) -> Option<String> {
    let text = ty.to_string();
    let infinity = |negative: bool| -> Option<String> {
        let bits = match text.as_str() {
            "f16" => if negative { "0xFC00" } else { "0x7C00" },
            "bf16" => if negative { "0xFF80" } else { "0x7F80" },
            "f32" => if negative { "0xFF800000" } else { "0x7F800000" },
            "f64" => if negative { "0xFFF0000000000000" } else { "0x7FF0000000000000" },
            _ => return None,
        };
        Some(format!("{bits} : {text}"))
    };
    if ty.is_float() {
        return match op {
            // -0.0 + x is x for every x, +0.0 and -0.0 included.
            "arith.addf" => Some(format!("-0.0 : {text}")),
            "arith.mulf" => Some(format!("1.0 : {text}")),
            "arith.maximumf" | "arith.maxnumf" => infinity(true),
            "arith.minimumf" | "arith.minnumf" => infinity(false),
            _ => None,
        };
    }
    let width: u32 = text.strip_prefix('i')?.parse().ok().filter(|w| (1..=64).contains(w))?;
    let signed_max = (1i128 << (width - 1)) - 1;
    let value: i128 = match op {
        "arith.addi" | "arith.ori" | "arith.xori" | "arith.maxui" => 0,
        "arith.muli" => 1,
        "arith.andi" | "arith.minui" => -1,
        "arith.maxsi" => -signed_max - 1,
        "arith.minsi" => signed_max,
        _ => return None,
    };
    Some(format!("{value} : {text}"))
}

/// Is `value` computed from `target` (through scalar arithmetic)?
fn depends_on(value: Value, target: Value) -> bool {
    if value == target {
        return true;
    }
    ffi::defining_op(value).is_some_and(|d| ir::is_pure_scalar(d) && d.operands().any(|v| depends_on(v, target)))
}

/// Is `value` scalar arithmetic on block arguments and constants (no
/// loaded value: it can be computed again after a barrier)?
fn pure_index(value: Value) -> bool {
    ffi::defining_op(value).is_none_or(|d| ir::is_pure_scalar(d) && d.operands().all(pure_index))
}

/// The launch's shape for `points` points of `reduction`: (points per
/// block, lanes per point), lanes on threadIdx.x and points on y, or the
/// other way round when `transposed` (`column_lanes`; None when one lane
/// would gain nothing).
pub(crate) fn block_shape(reduction: &Reduction, points: i64, gpu: &GpuDesc) -> Option<(i64, i64)> {
    if reduction.transposed {
        return column_lanes(reduction, points, gpu);
    }
    let lanes = lanes(reduction, points, gpu);
    let per_block = ((gpu.threads_for((points * lanes) as u64) as i64).max(lanes) / lanes).min(points).max(1);
    Some((per_block, lanes))
}

/// Threads per band point for `points` points of `reduction`: a warp, more
/// (up to 256) while the band alone would not fill the GPU and each lane
/// keeps at least 8 iterations.
fn lanes(reduction: &Reduction, points: i64, gpu: &GpuDesc) -> i64 {
    let filled = i64::from(gpu.multiprocessors) * i64::from(gpu.max_threads_per_multiprocessor);
    let mut lanes = i64::from(gpu.warp_size.max(1));
    while lanes < 256.min(i64::from(gpu.max_threads_per_block)) && points * lanes < filled && lanes * 2 * 8 <= reduction.trip {
        lanes *= 2;
    }
    lanes
}

/// For a transposed reduction of `points` points: (points per block on
/// threadIdx.x, lanes per point on threadIdx.y). Points fill a warp (or
/// all there are); lanes double while the block holds at most 256 threads,
/// the band alone would not fill the GPU and each lane keeps at least 8
/// iterations. One lane (nothing gained): None.
fn column_lanes(reduction: &Reduction, points: i64, gpu: &GpuDesc) -> Option<(i64, i64)> {
    let filled = i64::from(gpu.multiprocessors) * i64::from(gpu.max_threads_per_multiprocessor);
    let per_block = points.min(i64::from(gpu.warp_size.max(1)));
    let block = 256.min(i64::from(gpu.max_threads_per_block));
    let mut lanes = 1;
    while per_block * lanes * 2 <= block && points * lanes < filled && lanes * 2 * 8 <= reduction.trip {
        lanes *= 2;
    }
    (lanes > 1).then_some((per_block, lanes))
}

/// The shared buffers the launch needs: one `memref<points x lanes x T>`
/// per accumulation.
pub(crate) fn shared_types<'c>(e: &Emit<'c>, reduction: &Reduction<'c, '_>, points: i64, lanes: i64) -> Vec<Type<'c>> {
    reduction
        .updates
        .iter()
        .map(|u| e.ty(&format!("memref<{points}x{lanes}x{}, #gpu.address_space<workgroup>>", u.element)))
        .collect()
}

/// Emits the reduction in a launch body before `at`: lane `lane` of point
/// row `row` (the band's induction variables already replaced by the
/// point's), `active` false for padding points (which run no iterations
/// and write nothing). `shared` are the launch's buffers of
/// [`shared_types`]. The nest's loops are erased.
pub(crate) fn emit<'c, 'a>(
    e: &Emit<'c>,
    at: OperationRef<'c, 'a>,
    reduction: Reduction<'c, 'a>,
    (lane, row, lanes): (Value<'c, 'a>, Value<'c, 'a>, i64),
    active: Option<Value<'c, 'a>>,
    shared: &[Value<'c, 'a>],
) {
    let index = Type::index(e.context);
    let i1 = e.ty("i1");
    let constant = |at: OperationRef<'c, 'a>, v: i64| e.constant(at, "index", &v.to_string());
    let compare = |at: OperationRef<'c, 'a>, predicate: i64, a: Value<'c, 'a>, b: Value<'c, 'a>| {
        e.value(at, "arith.cmpi", &[a, b], i1, &[("predicate", e.attr(&format!("{predicate} : i64")))])
    };
    // The lanes' loop over the flattened nest: k = lane, lane + L, ...
    let total = constant(at, reduction.trip);
    let upper = match active {
        Some(active) => {
            let zero = constant(at, 0);
            e.value(at, "arith.select", &[active, total, zero], index, &[])
        }
        None => total,
    };
    let step = constant(at, lanes);
    let inits: Vec<Value> =
        reduction.updates.iter().map(|u| e.value(at, "arith.constant", &[], u.element, &[("value", e.attr(&u.identity))])).collect();
    let mut arguments = vec![(index, e.location)];
    arguments.extend(reduction.updates.iter().map(|u| (u.element, e.location)));
    let region = Region::new();
    let block = region.append_block(Block::new(&arguments));
    let carried: Vec<Value> = (1..arguments.len()).map(|i| block.argument(i).expect("carried").into()).collect();
    let end = block.append_operation(e.build("scf.yield", &carried, &[], &[], vec![]));
    let results: Vec<Type> = reduction.updates.iter().map(|u| u.element).collect();
    let mut operands = vec![lane, upper, step];
    operands.extend(inits);
    let lanes_loop = at.block().expect("in a block").insert_operation_before(at, e.build("scf.for", &operands, &results, &[], vec![region]));
    // Each loop of the nest from the flattened index, innermost fastest.
    let trips: Vec<i64> = reduction.chain.iter().map(|c| c.1).collect();
    let positions = unflatten(e, end, block.argument(0).expect("iv").into(), &trips);
    for (&(lower, _, stride, iv), point) in reduction.chain.iter().zip(positions) {
        let scaled = if stride == 1 { point } else { e.value(end, "arith.muli", &[point, constant(end, stride)], index, &[]) };
        let value = if lower == 0 { scaled } else { e.value(end, "arith.addi", &[scaled, constant(end, lower)], index, &[]) };
        ffi::replace_all_uses(iv, value);
    }
    for op in ir::ops_before_terminator(reduction.body) {
        ffi::move_before(op, end);
    }
    // Each accumulator's buffer and indices, before its store goes.
    let places: Vec<Vec<Value>> = reduction.updates.iter().map(|u| u.store.operands().skip(1).collect()).collect();
    for (j, u) in reduction.updates.iter().enumerate() {
        ffi::set_operand(u.combine, u.position, carried[j]);
        ffi::set_operand(end, j, u.combine.result(0).expect("one result").into());
        // SAFETY: the store is used by nothing; the load's one use (the
        // combine) was just replaced, so it is unused too.
        unsafe {
            ffi::erase(u.store);
            ffi::erase(u.load);
        }
    }
    // SAFETY: the nest's loops hold only their terminators and nested loops
    // now; their induction variables were replaced above.
    unsafe { ffi::erase(reduction.outer) };
    // Partial results into workgroup memory, then a tree: lanes below s
    // fold in the one s above, one barrier per level.
    for (j, buffer) in shared.iter().enumerate() {
        e.op(at, "memref.store", &[lanes_loop.result(j).expect("a result").into(), *buffer, row, lane], &[], &[]);
    }
    e.op(at, "gpu.barrier", &[], &[], &[]);
    let mut s = lanes / 2;
    while s >= 1 {
        let bound = constant(at, s);
        let below = compare(at, 6, lane, bound); // ult
        let then_end = e.if_then(at, below);
        let partner = e.value(then_end, "arith.addi", &[lane, bound], index, &[]);
        for (u, buffer) in reduction.updates.iter().zip(shared) {
            let mine = e.value(then_end, "memref.load", &[*buffer, row, lane], u.element, &[]);
            let theirs = e.value(then_end, "memref.load", &[*buffer, row, partner], u.element, &[]);
            let sum = combine_before(then_end, u.combine, mine, theirs);
            e.op(then_end, "memref.store", &[sum, *buffer, row, lane], &[], &[]);
        }
        e.op(at, "gpu.barrier", &[], &[], &[]);
        s /= 2;
    }
    // Lane 0 of an active point folds the total into the accumulator.
    let zero = constant(at, 0);
    let first = compare(at, 0, lane, zero); // eq
    let writes = match active {
        Some(active) => e.value(at, "arith.andi", &[first, active], i1, &[]),
        None => first,
    };
    let then_end = e.if_then(at, writes);
    for ((u, buffer), place) in reduction.updates.iter().zip(shared).zip(places) {
        let total = e.value(then_end, "memref.load", &[*buffer, row, zero], u.element, &[]);
        let old = e.value(then_end, "memref.load", &place, u.element, &[]);
        let (a, b) = if u.position == 0 { (old, total) } else { (total, old) };
        let new = combine_before(then_end, u.combine, a, b);
        let mut stored = vec![new];
        stored.extend(place);
        e.op(then_end, "memref.store", &stored, &[], &[]);
    }
}

/// The positions (from 0) of loops of `trips` (outermost first) at their
/// row-major flattened index `flat`, emitted before `at`: the innermost by
/// remainder, the outermost by division.
pub(crate) fn unflatten<'c, 'a>(e: &Emit<'c>, at: OperationRef<'c, 'a>, flat: Value<'c, 'a>, trips: &[i64]) -> Vec<Value<'c, 'a>> {
    let index = Type::index(e.context);
    let mut positions = vec![flat; trips.len()];
    let mut remaining = flat;
    for d in (1..trips.len()).rev() {
        let count = e.constant(at, "index", &trips[d].to_string());
        positions[d] = e.value(at, "arith.remui", &[remaining, count], index, &[]);
        remaining = e.value(at, "arith.divui", &[remaining, count], index, &[]);
    }
    if let Some(first) = positions.first_mut() {
        *first = remaining;
    }
    positions
}

/// A copy of the combining op `like` on `a` and `b`, before `at`.
fn combine_before<'c, 'a>(at: OperationRef<'c, 'a>, like: OperationRef<'c, 'a>, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Value<'c, 'a> {
    let copy = at.block().expect("in a block").insert_operation_before(at, ffi::clone_operation(like));
    ffi::set_operand(copy, 0, a);
    ffi::set_operand(copy, 1, b);
    copy.result(0).expect("one result").into()
}
