//! Empty: this crate only holds `tests/all.rs`, the single Rust test binary.
