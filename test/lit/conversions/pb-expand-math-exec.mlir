// The expansions compute libm's numbers: known values (infinities, NaN,
// overflow, subnormal results, both sides of every interval boundary), then
// the largest relative error over dense sweeps, against the f64 functions
// (which the pass leaves to libm), on vectors and on scalars.
// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-expand-math),convert-math-to-llvm,convert-math-to-libm,convert-vector-to-scf,convert-scf-to-cf,convert-vector-to-llvm,convert-func-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)' | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s

// f32 on vectors (expanded) or f64 (the reference, left to libm), by number:
// 0 exp, 1 expm1, 2 log, 3 tanh, 4 erf.
func.func @ours(%k: index, %x: vector<16xf32>) -> vector<16xf32> {
  %y = scf.index_switch %k -> vector<16xf32>
  case 0 {
    %r = math.exp %x : vector<16xf32>
    scf.yield %r : vector<16xf32>
  }
  case 1 {
    %r = math.expm1 %x : vector<16xf32>
    scf.yield %r : vector<16xf32>
  }
  case 2 {
    %r = math.log %x : vector<16xf32>
    scf.yield %r : vector<16xf32>
  }
  case 3 {
    %r = math.tanh %x : vector<16xf32>
    scf.yield %r : vector<16xf32>
  }
  default {
    %r = math.erf %x : vector<16xf32>
    scf.yield %r : vector<16xf32>
  }
  return %y : vector<16xf32>
}

// The same on scalars, one lane at a time.
func.func @ours_scalar(%k: index, %x: f32) -> f32 {
  %y = scf.index_switch %k -> f32
  case 0 {
    %r = math.exp %x : f32
    scf.yield %r : f32
  }
  case 1 {
    %r = math.expm1 %x : f32
    scf.yield %r : f32
  }
  case 2 {
    %r = math.log %x : f32
    scf.yield %r : f32
  }
  case 3 {
    %r = math.tanh %x : f32
    scf.yield %r : f32
  }
  default {
    %r = math.erf %x : f32
    scf.yield %r : f32
  }
  return %y : f32
}

func.func @reference(%k: index, %x: vector<16xf64>) -> vector<16xf64> {
  %y = scf.index_switch %k -> vector<16xf64>
  case 0 {
    %r = math.exp %x : vector<16xf64>
    scf.yield %r : vector<16xf64>
  }
  case 1 {
    %r = math.expm1 %x : vector<16xf64>
    scf.yield %r : vector<16xf64>
  }
  case 2 {
    %r = math.log %x : vector<16xf64>
    scf.yield %r : vector<16xf64>
  }
  case 3 {
    %r = math.tanh %x : vector<16xf64>
    scf.yield %r : vector<16xf64>
  }
  default {
    %r = math.erf %x : vector<16xf64>
    scf.yield %r : vector<16xf64>
  }
  return %y : vector<16xf64>
}

// Function %k on 16 lanes, vector and scalar: prints both.
func.func @show(%k: index, %x: vector<16xf32>) {
  %y = func.call @ours(%k, %x) : (index, vector<16xf32>) -> vector<16xf32>
  vector.print %y : vector<16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %init = arith.constant dense<0.0> : vector<16xf32>
  %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %init) -> vector<16xf32> {
    %xi = vector.extract %x[%i] : f32 from vector<16xf32>
    %yi = func.call @ours_scalar(%k, %xi) : (index, f32) -> f32
    %next = vector.insert %yi, %acc[%i] : f32 into vector<16xf32>
    scf.yield %next : vector<16xf32>
  }
  vector.print %s : vector<16xf32>
  return
}

