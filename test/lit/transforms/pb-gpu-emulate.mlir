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
// What every thread computes alike stays outside the thread loops.
// CHECK: %[[BASE:.*]] = arith.muli %[[BX]], %[[SX:.*]] :
// CHECK: scf.for %[[TZ:.*]] = %{{.*}} to %[[ONE]] step
// CHECK: scf.for %[[TY:.*]] = %{{.*}} to %[[ONE]] step
// CHECK: scf.for %[[TX:.*]] = %{{.*}} to %[[SX]] step
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

// A barrier: each phase runs for every thread before the next starts
// (thread t reads what thread 15 - t wrote). The workgroup buffer is a host
// buffer; the uniform loop holding a barrier runs once around its phases;
// the thread's index (arithmetic) is computed again after the barrier.
// CHECK-LABEL: func.func @phases
// CHECK: %[[SHARED:.*]] = memref.alloc() : memref<16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c3 step
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[T1:.*]] = %{{.*}} to %{{.*}} step
// CHECK: memref.store %{{.*}}, %[[SHARED]][%[[T1]]]
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[T2:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[MIRROR:.*]] = arith.subi %{{.*}}, %[[T2]]
// CHECK: memref.load %[[SHARED]][%[[MIRROR]]]
// CHECK: memref.dealloc %[[SHARED]]
func.func @phases(%x: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) workgroup(%s : memref<16xf32, #gpu.address_space<workgroup>>) {
    %mirror = arith.subi %c15, %tx : index
    scf.for %step = %c0 to %c3 step %c1 {
      %v = memref.load %x[%tx] : memref<16xf32>
      memref.store %v, %s[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %s[%mirror] : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %w, %x[%tx] : memref<16xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// Refused: a value loaded per thread and used after a barrier would have
// to live across it in each thread.
func.func @crossing(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{pb-gpu-emulate: the value of 'memref.load' is computed per thread and used after a barrier (by 'memref.store')}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<64xf32>
    gpu.barrier
    memref.store %v, %x[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// -----

// Refused: a barrier under a condition (threads might not all reach it).
func.func @conditional(%x: memref<64xf32>, %p: i1) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{pb-gpu-emulate: a barrier inside 'scf.if' that does not run the same in every thread}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.if %p {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
