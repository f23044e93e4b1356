// RUN: pb-opt %s --split-input-file --pb-gpu-emulate --verify-diagnostics | FileCheck %s

// A launch becomes loops over block z, y, x then thread z, y, x; the ids
// are their variables and the sizes the launch's operands; device memory
// ops become host ones.
// CHECK-LABEL: func.func @f
// CHECK: %[[D:.*]] = memref.alloc() : memref<64xf32>
// CHECK: memref.copy %arg0, %[[D]]
// CHECK: scf.for %[[BZ:.*]] = %{{.*}} to %[[ONE:.*]] step
// CHECK: scf.for %[[BY:.*]] = %{{.*}} to %[[ONE]] step
// CHECK: scf.for %[[BX:.*]] = %{{.*}} to %[[GX:.*]] step
// CHECK: scf.for %[[TZ:.*]] = %{{.*}} to %[[ONE]] step
// CHECK: scf.for %[[TY:.*]] = %{{.*}} to %[[ONE]] step
// CHECK: scf.for %[[TX:.*]] = %{{.*}} to %[[SX:.*]] step
// CHECK: %[[BASE:.*]] = arith.muli %[[BX]], %[[SX]]
// CHECK: arith.addi %[[BASE]], %[[TX]]
// CHECK-NOT: gpu.
// CHECK: memref.copy %[[D]], %arg0
// CHECK: memref.dealloc %[[D]]
func.func @f(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %d = gpu.alloc () : memref<64xf32>
  gpu.memcpy %d, %x : memref<64xf32>, memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %d[%i] : memref<64xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %d[%i] : memref<64xf32>
    gpu.terminator
  }
  gpu.memcpy %x, %d : memref<64xf32>, memref<64xf32>
  gpu.dealloc %d : memref<64xf32>
  return
}

// -----

// Refused: threads that synchronize would need each phase between the
// barriers run for every thread in turn.
func.func @barrier(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{pb-gpu-emulate: kernels with barriers cannot be emulated yet}}
    gpu.barrier
    gpu.terminator
  }
  return
}
