// RUN: pb-opt %s -split-input-file --pb-legalize-stablehlo | FileCheck %s
// RUN: pb-opt %s -split-input-file --pb-legalize-stablehlo --linalg-generalize-named-ops | FileCheck %s --check-prefix=GEN

// pb-legalize-stablehlo lowers dot_general and convolution to the named
// linalg ops upstream's stablehlo-legalize-to-linalg gives (the JAX front's
// path) where the dimension numbers fit one, with the body linalg's own
// region builder would give (the GEN prefix: after generalization); other forms stay
// contraction generics.

// A matrix product (a Dense layer): linalg.matmul on a zero fill.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<3x5xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<3x4xf32>, tensor<4x5xf32>) outs(%[[FILL]] : tensor<3x5xf32>) -> tensor<3x5xf32>
// GEN-LABEL: func.func @matmul
// GEN: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// GEN-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32):
// GEN-NEXT: %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f32
// GEN-NEXT: %[[S:.*]] = arith.addf %[[C]], %[[P]] : f32
// GEN-NEXT: linalg.yield %[[S]]
func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// The rhs stored [n, k] (x @ W^T): linalg.matmul reading it through its
// indexing_maps, no copy.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[BT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_transposed_rhs
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul indexing_maps = [#[[A]], #[[BT]], #[[C]]] ins(%{{.*}}, %{{.*}} : tensor<3x4xf32>, tensor<5x4xf32>)
func.func @matmul_transposed_rhs(%a: tensor<3x4xf32>, %b: tensor<5x4xf32>) -> tensor<3x5xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 1>} : (tensor<3x4xf32>, tensor<5x4xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// The lhs stored [k, m].
// CHECK-DAG: #[[AT:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func.func @matmul_transposed_lhs
// CHECK: linalg.matmul indexing_maps = [#[[AT]], #[[B]], #{{.*}}] ins(%{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<4x5xf32>)
func.func @matmul_transposed_lhs(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 0>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// A Dense layer on a sequence ([b, s, k] x [k, n]): the free dimensions of
// the lhs collapsed into the rows of one linalg.matmul.
// CHECK-LABEL: func.func @dense_on_sequence
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[ROWS]], %{{.*}} : tensor<6x4xf32>, tensor<4x5xf32>) outs(%{{.*}} : tensor<6x5xf32>)
// CHECK: tensor.expand_shape %[[P]] {{\[}}[0, 1], [2]] output_shape [2, 3, 5] : tensor<6x5xf32> into tensor<2x3x5xf32>
func.func @dense_on_sequence(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 2>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// Matrix times vector: linalg.matvec.
// CHECK-LABEL: func.func @matvec
// CHECK: linalg.matvec ins(%arg0, %arg1 : tensor<3x4xf32>, tensor<4xf32>)
func.func @matvec(%a: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Vector times matrix: linalg.vecmat.
// CHECK-LABEL: func.func @vecmat
// CHECK: linalg.vecmat ins(%arg0, %arg1 : tensor<4xf32>, tensor<4x3xf32>)
func.func @vecmat(%a: tensor<4xf32>, %b: tensor<4x3xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 0>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A vector times a matrix stored [n, k]: linalg.matvec with the operands
// swapped.
// CHECK-LABEL: func.func @vector_times_transposed
// CHECK: linalg.matvec ins(%arg1, %arg0 : tensor<3x4xf32>, tensor<4xf32>)
func.func @vector_times_transposed(%a: tensor<4xf32>, %b: tensor<3x4xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 0>, rhs_contracting_dimensions = array<i64: 1>} : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// An inner product: linalg.dot.
// CHECK-LABEL: func.func @inner
// CHECK: linalg.dot ins(%arg0, %arg1 : tensor<4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<f32>)
func.func @inner(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 0>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Attention's q @ k^T (batch [0] x [0], contracting [2] x [2]):
// linalg.batch_matmul reading k through its indexing_maps.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[BT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func.func @batch_matmul_transposed
// CHECK-NOT: linalg.transpose
// CHECK: linalg.batch_matmul indexing_maps = [#[[A]], #[[BT]], #{{.*}}] ins(%arg0, %arg1 : tensor<2x3x4xf32>, tensor<2x5x4xf32>)
func.func @batch_matmul_transposed(%a: tensor<2x3x4xf32>, %b: tensor<2x5x4xf32>) -> tensor<2x3x5xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64: 0>, rhs_batching_dimensions = array<i64: 0>, lhs_contracting_dimensions = array<i64: 2>, rhs_contracting_dimensions = array<i64: 2>} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// The lhs's batch dimension second: a linalg.transpose moves it first.
// CHECK-LABEL: func.func @batch_not_leading
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg0 : tensor<3x2x4xf32>) outs(%{{.*}} : tensor<2x3x4xf32>) permutation = [1, 0, 2]
// CHECK: linalg.batch_matmul ins(%[[T]], %arg1 : tensor<2x3x4xf32>, tensor<2x4x5xf32>)
func.func @batch_not_leading(%a: tensor<3x2x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64: 1>, rhs_batching_dimensions = array<i64: 0>, lhs_contracting_dimensions = array<i64: 2>, rhs_contracting_dimensions = array<i64: 1>} : (tensor<3x2x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// bf16 operands accumulated in f32: each operand extended in the body, as
// linalg's own matmul body does.
// CHECK-LABEL: func.func @mixed_precision
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<3x4xbf16>, tensor<4x5xbf16>) outs(%{{.*}} : tensor<3x5xf32>)
// GEN-LABEL: func.func @mixed_precision
// GEN: ^bb0(%[[A:.*]]: bf16, %[[B:.*]]: bf16, %[[C:.*]]: f32):
// GEN-NEXT: %[[WA:.*]] = arith.extf %[[A]] : bf16 to f32
// GEN-NEXT: %[[WB:.*]] = arith.extf %[[B]] : bf16 to f32
// GEN-NEXT: %[[P:.*]] = arith.mulf %[[WA]], %[[WB]] : f32
// GEN-NEXT: arith.addf %[[C]], %[[P]] : f32
func.func @mixed_precision(%a: tensor<3x4xbf16>, %b: tensor<4x5xbf16>) -> tensor<3x5xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<3x4xbf16>, tensor<4x5xbf16>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// i8 operands accumulated in i32: sign-extended in the body.
// CHECK-LABEL: func.func @integer_accumulation
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: linalg.fill ins(%[[Z]] : i32)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<3x4xi8>, tensor<4x5xi8>) outs(%{{.*}} : tensor<3x5xi32>)
// GEN-LABEL: func.func @integer_accumulation
// GEN: ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %[[C:.*]]: i32):
// GEN-NEXT: %[[WA:.*]] = arith.extsi %[[A]] : i8 to i32
// GEN-NEXT: %[[WB:.*]] = arith.extsi %[[B]] : i8 to i32
// GEN-NEXT: %[[P:.*]] = arith.muli %[[WA]], %[[WB]] : i32
// GEN-NEXT: arith.addi %[[C]], %[[P]] : i32
func.func @integer_accumulation(%a: tensor<3x4xi8>, %b: tensor<4x5xi8>) -> tensor<3x5xi32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<3x4xi8>, tensor<4x5xi8>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}

