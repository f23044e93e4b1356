// RUN: pb-opt --pb-profile-names --mlir-print-debuginfo %s | FileCheck %s

// Each linalg op's location is named after its operator: named ops by
// their name, a generic by the math of its body (each once, in order), a
// generic without math plainly. Other ops, and ops already named, keep
// their locations.
// CHECK-DAG: #[[MM:.*]] = loc("matmul"(#[[SRC3:.*]]))
// CHECK-DAG: #[[SRC3]] = loc("model.py":3:0)
// CHECK-DAG: loc("generic:exp,tanh"(
// CHECK-DAG: loc("generic"(
// CHECK-DAG: loc("fill"(
// CHECK-DAG: loc("already"(
// CHECK-NOT: loc("generic:{{.*}}"("already"
// CHECK-NOT: "empty"(
func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32> loc("model.py":1:0)
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32> loc("model.py":2:0)
  %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32> loc("model.py":3:0)
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    %t = math.tanh %y : f32
    %u = math.exp %t : f32
    linalg.yield %u : f32
  } -> tensor<4x4xf32> loc("model.py":4:0)
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32> loc("model.py":5:0)
  %k = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32> loc("already"("model.py":6:0))
  return %h, %k, %g : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
