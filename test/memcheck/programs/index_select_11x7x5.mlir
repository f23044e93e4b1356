// memcheck: index_select(x, 0, i), index_select(x, 1, j), x 11x7, i, j 5
// memcheck: input1 range 0 11
// memcheck: input2 range 0 7
#map = affine_map<(d0, d1) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @index_select_11x7x5(%arg0: tensor<11x7xf32>, %arg1: tensor<5xi64>, %arg2: tensor<5xi64>) -> (tensor<5x7xf32>, tensor<11x5xf32>) {
    %0 = tensor.empty() : tensor<5x7xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<5xi64>) outs(%0 : tensor<5x7xf32>) {
    ^bb0(%in: i64, %out: f32):
      %4 = arith.index_cast %in : i64 to index
      %5 = linalg.index 1 : index
      %extracted = tensor.extract %arg0[%4, %5] : tensor<11x7xf32>
      linalg.yield %extracted : f32
    } -> tensor<5x7xf32>
    %2 = tensor.empty() : tensor<11x5xf32>
    %3 = linalg.generic {indexing_maps = [#map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg2 : tensor<5xi64>) outs(%2 : tensor<11x5xf32>) {
    ^bb0(%in: i64, %out: f32):
      %4 = arith.index_cast %in : i64 to index
      %5 = linalg.index 0 : index
      %extracted = tensor.extract %arg0[%5, %4] : tensor<11x7xf32>
      linalg.yield %extracted : f32
    } -> tensor<11x5xf32>
    return %1, %3 : tensor<5x7xf32>, tensor<11x5xf32>
  }
}
