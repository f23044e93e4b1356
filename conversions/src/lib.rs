//! # pb-conversions
//!
//! Lowerings from our dialects to upstream ones, and of upstream ops to
//! simpler upstream ones (`pb-expand-math`): one pass per file, each with
//! a `PassInfo` entry in [`PASSES`] and a lit test in
//! `test/lit/conversions/<pass-argument>.mlir`.
//!
//! May depend on pb-support and pb-dialects; never on transforms, pipelines
//! or tools.

pub mod asserts_to_errors;
pub mod expand_math;
pub mod legalize_stablehlo;
pub mod lower_memref_copy;
pub mod lower_quant;
pub mod lower_tm_tensor;

use pb_support::PassInfo;

/// Every conversion pass, alphabetical by argument.
pub static PASSES: &[&PassInfo] = &[&asserts_to_errors::INFO, &expand_math::INFO, &legalize_stablehlo::INFO, &lower_memref_copy::INFO, &lower_quant::INFO, &lower_tm_tensor::INFO];
