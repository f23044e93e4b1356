// memcheck: x.scatter_add(1, i, v), x 1x1, i 1x1, v 1x1
// memcheck: input1 range 0 1
#map = affine_map<(d0) -> (d0, 0)>
#map1 = affine_map<(d0) -> (d0)>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<1x1xf32>, tensor<1x1xi64>, tensor<1x1xf32>) -> tensor<1x1xf32>, sym_name = "scatter_add_1x1x1"}> ({
  ^bb0(%arg0: tensor<1x1xf32>, %arg1: tensor<1x1xi64>, %arg2: tensor<1x1xf32>):
    %0 = "arith.constant"() <{value = 0 : i64}> : () -> i64
    %1 = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
    %2 = "arith.constant"() <{value = 0 : index}> : () -> index
    %3 = "tensor.empty"() : () -> tensor<1x1xi64>
    %4 = "linalg.fill"(%0, %3) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg12: i64, %arg13: i64):
      "linalg.yield"(%arg12) : (i64) -> ()
    }) : (i64, tensor<1x1xi64>) -> tensor<1x1xi64>
    %5 = "tensor.empty"() : () -> tensor<1xf32>
    %6 = "linalg.fill"(%1, %5) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg10: f32, %arg11: f32):
      "linalg.yield"(%arg10) : (f32) -> ()
    }) : (f32, tensor<1xf32>) -> tensor<1xf32>
    %7:3 = "linalg.generic"(%4, %4, %6) <{indexing_maps = [#map, #map, #map1], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 0, 3>}> ({
    ^bb0(%arg7: i64, %arg8: i64, %arg9: f32):
      %14 = "tensor.extract"(%arg1, %2, %2) : (tensor<1x1xi64>, index, index) -> i64
      %15 = "tensor.extract"(%arg2, %2, %2) : (tensor<1x1xf32>, index, index) -> f32
      "linalg.yield"(%0, %14, %15) : (i64, i64, f32) -> ()
    }) : (tensor<1x1xi64>, tensor<1x1xi64>, tensor<1xf32>) -> (tensor<1x1xi64>, tensor<1x1xi64>, tensor<1xf32>)
    %8 = "tensor.empty"() : () -> tensor<1x2xi64>
    %9 = "linalg.fill"(%0, %8) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg5: i64, %arg6: i64):
      "linalg.yield"(%arg5) : (i64) -> ()
    }) : (i64, tensor<1x2xi64>) -> tensor<1x2xi64>
    %10 = "tensor.insert_slice"(%7#0, %9) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 1, 1>, static_strides = array<i64: 1, 1>}> : (tensor<1x1xi64>, tensor<1x2xi64>) -> tensor<1x2xi64>
    %11 = "tensor.insert_slice"(%7#1, %10) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>, static_offsets = array<i64: 0, 1>, static_sizes = array<i64: 1, 1>, static_strides = array<i64: 1, 1>}> : (tensor<1x1xi64>, tensor<1x2xi64>) -> tensor<1x2xi64>
    %12 = "tm_tensor.scatter"(%7#2, %11, %arg0) <{dimension_map = array<i64: 0, 1>, operandSegmentSizes = array<i32: 2, 1>, unique_indices = false}> ({
    ^bb0(%arg3: f32, %arg4: f32):
      %13 = "arith.addf"(%arg4, %arg3) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "tm_tensor.yield"(%13) : (f32) -> ()
    }) : (tensor<1xf32>, tensor<1x2xi64>, tensor<1x1xf32>) -> tensor<1x1xf32>
    "func.return"(%12) : (tensor<1x1xf32>) -> ()
  }) : () -> ()
}) : () -> ()
