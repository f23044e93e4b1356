// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{sliding=false cores=2 cache-bytes=65536 inner-cache-bytes=1 outer-cache-bytes=1 report=true},canonicalize))' %s --verify-diagnostics | FileCheck %s
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{sliding=false cores=1 cache-bytes=65536 inner-cache-bytes=1 outer-cache-bytes=1},canonicalize))' %s | FileCheck %s --check-prefix=SERIAL
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{sliding=false cores=2 inner-cache-bytes=1 row-tile=8 report=true}))' %s 2>&1 >/dev/null | FileCheck %s --check-prefix=FORCED
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{sliding=false cores=2 cache-bytes=65536 inner-cache-bytes=16384 outer-cache-bytes=1 report=true}))' %s 2>&1 >/dev/null | FileCheck %s --check-prefix=INNER
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{sliding=false cores=2 cache-bytes=65536 deadline-ms=1}))' %s 2>%t.deadline | FileCheck %s --check-prefix=DEADLINE
// RUN: FileCheck %s --check-prefix=DEADLINE-WARN < %t.deadline
// Sliding rows (the default), covered by pb-fuse-sliding.mlir, on this file's time steps:
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{cores=2 cache-bytes=65536 inner-cache-bytes=1 outer-cache-bytes=1 report=true}))' %s 2>&1 >/dev/null | FileCheck %s --check-prefix=SLIDING
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{cores=2 cache-bytes=65536 inner-cache-bytes=1 outer-cache-bytes=1},canonicalize))' %s 2>/dev/null | FileCheck %s --check-prefix=SLIDING-IR

// A compile budget's deadline that has passed (1 ms after the epoch): the
// runs are left as they are, and each function says so.
// DEADLINE-LABEL: func.func @blur
// DEADLINE-NEXT: memref.alloc() : memref<261x257xf32>
// DEADLINE-NOT: affine.parallel
// DEADLINE-LABEL: func.func @escaping
// DEADLINE-WARN: warning: [pb-fuse] compile budget spent: 1 runs of 2 loop nests from here on left unfused

// On one core the tiles run in a sequential loop sharing one local buffer,
// allocated before it (an alloca inside a sequential loop would take new
// stack space every iteration).
// SERIAL-LABEL: func.func @blur
// SERIAL-NEXT: memref.alloca() {alignment = 64 : i64} : memref<{{[0-9]+}}x257xf32>
// SERIAL-NEXT: affine.for
// SERIAL-NOT: memref.alloca
// SERIAL-LABEL: func.func @escaping

// A 5-tap blur along columns into a temporary, then along rows, on arrays
// larger than the 64 KiB cache budget: the temporary is contracted to a tile
// of 20 rows (16 + a halo of 4) computed per row tile; row tiles run in
// parallel; 257 rows do not divide by 16. Recomputation: 17 tiles x 20 rows
// of the 261-row temporary = 30%, cheaper in the model than streaming the
// temporary through memory. The footprint counts the local buffer and the
// tile's 16 output rows.

