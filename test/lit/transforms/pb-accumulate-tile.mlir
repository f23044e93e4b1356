// RUN: pb-opt %s --pb-accumulate-tile="width=16 registers=32 report=true" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// RUN: pb-opt %s --pb-accumulate-tile="width=8 registers=16" | FileCheck %s --check-prefix=AVX2

// A depthwise convolution (56-wide rows): the reductions (kh, kw) go
// inside tiles of 4 rows x (3 vectors of 16 + one of 8), the running sums
// carried by the loops; the weight is loaded once per step and broadcast.
// REPORT-DAG: pb-accumulate-tile.mlir:[[@LINE+20]]:3: remark: [pb-accumulate-tile] accumulated in registers over 9 reduction steps: tiles of 4 rows x 56 columns (16 + 16 + 16 + 8)
// CHECK-LABEL: func.func @depthwise
// CHECK: affine.for %[[C:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[H:.*]] = 0 to 56 step 4 {
// CHECK-NEXT: affine.vector_load %arg2[%[[C]], %[[H]], 0] : memref<4x56x56xf32>, vector<16xf32>
// CHECK: affine.vector_load %arg2[%[[C]], %[[H]] + 3, 48] : memref<4x56x56xf32>, vector<8xf32>
// CHECK-NEXT: affine.for %[[KH:[^ ]*]] = 0 to 3 iter_args(
// CHECK-NEXT: affine.for %[[KW:[^ ]*]] = 0 to 3 iter_args(%[[ACC:[^ ]*]] = %{{.*}}
// CHECK-NEXT: %[[X:.*]] = affine.vector_load %arg0[%[[C]], %[[H]] + %[[KH]], %[[KW]]] : memref<4x58x58xf32>, vector<16xf32>
// CHECK-NEXT: %[[W:.*]] = affine.load %arg1[%[[C]], %[[KH]], %[[KW]]] : memref<4x3x3xf32>
// CHECK-NEXT: %[[WV:.*]] = vector.broadcast %[[W]] : f32 to vector<16xf32>
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[WV]] : vector<16xf32>
// CHECK-NEXT: arith.addf %[[ACC]], %[[P]] : vector<16xf32>
// CHECK: affine.vector_load %arg0[%[[C]], %[[H]] + %[[KH]], %[[KW]] + 48] : memref<4x58x58xf32>, vector<8xf32>
// CHECK: affine.vector_store %{{.*}}, %arg2[%[[C]], %[[H]], 0] : memref<4x56x56xf32>, vector<16xf32>
// On AVX2 (8 lanes, 16 registers): 7 vectors of 8 per row, a row at a time.
// AVX2-LABEL: func.func @depthwise
// AVX2: affine.for %{{.*}} = 0 to 56 {
// AVX2-COUNT-7: affine.vector_load %arg2{{.*}} vector<8xf32>
func.func @depthwise(%x: memref<4x58x58xf32>, %w: memref<4x3x3xf32>, %y: memref<4x56x56xf32>) {
  affine.for %c = 0 to 4 {
    affine.for %h = 0 to 56 {
      affine.for %v = 0 to 56 {
        affine.for %kh = 0 to 3 {
          affine.for %kw = 0 to 3 {
            %a = affine.load %x[%c, %h + %kh, %v + %kw] : memref<4x58x58xf32>
            %b = affine.load %w[%c, %kh, %kw] : memref<4x3x3xf32>
            %o = affine.load %y[%c, %h, %v] : memref<4x56x56xf32>
            %p = arith.mulf %a, %b : f32
            %s = arith.addf %o, %p : f32
            affine.store %s, %y[%c, %h, %v] : memref<4x56x56xf32>
          }
        }
      }
    }
  }
  return
}

