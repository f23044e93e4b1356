//! Command-line parsing for pb-opt, compatible with mlir-opt's spelling.
//!
//! Driver flags are recognised by name; every other `--name[=options]` is a
//! pass in the short form (`--canonicalize --pb-simplify-quant="x=1"`),
//! resolved against our passes and upstream's in order of appearance.

use pb_pipelines::{
    cpu::CpuOptions,
    options::{apply_flag, Kind, PIPELINE_OPTIONS},
};
use pb_support::{pass_builder::Registry, upstream};

/// What pb-opt was asked to do.
#[derive(Debug, Default, Clone)]
pub struct Options {
    pub input: Option<String>,
    pub output: Option<String>,
    /// The pipeline, from `--pass-pipeline` or assembled from short-form flags.
    pub pipeline: String,
    pub split_input_file: bool,
    pub verify_diagnostics: bool,
    pub allow_unregistered_dialect: bool,
    pub print_ir_before_all: bool,
    pub print_ir_after_all: bool,
    pub print_generic: bool,
    pub print_debuginfo: bool,
    pub timing: bool,
    pub disable_threading: bool,
    pub dump_pass_pipeline: bool,
    pub verify_each: bool,
    pub list_passes: bool,
    /// `--pb-pipeline=cpu`: a named pipeline instead of a pass list.
    pub named_pipeline: Option<String>,
    pub stop_after: Option<String>,
    pub start_after: Option<String>,
    /// The named pipelines' options, `--pb-FLAG` for each entry of
    /// `pb_pipelines::options::PIPELINE_OPTIONS` (e.g. `--pb-target="cores=2
    /// vector-bits=256"`, `--pb-no-fuse`, `--pb-report`, `--pb-gpu=sm_90`),
    /// applied in order to the host's defaults; `None` if none was given.
    pub pipeline_options: Option<CpuOptions>,
    pub markdown: bool,
    pub print_target: bool,
    pub help: bool,
    pub version: bool,
}

/// The text of `--help`.
pub const HELP: &str = "\
OVERVIEW: pb-opt: run upstream MLIR passes and polyblocks passes on MLIR files

USAGE: pb-opt [options] [input file, or - for stdin]

