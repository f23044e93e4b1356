// A long float sum is summed in blocks: each of the width x accumulators
// running sums adds sqrt(t) terms per block (t = its share of the terms),
// then the block sums are added up. Summing 0.1f (1,048,589 terms: 1,048,584
// in the vector loop, 5 in the scalar remainder) the blocked sum is within
// 1.2e-5 of the exact value (relative); with each running sum adding its
// 32768 terms one after another it was off by 2.5e-4 (26 in 104859).
// RUN: pb-opt %s --pb-vectorize="width=8" | FileCheck %s --check-prefix=IR
// RUN: pb-opt %s --pb-vectorize="width=8" | pb-opt --pass-pipeline='builtin.module(lower-affine,convert-vector-to-scf,convert-scf-to-cf,convert-vector-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)' | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s

// 1048584 terms over 32 running sums: 32768 each, blocks of 182 (5824 elements).
// IR-LABEL: func.func @sum
// IR: affine.for %[[KB:.*]] = 0 to 1048584 step 5824 iter_args(
// IR: affine.for %{{.*}} = #{{.*}}(%[[KB]]) to min #{{.*}}(%[[KB]]) step 8 iter_args(
// IR: vector.reduction <add>
// Short sums (softmax and layer-norm rows) keep one loop.
// IR-LABEL: func.func @short
// IR: affine.for %{{.*}} = 0 to 1024 step 8 iter_args(
// IR-NOT: affine.for
// IR: vector.reduction <add>
func.func @sum(%in: memref<1048589xf32>, %acc: memref<f32>) {
  affine.for %k = 0 to 1048589 {
    %x = affine.load %in[%k] : memref<1048589xf32>
    %a = affine.load %acc[] : memref<f32>
    %s = arith.addf %a, %x : f32
    affine.store %s, %acc[] : memref<f32>
  }
  return
}

func.func @short(%in: memref<1024xf32>, %init: f32) -> f32 {
  %r = affine.for %k = 0 to 1024 iter_args(%a = %init) -> (f32) {
    %x = affine.load %in[%k] : memref<1024xf32>
    %s = arith.addf %a, %x : f32
    affine.yield %s : f32
  }
  return %r : f32
}

func.func @main() {
  %in = memref.alloc() : memref<1048589xf32>
  %acc = memref.alloca() : memref<f32>
  %zero = arith.constant 0.0 : f32
  %tenth = arith.constant 0.1 : f32
  affine.for %k = 0 to 1048589 {
    affine.store %tenth, %in[%k] : memref<1048589xf32>
  }
  affine.store %zero, %acc[] : memref<f32>
  call @sum(%in, %acc) : (memref<1048589xf32>, memref<f32>) -> ()
  %s = affine.load %acc[] : memref<f32>
  // exact: 1048589 * 0.1f = 104858.90...; |s - exact| < 5 (5e-5 relative)
  %lo = arith.constant 104853.9 : f32
  %hi = arith.constant 104863.9 : f32
  %above = arith.cmpf ogt, %s, %lo : f32
  %below = arith.cmpf olt, %s, %hi : f32
  %ok = arith.andi %above, %below : i1
  // CHECK: blocked sum close: 1
  vector.print str "blocked sum close: "
  vector.print %ok : i1
  memref.dealloc %in : memref<1048589xf32>
  return
}
