// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-prove-asserts))' %s | FileCheck %s

#id = affine_map<(d0) -> (d0)>

// A gather's checks on an index clamped to [0, 6] by its producer (another
// generic, read through a reshape), and on that index + 1: both
// provable through the tensors, both go; the gather stays.
// CHECK-LABEL: func.func @clamped_index
// CHECK-NOT: cf.assert
// CHECK: tensor.extract
// CHECK-NOT: cf.assert
func.func @clamped_index(%x: tensor<16xf32>, %table: tensor<8x16xf32>) -> tensor<16xf32> {
  %c8 = arith.constant 8 : index
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %c6_i64 = arith.constant 6 : i64
  %e = tensor.empty() : tensor<16xi64>
  %li = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%e : tensor<16xi64>) {
  ^bb0(%in: f32, %out: i64):
    %i = arith.fptosi %in : f32 to i64
    %lo = arith.maxsi %i, %c0_i64 : i64
    %hi = arith.minsi %lo, %c6_i64 : i64
    linalg.yield %hi : i64
  } -> tensor<16xi64>
  %r = tensor.expand_shape %li [[0, 1]] output_shape [1, 16] : tensor<16xi64> into tensor<1x16xi64>
  %flat = tensor.collapse_shape %r [[0, 1]] : tensor<1x16xi64> into tensor<16xi64>
  %o = tensor.empty() : tensor<16xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%flat : tensor<16xi64>) outs(%o : tensor<16xf32>) {
  ^bb0(%in: i64, %out: f32):
    %next = arith.addi %in, %c1_i64 : i64
    %k = arith.index_cast %next : i64 to index
    %ok = arith.cmpi slt, %k, %c8 : index
    cf.assert %ok, "index must be smaller than dim size"
    %nonneg = arith.cmpi sge, %next, %c0_i64 : i64
    cf.assert %nonneg, "index must be larger or equal to 0"
    %w = linalg.index 0 : index
    %v = tensor.extract %table[%k, %w] : tensor<8x16xf32>
    linalg.yield %v : f32
  } -> tensor<16xf32>
  return %g : tensor<16xf32>
}

// Indices read from the caller's tensor, from a producer that clamps only
// from below, or compared unsigned while they may be negative: not proven,
// every check stays.
// CHECK-LABEL: func.func @unproven
// CHECK-COUNT-4: cf.assert
// CHECK-NOT: cf.assert
func.func @unproven(%idx: tensor<16xi64>, %table: tensor<8xf32>) -> tensor<16xf32> {
  %c8 = arith.constant 8 : index
  %c0_i64 = arith.constant 0 : i64
  %c7_i64 = arith.constant 7 : i64
  %cm1_i64 = arith.constant -1 : i64
  %e = tensor.empty() : tensor<16xi64>
  %low = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%idx : tensor<16xi64>) outs(%e : tensor<16xi64>) {
  ^bb0(%in: i64, %out: i64):
    %m = arith.maxsi %in, %c0_i64 : i64
    linalg.yield %m : i64
  } -> tensor<16xi64>
  %signed = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%idx : tensor<16xi64>) outs(%e : tensor<16xi64>) {
  ^bb0(%in: i64, %out: i64):
    %m = arith.maxsi %in, %cm1_i64 : i64
    %n = arith.minsi %m, %c7_i64 : i64
    linalg.yield %n : i64
  } -> tensor<16xi64>
  %o = tensor.empty() : tensor<16xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]} ins(%idx, %low, %signed : tensor<16xi64>, tensor<16xi64>, tensor<16xi64>) outs(%o : tensor<16xf32>) {
  ^bb0(%a: i64, %b: i64, %c: i64, %out: f32):
    %ka = arith.index_cast %a : i64 to index
    %oka = arith.cmpi slt, %ka, %c8 : index
    cf.assert %oka, "index must be smaller than dim size"
    %kb = arith.index_cast %b : i64 to index
    %okb = arith.cmpi slt, %kb, %c8 : index
    cf.assert %okb, "index must be smaller than dim size"
    %kc = arith.index_cast %c : i64 to index
    %okc = arith.cmpi ult, %kc, %c8 : index
    cf.assert %okc, "index must be smaller than dim size"
    %w = linalg.index 0 : index
    %okw = arith.cmpi slt, %w, %c8 : index
    cf.assert %okw, "index must be smaller than dim size"
    %v = tensor.extract %table[%kb] : tensor<8xf32>
    linalg.yield %v : f32
  } -> tensor<16xf32>
  return %g : tensor<16xf32>
}

// Constant index tensors and fills carry their values' range; a select
// takes the union of its two values'.
// CHECK-LABEL: func.func @constants_and_select
// CHECK-NOT: cf.assert
// CHECK: return
func.func @constants_and_select(%p: tensor<4xi1>) -> tensor<4xi64> {
  %c4 = arith.constant 4 : index
  %c3_i64 = arith.constant 3 : i64
  %cst = arith.constant dense<[0, 3, 1, 2]> : tensor<4xi64>
  %e = tensor.empty() : tensor<4xi64>
  %fill = linalg.fill ins(%c3_i64 : i64) outs(%e : tensor<4xi64>) -> tensor<4xi64>
  %g = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]} ins(%p, %cst, %fill : tensor<4xi1>, tensor<4xi64>, tensor<4xi64>) outs(%e : tensor<4xi64>) {
  ^bb0(%s: i1, %a: i64, %b: i64, %out: i64):
    %v = arith.select %s, %a, %b : i64
    %k = arith.index_cast %v : i64 to index
    %ok = arith.cmpi ult, %k, %c4 : index
    cf.assert %ok, "index must be smaller than dim size"
    linalg.yield %v : i64
  } -> tensor<4xi64>
  return %g : tensor<4xi64>
}
