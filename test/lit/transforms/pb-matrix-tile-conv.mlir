// RUN: pb-opt --pass-pipeline='builtin.module(func.func(convert-linalg-to-affine-loops,pb-matrix-tile{units=amx-int8 cores=2 report=true}))' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err

// An int8 NCHW convolution: i = output channels (the weights' rows), j =
// output columns (18: one vector group of 16 plus 2 packed one by one),
// three reductions (channels, window), the output rows an outer loop.
// The weights (A) are read along their 144 contiguous reductions: packed
// by 16-byte vectors. They do not depend on the output row: packed once, before the
// outer loop. Two row blocks would not feed two cores well, so the cores
// share the output rows, each with its own B pack and block buffer.
// REPORT: remark: [pb-matrix-tile] matrix unit: i8 products, 32x18 over 144 reductions (3 loops) as 32x32 blocks of 2x2 tiles, padded to 32x32x192; A packed by 16-element vectors, B packed by vector shuffles (16 columns) and element by element (2), C added from a block buffer, per iteration of 1 outer loops
// CHECK-LABEL: func.func @conv
// CHECK: %[[AP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32x192xi8>
// CHECK: affine.vector_store %{{.*}}, %[[AP]]{{.*}} vector<16xi8>
// CHECK: affine.parallel (%[[ROW:.*]]) = (0) to (6) {
// CHECK-NEXT: %[[BP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x48x64xi8>
// CHECK: vector.shuffle
// CHECK: affine.vector_store %{{.*}}, %[[BP]]
// The last two columns, one element at a time.
// CHECK: affine.store %{{.*}}, %[[BP]][{{.*}} floordiv 16, {{.*}} floordiv 4, {{.*}}]
// CHECK: memref.alloca_scope {
// CHECK-NEXT: %[[S:.*]] = memref.alloca() {alignment = 64 : i64} : memref<32x32xi32>
// CHECK: amx.tile_load %[[AP]]
// CHECK: amx.tile_load %[[BP]]
// CHECK: amx.tile_muli
// CHECK: amx.tile_store %[[S]]
// CHECK: affine.store %{{.*}}, %arg2[0, %{{.*}}, %[[ROW]], %{{.*}}] : memref<1x32x6x18xi32>
// CHECK: memref.dealloc %[[BP]]
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[AP]]
func.func @conv(%x: memref<1x16x8x20xi8>, %w: memref<32x16x3x3xi8>, %y: memref<1x32x6x18xi32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : memref<1x16x8x20xi8>, memref<32x16x3x3xi8>) outs(%y : memref<1x32x6x18xi32>)
  return
}

// A first layer: 3 input channels, so A (the weights) is one contiguous
// run of 27 reductions per row, packed as one 27-byte vector.
// REPORT: remark: [pb-matrix-tile] matrix unit: i8 products, 32x12 over 27 reductions (3 loops) as 32x32 blocks of 2x2 tiles, padded to 32x32x64; A packed by 27-element vectors
// CHECK-LABEL: func.func @first_layer
// CHECK: affine.vector_load %arg1{{.*}} : memref<32x3x3x3xi8>, vector<27xi8>
func.func @first_layer(%x: memref<1x3x7x14xi8>, %w: memref<32x3x3x3xi8>, %y: memref<1x32x5x12xi32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : memref<1x3x7x14xi8>, memref<32x3x3x3xi8>) outs(%y : memref<1x32x5x12xi32>)
  return
}
