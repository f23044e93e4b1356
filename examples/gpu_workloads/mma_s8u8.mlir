func.func @mma_s8u8(%a: tensor<100x72xi8>, %b: tensor<72x80xi8>) -> tensor<100x80xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<100x80xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<100x80xi32>) -> tensor<100x80xi32>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<100x72xi8>, tensor<72x80xi8>) outs(%f : tensor<100x80xi32>) {
  ^bb0(%x: i8, %y: i8, %o: i32):
    %xw = arith.extsi %x : i8 to i32
    %yw = arith.extui %y : i8 to i32
    %p = arith.muli %xw, %yw : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  } -> tensor<100x80xi32>
  return %c : tensor<100x80xi32>
}
