//! `pb-gpu-emulate`: run the mapped GPU IR on the CPU, to check a mapping
//! without a GPU.
//!
//! Each `gpu.launch` becomes loops over the grid and the block, in order
//! (block z, y, x, then thread z, y, x): the block and thread ids are the
//! loops' variables, the grid and block sizes the launch's operands. Device
//! buffers become host buffers (`gpu.alloc` → `memref.alloc`,
//! `gpu.dealloc` → `memref.dealloc`, `gpu.memcpy` → `memref.copy`).
//! Everything the mapping decided (grid and block shapes, each thread's
//! indices, the guards, what moved to the device) runs as the GPU would run
//! it; what follows on a GPU (NVVM, PTX) is upstream's lowering.
//!
//! A kernel that synchronizes its threads (`gpu.barrier`) runs phase by
//! phase: each run of ops between barriers in its own loops over the
//! block's threads, in order, so every thread finishes a phase before any
//! starts the next, as the barrier guarantees. A loop with uniform bounds
//! holding barriers (the k-loop of a tiled contraction) runs once around
//! its body's phases. Index arithmetic used across a barrier is computed
//! again where it is used; any other per-thread value that would live
//! across a barrier is refused with an error.
//!
//! Matrix fragments (`!gpu.mma_matrix`, warp-level values of
//! `gpu.subgroup_mma_*`) become per-thread buffers of their rows and
//! columns: every thread of a warp computes the same whole fragment (how a
//! fragment is spread over a warp's lanes is the hardware's business, not
//! observable), loads and stores copy the fragment's rows at the leading
//! dimension, and a product sums in the accumulator's type. A loop
//! carrying fragments copies them into the carried buffers.
//! Workgroup buffers become host buffers reused by the blocks in turn.

use melior::{
    ir::{
        block::BlockLike, operation::{OperationLike, WalkOrder}, r#type::ShapedTypeLike, Block, BlockRef, OperationRef, Region, RegionLike, Type, Value,
        ValueLike,
    },
    Context, IrRewriter,
};
use crate::emit_at::Emit;
use crate::mma_fragment::{self, Fragment};
use pb_support::{
    builder::Emitter,
    ffi,
    ir::{self, is_named},
    PassFailed, PassId, PassInfo, RustPass,
};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-gpu-emulate",
    summary: "Run gpu.launch kernels as loops over their grid and block on the CPU (device buffers as host buffers)",
    description: "Each gpu.launch becomes nested scf.for loops over the block ids (z, y, x) and the \
thread ids (z, y, x) with its body inside; gpu.alloc/gpu.dealloc/gpu.memcpy become \
memref.alloc/memref.dealloc/memref.copy. A kernel with gpu.barrier runs phase by phase (each run \
of ops between barriers in its own loops over the threads; uniform loops holding barriers run once \
around their body's phases); gpu.subgroup_mma fragments become per-thread buffers (every thread of \
a warp computes the whole fragment); workgroup buffers become host buffers. The emulation path of \
the GPU pipelines (compile option emulate): the mapped IR checked on a machine without a GPU.",
    anchor: "builtin.module",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<GpuEmulate>,
};

#[derive(Clone, Default)]
struct GpuEmulate;

impl RustPass for GpuEmulate {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["arith", "memref", "scf"]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let launches = ffi::collect_ops(module, melior::ir::operation::WalkOrder::PostOrder, |op| is_named(op, "gpu.launch"));
        let mut ok = true;
        for launch in launches {
            if let Err(message) = ffi::with_context(launch, |context| emulate_launch(context, launch)) {
                ffi::emit_error(launch.location(), &format!("pb-gpu-emulate: {message}"));
                ok = false;
            }
        }
        if !ok {
            return Err(PassFailed);
        }
        let memory = ffi::collect_ops(module, melior::ir::operation::WalkOrder::PreOrder, |op| {
            is_named(op, "gpu.alloc") || is_named(op, "gpu.dealloc") || is_named(op, "gpu.memcpy")
        });
        for op in memory {
            ffi::with_context(op, |context| host_memory(context, op));
        }
        Ok(())
    }
}

