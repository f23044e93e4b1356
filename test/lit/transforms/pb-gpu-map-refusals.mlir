// RUN: pb-opt %s --pb-gpu-map="chip=sm_90" --verify-diagnostics

// Refused: a value computed on the GPU and used on the host.
func.func @escapes(%x: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{pb-gpu-map: the value of 'memref.load' would be computed on the GPU and used on the host; not supported yet}}
  %v = memref.load %x[%c0] : memref<4xf32>
  return %v : f32
}
