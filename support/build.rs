//! Generates the catalogue of upstream MLIR passes (name, summary, anchor op)
//! from the `mlir-opt` of the LLVM installation we link against, and
//! compiles the C++ shims (`src/diagnostics_shim.cpp`: remarks and warnings,
//! which the C API cannot emit; `src/fusion_shim.cpp`: upstream fusion
//! patterns with a control function, which it cannot pass) against its
//! headers.
//!
//! MLIR 22's C API can neither list registered passes nor tell a pass's anchor
//! op; `mlir-opt --help` gives names and summaries, and `mlir-opt --<every
//! pass> --dump-pass-pipeline` shows where implicit nesting puts each one.

use std::{env, fs, path::PathBuf, process::Command};

fn main() {
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let bindir = Command::new(format!("{prefix}/bin/llvm-config"))
        .arg("--bindir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "/usr/lib/llvm-22/bin".into());
    let mlir_opt = format!("{bindir}/mlir-opt");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={mlir_opt}");
    compile_shim(&prefix);

    let help = run(&mlir_opt, &["--help"], false);
    let passes = pass_summaries(&help);
    let mut args: Vec<String> = passes.iter().map(|(name, _)| format!("--{name}")).collect();
    args.extend(["--dump-pass-pipeline".into(), "-o".into(), "/dev/null".into(), "/dev/null".into()]);
    // The dump is printed before the passes run; running them on an empty
    // module may then fail (some cannot be scheduled there), which is fine.
    let dump = run(&mlir_opt, &args.iter().map(String::as_str).collect::<Vec<_>>(), true);
    assert!(dump.contains("Pass Manager with"), "mlir-opt --dump-pass-pipeline printed no pipeline:\n{dump}");
    let anchors = anchors(&dump);

    let mut out = String::from("/// (argument, summary, anchor) of every upstream pass; anchor \"\" for pipelines.\n");
    out.push_str("pub static UPSTREAM_PASSES: &[(&str, &str, &str)] = &[\n");
    for (name, summary) in &passes {
        let anchor = anchors.iter().find(|(n, _)| n == name).map(|(_, a)| a.as_str()).unwrap_or("");
        out.push_str(&format!("    ({name:?}, {summary:?}, {anchor:?}),\n"));
    }
    out.push_str("];\n");
    let path = PathBuf::from(env::var("OUT_DIR").unwrap()).join("upstream_passes.rs");
    fs::write(path, out).unwrap();
}

/// The C++ shims, compiled as LLVM is (C++17, no RTTI, no exceptions)
/// against the headers of the MLIR we link.
fn compile_shim(prefix: &str) {
    println!("cargo:rerun-if-changed=src/diagnostics_shim.cpp");
    println!("cargo:rerun-if-changed=src/fusion_shim.cpp");
    let include = Command::new(format!("{prefix}/bin/llvm-config"))
        .arg("--includedir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| format!("{prefix}/include"));
    cc::Build::new()
        .cpp(true)
        .file("src/diagnostics_shim.cpp")
        .file("src/fusion_shim.cpp")
        .include(include)
        .std("c++17")
        .flag("-fno-rtti")
        .flag("-fno-exceptions")
        .warnings(false)
        .compile("pb_support_shims");
}

fn run(program: &str, args: &[&str], may_fail: bool) -> String {
    let output = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e} (is mlir-22-tools installed? run scripts/setup.sh)"));
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    if !output.status.success() && !may_fail {
        panic!("{program} failed:\n{text}");
    }
    text
}

/// `(name, summary)` of each entry of the "Passes:" and "Pass Pipelines:"
/// sections of `mlir-opt --help`, skipping `test-*` passes, which only
/// mlir-opt registers.
fn pass_summaries(help: &str) -> Vec<(String, String)> {
    let mut passes = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line.trim() == "Passes:" || line.trim() == "Pass Pipelines:" {
            inside = true;
            continue;
        }
        // Sections end at the next top-level option (two spaces or fewer);
        // pass options (8 spaces) and enum values (4 spaces, `=value`) stay.
        let indent = line.len() - line.trim_start().len();
        if inside && indent <= 2 && !line.trim().is_empty() {
            inside = false;
        }
        let Some(rest) = line.strip_prefix("      --").filter(|_| inside) else { continue };
        let (name, summary) = match rest.split_once(" - ") {
            Some((name, summary)) => (name.trim(), summary.trim()),
            None => (rest.trim(), ""),
        };
        let name = name.split('=').next().unwrap_or(name);
        if !name.starts_with("test-") && !passes.iter().any(|(n, _)| n == name) {
            passes.push((name.to_string(), summary.to_string()));
        }
    }
    passes
}

/// `(name, anchor)` for each pass in a `--dump-pass-pipeline` listing, which
/// prints one element per line: `anchor(`, `)`, or `name{options},`.
fn anchors(dump: &str) -> Vec<(String, String)> {
    let mut stack: Vec<String> = Vec::new();
    let mut result = Vec::new();
    for line in dump.lines().map(str::trim) {
        if let Some(anchor) = line.strip_suffix('(') {
            stack.push(anchor.to_string());
        } else if line.starts_with(')') {
            stack.pop();
        } else if !line.is_empty() && !line.starts_with("Pass Manager") {
            let name = line.split(['{', ',']).next().unwrap_or(line).trim();
            if let Some(anchor) = stack.last() {
                result.push((name.to_string(), anchor.clone()));
            }
        }
    }
    result
}
