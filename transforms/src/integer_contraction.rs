//! `pb-integer-contraction`: contractions of dequantized 8-bit tensors
//! computed as integer products, the scales applied once to each sum.
//!
//! A PT2E-quantized PyTorch model (and a TOSA or `pbq` program once
//! lowered) reaches the engine as float arithmetic: each 8-bit operand of a
//! matmul or convolution is dequantized elementwise, `(q - z) * s`, and the
//! contraction multiplies floats. With the scales and zero points fixed
//! along the reduction (per tensor, or per output channel as PT2E's
//! weights are), the sum factors:
//!
//! ```text
//! sum_r (a - za)(b - zb) sa sb = sa sb (sum_r a b - zb sum_r a - za sum_r b + R za zb)
//! ```
//!
//! so the contraction becomes one `i8 x i8 -> i32` product of the stored
//! integers (what the CPU's dot-product units compute: AMX-INT8 tiles, VNNI),
//! the two operand sums (only where the other zero point may be non-zero;
//! each costs one pass over an operand, not a product), and an elementwise
//! epilogue that corrects, converts and scales each sum, which fusion then
//! joins with the bias, activation and requantization that follow. Integer
//! sums are exact (modulo 2^32, so exact whenever the result fits in i32,
//! as it does for any reduction shorter than 65,000 u8 x s8 products); the
//! float result differs from the float reference only by the reference's
//! own rounding.
//!
//! Recognized, on tensors: `linalg.matmul`, `linalg.batch_matmul`,
//! `linalg.conv_2d_nchw_fchw`, `linalg.conv_2d_nhwc_hwcf` and
//! `linalg.generic` multiply-accumulates of f32, whose two inputs are each
//! a dequantization (an elementwise `linalg.generic` computing
//! `(ext(q) - z) * s` or `(tofp(q) - z) * s` of an 8-bit `q`, with `s` and
//! `z` constants or tensors indexed by `q`'s dimensions), seen through
//! `linalg.transpose`s, reshapes (`tensor.collapse_shape`/`expand_shape`:
//! the integers are read at the reshaped indices) and one `tensor.pad` of
//! zeros (the integers are then
//! padded with their zero point, which must be a constant). Anything else,
//! and scales or zero points that vary along the reduction, is left as it
//! is.
//!
//! ```mlir
//! %a = linalg.generic ... ins(%qa : tensor<128x768xi8>) { (extui %q - 128) * 0.03 }
//! %b = linalg.generic ... ins(%qb, %s, %z : tensor<768x64xi8>, ...) { (extsi %q - %z) * %s }
//! %c = linalg.matmul ins(%a, %b) outs(%zero : tensor<128x64xf32>)
//! // becomes
//! %p = linalg.generic ins(%qa, %qb) outs(%zero_i32) { c + extui a * extsi b }
//! %sb = linalg.generic ins(%qb) outs(%zero_i32_64) { c + extsi b }   // za != 0
//! %sa = linalg.generic ins(%qa) outs(%zero_i32_128) { c + extui a }  // z may be != 0
//! %c = linalg.generic ins(%p, %s, %z, %sa, %sb) { sitofp(p - z sa - 128 sb + 768*128 z) * (0.03 s) }
//! ```

use melior::{
    ir::{
        attribute::{ArrayAttribute, FloatAttribute, IntegerAttribute},
        block::BlockLike,
        operation::{OperationLike, WalkOrder},
        r#type::{IntegerType, RankedTensorType},
        Block, OperationRef, Region, RegionLike, Type, TypeLike, Value, ValueLike,
    },
    Context,
};
use pb_dialects::type_utils::{shape_and_element, signless_int_width};
use crate::linalg_ops::integers;
use pb_polyhedral::{aff::mlir_map, Aff};
use pb_support::{
    builder::{emit_before, Emitter},
    ffi,
    ir::{constant_int, is_named},
    PassFailed, PassId, PassInfo, PassOptions, RustPass,
};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-integer-contraction",
    summary: "Contractions of dequantized 8-bit operands as i8 x i8 -> i32 products, scales applied to the sums",
    description: "A matmul, batch matmul, convolution or multiply-accumulate `linalg.generic` on \
tensors whose two f32 inputs are dequantized 8-bit tensors (`(q - z) * s`, through transposes, \
reshapes and a zero padding) becomes an integer product of the stored integers, the operand sums its \
zero points need, and an elementwise epilogue `sitofp(corrected sum) * sa * sb`. Requires scales \
and zero points constant along the reduction (per tensor or per output channel).",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create,
};

fn create(_: &PassOptions) -> Box<dyn RustPass> {
    Box::new(IntegerContraction)
}

