// RUN: pb-opt %s -split-input-file --pb-vectorize="width=8 interleave=2" | FileCheck %s
// RUN: pb-opt %s -split-input-file --pb-vectorize="width=8" | FileCheck %s --check-prefix=NATIVE

// A body evaluating a transcendental function (a long dependent polynomial
// once expanded) takes twice the width: two independent native chains side
// by side. The 4 left take vectors of 4.
// CHECK-LABEL: func.func @gamma
// CHECK: affine.for %{{.*}} = 0 to 32 step 16 {
// CHECK: math.powf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: affine.for %{{.*}} = 32 to 36 step 4 {
// CHECK: math.powf %{{.*}}, %{{.*}} : vector<4xf32>
// NATIVE-LABEL: func.func @gamma
// NATIVE: affine.for %{{.*}} = 0 to 32 step 8 {
// NATIVE: math.powf %{{.*}}, %{{.*}} : vector<8xf32>
func.func @gamma(%a: memref<36xf32>, %b: memref<36xf32>) {
  %g = arith.constant 0.4545 : f32
  affine.for %i = 0 to 36 {
    %x = affine.load %a[%i] : memref<36xf32>
    %y = math.powf %x, %g : f32
    affine.store %y, %b[%i] : memref<36xf32>
  }
  return
}

// -----

// Exponentials in a reduction's body too (softmax's sum of exponentials);
// arithmetic alone keeps the native width.
// CHECK-LABEL: func.func @exp_sum
// CHECK: affine.for %{{.*}} = 0 to 64 step 16 iter_args
// CHECK: math.exp %{{.*}} : vector<16xf32>
// CHECK-LABEL: func.func @scale
// CHECK: affine.for %{{.*}} = 0 to 64 step 8 {
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<8xf32>
func.func @exp_sum(%a: memref<64xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = affine.for %i = 0 to 64 iter_args(%acc = %zero) -> f32 {
    %x = affine.load %a[%i] : memref<64xf32>
    %e = math.exp %x : f32
    %n = arith.addf %acc, %e : f32
    affine.yield %n : f32
  }
  return %s : f32
}

func.func @scale(%a: memref<64xf32>, %c: f32) {
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xf32>
    %y = arith.mulf %x, %c : f32
    affine.store %y, %a[%i] : memref<64xf32>
  }
  return
}
