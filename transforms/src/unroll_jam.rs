//! `pb-unroll-jam`: fully unroll a short loop of a perfect band into the
//! innermost body ("unroll and jam") when most of that body does not depend
//! on it, so that work shared by its iterations is done once.
//!
//! Why: an elementwise op over a few channels whose per-pixel work is the
//! same for each channel — a bilateral grid's slicing, which computes the
//! trilinear weights and the eight corner indices of each pixel, then reads
//! the grid's `values` and `counts` channels at those corners; an RGB
//! image resampled at computed positions — lowers to `c, h, w` loops with
//! everything inside `w`. With `c` outermost each channel recomputes the
//! shared work (and the two threads each took one channel). Jammed, the
//! body holds one copy per channel with the channel a constant; CSE (in the
//! `lower` stage) keeps one copy of every op that does not depend on it, the
//! vector loop stays along `w`, and the parallel loop becomes `h`.
//!
//! Applies to a loop of 2 to [`MAX_TRIPS`] iterations (constant bounds,
//! step 1) that is not the innermost of a perfect band whose innermost body
//! holds only affine loads and stores, gathers (`memref.load`) and scalar
//! `arith`/`math` ops, when:
//! - the loop carries no dependence: every store has an index that is the
//!   loop's induction variable itself (distinct iterations write distinct
//!   elements), every other access to a stored memref has that store's
//!   address, no gather reads a stored memref and no stored memref is a
//!   view (nothing may alias it); then every dependence has distance 0
//!   along the loop, which may move anywhere, innermost included;
//! - at least half of the body's computing ops (not loads or stores), and at
//!   least [`MIN_SHARED_OPS`], do not depend on its induction variable.
//!
//! ```mlir
//! affine.for %c = 0 to 2 {
//!   affine.for %h = 0 to 64 {
//!     affine.for %w = 0 to 64 {
//!       %i = ... (index work free of %c)
//!       %v = memref.load %grid[%c, %i] : memref<2x9xf32>
//!       affine.store %v, %out[%c, %h, %w] : memref<2x64x64xf32>
//! // becomes
//! affine.for %h = 0 to 64 {
//!   affine.for %w = 0 to 64 {
//!     %i = ...
//!     %v = memref.load %grid[%c0, %i] ...   affine.store %v, %out[%c0, %h, %w]
//!     %i_1 = ... (the same ops again: CSE merges them)
//!     %v_1 = memref.load %grid[%c1, %i_1] ...   affine.store %v_1, %out[%c1, %h, %w]
//! ```

use std::collections::{HashMap, HashSet};

use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, WalkOrder},
    OperationRef, RegionLike, Value, ValueLike,
};
use pb_support::{builder, ffi, ir::is_named, PassFailed, PassId, PassInfo, RustPass};

use crate::affine_access::{is_view, same_address, same_value};
use pb_polyhedral::scop::view_root;
use crate::interchange::{body_ops, induction_variable, perfect_band, simple_loop, trip_count};

static ID: PassId = PassId::new();

/// The most iterations of a loop unrolled into the body (channels of an
/// image, values and weights of a grid).
const MAX_TRIPS: i64 = 4;
/// The fewest ops shared by the iterations worth a jam.
const MIN_SHARED_OPS: usize = 8;

pub static INFO: PassInfo = PassInfo {
    argument: "pb-unroll-jam",
    summary: "Unroll a loop of 2-4 iterations of a perfect band into the innermost body when most of the body is shared by its iterations",
    description: "For a loop of 2 to 4 iterations (constant bounds, step 1) in a perfect band of affine loops \
whose innermost body holds affine loads/stores, gathers (memref.load) and scalar arith/math ops only: when the \
loop carries no dependence (each store indexed by its induction variable directly, other accesses to stored \
memrefs at the store's address, no gather of a stored memref, no stored view) and at least half of the body's \
computing ops (and at least 8) do not depend on it, the body is repeated once per iteration with the induction \
variable a constant and the loop removed. CSE then computes the shared work once per point (a bilateral grid's \
weights and corner indices for both of its channels).",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<UnrollJam>,
};

#[derive(Clone, Default)]
struct UnrollJam;

impl RustPass for UnrollJam {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["arith"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let innermost = ffi::collect_ops(root, WalkOrder::PostOrder, |op| {
            is_named(op, "affine.for") && body_ops(op).iter().all(|inner| inner.region_count() == 0)
        });
        for loop_op in innermost {
            let band = perfect_band(loop_op);
            if let Some(position) = choose(&band) {
                jam(&band, position);
            }
        }
        Ok(())
    }
}

