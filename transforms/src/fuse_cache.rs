//! `pb-fuse`'s plans shared between identical runs of loop nests.
//!
//! A model repeats its layers: ViT-B/16's twelve encoder blocks give twelve
//! runs of nests (layer norm, softmax, GELU, residual) that differ only in
//! the buffers they read and write, and planning one (ISL dependences, a
//! footprint per candidate tile, code generation of the loop tree) took
//! 0.3-1 s. The plan depends on nothing but the run's structure, so a run
//! whose [`key`] matches an earlier one's reuses its outcome: the refusal,
//! or the loop tree and tile-local buffers, which `pb-fuse` then applies to
//! the new run's statements (numbered alike: SCoP extraction is a function
//! of the same structure).
//!
//! The key is the run written out with every value named by its role, not
//! its identity: results and block arguments by the op (in walk order) that
//! defines them; values from outside by the SCoP array they belong to (so
//! two views of one buffer stay one array), parameter, or constant (the
//! run's own allocations and constants are not written: runs differ in
//! which of those they hold, not in what they are); each
//! array with its shape, element size and whether it is a temporary private
//! to the run (which decides what may be contracted).

use melior::ir::{
    block::BlockLike, operation::OperationLike, OperationRef, RegionLike, Value, ValueLike,
};
use pb_polyhedral::{ast::Tree, fusion::Slot, Aff, Scop};
use std::collections::HashMap;
use std::fmt::Write;

/// What `pb-fuse` decided for a run, without references to its IR.
#[derive(Clone)]
pub(crate) enum Planned {
    /// Fuse: the report line and what applying the plan needs.
    Fused(String, Applied),
    /// Left as is; the report line.
    Left(String),
    /// Left as is (the report line); the nests between those at these
    /// positions are tried alone.
    Cut(String, Vec<usize>),
}

/// A fusion plan reduced to what its application reads: statement, access,
/// array and slot numbers, index expressions and the loop tree.
#[derive(Clone)]
pub(crate) struct Applied {
    /// (statement, access position, local buffer, indices over the call
    /// arguments) of each access redirected to a tile-local buffer.
    pub redirects: Vec<(usize, usize, usize, Vec<Aff>)>,
    pub slots: Vec<Slot>,
    pub slot_of: Vec<usize>,
    /// The temporaries the tiles replace (erased after).
    pub contracted: Vec<usize>,
    pub tree: Tree,
    pub parallel_depth: usize,
}

/// `name=value` for each attribute of `op`.
fn attributes(op: OperationRef) -> Vec<String> {
    op.attributes().map(|(name, value)| format!("{}={value}", name.as_string_ref().as_str().unwrap_or("?"))).collect()
}

fn value_id(value: Value) -> usize {
    value.to_raw().ptr as usize
}

struct Writer<'s, 'c, 'a> {
    scop: &'s Scop<'c, 'a>,
    names: HashMap<usize, String>,
    outside: HashMap<usize, usize>,
    ops: usize,
    text: String,
}

impl<'c, 'a> Writer<'_, 'c, 'a> {
    fn name_of(&mut self, value: Value<'c, 'a>) -> String {
        if let Some(name) = self.names.get(&value_id(value)) {
            return name.clone();
        }
        if let Some(array) = self.scop.arrays.iter().position(|a| a.values.contains(&value)) {
            return format!("A{array}");
        }
        if let Some(param) = self.scop.params.iter().position(|p| *p == value) {
            return format!("P{param}");
        }
        if let Some(op) = pb_support::ffi::defining_op(value) {
            if pb_support::ir::is_named(op, "arith.constant") {
                return format!("C({})", attributes(op).join(","));
            }
        }
        let next = self.outside.len();
        let number = *self.outside.entry(value_id(value)).or_insert(next);
        format!("E{number}:{}", value.r#type())
    }

    fn op(&mut self, op: OperationRef<'c, 'a>) {
        let index = self.ops;
        self.ops += 1;
        let name = op.name().as_string_ref().as_str().unwrap_or("?").to_string();
        let operands: Vec<String> = op.operands().map(|v| self.name_of(v)).collect();
        let _ = write!(self.text, "{index}:{name}({})", operands.join(","));
        for attribute in attributes(op) {
            let _ = write!(self.text, " {attribute}");
        }
        for (i, result) in op.results().enumerate() {
            self.names.insert(value_id(result.into()), format!("r{index}.{i}"));
            let _ = write!(self.text, " ->{}", result.r#type());
        }
        for (r, region) in op.regions().enumerate() {
            let mut block = region.first_block();
            let mut b = 0;
            while let Some(current) = block {
                let _ = write!(self.text, " {{{r}.{b}");
                for i in 0..current.argument_count() {
                    if let Ok(argument) = current.argument(i) {
                        self.names.insert(value_id(argument.into()), format!("b{index}.{r}.{b}.{i}"));
                        let _ = write!(self.text, " {}", argument.r#type());
                    }
                }
                let mut inner = current.first_operation();
                while let Some(nested) = inner {
                    self.text.push('\n');
                    self.op(nested);
                    inner = nested.next_in_block();
                }
                self.text.push('}');
                block = current.next_in_region();
                b += 1;
            }
        }
        self.text.push('\n');
    }
}

/// The structure of `run` (whose SCoP is `scop`): equal for two runs that
/// `pb-fuse` plans alike.
pub(crate) fn key<'c, 'a>(run: &[OperationRef<'c, 'a>], scop: &Scop<'c, 'a>) -> String {
    let mut writer = Writer { scop, names: HashMap::new(), outside: HashMap::new(), ops: 0, text: String::new() };
    // Allocations and constants among the nests are left out: a run may
    // or may not hold its own (the first run of a function starts after
    // those above it), and what they give is named by value anyway (the
    // array, with its shape and locality; the constant).
    let defines_value = |op: &OperationRef| {
        ["memref.alloc", "memref.alloca", "arith.constant"].iter().any(|name| pb_support::ir::is_named(*op, name))
    };
    for op in run.iter().filter(|op| !defines_value(op)) {
        writer.op(*op);
    }
    let mut text = writer.text;
    for (i, array) in scop.arrays.iter().enumerate() {
        let _ = writeln!(
            text,
            "A{i} {:?} x{} local={} private={}",
            array.shape,
            array.element_bytes,
            array.local,
            scop.is_private(i)
        );
    }
    text
}
