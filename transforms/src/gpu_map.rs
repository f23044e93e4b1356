//! `pb-gpu-map`: put every loop nest of a public function on the GPU, as a
//! `gpu.launch` whose grid and block shapes come from the target
//! description.
//!
//! Runs on scf (after `lower-affine`), where `affine-parallelize` has made
//! each parallel loop an `scf.parallel`:
//!
//! - a top-level `scf.parallel` and the parallel loops perfectly nested in
//!   it (a *band*, e.g. the four output dimensions of an elementwise op or
//!   the M and N loops of a matmul) become one launch: one thread per band
//!   point. The innermost band dimension goes to `threadIdx.x` (its accesses
//!   are the contiguous ones: neighbouring threads touch neighbouring
//!   elements, so a warp's loads coalesce), the next one to `threadIdx.y`;
//!   the grid is one-dimensional (`blockIdx.x` delinearized over the
//!   band's block counts: no 65535 limit on y and z). Threads per block come
//!   from [`GpuDesc::threads_for`]: 256 when the work fills every
//!   multiprocessor, fewer (down to a warp) when it does not, so that small
//!   kernels still spread over the chip. A guard skips the threads past a
//!   dimension's end when its size is not a multiple of the block's.
//! - an `scf.for` with parallel loops directly in its body (a sequential
//!   time loop around stencils) stays on the host, and its body is mapped.
//! - any other op that touches memory or computes on what does (a
//!   sequential loop nest, a store of a scalar) runs in a one-thread
//!   launch, with the other ops of its run: correct, and said in the report.
//!   A scalar it computes for later kernels (a 0-d sum) stays on the
//!   device: stored in a 0-d buffer, loaded by each kernel that uses it.
//! - a scalar read from a constant global (a filter's taps) is read on the
//!   host and passed to the kernels as a value.
//!
//! - a band whose body is a reduction nest (an associative fold into an
//!   element per point) runs several threads per point (`gpu_reduction`);
//!   scalar work between two parallel loops sinks into the inner one, so
//!   the band keeps both; a sequential loop holding one parallel loop whose
//!   points each update only their own elements moves inside it.
//!
//! Other loops left inside a kernel run sequentially in each thread.
//! Buffers still live on the host here: `pb-gpu-host-memory` moves them.

use melior::{
    ir::{
        attribute::IntegerAttribute, block::BlockLike, operation::OperationLike, Block, BlockRef,
        OperationRef, Region, RegionLike, Type, TypeLike, Value, ValueLike,
    },
    Context, IrRewriter,
};
use crate::gpu_reduction;
use pb_support::{
    builder::Emitter,
    ffi,
    gpu_target::GpuDesc,
    ir::{self, is_named},
    OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass,
};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-gpu-map",
    summary: "Map each loop nest of a public function to a gpu.launch (grid and block from the GPU description)",
    description: "Each top-level scf.parallel band becomes a gpu.launch with one thread per band \
point (innermost dimension on threadIdx.x, the next on threadIdx.y, a one-dimensional grid \
delinearized over the band's block counts, threads per block from the GPU description: a multiple \
of the warp size, at most 256, fewer when the work would not cover every multiprocessor); an \
scf.for with parallel loops in its body stays on the host and its body is mapped (one holding a single \
parallel loop whose points own their elements moves inside it); scalar work between two parallel loops \
sinks into the inner one; a band whose body is an associative fold runs 2-256 threads per point (lanes on \
x, or on y when the band's points are the contiguous ones) combined as a tree in workgroup memory; other runs of \
ops touching memory run in one-thread launches. Runs after lower-affine in the GPU pipelines.",
    anchor: "builtin.module",
    options: &[
        PassOption { name: "chip", kind: OptionKind::String, default: "sm_80", help: "The GPU (a described chip: sm_80, sm_86, sm_89, sm_90, gfx1100)" },
        PassOption { name: "report", kind: OptionKind::Bool, default: "false", help: "Say on stderr how each nest was mapped" },
    ],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(GpuMap { chip: options.string("chip").to_string(), report: options.bool("report") })
}

#[derive(Clone)]
struct GpuMap {
    chip: String,
    report: bool,
}

