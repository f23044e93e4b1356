// memcheck: torch.gather(x, 1, i), x 1x1, i 1x1
// memcheck: input1 range 0 1
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @gather_1x1x1(%arg0: tensor<1x1xf32>, %arg1: tensor<1x1xi64>) -> tensor<1x1xf32> {
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %0 = tensor.empty() : tensor<1x1xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x1xf32>) -> tensor<1x1xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<1x1xi64>) outs(%1 : tensor<1x1xf32>) {
    ^bb0(%in: i64, %out: f32):
      %3 = arith.index_cast %in : i64 to index
      %4 = arith.cmpi slt, %3, %c1 : index
      cf.assert %4, "index must be smaller than dim size"
      %5 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %5, "index must be larger or equal to 0"
      %extracted = tensor.extract %arg0[%c0, %3] : tensor<1x1xf32>
      linalg.yield %extracted : f32
    } -> tensor<1x1xf32>
    return %2 : tensor<1x1xf32>
  }
}
