//! `pb-profile-kernels`: time every kernel of each public function, so a
//! user sees where a compiled model spends its time and which of their
//! source lines each kernel came from.
//!
//! Why: a compiled model is a few hundred kernels (fused loop nests,
//! register-tiled contractions); `perf` shows them as `graph..omp_par.N`,
//! which names nothing a user wrote. With `compile_options={"profile": True}`
//! the front keeps source locations in the module and the engine runs this
//! pass in the `affine` stage once fusion and tiling have formed the
//! kernels (before `pb-outline-kernels` moves them into functions).
//!
//! A kernel is an op with regions directly in a public function's body (a
//! loop nest, a register-tiled contraction's `memref.alloca_scope`). Each is
//! bracketed by two calls of `omp_get_wtime` (libomp, which the generated
//! code links anyway) and adds its nanoseconds to its slot of the exported
//! global `pb_profile_ns` (atomically: a library may be called from several
//! threads). Each function also counts its calls and its total time, so the
//! time outside kernels (allocation, copies between them) is visible:
//!
//! ```text
//! slots: [kernel 0, ..., kernel K-1, calls of f0, ns of f0, calls of f1, ...]
//! ```
//!
//! The module attribute `pb.profile` describes the slots (the compile driver
//! copies it into the manifest): per kernel its function, the op that is the
//! kernel, and the distinct source locations of the ops inside it (call
//! chains innermost first, `file:line<file:line`, after `operator@` where
//! `pb-profile-names` named the operator), at most `MAX_SOURCES` of them.
//!
//! ```mlir
//! affine.parallel (%i) = (0) to (64) { ... }
//! // becomes
//! %t0 = func.call @omp_get_wtime() : () -> f64
//! affine.parallel (%i) = (0) to (64) { ... }
//! %t1 = func.call @omp_get_wtime() : () -> f64
//! ... memref.atomic_rmw addi %ns, %slots[%c3] : (i64, memref<9xi64>) -> i64
//! ```

use melior::{
    ir::{
        attribute::{ArrayAttribute, StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, WalkOrder},
        r#type::{FunctionType, MemRefType},
        Attribute, Identifier, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
    },
    Context, IrRewriter,
};
use pb_support::{builder::Emitter, ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

/// The exported global of nanosecond and call counters.
pub const SLOTS_GLOBAL: &str = "pb_profile_ns";
/// The module attribute describing the slots.
pub const PROFILE_ATTRIBUTE: &str = "pb.profile";
/// At most this many distinct source locations are listed per kernel.
const MAX_SOURCES: usize = 12;
const CLOCK: &str = "omp_get_wtime";

pub static INFO: PassInfo = PassInfo {
    argument: "pb-profile-kernels",
    summary: "Time each kernel (op with regions) of public functions into the exported global pb_profile_ns",
    description: "Brackets every op with regions directly in a public function's body with \
`omp_get_wtime` calls and atomically adds its nanoseconds to its slot of the exported \
`memref.global @pb_profile_ns : memref<Nxi64>`; each function also adds its calls and its \
total nanoseconds. The module attribute `pb.profile` lists per kernel its function, op name \
and the distinct source locations of the ops inside it (the runtime's per-kernel report). \
Runs in the cpu pipeline's `affine` stage, after fusion and tiling, when profiling is asked for.",
    anchor: "builtin.module",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<ProfileKernels>,
};

#[derive(Clone, Default)]
struct ProfileKernels;

impl RustPass for ProfileKernels {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["arith", "func", "memref"]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let functions = ir::public_functions(module);
        if functions.is_empty() {
            return Ok(());
        }
        ffi::with_context(module, |context| instrument(context, module, &functions));
        Ok(())
    }
}

/// The kernels of `func`: ops with regions directly in its body.
fn kernels<'c, 'a>(func: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    ir::body_ops(func).into_iter().filter(|op| op.region_count() > 0).collect()
}

/// `file:line` of a file location.
fn frame(location: Location) -> Option<String> {
    if location.is_file_line_col_range() {
        let file = location.file_line_col_range_filename().as_string_ref().as_str().ok()?.to_string();
        return Some(format!("{file}:{}", location.file_line_col_range_start_line()));
    }
    None
}

