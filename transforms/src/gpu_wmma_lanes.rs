//! `pb-gpu-wmma-lanes`: the warp-level matrix ops of a kernel
//! (`gpu.subgroup_mma_*`, 16x16x16 f16 products summed in f32) as what each
//! lane of an RDNA3 wave32 holds, around `amdgpu.wmma` (`v_wmma_f32_16x16x16_f16`).
//!
//! Upstream lowers `gpu.subgroup_mma_*` to NVVM's `wmma` intrinsics only;
//! on AMD's RDNA3 the fragments are ordinary per-lane vectors whose layout
//! the ISA fixes, so the loads and stores become plain vector and scalar
//! accesses (lane `l`, `r = l mod 16`, `h = l div 16`):
//!
//! - A (`AOp`, 16x16 f16): row `r` of the tile, 16 halves (`vector.load`
//!   of the contiguous row; lanes 16-31 hold the same rows);
//! - B (`BOp`): column `r`, 16 halves (16 loads down the column);
//! - C/D (`COp`, f32): column `r` of rows `2i + h`, `i < 8` (vector<8xf32>);
//! - `gpu.subgroup_mma_compute` → `amdgpu.wmma 16x16x16`;
//! - `gpu.subgroup_mma_constant_matrix` → a splat of the lane's vector;
//! - fragments carried by loops (a k-loop's sums) change type with them.
//!
//! Runs in the `gpu-lower` stage of the amdgpu pipeline, after the mapping
//! (whose fragments the emulation checks at the `subgroup_mma` level); a
//! matrix op of another shape or type, or on a buffer that is not a
//! row-major 2-d one, is an error naming it.

use crate::emit_at::Emit;
use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationLike, WalkOrder},
        r#type::ShapedTypeLike,
        OperationRef, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use crate::mma_fragment;
use pb_support::{ffi, ir::{self, is_named}, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-gpu-wmma-lanes",
    summary: "gpu.subgroup_mma ops (16x16x16 f16, f32 sums) as RDNA3 wave32 per-lane vectors around amdgpu.wmma",
    description: "Each gpu.subgroup_mma_load_matrix becomes the loads of what the lane holds in the RDNA3 \
WMMA layout (A: row lane mod 16; B: column lane mod 16; C: column lane mod 16 of rows 2i + lane div 16), \
each compute an amdgpu.wmma 16x16x16, each constant a splat, each store the lane's scalar stores; \
loops carrying fragments carry the vectors. Other shapes or types, and buffers that are not row-major \
2-d ones, are errors. Runs in the amdgpu pipeline's gpu-lower stage (upstream lowers gpu.subgroup_mma \
to NVVM only).",
    anchor: "builtin.module",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<GpuWmmaLanes>,
};

#[derive(Clone, Default)]
struct GpuWmmaLanes;

impl RustPass for GpuWmmaLanes {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["affine", "amdgpu", "arith", "gpu", "memref", "vector"]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let ops = ffi::collect_ops(module, WalkOrder::PreOrder, |op| ir::op_name(op).starts_with("gpu.subgroup_mma"));
        if ops.is_empty() {
            return Ok(());
        }
        let mut ok = true;
        ffi::with_context(module, |context| {
            for op in &ops {
                if let Err(message) = lower(context, *op) {
                    ffi::emit_error(op.location(), &format!("pb-gpu-wmma-lanes: {message}"));
                    ok = false;
                }
            }
        });
        if !ok {
            return Err(PassFailed);
        }
        // Loops carrying fragments carry the lanes' vectors.
        let loops = ffi::collect_ops(module, WalkOrder::PreOrder, |op| is_named(op, "scf.for"));
        ffi::with_context(module, |context| {
            for lp in loops {
                retype_carried(context, lp);
            }
        });
        for op in ops.into_iter().rev() {
            // SAFETY: each op's result (if any) was replaced by its lanes' vector; erased users first.
            unsafe { ffi::erase(op) };
        }
        Ok(())
    }
}

/// The lane's vector type for a fragment type (16x16 f16 A/B, f32 C).
fn lane_type<'c>(context: &'c Context, ty: Type<'c>) -> Result<Type<'c>, String> {
    let f = mma_fragment::parse(ty).ok_or_else(|| format!("'{ty}' is not a fragment type"))?;
    let text = match (f.rows, f.columns, f.element.as_str(), f.kind.as_str()) {
        (16, 16, "f16", "AOp" | "BOp") => "vector<16xf16>",
        (16, 16, "f32", "COp") => "vector<8xf32>",
        _ => return Err(format!("no RDNA3 WMMA layout for '{ty}' (16x16 f16 operands, f32 sums)")),
    };
    Ok(Type::parse(context, text).expect("a vector type"))
}

