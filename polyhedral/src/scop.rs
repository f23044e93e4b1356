//! Extraction of a static control part (SCoP) from affine IR: a run of
//! `affine.for` nests in one block becomes ISL objects — an iteration domain
//! per statement, read and write access relations, and the original
//! schedule in 2d+1 form (`[b0, i0, b1, i1, ..., bd]`: `b` = textual
//! position among siblings, `i` = loop counters).
//!
//! A *statement* is a maximal run of consecutive non-loop ops in one loop
//! body. What is representable:
//! - loops: `affine.for` without `iter_args` (with them only for
//!   [`Scop::extract_accesses`]'s dependence analysis), constant step, bounds whose
//!   operands are enclosing induction variables or values defined outside
//!   the nests (ISL parameters); a step other than 1 needs a single lower
//!   bound;
//! - statement ops: `affine.load`/`affine.store` (the only memory effects),
//!   `affine.apply`, side-effect-free `arith` and `math` ops; values flow
//!   only within a statement (not between statements through SSA);
//! - ops between the nests that only define buffers or constants
//!   (`memref.alloc`, `arith.constant`, `memref.get_global`, views) are
//!   allowed: the transformations hoist them above the SCoP.
//!
//! Memrefs that alias (a view and its source, or two views of one buffer)
//! are one ISL array, and each access to them is recorded as touching every
//! element: dependences through views are over-approximated, never missed.
//! Distinct function arguments are assumed not to alias (the runtime ABI
//! passes distinct buffers).

use crate::aff::Aff;
use melior::ir::{
    block::BlockLike,
    operation::OperationLike,
    r#type::{DimSize, MemRefType, ShapedTypeLike},
    BlockRef, OperationRef, RegionLike, Value, ValueLike,
};
use pb_support::{ffi, ir::is_named};
use std::collections::{HashMap, HashSet};

/// Identity of an SSA value (melior values compare by pointer only through
/// the raw handle).
pub fn key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

fn op_key(op: OperationRef) -> usize {
    op.to_raw().ptr as usize
}

#[derive(Debug)]
pub struct Access<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub write: bool,
    pub array: usize,
    /// Index expressions over the statement's loops (`Dim`) and the SCoP
    /// parameters (`Sym`); empty when `exact` is false.
    pub indices: Vec<Aff>,
    /// False for accesses through aliasing memrefs: the relation is then
    /// "any element of the array".
    pub exact: bool,
    /// Consecutive elements along the last dimension from the index (1; more
    /// for an `affine.vector_load`/`vector_store`, which only
    /// [`Scop::extract_accesses`] takes).
    pub lanes: i64,
}

#[derive(Debug)]
pub struct Statement<'c, 'a> {
    pub name: String,
    pub ops: Vec<OperationRef<'c, 'a>>,
    /// Enclosing loops, outermost first.
    pub loops: Vec<OperationRef<'c, 'a>>,
    pub ivs: Vec<Value<'c, 'a>>,
    /// Lower and upper (exclusive) bounds and step of each loop, over outer
    /// loops (`Dim`) and parameters (`Sym`).
    pub bounds: Vec<LoopBounds>,
    /// Textual positions: `beta[k]` is the position of the k-th loop (or,
    /// for the last entry, of the statement) among its siblings.
    pub beta: Vec<usize>,
    pub accesses: Vec<Access<'c, 'a>>,
}

#[derive(Clone, Debug)]
pub struct LoopBounds {
    pub lower: Vec<Aff>,
    pub upper: Vec<Aff>,
    pub step: i64,
}

impl LoopBounds {
    /// `(lower, upper)` when both are single constants.
    pub fn constant(&self) -> Option<(i64, i64)> {
        match (self.lower.as_slice(), self.upper.as_slice()) {
            ([lower], [upper]) => lower.constant().zip(upper.constant()),
            _ => None,
        }
    }
}

#[derive(Debug)]
pub struct Array<'c, 'a> {
    pub name: String,
    /// The memref values accessed under this name (more than one when they alias).
    pub values: Vec<Value<'c, 'a>>,
    pub shape: Vec<i64>,
    pub element_bytes: i64,
    /// Allocated inside the function (a temporary the SCoP may contract).
    pub local: bool,
}

