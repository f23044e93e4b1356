func.func @mma_bias_f16(%a: tensor<64x48xf16>, %b: tensor<48x96xf16>, %bias: tensor<96xf16>) -> tensor<64x96xf16> {
  %e = tensor.empty() : tensor<64x96xf16>
  %f = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<96xf16>) outs(%e : tensor<64x96xf16>) {
  ^bb0(%x: f16, %o: f16):
    linalg.yield %x : f16
  } -> tensor<64x96xf16>
  %c = linalg.matmul ins(%a, %b : tensor<64x48xf16>, tensor<48x96xf16>) outs(%f : tensor<64x96xf16>) -> tensor<64x96xf16>
  return %c : tensor<64x96xf16>
}