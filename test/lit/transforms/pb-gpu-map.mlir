// RUN: pb-opt %s --split-input-file --pb-gpu-map="chip=sm_90" --canonicalize | FileCheck %s
// RUN: pb-opt %s --split-input-file --pb-gpu-map="chip=sm_90 report=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not pb-opt %s --split-input-file --pb-gpu-map="chip=sm_70" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP

// A 2-d band: one launch, x on the inner (contiguous) dimension, 29 -> 32
// threads, a guard for the 3 past the end; the grid is blockIdx.x over 67
// rows. 67 x 29 points over 132 multiprocessors: 32 threads a block.
// CHECK-LABEL: func.func @shift
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c67, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[TX]], %c29 : index
// CHECK: scf.if %[[IN]] {
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK-NOT: scf.parallel
// REPORT: [pb-gpu-map] 2-d parallel band 67x29 on blocks of 32x1 threads, grid 67
func.func @shift(%a: memref<67x29xf32>, %c: memref<67x29xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c29 = arith.constant 29 : index
  %c67 = arith.constant 67 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c67) step (%c1) {
    scf.parallel (%j) = (%c0) to (%c29) step (%c1) {
      %x = memref.load %a[%i, %j] : memref<67x29xf32>
      %y = arith.addf %x, %one : f32
      memref.store %y, %c[%i, %j] : memref<67x29xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// A small matmul the FMA tiles did not take (67 x 29 outputs: too few
// threads for the GPU alone): B[k, j] is contiguous along the outputs, so
// outputs go on x (32 a block, flattened i * 29 + j: 61 blocks, the last
// padded) and 4 lanes on y share each output's 45 reductions.
// CHECK-LABEL: func.func @matmul
// CHECK: gpu.launch blocks(%[[B:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c61, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c4, %{{.*}} = %c1) workgroup(%[[SH:.*]] : memref<32x4xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[P0:.*]] = arith.muli %[[B]], %c32
// CHECK: %[[P:.*]] = arith.addi %[[P0]], %[[TX]]
// CHECK: %[[ACTIVE:.*]] = arith.cmpi ult, %[[P]], %c1943
// CHECK: %[[J:.*]] = arith.remui %{{.*}}, %c29
// CHECK: %[[I:.*]] = arith.divui %{{.*}}, %c29
// CHECK: scf.for %[[K:.*]] = %[[TY]] to %{{.*}} step %c4 iter_args
// CHECK: memref.load %{{.*}}[%[[I]], %[[K]]]
// CHECK: memref.load %{{.*}}[%[[K]], %[[J]]]
// CHECK: memref.store %{{.*}}, %[[SH]][%[[TX]], %[[TY]]]
// CHECK: gpu.barrier
// CHECK: arith.cmpi ult, %[[TY]], %c2
// REPORT: [pb-gpu-map] 2-d parallel band 67x29 reducing 45 iterations per point over 4 threads (points on x: their elements are the contiguous ones), blocks of 32x4 threads, grid 61
func.func @matmul(%a: memref<67x45xf32>, %b: memref<45x29xf32>, %c: memref<67x29xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c29 = arith.constant 29 : index
  %c45 = arith.constant 45 : index
  %c67 = arith.constant 67 : index
  scf.parallel (%i) = (%c0) to (%c67) step (%c1) {
    scf.parallel (%j) = (%c0) to (%c29) step (%c1) {
      scf.for %k = %c0 to %c45 step %c1 {
        %x = memref.load %a[%i, %k] : memref<67x45xf32>
        %y = memref.load %b[%k, %j] : memref<45x29xf32>
        %z = memref.load %c[%i, %j] : memref<67x29xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        memref.store %s, %c[%i, %j] : memref<67x29xf32>
      }
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// A large 1-d band: 256 threads a block, a multiple of the size: no guard.
// A sequential loop nest and a scalar store after it: one one-thread launch.
// CHECK-LABEL: func.func @scale_then_sum
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c4096, {{.*}} threads({{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-NOT: scf.if
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %arg1[]
// CHECK: gpu.terminator
// CHECK: return
// REPORT: [pb-gpu-map] 1-d parallel band 1048576 on blocks of 256x1 threads, grid 4096
// REPORT: [pb-gpu-map] sequential code in a one-thread kernel
func.func @scale_then_sum(%x: memref<1048576xf32>, %total: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1048576 : index
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<1048576xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %x[%i] : memref<1048576xf32>
    scf.reduce
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %x[%i] : memref<1048576xf32>
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  }
  memref.store %s, %total[] : memref<f32>
  return
}

// -----

// A sequential loop around a parallel one (a max over rows, parallel over
// columns) where each column updates only its own maximum: the loop moves
// inside, one launch of 17 threads each walking its column (31 rows: fewer
// than a warp, so no lanes). A loop whose points share elements stays on
// the host with its body mapped (pb-gpu-map-reduction.mlir, @sweep).
// CHECK-LABEL: func.func @column_max
// CHECK-NEXT: arith.constant
// CHECK-NOT: scf.for
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: arith.maximumf
// CHECK: gpu.terminator
// CHECK: return
func.func @column_max(%x: memref<31x17xf32>, %m: memref<17xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c17 = arith.constant 17 : index
  %c31 = arith.constant 31 : index
  scf.for %i = %c0 to %c31 step %c1 {
    scf.parallel (%j) = (%c0) to (%c17) step (%c1) {
      %v = memref.load %x[%i, %j] : memref<31x17xf32>
      %w = memref.load %m[%j] : memref<17xf32>
      %a = arith.maximumf %v, %w : f32
      memref.store %a, %m[%j] : memref<17xf32>
      scf.reduce
    }
  }
  return
}

// CHIP: pb-gpu-map: unknown GPU 'sm_70' (known: sm_80, sm_86, sm_89, sm_90, gfx1100)

// -----

// A scalar computed in a one-thread kernel (a 0-d sum) and read by a later
// kernel stays on the device: stored into a 0-d buffer, loaded inside the
// kernel that uses it. The filter taps of a constant global are read on the
// host and passed in as values.
// CHECK-LABEL: func.func @scalar_to_kernel
// CHECK: %[[TAP:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<2xf32>
// CHECK: %[[BOX:.*]] = memref.alloc() : memref<f32>
// CHECK: gpu.launch
// CHECK: %[[SUM:.*]] = scf.for
// CHECK: memref.store %[[SUM]], %[[BOX]][] : memref<f32>
// CHECK: gpu.launch
// CHECK: %[[S:.*]] = memref.load %[[BOX]][] : memref<f32>
// CHECK: arith.divf %{{.*}}, %[[S]]
// CHECK: arith.mulf %{{.*}}, %[[TAP]]
// CHECK: memref.dealloc %[[BOX]] : memref<f32>
// CHECK-NEXT: return
memref.global "private" constant @taps : memref<2xf32> = dense<[0.25, 0.75]>
func.func @scalar_to_kernel(%x: memref<64xf32>, %y: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %g = memref.get_global @taps : memref<2xf32>
  %tap = memref.load %g[%c1] : memref<2xf32>
  %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %x[%i] : memref<64xf32>
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %v = memref.load %x[%i] : memref<64xf32>
    %n = arith.divf %v, %sum : f32
    %w = arith.mulf %n, %tap : f32
    memref.store %w, %y[%i] : memref<64xf32>
    scf.reduce
  }
  return
}

// -----

// Scalar work between two parallel loops (a row's sum loaded and divided,
// then used by every element of the row) moves into the inner loop, so the
// band keeps both dimensions: 300 x 200 points, not 300 threads each
// walking a row. Not when the inner loop writes what is loaded (@written).
// CHECK-LABEL: func.func @sunk
// CHECK: gpu.launch
// CHECK: scf.if
// CHECK: %[[SUM:.*]] = memref.load %arg1
// CHECK: %[[MEAN:.*]] = arith.divf %[[SUM]]
// CHECK: arith.subf %{{.*}}, %[[MEAN]]
// REPORT: [pb-gpu-map] 2-d parallel band 300x200 on blocks of
func.func @sunk(%x: memref<300x200xf32>, %s: memref<300xf32>, %y: memref<300x200xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c200 = arith.constant 200 : index
  %c300 = arith.constant 300 : index
  %n = arith.constant 200.0 : f32
  scf.parallel (%i) = (%c0) to (%c300) step (%c1) {
    %sum = memref.load %s[%i] : memref<300xf32>
    %mean = arith.divf %sum, %n : f32
    scf.parallel (%j) = (%c0) to (%c200) step (%c1) {
      %v = memref.load %x[%i, %j] : memref<300x200xf32>
      %d = arith.subf %v, %mean : f32
      memref.store %d, %y[%i, %j] : memref<300x200xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// CHECK-LABEL: func.func @written
// REPORT: [pb-gpu-map] 1-d parallel band 300 on blocks of
func.func @written(%x: memref<300x200xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c200 = arith.constant 200 : index
  %c300 = arith.constant 300 : index
  scf.parallel (%i) = (%c0) to (%c300) step (%c1) {
    %first = memref.load %x[%i, %c0] : memref<300x200xf32>
    scf.parallel (%j) = (%c0) to (%c200) step (%c1) {
      %v = memref.load %x[%i, %j] : memref<300x200xf32>
      %d = arith.subf %v, %first : f32
      memref.store %d, %x[%i, %j] : memref<300x200xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}
