//! `pb-register-tile`: register-blocked, cache-tiled code for contractions
//! (`C[..i..j] += A[..i..k..] * B[..k..j]`: matmul, batch matmul,
//! convolutions), the job BLAS micro-kernels do, generated here.
//!
//! For a perfect nest whose single statement is that multiply-accumulate
//! (f32), the loops get roles from the accesses: `j` moves the last index of
//! the accumulator `C` with unit stride (vectors of `width` lanes); `B` is
//! contiguous in `j`; `A` does not depend on `j` (broadcast); `i` is a
//! dimension of `C` that `B` does not depend on (`B` may also be read with a
//! stride along `j` — transposed, or a stride-2 convolution's input — and
//! is then gathered by the packing copy) (so a `B` vector is reused
//! for `MR` rows); the dimensions not in `C` are reductions `k`. The output
//! is, for the full `MR x NR` tiles:
//!
//! ```text
//! for outer dims; for ib (MC rows); for kb (KC of k0); for jr (NR cols); for ir (MR rows):
//!   prefetch the C tile; acc[MR][NV] = 0
//!   for k0 in kb..kb+KC, k1.., ...  (iter_args: the accumulators stay in registers)
//!     b[v] = B vectors; a = broadcast A[ir + r]; acc[r][v] = fma(a, b[v], acc[r][v])
//!   C tile += acc   (two-level summation: each KC block summed, then added)
//! ```
//! plus the original nest restricted to the rows and columns that do not
//! fill a tile (left to `pb-interchange`/`pb-vectorize`).
//!
//! When the last op before the contraction to touch C is a nest storing
//! +0.0 into all of C (linalg's fill of the accumulator), the first KC block
//! stores its sums instead of adding them to C, and the fill shrinks to the
//! remainder rows that the original nest still accumulates into (it stays
//! whole when there are remainder columns): attention's Q K^T no longer
//! writes its 12.6 MB of scores twice and reads them once more (~8%).
//!
//! The model (from the target description, no search): `NV = min(R / 8, N /
//! width)` vectors per row and `MR = 3R / 4 / NV` rows keep `MR*NV`
//! accumulators, `NV` `B` vectors and a broadcast within the `R` vector
//! registers (32 on AVX-512: 6 x 4 vectors); `KC` makes the `B` micro-panel (`KC x NR`, times the
//! inner reduction trips) fill about 2/3 of L1; `MC` splits the rows into
//! about two blocks per core (parallel work) while the `A` block stays within
//! half of L2. When an outer dimension (batch, attention heads) has enough
//! matrices to share evenly among the cores (at least two per core, or a
//! multiple of the core count), that dimension is the parallel loop instead
//! (one parallel region rather than one per matrix, whole matrices per
//! thread) and `MC` is bounded by L2 alone: attention's two batched products
//! ran 23% faster.
//!
//! With `prepacked`, a `B` that is a function argument marked `pb.static`
//! (a model's weight, see `pb_support::ir::STATIC_ARGUMENT`), shared by
//! every matrix of the outer loops and unscaled, is packed once, whole,
//! into a `pb.persistent` buffer (all column panels in the order the tiles
//! read them, the last zero-padded) under `scf.if` on the function's
//! prepared flag, and the tiles read their `B` vectors from it: no packing
//! per call (see `pb-allocs-to-pool` for the flag and the buffer's bytes).
//! An `A` read plainly from such an argument (a convolution's weights) is
//! likewise packed once into register-tile order, all row tiles.
//!
//! Legality: each `C` element keeps its reduction updates in their original
//! order (`k` loops stay in order inside a tile); only the order between
//! different `C` elements changes, which no dependence constrains when `C` is
//! read only at the element being written and `A`, `B` are not written. The
//! `fma` contracts `a * b + c` with one rounding (as BLAS does); results
//! differ from the two-rounding loop within float tolerance.

use crate::operand_expr::{self, OperandExpr};
use crate::text_kernel;
use melior::{
    ir::{block::BlockLike, operation::OperationLike, OperationRef, Value, ValueLike},
    Context,
};
use pb_polyhedral::{scop::Statement, Aff, Scop};
use pb_support::{ffi, ir::{ancestor_in, is_named, is_static_argument}, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-register-tile",
    summary: "Register-blocked, cache-tiled micro-kernels for f32 contractions (matmul, batch matmul, convolution)",
    description: "Rewrites perfect nests computing C[..i..j] += A[..i..k] * B[..k..j] (f32) into cache \
tiles (MC rows x KC reductions) of register tiles (MR rows x NV vectors) whose accumulators are \
loop-carried vector values updated by vector.fma, plus remainder nests for rows and columns that do \
not fill a tile. Sizes come from the vector width and cache sizes. Refuses other statements, \
accumulators read elsewhere, written operands.",
    anchor: "func.func",
    options: &[
        PassOption { name: "width", kind: OptionKind::UInt, default: "16", help: "f32 lanes of a vector register" },
        PassOption { name: "registers", kind: OptionKind::UInt, default: "32", help: "Vector registers (32 on AVX-512, 16 on AVX2)" },
        PassOption { name: "l1-bytes", kind: OptionKind::UInt, default: "49152", help: "L1 data cache per core" },
        PassOption { name: "l1-ways", kind: OptionKind::UInt, default: "12", help: "L1 data cache associativity" },
        PassOption { name: "l2-bytes", kind: OptionKind::UInt, default: "2097152", help: "L2 cache per core" },
        PassOption { name: "cores", kind: OptionKind::UInt, default: "1", help: "Cores sharing the row blocks" },
        PassOption {
            name: "prepacked",
            kind: OptionKind::Bool,
            default: "false",
            help: "Pack A and B operands that are function arguments marked `pb.static` once into buffers kept \
between calls (`pb.persistent` allocations, which need pb-allocs-to-pool), packing again when the \
pool's prepared flag is 0",
        },
        PassOption { name: "report", kind: OptionKind::Bool, default: "false", help: "Explain each decision on stderr" },
    ],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(RegisterTile {
        width: options.uint("width").max(1) as i64,
        registers: options.uint("registers").max(8) as i64,
        l1: options.uint("l1-bytes").max(1024) as i64,
        l1_ways: options.uint("l1-ways").max(1) as i64,
        l2: options.uint("l2-bytes").max(4096) as i64,
        cores: options.uint("cores").max(1) as i64,
        prepacked: options.bool("prepacked"),
        report: options.bool("report"),
    })
}

#[derive(Clone)]
struct RegisterTile {
    width: i64,
    registers: i64,
    l1: i64,
    l1_ways: i64,
    l2: i64,
    cores: i64,
    prepacked: bool,
    report: bool,
}

impl RustPass for RegisterTile {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["affine", "arith", "func", "memref", "scf", "vector"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        // A refusal's reason is reported as a decision is.
        text_kernel::rewrite_each_nest(func, INFO.argument, self.report, |context, nest| {
            self.tile(context, nest).unwrap_or_else(Some)
        });
        Ok(())
    }
}

/// The loops of a contraction and their roles (positions in the nest).
struct Roles {
    i: usize,
    j: usize,
    reductions: Vec<usize>,
    outer: Vec<usize>,
}

struct Contraction<'s, 'c, 'a> {
    statement: &'s Statement<'c, 'a>,
    /// Constant bounds of each loop.
    bounds: Vec<(i64, i64)>,
    roles: Roles,
    a: usize,
    b: usize,
    c_read: usize,
    c_write: usize,
    /// B is read along `j` with a stride (B^T, strided convolution): the
    /// packing copy gathers it.
    b_transposed: bool,
    /// A factor applied to B elements before the product (the packing copy
    /// applies it).
    b_scale: Option<Value<'c, 'a>>,
    /// A computed by an expression (of loads not moving with `j`; a scaled
    /// load is one): the A block is always packed, evaluating it once per
    /// element.
    a_expr: Option<OperandExpr<'c, 'a>>,
    /// C's index before `j` is the loop `h` (in no A index, over C's whole
    /// extent, as `j` is): `(h, j)` may run as one flattened dimension of
    /// `H * W` columns.
    collapsible: Option<usize>,
    /// `(h, W)` when they do: the kernel's columns are `p = h * W + j`, C
    /// is read through its collapsed view and B is gathered by the packing
    /// copy (`h = p floordiv W`, `j = p mod W`).
    collapsed: Option<(usize, i64)>,
    /// C's row index is several loops flattened (`56 * h + w` where a
    /// reshape between NHWC activations and a 2-d product was folded into
    /// the accesses): `(loop, stride, extent)` outermost first, `i` the
    /// last (stride 1). The kernel's rows are then `p` over the product of
    /// the extents; each loop is `(p floordiv stride) mod extent`, which
    /// only the packing copy of A evaluates. Empty: the rows are `i`.
    row_group: Vec<(usize, i64, i64)>,
}

impl Contraction<'_, '_, '_> {
    /// The kernel's row range: `i`'s, or the flattened row loops'.
    fn rows(&self) -> (i64, i64) {
        if self.row_group.is_empty() {
            self.bounds[self.roles.i]
        } else {
            (0, self.row_group.iter().map(|(_, _, extent)| extent).product())
        }
    }

    /// The kernel's column range: `j`'s, or the flattened `(h, j)`'s.
    fn columns(&self) -> (i64, i64) {
        match self.collapsed {
            Some((h, w)) => (0, trip(self.bounds[h]) * w),
            None => self.bounds[self.roles.j],
        }
    }
}

