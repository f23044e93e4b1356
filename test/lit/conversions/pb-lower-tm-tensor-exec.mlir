// torch-mlir's scatter, scan, sort and topk, lowered to loops, compute PyTorch's
// numbers: run them.
// RUN: pb-opt %s --allow-unregistered-dialect --pb-lower-tm-tensor | pb-opt %to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI64(tensor<*xi64>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  // index_put(accumulate=True) of rows [1, 3, 3, -1, 7] into a 4x2 zero
  // matrix: row 3 gets two updates, -1 is row 3 again, 7 is out of bounds
  // and skipped.
  %zeros = arith.constant dense<0.0> : tensor<4x2xf32>
  %rows = arith.constant dense<[[1], [3], [3], [-1], [7]]> : tensor<5x1xi64>
  %updates = arith.constant dense<[[[1.0, 2.0]], [[10.0, 20.0]], [[100.0, 200.0]], [[1000.0, 2000.0]], [[5.0, 5.0]]]> : tensor<5x1x2xf32>
  %added = "tm_tensor.scatter"(%updates, %rows, %zeros) <{dimension_map = array<i64: 0>, operandSegmentSizes = array<i32: 2, 1>, unique_indices = false}> ({
  ^bb0(%update: f32, %current: f32):
    %sum = arith.addf %current, %update : f32
    "tm_tensor.yield"(%sum) : (f32) -> ()
  }) : (tensor<5x1x2xf32>, tensor<5x1xi64>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %a = tensor.cast %added : tensor<4x2xf32> to tensor<*xf32>
  // CHECK: [0,   0]
  // CHECK-NEXT: [1,   2]
  // CHECK-NEXT: [0,   0]
  // CHECK-NEXT: [1110,   2220]
  call @printMemrefF32(%a) : (tensor<*xf32>) -> ()

  // Inclusive cumulative sum along dimension 1; the accumulator gets the
  // row totals.
  %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %out = tensor.empty() : tensor<2x3xf32>
  %acc = arith.constant dense<0.0> : tensor<2xf32>
  %scan:2 = "tm_tensor.scan"(%x, %out, %acc) <{dimension = 1 : i64, inclusive = true, operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    "tm_tensor.yield"(%s) : (f32) -> ()
  }) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> (tensor<2x3xf32>, tensor<2xf32>)
  %s0 = tensor.cast %scan#0 : tensor<2x3xf32> to tensor<*xf32>
  %s1 = tensor.cast %scan#1 : tensor<2xf32> to tensor<*xf32>
  // CHECK: [1,   3,   6]
  // CHECK-NEXT: [4,   9,   15]
  call @printMemrefF32(%s0) : (tensor<*xf32>) -> ()
  // CHECK: [6,  15]
  call @printMemrefF32(%s1) : (tensor<*xf32>) -> ()

  // Exclusive: each element is the sum of those before it, starting from
  // the accumulator (10).
  %ten = arith.constant dense<10.0> : tensor<2xf32>
  %excl:2 = "tm_tensor.scan"(%x, %out, %ten) <{dimension = 1 : i64, inclusive = false, operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    "tm_tensor.yield"(%s) : (f32) -> ()
  }) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> (tensor<2x3xf32>, tensor<2xf32>)
  %e0 = tensor.cast %excl#0 : tensor<2x3xf32> to tensor<*xf32>
  // CHECK: [10,   11,   13]
  // CHECK-NEXT: [10,   14,   19]
  call @printMemrefF32(%e0) : (tensor<*xf32>) -> ()

  // Descending sort of each row (topk's comparator, oge) with the indices
  // moved alongside; equal keys keep their order.
  %keys = arith.constant dense<[[0.5, 2.0, -1.0, 2.0, 7.0]]> : tensor<1x5xf32>
  %positions = arith.constant dense<[[0, 1, 2, 3, 4]]> : tensor<1x5xi64>
  %sorted:2 = "tm_tensor.sort"(%keys, %positions) <{dimension = 1 : i64, operandSegmentSizes = array<i32: 0, 2>}> ({
  ^bb0(%k0: f32, %k1: f32, %i0: i64, %i1: i64):
    %c = arith.cmpf oge, %k0, %k1 : f32
    "tm_tensor.yield"(%c) : (i1) -> ()
  }) : (tensor<1x5xf32>, tensor<1x5xi64>) -> (tensor<1x5xf32>, tensor<1x5xi64>)
  %k = tensor.cast %sorted#0 : tensor<1x5xf32> to tensor<*xf32>
  %i = tensor.cast %sorted#1 : tensor<1x5xi64> to tensor<*xi64>
  // CHECK: [7,   2,   2,   0.5,   -1]
  call @printMemrefF32(%k) : (tensor<*xf32>) -> ()
  // CHECK: [4,   1,   3,   0,   2]
  call @printMemrefI64(%i) : (tensor<*xi64>) -> ()

  // The 2 smallest of each row (kthvalue's topk, olt), slots starting at
  // +inf; ties keep the earlier index.
  %line = arith.constant dense<[[3.0, 1.0, 2.0, 1.0], [0.5, 9.0, -4.0, 7.0]]> : tensor<2x4xf32>
  %inf = arith.constant dense<0x7F800000> : tensor<2x2xf32>
  %none = arith.constant dense<2147483647> : tensor<2x2xi32>
  %top:2 = "tm_tensor.topk"(%line, %inf, %none) <{dimension = 1 : i64, operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%p: f32, %q: f32):
    %lt = arith.cmpf olt, %p, %q : f32
    "tm_tensor.yield"(%lt) : (i1) -> ()
  }) : (tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x2xi32>) -> (tensor<2x2xf32>, tensor<2x2xi32>)
  %tv = tensor.cast %top#0 : tensor<2x2xf32> to tensor<*xf32>
  %ti = tensor.cast %top#1 : tensor<2x2xi32> to tensor<*xi32>
  // CHECK: [1,   1]
  // CHECK-NEXT: [-4,   0.5]
  call @printMemrefF32(%tv) : (tensor<*xf32>) -> ()
  // CHECK: [1,   3]
  // CHECK-NEXT: [2,   0]
  call @printMemrefI32(%ti) : (tensor<*xi32>) -> ()
  return
}
