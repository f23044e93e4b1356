// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-forward-copies{report=true}))' %s --split-input-file --verify-diagnostics | FileCheck %s
// Without report=true the pass says nothing.
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-forward-copies))' %s --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: remark

// A slice assignment as bufferization leaves it: f computed into %t, the
// border copied into %b, %t copied into the interior of %b, %t read again
// later. f now writes %b's interior after the border copy, the later
// reader reads %b, and the copy and %t are gone.
// CHECK-LABEL: func.func @slice_assignment
// CHECK-NOT: memref.alloc() : memref<8xf32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<10xf32>
// CHECK-NEXT: affine.for %[[I:.*]] = 0 to 10 {
// CHECK-NEXT:   affine.load %arg0[%[[I]]]
// CHECK-NEXT:   affine.store %{{.*}}, %[[B]][%[[I]]]
// CHECK:      affine.for %[[J:.*]] = 0 to 8 {
// CHECK-NEXT:   %[[X:.*]] = affine.load %arg0[%[[J]] + 1]
// CHECK-NEXT:   %[[Y:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK-NEXT:   affine.store %[[Y]], %[[B]][%[[J]] + 1]
// CHECK:      affine.for %[[K:.*]] = 0 to 8 {
// CHECK-NEXT:   affine.load %[[B]][%[[K]] + 1]
// CHECK-NEXT:   affine.store %{{.*}}, %arg1[%[[K]]]
// CHECK-NOT: affine.for
// CHECK: return %[[B]]
func.func @slice_assignment(%a: memref<10xf32>, %out: memref<8xf32>) -> memref<10xf32> {
  %t = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 8 {
    %x = affine.load %a[%i + 1] : memref<10xf32>
    %y = arith.mulf %x, %x : f32
    affine.store %y, %t[%i] : memref<8xf32>
  }
  %b = memref.alloc() : memref<10xf32>
  affine.for %i = 0 to 10 {
    %x = affine.load %a[%i] : memref<10xf32>
    affine.store %x, %b[%i] : memref<10xf32>
  }
  // expected-remark @+1 {{[pb-forward-copies] S0 now writes A2 where S2 copied A1 to; S2 removed}}
  affine.for %i = 0 to 8 {
    %x = affine.load %t[%i] : memref<8xf32>
    affine.store %x, %b[%i + 1] : memref<10xf32>
  }
  affine.for %i = 0 to 8 {
    %x = affine.load %t[%i] : memref<8xf32>
    affine.store %x, %out[%i] : memref<8xf32>
  }
  memref.dealloc %t : memref<8xf32>
  return %b : memref<10xf32>
}

// -----

