// RUN: pb-opt --pass-pipeline='builtin.module(func.func(convert-linalg-to-affine-loops,pb-gpu-mma{chip=sm_90 report=true}))' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(convert-linalg-to-affine-loops,pb-gpu-mma{chip=sm_90}),pb-gpu-emulate)' %s | FileCheck %s --check-prefix=EMU
// RUN: not pb-opt --pass-pipeline='builtin.module(func.func(pb-gpu-mma{chip=sm_7}))' %s 2>&1 | FileCheck %s --check-prefix=CHIP

// An f16 matmul summed in f32 with edges on every side (100 rows, 80
// columns, 72 reductions): a launch of 64x64 blocks of 4 warps (the tile
// keeping the most of sm_90's tensor cores busy for 100x80), A's and B's
// 32-deep blocks in workgroup memory (rows padded by 8 halves), zeros past
// the edges, 2x2 fragments per warp, the zero fill absorbed (C stored).
// REPORT: remark: [pb-gpu-mma] tensor cores: f16 products summed in f32, 100x80 over 72 reductions; blocks of 64x64 (4 warps of 2x2 16x16 fragments), 32 reductions per shared-memory step (13824 bytes), grid 2x2x1; C's zero fill absorbed
// CHECK-LABEL: func.func @edges
// CHECK-NOT: affine.for
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c2{{.*}}, {{.*}} = %c2{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) workgroup(%[[AS:.*]] : memref<64x40xf16, #gpu.address_space<workgroup>>, %[[BS:.*]] : memref<32x72xf16, #gpu.address_space<workgroup>>, %[[WS:.*]] : memref<64x16xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-4: gpu.subgroup_mma_constant_matrix
// CHECK: scf.for {{.*}} iter_args
// Rows of A (72 halves) and of B (80) are whole 16-byte groups: each
// thread copies 8 halves at once (zeros past the 100 rows, 80 columns).
// CHECK: scf.if {{.*}} -> (vector<8xf16>)
// CHECK: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<100x72xf16>, vector<8xf16>
// CHECK: vector.store {{.*}}, %[[AS]][{{.*}}] {alignment = 16 : i64}
// CHECK: vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<72x80xf16>, vector<8xf16>
// CHECK: vector.store {{.*}}, %[[BS]]
// CHECK: gpu.barrier
// CHECK: gpu.subgroup_mma_load_matrix %[[AS]]{{.*}}leadDimension = 40 : index{{.*}}"AOp">
// CHECK: gpu.subgroup_mma_load_matrix %[[BS]]{{.*}}leadDimension = 72 : index{{.*}}"BOp">
// CHECK-COUNT-8: gpu.subgroup_mma_compute
// CHECK: gpu.barrier
// CHECK: scf.yield
// The epilogue: each fragment through the warp's staging rows, stored
// (not added: the fill was absorbed) where it is inside C.
// CHECK: gpu.subgroup_mma_store_matrix {{.*}}, %[[WS]]
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: memref.load %[[WS]]
// CHECK-NOT: memref.load %arg2
// CHECK: memref.store {{.*}}, %arg2
func.func @edges(%a: memref<100x72xf16>, %b: memref<72x80xf16>, %c: memref<100x80xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<100x80xf32>)
  linalg.matmul ins(%a, %b : memref<100x72xf16>, memref<72x80xf16>) outs(%c : memref<100x80xf32>)
  return
}

// f16 sums: rounded once from f32; C's values before (a bias) are added,
// and 64 rows, 128 columns and 64 reductions need no guards.
// REPORT: remark: [pb-gpu-mma] tensor cores: f16 products summed in f32 (rounded once to f16), 64x128 over 64 reductions
// CHECK-LABEL: func.func @half_sums
// CHECK: gpu.launch
// CHECK-NOT: scf.if
// CHECK: gpu.subgroup_mma_store_matrix
// CHECK: %[[SUM:.*]] = memref.load
// CHECK: %[[OLD:.*]] = memref.load %arg2
// CHECK: %[[WIDE:.*]] = arith.extf %[[OLD]] : f16 to f32
// CHECK: %[[ADD:.*]] = arith.addf %[[SUM]], %[[WIDE]] : f32
// CHECK: arith.truncf %[[ADD]] : f32 to f16
func.func @half_sums(%a: memref<64x64xf16>, %b: memref<64x128xf16>, %c: memref<64x128xf16>) {
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x128xf16>) outs(%c : memref<64x128xf16>)
  return
}

