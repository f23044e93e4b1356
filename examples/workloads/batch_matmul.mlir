// Three independent 17x11 @ 11x13 products.
func.func @batch_matmul(%a: tensor<3x17x11xf32>, %b: tensor<3x11x13xf32>) -> tensor<3x17x13xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x17x13xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x17x13xf32>) -> tensor<3x17x13xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x17x11xf32>, tensor<3x11x13xf32>) outs(%f : tensor<3x17x13xf32>) -> tensor<3x17x13xf32>
  return %c : tensor<3x17x13xf32>
}
