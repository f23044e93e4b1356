// RUN: pb-opt %s --split-input-file --pb-gpu-math --verify-diagnostics | FileCheck %s

// Math in kernels as LLVM intrinsics (one NVPTX instruction each), not
// libdevice calls; host code is left alone.
// CHECK-LABEL: gpu.func @k
// CHECK: %[[S:.*]] = llvm.call_intrinsic "llvm.sqrt.f32"(%arg0) : (f32) -> f32
// CHECK: %[[A:.*]] = llvm.call_intrinsic "llvm.fabs.f32"(%[[S]]) : (f32) -> f32
// CHECK: %[[F:.*]] = llvm.call_intrinsic "llvm.floor.f64"(%arg1) : (f64) -> f64
// CHECK: %[[R:.*]] = llvm.call_intrinsic "llvm.sqrt.f32"(%[[A]]) : (f32) -> f32
// CHECK: arith.divf %{{.*}}, %[[R]] : f32
// CHECK-NOT: math.
// CHECK-LABEL: func.func @host
// CHECK: math.sqrt
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: f32, %y: f64, %out: memref<f32>, %out64: memref<f64>) kernel {
      %s = math.sqrt %x : f32
      %a = math.absf %s : f32
      %f = math.floor %y : f64
      %r = math.rsqrt %a : f32
      memref.store %r, %out[] : memref<f32>
      memref.store %f, %out64[] : memref<f64>
      gpu.return
    }
  }
  func.func @host(%x: f32) -> f32 {
    %s = math.sqrt %x : f32
    return %s : f32
  }
}

// -----

// Refused: no intrinsic, and no polynomial of ours yet (it would be a
// libdevice call).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: f32, %out: memref<f32>) kernel {
      // expected-error @+1 {{pb-gpu-math: 'math.sin' on f32 in a GPU kernel is not supported yet (it would need NVIDIA's libdevice)}}
      %s = math.sin %x : f32
      memref.store %s, %out[] : memref<f32>
      gpu.return
    }
  }
}