/// One `scf.for %iv = 0 to upper step 1` before `before`, empty but for
/// its `scf.yield`; its induction variable and body terminator.
fn loop_before<'c, 'a>(
    context: &'c Context,
    before: OperationRef<'c, 'a>,
    upper: Value<'c, 'a>,
) -> (Value<'c, 'a>, OperationRef<'c, 'a>) {
    let location = before.location();
    let ir_rewriter = IrRewriter::from_op(before);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(before);
    let emitter = Emitter { context, rewriter: &rewriter, location };
    let zero = emitter.index(0);
    let one = emitter.index(1);
    let region = Region::new();
    let body = region.append_block(Block::new(&[(Type::index(context), location)]));
    body.append_operation(melior::ir::operation::OperationBuilder::new("scf.yield", location).build().expect("scf.yield"));
    let made = melior::ir::operation::OperationBuilder::new("scf.for", location)
        .add_operands(&[zero, upper, one])
        .add_regions([region])
        .build()
        .expect("scf.for is well-formed");
    let made = before.block().expect("in a block").insert_operation_before(before, made);
    let block = made.region(0).ok().and_then(|r| r.first_block()).expect("loop body");
    (block.argument(0).expect("iv").into(), block.terminator().expect("scf.yield"))
}

/// Runs one launch as loops: the grid's loops around its body, and inside
/// them each phase between barriers as loops over the block's threads.
fn emulate_launch<'c>(context: &'c Context, launch: OperationRef<'c, '_>) -> Result<(), String> {
    let Some(body) = launch.region(0).ok().and_then(|r| r.first_block()) else { return Ok(()) };
    let sizes: Vec<Value> = (0..6).filter_map(|i| ffi::operand(launch, i)).collect();
    if sizes.len() != 6 || launch.operand_count() != 6 || launch.results().any(ffi::has_uses) {
        return Err("a launch with async tokens, clusters or dynamic shared memory".into());
    }
    let block_threads: Option<Vec<i64>> = sizes[3..6].iter().map(|v| ir::constant_int(*v)).collect();
    // Workgroup memory: one host buffer, reused by the blocks in turn.
    // Private memory: one host buffer with a slot per thread of a block
    // (each access indexed by the thread's linear index first).
    let mut shared = Vec::new();
    let thread_ids: Vec<Value> = (3..6).map(|i| body.argument(i).expect("thread id").into()).collect();
    for index in 12..body.argument_count() {
        let argument: Value = body.argument(index).expect("attribution").into();
        let text = argument.r#type().to_string();
        if let Some(shape) = text.strip_suffix(", #gpu.address_space<private>>").and_then(|t| t.strip_prefix("memref<")) {
            let threads: i64 = block_threads.as_ref().ok_or("private memory in a block of non-constant size")?.iter().product();
            let host = Type::parse(context, &format!("memref<{threads}x{shape}>")).ok_or("an unusual private memory type")?;
            let buffer = alloc(context, launch, host);
            per_thread(context, argument, buffer, &thread_ids, [sizes[3], sizes[4]])?;
            shared.push(buffer);
            continue;
        }
        let host = text.replace(", #gpu.address_space<workgroup>>", ">");
        let host = Type::parse(context, &host).filter(|_| !host.contains("address_space")).ok_or("unusual memory attributions")?;
        let buffer = alloc(context, launch, host);
        ffi::replace_all_uses(argument, buffer);
        shared.push(buffer);
    }
    // The fragments of the matrix ops, as per-thread buffers.
    let mut fragments = Fragments { context, slots: Vec::new(), threads: 0, sizes: [sizes[3], sizes[4], sizes[5]] };
    let has_fragments = !ffi::collect_ops(launch, WalkOrder::PreOrder, |op| ir::op_name(op).starts_with("gpu.subgroup_mma")).is_empty();
    if has_fragments {
        let threads = block_threads.as_ref().ok_or("matrix fragments in a block of non-constant size")?;
        fragments.threads = threads.iter().product();
        fragments.rewrite(launch, body)?;
    }
    // The grid: block z, y, x, outermost first.
    let mut ids: [Option<Value>; 3] = [None; 3];
    let mut anchor = launch;
    for position in [2usize, 1, 0] {
        let (iv, end) = loop_before(context, anchor, sizes[position]);
        ids[position] = Some(iv);
        anchor = end;
    }
    for (index, id) in ids.iter().enumerate() {
        if let (Ok(argument), Some(id)) = (body.argument(index), id) {
            ffi::replace_all_uses(argument.into(), *id);
        }
    }
    for (index, size) in sizes.iter().enumerate() {
        if let Ok(argument) = body.argument(6 + index) {
            ffi::replace_all_uses(argument.into(), *size);
        }
    }
    let thread_ids: Vec<Value> = (3..6).map(|i| body.argument(i).expect("thread id").into()).collect();
    let ops = ir::ops_before_terminator(body);
    for op in &ops {
        ffi::move_before(*op, anchor);
    }
    let grid_body = anchor.block().expect("the grid loop's body");
    recompute_after_barriers(grid_body);
    // Again: what was recomputed is among them now.
    let ops = ir::ops_before_terminator(grid_body);
    let phases = Phases { context, thread_ids, sizes: [sizes[3], sizes[4], sizes[5]] };
    phases.split(&ops, &mut Vec::new())?;
    for buffer in shared.iter().chain(fragments.slots.iter()) {
        let after = launch.next_in_block().expect("the launch is not a terminator");
        Emit { context, location: launch.location() }.op(after, "memref.dealloc", &[*buffer], &[], &[]);
    }
    if let Some((i, user)) = (0..body.argument_count())
        .find_map(|i| body.argument(i).ok().and_then(|a| ffi::users(a.into()).first().map(|u| (i, ir::op_name(*u)))))
    {
        return Err(format!("internal error: launch argument {i} is still used (by '{user}')"));
    }
    // SAFETY: the launch's body ops (but its terminator) were moved out and every body argument they
    // used was replaced (checked above); its results are unused (checked at the top); the launch
    // list was collected post-order, so no later entry is inside it.
    unsafe { ffi::erase(launch) };
    Ok(())
}

