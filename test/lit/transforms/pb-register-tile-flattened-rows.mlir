// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-register-tile{width=8 registers=16 l1-bytes=32768 l2-bytes=524288 cores=2 report=true}),canonicalize)' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// RUN: FileCheck %s --check-prefix=NO-REPORT < %t.err
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-register-tile{width=8 registers=16 l1-bytes=32768 l1-ways=2 l2-bytes=524288 cores=2 report=true}),canonicalize)' %s 2>%t.alias | FileCheck %s --check-prefix=ALIAS
// RUN: FileCheck %s --check-prefix=ALIAS-REPORT < %t.alias

// A linear layer over NHWC activations after the reshape between 4-d and
// 2-d was folded into the accesses: C's row index is `8 * h + w` over two
// loops. The rows run as one dimension of 6 * 8 = 48; A (read as
// [h, w, k]) is read in place by the register tiles (implicit GEMM: its
// rows, 64 bytes apart, do not crowd an L1 set), at h = p floordiv 8 and
// w = p mod 8; C's row is p.
// REPORT-DAG: register tile 6x16 {{.*}} over 48 rows (2 loops flattened)
// CHECK-LABEL: func.func @nhwc_linear(
// CHECK-NOT: memref.alloca
// CHECK: %[[A0:.*]] = affine.load %arg0[{{.*}} floordiv 8, {{.*}} mod 8, %{{.*}}] : memref<6x8x16xf32>
// CHECK-NEXT: vector.broadcast %[[A0]]
// CHECK: vector.fma
// CHECK: affine.vector_store %{{.*}}, %arg2[%{{[a-z0-9_]+}}, %{{.*}}] : memref<48x32xf32>, vector<8xf32>
func.func @nhwc_linear(%A: memref<6x8x16xf32>, %B: memref<16x32xf32>, %C: memref<48x32xf32>) {
  affine.for %h = 0 to 6 {
    affine.for %w = 0 to 8 {
      affine.for %j = 0 to 32 {
        affine.for %k = 0 to 16 {
          %a = affine.load %A[%h, %w, %k] : memref<6x8x16xf32>
          %b = affine.load %B[%k, %j] : memref<16x32xf32>
          %c = affine.load %C[%h * 8 + %w, %j] : memref<48x32xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          affine.store %s, %C[%h * 8 + %w, %j] : memref<48x32xf32>
        }
      }
    }
  }
  return
}

// Strides that are not a flattening (rows 9 apart, 8 wide: gaps) are left
// alone.
// NO-REPORT-NOT: over 42 rows
// CHECK-LABEL: func.func @gapped_rows(
// CHECK-NOT: vector.fma
// CHECK: return
func.func @gapped_rows(%A: memref<6x8x16xf32>, %B: memref<16x32xf32>, %C: memref<54x32xf32>) {
  affine.for %h = 0 to 6 {
    affine.for %w = 0 to 8 {
      affine.for %j = 0 to 32 {
        affine.for %k = 0 to 16 {
          %a = affine.load %A[%h, %w, %k] : memref<6x8x16xf32>
          %b = affine.load %B[%k, %j] : memref<16x32xf32>
          %c = affine.load %C[%h * 9 + %w, %j] : memref<54x32xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          affine.store %s, %C[%h * 9 + %w, %j] : memref<54x32xf32>
        }
      }
    }
  }
  return
}

