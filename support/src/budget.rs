//! The compile-time budget: a deadline that the planning passes check
//! (`pb-fuse`, `pb-forward-copies`), so that a program that would take
//! minutes to optimize compiles with less optimization instead, and says so.
//!
//! The deadline travels as a pass option (`deadline-ms`: milliseconds since
//! the Unix epoch, 0 for none) rather than as process state: compilations
//! running side by side in one process (tests, a server) each keep their
//! own. `pb-compile` sets it from `--compile-budget`; `pb-opt` runs without
//! one unless the option is written into the pipeline.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch (0 if the clock is before it).
pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// The deadline `budget` from now, as a `deadline-ms` option value.
pub fn deadline_after(budget: Duration) -> u64 {
    now_ms().saturating_add(budget.as_millis() as u64).max(1)
}

/// True once `deadline_ms` (a `deadline-ms` option value) has passed; never
/// for 0 (no deadline).
pub fn passed(deadline_ms: u64) -> bool {
    deadline_ms != 0 && now_ms() >= deadline_ms
}

/// Says that a pass skipped work because the budget was spent: an MLIR
/// warning `[pass] compile budget spent: what` at `location`, which pb-opt
/// and pb-compile print as `file:line:col: warning: [pass] compile budget
/// spent: ...` (the line the fronts turn into a Python warning).
pub fn warn_skipped(location: melior::ir::Location, pass: &str, what: &str) {
    crate::ffi::emit_warning(location, &format!("[{pass}] compile budget spent: {what}"));
}
