//! The registration record of a polyblocks pass, and its typed options.
//!
//! Every pass crate exports a `PASSES: &[PassInfo]` table. The same table
//! drives the pipeline builder (`pb-opt --pass-pipeline=...`), the short
//! command-line form (`--pb-foo="opt=1"`), `pb-opt --list-passes` and
//! `docs/passes.md`, so they can never disagree.

use crate::rust_pass::{PassId, RustPass};
use melior::pass::Pass;
use std::collections::BTreeMap;
use std::fmt;

/// The kind of value an option takes; used to parse and to document it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptionKind {
    Bool,
    Int,
    UInt,
    Float,
    String,
    /// One of a fixed set of words.
    Enum(&'static [&'static str]),
}

impl fmt::Display for OptionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionKind::Bool => write!(f, "bool"),
            OptionKind::Int => write!(f, "int"),
            OptionKind::UInt => write!(f, "uint"),
            OptionKind::Float => write!(f, "float"),
            OptionKind::String => write!(f, "string"),
            OptionKind::Enum(words) => write!(f, "{}", words.join("|")),
        }
    }
}

/// One option of a pass: `--pb-foo="name=value"`.
#[derive(Clone, Copy, Debug)]
pub struct PassOption {
    pub name: &'static str,
    pub kind: OptionKind,
    /// Default value in textual form (parsed with `kind`).
    pub default: &'static str,
    pub help: &'static str,
}

/// A parsed option value.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    String(String),
}

/// The options of one pass instance, every declared option present (defaults
/// filled in), checked against the declaration.
#[derive(Clone, Debug, Default)]
pub struct PassOptions {
    values: BTreeMap<&'static str, OptionValue>,
}

impl PassOptions {
    /// Parses `key=value key2=value2` (the text inside `{...}` of a pipeline
    /// element, or of `--pb-foo="..."`) against `declared`.
    pub fn parse(pass: &str, declared: &[PassOption], text: &str) -> Result<Self, String> {
        let mut values = BTreeMap::new();
        for option in declared {
            values.insert(option.name, parse_value(pass, option, option.default)?);
        }
        for item in split_items(text)? {
            let (key, raw) = match item.split_once('=') {
                Some((key, raw)) => (key.trim(), unquote(raw.trim())),
                None => (item.trim(), "true"),
            };
            let option = declared.iter().find(|o| o.name == key).ok_or_else(|| {
                let known: Vec<_> = declared.iter().map(|o| o.name).collect();
                if known.is_empty() {
                    format!("pass '{pass}' takes no options, got '{key}'")
                } else {
                    format!("pass '{pass}' has no option '{key}' (options: {})", known.join(", "))
                }
            })?;
            if option.kind != OptionKind::Bool && item.split_once('=').is_none() {
                return Err(format!("option '{key}' of pass '{pass}' needs a value ({})", option.kind));
            }
            values.insert(option.name, parse_value(pass, option, raw)?);
        }
        Ok(Self { values })
    }

    /// Every option with its value, defaults included, in the syntax
    /// [`PassOptions::parse`] reads (`name=value ...`, names sorted): what a
    /// printed pipeline shows, so that it reproduces the run.
    pub fn render(&self) -> String {
        let items: Vec<String> = self
            .values
            .iter()
            .map(|(name, value)| match value {
                OptionValue::Bool(v) => format!("{name}={v}"),
                OptionValue::Int(v) => format!("{name}={v}"),
                OptionValue::UInt(v) => format!("{name}={v}"),
                OptionValue::Float(v) => format!("{name}={v:?}"),
                OptionValue::String(v) if v.is_empty() || v.contains(|c: char| c.is_whitespace() || "{}\"',".contains(c)) => {
                    format!("{name}='{v}'")
                }
                OptionValue::String(v) => format!("{name}={v}"),
            })
            .collect();
        items.join(" ")
    }

    fn get(&self, name: &str) -> &OptionValue {
        self.values.get(name).unwrap_or_else(|| panic!("option '{name}' is not declared by this pass"))
    }

    /// Value of a declared `Bool` option. Panics if `name` is not declared as
    /// such: that is a bug in the pass, not in its input.
    pub fn bool(&self, name: &str) -> bool {
        match self.get(name) {
            OptionValue::Bool(v) => *v,
            other => panic!("option '{name}' is {other:?}, not a bool"),
        }
    }

