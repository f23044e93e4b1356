//! Code generation, second half: a [`Tree`] becomes `affine.for` /
//! `affine.if` ops, and each `Call` a clone of its statement's ops with the
//! original induction variables replaced by the call's arguments (as
//! `affine.apply` values, which canonicalization folds into the access maps).
//!
//! A transformation may also redirect accesses ([`Redirect`]): an access op
//! of a statement then reads or writes another memref at new indices — this
//! is how contracted temporaries (tile-local buffers) are addressed.

use crate::aff::{mlir_map, Aff};
use crate::ast::{Condition, Tree};
use crate::scop::{key, Scop, Statement};
use melior::{
    ir::{
        attribute::IntegerAttribute, block::BlockLike, operation::OperationBuilder, operation::OperationLike, Attribute,
        Block, Identifier, Location, OperationRef, Region, RegionLike, Type, Value,
    },
    Context,
};
use pb_support::{ffi, ir::is_named};
use std::collections::HashMap;

/// Where an access op of a statement goes instead: `target[indices]`, the
/// indices over the call's arguments (`Dim(k)` = argument k, `Sym(p)` =
/// parameter p).
#[derive(Clone)]
pub struct Redirect<'c, 'a> {
    pub target: Target<'c, 'a>,
    pub indices: Vec<Aff>,
}

#[derive(Clone)]
pub enum Target<'c, 'a> {
    /// An existing memref (defined before the SCoP).
    Memref(Value<'c, 'a>),
    /// Tile-local buffer `k` of [`Locals`].
    Local(usize),
}

/// Tile-local buffers. With a parallel outermost loop they are allocated
/// (`memref.alloca` in a `memref.alloca_scope`) at the start of its body —
/// one set per parallel iteration, reused by the sequential loops inside;
/// otherwise once, before the code (never inside a sequential loop: an
/// alloca there would take new stack space every iteration once lowered).
pub struct Locals<'c> {
    pub types: Vec<Type<'c>>,
    /// Emit up to this many outermost loops as one `affine.parallel` (their
    /// iterations are independent by construction; 0: sequential code).
    /// Loops join the band while they are perfectly nested with bounds
    /// that do not depend on each other: batch dimensions and row tiles,
    /// batch outer, so each thread's share of the collapsed iterations is
    /// one contiguous stretch of memory.
    pub parallel_depth: usize,
}

/// Lower bound, upper bound and step of a loop of a parallel band.
type BandLoop = (Aff, Aff, i64);

/// Redirected accesses, by access op identity.
pub type Redirects<'c, 'a> = HashMap<usize, Redirect<'c, 'a>>;

pub fn op_id(op: OperationRef) -> usize {
    op.to_raw().ptr as usize
}

pub struct Codegen<'s, 'c, 'a> {
    pub context: &'c Context,
    pub location: Location<'c>,
    pub scop: &'s Scop<'c, 'a>,
    pub redirects: &'s Redirects<'c, 'a>,
    /// Statements whose (extended) domain has extra leading dimensions:
    /// their original counters are the last arguments of a call.
    pub statements: HashMap<String, &'s Statement<'c, 'a>>,
    pub locals: Option<Locals<'c>>,
    /// The local buffers of the tile being emitted.
    local_values: std::cell::RefCell<Vec<Value<'c, 'static>>>,
}

impl<'s, 'c, 'a> Codegen<'s, 'c, 'a> {
    pub fn new(context: &'c Context, scop: &'s Scop<'c, 'a>, redirects: &'s Redirects<'c, 'a>) -> Self {
        let location = scop.roots.first().map(|r| r.location()).unwrap_or_else(|| Location::unknown(context));
        let statements = scop.statements.iter().map(|s| (s.name.clone(), s)).collect();
        Codegen { context, location, scop, redirects, statements, locals: None, local_values: Default::default() }
    }

