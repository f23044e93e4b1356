// --verify-diagnostics accepts matching expectations in every designator form...
// RUN: pb-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// ...and reports both an expectation that is not produced and a diagnostic that was not expected.
// RUN: expect-exit 1 pb-opt %S/Inputs/wrong-expectations.mlir --verify-diagnostics | FileCheck %s --check-prefix=WRONG
// WRONG-DAG: wrong-expectations.mlir:3:3: error: unexpected error: type of return operand 0 ('i32') doesn't match function result type ('f32') in function @f
// WRONG-DAG: wrong-expectations.mlir:2:1: error: expected error "this message never appears" on line 3 was not produced

func.func @same_line(%x: i32) -> f32 {
  return %x : i32 // expected-error {{doesn't match function result type ('f32')}}
}

// -----

func.func @relative(%x: i32) -> f32 {
  // expected-error @+1 {{type of return operand 0}}
  return %x : i32
}

// -----

func.func @above_and_regex(%x: i32) -> f32 {
  return %x : i32
  // expected-error-re @above {{type of return operand {{[0-9]+}} ('i32')}}
}

// -----

// Semantic checks of our dialects report through the same channel.
func.func @pbq_semantic(%x: tensor<4xf32>) {
  // expected-error @+1 {{scale must be finite and positive}}
  %q = "pbq.quantize"(%x) {scale = -1.0 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xf32>) -> tensor<4xi8>
  return
}

// -----

// Line numbers stay those of the whole file after splitting.
// expected-error @+1 {{custom op 'func.funk' is unknown}}
func.funk @typo() {
  return
}
