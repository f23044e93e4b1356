// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-compose-insert-slices))' %s --split-input-file | FileCheck %s

// `b = a.clone(); b[1:-1, 1:-1] = x` through two slicing steps: the row
// slice of `a` updated at columns 1.. and put back at row 1 is one update
// of `a` at (1, 1).
// CHECK-LABEL: func.func @nested
// CHECK-SAME: (%[[A:.*]]: tensor<8x8xf32>, %[[X:.*]]: tensor<6x6xf32>)
// CHECK-NEXT: %[[U:.*]] = tensor.insert_slice %[[X]] into %[[A]][1, 1] [6, 6] [1, 1] : tensor<6x6xf32> into tensor<8x8xf32>
// CHECK-NEXT: return %[[U]]
func.func @nested(%a: tensor<8x8xf32>, %x: tensor<6x6xf32>) -> tensor<8x8xf32> {
  %e = tensor.extract_slice %a[1, 0] [6, 8] [1, 1] : tensor<8x8xf32> to tensor<6x8xf32>
  %i = tensor.insert_slice %x into %e[0, 1] [6, 6] [1, 1] : tensor<6x6xf32> into tensor<6x8xf32>
  %o = tensor.insert_slice %i into %a[1, 0] [6, 8] [1, 1] : tensor<6x8xf32> into tensor<8x8xf32>
  return %o : tensor<8x8xf32>
}

// -----

// The inner update is used again (the next step reads it): it becomes a
// slice of the composed update.
// CHECK-LABEL: func.func @inner_used
// CHECK-NEXT: %[[U:.*]] = tensor.insert_slice %arg1 into %arg0[2, 1] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<8x8xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[U]][1, 0] [6, 8] [1, 1] : tensor<8x8xf32> to tensor<6x8xf32>
// CHECK-NEXT: return %[[U]], %[[S]]
func.func @inner_used(%a: tensor<8x8xf32>, %x: tensor<4x6xf32>) -> (tensor<8x8xf32>, tensor<6x8xf32>) {
  %e = tensor.extract_slice %a[1, 0] [6, 8] [1, 1] : tensor<8x8xf32> to tensor<6x8xf32>
  %i = tensor.insert_slice %x into %e[1, 1] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<6x8xf32>
  %o = tensor.insert_slice %i into %a[1, 0] [6, 8] [1, 1] : tensor<6x8xf32> into tensor<8x8xf32>
  return %o, %i : tensor<8x8xf32>, tensor<6x8xf32>
}

// -----

// Refused: the row slice goes back at another row than it came from (its
// untouched elements are not the destination's own).
// CHECK-LABEL: func.func @moved
// CHECK-COUNT-2: tensor.insert_slice
func.func @moved(%a: tensor<8x8xf32>, %x: tensor<6x6xf32>) -> tensor<8x8xf32> {
  %e = tensor.extract_slice %a[1, 0] [6, 8] [1, 1] : tensor<8x8xf32> to tensor<6x8xf32>
  %i = tensor.insert_slice %x into %e[0, 1] [6, 6] [1, 1] : tensor<6x6xf32> into tensor<6x8xf32>
  %o = tensor.insert_slice %i into %a[2, 0] [6, 8] [1, 1] : tensor<6x8xf32> into tensor<8x8xf32>
  return %o : tensor<8x8xf32>
}

// -----

// Refused: the slice comes from another tensor than the one updated.
// CHECK-LABEL: func.func @other_tensor
// CHECK-COUNT-2: tensor.insert_slice
func.func @other_tensor(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %x: tensor<6x6xf32>) -> tensor<8x8xf32> {
  %e = tensor.extract_slice %b[1, 0] [6, 8] [1, 1] : tensor<8x8xf32> to tensor<6x8xf32>
  %i = tensor.insert_slice %x into %e[0, 1] [6, 6] [1, 1] : tensor<6x6xf32> into tensor<6x8xf32>
  %o = tensor.insert_slice %i into %a[1, 0] [6, 8] [1, 1] : tensor<6x8xf32> into tensor<8x8xf32>
  return %o : tensor<8x8xf32>
}

// -----

// Refused: dynamic offsets and strided slices are left alone.
// CHECK-LABEL: func.func @dynamic
// CHECK-COUNT-2: tensor.insert_slice
// CHECK-LABEL: func.func @strided
// CHECK-COUNT-2: tensor.insert_slice
func.func @dynamic(%a: tensor<8x8xf32>, %x: tensor<6x6xf32>, %k: index) -> tensor<8x8xf32> {
  %e = tensor.extract_slice %a[1, 0] [6, 8] [1, 1] : tensor<8x8xf32> to tensor<6x8xf32>
  %i = tensor.insert_slice %x into %e[0, %k] [6, 6] [1, 1] : tensor<6x6xf32> into tensor<6x8xf32>
  %o = tensor.insert_slice %i into %a[1, 0] [6, 8] [1, 1] : tensor<6x8xf32> into tensor<8x8xf32>
  return %o : tensor<8x8xf32>
}
func.func @strided(%a: tensor<8x8xf32>, %x: tensor<6x3xf32>) -> tensor<8x8xf32> {
  %e = tensor.extract_slice %a[1, 0] [6, 8] [1, 1] : tensor<8x8xf32> to tensor<6x8xf32>
  %i = tensor.insert_slice %x into %e[0, 1] [6, 3] [1, 2] : tensor<6x3xf32> into tensor<6x8xf32>
  %o = tensor.insert_slice %i into %a[1, 0] [6, 8] [1, 1] : tensor<6x8xf32> into tensor<8x8xf32>
  return %o : tensor<8x8xf32>
}
