// relu(a * b + c) on odd sizes.
func.func @elementwise(%a: tensor<37x53xf32>, %b: tensor<37x53xf32>, %c: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x53xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c : tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %z : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<37x53xf32>
  return %r : tensor<37x53xf32>
}
