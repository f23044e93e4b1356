//! The `nvgpu` and `amdgpu` pipelines: the cpu pipeline's first stages,
//! then GPU mapping and lowering through upstream MLIR (`gpu`, then `nvvm`
//! to PTX for NVIDIA GPUs, `rocdl` to AMDGPU assembly for AMD ones: the GPU
//! description's vendor decides), with host code that launches the kernels
//! through the `mgpu*` functions of our GPU runtime (`runtime-gpu/`, NVIDIA
//! only so far: AMD code is checked by its assembly and the emulation).
//!
//! Six stages; `pb-opt --pb-pipeline=nvgpu --pb-stop-after=<stage>` runs a
//! prefix:
//!
//! 1. `legalize` and 2. `graph`: the cpu pipeline's (the same tensors,
//!    fusion of elementwise ops, bufferization to out-parameters);
//! 3. `affine`: linalg to affine loops, views folded into accesses, copy
//!    forwarding, store-to-load forwarding, every parallel loop marked
//!    parallel (`affine-parallelize`); none of the CPU's register tiling,
//!    vectorization or OpenMP grain, but f16 contractions go to tensor
//!    cores as launches of their own (`pb-gpu-mma`);
//! 4. `gpu-map`: loops to scf, each loop nest to a `gpu.launch` whose grid
//!    and block come from the GPU description (`pb-gpu-map`), device
//!    buffers for what the kernels touch (`pb-gpu-host-memory`), f32 math
//!    expanded to polynomials (no libdevice: we generate all code), the
//!    kernels outlined into a `gpu.module`. This is *the mapped IR*: what
//!    the emulation (`emulate`) runs on the CPU instead;
//! 5. `gpu-lower`: the kernels to NVVM and PTX (`gpu-module-to-binary`,
//!    PTX text the driver compiles for the GPU it runs on), or to ROCDL and
//!    AMDGPU assembly;
//! 6. `llvm`: the host code, as the cpu pipeline's `llvm` stage, with the
//!    launches, copies and allocations as runtime calls (`gpu-to-llvm`).

use crate::cpu::{self, CpuOptions};
use pb_support::gpu_target::{GpuDesc, GpuVendor};

/// The stages of the nvgpu pipeline, in order.
pub const STAGES: [&str; 6] = ["legalize", "graph", "affine", "gpu-map", "gpu-lower", "llvm"];

/// The stage names of the emulated pipeline (`emulate`): the mapped IR
/// runs on the CPU, lowered by the cpu pipeline's last two stages.
pub const EMULATED_STAGES: [&str; 6] = ["legalize", "graph", "affine", "gpu-map", "lower", "llvm"];

/// The pipeline's name for `gpu`'s vendor.
pub fn pipeline_name(gpu: &GpuDesc) -> &'static str {
    match gpu.vendor {
        GpuVendor::Nvidia => "nvgpu",
        GpuVendor::Amd => "amdgpu",
    }
}

