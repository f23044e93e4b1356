// RUN: pb-opt %s --pb-pipeline=nvgpu --pb-gpu=sm_90 --pb-stop-after=gpu-map | FileCheck %s --check-prefix=MAP
// RUN: pb-opt %s --pb-pipeline=nvgpu --pb-gpu=sm_90 | FileCheck %s
// RUN: pb-opt %s --pb-pipeline=nvgpu --pb-gpu=sm_80 --pb-emulate | FileCheck %s --check-prefix=EMU
// RUN: not pb-opt %s --pb-pipeline=nvgpu --pb-stop-after=lower 2>&1 | FileCheck %s --check-prefix=STAGE

// The mapped IR: device copies of the arguments, kernels outlined into
// gpu.modules with their constants, launched with the mapping's shapes.
// MAP-LABEL: func.func @softmax_exp
// MAP: gpu.alloc
// MAP: gpu.memcpy
// MAP: gpu.launch_func @softmax_exp_kernel{{.*}} blocks in ({{.*}}) threads in ({{.*}})
// MAP: gpu.module @softmax_exp_kernel
// MAP: gpu.func @softmax_exp_kernel({{.*}}) kernel

// The whole pipeline: host code in the LLVM dialect launching the kernels,
// which are PTX for sm_90 (exp as our polynomial: no libdevice call).
// CHECK: llvm.func @softmax_exp(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK: gpu.launch_func
// CHECK: gpu.binary @softmax_exp_kernel
// CHECK-SAME: chip = "sm_90"
// CHECK-SAME: .target sm_90
// CHECK-NOT: __nv_

// Emulated: no GPU op left; the host function runs the kernels as loops.
// EMU: llvm.func @softmax_exp
// EMU-NOT: gpu.
// EMU: llvm.return

// STAGE: unknown nvgpu pipeline stage 'lower' (stages: legalize, graph, affine, gpu-map, gpu-lower, llvm)
func.func @softmax_exp(%x: tensor<16x33xf32>) -> tensor<16x33xf32> {
  %e = tensor.empty() : tensor<16x33xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x33xf32>) outs(%e : tensor<16x33xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.exp %a : f32
    linalg.yield %t : f32
  } -> tensor<16x33xf32>
  return %y : tensor<16x33xf32>
}
