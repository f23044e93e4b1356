//! f32 contractions on the FMA units: the tensor-core kernel's blocks,
//! copies and epilogue, with each thread summing a 4 x 8 tile of C in
//! registers instead of warps summing fragments.
//!
//! ```text
//! grid (N / BN, M / BM, batch); BM x BN / 32 threads (as many as the
//!   tensor-core kernel's warps x 32: each warp covers 32 x 32 of C)
//! workgroup At[BK][BM + 4] (A's block transposed), Bs[BK][BN + 4]
//! private acc[4][8] = 0
//! for k0 = 0 to K step BK:
//!   At, Bs = A's and B's blocks (16-byte vector reads where contiguous)
//!   barrier
//!   for k < BK: a = At[k][r0 : r0 + 4], b = Bs[k][c0 : c0 + 8]  (vector loads)
//!               acc[i] = fma(broadcast(a[i]), b, acc[i])        (i < 4)
//!   barrier
//! C[r0 + i][c0 + j] = acc[i][j] (through the epilogue where there is one)
//! ```
//!
//! Lane `l` of a warp takes rows `r0 = 4 (l div 4)` and columns
//! `c0 = 8 (l mod 4)` of the warp's 32 x 32: the 8 row groups of a warp read
//! 32 consecutive words of `At` (no bank conflicts), the 4 column groups 4
//! distinct 16-byte runs of `Bs` (each broadcast to 8 lanes). The
//! accumulators live in a private buffer between the barrier phases (a
//! GPU's registers once LLVM promotes it: every index is a constant), and
//! in values carried by the inner loop within a phase, so the emulation
//! runs the same IR phase by phase with one buffer per thread.

use super::{BlockCopy, Kernel, Span, BK, COL, RED};
use melior::ir::{block::BlockLike, operation::OperationLike, OperationRef, RegionLike, Type, Value};
use pb_polyhedral::Aff;
use pb_support::ffi;

/// Rows and columns of C each thread sums.
const TM: i64 = 4;
const TN: i64 = 8;

