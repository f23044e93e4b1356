func.func @mma_tiles64(%a: tensor<512x256xf16>, %b: tensor<256x640xf16>) -> tensor<512x640xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x640xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<512x640xf32>) -> tensor<512x640xf32>
  %c = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x640xf16>) outs(%f : tensor<512x640xf32>) -> tensor<512x640xf32>
  return %c : tensor<512x640xf32>
}