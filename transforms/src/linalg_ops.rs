//! Queries on linalg ops shared by the passes that rewrite their operands
//! (`pb-inits-as-inputs`, `pb-split-empty-tensors`).

use melior::ir::{attribute::ArrayAttribute, operation::OperationLike, OperationRef};

/// True for an op of the linalg dialect.
pub fn is_linalg(op: OperationRef) -> bool {
    op.name().as_string_ref().as_str().is_ok_and(|name| name.starts_with("linalg."))
}

/// True if every loop of a `linalg.generic` is parallel (also for none).
pub fn all_parallel(generic: OperationRef) -> bool {
    let Some(iterators) = generic.attribute("iterator_types").ok().and_then(|a| ArrayAttribute::try_from(a).ok()) else {
        return false;
    };
    (0..iterators.len()).all(|k| iterators.element(k).is_ok_and(|a| a.to_string().contains("parallel")))
}

/// The `[inputs, outputs]` operand counts of a linalg op with inputs and
/// outputs (`operandSegmentSizes`).
pub fn segments(op: OperationRef) -> Option<(usize, usize)> {
    let text = op.attribute("operandSegmentSizes").ok()?.to_string();
    let inner = text.trim().strip_prefix("array<i32:")?.strip_suffix('>')?;
    let counts: Vec<usize> = inner.split(',').map(|n| n.trim().parse().ok()).collect::<Option<_>>()?;
    match counts[..] {
        [inputs, outputs] => Some((inputs, outputs)),
        _ => None,
    }
}
