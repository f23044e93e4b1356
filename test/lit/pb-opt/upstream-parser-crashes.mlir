// MLIR 22's parsers of linalg.reduce, linalg.broadcast and linalg.transpose in
// custom form crash (segfault) when the integer list after `dimensions =` or
// `permutation =` is malformed: they keep the null attribute of the failed
// parse. Our parsing (pb_support::source, used by pb-opt and pb-compile)
// refuses such lists first, with an error. Found by the engine fuzzer
// (docs/fuzzing.md). Well-formed lists still parse.
// RUN: pb-opt %s --split-input-file --verify-diagnostics

func.func @reduce_truncated(%a: tensor<3x4xf32>, %z: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{expected '[' 64-bit integers ']' after 'dimensions =' of 'linalg.reduce' (refused: MLIR 22's parser crashes on this)}}
  %r = linalg.reduce ins(%a : tensor<3x4xf32>) outs(%z : tensor<3xf32>) dimensions = [1
    }
  return %r : tensor<3xf32>
}

// -----

func.func @transpose_not_a_list(%x: tensor<3x5xf32>, %e: tensor<5x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{after 'permutation =' of 'linalg.transpose'}}
  %t = linalg.transpose ins(%x : tensor<3x5xf32>) outs(%e : tensor<5x3xf32>) permutation = xf32>
  return %t : tensor<5x3xf32>
}

// -----

func.func @transpose_too_large(%x: tensor<3x5xf32>, %e: tensor<5x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{after 'permutation =' of 'linalg.transpose'}}
  %t = linalg.transpose ins(%x : tensor<3x5xf32>) outs(%e : tensor<5x3xf32>) permutation = [0x8000000000000000, 0]
  return %t : tensor<5x3xf32>
}

// -----

func.func @broadcast_trailing_comma(%x: tensor<3xf32>, %e: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{after 'dimensions =' of 'linalg.broadcast'}}
  %b = linalg.broadcast ins(%x : tensor<3xf32>) outs(%e : tensor<3x4xf32>) dimensions = [1,]
  return %b : tensor<3x4xf32>
}

// -----

// Accepted: white space, comments, hexadecimal; the op names in strings and
// the generic form are not looked at.
func.func @fine(%x: tensor<3x5xf32>, %e: tensor<5x3xf32>, %a: tensor<3x4xf32>, %z: tensor<3xf32>) -> (tensor<5x3xf32>, tensor<3xf32>) {
  %t = linalg.transpose ins(%x : tensor<3x5xf32>) outs(%e : tensor<5x3xf32>) permutation = [ 0x1 , // one
    0 ]
  %r = "linalg.reduce"(%a, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%in: f32, %init: f32):
    %s = arith.addf %in, %init : f32
    linalg.yield %s : f32
  }) {note = "linalg.reduce dimensions = oops"} : (tensor<3x4xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %t, %r : tensor<5x3xf32>, tensor<3xf32>
}
