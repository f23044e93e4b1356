//! `pb-transpose-tile`: copies that transpose (`B[.., q, .., p] = A[.., p, .., q]`
//! with `p` contiguous in A and `q` contiguous in B) move square blocks of
//! `width x width` elements through vector registers: `width` vector loads
//! along A's rows, one in-register transpose, `width` vector stores along
//! B's rows.
//!
//! Why: the vectorizer makes the innermost loop of such a copy contiguous
//! on one side only, so the other side is read or written one element at a
//! time, `width` cache lines apart (a `vinsertps` per element). Models
//! transpose a lot: every `nn.Linear` weight (torch-mlir lowers `x W^T` to a
//! `linalg.transpose` of W, then a matmul), attention's head permutes,
//! layout changes. BERT-base transposed 86M weight elements per call.
//!
//! ```text
//! for p, q: B[q][p] = A[p][q]
//! =>
//! for pb step W, qb step W:
//!   v_r = A[pb + r][qb .. qb+W]   (r < W; vector loads)
//!   t = transpose([v_0 .. v_W-1])
//!   B[qb + s][pb .. pb+W] = t[s]  (s < W; vector stores)
//! ```
//! plus the original nest for the rows and columns outside full blocks.
//!
//! Legality: a copy between two distinct arrays (no views, exact accesses)
//! where each B element is written once; the order of the writes is free.
//! Recognizes perfect nests with constant bounds whose only statement is a
//! 32-bit load stored unchanged; the two loops are the ones moving the last
//! index of A and of B, other loops stay outside the blocks in their order.

use crate::text_kernel;
use melior::{
    ir::{block::BlockLike, operation::OperationLike, OperationRef, RegionLike, ValueLike},
    Context,
};
use pb_polyhedral::{scop::Statement, Aff, Scop};
use pb_support::{ffi, ir::is_named, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-transpose-tile",
    summary: "Transposing copies move width x width blocks through registers (vector loads, in-register transpose, vector stores)",
    description: "Rewrites perfect nests copying A to B where A's last index moves with one loop and \
B's last index with another (a transpose) into blocks of width x width elements: vector loads along \
A, vector.transpose, vector stores along B; the original nest keeps the rows and columns outside full \
blocks. Refuses views, inexact accesses, element types other than 32-bit, and nests with other ops.",
    anchor: "func.func",
    options: &[
        PassOption { name: "width", kind: OptionKind::UInt, default: "8", help: "32-bit lanes of a vector register (the block size)" },
        PassOption { name: "report", kind: OptionKind::Bool, default: "false", help: "Explain each decision on stderr" },
    ],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(TransposeTile { width: options.uint("width").clamp(2, 16) as i64, report: options.bool("report") })
}

#[derive(Clone)]
struct TransposeTile {
    width: i64,
    report: bool,
}

impl RustPass for TransposeTile {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["affine", "arith", "func", "vector"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        text_kernel::rewrite_each_nest(func, INFO.argument, self.report, |context, nest| self.tile(context, nest));
        Ok(())
    }
}

/// A transposing copy: the loops `p` (A's last index) and `q` (B's).
struct Transpose<'s, 'c, 'a> {
    statement: &'s Statement<'c, 'a>,
    bounds: Vec<(i64, i64)>,
    load: usize,
    store: usize,
    p: usize,
    q: usize,
}

impl TransposeTile {
    /// The decision, when there is one worth reporting.
    fn tile<'c>(&self, context: &'c Context, nest: OperationRef<'c, '_>) -> Option<String> {
        let scop = Scop::extract(&[nest]).ok()?;
        let [statement] = scop.statements.as_slice() else { return None };
        let copy = recognize(statement)?;
        // Buffers under one view root are one SCoP array.
        if statement.accesses[copy.load].array == statement.accesses[copy.store].array {
            return Some("not tiled: the copy reads the array it writes".into());
        }
        let w = self.width;
        let trip = |d: usize| copy.bounds[d].1 - copy.bounds[d].0;
        if trip(copy.p) < w || trip(copy.q) < w {
            return Some(format!("not tiled: the transposed loops run {} and {} times, fewer than a block of {w}", trip(copy.p), trip(copy.q)));
        }
        let text = kernel_text(&copy, w).ok()?;
        splice(context, nest, &copy, &text, w).ok()?;
        Some(format!("transposing copy in {w}x{w} blocks ({} x {} elements)", trip(copy.p), trip(copy.q)))
    }
}

