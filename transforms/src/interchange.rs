//! `pb-interchange`: move a dependence-free loop with contiguous accesses to
//! the innermost position of a perfect loop band, so the innermost loop can
//! be vectorized.
//!
//! Linalg lowers contractions with their reduction loops innermost: matmul
//! becomes `i, j, k` with `C[i, j] += A[i, k] * B[k, j]`, whose innermost
//! loop `k` stores to one address (a reduction: not vectorizable as is).
//! Moving `j` innermost (`i, k, j`) makes every access contiguous or uniform
//! in the innermost loop; convolutions likewise get their output-width loop
//! innermost. This is the loop order a polyhedral scheduler would pick for
//! these nests; the full scheduler (ISL) will subsume this pass.
//!
//! A loop `p` of a perfect band (constant bounds, step 1, a body of affine
//! loads/stores and arith/math ops only) is moved innermost when:
//! - every store's last index is `p + e`, with `e` free of the band's loops
//!   inside `p`, and its other indices free of `p`: distinct iterations of
//!   `p` write distinct elements;
//! - every access to a stored memref has the store's address: an iteration
//!   of `p` reads only what it writes itself;
//! - no stored memref may alias another accessed one (no views);
//! - every load is contiguous, of stride 2 or uniform in `p` (a stride-2
//!   convolution's input row: `pb-vectorize` gathers it), and `p` runs at least
//!   `min-trip` times (worth a vector).
//!
//! Then `p` carries no dependence, so every dependence has distance 0 along
//! `p` and moving `p` anywhere keeps them all: the rotation is legal. The
//! deepest such `p` is chosen; bands whose innermost loop is already
//! contiguous are left alone.

use crate::affine_access::{
    access_kind, constant_bound, constant_map, elementwise, is_named, is_view, same_address, same_value, Access,
};
use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationLike, WalkOrder},
        OperationRef, RegionLike, Value,
    },
    Context,
};
use pb_support::{ffi, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-interchange",
    summary: "Move a dependence-free loop with contiguous accesses innermost in perfect bands (matmul i,j,k -> i,k,j)",
    description: "In each perfect band of constant-bound affine loops whose innermost loop is not \
contiguous (e.g. a reduction), rotates the deepest loop that carries no dependence and along which \
every access is contiguous or uniform to the innermost position, so `pb-vectorize` can vectorize \
it. Refuses bands with views, non-elementwise ops, or stores not injective in the moved loop.",
    anchor: "func.func",
    options: &[PassOption {
        name: "min-trip",
        kind: OptionKind::UInt,
        default: "8",
        help: "Only move loops that run at least this many times (the cpu pipeline passes the vector width)",
    }],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(Interchange { min_trip: options.uint("min-trip") as i64 })
}

#[derive(Clone)]
struct Interchange {
    min_trip: i64,
}

impl RustPass for Interchange {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &[]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let innermost = ffi::collect_ops(root, WalkOrder::PostOrder, |op| {
            is_named(op, "affine.for") && body_ops(op).iter().all(|inner| inner.region_count() == 0)
        });
        for loop_op in innermost {
            let band = perfect_band(loop_op);
            if let Some(position) = choose(&band, self.min_trip) {
                ffi::with_context(loop_op, |context| rotate(context, &band, position));
            }
        }
        Ok(())
    }
}

/// The ops of a loop's body, without the terminator.
pub(crate) fn body_ops<'c, 'a>(loop_op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    let Some(block) = loop_op.region(0).ok().and_then(|r| r.first_block()) else { return ops };
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if !is_named(op, "affine.yield") {
            ops.push(op);
        }
    }
    ops
}

pub(crate) fn induction_variable<'c, 'a>(loop_op: OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    let block = loop_op.region(0).ok()?.first_block()?;
    block.argument(0).ok().map(Into::into)
}

/// The perfect band ending at `innermost`, outermost loop first: parents
/// whose body is exactly the next loop.
pub(crate) fn perfect_band<'c, 'a>(innermost: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut band = vec![innermost];
    let mut current = innermost;
    while let Some(parent) = current.parent_operation() {
        let parent_ops = body_ops(parent);
        if !is_named(parent, "affine.for") || parent_ops.len() != 1 || parent_ops[0] != current {
            break;
        }
        band.insert(0, parent);
        current = parent;
    }
    band
}

pub(crate) fn simple_loop(loop_op: OperationRef) -> bool {
    let step = loop_op.attribute("step").ok().and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok());
    loop_op.operand_count() == 0
        && loop_op.result_count() == 0
        && step.is_some_and(|s| s.value() == 1)
        && constant_bound(loop_op, "lowerBoundMap").is_some()
        && constant_bound(loop_op, "upperBoundMap").is_some()
}

pub(crate) fn trip_count(loop_op: OperationRef) -> i64 {
    constant_bound(loop_op, "upperBoundMap").unwrap_or(0) - constant_bound(loop_op, "lowerBoundMap").unwrap_or(0)
}

