// memcheck: x.sum(0), x.amax(1), x.mean(), argmax(x, 1), x.var(1), x 13x7
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<(d0, d1) -> ()>
#map4 = affine_map<() -> ()>
#map5 = affine_map<(d0, d1) -> (d0, 0)>
#map6 = affine_map<(d0) -> (d0)>
module {
  func.func @reductions_13x7(%arg0: tensor<13x7xf32>) -> (tensor<7xf32>, tensor<13xf32>, tensor<f32>, tensor<13xi64>, tensor<13xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 9.100000e+01 : f32
    %cst_2 = arith.constant 7.000000e+00 : f32
    %cst_3 = arith.constant 6.000000e+00 : f32
    %0 = tensor.empty() : tensor<7xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<7xf32>) -> tensor<7xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "parallel"]} ins(%arg0 : tensor<13x7xf32>) outs(%1 : tensor<7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.addf %in, %out : f32
      linalg.yield %22 : f32
    } -> tensor<7xf32>
    %3 = tensor.empty() : tensor<13xi64>
    %4 = linalg.fill ins(%c0_i64 : i64) outs(%3 : tensor<13xi64>) -> tensor<13xi64>
    %5 = tensor.empty() : tensor<13xf32>
    %6 = linalg.fill ins(%cst_0 : f32) outs(%5 : tensor<13xf32>) -> tensor<13xf32>
    %7:2 = linalg.generic {indexing_maps = [#map, #map2, #map2], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<13x7xf32>) outs(%6, %4 : tensor<13xf32>, tensor<13xi64>) {
    ^bb0(%in: f32, %out: f32, %out_4: i64):
      %22 = linalg.index 1 : index
      %23 = arith.index_cast %22 : index to i64
      %24 = arith.maximumf %in, %out : f32
      %25 = arith.cmpf ogt, %in, %out : f32
      %26 = arith.select %25, %23, %out_4 : i64
      linalg.yield %24, %26 : f32, i64
    } -> (tensor<13xf32>, tensor<13xi64>)
    %8 = tensor.empty() : tensor<f32>
    %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<f32>) -> tensor<f32>
    %10 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction", "reduction"]} ins(%arg0 : tensor<13x7xf32>) outs(%9 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.addf %in, %out : f32
      linalg.yield %22 : f32
    } -> tensor<f32>
    %11 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = []} ins(%10 : tensor<f32>) outs(%8 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.divf %in, %cst_1 : f32
      linalg.yield %22 : f32
    } -> tensor<f32>
    %12 = tensor.empty() : tensor<13x1xf32>
    %13 = linalg.fill ins(%cst : f32) outs(%12 : tensor<13x1xf32>) -> tensor<13x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map5], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<13x7xf32>) outs(%13 : tensor<13x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.addf %in, %out : f32
      linalg.yield %22 : f32
    } -> tensor<13x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%14 : tensor<13x1xf32>) outs(%12 : tensor<13x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.divf %in, %cst_2 : f32
      linalg.yield %22 : f32
    } -> tensor<13x1xf32>
    %16 = tensor.empty() : tensor<13x7xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map5, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %15 : tensor<13x7xf32>, tensor<13x1xf32>) outs(%16 : tensor<13x7xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %22 = arith.subf %in, %in_4 : f32
      linalg.yield %22 : f32
    } -> tensor<13x7xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%17, %17 : tensor<13x7xf32>, tensor<13x7xf32>) outs(%16 : tensor<13x7xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %22 = arith.mulf %in, %in_4 : f32
      linalg.yield %22 : f32
    } -> tensor<13x7xf32>
    %19 = linalg.fill ins(%cst : f32) outs(%5 : tensor<13xf32>) -> tensor<13xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%18 : tensor<13x7xf32>) outs(%19 : tensor<13xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.addf %in, %out : f32
      linalg.yield %22 : f32
    } -> tensor<13xf32>
    %21 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%20 : tensor<13xf32>) outs(%5 : tensor<13xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.divf %in, %cst_3 : f32
      linalg.yield %22 : f32
    } -> tensor<13xf32>
    return %2, %7#0, %11, %7#1, %21 : tensor<7xf32>, tensor<13xf32>, tensor<f32>, tensor<13xi64>, tensor<13xf32>
  }
}
