//! `pb-simplify-quant`: fold chains of quantization casts.
//!
//! PT2E-quantized graphs are full of `dequantize → quantize` pairs (one per
//! boundary between quantized ops). Each pair costs a full pass over memory
//! in float. This pass rewrites, only where the result is bit-identical:
//!
//! 1. `quantize(dequantize(x; p); p)` → `x` when both use the same parameters
//!    and storage type, and the float type carries the integer exactly
//!    (mantissa ≥ storage bits + 4: f32/f64 for i8 and i16);
//! 2. `quantize(dequantize(x; p1); p2)` → `requantize(x; p1 → p2)` when the
//!    float in between is f32 (requantize is defined as exactly that);
//! 3. `requantize(x; p → p)` → `x` under the same precision condition as (1);
//! 4. with `remove-dead` (default), erases `pbq` ops whose results are unused
//!    (they have no side effects, but MLIR cannot know that of IRDL ops).
//!
//! It refuses every other case: different float types, bf16/f16
//! intermediates that round, i32 storage, and `quantize` of anything that is
//! not a `dequantize`.
//!
//! ```mlir
//! %f = "pbq.dequantize"(%x) {scale = 0.5, zero_point = 0, ...} : (tensor<4xi8>) -> tensor<4xf32>
//! %q = "pbq.quantize"(%f) {scale = 0.25, zero_point = 3, ...} : (tensor<4xf32>) -> tensor<4xi8>
//! // becomes
//! %q = "pbq.requantize"(%x) {in_scale = 0.5, ..., out_scale = 0.25, ...} : (tensor<4xi8>) -> tensor<4xi8>
//! ```

use melior::{
    ir::{
        operation::{OperationLike, WalkOrder},
        OperationRef, Type, TypeLike, ValueLike,
    },
    IrRewriter,
};
use pb_dialects::{
    pbq::{self, QuantOp},
    type_utils::{shape_and_element, signless_int_width},
};
use pb_support::{ffi, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-simplify-quant",
    summary: "Fold dequantize/quantize pairs into requantize or nothing, where bit-exact",
    description: "Rewrites `quantize(dequantize(x))` into `x` (same parameters) or \
`requantize(x)` (different parameters, f32 in between), folds identity requantizes, and \
erases unused `pbq` ops. Every rewrite is bit-exact; other cases are left alone.",
    anchor: "func.func",
    options: &[PassOption {
        name: "remove-dead",
        kind: OptionKind::Bool,
        default: "true",
        help: "Erase pbq ops whose results have no uses",
    }],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(SimplifyQuant { remove_dead: options.bool("remove-dead") })
}

#[derive(Clone)]
struct SimplifyQuant {
    remove_dead: bool,
}

impl RustPass for SimplifyQuant {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["pbq"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        // Each round folds every foldable op it finds; a fold can create a
        // new candidate (a requantize), hence the loop. Bounded by the op count.
        while fold_round(root) {}
        if self.remove_dead {
            while erase_dead_round(root) {}
        }
        Ok(())
    }
}

/// Bits of mantissa (with the implicit one) of a float type, 0 if unknown.
fn mantissa_bits(ty: Type) -> u32 {
    if ty.is_f64() {
        53
    } else if ty.is_f32() {
        24
    } else if ty.is_f16() {
        11
    } else if ty.is_bf16() {
        8
    } else {
        0
    }
}

/// Can a float of `float` type hold every `(q - zero_point) * scale` of
/// `bits`-bit storage precisely enough that quantizing it back is exact?
fn round_trips(float: Type, bits: u32) -> bool {
    mantissa_bits(float) >= bits + 4
}

/// Folds every pbq op that can be folded; false if none could.
///
/// Only the op being folded is erased, so the other collected ops stay valid.
fn fold_round(root: OperationRef) -> bool {
    let ops = ffi::collect_ops(root, WalkOrder::PreOrder, |op| matches!(QuantOp::read(op), Ok(Some(_))));
    let mut changed = false;
    for quant in ops.into_iter().filter_map(|op| QuantOp::read(op).ok().flatten()) {
        // Invalid pbq ops are reported by the dialect verifier; leave them.
        if quant.check().is_ok() {
            changed |= try_fold(quant);
        }
    }
    changed
}

fn try_fold(quant: QuantOp) -> bool {
    ffi::with_context(quant.op(), |context| try_fold_in(context, quant))
}

fn try_fold_in<'c>(context: &'c melior::Context, quant: QuantOp<'c, '_>) -> bool {
    let op = quant.op();
    let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else { return false };
    let ir_rewriter = IrRewriter::from_op(op);
    let rewriter = ir_rewriter.as_rewriter_base();
    match quant {
        QuantOp::Quantize { params: out_params, .. } => {
            let Some(producer) = ffi::defining_op(input) else {
                return false;
            };
            let Ok(Some(QuantOp::Dequantize { params: in_params, .. })) = QuantOp::read(producer) else {
                return false;
            };
            let Ok(source) = producer.operand(0) else { return false };
            let (_, float) = shape_and_element(input.r#type());
            let (_, in_storage) = shape_and_element(source.r#type());
            let bits = signless_int_width(in_storage).unwrap_or(64);
            if in_params == out_params && source.r#type() == result.r#type() && round_trips(float, bits) {
                rewriter.replace_op_with_values(op, &[source]);
                return true;
            }
            if float.is_f32() {
                rewriter.set_insertion_point_before(op);
                let new = rewriter.insert(pbq::requantize(
                    context,
                    source,
                    result.r#type(),
                    in_params,
                    out_params,
                    op.location(),
                ));
                rewriter.replace_op_with_operation(op, new);
                return true;
            }
            false
        }
        QuantOp::Requantize { input: from, output: to, .. } => {
            let (_, storage) = shape_and_element(input.r#type());
            let bits = signless_int_width(storage).unwrap_or(64);
            if from == to && input.r#type() == result.r#type() && round_trips(Type::float32(context), bits) {
                rewriter.replace_op_with_values(op, &[input]);
                return true;
            }
            false
        }
        QuantOp::Dequantize { .. } => false,
    }
}

/// Erases the pbq ops whose results are unused; false if there were none.
/// Erasing one can only make others dead, never revive them, so the whole
/// list can go at once.
fn erase_dead_round(root: OperationRef) -> bool {
    let dead = ffi::collect_ops(root, WalkOrder::PostOrder, |op| {
        matches!(QuantOp::read(op), Ok(Some(_))) && op.results().all(|r| !ffi::has_uses(r))
    });
    for op in &dead {
        IrRewriter::from_op(*op).as_rewriter_base().erase_op(*op);
    }
    !dead.is_empty()
}
