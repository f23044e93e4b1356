//! Writing artifacts: the shared library (JIT), the object + header (AOT),
//! and the JSON manifest beside each.
//!
//! The shared library is linked by clang-22 (installed by the set-up) with
//! libomp for the parallel loops; the generated code needs nothing else but
//! libc/libm.

use crate::{header, CompileError, Compiled};
use std::{
    path::{Path, PathBuf},
    process::Command,
};

const CLANG: &str = "/usr/lib/llvm-22/bin/clang";

fn io(path: &Path, e: std::io::Error) -> CompileError {
    CompileError::Io(format!("cannot write {}: {e}", path.display()))
}

fn write_manifest(compiled: &Compiled, path: &Path) -> Result<(), CompileError> {
    let json = serde_json::to_string_pretty(&compiled.manifest).map_err(|e| CompileError::Io(e.to_string()))?;
    std::fs::write(path, json).map_err(|e| io(path, e))
}

/// Writes `library` (a `.so`) and `library` with extension `.json`.
pub fn write_shared_library(compiled: &Compiled, library: &Path) -> Result<(), CompileError> {
    let mut objects = Vec::new();
    for (index, bytes) in compiled.objects.iter().enumerate() {
        let object = library.with_extension(format!("{}.{index}.o", std::process::id()));
        std::fs::write(&object, bytes).map_err(|e| io(&object, e))?;
        objects.push(object);
    }
    // Link to a temporary name, then rename: a concurrent reader never sees
    // a half-written library.
    let partial = library.with_extension(format!("so.{}.tmp", std::process::id()));
    // Host code of GPU kernels has no parallel loops: no OpenMP runtime
    // (GPU machines need not have libomp).
    let openmp: &[&str] = if compiled.manifest.gpu.is_some() { &[] } else { &["-fopenmp"] };
    let output = Command::new(CLANG)
        .arg("-shared")
        .args(openmp)
        .arg("-o")
        .arg(&partial)
        .args(&objects)
        .arg("-lm")
        .output()
        .map_err(|e| CompileError::Link(format!("cannot run {CLANG}: {e} (run scripts/setup.sh)")));
    for object in &objects {
        let _ = std::fs::remove_file(object);
    }
    let output = output?;
    if !output.status.success() {
        let _ = std::fs::remove_file(&partial);
        return Err(CompileError::Link(String::from_utf8_lossy(&output.stderr).into_owned()));
    }
    std::fs::rename(&partial, library).map_err(|e| io(library, e))?;
    write_manifest(compiled, &library.with_extension("json"))
}

/// Writes `dir/NAME.o`, `dir/NAME.h` and `dir/NAME.json`; returns the
/// object and header paths. The module must have been compiled in one part
/// (`codegen_threads` 1): parts refer to each other through hidden global
/// symbols, which two AOT objects linked into one program would share.
pub fn write_aot(compiled: &Compiled, dir: &Path, name: &str) -> Result<(PathBuf, PathBuf), CompileError> {
    let [bytes] = compiled.objects.as_slice() else {
        return Err(CompileError::Io(format!(
            "an AOT object is written from a module compiled in one part, not {} (codegen_threads 1)",
            compiled.objects.len()
        )));
    };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let object = dir.join(format!("{name}.o"));
    let header_path = dir.join(format!("{name}.h"));
    std::fs::write(&object, bytes).map_err(|e| io(&object, e))?;
    std::fs::write(&header_path, header::render(name, &compiled.manifest)).map_err(|e| io(&header_path, e))?;
    write_manifest(compiled, &dir.join(format!("{name}.json")))?;
    Ok((object, header_path))
}