impl<'c, 'a> Kernel<'c, '_, '_, 'a, '_> {
    pub(super) fn emit_fma(&self, nest: OperationRef<'c, 'a>, grid: [i64; 3]) {
        let e = &self.e;
        let t = self.tiles;
        let shared = |rows: i64, columns: i64| e.ty(&format!("memref<{rows}x{columns}xf32, #gpu.address_space<workgroup>>"));
        let private = e.ty(&format!("memref<{TM}x{TN}xf32, #gpu.address_space<private>>"));
        let (launch, end) = self.launch_with(nest, grid, &[shared(BK, t.bm + t.pad()), shared(BK, t.bn + t.pad())], &[private]);
        let body = launch.region(0).ok().and_then(|r| r.first_block()).expect("launch body");
        let arg = |k: usize| -> Value<'c, 'a> { body.argument(k).expect("launch argument").into() };
        let (bx, by, bz, tx) = (arg(0), arg(1), arg(2), arg(3));
        let (a_t, b_s, acc) = (arg(12), arg(13), arg(14));
        let row_type = e.ty(&format!("vector<{TN}xf32>"));
        let a_type = e.ty(&format!("vector<{TM}xf32>"));
        let zero = e.value(end, "arith.constant", &[], row_type, &[("value", e.attr(&format!("dense<0.0> : vector<{TN}xf32>")))]);
        let rows: Vec<Value> = (0..TM).map(|i| self.index(end, i)).collect();
        let zero_index = self.index(end, 0);
        for row in &rows {
            self.vector_store(end, zero, acc, &[*row, zero_index]);
        }
        let (bz, k_first, k_end) = self.batch_and_depth(end, bz);
        let (k0, _, yield_op, _) = self.for_range(end, (k_first, k_end), BK, &[]);
        let r = self.roles;
        let a_lanes = self.lanes(r.a, RED, self.k, t.bm * BK);
        let b_lanes = self.lanes(r.b, COL, self.n, BK * t.bn);
        let rows_of = |block: Value<'c, 'a>, tile: i64, extent: i64| Span { size: tile, base: block, scale: tile, extent };
        let depth = || Span { size: BK, base: k0, scale: 1, extent: self.k };
        let a_copy = BlockCopy { access: r.a, shared: a_t, lanes: a_lanes, offset: false, transposed: true };
        self.copy_block(yield_op, tx, a_copy, (rows_of(by, t.bm, self.m), depth()), |row, k, zero| [row, zero, k, bz]);
        let b_copy = BlockCopy { access: r.b, shared: b_s, lanes: b_lanes, offset: false, transposed: false };
        self.copy_block(yield_op, tx, b_copy, (depth(), rows_of(bx, t.bn, self.n)), |k, col, zero| [zero, col, k, bz]);
        e.op(yield_op, "gpu.barrier", &[], &[], &[]);
        // The thread's rows and columns within the block.
        let (r0, c0) = (self.first_row(yield_op, tx), self.first_column(yield_op, tx));
        let sums: Vec<Value> = rows.iter().map(|row| self.vector_load(yield_op, acc, &[*row, zero_index], row_type)).collect();
        let (k, carried, step_end, inner) = self.for_loop(yield_op, BK, 1, &sums);
        let a = self.vector_load(step_end, a_t, &[k, r0], a_type);
        let b = self.vector_load(step_end, b_s, &[k, c0], row_type);
        let next: Vec<Value> = (0..TM)
            .map(|i| {
                let position = e.attr(&format!("array<i64: {i}>"));
                let ai = e.value(step_end, "vector.extract", &[a], e.ty("f32"), &[("static_position", position)]);
                let broadcast = e.value(step_end, "vector.broadcast", &[ai], row_type, &[]);
                e.value(step_end, "vector.fma", &[broadcast, b, carried[i as usize]], row_type, &[])
            })
            .collect();
        ffi::set_operands(step_end, &next);
        for (i, row) in rows.iter().enumerate() {
            let sum = ffi::result(inner, i).expect("a row of sums");
            self.vector_store(yield_op, sum, acc, &[*row, zero_index]);
        }
        e.op(yield_op, "gpu.barrier", &[], &[], &[]);

        // Each sum into C, guarded past M and N.
        let (r0, c0) = (self.first_row(end, tx), self.first_column(end, tx));
        for i in 0..TM {
            let sums = self.vector_load(end, acc, &[rows[i as usize], zero_index], row_type);
            for j in 0..TN {
                let position = e.attr(&format!("array<i64: {j}>"));
                let sum = e.value(end, "vector.extract", &[sums], e.ty("f32"), &[("static_position", position)]);
                let env = [r0, c0, by, bx];
                let row = self.apply(end, Aff::Dim(2).scale(t.bm).plus(Aff::Dim(0)).plus(Aff::Const(i)), &env);
                let col = self.apply(end, Aff::Dim(3).scale(t.bn).plus(Aff::Dim(1)).plus(Aff::Const(j)), &env);
                let row_ok = (self.m % t.bm != 0).then(|| self.below(end, row, self.m));
                let col_ok = (self.n % t.bn != 0).then(|| self.below(end, col, self.n));
                let at = match self.and(end, row_ok, col_ok) {
                    Some(cond) => self.e.if_then(end, cond),
                    None => end,
                };
                let zero = self.index(at, 0);
                self.write_sum(at, sum, [row, col, zero, bz]);
            }
        }
    }

    /// The first of the rows of C (in the block) thread `tx` sums: its
    /// warp's 32-row tile, then 4 rows per group of 4 lanes.
    fn first_row(&self, at: OperationRef<'c, 'a>, tx: Value<'c, 'a>) -> Value<'c, 'a> {
        let t = self.tiles;
        let warps_per_row = t.bn / 32;
        let warp = Aff::Mod(Box::new(Aff::FloorDiv(Box::new(Aff::Dim(0)), 32 * warps_per_row)), t.bm / 32).scale(32);
        let lane = Aff::FloorDiv(Box::new(Aff::Mod(Box::new(Aff::Dim(0)), 32)), 32 / TN).scale(TM);
        self.apply(at, warp.plus(lane), &[tx])
    }

    /// The first of the columns of C (in the block) thread `tx` sums: its
    /// warp's 32-column tile, then 8 columns per lane mod 4.
    fn first_column(&self, at: OperationRef<'c, 'a>, tx: Value<'c, 'a>) -> Value<'c, 'a> {
        let warps_per_row = self.tiles.bn / 32;
        let warp = Aff::Mod(Box::new(Aff::FloorDiv(Box::new(Aff::Dim(0)), 32)), warps_per_row).scale(32);
        let lane = Aff::Mod(Box::new(Aff::Dim(0)), 32 / TN).scale(TN);
        self.apply(at, warp.plus(lane), &[tx])
    }

    /// `vector.load` of `ty` at `indices` (16-byte aligned: rows of the
    /// shared buffers are whole 16-byte groups, runs start at multiples of 4).
    fn vector_load(&self, at: OperationRef<'c, 'a>, memref: Value<'c, 'a>, indices: &[Value<'c, 'a>], ty: Type<'c>) -> Value<'c, 'a> {
        let operands: Vec<Value> = std::iter::once(memref).chain(indices.iter().copied()).collect();
        self.e.value(at, "vector.load", &operands, ty, &[("alignment", self.e.attr("16 : i64"))])
    }

    fn vector_store(&self, at: OperationRef<'c, 'a>, value: Value<'c, 'a>, memref: Value<'c, 'a>, indices: &[Value<'c, 'a>]) {
        let operands: Vec<Value> = [value, memref].into_iter().chain(indices.iter().copied()).collect();
        self.e.op(at, "vector.store", &operands, &[], &[("alignment", self.e.attr("16 : i64"))]);
    }
}
