//! `--verify-diagnostics`: compare the diagnostics a run produced with the
//! `expected-*` comments of the input, as mlir-opt does.
//!
//! ```text
//! // expected-error {{message substring}}        on this line
//! // expected-error @+1 {{...}}                  N lines below (@-N above)
//! // expected-warning @above {{...}}             the line above (@below: below)
//! // expected-remark @unknown {{...}}            no usable location
//! // expected-note {{...}}                       notes attached to diagnostics
//! // expected-error-re {{a {{[0-9]+}} b}}        regex inside inner {{ }}
//! ```
//! Every expectation must be matched by one diagnostic and every diagnostic by
//! one expectation. "see current operation" notes, which MLIR attaches to
//! verifier errors, are not checked.

use pb_support::diagnostics::{Captured, Severity};

#[derive(Debug, Clone)]
struct Expected {
    severity: Severity,
    /// Line the diagnostic must be on; `None` for `@unknown`.
    line: Option<usize>,
    /// Line of the comment, for reporting.
    comment_line: usize,
    matcher: Matcher,
    text: String,
    matched: bool,
}

#[derive(Debug, Clone)]
enum Matcher {
    Substring(String),
    /// From `-re` forms: literal text with `{{regex}}` pieces.
    Pattern(regex::Regex),
}

impl Matcher {
    fn matches(&self, message: &str) -> bool {
        match self {
            Matcher::Substring(s) => message.contains(s.as_str()),
            Matcher::Pattern(re) => re.is_match(message),
        }
    }
}

/// Finds the expectations in `text`. Malformed directives are returned as
/// errors `(line, message)`.
fn parse_expectations(text: &str) -> (Vec<Expected>, Vec<(usize, String)>) {
    let mut expected = Vec::new();
    let mut errors = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        let Some(start) = line.find("expected-") else { continue };
        let rest = &line[start + "expected-".len()..];
        let (severity, rest) = match ["error", "warning", "remark", "note"].iter().find(|k| rest.starts_with(*k)) {
            Some(kind) => (
                match *kind {
                    "error" => Severity::Error,
                    "warning" => Severity::Warning,
                    "remark" => Severity::Remark,
                    _ => Severity::Note,
                },
                &rest[kind.len()..],
            ),
            None => continue,
        };
        let (regex, rest) = match rest.strip_prefix("-re") {
            Some(rest) => (true, rest),
            None => (false, rest),
        };
        let rest = rest.trim_start();
        let (target, rest) = if let Some(designator) = rest.strip_prefix('@') {
            let end = designator.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(designator.len());
            let target = match &designator[..end] {
                "above" => Some(line_number.saturating_sub(1)),
                "below" => Some(line_number + 1),
                "unknown" => None,
                offset => match offset.parse::<i64>() {
                    Ok(delta) if (line_number as i64 + delta) >= 1 => Some((line_number as i64 + delta) as usize),
                    _ => {
                        errors.push((line_number, format!("invalid line designator '@{offset}'")));
                        continue;
                    }
                },
            };
            (target, designator[end..].trim_start())
        } else {
            (Some(line_number), rest)
        };
        let Some(body) = rest.strip_prefix("{{").and_then(|b| b.rfind("}}").map(|end| &b[..end])) else {
            errors.push((line_number, "expected '{{' message '}}' after the expected-* directive".into()));
            continue;
        };
        let matcher = if regex {
            match compile_pattern(body) {
                Ok(re) => Matcher::Pattern(re),
                Err(e) => {
                    errors.push((line_number, e));
                    continue;
                }
            }
        } else {
            Matcher::Substring(body.to_string())
        };
        expected.push(Expected {
            severity,
            line: target,
            comment_line: line_number,
            matcher,
            text: body.to_string(),
            matched: false,
        });
    }
    (expected, errors)
}

/// Checks `diagnostics` (flattened with their notes) against the comments of
/// `text` (the whole input file, so that line numbers agree). Returns the
/// problems as `file:line:col: error: ...` lines; empty means success.
pub fn verify(file: &str, text: &str, diagnostics: &[Captured]) -> Vec<String> {
    let (mut expected, errors) = parse_expectations(text);
    let mut problems: Vec<String> =
        errors.into_iter().map(|(line, m)| format!("{file}:{line}:1: error: {m}")).collect();
    let mut flat = Vec::new();
    for diagnostic in diagnostics {
        flatten(diagnostic, &mut flat);
    }
    for diagnostic in flat {
        if diagnostic.severity == Severity::Note && diagnostic.message.starts_with("see current operation") {
            continue;
        }
        let line = diagnostic.position.as_ref().filter(|p| p.file == file).map(|p| p.line);
        let found = expected.iter_mut().find(|e| {
            !e.matched && e.severity == diagnostic.severity && e.line == line && e.matcher.matches(&diagnostic.message)
        });
        match found {
            Some(e) => e.matched = true,
            None => {
                let at = match &diagnostic.position {
                    Some(p) => format!("{}:{}:{}", p.file, p.line, p.column),
                    None => file.to_string(),
                };
                problems.push(format!("{at}: error: unexpected {}: {}", diagnostic.severity, diagnostic.message));
            }
        }
    }
    for e in expected.iter().filter(|e| !e.matched) {
        let target = e.line.map_or("at an unknown location".to_string(), |l| format!("on line {l}"));
        problems.push(format!(
            "{file}:{}:1: error: expected {} \"{}\" {target} was not produced",
            e.comment_line, e.severity, e.text
        ));
    }
    problems
}

fn flatten<'a>(diagnostic: &'a Captured, out: &mut Vec<&'a Captured>) {
    out.push(diagnostic);
    for note in &diagnostic.notes {
        flatten(note, out);
    }
}

/// Compiles `literal {{regex}} literal`: literal text is escaped, the text
/// inside `{{ }}` is a regular expression.
fn compile_pattern(body: &str) -> Result<regex::Regex, String> {
    let mut pattern = String::new();
    let mut rest = body;
    while let Some(open) = rest.find("{{") {
        pattern.push_str(&regex::escape(&rest[..open]));
        let after = &rest[open + 2..];
        let close = after.find("}}").ok_or("unterminated '{{' in expected-*-re pattern")?;
        pattern.push_str(&format!("(?:{})", &after[..close]));
        rest = &after[close + 2..];
    }
    pattern.push_str(&regex::escape(rest));
    regex::Regex::new(&pattern).map_err(|e| format!("invalid regular expression: {e}"))
}
