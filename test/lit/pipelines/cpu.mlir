// The cpu pipeline, stage by stage, on matmul + bias + relu. A fixed target
// keeps the output independent of the machine running the tests.
// RUN: pb-opt %s --pb-pipeline=cpu --pb-stop-after=legalize --pb-target="cores=2 vector-bits=512" | FileCheck %s --check-prefix=LEGALIZE
// RUN: pb-opt %s --pb-pipeline=cpu --pb-stop-after=graph --pb-target="cores=2 vector-bits=512" | FileCheck %s --check-prefix=GRAPH
// RUN: pb-opt %s --pb-pipeline=cpu --pb-stop-after=affine --pb-target="cores=2 vector-bits=512" | FileCheck %s --check-prefix=AFFINE
// RUN: pb-opt %s --pb-pipeline=cpu --pb-stop-after=affine --pb-target="cores=1 vector-bits=256" | FileCheck %s --check-prefix=AFFINE-SERIAL
// RUN: pb-opt %s --pb-pipeline=cpu --pb-stop-after=lower --pb-target="cores=2 vector-bits=512" | FileCheck %s --check-prefix=LOWER
// RUN: pb-opt %s --pb-pipeline=cpu --pb-target="cores=2 vector-bits=512" | FileCheck %s --check-prefix=LLVM
// The last stage is plain LLVM dialect that translates to LLVM IR.
// RUN: pb-opt %s --pb-pipeline=cpu --pb-target="cores=2 vector-bits=512" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// Stage 1: still tensors; the quantize/dequantize pair folded and lowered.
// LEGALIZE-LABEL: func.func @matmul_bias_relu
// LEGALIZE-SAME: -> tensor<64x48xf32>
// LEGALIZE-NOT: pbq.
// LEGALIZE: linalg.matmul

// Stage 2: memrefs; the result became a trailing out-parameter.
// GRAPH-LABEL: func.func @matmul_bias_relu
// GRAPH-SAME: (%{{.*}}: memref<64x32xf32>, %{{.*}}: memref<32x48xf32>, %{{.*}}: memref<48xf32>, %[[OUT:.*]]: memref<64x48xf32>)
// GRAPH-NOT: -> memref
// GRAPH: linalg.matmul {{.*}} outs(%[[OUT]] : memref<64x48xf32>)

// Stage 3: affine loops, the outer loop of each nest parallel (inner ones not), 16-lane vectors (512 bits of f32).
// AFFINE-LABEL: func.func @matmul_bias_relu
// AFFINE: affine.parallel
// AFFINE-NEXT: affine.for
// AFFINE-LABEL: func.func @scale
// AFFINE: affine.vector_load {{.*}} vector<16xf32>
// One core: no parallel loop; 256 bits: 8 lanes.
// AFFINE-SERIAL-NOT: affine.parallel
// AFFINE-SERIAL-LABEL: func.func @scale
// AFFINE-SERIAL: affine.vector_load {{.*}} vector<8xf32>

// Stage 4: OpenMP and scf, no affine left.
// RUN: pb-opt %s --pb-pipeline=cpu --pb-stop-after=affine --pb-no-vectorize --pb-target="cores=2 vector-bits=512" | FileCheck %s --check-prefix=AFFINE-SCALAR
// AFFINE-SCALAR: affine.parallel
// AFFINE-SCALAR-NOT: vector<
// AFFINE-SCALAR-LABEL: func.func @scale
// AFFINE-SCALAR-NOT: vector<

// LOWER-NOT: affine.
// LOWER: omp.parallel
// LOWER: omp.wsloop

// Stage 5: an LLVM function taking one plain pointer per buffer.
// LLVM: llvm.func @matmul_bias_relu(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// LLVM-NOT: memref
// IR: define void @matmul_bias_relu(ptr %0, ptr %1, ptr %2, ptr %3)
// IR: call void {{.*}}@__kmpc_fork_call

func.func @matmul_bias_relu(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>, %bias: tensor<48xf32>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>) outs(%f : tensor<64x48xf32>) -> tensor<64x48xf32>
  %q = "pbq.quantize"(%m) {scale = 0.5 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<64x48xf32>) -> tensor<64x48xi8>
  %dq = "pbq.dequantize"(%q) {scale = 0.5 : f64, zero_point = 0 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<64x48xi8>) -> tensor<64x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<64x48xf32>, tensor<48xf32>) outs(%e : tensor<64x48xf32>) {
  ^bb0(%x: f32, %b0: f32, %o: f32):
    %s = arith.addf %x, %b0 : f32
    %y = arith.maximumf %s, %zero : f32
    linalg.yield %y : f32
  } -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

// An elementwise function: its innermost loop is vectorized.
func.func @scale(%x: tensor<8x100xf32>) -> tensor<8x100xf32> {
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<8x100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x100xf32>) outs(%e : tensor<8x100xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %two : f32
    linalg.yield %m : f32
  } -> tensor<8x100xf32>
  return %r : tensor<8x100xf32>
}

// Resuming: the stages after `affine` on its output (edited by hand, say)
// give what the whole pipeline gives; a resumption past the end is an error.
// RUN: pb-opt %s --pb-pipeline=cpu --pb-stop-after=affine --pb-target="cores=2 vector-bits=512" | pb-opt --pb-pipeline=cpu --pb-start-after=affine --pb-target="cores=2 vector-bits=512" | FileCheck %s --check-prefix=RESUMED
// RESUMED-LABEL: llvm.func @matmul_bias_relu
// RESUMED-NOT: affine.
// RESUMED: llvm.return
// RUN: expect-exit 1 pb-opt %s --pb-pipeline=cpu --pb-start-after=llvm 2>&1 | FileCheck %s --check-prefix=NOTHING
// NOTHING: nothing to run: the pipeline starts after 'llvm' and stops after 'llvm'