/// The band position of the loop to unroll into the body, if any.
fn choose(band: &[OperationRef]) -> Option<usize> {
    let innermost = *band.last()?;
    let ops = body_ops(innermost);
    let allowed = |op: &OperationRef| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or("");
        ["affine.load", "affine.store", "memref.load", "affine.apply"].contains(&name)
            || ((name.starts_with("arith.") || name.starts_with("math.")) && op.region_count() == 0)
    };
    if !ops.iter().all(allowed) {
        return None;
    }
    let stores: Vec<OperationRef> = ops.iter().copied().filter(|op| is_named(*op, "affine.store")).collect();
    if stores.is_empty() || !stored_memrefs_private(&ops, &stores) {
        return None;
    }
    (0..band.len() - 1).find(|&position| {
        let loop_op = band[position];
        let trips = trip_count(loop_op);
        simple_loop(loop_op)
            && (2..=MAX_TRIPS).contains(&trips)
            && induction_variable(loop_op).is_some_and(|iv| {
                stores.iter().all(|store| indexed_by(*store, iv)) && mostly_shared(&ops, iv)
            })
    })
}

/// Every access to a stored memref (a load, a gather, another store) is at
/// that store's address and by an affine op; no stored memref is a view.
fn stored_memrefs_private(ops: &[OperationRef], stores: &[OperationRef]) -> bool {
    stores.iter().all(|store| {
        let Some(memref) = ffi::operand(*store, 1) else { return false };
        !is_view(memref)
            && ops.iter().all(|op| {
                let accessed = match op.name().as_string_ref().as_str().unwrap_or("") {
                    "affine.store" => ffi::operand(*op, 1),
                    "affine.load" | "memref.load" => ffi::operand(*op, 0),
                    _ => return true,
                };
                match accessed {
                    Some(other) if same_value(other, memref) => !is_named(*op, "memref.load") && same_address(*store, *op),
                    // A view of the stored buffer would read or write it
                    // elsewhere.
                    Some(other) => view_root(other) != view_root(memref),
                    None => false,
                }
            })
    })
}

/// Does one index of `store` equal the induction variable `iv` itself?
fn indexed_by(store: OperationRef, iv: Value) -> bool {
    let Some(map) = store.attribute("map").ok().and_then(ffi::affine_map_of) else { return false };
    let operands: Vec<Value> = store.operands().skip(2).collect();
    let Some(position) = operands.iter().position(|o| same_value(*o, iv)) else { return false };
    (0..map.result_count()).any(|k| map.result(k).is_ok_and(|e| e.is_dim() && e.dim_position() == position))
}

/// At least half of the body's computing ops (and [`MIN_SHARED_OPS`]) do
/// not depend on `iv`.
fn mostly_shared(ops: &[OperationRef], iv: Value) -> bool {
    let mut dependent: HashSet<usize> = HashSet::new();
    let key = |v: Value| v.to_raw().ptr as usize;
    let (mut computing, mut shared) = (0usize, 0usize);
    for op in ops {
        let depends = op.operands().any(|v| same_value(v, iv) || dependent.contains(&key(v)));
        if depends {
            dependent.extend(op.results().map(|r| key(r.into())));
        }
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or("").to_string();
        if name.starts_with("arith.") && name != "arith.constant" || name.starts_with("math.") {
            computing += 1;
            shared += usize::from(!depends);
        }
    }
    shared >= MIN_SHARED_OPS && 2 * shared >= computing
}

/// Repeats the innermost body once per iteration of `band[position]` with
/// its induction variable a constant, then removes that loop.
fn jam(band: &[OperationRef], position: usize) {
    let loop_op = band[position];
    let innermost = *band.last().expect("a band has loops");
    let (Some(iv), Some(body)) = (induction_variable(loop_op), innermost.region(0).ok().and_then(|r| r.first_block()))
    else {
        return;
    };
    let Some(terminator) = body.terminator() else { return };
    let lower = crate::affine_access::constant_bound(loop_op, "lowerBoundMap").unwrap_or(0);
    let ops = body_ops(innermost);
    let location = loop_op.location();
    ffi::with_context(loop_op, |context| {
        for trip in 0..trip_count(loop_op) {
            let constant = body.insert_operation_before(terminator, builder::index_constant_operation(context, location, lower + trip));
            let Ok(value) = constant.result(0).map(Value::from) else { return };
            let mut copies: HashMap<usize, Value> = HashMap::new();
            for op in &ops {
                let clone = body.insert_operation_before(terminator, ffi::clone_operation(*op));
                for (index, operand) in op.operands().enumerate() {
                    if same_value(operand, iv) {
                        ffi::set_operand(clone, index, value);
                    } else if let Some(copy) = copies.get(&(operand.to_raw().ptr as usize)) {
                        ffi::set_operand(clone, index, *copy);
                    }
                }
                for (original, copy) in op.results().zip(clone.results()) {
                    copies.insert(Value::from(original).to_raw().ptr as usize, copy.into());
                }
            }
        }
    });
    for op in ops.into_iter().rev() {
        // SAFETY: the original body: its results are used only by ops of
        // the body (it is innermost and holds no region), erased after them.
        unsafe { ffi::erase(op) };
    }
    // The loop's body is the next loop of the band: it takes its place.
    ffi::move_before(band[position + 1], loop_op);
    // SAFETY: the loop is now empty but for its terminator; its induction
    // variable has no use left (the band's inner bounds are constant).
    unsafe { ffi::erase(loop_op) };
}