impl RustPass for GpuMap {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["arith", "gpu", "memref", "scf"]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let gpu = match GpuDesc::named(&self.chip) {
            Ok(gpu) => gpu,
            Err(message) => {
                ffi::emit_error(module.location(), &format!("pb-gpu-map: {message}"));
                return Err(PassFailed);
            }
        };
        let mut ok = true;
        for func in ir::public_functions(module) {
            let Some(body) = func.region(0).ok().and_then(|r| r.first_block()) else { continue };
            ok &= ffi::with_context(func, |context| {
                let mapper = Mapper { context, gpu: &gpu, report: self.report };
                mapper.map_block(body)
            });
        }
        PassFailed::unless(ok)
    }
}

struct Mapper<'c, 'g> {
    context: &'c Context,
    gpu: &'g GpuDesc,
    report: bool,
}

/// How an op of a host block is treated.
#[derive(PartialEq)]
enum Kind {
    /// Runs on the host: allocation, views, constants, index arithmetic,
    /// calls, the return.
    Host,
    /// A parallel band: a launch of its own.
    Parallel,
    /// A host loop around parallel loops: its body is mapped.
    HostLoop,
    /// Runs on the device, in a one-thread launch with its neighbours.
    Device,
}

impl<'c> Mapper<'c, '_> {
    /// Maps the ops of a host block; false after an error. Visits the
    /// block's ops as they are when reached: a one-thread launch whose
    /// scalar later ops use leaves loads of it before them (`flush`).
    fn map_block(&self, block: BlockRef<'c, '_>) -> bool {
        let mut run: Vec<OperationRef> = Vec::new();
        let mut ok = true;
        let mut cursor = block.first_operation();
        // Every op but the block's terminator (the loop's scf.yield, the
        // function's return), which stays where it is.
        while let Some(op) = cursor.filter(|op| op.next_in_block().is_some()) {
            let kind = self.kind(op, &run);
            let alone = (kind == Kind::Device && !self.uses_run(op, &run))
                .then(|| gpu_reduction::recognize_alone(op, self.gpu))
                .flatten();
            if let Some(reduction) = alone {
                ok &= self.flush(&mut run, Some(op));
                cursor = op.next_in_block();
                self.map_reduction_alone(op, reduction);
                continue;
            }
            match kind {
                Kind::Device => {
                    run.push(op);
                    cursor = op.next_in_block();
                }
                Kind::Host => {
                    // Constants and index arithmetic between device ops do
                    // not end the run: they stay on the host and the kernel
                    // captures their values.
                    if !ir::is_pure_scalar(op) {
                        ok &= self.flush(&mut run, Some(op));
                    }
                    cursor = op.next_in_block();
                }
                Kind::Parallel => {
                    ok &= self.flush(&mut run, Some(op));
                    cursor = op.next_in_block();
                    self.map_band(op);
                }
                Kind::HostLoop => {
                    ok &= self.flush(&mut run, Some(op));
                    cursor = op.next_in_block();
                    if let Some(parallel) = interchangeable(op) {
                        // The parallel loop outside: one launch, each point
                        // running the sequential loop over its own elements.
                        let location = op.location();
                        interchange(op, parallel);
                        if self.report {
                            crate::report::note(location, "pb-gpu-map", "sequential loop moved inside the parallel loop it held (each point updates only its own elements)");
                        }
                        // (The band's mapping erases both loops.)
                        self.map_band(parallel);
                    } else if let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) {
                        ok &= self.map_block(body);
                    }
                }
            }
        }
        ok &= self.flush(&mut run, cursor);
        ok
    }

    /// Does `op` use a value computed by an op of `run`?
    fn uses_run(&self, op: OperationRef<'c, '_>, run: &[OperationRef<'c, '_>]) -> bool {
        op.operands().any(|v| ffi::defining_op(v).is_some_and(|d| run.iter().any(|r| r.to_raw().ptr == d.to_raw().ptr)))
    }

    fn kind(&self, op: OperationRef<'c, '_>, run: &[OperationRef<'c, '_>]) -> Kind {
        if self.uses_run(op, run) {
            return Kind::Device;
        }
        if is_named(op, "scf.parallel") && op.result_count() == 0 {
            return Kind::Parallel;
        }
        if is_named(op, "scf.for") && op.result_count() == 0 && has_parallel_child(op) {
            return Kind::HostLoop;
        }
        // A launch made by an earlier pass (`pb-gpu-mma`) is mapped already.
        if is_named(op, "gpu.launch") {
            return Kind::Host;
        }
        // A scalar of a constant global (a filter tap the kernels share):
        // read on the host, passed to the kernels as a value.
        if is_named(op, "memref.load") && reads_constant_global(op) {
            return Kind::Host;
        }
        if op.region_count() > 0 {
            return Kind::Device;
        }
        let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
        let host = name.starts_with("memref.alloc")
            || name == "memref.dealloc"
            || name == "memref.get_global"
            || name == "memref.dim"
            || ir::is_view_op(op)
            || name == "memref.extract_strided_metadata"
            || name == "memref.extract_aligned_pointer_as_index"
            || name.starts_with("func.")
            || name.starts_with("gpu.")
            || ir::is_pure_scalar(op);
        if host {
            Kind::Host
        } else {
            Kind::Device
        }
    }

    /// Wraps the ops of `run` (consecutive device ops, with host scalar ops
    /// possibly between them) in a one-thread launch. `next` is the op that
    /// ends the run (none at the end of the block).
    ///
    /// A scalar computed in the launch and used after it (a 0-d reduction a
    /// later kernel reads, an element a later sequential op uses) stays on
    /// the device: the launch stores it into a 0-d buffer and each later use
    /// loads it there, inside the kernel that uses it. Only a use by the op
    /// ending the run itself (a loop bound, a host allocation's size, the
    /// return) would need it back on the host: an error.
    fn flush(&self, run: &mut Vec<OperationRef<'c, '_>>, next: Option<OperationRef<'c, '_>>) -> bool {
        if run.is_empty() {
            return true;
        }
        let ops = std::mem::take(run);
        let first = ops[0];
        let block = first.block().expect("in a block");
        let in_run = |top: OperationRef| ops.iter().any(|o| o.to_raw().ptr == top.to_raw().ptr);
        let mut escaping = Vec::new();
        for op in &ops {
            for result in op.results() {
                let outside: Vec<(OperationRef, usize)> = ffi::uses(result.into())
                    .into_iter()
                    .filter(|(user, _)| ir::ancestor_in(*user, block).is_some_and(|top| !in_run(top)))
                    .collect();
                if outside.is_empty() {
                    continue;
                }
                let host_use = outside.iter().any(|(user, _)| Some(*user) == next || is_named(*user, "func.return"));
                let scalar = result.r#type().is_index() || result.r#type().is_integer() || result.r#type().is_float();
                if host_use || !scalar {
                    ffi::emit_error(
                        op.location(),
                        &format!(
                            "pb-gpu-map: the value of '{}' would be computed on the GPU and used on the host; \
not supported yet",
                            op.name().as_string_ref().as_str().unwrap_or("?")
                        ),
                    );
                    return false;
                }
                escaping.push((Value::from(result), *op, outside));
            }
        }
        let (launch, body_end) = self.launch_before(first, None, [1, 1, 1], &[]);
        for op in &ops {
            ffi::move_before(*op, body_end);
        }
        for (value, def, uses) in escaping {
            let e = crate::emit_at::Emit { context: self.context, location: def.location() };
            let ty = Type::parse(self.context, &format!("memref<{}>", value.r#type())).expect("a 0-d memref type");
            let buffer = e.value(launch, "memref.alloc", &[], ty, &[("operandSegmentSizes", e.attr("array<i32: 0, 0>"))]);
            // Freed at the end of its block (every use is in the block).
            if let Some(end) = block.terminator() {
                e.op(end, "memref.dealloc", &[buffer], &[], &[]);
            }
            let after_def = def.next_in_block().expect("a body op is not a terminator");
            e.op(after_def, "memref.store", &[value, buffer], &[], &[]);
            for (user, index) in uses {
                let loaded = e.value(user, "memref.load", &[buffer], value.r#type(), &[]);
                ffi::set_operand(user, index, loaded);
            }
        }
        if self.report {
            crate::report::note(launch.location(), "pb-gpu-map", "sequential code in a one-thread kernel");
        }
        true
    }

    /// A `gpu.launch` before `before` with the grid `[grid, 1, 1]` (one
    /// block without) and the block `threads`; the launch and its body's
    /// terminator.
    fn launch_before<'a>(
        &self,
        before: OperationRef<'c, 'a>,
        grid: Option<Value<'c, 'a>>,
        threads: [u64; 3],
        shared: &[Type<'c>],
    ) -> (OperationRef<'c, 'a>, OperationRef<'c, 'a>) {
        let location = before.location();
        let ir_rewriter = IrRewriter::from_op(before);
        let rewriter = ir_rewriter.as_rewriter_base();
        rewriter.set_insertion_point_before(before);
        let emitter = Emitter { context: self.context, rewriter: &rewriter, location };
        let one = emitter.index(1);
        let grid = grid.unwrap_or(one);
        let tx = emitter.index(threads[0] as i64);
        let ty = emitter.index(threads[1] as i64);
        let tz = emitter.index(threads[2] as i64);
        let index = Type::index(self.context);
        let region = Region::new();
        let mut arguments = vec![(index, location); 12];
        arguments.extend(shared.iter().map(|t| (*t, location)));
        let block = region.append_block(Block::new(&arguments));
        block.append_operation(
            melior::ir::operation::OperationBuilder::new("gpu.terminator", location).build().expect("gpu.terminator"),
        );
        let launch = melior::ir::operation::OperationBuilder::new("gpu.launch", location)
            .add_operands(&[grid, one, one, tx, ty, tz])
            .add_attributes(&[
                (
                    melior::ir::Identifier::new(self.context, "operandSegmentSizes"),
                    emitter.attribute("array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>"),
                ),
                (
                    melior::ir::Identifier::new(self.context, "workgroup_attributions"),
                    emitter.attribute(&format!("{} : i64", shared.len())),
                ),
            ])
            .add_regions([region])
            .build()
            .expect("gpu.launch is well-formed");
        let launch = before.block().expect("in a block").insert_operation_before(before, launch);
        let body = launch.region(0).ok().and_then(|r| r.first_block()).expect("the launch body");
        let end = body.terminator().expect("gpu.terminator");
        (launch, end)
    }

    /// Maps the band starting at the top-level `scf.parallel` `outer`.
    fn map_band(&self, outer: OperationRef<'c, '_>) {
        // The band: `outer` and the parallel loops perfectly nested in it
        // whose bounds do not depend on the band's variables.
        let mut loops = vec![outer];
        loop {
            let last = *loops.last().expect("one loop");
            let Some(body) = last.region(0).ok().and_then(|r| r.first_block()) else { break };
            let ops = ir::ops_before_terminator(body);
            let Some((&inner, before)) = ops.split_last() else { break };
            if !(is_named(inner, "scf.parallel") && inner.result_count() == 0) {
                break;
            }
            let invariant = inner.operands().all(|v| !ir::defined_inside(v, outer));
            if !invariant || !sinkable(before, inner) {
                break;
            }
            // Scalar work between two parallel loops (a row's mean loaded
            // and divided, then used by each element) goes into the inner
            // loop: computed per element, the band keeps both dimensions.
            if let Some(first) = inner.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.first_operation()) {
                for op in before {
                    ffi::move_before(*op, first);
                }
            }
            loops.push(inner);
        }
        // (lower, upper, step, induction variable) per dimension.
        let mut dims: Vec<(Value, Value, Value, Value)> = Vec::new();
        for par in &loops {
            let count = par.region(0).ok().and_then(|r| r.first_block()).map_or(0, |b| b.argument_count());
            let body = par.region(0).ok().and_then(|r| r.first_block()).expect("a body");
            for d in 0..count {
                let operand = |i: usize| ffi::operand(*par, i).expect("bounds");
                dims.push((operand(d), operand(count + d), operand(2 * count + d), body.argument(d).expect("iv").into()));
            }
        }
        let trips: Vec<Option<u64>> = dims
            .iter()
            .map(|(lb, ub, step, _)| match (ir::constant_int(*lb), ir::constant_int(*ub), ir::constant_int(*step)) {
                (Some(l), Some(u), Some(s)) if s > 0 => Some(((u - l).max(0) as u64).div_ceil(s as u64)),
                _ => None,
            })
            .collect();
        let known: Option<Vec<i64>> = trips.iter().map(|t| t.map(|t| t as i64)).collect();
        if let Some(known) = known {
            let band_inner = dims.last().expect("a band dimension").3;
            if let Some(reduction) = gpu_reduction::recognize(self.innermost_body(&loops), band_inner, self.gpu) {
                let points: i64 = known.iter().product::<i64>().max(1);
                if let Some(shape) = gpu_reduction::block_shape(&reduction, points, self.gpu) {
                    self.map_reduction_band(outer, &loops, &dims, &known, reduction, shape);
                    return;
                }
            }
        }
        let total: u64 = trips.iter().map(|t| t.unwrap_or(1 << 20)).fold(1u64, |a, b| a.saturating_mul(b));
        let mut budget = self.gpu.threads_for(total) as u64;
        // Threads per dimension, innermost first: x, then y.
        let rank = dims.len();
        let mut threads = vec![1u64; rank];
        for (position, d) in (0..rank).rev().take(2).enumerate() {
            let size = trips[d].unwrap_or(u64::MAX).max(1);
            let mut t = 1;
            while t < budget && t < size {
                t *= 2;
            }
            // y gets whole warps' worth only when x could not fill them.
            if position == 1 && t > 1 && threads[rank - 1] * t > budget {
                t = budget / threads[rank - 1];
            }
            threads[d] = t.max(1);
            budget = (budget / threads[d]).max(1);
        }
        let innermost = self.innermost_body(&loops);
        let location = outer.location();
        let ir_rewriter = IrRewriter::from_op(outer);
        let rewriter = ir_rewriter.as_rewriter_base();
        rewriter.set_insertion_point_before(outer);
        let emitter = Emitter { context: self.context, rewriter: &rewriter, location };
        // Blocks per dimension: known sizes give a constant; others are
        // computed on the host.
        let mut block_counts: Vec<Value> = Vec::new();
        let mut trip_values: Vec<Value> = Vec::new();
        let mut constant_grid: Option<u64> = Some(1);
        for (d, (lb, ub, step, _)) in dims.iter().enumerate() {
            let trip = match trips[d] {
                Some(t) => emitter.index(t as i64),
                None => {
                    let extent = emitter.value("arith.subi", &[*ub, *lb], Type::index(self.context), &[]);
                    emitter.value("arith.ceildivui", &[extent, *step], Type::index(self.context), &[])
                }
            };
            trip_values.push(trip);
            let per_block = emitter.index(threads[d] as i64);
            let count = match trips[d] {
                Some(t) => emitter.index(t.div_ceil(threads[d]) as i64),
                None => emitter.value("arith.ceildivui", &[trip, per_block], Type::index(self.context), &[]),
            };
            constant_grid = constant_grid.zip(trips[d]).map(|(g, t)| g.saturating_mul(t.div_ceil(threads[d])));
            block_counts.push(count);
        }
        let mut grid = block_counts[0];
        for count in &block_counts[1..] {
            grid = emitter.value("arith.muli", &[grid, *count], Type::index(self.context), &[]);
        }
        let x = threads[rank - 1];
        let y = if rank >= 2 { threads[rank - 2] } else { 1 };
        let (launch, end) = self.launch_before(outer, Some(grid), [x, y, 1], &[]);
        let body = launch.region(0).ok().and_then(|r| r.first_block()).expect("launch body");
        let block_id: Value = body.argument(0).expect("blockIdx.x").into();
        let thread_x: Value = body.argument(3).expect("threadIdx.x").into();
        let thread_y: Value = body.argument(4).expect("threadIdx.y").into();
        rewriter.set_insertion_point_before(end);
        let index = Type::index(self.context);
        let mut remaining = block_id;
        let mut condition: Option<Value> = None;
        for d in (0..rank).rev() {
            let block = if d == 0 {
                remaining
            } else {
                let b = emitter.value("arith.remui", &[remaining, block_counts[d]], index, &[]);
                remaining = emitter.value("arith.divui", &[remaining, block_counts[d]], index, &[]);
                b
            };
            let thread = if d == rank - 1 {
                Some(thread_x)
            } else if rank >= 2 && d == rank - 2 && threads[d] > 1 {
                Some(thread_y)
            } else {
                None
            };
            let point = match thread {
                Some(thread) => {
                    let per_block = emitter.index(threads[d] as i64);
                    let start = emitter.value("arith.muli", &[block, per_block], index, &[]);
                    emitter.value("arith.addi", &[start, thread], index, &[])
                }
                None => block,
            };
            let (lb, _, step, iv) = dims[d];
            let scaled = emitter.value("arith.muli", &[point, step], index, &[]);
            let value = emitter.value("arith.addi", &[lb, scaled], index, &[]);
            ffi::replace_all_uses(iv, value);
            let exact = trips[d].is_some_and(|t| t % threads[d] == 0);
            if !exact {
                let inside = emitter.value(
                    "arith.cmpi",
                    &[point, trip_values[d]],
                    melior::ir::r#type::IntegerType::new(self.context, 1).into(),
                    &[("predicate", IntegerAttribute::new(melior::ir::r#type::IntegerType::new(self.context, 64).into(), 6).into())],
                );
                condition = Some(match condition {
                    Some(c) => emitter.value("arith.andi", &[c, inside], inside.r#type(), &[]),
                    None => inside,
                });
            }
        }
        // The band's body, under the guard.
        let target_end = match condition {
            Some(condition) => {
                let then = Region::new();
                let then_block = then.append_block(Block::new(&[]));
                then_block.append_operation(
                    melior::ir::operation::OperationBuilder::new("scf.yield", location).build().expect("scf.yield"),
                );
                let guard = emitter.op("scf.if", &[condition], &[], &[], vec![then, Region::new()]);
                guard.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.terminator()).expect("scf.yield")
            }
            None => end,
        };
        for op in ir::ops_before_terminator(innermost) {
            ffi::move_before(op, target_end);
        }
        if self.report {
            let sizes: Vec<String> = trips.iter().map(|t| t.map_or("?".into(), |t| t.to_string())).collect();
            crate::report::note(location, "pb-gpu-map", &format!(
                "{}-d parallel band {} on blocks of {}x{} threads, grid {}",
                rank,
                sizes.join("x"),
                x,
                y,
                constant_grid.map_or("computed at run time".into(), |g| g.to_string())
            ));
        }
        // SAFETY: `outer` has no results (`Kind::Parallel`); the innermost body's ops were moved into
        // the launch and every band induction variable replaced, so only the band's loops and
        // terminators go; the block's op list holds no op inside it.
        unsafe { ffi::erase(outer) };
    }

    /// Maps the band of `loops` (constant trip counts `trips`) whose body is
    /// the reduction nest `reduction`: `lanes` threads per band point
    /// (threadIdx.x) share the reduction, points on threadIdx.y and a
    /// one-dimensional grid (`gpu_reduction`).
    fn map_reduction_band<'a>(
        &self,
        outer: OperationRef<'c, 'a>,
        loops: &[OperationRef<'c, 'a>],
        dims: &[(Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>)],
        trips: &[i64],
        reduction: gpu_reduction::Reduction<'c, 'a>,
        (per_block, lanes): (i64, i64),
    ) {
        let points: i64 = trips.iter().product::<i64>().max(1);
        let blocks = (points + per_block - 1) / per_block;
        let transposed = reduction.transposed;
        let location = outer.location();
        let e = crate::emit_at::Emit { context: self.context, location };
        let shared_types = gpu_reduction::shared_types(&e, &reduction, per_block, lanes);
        let grid = e.constant(outer, "index", &blocks.to_string());
        // Lanes on x and points on y; transposed, points on x (neighbouring
        // points read neighbouring elements) and lanes on y.
        let threads = if transposed { [per_block as u64, lanes as u64, 1] } else { [lanes as u64, per_block as u64, 1] };
        let (launch, end) = self.launch_before(outer, Some(grid), threads, &shared_types);
        let body = launch.region(0).ok().and_then(|r| r.first_block()).expect("launch body");
        let argument = |i: usize| -> Value { body.argument(i).expect("a launch argument").into() };
        let (block_id, lane, row) =
            if transposed { (argument(0), argument(4), argument(3)) } else { (argument(0), argument(3), argument(4)) };
        let shared: Vec<Value> = (0..shared_types.len()).map(|i| argument(12 + i)).collect();
        let index = Type::index(self.context);
        let constant = |v: i64| e.constant(end, "index", &v.to_string());
        let first = e.value(end, "arith.muli", &[block_id, constant(per_block)], index, &[]);
        let point = e.value(end, "arith.addi", &[first, row], index, &[]);
        let (active, point) = if points % per_block == 0 {
            (None, point)
        } else {
            let i1 = e.ty("i1");
            let inside = e.value(end, "arith.cmpi", &[point, constant(points)], i1, &[("predicate", e.attr("6 : i64"))]);
            // Padding points read in range; they run no iterations.
            (Some(inside), e.value(end, "arith.minui", &[point, constant(points - 1)], index, &[]))
        };
        let positions = gpu_reduction::unflatten(&e, end, point, trips);
        for (&(lower, _, step, iv), value) in dims.iter().zip(positions) {
            let scaled = e.value(end, "arith.muli", &[value, step], index, &[]);
            let value = e.value(end, "arith.addi", &[lower, scaled], index, &[]);
            ffi::replace_all_uses(iv, value);
        }
        for op in ir::ops_before_terminator(self.innermost_body(loops)) {
            ffi::move_before(op, end);
        }
        let trip = reduction.trip();
        gpu_reduction::emit(&e, end, reduction, (lane, row, lanes), active, &shared);
        if self.report {
            let sizes: Vec<String> = trips.iter().map(i64::to_string).collect();
            crate::report::note(location, "pb-gpu-map", &format!(
                "{}-d parallel band {} reducing {} iterations per point over {} threads{}, blocks of {}x{} threads, grid {}",
                dims.len(),
                sizes.join("x"),
                trip,
                lanes,
                if transposed { " (points on x: their elements are the contiguous ones)" } else { "" },
                threads[0],
                threads[1],
                blocks
            ));
        }
        // SAFETY: `outer` has no results; its innermost body's ops were moved into the launch and
        // every band induction variable replaced, so only the band's loops and terminators go.
        unsafe { ffi::erase(outer) };
    }

    /// Maps the reduction nest `nest` outside any parallel loop (a
    /// whole-array sum): one block of its lanes (a band of one point).
    fn map_reduction_alone<'a>(&self, nest: OperationRef<'c, 'a>, reduction: gpu_reduction::Reduction<'c, 'a>) {
        let (_, lanes) = gpu_reduction::block_shape(&reduction, 1, self.gpu).expect("lanes on x for a nest outside a band");
        let location = nest.location();
        let e = crate::emit_at::Emit { context: self.context, location };
        let shared_types = gpu_reduction::shared_types(&e, &reduction, 1, lanes);
        let (launch, end) = self.launch_before(nest, None, [lanes as u64, 1, 1], &shared_types);
        let body = launch.region(0).ok().and_then(|r| r.first_block()).expect("launch body");
        let argument = |i: usize| -> Value { body.argument(i).expect("a launch argument").into() };
        let shared: Vec<Value> = (0..shared_types.len()).map(|i| argument(12 + i)).collect();
        let trip = reduction.trip();
        gpu_reduction::emit(&e, end, reduction, (argument(3), argument(4), lanes), None, &shared);
        if self.report {
            let message = format!("a reduction of {trip} iterations over one block of {lanes} threads");
            crate::report::note(location, "pb-gpu-map", &message);
        }
    }

    /// The body block of the innermost loop of a band.
    fn innermost_body<'a>(&self, loops: &[OperationRef<'c, 'a>]) -> BlockRef<'c, 'a> {
        loops.last().and_then(|l| l.region(0).ok()).and_then(|r| r.first_block()).expect("a loop body")
    }
}

/// Does `load` read a `memref.global` marked `constant` (host memory that
/// no kernel writes)?
fn reads_constant_global(load: OperationRef) -> bool {
    let Some(get) = load.operand(0).ok().and_then(ffi::defining_op).filter(|d| is_named(*d, "memref.get_global")) else {
        return false;
    };
    let Ok(name) = get.attribute("name") else { return false };
    let symbol = name.to_string();
    let mut module = get.parent_operation();
    while let Some(m) = module.filter(|m| !is_named(*m, "builtin.module")) {
        module = m.parent_operation();
    }
    let Some(module) = module else { return false };
    ir::body_ops(module).into_iter().any(|global| {
        is_named(global, "memref.global")
            && global.attribute("sym_name").is_ok_and(|n| format!("@{}", n.to_string().trim_matches('"')) == symbol)
            && global.attribute("constant").is_ok()
    })
}

/// Can the ops `before` (between a parallel loop's start and the parallel
/// loop `inner` nested in it) run in each iteration of `inner` instead:
/// scalar arithmetic, math and loads, used only by each other and inside
/// `inner`, loading nothing `inner` writes?
fn sinkable(before: &[OperationRef], inner: OperationRef) -> bool {
    let root = ir::view_root;
    let mut written = Vec::new();
    for op in ffi::collect_ops(inner, melior::ir::operation::WalkOrder::PreOrder, |_| true) {
        let name = ir::op_name(op);
        match name.as_str() {
            "memref.store" | "vector.store" => written.extend(ffi::operand(op, 1).map(root)),
            "memref.load" | "vector.load" | "scf.parallel" | "scf.for" | "scf.if" | "scf.yield" | "scf.reduce" => {}
            _ if ir::is_pure_scalar(op) || name.starts_with("math.") || name.starts_with("vector.") => {}
            // Anything else might write memory: nothing is moved into it.
            _ if !before.is_empty() => return false,
            _ => {}
        }
    }
    before.iter().all(|op| {
        let kind_ok = op.region_count() == 0
            && (ir::is_pure_scalar(*op)
                || ir::op_name(*op).starts_with("math.")
                || is_named(*op, "memref.load") && ffi::operand(*op, 0).is_some_and(|m| !written.contains(&root(m))));
        let used_inside = op.results().all(|r| {
            ffi::users(r.into()).into_iter().all(|user| before.contains(&user) || ir::ancestor_in(user, inner.block().expect("in a block")) == Some(inner))
        });
        kind_ok && used_inside
    })
}

/// The parallel loop the sequential loop `outer` holds alone, when
/// running the sequential loop inside it instead is legal: every element
/// the body stores is indexed by each of the parallel loop's variables
/// (each point has its own elements: `acc[j] = acc[j] + x[k, j]`, column
/// sums with the reduction loop outside) and loaded only where it is
/// stored; the body only loads, stores and computes; the parallel loop's
/// bounds do not depend on the sequential loop.
fn interchangeable<'c, 'a>(outer: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let body = outer.region(0).ok()?.first_block()?;
    let [parallel] = ir::ops_before_terminator(body)[..] else { return None };
    if !is_named(parallel, "scf.parallel") || parallel.result_count() != 0 || parallel.operands().any(|v| ir::defined_inside(v, outer)) {
        return None;
    }
    let inner = parallel.region(0).ok()?.first_block()?;
    let ivs: Vec<Value> = (0..inner.argument_count()).filter_map(|i| inner.argument(i).ok().map(Value::from)).collect();
    let ops = ir::ops_before_terminator(inner);
    let stores: Vec<OperationRef> = ops.iter().copied().filter(|op| is_named(*op, "memref.store")).collect();
    let stored: Vec<Value> = stores.iter().filter_map(|st| ffi::operand(*st, 1)).map(ir::view_root).collect();
    let own = |st: &OperationRef| ivs.iter().all(|iv| st.operands().skip(2).any(|index| index == *iv));
    if stores.is_empty() || !stores.iter().all(own) {
        return None;
    }
    ops.iter().all(|op| {
        if op.region_count() != 0 {
            return false;
        }
        if is_named(*op, "memref.load") {
            let Some(memref) = ffi::operand(*op, 0) else { return false };
            // A stored buffer is read only at the element stored.
            return !stored.contains(&ir::view_root(memref))
                || stores.iter().any(|st| ffi::operand(*st, 1) == Some(memref) && st.operands().skip(2).eq(op.operands().skip(1)));
        }
        is_named(*op, "memref.store") || ir::is_pure_scalar(*op) || ir::op_name(*op).starts_with("math.")
    })
    .then_some(parallel)
}

/// `for k { parallel j { body } }` into `parallel j { for k { body } }`.
fn interchange(outer: OperationRef, parallel: OperationRef) {
    let (Some(for_body), Some(inner)) = (
        outer.region(0).ok().and_then(|r| r.first_block()),
        parallel.region(0).ok().and_then(|r| r.first_block()),
    ) else {
        return;
    };
    let (Some(for_end), Some(parallel_end)) = (for_body.terminator(), inner.terminator()) else { return };
    let body = ir::ops_before_terminator(inner);
    ffi::move_before(parallel, outer);
    for op in body {
        ffi::move_before(op, for_end);
    }
    ffi::move_before(outer, parallel_end);
}

/// Does the body of `op` hold an `scf.parallel` directly?
fn has_parallel_child(op: OperationRef) -> bool {
    ir::body_ops(op).into_iter().any(|inner| is_named(inner, "scf.parallel"))
}


