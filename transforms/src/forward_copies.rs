//! `pb-forward-copies`: a temporary that is computed, then copied into a
//! part of another buffer, is computed there directly.
//!
//! Why: bufferized slice assignments (`b[1:-1, 1:-1] = f(a)`, PyTorch's
//! `slice_scatter`, JAX's `dynamic_update_slice`) compute `f` into a
//! temporary `T` and copy `T` into a view of `B`. The copy is a full pass
//! over memory, and for the loop optimizer one more producer per step (a
//! jacobi-2d time step was three nests; it is two after this pass). Reads of
//! `T` after the copy read `B` instead, then the statement writing `T`
//! writes `B` and the copy disappears with `T`.
//!
//! ```mlir
//! affine.for %i = 0 to 8 { ... affine.store %v, %t[%i] }           // S1
//! affine.for %i = 0 to 10 { ... affine.store %a, %b[%i] }          // X
//! affine.for %i = 0 to 8 { %x = affine.load %t[%i]
//!                          affine.store %x, %b[%i + 1] }           // C
//! affine.for %i = 0 to 8 { ... affine.load %t[%i] ... }            // R
//! // becomes
//! affine.for %i = 0 to 10 { ... affine.store %a, %b[%i] }          // X
//! affine.for %i = 0 to 8 { ... affine.store %v, %b[%i + 1] }       // S1
//! affine.for %i = 0 to 8 { ... affine.load %b[%i + 1] ... }        // R
//! ```
//!
//! Conditions (checked on the SCoP, with ISL where they are about sets):
//! - `C` is a nest of its own holding only `B[g(i)] = T[f(i)]`, each index
//!   of `T` one loop counter plus a constant, each loop used once (so `f`
//!   inverts); `T` is a buffer private to the SCoP; exact accesses only;
//! - `T` has one writer `S1`, a nest of its own before `C`, writing it at one
//!   access and neither reading it nor touching `B`; `C` copies every
//!   element `S1` writes;
//! - every other reader of `T` comes after `C`, reads only elements `S1`
//!   writes, and nobody writes `B` after `C` (so `B` still holds the copy);
//! - no nest between `S1` and `C` depends on `S1` either way (ISL
//!   dependences), so `S1` can move down to where `C` was.
//!
//! Anything else is left alone; `--pb-report` says why for each copy.

use std::collections::HashMap;

use crate::report;
use melior::ir::{
    operation::{OperationLike, WalkOrder},
    Location, OperationRef, Value, ValueLike,
};
use pb_polyhedral::{
    codegen::retarget_access,
    driver,
    model::{access_map, isl_err, new_context, IslResult},
    scop::{Access, Statement},
    isl_rs::{Context, Set},
    Aff, Scop,
};
use pb_support::{budget, ffi, ir::is_named, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-forward-copies",
    summary: "Compute a temporary directly into the buffer it is copied to, dropping the copy and the temporary",
    description: "For a copy nest `B[g(i)] = T[f(i)]` of a private temporary `T` with one writer, \
redirects later reads of `T` to `B` and the writer's store to `B`, moves the writer to the copy's \
place and erases the copy and `T`. Legality from ISL sets (the copy covers what is written, \
readers read only written elements) and dependences (the writer may move past the nests in \
between); nobody may write `B` after the copy.",
    anchor: "func.func",
    options: &[
        PassOption { name: "report", kind: OptionKind::Bool, default: "false", help: "Explain each decision on stderr" },
        PassOption {
            name: "deadline-ms",
            kind: OptionKind::UInt,
            default: "0",
            help: "Compile-budget deadline (ms since the Unix epoch; 0: none): copies not forwarded by then stay",
        },
    ],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(ForwardCopies { report: options.bool("report"), deadline_ms: options.uint("deadline-ms") })
}

#[derive(Clone)]
struct ForwardCopies {
    report: bool,
    /// The compile budget's deadline (`pb_support::budget`; 0: none).
    deadline_ms: u64,
}

/// Forwarded copies per function at most (each rewrite re-reads the SCoP).
const MAX_REWRITES: usize = 256;

