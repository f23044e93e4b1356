// memcheck: F.max_pool2d(x, 2, 2, 0, ceil_mode=True), x 2x2x7x9
module {
  func.func @maxpool_2x2x7x9x2x2x0x1(%arg0: tensor<2x2x7x9xf32>) -> tensor<2x2x4x5xf32> {
    %cst = arith.constant 0xFF800000 : f32
    %padded = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 2, 2] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<2x2x7x9xf32> to tensor<2x2x9x11xf32>
    %0 = tensor.empty() : tensor<2x2x4x5xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x2x4x5xf32>) -> tensor<2x2x4x5xf32>
    %2 = tensor.empty() : tensor<2x2xf32>
    %3 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %2 : tensor<2x2x9x11xf32>, tensor<2x2xf32>) outs(%1 : tensor<2x2x4x5xf32>) -> tensor<2x2x4x5xf32>
    return %3 : tensor<2x2x4x5xf32>
  }
}
