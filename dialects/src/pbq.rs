//! `pbq`: per-tensor affine quantization.
//!
//! A quantized value `q` (integer storage) stands for the real number
//! `(q - zero_point) * scale`. The ops follow PyTorch's PT2E decomposed
//! `quantize_per_tensor` / `dequantize_per_tensor` exactly, so imported graphs
//! keep PyTorch's numerics:
//!
//! | op | semantics |
//! |---|---|
//! | `pbq.quantize` (float → int) | `clamp(roundeven(x * (1/scale)) + zero_point, quant_min, quant_max)` |
//! | `pbq.dequantize` (int → float) | `(x - zero_point) * scale` |
//! | `pbq.requantize` (int → int) | `quantize(dequantize(x; in_*); out_*)`, in f32 |
//!
//! Storage is a signless integer of 2 to 32 bits. Whether it is read as signed
//! or unsigned follows from the range: `[0, 255]` on `i8` is unsigned, `[-128,
//! 127]` signed. A quantized value outside `[quant_min, quant_max]` of the op
//! that consumes it is undefined (passes may assume it never happens).
//!
//! Operands and results are either scalars or ranked tensors of the same shape.

use crate::type_utils::{is_quant_float, shape_and_element, signless_int_width};
use melior::{
    ir::{
        attribute::{FloatAttribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Attribute, Identifier, Location, Operation, OperationRef, Type, Value, ValueLike,
    },
    Context,
};
use pb_support::ffi;

pub const QUANTIZE: &str = "pbq.quantize";
pub const DEQUANTIZE: &str = "pbq.dequantize";
pub const REQUANTIZE: &str = "pbq.requantize";

/// The parameters of a per-tensor affine quantization.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuantParams {
    pub scale: f64,
    pub zero_point: i64,
    pub quant_min: i64,
    pub quant_max: i64,
}

impl QuantParams {
    /// Checks the parameters against a storage type of `bits` bits.
    pub fn check(&self, bits: u32) -> Result<(), String> {
        if !(self.scale.is_finite() && self.scale > 0.0) {
            return Err(format!("scale must be finite and positive, got {}", self.scale));
        }
        if !(2..=32).contains(&bits) {
            return Err(format!("storage type must be a signless integer of 2 to 32 bits, got i{bits}"));
        }
        if self.quant_min > self.quant_max {
            return Err(format!("quant_min ({}) is greater than quant_max ({})", self.quant_min, self.quant_max));
        }
        let (signed_min, signed_max, unsigned_max) =
            (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1, (1i64 << bits) - 1);
        let fits = if self.quant_min < 0 {
            self.quant_min >= signed_min && self.quant_max <= signed_max
        } else {
            self.quant_max <= unsigned_max
        };
        if !fits {
            return Err(format!(
                "range [{}, {}] does not fit i{bits} (signed [{signed_min}, {signed_max}] or unsigned [0, {unsigned_max}])",
                self.quant_min, self.quant_max
            ));
        }
        if !(self.quant_min..=self.quant_max).contains(&self.zero_point) {
            return Err(format!(
                "zero_point ({}) is outside [quant_min, quant_max] = [{}, {}]",
                self.zero_point, self.quant_min, self.quant_max
            ));
        }
        Ok(())
    }

    /// True when storage of `bits` bits must be read as unsigned: the range
    /// goes above the signed maximum.
    pub fn is_unsigned(&self, bits: u32) -> bool {
        self.quant_max > (1i64 << (bits - 1)) - 1
    }

    fn attributes<'c>(&self, context: &'c Context, prefix: &str) -> Vec<(Identifier<'c>, Attribute<'c>)> {
        let i64_type: Type = IntegerType::new(context, 64).into();
        let int = |v: i64| IntegerAttribute::new(i64_type, v).into();
        vec![
            (
                Identifier::new(context, &format!("{prefix}scale")),
                FloatAttribute::new(context, Type::float64(context), self.scale).into(),
            ),
            (Identifier::new(context, &format!("{prefix}zero_point")), int(self.zero_point)),
            (Identifier::new(context, &format!("{prefix}quant_min")), int(self.quant_min)),
            (Identifier::new(context, &format!("{prefix}quant_max")), int(self.quant_max)),
        ]
    }

    fn read(op: OperationRef, prefix: &str) -> Result<Self, String> {
        let float = |name: &str| -> Result<f64, String> {
            let attr =
                op.attribute(&format!("{prefix}{name}")).map_err(|_| format!("missing attribute '{prefix}{name}'"))?;
            FloatAttribute::try_from(attr)
                .map(|a| a.value())
                .map_err(|_| format!("attribute '{prefix}{name}' must be a float"))
        };
        let int = |name: &str| -> Result<i64, String> {
            let attr =
                op.attribute(&format!("{prefix}{name}")).map_err(|_| format!("missing attribute '{prefix}{name}'"))?;
            IntegerAttribute::try_from(attr)
                .map(|a| a.value())
                .map_err(|_| format!("attribute '{prefix}{name}' must be an integer"))
        };
        Ok(Self {
            scale: float("scale")?,
            zero_point: int("zero_point")?,
            quant_min: int("quant_min")?,
            quant_max: int("quant_max")?,
        })
    }
}

