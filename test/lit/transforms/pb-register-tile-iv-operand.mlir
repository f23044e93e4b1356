// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-register-tile{width=8 registers=16 cores=2}))' %s | FileCheck %s
// A product whose operand uses a loop's induction variable as a value
// (`tril(x) @ w` fused: the mask `k - j <= 1` reads the reduction index)
// is left alone: the packing copy's text passed values from outside the
// statement in unchanged, so the mask kept naming the erased loop's
// variable (pb-compile crashed verifying the result: fuzz program 0:8967).
// CHECK-LABEL: func.func @masked_product
// CHECK: affine.for %[[K:.*]] = 0 to 3 {
// CHECK: arith.index_cast %[[K]] : index to i64
// CHECK-NOT: vector.fma
func.func @masked_product(%a: memref<5x5x3xf32>, %b: memref<1x3x17xf32>, %c: memref<5x5x17xf32>) {
  %cst = arith.constant 0.0 : f32
  %c1_i64 = arith.constant 1 : i64
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 5 {
      affine.for %n = 0 to 17 {
        affine.for %u = 0 to 1 {
          affine.for %k = 0 to 3 {
            %0 = affine.load %a[%i, %j, %u * 3 + %k] : memref<5x5x3xf32>
            %2 = affine.load %b[%u, %k, %n] : memref<1x3x17xf32>
            %3 = affine.load %c[%i, %j, %n] : memref<5x5x17xf32>
            %4 = arith.index_cast %j : index to i64
            %5 = arith.index_cast %k : index to i64
            %6 = arith.subi %5, %4 : i64
            %7 = arith.cmpi sle, %6, %c1_i64 : i64
            %8 = arith.select %7, %0, %cst : f32
            %10 = arith.mulf %8, %2 : f32
            %11 = arith.addf %3, %10 : f32
            affine.store %11, %c[%i, %j, %n] : memref<5x5x17xf32>
          }
        }
      }
    }
  }
  return
}
