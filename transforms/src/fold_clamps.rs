//! `pb-fold-clamps`: drop a lower bound (a `max` with a constant) that a
//! later lower bound subsumes.
//!
//! A quantized layer with a ReLU requantizes `max(x, 0)`: scaled by a
//! positive constant, rounded, shifted by the output's zero point, clamped
//! to the 8-bit range (`max(., lo)`, `min(., hi)`), converted. When the
//! zero point is at most `lo` (0 for PT2E's u8 activations), the ReLU's
//! `max` changes nothing the clamp would not: every `x <= 0` ends at `lo`
//! either way. Each such `max` is two vector instructions (a compare and a
//! select: torch-mlir writes ReLU and clamps as selects, which keep NaN
//! semantics LLVM will not turn into `vmaxps`) of the dozen a requantizing
//! epilogue runs per 16 sums, in every quantized convolution and linear
//! layer with a ReLU.
//!
//! The rule, for `m1 = max(x, c1)` and a later `m2 = max(y, c2)`: `m1`'s
//! only use starts a chain of single-use ops, each non-decreasing in the
//! value it takes with constant other operands (`mulf` or `divf` by a
//! positive constant, `addf`/`subf` of a constant, `roundeven`, `round`,
//! `floor`, `ceil`, `trunc`; constants may be `arith.truncf` of f64 ones),
//! ending in `m2`'s input `y`; with `f` that
//! chain, `f(c1) <= c2` (computed in f32 as the ops do, and exact: the
//! same in f64, so no rounding, FMA or not, can move it): then for
//! `x <= c1` both programs give `c2`, and for `x > c1` both give `m2(f(x))`.
//! NaN: either `m1` passes it on (`select(cmpf ugt/uge (x, c1), x, c1)`,
//! `arith.maximumf`) or `m2` maps it to `c2` (`select(cmpf ult/ule (y, c2),
//! c2, y)`, `arith.maxnumf`): the results agree. The sign of a zero may
//! differ where `f(x) == c2 == 0`, so `m2`'s value must reach only an
//! integer conversion (`fptosi`/`fptoui`), through other bounds (`min`
//! or `max` with constants): there `-0.0` and `0.0` are both 0.
//!
//! ```mlir
//! %c = arith.cmpf ugt, %x, %zero : f32        // ReLU
//! %r = arith.select %c, %x, %zero : f32
//! %s = arith.mulf %r, %inv_scale : f32
//! %t = math.roundeven %s : f32
//! %l = arith.cmpf ult, %t, %zero : f32        // clamp's lower bound 0
//! %m = arith.select %l, %zero, %t : f32
//! // ...the ReLU's select is dropped: %s = arith.mulf %x, %inv_scale
//! ```

use melior::ir::{operation::{OperationLike, WalkOrder}, OperationRef, Value, ValueLike};
use pb_support::{ffi, ir::is_named, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-fold-clamps",
    summary: "Drop a max with a constant that a later max through non-decreasing ops subsumes (a ReLU before a requantization's clamp)",
    description: "For `m1 = max(x, c1)` (a select on a cmpf, maximumf or maxnumf with a float constant) whose \
only use starts a chain of single-use ops non-decreasing in it (mulf/divf by a positive constant, \
addf/subf of a constant, roundeven, round, floor, ceil, trunc) into the input of `m2 = max(y, c2)` with \
f(c1) <= c2 (exact in f32), replaces m1 by x when the NaN cases agree (m1 passes NaN on, or m2 maps it to c2) \
and m2's value reaches only fptosi/fptoui through other constant bounds (where the sign of a zero does \
not matter). A requantizing epilogue with a ReLU and a zero point at the clamp's lower bound loses the \
ReLU's compare and select.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<FoldClamps>,
};

#[derive(Clone, Default)]
struct FoldClamps;

