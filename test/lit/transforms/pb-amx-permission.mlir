// RUN: pb-opt --pass-pipeline='builtin.module(pb-amx-permission)' %s | FileCheck %s
// RUN: pb-opt --pass-pipeline='builtin.module(pb-amx-permission)' %s --split-input-file | FileCheck %s --check-prefix=SPLIT

// A module with tile ops asks Linux for the tile state when loaded: a
// constructor making the arch_prctl system call inline.
// CHECK: llvm.func internal @pb_request_amx()
// CHECK-DAG: llvm.mlir.constant(158 : i64)
// CHECK-DAG: llvm.mlir.constant(4131 : i64)
// CHECK-DAG: llvm.mlir.constant(18 : i64)
// CHECK: llvm.inline_asm has_side_effects "syscall", "={rax},{rax},{rdi},{rsi},~{rcx},~{r11},~{memory}"
// CHECK: llvm.mlir.global_ctors ctors = [@pb_request_amx], priorities = [65535 : i32]
func.func @zero(%out: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %z = amx.tile_zero : !amx.tile<16x16xf32>
  amx.tile_store %out[%c0, %c0], %z : memref<16x16xf32>, !amx.tile<16x16xf32>
  return
}

// -----

// A module without them is left alone.
// SPLIT-LABEL: func.func @plain
// SPLIT-NOT: pb_request_amx
// SPLIT-NOT: global_ctors
func.func @plain(%x: f32) -> f32 {
  return %x : f32
}