/// The call chain of `location`, innermost frame first (`a.py:3<b.py:9`);
/// fused locations give each of theirs; a name location (the operator,
/// `pb-profile-names`) prefixes its chains (`matmul@a.py:3<b.py:9`).
fn chains(location: Location, into: &mut Vec<String>) {
    if location.is_fused() {
        for i in 0..location.fused_num_locations() {
            chains(location.fused_location(i), into);
        }
        return;
    }
    if location.is_name() {
        let name = location.name_value().as_string_ref().as_str().unwrap_or("").to_string();
        let mut inner = Vec::new();
        chains(location.name_child_location(), &mut inner);
        if inner.is_empty() {
            into.push(format!("{name}@"));
        }
        into.extend(inner.into_iter().map(|chain| format!("{name}@{chain}")));
        return;
    }
    let mut frames = Vec::new();
    let mut current = location;
    while current.is_call_site() {
        frames.extend(frame(current.call_site_callee()));
        current = current.call_site_caller();
    }
    frames.extend(frame(current));
    if !frames.is_empty() {
        into.push(frames.join("<"));
    }
}

/// The distinct source chains of the ops inside `kernel`, in walk order.
fn sources(kernel: OperationRef) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for op in ffi::collect_ops(kernel, WalkOrder::PreOrder, |_| true) {
        let mut here = Vec::new();
        chains(op.location(), &mut here);
        for chain in here {
            if found.len() < MAX_SOURCES && !found.contains(&chain) {
                found.push(chain);
            }
        }
    }
    found
}

fn instrument<'c>(context: &'c Context, module: OperationRef<'c, '_>, functions: &[OperationRef<'c, '_>]) {
    let plan: Vec<(OperationRef, Vec<OperationRef>)> = functions.iter().map(|f| (*f, kernels(*f))).collect();
    let kernel_count: usize = plan.iter().map(|(_, k)| k.len()).sum();
    let slot_count = kernel_count + 2 * functions.len();
    let i64_type: Type = melior::ir::r#type::IntegerType::new(context, 64).into();
    let f64_type = Type::float64(context);
    let slots_type: Type = MemRefType::new(i64_type, &[slot_count as i64], None, None).into();
    declare_globals(context, module, slot_count, slots_type, f64_type);

    let mut described: Vec<Attribute> = Vec::new();
    let mut slot = 0usize;
    for (function_index, (func, kernels)) in plan.iter().enumerate() {
        let name = ir::symbol_name(*func);
        for kernel in kernels {
            let entry = format!(
                "{name}\t{}\t{}",
                kernel.name().as_string_ref().as_str().unwrap_or("?"),
                sources(*kernel).join("\t")
            );
            described.push(StringAttribute::new(context, &entry).into());
            let started = clock_before(context, *kernel, f64_type);
            add_elapsed_after(context, *kernel, started, slot, slots_type);
            slot += 1;
        }
        let calls_slot = kernel_count + 2 * function_index;
        let Some(body) = func.region(0).ok().and_then(|r| r.first_block()) else { continue };
        let Some(first) = body.first_operation() else { continue };
        let entered = clock_before(context, first, f64_type);
        for ret in ffi::collect_ops(*func, WalkOrder::PreOrder, |op| ir::is_named(op, "func.return")) {
            let ir_rewriter = IrRewriter::from_op(ret);
            let rewriter = ir_rewriter.as_rewriter_base();
            rewriter.set_insertion_point_before(ret);
            let e = Emitter { context, rewriter: &rewriter, location: ret.location() };
            let one = e.value("arith.constant", &[], i64_type, &[("value", e.attribute("1 : i64"))]);
            atomic_add(&e, one, calls_slot, slots_type);
            let now = call_clock(&e, f64_type);
            atomic_add(&e, nanoseconds(&e, entered, now), calls_slot + 1, slots_type);
        }
    }
    let names: Vec<Attribute> = functions.iter().map(|f| StringAttribute::new(context, &ir::symbol_name(*f)).into()).collect();
    let description = Attribute::parse(
        context,
        &format!(
            "{{kernels = {}, functions = {}}}",
            ArrayAttribute::new(context, &described),
            ArrayAttribute::new(context, &names)
        ),
    )
    .expect("a dictionary of string arrays");
    ffi::set_attribute(module, PROFILE_ATTRIBUTE, description);
}

