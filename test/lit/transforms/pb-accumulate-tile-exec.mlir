// Reductions without operand reuse, accumulated in registers: run the
// tiled nests and the same computations written with scf loops (which the
// pass does not touch) on the same data; every element must agree exactly
// (the updates of each element keep their order).
// RUN: pb-opt %s --pb-accumulate-tile="width=16 registers=32" | pb-opt --pass-pipeline='builtin.module(lower-affine,convert-vector-to-scf,expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-vector-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-math-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)' | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s

// A 7x7 depthwise convolution: 14-wide rows (vectors of 8, 4 and 2),
// 14 rows (tiles of 5, then one of 4).
func.func @depthwise(%x: memref<3x20x20xf32>, %w: memref<3x7x7xf32>, %y: memref<3x14x14xf32>) {
  affine.for %c = 0 to 3 {
    affine.for %h = 0 to 14 {
      affine.for %v = 0 to 14 {
        affine.for %kh = 0 to 7 {
          affine.for %kw = 0 to 7 {
            %a = affine.load %x[%c, %h + %kh, %v + %kw] : memref<3x20x20xf32>
            %b = affine.load %w[%c, %kh, %kw] : memref<3x7x7xf32>
            %o = affine.load %y[%c, %h, %v] : memref<3x14x14xf32>
            %p = arith.mulf %a, %b : f32
            %s = arith.addf %o, %p : f32
            affine.store %s, %y[%c, %h, %v] : memref<3x14x14xf32>
          }
        }
      }
    }
  }
  return
}

func.func @depthwise_reference(%x: memref<3x20x20xf32>, %w: memref<3x7x7xf32>, %y: memref<3x14x14xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c14 = arith.constant 14 : index
  scf.for %c = %c0 to %c3 step %c1 {
    scf.for %h = %c0 to %c14 step %c1 {
      scf.for %v = %c0 to %c14 step %c1 {
        scf.for %kh = %c0 to %c7 step %c1 {
          scf.for %kw = %c0 to %c7 step %c1 {
            %r = arith.addi %h, %kh : index
            %q = arith.addi %v, %kw : index
            %a = memref.load %x[%c, %r, %q] : memref<3x20x20xf32>
            %b = memref.load %w[%c, %kh, %kw] : memref<3x7x7xf32>
            %o = memref.load %y[%c, %h, %v] : memref<3x14x14xf32>
            %p = arith.mulf %a, %b : f32
            %s = arith.addf %o, %p : f32
            memref.store %s, %y[%c, %h, %v] : memref<3x14x14xf32>
          }
        }
      }
    }
  }
  return
}

// A 3x3 max pool (stride 1): the update is a maximum, no product.
func.func @max_pool(%x: memref<2x40x40xf32>, %y: memref<2x38x38xf32>) {
  affine.for %c = 0 to 2 {
    affine.for %h = 0 to 38 {
      affine.for %v = 0 to 38 {
        affine.for %kh = 0 to 3 {
          affine.for %kw = 0 to 3 {
            %a = affine.load %x[%c, %h + %kh, %v + %kw] : memref<2x40x40xf32>
            %o = affine.load %y[%c, %h, %v] : memref<2x38x38xf32>
            %m = arith.maximumf %o, %a : f32
            affine.store %m, %y[%c, %h, %v] : memref<2x38x38xf32>
          }
        }
      }
    }
  }
  return
}

func.func @max_pool_reference(%x: memref<2x40x40xf32>, %y: memref<2x38x38xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c38 = arith.constant 38 : index
  scf.for %c = %c0 to %c2 step %c1 {
    scf.for %h = %c0 to %c38 step %c1 {
      scf.for %v = %c0 to %c38 step %c1 {
        scf.for %kh = %c0 to %c3 step %c1 {
          scf.for %kw = %c0 to %c3 step %c1 {
            %r = arith.addi %h, %kh : index
            %q = arith.addi %v, %kw : index
            %a = memref.load %x[%c, %r, %q] : memref<2x40x40xf32>
            %o = memref.load %y[%c, %h, %v] : memref<2x38x38xf32>
            %m = arith.maximumf %o, %a : f32
            memref.store %m, %y[%c, %h, %v] : memref<2x38x38xf32>
          }
        }
      }
    }
  }
  return
}

