// RUN: pb-opt %s --pass-pipeline='builtin.module(pb-allocs-to-pool{strict=false})' | FileCheck %s
// RUN: pb-opt %s --pass-pipeline='builtin.module(pb-allocs-to-pool)' -verify-diagnostics -o /dev/null

// What the JIT builds (`pb-compile --pool`): allocations made once per call
// in the function body go in the pool; one inside a loop (a new buffer per
// iteration) and a dynamically sized one stay heap allocations, with their
// deallocations. In strict mode (AOT user memory) both are errors.
// CHECK-LABEL: func.func @mixed
// CHECK-SAME: %[[POOL:[a-z0-9]+]]: memref<64xi8>
// CHECK-SAME: pb.user_memory_bytes = 64
// CHECK: memref.view %[[POOL]]
// CHECK: affine.for
// CHECK:   %[[L:.*]] = memref.alloc() : memref<8xf32>
// CHECK:   memref.dealloc %[[L]]
// CHECK: %[[D:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: memref.dealloc %[[D]]
func.func @mixed(%a: memref<8xf32>, %n: index, %out: memref<8xf32>) {
  %t = memref.alloc() : memref<8xf32>
  memref.copy %a, %t : memref<8xf32> to memref<8xf32>
  affine.for %i = 0 to 2 {
    // expected-error @below {{cannot place this allocation in the user memory pool: it is inside a loop}}
    %l = memref.alloc() : memref<8xf32>
    memref.copy %t, %l : memref<8xf32> to memref<8xf32>
    memref.copy %l, %out : memref<8xf32> to memref<8xf32>
    memref.dealloc %l : memref<8xf32>
  }
  // expected-error @below {{cannot place this allocation in the user memory pool: 'memref<?xf32>' has a dynamic size}}
  %d = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %d : memref<?xf32>
  memref.dealloc %t : memref<8xf32>
  return
}
