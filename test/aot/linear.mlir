// A linear layer (its weight input 1): test_aot.py compiles it with the
// weight static for C, test_torch_parameters.py checks pb-compile's
// static-argument errors and manifest on it.
func.func @linear(%x: tensor<40x96xf32>, %w: tensor<96x70xf32>) -> tensor<40x70xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<40x70xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<40x70xf32>) -> tensor<40x70xf32>
  %y = linalg.matmul ins(%x, %w : tensor<40x96xf32>, tensor<96x70xf32>) outs(%init : tensor<40x70xf32>) -> tensor<40x70xf32>
  return %y : tensor<40x70xf32>
}
