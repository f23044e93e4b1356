// memcheck: torch.index_put(x, (i,), v, accumulate=False), x 1x1, i 1, v 1x1
// memcheck: input1 range 0 1
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<1x1xf32>, tensor<1xi64>, tensor<1x1xf32>) -> tensor<1x1xf32>, sym_name = "index_put_1x1x1x0"}> ({
  ^bb0(%arg0: tensor<1x1xf32>, %arg1: tensor<1xi64>, %arg2: tensor<1x1xf32>):
    %0 = "tensor.expand_shape"(%arg1) <{reassociation = [[0, 1]], static_output_shape = array<i64: 1, 1>}> : (tensor<1xi64>) -> tensor<1x1xi64>
    %1 = "tensor.expand_shape"(%arg2) <{reassociation = [[0], [1, 2]], static_output_shape = array<i64: 1, 1, 1>}> : (tensor<1x1xf32>) -> tensor<1x1x1xf32>
    %2 = "tm_tensor.scatter"(%1, %0, %arg0) <{dimension_map = array<i64: 0>, operandSegmentSizes = array<i32: 2, 1>, unique_indices = true}> ({
    ^bb0(%arg3: f32, %arg4: f32):
      "tm_tensor.yield"(%arg3) : (f32) -> ()
    }) : (tensor<1x1x1xf32>, tensor<1x1xi64>, tensor<1x1xf32>) -> tensor<1x1xf32>
    "func.return"(%2) : (tensor<1x1xf32>) -> ()
  }) : () -> ()
}) : () -> ()
