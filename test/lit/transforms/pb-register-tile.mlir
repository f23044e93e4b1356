// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-register-tile{width=16 registers=32 l1-bytes=49152 l1-ways=12 l2-bytes=1048576 cores=2 report=true}),canonicalize)' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-register-tile{width=16 registers=32 l1-bytes=49152 l1-ways=12 l2-bytes=1048576 cores=1}),canonicalize)' %s | FileCheck %s --check-prefix=SERIAL
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-register-tile{width=8 registers=16 l1-bytes=32768 l2-bytes=524288 cores=2 report=true}),canonicalize)' %s 2>%t.narrow | FileCheck %s --check-prefix=NARROW
// RUN: FileCheck %s --check-prefix=NREPORT < %t.narrow
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-register-tile{width=16 registers=32 l1-bytes=49152 l1-ways=12 l2-bytes=1048576 cores=1}))' %s | FileCheck %s --check-prefix=SCOPE
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-register-tile{width=16 registers=32 l1-bytes=49152 l1-ways=2 l2-bytes=1048576 cores=2}),canonicalize)' %s | FileCheck %s --check-prefix=TWOWAY

// On one core the row blocks are a sequential loop and the packed buffers
// are allocated once, before it (never inside a sequential loop, where each
// iteration would take new stack space).
// Each kernel's stack buffers live in an allocation scope of their own
// (freed when it ends: the buffers of all the kernels of a 12-layer model
// at once overflowed the stack).
// SCOPE-LABEL: func.func @matmul
// SCOPE-NEXT: memref.alloca_scope {
// SCOPE: memref.alloca() {alignment = 64 : i64} : memref<{{[0-9]+}}x40x6xf32>
// SERIAL-LABEL: func.func @matmul
// SERIAL-NEXT: arith.constant 0.000000e+00 : f32
// SERIAL-NEXT: arith.constant dense<0.000000e+00> : vector<16xf32>
// SERIAL-NEXT: memref.alloca() {alignment = 64 : i64} : memref<{{[0-9]+}}x40x6xf32>
// SERIAL-NEXT: memref.alloca() {alignment = 64 : i64} : memref<40x64xf32>
// SERIAL-NEXT: memref.alloca() {alignment = 64 : i64} : memref<6x64xf32>
// SERIAL-NEXT: affine.for %{{.*}} = 0 to 98 step {{[0-9]+}} {
// SERIAL-NOT: memref.alloca
// SERIAL-LABEL: func.func @narrow

// C[i][j] += A[i][k] * B[k][j] on 98x300x40: register tiles of 6 rows x 64
// columns (4 vectors) whose accumulators are carried through the k loop in
// registers. 98 rows are too few to share among the cores in row blocks
// (each block would pack all of B again): all rows form one block (17
// register tiles, the 2-row tail included) and the column panels run in
// parallel, each thread packing its own B micro-panels. A's rows are 4 KiB
// apart (read in place, the six of a register tile would crowd one L1
// set): all of A (16 KiB, within half of L2) is packed in register-tile
// order first, in a parallel loop of its own, so that the panels' parallel
// loop runs every reduction block (one region per call, not two per
// block). Rows 96..98
// (2 rows) and columns 256..300 (44 columns) are tails computed by smaller
// register tiles of the same kernel: 2-row tiles in the last row block, and
// one column panel packed with zero padding whose sums reach C through a
// tile-local buffer, column by column.
// REPORT-DAG: remark: [pb-register-tile] register tile 6x64 (6 rows x 4 vectors of 16; 24 accumulators), cache tile 102 rows x 40 reductions (B micro-panel 10 KiB, packed of 48 KiB L1, A block 15 KiB, packed whole of 1024 KiB L2)