// Column sums: C has one index (no rows); 37 columns = a tile of two
// vectors of 16, then vectors of 4 and 1.
func.func @column_sums(%x: memref<50x37xf32>, %y: memref<37xf32>) {
  affine.for %k = 0 to 50 {
    affine.for %j = 0 to 37 {
      %a = affine.load %x[%k, %j] : memref<50x37xf32>
      %o = affine.load %y[%j] : memref<37xf32>
      %s = arith.addf %o, %a : f32
      affine.store %s, %y[%j] : memref<37xf32>
    }
  }
  return
}

func.func @column_sums_reference(%x: memref<50x37xf32>, %y: memref<37xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c37 = arith.constant 37 : index
  %c50 = arith.constant 50 : index
  scf.for %k = %c0 to %c50 step %c1 {
    scf.for %j = %c0 to %c37 step %c1 {
      %a = memref.load %x[%k, %j] : memref<50x37xf32>
      %o = memref.load %y[%j] : memref<37xf32>
      %s = arith.addf %o, %a : f32
      memref.store %s, %y[%j] : memref<37xf32>
    }
  }
  return
}

// Fills `m` (viewed as 1-d, `n` elements) with a sequence of values in
// about [-1, 1] that is not a multiple of anything the loops step by.
func.func @fill(%m: memref<?xf32>, %n: index, %seed: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %e = %c0 to %n step %c1 {
    %i = arith.index_cast %e : index to i32
    %f = arith.sitofp %i : i32 to f32
    %g = arith.mulf %f, %seed : f32
    %s = math.sin %g : f32
    memref.store %s, %m[%e] : memref<?xf32>
  }
  return
}

// The largest |a - b| over `n` elements.
func.func @max_difference(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %e = %c0 to %n step %c1 iter_args(%m = %zero) -> f32 {
    %x = memref.load %a[%e] : memref<?xf32>
    %y = memref.load %b[%e] : memref<?xf32>
    %d = arith.subf %x, %y : f32
    %abs = math.absf %d : f32
    %next = arith.maximumf %m, %abs : f32
    scf.yield %next : f32
  }
  return %r : f32
}

// CHECK: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 1

// In a fused tile (a channels-last depthwise convolution between its
// zero fill and its activation, rows in tiles of 4 with a partial last
// one): the fill and the activation fold into the accumulated registers;
// the activation's per-channel `C x 1 x 1` table is read through a view.
func.func @in_a_tile(%x: memref<2x8x10x32xf32>, %w: memref<3x3x32xf32>, %g: memref<32x1x1xf32>, %y: memref<2x6x8x32xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %half = arith.constant 5.000000e-01 : f32
  affine.parallel (%n, %t) = (0, 0) to (2, 2) {
    affine.for %h = affine_map<(d0) -> (d0 * 4)>(%t) to min affine_map<(d0) -> (d0 * 4 + 4, 6)>(%t) {
      affine.for %ow = 0 to 8 {
        affine.for %c = 0 to 32 {
          affine.store %zero, %y[%n, %h, %ow, %c] : memref<2x6x8x32xf32>
        }
      }
    }
    affine.for %h = affine_map<(d0) -> (d0 * 4)>(%t) to min affine_map<(d0) -> (d0 * 4 + 4, 6)>(%t) {
      affine.for %ow = 0 to 8 {
        affine.for %kh = 0 to 3 {
          affine.for %kw = 0 to 3 {
            affine.for %c = 0 to 32 {
              %a = affine.load %x[%n, %h + %kh, %ow + %kw, %c] : memref<2x8x10x32xf32>
              %b = affine.load %w[%kh, %kw, %c] : memref<3x3x32xf32>
              %o = affine.load %y[%n, %h, %ow, %c] : memref<2x6x8x32xf32>
              %m = arith.mulf %a, %b : f32
              %s = arith.addf %o, %m : f32
              affine.store %s, %y[%n, %h, %ow, %c] : memref<2x6x8x32xf32>
            }
          }
        }
      }
    }
    affine.for %h = affine_map<(d0) -> (d0 * 4)>(%t) to min affine_map<(d0) -> (d0 * 4 + 4, 6)>(%t) {
      affine.for %ow = 0 to 8 {
        affine.for %c = 0 to 32 {
          %v = affine.load %y[%n, %h, %ow, %c] : memref<2x6x8x32xf32>
          %k = affine.load %g[%c, 0, 0] : memref<32x1x1xf32>
          %p = arith.mulf %v, %k : f32
          %q = arith.subf %p, %half : f32
          %r = arith.maximumf %q, %zero : f32
          affine.store %r, %y[%n, %h, %ow, %c] : memref<2x6x8x32xf32>
        }
      }
    }
  }
  return
}

