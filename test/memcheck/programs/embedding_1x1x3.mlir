// memcheck: F.embedding(i, w), w 1x1, i 3
// memcheck: input1 range 0 1
#map = affine_map<(d0, d1) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @embedding_1x1x3(%arg0: tensor<1x1xf32>, %arg1: tensor<3xi64>) -> tensor<3x1xf32> {
    %c1 = arith.constant 1 : index
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %0 = tensor.empty() : tensor<3x1xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<3xi64>) outs(%0 : tensor<3x1xf32>) {
    ^bb0(%in: i64, %out: f32):
      %2 = arith.index_cast %in : i64 to index
      %3 = arith.cmpi slt, %2, %c1 : index
      cf.assert %3, "index must be smaller than dim size"
      %4 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %4, "index must be larger or equal to 0"
      %extracted = tensor.extract %arg0[%2, %c0] : tensor<1x1xf32>
      linalg.yield %extracted : f32
    } -> tensor<3x1xf32>
    return %1 : tensor<3x1xf32>
  }
}
