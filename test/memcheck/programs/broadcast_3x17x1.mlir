// memcheck: s = x + y * z; where(s > 0, gelu(s), sigmoid(s) * y), x 3x1x1, y 17x1, z 1
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @broadcast_3x17x1(%arg0: tensor<3x1x1xf32>, %arg1: tensor<17x1xf32>, %arg2: tensor<1xf32>) -> tensor<3x17x1xf32> {
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 0.70710678118654757 : f64
    %cst_1 = arith.constant 0.000000e+00 : f32
    %cst_2 = arith.constant 5.000000e-01 : f32
    %0 = tensor.empty() : tensor<17x1xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %arg2 : tensor<17x1xf32>, tensor<1xf32>) outs(%0 : tensor<17x1xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %14 = arith.mulf %in, %in_3 : f32
      linalg.yield %14 : f32
    } -> tensor<17x1xf32>
    %2 = tensor.empty() : tensor<3x17x1xf32>
    %3 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %1 : tensor<3x1x1xf32>, tensor<17x1xf32>) outs(%2 : tensor<3x17x1xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %14 = arith.addf %in, %in_3 : f32
      linalg.yield %14 : f32
    } -> tensor<3x17x1xf32>
    %4 = tensor.empty() : tensor<3x17x1xi1>
    %5 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<3x17x1xf32>) outs(%4 : tensor<3x17x1xi1>) {
    ^bb0(%in: f32, %out: i1):
      %14 = arith.cmpf ogt, %in, %cst_1 : f32
      linalg.yield %14 : i1
    } -> tensor<3x17x1xi1>
    %6 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<3x17x1xf32>) outs(%2 : tensor<3x17x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.mulf %in, %cst_2 : f32
      linalg.yield %14 : f32
    } -> tensor<3x17x1xf32>
    %7 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<3x17x1xf32>) outs(%2 : tensor<3x17x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.truncf %cst_0 : f64 to f32
      %15 = arith.mulf %in, %14 : f32
      linalg.yield %15 : f32
    } -> tensor<3x17x1xf32>
    %8 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7 : tensor<3x17x1xf32>) outs(%2 : tensor<3x17x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = math.erf %in : f32
      linalg.yield %14 : f32
    } -> tensor<3x17x1xf32>
    %9 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %8 : tensor<3x17x1xf32>, tensor<3x17x1xf32>) outs(%2 : tensor<3x17x1xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %14 = arith.mulf %in, %in_3 : f32
      linalg.yield %14 : f32
    } -> tensor<3x17x1xf32>
    %10 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %9 : tensor<3x17x1xf32>, tensor<3x17x1xf32>) outs(%2 : tensor<3x17x1xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %14 = arith.addf %in, %in_3 : f32
      linalg.yield %14 : f32
    } -> tensor<3x17x1xf32>
    %11 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<3x17x1xf32>) outs(%2 : tensor<3x17x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.negf %in : f32
      %15 = math.exp %14 : f32
      %16 = arith.addf %15, %cst : f32
      %17 = arith.divf %cst, %16 : f32
      linalg.yield %17 : f32
    } -> tensor<3x17x1xf32>
    %12 = linalg.generic {indexing_maps = [#map4, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11, %arg1 : tensor<3x17x1xf32>, tensor<17x1xf32>) outs(%2 : tensor<3x17x1xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %14 = arith.mulf %in, %in_3 : f32
      linalg.yield %14 : f32
    } -> tensor<3x17x1xf32>
    %13 = linalg.generic {indexing_maps = [#map4, #map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %10, %12 : tensor<3x17x1xi1>, tensor<3x17x1xf32>, tensor<3x17x1xf32>) outs(%2 : tensor<3x17x1xf32>) {
    ^bb0(%in: i1, %in_3: f32, %in_4: f32, %out: f32):
      %14 = arith.select %in, %in_3, %in_4 : f32
      linalg.yield %14 : f32
    } -> tensor<3x17x1xf32>
    return %13 : tensor<3x17x1xf32>
  }
}
