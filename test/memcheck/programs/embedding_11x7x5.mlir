// memcheck: F.embedding(i, w), w 11x7, i 5
// memcheck: input1 range 0 11
#map = affine_map<(d0, d1) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @embedding_11x7x5(%arg0: tensor<11x7xf32>, %arg1: tensor<5xi64>) -> tensor<5x7xf32> {
    %c11 = arith.constant 11 : index
    %c0_i64 = arith.constant 0 : i64
    %0 = tensor.empty() : tensor<5x7xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<5xi64>) outs(%0 : tensor<5x7xf32>) {
    ^bb0(%in: i64, %out: f32):
      %2 = arith.index_cast %in : i64 to index
      %3 = linalg.index 1 : index
      %4 = arith.cmpi slt, %2, %c11 : index
      cf.assert %4, "index must be smaller than dim size"
      %5 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %5, "index must be larger or equal to 0"
      %extracted = tensor.extract %arg0[%2, %3] : tensor<11x7xf32>
      linalg.yield %extracted : f32
    } -> tensor<5x7xf32>
    return %1 : tensor<5x7xf32>
  }
}
