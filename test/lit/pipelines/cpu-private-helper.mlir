// A private helper taking a memref of dynamic size (what bufferization's
// deallocation emits as @dealloc_helper) is inlined before the LLVM
// conversion: the bare-pointer convention cannot take its argument, and a
// call to an unconverted function was "'llvm.call' op 'dealloc_helper' does
// not reference a valid LLVM function".
// RUN: pb-opt %s --pb-pipeline=cpu | FileCheck %s
// CHECK: llvm.func @f(%{{.*}}: !llvm.ptr)
// CHECK-NOT: llvm.call @helper
// CHECK-NOT: @helper
func.func private @helper(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %m[%c0] : memref<?xf32>
  return
}

func.func @f(%a: memref<4xf32>) {
  %c = memref.cast %a : memref<4xf32> to memref<?xf32>
  call @helper(%c) : (memref<?xf32>) -> ()
  return
}
