// RUN: pb-opt --mlir-disable-threading --pass-pipeline='builtin.module(func.func(pb-matrix-tile{units=amx-int8 cores=2 report=true}))' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err

// A quantized linear layer as pb-integer-contraction leaves it, lowered to
// loops: the i32 sums C (zero-filled), a bias broadcast into a temporary,
// the zero fill of a padded output, and the requantizing epilogue reading
// C once per element. The kernel applies the epilogue to each 32x32 block
// of sums on the stack: C is neither stored nor read back, the bias is
// read where the broadcast read it (its copy is gone), and the output's
// fill, which the epilogue's writes must follow, runs before the kernel.
// REPORT: remark: [pb-matrix-tile] matrix unit: i8 products, 64x32 over 64 reductions (1 loops) as 32x32 blocks of 2x2 tiles, padded to 64x32x64; A read in place, B packed by vector shuffles, its epilogue (11 ops) applied to each block of sums in cache (C not stored)
// CHECK-LABEL: func.func @requantize
// CHECK: %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x32xi32>
// CHECK-NOT: memref<64x32xf32>
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<66x32xi8>
// CHECK: affine.for
// CHECK: affine.store %c0_i8, %[[OUT]]
// CHECK: affine.parallel
// CHECK: amx.tile_muli
// CHECK: amx.tile_store %[[S:.*]][
// CHECK: %[[SUM:.*]] = affine.load %[[S]]
// CHECK: affine.load %arg2[
// CHECK: arith.sitofp %[[SUM]] : i32 to f32
// CHECK: math.roundeven
// CHECK: arith.fptoui
// CHECK: affine.store %{{.*}}, %[[OUT]][{{.*}} + 1, {{.*}}] : memref<66x32xi8>
// CHECK-NOT: affine.store {{.*}} %[[C]]
// CHECK-NOT: affine.load {{.*}} %[[C]]
// CHECK: return %[[OUT]]
func.func @requantize(%a: memref<64x64xi8>, %b: memref<64x32xi8>, %bias: memref<32xf32>) -> memref<66x32xi8> {
  %zero = arith.constant 0 : i32
  %c = memref.alloc() {alignment = 64 : i64} : memref<64x32xi32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<64x32xi32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<64x64xi8>
        %y = affine.load %b[%k, %j] : memref<64x32xi8>
        %z = affine.load %c[%i, %j] : memref<64x32xi32>
        %xi = arith.extui %x : i8 to i32
        %yi = arith.extsi %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<64x32xi32>
      }
    }
  }
  %broadcast = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %v = affine.load %bias[%j] : memref<32xf32>
      affine.store %v, %broadcast[%i, %j] : memref<64x32xf32>
    }
  }
  %c0_i8 = arith.constant 0 : i8
  %out = memref.alloc() {alignment = 64 : i64} : memref<66x32xi8>
  affine.for %i = 0 to 66 {
    affine.for %j = 0 to 32 {
      affine.store %c0_i8, %out[%i, %j] : memref<66x32xi8>
    }
  }
  %scale = arith.constant 0.0125 : f32
  %inverse = arith.constant 0.05 : f32
  %lo = arith.constant 0.0 : f32
  %hi = arith.constant 255.0 : f32
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %sum = affine.load %c[%i, %j] : memref<64x32xi32>
      %bv = affine.load %broadcast[%i, %j] : memref<64x32xf32>
      %f = arith.sitofp %sum : i32 to f32
      %m = arith.mulf %f, %scale : f32
      %y = arith.addf %m, %bv : f32
      %d = arith.divf %y, %inverse : f32
      %r = math.roundeven %d : f32
      %l = arith.maximumf %r, %lo : f32
      %h = arith.minimumf %l, %hi : f32
      %q = arith.fptoui %h : f32 to i8
      affine.store %q, %out[%i + 1, %j] : memref<66x32xi8>
    }
  }
  memref.dealloc %broadcast : memref<64x32xf32>
  memref.dealloc %c : memref<64x32xi32>
  return %out : memref<66x32xi8>
}

