// RUN: pb-opt --pass-pipeline='builtin.module(func.func(pb-static-once))' %s | FileCheck %s

// A quantized linear layer's weight column sums (pb-integer-contraction's
// `za * sum_k w[n][k]`), zero-filled then summed from the static weight:
// both nests run only when the prepared flag is 0, into a buffer the pool
// keeps (its deallocation gone). The product reads the activations, which
// are not static: it runs on every call.
// CHECK-LABEL: func.func @column_sums
// CHECK: %[[FLAG:.*]] = memref.alloc() {pb.prepared_flag} : memref<i32>
// CHECK: %[[SUM:.*]] = memref.alloc() {alignment = 64 : i64, pb.persistent} : memref<32xi32>
// CHECK: %[[STALE:.*]] = arith.cmpi eq
// CHECK-NEXT: scf.if %[[STALE]] {
// CHECK-NEXT: affine.for
// CHECK-NEXT: affine.store %c0_i32, %[[SUM]]
// CHECK: scf.if
// CHECK-NEXT: affine.for
// CHECK: affine.load %arg1
// CHECK: affine.store %{{.*}}, %[[SUM]]
// CHECK: } {pb.once}
// The product, every call.
// CHECK: affine.for
// CHECK-NOT: scf.if
// CHECK: affine.load %arg0
// CHECK: affine.load %[[SUM]]
// CHECK-NOT: memref.dealloc %[[SUM]]
// CHECK: memref.store %{{.*}}, %[[FLAG]][]
// CHECK-NEXT: return
func.func @column_sums(%x: memref<4x64xi8>, %w: memref<32x64xi8> {pb.static}, %y: memref<4x32xi32>) {
  %c0_i32 = arith.constant 0 : i32
  %sum = memref.alloc() {alignment = 64 : i64} : memref<32xi32>
  affine.for %n = 0 to 32 {
    affine.store %c0_i32, %sum[%n] : memref<32xi32>
  }
  affine.for %n = 0 to 32 {
    affine.for %k = 0 to 64 {
      %v = affine.load %w[%n, %k] : memref<32x64xi8>
      %s = affine.load %sum[%n] : memref<32xi32>
      %e = arith.extsi %v : i8 to i32
      %t = arith.addi %s, %e : i32
      affine.store %t, %sum[%n] : memref<32xi32>
    }
  }
  affine.for %i = 0 to 4 {
    affine.for %n = 0 to 32 {
      %a = affine.load %x[%i, 0] : memref<4x64xi8>
      %s = affine.load %sum[%n] : memref<32xi32>
      %e = arith.extui %a : i8 to i32
      %t = arith.muli %e, %s : i32
      affine.store %t, %y[%i, %n] : memref<4x32xi32>
    }
  }
  memref.dealloc %sum : memref<32xi32>
  return
}

// Nothing static: left as it is.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: scf.if
// CHECK-NOT: pb.persistent
// CHECK: return
func.func @dynamic(%w: memref<32x64xi8>, %y: memref<32xi32>) {
  %c0_i32 = arith.constant 0 : i32
  %sum = memref.alloc() {alignment = 64 : i64} : memref<32xi32>
  affine.for %n = 0 to 32 {
    affine.store %c0_i32, %sum[%n] : memref<32xi32>
  }
  affine.for %n = 0 to 32 {
    affine.for %k = 0 to 64 {
      %v = affine.load %w[%n, %k] : memref<32x64xi8>
      %s = affine.load %sum[%n] : memref<32xi32>
      %e = arith.extsi %v : i8 to i32
      %t = arith.addi %s, %e : i32
      affine.store %t, %sum[%n] : memref<32xi32>
    }
  }
  affine.for %n = 0 to 32 {
    %s = affine.load %sum[%n] : memref<32xi32>
    affine.store %s, %y[%n] : memref<32xi32>
  }
  memref.dealloc %sum : memref<32xi32>
  return
}

// A per-channel bias broadcast over every pixel reads only a static
// argument, but saves no work: kept, it would be a buffer as large as an
// activation, read on every call. It stays per call (its readers read the
// bias through it), and its buffer is not made persistent.
// CHECK-LABEL: func.func @bias_broadcast
// CHECK-NOT: pb.persistent
// CHECK-NOT: scf.if
// CHECK: affine.load %arg0
// CHECK: return
func.func @bias_broadcast(%bias: memref<16xf32> {pb.static}, %x: memref<8x8x16xf32>, %y: memref<8x8x16xf32>) {
  %b = memref.alloc() {alignment = 64 : i64} : memref<8x8x16xf32>
  affine.for %h = 0 to 8 {
    affine.for %w = 0 to 8 {
      affine.for %c = 0 to 16 {
        %v = affine.load %bias[%c] : memref<16xf32>
        affine.store %v, %b[%h, %w, %c] : memref<8x8x16xf32>
      }
    }
  }
  affine.for %h = 0 to 8 {
    affine.for %w = 0 to 8 {
      affine.for %c = 0 to 16 {
        %v = affine.load %b[%h, %w, %c] : memref<8x8x16xf32>
        %u = affine.load %x[%h, %w, %c] : memref<8x8x16xf32>
        %s = arith.addf %u, %v : f32
        affine.store %s, %y[%h, %w, %c] : memref<8x8x16xf32>
      }
    }
  }
  memref.dealloc %b : memref<8x8x16xf32>
  return
}

