//! `pb-prove-asserts`: erase each `cf.assert` whose condition the value
//! ranges of integers prove true.
//!
//! Why: torch-mlir guards every gather (`torch.gather`, `index`,
//! `index_select`) with run-time checks of its computed indices (`cf.assert
//! %ok, "index must be smaller than dim size"`, `"... larger or equal to
//! 0"`). An assert is a side effect: elementwise fusion leaves the gather's
//! checks behind in a generic of their own that reads the whole index
//! tensor once per check (local laplacian: 32 such passes over its 8 MB of
//! `i64` level indices), and the loop passes take no loop with an assert in
//! its body (`pb-fuse`, `pb-parallelize`: the gathers ran on one core).
//! Most of these indices are clamped where they are computed (local
//! laplacian's `position.to(int64).clamp(0, K - 2)`, then `+ 1`), so the
//! checks cannot fail: they are dropped, and everything else stays checked
//! (`pb-asserts-to-errors` turns what is left into error codes).
//!
//! The ranges are intervals of signed integers (index as 64 bits), computed
//! on demand through `arith` ops (constants, add, sub, mul, min, max,
//! division and remainder by a positive constant, casts, select) and
//! **through tensors**: an argument of a `linalg.generic` body takes the
//! range of every element of the tensor it reads, which is the range of the
//! value its producer's body yields (or of a constant, a fill, or a reshape
//! or slice of one of those), whatever the indexing maps. A value of any
//! other origin (a function argument, `linalg.index`, a float conversion)
//! takes its type's whole range, so nothing unproven is dropped. A
//! condition is proven when it is a constant true or an `arith.cmpi` whose
//! operands' ranges decide it (unsigned predicates when both are not
//! negative).
//!
//! ```mlir
//! %li = linalg.generic ... {            // clamp(x, 0, 6)
//!   %a = arith.maxsi %x, %c0_i64 : i64
//!   %b = arith.minsi %a, %c6_i64 : i64
//!   linalg.yield %b : i64 }
//! linalg.generic ... ins(%li : tensor<1024xi64>) ... {
//! ^bb0(%in: i64, ...):
//!   %i = arith.index_cast %in : i64 to index
//!   %ok = arith.cmpi slt, %i, %c8 : index     // [0, 6] < 8: true
//!   cf.assert %ok, "index must be smaller than dim size"   // erased
//! ```

use std::collections::HashMap;

use melior::ir::{
    attribute::IntegerAttribute,
    block::BlockLike,
    operation::{OperationLike, WalkOrder},
    OperationRef, RegionLike, Type, TypeLike, Value, ValueLike,
};
use pb_support::{
    ffi,
    ir::{is_named, op_name},
    PassFailed, PassId, PassInfo, RustPass,
};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-prove-asserts",
    summary: "Erase cf.assert ops whose conditions integer value ranges prove true (gathers' index checks on clamped indices)",
    description: "Computes signed integer intervals through arith ops (constants, add, sub, mul, min, max, \
division and remainder by a positive constant, casts, select) and through tensors: a linalg.generic body's \
argument ranges over the values its operand's producer yields (a generic's yield, a constant, a fill, reshapes \
and slices of those). A cf.assert whose condition is a true constant or an arith.cmpi those ranges decide is \
erased; every other check stays (values from function arguments, linalg.index or float conversions take their \
type's whole range). torch-mlir's gather index checks on clamped indices go, and with them the assert-only \
loops that elementwise fusion left behind and the loops the loop passes refused.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<ProveAsserts>,
};

#[derive(Clone, Default)]
struct ProveAsserts;

impl RustPass for ProveAsserts {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &[]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let asserts = ffi::collect_ops(root, WalkOrder::PreOrder, |op| is_named(op, "cf.assert"));
        let mut ranges = Ranges::default();
        for assert in asserts {
            if ffi::operand(assert, 0).is_some_and(|condition| ranges.proves(condition)) {
                // SAFETY: an assert has no results; nothing else refers to it.
                unsafe { ffi::erase(assert) };
            }
        }
        Ok(())
    }
}

