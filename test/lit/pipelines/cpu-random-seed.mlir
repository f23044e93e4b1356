// A mutable ml_program global (torch-mlir's random-number seed) passes the
// input check and bufferizes to a memref.global read and written by each call.
// RUN: pb-opt %s --pb-pipeline=cpu --pb-stop-after=graph | FileCheck %s
// CHECK: memref.global "private" @global_seed : memref<i64> = dense<0>
// CHECK: func.func @f
// CHECK: %[[SEED:.*]] = memref.get_global @global_seed
// CHECK: memref.load %[[SEED]][]
// CHECK: memref.copy %{{.*}}, %[[SEED]]
module {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %s = ml_program.global_load @global_seed : tensor<i64>
    %v = tensor.extract %s[] : tensor<i64>
    %c = arith.constant 1 : i64
    %n = arith.addi %v, %c : i64
    %t = tensor.from_elements %n : tensor<i64>
    ml_program.global_store @global_seed = %t : tensor<i64>
    %f = arith.sitofp %n : i64 to f32
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32):
      %y = arith.addf %a, %f : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
