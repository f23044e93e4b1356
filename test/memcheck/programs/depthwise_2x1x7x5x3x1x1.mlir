// memcheck: relu(F.conv2d(x, w, b, stride=1, padding=1, groups=1, dilation=1)), x 2x1x7x5, w 1x1x3x3
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @depthwise_2x1x7x5x3x1x1(%arg0: tensor<2x1x7x5xf32>, %arg1: tensor<1x1x3x3xf32>, %arg2: tensor<1xf32>) -> tensor<2x1x7x5xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index):
      tensor.yield %cst : f32
    } : tensor<2x1x7x5xf32> to tensor<2x1x9x7xf32>
    %0 = tensor.empty() : tensor<2x1x7x5xf32>
    %broadcasted = linalg.broadcast ins(%arg2 : tensor<1xf32>) outs(%0 : tensor<2x1x7x5xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %arg1 : tensor<2x1x9x7xf32>, tensor<1x1x3x3xf32>) outs(%broadcasted : tensor<2x1x7x5xf32>) -> tensor<2x1x7x5xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<2x1x7x5xf32>) outs(%0 : tensor<2x1x7x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %3 = arith.cmpf ugt, %in, %cst : f32
      %4 = arith.select %3, %in, %cst : f32
      linalg.yield %4 : f32
    } -> tensor<2x1x7x5xf32>
    return %2 : tensor<2x1x7x5xf32>
  }
}
