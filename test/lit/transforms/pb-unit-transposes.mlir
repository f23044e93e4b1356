// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-unit-transposes))' | FileCheck %s

// A transpose moving only a dimension of extent 1 (an einsum's leftover,
// 3x1xHxW -> 3xHxWx1): a collapse dropping it and an expand placing it.
// CHECK-LABEL: func.func @unit_only
// CHECK-SAME: (%[[X:.*]]: tensor<3x1x8x8xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2], [3]] : tensor<3x1x8x8xf32> into tensor<3x8x8xf32>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[C]] {{\[}}[0], [1], [2, 3]] output_shape [3, 8, 8, 1] : tensor<3x8x8xf32> into tensor<3x8x8x1xf32>
// CHECK: return %[[E]]
func.func @unit_only(%x: tensor<3x1x8x8xf32>) -> tensor<3x8x8x1xf32> {
  %e = tensor.empty() : tensor<3x8x8x1xf32>
  %t = linalg.transpose ins(%x : tensor<3x1x8x8xf32>) outs(%e : tensor<3x8x8x1xf32>) permutation = [0, 2, 3, 1]
  return %t : tensor<3x8x8x1xf32>
}

// Dimensions of extent > 1 reordered (a real transpose), and a transpose
// of unit dimensions only: left alone.
// CHECK-LABEL: func.func @real
// CHECK: linalg.transpose
// CHECK-LABEL: func.func @all_units
// CHECK: linalg.transpose
func.func @real(%x: tensor<1x4x8xf32>) -> tensor<8x1x4xf32> {
  %e = tensor.empty() : tensor<8x1x4xf32>
  %t = linalg.transpose ins(%x : tensor<1x4x8xf32>) outs(%e : tensor<8x1x4xf32>) permutation = [2, 0, 1]
  return %t : tensor<8x1x4xf32>
}
func.func @all_units(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %e = tensor.empty() : tensor<1x1xf32>
  %t = linalg.transpose ins(%x : tensor<1x1xf32>) outs(%e : tensor<1x1xf32>) permutation = [1, 0]
  return %t : tensor<1x1xf32>
}
