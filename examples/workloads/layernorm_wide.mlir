// Layer normalization over rows of 333 (vectorized sums with several
// accumulators and a remainder), with gain and bias, eps = 1e-5.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func @layernorm_wide(%x: tensor<3x333xf32>, %gamma: tensor<333xf32>, %beta: tensor<333xf32>) -> tensor<3x333xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 333.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<3xf32>) -> tensor<3xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x333xf32>) outs(%z : tensor<3xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%sum : tensor<3xf32>) outs(%er : tensor<3xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<3xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x, %mean : tensor<3x333xf32>, tensor<3xf32>) outs(%z : tensor<3xf32>) {
  ^bb0(%v: f32, %m: f32, %acc: f32):
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  %e = tensor.empty() : tensor<3x333xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %gamma, %beta : tensor<3x333xf32>, tensor<3xf32>, tensor<3xf32>, tensor<333xf32>, tensor<333xf32>) outs(%e : tensor<3x333xf32>) {
  ^bb0(%v: f32, %m: f32, %s: f32, %g: f32, %b: f32, %o: f32):
    %var = arith.divf %s, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.subf %v, %m : f32
    %nrm = arith.mulf %d, %rs : f32
    %sc = arith.mulf %nrm, %g : f32
    %y = arith.addf %sc, %b : f32
    linalg.yield %y : f32
  } -> tensor<3x333xf32>
  return %r : tensor<3x333xf32>
}
