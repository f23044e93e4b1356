// relu(conv2d(x, w) + bias), NCHW input, FCHW filter, stride 1, no padding.
func.func @conv2d_nchw_bias_relu(%x: tensor<2x3x17x19xf32>, %w: tensor<8x3x3x3xf32>, %bias: tensor<8xf32>) -> tensor<2x8x15x17xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x15x17xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x15x17xf32>) -> tensor<2x8x15x17xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x17x19xf32>, tensor<8x3x3x3xf32>) outs(%f : tensor<2x8x15x17xf32>) -> tensor<2x8x15x17xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<2x8x15x17xf32>, tensor<8xf32>) outs(%e : tensor<2x8x15x17xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x15x17xf32>
  return %r : tensor<2x8x15x17xf32>
}