impl RegisterTile {
    /// `Ok(Some(decision))` when rewritten, `Ok(None)` when the nest is not a
    /// contraction (silently), `Err(reason)` when one was refused.
    fn tile<'c>(&self, context: &'c Context, nest: OperationRef<'c, '_>) -> Result<Option<String>, String> {
        let Ok(mut scop) = Scop::extract(&[nest]) else { return Ok(None) };
        let [statement] = scop.statements.as_mut_slice() else { return Ok(None) };
        // Loops that run once (a unit batch dimension) index as 0: folded
        // reshapes leave them in indices as `128 * d0 + d1`, which would
        // hide the row dimension `d1`.
        let once: Vec<Aff> = (0..statement.loops.len())
            .map(|d| match statement.bounds[d].constant() {
                Some((0, 1)) if statement.bounds[d].step == 1 => Aff::Const(0),
                _ => Aff::Dim(d),
            })
            .collect();
        for access in &mut statement.accesses {
            access.indices = access.indices.iter().map(|e| e.substitute(&once)).collect();
        }
        merge_split_loops(statement);
        let scop = scop;
        let [statement] = scop.statements.as_slice() else { return Ok(None) };
        let c_write = statement.accesses.iter().find(|a| a.write);
        let c_contiguous = c_write.is_some_and(|a| {
            identity_layout(&a.op.operand(1).map(|v| v.r#type().to_string()).unwrap_or_default())
        });
        let c_shape = match c_write {
            Some(a) if c_contiguous => scop.arrays[a.array].shape.clone(),
            _ => Vec::new(),
        };
        // Separate products of fewer rows than about two register tiles
        // are flattened into one (see `leading_rows`).
        let few_rows = self.registers;
        let Some(mut contraction) = recognize(statement, &c_shape, few_rows)? else {
            // A multiply-accumulate left to plain loops is said, not
            // skipped silently: it is usually most of a model's time.
            return match untiled_product(statement) {
                Some(reason) => Err(format!("not register-tiled: {reason}")),
                None => Ok(None),
            };
        };
        // Output rows narrower than a register tile of full vectors (a 7x7
        // or 14x14 feature map), or whose width leaves part of a vector
        // empty (a 28x28 map: 28 columns computed as 32) where the whole
        // map does not, run as one flattened dimension with the index
        // before them, when C is contiguous over both. (A 56-wide map
        // fills its vectors: gathering B costs more than its one narrower
        // panel loses.)
        let full_tile = self.width * (self.registers / 8);
        let wasted_lanes = |n: i64| (self.width - n % self.width) % self.width;
        let worth_flattening = |h: usize| {
            let (n, rows) = (trip(contraction.bounds[contraction.roles.j]), trip(contraction.bounds[h]));
            n < full_tile || wasted_lanes(n * rows) < wasted_lanes(n) * rows
        };
        if let Some(h) = contraction.collapsible.filter(|h| worth_flattening(*h)) {
            // (`c_shape` is empty unless C is contiguous.)
            let rank = c_shape.len();
            let whole = |d: usize, extent: i64| contraction.bounds[d] == (0, extent);
            if rank >= 2 && whole(h, c_shape[rank - 2]) && whole(contraction.roles.j, c_shape[rank - 1]) {
                contraction.collapsed = Some((h, c_shape[rank - 1]));
                contraction.roles.outer.retain(|d| *d != h);
                contraction.b_transposed = true;
            }
        }
        let contraction = contraction;
        let reductions = &contraction.roles.reductions;
        let (j_lo, j_hi) = contraction.columns();
        let (n, m) = (j_hi - j_lo, trip(contraction.rows()));
        // Narrow outputs (a 7x7 or 14x14 feature map) use shorter vectors
        // (8 or 4 lanes) rather than none.
        let mut width = self.width;
        while n < width && width > 4 {
            width /= 2;
        }
        // Vectors per register-tile row: as many as a quarter of the
        // registers allows, or one fewer when that divides a row of whole
        // vectors and the most does not (96 columns: two panels of 3
        // vectors instead of one of 4 and a tail of 2).
        let most = (n / width).min(self.registers / 8);
        let vectors = n / width;
        let divides = |nv: i64| n % width == 0 && vectors % nv == 0;
        let nv = if most > 2 && !divides(most) && divides(most - 1) { most - 1 } else { most };
        if nv == 0 {
            return Err(format!("not register-tiled: {n} columns are fewer than one vector of {width}"));
        }
        let mr = self.registers * 3 / 4 / nv;
        if m < mr {
            return Err(format!("not register-tiled: {m} rows are fewer than a register tile of {mr}"));
        }
        let nr = nv * width;
        let inner_trips: i64 = reductions[1..].iter().map(|k| trip(contraction.bounds[*k])).product();
        let k0 = trip(contraction.bounds[reductions[0]]);
        let mut kc = ((self.l1 * 2 / 3) / (nr * 4 * inner_trips).max(1)).clamp(1, k0);
        // An expression for A is packed `width` steps at a time: KC blocks
        // of whole vectors.
        if contraction.a_expr.is_some() && inner_trips == 1 && kc >= width {
            kc = kc / width * width;
        } else {
            // Blocks of equal size, no larger: 64 channels as 32 + 32, not
            // 37 + 27 (a short last block runs the micro-kernel over few
            // steps per load and store of C).
            let blocks = (k0 + kc - 1) / kc;
            kc = (k0 + blocks - 1) / blocks;
        }
        // An operand read from a parameter (an argument the caller marks
        // static: a weight), the same for every matrix of the outer loops,
        // is packed once, whole, into a buffer kept between calls.
        let parameter = |k: usize| {
            let access = &statement.accesses[k];
            self.prepacked
                && !contraction.roles.outer.iter().any(|d| access.indices.iter().any(|e| e.uses_dim(*d)))
                && access.op.operand(0).is_ok_and(is_static_argument)
        };
        // B (a Linear weight): panel after panel in the order the kernel
        // reads them; each call then streams it instead of gathering rows a
        // stride apart (the per-call packing was a quarter of BERT's linear
        // layers' time: each 256-byte panel row is a memory access of its
        // own). Only an unscaled B over unflattened columns.
        let prepacked = parameter(contraction.b) && contraction.collapsed.is_none() && contraction.b_scale.is_none();
        // A (a convolution's weights): into register-tile order, all row
        // tiles, every reduction step (no per-call A packing, whether it
        // would pack or read in place). Only a plain load of A (no
        // expression, no flattened rows).
        let prepacked_a = parameter(contraction.a) && contraction.a_expr.is_none() && contraction.row_group.is_empty();
        let panels = m / mr;
        // Enough batch/head matrices to share among the cores evenly: each
        // thread takes whole matrices (12 heads: 6 each), in one parallel
        // region instead of one per matrix, and row blocks are sized for L2
        // alone. Otherwise the row blocks of each matrix are shared.
        let shares_evenly = |trips: i64| trips >= 2 * self.cores || (trips >= self.cores && trips % self.cores == 0);
        let outer_parallel =
            contraction.roles.outer.iter().copied().find(|d| shares_evenly(trip(contraction.bounds[*d])));
        let mut parallel = match outer_parallel {
            _ if self.cores <= 1 => Parallel::None,
            Some(d) => Parallel::Outer(d),
            None => Parallel::RowBlocks,
        };
        let l2_panels = ((self.l2 / 2) / (kc * inner_trips * 4).max(1) / mr).max(1);
        // Sharing the row blocks splits the rows more finely than L2 needs
        // when there are few of them (a 128-token activation): each block
        // then packs all of B again. The column panels are shared instead
        // (each thread packs its own B panels once; one A block for all).
        // A prepacked B is not packed again, only streamed by each row
        // block: 4 K N bytes per 2 mc K N flops, where each shared column
        // panel streams A's block, 2 / nr bytes per flop. The row blocks
        // stay shared when theirs is the smaller stream (mc >= nr): then
        // each thread's C rows also stay in its L2 across the reduction
        // blocks (shared panels over 1024 rows went through all of C once
        // per KC block: BERT's and ViT's linear layers at batch 8 ran
        // 1.2-1.5x slower). Over fewer rows (ResNet-18's 49 pixels of a
        // 7x7 map, 128 tokens) B streamed per block of 12 or 36 rows made
        // whole models 1.1-1.4x slower.
        let column_panels = n / nr;
        let shared_rows = (panels + 2 * self.cores - 1) / (2 * self.cores);
        let b_stream_costs = !prepacked || shared_rows * mr < nr;
        if parallel == Parallel::RowBlocks
            && b_stream_costs
            && shared_rows < panels.min(l2_panels)
            && column_panels >= 2 * self.cores
        {
            parallel = Parallel::Columns;
        }
        // Row blocks of whole register tiles (the row tail counts as one),
        // as even as they can be: 128 rows in blocks of at most 126 made a
        // block of 2 rows that packed all of B again.
        let tiles = (m + mr - 1) / mr;
        let per_block = match parallel {
            Parallel::RowBlocks => shared_rows,
            _ => tiles,
        };
        let cap = per_block.min(l2_panels).max(1);
        let mut blocks = (tiles + cap - 1) / cap;
        if parallel == Parallel::RowBlocks {
            // A multiple of the cores: 7 blocks on 2 cores left one idle
            // for a seventh of the time (1200 rows: 8 blocks of 150).
            blocks = (blocks + self.cores - 1) / self.cores * self.cores;
            // Each thread runs blocks/cores whole blocks: with blocks of
            // ceil(tiles / blocks) tiles its share can exceed an even one
            // by most of a block (33 tiles of a 14x14 map in 6 blocks of
            // 6: 18 against 16.5). The block count, a multiple of the
            // cores whose blocks fit L2 and are at least half as large as
            // those, with the smallest largest share (33 tiles: 2 blocks
            // of 17; 262 tiles: 12 blocks of 22 instead of 10 of 27),
            // among equals the nearest to it.
            let share = |blocks: i64| blocks / self.cores * ((tiles + blocks - 1) / blocks);
            let fits = |blocks: i64| (tiles + blocks - 1) / blocks <= l2_panels;
            let mut best = blocks;
            let mut candidate = self.cores;
            while candidate <= 2 * blocks {
                let nearer = (candidate - blocks).abs() < (best - blocks).abs();
                if fits(candidate) && (share(candidate) < share(best) || (share(candidate) == share(best) && nearer)) {
                    best = candidate;
                }
                candidate += self.cores;
            }
            blocks = best;
        }
        let mc = mr * ((tiles + blocks - 1) / blocks);
        // Pack the B micro-panel into a contiguous tile-local buffer when it is
        // reused by several register tiles (rows of B are a large power-of-two
        // stride apart in typical shapes: they would share a few L1 sets).
        let pack = mc / mr >= 4 || contraction.b_transposed || contraction.b_scale.is_some();
        // Pack the A block into register-tile order when several column
        // panels reuse it and the lines its rows read in place at every tap
        // would crowd L1 sets (`a_lines_alias`: half a set's ways or more; a
        // 1024-wide matrix puts all six rows of a register tile in one, a
        // channels-last 7x7x512 map all 24 lines of its 3x3 taps in two).
        // Rows that do not (a convolution's weights)
        // stay in L1 as they are: packing them cost conv3x3 64->64 a fifth
        // of its time, 512->512 at 7x7 a quarter. Flattened rows (a 3x3
        // convolution over a 14x14 map, read in place: implicit GEMM) are
        // packed when they crowd L1 whatever the panels: the tile's loads
        // evaluate their floordiv/mod once per tile, outside the reduction
        // loops, and a per-call packing copy of a 28x28 map's taps cost
        // ResNet-18 a tenth of its time. Always for a computed A (packing
        // evaluates it once).
        let aliasing = a_lines_alias(statement, &scop, &contraction, mr, &reductions[1..], self.l1 / self.l1_ways, self.l1_ways);
        let pack_a = (aliasing && ((n + nr - 1) / nr >= 4 || !contraction.row_group.is_empty())) || contraction.a_expr.is_some();
        // A zero fill of all of C just before is absorbed: the kernel's
        // first KC block stores every element (tails included).
        let fill = zero_fill_before(nest, contraction.statement, contraction.c_write, &contraction.bounds);
        let pack_a = pack_a && !prepacked_a;
        // Column panels shared among the threads over an A packed per
        // reduction block made two parallel regions per block (the packing,
        // then the panels): a 3x3 convolution over a 7x7 map with 256
        // channels opened 38 of them for 58 MFLOP, and ran at a quarter of
        // the FMA peak. A is packed instead a span of reduction blocks at a
        // time, as many as fit half of L2 (all of them: one packing region
        // per call), and the panels' region runs every block of the span.
        let block_bytes = (m + mr - 1) / mr * mr * kc * inner_trips * 4;
        let a_span = if pack_a && parallel == Parallel::Columns && contraction.a_expr.is_none() {
            // Spans of equal numbers of blocks, at most `per_span` each.
            let blocks = (k0 + kc - 1) / kc;
            let per_span = (self.l2 / 2 / block_bytes.max(1)).max(1);
            let spans = (blocks + per_span - 1) / per_span;
            ((blocks + spans - 1) / spans * kc).min(k0)
        } else {
            0
        };
        let pack_a = pack_a && a_span == 0;
        // Column blocks (see `column_block`): only over an A read where it
        // is (in place or prepacked), never under parallel column panels.
        let nc = if parallel != Parallel::Columns && !pack_a { column_block(mc, n, nr, k0, kc, inner_trips, self.l2) } else { 0 };
        let shape = Shape { mr, nv, width, kc, mc, nc, pack, pack_a, parallel, first_block_stores: fill.is_some(), prepacked, prepacked_a, a_span, cores: self.cores };
        let text = kernel_text(&contraction, &shape)?;
        let kept = Prepacked {
            b: prepacked.then(|| prepacked_type(&contraction, nr)),
            a: prepacked_a.then(|| prepacked_a_type(&contraction, mr)),
        };
        splice(context, nest, &contraction, &text, fill, kept)?;
        Ok(Some(format!(
            "register tile {mr}x{nr} ({mr} rows x {nv} vectors of {}; {} accumulators){}, cache tile {mc} rows x {}{kc} \
reductions (B micro-panel {} KiB{} of {} KiB L1, A block {} KiB{} of {} KiB L2){}{}",
            width,
            mr * nv,
            match (contraction.collapsed, contraction.row_group.len()) {
                (Some((_, w)), _) => format!(" over {n} columns (rows of {w} flattened)"),
                (None, loops) if loops > 1 => format!(" over {m} rows ({loops} loops flattened)"),
                _ => String::new(),
            },
            if nc > 0 { format!("{nc} columns x ") } else { String::new() },
            kc * nr * 4 * inner_trips / 1024,
            if prepacked { ", prepacked" } else if pack { ", packed" } else { "" },
            self.l1 / 1024,
            mc * kc * inner_trips * 4 / 1024,
            if prepacked_a {
                ", prepacked".to_string()
            } else if a_span == k0 {
                ", packed whole".to_string()
            } else if a_span > 0 {
                format!(", packed {a_span} reductions at a time")
            } else if pack_a {
                ", packed".to_string()
            } else {
                String::new()
            },
            self.l2 / 1024,
            match (prepacked, prepacked_a) {
                (false, false) => String::new(),
                (b, a) => format!(
                    "; {} packed once per parameter version ({} KiB kept)",
                    match (b, a) {
                        (true, true) => "A and B",
                        (true, false) => "B",
                        _ => "A",
                    },
                    (if b { prepacked_elements(&contraction, nr) } else { 0 } + if a { prepacked_a_elements(&contraction, mr) } else { 0 }) * 4 / 1024
                ),
            },
            match parallel {
                Parallel::None => String::new(),
                Parallel::Outer(d) => format!("; loop {d} in parallel"),
                Parallel::RowBlocks => "; row blocks in parallel".to_string(),
                Parallel::Columns => "; column panels in parallel".to_string(),
            }
        )))
    }
}

/// The columns of C a row block of `mc` rows takes at a time (whole
/// panels of `nr`; 0: all `n` at once), each column block running every
/// reduction block (`k0` steps of the first reduction in blocks of `kc`,
/// `inner` steps of the others per step).
///
/// Each reduction block adds its sums to the row block's C, which stays
/// in L2 between blocks only when it fits (a quarter of it, beside A's
/// block and B's panels). A wider C (a 56x56 map's 3136 pixels x 64
/// channels, 800 KiB; 258 rows of a 3072-wide linear, 3 MiB) went to L3
/// and back once per KC block. But each column block reads the row
/// block's A again: from L2 when A fits there too, else from further out;
/// then the C passes saved must outweigh the A passes added twice over (a
/// ConvNeXt 384 -> 96 linear saved as many bytes of C as it read again of
/// A, and ran 5% slower).
fn column_block(mc: i64, n: i64, nr: i64, k0: i64, kc: i64, inner: i64, l2: i64) -> i64 {
    let k_blocks = (k0 + kc - 1) / kc;
    let budget = l2 / 4;
    if k_blocks < 2 || mc * n * 4 <= budget {
        return 0;
    }
    let most = ((budget / (mc * 4)) / nr).max(1) * nr;
    let blocks = (n + most - 1) / most;
    let nc = ((n + blocks - 1) / blocks + nr - 1) / nr * nr;
    if nc >= n {
        return 0;
    }
    let steps = k0 * inner;
    let a_stays = mc * steps * 4 <= budget;
    let c_saved = (k_blocks - 1) * n * 8;
    let a_added = ((n + nc - 1) / nc - 1) * steps * 4;
    if a_stays || c_saved > 2 * a_added {
        nc
    } else {
        0
    }
}

/// Makes one loop of two that together walk one dimension of C: loops `a`
/// over `0..Ea` and `b` over `0..Eb` that every index of every access uses
/// only as `f * (Eb * a + b)` (`f` may be 0), and C's write index uses.
/// `b` then runs over `0..Ea * Eb` and `a` once. Reshape propagation leaves
/// such pairs: ViT's query-key-value projection, a 197x768x2304 product
/// whose output is viewed as `197 x 3 x 768`, reached this pass with its
/// columns as `768 * a + b` and was left to plain vectorized loops (one
/// output row at a time, all 7 MB of weights read per row). Only loops of
/// C are merged, never reductions, so the order of each element's sum is
/// the original one; which C element comes first is the kernel's choice
/// anyway.
fn merge_split_loops(s: &mut Statement) {
    let extent = |s: &Statement, d: usize| match s.bounds[d].constant() {
        Some((0, upper)) if s.bounds[d].step == 1 && upper > 1 => Some(upper),
        _ => None,
    };
    let Some(c_write) = s.accesses.iter().position(|a| a.write) else { return };
    let depth = s.loops.len();
    loop {
        let pair = (0..depth).flat_map(|a| (0..depth).map(move |b| (a, b))).find(|&(a, b)| {
            let (Some(_), Some(eb)) = (extent(s, a), extent(s, b)) else { return false };
            a != b
                && s.accesses[c_write].indices.iter().any(|e| e.coefficient(b).is_some_and(|f| f != 0))
                && s.accesses.iter().flat_map(|access| &access.indices).all(|e| {
                    matches!((e.coefficient(a), e.coefficient(b)), (Some(fa), Some(fb)) if fa == eb * fb)
                })
        });
        let Some((a, b)) = pair else { return };
        let merged = extent(s, a).unwrap_or(1) * extent(s, b).unwrap_or(1);
        let dims: Vec<Aff> = (0..depth).map(|d| if d == a { Aff::Const(0) } else { Aff::Dim(d) }).collect();
        for access in &mut s.accesses {
            access.indices = access.indices.iter().map(|e| e.substitute(&dims)).collect();
        }
        s.bounds[b].upper = vec![Aff::Const(merged)];
        s.bounds[a].upper = vec![Aff::Const(1)];
    }
}

/// Would the lines of A that a register tile reads in place between two
/// steps of the blocked reduction crowd L1 sets? Those are its `mr` rows
/// at every step of the inner reductions (a convolution's taps, which
/// read neighbouring pixels): each line is used again one blocked step
/// later, after all of them. A line at byte `a` falls in set `(a mod
/// period) / 64` (`period` = L1 size / ways); half of a set's `ways` or
/// more taken by A's lines (the rest holds B's panel and C), or a stride
/// we cannot tell, is aliasing. Rows alone missed the taps: a 3x3
/// convolution over a channels-last 7 x 7 x 512 map reads 8 pixels x 3
/// rows of taps 2 KiB apart, all in two sets of a 32 KiB 8-way L1, and ran
/// at half of oneDNN's speed read in place (Zen 3).
fn a_lines_alias(s: &Statement, scop: &Scop, c: &Contraction, mr: i64, inner: &[usize], period: i64, ways: i64) -> bool {
    let access = &s.accesses[c.a];
    let shape = &scop.arrays[access.array].shape;
    if shape.len() != access.indices.len() || shape.iter().any(|n| *n <= 0) {
        return true;
    }
    // A's byte stride along loop `d`.
    let stride = |d: usize| -> Option<i64> {
        let mut elements = 0i64;
        for (k, index) in access.indices.iter().enumerate() {
            elements += index.coefficient(d)? * shape[k + 1..].iter().product::<i64>();
        }
        Some(elements * 4)
    };
    // The first register tile's rows: `i` (a group of one loop), or the
    // flattened row loops, each `(bytes per step, row stride, extent)`.
    let group = if c.row_group.is_empty() { vec![(c.roles.i, 1, mr)] } else { c.row_group.clone() };
    let Some(row_loops) = group.iter().map(|&(d, row_stride, extent)| Some((stride(d)?, row_stride, extent))).collect::<Option<Vec<_>>>()
    else {
        return true;
    };
    let mut offsets: Vec<i64> =
        (0..mr).map(|r| row_loops.iter().map(|&(step, row_stride, extent)| (r / row_stride) % extent * step).sum()).collect();
    for &d in inner {
        let Some(step) = stride(d) else { return true };
        let steps = trip(c.bounds[d]);
        if offsets.len() as i64 * steps > 1 << 16 {
            return true;
        }
        offsets = offsets.iter().flat_map(|o| (0..steps).map(move |t| o + t * step)).collect();
    }
    let lines: std::collections::BTreeSet<i64> = offsets.iter().map(|o| o.div_euclid(LINE_BYTES)).collect();
    let mut lines_per_set = std::collections::BTreeMap::new();
    for line in lines {
        *lines_per_set.entry(line.rem_euclid(period.max(LINE_BYTES) / LINE_BYTES)).or_insert(0i64) += 1;
    }
    lines_per_set.values().any(|lines| 2 * lines >= ways)
}

fn trip((lower, upper): (i64, i64)) -> i64 {
    upper - lower
}

/// The contraction pattern, or `None`.
/// `c_shape`: C's shape when C is contiguous (identity layout), else empty;
/// `few_rows`: row counts below which products are flattened together.
fn recognize<'s, 'c, 'a>(
    s: &'s Statement<'c, 'a>,
    c_shape: &[i64],
    few_rows: i64,
) -> Result<Option<Contraction<'s, 'c, 'a>>, String> {
    let depth = s.loops.len();
    let bounds: Option<Vec<(i64, i64)>> = s.bounds.iter().map(|b| b.constant().filter(|_| b.step == 1)).collect();
    let Some(bounds) = bounds else { return Ok(None) };
    let loads = s.accesses.iter().enumerate().filter(|(_, a)| !a.write).map(|(k, _)| k).collect::<Vec<_>>();
    let writes = s.accesses.iter().enumerate().filter(|(_, a)| a.write).map(|(k, _)| k).collect::<Vec<_>>();
    // Ops computing a loop-invariant value from values defined outside the
    // nest (a scale converted from f64: `arith.truncf %cst`).
    let invariant = |op: &OperationRef| {
        op.region_count() == 0
            && op.result_count() == 1
            && !is_named(*op, "arith.mulf")
            && !is_named(*op, "arith.addf")
            && !is_named(*op, "affine.load")
            && !is_named(*op, "affine.store")
            && op.operands().all(|v| {
                ffi::defining_op(v).is_none_or(|owner| !s.ops.contains(&owner))
            })
    };
    if writes.len() != 1 || loads.len() < 3 {
        return Ok(None);
    }
    let c_write = writes[0];
    let store = s.accesses[c_write].op;
    let f32 = store.operand(0).map(|v| v.r#type().to_string() == "f32").unwrap_or(false);
    if !f32 || s.accesses.iter().any(|a| !a.exact || a.indices.iter().any(Aff::uses_symbols)) {
        return Ok(None);
    }
    let w = &s.accesses[c_write];
    let Some(&c_read) = loads.iter().find(|k| s.accesses[**k].array == w.array && s.accesses[**k].indices == w.indices) else {
        return Ok(None);
    };
    let others: Vec<usize> = loads.iter().copied().filter(|k| *k != c_read).collect();
    if others.iter().any(|k| s.accesses[*k].array == w.array) {
        return Ok(None);
    }
    // The data flow: store(addf(load C, mulf(x, y))), x and y each a load
    // of A or B, possibly scaled by a value from outside the nest
    // (attention's 1/sqrt(d) on both operands).
    // The add producing the stored value (an expression for A may hold
    // adds of its own: a bias before a GELU).
    let Some(add) = store.operand(0).ok().and_then(ffi::defining_op).filter(|op| is_named(*op, "arith.addf") && s.ops.contains(op)) else {
        return Ok(None);
    };
    let key = |v: Value| v.to_raw().ptr as usize;
    let producer = |v: Value<'c, 'a>| -> Option<OperationRef<'c, 'a>> {
        let owner = ffi::defining_op(v)?;
        s.ops.contains(&owner).then_some(owner)
    };
    let load_of = |v: Value<'c, 'a>| producer(v).and_then(|op| others.iter().copied().find(|k| s.accesses[*k].op == op));
    // (load, scale) of a product operand.
    let factor = |v: Value<'c, 'a>| -> Option<(usize, Option<Value<'c, 'a>>)> {
        if let Some(k) = load_of(v) {
            return Some((k, None));
        }
        let op = producer(v).filter(|op| is_named(*op, "arith.mulf"))?;
        let (x, y) = (op.operand(0).ok()?, op.operand(1).ok()?);
        let outside = |v: Value<'c, 'a>| producer(v).is_none_or(|op| invariant(&op));
        match (load_of(x), load_of(y)) {
            (Some(k), None) if outside(y) => Some((k, Some(y))),
            (None, Some(k)) if outside(x) => Some((k, Some(x))),
            _ => None,
        }
    };
    let (Ok(stored), Ok(a0), Ok(a1)) = (store.operand(0), add.operand(0), add.operand(1)) else { return Ok(None) };
    let c_value = s.accesses[c_read].op.result(0).map(|r| key(r.into())).unwrap_or(0);
    let product = if key(a0) == c_value { a1 } else { a0 };
    let add_result = add.result(0).map(|r| key(r.into())).unwrap_or(0);
    if key(stored) != add_result || (key(a0) != c_value && key(a1) != c_value) {
        return Ok(None);
    }
    let Some(mul) = producer(product).filter(|op| is_named(*op, "arith.mulf")) else { return Ok(None) };
    let (Ok(x), Ok(y)) = (mul.operand(0), mul.operand(1)) else { return Ok(None) };
    // Each product operand is a load, possibly scaled; at most one (then A)
    // may be any expression of loads (packing evaluates it).
    let (fx, fy) = (factor(x), factor(y));
    let (kx, sx, ky, sy, a_expr) = match (fx, fy) {
        (Some((kx, sx)), Some((ky, sy))) => (kx, sx, ky, sy, None),
        (Some((k, scale)), None) | (None, Some((k, scale))) => {
            let other = if fx.is_some() { y } else { x };
            let Some(expr) = operand_expr::slice(s, other) else { return Ok(None) };
            let Some(&first) = expr.loads.first() else { return Ok(None) };
            (first, None, k, scale, Some(expr))
        }
        (None, None) => return Ok(None),
    };
    // Every op of the statement is accounted for: C's load, the add, the
    // product, its operands (scales computed from outside values included)
    // and index arithmetic.
    let mut known: Vec<OperationRef> = vec![store, s.accesses[c_read].op, add, mul];
    for (k, scale) in [(kx, sx), (ky, sy)] {
        known.push(s.accesses[k].op);
        if let Some(scale) = scale {
            known.extend(producer(scale).filter(|op| invariant(op)));
            known.extend(s.ops.iter().copied().filter(|op| is_named(*op, "arith.mulf") && op.operands().any(|v| key(v) == key(scale))));
        }
    }
    if let Some(expr) = &a_expr {
        known.extend(expr.ops.iter().copied());
    }
    if kx == ky || s.ops.iter().any(|op| !known.contains(op) && !is_named(*op, "affine.apply")) {
        return Ok(None);
    }
    let scale_of = |k: usize| if k == kx { sx } else { sy };
    // Roles.
    let Some((last, front)) = w.indices.split_last() else { return Ok(None) };
    let Aff::Dim(j) = *last else { return Ok(None) };
    if front.iter().any(|e| e.uses_dim(j)) {
        return Ok(None);
    }
    let contiguous = |k: usize| {
        let indices = &s.accesses[k].indices;
        indices.split_last().is_some_and(|(l, f)| {
            !f.iter().any(|e| e.uses_dim(j)) && l.coefficient(j) == Some(1)
        })
    };
    // B read along `j` with a stride: B^T (attention's Q K^T, `j` moves
    // another index) or a strided convolution's input (`2w + kw`). The
    // packing copy gathers it into contiguous vectors.
    let transposed = |k: usize| {
        let indices = &s.accesses[k].indices;
        let moving: Vec<&Aff> = indices.iter().filter(|e| e.uses_dim(j)).collect();
        moving.len() == 1 && moving[0].coefficient(j).is_some_and(|c| c >= 1) && !contiguous(k)
    };
    let uniform = |k: usize| !s.accesses[k].indices.iter().any(|e| e.uses_dim(j));
    let b_like = |k: usize| contiguous(k) || transposed(k);
    let (a, b) = match &a_expr {
        // The expression is A: none of its loads may move with `j`.
        Some(expr) if expr.loads.iter().all(|k| uniform(*k)) && b_like(ky) => (kx, ky),
        Some(_) => return Ok(None),
        None => match (uniform(kx), b_like(ky), uniform(ky), b_like(kx)) {
            (true, true, _, _) => (kx, ky),
            (_, _, true, true) => (ky, kx),
            _ => return Ok(None),
        },
    };
    let b_transposed = !contiguous(b);
    let b_scale = scale_of(b);
    // A scaled A is an expression too: packing applies the scale.
    let a_expr = match (a_expr, scale_of(a)) {
        (None, Some(_)) => {
            let Some(expr) = operand_expr::slice(s, if a == kx { x } else { y }) else { return Ok(None) };
            Some(expr)
        }
        (a_expr, _) => a_expr,
    };
    let written: Vec<usize> = (0..depth).filter(|d| w.indices.iter().any(|e| e.uses_dim(*d))).collect();
    // A loop that runs once and is in no index (a unit batch dimension)
    // stays an outer loop; the reductions are the other loops in no C index.
    let runs_once = |d: usize| bounds[d] == (0, 1);
    let reductions: Vec<usize> = (0..depth).filter(|d| !written.contains(d) && !runs_once(*d)).collect();
    if reductions.is_empty() {
        return Ok(None);
    }
    // Row dimension: in C, not in B; prefer the second-to-last index of C.
    let b_uses = |d: usize| s.accesses[b].indices.iter().any(|e| e.uses_dim(d));
    let a_reads = |d: usize| {
        s.accesses[a].indices.iter().any(|e| e.uses_dim(d))
            || a_expr.as_ref().is_some_and(|expr| expr.loads.iter().any(|k| s.accesses[*k].indices.iter().any(|e| e.uses_dim(d))))
    };
    let candidates: Vec<usize> = written.iter().copied().filter(|d| *d != j && !b_uses(*d)).collect();
    // C's indices that can hold rows: all before `j`, less a last one that
    // moves B and not A (a column loop the columns take in: `C[s, b, t, j]`
    // with B `[k, t, j]`, nn.MultiheadAttention's packed Q/K/V projection
    // as `3 x 256` columns; its rows are `(s, b)`).
    let rows_front = match front.split_last() {
        Some((Aff::Dim(h), rest)) if b_uses(*h) && !a_reads(*h) && !rest.iter().any(|e| e.uses_dim(*h)) => rest,
        _ => front,
    };
    let preferred = rows_front.last().and_then(|e| match e {
        Aff::Dim(d) if candidates.contains(d) => Some(*d),
        _ => None,
    });
    let rows_shape = &c_shape[..c_shape.len().min(rows_front.len() + 1)];
    // Or several loops flattened into C's row index (`56 * h + w`).
    let row_group = match rows_front.split_last() {
        Some((last, rest)) if preferred.is_none() => flattened(last, &bounds, &candidates)
            .filter(|group| group.iter().all(|(d, _, _)| !rest.iter().any(|e| e.uses_dim(*d))))
            .unwrap_or_default(),
        // Or C's indices before `j` are each a row loop over its whole
        // extent in a contiguous C, the last of few rows (`C[l, n, j]`,
        // attention's projections over sequence-first activations: 8 rows
        // per sequence position at batch 8): those loops are rows of one
        // product over their product, B packed once for all of them
        // instead of once per outer iteration. Products of many rows each
        // (`C[b, l, j]`, 197 tokens) stay separate: flattened, A would be
        // gathered by the packing copy instead of read in place.
        Some((Aff::Dim(last), _)) if bounds[*last].1 - bounds[*last].0 < few_rows => {
            leading_rows(rows_front, &bounds, &candidates, rows_shape)
        }
        _ => Vec::new(),
    };
    let grouped = row_group.last().map(|(d, _, _)| *d);
    let Some(i) = preferred.or(grouped).or_else(|| candidates.last().copied()) else {
        return Err("not register-tiled: every dimension of C also moves B (no row reuse)".into());
    };
    if !w.indices.contains(&Aff::Dim(i)) && row_group.is_empty() {
        return Ok(None);
    }
    let in_group = |d: usize| row_group.iter().any(|(g, _, _)| *g == d);
    let mut outer: Vec<usize> = written.iter().copied().filter(|d| *d != i && *d != j && !in_group(*d)).collect();
    outer.extend((0..depth).filter(|d| !written.contains(d) && runs_once(*d)));
    outer.sort();
    let collapsible = match front.split_last() {
        Some((Aff::Dim(h), rest)) if *h != i && !a_reads(*h) && !rest.iter().any(|e| e.uses_dim(*h)) => Some(*h),
        _ => None,
    };
    Ok(Some(Contraction {
        statement: s,
        bounds,
        roles: Roles { i, j, reductions, outer },
        a,
        b,
        b_transposed,
        b_scale,
        a_expr,
        c_read,
        c_write,
        collapsible,
        collapsed: None,
        row_group,
    }))
}

