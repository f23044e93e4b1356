// RUN: pb-opt %s -split-input-file --pb-interchange="min-trip=8" | FileCheck %s

// Matmul i, j, k becomes i, k, j: the innermost loop now walks C and B contiguously.
// CHECK-LABEL: func.func @matmul
// CHECK: affine.for %[[I:.*]] = 0 to 16 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 24 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 32 {
// CHECK-NEXT: affine.load %{{.*}}[%[[I]], %[[K]]] : memref<16x24xf32>
// CHECK-NEXT: affine.load %{{.*}}[%[[K]], %[[J]]] : memref<24x32xf32>
// CHECK-NEXT: affine.load %{{.*}}[%[[I]], %[[J]]] : memref<16x32xf32>
// CHECK: affine.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]] : memref<16x32xf32>
func.func @matmul(%a: memref<16x24xf32>, %b: memref<24x32xf32>, %c: memref<16x32xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 24 {
        %x = affine.load %a[%i, %k] : memref<16x24xf32>
        %y = affine.load %b[%k, %j] : memref<24x32xf32>
        %z = affine.load %c[%i, %j] : memref<16x32xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<16x32xf32>
      }
    }
  }
  return
}

// -----

// A convolution's output-width loop moves below the three reduction loops.
// CHECK-LABEL: func.func @conv
// CHECK: affine.for %[[F:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[KW:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[W:.*]] = 0 to 30 {
// CHECK-NEXT: affine.load %{{.*}}[%[[C]], %[[W]] + %[[KW]]] : memref<3x32xf32>
// CHECK: affine.store %{{.*}}, %{{.*}}[%[[F]], %[[W]]] : memref<4x30xf32>
func.func @conv(%in: memref<3x32xf32>, %w: memref<4x3x3xf32>, %out: memref<4x30xf32>) {
  affine.for %f = 0 to 4 {
    affine.for %x = 0 to 30 {
      affine.for %c = 0 to 3 {
        affine.for %kw = 0 to 3 {
          %v = affine.load %in[%c, %x + %kw] : memref<3x32xf32>
          %k = affine.load %w[%f, %c, %kw] : memref<4x3x3xf32>
          %o = affine.load %out[%f, %x] : memref<4x30xf32>
          %m = arith.mulf %v, %k : f32
          %s = arith.addf %o, %m : f32
          affine.store %s, %out[%f, %x] : memref<4x30xf32>
        }
      }
    }
  }
  return
}

// -----

// Refused: already contiguous innermost (elementwise), nothing to gain.
// CHECK-LABEL: func.func @elementwise
// CHECK: affine.for %[[I:.*]] = 0 to 16 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 32 {
// CHECK-NEXT: affine.load %{{.*}}[%[[I]], %[[J]]]
func.func @elementwise(%a: memref<16x32xf32>, %b: memref<16x32xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 32 {
      %x = affine.load %a[%i, %j] : memref<16x32xf32>
      affine.store %x, %b[%i, %j] : memref<16x32xf32>
    }
  }
  return
}

// -----

// Column sums: j carries no dependence (each b[j] is its own), so it moves
// innermost; every b[j] still adds the rows in the same order.
// CHECK-LABEL: func.func @column_sums
// CHECK: affine.for %[[I:.*]] = 0 to 16 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 32 {
// CHECK-NEXT: affine.load %{{.*}}[%[[I]], %[[J]]] : memref<16x32xf32>
func.func @column_sums(%a: memref<16x32xf32>, %b: memref<32xf32>) {
  affine.for %j = 0 to 32 {
    affine.for %i = 0 to 16 {
      %x = affine.load %a[%i, %j] : memref<16x32xf32>
      %s = affine.load %b[%j] : memref<32xf32>
      %t = arith.addf %s, %x : f32
      affine.store %t, %b[%j] : memref<32xf32>
    }
  }
  return
}

// -----

// Refused: moving j would let iteration j read what iteration j - 1 wrote (c[i, j] from c[i, j - 1]).
// CHECK-LABEL: func.func @carried
// CHECK: affine.for %[[I:.*]] = 0 to 16 {
// CHECK-NEXT: affine.for %[[J:.*]] = 1 to 32 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 8 {
func.func @carried(%c: memref<16x32xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 1 to 32 {
      affine.for %k = 0 to 8 {
        %x = affine.load %c[%i, %j - 1] : memref<16x32xf32>
        %y = affine.load %c[%i, %j] : memref<16x32xf32>
        %s = arith.addf %x, %y : f32
        affine.store %s, %c[%i, %j] : memref<16x32xf32>
      }
    }
  }
  return
}

// -----

// Refused: the stored index j + k is not injective in j (iterations of j would write the same element).
// CHECK-LABEL: func.func @not_injective
// CHECK: affine.for %[[J:.*]] = 0 to 32 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 8 {
func.func @not_injective(%a: memref<40xf32>, %b: memref<8xf32>) {
  affine.for %j = 0 to 32 {
    affine.for %k = 0 to 8 {
      %x = affine.load %b[%k] : memref<8xf32>
      %y = affine.load %a[%j + %k] : memref<40xf32>
      %s = arith.addf %x, %y : f32
      affine.store %s, %a[%j + %k] : memref<40xf32>
    }
  }
  return
}