// CHECK-LABEL: func.func @blur
// CHECK-NOT: memref.alloc()
// (affine.parallel is an allocation scope: canonicalization drops the
// memref.alloca_scope the pass puts around the tile.)
// CHECK: affine.parallel (%[[T:.*]]) = (0) to (17) {
// CHECK-NEXT: %[[L:.*]] = memref.alloca() {alignment = 64 : i64} : memref<20x257xf32>
// The producer runs on the tile's rows plus the halo, clipped at the bottom:
// CHECK: affine.for %[[I:.*]] = #{{.*}}(%[[T]]) to min #{{.*}}(%[[T]]) {
// The contiguous loop (j) is put innermost:
// CHECK:   affine.for %[[K:.*]] = 0 to 5 {
// CHECK:   affine.for %[[J:.*]] = 0 to 257 {
// CHECK:     affine.load %arg0[%[[I]], %[[J]] + %[[K]]]
// CHECK:     affine.store %{{.*}}, %[[L]][%[[T]] * -16 + %[[I]], %[[J]]]
// Then the consumer on the tile, reading the local buffer:
// CHECK: affine.for %[[I2:.*]] = #{{.*}}(%[[T]]) to min #{{.*}}(%[[T]]) {
// CHECK:   affine.for %[[K2:.*]] = 0 to 5 {
// CHECK:   affine.for %[[J2:.*]] = 0 to 257 {
// CHECK:     affine.load %[[L]][%[[T]] * -16 + %[[I2]] + %[[K2]], %[[J2]]]
// CHECK:     affine.store %{{.*}}, %arg1[%[[I2]], %[[J2]]]
// CHECK-NOT: memref.dealloc
func.func @blur(%in: memref<261x261xf32>, %out: memref<257x257xf32>, %w: memref<5xf32>) {
  %t = memref.alloc() : memref<261x257xf32>
  // expected-remark @+1 {{[pb-fuse] fused producers S0 into consumers S1 of A3: row tile 16 (17 parallel tiles), tile-local A2[20x257] in 1 buffer = 20 KiB, 36 KiB in cache (budget 64 KiB), recomputation 30.3%; model: ~0.06 ms fused vs ~0.17 ms unfused}}
  affine.for %i = 0 to 261 {
    affine.for %j = 0 to 257 {
      affine.for %k = 0 to 5 {
        %x = affine.load %in[%i, %j + %k] : memref<261x261xf32>
        %c = affine.load %w[%k] : memref<5xf32>
        %m = arith.mulf %x, %c : f32
        affine.store %m, %t[%i, %j] : memref<261x257xf32>
      }
    }
  }
  affine.for %i = 0 to 257 {
    affine.for %j = 0 to 257 {
      affine.for %k = 0 to 5 {
        %x = affine.load %t[%i + %k, %j] : memref<261x257xf32>
        %c = affine.load %w[%k] : memref<5xf32>
        %m = arith.mulf %x, %c : f32
        affine.store %m, %out[%i, %j] : memref<257x257xf32>
      }
    }
  }
  memref.dealloc %t : memref<261x257xf32>
  return
}