// A stride-2 window reads its input along the columns with a stride:
// refused (left to the vectorizer's two-load shuffle).
// REPORT-DAG: pb-accumulate-tile.mlir:[[@LINE+5]]:3: remark: [pb-accumulate-tile] not tiled: an operand is read along the columns with a stride
// CHECK-LABEL: func.func @strided
// CHECK-NOT: iter_args
// CHECK: return
func.func @strided(%x: memref<4x57x57xf32>, %w: memref<4x3x3xf32>, %y: memref<4x28x28xf32>) {
  affine.for %c = 0 to 4 {
    affine.for %h = 0 to 28 {
      affine.for %v = 0 to 28 {
        affine.for %kh = 0 to 3 {
          affine.for %kw = 0 to 3 {
            %a = affine.load %x[%c, 2 * %h + %kh, 2 * %v + %kw] : memref<4x57x57xf32>
            %b = affine.load %w[%c, %kh, %kw] : memref<4x3x3xf32>
            %o = affine.load %y[%c, %h, %v] : memref<4x28x28xf32>
            %p = arith.mulf %a, %b : f32
            %s = arith.addf %o, %p : f32
            affine.store %s, %y[%c, %h, %v] : memref<4x28x28xf32>
          }
        }
      }
    }
  }
  return
}

// C read at another element than the one written (a prefix sum): not a
// reduction into independent elements; left alone, silently.
// CHECK-LABEL: func.func @scan
// CHECK-NOT: iter_args
// CHECK: return
func.func @scan(%x: memref<8x64xf32>, %y: memref<65xf32>) {
  affine.for %k = 0 to 8 {
    affine.for %j = 0 to 64 {
      %a = affine.load %x[%k, %j] : memref<8x64xf32>
      %o = affine.load %y[%j] : memref<65xf32>
      %s = arith.addf %o, %a : f32
      affine.store %s, %y[%j + 1] : memref<65xf32>
    }
  }
  return
}

// A column maximum of values masked by a bool array that moves with the
// columns: a vector of i1 in memory would be read as packed bits (bools
// are bytes), so the nest is refused (fuzz program 0:279 read the mask
// wrong before this check).
// REPORT-DAG: pb-accumulate-tile.mlir:[[@LINE+5]]:3: remark: [pb-accumulate-tile] not tiled: an operand of type i1 moves with the columns
// CHECK-LABEL: func.func @masked_column_max
// CHECK-NOT: iter_args
// CHECK: return
func.func @masked_column_max(%x: memref<2x31xf32>, %m: memref<2x31xi1>, %y: memref<31xf32>) {
  affine.for %k = 0 to 2 {
    affine.for %j = 0 to 31 {
      %a = affine.load %x[%k, %j] : memref<2x31xf32>
      %b = affine.load %m[%k, %j] : memref<2x31xi1>
      %four = arith.constant 4.0 : f32
      %v = arith.select %b, %four, %a : f32
      %o = affine.load %y[%j] : memref<31xf32>
      %r = arith.maximumf %o, %v : f32
      affine.store %r, %y[%j] : memref<31xf32>
    }
  }
  return
}

// A product with the transposed matrix (`A^T y`, y broadcast per row of A):
// no output rows, so the tile's width takes half the registers (16 vectors
// of 16 on AVX-512, 8 of 8 on AVX2): longer contiguous runs of each row of
// A per pass over its rows; the rest of the row in narrower vectors.
// REPORT-DAG: pb-accumulate-tile.mlir:[[@LINE+6]]:3: remark: [pb-accumulate-tile] accumulated in registers over 100 reduction steps: tiles of 1 rows x 256 columns (16 + 16 + 16 + 16 + 16 + 16 + 16 + 16 + 16 + 16 + 16 + 16 + 16 + 16 + 16 + 16), 2 per row, then 16 + 16 + 8
// CHECK-LABEL: func.func @transposed_matvec
// CHECK: iter_args
// AVX2-LABEL: func.func @transposed_matvec
// AVX2: affine.for %{{.*}} = 0 to 512 step 64 {
func.func @transposed_matvec(%a: memref<100x552xf32>, %y: memref<100xf32>, %out: memref<552xf32>) {
  affine.for %k = 0 to 100 {
    affine.for %j = 0 to 552 {
      %v = affine.load %a[%k, %j] : memref<100x552xf32>
      %s = affine.load %y[%k] : memref<100xf32>
      %o = affine.load %out[%j] : memref<552xf32>
      %p = arith.mulf %v, %s : f32
      %r = arith.addf %o, %p : f32
      affine.store %r, %out[%j] : memref<552xf32>
    }
  }
  return
}

