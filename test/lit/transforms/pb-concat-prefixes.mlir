// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-concat-prefixes))' %s | FileCheck %s
// RUN: pb-opt --pb-pipeline=cpu --pb-stop-after=graph %s | FileCheck %s --check-prefix=GRAPH

// A dense block: each concatenation extends the one before it. One buffer
// of the longest; each piece inserted once, right after it is computed;
// the shorter concatenation is a leading slice of the update completing it.
// CHECK-LABEL: func.func @dense_block
// CHECK-NOT: tensor.concat
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x8x2x2xf32>
// CHECK: %[[D0:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0, 0, 0] [1, 4, 2, 2] [1, 1, 1, 1]
// CHECK: %[[X1:.*]] = arith.addf %arg1, %arg1
// CHECK: %[[D1:.*]] = tensor.insert_slice %[[X1]] into %[[D0]][0, 4, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1]
// CHECK: %[[C1:.*]] = tensor.extract_slice %[[D1]][0, 0, 0, 0] [1, 6, 2, 2] [1, 1, 1, 1] : tensor<1x8x2x2xf32> to tensor<1x6x2x2xf32>
// CHECK: %[[S:.*]] = tensor.extract_slice %[[C1]]
// CHECK: %[[X2:.*]] = arith.mulf %[[S]], %[[S]]
// CHECK: %[[D2:.*]] = tensor.insert_slice %[[X2]] into %[[D1]][0, 6, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1]
// CHECK: return %[[D2]]
// Bufferized: one allocation of the longest result, no second one for the
// shorter concatenation, each piece copied into its place once.
// GRAPH-LABEL: func.func @dense_block
// GRAPH-NOT: memref.alloc() {{.*}} : memref<1x6x2x2xf32>
// GRAPH-COUNT-3: memref.copy
// GRAPH-NOT: memref.copy
// GRAPH: return
func.func @dense_block(%x0: tensor<1x4x2x2xf32>, %w: tensor<1x2x2x2xf32>) -> tensor<1x8x2x2xf32> {
  %x1 = arith.addf %w, %w : tensor<1x2x2x2xf32>
  %c1 = tensor.concat dim(1) %x0, %x1 : (tensor<1x4x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x6x2x2xf32>
  %s = tensor.extract_slice %c1[0, 0, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1] : tensor<1x6x2x2xf32> to tensor<1x2x2x2xf32>
  %x2 = arith.mulf %s, %s : tensor<1x2x2x2xf32>
  %c2 = tensor.concat dim(1) %x0, %x1, %x2 : (tensor<1x4x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x8x2x2xf32>
  return %c2 : tensor<1x8x2x2xf32>
}

// A piece defined before the previous one: its update waits for both.
// CHECK-LABEL: func.func @later_first
// CHECK: %[[B:.*]] = arith.mulf %arg1, %arg1
// CHECK: %[[A:.*]] = arith.addf %arg0, %arg0
// CHECK: %[[D0:.*]] = tensor.insert_slice %[[A]] into
// CHECK: %[[D1:.*]] = tensor.insert_slice %[[B]] into %[[D0]][3] [2] [1]
// CHECK: return %[[D1]]
func.func @later_first(%a: tensor<3xf32>, %b: tensor<2xf32>) -> tensor<5xf32> {
  %y = arith.mulf %b, %b : tensor<2xf32>
  %x = arith.addf %a, %a : tensor<3xf32>
  %c = tensor.concat dim(0) %x, %y : (tensor<3xf32>, tensor<2xf32>) -> tensor<5xf32>
  return %c : tensor<5xf32>
}

// Two concatenations that share a first operand but branch (neither list
// is a prefix of the other): left alone.
// CHECK-LABEL: func.func @branching
// CHECK-COUNT-2: tensor.concat
func.func @branching(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %x = tensor.concat dim(0) %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  %y = tensor.concat dim(0) %a, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %x, %y : tensor<4xf32>, tensor<4xf32>
}
