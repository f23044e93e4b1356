//! # pb-pipelines
//!
//! The top library layer: it sees every pass crate, so it owns the registry
//! of all polyblocks passes ([`all_passes`]) that drivers resolve pipeline
//! names against (the test-only ones apart: [`test_passes`], for pb-opt),
//! and the named per-target pipelines, assembled in stages:
//!
//! - [`cpu`] — the host CPU (x86-64 with AVX-512 here);
//! - [`nvgpu`] — NVIDIA GPUs (PTX), or their mapping emulated on the CPU.
//!
//! May depend on pb-support, pb-dialects, pb-transforms and pb-conversions;
//! never on tools.

pub mod cpu;
pub mod nvgpu;
pub mod options;

use pb_support::{
    gpu_target::{GpuDesc, GpuVendor},
    PassInfo,
};

/// Every production polyblocks pass: transforms, then conversions. The
/// test-only passes ([`test_passes`]) are not among them.
pub fn all_passes() -> Vec<&'static PassInfo> {
    pb_transforms::PASSES.iter().chain(pb_conversions::PASSES.iter()).copied().collect()
}

/// The test-only passes (`pb-isl-roundtrip`): offered by `pb-opt` for lit
/// tests of the libraries they exercise, never by `pb-compile` or a
/// pipeline.
pub fn test_passes() -> Vec<&'static PassInfo> {
    pb_transforms::TEST_PASSES.to_vec()
}

/// Names of the named pipelines.
pub const NAMED_PIPELINES: &[&str] = &["cpu", "nvgpu", "amdgpu"];

/// The text of named pipeline `name` up to stage `stop_after` (all stages if
/// `None`), with `options` (target, vectorization, fusion, report).
pub fn named_pipeline(
    name: &str,
    start_after: Option<&str>,
    stop_after: Option<&str>,
    options: cpu::CpuOptions,
) -> Result<String, String> {
    match name {
        "cpu" => {
            let start = start_after.map(cpu::Stage::parse).transpose()?;
            let stop = match stop_after {
                Some(stage) => cpu::Stage::parse(stage)?,
                None => cpu::Stage::Llvm,
            };
            if start.is_some_and(|start| start >= stop) {
                return Err(format!(
                    "nothing to run: the pipeline starts after '{}' and stops after '{}'",
                    start_after.unwrap_or_default(),
                    stop_after.unwrap_or("llvm")
                ));
            }
            Ok(cpu::pipeline_between(&options, start, stop))
        }
        "nvgpu" | "amdgpu" => {
            let vendor = if name == "nvgpu" { GpuVendor::Nvidia } else { GpuVendor::Amd };
            let gpu = options.gpu.clone().unwrap_or_else(|| GpuDesc::default_for(vendor));
            if gpu.vendor != vendor {
                return Err(format!("the {name} pipeline does not compile for {} (a {:?} GPU)", gpu.chip, gpu.vendor));
            }
            nvgpu::pipeline_between(&options, &gpu, options.emulate, start_after, stop_after)
        }
        _ => Err(format!("unknown pipeline '{name}' (pipelines: {})", NAMED_PIPELINES.join(", "))),
    }
}

/// The stages the compile driver runs for `options`, in order: each
/// stage's name and pass pipeline (elements of a `builtin.module(...)`).
/// The cpu pipeline, or the nvgpu one when `options.gpu` is set (its
/// emulation with `options.emulate`).
pub fn stages(options: &cpu::CpuOptions) -> Result<Vec<(&'static str, String)>, String> {
    match &options.gpu {
        None => Ok(cpu::Stage::ALL.into_iter().map(|s| (s.name(), cpu::stage_pipeline(s, options))).collect()),
        Some(gpu) => {
            let names = if options.emulate { nvgpu::EMULATED_STAGES } else { nvgpu::STAGES };
            names.into_iter().map(|s| nvgpu::stage_pipeline(s, options, gpu, options.emulate).map(|p| (s, p))).collect()
        }
    }
}
