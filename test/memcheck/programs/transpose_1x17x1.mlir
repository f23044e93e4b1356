// memcheck: x.permute(2, 0, 1) * 2, y.t() + 1, x 1x17x1, y 1x1
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @transpose_1x17x1(%arg0: tensor<1x17x1xf32>, %arg1: tensor<1x1xf32>) -> (tensor<1x1x17xf32>, tensor<1x1xf32>) {
    %cst = arith.constant 2.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x1x17xf32>
    %transposed = linalg.transpose ins(%arg0 : tensor<1x17x1xf32>) outs(%0 : tensor<1x1x17xf32>) permutation = [2, 0, 1] 
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed : tensor<1x1x17xf32>) outs(%0 : tensor<1x1x17xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.mulf %in, %cst : f32
      linalg.yield %4 : f32
    } -> tensor<1x1x17xf32>
    %2 = tensor.empty() : tensor<1x1xf32>
    %transposed_1 = linalg.transpose ins(%arg1 : tensor<1x1xf32>) outs(%2 : tensor<1x1xf32>) permutation = [1, 0] 
    %3 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%transposed_1 : tensor<1x1xf32>) outs(%2 : tensor<1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %cst_0 : f32
      linalg.yield %4 : f32
    } -> tensor<1x1xf32>
    return %1, %3 : tensor<1x1x17xf32>, tensor<1x1xf32>
  }
}
