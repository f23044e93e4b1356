// memcheck: F.max_pool2d(x, 3, 2, 1, ceil_mode=False), x 1x3x13x11
module {
  func.func @maxpool_1x3x13x11x3x2x1x0(%arg0: tensor<1x3x13x11xf32>) -> tensor<1x3x7x6xf32> {
    %cst = arith.constant 0xFF800000 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x3x13x11xf32> to tensor<1x3x15x13xf32>
    %0 = tensor.empty() : tensor<1x3x7x6xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x3x7x6xf32>) -> tensor<1x3x7x6xf32>
    %2 = tensor.empty() : tensor<3x3xf32>
    %3 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %2 : tensor<1x3x15x13xf32>, tensor<3x3xf32>) outs(%1 : tensor<1x3x7x6xf32>) -> tensor<1x3x7x6xf32>
    return %3 : tensor<1x3x7x6xf32>
  }
}
