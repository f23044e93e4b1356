// RUN: pb-opt %s -split-input-file --pb-vectorize="width=16 accumulators=1" | FileCheck %s
// RUN: pb-opt %s -split-input-file --pb-vectorize="width=16 reassociate=false" | FileCheck %s --check-prefix=EXACT
// RUN: pb-opt %s -split-input-file --pb-vectorize="width=16" | FileCheck %s --check-prefix=CHAINS

// A row sum through memory (as affine-scalrep leaves linalg's reductions): a
// vector accumulator from the -0.0 splat; after the loop its lanes and the
// old value are combined and stored, then the remainder (8 of 40 columns)
// runs the same way in vectors of 8.
// Not vectorized without reassociate (float sums change rounding).
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME: (%[[IN:.*]]: memref<8x40xf32>, %[[ACC:.*]]: memref<8xf32>)
// CHECK: affine.for %[[R:.*]] = 0 to 8 {
// CHECK-NEXT: %[[ID:.*]] = arith.constant dense<-0.000000e+00> : vector<16xf32>
// CHECK-NEXT: %[[V:.*]] = affine.for %[[K:.*]] = 0 to 32 step 16 iter_args(%[[VA:.*]] = %[[ID]]) -> (vector<16xf32>) {
// CHECK-NEXT:   %[[X:.*]] = affine.vector_load %[[IN]][%[[R]], %[[K]]] : memref<8x40xf32>, vector<16xf32>
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[VA]], %[[X]] : vector<16xf32>
// CHECK-NEXT:   affine.yield %[[S]] : vector<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[OLD:.*]] = affine.load %[[ACC]][%[[R]]] : memref<8xf32>
// CHECK-NEXT: %[[T:.*]] = vector.reduction <add>, %[[V]], %[[OLD]] fastmath<reassoc> : vector<16xf32> into f32
// CHECK-NEXT: affine.store %[[T]], %[[ACC]][%[[R]]] : memref<8xf32>
// CHECK-NEXT: %[[ID8:.*]] = arith.constant dense<-0.000000e+00> : vector<8xf32>
// CHECK-NEXT: %[[V8:.*]] = affine.for %[[J:.*]] = 32 to 40 step 8 iter_args(%{{.*}} = %[[ID8]]) -> (vector<8xf32>) {
// CHECK-NEXT:   affine.vector_load %[[IN]][%[[R]], %[[J]]] : memref<8x40xf32>, vector<8xf32>
// CHECK: %[[OLD8:.*]] = affine.load %[[ACC]][%[[R]]] : memref<8xf32>
// CHECK-NEXT: vector.reduction <add>, %[[V8]], %[[OLD8]] fastmath<reassoc> : vector<8xf32> into f32
// EXACT-LABEL: func.func @row_sum
// EXACT-NOT: vector
// EXACT: return
// CHAINS-LABEL: func.func @row_sum
// CHAINS: %[[V:.*]]:2 = affine.for %{{.*}} = 0 to 32 step 16 iter_args(%[[A0:.*]] = %[[ID:.*]], %[[A1:.*]] = %[[ID]]) -> (vector<16xf32>, vector<16xf32>) {
// CHAINS:   %[[S:.*]] = arith.addf %[[A0]], %{{.*}} : vector<16xf32>
// CHAINS:   affine.yield %[[A1]], %[[S]] : vector<16xf32>, vector<16xf32>
// CHAINS: %[[OLD:.*]] = affine.load
// CHAINS-NEXT: %[[P:.*]] = arith.addf %[[V]]#0, %[[V]]#1 : vector<16xf32>
// CHAINS-NEXT: vector.reduction <add>, %[[P]], %[[OLD]] fastmath<reassoc>
func.func @row_sum(%in: memref<8x40xf32>, %acc: memref<8xf32>) {
  affine.for %r = 0 to 8 {
    affine.for %k = 0 to 40 {
      %x = affine.load %in[%r, %k] : memref<8x40xf32>
      %a = affine.load %acc[%r] : memref<8xf32>
      %s = arith.addf %a, %x : f32
      affine.store %s, %acc[%r] : memref<8xf32>
    }
  }
  return
}

// -----

