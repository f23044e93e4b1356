// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-unroll-jam))' %s | FileCheck %s

// Two channels sliced at the same computed corner: the index work (scale,
// floor, clamp, conversion) does not depend on the channel. The channel
// loop goes; the body is repeated with the channel a constant.
// CHECK-LABEL: func.func @two_channels
// CHECK: affine.for %[[H:.*]] = 0 to 16 {
// CHECK-NEXT: affine.for %[[W:.*]] = 0 to 16 {
// CHECK-NOT: affine.for
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: memref.load %{{.*}}[%[[C0]], %{{.*}}] : memref<2x9xf32>
// CHECK: affine.store %{{.*}}, %{{.*}}[%[[C0]], %[[H]], %[[W]]]
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: memref.load %{{.*}}[%[[C1]], %{{.*}}] : memref<2x9xf32>
// CHECK: affine.store %{{.*}}, %{{.*}}[%[[C1]], %[[H]], %[[W]]]
func.func @two_channels(%img: memref<16x16xf32>, %grid: memref<2x9xf32>, %out: memref<2x16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %eight = arith.constant 8.0 : f32
  %seven = arith.constant 7.0 : f32
  %one = arith.constant 1.0 : f32
  affine.for %c = 0 to 2 {
    affine.for %h = 0 to 16 {
      affine.for %w = 0 to 16 {
        %v = affine.load %img[%h, %w] : memref<16x16xf32>
        %z = arith.mulf %v, %eight : f32
        %f = math.floor %z : f32
        %gt = arith.cmpf ugt, %f, %seven : f32
        %zc = arith.select %gt, %seven, %f : f32
        %frac = arith.subf %z, %zc : f32
        %rest = arith.subf %one, %frac : f32
        %i = arith.fptosi %zc : f32 to i64
        %ix = arith.index_cast %i : i64 to index
        %lo = arith.maxsi %ix, %c0 : index
        %k = arith.minsi %lo, %c8 : index
        %a = memref.load %grid[%c, %k] : memref<2x9xf32>
        %r = arith.mulf %a, %rest : f32
        affine.store %r, %out[%c, %h, %w] : memref<2x16x16xf32>
      }
    }
  }
  return
}

// Not jammed: the stores are not indexed by the short loop (every
// iteration writes the same elements: it carries a dependence); the body
// shares too little (each op reads the channel's own value); five
// iterations.
// CHECK-LABEL: func.func @refused
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK: affine.for %{{.*}} = 0 to 3 {
// CHECK: affine.for %{{.*}} = 0 to 5 {
func.func @refused(%img: memref<16x16xf32>, %x: memref<3x16x16xf32>, %out: memref<16x16xf32>, %y: memref<3x16x16xf32>, %z: memref<5x16x16xf32>) {
  %eight = arith.constant 8.0 : f32
  affine.for %c = 0 to 2 {
    affine.for %h = 0 to 16 {
      affine.for %w = 0 to 16 {
        %v = affine.load %img[%h, %w] : memref<16x16xf32>
        %a = arith.mulf %v, %eight : f32
        %b = math.floor %a : f32
        %d = arith.subf %a, %b : f32
        %e = arith.mulf %d, %d : f32
        %f = arith.addf %e, %a : f32
        %g = arith.mulf %f, %b : f32
        %i = arith.addf %g, %d : f32
        %j = arith.mulf %i, %e : f32
        affine.store %j, %out[%h, %w] : memref<16x16xf32>
      }
    }
  }
  affine.for %c = 0 to 3 {
    affine.for %h = 0 to 16 {
      affine.for %w = 0 to 16 {
        %v = affine.load %x[%c, %h, %w] : memref<3x16x16xf32>
        %a = arith.mulf %v, %eight : f32
        %b = math.floor %a : f32
        %d = arith.subf %a, %b : f32
        %e = arith.mulf %d, %d : f32
        %f = arith.addf %e, %a : f32
        %g = arith.mulf %f, %b : f32
        %i = arith.addf %g, %d : f32
        %j = arith.mulf %i, %e : f32
        affine.store %j, %y[%c, %h, %w] : memref<3x16x16xf32>
      }
    }
  }
  affine.for %c = 0 to 5 {
    affine.for %h = 0 to 16 {
      affine.for %w = 0 to 16 {
        %v = affine.load %img[%h, %w] : memref<16x16xf32>
        %a = arith.mulf %v, %eight : f32
        %b = math.floor %a : f32
        %d = arith.subf %a, %b : f32
        %e = arith.mulf %d, %d : f32
        %f = arith.addf %e, %a : f32
        %g = arith.mulf %f, %b : f32
        %i = arith.addf %g, %d : f32
        %ci = arith.index_cast %c : index to i64
        %cf = arith.sitofp %ci : i64 to f32
        %j = arith.mulf %i, %cf : f32
        affine.store %j, %z[%c, %h, %w] : memref<5x16x16xf32>
      }
    }
  }
  return
}
