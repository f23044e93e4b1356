//! `pb-parallelize`: the outermost loops of each nest that carry no
//! dependence become `affine.parallel`, from one dependence analysis per
//! nest.
//!
//! Why: upstream `affine-parallelize` asks, for every loop of a nest, every
//! pair of accesses in its body whether they depend on each other at that
//! depth: one Presburger problem per pair and loop. A register-tiled
//! contraction unrolled into a few hundred accesses (ViT's and BERT's
//! projections) made it the slowest pass of the affine stage (ViT-B/16:
//! 1.0 s). Here ISL computes the nest's dependences once (`Model`), and a
//! loop is parallel if no dependence joins two of its iterations within
//! one iteration of the loops around it (with the 2d+1 schedule: the same
//! time prefix up to the loop, an earlier iteration of it). The loops
//! chosen are those upstream chooses with `max-nested=1`: in each nest, the
//! outermost parallel loops, none inside another; loops carrying values
//! (`iter_args`) stay sequential, as upstream leaves them without
//! `parallel-reductions`, but the loops around them are analysed with the
//! rest of the nest (the values they carry are not memory): the
//! register-kept reductions of `pb-accumulate-tile` (a depthwise
//! convolution channels-last, a global pool) used to leave their whole nest
//! on one thread. Unlike upstream, a vector access covers all its
//! lanes (upstream's test reads `affine.vector_load %a[16 * j + 1]` as one
//! element, and would run a loop in parallel whose iterations overlap).
//!
//! A buffer allocated inside the nest is a new one in each iteration of the
//! loops around its allocation: its accesses count only for deeper loops.
//!
//! **Even shares.** With `cores` threads, a chosen loop whose iterations
//! they would share unevenly (the 3 channels of an image on 2 threads: one
//! thread runs two, the other waits half the time; a 2-channel map on 16)
//! takes in the loop perfectly nested in it, when that loop has constant
//! bounds and carries no dependence either, as a second dimension of one
//! `affine.parallel` (3 x 2048 rows share evenly); then the next, while the
//! shares are more than 5% apart and get closer. OpenMP runs the dimensions
//! as one collapsed loop. An elementwise op on a 3 x 2048 x 2048 image:
//! 4.6 -> 3.8 ms on 2 cores.
//!
//! Gathers (`memref.load` at indices computed from data) are analysed as
//! reads of any element of their array: a loop writing other arrays is
//! parallel, one writing the gathered array is not.
//!
//! A nest the polyhedral model cannot read (an `affine.parallel` that
//! `pb-register-tile` made inside, a `cf.assert` in a gather's body,
//! non-affine bounds) is not analysed as a whole: each loop directly inside
//! it is analysed as a nest of its own (a loop carries dependences only
//! between accesses in its body); `--pb-report` says which.

use melior::{
    ir::{
        attribute::ArrayAttribute,
        block::BlockLike,
        operation::OperationLike,
        Attribute, Block, OperationRef, Region, RegionLike, Type, Value,
    },
    Context,
};
use pb_polyhedral::{
    isl_rs::{LibISLError, UnionMap, UnionSet},
    model::{isl_err, IslResult, Model},
    Scop,
};
use pb_support::{builder::build_operation, ffi, ir::is_named, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

use crate::report;

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-parallelize",
    summary: "Make the outermost dependence-free loops of each nest affine.parallel (one ISL dependence analysis per nest)",
    description: "For each top-level affine.for nest of a function, computes the nest's memory \
dependences once with ISL and turns into `affine.parallel` every outermost loop that carries none \
(no dependence between two of its iterations within one iteration of its enclosing loops), as \
upstream `affine-parallelize{max-nested=1}` chooses them; loops with iter_args stay sequential. \
A loop whose iterations `cores` threads would share unevenly takes in the dependence-free, \
constant-bound loops perfectly nested in it as further dimensions. \
Nests the polyhedral model cannot read stay sequential.",
    anchor: "func.func",
    options: &[
        PassOption { name: "report", kind: OptionKind::Bool, default: "false", help: "Explain each decision on stderr" },
        PassOption {
            name: "cores",
            kind: OptionKind::UInt,
            default: "1",
            help: "Threads the parallel loops are shared among: a loop whose iterations they would share unevenly takes the dependence-free loops perfectly nested in it into one multi-dimensional parallel loop",
        },
    ],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(Parallelize { report: options.bool("report"), cores: options.uint("cores").max(1) as i64 })
}

#[derive(Clone)]
struct Parallelize {
    report: bool,
    cores: i64,
}

