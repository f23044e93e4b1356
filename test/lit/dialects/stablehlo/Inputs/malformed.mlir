func.func @main(%arg0: tensor<4xf32>) -> tensor<4x2xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, : (tensor<4xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
