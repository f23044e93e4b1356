// memcheck: torch.cumsum(x, 1), x 7x13
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<7x13xf32>) -> tensor<7x13xf32>, sym_name = "cumsum_7x13"}> ({
  ^bb0(%arg0: tensor<7x13xf32>):
    %0 = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
    %1 = "tensor.empty"() : () -> tensor<7x13xf32>
    %2 = "linalg.fill"(%0, %1) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      "linalg.yield"(%arg5) : (f32) -> ()
    }) : (f32, tensor<7x13xf32>) -> tensor<7x13xf32>
    %3 = "tensor.empty"() : () -> tensor<7xf32>
    %4 = "linalg.fill"(%0, %3) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg3: f32, %arg4: f32):
      "linalg.yield"(%arg3) : (f32) -> ()
    }) : (f32, tensor<7xf32>) -> tensor<7xf32>
    %5:2 = "tm_tensor.scan"(%arg0, %2, %4) <{dimension = 1 : i64, inclusive = true, operandSegmentSizes = array<i32: 1, 2>}> ({
    ^bb0(%arg1: f32, %arg2: f32):
      %6 = "arith.addf"(%arg1, %arg2) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "tm_tensor.yield"(%6) : (f32) -> ()
    }) : (tensor<7x13xf32>, tensor<7x13xf32>, tensor<7xf32>) -> (tensor<7x13xf32>, tensor<7xf32>)
    "func.return"(%5#0) : (tensor<7x13xf32>) -> ()
  }) : () -> ()
}) : () -> ()