impl RustPass for ForwardCopies {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &[]
    }

    /// Passes over the function's runs, each forwarding every copy it can
    /// in order (the SCoP re-read after each rewrite, the scan going on
    /// after the rewritten copy), until a pass forwards none: a rewrite may
    /// make an earlier copy forwardable. Restarting from the first copy
    /// after each rewrite re-checked every refused copy each time
    /// (ViT-B/16: 26 rewrites x 56 copies, 2.4 s).
    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let mut rewrites = 0;
        while rewrites < MAX_REWRITES {
            let mut changed = false;
            let (mut index, mut from) = (0, 0);
            while rewrites < MAX_REWRITES {
                // Re-read after each rewrite (ops moved and erased).
                let runs = driver::function_runs(func);
                let Some(run) = runs.get(index) else { break };
                // Locations belong to the context: valid after the rewrite.
                let location = run[0].location();
                if budget::passed(self.deadline_ms) {
                    budget::warn_skipped(location, INFO.argument, "copies from here on left as they are");
                    return Ok(());
                }
                // Called with the context directly: the outcome holds
                // locations, which live as long as the context.
                let outcome = forward_one(ffi::context_of(func), run, from);
                match outcome {
                    Ok(Some((message, at, next))) => {
                        if self.report {
                            report::note(at, INFO.argument, &message);
                        }
                        changed = true;
                        rewrites += 1;
                        from = next;
                        continue; // the same run, after the rewritten copy
                    }
                    Ok(None) => {}
                    Err(refusals) => {
                        if self.report {
                            for (at, message) in refusals {
                                report::note(at, INFO.argument, &format!("left as is: {message}"));
                            }
                        }
                    }
                }
                index += 1;
                from = 0;
            }
            if !changed {
                break;
            }
        }
        Ok(())
    }
}

/// A copy statement `B[g(i)] = T[f(i)]`: its read and write, and for each
/// dimension of `T` the loop it moves with and the constant added.
struct Copy {
    statement: usize,
    read: usize,
    write: usize,
    inverse: Vec<(usize, i64)>,
}

fn as_copy(statement: usize, s: &Statement) -> Option<Copy> {
    let [first, second] = s.accesses.as_slice() else { return None };
    let (read, write) = match (first.write, second.write) {
        (false, true) => (0, 1),
        _ => return None,
    };
    let (load, store) = (&s.accesses[read], &s.accesses[write]);
    if !load.exact || !store.exact || load.array == store.array {
        return None;
    }
    // The stored value is the loaded one; nothing else but index arithmetic.
    let stored = store.op.operand(0).ok()?;
    let loaded: Value = load.op.result(0).ok()?.into();
    if stored != loaded || s.ops.iter().any(|op| !["affine.load", "affine.store", "affine.apply"].iter().any(|n| is_named(*op, n))) {
        return None;
    }
    let depth = s.loops.len();
    let zeros = vec![Aff::Const(0); depth];
    let mut inverse = Vec::new();
    for index in &load.indices {
        let moving: Vec<usize> = (0..depth).filter(|k| index.uses_dim(*k)).collect();
        let [k] = moving.as_slice() else { return None };
        if index.coefficient(*k) != Some(1) || index.uses_symbols() || inverse.iter().any(|(j, _)| j == k) {
            return None;
        }
        inverse.push((*k, index.substitute(&zeros).constant()?));
    }
    (inverse.len() == depth).then_some(Copy { statement, read, write, inverse })
}

/// `T`'s indices of an access, mapped to the element of `B` the copy puts
/// that element in.
fn forwarded(copy: &Copy, copy_write: &Access, indices: &[Aff]) -> Vec<Aff> {
    let mut counters = vec![Aff::Const(0); copy.inverse.len()];
    for (d, (k, offset)) in copy.inverse.iter().enumerate() {
        counters[*k] = indices[d].clone().plus(Aff::Const(-offset));
    }
    copy_write.indices.iter().map(|e| e.substitute(&counters)).collect()
}

/// The report line of a forwarded copy, the copy's location (read before
/// the rewrite erases it) and the nest position to go on from.
type Forwarded<'c> = (String, Location<'c>, usize);
/// Where a copy was left (its location) and why.
type Refusal<'c> = (Location<'c>, String);