/// A thread's linear index in its block, `(z * by + y) * bx + x` from its
/// ids (x, y, z) and the block's x and y sizes, before `at`.
fn linear_thread<'c, 'a>(context: &'c Context, at: OperationRef<'c, 'a>, ids: &[Value<'c, 'a>], sizes: [Value<'c, 'a>; 2]) -> Value<'c, 'a> {
    let e = Emit { context, location: at.location() };
    let index = Type::index(context);
    let zy = e.value(at, "arith.muli", &[ids[2], sizes[1]], index, &[]);
    let zy = e.value(at, "arith.addi", &[zy, ids[1]], index, &[]);
    let zyx = e.value(at, "arith.muli", &[zy, sizes[0]], index, &[]);
    e.value(at, "arith.addi", &[zyx, ids[0]], index, &[])
}

/// Replaces each access of the private buffer `private` by one of the same
/// element in thread's slot of `buffer` (its linear index, from the thread
/// ids and the block's x and y sizes, computed where the access is: the
/// phases give each thread's ids there).
fn per_thread<'c, 'a>(
    context: &'c Context,
    private: Value<'c, 'a>,
    buffer: Value<'c, 'a>,
    ids: &[Value<'c, 'a>],
    sizes: [Value<'c, 'a>; 2],
) -> Result<(), String> {
    for (user, position) in ffi::uses(private) {
        let name = ir::op_name(user);
        let memref_position = match name.as_str() {
            "memref.load" | "vector.load" => 0,
            "memref.store" | "vector.store" => 1,
            _ => return Err(format!("private memory used by '{name}'")),
        };
        if position != memref_position {
            return Err(format!("private memory stored as a value by '{name}'"));
        }
        let thread = linear_thread(context, user, ids, sizes);
        let mut operands: Vec<Value> = user.operands().collect();
        operands[memref_position] = buffer;
        operands.insert(memref_position + 1, thread);
        ffi::set_operands(user, &operands);
    }
    Ok(())
}

/// Index arithmetic used across a barrier is computed again where it is
/// used (a thread's warp, its offsets: the GPU keeps them in registers; run
/// phase by phase they would have to outlive their phase). Repeats until
/// no such use is left, so chains of arithmetic follow.
fn recompute_after_barriers(body: BlockRef) {
    let pure = |op: OperationRef| ir::is_pure_scalar(op) && op.result_count() == 1;
    let holds_barrier = |op: OperationRef| !ffi::collect_ops(op, WalkOrder::PreOrder, |o| is_named(o, "gpu.barrier")).is_empty();
    loop {
        let mut changed = false;
        // Copies made in the last round are among the definitions too.
        let all: Vec<OperationRef> =
            ir::ops_before_terminator(body).into_iter().flat_map(|op| ffi::collect_ops(op, WalkOrder::PreOrder, |_| true)).collect();
        for def in all.into_iter().filter(|op| pure(*op)) {
            let Some(block) = def.block() else { continue };
            let result: Value = def.result(0).expect("one result").into();
            for (user, index) in ffi::uses(result) {
                let Some(top) = ir::ancestor_in(user, block) else { continue };
                // Barriers after the definition, up to and including the op
                // holding the use.
                let mut crossing = top != user && holds_barrier(top);
                let mut next = def.next_in_block();
                while let Some(op) = next.filter(|op| *op != top) {
                    crossing |= holds_barrier(op);
                    next = op.next_in_block();
                }
                if crossing {
                    let copy = ffi::clone_operation(def);
                    let copy = user.block().expect("in a block").insert_operation_before(user, copy);
                    ffi::set_operand(user, index, copy.result(0).expect("one result").into());
                    changed = true;
                }
            }
        }
        if !changed {
            return;
        }
    }
}

