//! `pb-allocs-to-pool`: take every temporary buffer of a public function
//! from one caller-supplied memory pool, so the generated code allocates
//! nothing (the spec's AOT "user-provided memory pool"). The JIT uses it
//! too (`strict=false`): its runtime keeps a pool per thread, so a call
//! neither allocates nor page-faults fresh memory (attention 12x512x64 spent
//! two thirds of its time faulting in its 25 MB of temporaries).
//!
//! Runs on memrefs, after the loop optimizers (which need each temporary
//! as its own buffer) and deallocation insertion (it erases deallocations).
//! Only allocations in the function body itself (one per call) go in the
//! pool; with `strict` (default) any other is an error, without it they
//! stay heap allocations.
//! Each public function gets a trailing `memref<Nxi8>` argument (the pool;
//! `N` is the bytes the caller must provide, also written as the function
//! attribute `pb.user_memory_bytes`), and each statically shaped
//! `memref.alloc` in it becomes a `memref.view` of the pool at its own
//! 64-byte-aligned offset. Deallocations of those buffers are erased.
//!
//! It refuses (with an error at the op): dynamically sized or non-identity
//! layout allocations (the pool is planned at compile time), and public
//! functions that are also called from inside the module (their callers
//! would need the pool too).
//!
//! ```mlir
//! func.func @f(%a: memref<4xf32>, %out: memref<4xf32>) {
//!   %t = memref.alloc() : memref<4xf32>
//! // becomes
//! func.func @f(%a: memref<4xf32>, %out: memref<4xf32>, %pool: memref<64xi8>) attributes {pb.user_memory_bytes = 64 : i64} {
//!   %c0 = arith.constant 0 : index
//!   %t = memref.view %pool[%c0][] : memref<64xi8> to memref<4xf32>
//! ```
//! Buffers whose lives do not overlap share bytes of the pool: a buffer is
//! live from its allocation to the last op of the body using it or a value
//! derived from it (views, loops carrying it, pointers taken from it;
//! deallocations do not count), and takes the lowest offset that overlaps
//! no buffer live at the same time (first fit, in program order). The
//! body's ops run one after another (parallel loops join inside them), so
//! a buffer written after another's last use may take its place.
//!
//! Two kinds of allocation live from one call to the next (the JIT keeps
//! each thread's pool): a `memref<i32>` marked `pb.prepared_flag` takes
//! offset 0 (recorded as `pb.prepared_flag_offset`; the caller zeroes it
//! when the function's static arguments change), and buffers marked
//! `pb.persistent` (`pb-register-tile`'s prepacked weights) take bytes no
//! other buffer shares. Neither may be left a heap allocation, even
//! without `strict`: its contents would not outlive the call.

use melior::{
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::{OperationLike, WalkOrder},
        r#type::{IntegerType, MemRefType, ShapedTypeLike},
        OperationRef, RegionLike, Type, TypeLike, ValueLike,
    },
    Context, IrRewriter,
};
use std::collections::HashMap;
use pb_support::{builder::Emitter, ffi, ir, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-allocs-to-pool",
    summary: "Serve every temporary buffer of public functions from a trailing caller-supplied pool",
    description: "Adds a trailing `memref<Nxi8>` pool argument to each public function and turns \
each static `memref.alloc` into a `memref.view` of it at a 64-byte-aligned offset; erases their \
deallocations; records the size in `pb.user_memory_bytes`. Errors on dynamic or strided \
allocations and on public functions called from inside the module.",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "strict",
        kind: OptionKind::Bool,
        default: "true",
        help: "Error on allocations that cannot go in the pool (dynamic, strided, inside loops); \
with false they stay heap allocations (the JIT's pools are an optimization, not a contract)",
    }],
    id: &ID,
    create,
};

/// Marks an allocation whose contents live from one call to the next (a
/// parameter's packed copy, `pb-register-tile`'s `prepacked`): it gets
/// bytes of its own in the pool, shared with no other buffer.
pub const PERSISTENT: &str = "pb.persistent";