impl RustPass for Parallelize {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["affine"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let mut nests = outermost_loops(func);
        let mut chosen = Vec::new();
        while let Some(nest) = nests.pop() {
            match parallel_loops(nest, self.cores) {
                Ok(found) => chosen.extend(found),
                Err(message) => {
                    // A loop carries a dependence only between accesses in
                    // its body: the loops inside are nests of their own.
                    let inner = directly_nested_loops(nest);
                    if self.report {
                        let what = if inner.is_empty() { "left sequential" } else { "its inner loops analysed alone" };
                        report::note(nest.location(), INFO.argument, &format!("{what}: {message}"));
                    }
                    nests.extend(inner);
                }
            }
        }
        for group in chosen {
            let Some(first) = group.first().copied() else { continue };
            ffi::with_context(first, |context| to_parallel(context, &group));
        }
        Ok(())
    }
}

/// The `affine.for` ops directly in `op`'s body: inside no other loop of
/// it, seen through other ops with regions (`affine.if`,
/// `memref.alloca_scope`), but not inside an `affine.parallel` (loops in a
/// parallel loop stay sequential, as with upstream's `max-nested=1`).
fn directly_nested_loops<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut loops = Vec::new();
    for k in 0..op.region_count() {
        let Ok(region) = op.region(k) else { continue };
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut next = b.first_operation();
            while let Some(inner) = next {
                next = inner.next_in_block();
                if is_named(inner, "affine.for") {
                    loops.push(inner);
                } else if !is_named(inner, "affine.parallel") && inner.region_count() > 0 {
                    loops.extend(directly_nested_loops(inner));
                }
            }
            block = b.next_in_region();
        }
    }
    loops
}

/// The loops of `func` inside no other loop.
fn outermost_loops<'c, 'a>(func: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    directly_nested_loops(func)
}

/// Time lost to uneven shares: the busiest of `cores` threads runs
/// `ceil(trips / cores)` iterations where `trips / cores` would be even.
fn imbalance(trips: i64, cores: i64) -> f64 {
    ((trips + cores - 1) / cores * cores) as f64 / trips.max(1) as f64
}

/// Shares of at most this much more than an even split are left as they are.
const EVEN_ENOUGH: f64 = 1.05;

/// The constant trip count of `op` (an `affine.for` with constant bounds).
fn constant_trips(op: OperationRef) -> Option<i64> {
    let lower = crate::affine_access::constant_bound(op, "lowerBoundMap")?;
    let upper = crate::affine_access::constant_bound(op, "upperBoundMap")?;
    let step = op.attribute("step").ok().and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())?.value();
    (step > 0).then(|| ((upper - lower + step - 1) / step).max(0))
}

/// The loop that is all of `op`'s body (besides its terminator), if any.
fn sole_inner_loop<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let body = op.region(0).ok()?.first_block()?;
    let first = body.first_operation()?;
    let terminator = first.next_in_block()?;
    (is_named(first, "affine.for") && is_named(terminator, "affine.yield") && terminator.next_in_block().is_none()).then_some(first)
}

