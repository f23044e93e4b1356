func.func @mma_batch(%a: tensor<3x40x24xf16>, %b: tensor<3x24x50xf16>) -> tensor<3x40x50xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x40x50xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x40x50xf32>) -> tensor<3x40x50xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x40x24xf16>, tensor<3x24x50xf16>) outs(%f : tensor<3x40x50xf32>) -> tensor<3x40x50xf32>
  return %c : tensor<3x40x50xf32>
}