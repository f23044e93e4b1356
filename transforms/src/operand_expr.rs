//! An operand of a statement computed by an expression: the backward slice
//! of one value inside the statement (loads, `arith`/`math` ops, values from
//! outside the nest), and its text for generated kernels that recompute it
//! at other indices (the packing copy of `pb-register-tile`).
//!
//! Example: attention's `P V` after elementwise fusion multiplies `V` by
//! `select(m[i], e[i][k] / s[i], 0)`; packing evaluates that expression per
//! `(i, k)` once, and the micro-kernel stays a plain multiply-accumulate.

use melior::ir::{operation::OperationLike, OperationRef, Value, ValueLike};
use pb_polyhedral::scop::{key, Statement};
use pb_support::{ffi, ir::{fastmath_flags, fastmath_flags_with, is_named, only_continuous_uses}};

pub struct OperandExpr<'c, 'a> {
    /// The ops computing the value, in statement order (index arithmetic
    /// excluded: loads are re-indexed from their access relations).
    pub ops: Vec<OperationRef<'c, 'a>>,
    /// Positions in the statement's accesses of the loads among `ops`.
    pub loads: Vec<usize>,
    /// Values from outside the statement the ops use.
    pub outside: Vec<Value<'c, 'a>>,
    pub result: Value<'c, 'a>,
}

/// The slice of `value` in `s`, or `None` if it stores, has regions,
/// computes indices from data, or uses a loop's induction variable as a
/// value (`tril`'s mask `j - k <= 1` in a product's operand): its text
/// passes outside values in unchanged, and the loop it names is gone.
pub fn slice<'c, 'a>(s: &Statement<'c, 'a>, value: Value<'c, 'a>) -> Option<OperandExpr<'c, 'a>> {
    let inside = |v: Value<'c, 'a>| ffi::defining_op(v).filter(|op| s.ops.contains(op));
    let mut members: Vec<OperationRef> = Vec::new();
    let mut work = vec![value];
    while let Some(v) = work.pop() {
        let Some(op) = inside(v) else { continue };
        if members.contains(&op) {
            continue;
        }
        if is_named(op, "affine.store") || is_named(op, "affine.apply") || op.region_count() != 0 || op.result_count() != 1 {
            return None;
        }
        members.push(op);
        if !is_named(op, "affine.load") {
            work.extend(op.operands());
        }
    }
    let ops: Vec<OperationRef> = s.ops.iter().copied().filter(|op| members.contains(op)).collect();
    let loads = ops.iter().filter_map(|op| s.accesses.iter().position(|a| a.op == *op)).collect::<Vec<_>>();
    if loads.len() != ops.iter().filter(|op| is_named(**op, "affine.load")).count() {
        return None;
    }
    let mut outside: Vec<Value> = Vec::new();
    for op in ops.iter().filter(|op| !is_named(**op, "affine.load")) {
        for operand in op.operands() {
            if s.ivs.iter().any(|iv| key(*iv) == key(operand)) {
                return None;
            }
            if inside(operand).is_none() && !outside.iter().any(|v| key(*v) == key(operand)) {
                outside.push(operand);
            }
        }
    }
    Some(OperandExpr { ops, loads, outside, result: value })
}

