//! Queries on linalg ops shared by the passes that read or rewrite them
//! (`pb-inits-as-inputs`, `pb-split-empty-tensors`, `pb-integer-contraction`,
//! `pb-channels-last`, `pb-unroll-filters`, `pb-affine-gathers`), and the
//! copying of a `linalg.generic`'s body into a new one.

use std::collections::HashMap;

use melior::{
    ir::{
        attribute::{ArrayAttribute, DenseI64ArrayAttribute, IntegerAttribute},
        block::BlockLike,
        operation::OperationLike,
        AffineExpr, AffineMap, Attribute, BlockRef, Operation, OperationRef, Region, Value, ValueLike,
    },
    Context,
};
use pb_support::{ffi, ir::op_name};

/// True for an op of the linalg dialect.
pub fn is_linalg(op: OperationRef) -> bool {
    op.name().as_string_ref().as_str().is_ok_and(|name| name.starts_with("linalg."))
}

/// True if every loop of a `linalg.generic` is parallel (also for none).
pub fn all_parallel(generic: OperationRef) -> bool {
    parallel_loops(generic).is_some_and(|loops| loops.iter().all(|p| *p))
}

/// Per loop of a `linalg.generic`, whether it is parallel (else a reduction).
pub fn parallel_loops(generic: OperationRef) -> Option<Vec<bool>> {
    let iterators = ArrayAttribute::try_from(generic.attribute("iterator_types").ok()?).ok()?;
    (0..iterators.len()).map(|k| iterators.element(k).ok().map(|a| a.to_string().contains("parallel"))).collect()
}

/// The loop a `linalg.index` reads.
pub fn index_dim(index: OperationRef) -> Option<usize> {
    let attribute = IntegerAttribute::try_from(index.attribute("dim").ok()?).ok()?;
    usize::try_from(attribute.value()).ok()
}

/// Values of one body and the values standing for them in another, for
/// copying ops from the first into the second.
#[derive(Default)]
pub struct ValueMap<'c, 'a>(HashMap<usize, Value<'c, 'a>>);

impl<'c, 'a> ValueMap<'c, 'a> {
    pub fn insert(&mut self, old: Value<'c, 'a>, new: Value<'c, 'a>) {
        self.0.insert(old.to_raw().ptr as usize, new);
    }

    /// What stands for `value`: itself where nothing was mapped (a value
    /// from outside the body).
    pub fn get(&self, value: Value<'c, 'a>) -> Value<'c, 'a> {
        self.0.get(&(value.to_raw().ptr as usize)).copied().unwrap_or(value)
    }
}

/// Appends `new` (a clone of `old`, or an op replacing it with the same
/// operands) to `block` with its operands read through `mapped`, and maps
/// `old`'s results to `new`'s.
pub fn append_mapped<'c, 'a>(
    block: BlockRef<'c, 'a>,
    old: OperationRef<'c, 'a>,
    new: Operation<'c>,
    mapped: &mut ValueMap<'c, 'a>,
) -> OperationRef<'c, 'a> {
    let new = block.append_operation(new);
    for k in 0..new.operand_count() {
        if let Some(v) = ffi::operand(new, k) {
            ffi::set_operand(new, k, mapped.get(v));
        }
    }
    for r in 0..old.result_count().min(new.result_count()) {
        if let (Ok(o), Ok(n)) = (old.result(r), new.result(r)) {
            mapped.insert(o.into(), n.into());
        }
    }
    new
}

