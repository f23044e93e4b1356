// RUN: pb-opt --pass-pipeline='builtin.module(func.func(convert-linalg-to-affine-loops,pb-matrix-tile{units=amx-int8 cores=2 prepacked=true report=true}))' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(convert-linalg-to-affine-loops,pb-matrix-tile{units=amx-int8 cores=2 report=true}))' %s 2>&1 >/dev/null | FileCheck %s --check-prefix=EVERYCALL

// An int8 channels-last convolution on a 7x7 map: rows of 7 output
// columns would each be padded to a 32-row block, so the output rows and
// columns are flattened into M = 49 (row = oh * 7 + ow, the loops' values
// by floordiv and mod). The reductions run window first, channels
// innermost: A's rows are packed 64 bytes at a time by vectors. The
// weights are a static argument: packed once into a buffer kept between
// calls (pb.persistent), under the prepared flag; without `prepacked`,
// on every call.
// REPORT: remark: [pb-matrix-tile] matrix unit: i8 products, 49x32 over 576 reductions (3 loops) as 32x32 blocks of 2x2 tiles, padded to 64x32x576; A packed by 64-element vectors a row block at a time, B packed by vector shuffles, once per version of the weights, C added from a block buffer, rows: 7 x 7 flattened
// EVERYCALL: remark: [pb-matrix-tile] matrix unit: i8 products, 49x32 over 576 reductions (3 loops) as 32x32 blocks of 2x2 tiles, padded to 64x32x576; A packed by 64-element vectors a row block at a time, B packed by vector shuffles, C added from a block buffer, rows: 7 x 7 flattened
// CHECK-LABEL: func.func @conv_nhwc
// CHECK: %[[BP:.*]] = memref.alloc() {alignment = 64 : i64, pb.persistent} : memref<2x144x64xi8>
// CHECK: %[[FLAG:.*]] = memref.alloc() {pb.prepared_flag} : memref<i32>
// CHECK: %[[STALE:.*]] = arith.cmpi eq
// CHECK: scf.if %[[STALE]] {
// CHECK: vector.shuffle
// CHECK: affine.vector_store %{{.*}}, %[[BP]]
// CHECK: }
// Each row block packs its own 32 rows (window columns and channels: one
// run of 192 bytes, by 64-byte vectors) into a buffer of its own.
// CHECK: affine.parallel (%[[IB:.*]]) = (0) to (2) {
// CHECK-NEXT: memref.alloca_scope {
// CHECK-NEXT: memref.alloca() {alignment = 64 : i64} : memref<32x32xi32>
// CHECK-NEXT: %[[AP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32x576xi8>
// CHECK: affine.for %[[ROW:.*]] = #{{.*}}(%[[IB]]) to min
// CHECK: step 64 {
// CHECK: %[[V:.*]] = affine.vector_load %arg0[0, (%[[IB]] * 32 + %[[ROW]]) floordiv 7 + {{.*}}, (%[[IB]] * 32 + %[[ROW]]) mod 7 + {{.*}}] : memref<1x9x9x64xi8>, vector<64xi8>
// CHECK: affine.vector_store %[[V]], %[[AP]]
// CHECK: amx.tile_muli
// Whole 32-column blocks: the column loop adding the sums into C has
// constant bounds (no operands), so pb-vectorize takes it.
// CHECK: affine.for %{{.*}} = 0 to 32 {
// CHECK: affine.store %{{.*}}, %arg2[0, (%{{.*}} * 32 + %{{.*}}) floordiv 7, (%{{.*}} * 32 + %{{.*}}) mod 7, %{{.*}}] : memref<1x7x7x32xi32>
// CHECK: memref.dealloc %[[AP]]
// CHECK: memref.store %{{.*}}, %[[FLAG]][]
// CHECK-NOT: memref.dealloc %[[BP]] :
func.func @conv_nhwc(%x: memref<1x9x9x64xi8>, %w: memref<3x3x64x32xi8> {pb.static}, %y: memref<1x7x7x32xi32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : memref<1x9x9x64xi8>, memref<3x3x64x32xi8>) outs(%y : memref<1x7x7x32xi32>)
  return
}

// C zero-filled just before: the fill is absorbed, the sums are stored
// into C (no add, no read of C, no fill loop left).
// REPORT: remark: [pb-matrix-tile] matrix unit: i8 products, 49x32 over 576 reductions (3 loops) as 32x32 blocks of 2x2 tiles, padded to 64x32x576; A packed by 64-element vectors a row block at a time, B packed by vector shuffles, C's zero fill absorbed (sums stored), C added from a block buffer, rows: 7 x 7 flattened
// CHECK-LABEL: func.func @filled
// CHECK-NOT: affine.store %c0_i32
// CHECK: amx.tile_muli
// CHECK: %[[SUM:.*]] = affine.load %{{.*}} : memref<32x32xi32>
// CHECK-NEXT: affine.store %[[SUM]], %arg2
func.func @filled(%x: memref<1x9x9x64xi8>, %w: memref<3x3x64x32xi8>, %y: memref<1x7x7x32xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%y : memref<1x7x7x32xi32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : memref<1x9x9x64xi8>, memref<3x3x64x32xi8>) outs(%y : memref<1x7x7x32xi32>)
  return
}

// A 1x1 convolution of stride 1 on a whole, unpadded channels-last map:
// its rows, flattened from n, h and w (2 x 4 x 8 = 64, whole blocks), are
// one run of memory with the 64 channels along each, so A's tiles are
// read in place (row (n * 4 + h) * 8 + w starts 64 bytes after the one
// before it, across the map's row and image boundaries): no pack.
// REPORT: remark: [pb-matrix-tile] matrix unit: i8 products, 64x32 over 64 reductions (1 loops) as 32x32 blocks of 2x2 tiles, padded to 64x32x64; A read in place, B packed by vector shuffles, C's zero fill absorbed (sums stored), C added from a block buffer, rows: 2 x 4 x 8 flattened
// CHECK-LABEL: func.func @pointwise
// CHECK-NOT: memref<32x64xi8>
// CHECK: affine.parallel (%[[IB:.*]]) = (0) to (2) {
// CHECK: amx.tile_load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x4x8x64xi8> into !amx.tile<16x64xi8>
// CHECK: amx.tile_load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x4x8x64xi8> into !amx.tile<16x64xi8>
// CHECK: amx.tile_muli
func.func @pointwise(%x: memref<2x4x8x64xi8>, %w: memref<1x1x64x32xi8>, %y: memref<2x4x8x32xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%y : memref<2x4x8x32xi32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : memref<2x4x8x64xi8>, memref<1x1x64x32xi8>) outs(%y : memref<2x4x8x32xi32>)
  return
}

// Not when a joined dimension is a part of A's (a 1x1 convolution of
// stride 2 reads every other column: rows are not one run): packed.
// REPORT: remark: [pb-matrix-tile] matrix unit: i8 products, 64x32 over 64 reductions (1 loops) as 32x32 blocks of 2x2 tiles, padded to 64x32x64; A packed by 64-element vectors a row block at a time, B packed by vector shuffles, C's zero fill absorbed (sums stored), C added from a block buffer, rows: 2 x 4 x 8 flattened
// CHECK-LABEL: func.func @strided
// CHECK: memref<32x64xi8>
func.func @strided(%x: memref<2x8x16x64xi8>, %w: memref<1x1x64x32xi8>, %y: memref<2x4x8x32xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%y : memref<2x4x8x32xi32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : memref<2x8x16x64xi8>, memref<1x1x64x32xi8>) outs(%y : memref<2x4x8x32xi32>)
  return
}
