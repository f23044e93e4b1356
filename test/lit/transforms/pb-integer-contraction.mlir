// RUN: pb-opt %s -split-input-file --pb-integer-contraction --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @linear
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xi8>, %[[W:.*]]: tensor<6x8xi8>, %[[S:.*]]: tensor<6xf32>, %[[Z:.*]]: tensor<6xi64>)
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[MA:.*]], #[[MB:.*]], #[[MC:.*]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[W]] : tensor<4x8xi8>, tensor<6x8xi8>) outs(%{{.*}} : tensor<4x6xi32>)
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK: %[[SA:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x8xi8>) outs(%{{.*}} : tensor<4xi32>)
// CHECK: arith.extui
// CHECK: %[[SB:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<6x8xi8>) outs(%{{.*}} : tensor<6xi32>)
// CHECK: arith.extsi
// CHECK: linalg.generic {{.*}} ins(%[[P]], %[[S]], %[[Z]], %[[SA]], %[[SB]] : {{.*}}) outs(%{{.*}} : tensor<4x6xf32>)
// sum - zb * sum(a) - 128 * sum(b) + 8 * 128 * zb, converted and scaled.
// CHECK: %[[ZB:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: arith.muli %[[ZB]]
// CHECK: arith.subi
// CHECK: arith.muli %{{.*}}, %c128_i32
// CHECK: arith.subi
// CHECK: arith.muli %{{.*}}, %c1024_i32
// CHECK: arith.addi
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.mulf %{{.*}}, %cst
// CHECK: arith.mulf
// CHECK-NOT: linalg.matmul
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// u8 activations (zero point 128, per-tensor scale) times s8 weights
// stored [n][k] (per-channel scale and zero point, transposed for the
// matmul): one u8 x s8 product, both operand sums (both zero points may be
// non-zero), scales applied in the epilogue.
func.func @linear(%x: tensor<4x8xi8>, %w: tensor<6x8xi8>, %s: tensor<6xf32>, %z: tensor<6xi64>) -> tensor<4x6xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xi8>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%q: i8, %o: f32):
    %c128 = arith.constant 128 : i64
    %0 = arith.extui %q : i8 to i64
    %1 = arith.subi %0, %c128 : i64
    %2 = arith.sitofp %1 : i64 to f32
    %sc = arith.constant 0.5 : f32
    %3 = arith.mulf %2, %sc : f32
    linalg.yield %3 : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<6x8xf32>
  %b = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %s, %z : tensor<6x8xi8>, tensor<6xf32>, tensor<6xi64>) outs(%e1 : tensor<6x8xf32>) {
  ^bb0(%q: i8, %sc: f32, %zp: i64, %o: f32):
    %0 = arith.extsi %q : i8 to i64
    %1 = arith.subi %0, %zp : i64
    %2 = arith.sitofp %1 : i64 to f32
    %3 = arith.mulf %2, %sc : f32
    linalg.yield %3 : f32
  } -> tensor<6x8xf32>
  %e2 = tensor.empty() : tensor<8x6xf32>
  %t = linalg.transpose ins(%b : tensor<6x8xf32>) outs(%e2 : tensor<8x6xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<4x6xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %c = linalg.matmul ins(%a, %t : tensor<4x8xf32>, tensor<8x6xf32>) outs(%init : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %c : tensor<4x6xf32>
}

// -----

// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xi8>, %[[W:.*]]: tensor<3x2x3x3xi8>, %[[BIAS:.*]]: tensor<1x3x4x4xf32>)
// CHECK: %[[PAD:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %c3_i8 : i8
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[PAD]], %[[W]] : tensor<1x2x6x6xi8>, tensor<3x2x3x3xi8>) outs(%{{.*}} : tensor<1x3x4x4xi32>)
// Only the weights' sum: their zero point is 0.
// CHECK: %[[SB:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<3x2x3x3xi8>) outs(%{{.*}} : tensor<3xi32>)
// CHECK-NOT: tensor<1x4x4xi32>
// CHECK: linalg.generic {{.*}} ins(%[[P]], %[[BIAS]], %[[SB]] : {{.*}}) outs(%{{.*}} : tensor<1x3x4x4xf32>)
// CHECK: arith.sitofp
// 0.25 * 0.5
// CHECK: arith.mulf %{{.*}}, %cst{{.*}} : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// A padded NCHW convolution of u8 activations by s8 weights with a zero
// zero point (symmetric): the integers are padded with the activations'
// zero point, only the weights' sum is needed, the bias in the init stays.
func.func @conv(%x: tensor<1x2x4x4xi8>, %w: tensor<3x2x3x3xi8>, %bias: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %e0 = tensor.empty() : tensor<1x2x4x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x2x4x4xi8>) outs(%e0 : tensor<1x2x4x4xf32>) {
  ^bb0(%q: i8, %o: f32):
    %c3 = arith.constant 3 : i64
    %0 = arith.extui %q : i8 to i64
    %1 = arith.subi %0, %c3 : i64
    %2 = arith.sitofp %1 : i64 to f32
    %sc = arith.constant 0.25 : f32
    %3 = arith.mulf %2, %sc : f32
    linalg.yield %3 : f32
  } -> tensor<1x2x4x4xf32>
  %e1 = tensor.empty() : tensor<3x2x3x3xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(f, c, h, w) -> (f, c, h, w)>, affine_map<(f, c, h, w) -> (f, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%w : tensor<3x2x3x3xi8>) outs(%e1 : tensor<3x2x3x3xf32>) {
  ^bb0(%q: i8, %o: f32):
    %2 = arith.sitofp %q : i8 to f32
    %sc = arith.constant 0.5 : f32
    %3 = arith.mulf %2, %sc : f32
    linalg.yield %3 : f32
  } -> tensor<3x2x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %a low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %b : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%bias : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %c : tensor<1x3x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @per_k_scale
