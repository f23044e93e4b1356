//! Queries on linalg ops shared by the passes that read or rewrite them
//! (`pb-inits-as-inputs`, `pb-split-empty-tensors`, `pb-integer-contraction`,
//! `pb-channels-last`).

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

/// `array<i64: ...>` (dense arrays) or `dense<...> : vector<..>` as numbers
/// (a splat `dense<2>` as one).
pub fn integers(attribute: melior::ir::Attribute) -> Option<Vec<i64>> {
    let text = attribute.to_string();
    let inner = if let Some(rest) = text.strip_prefix("array<i64") {
        rest.trim_start_matches(':').trim_end_matches('>').to_string()
    } else {
        let body = text.strip_prefix("dense<")?.split('>').next()?.to_string();
        body.trim_matches(|c| c == '[' || c == ']').to_string()
    };
    inner.split(',').filter(|s| !s.trim().is_empty()).map(|s| s.trim().parse().ok()).collect()
}
