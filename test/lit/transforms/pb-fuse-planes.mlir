// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{cores=2 report=true}))' %s 2>&1 | FileCheck %s

// A depthwise convolution stored channels-last (N x H x W x C, stride 2)
// over a padded activation: rows of the last dimension would tile H by one
// and recompute the window's height around every row, so rows of whole
// planes (W x C) are planned too and win: tiles of 8 output rows read 17
// padded rows, whose buffer moves by 16 rows a tile (twice the tile: the
// stride), not by 8 (which would need a 25-row buffer).
// CHECK: remark: [pb-fuse] fused producers S0,S1 into consumers S2,S3 of A2: row tile 8 of whole planes (4 parallel tiles), tile-local A0[1x17x33x32]
// CHECK: remark: [pb-fuse] fused producers S0,S1 into consumers S2,S3 of A2: row tile 8 (128 parallel tiles), tile-local A0[1x1x17x33]
// CHECK-LABEL: func.func @depthwise_nhwc
// CHECK: affine.parallel (%[[N:.*]], %[[T:.*]]) = (0, 0) to (2, 2)
// CHECK: memref.alloca() {{.*}} : memref<1x17x33x32xf32>
// CHECK: affine.store %{{.*}}, %{{.*}}[0, %{{.*}} - %[[T]] * 16 + 1, %{{.*}} + 1, %{{.*}}] : memref<1x17x33x32xf32>
func.func @depthwise_nhwc(%x: memref<2x32x32x32xf32>, %w: memref<3x3x32xf32>, %y: memref<2x16x16x32xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %pad = memref.alloc() {alignment = 64 : i64} : memref<2x33x33x32xf32>
  affine.for %n = 0 to 2 {
    affine.for %h = 0 to 33 {
      affine.for %w0 = 0 to 33 {
        affine.for %c = 0 to 32 {
          affine.store %cst, %pad[%n, %h, %w0, %c] : memref<2x33x33x32xf32>
        }
      }
    }
  }
  affine.for %n = 0 to 2 {
    affine.for %h = 0 to 32 {
      affine.for %w0 = 0 to 32 {
        affine.for %c = 0 to 32 {
          %v = affine.load %x[%n, %h, %w0, %c] : memref<2x32x32x32xf32>
          %e = math.exp %v : f32
          %s = arith.addf %e, %one : f32
          %r = arith.divf %v, %s : f32
          affine.store %r, %pad[%n, %h + 1, %w0 + 1, %c] : memref<2x33x33x32xf32>
        }
      }
    }
  }
  affine.for %n = 0 to 2 {
    affine.for %h = 0 to 16 {
      affine.for %w0 = 0 to 16 {
        affine.for %c = 0 to 32 {
          affine.store %cst, %y[%n, %h, %w0, %c] : memref<2x16x16x32xf32>
        }
      }
    }
  }
  affine.for %n = 0 to 2 {
    affine.for %h = 0 to 16 {
      affine.for %w0 = 0 to 16 {
        affine.for %c = 0 to 32 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %pad[%n, %h * 2 + %kh, %w0 * 2 + %kw, %c] : memref<2x33x33x32xf32>
              %b = affine.load %w[%kh, %kw, %c] : memref<3x3x32xf32>
              %o = affine.load %y[%n, %h, %w0, %c] : memref<2x16x16x32xf32>
              %m = arith.mulf %a, %b : f32
              %t = arith.addf %o, %m : f32
              affine.store %t, %y[%n, %h, %w0, %c] : memref<2x16x16x32xf32>
            }
          }
        }
      }
    }
  }
  memref.dealloc %pad : memref<2x33x33x32xf32>
  return
}

// The same convolution over N x C x H x W: nothing reads across the rows
// of planes (C), so rows stay rows of W (the stride-2 buffer as tight).
// CHECK-LABEL: func.func @depthwise_nchw
// CHECK-NOT: of whole planes
func.func @depthwise_nchw(%x: memref<2x32x32x32xf32>, %w: memref<32x3x3xf32>, %y: memref<2x32x16x16xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %pad = memref.alloc() {alignment = 64 : i64} : memref<2x32x33x33xf32>
  affine.for %n = 0 to 2 {
    affine.for %h = 0 to 33 {
      affine.for %w0 = 0 to 33 {
        affine.for %c = 0 to 32 {
          affine.store %cst, %pad[%n, %c, %h, %w0] : memref<2x32x33x33xf32>
        }
      }
    }
  }
  affine.for %n = 0 to 2 {
    affine.for %h = 0 to 32 {
      affine.for %w0 = 0 to 32 {
        affine.for %c = 0 to 32 {
          %v = affine.load %x[%n, %c, %h, %w0] : memref<2x32x32x32xf32>
          %e = math.exp %v : f32
          %s = arith.addf %e, %one : f32
          %r = arith.divf %v, %s : f32
          affine.store %r, %pad[%n, %c, %h + 1, %w0 + 1] : memref<2x32x33x33xf32>
        }
      }
    }
  }
  affine.for %n = 0 to 2 {
    affine.for %h = 0 to 16 {
      affine.for %w0 = 0 to 16 {
        affine.for %c = 0 to 32 {
          affine.store %cst, %y[%n, %c, %h, %w0] : memref<2x32x16x16xf32>
        }
      }
    }
  }
  affine.for %n = 0 to 2 {
    affine.for %h = 0 to 16 {
      affine.for %w0 = 0 to 16 {
        affine.for %c = 0 to 32 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %pad[%n, %c, %h * 2 + %kh, %w0 * 2 + %kw] : memref<2x32x33x33xf32>
              %b = affine.load %w[%c, %kh, %kw] : memref<32x3x3xf32>
              %o = affine.load %y[%n, %c, %h, %w0] : memref<2x32x16x16xf32>
              %m = arith.mulf %a, %b : f32
              %t = arith.addf %o, %m : f32
              affine.store %t, %y[%n, %c, %h, %w0] : memref<2x32x16x16xf32>
            }
          }
        }
      }
    }
  }
  memref.dealloc %pad : memref<2x32x33x33xf32>
  return
}
