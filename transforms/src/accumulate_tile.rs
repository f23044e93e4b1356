//! `pb-accumulate-tile`: reductions whose operands are not reused across
//! output rows keep their running values in vector registers over all
//! reduction steps, instead of reading and writing the output once per step.
//!
//! A depthwise convolution (`C[c, h, w] += W[c, kh, kw] * X[c, h + kh, w +
//! kw]`), a pooling window, a column sum (`C[j] += X[k, j]`) or a product
//! with too few rows for `pb-register-tile`: every dimension of C also
//! moves the big operand, so there is no operand reuse to block for, and
//! `pb-interchange` puts the contiguous loop `w` innermost, below the
//! reduction loops. The output row is then loaded, updated and stored once
//! per reduction step (49 times for a 7x7 depthwise window), and the columns
//! that do not fill a vector (8 of a 56-wide row) run scalar 49 times each.
//! Here the reductions go inside a tile of output rows and columns:
//!
//! ```text
//! for outer dims; for i (MR rows at a time); for j tiles:
//!   acc[r][v] = C[i + r][j + v*W ..]          (vector loads; the row's last
//!                                              columns in narrower vectors,
//!                                              then scalars)
//!   for k1, k2, ... (the reduction loops, in their order; acc carried)
//!     acc[r][v] = f(acc[r][v], operands at (i + r, j + v*W ..))
//!   C[i + r][j + v*W ..] = acc[r][v]
//! ```
//!
//! The update `f` is the statement's own expression (a multiply-add, a
//! maximum, a select), evaluated on vectors: operands contiguous along `j`
//! become vector loads, operands that do not move with `j` one scalar load
//! broadcast per tile row (or per tile, when they do not move with the rows
//! either).
//!
//! Legality: each C element receives its updates in the original order
//! (the reduction loops keep their order inside the tile); only the order
//! between different C elements changes, which no dependence constrains
//! when C is read only at the element being written and no other array is
//! written. Bit-identical results. Recognizes perfect nests with constant
//! bounds whose single statement stores an expression of loads (one of them
//! C at the stored index) made of `arith`/`math` ops on f32 (and i1) values.
//! The nests inside `pb-fuse`'s tiles count too: a loop there may run a
//! constant number of times from a start in the loops around the nest (a
//! row tile's `4 t` to `4 t + 4`), a loop outside the tile may have any
//! bounds (a partial last tile's `min(4 t + 4, 14)`), and indices may use
//! the loops around.
//!
//! Folded in: the nest right before, when it stores one value from outside
//! into exactly the elements of C the reduction updates (a zero fill: the
//! registers start from it), and the nest right after, when it updates
//! exactly those elements in place from their values and operands
//! contiguous along `j` or not moving with it (a batch norm and an
//! activation: applied to the registers before the one store; a per-
//! channel `C x 1 x 1` table read through a view without its unit
//! dimensions). Each folded statement computes what it did, on the same
//! elements, right after (or before) the reduction finishes them.
//!
//! Loads and arithmetic hoisted between a nest's loops (a per-channel
//! parameter moved out of a pool's window loops by LICM) go back into the
//! innermost body before the nest is recognized (and back out when it is
//! not rewritten); operands contiguous along `j` up to trailing unit
//! dimensions (a `C x 1 x 1` table) are read through a view without them.

use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        Attribute, Block, BlockRef, Identifier, Location, Operation, OperationRef, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use pb_polyhedral::{scop::Statement, Aff, Scop};
use pb_support::{
    builder::{affine_for_carrying, build_operation},
    ffi,
    ir::{body_ops, is_named},
    OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass,
};

use crate::affine_access::constant_map;
use crate::operand_expr::{self, OperandExpr};
use std::collections::HashMap;

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-accumulate-tile",
    summary: "Reductions without operand reuse accumulate a tile of outputs in vector registers over all reduction steps",
    description: "Rewrites perfect nests whose single statement updates C[.., j] with an expression of \
loads (C at the same index among them), where the loops in no C index are reductions, into tiles of \
output rows x columns whose values are loop-carried vectors over the reduction loops (kept in their \
order): operands contiguous along j are vector loads, operands that do not move with j are broadcast. \
Depthwise convolutions, pooling windows, column sums, also inside pb-fuse's tiles (loops of a constant \
trip count from a start in the tile's loops). A fill of exactly those elements right before and an \
elementwise update of them in place right after fold into the registers. Refuses other element types, \
strided or transposed operands, inexact accesses, other writes.",
    anchor: "func.func",
    options: &[
        PassOption { name: "width", kind: OptionKind::UInt, default: "16", help: "f32 lanes of a vector register" },
        PassOption { name: "registers", kind: OptionKind::UInt, default: "32", help: "Vector registers (32 on AVX-512, 16 on AVX2)" },
        PassOption { name: "report", kind: OptionKind::Bool, default: "false", help: "Explain each decision on stderr" },
    ],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(AccumulateTile {
        width: options.uint("width").clamp(1, 64) as i64,
        registers: options.uint("registers").clamp(8, 64) as i64,
        report: options.bool("report"),
    })
}

#[derive(Clone)]
struct AccumulateTile {
    width: i64,
    registers: i64,
    report: bool,
}

impl RustPass for AccumulateTile {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["affine", "vector"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        // Every outermost loop, the nests inside `pb-fuse`'s tiles included
        // (a depthwise convolution fused between its padding and its
        // activation: its indices use the tile's loops, which the nest
        // reads as symbols).
        let nests = ffi::collect_ops(func, melior::ir::operation::WalkOrder::PreOrder, |op| {
            is_named(op, "affine.for") && op.parent_operation().is_none_or(|parent| !is_named(parent, "affine.for"))
        });
        // (The nests folded into an earlier one are gone: skipped.)
        let mut folded: Vec<usize> = Vec::new();
        for nest in nests {
            if folded.contains(&(nest.to_raw().ptr as usize)) {
                continue;
            }
            let location = nest.location();
            // Loads and arithmetic hoisted between the loops (per-channel
            // parameters, by LICM after pb-fuse) go back into the innermost
            // body for the rewrite, and back out if there is none.
            let sunk = sink_invariants(nest);
            let mut done = false;
            let outcome = ffi::with_context(func, |context| self.tile(context, nest, &mut folded, &mut done));
            if !done {
                for (op, next) in sunk.into_iter().rev() {
                    ffi::move_before(op, next);
                }
            }
            if let (true, Some(message)) = (self.report, outcome) {
                crate::report::note(location, INFO.argument, &message);
            }
        }
        Ok(())
    }
}

