// Stride-2 loads (a strided convolution's or pooling's input row) are
// vectorized as two vector loads and a shuffle, reading no element the
// scalar loop does not: run it (width 8; 19 outputs: 16 in the vector loop,
// 2 in a loop of 2-lane vectors, 1 in the remainder) on a buffer whose
// last element is the last one read.
// RUN: pb-opt %s --pb-vectorize="width=8" | FileCheck %s --check-prefix=IR
// RUN: pb-opt %s --pb-vectorize="width=8" | pb-opt --pass-pipeline='builtin.module(lower-affine,convert-vector-to-scf,convert-scf-to-cf,convert-vector-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)' | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s

// out[i] = in[2 i + 1] + in[2 i + 2]: the second load ends at element
// 2 (i + 7) + 2, the last one the vector iteration needs.
// IR-LABEL: func.func @pairs
// IR: affine.for %[[I:.*]] = 0 to 16 step 8 {
// IR-NEXT: %[[A:.*]] = affine.vector_load %arg0[%[[I]] * 2 + 1] : memref<39xf32>, vector<8xf32>
// IR-NEXT: %[[B:.*]] = affine.vector_load %arg0[%[[I]] * 2 + 8] : memref<39xf32>, vector<8xf32>
// IR-NEXT: vector.shuffle %[[A]], %[[B]] [0, 2, 4, 6, 9, 11, 13, 15] : vector<8xf32>, vector<8xf32>
// IR: affine.for %{{.*}} = 16 to 18 step 2 {
// IR: vector.shuffle %{{.*}}, %{{.*}} [0, 3] : vector<2xf32>, vector<2xf32>
// IR: affine.for %{{.*}} = 18 to 19 {
func.func @pairs(%in: memref<39xf32>, %out: memref<19xf32>) {
  affine.for %i = 0 to 19 {
    %a = affine.load %in[2 * %i + 1] : memref<39xf32>
    %b = affine.load %in[2 * %i + 2] : memref<39xf32>
    %s = arith.addf %a, %b : f32
    affine.store %s, %out[%i] : memref<19xf32>
  }
  return
}

// A stride-2 store is not vectorized (a scatter).
// IR-LABEL: func.func @strided_store
// IR-NOT: vector
func.func @strided_store(%in: memref<19xf32>, %out: memref<39xf32>) {
  affine.for %i = 0 to 19 {
    %a = affine.load %in[%i] : memref<19xf32>
    affine.store %a, %out[2 * %i] : memref<39xf32>
  }
  return
}

// IR-LABEL: func.func @main
func.func @main() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %in = memref.alloc() : memref<39xf32>
  %out = memref.alloc() : memref<19xf32>
  // in[k] = k
  affine.for %k = 0 to 39 {
    %ii = arith.index_cast %k : index to i32
    %f = arith.sitofp %ii : i32 to f32
    affine.store %f, %in[%k] : memref<39xf32>
  }
  call @pairs(%in, %out) : (memref<39xf32>, memref<19xf32>) -> ()
  // out[i] = (2 i + 1) + (2 i + 2) = 4 i + 3
  // CHECK: ( 3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 55, 59, 63, 67, 71, 75 )
  %v = vector.transfer_read %out[%c0], %zero : memref<19xf32>, vector<19xf32>
  vector.print %v : vector<19xf32>
  memref.dealloc %in : memref<39xf32>
  memref.dealloc %out : memref<19xf32>
  return
}
