// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{cores=2 cache-bytes=65536 inner-cache-bytes=16384 outer-cache-bytes=1 report=true},canonicalize))' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err

// A vertical 3-tap stencil over a horizontal one (the rows it reads are
// its own row plus constants): inside a row tile the two nests advance row
// by row together, the producer two rows ahead, so each row of the
// temporary is computed once per tile and read while it is still in
// cache; tall tiles cost no more cache, so the halo recomputed is small.
// REPORT-DAG: :{{[0-9]+}}:3: remark: [pb-fuse] fused producers S0 into consumers S1 of A2: row tile {{[0-9]+}} ({{[0-9]+}} parallel tiles, rows advancing together), tile-local A1[3x1022] (rows folded from {{[0-9]+}})
// The step loop over the tile's rows holds both statements: the producer's
// row, then the consumer's row two above it. The consumer reads the
// producer's row of this step and of the two before, so the temporary
// keeps three rows, whatever the tile's height (storage folding), its row
// index taken modulo 3 (canonicalized into `x - (x floordiv 3) * 3`).
// CHECK-LABEL: func.func @rows_together
// CHECK: affine.parallel
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<3x1022xf32>
// CHECK: affine.for %[[STEP:.*]] =
// CHECK:   affine.for %[[J:.*]] = 0 to 1022 {
// CHECK:     affine.load %arg0
// CHECK:     affine.store {{.*}}, %[[L:.*]][{{.*}} floordiv 3) * 3
// CHECK:   affine.for %[[J2:.*]] = 0 to 1022 {
// CHECK:     affine.load %[[L]][{{.*}} mod 3
// CHECK:     affine.load %[[L]][{{.*}} floordiv 3) * 3 + 1
// CHECK:     affine.load %[[L]][{{.*}} floordiv 3) * 3 + 2
// CHECK:     affine.store {{.*}}, %arg1[
func.func @rows_together(%in: memref<1024x1024xf32>, %out: memref<1022x1022xf32>) {
  %t = memref.alloc() : memref<1024x1022xf32>
  affine.for %i = 0 to 1024 {
    affine.for %j = 0 to 1022 {
      %a = affine.load %in[%i, %j] : memref<1024x1024xf32>
      %b = affine.load %in[%i, %j + 2] : memref<1024x1024xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %t[%i, %j] : memref<1024x1022xf32>
    }
  }
  affine.for %i = 0 to 1022 {
    affine.for %j = 0 to 1022 {
      %a = affine.load %t[%i, %j] : memref<1024x1022xf32>
      %b = affine.load %t[%i + 1, %j] : memref<1024x1022xf32>
      %c = affine.load %t[%i + 2, %j] : memref<1024x1022xf32>
      %s = arith.addf %a, %b : f32
      %u = arith.addf %s, %c : f32
      affine.store %u, %out[%i, %j] : memref<1022x1022xf32>
    }
  }
  memref.dealloc %t : memref<1024x1022xf32>
  return
}

// A consumer reading the rows of the temporary through a loop of its own
// (a reduction over the window) has no constant row offset: each nest runs
// over all of its rows before the next, as before.
// REPORT-DAG: :57:3: remark: [pb-fuse] fused producers S0 into consumers S1 of A2: row tile {{[0-9]+}} ({{[0-9]+}} parallel tiles), tile-local
func.func @window_loop(%in: memref<1024x1024xf32>, %out: memref<1022x1022xf32>) {
  %t = memref.alloc() : memref<1024x1022xf32>
  affine.for %i = 0 to 1024 {
    affine.for %j = 0 to 1022 {
      %a = affine.load %in[%i, %j] : memref<1024x1024xf32>
      %b = affine.load %in[%i, %j + 2] : memref<1024x1024xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %t[%i, %j] : memref<1024x1022xf32>
    }
  }
  affine.for %i = 0 to 1022 {
    affine.for %j = 0 to 1022 {
      affine.for %k = 0 to 3 {
        %a = affine.load %t[%i + %k, %j] : memref<1024x1022xf32>
        %o = affine.load %out[%i, %j] : memref<1022x1022xf32>
        %s = arith.addf %a, %o : f32
        affine.store %s, %out[%i, %j] : memref<1022x1022xf32>
      }
    }
  }
  memref.dealloc %t : memref<1024x1022xf32>
  return
}

// Temporaries of rank 4 (a filter's N x 1 x H x W) and an output of rank 3
// written through a linearized index with a unit loop (a reshape folded
// into the access, `256 * c + i` with c = 0): rows are the second-to-last
// index of each array, and the unit loop is its constant.
// REPORT-DAG: :{{[0-9]+}}:3: remark: [pb-fuse] fused producers S0 into consumers S1 of A2: row tile {{[0-9]+}} ({{[0-9]+}} parallel tiles, rows advancing together), tile-local A1[1x1x3x254] (rows folded from {{[0-9]+}})
func.func @unit_dims(%in: memref<2x1x258x256xf32>, %out: memref<2x256x254xf32>) {
  %t = memref.alloc() : memref<2x1x258x254xf32>
  affine.for %n = 0 to 2 {
    affine.for %c = 0 to 1 {
      affine.for %i = 0 to 258 {
        affine.for %j = 0 to 254 {
          %a = affine.load %in[%n, %c, %i, %j] : memref<2x1x258x256xf32>
          %b = affine.load %in[%n, %c, %i, %j + 2] : memref<2x1x258x256xf32>
          %s = arith.addf %a, %b : f32
          affine.store %s, %t[%n, %c, %i, %j] : memref<2x1x258x254xf32>
        }
      }
    }
  }
  affine.for %n = 0 to 2 {
    affine.for %c = 0 to 1 {
      affine.for %i = 0 to 256 {
        affine.for %j = 0 to 254 {
          %a = affine.load %t[%n, %c, %i, %j] : memref<2x1x258x254xf32>
          %b = affine.load %t[%n, %c, %i + 2, %j] : memref<2x1x258x254xf32>
          %s = arith.addf %a, %b : f32
          affine.store %s, %out[%n, %c * 256 + %i, %j] : memref<2x256x254xf32>
        }
      }
    }
  }
  memref.dealloc %t : memref<2x1x258x254xf32>
  return
}
