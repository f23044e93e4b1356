// memcheck: F.pad reflect (2, 1, 1, 2), roll(x, 3, 1), flip(x, 0), x[:, 1::3] * 2, x 1x5x7
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> ()>
#map2 = affine_map<(d0, d1, d2) -> (0, 0, 0)>
#map3 = affine_map<(d0, d1, d2) -> (d1, 0)>
#map4 = affine_map<(d0, d1, d2) -> (d2)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @movement_5x7(%arg0: tensor<1x5x7xf32>) -> (tensor<1x8x10xf32>, tensor<1x5x7xf32>, tensor<1x5x7xf32>, tensor<1x2x7xf32>) {
    %c5_i64 = arith.constant 5 : i64
    %c8_i64 = arith.constant 8 : i64
    %c-2_i64 = arith.constant -2 : i64
    %c-1_i64 = arith.constant -1 : i64
    %c7_i64 = arith.constant 7 : i64
    %c1_i64 = arith.constant 1 : i64
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %cst_0 = arith.constant 2.000000e+00 : f32
    %cst_1 = arith.constant dense<6> : tensor<i64>
    %cst_2 = arith.constant dense<4> : tensor<i64>
    %0 = tensor.empty() : tensor<8xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<8xi64>) {
    ^bb0(%out: i64):
      %26 = linalg.index 0 : index
      %27 = arith.index_cast %26 : index to i64
      %28 = arith.addi %27, %c-1_i64 : i64
      linalg.yield %28 : i64
    } -> tensor<8xi64>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%1 : tensor<8xi64>) outs(%0 : tensor<8xi64>) {
    ^bb0(%in: i64, %out: i64):
      %26 = math.absi %in : i64
      linalg.yield %26 : i64
    } -> tensor<8xi64>
    %3 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel"]} ins(%cst_2, %2 : tensor<i64>, tensor<8xi64>) outs(%0 : tensor<8xi64>) {
    ^bb0(%in: i64, %in_7: i64, %out: i64):
      %26 = arith.subi %in, %in_7 : i64
      linalg.yield %26 : i64
    } -> tensor<8xi64>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%3 : tensor<8xi64>) outs(%0 : tensor<8xi64>) {
    ^bb0(%in: i64, %out: i64):
      %26 = math.absi %in : i64
      linalg.yield %26 : i64
    } -> tensor<8xi64>
    %5 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel"]} ins(%cst_2, %4 : tensor<i64>, tensor<8xi64>) outs(%0 : tensor<8xi64>) {
    ^bb0(%in: i64, %in_7: i64, %out: i64):
      %26 = arith.subi %in, %in_7 : i64
      linalg.yield %26 : i64
    } -> tensor<8xi64>
    %6 = tensor.empty() : tensor<7xi64>
    %7 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%6 : tensor<7xi64>) {
    ^bb0(%out: i64):
      %26 = linalg.index 0 : index
      %27 = arith.index_cast %26 : index to i64
      linalg.yield %27 : i64
    } -> tensor<7xi64>
    %expanded = tensor.expand_shape %5 [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
    %8 = tensor.empty() : tensor<1xi64>
    %9 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%8 : tensor<1xi64>) {
    ^bb0(%out: i64):
      linalg.yield %c0_i64 : i64
    } -> tensor<1xi64>
    %expanded_3 = tensor.expand_shape %9 [[0, 1, 2]] output_shape [1, 1, 1] : tensor<1xi64> into tensor<1x1x1xi64>
    %10 = tensor.empty() : tensor<1x8x7xf32>
    %11 = linalg.generic {indexing_maps = [#map2, #map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_3, %expanded, %7 : tensor<1x1x1xi64>, tensor<8x1xi64>, tensor<7xi64>) outs(%10 : tensor<1x8x7xf32>) {
    ^bb0(%in: i64, %in_7: i64, %in_8: i64, %out: f32):
      %26 = arith.cmpi slt, %in, %c0_i64 : i64
      %27 = arith.addi %in, %c1_i64 : i64
      %28 = arith.select %26, %27, %in : i64
      %29 = arith.index_cast %28 : i64 to index
      %30 = arith.cmpi slt, %in_7, %c0_i64 : i64
      %31 = arith.addi %in_7, %c5_i64 : i64
      %32 = arith.select %30, %31, %in_7 : i64
      %33 = arith.index_cast %32 : i64 to index
      %34 = arith.cmpi slt, %in_8, %c0_i64 : i64
      %35 = arith.addi %in_8, %c7_i64 : i64
      %36 = arith.select %34, %35, %in_8 : i64
      %37 = arith.index_cast %36 : i64 to index
      %extracted = tensor.extract %arg0[%29, %33, %37] : tensor<1x5x7xf32>
      linalg.yield %extracted : f32
    } -> tensor<1x8x7xf32>
    %12 = tensor.empty() : tensor<10xi64>
    %13 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%12 : tensor<10xi64>) {
    ^bb0(%out: i64):
      %26 = linalg.index 0 : index
      %27 = arith.index_cast %26 : index to i64
      %28 = arith.addi %27, %c-2_i64 : i64
      linalg.yield %28 : i64
    } -> tensor<10xi64>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%13 : tensor<10xi64>) outs(%12 : tensor<10xi64>) {
    ^bb0(%in: i64, %out: i64):
      %26 = math.absi %in : i64
      linalg.yield %26 : i64
    } -> tensor<10xi64>
    %15 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel"]} ins(%cst_1, %14 : tensor<i64>, tensor<10xi64>) outs(%12 : tensor<10xi64>) {
    ^bb0(%in: i64, %in_7: i64, %out: i64):
      %26 = arith.subi %in, %in_7 : i64
      linalg.yield %26 : i64
    } -> tensor<10xi64>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%15 : tensor<10xi64>) outs(%12 : tensor<10xi64>) {
    ^bb0(%in: i64, %out: i64):
      %26 = math.absi %in : i64
      linalg.yield %26 : i64
    } -> tensor<10xi64>
    %17 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel"]} ins(%cst_1, %16 : tensor<i64>, tensor<10xi64>) outs(%12 : tensor<10xi64>) {
    ^bb0(%in: i64, %in_7: i64, %out: i64):
      %26 = arith.subi %in, %in_7 : i64
      linalg.yield %26 : i64
    } -> tensor<10xi64>
    %18 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<8xi64>) {
    ^bb0(%out: i64):
      %26 = linalg.index 0 : index
      %27 = arith.index_cast %26 : index to i64
      linalg.yield %27 : i64
    } -> tensor<8xi64>
    %expanded_4 = tensor.expand_shape %18 [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
    %19 = tensor.empty() : tensor<1x8x10xf32>
    %20 = linalg.generic {indexing_maps = [#map2, #map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_3, %expanded_4, %17 : tensor<1x1x1xi64>, tensor<8x1xi64>, tensor<10xi64>) outs(%19 : tensor<1x8x10xf32>) {
    ^bb0(%in: i64, %in_7: i64, %in_8: i64, %out: f32):
      %26 = arith.cmpi slt, %in, %c0_i64 : i64
      %27 = arith.addi %in, %c1_i64 : i64
      %28 = arith.select %26, %27, %in : i64
      %29 = arith.index_cast %28 : i64 to index
      %30 = arith.cmpi slt, %in_7, %c0_i64 : i64
      %31 = arith.addi %in_7, %c8_i64 : i64
      %32 = arith.select %30, %31, %in_7 : i64
      %33 = arith.index_cast %32 : i64 to index
      %34 = arith.cmpi slt, %in_8, %c0_i64 : i64
      %35 = arith.addi %in_8, %c7_i64 : i64
      %36 = arith.select %34, %35, %in_8 : i64
      %37 = arith.index_cast %36 : i64 to index
      %extracted = tensor.extract %11[%29, %33, %37] : tensor<1x8x7xf32>
      linalg.yield %extracted : f32
    } -> tensor<1x8x10xf32>
    %extracted_slice = tensor.extract_slice %arg0[0, 2, 0] [1, 3, 7] [1, 1, 1] : tensor<1x5x7xf32> to tensor<1x3x7xf32>
    %extracted_slice_5 = tensor.extract_slice %arg0[0, 0, 0] [1, 2, 7] [1, 1, 1] : tensor<1x5x7xf32> to tensor<1x2x7xf32>
    %concat = tensor.concat dim(1) %extracted_slice, %extracted_slice_5 : (tensor<1x3x7xf32>, tensor<1x2x7xf32>) -> tensor<1x5x7xf32>
    %21 = tensor.empty() : tensor<1x5x7xf32>
    %22 = linalg.fill ins(%cst : f32) outs(%21 : tensor<1x5x7xf32>) -> tensor<1x5x7xf32>
    %23 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x5x7xf32>) outs(%22 : tensor<1x5x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = linalg.index 1 : index
      %27 = linalg.index 2 : index
      %extracted = tensor.extract %arg0[%c0, %26, %27] : tensor<1x5x7xf32>
      linalg.yield %extracted : f32
    } -> tensor<1x5x7xf32>
    %extracted_slice_6 = tensor.extract_slice %arg0[0, 1, 0] [1, 2, 7] [1, 3, 1] : tensor<1x5x7xf32> to tensor<1x2x7xf32>
    %24 = tensor.empty() : tensor<1x2x7xf32>
    %25 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%extracted_slice_6 : tensor<1x2x7xf32>) outs(%24 : tensor<1x2x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = arith.mulf %in, %cst_0 : f32
      linalg.yield %26 : f32
    } -> tensor<1x2x7xf32>
    return %20, %concat, %23, %25 : tensor<1x8x10xf32>, tensor<1x5x7xf32>, tensor<1x5x7xf32>, tensor<1x2x7xf32>
  }
}