fn recognize<'s, 'c, 'a>(s: &'s Statement<'c, 'a>) -> Option<Transpose<'s, 'c, 'a>> {
    let bounds: Vec<(i64, i64)> = s.bounds.iter().map(|b| b.constant().filter(|_| b.step == 1)).collect::<Option<_>>()?;
    let [first, second] = s.accesses.as_slice() else { return None };
    let (load, store) = match (first.write, second.write) {
        (false, true) => (0, 1),
        (true, false) => (1, 0),
        _ => return None,
    };
    let (l, st) = (&s.accesses[load], &s.accesses[store]);
    if !l.exact || !st.exact || l.indices.iter().chain(&st.indices).any(Aff::uses_symbols) {
        return None;
    }
    // Only the load and the store: the value is copied unchanged.
    if !s.ops.iter().all(|op| *op == l.op || *op == st.op || is_named(*op, "affine.apply")) {
        return None;
    }
    let value = st.op.operand(0).ok()?;
    if ffi::defining_op(value) != Some(l.op) {
        return None;
    }
    let ty = value.r#type().to_string();
    if !matches!(ty.as_str(), "f32" | "i32") {
        return None;
    }
    // The loop moving a last index alone, with unit coefficient.
    let mover = |indices: &[Aff]| -> Option<usize> {
        let last = indices.last()?;
        let used: Vec<usize> = (0..s.loops.len()).filter(|d| last.uses_dim(*d)).collect();
        match used.as_slice() {
            [d] if last.coefficient(*d) == Some(1) => Some(*d),
            _ => None,
        }
    };
    let (p, q) = (mover(&l.indices)?, mover(&st.indices)?);
    // A transpose: each side's contiguous loop moves another index of the
    // other side (p in B, q in A), so neither side is contiguous in both.
    let moves = |indices: &[Aff], d: usize| indices[..indices.len() - 1].iter().any(|e| e.uses_dim(d));
    if p == q || !moves(&st.indices, p) || !moves(&l.indices, q) {
        return None;
    }
    // Each B element written once: every loop appears in some B index.
    if (0..s.loops.len()).any(|d| !st.indices.iter().any(|e| e.uses_dim(d)) && bounds[d].1 - bounds[d].0 > 1) {
        return None;
    }
    Some(Transpose { statement: s, bounds, load, store, p, q })
}

