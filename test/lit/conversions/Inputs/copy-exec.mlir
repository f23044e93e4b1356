func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %src = memref.alloc() : memref<4x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %k = arith.muli %i, %c4 : index
      %l = arith.addi %k, %j : index
      %li = arith.index_cast %l : index to i32
      %f = arith.sitofp %li : i32 to f32
      memref.store %f, %src[%i, %j] : memref<4x4xf32>
    }
  }
  // The 2x2 block at (0, 2): a strided view.
  %view = memref.subview %src[0, 2] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 2>>
  %dst = memref.alloc() : memref<2x2xf32>
  memref.copy %view, %dst : memref<2x2xf32, strided<[4, 1], offset: 2>> to memref<2x2xf32>
  %flat = memref.collapse_shape %dst [[0, 1]] : memref<2x2xf32> into memref<4xf32>
  %u = memref.cast %flat : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
