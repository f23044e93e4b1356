//! The elementwise nest that reads a contraction's result once per element
//! and writes something else (a quantized convolution's requantization:
//! scale, bias, activation, rounding, clamping, the cast to 8 bits), found
//! so that `pb-matrix-tile` can apply it to each block of sums while they
//! are in cache, instead of storing the sums in a temporary and reading
//! them back in a pass of their own.
//!
//! The contraction `P` writes the temporary `C` (fully, from a zero fill
//! that `P` absorbs); the epilogue `E` is a later top-level perfect nest of
//! one statement that reads each element of `C` once (each index of `C` a
//! mixed-radix combination of `E`'s loops over all of its extent: a loop,
//! or `d0 * 128 + d2` where a linear layer's result is read as `[batch,
//! tokens, heads, 64]`), writes one other array (and reads it, if at all,
//! at the element it writes), and reads any others. Nothing else uses `C`. The
//! top-level ops between `P` and `E` that `E` needs (the output's
//! allocation and zero fill when it is a padded buffer, a bias broadcast:
//! writers of what `E` accesses, definers of what it uses, and what those
//! need) move before `P`, which is legal when none of them touches `C`,
//! reads what `E` writes, or writes what `P` reads, and the others they
//! pass do not touch what they write; the others (another layer's kernel)
//! stay, `E`'s work now done before them, when they touch neither `C` nor
//! anything `E` reads or writes. A read of a temporary written by a copy nest
//! (`T[i..] = S[f(i..)]`: a broadcast of a per-channel bias) reads `S`
//! instead; the copy is erased with `E` when nothing else reads `T`.

use melior::ir::{block::BlockLike, operation::OperationLike, BlockRef, OperationRef, RegionLike, Value, ValueLike};
use pb_polyhedral::{scop::Statement, Aff, Scop};
use pb_dialects::type_utils::memref_static_shape as static_shape;
use pb_support::{
    ffi,
    ir::{ancestor_in, block_ops, erase_dead_buffer, is_named},
};

/// An epilogue to apply per element of the contraction's result.
pub(crate) struct Epilogue<'c, 'a> {
    /// `E`'s top-level op, erased once the kernel applies it.
    pub nest: OperationRef<'c, 'a>,
    /// For each of `E`'s loops, how its value follows from C's index:
    /// `(position, stride, trip, outermost)` when C's index at `position`
    /// is a mixed-radix combination of loops (`d0 * 128 + d2`: a linear
    /// layer's rows read as `[batch, tokens]`, its columns as `[heads,
    /// 64]`), the loop's value being that index divided by `stride`
    /// (modulo `trip` unless it is the combination's outermost loop);
    /// `None` for a loop of one iteration.
    pub to_c: Vec<Option<(usize, i64, i64, bool)>>,
    /// The ops of `E`'s statement in order (loads, arithmetic, the store).
    pub ops: Vec<OperationRef<'c, 'a>>,
    /// The load of `C`: its value is the sum.
    pub c_load: OperationRef<'c, 'a>,
    /// Per load other than `C`'s and per the store: the memref and the
    /// indices over `E`'s loops to use (copies seen through).
    pub accesses: Vec<(OperationRef<'c, 'a>, Value<'c, 'a>, Vec<Aff>)>,
    /// Ops between `P` and `E`, to move before `P`.
    pub moved: Vec<OperationRef<'c, 'a>>,
    /// Temporaries read through their copy nest: (nest, temporary).
    pub copies: Vec<(OperationRef<'c, 'a>, Value<'c, 'a>)>,
}

/// Memrefs that `op` (and what it holds) reads and writes, as (value, write).
pub(crate) fn memory_accesses<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<Vec<(Value<'c, 'a>, bool)>> {
    let mut accesses = Vec::new();
    let mut ok = true;
    for inner in ffi::collect_ops(op, melior::ir::operation::WalkOrder::PreOrder, |_| true) {
        let name = inner.name().as_string_ref().as_str().unwrap_or("").to_string();
        match name.as_str() {
            "affine.load" | "memref.load" | "affine.vector_load" | "amx.tile_load" => accesses.push((inner.operand(0).ok()?, false)),
            "affine.store" | "memref.store" | "affine.vector_store" => accesses.push((inner.operand(1).ok()?, true)),
            "amx.tile_store" => accesses.push((inner.operand(0).ok()?, true)),
            "memref.alloc" | "memref.alloca" | "memref.dealloc" | "memref.alloca_scope" | "memref.alloca_scope.return" => {}
            _ if name.starts_with("arith.") || name.starts_with("math.") => {}
            // Tile and register arithmetic (a product kernel made before):
            // no memory.
            "amx.tile_zero" | "amx.tile_mulf" | "amx.tile_muli" | "ub.poison" | "llvm.call_intrinsic" => {}
            "vector.bitcast" | "vector.broadcast" | "vector.extract" | "vector.insert" | "vector.shuffle" | "vector.transpose" => {}
            "affine.for" | "affine.parallel" | "affine.yield" | "affine.apply" | "affine.if" | "affine.min" | "affine.max" | "scf.if"
            | "scf.yield" => {}
            _ => ok = false,
        }
    }
    ok.then_some(accesses)
}