// -----

// i1 operands stay a generic: linalg's own body would sign-extend them
// (true as -1), StableHLO converts them as 0/1.
// CHECK-LABEL: func.func @boolean_stays_generic
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.extui
func.func @boolean_stays_generic(%a: tensor<3x4xi1>, %b: tensor<4x5xi1>) -> tensor<3x5xi32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<3x4xi1>, tensor<4x5xi1>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}

// -----

// Two contracting dimensions: no named op, the contraction generic.
// CHECK-LABEL: func.func @two_contracting_dims_stay_generic
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]
func.func @two_contracting_dims_stay_generic(%a: tensor<3x4x2xf32>, %b: tensor<4x2x5xf32>) -> tensor<3x5xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1, 2>, rhs_contracting_dimensions = array<i64: 0, 1>} : (tensor<3x4x2xf32>, tensor<4x2x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// PyTorch's layout (NCHW input, OIHW kernel), strided and dilated:
// linalg.conv_2d_nchw_fchw.
// CHECK-LABEL: func.func @conv_nchw
// CHECK-NOT: tensor.pad
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
func.func @conv_nchw(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "stablehlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 1 : i64, input_spatial_dimensions = array<i64: 2, 3>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 0 : i64, kernel_spatial_dimensions = array<i64: 2, 3>, output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, output_spatial_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 2, 2>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

// One spatial dimension, channels last, padded on one side:
// linalg.conv_1d_nwc_wcf.
// CHECK-LABEL: func.func @conv_1d
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 1, 0] high[0, 0, 0]
// CHECK: linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%[[P]], %arg1 : tensor<2x11x3xf32>, tensor<3x3x4xf32>)
func.func @conv_1d(%x: tensor<2x10x3xf32>, %w: tensor<3x3x4xf32>) -> tensor<2x8x4xf32> {
  %0 = "stablehlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 2 : i64, input_spatial_dimensions = array<i64: 1>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 2 : i64, kernel_spatial_dimensions = array<i64: 0>, output_batch_dimension = 0 : i64, output_feature_dimension = 2 : i64, output_spatial_dimensions = array<i64: 1>, window_strides = array<i64: 1>, padding = array<i64: 1, 0>, lhs_dilation = array<i64: 1>, rhs_dilation = array<i64: 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<2x10x3xf32>, tensor<3x3x4xf32>) -> tensor<2x8x4xf32>
  return %0 : tensor<2x8x4xf32>
}

// -----

// A depthwise convolution (Keras' DepthwiseConv2D: one group per input
// channel, kernel [kh, kw, 1, c]): linalg.depthwise_conv_2d_nhwc_hwc on the
// kernel collapsed to [kh, kw, c].
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[K:.*]] = tensor.collapse_shape %arg1 {{\[}}[0], [1], [2, 3]] : tensor<3x3x1x4xf32> into tensor<3x3x4xf32>
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %[[K]] : tensor<1x10x10x4xf32>, tensor<3x3x4xf32>) outs(%{{.*}} : tensor<1x8x8x4xf32>)
func.func @depthwise(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x1x4xf32>) -> tensor<1x8x8x4xf32> {
  %0 = "stablehlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 0, 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 4 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x1x4xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// -----

// Channel multiplier 2: linalg.depthwise_conv_2d_nhwc_hwcm, its result's
// channel and multiplier dimensions collapsed (output feature c * 2 + m).
// CHECK-LABEL: func.func @depthwise_multiplier
// CHECK: %[[K:.*]] = tensor.expand_shape %{{.*}} : tensor<{{.*}}xf32> into tensor<3x3x4x2xf32>
// CHECK: %[[D:.*]] = linalg.depthwise_conv_2d_nhwc_hwcm {{.*}} ins(%arg0, %[[K]] : tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>) outs(%{{.*}} : tensor<1x6x6x4x2xf32>)
// CHECK: tensor.collapse_shape %[[D]] {{\[}}[0], [1], [2], [3, 4]] : tensor<1x6x6x4x2xf32> into tensor<1x6x6x8xf32>
func.func @depthwise_multiplier(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x1x8xf32>) -> tensor<1x6x6x8xf32> {
  %0 = "stablehlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 0, 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 4 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x1x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

// Two feature groups of two input channels: no named op, the generic.
// CHECK: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, (d3 floordiv 3) * 2 + d6)>
// CHECK-LABEL: func.func @grouped_stays_generic
// CHECK-NOT: linalg.conv
// CHECK-NOT: linalg.depthwise
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
func.func @grouped_stays_generic(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x2x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = "stablehlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 0, 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 2 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x2x6xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

// A single-channel filter (a 5-tap blur: one input and one output
// feature) stays a generic, the form pb-unroll-filters unrolls.
// CHECK-LABEL: func.func @single_channel_filter_stays_generic
// CHECK-NOT: linalg.conv
// CHECK: linalg.generic
func.func @single_channel_filter_stays_generic(%x: tensor<3x64x64x1xf32>, %w: tensor<1x5x1x1xf32>) -> tensor<3x64x60x1xf32> {
  %0 = "stablehlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 0, 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<3x64x64x1xf32>, tensor<1x5x1x1xf32>) -> tensor<3x64x60x1xf32>
  return %0 : tensor<3x64x60x1xf32>
}

// -----

// A kernel laid out [o, kh, kw, i] (no named op for it): the generic.
// CHECK-LABEL: func.func @other_layout_stays_generic
// CHECK-NOT: linalg.conv
// CHECK: linalg.generic
func.func @other_layout_stays_generic(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32> {
  %0 = "stablehlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 3 : i64, kernel_output_feature_dimension = 0 : i64, kernel_spatial_dimensions = array<i64: 1, 2>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}
