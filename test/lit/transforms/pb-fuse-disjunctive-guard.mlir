// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-fuse{cores=2 report=true row-tile=4}))' %s 2>&1 | FileCheck %s

// A padded, strided, dilated depthwise convolution (PyTorch's Conv2d with
// groups=4, stride 2, dilation 3, padding 3): fusing the padding copy into
// it makes ISL guard a statement with a disjunction, which codegen writes
// as an if / else-if chain repeating the branch (affine.if takes only
// conjunctions; this was "the expression operator Ge" error). The row
// tile is forced: at this size the model prefers the nests apart.
// CHECK: remark: [pb-fuse] fused producers
// CHECK: affine.if
// CHECK: } else {
// CHECK-NEXT: affine.if
func.func @graph(%arg0: memref<4x1x3x3xf32>, %arg1: memref<5x4x10x20xf32>, %arg2: memref<5x4x5x10xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<5x4x16x26xf32>
  affine.for %arg3 = 0 to 5 {
    affine.for %arg4 = 0 to 4 {
      affine.for %arg5 = 0 to 16 {
        affine.for %arg6 = 0 to 26 {
          affine.store %cst, %alloc[%arg3, %arg4, %arg5, %arg6] : memref<5x4x16x26xf32>
        }
      }
    }
  }
  affine.for %arg3 = 0 to 5 {
    affine.for %arg4 = 0 to 4 {
      affine.for %arg5 = 0 to 10 {
        affine.for %arg6 = 0 to 20 {
          %0 = affine.load %arg1[%arg3, %arg4, %arg5, %arg6] : memref<5x4x10x20xf32>
          %1 = affine.apply affine_map<(d0) -> (d0 + 3)>(%arg5)
          %2 = affine.apply affine_map<(d0) -> (d0 + 3)>(%arg6)
          affine.store %0, %alloc[%arg3, %arg4, %1, %2] : memref<5x4x16x26xf32>
        }
      }
    }
  }
  affine.for %arg3 = 0 to 5 {
    affine.for %arg4 = 0 to 4 {
      affine.for %arg5 = 0 to 5 {
        affine.for %arg6 = 0 to 10 {
          affine.store %cst, %arg2[%arg3, %arg4, %arg5, %arg6] : memref<5x4x5x10xf32>
        }
      }
    }
  }
  affine.for %arg3 = 0 to 5 {
    affine.for %arg4 = 0 to 5 {
      affine.for %arg5 = 0 to 10 {
        affine.for %arg6 = 0 to 4 {
          affine.for %arg7 = 0 to 3 {
            affine.for %arg8 = 0 to 3 {
              %0 = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1 * 3)>(%arg4, %arg7)
              %1 = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1 * 3)>(%arg5, %arg8)
              %2 = affine.load %alloc[%arg3, %arg6, %0, %1] : memref<5x4x16x26xf32>
              %3 = affine.load %arg0[%arg6, %c0, %arg7, %arg8] : memref<4x1x3x3xf32>
              %4 = affine.load %arg2[%arg3, %arg6, %arg4, %arg5] : memref<5x4x5x10xf32>
              %5 = arith.mulf %2, %3 : f32
              %6 = arith.addf %4, %5 : f32
              affine.store %6, %arg2[%arg3, %arg6, %arg4, %arg5] : memref<5x4x5x10xf32>
            }
          }
        }
      }
    }
  }
  memref.dealloc %alloc : memref<5x4x16x26xf32>
  return
}

