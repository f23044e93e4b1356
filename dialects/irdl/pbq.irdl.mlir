// The `pbq` dialect: per-tensor affine quantization, as in PyTorch's PT2E
// decomposed ops (quantize_per_tensor / dequantize_per_tensor).
//
// IRDL checks operand/result counts, that values are tensors or scalars of
// the right family, and that attributes are present with the right base kind.
// What IRDL cannot express (scale > 0, ranges that fit the storage type,
// shapes that agree) is checked by `pb_dialects::pbq::verify` (Rust), which
// pb-opt and the compile driver run after parsing. Documented in
// docs/dialects/pbq.md.
irdl.dialect @pbq {
  // %float: a float scalar or a tensor; %int: an integer scalar or a tensor.
  // Every operand, result and attribute gets its own constraint value: IRDL
  // requires all uses of one constraint value to bind the same type/value.

  // float -> int: clamp(roundeven(x * (1 / scale)) + zero_point, quant_min, quant_max)
  irdl.operation @quantize {
    %tensor = irdl.base "!builtin.tensor"
    %f16 = irdl.is f16
    %bf16 = irdl.is bf16
    %f32 = irdl.is f32
    %f64 = irdl.is f64
    %float = irdl.any_of(%tensor, %f16, %bf16, %f32, %f64)
    %tensor2 = irdl.base "!builtin.tensor"
    %integer = irdl.base "!builtin.integer"
    %int = irdl.any_of(%tensor2, %integer)
    %scale = irdl.base "#builtin.float"
    %zero_point = irdl.base "#builtin.integer"
    %quant_min = irdl.base "#builtin.integer"
    %quant_max = irdl.base "#builtin.integer"
    irdl.operands(input: %float)
    irdl.results(output: %int)
    irdl.attributes {
      "scale" = %scale,
      "zero_point" = %zero_point,
      "quant_min" = %quant_min,
      "quant_max" = %quant_max
    }
  }

  // int -> float: (x - zero_point) * scale
  irdl.operation @dequantize {
    %tensor = irdl.base "!builtin.tensor"
    %integer = irdl.base "!builtin.integer"
    %int = irdl.any_of(%tensor, %integer)
    %tensor2 = irdl.base "!builtin.tensor"
    %f16 = irdl.is f16
    %bf16 = irdl.is bf16
    %f32 = irdl.is f32
    %f64 = irdl.is f64
    %float = irdl.any_of(%tensor2, %f16, %bf16, %f32, %f64)
    %scale = irdl.base "#builtin.float"
    %zero_point = irdl.base "#builtin.integer"
    %quant_min = irdl.base "#builtin.integer"
    %quant_max = irdl.base "#builtin.integer"
    irdl.operands(input: %int)
    irdl.results(output: %float)
    irdl.attributes {
      "scale" = %scale,
      "zero_point" = %zero_point,
      "quant_min" = %quant_min,
      "quant_max" = %quant_max
    }
  }

  // int -> int: quantize(dequantize(x; in_*); out_*), computed in f32.
  irdl.operation @requantize {
    %tensor = irdl.base "!builtin.tensor"
    %integer = irdl.base "!builtin.integer"
    %int = irdl.any_of(%tensor, %integer)
    %tensor2 = irdl.base "!builtin.tensor"
    %integer2 = irdl.base "!builtin.integer"
    %int2 = irdl.any_of(%tensor2, %integer2)
    %in_scale = irdl.base "#builtin.float"
    %in_zero_point = irdl.base "#builtin.integer"
    %in_quant_min = irdl.base "#builtin.integer"
    %in_quant_max = irdl.base "#builtin.integer"
    %out_scale = irdl.base "#builtin.float"
    %out_zero_point = irdl.base "#builtin.integer"
    %out_quant_min = irdl.base "#builtin.integer"
    %out_quant_max = irdl.base "#builtin.integer"
    irdl.operands(input: %int)
    irdl.results(output: %int2)
    irdl.attributes {
      "in_scale" = %in_scale,
      "in_zero_point" = %in_zero_point,
      "in_quant_min" = %in_quant_min,
      "in_quant_max" = %in_quant_max,
      "out_scale" = %out_scale,
      "out_zero_point" = %out_zero_point,
      "out_quant_min" = %out_quant_min,
      "out_quant_max" = %out_quant_max
    }
  }
}
