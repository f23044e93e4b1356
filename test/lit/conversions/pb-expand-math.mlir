// RUN: pb-opt %s -split-input-file --pb-expand-math | FileCheck %s
// RUN: pb-opt %s -split-input-file --pb-expand-math="exp=false erf=false" | FileCheck %s --check-prefix=SOME
// RUN: expect-exit 1 pb-opt %s --pb-expand-math="tanh=maybe" | FileCheck %s --check-prefix=BAD
// RUN: pb-opt %s -split-input-file --pb-expand-math="fma=true" | FileCheck %s --check-prefix=FMA

// BAD: invalid value 'maybe' for option 'tanh' of pass 'pb-expand-math': expected bool

// exp: clamp (compare and select: NaN stays NaN), round x*log2e with the
// 1.5*2^23 trick, Cody-Waite reduction, polynomial, 2^n in two exponent-bit factors.
// CHECK-LABEL: func.func @exp_scalar
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-NOT: math.exp
// CHECK: %[[LO:.*]] = arith.constant -1.040000e+02 : f32
// CHECK: %[[HI:.*]] = arith.constant 8.880000e+01 : f32
// CHECK: %[[BELOW:.*]] = arith.cmpf olt, %[[X]], %[[LO]] : f32
// CHECK: %[[C1:.*]] = arith.select %[[BELOW]], %[[LO]], %[[X]] : f32
// CHECK: %[[ABOVE:.*]] = arith.cmpf ogt, %[[C1]], %[[HI]] : f32
// CHECK: %[[C:.*]] = arith.select %[[ABOVE]], %[[HI]], %[[C1]] : f32
// CHECK: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK: %[[MAGIC:.*]] = arith.constant 0x4B400000 : f32
// CHECK: %[[K:.*]] = arith.mulf %[[C]], %[[LOG2E]] fastmath<contract> : f32
// CHECK: %[[T:.*]] = arith.addf %[[K]], %[[MAGIC]] fastmath<contract> : f32
// CHECK: %[[NF:.*]] = arith.subf %[[T]], %{{.*}} fastmath<contract> : f32
// CHECK: %[[TB:.*]] = arith.bitcast %[[T]] : f32 to i32
// CHECK: %[[N:.*]] = arith.subi %[[TB]], %{{.*}} : i32
// CHECK: arith.constant -0.693145751 : f32
// CHECK: arith.constant -1.42860677E-6 : f32
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[P:.*]] = arith.addf %{{.*}}, %[[ONE]] fastmath<contract> : f32
// CHECK: %[[HALF:.*]] = arith.shrsi %[[N]], %{{.*}} : i32
// CHECK: %[[REST:.*]] = arith.subi %[[N]], %[[HALF]] : i32
// CHECK: %[[E1:.*]] = arith.addi %[[HALF]], %{{.*}} : i32
// CHECK: %[[S1:.*]] = arith.shli %[[E1]], %{{.*}} : i32
// CHECK: %[[F1:.*]] = arith.bitcast %[[S1]] : i32 to f32
// CHECK: %[[Y1:.*]] = arith.mulf %[[P]], %[[F1]] fastmath<contract> : f32
// CHECK: %[[F2:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK: %[[Y:.*]] = arith.mulf %[[Y1]], %[[F2]] fastmath<contract> : f32
// CHECK: return %[[Y]] : f32
func.func @exp_scalar(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}

// SOME-LABEL: func.func @exp_scalar
// SOME: math.exp

// -----

// Vectors: splat constants, i32 and i1 vectors of the same shape.
// CHECK-LABEL: func.func @exp_vector
// CHECK-NOT: math.exp
// CHECK: arith.constant dense<-1.040000e+02> : vector<16xf32>
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xf32>
// CHECK: arith.bitcast %{{.*}} : vector<16xf32> to vector<16xi32>
// CHECK: arith.shrsi %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: arith.bitcast %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: return
func.func @exp_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %y = math.exp %x : vector<16xf32>
  return %y : vector<16xf32>
}

// -----

