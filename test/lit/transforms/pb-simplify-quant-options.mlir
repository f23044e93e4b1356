// Option errors of pb-simplify-quant are reported, never ignored.
// RUN: expect-exit 1 pb-opt %s --pb-simplify-quant="remove-dead=perhaps" | FileCheck %s --check-prefix=VALUE
// RUN: expect-exit 1 pb-opt %s --pass-pipeline='builtin.module(pb-simplify-quant{no-such-option=1})' | FileCheck %s --check-prefix=NAME

// VALUE: invalid value 'perhaps' for option 'remove-dead' of pass 'pb-simplify-quant': expected bool
// NAME: pass 'pb-simplify-quant' has no option 'no-such-option' (options: remove-dead)
func.func @f() {
  return
}