// CHECK-LABEL: func.func @matmul
// CHECK:   %[[PA:.*]] = memref.alloca() {alignment = 64 : i64} : memref<17x40x6xf32>
// Packing all of A in register-tile order, a cache line of reduction
// steps at a time (the lines shared among the cores), the steps of a line
// inside the row tiles:
// CHECK:   affine.parallel (%[[KQ:.*]]) = (0) to (40) step (16) {
// CHECK:     affine.for %[[IR:.*]] = 0 to 96 step 6 {
// CHECK:       affine.for %[[K:.*]] = #{{.*}}(%[[KQ]]) to min #{{.*}}(%[[KQ]]) {
// CHECK:         affine.load %arg0[%[[IR]], %[[K]]]
// CHECK:         affine.store %{{.*}}, %[[PA]][%[[IR]] floordiv 6, %[[K]], 0]
// CHECK:     affine.for %{{.*}} = 96 to 98 step 6 {
// CHECK:   affine.parallel (%[[JR:.*]]) = (0) to (300) step (64) {
// CHECK:     %[[PB:.*]] = memref.alloca() {alignment = 64 : i64} : memref<40x64xf32>
// CHECK:     affine.for %[[IB:.*]] = 0 to 98 step 102 {
// CHECK:       affine.for %[[KB:.*]] = 0 to 40 step 40 {
// Packing the B micro-panel:
// CHECK:       affine.for %[[K1:.*]] = 0 to 40 {
// CHECK:         affine.vector_load %arg1[%[[K1]], %[[JR]]]
// CHECK:         affine.vector_store %{{.*}}, %[[PB]][%[[K1]] - %[[KB]], 0]
// CHECK:       affine.for %[[IR2:.*]] = {{.*}} step 6 {
// The accumulators start at zero; the block's sums are added to C after the
// reduction (two-level summation, as BLAS kernels do); C's lines are
// prefetched before it.
// CHECK-COUNT-24: affine.prefetch %arg2[{{.*}}], write, locality<3>, data
// CHECK:         %[[R:.*]]:24 = affine.for %[[K2:.*]] = 0 to 40 iter_args(%{{[^ ]*}} = %[[ZERO:[^,]*]],
// CHECK-COUNT-4:   affine.vector_load %[[PB]][%[[K2]] - %[[KB]], {{[0-9]+}}] : memref<40x64xf32>, vector<16xf32>
// CHECK:           affine.load %[[PA]][%[[IR2]] floordiv 6, %[[K2]], 0]
// CHECK:           vector.broadcast
// CHECK-COUNT-4:   vector.fma
// CHECK:           affine.yield
// CHECK:         %[[C0:.*]] = affine.vector_load %arg2
// CHECK-NEXT:    %[[S0:.*]] = arith.addf %[[C0]], %[[R]]#0
// CHECK-NEXT:    affine.vector_store %[[S0]], %arg2
// CHECK-COUNT-23: affine.vector_store %{{.*}}, %arg2
// The row tail, in the last row block (the one starting at row 96):
// CHECK:         affine.if #{{.*}}(%[[IB]]) {
// CHECK:           %{{.*}}:8 = affine.for
// CHECK-COUNT-8:   vector.fma
// CHECK-NOT:       vector.fma
// CHECK:           affine.yield
// The column tail: 44 columns, packed one by one, zeros up to 48:
// CHECK:     affine.for %{{.*}} = 0 to 44 {
// CHECK:       affine.load %arg1
// CHECK:     affine.for %{{.*}} = 44 to 48 {
// CHECK:       affine.store %cst{{.*}}, %[[PB]]
// Tiles of 6 rows x 3 vectors, their sums stored to the tail buffer, then
// the 44 valid columns added to C:
// CHECK:       %{{.*}}:18 = affine.for
// CHECK:       affine.vector_store %{{.*}}, %[[CT:.*]][0, 0] : memref<6x64xf32>, vector<16xf32>
// CHECK:       affine.for %[[JJ:.*]] = 0 to 44 {
// CHECK:         affine.load %[[CT]][0, %[[JJ]]]
// CHECK:         affine.load %arg2[%{{.*}}, %{{.*}} + %[[JJ]]]
// CHECK:         arith.addf
// CHECK:         affine.store
// No remainder nest of the original loops is left:
// CHECK-NOT: affine.for %{{.*}} = 256 to 300 {
func.func @matmul(%a: memref<98x1024xf32>, %b: memref<40x300xf32>, %c: memref<98x300xf32>) {
  affine.for %i = 0 to 98 {
    affine.for %j = 0 to 300 {
      affine.for %k = 0 to 40 {
        %x = affine.load %a[%i, %k] : memref<98x1024xf32>
        %y = affine.load %b[%k, %j] : memref<40x300xf32>
        %acc = affine.load %c[%i, %j] : memref<98x300xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %m : f32
        affine.store %s, %c[%i, %j] : memref<98x300xf32>
      }
    }
  }
  return
}

