// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-matrix-tile{units=amx-bf16+amx-int8 cores=2 report=true}))' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-matrix-tile{units=amx-int8 report=true}))' %s 2>%t.int8 | FileCheck %s --check-prefix=INT8ONLY
// RUN: FileCheck %s --check-prefix=REFUSED < %t.int8

// bf16 x bf16 summed in f32, 37x29 over 50: no dimension fills whole
// tiles, so A is packed (each 32-row block's rows, just before its
// products, into a 32x64 buffer of its own: zeroed first, the last block's
// missing rows and the reductions past 50 read as zeros), B is packed into
// pairs in 16-column panels (Bp[n/16][k/2][2(n%16) + k%2]), its first 16
// columns by vector shuffles and the other 13 element by element, and
// each 32x32 block's four tiles go through a block buffer into C, only
// where C exists (the block buffer on the stack of its block's iteration,
// so it stays in L1).
// REPORT-DAG: remark: [pb-matrix-tile] matrix unit: bf16 products, 37x29 over 50 reductions (1 loops) as 32x32 blocks of 2x2 tiles, padded to 64x32x64; A packed a row block at a time, B packed by vector shuffles (16 columns) and element by element (13), C added from a block buffer
// CHECK-LABEL: func.func @bf16
// CHECK: %[[BP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x32x32xbf16>
// CHECK: affine.store %{{.*}}, %[[BP]][%[[N:.*]] floordiv 16, %[[K:.*]] floordiv 2, (%[[N]] mod 16) * 2 + %[[K]] mod 2] : memref<2x32x32xbf16>
// CHECK: affine.parallel (%[[IB:.*]]) = (0) to (2) {
// CHECK-NEXT: memref.alloca_scope {
// CHECK-NEXT: %[[S:.*]] = memref.alloca() {alignment = 64 : i64} : memref<32x32xf32>
// CHECK-NEXT: %[[AP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32x64xbf16>
// CHECK: affine.store %cst{{.*}}, %[[AP]][%{{.*}}, %{{.*}}] : memref<32x64xbf16>
// CHECK: affine.store %{{.*}}, %[[AP]][%{{.*}}, %{{.*}}] : memref<32x64xbf16>
// CHECK: amx.tile_zero : !amx.tile<16x16xf32>
// CHECK: affine.for {{.*}} step 32 iter_args
// CHECK-COUNT-2: amx.tile_load %[[AP]]{{.*}} into !amx.tile<16x32xbf16>
// CHECK-COUNT-2: amx.tile_load %[[BP]]{{.*}} into !amx.tile<16x32xbf16>
// CHECK-COUNT-4: amx.tile_mulf
// CHECK-COUNT-4: amx.tile_store %[[S]]
// CHECK: affine.for %[[R:.*]] = {{.*}} to min
// CHECK: affine.for %[[C:.*]] = {{.*}} to min
// CHECK: arith.addf
// CHECK: affine.store %{{.*}}, %arg2[%[[IB]] * 32 + %[[R]], %{{.*}} * 32 + %[[C]]] : memref<37x29xf32>
// CHECK: memref.dealloc %[[AP]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[BP]]
// A target with int8 tiles only leaves the bf16 product alone, and says why.
// REFUSED-DAG: remark: [pb-matrix-tile] not on the matrix unit: the target has no unit for bf16 products
// INT8ONLY-LABEL: func.func @bf16
// INT8ONLY-NOT: amx.
// INT8ONLY: arith.extf
func.func @bf16(%a: memref<37x50xbf16>, %b: memref<50x29xbf16>, %c: memref<37x29xf32>) {
  affine.for %i = 0 to 37 {
    affine.for %j = 0 to 29 {
      affine.for %k = 0 to 50 {
        %x = affine.load %a[%i, %k] : memref<37x50xbf16>
        %y = affine.load %b[%k, %j] : memref<50x29xbf16>
        %z = affine.load %c[%i, %j] : memref<37x29xf32>
        %xf = arith.extf %x : bf16 to f32
        %yf = arith.extf %y : bf16 to f32
        %p = arith.mulf %xf, %yf : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<37x29xf32>
      }
    }
  }
  return
}

