// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-transpose-tile{width=8 report=true}))' %s --verify-diagnostics | FileCheck %s

// A 20x12 -> 12x20 transpose: 8x8 blocks (rows 0..16 of A, columns 0..8),
// each 8 vector loads along A's rows, one vector.transpose, 8 vector
// stores along B's rows; clones of the original nest keep B's rows 16..20
// and columns 8..12.
// CHECK-LABEL: func.func @transpose
// CHECK: affine.for %[[P:.*]] = 0 to 16 step 8 {
// CHECK-NEXT: affine.for %[[Q:.*]] = 0 to 8 step 8 {
// CHECK-COUNT-8: affine.vector_load %arg0[%{{.*}}, %[[P]]] : memref<12x20xf32>, vector<8xf32>
// CHECK: vector.transpose %{{.*}}, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK-COUNT-8: affine.vector_store %{{.*}}, %arg1[%{{.*}}, %[[Q]]] : memref<20x12xf32>, vector<8xf32>
// Remainders: B's columns 8..12 of the full rows, then rows 16..20.
// CHECK: affine.for %{{.*}} = 0 to 16 {
// CHECK-NEXT: affine.for %{{.*}} = 8 to 12 {
// CHECK: affine.for %{{.*}} = 16 to 20 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 12 {
func.func @transpose(%a: memref<12x20xf32>, %b: memref<20x12xf32>) {
  // expected-remark @+1 {{[pb-transpose-tile] transposing copy in 8x8 blocks (20 x 12 elements)}}
  affine.for %i = 0 to 20 {
    affine.for %j = 0 to 12 {
      %x = affine.load %a[%j, %i] : memref<12x20xf32>
      affine.store %x, %b[%i, %j] : memref<20x12xf32>
    }
  }
  return
}

// A head permute (1x4x16x8 -> 1x16x4x8) keeps its last index: not a
// transpose of the contiguous dimension, left alone.
// CHECK-LABEL: func.func @permute_keeps_last
// CHECK-NOT: vector.transpose
// CHECK: return
func.func @permute_keeps_last(%a: memref<1x4x16x8xf32>, %b: memref<1x16x4x8xf32>) {
  affine.for %h = 0 to 4 {
    affine.for %s = 0 to 16 {
      affine.for %d = 0 to 8 {
        %x = affine.load %a[0, %h, %s, %d] : memref<1x4x16x8xf32>
        affine.store %x, %b[0, %s, %h, %d] : memref<1x16x4x8xf32>
      }
    }
  }
  return
}

// A value that is changed on the way (not a copy): left alone.
// CHECK-LABEL: func.func @not_a_copy
// CHECK-NOT: vector.transpose
// CHECK: return
func.func @not_a_copy(%a: memref<16x16xf32>, %b: memref<16x16xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %x = affine.load %a[%j, %i] : memref<16x16xf32>
      %y = arith.negf %x : f32
      affine.store %y, %b[%i, %j] : memref<16x16xf32>
    }
  }
  return
}

// Fewer columns than a block: refused, with the reason.
// CHECK-LABEL: func.func @narrow
// CHECK-NOT: vector.transpose
// CHECK: return
func.func @narrow(%a: memref<4x16xf32>, %b: memref<16x4xf32>) {
  // expected-remark @+1 {{[pb-transpose-tile] not tiled: the transposed loops run 16 and 4 times, fewer than a block of 8}}
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 4 {
      %x = affine.load %a[%j, %i] : memref<4x16xf32>
      affine.store %x, %b[%i, %j] : memref<16x4xf32>
    }
  }
  return
}