// Narrow outputs use shorter vectors (7 columns: 4 lanes); fewer columns
// than the shortest vector (4 lanes) are refused.
// REPORT-DAG: remark: [pb-register-tile] not register-tiled: 3 columns are fewer than one vector of 4
// CHECK-LABEL: func.func @narrow
// CHECK-NOT: vector.fma
func.func @narrow(%a: memref<98x40xf32>, %b: memref<40x3xf32>, %c: memref<98x3xf32>) {
  affine.for %i = 0 to 98 {
    affine.for %j = 0 to 3 {
      affine.for %k = 0 to 40 {
        %x = affine.load %a[%i, %k] : memref<98x40xf32>
        %y = affine.load %b[%k, %j] : memref<40x3xf32>
        %acc = affine.load %c[%i, %j] : memref<98x3xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %m : f32
        affine.store %s, %c[%i, %j] : memref<98x3xf32>
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @seven
// CHECK: vector.fma %{{.*}} : vector<4xf32>
func.func @seven(%a: memref<98x40xf32>, %b: memref<40x7xf32>, %c: memref<98x7xf32>) {
  affine.for %i = 0 to 98 {
    affine.for %j = 0 to 7 {
      affine.for %k = 0 to 40 {
        %x = affine.load %a[%i, %k] : memref<98x40xf32>
        %y = affine.load %b[%k, %j] : memref<40x7xf32>
        %acc = affine.load %c[%i, %j] : memref<98x7xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %m : f32
        affine.store %s, %c[%i, %j] : memref<98x7xf32>
      }
    }
  }
  return
}

// Not a contraction (the accumulator is read at another element: a
// dependence between different C elements): left alone, silently.
// CHECK-LABEL: func.func @shifted
// CHECK-NOT: vector.fma
// CHECK: affine.load %arg2[%{{.*}} + 1, %{{.*}}]
func.func @shifted(%a: memref<98x40xf32>, %b: memref<40x140xf32>, %c: memref<99x140xf32>) {
  affine.for %i = 0 to 98 {
    affine.for %j = 0 to 140 {
      affine.for %k = 0 to 40 {
        %x = affine.load %a[%i, %k] : memref<98x40xf32>
        %y = affine.load %b[%k, %j] : memref<40x140xf32>
        %acc = affine.load %c[%i + 1, %j] : memref<99x140xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %m : f32
        affine.store %s, %c[%i, %j] : memref<99x140xf32>
      }
    }
  }
  return
}

// Attention's Q K^T: B is read transposed (j moves its first index) and both
// operands are scaled by a value computed in the loop from a constant. The
// packing copies transpose B and apply the scales; the scale is recomputed
// before the kernel.
// REPORT-DAG: remark: [pb-register-tile] register tile 6x64 (6 rows x 4 vectors of 16; 24 accumulators), cache tile 24 rows x 32 reductions (B micro-panel 8 KiB, packed
// CHECK-LABEL: func.func @scaled_transposed
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: affine.parallel
// Transposing copy of K, scaled:
// CHECK: affine.for %[[JJ:.*]] = 0 to 64 {
// CHECK:   %[[K:.*]] = affine.load %arg1[%{{.*}} + %[[JJ]], %{{.*}}] : memref<128x32xf32>
// CHECK:   %[[KS:.*]] = arith.mulf %[[K]], %{{.*}} : f32
// CHECK:   affine.store %[[KS]]
// CHECK: vector.fma
func.func @scaled_transposed(%q: memref<96x32xf32>, %k: memref<128x32xf32>, %c: memref<96x128xf32>) {
  %scale = arith.constant 0.35355339059327373 : f64
  affine.for %i = 0 to 96 {
    affine.for %j = 0 to 128 {
      affine.for %r = 0 to 32 {
        %x = affine.load %q[%i, %r] : memref<96x32xf32>
        %y = affine.load %k[%j, %r] : memref<128x32xf32>
        %acc = affine.load %c[%i, %j] : memref<96x128xf32>
        %s = arith.truncf %scale : f64 to f32
        %ys = arith.mulf %y, %s : f32
        %xs = arith.mulf %x, %s : f32
        %m = arith.mulf %xs, %ys : f32
        %t = arith.addf %acc, %m : f32
        affine.store %t, %c[%i, %j] : memref<96x128xf32>
      }
    }
  }
  return
}

// Attention's P V after elementwise fusion: A is an expression of loads
// that do not move with j (the row's normalizer and mask, the exponentials
// e[i][k]). Packing evaluates it once per (i, k) into the A block; the
// micro-kernel stays a broadcast-and-fma.
// REPORT-DAG: remark: [pb-register-tile] register tile 6x64 (6 rows x 4 vectors of 16; 24 accumulators), cache tile 24 rows x 96 reductions (B micro-panel 24 KiB, packed of 48 KiB L1, A block 9 KiB, packed
// CHECK-LABEL: func.func @expression_a
// CHECK: affine.parallel
// Packing A: the expression, per row of the register tile, 16 reduction
// steps at a time (the exponentials are contiguous along k); the divisor
// s[i] and the mask m[i] do not move with k (broadcast), so the division
// may use its reciprocal; the 16 values go to their places in the A block:
// CHECK: affine.for %[[K:.*]] = {{.*}} step 16 {
// CHECK: affine.vector_load %arg0[%{{.*}}, %[[K]]] : memref<96x96xf32>, vector<16xf32>
// CHECK: affine.load %arg1[%{{.*}}] : memref<96xf32>
// CHECK: arith.divf %{{.*}}, %{{.*}} fastmath<arcp> : vector<16xf32>
// CHECK: affine.load %arg2[%{{.*}}] : memref<96xi1>
// CHECK: arith.select %{{.*}} : vector<16xi1>, vector<16xf32>
// CHECK: vector.extract %{{.*}}[15] : f32 from vector<16xf32>
// CHECK-NEXT: affine.store %{{.*}}, %{{.*}}[(%{{.*}} - %{{.*}}) floordiv 6, %[[K]] - %{{.*}} + 15, 0]
// CHECK: vector.fma
func.func @expression_a(%e: memref<96x96xf32>, %s: memref<96xf32>, %m: memref<96xi1>, %v: memref<96x64xf32>, %c: memref<96x64xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 96 {
    affine.for %j = 0 to 64 {
      affine.for %k = 0 to 96 {
        %x = affine.load %e[%i, %k] : memref<96x96xf32>
        %n = affine.load %s[%i] : memref<96xf32>
        %p = arith.divf %x, %n : f32
        %keep = affine.load %m[%i] : memref<96xi1>
        %a = arith.select %keep, %p, %zero : f32
        %b = affine.load %v[%k, %j] : memref<96x64xf32>
        %acc = affine.load %c[%i, %j] : memref<96x64xf32>
        %prod = arith.mulf %a, %b : f32
        %t = arith.addf %acc, %prod : f32
        affine.store %t, %c[%i, %j] : memref<96x64xf32>
      }
    }
  }
  return
}

// A's expression with a factor computed from outside values only (an f64
// value truncated to f32, as linalg leaves GELU's constants): computed
// once as a scalar and broadcast; the rest of the expression stays vector.
// CHECK-LABEL: func.func @expression_with_uniform_scalar
// CHECK: affine.for %[[K:.*]] = {{.*}} step 16 {
// CHECK: %[[X:.*]] = affine.vector_load %arg0[%{{.*}}, %[[K]]] : memref<96x96xf32>, vector<16xf32>
// CHECK: %[[H:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: %[[HV:.*]] = vector.broadcast %[[H]] : f32 to vector<16xf32>
// CHECK: %[[Y:.*]] = arith.mulf %[[X]], %[[HV]] : vector<16xf32>
// CHECK: math.tanh %[[Y]] : vector<16xf32>
// CHECK: vector.fma
func.func @expression_with_uniform_scalar(%e: memref<96x96xf32>, %v: memref<96x64xf32>, %c: memref<96x64xf32>, %half: f64) {
  affine.for %i = 0 to 96 {
    affine.for %j = 0 to 64 {
      affine.for %k = 0 to 96 {
        %x = affine.load %e[%i, %k] : memref<96x96xf32>
        %h = arith.truncf %half : f64 to f32
        %a = arith.mulf %x, %h : f32
        %y = math.tanh %a : f32
        %b = affine.load %v[%k, %j] : memref<96x64xf32>
        %acc = affine.load %c[%i, %j] : memref<96x64xf32>
        %prod = arith.mulf %y, %b : f32
        %t = arith.addf %acc, %prod : f32
        affine.store %t, %c[%i, %j] : memref<96x64xf32>
      }
    }
  }
  return
}

// Not a contraction: the expression for A reads x[i][j], which moves with
// the vectorized dimension (no broadcast operand): left as is.
// CHECK-LABEL: func.func @expression_moving_with_j
// CHECK-NOT: vector.fma
// CHECK: return
func.func @expression_moving_with_j(%e: memref<96x96xf32>, %x: memref<96x64xf32>, %v: memref<96x64xf32>, %c: memref<96x64xf32>) {
  affine.for %i = 0 to 96 {
    affine.for %j = 0 to 64 {
      affine.for %k = 0 to 96 {
        %y = affine.load %e[%i, %k] : memref<96x96xf32>
        %z = affine.load %x[%i, %j] : memref<96x64xf32>
        %a = arith.mulf %y, %z : f32
        %b = affine.load %v[%k, %j] : memref<96x64xf32>
        %acc = affine.load %c[%i, %j] : memref<96x64xf32>
        %prod = arith.mulf %a, %b : f32
        %t = arith.addf %acc, %prod : f32
        affine.store %t, %c[%i, %j] : memref<96x64xf32>
      }
    }
  }
  return
}

// Batched (attention heads): with 4 matrices for 2 cores, each thread takes
// whole matrices in one parallel region over the batch dimension (a batch
// of 1 in front stays sequential); the row blocks inside are a sequential
// loop sized for L2 alone (all 96 rows), with the packing buffers allocated
// per parallel iteration. On one core there is no parallel loop at all.
// REPORT-DAG: remark: [pb-register-tile] register tile 6x64 (6 rows x 4 vectors of 16; 24 accumulators), cache tile 96 rows x 32
// CHECK-LABEL: func.func @heads
// CHECK: affine.for %[[B:.*]] = 0 to 1 {
// CHECK-NEXT: affine.parallel (%[[H:.*]]) = (0) to (4) {
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<32x64xf32>
// CHECK: affine.for %[[IB:.*]] = 0 to 96 step 96 {
// CHECK-NOT: affine.parallel
// CHECK: vector.fma
// SERIAL-LABEL: func.func @heads
// SERIAL-NOT: affine.parallel
// SERIAL: return
func.func @heads(%q: memref<1x4x96x32xf32>, %k: memref<1x4x32x128xf32>, %c: memref<1x4x96x128xf32>) {
  affine.for %b = 0 to 1 {
    affine.for %h = 0 to 4 {
      affine.for %i = 0 to 96 {
        affine.for %j = 0 to 128 {
          affine.for %r = 0 to 32 {
            %x = affine.load %q[%b, %h, %i, %r] : memref<1x4x96x32xf32>
            %y = affine.load %k[%b, %h, %r, %j] : memref<1x4x32x128xf32>
            %acc = affine.load %c[%b, %h, %i, %j] : memref<1x4x96x128xf32>
            %m = arith.mulf %x, %y : f32
            %t = arith.addf %acc, %m : f32
            affine.store %t, %c[%b, %h, %i, %j] : memref<1x4x96x128xf32>
          }
        }
      }
    }
  }
  return
}

// A zero fill of C just before the product is absorbed: the first KC block
// (k < 100 of 200: two equal blocks) stores its sums, the later block adds its; the row tail
// (rows 96, 97) is computed by the kernel too, so the fill is gone.
// CHECK-LABEL: func.func @filled
// CHECK-NOT: affine.store %{{.*}}, %arg2
// CHECK: affine.for %[[KB:.*]] = 0 to 200 step 100 {
// CHECK: affine.if #{{.*}}(%[[KB]]) {
// CHECK-NOT: affine.vector_load %arg2
// CHECK: affine.vector_store %{{.*}}#0, %arg2
// CHECK: } else {
// CHECK: affine.vector_load %arg2
// CHECK: arith.addf
// CHECK: affine.vector_store
// Not absorbed when C is not all +0.0 (here -0.0): the fill stays whole.
// CHECK-LABEL: func.func @filled_negative_zero
// CHECK: affine.for %{{.*}} = 0 to 98 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 128 {
// CHECK-NEXT: affine.store %cst{{.*}}, %arg2
// CHECK-NOT: } else {
// CHECK: %{{.*}}:24 = affine.for
// CHECK-NOT: } else {
// CHECK: affine.vector_load %arg2
// CHECK: arith.addf
// CHECK-NOT: } else {
// CHECK: return
func.func @filled(%a: memref<98x200xf32>, %b: memref<200x128xf32>, %c: memref<98x128xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 98 {
    affine.for %j = 0 to 128 {
      affine.store %zero, %c[%i, %j] : memref<98x128xf32>
    }
  }
  affine.for %i = 0 to 98 {
    affine.for %j = 0 to 128 {
      affine.for %k = 0 to 200 {
        %x = affine.load %a[%i, %k] : memref<98x200xf32>
        %y = affine.load %b[%k, %j] : memref<200x128xf32>
        %acc = affine.load %c[%i, %j] : memref<98x128xf32>
        %m = arith.mulf %x, %y : f32
        %t = arith.addf %acc, %m : f32
        affine.store %t, %c[%i, %j] : memref<98x128xf32>
      }
    }
  }
  return
}

func.func @filled_negative_zero(%a: memref<98x200xf32>, %b: memref<200x128xf32>, %c: memref<98x128xf32>) {
  %zero = arith.constant -0.0 : f32
  affine.for %i = 0 to 98 {
    affine.for %j = 0 to 128 {
      affine.store %zero, %c[%i, %j] : memref<98x128xf32>
    }
  }
  affine.for %i = 0 to 98 {
    affine.for %j = 0 to 128 {
      affine.for %k = 0 to 200 {
        %x = affine.load %a[%i, %k] : memref<98x200xf32>
        %y = affine.load %b[%k, %j] : memref<200x128xf32>
        %acc = affine.load %c[%i, %j] : memref<98x128xf32>
        %m = arith.mulf %x, %y : f32
        %t = arith.addf %acc, %m : f32
        affine.store %t, %c[%i, %j] : memref<98x128xf32>
      }
    }
  }
  return
}

// A convolution (NCHW) whose output rows (7 wide) are narrower than a
// register tile of full vectors (2 x 8 lanes with 16 registers): rows and
// columns run as one flattened dimension of 49, C through its collapsed
// view, and the packing copy gathers the input a row segment at a time:
// rows h from the panel's first (p floordiv 7) to its last, columns w of
// row h within the panel, copied to panel column h * 7 + w - p.
// NREPORT-DAG: remark: [pb-register-tile] register tile 6x16 (6 rows x 2 vectors of 8; 12 accumulators) over 49 columns (rows of 7 flattened)
// With 32 registers of 16 lanes the same nest gets 8x48 tiles:
// REPORT-DAG: remark: [pb-register-tile] register tile 8x48 (8 rows x 3 vectors of 16; 24 accumulators) over 49 columns (rows of 7 flattened)
// NARROW-LABEL: func.func @conv_narrow
// NARROW: %[[CC:.*]] = memref.collapse_shape %arg2 {{\[}}[0], [1], [2, 3]] : memref<1x24x7x7xf32> into memref<1x24x49xf32>
// NARROW: affine.for %[[H:.*]] = #{{.*}}(%[[P:.*]]) to #{{.*}}(%[[P]]) {
// NARROW-NEXT: affine.for %[[W:.*]] = max #{{.*}}(%[[P]], %[[H]]) to min #{{.*}}(%[[P]], %[[H]]) {
// NARROW-NEXT: affine.load %arg0[0, %{{.*}}, %[[H]] + %{{.*}}, %[[W]] + %{{.*}}] : memref<1x16x9x9xf32>
// NARROW-NEXT: affine.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[H]] * 7 + %[[W]] - %[[P]]] : memref<16x3x3x16xf32>
// NARROW: vector.fma
// NARROW: affine.vector_store %{{.*}}, %[[CC]][0, %{{.*}}, %{{.*}}] : memref<1x24x49xf32>, vector<8xf32>
// Over part of C's rows only, the two loops do not flatten (rows stay 7 wide).
// NARROW-LABEL: func.func @conv_part
// NARROW-NOT: memref.collapse_shape
// NARROW: vector.fma
// NARROW: return
func.func @conv_narrow(%x: memref<1x16x9x9xf32>, %w: memref<24x16x3x3xf32>, %y: memref<1x24x7x7xf32>) {
  affine.for %f = 0 to 24 {
    affine.for %oh = 0 to 7 {
      affine.for %ow = 0 to 7 {
        affine.for %c = 0 to 16 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %w[%f, %c, %kh, %kw] : memref<24x16x3x3xf32>
              %b = affine.load %x[0, %c, %oh + %kh, %ow + %kw] : memref<1x16x9x9xf32>
              %acc = affine.load %y[0, %f, %oh, %ow] : memref<1x24x7x7xf32>
              %m = arith.mulf %a, %b : f32
              %s = arith.addf %acc, %m : f32
              affine.store %s, %y[0, %f, %oh, %ow] : memref<1x24x7x7xf32>
            }
          }
        }
      }
    }
  }
  return
}

func.func @conv_part(%x: memref<1x16x9x9xf32>, %w: memref<24x16x3x3xf32>, %y: memref<1x24x7x7xf32>) {
  affine.for %f = 0 to 24 {
    affine.for %oh = 0 to 6 {
      affine.for %ow = 0 to 7 {
        affine.for %c = 0 to 16 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %w[%f, %c, %kh, %kw] : memref<24x16x3x3xf32>
              %b = affine.load %x[0, %c, %oh + %kh, %ow + %kw] : memref<1x16x9x9xf32>
              %acc = affine.load %y[0, %f, %oh, %ow] : memref<1x24x7x7xf32>
              %m = arith.mulf %a, %b : f32
              %s = arith.addf %acc, %m : f32
              affine.store %s, %y[0, %f, %oh, %ow] : memref<1x24x7x7xf32>
            }
          }
        }
      }
    }
  }
  return
}

