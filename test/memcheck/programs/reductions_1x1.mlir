// memcheck: x.sum(0), x.amax(1), x.mean(), argmax(x, 1), x.var(1), x 1x1
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<(d0, d1) -> ()>
#map4 = affine_map<(d0, d1) -> (d0, 0)>
#map5 = affine_map<(d0) -> (d0)>
module {
  func.func @reductions_1x1(%arg0: tensor<1x1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<f32>, tensor<1xi64>, tensor<1xf32>) {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<1xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1xf32>) -> tensor<1xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "parallel"]} ins(%arg0 : tensor<1x1xf32>) outs(%1 : tensor<1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = arith.addf %in, %out : f32
      linalg.yield %17 : f32
    } -> tensor<1xf32>
    %3 = tensor.empty() : tensor<1xi64>
    %4 = linalg.fill ins(%c0_i64 : i64) outs(%3 : tensor<1xi64>) -> tensor<1xi64>
    %5 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1xf32>) -> tensor<1xf32>
    %6:2 = linalg.generic {indexing_maps = [#map, #map2, #map2], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<1x1xf32>) outs(%5, %4 : tensor<1xf32>, tensor<1xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      %17 = arith.maximumf %in, %out : f32
      %18 = arith.cmpf ogt, %in, %out : f32
      %19 = arith.select %18, %c0_i64, %out_1 : i64
      linalg.yield %17, %19 : f32, i64
    } -> (tensor<1xf32>, tensor<1xi64>)
    %7 = tensor.empty() : tensor<f32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<f32>) -> tensor<f32>
    %9 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction", "reduction"]} ins(%arg0 : tensor<1x1xf32>) outs(%8 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = arith.addf %in, %out : f32
      linalg.yield %17 : f32
    } -> tensor<f32>
    %10 = tensor.empty() : tensor<1x1xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<1x1xf32>) -> tensor<1x1xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map4], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<1x1xf32>) outs(%11 : tensor<1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = arith.addf %in, %out : f32
      linalg.yield %17 : f32
    } -> tensor<1x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %12 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%10 : tensor<1x1xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %17 = arith.subf %in, %in_1 : f32
      linalg.yield %17 : f32
    } -> tensor<1x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%13, %13 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%10 : tensor<1x1xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %17 = arith.mulf %in, %in_1 : f32
      linalg.yield %17 : f32
    } -> tensor<1x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%14 : tensor<1x1xf32>) outs(%1 : tensor<1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = arith.addf %in, %out : f32
      linalg.yield %17 : f32
    } -> tensor<1xf32>
    %16 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel"]} ins(%15 : tensor<1xf32>) outs(%0 : tensor<1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = arith.divf %in, %cst : f32
      linalg.yield %17 : f32
    } -> tensor<1xf32>
    return %2, %6#0, %9, %6#1, %16 : tensor<1xf32>, tensor<1xf32>, tensor<f32>, tensor<1xi64>, tensor<1xf32>
  }
}
