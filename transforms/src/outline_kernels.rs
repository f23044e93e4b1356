//! `pb-outline-kernels`: each kernel of a public function becomes a private
//! function of its own, and kernels with the same code share one.
//!
//! Why: a model compiles to one function holding hundreds of kernels, and
//! LLVM's optimizer and code generator then took 70% of the compile time
//! (BERT-base: 20.6 of 29 s) on code that is mostly the same kernels
//! twelve times over (one per layer: the same loops over other buffers).
//! Outlined, each distinct kernel is optimized and compiled once; the
//! layers call it with their buffers. It runs in the `affine` stage as soon
//! as fusion and tiling have formed the kernels, so the passes after it
//! (upstream `affine-parallelize`, whose dependence analysis took 70% of
//! the stage) see each distinct kernel once too. A kernel's function also gives it a
//! name that `perf` shows (`graph_kernel_12`, its OpenMP body
//! `graph_kernel_12..omp_par`) instead of one `graph..omp_par.N` among
//! hundreds.
//!
//! A kernel is an op with regions and no results directly in a public
//! function's body (a loop nest, a register-tiled contraction's scope). Its
//! function takes the values the kernel uses from outside, in order of
//! first use (constants are cloned in instead, so that kernels differing
//! only in which constant op they share stay identical); two kernels are
//! the same when their functions print the same. Calls are `no_inline`,
//! the functions `noinline` and of internal linkage for LLVM. Kernels are
//! left in place when a value they use cannot cross a call with the
//! bare-pointer convention the cpu pipeline lowers functions with (a memref
//! with a dynamic size, a strided layout or no elements), and when they
//! free memory or read a buffer's base address (run-time deallocation: the
//! bare pointer is the aligned address, not the allocated one).
//!
//! ```mlir
//! func.func @graph(%x: memref<8xf32>, %y: memref<8xf32>) {
//!   affine.for %i = 0 to 8 { ... %x ... %y ... }
//! // becomes
//! func.func private @graph_kernel_0(%a: memref<8xf32>, %b: memref<8xf32>)
//!     attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]} {
//!   affine.for %i = 0 to 8 { ... %a ... %b ... }
//!   return
//! }
//! func.func @graph(%x: memref<8xf32>, %y: memref<8xf32>) {
//!   call @graph_kernel_0(%x, %y) {no_inline} : (memref<8xf32>, memref<8xf32>) -> ()
//! ```

use std::collections::HashMap;

