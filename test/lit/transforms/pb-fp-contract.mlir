// RUN: pb-opt %s --pb-fp-contract | FileCheck %s
// RUN: pb-opt %s --pass-pipeline="builtin.module(func.func(pb-fp-contract),convert-arith-to-llvm,convert-func-to-llvm)" | mlir-translate --mlir-to-llvmir | llc -O3 -mattr=+avx512f,+fma | FileCheck %s --check-prefix=ASM

// A product and the sum using it may fuse: both get `contract`; LLVM then
// emits one FMA.
// CHECK-LABEL: func.func @scale_shift
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : vector<16xf32>
// CHECK: arith.addf %[[P]], %{{.*}} fastmath<contract> : vector<16xf32>
// ASM-LABEL: scale_shift:
// ASM: vfmadd{{[0-9]+}}ps
func.func @scale_shift(%x: vector<16xf32>, %w: vector<16xf32>, %b: vector<16xf32>) -> vector<16xf32> {
  %p = arith.mulf %x, %w : vector<16xf32>
  %s = arith.addf %p, %b : vector<16xf32>
  return %s : vector<16xf32>
}

// A difference too; existing flags are kept.
// CHECK-LABEL: func.func @difference
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<nnan,contract> : f32
// CHECK: arith.subf %{{.*}}, %{{.*}} fastmath<contract> : f32
func.func @difference(%a: f32, %b: f32, %c: f32) -> f32 {
  %p = arith.mulf %a, %b fastmath<nnan> : f32
  %s = arith.subf %c, %p : f32
  return %s : f32
}

// Refused: a product used only by a division, a sum of no product, a
// product of a product (fusing those is not contraction): no flags at all.
// CHECK-LABEL: func.func @nothing_to_fuse
// CHECK-NOT: contract
// CHECK: return
// ASM-LABEL: nothing_to_fuse:
// ASM-NOT: vfmadd
// ASM: ret
func.func @nothing_to_fuse(%a: f32, %b: f32, %c: f32) -> (f32, f32, f32) {
  %p = arith.mulf %a, %b : f32
  %q = arith.divf %p, %c : f32
  %s = arith.addf %a, %c : f32
  %r = arith.mulf %p, %c : f32
  return %q, %s, %r : f32, f32, f32
}
