//! The Rust unit tests of polyblocks-rs, in one binary (see Cargo.toml).

mod budget;
mod common;
mod compile_and_run;
mod dependent_dialects;
mod diagnostics;
mod pass_options;
mod pbq;
mod pipeline_syntax;
mod option_table;
mod pipelines;
mod source;
mod verify_diagnostics;