// Rows wider than a register tile but leaving part of a vector empty (28
// columns: three vectors of 8 and half of a fourth) flatten too when the
// whole map fills its vectors (784 = 98 x 8); rows of whole vectors (16
// wide) do not: gathering B would cost more than the narrower panel loses.
// NREPORT-DAG: remark: [pb-register-tile] register tile 6x16 (6 rows x 2 vectors of 8; 12 accumulators) over 784 columns (rows of 28 flattened)
// NARROW-LABEL: func.func @conv_28
// NARROW: memref.collapse_shape %arg2 {{\[}}[0], [1], [2, 3]] : memref<1x24x28x28xf32> into memref<1x24x784xf32>
// NARROW: vector.fma
// NARROW-LABEL: func.func @conv_16
// NARROW-NOT: memref.collapse_shape
// NARROW: vector.fma
// NARROW: return
func.func @conv_28(%x: memref<1x16x30x30xf32>, %w: memref<24x16x3x3xf32>, %y: memref<1x24x28x28xf32>) {
  affine.for %f = 0 to 24 {
    affine.for %oh = 0 to 28 {
      affine.for %ow = 0 to 28 {
        affine.for %c = 0 to 16 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %w[%f, %c, %kh, %kw] : memref<24x16x3x3xf32>
              %b = affine.load %x[0, %c, %oh + %kh, %ow + %kw] : memref<1x16x30x30xf32>
              %acc = affine.load %y[0, %f, %oh, %ow] : memref<1x24x28x28xf32>
              %m = arith.mulf %a, %b : f32
              %s = arith.addf %acc, %m : f32
              affine.store %s, %y[0, %f, %oh, %ow] : memref<1x24x28x28xf32>
            }
          }
        }
      }
    }
  }
  return
}