/// The top-level ops of `block` holding a `name` op (`affine.load`,
/// `affine.store`) that uses `memref`, once per such use.
pub(crate) fn top_level_users<'c, 'a>(memref: Value<'c, 'a>, name: &str, block: BlockRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    ffi::users(memref).into_iter().filter(|u| is_named(*u, name)).filter_map(|u| ancestor_in(u, block)).collect()
}

/// The ops of the one statement of a perfect nest, in order, when they
/// sit directly in its innermost loop and are loads, stores and
/// arithmetic only (an elementwise statement the kernels can copy).
pub(crate) fn statement_ops<'c, 'a>(s: &Statement<'c, 'a>) -> Option<Vec<OperationRef<'c, 'a>>> {
    let innermost = *s.loops.last()?;
    let body = innermost.region(0).ok()?.first_block()?;
    let ops: Vec<OperationRef> = block_ops(body).into_iter().filter(|op| !is_named(*op, "affine.yield")).collect();
    if ops.len() != s.ops.len() {
        return None;
    }
    for op in &ops {
        let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
        let arithmetic = name.starts_with("arith.") || name.starts_with("math.");
        if !(arithmetic || name == "affine.load" || name == "affine.store") || op.region_count() > 0 {
            return None;
        }
    }
    Some(ops)
}

