// C = A B on sizes that divide nothing.
func.func @matmul(%a: tensor<67x45xf32>, %b: tensor<45x29xf32>) -> tensor<67x29xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<67x29xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<67x29xf32>) -> tensor<67x29xf32>
  %c = linalg.matmul ins(%a, %b : tensor<67x45xf32>, tensor<45x29xf32>) outs(%f : tensor<67x29xf32>) -> tensor<67x29xf32>
  return %c : tensor<67x29xf32>
}
