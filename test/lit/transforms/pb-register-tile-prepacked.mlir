// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-register-tile{width=8 registers=16 l1-bytes=32768 l2-bytes=524288 cores=2 prepacked=true report=true}),canonicalize)' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-register-tile{width=8 registers=16 l1-bytes=32768 l2-bytes=524288 cores=2 prepacked=true}),canonicalize,pb-allocs-to-pool{strict=false})' %s | FileCheck %s --check-prefix=POOL
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-register-tile{width=8 registers=16 l1-bytes=32768 l2-bytes=524288 cores=2}),canonicalize)' %s | FileCheck %s --check-prefix=OFF

// A weight (B, an argument the driver marks `pb.static`: a model's
// parameter) is packed once into a buffer kept between calls, all column
// panels in the order the register tiles read them (70 columns: 5 panels
// of 16, the last one's 10 missing columns zero), when the pool's prepared
// flag is 0; the function sets the flag to 1 before it returns. The
// kernel then reads its B vectors from that buffer, and no per-call panel
// is packed.
// CHECK-LABEL: func.func @linear
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[FLAG:.*]] = memref.alloc() {pb.prepared_flag} : memref<i32>
// CHECK-DAG: %[[BP:.*]] = memref.alloc() {alignment = 64 : i64, pb.persistent} : memref<5x200x16xf32>
// CHECK: %[[READ:.*]] = memref.load %[[FLAG]][] : memref<i32>
// CHECK: %[[STALE:.*]] = arith.cmpi eq, %[[READ]], %[[ZERO]] : i32
// CHECK: scf.if %[[STALE]] {
// CHECK: affine.parallel (%[[JR:.*]]) = (0) to (70) step (16) {
// CHECK: %[[W:.*]] = affine.load %arg1[%{{.*}}, %[[JR]] + %{{.*}}] : memref<200x70xf32>
// CHECK: affine.store %[[W]], %[[BP]][%[[JR]] floordiv 16, %{{.*}}, %{{.*}}] : memref<5x200x16xf32>
// CHECK: affine.for %{{.*}} = max #{{.*}}(%[[JR]]) to 16 {
// CHECK: affine.store %{{.*}}, %[[BP]]
// The branch runs once per version of the weights (pb-scalar-once).
// CHECK: } {pb.once}
// CHECK: affine.parallel
// CHECK-NOT: affine.load %arg1
// CHECK: affine.vector_load %[[BP]][%{{.*}} floordiv 16, %{{.*}}, 0] : memref<5x200x16xf32>, vector<8xf32>
// CHECK: affine.vector_load %[[BP]][%{{.*}} floordiv 16, %{{.*}}, 8] : memref<5x200x16xf32>, vector<8xf32>
// CHECK-NOT: affine.load %arg1
// CHECK: memref.store %[[ONE]], %[[FLAG]][] : memref<i32>
// CHECK-NEXT: return
// REPORT: prepacked.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: [pb-register-tile] register tile 6x16 {{.*}}prepacked{{.*}}; B packed once per parameter version (62 KiB kept)

// The pool: the flag at offset 0 (where the caller finds it, recorded on
// the function), the packed weights after it, for good.
// POOL-LABEL: func.func @linear
// POOL-SAME: attributes {pb.prepared_flag_offset = 0 : i64
// POOL-DAG: %[[C0:.*]] = arith.constant 0 : index
// POOL-DAG: %[[C64:.*]] = arith.constant 64 : index
// POOL-DAG: memref.view %{{.*}}[%[[C0]]][] : memref<{{[0-9]+}}xi8> to memref<i32>
// POOL-DAG: memref.view %{{.*}}[%[[C64]]][] : memref<{{[0-9]+}}xi8> to memref<5x200x16xf32>
// POOL-NOT: memref.alloc()
// POOL-LABEL: func.func @not_static

