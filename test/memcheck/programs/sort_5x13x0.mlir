// memcheck: torch.sort(x, -1, descending=False), x 5x13
#map = affine_map<(d0, d1) -> (d0, d1)>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<5x13xf32>) -> (tensor<5x13xf32>, tensor<5x13xi64>), sym_name = "sort_5x13x0"}> ({
  ^bb0(%arg0: tensor<5x13xf32>):
    %0 = "tensor.empty"() : () -> tensor<5x13xi64>
    %1 = "linalg.generic"(%0) <{indexing_maps = [#map], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 0, 1>}> ({
    ^bb0(%arg5: i64):
      %4 = "linalg.index"() <{dim = 1 : i64}> : () -> index
      %5 = "arith.index_cast"(%4) : (index) -> i64
      "linalg.yield"(%5) : (i64) -> ()
    }) : (tensor<5x13xi64>) -> tensor<5x13xi64>
    %2:2 = "tm_tensor.sort"(%arg0, %1) <{dimension = 1 : i64, operandSegmentSizes = array<i32: 0, 2>}> ({
    ^bb0(%arg1: f32, %arg2: f32, %arg3: i64, %arg4: i64):
      %3 = "arith.cmpf"(%arg1, %arg2) <{fastmath = #arith.fastmath<none>, predicate = 5 : i64}> : (f32, f32) -> i1
      "tm_tensor.yield"(%3) : (i1) -> ()
    }) : (tensor<5x13xf32>, tensor<5x13xi64>) -> (tensor<5x13xf32>, tensor<5x13xi64>)
    "func.return"(%2#0, %2#1) : (tensor<5x13xf32>, tensor<5x13xi64>) -> ()
  }) : () -> ()
}) : () -> ()