impl RustPass for FoldClamps {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &[]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let candidates = ffi::collect_ops(root, WalkOrder::PreOrder, |op| bound(op).is_some_and(|b| b.lower));
        for op in candidates {
            // An earlier fold may have changed this one's chain: re-read it.
            let Some(m1) = bound(op).filter(|b| b.lower) else { continue };
            let Some((m2, f_c1)) = follow(m1.result, m1.constant) else { continue };
            let nan_agrees = m1.nan_passes || !m2.nan_passes;
            if f_c1 <= m2.constant as f32 && nan_agrees && reaches_only_integers(m2.result) {
                ffi::replace_all_uses(m1.result, m1.input);
            }
        }
        Ok(())
    }
}

/// A bound: `max(input, constant)` (`lower`) or `min(input, constant)`.
struct Bound<'c, 'a> {
    input: Value<'c, 'a>,
    constant: f64,
    lower: bool,
    /// A NaN input gives NaN (else it gives the constant).
    nan_passes: bool,
    result: Value<'c, 'a>,
}

/// The form of an `arith.cmpf` predicate: (`x > c` rather than `x < c`,
/// ordered). `arith::CmpFPredicate`: `ogt, oge, olt, ole` are 2-5, `ugt,
/// uge, ult, ule` 9-12.
fn predicate(cmp: OperationRef) -> Option<(bool, bool)> {
    use melior::ir::attribute::IntegerAttribute;
    let attribute = cmp.attribute("predicate").ok()?;
    match IntegerAttribute::try_from(attribute).ok()?.value() {
        2 | 3 => Some((true, true)),
        4 | 5 => Some((false, true)),
        9 | 10 => Some((true, false)),
        11 | 12 => Some((false, false)),
        _ => None,
    }
}

/// The ops using `value`, but for compares whose results only choose
/// between `value` and something else (a bound's own compare).
fn consumers<'c, 'a>(value: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    ffi::users(value)
        .into_iter()
        .filter(|user| {
            let own_compare = is_named(*user, "arith.cmpf")
                && user.result(0).is_ok_and(|r| {
                    let selects = ffi::users(r.into());
                    !selects.is_empty()
                        && selects.iter().all(|s| is_named(*s, "arith.select") && (1..3).any(|k| s.operand(k).is_ok_and(|o| o == value)))
                });
            !own_compare
        })
        .collect()
}

/// A float constant (scalar or splat), or the f32 rounding of one
/// (`arith.truncf` of an f64 constant: the torch front's reciprocal of a
/// scale, which folding keeps since it is not exact).
fn constant(value: Value) -> Option<f64> {
    let op = ffi::defining_op(value)?;
    if is_named(op, "arith.truncf") && op.result(0).is_ok_and(|r| r.r#type().to_string() == "f32") {
        return constant(op.operand(0).ok()?).map(|c| c as f32 as f64);
    }
    if !is_named(op, "arith.constant") {
        return None;
    }
    ffi::float_splat(op.attribute("value").ok()?).filter(|c| c.is_finite())
}

/// `op` as a bound with a float constant, if it is one.
fn bound<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<Bound<'c, 'a>> {
    let result: Value = ffi::result(op, 0)?;
    if is_named(op, "arith.maximumf") || is_named(op, "arith.maxnumf") || is_named(op, "arith.minimumf") || is_named(op, "arith.minnumf") {
        let (a, b) = (ffi::operand(op, 0)?, ffi::operand(op, 1)?);
        let (input, c) = match (constant(a), constant(b)) {
            (None, Some(c)) => (a, c),
            (Some(c), None) => (b, c),
            _ => return None,
        };
        let lower = is_named(op, "arith.maximumf") || is_named(op, "arith.maxnumf");
        let nan_passes = is_named(op, "arith.maximumf") || is_named(op, "arith.minimumf");
        return Some(Bound { input, constant: c, lower, nan_passes, result });
    }
    if !is_named(op, "arith.select") {
        return None;
    }
    let cmp = ffi::defining_op(ffi::operand(op, 0)?).filter(|c| is_named(*c, "arith.cmpf"))?;
    let (x, c) = (ffi::operand(cmp, 0)?, ffi::operand(cmp, 1)?);
    let value = constant(c)?;
    if constant(x).is_some() {
        return None;
    }
    let (greater, ordered) = predicate(cmp)?;
    let (on_true, on_false) = (ffi::operand(op, 1)?, ffi::operand(op, 2)?);
    // select(x > c, x, c) and select(x < c, c, x) are max(x, c);
    // select(x < c, x, c) and select(x > c, c, x) are min(x, c).
    let keeps_x_when_true = if on_true == x && on_false == c {
        true
    } else if on_true == c && on_false == x {
        false
    } else {
        return None;
    };
    let lower = greater == keeps_x_when_true;
    // A NaN compares false when ordered, true when unordered: the select
    // then picks x (NaN passes) when that side is x's.
    let nan_passes = ordered != keeps_x_when_true;
    Some(Bound { input: x, constant: value, lower, nan_passes, result })
}

