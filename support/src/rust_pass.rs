//! Running a pass written in Rust inside an MLIR pass manager.
//!
//! A pass implements [`RustPass`]; [`into_mlir_pass`] wraps it as an MLIR
//! external pass. The wrapper turns a Rust panic inside a pass into an error
//! diagnostic and a pass failure, so a bug in a pass never aborts the process
//! (a panic cannot unwind through MLIR's C++ frames).

use crate::{ffi, pass_info::PassInfo};
use melior::{
    dialect::DialectHandle,
    ir::{operation::OperationLike, OperationRef},
    pass::{create_external, ExternalPass, Pass, RunExternalPass},
    ContextRef,
};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Failure of a pass; the pass has already emitted diagnostics saying why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassFailed;

impl PassFailed {
    /// `Ok(())` if `ok`, else `Err(PassFailed)`: for passes that report every
    /// problem before failing.
    pub fn unless(ok: bool) -> Result<(), PassFailed> {
        if ok {
            Ok(())
        } else {
            Err(PassFailed)
        }
    }
}

/// A pass written in Rust. Implement it on a `Clone` struct holding the
/// pass's options; MLIR clones it for each thread.
pub trait RustPass: Send + CloneRustPass {
    /// Transforms `op` (the pass's anchor op) in place.
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailed>;

    /// Namespaces of the dialects whose ops the pass creates (`"arith"`,
    /// `"vector"`, ...), so that the pass manager loads them before the
    /// pipeline runs (MLIR cannot load a dialect while passes run in
    /// parallel). Every pass overrides it with what its code builds;
    /// test/rust `dependent_dialects.rs` checks the declarations against the
    /// op names in each pass's source. `pbq` and `stablehlo` (IRDL dialects,
    /// always loaded) may be named; they need no handle.
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &[]
    }
}

/// Boxed cloning of passes; implemented for every `Clone` pass.
pub trait CloneRustPass {
    fn clone_box(&self) -> Box<dyn RustPass>;
}

impl<T: RustPass + Clone + 'static> CloneRustPass for T {
    fn clone_box(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// Identity of one pass type. Declare one per pass as a `static` and store a
/// reference in its [`PassInfo`]: MLIR identifies passes by this address.
#[repr(align(8))]
#[derive(Debug)]
pub struct PassId(#[allow(dead_code)] u8);

impl PassId {
    pub const fn new() -> Self {
        Self(0)
    }
}

impl Default for PassId {
    fn default() -> Self {
        Self::new()
    }
}

/// Our IRDL dialects: loaded with every context, no C-API handle.
const IRDL_DIALECTS: &[&str] = &["pbq", "stablehlo"];

struct Adaptor {
    info: &'static PassInfo,
    pass: Box<dyn RustPass>,
}

impl Clone for Adaptor {
    fn clone(&self) -> Self {
        Self { info: self.info, pass: self.pass.clone_box() }
    }
}

impl<'c> RunExternalPass<'c> for Adaptor {
    fn initialize(&mut self, _context: ContextRef<'c>) {}

    fn run(&mut self, operation: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        let result = catch_unwind(AssertUnwindSafe(|| self.pass.run(operation)));
        match result {
            Ok(Ok(())) => {}
            Ok(Err(PassFailed)) => pass.signal_failure(),
            Err(panic) => {
                let what = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("unknown panic");
                ffi::emit_error(
                    operation.location(),
                    &format!("internal error in pass '{}': {what} (please report this bug)", self.info.argument),
                );
                pass.signal_failure();
            }
        }
    }
}

/// `text` as a `&'static str`, stored once per distinct text: the pass
/// arguments handed to MLIR, which a process creates from a bounded set of
/// option combinations (however many pass managers it builds).
fn interned(text: String) -> &'static str {
    static TEXTS: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut texts = TEXTS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(found) = texts.iter().find(|t| **t == text) {
        return found;
    }
    let leaked: &'static str = Box::leak(text.into_boxed_str());
    texts.push(leaked);
    leaked
}

/// Wraps a Rust pass as an MLIR pass registered under `info`, with the
/// handles of its [`RustPass::dependent_dialects`]. Its argument (what a
/// printed pipeline, `--dump-pass-pipeline`, shows) carries `options` (every
/// option's value, [`crate::PassOptions::render`]) so the printed pipeline
/// reproduces the run; its name (pass timing, IR dumps) is the bare
/// argument.
pub fn into_mlir_pass(info: &'static PassInfo, pass: Box<dyn RustPass>, options: &str) -> Pass {
    let argument = if options.is_empty() { info.argument } else { interned(format!("{}{{{options}}}", info.argument)) };
    let dialects: Vec<DialectHandle> = pass
        .dependent_dialects()
        .iter()
        .filter(|name| !IRDL_DIALECTS.contains(name))
        .map(|name| {
            ffi::dialect_handle(name)
                .unwrap_or_else(|| panic!("pass '{}' declares unknown dialect '{name}'", info.argument))
        })
        .collect();
    create_external(
        Adaptor { info, pass },
        melior::ir::r#type::TypeId::create(info.id),
        info.argument,
        argument,
        info.summary,
        info.anchor,
        &dialects,
    )
}