/// A copy nest `T[i..] = S[f(i..)]` writing all of `t` (one loop per
/// dimension, in order, over all of it): `S` and `f`.
pub(crate) fn copy_source<'c, 'a>(nest: OperationRef<'c, 'a>, t: Value<'c, 'a>) -> Option<(Value<'c, 'a>, Vec<Aff>)> {
    let scop = Scop::extract(&[nest]).ok()?;
    let [s] = scop.statements.as_slice() else { return None };
    let [read, write] = s.accesses.as_slice() else { return None };
    if read.write || !write.write || !read.exact || !write.exact || write.op.operand(1).ok()? != t {
        return None;
    }
    let counted = s.ops.iter().filter(|op| !is_named(**op, "affine.apply")).count();
    if counted != 2 || write.op.operand(0).ok()? != read.op.result(0).ok()?.into() {
        return None;
    }
    let shape = static_shape(t.r#type())?;
    if write.indices.len() != shape.len() || s.bounds.len() != shape.len() {
        return None;
    }
    for (q, index) in write.indices.iter().enumerate() {
        let size = shape[q];
        if *index != Aff::Dim(q) || s.bounds[q].constant()? != (0, size) || s.bounds[q].step != 1 {
            return None;
        }
    }
    let source = read.op.operand(0).ok()?;
    if source == t {
        return None;
    }
    Some((source, read.indices.clone()))
}

/// The epilogue of the contraction nest `nest` writing `c` (its read of
/// `A` and `B` in `inputs`), if there is one to take in.
pub(crate) fn find<'c, 'a>(nest: OperationRef<'c, 'a>, c: Value<'c, 'a>, inputs: [Value<'c, 'a>; 2]) -> Option<Epilogue<'c, 'a>> {
    find_with(nest, c, inputs, false)
}

/// [`find`], and with `in_place` also an epilogue that writes its result
/// over C, element for element (`C[i] = f(C[i], ...)`: a bias and ReLU
/// applied to a function's output buffer), C then any buffer: the kernel
/// stores `f(sum)` where it would have stored the sum.
pub(crate) fn find_with<'c, 'a>(
    nest: OperationRef<'c, 'a>,
    c: Value<'c, 'a>,
    inputs: [Value<'c, 'a>; 2],
    in_place: bool,
) -> Option<Epilogue<'c, 'a>> {
    let block = nest.block()?;
    // C: a temporary of this block (or any buffer E overwrites in place).
    if !in_place {
        ffi::defining_op(c).filter(|op| is_named(*op, "memref.alloc") && op.block() == Some(block))?;
    }
    let c_shape = static_shape(c.r#type())?;
    let rank = c_shape.len();
    let order = block_ops(block);
    let position = |op: OperationRef<'c, 'a>| order.iter().position(|o| *o == op);
    let here = position(nest)?;
    // C's readers after P: one load in one nest; deallocs aside.
    let mut e_nest = None;
    let mut c_loads = Vec::new();
    for user in ffi::users(c) {
        if is_named(user, "memref.dealloc") {
            continue;
        }
        let top = ancestor_in(user, block)?;
        let at = position(top)?;
        if at < here {
            continue; // the fill P absorbs (checked by the caller), or refused below
        }
        if top == nest {
            continue;
        }
        let overwrite = in_place && is_named(user, "affine.store");
        if !is_named(user, "affine.load") && !overwrite {
            return None;
        }
        match e_nest {
            None => e_nest = Some(top),
            Some(e) if e == top => {}
            Some(_) => return None,
        }
        if !overwrite {
            c_loads.push(user);
        }
    }
    let e_nest = e_nest?;
    let [c_load] = c_loads.as_slice() else { return None };
    if !is_named(e_nest, "affine.for") {
        return None;
    }
    let scop = Scop::extract(&[e_nest]).ok()?;
    let [s] = scop.statements.as_slice() else { return None };
    if s.accesses.iter().any(|a| !a.exact || a.lanes != 1 || a.indices.iter().any(Aff::uses_symbols)) {
        return None;
    }
    let bounds: Vec<(i64, i64)> = s.bounds.iter().map(|b| b.constant().filter(|_| b.step == 1)).collect::<Option<_>>()?;
    let ops = statement_ops(s)?;
    // C read at E's loops, each once, over all of C (other loops of E run
    // once: a reshape's unit dimensions, as a linear layer's `[1, 128,
    // 768]` result read through a view of its `[128, 768]` product).
    let c_access = s.accesses.iter().find(|a| a.op == *c_load)?;
    if c_access.indices.len() != rank {
        return None;
    }
    let trip = |d: usize| bounds[d].1 - bounds[d].0;
    if bounds.iter().any(|b| b.0 != 0) {
        return None;
    }
    let mut to_c: Vec<Option<(usize, i64, i64, bool)>> = vec![None; bounds.len()];
    for (q, index) in c_access.indices.iter().enumerate() {
        // index = sum of stride * loop, strides the products of the trips
        // of the loops after (loops of one iteration aside), over all of
        // C's extent at q.
        let mut terms: Vec<(usize, i64)> = Vec::new();
        let mut linear = Aff::Const(0);
        for d in (0..bounds.len()).filter(|d| index.uses_dim(*d)) {
            let stride = index.coefficient(d).filter(|c| *c > 0)?;
            linear = linear.plus(Aff::Dim(d).scale(stride));
            if trip(d) > 1 {
                terms.push((d, stride));
            }
        }
        if index.constant_difference(&linear) != Some(0) {
            return None;
        }
        terms.sort_by_key(|(_, stride)| std::cmp::Reverse(*stride));
        let mut expected = c_shape[q];
        for (n, (d, stride)) in terms.iter().enumerate() {
            if to_c[*d].is_some() || expected % trip(*d) != 0 || *stride != expected / trip(*d) {
                return None;
            }
            expected = *stride;
            to_c[*d] = Some((q, *stride, trip(*d), n == 0));
        }
        if expected != 1 {
            return None;
        }
    }
    if (0..bounds.len()).any(|d| to_c[d].is_none() && trip(d) != 1) {
        return None;
    }
    let writes: Vec<_> = s.accesses.iter().filter(|a| a.write).collect();
    let [write] = writes.as_slice() else { return None };
    let out = write.op.operand(1).ok()?;
    // E may read what it writes at the element it writes (a residual
    // block's sum computed in place of its shortcut) when each instance
    // writes an element of its own: then each element is read, then
    // written, by one statement instance, in any order of blocks. Not a
    // reduction into the output (a mean over pixels: many instances read
    // and write one element).
    let reads_out = s.accesses.iter().any(|a| !a.write && a.op.operand(0).ok() == Some(out));
    let reads_other_element = |a: &&pb_polyhedral::scop::Access| !a.write && a.op.operand(0).ok() == Some(out) && a.indices != write.indices;
    let own_element = || {
        // Each write index one loop (a stride and an offset), each loop
        // of more than one iteration in one index.
        let mut seen = Vec::new();
        for index in &write.indices {
            let dims: Vec<usize> = (0..bounds.len()).filter(|d| index.uses_dim(*d) && trip(*d) > 1).collect();
            match dims.as_slice() {
                [] => {}
                [d] if index.coefficient(*d).is_some_and(|k| k != 0) && !seen.contains(d) => seen.push(*d),
                _ => return false,
            }
        }
        (0..bounds.len()).all(|d| trip(d) == 1 || seen.contains(&d))
    };
    let overwrites_c = out == c && in_place && write.indices == c_access.indices;
    if (out == c && !overwrites_c) || inputs.contains(&out) || s.accesses.iter().any(|a| reads_other_element(&a)) || (reads_out && !own_element()) {
        return None;
    }
    // The ops between P and E that E needs (they write what it accesses
    // or define what it uses, or are needed by those) move before P; the
    // others stay where they are, E's work now done before them (a Q, K
    // and V projection's kernels between the K product and its epilogue).
    let e_at = position(e_nest)?;
    let between: Vec<OperationRef> = order[here + 1..e_at].to_vec();
    let accesses_of: Vec<Vec<(Value, bool)>> = between.iter().map(|op| memory_accesses(*op)).collect::<Option<_>>()?;
    let e_accesses = memory_accesses(e_nest)?;
    let needed = needed_before((e_nest, &e_accesses), block, &between, &accesses_of);
    for (k, op) in between.iter().enumerate() {
        if op.operands().any(|v| v == c) || accesses_of[k].iter().any(|(v, _)| *v == c) {
            return None;
        }
        if needed[k] {
            // Before P: it must not read E's output, nor write P's inputs;
            // and the ops it passes over must not touch what it writes.
            if accesses_of[k].iter().any(|(v, write)| (!write && *v == out) || (*write && inputs.contains(v))) {
                return None;
            }
            let writes = |j: usize, v: &Value| accesses_of[j].iter().any(|(w, write)| *write && w == v);
            let touches = |j: usize, v: &Value| accesses_of[j].iter().any(|(w, _)| w == v);
            for j in (0..k).filter(|j| !needed[*j]) {
                if accesses_of[k].iter().any(|(v, write)| (*write && touches(j, v)) || (!write && writes(j, v))) {
                    return None;
                }
            }
        } else if accesses_of[k].iter().any(|(v, write)| *v == out || (*write && e_accesses.iter().any(|(e, _)| e == v))) {
            // Passed over by E: it must not see E's output early, nor
            // write what E reads (then it would be needed).
            return None;
        }
        // Results used only after: nothing in P uses them (P is before).
    }
    let moved: Vec<OperationRef> = between.iter().zip(&needed).filter(|(_, n)| **n).map(|(op, _)| *op).collect();
    // Reads through copy nests among the moved ops.
    let mut accesses = Vec::new();
    let mut copies = Vec::new();
    for a in &s.accesses {
        if a.op == *c_load {
            continue;
        }
        let memref = if a.write { a.op.operand(1).ok()? } else { a.op.operand(0).ok()? };
        let writers = top_level_users(memref, "affine.store", block);
        let copy = (!a.write)
            .then_some(writers.as_slice())
            .and_then(|w| match w {
                [single] if moved.contains(single) => Some(*single),
                _ => None,
            })
            .and_then(|w| copy_source(w, memref).map(|source| (w, source)));
        match copy {
            Some((w, (source, map))) => {
                let indices: Vec<Aff> = map.iter().map(|x| x.substitute(&a.indices)).collect();
                accesses.push((a.op, source, indices));
                copies.push((w, memref));
            }
            None => accesses.push((a.op, memref, a.indices.clone())),
        }
    }
    Some(Epilogue { nest: e_nest, to_c, ops, c_load: *c_load, accesses, moved, copies })
}

/// Which of the ops `between` P and E (with their memory accesses) E
/// (with its accesses) needs: those defining a value E uses or writing,
/// before it, a memref E reads or writes, and in turn those these need.
fn needed_before<'c, 'a>(
    (e_nest, e_accesses): (OperationRef<'c, 'a>, &[(Value<'c, 'a>, bool)]),
    block: BlockRef<'c, 'a>,
    between: &[OperationRef<'c, 'a>],
    accesses_of: &[Vec<(Value<'c, 'a>, bool)>],
) -> Vec<bool> {
    let mut needed = vec![false; between.len()];
    // (op, its position: E's is after all of them, its accesses)
    let mut queue = vec![(e_nest, between.len(), e_accesses.to_vec())];
    while let Some((op, at, accesses)) = queue.pop() {
        let mut needs = Vec::new();
        for inner in ffi::collect_ops(op, melior::ir::operation::WalkOrder::PreOrder, |_| true) {
            for value in inner.operands() {
                if let Some(k) = ffi::defining_op(value).and_then(|d| ancestor_in(d, block)).and_then(|d| between.iter().position(|b| *b == d)) {
                    needs.push(k);
                }
            }
        }
        // Earlier writers of what it reads, and of what it writes (an
        // output's zero fill, which E's writes must follow); a later
        // writer (a buffer reused by the next layer) is not needed.
        for (value, _) in &accesses {
            needs.extend((0..at).filter(|k| accesses_of[*k].iter().any(|(v, w)| *w && v == value)));
        }
        for k in needs {
            if !needed[k] {
                needed[k] = true;
                queue.push((between[k], k, accesses_of[k].clone()));
            }
        }
    }
    needed
}

/// An epilogue a kernel applied: its nest and its copies, erased (with
/// `erase_dead_copies`) once the pass has visited every nest: the walk
/// holds the list of nests, and the epilogue comes after its product.
pub(crate) type Applied<'c, 'a> = (OperationRef<'c, 'a>, Vec<(OperationRef<'c, 'a>, Value<'c, 'a>)>);

/// Erases `copy` nests whose temporary nothing reads any more (its own
/// store and deallocations aside), and the temporary.
pub(crate) fn erase_dead_copies<'c, 'a>(copies: &[(OperationRef<'c, 'a>, Value<'c, 'a>)]) {
    for (nest, temporary) in copies {
        let users = ffi::users(*temporary);
        let readers = users.iter().filter(|u| !is_named(**u, "memref.dealloc") && !is_named(**u, "affine.store")).count();
        let stores_elsewhere = users
            .iter()
            .filter(|u| is_named(**u, "affine.store"))
            .any(|u| nest.block().and_then(|b| ancestor_in(*u, b)) != Some(*nest));
        if readers > 0 || stores_elsewhere {
            continue;
        }
        // SAFETY: the copy nest has no results and nothing reads what it
        // writes; then only deallocations use the temporary, and no handle
        // to it or them is used after.
        unsafe {
            ffi::erase(*nest);
            erase_dead_buffer(*temporary);
        }
    }
}

/// Emits `epilogue`'s statement before `at` on one element of the
/// contraction's result: `sum` stands for the value loaded from C, `dims`
/// gives each of the epilogue's loops as an index expression (over what
/// `load` and `store` take them over); `load` and `store` emit its other
/// accesses (affine ones in a CPU kernel, `memref` ones in a GPU launch).
pub(crate) fn apply<'c, 'a>(
    at: OperationRef<'c, 'a>,
    epilogue: &Epilogue<'c, '_>,
    sum: Value<'c, 'a>,
    dims: &[Aff],
    mut load: impl FnMut(OperationRef<'c, 'a>, Value<'c, 'a>, &[Aff]) -> Value<'c, 'a>,
    mut store: impl FnMut(OperationRef<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>, &[Aff]),
) {
    let raw = |v: Value| v.to_raw().ptr;
    let mut values: Vec<(*const std::ffi::c_void, Value<'c, 'a>)> = Vec::new();
    if let Ok(loaded) = epilogue.c_load.result(0) {
        values.push((raw(loaded.into()), sum));
    }
    let lookup = |values: &[(*const std::ffi::c_void, Value<'c, 'a>)], v: Value| values.iter().find(|(old, _)| *old == raw(v)).map(|(_, new)| *new);
    for op in &epilogue.ops {
        if *op == epilogue.c_load {
            continue;
        }
        if let Some((_, memref, indices)) = epilogue.accesses.iter().find(|(access, _, _)| access == op) {
            let indices: Vec<Aff> = indices.iter().map(|x| x.substitute(dims)).collect();
            // SAFETY: a lifetime change only: the memref is a value of the
            // same function, alive as long as the kernel's ops are.
            let memref: Value<'c, 'a> = unsafe { Value::from_raw(memref.to_raw()) };
            if is_named(*op, "affine.store") {
                let stored = op.operand(0).expect("stored value");
                // SAFETY: as for the memref (a value defined before the kernel).
                let value = lookup(&values, stored).unwrap_or_else(|| unsafe { Value::from_raw(stored.to_raw()) });
                store(at, value, memref, &indices);
            } else if let Ok(result) = op.result(0) {
                let loaded = load(at, memref, &indices);
                values.push((raw(result.into()), loaded));
            }
            continue;
        }
        let copy = at.block().expect("anchor in a block").insert_operation_before(at, ffi::clone_operation(*op));
        for k in 0..copy.operand_count() {
            if let Some(new) = copy.operand(k).ok().and_then(|v| lookup(&values, v)) {
                ffi::set_operand(copy, k, new);
            }
        }
        for r in 0..op.result_count() {
            if let (Ok(old), Ok(new)) = (op.result(r), copy.result(r)) {
                values.push((raw(old.into()), new.into()));
            }
        }
    }
}
