// IR printing, timing and output options.
// RUN: pb-opt %s --pb-simplify-quant --canonicalize --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// AFTER: // -----// IR Dump After pb-simplify-quant
// AFTER: // -----// IR Dump After Canonicalizer

// RUN: pb-opt %s --pb-simplify-quant --mlir-print-ir-before-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// BEFORE: // -----// IR Dump Before pb-simplify-quant

// RUN: pb-opt %s --pb-simplify-quant --cse --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: Execution time report
// TIMING-DAG: pb-simplify-quant
// TIMING-DAG: CSE
// TIMING: Total

// RUN: pb-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// GENERIC: "func.func"()

// RUN: pb-opt %s -o %t.out.mlir && FileCheck %s --check-prefix=FILE < %t.out.mlir
// FILE: func.func @f

// RUN: pb-opt < %s | FileCheck %s --check-prefix=FILE

func.func @f(%x: tensor<4xi8>) -> tensor<4xi8> {
  return %x : tensor<4xi8>
}