/// A `pbq` op seen through its parameters.
#[derive(Clone, Copy, Debug)]
pub enum QuantOp<'c, 'a> {
    Quantize { op: OperationRef<'c, 'a>, params: QuantParams },
    Dequantize { op: OperationRef<'c, 'a>, params: QuantParams },
    Requantize { op: OperationRef<'c, 'a>, input: QuantParams, output: QuantParams },
}

impl<'c, 'a> QuantOp<'c, 'a> {
    /// Reads a `pbq` op; `Ok(None)` for any other op, `Err` for a `pbq` op
    /// whose attributes are missing or of the wrong kind.
    pub fn read(op: OperationRef<'c, 'a>) -> Result<Option<Self>, String> {
        let name = op.name();
        Ok(Some(match name.as_string_ref().as_str().unwrap_or("") {
            QUANTIZE => QuantOp::Quantize { op, params: QuantParams::read(op, "")? },
            DEQUANTIZE => QuantOp::Dequantize { op, params: QuantParams::read(op, "")? },
            REQUANTIZE => {
                QuantOp::Requantize { op, input: QuantParams::read(op, "in_")?, output: QuantParams::read(op, "out_")? }
            }
            _ => return Ok(None),
        }))
    }

    pub fn op(&self) -> OperationRef<'c, 'a> {
        match self {
            QuantOp::Quantize { op, .. } | QuantOp::Dequantize { op, .. } | QuantOp::Requantize { op, .. } => *op,
        }
    }

    /// Checks everything IRDL cannot: parameters, element types, shapes.
    pub fn check(&self) -> Result<(), String> {
        let op = self.op();
        let (Ok(input), Ok(output)) = (op.operand(0), op.result(0)) else {
            return Err("expects one operand and one result".into());
        };
        let (in_shape, in_elem) = shape_and_element(input.r#type());
        let (out_shape, out_elem) = shape_and_element(output.r#type());
        if in_shape != out_shape {
            return Err(format!(
                "operand type '{}' and result type '{}' must have the same shape",
                input.r#type(),
                output.r#type()
            ));
        }
        let int_bits = |ty: Type, what: &str| {
            signless_int_width(ty).ok_or_else(|| format!("{what} element type must be a signless integer, got {ty}"))
        };
        let float = |ty: Type, what: &str| {
            if is_quant_float(ty) {
                Ok(())
            } else {
                Err(format!("{what} element type must be f16, bf16, f32 or f64, got {ty}"))
            }
        };
        match self {
            QuantOp::Quantize { params, .. } => {
                float(in_elem, "operand")?;
                params.check(int_bits(out_elem, "result")?)
            }
            QuantOp::Dequantize { params, .. } => {
                float(out_elem, "result")?;
                params.check(int_bits(in_elem, "operand")?)
            }
            QuantOp::Requantize { input, output, .. } => {
                input.check(int_bits(in_elem, "operand")?).map_err(|e| format!("input parameters: {e}"))?;
                output.check(int_bits(out_elem, "result")?).map_err(|e| format!("output parameters: {e}"))
            }
        }
    }
}

/// Checks one `pbq` op, emitting an error at its location if it is invalid.
pub fn verify_op(op: OperationRef) -> bool {
    let result = QuantOp::read(op).and_then(|quant| quant.map_or(Ok(()), |q| q.check()));
    match result {
        Ok(()) => true,
        Err(message) => {
            let name = op.name();
            ffi::emit_error(
                op.location(),
                &format!("'{}' op {message}", name.as_string_ref().as_str().unwrap_or("pbq")),
            );
            false
        }
    }
}

fn build<'c>(
    name: &str,
    input: Value<'c, '_>,
    result_type: Type<'c>,
    attributes: &[(Identifier<'c>, Attribute<'c>)],
    location: Location<'c>,
) -> Operation<'c> {
    OperationBuilder::new(name, location)
        .add_operands(&[input])
        .add_results(&[result_type])
        .add_attributes(attributes)
        .build()
        .expect("pbq op with one operand and one result is well-formed")
}

/// `pbq.quantize`: float `input` to integer `result_type`.
pub fn quantize<'c>(
    context: &'c Context,
    input: Value<'c, '_>,
    result_type: Type<'c>,
    params: QuantParams,
    location: Location<'c>,
) -> Operation<'c> {
    build(QUANTIZE, input, result_type, &params.attributes(context, ""), location)
}

/// `pbq.dequantize`: integer `input` to float `result_type`.
pub fn dequantize<'c>(
    context: &'c Context,
    input: Value<'c, '_>,
    result_type: Type<'c>,
    params: QuantParams,
    location: Location<'c>,
) -> Operation<'c> {
    build(DEQUANTIZE, input, result_type, &params.attributes(context, ""), location)
}

/// `pbq.requantize`: integer `input` (parameters `from`) to integer
/// `result_type` (parameters `to`).
pub fn requantize<'c>(
    context: &'c Context,
    input: Value<'c, '_>,
    result_type: Type<'c>,
    from: QuantParams,
    to: QuantParams,
    location: Location<'c>,
) -> Operation<'c> {
    let mut attributes = from.attributes(context, "in_");
    attributes.extend(to.attributes(context, "out_"));
    build(REQUANTIZE, input, result_type, &attributes, location)
}
