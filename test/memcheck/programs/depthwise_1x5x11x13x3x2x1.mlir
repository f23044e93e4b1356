// memcheck: relu(F.conv2d(x, w, b, stride=2, padding=1, groups=5, dilation=1)), x 1x5x11x13, w 5x1x3x3
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @depthwise_1x5x11x13x3x2x1(%arg0: tensor<1x5x11x13xf32>, %arg1: tensor<5x1x3x3xf32>, %arg2: tensor<5xf32>) -> tensor<1x5x6x7xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index):
      tensor.yield %cst : f32
    } : tensor<1x5x11x13xf32> to tensor<1x5x13x15xf32>
    %0 = tensor.empty() : tensor<1x5x6x7xf32>
    %broadcasted = linalg.broadcast ins(%arg2 : tensor<5xf32>) outs(%0 : tensor<1x5x6x7xf32>) dimensions = [0, 2, 3] 
    %collapsed = tensor.collapse_shape %arg1 [[0, 1], [2], [3]] : tensor<5x1x3x3xf32> into tensor<5x3x3xf32>
    %1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %collapsed : tensor<1x5x13x15xf32>, tensor<5x3x3xf32>) outs(%broadcasted : tensor<1x5x6x7xf32>) -> tensor<1x5x6x7xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<1x5x6x7xf32>) outs(%0 : tensor<1x5x6x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %3 = arith.cmpf ugt, %in, %cst : f32
      %4 = arith.select %3, %in, %cst : f32
      linalg.yield %4 : f32
    } -> tensor<1x5x6x7xf32>
    return %2 : tensor<1x5x6x7xf32>
  }
}
