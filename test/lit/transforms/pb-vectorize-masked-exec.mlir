// Loops shorter than a vector whose trip count is not a power of two (a
// 7x7 or 14x14 feature map's rows; the 12 columns a 16-lane loop leaves
// of 28) run as one vector iteration with the lanes past the end masked
// off, instead of vectors of half the width down to a scalar remainder
// (7 = 4 + 2 + 1: three copies of the body). Run it: each 7-element row
// is stored into a row of 8 whose last element a stored 8th lane would
// overwrite.
// RUN: pb-opt %s --pb-vectorize="width=16 masked=true" | FileCheck %s --check-prefix=IR
// RUN: pb-opt %s --pb-vectorize="width=16" | FileCheck %s --check-prefix=OFF
// RUN: pb-opt %s --pb-vectorize="width=16 masked=true" | pb-opt --pass-pipeline='builtin.module(lower-affine,convert-vector-to-scf,convert-scf-to-cf,convert-vector-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)' | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s

// Without `masked` (the default; the cpu pipeline sets it for AVX-512
// targets): vectors of 4, 2 and a scalar remainder.
// OFF-LABEL: func.func @rows7
// OFF-NOT: vector.create_mask
// OFF: affine.for %{{.*}} = 0 to 4 step 4 {
// OFF: affine.for %{{.*}} = 4 to 6 step 2 {
// OFF: affine.for %{{.*}} = 6 to 7 {

// y[i, j] = x[i, j] * s + 100, 7 columns: one masked 8-lane iteration
// per row.
// IR-LABEL: func.func @rows7
// IR: affine.for %[[J:.*]] = 0 to 8 step 8 {
// IR-NEXT: %[[C7:.*]] = arith.constant 7 : index
// IR-NEXT: %[[M:.*]] = vector.create_mask %[[C7]] : vector<8xi1>
// IR: %[[X:.*]] = vector.maskedload %arg0[%{{.*}}, %{{.*}}], %[[M]], %{{.*}} : memref<3x7xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// IR: vector.maskedstore %arg1[%{{.*}}, %{{.*}}], %[[M]], %{{.*}} : memref<3x8xf32>, vector<8xi1>, vector<8xf32>
// IR-NOT: affine.for
// IR: return
func.func @rows7(%x: memref<3x7xf32>, %y: memref<3x8xf32>, %s: f32) {
  %h = arith.constant 100.0 : f32
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 7 {
      %a = affine.load %x[%i, %j] : memref<3x7xf32>
      %b = arith.mulf %a, %s : f32
      %d = arith.addf %b, %h : f32
      affine.store %d, %y[%i, %j] : memref<3x8xf32>
    }
  }
  return
}

// A row read and written (a convolution adding each tap into its output
// row) keeps halving widths: LLVM keeps such a row in registers between
// plain stores and loads, not between masked ones.
// IR-LABEL: func.func @accumulate7
// IR-NOT: vector.create_mask
// IR: vector<4xf32>
func.func @accumulate7(%x: memref<7xf32>, %y: memref<7xf32>) {
  affine.for %j = 0 to 7 {
    %a = affine.load %x[%j] : memref<7xf32>
    %b = affine.load %y[%j] : memref<7xf32>
    %c = arith.addf %a, %b : f32
    affine.store %c, %y[%j] : memref<7xf32>
  }
  return
}

// 28 elements: a 16-lane loop, then the 12 left as one masked 16-lane
// iteration.
// IR-LABEL: func.func @tail28
// IR: affine.for %{{.*}} = 0 to 16 step 16 {
// IR: affine.vector_load
// IR: affine.for %{{.*}} = 16 to 32 step 16 {
// IR: vector.create_mask %{{.*}} : vector<16xi1>
// IR: vector.maskedload
// IR: vector.maskedstore
func.func @tail28(%x: memref<28xf32>, %y: memref<28xf32>) {
  affine.for %j = 0 to 28 {
    %a = affine.load %x[%j] : memref<28xf32>
    %b = arith.addf %a, %a : f32
    affine.store %b, %y[%j] : memref<28xf32>
  }
  return
}

// A sum would combine the masked lanes, and an integer division by a
// masked lane's zero would trap: both keep vectors of halving width.
// IR-LABEL: func.func @sum7
// IR-NOT: vector.create_mask
// IR: vector<4xf32>
// IR-LABEL: func.func @divide7
// IR-NOT: vector.create_mask
// IR: vector<4xi32>
// IR-LABEL: func.func @main
func.func @sum7(%x: memref<7xf32>, %acc: memref<f32>) {
  affine.for %j = 0 to 7 {
    %a = affine.load %x[%j] : memref<7xf32>
    %b = affine.load %acc[] : memref<f32>
    %c = arith.addf %a, %b : f32
    affine.store %c, %acc[] : memref<f32>
  }
  return
}
func.func @divide7(%x: memref<7xi32>, %y: memref<7xi32>) {
  affine.for %j = 0 to 7 {
    %a = affine.load %x[%j] : memref<7xi32>
    %b = affine.load %y[%j] : memref<7xi32>
    %c = arith.divsi %a, %b : i32
    affine.store %c, %y[%j] : memref<7xi32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %x = memref.alloc() : memref<3x7xf32>
  %y = memref.alloc() : memref<3x8xf32>
  %minus = arith.constant -1.0 : f32
  // x[i, j] = 7 i + j, y = -1
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 7 {
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 7 + d1)>(%i, %j)
      %ii = arith.index_cast %k : index to i32
      %f = arith.sitofp %ii : i32 to f32
      affine.store %f, %x[%i, %j] : memref<3x7xf32>
    }
    affine.for %j = 0 to 8 {
      affine.store %minus, %y[%i, %j] : memref<3x8xf32>
    }
  }
  call @rows7(%x, %y, %two) : (memref<3x7xf32>, memref<3x8xf32>, f32) -> ()
  // y = 100 + 2 (7 i + j) in each row's 7 columns; the 8th untouched.
  // CHECK: ( 100, 102, 104, 106, 108, 110, 112, -1 )
  // CHECK-NEXT: ( 114, 116, 118, 120, 122, 124, 126, -1 )
  // CHECK-NEXT: ( 128, 130, 132, 134, 136, 138, 140, -1 )
  affine.for %i = 0 to 3 {
    %v = vector.transfer_read %y[%i, %c0], %zero : memref<3x8xf32>, vector<8xf32>
    vector.print %v : vector<8xf32>
  }
  %a = memref.alloc() : memref<28xf32>
  %b = memref.alloc() : memref<28xf32>
  affine.for %j = 0 to 28 {
    %ii = arith.index_cast %j : index to i32
    %f = arith.sitofp %ii : i32 to f32
    affine.store %f, %a[%j] : memref<28xf32>
  }
  call @tail28(%a, %b) : (memref<28xf32>, memref<28xf32>) -> ()
  // CHECK: ( 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54 )
  %w = vector.transfer_read %b[%c0], %zero : memref<28xf32>, vector<28xf32>
  vector.print %w : vector<28xf32>
  memref.dealloc %x : memref<3x7xf32>
  memref.dealloc %y : memref<3x8xf32>
  memref.dealloc %a : memref<28xf32>
  memref.dealloc %b : memref<28xf32>
  return
}
