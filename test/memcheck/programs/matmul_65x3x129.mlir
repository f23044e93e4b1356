// memcheck: a @ b, a 65x3, b 3x129
module {
  func.func @matmul_65x3x129(%arg0: tensor<65x3xf32>, %arg1: tensor<3x129xf32>) -> tensor<65x129xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<65x129xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<65x129xf32>) -> tensor<65x129xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<65x3xf32>, tensor<3x129xf32>) outs(%1 : tensor<65x129xf32>) -> tensor<65x129xf32>
    return %2 : tensor<65x129xf32>
  }
}
