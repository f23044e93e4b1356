//! Splitting an elementwise nest that reads the results of two products,
//! so that each product's kernel can take in its own part of it.
//!
//! A ResNet block with a projection shortcut adds two convolutions:
//! PT2E requantizes the shortcut's sums to 8 bits (quantize, then
//! dequantize for the add) and the add reads the other convolution's sums.
//! After fusion this is one nest `E` reading both i32 products `C1` and
//! `C2`: `pb-matrix-tile` can apply it in one product's kernel only, and
//! the other product's sums are stored (4 bytes each) and read back.
//!
//! When `E` has a narrowing cast to 8 bits or fewer (`arith.fptoui`,
//! `arith.fptosi`, `arith.trunci`) whose operands come from one product
//! alone, the cast and what it is computed from move into a nest `E1` of
//! their own, with `E`'s loops, just before `E`, storing into an 8-bit
//! temporary `N` over `E`'s iteration space; `E` reads `N` instead. `E1`
//! then reads one product (the kernel of that product applies it and
//! writes 1 byte per element), and `E` the other. Both nests compute what
//! `E` computed, element by element: `E1` runs entirely before `E`, and
//! reads nothing `E` writes at another element (`E` is elementwise).
//!
//! ```mlir
//! affine.for %i, %j { out[i,j] = f(C1[i,j], g(C2[i,j]) : i8) }
//! // becomes
//! affine.for %i, %j { N[i,j] = g(C2[i,j]) : i8 }
//! affine.for %i, %j { out[i,j] = f(C1[i,j], N[i,j]) }
//! ```