// The same broadcast read by another static nest (a sum over the
// broadcast weights) is part of that work: both run once, into kept
// buffers.
// CHECK-LABEL: func.func @broadcast_then_summed
// CHECK-DAG: memref.alloc() {alignment = 64 : i64, pb.persistent} : memref<4x16xf32>
// CHECK-DAG: memref.alloc() {alignment = 64 : i64, pb.persistent} : memref<16xf32>
// CHECK: scf.if
// CHECK: scf.if
// CHECK: scf.if
func.func @broadcast_then_summed(%bias: memref<16xf32> {pb.static}, %y: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %b = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
  %sum = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  affine.for %r = 0 to 4 {
    affine.for %c = 0 to 16 {
      %v = affine.load %bias[%c] : memref<16xf32>
      affine.store %v, %b[%r, %c] : memref<4x16xf32>
    }
  }
  affine.for %c = 0 to 16 {
    affine.store %zero, %sum[%c] : memref<16xf32>
  }
  affine.for %c = 0 to 16 {
    affine.for %r = 0 to 4 {
      %v = affine.load %b[%r, %c] : memref<4x16xf32>
      %s = affine.load %sum[%c] : memref<16xf32>
      %t = arith.addf %s, %v : f32
      affine.store %t, %sum[%c] : memref<16xf32>
    }
  }
  affine.for %c = 0 to 16 {
    %s = affine.load %sum[%c] : memref<16xf32>
    affine.store %s, %y[%c] : memref<16xf32>
  }
  memref.dealloc %b : memref<4x16xf32>
  memref.dealloc %sum : memref<16xf32>
  return
}

// One temporary reused by two layers (bufferization gives both the same
// buffer), each computing it from its static weight and reading it per
// call: kept, it would hold the second layer's value when the first reads
// it on every call after the first. Its writers stay per call.
// CHECK-LABEL: func.func @reused_by_two_layers
// CHECK-NOT: pb.persistent
// CHECK-NOT: scf.if
// CHECK: return
func.func @reused_by_two_layers(%x: memref<16xf32>, %w1: memref<16xf32> {pb.static}, %w2: memref<16xf32> {pb.static},
                                %y1: memref<16xf32>, %y2: memref<16xf32>) {
  %t = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  affine.for %c = 0 to 16 {
    %v = affine.load %w1[%c] : memref<16xf32>
    %e = math.exp %v : f32
    affine.store %e, %t[%c] : memref<16xf32>
  }
  affine.for %c = 0 to 16 {
    %a = affine.load %x[%c] : memref<16xf32>
    %b = affine.load %t[%c] : memref<16xf32>
    %p = arith.mulf %a, %b : f32
    affine.store %p, %y1[%c] : memref<16xf32>
  }
  affine.for %c = 0 to 16 {
    %v = affine.load %w2[%c] : memref<16xf32>
    %e = math.exp %v : f32
    affine.store %e, %t[%c] : memref<16xf32>
  }
  affine.for %c = 0 to 16 {
    %a = affine.load %x[%c] : memref<16xf32>
    %b = affine.load %t[%c] : memref<16xf32>
    %p = arith.mulf %a, %b : f32
    affine.store %p, %y2[%c] : memref<16xf32>
  }
  memref.dealloc %t : memref<16xf32>
  return
}

