// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-parallel-grain{min-work=4096}))' %s | FileCheck %s

// 8 iterations x 3 ops: a fork would cost more than the loop.
// CHECK-LABEL: func.func @small
// CHECK-NOT: affine.parallel
// CHECK: affine.for %[[I:.*]] = 0 to 8 {
// CHECK-NEXT: affine.load %arg0[%[[I]]]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: affine.store %{{.*}}, %arg1[%[[I]]]
func.func @small(%a: memref<8xf32>, %b: memref<8xf32>, %c: f32) {
  affine.parallel (%i) = (0) to (8) {
    %x = affine.load %a[%i] : memref<8xf32>
    %y = arith.addf %x, %c : f32
    affine.store %y, %b[%i] : memref<8xf32>
  }
  return
}

// 64 x 128 x 3 ops = 24576 >= 4096: stays parallel.
// CHECK-LABEL: func.func @large
// CHECK: affine.parallel (%{{.*}}) = (0) to (64)
func.func @large(%a: memref<64x128xf32>, %b: memref<64x128xf32>, %c: f32) {
  affine.parallel (%i) = (0) to (64) {
    affine.for %j = 0 to 128 {
      %x = affine.load %a[%i, %j] : memref<64x128xf32>
      %y = arith.addf %x, %c : f32
      affine.store %y, %b[%i, %j] : memref<64x128xf32>
    }
  }
  return
}

// Small but allocating per iteration (a tile buffer): kept, since as a
// sequential loop the alloca would grow the stack every iteration.
// CHECK-LABEL: func.func @allocating
// CHECK: affine.parallel
func.func @allocating(%a: memref<8xf32>) {
  affine.parallel (%i) = (0) to (2) {
    %t = memref.alloca() : memref<4xf32>
    %x = affine.load %a[%i] : memref<8xf32>
    affine.store %x, %t[0] : memref<4xf32>
  }
  return
}