// CHECK: linalg.matmul
// CHECK-NOT: i32
// A scale that varies along the reduction (per input channel) does not
// factor out of the sum: left as it is.
func.func @per_k_scale(%x: tensor<4x8xi8>, %w: tensor<8x6xf32>, %s: tensor<8xf32>, %init: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<4x8xi8>, tensor<8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%q: i8, %sc: f32, %o: f32):
    %2 = arith.sitofp %q : i8 to f32
    %3 = arith.mulf %2, %sc : f32
    linalg.yield %3 : f32
  } -> tensor<4x8xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x6xf32>) outs(%init : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %c : tensor<4x6xf32>
}

// -----

// The activations reach the product through a reshape (a linear layer on
// [batch, tokens, features] collapses them to rows): the integers are
// read through it, unit dimensions at 0.
// CHECK-LABEL: func.func @linear3
// CHECK: linalg.generic {indexing_maps = [#[[MA3:.*]], #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<1x4x8xi8>, tensor<6x8xi8>)
// CHECK: arith.muli
// CHECK-NOT: linalg.matmul
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// u8 activations (zero point 128, per-tensor scale) times s8 weights
// stored [n][k] (per-channel scale and zero point, transposed for the
// matmul): one u8 x s8 product, both operand sums (both zero points may be
// non-zero), scales applied in the epilogue.
func.func @linear3(%x: tensor<1x4x8xi8>, %w: tensor<6x8xi8>, %s: tensor<6xf32>, %z: tensor<6xi64>) -> tensor<4x6xf32> {
  %e0 = tensor.empty() : tensor<1x4x8xf32>
  %a3 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x8xi8>) outs(%e0 : tensor<1x4x8xf32>) {
  ^bb0(%q: i8, %o: f32):
    %c128 = arith.constant 128 : i64
    %0 = arith.extui %q : i8 to i64
    %1 = arith.subi %0, %c128 : i64
    %2 = arith.sitofp %1 : i64 to f32
    %sc = arith.constant 0.5 : f32
    %3 = arith.mulf %2, %sc : f32
    linalg.yield %3 : f32
  } -> tensor<1x4x8xf32>
  %a = tensor.collapse_shape %a3 [[0, 1], [2]] : tensor<1x4x8xf32> into tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<6x8xf32>
  %b = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %s, %z : tensor<6x8xi8>, tensor<6xf32>, tensor<6xi64>) outs(%e1 : tensor<6x8xf32>) {
  ^bb0(%q: i8, %sc: f32, %zp: i64, %o: f32):
    %0 = arith.extsi %q : i8 to i64
    %1 = arith.subi %0, %zp : i64
    %2 = arith.sitofp %1 : i64 to f32
    %3 = arith.mulf %2, %sc : f32
    linalg.yield %3 : f32
  } -> tensor<6x8xf32>
  %e2 = tensor.empty() : tensor<8x6xf32>
  %t = linalg.transpose ins(%b : tensor<6x8xf32>) outs(%e2 : tensor<8x6xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<4x6xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %c = linalg.matmul ins(%a, %t : tensor<4x8xf32>, tensor<8x6xf32>) outs(%init : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %c : tensor<4x6xf32>
}
// -----

// A linear layer on `[batch, tokens, features]` activations that PyTorch
// does not flatten (they come from a transpose): torch-mlir multiplies by
// the weight broadcast over the batch. The broadcast only moves elements:
// the integer product reads the stored weight through it.
// CHECK-LABEL: func.func @broadcast_weight
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<2x4x8xi8>, tensor<6x8xi8>)
// CHECK: arith.muli
// CHECK-NOT: linalg.batch_matmul
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#batch = affine_map<(d0, d1, d2) -> (d1, d2)>
func.func @broadcast_weight(%x: tensor<2x4x8xi8>, %w: tensor<6x8xi8>, %s: tensor<6xf32>, %z: tensor<6xi64>) -> tensor<2x4x6xf32> {
  %e0 = tensor.empty() : tensor<2x4x8xf32>
  %a = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x4x8xi8>) outs(%e0 : tensor<2x4x8xf32>) {
  ^bb0(%q: i8, %o: f32):
    %c128 = arith.constant 128 : i64
    %0 = arith.extui %q : i8 to i64
    %1 = arith.subi %0, %c128 : i64
    %2 = arith.sitofp %1 : i64 to f32
    %sc = arith.constant 0.5 : f32
    %3 = arith.mulf %2, %sc : f32
    linalg.yield %3 : f32
  } -> tensor<2x4x8xf32>
  %e1 = tensor.empty() : tensor<6x8xf32>
  %b = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %s, %z : tensor<6x8xi8>, tensor<6xf32>, tensor<6xi64>) outs(%e1 : tensor<6x8xf32>) {
  ^bb0(%q: i8, %sc: f32, %zp: i64, %o: f32):
    %0 = arith.extsi %q : i8 to i64
    %1 = arith.subi %0, %zp : i64
    %2 = arith.sitofp %1 : i64 to f32
    %3 = arith.mulf %2, %sc : f32
    linalg.yield %3 : f32
  } -> tensor<6x8xf32>
  %e2 = tensor.empty() : tensor<8x6xf32>
  %t = linalg.transpose ins(%b : tensor<6x8xf32>) outs(%e2 : tensor<8x6xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<2x8x6xf32>
  %bt = linalg.generic {indexing_maps = [#batch, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t : tensor<8x6xf32>) outs(%e4 : tensor<2x8x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<2x8x6xf32>
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<2x4x6xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %c = linalg.batch_matmul ins(%a, %bt : tensor<2x4x8xf32>, tensor<2x8x6xf32>) outs(%init : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  return %c : tensor<2x4x6xf32>
}