// A residual block's sum in place of its shortcut: the epilogue reads the
// shortcut's element it then overwrites. Per element that is one read
// then one write of the same statement instance, so the kernel applies it
// per block of sums as well.
// REPORT: remark: [pb-matrix-tile] {{.*}}its epilogue ({{[0-9]+}} ops) applied to each block of sums in cache (C not stored)
// CHECK-LABEL: func.func @residual_in_place
// CHECK: affine.parallel
// CHECK: amx.tile_muli
// CHECK: amx.tile_store %[[S:.*]][
// CHECK: affine.load %[[S]]
// CHECK: affine.load %arg2[
// CHECK: arith.fptoui
// CHECK: affine.store %{{.*}}, %arg2[
// CHECK-NOT: affine.load {{.*}} : memref<64x32xi32>
// CHECK: return
func.func @residual_in_place(%a: memref<64x64xi8>, %b: memref<64x32xi8>, %shortcut: memref<64x32xi8>) {
  %zero = arith.constant 0 : i32
  %c = memref.alloc() {alignment = 64 : i64} : memref<64x32xi32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<64x32xi32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<64x64xi8>
        %y = affine.load %b[%k, %j] : memref<64x32xi8>
        %z = affine.load %c[%i, %j] : memref<64x32xi32>
        %xi = arith.extui %x : i8 to i32
        %yi = arith.extsi %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<64x32xi32>
      }
    }
  }
  %scale = arith.constant 0.0125 : f32
  %inverse = arith.constant 0.05 : f32
  %lo = arith.constant 0.0 : f32
  %hi = arith.constant 255.0 : f32
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %sum = affine.load %c[%i, %j] : memref<64x32xi32>
      %id = affine.load %shortcut[%i, %j] : memref<64x32xi8>
      %f = arith.sitofp %sum : i32 to f32
      %m = arith.mulf %f, %scale : f32
      %g = arith.uitofp %id : i8 to f32
      %y = arith.addf %m, %g : f32
      %d = arith.divf %y, %inverse : f32
      %r = math.roundeven %d : f32
      %l = arith.maximumf %r, %lo : f32
      %h = arith.minimumf %l, %hi : f32
      %q = arith.fptoui %h : f32 to i8
      affine.store %q, %shortcut[%i, %j] : memref<64x32xi8>
    }
  }
  memref.dealloc %c : memref<64x32xi32>
  return
}

// Reading a neighbour of the element written (row i+1 while writing row
// i) depends on the order of the elements: not taken in, C is stored and
// the epilogue stays a nest of its own.
// REPORT: remark: [pb-matrix-tile] {{.*}}padded to 64x32x64; A read in place, B packed by vector shuffles, C's zero fill absorbed (sums stored), C tiles loaded and stored in place
// CHECK-LABEL: func.func @reads_a_neighbour
// CHECK: amx.tile_store
// CHECK: affine.load {{.*}} : memref<64x32xi32>
// CHECK: return
func.func @reads_a_neighbour(%a: memref<64x64xi8>, %b: memref<64x32xi8>, %shortcut: memref<65x32xi8>) {
  %zero = arith.constant 0 : i32
  %c = memref.alloc() {alignment = 64 : i64} : memref<64x32xi32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<64x32xi32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<64x64xi8>
        %y = affine.load %b[%k, %j] : memref<64x32xi8>
        %z = affine.load %c[%i, %j] : memref<64x32xi32>
        %xi = arith.extui %x : i8 to i32
        %yi = arith.extsi %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<64x32xi32>
      }
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %sum = affine.load %c[%i, %j] : memref<64x32xi32>
      %id = affine.load %shortcut[%i + 1, %j] : memref<65x32xi8>
      %e = arith.extui %id : i8 to i32
      %y = arith.addi %sum, %e : i32
      %q = arith.trunci %y : i32 to i8
      affine.store %q, %shortcut[%i, %j] : memref<65x32xi8>
    }
  }
  memref.dealloc %c : memref<64x32xi32>
  return
}

