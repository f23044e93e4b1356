// memcheck: torch.topk(x, 3, -1), x 7x13
#map = affine_map<(d0, d1) -> (d0, d1)>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<7x13xf32>) -> (tensor<7x3xf32>, tensor<7x3xi64>), sym_name = "topk_7x13x3"}> ({
  ^bb0(%arg0: tensor<7x13xf32>):
    %0 = "tensor.empty"() : () -> tensor<7x13xi64>
    %1 = "linalg.generic"(%0) <{indexing_maps = [#map], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 0, 1>}> ({
    ^bb0(%arg5: i64):
      %6 = "linalg.index"() <{dim = 1 : i64}> : () -> index
      %7 = "arith.index_cast"(%6) : (index) -> i64
      "linalg.yield"(%7) : (i64) -> ()
    }) : (tensor<7x13xi64>) -> tensor<7x13xi64>
    %2:2 = "tm_tensor.sort"(%arg0, %1) <{dimension = 1 : i64, operandSegmentSizes = array<i32: 0, 2>}> ({
    ^bb0(%arg1: f32, %arg2: f32, %arg3: i64, %arg4: i64):
      %5 = "arith.cmpf"(%arg1, %arg2) <{fastmath = #arith.fastmath<none>, predicate = 3 : i64}> : (f32, f32) -> i1
      "tm_tensor.yield"(%5) : (i1) -> ()
    }) : (tensor<7x13xf32>, tensor<7x13xi64>) -> (tensor<7x13xf32>, tensor<7x13xi64>)
    %3 = "tensor.extract_slice"(%2#0) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 7, 3>, static_strides = array<i64: 1, 1>}> : (tensor<7x13xf32>) -> tensor<7x3xf32>
    %4 = "tensor.extract_slice"(%2#1) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 7, 3>, static_strides = array<i64: 1, 1>}> : (tensor<7x13xi64>) -> tensor<7x3xi64>
    "func.return"(%3, %4) : (tensor<7x3xf32>, tensor<7x3xi64>) -> ()
  }) : () -> ()
}) : () -> ()