#[derive(Debug)]
pub struct Scop<'c, 'a> {
    /// The top-level nests, in order.
    pub roots: Vec<OperationRef<'c, 'a>>,
    /// Ops between the roots that the SCoP hoists above itself.
    pub hoisted: Vec<OperationRef<'c, 'a>>,
    pub statements: Vec<Statement<'c, 'a>>,
    pub arrays: Vec<Array<'c, 'a>>,
    pub params: Vec<Value<'c, 'a>>,
}

/// Why a region is not a SCoP (for reports and refusals).
#[derive(Debug, Clone, PartialEq)]
pub struct NotAffine(pub String);

impl std::fmt::Display for NotAffine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn op_name(op: OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("?").to_string()
}

/// Ops that may sit between the nests of a SCoP: they define buffers or
/// constants and have no effect the nests could observe.
pub fn hoistable(op: OperationRef) -> bool {
    matches!(
        op_name(op).as_str(),
        "memref.alloc"
            | "memref.alloca"
            | "memref.get_global"
            | "arith.constant"
            | "memref.subview"
            | "memref.expand_shape"
            | "memref.collapse_shape"
            | "memref.reinterpret_cast"
            | "memref.cast"
    )
}

/// Groups the ops of `block` into maximal runs of nests (separated only by
/// hoistable ops); each run with at least one nest is a SCoP candidate.
pub fn candidate_runs<'c, 'a>(block: BlockRef<'c, 'a>) -> Vec<Vec<OperationRef<'c, 'a>>> {
    let mut runs = Vec::new();
    let mut current: Vec<OperationRef> = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if is_named(op, "affine.for") || (hoistable(op) && !current.is_empty()) {
            current.push(op);
        } else if !current.is_empty() {
            runs.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        runs.push(current);
    }
    runs
}

impl<'c, 'a> Scop<'c, 'a> {
    /// Builds the SCoP of a run from [`candidate_runs`].
    pub fn extract(run: &[OperationRef<'c, 'a>]) -> Result<Scop<'c, 'a>, NotAffine> {
        let scop = Self::build(run, false)?;
        scop.check_ssa_flow()?;
        Ok(scop)
    }

    /// [`Scop::extract`] for memory dependence analysis only: values may
    /// flow between statements (a register tile's loads hoisted out of the
    /// loop that uses them), statements may hold vector code
    /// (`affine.vector_load`/`vector_store` access `lanes` elements) and
    /// gathers (`memref.load` at computed indices: an inexact read of any
    /// element of its array, so dependences through it are over-approximated). Wrong
    /// for regenerating code, which clones each scalar statement on its own.
    pub fn extract_accesses(run: &[OperationRef<'c, 'a>]) -> Result<Scop<'c, 'a>, NotAffine> {
        Self::build(run, true)
    }

    /// [`Scop::extract`] that also takes gathers (`memref.load` at computed
    /// indices) of arrays no statement writes: inexact reads of inputs,
    /// which carry no dependence, cloned with their statement like any op
    /// (a bilateral grid's slicing, fused with the division after it).
    pub fn extract_with_gathers(run: &[OperationRef<'c, 'a>]) -> Result<Scop<'c, 'a>, NotAffine> {
        let scop = Self::build_with(run, false, true)?;
        scop.check_ssa_flow()?;
        let written: HashSet<usize> =
            scop.statements.iter().flat_map(|s| s.accesses.iter().filter(|a| a.write).map(|a| a.array)).collect();
        for s in &scop.statements {
            if let Some(a) = s.accesses.iter().find(|a| is_named(a.op, "memref.load") && written.contains(&a.array)) {
                return Err(NotAffine(format!("{} gathers from {}, which the loop nests write", s.name, scop.arrays[a.array].name)));
            }
        }
        Ok(scop)
    }

    fn build(run: &[OperationRef<'c, 'a>], analysis: bool) -> Result<Scop<'c, 'a>, NotAffine> {
        Self::build_with(run, analysis, false)
    }

