// memcheck: F.layer_norm(x, (1,), g, b), x 3x1
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @layernorm_3x1(%arg0: tensor<3x1xf32>, %arg1: tensor<1xf32>, %arg2: tensor<1xf32>) -> tensor<3x1xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e-05 : f64
    %0 = tensor.empty() : tensor<3x1xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<3x1xf32>) -> tensor<3x1xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<3x1xf32>) outs(%1 : tensor<3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = arith.addf %in, %out : f32
      linalg.yield %11 : f32
    } -> tensor<3x1xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %2 : tensor<3x1xf32>, tensor<3x1xf32>) outs(%0 : tensor<3x1xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %11 = arith.subf %in, %in_1 : f32
      linalg.yield %11 : f32
    } -> tensor<3x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %3 : tensor<3x1xf32>, tensor<3x1xf32>) outs(%0 : tensor<3x1xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %11 = arith.mulf %in, %in_1 : f32
      linalg.yield %11 : f32
    } -> tensor<3x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%4 : tensor<3x1xf32>) outs(%1 : tensor<3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = arith.addf %in, %out : f32
      linalg.yield %11 : f32
    } -> tensor<3x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<3x1xf32>) outs(%0 : tensor<3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = arith.truncf %cst_0 : f64 to f32
      %12 = arith.addf %in, %11 : f32
      linalg.yield %12 : f32
    } -> tensor<3x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<3x1xf32>) outs(%0 : tensor<3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = math.rsqrt %in : f32
      linalg.yield %11 : f32
    } -> tensor<3x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %7 : tensor<3x1xf32>, tensor<3x1xf32>) outs(%0 : tensor<3x1xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %11 = arith.mulf %in, %in_1 : f32
      linalg.yield %11 : f32
    } -> tensor<3x1xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %arg1 : tensor<3x1xf32>, tensor<1xf32>) outs(%0 : tensor<3x1xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %11 = arith.mulf %in, %in_1 : f32
      linalg.yield %11 : f32
    } -> tensor<3x1xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %arg2 : tensor<3x1xf32>, tensor<1xf32>) outs(%0 : tensor<3x1xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %11 = arith.addf %in, %in_1 : f32
      linalg.yield %11 : f32
    } -> tensor<3x1xf32>
    return %10 : tensor<3x1xf32>
  }
}
