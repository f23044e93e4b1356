module @jit_f {
  func.func public @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<f32>) -> tensor<1x7x7x1xf32> {
    %1 = "stablehlo.reduce_window"(%arg0, %arg1) <{base_dilations = array<i64: 1, 2, 2, 1>, padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 1, 1, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %2 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x7x7x1xf32>
    return %1 : tensor<1x7x7x1xf32>
  }
}
