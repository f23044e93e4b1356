// memcheck: torch.index_put(x, (i,), v, accumulate=False), x 10x4, i 3, v 3x4
// memcheck: input1 range 0 10
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<10x4xf32>, tensor<3xi64>, tensor<3x4xf32>) -> tensor<10x4xf32>, sym_name = "index_put_10x4x3x0"}> ({
  ^bb0(%arg0: tensor<10x4xf32>, %arg1: tensor<3xi64>, %arg2: tensor<3x4xf32>):
    %0 = "tensor.expand_shape"(%arg1) <{reassociation = [[0, 1]], static_output_shape = array<i64: 3, 1>}> : (tensor<3xi64>) -> tensor<3x1xi64>
    %1 = "tensor.expand_shape"(%arg2) <{reassociation = [[0], [1, 2]], static_output_shape = array<i64: 3, 1, 4>}> : (tensor<3x4xf32>) -> tensor<3x1x4xf32>
    %2 = "tm_tensor.scatter"(%1, %0, %arg0) <{dimension_map = array<i64: 0>, operandSegmentSizes = array<i32: 2, 1>, unique_indices = true}> ({
    ^bb0(%arg3: f32, %arg4: f32):
      "tm_tensor.yield"(%arg3) : (f32) -> ()
    }) : (tensor<3x1x4xf32>, tensor<3x1xi64>, tensor<10x4xf32>) -> tensor<10x4xf32>
    "func.return"(%2) : (tensor<10x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