use melior::{
    ir::{attribute::Attribute, operation::OperationLike, r#type::{ShapedTypeLike, Type}, BlockLike, OperationRef, RegionLike, Value, ValueLike},
    Context,
};
use pb_polyhedral::{aff::mlir_map, Aff, Scop};
use pb_support::{
    builder, ffi,
    ir::{ancestor_in, block_ops, is_named},
};

use crate::contraction_epilogue::{copy_source, statement_ops, top_level_users};

/// Splits the nest that reads `c` (the result of the product `product`)
/// when it also reads another wide temporary of its block and has a
/// narrowing cast fed by one of them alone; returns whether it did.
pub(crate) fn split_two_products<'c, 'a>(context: &'c Context, product: OperationRef<'c, 'a>, c: Value<'c, 'a>) -> bool {
    let Some(e) = sole_reader(product, c) else { return false };
    let Some(plan) = plan(e, c) else { return false };
    apply(context, e, &plan).is_some()
}

/// What to split: the innermost body's ops (in order), the index of the
/// narrowing cast, the indices of the ops it is computed from (itself
/// included), and the loops' trip counts.
struct Plan<'c, 'a> {
    ops: Vec<OperationRef<'c, 'a>>,
    cast: usize,
    slice: Vec<usize>,
    trips: Vec<i64>,
}

/// The one top-level nest of `c`'s block other than `product` that loads `c`.
fn sole_reader<'c, 'a>(product: OperationRef<'c, 'a>, c: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let alloc = ffi::defining_op(c).filter(|op| is_named(*op, "memref.alloc"))?;
    let block = alloc.block()?;
    let mut reader = None;
    for user in ffi::users(c) {
        if !is_named(user, "affine.load") {
            continue;
        }
        let top = ancestor_in(user, block)?;
        if top == product {
            continue;
        }
        match reader {
            None => reader = Some(top),
            Some(r) if r == top => {}
            Some(_) => return None,
        }
    }
    reader.filter(|r| is_named(*r, "affine.for"))
}

/// A temporary of `block` (`memref.alloc` there) with 32-bit or wider
/// elements, computed there: not a copy of something else (a bias
/// broadcast, which the kernels read through).
fn wide_temporary(memref: Value, block: melior::ir::BlockRef) -> bool {
    let Some(alloc) = ffi::defining_op(memref) else { return false };
    if !is_named(alloc, "memref.alloc") || alloc.block() != Some(block) {
        return false;
    }
    let Ok(ty) = melior::ir::r#type::MemRefType::try_from(memref.r#type()) else { return false };
    if ffi::int_or_float_width(ty.element()).is_none_or(|w| w < 32) {
        return false;
    }
    !matches!(top_level_users(memref, "affine.store", block).as_slice(), [single] if copy_source(*single, memref).is_some())
}

fn plan<'c, 'a>(e: OperationRef<'c, 'a>, c: Value<'c, 'a>) -> Option<Plan<'c, 'a>> {
    let block = e.block()?;
    let scop = Scop::extract(&[e]).ok()?;
    let [s] = scop.statements.as_slice() else { return None };
    let mut trips = Vec::new();
    for b in &s.bounds {
        let (lo, hi) = b.constant()?;
        if lo != 0 || b.step != 1 {
            return None;
        }
        trips.push(hi);
    }
    // One statement directly in the innermost loop, of loads, arithmetic
    // and stores.
    let ops = statement_ops(s)?;
    if s.loops.len() != trips.len() {
        return None;
    }
    // The wide temporaries it reads: `c` and at least one other.
    let wide_load = |op: &OperationRef| is_named(*op, "affine.load") && op.operand(0).is_ok_and(|m| wide_temporary(m, block));
    let mut wide: Vec<Value> = Vec::new();
    for op in ops.iter().filter(|op| wide_load(op)) {
        let memref = op.operand(0).ok()?;
        if !wide.contains(&memref) {
            wide.push(memref);
        }
    }
    if wide.len() < 2 || !wide.contains(&c) {
        return None;
    }
    let position = |v: Value| ffi::defining_op(v).and_then(|d| ops.iter().position(|o| *o == d));
    // The last narrowing cast computed from one wide temporary alone.
    for (x, op) in ops.iter().enumerate().rev() {
        let narrowing = ["arith.fptoui", "arith.fptosi", "arith.trunci"].iter().any(|n| is_named(*op, n));
        let narrow = op.result(0).ok().and_then(|r| ffi::int_or_float_width(r.r#type())).is_some_and(|w| w <= 8);
        if !narrowing || !narrow {
            continue;
        }
        // Its backward slice within the statement.
        let mut slice = vec![x];
        let mut k = 0;
        while k < slice.len() {
            let at = ops[slice[k]];
            for operand in at.operands() {
                if let Some(p) = position(operand) {
                    if !slice.contains(&p) {
                        slice.push(p);
                    }
                }
            }
            k += 1;
        }
        let mut sources: Vec<Value> = Vec::new();
        for memref in slice.iter().filter(|k| wide_load(&ops[**k])).filter_map(|k| ops[*k].operand(0).ok()) {
            if !sources.contains(&memref) {
                sources.push(memref);
            }
        }
        if sources.len() != 1 || slice.iter().any(|k| is_named(ops[*k], "affine.store")) {
            continue;
        }
        slice.sort_unstable();
        return Some(Plan { ops, cast: x, slice, trips });
    }
    None
}

/// The induction variables of a perfect nest from its outermost loop, and
/// the innermost body's terminator.
fn loops_of<'c, 'a>(nest: OperationRef<'c, 'a>) -> Option<(Vec<Value<'c, 'a>>, OperationRef<'c, 'a>)> {
    let mut ivs = Vec::new();
    let mut current = nest;
    loop {
        let body = current.region(0).ok()?.first_block()?;
        ivs.push(body.argument(0).ok()?.into());
        let ops = block_ops(body);
        match ops.first() {
            Some(first) if is_named(*first, "affine.for") && ops.len() == 2 => current = *first,
            _ => return Some((ivs, *ops.last()?)),
        }
    }
}

fn apply<'c>(context: &'c Context, e: OperationRef<'c, '_>, plan: &Plan<'c, '_>) -> Option<()> {
    let block = e.block()?;
    let location = e.location();
    let cast = plan.ops[plan.cast];
    let narrow = cast.result(0).ok()?.r#type();
    let build = |name: &str, operands: &[Value<'c, '_>], results: &[Type<'c>], attributes: &[(&str, Attribute<'c>)]| {
        builder::build_operation(context, location, name, operands, results, attributes, vec![])
    };
    let attr = |text: &str| Attribute::parse(context, text);
    // N: the narrow values over E's iteration space.
    let shape: Vec<String> = plan.trips.iter().map(|t| t.to_string()).collect();
    let n_type = Type::parse(context, &format!("memref<{}x{}>", shape.join("x"), narrow))?;
    let alloc = build(
        "memref.alloc",
        &[],
        &[n_type],
        &[("alignment", attr("64 : i64")?), ("operandSegmentSizes", attr("array<i32: 0, 0>")?)],
    );
    let alloc = block.insert_operation_before(e, alloc);
    let n: Value = alloc.result(0).ok()?.into();
    let identity: Vec<Aff> = (0..plan.trips.len()).map(Aff::Dim).collect();
    let map = attr(&mlir_map(plan.trips.len(), 0, &identity))?;
    // E1: a copy of E keeping the slice, storing the cast into N.
    let e1 = block.insert_operation_before(e, ffi::clone_operation(e));
    let (ivs1, end1) = loops_of(e1)?;
    let ops1: Vec<OperationRef> = block_ops(end1.block()?).into_iter().filter(|op| !is_named(*op, "affine.yield")).collect();
    if ops1.len() != plan.ops.len() {
        return None;
    }
    let cast1: Value = ops1[plan.cast].result(0).ok()?.into();
    let operands: Vec<Value> = [cast1, n].into_iter().chain(ivs1.iter().copied()).collect();
    end1.block()?.insert_operation_before(end1, build("affine.store", &operands, &[], &[("map", map)]));
    for (k, op) in ops1.iter().enumerate().rev() {
        if !plan.slice.contains(&k) {
            // SAFETY: ops after it in the body that used its results are
            // erased first (reverse order); the slice uses none of them.
            unsafe { ffi::erase(*op) };
        }
    }
    // E reads N where it computed the cast; what only the cast needed goes.
    let (ivs, _) = loops_of(e)?;
    let operands: Vec<Value> = std::iter::once(n).chain(ivs.iter().copied()).collect();
    let load = cast.block()?.insert_operation_before(cast, build("affine.load", &operands, &[narrow], &[("map", map)]));
    ffi::replace_all_uses(cast.result(0).ok()?.into(), load.result(0).ok()?.into());
    for op in plan.ops.iter().rev() {
        let dead = !is_named(*op, "affine.store") && (0..op.result_count()).all(|r| op.result(r).is_ok_and(|v| !ffi::has_uses(v)));
        if dead {
            // SAFETY: an op without side effects whose results are unused.
            unsafe { ffi::erase(*op) };
        }
    }
    // N freed after E.
    if let Some(next) = e.next_in_block() {
        block.insert_operation_before(next, build("memref.dealloc", &[n], &[], &[]));
    }
    Some(())
}
