// Row sums and column maxima of a 31x17 matrix.
func.func @reductions(%a: tensor<31x17xf32>) -> (tensor<31xf32>, tensor<17xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<31xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<31xf32>) -> tensor<31xf32>
  %sum = linalg.reduce ins(%a : tensor<31x17xf32>) outs(%z0 : tensor<31xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  %e1 = tensor.empty() : tensor<17xf32>
  %z1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<17xf32>) -> tensor<17xf32>
  %max = linalg.reduce ins(%a : tensor<31x17xf32>) outs(%z1 : tensor<17xf32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %m = arith.maximumf %x, %acc : f32
      linalg.yield %m : f32
    }
  return %sum, %max : tensor<31xf32>, tensor<17xf32>
}
