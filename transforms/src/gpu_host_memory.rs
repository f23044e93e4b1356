//! `pb-gpu-host-memory`: give the kernels device memory. After
//! `pb-gpu-map`, the launches still read and write host buffers; here
//!
//! - each memref argument of a public function that a kernel uses gets a
//!   device copy (`gpu.alloc` + `gpu.memcpy` at entry); the kernels use
//!   the copy, and where they may write it, it is copied back before each
//!   return (the caller's inputs and outputs stay host arrays, so the C ABI
//!   of the function is the cpu pipeline's);
//! - constants (`memref.get_global`) that kernels read are copied to the
//!   device the same way (hoisted out of the kernels first);
//! - temporaries (`memref.alloc`, `memref.alloca`) that kernels use are
//!   allocated on the device (`gpu.alloc`), and their deallocations become
//!   `gpu.dealloc`.
//!
//! Nothing else changes: what the host does with buffers (views, the
//! deallocation helper's pointer comparisons) reads no data.

use melior::{
    ir::{
        block::BlockLike, operation::OperationLike, r#type::{MemRefType, ShapedTypeLike}, Attribute, BlockRef, OperationRef, RegionLike,
        TypeLike, Value, ValueLike,
    },
    Context, IrRewriter,
};
use pb_support::{
    builder::{emit_before, Emitter},
    ffi,
    ir::{self, is_named},
    PassFailed, PassId, PassInfo, RustPass,
};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-gpu-host-memory",
    summary: "Give the kernels of gpu.launch device copies of arguments and constants, and device temporaries",
    description: "In each public function, memref arguments and memref.get_global constants used in a \
gpu.launch are copied into gpu.alloc buffers at entry (arguments the kernels may write are copied \
back before each return), and temporaries used in a launch are allocated with gpu.alloc and freed \
with gpu.dealloc. Runs after pb-gpu-map in the GPU pipelines.",
    anchor: "builtin.module",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<GpuHostMemory>,
};

#[derive(Clone, Default)]
struct GpuHostMemory;

impl RustPass for GpuHostMemory {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["gpu"]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let mut ok = true;
        for func in ir::public_functions(module) {
            ok &= ffi::with_context(func, |context| move_to_device(context, func));
        }
        PassFailed::unless(ok)
    }
}

/// Is `op` inside a `gpu.launch`?
fn in_launch(op: OperationRef) -> bool {
    ir::is_inside(op, "gpu.launch")
}

/// Does `op` make a view of its first operand (`memref.view` included)?
fn is_view(op: OperationRef) -> bool {
    ir::is_view_op(op) || is_named(op, "memref.view")
}

/// Does a kernel use `value`, directly or through host views of it?
fn used_on_device(value: Value) -> bool {
    ffi::users(value)
        .into_iter()
        .any(|user| in_launch(user) || (is_view(user) && user.results().any(|r| used_on_device(r.into()))))
}

/// May anything write through `value` (or views of it)?
fn written(value: Value) -> bool {
    ffi::uses(value).into_iter().any(|(user, position)| {
        if is_view(user) {
            return position == 0 && user.results().any(|r| written(r.into()));
        }
        let name = user.name().as_string_ref().as_str().unwrap_or("").to_string();
        let reads = matches!(
            name.as_str(),
            "memref.load"
                | "memref.dim"
                | "memref.dealloc"
                | "gpu.dealloc"
                | "memref.extract_strided_metadata"
                | "memref.extract_aligned_pointer_as_index"
                | "vector.load"
                | "vector.transfer_read"
        ) || (name == "gpu.memcpy" && position == 1);
        !reads
    })
}

