//! Explanations of loop-transformation decisions (`report` option of the
//! polyhedral passes, `pb-opt --pb-report`, `compile_options={'report':
//! True}`): one line per decision on stderr, located at the loop nest,
//! `file:line:col: note: [pass] message`. Lines are written whole so output
//! from parallel pass instances does not interleave within a line.

use melior::ir::Location;
use pb_support::ffi;
use std::io::Write;

/// Takes the location (not the op): the op may have been replaced by the
/// time the decision is reported.
pub fn note(location: Location, pass: &str, message: &str) {
    note_at(&ffi::place(location), pass, message);
}

/// [`note`] at a place already rendered (`ffi::place`).
pub fn note_at(place: &str, pass: &str, message: &str) {
    let line = format!("{place}: note: [{pass}] {message}\n");
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}
