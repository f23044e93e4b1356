// memcheck: relu(F.conv2d(x, w, b, stride=1, padding=1, groups=2, dilation=1)), x 1x4x9x7, w 6x2x3x3
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @conv2d_1x4x9x7x6x3x1x1x2(%arg0: tensor<1x4x9x7xf32>, %arg1: tensor<6x2x3x3xf32>, %arg2: tensor<6xf32>) -> tensor<1x6x9x7xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index):
      tensor.yield %cst : f32
    } : tensor<1x4x9x7xf32> to tensor<1x4x11x9xf32>
    %0 = tensor.empty() : tensor<1x6x9x7xf32>
    %broadcasted = linalg.broadcast ins(%arg2 : tensor<6xf32>) outs(%0 : tensor<1x6x9x7xf32>) dimensions = [0, 2, 3] 
    %expanded = tensor.expand_shape %padded [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 11, 9] : tensor<1x4x11x9xf32> into tensor<1x2x2x11x9xf32>
    %expanded_0 = tensor.expand_shape %arg1 [[0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3] : tensor<6x2x3x3xf32> into tensor<2x3x2x3x3xf32>
    %expanded_1 = tensor.expand_shape %broadcasted [[0], [1, 2], [3], [4]] output_shape [1, 2, 3, 9, 7] : tensor<1x6x9x7xf32> into tensor<1x2x3x9x7xf32>
    %1 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%expanded, %expanded_0 : tensor<1x2x2x11x9xf32>, tensor<2x3x2x3x3xf32>) outs(%expanded_1 : tensor<1x2x3x9x7xf32>) -> tensor<1x2x3x9x7xf32>
    %collapsed = tensor.collapse_shape %1 [[0], [1, 2], [3], [4]] : tensor<1x2x3x9x7xf32> into tensor<1x6x9x7xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapsed : tensor<1x6x9x7xf32>) outs(%0 : tensor<1x6x9x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %3 = arith.cmpf ugt, %in, %cst : f32
      %4 = arith.select %3, %in, %cst : f32
      linalg.yield %4 : f32
    } -> tensor<1x6x9x7xf32>
    return %2 : tensor<1x6x9x7xf32>
  }
}
