// A PT2E-style quantized chain, as PyTorch's quantizer leaves it: every
// boundary between quantized ops is a dequantize -> quantize pair.
//
//   scripts/main.sh runs:
//   pb-opt --pass-pipeline='builtin.module(func.func(pb-simplify-quant,pb-lower-quant),canonicalize,cse)'
//
// pb-simplify-quant removes the same-parameter pair and turns the
// different-parameter pair into one requantize; pb-lower-quant expands what
// is left into elementwise linalg.generic ops with PyTorch's arithmetic.
func.func @chain(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %q0 = "pbq.quantize"(%x) {scale = 0.05 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<8x16xf32>) -> tensor<8x16xi8>
  %d0 = "pbq.dequantize"(%q0) {scale = 0.05 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<8x16xi8>) -> tensor<8x16xf32>
  %q1 = "pbq.quantize"(%d0) {scale = 0.05 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<8x16xf32>) -> tensor<8x16xi8>
  %d1 = "pbq.dequantize"(%q1) {scale = 0.05 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<8x16xi8>) -> tensor<8x16xf32>
  %q2 = "pbq.quantize"(%d1) {scale = 0.1 : f64, zero_point = 10 : i64, quant_min = 0 : i64, quant_max = 255 : i64} : (tensor<8x16xf32>) -> tensor<8x16xi8>
  %d2 = "pbq.dequantize"(%q2) {scale = 0.1 : f64, zero_point = 10 : i64, quant_min = 0 : i64, quant_max = 255 : i64} : (tensor<8x16xi8>) -> tensor<8x16xf32>
  return %d2 : tensor<8x16xf32>
}