// A max reduction, exact in any order (so also without reassociate): a -inf
// splat; the trip is a multiple of the width (no remainder). With
// reassociate the vector step is `nsz` (a zero maximum may keep either
// sign); the combination of chains and lanes after the loop stays exact.
// Without it, no fastmath at all. With the default 4 accumulators, each
// extended every 4th iteration.
// CHECK-LABEL: func.func @row_max
// CHECK-SAME: (%[[IN:.*]]: memref<64xf32>, %[[ACC:.*]]: memref<f32>)
// CHECK: %[[ID:.*]] = arith.constant dense<0xFF800000> : vector<16xf32>
// CHECK-NEXT: %[[V:.*]] = affine.for %[[K:.*]] = 0 to 64 step 16 iter_args(%[[VA:.*]] = %[[ID]]) -> (vector<16xf32>) {
// CHECK-NEXT:   %[[X:.*]] = affine.vector_load %[[IN]][%[[K]]] : memref<64xf32>, vector<16xf32>
// CHECK-NEXT:   %[[M:.*]] = arith.maximumf %[[X]], %[[VA]] fastmath<nsz> : vector<16xf32>
// CHECK-NEXT:   affine.yield %[[M]] : vector<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[OLD:.*]] = affine.load %[[ACC]][] : memref<f32>
// CHECK-NEXT: %[[T:.*]] = vector.reduction <maximumf>, %[[V]], %[[OLD]] : vector<16xf32> into f32
// CHECK-NEXT: affine.store %[[T]], %[[ACC]][] : memref<f32>
// CHECK-NEXT: return
// EXACT-LABEL: func.func @row_max
// EXACT-NOT: fastmath
// EXACT: vector.reduction <maximumf>
// EXACT-NOT: fastmath
// EXACT: return
// CHAINS-LABEL: func.func @row_max
// CHAINS: %[[V:.*]]:4 = affine.for {{.*}} iter_args(%[[A0:.*]] = %[[ID:.*]], %[[A1:.*]] = %[[ID]], %[[A2:.*]] = %[[ID]], %[[A3:.*]] = %[[ID]])
// CHAINS:   %[[M:.*]] = arith.maximumf %{{.*}}, %[[A0]] fastmath<nsz> : vector<16xf32>
// CHAINS:   affine.yield %[[A1]], %[[A2]], %[[A3]], %[[M]]
// CHAINS: %[[P:.*]] = arith.maximumf %[[V]]#0, %[[V]]#1 :
// CHAINS-NEXT: %[[Q:.*]] = arith.maximumf %[[V]]#2, %[[V]]#3 :
// CHAINS-NEXT: %[[PQ:.*]] = arith.maximumf %[[P]], %[[Q]] :
// CHAINS-NEXT: vector.reduction <maximumf>, %[[PQ]]
func.func @row_max(%in: memref<64xf32>, %acc: memref<f32>) {
  affine.for %k = 0 to 64 {
    %x = affine.load %in[%k] : memref<64xf32>
    %a = affine.load %acc[] : memref<f32>
    %m = arith.maximumf %x, %a : f32
    affine.store %m, %acc[] : memref<f32>
  }
  return
}

// -----

// A loop-carried sum (iter_args) of squares: the incoming value joins the
// lanes, and the remainder continues from the combined value: 4 more
// elements as a vector of 4, the last one alone.
// CHECK-LABEL: func.func @carried_sum
// CHECK-SAME: (%[[IN:.*]]: memref<37xf32>, %[[INIT:.*]]: f32)
// CHECK: %[[V:.*]] = affine.for %[[K:.*]] = 0 to 32 step 16 iter_args(%[[VA:.*]] = %{{.*}}) -> (vector<16xf32>) {
// CHECK-NEXT:   %[[X:.*]] = affine.vector_load %[[IN]][%[[K]]]
// CHECK-NEXT:   %[[Y:.*]] = arith.mulf %[[X]], %[[X]] : vector<16xf32>
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[VA]], %[[Y]] : vector<16xf32>
// CHECK-NEXT:   affine.yield %[[S]] : vector<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[T:.*]] = vector.reduction <add>, %[[V]], %[[INIT]] fastmath<reassoc> : vector<16xf32> into f32
// CHECK: %[[V4:.*]] = affine.for %{{.*}} = 32 to 36 step 4 iter_args(%{{.*}} = %{{.*}}) -> (vector<4xf32>) {
// CHECK: %[[T4:.*]] = vector.reduction <add>, %[[V4]], %[[T]] fastmath<reassoc> : vector<4xf32> into f32
// CHECK-NEXT: %[[R:.*]] = affine.for %{{.*}} = 36 to 37 iter_args(%{{.*}} = %[[T4]]) -> (f32) {
// CHECK: return %[[R]] : f32
// EXACT-LABEL: func.func @carried_sum
// EXACT-NOT: vector
// EXACT: return
func.func @carried_sum(%in: memref<37xf32>, %init: f32) -> f32 {
  %r = affine.for %k = 0 to 37 iter_args(%a = %init) -> (f32) {
    %x = affine.load %in[%k] : memref<37xf32>
    %y = arith.mulf %x, %x : f32
    %s = arith.addf %a, %y : f32
    affine.yield %s : f32
  }
  return %r : f32
}

// -----

