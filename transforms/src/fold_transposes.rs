//! `pb-fold-transposes`: a `linalg.transpose` read by a `linalg.generic` is
//! folded into the generic's indexing map for that operand: the generic
//! reads the transpose's input directly, permuted. The transpose goes
//! away once nothing else reads it.
//!
//! Why: a transpose is a copy of the whole tensor, a kernel of its own that
//! writes the tensor and has the next kernel read it back. PyTorch writes
//! `A.t() @ y` (and `X.T @ r` in every least-squares step) as a transpose
//! feeding a multiply-and-sum: for A of 4000x4000, the transpose was three
//! quarters of the time of `A^T (A x)`. Read through the permuted map, the
//! reduction becomes a nest the affine stage schedules like any other
//! (there: rows of A streamed, the output's columns as vector lanes).
//!
//! ```mlir
//! %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
//! %s = linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d1), (d0, d1) -> (d0)],
//!                      iterator_types = ["parallel", "reduction"]} ins(%t, %y ...) outs(...)
//! // becomes
//! %s = linalg.generic {indexing_maps = [(d0, d1) -> (d1, d0), (d0, d1) -> (d1), (d0, d1) -> (d0)], ...}
//!        ins(%a, %y ...) outs(...)
//! ```
//!
//! Where: into generics with a reduction loop that read each element of the
//! operand once (a matrix-vector product, a sum: the affine stage chooses
//! their loop order from all accesses; a contraction that reuses the
//! operand is left to the register tiler, which packs its operands in the
//! layout it needs), and into all-parallel generics only
//! when the read keeps the loop of the output's last (contiguous) index as
//! its own last index, so the loop the vectorizer takes stays contiguous on
//! both sides (a head permute `[0, 2, 1, 3]` before a scale). Elsewhere
//! an elementwise op would read the transposed operand a column at a time;
//! the transpose stays a copy, blocked through registers by
//! `pb-transpose-tile`. Transposes read as a generic's output (`outs`) or
//! by other ops (matmuls pack their operands anyway) are left as they are.

use melior::{
    ir::{
        attribute::ArrayAttribute,
        operation::{OperationLike, WalkOrder},
        r#type::RankedTensorType,
        AffineMap, Attribute, OperationRef, ValueLike,
    },
    Context,
};
use pb_support::{ffi, ir::is_named, PassFailed, PassId, PassInfo, RustPass};

use crate::linalg_ops::{all_parallel, maps_of, named_maps, segments};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-fold-transposes",
    summary: "Fold transposes into the indexing maps of the generics that read them",
    description: "A linalg.transpose on tensors read as an input of a linalg.generic is replaced, in that \
generic, by the transpose's input read through the permuted indexing map: into generics with a reduction \
loop that read each element once (not contractions that reuse it), and into all-parallel generics whose read keeps the output's contiguous loop as its last index. The \
transpose is erased when nothing else reads it: no copy of the whole tensor, no second pass over it.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<FoldTransposes>,
};

#[derive(Clone, Default)]
struct FoldTransposes;

impl RustPass for FoldTransposes {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["linalg"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let transposes = ffi::collect_ops(root, WalkOrder::PreOrder, |op| is_named(op, "linalg.transpose"));
        for transpose in transposes {
            ffi::with_context(transpose, |context| fold(context, transpose));
        }
        Ok(())
    }
}

/// Whether `generic` may read through `new` instead of a transposed copy.
fn worth_folding<'c>(generic: OperationRef, maps: &[AffineMap<'c>], new: AffineMap<'c>, outputs_from: usize) -> bool {
    if !all_parallel(generic) {
        // A reduction reading each element once (a matrix-vector product,
        // a sum): its loop order is free to follow the operand. Where the
        // operand is reused (a contraction with a matmul's reuse), the
        // register tiler packs it anyway, in the layout it needs.
        return new.is_permutation();
    }
    // The output's contiguous loop must stay the read's contiguous one.
    fn last<'c>(map: &AffineMap<'c>) -> Option<melior::ir::AffineExpr<'c>> {
        map.result_count().checked_sub(1).and_then(|k| map.result(k).ok())
    }
    match (maps.get(outputs_from).and_then(last), last(&new)) {
        (Some(out), Some(read)) => out == read,
        _ => false,
    }
}

fn fold<'c>(context: &'c Context, transpose: OperationRef<'c, '_>) {
    let (Some(input), Ok(result)) = (ffi::operand(transpose, 0), transpose.result(0)) else { return };
    if RankedTensorType::try_from(result.r#type()).is_err() {
        return;
    }
    // The transpose's read of its input, over its own loops (one per
    // result dimension): composed with a reader's map of the result, the
    // reader's map of the input.
    let Some(read) = named_maps(context, transpose, "linalg.transpose").and_then(|(maps, _)| maps.first().copied()) else { return };
    for (user, index) in ffi::uses(result.into()) {
        if !is_named(user, "linalg.generic") {
            continue;
        }
        let (Some((inputs, _)), Some(maps)) = (segments(user), maps_of(user)) else { continue };
        if index >= inputs || maps.len() != user.operand_count() {
            continue;
        }
        if maps[index].result_count() != read.dim_count() {
            continue;
        }
        let new = ffi::compose_map(context, read, maps[index]);
        if !worth_folding(user, &maps, new, inputs) {
            continue;
        }
        let mut attributes: Vec<Attribute> = maps.iter().map(|m| ffi::affine_map_attribute(*m)).collect();
        attributes[index] = ffi::affine_map_attribute(new);
        ffi::set_attribute(user, "indexing_maps", ArrayAttribute::new(context, &attributes).into());
        ffi::set_operand(user, index, input);
    }
    if !ffi::has_uses(result) {
        // SAFETY: the transpose's result has no uses left; it has no
        // regions and the pass's list holds no other handle to it.
        unsafe { ffi::erase(transpose) };
    }
}