/// Why an f32 multiply-accumulate (`C = C + x * y`, stored where it was
/// loaded) is not one `recognize` takes, or None for another statement.
fn untiled_product(s: &Statement) -> Option<String> {
    let write = s.accesses.iter().find(|a| a.write)?;
    let stored = write.op.operand(0).ok()?;
    if stored.r#type().to_string() != "f32" {
        return None;
    }
    let add = ffi::defining_op(stored).filter(|op| is_named(*op, "arith.addf") && s.ops.contains(op))?;
    let memref = write.op.operand(1).ok()?;
    let reads_c = |v: Value| {
        ffi::defining_op(v).is_some_and(|op| is_named(op, "affine.load") && op.operand(0).ok() == Some(memref))
    };
    let multiplies = |v: Value| ffi::defining_op(v).is_some_and(|op| is_named(op, "arith.mulf"));
    let (p, q) = (add.operand(0).ok()?, add.operand(1).ok()?);
    if !(reads_c(p) && multiplies(q) || reads_c(q) && multiplies(p)) {
        return None;
    }
    if let Some(inexact) = s.accesses.iter().find(|a| !a.exact) {
        let through = inexact.op.operand(usize::from(inexact.write)).ok().and_then(ffi::defining_op);
        return Some(format!(
            "a multiply-accumulate with an access the analysis cannot see exactly (through '{}')",
            through.map_or("an unknown value".to_string(), pb_support::ir::op_name)
        ));
    }
    let names: Vec<String> = (0..s.loops.len()).map(|d| format!("d{d}")).collect();
    let written: Vec<String> = write.indices.iter().map(|e| e.to_isl(&names, &[])).collect();
    Some(match write.indices.last() {
        Some(Aff::Dim(_)) => format!("a multiply-accumulate of a shape the tiles do not take (C[{}])", written.join(", ")),
        _ => format!("a multiply-accumulate whose C index is not one column loop (C[{}])", written.join(", ")),
    })
}