/// Marks a function's `memref<i32>` prepared flag: 0 when the persistent
/// buffers are to be filled again (the caller's static arguments are new),
/// set to 1 by the function before it returns. It takes the pool's first
/// bytes (offset 0, recorded as `pb.prepared_flag_offset`), which the
/// caller zeroes: a fresh pool, or new parameters.
pub const PREPARED_FLAG: &str = "pb.prepared_flag";

/// The function attribute recording the prepared flag's byte offset in
/// the pool (for the manifest and the C header).
pub const PREPARED_FLAG_OFFSET: &str = "pb.prepared_flag_offset";

/// Offsets in the pool are multiples of this (a cache line, AVX-512 width).
pub const ALIGNMENT: u64 = 64;

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(AllocsToPool { strict: options.bool("strict") })
}

#[derive(Clone)]
struct AllocsToPool {
    strict: bool,
}

impl RustPass for AllocsToPool {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["arith", "memref"]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let called = called_symbols(module);
        let mut ok = true;
        for func in ir::public_functions(module) {
            let name = ir::symbol_name(func);
            if called.contains(&name) {
                ffi::emit_error(
                    func.location(),
                    &format!("cannot add a memory pool to @{name}: it is also called from inside the module"),
                );
                ok = false;
                continue;
            }
            ok &= ffi::with_context(func, |context| pool_function(context, func, self.strict));
        }
        // Kernels outlined from a public function (`pb-outline-kernels`)
        // are private functions: an allocation in one runs inside a loop of
        // the caller's, which the pool cannot take either.
        if self.strict {
            let kernels = ffi::collect_ops(module, WalkOrder::PreOrder, |op| {
                ir::is_named(op, "func.func") && op.attribute(crate::outline_kernels::KERNEL_ATTRIBUTE).is_ok()
            });
            for kernel in kernels {
                for alloc in ffi::collect_ops(kernel, WalkOrder::PreOrder, |op| ir::is_named(op, "memref.alloc")) {
                    ffi::emit_error(
                        alloc.location(),
                        "cannot place this allocation in the user memory pool: it is inside a loop (of a kernel)",
                    );
                    ok = false;
                }
            }
        }
        PassFailed::unless(ok)
    }
}

fn called_symbols(module: OperationRef) -> Vec<String> {
    ffi::collect_ops(module, WalkOrder::PreOrder, |op| ir::is_named(op, "func.call"))
        .into_iter()
        .filter_map(|call| call.attribute("callee").ok())
        .map(|callee| callee.to_string().trim_start_matches('@').to_string())
        .collect()
}

/// Bytes of one element of a memref element type.
fn element_bytes(element: Type) -> Option<u64> {
    if let Ok(int) = IntegerType::try_from(element) {
        return Some(u64::from(int.width()).div_ceil(8));
    }
    if element.is_index() {
        return Some(8);
    }
    if let Some(part) = pb_support::ffi::complex_element(element) {
        return element_bytes(part).map(|bytes| 2 * bytes);
    }
    let width = if element.is_f16() || element.is_bf16() {
        16
    } else if element.is_f32() {
        32
    } else if element.is_f64() {
        64
    } else {
        return None;
    };
    Some(width / 8)
}

