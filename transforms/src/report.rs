//! Explanations of loop-transformation decisions (`report` option of the
//! polyhedral passes, `pb-opt --pb-report`, `compile_options={'report':
//! True}`): one MLIR remark per decision, located at the loop nest, with
//! the message `[pass] message`. pb-opt prints them as mlir-opt does
//! (`file:line:col: remark: [pass] message`, and `expected-remark` checks
//! them under `--verify-diagnostics`); pb-compile prints the ones its
//! diagnostic capture was not asked for on stderr, one line each. MLIR's
//! diagnostic engine serializes the handlers, so parallel pass instances
//! never interleave within a remark.

use melior::ir::Location;
use pb_support::ffi;

/// Takes the location (not the op): the op may have been replaced by the
/// time the decision is reported.
pub fn note(location: Location, pass: &str, message: &str) {
    ffi::emit_remark(location, &format!("[{pass}] {message}"));
}