// Two products added, one of them requantized to 8 bits first (a ResNet
// block's projection shortcut, as PT2E quantizes it): the nest reading
// both is split at the 8-bit cast computed from the second product alone.
// Each kernel then takes in its own part: the second's writes the 8-bit
// values, the first's reads them and writes the output. Neither product's
// i32 sums are stored.
// REPORT: remark: [pb-matrix-tile] {{.*}}its epilogue ({{[0-9]+}} ops) applied to each block of sums in cache (C not stored)
// REPORT: remark: [pb-matrix-tile] {{.*}}its epilogue ({{[0-9]+}} ops) applied to each block of sums in cache (C not stored)
// CHECK-LABEL: func.func @two_products
// CHECK: %[[N:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x32xi8>
// CHECK: amx.tile_muli
// CHECK: arith.fptoui
// CHECK: affine.store %{{.*}}, %[[N]][
// CHECK: amx.tile_muli
// CHECK: affine.load %[[N]][
// CHECK: affine.store %{{.*}}, %arg3[
// CHECK-NOT: affine.store {{.*}} : memref<64x32xi32>
// CHECK-NOT: affine.load {{.*}} : memref<64x32xi32>
// CHECK: return
func.func @two_products(%a: memref<64x64xi8>, %b: memref<64x32xi8>, %b2: memref<64x32xi8>, %out: memref<64x32xi8>) {
  %zero = arith.constant 0 : i32
  %c = memref.alloc() {alignment = 64 : i64} : memref<64x32xi32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<64x32xi32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<64x64xi8>
        %y = affine.load %b[%k, %j] : memref<64x32xi8>
        %z = affine.load %c[%i, %j] : memref<64x32xi32>
        %xi = arith.extui %x : i8 to i32
        %yi = arith.extsi %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<64x32xi32>
      }
    }
  }
  %c2 = memref.alloc() {alignment = 64 : i64} : memref<64x32xi32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c2[%i, %j] : memref<64x32xi32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<64x64xi8>
        %y = affine.load %b2[%k, %j] : memref<64x32xi8>
        %z = affine.load %c2[%i, %j] : memref<64x32xi32>
        %xi = arith.extui %x : i8 to i32
        %yi = arith.extsi %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c2[%i, %j] : memref<64x32xi32>
      }
    }
  }
  %scale = arith.constant 0.0125 : f32
  %inverse = arith.constant 20.0 : f32
  %lo = arith.constant 0.0 : f32
  %hi = arith.constant 255.0 : f32
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %s2 = affine.load %c2[%i, %j] : memref<64x32xi32>
      %f2 = arith.sitofp %s2 : i32 to f32
      %m2 = arith.mulf %f2, %scale : f32
      %d2 = arith.mulf %m2, %inverse : f32
      %r2 = math.roundeven %d2 : f32
      %l2 = arith.maximumf %r2, %lo : f32
      %h2 = arith.minimumf %l2, %hi : f32
      %q2 = arith.fptoui %h2 : f32 to i8
      %g2 = arith.uitofp %q2 : i8 to f32
      %shortcut = arith.mulf %g2, %scale : f32
      %s = affine.load %c[%i, %j] : memref<64x32xi32>
      %f = arith.sitofp %s : i32 to f32
      %m = arith.mulf %f, %scale : f32
      %y = arith.addf %m, %shortcut : f32
      %d = arith.mulf %y, %inverse : f32
      %r = math.roundeven %d : f32
      %l = arith.maximumf %r, %lo : f32
      %h = arith.minimumf %l, %hi : f32
      %q = arith.fptoui %h : f32 to i8
      affine.store %q, %out[%i, %j] : memref<64x32xi8>
    }
  }
  memref.dealloc %c : memref<64x32xi32>
  memref.dealloc %c2 : memref<64x32xi32>
  return
}