func.func @conv_16(%x: memref<1x16x18x18xf32>, %w: memref<24x16x3x3xf32>, %y: memref<1x24x16x16xf32>) {
  affine.for %f = 0 to 24 {
    affine.for %oh = 0 to 16 {
      affine.for %ow = 0 to 16 {
        affine.for %c = 0 to 16 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %w[%f, %c, %kh, %kw] : memref<24x16x3x3xf32>
              %b = affine.load %x[0, %c, %oh + %kh, %ow + %kw] : memref<1x16x18x18xf32>
              %acc = affine.load %y[0, %f, %oh, %ow] : memref<1x24x16x16xf32>
              %m = arith.mulf %a, %b : f32
              %s = arith.addf %acc, %m : f32
              affine.store %s, %y[0, %f, %oh, %ow] : memref<1x24x16x16xf32>
            }
          }
        }
      }
    }
  }
  return
}

// The same product with A's rows 160 bytes apart (six rows in six L1
// sets): A is read in place, not packed; with a 2-way L1 (the target says
// so) the rows would crowd its sets and A is packed.
// REPORT-DAG: remark: [pb-register-tile] register tile 6x64 (6 rows x 4 vectors of 16; 24 accumulators), cache tile 102 rows x 40 reductions (B micro-panel 10 KiB, packed of 48 KiB L1, A block 15 KiB of 1024 KiB L2)
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT: memref<17x40x6xf32>
// CHECK: vector.fma
// TWOWAY-LABEL: func.func @short_rows
// TWOWAY: memref.alloca() {alignment = 64 : i64} : memref<17x40x6xf32>
func.func @short_rows(%a: memref<98x40xf32>, %b: memref<40x300xf32>, %c: memref<98x300xf32>) {
  affine.for %i = 0 to 98 {
    affine.for %j = 0 to 300 {
      affine.for %k = 0 to 40 {
        %x = affine.load %a[%i, %k] : memref<98x40xf32>
        %y = affine.load %b[%k, %j] : memref<40x300xf32>
        %z = affine.load %c[%i, %j] : memref<98x300xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<98x300xf32>
      }
    }
  }
  return
}

