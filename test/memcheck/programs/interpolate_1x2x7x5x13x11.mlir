// memcheck: F.interpolate(x, (13, 11)) bilinear and nearest, x 1x2x7x5
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d2, 0)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @interpolate_1x2x7x5x13x11(%arg0: tensor<1x2x7x5xf32>) -> (tensor<1x2x13x11xf32>, tensor<1x2x13x11xf32>) {
    %c2_i64 = arith.constant 2 : i64
    %c4_i64 = arith.constant 4 : i64
    %c6_i64 = arith.constant 6 : i64
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c7_i64 = arith.constant 7 : i64
    %c5_i64 = arith.constant 5 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.45454545454545453 : f64
    %cst_1 = arith.constant 0.53846153846153844 : f64
    %cst_2 = arith.constant 5.000000e-01 : f32
    %cst_3 = arith.constant 1.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %cst_4 = arith.constant 1.85714281 : f32
    %cst_5 = arith.constant 6.000000e+00 : f32
    %cst_6 = arith.constant 2.200000e+00 : f32
    %cst_7 = arith.constant 4.000000e+00 : f32
    %0 = tensor.empty() : tensor<13xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<13xi64>) {
    ^bb0(%out: i64):
      %47 = linalg.index 0 : index
      %48 = arith.index_cast %47 : index to i64
      linalg.yield %48 : i64
    } -> tensor<13xi64>
    %2 = tensor.empty() : tensor<13xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%1 : tensor<13xi64>) outs(%2 : tensor<13xf32>) {
    ^bb0(%in: i64, %out: f32):
      %47 = arith.sitofp %in : i64 to f32
      linalg.yield %47 : f32
    } -> tensor<13xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%3 : tensor<13xf32>) outs(%2 : tensor<13xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.addf %in, %cst_2 : f32
      linalg.yield %47 : f32
    } -> tensor<13xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%4 : tensor<13xf32>) outs(%2 : tensor<13xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.truncf %cst_1 : f64 to f32
      %48 = arith.mulf %in, %47 : f32
      linalg.yield %48 : f32
    } -> tensor<13xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%5 : tensor<13xf32>) outs(%2 : tensor<13xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.subf %in, %cst_2 : f32
      linalg.yield %47 : f32
    } -> tensor<13xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%6 : tensor<13xf32>) outs(%2 : tensor<13xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.cmpf ult, %in, %cst : f32
      %48 = arith.select %47, %cst, %in : f32
      linalg.yield %48 : f32
    } -> tensor<13xf32>
    %expanded = tensor.expand_shape %7 [[0, 1]] output_shape [13, 1] : tensor<13xf32> into tensor<13x1xf32>
    %8 = tensor.empty() : tensor<13x1xi64>
    %9 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%expanded : tensor<13x1xf32>) outs(%8 : tensor<13x1xi64>) {
    ^bb0(%in: f32, %out: i64):
      %47 = arith.fptosi %in : f32 to i64
      linalg.yield %47 : i64
    } -> tensor<13x1xi64>
    %10 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<13x1xi64>) outs(%8 : tensor<13x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %47 = arith.addi %in, %c1_i64 : i64
      linalg.yield %47 : i64
    } -> tensor<13x1xi64>
    %11 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<13x1xi64>) outs(%8 : tensor<13x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %47 = arith.minsi %in, %c6_i64 : i64
      linalg.yield %47 : i64
    } -> tensor<13x1xi64>
    %12 = tensor.empty() : tensor<11xi64>
    %13 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%12 : tensor<11xi64>) {
    ^bb0(%out: i64):
      %47 = linalg.index 0 : index
      %48 = arith.index_cast %47 : index to i64
      linalg.yield %48 : i64
    } -> tensor<11xi64>
    %14 = tensor.empty() : tensor<11xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%13 : tensor<11xi64>) outs(%14 : tensor<11xf32>) {
    ^bb0(%in: i64, %out: f32):
      %47 = arith.sitofp %in : i64 to f32
      linalg.yield %47 : f32
    } -> tensor<11xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%15 : tensor<11xf32>) outs(%14 : tensor<11xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.addf %in, %cst_2 : f32
      linalg.yield %47 : f32
    } -> tensor<11xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%16 : tensor<11xf32>) outs(%14 : tensor<11xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.truncf %cst_0 : f64 to f32
      %48 = arith.mulf %in, %47 : f32
      linalg.yield %48 : f32
    } -> tensor<11xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%17 : tensor<11xf32>) outs(%14 : tensor<11xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.subf %in, %cst_2 : f32
      linalg.yield %47 : f32
    } -> tensor<11xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%18 : tensor<11xf32>) outs(%14 : tensor<11xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.cmpf ult, %in, %cst : f32
      %48 = arith.select %47, %cst, %in : f32
      linalg.yield %48 : f32
    } -> tensor<11xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%19 : tensor<11xf32>) outs(%12 : tensor<11xi64>) {
    ^bb0(%in: f32, %out: i64):
      %47 = arith.fptosi %in : f32 to i64
      linalg.yield %47 : i64
    } -> tensor<11xi64>
    %21 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%20 : tensor<11xi64>) outs(%12 : tensor<11xi64>) {
    ^bb0(%in: i64, %out: i64):
      %47 = arith.addi %in, %c1_i64 : i64
      linalg.yield %47 : i64
    } -> tensor<11xi64>
    %22 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%21 : tensor<11xi64>) outs(%12 : tensor<11xi64>) {
    ^bb0(%in: i64, %out: i64):
      %47 = arith.minsi %in, %c4_i64 : i64
      linalg.yield %47 : i64
    } -> tensor<11xi64>
    %23 = tensor.empty() : tensor<2xi64>
    %24 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%23 : tensor<2xi64>) {
    ^bb0(%out: i64):
      %47 = linalg.index 0 : index
      %48 = arith.index_cast %47 : index to i64
      linalg.yield %48 : i64
    } -> tensor<2xi64>
    %expanded_8 = tensor.expand_shape %24 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xi64> into tensor<2x1x1xi64>
    %25 = tensor.empty() : tensor<1xi64>
    %26 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%25 : tensor<1xi64>) {
    ^bb0(%out: i64):
      linalg.yield %c0_i64 : i64
    } -> tensor<1xi64>
    %expanded_9 = tensor.expand_shape %26 [[0, 1, 2, 3]] output_shape [1, 1, 1, 1] : tensor<1xi64> into tensor<1x1x1x1xi64>
    %27 = tensor.empty() : tensor<1x2x13x11xf32>
    %28 = linalg.generic {indexing_maps = [#map2, #map3, #map4, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_9, %expanded_8, %9, %20 : tensor<1x1x1x1xi64>, tensor<2x1x1xi64>, tensor<13x1xi64>, tensor<11xi64>) outs(%27 : tensor<1x2x13x11xf32>) {
    ^bb0(%in: i64, %in_10: i64, %in_11: i64, %in_12: i64, %out: f32):
      %47 = arith.cmpi slt, %in, %c0_i64 : i64
      %48 = arith.addi %in, %c1_i64 : i64
      %49 = arith.select %47, %48, %in : i64
      %50 = arith.index_cast %49 : i64 to index
      %51 = arith.cmpi slt, %in_10, %c0_i64 : i64
      %52 = arith.addi %in_10, %c2_i64 : i64
      %53 = arith.select %51, %52, %in_10 : i64
      %54 = arith.index_cast %53 : i64 to index
      %55 = arith.cmpi slt, %in_11, %c0_i64 : i64
      %56 = arith.addi %in_11, %c7_i64 : i64
      %57 = arith.select %55, %56, %in_11 : i64
      %58 = arith.index_cast %57 : i64 to index
      %59 = arith.cmpi slt, %in_12, %c0_i64 : i64
      %60 = arith.addi %in_12, %c5_i64 : i64
      %61 = arith.select %59, %60, %in_12 : i64
      %62 = arith.index_cast %61 : i64 to index
      %extracted = tensor.extract %arg0[%50, %54, %58, %62] : tensor<1x2x7x5xf32>
      linalg.yield %extracted : f32
    } -> tensor<1x2x13x11xf32>
    %29 = linalg.generic {indexing_maps = [#map2, #map3, #map4, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_9, %expanded_8, %9, %22 : tensor<1x1x1x1xi64>, tensor<2x1x1xi64>, tensor<13x1xi64>, tensor<11xi64>) outs(%27 : tensor<1x2x13x11xf32>) {
    ^bb0(%in: i64, %in_10: i64, %in_11: i64, %in_12: i64, %out: f32):
      %47 = arith.cmpi slt, %in, %c0_i64 : i64
      %48 = arith.addi %in, %c1_i64 : i64
      %49 = arith.select %47, %48, %in : i64
      %50 = arith.index_cast %49 : i64 to index
      %51 = arith.cmpi slt, %in_10, %c0_i64 : i64
      %52 = arith.addi %in_10, %c2_i64 : i64
      %53 = arith.select %51, %52, %in_10 : i64
      %54 = arith.index_cast %53 : i64 to index
      %55 = arith.cmpi slt, %in_11, %c0_i64 : i64
      %56 = arith.addi %in_11, %c7_i64 : i64
      %57 = arith.select %55, %56, %in_11 : i64
      %58 = arith.index_cast %57 : i64 to index
      %59 = arith.cmpi slt, %in_12, %c0_i64 : i64
      %60 = arith.addi %in_12, %c5_i64 : i64
      %61 = arith.select %59, %60, %in_12 : i64
      %62 = arith.index_cast %61 : i64 to index
      %extracted = tensor.extract %arg0[%50, %54, %58, %62] : tensor<1x2x7x5xf32>
      linalg.yield %extracted : f32
    } -> tensor<1x2x13x11xf32>
    %30 = linalg.generic {indexing_maps = [#map2, #map3, #map4, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_9, %expanded_8, %11, %20 : tensor<1x1x1x1xi64>, tensor<2x1x1xi64>, tensor<13x1xi64>, tensor<11xi64>) outs(%27 : tensor<1x2x13x11xf32>) {
    ^bb0(%in: i64, %in_10: i64, %in_11: i64, %in_12: i64, %out: f32):
      %47 = arith.cmpi slt, %in, %c0_i64 : i64
      %48 = arith.addi %in, %c1_i64 : i64
      %49 = arith.select %47, %48, %in : i64
      %50 = arith.index_cast %49 : i64 to index
      %51 = arith.cmpi slt, %in_10, %c0_i64 : i64
      %52 = arith.addi %in_10, %c2_i64 : i64
      %53 = arith.select %51, %52, %in_10 : i64
      %54 = arith.index_cast %53 : i64 to index
      %55 = arith.cmpi slt, %in_11, %c0_i64 : i64
      %56 = arith.addi %in_11, %c7_i64 : i64
      %57 = arith.select %55, %56, %in_11 : i64
      %58 = arith.index_cast %57 : i64 to index
      %59 = arith.cmpi slt, %in_12, %c0_i64 : i64
      %60 = arith.addi %in_12, %c5_i64 : i64
      %61 = arith.select %59, %60, %in_12 : i64
      %62 = arith.index_cast %61 : i64 to index
      %extracted = tensor.extract %arg0[%50, %54, %58, %62] : tensor<1x2x7x5xf32>
      linalg.yield %extracted : f32
    } -> tensor<1x2x13x11xf32>
    %31 = linalg.generic {indexing_maps = [#map2, #map3, #map4, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_9, %expanded_8, %11, %22 : tensor<1x1x1x1xi64>, tensor<2x1x1xi64>, tensor<13x1xi64>, tensor<11xi64>) outs(%27 : tensor<1x2x13x11xf32>) {
    ^bb0(%in: i64, %in_10: i64, %in_11: i64, %in_12: i64, %out: f32):
      %47 = arith.cmpi slt, %in, %c0_i64 : i64
      %48 = arith.addi %in, %c1_i64 : i64
      %49 = arith.select %47, %48, %in : i64
      %50 = arith.index_cast %49 : i64 to index
      %51 = arith.cmpi slt, %in_10, %c0_i64 : i64
      %52 = arith.addi %in_10, %c2_i64 : i64
      %53 = arith.select %51, %52, %in_10 : i64
      %54 = arith.index_cast %53 : i64 to index
      %55 = arith.cmpi slt, %in_11, %c0_i64 : i64
      %56 = arith.addi %in_11, %c7_i64 : i64
      %57 = arith.select %55, %56, %in_11 : i64
      %58 = arith.index_cast %57 : i64 to index
      %59 = arith.cmpi slt, %in_12, %c0_i64 : i64
      %60 = arith.addi %in_12, %c5_i64 : i64
      %61 = arith.select %59, %60, %in_12 : i64
      %62 = arith.index_cast %61 : i64 to index
      %extracted = tensor.extract %arg0[%50, %54, %58, %62] : tensor<1x2x7x5xf32>
      linalg.yield %extracted : f32
    } -> tensor<1x2x13x11xf32>
    %32 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%19, %20 : tensor<11xf32>, tensor<11xi64>) outs(%14 : tensor<11xf32>) {
    ^bb0(%in: f32, %in_10: i64, %out: f32):
      %47 = arith.sitofp %in_10 : i64 to f32
      %48 = arith.subf %in, %47 : f32
      linalg.yield %48 : f32
    } -> tensor<11xf32>
    %33 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%32 : tensor<11xf32>) outs(%14 : tensor<11xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.cmpf ult, %in, %cst : f32
      %48 = arith.select %47, %cst, %in : f32
      %49 = arith.cmpf ugt, %48, %cst_3 : f32
      %50 = arith.select %49, %cst_3, %48 : f32
      linalg.yield %50 : f32
    } -> tensor<11xf32>
    %34 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29, %28 : tensor<1x2x13x11xf32>, tensor<1x2x13x11xf32>) outs(%27 : tensor<1x2x13x11xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %47 = arith.subf %in, %in_10 : f32
      linalg.yield %47 : f32
    } -> tensor<1x2x13x11xf32>
    %35 = linalg.generic {indexing_maps = [#map6, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%34, %33 : tensor<1x2x13x11xf32>, tensor<11xf32>) outs(%27 : tensor<1x2x13x11xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %47 = arith.mulf %in, %in_10 : f32
      linalg.yield %47 : f32
    } -> tensor<1x2x13x11xf32>
    %36 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%28, %35 : tensor<1x2x13x11xf32>, tensor<1x2x13x11xf32>) outs(%27 : tensor<1x2x13x11xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %47 = arith.addf %in, %in_10 : f32
      linalg.yield %47 : f32
    } -> tensor<1x2x13x11xf32>
    %37 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%31, %30 : tensor<1x2x13x11xf32>, tensor<1x2x13x11xf32>) outs(%27 : tensor<1x2x13x11xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %47 = arith.subf %in, %in_10 : f32
      linalg.yield %47 : f32
    } -> tensor<1x2x13x11xf32>
    %38 = linalg.generic {indexing_maps = [#map6, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%37, %33 : tensor<1x2x13x11xf32>, tensor<11xf32>) outs(%27 : tensor<1x2x13x11xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %47 = arith.mulf %in, %in_10 : f32
      linalg.yield %47 : f32
    } -> tensor<1x2x13x11xf32>
    %39 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30, %38 : tensor<1x2x13x11xf32>, tensor<1x2x13x11xf32>) outs(%27 : tensor<1x2x13x11xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %47 = arith.addf %in, %in_10 : f32
      linalg.yield %47 : f32
    } -> tensor<1x2x13x11xf32>
    %40 = tensor.empty() : tensor<13x1xf32>
    %41 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%expanded, %9 : tensor<13x1xf32>, tensor<13x1xi64>) outs(%40 : tensor<13x1xf32>) {
    ^bb0(%in: f32, %in_10: i64, %out: f32):
      %47 = arith.sitofp %in_10 : i64 to f32
      %48 = arith.subf %in, %47 : f32
      linalg.yield %48 : f32
    } -> tensor<13x1xf32>
    %42 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%41 : tensor<13x1xf32>) outs(%40 : tensor<13x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.cmpf ult, %in, %cst : f32
      %48 = arith.select %47, %cst, %in : f32
      %49 = arith.cmpf ugt, %48, %cst_3 : f32
      %50 = arith.select %49, %cst_3, %48 : f32
      linalg.yield %50 : f32
    } -> tensor<13x1xf32>
    %43 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39, %36 : tensor<1x2x13x11xf32>, tensor<1x2x13x11xf32>) outs(%27 : tensor<1x2x13x11xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %47 = arith.subf %in, %in_10 : f32
      linalg.yield %47 : f32
    } -> tensor<1x2x13x11xf32>
    %44 = linalg.generic {indexing_maps = [#map6, #map4, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43, %42 : tensor<1x2x13x11xf32>, tensor<13x1xf32>) outs(%27 : tensor<1x2x13x11xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %47 = arith.mulf %in, %in_10 : f32
      linalg.yield %47 : f32
    } -> tensor<1x2x13x11xf32>
    %45 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%36, %44 : tensor<1x2x13x11xf32>, tensor<1x2x13x11xf32>) outs(%27 : tensor<1x2x13x11xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %47 = arith.addf %in, %in_10 : f32
      linalg.yield %47 : f32
    } -> tensor<1x2x13x11xf32>
    %46 = linalg.generic {indexing_maps = [#map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%27 : tensor<1x2x13x11xf32>) {
    ^bb0(%out: f32):
      %47 = linalg.index 1 : index
      %48 = linalg.index 2 : index
      %49 = linalg.index 3 : index
      %50 = arith.index_cast %48 : index to i64
      %51 = arith.sitofp %50 : i64 to f32
      %52 = arith.divf %51, %cst_4 : f32
      %53 = math.floor %52 : f32
      %54 = arith.maximumf %53, %cst : f32
      %55 = arith.minimumf %54, %cst_5 : f32
      %56 = arith.fptosi %55 : f32 to i64
      %57 = arith.index_cast %56 : i64 to index
      %58 = arith.index_cast %49 : index to i64
      %59 = arith.sitofp %58 : i64 to f32
      %60 = arith.divf %59, %cst_6 : f32
      %61 = math.floor %60 : f32
      %62 = arith.maximumf %61, %cst : f32
      %63 = arith.minimumf %62, %cst_7 : f32
      %64 = arith.fptosi %63 : f32 to i64
      %65 = arith.index_cast %64 : i64 to index
      %extracted = tensor.extract %arg0[%c0, %47, %57, %65] : tensor<1x2x7x5xf32>
      linalg.yield %extracted : f32
    } -> tensor<1x2x13x11xf32>
    return %45, %46 : tensor<1x2x13x11xf32>, tensor<1x2x13x11xf32>
  }
}
