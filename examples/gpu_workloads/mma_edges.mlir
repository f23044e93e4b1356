func.func @mma_edges(%a: tensor<100x72xf16>, %b: tensor<72x80xf16>) -> tensor<100x80xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x80xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<100x80xf32>) -> tensor<100x80xf32>
  %c = linalg.matmul ins(%a, %b : tensor<100x72xf16>, tensor<72x80xf16>) outs(%f : tensor<100x80xf32>) -> tensor<100x80xf32>
  return %c : tensor<100x80xf32>
}