    fn build_with(run: &[OperationRef<'c, 'a>], analysis: bool, gathers: bool) -> Result<Scop<'c, 'a>, NotAffine> {
        let mut roots: Vec<OperationRef> = run.iter().copied().filter(|op| is_named(*op, "affine.for")).collect();
        // Trailing hoistable ops belong after the SCoP, not in it.
        let last_root = roots.last().copied();
        let mut hoisted = Vec::new();
        let mut seen_last = false;
        for op in run {
            if Some(*op) == last_root {
                seen_last = true;
            } else if !is_named(*op, "affine.for") && !seen_last {
                hoisted.push(*op);
            }
        }
        let mut scop = Scop { roots: Vec::new(), hoisted, statements: Vec::new(), arrays: Vec::new(), params: Vec::new() };
        scop.roots = std::mem::take(&mut roots);
        let root_keys = scop.roots.iter().map(|op| op_key(*op)).collect();
        let mut builder = Builder {
            scop: &mut scop,
            loops: Vec::new(),
            ivs: Vec::new(),
            bounds: Vec::new(),
            beta: Vec::new(),
            arrays_by_root: HashMap::new(),
            root_keys,
            analysis,
            gathers,
        };
        let roots = builder.scop.roots.clone();
        for (position, root) in roots.iter().enumerate() {
            builder.beta.push(position);
            builder.visit_loop(*root)?;
            builder.beta.pop();
        }
        scop.finish_aliasing();
        Ok(scop)
    }

    /// Rejects values that flow between statements (or out of the SCoP):
    /// regenerated code clones each statement on its own.
    fn check_ssa_flow(&self) -> Result<(), NotAffine> {
        let mut owner = HashMap::new();
        for (index, statement) in self.statements.iter().enumerate() {
            for op in &statement.ops {
                owner.insert(op_key(*op), index);
            }
        }
        for (index, statement) in self.statements.iter().enumerate() {
            for op in &statement.ops {
                for operand in op.operands() {
                    if let Some(defining) = ffi::defining_op(operand) {
                        if owner.get(&op_key(defining)).is_some_and(|s| *s != index) {
                            return Err(NotAffine(format!(
                                "value of '{}' flows between statements",
                                op_name(defining)
                            )));
                        }
                    }
                }
                for result in op.results() {
                    // Uses outside the statement's own ops are not allowed.
                    if ffi::users(result.into()).iter().any(|user| owner.get(&op_key(*user)) != Some(&index)) {
                        return Err(NotAffine(format!("result of '{}' is used outside its statement", op_name(*op))));
                    }
                }
            }
        }
        Ok(())
    }

    pub fn param_names(&self) -> Vec<String> {
        (0..self.params.len()).map(|p| format!("P{p}")).collect()
    }

    /// `[P0, ..] -> `: the parameter list that starts an ISL text.
    pub fn param_prefix(&self) -> String {
        format!("[{}] -> ", self.param_names().join(", "))
    }

    /// `{ S[i0, ..] : bounds }` for one statement.
    pub fn domain(&self, s: &Statement) -> String {
        let params = self.param_names();
        let dims: Vec<String> = (0..s.loops.len()).map(|k| format!("i{k}")).collect();
        let mut constraints = Vec::new();
        for (k, b) in s.bounds.iter().enumerate() {
            for lower in &b.lower {
                constraints.push(format!("{} >= {}", dims[k], lower.to_isl(&dims, &params)));
            }
            for upper in &b.upper {
                constraints.push(format!("{} < {}", dims[k], upper.to_isl(&dims, &params)));
            }
            if b.step != 1 {
                constraints.push(format!(
                    "exists (e{k}: {} = {} + {} e{k})",
                    dims[k],
                    b.lower[0].to_isl(&dims, &params),
                    b.step
                ));
            }
        }
        let condition = if constraints.is_empty() { String::new() } else { format!(" : {}", constraints.join(" and ")) };
        format!("{}{{ {}[{}]{} }}", self.param_prefix(), s.name, dims.join(", "), condition)
    }

    /// The union of all statement domains.
    pub fn domains(&self) -> String {
        let parts: Vec<String> = self.statements.iter().map(|s| strip_braces(&self.domain(s))).collect();
        format!("{}{{ {} }}", self.param_prefix(), parts.join("; "))
    }

