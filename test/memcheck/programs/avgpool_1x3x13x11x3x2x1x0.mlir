// memcheck: F.avg_pool2d(x, 3, 2, 1, ceil_mode=False, count_include_pad=False), x 1x3x13x11
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @avgpool_1x3x13x11x3x2x1x0(%arg0: tensor<1x3x13x11xf32>) -> tensor<1x3x7x6xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c1_i64 = arith.constant 1 : i64
    %c2_i64 = arith.constant 2 : i64
    %c11_i64 = arith.constant 11 : i64
    %c13_i64 = arith.constant 13 : i64
    %c12_i64 = arith.constant 12 : i64
    %c0_i64 = arith.constant 0 : i64
    %c14_i64 = arith.constant 14 : i64
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x3x13x11xf32> to tensor<1x3x15x13xf32>
    %0 = tensor.empty() : tensor<1x3x7x6xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x3x7x6xf32>) -> tensor<1x3x7x6xf32>
    %2 = tensor.empty() : tensor<3x3xf32>
    %3 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %2 : tensor<1x3x15x13xf32>, tensor<3x3xf32>) outs(%1 : tensor<1x3x7x6xf32>) -> tensor<1x3x7x6xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<1x3x7x6xf32>) outs(%0 : tensor<1x3x7x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = linalg.index 2 : index
      %6 = arith.index_cast %5 : index to i64
      %7 = arith.muli %6, %c2_i64 : i64
      %8 = arith.subi %7, %c1_i64 : i64
      %9 = arith.addi %7, %c2_i64 : i64
      %10 = arith.minsi %9, %c14_i64 : i64
      %11 = arith.minsi %10, %c13_i64 : i64
      %12 = arith.subi %c1_i64, %7 : i64
      %13 = arith.maxsi %12, %c0_i64 : i64
      %14 = arith.subi %11, %8 : i64
      %15 = arith.subi %14, %13 : i64
      %16 = arith.maxsi %15, %c0_i64 : i64
      %17 = linalg.index 3 : index
      %18 = arith.index_cast %17 : index to i64
      %19 = arith.muli %18, %c2_i64 : i64
      %20 = arith.subi %19, %c1_i64 : i64
      %21 = arith.addi %19, %c2_i64 : i64
      %22 = arith.minsi %21, %c12_i64 : i64
      %23 = arith.minsi %22, %c11_i64 : i64
      %24 = arith.subi %c1_i64, %19 : i64
      %25 = arith.maxsi %24, %c0_i64 : i64
      %26 = arith.subi %23, %20 : i64
      %27 = arith.subi %26, %25 : i64
      %28 = arith.maxsi %27, %c0_i64 : i64
      %29 = arith.muli %16, %28 : i64
      %30 = arith.sitofp %29 : i64 to f32
      %31 = arith.divf %in, %30 : f32
      linalg.yield %31 : f32
    } -> tensor<1x3x7x6xf32>
    return %4 : tensor<1x3x7x6xf32>
  }
}