/// Forwards the first copy of `run` at nest position `from` or later that
/// can be: the report line, the copy's place and the position to go on
/// from (the writer's, now where the copy was). `Ok(None)`: no copy of a
/// private temporary there; `Err`: why each was left, at each copy (the
/// statement and array names in the lines are those of the copy's window).
///
/// Each candidate is checked on the SCoP of its window alone: the nests
/// from the first to the last that access its temporary `T` (every
/// condition is about statements touching `T`, the buffer `B` between the
/// copy and `T`'s last reader, or the nests between `T`'s writer and the
/// copy). Extracting the whole run per rewrite made the pass quadratic (a
/// stack of 500 padded convolutions: 3.3 s).
fn forward_one<'c>(
    context: &'c melior::Context,
    run: &[OperationRef<'c, '_>],
    from: usize,
) -> Result<Option<Forwarded<'c>>, Vec<Refusal<'c>>> {
    // The run's nests (its `affine.for` ops, in order: SCoP positions), and
    // for each buffer the first and last nest that loads or stores it.
    let nests: Vec<usize> = (0..run.len()).filter(|i| is_named(run[*i], "affine.for")).collect();
    let mut span: HashMap<usize, (usize, usize)> = HashMap::new();
    let mut copies = Vec::new();
    for (k, &i) in nests.iter().enumerate() {
        let accesses = ffi::collect_ops(run[i], WalkOrder::PreOrder, |op| is_named(op, "affine.load") || is_named(op, "affine.store"));
        let mut loads = Vec::new();
        let mut stores = 0;
        for op in &accesses {
            let load = is_named(*op, "affine.load");
            let Some(memref) = ffi::operand(*op, if load { 0 } else { 1 }) else { continue };
            let key = memref.to_raw().ptr as usize;
            let entry = span.entry(key).or_insert((k, k));
            entry.1 = k;
            if load {
                loads.push(key);
            } else {
                stores += 1;
            }
        }
        if k >= from && stores == 1 && loads.len() == 1 {
            copies.push((k, loads[0]));
        }
    }
    let mut refusals = Vec::new();
    let ctx = new_context();
    for (k, temporary_key) in copies {
        let (lo, hi) = span[&temporary_key];
        let (lo, hi) = (lo.min(k), hi.max(k));
        let at = run[nests[k]].location();
        let scop = match Scop::extract(&run[nests[lo]..=nests[hi]]) {
            Ok(scop) => scop,
            Err(e) => {
                refusals.push((at, e.to_string()));
                continue;
            }
        };
        let Some((index, s)) = scop.statements.iter().enumerate().find(|(_, s)| s.beta[0] == k - lo) else { continue };
        let Some(copy) = as_copy(index, s) else { continue };
        let (read, write) = (copy.read, copy.write);
        let temporary = s.accesses[read].array;
        if !scop.arrays[temporary].local || !scop.is_private(temporary) {
            continue;
        }
        match check(&scop, &ctx, &copy) {
            Ok(forwarding) => {
                let message = format!(
                    "{} now writes {} where {} copied {} to; {} removed",
                    scop.statements[forwarding.writer].name,
                    scop.arrays[s.accesses[write].array].name,
                    s.name,
                    scop.arrays[temporary].name,
                    s.name
                );
                rewrite(context, &scop, &copy, &forwarding).map_err(|e| vec![(at, e)])?;
                return Ok(Some((message, at, (lo + s.beta[0]).saturating_sub(1))));
            }
            Err(message) => refusals.push((at, format!("copy {}: {message}", s.name))),
        }
    }
    if refusals.is_empty() {
        Ok(None)
    } else {
        Err(refusals)
    }
}

/// The statements with an access to `array`.
fn touching<'s, 'c, 'a>(scop: &'s Scop<'c, 'a>, array: usize) -> impl Iterator<Item = (usize, &'s Statement<'c, 'a>)> {
    scop.statements.iter().enumerate().filter(move |(_, s)| s.accesses.iter().any(|a| a.array == array))
}

fn alone_in_nest(scop: &Scop, s: &Statement) -> bool {
    scop.statements.iter().filter(|t| t.beta[0] == s.beta[0]).count() == 1
}