fn lower<'c, 'a>(context: &'c Context, op: OperationRef<'c, 'a>) -> Result<(), String> {
    let e = Emit { context, location: op.location() };
    let name = ir::op_name(op);
    if op.attribute("transpose").is_ok() || op.attribute("a_transpose").is_ok() || op.attribute("b_transpose").is_ok() {
        return Err(format!("'{name}' with a transposed operand"));
    }
    let index = Type::index(context);
    let operand = |i: usize| ffi::operand(op, i).ok_or_else(|| format!("'{name}' without operand {i}"));
    let lane = || -> Value<'c, 'a> { e.value(op, "gpu.lane_id", &[], index, &[]) };
    let at = |expr: &str, lane: Value<'c, 'a>| -> Value<'c, 'a> {
        // `expr` over d0 = the lane.
        let map = e.attr(&format!("affine_map<(d0) -> ({expr})>"));
        e.value(op, "affine.apply", &[lane], index, &[("map", map)])
    };
    let add = |x: Value<'c, 'a>, y: Value<'c, 'a>| e.value(op, "arith.addi", &[x, y], index, &[]);
    let result = |new: Value<'c, 'a>| {
        if let Ok(old) = op.result(0) {
            ffi::replace_all_uses(old.into(), new);
        }
    };
    match name.as_str() {
        "gpu.subgroup_mma_constant_matrix" => {
            let ty = lane_type(context, op.result(0).map_err(|_| "a result")?.r#type())?;
            result(e.value(op, "vector.broadcast", &[operand(0)?], ty, &[]));
        }
        "gpu.subgroup_mma_load_matrix" => {
            let fragment_type = op.result(0).map_err(|_| "a result")?.r#type();
            let ty = lane_type(context, fragment_type)?;
            let (memory, i, j) = (operand(0)?, operand(1)?, operand(2)?);
            row_major(op, memory)?;
            let element = crate::emit_at::memref_element(memory).ok_or("a memref")?;
            let kind = mma_fragment::parse(fragment_type).map(|f| f.kind).unwrap_or_default();
            let l = lane();
            let r = at("d0 mod 16", l);
            let value = match kind.as_str() {
                // Row r, contiguous.
                "AOp" => e.value(op, "vector.load", &[memory, add(i, r), j], ty, &[]),
                // Column r, down 16 rows.
                "BOp" => {
                    let column = add(j, r);
                    let elements: Vec<Value> = (0..16)
                        .map(|k| {
                            let row = add(i, e.constant(op, "index", &k.to_string()));
                            e.value(op, "memref.load", &[memory, row, column], element, &[])
                        })
                        .collect();
                    e.value(op, "vector.from_elements", &elements, ty, &[])
                }
                // Column r of rows 2k + h.
                _ => {
                    let column = add(j, r);
                    let h = at("d0 floordiv 16", l);
                    let elements: Vec<Value> = (0..8)
                        .map(|k| {
                            let row = add(add(i, e.constant(op, "index", &(2 * k).to_string())), h);
                            e.value(op, "memref.load", &[memory, row, column], element, &[])
                        })
                        .collect();
                    e.value(op, "vector.from_elements", &elements, ty, &[])
                }
            };
            result(value);
        }
        "gpu.subgroup_mma_compute" => {
            let c = operand(2)?;
            let sum = op.result(0).map_err(|_| "a result")?.r#type();
            lane_type(context, sum)?;
            let ty = Type::parse(context, "vector<8xf32>").expect("vector<8xf32>");
            let i32 = |n: i64| e.attr(&format!("{n} : i32"));
            let wmma = e.value(
                op,
                "amdgpu.wmma",
                &[operand(0)?, operand(1)?, c],
                ty,
                &[("m", i32(16)), ("n", i32(16)), ("k", i32(16)), ("subwordOffset", i32(0))],
            );
            result(wmma);
        }
        "gpu.subgroup_mma_store_matrix" => {
            let (value, memory, i, j) = (operand(0)?, operand(1)?, operand(2)?, operand(3)?);
            row_major(op, memory)?;
            let element = crate::emit_at::memref_element(memory).ok_or("a memref")?;
            let l = lane();
            let column = add(j, at("d0 mod 16", l));
            let h = at("d0 floordiv 16", l);
            for k in 0..8 {
                let row = add(add(i, e.constant(op, "index", &(2 * k).to_string())), h);
                let position = e.attr(&format!("array<i64: {k}>"));
                let x = e.value(op, "vector.extract", &[value], element, &[("static_position", position)]);
                e.op(op, "memref.store", &[x, memory, row, column], &[], &[]);
            }
        }
        _ => return Err(format!("'{name}' has no RDNA3 lowering")),
    }
    Ok(())
}

/// Is `memory` a 2-d buffer laid out row-major (what the lanes' accesses assume)?
fn row_major(op: OperationRef, memory: Value) -> Result<(), String> {
    let ty = melior::ir::r#type::MemRefType::try_from(memory.r#type()).map_err(|_| "a matrix op on a non-memref")?;
    if ty.rank() != 2 || !ffi::has_identity_layout(ty) {
        return Err(format!("'{}' on a buffer that is not a row-major 2-d one", ir::op_name(op)));
    }
    Ok(())
}

/// Gives loop `lp`'s carried fragments (body arguments and results) the
/// lanes' vector types.
fn retype_carried(context: &Context, lp: OperationRef) {
    let Some(body) = lp.region(0).ok().and_then(|r| r.first_block()) else { return };
    for q in 0..lp.result_count() {
        let Some(result) = ffi::result(lp, q) else { continue };
        let Ok(ty) = lane_type(context, result.r#type()) else { continue };
        ffi::set_type(result, ty);
        if let Ok(argument) = body.argument(q + 1) {
            ffi::set_type(argument.into(), ty);
        }
    }
}