    /// `{ S[i] -> A[f(i)] }` of one exact access of `s` (not restricted to
    /// the domain).
    pub fn access_relation(&self, s: &Statement, indices: &[Aff], array: usize) -> String {
        let params = self.param_names();
        let dims: Vec<String> = (0..s.loops.len()).map(|k| format!("i{k}")).collect();
        let target: Vec<String> = indices.iter().map(|e| e.to_isl(&dims, &params)).collect();
        format!("{}{{ {}[{}] -> {}[{}] }}", self.param_prefix(), s.name, dims.join(", "), self.arrays[array].name, target.join(", "))
    }

    /// Is `array` a buffer used only by this SCoP's accesses (and its
    /// deallocation)? Such temporaries may be renamed, contracted or removed.
    pub fn is_private(&self, array: usize) -> bool {
        let accesses: HashSet<usize> = self.statements.iter().flat_map(|s| s.accesses.iter().map(|a| op_key(a.op))).collect();
        self.arrays[array].values.iter().all(|value| {
            ffi::users(*value).iter().all(|user| is_named(*user, "memref.dealloc") || accesses.contains(&op_key(*user)))
        })
    }

    /// Access relations (`{ S[i] -> A[f(i)] }`) of the reads or the writes,
    /// restricted to the domains by the caller.
    pub fn accesses(&self, write: bool) -> String {
        let params = self.param_names();
        let mut parts = Vec::new();
        for s in &self.statements {
            let dims: Vec<String> = (0..s.loops.len()).map(|k| format!("i{k}")).collect();
            for a in s.accesses.iter().filter(|a| a.write == write) {
                let array = &self.arrays[a.array];
                let mut target = if a.exact {
                    a.indices.iter().map(|e| e.to_isl(&dims, &params)).collect::<Vec<_>>()
                } else {
                    (0..array.shape.len()).map(|k| format!("o{k}")).collect()
                };
                // A vector access: `lanes` elements along the last dimension.
                let mut condition = String::new();
                if a.exact && a.lanes > 1 {
                    if let Some(last) = target.pop() {
                        condition = format!(" : {last} <= v < {last} + {}", a.lanes);
                        target.push("v".into());
                    }
                }
                parts.push(format!("{}[{}] -> {}[{}]{condition}", s.name, dims.join(", "), array.name, target.join(", ")));
            }
        }
        format!("{}{{ {} }}", self.param_prefix(), parts.join("; "))
    }

    /// The original execution order as a 2d+1 schedule, padded to one length.
    pub fn original_schedule(&self) -> String {
        let depth = self.statements.iter().map(|s| s.loops.len()).max().unwrap_or(0);
        let parts: Vec<String> = self
            .statements
            .iter()
            .map(|s| {
                let dims: Vec<String> = (0..s.loops.len()).map(|k| format!("i{k}")).collect();
                let mut time = Vec::new();
                for k in 0..=depth {
                    time.push(s.beta.get(k).map_or("0".to_string(), |b| b.to_string()));
                    if k < depth {
                        time.push(dims.get(k).cloned().unwrap_or_else(|| "0".to_string()));
                    }
                }
                format!("{}[{}] -> [{}]", s.name, dims.join(", "), time.join(", "))
            })
            .collect();
        format!("{}{{ {} }}", self.param_prefix(), parts.join("; "))
    }

    pub fn statement(&self, name: &str) -> Option<&Statement<'c, 'a>> {
        self.statements.iter().find(|s| s.name == name)
    }

    /// Marks arrays accessed through more than one memref value as inexact.
    fn finish_aliasing(&mut self) {
        for s in &mut self.statements {
            for a in &mut s.accesses {
                if self.arrays[a.array].values.len() > 1 {
                    a.exact = false;
                    a.indices.clear();
                }
            }
        }
    }
}

fn bit_width(ty: melior::ir::Type) -> i64 {
    ffi::int_or_float_width(ty).map_or(64, i64::from)
}

/// Identity ([`key`]) of the buffer a view is a view of (the value itself
/// if not a view).
pub fn view_root(memref: Value) -> usize {
    key(view_root_value(memref))
}

