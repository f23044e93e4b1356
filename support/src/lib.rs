//! # pb-support
//!
//! The lowest layer of polyblocks-rs: plumbing shared by every other crate.
//!
//! - [`pass_info`] — the `PassInfo` table entry that every pass crate exports,
//!   and typed pass options parsed from `{key=value ...}`.
//! - [`pipeline`] — the textual pass-pipeline grammar (`builtin.module(func.func(a{x=1}),b)`)
//!   as a tree, parsed with positions for error messages.
//! - [`pass_builder`] — turns such a tree into an MLIR pass manager, mapping our
//!   pass names to Rust passes and handing every other leaf to upstream MLIR,
//!   with mlir-opt's implicit nesting.
//! - [`upstream`] — the catalogue of upstream MLIR 22 passes (name, summary,
//!   anchor op), generated at build time from `mlir-opt`.
//! - [`rust_pass`] — the trait a Rust pass implements, and its MLIR wrapper.
//! - [`budget`] — the compile-time budget's deadline, which planning passes
//!   check to degrade (less fusion) rather than run for minutes.
//! - [`builder`] — an op emitter for passes that create upstream ops.
//! - [`ir`] — small IR queries (symbol names, function types, public functions).
//! - [`diagnostics`] — capture of MLIR diagnostics into plain Rust values and
//!   their rendering with source excerpts.
//! - [`source`] — parsing MLIR text with a file name, one or many top-level ops.
//! - [`target`] — the target description (cores, vector width, caches, matrix
//!   units), detected from the host or overridden.
//! - [`ffi`] — the few raw MLIR/LLVM C-API calls melior does not wrap.
//!
//! Dependencies: melior and mlir-sys only. No other polyblocks crate.

pub mod budget;
pub mod builder;
pub mod diagnostics;
pub mod ffi;
pub mod gpu_target;
pub mod ir;
pub mod pass_builder;
pub mod pass_info;
pub mod pipeline;
pub mod rust_pass;
pub mod source;
pub mod target;
pub mod upstream;

pub use melior;
pub use pass_info::{create_default, OptionKind, OptionValue, PassInfo, PassOption, PassOptions};
pub use rust_pass::{PassFailed, PassId, RustPass};