// u8 x s8 summed in i32, whole tiles: A's tiles are read in place, B is
// packed 16 columns at a time (four rows interleaved by shuffles into
// groups of four), and C's tiles start from C and go back to it.
// REPORT-DAG: remark: [pb-matrix-tile] matrix unit: i8 products, 64x32 over 128 reductions (1 loops) as 32x32 blocks of 2x2 tiles, padded to 64x32x128; A read in place, B packed by vector shuffles, C tiles loaded and stored in place
// CHECK-LABEL: func.func @int8
// CHECK: %[[BP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x32x64xi8>
// CHECK-COUNT-4: affine.vector_load %arg1{{.*}} vector<16xi8>
// CHECK: vector.shuffle
// CHECK: vector.shuffle
// CHECK: vector.shuffle {{.*}} : vector<32xi8>, vector<32xi8>
// CHECK: affine.vector_store %{{.*}}, %[[BP]]{{.*}} vector<64xi8>
// CHECK: affine.parallel
// CHECK-COUNT-4: amx.tile_load %arg2{{.*}} into !amx.tile<16x16xi32>
// CHECK: affine.for {{.*}} step 64 iter_args
// CHECK-COUNT-2: amx.tile_load %arg0{{.*}} into !amx.tile<16x64xi8>
// CHECK-COUNT-2: amx.tile_load %[[BP]]{{.*}} into !amx.tile<16x64xi8>
// CHECK-COUNT-4: amx.tile_muli %{{.*}} zext, %{{.*}}, %{{.*}} :
// CHECK-COUNT-4: amx.tile_store %arg2
// CHECK-NOT: arith.addi
// CHECK: memref.dealloc %[[BP]]
func.func @int8(%a: memref<64x128xi8>, %b: memref<128x32xi8>, %c: memref<64x32xi32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 128 {
        %x = affine.load %a[%i, %k] : memref<64x128xi8>
        %y = affine.load %b[%k, %j] : memref<128x32xi8>
        %z = affine.load %c[%i, %j] : memref<64x32xi32>
        %xi = arith.extui %x : i8 to i32
        %yi = arith.extsi %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<64x32xi32>
      }
    }
  }
  return
}

// An f32 product is not the matrix unit's (pb-register-tile takes it).
// CHECK-LABEL: func.func @f32
// CHECK-NOT: amx.
// CHECK: arith.mulf
func.func @f32(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<64x64xf32>
        %y = affine.load %b[%k, %j] : memref<64x64xf32>
        %z = affine.load %c[%i, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<64x64xf32>
      }
    }
  }
  return
}

// Seven columns (a 7x7 feature map's row) are fewer than a tile's 16: they
// are padded with zeros as any edge, not left to scalar 8-bit arithmetic.
// REPORT-DAG: remark: [pb-matrix-tile] matrix unit: i8 products, 40x7 over 96 reductions (1 loops) as 32x32 blocks of 2x2 tiles, padded to 64x32x128; A packed by 32-element vectors a row block at a time, B packed element by element, C added from a block buffer
// CHECK-LABEL: func.func @narrow_int8
// CHECK: amx.tile_muli
func.func @narrow_int8(%a: memref<40x96xi8>, %b: memref<96x7xi8>, %c: memref<40x7xi32>) {
  affine.for %i = 0 to 40 {
    affine.for %j = 0 to 7 {
      affine.for %k = 0 to 96 {
        %x = affine.load %a[%i, %k] : memref<40x96xi8>
        %y = affine.load %b[%k, %j] : memref<96x7xi8>
        %z = affine.load %c[%i, %j] : memref<40x7xi32>
        %xi = arith.extsi %x : i8 to i32
        %yi = arith.extsi %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<40x7xi32>
      }
    }
  }
  return
}

// One column is a matrix-vector product, bound by memory: left to the lanes.
// REPORT-DAG: remark: [pb-matrix-tile] not on the matrix unit: 64 rows x 1 columns, a vector product (bound by memory)
// CHECK-LABEL: func.func @matvec_int8
// CHECK-NOT: amx.
// CHECK: arith.muli
func.func @matvec_int8(%a: memref<64x96xi8>, %b: memref<96x1xi8>, %c: memref<64x1xi32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 1 {
      affine.for %k = 0 to 96 {
        %x = affine.load %a[%i, %k] : memref<64x96xi8>
        %y = affine.load %b[%k, %j] : memref<96x1xi8>
        %z = affine.load %c[%i, %j] : memref<64x1xi32>
        %xi = arith.extsi %x : i8 to i32
        %yi = arith.extsi %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<64x1xi32>
      }
    }
  }
  return
}

// One block of rows and four of columns: the cores share the column
// blocks (each reads a share of B, the larger operand), and each column
// block has its own block buffer on the stack.
// REPORT-DAG: remark: [pb-matrix-tile] matrix unit: i8 products, 20x128 over 64 reductions (1 loops) as 32x32 blocks of 2x2 tiles, padded to 32x128x64; A packed by 64-element vectors, B packed by vector shuffles, its column blocks shared by the cores, C added from a block buffer
// CHECK-LABEL: func.func @wide_int8
// CHECK: affine.parallel (%{{.*}}) = (0) to (4) {
// CHECK-NEXT: memref.alloca_scope {
// CHECK-NEXT: %[[S:.*]] = memref.alloca() {alignment = 64 : i64} : memref<32x32xi32>
// CHECK: amx.tile_muli
// CHECK: amx.tile_store %[[S]][
func.func @wide_int8(%a: memref<20x64xi8>, %b: memref<64x128xi8>, %c: memref<20x128xi32>) {
  affine.for %i = 0 to 20 {
    affine.for %j = 0 to 128 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<20x64xi8>
        %y = affine.load %b[%k, %j] : memref<64x128xi8>
        %z = affine.load %c[%i, %j] : memref<20x128xi32>
        %xi = arith.extsi %x : i8 to i32
        %yi = arith.extsi %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<20x128xi32>
      }
    }
  }
  return
}
