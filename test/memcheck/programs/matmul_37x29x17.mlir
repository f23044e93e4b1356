// memcheck: a @ b, a 37x29, b 29x17
module {
  func.func @matmul_37x29x17(%arg0: tensor<37x29xf32>, %arg1: tensor<29x17xf32>) -> tensor<37x17xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<37x17xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<37x17xf32>) -> tensor<37x17xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<37x29xf32>, tensor<29x17xf32>) outs(%1 : tensor<37x17xf32>) -> tensor<37x17xf32>
    return %2 : tensor<37x17xf32>
  }
}
