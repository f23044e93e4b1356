// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-unroll-filters))' | FileCheck %s
// Constant weights fold into the body.
// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-unroll-filters,canonicalize))' | FileCheck %s --check-prefix=FOLDED
// Channel mixes off (channel-taps=0): filters only.
// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-unroll-filters{channel-taps=0}))' | FileCheck %s --check-prefix=NOMIX

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// The colour matrix's maps (below).
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[COLUMN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// A 1x5 blur as conv2d on single-channel images (the channels as the
// batch): five slices of the image at column offsets 0..4 (each keeping
// its unit channel dimension, read at 0), the taps summed in order onto
// the zero init, the weights extracted before the op.
// CHECK-LABEL: func.func @blur_row
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[W0:.*]] = tensor.extract %{{.*}}[%[[C0]], %[[C0]], %[[C0]], %[[C0]]] : tensor<1x1x1x5xf32>
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[W4:.*]] = tensor.extract %{{.*}}[%[[C0]], %[[C0]], %[[C0]], %[[C4]]] : tensor<1x1x1x5xf32>
// CHECK: %[[X0:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0] [3, 1, 8, 4] [1, 1, 1, 1]
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[X1:.*]] = tensor.extract_slice %arg0[0, 0, 0, 1] [3, 1, 8, 4] [1, 1, 1, 1]
// CHECK: %[[X4:.*]] = tensor.extract_slice %arg0[0, 0, 0, 4] [3, 1, 8, 4] [1, 1, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[IN]], #[[IN]], #[[IN]], #[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[X0]], %[[X1]], %{{.*}}, %{{.*}}, %[[X4]] : {{.*}}) outs(%{{.*}} : tensor<3x1x8x4xf32>)
// CHECK-NEXT: ^bb0(%[[A0:.*]]: f32, %[[A1:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32, %[[A4:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[P0:.*]] = arith.mulf %[[A0]], %[[W0]] : f32
// CHECK-NEXT: %[[S0:.*]] = arith.addf %[[ACC]], %[[P0]] : f32
// CHECK-NEXT: %[[P1:.*]] = arith.mulf %[[A1]], %{{.*}} : f32
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[S0]], %[[P1]] : f32
// CHECK: %[[P4:.*]] = arith.mulf %[[A4]], %[[W4]] : f32
// CHECK-NEXT: %[[S4:.*]] = arith.addf %{{.*}}, %[[P4]] : f32
// CHECK-NEXT: linalg.yield %[[S4]] : f32
// FOLDED-LABEL: func.func @blur_row
// FOLDED-NOT: tensor.extract %
// FOLDED: arith.mulf %{{.*}}, %cst
func.func @blur_row(%img: tensor<3x1x8x8xf32>) -> tensor<3x1x8x4xf32> {
  %w = arith.constant dense<[[[[0.0625, 0.25, 0.375, 0.25, 0.0625]]]]> : tensor<1x1x1x5xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x1x8x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x1x8x4xf32>) -> tensor<3x1x8x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%img, %w : tensor<3x1x8x8xf32>, tensor<1x1x1x5xf32>) outs(%init : tensor<3x1x8x4xf32>) -> tensor<3x1x8x4xf32>
  return %r : tensor<3x1x8x4xf32>
}
// A strided 3x3 window as a generic with weights passed in (read once per
// call), a linalg.index of a reduction dimension (the tap's coordinate, a
// constant) and of a parallel one (renumbered): nine taps, stride 2.
// CHECK-LABEL: func.func @strided_with_index
// CHECK-COUNT-9: tensor.extract %arg1
// CHECK: tensor.extract_slice %arg0[0, 0] [3, 3] [2, 2]
// CHECK: tensor.extract_slice %arg0[2, 2] [3, 3] [2, 2]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins({{.*}} : tensor<3x3xf32>, {{.*}}) outs(%arg2 : tensor<3x3xf32>)
// CHECK: %[[K0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C:.*]] = linalg.index 1 : index
// CHECK-NEXT: arith.addi %[[K0]], %[[C]] : index
// CHECK: %[[K2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[C2:.*]] = linalg.index 1 : index
// CHECK-NEXT: arith.addi %[[K2]], %[[C2]] : index
// CHECK-NOT: linalg.index 2
// CHECK-NOT: linalg.index 3
// CHECK: linalg.yield
func.func @strided_with_index(%img: tensor<7x7xf32>, %w: tensor<3x3xf32>, %init: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(y, x, i, j) -> (y * 2 + i, x * 2 + j)>, affine_map<(y, x, i, j) -> (i, j)>, affine_map<(y, x, i, j) -> (y, x)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
         ins(%img, %w : tensor<7x7xf32>, tensor<3x3xf32>) outs(%init : tensor<3x3xf32>) {
  ^bb0(%x: f32, %k: f32, %acc: f32):
    %i = linalg.index 2 : index
    %c = linalg.index 1 : index
    %s = arith.addi %i, %c : index
    %n = arith.index_cast %s : index to i32
    %f = arith.sitofp %n : i32 to f32
    %p = arith.mulf %x, %k : f32
    %q = arith.addf %p, %f : f32
    %a = arith.addf %acc, %q : f32
    linalg.yield %a : f32
  } -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// Not filters: weights that differ per output channel (a network's
// convolution), and a window of 81 taps.
// CHECK-LABEL: func.func @per_channel_weights
// CHECK: linalg.conv_2d_nchw_fchw
func.func @per_channel_weights(%img: tensor<1x1x8x8xf32>, %w: tensor<4x1x3x3xf32>, %init: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%img, %w : tensor<1x1x8x8xf32>, tensor<4x1x3x3xf32>) outs(%init : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %r : tensor<1x4x6x6xf32>
}
// CHECK-LABEL: func.func @large_window
// CHECK: linalg.conv_2d_nchw_fchw
func.func @large_window(%img: tensor<1x1x16x16xf32>, %w: tensor<1x1x9x9xf32>, %init: tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%img, %w : tensor<1x1x16x16xf32>, tensor<1x1x9x9xf32>) outs(%init : tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32>
  return %r : tensor<1x1x8x8xf32>
}

// A sum over 8 elements (the "weights" would be the summed values) and a
// matrix-vector product with 16 columns (the vector would be the weights):
// no window slides with the output, nothing changes.
// CHECK-LABEL: func.func @plain_sum
// CHECK: iterator_types = ["reduction"]
// CHECK-NOT: tensor.extract
func.func @plain_sum(%x: tensor<8xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
         ins(%x : tensor<8xf32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %a: f32):
    %s = arith.addf %in, %a : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
// CHECK-LABEL: func.func @matrix_vector
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK-NOT: tensor.extract
func.func @matrix_vector(%a: tensor<32x16xf32>, %v: tensor<16xf32>, %init: tensor<32xf32>) -> tensor<32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
         ins(%a, %v : tensor<32x16xf32>, tensor<16xf32>) outs(%init : tensor<32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// Channel mixes (no input indexed by the reductions alone, no window, at
// most channel-taps taps, each input read at one element or contiguously
// along the innermost loop): a camera's 3x3 colour matrix as torch-mlir
// lowers an einsum, and a sum over 3 channels. Every input is sliced per
// tap; the body is the reduction's, once per tap in order.
// CHECK-LABEL: func.func @colour_matrix
// CHECK: %[[N0:.*]] = tensor.extract_slice %[[CCM:.*]][0, 0, 0] [1, 3, 1] [1, 1, 1] : tensor<1x3x3xf32> to tensor<1x3x1xf32>
// CHECK-NEXT: %[[M0:.*]] = tensor.collapse_shape %[[N0]] {{\[\[}}0], [1, 2]] : tensor<1x3x1xf32> into tensor<1x3xf32>
// CHECK: %[[N2:.*]] = tensor.extract_slice %[[CCM]][0, 0, 2] [1, 3, 1] [1, 1, 1]
// CHECK-NEXT: %[[M2:.*]] = tensor.collapse_shape %[[N2]]
// CHECK: %[[Q0:.*]] = tensor.extract_slice %[[RGB:.*]][0, 0, 0] [1, 1, 64] [1, 1, 1] : tensor<1x3x64xf32> to tensor<1x1x64xf32>
// CHECK-NEXT: %[[P0:.*]] = tensor.collapse_shape %[[Q0]] {{\[\[}}0], [1, 2]] : tensor<1x1x64xf32> into tensor<1x64xf32>
// CHECK: %[[Q2:.*]] = tensor.extract_slice %[[RGB]][0, 2, 0] [1, 1, 64] [1, 1, 1]
// CHECK-NEXT: %[[P2:.*]] = tensor.collapse_shape %[[Q2]]
// CHECK: linalg.generic {indexing_maps = [#[[ROW]], #[[ROW]], #[[ROW]], #[[COLUMN]], #[[COLUMN]], #[[COLUMN]], #[[ALL]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[M0]], %{{.*}}, %[[M2]], %[[P0]], %{{.*}}, %[[P2]] :
// CHECK: ^bb0(%[[A0:.*]]: f32, %[[A1:.*]]: f32, %[[A2:.*]]: f32, %[[B0:.*]]: f32, %[[B1:.*]]: f32, %[[B2:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[Q0:.*]] = arith.mulf %[[A0]], %[[B0]]
// CHECK-NEXT: %[[S0:.*]] = arith.addf %[[ACC]], %[[Q0]]
// CHECK-NEXT: %[[Q1:.*]] = arith.mulf %[[A1]], %[[B1]]
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[S0]], %[[Q1]]
// CHECK-NEXT: %[[Q2:.*]] = arith.mulf %[[A2]], %[[B2]]
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[S1]], %[[Q2]]
// CHECK-NEXT: linalg.yield %[[S2]]
// CHECK-NOT: linalg.batch_matmul
// NOMIX-LABEL: func.func @colour_matrix
// NOMIX: linalg.batch_matmul
func.func @colour_matrix(%ccm: tensor<1x3x3xf32>, %rgb: tensor<1x3x64xf32>, %init: tensor<1x3x64xf32>) -> tensor<1x3x64xf32> {
  %r = linalg.batch_matmul ins(%ccm, %rgb : tensor<1x3x3xf32>, tensor<1x3x64xf32>) outs(%init : tensor<1x3x64xf32>) -> tensor<1x3x64xf32>
  return %r : tensor<1x3x64xf32>
}
// CHECK-LABEL: func.func @channel_sum
// CHECK-COUNT-3: tensor.collapse_shape %{{.*}} : tensor<1x8x16xf32> into tensor<8x16xf32>
// CHECK: iterator_types = ["parallel", "parallel"]
// CHECK-COUNT-3: arith.addf
// CHECK-NOT: arith.addf
// CHECK: linalg.yield
func.func @channel_sum(%x: tensor<3x8x16xf32>, %init: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(h, w, c) -> (c, h, w)>, affine_map<(h, w, c) -> (h, w)>], iterator_types = ["parallel", "parallel", "reduction"]}
         ins(%x : tensor<3x8x16xf32>) outs(%init : tensor<8x16xf32>) {
  ^bb0(%in: f32, %a: f32):
    %s = arith.addf %in, %a : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// Not channel mixes: 16 taps (more than channel-taps, 8 by default), and
// a product whose second operand strides along the innermost loop (B
// transposed: the unrolled loop would not vectorize).
// CHECK-LABEL: func.func @wide_mix
// CHECK: linalg.batch_matmul
func.func @wide_mix(%a: tensor<1x3x16xf32>, %b: tensor<1x16x64xf32>, %init: tensor<1x3x64xf32>) -> tensor<1x3x64xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x3x16xf32>, tensor<1x16x64xf32>) outs(%init : tensor<1x3x64xf32>) -> tensor<1x3x64xf32>
  return %r : tensor<1x3x64xf32>
}
// CHECK-LABEL: func.func @strided_mix
// CHECK: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT: tensor.extract_slice
func.func @strided_mix(%a: tensor<8x3xf32>, %b: tensor<64x3xf32>, %init: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
         ins(%a, %b : tensor<8x3xf32>, tensor<64x3xf32>) outs(%init : tensor<8x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}
