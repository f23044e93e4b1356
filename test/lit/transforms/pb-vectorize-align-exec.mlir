// Aligned stores: a stencil's interior columns start at column 1, so the
// vector loop from there stores every vector across two cache-line halves
// (on AMD Zen 3, line-crossing loads and stores cost two accesses each).
// With `align`, a long loop whose store moves with the loop in rows that
// hold whole vectors first runs the iterations up to the next vector
// boundary (vectorized at smaller widths, as any remainder), then the
// vector loop stores whole aligned vectors. Run it: a 3-point horizontal
// stencil over a 4x48 array, against the same loop without `align`.
// RUN: pb-opt %s --pb-vectorize="width=8 align=true" | FileCheck %s --check-prefix=IR
// RUN: pb-opt %s --pb-vectorize="width=8" | FileCheck %s --check-prefix=OFF
// RUN: pb-opt %s --pb-vectorize="width=8 align=true" | pb-opt --pass-pipeline='builtin.module(lower-affine,convert-vector-to-scf,convert-scf-to-cf,convert-vector-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)' | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s

// y[i, j + 1] = x[i, j] + x[i, j + 1] + x[i, j + 2] for j in [0, 46): the
// store starts at column 1, 7 columns before a vector boundary. Those 7
// run first (4 + 2 + 1 lanes), then vectors from column 8 (j = 7), then
// the 7 left at the end.
// IR-LABEL: func.func @interior
// IR: affine.for %[[I:.*]] = 0 to 4 {
// IR-NEXT: affine.for %{{.*}} = 0 to 4 step 4 {
// IR: vector<4xf32>
// IR: affine.for %{{.*}} = 4 to 6 step 2 {
// IR: affine.for %{{.*}} = 6 to 7 {
// IR: affine.for %[[J:.*]] = 7 to 39 step 8 {
// IR: affine.vector_store %{{.*}}, %arg1[%[[I]], %[[J]] + 1] : memref<4x48xf32>, vector<8xf32>
// IR: affine.for %{{.*}} = 39 to 43 step 4 {
// IR: affine.for %{{.*}} = 43 to 45 step 2 {
// IR: affine.for %{{.*}} = 45 to 46 {
// OFF-LABEL: func.func @interior
// OFF: affine.for %{{.*}} = 0 to 40 step 8 {
func.func @interior(%x: memref<4x48xf32>, %y: memref<4x48xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 46 {
      %a = affine.load %x[%i, %j] : memref<4x48xf32>
      %b = affine.load %x[%i, %j + 1] : memref<4x48xf32>
      %c = affine.load %x[%i, %j + 2] : memref<4x48xf32>
      %s = arith.addf %a, %b : f32
      %t = arith.addf %s, %c : f32
      affine.store %t, %y[%i, %j + 1] : memref<4x48xf32>
    }
  }
  return
}

// Not peeled: rows of 46 (a row's start is not a vector boundary in every
// row), a store already aligned, a loop shorter than 4 vectors.
// IR-LABEL: func.func @rows_of_46
// IR: affine.for %{{.*}} = 0 to 40 step 8 {
// IR-LABEL: func.func @aligned
// IR: affine.for %{{.*}} = 0 to 40 step 8 {
// IR-LABEL: func.func @short
// IR: affine.for %{{.*}} = 0 to 24 step 8 {
// IR-LABEL: func.func @main
func.func @rows_of_46(%x: memref<4x46xf32>, %y: memref<4x46xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 44 {
      %a = affine.load %x[%i, %j] : memref<4x46xf32>
      affine.store %a, %y[%i, %j + 1] : memref<4x46xf32>
    }
  }
  return
}
func.func @aligned(%x: memref<48xf32>, %y: memref<48xf32>) {
  affine.for %j = 0 to 46 {
    %a = affine.load %x[%j + 1] : memref<48xf32>
    affine.store %a, %y[%j] : memref<48xf32>
  }
  return
}
func.func @short(%x: memref<48xf32>, %y: memref<48xf32>) {
  affine.for %j = 0 to 30 {
    %a = affine.load %x[%j] : memref<48xf32>
    affine.store %a, %y[%j + 1] : memref<48xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %minus = arith.constant -1.0 : f32
  %x = memref.alloc() : memref<4x48xf32>
  %y = memref.alloc() : memref<4x48xf32>
  // x[i, j] = j * j + i, y = -1
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 48 {
      %jj = arith.muli %j, %j : index
      %k = arith.addi %jj, %i : index
      %ii = arith.index_cast %k : index to i32
      %f = arith.sitofp %ii : i32 to f32
      affine.store %f, %x[%i, %j] : memref<4x48xf32>
      affine.store %minus, %y[%i, %j] : memref<4x48xf32>
    }
  }
  call @interior(%x, %y) : (memref<4x48xf32>, memref<4x48xf32>) -> ()
  // Row 3: y[3, c] = 3 (c - 1)^2 + 2 + ... = (c-1)^2 + c^2 + (c+1)^2 + 9
  // = 3 c^2 + 11 for c in [1, 46]; columns 0 and 47 untouched.
  // CHECK: ( -1, 14, 23, 38, 59, 86, 119, 158, 203, 254, 311, 374, 443, 518, 599, 686, 779, 878, 983, 1094, 1211, 1334, 1463, 1598, 1739, 1886, 2039, 2198, 2363, 2534, 2711, 2894, 3083, 3278, 3479, 3686, 3899, 4118, 4343, 4574, 4811, 5054, 5303, 5558, 5819, 6086, 6359, -1 )
  %c3 = arith.constant 3 : index
  %v = vector.transfer_read %y[%c3, %c0], %zero : memref<4x48xf32>, vector<48xf32>
  vector.print %v : vector<48xf32>
  memref.dealloc %x : memref<4x48xf32>
  memref.dealloc %y : memref<4x48xf32>
  return
}