/// From `m1`'s result: the chain of single-use non-decreasing ops to a
/// lower bound taking its value, and the chain's value at `c1` (f32).
fn follow<'c: 'a, 'a>(start: Value<'c, 'a>, c1: f64) -> Option<(Bound<'c, 'a>, f32)> {
    let mut value = start;
    let (mut at, mut exact) = (c1 as f32, c1 as f32 as f64);
    for _ in 0..16 {
        let [user] = consumers(value)[..] else { return None };
        if let Some(m2) = bound(user).filter(|b| b.input == value && b.lower) {
            return Some((m2, at));
        }
        let name = user.name().as_string_ref().as_str().ok()?.to_string();
        // The chain's value at c1, in f32 as the ops compute it and in
        // f64: where they differ a step rounded, and an FMA formed later
        // (pb-fp-contract) could round it otherwise; only exact chains.
        (at, exact) = match name.as_str() {
            "arith.mulf" | "arith.divf" | "arith.addf" | "arith.subf" => {
                let (c, value_first) = constant_operand(user, value)?;
                // Non-decreasing in the value: a positive factor or
                // divisor (the value divided), any addend, a subtrahend.
                let increasing = match name.as_str() {
                    "arith.mulf" => c > 0.0,
                    "arith.divf" => c > 0.0 && value_first,
                    "arith.subf" => value_first,
                    _ => true,
                };
                if !increasing {
                    return None;
                }
                let narrow = c as f32;
                match name.as_str() {
                    "arith.mulf" => (at * narrow, exact * c),
                    "arith.divf" => (at / narrow, exact / c),
                    "arith.addf" => (at + narrow, exact + c),
                    _ => (at - narrow, exact - c),
                }
            }
            "math.roundeven" => (at.round_ties_even(), exact.round_ties_even()),
            "math.round" => (at.round(), exact.round()),
            "math.floor" => (at.floor(), exact.floor()),
            "math.ceil" => (at.ceil(), exact.ceil()),
            "math.trunc" => (at.trunc(), exact.trunc()),
            _ => return None,
        };
        if at as f64 != exact {
            return None;
        }
        value = user.result(0).ok()?.into();
    }
    None
}

/// The constant other operand of a binary `op` taking `value`, and
/// whether `value` is the first operand.
fn constant_operand(op: OperationRef, value: Value) -> Option<(f64, bool)> {
    let (a, b) = (op.operand(0).ok()?, op.operand(1).ok()?);
    if a == value {
        Some((constant(b)?, true))
    } else if b == value {
        Some((constant(a)?, false))
    } else {
        None
    }
}

/// Does `value` reach only `fptosi`/`fptoui`, through bounds with
/// constants?
fn reaches_only_integers(value: Value) -> bool {
    let users = consumers(value);
    !users.is_empty()
        && users.iter().all(|user| {
            if is_named(*user, "arith.fptosi") || is_named(*user, "arith.fptoui") {
                return true;
            }
            match bound(*user) {
                Some(b) if b.input == value => reaches_only_integers(b.result),
                _ => false,
            }
        })
}
