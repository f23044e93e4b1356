//! `pb-gpu-mma`: contractions on the GPU's tensor cores.
//!
//! For a perfect nest whose single statement is the multiply-accumulate
//! `C[..i..j] += A[..i..k..] * B[..k..j]` on f16 operands (summed in f32:
//! `arith.extf` to an f32 C, or an f16 C summed in f32 and rounded once at
//! the end, as cuBLAS-class kernels do) or on 8-bit integers (`extsi` or
//! `extui` to an i32 C; the `wmma` integer shapes take `s8 x s8` or `u8 x
//! u8`, so a `u8 x s8` product runs with the unsigned operand's bytes XOR
//! 0x80, `u - 128`, and 128 x the other operand's column (row) sums, products
//! with a tile of ones on the same tensor cores, added back), the loops take the roles of
//! `pb-matrix-tile` (`contraction_roles`: rows `i` with the loops flattened
//! into them, columns `j`, the reductions flattened into one `K`, other C
//! loops a batch), so a matmul, a batch matmul, a transposed operand and a
//! convolution (implicit GEMM: A's block gathered from the input window
//! by the affine index expressions) are one kernel. The nest becomes one
//! `gpu.launch`:
//!
//! ```text
//! grid (N / BN, M / BM, batch); block of (BM / 32) x (BN / 32) warps
//! workgroup As[BM][BK + 8] f16, Bs[BK][BN + 8] f16, Ws[warps * 16][16] f32
//! acc[2][2] = 0                            (16x16 f32 fragments per warp)
//! for k0 = 0 to K step BK:
//!   As = A's BM x BK block, Bs = B's BK x BN block (each thread copies
//!        runs t, t + T, ...: neighbouring threads read neighbouring
//!        memory; 16-byte vectors where the operand is contiguous along
//!        the block's rows, else elements; zeros past M, N, K)
//!   barrier
//!   for ks < BK / 16: a[fi] = load As, b[fj] = load Bs, acc += a x b
//!   barrier
//! for each fragment: store it to the warp's Ws, barrier, the warp's lanes
//!   add it to C (converted to C's type), barrier
//! ```
//!
//! Each warp computes a 32 x 32 tile (2 x 2 fragments of the 16x16x16
//! `gpu.subgroup_mma_*` shape, which upstream lowers to `wmma` instructions
//! built of the description's `mma` shapes). The block tile comes from the
//! GPU description (`choose_tiles`): of 128x128, 64x64 and 32x32, the one
//! keeping the most matrix units busy (multiprocessors x sub-partitions),
//! then computing the fewest padded elements, then the largest, within the static shared memory (48 KiB
//! without the dynamic opt-in). Sums are added
//! into C, so a bias or a value in C before the nest is kept; a zero fill of
//! C just before is absorbed instead (C is stored, not read), and then the
//! elementwise nest reading each sum once (a bias and activation, also when
//! it overwrites C in place) runs on each sum in the epilogue
//! (`contraction_epilogue`): a convolution and its bias and ReLU are one
//! kernel.
//!
//! The emitted IR is the *mapped IR*: `pb-gpu-emulate` runs it on the CPU
//! (barrier phases in turn, fragments as per-thread buffers) and
//! `convert-gpu-to-nvvm` lowers it to PTX.
//!
//! f32 products (no tensor-core shape takes them at full precision) run in
//! the same kernel on the FMA units (`fma_tile`: 4x8 sums per thread).
//!
//! Refuses (the nest stays for `pb-gpu-map`'s one-thread-per-element
//! mapping, still correct): other element types, non-constant bounds, a
//! single row or column (a vector product, bound by memory), a GPU without
//! an f16 x f16 -> f32 matrix shape, grids past the hardware's limits.

use crate::contraction_epilogue;
use crate::contraction_roles::{self, rewrite, Roles};
use crate::gpu_mma_operands::{f16_product, f32_product, int8_product, Offset, Types};

