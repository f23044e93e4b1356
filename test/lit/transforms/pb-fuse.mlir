// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{cores=2 cache-bytes=65536 report=true},canonicalize))' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{cores=1 cache-bytes=65536},canonicalize))' %s | FileCheck %s --check-prefix=SERIAL

// On one core the tiles run in a sequential loop sharing one local buffer,
// allocated before it (an alloca inside a sequential loop would take new
// stack space every iteration).
// SERIAL-LABEL: func.func @blur
// SERIAL-NEXT: memref.alloca() {alignment = 64 : i64} : memref<{{[0-9]+}}x57xf32>
// SERIAL-NEXT: affine.for
// SERIAL-NOT: memref.alloca
// SERIAL-LABEL: func.func @escaping

// A 5-tap blur along columns into a temporary, then along rows: the
// temporary is contracted to a tile of 36 rows (32 + a halo of 4) computed
// per row tile; row tiles run in parallel; 57 rows do not divide by 32.
// Recomputation: 2 tiles x 36 rows of the 61-row temporary = 18%.
// REPORT-DAG: note: [pb-fuse] fused producers S0 into consumers S1 of A3: row tile 32 (2 parallel tiles), tile-local A2[36x57] = 8 KiB (budget 64 KiB), recomputation 18.0%

// CHECK-LABEL: func.func @blur
// CHECK-NOT: memref.alloc()
// (affine.parallel is an allocation scope: canonicalization drops the
// memref.alloca_scope the pass puts around the tile.)
// CHECK: affine.parallel (%[[T:.*]]) = (0) to (2) {
// CHECK-NEXT: %[[L:.*]] = memref.alloca() {alignment = 64 : i64} : memref<36x57xf32>
// The producer runs on the tile's rows plus the halo, clipped at the bottom:
// CHECK: affine.for %[[I:.*]] = #{{.*}}(%[[T]]) to min #{{.*}}(%[[T]]) {
// The contiguous loop (j) is put innermost:
// CHECK:   affine.for %[[K:.*]] = 0 to 5 {
// CHECK:   affine.for %[[J:.*]] = 0 to 57 {
// CHECK:     affine.load %arg0[%[[I]], %[[J]] + %[[K]]]
// CHECK:     affine.store %{{.*}}, %[[L]][%[[T]] * -32 + %[[I]], %[[J]]]
// Then the consumer on the tile, reading the local buffer:
// CHECK: affine.for %[[I2:.*]] = #{{.*}}(%[[T]]) to min #{{.*}}(%[[T]]) {
// CHECK:   affine.for %[[K2:.*]] = 0 to 5 {
// CHECK:   affine.for %[[J2:.*]] = 0 to 57 {
// CHECK:     affine.load %[[L]][%[[T]] * -32 + %[[I2]] + %[[K2]], %[[J2]]]
// CHECK:     affine.store %{{.*}}, %arg1[%[[I2]], %[[J2]]]
// CHECK-NOT: memref.dealloc
func.func @blur(%in: memref<61x61xf32>, %out: memref<57x57xf32>, %w: memref<5xf32>) {
  %t = memref.alloc() : memref<61x57xf32>
  affine.for %i = 0 to 61 {
    affine.for %j = 0 to 57 {
      affine.for %k = 0 to 5 {
        %x = affine.load %in[%i, %j + %k] : memref<61x61xf32>
        %c = affine.load %w[%k] : memref<5xf32>
        %m = arith.mulf %x, %c : f32
        affine.store %m, %t[%i, %j] : memref<61x57xf32>
      }
    }
  }
  affine.for %i = 0 to 57 {
    affine.for %j = 0 to 57 {
      affine.for %k = 0 to 5 {
        %x = affine.load %t[%i + %k, %j] : memref<61x57xf32>
        %c = affine.load %w[%k] : memref<5xf32>
        %m = arith.mulf %x, %c : f32
        affine.store %m, %out[%i, %j] : memref<57x57xf32>
      }
    }
  }
  memref.dealloc %t : memref<61x57xf32>
  return
}

// Refused: the temporary is read after the nests, so it cannot shrink.
// REPORT-DAG: note: [pb-fuse] not fused: 2 arrays outlive the loop nests (fusion needs exactly one)
// CHECK-LABEL: func.func @escaping
// CHECK: memref.alloc() : memref<8x8xf32>
// CHECK-NOT: affine.parallel
func.func @escaping(%in: memref<8x8xf32>, %out: memref<8x8xf32>) -> f32 {
  %t = memref.alloc() : memref<8x8xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %x = affine.load %in[%i, %j] : memref<8x8xf32>
      affine.store %x, %t[%i, %j] : memref<8x8xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %x = affine.load %t[%i, %j] : memref<8x8xf32>
      affine.store %x, %out[%i, %j] : memref<8x8xf32>
    }
  }
  %c0 = arith.constant 0 : index
  %v = memref.load %t[%c0, %c0] : memref<8x8xf32>
  return %v : f32
}

// Refused: the consumer reads the output where another instance writes it
// (out[i][j] depends on out[i-1][j]): tiles would not be independent.
// REPORT-DAG: note: [pb-fuse] not fused: S1 reads A2 at another element than it writes
// CHECK-LABEL: func.func @recurrence
// CHECK: memref.alloc() : memref<8x8xf32>
// CHECK-NOT: affine.parallel
func.func @recurrence(%in: memref<8x8xf32>, %out: memref<9x8xf32>) {
  %t = memref.alloc() : memref<8x8xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %x = affine.load %in[%i, %j] : memref<8x8xf32>
      affine.store %x, %t[%i, %j] : memref<8x8xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %x = affine.load %t[%i, %j] : memref<8x8xf32>
      %p = affine.load %out[%i, %j] : memref<9x8xf32>
      %s = arith.addf %x, %p : f32
      affine.store %s, %out[%i + 1, %j] : memref<9x8xf32>
    }
  }
  memref.dealloc %t : memref<8x8xf32>
  return
}
