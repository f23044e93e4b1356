module @m {
  func.func @main(%arg0: tensor<7xf32> loc("XLA_Args")) -> tensor<7xf32> {
    %0 = stablehlo.negate %arg0 : tensor<7xf32> loc(#loc1)
    %1 = stablehlo.cholesky %0, lower = true : tensor<7xf32> loc(#loc2)
    return %1 : tensor<7xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("Neg")
#loc2 = loc("Cholesky"("model.py":12:5))
