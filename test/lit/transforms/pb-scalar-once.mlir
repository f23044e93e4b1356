// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-scalar-once))' %s | FileCheck %s
// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-scalar-once),convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)' %s | FileCheck %s --check-prefix=LLVM

// The loops of a branch that fills a kept buffer once per version of the
// weights (`pb.once`), nested ones too, are not to be vectorized; a loop
// of code that runs on every call, and one under an unmarked branch, keep
// LLVM's choice.
// CHECK: #[[VEC:.*]] = #llvm.loop_vectorize<disable = true>
// CHECK: #[[SCALAR:.*]] = #llvm.loop_annotation<vectorize = #[[VEC]]>
// CHECK-LABEL: func.func @pack_once
// CHECK: scf.if
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store
// CHECK: } {loop_annotation = #[[SCALAR]]}
// CHECK: } {loop_annotation = #[[SCALAR]]}
// CHECK: } {pb.once}
// CHECK: scf.if
// CHECK-NOT: loop_annotation
// CHECK: return
// LLVM: llvm.br {{.*}} {loop_annotation = #[[A:.*]]}
// LLVM: llvm.br {{.*}} {loop_annotation = #[[A]]}
// LLVM-NOT: loop_annotation
// LLVM: llvm.return
func.func @pack_once(%stale: i1, %w: memref<64x32xf32>, %packed: memref<32x64xf32>, %x: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  scf.if %stale {
    scf.for %k = %c0 to %c32 step %c1 {
      scf.for %n = %c0 to %c64 step %c1 {
        %v = memref.load %w[%n, %k] : memref<64x32xf32>
        memref.store %v, %packed[%k, %n] : memref<32x64xf32>
      }
    }
  } {pb.once}
  scf.if %stale {
    scf.for %n = %c0 to %c64 step %c1 {
      %v = memref.load %x[%n] : memref<64xf32>
      memref.store %v, %x[%n] : memref<64xf32>
    }
  }
  scf.for %n = %c0 to %c64 step %c1 {
    %v = memref.load %x[%n] : memref<64xf32>
    %d = arith.addf %v, %v : f32
    memref.store %d, %x[%n] : memref<64xf32>
  }
  return
}