// tanh: |x| clamped to 9.1, (e^2a - 1)/(e^2a + 1) from the reduced exponent,
// an odd polynomial below 0.4, the sign put back; n-D vectors keep their shape.
// CHECK-LABEL: func.func @tanh_2d
// CHECK-SAME: (%[[X:.*]]: vector<4x8xf32>)
// CHECK-NOT: math.tanh
// CHECK: %[[A:.*]] = math.absf %[[X]] : vector<4x8xf32>
// CHECK: arith.constant dense<9.100000e+00> : vector<4x8xf32>
// CHECK: arith.cmpf ogt, %[[A]], %{{.*}} : vector<4x8xf32>
// CHECK: arith.shli %{{.*}}, %{{.*}} : vector<4x8xi32>
// CHECK: %[[EM1:.*]] = arith.addf %{{.*}}, %{{.*}} fastmath<contract> : vector<4x8xf32>
// CHECK: %[[D:.*]] = arith.addf %[[EM1]], %{{.*}} fastmath<contract> : vector<4x8xf32>
// CHECK: %[[LARGE:.*]] = arith.divf %[[EM1]], %[[D]] fastmath<contract> : vector<4x8xf32>
// CHECK: arith.constant dense<4.000000e-01> : vector<4x8xf32>
// CHECK: %[[V:.*]] = arith.select %{{.*}}, %{{.*}}, %[[LARGE]] : vector<4x8xi1>, vector<4x8xf32>
// CHECK: %[[Y:.*]] = math.copysign %[[V]], %[[X]] : vector<4x8xf32>
// CHECK: return %[[Y]]
func.func @tanh_2d(%x: vector<4x8xf32>) -> vector<4x8xf32> {
  %y = math.tanh %x : vector<4x8xf32>
  return %y : vector<4x8xf32>
}

// SOME-LABEL: func.func @tanh_2d
// SOME-NOT: math.tanh
// SOME: math.copysign

// -----

// erf: odd; a + a q(a^2) below 1, else 1 - p(a - 2.46875), one polynomial
// for every lane (no selected coefficients); 1 from 3.9375.
// CHECK-LABEL: func.func @erf_scalar
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-NOT: math.erf
// CHECK: %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK: arith.constant 3.937500e+00 : f32
// CHECK: %[[A:.*]] = arith.select %{{.*}}, %{{.*}}, %[[ABS]] : f32
// CHECK: %[[A2:.*]] = arith.mulf %[[A]], %[[A]] fastmath<contract> : f32
// CHECK: %[[QA:.*]] = arith.mulf %[[A]], %{{.*}} fastmath<contract> : f32
// CHECK: %[[SMALL:.*]] = arith.addf %[[QA]], %[[A]] fastmath<contract> : f32
// CHECK: arith.constant 2.468750e+00 : f32
// CHECK: %[[T:.*]] = arith.subf %[[A]], %{{.*}} fastmath<contract> : f32
// CHECK-NOT: arith.select
// CHECK: %[[LARGE:.*]] = arith.subf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: %[[V:.*]] = arith.select %{{.*}}, %[[SMALL]], %[[LARGE]] : f32
// CHECK: %[[Y:.*]] = math.copysign %[[V]], %[[X]] : f32
// CHECK: return %[[Y]]
func.func @erf_scalar(%x: f32) -> f32 {
  %y = math.erf %x : f32
  return %y : f32
}

// SOME-LABEL: func.func @erf_scalar
// SOME: math.erf

// -----

// log: subnormals scaled by 2^23, exponent and mantissa from the bits,
// log1p polynomial, specials (+inf, 0 -> -inf, negative and NaN -> NaN) by select.
// CHECK-LABEL: func.func @log_vector
// CHECK-SAME: (%[[X:.*]]: vector<8xf32>)
// CHECK-NOT: math.log
// CHECK: %[[SUB:.*]] = arith.cmpf olt, %[[X]], %{{.*}} : vector<8xf32>
// CHECK: arith.andi %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK: arith.sitofp %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK: %[[INF:.*]] = arith.constant dense<0x7F800000> : vector<8xf32>
// CHECK: %[[ISINF:.*]] = arith.cmpf oeq, %[[X]], %[[INF]] : vector<8xf32>
// CHECK: %[[V:.*]] = arith.select %[[ISINF]], %[[INF]], %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK: arith.constant dense<0xFF800000> : vector<8xf32>
// CHECK: arith.constant dense<0x7FC00000> : vector<8xf32>
// CHECK: %[[SPECIAL:.*]] = arith.select
// CHECK: %[[POS:.*]] = arith.cmpf ogt, %[[X]], %{{.*}} : vector<8xf32>
// CHECK: %[[Y:.*]] = arith.select %[[POS]], %[[V]], %[[SPECIAL]] : vector<8xi1>, vector<8xf32>
// CHECK: return %[[Y]]
func.func @log_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.log %x : vector<8xf32>
  return %y : vector<8xf32>
}

// -----