// Without the option the same weight is packed per call, panel by panel.
// OFF-LABEL: func.func @linear
// OFF-NOT: pb.persistent
// OFF-NOT: pb.prepared_flag
// OFF: memref.alloca() {alignment = 64 : i64} : memref<200x16xf32>
func.func @linear(%a: memref<64x200xf32>, %b: memref<200x70xf32> {pb.static}, %c: memref<64x70xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 70 {
      affine.for %k = 0 to 200 {
        %x = affine.load %a[%i, %k] : memref<64x200xf32>
        %y = affine.load %b[%k, %j] : memref<200x70xf32>
        %z = affine.load %c[%i, %j] : memref<64x70xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<64x70xf32>
      }
    }
  }
  return
}

// Refused: B is not a static argument (an activation: it changes every
// call), so it is packed per call as before.
// CHECK-LABEL: func.func @not_static
// CHECK-NOT: pb.persistent
// CHECK-NOT: pb.prepared_flag
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<200x16xf32>
// CHECK-LABEL: func.func @batched
func.func @not_static(%a: memref<64x200xf32>, %b: memref<200x70xf32>, %c: memref<64x70xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 70 {
      affine.for %k = 0 to 200 {
        %x = affine.load %a[%i, %k] : memref<64x200xf32>
        %y = affine.load %b[%k, %j] : memref<200x70xf32>
        %z = affine.load %c[%i, %j] : memref<64x70xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<64x70xf32>
      }
    }
  }
  return
}

// Refused: a static B that differs per matrix of the batch loop (each
// would need its own packed copy).
// CHECK-NOT: pb.persistent
func.func @batched(%a: memref<4x64x200xf32>, %b: memref<4x200x70xf32> {pb.static}, %c: memref<4x64x70xf32>) {
  affine.for %n = 0 to 4 {
    affine.for %i = 0 to 64 {
      affine.for %j = 0 to 70 {
        affine.for %k = 0 to 200 {
          %x = affine.load %a[%n, %i, %k] : memref<4x64x200xf32>
          %y = affine.load %b[%n, %k, %j] : memref<4x200x70xf32>
          %z = affine.load %c[%n, %i, %j] : memref<4x64x70xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %z, %p : f32
          affine.store %s, %c[%n, %i, %j] : memref<4x64x70xf32>
        }
      }
    }
  }
  return
}

// A convolution's weights are A (the broadcast operand): packed once into
// register-tile order, 6 rows of each tile contiguous per reduction step
// (20 output channels: 3 tiles of 6 and a tail tile of 2, which the
// packing fills with its 2 rows only), and the register tiles broadcast
// from that copy.
// CHECK-LABEL: func.func @conv
// CHECK-DAG: %[[CFLAG:.*]] = memref.alloc() {pb.prepared_flag} : memref<i32>
// CHECK-DAG: %[[AP:.*]] = memref.alloc() {alignment = 64 : i64, pb.persistent} : memref<4x16x3x3x6xf32>
// CHECK: scf.if
// CHECK: affine.parallel (%[[IR:.*]]) = (0) to (18) step (6) {
// CHECK: %[[W0:.*]] = affine.load %arg1[%[[IR]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<20x16x3x3xf32>
// CHECK: affine.store %[[W0]], %[[AP]][%[[IR]] floordiv 6, %{{.*}}, %{{.*}}, %{{.*}}, 0]
// CHECK: affine.store %{{.*}}, %[[AP]][%[[IR]] floordiv 6, %{{.*}}, %{{.*}}, %{{.*}}, 5]
// CHECK: affine.for %{{.*}} = 18 to 20 step 6 {
// CHECK: affine.store %{{.*}}, %[[AP]][3, %{{.*}}, %{{.*}}, %{{.*}}, 1]
// CHECK-NOT: affine.store %{{.*}}, %[[AP]]
// CHECK: affine.parallel
// CHECK-NOT: affine.load %arg1
// CHECK: affine.load %[[AP]][%{{.*}} floordiv 6, %{{.*}}, %{{.*}}, %{{.*}}, 0] : memref<4x16x3x3x6xf32>
// CHECK: vector.broadcast
// CHECK-NOT: affine.load %arg1
// CHECK: memref.store %{{.*}}, %[[CFLAG]][] : memref<i32>
// CHECK-NEXT: return
// REPORT: prepacked.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: [pb-register-tile] {{.*}}A block 13 KiB, prepacked of 512 KiB L2); A packed once per parameter version (13 KiB kept)
func.func @conv(%x: memref<1x16x10x10xf32>, %w: memref<20x16x3x3xf32> {pb.static}, %y: memref<1x20x8x8xf32>) {
  affine.for %n = 0 to 1 {
    affine.for %co = 0 to 20 {
      affine.for %h = 0 to 8 {
        affine.for %v = 0 to 8 {
          affine.for %ci = 0 to 16 {
            affine.for %kh = 0 to 3 {
              affine.for %kw = 0 to 3 {
                %a = affine.load %x[%n, %ci, %h + %kh, %v + %kw] : memref<1x16x10x10xf32>
                %b = affine.load %w[%co, %ci, %kh, %kw] : memref<20x16x3x3xf32>
                %o = affine.load %y[%n, %co, %h, %v] : memref<1x20x8x8xf32>
                %p = arith.mulf %b, %a : f32
                %s = arith.addf %o, %p : f32
                affine.store %s, %y[%n, %co, %h, %v] : memref<1x20x8x8xf32>
              }
            }
          }
        }
      }
    }
  }
  return
}

