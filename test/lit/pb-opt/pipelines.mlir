// Our passes and upstream passes mix in one pipeline, nested or not.
// RUN: pb-opt %s --pass-pipeline='builtin.module(func.func(pb-simplify-quant,canonicalize),cse,func.func(pb-lower-quant))' | FileCheck %s
// The short form gives the same result, in the order written.
// RUN: pb-opt %s --pb-simplify-quant --canonicalize --cse --pb-lower-quant | FileCheck %s
// A bare list is taken as the module's pipeline.
// RUN: pb-opt %s --pass-pipeline='pb-simplify-quant,canonicalize,cse,pb-lower-quant' | FileCheck %s

// The pipeline as built: func.func-anchored passes are nested implicitly, as in mlir-opt.
// RUN: pb-opt %s --pb-simplify-quant --canonicalize --affine-loop-tile="tile-size=4" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// DUMP: builtin.module(func.func(pb-simplify-quant{remove-dead=true}),canonicalize{{.*}},func.func(affine-loop-tile{{.*}}tile-size=4{{.*}}))

// Order matters: lowering first leaves nothing for the simplifier to fold.
// RUN: pb-opt %s --pb-lower-quant --pb-simplify-quant | FileCheck %s --check-prefix=LOWER-FIRST
// LOWER-FIRST-COUNT-2: linalg.generic

// CHECK-LABEL: func.func @f
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK-NOT: pbq.
func.func @f(%x: tensor<4xi8>) -> tensor<4xi8> {
  %d = "pbq.dequantize"(%x) {scale = 0.5 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xi8>) -> tensor<4xf32>
  %q = "pbq.quantize"(%d) {scale = 0.25 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xf32>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}
