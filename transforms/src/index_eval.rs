//! Compile-time evaluation of index computations: the scalar `arith` and
//! `math` ops a gather's index is computed with (integer and float
//! arithmetic, absolute values, casts, comparisons, selects, floor), inside `linalg.generic`
//! bodies, at given loop points, and of small tensors computed from
//! nothing but constants and loop indices (PyTorch's decompositions build
//! `arange`-based index tensors so: replicate padding, nearest and bilinear
//! upsampling).
//!
//! Semantics are the ops' own, evaluated exactly as the generated code
//! would without contraction (IEEE f32/f64 arithmetic, integers wrapped to
//! their width, float-to-integer conversion truncating): what eager
//! PyTorch computes. Anything else (a value read from a function argument,
//! an op not listed, a NaN converted to an integer) gives `None`.

use std::{collections::HashMap, rc::Rc};

use melior::ir::{
    attribute::{FloatAttribute, IntegerAttribute},
    block::BlockLike,
    operation::OperationLike,
    AffineExpr, AffineMap, BlockRef, OperationRef, RegionLike, Type, TypeLike, Value, ValueLike,
};
use pb_support::{ffi, ir::op_name};

use crate::linalg_ops::{index_dim, maps_of, parallel_loops, segments};

/// The most elements of a tensor evaluated at compile time.
pub const MAX_ELEMENTS: usize = 1 << 16;

/// A scalar value: integers (any width, index) as i64, floats as their type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Int(i64),
    F32(f32),
    F64(f64),
}

impl Scalar {
    pub fn int(self) -> Option<i64> {
        match self {
            Scalar::Int(v) => Some(v),
            _ => None,
        }
    }

    fn float(self) -> Option<f64> {
        match self {
            Scalar::F32(v) => Some(v as f64),
            Scalar::F64(v) => Some(v),
            Scalar::Int(_) => None,
        }
    }
}

/// A tensor evaluated at compile time: shape and row-major elements.
pub struct Tensor {
    pub shape: Vec<i64>,
    pub data: Vec<Scalar>,
}

impl Tensor {
    pub fn at(&self, index: &[i64]) -> Option<Scalar> {
        if index.len() != self.shape.len() {
            return None;
        }
        let mut linear = 0;
        for (i, n) in index.iter().zip(&self.shape) {
            if *i < 0 || i >= n {
                return None;
            }
            linear = linear * n + i;
        }
        self.data.get(linear as usize).copied()
    }
}

/// Evaluates values of one function; tensors it evaluated are kept.
#[derive(Default)]
pub struct Evaluator {
    tensors: HashMap<usize, Option<Rc<Tensor>>>,
}

/// The `linalg.generic` whose body a value is evaluated in.
pub struct Generic<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub body: BlockRef<'c, 'a>,
    pub maps: Vec<AffineMap<'c>>,
    pub inputs: usize,
}

impl<'c, 'a> Generic<'c, 'a> {
    /// An all-parallel generic with one output, or `None`.
    pub fn of(op: OperationRef<'c, 'a>) -> Option<Self> {
        if op_name(op) != "linalg.generic" || !parallel_loops(op)?.iter().all(|p| *p) {
            return None;
        }
        let (inputs, outputs) = segments(op)?;
        let maps = maps_of(op)?;
        let body = op.region(0).ok()?.first_block()?;
        (outputs == 1 && op.result_count() == 1 && maps.len() == inputs + 1 && body.argument_count() == inputs + 1)
            .then_some(Generic { op, body, maps, inputs })
    }

