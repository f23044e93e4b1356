//! The compile options, each declared once, here or in the compile
//! driver's table (`pb_compile::options`), which uses these types.
//!
//! From its entry an option reaches every place that names it: the
//! command lines of `pb-compile` (`--FLAG`) and `pb-opt` (`--pb-FLAG`,
//! pipeline options only), the Python fronts' `compile_options` (which read
//! the tables from `pb-compile --list-options`, JSON), the disk-cache key
//! (options that change code) and `docs/options.md` (generated). A switch
//! is spelled `--FLAG`, `--no-FLAG` or `--FLAG=true|false`; a value
//! `--FLAG=VALUE` or `--FLAG VALUE`.

use crate::cpu::CpuOptions;
use pb_support::gpu_target::GpuDesc;
use std::fmt::Write;

/// What an option holds, with its default.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Switch(bool),
    Int { default: i64, min: i64, max: i64 },
    /// A non-negative number (e.g. seconds); 0 often means "none".
    Seconds(f64),
    /// Free text, parsed by the option's setter; no default (`None`).
    Text,
}

/// A parsed option value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
}

/// One compile option of the options `T` it sets.
pub struct OptionSpec<T: 'static> {
    /// The name in Python's `compile_options` and in the docs.
    pub name: &'static str,
    /// The command-line flag, without dashes.
    pub flag: &'static str,
    pub help: &'static str,
    pub kind: Kind,
    /// Offered to the Python fronts as a `compile_options` key (the others
    /// are set by the fronts themselves, e.g. the memory pool).
    pub python: bool,
    /// The generated code depends on it: part of the disk-cache key.
    pub changes_code: bool,
    pub set: fn(&mut T, Value) -> Result<(), String>,
}

impl<T> OptionSpec<T> {
    /// Parses `text` as this option's value.
    pub fn parse_value(&self, text: &str) -> Result<Value, String> {
        let flag = self.flag;
        match self.kind {
            Kind::Switch(_) => match text {
                "true" | "1" => Ok(Value::Bool(true)),
                "false" | "0" => Ok(Value::Bool(false)),
                _ => Err(format!("option '--{flag}' expects true or false, got '{text}'")),
            },
            Kind::Int { min, max, .. } => text
                .parse::<i64>()
                .ok()
                .filter(|v| (min..=max).contains(v))
                .map(Value::Int)
                .ok_or_else(|| format!("option '--{flag}' expects an integer from {min} to {max}, got '{text}'")),
            Kind::Seconds(_) => text
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .map(Value::Float)
                .ok_or_else(|| format!("option '--{flag}' expects a number >= 0, got '{text}'")),
            Kind::Text => Ok(Value::Text(text.to_string())),
        }
    }

    fn default_json(&self) -> String {
        match self.kind {
            Kind::Switch(b) => b.to_string(),
            Kind::Int { default, .. } => default.to_string(),
            Kind::Seconds(s) => format!("{s:?}"),
            Kind::Text => "null".into(),
        }
    }

