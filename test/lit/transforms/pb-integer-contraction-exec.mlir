// The integer contraction computes the float contraction's numbers: run
// it (scales are powers of two, so the float reference is exact).
// RUN: pb-opt %s --pb-integer-contraction | pb-opt %to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s
// RUN: pb-opt %s --pb-integer-contraction | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @linear
// IR-NOT: linalg.matmul
// IR: arith.muli %{{.*}}, %{{.*}} : i32
// IR-NOT: linalg.matmul

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  // u8 activations, stored as i8 (121 is 121, -125 is 131, ...).
  %x = arith.constant dense<[[121, -125, -63, -13, 8, 36, -46, -14], [63, 79, -34, 108, 69, -45, 65, 104], [-92, -116, 21, 7, -35, -64, -42, -119], [-47, 84, 115, -55, 31, 77, 31, 116]]> : tensor<4x8xi8>
  %w = arith.constant dense<[[122, -94, -30, -25, 103, -76, 0, -61], [-123, 64, -113, -57, -1, -4, -99, 123], [63, 118, -105, 57, -53, 10, 108, -58], [57, -87, -46, 120, -21, 4, -54, -99], [-20, 31, -12, 70, -36, 28, 69, 106], [-19, -118, 55, 7, 95, -11, -34, -113]]> : tensor<6x8xi8>
  %s = arith.constant dense<[0.25, 0.5, 1.0, 2.0, 0.125, 4.0]> : tensor<6xf32>
  %z = arith.constant dense<[0, 3, -2, 0, 5, -7]> : tensor<6xi64>
  %c = call @linear(%x, %w, %s, %z) : (tensor<4x8xi8>, tensor<6x8xi8>, tensor<6xf32>, tensor<6xi64>) -> tensor<4x6xf32>
  %u = tensor.cast %c : tensor<4x6xf32> to tensor<*xf32>
  // (x - 128) * 0.5 @ ((w - z) * s)^T, computed by numpy in float64:
  // CHECK: [-2285.38,  -1733.75,  3823.5,  -3412,  1636.81,  -41558]
  // CHECK: [-2070.62,  -325.5,  -11274,  1183,  -292.188,  19324]
  // CHECK: [1708.12,  1839,  6321.5,  -15822,  -160.125,  -8276]
  // CHECK: [900,  -1640.75,  -16,  26062,  -176.188,  -3342]
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @linear(%x: tensor<4x8xi8>, %w: tensor<6x8xi8>, %s: tensor<6xf32>, %z: tensor<6xi64>) -> tensor<4x6xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xi8>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%q: i8, %o: f32):
    %c128 = arith.constant 128 : i64
    %0 = arith.extui %q : i8 to i64
    %1 = arith.subi %0, %c128 : i64
    %2 = arith.sitofp %1 : i64 to f32
    %sc = arith.constant 0.5 : f32
    %3 = arith.mulf %2, %sc : f32
    linalg.yield %3 : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<6x8xf32>
  %b = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %s, %z : tensor<6x8xi8>, tensor<6xf32>, tensor<6xi64>) outs(%e1 : tensor<6x8xf32>) {
  ^bb0(%q: i8, %sc: f32, %zp: i64, %o: f32):
    %0 = arith.extsi %q : i8 to i64
    %1 = arith.subi %0, %zp : i64
    %2 = arith.sitofp %1 : i64 to f32
    %3 = arith.mulf %2, %sc : f32
    linalg.yield %3 : f32
  } -> tensor<6x8xf32>
  %e2 = tensor.empty() : tensor<8x6xf32>
  %t = linalg.transpose ins(%b : tensor<6x8xf32>) outs(%e2 : tensor<8x6xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<4x6xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %c = linalg.matmul ins(%a, %t : tensor<4x8xf32>, tensor<8x6xf32>) outs(%init : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %c : tensor<4x6xf32>
}
