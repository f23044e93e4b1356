//! The `cpu` pipeline: tensors in upstream dialects (linalg, tensor, arith,
//! math, tosa), `pbq` and `stablehlo`, down to the LLVM dialect for the host CPU.
//!
//! Five stages; `pb-opt --pb-pipeline=cpu --pb-stop-after=<stage>` runs a
//! prefix, and the compile driver runs them one by one to time each:
//!
//! 1. `legalize`: StableHLO (JAX, TensorFlow) to linalg,
//!    torch-mlir's `tm_tensor` scatter/scan/sort to loops,
//!    check the input is compilable (`pb-check-cpu-input`),
//!    TOSA to linalg/arith/tensor, quantization folding and lowering,
//!    computed gather indices clamped into bounds,
//!    elementwise ops on whole tensors to linalg;
//! 2. `graph`: elementwise fusion, bufferization to memrefs with results
//!    turned into out-parameters (the C ABI: inputs then outputs), optionally
//!    all temporaries served from a caller's pool, buffer deallocation;
//! 3. `affine`: linalg (and copies) to affine loops, views folded into
//!    accesses, copy forwarding and fusion by overlapped tiling
//!    (`pb-forward-copies`, `pb-fuse`), store-to-load forwarding,
//!    register-tiled contractions (`pb-register-tile`), loop interchange
//!    putting a contiguous loop innermost, parallelization of one outer loop
//!    (OpenMP grain), vectorization of innermost loops to the target's
//!    vector width;
//! 4. `lower`: affine to scf, parallel loops to OpenMP, vector to scf;
//! 5. `llvm`: products fused with their sums (`pb-fp-contract`), f32 math
//!    expanded to polynomials (`vscalefps` in exp, `vpermps` coefficient
//!    tables in erf on AVX-512F hosts), everything to the LLVM dialect,
//!    functions with bare-pointer arguments.
//!
//! Numbers come from the [`TargetDesc`] (cores decide OpenMP, vector width
//! decides the vector size).

use pb_support::{
    gpu_target::GpuDesc,
    target::{host_has_avx512f, TargetDesc},
};
use std::fmt;

/// A stage of the cpu pipeline, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    Legalize,
    Graph,
    Affine,
    Lower,
    Llvm,
}

impl Stage {
    pub const ALL: [Stage; 5] = [Stage::Legalize, Stage::Graph, Stage::Affine, Stage::Lower, Stage::Llvm];