/// Plans and rewrites one function; false (after emitting errors) if some
/// allocation cannot go in the pool.
fn pool_function<'c>(context: &'c Context, func: OperationRef<'c, '_>, strict: bool) -> bool {
    let mut allocs = ffi::collect_ops(func, WalkOrder::PreOrder, |op| ir::is_named(op, "memref.alloc"));
    let Some(entry) = func.region(0).ok().and_then(|r| r.first_block()) else { return true };
    // Each op of the body by its position.
    let mut positions: HashMap<usize, usize> = HashMap::new();
    let mut current = entry.first_operation();
    while let Some(op) = current {
        positions.insert(op.to_raw().ptr as usize, positions.len());
        current = op.next_in_block();
    }
    // The prepared flag first (offset 0, where the caller finds it), then
    // the persistent buffers (live for good), then the temporaries.
    let rank = |op: &OperationRef| match (op.attribute(PREPARED_FLAG).is_ok(), op.attribute(PERSISTENT).is_ok()) {
        (true, _) => 0,
        (_, true) => 1,
        _ => 2,
    };
    allocs.sort_by_key(rank);
    let has_flag = allocs.first().is_some_and(|op| rank(op) == 0);
    let mut buffers = Vec::new();
    let mut ok = true;
    let mut kept = Vec::new();
    for alloc in &allocs {
        // One offset per allocation: only those that run once per call (in
        // the function body, not in a loop that would share it).
        let placed = alloc.parent_operation().is_some_and(|parent| parent == func);
        match alloc_bytes(*alloc).and_then(|bytes| if placed { Ok(bytes) } else { Err("it is inside a loop".into()) }) {
            Ok(bytes) => {
                let (start, end) = if rank(alloc) < 2 { (0, usize::MAX) } else { live_range(*alloc, entry, &positions) };
                buffers.push(Buffer { bytes: bytes.div_ceil(ALIGNMENT) * ALIGNMENT, start, end });
                kept.push(*alloc);
            }
            // A buffer kept between calls or the flag saying it is
            // filled means nothing outside the pool: never left behind.
            Err(_) if !strict && rank(alloc) == 2 => {}
            Err(reason) => {
                ffi::emit_error(
                    alloc.location(),
                    &format!("cannot place this allocation in the user memory pool: {reason}"),
                );
                ok = false;
            }
        }
    }
    if !ok {
        return false;
    }
    allocs = kept;
    let (plan, total) = assign_offsets(&buffers);

    let pool_type: Type = MemRefType::new(IntegerType::new(context, 8).into(), &[total as i64], None, None).into();
    let pool = entry.add_argument(pool_type, func.location());
    if let Some(function_type) = ir::function_type(func) {
        let mut inputs: Vec<Type> =
            (0..function_type.input_count()).filter_map(|i| function_type.input(i).ok()).collect();
        inputs.push(pool_type);
        ir::set_function_inputs(context, func, &inputs);
        let bytes = IntegerAttribute::new(IntegerType::new(context, 64).into(), total as i64);
        ffi::set_attribute(func, "pb.user_memory_bytes", bytes.into());
        if has_flag {
            let offset = IntegerAttribute::new(IntegerType::new(context, 64).into(), 0);
            ffi::set_attribute(func, PREPARED_FLAG_OFFSET, offset.into());
        }
        extend_arg_attrs(context, func, inputs.len());
    }

    for (alloc, offset) in allocs.iter().zip(plan) {
        let ir_rewriter = IrRewriter::from_op(*alloc);
        let rewriter = ir_rewriter.as_rewriter_base();
        rewriter.set_insertion_point_before(*alloc);
        let emitter = Emitter { context, rewriter: &rewriter, location: alloc.location() };
        let result = alloc.result(0).expect("memref.alloc has one result");
        let offset = emitter.index(offset as i64);
        let view = emitter.value("memref.view", &[pool, offset], result.r#type(), &[]);
        for dealloc in deallocs_of(func, result.to_raw()) {
            IrRewriter::from_op(dealloc).as_rewriter_base().erase_op(dealloc);
        }
        rewriter.replace_op_with_values(*alloc, &[view]);
    }
    true
}

/// A pooled buffer: its bytes (aligned) and the positions, among the ops
/// of the function's body, of its allocation and of its last use.
struct Buffer {
    bytes: u64,
    start: usize,
    end: usize,
}

/// Where `alloc` (an op of `body`) is live: from its position to that of
/// the last op of `body` containing a use of it, of a value computed from
/// it (a view, a loop carrying it, a pointer taken from it), and so on.
/// Deallocations (erased by this pass) are not uses. Conservative: any
/// result of a user counts as derived from the buffer.
fn live_range(alloc: OperationRef, body: melior::ir::BlockRef, positions: &HashMap<usize, usize>) -> (usize, usize) {
    let position = |op: OperationRef| -> usize { positions.get(&(op.to_raw().ptr as usize)).copied().unwrap_or(usize::MAX) };
    let start = position(alloc);
    let mut end = start;
    let mut seen: std::collections::HashSet<usize> = std::collections::HashSet::new();
    let mut work: Vec<melior::ir::Value> = alloc.results().map(|r| r.into()).collect();
    while let Some(value) = work.pop() {
        for user in ffi::users(value) {
            if ir::is_named(user, "memref.dealloc") || !seen.insert(user.to_raw().ptr as usize) {
                continue;
            }
            // Uses outside the body (none expected) keep the buffer to the end.
            end = end.max(ir::ancestor_in(user, body).map_or(usize::MAX, position));
            work.extend(user.results().map(melior::ir::Value::from));
        }
    }
    (start, end)
}

/// Offsets for `buffers` (in program order) and the pool's size: each
/// buffer takes the lowest offset where it overlaps no buffer live at the
/// same time (first fit); buffers whose lives do not overlap share bytes.
fn assign_offsets(buffers: &[Buffer]) -> (Vec<u64>, u64) {
    let mut offsets: Vec<u64> = Vec::with_capacity(buffers.len());
    let mut total = 0u64;
    for (index, buffer) in buffers.iter().enumerate() {
        // Earlier buffers still live when this one is allocated.
        let mut live: Vec<(u64, u64)> = buffers[..index]
            .iter()
            .zip(&offsets)
            .filter(|(other, _)| other.end >= buffer.start)
            .map(|(other, offset)| (*offset, *offset + other.bytes))
            .collect();
        live.sort();
        let mut offset = 0u64;
        for (low, high) in live {
            if offset + buffer.bytes <= low {
                break;
            }
            offset = offset.max(high);
        }
        offsets.push(offset);
        total = total.max(offset + buffer.bytes);
    }
    (offsets, total)
}

fn alloc_bytes(alloc: OperationRef) -> Result<u64, String> {
    let ty = alloc.result(0).map_err(|_| "no result".to_string())?.r#type();
    let memref = MemRefType::try_from(ty).map_err(|_| format!("'{ty}' is not a ranked memref"))?;
    if !memref.has_static_shape() {
        return Err(format!("'{ty}' has a dynamic size"));
    }
    if !ffi::has_identity_layout(memref) {
        return Err(format!("'{ty}' is not contiguous"));
    }
    let element = element_bytes(memref.element()).ok_or_else(|| format!("unsupported element type in '{ty}'"))?;
    let elements: u64 = (0..memref.rank())
        .map(|i| match memref.dim_size(i) {
            Ok(melior::ir::r#type::DimSize::Static(n)) => n,
            _ => 0,
        })
        .product();
    Ok(elements * element)
}

fn deallocs_of<'c, 'a>(func: OperationRef<'c, 'a>, value: mlir_sys::MlirValue) -> Vec<OperationRef<'c, 'a>> {
    ffi::collect_ops(func, WalkOrder::PreOrder, |op| {
        ir::is_named(op, "memref.dealloc") && op.operand(0).is_ok_and(|v| v.to_raw().ptr == value.ptr)
    })
}

/// Keeps `arg_attrs` (if present) as long as the argument list.
fn extend_arg_attrs<'c>(context: &'c Context, func: OperationRef<'c, '_>, count: usize) {
    let Ok(existing) = func.attribute("arg_attrs") else { return };
    let Ok(array) = melior::ir::attribute::ArrayAttribute::try_from(existing) else { return };
    let mut items: Vec<_> = (0..array.len()).filter_map(|i| array.element(i).ok()).collect();
    while items.len() < count {
        items.push(melior::ir::Attribute::parse(context, "{}").expect("empty dictionary"));
    }
    ffi::set_attribute(func, "arg_attrs", melior::ir::attribute::ArrayAttribute::new(context, &items).into());
}
