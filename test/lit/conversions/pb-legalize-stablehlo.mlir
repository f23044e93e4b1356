// RUN: pb-opt %s -split-input-file -verify-diagnostics --pb-legalize-stablehlo | FileCheck %s

// Elementwise ops: one linalg.generic each, of the arith/math op.
// CHECK-LABEL: func.func @elementwise
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK: arith.cmpf ogt
// CHECK: linalg.generic
// CHECK: arith.select
// CHECK: linalg.generic
// CHECK: arith.sitofp {{.*}} : i32 to f32
// CHECK-NOT: stablehlo
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = "stablehlo.add"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "stablehlo.exponential"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "stablehlo.maximum"(%1, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = "stablehlo.compare"(%2, %b) {comparison_direction = "GT", compare_type = "FLOAT"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %4 = "stablehlo.select"(%3, %2, %b) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = "stablehlo.convert"(%i) : (tensor<2x3xi32>) -> tensor<2x3xf32>
  return %4, %5 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// A constant, broadcast (a size-1 dimension read at 0), transpose and iota.
// CHECK-LABEL: func.func @layout
// CHECK: arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"]}
// CHECK: linalg.generic
// CHECK: linalg.index 1
// CHECK: arith.sitofp
func.func @layout(%a: tensor<1x3xf32>) -> (tensor<4x3xf32>, tensor<3x4xf32>, tensor<f32>, tensor<2x5xf32>) {
  %c = "stablehlo.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x3xf32>) -> tensor<4x3xf32>
  %1 = "stablehlo.transpose"(%0) {permutation = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %2 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x5xf32>
  return %0, %1, %c, %2 : tensor<4x3xf32>, tensor<3x4xf32>, tensor<f32>, tensor<2x5xf32>
}

// -----

// Reshapes: collapse, expand, and both when the dimensions do not group.
// CHECK-LABEL: func.func @reshapes
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [2, 3, 4] : tensor<2x12xf32> into tensor<2x3x4xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
func.func @reshapes(%a: tensor<2x3x4xf32>, %b: tensor<2x12xf32>, %c: tensor<2x3xf32>) -> (tensor<6x4xf32>, tensor<2x3x4xf32>, tensor<3x2xf32>) {
  %0 = "stablehlo.reshape"(%a) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = "stablehlo.reshape"(%b) : (tensor<2x12xf32>) -> tensor<2x3x4xf32>
  %2 = "stablehlo.reshape"(%c) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0, %1, %2 : tensor<6x4xf32>, tensor<2x3x4xf32>, tensor<3x2xf32>
}

// -----

// Slice, concatenate and pad: their tensor ops.
// CHECK-LABEL: func.func @slices
// CHECK: tensor.extract_slice %{{.*}}[1, 0] [2, 2] [1, 2] : tensor<4x4xf32> to tensor<2x2xf32>
// CHECK: tensor.concat dim(0)
// CHECK: tensor.pad %{{.*}} low[0, 1] high[1, 2]
// CHECK: tensor.yield
func.func @slices(%a: tensor<4x4xf32>, %p: tensor<f32>) -> (tensor<2x2xf32>, tensor<6x2xf32>, tensor<5x7xf32>) {
  %0 = "stablehlo.slice"(%a) {start_indices = array<i64: 1, 0>, limit_indices = array<i64: 3, 4>, strides = array<i64: 1, 2>} : (tensor<4x4xf32>) -> tensor<2x2xf32>
  %1 = "stablehlo.concatenate"(%0, %0) {dimension = 0 : i64} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  %2 = "stablehlo.concatenate"(%1, %0) {dimension = 0 : i64} : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<6x2xf32>
  %3 = "stablehlo.pad"(%a, %p) {edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 1, 2>, interior_padding = array<i64: 0, 0>} : (tensor<4x4xf32>, tensor<f32>) -> tensor<5x7xf32>
  return %0, %2, %3 : tensor<2x2xf32>, tensor<6x2xf32>, tensor<5x7xf32>
}

// -----

// dot_general with a batch dimension: linalg.batch_matmul on a zero fill
// (more forms in pb-legalize-stablehlo-named.mlir).
// CHECK-LABEL: func.func @batch_matmul
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%[[FILL]] : tensor<2x3x5xf32>)
func.func @batch_matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64: 0>, rhs_batching_dimensions = array<i64: 0>, lhs_contracting_dimensions = array<i64: 2>, rhs_contracting_dimensions = array<i64: 1>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// reduce: a fill of the init value and a reduction generic of the reducer.
// CHECK: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @reduce_max
// CHECK: %[[INIT:.*]] = tensor.extract %{{.*}}[] : tensor<f32>
// CHECK: linalg.fill ins(%[[INIT]] : f32)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[OUT]]], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.maximumf
func.func @reduce_max(%a: tensor<3x4xf32>, %init: tensor<f32>) -> tensor<3xf32> {
  %0 = "stablehlo.reduce"(%a, %init) {dimensions = array<i64: 1>, reducer = "maximum"} : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A strided, padded NHWC/HWIO convolution: tensor.pad, then
// linalg.conv_2d_nhwc_hwcf (generic forms in pb-legalize-stablehlo-named.mlir).
// CHECK-LABEL: func.func @conv
// CHECK: %[[PADDED:.*]] = tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PADDED]], %{{.*}} : tensor<1x10x10x3xf32>, tensor<3x3x3x4xf32>)
func.func @conv(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = "stablehlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 0, 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, window_strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// Refused: interior padding (the op is named, nothing changes).
func.func @interior_padding(%a: tensor<4xf32>, %p: tensor<f32>) -> tensor<7xf32> {
  // expected-error @+1 {{cannot lower 'stablehlo.pad': interior padding is not supported}}
  %0 = "stablehlo.pad"(%a, %p) {edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 0>, interior_padding = array<i64: 1>} : (tensor<4xf32>, tensor<f32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

// Refused: a transposed convolution (lhs dilation).
func.func @lhs_dilation(%x: tensor<1x4x4x1xf32>, %w: tensor<1x1x1x1xf32>) -> tensor<1x7x7x1xf32> {
  // expected-error @+1 {{cannot lower 'stablehlo.convolution': lhs dilation (transposed convolution) is not supported}}
  %0 = "stablehlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 0, 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x7x7x1xf32>
  return %0 : tensor<1x7x7x1xf32>
}

// -----

// A module without stablehlo ops is left alone.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT: arith.addf
func.func @untouched(%a: f32) -> f32 {
  %0 = arith.addf %a, %a : f32
  return %0 : f32
}
