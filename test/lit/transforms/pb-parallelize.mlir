// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-parallelize{report=true}))' %s --split-input-file 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// Upstream's `affine-parallelize{max-nested=1}` chooses the same loops in
// every case here but @vector_overlap, which it makes parallel: its
// dependence test reads a vector access as one element.

// Rows are independent; each row's sum is carried by the inner loop. The
// outer loop becomes parallel, the inner one stays.
// CHECK-LABEL: func.func @row_sums
// CHECK: affine.parallel (%[[I:.*]]) = (0) to (8) {
// CHECK:   affine.for %{{.*}} = 0 to 16 {
func.func @row_sums(%a: memref<8x16xf32>, %s: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      %x = affine.load %a[%i, %j] : memref<8x16xf32>
      %t = affine.load %s[%i] : memref<8xf32>
      %y = arith.addf %t, %x : f32
      affine.store %y, %s[%i] : memref<8xf32>
    }
  }
  return
}

// -----

// A recurrence along the outer loop (row i reads row i - 1): the inner loop
// is the outermost parallel one.
// CHECK-LABEL: func.func @recurrence
// CHECK: affine.for %[[I:.*]] = 1 to 8 {
// CHECK:   affine.parallel (%{{.*}}) = (0) to (16) {
func.func @recurrence(%a: memref<8x16xf32>) {
  affine.for %i = 1 to 8 {
    affine.for %j = 0 to 16 {
      %x = affine.load %a[%i - 1, %j] : memref<8x16xf32>
      %y = arith.mulf %x, %x : f32
      affine.store %y, %a[%i, %j] : memref<8x16xf32>
    }
  }
  return
}

// -----

// Vector accesses of 16 lanes: iteration j writes elements 16j..16j+15 and
// reads 16j+1..16j+16, which iteration j+1 writes: carried. With a stride of
// 32 (below) the lanes never meet: parallel.
// CHECK-LABEL: func.func @vector_overlap
// CHECK-NOT: affine.parallel
// CHECK: return
func.func @vector_overlap(%a: memref<272xf32>) {
  affine.for %j = 0 to 16 {
    %x = affine.vector_load %a[%j * 16 + 1] : memref<272xf32>, vector<16xf32>
    affine.vector_store %x, %a[%j * 16] : memref<272xf32>, vector<16xf32>
  }
  return
}

// CHECK-LABEL: func.func @vector_apart
// CHECK: affine.parallel
func.func @vector_apart(%a: memref<544xf32>) {
  affine.for %j = 0 to 16 {
    %x = affine.vector_load %a[%j * 32 + 16] : memref<544xf32>, vector<16xf32>
    affine.vector_store %x, %a[%j * 32] : memref<544xf32>, vector<16xf32>
  }
  return
}

// -----

// A nest the model cannot read as a whole (a parallel loop inside, as
// pb-register-tile makes): the loops directly inside are analysed alone.
// REPORT: remark: [pb-parallelize] its inner loops analysed alone: 'affine.parallel' in a loop body
// CHECK-LABEL: func.func @inner_alone
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK:   affine.parallel (%{{.*}}) = (0) to (8) {
// CHECK:   affine.parallel (%{{.*}}) = (0) to (2) {
func.func @inner_alone(%a: memref<4x8xf32>, %b: memref<4x2xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %x = affine.load %a[%i, %j] : memref<4x8xf32>
      %y = arith.addf %x, %x : f32
      affine.store %y, %a[%i, %j] : memref<4x8xf32>
    }
    affine.parallel (%k) = (0) to (2) {
      %x = affine.load %b[%i, %k] : memref<4x2xf32>
      %y = arith.addf %x, %x : f32
      affine.store %y, %b[%i, %k] : memref<4x2xf32>
    }
  }
  return
}

// -----

// A loop carrying a value (iter_args) stays sequential.
// CHECK-LABEL: func.func @carried_value
// CHECK-NOT: affine.parallel
// CHECK: return
func.func @carried_value(%a: memref<16xf32>, %out: memref<1xf32>) {
  %zero = arith.constant 0.0 : f32
  %sum = affine.for %j = 0 to 16 iter_args(%acc = %zero) -> (f32) {
    %x = affine.load %a[%j] : memref<16xf32>
    %y = arith.addf %acc, %x : f32
    affine.yield %y : f32
  }
  affine.store %sum, %out[0] : memref<1xf32>
  return
}

// -----

