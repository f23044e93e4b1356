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

// -----

// With cores (`cores=2`), a summing scatter with at least as many updates
// as the private copies have elements runs on both: each thread adds its
// half of the updates into its own zeroed row of a 2 x target tensor
// (scf.forall), then a reduction over the rows adds them to the original.
// A replacing scatter (the last update wins), and a summing one with fewer
// updates than that, stay one ordered loop.
// RUN: pb-opt %s -split-input-file --allow-unregistered-dialect --pb-lower-tm-tensor="cores=2" -verify-diagnostics | FileCheck %s --check-prefix=CORES
// CORES-LABEL: func.func @histogram
// CORES: %[[EMPTY:.*]] = tensor.empty() : tensor<2x10xf32>
// CORES: %[[ZEROS:.*]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<2x10xf32>)
// CORES: arith.constant 0.000000e+00 : f32
// CORES: %[[PARTS:.*]] = scf.forall (%[[T:.*]]) in (2) shared_outs(%[[ACC:.*]] = %[[ZEROS]]) -> (tensor<2x10xf32>) {
// CORES: %[[MINE:.*]] = tensor.extract_slice %[[ACC]][%[[T]], 0] [1, 10] [1, 1] : tensor<2x10xf32> to tensor<10xf32>
// CORES: %[[LO:.*]] = arith.muli %[[T]], %{{.*}} : index
// CORES: %[[HI:.*]] = arith.minsi
// CORES: %[[SUM:.*]] = scf.for %{{.*}} = %[[LO]] to %[[HI]] step %{{.*}} iter_args(%{{.*}} = %[[MINE]])
// CORES: arith.addf
// CORES: scf.forall.in_parallel {
// CORES-NEXT: tensor.parallel_insert_slice %[[SUM]] into %[[ACC]][%[[T]], 0] [1, 10] [1, 1] : tensor<10xf32> into tensor<2x10xf32>
// CORES: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[PARTS]] : tensor<2x10xf32>) outs(%arg2 : tensor<10xf32>)
// CORES: arith.addf
// CORES-LABEL: func.func @replace
// CORES-NOT: scf.forall
// CORES: scf.for
// CORES-LABEL: func.func @few
// CORES-NOT: scf.forall
// CORES: scf.for
// CORES: return
func.func @histogram(%updates: tensor<64x1xf32>, %indices: tensor<64x1xi64>, %original: tensor<10xf32>) -> tensor<10xf32> {
  %0 = "tm_tensor.scatter"(%updates, %indices, %original) <{dimension_map = array<i64: 0>, operandSegmentSizes = array<i32: 2, 1>, unique_indices = false}> ({
  ^bb0(%u: f32, %c: f32):
    %s = arith.addf %c, %u : f32
    "tm_tensor.yield"(%s) : (f32) -> ()
  }) : (tensor<64x1xf32>, tensor<64x1xi64>, tensor<10xf32>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}

func.func @replace(%updates: tensor<64x1xf32>, %indices: tensor<64x1xi64>, %original: tensor<10xf32>) -> tensor<10xf32> {
  %0 = "tm_tensor.scatter"(%updates, %indices, %original) <{dimension_map = array<i64: 0>, operandSegmentSizes = array<i32: 2, 1>, unique_indices = false}> ({
  ^bb0(%u: f32, %c: f32):
    "tm_tensor.yield"(%u) : (f32) -> ()
  }) : (tensor<64x1xf32>, tensor<64x1xi64>, tensor<10xf32>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}

func.func @few(%updates: tensor<16x1xf32>, %indices: tensor<16x1xi64>, %original: tensor<10xf32>) -> tensor<10xf32> {
  %0 = "tm_tensor.scatter"(%updates, %indices, %original) <{dimension_map = array<i64: 0>, operandSegmentSizes = array<i32: 2, 1>, unique_indices = false}> ({
  ^bb0(%u: f32, %c: f32):
    %s = arith.addf %c, %u : f32
    "tm_tensor.yield"(%s) : (f32) -> ()
  }) : (tensor<16x1xf32>, tensor<16x1xi64>, tensor<10xf32>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}
