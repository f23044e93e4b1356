// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{cores=2 cache-bytes=65536 inner-cache-bytes=1 outer-cache-bytes=1 report=true}))' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err

// ViT's input: a class token concatenated before the rows of the
// transposed patch embeddings (row 0 from the token, rows 1..196 from the
// image), then an elementwise consumer. The token's copy is needed by the
// first row tile only, and ISL gives it a loop nest of its own before the
// tile loop: its writes would go to local buffers no tile reads (the
// model's class token came out wrong). Such a plan is refused and the
// nests stay as they are.
// REPORT: remark: [pb-fuse] not fused: ISL gives some statement of a tile a loop nest outside the tile loop
// CHECK-LABEL: func.func @class_token
// CHECK: memref.alloc() : memref<1x197x768xf32>
// CHECK-NOT: memref.alloca
func.func @class_token(%tok: memref<1x1x768xf32>, %x: memref<1x768x14x14xf32>, %out: memref<1x197x768xf32>) {
  %cat = memref.alloc() : memref<1x197x768xf32>
  affine.for %c = 0 to 768 {
    %t = affine.load %tok[0, 0, %c] : memref<1x1x768xf32>
    affine.store %t, %cat[0, 0, %c] : memref<1x197x768xf32>
  }
  affine.for %h = 0 to 14 {
    affine.for %w = 0 to 14 {
      affine.for %c = 0 to 768 {
        %v = affine.load %x[0, %c, %h, %w] : memref<1x768x14x14xf32>
        affine.store %v, %cat[0, %h * 14 + %w + 1, %c] : memref<1x197x768xf32>
      }
    }
  }
  affine.for %r = 0 to 197 {
    affine.for %c = 0 to 768 {
      %v = affine.load %cat[0, %r, %c] : memref<1x197x768xf32>
      %d = arith.addf %v, %v : f32
      affine.store %d, %out[0, %r, %c] : memref<1x197x768xf32>
    }
  }
  memref.dealloc %cat : memref<1x197x768xf32>
  return
}
