// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-channels-last))' | FileCheck %s
// Fewer output channels (16) than the lanes of a vector (32): NCHW kept.
// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-channels-last{width=32}))' | FileCheck %s --check-prefix=NARROW
// NARROW-LABEL: func.func @block
// NARROW-COUNT-2: linalg.conv_2d_nchw_fchw
// NARROW-NOT: tensor<1x6x6x16xf32>
// NARROW-LABEL: func.func @depthwise
// NARROW: linalg.depthwise_conv_2d_nchw_chw

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>

// A 1x1 convolution, a per-channel scale with relu, a padded 3x3
// convolution, a residual add and a flatten: one channels-last region
// (N x H x W x C), loops in storage order, one copy back at the flatten.
// CHECK-DAG: #[[IN1:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d1 + d5, d2 + d6)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-DAG: #[[IN2:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d4)>
// CHECK-DAG: #[[BACK:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
// CHECK-DAG: #[[TO:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>
// CHECK-DAG: #[[DWIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d3)>
// CHECK-DAG: #[[DWW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5, d3)>
// CHECK-DAG: #[[DWOUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[TOTAPS:.*]] = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @block
// CHECK: %[[Z1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x6x6x16xf32>)
// CHECK: %[[C1:.*]] = linalg.generic {indexing_maps = [#[[IN1]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%arg0, %arg1 : tensor<1x8x6x6xf32>, tensor<16x8x1x1xf32>) outs(%[[Z1]] : tensor<1x6x6x16xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[ID]]], {{.*}}} ins(%[[C1]], %arg2 : tensor<1x6x6x16xf32>, tensor<16xf32>) outs(%{{.*}} : tensor<1x6x6x16xf32>)
// CHECK: %[[P:.*]] = tensor.pad %[[R]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: } : tensor<1x6x6x16xf32> to tensor<1x8x8x16xf32>
// CHECK: %[[C2:.*]] = linalg.generic {indexing_maps = [#[[IN2]], #[[W]], #[[OUT]]], {{.*}}} ins(%[[P]], %arg3 : tensor<1x8x8x16xf32>, tensor<16x16x3x3xf32>) outs(%{{.*}} : tensor<1x6x6x16xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], {{.*}}} ins(%[[C2]], %[[R]] : tensor<1x6x6x16xf32>, tensor<1x6x6x16xf32>) outs(%{{.*}} : tensor<1x6x6x16xf32>)
// CHECK: %[[NCHW:.*]] = linalg.generic {indexing_maps = [#[[BACK]], #[[ID]]], {{.*}}} ins(%[[SUM]] : tensor<1x6x6x16xf32>) outs(%{{.*}} : tensor<1x16x6x6xf32>)
// CHECK-NEXT: ^bb0(%[[E:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[E]] : f32
// CHECK: tensor.collapse_shape %[[NCHW]]
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// A convolution, a per-channel scale with relu, a padded 3x3 convolution,
// a residual add and a flatten: one channels-last region, one copy back.
func.func @block(%x: tensor<1x8x6x6xf32>, %w1: tensor<16x8x1x1xf32>, %s: tensor<16xf32>, %w2: tensor<16x16x3x3xf32>) -> tensor<1x576xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x8x6x6xf32>, tensor<16x8x1x1xf32>) outs(%f : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %r = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1, %s : tensor<1x16x6x6xf32>, tensor<16xf32>) outs(%e : tensor<1x16x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %z = arith.maximumf %m, %zero : f32
    linalg.yield %z : f32
  } -> tensor<1x16x6x6xf32>
  %p = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x16x6x6xf32> to tensor<1x16x8x8xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w2 : tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) outs(%f : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2, %r : tensor<1x16x6x6xf32>, tensor<1x16x6x6xf32>) outs(%e : tensor<1x16x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<1x16x6x6xf32>
  %flat = tensor.collapse_shape %sum [[0], [1, 2, 3]] : tensor<1x16x6x6xf32> into tensor<1x576xf32>
  return %flat : tensor<1x576xf32>
}

