//! Shared helpers: one way to make a context and run a pipeline.

use melior::{ir::Module, Context};
use pb_support::{
    ffi,
    pass_builder::{add_pipeline, Registry},
    source::parse_module,
};

/// Parses `text`, runs `pipeline` (our passes and upstream's) and prints
/// the result, or returns the first error message.
pub fn run_pipeline(context: &Context, text: &str, pipeline: &str) -> Result<String, String> {
    let capture = pb_support::diagnostics::DiagnosticCapture::attach(context);
    let passes = pb_pipelines::all_passes();
    let mut module: Module = parse_module(context, text, "test.mlir").ok_or_else(|| first_error(&capture))?;
    let manager = ffi::pass_manager_on(context, "builtin.module");
    add_pipeline(manager.as_operation_pass_manager(), "builtin.module", pipeline, Registry { passes: &passes })
        .map_err(|e| e.message)?;
    manager.run(&mut module).map_err(|_| first_error(&capture))?;
    Ok(module.as_operation().to_string())
}

fn first_error(capture: &pb_support::diagnostics::DiagnosticCapture) -> String {
    capture.take().first().map(|d| d.message.clone()).unwrap_or_else(|| "failed without a diagnostic".into())
}
