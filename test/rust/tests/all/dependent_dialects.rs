//! Each pass declares the dialects whose ops it creates
//! (`RustPass::dependent_dialects`), checked against its source: the op
//! names (`"vector.load"`, `e.binary("arith.addf", ..)`, MLIR text of
//! kernels, `= affine.load ...`) in string literals of the pass's file and of
//! the helpers it calls, leaving out names that are only matched
//! (`is_named(op, "linalg.generic")`, `top_level_users(m, "affine.store", b)`,
//! `"arith.addf" =>`, lists checked with
//! `.contains`/`.any`), and melior dialect calls (`arith::addf(`).

use pb_support::{PassInfo, PassOptions};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Every dialect namespace a pass could create ops of.
const DIALECTS: &[&str] = &[
    "affine", "amdgpu", "amx", "arith", "bufferization", "cf", "complex", "func", "gpu", "index", "linalg", "llvm", "math", "memref",
    "nvvm", "pbq", "scf", "stablehlo", "tensor", "ub", "vector", "x86vector",
];

/// Helper modules that build ops for the passes naming them.
const HELPER_FILES: &[(&str, &str)] = &[
    ("text_kernel::", "transforms/src/text_kernel.rs"),
    ("operand_expr::", "transforms/src/operand_expr.rs"),
    ("affine_access::", "transforms/src/affine_access.rs"),
    ("index_eval::", "transforms/src/index_eval.rs"),
    ("linalg_ops::", "transforms/src/linalg_ops.rs"),
    ("fuse_cache::", "transforms/src/fuse_cache.rs"),
    ("Codegen::new", "polyhedral/src/codegen.rs"),
    ("driver::regenerate", "polyhedral/src/codegen.rs"),
];

