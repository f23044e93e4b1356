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
