// RUN: pb-opt %s --split-input-file --pb-gpu-map="chip=sm_90" --canonicalize | FileCheck %s
// RUN: pb-opt %s --split-input-file --pb-gpu-map="chip=sm_90 report=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// Row sums of 301 rows of 200: 32 lanes a row (x), 2 rows a block (y: 301
// x 32 threads over 132 multiprocessors), 151 blocks, the last one's second
// row padding (clamped in range, no iterations, no write). Lane t sums
// k = t, t + 32, ... from -0.0; the partial sums meet in workgroup memory,
// fold as a tree (16, 8, 4, 2, 1) with a barrier after each level, and lane
// 0 adds the total into the sum the earlier fill left.
// CHECK-LABEL: func.func @row_sums
// CHECK: gpu.launch blocks(%[[B:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c151, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[LANE:.*]], %[[ROW:.*]], %{{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c2, %{{.*}} = %c1) workgroup(%[[SH:.*]] : memref<2x32xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[FIRST:.*]] = arith.muli %[[B]], %c2
// CHECK: %[[P:.*]] = arith.addi %[[FIRST]], %[[ROW]]
// CHECK: %[[ACTIVE:.*]] = arith.cmpi ult, %[[P]], %c301
// CHECK: %[[I:.*]] = arith.minui %[[P]], %c300
// CHECK: %[[UB:.*]] = arith.select %[[ACTIVE]], %c200, %c0
// CHECK: %[[PART:.*]] = scf.for %[[K:.*]] = %[[LANE]] to %[[UB]] step %c32 iter_args(%[[ACC:.*]] = %cst) -> (f32)
// CHECK: memref.load %{{.*}}[%[[I]], %[[K]]]
// CHECK: memref.store %[[PART]], %[[SH]][%[[ROW]], %[[LANE]]]
// CHECK-NEXT: gpu.barrier
// CHECK: arith.cmpi ult, %[[LANE]], %c16
// CHECK: gpu.barrier
// CHECK: arith.cmpi ult, %[[LANE]], %c1
// CHECK: scf.if
// CHECK: gpu.barrier
// CHECK: %[[LANE0:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK: %[[WRITES:.*]] = arith.andi %[[LANE0]], %[[ACTIVE]]
// CHECK: scf.if %[[WRITES]] {
// CHECK: %[[TOTAL:.*]] = memref.load %[[SH]][%[[ROW]], %c0]
// CHECK: %[[OLD:.*]] = memref.load %{{.*}}[%[[I]]]
// CHECK: %[[NEW:.*]] = arith.addf %[[TOTAL]], %[[OLD]]
// CHECK: memref.store %[[NEW]], %{{.*}}[%[[I]]]
// CHECK-NOT: scf.parallel
// REPORT: [pb-gpu-map] 1-d parallel band 301 reducing 200 iterations per point over 32 threads, blocks of 32x2 threads, grid 151
func.func @row_sums(%x: memref<301x200xf32>, %s: memref<301xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c200 = arith.constant 200 : index
  %c301 = arith.constant 301 : index
  scf.parallel (%i) = (%c0) to (%c301) step (%c1) {
    scf.for %k = %c0 to %c200 step %c1 {
      %v = memref.load %x[%i, %k] : memref<301x200xf32>
      %a = memref.load %s[%i] : memref<301xf32>
      %t = arith.addf %v, %a : f32
      memref.store %t, %s[%i] : memref<301xf32>
    }
    scf.reduce
  }
  return
}

// -----