// A reduction into the output (a mean over rows after the requantizing
// epilogue): it reads and writes each output element once per row, so the
// blocks of sums, run in parallel, would race on it. Not taken in.
// CHECK-LABEL: func.func @sums_rows_into_the_output
// CHECK: amx.tile_store
// CHECK: affine.load {{.*}} : memref<64x32xi32>
// CHECK: return
func.func @sums_rows_into_the_output(%a: memref<64x64xi8>, %b: memref<64x32xi8>, %sum: memref<32xf32>) {
  %zero = arith.constant 0 : i32
  %c = memref.alloc() {alignment = 64 : i64} : memref<64x32xi32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<64x32xi32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<64x64xi8>
        %y = affine.load %b[%k, %j] : memref<64x32xi8>
        %z = affine.load %c[%i, %j] : memref<64x32xi32>
        %xi = arith.extui %x : i8 to i32
        %yi = arith.extsi %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<64x32xi32>
      }
    }
  }
  %scale = arith.constant 0.0125 : f32
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c[%i, %j] : memref<64x32xi32>
      %f = arith.sitofp %v : i32 to f32
      %m = arith.mulf %f, %scale : f32
      %acc = affine.load %sum[%j] : memref<32xf32>
      %t = arith.addf %acc, %m : f32
      affine.store %t, %sum[%j] : memref<32xf32>
    }
  }
  memref.dealloc %c : memref<64x32xi32>
  return
}

// Another layer's work between the product and its epilogue (a K
// projection's sums, then the V projection's product, then the K
// epilogue): what the epilogue needs (its output's allocation) moves
// before the kernel; the rest, touching neither C nor what the epilogue
// reads or writes, stays where it is, the epilogue now done before it.
// REPORT: remark: [pb-matrix-tile] matrix unit: i8 products, 64x32 over 64 reductions (1 loops) as 32x32 blocks of 2x2 tiles, padded to 64x32x64; A read in place, B packed by vector shuffles, its epilogue (4 ops) applied to each block of sums in cache (C not stored)
// CHECK-LABEL: func.func @passed_over
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<64x32xf32>
// CHECK: affine.parallel
// CHECK: amx.tile_muli
// CHECK: arith.sitofp
// CHECK: affine.store %{{.*}}, %[[OUT]]
// CHECK: affine.for
// CHECK: arith.muli
// CHECK: affine.store %{{.*}}, %arg3
// CHECK: return %[[OUT]]
func.func @passed_over(%a: memref<64x64xi8>, %b: memref<64x32xi8>, %other: memref<64x32xi32>, %other_out: memref<64x32xi32>) -> memref<64x32xf32> {
  %zero = arith.constant 0 : i32
  %scale = arith.constant 0.5 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<64x32xi32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<64x32xi32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<64x64xi8>
        %y = affine.load %b[%k, %j] : memref<64x32xi8>
        %z = affine.load %c[%i, %j] : memref<64x32xi32>
        %xi = arith.extui %x : i8 to i32
        %yi = arith.extsi %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<64x32xi32>
      }
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %v = affine.load %other[%i, %j] : memref<64x32xi32>
      %w = arith.muli %v, %v : i32
      affine.store %w, %other_out[%i, %j] : memref<64x32xi32>
    }
  }
  %out = memref.alloc() : memref<64x32xf32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c[%i, %j] : memref<64x32xi32>
      %f = arith.sitofp %v : i32 to f32
      %g = arith.mulf %f, %scale : f32
      affine.store %g, %out[%i, %j] : memref<64x32xf32>
    }
  }
  memref.dealloc %c : memref<64x32xi32>
  return %out : memref<64x32xf32>
}