#[derive(Clone)]
struct IntegerContraction;

impl RustPass for IntegerContraction {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["arith", "linalg", "tensor"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let candidates = ffi::collect_ops(func, WalkOrder::PreOrder, |op| {
            ["linalg.matmul", "linalg.batch_matmul", "linalg.generic", "linalg.conv_2d_nchw_fchw", "linalg.conv_2d_nhwc_hwcf"]
                .iter()
                .any(|name| is_named(op, name))
        });
        for op in candidates {
            ffi::with_context(op, |context| rewrite(context, op));
        }
        Ok(())
    }
}

/// A scale or zero point: a constant, or a tensor read at indices given as
/// expressions over some loops.
#[derive(Clone)]
enum Param<'c, 'a> {
    Const(f64),
    Tensor { value: Value<'c, 'a>, map: Vec<Aff> },
}

impl<'c, 'a> Param<'c, 'a> {
    fn is_zero(&self) -> bool {
        matches!(self, Param::Const(c) if *c == 0.0)
    }

    /// The same parameter with its loops renamed by `dims`.
    fn substitute(&self, dims: &[Aff]) -> Self {
        match self {
            Param::Const(c) => Param::Const(*c),
            Param::Tensor { value, map } => Param::Tensor { value: *value, map: map.iter().map(|e| e.substitute(dims)).collect() },
        }
    }

    fn uses_only(&self, allowed: &dyn Fn(usize) -> bool, loops: usize) -> bool {
        match self {
            Param::Const(_) => true,
            Param::Tensor { map, .. } => map.iter().all(|e| (0..loops).all(|d| allowed(d) || !e.uses_dim(d))),
        }
    }
}

/// A contraction: its loops, the maps of its inputs and output over them,
/// which loops are reductions, and the loop extents.
struct Contraction<'c, 'a> {
    inputs: [Value<'c, 'a>; 2],
    init: Value<'c, 'a>,
    maps: [Vec<Aff>; 3],
    reduction: Vec<bool>,
    extents: Vec<i64>,
}

/// An 8-bit operand of the contraction: the stored integers `q`, read at
/// `map` (over the contraction's loops), their signedness, scale and zero
/// point (over the contraction's loops), and the zero padding to apply.
struct Operand<'c, 'a> {
    q: Value<'c, 'a>,
    map: Vec<Aff>,
    unsigned: bool,
    scale: Param<'c, 'a>,
    zero: Param<'c, 'a>,
    pad: Option<(Vec<i64>, Vec<i64>)>,
}

/// An affine map without symbols: its dimension count and results.
fn affs(attribute: melior::ir::Attribute) -> Option<(usize, Vec<Aff>)> {
    let map = ffi::affine_map_of(attribute)?;
    if map.symbol_count() != 0 {
        return None;
    }
    let results = (0..map.result_count()).map(|r| Aff::from_mlir(map.result(r).ok()?)).collect::<Option<_>>()?;
    Some((map.dim_count(), results))
}

