//! Shared analysis of affine loop bodies for the loop passes
//! (`pb-vectorize`, `pb-interchange`): how an access moves with an
//! induction variable, whether two accesses hit the same address, which
//! memrefs may alias.

use melior::ir::{block::BlockLike, operation::OperationLike, BlockRef, OperationRef, TypeLike, Value, ValueLike};
use pb_support::ffi;

pub use pb_support::ir::is_named;

pub fn same_value(a: Value, b: Value) -> bool {
    a.to_raw().ptr == b.to_raw().ptr
}

/// How an access moves with the induction variable.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Access {
    /// No index depends on `iv`.
    Uniform,
    /// Last index is `iv + e`, the others free of `iv`.
    Contiguous,
    /// Last index is `2 * iv + e`, the others free of `iv`: every other
    /// element (a stride-2 convolution's or pooling's input row).
    Stride2,
    /// Last index is `(iv + offset) floordiv divisor + e`, the others free
    /// of `iv`: each element `divisor` times in a row (an upsampled row).
    Repeat { divisor: i64, offset: i64 },
}

pub fn constant_bound(op: OperationRef, name: &str) -> Option<i64> {
    let map = ffi::affine_map_of(op.attribute(name).ok()?)?;
    (map.input_count() == 0 && map.result_count() == 1 && map.result(0).ok()?.is_constant())
        .then(|| map.single_constant_result())
}

/// Scalar int/float results, no index values (index arithmetic on `iv` would
/// need gathers).
pub fn elementwise(op: OperationRef) -> bool {
    op.results().all(|r| {
        let ty = r.r#type();
        !ty.is_index() && (ty.is_float() || ty.is_integer())
    }) && op.operands().all(|v| !v.r#type().is_index())
}

/// Classifies an affine load (`first_index` = 1) or store (2) by how its
/// address moves with `iv`: uniform (no index depends on it), contiguous
/// (last index `iv + e` with `e` free of `iv`, other indices free of it), or
/// `None`. Index operands computed inside `body` make it `None`.
pub fn access_kind(op: OperationRef, first_index: usize, iv: Value, body: BlockRef) -> Option<Access> {
    access_kind_before(op, first_index, iv, body, 0)
}

/// `access_kind` with the last `unit_dims` indices (of dimensions of extent
/// 1, so free of `iv`) set aside: the index before them is the one that
/// must move with `iv` (`x[n, c, 0, 0]` of a pooled `N x C x 1 x 1` array
/// is contiguous in `c`).
pub fn access_kind_before(op: OperationRef, first_index: usize, iv: Value, body: BlockRef, unit_dims: usize) -> Option<Access> {
    let map = ffi::affine_map_of(op.attribute("map").ok()?)?;
    let operands: Vec<Value> = op.operands().skip(first_index).collect();
    let mut iv_position = None;
    for (position, operand) in operands.iter().enumerate() {
        if same_value(*operand, iv) {
            if iv_position.replace(position).is_some() {
                return None;
            }
        } else if defined_in(*operand, body) {
            return None;
        }
    }
    let Some(position) = iv_position else { return Some(Access::Uniform) };
    if position >= map.dim_count() || map.result_count() <= unit_dims {
        return None;
    }
    let last = map.result_count() - 1 - unit_dims;
    for i in (0..map.result_count()).filter(|i| *i != last) {
        if map.result(i).ok()?.is_function_of_dim(position) {
            return None;
        }
    }
    let expr = map.result(last).ok()?;
    let unit = |e: melior::ir::AffineExpr| e.is_dim() && e.dim_position() == position;
    // `iv * 2` (the canonical form of `2 * iv`).
    let doubled = |e: melior::ir::AffineExpr| {
        e.is_mul() && unit(e.lhs()) && e.rhs().is_constant() && e.rhs().constant_value() == 2
    };
    // `term + e` with `e` free of `iv`, the sum nested in any order
    // (`(s0 + iv) + s1`: constants a promoted unit loop left as symbols).
    fn plus(e: melior::ir::AffineExpr, position: usize, term: &dyn Fn(melior::ir::AffineExpr) -> bool) -> bool {
        term(e)
            || (e.is_add()
                && ((plus(e.lhs(), position, term) && !e.rhs().is_function_of_dim(position))
                    || (plus(e.rhs(), position, term) && !e.lhs().is_function_of_dim(position))))
    }
    // `(iv + c) floordiv d`, d > 1.
    let repeat = |e: melior::ir::AffineExpr| -> Option<(i64, i64)> {
        if !e.is_floor_div() || !e.rhs().is_constant() || e.rhs().constant_value() < 2 {
            return None;
        }
        Some((e.rhs().constant_value(), dim_plus_constant(e.lhs(), position)?))
    };
    let repeated = if expr.is_add() && !expr.rhs().is_function_of_dim(position) {
        repeat(expr.lhs())
    } else if expr.is_add() && !expr.lhs().is_function_of_dim(position) {
        repeat(expr.rhs())
    } else {
        repeat(expr)
    };
    if plus(expr, position, &unit) {
        Some(Access::Contiguous)
    } else if plus(expr, position, &doubled) {
        Some(Access::Stride2)
    } else {
        repeated.map(|(divisor, offset)| Access::Repeat { divisor, offset })
    }
}

/// `c` when `e` is dimension `position` plus a constant (`d`, `d + c` or
/// `c + d`).
pub fn dim_plus_constant(e: melior::ir::AffineExpr, position: usize) -> Option<i64> {
    let is_dim = |e: melior::ir::AffineExpr| e.is_dim() && e.dim_position() == position;
    if is_dim(e) {
        Some(0)
    } else if e.is_add() && is_dim(e.lhs()) && e.rhs().is_constant() {
        Some(e.rhs().constant_value())
    } else if e.is_add() && is_dim(e.rhs()) && e.lhs().is_constant() {
        Some(e.lhs().constant_value())
    } else {
        None
    }
}

pub fn defined_in(value: Value, block: BlockRef) -> bool {
    ffi::defining_op(value)
        .and_then(|owner| owner.block())
        .is_some_and(|b| b.to_raw().ptr == block.to_raw().ptr)
}

/// The index operands of an affine load or store.
pub fn index_operands<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    let skip = if is_named(op, "affine.store") { 2 } else { 1 };
    op.operands().skip(skip).collect()
}

pub fn same_address(a: OperationRef, b: OperationRef) -> bool {
    let (ma, mb) = (a.attribute("map").ok(), b.attribute("map").ok());
    let (ia, ib) = (index_operands(a), index_operands(b));
    ma.is_some() && ma == mb && ia.len() == ib.len() && ia.iter().zip(&ib).all(|(x, y)| same_value(*x, *y))
}

/// Memrefs that may overlap another memref value: views of other buffers.
pub fn is_view(memref: Value) -> bool {
    ffi::defining_op(memref).is_some_and(pb_support::ir::is_view_op)
}

/// The attribute of the constant affine map `() -> (value)`: a loop bound.
pub fn constant_map<'c>(context: &'c melior::Context, value: i64) -> melior::ir::Attribute<'c> {
    let map = melior::ir::AffineMap::constant(context, value);
    melior::ir::Attribute::parse(context, &format!("affine_map<{map}>")).expect("constant affine map")
}