impl OperandExpr<'_, '_> {
    /// Appends MLIR text computing the expression to `t` and returns the
    /// name of its result. Loads read memref `%{memref_prefix}{n}` (the n-th
    /// of `loads`) at `index(access)`; outside values are
    /// `%{value_prefix}{n}`; results are named `%{prefix}_{n}`. A division
    /// whose divisor is a load that `invariant(access)` says the enclosing
    /// loop does not move (attention's row sums, divided into every
    /// exponential of the row) is marked `arcp`: LLVM multiplies by the
    /// reciprocal, computed once per row (within 1 ulp, as PyTorch's softmax
    /// does), instead of a vector division per element.
    #[allow(clippy::too_many_arguments)]
    pub fn emit(
        &self,
        s: &Statement,
        t: &mut String,
        prefix: &str,
        memref_prefix: &str,
        value_prefix: &str,
        index: &dyn Fn(usize) -> String,
        invariant: &dyn Fn(usize) -> bool,
    ) -> Result<String, String> {
        let mut names: Vec<(usize, String)> = Vec::new();
        let name_of = |names: &Vec<(usize, String)>, v: Value| -> Result<String, String> {
            if let Some((_, n)) = names.iter().find(|(k, _)| *k == key(v)) {
                return Ok(n.clone());
            }
            self.outside
                .iter()
                .position(|o| key(*o) == key(v))
                .map(|p| format!("%{value_prefix}{p}"))
                .ok_or_else(|| "operand expression uses a value it does not define".to_string())
        };
        for (n, op) in self.ops.iter().enumerate() {
            let result: Value = op.result(0).map_err(|e| e.to_string())?.into();
            let name = format!("%{prefix}_{n}");
            let result_type = result.r#type().to_string();
            if is_named(*op, "affine.load") {
                let access = s.accesses.iter().position(|a| a.op == *op).ok_or("load without access")?;
                let slot = self.loads.iter().position(|l| *l == access).ok_or("load outside the slice")?;
                let memref_type = op.operand(0).map_err(|e| e.to_string())?.r#type().to_string();
                t.push_str(&format!("{name} = affine.load %{memref_prefix}{slot}[{}] : {memref_type}\n", index(access)));
            } else {
                let operands: Vec<Value> = op.operands().collect();
                let operand_names: Vec<String> = operands.iter().map(|v| name_of(&names, *v)).collect::<Result<_, _>>()?;
                let operand_types: Vec<String> = operands.iter().map(|v| v.r#type().to_string()).collect();
                let attributes = self.attributes_text(s, *op, invariant);
                // The generic form: any op prints and parses the same way.
                t.push_str(&format!(
                    "{name} = \"{}\"({}){attributes} : ({}) -> {result_type}\n",
                    op.name().as_string_ref().as_str().unwrap_or("?"),
                    operand_names.join(", "),
                    operand_types.join(", ")
                ));
            }
            names.push((key(result), name));
        }
        name_of(&names, self.result)
    }

    /// Like [`emit`](Self::emit), but `width` elements at once: loads for
    /// which `moves(access)` is true are vector loads at `index(access)`
    /// (the caller has checked they are contiguous there), other loads and
    /// outside values are broadcast. Only `arith`/`math` ops on f32 (and the
    /// i1 of comparisons) vectorize; anything else is an error (the caller
    /// then emits scalars).
    #[allow(clippy::too_many_arguments)]
    pub fn emit_vector(
        &self,
        s: &Statement,
        t: &mut String,
        prefix: &str,
        memref_prefix: &str,
        value_prefix: &str,
        width: i64,
        index: &dyn Fn(usize) -> String,
        moves: &dyn Fn(usize) -> bool,
        invariant: &dyn Fn(usize) -> bool,
    ) -> Result<String, String> {
        let vector_of = |scalar: &str| -> Result<String, String> {
            match scalar {
                "f32" | "i1" => Ok(format!("vector<{width}x{scalar}>")),
                other => Err(format!("{other} does not vectorize here")),
            }
        };
        let mut text = String::new();
        let mut names: Vec<(usize, String)> = Vec::new();
        let mut broadcasts: Vec<(usize, String)> = Vec::new();
        // Scalars computed from outside values alone (see below).
        let mut uniform: Vec<(usize, String)> = Vec::new();
        for (n, op) in self.ops.iter().enumerate() {
            let result: Value = op.result(0).map_err(|e| e.to_string())?.into();
            let name = format!("%{prefix}_{n}");
            let scalar_type = result.r#type().to_string();
            if is_named(*op, "affine.load") {
                let vector_type = vector_of(&scalar_type)?;
                let access = s.accesses.iter().position(|a| a.op == *op).ok_or("load without access")?;
                let slot = self.loads.iter().position(|l| *l == access).ok_or("load outside the slice")?;
                let memref_type = op.operand(0).map_err(|e| e.to_string())?.r#type().to_string();
                // A vector of i1 in memory would be read as packed bits
                // (bools are bytes): only f32 loads vectorize.
                if moves(access) && scalar_type != "f32" {
                    return Err(format!("{scalar_type} loads do not vectorize here"));
                }
                if moves(access) {
                    text.push_str(&format!(
                        "{name} = affine.vector_load %{memref_prefix}{slot}[{}] : {memref_type}, {vector_type}\n",
                        index(access)
                    ));
                } else {
                    text.push_str(&format!("{name}s = affine.load %{memref_prefix}{slot}[{}] : {memref_type}\n", index(access)));
                    text.push_str(&format!("{name} = vector.broadcast {name}s : {scalar_type} to {vector_type}\n"));
                }
                names.push((key(result), name));
                continue;
            }
            let dialect = op.name().as_string_ref().as_str().unwrap_or("").to_string();
            if !(dialect.starts_with("arith.") || dialect.starts_with("math.")) {
                return Err(format!("{dialect} does not vectorize here"));
            }
            // An op of values from outside alone (a constant, an f64 scale
            // truncated to f32) is the same in every lane: computed once,
            // as a scalar of its own type, broadcast where a vector op uses
            // it (GELU's f64 constants made its whole expression scalar).
            let outside_name = |v: Value| -> Option<String> {
                if let Some((_, n)) = uniform.iter().find(|(k, _)| *k == key(v)) {
                    return Some(n.clone());
                }
                self.outside.iter().position(|o| key(*o) == key(v)).map(|p| format!("%{value_prefix}{p}"))
            };
            let operands_outside: Option<Vec<String>> = op.operands().map(outside_name).collect();
            if let Some(operand_names) = operands_outside {
                let operand_types: Vec<String> = op.operands().map(|v| v.r#type().to_string()).collect();
                let attributes = self.attributes_text(s, *op, invariant);
                let scalar_name = format!("%{prefix}_u{n}");
                text.push_str(&format!(
                    "{scalar_name} = \"{dialect}\"({}){attributes} : ({}) -> {scalar_type}\n",
                    operand_names.join(", "),
                    operand_types.join(", ")
                ));
                uniform.push((key(result), scalar_name));
                continue;
            }
            let vector_type = vector_of(&scalar_type)?;
            let mut operand_names = Vec::new();
            let mut operand_types = Vec::new();
            for v in op.operands() {
                let scalar = v.r#type().to_string();
                operand_types.push(vector_of(&scalar)?);
                if let Some((_, n)) = names.iter().find(|(k, _)| *k == key(v)) {
                    operand_names.push(n.clone());
                    continue;
                }
                if let Some((_, n)) = broadcasts.iter().find(|(k, _)| *k == key(v)) {
                    operand_names.push(n.clone());
                    continue;
                }
                let scalar_value = outside_name(v).ok_or("operand expression uses a value it does not define")?;
                let b = format!("%{prefix}_b{}", broadcasts.len());
                text.push_str(&format!("{b} = vector.broadcast {scalar_value} : {scalar} to {}\n", vector_of(&scalar)?));
                broadcasts.push((key(v), b.clone()));
                operand_names.push(b);
            }
            let attributes = self.attributes_text(s, *op, invariant);
            text.push_str(&format!(
                "{name} = \"{dialect}\"({}){attributes} : ({}) -> {vector_type}\n",
                operand_names.join(", "),
                operand_types.join(", ")
            ));
            names.push((key(result), name));
        }
        let result = names.iter().find(|(k, _)| *k == key(self.result)).map(|(_, n)| n.clone()).ok_or("expression result not computed")?;
        t.push_str(&text);
        Ok(result)
    }

    /// The attribute dictionary of `op` as generic-form text (empty or
    /// ` {...}`), its fastmath flags with `arcp` added to a division by an
    /// invariant divisor (see `emit`).
    fn attributes_text(&self, s: &Statement, op: OperationRef, invariant: &dyn Fn(usize) -> bool) -> String {
        let mut attributes: Vec<String> = op
            .attributes()
            .filter(|(n, _)| n.as_string_ref().as_str() != Ok("fastmath"))
            .map(|(n, a)| format!("{} = {a}", n.as_string_ref().as_str().unwrap_or("?")))
            .collect();
        let reciprocal = is_named(op, "arith.divf") && self.divisor_is_invariant(s, op, invariant);
        let with_arcp = if reciprocal { fastmath_flags_with(op, "arcp") } else { None };
        let flags = with_arcp.unwrap_or_else(|| fastmath_flags(op));
        if !flags.is_empty() {
            attributes.push(format!("fastmath = #arith.fastmath<{}>", flags.join(",")));
        }
        if attributes.is_empty() { String::new() } else { format!(" {{{}}}", attributes.join(", ")) }
    }

    /// Is the divisor of `divf` a load of the expression at an access that
    /// `invariant` accepts?
    fn divisor_is_invariant(&self, s: &Statement, divf: OperationRef, invariant: &dyn Fn(usize) -> bool) -> bool {
        let Some(load) = divf.operand(1).ok().and_then(ffi::defining_op) else { return false };
        let quotient_is_continuous = divf.result(0).is_ok_and(|q| only_continuous_uses(q.into()));
        quotient_is_continuous
            && is_named(load, "affine.load")
            && self.ops.contains(&load)
            && s.accesses.iter().position(|a| a.op == load).is_some_and(invariant)
    }
}
