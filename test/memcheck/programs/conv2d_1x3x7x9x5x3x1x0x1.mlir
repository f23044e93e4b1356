// memcheck: relu(F.conv2d(x, w, b, stride=1, padding=0, groups=1, dilation=1)), x 1x3x7x9, w 5x3x3x3
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @conv2d_1x3x7x9x5x3x1x0x1(%arg0: tensor<1x3x7x9xf32>, %arg1: tensor<5x3x3x3xf32>, %arg2: tensor<5xf32>) -> tensor<1x5x5x7xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x5x5x7xf32>
    %broadcasted = linalg.broadcast ins(%arg2 : tensor<5xf32>) outs(%0 : tensor<1x5x5x7xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %arg1 : tensor<1x3x7x9xf32>, tensor<5x3x3x3xf32>) outs(%broadcasted : tensor<1x5x5x7xf32>) -> tensor<1x5x5x7xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<1x5x5x7xf32>) outs(%0 : tensor<1x5x5x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %3 = arith.cmpf ugt, %in, %cst : f32
      %4 = arith.select %3, %in, %cst : f32
      linalg.yield %4 : f32
    } -> tensor<1x5x5x7xf32>
    return %2 : tensor<1x5x5x7xf32>
  }
}
