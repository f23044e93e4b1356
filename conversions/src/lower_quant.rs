//! `pb-lower-quant`: lower `pbq` ops to `arith`/`math` (scalars) and
//! elementwise `linalg.generic` (tensors).
//!
//! The expansion is PyTorch's decomposed PT2E arithmetic, operation for
//! operation, so lowered programs match PyTorch bit for bit:
//!
//! ```text
//! quantize(x)   = fpto{s,u}i(minnumf(maxnumf(roundeven(x * (1/scale)) + zp, qmin), qmax))
//! dequantize(q) = ({s,u}itofp(q) - zp) * scale
//! requantize(q) = quantize(dequantize(q) in f32)
//! ```
//! Signed or unsigned conversions follow the quantization range (see
//! `pb_dialects::pbq`). `maxnumf`/`minnumf` send NaN to `quant_min` instead
//! of producing poison. Dynamic tensor dims are supported (`tensor.dim`).
//!
//! ```mlir
//! %q = "pbq.quantize"(%x) {scale = 5.0e-01 : f64, zero_point = 3 : i64, ...} : (tensor<4xf32>) -> tensor<4xi8>
//! // becomes
//! %e = tensor.empty() : tensor<4xi8>
//! %q = linalg.generic {...} ins(%x : tensor<4xf32>) outs(%e : tensor<4xi8>) {
//! ^bb0(%in: f32, %out: i8):
//!   ... arith.mulf, math.roundeven, arith.addf, arith.maxnumf, arith.minnumf, arith.fptosi ...
//!   linalg.yield %v : i8
//! } -> tensor<4xi8>
//! ```

use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationLike, WalkOrder},
        OperationRef, RegionLike, Type, Value, ValueLike,
    },
    IrRewriter,
};
use pb_dialects::{
    pbq::{QuantOp, QuantParams},
    type_utils::{shape_and_element, signless_int_width},
};
use pb_support::{builder::Emitter, ffi, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-lower-quant",
    summary: "Lower pbq quantize/dequantize/requantize to arith, math and linalg.generic",
    description: "Expands each `pbq` op into PyTorch's decomposed PT2E arithmetic: inline \
`arith`/`math` ops for scalars, one elementwise `linalg.generic` for tensors (static or \
dynamic shapes). Run `pb-simplify-quant` first to remove redundant pairs.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<LowerQuant>,
};

#[derive(Clone, Default)]
struct LowerQuant;

impl RustPass for LowerQuant {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["arith", "linalg", "math", "tensor"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let ops = ffi::collect_ops(root, WalkOrder::PreOrder, |op| matches!(QuantOp::read(op), Ok(Some(_))));
        let mut ok = true;
        for op in ops {
            let quant = match QuantOp::read(op).and_then(|q| q.ok_or_else(|| "not a pbq op".to_string())) {
                Ok(quant) => quant,
                Err(message) => {
                    ffi::emit_error(op.location(), &format!("cannot lower: {message}"));
                    ok = false;
                    continue;
                }
            };
            if let Err(message) = quant.check() {
                ffi::emit_error(
                    op.location(),
                    &format!(
                        "cannot lower invalid '{}': {message}",
                        op.name().as_string_ref().as_str().unwrap_or("pbq")
                    ),
                );
                ok = false;
                continue;
            }
            lower(quant);
        }
        PassFailed::unless(ok)
    }
}

/// Replaces one valid pbq op by its expansion.
fn lower(quant: QuantOp) {
    ffi::with_context(quant.op(), |context| lower_in(context, quant))
}

fn lower_in<'c>(context: &'c melior::Context, quant: QuantOp<'c, '_>) {
    let op = quant.op();
    let input: Value = op.operand(0).expect("checked: one operand");
    let result_type = op.result(0).expect("checked: one result").r#type();
    let (shape, in_element) = shape_and_element(input.r#type());
    let (_, out_element) = shape_and_element(result_type);

    let ir_rewriter = IrRewriter::from_op(op);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(op);
    let emitter = Emitter { context, rewriter: &rewriter, location: op.location() };

    let Some(shape) = shape else {
        let value = expand(&emitter, &quant, input, out_element);
        rewriter.replace_op_with_values(op, &[value]);
        return;
    };

    let dynamic_sizes: Vec<Value> = shape
        .iter()
        .enumerate()
        .filter(|(_, size)| size.is_none())
        .map(|(i, _)| emitter.value("tensor.dim", &[input, emitter.index(i as i64)], Type::index(context), &[]))
        .collect();
    let init = emitter.value("tensor.empty", &dynamic_sizes, result_type, &[]);
    let generic = emitter.elementwise_generic(input, init, Some(result_type), shape.len(), (in_element, out_element));
    let block = generic.region(0).expect("one region").first_block().expect("one block");
    let value = expand(&emitter, &quant, block.argument(0).expect("two arguments").into(), out_element);
    emitter.op("linalg.yield", &[value], &[], &[], vec![]);
    rewriter.replace_op_with_operation(op, generic);
}

/// The scalar expansion of `quant` applied to `x`, producing `out` type.
fn expand<'c, 'a>(emitter: &'a Emitter<'c, '_>, quant: &QuantOp, x: Value<'c, 'a>, out: Type<'c>) -> Value<'c, 'a> {
    match quant {
        QuantOp::Quantize { params, .. } => quantize(emitter, params, x, out),
        QuantOp::Dequantize { params, .. } => dequantize(emitter, params, x, out),
        QuantOp::Requantize { input, output, .. } => {
            let real = dequantize(emitter, input, x, Type::float32(emitter.context));
            quantize(emitter, output, real, out)
        }
    }
}

fn quantize<'c, 'a>(
    emitter: &'a Emitter<'c, '_>,
    params: &QuantParams,
    x: Value<'c, 'a>,
    out: Type<'c>,
) -> Value<'c, 'a> {
    let float = x.r#type();
    let bits = signless_int_width(out).expect("checked: integer storage");
    let scaled = emitter.binary("arith.mulf", x, emitter.float(float, 1.0 / params.scale));
    let rounded = emitter.unary("math.roundeven", scaled, float);
    let shifted = emitter.binary("arith.addf", rounded, emitter.float(float, params.zero_point as f64));
    let low = emitter.binary("arith.maxnumf", shifted, emitter.float(float, params.quant_min as f64));
    let clamped = emitter.binary("arith.minnumf", low, emitter.float(float, params.quant_max as f64));
    let cast = if params.is_unsigned(bits) { "arith.fptoui" } else { "arith.fptosi" };
    emitter.unary(cast, clamped, out)
}

fn dequantize<'c, 'a>(
    emitter: &'a Emitter<'c, '_>,
    params: &QuantParams,
    q: Value<'c, 'a>,
    out: Type<'c>,
) -> Value<'c, 'a> {
    let bits = signless_int_width(q.r#type()).expect("checked: integer storage");
    let cast = if params.is_unsigned(bits) { "arith.uitofp" } else { "arith.sitofp" };
    let real = emitter.unary(cast, q, out);
    let centered = emitter.binary("arith.subf", real, emitter.float(out, params.zero_point as f64));
    emitter.binary("arith.mulf", centered, emitter.float(out, params.scale))
}