/// A closed interval of signed integers.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Range {
    lo: i128,
    hi: i128,
}

impl Range {
    fn point(value: i128) -> Self {
        Range { lo: value, hi: value }
    }

    fn union(self, other: Range) -> Range {
        Range { lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }

    fn non_negative(self) -> bool {
        self.lo >= 0
    }
}

/// How deep a range is followed through ops and tensors before it is taken
/// as its type's whole range (chains in real programs are a few ops long).
const MAX_DEPTH: usize = 64;
/// The most elements of a dense constant read for its range.
const MAX_CONSTANT_ELEMENTS: usize = 1 << 16;

/// Ranges of values, computed on demand and remembered.
#[derive(Default)]
struct Ranges {
    known: HashMap<usize, Range>,
}

impl Ranges {
    /// Is the i1 `condition` true wherever it is computed?
    fn proves(&mut self, condition: Value) -> bool {
        if let Some(value) = pb_support::ir::constant_int(condition) {
            return value != 0;
        }
        let Some(op) = ffi::defining_op(condition) else { return false };
        if !is_named(op, "arith.cmpi") {
            return false;
        }
        let (Some(lhs), Some(rhs)) = (ffi::operand(op, 0), ffi::operand(op, 1)) else { return false };
        let Some(predicate) = op.attribute("predicate").ok().and_then(|a| IntegerAttribute::try_from(a).ok()) else {
            return false;
        };
        let (Some(a), Some(b)) = (self.range(lhs, 0), self.range(rhs, 0)) else { return false };
        // `arith::CmpIPredicate`: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge.
        let unsigned = (6..=9).contains(&predicate.value());
        if unsigned && !(a.non_negative() && b.non_negative()) {
            return false;
        }
        match predicate.value() {
            0 => a.lo == a.hi && b.lo == b.hi && a.lo == b.lo,
            1 => a.hi < b.lo || b.hi < a.lo,
            2 | 6 => a.hi < b.lo,
            3 | 7 => a.hi <= b.lo,
            4 | 8 => a.lo > b.hi,
            5 | 9 => a.lo >= b.hi,
            _ => false,
        }
    }