// Refused: the temporary is read after the nests, so it cannot shrink (it
// is one more array the nests leave behind; nothing is left to contract).
// CHECK-LABEL: func.func @escaping
// CHECK: memref.alloc() : memref<8x8xf32>
// CHECK-NOT: affine.parallel
func.func @escaping(%in: memref<8x8xf32>, %out: memref<8x8xf32>) -> f32 {
  %t = memref.alloc() : memref<8x8xf32>
  // expected-remark @+1 {{[pb-fuse] not fused: no temporary array to contract}}
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
// CHECK-LABEL: func.func @recurrence
// CHECK: memref.alloc() : memref<8x8xf32>
// CHECK-NOT: affine.parallel
func.func @recurrence(%in: memref<8x8xf32>, %out: memref<9x8xf32>) {
  %t = memref.alloc() : memref<8x8xf32>
  // expected-remark @+1 {{[pb-fuse] not fused: S1 reads A2 at another element than it writes}}
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

// Softmax-shaped: consumers pass over the output several times and one of
// them writes a temporary (the row sums) that a later pass reads: the sums
// are owned by the tile that computes them and contracted to its rows.
// CHECK-LABEL: func.func @normalize_rows
// CHECK: affine.parallel
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<32xf32>
// CHECK-NOT: memref.alloc()
func.func @normalize_rows(%in: memref<512x256xf32>, %out: memref<512x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<512xf32>
  // expected-remark @+1 {{[pb-fuse] fused producers S0 into consumers S1,S2,S3 of A2: row tile 32 (16 parallel tiles), tile-local A0[32]}}
  affine.for %i = 0 to 512 {
    affine.store %zero, %s[%i] : memref<512xf32>
  }
  affine.for %i = 0 to 512 {
    affine.for %j = 0 to 256 {
      %x = affine.load %in[%i, %j] : memref<512x256xf32>
      %e = math.exp %x : f32
      affine.store %e, %out[%i, %j] : memref<512x256xf32>
    }
  }
  affine.for %i = 0 to 512 {
    affine.for %j = 0 to 256 {
      %x = affine.load %out[%i, %j] : memref<512x256xf32>
      %a = affine.load %s[%i] : memref<512xf32>
      %t = arith.addf %a, %x : f32
      affine.store %t, %s[%i] : memref<512xf32>
    }
  }
  affine.for %i = 0 to 512 {
    affine.for %j = 0 to 256 {
      %x = affine.load %out[%i, %j] : memref<512x256xf32>
      %a = affine.load %s[%i] : memref<512xf32>
      %d = arith.divf %x, %a : f32
      affine.store %d, %out[%i, %j] : memref<512x256xf32>
    }
  }
  memref.dealloc %s : memref<512xf32>
  return
}

// Refused: the last pass reads the sum of the next row, which another tile
// owns (a dependence across tiles).
// CHECK-LABEL: func.func @next_row_sum
// CHECK: memref.alloc() : memref<65xf32>
// CHECK-NOT: affine.parallel
func.func @next_row_sum(%in: memref<64x32xf32>, %out: memref<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<65xf32>
  // expected-remark @+1 {{[pb-fuse] not fused: a tile reads elements of A0 that another tile's consumers write}}
  affine.for %i = 0 to 65 {
    affine.store %zero, %s[%i] : memref<65xf32>
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %x = affine.load %in[%i, %j] : memref<64x32xf32>
      affine.store %x, %out[%i, %j] : memref<64x32xf32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %x = affine.load %out[%i, %j] : memref<64x32xf32>
      %a = affine.load %s[%i] : memref<65xf32>
      %t = arith.addf %a, %x : f32
      affine.store %t, %s[%i] : memref<65xf32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %x = affine.load %out[%i, %j] : memref<64x32xf32>
      %a = affine.load %s[%i + 1] : memref<65xf32>
      %d = arith.divf %x, %a : f32
      affine.store %d, %out[%i, %j] : memref<64x32xf32>
    }
  }
  memref.dealloc %s : memref<65xf32>
  return
}

// Three time steps of a 4-point stencil, each a copy of the previous step
// (for its borders) and an update of its interior: what pb-forward-copies
// leaves of PyTorch's `b = a.clone(); b[1:-1, 1:-1] = ...`. B1 and B3 are
// never live together in a tile and share one buffer (2 buffers for 3
// locals), and each copy computes only the border elements the update
// after it does not overwrite (columns 0 and 129 of the tile's rows).
// Advancing row by row together (legal: ISL checks the copies and updates
// of each step keep their order), the locals no longer share a buffer:
// SLIDING: remark: [pb-fuse] fused producers S0,S1,S2,S3,S4,S5 into consumers S6,S7 of A4: row tile 32 (5 parallel tiles, rows advancing together), tile-local A1[3x130] (rows folded from 38) A2[3x130] (rows folded from 36) A3[3x130] (rows folded from 34) in 3 buffers
// Each of them keeps three rows (storage folding), and the output's copy,
// a consumer like the update after it, writes only the two columns the
// update does not overwrite in the rows between the borders:
// SLIDING-IR-LABEL: func.func @steps
// SLIDING-IR: affine.parallel
// SLIDING-IR-COUNT-3: memref.alloca() {alignment = 64 : i64} : memref<3x130xf32>
// SLIDING-IR: affine.store %{{.*}}, %arg1[%{{.*}}, 0]
// SLIDING-IR-NEXT: affine.load %{{.*}}[{{.*}}, 129] : memref<3x130xf32>
// SLIDING-IR-NEXT: affine.store %{{.*}}, %arg1[%{{.*}}, 129]
// SLIDING-IR: affine.for %{{.*}} = 0 to 128 {
// SLIDING-IR: affine.store %{{.*}}, %arg1[%{{.*}}, %{{.*}} + 1]
// SLIDING-IR-LABEL: func.func @
// With `row-tile`, the user's tile instead of the model's:
// FORCED: remark: [pb-fuse] fused producers S0,S1,S2,S3,S4,S5 into consumers S6,S7 of A4: row tile 8 (17 parallel tiles)
// CHECK-LABEL: func.func @steps
// CHECK: affine.parallel
// CHECK-NEXT: %[[B1:.*]] = memref.alloca() {alignment = 64 : i64} : memref<38x130xf32>
// CHECK-NEXT: memref.alloca() {alignment = 64 : i64} : memref<36x130xf32>
// CHECK-NEXT: affine.for
// CHECK-NEXT: affine.if
// CHECK-NEXT: affine.load %arg0[%{{.*}}, 0]
// CHECK-NEXT: affine.store %{{.*}}, %[[B1]][%{{.*}}, 0]
// CHECK-NEXT: affine.load %arg0[%{{.*}}, 129]
// CHECK-NEXT: affine.store %{{.*}}, %[[B1]][%{{.*}}, 129]
// CHECK-NEXT: } else {
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @steps(%in: memref<130x130xf32>, %out: memref<130x130xf32>) {
  %b1 = memref.alloc() : memref<130x130xf32>
  %b2 = memref.alloc() : memref<130x130xf32>
  %b3 = memref.alloc() : memref<130x130xf32>
  // expected-remark @+1 {{[pb-fuse] fused producers S0,S1,S2,S3,S4,S5 into consumers S6,S7 of A4: row tile 32 (5 parallel tiles), tile-local A1[38x130] A2[36x130] A3[34x130] in 2 buffers}}
  affine.for %i = 0 to 130 {
    affine.for %j = 0 to 130 {
      %x = affine.load %in[%i, %j] : memref<130x130xf32>
      affine.store %x, %b1[%i, %j] : memref<130x130xf32>
    }
  }
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 128 {
      %n = affine.load %in[%i, %j + 1] : memref<130x130xf32>
      %s = affine.load %in[%i + 2, %j + 1] : memref<130x130xf32>
      %w = affine.load %in[%i + 1, %j] : memref<130x130xf32>
      %e = affine.load %in[%i + 1, %j + 2] : memref<130x130xf32>
      %a = arith.addf %n, %s : f32
      %b = arith.addf %w, %e : f32
      %c = arith.addf %a, %b : f32
      affine.store %c, %b1[%i + 1, %j + 1] : memref<130x130xf32>
    }
  }
  affine.for %i = 0 to 130 {
    affine.for %j = 0 to 130 {
      %x = affine.load %b1[%i, %j] : memref<130x130xf32>
      affine.store %x, %b2[%i, %j] : memref<130x130xf32>
    }
  }
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 128 {
      %n = affine.load %b1[%i, %j + 1] : memref<130x130xf32>
      %s = affine.load %b1[%i + 2, %j + 1] : memref<130x130xf32>
      %w = affine.load %b1[%i + 1, %j] : memref<130x130xf32>
      %e = affine.load %b1[%i + 1, %j + 2] : memref<130x130xf32>
      %a = arith.addf %n, %s : f32
      %b = arith.addf %w, %e : f32
      %c = arith.addf %a, %b : f32
      affine.store %c, %b2[%i + 1, %j + 1] : memref<130x130xf32>
    }
  }
  affine.for %i = 0 to 130 {
    affine.for %j = 0 to 130 {
      %x = affine.load %b2[%i, %j] : memref<130x130xf32>
      affine.store %x, %b3[%i, %j] : memref<130x130xf32>
    }
  }
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 128 {
      %n = affine.load %b2[%i, %j + 1] : memref<130x130xf32>
      %s = affine.load %b2[%i + 2, %j + 1] : memref<130x130xf32>
      %w = affine.load %b2[%i + 1, %j] : memref<130x130xf32>
      %e = affine.load %b2[%i + 1, %j + 2] : memref<130x130xf32>
      %a = arith.addf %n, %s : f32
      %b = arith.addf %w, %e : f32
      %c = arith.addf %a, %b : f32
      affine.store %c, %b3[%i + 1, %j + 1] : memref<130x130xf32>
    }
  }
  affine.for %i = 0 to 130 {
    affine.for %j = 0 to 130 {
      %x = affine.load %b3[%i, %j] : memref<130x130xf32>
      affine.store %x, %out[%i, %j] : memref<130x130xf32>
    }
  }
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 128 {
      %n = affine.load %b3[%i, %j + 1] : memref<130x130xf32>
      %s = affine.load %b3[%i + 2, %j + 1] : memref<130x130xf32>
      %w = affine.load %b3[%i + 1, %j] : memref<130x130xf32>
      %e = affine.load %b3[%i + 1, %j + 2] : memref<130x130xf32>
      %a = arith.addf %n, %s : f32
      %b = arith.addf %w, %e : f32
      %c = arith.addf %a, %b : f32
      affine.store %c, %out[%i + 1, %j + 1] : memref<130x130xf32>
    }
  }
  memref.dealloc %b1 : memref<130x130xf32>
  memref.dealloc %b2 : memref<130x130xf32>
  memref.dealloc %b3 : memref<130x130xf32>
  return
}