/// The buffer a view is a view of (the value itself if not a view).
fn view_root_value<'c: 'a, 'a>(memref: Value<'c, 'a>) -> Value<'c, 'a> {
    let mut current = memref;
    while let Some(owner) = ffi::defining_op(current) {
        // Slices of one byte buffer (`memref.view`, pooled temporaries) share it too.
        let is_view = pb_support::ir::is_view_op(owner) || is_named(owner, "memref.view");
        match ffi::operand(owner, 0) {
            Some(source) if is_view => current = source,
            _ => break,
        }
    }
    current
}

fn strip_braces(text: &str) -> String {
    let inner = text.split_once("-> {").map(|(_, rest)| rest).unwrap_or(text);
    inner.trim().trim_start_matches('{').trim_end_matches('}').trim().to_string()
}

struct Builder<'s, 'c, 'a> {
    scop: &'s mut Scop<'c, 'a>,
    loops: Vec<OperationRef<'c, 'a>>,
    ivs: Vec<Value<'c, 'a>>,
    bounds: Vec<LoopBounds>,
    beta: Vec<usize>,
    /// The array of each view root ([`view_root`]), and the roots' op keys:
    /// lookups stay constant-time in SCoPs of thousands of nests.
    arrays_by_root: HashMap<usize, usize>,
    root_keys: HashSet<usize>,
    /// Building for [`Scop::extract_accesses`]: vector code allowed.
    analysis: bool,
    /// Statements may hold gathers (`memref.load`).
    gathers: bool,
}

