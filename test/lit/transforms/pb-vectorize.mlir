// RUN: pb-opt %s -split-input-file --pb-vectorize="width=16" | FileCheck %s

// Contiguous loads and stores, a uniform operand broadcast; the remaining
// 4 iterations as one vector of 4.
// CHECK-LABEL: func.func @scale
// CHECK-SAME: (%[[A:.*]]: memref<37xf32>, %[[B:.*]]: memref<37xf32>, %[[C:.*]]: f32)
// CHECK: affine.for %[[I:.*]] = 0 to 32 step 16 {
// CHECK-NEXT:   %[[X:.*]] = affine.vector_load %[[A]][%[[I]] + 1] : memref<37xf32>, vector<16xf32>
// CHECK-NEXT:   %[[CV:.*]] = vector.broadcast %[[C]] : f32 to vector<16xf32>
// CHECK-NEXT:   %[[Y:.*]] = arith.mulf %[[X]], %[[CV]] : vector<16xf32>
// CHECK-NEXT:   affine.vector_store %[[Y]], %[[B]][%[[I]]] : memref<37xf32>, vector<16xf32>
// CHECK: affine.for %[[J:.*]] = 32 to 36 step 4 {
// CHECK-NEXT:   affine.vector_load %[[A]][%[[J]] + 1] : memref<37xf32>, vector<4xf32>
func.func @scale(%a: memref<37xf32>, %b: memref<37xf32>, %c: f32) {
  affine.for %i = 0 to 36 {
    %x = affine.load %a[%i + 1] : memref<37xf32>
    %y = arith.mulf %x, %c : f32
    affine.store %y, %b[%i] : memref<37xf32>
  }
  return
}

// -----

// Inner dimension of a 2-D access; outer index and a row-uniform load stay scalar.
// An exact multiple of the width leaves no remainder loop.
// CHECK-LABEL: func.func @rows
// CHECK: affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 32 step 16 {
// CHECK-NEXT: %[[S:.*]] = affine.load %{{.*}}[%[[I]]] : memref<4xf32>
// CHECK-NEXT: %[[V:.*]] = affine.vector_load %{{.*}}[%[[I]], %[[J]]] : memref<4x32xf32>, vector<16xf32>
// CHECK-NEXT: %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<16xf32>
// CHECK-NEXT: %{{.*}} = arith.subf %[[V]], %[[SV]] : vector<16xf32>
// CHECK-NOT: affine.for
func.func @rows(%m: memref<4x32xf32>, %mean: memref<4xf32>, %out: memref<4x32xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 32 {
      %s = affine.load %mean[%i] : memref<4xf32>
      %v = affine.load %m[%i, %j] : memref<4x32xf32>
      %d = arith.subf %v, %s : f32
      affine.store %d, %out[%i, %j] : memref<4x32xf32>
    }
  }
  return
}

// -----

// Refused: a store that does not move with the loop and is not a reduction
// (subtraction is not associative). Reductions: pb-vectorize-reduction.mlir.
// CHECK-LABEL: func.func @invariant_store
// CHECK-NOT: vector
func.func @invariant_store(%a: memref<64xf32>, %acc: memref<f32>) {
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xf32>
    %s = affine.load %acc[] : memref<f32>
    %t = arith.subf %s, %x : f32
    affine.store %t, %acc[] : memref<f32>
  }
  return
}

// -----

// Refused: a dependence carried by the loop (a[i + 1] = a[i] * 2).
// CHECK-LABEL: func.func @carried
// CHECK-NOT: vector
func.func @carried(%a: memref<65xf32>) {
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<65xf32>
    %y = arith.mulf %x, %two : f32
    affine.store %y, %a[%i + 1] : memref<65xf32>
  }
  return
}

// -----

// Refused: a load of stride 3 would need a gather (stride 2 is two loads
// and a shuffle: pb-vectorize-stride2-exec.mlir).
// CHECK-LABEL: func.func @strided
// CHECK-NOT: vector
func.func @strided(%a: memref<192xf32>, %b: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i * 3] : memref<192xf32>
    affine.store %x, %b[%i] : memref<64xf32>
  }
  return
}

// -----