// A depthwise convolution (stride 2, padded) between two convolutions:
// stored channels-last like them, a generic whose lanes can run along the
// channels, its [C, KH, KW] weights read from a [KH, KW, C] copy; one copy
// back to NCHW at the result.
// CHECK-LABEL: func.func @depthwise
// CHECK: tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 0, 0, 0]
// CHECK: %[[TAPS:.*]] = linalg.generic {indexing_maps = [#[[TOTAPS]], #[[ID3]]], {{.*}}} ins(%arg2 : tensor<16x3x3xf32>) outs(%{{.*}} : tensor<3x3x16xf32>)
// CHECK: %[[D:.*]] = linalg.generic {indexing_maps = [#[[DWIN]], #[[DWW]], #[[DWOUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}}, %[[TAPS]] : tensor<1x7x7x16xf32>, tensor<3x3x16xf32>) outs(%{{.*}} : tensor<1x3x3x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[D]], %arg3 : tensor<1x3x3x16xf32>, tensor<16x16x1x1xf32>) outs(%{{.*}} : tensor<1x3x3x16xf32>)
// CHECK: outs(%{{.*}} : tensor<1x16x3x3xf32>)
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
func.func @depthwise(%x: tensor<1x8x6x6xf32>, %w1: tensor<16x8x1x1xf32>, %w: tensor<16x3x3xf32>, %w2: tensor<16x16x1x1xf32>) -> tensor<1x16x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x8x6x6xf32>, tensor<16x8x1x1xf32>) outs(%f : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %p = tensor.pad %c1 low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x16x6x6xf32> to tensor<1x16x7x7xf32>
  %e3 = tensor.empty() : tensor<1x16x3x3xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x16x3x3xf32>) -> tensor<1x16x3x3xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p, %w : tensor<1x16x7x7xf32>, tensor<16x3x3xf32>) outs(%f3 : tensor<1x16x3x3xf32>) -> tensor<1x16x3x3xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%d, %w2 : tensor<1x16x3x3xf32>, tensor<16x16x1x1xf32>) outs(%f3 : tensor<1x16x3x3xf32>) -> tensor<1x16x3x3xf32>
  return %c2 : tensor<1x16x3x3xf32>
}

// A grouped convolution in the graph (not done yet): left NCHW, named ops
// unchanged.
// CHECK-LABEL: func.func @grouped
// CHECK: linalg.conv_2d_ngchw_gfchw
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: tensor<1x4x4x16xf32>
func.func @grouped(%x: tensor<1x2x8x6x6xf32>, %w: tensor<2x8x8x3x3xf32>, %w1: tensor<16x16x1x1xf32>, %y: tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x8x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x8x4x4xf32>) -> tensor<1x2x8x4x4xf32>
  %g = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x8x6x6xf32>, tensor<2x8x8x3x3xf32>) outs(%f : tensor<1x2x8x4x4xf32>) -> tensor<1x2x8x4x4xf32>
  %e1 = tensor.empty() : tensor<1x16x4x4xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %w1 : tensor<1x16x4x4xf32>, tensor<16x16x1x1xf32>) outs(%f1 : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  return %c : tensor<1x16x4x4xf32>
}

// A transpose to NHWC after a convolution (ConvNeXt's permute) reads the
// channels-last value in storage order: a plain copy.
// CHECK-LABEL: func.func @permute
// CHECK: %[[C:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x6x6x16xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], {{.*}}} ins(%[[C]] : tensor<1x6x6x16xf32>) outs(%{{.*}} : tensor<1x6x6x16xf32>)
func.func @permute(%x: tensor<1x8x6x6xf32>, %w1: tensor<16x8x1x1xf32>) -> tensor<1x6x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x8x6x6xf32>, tensor<16x8x1x1xf32>) outs(%f : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %e2 = tensor.empty() : tensor<1x6x6x16xf32>
  %t = linalg.transpose ins(%c : tensor<1x16x6x6xf32>) outs(%e2 : tensor<1x6x6x16xf32>) permutation = [0, 2, 3, 1]
  return %t : tensor<1x6x6x16xf32>
}