// Refused: the consumer is a contraction (a 40-step reduction over two
// operands that move with it, like attention's Q K^T after the transpose of
// K): fused into row tiles it would lose pb-register-tile's micro-kernel.
// CHECK-LABEL: func.func @contraction_consumer
// CHECK: memref.alloc() : memref<40x64xf32>
// CHECK-NOT: affine.parallel
// CHECK: return
func.func @contraction_consumer(%a: memref<64x40xf32>, %b: memref<64x40xf32>, %c: memref<64x64xf32>) {
  %t = memref.alloc() : memref<40x64xf32>
  // expected-remark @+1 {{[pb-fuse] not fused: consumer S1 is a contraction: left whole for pb-register-tile}}
  affine.for %k = 0 to 40 {
    affine.for %j = 0 to 64 {
      %x = affine.load %b[%j, %k] : memref<64x40xf32>
      affine.store %x, %t[%k, %j] : memref<40x64xf32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      affine.for %k = 0 to 40 {
        %x = affine.load %a[%i, %k] : memref<64x40xf32>
        %y = affine.load %t[%k, %j] : memref<40x64xf32>
        %acc = affine.load %c[%i, %j] : memref<64x64xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %m : f32
        affine.store %s, %c[%i, %j] : memref<64x64xf32>
      }
    }
  }
  memref.dealloc %t : memref<40x64xf32>
  return
}