OPTIONS:
  -o <file>                      Write the output to <file> (default: stdout)
  --pass-pipeline=<pipeline>     A textual pipeline, e.g.
                                 'builtin.module(func.func(pb-simplify-quant,canonicalize))'
  --<pass>[=<options>]           Add one pass (ours or upstream), in order, e.g.
                                 --canonicalize --pb-simplify-quant
  --pb-pipeline=<name>           Run a named pipeline: cpu, nvgpu, amdgpu
  --pb-stop-after=<stage>        ...only up to a stage (cpu: legalize, graph, affine, lower, llvm;
                                 nvgpu, amdgpu: legalize, graph, affine, gpu-map, gpu-lower, llvm)
  --pb-start-after=<stage>       ...only the stages after one (input: that stage's output, e.g. edited by hand)
  --pb-print-target              Print the target description (with --pb-target) and exit
  --split-input-file             Process each chunk between '// -----' lines on its own
  --verify-diagnostics           Check diagnostics against expected-error/warning/remark/note
                                 comments instead of printing them
  --allow-unregistered-dialect   Accept ops of unknown dialects
  --mlir-print-ir-before-all     Print the IR before each pass (to stderr)
  --mlir-print-ir-after-all      Print the IR after each pass (to stderr)
  --mlir-print-op-generic        Print ops in generic form
  --mlir-print-debuginfo         Print locations
  --mlir-timing                  Report the time of each pass (to stderr)
  --mlir-disable-threading       Run passes on one thread
  --verify-each=<bool>           Verify the IR after each pass (default: true)
  --dump-pass-pipeline           Print the pass pipeline that will run (to stderr)
  --list-passes [--markdown]     List our passes and upstream's
  --version                      Print the version
  -h, --help                     Print this help

OPTIONS OF THE NAMED PIPELINES (as pb-compile's, docs/options.md; a switch also as --pb-no-FLAG;
where --pb-FLAG is also a pass's name, e.g. --pb-fuse, it means the pass):
";

/// `--help`: the fixed text, then the pipeline options from their table.
pub fn help() -> String {
    let mut text = HELP.to_string();
    for spec in PIPELINE_OPTIONS {
        let spelling = match spec.kind {
            Kind::Switch(_) => format!("--pb-[no-]{}", spec.flag),
            _ => format!("--pb-{}=<value>", spec.flag),
        };
        text.push_str(&format!("  {spelling:<31}{}\n", spec.help));
    }
    text
}

fn flag_value(arg: &str, args: &mut std::slice::Iter<String>, name: &str) -> Result<String, String> {
    match arg.split_once('=') {
        Some((_, value)) => Ok(value.to_string()),
        None => args.next().cloned().ok_or_else(|| format!("option '{name}' needs a value")),
    }
}

fn parse_bool(name: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(format!("option '{name}' expects true or false, got '{value}'")),
    }
}

/// Whether `flag` names a pipeline option: its flag, or `no-` and a
/// switch's flag.
fn is_pipeline_flag(flag: &str) -> bool {
    PIPELINE_OPTIONS.iter().any(|s| s.flag == flag)
        || flag
            .strip_prefix("no-")
            .is_some_and(|n| PIPELINE_OPTIONS.iter().any(|s| s.flag == n && matches!(s.kind, Kind::Switch(_))))
}

/// Parses the arguments (without the program name).
pub fn parse(args: &[String], registry: Registry) -> Result<Options, String> {
    let mut options = Options { verify_each: true, ..Options::default() };
    let mut short_form: Vec<String> = Vec::new();
    let mut pass_pipeline: Option<String> = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "-" || !arg.starts_with('-') {
            if let Some(first) = &options.input {
                return Err(format!("more than one input file: '{first}' and '{arg}'"));
            }
            options.input = Some(arg.clone());
            continue;
        }
        let body = arg.trim_start_matches('-');
        let name = body.split('=').next().unwrap_or(body);
        let switch = |options: &mut Options, set: fn(&mut Options)| {
            set(options);
            Ok::<(), String>(())
        };
        match name {
            "o" => options.output = Some(flag_value(arg, &mut iter, "-o")?),
            "pass-pipeline" => pass_pipeline = Some(flag_value(arg, &mut iter, "--pass-pipeline")?),
            "split-input-file" => switch(&mut options, |o| o.split_input_file = true)?,
            "verify-diagnostics" => switch(&mut options, |o| o.verify_diagnostics = true)?,
            "allow-unregistered-dialect" => switch(&mut options, |o| o.allow_unregistered_dialect = true)?,
            "mlir-print-ir-before-all" => switch(&mut options, |o| o.print_ir_before_all = true)?,
            "mlir-print-ir-after-all" => switch(&mut options, |o| o.print_ir_after_all = true)?,
            "mlir-print-op-generic" => switch(&mut options, |o| o.print_generic = true)?,
            "mlir-print-debuginfo" => switch(&mut options, |o| o.print_debuginfo = true)?,
            "mlir-timing" => switch(&mut options, |o| o.timing = true)?,
            "mlir-disable-threading" => switch(&mut options, |o| o.disable_threading = true)?,
            "dump-pass-pipeline" => switch(&mut options, |o| o.dump_pass_pipeline = true)?,
            "verify-each" => {
                options.verify_each = match body.split_once('=') {
                    Some((_, value)) => parse_bool("--verify-each", value)?,
                    None => true,
                }
            }
            "list-passes" => switch(&mut options, |o| o.list_passes = true)?,
            "pb-pipeline" => options.named_pipeline = Some(flag_value(arg, &mut iter, "--pb-pipeline")?),
            "pb-stop-after" => options.stop_after = Some(flag_value(arg, &mut iter, "--pb-stop-after")?),
            "pb-start-after" => options.start_after = Some(flag_value(arg, &mut iter, "--pb-start-after")?),
            "pb-print-target" => switch(&mut options, |o| o.print_target = true)?,
            "markdown" => switch(&mut options, |o| o.markdown = true)?,
            "h" | "help" => switch(&mut options, |o| o.help = true)?,
            "version" => switch(&mut options, |o| o.version = true)?,
            _ if registry.find(name).is_some() || upstream::find(name).is_some() => {
                let pass_options = body.split_once('=').map(|(_, v)| v).unwrap_or("");
                let pass_options = pass_options.trim_matches(|c| c == '"' || c == '\'');
                if pass_options.is_empty() {
                    short_form.push(name.to_string());
                } else {
                    short_form.push(format!("{name}{{{pass_options}}}"));
                }
            }
            // A pipeline option, unless a pass has its name (`--pb-fuse` is
            // the pass; `--pb-no-fuse` the option).
            _ if name.strip_prefix("pb-").is_some_and(is_pipeline_flag) => {
                let pipeline = options.pipeline_options.get_or_insert_with(CpuOptions::host);
                let mut rest = (&mut iter).cloned();
                apply_flag(PIPELINE_OPTIONS, pipeline, &body[3..], &mut rest)
                    .unwrap_or_else(|| Err(format!("unknown option '{arg}'")))?;
            }
            _ => {
                let mut message = format!("unknown option or pass '{arg}'");
                let suggestions = registry.suggestions(name);
                if !suggestions.is_empty() {
                    message.push_str(&format!("; did you mean --{}?", suggestions.join(", --")));
                }
                message.push_str(" (see pb-opt --help and pb-opt --list-passes)");
                return Err(message);
            }
        }
    }
    if options.stop_after.is_some() && options.named_pipeline.is_none() {
        return Err("'--pb-stop-after' needs '--pb-pipeline'".into());
    }
    if options.start_after.is_some() && options.named_pipeline.is_none() {
        return Err("'--pb-start-after' needs '--pb-pipeline'".into());
    }
    if options.named_pipeline.is_some() && (pass_pipeline.is_some() || !short_form.is_empty()) {
        return Err("'--pb-pipeline' cannot be combined with '--pass-pipeline' or passes given as options".into());
    }
    options.pipeline = match (pass_pipeline, short_form.is_empty()) {
        (Some(_), false) => {
            return Err("'--pass-pipeline' cannot be combined with passes given as separate options".into())
        }
        (Some(pipeline), true) => pipeline,
        (None, _) => short_form.join(","),
    };
    Ok(options)
}
