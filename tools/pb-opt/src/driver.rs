//! Reading the input, running the pipeline on each chunk, printing results.

use crate::{cli::Options, verify_diagnostics};
use melior::{
    ir::{operation::OperationPrintingFlags, Module},
    pass::{PassIrPrintingOptions, PassManager},
    Context,
};
use pb_support::{
    diagnostics::{Captured, DiagnosticCapture, Severity},
    ffi,
    pass_builder::{self, Registry},
};
use std::io::{Read, Write};

const SPLIT_MARKER: &str = "// -----";

/// Runs pb-opt on the input named by `options`; `Err` for problems outside
/// the IR itself (unreadable files, bad pipeline).
pub fn run(options: &Options, registry: Registry) -> Result<i32, String> {
    let (name, text) = read_input(options.input.as_deref().unwrap_or("-"))?;
    let context = pb_dialects::create_context();
    context.set_allow_unregistered_dialects(options.allow_unregistered_dialect);
    if options.disable_threading {
        context.enable_multi_threading(false);
    }
    // Build the pipeline once up front so that pipeline errors are reported
    // even when the input has no ops to run on.
    {
        let manager = build_pass_manager(&context, options, registry, false)?;
        if options.dump_pass_pipeline {
            eprintln!("{}", ffi::print_pipeline(manager.as_operation_pass_manager()));
        }
    }

    let chunks = if options.split_input_file { split_chunks(&text) } else { vec![text.clone()] };
    let mut outputs = Vec::new();
    let mut failed = false;
    let mut all_diagnostics = Vec::new();
    for chunk in &chunks {
        let capture = DiagnosticCapture::attach(&context);
        let output = process_chunk(&context, options, registry, &name, chunk);
        let mut diagnostics = capture.take();
        drop(capture);
        if output.is_none() && !diagnostics.iter().any(|d| d.severity == Severity::Error) {
            diagnostics.push(Captured {
                severity: Severity::Error,
                position: None,
                message: "the pass pipeline failed".into(),
                notes: vec![],
            });
        }
        diagnostics.sort_by_key(|d| d.position.as_ref().map(|p| (p.line, p.column)));
        failed |= output.is_none();
        outputs.push(output);
        all_diagnostics.extend(diagnostics);
    }

    let exit_code = if options.verify_diagnostics {
        let problems = verify_diagnostics::verify(&name, &text, &all_diagnostics);
        for problem in &problems {
            eprintln!("{problem}");
        }
        i32::from(!problems.is_empty())
    } else {
        for diagnostic in &all_diagnostics {
            eprint!("{}", diagnostic.render_from(&name, &text));
        }
        i32::from(failed)
    };

    let printed: Vec<String> = outputs.into_iter().flatten().collect();
    let joined = printed.join(&format!("{SPLIT_MARKER}\n"));
    write_output(options.output.as_deref(), &joined)?;
    Ok(exit_code)
}

/// Parses, checks and transforms one chunk; `None` if anything failed (the
/// reasons are in the context's diagnostics).
fn process_chunk(context: &Context, options: &Options, registry: Registry, name: &str, chunk: &str) -> Option<String> {
    let mut module: Module = pb_dialects::stablehlo::parse_source(context, chunk, name)?;
    if !pb_dialects::verify(module.as_operation()) {
        return None;
    }
    let manager = build_pass_manager(context, options, registry, true).ok()?;
    manager.run(&mut module).ok()?;
    if !pb_dialects::verify(module.as_operation()) {
        return None;
    }
    let mut flags = OperationPrintingFlags::new();
    if options.print_generic {
        flags = flags.print_generic_operation_form();
    }
    if options.print_debuginfo {
        flags = flags.enable_debug_info(true, false);
    }
    let mut text = ffi::print_operation(module.as_operation(), &flags);
    text.push('\n');
    Some(text)
}

/// The pass manager for `options.pipeline`; `instrument` adds IR printing
/// and timing (off for the up-front validation build, which never runs).
fn build_pass_manager<'c>(
    context: &'c Context,
    options: &Options,
    registry: Registry,
    instrument: bool,
) -> Result<PassManager<'c>, String> {
    let manager = ffi::pass_manager_on(context, "builtin.module");
    manager.enable_verifier(options.verify_each);
    pass_builder::add_pipeline(manager.as_operation_pass_manager(), "builtin.module", &options.pipeline, registry)
        .map_err(|e| format!("invalid pass pipeline: {}", e.render(&options.pipeline)))?;
    if instrument && (options.print_ir_before_all || options.print_ir_after_all) {
        manager.enable_ir_printing(&PassIrPrintingOptions {
            before_all: options.print_ir_before_all,
            after_all: options.print_ir_after_all,
            module_scope: false,
            on_change: false,
            on_failure: false,
            flags: OperationPrintingFlags::new(),
            tree_printing_path: Default::default(),
        });
    }
    if instrument && options.timing {
        ffi::enable_timing(&manager);
    }
    Ok(manager)
}

/// Reads a file (or stdin for `-`) as UTF-8 text; returns (display name, text).
fn read_input(path: &str) -> Result<(String, String), String> {
    let (name, bytes) = if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("cannot read standard input: {e}"))?;
        ("<stdin>".to_string(), bytes)
    } else {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot open input file '{path}': {e}"))?;
        (path.to_string(), bytes)
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "input '{name}' is not UTF-8 text (invalid byte at offset {}); pb-opt reads MLIR text, not bytecode",
            e.utf8_error().valid_up_to()
        )
    })?;
    if text.contains('\0') {
        return Err(format!("input '{name}' contains NUL bytes; pb-opt reads MLIR text, not binary files"));
    }
    if text.trim().is_empty() {
        return Err(format!("input '{name}' is empty"));
    }
    Ok((name, text))
}

/// Splits on `// -----` lines. Each chunk is padded with the newlines that
/// precede it, so line numbers in diagnostics are those of the whole file.
fn split_chunks(text: &str) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut current = String::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim_end() == SPLIT_MARKER {
            chunks.push(std::mem::take(&mut current));
            current = "\n".repeat(index + 1);
        } else {
            current.push_str(line);
            current.push('\n');
        }
    }
    chunks.push(current);
    chunks
}

fn write_output(path: Option<&str>, text: &str) -> Result<(), String> {
    match path {
        None | Some("-") => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes()).and_then(|_| out.flush()).map_err(|e| format!("cannot write output: {e}"))
        }
        Some(path) => std::fs::write(path, text).map_err(|e| format!("cannot write output file '{path}': {e}")),
    }
}
