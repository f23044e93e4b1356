//! Writing artifacts: the shared library (JIT), the object + header (AOT),
//! and the JSON manifest beside each.
//!
//! The shared library is linked by the machine's C compiler driver (`cc`)
//! against LLVM's OpenMP runtime (`libomp.so.5`) for the parallel loops; the
//! generated code needs nothing else but libc/libm. Both are found at run
//! time, never at a path fixed when the engine was built, so an engine
//! installed from a wheel works on machines without Debian's LLVM packages
//! (the wheel carries `libomp.so.5` beside the `polyblocks` package).

use crate::{header, CompileError, Compiled};
use std::{
    path::{Path, PathBuf},
    process::Command,
};

/// Where the set-up of a development machine installs LLVM 22: its clang
/// and libomp are the last resort when nothing else is found.
const LLVM_PREFIX: &str = "/usr/lib/llvm-22";
const OPENMP_LIBRARY: &str = "libomp.so.5";

/// The program that links shared libraries: `$POLYBLOCKS_CC`, else the
/// first of `cc`, `clang`, `gcc` on `PATH`, else LLVM 22's clang.
pub fn linker() -> Result<PathBuf, CompileError> {
    if let Some(chosen) = std::env::var_os("POLYBLOCKS_CC").filter(|v| !v.is_empty()) {
        let chosen = PathBuf::from(chosen);
        return find_program(&chosen).ok_or_else(|| {
            CompileError::Link(format!("POLYBLOCKS_CC names '{}', which is not an executable", chosen.display()))
        });
    }
    ["cc", "clang", "gcc"]
        .iter()
        .find_map(|name| find_program(Path::new(name)))
        .or_else(|| Some(Path::new(LLVM_PREFIX).join("bin/clang")).filter(|p| p.is_file()))
        .ok_or_else(|| {
            CompileError::Link(
                "no C compiler driver to link the library with: none of cc, clang, gcc is on PATH \
                 (install one, e.g. `apt install gcc`, or name it in POLYBLOCKS_CC)"
                    .into(),
            )
        })
}

/// `program` itself when it has a slash, else its first match on `PATH`.
fn find_program(program: &Path) -> Option<PathBuf> {
    if program.components().count() > 1 {
        return program.is_file().then(|| program.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join(program)).find(|p| p.is_file())
}

/// The folder holding LLVM's OpenMP runtime that libraries link and load:
/// `explicit` (pb-compile's `--openmp-dir`), else beside this executable or
/// in the `polyblocks` package installed with it (the wheel's layout:
/// `<prefix>/bin/pb-compile`, `<prefix>/lib/python3.X/site-packages/polyblocks/_lib`),
/// else LLVM 22's.
pub fn openmp_dir(explicit: Option<&Path>) -> Result<PathBuf, CompileError> {
    if let Some(dir) = explicit {
        return if dir.join(OPENMP_LIBRARY).is_file() {
            Ok(dir.to_path_buf())
        } else {
            Err(CompileError::Link(format!("--openmp-dir {}: no {OPENMP_LIBRARY} there", dir.display())))
        };
    }
    let mut candidates = Vec::new();
    if let Some(bin) = std::env::current_exe().ok().and_then(|e| e.canonicalize().ok()).and_then(|e| e.parent().map(Path::to_path_buf)) {
        candidates.push(bin.clone());
        if let Ok(pythons) = std::fs::read_dir(bin.join("../lib")) {
            let mut pythons: Vec<PathBuf> = pythons.flatten().map(|e| e.path().join("site-packages/polyblocks/_lib")).collect();
            pythons.sort();
            candidates.extend(pythons);
        }
    }
    candidates.push(Path::new(LLVM_PREFIX).join("lib"));
    candidates.into_iter().find(|dir| dir.join(OPENMP_LIBRARY).is_file()).ok_or_else(|| {
        CompileError::Link(format!(
            "LLVM's OpenMP runtime ({OPENMP_LIBRARY}) not found beside pb-compile, in an installed polyblocks package \
             or in {LLVM_PREFIX}/lib: reinstall the polyblocks wheel, or pass --openmp-dir"
        ))
    })
}

fn io(path: &Path, e: std::io::Error) -> CompileError {
    CompileError::Io(format!("cannot write {}: {e}", path.display()))
}

fn write_manifest(compiled: &Compiled, path: &Path) -> Result<(), CompileError> {
    let json = serde_json::to_string_pretty(&compiled.manifest).map_err(|e| CompileError::Io(e.to_string()))?;
    std::fs::write(path, json).map_err(|e| io(path, e))
}

/// The linker arguments that link LLVM's OpenMP runtime from `dir` and name
/// `dir` as the run path, so the result loads it wherever it runs.
pub fn openmp_link_args(dir: &Path) -> Vec<String> {
    vec![format!("-L{}", dir.display()), format!("-l:{OPENMP_LIBRARY}"), format!("-Wl,-rpath,{}", dir.display())]
}

/// Writes `library` (a `.so`) and `library` with extension `.json`;
/// `openmp_dir` as for [`openmp_dir`]. Returns the linker it ran.
pub fn write_shared_library(compiled: &Compiled, library: &Path, openmp: Option<&Path>) -> Result<PathBuf, CompileError> {
    let linker = linker()?;
    // Host code of GPU kernels has no parallel loops: no OpenMP runtime
    // (GPU machines need not have libomp). Elsewhere the library names the
    // runtime's folder as its run path, so it loads wherever it is called.
    let openmp_args = if compiled.manifest.gpu.is_some() {
        Vec::new()
    } else {
        openmp_link_args(&openmp_dir(openmp)?)
    };
    // An output that exists and is not a regular file (`-o /dev/null`, a
    // pipe) is written through at the end, not replaced: renaming over it
    // would turn /dev/null into a library file. The intermediate files then
    // go to the temporary folder, and there is no place for a manifest.
    let special = std::fs::metadata(library).is_ok_and(|m| !m.is_file());
    let base = if special { std::env::temp_dir().join("pb-compile-output.so") } else { library.to_path_buf() };
    let mut objects = Vec::new();
    for (index, bytes) in compiled.objects.iter().enumerate() {
        let object = base.with_extension(format!("{}.{index}.o", std::process::id()));
        std::fs::write(&object, bytes).map_err(|e| io(&object, e))?;
        objects.push(object);
    }
    // Link to a temporary name, then rename: a concurrent reader never sees
    // a half-written library.
    let partial = base.with_extension(format!("so.{}.tmp", std::process::id()));
    let output = Command::new(&linker)
        .arg("-shared")
        .arg("-o")
        .arg(&partial)
        .args(&objects)
        .args(&openmp_args)
        .arg("-lm")
        .output()
        .map_err(|e| CompileError::Link(format!("cannot run the linker {}: {e}", linker.display())));
    for object in &objects {
        let _ = std::fs::remove_file(object);
    }
    let output = output?;
    if !output.status.success() {
        let _ = std::fs::remove_file(&partial);
        return Err(CompileError::Link(String::from_utf8_lossy(&output.stderr).into_owned()));
    }
    if special {
        let copied = std::fs::copy(&partial, library).map(|_| ());
        let _ = std::fs::remove_file(&partial);
        copied.map_err(|e| io(library, e))?;
        return Ok(linker);
    }
    std::fs::rename(&partial, library).map_err(|e| io(library, e))?;
    write_manifest(compiled, &library.with_extension("json"))?;
    Ok(linker)
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