func.func @in_a_tile_reference(%x: memref<2x8x10x32xf32>, %w: memref<3x3x32xf32>, %g: memref<32x1x1xf32>, %y: memref<2x6x8x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.000000e+00 : f32
  %half = arith.constant 5.000000e-01 : f32
  scf.for %n = %c0 to %c2 step %c1 {
    scf.for %h = %c0 to %c6 step %c1 {
      scf.for %ow = %c0 to %c8 step %c1 {
        scf.for %c = %c0 to %c32 step %c1 {
          %acc = scf.for %kh = %c0 to %c3 step %c1 iter_args(%a0 = %zero) -> (f32) {
            %inner = scf.for %kw = %c0 to %c3 step %c1 iter_args(%a1 = %a0) -> (f32) {
              %row = arith.addi %h, %kh : index
              %col = arith.addi %ow, %kw : index
              %a = memref.load %x[%n, %row, %col, %c] : memref<2x8x10x32xf32>
              %b = memref.load %w[%kh, %kw, %c] : memref<3x3x32xf32>
              %m = arith.mulf %a, %b : f32
              %s = arith.addf %a1, %m : f32
              scf.yield %s : f32
            }
            scf.yield %inner : f32
          }
          %k = memref.load %g[%c, %c0, %c0] : memref<32x1x1xf32>
          %p = arith.mulf %acc, %k : f32
          %q = arith.subf %p, %half : f32
          %r = arith.maximumf %q, %zero : f32
          memref.store %r, %y[%n, %h, %ow, %c] : memref<2x6x8x32xf32>
        }
      }
    }
  }
  return
}

