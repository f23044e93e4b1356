//! The loops' roles in a multiply-accumulate nest `C[..i..j] += x * y`,
//! shared by the passes that map contractions onto a unit computing whole
//! tiles of products (`pb-matrix-tile`: AMX and dot-product instructions on
//! the CPU; `pb-gpu-mma`: tensor cores). Each pass checks the element types
//! it takes; the roles come from the accesses alone:
//!
//! - `j`: C's last index, a loop alone (unit stride in C); B moves with it
//!   and A does not (which operand is A is decided by this);
//! - `i`: a C index alone that A uses and B does not (C's second-to-last
//!   first), and `i_outer`, the C loops just outside it flattened with it
//!   into the rows when its trip count is not a whole number of blocks (a
//!   convolution's batch and output rows with its output columns);
//! - `reductions`: the loops in no C index, the one A reads contiguously
//!   innermost;
//! - `outer`: the other C loops (a batch), around the kernel.
//!
//! Loops of one iteration take no role: they index as their one value.

use melior::ir::{operation::OperationLike, OperationRef, Value};
use pb_polyhedral::{scop::Statement, Aff};
use pb_support::{ffi, ir::is_named};

/// A multiply-accumulate statement: `C = C + x * y`, each factor a load or
/// an extension of one.
pub(crate) struct Mac<'c, 'a> {
    /// C's write access.
    pub c: usize,
    pub add: OperationRef<'c, 'a>,
    pub mul: OperationRef<'c, 'a>,
    /// The factors: (access, the extension applied to the load if any).
    pub x: (usize, Option<OperationRef<'c, 'a>>),
    pub y: (usize, Option<OperationRef<'c, 'a>>),
}

/// The statement as a multiply-accumulate, if it is one (four exact
/// accesses, constant unit-step bounds, no other ops but index arithmetic).
pub(crate) fn multiply_accumulate<'c, 'a>(s: &Statement<'c, 'a>) -> Option<Mac<'c, 'a>> {
    if s.bounds.iter().any(|b| b.constant().is_none() || b.step != 1) {
        return None;
    }
    if s.accesses.len() != 4 || s.accesses.iter().any(|a| !a.exact || a.indices.iter().any(Aff::uses_symbols)) {
        return None;
    }
    let c = s.accesses.iter().position(|a| a.write)?;
    let w = &s.accesses[c];
    let c_read = s.accesses.iter().position(|a| !a.write && a.array == w.array && a.indices == w.indices)?;
    let in_statement = |v: Value<'c, 'a>| ffi::defining_op(v).filter(|op| s.ops.contains(op));
    let add = in_statement(w.op.operand(0).ok()?)?;
    let (p, q) = (add.operand(0).ok()?, add.operand(1).ok()?);
    let c_value: Value<'c, 'a> = s.accesses[c_read].op.result(0).ok()?.into();
    let product = if p == c_value { q } else if q == c_value { p } else { return None };
    let mul = in_statement(product)?;
    // (access, extension) of a factor: a load, or an extension of one.
    let factor = |v: Value<'c, 'a>| -> Option<(usize, Option<OperationRef<'c, 'a>>)> {
        let op = in_statement(v)?;
        let (load, ext) = if op.name().as_string_ref().as_str().ok()?.starts_with("arith.ext") {
            (in_statement(op.operand(0).ok()?)?, Some(op))
        } else {
            (op, None)
        };
        let k = s.accesses.iter().position(|a| !a.write && a.op == load)?;
        Some((k, ext))
    };
    let x = factor(mul.operand(0).ok()?)?;
    let y = factor(mul.operand(1).ok()?)?;
    // Every op is the product's: 4 accesses, the extensions, mul, add, index arithmetic.
    let expected = 6 + usize::from(x.1.is_some()) + usize::from(y.1.is_some());
    let counted = s.ops.iter().filter(|op| !is_named(**op, "affine.apply")).count();
    if x.0 == y.0 || x.0 == c_read || y.0 == c_read || counted != expected {
        return None;
    }
    Some(Mac { c, add, mul, x, y })
}

/// The loops' roles (positions in the nest).
pub(crate) struct Roles {
    /// Accesses: the operand that does not move with `j`, the one that
    /// does, C's write.
    pub a: usize,
    pub b: usize,
    pub c: usize,
    pub bounds: Vec<(i64, i64)>,
    pub i: usize,
    /// C loops just outside `i` flattened with it into the rows,
    /// outermost first (`(n * H + h) * W + w` for a channels-last
    /// convolution): rows that `i` alone would leave short of whole blocks
    /// (a 7 x 7 or 56 x 56 feature map) run as one `M = N * H * W`.
    pub i_outer: Vec<usize>,
    pub j: usize,
    /// Loops flattened with `j` into the columns (a C index `256 j' + j`),
    /// outermost first.
    pub j_outer: Vec<usize>,
    pub reductions: Vec<usize>,
    /// C loops other than `i` and `j`, outermost first.
    pub outer: Vec<usize>,
}