// Few rows (96: 16 register tiles, 4 per thread's share) over many column
// panels: a B packed per call is packed once per column panel when the
// panels run in parallel (each thread its own), where each row block would
// pack all of it again. A prepacked B is only streamed by each row block,
// and the row blocks (24 rows, wider than a 16-column panel: B's stream
// per flop is the smaller) stay shared: each thread's rows of C stay in
// its cache across the reduction blocks. Over 48 rows (12 per block, fewer
// than a panel's columns) a prepacked B's panels are shared again.
// CHECK-LABEL: func.func @few_rows
// CHECK: affine.parallel (%{{.*}}) = (0) to (128) step (16) {
// CHECK: } {pb.once}
// CHECK: affine.parallel (%{{.*}}) = (0) to (96) step (24) {
// CHECK-LABEL: func.func @few_rows_per_call
// CHECK: affine.parallel (%{{.*}}) = (0) to (128) step (16) {
// CHECK-NOT: affine.parallel
// CHECK: return
// CHECK-LABEL: func.func @fewer_rows
// CHECK: } {pb.once}
// CHECK: affine.parallel (%{{.*}}) = (0) to (128) step (16) {
// REPORT: prepacked.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: [pb-register-tile] register tile 6x16 {{.*}}cache tile 24 rows x 64 reductions {{.*}}; B packed once per parameter version (32 KiB kept); row blocks in parallel
// REPORT: prepacked.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: [pb-register-tile] register tile 6x16 {{.*}}cache tile 96 rows x 64 reductions (B micro-panel 4 KiB, packed {{.*}}); column panels in parallel
// REPORT: prepacked.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: [pb-register-tile] register tile 6x16 {{.*}}cache tile 48 rows x 64 reductions {{.*}}; B packed once per parameter version (32 KiB kept); column panels in parallel
func.func @few_rows(%a: memref<96x64xf32>, %b: memref<64x128xf32> {pb.static}, %c: memref<96x128xf32>) {
  affine.for %i = 0 to 96 {
    affine.for %j = 0 to 128 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<96x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x128xf32>
        %z = affine.load %c[%i, %j] : memref<96x128xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<96x128xf32>
      }
    }
  }
  return
}
func.func @few_rows_per_call(%a: memref<96x64xf32>, %b: memref<64x128xf32>, %c: memref<96x128xf32>) {
  affine.for %i = 0 to 96 {
    affine.for %j = 0 to 128 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<96x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x128xf32>
        %z = affine.load %c[%i, %j] : memref<96x128xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<96x128xf32>
      }
    }
  }
  return
}
func.func @fewer_rows(%a: memref<48x64xf32>, %b: memref<64x128xf32> {pb.static}, %c: memref<48x128xf32>) {
  affine.for %i = 0 to 48 {
    affine.for %j = 0 to 128 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<48x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x128xf32>
        %z = affine.load %c[%i, %j] : memref<48x128xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<48x128xf32>
      }
    }
  }
  return
}
