// RUN: pb-opt %s --pb-gpu-host-memory | FileCheck %s

// Arguments the kernel uses get device copies; the output (written) is
// copied back, the input (only read) is not; the temporary and the
// constant live on the device.
// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[IN:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK-DAG: %[[DOUT:.*]] = gpu.alloc () : memref<8xf32>
// CHECK-DAG: gpu.memcpy %[[DOUT]], %[[OUT]]
// CHECK-DAG: %[[DIN:.*]] = gpu.alloc () : memref<8xf32>
// CHECK-DAG: gpu.memcpy %[[DIN]], %[[IN]]
// CHECK: %[[G:.*]] = memref.get_global @table
// CHECK: %[[DG:.*]] = gpu.alloc () : memref<8xf32>
// CHECK: gpu.memcpy %[[DG]], %[[G]]
// CHECK: %[[TMP:.*]] = gpu.alloc () : memref<8xf32>
// CHECK: gpu.launch
// CHECK: memref.load %[[DIN]]
// CHECK: memref.load %[[DG]]
// CHECK: memref.store %{{.*}}, %[[TMP]]
// CHECK: memref.load %[[TMP]]
// CHECK: memref.store %{{.*}}, %[[DOUT]]
// CHECK: gpu.terminator
// CHECK: gpu.dealloc %[[TMP]]
// CHECK-NOT: gpu.memcpy %[[IN]]
// CHECK: gpu.memcpy %[[OUT]], %[[DOUT]]
// CHECK-NOT: gpu.memcpy %[[IN]]
// CHECK-DAG: gpu.dealloc %[[DIN]]
// CHECK-DAG: gpu.dealloc %[[DOUT]]
// CHECK-DAG: gpu.dealloc %[[DG]]
// CHECK: return
memref.global "private" constant @table : memref<8xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]>
func.func @f(%in: memref<8xf32>, %out: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %table = memref.get_global @table : memref<8xf32>
  %tmp = memref.alloc() : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %a = memref.load %in[%tx] : memref<8xf32>
    %b = memref.load %table[%tx] : memref<8xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %tmp[%tx] : memref<8xf32>
    %t = memref.load %tmp[%tx] : memref<8xf32>
    memref.store %t, %out[%tx] : memref<8xf32>
    gpu.terminator
  }
  memref.dealloc %tmp : memref<8xf32>
  return
}

// Host buffers no kernel touches stay as they are.
// CHECK-LABEL: func.func @host_only
// CHECK-NOT: gpu.
// CHECK: return
func.func @host_only(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xf32>
  memref.store %v, %x[%c0] : memref<4xf32>
  return
}
