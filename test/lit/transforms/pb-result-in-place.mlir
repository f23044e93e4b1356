// RUN: pb-opt %s --pb-result-in-place | FileCheck %s

// A batched product computed in a 3-D temporary seen through a 4-D view,
// copied whole into the out-parameter: computed there, no temporary, no copy.
// CHECK-LABEL: func.func @product_through_view
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: memref<1x4x8x8xf32>)
// CHECK-NOT: memref.alloc
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]] : memref<1x4x8x8xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[OUT]] : memref<1x4x8x8xf32>)
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @product_through_view(%a: memref<1x4x8x16xf32>, %b: memref<1x4x16x8xf32>, %out: memref<1x4x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4x8x8xf32>
  %v = memref.expand_shape %t [[0, 1], [2], [3]] output_shape [1, 4, 8, 8] : memref<4x8x8xf32> into memref<1x4x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%v : memref<1x4x8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, k, j)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : memref<1x4x8x16xf32>, memref<1x4x16x8xf32>) outs(%v : memref<1x4x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.copy %v, %out : memref<1x4x8x8xf32> to memref<1x4x8x8xf32>
  memref.dealloc %t : memref<4x8x8xf32>
  return
}

// A filter computed on N x 1 x H x W (written directly) and returned as
// N x H x W through a collapse: computed in the out-parameter seen through
// the inverse view.
// CHECK-LABEL: func.func @written_directly_returned_through_view
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: memref<3x8x8xf32>)
// CHECK-NOT: memref.alloc
// CHECK: %[[V:.*]] = memref.expand_shape %[[OUT]] {{\[}}[0], [1, 2], [3]] output_shape [3, 1, 8, 8] : memref<3x8x8xf32> into memref<3x1x8x8xf32>
// CHECK: linalg.generic {{.*}} outs(%[[V]] : memref<3x1x8x8xf32>)
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @written_directly_returned_through_view(%in: memref<3x1x8x8xf32>, %out: memref<3x8x8xf32>) {
  %t = memref.alloc() : memref<3x1x8x8xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, i, j) -> (n, c, i, j)>, affine_map<(n, c, i, j) -> (n, c, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%in : memref<3x1x8x8xf32>) outs(%t : memref<3x1x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  %v = memref.collapse_shape %t [[0], [1, 2], [3]] : memref<3x1x8x8xf32> into memref<3x8x8xf32>
  memref.copy %v, %out : memref<3x8x8xf32> to memref<3x8x8xf32>
  memref.dealloc %t : memref<3x1x8x8xf32>
  return
}

// Refused: the out-parameter is read before the copy (computing the result
// there would change what that read sees).
// CHECK-LABEL: func.func @destination_read_before
// CHECK: memref.alloc
// CHECK: memref.copy
func.func @destination_read_before(%in: memref<8xf32>, %out: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %old = memref.load %out[%c0] : memref<8xf32>
  %t = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%in : memref<8xf32>) outs(%t : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.copy %t, %out : memref<8xf32> to memref<8xf32>
  memref.dealloc %t : memref<8xf32>
  return %old : f32
}

// Refused: the temporary is still read after the copy.
// CHECK-LABEL: func.func @temporary_read_after
// CHECK: memref.alloc
// CHECK: memref.copy
func.func @temporary_read_after(%in: memref<8xf32>, %out: memref<8xf32>, %more: memref<8xf32>) {
  %t = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%in : memref<8xf32>) outs(%t : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.copy %t, %out : memref<8xf32> to memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%t : memref<8xf32>) outs(%more : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.dealloc %t : memref<8xf32>
  return
}

// Refused: the copy's source is an input, not a temporary.
// CHECK-LABEL: func.func @copy_of_input
// CHECK: memref.copy %{{.*}}, %{{.*}}
func.func @copy_of_input(%in: memref<8xf32>, %out: memref<8xf32>) {
  memref.copy %in, %out : memref<8xf32> to memref<8xf32>
  return
}