// One temporary holds two versions (bufferization reuses a buffer along a
// chain of ops): the second writer updates %t in place, reading the first
// version at the element it writes. Each version is forwarded to the
// buffer it is copied to; the second writer's read of the first version
// reads %b1.
// Each at its copy; names are those of the copy's window (the nests from
// the first to the last that access its temporary).
// CHECK-LABEL: func.func @versions
// CHECK-NOT: memref.alloc() : memref<4xf32>
// CHECK: affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT:   affine.load %arg0[%[[I]]]
// CHECK:        affine.store %{{.*}}, %arg1[%[[I]]]
// CHECK:      affine.for %[[J:.*]] = 0 to 4 {
// CHECK-NEXT:   affine.load %arg1[%[[J]]]
// CHECK:        affine.store %{{.*}}, %arg2[%[[J]]]
// CHECK-NOT: affine.for
func.func @versions(%a: memref<4xf32>, %b1: memref<4xf32>, %b2: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  affine.for %i = 0 to 4 {
    %x = affine.load %a[%i] : memref<4xf32>
    %y = arith.addf %x, %x : f32
    affine.store %y, %t[%i] : memref<4xf32>
  }
  // expected-remark @+1 {{[pb-forward-copies] S0 now writes A2 where S1 copied A1 to; S1 removed}}
  affine.for %i = 0 to 4 {
    %x = affine.load %t[%i] : memref<4xf32>
    affine.store %x, %b1[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 4 {
    %x = affine.load %t[%i] : memref<4xf32>
    %y = arith.mulf %x, %x : f32
    affine.store %y, %t[%i] : memref<4xf32>
  }
  // expected-remark @+1 {{[pb-forward-copies] S0 now writes A2 where S1 copied A1 to; S1 removed}}
  affine.for %i = 0 to 4 {
    %x = affine.load %t[%i] : memref<4xf32>
    affine.store %x, %b2[%i] : memref<4xf32>
  }
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

// Refused: the writer would move past a nest that overwrites what it reads
// (a write-after-read dependence).
// CHECK-LABEL: func.func @dependence
// CHECK: memref.alloc() : memref<4xf32>
// CHECK-COUNT-3: affine.for
func.func @dependence(%a: memref<4xf32>, %b: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 4 {
    %x = affine.load %a[%i] : memref<4xf32>
    affine.store %x, %t[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 4 {
    affine.store %zero, %a[%i] : memref<4xf32>
  }
  // expected-remark @+1 {{[pb-forward-copies] left as is: copy S2: S0 cannot move past S1}}
  affine.for %i = 0 to 4 {
    %x = affine.load %t[%i] : memref<4xf32>
    affine.store %x, %b[%i] : memref<4xf32>
  }
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

// Refused: the copy covers only part of what the writer computes (writing
// the rest into %b would clobber it).
// CHECK-LABEL: func.func @partial
// CHECK-COUNT-2: affine.for
func.func @partial(%a: memref<8xf32>, %b: memref<8xf32>) {
  %t = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 8 {
    %x = affine.load %a[%i] : memref<8xf32>
    affine.store %x, %t[%i] : memref<8xf32>
  }
  // expected-remark @+1 {{[pb-forward-copies] left as is: copy S1: the copy does not cover every element S0 writes}}
  affine.for %i = 0 to 4 {
    %x = affine.load %t[%i] : memref<8xf32>
    affine.store %x, %b[%i + 4] : memref<8xf32>
  }
  memref.dealloc %t : memref<8xf32>
  return
}

// -----

// Refused: %b is overwritten after the copy, before the temporary's last
// reader, which must keep reading the temporary.
// CHECK-LABEL: func.func @overwritten
// CHECK-COUNT-4: affine.for
func.func @overwritten(%a: memref<4xf32>, %b: memref<4xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 4 {
    %x = affine.load %a[%i] : memref<4xf32>
    affine.store %x, %t[%i] : memref<4xf32>
  }
  // expected-remark @+1 {{[pb-forward-copies] left as is: copy S1: S2 writes A2 before the last reader of the copy}}
  affine.for %i = 0 to 4 {
    %x = affine.load %t[%i] : memref<4xf32>
    affine.store %x, %b[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 4 {
    affine.store %zero, %b[%i] : memref<4xf32>
  }
  // expected-remark @+1 {{[pb-forward-copies] left as is: copy S3: S1 reads A1 before the copy}}
  affine.for %i = 0 to 4 {
    %x = affine.load %t[%i] : memref<4xf32>
    affine.store %x, %out[%i] : memref<4xf32>
  }
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

// Refused: the writer is a reduction into %t (each element updated by
// several instances, each reading what the previous one wrote): writing %b
// instead would make every instance read the initial value of %t.
// CHECK-LABEL: func.func @reduction
// CHECK-COUNT-3: affine.for %{{.*}} = 0 to 4 {
func.func @reduction(%a: memref<4x8xf32>, %b: memref<6xf32>) {
  %t = memref.alloc() : memref<4xf32>
  %low = arith.constant 0xFF800000 : f32
  affine.for %i = 0 to 4 {
    affine.store %low, %t[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 4 {
    affine.for %k = 0 to 8 {
      %m = affine.load %t[%i] : memref<4xf32>
      %x = affine.load %a[%i, %k] : memref<4x8xf32>
      %y = arith.maximumf %m, %x : f32
      affine.store %y, %t[%i] : memref<4xf32>
    }
  }
  // expected-remark @+1 {{[pb-forward-copies] left as is: copy S2: S1 accumulates into A0 (several instances update one element)}}
  affine.for %i = 0 to 4 {
    %x = affine.load %t[%i] : memref<4xf32>
    affine.store %x, %b[%i + 1] : memref<6xf32>
  }
  memref.dealloc %t : memref<4xf32>
  return
}
