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

/// Found by the engine fuzzer (fuzz/, docs/fuzzing.md): melior's
/// `Module::parse` panicked on a NUL byte in text of several top-level ops.
#[test]
fn nul_bytes_in_many_top_level_ops_are_no_panic() {
    let context = pb_dialects::create_context();
    let text = "func.func @a() {\n  return\n}\nfunc.func private \0\0 @b()\n";
    let module = parse_module(&context, text, "nul.mlir").expect("a NUL is white space to MLIR's lexer");
    assert!(module.as_operation().to_string().contains("func.func private @b()"));
    let capture = DiagnosticCapture::attach(&context);
    assert!(parse_module(&context, "func.func @a() {\n  return\n}\n\0%x\n", "nul.mlir").is_none());
    assert!(!capture.take().is_empty());
}

/// Found by the engine fuzzer under AddressSanitizer: MLIR's lexer wants a
/// NUL after the text (as `llvm::MemoryBuffer`s have) and read past the end
/// of ours, here into the rest of a larger string: the op name came out
/// `Ixyz`.
#[test]
fn parsing_reads_nothing_past_the_text() {
    let context = pb_dialects::create_context();
    let capture = DiagnosticCapture::attach(&context);
    let full = String::from("Ixyz");
    assert!(parse_module(&context, &full[..1], "one.mlir").is_none());
    let diagnostics = capture.take();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert!(diagnostics[0].message.contains("custom op 'I' is unknown"), "{diagnostics:?}");
    let two_ops = String::from("func.func private @a()\nfunc.func private @b()xyz");
    let module = parse_module(&context, &two_ops[..two_ops.len() - 3], "two.mlir").expect("parses");
    assert!(module.as_operation().to_string().contains("func.func private @b()\n"));
}
