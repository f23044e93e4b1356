// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-channels-last))' | FileCheck %s

// A quantized convolution as pb-integer-contraction leaves it: an i8 x i8
// -> i32 linalg.generic with a convolution's maps, then its scaling
// epilogue reading a broadcast bias. The convolution's result is stored
// channels-last (its loops renumbered so the output map is the identity
// over n, h, w, f), its 16-channel input read through a channels-last
// copy, and the epilogue's result is channels-last too: the broadcast
// takes no part in the choice (its elements do not depend on the layout)
// and is rebuilt channels-last (broadcast along n, h, w), not read across
// the channel loop. Only the graph's NCHW result is transposed back.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d4)>
// CHECK-DAG: #[[FILTER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>
// CHECK-LABEL: func.func @quantized_conv
// CHECK: %[[COPY:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x16x8x8xi8>) outs(%{{.*}} : tensor<1x8x8x16xi8>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[FILTER]], #{{.*}}], {{.*}} ins(%[[COPY]], %arg1 : tensor<1x8x8x16xi8>, tensor<32x16x3x3xi8>)
// CHECK: arith.muli
// CHECK: -> tensor<1x6x6x32xi32>
// CHECK: %[[BIAS:.*]] = linalg.broadcast ins(%arg2 : tensor<32xf32>) outs(%{{.*}} : tensor<1x6x6x32xf32>) dimensions = [0, 1, 2]
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[SUM]], %[[BIAS]] : tensor<1x6x6x32xi32>, tensor<1x6x6x32xf32>) outs(%{{.*}} : tensor<1x6x6x32xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[Y]] : tensor<1x6x6x32xf32>) outs(%{{.*}} : tensor<1x32x6x6xf32>)
#in = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>
#filter = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @quantized_conv(%x: tensor<1x16x8x8xi8>, %w: tensor<32x16x3x3xi8>, %bias: tensor<32xf32>) -> tensor<1x32x6x6xf32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x32x6x6xi32>
  %zero = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x32x6x6xi32>) -> tensor<1x32x6x6xi32>
  %sum = linalg.generic {indexing_maps = [#in, #filter, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x16x8x8xi8>, tensor<32x16x3x3xi8>) outs(%zero : tensor<1x32x6x6xi32>) {
  ^bb0(%a: i8, %b: i8, %acc: i32):
    %ai = arith.extui %a : i8 to i32
    %bi = arith.extsi %b : i8 to i32
    %p = arith.muli %ai, %bi : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  } -> tensor<1x32x6x6xi32>
  %fe = tensor.empty() : tensor<1x32x6x6xf32>
  %bb = linalg.broadcast ins(%bias : tensor<32xf32>) outs(%fe : tensor<1x32x6x6xf32>) dimensions = [0, 2, 3]
  %out = tensor.empty() : tensor<1x32x6x6xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum, %bb : tensor<1x32x6x6xi32>, tensor<1x32x6x6xf32>) outs(%out : tensor<1x32x6x6xf32>) {
  ^bb0(%s: i32, %b: f32, %o: f32):
    %f = arith.sitofp %s : i32 to f32
    %r = arith.addf %f, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x32x6x6xf32>
  return %y : tensor<1x32x6x6xf32>
}
