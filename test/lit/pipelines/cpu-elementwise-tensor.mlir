// Elementwise arith/math ops on whole tensors (valid upstream input, and
// what tosa-to-arith leaves) are legalized into linalg.generic, so the rest
// of the pipeline takes them; before, bufferization failed on them.
// RUN: pb-opt %s --pb-pipeline=cpu --pb-stop-after=legalize --pb-target="cores=2 vector-bits=512" | FileCheck %s --check-prefix=LEGALIZE
// RUN: pb-opt %s --pb-pipeline=cpu --pb-target="cores=2 vector-bits=512" | FileCheck %s --check-prefix=LLVM

// LEGALIZE-LABEL: func.func @exp_plus
// LEGALIZE: linalg.generic
// LEGALIZE: math.exp
// LEGALIZE: arith.addf
// LEGALIZE-NOT: math.exp %{{.*}} : tensor
// LLVM-LABEL: llvm.func @exp_plus
// LLVM-NOT: math.exp
// LLVM: llvm.return
func.func @exp_plus(%x: tensor<4x64xf32>, %y: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = math.exp %x : tensor<4x64xf32>
  %s = arith.addf %e, %y : tensor<4x64xf32>
  return %s : tensor<4x64xf32>
}
