//! `pb-concat-prefixes`: concatenations that extend one another are built
//! in one buffer, each a prefix of it.
//!
//! Why: a network that keeps concatenating onto what it has (DenseNet's
//! dense blocks, `torch.cat(features, 1)` after every layer; a growing
//! sequence of outputs) holds concatenations whose operand lists are
//! prefixes of one another: `c1 = cat(x0, x1)`, `c2 = cat(x0, x1, x2)`, ...
//! Bufferized as they are, each is a new buffer and every earlier piece is
//! copied into it again: a block of L layers copies O(L²) pieces, and for
//! the loop optimizer each copy is one more producer of the next layer
//! (DenseNet-121: 58 concatenations, half of its kernels copies; its batch
//! norms were planned with 14-25 producers each). Built as a chain of
//! updates of the longest one's buffer, each piece is written once, where
//! every concatenation that holds it reads it:
//!
//! ```mlir
//! %c1 = tensor.concat dim(1) %x0, %x1 : (...) -> tensor<1x96x8x8xf32>
//! ...                                   // %x2 computed from %c1
//! %c2 = tensor.concat dim(1) %x0, %x1, %x2 : (...) -> tensor<1x128x8x8xf32>
//! // becomes
//! %e  = tensor.empty() : tensor<1x128x8x8xf32>
//! %d0 = tensor.insert_slice %x0 into %e[0, 0, 0, 0] [1, 64, 8, 8] [1, 1, 1, 1]
//! %d1 = tensor.insert_slice %x1 into %d0[0, 64, 0, 0] [1, 32, 8, 8] [1, 1, 1, 1]
//! %c1 = tensor.extract_slice %d1[0, 0, 0, 0] [1, 96, 8, 8] [1, 1, 1, 1]
//! ...
//! %d2 = tensor.insert_slice %x2 into %d1[0, 96, 0, 0] [1, 32, 8, 8] [1, 1, 1, 1]
//! // %c2 is %d2
//! ```
//!
//! The same values either way; bufferization then updates the one buffer in
//! place (`%c1`'s readers run before `%x2` is inserted, and read other
//! elements anyway; where a reader came later, One-Shot Bufferize would copy,
//! as before), and `eliminate-empty-tensors` lets the operator computing a
//! piece write it into its place. Each update goes right after the later of
//! its piece and the previous update, so it dominates every concatenation
//! that holds it.
//!
//! Applies to the concatenations of a block along one dimension whose
//! operand lists are all prefixes of the longest one (static shapes,
//! ranked tensors); a lone concatenation is rewritten the same way (its
//! operands can then be computed in place). Families that branch are left
//! alone.

use std::collections::HashMap;

use melior::{
    ir::{
        operation::{OperationLike, WalkOrder},
        BlockLike, OperationRef, Value, ValueLike,
    },
    Context, IrRewriter,
};
use crate::{compose_insert_slices::static_slice_attributes, concat_empty_operands::concat_dim};
use pb_dialects::type_utils::static_shape;
use pb_support::{builder::Emitter, ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-concat-prefixes",
    summary: "Build concatenations that extend one another as updates of one buffer",
    description: "Groups the `tensor.concat`s of a block along one dimension whose operand lists \
are prefixes of the longest one, and rewrites the group as a chain of `tensor.insert_slice`s into \
one `tensor.empty` of the longest result (one update per piece, right after the piece), each \
concatenation becoming a leading `tensor.extract_slice` of the update that completes it. Pieces \
are then written once instead of once per concatenation that holds them (DenseNet's blocks copied \
O(L^2) pieces).",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<ConcatPrefixes>,
};

#[derive(Clone, Default)]
struct ConcatPrefixes;

/// A concatenation's dimension and static result shape.
fn describe(op: OperationRef) -> Option<(usize, Vec<i64>)> {
    let dim = concat_dim(op)?;
    let shape = static_shape(op.result(0).ok()?.r#type())?;
    (dim < shape.len()).then_some((dim, shape))
}

fn operands<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    (0..op.operand_count()).filter_map(|i| op.operand(i).ok()).collect()
}

impl RustPass for ConcatPrefixes {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["tensor"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let concats = ffi::collect_ops(func, WalkOrder::PreOrder, |op| ir::is_named(op, "tensor.concat"));
        // Families: same block, dimension and first operand, in the order
        // their first members come in the walk (deterministic; the map's
        // order is not).
        let mut index: HashMap<(usize, usize, usize), usize> = HashMap::new();
        let mut families: Vec<Vec<OperationRef>> = Vec::new();
        for concat in concats {
            let (Some((dim, _)), Some(block), Ok(first)) = (describe(concat), concat.block(), concat.operand(0)) else {
                continue;
            };
            let key = (block.to_raw().ptr as usize, dim, first.to_raw().ptr as usize);
            let position = *index.entry(key).or_insert_with(|| {
                families.push(Vec::new());
                families.len() - 1
            });
            families[position].push(concat);
        }
        for family in families {
            if let Some(chain) = Chain::of(family) {
                ffi::with_context(chain.longest, |context| chain.rewrite(context));
            }
        }
        Ok(())
    }
}

