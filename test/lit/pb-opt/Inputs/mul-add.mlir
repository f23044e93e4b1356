// a * b + c elementwise: the fp-contract option decides whether the
// product and the sum become one fused multiply-add.
func.func @mul_add(%a: tensor<64xf32>, %b: tensor<64xf32>, %c: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%a, %b, %c : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %z : f32
    linalg.yield %s : f32
  }
  -> tensor<64xf32>
  return %r : tensor<64xf32>
}
