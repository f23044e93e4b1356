// blur_x_blur_y at an odd size (3x131x127): pb-fuse tiles rows that do not divide.
// The output is 4 short in each direction.
#img = affine_map<(c, i, j, k) -> (c, i, j + k)>
#imgy = affine_map<(c, i, j, k) -> (c, i + k, j)>
#tap = affine_map<(c, i, j, k) -> (k)>
#out = affine_map<(c, i, j, k) -> (c, i, j)>
func.func @blur_x_blur_y_odd(%img: tensor<3x131x127xf32>) -> tensor<3x127x123xf32> {
  %kernel = arith.constant dense<[0.0625, 0.25, 0.375, 0.25, 0.0625]> : tensor<5xf32>
  %zero = arith.constant 0.0 : f32
  %ex = tensor.empty() : tensor<3x131x123xf32>
  %zx = linalg.fill ins(%zero : f32) outs(%ex : tensor<3x131x123xf32>) -> tensor<3x131x123xf32>
  %blurx = linalg.generic {indexing_maps = [#img, #tap, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%img, %kernel : tensor<3x131x127xf32>, tensor<5xf32>) outs(%zx : tensor<3x131x123xf32>) {
  ^bb0(%v: f32, %w: f32, %acc: f32):
    %m = arith.mulf %v, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<3x131x123xf32>
  %ey = tensor.empty() : tensor<3x127x123xf32>
  %zy = linalg.fill ins(%zero : f32) outs(%ey : tensor<3x127x123xf32>) -> tensor<3x127x123xf32>
  %blury = linalg.generic {indexing_maps = [#imgy, #tap, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%blurx, %kernel : tensor<3x131x123xf32>, tensor<5xf32>) outs(%zy : tensor<3x127x123xf32>) {
  ^bb0(%v: f32, %w: f32, %acc: f32):
    %m = arith.mulf %v, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<3x127x123xf32>
  return %blury : tensor<3x127x123xf32>
}
