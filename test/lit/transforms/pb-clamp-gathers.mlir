// RUN: pb-opt %s -split-input-file --pb-clamp-gathers | FileCheck %s

// A computed index is clamped into [0, size - 1]; a constant in bounds is not.
// CHECK-LABEL: func.func @gather
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[LOW:.*]] = arith.maxsi %arg1, %[[ZERO]] : index
// CHECK: %[[LAST:.*]] = arith.constant 1 : index
// CHECK: %[[IN:.*]] = arith.minsi %[[LOW]], %[[LAST]] : index
// CHECK: tensor.extract %arg0[%[[IN]], %{{.*}}] : tensor<2x4xf32>
func.func @gather(%t: tensor<2x4xf32>, %i: index) -> f32 {
  %c3 = arith.constant 3 : index
  %v = tensor.extract %t[%i, %c3] : tensor<2x4xf32>
  return %v : f32
}

// -----

// Inside a linalg body (nearest
// upsampling as torch-mlir writes it: floor(i * scale) past the input).
// CHECK-LABEL: func.func @upsample
// CHECK: linalg.generic
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: tensor.extract %arg0[%{{.*}}] : tensor<2xf32>
func.func @upsample(%t: tensor<2xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<6xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %c2 = arith.constant 2 : index
    %s = arith.divui %i, %c2 : index
    %v = tensor.extract %t[%s] : tensor<2xf32>
    linalg.yield %v : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
