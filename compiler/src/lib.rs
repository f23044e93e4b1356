//! # pb-compile
//!
//! The compile driver: MLIR text (what the framework fronts emit) → the
//! `cpu` pipeline, stage by stage (timed, optionally dumped) → LLVM IR →
//! optimized native object for the host CPU → a shared library for JIT use
//! (one exported C function per public `func.func`) or, for AOT, an object
//! file with a C header. A JSON manifest describes the ABI of both.
//!
//! Errors are values ([`CompileError`]) carrying rendered diagnostics that
//! name the op and its location; nothing here panics on bad input.
//!
//! Depends on pb-pipelines, pb-dialects, pb-support.

pub mod abi;
pub mod header;
pub mod link;
pub mod llvm;
mod llvm_ffi;
pub mod options;
mod split;

use abi::Manifest;
use melior::ir::Module;
use pb_pipelines::cpu::{CpuOptions, Stage};
use pb_support::{
    diagnostics::DiagnosticCapture,
    ffi,
    pass_builder::{add_pipeline, Registry},
};
use std::{
    fmt,
    path::PathBuf,
    time::{Duration, Instant},
};

/// The compile budget unless one is given: generous for any model we know
/// (resnet50 takes 5 s), short of what a user would wait for.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(60);

/// How to compile.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// The cpu pipeline's options: target description, vectorization,
    /// fusion, user memory pool, report.
    pub pipeline: CpuOptions,
    /// LLVM optimization level, 0 to 3.
    pub opt_level: u8,
    /// Write the IR after each stage (and the LLVM IR) into this folder.
    pub debug_dir: Option<PathBuf>,
    /// Keep the optimized LLVM IR in the result.
    pub keep_llvm_ir: bool,
    /// LLVM CPU to generate code for (its default features); the host CPU
    /// and all its features when `None`.
    pub llvm_cpu: Option<String>,
    /// Threads for LLVM's optimization and code generation: the module is
    /// compiled in up to this many parts, in parallel (0: one per core the
    /// process may use; 1: one part, one object).
    pub codegen_threads: usize,
    /// Print MLIR's wall-time report of every pass of each stage to stderr
    /// (one report per stage, as the stage's pass manager finishes).
    pub pass_timing: bool,
    /// Compile-time budget: past it, the planning passes leave the rest of
    /// the program unfused (and say so on stderr) instead of running on.
    /// `None`: no limit.
    pub budget: Option<Duration>,
    /// Input positions (of every public function) whose contents change
    /// only between calls the caller announces (a model's parameters):
    /// marked `pb.static`, so that work on them (packing a weight) is kept
    /// in the pool between calls. Needs the pool (`pipeline.pool`).
    pub static_args: Vec<usize>,
    /// Print `pb-compile: stage NAME` to stderr as each stage (and LLVM's
    /// code generation) starts, for a caller that reports progress.
    pub progress: bool,
    /// Verify the IR after every pass (MLIR's default), not only after each
    /// stage: names the pass that broke it, at ~10% of the compile time.
    pub verify_each: bool,
}

/// [`CompileOptions::verify_each`]'s default: on where
/// `$POLYBLOCKS_VERIFY_EACH` is set to anything but `0` (the test command
/// sets it), else off.
fn verify_each_default() -> bool {
    std::env::var_os("POLYBLOCKS_VERIFY_EACH").is_some_and(|v| v != "0")
}

impl Default for CompileOptions {
    fn default() -> Self {
        Self { pipeline: CpuOptions::host(), opt_level: 3, debug_dir: None, keep_llvm_ir: false, llvm_cpu: None, codegen_threads: 0, pass_timing: false, budget: Some(DEFAULT_BUDGET), static_args: Vec::new(), progress: false, verify_each: verify_each_default() }
    }
}

/// A compiled module.
pub struct Compiled {
    pub manifest: Manifest,
    /// ELF relocatable objects for the host, linked together (one unless
    /// code generation ran in parallel: `CompileOptions::codegen_threads`).
    pub objects: Vec<Vec<u8>>,
    pub llvm_ir: Option<String>,
    /// Wall time of each pipeline stage, then `llvm` code generation.
    pub timings: Vec<(String, Duration)>,
}

