//! # pb-pipelines
//!
//! The top library layer: it sees every pass crate, so it owns the registry
//! of all polyblocks passes ([`all_passes`]) that drivers resolve pipeline
//! names against, and the named per-target pipelines, assembled in stages:
//!
//! - [`cpu`] — the host CPU (x86-64 with AVX-512 here).
//!
//! May depend on pb-support, pb-dialects, pb-transforms and pb-conversions;
//! never on tools.

pub mod cpu;

use pb_support::PassInfo;

/// Every polyblocks pass: transforms, then conversions.
pub fn all_passes() -> Vec<&'static PassInfo> {
    pb_transforms::PASSES.iter().chain(pb_conversions::PASSES.iter()).copied().collect()
}

/// Names of the named pipelines.
pub const NAMED_PIPELINES: &[&str] = &["cpu"];

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
        _ => Err(format!("unknown pipeline '{name}' (pipelines: {})", NAMED_PIPELINES.join(", "))),
    }
}