// A table the channel loop reads with a stride (T[c, 1]) is read from a
// copy with the channels last: one vector load per 16 channels.
// CHECK-LABEL: func.func @table
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<16x3xf32>) outs(%{{.*}} : tensor<3x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[T]] : tensor<1x6x6x16xf32>, tensor<3x16xf32>) outs(%{{.*}} : tensor<1x6x6x16xf32>)
func.func @table(%x: tensor<1x8x6x6xf32>, %w1: tensor<16x8x1x1xf32>, %t: tensor<16x3xf32>) -> tensor<1x16x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x8x6x6xf32>, tensor<16x8x1x1xf32>) outs(%f : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %r = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1, d2, d3) -> (d1, 1)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %t : tensor<1x16x6x6xf32>, tensor<16x3xf32>) outs(%e : tensor<1x16x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x16x6x6xf32>
  return %r : tensor<1x16x6x6xf32>
}

// The graph's input has a vector's worth of channels (16): the padded
// input is read through one transposing copy into N x H x W x C (the
// convolution then reads it in place instead of gathering packed panels
// per call).
// The NCHW zero fill the convolution started from is dead once it starts
// from a channels-last one: erased (bufferized, it wrote a whole map).
// CHECK-LABEL: func.func @wide_input
// CHECK-NOT: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x16x6x6xf32>)
// CHECK: %[[PAD:.*]] = tensor.pad %arg0
// CHECK: %[[NHWC:.*]] = linalg.generic {indexing_maps = [#[[TO]], #{{.*}}], {{.*}}} ins(%[[PAD]] : tensor<1x16x8x8xf32>) outs(%{{.*}} : tensor<1x8x8x16xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[IN2]], #[[W]], #[[OUT]]], {{.*}}} ins(%[[NHWC]], %arg1 : tensor<1x8x8x16xf32>, tensor<16x16x3x3xf32>)
func.func @wide_input(%x: tensor<1x16x6x6xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<1x16x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x16x6x6xf32> to tensor<1x16x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) outs(%f : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  return %c : tensor<1x16x6x6xf32>
}

// A concatenation along the channels of two channels-last maps (DenseNet's
// `torch.cat(features, 1)`): concatenated channels-last, along the stored
// channel position, and read by the next convolution in place (no
// transposing copy of the pieces or of the concatenation).
// CHECK-LABEL: func.func @dense_concat
// CHECK: %[[A:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x6x6x16xf32>)
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%[[A]], %arg2 : tensor<1x6x6x16xf32>, tensor<16x16x1x1xf32>) outs(%{{.*}} : tensor<1x6x6x16xf32>)
// CHECK-NOT: linalg.generic
// CHECK: %[[CAT:.*]] = tensor.concat dim(3) %[[A]], %[[B]] : (tensor<1x6x6x16xf32>, tensor<1x6x6x16xf32>) -> tensor<1x6x6x32xf32>
// CHECK-NOT: linalg.generic
// CHECK: linalg.generic {{.*}} ins(%[[CAT]], %arg3 : tensor<1x6x6x32xf32>, tensor<16x32x1x1xf32>) outs(%{{.*}} : tensor<1x6x6x16xf32>)
func.func @dense_concat(%x: tensor<1x8x6x6xf32>, %w1: tensor<16x8x1x1xf32>, %w2: tensor<16x16x1x1xf32>, %w3: tensor<16x32x1x1xf32>) -> tensor<1x16x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x8x6x6xf32>, tensor<16x8x1x1xf32>) outs(%f : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%a, %w2 : tensor<1x16x6x6xf32>, tensor<16x16x1x1xf32>) outs(%f : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %cat = tensor.concat dim(1) %a, %b : (tensor<1x16x6x6xf32>, tensor<1x16x6x6xf32>) -> tensor<1x32x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%cat, %w3 : tensor<1x32x6x6xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  return %c : tensor<1x16x6x6xf32>
}
