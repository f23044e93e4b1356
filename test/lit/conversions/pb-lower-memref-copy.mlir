// RUN: pb-opt %s -split-input-file --pb-lower-memref-copy | FileCheck %s

// A strided copy becomes an elementwise generic over the same memrefs.
// CHECK-LABEL: func.func @strided
// CHECK-SAME: (%[[A:.*]]: memref<4x5xf32, strided<[10, 1]>>, %[[B:.*]]: memref<4x5xf32>)
// CHECK-NOT: memref.copy
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%[[A]] : memref<4x5xf32, strided<[10, 1]>>) outs(%[[B]] : memref<4x5xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
func.func @strided(%a: memref<4x5xf32, strided<[10, 1]>>, %b: memref<4x5xf32>) {
  memref.copy %a, %b : memref<4x5xf32, strided<[10, 1]>> to memref<4x5xf32>
  return
}

// -----

// Rank 0 works too (no loops).
// CHECK-LABEL: func.func @scalar_buffer
// CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = []}
func.func @scalar_buffer(%a: memref<i32>, %b: memref<i32>) {
  memref.copy %a, %b : memref<i32> to memref<i32>
  return
}

// -----

// Unranked copies are left alone.
// CHECK-LABEL: func.func @unranked
// CHECK: memref.copy
func.func @unranked(%a: memref<*xf32>, %b: memref<*xf32>) {
  memref.copy %a, %b : memref<*xf32> to memref<*xf32>
  return
}

// -----

// End to end: the copied values arrive (through the upstream LLVM lowering).
// RUN: pb-opt %S/Inputs/copy-exec.mlir --pb-lower-memref-copy | pb-opt %to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s --check-prefix=EXEC
// EXEC: [2,  3,  6,  7]
