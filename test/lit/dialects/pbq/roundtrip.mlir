// RUN: pb-opt %s | pb-opt | FileCheck %s
// The IRDL file also loads into upstream mlir-opt, so other MLIR tools can read pbq IR.
// RUN: mlir-opt --irdl-file=%irdl_dir/pbq.irdl.mlir %s | FileCheck %s

// Tensors, signed storage.
// CHECK-LABEL: func.func @tensor_signed
// CHECK: %[[Q:.*]] = "pbq.quantize"(%{{.*}}) {quant_max = 127 : i64, quant_min = -128 : i64, scale = 5.000000e-01 : f64, zero_point = 3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi8>
// CHECK: "pbq.dequantize"(%[[Q]]) {quant_max = 127 : i64, quant_min = -128 : i64, scale = 5.000000e-01 : f64, zero_point = 3 : i64} : (tensor<2x3xi8>) -> tensor<2x3xf32>
func.func @tensor_signed(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %q = "pbq.quantize"(%x) {scale = 0.5 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi8>
  %d = "pbq.dequantize"(%q) {scale = 0.5 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<2x3xi8>) -> tensor<2x3xf32>
  return %d : tensor<2x3xf32>
}

// Scalars, unsigned range on i8, dynamic shapes, requantize to i16.
// CHECK-LABEL: func.func @scalar_and_dynamic
// CHECK: "pbq.quantize"(%{{.*}}) {{.*}} : (bf16) -> i8
// CHECK: "pbq.requantize"(%{{.*}}) {in_quant_max = 127 : i64, in_quant_min = -128 : i64, in_scale = 2.500000e-01 : f64, in_zero_point = 0 : i64, out_quant_max = 1000 : i64, out_quant_min = -1000 : i64, out_scale = 1.250000e-01 : f64, out_zero_point = 0 : i64} : (tensor<?x4xi8>) -> tensor<?x4xi16>
func.func @scalar_and_dynamic(%s: bf16, %t: tensor<?x4xi8>) -> (i8, tensor<?x4xi16>) {
  %q = "pbq.quantize"(%s) {scale = 0.1 : f64, zero_point = 128 : i64, quant_min = 0 : i64, quant_max = 255 : i64} : (bf16) -> i8
  %r = "pbq.requantize"(%t) {in_scale = 0.25 : f64, in_zero_point = 0 : i64, in_quant_min = -128 : i64, in_quant_max = 127 : i64, out_scale = 0.125 : f64, out_zero_point = 0 : i64, out_quant_min = -1000 : i64, out_quant_max = 1000 : i64} : (tensor<?x4xi8>) -> tensor<?x4xi16>
  return %q, %r : i8, tensor<?x4xi16>
}