impl<'c, 'a> Builder<'_, 'c, 'a> {
    /// The array `memref` is (a view of), created on first sight, and whether
    /// the access is exact (the array's only value, and not a view).
    fn array_of(&mut self, memref: Value<'c, 'a>) -> Result<(usize, bool), NotAffine> {
        let root_value = view_root_value(memref);
        let root = key(root_value);
        // Every value of an array has the array's view root.
        if let Some(&index) = self.arrays_by_root.get(&root) {
            let array = &mut self.scop.arrays[index];
            if !array.values.iter().any(|v| key(*v) == key(memref)) {
                array.values.push(memref);
            }
            return Ok((index, array.values.len() == 1 && key(memref) == root));
        }
        let ty = MemRefType::try_from(root_value.r#type()).map_err(|_| NotAffine("access to a non-memref".into()))?;
        let shape: Vec<i64> = (0..ty.rank())
            .map(|k| match ty.dim_size(k) {
                Ok(DimSize::Static(n)) => n as i64,
                _ => -1,
            })
            .collect();
        let element = ty.element();
        let element_bytes = if melior::ir::TypeLike::is_index(&element) { 8 } else { (bit_width(element) + 7) / 8 };
        let local = ffi::defining_op(root_value).is_some_and(|owner| is_named(owner, "memref.alloc") || is_named(owner, "memref.alloca"));
        let arrays = &mut self.scop.arrays;
        arrays.push(Array { name: format!("A{}", arrays.len()), values: vec![memref], shape, element_bytes, local });
        self.arrays_by_root.insert(root, arrays.len() - 1);
        Ok((arrays.len() - 1, key(memref) == root))
    }

    fn visit_loop(&mut self, loop_op: OperationRef<'c, 'a>) -> Result<(), NotAffine> {
        // Values carried from one iteration to the next (`iter_args`: a
        // reduction kept in registers) are not memory: the analysis reads
        // the loop's accesses as any other's, and its users keep such a
        // loop sequential (`pb-parallelize`). A transformation of the SCoP
        // would have to carry them, so it refuses the loop.
        if loop_op.result_count() != 0 && !self.analysis {
            return Err(NotAffine("affine.for with iter_args".into()));
        }
        let bounds = self.loop_bounds(loop_op)?;
        let body = loop_op.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| NotAffine("loop without body".into()))?;
        let iv: Value = body.argument(0).map_err(|_| NotAffine("loop without induction variable".into()))?.into();
        self.loops.push(loop_op);
        self.ivs.push(iv);
        self.bounds.push(bounds);
        let mut position = 0;
        let mut pending: Vec<OperationRef> = Vec::new();
        let mut next = body.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            if is_named(op, "affine.yield") {
                continue;
            }
            if is_named(op, "affine.for") {
                if !pending.is_empty() {
                    self.add_statement(std::mem::take(&mut pending), position)?;
                    position += 1;
                }
                self.beta.push(position);
                self.visit_loop(op)?;
                self.beta.pop();
                position += 1;
            } else {
                check_statement_op(op, self.analysis, self.gathers)?;
                pending.push(op);
            }
        }
        if !pending.is_empty() {
            self.add_statement(pending, position)?;
        }
        self.loops.pop();
        self.ivs.pop();
        self.bounds.pop();
        Ok(())
    }

    fn loop_bounds(&mut self, loop_op: OperationRef<'c, 'a>) -> Result<LoopBounds, NotAffine> {
        let step = loop_op
            .attribute("step")
            .ok()
            .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
            .map(|a| a.value())
            .ok_or_else(|| NotAffine("loop without constant step".into()))?;
        let lower_map = loop_op.attribute("lowerBoundMap").ok().and_then(ffi::affine_map_of);
        let upper_map = loop_op.attribute("upperBoundMap").ok().and_then(ffi::affine_map_of);
        let (Some(lower_map), Some(upper_map)) = (lower_map, upper_map) else {
            return Err(NotAffine("loop bounds are not affine maps".into()));
        };
        // Bound operands, then the initial values of iter_args.
        let operands: Vec<Value> = loop_op.operands().collect();
        let lower_count = lower_map.input_count();
        let upper_count = upper_map.input_count();
        if operands.len() < lower_count + upper_count {
            return Err(NotAffine("loop bounds without their operands".into()));
        }
        let lower = self.map_results(lower_map, &operands[..lower_count])?;
        let upper = self.map_results(upper_map, &operands[lower_count..lower_count + upper_count])?;
        if step != 1 && lower.len() != 1 {
            return Err(NotAffine("strided loop with a max lower bound".into()));
        }
        Ok(LoopBounds { lower, upper, step })
    }

    /// The results of an affine map applied to operands, as expressions over
    /// the current loops and the SCoP parameters.
    fn map_results(&mut self, map: melior::ir::AffineMap, operands: &[Value<'c, 'a>]) -> Result<Vec<Aff>, NotAffine> {
        let mut vars = Vec::new();
        for operand in operands {
            vars.push(self.variable(*operand)?);
        }
        let (dims, syms) = vars.split_at(map.dim_count().min(vars.len()));
        (0..map.result_count())
            .map(|r| {
                let expr = map.result(r).map_err(|_| NotAffine("bad affine map".into()))?;
                let aff = Aff::from_mlir(expr).ok_or_else(|| NotAffine(format!("semi-affine expression {expr}")))?;
                Ok(aff.substitute_all(dims, syms))
            })
            .collect()
    }

    /// An index operand as `Dim` (enclosing loop) or `Sym` (parameter).
    fn variable(&mut self, value: Value<'c, 'a>) -> Result<Aff, NotAffine> {
        if let Some(depth) = self.ivs.iter().position(|iv| key(*iv) == key(value)) {
            return Ok(Aff::Dim(depth));
        }
        if let Some(owner) = ffi::defining_op(value) {
            if is_named(owner, "arith.constant") {
                // A constant index operand is a number, not a parameter.
                if let Some(c) = owner
                    .attribute("value")
                    .ok()
                    .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
                {
                    return Ok(Aff::Const(c.value()));
                }
            }
            if is_named(owner, "affine.apply") {
                // Folded: the apply's map over its own operands.
                let map = owner.attribute("map").ok().and_then(ffi::affine_map_of).ok_or_else(|| NotAffine("affine.apply without map".into()))?;
                let operands: Vec<Value<'c, 'a>> = owner.operands().collect();
                let results = self.map_results(map, &operands)?;
                return results.into_iter().next().ok_or_else(|| NotAffine("affine.apply without result".into()));
            }
        }
        if defined_inside(value, &self.root_keys) {
            return Err(NotAffine("index computed inside the loop nest".into()));
        }
        if let Some(p) = self.scop.params.iter().position(|p| key(*p) == key(value)) {
            return Ok(Aff::Sym(p));
        }
        self.scop.params.push(value);
        Ok(Aff::Sym(self.scop.params.len() - 1))
    }

    fn add_statement(&mut self, ops: Vec<OperationRef<'c, 'a>>, position: usize) -> Result<(), NotAffine> {
        let mut accesses = Vec::new();
        for op in &ops {
            let vector_store = is_named(*op, "affine.vector_store");
            let vector_load = is_named(*op, "affine.vector_load");
            let write = is_named(*op, "affine.store") || vector_store;
            if is_named(*op, "memref.load") {
                // A gather: its index is data, so it may
                // read any element of its array.
                let memref = op.operand(0).map_err(|_| NotAffine("memref.load without memref".into()))?;
                let (array, _) = self.array_of(memref)?;
                accesses.push(Access { op: *op, write: false, array, indices: Vec::new(), exact: false, lanes: 1 });
                continue;
            }
            if !write && !is_named(*op, "affine.load") && !vector_load {
                continue;
            }
            let lanes = if vector_load || vector_store {
                let value = if vector_store { op.operand(0).ok() } else { op.result(0).ok().map(Into::into) };
                vector_lanes(value).ok_or_else(|| NotAffine("a vector access of more than one dimension".into()))?
            } else {
                1
            };
            let first_index = if write { 2 } else { 1 };
            let memref = op.operand(first_index - 1).map_err(|_| NotAffine("access without memref".into()))?;
            let map = op.attribute("map").ok().and_then(ffi::affine_map_of).ok_or_else(|| NotAffine("access without map".into()))?;
            let operands: Vec<Value> = op.operands().skip(first_index).collect();
            let indices = self.map_results(map, &operands)?;
            let (array, exact) = self.array_of(memref)?;
            accesses.push(Access { op: *op, write, array, indices, exact, lanes });
        }
        let name = format!("S{}", self.scop.statements.len());
        let mut beta = self.beta.clone();
        beta.push(position);
        self.scop.statements.push(Statement {
            name,
            ops,
            loops: self.loops.clone(),
            ivs: self.ivs.clone(),
            bounds: self.bounds.clone(),
            beta,
            accesses,
        });
        Ok(())
    }
}