// A loop-carried integer min without remainder: the combined value replaces
// the loop's result; the identity is the largest i32.
// CHECK-LABEL: func.func @carried_min
// CHECK: %[[INIT:.*]] = arith.constant 7 : i32
// CHECK: %[[ID:.*]] = arith.constant dense<2147483647> : vector<16xi32>
// CHECK-NEXT: %[[V:.*]] = affine.for %{{.*}} = 0 to 32 step 16 iter_args(%{{.*}} = %[[ID]]) -> (vector<16xi32>) {
// CHECK: arith.minsi {{.*}} : vector<16xi32>
// CHECK: %[[T:.*]] = vector.reduction <minsi>, %[[V]], %[[INIT]] : vector<16xi32> into i32
// CHECK-NEXT: return %[[T]] : i32
func.func @carried_min(%in: memref<32xi32>) -> i32 {
  %init = arith.constant 7 : i32
  %r = affine.for %k = 0 to 32 iter_args(%a = %init) -> (i32) {
    %x = affine.load %in[%k] : memref<32xi32>
    %m = arith.minsi %a, %x : i32
    affine.yield %m : i32
  }
  return %r : i32
}

// -----

// A contiguous store and a reduction in one loop (exp written out and summed).
// CHECK-LABEL: func.func @exp_and_sum
// CHECK: affine.for %{{.*}} = 0 to 32 step 16 iter_args(%[[VA:.*]] = %{{.*}}) -> (vector<16xf32>) {
// CHECK-NEXT:   %[[X:.*]] = affine.vector_load
// CHECK-NEXT:   %[[E:.*]] = math.exp %[[X]] : vector<16xf32>
// CHECK-NEXT:   affine.vector_store %[[E]]
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[VA]], %[[E]] : vector<16xf32>
// CHECK-NEXT:   affine.yield %[[S]]
// CHECK: vector.reduction <add>
func.func @exp_and_sum(%in: memref<4x32xf32>, %out: memref<4x32xf32>, %sum: memref<4xf32>) {
  affine.for %r = 0 to 4 {
    affine.for %k = 0 to 32 {
      %x = affine.load %in[%r, %k] : memref<4x32xf32>
      %e = math.exp %x : f32
      affine.store %e, %out[%r, %k] : memref<4x32xf32>
      %a = affine.load %sum[%r] : memref<4xf32>
      %s = arith.addf %a, %e : f32
      affine.store %s, %sum[%r] : memref<4xf32>
    }
  }
  return
}

// -----

// Column sums: the reduction loop is outer and the inner loop moves every
// access, the accumulator's included: an elementwise vector loop, exact, so
// also without reassociate.
// CHECK-LABEL: func.func @column_sum
// CHECK: affine.for %[[K:.*]] = 0 to 8 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 32 step 16 {
// CHECK-NEXT:   %[[X:.*]] = affine.vector_load %{{.*}}[%[[K]], %[[J]]]
// CHECK-NEXT:   %[[A:.*]] = affine.vector_load %[[ACC:.*]][%[[J]]]
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[A]], %[[X]] : vector<16xf32>
// CHECK-NEXT:   affine.vector_store %[[S]], %[[ACC]][%[[J]]]
// EXACT-LABEL: func.func @column_sum
// EXACT: arith.addf {{.*}} : vector<16xf32>
func.func @column_sum(%in: memref<8x32xf32>, %acc: memref<32xf32>) {
  affine.for %k = 0 to 8 {
    affine.for %j = 0 to 32 {
      %x = affine.load %in[%k, %j] : memref<8x32xf32>
      %a = affine.load %acc[%j] : memref<32xf32>
      %s = arith.addf %a, %x : f32
      affine.store %s, %acc[%j] : memref<32xf32>
    }
  }
  return
}

// -----

// Refused: subtraction is not associative; an integer sum promising no
// signed overflow (nsw) of its sequential partial sums.
// CHECK-LABEL: func.func @subtract_and_nsw
// CHECK-NOT: vector
// CHECK: return
func.func @subtract_and_nsw(%in: memref<64xf32>, %acc: memref<f32>, %ints: memref<64xi32>, %iacc: memref<i32>) {
  affine.for %k = 0 to 64 {
    %x = affine.load %in[%k] : memref<64xf32>
    %a = affine.load %acc[] : memref<f32>
    %s = arith.subf %a, %x : f32
    affine.store %s, %acc[] : memref<f32>
  }
  affine.for %k = 0 to 64 {
    %x = affine.load %ints[%k] : memref<64xi32>
    %a = affine.load %iacc[] : memref<i32>
    %s = arith.addi %a, %x overflow<nsw> : i32
    affine.store %s, %iacc[] : memref<i32>
  }
  return
}

// -----

