// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-matrix-tile{units=avx512-vnni+avx512-bf16 cores=2 report=true}))' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-matrix-tile{units=amx-int8+avx512-vnni report=true}))' %s 2>%t.amx | FileCheck %s --check-prefix=AMX
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-matrix-tile{units=avx512-vnni l1-bytes=3072}))' %s | FileCheck %s --check-prefix=CHUNK

// Without AMX, a u8 x s8 product runs on VNNI's dot products (vpdpbusd:
// each i32 lane sums four byte products): the blocks, packing and block
// buffer of the tile kernel, the sums of each 32x32 block as four groups
// of 8 rows x 2 vectors of 16 lanes, over the reductions four at a time
// (50 padded to 52, not to a tile's 64): the two B vectors of the block's
// 16-column panels, and each row's four A bytes broadcast to all lanes.
// REPORT-DAG: remark: [pb-matrix-tile] dot products: i8 products, 37x29 over 50 reductions (1 loops) as 32x32 blocks of 8x32 vector accumulators, padded to 64x32x52; A packed by 50-element vectors a row block at a time, B packed element by element, C added from a block buffer
// CHECK-LABEL: func.func @u8s8
// CHECK: %[[BP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x13x64xi8>
// CHECK: affine.parallel (%[[IB:.*]]) = (0) to (2) {
// CHECK: %[[S:.*]] = memref.alloca() {alignment = 64 : i64} : memref<32x32xi32>
// CHECK: %[[AP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32x52xi8>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0> : vector<16xi32>
// CHECK: affine.for %[[RG:.*]] = 0 to 32 step 8 {
// CHECK: affine.for %[[K:.*]] = 0 to 52 step 4 iter_args
// CHECK-COUNT-2: affine.vector_load %[[BP]][{{.*}}, %[[K]] floordiv 4, 0] : memref<2x13x64xi8>, vector<64xi8>
// CHECK: affine.vector_load %[[AP]][%[[RG]], %[[K]]] : memref<32x52xi8>, vector<4xi8>
// CHECK: vector.bitcast %{{.*}} : vector<4xi8> to vector<1xi32>
// CHECK: vector.broadcast %{{.*}} : i32 to vector<16xi32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-COUNT-15: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: affine.yield
// CHECK-COUNT-16: affine.vector_store %{{.*}}, %[[S]]
// CHECK: arith.addi
// CHECK: affine.store %{{.*}}, %arg2[%[[IB]] * 32 + %{{.*}}, %{{.*}}] : memref<37x29xi32>
// Where AMX-INT8 is there too, the tiles take it.
// AMX-LABEL: func.func @u8s8
// AMX: amx.tile_muli
// AMX-NOT: vpdpbusd
func.func @u8s8(%a: memref<37x50xi8>, %b: memref<50x29xi8>, %c: memref<37x29xi32>) {
  affine.for %i = 0 to 37 {
    affine.for %j = 0 to 29 {
      affine.for %k = 0 to 50 {
        %x = affine.load %a[%i, %k] : memref<37x50xi8>
        %y = affine.load %b[%k, %j] : memref<50x29xi8>
        %z = affine.load %c[%i, %j] : memref<37x29xi32>
        %xi = arith.extui %x : i8 to i32
        %yi = arith.extsi %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<37x29xi32>
      }
    }
  }
  return
}

// s8 x u8 (the unsigned operand is B): B's vectors are vpdpbusd's
// unsigned operand, A's broadcast its signed one.
// With a 3 KB L1, B's rows for 64 reductions (2 KB) would not stay in a
// third of it: the reductions run in chunks of 32, each row group's sums
// starting from the block buffer, zeroed before the first chunk.
// CHUNK-LABEL: func.func @s8u8
// CHUNK: %[[S:.*]] = memref.alloca() {{.*}} : memref<32x32xi32>
// CHUNK: affine.for %[[R:.*]] = 0 to 32 {
// CHUNK-NEXT: affine.vector_store %{{.*}}, %[[S]][%[[R]], 0]
// CHUNK-NEXT: affine.vector_store %{{.*}}, %[[S]][%[[R]], 16]
// CHUNK: affine.for %[[KC:.*]] = 0 to 64 step 32 {
// CHUNK-NEXT: affine.for %[[RG:.*]] = 0 to 32 step 8 {
// CHUNK-COUNT-16: affine.vector_load %[[S]]
// CHUNK: affine.for %[[K:.*]] = #{{.*}} to min #{{.*}} step 4 iter_args
// CHUNK: affine.vector_load %{{.*}}[%{{.*}}, %[[KC]] floordiv 4 + %[[K]] floordiv 4, 0] : memref<2x16x64xi8>, vector<64xi8>
// CHUNK: affine.vector_load %arg0[%{{.*}}, %[[KC]] + %[[K]]] : memref<64x64xi8>, vector<4xi8>
// CHECK-LABEL: func.func @s8u8
// CHECK: %[[B0:.*]] = affine.vector_load {{.*}} vector<64xi8>
// CHECK: %[[B1:.*]] = affine.vector_load {{.*}} vector<64xi8>
// CHECK: %[[A:.*]] = vector.bitcast %{{.*}} : vector<16xi32> to vector<64xi8>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.*}}, %[[B0]], %[[A]])
func.func @s8u8(%a: memref<64x64xi8>, %b: memref<64x32xi8>, %c: memref<64x32xi32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<64x64xi8>
        %y = affine.load %b[%k, %j] : memref<64x32xi8>
        %z = affine.load %c[%i, %j] : memref<64x32xi32>
        %xi = arith.extsi %x : i8 to i32
        %yi = arith.extui %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<64x32xi32>
      }
    }
  }
  return
}

