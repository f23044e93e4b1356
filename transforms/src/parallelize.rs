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
Nests the polyhedral model cannot read stay sequential.",
    anchor: "func.func",
    options: &[PassOption { name: "report", kind: OptionKind::Bool, default: "false", help: "Explain each decision on stderr" }],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(Parallelize { report: options.bool("report") })
}

#[derive(Clone)]
struct Parallelize {
    report: bool,
}

impl RustPass for Parallelize {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["affine"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let mut nests = outermost_loops(func);
        let mut chosen = Vec::new();
        while let Some(nest) = nests.pop() {
            match parallel_loops(nest) {
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
        for op in chosen {
            ffi::with_context(op, |context| to_parallel(context, op));
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

/// The outermost loops of `nest` that carry no dependence.
fn parallel_loops<'c, 'a>(nest: OperationRef<'c, 'a>) -> Result<Vec<OperationRef<'c, 'a>>, String> {
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
    let mut chosen = Vec::new();
    let mut pending = vec![(nest, 0usize)];
    while let Some((op, level)) = pending.pop() {
        // The statements inside `op` give its place in the schedule.
        let inside = scop.statements.iter().find(|s| s.loops.get(level) == Some(&op));
        let Some(statement) = inside else { continue };
        if times_by_level[level].is_none() {
            let kept: Vec<usize> = (0..scop.arrays.len()).filter(|a| allocated_under[*a] <= level).collect();
            times_by_level[level] = Some(dependence_times(&scop, &model, &kept)?);
        }
        let times = times_by_level[level].as_ref().expect("computed above");
        let carries = op.result_count() > 0 || carried(&model, times, &params, depth, &statement.beta[..=level])?;
        if !carries {
            chosen.push(op);
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

/// Replaces `affine.for` `op` (no iter_args) by an `affine.parallel` with
/// its bounds (each a max/min group of its map's results) and step.
fn to_parallel<'c>(context: &'c Context, op: OperationRef<'c, '_>) {
    let location = op.location();
    let (Ok(lower), Ok(upper), Ok(step)) = (op.attribute("lowerBoundMap"), op.attribute("upperBoundMap"), op.attribute("step")) else {
        return;
    };
    let (Some(lower_map), Some(upper_map)) = (ffi::affine_map_of(lower), ffi::affine_map_of(upper)) else { return };
    let Some(old_body) = op.region(0).ok().and_then(|r| r.first_block()) else { return };
    let operands: Vec<Value> = (0..op.operand_count()).filter_map(|k| op.operand(k).ok()).collect();
    let body = Block::new(&[(Type::index(context), location)]);
    let (Ok(old_iv), Ok(new_iv)) = (old_body.argument(0), body.argument(0)) else { return };
    ffi::replace_all_uses(old_iv.into(), new_iv.into());
    let region = Region::new();
    let body = region.append_block(body);
    let mut next = old_body.first_operation();
    while let Some(inner) = next {
        next = inner.next_in_block();
        // Both loops end in an `affine.yield` without operands: move it all.
        ffi::move_to_end(inner, body);
    }
    let group = |n: usize| Attribute::parse(context, &format!("dense<{n}> : tensor<1xi32>"));
    let (Some(lower_groups), Some(upper_groups)) = (group(lower_map.result_count()), group(upper_map.result_count())) else { return };
    let Some(steps) = Attribute::parse(context, &format!("[{}]", step.to_string().split(':').next().unwrap_or("1").trim())) else { return };
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