// Refused: the running sum is also stored elsewhere (a prefix sum); an
// accumulator whose buffer is also read at another address.
// CHECK-LABEL: func.func @running_values
// CHECK-NOT: vector
// CHECK: return
func.func @running_values(%in: memref<64xf32>, %acc: memref<f32>, %out: memref<64xf32>, %acc2: memref<2xf32>) {
  affine.for %k = 0 to 64 {
    %x = affine.load %in[%k] : memref<64xf32>
    %a = affine.load %acc[] : memref<f32>
    %s = arith.addf %a, %x : f32
    affine.store %s, %acc[] : memref<f32>
    affine.store %s, %out[%k] : memref<64xf32>
  }
  affine.for %k = 0 to 64 {
    %x = affine.load %in[%k] : memref<64xf32>
    %a = affine.load %acc2[0] : memref<2xf32>
    %b = affine.load %acc2[1] : memref<2xf32>
    %y = arith.mulf %x, %b : f32
    %s = arith.addf %a, %y : f32
    affine.store %s, %acc2[0] : memref<2xf32>
  }
  return
}

// -----

// Refused: a loop-carried value that is not a reduction (the last element).
// CHECK-LABEL: func.func @last
// CHECK-NOT: vector
// CHECK: return
func.func @last(%in: memref<64xf32>, %init: f32) -> f32 {
  %r = affine.for %k = 0 to 64 iter_args(%a = %init) -> (f32) {
    %x = affine.load %in[%k] : memref<64xf32>
    %m = arith.maximumf %a, %x : f32
    affine.yield %x : f32
  }
  return %r : f32
}

// -----

// Division by a loop-invariant value (a softmax's normalization by its row
// sum): with reassociate the vector division is marked `arcp`, so LLVM
// multiplies by the reciprocal computed once; a division by a varying
// value is left as is; without reassociate nothing is marked.
// CHECK-LABEL: func.func @normalize
// CHECK: affine.for %{{.*}} = 0 to 32 step 16 {
// CHECK:   arith.divf %{{.*}}, %{{.*}} fastmath<arcp> : vector<16xf32>
// CHECK:   arith.divf %{{[0-9]+}}, %{{[0-9]+}} : vector<16xf32>
// CHECK-NOT: fastmath
// CHECK: return
// EXACT-LABEL: func.func @normalize
// EXACT-NOT: arcp
// EXACT: return
func.func @normalize(%x: memref<32xf32>, %y: memref<32xf32>, %s: memref<1xf32>, %out: memref<32xf32>) {
  affine.for %i = 0 to 32 {
    %v = affine.load %x[%i] : memref<32xf32>
    %w = affine.load %y[%i] : memref<32xf32>
    %d = affine.load %s[0] : memref<1xf32>
    %q = arith.divf %v, %d : f32
    %r = arith.divf %q, %w : f32
    affine.store %r, %out[%i] : memref<32xf32>
  }
  return
}

// -----

// ...but not where the quotient is floored (x // y): x * (1/y) may be one
// unit below an exact integer quotient, and its floor one less.
// CHECK-LABEL: func.func @floor_divide
// CHECK: affine.for %{{.*}} = 0 to 32 step 16 {
// CHECK:   arith.divf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-NOT: arcp
// CHECK: return
func.func @floor_divide(%x: memref<32xf32>, %s: memref<1xf32>, %out: memref<32xf32>) {
  affine.for %i = 0 to 32 {
    %v = affine.load %x[%i] : memref<32xf32>
    %d = affine.load %s[0] : memref<1xf32>
    %q = arith.divf %v, %d : f32
    %f = math.floor %q : f32
    affine.store %f, %out[%i] : memref<32xf32>
  }
  return
}

// -----

// An "all" flag over a row (an i1 `andi` reduction through memory, as the
// decomposition of scaled_dot_product_attention checks for fully masked
// rows): a `true` splat, and-ed lanes.
// CHECK-LABEL: func.func @all_minus_infinity
// CHECK: %[[ID:.*]] = arith.constant dense<true> : vector<16xi1>
// CHECK: affine.for %{{.*}} = 0 to 64 step 16 iter_args(%[[A:.*]] = %[[ID]]) -> (vector<16xi1>)
// CHECK:   %[[C:.*]] = arith.cmpf oeq, %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK:   arith.andi %[[C]], %[[A]] : vector<16xi1>
// CHECK: vector.reduction <and>, %{{.*}}, %{{.*}} : vector<16xi1> into i1
func.func @all_minus_infinity(%in: memref<64xf32>, %flag: memref<i1>) {
  %ninf = arith.constant 0xFF800000 : f32
  affine.for %k = 0 to 64 {
    %x = affine.load %in[%k] : memref<64xf32>
    %f = affine.load %flag[] : memref<i1>
    %c = arith.cmpf oeq, %x, %ninf : f32
    %a = arith.andi %c, %f : i1
    affine.store %a, %flag[] : memref<i1>
  }
  return
}
