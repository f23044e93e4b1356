// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-reuse-order{small-bytes=4096}))' | FileCheck %s
// A larger small-bytes makes the image small too: nothing moves.
// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-reuse-order{small-bytes=1000000}))' | FileCheck %s --check-prefix=ALLSMALL

// A colour matrix over output channels: loops (b, i, h, w), the image
// (64 KiB) does not use i, the 3x3 matrix (36 bytes) does: i moves inside
// h, just outside the vector loop w; the maps are renumbered, the body
// stays.
// CHECK-DAG: #[[IMAGE:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[MATRIX:.*]] = affine_map<(d0, d1, d2, d3) -> (d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-DAG: #[[UNMOVED:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @channel_mix
// CHECK: linalg.generic {indexing_maps = [#[[IMAGE]], #[[MATRIX]], #[[OUT]]]
// CHECK: arith.mulf
// ALLSMALL-NOT: (d0, d2, d1, d3)
// ALLSMALL: func.func @channel_mix
func.func @channel_mix(%img: tensor<2x64x128xf32>, %ccm: tensor<3xf32>, %init: tensor<2x3x64x128xf32>) -> tensor<2x3x64x128xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, h, w) -> (b, h, w)>, affine_map<(b, i, h, w) -> (i)>, affine_map<(b, i, h, w) -> (b, i, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%img, %ccm : tensor<2x64x128xf32>, tensor<3xf32>) outs(%init : tensor<2x3x64x128xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x3x64x128xf32>
  return %r : tensor<2x3x64x128xf32>
}

// Left alone: a bias over channels (the large input uses every loop), a
// reduction, and a body reading its loop index.
// CHECK-LABEL: func.func @bias
// CHECK: linalg.generic {indexing_maps = [#[[ID3]], #[[C]], #[[ID3]]]
func.func @bias(%x: tensor<4x64x128xf32>, %b: tensor<64xf32>, %init: tensor<4x64x128xf32>) -> tensor<4x64x128xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, w) -> (n, c, w)>, affine_map<(n, c, w) -> (c)>, affine_map<(n, c, w) -> (n, c, w)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%x, %b : tensor<4x64x128xf32>, tensor<64xf32>) outs(%init : tensor<4x64x128xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %y = arith.addf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x64x128xf32>
  return %r : tensor<4x64x128xf32>
}
// CHECK-LABEL: func.func @indexed
// CHECK: linalg.generic {indexing_maps = [#[[UNMOVED]], #[[ID4]]]
func.func @indexed(%img: tensor<2x64x128xf32>, %init: tensor<2x3x64x128xf32>) -> tensor<2x3x64x128xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, h, w) -> (b, h, w)>, affine_map<(b, i, h, w) -> (b, i, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%img : tensor<2x64x128xf32>) outs(%init : tensor<2x3x64x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    %y = arith.mulf %x, %f : f32
    linalg.yield %y : f32
  } -> tensor<2x3x64x128xf32>
  return %r : tensor<2x3x64x128xf32>
}