// A nest inside a tile of pb-fuse (a depthwise convolution fused between
// its padding and its activation): its rows run from the tile's first
// (`4 t`, a symbol of the nest) a constant number of times, and its
// indices use the tile's loops. The rows count from 0 with the start
// added to every index.
// CHECK-LABEL: func.func @in_a_tile
// CHECK: affine.parallel (%[[N:.*]], %[[T:.*]]) = (0, 0) to (2, 2)
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 4
// CHECK-NEXT: affine.vector_load %arg2[%[[N]], %[[R]] + %[[T]] * 4, 0, 0] : memref<2x8x8x32xf32>, vector<16xf32>
// CHECK: affine.for %[[KH:.*]] = 0 to 3 iter_args
// CHECK: affine.for %[[KW:.*]] = 0 to 3 iter_args
// CHECK: affine.vector_load %arg0[%[[N]], %[[R]] + %[[T]] * 4 + %[[KH]], %[[KW]], 0] : memref<2x10x10x32xf32>, vector<16xf32>
// CHECK: affine.vector_store %{{.*}}, %arg2[%[[N]], %[[R]] + %[[T]] * 4, 7, 16]
// REPORT: remark: [pb-accumulate-tile] accumulated in registers over 9 reduction steps: tiles of 8 rows x 32 columns (16 + 16)
func.func @in_a_tile(%x: memref<2x10x10x32xf32>, %w: memref<3x3x32xf32>, %y: memref<2x8x8x32xf32>) {
  affine.parallel (%n, %t) = (0, 0) to (2, 2) {
    affine.for %h = affine_map<(d0) -> (d0 * 4)>(%t) to affine_map<(d0) -> (d0 * 4 + 4)>(%t) {
      affine.for %ow = 0 to 8 {
        affine.for %kh = 0 to 3 {
          affine.for %kw = 0 to 3 {
            affine.for %c = 0 to 32 {
              %a = affine.load %x[%n, %h + %kh, %ow + %kw, %c] : memref<2x10x10x32xf32>
              %b = affine.load %w[%kh, %kw, %c] : memref<3x3x32xf32>
              %o = affine.load %y[%n, %h, %ow, %c] : memref<2x8x8x32xf32>
              %m = arith.mulf %a, %b : f32
              %s = arith.addf %o, %m : f32
              affine.store %s, %y[%n, %h, %ow, %c] : memref<2x8x8x32xf32>
            }
          }
        }
      }
    }
  }
  return
}