// A softmax between two products (attention): the run with the products is
// refused, then the nests between them are fused on their own. Its three
// results outlive it (the exponentials e and their row sums s; the
// row maxima's use is internal: m is contracted to a tile-local buffer);
// e and s (256x1, as PyTorch keeps reduced dimensions) are row-aligned, so
// each row tile computes its rows of both in place. The products and their
// zero fills stay as they are. Q K^T (a reduction of 40) is refused as a
// producer too: fused, its loops ran ~8x slower than pb-register-tile's
// kernel.
// CHECK-LABEL: func.func @softmax_between_products
// CHECK: affine.for %{{.*}} = 0 to 256 {
// CHECK:   affine.for %{{.*}} = 0 to 128 {
// CHECK:     affine.for %{{.*}} = 0 to 40 {
// CHECK: affine.parallel
// CHECK:   memref.alloca() {alignment = 64 : i64} : memref<{{[0-9]+}}xf32>
// CHECK:   arith.maximumf
// CHECK:   math.exp
// CHECK:   affine.store %{{.*}}, %[[E:.*]][%{{.*}}] : memref<256x128xf32>
// CHECK:   arith.addf
// CHECK: }
// CHECK: affine.for %{{.*}} = 0 to 256 {
// CHECK:   affine.for %{{.*}} = 0 to 16 {
// CHECK:     affine.for %{{.*}} = 0 to 128 {
// CHECK:       arith.divf
func.func @softmax_between_products(%q: memref<256x40xf32>, %k: memref<40x128xf32>, %v: memref<128x16xf32>, %o: memref<256x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sc = memref.alloc() : memref<256x128xf32>
  // expected-remark @+1 {{[pb-fuse] not fused: producer S1 is a contraction: left whole for pb-register-tile (the nests between contractions are tried alone)}}
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 128 {
      affine.store %zero, %sc[%i, %j] : memref<256x128xf32>
    }
  }
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 128 {
      affine.for %r = 0 to 40 {
        %a = affine.load %q[%i, %r] : memref<256x40xf32>
        %b = affine.load %k[%r, %j] : memref<40x128xf32>
        %c = affine.load %sc[%i, %j] : memref<256x128xf32>
        %p = arith.mulf %a, %b : f32
        %t = arith.addf %c, %p : f32
        affine.store %t, %sc[%i, %j] : memref<256x128xf32>
      }
    }
  }
  // expected-remark @+1 {{[pb-fuse] fused producers S0,S1 into consumers S2,S3,S4 of A2: row tile}}
  %m = memref.alloc() : memref<256xf32>
  %e = memref.alloc() : memref<256x128xf32>
  %s = memref.alloc() : memref<256x1xf32>
  affine.for %i = 0 to 256 {
    affine.store %ninf, %m[%i] : memref<256xf32>
  }
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 128 {
      %x = affine.load %sc[%i, %j] : memref<256x128xf32>
      %old = affine.load %m[%i] : memref<256xf32>
      %new = arith.maximumf %x, %old : f32
      affine.store %new, %m[%i] : memref<256xf32>
    }
  }
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 128 {
      %x = affine.load %sc[%i, %j] : memref<256x128xf32>
      %mx = affine.load %m[%i] : memref<256xf32>
      %d = arith.subf %x, %mx : f32
      %y = math.exp %d : f32
      affine.store %y, %e[%i, %j] : memref<256x128xf32>
    }
  }
  affine.for %i = 0 to 256 {
    affine.store %zero, %s[%i, 0] : memref<256x1xf32>
  }
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 128 {
      %y = affine.load %e[%i, %j] : memref<256x128xf32>
      %old = affine.load %s[%i, 0] : memref<256x1xf32>
      %new = arith.addf %y, %old : f32
      affine.store %new, %s[%i, 0] : memref<256x1xf32>
    }
  }
  affine.for %i = 0 to 256 {
    affine.for %d = 0 to 16 {
      affine.store %zero, %o[%i, %d] : memref<256x16xf32>
    }
  }
  affine.for %i = 0 to 256 {
    affine.for %d = 0 to 16 {
      affine.for %j = 0 to 128 {
        %y = affine.load %e[%i, %j] : memref<256x128xf32>
        %sum = affine.load %s[%i, 0] : memref<256x1xf32>
        %w = arith.divf %y, %sum : f32
        %b = affine.load %v[%j, %d] : memref<128x16xf32>
        %c = affine.load %o[%i, %d] : memref<256x16xf32>
        %p = arith.mulf %w, %b : f32
        %t = arith.addf %c, %p : f32
        affine.store %t, %o[%i, %d] : memref<256x16xf32>
      }
    }
  }
  memref.dealloc %sc : memref<256x128xf32>
  memref.dealloc %m : memref<256xf32>
  memref.dealloc %e : memref<256x128xf32>
  memref.dealloc %s : memref<256x1xf32>
  return
}