/// The recognized reduction: the roles of the loops and the update.
struct Reduction<'s, 'c, 'a> {
    statement: &'s Statement<'c, 'a>,
    /// The values of the SCoP's symbols (loops around the nest).
    params: Vec<Value<'c, 'a>>,
    /// Per loop, the symbolic start of a loop that runs a constant number
    /// of times from it (a row tile's rows, `4 t` to `4 t + 4`): the loop
    /// then counts from 0 (`bounds`) and its accesses add the start.
    starts: Vec<Option<Aff>>,
    /// Per loop outside the tile, its bounds when they are neither constant
    /// nor a constant count from a start (lower bounds, upper bounds: their
    /// maximum and minimum).
    general: Vec<Option<(Vec<Aff>, Vec<Aff>)>>,
    bounds: Vec<(i64, i64)>,
    /// C's last index: the vector lanes.
    j: usize,
    /// C's index before `j`, when it is a loop: the tile's rows.
    i: Option<usize>,
    /// The loops in no C index, outermost first (their order is kept).
    reductions: Vec<usize>,
    /// The other loops, outermost first (they stay outside the tile).
    outer: Vec<usize>,
    c_read: usize,
    c_write: usize,
    update: OperandExpr<'c, 'a>,
    /// Per access of the statement, its [`Load`].
    loads: Vec<Load<'c, 'a>>,
    /// The nest right before, when it fills exactly the elements of C the
    /// reduction updates with one value from outside: the tile starts
    /// from that value instead of loading C.
    fill: Option<(OperationRef<'c, 'a>, Value<'c, 'a>)>,
    /// The nest right after, when it updates exactly those elements of C in
    /// place from their final values (a batch norm and activation): folded
    /// into the tile, applied to the registers before the one store.
    epilogue: Option<Epilogue<'c, 'a>>,
}

/// An expression a tile evaluates per cell: the reduction's update, or the
/// epilogue after it.
struct Expr<'x, 'c, 'a> {
    /// The accesses the expression reads.
    loads: &'x [ViewedLoad<'c, 'a>],
    ops: &'x [OperationRef<'c, 'a>],
    /// The load of C the running value stands for.
    c_load: OperationRef<'c, 'a>,
    result: Value<'c, 'a>,
}

/// An access an expression reads: its op, its indices (in the reduction's
/// loops and symbols), and how many trailing unit dimensions it is read
/// without (a per-channel `C x 1 x 1` table moving with `j` in its first
/// index is read through a view without them; its indices then stop at
/// that first one).
type Load<'c, 'a> = (OperationRef<'c, 'a>, Vec<Aff>, usize);

/// An elementwise statement over C's elements, its accesses re-indexed in
/// the reduction's loops and symbols.
struct Epilogue<'c, 'a> {
    nest: OperationRef<'c, 'a>,
    /// The accesses the expression reads.
    loads: Vec<Load<'c, 'a>>,
    ops: Vec<OperationRef<'c, 'a>>,
    c_load: OperationRef<'c, 'a>,
    result: Value<'c, 'a>,
}

/// A loop's value in the new code: `value + offset`, or the constant
/// `offset` when `value` is `None`.
#[derive(Clone, Copy)]
struct Position<'c, 'a> {
    value: Option<Value<'c, 'a>>,
    offset: i64,
}

impl AccumulateTile {
    /// The decision, when there is one worth reporting.
    fn tile<'c>(&self, context: &'c Context, nest: OperationRef<'c, '_>, erased: &mut Vec<usize>, done: &mut bool) -> Option<String> {
        let scop = Scop::extract(&[nest]).ok()?;
        let [statement] = scop.statements.as_slice() else { return None };
        if !perfect(nest, statement) {
            return None;
        }
        let mut reduction = match recognize(statement, &scop.params) {
            Ok(Some(reduction)) => reduction,
            Ok(None) => return None,
            Err(reason) => return Some(format!("not tiled: {reason}")),
        };
        reduction.fill = op_before(nest).and_then(|before| fill_of(before, &reduction));
        reduction.epilogue = nest.next_in_block().and_then(|after| epilogue_of(after, &reduction));
        let r = &reduction;
        let trip = |d: usize| r.bounds[d].1 - r.bounds[d].0;
        let n = trip(r.j);
        let steps: i64 = r.reductions.iter().map(|d| trip(*d)).product();
        if n < 4 || steps < 2 {
            return None;
        }
        // Columns: tiles of up to four full vectors (with output rows to
        // share the registers), or half the registers when there are no
        // rows (a column sum, `A^T y`: longer contiguous runs of each
        // operand row per pass); what is left of the row in halving vector
        // widths, then single elements. A row of one tile or less is one
        // tile, its end included (56 columns: three vectors of 16 and one
        // of 8 share the reduction loops).
        let widest = if r.i.is_some() { 4 } else { (self.registers / 2).max(4) };
        let vectors_per_tile = (n / self.width).clamp(1, widest);
        let tile_columns = vectors_per_tile * self.width;
        let full_tiles = n / tile_columns;
        let (full_tiles, tile_columns, columns, tail) = if full_tiles <= 1 {
            (1, n, halving_cells(n, self.width), Vec::new())
        } else {
            let columns = (0..vectors_per_tile).map(|v| (v * self.width, self.width)).collect();
            (full_tiles, tile_columns, columns, halving_cells(n - full_tiles * tile_columns, self.width))
        };
        // The wider a tile's row of values, the fewer rows: about half the
        // registers hold running values, the rest operands and broadcasts.
        let rows = match r.i {
            Some(i) => (self.registers / 2 / (columns.len() as i64).max(1)).clamp(1, 8).min(trip(i)),
            None => 1,
        };
        let plan = Plan { rows, full_tiles, tile_columns, columns, tail };
        if let Err(reason) = build(context, nest, r, &plan) {
            return Some(format!("not tiled: {reason}"));
        }
        let folded: Vec<OperationRef> = r.fill.iter().map(|(f, _)| *f).chain(r.epilogue.iter().map(|e| e.nest)).collect();
        let folded_note = match (r.fill.is_some(), r.epilogue.is_some()) {
            (true, true) => "; the fill before and the update after folded in",
            (true, false) => "; the fill before folded in",
            (false, true) => "; the update after folded in",
            (false, false) => "",
        };
        drop(reduction);
        drop(scop);
        *done = true;
        // SAFETY: `Scop::extract` accepted the nest, and the folded nests (each a SCoP of its own,
        // dropped in `fill_of` / `epilogue_of`), so their loops have no results and nothing defined
        // inside them is used outside; the SCoP was dropped above.
        unsafe { ffi::erase(nest) };
        for other in folded {
            erased.push(other.to_raw().ptr as usize);
            // SAFETY: as above.
            unsafe { ffi::erase(other) };
        }
        let widths = |cells: &[(i64, i64)]| cells.iter().map(|(_, w)| w.to_string()).collect::<Vec<_>>().join(" + ");
        Some(format!(
            "accumulated in registers over {steps} reduction steps: tiles of {rows} rows x {} columns ({}){}{folded_note}",
            plan.tile_columns,
            widths(&plan.columns),
            if plan.tail.is_empty() { String::new() } else { format!(", {} per row, then {}", plan.full_tiles, widths(&plan.tail)) }
        ))
    }
}

