use pb_support::diagnostics::{Captured, Position, Severity};

#[test]
fn renders_location_source_line_caret_and_notes() {
    let diagnostic = Captured {
        severity: Severity::Error,
        position: Some(Position { file: "f.mlir".into(), line: 2, column: 5 }),
        message: "bad thing".into(),
        notes: vec![Captured { severity: Severity::Note, position: None, message: "why".into(), notes: vec![] }],
    };
    let rendered = diagnostic.render(Some("first\nsecond line\n"));
    assert_eq!(rendered, "f.mlir:2:5: error: bad thing\nsecond line\n    ^\nnote: why\n");
}

#[test]
fn a_position_past_the_end_prints_no_excerpt() {
    let diagnostic = Captured {
        severity: Severity::Warning,
        position: Some(Position { file: "f.mlir".into(), line: 9, column: 1 }),
        message: "w".into(),
        notes: vec![],
    };
    assert_eq!(diagnostic.render(Some("one line")), "f.mlir:9:1: warning: w\n");
}

#[test]
fn remarks_and_warnings_go_through_mlir_diagnostics() {
    use pb_support::{diagnostics::DiagnosticCapture, ffi};
    let context = pb_dialects::create_context();
    let capture = DiagnosticCapture::attach(&context);
    let location = melior::ir::Location::new(&context, "f.mlir", 3, 7);
    ffi::emit_remark(location, "[pb-fuse] fused");
    ffi::emit_warning(location, "[pb-fuse] compile budget spent: rest left");
    pb_support::budget::warn_skipped(location, "pb-forward-copies", "copies left");
    let taken = capture.take();
    let at = Some(Position { file: "f.mlir".into(), line: 3, column: 7 });
    let seen: Vec<_> = taken.iter().map(|d| (d.severity, d.position.clone(), d.message.as_str())).collect();
    assert_eq!(
        seen,
        vec![
            (Severity::Remark, at.clone(), "[pb-fuse] fused"),
            (Severity::Warning, at.clone(), "[pb-fuse] compile budget spent: rest left"),
            (Severity::Warning, at, "[pb-forward-copies] compile budget spent: copies left"),
        ]
    );
    assert_eq!(taken[0].render(None), "f.mlir:3:7: remark: [pb-fuse] fused\n");
    assert!(!capture.has_errors());
}