// Refused: two outputs, but the row sums of row i read row i + 1 of the
// other output, which the next row tile writes (tiles would race).
// CHECK-LABEL: func.func @outputs_across_tiles
// CHECK-NOT: affine.parallel
// CHECK: return
func.func @outputs_across_tiles(%in: memref<257x128xf32>, %e: memref<257x128xf32>, %s: memref<257x1xf32>) {
  %t = memref.alloc() : memref<257x128xf32>
  // expected-remark @+1 {{[pb-fuse] not fused: S2 touches two outputs in different tiles}}
  affine.for %i = 0 to 257 {
    affine.for %j = 0 to 128 {
      %x = affine.load %in[%i, %j] : memref<257x128xf32>
      %y = arith.addf %x, %x : f32
      affine.store %y, %t[%i, %j] : memref<257x128xf32>
    }
  }
  affine.for %i = 0 to 257 {
    affine.for %j = 0 to 128 {
      %x = affine.load %t[%i, %j] : memref<257x128xf32>
      %y = math.exp %x : f32
      affine.store %y, %e[%i, %j] : memref<257x128xf32>
    }
  }
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 128 {
      %y = affine.load %e[%i + 1, %j] : memref<257x128xf32>
      %old = affine.load %s[%i, 0] : memref<257x1xf32>
      %new = arith.addf %y, %old : f32
      affine.store %new, %s[%i, 0] : memref<257x1xf32>
    }
  }
  memref.dealloc %t : memref<257x128xf32>
  return
}

