// RUN: pb-opt --pb-readonly-inputs %s | FileCheck %s
// RUN: pb-opt --pb-readonly-inputs --one-shot-bufferize='bufferize-function-boundaries' %s | FileCheck %s --check-prefix=BUF

// Tensor arguments of public functions become non-writable; other
// argument attributes stay; private functions and scalars are untouched.
// CHECK-LABEL: func.func @f(
// CHECK-SAME: %{{.*}}: tensor<4xf32> {bufferization.writable = false}
// CHECK-SAME: %{{.*}}: tensor<4xf32> {bufferization.writable = false, pb.name = "b"}
// CHECK-SAME: %{{.*}}: f32)
// CHECK-LABEL: func.func private @g(
// CHECK-SAME: %{{.*}}: tensor<4xf32>)

// The input is dead after the insert: without the attribute bufferization
// would write the result into %a's buffer; with it, it copies first.
// BUF-LABEL: func.func @f(
// BUF: memref.alloc
// BUF: memref.copy %arg0
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32> {pb.name = "b"}, %x: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %r = tensor.insert %x into %a[%c0] : tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func private @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