    /// Emits `tree` before the first root of the SCoP (after moving the
    /// hoistable ops between the roots above it) and erases the original
    /// nests. On error nothing has changed.
    pub fn replace_scop(&self, tree: &Tree) -> Result<(), String> {
        let first = *self.scop.roots.first().ok_or("empty SCoP")?;
        let staging = Block::new(&[]);
        let top_loops = match tree {
            Tree::For { .. } => true,
            Tree::Block(children) => children.iter().all(|c| matches!(c, Tree::For { .. })),
            _ => false,
        };
        match &self.locals {
            // Sequential code: one set of buffers, allocated before it.
            Some(locals) if locals.parallel_depth == 0 => {
                let values = self.allocas(&staging, &locals.types)?;
                self.local_values.replace(values);
                let result = self.emit(tree, &staging, &[]);
                self.local_values.replace(Vec::new());
                result?
            }
            Some(locals) if !top_loops => self.emit_scope(tree, &staging, &[], &locals.types)?,
            _ => self.emit(tree, &staging, &[])?,
        }
        first.block().ok_or("SCoP root outside a block")?;
        for op in &self.scop.hoisted {
            ffi::move_before(*op, first);
        }
        while let Some(op) = staging.first_operation() {
            ffi::move_before(op, first);
        }
        for root in &self.scop.roots {
            // SAFETY: `Scop::extract` accepted the roots: their loops have no results, and the ops
            // they hold (loads, stores, affine.apply, scalar arith and math) are only used inside
            // them; the generated code uses clones of them, and the hoisted ops were moved out above.
            // Callers use only the SCoP's parameters and arrays, defined outside the roots,
            // afterwards.
            unsafe { ffi::erase(*root) };
        }
        Ok(())
    }

    fn params(&self) -> Vec<Value<'c, 'a>> {
        self.scop.params.clone()
    }

