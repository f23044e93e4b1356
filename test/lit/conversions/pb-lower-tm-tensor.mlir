// RUN: pb-opt %s -split-input-file --allow-unregistered-dialect --pb-lower-tm-tensor -verify-diagnostics | FileCheck %s

// A scatter becomes a loop nest over the updates carrying the target tensor;
// each index is made non-negative and bounds-checked before the region's
// combination is inserted. Execution: pb-lower-tm-tensor-exec.mlir.
// CHECK-LABEL: func.func @scatter
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T0:.*]] = %arg2)
// CHECK: %[[RAW:.*]] = tensor.extract %arg1[%[[N]], %{{.*}}] : tensor<3x1xi64>
// CHECK: arith.index_cast %[[RAW]] : i64 to index
// CHECK: arith.select
// CHECK: scf.if %{{.*}} -> (tensor<10x4xf32>)
// CHECK: %[[U:.*]] = tensor.extract %arg0
// CHECK: %[[C:.*]] = tensor.extract
// CHECK: %[[S:.*]] = arith.addf %[[C]], %[[U]] : f32
// CHECK: tensor.insert %[[S]]
// CHECK-NOT: tm_tensor
func.func @scatter(%updates: tensor<3x1x4xf32>, %indices: tensor<3x1xi64>, %original: tensor<10x4xf32>) -> tensor<10x4xf32> {
  %0 = "tm_tensor.scatter"(%updates, %indices, %original) <{dimension_map = array<i64: 0>, operandSegmentSizes = array<i32: 2, 1>, unique_indices = false}> ({
  ^bb0(%u: f32, %c: f32):
    %s = arith.addf %c, %u : f32
    "tm_tensor.yield"(%s) : (f32) -> ()
  }) : (tensor<3x1x4xf32>, tensor<3x1xi64>, tensor<10x4xf32>) -> tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}

// -----

// A sort runs passes of neighbour exchanges; the comparator decides, and
// the payload moves with the keys.
// CHECK-LABEL: func.func @sort
// CHECK: %[[IN_ORDER:.*]] = arith.cmpf ole
// CHECK: scf.if %[[IN_ORDER]] -> (tensor<3x5xf32>, tensor<3x5xi64>)
// CHECK-NOT: tm_tensor
func.func @sort(%keys: tensor<3x5xf32>, %payload: tensor<3x5xi64>) -> (tensor<3x5xf32>, tensor<3x5xi64>) {
  %0:2 = "tm_tensor.sort"(%keys, %payload) <{dimension = 1 : i64, operandSegmentSizes = array<i32: 0, 2>}> ({
  ^bb0(%a: f32, %b: f32, %c: i64, %d: i64):
    %le = arith.cmpf ole, %a, %b : f32
    "tm_tensor.yield"(%le) : (i1) -> ()
  }) : (tensor<3x5xf32>, tensor<3x5xi64>) -> (tensor<3x5xf32>, tensor<3x5xi64>)
  return %0#0, %0#1 : tensor<3x5xf32>, tensor<3x5xi64>
}

// -----

// Refused with a located error: a region whose ops have regions.
func.func @nested(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot lower 'tm_tensor.sort': its region holds 'scf.execute_region', which has regions of its own}}
  %0 = "tm_tensor.sort"(%x) <{dimension = 0 : i64, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%a: f32, %b: f32):
    %c = scf.execute_region -> i1 {
      %le = arith.cmpf ole, %a, %b : f32
      scf.yield %le : i1
    }
    "tm_tensor.yield"(%c) : (i1) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