/// Why compilation failed.
#[derive(Debug, Clone, PartialEq)]
pub enum CompileError {
    /// The input does not parse or verify; rendered diagnostics.
    Input(String),
    /// A pipeline stage failed; rendered diagnostics.
    Stage {
        stage: String,
        diagnostics: String,
    },
    Llvm(String),
    Link(String),
    Io(String),
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::Input(d) => write!(f, "invalid input:\n{d}"),
            CompileError::Stage { stage, diagnostics } => write!(f, "the '{stage}' stage failed:\n{diagnostics}"),
            CompileError::Llvm(m) => write!(f, "LLVM: {m}"),
            CompileError::Link(m) => write!(f, "link: {m}"),
            CompileError::Io(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for CompileError {}

/// Compiles MLIR `text` (named `source_name` in diagnostics).
pub fn compile(text: &str, source_name: &str, options: &CompileOptions) -> Result<Compiled, CompileError> {
    let (Lowered { functions, errors, profile, mut timings }, (native, elapsed)) =
        lower_then(text, source_name, options, |module, diagnostics| {
            if options.progress {
                eprintln!("pb-compile: stage codegen");
            }
            let started = Instant::now();
            let keep_ir = options.keep_llvm_ir || options.debug_dir.is_some();
            let threads = match options.codegen_threads {
                0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
                n => n,
            };
            let native = llvm::compile_to_object(module, options.opt_level, options.llvm_cpu.as_deref(), keep_ir, threads)
                .map_err(|m| CompileError::Llvm(format!("{m}\n{}", diagnostics())))?;
            Ok((native, started.elapsed()))
        })?;
    timings.push(("codegen".into(), elapsed));
    if let Some(ir) = &native.llvm_ir {
        dump(options, "6-optimized.ll", || ir.clone())?;
    }
    let gpu = options.pipeline.gpu.as_ref().filter(|_| !options.pipeline.emulate).map(|g| g.chip.to_string());
    let manifest = Manifest { engine: engine_version(), functions, errors, profile, gpu };
    Ok(Compiled { manifest, objects: native.objects, llvm_ir: native.llvm_ir, timings })
}

/// What [`lower`] produces.
pub struct Lowered {
    /// The ABI of the public functions, as [`compile`]'s manifest has it.
    pub functions: Vec<abi::Function>,
    /// Messages of the code's run-time checks (`pb-asserts-to-errors`).
    pub errors: Vec<String>,
    /// The kernels `pb-profile-kernels` timed (with `profile`).
    pub profile: Option<pb_runtime::manifest::Profile>,
    /// Wall time of each pipeline stage.
    pub timings: Vec<(String, Duration)>,
}

/// Runs [`compile`] up to the end of the cpu pipeline: parse, verify, the
/// five stages (dumped with `debug_dir`) and the ABI check, leaving the
/// module in the LLVM dialect; no LLVM IR, code generation or linking.
/// The same errors as `compile` for inputs that fail before codegen (the
/// engine fuzzer, `fuzz/`, runs this).
pub fn lower(text: &str, source_name: &str, options: &CompileOptions) -> Result<Lowered, CompileError> {
    lower_then(text, source_name, options, |_, _| Ok(())).map(|(lowered, ())| lowered)
}

/// [`lower`], then `then` on the LLVM-dialect module, with a function
/// rendering the diagnostics reported since the last rendering.
fn lower_then<R>(
    text: &str,
    source_name: &str,
    options: &CompileOptions,
    then: impl FnOnce(&Module, &dyn Fn() -> String) -> Result<R, CompileError>,
) -> Result<(Lowered, R), CompileError> {
    let context = pb_dialects::create_context();
    // Ops of unknown dialects parse, so that pb-check-cpu-input can name them.
    context.set_allow_unregistered_dialects(true);
    let capture = DiagnosticCapture::attach(&context);
    let render = || -> String { capture.take().iter().map(|d| d.render_from(source_name, text)).collect() };
    let mut module = pb_dialects::stablehlo::parse_source(&context, text, source_name).ok_or_else(|| CompileError::Input(render()))?;
    if !pb_dialects::verify(module.as_operation()) {
        return Err(CompileError::Input(render()));
    }
    let inputs: Vec<(String, usize)> = pb_support::ir::public_functions(module.as_operation())
        .into_iter()
        .map(|f| (pb_support::ir::symbol_name(f), pb_support::ir::function_type(f).map_or(0, |t| t.input_count())))
        .collect();
    if !options.static_args.is_empty() {
        for func in pb_support::ir::public_functions(module.as_operation()) {
            let count = pb_support::ir::function_type(func).map_or(0, |t| t.input_count());
            if let Some(position) = options.static_args.iter().find(|p| **p >= count) {
                let name = pb_support::ir::symbol_name(func);
                return Err(CompileError::Input(format!("static argument {position}: @{name} has no input {position}")));
            }
            let unit = melior::ir::Attribute::unit(&context);
            pb_support::ir::add_argument_attribute(&context, func, pb_support::ir::STATIC_ARGUMENT, unit, |k| options.static_args.contains(&k));
        }
    }

    // Code for another CPU than the host may not have the host's AVX-512.
    let mut cpu_options = options.pipeline.clone();
    cpu_options.avx512 &= options.llvm_cpu.is_none();
    // Nor the host's matrix units (AMX tiles, VNNI): only those the target
    // overrides name.
    if options.llvm_cpu.is_some() && !cpu_options.units_named {
        cpu_options.target.matrix_units.clear();
    }
    // Nor FMA (math.fma would become a libm call), unless named.
    if options.llvm_cpu.is_some() && !cpu_options.fma_named {
        cpu_options.target.fma = false;
    }
    if let Some(budget) = options.budget {
        cpu_options.deadline_ms = pb_support::budget::deadline_after(budget);
    }
    let cpu_options = &cpu_options;
    let passes = pb_pipelines::all_passes();
    let registry = Registry { passes: &passes };
    let mut timings = Vec::new();
    let mut functions = Vec::new();
    let stages = pb_pipelines::stages(cpu_options).map_err(CompileError::Input)?;
    for (position, (stage, stage_pipeline)) in stages.iter().enumerate() {
        let stage = *stage;
        if options.progress {
            eprintln!("pb-compile: stage {stage}");
        }
        let started = Instant::now();
        let manager = ffi::pass_manager_on(&context, "builtin.module");
        manager.enable_verifier(options.verify_each);
        add_pipeline(manager.as_operation_pass_manager(), "builtin.module", stage_pipeline, registry)
            .map_err(|e| CompileError::Stage { stage: stage.to_string(), diagnostics: e.message })?;
        if options.pass_timing {
            eprintln!("pass timing of stage '{stage}':");
            ffi::enable_timing(&manager);
        }
        // Without `verify_each`, the stage's result is verified once here.
        if manager.run(&mut module).is_err() || (!options.verify_each && !stage_result_valid(&module)) {
            return Err(CompileError::Stage { stage: stage.to_string(), diagnostics: render() });
        }
        timings.push((stage.to_string(), started.elapsed()));
        dump(options, &format!("{}-{stage}.mlir", position + 1), || module.as_operation().to_string())?;
        // The calling convention is final once the stage before `llvm` has
        // run (the cpu pipeline's `lower` adds the pool argument).
        if position + 2 == stages.len() {
            functions = abi_of_public_functions(&module, &inputs, cpu_options.user_memory || cpu_options.pool);
        }
    }

    check_pointer_abi(&module, &functions).map_err(|message| CompileError::Stage {
        stage: Stage::Llvm.to_string(),
        diagnostics: message,
    })?;
    let errors = error_messages(&module);
    let profile = profile_description(&module);
    let result = then(&module, &render)?;
    Ok((Lowered { functions, errors, profile, timings }, result))
}

/// MLIR's verifier and our dialects' semantic checks on a stage's result.
fn stage_result_valid(module: &Module) -> bool {
    use melior::ir::operation::OperationLike;
    module.as_operation().verify() && pb_dialects::verify(module.as_operation())
}

/// The messages `pb-asserts-to-errors` listed on the module, in code order.
fn error_messages(module: &Module) -> Vec<String> {
    use melior::ir::{
        attribute::{ArrayAttribute, StringAttribute},
        operation::OperationLike,
    };
    let Ok(list) = module.as_operation().attribute(pb_conversions::asserts_to_errors::MESSAGES_ATTRIBUTE) else {
        return Vec::new();
    };
    let Ok(list) = ArrayAttribute::try_from(list) else { return Vec::new() };
    (0..list.len())
        .filter_map(|i| list.element(i).ok())
        .filter_map(|a| StringAttribute::try_from(a).ok().map(|s| s.value().to_string()))
        .collect()
}

/// The strings of the array attribute `name` of `dictionary`.
fn strings_of(dictionary: melior::ir::Attribute, name: &str) -> Vec<String> {
    use melior::ir::attribute::{ArrayAttribute, DictionaryAttribute, StringAttribute};
    let element = DictionaryAttribute::try_from(dictionary).ok().and_then(|d| d.element_by_name(name));
    let Some(list) = element.and_then(|e| ArrayAttribute::try_from(e).ok()) else { return Vec::new() };
    (0..list.len())
        .filter_map(|i| list.element(i).ok())
        .filter_map(|a| StringAttribute::try_from(a).ok().map(|s| s.value().to_string()))
        .collect()
}

/// What `pb-profile-kernels` recorded on the module, if it ran.
fn profile_description(module: &Module) -> Option<pb_runtime::manifest::Profile> {
    use melior::ir::operation::OperationLike;
    use pb_runtime::manifest::{Profile, ProfiledKernel};
    let attribute = module.as_operation().attribute(pb_transforms::profile_kernels::PROFILE_ATTRIBUTE).ok()?;
    let kernels = strings_of(attribute, "kernels")
        .iter()
        .map(|entry| {
            let mut fields = entry.split('\t').map(str::to_string);
            ProfiledKernel {
                function: fields.next().unwrap_or_default(),
                op: fields.next().unwrap_or_default(),
                sources: fields.collect(),
            }
        })
        .collect();
    Some(Profile { kernels, functions: strings_of(attribute, "functions") })
}

/// Routes LLVM fatal errors to a one-line message and exit status 1 (for
/// command-line tools built on this crate).
pub fn install_fatal_error_handler() {
    ffi::install_fatal_error_handler("polyblocks");
}

/// "polyblocks-rs X.Y.Z", recorded in manifests and headers.
pub fn engine_version() -> String {
    format!("polyblocks-rs {}", env!("CARGO_PKG_VERSION"))
}

fn abi_of_public_functions(module: &Module, inputs: &[(String, usize)], user_memory: bool) -> Vec<abi::Function> {
    pb_support::ir::public_functions(module.as_operation())
        .into_iter()
        .filter_map(|f| {
            let name = pb_support::ir::symbol_name(f);
            let count = inputs.iter().find(|(n, _)| *n == name).map_or(0, |(_, c)| *c);
            abi::function_abi(f, count, user_memory)
        })
        .collect()
}

/// Every public function must take one plain pointer or scalar per
/// manifest argument: a memref the bare-pointer convention refused would
/// make MLIR pass descriptors instead (several words per argument), and a
/// caller following the manifest would crash inside the function.
fn check_pointer_abi(module: &Module, functions: &[abi::Function]) -> Result<(), String> {
    use melior::ir::{block::BlockLike, operation::OperationLike, RegionLike};
    let body = module.body();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if !pb_support::ir::is_named(op, "llvm.func") {
            continue;
        }
        let name = pb_support::ir::symbol_name(op);
        let Some(function) = functions.iter().find(|f| f.name == name) else { continue };
        let arguments = op.region(0).ok().and_then(|r| r.first_block()).map_or(0, |b| b.argument_count());
        if arguments != function.args.len() {
            return Err(format!(
                "internal error: @{name} takes {arguments} machine arguments for its {} arguments \
(an argument type the C calling convention of plain pointers cannot pass); please report this",
                function.args.len()
            ));
        }
    }
    Ok(())
}

fn dump(options: &CompileOptions, file: &str, text: impl FnOnce() -> String) -> Result<(), CompileError> {
    let Some(dir) = &options.debug_dir else { return Ok(()) };
    std::fs::create_dir_all(dir).map_err(|e| CompileError::Io(format!("cannot create {}: {e}", dir.display())))?;
    let path = dir.join(file);
    std::fs::write(&path, text()).map_err(|e| CompileError::Io(format!("cannot write {}: {e}", path.display())))
}