    /// The option as one JSON object (`pb-compile --list-options`).
    pub fn to_json(&self, scope: &str) -> String {
        let kind = match self.kind {
            Kind::Switch(_) => r#""switch""#.to_string(),
            Kind::Int { min, max, .. } => format!(r#""int", "min": {min}, "max": {max}"#),
            Kind::Seconds(_) => r#""seconds""#.to_string(),
            Kind::Text => r#""text""#.to_string(),
        };
        format!(
            r#"{{"name": "{}", "flag": "{}", "scope": "{scope}", "kind": {kind}, "default": {}, "python": {}, "changes_code": {}, "help": {}}}"#,
            self.name,
            self.flag,
            self.default_json(),
            self.python,
            self.changes_code,
            json_string(self.help)
        )
    }
}

fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// If `body` (an argument without its leading dashes and `prefix`) names
/// an option of `table`, sets it on `target`, taking a separate value from
/// `rest` where needed: `Some(result)`; `None` when it names none.
pub fn apply_flag<T, I: Iterator<Item = String>>(
    table: &[OptionSpec<T>],
    target: &mut T,
    body: &str,
    rest: &mut I,
) -> Option<Result<(), String>> {
    let (flag, inline) = match body.split_once('=') {
        Some((flag, value)) => (flag, Some(value)),
        None => (body, None),
    };
    if let Some(spec) = table.iter().find(|s| s.flag == flag) {
        let value = match (spec.kind, inline) {
            (Kind::Switch(_), None) => Ok(Value::Bool(true)),
            (_, Some(text)) => spec.parse_value(text),
            (_, None) => rest.next().ok_or_else(|| format!("option '--{flag}' needs a value")).and_then(|t| spec.parse_value(&t)),
        };
        return Some(value.and_then(|v| (spec.set)(target, v)));
    }
    let negated = flag.strip_prefix("no-")?;
    let spec = table.iter().find(|s| s.flag == negated && matches!(s.kind, Kind::Switch(_)))?;
    Some(match inline {
        Some(_) => Err(format!("option '--no-{negated}' takes no value")),
        None => (spec.set)(target, Value::Bool(false)),
    })
}

fn switch(value: Value) -> bool {
    matches!(value, Value::Bool(true))
}

fn text(value: Value) -> String {
    match value {
        Value::Text(t) => t,
        other => format!("{other:?}"),
    }
}

/// The cpu (and nvgpu) pipelines' options: `pb-compile --FLAG`,
/// `pb-opt --pb-FLAG`.
pub static PIPELINE_OPTIONS: &[OptionSpec<CpuOptions>] = &[
    OptionSpec {
        name: "vectorize",
        flag: "vectorize",
        help: "vectorize innermost loops at the target's vector width (pb-vectorize)",
        kind: Kind::Switch(true),
        python: true,
        changes_code: true,
        set: |o, v| {
            o.vectorize = switch(v);
            Ok(())
        },
    },
    OptionSpec {
        name: "fuse",
        flag: "fuse",
        help: "fuse producer loop nests into their consumers by overlapped tiling (pb-fuse)",
        kind: Kind::Switch(true),
        python: true,
        changes_code: true,
        set: |o, v| {
            o.fuse = switch(v);
            Ok(())
        },
    },
    OptionSpec {
        name: "fp_contract",
        flag: "fp-contract",
        help: "fuse a product with the add or subtract using it (one FMA, one rounding, as C compilers do)",
        kind: Kind::Switch(true),
        python: true,
        changes_code: true,
        set: |o, v| {
            o.fp_contract = switch(v);
            Ok(())
        },
    },
    OptionSpec {
        name: "channels_last",
        flag: "channels-last",
        help: "store convolutions' feature maps channels-last (N x H x W x C) inside the compiled graph, converted only \
               where it enters or leaves that layout (inputs and outputs keep the framework's layout)",
        kind: Kind::Switch(true),
        python: true,
        changes_code: true,
        set: |o, v| {
            o.channels_last = switch(v);
            Ok(())
        },
    },
    OptionSpec {
        name: "interleave",
        flag: "interleave",
        help: "vector loops evaluating exp, log, tanh, erf or powf take this many times the target's vector width: \
               independent polynomial chains side by side (pb-vectorize; 1: the native width)",
        kind: Kind::Int { default: 2, min: 1, max: 4 },
        python: true,
        changes_code: true,
        set: |o, v| {
            if let Value::Int(factor) = v {
                o.interleave = factor as u64;
            }
            Ok(())
        },
    },
    OptionSpec {
        name: "outline",
        flag: "outline",
        help: "compile each distinct kernel once, in a function of its own, however often the program repeats it \
               (pb-outline-kernels; off: slower compiles)",
        kind: Kind::Switch(true),
        python: true,
        changes_code: true,
        set: |o, v| {
            o.outline = switch(v);
            Ok(())
        },
    },
    OptionSpec {
        name: "profile",
        flag: "profile",
        help: "time every generated kernel; print per kernel its share of the run time and the source lines fused into \
               it at exit (polyblocks.profile.report(); or POLYBLOCKS_PROFILE=1)",
        kind: Kind::Switch(false),
        python: true,
        changes_code: true,
        set: |o, v| {
            o.profile = switch(v);
            Ok(())
        },
    },
    OptionSpec {
        name: "report",
        flag: "report",
        help: "print per loop nest what was fused or tiled, the sizes chosen and why (compiles even on a cache hit; \
               Python: True, or the name of an .html file to write a report with a picture of the fused groups over \
               the source operators, the kernels' shares of the run time and these decisions)",
        kind: Kind::Switch(false),
        python: true,
        changes_code: false,
        set: |o, v| {
            o.report = switch(v);
            Ok(())
        },
    },
    OptionSpec {
        name: "upstream_affine",
        flag: "upstream-affine",
        help: "for comparison: loop optimization by upstream MLIR passes only (affine-loop-fusion, -tile, \
               -super-vectorize, -parallelize) instead of ours",
        kind: Kind::Switch(false),
        python: true,
        changes_code: true,
        set: |o, v| {
            o.upstream_affine = switch(v);
            Ok(())
        },
    },
    OptionSpec {
        name: "target_overrides",
        flag: "target",
        help: "overrides of the host's target description, e.g. 'cores=1 vector-bits=256' (pb-opt --pb-print-target \
               shows the fields)",
        kind: Kind::Text,
        python: true,
        changes_code: true,
        set: |o, v| {
            let overrides = text(v);
            let mut target = o.target.clone();
            target.apply_overrides(&overrides)?;
            o.set_target(target);
            o.units_named |= overrides.contains("matrix-units=");
            o.fma_named |= overrides.contains("fma=");
            Ok(())
        },
    },
    OptionSpec {
        name: "gpu",
        flag: "gpu",
        help: "nvgpu, amdgpu: the GPU to compile for, 'sm_80', 'sm_86', 'sm_89', 'sm_90' or 'gfx1100' (default: the \
               NVIDIA GPU present, else 'sm_80'; 'gfx1100' for amdgpu)",
        kind: Kind::Text,
        python: true,
        changes_code: true,
        set: |o, v| {
            o.gpu = Some(GpuDesc::named(&text(v))?);
            Ok(())
        },
    },
    OptionSpec {
        name: "emulate",
        flag: "emulate",
        help: "nvgpu, amdgpu: run the GPU mapping on the CPU instead (kernels as loops over grid and block, \
               barrier phases in turn), to check it without a GPU",
        kind: Kind::Switch(false),
        python: true,
        changes_code: true,
        set: |o, v| {
            o.emulate = switch(v);
            Ok(())
        },
    },
    OptionSpec {
        name: "pool",
        flag: "pool",
        help: "temporaries (those a pool can take) from a trailing pool argument the caller keeps between calls \
               (what the Python runtime does)",
        kind: Kind::Switch(false),
        python: false,
        changes_code: true,
        set: |o, v| {
            o.pool = switch(v);
            Ok(())
        },
    },
];
