// memcheck: torch.bmm, 2x17x9 @ 2x9x31
module {
  func.func @bmm_2x17x9x31(%arg0: tensor<2x17x9xf32>, %arg1: tensor<2x9x31xf32>) -> tensor<2x17x31xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<2x17x31xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x17x31xf32>) -> tensor<2x17x31xf32>
    %2 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<2x17x9xf32>, tensor<2x9x31xf32>) outs(%1 : tensor<2x17x31xf32>) -> tensor<2x17x31xf32>
    return %2 : tensor<2x17x31xf32>
  }
}