// A product whose columns arrive as two loops, `64 * a + b` (reshape
// propagation leaves a 2304-column product viewed as 3 x 768 so): the two
// loops become one of 192 columns, tiled as any product's.
// REPORT-DAG: pb-register-tile.mlir:[[@LINE+6]]:3: remark: [pb-register-tile] register tile 6x64 (6 rows x 4 vectors of 16; 24 accumulators), cache tile 18 rows x 40 reductions (B micro-panel 10 KiB of 48 KiB L1, A block 2 KiB of 1024 KiB L2)
// CHECK-LABEL: func.func @split_columns
// CHECK: affine.vector_load %arg1[%{{[^,]*}}, %{{[^,]*}}] : memref<40x192xf32>, vector<16xf32>
// CHECK: vector.fma
// CHECK: affine.vector_store %{{.*}}, %arg2[%{{[^,]*}}, %{{[^,]*}}] : memref<98x192xf32>, vector<16xf32>
func.func @split_columns(%a: memref<98x40xf32>, %b: memref<40x192xf32>, %c: memref<98x192xf32>) {
  affine.for %i = 0 to 98 {
    affine.for %s = 0 to 3 {
      affine.for %k = 0 to 40 {
        affine.for %t = 0 to 64 {
          %x = affine.load %a[%i, %k] : memref<98x40xf32>
          %y = affine.load %b[%k, %s * 64 + %t] : memref<40x192xf32>
          %z = affine.load %c[%i, %s * 64 + %t] : memref<98x192xf32>
          %p = arith.mulf %x, %y : f32
          %q = arith.addf %z, %p : f32
          affine.store %q, %c[%i, %s * 64 + %t] : memref<98x192xf32>
        }
      }
    }
  }
  return
}