// Largest relative error of function %k (vectors) over 2^18 points evenly
// spread in [lo, hi), relative to max(|f(x)|, 2^-126); NaN if any result is NaN.
func.func @max_error(%k: index, %lo: f64, %hi: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %n = arith.constant 262144 : index
  %nf = arith.constant 262144.0 : f64
  %width = arith.subf %hi, %lo : f64
  %step = arith.divf %width, %nf : f64
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]> : vector<16xf64>
  %smallest = arith.constant dense<1.1754943508222875e-38> : vector<16xf64>
  %steps = vector.broadcast %step : f64 to vector<16xf64>
  %los = vector.broadcast %lo : f64 to vector<16xf64>
  %zero = arith.constant 0.0 : f64
  %err = scf.for %i = %c0 to %n step %c16 iter_args(%acc = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f64
    %base = vector.broadcast %if : f64 to vector<16xf64>
    %index = arith.addf %base, %iota : vector<16xf64>
    %offset = arith.mulf %index, %steps : vector<16xf64>
    %x64 = arith.addf %los, %offset : vector<16xf64>
    %x = arith.truncf %x64 : vector<16xf64> to vector<16xf32>
    %y = func.call @ours(%k, %x) : (index, vector<16xf32>) -> vector<16xf32>
    %xe = arith.extf %x : vector<16xf32> to vector<16xf64>
    %want = func.call @reference(%k, %xe) : (index, vector<16xf64>) -> vector<16xf64>
    %got = arith.extf %y : vector<16xf32> to vector<16xf64>
    %diff = arith.subf %got, %want : vector<16xf64>
    %abs = math.absf %diff : vector<16xf64>
    %mag = math.absf %want : vector<16xf64>
    %den = arith.maximumf %mag, %smallest : vector<16xf64>
    %rel = arith.divf %abs, %den : vector<16xf64>
    %m = vector.reduction <maximumf>, %rel : vector<16xf64> into f64
    %next = arith.maximumf %acc, %m : f64
    scf.yield %next : f64
  }
  return %err : f64
}

// Prints 1 if function %k is within 2.5e-7 (~2 ulp) of the reference on [lo, hi).
func.func @check(%k: index, %lo: f64, %hi: f64) {
  %e = func.call @max_error(%k, %lo, %hi) : (index, f64, f64) -> f64
  %bound = arith.constant 2.5e-7 : f64
  %ok = arith.cmpf olt, %e, %bound : f64
  vector.print %ok : i1
  return
}