// Inside a tile, consumer nests with the same loops share them when no
// dependence turns backward: the exponentials and their row sum (past the
// sums' zero fill, which runs first) are one loop; the maxima must be
// complete before any exponential, so they keep their own loop.
// CHECK-LABEL: func.func @jammed
// CHECK: affine.parallel
// CHECK: arith.maximumf
// CHECK: affine.store %{{.*}}, %arg2[%{{.*}}, 0] : memref<256x1xf32>
// CHECK: affine.for
// CHECK: affine.for
// CHECK: math.exp
// CHECK-NEXT: affine.store %{{.*}}, %arg1
// CHECK-NEXT: affine.load %arg1
// CHECK-NEXT: affine.load %arg2
// CHECK-NEXT: arith.addf
// Not jammed: the same loops, but the sums read the next column's
// exponential, which the shared loop would compute only after.
// CHECK-LABEL: func.func @not_jammed
// CHECK: math.exp
// CHECK-NEXT: affine.store
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK: affine.load %arg1[%{{.*}}, %{{.*}} + 1]
// CHECK: arith.addf
func.func @jammed(%in: memref<256x128xf32>, %e: memref<256x128xf32>, %s: memref<256x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %m = memref.alloc() : memref<256xf32>
  // expected-remark @+1 {{[pb-fuse] fused producers S0,S1 into consumers S2,S3,S4 of A2: row tile 64 (4 parallel tiles)}}
  affine.for %i = 0 to 256 {
    affine.store %ninf, %m[%i] : memref<256xf32>
  }
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 128 {
      %x = affine.load %in[%i, %j] : memref<256x128xf32>
      %old = affine.load %m[%i] : memref<256xf32>
      %new = arith.maximumf %x, %old : f32
      affine.store %new, %m[%i] : memref<256xf32>
    }
  }
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 128 {
      %x = affine.load %in[%i, %j] : memref<256x128xf32>
      %mx = affine.load %m[%i] : memref<256xf32>
      %d = arith.subf %x, %mx : f32
      %y = math.exp %d : f32
      affine.store %y, %e[%i, %j] : memref<256x128xf32>
    }
  }
  affine.for %i = 0 to 256 {
    affine.store %zero, %s[%i, 0] : memref<256x1xf32>
  }
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 128 {
      %y = affine.load %e[%i, %j] : memref<256x128xf32>
      %old = affine.load %s[%i, 0] : memref<256x1xf32>
      %new = arith.addf %y, %old : f32
      affine.store %new, %s[%i, 0] : memref<256x1xf32>
    }
  }
  memref.dealloc %m : memref<256xf32>
  return
}