    /// Value of a declared `Int` option.
    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            OptionValue::Int(v) => *v,
            other => panic!("option '{name}' is {other:?}, not an int"),
        }
    }

    /// Value of a declared `UInt` option.
    pub fn uint(&self, name: &str) -> u64 {
        match self.get(name) {
            OptionValue::UInt(v) => *v,
            other => panic!("option '{name}' is {other:?}, not a uint"),
        }
    }

    /// Value of a declared `Float` option.
    pub fn float(&self, name: &str) -> f64 {
        match self.get(name) {
            OptionValue::Float(v) => *v,
            other => panic!("option '{name}' is {other:?}, not a float"),
        }
    }

    /// Value of a declared `String` or `Enum` option.
    pub fn string(&self, name: &str) -> &str {
        match self.get(name) {
            OptionValue::String(v) => v,
            other => panic!("option '{name}' is {other:?}, not a string"),
        }
    }
}

fn unquote(raw: &str) -> &str {
    for q in ['"', '\''] {
        if raw.len() >= 2 && raw.starts_with(q) && raw.ends_with(q) {
            return &raw[1..raw.len() - 1];
        }
    }
    raw
}

/// Splits on whitespace outside quotes and braces.
fn split_items(text: &str) -> Result<Vec<&str>, String> {
    let mut items = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None, None);
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '{') => depth += 1,
            (None, '}') => depth -= 1,
            (None, c) if c.is_whitespace() && depth == 0 => {
                if let Some(s) = start.take() {
                    items.push(&text[s..i]);
                }
                continue;
            }
            _ => {}
        }
        if start.is_none() {
            start = Some(i);
        }
    }
    if quote.is_some() || depth != 0 {
        return Err(format!("unbalanced quotes or braces in options '{text}'"));
    }
    if let Some(s) = start {
        items.push(&text[s..]);
    }
    Ok(items)
}

fn parse_value(pass: &str, option: &PassOption, raw: &str) -> Result<OptionValue, String> {
    let bad =
        || format!("invalid value '{raw}' for option '{}' of pass '{pass}': expected {}", option.name, option.kind);
    Ok(match option.kind {
        OptionKind::Bool => match raw {
            "true" | "1" => OptionValue::Bool(true),
            "false" | "0" => OptionValue::Bool(false),
            _ => return Err(bad()),
        },
        OptionKind::Int => OptionValue::Int(raw.parse().map_err(|_| bad())?),
        OptionKind::UInt => OptionValue::UInt(raw.parse().map_err(|_| bad())?),
        OptionKind::Float => OptionValue::Float(raw.parse().map_err(|_| bad())?),
        OptionKind::String => OptionValue::String(raw.to_string()),
        OptionKind::Enum(words) => {
            if !words.contains(&raw) {
                return Err(bad());
            }
            OptionValue::String(raw.to_string())
        }
    })
}

/// The registration record of one pass.
#[derive(Clone, Copy)]
pub struct PassInfo {
    /// Pipeline name, `pb-<verb>-<noun>`.
    pub argument: &'static str,
    /// One line for `--list-passes`.
    pub summary: &'static str,
    /// Longer description (markdown) for `docs/passes.md`.
    pub description: &'static str,
    /// The op the pass runs on (`func.func`, `builtin.module`), or `""` for
    /// any op. The pipeline builder nests the pass under it implicitly.
    pub anchor: &'static str,
    pub options: &'static [PassOption],
    /// Identity of the pass for MLIR (a `static` of the pass's file).
    pub id: &'static PassId,
    /// Builds a fresh pass instance from parsed options.
    pub create: fn(&PassOptions) -> Box<dyn RustPass>,
}

/// [`PassInfo::create`] of a pass without options: a fresh default instance.
pub fn create_default<T: RustPass + Default + 'static>(_: &PassOptions) -> Box<dyn RustPass> {
    Box::new(T::default())
}

impl PassInfo {
    /// Parses `options_text` against this pass's options and creates the pass.
    pub fn instantiate(&'static self, options_text: &str) -> Result<Pass, String> {
        let options = PassOptions::parse(self.argument, self.options, options_text)?;
        Ok(crate::rust_pass::into_mlir_pass(self, (self.create)(&options), &options.render()))
    }
}

impl fmt::Debug for PassInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PassInfo").field("argument", &self.argument).field("anchor", &self.anchor).finish()
    }
}