func.func @main() {
  %exp = arith.constant 0 : index
  %expm1 = arith.constant 1 : index
  %log = arith.constant 2 : index
  %tanh = arith.constant 3 : index
  %erf = arith.constant 4 : index

  // CHECK: ( 1, 2.71828, 0.367879, 22026.5, 3.39318e+38, inf, 9.98235e-39, 1.4013e-45, 0, 0, inf, nan, 1.64872, 2.06115e-09, 1, 4.85165e+08 )
  // CHECK-NEXT: ( 1, 2.71828, 0.367879, 22026.5, 3.39318e+38, inf, 9.98235e-39, 1.4013e-45, 0, 0, inf, nan, 1.64872, 2.06115e-09, 1, 4.85165e+08 )
  %xe = arith.constant dense<[0.0, 1.0, -1.0, 10.0, 88.72, 88.73, -87.5, -103.5, -104.5, 0xFF800000, 0x7F800000, 0x7FC00000, 0.5, -20.0, 1.0e-10, 20.0]> : vector<16xf32>
  func.call @show(%exp, %xe) : (index, vector<16xf32>) -> ()

  // CHECK: ( 0, 1.71828, -0.632121, 1e-10, -1e-10, 9.99995e-41, 3.32598e+38, inf, -1, -1, -1, inf, nan, 0.349859, -0.259182, 4.85165e+08 )
  // CHECK-NEXT: ( 0, 1.71828, -0.632121, 1e-10, -1e-10, 9.99995e-41, 3.32598e+38, inf, -1, -1, -1, inf, nan, 0.349859, -0.259182, 4.85165e+08 )
  %xm = arith.constant dense<[0.0, 1.0, -1.0, 1.0e-10, -1.0e-10, 1.0e-40, 88.7, 89.0, -20.0, -40.0, 0xFF800000, 0x7F800000, 0x7FC00000, 0.3, -0.3, 20.0]> : vector<16xf32>
  func.call @show(%expm1, %xm) : (index, vector<16xf32>) -> ()

  // CHECK: ( 0, 1, -0.693147, -92.1034, -103.279, 88.5968, -inf, -inf, nan, inf, nan, nan, 1.19209e-07, -1.19209e-07, 4.60517, -69.0776 )
  // CHECK-NEXT: ( 0, 1, -0.693147, -92.1034, -103.279, 88.5968, -inf, -inf, nan, inf, nan, nan, 1.19209e-07, -1.19209e-07, 4.60517, -69.0776 )
  %xl = arith.constant dense<[1.0, 2.718281828, 0.5, 1.0e-40, 1.4e-45, 3.0e38, 0.0, -0.0, -1.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0000001, 0.9999999, 100.0, 1.0e-30]> : vector<16xf32>
  func.call @show(%log, %xl) : (index, vector<16xf32>) -> ()

  // CHECK: ( 0, 0.099668, -0.099668, 0.37136, 0.388473, 0.761594, -0.761594, 0.999909, -0.999909, 1, 1, 1, 1, -1, nan, 1e-20 )
  // CHECK-NEXT: ( 0, 0.099668, -0.099668, 0.37136, 0.388473, 0.761594, -0.761594, 0.999909, -0.999909, 1, 1, 1, 1, -1, nan, 1e-20 )
  %xt = arith.constant dense<[0.0, 0.1, -0.1, 0.39, 0.41, 1.0, -1.0, 5.0, -5.0, 9.0, 9.2, 100.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0e-20]> : vector<16xf32>
  func.call @show(%tanh, %xt) : (index, vector<16xf32>) -> ()

  // CHECK: ( 0, 0.112463, -0.112463, 0.78144, 0.786687, 0.966105, -0.966105, 0.995322, 0.999866, 0.999978, 1, 1, 1, -1, nan, 1.12838e-20 )
  // CHECK-NEXT: ( 0, 0.112463, -0.112463, 0.78144, 0.786687, 0.966105, -0.966105, 0.995322, 0.999866, 0.999978, 1, 1, 1, -1, nan, 1.12838e-20 )
  %xf = arith.constant dense<[0.0, 0.1, -0.1, 0.87, 0.88, 1.5, -1.5, 2.0, 2.7, 3.0, 3.9, 4.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0e-20]> : vector<16xf32>
  func.call @show(%erf, %xf) : (index, vector<16xf32>) -> ()

  // exp: from the first subnormal results to overflow, and around 0.
  // CHECK-NEXT: 1
  // CHECK-NEXT: 1
  %a0 = arith.constant -103.0 : f64
  %b0 = arith.constant 88.7 : f64
  func.call @check(%exp, %a0, %b0) : (index, f64, f64) -> ()
  %a1 = arith.constant -1.0 : f64
  %b1 = arith.constant 1.0 : f64
  func.call @check(%exp, %a1, %b1) : (index, f64, f64) -> ()
  // expm1
  // CHECK-NEXT: 1
  // CHECK-NEXT: 1
  %a2 = arith.constant -20.0 : f64
  %b2 = arith.constant 20.0 : f64
  func.call @check(%expm1, %a2, %b2) : (index, f64, f64) -> ()
  %a3 = arith.constant -0.01 : f64
  %b3 = arith.constant 0.01 : f64
  func.call @check(%expm1, %a3, %b3) : (index, f64, f64) -> ()
  // log
  // CHECK-NEXT: 1
  // CHECK-NEXT: 1
  %a4 = arith.constant 0.5 : f64
  %b4 = arith.constant 2.0 : f64
  func.call @check(%log, %a4, %b4) : (index, f64, f64) -> ()
  %a5 = arith.constant 1.0e-3 : f64
  %b5 = arith.constant 1.0e6 : f64
  func.call @check(%log, %a5, %b5) : (index, f64, f64) -> ()
  // tanh
  // CHECK-NEXT: 1
  // CHECK-NEXT: 1
  %a6 = arith.constant -10.0 : f64
  %b6 = arith.constant 10.0 : f64
  func.call @check(%tanh, %a6, %b6) : (index, f64, f64) -> ()
  func.call @check(%tanh, %a1, %b1) : (index, f64, f64) -> ()
  // erf
  // CHECK-NEXT: 1
  // CHECK-NEXT: 1
  %a7 = arith.constant -5.0 : f64
  %b7 = arith.constant 5.0 : f64
  func.call @check(%erf, %a7, %b7) : (index, f64, f64) -> ()
  func.call @check(%erf, %a1, %b1) : (index, f64, f64) -> ()
  return
}