/// Splits a launch body into phases between barriers.
struct Phases<'c, 'a> {
    context: &'c Context,
    /// The launch body's thread ids (x, y, z), replaced in each phase by
    /// its loops' variables.
    thread_ids: Vec<Value<'c, 'a>>,
    /// Threads per block (x, y, z).
    sizes: [Value<'c, 'a>; 3],
}

impl<'c, 'a> Phases<'c, 'a> {
    /// Runs `ops` (in order, in one block) as phases: each run of ops
    /// between barriers in loops over the threads; ops computing the same
    /// value in every thread (constants, index arithmetic on block ids) stay
    /// outside them, and a loop holding barriers runs once with its body
    /// split in turn. `uniform` holds the values known the same in every
    /// thread.
    fn split(&self, ops: &[OperationRef<'c, 'a>], uniform: &mut Vec<Value<'c, 'a>>) -> Result<(), String> {
        let mut phase: Vec<OperationRef> = Vec::new();
        for op in ops {
            let op = *op;
            let is_uniform = |v: Value<'c, 'a>, uniform: &[Value<'c, 'a>]| {
                uniform.contains(&v) || ffi::defining_op(v).is_none_or(|d| !ops.contains(&d)) && !self.thread_ids.contains(&v)
            };
            if is_named(op, "gpu.barrier") {
                self.wrap(&std::mem::take(&mut phase))?;
                // SAFETY: a barrier has no results or regions; the list holds it once.
                unsafe { ffi::erase(op) };
                continue;
            }
            let barriers = !ffi::collect_ops(op, WalkOrder::PreOrder, |o| is_named(o, "gpu.barrier")).is_empty();
            if barriers {
                if !is_named(op, "scf.for") || op.result_count() != 0 || !op.operands().all(|v| is_uniform(v, uniform)) {
                    return Err(format!(
                        "a barrier inside '{}' that does not run the same in every thread (only loops of uniform bounds without results may hold barriers)",
                        ir::op_name(op)
                    ));
                }
                self.wrap(&std::mem::take(&mut phase))?;
                let loop_body = op.region(0).ok().and_then(|r| r.first_block()).ok_or("a loop without a body")?;
                uniform.push(loop_body.argument(0).map_err(|_| "a loop without an induction variable")?.into());
                self.split(&ir::ops_before_terminator(loop_body), uniform)?;
                continue;
            }
            let pure = ir::is_pure_scalar(op) && op.operands().all(|v| is_uniform(v, uniform));
            if pure {
                uniform.extend(op.results().map(Value::from));
            } else {
                phase.push(op);
            }
        }
        self.wrap(&phase)
    }

    /// Moves `phase` (ops of one block, in order) into loops over the
    /// block's threads placed after its last op.
    fn wrap(&self, phase: &[OperationRef<'c, 'a>]) -> Result<(), String> {
        let Some(last) = phase.last() else { return Ok(()) };
        // A value computed per thread in this phase and used after it would
        // have to live across the barrier in each thread.
        for op in phase {
            for result in op.results() {
                for user in ffi::users(result.into()) {
                    let inside = phase.iter().any(|p| *p == user || ir::ancestor_in(user, p.block().expect("in a block")).is_some_and(|a| a == *p));
                    if !inside {
                        return Err(format!("the value of '{}' is computed per thread and used after a barrier (by '{}')", ir::op_name(*op), ir::op_name(user)));
                    }
                }
            }
        }
        let next = last.next_in_block().ok_or("a phase ends its block")?;
        let mut anchor = next;
        let mut ivs = [None; 3];
        let mut outermost = None;
        for position in [2usize, 1, 0] {
            let (iv, end) = loop_before(self.context, anchor, self.sizes[position]);
            ivs[position] = Some(iv);
            anchor = end;
            outermost = outermost.or_else(|| end.block().and_then(|b| b.parent_operation()));
        }
        let outermost = outermost.ok_or("thread loops")?;
        for op in phase {
            ffi::move_before(*op, anchor);
        }
        let body = outermost.block().expect("in a block");
        for (id, iv) in self.thread_ids.iter().zip(ivs) {
            let iv = iv.expect("a thread loop");
            for (user, index) in ffi::uses(*id) {
                if ir::ancestor_in(user, body).is_some_and(|a| a == outermost) {
                    ffi::set_operand(user, index, iv);
                }
            }
        }
        Ok(())
    }
}

