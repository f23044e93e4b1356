// RUN: pb-opt %s -split-input-file -verify-diagnostics

// IRDL: an attribute is missing.
func.func @missing_scale(%x: tensor<4xf32>) {
  // expected-error @+1 {{attribute "scale" is expected but not provided}}
  %q = "pbq.quantize"(%x) {zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xf32>) -> tensor<4xi8>
  return
}

// -----

// IRDL: an attribute of the wrong kind.
func.func @float_zero_point(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected base attribute 'builtin.integer' but got 'builtin.float'}}
  %q = "pbq.quantize"(%x) {scale = 1.0 : f64, zero_point = 0.0 : f32, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xf32>) -> tensor<4xi8>
  return
}

// -----

// IRDL: operand count.
func.func @two_operands(%x: tensor<4xf32>) {
  // expected-error @+1 {{op expects exactly 1 operands, but got 2}}
  %q = "pbq.quantize"(%x, %x) {scale = 1.0 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi8>
  return
}

// -----

// IRDL: quantize takes a float or a tensor, not an integer scalar.
func.func @int_input(%x: i32) {
  // expected-error @+1 {{}}
  %q = "pbq.quantize"(%x) {scale = 1.0 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (i32) -> i8
  return
}

// -----

// Semantic check: scale must be positive.
func.func @zero_scale(%x: tensor<4xf32>) {
  // expected-error @+1 {{'pbq.quantize' op scale must be finite and positive, got 0}}
  %q = "pbq.quantize"(%x) {scale = 0.0 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xf32>) -> tensor<4xi8>
  return
}

// -----

// Semantic check: the range must fit the storage type.
func.func @range_too_wide(%x: tensor<4xi8>) {
  // expected-error @+1 {{'pbq.dequantize' op range [-200, 127] does not fit i8}}
  %d = "pbq.dequantize"(%x) {scale = 1.0 : f64, zero_point = 0 : i64, quant_min = -200 : i64, quant_max = 127 : i64} : (tensor<4xi8>) -> tensor<4xf32>
  return
}

// -----

// Semantic check: zero_point inside the range.
func.func @zero_point_outside(%x: tensor<4xf32>) {
  // expected-error @+1 {{zero_point (300) is outside [quant_min, quant_max] = [0, 255]}}
  %q = "pbq.quantize"(%x) {scale = 1.0 : f64, zero_point = 300 : i64, quant_min = 0 : i64, quant_max = 255 : i64} : (tensor<4xf32>) -> tensor<4xi8>
  return
}

// -----

// Semantic check: operand and result shapes agree.
func.func @shape_mismatch(%x: tensor<4xf32>) {
  // expected-error @+1 {{operand type 'tensor<4xf32>' and result type 'tensor<5xi8>' must have the same shape}}
  %q = "pbq.quantize"(%x) {scale = 1.0 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xf32>) -> tensor<5xi8>
  return
}

// -----

// Semantic check: element types (dequantize must produce a float).
func.func @dequantize_to_int(%x: tensor<4xi8>) {
  // expected-error @+1 {{result element type must be f16, bf16, f32 or f64, got i32}}
  %d = "pbq.dequantize"(%x) {scale = 1.0 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xi8>) -> tensor<4xi32>
  return
}

// -----

// Semantic check: requantize names which side is wrong.
func.func @requantize_bad_output(%x: tensor<4xi8>) {
  // expected-error @+1 {{output parameters: quant_min (5) is greater than quant_max (1)}}
  %r = "pbq.requantize"(%x) {in_scale = 1.0 : f64, in_zero_point = 0 : i64, in_quant_min = -128 : i64, in_quant_max = 127 : i64, out_scale = 1.0 : f64, out_zero_point = 0 : i64, out_quant_min = 5 : i64, out_quant_max = 1 : i64} : (tensor<4xi8>) -> tensor<4xi8>
  return
}