    /// The range of an integer or index `value` (`None`: not an integer).
    fn range(&mut self, value: Value, depth: usize) -> Option<Range> {
        let whole = type_range(value.r#type())?;
        let key = value.to_raw().ptr as usize;
        if let Some(known) = self.known.get(&key) {
            return Some(*known);
        }
        let computed = if depth >= MAX_DEPTH { whole } else { self.compute(value, depth + 1).unwrap_or(whole) };
        // Never wider than the type: a wrapped result is taken as unknown.
        let range = if computed.lo < whole.lo || computed.hi > whole.hi { whole } else { computed };
        self.known.insert(key, range);
        Some(range)
    }

    fn compute(&mut self, value: Value, depth: usize) -> Option<Range> {
        let Some(op) = ffi::defining_op(value) else { return self.argument_range(value, depth) };
        let operand = |k: usize, ranges: &mut Self| ffi::operand(op, k).and_then(|v| ranges.range(v, depth));
        let name = op_name(op);
        match name.as_str() {
            "arith.constant" => pb_support::ir::constant_int(value).map(|c| Range::point(c as i128)),
            "arith.addi" => {
                let (a, b) = (operand(0, self)?, operand(1, self)?);
                Some(Range { lo: a.lo + b.lo, hi: a.hi + b.hi })
            }
            "arith.subi" => {
                let (a, b) = (operand(0, self)?, operand(1, self)?);
                Some(Range { lo: a.lo - b.hi, hi: a.hi - b.lo })
            }
            "arith.muli" => {
                let (a, b) = (operand(0, self)?, operand(1, self)?);
                let corners = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
                Some(Range { lo: *corners.iter().min()?, hi: *corners.iter().max()? })
            }
            "arith.maxsi" | "arith.minsi" => {
                let (a, b) = (operand(0, self)?, operand(1, self)?);
                Some(if name == "arith.maxsi" {
                    Range { lo: a.lo.max(b.lo), hi: a.hi.max(b.hi) }
                } else {
                    Range { lo: a.lo.min(b.lo), hi: a.hi.min(b.hi) }
                })
            }
            "arith.divsi" | "arith.floordivsi" => {
                let (a, b) = (operand(0, self)?, operand(1, self)?);
                let divisor = (b.lo == b.hi && b.lo > 0).then_some(b.lo)?;
                // Monotone in the dividend for a positive divisor.
                let div = |x: i128| if name == "arith.divsi" { x / divisor } else { x.div_euclid(divisor) };
                Some(Range { lo: div(a.lo), hi: div(a.hi) })
            }
            "arith.remsi" => {
                let (a, b) = (operand(0, self)?, operand(1, self)?);
                let divisor = (b.lo == b.hi && b.lo > 0).then_some(b.lo)?;
                let lo = if a.non_negative() { 0 } else { -(divisor - 1) };
                let hi = if a.hi < 0 { 0 } else { (divisor - 1).min(a.hi) };
                Some(Range { lo, hi })
            }
            // Value-preserving where the value fits the result (checked by
            // `range` against the result type).
            "arith.index_cast" | "arith.extsi" | "arith.trunci" => operand(0, self),
            "arith.index_castui" | "arith.extui" => operand(0, self).filter(|r| r.non_negative()),
            "arith.select" => {
                let (a, b) = (operand(1, self)?, operand(2, self)?);
                Some(a.union(b))
            }
            _ => None,
        }
    }

    /// The range of a block argument: for a `linalg.generic` body, every
    /// element of the tensor its operand reads.
    fn argument_range(&mut self, value: Value, depth: usize) -> Option<Range> {
        let argument = ffi::block_argument(value)?;
        let generic = argument.owner().parent_operation()?;
        if !is_named(generic, "linalg.generic") {
            return None;
        }
        let tensor = ffi::operand(generic, argument.argument_number())?;
        self.elements_range(tensor, depth)
    }

    /// The range of every element of a ranked tensor of integers.
    fn elements_range(&mut self, tensor: Value, depth: usize) -> Option<Range> {
        if depth >= MAX_DEPTH {
            return None;
        }
        let op = ffi::defining_op(tensor)?;
        match op_name(op).as_str() {
            "linalg.generic" => {
                let index = (0..op.result_count()).find(|&k| ffi::result(op, k) == Some(tensor))?;
                let body = op.region(0).ok()?.first_block()?;
                let terminator = body.terminator()?;
                let yielded = ffi::operand(terminator, index)?;
                self.range(yielded, depth + 1)
            }
            "linalg.fill" => ffi::operand(op, 0).and_then(|v| self.range(v, depth + 1)),
            "arith.constant" => {
                let attribute = op.attribute("value").ok()?;
                match ffi::dense_values(attribute, MAX_CONSTANT_ELEMENTS)? {
                    ffi::DenseValues::Int(values) => {
                        let lo = *values.iter().min()? as i128;
                        let hi = *values.iter().max()? as i128;
                        Some(Range { lo, hi })
                    }
                    ffi::DenseValues::Float(_) => None,
                }
            }
            "tensor.expand_shape" | "tensor.collapse_shape" | "tensor.extract_slice" | "tensor.cast" => {
                self.elements_range(ffi::operand(op, 0)?, depth + 1)
            }
            _ => None,
        }
    }
}

/// The signed range of an integer or index type (`None` for other types
/// and for i1, whose values the conditions are).
fn type_range(ty: Type) -> Option<Range> {
    let bits: u32 = if ty.is_index() {
        64
    } else if ty.is_integer() {
        ffi::int_or_float_width(ty)?
    } else {
        return None;
    };
    if !(2..=64).contains(&bits) {
        return None;
    }
    let half = 1i128 << (bits - 1);
    Some(Range { lo: -half, hi: half - 1 })
}
