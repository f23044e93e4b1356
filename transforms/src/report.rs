//! Explanations of loop-transformation decisions (`report` option of the
//! polyhedral passes, `pb-opt --pb-report`, `compile_options={'report':
//! True}`): one line per decision on stderr, located at the loop nest,
//! `file:line:col: note: [pass] message`. Lines are written whole so output
//! from parallel pass instances does not interleave within a line.

use melior::ir::{operation::OperationLike, OperationRef};
use pb_support::ffi;
use std::io::Write;

pub fn note(op: OperationRef, pass: &str, message: &str) {
    let place = ffi::file_line_col(op.location())
        .map(|(file, line, column)| format!("{file}:{line}:{column}"))
        .unwrap_or_else(|| "<unknown>".to_string());
    let line = format!("{place}: note: [{pass}] {message}\n");
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}
