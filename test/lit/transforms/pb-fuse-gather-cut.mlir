// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{cores=2 report=true row-tile=4}))' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err

// A blur along x then y (two nests, one temporary), then a lookup into a
// table at indices read from memory (a gather: `memref.load` at a computed
// index, which the polyhedral model cannot read). The run is cut at the
// gather's nest and the blur fuses on its own; the gather runs as it was.
// (The row tile is forced: at this size the model prefers the nests apart.)
// REPORT: remark: [pb-fuse] not fused: 'memref.load' in a loop body (cut at the 1 nests it cannot read alone; the nests between them are tried alone)
// REPORT: remark: [pb-fuse] fused producers S0 into consumers S1 of A2: row tile 4
// CHECK-LABEL: func.func @blur_then_lookup
// CHECK-NOT: memref.alloc()
// CHECK: affine.parallel
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<{{.*}}xf32>
// CHECK: memref.load %arg3[%{{.*}}] : memref<8xf32>
func.func @blur_then_lookup(%x: memref<16x18xf32>, %y: memref<16x16xf32>, %idx: memref<16x16xindex>, %table: memref<8xf32>, %z: memref<16x16xf32>) {
  %t = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  affine.for %h = 0 to 16 {
    affine.for %w = 0 to 16 {
      %a = affine.load %x[%h, %w] : memref<16x18xf32>
      %b = affine.load %x[%h, %w + 2] : memref<16x18xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %t[%h, %w] : memref<16x16xf32>
    }
  }
  affine.for %h = 0 to 14 {
    affine.for %w = 0 to 16 {
      %a = affine.load %t[%h, %w] : memref<16x16xf32>
      %b = affine.load %t[%h + 2, %w] : memref<16x16xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %y[%h, %w] : memref<16x16xf32>
    }
  }
  affine.for %h = 0 to 16 {
    affine.for %w = 0 to 16 {
      %i = affine.load %idx[%h, %w] : memref<16x16xindex>
      %v = memref.load %table[%i] : memref<8xf32>
      affine.store %v, %z[%h, %w] : memref<16x16xf32>
    }
  }
  memref.dealloc %t : memref<16x16xf32>
  return
}
