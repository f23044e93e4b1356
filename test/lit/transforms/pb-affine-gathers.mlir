// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-affine-gathers,canonicalize,cse))' | FileCheck %s

// Replicate padding of rows as PyTorch decomposes it: an index tensor
// clamp(arange(6) - 1, 0, 3) read per row, then clamped again by
// pb-clamp-gathers: rows 0, 0, 1, 2, 3, 3. Fitted as three pieces (rows
// 0-1 read row 0, rows 2-4 read one row up, row 5 reads row 3: contiguous
// reads, not halvings), one generic each, reading the part of the source
// it needs through an affine map, inserted into the result.
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[HALF:.*]] = affine_map<(d0) -> (d0 floordiv 2)>
// CHECK-DAG: #[[DIAG:.*]] = affine_map<(d0) -> (d0, d0)>
// CHECK-LABEL: func.func @replicate_rows
// CHECK-SAME: (%[[X:.*]]: tensor<4x5xf32>)
// CHECK-NOT: tensor.extract %
// CHECK: %[[E:.*]] = tensor.empty() : tensor<6x5xf32>
// CHECK: %[[R0:.*]] = tensor.extract_slice %[[X]][0, 0] [1, 5] [1, 1]
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[E]][0, 0] [2, 5] [1, 1]
// CHECK: %[[P0:.*]] = linalg.generic {indexing_maps = [#[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[R0]] : tensor<1x5xf32>) outs(%[[S0]] : tensor<2x5xf32>)
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[P0]] into %[[E]][0, 0] [2, 5] [1, 1]
// (rows 2-4: a plain copy of rows 1-3, which canonicalization folds to the slice)
// CHECK: %[[R1:.*]] = tensor.extract_slice %[[X]][1, 0] [3, 5] [1, 1]
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[R1]] into %[[I0]][2, 0] [3, 5] [1, 1]
// CHECK: %[[R2:.*]] = tensor.extract_slice %[[X]][3, 0] [1, 5] [1, 1]
// CHECK: %[[S2:.*]] = tensor.extract_slice %[[E]][5, 0] [1, 5] [1, 1]
// CHECK: %[[P2:.*]] = linalg.generic {indexing_maps = [#[[ROW]], #[[ID]]], {{.*}} ins(%[[R2]] : tensor<1x5xf32>) outs(%[[S2]] : tensor<1x5xf32>)
// CHECK: %[[I2:.*]] = tensor.insert_slice %[[P2]] into %[[I1]][5, 0] [1, 5] [1, 1]
// CHECK: return %[[I2]]
func.func @replicate_rows(%x: tensor<4x5xf32>) -> tensor<6x5xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c0_i64 = arith.constant 0 : i64
  %c3_i64 = arith.constant 3 : i64
  %cm1 = arith.constant -1 : i64
  %ei = tensor.empty() : tensor<6xi64>
  %rows = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%ei : tensor<6xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %s = arith.addi %ii, %cm1 : i64
    %lo = arith.maxsi %s, %c0_i64 : i64
    %hi = arith.minsi %lo, %c3_i64 : i64
    linalg.yield %hi : i64
  } -> tensor<6xi64>
  %e = tensor.empty() : tensor<6x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%rows : tensor<6xi64>) outs(%e : tensor<6x5xf32>) {
  ^bb0(%row: i64, %o: f32):
    %j = linalg.index 1 : index
    %ri = arith.index_cast %row : i64 to index
    %rc = arith.maxsi %ri, %c0 : index
    %rd = arith.minsi %rc, %c3 : index
    %v = tensor.extract %x[%rd, %j] : tensor<4x5xf32>
    linalg.yield %v : f32
  } -> tensor<6x5xf32>
  return %r : tensor<6x5xf32>
}

// Nearest upsampling by 2 with float index arithmetic (int(i * 0.5)): one
// piece, a floor division; the rest of the body (a scale) stays.
// CHECK-LABEL: func.func @nearest
// CHECK-NOT: tensor.extract %
// CHECK: linalg.generic {indexing_maps = [#[[HALF]], #{{.*}}], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<4xf32>)
// CHECK: ^bb0(%[[V:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[V]], %{{.*}} : f32
// CHECK-NEXT: linalg.yield %[[S]]
func.func @nearest(%x: tensor<4xf32>) -> tensor<8xf32> {
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%e : tensor<8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %h = arith.mulf %f, %half : f32
    %k = arith.fptosi %h : f32 to i64
    %ki = arith.index_cast %k : i64 to index
    %v = tensor.extract %x[%ki] : tensor<4xf32>
    %s = arith.mulf %v, %two : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// A diagonal (both indices the same loop): the 3x3 corner read at (i, i).
// CHECK-LABEL: func.func @diagonal
// CHECK: %[[C:.*]] = tensor.extract_slice %{{.*}}[0, 0] [3, 3] [1, 1] : tensor<8x3xf32> to tensor<3x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[DIAG]], #{{.*}}], iterator_types = ["parallel"]} ins(%[[C]] : tensor<3x3xf32>)
// CHECK-NOT: tensor.extract %
func.func @diagonal(%x: tensor<8x3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%e : tensor<3xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %v = tensor.extract %x[%i, %i] : tensor<8x3xf32>
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// Left as gathers: an index read from data (an embedding lookup), and an
// index that depends on two loops (i + j: not a function of one loop).
// CHECK-LABEL: func.func @data_index
// CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<10xf32>
func.func @data_index(%table: tensor<10xf32>, %ids: tensor<8xi64>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%ids : tensor<8xi64>) outs(%e : tensor<8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %k = arith.index_cast %id : i64 to index
    %v = tensor.extract %table[%k] : tensor<10xf32>
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
// CHECK-LABEL: func.func @two_loops
// CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<16xf32>
func.func @two_loops(%x: tensor<16xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    %v = tensor.extract %x[%k] : tensor<16xf32>
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
