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
//! A kernel that synchronizes its threads (`gpu.barrier`) would need each
//! phase between barriers run for all threads in turn; the mapping makes
//! none yet, and the pass refuses one with an error rather than run it
//! wrongly.

use melior::{
    ir::{
        block::BlockLike, operation::OperationLike, Block, OperationRef, Region, RegionLike, Type, Value,
        ValueLike,
    },
    Context, IrRewriter,
};
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
memref.alloc/memref.dealloc/memref.copy. Kernels with gpu.barrier are refused. The emulation path \
of the GPU pipelines (compile option emulate): the mapped IR checked on a machine without a GPU.",
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
        let barriers = ffi::collect_ops(module, melior::ir::operation::WalkOrder::PreOrder, |op| is_named(op, "gpu.barrier"));
        if let Some(barrier) = barriers.first() {
            ffi::emit_error(barrier.location(), "pb-gpu-emulate: kernels with barriers cannot be emulated yet");
            return Err(PassFailed);
        }
        let launches = ffi::collect_ops(module, melior::ir::operation::WalkOrder::PostOrder, |op| is_named(op, "gpu.launch"));
        for launch in launches {
            ffi::with_context(launch, |context| emulate_launch(context, launch));
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

fn emulate_launch<'c>(context: &'c Context, launch: OperationRef<'c, '_>) {
    let Some(body) = launch.region(0).ok().and_then(|r| r.first_block()) else { return };
    let sizes: Vec<Value> = (0..6).filter_map(|i| ffi::operand(launch, i)).collect();
    // Only a launch whose results (an async token) are unused and whose
    // body arguments are the 12 replaced below can be erased once emptied.
    let used = |value: Value| ffi::has_uses(value);
    if sizes.len() != 6
        || launch.results().any(|r| used(r.into()))
        || (12..body.argument_count()).any(|i| body.argument(i).is_ok_and(|a| used(a.into())))
    {
        return;
    }
    // Grid z, y, x, then block z, y, x: the loops, outermost first.
    let order = [2usize, 1, 0, 5, 4, 3];
    let mut ids: [Option<Value>; 6] = [None; 6];
    let mut anchor = launch;
    for position in order {
        let (iv, end) = loop_before(context, anchor, sizes[position]);
        ids[position] = Some(iv);
        anchor = end;
    }
    // Block arguments: block ids (3), thread ids (3), grid sizes, block sizes.
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
    // The body, but its terminator, inside the innermost loop.
    for op in ir::ops_before_terminator(body) {
        ffi::move_before(op, anchor);
    }
    // SAFETY: the launch's body ops (but its terminator) were moved out and every body argument they
    // could use was replaced (checked at the top); its results are unused (checked there too); the
    // launch list was collected post-order, so no later entry is inside it.
    unsafe { ffi::erase(launch) };
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