/// `(offset, width)` cells covering `n` columns: vectors of `width` while
/// they fit, then of halving widths, down to single elements.
fn halving_cells(n: i64, mut width: i64) -> Vec<(i64, i64)> {
    let mut cells = Vec::new();
    let mut offset = 0;
    while offset < n {
        while width > 1 && offset + width > n {
            width /= 2;
        }
        cells.push((offset, width));
        offset += width;
    }
    cells
}

/// Each loop of the statement but the innermost holds only the next loop.
fn perfect(nest: OperationRef, s: &Statement) -> bool {
    if s.loops.first() != Some(&nest) {
        return false;
    }
    // (The loop and the terminator.)
    s.loops.iter().rev().skip(1).all(|l| body_ops(*l).len() == 2)
}

fn recognize<'s, 'c, 'a>(s: &'s Statement<'c, 'a>, params: &[Value<'c, 'a>]) -> Result<Option<Reduction<'s, 'c, 'a>>, String> {
    let mut bounds = Vec::new();
    let mut starts = Vec::new();
    let mut general = Vec::new();
    for b in &s.bounds {
        if b.step != 1 {
            return Ok(None);
        }
        if let Some(constant) = b.constant() {
            bounds.push(constant);
            starts.push(None);
            general.push(None);
            continue;
        }
        // From a start in the symbols only, a constant number of times.
        let trips = match (b.lower.as_slice(), b.upper.as_slice()) {
            ([lower], [upper]) if !(0..s.loops.len()).any(|d| lower.uses_dim(d)) => {
                difference(upper, lower, s.loops.len(), params.len()).map(|trips| (lower, trips))
            }
            _ => None,
        };
        match trips {
            Some((lower, trips)) => {
                bounds.push((0, trips));
                starts.push(Some(lower.clone()));
                general.push(None);
            }
            // Any other bounds (a partial row tile's `min(4 t + 4, 14)`):
            // only for a loop that stays outside the tile.
            None => {
                bounds.push((0, 0));
                starts.push(None);
                general.push(Some((b.lower.clone(), b.upper.clone())));
            }
        }
    }
    let writes: Vec<usize> = (0..s.accesses.len()).filter(|k| s.accesses[*k].write).collect();
    let [c_write] = writes.as_slice() else { return Ok(None) };
    let c_write = *c_write;
    let w = &s.accesses[c_write];
    if s.accesses.iter().any(|a| !a.exact) {
        return Ok(None);
    }
    let Some(c_read) = (0..s.accesses.len()).find(|k| !s.accesses[*k].write && s.accesses[*k].array == w.array && s.accesses[*k].indices == w.indices)
    else {
        return Ok(None);
    };
    // C is read only at the element written.
    if s.accesses.iter().enumerate().any(|(k, a)| a.array == w.array && k != c_read && k != c_write) {
        return Ok(None);
    }
    let Some(Aff::Dim(j)) = w.indices.last().cloned() else { return Ok(None) };
    let front = &w.indices[..w.indices.len() - 1];
    if front.iter().any(|e| e.uses_dim(j)) {
        return Ok(None);
    }
    let written: Vec<usize> = (0..s.loops.len()).filter(|d| w.indices.iter().any(|e| e.uses_dim(*d))).collect();
    let reductions: Vec<usize> = (0..s.loops.len()).filter(|d| !written.contains(d) && bounds[*d] != (0, 1)).collect();
    if reductions.is_empty() {
        return Ok(None);
    }
    let Ok(stored) = w.op.operand(0) else { return Ok(None) };
    let Some(update) = operand_expr::slice(s, stored) else { return Ok(None) };
    if !update.loads.contains(&c_read) {
        return Ok(None);
    }
    // Every op of the statement is the update, the store or index arithmetic.
    if s.ops.iter().any(|op| !update.ops.contains(op) && *op != w.op && !is_named(*op, "affine.apply")) {
        return Ok(None);
    }
    // Elementwise arith/math on f32 (and i1 conditions), nothing else.
    for op in &update.ops {
        let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
        if !(name.starts_with("arith.") || name.starts_with("math.") || name == "affine.load") {
            return Ok(None);
        }
        let scalar = op.results().all(|v| matches!(v.r#type().to_string().as_str(), "f32" | "i1"));
        if !scalar {
            return Ok(None);
        }
    }
    if stored.r#type().to_string() != "f32" {
        return Ok(None);
    }
    // Each operand is contiguous along `j` (its last index moves with `j`
    // at unit stride, no other index does) or does not move with it.
    // (Up to trailing unit dimensions read at 0: a per-channel `C x 1 x 1`
    // table, read through a view without them.)
    let mut loads: Vec<Load> = s.accesses.iter().map(|a| (a.op, a.indices.clone(), 0)).collect();
    for k in &update.loads {
        let indices = &s.accesses[*k].indices;
        let moves = indices.iter().any(|e| e.uses_dim(j));
        let (contiguous, tail) = along_lanes(s.accesses[*k].op, indices, j);
        if moves {
            loads[*k] = (s.accesses[*k].op, indices[..indices.len() - tail].to_vec(), tail);
        }
        if moves && !contiguous {
            return Err("an operand is read along the columns with a stride".into());
        }
        // A vector of i1 in memory would be read as packed bits (a bool
        // memref holds bytes): only f32 operands become vector loads.
        let element = s.accesses[*k].op.result(0).map(|v| v.r#type().to_string()).unwrap_or_default();
        if moves && element != "f32" {
            return Err(format!("an operand of type {element} moves with the columns"));
        }
        if moves && !unit_last_stride(s.accesses[*k].op) {
            return Err("an operand's rows are not contiguous".into());
        }
    }
    if !unit_last_stride(w.op) {
        return Ok(None);
    }
    let i = match front.last() {
        Some(Aff::Dim(d)) if !front[..front.len() - 1].iter().any(|e| e.uses_dim(*d)) => Some(*d),
        _ => None,
    };
    let outer: Vec<usize> = (0..s.loops.len()).filter(|d| *d != j && Some(*d) != i && !reductions.contains(d)).collect();
    if (0..s.loops.len()).any(|d| general[d].is_some() && !outer.contains(&d)) {
        return Ok(None);
    }
    Ok(Some(Reduction {
        statement: s,
        params: params.to_vec(),
        starts,
        general,
        bounds,
        j,
        i,
        reductions,
        outer,
        c_read,
        c_write,
        update,
        loads,
        fill: None,
        epilogue: None,
    }))
}

/// Moves the pure ops between the loops of `nest` (loads of memrefs the
/// nest does not write, `arith`/`math` ops; their results used only deeper
/// in) to the start of its innermost body, in order, so that the nest is
/// perfect again; returns each moved op with the op that followed it, to
/// put them back. Nothing moves unless every such op qualifies.
fn sink_invariants<'c, 'a>(nest: OperationRef<'c, 'a>) -> Vec<(OperationRef<'c, 'a>, OperationRef<'c, 'a>)> {
    let walk = melior::ir::operation::WalkOrder::PreOrder;
    let written: Vec<usize> = ffi::collect_ops(nest, walk, |op| is_named(op, "affine.store"))
        .into_iter()
        .filter_map(|store| store.operand(1).ok().map(key))
        .collect();
    let mut candidates = Vec::new();
    let mut level = nest;
    let innermost = loop {
        let Some(body) = level.region(0).ok().and_then(|r| r.first_block()) else { return Vec::new() };
        let ops = body_ops(level);
        let inner: Vec<OperationRef> = ops.iter().copied().filter(|op| is_named(*op, "affine.for")).collect();
        match inner.as_slice() {
            [] => break body,
            [next] => {
                for op in ops.iter().copied().filter(|op| op != next && !is_named(*op, "affine.yield")) {
                    let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
                    let pure = op.region_count() == 0
                        && (name.starts_with("arith.") || name.starts_with("math.") || name == "affine.load");
                    let unwritten = name != "affine.load" || op.operand(0).is_ok_and(|m| !written.contains(&key(m)));
                    let deeper = op.results().all(|v| ffi::users(v.into()).iter().all(|user| pb_support::ir::ancestor_in(*user, body) == Some(*next)));
                    if !(pure && unwritten && deeper) {
                        return Vec::new();
                    }
                    candidates.push(op);
                }
                level = *next;
            }
            _ => return Vec::new(),
        }
    };
    let Some(first) = innermost.first_operation() else { return Vec::new() };
    let mut moved = Vec::new();
    for op in candidates {
        let Some(next) = op.next_in_block() else { return moved };
        ffi::move_before(op, first);
        moved.push((op, next));
    }
    moved
}

/// The op right before `op` in its block (the C API has no link back).
fn op_before<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut previous = None;
    let mut current = op.block()?.first_operation();
    while let Some(at) = current {
        if at == op {
            return previous;
        }
        previous = Some(at);
        current = at.next_in_block();
    }
    None
}

