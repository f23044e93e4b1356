use melior::ir::{block::BlockLike, operation::OperationLike};
use pb_support::{
    diagnostics::{DiagnosticCapture, Severity},
    ffi::file_line_col,
    source::parse_module,
};

#[test]
fn wraps_many_top_level_ops_and_keeps_the_file_name() {
    let context = pb_dialects::create_context();
    let text = "func.func @a() {\n  return\n}\nfunc.func @b() {\n  return\n}\n";
    let module = parse_module(&context, text, "two.mlir").expect("parses");
    let printed = module.as_operation().to_string();
    assert!(printed.contains("func.func @a") && printed.contains("func.func @b"));
    let second = module.body().first_operation().unwrap().next_in_block().unwrap();
    assert_eq!(file_line_col(second.location()), Some(("two.mlir".into(), 4, 1)));
}

#[test]
fn a_single_module_keeps_its_locations() {
    let context = pb_dialects::create_context();
    let module = parse_module(&context, "\n\nmodule {\n}\n", "one.mlir").expect("parses");
    assert_eq!(file_line_col(module.as_operation().location()), Some(("one.mlir".into(), 3, 1)));
}

#[test]
fn syntax_errors_are_diagnostics_with_positions() {
    let context = pb_dialects::create_context();
    let capture = DiagnosticCapture::attach(&context);
    assert!(parse_module(&context, "func.func @f() {\n  retur\n}\n", "bad.mlir").is_none());
    let diagnostics = capture.take();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let position = diagnostics[0].position.as_ref().unwrap();
    assert_eq!((position.file.as_str(), position.line, diagnostics[0].severity), ("bad.mlir", 2, Severity::Error));
}
