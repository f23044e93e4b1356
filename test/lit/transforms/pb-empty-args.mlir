// RUN: pb-opt %s -split-input-file --pb-empty-args | FileCheck %s
// RUN: pb-opt %s -split-input-file --pb-pipeline=cpu | FileCheck %s --check-prefix=LLVM

// A 4x0 matrix (torch.mm with an inner dimension of zero) is passed as a
// pointer; its uses read a local buffer of no elements. So is 0x5 (which
// MLIR's bare-pointer rule would take: one rule for all).
// CHECK-LABEL: func.func @inner_zero
// CHECK-SAME: (%{{.*}}: memref<0xf32>, %{{.*}}: memref<0xf32>, %{{.*}}: memref<4x5xf32>)
// CHECK-NEXT: %[[B:.*]] = memref.alloca() : memref<0x5xf32>
// CHECK-NEXT: %[[A:.*]] = memref.alloca() : memref<4x0xf32>
// CHECK: memref.load %[[A]]
// CHECK: memref.load %[[B]]
// LLVM: llvm.func @inner_zero(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
func.func @inner_zero(%a: memref<4x0xf32>, %b: memref<0x5xf32>, %c: memref<4x5xf32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0, %c0] : memref<4x0xf32>
  %y = memref.load %b[%c0, %c0] : memref<0x5xf32>
  %s = arith.addf %x, %y : f32
  memref.store %s, %c[%c0, %c0] : memref<4x5xf32>
  return
}

// -----

// Non-empty and one-dimensional empty buffers, and private functions, keep
// their types.
// CHECK-LABEL: func.func @unchanged
// CHECK-SAME: (%{{.*}}: memref<0xi8>, %{{.*}}: memref<3x2xf32>)
// CHECK-NOT: memref.alloca
// CHECK-LABEL: func.func private @helper
// CHECK-SAME: memref<2x0xf32>
func.func @unchanged(%pool: memref<0xi8>, %m: memref<3x2xf32>) {
  return
}
func.func private @helper(%m: memref<2x0xf32>) {
  return
}