// A front that widens the f16 operands into f32 buffers first (torch-mlir
// for PyTorch's half matmuls): read around, the widening nests erased.
// REPORT: remark: [pb-gpu-mma] tensor cores: f16 products summed in f32, 32x32 over 32 reductions
// CHECK-LABEL: func.func @widened
// CHECK-NOT: arith.extf
// CHECK: gpu.launch
// CHECK: vector.load %arg0
// CHECK: vector.load %arg1
func.func @widened(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %c: memref<32x32xf32>) {
  %wa = memref.alloc() : memref<32x32xf32>
  %wb = memref.alloc() : memref<32x32xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<32x32xf16>) outs(%wa : memref<32x32xf32>) {
  ^bb0(%x: f16, %o: f32):
    %e = arith.extf %x : f16 to f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%b : memref<32x32xf16>) outs(%wb : memref<32x32xf32>) {
  ^bb0(%x: f16, %o: f32):
    %e = arith.extf %x : f16 to f32
    linalg.yield %e : f32
  }
  linalg.matmul ins(%wa, %wb : memref<32x32xf32>, memref<32x32xf32>) outs(%c : memref<32x32xf32>)
  return
}

// A convolution (NHWC, implicit GEMM: 2 x 8 x 8 output pixels as rows,
// the 3 x 3 x 8 window as reductions, gathered by the copy into shared
// memory) whose bias and ReLU overwrite its output: applied to each sum in
// the epilogue, one launch, the elementwise nest gone.
// REPORT: remark: [pb-gpu-mma] tensor cores: f16 products summed in f32, 128x20 over 72 reductions; {{.*}}; C's zero fill absorbed; the elementwise nest after it applied to each sum (5 ops)
// CHECK-LABEL: func.func @conv_bias_relu
// CHECK: gpu.launch
// (The window's three reductions flattened: copied element by element.)
// CHECK: memref.load %arg0[{{.*}}] : memref<2x10x10x8xf16>
// CHECK: gpu.subgroup_mma_compute
// CHECK: gpu.subgroup_mma_store_matrix
// CHECK: %[[SUM:.*]] = memref.load %{{.*}} : memref<64x16xf32, #gpu.address_space<workgroup>>
// CHECK: %[[BIAS:.*]] = memref.load %arg2
// CHECK: %[[ADD:.*]] = arith.addf %[[SUM]], %[[BIAS]]
// CHECK: %[[RELU:.*]] = arith.maximumf %[[ADD]]
// CHECK: memref.store %[[RELU]], %arg3
// CHECK-NOT: affine.for
// CHECK: return
func.func @conv_bias_relu(%x: memref<2x10x10x8xf16>, %w: memref<3x3x8x20xf16>, %bias: memref<20xf32>, %out: memref<2x8x8x20xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%out : memref<2x8x8x20xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<2x10x10x8xf16>, memref<3x3x8x20xf16>) outs(%out : memref<2x8x8x20xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%out, %bias : memref<2x8x8x20xf32>, memref<20xf32>) outs(%out : memref<2x8x8x20xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  }
  return
}

