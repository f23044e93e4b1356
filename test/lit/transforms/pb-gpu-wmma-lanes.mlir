// RUN: pb-opt %s --split-input-file --pb-gpu-wmma-lanes --verify-diagnostics | FileCheck %s

// A k-loop of tensor-core products, as an RDNA3 wave32's lanes hold it:
// A's row (lane mod 16) one contiguous vector, B's column (lane mod 16) 16
// loads, the sums in vector<8xf32> carried by the loop, stored as column
// (lane mod 16) of rows 2k + (lane div 16).
// CHECK-LABEL: gpu.func @product
// CHECK: %[[ZERO:.*]] = vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (vector<8xf32>)
// CHECK: %[[LANE:.*]] = gpu.lane_id
// CHECK: %[[ROW:.*]] = affine.apply #{{.*}}(%[[LANE]])
// CHECK: %[[A:.*]] = vector.load %arg0[%{{.*}}, %{{.*}}] : memref<16x24xf16, #gpu.address_space<workgroup>>, vector<16xf16>
// CHECK-COUNT-16: memref.load %arg1
// CHECK: %[[B:.*]] = vector.from_elements {{.*}} : vector<16xf16>
// CHECK: %[[D:.*]] = amdgpu.wmma 16x16x16 %[[A]] * %[[B]] + %[[ACC]] : vector<16xf16>, vector<16xf16>, vector<8xf32>
// CHECK: scf.yield %[[D]] : vector<8xf32>
// CHECK-COUNT-8: memref.store %{{.*}}, %arg2
// CHECK-NOT: gpu.subgroup_mma
gpu.module @kernels {
  gpu.func @product(%a: memref<16x24xf16, #gpu.address_space<workgroup>>, %b: memref<16x24xf16, #gpu.address_space<workgroup>>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
      %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 24 : index} : memref<16x24xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 24 : index} : memref<16x24xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %d = gpu.subgroup_mma_compute %x, %y, %acc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      scf.yield %d : !gpu.mma_matrix<16x16xf32, "COp">
    }
    gpu.subgroup_mma_store_matrix %sum, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}

// -----

// Refused: f16 sums have another layout (not lowered yet).
gpu.module @kernels {
  gpu.func @half_sums(%c: memref<16x16xf16>) kernel {
    %zero = arith.constant 0.0 : f16
    // expected-error @+1 {{pb-gpu-wmma-lanes: no RDNA3 WMMA layout for '!gpu.mma_matrix<16x16xf16, "COp">' (16x16 f16 operands, f32 sums)}}
    %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf16, "COp">
    gpu.return
  }
}
