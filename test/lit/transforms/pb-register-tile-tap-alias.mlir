// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-register-tile{width=8 registers=16 l1-bytes=32768 l1-ways=8 l2-bytes=524288 cores=2 report=true}),canonicalize)' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err

// Channels-last 3x3 convolutions (implicit GEMM: A, the padded input, read
// in place at [h + kh, w + kw, c]) on a 32 KiB 8-way L1 (Zen 3 and 4). A
// line of A is used again one channel step later, after the 6 rows of a
// register tile have read it at all 9 taps: 8 pixels x 3 rows of the map.
// With 512 channels those lines are 2 KiB apart and all fall in two L1
// sets (24 lines for 8 ways each): the A block is packed. With 64
// channels (256 bytes apart) they spread over the sets and A is read in
// place. Counting the tile's rows alone (3 per set) missed it.
// REPORT: remark: [pb-register-tile] register tile 6x16 {{.*}} over 49 rows (2 loops flattened), cache tile {{.*}} (B micro-panel {{.*}}, A block {{[0-9]+}} KiB, packed of 512 KiB L2)
// REPORT: remark: [pb-register-tile] register tile 6x16 {{.*}} over 49 rows (2 loops flattened), cache tile {{.*}} (B micro-panel {{.*}}, A block {{[0-9]+}} KiB of 512 KiB L2)
// With 128 output channels (8 column panels shared among the cores), A
// is packed in spans of three 37-channel blocks (111 channels): a cache
// line of channels at a time, shared among the cores, each row's line
// read as vectors at every tap, its channels stored one by one into the
// packed rows; the span's last partial line (111 = 6 x 16 + 15) by
// scalars.
// REPORT: remark: [pb-register-tile] register tile 6x16 {{.*}} over 49 rows (2 loops flattened), cache tile 54 rows x 37 reductions {{.*}} packed 111 reductions at a time of 512 KiB L2); column panels in parallel
// A batch of 8 maps of 14x14 (1568 rows, 262 register tiles) in row
// blocks shared by the cores: 8 blocks of 33 tiles (198 rows; 132 tiles
// per core against an even 131), the L2-sized count, not more, smaller
// blocks (one tile each would share them as evenly, re-reading B's
// panels per tile).
// REPORT: remark: [pb-register-tile] register tile 6x16 {{.*}} over 1568 rows (3 loops flattened), cache tile 198 rows x 32 reductions {{.*}}; row blocks in parallel
// CHECK-LABEL: func.func @taps_512(
// 49 rows (9 register tiles) in 2 row blocks, one per core: 5 tiles
// (30 rows) and 4.
// Each register tile's rows are packed a cache line of channels at a
// time: at every tap each row's line read as two vectors, its channels
// stored one by one; a block's last partial line (37 = 2 x 16 + 5) by
// scalars.
// CHECK: %[[PA:.*]] = memref.alloca() {{.*}} : memref<5x37x3x3x6xf32>
// CHECK: affine.for %[[KB:.*]] = 0 to 512 step 37 {
// CHECK: affine.for %[[KQ:.*]] = #{{.*}}(%[[KB]]) to min #{{.*}}(%[[KB]]) step 16 {
// CHECK: affine.if #{{.*}}(%[[KQ]], %[[KB]]) {
// CHECK: affine.vector_load %arg0[{{.*}}, %[[KQ]]] : memref<9x9x512xf32>, vector<8xf32>
// CHECK: affine.vector_load %arg0[{{.*}}, %[[KQ]] + 8] : memref<9x9x512xf32>, vector<8xf32>
// CHECK: affine.store %{{.*}}, %[[PA]][{{.*}}, %[[KQ]] - %[[KB]], %{{.*}}, %{{.*}}, 0]
// CHECK: } else {
// CHECK: affine.load %arg0[
// CHECK: vector.fma
// CHECK-LABEL: func.func @taps_64(
// CHECK-NOT: memref.alloca() {{.*}}x6xf32>
// CHECK: affine.load %arg0[
// CHECK-NEXT: vector.broadcast
// CHECK: vector.fma
// CHECK-LABEL: func.func @taps_512_wide(
// CHECK: %[[AW:.*]] = memref.alloca() {{.*}} : memref<9x111x3x3x6xf32>
// CHECK: affine.for %[[SK:.*]] = 0 to 512 step 111 {
// CHECK: affine.parallel (%[[KQ:.*]]) = (%[[SK]]) to (min(512, %[[SK]] + 111)) step (16) {
// CHECK: affine.if #{{.*}}(%[[KQ]], %[[SK]]) {
// CHECK: affine.vector_load %arg0[{{.*}}, %[[KQ]]] : memref<9x9x512xf32>, vector<8xf32>
// CHECK: affine.vector_load %arg0[{{.*}}, %[[KQ]] + 8] : memref<9x9x512xf32>, vector<8xf32>
// CHECK: vector.extract
// CHECK: affine.store %{{.*}}, %[[AW]][{{.*}}, %[[KQ]] - %[[SK]], %{{.*}}, %{{.*}}, 0]
// CHECK: } else {
// CHECK: affine.load %arg0[
// CHECK: affine.store %{{.*}}, %[[AW]][
// CHECK: affine.parallel
// CHECK: vector.fma
func.func @taps_512(%A: memref<9x9x512xf32>, %B: memref<512x3x3x32xf32>, %C: memref<7x7x32xf32>) {
  affine.for %h = 0 to 7 {
    affine.for %w = 0 to 7 {
      affine.for %f = 0 to 32 {
        affine.for %c = 0 to 512 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %A[%h + %kh, %w + %kw, %c] : memref<9x9x512xf32>
              %b = affine.load %B[%c, %kh, %kw, %f] : memref<512x3x3x32xf32>
              %o = affine.load %C[%h, %w, %f] : memref<7x7x32xf32>
              %p = arith.mulf %a, %b : f32
              %s = arith.addf %o, %p : f32
              affine.store %s, %C[%h, %w, %f] : memref<7x7x32xf32>
            }
          }
        }
      }
    }
  }
  return
}
func.func @taps_64(%A: memref<9x9x64xf32>, %B: memref<64x3x3x32xf32>, %C: memref<7x7x32xf32>) {
  affine.for %h = 0 to 7 {
    affine.for %w = 0 to 7 {
      affine.for %f = 0 to 32 {
        affine.for %c = 0 to 64 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %A[%h + %kh, %w + %kw, %c] : memref<9x9x64xf32>
              %b = affine.load %B[%c, %kh, %kw, %f] : memref<64x3x3x32xf32>
              %o = affine.load %C[%h, %w, %f] : memref<7x7x32xf32>
              %p = arith.mulf %a, %b : f32
              %s = arith.addf %o, %p : f32
              affine.store %s, %C[%h, %w, %f] : memref<7x7x32xf32>
            }
          }
        }
      }
    }
  }
  return
}
func.func @taps_512_wide(%A: memref<9x9x512xf32>, %B: memref<512x3x3x128xf32>, %C: memref<7x7x128xf32>) {
  affine.for %h = 0 to 7 {
    affine.for %w = 0 to 7 {
      affine.for %f = 0 to 128 {
        affine.for %c = 0 to 512 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %A[%h + %kh, %w + %kw, %c] : memref<9x9x512xf32>
              %b = affine.load %B[%c, %kh, %kw, %f] : memref<512x3x3x128xf32>
              %o = affine.load %C[%h, %w, %f] : memref<7x7x128xf32>
              %p = arith.mulf %a, %b : f32
              %s = arith.addf %o, %p : f32
              affine.store %s, %C[%h, %w, %f] : memref<7x7x128xf32>
            }
          }
        }
      }
    }
  }
  return
}
func.func @taps_batch(%A: memref<8x16x16x64xf32>, %B: memref<64x3x3x32xf32>, %C: memref<8x14x14x32xf32>) {
  affine.for %n = 0 to 8 {
  affine.for %h = 0 to 14 {
    affine.for %w = 0 to 14 {
      affine.for %f = 0 to 32 {
        affine.for %c = 0 to 64 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %A[%n, %h + %kh, %w + %kw, %c] : memref<8x16x16x64xf32>
              %b = affine.load %B[%c, %kh, %kw, %f] : memref<64x3x3x32xf32>
              %o = affine.load %C[%n, %h, %w, %f] : memref<8x14x14x32xf32>
              %p = arith.mulf %a, %b : f32
              %s = arith.addf %o, %p : f32
              affine.store %s, %C[%n, %h, %w, %f] : memref<8x14x14x32xf32>
            }
          }
        }
      }
    }
  }
  }
  return
}