// f32 products on the FMA units (no tensor-core shape takes f32 at full
// precision): the same 64x64 blocks and copies, A's block stored transposed
// (each 16-byte read of 4 k's to 4 rows), each of the 128 threads summing 4
// rows x 8 columns in a private buffer between the barriers and in carried
// vectors across the 32 steps (4 of A and 8 of B loaded, 4 vector FMAs).
// REPORT: remark: [pb-gpu-mma] FMA units: f32 products summed in f32, 4x8 per thread, 64x64 over 64 reductions; blocks of 64x64 (128 threads of 4x8 sums), 32 reductions per shared-memory step (17408 bytes), grid 1x1x1
// (@split_loops, below:)
// REPORT: remark: [pb-gpu-mma] FMA units: f32 products summed in f32, 4x8 per thread, 64x96 over 40 reductions
// (@split_k:)
// REPORT: remark: [pb-gpu-mma] FMA units: f32 products summed in f32, 4x8 per thread, 64x48 over 1024 reductions; blocks of 64x64 (128 threads of 4x8 sums), 32 reductions per shared-memory step (17408 bytes), grid 1x1x8; the reductions split 8 ways (partial sums added into C atomically)
// Refusals: f64 products, a matrix-vector product (bound by memory).
// REPORT: remark: [pb-gpu-mma] not mapped: only f16 (summed in f32 or f16), 8-bit integer and f32 products so far
// REPORT: remark: [pb-gpu-mma] not on tensor cores: 64 rows x 1 columns, a vector product (bound by memory)
// u8 x s8 (PT2E's activations by weights; a wmma integer shape takes one
// signedness): A's bytes XOR 0x80 (u - 128, signed) as they are copied, a
// tile of ones times B's fragments gives B's column sums, and 128 times
// them is added back to each sum.
// REPORT: remark: [pb-gpu-mma] tensor cores: u8 x s8 products summed in i32 (A's bytes offset by -128, 128 x B's column sums added back), 64x64 over 64 reductions
// CHECK-LABEL: func.func @fma_f32
// CHECK: gpu.launch {{.*}} threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c128, {{.*}} workgroup(%[[AT:.*]] : memref<32x68xf32, #gpu.address_space<workgroup>>, %[[BS:.*]] : memref<32x68xf32, #gpu.address_space<workgroup>>) private(%[[ACC:.*]] : memref<4x8xf32, #gpu.address_space<private>>)
// CHECK: %[[A4:.*]] = vector.load %arg0{{.*}} : memref<64x64xf32>, vector<4xf32>
// CHECK: vector.extract %[[A4]][3]
// CHECK: memref.store %{{.*}}, %[[AT]]
// CHECK: gpu.barrier
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: vector.load %[[AT]]{{.*}} vector<4xf32>
// CHECK: %[[B8:.*]] = vector.load %[[BS]]{{.*}} vector<8xf32>
// CHECK: vector.broadcast
// CHECK: vector.fma %{{.*}}, %[[B8]], %{{.*}} : vector<8xf32>
// CHECK: vector.store %{{.*}}, %[[ACC]]
// CHECK: gpu.barrier
// CHECK: vector.load %[[ACC]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %arg2
func.func @fma_f32(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}
// Loops a reshape split (C[2 i + i', 32 j + j'], A read through the
// unsplit rows): taken as 64 rows and 96 columns, the FMA kernel's copies
// and epilogue index through the split loops again.
// CHECK-LABEL: func.func @split_loops
// CHECK: gpu.launch
// CHECK: vector.fma
// CHECK-NOT: affine.for %{{.*}} = 0 to 40
func.func @split_loops(%a: memref<32x2x40xf32>, %b: memref<40x96xf32>, %c: memref<64x96xf32>) {
  affine.for %i = 0 to 32 {
    affine.for %i2 = 0 to 2 {
      affine.for %j = 0 to 3 {
        affine.for %j2 = 0 to 32 {
          affine.for %k = 0 to 40 {
            %x = affine.load %a[%i, %i2, %k] : memref<32x2x40xf32>
            %y = affine.load %b[%k, %j * 32 + %j2] : memref<40x96xf32>
            %z = affine.load %c[%i * 2 + %i2, %j * 32 + %j2] : memref<64x96xf32>
            %p = arith.mulf %x, %y : f32
            %s = arith.addf %z, %p : f32
            affine.store %s, %c[%i * 2 + %i2, %j * 32 + %j2] : memref<64x96xf32>
          }
        }
      }
    }
  }
  return
}
// Few outputs over many reductions (64 x 48 over 1024): one block would
// leave sm_90 idle, so the 32 reduction steps split 8 ways over the grid's
// z (4 steps a block) and each block adds its partial sums into C with
// `atomic_rmw addf` (C not zero-filled here: added to as it is).
// CHECK-LABEL: func.func @split_k
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %[[BZ:.*]]) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c8)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32
// CHECK: memref.atomic_rmw addf %{{.*}}, %arg2
// CHECK-NOT: memref.store %{{.*}}, %arg2
// CHECK: gpu.terminator
func.func @split_k(%a: memref<64x1024xf32>, %b: memref<1024x48xf32>, %c: memref<64x48xf32>) {
  linalg.matmul ins(%a, %b : memref<64x1024xf32>, memref<1024x48xf32>) outs(%c : memref<64x48xf32>)
  return
}
// CHECK-LABEL: func.func @refused_f64
// CHECK-NOT: gpu.launch
// CHECK: affine.for
func.func @refused_f64(%a: memref<64x64xf64>, %b: memref<64x64xf64>, %c: memref<64x64xf64>) {
  linalg.matmul ins(%a, %b : memref<64x64xf64>, memref<64x64xf64>) outs(%c : memref<64x64xf64>)
  return
}
// CHECK-LABEL: func.func @refused_matvec
// CHECK-NOT: gpu.launch
func.func @refused_matvec(%a: memref<64x64xf16>, %b: memref<64x1xf16>, %c: memref<64x1xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x1xf16>) outs(%c : memref<64x1xf32>)
  return
}

