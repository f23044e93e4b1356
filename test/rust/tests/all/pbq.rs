use melior::ir::{
    block::BlockLike,
    operation::OperationLike,
    r#type::{IntegerType, RankedTensorType},
    Block, Location, Type,
};
use pb_dialects::pbq::{self, QuantOp, QuantParams};

const INT8: QuantParams = QuantParams { scale: 0.5, zero_point: 3, quant_min: -128, quant_max: 127 };
const UINT8: QuantParams = QuantParams { scale: 0.1, zero_point: 128, quant_min: 0, quant_max: 255 };

#[test]
fn parameter_checks() {
    assert!(INT8.check(8).is_ok());
    assert!(UINT8.check(8).is_ok());
    assert!(!INT8.is_unsigned(8));
    assert!(UINT8.is_unsigned(8));
    let bad = |p: QuantParams, bits| p.check(bits).unwrap_err();
    assert!(bad(QuantParams { scale: 0.0, ..INT8 }, 8).contains("positive"));
    assert!(bad(QuantParams { scale: f64::NAN, ..INT8 }, 8).contains("finite"));
    assert!(bad(QuantParams { quant_min: -129, ..INT8 }, 8).contains("does not fit i8"));
    assert!(bad(QuantParams { quant_max: 256, ..UINT8 }, 8).contains("does not fit i8"));
    assert!(bad(QuantParams { zero_point: 200, ..INT8 }, 8).contains("outside"));
    assert!(bad(QuantParams { quant_min: 5, quant_max: 1, zero_point: 3, ..INT8 }, 8).contains("greater"));
    assert!(bad(INT8, 64).contains("2 to 32 bits"));
    // Mixed-sign ranges must fit the signed interpretation.
    assert!(bad(QuantParams { quant_min: -1, quant_max: 200, zero_point: 0, ..INT8 }, 8).contains("does not fit"));
}

#[test]
fn builders_make_ops_the_accessors_read_back() {
    let context = pb_dialects::create_context();
    let location = Location::unknown(&context);
    let f32_tensor: Type = RankedTensorType::new(&[4], Type::float32(&context), None).into();
    let i8_tensor: Type = RankedTensorType::new(&[4], IntegerType::new(&context, 8).into(), None).into();
    let block = Block::new(&[(f32_tensor, location)]);
    let x = block.argument(0).unwrap().into();
    let q = block.append_operation(pbq::quantize(&context, x, i8_tensor, INT8, location));
    let r = block.append_operation(pbq::requantize(
        &context,
        q.result(0).unwrap().into(),
        i8_tensor,
        INT8,
        UINT8,
        location,
    ));
    let d = block.append_operation(pbq::dequantize(&context, r.result(0).unwrap().into(), f32_tensor, UINT8, location));
    for op in [q, r, d] {
        assert!(op.verify(), "{op}");
        assert!(QuantOp::read(op).unwrap().unwrap().check().is_ok());
    }
    match QuantOp::read(r).unwrap().unwrap() {
        QuantOp::Requantize { input, output, .. } => assert_eq!((input, output), (INT8, UINT8)),
        other => panic!("read back {other:?}"),
    }
    assert!(pb_dialects::verify(d));
}
