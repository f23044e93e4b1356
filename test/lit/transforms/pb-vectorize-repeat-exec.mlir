// Loads that repeat each element (an upsampled row: index
// (i + c) floordiv d + e) are vectorized as width / d elements loaded and a
// shuffle repeating them; when the vector iterations start mid-group
// (phase > 0) a second load one element on supplies the lane that reaches
// further. No element the scalar loop does not read is read: run it on
// buffers whose last element is the last one read, against the values the
// scalar indices give.
// RUN: pb-opt %s --pb-vectorize="width=8" | FileCheck %s --check-prefix=IR
// RUN: pb-opt %s --pb-vectorize="width=8" | pb-opt --pass-pipeline='builtin.module(lower-affine,convert-vector-to-scf,convert-scf-to-cf,convert-vector-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)' | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s

// out[i] = in[i floordiv 2] (nearest upsampling by 2), i in [0, 19).
// IR-LABEL: func.func @halves
// IR: affine.for %[[I:.*]] = 0 to 16 step 8 {
// IR-NEXT: %[[A:.*]] = affine.vector_load %arg0[%[[I]] floordiv 2] : memref<10xf32>, vector<4xf32>
// IR-NEXT: vector.shuffle %[[A]], %[[A]] [0, 0, 1, 1, 2, 2, 3, 3] : vector<4xf32>, vector<4xf32>
func.func @halves(%in: memref<10xf32>, %out: memref<19xf32>) {
  affine.for %i = 0 to 19 {
    %a = affine.load %in[%i floordiv 2] : memref<10xf32>
    affine.store %a, %out[%i] : memref<19xf32>
  }
  return
}

// out[i] = in[(i + 2) floordiv 4 + 1] + 0.5, i in [1, 30): phase 3 of 4.
// IR-LABEL: func.func @quarters
// IR: affine.for %[[I:.*]] = 1 to 25 step 8 {
// IR-NEXT: %[[A:.*]] = affine.vector_load %arg0[(%[[I]] + 2) floordiv 4 + 1] : memref<9xf32>, vector<2xf32>
// IR-NEXT: %[[B:.*]] = affine.vector_load %arg0[(%[[I]] + 2) floordiv 4 + 2] : memref<9xf32>, vector<2xf32>
// IR-NEXT: vector.shuffle %[[A]], %[[B]] [0, 1, 1, 1, 1, 3, 3, 3] : vector<2xf32>, vector<2xf32>
func.func @quarters(%in: memref<9xf32>, %out: memref<30xf32>) {
  %half = arith.constant 0.5 : f32
  affine.for %i = 1 to 30 {
    %a = affine.load %in[(%i + 2) floordiv 4 + 1] : memref<9xf32>
    %s = arith.addf %a, %half : f32
    affine.store %s, %out[%i] : memref<30xf32>
  }
  return
}

// A divisor that does not divide the width stays scalar.
// IR-LABEL: func.func @thirds
// IR-NOT: vector
func.func @thirds(%in: memref<11xf32>, %out: memref<32xf32>) {
  affine.for %i = 0 to 32 {
    %a = affine.load %in[%i floordiv 3] : memref<11xf32>
    affine.store %a, %out[%i] : memref<32xf32>
  }
  return
}

// IR-LABEL: func.func @main
func.func @main() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<10xf32>
  %b = memref.alloc() : memref<9xf32>
  %out = memref.alloc() : memref<19xf32>
  %out2 = memref.alloc() : memref<30xf32>
  affine.for %k = 0 to 10 {
    %ii = arith.index_cast %k : index to i32
    %f = arith.sitofp %ii : i32 to f32
    affine.store %f, %a[%k] : memref<10xf32>
  }
  affine.for %k = 0 to 9 {
    %ii = arith.index_cast %k : index to i32
    %f = arith.sitofp %ii : i32 to f32
    affine.store %f, %b[%k] : memref<9xf32>
  }
  affine.store %zero, %out2[%c0] : memref<30xf32>
  call @halves(%a, %out) : (memref<10xf32>, memref<19xf32>) -> ()
  call @quarters(%b, %out2) : (memref<9xf32>, memref<30xf32>) -> ()
  // CHECK: ( 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9 )
  %v = vector.transfer_read %out[%c0], %zero : memref<19xf32>, vector<19xf32>
  vector.print %v : vector<19xf32>
  // (i + 2) floordiv 4 + 1 + 0.5 for i = 1..29 (out2[0] = 0):
  // CHECK-NEXT: ( 0, 1.5, 2.5, 2.5, 2.5, 2.5, 3.5, 3.5, 3.5, 3.5, 4.5, 4.5, 4.5, 4.5, 5.5, 5.5, 5.5, 5.5, 6.5, 6.5, 6.5, 6.5, 7.5, 7.5, 7.5, 7.5, 8.5, 8.5, 8.5, 8.5 )
  %w = vector.transfer_read %out2[%c0], %zero : memref<30xf32>, vector<30xf32>
  vector.print %w : vector<30xf32>
  memref.dealloc %a : memref<10xf32>
  memref.dealloc %b : memref<9xf32>
  memref.dealloc %out : memref<19xf32>
  memref.dealloc %out2 : memref<30xf32>
  return
}
