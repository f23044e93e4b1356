// memcheck: torch.bmm, 1x1x1 @ 1x1x1
module {
  func.func @bmm_1x1x1x1(%arg0: tensor<1x1x1xf32>, %arg1: tensor<1x1x1xf32>) -> tensor<1x1x1xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x1x1xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
    %2 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<1x1x1xf32>, tensor<1x1x1xf32>) outs(%1 : tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
    return %2 : tensor<1x1x1xf32>
  }
}