    pub fn name(self) -> &'static str {
        match self {
            Stage::Legalize => "legalize",
            Stage::Graph => "graph",
            Stage::Affine => "affine",
            Stage::Lower => "lower",
            Stage::Llvm => "llvm",
        }
    }

    pub fn parse(name: &str) -> Result<Stage, String> {
        Stage::ALL.into_iter().find(|s| s.name() == name).ok_or_else(|| {
            let names: Vec<_> = Stage::ALL.iter().map(|s| s.name()).collect();
            format!("unknown cpu pipeline stage '{name}' (stages: {})", names.join(", "))
        })
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Options of the cpu pipeline.
#[derive(Clone, Debug)]
pub struct CpuOptions {
    pub target: TargetDesc,
    /// Vectorize innermost loops with `pb-vectorize` at the target's f32
    /// width (on by default). We do not use upstream `affine-super-vectorize`:
    /// it emits invalid IR for stores invariant in the vectorized loop (e.g.
    /// a fill fused into a 1x1x1 matmul).
    pub vectorize: bool,
    /// Take every temporary buffer from a caller-supplied pool argument
    /// (`pb-allocs-to-pool`): the generated code allocates nothing (AOT;
    /// an error where an allocation cannot go in the pool).
    pub user_memory: bool,
    /// Take the temporaries that can go in a pool from a trailing pool
    /// argument, the others from the heap (the JIT runtime keeps one pool
    /// per thread: no allocation, no page faults per call).
    pub pool: bool,
    /// Fuse producer nests into consumers by overlapped tiling (`pb-fuse`,
    /// on by default).
    pub fuse: bool,
    /// Explain loop-transformation decisions on stderr (`report` option of
    /// the polyhedral passes).
    pub report: bool,
    /// For comparison only: an `affine` stage of upstream MLIR passes alone
    /// (fusion, tiling, super-vectorization, parallelization) instead of
    /// ours. Upstream fusion is known to miscompile some programs (see the
    /// stage's comments); benchmarks use it to show what our passes add.
    pub upstream_affine: bool,
    /// The code may use AVX-512F instructions that LLVM does not select
    /// from generic IR (`vscalefps` in exp, `vpermps` tables in erf). On by
    /// default where the host has AVX-512F and the target keeps 512-bit
    /// vectors; the compile driver turns it off when code is generated for
    /// another CPU.
    pub avx512: bool,
    /// Products may fuse with the add or subtract using them (one FMA, one
    /// rounding: `pb-fp-contract`); on by default.
    pub fp_contract: bool,
    /// Feature maps of convolutions stored channels-last
    /// (`pb-channels-last`, `graph` stage, after elementwise fusion); on by
    /// default.
    pub channels_last: bool,
    /// Vector loops evaluating a transcendental function take this many
    /// times the target's width (`pb-vectorize`'s `interleave`); 2 by
    /// default.
    pub interleave: u64,
    /// Time every kernel into an exported counter table
    /// (`pb-profile-kernels`, end of the `affine` stage); off by default.
    pub profile: bool,
    /// Each distinct kernel in a function of its own (`pb-outline-kernels`,
    /// end of the `affine` stage): compiled once however often a model
    /// repeats it; on by default.
    pub outline: bool,
    /// The compile budget's deadline (`pb_support::budget`: ms since the
    /// Unix epoch; 0, the default: none), for the planning passes
    /// (`pb-fuse`, `pb-forward-copies`), which leave the rest of the
    /// program unoptimized once it has passed.
    pub deadline_ms: u64,
    /// The GPU of the `nvgpu` pipeline (its default chip when `None`);
    /// the cpu pipeline ignores it.
    pub gpu: Option<GpuDesc>,
    /// With the `nvgpu` pipeline: lower the mapped IR (kernels as loops,
    /// `pb-gpu-emulate`) for the CPU, to check a mapping without a GPU.
    pub emulate: bool,
    /// The target's matrix units were named by an override
    /// (`matrix-units=...`), not detected on the host: they hold for code
    /// generated for another CPU too.
    pub units_named: bool,
    /// The same for the target's `fma` (`fma=...`): without it, code for
    /// another CPU assumes no hardware FMA.
    pub fma_named: bool,
}

impl CpuOptions {
    pub fn host() -> Self {
        Self::for_target(TargetDesc::host())
    }

    /// Replaces the target description, with what depends on it.
    pub fn set_target(&mut self, target: TargetDesc) {
        self.avx512 = host_has_avx512f() && target.vector_bits >= 512;
        self.target = target;
    }

    pub fn for_target(target: TargetDesc) -> Self {
        let avx512 = host_has_avx512f() && target.vector_bits >= 512;
        Self {
            target,
            vectorize: true,
            user_memory: false,
            pool: false,
            fuse: true,
            report: false,
            upstream_affine: false,
            avx512,
            fp_contract: true,
            channels_last: true,
            interleave: 2,
            profile: false,
            outline: true,
            deadline_ms: 0,
            gpu: None,
            emulate: false,
            units_named: false,
            fma_named: false,
        }
    }
}

/// The `affine` stage with upstream passes only (`CpuOptions::upstream_affine`).
fn upstream_affine_stage(options: &CpuOptions) -> Vec<String> {
    let lanes = options.target.f32_lanes();
    let l1 = options.target.cache_bytes(1).unwrap_or(32 * 1024) / 1024;
    let mut passes = vec![
        "func.func(pb-lower-memref-copy)".to_string(),
        "func.func(convert-linalg-to-affine-loops)".into(),
        "affine-fold-memref-alias-ops".into(),
        "func.func(affine-expand-index-ops-as-affine)".into(),
        "canonicalize".into(),
        "func.func(affine-loop-fusion)".into(),
        format!("func.func(affine-loop-tile{{cache-size={l1}}})"),
        "func.func(affine-scalrep)".into(),
        "canonicalize".into(),
        "func.func(affine-loop-invariant-code-motion)".into(),
    ];
    if options.target.cores > 1 {
        passes.push("func.func(affine-parallelize{max-nested=1})".into());
    }
    if options.vectorize && lanes > 1 {
        passes.push(format!("func.func(affine-super-vectorize{{virtual-vector-size={lanes}}})"));
    }
    passes.push("canonicalize".into());
    passes
}

/// The pass pipeline of one stage (elements of a `builtin.module(...)`).
pub fn stage_pipeline(stage: Stage, options: &CpuOptions) -> String {
    let parallel = options.target.cores > 1;
    let lanes = options.target.f32_lanes();
    let passes: Vec<String> = match stage {
        Stage::Legalize => {
            let mut passes: Vec<String> = vec![
                // StableHLO from the JAX and TensorFlow fronts (imported by
                // pb_dialects::stablehlo) to linalg on tensors; nothing
                // else has stablehlo ops.
                "func.func(pb-legalize-stablehlo)".into(),
                // torch-mlir's scatter/scan/sort (index_put, cumsum, topk) as
                // loops: the only foreign ops the pipeline takes.
                // (summing scatters on every core, into private copies)
                format!("func.func(pb-lower-tm-tensor{{cores={}}})", options.target.cores.max(1)),
                "pb-check-cpu-input".into(),
                "func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor)".into(),
                "func.func(pb-simplify-quant,pb-lower-quant)".into(),
            ];
            if product_units(options).iter().any(|u| *u == "amx-int8" || *u == "avx512-vnni") {
                // Contractions of dequantized 8-bit operands as integer
                // products where the target has a unit for them (AMX
                // tiles or VNNI dot products; elsewhere the float
                // contraction beats scalar integer loops).
                passes.push("func.func(pb-integer-contraction)".into());
            }
            passes.extend([
                // Gathers never read outside their tensor (torch-mlir does not
                // check computed indices; PyTorch clamps or raises).
                "func.func(pb-clamp-gathers)".into(),
                // Their index checks (`cf.assert`) that value ranges prove
                // true go: an assert keeps a loop from being fused or
                // parallelized, and fusion leaves it a loop of its own.
                "func.func(pb-prove-asserts)".into(),
                // Elementwise arith/math ops on whole tensors (valid upstream
                // input, and what tosa-to-arith leaves) become linalg.generic:
                // bufferization has no other way to take them.
                "func.func(convert-elementwise-to-linalg)".into(),
                // Empty pieces of a concatenation dropped (bufferization would
                // make an out-of-bounds subview of a last one).
                "func.func(pb-concat-empty-operands)".into(),
                "canonicalize".into(),
            ]);
            passes
        }
        Stage::Graph => {
            let mut passes = Vec::new();
            if options.profile {
                // Before fusion: each operator still has its own op.
                passes.push("pb-profile-names".to_string());
            }
            passes.extend([
                // Filters by a fixed window (a blur or Sobel written as
                // conv2d) as sums of shifted reads: the form the image
                // pipeline path fuses and vectorizes; small channel mixes
                // (a colour matrix) as elementwise sums, each tap's
                // coefficient in a register.
                format!("func.func(pb-unroll-filters{{channel-taps={}}})", options.target.vector_registers() / 2),
                // Transposes that only move unit dimensions (an einsum's
                // leftovers, single-channel layout changes) are reshapes.
                "func.func(pb-unit-transposes)".into(),
                // An output's init read by an elementwise body is an input:
                // fused into a broadcasting consumer, a read-modify-write of
                // it would run once per consumer iteration.
                "func.func(pb-inits-as-inputs)".into(),
                // Upstream's elementwise fusion, except into a contraction's
                // operands (an integer product's requantized input would be
                // computed again for every output column).
                "func.func(pb-fuse-elementwise)".into(),
                "canonicalize".into(),
                "cse".into(),
                // Transposes read by reductions (`A.t() @ y` as a multiply
                // and sum) are read through permuted maps: no copy. After
                // fusion, which joins the multiply to its sum.
                "func.func(pb-fold-transposes)".into(),
                // Gathers whose indices are affine in truth (PyTorch's
                // replicate padding and upsampling) read through affine
                // maps: stencil reads the fusion and vectorizer take.
                "func.func(pb-affine-gathers)".into(),
                // Cheap elementwise stages read by several elementwise ops or
                // at several offsets (a stencil's products) are recomputed
                // per reader: a copy each, fused into it.
                "func.func(pb-inline-pointwise)".into(),
                "func.func(pb-fuse-elementwise)".into(),
                // Loops of a fused elementwise op that index none of its
                // large inputs inside those that do: each input row read
                // once (a colour matrix over output channels). Small: what
                // stays in an eighth of the first-level cache.
                format!("func.func(pb-reuse-order{{small-bytes={}}})", options.target.cache_bytes(1).unwrap_or(32 * 1024) / 8),
                // Integer arithmetic in the narrowest of i32/i64 that its
                // value ranges allow (torch-mlir dequantizes 8-bit values
                // by subtracting the zero point in i64: twice the vector
                // work of i32, and 64-bit conversions to float), once the
                // fused bodies hold whole chains from their 8-bit loads.
                "func.func(arith-int-range-narrowing{int-bitwidths-supported=32})".into(),
                // A ReLU before a requantization's clamp at the same bound
                // is the clamp's work already: its compare and select go.
                "func.func(pb-fold-clamps)".into(),
                "canonicalize".into(),
                "cse".into(),
            ]);
            if options.channels_last {
                // Convolutions' feature maps channels-last: vector lanes
                // along the channels, pixels as rows, no input gathering.
                // After elementwise fusion: as generics, the convolutions
                // would take their elementwise producers in (recomputed
                // per use, and no longer a plain contraction).
                passes.push(format!("func.func(pb-channels-last{{width={lanes}}})"));
            }
            passes.extend([
                // Slice assignments through several slicing steps: one
                // update of the whole tensor (one copy, not one per level).
                "func.func(pb-compose-insert-slices)".into(),
                // Concatenations that extend one another (DenseNet's blocks):
                // one buffer, each piece written once.
                "func.func(pb-concat-prefixes)".into(),
                // Inputs belong to the caller: bufferization must copy, not
                // write into them.
                "pb-readonly-inputs".into(),
                // One tensor returned twice gets a copy: each result is an
                // out-parameter of its own (upstream crashed on one buffer
                // returned twice).
                "pb-distinct-results".into(),
                // One empty tensor per output (CSE shared one between all):
                // bufferization's alias analysis stays linear.
                "func.func(pb-split-empty-tensors)".into(),
                "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}"
                    .into(),
                "buffer-results-to-out-params{hoist-static-allocs modify-public-functions}".into(),
                "canonicalize".into(),
            ]);
            passes.push("buffer-deallocation-pipeline".into());
            // A result computed in a temporary (through a reshape view) and
            // copied into its out-parameter is computed there directly.
            passes.push("func.func(pb-result-in-place)".into());
            passes
        }
        Stage::Affine if options.upstream_affine => upstream_affine_stage(options),
        Stage::Affine => {
            let mut passes = vec![
                "func.func(pb-lower-memref-copy)".to_string(),
                "func.func(convert-linalg-to-affine-loops)".into(),
                // Accesses through views (expand_shape, subview, ...) become
                // accesses of the underlying buffer, so that loop passes see
                // every access to a buffer under one name.
                "affine-fold-memref-alias-ops".into(),
                // Folding reshapes leaves affine.linearize_index /
                // delinearize_index in the indices; as affine.apply they are
                // part of the access maps the polyhedral passes read.
                "func.func(affine-expand-index-ops-as-affine)".into(),
            ];
            // Temporaries copied into a part of another buffer (slice
            // assignments) are computed there directly.
            passes.push(format!("func.func(pb-forward-copies{{report={} deadline-ms={}}})", options.report, options.deadline_ms));
            if options.pool || options.user_memory {
                // Work on static arguments alone (a quantized layer's
                // weight column sums) once per version of them, into
                // buffers the pool keeps; the packs of the contraction
                // passes below do the same for their weights.
                // A broadcast of a source that fits in L2 is read from
                // cache where it is read through: it is not kept.
                let l2 = options.target.cache_bytes(2).unwrap_or(1 << 20);
                passes.push(format!("func.func(pb-static-once{{cache-bytes={l2}}})"));
            }
            // bf16 and int8 products on the matrix unit (AMX) or the
            // vector dot-product instructions (VNNI, AVX512-BF16), where
            // the target has one for their element type; the rest go on.
            // Before pb-fuse: the nests reading a product's result are
            // still the plain elementwise nests the kernel can take in.
            let units = product_units(options).join("+");
            if !units.is_empty() {
                passes.push("canonicalize".into());
                passes.push(format!(
                    "func.func(pb-matrix-tile{{units={units} cores={} l1-bytes={} prepacked={} report={}}})",
                    options.target.cores.max(1),
                    options.target.cache_bytes(1).unwrap_or(32 << 10),
                    // Weights' packs kept in the pool, as pb-register-tile's.
                    options.pool || options.user_memory,
                    options.report
                ));
            }
            if options.fuse {
                let cache = options.target.cache_bytes(2).map_or(0, |b| b / 2);
                // 1 = no such cache (0 would probe the host).
                let inner = options.target.cache_bytes(1).map_or(1, |b| b / 2);
                let outer = options.target.cache_bytes(3).unwrap_or(1);
                passes.push(format!(
                    "func.func(pb-fuse{{cores={} cache-bytes={cache} inner-cache-bytes={inner} outer-cache-bytes={outer} lanes={lanes} report={} deadline-ms={}}})",
                    options.target.cores.max(1),
                    options.report,
                    options.deadline_ms
                ));
            }
            passes.extend([
                // No upstream `affine-loop-fusion`: it miscompiled two of our
                // workloads (it reordered a store and a read through a view,
                // examples/workloads/attention.mlir, and broke a
                // write-after-read dependence, relu_conv_padded.mlir). Our
                // own fusion replaces it.
                "func.func(affine-scalrep)".into(),
                // Folds index arithmetic (affine.apply) into the accesses'
                // maps, where the loop passes read it.
                "canonicalize".into(),
            ]);
            if options.vectorize && lanes > 1 {
                let target = &options.target;
                // Transposing copies (Linear weights, head permutes) move
                // lanes x lanes blocks through registers.
                passes.push(format!("func.func(pb-transpose-tile{{width={lanes} report={}}})", options.report));
                passes.push(format!(
                    "func.func(pb-register-tile{{width={lanes} registers={} l1-bytes={} l1-ways={} l2-bytes={} cores={} prepacked={} report={}}})",
                    if target.vector_bits >= 512 { 32 } else { 16 },
                    target.cache_bytes(1).unwrap_or(32 * 1024),
                    target.caches.iter().find(|c| c.level == 1).map_or(8, |c| c.ways),
                    target.cache_bytes(2).unwrap_or(1024 * 1024),
                    target.cores.max(1),
                    // Kept between calls in the pool: the JIT's per-thread
                    // pools, or the AOT caller's memory (whose header says
                    // to zero the prepared flag). Only arguments marked
                    // static (`--static-args`) are packed once.
                    options.pool || options.user_memory,
                    options.report
                ));
                // Reductions with no operand to reuse across output rows
                // (depthwise convolutions, pooling windows, column sums):
                // a tile of outputs stays in registers over all the
                // reduction steps.
                passes.push(format!(
                    "func.func(pb-accumulate-tile{{width={lanes} registers={} report={}}})",
                    if target.vector_bits >= 512 { 32 } else { 16 },
                    options.report
                ));
                // Contractions left untiled arrive with the reduction loop
                // innermost; put a loop with contiguous accesses there instead.
                passes.push(format!("func.func(pb-interchange{{min-trip={lanes}}})"));
            }
            // A short loop (a few channels) whose iterations share most of
            // the body's work (a bilateral grid's weights and corner
            // indices) is unrolled into it: CSE keeps one copy of that work.
            passes.push("func.func(pb-unroll-jam)".into());
            // The kernels are formed (fusion and tiling done): time them...
            if options.profile {
                passes.push("pb-profile-kernels".into());
            }
            // ...and give each distinct one a function of its own: what
            // follows (parallelization's dependence analysis, the longest
            // pass of the stage, vectorization) and LLVM then see a model's
            // repeated layers once. The profile's clock reads stay in the
            // caller.
            if options.outline {
                passes.push("pb-outline-kernels".into());
            }
            // Work that the new innermost loop does not change moves out of
            // it (attention's exp(s - max) / sum, fused into the P V
            // contraction by linalg, was computed once per output column).
            passes.push("func.func(affine-loop-invariant-code-motion)".into());
            if parallel {
                // Loops of one iteration (batch 1) go first, so that the
                // parallel loop is one with work to share.
                passes.push("func.func(affine-loop-normalize{promote-single-iter=true})".into());
                // The outermost dependence-free loops, from one ISL
                // dependence analysis per nest (upstream's
                // `affine-parallelize{max-nested=1}` chooses the same loops
                // but solves one problem per access pair and loop).
                passes.push(format!("func.func(pb-parallelize{{cores={} report={}}})", options.target.cores.max(1), options.report));
                // ...but not for loops whose work is less than a fork costs.
                passes.push("func.func(pb-parallel-grain)".into());
            }
            if options.vectorize && lanes > 1 {
                // Masked remainders where the target has mask registers;
                // stores of whole aligned vectors (a row's first vector
                // lines up with the row, not with its first interior
                // element).
                let masked = options.target.vector_bits >= 512;
                passes.push(format!(
                    "func.func(pb-vectorize{{width={lanes} masked={masked} interleave={} align=true}})",
                    options.interleave
                ));
            }
            // Per function from here on: the pass manager runs the kernels'
            // functions in parallel.
            passes.push("func.func(canonicalize)".into());
            passes
        }
        Stage::Lower => {
            let mut passes = Vec::new();
            // After the loop optimizers: they see each temporary as its own
            // buffer (as views of one pool, every access would alias).
            if options.user_memory || options.pool {
                passes.push(format!("pb-allocs-to-pool{{strict={}}}", options.user_memory));
            }
            passes.push("func.func(lower-affine)".to_string());
            // Code that runs once per version of the weights (packing them)
            // is left scalar by LLVM: its gathers cost compile time only.
            passes.push("func.func(pb-scalar-once)".to_string());
            // Index arithmetic on values the loops' bounds show are not
            // negative (a row block's rows divided into image, row and
            // column) as unsigned: affine's floordiv and mod lower to
            // sign-correcting selects around signed divisions otherwise.
            // Before the OpenMP conversion, while the parallel loops'
            // bounds are still readable.
            passes.push("func.func(int-range-optimizations,arith-unsigned-when-equivalent)".into());
            if parallel {
                // (module-wide: declares reductions in the module)
                // (the summing scatters' scf.forall too)
                passes.push("func.func(scf-forall-to-parallel)".into());
                passes.push("convert-scf-to-openmp".into());
            }
            // Each affine access lowered on its own repeats the index
            // arithmetic of its neighbours (a register tile's rows, a
            // packing loop's unrolled copies): CSE keeps one of each,
            // leaving a third of the IR for the LLVM conversions and
            // translation (ResNet-50 batch 8: 2.2 -> 0.74 MB; before, LLVM's
            // own CSE removed it, after both).
            passes.push("func.func(convert-vector-to-scf,expand-strided-metadata,lower-affine,canonicalize,cse)".into());
            passes
        }
        Stage::Llvm => llvm_stage(options),
    };
    passes.join(",")
}

/// The whole pipeline up to and including `stop_after`.
pub fn pipeline(options: &CpuOptions, stop_after: Stage) -> String {
    pipeline_between(options, None, stop_after)
}

/// The stages after `start_after` (all with `None`) up to `stop_after`:
/// resuming from a stage's dump, e.g. IR edited by hand after `affine`.
pub fn pipeline_between(options: &CpuOptions, start_after: Option<Stage>, stop_after: Stage) -> String {
    let stages: Vec<String> = Stage::ALL
        .into_iter()
        .filter(|s| *s <= stop_after && start_after.is_none_or(|start| *s > start))
        .map(|s| stage_pipeline(s, options))
        .collect();
    format!("builtin.module({})", stages.join(","))
}

/// The `llvm` stage.
///
/// Conversions that work one function at a time run nested in
/// `func.func(...)` (before the function conversion) or `llvm.func(...)`
/// (after it): the pass manager runs those on the functions in parallel,
/// where module-wide passes walk the whole module on one thread (DenseNet's
/// stage: ~0.5 s less on 2 cores; the output is the same).
fn llvm_stage(options: &CpuOptions) -> Vec<String> {
    let mut passes = Vec::new();
    if options.fp_contract {
        passes.push("func.func(pb-fp-contract)".to_string());
    }
    passes.extend([
        // Run-time checks record an error code for the caller instead of
        // aborting the process.
        "pb-asserts-to-errors".into(),
        // Private helpers (bufferization's `dealloc_helper`, taking memrefs
        // of dynamic size) inlined: the bare-pointer calling convention
        // cannot take them, and an unconverted callee breaks the LLVM module.
        "inline".into(),
        // Zero-element arguments (a 4x0 matrix) as plain pointers: MLIR
        // would lower the whole function with memref descriptors otherwise.
        "pb-empty-args".into(),
    ]);
    let per_function = [
        // Complex arithmetic as pairs of floats (abs, exp, division...);
        // what stays (create, re, im) becomes LLVM structs below.
        "convert-complex-to-standard".to_string(),
        // x^n with a constant integer n (tanh-GELU's x^3) becomes
        // multiplications; a variable n becomes powf (LLVM's powi takes
        // no vector of exponents, which vectorized code has).
        "math-expand-ops{ops=fpowi}".into(),
        // Math and arithmetic on float16/bfloat16 in float32, rounded after
        // each op, as PyTorch's CPU kernels compute them (and LLVM's
        // promotion on x86, but here: our f32 polynomials apply, a division
        // marked `arcp` multiplies by an f32 reciprocal, not one rounded
        // to 11 bits, and the bf16 conversions are expanded below)...
        "math-extend-to-supported-types{target-type=f32}".into(),
        "arith-emulate-unsupported-floats{source-types=bf16,f16 target-type=f32}".into(),
        // (the emulation lets folding drop its roundings; they are kept)
        "pb-strict-half-rounding".into(),
        // ...and bfloat16 conversions as integer operations: LLVM would call
        // compiler-rt's __truncsfbf2, which generated code cannot import.
        "arith-expand{include-bf16=true}".into(),
        // f32 exp/expm1/log/tanh/erf become polynomials (pb-expand-math:
        // vectorized, no libm); math with an LLVM intrinsic next; what is
        // left (f64 erf, ...) becomes libm calls, declared as functions...
        // (powf with a constant exponent in f32 double-word arithmetic
        // where the target has hardware FMA).
        format!("pb-expand-math{{x86-avx512={} fma={}}}", options.avx512, options.target.fma),
        "convert-math-to-llvm".into(),
    ];
    passes.push(format!("func.func({})", per_function.join(",")));
    passes.extend([
        "convert-math-to-libm".into(),
        // ...which the function conversion then handles with the rest,
        // before any other conversion: bare pointers for static memrefs.
        "convert-func-to-llvm{use-bare-ptr-memref-call-conv=1}".into(),
        "llvm.func(convert-complex-to-llvm)".into(),
        // A module using AMX tiles asks Linux for them when it is loaded.
        "pb-amx-permission".into(),
    ]);
    let amx = !amx_units(&options.target).is_empty();
    passes.extend([
        format!(
            "llvm.func(convert-vector-to-llvm{{enable-x86vector={} enable-amx={} vector-transpose-lowering=shuffle1d}})",
            options.avx512, amx
        ),
        // (declares malloc/free in the module: not per function)
        "finalize-memref-to-llvm".into(),
        "llvm.func(convert-scf-to-cf)".into(),
    ]);
    // Loops carrying AMX tiles are branches now, their operands still of
    // the tile type: `convert-to-llvm` knows it (convert-cf-to-llvm does
    // not), and the OpenMP conversion next needs its regions converted.
    if amx {
        passes.push("convert-to-llvm".into());
    }
    passes.extend([
        "convert-openmp-to-llvm".into(),
        "llvm.func(convert-arith-to-llvm,convert-index-to-llvm,convert-ub-to-llvm)".into(),
        // (module-wide: declares `abort` for cf.assert)
        "convert-cf-to-llvm".into(),
        "reconcile-unrealized-casts".into(),
        // Each public function also callable with its arguments in one
        // array (ctypes passes at most 1024 arguments).
        "pb-packed-entry-points".into(),
    ]);
    passes
}

/// The target's AMX units `pb-matrix-tile` can use (none without the
/// tile unit itself, `amx-tile`).
fn amx_units(target: &TargetDesc) -> Vec<&'static str> {
    let has = |unit: &str| target.matrix_units.iter().any(|u| u == unit);
    if !has("amx-tile") {
        return Vec::new();
    }
    ["amx-bf16", "amx-int8"].into_iter().filter(|u| has(u)).collect()
}

/// Every unit `pb-matrix-tile` can use: the AMX units and the 512-bit
/// dot-product instructions (`avx512-vnni`, `avx512-bf16`), the latter
/// only with 512-bit vectors in the target. (The compile driver drops the
/// host's units when code is for another CPU.)
fn product_units(options: &CpuOptions) -> Vec<&'static str> {
    let target = &options.target;
    let has = |unit: &str| target.matrix_units.iter().any(|u| u == unit);
    let mut units = amx_units(target);
    if target.vector_bits >= 512 {
        units.extend(["avx512-vnni", "avx512-bf16"].into_iter().filter(|u| has(u)));
    }
    units
}