func.func @not_jammed(%in: memref<256x129xf32>, %e: memref<256x129xf32>, %s: memref<256x1xf32>) {
  %t = memref.alloc() : memref<256x129xf32>
  // expected-remark @+1 {{[pb-fuse] fused producers S0 into consumers S1,S2 of A2: row tile 32 (8 parallel tiles)}}
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 128 {
      %x = affine.load %in[%i, %j] : memref<256x129xf32>
      %y = arith.addf %x, %x : f32
      affine.store %y, %t[%i, %j] : memref<256x129xf32>
    }
  }
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 128 {
      %x = affine.load %t[%i, %j] : memref<256x129xf32>
      %y = math.exp %x : f32
      affine.store %y, %e[%i, %j] : memref<256x129xf32>
    }
  }
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 128 {
      %y = affine.load %e[%i, %j + 1] : memref<256x129xf32>
      %old = affine.load %s[%i, 0] : memref<256x1xf32>
      %new = arith.addf %y, %old : f32
      affine.store %new, %s[%i, 0] : memref<256x1xf32>
    }
  }
  memref.dealloc %t : memref<256x129xf32>
  return
}

// A batch of row blocks (attention heads): batch and row tiles form one
// two-dimensional parallel band, batch outer, so each thread's share of the
// collapsed iterations is one contiguous stretch of memory.
// CHECK-LABEL: func.func @normalize_heads
// CHECK: affine.parallel (%[[H:.*]], %[[T:.*]]) = (0, 0) to (4, 8) {
// CHECK-NEXT: memref.alloca() {alignment = 64 : i64} : memref<1x32xf32>
// CHECK: affine.load %arg0[%[[H]], %{{.*}}, %{{.*}}]
// With a first-level cache in the model, each pass after the first
// re-reads what of the tile exceeds it from the second level: three passes
// over 32-row tiles (32 KiB) cost more than the tiles of 16 rows (16 KiB)
// that fit.
// INNER: remark: [pb-fuse] fused producers S0 into consumers S1,S2,S3 of A2: row tile 16 (64 parallel tiles), tile-local A0[1x16] in 1 buffer = 0 KiB, 16 KiB in cache (budget 64 KiB; 3 passes over the rows, first-level cache 16 KiB)
// SERIAL-LABEL: func.func @normalize_heads
// SERIAL-NOT: affine.parallel
// SERIAL: return
func.func @normalize_heads(%in: memref<4x256x256xf32>, %out: memref<4x256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<4x256xf32>
  // expected-remark @+1 {{[pb-fuse] fused producers S0 into consumers S1,S2,S3 of A2: row tile 32 (32 parallel tiles)}}
  affine.for %h = 0 to 4 {
    affine.for %i = 0 to 256 {
      affine.store %zero, %s[%h, %i] : memref<4x256xf32>
    }
  }
  affine.for %h = 0 to 4 {
    affine.for %i = 0 to 256 {
      affine.for %j = 0 to 256 {
        %x = affine.load %in[%h, %i, %j] : memref<4x256x256xf32>
        %e = math.exp %x : f32
        affine.store %e, %out[%h, %i, %j] : memref<4x256x256xf32>
      }
    }
  }
  affine.for %h = 0 to 4 {
    affine.for %i = 0 to 256 {
      affine.for %j = 0 to 256 {
        %x = affine.load %out[%h, %i, %j] : memref<4x256x256xf32>
        %a = affine.load %s[%h, %i] : memref<4x256xf32>
        %t = arith.addf %a, %x : f32
        affine.store %t, %s[%h, %i] : memref<4x256xf32>
      }
    }
  }
  affine.for %h = 0 to 4 {
    affine.for %i = 0 to 256 {
      affine.for %j = 0 to 256 {
        %x = affine.load %out[%h, %i, %j] : memref<4x256x256xf32>
        %a = affine.load %s[%h, %i] : memref<4x256xf32>
        %d = arith.divf %x, %a : f32
        affine.store %d, %out[%h, %i, %j] : memref<4x256x256xf32>
      }
    }
  }
  memref.dealloc %s : memref<4x256xf32>
  return
}