/// The band position of the loop to move innermost, if any.
fn choose(band: &[OperationRef], min_trip: i64) -> Option<usize> {
    if band.len() < 2 || !band.iter().all(|l| simple_loop(*l)) {
        return None;
    }
    let innermost = *band.last()?;
    let body = innermost.region(0).ok()?.first_block()?;
    let ops = body_ops(innermost);
    let allowed = |op: &OperationRef| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or("");
        name == "affine.load"
            || name == "affine.store"
            || ((name.starts_with("arith.") || name.starts_with("math.")) && elementwise(*op))
    };
    if !ops.iter().all(allowed) {
        return None;
    }
    let loads: Vec<_> = ops.iter().copied().filter(|op| is_named(*op, "affine.load")).collect();
    let stores: Vec<_> = ops.iter().copied().filter(|op| is_named(*op, "affine.store")).collect();
    if stores.is_empty() {
        return None;
    }
    let innermost_iv = induction_variable(innermost)?;
    if stores.iter().all(|s| access_kind(*s, 2, innermost_iv, body) == Some(Access::Contiguous)) {
        return None; // already vectorizable where it is
    }
    if !stored_memrefs_are_private(&stores, &loads) {
        return None;
    }
    let ivs: Vec<Value> = band.iter().filter_map(|l| induction_variable(*l)).collect();
    (0..band.len() - 1).rev().find(|&position| {
        let iv = ivs[position];
        trip_count(band[position]) >= min_trip
            && stores.iter().all(|s| {
                access_kind(*s, 2, iv, body) == Some(Access::Contiguous) && last_index_free_of(*s, &ivs[position + 1..])
            })
            && loads.iter().all(|l| access_kind(*l, 1, iv, body).is_some())
    })
}

/// Every access to a stored memref has that store's address, and no stored
/// memref may alias another accessed memref.
fn stored_memrefs_are_private(stores: &[OperationRef], loads: &[OperationRef]) -> bool {
    let accesses: Vec<(Value, OperationRef)> = stores
        .iter()
        .filter_map(|s| s.operand(1).ok().map(|m| (m, *s)))
        .chain(loads.iter().filter_map(|l| l.operand(0).ok().map(|m| (m, *l))))
        .collect();
    stores.iter().all(|store| {
        let Ok(memref) = store.operand(1) else { return false };
        accesses.iter().all(|(other, access)| {
            if same_value(memref, *other) {
                same_address(*store, *access)
            } else {
                !is_view(memref) && !is_view(*other)
            }
        })
    })
}

/// Is the last index of a store free of all of `ivs`?
fn last_index_free_of(store: OperationRef, ivs: &[Value]) -> bool {
    let Some(map) = store.attribute("map").ok().and_then(ffi::affine_map_of) else { return false };
    let Ok(last) = map.result(map.result_count().saturating_sub(1)) else { return false };
    let operands: Vec<Value> = store.operands().skip(2).collect();
    operands.iter().enumerate().all(|(position, operand)| {
        !ivs.iter().any(|iv| same_value(*iv, *operand))
            || position >= map.dim_count()
            || !last.is_function_of_dim(position)
    })
}

/// Moves the loop at `position` to the end of the band: each loop from
/// `position` on takes the bounds of the next one, the last takes the moved
/// loop's, and uses of the induction variables follow their bounds.
fn rotate<'c>(context: &'c Context, band: &[OperationRef<'c, '_>], position: usize) {
    let moved = &band[position..];
    let bounds: Vec<(i64, i64)> = moved
        .iter()
        .map(|l| (constant_bound(*l, "lowerBoundMap").unwrap_or(0), constant_bound(*l, "upperBoundMap").unwrap_or(0)))
        .collect();
    let ivs: Vec<Value> = moved.iter().filter_map(|l| induction_variable(*l)).collect();
    let count = moved.len();
    // Loop k now iterates what loop k+1 did (cyclically): the value that was
    // the induction variable of loop k+1 is now loop k's.
    let new_iv_of = |old: Value| -> Option<Value> {
        let index = ivs.iter().position(|iv| same_value(*iv, old))?;
        Some(ivs[(index + count - 1) % count])
    };
    let innermost = *moved.last().expect("band is not empty");
    for op in body_ops(innermost) {
        let operands: Vec<Value> = op.operands().collect();
        for (i, operand) in operands.into_iter().enumerate() {
            if let Some(new) = new_iv_of(operand) {
                ffi::set_operand(op, i, new);
            }
        }
    }
    for (k, loop_op) in moved.iter().enumerate() {
        let (lower, upper) = bounds[(k + 1) % count];
        ffi::set_attribute(*loop_op, "lowerBoundMap", constant_map(context, lower));
        ffi::set_attribute(*loop_op, "upperBoundMap", constant_map(context, upper));
    }
}
