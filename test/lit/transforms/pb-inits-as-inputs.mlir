// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-inits-as-inputs))' | FileCheck %s
// With elementwise fusion (pb-fuse-elementwise) after it, the sum's init stays an input
// of the fused op: no output is written through a broadcast map.
// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-inits-as-inputs,pb-fuse-elementwise))' | FileCheck %s --check-prefix=FUSED

// torch-mlir's sum over a 0-d tensor (from `x.var()` of a 0-d x): no loops,
// the value added to its zero init; the result broadcast by its consumer.
// Fuzz program 0:8546 gave [0, 2 v^2] for [0, 0]: fused, the sum ran once
// per element of the consumer, accumulating into its init.
// CHECK-LABEL: func.func @sum_0d_broadcast
// CHECK: %[[ZERO:.*]] = linalg.fill
// CHECK: %[[E:.*]] = tensor.empty() : tensor<f32>
// CHECK: %[[S:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = []} ins(%arg0, %[[ZERO]] : tensor<f32>, tensor<f32>) outs(%[[E]] : tensor<f32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[INIT:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.addf %[[IN]], %[[INIT]] : f32
// FUSED-LABEL: func.func @sum_0d_broadcast
// FUSED: linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%arg0, %arg1 : tensor<f32>, tensor<2xf32>) outs(%{{.*}} : tensor<2xf32>)
// FUSED-NEXT: ^bb0(%[[X:.*]]: f32, %[[W:.*]]: f32, %{{.*}}: f32):
// FUSED-NEXT: %[[S:.*]] = arith.addf %[[X]], %cst : f32
// FUSED-NEXT: arith.mulf %[[S]], %[[W]] : f32
func.func @sum_0d_broadcast(%x: tensor<f32>, %w: tensor<2xf32>) -> tensor<2xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%x : tensor<f32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<f32>
  %e1 = tensor.empty() : tensor<2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s, %w : tensor<f32>, tensor<2xf32>) outs(%e1 : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// Two outputs, the second's init read: it moves behind the inputs, the
// first output (init unread) stays.
// CHECK-LABEL: func.func @second_output
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg2 : tensor<4xf32>, tensor<4xf32>) outs(%arg1, %[[E]] : tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[INIT:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[T:.*]] = math.tanh %[[IN]] : f32
// CHECK-NEXT: arith.maximumf %[[IN]], %[[INIT]] : f32
func.func @second_output(%x: tensor<4xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%a, %b : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %o1: f32, %o2: f32):
    %t = math.tanh %in : f32
    %m = arith.maximumf %in, %o2 : f32
    linalg.yield %t, %m : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// Left alone: a reduction (its init is the accumulator).
// CHECK-LABEL: func.func @row_sum
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<4x8xf32>) outs(%arg1 : tensor<4xf32>)
func.func @row_sum(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