fn move_to_device<'c>(context: &'c Context, func: OperationRef<'c, '_>) -> bool {
    let Some(entry) = func.region(0).ok().and_then(|r| r.first_block()) else { return true };
    let returns = ffi::collect_ops(func, melior::ir::operation::WalkOrder::PreOrder, |op| is_named(op, "func.return"));
    let mut ok = true;
    // Constants read in kernels: hoisted into the function's body first,
    // before the op holding their launch.
    for global in ffi::collect_ops(func, melior::ir::operation::WalkOrder::PreOrder, |op| {
        is_named(op, "memref.get_global") && in_launch(op)
    }) {
        if let Some(top) = ir::ancestor_in(global, entry) {
            ffi::move_before(global, top);
        }
    }
    // Arguments, then constants: device copies.
    let mut copies: Vec<(Value, Value, bool)> = Vec::new();
    for index in 0..entry.argument_count() {
        let Ok(argument) = entry.argument(index) else { continue };
        let argument: Value = argument.into();
        if argument.r#type().is_mem_ref() && used_on_device(argument) {
            let written = written(argument);
            if let Some(copy) = device_copy(context, entry, argument, None) {
                copies.push((argument, copy, written));
            } else {
                ok = false;
            }
        }
    }
    for global in ffi::collect_ops(func, melior::ir::operation::WalkOrder::PreOrder, |op| {
        is_named(op, "memref.get_global") && !in_launch(op)
    }) {
        let Ok(result) = global.result(0) else { continue };
        let result: Value = result.into();
        if !used_on_device(result) {
            continue;
        }
        if global.block() != Some(entry) {
            ffi::emit_error(global.location(), "pb-gpu-host-memory: a constant read on the GPU inside a host loop; not supported yet");
            ok = false;
            continue;
        }
        match device_copy(context, entry, result, Some(global)) {
            Some(copy) => copies.push((result, copy, false)),
            None => ok = false,
        }
    }
    // Copies back and frees, before each return.
    for ret in &returns {
        emit_before(context, *ret, |emitter| {
            for (host, device, written) in &copies {
                if *written {
                    emitter.op("gpu.memcpy", &[*host, *device], &[], &[], vec![]);
                }
            }
            for (_, device, _) in &copies {
                emitter.op("gpu.dealloc", &[*device], &[], &[], vec![]);
            }
        });
    }
    // Temporaries.
    let allocations = ffi::collect_ops(func, melior::ir::operation::WalkOrder::PreOrder, |op| {
        (is_named(op, "memref.alloc") || is_named(op, "memref.alloca")) && !in_launch(op)
    });
    for alloc in allocations {
        let Ok(result) = alloc.result(0) else { continue };
        let result: Value = result.into();
        if !used_on_device(result) {
            continue;
        }
        let stack = is_named(alloc, "memref.alloca");
        if stack && alloc.block() != Some(entry) {
            ffi::emit_error(alloc.location(), "pb-gpu-host-memory: a stack buffer inside a host loop used on the GPU; not supported yet");
            ok = false;
            continue;
        }
        let ir_rewriter = IrRewriter::from_op(alloc);
        let rewriter = ir_rewriter.as_rewriter_base();
        rewriter.set_insertion_point_before(alloc);
        let emitter = Emitter { context, rewriter: &rewriter, location: alloc.location() };
        let sizes: Vec<Value> = alloc.operands().collect();
        let segments = emitter.attribute(&format!("array<i32: 0, {}, 0>", sizes.len()));
        let device = emitter.value("gpu.alloc", &sizes, result.r#type(), &[("operandSegmentSizes", segments)]);
        ffi::replace_all_uses(result, device);
        // SAFETY: the allocation's one result was just replaced by the device buffer; it has no
        // regions, and the list holds each allocation once.
        unsafe { ffi::erase(alloc) };
        if stack {
            for ret in &returns {
                emit_before(context, *ret, |emitter| {
                    emitter.op("gpu.dealloc", &[device], &[], &[], vec![]);
                });
            }
        }
    }
    // Deallocations of device buffers (directly or of their base buffer).
    for dealloc in ffi::collect_ops(func, melior::ir::operation::WalkOrder::PreOrder, |op| is_named(op, "memref.dealloc")) {
        let Some(buffer) = ffi::operand(dealloc, 0) else { continue };
        if !root_is_device(buffer) {
            continue;
        }
        emit_before(context, dealloc, |emitter| {
            emitter.op("gpu.dealloc", &[buffer], &[], &[], vec![]);
        });
        // SAFETY: a deallocation has no results or regions; the list holds each once.
        unsafe { ffi::erase(dealloc) };
    }
    ok
}

/// Does `value` view (or is it the base buffer of) a `gpu.alloc`?
fn root_is_device(value: Value) -> bool {
    let mut current = value;
    loop {
        let Some(def) = ffi::defining_op(current) else { return false };
        if is_named(def, "gpu.alloc") {
            return true;
        }
        if is_view(def) || is_named(def, "memref.extract_strided_metadata") {
            match ffi::operand(def, 0) {
                Some(source) => current = source,
                None => return false,
            }
        } else {
            return false;
        }
    }
}

/// A device buffer holding a copy of `host` (an argument of `entry`, or
/// the result of `after`), used everywhere `host` was; `None` after an
/// error (a type the copy cannot take).
fn device_copy<'c, 'a>(
    context: &'c Context,
    entry: BlockRef<'c, 'a>,
    host: Value<'c, 'a>,
    after: Option<OperationRef<'c, 'a>>,
) -> Option<Value<'c, 'a>> {
    let ty = MemRefType::try_from(host.r#type()).ok()?;
    let location = after.map_or_else(|| melior::ir::Location::unknown(context), |op| op.location());
    if !ffi::has_identity_layout(ty) || !ty.has_static_shape() {
        ffi::emit_error(location, &format!("pb-gpu-host-memory: cannot copy a buffer of type {} to the GPU yet", host.r#type()));
        return None;
    }
    let anchor = match after {
        Some(op) => op.next_in_block()?,
        None => entry.first_operation()?,
    };
    let ir_rewriter = IrRewriter::from_op(anchor);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(anchor);
    let emitter = Emitter { context, rewriter: &rewriter, location };
    let segments: Attribute = emitter.attribute("array<i32: 0, 0, 0>");
    let device = emitter.value("gpu.alloc", &[], host.r#type(), &[("operandSegmentSizes", segments)]);
    ffi::replace_all_uses(host, device);
    let copy = emitter.op("gpu.memcpy", &[device, device], &[], &[], vec![]);
    ffi::set_operand(copy, 1, host);
    // (Found again through the host value's new user: the emitter's
    // references do not outlive its rewriter.)
    ffi::users(host).into_iter().find(|u| is_named(*u, "gpu.memcpy")).and_then(|m| ffi::operand(m, 0))
}