func.func @main() {
  %s1 = arith.constant 0.731 : f32
  %s2 = arith.constant 1.377 : f32
  %s3 = arith.constant 0.193 : f32

  %x = memref.alloc() : memref<1200xf32>
  %w = memref.alloc() : memref<147xf32>
  %y1 = memref.alloc() : memref<588xf32>
  %y2 = memref.alloc() : memref<588xf32>
  %n1 = arith.constant 1200 : index
  %n2 = arith.constant 147 : index
  %n3 = arith.constant 588 : index
  %xd = memref.cast %x : memref<1200xf32> to memref<?xf32>
  %wd = memref.cast %w : memref<147xf32> to memref<?xf32>
  %y1d = memref.cast %y1 : memref<588xf32> to memref<?xf32>
  %y2d = memref.cast %y2 : memref<588xf32> to memref<?xf32>
  call @fill(%xd, %n1, %s1) : (memref<?xf32>, index, f32) -> ()
  call @fill(%wd, %n2, %s2) : (memref<?xf32>, index, f32) -> ()
  call @fill(%y1d, %n3, %s3) : (memref<?xf32>, index, f32) -> ()
  call @fill(%y2d, %n3, %s3) : (memref<?xf32>, index, f32) -> ()
  %x3 = memref.expand_shape %x [[0, 1, 2]] output_shape [3, 20, 20] : memref<1200xf32> into memref<3x20x20xf32>
  %w3 = memref.expand_shape %w [[0, 1, 2]] output_shape [3, 7, 7] : memref<147xf32> into memref<3x7x7xf32>
  %y13 = memref.expand_shape %y1 [[0, 1, 2]] output_shape [3, 14, 14] : memref<588xf32> into memref<3x14x14xf32>
  %y23 = memref.expand_shape %y2 [[0, 1, 2]] output_shape [3, 14, 14] : memref<588xf32> into memref<3x14x14xf32>
  call @depthwise(%x3, %w3, %y13) : (memref<3x20x20xf32>, memref<3x7x7xf32>, memref<3x14x14xf32>) -> ()
  call @depthwise_reference(%x3, %w3, %y23) : (memref<3x20x20xf32>, memref<3x7x7xf32>, memref<3x14x14xf32>) -> ()
  %d1 = call @max_difference(%y1d, %y2d, %n3) : (memref<?xf32>, memref<?xf32>, index) -> f32
  vector.print %d1 : f32

  %p = memref.alloc() : memref<3200xf32>
  %q1 = memref.alloc() : memref<2888xf32>
  %q2 = memref.alloc() : memref<2888xf32>
  %np = arith.constant 3200 : index
  %nq = arith.constant 2888 : index
  %pd = memref.cast %p : memref<3200xf32> to memref<?xf32>
  %q1d = memref.cast %q1 : memref<2888xf32> to memref<?xf32>
  %q2d = memref.cast %q2 : memref<2888xf32> to memref<?xf32>
  call @fill(%pd, %np, %s2) : (memref<?xf32>, index, f32) -> ()
  call @fill(%q1d, %nq, %s3) : (memref<?xf32>, index, f32) -> ()
  call @fill(%q2d, %nq, %s3) : (memref<?xf32>, index, f32) -> ()
  %p3 = memref.expand_shape %p [[0, 1, 2]] output_shape [2, 40, 40] : memref<3200xf32> into memref<2x40x40xf32>
  %q13 = memref.expand_shape %q1 [[0, 1, 2]] output_shape [2, 38, 38] : memref<2888xf32> into memref<2x38x38xf32>
  %q23 = memref.expand_shape %q2 [[0, 1, 2]] output_shape [2, 38, 38] : memref<2888xf32> into memref<2x38x38xf32>
  call @max_pool(%p3, %q13) : (memref<2x40x40xf32>, memref<2x38x38xf32>) -> ()
  call @max_pool_reference(%p3, %q23) : (memref<2x40x40xf32>, memref<2x38x38xf32>) -> ()
  %d2 = call @max_difference(%q1d, %q2d, %nq) : (memref<?xf32>, memref<?xf32>, index) -> f32
  vector.print %d2 : f32

  %z1 = memref.alloc() : memref<37xf32>
  %z2 = memref.alloc() : memref<37xf32>
  %nz = arith.constant 37 : index
  %z1d = memref.cast %z1 : memref<37xf32> to memref<?xf32>
  %z2d = memref.cast %z2 : memref<37xf32> to memref<?xf32>
  call @fill(%z1d, %nz, %s1) : (memref<?xf32>, index, f32) -> ()
  call @fill(%z2d, %nz, %s1) : (memref<?xf32>, index, f32) -> ()
  %c = memref.alloc() : memref<1850xf32>
  %nc = arith.constant 1850 : index
  %cd = memref.cast %c : memref<1850xf32> to memref<?xf32>
  call @fill(%cd, %nc, %s2) : (memref<?xf32>, index, f32) -> ()
  %c2 = memref.expand_shape %c [[0, 1]] output_shape [50, 37] : memref<1850xf32> into memref<50x37xf32>
  call @column_sums(%c2, %z1) : (memref<50x37xf32>, memref<37xf32>) -> ()
  call @column_sums_reference(%c2, %z2) : (memref<50x37xf32>, memref<37xf32>) -> ()
  %d3 = call @max_difference(%z1d, %z2d, %nz) : (memref<?xf32>, memref<?xf32>, index) -> f32
  vector.print %d3 : f32

  %tx = memref.alloc() : memref<5120xf32>
  %tw = memref.alloc() : memref<288xf32>
  %tg = memref.alloc() : memref<32xf32>
  %ty1 = memref.alloc() : memref<3072xf32>
  %ty2 = memref.alloc() : memref<3072xf32>
  %ntx = arith.constant 5120 : index
  %ntw = arith.constant 288 : index
  %ntg = arith.constant 32 : index
  %nty = arith.constant 3072 : index
  %txd = memref.cast %tx : memref<5120xf32> to memref<?xf32>
  %twd = memref.cast %tw : memref<288xf32> to memref<?xf32>
  %tgd = memref.cast %tg : memref<32xf32> to memref<?xf32>
  %ty1d = memref.cast %ty1 : memref<3072xf32> to memref<?xf32>
  %ty2d = memref.cast %ty2 : memref<3072xf32> to memref<?xf32>
  call @fill(%txd, %ntx, %s1) : (memref<?xf32>, index, f32) -> ()
  call @fill(%twd, %ntw, %s2) : (memref<?xf32>, index, f32) -> ()
  call @fill(%tgd, %ntg, %s3) : (memref<?xf32>, index, f32) -> ()
  call @fill(%ty1d, %nty, %s1) : (memref<?xf32>, index, f32) -> ()
  call @fill(%ty2d, %nty, %s2) : (memref<?xf32>, index, f32) -> ()
  %tx4 = memref.expand_shape %tx [[0, 1, 2, 3]] output_shape [2, 8, 10, 32] : memref<5120xf32> into memref<2x8x10x32xf32>
  %tw3 = memref.expand_shape %tw [[0, 1, 2]] output_shape [3, 3, 32] : memref<288xf32> into memref<3x3x32xf32>
  %tg3 = memref.expand_shape %tg [[0, 1, 2]] output_shape [32, 1, 1] : memref<32xf32> into memref<32x1x1xf32>
  %ty14 = memref.expand_shape %ty1 [[0, 1, 2, 3]] output_shape [2, 6, 8, 32] : memref<3072xf32> into memref<2x6x8x32xf32>
  %ty24 = memref.expand_shape %ty2 [[0, 1, 2, 3]] output_shape [2, 6, 8, 32] : memref<3072xf32> into memref<2x6x8x32xf32>
  call @in_a_tile(%tx4, %tw3, %tg3, %ty14) : (memref<2x8x10x32xf32>, memref<3x3x32xf32>, memref<32x1x1xf32>, memref<2x6x8x32xf32>) -> ()
  call @in_a_tile_reference(%tx4, %tw3, %tg3, %ty24) : (memref<2x8x10x32xf32>, memref<3x3x32xf32>, memref<32x1x1xf32>, memref<2x6x8x32xf32>) -> ()
  %d4 = call @max_difference(%ty1d, %ty2d, %nty) : (memref<?xf32>, memref<?xf32>, index) -> f32
  vector.print %d4 : f32

  // The sums changed the outputs (the comparison is not of untouched buffers).
  %k0 = arith.constant 0 : index
  %before = memref.alloc() : memref<37xf32>
  %bd = memref.cast %before : memref<37xf32> to memref<?xf32>
  call @fill(%bd, %nz, %s1) : (memref<?xf32>, index, f32) -> ()
  %moved = call @max_difference(%z1d, %bd, %nz) : (memref<?xf32>, memref<?xf32>, index) -> f32
  %one = arith.constant 1.0 : f32
  %big = arith.cmpf ogt, %moved, %one : f32
  %flag = arith.select %big, %one, %moved : f32
  vector.print %flag : f32
  return
}