// Fewer iterations than lanes (8 of 16): vectors of 8. A single
// iteration is left alone.
// CHECK-LABEL: func.func @short
// CHECK: affine.for %{{.*}} = 0 to 8 step 8 {
// CHECK-NEXT: affine.vector_load %{{.*}} : memref<64xf32>, vector<8xf32>
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT: affine.load
func.func @short(%a: memref<64xf32>, %b: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %x = affine.load %a[%i] : memref<64xf32>
    affine.store %x, %b[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 1 {
    %x = affine.load %a[%i] : memref<64xf32>
    affine.store %x, %b[%i] : memref<8xf32>
  }
  return
}

// -----

// Refused: a store to a view that may overlap a loaded buffer.
// CHECK-LABEL: func.func @view
// CHECK-NOT: vector
func.func @view(%a: memref<64xf32>) {
  %v = memref.subview %a[1] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1], offset: 1>>
  affine.for %i = 0 to 32 {
    %x = affine.load %a[%i] : memref<64xf32>
    affine.store %x, %v[%i] : memref<32xf32, strided<[1], offset: 1>>
  }
  return
}

// -----

// In place (the same element read and written) is fine.
// CHECK-LABEL: func.func @in_place
// CHECK: affine.vector_load %[[A:.*]][%[[I:.*]]] : memref<32xi32>, vector<16xi32>
// CHECK: arith.addi {{.*}} : vector<16xi32>
// CHECK: affine.vector_store {{.*}}, %[[A]][%[[I]]] : memref<32xi32>, vector<16xi32>
func.func @in_place(%a: memref<32xi32>) {
  %one = arith.constant 1 : i32
  affine.for %i = 0 to 32 {
    %x = affine.load %a[%i] : memref<32xi32>
    %y = arith.addi %x, %one : i32
    affine.store %y, %a[%i] : memref<32xi32>
  }
  return
}

// -----

// Refused: bools in memory are a byte each, but vector<16xi1> is packed into
// 16 bits; a vector load would read the bits of two bytes (a sum of 128 bools
// gave 6 instead of 70).
// CHECK-LABEL: func.func @bool_sum
// CHECK-NOT: vector
func.func @bool_sum(%a: memref<128xi1>, %acc: memref<i64>) {
  affine.for %i = 0 to 128 {
    %b = affine.load %a[%i] : memref<128xi1>
    %x = arith.extui %b : i1 to i64
    %s = affine.load %acc[] : memref<i64>
    %t = arith.addi %s, %x : i64
    affine.store %t, %acc[] : memref<i64>
  }
  return
}

// -----

// Refused: a contiguous store of bools (a comparison's result).
// CHECK-LABEL: func.func @bool_store
// CHECK-NOT: vector
func.func @bool_store(%a: memref<64xf32>, %b: memref<64xi1>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xf32>
    %c = arith.cmpf ogt, %x, %zero : f32
    affine.store %c, %b[%i] : memref<64xi1>
  }
  return
}

// -----

// Bools computed in registers vectorize: only memory holds them a byte each.
// CHECK-LABEL: func.func @bool_in_registers
// CHECK: arith.cmpf ogt, %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: arith.select %{{.*}} : vector<16xi1>, vector<16xf32>
func.func @bool_in_registers(%a: memref<64xf32>, %b: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xf32>
    %c = arith.cmpf ogt, %x, %zero : f32
    %y = arith.select %c, %x, %zero : f32
    affine.store %y, %b[%i] : memref<64xf32>
  }
  return
}

// -----

// A pooled N x C x 1 x 1 array read along C (a squeeze-excitation's 1x1
// convolution): the elements are consecutive, and the vector loads go
// through a view without the trailing unit dimensions. The accumulator at
// [n, o, 0, 0] is a reduction.
// CHECK-LABEL: func.func @unit_trailing_dims
// CHECK: %[[X:.*]] = memref.collapse_shape %arg0 {{\[}}[0], [1, 2, 3]] : memref<8x72x1x1xf32> into memref<8x72xf32>
// CHECK: %[[W:.*]] = memref.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : memref<24x72x1x1xf32> into memref<24x72xf32>
// CHECK: affine.for %[[K:.*]] = 0 to 64 step 16
// CHECK: affine.vector_load %[[X]][%{{.*}}, %[[K]]] : memref<8x72xf32>, vector<16xf32>
// CHECK: affine.vector_load %[[W]][%{{.*}}, %[[K]]] : memref<24x72xf32>, vector<16xf32>
// CHECK: vector.reduction <add>
func.func @unit_trailing_dims(%x: memref<8x72x1x1xf32>, %w: memref<24x72x1x1xf32>, %c: memref<8x24x1x1xf32>) {
  affine.for %n = 0 to 8 {
    affine.for %o = 0 to 24 {
      affine.for %k = 0 to 72 {
        %0 = affine.load %x[%n, %k, 0, 0] : memref<8x72x1x1xf32>
        %1 = affine.load %w[%o, %k, 0, 0] : memref<24x72x1x1xf32>
        %2 = affine.load %c[%n, %o, 0, 0] : memref<8x24x1x1xf32>
        %3 = arith.mulf %0, %1 : f32
        %4 = arith.addf %2, %3 : f32
        affine.store %4, %c[%n, %o, 0, 0] : memref<8x24x1x1xf32>
      }
    }
  }
  return
}

