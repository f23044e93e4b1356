// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-register-tile{width=8 registers=16 l1-bytes=4096 l2-bytes=65536 cores=1 report=true}),canonicalize)' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-register-tile{width=8 registers=16 l1-bytes=4096 l2-bytes=1048576 cores=1}),canonicalize)' %s | FileCheck %s --check-prefix=ROOMY

// C's row block (24 x 200 floats, 19 KiB) outgrows a quarter of L2 (16
// KiB) and the reduction runs in 3 blocks of 34: the columns are taken in
// blocks of whole panels (7 of 16 columns: 112) whose C stays in L2 while
// every reduction block adds to it. The column block loop is outside the
// reduction blocks; each runs its full panels (up to 192), and the block
// holding the 8 tail columns runs their panel.
// CHECK-LABEL: func.func @wide
// CHECK: affine.for %[[IB:.*]] = 0 to 24 step 24 {
// CHECK-NEXT: affine.for %[[JC:.*]] = 0 to 200 step 112 {
// CHECK-NEXT: affine.for %[[KB:.*]] = 0 to 100 step 34 {
// CHECK-NEXT: affine.for %{{.*}} = #{{.*}}(%[[JC]]) to min #[[MAIN:.*]](%[[JC]]) step 16 {
// CHECK: vector.fma
// CHECK: affine.for %{{.*}} = 192 to min #[[TAIL:.*]](%[[JC]]) step 16 {
// CHECK: vector.fma
// REPORT: remark: [pb-register-tile] register tile 6x16 {{.*}}, cache tile 24 rows x 112 columns x 34 reductions

// With room in L2 the panels run inside each reduction block, all of them.
// ROOMY-LABEL: func.func @wide
// ROOMY: affine.for %{{.*}} = 0 to 24 step 24 {
// ROOMY-NEXT: affine.for %{{.*}} = 0 to 100 step 34 {
// ROOMY-NEXT: affine.for %{{.*}} = 0 to 192 step 16 {
func.func @wide(%a: memref<24x100xf32>, %b: memref<100x200xf32>, %c: memref<24x200xf32>) {
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 200 {
      affine.for %k = 0 to 100 {
        %x = affine.load %a[%i, %k] : memref<24x100xf32>
        %y = affine.load %b[%k, %j] : memref<100x200xf32>
        %z = affine.load %c[%i, %j] : memref<24x200xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<24x200xf32>
      }
    }
  }
  return
}
