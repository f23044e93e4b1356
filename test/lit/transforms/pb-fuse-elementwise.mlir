// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-fuse-elementwise))' | FileCheck %s
// Upstream's pass on the same input fuses the requantization into the
// integer product (the recomputation this pass refuses):
// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(linalg-fuse-elementwise-ops))' | FileCheck %s --check-prefix=UPSTREAM

#id2 = affine_map<(i, k) -> (i, k)>
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// A quantized activation (u8) read by an integer product, as
// pb-integer-contraction builds it when the weights' zero points are zero:
// the requantization is computed once per element of %q, not once per
// output column j.
// CHECK-LABEL: func.func @requantize_into_product
// CHECK: %[[Q:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<8x64xf32>)
// CHECK: arith.fptoui
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[Q]], %arg1 : tensor<8x64xi8>, tensor<64x32xi8>)
// CHECK-NOT: arith.fptoui
// CHECK: return
// UPSTREAM-LABEL: func.func @requantize_into_product
// UPSTREAM: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<8x64xf32>, tensor<64x32xi8>)
// UPSTREAM: arith.fptoui
func.func @requantize_into_product(%x: tensor<8x64xf32>, %w: tensor<64x32xi8>) -> tensor<8x32xi32> {
  %e = tensor.empty() : tensor<8x64xi8>
  %q = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x64xf32>) outs(%e : tensor<8x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %s = arith.constant 0.125 : f32
    %d = arith.divf %in, %s : f32
    %r = math.roundeven %d : f32
    %lo = arith.constant 0.0 : f32
    %hi = arith.constant 255.0 : f32
    %c0 = arith.maximumf %r, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %u = arith.fptoui %c1 : f32 to i8
    linalg.yield %u : i8
  } -> tensor<8x64xi8>
  %zero = arith.constant 0 : i32
  %e2 = tensor.empty() : tensor<8x32xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e2 : tensor<8x32xi32>) -> tensor<8x32xi32>
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %w : tensor<8x64xi8>, tensor<64x32xi8>) outs(%init : tensor<8x32xi32>) {
  ^bb0(%qa: i8, %qb: i8, %acc: i32):
    %ea = arith.extui %qa : i8 to i32
    %eb = arith.extsi %qb : i8 to i32
    %m = arith.muli %ea, %eb : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  } -> tensor<8x32xi32>
  return %p : tensor<8x32xi32>
}