    /// Operands for a map over the enclosing generated loops and the parameters.
    fn map_operands<'b>(&self, ivs: &[Value<'c, 'b>]) -> Vec<Value<'c, 'b>> {
        // SAFETY: (a lifetime cast) parameters are defined outside the
        // SCoP and outlive every generated op.
        let params: Vec<Value<'c, 'b>> =
            self.params().into_iter().map(|p| unsafe { Value::from_raw(melior::ir::ValueLike::to_raw(&p)) }).collect();
        ivs.iter().copied().chain(params).collect()
    }

    fn map_attribute(&self, dims: usize, results: &[Aff]) -> Result<Attribute<'c>, String> {
        let text = mlir_map(dims, self.scop.params.len(), results);
        Attribute::parse(self.context, &text).ok_or_else(|| format!("could not build {text}"))
    }

    fn emit<'b>(&self, tree: &Tree, block: &Block<'c>, ivs: &[Value<'c, 'b>]) -> Result<(), String> {
        if ivs.is_empty() && self.local_values.borrow().is_empty() {
            if let Some((band, body)) = self.parallel_band(tree) {
                return self.emit_parallel(&band, body, block);
            }
        }
        match tree {
            Tree::Block(children) => {
                for child in children {
                    self.emit(child, block, ivs)?;
                }
                Ok(())
            }
            Tree::For { lower, upper, step, body } => {
                let body_block = Block::new(&[(Type::index(self.context), self.location)]);
                let iv: Value = body_block.argument(0).map_err(|e| e.to_string())?.into();
                // SAFETY: `iv` lives as long as the loop op that will own the block.
                let iv: Value<'c, 'b> = unsafe { Value::from_raw(melior::ir::ValueLike::to_raw(&iv)) };
                let mut inner = ivs.to_vec();
                inner.push(iv);
                match &self.locals {
                    Some(locals) if inner.len() == 1 && locals.parallel_depth > 0 && self.local_values.borrow().is_empty() => {
                        self.emit_scope(body, &body_block, &inner, &locals.types)?
                    }
                    _ => self.emit(body, &body_block, &inner)?,
                }
                body_block.append_operation(OperationBuilder::new("affine.yield", self.location).build().map_err(|e| e.to_string())?);
                let region = Region::new();
                region.append_block(body_block);
                let operands = self.map_operands(ivs);
                block.append_operation(self.for_op(ivs.len(), &operands, lower, upper, *step, region)?);
                Ok(())
            }
            Tree::If { conditions, then, otherwise } => {
                let then_block = Block::new(&[]);
                self.emit(then, &then_block, ivs)?;
                then_block.append_operation(OperationBuilder::new("affine.yield", self.location).build().map_err(|e| e.to_string())?);
                let then_region = Region::new();
                then_region.append_block(then_block);
                let else_region = Region::new();
                if let Some(otherwise) = otherwise {
                    let else_block = Block::new(&[]);
                    self.emit(otherwise, &else_block, ivs)?;
                    else_block
                        .append_operation(OperationBuilder::new("affine.yield", self.location).build().map_err(|e| e.to_string())?);
                    else_region.append_block(else_block);
                }
                let op = OperationBuilder::new("affine.if", self.location)
                    .add_operands(&self.map_operands(ivs))
                    .add_attributes(&[(Identifier::new(self.context, "condition"), self.set_attribute(ivs.len(), conditions)?)])
                    .add_regions([then_region, else_region])
                    .build()
                    .map_err(|e| e.to_string())?;
                block.append_operation(op);
                Ok(())
            }
            Tree::Call { statement, args } => self.emit_call(statement, args, block, ivs),
        }
    }

    fn for_op(
        &self,
        dims: usize,
        operands: &[Value<'c, '_>],
        lower: &[Aff],
        upper: &[Aff],
        step: i64,
        region: Region<'c>,
    ) -> Result<melior::ir::Operation<'c>, String> {
        let bounds = (self.map_attribute(dims, lower)?, self.map_attribute(dims, upper)?);
        pb_support::builder::affine_for(self.context, self.location, bounds, operands, step, region)
    }

    /// The outermost loops of `tree` that form its parallel band (see
    /// [`Locals::parallel_depth`]): (lower, upper, step) of each, and the
    /// body inside them; `None` when the code is sequential or the first
    /// loop has several bounds (min/max).
    fn parallel_band<'t>(&self, tree: &'t Tree) -> Option<(Vec<BandLoop>, &'t Tree)> {
        let depth = self.locals.as_ref().map_or(0, |l| l.parallel_depth);
        let mut band: Vec<BandLoop> = Vec::new();
        let mut node = tree;
        while band.len() < depth {
            let Tree::For { lower, upper, step, body } = node else { break };
            let outer = band.len();
            let independent = |a: &Aff| (0..outer).all(|k| !a.uses_dim(k));
            if lower.len() != 1 || upper.len() != 1 || !independent(&lower[0]) || !independent(&upper[0]) {
                break;
            }
            band.push((lower[0].clone(), upper[0].clone(), *step));
            node = body;
            // A loop alone in a block is still perfectly nested.
            while let Tree::Block(children) = node {
                let [only] = children.as_slice() else { break };
                node = only;
            }
        }
        // Stopped on a block with several children: the band ends above it.
        (!band.is_empty()).then_some((band, node))
    }

    /// A band from [`Self::parallel_band`] around `body` as one
    /// `affine.parallel` (outermost: no enclosing loops) whose body
    /// allocates the tile's local buffers.
    fn emit_parallel(&self, band: &[BandLoop], body: &Tree, block: &Block<'c>) -> Result<(), String> {
        let index = Type::index(self.context);
        let body_block = Block::new(&vec![(index, self.location); band.len()]);
        let mut ivs: Vec<Value<'c, '_>> = Vec::new();
        for k in 0..band.len() {
            let iv: Value = body_block.argument(k).map_err(|e| e.to_string())?.into();
            // SAFETY: `iv` lives as long as the parallel op that will own the block.
            ivs.push(unsafe { Value::from_raw(melior::ir::ValueLike::to_raw(&iv)) });
        }
        let types = self.locals.as_ref().map(|l| l.types.clone()).unwrap_or_default();
        self.emit_scope(body, &body_block, &ivs, &types)?;
        body_block.append_operation(OperationBuilder::new("affine.yield", self.location).build().map_err(|e| e.to_string())?);
        let region = Region::new();
        region.append_block(body_block);
        let operands = self.map_operands(&[]);
        let lowers: Vec<Aff> = band.iter().map(|b| b.0.clone()).collect();
        let uppers: Vec<Aff> = band.iter().map(|b| b.1.clone()).collect();
        let steps: Vec<String> = band.iter().map(|b| b.2.to_string()).collect();
        let attribute = |text: &str| Attribute::parse(self.context, text).ok_or_else(|| format!("could not build {text}"));
        let groups = format!("dense<1> : tensor<{}xi32>", band.len());
        let op = OperationBuilder::new("affine.parallel", self.location)
            .add_operands(&operands)
            .add_operands(&operands)
            .add_attributes(&[
                (Identifier::new(self.context, "lowerBoundsMap"), self.map_attribute(0, &lowers)?),
                (Identifier::new(self.context, "lowerBoundsGroups"), attribute(&groups)?),
                (Identifier::new(self.context, "upperBoundsMap"), self.map_attribute(0, &uppers)?),
                (Identifier::new(self.context, "upperBoundsGroups"), attribute(&groups)?),
                (Identifier::new(self.context, "steps"), attribute(&format!("[{}]", steps.join(", ")))?),
                (Identifier::new(self.context, "reductions"), attribute("[]")?),
            ])
            .add_regions([region])
            .build()
            .map_err(|e| e.to_string())?;
        block.append_operation(op);
        Ok(())
    }

    /// One `memref.alloca` per type, appended to `block`.
    fn allocas(&self, block: &Block<'c>, types: &[Type<'c>]) -> Result<Vec<Value<'c, 'static>>, String> {
        let mut values = Vec::new();
        for ty in types {
            let alloca = OperationBuilder::new("memref.alloca", self.location)
                .add_attributes(&[(
                    Identifier::new(self.context, "operandSegmentSizes"),
                    Attribute::parse(self.context, "array<i32: 0, 0>").ok_or("segment sizes")?,
                ), (
                    Identifier::new(self.context, "alignment"),
                    IntegerAttribute::new(Type::parse(self.context, "i64").ok_or("i64")?, 64).into(),
                )])
                .add_results(&[*ty])
                .build()
                .map_err(|e| e.to_string())?;
            let op = block.append_operation(alloca);
            let value: Value = op.result(0).map_err(|e| e.to_string())?.into();
            // SAFETY: the alloca lives in `block`, before all the code using it.
            values.push(unsafe { Value::from_raw(melior::ir::ValueLike::to_raw(&value)) });
        }
        Ok(values)
    }

    /// `memref.alloca_scope { allocas; body }` in `block`: buffers private to
    /// each iteration of a parallel loop.
    fn emit_scope<'b>(&self, body: &Tree, block: &Block<'c>, ivs: &[Value<'c, 'b>], types: &[Type<'c>]) -> Result<(), String> {
        let scope_block = Block::new(&[]);
        let values = self.allocas(&scope_block, types)?;
        let saved = self.local_values.replace(values);
        let result = self.emit(body, &scope_block, ivs);
        self.local_values.replace(saved);
        result?;
        scope_block.append_operation(
            OperationBuilder::new("memref.alloca_scope.return", self.location).build().map_err(|e| e.to_string())?,
        );
        let region = Region::new();
        region.append_block(scope_block);
        let scope = OperationBuilder::new("memref.alloca_scope", self.location)
            .add_regions([region])
            .build()
            .map_err(|e| e.to_string())?;
        block.append_operation(scope);
        Ok(())
    }

    fn set_attribute(&self, dims: usize, conditions: &[Condition]) -> Result<Attribute<'c>, String> {
        let names = |prefix: &str, n: usize| (0..n).map(|k| format!("{prefix}{k}")).collect::<Vec<_>>().join(", ");
        let constraints: Vec<String> = conditions
            .iter()
            .map(|c| format!("{} {} 0", c.expr.to_mlir(), if c.equality { "==" } else { ">=" }))
            .collect();
        let text = format!(
            "affine_set<({})[{}] : ({})>",
            names("d", dims),
            names("s", self.scop.params.len()),
            constraints.join(", ")
        );
        Attribute::parse(self.context, &text).ok_or_else(|| format!("could not build {text}"))
    }

    fn emit_call<'b>(&self, name: &str, args: &[Aff], block: &Block<'c>, ivs: &[Value<'c, 'b>]) -> Result<(), String> {
        let statement = self.statements.get(name).ok_or_else(|| format!("unknown statement {name}"))?;
        let depth = statement.loops.len();
        let extra = args.len().checked_sub(depth).ok_or("call with too few arguments")?;
        let mut mapped: HashMap<usize, Value<'c, 'b>> = HashMap::new();
        // The original counters, as values in the generated loops.
        for (k, iv) in statement.ivs.iter().enumerate() {
            let value = match &args[extra + k] {
                Aff::Dim(j) => ivs[*j],
                expr => {
                    let apply = OperationBuilder::new("affine.apply", self.location)
                        .add_operands(&self.map_operands(ivs))
                        .add_attributes(&[(Identifier::new(self.context, "map"), self.map_attribute(ivs.len(), std::slice::from_ref(expr))?)])
                        .add_results(&[Type::index(self.context)])
                        .build()
                        .map_err(|e| e.to_string())?;
                    let op = block.append_operation(apply);
                    let result: Value = op.result(0).map_err(|e| e.to_string())?.into();
                    // SAFETY: the op is owned by `block`, which outlives its use here.
                    unsafe { Value::from_raw(melior::ir::ValueLike::to_raw(&result)) }
                }
            };
            mapped.insert(key(*iv), value);
        }
        for op in &statement.ops {
            let clone = block.append_operation(ffi::clone_operation(*op));
            let operands: Vec<Value> = clone.operands().collect();
            for (i, operand) in operands.into_iter().enumerate() {
                if let Some(new) = mapped.get(&key(operand)) {
                    // SAFETY: same context; the value outlives the clone.
                    ffi::set_operand(clone, i, unsafe { Value::from_raw(melior::ir::ValueLike::to_raw(new)) });
                }
            }
            if let Some(redirect) = self.redirects.get(&op_id(*op)) {
                self.redirect(clone, redirect, args, ivs)?;
            }
            for (old, new) in op.results().zip(clone.results()) {
                let new: Value = new.into();
                // SAFETY: the clone lives in `block`, as long as its uses.
                mapped.insert(key(old.into()), unsafe { Value::from_raw(melior::ir::ValueLike::to_raw(&new)) });
            }
        }
        Ok(())
    }

    /// Points a cloned access at the redirect's memref and indices.
    fn redirect<'b>(&self, clone: OperationRef, redirect: &Redirect<'c, 'a>, args: &[Aff], ivs: &[Value<'c, 'b>]) -> Result<(), String> {
        let indices: Vec<Aff> = redirect.indices.iter().map(|e| e.substitute(args)).collect();
        let memref = match &redirect.target {
            Target::Memref(value) => melior::ir::ValueLike::to_raw(value),
            Target::Local(k) => {
                let locals = self.local_values.borrow();
                melior::ir::ValueLike::to_raw(locals.get(*k).ok_or("local buffer outside its tile")?)
            }
        };
        // SAFETY: the memref is defined before the SCoP or at the start of the tile.
        let memref: Value = unsafe { Value::from_raw(memref) };
        retarget_access(self.context, clone, memref, &indices, &self.map_operands(ivs), ivs.len())
    }
}

/// Points access op `op` (`affine.load` or `affine.store`) at
/// `memref[indices]`; the indices are over `operands`, whose first `dims`
/// are dimensions (`Dim`) and the rest symbols (`Sym`).
pub fn retarget_access(
    context: &Context,
    op: OperationRef,
    memref: Value,
    indices: &[Aff],
    operands: &[Value],
    dims: usize,
) -> Result<(), String> {
    let text = mlir_map(dims, operands.len() - dims, indices);
    let map = Attribute::parse(context, &text).ok_or_else(|| format!("could not build {text}"))?;
    let mut all: Vec<Value> = Vec::new();
    if is_named(op, "affine.store") {
        all.push(op.operand(0).map_err(|e| e.to_string())?);
    }
    all.push(memref);
    all.extend(operands.iter().copied());
    ffi::set_operands(op, &all);
    ffi::set_attribute(op, "map", map);
    Ok(())
}
