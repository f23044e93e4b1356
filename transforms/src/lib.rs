//! # pb-transforms
//!
//! Transformation passes of polyblocks-rs: one pass per file, each with a
//! `//!` doc (what, why, options, before/after) and a `PassInfo` entry in
//! [`PASSES`], which is the single source for pipeline parsing,
//! `pb-opt --list-passes` and `docs/passes.md`. Each pass has its lit test in
//! `test/lit/transforms/<pass-argument>.mlir`. Passes that only test a
//! library from lit go in [`TEST_PASSES`] instead.
//!
//! May depend on pb-support and pb-dialects; never on conversions, pipelines
//! or tools.

mod affine_access;
mod contraction_roles;
mod emit_at;
mod gpu_mma_operands;
mod mma_fragment;
mod index_eval;
mod linalg_ops;
mod operand_expr;
pub mod accumulate_tile;
pub mod affine_gathers;
pub mod allocs_to_pool;
pub mod amx_permission;
pub mod channels_last;
pub mod check_cpu_input;
pub mod clamp_gathers;
pub mod compose_insert_slices;
pub mod concat_empty_operands;
pub mod concat_prefixes;
pub(crate) mod contraction_epilogue;
pub(crate) mod epilogue_split;
pub mod distinct_results;
pub mod empty_args;
pub mod forward_copies;
pub mod fold_transposes;
pub mod fold_clamps;
pub mod prove_asserts;
pub mod unroll_jam;
pub mod scalar_once;
pub mod fp_contract;
pub mod fuse;
pub mod fuse_elementwise;
pub mod gpu_emulate;
pub mod gpu_host_memory;
pub mod gpu_map;
mod gpu_reduction;
pub mod gpu_mma;
pub mod gpu_wmma_lanes;
pub mod gpu_math;
mod fuse_cache;
pub mod inits_as_inputs;
pub mod inline_pointwise;
pub mod integer_contraction;
pub mod interchange;
pub mod matrix_tile;
pub mod isl_roundtrip;
pub mod outline_kernels;
pub mod packed_entry_points;
pub mod parallel_grain;
pub mod parallelize;
pub mod profile_kernels;
pub mod profile_names;
pub mod readonly_inputs;
pub mod register_tile;
pub mod result_in_place;
pub mod reuse_order;
mod report;
mod text_kernel;
pub mod simplify_quant;
pub mod split_empty_tensors;
pub mod static_once;
pub mod strict_half_rounding;
pub mod transpose_tile;
pub mod unit_transposes;
pub mod unroll_filters;
pub mod vectorize;

use pb_support::PassInfo;

/// Every transformation pass of the production registry, alphabetical by
/// argument: what pipelines and `pb-compile` resolve names against.
pub static PASSES: &[&PassInfo] =
    &[&accumulate_tile::INFO, &affine_gathers::INFO, &allocs_to_pool::INFO, &amx_permission::INFO, &channels_last::INFO, &check_cpu_input::INFO,
    &clamp_gathers::INFO,
    &compose_insert_slices::INFO,
    &concat_empty_operands::INFO,
    &concat_prefixes::INFO,
    &distinct_results::INFO,
    &empty_args::INFO,
    &fold_transposes::INFO,
    &forward_copies::INFO,
    &fold_clamps::INFO,
    &scalar_once::INFO,
    &fp_contract::INFO,
    &fuse::INFO, &fuse_elementwise::INFO, &gpu_emulate::INFO, &gpu_host_memory::INFO, &gpu_map::INFO, &gpu_mma::INFO, &gpu_wmma_lanes::INFO, &gpu_math::INFO, &inits_as_inputs::INFO, &inline_pointwise::INFO, &integer_contraction::INFO, &interchange::INFO, &matrix_tile::INFO,
    &outline_kernels::INFO,
    &packed_entry_points::INFO,
    &parallel_grain::INFO,
    &parallelize::INFO,
    &profile_kernels::INFO,
    &profile_names::INFO,
    &prove_asserts::INFO,
    &unroll_jam::INFO,
    &readonly_inputs::INFO,
    &register_tile::INFO,
    &reuse_order::INFO,
    &result_in_place::INFO,
    &simplify_quant::INFO,
    &split_empty_tensors::INFO,
    &static_once::INFO,
    &strict_half_rounding::INFO,
    &transpose_tile::INFO,
    &unit_transposes::INFO, &unroll_filters::INFO, &vectorize::INFO];

/// Test-only passes: they exist to test a library from lit (no pipeline
/// uses them), so only `pb-opt` offers them (listed apart by
/// `--list-passes`); `pb-compile` and the pipelines do not know them.
pub static TEST_PASSES: &[&PassInfo] = &[&isl_roundtrip::INFO];
