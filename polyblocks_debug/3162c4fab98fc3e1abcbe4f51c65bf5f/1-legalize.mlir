#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @graph(%arg0: tensor<4x6xbf16>) -> tensor<4x6xbf16> {
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %0 = tensor.empty() : tensor<4x6xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%0 : tensor<4x6xi64>) {
    ^bb0(%out: i64):
      %3 = linalg.index 1 : index
      %4 = arith.index_cast %3 : index to i64
      linalg.yield %4 : i64
    } -> tensor<4x6xi64>
    %2:2 = scf.for %arg1 = %c0 to %c4 step %c1 iter_args(%arg2 = %arg0, %arg3 = %1) -> (tensor<4x6xbf16>, tensor<4x6xi64>) {
      %3:2 = scf.for %arg4 = %c0 to %c6 step %c1 iter_args(%arg5 = %arg2, %arg6 = %arg3) -> (tensor<4x6xbf16>, tensor<4x6xi64>) {
        %4:2 = scf.for %arg7 = %c0 to %c5 step %c1 iter_args(%arg8 = %arg5, %arg9 = %arg6) -> (tensor<4x6xbf16>, tensor<4x6xi64>) {
          %5 = arith.addi %arg7, %c1 : index
          %6 = arith.maxsi %arg1, %c0 : index
          %7 = arith.minsi %6, %c3 : index
          %8 = arith.maxsi %arg7, %c0 : index
          %9 = arith.minsi %8, %c5 : index
          %extracted = tensor.extract %arg8[%7, %9] : tensor<4x6xbf16>
          %10 = arith.maxsi %arg1, %c0 : index
          %11 = arith.minsi %10, %c3 : index
          %12 = arith.maxsi %5, %c0 : index
          %13 = arith.minsi %12, %c5 : index
          %extracted_0 = tensor.extract %arg8[%11, %13] : tensor<4x6xbf16>
          %14 = arith.maxsi %arg1, %c0 : index
          %15 = arith.minsi %14, %c3 : index
          %16 = arith.maxsi %arg7, %c0 : index
          %17 = arith.minsi %16, %c5 : index
          %extracted_1 = tensor.extract %arg9[%15, %17] : tensor<4x6xi64>
          %18 = arith.maxsi %arg1, %c0 : index
          %19 = arith.minsi %18, %c3 : index
          %20 = arith.maxsi %5, %c0 : index
          %21 = arith.minsi %20, %c5 : index
          %extracted_2 = tensor.extract %arg9[%19, %21] : tensor<4x6xi64>
          %22 = arith.cmpf ole, %extracted, %extracted_0 : bf16
          %23:2 = scf.if %22 -> (tensor<4x6xbf16>, tensor<4x6xi64>) {
            scf.yield %arg8, %arg9 : tensor<4x6xbf16>, tensor<4x6xi64>
          } else {
            %inserted = tensor.insert %extracted_0 into %arg8[%arg1, %arg7] : tensor<4x6xbf16>
            %inserted_3 = tensor.insert %extracted into %inserted[%arg1, %5] : tensor<4x6xbf16>
            %inserted_4 = tensor.insert %extracted_2 into %arg9[%arg1, %arg7] : tensor<4x6xi64>
            %inserted_5 = tensor.insert %extracted_1 into %inserted_4[%arg1, %5] : tensor<4x6xi64>
            scf.yield %inserted_3, %inserted_5 : tensor<4x6xbf16>, tensor<4x6xi64>
          }
          scf.yield %23#0, %23#1 : tensor<4x6xbf16>, tensor<4x6xi64>
        }
        scf.yield %4#0, %4#1 : tensor<4x6xbf16>, tensor<4x6xi64>
      }
      scf.yield %3#0, %3#1 : tensor<4x6xbf16>, tensor<4x6xi64>
    }
    return %2#0 : tensor<4x6xbf16>
  }
}