mod fma_tile;
use crate::emit_at::Emit;
use crate::text_kernel;
use melior::{
    ir::{
        block::BlockLike, operation::OperationLike, Block, OperationRef, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use pb_polyhedral::{scop::Statement, Aff, Scop};
use pb_support::{ffi, gpu_target::GpuDesc, ir::is_named, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-gpu-mma",
    summary: "Map f16 and 8-bit integer contractions (matmul, batch matmul, convolution) to tensor cores, f32 ones to FMA tiles: one gpu.launch with shared-memory tiles and gpu.subgroup_mma ops or 4x8 register sums per thread",
    description: "A perfect nest computing C += A * B on f16 operands (an f32 C, or an f16 C summed in \
f32) or on 8-bit integers (an i32 C; u8 x s8 with the unsigned bytes offset by -128 and corrected) becomes a gpu.launch: a block of warps per BM x BN tile of C (from the GPU description: the \
one of 128x128, 64x64, 32x32 keeping the most matrix units busy (then the least padding, then the largest), \
within 48 KiB of shared memory), A's and B's BK-deep blocks copied into workgroup memory by all threads with zeros past the \
edges, 2x2 fragments of 16x16 f32 sums per warp (gpu.subgroup_mma_load_matrix/compute), and an \
epilogue adding each fragment into C through a per-warp staging buffer. Loops take the roles of \
pb-matrix-tile (rows flattened with outer loops, reductions flattened, a convolution's window \
gathered by the copies; loops a reshape split flattened back). A zero fill of C just before is absorbed, and the elementwise nest reading \
each sum once after it (bias, activation; also in place over C) applied in the epilogue. f32 products \
(no full-precision tensor-core shape) run in the same blocks with A's block transposed in shared memory \
and each thread summing 4x8 of C in registers (a private buffer between barrier phases). Other nests are left to \
pb-gpu-map. Runs in the affine stage of the nvgpu pipeline.",
    anchor: "func.func",
    options: &[
        PassOption { name: "chip", kind: OptionKind::String, default: "sm_80", help: "The GPU (a described chip: sm_80, sm_86, sm_89, sm_90)" },
        PassOption { name: "report", kind: OptionKind::Bool, default: "false", help: "Say on stderr how each contraction was mapped, or why not" },
    ],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(GpuMma { chip: options.string("chip").to_string(), report: options.bool("report") })
}

#[derive(Clone)]
struct GpuMma {
    chip: String,
    report: bool,
}

/// One fragment's rows, columns and reductions (the WMMA f16 shape).
const FRAG: i64 = 16;
/// Rows and columns of a warp's tile: 2 x 2 fragments.
const WARP_TILE: i64 = 32;
/// Reductions per block copy: two fragment steps.
const BK: i64 = 32;
/// Static shared memory a kernel may use without the dynamic opt-in.
const STATIC_SHARED: i64 = 48 * 1024;

impl RustPass for GpuMma {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["affine", "arith", "gpu", "memref", "scf", "vector"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let gpu = match GpuDesc::named(&self.chip) {
            Ok(gpu) => gpu,
            Err(message) => {
                ffi::emit_error(func.location(), &format!("pb-gpu-mma: {message}"));
                return Err(PassFailed);
            }
        };
        // Epilogues applied by a kernel: erased once every nest is visited
        // (the walk holds the list of nests, the epilogues after the products).
        let mut applied = Vec::new();
        text_kernel::rewrite_each_nest(func, INFO.argument, self.report, |context, nest| {
            map_nest(context, nest, &gpu, &mut applied).unwrap_or_else(Some)
        });
        for (epilogue, copies) in applied {
            // SAFETY: a top-level SCoP nest (no results) whose statement the kernel now computes;
            // nothing reads what it wrote in between (`contraction_epilogue::find`).
            unsafe { ffi::erase(epilogue) };
            contraction_epilogue::erase_dead_copies(&copies);
        }
        Ok(())
    }
}

fn ceil_div(n: i64, d: i64) -> i64 {
    (n + d - 1) / d
}

/// Block tile chosen for a product of `m x n` (times `batch`) on `gpu`.
#[derive(Clone, Copy)]
struct Tiles {
    bm: i64,
    bn: i64,
    /// Bytes of an operand element (2: f16, 1: i8).
    bytes: i64,
    /// A mixed-sign product's correction: a ones tile and a second
    /// staging buffer.
    offset: bool,
    /// f32 on the FMA units (`fma_tile`): A's block stored transposed, no
    /// fragments or staging.
    fma: bool,
}

impl Tiles {
    fn warps(self) -> i64 {
        (self.bm / WARP_TILE) * (self.bn / WARP_TILE)
    }
    fn threads(self) -> i64 {
        32 * self.warps()
    }
    /// Elements of padding per shared row: 16 bytes (the fragment loads'
    /// leading dimension stays a multiple of 16 bytes; rows start in
    /// different banks).
    fn pad(self) -> i64 {
        16 / self.bytes
    }
    fn shared_bytes(self) -> i64 {
        if self.fma {
            return BK * (self.bm + self.pad() + self.bn + self.pad()) * self.bytes;
        }
        let staging = self.warps() * FRAG * FRAG * 4;
        let correction = if self.offset { FRAG * (FRAG + self.pad()) * self.bytes + staging } else { 0 };
        (self.bm * (BK + self.pad()) + BK * (self.bn + self.pad())) * self.bytes + staging + correction
    }
    fn blocks(self, m: i64, n: i64, batch: i64) -> i64 {
        ceil_div(m, self.bm) * ceil_div(n, self.bn) * batch
    }
}

/// The block tile: every warp computes a 32 x 32 tile, so the choice is
/// how warps group into blocks. Larger blocks share more of A and B
/// through shared memory; a block runs on one multiprocessor, so too few
/// blocks leave multiprocessors idle, and a block of fewer warps than the
/// multiprocessor's matrix units leaves units idle. The tile keeping the
/// most matrix units busy (`min(blocks * min(warps, units), SMs * units)`),
/// then the one computing the fewest padded elements, then the largest,
/// within the static shared memory and thread limits.
fn choose_tiles(gpu: &GpuDesc, m: i64, n: i64, batch: i64, types: Types) -> Tiles {
    let (bytes, offset, fma) = (types.bytes(), types.offset().is_some(), types.f32);
    let shared = STATIC_SHARED.min(i64::from(gpu.shared_bytes_per_block));
    let units = i64::from(gpu.mma_units_per_multiprocessor.max(1));
    let capacity = i64::from(gpu.multiprocessors.max(1)) * units;
    let fits = |t: &Tiles| t.shared_bytes() <= shared && t.threads() <= i64::from(gpu.max_threads_per_block);
    let busy = |t: &Tiles| (t.blocks(m, n, batch) * t.warps().min(units)).min(capacity);
    // Among equally busy tiles, the one computing the fewest padded
    // elements (a 64x64 product is not a quarter of a 128x128 block), then
    // the largest (the candidates come largest first).
    let padded = |t: &Tiles| t.blocks(m, n, batch) * t.bm * t.bn;
    let mut best: Option<Tiles> = None;
    for t in [(128, 128), (64, 64), (32, 32)].into_iter().map(|(bm, bn)| Tiles { bm, bn, bytes, offset, fma }).filter(fits) {
        if best.is_none_or(|b| (busy(&t), -padded(&t)) > (busy(&b), -padded(&b))) {
            best = Some(t);
        }
    }
    best.unwrap_or(Tiles { bm: 32, bn: 32, bytes, offset, fma })
}

/// How many ways to split the reductions of an `m x n` (times `batch`)
/// product over `k` (1: none): while the blocks would leave matrix units
/// (the FMA tiles' warps alike) idle, double the blocks by giving each a
/// share of the reductions, keeping at least 4 block steps each; only for
/// f32 sums (added into C with `atomic_rmw addf`) with no epilogue.
fn split_k(gpu: &GpuDesc, tiles: Tiles, [m, n, batch, k]: [i64; 4], types: Types) -> i64 {
    if types.int8.is_some() || types.c_f16 {
        return 1;
    }
    let units = i64::from(gpu.mma_units_per_multiprocessor.max(1));
    let capacity = i64::from(gpu.multiprocessors.max(1)) * units;
    let busy = tiles.blocks(m, n, batch) * tiles.warps().min(units);
    let steps = ceil_div(k, BK);
    let mut splits = 1;
    while busy * splits * 2 <= capacity && steps % (splits * 2) == 0 && steps / (splits * 2) >= 4 {
        splits *= 2;
    }
    splits
}

fn map_nest<'c, 'a>(
    context: &'c Context,
    nest: OperationRef<'c, 'a>,
    gpu: &GpuDesc,
    applied: &mut Vec<contraction_epilogue::Applied<'c, 'a>>,
) -> Result<Option<String>, String> {
    let Ok(scop) = Scop::extract(&[nest]) else { return Ok(None) };
    let [statement] = scop.statements.as_slice() else { return Ok(None) };
    let Some(mac) = contraction_roles::multiply_accumulate(statement) else { return Ok(None) };
    let found = f16_product(statement, &mac, nest).map(Ok).or_else(|| int8_product(statement, &mac));
    let (types, sources) = match found.or_else(|| f32_product(statement, &mac).map(Ok)) {
        Some(found) => found?,
        None => {
            return Err("not mapped: only f16 (summed in f32 or f16), 8-bit integer and f32 products so far".to_string())
        }
    };
    if !types.f32 && !gpu.mma.iter().any(|s| s.operands == types.operand() && s.accumulator == types.sum()) {
        return Err(format!("not on tensor cores: {} has no {} x {} -> {} matrix shape", gpu.chip, types.operand(), types.operand(), types.sum()));
    }
    let Some((roles, a_is_x)) = contraction_roles::roles(statement, &mac, WARP_TILE, true) else {
        return Err("not on tensor cores: no row and column loops for the tiles".to_string());
    };
    // Signedness by role: (A's, B's).
    let types = Types { int8: types.int8.map(|(x, y)| if a_is_x { (x, y) } else { (y, x) }), ..types };
    let (m, n, k) = (roles.m(), roles.n(), roles.k());
    if m < 2 || n < 2 {
        return Err(format!("not on tensor cores: {m} rows x {n} columns, a vector product (bound by memory)"));
    }
    let batch: i64 = roles.outer.iter().map(|d| roles.trip(*d)).product();
    let tiles = choose_tiles(gpu, m, n, batch, types);
    let fill = crate::register_tile::zero_fill_before(nest, statement, roles.c, &roles.bounds);
    let c_memref = statement.accesses[roles.c].op.operand(1).map_err(|_| "a store without its memref")?;
    let [(a_source, a_copy), (b_source, b_copy)] = if a_is_x { sources } else { [sources[1], sources[0]] };
    // The elementwise nest reading each sum once (a bias and activation,
    // a requantization) runs on each sum in the epilogue, where it is: C
    // (then a temporary from a zero fill) is neither stored nor read back.
    let epilogue = fill.and_then(|_| contraction_epilogue::find_with(nest, c_memref, [a_source, b_source], true));
    let splits = if epilogue.is_none() { split_k(gpu, tiles, [m, n, batch, k], types) } else { 1 };
    // Split, the partial sums are added into C atomically: a zero fill
    // stays, to run before.
    let fill = fill.filter(|_| splits == 1);
    let grid = [ceil_div(n, tiles.bn), ceil_div(m, tiles.bm), batch * splits];
    if grid[1] > 65535 || grid[2] > 65535 {
        return Err(format!("not on tensor cores: a grid of {grid:?} blocks is past the hardware's limits"));
    }
    if let Some(epilogue) = &epilogue {
        for op in &epilogue.moved {
            ffi::move_before(*op, nest);
        }
    }
    let kernel = Kernel {
        e: Emit { context, location: nest.location() },
        roles: &roles,
        statement,
        tiles,
        types,
        fill: fill.is_some(),
        m,
        n,
        k,
        a_source,
        b_source,
        epilogue: epilogue.as_ref(),
        splits,
    };
    if types.f32 {
        kernel.emit_fma(nest, grid);
    } else {
        kernel.emit(nest, grid);
    }
    let epilogue_ops = epilogue.as_ref().map(|e| e.ops.len());
    if let Some(epilogue) = epilogue {
        applied.push((epilogue.nest, epilogue.copies));
    }
    // SAFETY: `Scop::extract` accepted the nest, so its loops have no results and nothing defined
    // inside it is used outside it; the SCoP's handles are not used after this point.
    unsafe { ffi::erase(nest) };
    if let Some(fill) = fill {
        // SAFETY: the fill is a top-level loop nest before `nest` (`zero_fill_before`), already
        // visited by `rewrite_each_nest`; a SCoP nest has no results.
        unsafe { ffi::erase(fill) };
    }
    // A widening nest read around goes when nothing else reads what it wrote.
    let mut copies: Vec<OperationRef> = [a_copy, b_copy].into_iter().flatten().collect();
    copies.dedup();
    for copy in copies {
        let written = ffi::collect_ops(copy, melior::ir::operation::WalkOrder::PreOrder, |op| is_named(op, "affine.store"))
            .first()
            .and_then(|store| store.operand(1).ok());
        let Some(written) = written else { continue };
        let read_elsewhere = ffi::users(written).into_iter().any(|user| {
            !is_named(user, "memref.dealloc") && !is_named(user, "memref.alloc") && pb_support::ir::ancestor_in(user, copy.block().expect("in a block")) != Some(copy)
        });
        if !read_elsewhere {
            // SAFETY: a top-level SCoP nest (no results) whose output nothing reads any more;
            // visited already by `rewrite_each_nest` (it is before the product).
            unsafe { ffi::erase(copy) };
        }
    }
    Ok(Some(format!(
        "{}: {}, {m}x{n} over {k} reductions{}; blocks of {}x{} ({}), \
{BK} reductions per shared-memory step ({} bytes), grid {}x{}x{}{}{}{}",
        if types.f32 { "FMA units" } else { "tensor cores" },
        types.describe(),
        if batch > 1 { format!(", {batch} times") } else { String::new() },
        tiles.bm,
        tiles.bn,
        if types.f32 {
            format!("{} threads of 4x8 sums", tiles.threads())
        } else {
            format!("{} warps of 2x2 16x16 fragments", tiles.warps())
        },
        tiles.shared_bytes(),
        grid[0],
        grid[1],
        grid[2],
        if splits > 1 { format!("; the reductions split {splits} ways (partial sums added into C atomically)") } else { String::new() },
        if fill.is_some() { "; C's zero fill absorbed" } else { "" },
        match epilogue_ops {
            Some(ops) => format!("; the elementwise nest after it applied to each sum ({ops} ops)"),
            None => String::new(),
        },
    )))
}

/// One dimension of a block copied into shared memory: its size, the
/// value its first index is `scale` times (a block id, or the k-loop's
/// variable), and the operand's extent along it (zeros past it).
struct Span<'c, 'a> {
    size: i64,
    base: Value<'c, 'a>,
    scale: i64,
    extent: i64,
}

/// What a block copy reads and writes: the operand's access, the shared
/// buffer, elements per copy, and whether its bytes run offset by -128.
struct BlockCopy<'c, 'a> {
    access: usize,
    shared: Value<'c, 'a>,
    lanes: i64,
    offset: bool,
    /// Stored transposed (the block's columns as the shared buffer's rows:
    /// A's block for the FMA tiles, read a row of k at a time).
    transposed: bool,
}

/// Builds the launch of one product.
struct Kernel<'c, 'r, 's, 'a, 'p> {
    e: Emit<'c>,
    roles: &'r Roles,
    statement: &'s Statement<'c, 'a>,
    tiles: Tiles,
    types: Types,
    fill: bool,
    m: i64,
    n: i64,
    k: i64,
    /// The f16 buffers A and B are read from (the accesses' own, or those
    /// their widened copies came from: the same indices).
    a_source: Value<'c, 'a>,
    b_source: Value<'c, 'a>,
    /// The elementwise nest applied to each sum instead of storing it.
    epilogue: Option<&'p contraction_epilogue::Epilogue<'c, 'a>>,
    /// Ways the reductions are split over the grid's z (`split_k`).
    splits: i64,
}

/// Positions of the values an access's indices are written over: the
/// flattened row, the column, the flattened reduction, the batch index.
const ROW: usize = 0;
const COL: usize = 1;
const RED: usize = 2;
const BATCH: usize = 3;

impl<'c, 'a> Kernel<'c, '_, '_, 'a, '_> {
    fn memref(&self, access: usize) -> Value<'c, 'a> {
        if access == self.roles.a {
            return self.a_source;
        }
        if access == self.roles.b {
            return self.b_source;
        }
        let op = self.statement.accesses[access].op;
        let position = if self.statement.accesses[access].write { 1 } else { 0 };
        op.operand(position).expect("an access's memref")
    }

    /// `access`'s indices over `[row, col, k, batch]` (`ROW`...).
    fn indices(&self, access: usize) -> Vec<Aff> {
        let r = self.roles;
        let mut dims: Vec<Option<Aff>> = vec![None; r.bounds.len()];
        r.set_row(Aff::Dim(ROW), &mut dims);
        r.set_col(Aff::Dim(COL), &mut dims);
        match r.reductions.as_slice() {
            // One reduction loop: its value is the flattened index (no
            // `mod K`: an index past K is never loaded, the copies' guards
            // see to it), so a contiguous operand stays visibly so.
            [d] => dims[*d] = Some(Aff::Dim(RED).plus(Aff::Const(r.bounds[*d].0))),
            _ => r.unflatten(&r.reductions, &Aff::Dim(RED), &mut dims),
        }
        let mut stride = 1;
        for &d in r.outer.iter().rev() {
            let value = Aff::Mod(Box::new(Aff::FloorDiv(Box::new(Aff::Dim(BATCH)), stride)), r.trip(d));
            dims[d] = Some(value.plus(Aff::Const(r.bounds[d].0)));
            stride *= r.trip(d);
        }
        rewrite(&self.statement.accesses[access].indices, &dims, &r.bounds)
    }

    /// Elements per copy of `access` along `along` (`RED` for A, `COL`
    /// for B) out of a block of `block`: 16 bytes (or as many as divide
    /// the block's share per thread) when its last index walks `along` with unit stride
    /// from an offset that keeps 16-byte alignment, no other index moves
    /// with it, rows of its buffer are whole 16-byte groups and `extent`
    /// (K or N) is too, so that no copy straddles an edge; else 1.
    fn lanes(&self, access: usize, along: usize, extent: i64, block: i64) -> i64 {
        // Fewer lanes where the block's runs do not split evenly over the
        // threads (a 128-column block of bytes over 512 threads: 8).
        let mut lanes = 16 / self.types.bytes();
        while lanes > 1 && block % (self.tiles.threads() * lanes) != 0 {
            lanes /= 2;
        }
        let indices = self.indices(access);
        let Some((last, front)) = indices.split_last() else { return 1 };
        let memref = melior::ir::r#type::MemRefType::try_from(self.memref(access).r#type());
        let row_ok = memref.is_ok_and(|ty| {
            use melior::ir::r#type::ShapedTypeLike;
            ffi::has_identity_layout(ty)
                && matches!(ty.dim_size(ty.rank().saturating_sub(1)), Ok(melior::ir::r#type::DimSize::Static(n)) if n as i64 % lanes == 0)
        });
        let contiguous = !front.iter().any(|e| e.uses_dim(along))
            && last.coefficient(along) == Some(1)
            && last.constant_difference(&Aff::Dim(along)).is_some_and(|offset| offset % lanes == 0);
        if row_ok && contiguous && extent % lanes == 0 { lanes } else { 1 }
    }

    fn index(&self, at: OperationRef<'c, 'a>, value: i64) -> Value<'c, 'a> {
        self.e.constant(at, "index", &value.to_string())
    }

    /// `affine.apply` of `expr` over `env`.
    fn apply(&self, at: OperationRef<'c, 'a>, expr: Aff, env: &[Value<'c, 'a>]) -> Value<'c, 'a> {
        self.e.apply(at, &expr, env)
    }

    /// `memref.load` of `memref` at `indices` (index values).
    fn load(&self, at: OperationRef<'c, 'a>, memref: Value<'c, 'a>, indices: &[Value<'c, 'a>]) -> Value<'c, 'a> {
        let element = crate::emit_at::memref_element(memref).expect("a memref");
        let operands: Vec<Value> = std::iter::once(memref).chain(indices.iter().copied()).collect();
        self.e.value(at, "memref.load", &operands, element, &[])
    }

    /// A load of `ty`: the element, or a vector of them aligned to its size.
    fn load_as(&self, at: OperationRef<'c, 'a>, memref: Value<'c, 'a>, indices: &[Value<'c, 'a>], ty: Type<'c>) -> Value<'c, 'a> {
        if !ty.to_string().starts_with("vector") {
            return self.load(at, memref, indices);
        }
        let operands: Vec<Value> = std::iter::once(memref).chain(indices.iter().copied()).collect();
        let lanes = ty.to_string().trim_start_matches("vector<").split('x').next().and_then(|n| n.parse::<i64>().ok()).unwrap_or(1);
        let alignment = self.e.attr(&format!("{} : i64", lanes * self.types.bytes()));
        self.e.value(at, "vector.load", &operands, ty, &[("alignment", alignment)])
    }

    /// `value` (bytes, or a vector of them) XOR 0x80 when `offset`: an
    /// unsigned byte `u` as the signed byte `u - 128`.
    fn offset_bytes(&self, at: OperationRef<'c, 'a>, value: Value<'c, 'a>, offset: bool) -> Value<'c, 'a> {
        if !offset {
            return value;
        }
        let ty = value.r#type();
        let text = ty.to_string();
        let bit = if text.starts_with("vector") { format!("dense<-128> : {text}") } else { format!("-128 : {text}") };
        let bit = self.e.value(at, "arith.constant", &[], ty, &[("value", self.e.attr(&bit))]);
        self.e.value(at, "arith.xori", &[value, bit], ty, &[])
    }

    /// A store of an element, or of a vector of `lanes` (aligned to its size).
    fn store_as(&self, at: OperationRef<'c, 'a>, value: Value<'c, 'a>, memref: Value<'c, 'a>, indices: &[Value<'c, 'a>], lanes: i64) {
        if lanes == 1 {
            return self.store(at, value, memref, indices);
        }
        let operands: Vec<Value> = [value, memref].into_iter().chain(indices.iter().copied()).collect();
        let alignment = self.e.attr(&format!("{} : i64", lanes * self.types.bytes()));
        self.e.op(at, "vector.store", &operands, &[], &[("alignment", alignment)]);
    }

    fn store(&self, at: OperationRef<'c, 'a>, value: Value<'c, 'a>, memref: Value<'c, 'a>, indices: &[Value<'c, 'a>]) {
        let operands: Vec<Value> = [value, memref].into_iter().chain(indices.iter().copied()).collect();
        self.e.op(at, "memref.store", &operands, &[], &[]);
    }

    /// The values of `access`'s indices at `env` (`[row, col, k, batch]`).
    fn access_at(&self, at: OperationRef<'c, 'a>, access: usize, env: &[Value<'c, 'a>]) -> Vec<Value<'c, 'a>> {
        self.indices(access).into_iter().map(|x| self.apply(at, x, env)).collect()
    }

    /// `lhs < bound` for an index value.
    fn below(&self, at: OperationRef<'c, 'a>, lhs: Value<'c, 'a>, bound: i64) -> Value<'c, 'a> {
        let bound = self.index(at, bound);
        let predicate = self.e.attr("6 : i64"); // ult
        self.e.value(at, "arith.cmpi", &[lhs, bound], Type::parse(self.e.context, "i1").expect("i1"), &[("predicate", predicate)])
    }

    /// `scf.for %iv = 0 to upper` before `at`, carrying `carried`: its
    /// induction variable, carried values, yield (operands set by the
    /// caller when carrying) and the loop.
    fn for_loop(
        &self,
        at: OperationRef<'c, 'a>,
        upper: i64,
        step: i64,
        carried: &[Value<'c, 'a>],
    ) -> (Value<'c, 'a>, Vec<Value<'c, 'a>>, OperationRef<'c, 'a>, OperationRef<'c, 'a>) {
        self.for_range(at, (self.index(at, 0), self.index(at, upper)), step, carried)
    }

    /// `scf.for %iv = lower to upper step step` before `at` carrying
    /// `carried` (as `for_loop`, with bounds as values).
    fn for_range(
        &self,
        at: OperationRef<'c, 'a>,
        (lower, upper): (Value<'c, 'a>, Value<'c, 'a>),
        step: i64,
        carried: &[Value<'c, 'a>],
    ) -> (Value<'c, 'a>, Vec<Value<'c, 'a>>, OperationRef<'c, 'a>, OperationRef<'c, 'a>) {
        let step = self.index(at, step);
        let location = self.e.location;
        let mut arguments = vec![(Type::index(self.e.context), location)];
        arguments.extend(carried.iter().map(|v| (v.r#type(), location)));
        let region = Region::new();
        let body = region.append_block(Block::new(&arguments));
        let values: Vec<Value> = (1..=carried.len()).map(|k| body.argument(k).expect("carried").into()).collect();
        body.append_operation(self.e.build("scf.yield", &values, &[], &[], vec![]));
        let operands: Vec<Value> = [lower, upper, step].into_iter().chain(carried.iter().copied()).collect();
        let types: Vec<Type> = carried.iter().map(|v| v.r#type()).collect();
        let made = self.e.build("scf.for", &operands, &types, &[], vec![region]);
        let made = at.block().expect("anchor in a block").insert_operation_before(at, made);
        let body = made.region(0).ok().and_then(|r| r.first_block()).expect("loop body");
        let values: Vec<Value> = (1..=carried.len()).map(|k| body.argument(k).expect("carried").into()).collect();
        (body.argument(0).expect("iv").into(), values, body.terminator().expect("scf.yield"), made)
    }

    /// The block's batch index and its range of reduction blocks
    /// (`[first, end)` of `k0`, step BK), from blockIdx.z: with `splits`
    /// ways, z = batch * splits + share.
    fn batch_and_depth(&self, at: OperationRef<'c, 'a>, bz: Value<'c, 'a>) -> (Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>) {
        let k_padded = ceil_div(self.k, BK) * BK;
        if self.splits == 1 {
            return (bz, self.index(at, 0), self.index(at, k_padded));
        }
        let share = k_padded / self.splits;
        let batch = self.apply(at, Aff::FloorDiv(Box::new(Aff::Dim(0)), self.splits), &[bz]);
        let first = self.apply(at, Aff::Mod(Box::new(Aff::Dim(0)), self.splits).scale(share), &[bz]);
        let end = self.apply(at, Aff::Mod(Box::new(Aff::Dim(0)), self.splits).scale(share).plus(Aff::Const(share)), &[bz]);
        (batch, first, end)
    }

    /// `cond ? then() : zero` as an `scf.if` yielding a value of `ty`;
    /// `then` builds its value before the anchor it is given.
    fn select_or_zero(
        &self,
        at: OperationRef<'c, 'a>,
        cond: Option<Value<'c, 'a>>,
        ty: Type<'c>,
        then: impl FnOnce(OperationRef<'c, 'a>) -> Value<'c, 'a>,
    ) -> Value<'c, 'a> {
        let Some(cond) = cond else { return then(at) };
        let (then_region, else_region) = (Region::new(), Region::new());
        then_region.append_block(Block::new(&[])).append_operation(self.e.build("scf.yield", &[], &[], &[], vec![]));
        else_region.append_block(Block::new(&[])).append_operation(self.e.build("scf.yield", &[], &[], &[], vec![]));
        let made = self.e.build("scf.if", &[cond], &[ty], &[], vec![then_region, else_region]);
        let made = at.block().expect("anchor in a block").insert_operation_before(at, made);
        let end = |r: usize| made.region(r).ok().and_then(|r| r.first_block()).and_then(|b| b.terminator()).expect("yield");
        let value = then(end(0));
        ffi::set_operands(end(0), &[value]);
        let zero = self.e.value(end(1), "arith.constant", &[], ty, &[("value", self.e.attr(&self.types.zero(&ty.to_string())))]);
        ffi::set_operands(end(1), &[zero]);
        made.result(0).expect("one result").into()
    }

    /// `a && b` of optional conditions.
    fn and(&self, at: OperationRef<'c, 'a>, a: Option<Value<'c, 'a>>, b: Option<Value<'c, 'a>>) -> Option<Value<'c, 'a>> {
        match (a, b) {
            (Some(a), Some(b)) => Some(self.e.value(at, "arith.andi", &[a, b], a.r#type(), &[])),
            (a, b) => a.or(b),
        }
    }

    fn emit(&self, nest: OperationRef<'c, 'a>, grid: [i64; 3]) {
        let e = &self.e;
        let t = self.tiles;
        let shared = |shape: &str, element: &str| e.ty(&format!("memref<{shape}x{element}, #gpu.address_space<workgroup>>"));
        let operand = self.types.operand();
        let as_ty = shared(&format!("{}x{}", t.bm, BK + t.pad()), operand);
        let bs_ty = shared(&format!("{}x{}", BK, t.bn + t.pad()), operand);
        let ws_ty = shared(&format!("{}x{FRAG}", t.warps() * FRAG), self.types.sum());
        let offset = self.types.offset();
        // A mixed-sign product's correction: a 16x16 tile of ones, and the
        // warps' staging rows of the correcting sums.
        let ones_ty = shared(&format!("{FRAG}x{}", FRAG + t.pad()), operand);
        let mut attributions = vec![as_ty, bs_ty, ws_ty];
        if offset.is_some() {
            attributions.extend([ones_ty, ws_ty]);
        }
        let (launch, end) = self.launch(nest, grid, &attributions);
        let body = launch.region(0).ok().and_then(|r| r.first_block()).expect("launch body");
        let arg = |k: usize| -> Value<'c, 'a> { body.argument(k).expect("launch argument").into() };
        let (bx, by, bz, tx) = (arg(0), arg(1), arg(2), arg(3));
        let (a_s, b_s, w_s) = (arg(12), arg(13), arg(14));
        let r = self.roles;
        let frag = |kind: &str, element: &str| e.ty(&format!("!gpu.mma_matrix<{FRAG}x{FRAG}x{element}, \"{kind}\">"));
        let (a_frag, b_frag, c_frag) =
            (frag("AOp", self.types.fragment()), frag("BOp", self.types.fragment()), frag("COp", self.types.sum()));
        let sum_type = e.ty(self.types.sum());
        let zero = e.value(end, "arith.constant", &[], sum_type, &[("value", e.attr(&self.types.zero(self.types.sum())))]);
        // Four sums per warp, and with an offset two correcting sums (per
        // column fragment: B's column sums; per row fragment: A's row sums).
        let fragments = if offset.is_some() { 6 } else { 4 };
        let zeros: Vec<Value> =
            (0..fragments).map(|_| e.value(end, "gpu.subgroup_mma_constant_matrix", &[zero], c_frag, &[])).collect();
        if offset.is_some() {
            // Ones: element p * T + t of the 16x16 tile (ordered before the
            // first products by the k-loop's first barrier).
            let ones = arg(15);
            let (p, _, at, _) = self.for_loop(end, ceil_div(FRAG * FRAG, t.threads()), 1, &[]);
            let flat = Aff::Dim(0).scale(t.threads()).plus(Aff::Dim(1));
            let inside = self.below(at, self.apply(at, flat.clone(), &[p, tx]), FRAG * FRAG);
            let then_end = e.if_then(at, inside);
            let one = e.constant(then_end, operand, "1");
            let row = self.apply(then_end, Aff::FloorDiv(Box::new(flat.clone()), FRAG), &[p, tx]);
            let column = self.apply(then_end, Aff::Mod(Box::new(flat), FRAG), &[p, tx]);
            self.store(then_end, one, ones, &[row, column]);
        }
        let (bz, k_first, k_end) = self.batch_and_depth(end, bz);
        let (k0, accs, yield_op, _) = self.for_range(end, (k_first, k_end), BK, &zeros);

        // Copy A's block (BM x BK, row-major) and B's (BK x BN): run q * T
        // + t of `lanes` elements each, one 16-byte vector where the
        // operand is contiguous along the block's rows.
        let a_lanes = self.lanes(r.a, RED, self.k, t.bm * BK);
        let b_lanes = self.lanes(r.b, COL, self.n, BK * t.bn);
        let rows_of = |block: Value<'c, 'a>, tile: i64, extent: i64| Span { size: tile, base: block, scale: tile, extent };
        let depth = Span { size: BK, base: k0, scale: 1, extent: self.k };
        // A: rows of C by reductions; B: reductions by columns of C.
        let a_copy = BlockCopy { access: r.a, shared: a_s, lanes: a_lanes, offset: offset == Some(Offset::A), transposed: false };
        self.copy_block(yield_op, tx, a_copy, (rows_of(by, t.bm, self.m), depth), |row, k, zero| [row, zero, k, bz]);
        let depth = Span { size: BK, base: k0, scale: 1, extent: self.k };
        let b_copy = BlockCopy { access: r.b, shared: b_s, lanes: b_lanes, offset: offset == Some(Offset::B), transposed: false };
        self.copy_block(yield_op, tx, b_copy, (depth, rows_of(bx, t.bn, self.n)), |k, col, zero| [zero, col, k, bz]);
        e.op(yield_op, "gpu.barrier", &[], &[], &[]);
        // Each warp's 2 x 2 fragments over the block's BK reductions.
        let warps_per_row = t.bn / WARP_TILE;
        let env = [tx];
        let warp_row = self.apply(yield_op, Aff::Mod(Box::new(Aff::FloorDiv(Box::new(Aff::Dim(0)), 32 * warps_per_row)), t.bm / WARP_TILE).scale(WARP_TILE), &env);
        let warp_col = self.apply(yield_op, Aff::Mod(Box::new(Aff::FloorDiv(Box::new(Aff::Dim(0)), 32)), warps_per_row).scale(WARP_TILE), &env);
        let lead = |n: i64| ("leadDimension", e.attr(&format!("{n} : index")));
        let mut sums = accs.clone();
        for ks in 0..BK / FRAG {
            let kk = self.index(yield_op, ks * FRAG);
            let a: Vec<Value> = (0..2)
                .map(|fi| {
                    let row = self.apply(yield_op, Aff::Dim(0).plus(Aff::Const(fi * FRAG)), &[warp_row]);
                    e.value(yield_op, "gpu.subgroup_mma_load_matrix", &[a_s, row, kk], a_frag, &[lead(BK + t.pad())])
                })
                .collect();
            let b: Vec<Value> = (0..2)
                .map(|fj| {
                    let col = self.apply(yield_op, Aff::Dim(0).plus(Aff::Const(fj * FRAG)), &[warp_col]);
                    e.value(yield_op, "gpu.subgroup_mma_load_matrix", &[b_s, kk, col], b_frag, &[lead(t.bn + t.pad())])
                })
                .collect();
            for (fi, a_frag) in a.iter().enumerate() {
                for (fj, b_frag) in b.iter().enumerate() {
                    let q = fi * 2 + fj;
                    sums[q] = e.value(yield_op, "gpu.subgroup_mma_compute", &[*a_frag, *b_frag, sums[q]], c_frag, &[]);
                }
            }
            // The correcting sums: ones x B (every row: B's column sums)
            // or A x ones (every column: A's row sums).
            if let Some(side) = offset {
                let zero_index = self.index(yield_op, 0);
                let ones = arg(15);
                let kind = if side == Offset::A { a_frag } else { b_frag };
                let one = e.value(yield_op, "gpu.subgroup_mma_load_matrix", &[ones, zero_index, zero_index], kind, &[lead(FRAG + t.pad())]);
                for f in 0..2 {
                    let (x, y) = if side == Offset::A { (one, b[f]) } else { (a[f], one) };
                    sums[4 + f] = e.value(yield_op, "gpu.subgroup_mma_compute", &[x, y, sums[4 + f]], c_frag, &[]);
                }
            }
        }
        e.op(yield_op, "gpu.barrier", &[], &[], &[]);
        ffi::set_operands(yield_op, &sums);

        // Epilogue: each fragment through the warp's staging rows into C.
        let results: Vec<Value> = (0..fragments).map(|q| ffi::result(self.loop_of(yield_op), q).expect("a sum")).collect();
        let warp = self.apply(end, Aff::FloorDiv(Box::new(Aff::Dim(0)), 32).scale(FRAG), &[tx]);
        let zero_index = self.index(end, 0);
        for fi in 0..2 {
            for fj in 0..2 {
                let q = (fi * 2 + fj) as usize;
                e.op(end, "gpu.subgroup_mma_store_matrix", &[results[q], w_s, warp, zero_index], &[], &[lead(FRAG)]);
                if let Some(side) = offset {
                    let correction = results[4 + if side == Offset::A { fj } else { fi } as usize];
                    e.op(end, "gpu.subgroup_mma_store_matrix", &[correction, arg(16), warp, zero_index], &[], &[lead(FRAG)]);
                }
                e.op(end, "gpu.barrier", &[], &[], &[]);
                let (p, _, at, _) = self.for_loop(end, FRAG * FRAG / 32, 1, &[]);
                // Element p * 32 + lane of the fragment.
                let env = [p, tx, by, bx];
                let flat = Aff::Dim(0).scale(32).plus(Aff::Mod(Box::new(Aff::Dim(1)), 32));
                let rr = Aff::FloorDiv(Box::new(flat.clone()), FRAG);
                let cc = Aff::Mod(Box::new(flat), FRAG);
                let warp_rows = Aff::Mod(Box::new(Aff::FloorDiv(Box::new(Aff::Dim(1)), 32 * warps_per_row)), t.bm / WARP_TILE).scale(WARP_TILE);
                let warp_cols = Aff::Mod(Box::new(Aff::FloorDiv(Box::new(Aff::Dim(1)), 32)), warps_per_row).scale(WARP_TILE);
                let row = Aff::Dim(2).scale(t.bm).plus(warp_rows).plus(Aff::Const(fi * FRAG)).plus(rr.clone());
                let col = Aff::Dim(3).scale(t.bn).plus(warp_cols).plus(Aff::Const(fj * FRAG)).plus(cc.clone());
                let staged_row = self.apply(at, Aff::FloorDiv(Box::new(Aff::Dim(1)), 32).scale(FRAG).plus(rr), &env);
                let staged_col = self.apply(at, cc, &env);
                let row = self.apply(at, row, &env);
                let col = self.apply(at, col, &env);
                let row_ok = (self.m % t.bm != 0).then(|| self.below(at, row, self.m));
                let col_ok = (self.n % t.bn != 0).then(|| self.below(at, col, self.n));
                let cond = self.and(at, row_ok, col_ok);
                let write = |at: OperationRef<'c, 'a>| {
                    let sum = self.load(at, w_s, &[staged_row, staged_col]);
                    // Offset sums corrected: + 128 x the column (row) sum,
                    // which every row (column) of the correcting tile holds.
                    let sum = match offset {
                        Some(_) => {
                            let correction = self.load(at, arg(16), &[staged_row, staged_col]);
                            let shift = e.constant(at, "i32", "7");
                            let scaled = e.value(at, "arith.shli", &[correction, shift], sum_type, &[]);
                            e.value(at, "arith.addi", &[sum, scaled], sum_type, &[])
                        }
                        None => sum,
                    };
                    self.write_sum(at, sum, [row, col, zero_index, bz]);
                };
                match cond {
                    Some(cond) => write(e.if_then(at, cond)),
                    None => write(at),
                }
                e.op(end, "gpu.barrier", &[], &[], &[]);
            }
        }
    }

    /// Writes the sum of C's element at `env` (`[row, col, 0, batch]`, in
    /// bounds) before `at`: through the epilogue where there is one, else
    /// stored (a zero fill absorbed) or added to C, rounded to C's type.
    fn write_sum(&self, at: OperationRef<'c, 'a>, sum: Value<'c, 'a>, env: [Value<'c, 'a>; 4]) {
        let e = &self.e;
        let c_f16 = self.types.c_f16;
        let (operand_type, sum_type) = (e.ty(self.types.operand()), e.ty(self.types.sum()));
        let c_type = if c_f16 { operand_type } else { sum_type };
        if let Some(epilogue) = self.epilogue {
            // C's value (a temporary from a zero fill: the sum, in C's
            // type) through the epilogue's statement.
            let value = if c_f16 { e.value(at, "arith.truncf", &[sum], c_type, &[]) } else { sum };
            self.apply_epilogue(at, epilogue, value, env);
            return;
        }
        let c_mem = self.memref(self.roles.c);
        let indices = self.access_at(at, self.roles.c, &env);
        if self.splits > 1 {
            // Other blocks add their shares of the reductions to the same
            // element.
            let operands: Vec<Value> = [sum, c_mem].into_iter().chain(indices).collect();
            e.value(at, "memref.atomic_rmw", &operands, sum_type, &[("kind", e.attr("0 : i64"))]);
            return;
        }
        let add = if self.types.int8.is_some() { "arith.addi" } else { "arith.addf" };
        let sum = if self.fill {
            sum
        } else {
            let old = self.load(at, c_mem, &indices);
            let old = if c_f16 { e.value(at, "arith.extf", &[old], sum_type, &[]) } else { old };
            e.value(at, add, &[sum, old], sum_type, &[])
        };
        let sum = if c_f16 { e.value(at, "arith.truncf", &[sum], c_type, &[]) } else { sum };
        self.store(at, sum, c_mem, &indices);
    }

    /// The epilogue's statement on C's element at `env` (`[row, col, k,
    /// batch]`) whose value is `value`, before `at`: the epilogue's loops
    /// follow from C's indices there.
    fn apply_epilogue(
        &self,
        at: OperationRef<'c, 'a>,
        epilogue: &contraction_epilogue::Epilogue<'c, 'a>,
        value: Value<'c, 'a>,
        env: [Value<'c, 'a>; 4],
    ) {
        let c_at = self.indices(self.roles.c);
        let dims: Vec<Aff> = epilogue
            .to_c
            .iter()
            .map(|to| match *to {
                None => Aff::Const(0),
                Some((q, stride, trip, outermost)) => {
                    let divided = if stride == 1 { c_at[q].clone() } else { Aff::FloorDiv(Box::new(c_at[q].clone()), stride) };
                    if outermost { divided } else { Aff::Mod(Box::new(divided), trip) }
                }
            })
            .collect();
        let indices = |at: OperationRef<'c, 'a>, exprs: &[Aff]| -> Vec<Value<'c, 'a>> {
            exprs.iter().map(|x| self.apply(at, x.clone(), &env)).collect()
        };
        contraction_epilogue::apply(
            at,
            epilogue,
            value,
            &dims,
            |at, memref, exprs| {
                let at_indices = indices(at, exprs);
                self.load(at, memref, &at_indices)
            },
            |at, stored, memref, exprs| {
                let at_indices = indices(at, exprs);
                self.store(at, stored, memref, &at_indices)
            },
        );
    }

    /// Copies an operand's block (`rows x columns`, row-major) into shared
    /// memory before `at` by thread `tx`: run `q * T + t` of `lanes` elements
    /// (neighbouring threads read neighbouring memory; one vector where
    /// `lanes > 1`), zeros past the operand's extents, the bytes offset by
    /// -128 with `offset`. `place` gives the access's `[row, col, k, batch]`
    /// from the element's index along the block's rows and columns.
    fn copy_block(
        &self,
        at: OperationRef<'c, 'a>,
        tx: Value<'c, 'a>,
        BlockCopy { access, shared, lanes, offset, transposed }: BlockCopy<'c, 'a>,
        (rows, columns): (Span<'c, 'a>, Span<'c, 'a>),
        place: impl Fn(Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>) -> [Value<'c, 'a>; 4],
    ) {
        let e = &self.e;
        let threads = self.tiles.threads();
        let (q, _, at, _) = self.for_loop(at, rows.size * columns.size / threads / lanes, 1, &[]);
        let env = [q, tx, rows.base, columns.base];
        let flat = Aff::Dim(0).scale(threads).plus(Aff::Dim(1));
        let row_in = Aff::FloorDiv(Box::new(flat.clone()), columns.size / lanes);
        let column_in = Aff::Mod(Box::new(flat), columns.size / lanes).scale(lanes);
        let r = self.apply(at, row_in.clone(), &env);
        let c = self.apply(at, column_in.clone(), &env);
        let row = self.apply(at, row_in.plus(Aff::Dim(2).scale(rows.scale)), &env);
        let column = self.apply(at, column_in.plus(Aff::Dim(3).scale(columns.scale)), &env);
        let row_ok = (rows.extent % rows.size != 0).then(|| self.below(at, row, rows.extent));
        let column_ok = (columns.extent % columns.size != 0).then(|| self.below(at, column, columns.extent));
        let cond = self.and(at, row_ok, column_ok);
        let operand = self.types.operand();
        let ty = if lanes > 1 { e.ty(&format!("vector<{lanes}x{operand}>")) } else { e.ty(operand) };
        let value = self.select_or_zero(at, cond, ty, |at| {
            let zero = self.index(at, 0);
            let indices = self.access_at(at, access, &place(row, column, zero));
            let value = self.load_as(at, self.memref(access), &indices, ty);
            self.offset_bytes(at, value, offset)
        });
        if !transposed {
            return self.store_as(at, value, shared, &[r, c], lanes);
        }
        // Transposed: each element to its own row.
        for l in 0..lanes {
            let element = if lanes == 1 {
                value
            } else {
                let position = e.attr(&format!("array<i64: {l}>"));
                e.value(at, "vector.extract", &[value], e.ty(operand), &[("static_position", position)])
            };
            let row = if l == 0 { c } else { self.apply(at, Aff::Dim(0).plus(Aff::Const(l)), &[c]) };
            self.store(at, element, shared, &[row, r]);
        }
    }

    /// The loop whose body ends with `yield_op`.
    fn loop_of(&self, yield_op: OperationRef<'c, 'a>) -> OperationRef<'c, 'a> {
        yield_op.block().and_then(|b| b.parent_operation()).expect("a loop")
    }

    /// A `gpu.launch` before `before` with grid `grid`, the tiles' threads
    /// and workgroup buffers of `shared` types; the launch and its body's
    /// terminator.
    fn launch(&self, before: OperationRef<'c, 'a>, grid: [i64; 3], shared: &[Type<'c>]) -> (OperationRef<'c, 'a>, OperationRef<'c, 'a>) {
        self.launch_with(before, grid, shared, &[])
    }

    /// `launch` with private (per-thread) buffers of `private` types after
    /// the workgroup ones.
    fn launch_with(
        &self,
        before: OperationRef<'c, 'a>,
        grid: [i64; 3],
        shared: &[Type<'c>],
        private: &[Type<'c>],
    ) -> (OperationRef<'c, 'a>, OperationRef<'c, 'a>) {
        let e = &self.e;
        let sizes: Vec<Value> = [grid[0], grid[1], grid[2], self.tiles.threads(), 1, 1].iter().map(|v| self.index(before, *v)).collect();
        let index = Type::index(e.context);
        let mut arguments = vec![(index, e.location); 12];
        arguments.extend(shared.iter().chain(private).map(|t| (*t, e.location)));
        let region = Region::new();
        region.append_block(Block::new(&arguments)).append_operation(e.build("gpu.terminator", &[], &[], &[], vec![]));
        let launch = e.build(
            "gpu.launch",
            &sizes,
            &[],
            &[
                ("operandSegmentSizes", e.attr("array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>")),
                ("workgroup_attributions", e.attr(&format!("{} : i64", shared.len()))),
            ],
            vec![region],
        );
        let launch = before.block().expect("in a block").insert_operation_before(before, launch);
        let end = launch.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.terminator()).expect("gpu.terminator");
        (launch, end)
    }
}