// Not one dimension: B reads the columns as `32 * a + b` (overlapping
// windows), so the loops stay two and the nest is not a product the pass
// tiles.
// CHECK-LABEL: func.func @split_columns_mismatch
// CHECK-NOT: vector.fma
// CHECK: return
func.func @split_columns_mismatch(%a: memref<98x40xf32>, %b: memref<40x192xf32>, %c: memref<98x192xf32>) {
  affine.for %i = 0 to 98 {
    affine.for %s = 0 to 3 {
      affine.for %k = 0 to 40 {
        affine.for %t = 0 to 64 {
          %x = affine.load %a[%i, %k] : memref<98x40xf32>
          %y = affine.load %b[%k, %s * 32 + %t] : memref<40x192xf32>
          %z = affine.load %c[%i, %s * 64 + %t] : memref<98x192xf32>
          %p = arith.mulf %x, %y : f32
          %q = arith.addf %z, %p : f32
          affine.store %q, %c[%i, %s * 64 + %t] : memref<98x192xf32>
        }
      }
    }
  }
  return
}

// Few rows (24), many column panels: the panels are shared among the
// threads by one parallel loop outside the row and reduction blocks, the
// column tail's panel (4 columns) one of its iterations.
// CHECK-LABEL: func.func @few_rows_many_panels
// CHECK: affine.parallel (%[[JR:.*]]) = (0) to (260) step (64) {
// CHECK: affine.for %[[IB:.*]] = 0 to 24 step 24 {
// CHECK-NEXT: affine.for %[[KB:.*]] = 0 to 40 step 40 {
// CHECK-NEXT: affine.if #{{.*}}(%[[JR]]) {
// CHECK: vector.fma
// CHECK: } else {
// CHECK: vector.fma
// SERIAL-LABEL: func.func @few_rows_many_panels
// SERIAL-NOT: affine.parallel
// SERIAL: return
func.func @few_rows_many_panels(%a: memref<24x40xf32>, %b: memref<40x260xf32>, %c: memref<24x260xf32>) {
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 260 {
      affine.for %k = 0 to 40 {
        %x = affine.load %a[%i, %k] : memref<24x40xf32>
        %y = affine.load %b[%k, %j] : memref<40x260xf32>
        %z = affine.load %c[%i, %j] : memref<24x260xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<24x260xf32>
      }
    }
  }
  return
}

// 96 columns (6 vectors of 16): two panels of 3 vectors (8-row tiles)
// rather than one of 4 and a tail of 2.
// REPORT-DAG: pb-register-tile.mlir:[[@LINE+4]]:3: remark: [pb-register-tile] register tile 8x48 (8 rows x 3 vectors of 16; 24 accumulators)
// CHECK-LABEL: func.func @six_vectors
// CHECK-NOT: memref<6x64xf32>
func.func @six_vectors(%a: memref<96x40xf32>, %b: memref<40x96xf32>, %c: memref<96x96xf32>) {
  affine.for %i = 0 to 96 {
    affine.for %j = 0 to 96 {
      affine.for %k = 0 to 40 {
        %x = affine.load %a[%i, %k] : memref<96x40xf32>
        %y = affine.load %b[%k, %j] : memref<40x96xf32>
        %z = affine.load %c[%i, %j] : memref<96x96xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<96x96xf32>
      }
    }
  }
  return
}

// 80 columns: a panel of 4 vectors, then a tail of one whole vector whose
// sums go to C as vectors (no buffer for a partial vector's lanes).
// CHECK-LABEL: func.func @whole_vector_tail
// CHECK-NOT: memref<6x64xf32>
// CHECK: affine.for %[[T:.*]] = 64 to 80 step 64 {
// CHECK: affine.vector_store %{{.*}}, %arg2[%{{.*}}, %[[T]]] : memref<96x80xf32>, vector<16xf32>
func.func @whole_vector_tail(%a: memref<96x40xf32>, %b: memref<40x80xf32>, %c: memref<96x80xf32>) {
  affine.for %i = 0 to 96 {
    affine.for %j = 0 to 80 {
      affine.for %k = 0 to 40 {
        %x = affine.load %a[%i, %k] : memref<96x40xf32>
        %y = affine.load %b[%k, %j] : memref<40x80xf32>
        %z = affine.load %c[%i, %j] : memref<96x80xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<96x80xf32>
      }
    }
  }
  return
}

