// memcheck: index_select(x, 0, i), index_select(x, 1, j), x 1x1, i, j 1
// memcheck: input1 range 0 1
// memcheck: input2 range 0 1
module {
  func.func @index_select_1x1x1(%arg0: tensor<1x1xf32>, %arg1: tensor<1xi64>, %arg2: tensor<1xi64>) -> (tensor<1x1xf32>, tensor<1x1xf32>) {
    return %arg0, %arg0 : tensor<1x1xf32>, tensor<1x1xf32>
  }
}