// expm1: 2 (2^(n-1) (1 + u) - 1/2); tiny x returned as is.
// CHECK-LABEL: func.func @expm1_scalar
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-NOT: math.expm1
// CHECK: arith.constant -3.000000e+01 : f32
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[EM1:.*]] = arith.mulf %{{.*}}, %[[TWO]] fastmath<contract> : f32
// CHECK: %[[A:.*]] = math.absf %[[X]] : f32
// CHECK: %[[TINY:.*]] = arith.cmpf olt, %[[A]], %{{.*}} : f32
// CHECK: %[[Y:.*]] = arith.select %[[TINY]], %[[X]], %[[EM1]] : f32
// CHECK: return %[[Y]]
func.func @expm1_scalar(%x: f32) -> f32 {
  %y = math.expm1 %x : f32
  return %y : f32
}

// -----

// Only f32 is expanded: f64, f16 and bf16 stay for libm / LLVM, and so do
// tensors (lowered to loops first) and scalable vectors.
// CHECK-LABEL: func.func @left_alone
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.tanh %{{.*}} : f16
// CHECK: math.erf %{{.*}} : bf16
// CHECK: math.log %{{.*}} : tensor<4xf32>
// CHECK: math.exp %{{.*}} : vector<[4]xf32>
// CHECK: math.sin %{{.*}} : f32
// CHECK: math.exp2 %{{.*}} : f32
func.func @left_alone(%d: f64, %h: f16, %b: bf16, %t: tensor<4xf32>, %s: vector<[4]xf32>, %f: f32)
    -> (f64, f16, bf16, tensor<4xf32>, vector<[4]xf32>, f32, f32) {
  %0 = math.exp %d : f64
  %1 = math.tanh %h : f16
  %2 = math.erf %b : bf16
  %3 = math.log %t : tensor<4xf32>
  %4 = math.exp %s : vector<[4]xf32>
  %5 = math.sin %f : f32
  %6 = math.exp2 %f : f32
  return %0, %1, %2, %3, %4, %5, %6 : f64, f16, bf16, tensor<4xf32>, vector<[4]xf32>, f32, f32
}

// -----

// Ops inside loop bodies (here an affine loop, as after pb-vectorize) are expanded in place.
// CHECK-LABEL: func.func @in_loop
// CHECK: affine.for
// CHECK-NOT: math.exp
// CHECK: arith.bitcast %{{.*}} : vector<16xf32> to vector<16xi32>
// CHECK: affine.vector_store
func.func @in_loop(%in: memref<64xf32>, %out: memref<64xf32>) {
  affine.for %i = 0 to 64 step 16 {
    %v = affine.vector_load %in[%i] : memref<64xf32>, vector<16xf32>
    %e = math.exp %v : vector<16xf32>
    affine.vector_store %e, %out[%i] : memref<64xf32>, vector<16xf32>
  }
  return
}

// -----

// With x86-avx512 (AVX-512F targets), exp of a vector<16xf32> scales by
// 2^n with one vscalefps; other shapes keep the two exponent-built factors.
// RUN: pb-opt %s -split-input-file --pb-expand-math="x86-avx512=true" | FileCheck %s --check-prefix=SCALEF
// SCALEF-LABEL: func.func @exp_scalef
// SCALEF: %[[ALL:.*]] = arith.constant -1 : i16
// SCALEF: %[[ROUND:.*]] = arith.constant 4 : i32
// SCALEF: x86vector.avx512.mask.scalef %{{.*}}, %{{.*}}, %{{.*}}, %[[ALL]], %[[ROUND]] : vector<16xf32>
// SCALEF-NOT: arith.shli
// SCALEF: return
// SCALEF-LABEL: func.func @exp_scalef_narrow
// SCALEF-NOT: x86vector
// SCALEF: arith.shli
// SCALEF: return
// CHECK-LABEL: func.func @exp_scalef
// CHECK-NOT: x86vector
// CHECK: return
func.func @exp_scalef(%x: vector<16xf32>) -> vector<16xf32> {
  %y = math.exp %x : vector<16xf32>
  return %y : vector<16xf32>
}
func.func @exp_scalef_narrow(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.exp %x : vector<8xf32>
  return %y : vector<8xf32>
}

// SOME-LABEL: func.func @exp_scalef
// SOME: math.exp

// -----

