// RUN: pb-opt %s --pb-pipeline=cpu --pb-start-after=affine --pb-stop-after=lower --pb-target="cores=2" | FileCheck %s

// A row block's rows divided into image, row and column (what a
// contraction's flattened rows and its epilogue index by): the loops'
// bounds show the values are not negative, so the `lower` stage divides
// unsigned, without affine's sign-correcting selects around signed
// divisions (on the parallel loop's variable too: before the OpenMP
// conversion).
// (A remainder of a quotient, `(row floordiv 14) mod 14`, stays signed
// here; LLVM's own range analysis finishes it.)
// CHECK-LABEL: func.func @rows
// CHECK-NOT: arith.divsi
// CHECK: arith.divui %[[ROW:.*]], %c196
// CHECK-NOT: arith.divsi
// CHECK: arith.divui %[[ROW]], %c14
// CHECK-NOT: arith.divsi
// CHECK: arith.remui %[[ROW]], %c14
// CHECK-NOT: arith.divsi
// CHECK: return
func.func @rows(%src: memref<2x14x14x64xf32>, %dst: memref<392x64xf32>) {
  affine.parallel (%b) = (0) to (13) {
    affine.for %r = 0 to 32 {
      affine.if affine_set<(d0, d1) : (391 - d0 * 32 - d1 >= 0)>(%b, %r) {
        affine.for %c = 0 to 64 {
          %v = affine.load %src[(%b * 32 + %r) floordiv 196, ((%b * 32 + %r) floordiv 14) mod 14, (%b * 32 + %r) mod 14, %c] : memref<2x14x14x64xf32>
          affine.store %v, %dst[%b * 32 + %r, %c] : memref<392x64xf32>
        }
      }
    }
  }
  return
}
