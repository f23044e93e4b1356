//! `pb-parallel-grain`: run small parallel loops sequentially.
//!
//! Starting an OpenMP parallel region costs microseconds (waking the other
//! threads, the barrier at the end): more than the whole loop for small
//! tensors (an elementwise op on a few thousand elements, a bias add).
//! `affine-parallelize` has no notion of work, so this pass estimates the
//! work of each `affine.parallel` — iterations x ops, through nested loops
//! with constant trip counts — and turns the loop back into an `affine.for`
//! when it is below `min-work`.
//!
//! Only loops with constant single bounds in every dimension and no
//! reductions are converted (a multi-dimensional one into nested loops, the
//! first dimension outermost), and never one whose body allocates on the stack (tile
//! buffers of `pb-fuse`/`pb-register-tile`: as a sequential loop the
//! allocation would take new stack space every iteration).
//!
//! ```mlir
//! affine.parallel (%i) = (0) to (8) { ... 2 ops ... }
//! // becomes (16 units of work < min-work)
//! affine.for %i = 0 to 8 { ... }
//! ```

use crate::affine_access::constant_map;
use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationLike, WalkOrder},
        Block, OperationRef, Region, RegionLike, Type, Value,
    },
    Context,
};
use pb_support::{ffi, ir::is_named, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-parallel-grain",
    summary: "Turn parallel loops with too little work for a thread fork back into sequential loops",
    description: "Estimates the work of each affine.parallel with constant bounds (iterations x ops \
through nested constant-trip loops) and rewrites it as affine.for loops when below `min-work`, so \
small ops do not pay an OpenMP fork/join. Keeps loops whose body allocates on the stack.",
    anchor: "func.func",
    options: &[PassOption {
        name: "min-work",
        kind: OptionKind::UInt,
        default: "32768",
        help: "Least estimated work (loop iterations x ops) worth a parallel region",
    }],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(ParallelGrain { min_work: options.uint("min-work") as f64 })
}

#[derive(Clone)]
struct ParallelGrain {
    min_work: f64,
}

impl RustPass for ParallelGrain {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["affine"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let loops = ffi::collect_ops(func, WalkOrder::PreOrder, |op| is_named(op, "affine.parallel"));
        for op in loops {
            let Some(dims) = simple_bounds(op) else { continue };
            let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else { continue };
            let iterations: f64 = dims.iter().map(|(lower, upper, step)| ((upper - lower + step - 1) / step).max(0) as f64).product();
            if allocates(body) || iterations * block_work(body) >= self.min_work {
                continue;
            }
            ffi::with_context(op, |context| to_for(context, op, &dims));
        }
        Ok(())
    }
}

/// Constant lower and upper bound and step of each dimension of a
/// parallel loop without reductions.
fn simple_bounds(op: OperationRef) -> Option<Vec<(i64, i64, i64)>> {
    if op.result_count() != 0 || op.operand_count() != 0 {
        return None;
    }
    let constants = |name: &str| -> Option<Vec<i64>> {
        let map = ffi::affine_map_of(op.attribute(name).ok()?)?;
        if map.input_count() != 0 {
            return None;
        }
        (0..map.result_count()).map(|r| map.result(r).ok().and_then(|e| e.to_string().trim().parse().ok())).collect()
    };
    let single_groups = |name: &str| op.attribute(name).ok().is_some_and(|a| {
        let text = a.to_string();
        let inner = text.trim_start_matches("dense<").split('>').next().unwrap_or("");
        inner.trim_matches(|c| c == '[' || c == ']').split(',').all(|n| n.trim() == "1")
    });
    if !single_groups("lowerBoundsGroups") || !single_groups("upperBoundsGroups") {
        return None;
    }
    let steps = op.attribute("steps").ok()?.to_string();
    let steps: Vec<i64> = steps.trim_matches(|c| c == '[' || c == ']').split(',').map(|n| n.trim().parse().ok()).collect::<Option<_>>()?;
    let (lower, upper) = (constants("lowerBoundsMap")?, constants("upperBoundsMap")?);
    (lower.len() == steps.len() && upper.len() == steps.len())
        .then(|| (0..steps.len()).map(|d| (lower[d], upper[d], steps[d])).collect())
}

fn allocates(block: melior::ir::BlockRef) -> bool {
    let mut next = block.first_operation();
    while let Some(op) = next {
        if is_named(op, "memref.alloca") || is_named(op, "memref.alloca_scope") {
            return true;
        }
        next = op.next_in_block();
    }
    false
}

/// Ops in the block, loops counted as trip count x their body's work
/// (non-constant trips count as 64).
fn block_work(block: melior::ir::BlockRef) -> f64 {
    let mut work = 0.0;
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if is_named(op, "affine.for") {
            let lower = crate::affine_access::constant_bound(op, "lowerBoundMap");
            let upper = crate::affine_access::constant_bound(op, "upperBoundMap");
            let trip = match (lower, upper) {
                (Some(l), Some(u)) => (u - l).max(0) as f64,
                _ => 64.0,
            };
            let inner = op.region(0).ok().and_then(|r| r.first_block()).map_or(1.0, block_work);
            work += trip * inner;
        } else if op.region_count() > 0 {
            for k in 0..op.region_count() {
                if let Some(b) = op.region(k).ok().and_then(|r| r.first_block()) {
                    work += block_work(b);
                }
            }
        } else {
            work += 1.0;
        }
    }
    work
}

/// Replaces the parallel loop by `affine.for` loops with the same bounds
/// (one per dimension, the first outermost) and body.
fn to_for<'c>(context: &'c Context, op: OperationRef<'c, '_>, dims: &[(i64, i64, i64)]) {
    let location = op.location();
    let Some(old_body) = op.region(0).ok().and_then(|r| r.first_block()) else { return };
    // Innermost first: each loop's region holds the next one out.
    let mut inner: Option<melior::ir::Operation<'c>> = None;
    for (d, (lower, upper, step)) in dims.iter().enumerate().rev() {
        let body = Block::new(&[(Type::index(context), location)]);
        let Ok(old_iv) = old_body.argument(d) else { return };
        let Ok(new_iv) = body.argument(0) else { return };
        let new_iv: Value = new_iv.into();
        ffi::replace_all_uses(old_iv.into(), new_iv);
        let region = Region::new();
        let body = region.append_block(body);
        match inner.take() {
            // The parallel body's terminator is an affine.yield too: move it all.
            None => {
                let mut next = old_body.first_operation();
                while let Some(op) = next {
                    next = op.next_in_block();
                    ffi::move_to_end(op, body);
                }
            }
            Some(loop_op) => {
                body.append_operation(loop_op);
                body.append_operation(
                    melior::ir::operation::OperationBuilder::new("affine.yield", location).build().expect("affine.yield"),
                );
            }
        }
        let bounds = (constant_map(context, *lower), constant_map(context, *upper));
        let Ok(new_loop) = pb_support::builder::affine_for(context, location, bounds, &[], *step, region) else { return };
        inner = Some(new_loop);
    }
    if let (Some(block), Some(new_loop)) = (op.block(), inner) {
        block.insert_operation_before(op, new_loop);
        // SAFETY: the loop has no results (`simple_bounds`); its body ops, nested loops of the list
        // among them, were moved to the new loops and its induction variables' uses replaced, so only
        // an empty block goes with it.
        unsafe { ffi::erase(op) };
    }
}
