// RUN: pb-opt --pb-packed-entry-points %s | FileCheck %s

// A public function gets a twin taking one array of pointers, each to an
// argument's value: a buffer's address, or the scalar itself.
// CHECK-LABEL: llvm.func @f(
// CHECK-LABEL: llvm.func @f_packed(%arg0: !llvm.ptr) {
// CHECK-NEXT: %[[S0:.*]] = llvm.getelementptr %arg0[0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT: %[[P0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[A:.*]] = llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[S1:.*]] = llvm.getelementptr %arg0[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT: %[[P1:.*]] = llvm.load %[[S1]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[N:.*]] = llvm.load %[[P1]] : !llvm.ptr -> i64
// CHECK-NEXT: llvm.call @f(%[[A]], %[[N]]) : (!llvm.ptr, i64) -> ()
// CHECK-NEXT: llvm.return
llvm.func @f(%a: !llvm.ptr, %n: i64) {
  llvm.return
}

// Internal functions (kernels), declarations and functions returning a
// value get none.
// CHECK-NOT: @kernel_packed
// CHECK-NOT: @sqrtf_packed
// CHECK-NOT: @value_packed
llvm.func internal @kernel(%a: !llvm.ptr) {
  llvm.return
}
llvm.func @sqrtf(f32) -> f32
llvm.func @value(%x: f32) -> f32 {
  llvm.return %x : f32
}
