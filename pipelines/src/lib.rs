//! # pb-pipelines
//!
//! The top library layer: it sees every pass crate, so it owns the registry
//! of all polyblocks passes ([`all_passes`]) that drivers such as pb-opt
//! resolve pipeline names against. Named per-target pipelines (`cpu`,
//! `nvgpu`, `amdgpu`), assembled in stages, will live here too.
//!
//! May depend on pb-support, pb-dialects, pb-transforms and pb-conversions;
//! never on tools.

use pb_support::PassInfo;

/// Every polyblocks pass: transforms, then conversions.
pub fn all_passes() -> Vec<&'static PassInfo> {
    pb_transforms::PASSES.iter().chain(pb_conversions::PASSES.iter()).copied().collect()
}
