//! Fuzz target `pipeline`: bytes → UTF-8 MLIR text → `pb_compile::lower`
//! (parse, verify, the five cpu pipeline stages, the ABI check; no LLVM
//! codegen). Errors are fine; a panic (even one our pass wrapper would turn
//! into an "internal error" diagnostic: libfuzzer-sys's panic hook aborts
//! first), an abort, a crash, an exit or a hang is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pb_compile::{lower, CompileOptions};
use std::{
    ffi::{c_char, c_int},
    sync::OnceLock,
};

fn options() -> &'static CompileOptions {
    static OPTIONS: OnceLock<CompileOptions> = OnceLock::new();
    OPTIONS.get_or_init(CompileOptions::default)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = lower(text, "fuzz.mlir", options());
});

extern "C" {
    fn LLVMFuzzerRunDriver(
        argc: *mut c_int,
        argv: *mut *mut *mut c_char,
        callback: extern "C" fn(*const u8, usize) -> c_int,
    ) -> c_int;
}

extern "C" fn test_one_input(data: *const u8, size: usize) -> c_int {
    // SAFETY: libFuzzer passes a valid buffer of `size` bytes.
    unsafe { libfuzzer_sys::test_input_wrap(data, size) }
}

/// The process entry: libFuzzer's driver, as libFuzzer's own `main` would
/// run it. We define `main` because the static MLIR libraries on the link
/// line include libMLIRMlirOptMain.a, whose `main` (mlir-opt's) the linker
/// would otherwise take before the one in libfuzzer-sys's archive.
#[no_mangle]
pub extern "C" fn main(mut argc: c_int, mut argv: *mut *mut c_char) -> c_int {
    // SAFETY: argc/argv are the process's own, as the C runtime passed them.
    unsafe { LLVMFuzzerRunDriver(&mut argc, &mut argv, test_one_input) }
}
