//! # pb-opt
//!
//! An mlir-opt-style driver for MLIR 22: reads a `.mlir` file (or stdin),
//! runs a pipeline mixing upstream MLIR passes with polyblocks passes, and
//! prints the result. Bad input of any kind (malformed MLIR, unknown passes
//! or options, unreadable files) ends in a diagnostic and exit status 1,
//! never a panic or an abort.
//!
//! - [`cli`] — argument parsing (mlir-opt spelling).
//! - [`driver`] — per-file and per-chunk processing.
//! - [`verify_diagnostics`] — `--verify-diagnostics`.
//! - [`list`] — `--list-passes` (plain and markdown).
//!
//! Depends on pb-pipelines (for the full pass registry, and the test-only
//! passes lit uses), pb-dialects and pb-support.

pub mod cli;
pub mod driver;
pub mod list;
pub mod verify_diagnostics;

use pb_support::pass_builder::Registry;

/// Runs pb-opt with `args` (without the program name); returns the exit code.
pub fn run(args: &[String]) -> i32 {
    // Production passes, then the test-only ones (for lit).
    let production = pb_pipelines::all_passes();
    let test_passes = pb_pipelines::test_passes();
    let passes: Vec<_> = production.iter().chain(&test_passes).copied().collect();
    let registry = Registry { passes: &passes };
    let options = match cli::parse(args, registry).and_then(resolve_named_pipeline) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("pb-opt: error: {message}");
            return 1;
        }
    };
    if options.print_target {
        match target(&options) {
            Ok(target) => println!("{target}"),
            Err(message) => {
                eprintln!("pb-opt: error: {message}");
                return 1;
            }
        }
        return 0;
    }
    if options.help {
        print!("{}", cli::help());
        return 0;
    }
    if options.version {
        println!("pb-opt {} (polyblocks-rs, MLIR 22)", env!("CARGO_PKG_VERSION"));
        return 0;
    }
    if options.list_passes {
        print!("{}", list::render(&production, &test_passes, options.markdown));
        return 0;
    }
    match driver::run(&options, registry) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("pb-opt: error: {message}");
            1
        }
    }
}

/// The host target with `--pb-target` overrides applied.
fn target(options: &cli::Options) -> Result<pb_support::target::TargetDesc, String> {
    Ok(options.pipeline_options.as_ref().map_or_else(pb_support::target::TargetDesc::host, |o| o.target.clone()))
}

/// Replaces `--pb-pipeline=NAME` by the pipeline text it stands for.
fn resolve_named_pipeline(mut options: cli::Options) -> Result<cli::Options, String> {
    if let Some(name) = &options.named_pipeline {
        let cpu = options.pipeline_options.clone().unwrap_or_else(pb_pipelines::cpu::CpuOptions::host);
        options.pipeline = pb_pipelines::named_pipeline(name, options.start_after.as_deref(), options.stop_after.as_deref(), cpu)?;
    } else if options.pipeline_options.is_some() && !options.print_target {
        return Err("the pipeline options (--pb-FLAG) need '--pb-pipeline'".into());
    }
    Ok(options)
}
