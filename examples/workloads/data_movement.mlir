// transpose, reshape, slice, concat and pad, chained.
// out0 = transpose(x)             : 5x3
// out1 = reshape(x) to 15         : 15
// out2 = x[1:3, 1:5]              : 2x4
// out3 = concat(x, x) on axis 0   : 6x5
// out4 = pad(x, 1 before, 2 after, value 7) : 6x8
func.func @data_movement(%x: tensor<3x5xf32>) -> (tensor<5x3xf32>, tensor<15xf32>, tensor<2x4xf32>, tensor<6x5xf32>, tensor<6x8xf32>) {
  %e = tensor.empty() : tensor<5x3xf32>
  %t = linalg.transpose ins(%x : tensor<3x5xf32>) outs(%e : tensor<5x3xf32>) permutation = [1, 0]
  %r = tensor.collapse_shape %x [[0, 1]] : tensor<3x5xf32> into tensor<15xf32>
  %s = tensor.extract_slice %x[1, 1] [2, 4] [1, 1] : tensor<3x5xf32> to tensor<2x4xf32>
  %c = tensor.concat dim(0) %x, %x : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<6x5xf32>
  %seven = arith.constant 7.0 : f32
  %p = tensor.pad %x low[1, 1] high[2, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %seven : f32
  } : tensor<3x5xf32> to tensor<6x8xf32>
  return %t, %r, %s, %c, %p : tensor<5x3xf32>, tensor<15xf32>, tensor<2x4xf32>, tensor<6x5xf32>, tensor<6x8xf32>
}