impl Roles {
    pub fn trip(&self, d: usize) -> i64 {
        self.bounds[d].1 - self.bounds[d].0
    }
    /// Rows: `i`, times the loops flattened with it.
    pub fn m(&self) -> i64 {
        self.trip(self.i) * self.i_outer.iter().map(|d| self.trip(*d)).product::<i64>()
    }
    /// Columns: `j`, times the loops flattened with it.
    pub fn n(&self) -> i64 {
        self.trip(self.j) * self.j_outer.iter().map(|d| self.trip(*d)).product::<i64>()
    }
    /// Sets the column loops' values in `dims` from flattened column `col`.
    pub fn set_col(&self, col: Aff, dims: &mut [Option<Aff>]) {
        let loops: Vec<usize> = self.j_outer.iter().copied().chain(std::iter::once(self.j)).collect();
        self.set_flat(&loops, col, dims);
    }
    /// Reductions, flattened.
    pub fn k(&self) -> i64 {
        self.reductions.iter().map(|r| self.trip(*r)).product()
    }
    /// Sets the row loops' values in `dims` from flattened row `row` (from
    /// 0): the innermost by remainder, the outermost by division.
    pub fn set_row(&self, row: Aff, dims: &mut [Option<Aff>]) {
        let loops: Vec<usize> = self.i_outer.iter().copied().chain(std::iter::once(self.i)).collect();
        self.set_flat(&loops, row, dims);
    }
    /// Sets `loops` (outermost first) in `dims` from their row-major
    /// flattening `row`: the innermost by remainder, the outermost by
    /// division.
    fn set_flat(&self, loops: &[usize], row: Aff, dims: &mut [Option<Aff>]) {
        let mut stride = 1;
        for (q, &d) in loops.iter().enumerate().rev() {
            let above = if stride == 1 { row.clone() } else { Aff::FloorDiv(Box::new(row.clone()), stride) };
            let value = if q == 0 { above } else { Aff::Mod(Box::new(above), self.trip(d)) };
            dims[d] = Some(value.plus(Aff::Const(self.bounds[d].0)));
            stride *= self.trip(d);
        }
    }
    /// Sets each of `reductions` (some of these roles', outermost first)
    /// in `dims` to its value at index `kf` of their row-major flattening.
    pub fn unflatten(&self, reductions: &[usize], kf: &Aff, dims: &mut [Option<Aff>]) {
        let mut stride = 1;
        for &r in reductions.iter().rev() {
            let value = Aff::Mod(Box::new(Aff::FloorDiv(Box::new(kf.clone()), stride)), self.trip(r));
            dims[r] = Some(value.plus(Aff::Const(self.bounds[r].0)));
            stride *= self.trip(r);
        }
    }
}