// With x86-avx512, erf of a vector<16xf32> evaluates one degree-5 polynomial
// in t = 4|x| - floor(4|x|) whose six coefficients each lane reads from
// 16-entry tables by its interval floor(4|x|) (vpermps, through
// llvm.call_intrinsic); no second polynomial, no select between pieces.
// Other shapes keep the generic expansion.
// RUN: pb-opt %s -split-input-file --pb-expand-math="x86-avx512=true" | FileCheck %s --check-prefix=TABLES
// TABLES-LABEL: func.func @erf_tables
// TABLES: %[[U:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : vector<16xf32>
// TABLES: %[[FLOOR:.*]] = math.floor %[[U]] : vector<16xf32>
// TABLES: %[[BIASED:.*]] = arith.addf %[[FLOOR]], %{{.*}} fastmath<contract> : vector<16xf32>
// TABLES: %[[INDEX:.*]] = arith.bitcast %[[BIASED]] : vector<16xf32> to vector<16xi32>
// TABLES: %[[T:.*]] = arith.subf %[[U]], %[[FLOOR]] fastmath<contract> : vector<16xf32>
// TABLES: %[[C0TAB:.*]] = arith.constant dense<[0.000000e+00, 0.276326388,
// TABLES: %[[C0:.*]] = llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[C0TAB]], %[[INDEX]]) : (vector<16xf32>, vector<16xi32>) -> vector<16xf32>
// TABLES-COUNT-5: llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%{{.*}}, %[[INDEX]])
// TABLES-NOT: arith.select
// TABLES: %[[TT:.*]] = arith.mulf %[[T]], %[[T]]
// TABLES: %[[S0:.*]] = arith.mulf %[[TT]], %{{.*}}
// TABLES: %[[S:.*]] = arith.addf %[[S0]], %[[C0]]
// TABLES: %[[V0:.*]] = arith.mulf %[[T]], %{{.*}}
// TABLES: %[[V:.*]] = arith.addf %[[V0]], %[[S]]
// TABLES: math.copysign %[[V]], %{{.*}} : vector<16xf32>
// TABLES-NEXT: return
// TABLES-LABEL: func.func @erf_tables_narrow
// TABLES-NOT: llvm.call_intrinsic
// TABLES: arith.select
// TABLES: return
func.func @erf_tables(%x: vector<16xf32>) -> vector<16xf32> {
  %y = math.erf %x : vector<16xf32>
  return %y : vector<16xf32>
}
func.func @erf_tables_narrow(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.erf %x : vector<8xf32>
  return %y : vector<8xf32>
}

// -----

