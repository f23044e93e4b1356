// RUN: pb-opt %s --mlir-print-debuginfo | FileCheck %s
// RUN: pb-opt %s --pb-legalize-stablehlo | FileCheck %s --check-prefix=LOWERED
// The importer reads StableHLO's pretty text as TensorFlow and JAX print it
// into generic stablehlo ops (the IRDL dialect), keeping locations.

// CHECK-LABEL: func.func private @region_0.1
// CHECK: "stablehlo.maximum"
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<1x5x6x3xf32> loc({{.*}}), %[[W:.*]]: tensor<3x3x3x4xf32> loc({{.*}}), %[[B:.*]]: tensor<4xf32> loc({{.*}}))
// CHECK: %[[R:.*]] = "stablehlo.reshape"(%[[X]]) : (tensor<1x5x6x3xf32>) -> tensor<1x5x6x3xf32> loc(#[[RESHAPE:.*]])
// CHECK: "stablehlo.convolution"(%[[R]], %[[W]]) {batch_group_count = 1 : i64, feature_group_count = 1 : i64, input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 0, 1>, lhs_dilation = array<i64: 1, 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, padding = array<i64: 1, 1, 1, 1>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}
// CHECK: "stablehlo.broadcast_in_dim"(%[[B]]) {broadcast_dimensions = array<i64: 3>}
// CHECK: "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f32>}
// CHECK: "stablehlo.compare"({{.*}}) {compare_type = "FLOAT", comparison_direction = "GT"}
// CHECK: "stablehlo.reduce"({{.*}}) {dimensions = array<i64: 3>, reducer = "maximum"}
// CHECK: "stablehlo.reduce"({{.*}}) {dimensions = array<i64: 3>, reducer = "add"}
// CHECK: "stablehlo.dot_general"({{.*}}) {lhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_batching_dimensions = array<i64>, rhs_contracting_dimensions = array<i64: 0>}
// CHECK: "stablehlo.dot_general"({{.*}}) {lhs_batching_dimensions = array<i64: 0>, lhs_contracting_dimensions = array<i64: 2>, rhs_batching_dimensions = array<i64: 0>, rhs_contracting_dimensions = array<i64: 1>}
// CHECK: "stablehlo.slice"({{.*}}) {limit_indices = array<i64: 2, 30>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 2>}
// CHECK: %[[C1:.*]] = "stablehlo.concatenate"({{.*}}) {dimension = 0 : i64} : (tensor<2x15xf32>, tensor<2x15xf32>) -> tensor<4x15xf32>
// CHECK: "stablehlo.concatenate"(%[[C1]], {{.*}}) {dimension = 0 : i64} : (tensor<4x15xf32>, tensor<2x15xf32>) -> tensor<6x15xf32>
// CHECK: "stablehlo.pad"({{.*}}) {edge_padding_high = array<i64: 0, 2>, edge_padding_low = array<i64: 1, 0>, interior_padding = array<i64: 0, 0>}
// CHECK: "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi32>
// CHECK: call @region_0.1
// CHECK: return
// CHECK: #[[RESHAPE]] = loc(fused<unit>[#{{.*}}, #{{.*}}])
//
// LOWERED-NOT: stablehlo.
#loc1 = loc("XLA_Args")
module @a_inference_f_10__.1 attributes {mhlo.cross_program_prefetches = [], mhlo.is_dynamic = false} {
  func.func private @region_0.1(%arg0: tensor<f32> loc("Softmax"), %arg1: tensor<f32> loc("Softmax")) -> tensor<f32> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<f32> loc(#loc2)
    return %0 : tensor<f32> loc(#loc)
  } loc(#loc)
  func.func @main(%arg0: tensor<1x5x6x3xf32> loc("XLA_Args"), %arg1: tensor<3x3x3x4xf32> loc("XLA_Args"), %arg2: tensor<4xf32> loc("XLA_Args")) -> tensor<1x5x6x4xf32> {
    %0 = stablehlo.reshape %arg0 : (tensor<1x5x6x3xf32>) -> tensor<1x5x6x3xf32> loc(#loc5)
    %1 = stablehlo.convolution(%0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x5x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x5x6x4xf32> loc(#loc6)
    %2 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<4xf32>) -> tensor<1x5x6x4xf32> loc(#loc2)
    %3 = stablehlo.add %1, %2 : tensor<1x5x6x4xf32> loc(#loc2)
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#loc2)
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x5x6x4xf32> loc(#loc2)
    %5 = stablehlo.compare  GT, %3, %4,  FLOAT : (tensor<1x5x6x4xf32>, tensor<1x5x6x4xf32>) -> tensor<1x5x6x4xi1> loc(#loc2)
    %6 = stablehlo.select %5, %3, %4 : tensor<1x5x6x4xi1>, tensor<1x5x6x4xf32> loc(#loc2)
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32> loc(#loc2)
    %7 = stablehlo.reduce(%6 init: %cst_0) applies stablehlo.maximum across dimensions = [3] : (tensor<1x5x6x4xf32>, tensor<f32>) -> tensor<1x5x6xf32> loc(#loc2)
    %8 = stablehlo.reduce(%6 init: %cst) across dimensions = [3] : (tensor<1x5x6x4xf32>, tensor<f32>) -> tensor<1x5x6xf32>
     reducer(%arg3: tensor<f32> loc("r"), %arg4: tensor<f32> loc("r"))  {
      %20 = stablehlo.add %arg3, %arg4 : tensor<f32> loc(#loc2)
      stablehlo.return %20 : tensor<f32> loc(#loc2)
    } loc(#loc2)
    %9 = stablehlo.reshape %8 : (tensor<1x5x6xf32>) -> tensor<5x6xf32> loc(#loc2)
    %w = stablehlo.constant dense<1.000000e+00> : tensor<6x30xf32> loc(#loc2)
    %10 = stablehlo.dot %9, %w, precision = [DEFAULT, DEFAULT] {mhlo.frontend_attributes = {grad_x = "false"}} : (tensor<5x6xf32>, tensor<6x30xf32>) -> tensor<5x30xf32> loc(#loc2)
    %b3 = stablehlo.reshape %10 : (tensor<5x30xf32>) -> tensor<1x5x30xf32> loc(#loc2)
    %w3 = stablehlo.constant dense<2.000000e+00> : tensor<1x30x2xf32> loc(#loc2)
    %11 = stablehlo.dot_general %b3, %w3, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x5x30xf32>, tensor<1x30x2xf32>) -> tensor<1x5x2xf32> loc(#loc2)
    %12 = stablehlo.slice %10 [0:2, 1:30:2] : (tensor<5x30xf32>) -> tensor<2x15xf32> loc(#loc2)
    %13 = stablehlo.concatenate %12, %12, %12, dim = 0 : (tensor<2x15xf32>, tensor<2x15xf32>, tensor<2x15xf32>) -> tensor<6x15xf32> loc(#loc2)
    %14 = stablehlo.pad %13, %cst, low = [1, 0], high = [0, 2], interior = [0, 0] : (tensor<6x15xf32>, tensor<f32>) -> tensor<7x17xf32> loc(#loc2)
    %15 = stablehlo.iota dim = 0 : tensor<4xi32> loc(#loc2)
    %16 = call @region_0.1(%cst, %cst_0) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc(#loc2)
    return %1 : tensor<1x5x6x4xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("Softmax")
#loc3 = loc("Reshape")
#loc4 = loc("ops.py":1221:0)
#loc5 = loc(fused[#loc3, #loc4])
#loc6 = loc("Conv2D"(#loc4))
