// Vectorized reductions compute the scalar loop's numbers: run them (width
// 8, 4 accumulators, 37 elements: 32 in the vector loop, 5 in the remainder).
// RUN: pb-opt %s --pb-vectorize="width=8" | FileCheck %s --check-prefix=IR
// RUN: pb-opt %s --pb-vectorize="width=8" | pb-opt --pass-pipeline='builtin.module(lower-affine,convert-vector-to-scf,convert-scf-to-cf,convert-vector-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)' | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s

// IR: func.func @sum
// IR: vector.reduction <add>
// IR: func.func @max
// IR: vector.reduction <maximumf>
func.func @sum(%in: memref<37xf32>, %acc: memref<f32>) {
  affine.for %k = 0 to 37 {
    %x = affine.load %in[%k] : memref<37xf32>
    %a = affine.load %acc[] : memref<f32>
    %s = arith.addf %a, %x : f32
    affine.store %s, %acc[] : memref<f32>
  }
  return
}

func.func @max(%in: memref<37xf32>, %init: f32) -> f32 {
  %r = affine.for %k = 0 to 37 iter_args(%a = %init) -> (f32) {
    %x = affine.load %in[%k] : memref<37xf32>
    %m = arith.maximumf %a, %x : f32
    affine.yield %m : f32
  }
  return %r : f32
}

func.func @main() {
  %in = memref.alloca() : memref<37xf32>
  %acc = memref.alloca() : memref<f32>
  %zero = arith.constant 0.0 : f32
  %nzero = arith.constant -0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %c20 = arith.constant 20.0 : f32
  // x[k] = (7 k mod 37) - 20: integers, so every summation order is exact.
  affine.for %k = 0 to 37 {
    %i = affine.apply affine_map<(k) -> ((k * 7) mod 37)>(%k)
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = arith.subf %f, %c20 : f32
    affine.store %v, %in[%k] : memref<37xf32>
  }
  // sum = (0 + ... + 36) - 37 * 20 = -74
  // CHECK: -74
  affine.store %zero, %acc[] : memref<f32>
  call @sum(%in, %acc) : (memref<37xf32>, memref<f32>) -> ()
  %s = affine.load %acc[] : memref<f32>
  vector.print %s : f32
  // max = 36 - 20 = 16 (at k = 21, in the vector loop)
  // CHECK-NEXT: 16
  %m = call @max(%in, %ninf) : (memref<37xf32>, f32) -> f32
  vector.print %m : f32
  // A NaN in one lane propagates through maximumf.
  // CHECK-NEXT: nan
  affine.store %nan, %in[3] : memref<37xf32>
  %mn = call @max(%in, %ninf) : (memref<37xf32>, f32) -> f32
  vector.print %mn : f32
  // A sum of negative zeros is -0: the identity is -0.0, not +0.0.
  // CHECK-NEXT: -0
  affine.for %k = 0 to 37 {
    affine.store %nzero, %in[%k] : memref<37xf32>
  }
  affine.store %nzero, %acc[] : memref<f32>
  call @sum(%in, %acc) : (memref<37xf32>, memref<f32>) -> ()
  %z = affine.load %acc[] : memref<f32>
  vector.print %z : f32
  return
}
