// 2x2 max pooling and 3x3 average pooling (stride 2), NCHW.
func.func @pooling(%x: tensor<2x3x11x13xf32>) -> (tensor<2x3x5x6xf32>, tensor<2x3x5x6xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %ninth = arith.constant 0.111111112 : f32
  %k2 = tensor.empty() : tensor<2x2xf32>
  %k3 = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<2x3x5x6xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x3x5x6xf32>) -> tensor<2x3x5x6xf32>
  %max = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %k2 : tensor<2x3x11x13xf32>, tensor<2x2xf32>) outs(%fm : tensor<2x3x5x6xf32>) -> tensor<2x3x5x6xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x5x6xf32>) -> tensor<2x3x5x6xf32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %k3 : tensor<2x3x11x13xf32>, tensor<3x3xf32>) outs(%fs : tensor<2x3x5x6xf32>) -> tensor<2x3x5x6xf32>
  %avg = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sum : tensor<2x3x5x6xf32>) outs(%e : tensor<2x3x5x6xf32>) {
  ^bb0(%s: f32, %o: f32):
    %a = arith.mulf %s, %ninth : f32
    linalg.yield %a : f32
  } -> tensor<2x3x5x6xf32>
  return %max, %avg : tensor<2x3x5x6xf32>, tensor<2x3x5x6xf32>
}
