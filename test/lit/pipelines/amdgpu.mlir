// RUN: pb-opt %s --pb-pipeline=amdgpu --pb-stop-after=gpu-map | FileCheck %s --check-prefix=MAP
// RUN: pb-opt %s --pb-pipeline=amdgpu | FileCheck %s
// RUN: pb-opt %s --pb-pipeline=amdgpu --pb-emulate | FileCheck %s --check-prefix=EMU
// RUN: not pb-opt %s --pb-pipeline=amdgpu --pb-stop-after=lower 2>&1 | FileCheck %s --check-prefix=STAGE
// RUN: not pb-opt %s --pb-pipeline=amdgpu --pb-gpu=sm_90 2>&1 | FileCheck %s --check-prefix=VENDOR

// The amdgpu pipeline: the nvgpu pipeline's mapping with the gfx1100
// description (the default), the f16 product on the tensor cores.
// MAP-LABEL: func.func @mm
// MAP: gpu.launch_func @mm_kernel{{.*}} blocks in ({{.*}}) threads in ({{.*}})
// MAP: gpu.subgroup_mma_compute

// Lowered through ROCDL: AMDGPU assembly for gfx1100 with its WMMA
// instruction, no call into AMD's device libraries.
// CHECK: llvm.func @mm(
// CHECK: gpu.binary @mm_kernel
// CHECK-SAME: #rocdl.target<O = 3, chip = "gfx1100">
// CHECK-SAME: amdgcn-amd-amdhsa--gfx1100
// CHECK-SAME: v_wmma_f32_16x16x16_f16
// CHECK-NOT: __ocml_

// Emulated: no GPU op left.
// EMU: llvm.func @mm
// EMU-NOT: gpu.
// EMU: llvm.return

// STAGE: unknown amdgpu pipeline stage 'lower' (stages: legalize, graph, affine, gpu-map, gpu-lower, llvm)
// VENDOR: the amdgpu pipeline does not compile for sm_90 (a Nvidia GPU)
func.func @mm(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
