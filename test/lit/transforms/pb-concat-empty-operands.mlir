// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-concat-empty-operands))' %s | FileCheck %s
// RUN: pb-opt --pb-pipeline=cpu --pb-stop-after=graph %s | FileCheck %s --check-prefix=GRAPH

// torch-mlir's roll by the whole size: the input and an empty slice, each
// behind a cast to a dynamic size. One operand is left: a cast.
// CHECK-LABEL: func.func @last_empty
// CHECK-NOT: tensor.concat
// CHECK: %[[R:.*]] = tensor.cast %{{.*}} : tensor<?xf32> to tensor<5xf32>
// CHECK: return %[[R]]
// The whole pipeline's graph stage compiles it (it failed with "offset 0
// is out-of-bounds: 5 >= 5" before).
// GRAPH-LABEL: func.func @last_empty
// GRAPH-NEXT: memref.copy %arg0, %arg1 : memref<5xf32> to memref<5xf32>
// GRAPH-NEXT: return
func.func @last_empty(%arg0: tensor<5xf32>) -> tensor<5xf32> {
  %cast = tensor.cast %arg0 : tensor<5xf32> to tensor<?xf32>
  %empty = tensor.extract_slice %arg0[0] [0] [1] : tensor<5xf32> to tensor<0xf32>
  %cast_0 = tensor.cast %empty : tensor<0xf32> to tensor<?xf32>
  %concat = tensor.concat dim(0) %cast, %cast_0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<5xf32>
  return %concat : tensor<5xf32>
}

// Empty along the concatenated dimension (1) only: the two others stay.
// CHECK-LABEL: func.func @middle_empty
// CHECK: tensor.concat dim(1) %arg0, %arg2 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x7xf32>
func.func @middle_empty(%a: tensor<2x3xf32>, %e: tensor<2x0xf32>, %b: tensor<2x4xf32>) -> tensor<2x7xf32> {
  %concat = tensor.concat dim(1) %a, %e, %b : (tensor<2x3xf32>, tensor<2x0xf32>, tensor<2x4xf32>) -> tensor<2x7xf32>
  return %concat : tensor<2x7xf32>
}

// Nothing empty (sizes read through the casts): unchanged.
// CHECK-LABEL: func.func @none_empty
// CHECK: tensor.concat dim(0) %{{.*}}, %arg1 : (tensor<?xf32>, tensor<3xf32>) -> tensor<5xf32>
func.func @none_empty(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<5xf32> {
  %cast = tensor.cast %a : tensor<2xf32> to tensor<?xf32>
  %concat = tensor.concat dim(0) %cast, %b : (tensor<?xf32>, tensor<3xf32>) -> tensor<5xf32>
  return %concat : tensor<5xf32>
}

// All empty: an empty tensor of the result's (static) type.
// CHECK-LABEL: func.func @all_empty
// CHECK: %[[E:.*]] = tensor.empty() : tensor<0x4xf32>
// CHECK: return %[[E]]
func.func @all_empty(%a: tensor<0x4xf32>, %b: tensor<0x4xf32>) -> tensor<0x4xf32> {
  %concat = tensor.concat dim(0) %a, %b : (tensor<0x4xf32>, tensor<0x4xf32>) -> tensor<0x4xf32>
  return %concat : tensor<0x4xf32>
}