/// The roles of `mac`'s loops, and whether A is its factor `x`; `block`:
/// the rows a kernel takes at once (the rows flatten with outer loops when
/// `i`'s are not a multiple of it).
///
/// With `flatten`, a C index that flattens several loops (`C[2 i + i',
/// 256 j + j']`, loops a reshape split) takes them as one row or column
/// dimension (`i_outer`, `j_outer`), as the loops they came from.
pub(crate) fn roles(s: &Statement, mac: &Mac, block: i64, flatten: bool) -> Option<(Roles, bool)> {
    let bounds: Vec<(i64, i64)> = s.bounds.iter().map(|b| b.constant()).collect::<Option<_>>()?;
    let w = &s.accesses[mac.c];
    let (last, front) = w.indices.split_last()?;
    let columns = flattened_loops(last, &bounds).filter(|c| flatten || c.len() == 1)?;
    let (&j, j_outer) = columns.split_last()?;
    if front.iter().any(|e| columns.iter().any(|d| e.uses_dim(*d))) {
        return None;
    }
    let uses = |k: usize, d: usize| s.accesses[k].indices.iter().any(|e| e.uses_dim(d));
    let (kx, ky) = (mac.x.0, mac.y.0);
    let (a, b, a_is_x) = match (uses(kx, j), uses(ky, j)) {
        (false, true) => (kx, ky, true),
        (true, false) => (ky, kx, false),
        _ => return None,
    };
    if j_outer.iter().any(|d| uses(a, *d) || !uses(b, *d)) {
        return None;
    }
    let written: Vec<usize> = (0..bounds.len()).filter(|d| w.indices.iter().any(|e| e.uses_dim(*d))).collect();
    let once = |d: usize| bounds[d].1 - bounds[d].0 == 1;
    // `i`: the loops of a C index alone (or flattened in it), used by A,
    // not by B; C's second-to-last first.
    let rows_of = |e: &Aff| {
        let loops = flattened_loops(e, &bounds).filter(|l| flatten || l.len() == 1)?;
        loops.iter().all(|d| !columns.contains(d) && uses(a, *d) && !uses(b, *d) && !once(*d)).then_some(loops)
    };
    let row = |e: &Aff| rows_of(e).filter(|l| l.len() == 1).map(|l| l[0]);
    let row_loops = front.last().and_then(rows_of).or_else(|| front.iter().rev().find_map(rows_of))?;
    let (&i, i_within) = row_loops.split_last()?;
    if row_loops.iter().any(|d| front.iter().filter(|e| e.uses_dim(*d)).count() != 1) {
        return None;
    }
    let reductions: Vec<usize> = (0..bounds.len()).filter(|d| !written.contains(d) && !once(*d)).collect();
    // The C indices before `i`'s, loops alone that A uses and B does not,
    // join the rows when `i`'s rows are not whole blocks: the one just
    // before it, and each before that in turn (loops of one iteration are
    // passed over: they index as their one value).
    let mut i_outer = Vec::new();
    let rows: i64 = row_loops.iter().map(|d| bounds[*d].1 - bounds[*d].0).product();
    if let Some(q) = front.iter().position(|e| e.uses_dim(i)).filter(|_| rows % block != 0) {
        for e in front[..q].iter().rev() {
            if let Aff::Dim(d) = e {
                if once(*d) {
                    continue;
                }
            }
            match row(e).filter(|h| front.iter().filter(|x| x.uses_dim(*h)).count() == 1) {
                Some(h) => i_outer.insert(0, h),
                None => break,
            }
        }
    }
    i_outer.extend_from_slice(i_within);
    let outer: Vec<usize> = written
        .iter()
        .copied()
        .filter(|d| *d != i && *d != j && !i_outer.contains(d) && !j_outer.contains(d) && !once(*d))
        .collect();
    if reductions.is_empty() {
        return None;
    }
    // The reduction A reads contiguously (a channels-last convolution's
    // input channels, under the window's loops) goes innermost: a copy of
    // A's block then reads runs. The order of the reductions is free (each
    // C element gets one sum, the unit's own order inside a tile anyway).
    let mut reductions = reductions;
    let a_last = s.accesses[a].indices.last()?;
    if let Some(q) = reductions.iter().position(|r| a_last.coefficient(*r) == Some(1) && (0..bounds.len()).all(|d| d == *r || !a_last.uses_dim(d))) {
        let r = reductions.remove(q);
        reductions.push(r);
    }
    Some((Roles { a, b, c: mac.c, bounds, i, i_outer, j, j_outer: j_outer.to_vec(), reductions, outer }, a_is_x))
}

/// The loops `e` flattens, outermost first: `Dim(d)` alone, or (for two or
/// more) `sum s_q d_q` over loops from 0 whose strides are mixed-radix (the
/// innermost 1, each next the product of the trips inside it), as a
/// reshape of the loops' dimensions writes it.
pub(crate) fn flattened_loops(e: &Aff, bounds: &[(i64, i64)]) -> Option<Vec<usize>> {
    if let Aff::Dim(d) = e {
        return Some(vec![*d]);
    }
    let mut terms = Vec::new();
    for (d, bound) in bounds.iter().enumerate() {
        match e.coefficient(d)? {
            0 => {}
            c if c > 0 && bound.0 == 0 => terms.push((c, d)),
            _ => return None,
        }
    }
    let linear = terms.iter().fold(Aff::Const(0), |sum, (c, d)| sum.plus(Aff::Dim(*d).scale(*c)));
    if terms.len() < 2 || e.constant_difference(&linear) != Some(0) {
        return None;
    }
    terms.sort_unstable();
    let mut stride = 1;
    for (c, d) in &terms {
        if *c != stride {
            return None;
        }
        stride *= bounds[*d].1 - bounds[*d].0;
    }
    Some(terms.iter().rev().map(|(_, d)| *d).collect())
}

/// Original index expressions over new loops: `dims[d]` is dimension `d`
/// as an expression over the new loops (`Dim(k)` = `env[k]`); dimensions
/// not given index as their lower bound (loops of one iteration).
pub(crate) fn rewrite(indices: &[Aff], dims: &[Option<Aff>], bounds: &[(i64, i64)]) -> Vec<Aff> {
    let substitution: Vec<Aff> =
        (0..bounds.len()).map(|d| dims[d].clone().unwrap_or(Aff::Const(bounds[d].0))).collect();
    indices.iter().map(|e| e.substitute(&substitution)).collect()
}
