//! The compile driver's own compile options (code generation and the
//! compile budget), declared once like the pipelines' options
//! (`pb_pipelines::options`, which has the types and the rules): they reach
//! `pb-compile --FLAG`, the Python fronts (`pb-compile --list-options`),
//! the disk-cache key and docs/options.md from here.

use crate::CompileOptions;
use pb_pipelines::options::{Kind, OptionSpec, Value, PIPELINE_OPTIONS};
use std::time::Duration;

pub static COMPILE_OPTIONS: &[OptionSpec<CompileOptions>] = &[
    OptionSpec {
        name: "opt_level",
        flag: "opt-level",
        help: "LLVM optimization level 0-3 (also -O<n>)",
        kind: Kind::Int { default: 3, min: 0, max: 3 },
        python: true,
        changes_code: true,
        set: |o, v| {
            if let Value::Int(level) = v {
                o.opt_level = level as u8;
            }
            Ok(())
        },
    },
    OptionSpec {
        name: "compile_budget",
        flag: "compile-budget",
        help: "seconds of optimization per compiled program; past them the planning passes leave the rest unfused, \
               with a warning (0: no limit)",
        kind: Kind::Seconds(60.0),
        python: true,
        changes_code: true,
        set: |o, v| {
            if let Value::Float(seconds) = v {
                o.budget = (seconds > 0.0).then(|| Duration::from_secs_f64(seconds));
            }
            Ok(())
        },
    },
    OptionSpec {
        name: "cpu",
        flag: "cpu",
        help: "the LLVM CPU to generate code for, e.g. 'x86-64-v3' (default: the host, with all its features)",
        kind: Kind::Text,
        python: true,
        changes_code: true,
        set: |o, v| {
            if let Value::Text(cpu) = v {
                o.llvm_cpu = Some(cpu);
            }
            Ok(())
        },
    },
    OptionSpec {
        name: "codegen_threads",
        flag: "codegen-threads",
        help: "optimize and compile the LLVM module in up to this many parts in parallel (0: one per core this process \
               may use; AOT: always 1)",
        kind: Kind::Int { default: 0, min: 0, max: 4096 },
        python: true,
        changes_code: false,
        set: |o, v| {
            if let Value::Int(threads) = v {
                o.codegen_threads = threads as usize;
            }
            Ok(())
        },
    },
];

/// Every option of both tables as a JSON array (`pb-compile --list-options`).
pub fn options_json() -> String {
    let entries: Vec<String> = PIPELINE_OPTIONS
        .iter()
        .map(|s| s.to_json("pipeline"))
        .chain(COMPILE_OPTIONS.iter().map(|s| s.to_json("compile")))
        .collect();
    format!("[\n  {}\n]\n", entries.join(",\n  "))
}

/// The options part of `pb-compile --help`, from both tables.
pub fn options_help() -> String {
    let mut text = String::new();
    let lines = PIPELINE_OPTIONS
        .iter()
        .map(|s| (s.flag, s.kind, s.help))
        .chain(COMPILE_OPTIONS.iter().map(|s| (s.flag, s.kind, s.help)));
    for (flag, kind, help) in lines {
        let (spelling, default) = match kind {
            Kind::Switch(on) => (format!("--[no-]{flag}"), format!(" (default: {})", if on { "on" } else { "off" })),
            Kind::Int { default, .. } => (format!("--{flag}=<n>"), format!(" (default: {default})")),
            Kind::Seconds(s) => (format!("--{flag}=<s>"), format!(" (default: {s})")),
            Kind::Text => (format!("--{flag}=<value>"), String::new()),
        };
        text.push_str(&format!("  {spelling:<24}{help}{default}\n"));
    }
    text
}