fn static_shape(value: Value) -> Option<Vec<i64>> {
    pb_dialects::type_utils::static_shape(value.r#type())
}

fn element<'c>(value: Value<'c, '_>) -> Type<'c> {
    shape_and_element(value.r#type()).1
}

/// The multiply-accumulate statement of a body: `out + in0 * in1` (any
/// operand order) on f32.
fn multiply_accumulate(op: OperationRef) -> bool {
    let Some(block) = op.region(0).ok().and_then(|r| r.first_block()) else { return false };
    let Some(yield_op) = block.terminator() else { return false };
    let arg = |v: Value| ffi::block_argument(v).map(|a| a.argument_number());
    let Some(sum) = yield_op.operand(0).ok().and_then(ffi::defining_op) else { return false };
    if !is_named(sum, "arith.addf") {
        return false;
    }
    let (x, y) = (sum.operand(0).unwrap(), sum.operand(1).unwrap());
    let (product, out) = if arg(y) == Some(2) { (x, y) } else { (y, x) };
    if arg(out) != Some(2) {
        return false;
    }
    let Some(product) = ffi::defining_op(product).filter(|p| is_named(*p, "arith.mulf")) else { return false };
    let mut factors = [arg(product.operand(0).unwrap()), arg(product.operand(1).unwrap())];
    factors.sort();
    factors == [Some(0), Some(1)] && pb_support::ir::ops_before_terminator(block).len() == 2
}

/// Reads `op` as a contraction of f32 tensors with static shapes.
fn contraction<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<Contraction<'c, 'a>> {
    let name = op.name().as_string_ref().as_str().ok()?.to_string();
    if op.operand_count() != 3 || op.result_count() != 1 {
        return None;
    }
    let (a, b, init) = (op.operand(0).ok()?, op.operand(1).ok()?, op.operand(2).ok()?);
    if [a, b, init].iter().any(|v| !element(*v).is_f32()) {
        return None;
    }
    let (loops, maps): (usize, [Vec<Aff>; 3]) = match name.as_str() {
        "linalg.matmul" | "linalg.batch_matmul" | "linalg.generic" => {
            if !multiply_accumulate(op) {
                return None;
            }
            let list = ArrayAttribute::try_from(op.attribute("indexing_maps").ok()?).ok()?;
            let (loops, a) = affs(list.element(0).ok()?)?;
            let ((_, b), (_, c)) = (affs(list.element(1).ok()?)?, affs(list.element(2).ok()?)?);
            (loops, [a, b, c])
        }
        "linalg.conv_2d_nchw_fchw" | "linalg.conv_2d_nhwc_hwcf" => {
            if !multiply_accumulate(op) {
                return None;
            }
            // `dense<2>` (a splat) stands for both axes.
            let pair = |v: Vec<i64>| if v.len() == 1 { vec![v[0], v[0]] } else { v };
            let strides = pair(integers(op.attribute("strides").ok()?)?);
            let dilations = pair(integers(op.attribute("dilations").ok()?)?);
            if strides.len() != 2 || dilations.len() != 2 {
                return None;
            }
            let window = |o: usize, k: usize, axis: usize| Aff::Dim(o).scale(strides[axis]).plus(Aff::Dim(k).scale(dilations[axis]));
            let d = Aff::Dim;
            let maps = if name == "linalg.conv_2d_nchw_fchw" {
                // (n, f, oh, ow, c, kh, kw)
                [vec![d(0), d(4), window(2, 5, 0), window(3, 6, 1)], vec![d(1), d(4), d(5), d(6)], vec![d(0), d(1), d(2), d(3)]]
            } else {
                // (n, oh, ow, f, kh, kw, c)
                [vec![d(0), window(1, 4, 0), window(2, 5, 1), d(6)], vec![d(4), d(5), d(6), d(3)], vec![d(0), d(1), d(2), d(3)]]
            };
            (7, maps)
        }
        _ => return None,
    };
    // The output is a permutation of the parallel loops.
    let mut parallel = vec![false; loops];
    for e in &maps[2] {
        let Aff::Dim(k) = e else { return None };
        if parallel[*k] {
            return None;
        }
        parallel[*k] = true;
    }
    let shapes = [static_shape(a)?, static_shape(b)?, static_shape(init)?];
    let extents: Option<Vec<i64>> = (0..loops)
        .map(|k| {
            maps.iter().zip(&shapes).find_map(|(map, shape)| map.iter().position(|e| *e == Aff::Dim(k)).map(|r| shape[r]))
        })
        .collect();
    Some(Contraction { inputs: [a, b], init, maps, reduction: parallel.iter().map(|p| !p).collect(), extents: extents? })
}

/// `value` as an 8-bit operand read at `map`, if it is a dequantization
/// (through transposes, reshapes and one zero padding).
fn operand<'c: 'a, 'a>(value: Value<'c, 'a>, map: &[Aff]) -> Option<Operand<'c, 'a>> {
    let mut value = value;
    let read = map.to_vec();
    let mut map = map.to_vec();
    let mut pad = None;
    if let Some(op) = ffi::defining_op(value).filter(|op| is_named(*op, "tensor.pad")) {
        if op.operand_count() != 1 || !pads_with_zero(op) {
            return None;
        }
        let low = integers(op.attribute("static_low").ok()?)?;
        let high = integers(op.attribute("static_high").ok()?)?;
        map = map.iter().zip(&low).map(|(e, l)| e.clone().plus(Aff::Const(-l))).collect();
        pad = Some((low, high));
        value = op.operand(0).ok()?;
    }
    // Transposes, reshapes and broadcasts only move elements: the
    // dequantization is read where they read it (a linear layer on
    // `[batch, tokens, features]` activations that PyTorch cannot flatten
    // multiplies by its weight broadcast over the batch).
    while let Some(op) = ffi::defining_op(value).filter(|op| {
        is_named(*op, "linalg.transpose")
            || is_named(*op, "tensor.collapse_shape")
            || is_named(*op, "tensor.expand_shape")
            || copy_map(*op).is_some()
    }) {
        if pad.is_some() {
            return None;
        }
        let source = op.operand(0).ok()?;
        map = if let Some(read) = copy_map(op) {
            read.iter().map(|x| x.substitute(&map)).collect()
        } else if is_named(op, "linalg.transpose") {
            let permutation = integers(op.attribute("permutation").ok()?)?;
            let mut input_map = map.clone();
            for (k, p) in permutation.iter().enumerate() {
                input_map[*p as usize] = map[k].clone();
            }
            input_map
        } else {
            let groups = reassociation(op)?;
            let collapse = is_named(op, "tensor.collapse_shape");
            // The side with a dimension per group member.
            let wide = static_shape(if collapse { source } else { op.result(0).ok()?.into() })?;
            through_reshape(&map, &groups, &wide, collapse)?
        };
        value = source;
    }
    let generic = ffi::defining_op(value).filter(|op| is_named(*op, "linalg.generic"))?;
    let (q, unsigned, scale, zero) = dequantization(generic)?;
    if pad.is_some() && !matches!(zero, Param::Const(_)) {
        return None;
    }
    // A padded operand is read in the padded integers (rebuilt from `q`).
    let read = if pad.is_some() { read } else { map.clone() };
    Some(Operand { q, map: read, unsigned, scale: scale.substitute(&map), zero: zero.substitute(&map), pad })
}

/// A `linalg.generic` copying its one input into an output it writes at
/// its loops (identity map), all loops parallel, its body the input's
/// value: a broadcast or a permutation. The input's map, over those loops.
fn copy_map(op: OperationRef) -> Option<Vec<Aff>> {
    if !is_named(op, "linalg.generic") || op.operand_count() != 2 || op.result_count() != 1 {
        return None;
    }
    let maps = ArrayAttribute::try_from(op.attribute("indexing_maps").ok()?).ok()?;
    let (dims, read) = affs(maps.element(0).ok()?)?;
    let (_, written) = affs(maps.element(1).ok()?)?;
    if written.len() != dims || written.iter().enumerate().any(|(d, x)| *x != Aff::Dim(d)) {
        return None;
    }
    let iterators = ArrayAttribute::try_from(op.attribute("iterator_types").ok()?).ok()?;
    if (0..iterators.len()).any(|k| !iterators.element(k).is_ok_and(|t| t.to_string().contains("parallel"))) {
        return None;
    }
    let body = op.region(0).ok()?.first_block()?;
    let yield_op = body.first_operation()?;
    let copies = is_named(yield_op, "linalg.yield")
        && yield_op.operand_count() == 1
        && yield_op.operand(0).ok() == body.argument(0).ok().map(Into::into);
    copies.then_some(read)
}

/// A reshape's groups: the dimensions of its wider side that each
/// dimension of its narrower side holds.
fn reassociation(op: OperationRef) -> Option<Vec<Vec<usize>>> {
    let groups = ArrayAttribute::try_from(op.attribute("reassociation").ok()?).ok()?;
    (0..groups.len())
        .map(|g| {
            let members = ArrayAttribute::try_from(groups.element(g).ok()?).ok()?;
            (0..members.len())
                .map(|m| {
                    let member = IntegerAttribute::try_from(members.element(m).ok()?).ok()?;
                    usize::try_from(member.value()).ok()
                })
                .collect()
        })
        .collect()
}

/// Indices `map` of a reshape's result as indices of its source: through a
/// collapse (`map` over the narrow side), each group member's index from
/// the collapsed one by division and remainder (unit dimensions 0, the
/// outermost without a remainder); through an expansion (`map` over the
/// wide side), each group's row-major combination of its members. `wide`:
/// the wide side's shape.
fn through_reshape(map: &[Aff], groups: &[Vec<usize>], wide: &[i64], collapse: bool) -> Option<Vec<Aff>> {
    if collapse {
        if map.len() != groups.len() {
            return None;
        }
        let mut out = vec![Aff::Const(0); wide.len()];
        for (e, group) in map.iter().zip(groups) {
            let first = group.iter().position(|d| wide[*d] != 1);
            for (t, d) in group.iter().enumerate() {
                let stride: i64 = group[t + 1..].iter().map(|m| wide[*m]).product();
                let above = if stride == 1 { e.clone() } else { Aff::FloorDiv(Box::new(e.clone()), stride) };
                out[*d] = match wide[*d] {
                    1 => Aff::Const(0),
                    _ if Some(t) == first => above,
                    n => Aff::Mod(Box::new(above), n),
                };
            }
        }
        Some(out)
    } else {
        if map.len() != wide.len() {
            return None;
        }
        Some(
            groups
                .iter()
                .map(|group| {
                    group.iter().enumerate().fold(Aff::Const(0), |acc, (t, d)| {
                        let stride: i64 = group[t + 1..].iter().map(|m| wide[*m]).product();
                        acc.plus(map[*d].clone().scale(stride))
                    })
                })
                .collect(),
        )
    }
}

fn pads_with_zero(pad: OperationRef) -> bool {
    let Some(block) = pad.region(0).ok().and_then(|r| r.first_block()) else { return false };
    let Some(yielded) = block.terminator().and_then(|t| t.operand(0).ok()) else { return false };
    constant_float(yielded) == Some(0.0)
}

fn constant_float(value: Value) -> Option<f64> {
    let op = ffi::defining_op(value).filter(|op| is_named(*op, "arith.constant"))?;
    // Checked first: `try_from` prints a mismatching (dense) attribute.
    use melior::ir::attribute::AttributeLike;
    let attribute = op.attribute("value").ok().filter(|a| a.is_float())?;
    FloatAttribute::try_from(attribute).ok().map(|a| a.value())
}

/// Reads an elementwise generic computing `(q - z) * s` of an 8-bit `q`:
/// `q`, whether it is unsigned, and `s`, `z` over the generic's loops
/// (which are `q`'s dimensions).
fn dequantization<'c, 'a>(generic: OperationRef<'c, 'a>) -> Option<(Value<'c, 'a>, bool, Param<'c, 'a>, Param<'c, 'a>)> {
    let (inputs, outputs) = crate::linalg_ops::segments(generic)?;
    if outputs != 1 || !crate::linalg_ops::all_parallel(generic) || generic.result_count() != 1 {
        return None;
    }
    let maps = ArrayAttribute::try_from(generic.attribute("indexing_maps").ok()?).ok()?;
    let maps: Vec<Vec<Aff>> = (0..maps.len()).map(|k| Some(affs(maps.element(k).ok()?)?.1)).collect::<Option<_>>()?;
    let identity = |m: &Vec<Aff>| m.iter().enumerate().all(|(k, e)| *e == Aff::Dim(k));
    let rank = maps[inputs].len();
    if !identity(&maps[inputs]) {
        return None;
    }
    let block = generic.region(0).ok()?.first_block()?;
    let input_of = |v: Value<'c, 'a>| -> Option<usize> {
        let arg = ffi::block_argument(v)?;
        (arg.owner() == block && arg.argument_number() < inputs).then(|| arg.argument_number())
    };
    // A parameter: a constant, or an input read through its map.
    let param = |v: Value<'c, 'a>| -> Option<Param<'c, 'a>> {
        if let Some(c) = constant_float(v) {
            return Some(Param::Const(c));
        }
        if let Some(c) = constant_int(v) {
            return Some(Param::Const(c as f64));
        }
        let k = input_of(v)?;
        Some(Param::Tensor { value: generic.operand(k).ok()?, map: maps[k].clone() })
    };
    let def = |v: Value<'c, 'a>, name: &str| ffi::defining_op(v).filter(|op| is_named(*op, name));
    let product = def(block.terminator()?.operand(0).ok()?, "arith.mulf")?;
    let (x, y) = (product.operand(0).ok()?, product.operand(1).ok()?);
    let (centered, scale) = match (param(y), param(x)) {
        (Some(s), _) if def(x, "arith.subf").is_some() || def(x, "arith.sitofp").is_some() || def(x, "arith.uitofp").is_some() => (x, s),
        (_, Some(s)) => (y, s),
        _ => return None,
    };
    // Float zero point: (tofp(q) - z); else tofp(ext(q) - z) or tofp(ext(q)).
    let (converted, float_zero) = match def(centered, "arith.subf") {
        Some(sub) => (sub.operand(0).ok()?, Some(param(sub.operand(1).ok()?)?)),
        None => (centered, None),
    };
    let (to_float, signed_convert) = match (def(converted, "arith.sitofp"), def(converted, "arith.uitofp")) {
        (Some(op), _) => (op, true),
        (_, Some(op)) => (op, false),
        _ => return None,
    };
    let mut integer = to_float.operand(0).ok()?;
    let mut zero = float_zero.unwrap_or(Param::Const(0.0));
    if let Some(sub) = def(integer, "arith.subi") {
        if !signed_convert || !zero.is_zero() {
            return None;
        }
        zero = param(sub.operand(1).ok()?)?;
        integer = sub.operand(0).ok()?;
    }
    let unsigned = match (def(integer, "arith.extsi"), def(integer, "arith.extui")) {
        (Some(ext), _) => {
            integer = ext.operand(0).ok()?;
            false
        }
        (_, Some(ext)) => {
            integer = ext.operand(0).ok()?;
            true
        }
        _ if signed_convert => false,
        _ => true,
    };
    if !signed_convert && !unsigned {
        return None;
    }
    let k = input_of(integer)?;
    if signless_int_width(integer.r#type()) != Some(8) || !identity(&maps[k]) || maps[k].len() != rank {
        return None;
    }
    Some((generic.operand(k).ok()?, unsigned, scale, zero))
}

/// Rewrites `op` if it is a contraction of two dequantized 8-bit operands
/// whose scales and zero points are constant along the reduction.
fn rewrite<'c>(context: &'c Context, op: OperationRef<'c, '_>) {
    let Some(c) = contraction(op) else { return };
    let Some(a) = operand(c.inputs[0], &c.maps[0]) else { return };
    let Some(b) = operand(c.inputs[1], &c.maps[1]) else { return };
    let loops = c.extents.len();
    let parallel = |d: usize| !c.reduction[d];
    if ![&a.scale, &a.zero, &b.scale, &b.zero].iter().all(|p| p.uses_only(&parallel, loops)) {
        return;
    }
    emit_before(context, op, |e| {
        let result = emit(e, &c, &a, &b);
        e.rewriter.replace_op_with_values(op, &[result]);
    });
}