/// The trailing indices of C's `front` (all of C's indices but the last)
/// that are each one row loop from 0 over its dimension's whole extent, as
/// a flattened row group (`(loop, stride, extent)` outermost first), when
/// there are at least two; `c_shape` is C's shape when it is contiguous.
fn leading_rows(front: &[Aff], bounds: &[(i64, i64)], candidates: &[usize], c_shape: &[i64]) -> Vec<(usize, i64, i64)> {
    if c_shape.len() != front.len() + 1 {
        return Vec::new();
    }
    let mut group: Vec<(usize, i64, i64)> = Vec::new();
    let mut stride = 1;
    for (k, index) in front.iter().enumerate().rev() {
        let Aff::Dim(d) = index else { break };
        if !candidates.contains(d) || bounds[*d] != (0, c_shape[k]) || group.iter().any(|(g, _, _)| g == d) {
            break;
        }
        if front.iter().enumerate().any(|(other, e)| other != k && e.uses_dim(*d)) {
            break;
        }
        group.insert(0, (*d, stride, c_shape[k]));
        stride *= c_shape[k];
    }
    if group.len() < 2 {
        return Vec::new();
    }
    group
}

/// `index` as loops flattened into one dimension, `(loop, stride, extent)`
/// outermost first: a sum of at least two `stride * loop` terms over
/// `candidates` (loops from 0) whose strides are mixed-radix (the innermost
/// 1, each next the previous times its extent), no constant term.
fn flattened(index: &Aff, bounds: &[(i64, i64)], candidates: &[usize]) -> Option<Vec<(usize, i64, i64)>> {
    let loops = crate::contraction_roles::flattened_loops(index, bounds).filter(|l| l.len() >= 2)?;
    if !loops.iter().all(|d| candidates.contains(d)) {
        return None;
    }
    let mut stride: i64 = loops.iter().map(|d| bounds[*d].1).product();
    Some(loops
        .iter()
        .map(|&d| {
            stride /= bounds[d].1;
            (d, stride, bounds[d].1)
        })
        .collect())
}

/// The MLIR text of the tiled kernel, as a function of the three memrefs.
/// Sizes and choices of one kernel.
struct Shape {
    mr: i64,
    nv: i64,
    width: i64,
    kc: i64,
    mc: i64,
    /// Above 0: the columns of each row block are taken `nc` at a time
    /// (whole panels), each column block running every reduction block
    /// (its C stays in L2 across them). Never with parallel column panels.
    nc: i64,
    pack: bool,
    pack_a: bool,
    parallel: Parallel,
    /// C was zero-filled just before (the fill now covers only what the
    /// remainder nests compute): the first KC block stores its sums
    /// instead of adding them to C.
    first_block_stores: bool,
    /// B is read from its copy packed once (`%BP`, all panels in order,
    /// the last zero-padded), filled when `%stale` (see `prepacked_type`).
    prepacked: bool,
    /// A likewise (`%AP`, all row tiles in register-tile order; see
    /// `prepacked_a_type`). `pack_a` is then false.
    prepacked_a: bool,
    /// Above 0: A is packed on every call this many steps of the first
    /// reduction at a time (whole reduction blocks, or all of them), each
    /// span before the column panels' parallel loop runs its blocks, into
    /// a stack buffer laid out as the prepacked one (`%AW`). `pack_a` is
    /// then false.
    a_span: i64,
    /// Cores the packing of an A span is shared among.
    cores: i64,
}

/// The types (text) of the buffers kept between calls that a kernel
/// reads, when it has them: B's and A's packed copies.
struct Prepacked {
    b: Option<String>,
    a: Option<String>,
}

/// Which loop of the kernel runs in parallel.
#[derive(Clone, Copy, PartialEq)]
enum Parallel {
    None,
    /// This outer dimension (batch, heads): each thread takes whole
    /// matrices, one parallel region for all of them.
    Outer(usize),
    /// The row blocks of each matrix (a parallel region per matrix).
    RowBlocks,
    /// The full column panels of each (row block, KC block): a parallel
    /// region each, every thread packing its own B panels.
    Columns,
}

/// `name`'s vector index for the packing copy's row-segment loops (`%hh`,
/// `%ww`) of flattened columns.
const ROW_SEGMENT: i64 = -2;

/// The bytes of a cache line (64 on every x86 core this targets).
const LINE_BYTES: i64 = 64;
/// The f32 elements of a cache line.
const LINE_FLOATS: i64 = LINE_BYTES / 4;

