//! `pb-unit-transposes`: a `linalg.transpose` that moves only dimensions of
//! extent 1 (the others keep their order) is a reshape: it becomes a
//! `tensor.collapse_shape` dropping the unit dimensions and a
//! `tensor.expand_shape` putting them where the result has them.
//!
//! Why: the elements stay where they are, yet as a transpose it is a copy
//! of the whole tensor, a kernel of its own that fusion does not look
//! through (a camera pipeline's einsum leaves `3x1xHxW -> 3xHxWx1`, image
//! code converting single-channel NCHW to NHWC the same). Reshapes of
//! static tensors cost nothing after bufferization (views of one buffer)
//! and fold with the reshapes around them.
//!
//! ```mlir
//! %t = linalg.transpose ins(%x : tensor<3x1x8x8xf32>) outs(%e : tensor<3x8x8x1xf32>) permutation = [0, 2, 3, 1]
//! // becomes
//! %c = tensor.collapse_shape %x [[0], [1, 2], [3]] : tensor<3x1x8x8xf32> into tensor<3x8x8xf32>
//! %t = tensor.expand_shape %c [[0], [1], [2, 3]] output_shape [3, 8, 8, 1] : tensor<3x8x8xf32> into tensor<3x8x8x1xf32>
//! ```
//!
//! Static tensors only; a transpose of all-unit dimensions, or one that
//! reorders dimensions of extent > 1, is left alone.

use melior::ir::{
    attribute::DenseI64ArrayAttribute,
    block::BlockLike,
    operation::{OperationLike, WalkOrder},
    Attribute, OperationRef, Type, ValueLike,
};
use pb_support::{builder, ffi, ir::op_name, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-unit-transposes",
    summary: "Rewrite transposes that move only unit dimensions as reshapes",
    description: "A linalg.transpose on static tensors whose permutation keeps the dimensions of \
extent > 1 in order (it moves only dimensions of extent 1) becomes a tensor.collapse_shape dropping \
the unit dimensions and a tensor.expand_shape placing them as the result has them: no copy.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<UnitTransposes>,
};

#[derive(Clone, Default)]
struct UnitTransposes;

impl RustPass for UnitTransposes {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["tensor"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let transposes = ffi::collect_ops(root, WalkOrder::PreOrder, |op| op_name(op) == "linalg.transpose");
        for op in transposes {
            rewrite(op);
        }
        Ok(())
    }
}

/// The groups of a reshape between `shape` and its dimensions of extent
/// other than 1 (`None` when every dimension has extent 1).
fn groups(shape: &[i64]) -> Option<Vec<Vec<usize>>> {
    builder::groups_around(&shape.iter().map(|n| *n != 1).collect::<Vec<_>>())
}

fn rewrite(op: OperationRef) {
    let (Some(input), Ok(result)) = (ffi::operand(op, 0), op.result(0)) else { return };
    let (Some(from), Some(to)) = (
        pb_dialects::type_utils::static_shape(input.r#type()),
        pb_dialects::type_utils::static_shape(result.r#type()),
    ) else {
        return;
    };
    let Some(permutation) = op.attribute("permutation").ok().and_then(|a| DenseI64ArrayAttribute::try_from(a).ok()) else { return };
    let permutation: Vec<usize> = (0..permutation.len()).filter_map(|i| permutation.element(i).ok()).map(|p| p as usize).collect();
    if permutation.len() != from.len() || permutation.len() != to.len() {
        return;
    }
    // The dimensions of extent > 1, in input order and as the result
    // orders them.
    let kept: Vec<usize> = (0..from.len()).filter(|d| from[*d] != 1).collect();
    let moved: Vec<usize> = permutation.iter().copied().filter(|d| from[*d] != 1).collect();
    if kept != moved {
        return;
    }
    let (Some(collapse), Some(expand)) = (groups(&from), groups(&to)) else { return };
    ffi::with_context(op, |context| {
        let Some(block) = op.block() else { return };
        let location = op.location();
        let element = pb_dialects::type_utils::shape_and_element(input.r#type()).1;
        let middle: Vec<u64> = kept.iter().map(|d| from[*d] as u64).collect();
        let middle_type: Type = melior::ir::r#type::RankedTensorType::new(&middle, element, None).into();
        let (collapse_groups, expand_groups) =
            (builder::reassociation_attribute(context, &collapse), builder::reassociation_attribute(context, &expand));
        let output_shape: Attribute = DenseI64ArrayAttribute::new(context, &to).into();
        let collapsed = builder::build_operation(
            context,
            location,
            "tensor.collapse_shape",
            &[input],
            &[middle_type],
            &[("reassociation", collapse_groups)],
            vec![],
        );
        let collapsed = block.insert_operation_before(op, collapsed);
        let Ok(collapsed) = collapsed.result(0) else { return };
        let expanded = builder::build_operation(
            context,
            location,
            "tensor.expand_shape",
            &[collapsed.into()],
            &[result.r#type()],
            &[("reassociation", expand_groups), ("static_output_shape", output_shape)],
            vec![],
        );
        let expanded = block.insert_operation_before(op, expanded);
        let Ok(expanded) = expanded.result(0) else { return };
        ffi::replace_all_uses(result.into(), expanded.into());
        // SAFETY: the transpose's one result was just replaced; it has no regions and the pass's list
        // holds no other handle to it.
        unsafe { ffi::erase(op) };
    });
}

#[cfg(test)]
mod tests {
    use super::groups;

    #[test]
    fn unit_dimensions_join_the_next_group() {
        assert_eq!(groups(&[3, 1, 8, 8]), Some(vec![vec![0], vec![1, 2], vec![3]]));
        assert_eq!(groups(&[3, 8, 8, 1]), Some(vec![vec![0], vec![1], vec![2, 3]]));
        assert_eq!(groups(&[1, 1]), None);
    }
}