/// A family of concatenations whose operand lists are prefixes of the
/// longest one's.
struct Chain<'c, 'a> {
    longest: OperationRef<'c, 'a>,
    members: Vec<OperationRef<'c, 'a>>,
    pieces: Vec<Value<'c, 'a>>,
    /// Each piece's static shape.
    shapes: Vec<Vec<i64>>,
    dim: usize,
}

impl<'c, 'a> Chain<'c, 'a> {
    fn of(mut members: Vec<OperationRef<'c, 'a>>) -> Option<Self> {
        members.sort_by_key(|op| op.operand_count());
        let longest = *members.last()?;
        let (dim, shape) = describe(longest)?;
        let pieces = operands(longest);
        let shapes: Vec<Vec<i64>> = pieces.iter().map(|v| static_shape(v.r#type())).collect::<Option<_>>()?;
        // Every piece matches the result off the concatenated dimension.
        let fits = |s: &Vec<i64>| s.len() == shape.len() && (0..shape.len()).all(|d| d == dim || s[d] == shape[d]);
        if !shapes.iter().all(fits) {
            return None;
        }
        // Every piece is defined in the concatenations' block (or is one of
        // its arguments), so the updates can follow the pieces there.
        let block = longest.block()?.to_raw().ptr as usize;
        let in_block = |v: &Value| match ffi::defining_op(*v) {
            Some(op) => op.block().is_some_and(|b| b.to_raw().ptr as usize == block),
            None => ffi::defining_block(*v).is_some_and(|b| b.to_raw().ptr as usize == block),
        };
        if !pieces.iter().all(in_block) {
            return None;
        }
        for member in &members {
            let list = operands(*member);
            if list.len() > pieces.len() || list.iter().zip(&pieces).any(|(a, b)| a != b) || describe(*member)?.0 != dim {
                return None; // the family branches
            }
        }
        Some(Chain { longest, members, pieces, shapes, dim })
    }

    fn rewrite(self, context: &'c Context) {
        let Ok(longest_result) = self.longest.result(0) else { return };
        let result_type = longest_result.r#type();
        let rank = self.shapes[0].len();
        let Some(first_in_block) = self.longest.block().and_then(|b| b.first_operation()) else { return };
        let ir_rewriter = IrRewriter::from_op(self.longest);
        let rewriter = ir_rewriter.as_rewriter_base();
        let emitter = Emitter { context, rewriter: &rewriter, location: self.longest.location() };
        let strides = vec![1i64; rank];
        let slice_attributes = |offset: i64, sizes: &[i64], operands: usize| {
            let mut offsets = vec![0i64; rank];
            offsets[self.dim] = offset;
            static_slice_attributes(&emitter, &offsets, sizes, &strides, operands)
        };
        // The updates, one per piece, each right after the later of its
        // piece's definition and the previous update (the block's start for
        // a first piece that is a block argument).
        let mut updates = Vec::new();
        let mut offset = 0i64;
        for (index, piece) in self.pieces.iter().enumerate() {
            let previous = updates.last().and_then(|u| ffi::defining_op(*u));
            let anchor = match (ffi::defining_op(*piece), previous) {
                (Some(d), Some(p)) => Some(if ffi::is_before_in_block(d, p) { p } else { d }),
                (d, p) => d.or(p),
            };
            match anchor {
                Some(op) => rewriter.set_insertion_point_after(op),
                None => rewriter.set_insertion_point_before(first_in_block),
            }
            let destination = match updates.last() {
                Some(d) => *d,
                None => emitter.value("tensor.empty", &[], result_type, &[]),
            };
            let attributes = slice_attributes(offset, &self.shapes[index], 2);
            updates.push(emitter.value("tensor.insert_slice", &[*piece, destination], result_type, &attributes));
            offset += self.shapes[index][self.dim];
        }
        // Each concatenation: the update that completes it, or its leading part.
        for member in &self.members {
            let (Ok(result), Some((_, shape))) = (member.result(0), describe(*member)) else { continue };
            let count = member.operand_count();
            let replacement = if count == self.pieces.len() {
                updates[count - 1]
            } else {
                rewriter.set_insertion_point_before(*member);
                emitter.value("tensor.extract_slice", &[updates[count - 1]], result.r#type(), &slice_attributes(0, &shape, 1))
            };
            ffi::replace_all_uses(result.into(), replacement);
            // SAFETY: the member's one result was just replaced; concats have no regions, and each
            // belongs to one family, rewritten once.
            unsafe { ffi::erase(*member) };
        }
    }
}