// The same reuse with a broadcast of the temporary read per call: the
// first layer's broadcast reads a buffer the second layer writes later,
// so it runs once with the work it copies (into a kept buffer of its
// own); the second's source holds its value from there on: it runs per
// call, reading the kept temporary. The static nests, in their order, run
// first (nothing per call reads the temporary between its writers).
// CHECK-LABEL: func.func @broadcast_of_a_reused_buffer
// CHECK-DAG: %[[T:.*]] = memref.alloc() {alignment = 64 : i64, pb.persistent} : memref<16xf32>
// CHECK-DAG: %[[B1:.*]] = memref.alloc() {alignment = 64 : i64, pb.persistent} : memref<4x16xf32>
// CHECK: scf.if
// CHECK: affine.store %{{.*}}, %[[T]]
// CHECK: scf.if
// CHECK: affine.store %{{.*}}, %[[B1]]
// CHECK: scf.if
// CHECK: affine.store %{{.*}}, %[[T]]
// CHECK: affine.load %[[B1]]
// The second broadcast, per call.
// CHECK: affine.for
// CHECK-NEXT: affine.for
// CHECK-NEXT: affine.load %[[T]]
// CHECK: return
func.func @broadcast_of_a_reused_buffer(%x: memref<4x16xf32>, %w1: memref<16xf32> {pb.static}, %w2: memref<16xf32> {pb.static},
                                        %y1: memref<4x16xf32>, %y2: memref<4x16xf32>) {
  %t = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  affine.for %c = 0 to 16 {
    %v = affine.load %w1[%c] : memref<16xf32>
    %e = math.exp %v : f32
    affine.store %e, %t[%c] : memref<16xf32>
  }
  %b1 = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
  affine.for %r = 0 to 4 {
    affine.for %c = 0 to 16 {
      %v = affine.load %t[%c] : memref<16xf32>
      affine.store %v, %b1[%r, %c] : memref<4x16xf32>
    }
  }
  affine.for %r = 0 to 4 {
    affine.for %c = 0 to 16 {
      %a = affine.load %x[%r, %c] : memref<4x16xf32>
      %b = affine.load %b1[%r, %c] : memref<4x16xf32>
      %p = arith.mulf %a, %b : f32
      affine.store %p, %y1[%r, %c] : memref<4x16xf32>
    }
  }
  affine.for %c = 0 to 16 {
    %v = affine.load %w2[%c] : memref<16xf32>
    %e = math.exp %v : f32
    affine.store %e, %t[%c] : memref<16xf32>
  }
  %b2 = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
  affine.for %r = 0 to 4 {
    affine.for %c = 0 to 16 {
      %v = affine.load %t[%c] : memref<16xf32>
      affine.store %v, %b2[%r, %c] : memref<4x16xf32>
    }
  }
  affine.for %r = 0 to 4 {
    affine.for %c = 0 to 16 {
      %a = affine.load %x[%r, %c] : memref<4x16xf32>
      %b = affine.load %b2[%r, %c] : memref<4x16xf32>
      %p = arith.mulf %a, %b : f32
      affine.store %p, %y2[%r, %c] : memref<4x16xf32>
    }
  }
  memref.dealloc %b1 : memref<4x16xf32>
  memref.dealloc %b2 : memref<4x16xf32>
  memref.dealloc %t : memref<16xf32>
  return
}

// A weight copy between the per-call nests that produce and read a
// temporary (a depthwise convolution's [C, KH, KW] weights copied to
// [KH, KW, C] after its input's padding is written): the static nest moves
// up to where what it uses is defined, so that its scf.if no longer splits
// the per-call nests around it into separate runs for pb-fuse. The view
// of the weights it reads stays before it.
// CHECK-LABEL: func.func @weights_copied_between_layers
// CHECK: %[[V:.*]] = memref.collapse_shape %arg1
// CHECK: scf.if
// CHECK: affine.load %[[V]]
// CHECK: } {pb.once}
// CHECK: affine.for
// CHECK: math.exp
// CHECK: affine.for
// CHECK: arith.mulf
// CHECK: return
func.func @weights_copied_between_layers(%x: memref<4x16xf32>, %w: memref<16x1xf32> {pb.static}, %y: memref<4x16xf32>) {
  %t = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
  %v = memref.collapse_shape %w [[0, 1]] : memref<16x1xf32> into memref<16xf32>
  affine.for %r = 0 to 4 {
    affine.for %c = 0 to 16 {
      %a = affine.load %x[%r, %c] : memref<4x16xf32>
      %e = math.exp %a : f32
      affine.store %e, %t[%r, %c] : memref<4x16xf32>
    }
  }
  %k = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  affine.for %c = 0 to 16 {
    %a = affine.load %v[%c] : memref<16xf32>
    %n = arith.negf %a : f32
    affine.store %n, %k[%c] : memref<16xf32>
  }
  affine.for %r = 0 to 4 {
    affine.for %c = 0 to 16 {
      %a = affine.load %t[%r, %c] : memref<4x16xf32>
      %b = affine.load %k[%c] : memref<16xf32>
      %p = arith.mulf %a, %b : f32
      affine.store %p, %y[%r, %c] : memref<4x16xf32>
    }
  }
  memref.dealloc %t : memref<4x16xf32>
  memref.dealloc %k : memref<16xf32>
  return
}