/// What a legal forwarding rewrites: the store of the writer of the copied
/// version of `T` and the loads of the statements reading that version after
/// the copy.
struct Forwarding {
    writer: usize,
    readers: Vec<usize>,
}

/// Checks the conditions of the module doc. `T` may be reused (one-shot
/// bufferization gives the results of a chain of ops one buffer): then
/// every writer must write the same elements, each starting a version, and
/// only the version the copy reads is forwarded.
fn check(scop: &Scop, ctx: &Context, copy: &Copy) -> Result<Forwarding, String> {
    let c = &scop.statements[copy.statement];
    let (temporary, buffer) = (c.accesses[copy.read].array, c.accesses[copy.write].array);
    let name = |a: usize| scop.arrays[a].name.clone();
    let elements = |s: &Statement, a: &Access| -> IslResult<Set> {
        access_map(ctx, scop, s, &a.indices, a.array)?.range().map_err(isl_err)
    };
    let mut writers: Vec<usize> =
        touching(scop, temporary).filter(|(_, s)| s.accesses.iter().any(|a| a.write && a.array == temporary)).map(|(i, _)| i).collect();
    writers.sort_by_key(|w| scop.statements[*w].beta[0]);
    let mut written: Option<Set> = None;
    for &index in &writers {
        let s = &scop.statements[index];
        // One write, and reads only of the element written (an update).
        let writes: Vec<&Access> = s.accesses.iter().filter(|a| a.array == temporary && a.write).collect();
        let [write] = writes.as_slice() else {
            return Err(format!("{} writes {} more than once", s.name, name(temporary)));
        };
        if !write.exact || s.accesses.iter().any(|a| a.array == temporary && !a.write && a.indices != write.indices) {
            return Err(format!("{} reads {} at other elements than it writes", s.name, name(temporary)));
        }
        let these = elements(s, write)?;
        if let Some(previous) = &written {
            if !these.is_equal(previous).map_err(isl_err)? {
                return Err(format!("the writers of {} write different elements", name(temporary)));
            }
        }
        written = Some(these);
    }
    let written = written.ok_or_else(|| format!("{} is never written", name(temporary)))?;
    let Some(writer) = writers.iter().copied().rfind(|w| scop.statements[*w].beta[0] < c.beta[0]) else {
        return Err(format!("{} is copied before it is written", name(temporary)));
    };
    let next_version = writers.iter().map(|w| scop.statements[*w].beta[0]).find(|b| *b > c.beta[0]).unwrap_or(usize::MAX);
    // An update (a writer reading the element it writes) reads the previous
    // version only if each element is written by one of its instances: in a
    // reduction (`t[i] = max(t[i], x[i][k])`) later instances read what
    // earlier ones wrote, which must stay in `T` (for the copied version's
    // writer) or cannot come from `B` (for the next writer).
    let next_writer = writers.iter().copied().find(|w| scop.statements[*w].beta[0] > c.beta[0]);
    for index in std::iter::once(writer).chain(next_writer) {
        let s = &scop.statements[index];
        let Some(write) = s.accesses.iter().find(|a| a.array == temporary && a.write) else { continue };
        if s.accesses.iter().any(|a| a.array == temporary && !a.write) && !injective(ctx, scop, s, write)? {
            return Err(format!("{} accumulates into {} (several instances update one element)", s.name, name(temporary)));
        }
    }
    let w = &scop.statements[writer];
    if w.accesses.iter().any(|a| a.array == buffer) {
        return Err(format!("{} also accesses {}", w.name, name(buffer)));
    }
    if !alone_in_nest(scop, w) || !alone_in_nest(scop, c) {
        return Err("the writer or the copy shares its nest".into());
    }
    if !written.is_subset(&elements(c, &c.accesses[copy.read])?).map_err(isl_err)? {
        return Err(format!("the copy does not cover every element {} writes", w.name));
    }
    let mut readers = Vec::new();
    for (index, r) in touching(scop, temporary) {
        let position = r.beta[0];
        let reads = r.accesses.iter().any(|a| a.array == temporary && !a.write);
        if index == copy.statement || !reads || position <= w.beta[0] || position > next_version {
            continue; // the copy, and readers of other versions
        }
        if position == next_version && !writers.contains(&index) {
            return Err(format!("{} shares a nest with the next writer of {}", r.name, name(temporary)));
        }
        if position < c.beta[0] {
            return Err(format!("{} reads {} before the copy", r.name, name(temporary)));
        }
        for a in r.accesses.iter().filter(|a| a.array == temporary) {
            if !a.exact || !elements(r, a)?.is_subset(&written).map_err(isl_err)? {
                return Err(format!("{} reads elements of {} that {} does not write", r.name, name(temporary), w.name));
            }
        }
        readers.push(index);
    }
    // Readers now read `B`: it must still hold the copy when they run.
    let last_reader = readers.iter().map(|r| scop.statements[*r].beta[0]).max().unwrap_or(c.beta[0]);
    if let Some((_, s)) = touching(scop, buffer).find(|(i, s)| {
        *i != copy.statement && s.beta[0] > c.beta[0] && s.beta[0] <= last_reader && s.accesses.iter().any(|a| a.write && a.array == buffer)
    }) {
        return Err(format!("{} writes {} before the last reader of the copy", s.name, name(buffer)));
    }
    // The writer moves down to the copy's place: no nest in between may
    // access an element it accesses, one of the two writing (a dependence
    // either way). Views (inexact accesses) conflict with any access.
    for between in scop.statements.iter().filter(|s| s.beta[0] > w.beta[0] && s.beta[0] < c.beta[0]) {
        for a in &w.accesses {
            for b in between.accesses.iter().filter(|b| b.array == a.array && (a.write || b.write)) {
                let overlap = !a.exact
                    || !b.exact
                    || !elements(w, a)?.intersect(elements(between, b)?).and_then(|o| o.is_empty()).map_err(isl_err)?;
                if overlap {
                    return Err(format!("{} cannot move past {}", w.name, between.name));
                }
            }
        }
    }
    Ok(Forwarding { writer, readers })
}

