// RUN: pb-opt %s | FileCheck %s
// RUN: pb-opt %s --pb-legalize-stablehlo | FileCheck %s --check-prefix=LOWERED
// What JAX prints for flax's max_pool and avg_pool (reduce_window in generic
// form: it has no custom syntax) and for jnp.square (chlo.square): the
// importer reads both; chlo.square is x * x.

// CHECK-LABEL: func.func @main
// CHECK: "stablehlo.reduce_window"(%{{.*}}, %{{.*}}) {padding = array<i64: 0, 0, 0, 0, 0, 0, 0, 0>, reducer = "maximum", window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x3xf32>, tensor<f32>) -> tensor<1x4x4x3xf32>
// CHECK: "stablehlo.reduce_window"(%{{.*}}, %{{.*}}) {padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>, reducer = "add", window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 1, 1, 1>}
// CHECK: %[[D:.*]] = "stablehlo.subtract"
// CHECK: "stablehlo.multiply"(%[[D]], %[[D]])

// Max pooling: a reduction generic over the output's and the window's
// dimensions, the window's extent from an empty tensor of its shape;
// average pooling reads the input padded with the init value.
// LOWERED: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0 + d4, d1 * 2 + d5, d2 * 2 + d6, d3 + d7)>
// LOWERED: #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d4, d5, d6, d7)>
// LOWERED: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3)>
// LOWERED: #[[PADDED:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0 + d4, d1 + d5, d2 + d6, d3 + d7)>
// LOWERED-LABEL: func.func @main
// LOWERED: %[[WIN:.*]] = tensor.empty() : tensor<1x2x2x1xf32>
// LOWERED: linalg.generic {indexing_maps = [#[[IN]], #[[WINDOW]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%arg0, %[[WIN]] : tensor<1x8x8x3xf32>, tensor<1x2x2x1xf32>)
// LOWERED: arith.maximumf
// LOWERED: tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// LOWERED: linalg.generic {indexing_maps = [#[[PADDED]], #[[WINDOW]], #[[OUT]]], {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x10x10x3xf32>, tensor<1x3x3x1xf32>)
// LOWERED: arith.addf
// LOWERED-NOT: stablehlo.

module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x8x8x3xf32>) -> (tensor<1x4x4x3xf32>, tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<1x8x8x3xf32>, tensor<f32>) -> tensor<1x4x4x3xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = "stablehlo.reduce_window"(%arg0, %cst_0) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %4 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %4 : tensor<f32>
    }) : (tensor<1x8x8x3xf32>, tensor<f32>) -> tensor<1x8x8x3xf32>
    %5 = stablehlo.subtract %arg0, %3 : tensor<1x8x8x3xf32>
    %6 = chlo.square %5 : tensor<1x8x8x3xf32> -> tensor<1x8x8x3xf32>
    return %1, %3, %6 : tensor<1x4x4x3xf32>, tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>
  }
}
