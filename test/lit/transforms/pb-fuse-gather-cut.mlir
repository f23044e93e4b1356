// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{cores=2 report=true row-tile=4}))' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err

// A blur along x then y (two nests, one temporary), then a lookup into a
// table at indices read from memory (a gather: `memref.load` at a computed
// index). The table is an input no nest writes: the gather carries no
// dependence and fuses with the rest, cloned into the tiles.
// (Row tiles are forced: at these sizes the model prefers the nests apart.)
// REPORT: remark: [pb-fuse] fused producers S0 into consumers S1,S2 of A2: row tile 4
// CHECK-LABEL: func.func @blur_then_lookup
// CHECK-NOT: memref.alloc()
// CHECK: affine.parallel
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<3x16xf32>
// CHECK: memref.load %arg3[%{{.*}}] : memref<8xf32>
// CHECK: return
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

// A gather of a table the run computes (`%t`, written by the first nest):
// the gather must follow its writer, so the run is split before the
// gather's nest; the part after it (the gather into a temporary and the
// blur of that temporary) fuses on its own.
// REPORT: remark: [pb-fuse] not fused: S1 gathers from A1, which the loop nests write (split before 1 nests that gather from or write what another gathers)
// REPORT: remark: [pb-fuse] fused producers S0 into consumers S1 of A3: row tile 4
// CHECK-LABEL: func.func @lookup_of_a_computed_table
// CHECK: affine.for
// CHECK: affine.store %{{.*}}, %[[T:.*]][%{{.*}}] : memref<8xf32>
// CHECK: affine.parallel
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<3x16xf32>
// CHECK: memref.load %[[T]][%{{.*}}] : memref<8xf32>
func.func @lookup_of_a_computed_table(%c: memref<8xf32>, %idx: memref<16x16xindex>, %z: memref<14x16xf32>) {
  %t = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
  %u = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  affine.for %k = 0 to 8 {
    %a = affine.load %c[%k] : memref<8xf32>
    %s = arith.mulf %a, %a : f32
    affine.store %s, %t[%k] : memref<8xf32>
  }
  affine.for %h = 0 to 16 {
    affine.for %w = 0 to 16 {
      %i = affine.load %idx[%h, %w] : memref<16x16xindex>
      %v = memref.load %t[%i] : memref<8xf32>
      affine.store %v, %u[%h, %w] : memref<16x16xf32>
    }
  }
  affine.for %h = 0 to 14 {
    affine.for %w = 0 to 16 {
      %a = affine.load %u[%h, %w] : memref<16x16xf32>
      %b = affine.load %u[%h + 2, %w] : memref<16x16xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %z[%h, %w] : memref<14x16xf32>
    }
  }
  memref.dealloc %t : memref<8xf32>
  memref.dealloc %u : memref<16x16xf32>
  return
}
