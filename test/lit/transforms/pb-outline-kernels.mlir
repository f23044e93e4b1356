// RUN: pb-opt --pb-outline-kernels %s | FileCheck %s

// Each kernel (an op with regions in a public function's body) becomes a
// call of a private function taking the values it uses from outside, in
// order of first use; constants are cloned in. The second and third
// kernels are the first one's code on other buffers (a model's layers):
// they call the same function. The fourth reads a strided view, which the
// bare-pointer convention cannot pass: it stays in place. Private
// functions are not outlined from.

// CHECK-LABEL: func.func @layers(
// CHECK-SAME: %[[X:[^:]*]]: memref<8xf32>, %[[Y:[^:]*]]: memref<8xf32>, %[[Z:[^:]*]]: memref<8xf32>, %[[S:[^:]*]]: memref<4x4xf32>, %[[N:[^:]*]]: index
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2.0
// CHECK-NEXT: call @layers_kernel_0(%[[X]], %[[Y]]) {no_inline} : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT: call @layers_kernel_0(%[[Y]], %[[Z]]) {no_inline}
// CHECK-NEXT: call @layers_kernel_0(%[[Z]], %[[X]]) {no_inline}
// CHECK-NEXT: %[[VIEW:.*]] = memref.subview %[[S]]
// CHECK-NEXT: affine.for
// CHECK: call @layers_kernel_4(%[[N]], %[[X]]) {no_inline} : (index, memref<8xf32>) -> ()
// CHECK-NEXT: return
// CHECK: func.func private @layers_kernel_0(%[[A:.*]]: memref<8xf32>, %[[B:.*]]: memref<8xf32>) attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"], pb.kernel}
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2.0
// CHECK-NEXT: affine.for %[[I:.*]] = 0 to 8 {
// CHECK-NEXT: affine.load %[[A]][%[[I]]]
// CHECK-NEXT: arith.mulf %{{.*}}, %[[C2]]
// CHECK-NEXT: affine.store %{{.*}}, %[[B]][%[[I]]]
// CHECK: return
// CHECK-NOT: func.func private @layers_kernel_1
// CHECK-NOT: func.func private @layers_kernel_2
// CHECK: func.func private @layers_kernel_4(%{{.*}}: index, %{{.*}}: memref<8xf32>)
// CHECK: func.func private @helper(
// CHECK-NEXT: affine.for
func.func @layers(%x: memref<8xf32>, %y: memref<8xf32>, %z: memref<8xf32>, %s: memref<4x4xf32>, %n: index) {
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 8 {
    %v = affine.load %x[%i] : memref<8xf32>
    %w = arith.mulf %v, %two : f32
    affine.store %w, %y[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %v = affine.load %y[%i] : memref<8xf32>
    %w = arith.mulf %v, %two : f32
    affine.store %w, %z[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %v = affine.load %z[%i] : memref<8xf32>
    %w = arith.mulf %v, %two : f32
    affine.store %w, %x[%i] : memref<8xf32>
  }
  %view = memref.subview %s[1, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  affine.for %i = 0 to 2 {
    %v = affine.load %view[%i, %i] : memref<2x2xf32, strided<[4, 1], offset: 5>>
    affine.store %v, %view[%i, 0] : memref<2x2xf32, strided<[4, 1], offset: 5>>
  }
  affine.for %i = 0 to 8 {
    %c = arith.index_cast %n : index to i64
    %f = arith.sitofp %c : i64 to f32
    affine.store %f, %x[%i] : memref<8xf32>
  }
  return
}

func.func private @helper(%x: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %v = affine.load %x[%i] : memref<8xf32>
    affine.store %v, %x[%i] : memref<8xf32>
  }
  return
}
