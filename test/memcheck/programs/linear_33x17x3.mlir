// memcheck: F.linear(x, w, b), x 33x17, w 3x17
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @linear_33x17x3(%arg0: tensor<33x17xf32>, %arg1: tensor<3x17xf32>, %arg2: tensor<3xf32>) -> tensor<33x3xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<17x3xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<3x17xf32>) outs(%0 : tensor<17x3xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<33x3xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<33x3xf32>) -> tensor<33x3xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<33x17xf32>, tensor<17x3xf32>) outs(%2 : tensor<33x3xf32>) -> tensor<33x3xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg2 : tensor<3xf32>) outs(%1 : tensor<33x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<33x3xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%3, %4 : tensor<33x3xf32>, tensor<33x3xf32>) outs(%1 : tensor<33x3xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %6 = arith.addf %in, %in_0 : f32
      linalg.yield %6 : f32
    } -> tensor<33x3xf32>
    return %5 : tensor<33x3xf32>
  }
}