// C's indices before `j` each a row loop over its whole extent, the last
// of few rows (4 per position: attention's projections over sequence-first
// activations at batch 4): one product of 10 * 4 = 40 rows, B packed once
// for all, A (read as [n, l, k]) gathered at l = p floordiv 4, n = p mod 4.
// REPORT-DAG: register tile 6x16 {{.*}} over 40 rows (2 loops flattened)
// CHECK-LABEL: func.func @sequence_first(
// CHECK: affine.load %arg0[{{.*}} mod 4, {{.*}} floordiv 4, %{{.*}}] : memref<4x10x16xf32>
// CHECK: vector.fma
func.func @sequence_first(%A: memref<4x10x16xf32>, %B: memref<16x32xf32>, %C: memref<10x4x32xf32>) {
  affine.for %l = 0 to 10 {
    affine.for %n = 0 to 4 {
      affine.for %j = 0 to 32 {
        affine.for %k = 0 to 16 {
          %a = affine.load %A[%n, %l, %k] : memref<4x10x16xf32>
          %b = affine.load %B[%k, %j] : memref<16x32xf32>
          %c = affine.load %C[%l, %n, %j] : memref<10x4x32xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          affine.store %s, %C[%l, %n, %j] : memref<10x4x32xf32>
        }
      }
    }
  }
  return
}

// Products of many rows each (18 tokens, more than the 16 registers'
// worth) stay separate products, A read in place.
// NO-REPORT-NOT: over 36 rows
// CHECK-LABEL: func.func @batch_first(
// CHECK-NOT: floordiv
// CHECK: vector.fma
func.func @batch_first(%A: memref<2x18x16xf32>, %B: memref<16x32xf32>, %C: memref<2x18x32xf32>) {
  affine.for %b = 0 to 2 {
    affine.for %l = 0 to 18 {
      affine.for %j = 0 to 32 {
        affine.for %k = 0 to 16 {
          %a = affine.load %A[%b, %l, %k] : memref<2x18x16xf32>
          %w = affine.load %B[%k, %j] : memref<16x32xf32>
          %c = affine.load %C[%b, %l, %j] : memref<2x18x32xf32>
          %p = arith.mulf %a, %w : f32
          %s = arith.addf %c, %p : f32
          affine.store %s, %C[%b, %l, %j] : memref<2x18x32xf32>
        }
      }
    }
  }
  return
}

// Flattened rows whose loads would crowd an L1 set (two ways: any two rows
// of a tile share one) are packed. The 64 columns are 4 panels shared
// among the cores; all of packed A (48 rows x 16 steps) fits in half of
// L2, so it is packed whole in a parallel loop of its own, before the
// panels' parallel loop, instead of per reduction block.
// ALIAS-REPORT-DAG: pb-register-tile-flattened-rows.mlir:[[@LINE+13]]:3: remark: [pb-register-tile] register tile 6x16 {{.*}} over 48 rows (2 loops flattened), {{.*}} packed whole of 512 KiB L2
// ALIAS-LABEL: func.func @nhwc_linear_wide(
// ALIAS: %[[PA:.*]] = memref.alloca() {alignment = 64 : i64} : memref<8x16x6xf32>
// ALIAS: affine.for %[[KQ:.*]] = 0 to 16 step 16 {
// ALIAS: affine.for %[[K:.*]] = 0 to 16 {
// ALIAS: affine.load %arg0[{{.*}} floordiv 8, {{.*}} mod 8, %[[K]]] : memref<6x8x16xf32>
// ALIAS: affine.store %{{.*}}, %[[PA]]
// ALIAS: affine.parallel (%{{.*}}) = (0) to (64) step (16) {
// ALIAS-NOT: affine.load %arg0
// ALIAS: affine.load %[[PA]]
// ALIAS: vector.fma
// ALIAS: return
func.func @nhwc_linear_wide(%A: memref<6x8x16xf32>, %B: memref<16x64xf32>, %C: memref<48x64xf32>) {
  affine.for %h = 0 to 6 {
    affine.for %w = 0 to 8 {
      affine.for %j = 0 to 64 {
        affine.for %k = 0 to 16 {
          %a = affine.load %A[%h, %w, %k] : memref<6x8x16xf32>
          %b = affine.load %B[%k, %j] : memref<16x64xf32>
          %c = affine.load %C[%h * 8 + %w, %j] : memref<48x64xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          affine.store %s, %C[%h * 8 + %w, %j] : memref<48x64xf32>
        }
      }
    }
  }
  return
}