/// The lanes of a 1-D vector value.
fn vector_lanes(value: Option<Value>) -> Option<i64> {
    let text = value?.r#type().to_string();
    let inner = text.strip_prefix("vector<")?.strip_suffix('>')?;
    let mut parts = inner.split('x');
    let lanes: i64 = parts.next()?.parse().ok()?;
    (parts.count() == 1).then_some(lanes)
}

/// Vector ops that touch memory: never in a statement.
const VECTOR_MEMORY_OPS: &[&str] = &[
    "vector.load",
    "vector.store",
    "vector.maskedload",
    "vector.maskedstore",
    "vector.transfer_read",
    "vector.transfer_write",
    "vector.gather",
    "vector.scatter",
    "vector.expandload",
    "vector.compressstore",
];

fn check_statement_op(op: OperationRef, analysis: bool, gathers: bool) -> Result<(), NotAffine> {
    let name = op_name(op);
    // (buffers allocated in a loop body: the analysis knows they are
    // private to an iteration of the loops around their allocation)
    let local_buffer = ["memref.alloca", "memref.alloc", "memref.dealloc"].contains(&name.as_str());
    let vector = analysis
        && op.region_count() == 0
        && (local_buffer
            || name == "affine.vector_load"
            || name == "affine.vector_store"
            || name == "memref.load"
            || (name.starts_with("vector.") && !VECTOR_MEMORY_OPS.contains(&name.as_str())));
    let allowed = name == "affine.load"
        || name == "affine.store"
        || name == "affine.apply"
        || vector
        || (gathers && name == "memref.load")
        || ((name.starts_with("arith.") || name.starts_with("math.")) && op.region_count() == 0);
    if allowed {
        Ok(())
    } else {
        Err(NotAffine(format!("'{name}' in a loop body")))
    }
}

/// Is `value` defined by an op (or a block) nested in one of the ops whose
/// keys are `roots`?
fn defined_inside(value: Value, roots: &HashSet<usize>) -> bool {
    let mut op = match ffi::defining_op(value) {
        Some(owner) => Some(owner),
        // A block argument: its block's parent op.
        None => ffi::defining_block(value).and_then(|block| block.parent_operation()),
    };
    while let Some(current) = op {
        if roots.contains(&op_key(current)) {
            return true;
        }
        op = current.parent_operation();
    }
    false
}