/// `pb_support::builder` functions and the dialects of the ops they build.
const BUILDER_HELPERS: &[(&str, &[&str])] = &[
    ("affine_for", &["affine"]),
    ("index_constant_operation", &["arith"]),
    ("generic_operation", &["linalg"]),
    ("elementwise_generic", &["linalg"]),
    (".generic(", &["linalg"]),
    ("extract_slice_operation", &["tensor"]),
    ("insert_slice_operation", &["tensor"]),
    ("emitter.float(", &["arith"]),
    ("emitter.index(", &["arith"]),
    ("emitter.integer(", &["arith"]),
    ("e.float(", &["arith"]),
    ("e.index(", &["arith"]),
    ("e.integer(", &["arith"]),
    // emit_at.rs: `Emit::apply` builds an `affine.apply`.
    ("e.apply(", &["affine"]),
    // support's fusion_shim.cpp: fused generics, reshapes moved by
    // expansion, folded constants, canonicalized affine.apply.
    ("ffi::fuse_elementwise(", &["linalg", "tensor", "arith", "affine"]),
    // register_tile.rs: the prepared flag's load and comparison (and the
    // flag's allocation and setting), buffers the pool keeps.
    ("stale_flag(", &["memref", "arith"]),
    ("persistent_buffer(", &["memref"]),
    // register_tile.rs: `scf.if` on the prepared flag.
    ("when_stale(", &["scf"]),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A string literal: its line, the code before and after it on its
/// first and last line, and its text as written (escapes not decoded).
struct Literal {
    line: usize,
    before: String,
    after: String,
    text: String,
}

/// The string literals of Rust `source` (comments skipped).
fn literals(source: &str) -> Vec<Literal> {
    let chars: Vec<char> = source.chars().collect();
    let line_of = |i: usize| chars[..i].iter().filter(|c| **c == '\n').count() + 1;
    // The code before `i` on its line, and after `i` to the end of the
    // statement (`;` or `{`, at most 300 characters): a list of names is
    // often checked on the next line (`.iter().any(|n| is_named(op, n))`).
    let line_text = |i: usize| -> (String, String) {
        let start = chars[..i].iter().rposition(|c| *c == '\n').map_or(0, |p| p + 1);
        let end = chars[i..].iter().take(300).position(|c| *c == ';' || *c == '{').map_or((i + 300).min(chars.len()), |p| i + p);
        (chars[start..i].iter().collect(), chars[i..end].iter().collect())
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '\'' => {
                // A char literal ('"', '\n') or a lifetime.
                if chars.get(i + 1) == Some(&'\\') {
                    i += 2;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                } else if chars.get(i + 2) == Some(&'\'') {
                    i += 2;
                }
                i += 1;
            }
            'r' if (chars.get(i + 1) == Some(&'"') || chars.get(i + 1) == Some(&'#'))
                && (i == 0 || !chars[i - 1].is_alphanumeric() && chars[i - 1] != '_') =>
            {
                let mut j = i + 1;
                let mut hashes = 0;
                while chars.get(j) == Some(&'#') {
                    hashes += 1;
                    j += 1;
                }
                if chars.get(j) != Some(&'"') {
                    i += 1;
                    continue;
                }
                let start = j + 1;
                let mut k = start;
                while k < chars.len() && !(chars[k] == '"' && chars[k + 1..].iter().take(hashes).filter(|c| **c == '#').count() == hashes) {
                    k += 1;
                }
                let (before, _) = line_text(i);
                let (_, after) = line_text((k + 1 + hashes).min(chars.len()));
                out.push(Literal { line: line_of(i), before, after, text: chars[start..k].iter().collect() });
                i = k + 1 + hashes;
            }
            '"' => {
                let start = i + 1;
                let mut k = start;
                while k < chars.len() && chars[k] != '"' {
                    if chars[k] == '\\' {
                        k += 1;
                    }
                    k += 1;
                }
                let (before, _) = line_text(i);
                let (_, after) = line_text((k + 1).min(chars.len()));
                out.push(Literal { line: line_of(i), before, after, text: chars[start..k.min(chars.len())].iter().collect() });
                i = k + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// `dialect.op` at the start of `text`: the dialect if `text` starts with
/// an op name of a known dialect.
fn op_dialect(text: &str) -> Option<&'static str> {
    DIALECTS.iter().copied().find(|d| {
        text.strip_prefix(d)
            .and_then(|rest| rest.strip_prefix('.'))
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_lowercase() || c == '_'))
    })
}

fn is_op_name(text: &str) -> bool {
    op_dialect(text).is_some() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// Documentation and messages, not code: pass descriptions, panics.
fn is_prose(literal: &Literal) -> bool {
    let before = literal.before.trim_end();
    ["description:", "summary:", "help:", "expect(", "panic!(", "unreachable!("].iter().any(|p| before.ends_with(p))
}

/// A whole-literal op name that the code only compares against (or an
/// attribute name).
fn only_matched(literal: &Literal) -> bool {
    let before = literal.before.trim_end();
    let after = literal.after.trim_start();
    let line = format!("{}{}", literal.before, literal.after);
    before.ends_with("==")
        || before.ends_with("anchor:")
        || before.ends_with("!=")
        || before.ends_with('|')
        || after.starts_with("=>")
        || after.starts_with('|')
        || after.starts_with(')')
        || after.starts_with("==")
        || ["is_named", "top_level_users(", "matches!", ".contains(", ".any(", "starts_with", "strip_prefix", ".name()", "op_name"]
            .iter()
            .any(|marker| line.contains(marker))
        // Attribute names: `named("llvm.linkage", ..)`, `set_attribute(op, "x.y", ..)`.
        || ["attribute(", "named("].iter().any(|marker| literal.before.contains(marker))
}

/// Dialects whose ops the code of `source` creates, with a line of each.
fn created(source: &str) -> Vec<(&'static str, usize)> {
    let mut found = Vec::new();
    for literal in literals(source) {
        let text = literal.text.as_str();
        if is_prose(&literal) {
            continue;
        }
        if is_op_name(text) {
            if !only_matched(&literal) {
                found.push((op_dialect(text).unwrap(), literal.line));
            }
            continue;
        }
        // MLIR text (kernels): an op after `= `, at the start of the text or
        // of one of its lines.
        let starts = std::iter::once(0)
            .chain(text.match_indices("= ").map(|(i, _)| i + 2))
            .chain(text.match_indices("\\n").map(|(i, _)| i + 2))
            .chain(text.match_indices('\n').map(|(i, _)| i + 1));
        for start in starts {
            let rest = text[start..].trim_start();
            if let Some(dialect) = op_dialect(rest) {
                // A kernel line: the op name is followed by an operand, a
                // region or the end of the text.
                let name_end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')).unwrap_or(rest.len());
                if rest[name_end..].is_empty() || rest[name_end..].starts_with([' ', '{', '(']) {
                    found.push((dialect, literal.line));
                }
            }
        }
    }
    // melior's dialect modules: `arith::addf(`, `scf::r#for(`.
    for (number, line) in source.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        for dialect in DIALECTS {
            let call = format!("{dialect}::");
            for (at, _) in line.match_indices(&call) {
                let before_ok = at == 0 || !line[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':');
                let rest = &line[at + call.len()..];
                let name_end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '#')).unwrap_or(rest.len());
                if before_ok && name_end > 0 && rest[..name_end].starts_with(|c: char| c.is_ascii_lowercase() || c == 'r') && rest[name_end..].starts_with('(') {
                    found.push((*dialect, number + 1));
                }
            }
        }
    }
    found
}

