// Each chunk is parsed and transformed on its own; outputs are joined by the marker.
// RUN: pb-opt %s --split-input-file --canonicalize | FileCheck %s
// A chunk that fails does not stop the others, but the exit code is 1.
// RUN: expect-exit 1 pb-opt %S/Inputs/split-one-bad.mlir --split-input-file | FileCheck %s --check-prefix=ONE-BAD

// CHECK: func.func @first
// CHECK: // -----
// CHECK: func.func @second
func.func @first() {
  return
}

// -----

func.func @second() {
  return
}

// ONE-BAD-DAG: split-one-bad.mlir:7:3: error: type of return operand 0
// ONE-BAD-DAG: func.func @good