// The maximum over h and w of NCHW (a global pool): the two reduction loops
// flattened into one index (h = f / 12, w = f mod 12) over 64 lanes (8
// points alone leave the GPU empty: lanes double while each keeps at least 8
// of the 44 x 12 iterations), from -inf; the max folds as the original op
// did (accumulator first).
// CHECK-LABEL: func.func @global_max
// CHECK: threads(%[[LANE:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c64, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK: scf.for %[[F:.*]] = %[[LANE]] to %c528 step %c64 iter_args(%[[ACC:.*]] = %cst) -> (f32)
// CHECK-DAG: %[[W:.*]] = arith.remui %[[F]], %c12
// CHECK-DAG: %[[H:.*]] = arith.divui %[[F]], %c12
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}, %[[H]], %[[W]]]
// CHECK: arith.maximumf %[[ACC]], %{{.*}} : f32
// CHECK: arith.cmpi ult, %[[LANE]], %c32
// CHECK: arith.maximumf
// REPORT: [pb-gpu-map] 2-d parallel band 2x4 reducing 528 iterations per point over 64 threads, blocks of 64x1 threads, grid 8
func.func @global_max(%x: memref<2x4x44x12xf32>, %m: memref<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %c44 = arith.constant 44 : index
  scf.parallel (%n, %c) = (%c0, %c0) to (%c2, %c4) step (%c1, %c1) {
    scf.for %h = %c0 to %c44 step %c1 {
      scf.for %w = %c0 to %c12 step %c1 {
        %v = memref.load %x[%n, %c, %h, %w] : memref<2x4x44x12xf32>
        %a = memref.load %m[%n, %c] : memref<2x4xf32>
        %t = arith.maximumf %a, %v : f32
        memref.store %t, %m[%n, %c] : memref<2x4xf32>
      }
    }
    scf.reduce
  }
  return
}

// -----

// Column sums (x[k, j]): neighbouring points read neighbouring elements,
// so points go on x (32 a block) and lanes on y: 300 points alone leave the
// GPU empty, so 8 lanes (a block of 256) share each column's 300 rows.
// Refused, each left one thread per point with its loop:
// - a reduction shorter than a warp;
// - a fold that is not associative (a - x).
// CHECK-LABEL: func.func @refusals
// CHECK: threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c8, %{{.*}} = %c1) workgroup(%[[SH:.*]] : memref<32x8xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for %[[K:.*]] = %[[TY]] to %{{.*}} step %c8
// CHECK: memref.load %{{.*}}[%[[K]], %{{.*}}] : memref<300x300xf32>
// CHECK: memref.store %{{.*}}, %[[SH]][%[[TX]], %[[TY]]]
// CHECK: return
// REPORT: [pb-gpu-map] 1-d parallel band 300 reducing 300 iterations per point over 8 threads (points on x: their elements are the contiguous ones), blocks of 32x8 threads, grid 10
// REPORT: [pb-gpu-map] 1-d parallel band 300 on blocks of
// REPORT: [pb-gpu-map] 1-d parallel band 300 on blocks of
func.func @refusals(%x: memref<300x300xf32>, %s: memref<300xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c300 = arith.constant 300 : index
  scf.parallel (%j) = (%c0) to (%c300) step (%c1) {
    scf.for %k = %c0 to %c300 step %c1 {
      %v = memref.load %x[%k, %j] : memref<300x300xf32>
      %a = memref.load %s[%j] : memref<300xf32>
      %t = arith.addf %v, %a : f32
      memref.store %t, %s[%j] : memref<300xf32>
    }
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c300) step (%c1) {
    scf.for %k = %c0 to %c16 step %c1 {
      %v = memref.load %x[%i, %k] : memref<300x300xf32>
      %a = memref.load %s[%i] : memref<300xf32>
      %t = arith.addf %v, %a : f32
      memref.store %t, %s[%i] : memref<300xf32>
    }
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c300) step (%c1) {
    scf.for %k = %c0 to %c300 step %c1 {
      %v = memref.load %x[%i, %k] : memref<300x300xf32>
      %a = memref.load %s[%i] : memref<300xf32>
      %t = arith.subf %a, %v : f32
      memref.store %t, %s[%i] : memref<300xf32>
    }
    scf.reduce
  }
  return
}

// -----

