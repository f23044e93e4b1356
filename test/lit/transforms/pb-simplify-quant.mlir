// RUN: pb-opt %s -split-input-file --pb-simplify-quant | FileCheck %s
// RUN: pb-opt %s -split-input-file --pb-simplify-quant="remove-dead=false" | FileCheck %s --check-prefix=KEEP

// A dequantize/quantize pair with equal parameters through f32 is the identity.
// CHECK-LABEL: func.func @same_params
// CHECK-SAME: (%[[X:.*]]: tensor<4xi8>)
// CHECK-NOT: pbq.
// CHECK: return %[[X]]
// KEEP-LABEL: func.func @same_params
// KEEP-SAME: (%[[X:.*]]: tensor<4xi8>)
// KEEP-NEXT: "pbq.dequantize"
// KEEP-NEXT: return %[[X]]
func.func @same_params(%x: tensor<4xi8>) -> tensor<4xi8> {
  %d = "pbq.dequantize"(%x) {scale = 0.5 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xi8>) -> tensor<4xf32>
  %q = "pbq.quantize"(%d) {scale = 0.5 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xf32>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

// Different parameters through f32 become one requantize.
// CHECK-LABEL: func.func @different_params
// CHECK-SAME: (%[[X:.*]]: tensor<4xi8>)
// CHECK: %[[R:.*]] = "pbq.requantize"(%[[X]]) {in_quant_max = 127 : i64, in_quant_min = -128 : i64, in_scale = 5.000000e-01 : f64, in_zero_point = 3 : i64, out_quant_max = 255 : i64, out_quant_min = 0 : i64, out_scale = 2.500000e-01 : f64, out_zero_point = 128 : i64} : (tensor<4xi8>) -> tensor<4xi8>
// CHECK-NEXT: return %[[R]]
func.func @different_params(%x: tensor<4xi8>) -> tensor<4xi8> {
  %d = "pbq.dequantize"(%x) {scale = 0.5 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xi8>) -> tensor<4xf32>
  %q = "pbq.quantize"(%d) {scale = 0.25 : f64, zero_point = 128 : i64, quant_min = 0 : i64, quant_max = 255 : i64} : (tensor<4xf32>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

// A requantize with equal parameters on both sides is the identity; chains fold to a fixpoint.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: i8)
// CHECK-NOT: pbq.
// CHECK: return %[[X]]
func.func @chain(%x: i8) -> i8 {
  %r = "pbq.requantize"(%x) {in_scale = 0.5 : f64, in_zero_point = 0 : i64, in_quant_min = -128 : i64, in_quant_max = 127 : i64, out_scale = 0.5 : f64, out_zero_point = 0 : i64, out_quant_min = -128 : i64, out_quant_max = 127 : i64} : (i8) -> i8
  %d = "pbq.dequantize"(%r) {scale = 0.5 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (i8) -> f32
  %q = "pbq.quantize"(%d) {scale = 0.5 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (f32) -> i8
  return %q : i8
}

// -----

// Refused: bf16 cannot carry every i8 value exactly, so the pair is not an identity.
// CHECK-LABEL: func.func @bf16_rounds
// CHECK: "pbq.dequantize"
// CHECK: "pbq.quantize"
// CHECK-NOT: "pbq.requantize"
func.func @bf16_rounds(%x: tensor<4xi8>) -> tensor<4xi8> {
  %d = "pbq.dequantize"(%x) {scale = 0.5 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xi8>) -> tensor<4xbf16>
  %q = "pbq.quantize"(%d) {scale = 0.5 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xbf16>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

// Refused: requantize is defined in f32; through f64 the results could differ.
// CHECK-LABEL: func.func @f64_different_params
// CHECK: "pbq.dequantize"
// CHECK: "pbq.quantize"
func.func @f64_different_params(%x: tensor<4xi8>) -> tensor<4xi8> {
  %d = "pbq.dequantize"(%x) {scale = 0.5 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xi8>) -> tensor<4xf64>
  %q = "pbq.quantize"(%d) {scale = 0.3 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xf64>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

// Refused identity: i32 storage does not fit f32's mantissa, so the pair only
// becomes the (bit-exact, by definition) requantize, not the input itself.
// CHECK-LABEL: func.func @i32_storage
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>)
// CHECK: %[[R:.*]] = "pbq.requantize"(%[[X]])
// CHECK: return %[[R]]
func.func @i32_storage(%x: tensor<4xi32>) -> tensor<4xi32> {
  %d = "pbq.dequantize"(%x) {scale = 0.5 : f64, zero_point = 0 : i64, quant_min = -2147483648 : i64, quant_max = 2147483647 : i64} : (tensor<4xi32>) -> tensor<4xf32>
  %q = "pbq.quantize"(%d) {scale = 0.5 : f64, zero_point = 0 : i64, quant_min = -2147483648 : i64, quant_max = 2147483647 : i64} : (tensor<4xf32>) -> tensor<4xi32>
  return %q : tensor<4xi32>
}

// -----

// Refused: a quantize of a float that was not dequantized is real work.
// CHECK-LABEL: func.func @real_quantize
// CHECK: "pbq.quantize"
func.func @real_quantize(%x: tensor<4xf32>) -> tensor<4xi8> {
  %q = "pbq.quantize"(%x) {scale = 0.5 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xf32>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

// Dead pbq ops are erased, transitively; with remove-dead=false they stay.
// CHECK-LABEL: func.func @dead
// CHECK-NOT: pbq.
// CHECK: return
// KEEP-LABEL: func.func @dead
// KEEP: "pbq.quantize"
// KEEP: "pbq.dequantize"
func.func @dead(%x: tensor<4xf32>) {
  %q = "pbq.quantize"(%x) {scale = 0.5 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xf32>) -> tensor<4xi8>
  %d = "pbq.dequantize"(%q) {scale = 0.5 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xi8>) -> tensor<4xf32>
  return
}
