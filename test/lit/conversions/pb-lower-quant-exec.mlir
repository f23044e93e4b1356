// Lowered quantization computes PyTorch's numbers: run it.
// RUN: pb-opt %s --pb-lower-quant | pb-opt %to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s

func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  // scale 0.5, zero point 3, signed i8: q = clamp(roundeven(2x) + 3, -128, 127).
  // Ties round to even: 2*0.25 = 0.5 -> 0; 2*0.75 = 1.5 -> 2; 2*1.25 = 2.5 -> 2.
  %x = arith.constant dense<[0.25, 0.75, 1.25, -1.0, 100.0, -100.0, 0.0, 61.9]> : tensor<8xf32>
  %q = "pbq.quantize"(%x) {scale = 0.5 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<8xf32>) -> tensor<8xi8>
  %q32 = arith.extsi %q : tensor<8xi8> to tensor<8xi32>
  %qu = tensor.cast %q32 : tensor<8xi32> to tensor<*xi32>
  // CHECK: [3,  5,  5,  1,  127,  -128,  3,  127]
  call @printMemrefI32(%qu) : (tensor<*xi32>) -> ()

  %d = "pbq.dequantize"(%q) {scale = 0.5 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<8xi8>) -> tensor<8xf32>
  %du = tensor.cast %d : tensor<8xf32> to tensor<*xf32>
  // CHECK: [0,  1,  1,  -1,  62,  -65.5,  0,  62]
  call @printMemrefF32(%du) : (tensor<*xf32>) -> ()

  // Unsigned storage: [0, 255] on i8; 200 and 255 must survive the round trip.
  %y = arith.constant dense<[0.0, 20.0, 25.5, 30.0, -5.0]> : tensor<5xf32>
  %u = "pbq.quantize"(%y) {scale = 0.1 : f64, zero_point = 0 : i64, quant_min = 0 : i64, quant_max = 255 : i64} : (tensor<5xf32>) -> tensor<5xi8>
  %u32 = arith.extui %u : tensor<5xi8> to tensor<5xi32>
  %uu = tensor.cast %u32 : tensor<5xi32> to tensor<*xi32>
  // CHECK: [0,  200,  255,  255,  0]
  call @printMemrefI32(%uu) : (tensor<*xi32>) -> ()

  // requantize (scale 0.1, zp 0, unsigned) -> (scale 0.2, zp -10, signed)
  %r = "pbq.requantize"(%u) {in_scale = 0.1 : f64, in_zero_point = 0 : i64, in_quant_min = 0 : i64, in_quant_max = 255 : i64, out_scale = 0.2 : f64, out_zero_point = -10 : i64, out_quant_min = -128 : i64, out_quant_max = 127 : i64} : (tensor<5xi8>) -> tensor<5xi8>
  %r32 = arith.extsi %r : tensor<5xi8> to tensor<5xi32>
  %ru = tensor.cast %r32 : tensor<5xi32> to tensor<*xi32>
  // CHECK: [-10,  90,  118,  118,  -10]
  call @printMemrefI32(%ru) : (tensor<*xi32>) -> ()
  return
}