/// The blocked copy as a function of A and B.
fn kernel_text(c: &Transpose, w: i64) -> Result<String, String> {
    let s = c.statement;
    let depth = s.loops.len();
    let ty = |k: usize| {
        let a = &s.accesses[k];
        a.op.operand(if a.write { 1 } else { 0 }).map(|v| v.r#type().to_string()).map_err(|e| e.to_string())
    };
    let (ta, tb) = (ty(c.load)?, ty(c.store)?);
    let element = s.accesses[c.store].op.operand(0).map_err(|e| e.to_string())?.r#type().to_string();
    let (p_lo, p_hi) = c.bounds[c.p];
    let (q_lo, q_hi) = c.bounds[c.q];
    let p_main = p_lo + (p_hi - p_lo) / w * w;
    let q_main = q_lo + (q_hi - q_lo) / w * w;
    // Loop names: p and q are block loops plus a row offset.
    let index = |k: usize, p: String, q: String| -> String {
        let dims: Vec<String> = (0..depth)
            .map(|d| {
                if d == c.p {
                    format!("({p})")
                } else if d == c.q {
                    format!("({q})")
                } else {
                    format!("%o{d}")
                }
            })
            .collect();
        s.accesses[k].indices.iter().map(|e| e.to_mlir_named(&dims, &[])).collect::<Vec<_>>().join(", ")
    };
    let row = format!("vector<{w}x{element}>");
    let block = format!("vector<{w}x{w}x{element}>");
    let mut t = format!("func.func @pb_kernel(%A: {ta}, %B: {tb}) {{\n");
    let outer: Vec<usize> = (0..depth).filter(|d| *d != c.p && *d != c.q).collect();
    for d in &outer {
        let (lo, hi) = c.bounds[*d];
        t.push_str(&format!("affine.for %o{d} = {lo} to {hi} {{\n"));
    }
    t.push_str(&format!("affine.for %pb = {p_lo} to {p_main} step {w} {{\n"));
    t.push_str(&format!("affine.for %qb = {q_lo} to {q_main} step {w} {{\n"));
    let zero = if element.starts_with('f') { "0.000000e+00" } else { "0" };
    t.push_str(&format!("%m0 = arith.constant dense<{zero}> : {block}\n"));
    // Rows of A along p (contiguous), one per q in the block.
    for r in 0..w {
        t.push_str(&format!(
            "%v{r} = affine.vector_load %A[{}] : {ta}, {row}\n",
            index(c.load, "%pb".into(), format!("%qb + {r}"))
        ));
        t.push_str(&format!("%m{} = vector.insert %v{r}, %m{r} [{r}] : {row} into {block}\n", r + 1));
    }
    t.push_str(&format!("%t = vector.transpose %m{w}, [1, 0] : {block} to {block}\n"));
    // Rows of B along q (contiguous), one per p in the block.
    for r in 0..w {
        t.push_str(&format!("%u{r} = vector.extract %t[{r}] : {row} from {block}\n"));
        t.push_str(&format!(
            "affine.vector_store %u{r}, %B[{}] : {tb}, {row}\n",
            index(c.store, format!("%pb + {r}"), "%qb".into())
        ));
    }
    t.push_str("}\n}\n");
    for _ in &outer {
        t.push_str("}\n");
    }
    t.push_str("return\n}\n");
    Ok(t)
}

/// Puts the blocked copy in place of `nest`; clones of the original nest
/// keep the rows past the last full block (all columns) and the columns
/// past it (rows of full blocks).
fn splice<'c>(context: &'c Context, nest: OperationRef<'c, '_>, c: &Transpose, text: &str, w: i64) -> Result<(), String> {
    let s = c.statement;
    let parent = nest.block().ok_or("nest outside a block")?;
    let (p_lo, p_hi) = c.bounds[c.p];
    let (q_lo, q_hi) = c.bounds[c.q];
    let p_main = p_lo + (p_hi - p_lo) / w * w;
    let q_main = q_lo + (q_hi - q_lo) / w * w;
    text_kernel::splice(context, nest, text, INFO.argument, |body| {
        for (position, k) in [c.load, c.store].into_iter().enumerate() {
            let access = &s.accesses[k];
            let memref = access.op.operand(if access.write { 1 } else { 0 }).map_err(|e| e.to_string())?;
            text_kernel::bind_argument(body, position, memref)?;
        }
        if p_main < p_hi {
            let rows = parent.insert_operation_after(nest, ffi::clone_operation(nest));
            set_bounds(context, rows, c.p, p_main, p_hi)?;
        }
        if q_main < q_hi {
            let columns = parent.insert_operation_after(nest, ffi::clone_operation(nest));
            set_bounds(context, columns, c.p, p_lo, p_main)?;
            set_bounds(context, columns, c.q, q_main, q_hi)?;
        }
        Ok(())
    })
}

/// Sets the constant bounds of the loop at `depth` in a perfect nest.
fn set_bounds(context: &Context, nest: OperationRef, depth: usize, lower: i64, upper: i64) -> Result<(), String> {
    let mut current = nest;
    for _ in 0..depth {
        current = current
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .and_then(|b| b.first_operation())
            .ok_or("not a perfect nest")?;
    }
    ffi::set_attribute(current, "lowerBoundMap", crate::affine_access::constant_map(context, lower));
    ffi::set_attribute(current, "upperBoundMap", crate::affine_access::constant_map(context, upper));
    Ok(())
}
