// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{cores=2 report=true row-tile=4}))' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err

// Two independent chains, their nests interleaved as a program builds two
// pyramids level by level: a blur of a 16x16 image and one of an 8x8
// image, each through a temporary. Their outputs' rows differ, so the run
// is refused whole; each chain, moved together, then fuses on its own.
// (The row tile is forced: at this size the model prefers the nests apart.)
// REPORT: remark: [pb-fuse] not fused: arrays {{.*}} outlive the loop nests with different row structures{{.*}}(its 2 independent chains are tried alone)
// REPORT: remark: [pb-fuse] fused producers S0 into consumers S1 of A2: row tile 4
// REPORT: remark: [pb-fuse] fused producers S0 into consumers S1 of A2: row tile 4
// CHECK-LABEL: func.func @two_pyramids
// CHECK-NOT: memref.alloc()
// CHECK: affine.parallel
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<3x16xf32>
// CHECK: affine.store %{{.*}}, %arg1
// CHECK: affine.parallel
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<3x8xf32>
// CHECK: affine.store %{{.*}}, %arg3
func.func @two_pyramids(%x: memref<16x18xf32>, %y: memref<14x16xf32>, %u: memref<8x10xf32>, %v: memref<6x8xf32>) {
  %t = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  %s = memref.alloc() {alignment = 64 : i64} : memref<8x8xf32>
  affine.for %h = 0 to 16 {
    affine.for %w = 0 to 16 {
      %a = affine.load %x[%h, %w] : memref<16x18xf32>
      %b = affine.load %x[%h, %w + 2] : memref<16x18xf32>
      %r = arith.addf %a, %b : f32
      affine.store %r, %t[%h, %w] : memref<16x16xf32>
    }
  }
  affine.for %h = 0 to 8 {
    affine.for %w = 0 to 8 {
      %a = affine.load %u[%h, %w] : memref<8x10xf32>
      %b = affine.load %u[%h, %w + 2] : memref<8x10xf32>
      %r = arith.addf %a, %b : f32
      affine.store %r, %s[%h, %w] : memref<8x8xf32>
    }
  }
  affine.for %h = 0 to 14 {
    affine.for %w = 0 to 16 {
      %a = affine.load %t[%h, %w] : memref<16x16xf32>
      %b = affine.load %t[%h + 2, %w] : memref<16x16xf32>
      %r = arith.addf %a, %b : f32
      affine.store %r, %y[%h, %w] : memref<14x16xf32>
    }
  }
  affine.for %h = 0 to 6 {
    affine.for %w = 0 to 8 {
      %a = affine.load %s[%h, %w] : memref<8x8xf32>
      %b = affine.load %s[%h + 2, %w] : memref<8x8xf32>
      %r = arith.addf %a, %b : f32
      affine.store %r, %v[%h, %w] : memref<6x8xf32>
    }
  }
  memref.dealloc %t : memref<16x16xf32>
  memref.dealloc %s : memref<8x8xf32>
  return
}
