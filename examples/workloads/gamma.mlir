// A display gamma and a power curve, on odd sizes: pow(clamp(a, 0, 1), 1/2.2)
// + pow(|a| + 1, 3.5), powf with constant exponents (pb-expand-math).
func.func @gamma(%a: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %gamma = arith.constant 0.454545468 : f32
  %curve = arith.constant 3.5 : f32
  %e = tensor.empty() : tensor<37x53xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<37x53xf32>) outs(%e : tensor<37x53xf32>) {
  ^bb0(%x: f32, %o: f32):
    %lo = arith.maximumf %x, %zero : f32
    %c = arith.minimumf %lo, %one : f32
    %g = math.powf %c, %gamma : f32
    %m = math.absf %x : f32
    %m1 = arith.addf %m, %one : f32
    %p = math.powf %m1, %curve : f32
    %s = arith.addf %g, %p : f32
    linalg.yield %s : f32
  } -> tensor<37x53xf32>
  return %r : tensor<37x53xf32>
}
