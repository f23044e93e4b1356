// memcheck: F.adaptive_avg_pool2d(x, (1, 1)), x 1x3x7x5
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
module {
  func.func @adaptive_avgpool_1x3x7x5x1x1(%arg0: tensor<1x3x7x5xf32>) -> tensor<1x3x1x1xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 3.500000e+01 : f32
    %0 = tensor.empty() : tensor<1x3x1x1xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%arg0 : tensor<1x3x7x5xf32>) outs(%1 : tensor<1x3x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    } -> tensor<1x3x1x1xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<1x3x1x1xf32>) outs(%0 : tensor<1x3x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.divf %in, %cst_0 : f32
      linalg.yield %4 : f32
    } -> tensor<1x3x1x1xf32>
    return %3 : tensor<1x3x1x1xf32>
  }
}
