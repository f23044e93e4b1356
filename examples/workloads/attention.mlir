// Scaled dot-product attention, softmax(q k^T / 8) v, as torch-mlir imports
// PyTorch's SDPA from TorchDynamo. Regression: upstream affine fusion once
// reordered the scores' store before a read through an expand_shape view
// of the same buffer (uninitialized reads).
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @attention(%arg0: tensor<2x12x31x64xf32>) -> tensor<2x12x31x64xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 1.250000e-01 : f32
    %0 = tensor.empty() : tensor<2x12x64x31xf32>
    %transposed = linalg.transpose ins(%arg0 : tensor<2x12x31x64xf32>) outs(%0 : tensor<2x12x64x31xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x12x31x64xf32> into tensor<24x31x64xf32>
    %collapsed_2 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x12x64x31xf32> into tensor<24x64x31xf32>
    %1 = tensor.empty() : tensor<24x31x31xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<24x31x31xf32>) -> tensor<24x31x31xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_2 : tensor<24x31x64xf32>, tensor<24x64x31xf32>) outs(%2 : tensor<24x31x31xf32>) -> tensor<24x31x31xf32>
    %expanded = tensor.expand_shape %3 [[0, 1], [2], [3]] output_shape [2, 12, 31, 31] : tensor<24x31x31xf32> into tensor<2x12x31x31xf32>
    %4 = tensor.empty() : tensor<2x12x31x31xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x12x31x31xf32>) outs(%4 : tensor<2x12x31x31xf32>) {
    ^bb0(%in: f32, %out: f32):
      %20 = arith.mulf %in, %cst_1 : f32
      linalg.yield %20 : f32
    } -> tensor<2x12x31x31xf32>
    %6 = tensor.empty() : tensor<2x12x31xi64>
    %7 = linalg.fill ins(%c0_i64 : i64) outs(%6 : tensor<2x12x31xi64>) -> tensor<2x12x31xi64>
    %8 = tensor.empty() : tensor<2x12x31xf32>
    %9 = linalg.fill ins(%cst_0 : f32) outs(%8 : tensor<2x12x31xf32>) -> tensor<2x12x31xf32>
    %10:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%5 : tensor<2x12x31x31xf32>) outs(%9, %7 : tensor<2x12x31xf32>, tensor<2x12x31xi64>) {
    ^bb0(%in: f32, %out: f32, %out_6: i64):
      %20 = linalg.index 3 : index
      %21 = arith.index_cast %20 : index to i64
      %22 = arith.maximumf %in, %out : f32
      %23 = arith.cmpf ogt, %in, %out : f32
      %24 = arith.select %23, %21, %out_6 : i64
      linalg.yield %22, %24 : f32, i64
    } -> (tensor<2x12x31xf32>, tensor<2x12x31xi64>)
    %expanded_3 = tensor.expand_shape %10#0 [[0], [1], [2, 3]] output_shape [2, 12, 31, 1] : tensor<2x12x31xf32> into tensor<2x12x31x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %expanded_3 : tensor<2x12x31x31xf32>, tensor<2x12x31x1xf32>) outs(%4 : tensor<2x12x31x31xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %20 = arith.subf %in, %in_6 : f32
      linalg.yield %20 : f32
    } -> tensor<2x12x31x31xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11 : tensor<2x12x31x31xf32>) outs(%4 : tensor<2x12x31x31xf32>) {
    ^bb0(%in: f32, %out: f32):
      %20 = math.exp %in : f32
      linalg.yield %20 : f32
    } -> tensor<2x12x31x31xf32>
    %13 = tensor.empty() : tensor<2x12x31x1xf32>
    %14 = linalg.fill ins(%cst : f32) outs(%13 : tensor<2x12x31x1xf32>) -> tensor<2x12x31x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%12 : tensor<2x12x31x31xf32>) outs(%14 : tensor<2x12x31x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %20 = arith.addf %in, %out : f32
      linalg.yield %20 : f32
    } -> tensor<2x12x31x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %15 : tensor<2x12x31x31xf32>, tensor<2x12x31x1xf32>) outs(%4 : tensor<2x12x31x31xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %20 = arith.divf %in, %in_6 : f32
      linalg.yield %20 : f32
    } -> tensor<2x12x31x31xf32>
    %collapsed_4 = tensor.collapse_shape %16 [[0, 1], [2], [3]] : tensor<2x12x31x31xf32> into tensor<24x31x31xf32>
    %17 = tensor.empty() : tensor<24x31x64xf32>
    %18 = linalg.fill ins(%cst : f32) outs(%17 : tensor<24x31x64xf32>) -> tensor<24x31x64xf32>
    %19 = linalg.batch_matmul ins(%collapsed_4, %collapsed : tensor<24x31x31xf32>, tensor<24x31x64xf32>) outs(%18 : tensor<24x31x64xf32>) -> tensor<24x31x64xf32>
    %expanded_5 = tensor.expand_shape %19 [[0, 1], [2], [3]] output_shape [2, 12, 31, 64] : tensor<24x31x64xf32> into tensor<2x12x31x64xf32>
    return %expanded_5 : tensor<2x12x31x64xf32>
  }
}
