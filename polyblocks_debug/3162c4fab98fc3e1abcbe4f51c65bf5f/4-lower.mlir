module {
  func.func @graph(%arg0: memref<4x6xbf16>, %arg1: memref<4x6xbf16>, %arg2: memref<256xi8>) attributes {pb.user_memory_bytes = 256 : i64} {
    %c192 = arith.constant 192 : index
    %c0 = arith.constant 0 : index
    %view = memref.view %arg2[%c0][] : memref<256xi8> to memref<4x6xi64>
    call @graph_kernel_0(%view) {no_inline} : (memref<4x6xi64>) -> ()
    %view_0 = memref.view %arg2[%c192][] : memref<256xi8> to memref<4x6xbf16>
    call @graph_kernel_1(%arg0, %view_0) {no_inline} : (memref<4x6xbf16>, memref<4x6xbf16>) -> ()
    call @graph_kernel_2(%view_0, %view) {no_inline} : (memref<4x6xbf16>, memref<4x6xi64>) -> ()
    call @graph_kernel_1(%view_0, %arg1) {no_inline} : (memref<4x6xbf16>, memref<4x6xbf16>) -> ()
    return
  }
  func.func private @graph_kernel_0(%arg0: memref<4x6xi64>) attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"], pb.kernel} {
    %c6 = arith.constant 6 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    scf.for %arg1 = %c0 to %c4 step %c1 {
      scf.for %arg2 = %c0 to %c6 step %c1 {
        %0 = arith.index_cast %arg2 : index to i64
        memref.store %0, %arg0[%arg1, %arg2] : memref<4x6xi64>
      }
    }
    return
  }
  func.func private @graph_kernel_1(%arg0: memref<4x6xbf16>, %arg1: memref<4x6xbf16>) attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"], pb.kernel} {
    %c6 = arith.constant 6 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    scf.for %arg2 = %c0 to %c4 step %c1 {
      scf.for %arg3 = %c0 to %c6 step %c1 {
        %0 = memref.load %arg0[%arg2, %arg3] : memref<4x6xbf16>
        memref.store %0, %arg1[%arg2, %arg3] : memref<4x6xbf16>
      }
    }
    return
  }
  func.func private @graph_kernel_2(%arg0: memref<4x6xbf16>, %arg1: memref<4x6xi64>) attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"], pb.kernel} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %c5 = arith.constant 5 : index
    %c3 = arith.constant 3 : index
    scf.for %arg2 = %c0 to %c4 step %c1 {
      scf.for %arg3 = %c0 to %c6 step %c1 {
        scf.for %arg4 = %c0 to %c5 step %c1 {
          %0 = arith.addi %arg4, %c1 : index
          %1 = arith.maxsi %arg2, %c0 : index
          %2 = arith.minsi %1, %c3 : index
          %3 = arith.maxsi %arg4, %c0 : index
          %4 = arith.minsi %3, %c5 : index
          %5 = memref.load %arg0[%2, %4] : memref<4x6xbf16>
          %6 = arith.maxsi %0, %c0 : index
          %7 = arith.minsi %6, %c5 : index
          %8 = memref.load %arg0[%2, %7] : memref<4x6xbf16>
          %9 = memref.load %arg1[%2, %4] : memref<4x6xi64>
          %10 = memref.load %arg1[%2, %7] : memref<4x6xi64>
          %11 = arith.cmpf ole, %5, %8 : bf16
          scf.if %11 {
          } else {
            memref.store %8, %arg0[%arg2, %arg4] : memref<4x6xbf16>
            memref.store %5, %arg0[%arg2, %0] : memref<4x6xbf16>
            memref.store %10, %arg1[%arg2, %arg4] : memref<4x6xi64>
            memref.store %9, %arg1[%arg2, %0] : memref<4x6xi64>
          }
        }
      }
    }
    return
  }
}