/// `memref.global @pb_profile_ns` (zeros) and the clock's declaration.
fn declare_globals<'c>(
    context: &'c Context,
    module: OperationRef<'c, '_>,
    slot_count: usize,
    slots_type: Type<'c>,
    f64_type: Type<'c>,
) {
    let named = |name: &str, attribute: Attribute<'c>| (Identifier::new(context, name), attribute);
    let body = module.region(0).expect("module region").first_block().expect("module block");
    let location = module.location();
    let global = OperationBuilder::new("memref.global", location)
        .add_attributes(&[
            named("sym_name", StringAttribute::new(context, SLOTS_GLOBAL).into()),
            named("type", TypeAttribute::new(slots_type).into()),
            named("initial_value", Attribute::parse(context, &format!("dense<0> : tensor<{slot_count}xi64>")).expect("zeros")),
        ])
        .build()
        .expect("memref.global is well-formed");
    let clock_type = FunctionType::new(context, &[], &[f64_type]);
    let declared = ffi::collect_ops(module, WalkOrder::PreOrder, |op| {
        ir::is_named(op, "func.func") && ir::symbol_name(op) == CLOCK
    });
    let clock = declared.is_empty().then(|| {
        OperationBuilder::new("func.func", location)
            .add_attributes(&[
                named("sym_name", StringAttribute::new(context, CLOCK).into()),
                named("function_type", TypeAttribute::new(clock_type.into()).into()),
                named("sym_visibility", StringAttribute::new(context, "private").into()),
            ])
            .add_regions([Region::new()])
            .build()
            .expect("func.func declaration is well-formed")
    });
    let first = body.first_operation();
    for op in [Some(global), clock].into_iter().flatten() {
        match first {
            Some(first) => body.insert_operation_before(first, op),
            None => body.append_operation(op),
        };
    }
}

fn call_clock<'c, 'a>(e: &Emitter<'c, '_>, f64_type: Type<'c>) -> Value<'c, 'a> {
    let callee = e.attribute(&format!("@{CLOCK}"));
    let value = e.value("func.call", &[], f64_type, &[("callee", callee)]);
    // SAFETY: the value belongs to an op now in the function's body, which
    // lives as long as the IR ('a); the emitter's borrow ends here.
    unsafe { Value::from_raw(value.to_raw()) }
}

/// The clock read just before `op`.
fn clock_before<'c, 'a>(context: &'c Context, op: OperationRef<'c, 'a>, f64_type: Type<'c>) -> Value<'c, 'a> {
    let ir_rewriter = IrRewriter::from_op(op);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(op);
    let e = Emitter { context, rewriter: &rewriter, location: op.location() };
    call_clock(&e, f64_type)
}

/// After `op`: its elapsed nanoseconds since `started` into `slot`.
fn add_elapsed_after<'c>(context: &'c Context, op: OperationRef<'c, '_>, started: Value<'c, '_>, slot: usize, slots_type: Type<'c>) {
    let ir_rewriter = IrRewriter::from_op(op);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_after(op);
    let e = Emitter { context, rewriter: &rewriter, location: op.location() };
    let now = call_clock(&e, started.r#type());
    atomic_add(&e, nanoseconds(&e, started, now), slot, slots_type);
}

fn nanoseconds<'c, 'a>(e: &Emitter<'c, '_>, started: Value<'c, '_>, now: Value<'c, '_>) -> Value<'c, 'a> {
    let seconds = e.binary("arith.subf", now, started);
    let scale = e.float(seconds.r#type(), 1e9);
    let ns = e.binary("arith.mulf", seconds, scale);
    let i64_type = e.i64_type();
    let value = e.unary("arith.fptosi", ns, i64_type);
    // SAFETY: as in `call_clock`.
    unsafe { Value::from_raw(value.to_raw()) }
}

fn atomic_add<'c>(e: &Emitter<'c, '_>, amount: Value<'c, '_>, slot: usize, slots_type: Type<'c>) {
    let symbol = e.attribute(&format!("@{SLOTS_GLOBAL}"));
    let slots = e.value("memref.get_global", &[], slots_type, &[("name", symbol)]);
    let index = e.index(slot as i64);
    e.op(
        "memref.atomic_rmw",
        &[amount, slots, index],
        &[e.i64_type()],
        &[("kind", e.attribute("1 : i64") /* arith::AtomicRMWKind::addi */)],
        vec![],
    );
}
