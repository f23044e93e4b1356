// relu, then a padded 3x3 convolution, as torch-mlir imports them.
// Regression: bufferization reuses the output buffer for the relu result,
// and upstream affine fusion once moved the copy into the padded buffer
// inside the convolution's channel loop, after that buffer was overwritten.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @relu_conv_padded(%arg0: tensor<1x4x6x6xf32>, %arg1: tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x4x6x6xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x4x6x6xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.cmpf ugt, %in, %cst : f32
      %5 = arith.select %4, %in, %cst : f32
      linalg.yield %5 : f32
    } -> tensor<1x4x6x6xf32>
    %padded = tensor.pad %1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg2: index, %arg3: index, %arg4: index, %arg5: index):
      tensor.yield %cst : f32
    } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %arg1 : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%2 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    return %3 : tensor<1x4x6x6xf32>
  }
}
