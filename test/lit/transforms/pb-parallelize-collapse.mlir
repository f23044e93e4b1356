// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-parallelize{cores=2}))' %s --split-input-file | FileCheck %s
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-parallelize{cores=3}))' %s --split-input-file | FileCheck %s --check-prefix=THREE
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-parallelize{cores=2},pb-parallel-grain{min-work=1000000000}))' %s --split-input-file | FileCheck %s --check-prefix=GRAIN

// Three channels on two threads would leave one thread idle a third of
// the time: the dependence-free row loop joins the channel loop (3 x 64
// iterations share evenly). On three threads the channels alone do. With
// too little work for a fork, the two-dimensional loop becomes two
// sequential loops again.
// CHECK-LABEL: func.func @channels
// CHECK: affine.parallel (%[[C:.*]], %[[I:.*]]) = (0, 0) to (3, 64) {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 64 {
// CHECK-NEXT: affine.load %{{.*}}[%[[C]], %[[I]], %[[J]]]
// THREE-LABEL: func.func @channels
// THREE: affine.parallel (%{{.*}}) = (0) to (3) {
// THREE-NEXT: affine.for %{{.*}} = 0 to 64 {
// GRAIN-LABEL: func.func @channels
// GRAIN-NOT: affine.parallel
// GRAIN: affine.for %[[C:.*]] = 0 to 3 {
// GRAIN-NEXT: affine.for %[[I:.*]] = 0 to 64 {
// GRAIN-NEXT: affine.for %[[J:.*]] = 0 to 64 {
// GRAIN-NEXT: affine.load %{{.*}}[%[[C]], %[[I]], %[[J]]]
func.func @channels(%a: memref<3x64x64xf32>, %b: memref<3x64x64xf32>) {
  affine.for %c = 0 to 3 {
    affine.for %i = 0 to 64 {
      affine.for %j = 0 to 64 {
        %x = affine.load %a[%c, %i, %j] : memref<3x64x64xf32>
        %y = arith.mulf %x, %x : f32
        affine.store %y, %b[%c, %i, %j] : memref<3x64x64xf32>
      }
    }
  }
  return
}

// -----

// The inner loop carries a dependence (each element reads the one before
// it): it stays sequential, the channels alone are shared.
// CHECK-LABEL: func.func @carried_rows
// CHECK: affine.parallel (%{{.*}}) = (0) to (3) {
// CHECK-NEXT: affine.for %{{.*}} = 1 to 64 {
func.func @carried_rows(%a: memref<3x64xf32>) {
  affine.for %c = 0 to 3 {
    affine.for %i = 1 to 64 {
      %x = affine.load %a[%c, %i - 1] : memref<3x64xf32>
      affine.store %x, %a[%c, %i] : memref<3x64xf32>
    }
  }
  return
}

// -----

// Not a perfect nest (a second statement beside the inner loop), or an
// inner loop with bounds that depend on the outer one: no collapse.
// CHECK-LABEL: func.func @imperfect
// CHECK: affine.parallel (%{{.*}}) = (0) to (3) {
// CHECK: affine.parallel (%{{.*}}) = (0) to (5) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to #{{.*}}(%{{.*}}) {
func.func @imperfect(%a: memref<3x64xf32>, %s: memref<3xf32>, %t: memref<5x8xf32>) {
  %z = arith.constant 0.0 : f32
  affine.for %c = 0 to 3 {
    affine.store %z, %s[%c] : memref<3xf32>
    affine.for %i = 0 to 64 {
      affine.store %z, %a[%c, %i] : memref<3x64xf32>
    }
  }
  affine.for %r = 0 to 5 {
    affine.for %i = 0 to affine_map<(d0) -> (d0 + 3)>(%r) {
      affine.store %z, %t[%r, %i] : memref<5x8xf32>
    }
  }
  return
}
