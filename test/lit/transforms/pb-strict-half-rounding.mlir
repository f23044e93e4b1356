// RUN: pb-opt --pass-pipeline='builtin.module(func.func(arith-emulate-unsupported-floats{source-types=bf16,f16 target-type=f32},pb-strict-half-rounding),canonicalize)' %s | FileCheck %s
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(arith-emulate-unsupported-floats{source-types=bf16,f16 target-type=f32}),canonicalize)' %s | FileCheck %s --check-prefix=FOLDED

// float16 ops emulated in float32 round after each op: the truncf/extf
// pair between the two additions stays (without the pass, folding drops
// it: the second addition would add the unrounded float32 sum).
// CHECK-LABEL: func.func @chain
// CHECK: %[[X:.*]] = arith.sitofp %{{.*}} : i64 to f16
// CHECK: %[[XE:.*]] = arith.extf %[[X]] fastmath<none> : f16 to f32
// CHECK: arith.remf %[[XE]]
// CHECK: %[[S:.*]] = arith.addf
// CHECK: %[[ST:.*]] = arith.truncf %[[S]] fastmath<none> : f32 to f16
// CHECK: %[[SE:.*]] = arith.extf %[[ST]] fastmath<none> : f16 to f32
// CHECK: arith.addf %[[SE]]
// FOLDED-LABEL: func.func @chain
// FOLDED: %[[S:.*]] = arith.addf
// FOLDED-NEXT: arith.addf %[[S]]
func.func @chain(%a: i64, %b: f16) -> (f16, f16) {
  %x = arith.sitofp %a : i64 to f16
  %r = arith.remf %x, %b : f16
  %s = arith.addf %b, %b : f16
  %t = arith.addf %s, %b : f16
  return %r, %t : f16, f16
}

// Vectors of bfloat16 too; float32 conversions are not touched.
// CHECK-LABEL: func.func @vectors
// CHECK: arith.truncf %{{.*}} fastmath<none> : vector<8xf32> to vector<8xbf16>
// CHECK: arith.extf %{{.*}} fastmath<none> : vector<8xbf16> to vector<8xf32>
// CHECK: arith.extf %{{.*}} fastmath<contract> : vector<8xf32> to vector<8xf64>
func.func @vectors(%a: vector<8xbf16>, %b: vector<8xf32>) -> (vector<8xbf16>, vector<8xf64>) {
  %s = arith.mulf %a, %a : vector<8xbf16>
  %t = arith.addf %s, %a : vector<8xbf16>
  %w = arith.extf %b fastmath<contract> : vector<8xf32> to vector<8xf64>
  return %t, %w : vector<8xbf16>, vector<8xf64>
}