/// The matrix fragments of a launch (`!gpu.mma_matrix` values, one per
/// warp on a GPU) as per-thread buffers: each value a slot
/// `memref<threads x rows x columns>` allocated before the launch, each
/// `gpu.subgroup_mma_*` op loops over the slot of the thread running it.
/// All threads of a warp compute the same fragment (the layout of a
/// fragment among a warp's lanes is the hardware's, not observable).
struct Fragments<'c, 'a> {
    context: &'c Context,
    slots: Vec<Value<'c, 'a>>,
    threads: i64,
    sizes: [Value<'c, 'a>; 3],
}

impl<'c, 'a> Fragments<'c, 'a> {
    fn is_fragment(v: Value) -> bool {
        mma_fragment::parse(v.r#type()).is_some()
    }

    fn rewrite(&mut self, launch: OperationRef<'c, 'a>, body: BlockRef<'c, 'a>) -> Result<(), String> {
        // Slots: one per fragment value; a loop's carried fragment shares
        // its slot with the loop's result.
        let mut slot_of: Vec<(Value<'c, 'a>, Value<'c, 'a>)> = Vec::new();
        let values: Vec<Value> = ffi::collect_ops(launch, WalkOrder::PreOrder, |_| true)
            .into_iter()
            .flat_map(|op| {
                // A loop's carried values before its results.
                let mut v: Vec<Value> = Vec::new();
                for r in 0..op.region_count() {
                    if let Some(b) = op.region(r).ok().and_then(|r| r.first_block()) {
                        v.extend((0..b.argument_count()).map(|i| Value::from(b.argument(i).expect("argument"))));
                    }
                }
                v.extend(op.results().map(Value::from));
                v
            })
            .filter(|v| Self::is_fragment(*v))
            .collect();
        for value in values {
            if let Some(parent) = ffi::defining_op(value).filter(|op| is_named(*op, "scf.for")) {
                // A loop result: its carried value's slot.
                let index = (0..parent.result_count()).find(|i| ffi::result(parent, *i) == Some(value)).expect("a result");
                let carried: Value = parent.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.argument(index + 1).ok()).expect("carried").into();
                let slot = slot_of.iter().find(|(v, _)| *v == carried).map(|(_, s)| *s).ok_or("a loop result before its carried value")?;
                slot_of.push((value, slot));
                continue;
            }
            let Fragment { rows, columns, element, .. } = mma_fragment::parse(value.r#type()).ok_or("an unknown fragment type")?;
            // Signed and unsigned bytes are bytes in memory (the compute
            // widens each as its fragment type says).
            let element = if element == "si8" || element == "ui8" { "i8".to_string() } else { element };
            let ty = Type::parse(self.context, &format!("memref<{}x{rows}x{columns}x{element}>", self.threads)).ok_or("a fragment element type")?;
            let slot = alloc(self.context, launch, ty);
            self.slots.push(slot);
            slot_of.push((value, slot));
        }
        let slot = |v: Value<'c, 'a>| slot_of.iter().find(|(x, _)| *x == v).map(|(_, s)| *s).ok_or("a fragment without a slot");
        let thread_ids: Vec<Value> = (3..6).map(|i| body.argument(i).expect("thread id").into()).collect();
        // Loops carrying fragments: copy the initial value in before, the
        // next iteration's at the end of the body.
        let loops = ffi::collect_ops(launch, WalkOrder::PostOrder, |op| is_named(op, "scf.for") && op.results().any(|r| Self::is_fragment(r.into())));
        for lp in &loops {
            if lp.results().any(|r| !Self::is_fragment(r.into())) {
                return Err("a loop carrying fragments and other values".into());
            }
            let loop_body = lp.region(0).ok().and_then(|r| r.first_block()).ok_or("a loop body")?;
            let yield_op = loop_body.terminator().ok_or("a loop body without terminator")?;
            for q in 0..lp.result_count() {
                let carried: Value = loop_body.argument(q + 1).map_err(|_| "carried")?.into();
                let init = ffi::operand(*lp, 3 + q).ok_or("an initial value")?;
                let next = ffi::operand(yield_op, q).ok_or("a yielded value")?;
                if (1..=lp.result_count()).any(|k| loop_body.argument(k).is_ok_and(|a| Value::from(a) == next)) {
                    return Err("a loop passing a carried fragment on unchanged".into());
                }
                self.copy(*lp, &thread_ids, slot(init)?, slot(carried)?);
                self.copy(yield_op, &thread_ids, slot(next)?, slot(carried)?);
            }
        }
        // The ops, each as loops over its slot (post-order: users first
        // would leave dangling values, so erase after all are rewritten).
        let ops = ffi::collect_ops(launch, WalkOrder::PreOrder, |op| ir::op_name(op).starts_with("gpu.subgroup_mma"));
        for op in &ops {
            self.emulate(*op, &thread_ids, &slot)?;
        }
        // The fragments' last uses go: the loops' yields and initial
        // values, then the matrix ops (users before what they use), then
        // the loops are rebuilt without carried values.
        for lp in &loops {
            if let Some(end) = lp.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.terminator()) {
                ffi::set_operands(end, &[]);
            }
            let bounds: Vec<Value> = (0..3).filter_map(|i| ffi::operand(*lp, i)).collect();
            ffi::set_operands(*lp, &bounds);
        }
        for op in ops.into_iter().rev() {
            // SAFETY: the op's fragment was rewritten to its slot; its users (later matrix ops,
            // yields, loop operands) were erased or dropped first.
            unsafe { ffi::erase(op) };
        }
        for lp in loops {
            self.drop_carried(lp)?;
        }
        Ok(())
    }

