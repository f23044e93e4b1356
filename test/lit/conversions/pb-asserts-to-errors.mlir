// RUN: pb-opt %s --pb-asserts-to-errors | FileCheck %s
// RUN: pb-opt %s --pb-pipeline=cpu | FileCheck %s --check-prefix=LLVM

// A failed check stores its message's code in the exported global instead
// of aborting; equal messages share a code; the module lists the messages.
// CHECK: module attributes {pb.error_messages = ["unimplemented: tensor with zero element", "singular matrix"]}
// CHECK: memref.global @pb_error_code : memref<i32> = dense<0>
// CHECK-LABEL: func.func @checked
// CHECK: %[[BAD:.*]] = arith.xori %{{.*}}, %true : i1
// CHECK: scf.if %[[BAD]] {
// CHECK:   %[[CODE:.*]] = arith.constant 1 : i32
// CHECK:   %[[FLAG:.*]] = memref.get_global @pb_error_code : memref<i32>
// CHECK:   memref.store %[[CODE]], %[[FLAG]][] : memref<i32>
// CHECK: arith.constant 2 : i32
// CHECK: arith.constant 1 : i32
// CHECK-NOT: cf.assert
// LLVM: llvm.mlir.global external @pb_error_code(0 : i32)
// LLVM-NOT: abort
func.func @checked(%a: f32, %b: f32, %c: f32) {
  %zero = arith.constant 0.0 : f32
  %ok = arith.cmpf one, %a, %zero : f32
  cf.assert %ok, "unimplemented: tensor with zero element"
  %ok2 = arith.cmpf one, %b, %zero : f32
  cf.assert %ok2, "singular matrix"
  %ok3 = arith.cmpf one, %c, %zero : f32
  cf.assert %ok3, "unimplemented: tensor with zero element"
  return
}
