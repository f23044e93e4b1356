// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-inline-pointwise))' | FileCheck %s
// With elementwise fusion after it, each copy is in its reader.
// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-inline-pointwise,linalg-fuse-elementwise-ops,canonicalize,cse))' | FileCheck %s --check-prefix=FUSED

#id = affine_map<(d0, d1) -> (d0, d1)>

// A product read at two row offsets (a stencil over it): one copy of the
// product per slice, on the same slices of its input; the product itself
// is gone.
// CHECK-LABEL: func.func @product_read_at_offsets
// CHECK: tensor.extract_slice %arg0[0, 0] [6, 8] [1, 1]
// CHECK: tensor.extract_slice %arg0[0, 0] [6, 8] [1, 1]
// CHECK: arith.mulf
// CHECK: tensor.extract_slice %arg0[1, 0] [6, 8] [1, 1]
// CHECK: tensor.extract_slice %arg0[1, 0] [6, 8] [1, 1]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
// FUSED-LABEL: func.func @product_read_at_offsets
// FUSED: linalg.generic
// FUSED: arith.mulf
// FUSED: arith.mulf
// FUSED: arith.addf
// FUSED-NOT: linalg.generic
func.func @product_read_at_offsets(%x: tensor<7x8xf32>) -> tensor<6x8xf32> {
  %e = tensor.empty() : tensor<7x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %x : tensor<7x8xf32>, tensor<7x8xf32>) outs(%e : tensor<7x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<7x8xf32>
  %s0 = tensor.extract_slice %p[0, 0] [6, 8] [1, 1] : tensor<7x8xf32> to tensor<6x8xf32>
  %s1 = tensor.extract_slice %p[1, 0] [6, 8] [1, 1] : tensor<7x8xf32> to tensor<6x8xf32>
  %e2 = tensor.empty() : tensor<6x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s0, %s1 : tensor<6x8xf32>, tensor<6x8xf32>) outs(%e2 : tensor<6x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}

// A scaled copy read by two elementwise ops: a copy for each.
// CHECK-LABEL: func.func @shared_by_two
// CHECK-COUNT-2: arith.mulf
// FUSED-LABEL: func.func @shared_by_two
// FUSED-COUNT-2: linalg.generic
func.func @shared_by_two(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p : tensor<8xf32>) outs(%e2 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.sqrt %a : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r1, %r2 : tensor<8xf32>, tensor<8xf32>
}

// Not inlined: a reader that reduces (a sum over the product: inlined, it
// would be recomputed per step of every reduction), and a producer with
// more than two ops.
// CHECK-LABEL: func.func @read_by_a_reduction
// CHECK-COUNT-1: arith.mulf
// CHECK-LABEL: func.func @three_ops
// CHECK-COUNT-1: arith.mulf
func.func @read_by_a_reduction(%x: tensor<8xf32>, %acc: tensor<f32>) -> (tensor<f32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%p : tensor<8xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %o : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %s, %p : tensor<f32>, tensor<8xf32>
}
func.func @three_ops(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    %n = arith.addf %m, %a : f32
    %q = arith.subf %n, %a : f32
    linalg.yield %q : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p : tensor<8xf32>) outs(%e2 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.sqrt %a : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r1, %r2 : tensor<8xf32>, tensor<8xf32>
}

// Slices of a slice (`p[1:, :][:, 1:]`, as shifted slicing writes them):
// one copy per inner slice, on the composed slice of the input.
// CHECK-LABEL: func.func @slice_of_slice
// CHECK: tensor.extract_slice %arg0[1, 1] [6, 7] [1, 1]
// CHECK: arith.mulf
// CHECK: tensor.extract_slice %arg0[1, 0] [6, 7] [1, 1]
// CHECK: arith.mulf
// CHECK: arith.subf
func.func @slice_of_slice(%x: tensor<7x8xf32>) -> tensor<6x7xf32> {
  %e = tensor.empty() : tensor<7x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %x : tensor<7x8xf32>, tensor<7x8xf32>) outs(%e : tensor<7x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<7x8xf32>
  %rows = tensor.extract_slice %p[1, 0] [6, 8] [1, 1] : tensor<7x8xf32> to tensor<6x8xf32>
  %s0 = tensor.extract_slice %rows[0, 1] [6, 7] [1, 1] : tensor<6x8xf32> to tensor<6x7xf32>
  %s1 = tensor.extract_slice %rows[0, 0] [6, 7] [1, 1] : tensor<6x8xf32> to tensor<6x7xf32>
  %e2 = tensor.empty() : tensor<6x7xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s0, %s1 : tensor<6x7xf32>, tensor<6x7xf32>) outs(%e2 : tensor<6x7xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<6x7xf32>
  return %r : tensor<6x7xf32>
}
