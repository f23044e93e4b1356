//! The compile driver and the runtime together, in process: compile MLIR,
//! link a library, load it, call it on buffers, compare with Rust.

use pb_compile::{compile, link, lower, CompileError, CompileOptions};
use pb_runtime::{Library, Pool, RuntimeError};
use pb_support::target::TargetDesc;

const MATMUL: &str = "func.func @mm(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>) -> tensor<5x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x3xf32>) -> tensor<5x3xf32>
  %c = linalg.matmul ins(%a, %b : tensor<5x7xf32>, tensor<7x3xf32>) outs(%f : tensor<5x3xf32>) -> tensor<5x3xf32>
  return %c : tensor<5x3xf32>
}";

/// Two chained products: the first result is a temporary buffer.
const WITH_TEMPORARY: &str =
    "func.func @chain(%a: tensor<4x5xf32>, %b: tensor<5x6xf32>, %c: tensor<6x3xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x6xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %ab = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<5x6xf32>) outs(%f1 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %e2 = tensor.empty() : tensor<4x3xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %abc = linalg.matmul ins(%ab, %c : tensor<4x6xf32>, tensor<6x3xf32>) outs(%f2 : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %abc : tensor<4x3xf32>
}";

/// Naive row-major product of an n×k and a k×m matrix.
fn product(x: &[f32], y: &[f32], n: usize, k: usize, m: usize) -> Vec<f32> {
    (0..n * m).map(|ij| (0..k).map(|l| x[ij / m * k + l] * y[l * m + ij % m]).sum()).collect()
}

fn bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_ne_bytes()).collect()
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes.chunks_exact(4).map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn build(text: &str, options: &CompileOptions, dir: &std::path::Path, name: &str) -> Library {
    let compiled = compile(text, name, options).unwrap_or_else(|e| panic!("{e}"));
    assert!(compiled.timings.iter().any(|(stage, _)| stage == "codegen"));
    let path = dir.join(format!("lib{name}.so"));
    link::write_shared_library(&compiled, &path, None).unwrap();
    Library::open(&path).unwrap()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pb-tests-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn matmul_runs_and_matches_a_naive_product() {
    let dir = temp_dir("mm");
    let library = build(MATMUL, &CompileOptions::default(), &dir, "mm");
    let a: Vec<f32> = (0..35).map(|i| (i % 5) as f32 - 2.0).collect();
    let b: Vec<f32> = (0..21).map(|i| (i % 4) as f32 * 0.5).collect();
    let (mut a_bytes, mut b_bytes, mut c_bytes) = (bytes(&a), bytes(&b), vec![0u8; 15 * 4]);
    library.call("mm", &mut [&mut a_bytes, &mut b_bytes, &mut c_bytes], None).unwrap();
    assert_eq!(floats(&c_bytes), product(&a, &b, 5, 7, 3));
    let error = library.call("mm", &mut [&mut a_bytes, &mut b_bytes], None).unwrap_err();
    assert!(matches!(error, RuntimeError::Arguments(ref m) if m.contains("takes 3 buffers")), "{error}");
    let mut short = vec![0u8; 4];
    let error = library.call("mm", &mut [&mut a_bytes, &mut b_bytes, &mut short], None).unwrap_err();
    assert!(error.to_string().contains("buffer 'output0' has 4 bytes, expected 60 (memref<5x3xf32>)"), "{error}");
    assert!(library.call("nope", &mut [], None).unwrap_err().to_string().contains("no function 'nope'"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn user_memory_pool_serves_the_temporary() {
    let dir = temp_dir("pool");
    let mut options = CompileOptions::default();
    options.pipeline.user_memory = true;
    let library = build(WITH_TEMPORARY, &options, &dir, "chain");
    let needed = library.function("chain").unwrap().user_memory_bytes.unwrap();
    assert!(needed >= 4 * 6 * 4, "the 4x6 temporary lives in the pool ({needed} bytes)");
    let a: Vec<f32> = (0..20).map(|i| (i % 3) as f32 - 1.0).collect();
    let b: Vec<f32> = (0..30).map(|i| (i % 5) as f32 * 0.5).collect();
    let c: Vec<f32> = (0..18).map(|i| (i % 4) as f32 - 1.5).collect();
    let (mut a_bytes, mut b_bytes, mut c_bytes, mut out) = (bytes(&a), bytes(&b), bytes(&c), vec![0u8; 48]);
    let mut pool = Pool::new(needed as usize).unwrap();
    library.call("chain", &mut [&mut a_bytes, &mut b_bytes, &mut c_bytes, &mut out], Some(&mut pool)).unwrap();
    let expected = product(&product(&a, &b, 4, 5, 6), &c, 4, 6, 3);
    assert_eq!(floats(&out), expected);
    let error = library.call("chain", &mut [&mut a_bytes, &mut b_bytes, &mut c_bytes, &mut out], None).unwrap_err();
    assert!(error.to_string().contains(&format!("needs a pool of {needed} bytes")), "{error}");
    let mut small = Pool::new(8).unwrap();
    let error = library.call("chain", &mut [&mut a_bytes, &mut b_bytes, &mut c_bytes, &mut out], Some(&mut small));
    assert!(error.is_err());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_programs_are_errors_with_locations() {
    let error = compile("func.func @f() {\n  retrun\n}\n", "bad.mlir", &CompileOptions::default()).err().unwrap();
    assert!(matches!(error, CompileError::Input(ref d) if d.contains("bad.mlir:2:3")), "{error}");
    let text = "func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {\n  return %x : tensor<?xf32>\n}\n";
    let error = compile(text, "dyn.mlir", &CompileOptions::default()).err().unwrap();
    assert!(
        matches!(error, CompileError::Stage { ref stage, ref diagnostics } if stage == "legalize" && diagnostics.contains("dynamic shape")),
        "{error}"
    );
}

/// `lower` (what the engine fuzzer runs) is `compile` without codegen: the
/// same ABI and the same errors.
#[test]
fn lower_stops_before_codegen_with_compile_s_errors() {
    let lowered = lower(MATMUL, "mm.mlir", &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let stages: Vec<&str> = lowered.timings.iter().map(|(stage, _)| stage.as_str()).collect();
    assert_eq!(stages, ["legalize", "graph", "affine", "lower", "llvm"]);
    let compiled = compile(MATMUL, "mm.mlir", &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(lowered.functions, compiled.manifest.functions);
    let text = "func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {\n  return %x : tensor<?xf32>\n}\n";
    let options = CompileOptions::default();
    assert_eq!(lower(text, "dyn.mlir", &options).err(), compile(text, "dyn.mlir", &options).err());
}

#[test]
fn target_overrides_are_checked() {
    let mut target = TargetDesc::generic();
    target.apply_overrides("cores=8 vector-bits=256 l2=2MiB matrix-units=amx-tile+amx-bf16").unwrap();
    assert_eq!((target.cores, target.vector_bits, target.f32_lanes()), (8, 256, 8));
    assert_eq!(target.cache_bytes(2), Some(2 << 20));
    assert_eq!(target.matrix_units, vec!["amx-tile", "amx-bf16"]);
    assert!(target.apply_overrides("cores=0").unwrap_err().contains("invalid value '0'"));
    assert!(target.apply_overrides("vector-bits=100").is_err());
    assert!(target.apply_overrides("l3=lots").is_err());
    assert!(target.apply_overrides("gpus=1").unwrap_err().contains("unknown target field 'gpus'"));
    assert!(TargetDesc::host().cores >= 1);
}