/// The indexing maps of a `linalg.generic`.
pub fn maps_of<'c>(generic: OperationRef<'c, '_>) -> Option<Vec<AffineMap<'c>>> {
    let array = ArrayAttribute::try_from(generic.attribute("indexing_maps").ok()?).ok()?;
    (0..array.len()).map(|i| array.element(i).ok().and_then(ffi::affine_map_of)).collect()
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

/// The two values of a 2-D `strides`/`dilations` attribute
/// (`dense<2> : vector<2xi64>` or `dense<[2, 1]> : ...`).
fn pair(op: OperationRef, name: &str) -> Option<(i64, i64)> {
    match integers(op.attribute(name).ok()?)?[..] {
        [v] => Some((v, v)),
        [a, b] => Some((a, b)),
        _ => None,
    }
}

/// Indexing maps and loop kinds (true: parallel) of the named ops
/// [`generalize`] rewrites.
pub fn named_maps<'c>(context: &'c Context, op: OperationRef<'c, '_>, name: &str) -> Option<(Vec<AffineMap<'c>>, Vec<bool>)> {
    let d = |i: usize| AffineExpr::dim(context, i);
    let k = |v: i64| AffineExpr::constant(context, v);
    let map = |dims: usize, results: &[AffineExpr<'c>]| AffineMap::new(context, dims, 0, results);
    // The input rows and columns a window reads: `o * stride + w * dilation`.
    let window = |o: usize, w: usize, (s, dl): (i64, i64)| d(o) * k(s) + d(w) * k(dl);
    let geometry = || Some((pair(op, "strides")?, pair(op, "dilations")?));
    match name {
        "linalg.conv_2d_nchw_fchw" => {
            // (n, f, oh, ow, c, kh, kw)
            let ((sh, sw), (dh, dw)) = geometry()?;
            Some((
                vec![
                    map(7, &[d(0), d(4), window(2, 5, (sh, dh)), window(3, 6, (sw, dw))]),
                    map(7, &[d(1), d(4), d(5), d(6)]),
                    map(7, &[d(0), d(1), d(2), d(3)]),
                ],
                vec![true, true, true, true, false, false, false],
            ))
        }
        "linalg.depthwise_conv_2d_nchw_chw" => {
            // (n, c, oh, ow, kh, kw): one filter per channel.
            let ((sh, sw), (dh, dw)) = geometry()?;
            Some((
                vec![
                    map(6, &[d(0), d(1), window(2, 4, (sh, dh)), window(3, 5, (sw, dw))]),
                    map(6, &[d(1), d(4), d(5)]),
                    map(6, &[d(0), d(1), d(2), d(3)]),
                ],
                vec![true, true, true, true, false, false],
            ))
        }
        "linalg.pooling_nchw_max" | "linalg.pooling_nchw_sum" => {
            // (n, c, oh, ow, kh, kw)
            let ((sh, sw), (dh, dw)) = geometry()?;
            Some((
                vec![
                    map(6, &[d(0), d(1), window(2, 4, (sh, dh)), window(3, 5, (sw, dw))]),
                    map(6, &[d(4), d(5)]),
                    map(6, &[d(0), d(1), d(2), d(3)]),
                ],
                vec![true, true, true, true, false, false],
            ))
        }
        // Contractions: their own `indexing_maps` where they carry them
        // (transposed operands), else the defaults.
        "linalg.matmul" | "linalg.batch_matmul" | "linalg.matvec" | "linalg.vecmat" => {
            let (loops, parallel) = match name {
                "linalg.matmul" => (3, vec![true, true, false]),
                "linalg.batch_matmul" => (4, vec![true, true, true, false]),
                _ => (2, vec![true, false]),
            };
            if op.attribute("indexing_maps").is_ok() {
                let maps = maps_of(op)?;
                return maps.iter().all(|m| m.dim_count() == loops).then_some((maps, parallel));
            }
            let maps = match name {
                // (m, n, k)
                "linalg.matmul" => vec![map(3, &[d(0), d(2)]), map(3, &[d(2), d(1)]), map(3, &[d(0), d(1)])],
                // (b, m, n, k)
                "linalg.batch_matmul" => {
                    vec![map(4, &[d(0), d(1), d(3)]), map(4, &[d(0), d(3), d(2)]), map(4, &[d(0), d(1), d(2)])]
                }
                // (i, j): y[i] = A[i, j] x[j]
                "linalg.matvec" => vec![map(2, &[d(0), d(1)]), map(2, &[d(1)]), map(2, &[d(0)])],
                // (n, k): y[n] = x[k] A[k, n]
                _ => vec![map(2, &[d(1)]), map(2, &[d(1), d(0)]), map(2, &[d(0)])],
            };
            Some((maps, parallel))
        }
        "linalg.transpose" => {
            // Result dimension i is input dimension permutation[i].
            let permutation = DenseI64ArrayAttribute::try_from(op.attribute("permutation").ok()?).ok()?;
            let rank = permutation.len();
            let mut input = vec![d(0); rank];
            for i in 0..rank {
                input[usize::try_from(permutation.element(i).ok()?).ok().filter(|p| *p < rank)?] = d(i);
            }
            let output: Vec<AffineExpr> = (0..rank).map(d).collect();
            Some((vec![map(rank, &input), map(rank, &output)], vec![true; rank]))
        }
        _ => None,
    }
}

/// `op` as an equivalent `linalg.generic` (its body region moved over), or
/// `None` when it is not one of the ops [`named_maps`] knows, or an
/// operand is not a statically shaped tensor.
pub fn generalize<'c, 'a>(context: &'c Context, op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let (maps, parallel) = named_maps(context, op, &op_name(op))?;
    let operands: Vec<Value> = (0..op.operand_count()).filter_map(|i| ffi::operand(op, i)).collect();
    let (inputs, outputs) = segments(op).unwrap_or((operands.len().saturating_sub(1), 1));
    if op.result_count() != 1 || outputs != 1 || inputs + outputs != operands.len() || maps.len() != operands.len() {
        return None;
    }
    let result = op.result(0).ok()?;
    if !operands.iter().all(|v| pb_dialects::type_utils::static_shape(v.r#type()).is_some()) {
        return None;
    }
    let map_attributes: Vec<Attribute> = maps.iter().map(|m| ffi::affine_map_attribute(*m)).collect();
    let region = Region::new();
    ffi::take_body(&region, op.region(0).ok()?);
    let generic = pb_support::builder::generic_operation(
        context,
        op.location(),
        (&operands[..inputs], &operands[inputs..]),
        &map_attributes,
        &parallel,
        &[result.r#type()],
        region,
    );
    let block = op.block()?;
    let generic = block.insert_operation_before(op, generic);
    ffi::replace_all_uses(result.into(), generic.result(0).ok()?.into());
    // SAFETY: its one result was just replaced and its body moved to the generic; callers use the
    // returned generic, not `op`, afterwards.
    unsafe { ffi::erase(op) };
    Some(generic)
}