    fn e(&self, at: OperationRef<'c, 'a>) -> Emit<'c> {
        Emit { context: self.context, location: at.location() }
    }

    /// The thread's linear index before `at` (`linear_thread`).
    fn thread(&self, at: OperationRef<'c, 'a>, ids: &[Value<'c, 'a>]) -> Value<'c, 'a> {
        linear_thread(self.context, at, ids, [self.sizes[0], self.sizes[1]])
    }

    /// `to[thread] = from[thread]` before `at`.
    fn copy(&self, at: OperationRef<'c, 'a>, ids: &[Value<'c, 'a>], from: Value<'c, 'a>, to: Value<'c, 'a>) {
        let (rows, columns) = dims(from);
        let t = self.thread(at, ids);
        grid2(self.context, at, rows, columns, |end, r, c| {
            let e = self.e(end);
            let x = load(&e, end, from, &[t, r, c]);
            e.op(end, "memref.store", &[x, to, t, r, c], &[], &[]);
        });
    }

    fn emulate(&self, op: OperationRef<'c, 'a>, ids: &[Value<'c, 'a>], slot: &dyn Fn(Value<'c, 'a>) -> Result<Value<'c, 'a>, &'static str>) -> Result<(), String> {
        let name = ir::op_name(op);
        if op.attribute("transpose").is_ok() || op.attribute("a_transpose").is_ok() || op.attribute("b_transpose").is_ok() {
            return Err(format!("'{name}' with a transposed operand cannot be emulated yet"));
        }
        let operand = |i: usize| ffi::operand(op, i).ok_or_else(|| format!("'{name}' without operand {i}"));
        let result = || -> Result<Value<'c, 'a>, String> { Ok(slot(op.result(0).map_err(|_| "a result")?.into())?) };
        let t = self.thread(op, ids);
        let index = Type::index(self.context);
        match name.as_str() {
            "gpu.subgroup_mma_constant_matrix" => {
                let (to, value) = (result()?, operand(0)?);
                let (rows, columns) = dims(to);
                grid2(self.context, op, rows, columns, |end, r, c| {
                    self.e(end).op(end, "memref.store", &[value, to, t, r, c], &[], &[]);
                });
            }
            "gpu.subgroup_mma_load_matrix" | "gpu.subgroup_mma_store_matrix" => {
                let loading = name.ends_with("load_matrix");
                let (fragment, memory, first) =
                    if loading { (result()?, operand(0)?, 1) } else { (slot(operand(0)?)?, operand(1)?, 2) };
                leading_dimension_matches(op, memory)?;
                let (i, j) = (operand(first)?, operand(first + 1)?);
                let (rows, columns) = dims(fragment);
                grid2(self.context, op, rows, columns, |end, r, c| {
                    let e = self.e(end);
                    let row = e.value(end, "arith.addi", &[i, r], index, &[]);
                    let column = e.value(end, "arith.addi", &[j, c], index, &[]);
                    if loading {
                        let x = load(&e, end, memory, &[row, column]);
                        e.op(end, "memref.store", &[x, fragment, t, r, c], &[], &[]);
                    } else {
                        let x = load(&e, end, fragment, &[t, r, c]);
                        e.op(end, "memref.store", &[x, memory, row, column], &[], &[]);
                    }
                });
            }
            "gpu.subgroup_mma_compute" => {
                let (a, b, c_in) = (slot(operand(0)?)?, slot(operand(1)?)?, slot(operand(2)?)?);
                let to = result()?;
                let (rows, columns) = dims(to);
                let depth = dims(a).1;
                let sum_type = crate::emit_at::memref_element(to).ok_or("a fragment element")?;
                let float = sum_type.to_string().starts_with('f');
                let unsigned = |i: usize| ffi::operand(op, i).and_then(|v| mma_fragment::parse(v.r#type())).is_some_and(|f| f.element == "ui8");
                let (a_unsigned, b_unsigned) = (unsigned(0), unsigned(1));
                grid2(self.context, op, rows, columns, |end, r, c| {
                    let e = self.e(end);
                    let start = load(&e, end, c_in, &[t, r, c]);
                    let (k, carried, step_end, lp) = for_carrying(self.context, end, depth, start);
                    let widen = |v: Value<'c, 'a>, unsigned: bool| {
                        let ext = match (float, unsigned) {
                            (true, _) => "arith.extf",
                            (false, true) => "arith.extui",
                            (false, false) => "arith.extsi",
                        };
                        if v.r#type() == sum_type { v } else { e.value(step_end, ext, &[v], sum_type, &[]) }
                    };
                    let x = widen(load(&e, step_end, a, &[t, r, k]), a_unsigned);
                    let y = widen(load(&e, step_end, b, &[t, k, c]), b_unsigned);
                    let (mul, add) = if float { ("arith.mulf", "arith.addf") } else { ("arith.muli", "arith.addi") };
                    let product = e.value(step_end, mul, &[x, y], sum_type, &[]);
                    let sum = e.value(step_end, add, &[carried, product], sum_type, &[]);
                    ffi::set_operands(step_end, &[sum]);
                    let total = ffi::result(lp, 0).expect("the loop's sum");
                    e.op(end, "memref.store", &[total, to, t, r, c], &[], &[]);
                });
            }
            _ => return Err(format!("'{name}' cannot be emulated yet")),
        }
        Ok(())
    }

    /// Rebuilds loop `lp` without its carried fragments (their slots carry
    /// them now).
    fn drop_carried(&self, lp: OperationRef<'c, 'a>) -> Result<(), String> {
        let upper = ffi::operand(lp, 1).ok_or("a loop bound")?;
        let (lower, step) = (ffi::operand(lp, 0).ok_or("a loop bound")?, ffi::operand(lp, 2).ok_or("a loop step")?);
        let body = lp.region(0).ok().and_then(|r| r.first_block()).ok_or("a loop body")?;
        let e = self.e(lp);
        let region = Region::new();
        let block = region.append_block(Block::new(&[(Type::index(self.context), e.location)]));
        block.append_operation(e.build("scf.yield", &[], &[], &[], vec![]));
        let made = e.build("scf.for", &[lower, upper, step], &[], &[], vec![region]);
        let made = lp.block().ok_or("a loop outside a block")?.insert_operation_before(lp, made);
        let new_body = made.region(0).ok().and_then(|r| r.first_block()).ok_or("a body")?;
        let end = new_body.terminator().ok_or("a yield")?;
        ffi::replace_all_uses(body.argument(0).map_err(|_| "iv")?.into(), new_body.argument(0).map_err(|_| "iv")?.into());
        for op in ir::ops_before_terminator(body) {
            ffi::move_before(op, end);
        }
        // SAFETY: the body's ops moved to the new loop, its induction variable replaced; its
        // carried values and results are fragments, whose users (matrix ops) are erased after.
        unsafe { ffi::erase(lp) };
        Ok(())
    }
}

/// `memref.alloc` of `ty` before `at`.
fn alloc<'c, 'a>(context: &'c Context, at: OperationRef<'c, 'a>, ty: Type<'c>) -> Value<'c, 'a> {
    let e = Emit { context, location: at.location() };
    let segments = e.attr("array<i32: 0, 0>");
    e.value(at, "memref.alloc", &[], ty, &[("operandSegmentSizes", segments)])
}

/// (rows, columns) of a slot `memref<threads x rows x columns>`.
fn dims(slot: Value) -> (i64, i64) {
    let ty = melior::ir::r#type::MemRefType::try_from(slot.r#type()).expect("a slot");
    let size = |d| match ty.dim_size(d) {
        Ok(melior::ir::r#type::DimSize::Static(n)) => n as i64,
        _ => 0,
    };
    (size(1), size(2))
}

/// Is `memory` a row-major 2-d buffer whose row length is `op`'s leading
/// dimension (what the emulation reads and writes)?
fn leading_dimension_matches(op: OperationRef, memory: Value) -> Result<(), String> {
    let ty = melior::ir::r#type::MemRefType::try_from(memory.r#type()).map_err(|_| "a matrix op on a non-memref")?;
    let lead = op.attribute("leadDimension").map(|a| a.to_string()).unwrap_or_default();
    let row = match ty.dim_size(1) {
        Ok(melior::ir::r#type::DimSize::Static(n)) if ty.rank() == 2 && ffi::has_identity_layout(ty) => n,
        _ => return Err("a matrix op on a buffer that is not a row-major 2-d one cannot be emulated yet".into()),
    };
    if lead != format!("{row} : index") {
        return Err(format!("a leading dimension ({lead}) other than the buffer's rows ({row})"));
    }
    Ok(())
}

fn load<'c, 'a>(e: &Emit<'c>, at: OperationRef<'c, 'a>, memref: Value<'c, 'a>, indices: &[Value<'c, 'a>]) -> Value<'c, 'a> {
    let element = crate::emit_at::memref_element(memref).expect("a memref");
    let operands: Vec<Value> = std::iter::once(memref).chain(indices.iter().copied()).collect();
    e.value(at, "memref.load", &operands, element, &[])
}

/// `scf.for %r < rows { scf.for %c < columns { body } }` before `at`;
/// `body` gets the inner body's terminator and the two variables.
fn grid2<'c, 'a>(context: &'c Context, at: OperationRef<'c, 'a>, rows: i64, columns: i64, body: impl FnOnce(OperationRef<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>)) {
    let e = Emit { context, location: at.location() };
    let rows = e.constant(at, "index", &rows.to_string());
    let columns = e.constant(at, "index", &columns.to_string());
    let (r, end_r) = loop_before(context, at, rows);
    let (c, end_c) = loop_before(context, end_r, columns);
    body(end_c, r, c);
}

/// `scf.for %k < trip iter_args(%s = start)` before `at`: its induction
/// variable, carried value, yield (operands set by the caller) and the loop.
fn for_carrying<'c, 'a>(
    context: &'c Context,
    at: OperationRef<'c, 'a>,
    trip: i64,
    start: Value<'c, 'a>,
) -> (Value<'c, 'a>, Value<'c, 'a>, OperationRef<'c, 'a>, OperationRef<'c, 'a>) {
    let e = Emit { context, location: at.location() };
    let (zero, upper, one) = (e.constant(at, "index", "0"), e.constant(at, "index", &trip.to_string()), e.constant(at, "index", "1"));
    let region = Region::new();
    let block = region.append_block(Block::new(&[(Type::index(context), e.location), (start.r#type(), e.location)]));
    block.append_operation(e.build("scf.yield", &[block.argument(1).expect("s").into()], &[], &[], vec![]));
    let made = e.build("scf.for", &[zero, upper, one, start], &[start.r#type()], &[], vec![region]);
    let made = at.block().expect("in a block").insert_operation_before(at, made);
    let block = made.region(0).ok().and_then(|r| r.first_block()).expect("a body");
    (block.argument(0).expect("k").into(), block.argument(1).expect("s").into(), block.terminator().expect("yield"), made)
}

/// A device-memory op as its host equivalent.
fn host_memory<'c>(context: &'c Context, op: OperationRef<'c, '_>) {
    // A result other than gpu.alloc's buffer is an async token: left alone
    // while it has uses (the op could not be erased).
    let skip = usize::from(is_named(op, "gpu.alloc"));
    if op.results().skip(skip).any(ffi::has_uses) {
        return;
    }
    let ir_rewriter = IrRewriter::from_op(op);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(op);
    let emitter = Emitter { context, rewriter: &rewriter, location: op.location() };
    let operands: Vec<Value> = op.operands().collect();
    if is_named(op, "gpu.alloc") {
        let Ok(result) = op.result(0) else { return };
        let segments = emitter.attribute(&format!("array<i32: {}, 0>", operands.len()));
        let host = emitter.value("memref.alloc", &operands, result.r#type(), &[("operandSegmentSizes", segments)]);
        ffi::replace_all_uses(result.into(), host);
    } else if is_named(op, "gpu.dealloc") {
        emitter.op("memref.dealloc", &operands, &[], &[], vec![]);
    } else if operands.len() == 2 {
        // gpu.memcpy dst, src; memref.copy src, dst.
        emitter.op("memref.copy", &[operands[1], operands[0]], &[], &[], vec![]);
    }
    // SAFETY: the gpu.alloc result was replaced by the host buffer, and the op's other results (async
    // tokens) are unused (checked at the top); memory ops have no regions and the list holds each
    // once.
    unsafe { ffi::erase(op) };
}
