//! # pb-runtime
//!
//! What a program needs to use polyblocks artifacts at run time, and nothing
//! else: no MLIR, no LLVM, no math (generated code carries its own).
//!
//! - [`manifest`] — the ABI description written beside every artifact.
//! - [`library`] — loading a compiled shared library and calling its
//!   functions on caller-owned buffers, with every size checked first.
//! - [`pool`] — 64-byte-aligned memory pools for `-aot-user-memory` code.
//! - [`threads`] — the OpenMP thread count of loaded code.
//!
//! Depends on no other polyblocks crate (the compiler depends on it, for the
//! manifest types).

pub mod library;
pub mod manifest;
pub mod pool;
pub mod threads;

pub use library::{Library, RuntimeError};
pub use manifest::{Arg, Function, Manifest, Role};
pub use pool::Pool;