// -----

// A gather: indices computed from loaded data address a 2-D table. The
// index arithmetic runs on vectors of indices, the row-major offset in 32
// bits, and one vector.gather reads the lanes from the table as one
// dimension.
// CHECK-LABEL: func.func @gather
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1]] : memref<10x20xf32> into memref<200xf32>
// CHECK: affine.for %{{.*}} = 0 to 32 step 16 {
// CHECK:   %[[ID:.*]] = affine.vector_load %arg1[%{{.*}}] : memref<32xi64>, vector<16xi64>
// CHECK:   %[[ROW:.*]] = arith.index_cast %[[ID]] : vector<16xi64> to vector<16xindex>
// CHECK:   arith.minsi %{{.*}} : vector<16xindex>
// CHECK:   arith.index_cast %{{.*}} : vector<16xindex> to vector<16xi32>
// CHECK:   arith.muli %{{.*}} : vector<16xi32>
// CHECK:   %[[OFF:.*]] = arith.addi %{{.*}} : vector<16xi32>
// CHECK:   vector.gather %[[FLAT]][%{{.*}}] [%[[OFF]]], %{{.*}}, %{{.*}} : memref<200xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
func.func @gather(%table: memref<10x20xf32>, %ids: memref<32xi64>, %out: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c9 = arith.constant 9 : index
  %c5 = arith.constant 5 : index
  affine.for %i = 0 to 32 {
    %id = affine.load %ids[%i] : memref<32xi64>
    %row = arith.index_cast %id : i64 to index
    %lo = arith.maxsi %row, %c0 : index
    %r = arith.minsi %lo, %c9 : index
    %v = memref.load %table[%r, %c5] : memref<10x20xf32>
    affine.store %v, %out[%i] : memref<32xf32>
  }
  return
}

// -----

// A gather whose indices do not move with the loop is a uniform scalar load.
// CHECK-LABEL: func.func @uniform_gather
// CHECK: affine.for %{{.*}} = 0 to 32 step 16 {
// CHECK:   memref.load %arg0[%arg2] : memref<10xf32>
// CHECK:   vector.broadcast
// CHECK-NOT: vector.gather
func.func @uniform_gather(%table: memref<10xf32>, %out: memref<32xf32>, %k: index) {
  affine.for %i = 0 to 32 {
    %v = memref.load %table[%k] : memref<10xf32>
    affine.store %v, %out[%i] : memref<32xf32>
  }
  return
}

// -----

// Refused: a gather from the array the loop stores into (another
// iteration's element), and a gather from a table of dynamic shape (no
// static row-major offsets).
// CHECK-LABEL: func.func @gather_refusals
// CHECK-NOT: vector
func.func @gather_refusals(%a: memref<64xf32>, %ids: memref<64xi64>, %t: memref<?x8xf32>, %out: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  affine.for %i = 0 to 64 {
    %id = affine.load %ids[%i] : memref<64xi64>
    %k = arith.index_cast %id : i64 to index
    %v = memref.load %a[%k] : memref<64xf32>
    affine.store %v, %a[%i] : memref<64xf32>
  }
  affine.for %i = 0 to 64 {
    %id = affine.load %ids[%i] : memref<64xi64>
    %k = arith.index_cast %id : i64 to index
    %v = memref.load %t[%k, %c1] : memref<?x8xf32>
    affine.store %v, %out[%i] : memref<64xf32>
  }
  return
}

// -----

// The moving index inside a nested sum with symbols on both sides (what a
// promoted unit loop leaves: `(i + s0) + s1` once parsed) is still
// contiguous.
// CHECK-LABEL: func.func @nested_sum
// CHECK: affine.for %[[I:.*]] = 0 to 32 step 16 {
// CHECK-NEXT: affine.vector_load %{{.*}}[%[[I]] + symbol(%{{.*}}) + symbol(%{{.*}})] : memref<40xf32>, vector<16xf32>
// CHECK: affine.vector_store
func.func @nested_sum(%a: memref<40xf32>, %b: memref<40xf32>, %s: index, %t: index) {
  affine.for %i = 0 to 32 {
    %x = affine.load %a[symbol(%s) + %i + symbol(%t)] : memref<40xf32>
    %y = arith.addf %x, %x : f32
    affine.store %y, %b[%i] : memref<40xf32>
  }
  return
}
