// RUN: pb-opt %s -split-input-file -verify-diagnostics --pb-check-cpu-input --allow-unregistered-dialect
// Inputs the cpu pipeline compiles pass through unchanged.
// RUN: pb-opt %S/../pipelines/cpu.mlir --pb-check-cpu-input | FileCheck %s
// CHECK: func.func @matmul_bias_relu

// An op of a dialect the pipeline does not lower is named, with its location.
func.func @attention(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{unsupported op 'tm_tensor.attention': the cpu pipeline does not lower the 'tm_tensor' dialect}}
  %0 = "tm_tensor.attention"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Dynamic shapes cannot cross the plain-pointer ABI.
// expected-error @+2 {{function @dynamic: argument 0 of type 'tensor<?x4xf32>' has a dynamic shape}}
// expected-error @+1 {{function @dynamic: result 0 of type 'tensor<?x4xf32>' has a dynamic shape}}
func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}

// -----

// Unsupported element types are named, for arguments and results.
// (complex<f32> and complex<f64> are supported; complex<i32> is not.)
// expected-error @+2 {{function @complex: argument 0 of type 'tensor<4xcomplex<i32>>' has element type 'complex<i32>'}}
// expected-error @+1 {{function @complex: result 0 of type 'tensor<4xcomplex<i32>>' has element type 'complex<i32>'}}
func.func @complex(%x: tensor<4xcomplex<i32>>) -> tensor<4xcomplex<i32>> {
  return %x : tensor<4xcomplex<i32>>
}

// -----

// Results cross the ABI as buffers: a scalar result is named.
// expected-error @+1 {{function @scalar_result: result 0 of type 'f32' is a scalar; results cross the C ABI as buffers, so return a 0-d tensor}}
func.func @scalar_result(%x: f32) -> f32 {
  return %x : f32
}

// -----

// Private helpers and declarations are not part of the ABI: no error.
func.func private @helper(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
func.func private @external(tensor<?xf32>)