// nn.MultiheadAttention's packed projection as torch-mlir writes it: C[s,
// b, t, j] = sum_k A[s, b, k] * B[k, t, j] with t the Q/K/V index (B's, not
// A's) is a column loop, not a row: the rows are (s, b) flattened (4 per
// sequence position alone are fewer than a register tile).
// REPORT-DAG: pb-register-tile.mlir:[[@LINE+4]]:3: remark: [pb-register-tile] register tile 6x64 (6 rows x 4 vectors of 16; 24 accumulators) over 128 rows (2 loops flattened), cache tile 66 rows x 48 reductions
// CHECK-LABEL: func.func @packed_projection
// CHECK: vector.fma
func.func @packed_projection(%a: memref<32x4x48xf32>, %b: memref<48x3x64xf32>, %c: memref<32x4x3x64xf32>) {
  affine.for %s = 0 to 32 {
    affine.for %n = 0 to 4 {
      affine.for %t = 0 to 3 {
        affine.for %j = 0 to 64 {
          affine.for %k = 0 to 48 {
            %x = affine.load %a[%s, %n, %k] : memref<32x4x48xf32>
            %y = affine.load %b[%k, %t, %j] : memref<48x3x64xf32>
            %acc = affine.load %c[%s, %n, %t, %j] : memref<32x4x3x64xf32>
            %m = arith.mulf %x, %y : f32
            %r = arith.addf %acc, %m : f32
            affine.store %r, %c[%s, %n, %t, %j] : memref<32x4x3x64xf32>
          }
        }
      }
    }
  }
  return
}

// As @matmul, with 4096 reduction steps: all of packed A (1.6 MiB) would
// not fit in half of L2, so it is packed in spans of reduction blocks that
// do (4 spans of 8 blocks of 128 steps), each span in a parallel loop of
// its own before the column panels' parallel loop runs its blocks: 8
// parallel regions per call instead of 2 per block (64).
// REPORT-DAG: pb-register-tile.mlir:[[@LINE+13]]:3: remark: [pb-register-tile] register tile 6x64 (6 rows x 4 vectors of 16; 24 accumulators), cache tile 102 rows x 128 reductions (B micro-panel 32 KiB, packed of 48 KiB L1, A block 51 KiB, packed 1024 reductions at a time of 1024 KiB L2)
// CHECK-LABEL: func.func @matmul_long
// CHECK: %[[PA:.*]] = memref.alloca() {alignment = 64 : i64} : memref<17x1024x6xf32>
// CHECK: affine.for %[[SK:.*]] = 0 to 4096 step 1024 {
// CHECK:   affine.parallel (%[[KQ:.*]]) = (%[[SK]]) to (min(4096, %[[SK]] + 1024)) step (16) {
// CHECK:     affine.for %[[K:.*]] = #{{.*}}(%[[KQ]]) to min #{{.*}}(%[[KQ]], %[[SK]]) {
// CHECK:     affine.load %arg0[%{{.*}}, %[[K]]]
// CHECK:     affine.store %{{.*}}, %[[PA]][%{{.*}} floordiv 6, %[[K]] - %[[SK]], 0]
// CHECK:   affine.parallel (%{{.*}}) = (0) to (256) step (64) {
// CHECK:     affine.for %[[KB:.*]] = #{{.*}}(%[[SK]]) to #{{.*}}(%[[SK]]) step 128 {
// CHECK:       affine.load %[[PA]][%{{.*}} floordiv 6, %{{.*}} - %[[SK]], 0]
// CHECK:       vector.fma
func.func @matmul_long(%a: memref<98x4096xf32>, %b: memref<4096x256xf32>, %c: memref<98x256xf32>) {
  affine.for %i = 0 to 98 {
    affine.for %j = 0 to 256 {
      affine.for %k = 0 to 4096 {
        %x = affine.load %a[%i, %k] : memref<98x4096xf32>
        %y = affine.load %b[%k, %j] : memref<4096x256xf32>
        %acc = affine.load %c[%i, %j] : memref<98x256xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %m : f32
        affine.store %s, %c[%i, %j] : memref<98x256xf32>
      }
    }
  }
  return
}

// A product whose columns a reshape left as a combination of loops in C
// (`C[p, i, 28 h + w]`) while B reads them as separate indices (a
// transposed copy's buffer): not taken, and said (not skipped silently),
// with C's index so the user sees why the product runs as plain loops.
// REPORT-DAG: remark: [pb-register-tile] not register-tiled: a multiply-accumulate whose C index is not one column loop (C[d0, d1, ((28 * d2) + d3)])
// CHECK-LABEL: func.func @split_reshaped_columns
// CHECK-NOT: vector.fma
// CHECK: return
func.func @split_reshaped_columns(%a: memref<4x16x16xf32>, %b: memref<4x16x8x28xf32>, %c: memref<4x16x224xf32>) {
  affine.for %p = 0 to 4 {
    affine.for %i = 0 to 16 {
      affine.for %h = 0 to 8 {
        affine.for %w = 0 to 28 {
          affine.for %k = 0 to 16 {
            %x = affine.load %a[%p, %i, %k] : memref<4x16x16xf32>
            %y = affine.load %b[%p, %k, %h, %w] : memref<4x16x8x28xf32>
            %acc = affine.load %c[%p, %i, %h * 28 + %w] : memref<4x16x224xf32>
            %m = arith.mulf %x, %y : f32
            %s = arith.addf %acc, %m : f32
            affine.store %s, %c[%p, %i, %h * 28 + %w] : memref<4x16x224xf32>
          }
        }
      }
    }
  }
  return
}
