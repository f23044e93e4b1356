//! `pb-compile`: compile a `.mlir` module for the host CPU.
//!
//! ```text
//! pb-compile model.mlir -o libmodel.so                 # shared library + libmodel.json (JIT use)
//! pb-compile model.mlir -aot -aot-name model -o out/   # out/model.o, out/model.h, out/model.json
//! pb-compile model.mlir -aot -aot-user-memory ...      # + a trailing int8_t* pool argument
//! ```

use pb_compile::{compile, link, options::COMPILE_OPTIONS, CompileOptions};
use pb_pipelines::options::{apply_flag, PIPELINE_OPTIONS};
use std::path::PathBuf;

/// The driver's own flags; the compile options follow, from their tables.
const HELP: &str = "\
USAGE: pb-compile <input.mlir> [options]

  -o <path>             Output: the .so (default: lib<input>.so), or with -aot the folder (default: .)
  -aot                  Write an object file and a C header instead of a shared library
  -aot-name <name>      Base name of the AOT files (default: the input's stem)
  -aot-user-memory      Generated code allocates nothing: all temporaries come from a trailing
                        int8_t* argument whose size the header states
  --static-args=<i,j..> With --pool or -aot-user-memory: these input positions change only between
                        calls the caller announces (model parameters); weights read from them are
                        packed once into the pool, again when the caller zeroes the prepared flag
                        (its offset: the manifest's prepared_flag, the header's _PREPARED_FLAG_OFFSET)
  --openmp-dir=<dir>    Folder of LLVM's OpenMP runtime (libomp.so.5) to link and load (default: beside
                        pb-compile, in the polyblocks package installed with it, or LLVM 22's)
                        The linker: $POLYBLOCKS_CC, else cc, clang or gcc on PATH
  --debug-dir=<dir>     Write the IR after each stage and the optimized LLVM IR into <dir>
  --timing              Print the time of each stage
  --progress            Print 'pb-compile: stage NAME' as each stage starts (stderr)
  --pass-timing         Print MLIR's time report of every pass, one per stage (stderr)
  --verify-each         Verify the IR after every pass, naming the pass that broke it (default: after
                        each stage only; on where $POLYBLOCKS_VERIFY_EACH is set and not 0)
  --emit-llvm           Print the optimized LLVM IR to stdout (and write no library unless -o or -aot is given)
  --list-options        Print every compile option as JSON (what the Python fronts read) and exit
  -h, --help            This help

Compile options (also Python's compile_options, docs/options.md):
";

struct Args {
    input: PathBuf,
    output: Option<PathBuf>,
    aot: bool,
    aot_name: Option<String>,
    timing: bool,
    emit_llvm: bool,
    openmp_dir: Option<PathBuf>,
    options: CompileOptions,
}

fn value(arg: &str, rest: &mut impl Iterator<Item = String>, name: &str) -> Result<String, String> {
    match arg.split_once('=') {
        Some((_, v)) => Ok(v.to_string()),
        None => rest.next().ok_or_else(|| format!("option '{name}' needs a value")),
    }
}

/// What the command line asks for.
enum Command {
    Compile(Box<Args>),
    Help,
    ListOptions,
}

fn parse(args: &[String]) -> Result<Command, String> {
    let mut input = None;
    let mut parsed = Args {
        input: PathBuf::new(),
        output: None,
        aot: false,
        aot_name: None,
        timing: false,
        emit_llvm: false,
        openmp_dir: None,
        options: CompileOptions::default(),
    };
    let mut iter = args.iter().cloned();
    while let Some(arg) = iter.next() {
        let body = arg.trim_start_matches('-');
        let name = body.split('=').next().unwrap_or("");
        match name {
            _ if !arg.starts_with('-') => {
                if input.replace(PathBuf::from(&arg)).is_some() {
                    return Err("more than one input file".into());
                }
            }
            "h" | "help" => return Ok(Command::Help),
            "list-options" => return Ok(Command::ListOptions),
            "o" => parsed.output = Some(PathBuf::from(value(&arg, &mut iter, "-o")?)),
            "aot" => parsed.aot = true,
            "aot-name" => parsed.aot_name = Some(value(&arg, &mut iter, "-aot-name")?),
            "aot-user-memory" => parsed.options.pipeline.user_memory = true,
            "static-args" => {
                let list = value(&arg, &mut iter, "--static-args")?;
                parsed.options.static_args = list
                    .split(',')
                    .filter(|p| !p.is_empty())
                    .map(|p| p.trim().parse().map_err(|_| format!("invalid static argument position '{p}' in '{list}'")))
                    .collect::<Result<_, _>>()?;
            }
            "debug-dir" => parsed.options.debug_dir = Some(PathBuf::from(value(&arg, &mut iter, "--debug-dir")?)),
            "openmp-dir" => parsed.openmp_dir = Some(PathBuf::from(value(&arg, &mut iter, "--openmp-dir")?)),
            "timing" => parsed.timing = true,
            "progress" => parsed.options.progress = true,
            "pass-timing" => parsed.options.pass_timing = true,
            "verify-each" => parsed.options.verify_each = true,
            "emit-llvm" => {
                parsed.emit_llvm = true;
                parsed.options.keep_llvm_ir = true;
            }
            // -O<n>: --opt-level=<n>, as C compilers spell it.
            _ if name.starts_with('O') && name.len() == 2 && arg.starts_with("-O") => {
                let level = COMPILE_OPTIONS.iter().find(|s| s.flag == "opt-level").expect("opt-level is declared");
                (level.set)(&mut parsed.options, level.parse_value(&name[1..]).map_err(|_| format!("invalid optimization level '{arg}'"))?)?;
            }
            _ => {
                let applied = match apply_flag(PIPELINE_OPTIONS, &mut parsed.options.pipeline, body, &mut iter) {
                    Some(result) => result,
                    None => apply_flag(COMPILE_OPTIONS, &mut parsed.options, body, &mut iter)
                        .unwrap_or_else(|| Err(format!("unknown option '{arg}' (see pb-compile --help)"))),
                };
                applied?;
            }
        }
    }
    // An AOT object is always one part.
    if parsed.aot {
        parsed.options.codegen_threads = 1;
    }
    parsed.input = input.ok_or("no input file (see pb-compile --help)")?;
    if parsed.options.pipeline.user_memory && !parsed.aot {
        return Err("'-aot-user-memory' needs '-aot'".into());
    }
    // What is prepared from static inputs is kept in the pool: the JIT
    // runtime's, or the memory an AOT caller supplies.
    let pooled = if parsed.aot { parsed.options.pipeline.user_memory } else { parsed.options.pipeline.pool };
    if !parsed.options.static_args.is_empty() && !pooled {
        return Err("'--static-args' needs a pool to keep what is prepared from them: '--pool', or with '-aot' '-aot-user-memory'".into());
    }
    if parsed.options.pipeline.emulate && parsed.options.pipeline.gpu.is_none() {
        return Err("'--emulate' needs '--gpu'".into());
    }
    if parsed.options.pipeline.gpu.is_some() && !parsed.options.pipeline.emulate {
        if parsed.aot {
            return Err("'-aot' with '--gpu' is not supported yet (JIT libraries only)".into());
        }
        // Kernels allocate on the device; the host's pool does not apply.
        parsed.options.pipeline.pool = false;
    }
    Ok(Command::Compile(Box::new(parsed)))
}

fn run(args: Args) -> Result<(), String> {
    let text =
        std::fs::read(&args.input).map_err(|e| format!("cannot open input file '{}': {e}", args.input.display()))?;
    let text =
        String::from_utf8(text).map_err(|_| format!("input '{}' is not UTF-8 MLIR text", args.input.display()))?;
    let source_name = args.input.display().to_string();
    let compiled = compile(&text, &source_name, &args.options).map_err(|e| e.to_string())?;
    if args.timing {
        for (stage, time) in &compiled.timings {
            eprintln!("{stage:>10}: {:8.2} ms", time.as_secs_f64() * 1e3);
        }
    }
    if args.emit_llvm {
        print!("{}", compiled.llvm_ir.as_deref().unwrap_or_default());
        if args.output.is_none() && !args.aot {
            return Ok(());
        }
    }
    let stem = args.input.file_stem().and_then(|s| s.to_str()).unwrap_or("out").to_string();
    if args.aot {
        let name = args.aot_name.unwrap_or(stem);
        let dir = args.output.unwrap_or_else(|| PathBuf::from("."));
        let (object, header) = link::write_aot(&compiled, &dir, &name).map_err(|e| e.to_string())?;
        eprintln!("pb-compile: wrote {} and {}", object.display(), header.display());
        // What a program linking the object needs besides it (its parallel
        // loops call LLVM's OpenMP runtime).
        let mut flags = link::openmp_link_args(&link::openmp_dir(args.openmp_dir.as_deref()).map_err(|e| e.to_string())?);
        flags.push("-lm".into());
        eprintln!("pb-compile: link flags: {}", flags.join(" "));
    } else {
        let library = args.output.unwrap_or_else(|| PathBuf::from(format!("lib{stem}.so")));
        let linker = link::write_shared_library(&compiled, &library, args.openmp_dir.as_deref()).map_err(|e| e.to_string())?;
        eprintln!("pb-compile: wrote {} (linked by {})", library.display(), linker.display());
    }
    Ok(())
}

fn main() {
    pb_support::ffi::install_fatal_error_handler("pb-compile");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match parse(&args) {
        Ok(Command::Help) => {
            print!("{HELP}{}", pb_compile::options::options_help());
            0
        }
        Ok(Command::ListOptions) => {
            print!("{}", pb_compile::options::options_json());
            0
        }
        Ok(Command::Compile(args)) => match run(*args) {
            Ok(()) => 0,
            Err(message) => {
                eprintln!("pb-compile: error: {message}");
                1
            }
        },
        Err(message) => {
            eprintln!("pb-compile: error: {message}");
            1
        }
    };
    std::process::exit(code);
}