fn kernel_text(c: &Contraction, shape: &Shape) -> Result<String, String> {
    let Shape { mr, nv, width, kc, mc, nc, pack, pack_a, parallel, first_block_stores, prepacked, prepacked_a, a_span, cores } = *shape;
    // A prepacked B needs no packing per call.
    let pack = pack && !prepacked;
    let s = c.statement;
    let depth = s.loops.len();
    let Roles { i, j, reductions, outer } = &c.roles;
    let (i_lo, i_hi) = c.rows();
    let (j_lo, j_hi) = c.columns();
    let nr = nv * width;
    let m_main = i_lo + (i_hi - i_lo) / mr * mr;
    let n_main = j_lo + (j_hi - j_lo) / nr * nr;
    // Rows and columns that do not fill a register tile: computed by
    // smaller tiles of the same kernel (the row tail: fewer rows; the
    // column tail: fewer vectors, from a zero-padded panel, written to C
    // through a tile-local buffer).
    let row_tail = i_hi - m_main;
    let col_tail = j_hi - n_main;
    let nv_tail = (col_tail + width - 1) / width;
    // The row block holding the row tail (row blocks are whole register
    // tiles, so the tail starts inside the last one).
    let last_ib = i_lo + (i_hi - i_lo - 1) / mc * mc;
    let ty = |k: usize| s.accesses[k].op.operand(if s.accesses[k].write { 1 } else { 0 }).map(|v| v.r#type().to_string());
    let (ta, tb, tc) = (ty(c.a).map_err(|e| e.to_string())?, ty(c.b).map_err(|e| e.to_string())?, ty(c.c_write).map_err(|e| e.to_string())?);
    let vector = format!("vector<{width}xf32>");
    // Names of the loop dims in the kernel, per (row r, vector v).
    // `v < 0`: the column is `%jr + %jj` (the transposing copy).
    // The kernel's column of vector `v` (`v < 0`: of the copy's `%jj`).
    let column = |v: i64| if v < 0 { "%jr + %jj".to_string() } else { format!("%jr + {}", v * width) };
    let name = |d: usize, r: i64, v: i64| -> String {
        if let Some(position) = c.row_group.iter().position(|(g, _, _)| *g == d) {
            let (_, stride, extent) = c.row_group[position];
            let quotient = if stride == 1 { format!("%ir + {r}") } else { format!("(%ir + {r}) floordiv {stride}") };
            if position == 0 {
                quotient
            } else {
                format!("({quotient}) mod {extent}")
            }
        } else if d == *i {
            format!("%ir + {r}")
        } else if let Some((h, w)) = c.collapsed.filter(|(h, _)| d == *h || d == *j) {
            if v == ROW_SEGMENT {
                (if d == h { "%hh" } else { "%ww" }).to_string()
            } else {
                format!("({}) {} {w}", column(v), if d == h { "floordiv" } else { "mod" })
            }
        } else if d == *j {
            column(v)
        } else if let Some(p) = reductions.iter().position(|k| *k == d) {
            format!("%k{p}")
        } else {
            format!("%o{d}")
        }
    };
    let index = |k: usize, r: i64, v: i64| -> String {
        let dims: Vec<String> = (0..depth).map(|d| format!("({})", name(d, r, v))).collect();
        s.accesses[k].indices.iter().map(|e| e.to_mlir_named(&dims, &[])).collect::<Vec<_>>().join(", ")
    };
    // C's indices: through its collapsed view (`%Cc`, the last two indices
    // one) when the columns are flattened.
    let (c_name, c_type) = match c.collapsed {
        Some(_) => ("%Cc", collapsed_type(&ty(c.c_write).map_err(|e| e.to_string())?).ok_or("C's type does not collapse")?),
        None => ("%C", ty(c.c_write).map_err(|e| e.to_string())?),
    };
    let c_index = |k: usize, r: i64, v: i64| -> String {
        let Some(_) = c.collapsed else { return index(k, r, v) };
        let dims: Vec<String> = (0..depth).map(|d| format!("({})", name(d, r, v))).collect();
        let indices = &s.accesses[k].indices;
        let mut parts: Vec<String> = indices[..indices.len() - 2].iter().map(|e| e.to_mlir_named(&dims, &[])).collect();
        parts.push(column(v));
        parts.join(", ")
    };
    let mut t = String::new();
    // An expression for A reads its own memrefs (%X..) and outside values (%V..).
    let mut extra = String::new();
    if let Some(expr) = &c.a_expr {
        for (n, k) in expr.loads.iter().enumerate() {
            extra.push_str(&format!(", %X{n}: {}", ty(*k).map_err(|e| e.to_string())?));
        }
        for (n, v) in expr.outside.iter().enumerate() {
            extra.push_str(&format!(", %V{n}: {}", v.r#type()));
        }
    }
    let bp_type = prepacked_type(c, nr);
    let ap_type = prepacked_a_type(c, mr);
    let mut prepacked_args = String::new();
    if prepacked {
        prepacked_args.push_str(&format!(", %BP: {bp_type}"));
    }
    if prepacked_a {
        prepacked_args.push_str(&format!(", %AP: {ap_type}"));
    }
    if prepacked || prepacked_a {
        prepacked_args.push_str(", %stale: i1");
    }
    t.push_str(&format!("func.func @pb_kernel(%A: {ta}, %B: {tb}, %C: {tc}, %sb: f32{prepacked_args}{extra}) {{\n"));
    if c.collapsed.is_some() {
        let rank = s.accesses[c.c_write].indices.len();
        let groups: Vec<String> = (0..rank - 2).map(|d| format!("[{d}]")).chain(std::iter::once(format!("[{}, {}]", rank - 2, rank - 1))).collect();
        t.push_str(&format!("%Cc = memref.collapse_shape %C [{}] : {tc} into {c_type}\n", groups.join(", ")));
    }
    // The kernel's stack buffers (packed blocks and panels outside
    // parallel bodies) live only while it runs: without a scope LLVM gives
    // every kernel's buffers a place in the caller's frame at once, and a
    // 12-layer GPT-2 (175 KiB per packed A block) overflowed the 8 MiB
    // stack.
    t.push_str("memref.alloca_scope {\n");
    let (k_lo, k_hi) = c.bounds[reductions[0]];
    // The position in a packed copy (`prepacked_shape`) of the block
    // starting at `iv` (blocks of `block` from `lo`), reduction step `%k0,
    // %k1..` (the first counted from `k0_from`) and place `within` the
    // block.
    let packed_from = |iv: &str, lo: i64, block: i64, k0_from: &str, within: &str| -> String {
        let mut parts = vec![format!("({iv} - {lo}) floordiv {block}"), format!("%k0 - {k0_from}")];
        for (p, k) in reductions[1..].iter().enumerate() {
            parts.push(format!("%k{} - {}", p + 1, c.bounds[*k].0));
        }
        parts.push(within.to_string());
        parts.join(", ")
    };
    let packed_at = |iv: &str, lo: i64, block: i64, within: &str| packed_from(iv, lo, block, &k_lo.to_string(), within);
    // The prepacked B's position of the panel at `%jr`, panel column
    // `column`.
    let bp_at = |column: &str| packed_at("%jr", j_lo, nr, column);
    // Opens loops over every reduction step (`%k0, %k1..`): the packing
    // copies of whole operands.
    let every_step = |t: &mut String| {
        t.push_str(&format!("affine.for %k0 = {k_lo} to {k_hi} {{\n"));
        for (p, k) in reductions[1..].iter().enumerate() {
            let (lo, hi) = c.bounds[*k];
            t.push_str(&format!("affine.for %k{} = {lo} to {hi} {{\n", p + 1));
        }
    };
    if prepacked {
        // Packs all of B when the caller's parameters are new (the pool's
        // prepared flag is 0): each panel's columns, the last panel's
        // missing ones as zeros.
        t.push_str("scf.if %stale {\n");
        if parallel == Parallel::None {
            t.push_str(&format!("affine.for %jr = {j_lo} to {j_hi} step {nr} {{\n"));
        } else {
            t.push_str(&format!("affine.parallel (%jr) = ({j_lo}) to ({j_hi}) step ({nr}) {{\n"));
        }
        every_step(&mut t);
        let columns = if col_tail > 0 { format!("min affine_map<(d0) -> ({nr}, {j_hi} - d0)>(%jr)") } else { nr.to_string() };
        t.push_str(&format!("affine.for %jj = 0 to {columns} {{\n"));
        t.push_str(&format!("%p0 = affine.load %B[{}] : {tb}\n", index(c.b, 0, -1)));
        t.push_str(&format!("affine.store %p0, %BP[{}] : {bp_type}\n}}\n", bp_at("%jj")));
        if col_tail > 0 {
            t.push_str(&format!("affine.for %jj = max affine_map<(d0) -> (0, {j_hi} - d0)>(%jr) to {nr} {{\n"));
            t.push_str(&format!("%pz = arith.constant 0.000000e+00 : f32\naffine.store %pz, %BP[{}] : {bp_type}\n}}\n", bp_at("%jj")));
        }
        t.push_str(&"}\n".repeat(reductions.len() + 2));
    }
    // A's packed copy at row tile `%ir`, reduction step `%k0, %k1..`, row
    // `r` of the tile.
    let ap_at = |r: i64| packed_at("%ir", i_lo, mr, &r.to_string());
    // The packed span of A (`a_span` steps of the first reduction from
    // `%sk`) and its position at row tile `%ir`, step `%k0, %k1..`, row `r`.
    let aw_type = {
        let mut shape = prepacked_shape(c, c.rows(), mr);
        shape[1] = a_span.max(1);
        memref_f32(&shape)
    };
    let aw_at = |r: i64| packed_from("%ir", i_lo, mr, "%sk", &r.to_string());
    if prepacked_a {
        // Packs all of A when the caller's parameters are new: each row
        // tile's rows for every reduction step (the row tail's tile only
        // its rows; the kernel reads no others).
        t.push_str("scf.if %stale {\n");
        let mut tiles = vec![(i_lo, m_main, mr)];
        if row_tail > 0 {
            tiles.push((m_main, i_hi, row_tail));
        }
        for (lo, hi, rows) in tiles {
            if lo >= hi {
                continue;
            }
            if parallel == Parallel::None || rows < mr {
                t.push_str(&format!("affine.for %ir = {lo} to {hi} step {mr} {{\n"));
            } else {
                t.push_str(&format!("affine.parallel (%ir) = ({lo}) to ({hi}) step ({mr}) {{\n"));
            }
            every_step(&mut t);
            for r in 0..rows {
                t.push_str(&format!("%pa{r} = affine.load %A[{}] : {ta}\n", index(c.a, r, 0)));
                t.push_str(&format!("affine.store %pa{r}, %AP[{}] : {ap_type}\n", ap_at(r)));
            }
            t.push_str(&"}\n".repeat(reductions.len() + 1));
        }
        t.push_str("}\n");
    }
    // The prepacked B comes from memory (a model's weights outgrow the
    // caches): the first register tile of each panel block would wait on
    // all of it. Each tile's reduction steps ask for one vector of the
    // next block the kernel reads (the same panel's next KC block when the
    // panels are the outer loop, else the next panel's): tile `t` for
    // vector `t mod NV` of every step, so the first NV tiles of a block
    // fetch all of the next one, through the flattened copy (`%BPf`).
    let mut bp_prefetch = String::new();
    if prepacked {
        let shape = prepacked_shape(c, c.columns(), nr);
        let total: i64 = shape.iter().product();
        let dims: Vec<String> = (0..shape.len()).map(|d| d.to_string()).collect();
        t.push_str(&format!("%BPf = memref.collapse_shape %BP [[{}]] : {bp_type} into memref<{total}xf32>\n", dims.join(", ")));
        // The linear position of (panel, steps.., column), then the
        // distance to the next block.
        let mut terms = vec![format!("((%jr - {j_lo}) floordiv {nr}) * {}", total / shape[0])];
        for (p, k) in reductions.iter().enumerate() {
            let stride: i64 = shape[p + 2..].iter().product();
            terms.push(format!("(%k{p} - {}) * {stride}", c.bounds[*k].0));
        }
        terms.push(format!("(((%ir - %ib) floordiv {mr}) mod {nv}) * {width}"));
        let step: i64 = shape[2..].iter().product();
        let panels_outer = parallel == Parallel::Columns && !pack_a;
        let distance = if panels_outer { kc * step } else { total / shape[0] };
        bp_prefetch = format!(
            "affine.prefetch %BPf[{} + {distance}], read, locality<2>, data : memref<{total}xf32>\n",
            terms.join(" + ")
        );
    }
    let kernel_top = t.len();
    let mut parallel_region = None;
    for d in outer {
        let (lo, hi) = c.bounds[*d];
        if parallel == Parallel::Outer(*d) {
            t.push_str(&format!("affine.parallel (%o{d}) = ({lo}) to ({hi}) {{\n"));
            parallel_region = Some(t.len());
        } else {
            t.push_str(&format!("affine.for %o{d} = {lo} to {hi} {{\n"));
        }
    }
    let mut allocas = String::new();
    let inner: Vec<(i64, i64)> = reductions[1..].iter().map(|k| c.bounds[*k]).collect();
    let panel_shape: Vec<String> =
        std::iter::once(kc).chain(inner.iter().map(|(lo, hi)| hi - lo)).chain(std::iter::once(nr)).map(|n| n.to_string()).collect();
    let panel_type = format!("memref<{}xf32>", panel_shape.join("x"));
    // The B panel and the column tail's buffer: per thread.
    let mut panel_allocas = String::new();
    if (pack || col_tail > 0) && !prepacked {
        panel_allocas.push_str(&format!("%P = memref.alloca() {{alignment = 64 : i64}} : {panel_type}\n"));
    }
    // The column tail's sums, before the valid columns go to C.
    let tail_type = format!("memref<{mr}x{nr}xf32>");
    if col_tail > 0 {
        panel_allocas.push_str(&format!("%CT = memref.alloca() {{alignment = 64 : i64}} : {tail_type}\n"));
    }
    let a_shape: Vec<String> = [(mc + mr - 1) / mr, kc]
        .into_iter()
        .chain(inner.iter().map(|(lo, hi)| hi - lo))
        .chain(std::iter::once(mr))
        .map(|n| n.to_string())
        .collect();
    let a_type = format!("memref<{}xf32>", a_shape.join("x"));
    let a_index = |r: i64| -> String {
        let mut parts = vec![format!("(%ir - %ib) floordiv {mr}"), "%k0 - %kb".to_string()];
        for (p, (lo, _)) in inner.iter().enumerate() {
            parts.push(format!("%k{} - {lo}", p + 1));
        }
        parts.push(r.to_string());
        parts.join(", ")
    };
    let rows_loop = format!(
        "affine.for %ir = affine_map<(d0) -> (d0)>(%ib) to min affine_map<(d0) -> (d0 + {mc}, {m_main})>(%ib) step {mr} {{\n"
    );
    // The row tail runs once, in the last row block.
    let tail_rows_open = format!(
        "affine.if affine_set<(d0) : (d0 - {last_ib} == 0)>(%ib) {{\naffine.for %ir = {m_main} to {i_hi} step {mr} {{\n"
    );
    // Opens the loops of the inner reductions (`%k1..`: a convolution's taps).
    let inner_loops = |t: &mut String| {
        for (p, (lo, hi)) in inner.iter().enumerate() {
            t.push_str(&format!("affine.for %k{} = {lo} to {hi} {{\n", p + 1));
        }
    };
    let k_loops = |t: &mut String| {
        t.push_str(&format!(
            "affine.for %k0 = affine_map<(d0) -> (d0)>(%kb) to min affine_map<(d0) -> (d0 + {kc}, {k_hi})>(%kb) {{\n"
        ));
        inner_loops(t);
    };
    // Copies a cache line of A's first-reduction steps from `%kq` for each
    // of `rows` rows of the tile at `%ir` (the inner reduction loops open):
    // each row's line read as vectors of up to `width` lanes, then each step
    // of each row stored at `at(r, e)` of `target` (`%AW` or `%PA`).
    let lanes = width.min(LINE_FLOATS);
    let copy_line = |t: &mut String, rows: i64, target: &str, target_type: &str, at: &dyn Fn(i64, i64) -> String| {
        for r in 0..rows {
            for v in 0..LINE_FLOATS / lanes {
                let from = index(c.a, r, 0).replace("(%k0)", &format!("(%kq + {})", v * lanes));
                t.push_str(&format!("%lv{r}_{v} = affine.vector_load %A[{from}] : {ta}, vector<{lanes}xf32>\n"));
            }
        }
        for e in 0..LINE_FLOATS {
            for r in 0..rows {
                t.push_str(&format!("%le{r}_{e} = vector.extract %lv{r}_{}[{}] : f32 from vector<{lanes}xf32>\n", e / lanes, e % lanes));
                t.push_str(&format!("affine.store %le{r}_{e}, {target}[{}] : {target_type}\n", at(r, e)));
            }
        }
    };
    if pack_a {
        allocas.push_str(&format!("%PA = memref.alloca() {{alignment = 64 : i64}} : {a_type}\n"));
    }
    // Each parallel iteration gets its own panels (the body of
    // affine.parallel is an allocation scope); sequential code allocates them
    // once, at the top (an alloca inside a sequential loop would grow the
    // stack).
    // Column panels shared among the threads, A read in place: one
    // parallel loop over all the panels (the column tail's included)
    // outside the row and reduction blocks, instead of a parallel region
    // per reduction block with the tail panel on one thread after it
    // (conv3x3 64->64 at 56x56: 5 regions per call, and 14x14 maps' 3
    // panels + tail ran as 2 + 1, then 1).
    let hoisted = parallel == Parallel::Columns && !pack_a;
    // Packs the span of A at `%sk` (every row tile, `a_span` steps of the
    // first reduction, every step of the others; the row tail's tile only
    // its rows) into `%AW`, in the prepacked layout, the first reduction
    // loop shared among the cores when each gets two steps.
    // (One span holding every step: bounds without `%sk`, which is then
    // the constant first step.)
    let whole_span = a_span >= k_hi - k_lo;
    let span_bounds = if whole_span {
        (format!("{k_lo}"), format!("{k_hi}"))
    } else {
        ("%sk".to_string(), format!("min({k_hi}, %sk + {a_span})"))
    };
    // A's loads move with the first reduction contiguously (its last index,
    // step 1, and no other index): the span copy reads whole lines as
    // vectors (see `pack_a_span`).
    let a_rows_contiguous = {
        let k0 = reductions[0];
        s.accesses[c.a].indices.split_last().is_some_and(|(last, front)| last.coefficient(k0) == Some(1) && !front.iter().any(|e| e.uses_dim(k0)))
    };
    let pack_a_span = |t: &mut String| {
        // A line of channels at a time (`LINE_FLOATS` steps of the first
        // reduction from `%kq`), then the taps, then the tile's rows: each
        // row's line is read once, as vectors, and its channels stored
        // one by one into the rows' slots of `%AW` (a transposition), so a
        // line-chunk's copy fills a contiguous piece of `%AW`. Channel
        // outermost, one scalar load per element, made every step read one
        // new line per pixel of the map: over a 7x7 map of 512 channels
        // those 81 lines, 2 KiB apart, share 2 L1 sets. Scalar loads right
        // behind scalar stores also waited on the stores whenever `%AW`'s
        // address (on the stack: a different one each process) matched a
        // load's below 4 KiB; a line-chunk's vector loads come before its
        // stores. The line-chunks are shared among the cores when each
        // gets one; a partial chunk (the span's or the reduction's end),
        // or an A not contiguous along the reduction, is copied by scalars.
        let (lo, hi) = &span_bounds;
        let chunks = (a_span + LINE_FLOATS - 1) / LINE_FLOATS;
        if cores > 1 && chunks >= cores {
            t.push_str(&format!("affine.parallel (%kq) = ({lo}) to ({hi}) step ({LINE_FLOATS}) {{\n"));
        } else if whole_span {
            t.push_str(&format!("affine.for %kq = {k_lo} to {k_hi} step {LINE_FLOATS} {{\n"));
        } else {
            t.push_str(&format!(
                "affine.for %kq = affine_map<(d0) -> (d0)>(%sk) to min affine_map<(d0) -> ({k_hi}, d0 + {a_span})>(%sk) step {LINE_FLOATS} {{\n"
            ));
        }
        let chunk_end = if whole_span {
            format!("min affine_map<(d0) -> ({k_hi}, d0 + {LINE_FLOATS})>(%kq)")
        } else {
            format!("min affine_map<(d0, d1) -> ({k_hi}, d0 + {LINE_FLOATS}, d1 + {a_span})>(%kq, %sk)")
        };
        let tiles = [(i_lo, m_main, mr), (m_main, i_hi, row_tail)];
        let copy = |t: &mut String, vectors: bool| {
            for (lo, hi, rows) in tiles {
                if lo >= hi || rows == 0 {
                    continue;
                }
                t.push_str(&format!("affine.for %ir = {lo} to {hi} step {mr} {{\n"));
                inner_loops(t);
                if vectors {
                    copy_line(t, rows, "%AW", &aw_type, &|r, e| aw_at(r).replace("%k0 - ", &format!("%kq + {e} - ")));
                    t.push_str(&"}\n".repeat(inner.len() + 1));
                } else {
                    t.push_str(&format!("affine.for %k0 = affine_map<(d0) -> (d0)>(%kq) to {chunk_end} {{\n"));
                    for r in 0..rows {
                        t.push_str(&format!("%wa{r} = affine.load %A[{}] : {ta}\n", index(c.a, r, 0)));
                        t.push_str(&format!("affine.store %wa{r}, %AW[{}] : {aw_type}\n", aw_at(r)));
                    }
                    t.push_str(&"}\n".repeat(inner.len() + 2));
                }
            }
        };
        if a_rows_contiguous {
            // Whole chunks: inside the reduction and the span.
            let full = if whole_span {
                format!("affine_set<(d0) : ({k_hi} - d0 - {LINE_FLOATS} >= 0)>(%kq)")
            } else {
                format!("affine_set<(d0, d1) : ({k_hi} - d0 - {LINE_FLOATS} >= 0, d1 + {a_span} - d0 - {LINE_FLOATS} >= 0)>(%kq, %sk)")
            };
            t.push_str(&format!("affine.if {full} {{\n"));
            copy(t, true);
            t.push_str("} else {\n");
            copy(t, false);
            t.push_str("}\n");
        } else {
            copy(t, false);
        }
        t.push_str("}\n");
    };
    if a_span > 0 {
        allocas.push_str(&format!("%AW = memref.alloca() {{alignment = 64 : i64}} : {aw_type}\n"));
    }
    if hoisted {
        t.insert_str(parallel_region.unwrap_or(kernel_top), &allocas);
        if a_span > 0 {
            if whole_span {
                t.push_str(&format!("%sk = arith.constant {k_lo} : index\n"));
            } else {
                t.push_str(&format!("affine.for %sk = {k_lo} to {k_hi} step {a_span} {{\n"));
            }
            pack_a_span(&mut t);
        }
        t.push_str(&format!("affine.parallel (%jr) = ({j_lo}) to ({j_hi}) step ({nr}) {{\n"));
        t.push_str(&panel_allocas);
        t.push_str(&format!("affine.for %ib = {i_lo} to {i_hi} step {mc} {{\n"));
    } else if parallel == Parallel::RowBlocks {
        t.push_str(&format!("affine.parallel (%ib) = ({i_lo}) to ({i_hi}) step ({mc}) {{\n"));
        t.push_str(&allocas);
        t.push_str(&panel_allocas);
    } else {
        // With parallel column panels, the panel buffers are allocated in
        // each parallel body (`column_loop`).
        if parallel != Parallel::Columns {
            allocas.push_str(&panel_allocas);
        }
        t.insert_str(parallel_region.unwrap_or(kernel_top), &allocas);
        t.push_str(&format!("affine.for %ib = {i_lo} to {i_hi} step {mc} {{\n"));
    }
    if nc > 0 {
        t.push_str(&format!("affine.for %jc = {j_lo} to {j_hi} step {nc} {{\n"));
    }
    if a_span > 0 && !whole_span {
        t.push_str(&format!(
            "affine.for %kb = affine_map<(d0) -> (d0)>(%sk) to min affine_map<(d0) -> ({k_hi}, d0 + {a_span})>(%sk) step {kc} {{\n"
        ));
    } else {
        t.push_str(&format!("affine.for %kb = {k_lo} to {k_hi} step {kc} {{\n"));
    }
    // Packs `rows` rows of A at %ir (the k loops inside).
    // The scalar packing of `rows` rows at one reduction step.
    let pack_a_step = |t: &mut String, rows: i64| -> Result<(), String> {
        for r in 0..rows {
            let packed = match &c.a_expr {
                Some(expr) => {
                    // Loads that do not move with the reduction loops (the
                    // packing copy's inner loops): a row's normalizer.
                    let invariant = |k: usize| !reductions.iter().any(|d| s.accesses[k].indices.iter().any(|e| e.uses_dim(*d)));
                    expr.emit(s, t, &format!("e{r}"), "X", "V", &|k| index(k, r, 0), &invariant)?
                }
                None => {
                    t.push_str(&format!("%q{r} = affine.load %A[{}] : {ta}\n", index(c.a, r, 0)));
                    format!("%q{r}")
                }
            };
            t.push_str(&format!("affine.store {packed}, %PA[{}] : {a_type}\n", a_index(r)));
        }
        Ok(())
    };
    // An expression for A (an activation fused into the product: GELU's
    // erf) is evaluated `width` reduction steps at a time when its loads
    // move with the reduction contiguously (or not at all): a scalar erf
    // per element made convnext's packing copies ~20% of its time.
    let pack_a_vector = |t: &mut String, rows: i64| -> Option<()> {
        let expr = c.a_expr.as_ref()?;
        let k0 = reductions[0];
        if !inner.is_empty() || kc % width != 0 {
            return None;
        }
        let moves = |k: usize| s.accesses[k].indices.iter().any(|e| e.uses_dim(k0));
        let contiguous = expr.loads.iter().all(|k| {
            let indices = &s.accesses[*k].indices;
            !moves(*k) || indices.split_last().is_some_and(|(last, front)| last.coefficient(k0) == Some(1) && !front.iter().any(|e| e.uses_dim(k0)))
        });
        if !contiguous {
            return None;
        }
        let invariant = |k: usize| !reductions.iter().any(|d| s.accesses[k].indices.iter().any(|e| e.uses_dim(*d)));
        let k_vec_end = k_lo + (k_hi - k_lo) / width * width;
        let mut body = format!(
            "affine.for %k0 = affine_map<(d0) -> (d0)>(%kb) to min affine_map<(d0) -> (d0 + {kc}, {k_vec_end})>(%kb) step {width} {{\n"
        );
        for r in 0..rows {
            let value = expr.emit_vector(s, &mut body, &format!("w{r}"), "X", "V", width, &|k| index(k, r, 0), &moves, &invariant).ok()?;
            for e in 0..width {
                body.push_str(&format!("%w{r}x{e} = vector.extract {value}[{e}] : f32 from vector<{width}xf32>\n"));
                body.push_str(&format!(
                    "affine.store %w{r}x{e}, %PA[(%ir - %ib) floordiv {mr}, %k0 - %kb + {e}, {r}] : {a_type}\n"
                ));
            }
        }
        body.push_str("}\n");
        if k_vec_end < k_hi {
            body.push_str(&format!(
                "affine.for %k0 = max affine_map<(d0) -> (d0, {k_vec_end})>(%kb) to min affine_map<(d0) -> (d0 + {kc}, {k_hi})>(%kb) {{\n"
            ));
            pack_a_step(&mut body, rows).ok()?;
            body.push_str("}\n");
        }
        t.push_str(&body);
        Some(())
    };
    // A plain A contiguous along the first reduction: a cache line of
    // reduction steps at a time (`%kq`), each row's line read as vectors at
    // every tap and its steps stored one by one into the packed rows (as
    // `pack_a_span`); a partial line by scalars. Step by step, the loads
    // of a tile's rows at all taps (a 3x3 tap window over a 256-channel
    // map: 24 lines 1 KiB apart, 6 per L1 set) came back once per step.
    let pack_a_lines = |t: &mut String, rows: i64| -> Result<(), String> {
        t.push_str(&format!(
            "affine.for %kq = affine_map<(d0) -> (d0)>(%kb) to min affine_map<(d0) -> (d0 + {kc}, {k_hi})>(%kb) step {LINE_FLOATS} {{\n"
        ));
        t.push_str(&format!(
            "affine.if affine_set<(d0, d1) : (d1 + {kc} - d0 - {LINE_FLOATS} >= 0, {k_hi} - d0 - {LINE_FLOATS} >= 0)>(%kq, %kb) {{\n"
        ));
        inner_loops(t);
        copy_line(t, rows, "%PA", &a_type, &|r, e| a_index(r).replace("%k0 - %kb", &format!("%kq + {e} - %kb")));
        t.push_str(&"}\n".repeat(inner.len()));
        t.push_str("} else {\n");
        t.push_str(&format!(
            "affine.for %k0 = affine_map<(d0) -> (d0)>(%kq) to min affine_map<(d0, d1) -> (d0 + {LINE_FLOATS}, d1 + {kc}, {k_hi})>(%kq, %kb) {{\n"
        ));
        inner_loops(t);
        pack_a_step(t, rows)?;
        t.push_str(&"}\n".repeat(inner.len() + 3));
        Ok(())
    };
    let pack_a_rows = |t: &mut String, rows: i64| -> Result<(), String> {
        if pack_a_vector(t, rows).is_some() {
            return Ok(());
        }
        if c.a_expr.is_none() && a_rows_contiguous {
            return pack_a_lines(t, rows);
        }
        k_loops(t);
        pack_a_step(t, rows)?;
        t.push_str(&"}\n".repeat(inner.len() + 1));
        Ok(())
    };
    if pack_a {
        t.push_str(&rows_loop);
        pack_a_rows(&mut t, mr)?;
        t.push_str("}\n");
        if row_tail > 0 {
            t.push_str(&tail_rows_open);
            pack_a_rows(&mut t, row_tail)?;
            t.push_str("}\n}\n");
        }
    }
    // The position of the current reduction step in the packed panel.
    // (At panel column `column`; `panel_index(v)`: vector `v`'s, or the
    // copy's `%jj` for `v < 0`.)
    let panel_at = |column: &str| -> String {
        let mut parts = vec!["%k0 - %kb".to_string()];
        for (p, (lo, _)) in inner.iter().enumerate() {
            parts.push(format!("%k{} - {lo}", p + 1));
        }
        parts.push(column.to_string());
        parts.join(", ")
    };
    let panel_index = |v: i64| -> String { panel_at(&if v < 0 { "%jj".to_string() } else { (v * width).to_string() }) };
    // Packs the B panel at %jr: `columns` columns one by one (gathering),
    // zeros up to `padded` columns.
    // Flattened columns `p = h * W + w` are copied a row segment at a time
    // (`h` over the rows the panel touches, `w` over the segment): no
    // floordiv/mod per element, and an inner loop contiguous in both B and
    // the panel, which LLVM vectorizes. (Per element, the index arithmetic
    // made packing half of conv3x3 64->64's time at 56x56.)
    let pack_b_scalar = |t: &mut String, columns: i64, padded: i64| {
        k_loops(t);
        if let Some((_, w)) = c.collapsed {
            t.push_str(&format!(
                "affine.for %hh = affine_map<(d0) -> (d0 floordiv {w})>(%jr) to affine_map<(d0) -> ((d0 + {}) floordiv {w} + 1)>(%jr) {{\n",
                columns - 1
            ));
            t.push_str(&format!(
                "affine.for %ww = max affine_map<(d0, d1) -> (0, d0 - d1 * {w})>(%jr, %hh) to min affine_map<(d0, d1) -> ({w}, d0 + {columns} - d1 * {w})>(%jr, %hh) {{\n"
            ));
            t.push_str(&format!("%p0 = affine.load %B[{}] : {tb}\n", index(c.b, 0, ROW_SEGMENT)));
            let packed = scaled(t, "%p0", c.b_scale.map(|_| "%sb"), "f32");
            let position = panel_at(&format!("%hh * {w} + %ww - %jr"));
            t.push_str(&format!("affine.store {packed}, %P[{position}] : {panel_type}\n}}\n}}\n"));
        } else {
            t.push_str(&format!("affine.for %jj = 0 to {columns} {{\n"));
            t.push_str(&format!("%p0 = affine.load %B[{}] : {tb}\n", index(c.b, 0, -1)));
            let packed = scaled(t, "%p0", c.b_scale.map(|_| "%sb"), "f32");
            t.push_str(&format!("affine.store {packed}, %P[{}] : {panel_type}\n}}\n", panel_index(-1)));
        }
        if padded > columns {
            t.push_str(&format!("affine.for %jj = {columns} to {padded} {{\n"));
            t.push_str(&format!("%pz = arith.constant 0.000000e+00 : f32\naffine.store %pz, %P[{}] : {panel_type}\n}}\n", panel_index(-1)));
        }
        t.push_str(&"}\n".repeat(inner.len() + 1));
    };
    // The register tile at (%ir, %jr): `rows` rows x `vectors` vectors, B
    // from the panel or from B itself; with `valid` columns (the column
    // tail) its sums go through %CT and only those columns reach C.
    let register_tile = |t: &mut String, rows: i64, vectors: i64, from_panel: bool, valid: Option<i64>| -> Result<(), String> {
        let count = (rows * vectors) as usize;
        let accs = |prefix: &str| (0..count).map(|n| format!("%{prefix}{n}")).collect::<Vec<_>>();
        let types = vec![vector.clone(); count].join(", ");
        // The reduction loops, the first blocked by KC, carrying accumulators
        // that start at zero: each KC block's sum is added to C afterwards (two
        // levels of summation, as BLAS kernels do; accumulating into C's running
        // total made the rounding error of a 2048-long sum 6x eager's).
        t.push_str(&format!("%zv = arith.constant dense<0.000000e+00> : {vector}\n"));
        // C is read only after the reduction: ask for its lines now, so that
        // read does not wait on memory (a 2048x2048 C lives in L3 or DRAM).
        if valid.is_none() {
            for r in 0..rows {
                for v in 0..vectors {
                    t.push_str(&format!("affine.prefetch {c_name}[{}], write, locality<3>, data : {c_type}\n", c_index(c.c_read, r, v)));
                }
            }
        }
        let levels = reductions.len();
        for (p, k) in reductions.iter().enumerate() {
            let inits = if p == 0 { vec!["%zv".to_string(); count] } else { accs(&format!("a{}_", p - 1)) };
            let args: Vec<String> = accs(&format!("a{p}_")).iter().zip(&inits).map(|(a, i)| format!("{a} = {i}")).collect();
            let bounds = if p == 0 {
                format!("affine_map<(d0) -> (d0)>(%kb) to min affine_map<(d0) -> (d0 + {kc}, {k_hi})>(%kb)")
            } else {
                let (lo, hi) = c.bounds[*k];
                format!("{lo} to {hi}")
            };
            t.push_str(&format!("%r{p}:{count} = affine.for %k{p} = {bounds} iter_args({}) -> ({types}) {{\n", args.join(", ")));
        }
        let last = levels - 1;
        for v in 0..vectors {
            if from_panel && prepacked {
                t.push_str(&format!("%b{v} = affine.vector_load %BP[{}] : {bp_type}, {vector}\n", bp_at(&(v * width).to_string())));
            } else if from_panel {
                t.push_str(&format!("%b{v} = affine.vector_load %P[{}] : {panel_type}, {vector}\n", panel_index(v)));
            } else {
                t.push_str(&format!("%b{v} = affine.vector_load %B[{}] : {tb}, {vector}\n", index(c.b, 0, v)));
            }
        }
        if from_panel && prepacked {
            t.push_str(&bp_prefetch);
        }
        for r in 0..rows {
            if prepacked_a {
                t.push_str(&format!("%x{r} = affine.load %AP[{}] : {ap_type}\n", ap_at(r)));
            } else if a_span > 0 {
                t.push_str(&format!("%x{r} = affine.load %AW[{}] : {aw_type}\n", aw_at(r)));
            } else if pack_a {
                t.push_str(&format!("%x{r} = affine.load %PA[{}] : {a_type}\n", a_index(r)));
            } else {
                t.push_str(&format!("%x{r} = affine.load %A[{}] : {ta}\n", index(c.a, r, 0)));
            }
            t.push_str(&format!("%s{r} = vector.broadcast %x{r} : f32 to {vector}\n"));
            for v in 0..vectors {
                let n = r * vectors + v;
                t.push_str(&format!("%n{n} = vector.fma %s{r}, %b{v}, %a{last}_{n} : {vector}\n"));
            }
        }
        t.push_str(&format!("affine.yield {} : {types}\n}}\n", accs("n").join(", ")));
        for p in (0..last).rev() {
            let inner: Vec<String> = (0..count).map(|n| format!("%r{}#{n}", p + 1)).collect();
            t.push_str(&format!("affine.yield {} : {types}\n}}\n", inner.join(", ")));
        }
        // The block's sums go to C: added to it, or stored (the first block
        // over a C that was zero).
        let update_c = |t: &mut String, add: bool| {
            for r in 0..rows {
                if let Some(valid) = valid {
                    for v in 0..vectors {
                        t.push_str(&format!("affine.vector_store %r0#{}, %CT[{r}, {}] : {tail_type}, {vector}\n", r * vectors + v, v * width));
                    }
                    t.push_str(&format!("affine.for %jj = 0 to {valid} {{\n%u{r} = affine.load %CT[{r}, %jj] : {tail_type}\n"));
                    let mut value = format!("%u{r}");
                    if add {
                        t.push_str(&format!("%w{r} = affine.load {c_name}[{}] : {c_type}\n", c_index(c.c_read, r, -1)));
                        t.push_str(&format!("%y{r} = arith.addf %w{r}, %u{r} : f32\n"));
                        value = format!("%y{r}");
                    }
                    t.push_str(&format!("affine.store {value}, {c_name}[{}] : {c_type}\n}}\n", c_index(c.c_write, r, -1)));
                    continue;
                }
                for v in 0..vectors {
                    let n = r * vectors + v;
                    let mut value = format!("%r0#{n}");
                    if add {
                        t.push_str(&format!("%c{n} = affine.vector_load {c_name}[{}] : {c_type}, {vector}\n", c_index(c.c_read, r, v)));
                        t.push_str(&format!("%t{n} = arith.addf %c{n}, {value} : {vector}\n"));
                        value = format!("%t{n}");
                    }
                    t.push_str(&format!("affine.vector_store {value}, {c_name}[{}] : {c_type}, {vector}\n", c_index(c.c_write, r, v)));
                }
            }
        };
        if !first_block_stores {
            update_c(t, true);
        } else if k_hi - k_lo <= kc {
            update_c(t, false);
        } else {
            t.push_str(&format!("affine.if affine_set<(d0) : (d0 - {k_lo} == 0)>(%kb) {{\n"));
            update_c(t, false);
            t.push_str("} else {\n");
            update_c(t, true);
            t.push_str("}\n");
        }
        Ok(())
    };
    // The register tiles of one column panel: the full rows of the row
    // block, then (in the last block) the row tail.
    let panel_tiles = |t: &mut String, vectors: i64, from_panel: bool, valid: Option<i64>| -> Result<(), String> {
        t.push_str(&rows_loop);
        register_tile(t, mr, vectors, from_panel, valid)?;
        t.push_str("}\n");
        if row_tail > 0 {
            t.push_str(&tail_rows_open);
            register_tile(t, row_tail, vectors, from_panel, valid)?;
            t.push_str("}\n}\n");
        }
        Ok(())
    };
    // Opens the loop over column panels from `lo` to `hi`: parallel, each
    // iteration packing into panel buffers of its own, or sequential.
    // (Bounds as affine loop bounds: constants, or maps of `%jc` in a
    // column block, never under parallel panels.)
    let column_loop = |t: &mut String, lo: &str, hi: &str| {
        if parallel == Parallel::Columns {
            t.push_str(&format!("affine.parallel (%jr) = ({lo}) to ({hi}) step ({nr}) {{\n"));
            t.push_str(&panel_allocas);
        } else {
            t.push_str(&format!("affine.for %jr = {lo} to {hi} step {nr} {{\n"));
        }
    };
    // A full panel at %jr: packed (or read in place), then its tiles.
    let full_panel = |t: &mut String| -> Result<(), String> {
        if pack && c.b_transposed {
            pack_b_scalar(t, nr, nr);
        } else if pack {
            if c.b_scale.is_some() {
                t.push_str(&format!("%sbv = vector.broadcast %sb : f32 to {vector}\n"));
            }
            k_loops(t);
            for v in 0..nv {
                t.push_str(&format!("%p{v} = affine.vector_load %B[{}] : {tb}, {vector}\n", index(c.b, 0, v)));
                let packed = scaled(t, &format!("%p{v}"), c.b_scale.map(|_| "%sbv"), &vector);
                t.push_str(&format!("affine.vector_store {packed}, %P[{}] : {panel_type}, {vector}\n", panel_index(v)));
            }
            t.push_str(&"}\n".repeat(inner.len() + 1));
        }
        panel_tiles(t, nv, pack || prepacked, None)
    };
    // The column tail's panel at %jr: gathered into a zero-padded panel.
    // (Tail columns that fill whole vectors are stored as they are.)
    let tail_panel = |t: &mut String| -> Result<(), String> {
        if !prepacked {
            pack_b_scalar(t, col_tail, nv_tail * width);
        }
        panel_tiles(t, nv_tail, true, (col_tail % width != 0).then_some(col_tail))
    };
    if hoisted {
        match (n_main > j_lo, col_tail > 0) {
            (true, true) => {
                t.push_str(&format!("affine.if affine_set<(d0) : ({} - d0 >= 0)>(%jr) {{\n", n_main - 1));
                full_panel(&mut t)?;
                t.push_str("} else {\n");
                tail_panel(&mut t)?;
                t.push_str("}\n");
            }
            (true, false) => full_panel(&mut t)?,
            _ => tail_panel(&mut t)?,
        }
        // The reduction and row blocks, then the parallel loop (and the
        // span of A's reduction steps around it).
        t.push_str("}\n}\n}\n");
        if a_span > 0 && !whole_span {
            t.push_str("}\n");
        }
        for _ in outer {
            t.push_str("}\n");
        }
        t.push_str("}\nreturn\n}\n");
        return Ok(t);
    }
    // The full panels, then the tail's (one iteration: the last columns,
    // from a zero-padded panel; an allocation scope of its own when the
    // panels are per thread). In a column block at %jc, those of the
    // block, the tail in the block holding it.
    let (main, tail) = if nc > 0 {
        (
            ("affine_map<(d0) -> (d0)>(%jc)".to_string(), format!("min affine_map<(d0) -> (d0 + {nc}, {n_main})>(%jc)")),
            (format!("max affine_map<(d0) -> (d0, {n_main})>(%jc)"), format!("min affine_map<(d0) -> (d0 + {nc}, {j_hi})>(%jc)")),
        )
    } else {
        ((j_lo.to_string(), n_main.to_string()), (n_main.to_string(), j_hi.to_string()))
    };
    if n_main > j_lo {
        column_loop(&mut t, &main.0, &main.1);
        full_panel(&mut t)?;
        t.push_str("}\n");
    }
    if col_tail > 0 {
        column_loop(&mut t, &tail.0, &tail.1);
        tail_panel(&mut t)?;
        t.push_str("}\n");
    }
    if nc > 0 {
        // The reduction blocks' loop inside the column block.
        t.push_str("}\n");
    }
    t.push_str("}\n}\n");
    for _ in outer {
        t.push_str("}\n");
    }
    t.push_str("}\nreturn\n}\n");
    Ok(t)
}

/// The shape of a packed copy kept between calls: the blocks of `block`
/// rows or columns over `(lo, hi)` (the last padded to a whole block) x
/// every reduction step x `block` values, contiguous. B's: column panels
/// of `nr` (panel `p` holds columns `p*nr..` in the order the register
/// tiles read them); A's: row tiles of `mr` (the `mr` values a tile
/// broadcasts at one step together).
fn prepacked_shape(c: &Contraction, (lo, hi): (i64, i64), block: i64) -> Vec<i64> {
    let mut shape = vec![(hi - lo + block - 1) / block];
    shape.extend(c.roles.reductions.iter().map(|k| trip(c.bounds[*k])));
    shape.push(block);
    shape
}

fn memref_f32(shape: &[i64]) -> String {
    format!("memref<{}xf32>", shape.iter().map(|n| n.to_string()).collect::<Vec<_>>().join("x"))
}

/// Elements of B's packed copy (see `prepacked_shape`).
fn prepacked_elements(c: &Contraction, nr: i64) -> i64 {
    prepacked_shape(c, c.columns(), nr).iter().product()
}

/// The type of B's packed copy, `memref<panels x K0 x K1.. x nr x f32>`.
fn prepacked_type(c: &Contraction, nr: i64) -> String {
    memref_f32(&prepacked_shape(c, c.columns(), nr))
}

/// Elements of A's packed copy (see `prepacked_shape`).
fn prepacked_a_elements(c: &Contraction, mr: i64) -> i64 {
    prepacked_shape(c, c.rows(), mr).iter().product()
}

/// The type of A's packed copy, `memref<tiles x K0 x K1.. x mr x f32>`.
fn prepacked_a_type(c: &Contraction, mr: i64) -> String {
    memref_f32(&prepacked_shape(c, c.rows(), mr))
}

/// `value` times `factor` (when there is one) as a new SSA value; the name
/// to use.
fn scaled(t: &mut String, value: &str, factor: Option<&str>, ty: &str) -> String {
    match factor {
        Some(factor) => {
            t.push_str(&format!("{value}s = arith.mulf {value}, {factor} : {ty}\n"));
            format!("{value}s")
        }
        None => value.to_string(),
    }
}

/// The last op before `nest` that touches the C that `s` writes (access
/// `c_write`, loops of constant `bounds`), if it is a nest that stores
/// +0.0 (f32, f16) or 0 (i32) into every element of C and nothing else, and the
/// contraction writes every element of C too.
pub(crate) fn zero_fill_before<'c, 'a>(
    nest: OperationRef<'c, 'a>,
    s: &Statement<'c, 'a>,
    c_write: usize,
    bounds: &[(i64, i64)],
) -> Option<OperationRef<'c, 'a>> {
    let c_access = &s.accesses[c_write];
    let c_memref = c_access.op.operand(1).ok()?;
    let block = nest.block()?;
    let order = pb_support::ir::block_ops(block);
    let position = |op: OperationRef| order.iter().position(|o| *o == op);
    let here = position(nest)?;
    // Each user of C, as the top-level op holding it.
    let mut last: Option<usize> = None;
    for user in ffi::users(c_memref) {
        if let Some(p) = ancestor_in(user, block).and_then(position).filter(|p| *p < here) {
            last = Some(last.map_or(p, |l: usize| l.max(p)));
        }
    }
    let fill = order[last?];
    if !is_named(fill, "affine.for") {
        return None;
    }
    let scop = Scop::extract(&[fill]).ok()?;
    let [statement] = scop.statements.as_slice() else { return None };
    let [store] = statement.accesses.as_slice() else { return None };
    if !store.write || store.op.operand(1).ok()? != c_memref || statement.ops.len() != 1 {
        return None;
    }
    // +0.0 (adding to -0.0 would keep a -0.0 product's sign).
    let value = ffi::defining_op(store.op.operand(0).ok()?)?;
    let zero = value.attribute("value").ok()?.to_string();
    if !is_named(value, "arith.constant") || !matches!(zero.as_str(), "0.000000e+00 : f32" | "0.000000e+00 : f16" | "0 : i32") {
        return None;
    }
    // The fill walks every element: each index of C is its own loop, from
    // 0 to C's extent (other loops run once: a unit batch dimension, which
    // folded reshapes leave in the indices as `12 * d0 + d1`).
    let shape = &scop.arrays[store.array].shape;
    if store.indices.len() != shape.len() || shape.iter().any(|n| *n <= 0) {
        return None;
    }
    let fill_bounds: Vec<(i64, i64)> =
        statement.bounds.iter().map(|b| b.constant().filter(|_| b.step == 1)).collect::<Option<_>>()?;
    loops_per_index(&store.indices, &fill_bounds, shape, true)?;
    // The contraction writes every element of C too (its reduction loops
    // are in no index).
    loops_per_index(&c_access.indices, bounds, shape, false)?;
    Some(fill)
}

/// For indices over loops with constant `bounds` that together walk every
/// element of an array of `shape`: per index, the loop walking it (`None`
/// for an extent-1 index). With `every_loop`, the loops in no index must
/// run once (each element is visited once).
fn loops_per_index(indices: &[Aff], bounds: &[(i64, i64)], shape: &[i64], every_loop: bool) -> Option<Vec<Option<usize>>> {
    let runs_once = |d: usize| bounds[d] == (0, 1);
    // Loops that run once count as 0.
    let zeroed: Vec<Aff> = (0..bounds.len()).map(|d| if runs_once(d) { Aff::Const(0) } else { Aff::Dim(d) }).collect();
    let mut loops = Vec::new();
    for (k, index) in indices.iter().enumerate() {
        let index = index.substitute(&zeroed);
        let used: Vec<usize> = (0..bounds.len()).filter(|d| index.uses_dim(*d)).collect();
        match used.as_slice() {
            [] if shape[k] == 1 && index.constant() == Some(0) => loops.push(None),
            [d] if index.coefficient(*d) == Some(1) && bounds[*d] == (0, shape[k]) && !loops.contains(&Some(*d)) => {
                let mut rest = zeroed.clone();
                rest[*d] = Aff::Const(0);
                if index.substitute(&rest).constant() != Some(0) {
                    return None;
                }
                loops.push(Some(*d));
            }
            _ => return None,
        }
    }
    let walked = |d: usize| loops.contains(&Some(d));
    (!every_loop || (0..bounds.len()).all(|d| walked(d) || runs_once(d))).then_some(loops)
}

/// Puts the kernel in place of `nest` (which it replaces whole: tails
/// included); an absorbed zero `fill` is erased.
fn splice<'c>(
    context: &'c Context,
    nest: OperationRef<'c, '_>,
    c: &Contraction,
    text: &str,
    fill: Option<OperationRef<'c, '_>>,
    prepacked: Prepacked,
) -> Result<(), String> {
    let s = c.statement;
    let parent = nest.block().ok_or("nest outside a block")?;
    text_kernel::splice(context, nest, text, INFO.argument, |body| {
        // The kept buffers (B's, A's), then the flag saying to fill them.
        let mut extra = 4;
        let kept: Vec<&String> = [&prepacked.b, &prepacked.a].into_iter().flatten().collect();
        for ty in &kept {
            text_kernel::bind_argument(body, extra, persistent_buffer(context, nest, ty)?)?;
            extra += 1;
        }
        if !kept.is_empty() {
            let stale = stale_flag(context, nest)?;
            text_kernel::bind_argument(body, extra, stale)?;
            // The branches filling the kept buffers run once per version
            // of the weights (`pb-scalar-once`).
            for branch in ffi::users(stale).into_iter().filter(|u| is_named(*u, "scf.if")) {
                ffi::set_attribute(branch, crate::scalar_once::ONCE, melior::ir::Attribute::unit(context));
            }
            extra += 1;
        }
        for (position, k) in [c.a, c.b, c.c_write].into_iter().enumerate() {
            let a = &s.accesses[k];
            let memref = a.op.operand(if a.write { 1 } else { 0 }).map_err(|e| e.to_string())?;
            text_kernel::bind_argument(body, position, memref)?;
        }
        if let Some(scale) = c.b_scale {
            // A scale computed inside the nest (from outside values) is
            // recomputed once before it.
            let value = match ffi::defining_op(scale) {
                Some(owner) if s.ops.contains(&owner) => {
                    let hoisted = parent.insert_operation_before(nest, ffi::clone_operation(owner));
                    hoisted.result(0).map_err(|e| e.to_string())?.into()
                }
                _ => scale,
            };
            text_kernel::bind_argument(body, 3, value)?;
        }
        if let Some(expr) = &c.a_expr {
            let memrefs = expr.loads.iter().map(|k| s.accesses[*k].op.operand(0));
            let values = expr.outside.iter().map(|v| Ok(*v));
            for (position, value) in memrefs.chain(values).enumerate() {
                text_kernel::bind_argument(body, extra + position, value.map_err(|e: melior::Error| e.to_string())?)?;
            }
        }
        if let Some(fill) = fill {
            // SAFETY: the zero fill is a top-level loop nest before `nest` (`zero_fill_before`),
            // already visited by `rewrite_each_nest`; a SCoP nest has no results and nothing defined
            // inside it is used outside it.
            unsafe { ffi::erase(fill) };
        }
        Ok(())
    })
}

/// A buffer of type `ty` (text) kept between calls: a `pb.persistent`
/// allocation at the top of the function holding `nest`, which
/// `pb-allocs-to-pool` places in the pool for good.
pub(crate) fn persistent_buffer<'c, 'a>(context: &'c Context, nest: OperationRef<'c, 'a>, ty: &str) -> Result<Value<'c, 'a>, String> {
    use melior::ir::{attribute::IntegerAttribute, r#type::IntegerType, Attribute, Type};
    let body = nest.block().ok_or("nest outside a block")?;
    let memref_type = Type::parse(context, ty).ok_or_else(|| format!("internal error: bad buffer type {ty}"))?;
    let alignment: Attribute = IntegerAttribute::new(IntegerType::new(context, 64).into(), 64).into();
    let attributes = [("alignment", alignment), (crate::allocs_to_pool::PERSISTENT, Attribute::unit(context))];
    let alloc = pb_support::builder::build_operation(context, nest.location(), "memref.alloc", &[], &[memref_type], &attributes, vec![]);
    let buffer = body.insert_operation_before(body.first_operation().ok_or("empty function")?, alloc);
    Ok(buffer.result(0).map_err(|e| e.to_string())?.into())
}

/// An empty `scf.if %stale { }` inserted before `at`; the terminator of
/// its region, before which what runs only on stale calls goes.
pub(crate) fn when_stale<'c, 'a>(context: &'c Context, at: OperationRef<'c, 'a>, stale: Value<'c, 'a>) -> Result<OperationRef<'c, 'a>, String> {
    use melior::ir::{Block, Region, RegionLike};
    use pb_support::builder::build_operation;
    let then = Region::new();
    let block = then.append_block(Block::new(&[]));
    block.append_operation(build_operation(context, at.location(), "scf.yield", &[], &[], &[], vec![]));
    let once = [(crate::scalar_once::ONCE, melior::ir::Attribute::unit(context))];
    let branch = build_operation(context, at.location(), "scf.if", &[stale], &[], &once, vec![then, Region::new()]);
    let branch = at.block().ok_or("anchor outside a block")?.insert_operation_before(at, branch);
    let region = branch.region(0).map_err(|_| "scf.if without its region")?;
    region.first_block().and_then(|b| b.terminator()).ok_or_else(|| "scf.if without its yield".to_string())
}

/// An `i1` read just before `nest`, true when the function's prepared flag
/// (one `memref<i32>` marked `pb.prepared_flag` per function, made here
/// on first use at the top of the body and set to 1 before each return)
/// is 0: the caller's static arguments are new, the kept buffers are to be
/// filled.
pub(crate) fn stale_flag<'c, 'a>(context: &'c Context, nest: OperationRef<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    use crate::allocs_to_pool::PREPARED_FLAG;
    use melior::ir::{
        attribute::IntegerAttribute,
        r#type::{IntegerType, MemRefType},
        Attribute, Type,
    };
    use pb_support::builder::build_operation;
    let body = nest.block().ok_or("nest outside a block")?;
    let func = body.parent_operation().filter(|op| is_named(*op, "func.func")).ok_or("nest outside a function's body")?;
    let location = nest.location();
    let i32_type: Type = IntegerType::new(context, 32).into();
    let i64_type: Type = IntegerType::new(context, 64).into();
    let constant = |value: i64| {
        build_operation(context, location, "arith.constant", &[], &[i32_type], &[("value", IntegerAttribute::new(i32_type, value).into())], vec![])
    };
    let existing = pb_support::ir::body_ops(func)
        .into_iter()
        .find(|op| is_named(*op, "memref.alloc") && op.attribute(PREPARED_FLAG).is_ok());
    let flag = match existing {
        Some(flag) => flag,
        None => {
            let flag_type: Type = MemRefType::new(i32_type, &[], None, None).into();
            let alloc = build_operation(context, location, "memref.alloc", &[], &[flag_type], &[(PREPARED_FLAG, Attribute::unit(context))], vec![]);
            let flag = body.insert_operation_before(body.first_operation().ok_or("empty function")?, alloc);
            let flag_value: Value = flag.result(0).map_err(|e| e.to_string())?.into();
            for ret in pb_support::ir::body_ops(func).into_iter().filter(|op| is_named(*op, "func.return")) {
                let one = body.insert_operation_before(ret, constant(1));
                let one: Value = one.result(0).map_err(|e| e.to_string())?.into();
                body.insert_operation_before(ret, build_operation(context, location, "memref.store", &[one, flag_value], &[], &[], vec![]));
            }
            flag
        }
    };
    let flag_value: Value = flag.result(0).map_err(|e| e.to_string())?.into();
    let read = body.insert_operation_before(nest, build_operation(context, location, "memref.load", &[flag_value], &[i32_type], &[], vec![]));
    let zero = body.insert_operation_before(nest, constant(0));
    let operands: [Value; 2] = [read.result(0).map_err(|e| e.to_string())?.into(), zero.result(0).map_err(|e| e.to_string())?.into()];
    let i1_type: Type = IntegerType::new(context, 1).into();
    let stale = body.insert_operation_before(
        nest,
        build_operation(context, location, "arith.cmpi", &operands, &[i1_type], &[("predicate", IntegerAttribute::new(i64_type, 0).into())], vec![]),
    );
    Ok(stale.result(0).map_err(|e| e.to_string())?.into())
}

/// Whether a memref type (as text) has the identity layout (contiguous,
/// row-major): no layout attribute.
fn identity_layout(memref: &str) -> bool {
    memref.starts_with("memref<") && !memref.contains(',')
}

/// `memref<AxBx...xHxWxT>` -> `memref<AxBx...x(H*W)xT>` (identity layouts).
fn collapsed_type(memref: &str) -> Option<String> {
    let body = memref.strip_prefix("memref<")?.strip_suffix('>')?;
    let mut parts: Vec<&str> = body.split('x').collect();
    let element = parts.pop()?;
    let w: i64 = parts.pop()?.parse().ok()?;
    let h: i64 = parts.pop()?.parse().ok()?;
    let merged = (h * w).to_string();
    parts.push(&merged);
    Some(format!("memref<{}x{element}>", parts.join("x")))
}
