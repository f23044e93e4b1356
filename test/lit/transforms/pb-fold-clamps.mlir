// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fold-clamps,canonicalize))' %s | FileCheck %s

// A ReLU, then requantization to u8 with zero point 0: scale, round, add
// the zero point, clamp to [0, 255], convert. Every x <= 0 ends at 0
// through the clamp's lower bound alone: the ReLU's compare and select go.
// CHECK-LABEL: func.func @relu_requantize
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[S:.*]] = arith.mulf %[[X]], %{{.*}} : f32
// CHECK: math.roundeven %[[S]]
// CHECK-COUNT-2: arith.cmpf
// CHECK-NOT: arith.cmpf
// CHECK: arith.fptosi
func.func @relu_requantize(%x: f32) -> i8 {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 40.0 : f32
  %hi = arith.constant 255.0 : f32
  %c = arith.cmpf ugt, %x, %zero : f32
  %r = arith.select %c, %x, %zero : f32
  %s = arith.mulf %r, %inv : f32
  %t = math.roundeven %s : f32
  %z = arith.addf %t, %zero : f32
  %l = arith.cmpf ult, %z, %zero : f32
  %m = arith.select %l, %zero, %z : f32
  %h = arith.cmpf ugt, %m, %hi : f32
  %n = arith.select %h, %hi, %m : f32
  %i = arith.fptosi %n : f32 to i32
  %b = arith.trunci %i : i32 to i8
  return %b : i8
}

// The same on vectors, the bounds as maximumf/minimumf.
// CHECK-LABEL: func.func @vector_max
// CHECK-SAME: (%[[X:.*]]: vector<16xf32>)
// CHECK: arith.mulf %[[X]]
// CHECK-COUNT-1: arith.maximumf
// CHECK-NOT: arith.maximumf
func.func @vector_max(%x: vector<16xf32>) -> vector<16xi32> {
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %inv = arith.constant dense<40.0> : vector<16xf32>
  %hi = arith.constant dense<255.0> : vector<16xf32>
  %r = arith.maximumf %x, %zero : vector<16xf32>
  %s = arith.mulf %r, %inv : vector<16xf32>
  %t = math.roundeven %s : vector<16xf32>
  %m = arith.maximumf %t, %zero : vector<16xf32>
  %n = arith.minimumf %m, %hi : vector<16xf32>
  %i = arith.fptosi %n : vector<16xf32> to vector<16xi32>
  return %i : vector<16xi32>
}

// A zero point above the clamp's lower bound: the ReLU sends x <= 0 to
// the zero point (3), the clamp alone would not. Kept.
// CHECK-LABEL: func.func @zero_point_above
// CHECK-COUNT-3: arith.cmpf
func.func @zero_point_above(%x: f32) -> i32 {
  %zero = arith.constant 0.0 : f32
  %zp = arith.constant 3.0 : f32
  %inv = arith.constant 40.0 : f32
  %hi = arith.constant 255.0 : f32
  %c = arith.cmpf ugt, %x, %zero : f32
  %r = arith.select %c, %x, %zero : f32
  %s = arith.mulf %r, %inv : f32
  %t = math.roundeven %s : f32
  %z = arith.addf %t, %zp : f32
  %l = arith.cmpf ult, %z, %zero : f32
  %m = arith.select %l, %zero, %z : f32
  %h = arith.cmpf ugt, %m, %hi : f32
  %n = arith.select %h, %hi, %m : f32
  %i = arith.fptosi %n : f32 to i32
  return %i : i32
}

// A negative scale reverses the order: kept.
// CHECK-LABEL: func.func @negative_scale
// CHECK-COUNT-2: arith.cmpf
func.func @negative_scale(%x: f32) -> i32 {
  %zero = arith.constant 0.0 : f32
  %neg = arith.constant -40.0 : f32
  %c = arith.cmpf ugt, %x, %zero : f32
  %r = arith.select %c, %x, %zero : f32
  %s = arith.mulf %r, %neg : f32
  %l = arith.cmpf ult, %s, %zero : f32
  %m = arith.select %l, %zero, %s : f32
  %i = arith.fptosi %m : f32 to i32
  return %i : i32
}

// The clamped value is a float result (the sign of a zero would show): kept.
// CHECK-LABEL: func.func @float_result
// CHECK-COUNT-2: arith.cmpf
func.func @float_result(%x: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 40.0 : f32
  %c = arith.cmpf ugt, %x, %zero : f32
  %r = arith.select %c, %x, %zero : f32
  %s = arith.mulf %r, %inv : f32
  %l = arith.cmpf ult, %s, %zero : f32
  %m = arith.select %l, %zero, %s : f32
  return %m : f32
}

// NaN: the first bound turns it into 0 (ordered compare), the second
// passes it on (ordered compare selecting its input): without the first,
// a NaN would reach the conversion. Kept.
// CHECK-LABEL: func.func @nan_disagrees
// CHECK-COUNT-2: arith.cmpf
func.func @nan_disagrees(%x: f32) -> i32 {
  %zero = arith.constant 0.0 : f32
  %c = arith.cmpf ogt, %x, %zero : f32
  %r = arith.select %c, %x, %zero : f32
  %l = arith.cmpf olt, %r, %zero : f32
  %m = arith.select %l, %zero, %r : f32
  %i = arith.fptosi %m : f32 to i32
  return %i : i32
}

// The ReLU's result has another reader: kept.
// CHECK-LABEL: func.func @shared
// CHECK-COUNT-2: arith.cmpf
func.func @shared(%x: f32) -> (i32, f32) {
  %zero = arith.constant 0.0 : f32
  %c = arith.cmpf ugt, %x, %zero : f32
  %r = arith.select %c, %x, %zero : f32
  %l = arith.cmpf ult, %r, %zero : f32
  %m = arith.select %l, %zero, %r : f32
  %i = arith.fptosi %m : f32 to i32
  return %i, %r : i32, f32
}

// The scale as the f32 rounding of an f64 constant (the torch front's
// reciprocal of a scale, which folding keeps): still a positive constant.
// CHECK-LABEL: func.func @truncated_scale
// CHECK-COUNT-1: arith.cmpf
// CHECK-NOT: arith.cmpf
func.func @truncated_scale(%x: f32) -> i32 {
  %zero = arith.constant 0.0 : f32
  %inv64 = arith.constant 37.123456789 : f64
  %inv = arith.truncf %inv64 : f64 to f32
  %c = arith.cmpf ugt, %x, %zero : f32
  %r = arith.select %c, %x, %zero : f32
  %s = arith.mulf %r, %inv : f32
  %t = math.roundeven %s : f32
  %l = arith.cmpf ult, %t, %zero : f32
  %m = arith.select %l, %zero, %t : f32
  %i = arith.fptosi %m : f32 to i32
  return %i : i32
}

// The chain rounds at the bound (0.1 * 3 is not exact in f32): a fused
// multiply-add formed later could round it the other way, so it is left.
// CHECK-LABEL: func.func @inexact_chain
// CHECK-COUNT-2: arith.cmpf
func.func @inexact_chain(%x: f32) -> i32 {
  %tenth = arith.constant 0.1 : f32
  %three = arith.constant 3.0 : f32
  %one = arith.constant 1.0 : f32
  %c = arith.cmpf ugt, %x, %tenth : f32
  %r = arith.select %c, %x, %tenth : f32
  %s = arith.mulf %r, %three : f32
  %l = arith.cmpf ult, %s, %one : f32
  %m = arith.select %l, %one, %s : f32
  %i = arith.fptosi %m : f32 to i32
  return %i : i32
}
