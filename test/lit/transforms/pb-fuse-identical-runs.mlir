// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{sliding=false cores=2 cache-bytes=65536 report=true}))' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err

// Two layers of the same structure (a relu into a temporary, a 3-point
// stencil over it) on different buffers, separated by a matrix product: the
// second is planned as the first was (fuse_cache.rs) and fused the same
// way, each with its own tile-local buffer and its own arrays. The second
// layer's constants are its own (a run's allocations and constants are not
// part of its key).
// REPORT: remark: [pb-fuse] fused producers S0 into consumers S1 of A2: row tile 8
// REPORT-NOT: planned once
// REPORT: remark: [pb-fuse] not fused: consumer S0 is a contraction
// REPORT: remark: [pb-fuse] fused producers S0 into consumers S1 of A2: row tile 8 {{.*}} (planned once for identical runs)

// CHECK-LABEL: func.func @two_layers(
// CHECK-NOT: memref.alloc()
// CHECK: affine.parallel
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<8x1024xf32>
// CHECK: affine.load %arg0[
// CHECK: affine.store %{{.*}}, %arg1[
// CHECK: affine.for
// CHECK: affine.store %{{.*}}, %arg4[
// CHECK: affine.parallel
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<8x1024xf32>
// CHECK: affine.load %arg5[
// CHECK: affine.store %{{.*}}, %arg6[
// CHECK-NOT: memref.alloc()
func.func @two_layers(%in1: memref<1024x1024xf32>, %out1: memref<1024x1024xf32>, %a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>, %in2: memref<1024x1024xf32>, %out2: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %t1 = memref.alloc() : memref<1024x1024xf32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 1024 {
      %v = affine.load %in1[%i, %j] : memref<1024x1024xf32>
      %r = arith.maximumf %v, %zero : f32
      affine.store %r, %t1[%i, %j] : memref<1024x1024xf32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 1 to 1023 {
      %l = affine.load %t1[%i, %j - 1] : memref<1024x1024xf32>
      %r = affine.load %t1[%i, %j + 1] : memref<1024x1024xf32>
      %s = arith.addf %l, %r : f32
      %m = arith.mulf %s, %two : f32
      affine.store %m, %out1[%i, %j] : memref<1024x1024xf32>
    }
  }
  memref.dealloc %t1 : memref<1024x1024xf32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<64x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x64xf32>
        %z = affine.load %c[%i, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %q = arith.addf %z, %p : f32
        affine.store %q, %c[%i, %j] : memref<64x64xf32>
      }
    }
  }
  %zero2 = arith.constant 0.0 : f32
  %two2 = arith.constant 2.0 : f32
  %t2 = memref.alloc() : memref<1024x1024xf32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 1024 {
      %v = affine.load %in2[%i, %j] : memref<1024x1024xf32>
      %r = arith.maximumf %v, %zero2 : f32
      affine.store %r, %t2[%i, %j] : memref<1024x1024xf32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 1 to 1023 {
      %l = affine.load %t2[%i, %j - 1] : memref<1024x1024xf32>
      %r = affine.load %t2[%i, %j + 1] : memref<1024x1024xf32>
      %s = arith.addf %l, %r : f32
      %m = arith.mulf %s, %two2 : f32
      affine.store %m, %out2[%i, %j] : memref<1024x1024xf32>
    }
  }
  memref.dealloc %t2 : memref<1024x1024xf32>
  return
}
