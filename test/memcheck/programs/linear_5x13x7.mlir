// memcheck: F.linear(x, w, b), x 5x13, w 7x13
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @linear_5x13x7(%arg0: tensor<5x13xf32>, %arg1: tensor<7x13xf32>, %arg2: tensor<7xf32>) -> tensor<5x7xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<13x7xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<7x13xf32>) outs(%0 : tensor<13x7xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<5x7xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<5x7xf32>) -> tensor<5x7xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<5x13xf32>, tensor<13x7xf32>) outs(%2 : tensor<5x7xf32>) -> tensor<5x7xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg2 : tensor<7xf32>) outs(%1 : tensor<5x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<5x7xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%3, %4 : tensor<5x7xf32>, tensor<5x7xf32>) outs(%1 : tensor<5x7xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %6 = arith.addf %in, %in_0 : f32
      linalg.yield %6 : f32
    } -> tensor<5x7xf32>
    return %5 : tensor<5x7xf32>
  }
}