    /// The loops' extents: the output's static shape through its map
    /// (each result a loop).
    pub fn extents(&self) -> Option<Vec<i64>> {
        let output = ffi::operand(self.op, self.inputs)?;
        let shape = pb_dialects::type_utils::static_shape(output.r#type())?;
        let map = self.maps[self.inputs];
        let mut extents = vec![None; map.dim_count()];
        for (r, n) in shape.iter().enumerate() {
            let expr = map.result(r).ok()?;
            if !expr.is_dim() {
                return None;
            }
            extents[expr.dim_position()] = Some(*n);
        }
        extents.into_iter().collect()
    }

    /// Whether `value` is defined by an op of this body.
    fn owns(&self, op: OperationRef) -> bool {
        op.block().is_some_and(|b| b == self.body)
    }
}

impl Evaluator {
    /// The loops `value` (of `generic`'s body) depends on, or `None` where
    /// it reads something not known at compile time (an input that is not
    /// a constant tensor, the output, a value from outside that is not a
    /// constant).
    pub fn loops_of(&mut self, generic: &Generic, value: Value) -> Option<Vec<usize>> {
        let mut loops = Vec::new();
        let mut pending = vec![value];
        let mut seen = Vec::new();
        while let Some(value) = pending.pop() {
            if seen.contains(&value.to_raw().ptr) {
                continue;
            }
            seen.push(value.to_raw().ptr);
            if let Some(argument) = ffi::block_argument(value) {
                let k = argument.argument_number();
                if argument.owner() != generic.body || k >= generic.inputs {
                    return None;
                }
                self.tensor(ffi::operand(generic.op, k)?)?;
                let map = generic.maps[k];
                loops.extend((0..map.dim_count()).filter(|d| (0..map.result_count()).any(|r| map.result(r).is_ok_and(|e| e.is_function_of_dim(*d)))));
                continue;
            }
            let op = ffi::defining_op(value)?;
            if !generic.owns(op) {
                (op_name(op) == "arith.constant").then_some(())?;
                continue;
            }
            if op_name(op) == "linalg.index" {
                loops.push(index_dim(op)?);
                continue;
            }
            if op.region_count() > 0 || op.result_count() != 1 {
                return None;
            }
            pending.extend((0..op.operand_count()).filter_map(|i| ffi::operand(op, i)));
        }
        loops.sort();
        loops.dedup();
        Some(loops)
    }

    /// `value` (of `generic`'s body) at the loop point `point`.
    pub fn eval(&mut self, generic: &Generic, value: Value, point: &[i64]) -> Option<Scalar> {
        if let Some(argument) = ffi::block_argument(value) {
            let k = argument.argument_number();
            if argument.owner() != generic.body || k >= generic.inputs {
                return None;
            }
            let tensor = self.tensor(ffi::operand(generic.op, k)?)?;
            let index = apply(generic.maps[k], point)?;
            return tensor.at(&index);
        }
        let op = ffi::defining_op(value)?;
        if !generic.owns(op) {
            return constant(op);
        }
        match op_name(op).as_str() {
            "linalg.index" => point.get(index_dim(op)?).map(|v| Scalar::Int(*v)),
            "arith.constant" => constant(op),
            _ => {
                let operands: Vec<Scalar> =
                    (0..op.operand_count()).map(|i| ffi::operand(op, i).and_then(|v| self.eval(generic, v, point))).collect::<Option<_>>()?;
                apply_op(op, &operands)
            }
        }
    }

    /// The elements of a tensor computed from constants and loop indices
    /// alone, at most [`MAX_ELEMENTS`] of them.
    pub fn tensor(&mut self, value: Value) -> Option<Rc<Tensor>> {
        let key = value.to_raw().ptr as usize;
        if let Some(known) = self.tensors.get(&key) {
            return known.clone();
        }
        let tensor = self.compute(value).map(Rc::new);
        self.tensors.insert(key, tensor.clone());
        tensor
    }