// A reduction reading its producer at every one of its loops (a softmax's
// sum of exponentials) still takes it in: each element is read once.
// CHECK-LABEL: func.func @exp_into_row_sum
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<8x64xf32>)
// CHECK: math.exp
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @exp_into_row_sum(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8x64xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x64xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<8x64xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id2, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<8x64xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %acc, %in : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// Elementwise chains fuse as upstream fuses them.
// CHECK-LABEL: func.func @elementwise_chain
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @elementwise_chain(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = tensor.empty() : tensor<8x64xf32>
  %m = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<8x64xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %s = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%m, %x : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<8x64xf32>
  return %s : tensor<8x64xf32>
}

// Rows of a flattened tensor (an einsum's operands after torch-mlir's
// reshapes) are read as slices of the unflattened one, each row a
// reshape of its slice, the last row too (upstream's own pattern refuses
// a slice at the last index of an uncollapsed dimension).
// CHECK-LABEL: func.func @rows_of_collapse
// CHECK-NOT: tensor.extract_slice %collapsed
// CHECK: %[[R0:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0, 0, 0] [1, 1, 3, 4, 4, 1] [1, 1, 1, 1, 1, 1]
// CHECK-NEXT: tensor.collapse_shape %[[R0]] {{\[\[}}0], [1], [2, 3, 4, 5]] : tensor<1x1x3x4x4x1xf32> into tensor<1x1x48xf32>
// CHECK: %[[R2:.*]] = tensor.extract_slice %arg0[0, 2, 0, 0, 0, 0] [1, 1, 3, 4, 4, 1] [1, 1, 1, 1, 1, 1]
// CHECK-NEXT: tensor.collapse_shape %[[R2]]
// CHECK-NOT: tensor.extract_slice %collapsed
// UPSTREAM-LABEL: func.func @rows_of_collapse
func.func @rows_of_collapse(%t: tensor<1x3x3x4x4x1xf32>) -> (tensor<1x1x48xf32>, tensor<1x1x48xf32>) {
  %c = tensor.collapse_shape %t [[0], [1], [2, 3, 4, 5]] : tensor<1x3x3x4x4x1xf32> into tensor<1x3x48xf32>
  %a = tensor.extract_slice %c[0, 0, 0] [1, 1, 48] [1, 1, 1] : tensor<1x3x48xf32> to tensor<1x1x48xf32>
  %d = tensor.extract_slice %c[0, 2, 0] [1, 1, 48] [1, 1, 1] : tensor<1x3x48xf32> to tensor<1x1x48xf32>
  return %a, %d : tensor<1x1x48xf32>, tensor<1x1x48xf32>
}

// A slice of part of a collapsed group stays: no slice of the source
// holds exactly those elements as one box.
// CHECK-LABEL: func.func @part_of_a_group
// CHECK: tensor.extract_slice %collapsed[0, 0, 8] [1, 1, 16]
func.func @part_of_a_group(%t: tensor<1x3x3x4x4x1xf32>) -> tensor<1x1x16xf32> {
  %c = tensor.collapse_shape %t [[0], [1], [2, 3, 4, 5]] : tensor<1x3x3x4x4x1xf32> into tensor<1x3x48xf32>
  %a = tensor.extract_slice %c[0, 0, 8] [1, 1, 16] [1, 1, 1] : tensor<1x3x48xf32> to tensor<1x1x16xf32>
  return %a : tensor<1x1x16xf32>
}

// A Bayer mosaic's planes: the elementwise op is copied per strided slice
// (the slices hold all its elements once) and each copy computed on its
// slice of the input; no whole temporary is left.
// CHECK-LABEL: func.func @planes_of_elementwise
// CHECK-DAG: %[[EVEN:.*]] = tensor.extract_slice %arg0[0, 0] [4, 4] [2, 1]
// CHECK-DAG: %[[ODD:.*]] = tensor.extract_slice %arg0[1, 0] [4, 4] [2, 1]
// CHECK-DAG: linalg.generic {{.*}} ins(%[[EVEN]] : tensor<4x4xf32>) outs(%{{.*}} : tensor<4x4xf32>)
// CHECK-DAG: linalg.generic {{.*}} ins(%[[ODD]] : tensor<4x4xf32>) outs(%{{.*}} : tensor<4x4xf32>)
// CHECK-NOT: tensor<8x4xf32> {
func.func @planes_of_elementwise(%x: tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %e = tensor.empty() : tensor<8x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %in : f32
    linalg.yield %y : f32
  } -> tensor<8x4xf32>
  %even = tensor.extract_slice %s[0, 0] [4, 4] [2, 1] : tensor<8x4xf32> to tensor<4x4xf32>
  %odd = tensor.extract_slice %s[1, 0] [4, 4] [2, 1] : tensor<8x4xf32> to tensor<4x4xf32>
  return %even, %odd : tensor<4x4xf32>, tensor<4x4xf32>
}

