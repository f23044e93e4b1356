use pb_support::pipeline::{join, parse, Element};

#[test]
fn round_trips_nested_pipelines_with_options() {
    let text = "builtin.module(func.func(pb-simplify-quant{remove-dead=false},canonicalize),cse)";
    assert_eq!(join(&parse(text).unwrap()), text);
}

#[test]
fn keeps_braces_and_commas_inside_quoted_options() {
    let elements = parse("a{x=\"1,2}\" y={3}},b").unwrap();
    assert_eq!(elements.len(), 2);
    match &elements[0] {
        Element::Pass { name, options, .. } => {
            assert_eq!(name, "a");
            assert_eq!(options, "x=\"1,2}\" y={3}");
        }
        other => panic!("expected a pass, got {other:?}"),
    }
}

#[test]
fn tolerates_whitespace_and_empty_nests() {
    let elements = parse(" builtin.module( func.func( ) , cse ) ").unwrap();
    assert_eq!(join(&elements), "builtin.module(func.func(),cse)");
}

#[test]
fn reports_errors_with_positions() {
    let error = parse("builtin.module(cse").unwrap_err();
    assert!(error.message.contains("never closed"), "{}", error.message);
    assert_eq!(error.position, 0);

    let error = parse("cse)").unwrap_err();
    assert!(error.message.contains("unbalanced ')'"));
    assert_eq!(error.position, 3);

    assert!(parse("cse{a=1").unwrap_err().message.contains("never closed"));
    assert!(parse("a,,b").unwrap_err().message.contains("expected a pass or op name"));
    assert!(parse("a b").unwrap_err().message.contains("expected ',' or end"));
}

#[test]
fn renders_a_caret_under_the_error() {
    let text = "cse,)";
    let rendered = parse(text).unwrap_err().render(text);
    assert_eq!(rendered.lines().nth(2).unwrap(), "      ^");
}

#[test]
fn rejects_absurd_nesting_instead_of_overflowing_the_stack() {
    let text = format!("{}{}", "a(".repeat(100_000), ")".repeat(100_000));
    assert!(parse(&text).unwrap_err().message.contains("nested deeper than 256"));
    let ok = format!("{}{}", "a(".repeat(200), ")".repeat(200));
    assert!(parse(&ok).is_ok());
}