// Around such a loop, the nest is analysed whole: each row's sum kept in a
// register (pb-accumulate-tile's form) leaves the rows parallel, the
// reduction sequential.
// CHECK-LABEL: func.func @rows_of_carried_sums
// CHECK: affine.parallel (%[[I:.*]]) = (0) to (8)
// CHECK-NEXT: %{{.*}} = affine.for %{{.*}} = 0 to 16 iter_args
// CHECK: affine.store %{{.*}}, %{{.*}}[%[[I]]]
func.func @rows_of_carried_sums(%a: memref<8x16xf32>, %out: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    %sum = affine.for %j = 0 to 16 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %j] : memref<8x16xf32>
      %y = arith.addf %acc, %x : f32
      affine.yield %y : f32
    }
    affine.store %sum, %out[%i] : memref<8xf32>
  }
  return
}

// -----

// The same with every row's sum stored into one element: the rows depend
// on each other (a write after write), the loop stays sequential.
// CHECK-LABEL: func.func @rows_of_carried_sums_one_output
// CHECK-NOT: affine.parallel
// CHECK: return
func.func @rows_of_carried_sums_one_output(%a: memref<8x16xf32>, %out: memref<1xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    %sum = affine.for %j = 0 to 16 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %j] : memref<8x16xf32>
      %y = arith.addf %acc, %x : f32
      affine.yield %y : f32
    }
    affine.store %sum, %out[0] : memref<1xf32>
  }
  return
}

// -----

// A buffer allocated in the loop body is a new one per iteration: it
// carries nothing between iterations of that loop (the outer loop is
// parallel), while the inner loops reading it reversed are analysed with it.
// CHECK-LABEL: func.func @local_buffer
// CHECK: affine.parallel (%{{.*}}) = (0) to (8) {
// CHECK:   memref.alloca
// CHECK:   affine.for
// CHECK:   affine.for
func.func @local_buffer(%a: memref<8x16xf32>, %b: memref<8x16xf32>) {
  affine.for %i = 0 to 8 {
    %t = memref.alloca() : memref<16xf32>
    affine.for %j = 0 to 16 {
      %x = affine.load %a[%i, %j] : memref<8x16xf32>
      affine.store %x, %t[%j] : memref<16xf32>
    }
    affine.for %j = 0 to 16 {
      %x = affine.load %t[15 - %j] : memref<16xf32>
      affine.store %x, %b[%i, %j] : memref<8x16xf32>
    }
  }
  return
}

// The same buffer updated along the inner loop: that loop stays sequential.
// CHECK-LABEL: func.func @local_recurrence
// CHECK: affine.parallel (%{{.*}}) = (0) to (8) {
// CHECK:   affine.for %{{.*}} = 1 to 16 {
func.func @local_recurrence(%a: memref<8x16xf32>) {
  affine.for %i = 0 to 8 {
    %t = memref.alloca() : memref<16xf32>
    affine.for %j = 1 to 16 {
      %x = affine.load %t[%j - 1] : memref<16xf32>
      affine.store %x, %t[%j] : memref<16xf32>
      affine.store %x, %a[%i, %j] : memref<8x16xf32>
    }
  }
  return
}

// -----

// A gather (`memref.load` at data-dependent indices) reads any element of
// its table: a loop that writes only other arrays is parallel.
// CHECK-LABEL: func.func @gather_rows
// CHECK: affine.parallel (%{{.*}}) = (0) to (16) {
// CHECK:   affine.for %{{.*}} = 0 to 32 {
// CHECK:     memref.load
func.func @gather_rows(%table: memref<100x8xf32>, %ids: memref<16x32xi64>, %out: memref<16x32xf32>) {
  %c3 = arith.constant 3 : index
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 32 {
      %id = affine.load %ids[%i, %j] : memref<16x32xi64>
      %row = arith.index_cast %id : i64 to index
      %v = memref.load %table[%row, %c3] : memref<100x8xf32>
      affine.store %v, %out[%i, %j] : memref<16x32xf32>
    }
  }
  return
}

// -----

// A gather from the array the loop writes may read an element another
// iteration wrote: the loop stays sequential.
// CHECK-LABEL: func.func @gather_from_written
// CHECK-NOT: affine.parallel
// CHECK: affine.for
func.func @gather_from_written(%a: memref<64xf32>, %ids: memref<64xi64>) {
  affine.for %i = 0 to 64 {
    %id = affine.load %ids[%i] : memref<64xi64>
    %k = arith.index_cast %id : i64 to index
    %v = memref.load %a[%k] : memref<64xf32>
    %w = arith.addf %v, %v : f32
    affine.store %w, %a[%i] : memref<64xf32>
  }
  return
}