/// The source file of `pass` (`pb-foo-bar` → `foo_bar.rs` of its crate).
fn source_of(pass: &PassInfo) -> PathBuf {
    let stem = pass.argument.trim_start_matches("pb-").replace('-', "_");
    ["transforms", "conversions"]
        .iter()
        .map(|krate| root().join(krate).join("src").join(format!("{stem}.rs")))
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("no source file for {}", pass.argument))
}

fn declared(pass: &'static PassInfo) -> Vec<&'static str> {
    let options = PassOptions::parse(pass.argument, pass.options, "").unwrap();
    (pass.create)(&options).dependent_dialects().to_vec()
}

/// What `pass` creates according to its source and its helpers': dialect →
/// a `file:line` that shows it.
fn required(pass: &PassInfo) -> Vec<(&'static str, String)> {
    let path = source_of(pass);
    let source = std::fs::read_to_string(&path).unwrap();
    let mut sources = vec![(path.display().to_string(), source.clone())];
    for (marker, helper) in HELPER_FILES {
        if source.contains(marker) {
            let helper_path = root().join(helper);
            sources.push((helper.to_string(), std::fs::read_to_string(helper_path).unwrap()));
        }
    }
    let mut out: Vec<(&'static str, String)> = Vec::new();
    for (name, text) in &sources {
        for (dialect, line) in created(text) {
            out.push((dialect, format!("{name}:{line}")));
        }
        for (marker, dialects) in BUILDER_HELPERS {
            if let Some(line) = text.lines().position(|l| !l.trim_start().starts_with("//") && l.contains(marker)) {
                out.extend(dialects.iter().map(|d| (*d, format!("{name}:{} ({marker})", line + 1))));
            }
        }
    }
    out
}

fn all_passes() -> Vec<&'static PassInfo> {
    pb_pipelines::all_passes().into_iter().chain(pb_pipelines::test_passes()).collect()
}

#[test]
fn every_pass_declares_the_dialects_it_creates() {
    let mut problems = Vec::new();
    for pass in all_passes() {
        let declared = declared(pass);
        let mut reported = BTreeSet::new();
        for (dialect, at) in required(pass) {
            if !declared.contains(&dialect) && reported.insert(dialect) {
                problems.push(format!("{} creates {dialect} ops ({at}) but does not declare '{dialect}'", pass.argument));
            }
        }
    }
    assert!(problems.is_empty(), "missing dependent dialects:\n{}", problems.join("\n"));
}

#[test]
fn every_declared_dialect_is_created_and_known() {
    let mut problems = Vec::new();
    for pass in all_passes() {
        let declared = declared(pass);
        let required: BTreeSet<&str> = required(pass).into_iter().map(|(d, _)| d).collect();
        for (i, dialect) in declared.iter().enumerate() {
            if !DIALECTS.contains(dialect) {
                problems.push(format!("{} declares unknown dialect '{dialect}'", pass.argument));
            }
            if declared[..i].contains(dialect) {
                problems.push(format!("{} declares '{dialect}' twice", pass.argument));
            }
            if !required.contains(dialect) {
                problems.push(format!("{} declares '{dialect}' but its source builds no {dialect} op", pass.argument));
            }
        }
        // The handles exist: creating the MLIR pass looks them up.
        pass.instantiate("").unwrap();
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_scan_sees_creations_and_skips_matches() {
    let source = r##"
        let a = e.binary("arith.addf", x, y);
        if is_named(op, "linalg.generic") {}
        let kind = match name { "math.exp" => 1, _ => 2 };
        t.push_str(&format!("%v = vector.load %A[%i] : {ty}\n"));
        t.push_str("affine.for %i = 0 to 4 {\n");
        let x = OperationBuilder::new("memref.alloca", location);
        let y = scf::r#for(a, b);
        // "gpu.launch" in a comment
        let c = '"'; let d = "tensor.empty";
        let ok = ["llvm.call", "cf.br"]
            .iter()
            .any(|n| is_named(op, n));
        let r = alloc.result(0).expect("index.add has one result");
    "##;
    let found: BTreeSet<&str> = created(source).into_iter().map(|(d, _)| d).collect();
    let expected: BTreeSet<&str> = ["arith", "vector", "affine", "memref", "scf", "tensor"].into_iter().collect();
    assert_eq!(found, expected);
}