// The zero fill right before and the activation right after, over the same
// elements of C (a fused tile's rows, the last tile partial: `min(4 t + 4,
// 6)` stays as it is, outside the tile): the registers start from the
// fill's value and take the activation before the one store; both nests go.
// CHECK-LABEL: func.func @fill_taps_activation
// CHECK: affine.parallel
// CHECK-NEXT: affine.for %{{.*}} = #{{.*}}(%{{.*}}, %{{.*}}) to min #{{.*}}(%{{.*}}, %{{.*}})
// CHECK-NEXT: vector.broadcast %{{.*}} : f32 to vector<16xf32>
// CHECK-NOT: affine.store
// CHECK: arith.maximumf
// CHECK-NEXT: affine.vector_store
// CHECK-NOT: affine.for
// CHECK: return
// REPORT: remark: [pb-accumulate-tile] accumulated in registers over 9 reduction steps: tiles of 8 rows x 32 columns (16 + 16); the fill before and the update after folded in
func.func @fill_taps_activation(%x: memref<2x8x10x32xf32>, %w: memref<3x3x32xf32>, %g: memref<32xf32>, %y: memref<2x6x8x32xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  affine.parallel (%n, %t) = (0, 0) to (2, 2) {
    affine.for %h = affine_map<(d0) -> (d0 * 4)>(%t) to min affine_map<(d0) -> (d0 * 4 + 4, 6)>(%t) {
      affine.for %ow = 0 to 8 {
        affine.for %c = 0 to 32 {
          affine.store %zero, %y[%n, %h, %ow, %c] : memref<2x6x8x32xf32>
        }
      }
    }
    affine.for %h = affine_map<(d0) -> (d0 * 4)>(%t) to min affine_map<(d0) -> (d0 * 4 + 4, 6)>(%t) {
      affine.for %ow = 0 to 8 {
        affine.for %kh = 0 to 3 {
          affine.for %kw = 0 to 3 {
            affine.for %c = 0 to 32 {
              %a = affine.load %x[%n, %h + %kh, %ow + %kw, %c] : memref<2x8x10x32xf32>
              %b = affine.load %w[%kh, %kw, %c] : memref<3x3x32xf32>
              %o = affine.load %y[%n, %h, %ow, %c] : memref<2x6x8x32xf32>
              %m = arith.mulf %a, %b : f32
              %s = arith.addf %o, %m : f32
              affine.store %s, %y[%n, %h, %ow, %c] : memref<2x6x8x32xf32>
            }
          }
        }
      }
    }
    affine.for %h = affine_map<(d0) -> (d0 * 4)>(%t) to min affine_map<(d0) -> (d0 * 4 + 4, 6)>(%t) {
      affine.for %ow = 0 to 8 {
        affine.for %c = 0 to 32 {
          %v = affine.load %y[%n, %h, %ow, %c] : memref<2x6x8x32xf32>
          %s = affine.load %g[%c] : memref<32xf32>
          %p = arith.mulf %v, %s : f32
          %r = arith.maximumf %p, %zero : f32
          affine.store %r, %y[%n, %h, %ow, %c] : memref<2x6x8x32xf32>
        }
      }
    }
  }
  return
}


// A global average pool over a channels-last map with its per-channel
// scale loaded between the loops (hoisted there by LICM after pb-fuse):
// the load goes back into the innermost body, and the `C x 1 x 1` table
// is read through a view without its unit dimensions, a vector of
// channels at a time.
// CHECK-LABEL: func.func @pool_with_hoisted_scale
// CHECK: %[[V:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1, 2]] : memref<32x1x1xf32> into memref<32xf32>
// CHECK: iter_args
// CHECK: affine.vector_load %[[V]][0] : memref<32xf32>, vector<16xf32>
// REPORT: remark: [pb-accumulate-tile] accumulated in registers over 9 reduction steps: tiles of 1 rows x 32 columns (16 + 16)
func.func @pool_with_hoisted_scale(%x: memref<2x3x3x32xf32>, %g: memref<32x1x1xf32>, %y: memref<2x1x1x32xf32>) {
  affine.for %n = 0 to 2 {
    affine.for %c = 0 to 32 {
      %s = affine.load %g[%c, 0, 0] : memref<32x1x1xf32>
      affine.for %h = 0 to 3 {
        affine.for %w = 0 to 3 {
          %v = affine.load %x[%n, %h, %w, %c] : memref<2x3x3x32xf32>
          %o = affine.load %y[%n, 0, 0, %c] : memref<2x1x1x32xf32>
          %m = arith.mulf %v, %s : f32
          %t = arith.addf %o, %m : f32
          affine.store %t, %y[%n, 0, 0, %c] : memref<2x1x1x32xf32>
        }
      }
    }
  }
  return
}