    fn compute(&mut self, value: Value) -> Option<Tensor> {
        let shape = pb_dialects::type_utils::static_shape(value.r#type())?;
        let count = shape.iter().product::<i64>();
        if count < 0 || count as usize > MAX_ELEMENTS {
            return None;
        }
        let element = pb_dialects::type_utils::shape_and_element(value.r#type()).1;
        let op = ffi::defining_op(value)?;
        match op_name(op).as_str() {
            "arith.constant" => {
                let data = match ffi::dense_values(op.attribute("value").ok()?, MAX_ELEMENTS)? {
                    ffi::DenseValues::Int(v) => v.into_iter().map(Scalar::Int).collect(),
                    ffi::DenseValues::Float(v) => v.into_iter().map(|x| float_of(element, x)).collect::<Option<_>>()?,
                };
                Some(Tensor { shape, data })
            }
            "tensor.expand_shape" | "tensor.collapse_shape" => {
                let source = self.tensor(ffi::operand(op, 0)?)?;
                Some(Tensor { shape, data: source.data.clone() })
            }
            "linalg.fill" => {
                let fill = constant(ffi::defining_op(ffi::operand(op, 0)?)?)?;
                Some(Tensor { shape, data: vec![fill; count as usize] })
            }
            "linalg.generic" => {
                let generic = Generic::of(op)?;
                let extents = generic.extents()?;
                let yielded = ffi::operand(generic.body.terminator()?, 0)?;
                let output_map = generic.maps[generic.inputs];
                let mut data = vec![Scalar::Int(0); count as usize];
                let mut point = vec![0; extents.len()];
                loop {
                    let index = apply(output_map, &point)?;
                    let linear = index.iter().zip(&shape).fold(0, |acc, (i, n)| acc * n + i);
                    data[linear as usize] = self.eval(&generic, yielded, &point)?;
                    // Next point, row-major.
                    let mut d = extents.len();
                    loop {
                        if d == 0 {
                            return Some(Tensor { shape, data });
                        }
                        d -= 1;
                        point[d] += 1;
                        if point[d] < extents[d] {
                            break;
                        }
                        point[d] = 0;
                    }
                }
            }
            _ => None,
        }
    }
}

/// An `arith.constant` scalar.
fn constant(op: OperationRef) -> Option<Scalar> {
    if op_name(op) != "arith.constant" || op.result_count() != 1 {
        return None;
    }
    let ty = op.result(0).ok()?.r#type();
    let attribute = op.attribute("value").ok()?;
    use melior::ir::attribute::AttributeLike;
    if attribute.is_integer() {
        let value = IntegerAttribute::try_from(attribute).ok()?.value();
        return Some(Scalar::Int(wrap(value, width(ty)?)));
    }
    if attribute.is_float() {
        return float_of(ty, FloatAttribute::try_from(attribute).ok()?.value());
    }
    None
}

fn float_of(ty: Type, value: f64) -> Option<Scalar> {
    if ty.is_f32() {
        Some(Scalar::F32(value as f32))
    } else if ty.is_f64() {
        Some(Scalar::F64(value))
    } else {
        None
    }
}

/// Bits of an integer or index type.
fn width(ty: Type) -> Option<u32> {
    if ty.is_index() {
        return Some(64);
    }
    let text = ty.to_string();
    text.strip_prefix('i').and_then(|n| n.parse().ok()).filter(|n| (1..=64).contains(n))
}

/// `value` wrapped to a signed integer of `bits`.
fn wrap(value: i64, bits: u32) -> i64 {
    if bits >= 64 {
        value
    } else {
        let shift = 64 - bits;
        (value << shift) >> shift
    }
}

/// `value` of `bits` read as unsigned.
fn unsigned(value: i64, bits: u32) -> u64 {
    if bits >= 64 {
        value as u64
    } else {
        (value as u64) & ((1u64 << bits) - 1)
    }
}

/// The results of `map` at `point`.
pub fn apply(map: AffineMap, point: &[i64]) -> Option<Vec<i64>> {
    (0..map.result_count()).map(|r| map.result(r).ok().and_then(|e| eval_expr(e, point))).collect()
}

fn eval_expr(expr: AffineExpr, point: &[i64]) -> Option<i64> {
    if expr.is_dim() {
        return point.get(expr.dim_position()).copied();
    }
    if expr.is_constant() {
        return Some(expr.constant_value());
    }
    let (l, r) = (eval_expr(expr.lhs(), point)?, eval_expr(expr.rhs(), point)?);
    if expr.is_add() {
        Some(l + r)
    } else if expr.is_mul() {
        Some(l * r)
    } else if expr.is_floor_div() {
        (r > 0).then(|| l.div_euclid(r))
    } else if expr.is_ceil_div() {
        (r > 0).then(|| -((-l).div_euclid(r)))
    } else if expr.is_mod() {
        (r > 0).then(|| l.rem_euclid(r))
    } else {
        None
    }
}

/// `op` applied to `operands`.
fn apply_op(op: OperationRef, operands: &[Scalar]) -> Option<Scalar> {
    let result_type = op.result(0).ok()?.r#type();
    let name = op_name(op);
    let int = |k: usize| operands.get(k).and_then(|s| s.int());
    let float = |k: usize| operands.get(k).and_then(|s| s.float());
    let bits = || width(result_type);
    let operand_bits = || ffi::operand(op, 0).and_then(|v| width(v.r#type()));
    let float_result = |x: f64| -> Option<Scalar> {
        if result_type.is_f32() {
            Some(Scalar::F32(x as f32))
        } else if result_type.is_f64() {
            Some(Scalar::F64(x))
        } else {
            None
        }
    };
    // Binary float ops computed in the operands' own precision.
    let float_binary = |f32op: fn(f32, f32) -> f32, f64op: fn(f64, f64) -> f64| -> Option<Scalar> {
        match (operands.first()?, operands.get(1)?) {
            (Scalar::F32(a), Scalar::F32(b)) => Some(Scalar::F32(f32op(*a, *b))),
            (Scalar::F64(a), Scalar::F64(b)) => Some(Scalar::F64(f64op(*a, *b))),
            _ => None,
        }
    };
    let float_unary = |f32op: fn(f32) -> f32, f64op: fn(f64) -> f64| -> Option<Scalar> {
        match operands.first()? {
            Scalar::F32(a) => Some(Scalar::F32(f32op(*a))),
            Scalar::F64(a) => Some(Scalar::F64(f64op(*a))),
            Scalar::Int(_) => None,
        }
    };
    let integer = |v: i64| bits().map(|b| Scalar::Int(wrap(v, b)));
    match name.as_str() {
        "arith.index_cast" | "arith.extsi" | "arith.trunci" => integer(int(0)?),
        "arith.index_castui" | "arith.extui" => integer(unsigned(int(0)?, operand_bits()?) as i64),
        "arith.sitofp" => match () {
            _ if result_type.is_f32() => Some(Scalar::F32(int(0)? as f32)),
            _ => float_result(int(0)? as f64),
        },
        "arith.uitofp" => {
            let v = unsigned(int(0)?, operand_bits()?);
            if result_type.is_f32() {
                Some(Scalar::F32(v as f32))
            } else {
                float_result(v as f64)
            }
        }
        "arith.fptosi" | "arith.fptoui" => {
            let x = float(0)?.trunc();
            let b = bits()?;
            let (lo, hi) = if name == "arith.fptosi" {
                (-(2f64.powi(b as i32 - 1)), 2f64.powi(b as i32 - 1))
            } else {
                (0.0, 2f64.powi(b as i32))
            };
            // Out of range or NaN is poison in MLIR: not evaluated.
            (x >= lo && x < hi).then(|| Scalar::Int(wrap(x as i64, b)))
        }
        "arith.extf" | "arith.truncf" => float_result(float(0)?),
        "arith.addi" => integer(int(0)?.wrapping_add(int(1)?)),
        "arith.subi" => integer(int(0)?.wrapping_sub(int(1)?)),
        "arith.muli" => integer(int(0)?.wrapping_mul(int(1)?)),
        "arith.divsi" => {
            let (a, b) = (int(0)?, int(1)?);
            (b != 0).then_some(())?;
            integer(a.wrapping_div(b))
        }
        "arith.floordivsi" => {
            let (a, b) = (int(0)?, int(1)?);
            (b != 0).then_some(())?;
            let q = a.wrapping_div(b);
            integer(if (a % b != 0) && ((a < 0) != (b < 0)) { q - 1 } else { q })
        }
        "arith.ceildivsi" => {
            let (a, b) = (int(0)?, int(1)?);
            (b != 0).then_some(())?;
            let q = a.wrapping_div(b);
            integer(if (a % b != 0) && ((a < 0) == (b < 0)) { q + 1 } else { q })
        }
        "arith.remsi" => {
            let (a, b) = (int(0)?, int(1)?);
            (b != 0).then_some(())?;
            integer(a.wrapping_rem(b))
        }
        "math.absi" => integer(int(0)?.wrapping_abs()),
        "arith.divui" | "arith.remui" => {
            let b = operand_bits()?;
            let (a, c) = (unsigned(int(0)?, b), unsigned(int(1)?, b));
            (c != 0).then_some(())?;
            integer((if name == "arith.divui" { a / c } else { a % c }) as i64)
        }
        "arith.maxsi" => integer(int(0)?.max(int(1)?)),
        "arith.minsi" => integer(int(0)?.min(int(1)?)),
        "arith.andi" => integer(int(0)? & int(1)?),
        "arith.ori" => integer(int(0)? | int(1)?),
        "arith.xori" => integer(int(0)? ^ int(1)?),
        "arith.addf" => float_binary(|a, b| a + b, |a, b| a + b),
        "arith.subf" => float_binary(|a, b| a - b, |a, b| a - b),
        "arith.mulf" => float_binary(|a, b| a * b, |a, b| a * b),
        "arith.divf" => float_binary(|a, b| a / b, |a, b| a / b),
        "arith.maxnumf" => float_binary(f32::max, f64::max),
        "arith.minnumf" => float_binary(f32::min, f64::min),
        "arith.maximumf" => float_binary(f32::maximum_compat, f64::maximum_compat),
        "arith.minimumf" => float_binary(f32::minimum_compat, f64::minimum_compat),
        "arith.negf" => float_unary(|a| -a, |a| -a),
        "math.absf" => float_unary(f32::abs, f64::abs),
        "math.floor" => float_unary(f32::floor, f64::floor),
        "math.ceil" => float_unary(f32::ceil, f64::ceil),
        "math.trunc" => float_unary(f32::trunc, f64::trunc),
        "arith.cmpi" => {
            let predicate = IntegerAttribute::try_from(op.attribute("predicate").ok()?).ok()?.value();
            let b = operand_bits()?;
            let (a, c) = (int(0)?, int(1)?);
            let (ua, uc) = (unsigned(a, b), unsigned(c, b));
            let holds = match predicate {
                0 => a == c,
                1 => a != c,
                2 => a < c,
                3 => a <= c,
                4 => a > c,
                5 => a >= c,
                6 => ua < uc,
                7 => ua <= uc,
                8 => ua > uc,
                9 => ua >= uc,
                _ => return None,
            };
            Some(Scalar::Int(-(holds as i64)))
        }
        "arith.cmpf" => {
            let predicate = IntegerAttribute::try_from(op.attribute("predicate").ok()?).ok()?.value();
            let (a, c) = (float(0)?, float(1)?);
            let unordered = a.is_nan() || c.is_nan();
            let holds = match predicate {
                0 => false,
                1 => !unordered && a == c,
                2 => !unordered && a > c,
                3 => !unordered && a >= c,
                4 => !unordered && a < c,
                5 => !unordered && a <= c,
                6 => !unordered && a != c,
                7 => !unordered,
                8 => unordered || a == c,
                9 => unordered || a > c,
                10 => unordered || a >= c,
                11 => unordered || a < c,
                12 => unordered || a <= c,
                13 => unordered || a != c,
                14 => unordered,
                15 => true,
                _ => return None,
            };
            Some(Scalar::Int(-(holds as i64)))
        }
        "arith.select" => {
            let condition = int(0)?;
            operands.get(if condition & 1 == 1 { 1 } else { 2 }).copied()
        }
        _ => None,
    }
}

/// IEEE maximum/minimum (NaN-propagating, -0 < +0), as `arith.maximumf`.
trait IeeeMinMax: Sized {
    fn maximum_compat(self, other: Self) -> Self;
    fn minimum_compat(self, other: Self) -> Self;
}

macro_rules! ieee_min_max {
    ($t:ty) => {
        impl IeeeMinMax for $t {
            fn maximum_compat(self, other: Self) -> Self {
                if self.is_nan() || other.is_nan() {
                    <$t>::NAN
                } else if self == other {
                    if self.is_sign_negative() { other } else { self }
                } else {
                    self.max(other)
                }
            }
            fn minimum_compat(self, other: Self) -> Self {
                if self.is_nan() || other.is_nan() {
                    <$t>::NAN
                } else if self == other {
                    if self.is_sign_negative() { self } else { other }
                } else {
                    self.min(other)
                }
            }
        }
    };
}
ieee_min_max!(f32);
ieee_min_max!(f64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_follows_the_width() {
        assert_eq!(wrap(255, 8), -1);
        assert_eq!(wrap(127, 8), 127);
        assert_eq!(unsigned(-1, 8), 255);
        assert_eq!(wrap(-5, 64), -5);
    }

    #[test]
    fn ieee_maximum_propagates_nan_and_orders_zeros() {
        assert!(f32::NAN.maximum_compat(1.0).is_nan());
        assert!(0.0f32.minimum_compat(-0.0).is_sign_negative());
        assert!((-0.0f32).maximum_compat(0.0).is_sign_positive());
    }
}
