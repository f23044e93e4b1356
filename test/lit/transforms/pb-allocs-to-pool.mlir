// RUN: pb-opt %s -split-input-file -verify-diagnostics --pb-allocs-to-pool | FileCheck %s

// Two temporaries get 64-byte-aligned slices of one trailing pool argument;
// their deallocation goes away; the size is recorded on the function.
// CHECK-LABEL: func.func @two_temporaries
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>, %[[POOL:.*]]: memref<128xi8>)
// CHECK-SAME: attributes {pb.user_memory_bytes = 128 : i64}
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[T0:.*]] = memref.view %[[POOL]][%[[C0]]][] : memref<128xi8> to memref<4xf32>
// CHECK-DAG: %[[T1:.*]] = memref.view %[[POOL]][%[[C64]]][] : memref<128xi8> to memref<2x3xi8>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: memref.copy %[[A]], %[[T0]]
// CHECK: memref.copy %[[T0]], %[[OUT]]
func.func @two_temporaries(%a: memref<4xf32>, %out: memref<4xf32>) {
  %t0 = memref.alloc() : memref<4xf32>
  %t1 = memref.alloc() : memref<2x3xi8>
  memref.copy %a, %t0 : memref<4xf32> to memref<4xf32>
  memref.copy %t0, %out : memref<4xf32> to memref<4xf32>
  memref.dealloc %t0 : memref<4xf32>
  return
}

// -----

// Buffers whose lives do not overlap share bytes. %t0 dies at the copy into
// %t1; %t2, allocated after that, takes %t0's place (offset 0). %t1 stays
// live through its view %v, used by the last copy, so %t2 cannot take its
// bytes. The pool is 2 x 64 bytes, not 3 x 64.
// CHECK-LABEL: func.func @reuse
// CHECK-SAME: %[[POOL:[^:]*]]: memref<128xi8>)
// CHECK-SAME: pb.user_memory_bytes = 128
// CHECK: memref.view %[[POOL]][%c0][] : memref<128xi8> to memref<4xf32>
// CHECK: memref.view %[[POOL]][%c64][] : memref<128xi8> to memref<4xf32>
// CHECK: memref.subview
// CHECK: memref.view %[[POOL]][%c0_{{[0-9]+}}][] : memref<128xi8> to memref<4xf32>
func.func @reuse(%a: memref<4xf32>, %out: memref<2xf32>) {
  %t0 = memref.alloc() : memref<4xf32>
  memref.copy %a, %t0 : memref<4xf32> to memref<4xf32>
  %t1 = memref.alloc() : memref<4xf32>
  memref.copy %t0, %t1 : memref<4xf32> to memref<4xf32>
  memref.dealloc %t0 : memref<4xf32>
  %v = memref.subview %t1[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  %t2 = memref.alloc() : memref<4xf32>
  memref.copy %a, %t2 : memref<4xf32> to memref<4xf32>
  memref.copy %v, %out : memref<2xf32, strided<[1]>> to memref<2xf32>
  memref.dealloc %t2 : memref<4xf32>
  memref.dealloc %t1 : memref<4xf32>
  return
}

// -----

// A use inside a loop counts at the loop: %t0, written and read in the
// loop, is dead after it, and %t1, allocated after the loop, takes its
// bytes; %t2, allocated before the loop, lives through it and does not.
// CHECK-LABEL: func.func @loop
// CHECK-SAME: %[[POOL:[^:]*]]: memref<128xi8>)
// CHECK: memref.view %[[POOL]][%c0][] : memref<128xi8> to memref<4xf32>
// CHECK: memref.view %[[POOL]][%c64][] : memref<128xi8> to memref<4xf32>
// CHECK: affine.for
// CHECK: memref.view %[[POOL]][%c0_{{[0-9]+}}][] : memref<128xi8> to memref<4xf32>
func.func @loop(%a: memref<4xf32>, %out: memref<4xf32>) {
  %t0 = memref.alloc() : memref<4xf32>
  %t2 = memref.alloc() : memref<4xf32>
  affine.for %i = 0 to 3 {
    memref.copy %a, %t0 : memref<4xf32> to memref<4xf32>
    memref.copy %t0, %t2 : memref<4xf32> to memref<4xf32>
  }
  %t1 = memref.alloc() : memref<4xf32>
  memref.copy %t2, %t1 : memref<4xf32> to memref<4xf32>
  memref.copy %t1, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// A function without temporaries still takes the pool (of size 0): one ABI for all.
// CHECK-LABEL: func.func @nothing
// CHECK-SAME: (%{{.*}}: memref<4xf32>, %{{.*}}: memref<0xi8>)
// CHECK-SAME: pb.user_memory_bytes = 0
// Private helpers are left alone.
// CHECK-LABEL: func.func private @helper
// CHECK-SAME: (%{{.*}}: memref<4xf32>)
// CHECK: memref.alloc
func.func @nothing(%a: memref<4xf32>) {
  return
}
func.func private @helper(%a: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  memref.copy %a, %t : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Refused: the pool is planned at compile time.
func.func @dynamic(%n: index) {
  // expected-error @+1 {{cannot place this allocation in the user memory pool: 'memref<?xf32>' has a dynamic size}}
  %t = memref.alloc(%n) : memref<?xf32>
  return
}

// -----

// Refused: a public function called from inside the module would need its callers to pass the pool.
// expected-error @+1 {{cannot add a memory pool to @callee: it is also called from inside the module}}
func.func @callee(%a: memref<4xf32>) {
  return
}
func.func @caller(%a: memref<4xf32>) {
  call @callee(%a) : (memref<4xf32>) -> ()
  return
}

// -----

// Refused: an allocation in a kernel outlined from a public function
// (`pb-outline-kernels`) runs inside a loop of the caller's.
func.func @model(%a: memref<4xf32>) {
  call @model_kernel_0(%a) {no_inline} : (memref<4xf32>) -> ()
  return
}
func.func private @model_kernel_0(%a: memref<4xf32>) attributes {pb.kernel} {
  affine.for %i = 0 to 4 {
    // expected-error @+1 {{cannot place this allocation in the user memory pool: it is inside a loop (of a kernel)}}
    %t = memref.alloc() : memref<4xf32>
    memref.dealloc %t : memref<4xf32>
  }
  return
}
