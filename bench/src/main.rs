//! `pb-bench`: compile each workload with the cpu pipeline, report the
//! compile time of every stage, then run it and report the median run time.
//!
//! ```text
//! cargo run --release -p pb-bench -- [--runs N] [--threads N] [--target OVERRIDES] [--no-fuse] [--upstream] [DIR_OR_FILE ...]
//! ```
//! Defaults: `examples/workloads` and `bench/workloads`, 10 runs (after one
//! warm-up), OpenMP threads = cores. Inputs are deterministic pseudo-random
//! floats. Output is a markdown table for docs/performance.md.

use pb_compile::{compile, link, CompileOptions};
use pb_runtime::{threads, Library};
use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

struct Settings {
    runs: usize,
    /// Target overrides, as `pb-compile --target=`.
    target: String,
    no_fuse: bool,
    /// Affine stage of upstream passes only (`pb-compile --upstream-affine`).
    upstream: bool,
    threads: Option<usize>,
    inputs: Vec<PathBuf>,
}

fn parse(args: &[String]) -> Result<Settings, String> {
    let mut settings = Settings { runs: 10, target: String::new(), no_fuse: false, upstream: false, threads: None, inputs: vec![] };
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = |name: &str| iter.next().cloned().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--target" => settings.target = value("--target")?,
            "--no-fuse" => settings.no_fuse = true,
            "--upstream" => settings.upstream = true,
            "--runs" => settings.runs = value("--runs")?.parse().map_err(|_| "--runs takes a number")?,
            "--threads" => {
                settings.threads = Some(value("--threads")?.parse().map_err(|_| "--threads takes a number")?)
            }
            "-h" | "--help" => return Err("usage: pb-bench [--runs N] [--threads N] [--target OVERRIDES] [--no-fuse] [--upstream] [DIR_OR_FILE ...]".into()),
            other if other.starts_with('-') => return Err(format!("unknown option '{other}'")),
            other => settings.inputs.push(PathBuf::from(other)),
        }
    }
    if settings.inputs.is_empty() {
        settings.inputs = vec![PathBuf::from("examples/workloads"), PathBuf::from("bench/workloads")];
    }
    Ok(settings)
}

fn workloads(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(input)
                .map_err(|e| format!("{}: {e}", input.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(input.clone());
        }
    }
    Ok(files)
}

/// Deterministic values in [-1, 1) (xorshift), so runs are comparable.
fn fill(buffer: &mut [u8], dtype: &str, seed: u64) {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    match dtype {
        "f32" => buffer.chunks_exact_mut(4).for_each(|c| c.copy_from_slice(&(next() as f32).to_ne_bytes())),
        "f64" => buffer.chunks_exact_mut(8).for_each(|c| c.copy_from_slice(&next().to_ne_bytes())),
        _ => buffer.iter_mut().for_each(|b| *b = (next() * 100.0) as i8 as u8),
    }
}

fn milliseconds(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn bench(file: &Path, settings: &Settings, out_dir: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let compiled =
        compile(&text, &file.display().to_string(), &compile_options(settings)?).map_err(|e| e.to_string())?;
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("workload");
    let library_path = out_dir.join(format!("lib{stem}.so"));
    link::write_shared_library(&compiled, &library_path, None).map_err(|e| e.to_string())?;
    let library = Library::open(&library_path).map_err(|e| e.to_string())?;
    if let Some(n) = settings.threads {
        let _ = threads::set_num_threads(&library, n);
    }
    let function = library.manifest().functions.first().ok_or("no function")?.clone();
    let mut buffers: Vec<Vec<u8>> = function
        .args
        .iter()
        .enumerate()
        .map(|(i, arg)| {
            let mut b = vec![0u8; arg.bytes() as usize];
            fill(&mut b, &arg.dtype, i as u64 + 1);
            b
        })
        .collect();
    let mut run = || -> Result<Duration, String> {
        let mut views: Vec<&mut [u8]> = buffers.iter_mut().map(|b| b.as_mut_slice()).collect();
        let started = Instant::now();
        library.call(&function.name, &mut views, None).map_err(|e| e.to_string())?;
        Ok(started.elapsed())
    };
    run()?; // warm-up
    let mut times: Vec<Duration> = (0..settings.runs.max(1)).map(|_| run()).collect::<Result<_, _>>()?;
    times.sort();
    let median = times[times.len() / 2];
    let stage = |name: &str| compiled.timings.iter().find(|(s, _)| s == name).map_or(0.0, |(_, t)| milliseconds(*t));
    let total: f64 = compiled.timings.iter().map(|(_, t)| milliseconds(*t)).sum();
    Ok(format!(
        "| {stem} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {total:.1} | {:.3} |",
        stage("legalize"),
        stage("graph"),
        stage("affine"),
        stage("lower"),
        stage("llvm"),
        stage("codegen"),
        milliseconds(median)
    ))
}

fn compile_options(settings: &Settings) -> Result<CompileOptions, String> {
    let mut options = CompileOptions::default();
    options.pipeline.target.apply_overrides(&settings.target)?;
    options.pipeline.fuse = !settings.no_fuse;
    options.pipeline.upstream_affine = settings.upstream;
    Ok(options)
}

fn main() {
    pb_compile::install_fatal_error_handler();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let settings = match parse(&args) {
        Ok(s) => s,
        Err(message) => {
            eprintln!("pb-bench: {message}");
            std::process::exit(1);
        }
    };
    let files = match workloads(&settings.inputs) {
        Ok(f) => f,
        Err(message) => {
            eprintln!("pb-bench: error: {message}");
            std::process::exit(1);
        }
    };
    let out_dir = std::env::temp_dir().join(format!("pb-bench-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&out_dir) {
        eprintln!("pb-bench: error: {}: {e}", out_dir.display());
        std::process::exit(1);
    }
    println!("| workload | legalize ms | graph ms | affine ms | lower ms | llvm ms | codegen ms | compile ms | run ms (median of {}) |", settings.runs);
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut failed = false;
    for file in files {
        match bench(&file, &settings, &out_dir) {
            Ok(row) => println!("{row}"),
            Err(message) => {
                failed = true;
                eprintln!("pb-bench: {}: {message}", file.display());
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    std::process::exit(i32::from(failed));
}
