// memcheck: torch.sort(x, -1, descending=False), x 1x1
module {
  func.func @sort_1x1x0(%arg0: tensor<1x1xf32>) -> (tensor<1x1xf32>, tensor<1x1xi64>) {
    %cst = arith.constant dense<0> : tensor<1x1xi64>
    return %arg0, %cst : tensor<1x1xf32>, tensor<1x1xi64>
  }
}