use melior::{
    ir::{
        attribute::{FlatSymbolRefAttribute, StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, WalkOrder},
        r#type::{FunctionType, MemRefType},
        Attribute, Block, Identifier, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use pb_support::{ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

/// The unit attribute marking outlined kernels (`pb-allocs-to-pool` holds
/// their allocations to its rules).
pub const KERNEL_ATTRIBUTE: &str = "pb.kernel";

pub static INFO: PassInfo = PassInfo {
    argument: "pb-outline-kernels",
    summary: "Outline each kernel of public functions into a private function; identical kernels share one",
    description: "Every op with regions and no results directly in a public function's body becomes \
a call (`no_inline`) of a private, `noinline`, internal function taking the values it uses from \
outside (constants cloned in); kernels whose functions print the same share one. Kernels using a \
memref the bare-pointer convention cannot pass (dynamic, strided or empty) stay in place. Runs at \
the cpu pipeline's `affine` stage after fusion and tiling: parallelization, vectorization and \
LLVM then see each distinct kernel once.",
    anchor: "builtin.module",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<OutlineKernels>,
};

#[derive(Clone, Default)]
struct OutlineKernels;

impl RustPass for OutlineKernels {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["func"]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let functions = ir::public_functions(module);
        ffi::with_context(module, |context| {
            let mut known: HashMap<String, String> = HashMap::new();
            for func in functions {
                outline_function(context, module, func, &mut known);
            }
        });
        Ok(())
    }
}

/// The kernels of `func`: ops with regions and no results directly in its body.
fn kernels<'c, 'a>(func: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    ir::body_ops(func).into_iter().filter(|op| op.region_count() > 0 && op.result_count() == 0).collect()
}

fn raw(value: Value) -> usize {
    value.to_raw().ptr as usize
}

/// Values `kernel` uses that are defined outside it, in order of first use.
fn captured<'c, 'a>(kernel: OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    let ops = ffi::collect_ops(kernel, WalkOrder::PreOrder, |_| true);
    let inside: std::collections::HashSet<usize> = ops.iter().map(|op| op.to_raw().ptr as usize).collect();
    let mut seen = std::collections::HashSet::new();
    let mut values = Vec::new();
    for op in ops {
        for value in op.operands() {
            let defined_inside = match ffi::defining_op(value) {
                Some(owner) => inside.contains(&(owner.to_raw().ptr as usize)),
                // A block argument: of a block inside the kernel, or of the function.
                None => block_argument_inside(value, &inside),
            };
            if !defined_inside && seen.insert(raw(value)) {
                values.push(value);
            }
        }
    }
    values
}

fn block_argument_inside(value: Value, inside: &std::collections::HashSet<usize>) -> bool {
    let Some(argument) = ffi::block_argument(value) else { return false };
    argument.owner().parent_operation().is_some_and(|op| inside.contains(&(op.to_raw().ptr as usize)))
}

/// A value the bare-pointer convention passes: a scalar, or a memref with a
/// static shape, elements and the identity layout.
fn passable(value: Value) -> bool {
    let ty = value.r#type();
    match MemRefType::try_from(ty) {
        Ok(memref) => {
            let shape = pb_dialects::type_utils::memref_static_shape(ty);
            shape.is_some_and(|s| s.iter().all(|n| *n > 0)) && ffi::has_identity_layout(memref)
        }
        Err(_) => {
            use melior::ir::TypeLike;
            ty.is_index() || ty.is_integer() || ty.is_float()
        }
    }
}

/// Does `kernel` free memory or read a buffer's base address (run-time
/// deallocation: `scf.if %owned { memref.dealloc %x }`)? A bare pointer is
/// the aligned address, not the allocated one: freed in a callee, it would
/// corrupt the heap.
fn handles_allocations(kernel: OperationRef) -> bool {
    !ffi::collect_ops(kernel, WalkOrder::PreOrder, |op| {
        ["memref.dealloc", "memref.extract_strided_metadata", "memref.extract_aligned_pointer_as_index", "bufferization.dealloc"]
            .iter()
            .any(|name| ir::is_named(op, name))
    })
    .is_empty()
}

fn is_constant(value: Value) -> bool {
    ffi::defining_op(value).is_some_and(|op| ir::is_named(op, "arith.constant"))
}

fn outline_function<'c>(
    context: &'c Context,
    module: OperationRef<'c, '_>,
    func: OperationRef<'c, '_>,
    known: &mut HashMap<String, String>,
) {
    let name = ir::symbol_name(func);
    let Some(module_body) = module.region(0).ok().and_then(|r| r.first_block()) else { return };
    let Some(body) = func.region(0).ok().and_then(|r| r.first_block()) else { return };
    // The kernels follow their caller, in order.
    let mut last = func;
    for (index, kernel) in kernels(func).into_iter().enumerate() {
        if handles_allocations(kernel) {
            continue;
        }
        let values = captured(kernel);
        if !values.iter().all(|v| is_constant(*v) || passable(*v)) {
            continue;
        }
        let (constants, arguments): (Vec<Value>, Vec<Value>) = values.into_iter().partition(|v| is_constant(*v));
        let location = kernel.location();
        let symbol = format!("{name}_kernel_{index}");
        let types: Vec<Type> = arguments.iter().map(|v| v.r#type()).collect();
        let callee = new_function(context, &symbol, &types, location);
        let before = last;
        let callee = module_body.insert_operation_after(last, callee);
        last = callee;
        let Some(entry) = callee.region(0).ok().and_then(|r| r.first_block()) else { continue };
        // The call, where the kernel was.
        let call = OperationBuilder::new("func.call", location)
            .add_operands(&arguments)
            .add_attributes(&[
                (Identifier::new(context, "callee"), FlatSymbolRefAttribute::new(context, &symbol).into()),
                (Identifier::new(context, "no_inline"), Attribute::unit(context)),
            ])
            .build()
            .expect("func.call is well-formed");
        let call = body.insert_operation_before(kernel, call);
        // The kernel, in the function, reading its arguments and its own
        // copies of the constants.
        let mut replacements: HashMap<usize, Value> = HashMap::new();
        for (position, value) in arguments.iter().enumerate() {
            if let Ok(argument) = entry.argument(position) {
                replacements.insert(raw(*value), argument.into());
            }
        }
        for constant in &constants {
            let Some(owner) = ffi::defining_op(*constant) else { continue };
            let copy = entry.append_operation(ffi::clone_operation(owner));
            if let Ok(result) = copy.result(0) {
                replacements.insert(raw(*constant), result.into());
            }
        }
        ffi::move_to_end(kernel, entry);
        for op in ffi::collect_ops(kernel, WalkOrder::PreOrder, |_| true) {
            for (position, operand) in op.operands().enumerate().collect::<Vec<_>>() {
                if let Some(replacement) = replacements.get(&raw(operand)) {
                    ffi::set_operand(op, position, *replacement);
                }
            }
        }
        entry.append_operation(OperationBuilder::new("func.return", location).build().expect("func.return"));
        if share_identical(context, callee, call, &symbol, known) {
            // `callee` is gone: the next kernel goes where it was.
            last = before;
        }
    }
}

/// An empty private function `symbol` of `types`, with its entry block.
fn new_function<'c>(context: &'c Context, symbol: &str, types: &[Type<'c>], location: Location<'c>) -> melior::ir::Operation<'c> {
    let named = |name: &str, attribute: Attribute<'c>| (Identifier::new(context, name), attribute);
    let function_type = FunctionType::new(context, types, &[]);
    let region = Region::new();
    let arguments: Vec<(Type, Location)> = types.iter().map(|t| (*t, location)).collect();
    region.append_block(Block::new(&arguments));
    OperationBuilder::new("func.func", location)
        .add_attributes(&[
            named("sym_name", StringAttribute::new(context, symbol).into()),
            named("function_type", TypeAttribute::new(function_type.into()).into()),
            named("sym_visibility", StringAttribute::new(context, "private").into()),
            named("passthrough", Attribute::parse(context, "[\"noinline\"]").expect("array")),
            named("llvm.linkage", Attribute::parse(context, "#llvm.linkage<internal>").expect("linkage")),
            named(KERNEL_ATTRIBUTE, Attribute::unit(context)),
        ])
        .add_regions([region])
        .build()
        .expect("func.func is well-formed")
}

/// When a function printing the same as `callee` exists, `call` calls it,
/// `callee` goes and the answer is true; otherwise `callee` is remembered.
fn share_identical<'c>(
    context: &'c Context,
    callee: OperationRef<'c, '_>,
    call: OperationRef<'c, '_>,
    symbol: &str,
    known: &mut HashMap<String, String>,
) -> bool {
    // Local scope: printing a nested op otherwise numbers the whole module
    // each time (quadratic in the number of kernels).
    let flags = melior::ir::operation::OperationPrintingFlags::new().use_local_scope();
    let text = ffi::print_operation(callee, &flags).replacen(&format!("@{symbol}("), "@KERNEL(", 1);
    match known.get(&text) {
        Some(existing) => {
            ffi::set_attribute(call, "callee", FlatSymbolRefAttribute::new(context, existing).into());
            // SAFETY: a func.func has no results; calls name it by symbol, not by pointer, and the one
            // call to it was just retargeted; the loop keeps no handle to it (`last` moves off it
            // below).
            unsafe { ffi::erase(callee) };
            true
        }
        None => {
            known.insert(text, symbol.to_string());
            false
        }
    }
}