fn tensor_type<'c>(shape: &[i64], element: Type<'c>) -> Type<'c> {
    let dims: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
    RankedTensorType::new(&dims, element, None).into()
}

/// A zero-filled tensor of `shape` and `element`.
fn zeros<'c, 'a>(e: &'a Emitter<'c, '_>, shape: &[i64], element: Type<'c>) -> Value<'c, 'a> {
    let ty = tensor_type(shape, element);
    let empty = e.value("tensor.empty", &[], ty, &[]);
    let zero = e.integer(element, 0);
    let fill = e.op("linalg.fill", &[zero, empty], &[ty], &[("operandSegmentSizes", e.attribute("array<i32: 1, 1>"))], vec![fill_body(e, element)]);
    fill.result(0).expect("one result").into()
}

fn fill_body<'c>(e: &Emitter<'c, '_>, element: Type<'c>) -> Region<'c> {
    let region = Region::new();
    let block = Block::new(&[(element, e.location), (element, e.location)]);
    let yielded = pb_support::builder::build_operation(e.context, e.location, "linalg.yield", &[block.argument(0).unwrap().into()], &[], &[], vec![]);
    block.append_operation(yielded);
    region.append_block(block);
    region
}

/// The integers of `x`, padded with their zero point where the float
/// operand was padded with zeros.
fn integers_of<'c, 'a>(e: &'a Emitter<'c, '_>, x: &Operand<'c, 'a>) -> Value<'c, 'a> {
    let Some((low, high)) = &x.pad else { return x.q };
    let Param::Const(zero) = x.zero else { unreachable!("checked: a padded operand's zero point is a constant") };
    let i8 = element(x.q);
    let shape = static_shape(x.q).expect("static");
    let padded: Vec<i64> = shape.iter().zip(low.iter().zip(high)).map(|(n, (l, h))| n + l + h).collect();
    let stored = if x.unsigned { zero as i64 as u8 as i8 as i64 } else { zero as i64 };
    let constant = e.integer(i8, stored);
    let region = Region::new();
    let block = Block::new(&vec![(Type::index(e.context), e.location); shape.len()]);
    let yielded = pb_support::builder::build_operation(e.context, e.location, "tensor.yield", &[constant], &[], &[], vec![]);
    block.append_operation(yielded);
    region.append_block(block);
    let list = |v: &[i64]| e.attribute(&format!("array<i64: {}>", v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")));
    let op = e.op(
        "tensor.pad",
        &[x.q],
        &[tensor_type(&padded, i8)],
        &[("static_low", list(low)), ("static_high", list(high)), ("operandSegmentSizes", e.attribute("array<i32: 1, 0, 0>"))],
        vec![region],
    );
    op.result(0).expect("one result").into()
}

/// The sum of `x` over the reductions, indexed by the parallel loops it
/// uses: the value and its map over the contraction's loops.
fn operand_sum<'c, 'a>(e: &'a Emitter<'c, '_>, c: &Contraction, x: &Operand<'c, 'a>, q: Value<'c, 'a>) -> (Value<'c, 'a>, Vec<Aff>) {
    let loops = c.extents.len();
    let kept: Vec<usize> = (0..loops).filter(|d| c.reduction[*d] || x.map.iter().any(|m| m.uses_dim(*d))).collect();
    let outer: Vec<usize> = kept.iter().copied().filter(|d| !c.reduction[*d]).collect();
    let renamed: Vec<Aff> = (0..loops).map(|d| Aff::Dim(kept.iter().position(|k| *k == d).unwrap_or(0))).collect();
    let read: Vec<Aff> = x.map.iter().map(|m| m.substitute(&renamed)).collect();
    let written: Vec<Aff> = outer.iter().map(|d| renamed[*d].clone()).collect();
    let shape: Vec<i64> = outer.iter().map(|d| c.extents[*d]).collect();
    let i32: Type = IntegerType::new(e.context, 32).into();
    let init = zeros(e, &shape, i32);
    let mut inputs = vec![q];
    let mut maps = vec![mlir_map(kept.len(), 0, &read)];
    // Loops no operand indexes alone (a convolution's window, read only
    // in `ih = oh + kh`) get their range from a shape-only operand, as the
    // filter gives it to the convolution.
    let unpinned: Vec<usize> =
        (0..kept.len()).filter(|k| !read.iter().chain(&written).any(|e| *e == Aff::Dim(*k))).collect();
    if !unpinned.is_empty() {
        let window: Vec<i64> = unpinned.iter().map(|k| c.extents[kept[*k]]).collect();
        inputs.push(e.value("tensor.empty", &[], tensor_type(&window, element(q)), &[]));
        maps.push(mlir_map(kept.len(), 0, &unpinned.iter().map(|k| Aff::Dim(*k)).collect::<Vec<_>>()));
    }
    maps.push(mlir_map(kept.len(), 0, &written));
    let elements: Vec<Type> = inputs.iter().map(|v| element(*v)).chain([i32]).collect();
    let generic = e.generic(
        &inputs,
        &[init],
        &maps,
        &kept.iter().map(|d| !c.reduction[*d]).collect::<Vec<_>>(),
        &[tensor_type(&shape, i32)],
        &elements,
    );
    let body = generic.region(0).unwrap().first_block().unwrap();
    let widened = e.unary(if x.unsigned { "arith.extui" } else { "arith.extsi" }, body.argument(0).unwrap().into(), i32);
    let sum = e.binary("arith.addi", body.argument(inputs.len()).unwrap().into(), widened);
    e.op("linalg.yield", &[sum], &[], &[], vec![]);
    e.rewriter.set_insertion_point_after(generic);
    (generic.result(0).unwrap().into(), outer.into_iter().map(Aff::Dim).collect())
}

/// The integer product, the sums the zero points need, and the epilogue;
/// returns the epilogue's result (the contraction's replacement).
fn emit<'c, 'a>(e: &'a Emitter<'c, '_>, c: &Contraction<'c, 'a>, a: &Operand<'c, 'a>, b: &Operand<'c, 'a>) -> Value<'c, 'a> {
    let loops = c.extents.len();
    let i32: Type = IntegerType::new(e.context, 32).into();
    let f32 = Type::float32(e.context);
    let out_shape = static_shape(c.init).expect("static");
    let (qa, qb) = (integers_of(e, a), integers_of(e, b));
    let parallel: Vec<bool> = c.reduction.iter().map(|r| !r).collect();
    let maps: Vec<String> = [&a.map, &b.map, &c.maps[2]].iter().map(|m| mlir_map(loops, 0, m)).collect();
    let product = e.generic(&[qa, qb], &[zeros(e, &out_shape, i32)], &maps, &parallel, &[tensor_type(&out_shape, i32)], &[element(qa), element(qb), i32]);
    {
        let body = product.region(0).unwrap().first_block().unwrap();
        let ext = |x: &Operand, k: usize| e.unary(if x.unsigned { "arith.extui" } else { "arith.extsi" }, body.argument(k).unwrap().into(), i32);
        let (x, y) = (ext(a, 0), ext(b, 1));
        let p = e.binary("arith.muli", x, y);
        let sum = e.binary("arith.addi", body.argument(2).unwrap().into(), p);
        e.op("linalg.yield", &[sum], &[], &[], vec![]);
        e.rewriter.set_insertion_point_after(product);
    }
    // The epilogue runs over the output's dimensions: loop `d` is output
    // dimension `position[d]`.
    let position: Vec<Aff> =
        (0..loops).map(|d| Aff::Dim(c.maps[2].iter().position(|m| *m == Aff::Dim(d)).unwrap_or(0))).collect();
    let rank = out_shape.len();
    let mut inputs: Vec<Value> = vec![product.result(0).unwrap().into()];
    let mut in_maps: Vec<String> = vec![mlir_map(rank, 0, &(0..rank).map(Aff::Dim).collect::<Vec<_>>())];
    let mut add = |value: Value<'c, 'a>, map: &[Aff]| -> usize {
        inputs.push(value);
        in_maps.push(mlir_map(rank, 0, &map.iter().map(|m| m.substitute(&position)).collect::<Vec<_>>()));
        inputs.len() - 1
    };
    let keeps_init = !zero_filled(c.init);
    let init = keeps_init.then(|| add(c.init, &c.maps[2]));
    let mut slot = |p: &Param<'c, 'a>| match p {
        Param::Tensor { value, map } => Some(add(*value, map)),
        Param::Const(_) => None,
    };
    let (sa, sb, za, zb) = (slot(&a.scale), slot(&b.scale), slot(&a.zero), slot(&b.zero));
    // sum_r a is needed where b's zero point may be non-zero, and so on.
    let sum_a = (!b.zero.is_zero()).then(|| operand_sum(e, c, a, qa));
    let sum_b = (!a.zero.is_zero()).then(|| operand_sum(e, c, b, qb));
    let sum_a = sum_a.map(|(v, m)| add(v, &m));
    let sum_b = sum_b.map(|(v, m)| add(v, &m));
    let reduction_size: i64 = (0..loops).filter(|d| c.reduction[*d]).map(|d| c.extents[d]).product();
    let empty = e.value("tensor.empty", &[], tensor_type(&out_shape, f32), &[]);
    let mut maps = in_maps;
    maps.push(mlir_map(rank, 0, &(0..rank).map(Aff::Dim).collect::<Vec<_>>()));
    let elements: Vec<Type> = inputs.iter().map(|v| element(*v)).chain([f32]).collect();
    let epilogue = e.generic(&inputs, &[empty], &maps, &vec![true; rank], &[tensor_type(&out_shape, f32)], &elements);
    let body = epilogue.region(0).unwrap().first_block().unwrap();
    let arg = |k: usize| -> Value<'c, 'a> { body.argument(k).unwrap().into() };
    // Zero points as i32, scales as f32.
    let as_int = |p: &Param<'c, 'a>, k: Option<usize>| -> Value<'c, 'a> {
        match (p, k) {
            (Param::Const(v), _) => e.integer(i32, *v as i64),
            (_, Some(k)) => convert(e, arg(k), i32),
            _ => unreachable!(),
        }
    };
    let mut sum: Value = arg(0);
    if let Some(k) = sum_a {
        let correction = e.binary("arith.muli", as_int(&b.zero, zb), arg(k));
        sum = e.binary("arith.subi", sum, correction);
    }
    if let Some(k) = sum_b {
        let correction = e.binary("arith.muli", as_int(&a.zero, za), arg(k));
        sum = e.binary("arith.subi", sum, correction);
    }
    if sum_a.is_some() && sum_b.is_some() {
        let zz = e.binary("arith.muli", as_int(&a.zero, za), as_int(&b.zero, zb));
        let correction = e.binary("arith.muli", zz, e.integer(i32, reduction_size));
        sum = e.binary("arith.addi", sum, correction);
    }
    let real = e.unary("arith.sitofp", sum, f32);
    let scale = match (&a.scale, sa, &b.scale, sb) {
        (Param::Const(x), _, Param::Const(y), _) => e.float(f32, ((*x as f32) * (*y as f32)) as f64),
        (Param::Const(x), _, _, Some(k)) => e.binary("arith.mulf", e.float(f32, *x), convert(e, arg(k), f32)),
        (_, Some(k), Param::Const(y), _) => e.binary("arith.mulf", convert(e, arg(k), f32), e.float(f32, *y)),
        (_, Some(j), _, Some(k)) => e.binary("arith.mulf", convert(e, arg(j), f32), convert(e, arg(k), f32)),
        _ => unreachable!(),
    };
    let mut value = e.binary("arith.mulf", real, scale);
    if let Some(k) = init {
        value = e.binary("arith.addf", arg(k), value);
    }
    e.op("linalg.yield", &[value], &[], &[], vec![]);
    e.rewriter.set_insertion_point_after(epilogue);
    epilogue.result(0).unwrap().into()
}

/// `x` converted to `to` (i32 or f32) from any integer or float type.
fn convert<'c, 'a>(e: &'a Emitter<'c, '_>, x: Value<'c, 'a>, to: Type<'c>) -> Value<'c, 'a> {
    let from = x.r#type();
    if from == to {
        return x;
    }
    let width = |t: Type| signless_int_width(t).unwrap_or(0);
    let name = match (from.is_float(), to.is_float()) {
        (true, true) if from.is_f64() => "arith.truncf",
        (true, true) => "arith.extf",
        (true, false) => "arith.fptosi",
        (false, true) => "arith.sitofp",
        (false, false) if width(from) > width(to) => "arith.trunci",
        (false, false) => "arith.extsi",
    };
    e.unary(name, x, to)
}

/// Is `init` a `linalg.fill` of 0.0?
fn zero_filled(init: Value) -> bool {
    ffi::defining_op(init)
        .filter(|op| is_named(*op, "linalg.fill"))
        .and_then(|op| op.operand(0).ok())
        .and_then(constant_float)
        == Some(0.0)
}