// powf: y widened to f64, y log2|x| in f64 (the exponent and mantissa
// from the f32 bits of |x| in 32-bit lanes, a subnormal scaled first; the
// mantissa widened and an atanh series, one division), 2^t (rounded t in
// the exponent bits, a polynomial), rounded once to f32; then the signs
// and C's special values.
// CHECK-LABEL: func.func @powf_vector
// CHECK-SAME: (%[[X:.*]]: vector<8xf32>, %[[Y:.*]]: vector<8xf32>)
// CHECK-NOT: math.powf
// CHECK: %[[YD:.*]] = arith.extf %[[Y]] : vector<8xf32> to vector<8xf64>
// CHECK: %[[AX:.*]] = math.absf %[[X]] : vector<8xf32>
// CHECK: arith.bitcast %{{.*}} : vector<8xf32> to vector<8xi32>
// CHECK: arith.shrsi {{.*}} : vector<8xi32>
// CHECK: arith.extf %{{.*}} : vector<8xf32> to vector<8xf64>
// CHECK: arith.divf {{.*}} : vector<8xf64>
// CHECK: arith.sitofp %{{.*}} : vector<8xi32> to vector<8xf64>
// CHECK: %[[T:.*]] = arith.mulf %[[YD]], %{{.*}} fastmath<contract> : vector<8xf64>
// CHECK: arith.constant dense<2.000000e+02> : vector<8xf64>
// CHECK: arith.shli {{.*}} : vector<8xi64>
// CHECK: %[[M:.*]] = arith.truncf %{{.*}} : vector<8xf64> to vector<8xf32>
// CHECK: math.floor %[[Y]] : vector<8xf32>
// CHECK: math.copysign %[[M]], %[[X]] : vector<8xf32>
// CHECK: arith.cmpf oeq, %[[X]], %{{.*}} : vector<8xf32>
// CHECK: %[[R:.*]] = arith.select %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-NEXT: return %[[R]]
// A constant exponent of 2, 3 or 0.5: products or a square root, as
// PyTorch computes them; any other constant takes the general expansion.
// CHECK-LABEL: func.func @powf_constants
// CHECK-SAME: (%[[S:.*]]: f32, %[[V:.*]]: vector<8xf32>)
// CHECK-NOT: math.powf
// CHECK: %[[SQ:.*]] = arith.mulf %[[S]], %[[S]] fastmath<contract> : f32
// CHECK: %[[SQ3:.*]] = arith.mulf %[[V]], %[[V]] fastmath<contract> : vector<8xf32>
// CHECK: %[[CUBE:.*]] = arith.mulf %[[SQ3]], %[[V]] fastmath<contract> : vector<8xf32>
// CHECK: %[[ROOT:.*]] = math.sqrt %[[V]] : vector<8xf32>
// CHECK: arith.extf
// CHECK: %[[SQB:.*]] = arith.mulf %[[V]], %[[V]] fastmath<contract> : vector<8xf32>
// CHECK: return %[[SQ]], %[[CUBE]], %[[ROOT]], %{{.*}}, %[[SQB]] : f32, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
// SOME-LABEL: func.func @powf_vector
// SOME-NOT: math.powf
// SOME: return
func.func @powf_vector(%x: vector<8xf32>, %y: vector<8xf32>) -> vector<8xf32> {
  %r = math.powf %x, %y : vector<8xf32>
  return %r : vector<8xf32>
}
// (the last: 2.0 in f64, rounded and broadcast, as vectorized code has it)
func.func @powf_constants(%s: f32, %v: vector<8xf32>) -> (f32, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %two = arith.constant 2.0 : f32
  %three = arith.constant dense<3.0> : vector<8xf32>
  %half = arith.constant dense<0.5> : vector<8xf32>
  %gamma = arith.constant dense<0.4545> : vector<8xf32>
  %a = math.powf %s, %two : f32
  %b = math.powf %v, %three : vector<8xf32>
  %c = math.powf %v, %half : vector<8xf32>
  %d = math.powf %v, %gamma : vector<8xf32>
  %two64 = arith.constant 2.0 : f64
  %two32 = arith.truncf %two64 : f64 to f32
  %twos = vector.broadcast %two32 : f32 to vector<8xf32>
  %e = math.powf %v, %twos : vector<8xf32>
  return %a, %b, %c, %d, %e : f32, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
}

// FMA targets (`fma=true`): a constant exponent with |y| <= 8 in f32
// double-word arithmetic: (m - 1)/(m + 1) with its FMA remainder (divided
// by m + 1 as a product with (1 - s)/2: one division in all), the
// exact products y e and y log2 m, 2Sum, no f64 at all; the error-free
// steps without `contract`. A variable exponent, and |y| > 8, keep the f64
// evaluation.
// FMA-LABEL: func.func @powf_constants
// FMA-NOT: f64
// FMA: %[[QH:.*]] = arith.divf %{{.*}}, %[[DH:.*]] : vector<8xf32>
// FMA: %[[NQ:.*]] = arith.negf %[[QH]] : vector<8xf32>
// FMA: %[[R1:.*]] = math.fma %[[NQ]], %[[DH]], %{{.*}} : vector<8xf32>
// FMA: %[[R2:.*]] = math.fma %[[NQ]], %{{.*}}, %[[R1]] : vector<8xf32>
// FMA: %[[HALF:.*]] = arith.mulf %[[R2]], %{{.*}} : vector<8xf32>
// FMA: math.fma %[[NQ]], %[[HALF]], %[[HALF]] : vector<8xf32>
// FMA: %[[E:.*]] = arith.sitofp %{{.*}} : vector<8xi32> to vector<8xf32>
// FMA: %[[TH:.*]] = arith.mulf %{{.*}}, %[[E]] : vector<8xf32>
// FMA: %[[NTH:.*]] = arith.negf %[[TH]] : vector<8xf32>
// FMA: math.fma %{{.*}}, %[[E]], %[[NTH]] : vector<8xf32>
// FMA-NOT: vector<8xf64>
// FMA: return
// FMA-LABEL: func.func @powf_f64_remains
// FMA-COUNT-2: arith.extf %{{.*}} : vector<8xf32> to vector<8xf64>
// FMA: return
func.func @powf_f64_remains(%x: vector<8xf32>, %y: vector<8xf32>) -> (vector<8xf32>, vector<8xf32>) {
  %big = arith.constant dense<8.5> : vector<8xf32>
  %a = math.powf %x, %y : vector<8xf32>
  %b = math.powf %x, %big : vector<8xf32>
  return %a, %b : vector<8xf32>, vector<8xf32>
}
