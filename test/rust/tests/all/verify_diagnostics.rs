use pb_opt::verify_diagnostics::verify;
use pb_support::diagnostics::{Captured, Position, Severity};

fn error_at(line: usize, message: &str) -> Captured {
    Captured {
        severity: Severity::Error,
        position: Some(Position { file: "f.mlir".into(), line, column: 3 }),
        message: message.into(),
        notes: vec![],
    }
}

#[test]
fn matches_every_designator() {
    let text = "a // expected-error {{same}}\n\
                // expected-error @+1 {{next}}\n\
                b\n\
                c\n\
                // expected-error @above {{above}}\n\
                // expected-error @unknown {{nowhere}}\n";
    let mut nowhere = error_at(1, "nowhere to be seen");
    nowhere.position = None;
    let diagnostics = vec![error_at(1, "the same line"), error_at(3, "next one"), error_at(4, "from above"), nowhere];
    assert_eq!(verify("f.mlir", text, &diagnostics), Vec::<String>::new());
}

#[test]
fn reports_missing_and_unexpected() {
    let text = "// expected-error @+1 {{wanted}}\nx\n";
    let problems = verify("f.mlir", text, &[error_at(2, "something else")]);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems.iter().any(|p| p == "f.mlir:2:3: error: unexpected error: something else"));
    assert!(problems.iter().any(|p| p.contains("expected error \"wanted\" on line 2 was not produced")));
}

#[test]
fn severity_and_line_must_both_match() {
    let text = "x // expected-warning {{careful}}\n";
    assert_eq!(verify("f.mlir", text, &[error_at(1, "careful")]).len(), 2);
    let text = "x // expected-error {{careful}}\n";
    assert_eq!(verify("f.mlir", text, &[error_at(2, "careful")]).len(), 2);
}

#[test]
fn checks_notes_but_not_current_operation_notes() {
    let text = "x // expected-error {{outer}}\n// expected-note @-1 {{because}}\n";
    let mut diagnostic = error_at(1, "outer");
    diagnostic.notes.push(Captured { severity: Severity::Note, ..error_at(1, "because of this") });
    diagnostic.notes.push(Captured { severity: Severity::Note, ..error_at(1, "see current operation: x") });
    assert_eq!(verify("f.mlir", text, &[diagnostic]), Vec::<String>::new());
}

#[test]
fn regex_pieces_match_and_bad_regexes_are_reported() {
    let text = "x // expected-error-re {{operand {{[0-9]+}} is (bad)}}\n";
    assert!(verify("f.mlir", text, &[error_at(1, "operand 12 is (bad)")]).is_empty());
    assert_eq!(verify("f.mlir", text, &[error_at(1, "operand x is (bad)")]).len(), 2);
    let text = "x // expected-error-re {{a {{[}} b}}\n";
    assert!(verify("f.mlir", text, &[]).iter().any(|p| p.contains("invalid regular expression")));
}

#[test]
fn malformed_directives_are_errors() {
    let problems = verify("f.mlir", "// expected-error @+x {{a}}\n// expected-error no braces\n", &[]);
    assert_eq!(problems.len(), 2, "{problems:?}");
}
