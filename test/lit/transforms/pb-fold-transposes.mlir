// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-fold-transposes))' | FileCheck %s

// `A^T y` as PyTorch's decomposition leaves it (after elementwise fusion):
// a transpose read by a multiply-and-sum. The sum reads A through the
// permuted map; the transpose is gone.
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[P:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
// CHECK-LABEL: func.func @reduction
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#[[T]], #{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction"]} ins(%[[A]], %[[Y]] : tensor<4x8xf32>, tensor<4xf32>)
func.func @reduction(%a: tensor<4x8xf32>, %y: tensor<4xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%t, %y : tensor<8x4xf32>, tensor<4xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// A head permute (the last dimension stays last) before an elementwise
// scale: folded, the vectorized loop stays contiguous on both sides.
// CHECK-LABEL: func.func @keeps_last
// CHECK-SAME: (%[[Q:.*]]: tensor<2x5x3x4xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#[[P]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[Q]] : tensor<2x5x3x4xf32>)
func.func @keeps_last(%q: tensor<2x5x3x4xf32>) -> tensor<2x3x5x4xf32> {
  %e = tensor.empty() : tensor<2x3x5x4xf32>
  %t = linalg.transpose ins(%q : tensor<2x5x3x4xf32>) outs(%e : tensor<2x3x5x4xf32>) permutation = [0, 2, 1, 3]
  %o = tensor.empty() : tensor<2x3x5x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t : tensor<2x3x5x4xf32>) outs(%o : tensor<2x3x5x4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.125 : f32
    %p = arith.mulf %x, %c : f32
    linalg.yield %p : f32
  } -> tensor<2x3x5x4xf32>
  return %s : tensor<2x3x5x4xf32>
}

// Refused: an elementwise op over a 2-D transpose (the read would walk the
// columns of A while the write walks rows: the transpose stays a blocked
// copy); a transpose read by a matmul (which packs its operands), one
// read as a generic's output, and one read by a contraction that reuses
// each element (the register tiler packs it in the layout it needs).
// CHECK-LABEL: func.func @refused
// CHECK: %[[T1:.*]] = linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%[[T1]] : tensor<8x4xf32>)
// CHECK: %[[T2:.*]] = linalg.transpose
// CHECK: linalg.matmul ins(%[[T2]], %{{.*}} : tensor<8x4xf32>, tensor<4x8xf32>)
// CHECK: %[[T3:.*]] = linalg.transpose
// CHECK: linalg.generic {{.*}} outs(%[[T3]] : tensor<8x4xf32>)
// CHECK: %[[T4:.*]] = linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%[[T4]], %{{.*}} : tensor<8x4xf32>, tensor<4x8xf32>)
func.func @refused(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>, tensor<8x4xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x4xf32>
  %t1 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%t1 : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %p = arith.mulf %x, %x : f32
    linalg.yield %p : f32
  } -> tensor<8x4xf32>
  %t2 = linalg.transpose ins(%b : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%o : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%t2, %b : tensor<8x4xf32>, tensor<4x8xf32>) outs(%init : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t3 = linalg.transpose ins(%c : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %u = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%t3 : tensor<8x4xf32>) {
  ^bb0(%out: f32):
    %p = arith.addf %out, %out : f32
    linalg.yield %p : f32
  } -> tensor<8x4xf32>
  %t4 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %g = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%t4, %b : tensor<8x4xf32>, tensor<4x8xf32>) outs(%init : tensor<8x8xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  return %s, %m, %u, %g : tensor<8x4xf32>, tensor<8x8xf32>, tensor<8x4xf32>, tensor<8x8xf32>
}
