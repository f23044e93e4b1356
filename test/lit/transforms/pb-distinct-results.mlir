// RUN: pb-opt %s --pb-distinct-results | FileCheck %s
// A tensor returned twice (AOTAutograd's training graphs return an output
// and the same tensor saved for backward) used to crash upstream
// buffer-results-to-out-params; the whole cpu pipeline now compiles it.
// RUN: pb-opt %s --pb-pipeline=cpu --pb-target="cores=2 vector-bits=512" | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @same_twice
// CHECK: %[[Y:.*]] = linalg.generic
// CHECK: %[[C1:.*]] = bufferization.alloc_tensor() copy(%[[Y]]) : tensor<4x8xf32>
// CHECK: %[[C2:.*]] = bufferization.alloc_tensor() copy(%[[Y]]) : tensor<4x8xf32>
// CHECK: return %[[Y]], %[[C1]], %[[C2]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
// LLVM-LABEL: llvm.func @same_twice
// LLVM: llvm.return
func.func @same_twice(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %a : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %y, %y, %y : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// Left alone: distinct results (one of them an input, which bufferization
// copies itself), and private functions.
// CHECK-LABEL: func.func @distinct
// CHECK-NOT: alloc_tensor
// CHECK: return
// LLVM-LABEL: llvm.func @distinct
func.func @distinct(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %y, %x : tensor<4x8xf32>, tensor<4x8xf32>
}
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: alloc_tensor
// CHECK: return
func.func private @helper(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %x, %x : tensor<4xf32>, tensor<4xf32>
}