// Refusals: overlapping slices holding more elements than the op (a
// stencil's shifted windows, left to pb-fuse), and a body reading its
// loop indices (a slice would shift what `linalg.index` returns).
// CHECK-LABEL: func.func @overlapping_windows
// CHECK: %[[W:.*]] = linalg.generic
// CHECK: tensor.extract_slice %[[W]][0, 0] [7, 4]
// CHECK: tensor.extract_slice %[[W]][1, 0] [7, 4]
func.func @overlapping_windows(%x: tensor<8x4xf32>) -> (tensor<7x4xf32>, tensor<7x4xf32>) {
  %e = tensor.empty() : tensor<8x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %in : f32
    linalg.yield %y : f32
  } -> tensor<8x4xf32>
  %a = tensor.extract_slice %s[0, 0] [7, 4] [1, 1] : tensor<8x4xf32> to tensor<7x4xf32>
  %b = tensor.extract_slice %s[1, 0] [7, 4] [1, 1] : tensor<8x4xf32> to tensor<7x4xf32>
  return %a, %b : tensor<7x4xf32>, tensor<7x4xf32>
}
// CHECK-LABEL: func.func @reads_its_index
// CHECK: %[[G:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: linalg.index 0
// CHECK: tensor.extract_slice %[[G]][1, 0] [1, 4]
func.func @reads_its_index(%x: tensor<2x4xf32>) -> tensor<1x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    %y = arith.mulf %in, %f : f32
    linalg.yield %y : f32
  } -> tensor<2x4xf32>
  %a = tensor.extract_slice %s[1, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<1x4xf32>
  return %a : tensor<1x4xf32>
}

// A plane of a stack read back is the plane: a slice within one input of
// a concatenation, and a slice of a transpose transposes only its part.
// CHECK-LABEL: func.func @plane_of_stack
// CHECK-NOT: tensor.concat
// CHECK: linalg.transpose ins(%arg1 : tensor<2x4xf32>) outs(%{{.*}} : tensor<4x2xf32>) permutation = [1, 0]
func.func @plane_of_stack(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> tensor<4x2xf32> {
  %c = tensor.concat dim(0) %a, %b : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %t = linalg.transpose ins(%c : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) permutation = [1, 0]
  %s = tensor.extract_slice %t[0, 2] [4, 2] [1, 1] : tensor<4x4xf32> to tensor<4x2xf32>
  return %s : tensor<4x2xf32>
}

// A transpose read by an elementwise op is folded into its maps; one read
// by a contraction stays for pb-fold-transposes.
// CHECK-LABEL: func.func @transpose_into_elementwise
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%{{.*}} : tensor<8x4xf32>)
func.func @transpose_into_elementwise(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
         ins(%t : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @transpose_into_matmul
// CHECK: linalg.transpose
// CHECK: linalg.matmul
func.func @transpose_into_matmul(%x: tensor<4x8xf32>, %w: tensor<4x3xf32>, %acc: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%t, %w : tensor<8x4xf32>, tensor<4x3xf32>) outs(%acc : tensor<8x3xf32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// The bias of a packed Q, K, V projection stays one op on the product
// (the contraction path's epilogue) though Q, K and V are slices of it.
// CHECK-LABEL: func.func @sliced_bias_of_product
// CHECK: %[[P:.*]] = linalg.matmul
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%[[P]]
// CHECK-COUNT-3: tensor.extract_slice %[[B]]
func.func @sliced_bias_of_product(%x: tensor<4x8xf32>, %w: tensor<8x12xf32>, %acc: tensor<4x12xf32>, %bias: tensor<12xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %p = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x12xf32>) outs(%acc : tensor<4x12xf32>) -> tensor<4x12xf32>
  %e = tensor.empty() : tensor<4x12xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
         ins(%p, %bias : tensor<4x12xf32>, tensor<12xf32>) outs(%e : tensor<4x12xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %y = arith.addf %in, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x12xf32>
  %q = tensor.extract_slice %b[0, 0] [4, 4] [1, 1] : tensor<4x12xf32> to tensor<4x4xf32>
  %k = tensor.extract_slice %b[0, 4] [4, 4] [1, 1] : tensor<4x12xf32> to tensor<4x4xf32>
  %v = tensor.extract_slice %b[0, 8] [4, 4] [1, 1] : tensor<4x12xf32> to tensor<4x4xf32>
  return %q, %k, %v : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