/// `a - b` (over `loops` loops and `symbols` symbols) when it is a
/// constant: the symbols are taken as further loops, so that their terms
/// cancel.
fn difference(a: &Aff, b: &Aff, loops: usize, symbols: usize) -> Option<i64> {
    let dims: Vec<Aff> = (0..loops).map(Aff::Dim).collect();
    let syms: Vec<Aff> = (0..symbols).map(|p| Aff::Dim(loops + p)).collect();
    a.substitute_all(&dims, &syms).constant_difference(&b.substitute_all(&dims, &syms))
}

/// Whether `a` and `b` (over `loops` loops and `symbols` symbols) are the
/// same affine function.
fn same_aff(a: &Aff, b: &Aff, loops: usize, symbols: usize) -> bool {
    difference(a, b, loops, symbols) == Some(0)
}

/// The nest `other` as one statement over exactly the elements of C that
/// the reduction `r` writes, loop for loop: its loops those of `r` but the
/// reductions, each with the same bounds. Gives its accesses (op, write,
/// memref, indices re-indexed in `r`'s loops and symbols), its ops, and the
/// stored value's expression when `expression` asks for it.
#[allow(clippy::type_complexity)]
fn aligned<'c, 'a>(
    other: OperationRef<'c, 'a>,
    r: &Reduction<'_, 'c, 'a>,
    expression: bool,
) -> Option<(Vec<(OperationRef<'c, 'a>, bool, Value<'c, 'a>, Vec<Aff>)>, Vec<OperationRef<'c, 'a>>, Option<OperandExpr<'c, 'a>>)> {
    if !is_named(other, "affine.for") {
        return None;
    }
    let scop = Scop::extract(&[other]).ok()?;
    let [e] = scop.statements.as_slice() else { return None };
    if !perfect(other, e) {
        return None;
    }
    let kept: Vec<usize> = (0..r.bounds.len()).filter(|d| !r.reductions.contains(d)).collect();
    if e.loops.len() != kept.len() {
        return None;
    }
    let syms: Vec<Aff> =
        scop.params.iter().map(|v| r.params.iter().position(|w| key(*w) == key(*v)).map(Aff::Sym)).collect::<Option<_>>()?;
    let dims: Vec<Aff> = kept.iter().map(|d| Aff::Dim(*d)).collect();
    let (loops, symbols) = (r.bounds.len(), r.params.len());
    for (k, b) in e.bounds.iter().enumerate() {
        let d = kept[k];
        if let Some((lowers, uppers)) = &r.general[d] {
            let same = |mine: &[Aff], theirs: &[Aff]| {
                mine.len() == theirs.len()
                    && mine.iter().zip(theirs).all(|(a, b)| same_aff(&b.substitute_all(&dims, &syms), a, loops, symbols))
            };
            if b.step != 1 || !same(lowers, &b.lower) || !same(uppers, &b.upper) {
                return None;
            }
            continue;
        }
        let ([lower], [upper]) = (b.lower.as_slice(), b.upper.as_slice()) else { return None };
        let (lo, hi) = r.bounds[d];
        let from = |c: i64| r.starts[d].clone().map_or(Aff::Const(c), |start| start.plus(Aff::Const(c)));
        if b.step != 1
            || !same_aff(&lower.substitute_all(&dims, &syms), &from(lo), loops, symbols)
            || !same_aff(&upper.substitute_all(&dims, &syms), &from(hi), loops, symbols)
        {
            return None;
        }
    }
    let mut accesses = Vec::new();
    for a in &e.accesses {
        if !a.exact {
            return None;
        }
        let memref = a.op.operand(usize::from(a.write)).ok()?;
        accesses.push((a.op, a.write, memref, a.indices.iter().map(|x| x.substitute_all(&dims, &syms)).collect()));
    }
    let expr = if expression {
        let write = e.accesses.iter().find(|a| a.write)?;
        Some(operand_expr::slice(e, write.op.operand(0).ok()?)?)
    } else {
        None
    };
    Some((accesses, e.ops.clone(), expr))
}