// VNNI has no signed x signed byte product: A's bytes get their top bit
// flipped (A + 128, unsigned), and the 128 * sum(B) that adds to every
// row's sums is summed alongside (the flip's bytes times B's, two more
// accumulators) and subtracted before the sums leave the registers.
// REPORT-DAG: remark: [pb-matrix-tile] dot products: i8 products, 32x32 over 64 reductions (1 loops) as 32x32 blocks of 8x32 vector accumulators, padded to 32x32x64; A read in place, B packed by vector shuffles, C added from a block buffer
// CHECK-LABEL: func.func @s8s8
// CHECK: %[[FLIP:.*]] = arith.constant dense<-2139062144> : vector<16xi32>
// CHECK: %[[BYTES:.*]] = vector.bitcast %[[FLIP]] : vector<16xi32> to vector<64xi8>
// CHECK: %[[R:.*]]:18 = affine.for {{.*}} -> (vector<16xi32>, {{.*}}) {
// CHECK: %[[B0:.*]] = affine.vector_load {{.*}} vector<64xi8>
// CHECK: %[[B1:.*]] = affine.vector_load {{.*}} vector<64xi8>
// CHECK: %[[A:.*]] = arith.xori %{{.*}}, %[[FLIP]] : vector<16xi32>
// CHECK: %[[AB:.*]] = vector.bitcast %[[A]]
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.*}}, %[[AB]], %[[B0]])
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.*}}, %[[BYTES]], %[[B0]])
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.*}}, %[[BYTES]], %[[B1]])
// CHECK: arith.subi %[[R]]#0, %[[R]]#16 : vector<16xi32>
// CHECK: arith.subi %[[R]]#1, %[[R]]#17 : vector<16xi32>
func.func @s8s8(%a: memref<32x64xi8>, %b: memref<64x32xi8>, %c: memref<32x32xi32>) {
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<32x64xi8>
        %y = affine.load %b[%k, %j] : memref<64x32xi8>
        %z = affine.load %c[%i, %j] : memref<32x32xi32>
        %xi = arith.extsi %x : i8 to i32
        %yi = arith.extsi %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<32x32xi32>
      }
    }
  }
  return
}

// Nor unsigned x unsigned: left to the vector lanes, and said why.
// REPORT-DAG: remark: [pb-matrix-tile] not on the matrix unit: VNNI multiplies unsigned by signed bytes, both operands are unsigned
// CHECK-LABEL: func.func @u8u8
// CHECK-NOT: llvm.call_intrinsic
// CHECK: arith.extui
func.func @u8u8(%a: memref<32x64xi8>, %b: memref<64x32xi8>, %c: memref<32x32xi32>) {
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<32x64xi8>
        %y = affine.load %b[%k, %j] : memref<64x32xi8>
        %z = affine.load %c[%i, %j] : memref<32x32xi32>
        %xi = arith.extui %x : i8 to i32
        %yi = arith.extui %y : i8 to i32
        %p = arith.muli %xi, %yi : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<32x32xi32>
      }
    }
  }
  return
}

// bf16 pairs on AVX512-BF16 (vdpbf16ps): f32 lanes, reductions two at a time.
// REPORT-DAG: remark: [pb-matrix-tile] dot products: bf16 products, 32x32 over 64 reductions (1 loops) as 32x32 blocks of 8x32 vector accumulators, padded to 32x32x64; A read in place, B packed by vector shuffles, C added from a block buffer
// CHECK-LABEL: func.func @bf16
// CHECK: arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK: affine.for %{{.*}} = 0 to 64 step 2 iter_args
// CHECK: vector<2xbf16>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<16xf32>, vector<32xbf16>, vector<32xbf16>) -> vector<16xf32>
func.func @bf16(%a: memref<32x64xbf16>, %b: memref<64x32xbf16>, %c: memref<32x32xf32>) {
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 64 {
        %x = affine.load %a[%i, %k] : memref<32x64xbf16>
        %y = affine.load %b[%k, %j] : memref<64x32xbf16>
        %z = affine.load %c[%i, %j] : memref<32x32xf32>
        %xf = arith.extf %x : bf16 to f32
        %yf = arith.extf %y : bf16 to f32
        %p = arith.mulf %xf, %yf : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<32x32xf32>
      }
    }
  }
  return
}
