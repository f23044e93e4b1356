//! `pb-reuse-order`: in an elementwise `linalg.generic` (parallel loops
//! only), a loop that indexes none of the large inputs moves inside the
//! loops of those inputs, just outside the innermost loop: each row of
//! the large inputs is then read once, while in cache, for every value of
//! that loop, instead of the whole input once per value.
//!
//! Why: linalg orders an op's loops as its output's dimensions. A camera
//! pipeline's colour matrix writes `out[b, i, h, w]` from the four planes of
//! the mosaic `raw[b, 2h + dy, 2w + dx]` and `ccm[i, j]`: the output channel
//! `i` is the second loop, so the whole mosaic streams from memory three
//! times (once per output channel); with `i` inside `h` each pair of mosaic
//! rows is read from memory once and from the first-level cache twice more.
//! The same holds for any broadcast along a leading dimension of the output
//! (an image scaled per channel by per-pixel weights shared by the
//! channels). Parallel loops carry no dependence, so any order computes the
//! same values; the outer loops (batch, rows) remain the parallel band.
//!
//! ```mlir
//! // loops (b, i, h, w): raw does not use i
//! linalg.generic {indexing_maps = [(b, i, h, w) -> (b, h, w), (b, i, h, w) -> (i),
//!                                  (b, i, h, w) -> (b, i, h, w)], ...}
//! // becomes loops (b, h, i, w): the same op with its maps renumbered
//! linalg.generic {indexing_maps = [(b, h, i, w) -> (b, h, w), (b, h, i, w) -> (i),
//!                                  (b, h, i, w) -> (b, i, h, w)], ...}
//! ```
//!
//! An input is large when it holds more than `small-bytes` (the cpu
//! pipeline: an eighth of the target's first-level cache, so the small ones
//! stay there beside the rows being streamed). Applies when every map is a
//! projected permutation, shapes are static and the body reads no
//! `linalg.index`; the innermost loop of more than one iteration stays
//! innermost (the vector loop), and loops of one iteration stay where they
//! are.

use crate::linalg_ops::{all_parallel, maps_of, segments};
use melior::ir::{
    attribute::ArrayAttribute,
    operation::{OperationLike, WalkOrder},
    AffineExpr, AffineMap, Attribute, OperationRef, ValueLike,
};
use pb_support::{ffi, ir, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-reuse-order",
    summary: "Move loops that index no large input inside the loops of the large inputs in elementwise generics",
    description: "In each `linalg.generic` whose loops are all parallel, with projected-permutation \
maps, static shapes and no `linalg.index`, the loops (other than the innermost) that no input larger \
than `small-bytes` uses move, in their order, to just outside the innermost loop, when a large input \
exists that they do not index: the large inputs' rows are then read once per row instead of once per \
value of those loops (a camera's colour matrix over output channels).",
    anchor: "func.func",
    options: &[PassOption {
        name: "small-bytes",
        kind: OptionKind::UInt,
        default: "4096",
        help: "Inputs of at most this many bytes are small (re-read from cache on every iteration)",
    }],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(ReuseOrder { small_bytes: options.uint("small-bytes") as i64 })
}

#[derive(Clone)]
struct ReuseOrder {
    small_bytes: i64,
}

impl RustPass for ReuseOrder {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["linalg"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let generics = ffi::collect_ops(root, WalkOrder::PreOrder, |op| ir::is_named(op, "linalg.generic"));
        for generic in generics {
            if all_parallel(generic) {
                self.reorder(generic);
            }
        }
        Ok(())
    }
}

impl ReuseOrder {
    fn reorder(&self, generic: OperationRef) {
        let Some((inputs, _)) = segments(generic) else { return };
        let Some(maps) = maps_of(generic) else { return };
        let Some(loops) = maps.first().map(|m| m.dim_count()) else { return };
        if maps.len() != generic.operand_count() || loops < 3 || maps.iter().any(|m| !m.is_projected_permutation()) {
            return;
        }
        let reads_index = !ffi::collect_ops(generic, WalkOrder::PreOrder, |op| ir::is_named(op, "linalg.index")).is_empty();
        if reads_index {
            return;
        }
        // The loops each large input uses, and each loop's extent.
        let mut large: Vec<Vec<usize>> = Vec::new();
        let mut extents = vec![1; loops];
        for (k, map) in maps.iter().enumerate() {
            let Some(operand) = ffi::operand(generic, k) else { return };
            let Some(shape) = pb_dialects::type_utils::static_shape(operand.r#type()) else { return };
            let used: Vec<usize> = (0..map.result_count()).filter_map(|r| map.result(r).ok()).map(|e| e.dim_position()).collect();
            for (r, d) in used.iter().enumerate() {
                extents[*d] = shape.get(r).copied().unwrap_or(1);
            }
            let element = pb_dialects::type_utils::shape_and_element(operand.r#type()).1;
            let Some(bits) = ffi::int_or_float_width(element) else { return };
            if k < inputs && shape.iter().product::<i64>() * (bits as i64 + 7) / 8 > self.small_bytes {
                large.push(used);
            }
        }
        // The vector loop: the innermost loop of more than one iteration
        // (unit loops after it go with it).
        let Some(innermost) = (0..loops).rev().find(|d| extents[*d] > 1) else { return };
        let movable: Vec<usize> = (0..innermost)
            .filter(|d| extents[*d] > 1 && !large.is_empty() && large.iter().all(|used| !used.contains(d)))
            .collect();
        if movable.is_empty() {
            return;
        }
        // New order: the other loops, then the movable ones, then the vector loop and what follows it.
        let order: Vec<usize> =
            (0..innermost).filter(|d| !movable.contains(d)).chain(movable.iter().copied()).chain(innermost..loops).collect();
        if order.iter().enumerate().all(|(position, d)| position == *d) {
            return;
        }
        ffi::with_context(generic, |context| {
            let position = |d: usize| order.iter().position(|o| *o == d).expect("every loop placed");
            let renumbered: Vec<Attribute> = maps
                .iter()
                .map(|map| {
                    let results: Vec<AffineExpr> = (0..map.result_count())
                        .map(|r| AffineExpr::dim(context, position(map.result(r).expect("result").dim_position())))
                        .collect();
                    ffi::affine_map_attribute(AffineMap::new(context, loops, 0, &results))
                })
                .collect();
            ffi::set_attribute(generic, "indexing_maps", ArrayAttribute::new(context, &renumbered).into());
        });
    }
}