/// The pass pipeline of stage `stage` (elements of a `builtin.module(...)`).
pub fn stage_pipeline(stage: &str, options: &CpuOptions, gpu: &GpuDesc, emulate: bool) -> Result<String, String> {
    let passes: Vec<String> = match stage {
        "legalize" => return Ok(cpu::stage_pipeline(cpu::Stage::Legalize, options)),
        "graph" => return Ok(cpu::stage_pipeline(cpu::Stage::Graph, options)),
        "affine" => vec![
            "func.func(pb-lower-memref-copy)".into(),
            "func.func(convert-linalg-to-affine-loops)".into(),
            "affine-fold-memref-alias-ops".into(),
            "func.func(affine-expand-index-ops-as-affine)".into(),
            format!("func.func(pb-forward-copies{{report={} deadline-ms={}}})", options.report, options.deadline_ms),
            "func.func(affine-scalrep)".into(),
            "canonicalize".into(),
            "func.func(affine-loop-invariant-code-motion)".into(),
            // Loops of one iteration (batch 1) go, so that a band starts at
            // a loop with work to share.
            "func.func(affine-loop-normalize{promote-single-iter=true})".into(),
            // f16 contractions on the tensor cores: each becomes a launch
            // of its own (pb-gpu-map leaves launches as they are).
            format!("func.func(pb-gpu-mma{{chip={} report={}}})", gpu.chip, options.report),
            // Every parallel loop (not only the outermost): pb-gpu-map
            // takes a perfectly nested band of them.
            "func.func(affine-parallelize)".into(),
            "canonicalize".into(),
        ],
        "gpu-map" => vec![
            "lower-affine".into(),
            "canonicalize".into(),
            format!("pb-gpu-map{{chip={} report={}}}", gpu.chip, options.report),
            "pb-gpu-host-memory".into(),
            // Math in the kernels as our polynomials and LLVM intrinsics:
            // convert-gpu-to-nvvm would call libdevice otherwise.
            "func.func(math-expand-ops{ops=fpowi})".into(),
            "func.func(math-extend-to-supported-types{target-type=f32})".into(),
            // Every NVIDIA and AMD GPU fuses multiply-adds (fma.rn.f32,
            // v_fma_f32): powf with a constant exponent in f32
            // double-word arithmetic, not in f64 (1/32 to 1/64 of the f32
            // rate on consumer parts).
            "func.func(pb-expand-math{x86-avx512=false fma=true})".into(),
            "canonicalize".into(),
            "cse".into(),
        ]
        .into_iter()
        // Constants and index arithmetic the kernels use are computed in
        // them (not passed as arguments), then the kernels are outlined.
        .chain((!emulate).then(|| "func.func(gpu-launch-sink-index-computations)".to_string()))
        .chain((!emulate).then(|| "gpu-kernel-outlining".to_string()))
        .chain(emulate.then(|| "pb-gpu-emulate".to_string()))
        .collect(),
        "gpu-lower" if !emulate && gpu.vendor == GpuVendor::Nvidia => vec![
            format!("nvvm-attach-target{{chip={} features={} O=3}}", gpu.chip, gpu.features),
            // Math as LLVM intrinsics (NVPTX instructions), not libdevice
            // calls. Kernels take one pointer per buffer (static shapes,
            // as the host function's arguments).
            "pb-gpu-math".into(),
            "gpu.module(scf-parallel-for-to-nested-fors,lower-affine,expand-strided-metadata,convert-scf-to-cf,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true},canonicalize,reconcile-unrealized-casts)".into(),
            "gpu-module-to-binary{format=isa}".into(),
        ],
        // AMD: the same kernels through ROCDL to AMDGPU assembly (math as
        // LLVM intrinsics, never the vendor's OCML calls).
        "gpu-lower" if !emulate => vec![
            format!("rocdl-attach-target{{chip={} O=3}}", gpu.chip),
            "pb-gpu-math".into(),
            // Tensor-core fragments as the lanes' vectors around
            // amdgpu.wmma (upstream lowers gpu.subgroup_mma to NVVM only).
            "pb-gpu-wmma-lanes".into(),
            format!(
                "gpu.module(scf-parallel-for-to-nested-fors,lower-affine,expand-strided-metadata,convert-scf-to-cf,convert-amdgpu-to-rocdl{{chipset={chip}}},convert-gpu-to-rocdl{{chipset={chip} use-bare-ptr-memref-call-conv=true}},canonicalize,reconcile-unrealized-casts)",
                chip = gpu.chip
            ),
            "gpu-module-to-binary{format=isa}".into(),
        ],
        "lower" if emulate => return Ok(cpu::stage_pipeline(cpu::Stage::Lower, options)),
        "llvm" => {
            let host = cpu::stage_pipeline(cpu::Stage::Llvm, options);
            if emulate {
                return Ok(host);
            }
            // The launches, copies and allocations, in order on one stream
            // (gpu-async-region: each waits for the one before, the host
            // only at the end), become runtime calls, with the host's
            // bare-pointer arguments.
            let convert_func = "convert-func-to-llvm{use-bare-ptr-memref-call-conv=1}";
            let host = host.replacen(convert_func, &format!("gpu-to-llvm{{use-bare-pointers-for-host=true use-bare-pointers-for-kernels=true}},{convert_func}"), 1);
            return Ok(format!("func.func(gpu-async-region),{host}"));
        }
        _ => {
            let names = if emulate { EMULATED_STAGES } else { STAGES };
            return Err(format!("unknown {} pipeline stage '{stage}' (stages: {})", pipeline_name(gpu), names.join(", ")));
        }
    };
    Ok(passes.join(","))
}

/// The stages after `start_after` (all with `None`) up to `stop_after`
/// (all with `None`), as one `builtin.module(...)` pipeline.
pub fn pipeline_between(
    options: &CpuOptions,
    gpu: &GpuDesc,
    emulate: bool,
    start_after: Option<&str>,
    stop_after: Option<&str>,
) -> Result<String, String> {
    let names = if emulate { EMULATED_STAGES } else { STAGES };
    let position = |name: &str| {
        names.iter().position(|s| *s == name).ok_or_else(|| {
            format!("unknown {} pipeline stage '{name}' (stages: {})", pipeline_name(gpu), names.join(", "))
        })
    };
    let first = start_after.map(position).transpose()?.map_or(0, |p| p + 1);
    let last = stop_after.map(position).transpose()?.unwrap_or(names.len() - 1);
    if first > last {
        return Err(format!(
            "nothing to run: the pipeline starts after '{}' and stops after '{}'",
            start_after.unwrap_or_default(),
            stop_after.unwrap_or("llvm")
        ));
    }
    let stages: Result<Vec<String>, String> =
        names[first..=last].iter().map(|s| stage_pipeline(s, options, gpu, emulate)).collect();
    Ok(format!("builtin.module({})", stages?.join(",")))
}
