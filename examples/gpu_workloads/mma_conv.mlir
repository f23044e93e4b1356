func.func @mma_conv(%x: tensor<2x10x10x8xf16>, %w: tensor<3x3x8x20xf16>, %bias: tensor<20xf32>) -> tensor<2x8x8x20xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x20xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x8x8x20xf32>) -> tensor<2x8x8x20xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<2x10x10x8xf16>, tensor<3x3x8x20xf16>) outs(%f : tensor<2x8x8x20xf32>) -> tensor<2x8x8x20xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %bias : tensor<2x8x8x20xf32>, tensor<20xf32>) outs(%e : tensor<2x8x8x20xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<2x8x8x20xf32>
  return %r : tensor<2x8x8x20xf32>
}