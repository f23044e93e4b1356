func.func @mma_int8(%a: tensor<100x72xi8>, %b: tensor<72x80xi8>) -> tensor<100x80xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<100x80xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<100x80xi32>) -> tensor<100x80xi32>
  %c = linalg.matmul ins(%a, %b : tensor<100x72xi8>, tensor<72x80xi8>) outs(%f : tensor<100x80xi32>) -> tensor<100x80xi32>
  return %c : tensor<100x80xi32>
}