// Not when the op in between reads what the epilogue writes (it would
// see the epilogue's values early): C is stored, the epilogue stays.
// REPORT: remark: [pb-matrix-tile] matrix unit: i8 products, 64x32 over 64 reductions (1 loops) as 32x32 blocks of 2x2 tiles, padded to 64x32x64; A read in place, B packed by vector shuffles, C's zero fill absorbed (sums stored), C tiles loaded and stored in place
// CHECK-LABEL: func.func @reads_the_output
// CHECK: amx.tile_store %{{.*}}, %{{.*}} : memref<64x32xi32>
func.func @reads_the_output(%a: memref<64x64xi8>, %b: memref<64x32xi8>, %out: memref<64x32xf32>, %copy: memref<64x32xf32>) {
  %zero = arith.constant 0 : i32
  %scale = arith.constant 0.5 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<64x32xi32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<64x32xi32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<64x64xi8>
        %y = affine.load %b[%k, %j] : memref<64x32xi8>
        %z = affine.load %c[%i, %j] : memref<64x32xi32>
        %xi = arith.extui %x : i8 to i32
        %yi = arith.extsi %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<64x32xi32>
      }
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %v = affine.load %out[%i, %j] : memref<64x32xf32>
      affine.store %v, %copy[%i, %j] : memref<64x32xf32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c[%i, %j] : memref<64x32xi32>
      %f = arith.sitofp %v : i32 to f32
      %g = arith.mulf %f, %scale : f32
      affine.store %g, %out[%i, %j] : memref<64x32xf32>
    }
  }
  memref.dealloc %c : memref<64x32xi32>
  return
}

// What the epilogue needs is found through earlier writers only: the
// epilogue reads %y, written from %x; %x is written again afterwards (a
// buffer the next layer reuses), which the epilogue does not need: that
// write stays after the kernel, the two others move before it.
// REPORT: remark: [pb-matrix-tile] matrix unit: i8 products, 64x32 over 64 reductions (1 loops) as 32x32 blocks of 2x2 tiles, padded to 64x32x64; A read in place, B packed by vector shuffles, its epilogue (4 ops) applied to each block of sums in cache (C not stored)
// CHECK-LABEL: func.func @later_writer
// CHECK: affine.store %{{.*}}, %arg4[
// CHECK: affine.store %{{.*}}, %arg5[
// CHECK: affine.parallel
// CHECK: amx.tile_muli
// CHECK: affine.load %arg5[
// CHECK: affine.store %{{.*}}, %arg6[
// CHECK: affine.for
// CHECK: affine.store %{{.*}}, %arg4[
// CHECK: return
func.func @later_writer(%a: memref<64x64xi8>, %b: memref<64x32xi8>, %src: memref<32xi32>, %next: memref<32xi32>, %x: memref<32xi32>, %y: memref<32xi32>, %out: memref<64x32xi32>) {
  %zero = arith.constant 0 : i32
  %c = memref.alloc() {alignment = 64 : i64} : memref<64x32xi32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<64x32xi32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 64 {
        %p0 = affine.load %a[%i, %k] : memref<64x64xi8>
        %p1 = affine.load %b[%k, %j] : memref<64x32xi8>
        %z = affine.load %c[%i, %j] : memref<64x32xi32>
        %xi = arith.extui %p0 : i8 to i32
        %yi = arith.extsi %p1 : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<64x32xi32>
      }
    }
  }
  affine.for %j = 0 to 32 {
    %v = affine.load %src[%j] : memref<32xi32>
    affine.store %v, %x[%j] : memref<32xi32>
  }
  affine.for %j = 0 to 32 {
    %v = affine.load %x[%j] : memref<32xi32>
    %w = arith.addi %v, %v : i32
    affine.store %w, %y[%j] : memref<32xi32>
  }
  affine.for %j = 0 to 32 {
    %v = affine.load %next[%j] : memref<32xi32>
    affine.store %v, %x[%j] : memref<32xi32>
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      %v = affine.load %c[%i, %j] : memref<64x32xi32>
      %w = affine.load %y[%j] : memref<32xi32>
      %s = arith.addi %v, %w : i32
      affine.store %s, %out[%i, %j] : memref<64x32xi32>
    }
  }
  memref.dealloc %c : memref<64x32xi32>
  return
}
