// Gathers (`memref.load` at computed indices) vectorized as vector.gather:
// data-dependent rows, clamped, and columns computed from the loop index
// itself (each lane its own iteration), over 37 iterations (a vector loop
// of 8, then 4, then a scalar remainder). Run against the values the
// scalar indices give.
// RUN: pb-opt %s --pb-vectorize="width=8" | FileCheck %s --check-prefix=IR
// RUN: pb-opt %s --pb-vectorize="width=8" | pb-opt --pass-pipeline='builtin.module(lower-affine,convert-vector-to-scf,convert-scf-to-cf,convert-vector-to-llvm,expand-strided-metadata,finalize-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)' | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s

// out[i] = table[clamp(ids[i], 0, 3), (3 i) mod 5] + 0.5
// IR-LABEL: func.func @lookup
// IR: affine.for %{{.*}} = 0 to 32 step 8 {
// IR: vector.gather {{.*}} : memref<20xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// IR: affine.for %{{.*}} = 32 to 36 step 4 {
// IR: vector.gather {{.*}} : memref<20xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
func.func @lookup(%table: memref<4x5xf32>, %ids: memref<37xi64>, %out: memref<37xf32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %half = arith.constant 0.5 : f32
  affine.for %i = 0 to 37 {
    %id = affine.load %ids[%i] : memref<37xi64>
    %r0 = arith.index_cast %id : i64 to index
    %r1 = arith.maxsi %r0, %c0 : index
    %r = arith.minsi %r1, %c3 : index
    %c3i = arith.muli %i, %c3 : index
    %c = arith.remsi %c3i, %c5 : index
    %v = memref.load %table[%r, %c] : memref<4x5xf32>
    %s = arith.addf %v, %half : f32
    affine.store %s, %out[%i] : memref<37xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %table = memref.alloc() : memref<4x5xf32>
  %ids = memref.alloc() : memref<37xi64>
  %out = memref.alloc() : memref<37xf32>
  // table[r, c] = 10 r + c
  affine.for %r = 0 to 4 {
    affine.for %c = 0 to 5 {
      %v = affine.apply affine_map<(r, c) -> (r * 10 + c)>(%r, %c)
      %vi = arith.index_cast %v : index to i32
      %f = arith.sitofp %vi : i32 to f32
      affine.store %f, %table[%r, %c] : memref<4x5xf32>
    }
  }
  // ids[i] = (7 i) mod 6 - 1: -1 .. 4, clamped to 0 .. 3
  affine.for %i = 0 to 37 {
    %v = affine.apply affine_map<(i) -> ((i * 7) mod 6 - 1)>(%i)
    %vi = arith.index_cast %v : index to i64
    affine.store %vi, %ids[%i] : memref<37xi64>
  }
  call @lookup(%table, %ids, %out) : (memref<4x5xf32>, memref<37xi64>, memref<37xf32>) -> ()
  // i = 0..36: ids -1 0 1 2 3 4 -1 .. -> rows 0 0 1 2 3 3 0 ..; columns 0 3 1 4 2 0 ..
  // CHECK: ( 0.5, 3.5, 11.5, 24.5, 32.5, 30.5, 3.5, 1.5, 14.5, 22.5, 30.5, 33.5, 1.5, 4.5, 12.5, 20.5, 33.5, 31.5, 4.5, 2.5, 10.5, 23.5, 31.5, 34.5, 2.5, 0.5, 13.5, 21.5, 34.5, 32.5, 0.5, 3.5, 11.5, 24.5, 32.5, 30.5, 3.5 )
  %v = vector.transfer_read %out[%c0], %zero : memref<37xf32>, vector<37xf32>
  vector.print %v : vector<37xf32>
  memref.dealloc %table : memref<4x5xf32>
  memref.dealloc %ids : memref<37xi64>
  memref.dealloc %out : memref<37xf32>
  return
}