/// Does each element `a` writes come from one instance of `s`?
fn injective(ctx: &Context, scop: &Scop, s: &Statement, a: &Access) -> IslResult<bool> {
    access_map(ctx, scop, s, &a.indices, a.array)?.is_injective().map_err(isl_err)
}

fn rewrite<'c>(context: &'c melior::Context, scop: &Scop<'c, '_>, copy: &Copy, forwarding: &Forwarding) -> Result<(), String> {
    let c = &scop.statements[copy.statement];
    let copy_write = &c.accesses[copy.write];
    let temporary = c.accesses[copy.read].array;
    let buffer_value = copy_write.op.operand(1).map_err(|e| e.to_string())?;
    // The writer's store and the readers' loads (the next writer may read
    // the element it updates).
    let retargets = std::iter::once((forwarding.writer, true)).chain(forwarding.readers.iter().map(|r| (*r, false)));
    for (index, write) in retargets {
        let s = &scop.statements[index];
        let operands: Vec<Value> = s.ivs.iter().chain(&scop.params).copied().collect();
        for a in s.accesses.iter().filter(|a| a.array == temporary && a.write == write) {
            let indices = forwarded(copy, copy_write, &a.indices);
            retarget_access(context, a.op, buffer_value, &indices, &operands, s.ivs.len())?;
        }
    }
    ffi::move_before(scop.statements[forwarding.writer].loops[0], c.loops[0]);
    // SAFETY: `Scop::extract` accepted the copy's nest: no results, nothing defined inside it used
    // outside; the caller re-reads the runs after each rewrite, and only `scop.arrays` values (defined
    // outside the nests) are used below.
    unsafe { ffi::erase(c.loops[0]) };
    // `T` goes when no version of it is left.
    // SAFETY: the temporary's value is defined outside the SCoP's nests
    // (`Scop::extract` allows no views or allocations in a loop body), so it
    // survived the erase above; the caller re-reads the runs and uses no
    // handle of `scop` after this rewrite.
    unsafe { pb_support::ir::erase_dead_buffer(scop.arrays[temporary].values[0]) };
    Ok(())
}
