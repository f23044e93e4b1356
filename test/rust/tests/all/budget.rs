//! The compile budget's deadline (`pb_support::budget`), which the planning
//! passes check (their behaviour past it: lit `pb-fuse.mlir`, DEADLINE).

use pb_support::budget::{deadline_after, now_ms, passed};
use std::time::Duration;

#[test]
fn no_deadline_never_passes() {
    assert!(!passed(0));
}

#[test]
fn past_and_future_deadlines() {
    assert!(passed(1));
    assert!(passed(now_ms().saturating_sub(1)));
    assert!(!passed(deadline_after(Duration::from_secs(3600))));
}
