func.func @mma_uint8_requant(%a: tensor<64x96xi8>, %b: tensor<96x128xi8>, %bias: tensor<128xi32>) -> tensor<64x128xi8> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<64x128xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<64x128xi32>) -> tensor<64x128xi32>
  %c = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : tensor<64x96xi8>, tensor<96x128xi8>) outs(%f : tensor<64x128xi32>) -> tensor<64x128xi32>
  %o = tensor.empty() : tensor<64x128xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : tensor<64x128xi32>, tensor<128xi32>) outs(%o : tensor<64x128xi8>) {
  ^bb0(%s: i32, %bb: i32, %out: i8):
    %t = arith.addi %s, %bb : i32
    %x = arith.sitofp %t : i32 to f32
    %scale = arith.constant 0.0009765625 : f32
    %y = arith.mulf %x, %scale : f32
    %q = math.roundeven %y : f32
    %lo = arith.constant -128.0 : f32
    %hi = arith.constant 127.0 : f32
    %c1 = arith.maximumf %q, %lo : f32
    %c2 = arith.minimumf %c1, %hi : f32
    %i = arith.fptosi %c2 : f32 to i8
    linalg.yield %i : i8
  } -> tensor<64x128xi8>
  return %r : tensor<64x128xi8>
}
