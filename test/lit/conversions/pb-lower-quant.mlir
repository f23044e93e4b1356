// RUN: pb-opt %s -split-input-file --pb-lower-quant | FileCheck %s

// A tensor quantize becomes one elementwise linalg.generic with PyTorch's arithmetic.
// CHECK-LABEL: func.func @quantize_tensor
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xi8>
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<2x3xf32>) outs(%[[E]] : tensor<2x3xi8>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: i8):
// CHECK:   %[[INV:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:   %[[M:.*]] = arith.mulf %[[IN]], %[[INV]] : f32
// CHECK:   %[[R:.*]] = math.roundeven %[[M]] : f32
// CHECK:   %[[ZP:.*]] = arith.constant 3.000000e+00 : f32
// CHECK:   %[[A:.*]] = arith.addf %[[R]], %[[ZP]] : f32
// CHECK:   %[[LO:.*]] = arith.constant -1.280000e+02 : f32
// CHECK:   %[[C1:.*]] = arith.maxnumf %[[A]], %[[LO]] : f32
// CHECK:   %[[HI:.*]] = arith.constant 1.270000e+02 : f32
// CHECK:   %[[C2:.*]] = arith.minnumf %[[C1]], %[[HI]] : f32
// CHECK:   %[[I:.*]] = arith.fptosi %[[C2]] : f32 to i8
// CHECK:   linalg.yield %[[I]] : i8
// CHECK: return %[[G]]
func.func @quantize_tensor(%x: tensor<2x3xf32>) -> tensor<2x3xi8> {
  %q = "pbq.quantize"(%x) {scale = 0.5 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi8>
  return %q : tensor<2x3xi8>
}

// -----

// An unsigned range reads storage with uitofp; dynamic dims come from tensor.dim.
// CHECK-LABEL: func.func @dequantize_unsigned_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xi8>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x4xi8>
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x4xf16>
// CHECK: linalg.generic
// CHECK: arith.uitofp %{{.*}} : i8 to f16
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: linalg.yield %{{.*}} : f16
func.func @dequantize_unsigned_dynamic(%x: tensor<?x4xi8>) -> tensor<?x4xf16> {
  %d = "pbq.dequantize"(%x) {scale = 0.25 : f64, zero_point = 128 : i64, quant_min = 0 : i64, quant_max = 255 : i64} : (tensor<?x4xi8>) -> tensor<?x4xf16>
  return %d : tensor<?x4xf16>
}

// -----

// Scalars are expanded inline; requantize goes through f32.
// CHECK-LABEL: func.func @requantize_scalar
// CHECK-SAME: (%[[X:.*]]: i8)
// CHECK-NOT: linalg.generic
// CHECK: %[[F:.*]] = arith.sitofp %[[X]] : i8 to f32
// CHECK: arith.subf %[[F]]
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: math.roundeven
// CHECK: %[[I:.*]] = arith.fptosi %{{.*}} : f32 to i16
// CHECK: return %[[I]] : i16
func.func @requantize_scalar(%x: i8) -> i16 {
  %r = "pbq.requantize"(%x) {in_scale = 0.5 : f64, in_zero_point = 1 : i64, in_quant_min = -128 : i64, in_quant_max = 127 : i64, out_scale = 0.125 : f64, out_zero_point = 0 : i64, out_quant_min = -1000 : i64, out_quant_max = 1000 : i64} : (i8) -> i16
  return %r : i16
}