/// The outermost loops of `nest` that carry no dependence, each with the
/// dependence-free loops perfectly nested in it that join it in one
/// parallel loop: while `cores` threads would share the iterations so far
/// unevenly (3 channels of an image on 2 cores: one thread does two, the
/// other waits half the time), the next loop's iterations are added.
fn parallel_loops<'c, 'a>(nest: OperationRef<'c, 'a>, cores: i64) -> Result<Vec<Vec<OperationRef<'c, 'a>>>, String> {
    // Memory dependences only: SSA values cannot carry anything from one
    // iteration to another but through iter_args, which keep a loop
    // sequential anyway.
    let scop = Scop::extract_accesses(&[nest]).map_err(|e| e.to_string())?;
    let model = Model::new(&scop)?;
    // A buffer allocated inside the nest, under `k` of its loops, is a new
    // one in each iteration of those: its accesses are dependences only for
    // loops deeper than `k` (upstream ignores memrefs "locally defined" in
    // the loop it tests, the same).
    let allocated_under: Vec<usize> = scop
        .arrays
        .iter()
        .map(|array| {
            let owner = array.values.first().and_then(|v| ffi::defining_op(*v));
            owner.map_or(0, |op| loops_between(op, nest))
        })
        .collect();
    let depth = scop.statements.iter().map(|s| s.loops.len()).max().unwrap_or(0);
    let params = scop.param_names();
    // Dependences between time points of the 2d+1 schedule, per loop
    // level (those through buffers allocated at or inside that level left
    // out); computed once per distinct set of buffers.
    let mut times_by_level: Vec<Option<UnionMap>> = (0..=depth).map(|_| None).collect();
    // Does the loop at `beta` (`level` = its depth) carry a dependence?
    let mut carried_at = |level: usize, beta: &[usize]| -> IslResult<bool> {
        if times_by_level[level].is_none() {
            let kept: Vec<usize> = (0..scop.arrays.len()).filter(|a| allocated_under[*a] <= level).collect();
            times_by_level[level] = Some(dependence_times(&scop, &model, &kept)?);
        }
        let times = times_by_level[level].as_ref().expect("computed above");
        carried(&model, times, &params, depth, beta)
    };
    let mut chosen = Vec::new();
    let mut pending = vec![(nest, 0usize)];
    while let Some((op, level)) = pending.pop() {
        // The statements inside `op` give its place in the schedule.
        let inside = scop.statements.iter().find(|s| s.loops.get(level) == Some(&op));
        let Some(statement) = inside else { continue };
        let carries = op.result_count() > 0 || carried_at(level, &statement.beta[..=level])?;
        if !carries {
            let mut group = vec![op];
            let mut trips = constant_trips(op);
            while let Some(outer_trips) = trips.filter(|t| imbalance(*t, cores) > EVEN_ENOUGH) {
                let last = group[group.len() - 1];
                let inner_level = level + group.len();
                let Some(inner) = sole_inner_loop(last).filter(|inner| inner.result_count() == 0) else { break };
                let Some(inner_trips) = constant_trips(inner) else { break };
                let Some(statement) = scop.statements.iter().find(|s| s.loops.get(inner_level) == Some(&inner)) else { break };
                let total = outer_trips * inner_trips;
                if imbalance(total, cores) >= imbalance(outer_trips, cores) || carried_at(inner_level, &statement.beta[..=inner_level])? {
                    break;
                }
                group.push(inner);
                trips = Some(total);
            }
            chosen.push(group);
            continue;
        }
        // Not parallel: its directly nested loops are candidates.
        pending.extend(directly_nested_loops(op).into_iter().map(|inner| (inner, level + 1)));
    }
    Ok(chosen)
}

/// How many `affine.for` ops enclose `op` up to and including `nest`.
fn loops_between(op: OperationRef, nest: OperationRef) -> usize {
    let mut count = 0;
    let mut current = op.parent_operation();
    while let Some(parent) = current {
        if is_named(parent, "affine.for") {
            count += 1;
        }
        if parent == nest {
            return count;
        }
        current = parent.parent_operation();
    }
    0 // allocated outside the nest
}

/// The memory dependences through the arrays `kept` (all: the model's own),
/// as pairs of time points of the 2d+1 schedule.
fn dependence_times(scop: &Scop, model: &Model, kept: &[usize]) -> IslResult<UnionMap> {
    let dependences = if kept.len() == scop.arrays.len() {
        model.dependences()?.copy().map_err(isl_err)?
    } else {
        let spaces: Vec<String> = kept
            .iter()
            .map(|a| {
                let array = &scop.arrays[*a];
                let dims: Vec<String> = (0..array.shape.len()).map(|k| format!("o{k}")).collect();
                format!("{}[{}]", array.name, dims.join(", "))
            })
            .collect();
        let text = format!("[{}] -> {{ {} }}", scop.param_names().join(", "), spaces.join("; "));
        model.dependences_through(UnionSet::read_from_str(&model.ctx, &text).map_err(isl_err)?)?
    };
    let run = || -> Result<UnionMap, LibISLError> {
        dependences.apply_domain(model.schedule.copy()?)?.apply_range(model.schedule.copy()?)
    };
    run().map_err(isl_err)
}

/// Is there a dependence between two iterations of the loop at position
/// `beta` (its betas from the outermost, the last one its own), within one
/// iteration of the loops around it?
fn carried(model: &Model, times: &UnionMap, params: &[String], depth: usize, beta: &[usize]) -> IslResult<bool> {
    let dims = 2 * depth + 1;
    let t: Vec<String> = (0..dims).map(|k| format!("t{k}")).collect();
    let u: Vec<String> = (0..dims).map(|k| format!("u{k}")).collect();
    let level = beta.len() - 1;
    let mut constraints = Vec::new();
    for (k, b) in beta.iter().enumerate() {
        constraints.push(format!("t{} = {b} and u{} = {b}", 2 * k, 2 * k));
        if k < level {
            constraints.push(format!("t{} = u{}", 2 * k + 1, 2 * k + 1));
        }
    }
    constraints.push(format!("t{} < u{}", 2 * level + 1, 2 * level + 1));
    let text = format!("[{}] -> {{ [{}] -> [{}] : {} }}", params.join(", "), t.join(", "), u.join(", "), constraints.join(" and "));
    let run = || -> Result<bool, LibISLError> {
        let loop_pairs = UnionMap::read_from_str(&model.ctx, &text)?;
        times.copy()?.intersect(loop_pairs)?.is_empty().map(|empty| !empty)
    };
    run().map_err(isl_err)
}

