// x^n with an integer n (torch-mlir's lowering of pow(x, 3), in tanh-GELU)
// vectorized has a vector of exponents, which LLVM's powi does not take; the
// llvm stage expands a constant n into multiplications and a variable one
// into powf, which pb-expand-math computes inline (in f64, no libm call).
// Before, the llvm stage failed on the vectorized fpowi.
// RUN: pb-opt %s --pb-pipeline=cpu --pb-target="cores=2 vector-bits=512" | FileCheck %s
// RUN: pb-opt %s --pb-pipeline=cpu --pb-target="cores=2 vector-bits=512" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// CHECK-LABEL: llvm.func @cube
// CHECK-NOT: powi
// CHECK: llvm.fmul {{.*}} : vector<16xf32>
// CHECK: llvm.fmul {{.*}} : vector<16xf32>
// CHECK-NOT: powi
// CHECK: llvm.return
// IR-LABEL: define void @cube
func.func @cube(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %n = arith.constant 3 : i64
  %e = tensor.empty() : tensor<4x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = math.fpowi %a, %n : f32, i64
    linalg.yield %p : f32
  } -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// CHECK-LABEL: llvm.func @power
// CHECK-NOT: powi
// CHECK-NOT: llvm.intr.pow
// CHECK: llvm.fpext {{.*}} : vector<16xf32> to vector<16xf64>
// CHECK-NOT: llvm.intr.pow
// CHECK: llvm.fptrunc {{.*}} : vector<16xf64> to vector<16xf32>
// CHECK-NOT: llvm.intr.pow
// CHECK: llvm.return
// IR-LABEL: define void @power
func.func @power(%x: tensor<4x64xf32>, %n: i64) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = math.fpowi %a, %n : f32, i64
    linalg.yield %p : f32
  } -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}