// A whole-array sum (no parallel loop around it): one block of 256 lanes
// over the 1000 x 300 flattened elements; lane 0 folds the total into the
// 0-d sum the one-thread kernel before filled.
// CHECK-LABEL: func.func @total
// CHECK: gpu.launch {{.*}} threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK: memref.store %cst{{.*}}, %{{.*}}[] : memref<f32>
// CHECK: gpu.launch {{.*}} threads(%[[LANE:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1) workgroup(%{{.*}} : memref<1x256xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for %{{.*}} = %[[LANE]] to %c300000 step %c256
// CHECK: arith.cmpi ult, %[[LANE]], %c128
// CHECK: arith.cmpi eq, %[[LANE]], %c0
// CHECK: memref.load %{{.*}}[] : memref<f32>
// CHECK: memref.store %{{.*}}, %{{.*}}[] : memref<f32>
// REPORT: [pb-gpu-map] sequential code in a one-thread kernel
// REPORT: [pb-gpu-map] a reduction of 300000 iterations over one block of 256 threads
func.func @total(%x: memref<1000x300xf32>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c300 = arith.constant 300 : index
  %c1000 = arith.constant 1000 : index
  %z = arith.constant 0.0 : f32
  memref.store %z, %s[] : memref<f32>
  scf.for %i = %c0 to %c1000 step %c1 {
    scf.for %k = %c0 to %c300 step %c1 {
      %v = memref.load %x[%i, %k] : memref<1000x300xf32>
      %a = memref.load %s[] : memref<f32>
      %t = arith.addf %a, %v : f32
      memref.store %t, %s[] : memref<f32>
    }
  }
  return
}

// -----

// Column sums written with the reduction loop outside (the order a
// reduction over dim 0 lowers to): each column updates only its own sum, so
// the sequential loop moves inside the parallel one (one launch instead of
// one per row), and the band's columns go on x with lanes on y.
// Not for a sweep whose points read their neighbours' elements (@sweep):
// the loop stays on the host, a launch per step.
// CHECK-LABEL: func.func @column_sums
// CHECK: gpu.launch {{.*}} threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c8, %{{.*}} = %c1) workgroup
// CHECK: scf.for %[[K:.*]] = %[[TY]] to %{{.*}} step %c8
// CHECK: memref.load %{{.*}}[%[[K]], %{{.*}}] : memref<400x100xf32>
// CHECK-LABEL: func.func @sweep
// CHECK: scf.for
// CHECK: gpu.launch
// REPORT: [pb-gpu-map] sequential loop moved inside the parallel loop it held (each point updates only its own elements)
// REPORT: [pb-gpu-map] 1-d parallel band 100 reducing 400 iterations per point over 8 threads (points on x: their elements are the contiguous ones), blocks of 32x8 threads, grid 4
// REPORT: [pb-gpu-map] 1-d parallel band 99 on blocks of
// REPORT-NOT: sequential loop moved
func.func @column_sums(%x: memref<400x100xf32>, %s: memref<100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %c400 = arith.constant 400 : index
  scf.for %k = %c0 to %c400 step %c1 {
    scf.parallel (%j) = (%c0) to (%c100) step (%c1) {
      %v = memref.load %x[%k, %j] : memref<400x100xf32>
      %a = memref.load %s[%j] : memref<100xf32>
      %t = arith.addf %a, %v : f32
      memref.store %t, %s[%j] : memref<100xf32>
      scf.reduce
    }
  }
  return
}
func.func @sweep(%a: memref<100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c99 = arith.constant 99 : index
  %c10 = arith.constant 10 : index
  scf.for %t = %c0 to %c10 step %c1 {
    scf.parallel (%i) = (%c0) to (%c99) step (%c1) {
      %n = arith.addi %i, %c1 : index
      %v = memref.load %a[%n] : memref<100xf32>
      %w = memref.load %a[%i] : memref<100xf32>
      %s = arith.addf %v, %w : f32
      memref.store %s, %a[%i] : memref<100xf32>
      scf.reduce
    }
  }
  return
}
