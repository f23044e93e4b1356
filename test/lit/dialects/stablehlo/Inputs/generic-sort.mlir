module @m {
  func.func @main(%arg0: tensor<7xf32>) -> tensor<7xf32> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.compare  GT, %arg1, %arg2,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1> loc(#loc1)
      stablehlo.return %1 : tensor<i1> loc(#loc1)
    }) : (tensor<7xf32>) -> tensor<7xf32> loc(#loc2)
    return %0 : tensor<7xf32>
  }
}
#loc1 = loc("cmp")
#loc2 = loc("TopKV2")
