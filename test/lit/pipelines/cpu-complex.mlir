// complex<f32> tensors cross the ABI as pointers to (re, im) pairs; complex
// arithmetic becomes float arithmetic and LLVM structs.
// RUN: pb-opt %s --pb-pipeline=cpu | FileCheck %s
// CHECK: llvm.func @multiply(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(f32, f32)>
// CHECK: llvm.fmul
// CHECK-NOT: complex.
func.func @multiply(%a: tensor<8xcomplex<f32>>, %b: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  %e = tensor.empty() : tensor<8xcomplex<f32>>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<8xcomplex<f32>>, tensor<8xcomplex<f32>>) outs(%e : tensor<8xcomplex<f32>>) {
  ^bb0(%x: complex<f32>, %y: complex<f32>, %o: complex<f32>):
    %p = complex.mul %x, %y : complex<f32>
    linalg.yield %p : complex<f32>
  } -> tensor<8xcomplex<f32>>
  return %r : tensor<8xcomplex<f32>>
}
