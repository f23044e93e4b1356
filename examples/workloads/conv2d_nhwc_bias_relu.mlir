// relu(conv2d(x, w) + bias), NHWC input, HWCF filter, stride 2.
func.func @conv2d_nhwc_bias_relu(%x: tensor<1x13x11x5xf32>, %w: tensor<3x3x5x7xf32>, %bias: tensor<7xf32>) -> tensor<1x6x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x5x7xf32>) -> tensor<1x6x5x7xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x13x11x5xf32>, tensor<3x3x5x7xf32>) outs(%f : tensor<1x6x5x7xf32>) -> tensor<1x6x5x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x6x5x7xf32>, tensor<7xf32>) outs(%e : tensor<1x6x5x7xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x6x5x7xf32>
  return %r : tensor<1x6x5x7xf32>
}
