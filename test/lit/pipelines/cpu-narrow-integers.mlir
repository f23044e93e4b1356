// torch-mlir dequantizes an 8-bit value by subtracting its zero point in
// i64. The graph stage narrows integer arithmetic to i32 where the value
// ranges allow it (arith-int-range-narrowing): the vector code then works
// on 16 lanes of i32 rather than 8 of i64, and converts from i32.
// RUN: pb-opt %s --pb-pipeline=cpu --pb-stop-after=graph | FileCheck %s
// CHECK-LABEL: func.func @dequantize
// CHECK: linalg.generic
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: arith.subi %{{.*}} : i32
// CHECK-NOT: arith.subi %{{.*}} : i64
// CHECK: linalg.yield
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @dequantize(%q: tensor<64x64xi8>) -> tensor<64x64xf32> {
  %zp = arith.constant 127 : i64
  %scale = arith.constant 0.05 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%q : tensor<64x64xi8>) outs(%empty : tensor<64x64xf32>) {
  ^bb0(%in: i8, %out: f32):
    %e = arith.extui %in : i8 to i64
    %d = arith.subi %e, %zp : i64
    %f = arith.sitofp %d : i64 to f32
    %m = arith.mulf %f, %scale : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