/// Replaces the perfectly nested `affine.for` loops `group` (outermost
/// first; no iter_args; the inner ones with constant bounds) by one
/// `affine.parallel` with their bounds (each a max/min group of its map's
/// results) and steps, over the innermost loop's body.
fn to_parallel<'c>(context: &'c Context, group: &[OperationRef<'c, '_>]) {
    let (Some(&op), Some(&innermost)) = (group.first(), group.last()) else { return };
    let location = op.location();
    let mut lower_results = Vec::new();
    let mut upper_results = Vec::new();
    let mut lower_groups = Vec::new();
    let mut upper_groups = Vec::new();
    let mut steps = Vec::new();
    let mut lower_inputs = (0, 0);
    let mut upper_inputs = (0, 0);
    for (k, l) in group.iter().enumerate() {
        let (Ok(lower), Ok(upper), Ok(step)) = (l.attribute("lowerBoundMap"), l.attribute("upperBoundMap"), l.attribute("step")) else {
            return;
        };
        let (Some(lower_map), Some(upper_map)) = (ffi::affine_map_of(lower), ffi::affine_map_of(upper)) else { return };
        // The inner loops' bounds are constants: only the outermost loop's
        // operands reach the new loop.
        if k > 0 && (lower_map.input_count() > 0 || upper_map.input_count() > 0) {
            return;
        }
        if k == 0 {
            lower_inputs = (lower_map.dim_count(), lower_map.symbol_count());
            upper_inputs = (upper_map.dim_count(), upper_map.symbol_count());
        }
        lower_results.extend((0..lower_map.result_count()).filter_map(|r| lower_map.result(r).ok()));
        upper_results.extend((0..upper_map.result_count()).filter_map(|r| upper_map.result(r).ok()));
        lower_groups.push(lower_map.result_count());
        upper_groups.push(upper_map.result_count());
        steps.push(step.to_string().split(':').next().unwrap_or("1").trim().to_string());
    }
    let lower = ffi::affine_map_attribute(melior::ir::AffineMap::new(context, lower_inputs.0, lower_inputs.1, &lower_results));
    let upper = ffi::affine_map_attribute(melior::ir::AffineMap::new(context, upper_inputs.0, upper_inputs.1, &upper_results));
    let Some(old_body) = innermost.region(0).ok().and_then(|r| r.first_block()) else { return };
    let operands: Vec<Value> = (0..op.operand_count()).filter_map(|k| op.operand(k).ok()).collect();
    let body = Block::new(&vec![(Type::index(context), location); group.len()]);
    for (k, l) in group.iter().enumerate() {
        let Some(iv) = l.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.argument(0).ok()) else { return };
        let Ok(new_iv) = body.argument(k) else { return };
        ffi::replace_all_uses(iv.into(), new_iv.into());
    }
    let region = Region::new();
    let body = region.append_block(body);
    let mut next = old_body.first_operation();
    while let Some(inner) = next {
        next = inner.next_in_block();
        // Both loops end in an `affine.yield` without operands: move it all.
        ffi::move_to_end(inner, body);
    }
    let groups = |sizes: &[usize]| {
        let list = sizes.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ");
        Attribute::parse(context, &format!("dense<[{list}]> : tensor<{}xi32>", sizes.len()))
    };
    let (Some(lower_groups), Some(upper_groups)) = (groups(&lower_groups), groups(&upper_groups)) else { return };
    let Some(steps) = Attribute::parse(context, &format!("[{}]", steps.join(", "))) else { return };
    let reductions: Attribute = ArrayAttribute::new(context, &[]).into();
    let parallel = build_operation(
        context,
        location,
        "affine.parallel",
        &operands,
        &[],
        &[
            ("lowerBoundsMap", lower),
            ("lowerBoundsGroups", lower_groups),
            ("upperBoundsMap", upper),
            ("upperBoundsGroups", upper_groups),
            ("steps", steps),
            ("reductions", reductions),
        ],
        vec![region],
    );
    if let Some(block) = op.block() {
        block.insert_operation_before(op, parallel);
        // SAFETY: the loop has no results (chosen loops carry nothing); its body ops, nested chosen
        // loops among them, were moved to the new loop and its induction variable's uses replaced.
        unsafe { ffi::erase(op) };
    }
}
