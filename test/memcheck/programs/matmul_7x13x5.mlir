// memcheck: a @ b, a 7x13, b 13x5
module {
  func.func @matmul_7x13x5(%arg0: tensor<7x13xf32>, %arg1: tensor<13x5xf32>) -> tensor<7x5xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<7x5xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<7x5xf32>) -> tensor<7x5xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<7x13xf32>, tensor<13x5xf32>) outs(%1 : tensor<7x5xf32>) -> tensor<7x5xf32>
    return %2 : tensor<7x5xf32>
  }
}
