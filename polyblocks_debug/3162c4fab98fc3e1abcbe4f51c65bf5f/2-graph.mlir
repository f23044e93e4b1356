#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @graph(%arg0: memref<4x6xbf16>, %arg1: memref<4x6xbf16>) {
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<4x6xi64>
    linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%alloc : memref<4x6xi64>) {
    ^bb0(%out: i64):
      %0 = linalg.index 1 : index
      %1 = arith.index_cast %0 : index to i64
      linalg.yield %1 : i64
    }
    %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<4x6xbf16>
    memref.copy %arg0, %alloc_0 : memref<4x6xbf16> to memref<4x6xbf16>
    scf.for %arg2 = %c0 to %c4 step %c1 {
      scf.for %arg3 = %c0 to %c6 step %c1 {
        scf.for %arg4 = %c0 to %c5 step %c1 {
          %0 = arith.addi %arg4, %c1 : index
          %1 = arith.maxsi %arg2, %c0 : index
          %2 = arith.minsi %1, %c3 : index
          %3 = arith.maxsi %arg4, %c0 : index
          %4 = arith.minsi %3, %c5 : index
          %5 = memref.load %alloc_0[%2, %4] : memref<4x6xbf16>
          %6 = arith.maxsi %0, %c0 : index
          %7 = arith.minsi %6, %c5 : index
          %8 = memref.load %alloc_0[%2, %7] : memref<4x6xbf16>
          %9 = memref.load %alloc[%2, %4] : memref<4x6xi64>
          %10 = memref.load %alloc[%2, %7] : memref<4x6xi64>
          %11 = arith.cmpf ole, %5, %8 : bf16
          scf.if %11 {
          } else {
            memref.store %8, %alloc_0[%arg2, %arg4] : memref<4x6xbf16>
            memref.store %5, %alloc_0[%arg2, %0] : memref<4x6xbf16>
            memref.store %10, %alloc[%arg2, %arg4] : memref<4x6xi64>
            memref.store %9, %alloc[%arg2, %0] : memref<4x6xi64>
          }
        }
      }
    }
    memref.copy %alloc_0, %arg1 : memref<4x6xbf16> to memref<4x6xbf16>
    memref.dealloc %alloc : memref<4x6xi64>
    memref.dealloc %alloc_0 : memref<4x6xbf16>
    return
  }
}
