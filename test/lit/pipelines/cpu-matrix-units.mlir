// The target decides where a bf16 product runs: on AMX tiles where the
// target has them (and the module then asks Linux for the tiles in a
// constructor), in f32 vector lanes where it does not.
// RUN: pb-opt %s --pb-pipeline=cpu --pb-stop-after=affine --pb-target="cores=2 vector-bits=512 matrix-units=amx-tile+amx-bf16+amx-int8" | FileCheck %s --check-prefix=AMX
// RUN: pb-opt %s --pb-pipeline=cpu --pb-stop-after=affine --pb-target="cores=2 vector-bits=512 matrix-units=none" | FileCheck %s --check-prefix=VECTOR
// RUN: pb-opt %s --pb-pipeline=cpu --pb-target="cores=2 vector-bits=512 matrix-units=amx-tile+amx-bf16" | FileCheck %s --check-prefix=LLVM
// AMX: amx.tile_mulf
// VECTOR-NOT: amx.
// VECTOR: arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
// LLVM-DAG: llvm.mlir.global_ctors ctors = [@pb_request_amx]
// LLVM-DAG: llvm.call_intrinsic "llvm.x86.tdpbf16ps.internal"
// Without AMX, AVX512-BF16's dot products (no request to the OS); not
// with 256-bit vectors (the instructions used are 512-bit).
// RUN: pb-opt %s --pb-pipeline=cpu --pb-target="cores=2 vector-bits=512 matrix-units=avx512-bf16" | FileCheck %s --check-prefix=DOT
// RUN: pb-opt %s --pb-pipeline=cpu --pb-stop-after=affine --pb-target="cores=2 vector-bits=256 matrix-units=avx512-bf16" | FileCheck %s --check-prefix=NARROW
// DOT-NOT: pb_request_amx
// DOT: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// NARROW-NOT: llvm.call_intrinsic
// NARROW: arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
func.func @mm(%a: tensor<64x96xbf16>, %b: tensor<96x64xbf16>) -> tensor<64x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x96xbf16>, tensor<96x64xbf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