// CHECK-LABEL: func.func @mixed_signs
// CHECK: gpu.launch {{.*}} workgroup({{.*}}, %[[ONES:.*]] : memref<16x32xi8, #gpu.address_space<workgroup>>, %[[WC:.*]] : memref<64x16xi32, #gpu.address_space<workgroup>>)
// CHECK: memref.store %{{.*}}, %[[ONES]]
// CHECK: %[[A:.*]] = vector.load %arg0
// CHECK: arith.xori %[[A]], %{{.*}} : vector<16xi8>
// CHECK: %[[ONE:.*]] = gpu.subgroup_mma_load_matrix %[[ONES]]{{.*}} -> !gpu.mma_matrix<16x16xsi8, "AOp">
// CHECK: gpu.subgroup_mma_compute %[[ONE]]
// CHECK: gpu.subgroup_mma_store_matrix %{{.*}}, %[[WC]]
// CHECK: %[[CORR:.*]] = memref.load %[[WC]]
// CHECK: arith.shli %[[CORR]]
func.func @mixed_signs(%a: memref<64x64xi8>, %b: memref<64x64xi8>, %c: memref<64x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<64x64xi8>, memref<64x64xi8>) outs(%c : memref<64x64xi32>) {
  ^bb0(%x: i8, %y: i8, %o: i32):
    %xu = arith.extui %x : i8 to i32
    %ys = arith.extsi %y : i8 to i32
    %p = arith.muli %xu, %ys : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  return
}

// s8 x s8 summed in i32: byte tiles padded by 16 bytes, s8 fragments.
// REPORT: remark: [pb-gpu-mma] tensor cores: s8 products summed in i32, 64x64 over 64 reductions
// CHECK-LABEL: func.func @int8
// CHECK: workgroup(%{{.*}} : memref<64x48xi8, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x80xi8, #gpu.address_space<workgroup>>, %{{.*}} : memref<64x16xi32, #gpu.address_space<workgroup>>)
// CHECK: gpu.subgroup_mma_constant_matrix %{{.*}} : !gpu.mma_matrix<16x16xi32, "COp">
// CHECK: gpu.subgroup_mma_load_matrix {{.*}} -> !gpu.mma_matrix<16x16xsi8, "AOp">
// CHECK: gpu.subgroup_mma_compute {{.*}} -> !gpu.mma_matrix<16x16xi32, "COp">
func.func @int8(%a: memref<64x64xi8>, %b: memref<64x64xi8>, %c: memref<64x64xi32>) {
  linalg.matmul ins(%a, %b : memref<64x64xi8>, memref<64x64xi8>) outs(%c : memref<64x64xi32>)
  return
}

// The emulation: no GPU op left; each fragment a per-thread buffer of
// 128 threads x 16 x 16, the workgroup buffers host ones.
// EMU-LABEL: func.func @edges
// EMU-NOT: gpu.
// EMU: memref.alloc() : memref<64x40xf16>
// EMU: memref.alloc() : memref<128x16x16xf32>
// EMU-NOT: gpu.
// EMU: return
// The FMA tiles' private sums: a 4 x 8 slot per thread.
// EMU-LABEL: func.func @fma_f32
// EMU: memref.alloc() : memref<128x4x8xf32>
// EMU-NOT: gpu.
// EMU: return

// CHIP: pb-gpu-mma: unknown GPU 'sm_7'
