// Unsharp masking: blur (5-tap in x, then y), then where the image differs
// from its blur by at least 0.001, sharpen: img * (1 + 3) - blur * 3.
#img = affine_map<(c, i, j, k) -> (c, i, j + k)>
#imgy = affine_map<(c, i, j, k) -> (c, i + k, j)>
#tap = affine_map<(c, i, j, k) -> (k)>
#out = affine_map<(c, i, j, k) -> (c, i, j)>
#id3 = affine_map<(c, i, j) -> (c, i, j)>
func.func @unsharp_mask_2048(%img: tensor<3x2048x2048xf32>) -> tensor<3x2044x2044xf32> {
  %kernel = arith.constant dense<[0.0625, 0.25, 0.375, 0.25, 0.0625]> : tensor<5xf32>
  %zero = arith.constant 0.0 : f32
  %weight = arith.constant 3.0 : f32
  %one_plus = arith.constant 4.0 : f32
  %threshold = arith.constant 0.001 : f32
  %ex = tensor.empty() : tensor<3x2048x2044xf32>
  %zx = linalg.fill ins(%zero : f32) outs(%ex : tensor<3x2048x2044xf32>) -> tensor<3x2048x2044xf32>
  %blurx = linalg.generic {indexing_maps = [#img, #tap, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%img, %kernel : tensor<3x2048x2048xf32>, tensor<5xf32>) outs(%zx : tensor<3x2048x2044xf32>) {
  ^bb0(%v: f32, %w: f32, %acc: f32):
    %m = arith.mulf %v, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<3x2048x2044xf32>
  %ey = tensor.empty() : tensor<3x2044x2044xf32>
  %zy = linalg.fill ins(%zero : f32) outs(%ey : tensor<3x2044x2044xf32>) -> tensor<3x2044x2044xf32>
  %blur = linalg.generic {indexing_maps = [#imgy, #tap, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%blurx, %kernel : tensor<3x2048x2044xf32>, tensor<5xf32>) outs(%zy : tensor<3x2044x2044xf32>) {
  ^bb0(%v: f32, %w: f32, %acc: f32):
    %m = arith.mulf %v, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<3x2044x2044xf32>
  %center = tensor.extract_slice %img[0, 2, 2] [3, 2044, 2044] [1, 1, 1] : tensor<3x2048x2048xf32> to tensor<3x2044x2044xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%center, %blur : tensor<3x2044x2044xf32>, tensor<3x2044x2044xf32>) outs(%ey : tensor<3x2044x2044xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %d = arith.subf %c, %b : f32
    %a = math.absf %d : f32
    %small = arith.cmpf olt, %a, %threshold : f32
    %cs = arith.mulf %c, %one_plus : f32
    %bs = arith.mulf %b, %weight : f32
    %sharp = arith.subf %cs, %bs : f32
    %y = arith.select %small, %c, %sharp : f32
    linalg.yield %y : f32
  } -> tensor<3x2044x2044xf32>
  return %r : tensor<3x2044x2044xf32>
}
