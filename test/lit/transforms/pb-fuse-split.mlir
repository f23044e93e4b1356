// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{cores=2 cache-bytes=65536 inner-cache-bytes=1 outer-cache-bytes=1 report=true}))' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err

// A squeeze-excitation's start: relu into a padded buffer, a depthwise 3x3
// over it, and the global average pool of the result. Two arrays outlive
// the nests: the convolution's 2x16x64x64 output and the pool's 2x16x1x1
// sums (read by the excitation after them). Their rows differ, so the five
// nests cannot be one tiled group; the pool's nests (its fill and its sum)
// are cut out and the three before them (pad, relu, convolution) fuse on
// their own: the padded temporary becomes a tile-local buffer.
// REPORT-DAG: remark: [pb-fuse] not fused: arrays A2 ([2, 16, 64, 64]) and A4 ([2, 16, 1, 1]) outlive the loop nests with different row structures (the nests between S4,S5 are tried alone)
// REPORT-DAG: remark: [pb-fuse] fused producers S0,S1 into consumers S2,S3 of A2

// CHECK-LABEL: func.func @depthwise_then_pool
// CHECK-NOT: memref.alloc()
// CHECK: affine.parallel
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<1x1x{{[0-9]+}}x66xf32>
// The pool's nests are left as they were, after the fused tiles.
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK: affine.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}, 0, 0] : memref<2x16x1x1xf32>
func.func @depthwise_then_pool(%in: memref<2x16x64x64xf32>, %w: memref<16x3x3xf32>, %out: memref<2x16x64x64xf32>, %pool: memref<2x16x1x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %pad = memref.alloc() : memref<2x16x66x66xf32>
  affine.for %n = 0 to 2 {
    affine.for %c = 0 to 16 {
      affine.for %h = 0 to 66 {
        affine.for %w2 = 0 to 66 {
          affine.store %zero, %pad[%n, %c, %h, %w2] : memref<2x16x66x66xf32>
        }
      }
    }
  }
  affine.for %n = 0 to 2 {
    affine.for %c = 0 to 16 {
      affine.for %h = 0 to 64 {
        affine.for %w2 = 0 to 64 {
          %v = affine.load %in[%n, %c, %h, %w2] : memref<2x16x64x64xf32>
          %r = arith.maximumf %v, %zero : f32
          affine.store %r, %pad[%n, %c, %h + 1, %w2 + 1] : memref<2x16x66x66xf32>
        }
      }
    }
  }
  affine.for %n = 0 to 2 {
    affine.for %c = 0 to 16 {
      affine.for %h = 0 to 64 {
        affine.for %w2 = 0 to 64 {
          affine.store %zero, %out[%n, %c, %h, %w2] : memref<2x16x64x64xf32>
        }
      }
    }
  }
  affine.for %n = 0 to 2 {
    affine.for %c = 0 to 16 {
      affine.for %h = 0 to 64 {
        affine.for %w2 = 0 to 64 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %x = affine.load %pad[%n, %c, %h + %kh, %w2 + %kw] : memref<2x16x66x66xf32>
              %k = affine.load %w[%c, %kh, %kw] : memref<16x3x3xf32>
              %acc = affine.load %out[%n, %c, %h, %w2] : memref<2x16x64x64xf32>
              %p = arith.mulf %x, %k : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %out[%n, %c, %h, %w2] : memref<2x16x64x64xf32>
            }
          }
        }
      }
    }
  }
  affine.for %n = 0 to 2 {
    affine.for %c = 0 to 16 {
      affine.store %zero, %pool[%n, %c, 0, 0] : memref<2x16x1x1xf32>
    }
  }
  affine.for %n = 0 to 2 {
    affine.for %c = 0 to 16 {
      affine.for %h = 0 to 64 {
        affine.for %w2 = 0 to 64 {
          %x = affine.load %out[%n, %c, %h, %w2] : memref<2x16x64x64xf32>
          %acc = affine.load %pool[%n, %c, 0, 0] : memref<2x16x1x1xf32>
          %s = arith.addf %acc, %x : f32
          affine.store %s, %pool[%n, %c, 0, 0] : memref<2x16x1x1xf32>
        }
      }
    }
  }
  memref.dealloc %pad : memref<2x16x66x66xf32>
  return
}

// A 1x1 convolution expanding 16 channels to 64 (a 16-step reduction over
// two moving operands) is a product left whole for pb-register-tile's
// micro-kernel, not recomputed inside fused tiles of the activation after
// it: fused, efficientnet_b0's expansions and its 3x3x3 stem ran at half
// their register-tiled rate.
// REPORT-DAG: remark: [pb-fuse] not fused: producer S1 is a contraction: left whole for pb-register-tile
// CHECK-LABEL: func.func @expand_then_relu
// CHECK: memref.alloc() : memref<1x64x32x32xf32>
func.func @expand_then_relu(%in: memref<1x16x32x32xf32>, %w: memref<64x16xf32>, %out: memref<1x64x32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<1x64x32x32xf32>
  affine.for %c = 0 to 64 {
    affine.for %h = 0 to 32 {
      affine.for %x = 0 to 32 {
        affine.store %zero, %t[0, %c, %h, %x] : memref<1x64x32x32xf32>
      }
    }
  }
  affine.for %c = 0 to 64 {
    affine.for %h = 0 to 32 {
      affine.for %x = 0 to 32 {
        affine.for %k = 0 to 16 {
          %a = affine.load %in[0, %k, %h, %x] : memref<1x16x32x32xf32>
          %b = affine.load %w[%c, %k] : memref<64x16xf32>
          %acc = affine.load %t[0, %c, %h, %x] : memref<1x64x32x32xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          affine.store %s, %t[0, %c, %h, %x] : memref<1x64x32x32xf32>
        }
      }
    }
  }
  affine.for %c = 0 to 64 {
    affine.for %h = 0 to 32 {
      affine.for %x = 0 to 32 {
        %v = affine.load %t[0, %c, %h, %x] : memref<1x64x32x32xf32>
        %r = arith.maximumf %v, %zero : f32
        affine.store %r, %out[0, %c, %h, %x] : memref<1x64x32x32xf32>
      }
    }
  }
  memref.dealloc %t : memref<1x64x32x32xf32>
  return
}
