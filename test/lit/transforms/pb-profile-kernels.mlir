// RUN: pb-opt --pb-profile-kernels %s | FileCheck %s

// Each op with regions in a public function's body is a kernel: bracketed
// by clock reads, its nanoseconds added to its slot of the exported
// counters (slots 0 and 1 here); the function then adds its calls (slot 2)
// and its total time (slot 3) before each return. The module attribute
// lists the kernels with the source chains of their ops (innermost frame
// first), the function names after them. Private functions are not timed.

// (Ops without a location of their own have the file's.)
// CHECK: module attributes {pb.profile = {functions = ["f"], kernels = ["f\09affine.for\09model.py:3\09{{[^"]*}}", "f\09affine.for\09linear.py:10<model.py:20\09model.py:21\09{{[^"]*}}"]}}
// CHECK: memref.global @pb_profile_ns : memref<4xi64> = dense<0>
// CHECK: func.func private @omp_get_wtime() -> f64
// CHECK-LABEL: func.func @f(
// CHECK: %[[ENTRY:.*]] = call @omp_get_wtime()
// CHECK: %[[T0:.*]] = call @omp_get_wtime()
// CHECK-NEXT: affine.for
// CHECK: %[[T1:.*]] = call @omp_get_wtime()
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[T1]], %[[T0]]
// CHECK: %[[SLOTS:.*]] = memref.get_global @pb_profile_ns
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[SLOTS]][%[[C0]]]
// CHECK: affine.for
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: memref.atomic_rmw addi %{{.*}}, %{{.*}}[%[[C1]]]
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: memref.atomic_rmw addi %{{.*}}, %{{.*}}[%[[C2]]]
// CHECK: %[[END:.*]] = call @omp_get_wtime()
// CHECK-NEXT: arith.subf %[[END]], %[[ENTRY]]
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: memref.atomic_rmw addi %{{.*}}, %{{.*}}[%[[C3]]]
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @helper(
// CHECK-NOT: omp_get_wtime
// CHECK: return
func.func @f(%a: memref<8xf32>, %b: memref<8xf32>) {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    affine.store %z, %a[%i] : memref<8xf32>
  } loc("model.py":3:0)
  affine.for %i = 0 to 8 {
    %v = affine.load %a[%i] : memref<8xf32> loc(callsite("linear.py":10:0 at "model.py":20:0))
    %e = math.exp %v : f32 loc("model.py":21:0)
    affine.store %e, %b[%i] : memref<8xf32> loc(callsite("linear.py":10:0 at "model.py":20:0))
  } loc(callsite("linear.py":10:0 at "model.py":20:0))
  return
}

func.func private @helper(%a: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %v = affine.load %a[%i] : memref<8xf32>
    affine.store %v, %a[%i] : memref<8xf32>
  }
  return
}
