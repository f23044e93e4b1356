// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-split-empty-tensors))' %s | FileCheck %s
// RUN: pb-opt --pb-pipeline=cpu --pb-stop-after=graph %s | FileCheck %s --check-prefix=GRAPH

#id = affine_map<(d0) -> (d0)>

// One empty tensor (as CSE leaves it) initializing two matrix products:
// each gets its own (a copy right before one user, the original kept by
// the other).
// CHECK-LABEL: func.func @two_products
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<4x4xf32>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[E0]] : tensor<4x4xf32>)
// CHECK-NOT: tensor.empty
func.func @two_products(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f0 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m1 = linalg.matmul ins(%b, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m0, %m1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// An activation whose input a linalg op computed and nothing reads later
// writes over that input; the second activation's input (%y) is returned
// as well, so it gets an empty tensor. (Which uses keep the original
// empty tensor follows the use list.)
// CHECK-LABEL: func.func @dying_input
// CHECK: %[[X:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<8xf32>) outs(%[[X]] : tensor<8xf32>)
// CHECK: %[[EY:.*]] = tensor.empty() : tensor<8xf32>
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<8xf32>) outs(%[[EY]] : tensor<8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[Y]] : tensor<8xf32>) outs(%{{[0-9]+}} : tensor<8xf32>)
// CHECK-NOT: outs(%[[Y]]
func.func @dying_input(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%arg0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = math.tanh %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%arg0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%y : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = math.exp %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r, %y, %z : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// Layer norm's centring is the last reader of its input (the mean's
// reduction read it before): it overwrites it, and so does the exp after
// it. Bufferized, the whole chain runs in the result's buffer.
// CHECK-LABEL: func.func @last_reader
// CHECK: %[[X:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8xf32>)
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<8xf32>) outs(%{{.*}} : tensor<f32>)
// CHECK: %[[C:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[S]] : tensor<8xf32>, tensor<f32>) outs(%[[X]] : tensor<8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[C]] : tensor<8xf32>) outs(%[[C]] : tensor<8xf32>)
// GRAPH-LABEL: func.func @last_reader
// GRAPH-SAME: (%arg0: memref<8xf32>, %arg1: memref<8xf32>)
// GRAPH: linalg.generic {{.*}} ins(%arg0 : memref<8xf32>) outs(%arg1 : memref<8xf32>)
// GRAPH: linalg.generic {{.*}} ins(%arg1, %{{.*}} : memref<8xf32>, memref<f32>) outs(%arg1 : memref<8xf32>)
#red = affine_map<(d0) -> ()>
func.func @last_reader(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%arg0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %e0 = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["reduction"]} ins(%x : tensor<8xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%in: f32, %a: f32):
    %s = arith.addf %in, %a : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %c = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel"]} ins(%x, %sum : tensor<8xf32>, tensor<f32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %s = arith.subf %in, %m : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%c : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = math.exp %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// An output whose initial value the body reads keeps an empty tensor
// (what reading it means is not this pass's to decide): the second
// generic gets its own, not the dying %x.
// CHECK-LABEL: func.func @reads_output
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[X:.*]] = linalg.generic {{.*}} outs(%[[E1]] : tensor<8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<8xf32>) outs(%[[E0]] : tensor<8xf32>)
func.func @reads_output(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%arg0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// One zero fill (CSE merged them) initializing two matmuls: each gets a
// fill of its own empty tensor, so neither output starts as a copy.
// CHECK-LABEL: func.func @shared_fill
// CHECK-DAG: %[[E1:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-DAG: %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<4x4xf32>)
// CHECK-DAG: %[[E2:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-DAG: %[[F2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E2]] : tensor<4x4xf32>)
// CHECK-DAG: linalg.matmul ins(%arg0, %arg1 : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[F2]] : tensor<4x4xf32>)
// CHECK-DAG: linalg.matmul ins(%arg1, %arg0 : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[F1]] : tensor<4x4xf32>)
// GRAPH-LABEL: func.func @shared_fill
// GRAPH-NOT: memref.copy
// GRAPH: return
func.func @shared_fill(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %x = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.matmul ins(%b, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %x, %y : tensor<4x4xf32>, tensor<4x4xf32>
}

// The same through a reshape: the empty tensor expanded to 1x4x4, then
// filled (a linear layer's accumulator over [batch, tokens, features]),
// initializing two contractions. The chain (empty, expand_shape, fill) is
// repeated for the second, so neither output starts as a copy of the
// other's zeros.
// CHECK-LABEL: func.func @shared_reshaped_fill
// CHECK-DAG: %[[E1:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-DAG: %[[X1:.*]] = tensor.expand_shape %[[E1]] {{\[\[}}0, 1], [2]] output_shape [1, 4, 4]
// CHECK-DAG: %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[X1]] : tensor<1x4x4xf32>)
// CHECK-DAG: %[[E2:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-DAG: %[[X2:.*]] = tensor.expand_shape %[[E2]] {{\[\[}}0, 1], [2]] output_shape [1, 4, 4]
// CHECK-DAG: %[[F2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[X2]] : tensor<1x4x4xf32>)
// CHECK-DAG: linalg.generic {{.*}} ins(%arg0, %arg1 : {{.*}}) outs(%[[F2]] : tensor<1x4x4xf32>)
// CHECK-DAG: linalg.generic {{.*}} ins(%arg0, %arg2 : {{.*}}) outs(%[[F1]] : tensor<1x4x4xf32>)
// GRAPH-LABEL: func.func @shared_reshaped_fill
// GRAPH-NOT: memref.copy
// GRAPH: return
#lhs = affine_map<(b, i, j, k) -> (b, i, k)>
#rhs = affine_map<(b, i, j, k) -> (k, j)>
#out = affine_map<(b, i, j, k) -> (b, i, j)>
func.func @shared_reshaped_fill(%a: tensor<1x4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %x = tensor.expand_shape %e [[0, 1], [2]] output_shape [1, 4, 4] : tensor<4x4xf32> into tensor<1x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%x : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %p = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<1x4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<1x4x4xf32>) {
  ^bb0(%u: f32, %v: f32, %w: f32):
    %m = arith.mulf %u, %v : f32
    %s = arith.addf %w, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4xf32>
  %q = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %c : tensor<1x4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<1x4x4xf32>) {
  ^bb0(%u: f32, %v: f32, %w: f32):
    %m = arith.mulf %u, %v : f32
    %s = arith.addf %w, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4xf32>
  return %p, %q : tensor<1x4x4xf32>, tensor<1x4x4xf32>
}