/// How many trailing dimensions of the load `op`'s memref (static, identity
/// layout) have extent 1 and are read at index 0 (a `C x 1 x 1` table's two).
fn unit_tail(op: OperationRef, indices: &[Aff]) -> usize {
    let Ok(memref) = op.operand(0) else { return 0 };
    let text = memref.r#type().to_string();
    let Some(shape) = pb_dialects::type_utils::memref_static_shape(memref.r#type()) else { return 0 };
    if text.contains("strided") || text.contains("affine_map") || shape.len() != indices.len() {
        return 0;
    }
    let rank = shape.len();
    (0..rank.saturating_sub(1)).take_while(|k| shape[rank - 1 - k] == 1 && indices[rank - 1 - k].constant() == Some(0)).count()
}

/// Whether the load `op` at `indices` reads consecutive elements as `j`
/// moves (the index before its trailing unit dimensions moves with `j` at
/// unit stride, no other index does), and how many such unit dimensions
/// trail.
fn along_lanes(op: OperationRef, indices: &[Aff], j: usize) -> (bool, usize) {
    let tail = unit_tail(op, indices);
    let along = indices.len() - 1 - tail;
    let contiguous = indices[along].coefficient(j) == Some(1) && !indices.iter().enumerate().any(|(q, e)| q != along && e.uses_dim(j));
    (contiguous, tail)
}

/// Whether `indices` (re-indexed in `r`'s loops) are those of `r`'s write of C.
fn at_c_element(indices: &[Aff], r: &Reduction) -> bool {
    let written = &r.statement.accesses[r.c_write].indices;
    indices.len() == written.len() && indices.iter().zip(written).all(|(a, b)| same_aff(a, b, r.bounds.len(), r.params.len()))
}

/// The nest before the reduction, when it stores one value from outside it
/// into exactly the elements of C the reduction updates (a zero fill).
fn fill_of<'c, 'a>(before: OperationRef<'c, 'a>, r: &Reduction<'_, 'c, 'a>) -> Option<(OperationRef<'c, 'a>, Value<'c, 'a>)> {
    let c = r.statement.accesses[r.c_write].op.operand(1).ok()?;
    let (accesses, ops, _) = aligned(before, r, false)?;
    let [(store, true, memref, indices)] = accesses.as_slice() else { return None };
    if key(*memref) != key(c) || !at_c_element(indices, r) {
        return None;
    }
    let value = store.operand(0).ok()?;
    let inside = ffi::defining_op(value).is_some_and(|op| ops.contains(&op));
    (!inside && value.r#type().to_string() == "f32" && ops.iter().all(|op| *op == *store || is_named(*op, "affine.apply"))).then_some((before, value))
}

/// The nest after the reduction, when it updates exactly the elements of C
/// the reduction wrote, in place, from their values and operands that move
/// with `j` contiguously or not at all (a batch norm and an activation).
fn epilogue_of<'c, 'a>(after: OperationRef<'c, 'a>, r: &Reduction<'_, 'c, 'a>) -> Option<Epilogue<'c, 'a>> {
    let c = r.statement.accesses[r.c_write].op.operand(1).ok()?;
    let (accesses, ops, expr) = aligned(after, r, true)?;
    let expr = expr?;
    let writes: Vec<_> = accesses.iter().filter(|a| a.1).collect();
    let [(store, _, memref, indices)] = writes.as_slice() else { return None };
    if key(*memref) != key(c) || !at_c_element(indices, r) {
        return None;
    }
    // C read once, at the element written.
    let c_reads: Vec<_> = accesses.iter().filter(|a| !a.1 && key(a.2) == key(c)).collect();
    let [(c_load, _, _, c_indices)] = c_reads.as_slice() else { return None };
    if !at_c_element(c_indices, r) || !expr.ops.contains(c_load) {
        return None;
    }
    if ops.iter().any(|op| !expr.ops.contains(op) && op != store && !is_named(*op, "affine.apply")) {
        return None;
    }
    for op in &expr.ops {
        let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
        let scalar = op.results().all(|v| matches!(v.r#type().to_string().as_str(), "f32" | "i1"));
        if !(name.starts_with("arith.") || name.starts_with("math.") || name == "affine.load") || !scalar {
            return None;
        }
    }
    if expr.result.r#type().to_string() != "f32" {
        return None;
    }
    let mut loads = Vec::new();
    for (op, write, _, indices) in &accesses {
        if *write {
            continue;
        }
        let moves = indices.iter().any(|x| x.uses_dim(r.j));
        let element = op.result(0).map(|v| v.r#type().to_string()).unwrap_or_default();
        let (contiguous, tail) = along_lanes(*op, indices, r.j);
        if moves && (!contiguous || element != "f32" || !unit_last_stride(*op)) {
            return None;
        }
        let tail = if moves { tail } else { 0 };
        loads.push((*op, indices[..indices.len() - tail].to_vec(), tail));
    }
    Some(Epilogue { nest: after, loads, ops: expr.ops.clone(), c_load: *c_load, result: expr.result })
}

/// The memref an access reads or writes has unit stride along its last
/// dimension (an identity layout, or strides ending in 1).
fn unit_last_stride(access: OperationRef) -> bool {
    let position = if is_named(access, "affine.store") { 1 } else { 0 };
    let Ok(memref) = access.operand(position) else { return false };
    let text = memref.r#type().to_string();
    match text.find("strided<[") {
        None => !text.contains("affine_map"),
        Some(at) => {
            let strides = &text[at + 9..];
            let list = &strides[..strides.find(']').unwrap_or(0)];
            list.rsplit(',').next().is_some_and(|last| last.trim() == "1")
        }
    }
}

struct Plan {
    rows: i64,
    full_tiles: i64,
    tile_columns: i64,
    /// (column offset, width) of a full tile's vectors.
    columns: Vec<(i64, i64)>,
    /// (column offset after the full tiles, width) of the row's end.
    tail: Vec<(i64, i64)>,
}

/// Emits the tiled nest before `nest` (which the caller then erases).
fn build<'c, 'a>(context: &'c Context, nest: OperationRef<'c, 'a>, r: &Reduction<'_, 'c, 'a>, plan: &Plan) -> Result<(), String> {
    let parent = nest.block().ok_or("nest outside a block")?;
    // Each load with trailing unit dimensions reads a view without them,
    // made once before the nest.
    let viewed = |loads: &[Load<'c, 'a>]| -> Result<Vec<ViewedLoad<'c, 'a>>, String> {
        let mut out = Vec::new();
        for (op, indices, tail) in loads {
            let view = if *tail > 0 {
                let memref = op.operand(0).map_err(|e| e.to_string())?;
                let view = parent.insert_operation_before(nest, crate::vectorize::without_unit_dims(context, memref, *tail, nest.location()));
                Some(view.result(0).map_err(|e| e.to_string())?.into())
            } else {
                None
            };
            out.push((*op, indices.clone(), view));
        }
        Ok(out)
    };
    let update_loads = viewed(&r.loads)?;
    let epilogue_loads = match &r.epilogue {
        Some(e) => viewed(&e.loads)?,
        None => Vec::new(),
    };
    let g = Gen { context, location: nest.location(), r, plan, update_loads, epilogue_loads };
    let mut positions = vec![Position { value: None, offset: 0 }; r.statement.loops.len()];
    g.outer(Place { block: parent, before: Some(nest) }, 0, &mut positions)
}

/// Where to put the next op: before `before`, or at the end of `block`.
#[derive(Clone, Copy)]
struct Place<'c, 'a> {
    block: BlockRef<'c, 'a>,
    before: Option<OperationRef<'c, 'a>>,
}

impl<'c, 'a> Place<'c, 'a> {
    fn put(&self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        match self.before {
            Some(before) => self.block.insert_operation_before(before, op),
            None => self.block.append_operation(op),
        }
    }
}

struct Gen<'g, 'c, 's, 'a> {
    context: &'c Context,
    location: Location<'c>,
    r: &'g Reduction<'s, 'c, 'a>,
    plan: &'g Plan,
    /// The reduction's accesses, each with the view it reads through.
    update_loads: Vec<ViewedLoad<'c, 'a>>,
    /// The epilogue's loads, each with the view it reads through.
    epilogue_loads: Vec<ViewedLoad<'c, 'a>>,
}

/// A load's op, its indices, and the memref to read instead of the op's,
/// when one (a view without trailing unit dimensions).
type ViewedLoad<'c, 'a> = (OperationRef<'c, 'a>, Vec<Aff>, Option<Value<'c, 'a>>);

/// What a tile's innermost body emits once and reuses across its cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Reused {
    /// Access `access` (a load) for tile row `row` (`None`: the same for
    /// every row), at column `offset` (`None`: the same for every column),
    /// `width` lanes.
    Load { access: usize, row: Option<i64>, offset: Option<i64>, width: i64 },
    /// A value from outside the nest (or a constant), as `width` lanes.
    Outside { value: usize, width: i64 },
}

type Memo<'c, 'a> = HashMap<Reused, Value<'c, 'a>>;

/// `memo[key]`, made by `make` the first time.
fn reused<'c, 'a>(
    memo: &mut Memo<'c, 'a>,
    key: Reused,
    make: impl FnOnce() -> Result<Value<'c, 'a>, String>,
) -> Result<Value<'c, 'a>, String> {
    if let Some(value) = memo.get(&key) {
        return Ok(*value);
    }
    let value = make()?;
    memo.insert(key, value);
    Ok(value)
}

fn key(v: Value) -> usize {
    v.to_raw().ptr as usize
}

impl<'c, 'a> Gen<'_, 'c, '_, 'a> {
    fn map(&self, text: &str) -> Result<Attribute<'c>, String> {
        Attribute::parse(self.context, text).ok_or_else(|| format!("bad affine map {text}"))
    }

    /// `affine.for lo to hi step step` carrying `initial`, put at `place`;
    /// returns it (its body block holds only its arguments: the caller
    /// fills it and ends it with `affine.yield`).
    fn for_loop(&self, place: Place<'c, 'a>, (lo, hi): (i64, i64), step: i64, initial: &[Value<'c, 'a>]) -> Result<OperationRef<'c, 'a>, String> {
        let mut arguments = vec![(Type::index(self.context), self.location)];
        arguments.extend(initial.iter().map(|v| (v.r#type(), self.location)));
        let region = Region::new();
        region.append_block(Block::new(&arguments));
        let bounds = (constant_map(self.context, lo), constant_map(self.context, hi));
        Ok(place.put(affine_for_carrying(self.context, self.location, bounds, &[], step, initial, region)?))
    }

    fn body(op: OperationRef<'c, 'a>) -> Result<BlockRef<'c, 'a>, String> {
        op.region(0).map_err(|e| e.to_string())?.first_block().ok_or_else(|| "loop without a body".to_string())
    }

    fn argument(block: BlockRef<'c, 'a>, n: usize) -> Result<Value<'c, 'a>, String> {
        Ok(block.argument(n).map_err(|e| e.to_string())?.into())
    }

    fn yield_values(&self, block: BlockRef<'c, 'a>, values: &[Value<'c, 'a>]) {
        block.append_operation(build_operation(self.context, self.location, "affine.yield", values, &[], &[], vec![]));
    }

    /// The loops outside the tile rows (from `level` on), then the rows.
    fn outer(&self, place: Place<'c, 'a>, level: usize, positions: &mut Vec<Position<'c, 'a>>) -> Result<(), String> {
        let Some(&d) = self.r.outer.get(level) else { return self.row_loops(place, positions) };
        let lp = match &self.r.general[d] {
            Some((lower, upper)) => {
                let (names, results, operands) = self.map_parts(&[lower.clone(), upper.clone()].concat(), positions)?;
                let map = |part: &[String]| self.map(&format!("affine_map<({}) -> ({})>", names.join(", "), part.join(", ")));
                let bounds = (map(&results[..lower.len()])?, map(&results[lower.len()..])?);
                let region = Region::new();
                region.append_block(Block::new(&[(Type::index(self.context), self.location)]));
                place.put(affine_for_carrying(self.context, self.location, bounds, &operands, 1, &[], region)?)
            }
            None => self.for_loop(place, self.r.bounds[d], 1, &[])?,
        };
        let body = Self::body(lp)?;
        positions[d] = Position { value: Some(Self::argument(body, 0)?), offset: 0 };
        self.outer(Place { block: body, before: None }, level + 1, positions)?;
        self.yield_values(body, &[]);
        Ok(())
    }

    /// Rows `rows` at a time, then the rest as one shorter tile.
    fn row_loops(&self, place: Place<'c, 'a>, positions: &mut Vec<Position<'c, 'a>>) -> Result<(), String> {
        let Some(i) = self.r.i else { return self.column_tiles(place, 1, positions) };
        let (lo, hi) = self.r.bounds[i];
        let rows = self.plan.rows;
        let main_end = lo + (hi - lo) / rows * rows;
        if main_end == lo + rows {
            positions[i] = Position { value: None, offset: lo };
            self.column_tiles(place, rows, positions)?;
        } else if main_end > lo {
            let lp = self.for_loop(place, (lo, main_end), rows, &[])?;
            let body = Self::body(lp)?;
            positions[i] = Position { value: Some(Self::argument(body, 0)?), offset: 0 };
            self.column_tiles(Place { block: body, before: None }, rows, positions)?;
            self.yield_values(body, &[]);
        }
        if main_end < hi {
            positions[i] = Position { value: None, offset: main_end };
            self.column_tiles(place, hi - main_end, positions)?;
        }
        Ok(())
    }

    /// The full column tiles (a loop), then the row's end.
    fn column_tiles(&self, place: Place<'c, 'a>, rows: i64, positions: &mut Vec<Position<'c, 'a>>) -> Result<(), String> {
        let j = self.r.j;
        let (lo, _) = self.r.bounds[j];
        let plan = self.plan;
        let tiles_end = lo + plan.full_tiles * plan.tile_columns;
        if plan.full_tiles == 1 {
            positions[j] = Position { value: None, offset: lo };
            self.tile(place, rows, &plan.columns, positions)?;
        } else if plan.full_tiles > 1 {
            let lp = self.for_loop(place, (lo, tiles_end), plan.tile_columns, &[])?;
            let body = Self::body(lp)?;
            positions[j] = Position { value: Some(Self::argument(body, 0)?), offset: 0 };
            self.tile(Place { block: body, before: None }, rows, &plan.columns, positions)?;
            self.yield_values(body, &[]);
        }
        if !plan.tail.is_empty() {
            positions[j] = Position { value: None, offset: tiles_end };
            self.tile(place, rows, &plan.tail, positions)?;
        }
        Ok(())
    }

    /// One tile: `rows` rows from `positions[i]`, the `columns` (offset,
    /// width) from `positions[j]`.
    fn tile(&self, place: Place<'c, 'a>, rows: i64, columns: &[(i64, i64)], positions: &mut Vec<Position<'c, 'a>>) -> Result<(), String> {
        let r = self.r;
        let s = r.statement;
        let cells: Vec<(i64, i64, i64)> = (0..rows).flat_map(|row| columns.iter().map(move |(offset, width)| (row, *offset, *width))).collect();
        let mut initial = Vec::new();
        let mut starts = Memo::new();
        for &(row, offset, width) in &cells {
            let at = self.shifted(positions, row, offset);
            initial.push(match r.fill {
                Some((_, value)) => reused(&mut starts, Reused::Outside { value: key(value), width }, || self.broadcast(place, value, width))?,
                None => self.load(place, r.c_read, &at, width)?,
            });
        }
        let results = self.reductions(place, 0, &initial, &cells, positions)?;
        let c = s.accesses[r.c_write].op.operand(1).map_err(|e| e.to_string())?;
        let mut after = Memo::new();
        for (n, &(row, offset, width)) in cells.iter().enumerate() {
            let at = self.shifted(positions, row, offset);
            let value = match &r.epilogue {
                Some(e) => {
                    let expr = Expr { loads: &self.epilogue_loads, ops: &e.ops, c_load: e.c_load, result: e.result };
                    self.evaluate(place, &expr, results[n], row, offset, width, positions, &mut after)?
                }
                None => results[n],
            };
            let (map, operands) = self.access_map(r.c_write, &at)?;
            let name = if width > 1 { "affine.vector_store" } else { "affine.store" };
            let mut all = vec![value, c];
            all.extend(operands);
            place.put(build_operation(self.context, self.location, name, &all, &[], &[("map", map)], vec![]));
        }
        Ok(())
    }

    /// The reduction loops from `level` on, carrying the tile's values;
    /// returns their final values.
    fn reductions(
        &self,
        place: Place<'c, 'a>,
        level: usize,
        values: &[Value<'c, 'a>],
        cells: &[(i64, i64, i64)],
        positions: &mut Vec<Position<'c, 'a>>,
    ) -> Result<Vec<Value<'c, 'a>>, String> {
        let Some(&d) = self.r.reductions.get(level) else {
            // The innermost body: each cell's update.
            let mut memo = Memo::new();
            let mut next = Vec::new();
            let c_load = self.r.statement.accesses[self.r.c_read].op;
            let expr = Expr { loads: &self.update_loads, ops: &self.r.update.ops, c_load, result: self.r.update.result };
            for (n, &(row, offset, width)) in cells.iter().enumerate() {
                next.push(self.evaluate(place, &expr, values[n], row, offset, width, positions, &mut memo)?);
            }
            return Ok(next);
        };
        let lp = self.for_loop(place, self.r.bounds[d], 1, values)?;
        let body = Self::body(lp)?;
        positions[d] = Position { value: Some(Self::argument(body, 0)?), offset: 0 };
        let carried: Vec<Value> = (0..values.len()).map(|n| Self::argument(body, n + 1)).collect::<Result<_, _>>()?;
        let next = self.reductions(Place { block: body, before: None }, level + 1, &carried, cells, positions)?;
        self.yield_values(body, &next);
        (0..values.len()).map(|n| lp.result(n).map(Value::from).map_err(|e| e.to_string())).collect()
    }

    /// `positions` with the row and column moved to `row` and `offset`.
    fn shifted(&self, positions: &[Position<'c, 'a>], row: i64, offset: i64) -> Vec<Position<'c, 'a>> {
        let mut at = positions.to_vec();
        if let Some(i) = self.r.i {
            at[i].offset += row;
        }
        at[self.r.j].offset += offset;
        at
    }

    /// The map attribute and operands of access `k` at `at`.
    fn access_map(&self, k: usize, at: &[Position<'c, 'a>]) -> Result<(Attribute<'c>, Vec<Value<'c, 'a>>), String> {
        self.map_of(&self.r.statement.accesses[k].indices, at)
    }

    /// The map attribute and operands of `indices` (in the nest's loops and
    /// symbols) at `at`.
    fn map_of(&self, indices: &[Aff], at: &[Position<'c, 'a>]) -> Result<(Attribute<'c>, Vec<Value<'c, 'a>>), String> {
        let (names, results, operands) = self.map_parts(indices, at)?;
        let map = self.map(&format!("affine_map<({}) -> ({})>", names.join(", "), results.join(", ")))?;
        Ok((map, operands))
    }

    /// The dimension names, result expressions and operands of `indices` at
    /// `at` (a map's parts).
    #[allow(clippy::type_complexity)]
    fn map_parts(&self, indices: &[Aff], at: &[Position<'c, 'a>]) -> Result<(Vec<String>, Vec<String>, Vec<Value<'c, 'a>>), String> {
        let mut operands: Vec<Value<'c, 'a>> = Vec::new();
        let dims: Vec<Aff> = at
            .iter()
            .enumerate()
            .map(|(d, p)| match p.value {
                // (Only loops the access uses: the others' values may be
                // those of another tile's loops.)
                Some(v) if indices.iter().any(|e| e.uses_dim(d)) => {
                    let q = operands.iter().position(|o| key(*o) == key(v)).unwrap_or_else(|| {
                        operands.push(v);
                        operands.len() - 1
                    });
                    Aff::Dim(q).plus(Aff::Const(p.offset))
                }
                _ => Aff::Const(p.offset),
            })
            .zip(&self.r.starts)
            .map(|(dim, start)| match start {
                Some(start) => dim.plus(start.clone()),
                None => dim,
            })
            .collect();
        // The symbols (loops around the nest: not valid affine symbols
        // inside it) are dimensions of the map too.
        let mut symbols = Vec::new();
        for &value in &self.r.params {
            let q = operands.iter().position(|o| key(*o) == key(value)).unwrap_or_else(|| {
                operands.push(value);
                operands.len() - 1
            });
            symbols.push(format!("d{q}"));
        }
        let names: Vec<String> = (0..operands.len()).map(|q| format!("d{q}")).collect();
        let results: Vec<String> = indices.iter().map(|e| e.substitute(&dims).to_mlir_named(&names, &symbols)).collect();
        Ok((names, results, operands))
    }

    /// Access `k` (a load) at `at`: `width` consecutive elements (a vector
    /// when above 1).
    fn load(&self, place: Place<'c, 'a>, k: usize, at: &[Position<'c, 'a>], width: i64) -> Result<Value<'c, 'a>, String> {
        let access = &self.r.statement.accesses[k];
        self.load_of(place, access.op, None, &access.indices, at, width)
    }

    /// The load `op` re-indexed by `indices` at `at`: `width` consecutive
    /// elements (a vector when above 1).
    fn load_of(
        &self,
        place: Place<'c, 'a>,
        op: OperationRef<'c, 'a>,
        view: Option<Value<'c, 'a>>,
        indices: &[Aff],
        at: &[Position<'c, 'a>],
        width: i64,
    ) -> Result<Value<'c, 'a>, String> {
        let memref = match view {
            Some(view) => view,
            None => op.operand(0).map_err(|e| e.to_string())?,
        };
        let element = op.result(0).map_err(|e| e.to_string())?.r#type();
        let (map, operands) = self.map_of(indices, at)?;
        let mut all = vec![memref];
        all.extend(operands);
        let (name, ty) = if width > 1 { ("affine.vector_load", self.vector(element, width)) } else { ("affine.load", element) };
        let op = place.put(build_operation(self.context, self.location, name, &all, &[ty], &[("map", map)], vec![]));
        op.result(0).map(Value::from).map_err(|e| e.to_string())
    }

    fn vector(&self, element: Type<'c>, width: i64) -> Type<'c> {
        Type::vector(&[width as u64], element)
    }

    /// `value` as a vector of `width` lanes (as it is when `width` is 1).
    fn broadcast(&self, place: Place<'c, 'a>, value: Value<'c, 'a>, width: i64) -> Result<Value<'c, 'a>, String> {
        if width == 1 {
            return Ok(value);
        }
        let ty = self.vector(value.r#type(), width);
        let op = place.put(build_operation(self.context, self.location, "vector.broadcast", &[value], &[ty], &[], vec![]));
        op.result(0).map(Value::from).map_err(|e| e.to_string())
    }

    /// `expr` for one cell (`row`, columns `offset..offset + width`) from
    /// the running value `acc` standing for its load of C: the statement's
    /// expression on vectors of `width` lanes.
    #[allow(clippy::too_many_arguments)]
    fn evaluate(
        &self,
        place: Place<'c, 'a>,
        expr: &Expr<'_, 'c, 'a>,
        acc: Value<'c, 'a>,
        row: i64,
        offset: i64,
        width: i64,
        positions: &[Position<'c, 'a>],
        memo: &mut Memo<'c, 'a>,
    ) -> Result<Value<'c, 'a>, String> {
        let r = self.r;
        let (i, j) = (r.i, r.j);
        let at = self.shifted(positions, row, offset);
        let mut values: HashMap<usize, Value<'c, 'a>> = HashMap::new();
        for op in expr.ops {
            let result: Value = op.result(0).map_err(|e| e.to_string())?.into();
            let new = if *op == expr.c_load {
                acc
            } else if is_named(*op, "affine.load") {
                let k = expr.loads.iter().position(|(load, _, _)| load == op).ok_or("load without an access")?;
                let (_, indices, view) = &expr.loads[k];
                let moves_j = indices.iter().any(|e| e.uses_dim(j));
                let moves_i = i.is_some_and(|i| indices.iter().any(|e| e.uses_dim(i)));
                let row = moves_i.then_some(row);
                if moves_j {
                    reused(memo, Reused::Load { access: k, row, offset: Some(offset), width }, || self.load_of(place, *op, *view, indices, &at, width))?
                } else {
                    let scalar =
                        reused(memo, Reused::Load { access: k, row, offset: None, width: 1 }, || self.load_of(place, *op, *view, indices, &at, 1))?;
                    reused(memo, Reused::Load { access: k, row, offset: None, width }, || self.broadcast(place, scalar, width))?
                }
            } else if is_named(*op, "arith.constant") {
                let scalar = reused(memo, Reused::Outside { value: key(result), width: 1 }, || {
                    place.put(ffi::clone_operation(*op)).result(0).map(Value::from).map_err(|e| e.to_string())
                })?;
                reused(memo, Reused::Outside { value: key(result), width }, || self.broadcast(place, scalar, width))?
            } else {
                let mut operands = Vec::new();
                for operand in op.operands() {
                    let mapped = match values.get(&key(operand)) {
                        Some(v) => *v,
                        // From outside the nest: the same for every lane.
                        None => reused(memo, Reused::Outside { value: key(operand), width }, || self.broadcast(place, operand, width))?,
                    };
                    operands.push(mapped);
                }
                let types: Vec<Type> = op
                    .results()
                    .map(|v| if width > 1 { self.vector(v.r#type(), width) } else { v.r#type() })
                    .collect();
                let attributes: Vec<(Identifier, Attribute)> = op.attributes().collect();
                let name = op.name();
                let built = OperationBuilder::new(name.as_string_ref().as_str().map_err(|e| e.to_string())?, self.location)
                    .add_operands(&operands)
                    .add_results(&types)
                    .add_attributes(&attributes)
                    .build()
                    .map_err(|e| e.to_string())?;
                place.put(built).result(0).map_err(|e| e.to_string())?.into()
            };
            values.insert(key(result), new);
        }
        values.get(&key(expr.result)).copied().ok_or_else(|| "the update has no result".to_string())
    }
}
