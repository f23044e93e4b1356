//! `pb-legalize-stablehlo`: the `stablehlo` ops (generic form, as
//! `pb_dialects::stablehlo::import` builds them from JAX and TensorFlow
//! text) become linalg, tensor, arith and math ops on tensors.
//!
//! Why: the JAX and TensorFlow fronts give StableHLO; with this pass first
//! in the cpu pipeline the engine compiles it without jaxlib's passes, so
//! the TensorFlow front works without JAX installed.
//!
//! What each op becomes:
//!
//! - elementwise ops (`add` ... `atan2`, `abs` ... `is_finite`, `convert`,
//!   `compare`, `select`, `clamp`; rank-0 `select` predicates and `clamp`
//!   bounds broadcast): one `linalg.generic` of arith/math ops;
//! - `constant`: `arith.constant`; `iota`: a generic of `linalg.index`;
//! - `broadcast_in_dim`, `transpose`: a generic reading through a map;
//! - `reshape`: `tensor.collapse_shape` / `expand_shape` (both when the
//!   dimensions do not group);
//! - `slice`: `tensor.extract_slice`; `concatenate`: `tensor.concat`;
//!   `pad` (no interior padding, no negative edges): `tensor.pad`;
//! - `dot_general`: on a zero `linalg.fill`, the named op upstream's
//!   `stablehlo-legalize-to-linalg` (the JAX front's path) gives where the
//!   dimension numbers fit one (`linalg.matmul`, `batch_matmul`, `matvec`,
//!   `vecmat`, `dot`; see [`named_dot`]), else a contraction
//!   `linalg.generic` (batch, lhs free, rhs free dimensions, as StableHLO
//!   orders the result);
//! - `reduce`: a reduction generic on a `linalg.fill` of the init value;
//! - `convolution` (any dimension numbers, strides, rhs dilation, padding,
//!   feature groups; no lhs dilation or batch groups): `tensor.pad`, then
//!   the named convolution where the layout fits one
//!   (`linalg.conv_2d_nhwc_hwcf`, `conv_2d_nchw_fchw`, their 1-d and 3-d
//!   kin, `depthwise_conv_2d_nhwc_hwc(m)`; see [`named_convolution`]), else
//!   a generic over output dimensions, window and input features.
//!
//! Why named: the graph stage's `linalg-fuse-elementwise-ops` fuses
//! elementwise producers into a generic consumer, contractions included: a
//! Keras layer's bias and ReLU went into the next convolution's generic,
//! recomputed per tap and output feature (a small CNN ran 16% slower than
//! on jaxlib's path); named ops keep them out, and are what
//! `pb-channels-last` and `pb-integer-contraction` recognize.
//!
//! Refusals (an error naming the op and its location; nothing changes):
//! unsigned integer element types, interior or negative padding, lhs
//! dilation, batch groups, attributes out of range. A module without
//! `stablehlo` ops is left alone.
//!
//! ```mlir
//! %0 = "stablehlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
//! // becomes
//! %e = tensor.empty() : tensor<4xf32>
//! %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
//!        ins(%a, %b : ...) outs(%e : ...) { ^bb0(%x: f32, %y: f32, %o: f32):
//!          %s = arith.addf %x, %y : f32
//!          linalg.yield %s : f32 } -> tensor<4xf32>
//! ```

use melior::{
    ir::{
        attribute::{DenseI64ArrayAttribute, IntegerAttribute},
        block::BlockLike,
        operation::{OperationLike, WalkOrder},
        r#type::{IntegerType, RankedTensorType, ShapedTypeLike, TypeLike},
        Block, OperationRef, Region, RegionLike, Type, Value, ValueLike,
    },
    Context, IrRewriter,
};
use pb_dialects::stablehlo::{BINARY, UNARY};
use pb_support::{
    builder::{build_operation, reassociation_attribute, Emitter},
    ffi, PassFailed, PassId, PassInfo, RustPass,
};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-legalize-stablehlo",
    summary: "Lower stablehlo ops (imported from JAX and TensorFlow) to linalg, tensor, arith and math",
    description: "Each `stablehlo` op in generic form becomes linalg-on-tensors: elementwise ops one \
`linalg.generic`, broadcasts and transposes a generic reading through a map, reshapes \
collapse/expand_shape, slices, concatenations and pads their tensor ops, reduce a reduction \
generic on a fill; dot_general the named contraction it is (matmul, batch_matmul, matvec, vecmat, \
dot; transposed operands read through the ops' indexing maps) and convolution the named \
convolution of its layout (conv_Nd_nhwc_hwcf or _nchw_fchw, depthwise), as the graph stage's \
passes expect, else a contraction generic; reduce_window (pooling) a reduction generic over the \
output's and the window's dimensions on the input padded with the init value. Unsupported forms (unsigned \
types, interior padding, lhs dilation, batch groups) are errors naming the op. Modules \
without stablehlo ops are left alone.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<LegalizeStablehlo>,
};

#[derive(Clone, Default)]
struct LegalizeStablehlo;

impl RustPass for LegalizeStablehlo {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["arith", "linalg", "math", "tensor"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let ops = ffi::collect_ops(root, WalkOrder::PreOrder, |op| op_name(op).starts_with("stablehlo."));
        let mut ok = true;
        for op in ops {
            if let Err(message) = ffi::with_context(op, |context| lower(context, op)) {
                ffi::emit_error(op.location(), &format!("cannot lower '{}': {message}", op_name(op)));
                ok = false;
            }
        }
        PassFailed::unless(ok)
    }
}

fn op_name(op: OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("").to_string()
}

/// The static shape of a ranked tensor type.
fn shape(ty: Type) -> Result<Vec<i64>, String> {
    use melior::ir::r#type::DimSize;
    let tensor = RankedTensorType::try_from(ty).map_err(|_| format!("expected a ranked tensor, got {ty}"))?;
    (0..tensor.rank())
        .map(|d| match tensor.dim_size(d) {
            Ok(DimSize::Static(n)) => Ok(n as i64),
            _ => Err(format!("dynamic shape {ty} (static shapes only)")),
        })
        .collect()
}

fn element(ty: Type) -> Type {
    RankedTensorType::try_from(ty).map_or(ty, |t| t.element())
}

fn is_float(ty: Type) -> bool {
    ty.is_bf16() || ty.is_f16() || ty.is_f32() || ty.is_f64()
}

/// The width of a signless integer type; unsigned and signed types are refused.
fn int_width(ty: Type) -> Option<u32> {
    let int = IntegerType::try_from(ty).ok()?;
    (int.is_signless()).then(|| int.width())
}

fn check_element(ty: Type) -> Result<(), String> {
    let element = element(ty);
    if is_float(element) || int_width(element).is_some() {
        Ok(())
    } else {
        Err(format!("unsupported element type {element} (floats and signless integers)"))
    }
}

fn integers(op: OperationRef, name: &str) -> Result<Vec<i64>, String> {
    let attribute = op.attribute(name).map_err(|_| format!("missing attribute '{name}'"))?;
    let array = DenseI64ArrayAttribute::try_from(attribute).map_err(|_| format!("'{name}' is not an array<i64>"))?;
    Ok((0..array.len()).map(|i| array.element(i).expect("in range")).collect())
}

fn integer(op: OperationRef, name: &str) -> Result<i64, String> {
    let attribute = op.attribute(name).map_err(|_| format!("missing attribute '{name}'"))?;
    IntegerAttribute::try_from(attribute).map(|i| i.value()).map_err(|_| format!("'{name}' is not an integer"))
}

fn string(op: OperationRef, name: &str) -> Option<String> {
    let attribute = op.attribute(name).ok()?;
    melior::ir::attribute::StringAttribute::try_from(attribute).ok().map(|s| s.value().to_string())
}

fn map(loops: usize, exprs: &[String]) -> String {
    let dims: Vec<String> = (0..loops).map(|i| format!("d{i}")).collect();
    format!("affine_map<({}) -> ({})>", dims.join(", "), exprs.join(", "))
}

fn identity(rank: usize) -> String {
    let exprs: Vec<String> = (0..rank).map(|i| format!("d{i}")).collect();
    map(rank, &exprs)
}

fn checked_dims(dims: &[i64], rank: usize, what: &str) -> Result<Vec<usize>, String> {
    dims.iter()
        .map(|d| usize::try_from(*d).ok().filter(|d| *d < rank).ok_or_else(|| format!("{what} {d} out of range (rank {rank})")))
        .collect()
}

/// Lowers one op; errors before anything is emitted.
fn lower<'c>(context: &'c Context, op: OperationRef<'c, '_>) -> Result<(), String> {
    let name = op_name(op);
    let short = name.trim_start_matches("stablehlo.");
    let operands: Vec<Value> = (0..op.operand_count()).map(|i| op.operand(i).expect("in range")).collect();
    for operand in &operands {
        check_element(operand.r#type())?;
    }
    let result_type = op.result(0).map_err(|_| "expected one result".to_string())?.r#type();
    check_element(result_type)?;
    let out_shape = shape(result_type)?;
    let out_element = element(result_type);
    let rank = out_shape.len();

    let ir_rewriter = IrRewriter::from_op(op);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(op);
    let e = Emitter { context, rewriter: &rewriter, location: op.location() };

    if short == "reshape" {
        let value = reshape(&e, operands[0], result_type)?;
        rewriter.replace_op_with_values(op, &[value]);
        return Ok(());
    }
    if UNARY.contains(&short) || BINARY.contains(&short) || matches!(short, "compare" | "select" | "clamp") {
        let mut maps = Vec::new();
        for operand in &operands {
            let operand_shape = shape(operand.r#type())?;
            if operand_shape == out_shape || (short != "compare" && operand_shape.is_empty() && matches!(short, "select" | "clamp")) {
                maps.push(if operand_shape.is_empty() { map(rank, &[]) } else { identity(rank) });
            } else {
                return Err(format!("operand of shape {operand_shape:?} for a result of shape {out_shape:?}"));
            }
        }
        let in_element = element(operands[0].r#type());
        let elements: Vec<Type> = operands.iter().map(|v| element(v.r#type())).collect();
        let predicate = if short == "compare" { Some(comparison(op, in_element)?) } else { None };
        check_scalar(short, in_element, out_element)?;
        maps.push(identity(rank));
        let init = e.value("tensor.empty", &[], result_type, &[]);
        let mut block_types = elements.clone();
        block_types.push(out_element);
        let generic = e.generic(&operands, &[init], &maps, &vec![true; rank], &[result_type], &block_types);
        let body = generic.region(0).expect("one region").first_block().expect("one block");
        let args: Vec<Value> = (0..operands.len()).map(|i| body.argument(i).expect("in range").into()).collect();
        let value = scalar(&e, short, &args, out_element, predicate);
        e.op("linalg.yield", &[value], &[], &[], vec![]);
        rewriter.replace_op_with_operation(op, generic);
        return Ok(());
    }
    match short {
        "constant" => {
            let value = op.attribute("value").map_err(|_| "missing attribute 'value'".to_string())?;
            let constant = e.value("arith.constant", &[], result_type, &[("value", value)]);
            rewriter.replace_op_with_values(op, &[constant]);
        }
        "iota" => {
            let dim = integer(op, "iota_dimension")?;
            let dim = checked_dims(&[dim], rank, "iota dimension")?[0];
            let init = e.value("tensor.empty", &[], result_type, &[]);
            let generic = e.generic(&[], &[init], &[identity(rank)], &vec![true; rank], &[result_type], &[out_element]);
            let index = e.value("linalg.index", &[], Type::index(context), &[("dim", e.attribute(&format!("{dim} : i64")))]);
            let value = if is_float(out_element) {
                let wide = e.unary("arith.index_cast", index, e.i64_type());
                e.unary("arith.sitofp", wide, out_element)
            } else {
                e.unary("arith.index_cast", index, out_element)
            };
            e.op("linalg.yield", &[value], &[], &[], vec![]);
            rewriter.replace_op_with_operation(op, generic);
        }
        "broadcast_in_dim" => {
            let in_shape = shape(operands[0].r#type())?;
            let dims = checked_dims(&integers(op, "broadcast_dimensions")?, rank, "broadcast dimension")?;
            if dims.len() != in_shape.len() {
                return Err(format!("{} broadcast dimensions for an operand of rank {}", dims.len(), in_shape.len()));
            }
            let mut exprs = Vec::new();
            for (i, d) in dims.iter().enumerate() {
                if in_shape[i] == out_shape[*d] {
                    exprs.push(format!("d{d}"));
                } else if in_shape[i] == 1 {
                    exprs.push("0".into());
                } else {
                    return Err(format!("operand dimension {i} of size {} cannot broadcast to {}", in_shape[i], out_shape[*d]));
                }
            }
            let generic = copy_through(&e, operands[0], result_type, map(rank, &exprs))?;
            rewriter.replace_op_with_operation(op, generic);
        }
        "transpose" => {
            let permutation = checked_dims(&integers(op, "permutation")?, rank, "permutation entry")?;
            let mut exprs = vec![String::new(); rank];
            for (j, k) in permutation.iter().enumerate() {
                exprs[*k] = format!("d{j}");
            }
            if permutation.len() != rank || exprs.iter().any(String::is_empty) {
                return Err(format!("{permutation:?} is not a permutation of {rank} dimensions"));
            }
            let generic = copy_through(&e, operands[0], result_type, map(rank, &exprs))?;
            rewriter.replace_op_with_operation(op, generic);
        }
        "slice" => {
            let (starts, limits, strides) = (integers(op, "start_indices")?, integers(op, "limit_indices")?, integers(op, "strides")?);
            let in_shape = shape(operands[0].r#type())?;
            let sizes: Vec<i64> = (0..in_shape.len())
                .map(|d| match (starts.get(d), limits.get(d), strides.get(d)) {
                    (Some(&s), Some(&l), Some(&t)) if t > 0 && 0 <= s && s <= l && l <= in_shape[d] => Ok((l - s + t - 1) / t),
                    _ => Err(format!("slice bounds out of range in dimension {d}")),
                })
                .collect::<Result<_, _>>()?;
            if sizes != out_shape {
                return Err(format!("slice of sizes {sizes:?} for a result of shape {out_shape:?}"));
            }
            let slice = rewriter.insert(pb_support::builder::extract_slice_operation(context, e.location, operands[0], &starts, &sizes, &strides));
            rewriter.replace_op_with_operation(op, slice);
        }
        "concatenate" => {
            let dim = integer(op, "dimension")?;
            checked_dims(&[dim], rank, "concatenation dimension")?;
            let concat = e.op("tensor.concat", &operands, &[result_type], &[("dim", e.attribute(&format!("{dim} : i64")))], vec![]);
            rewriter.replace_op_with_operation(op, concat);
        }
        "pad" => {
            let (low, high, interior) =
                (integers(op, "edge_padding_low")?, integers(op, "edge_padding_high")?, integers(op, "interior_padding")?);
            if interior.iter().any(|p| *p != 0) {
                return Err("interior padding is not supported".into());
            }
            if low.iter().chain(&high).any(|p| *p < 0) {
                return Err("negative padding is not supported".into());
            }
            if low.len() != rank || high.len() != rank {
                return Err(format!("padding needs {rank} values per edge"));
            }
            let pad_value = e.value("tensor.extract", &[operands[1]], out_element, &[]);
            let padded = pad(&e, operands[0], pad_value, &low, &high, result_type);
            rewriter.replace_op_with_values(op, &[padded]);
        }
        "dot_general" => {
            let value = dot_general(&e, op, &operands, result_type)?;
            rewriter.replace_op_with_values(op, &[value]);
        }
        "reduce" => {
            let generic = reduce(&e, op, &operands, result_type)?;
            rewriter.replace_op_with_operation(op, generic);
        }
        "convolution" => {
            let value = convolution(&e, op, &operands, result_type)?;
            rewriter.replace_op_with_values(op, &[value]);
        }
        "reduce_window" => {
            let value = reduce_window(&e, op, &operands, result_type)?;
            rewriter.replace_op_with_values(op, &[value]);
        }
        _ => return Err("no lowering for this op".into()),
    }
    Ok(())
}

/// A generic writing `result_type` from `input` read through `input_map`.
fn copy_through<'c, 'a>(e: &'a Emitter<'c, '_>, input: Value<'c, '_>, result_type: Type<'c>, input_map: String) -> Result<OperationRef<'c, 'a>, String> {
    let rank = shape(result_type)?.len();
    let init = e.value("tensor.empty", &[], result_type, &[]);
    let elements = [element(input.r#type()), element(result_type)];
    let generic = e.generic(&[input], &[init], &[input_map, identity(rank)], &vec![true; rank], &[result_type], &elements);
    let body = generic.region(0).expect("one region").first_block().expect("one block");
    e.op("linalg.yield", &[body.argument(0).expect("two arguments").into()], &[], &[], vec![]);
    Ok(generic)
}

/// Checks the element types an elementwise op is lowered for.
fn check_scalar(op: &str, input: Type, output: Type) -> Result<(), String> {
    let float = is_float(input);
    let float_only = [
        "exponential", "exponential_minus_one", "log", "log_plus_one", "sqrt", "rsqrt", "cbrt", "tanh", "logistic", "floor",
        "ceil", "round_nearest_even", "round_nearest_afz", "sine", "cosine", "tan", "is_finite", "atan2",
    ];
    if float_only.contains(&op) && !float {
        return Err(format!("integer operands ({input}) are not supported"));
    }
    if matches!(op, "and" | "or" | "xor" | "not") && float {
        return Err(format!("float operands ({input}) are not supported"));
    }
    let _ = output;
    Ok(())
}

/// The arith.cmpf / cmpi predicate of a compare op.
fn comparison(op: OperationRef, element: Type) -> Result<i64, String> {
    let direction = string(op, "comparison_direction").ok_or("missing attribute 'comparison_direction'")?;
    let kind = string(op, "compare_type");
    let index = ["EQ", "NE", "LT", "LE", "GT", "GE"]
        .iter()
        .position(|d| *d == direction)
        .ok_or_else(|| format!("unknown comparison direction '{direction}'"))?;
    if is_float(element) {
        // oeq, une, olt, ole, ogt, oge (TOTALORDER as FLOAT: -0 == +0 and NaN unordered).
        return Ok([1, 13, 4, 5, 2, 3][index]);
    }
    let unsigned = kind.as_deref() == Some("UNSIGNED") || int_width(element) == Some(1);
    Ok(if unsigned { [0, 1, 6, 7, 8, 9][index] } else { [0, 1, 2, 3, 4, 5][index] })
}

/// The scalar computation of an elementwise op on `args` (block arguments).
fn scalar<'c, 'a>(e: &'a Emitter<'c, '_>, op: &str, args: &[Value<'c, 'a>], out: Type<'c>, predicate: Option<i64>) -> Value<'c, 'a> {
    let x = args[0];
    let ty = x.r#type();
    let float = is_float(ty);
    let b = |name: &str| e.binary(name, args[0], args[1]);
    let u = |name: &str| e.unary(name, x, ty);
    let one = || if float { e.float(ty, 1.0) } else { e.integer(ty, 1) };
    match op {
        "abs" => u(if float { "math.absf" } else { "math.absi" }),
        "negate" if float => u("arith.negf"),
        "negate" => e.binary("arith.subi", e.integer(ty, 0), x),
        "exponential" => u("math.exp"),
        "exponential_minus_one" => u("math.expm1"),
        "log" => u("math.log"),
        "log_plus_one" => u("math.log1p"),
        "sqrt" => u("math.sqrt"),
        "rsqrt" => u("math.rsqrt"),
        "cbrt" => u("math.cbrt"),
        "tanh" => u("math.tanh"),
        "floor" => u("math.floor"),
        "ceil" => u("math.ceil"),
        "round_nearest_even" => u("math.roundeven"),
        "round_nearest_afz" => u("math.round"),
        "sine" => u("math.sin"),
        "cosine" => u("math.cos"),
        "tan" => u("math.tan"),
        "logistic" => {
            let exp = e.unary("math.exp", e.unary("arith.negf", x, ty), ty);
            e.binary("arith.divf", one(), e.binary("arith.addf", one(), exp))
        }
        "sign" => {
            let zero = if float { e.float(ty, 0.0) } else { e.integer(ty, 0) };
            let minus = if float { e.float(ty, -1.0) } else { e.integer(ty, -1) };
            let (cmp, gt, lt) = if float { ("arith.cmpf", 2, 4) } else { ("arith.cmpi", 4, 2) };
            let i1: Type = IntegerType::new(e.context, 1).into();
            let predicate = |p: i64| ("predicate", IntegerAttribute::new(e.i64_type(), p).into());
            let positive = e.value(cmp, &[x, zero], i1, &[predicate(gt)]);
            let negative = e.value(cmp, &[x, zero], i1, &[predicate(lt)]);
            let low = e.value("arith.select", &[negative, minus, x], ty, &[]);
            e.value("arith.select", &[positive, one(), low], ty, &[])
        }
        "not" => e.binary("arith.xori", x, e.integer(ty, -1)),
        "is_finite" => e.unary("math.isfinite", x, out),
        "convert" => convert(e, x, out),
        "add" => b(if float { "arith.addf" } else { "arith.addi" }),
        "subtract" => b(if float { "arith.subf" } else { "arith.subi" }),
        "multiply" => b(if float { "arith.mulf" } else { "arith.muli" }),
        "divide" => b(if float { "arith.divf" } else { "arith.divsi" }),
        "remainder" => b(if float { "arith.remf" } else { "arith.remsi" }),
        "maximum" => b(if float { "arith.maximumf" } else if int_width(ty) == Some(1) { "arith.ori" } else { "arith.maxsi" }),
        "minimum" => b(if float { "arith.minimumf" } else if int_width(ty) == Some(1) { "arith.andi" } else { "arith.minsi" }),
        "power" => b(if float { "math.powf" } else { "math.ipowi" }),
        "atan2" => b("math.atan2"),
        "and" => b("arith.andi"),
        "or" => b("arith.ori"),
        "xor" => b("arith.xori"),
        "compare" => {
            let name = if float { "arith.cmpf" } else { "arith.cmpi" };
            let predicate = IntegerAttribute::new(e.i64_type(), predicate.expect("compare has a predicate")).into();
            e.value(name, &[args[0], args[1]], out, &[("predicate", predicate)])
        }
        "select" => e.value("arith.select", &[args[0], args[1], args[2]], out, &[]),
        "clamp" => {
            // min(max(x, low), high)
            let (low, x, high) = (args[0], args[1], args[2]);
            let (max, min) = if is_float(out) { ("arith.maximumf", "arith.minimumf") } else { ("arith.maxsi", "arith.minsi") };
            e.binary(min, e.binary(max, x, low), high)
        }
        _ => unreachable!("checked: an elementwise op"),
    }
}

/// Element conversion, StableHLO's `convert`.
fn convert<'c, 'a>(e: &'a Emitter<'c, '_>, x: Value<'c, 'a>, out: Type<'c>) -> Value<'c, 'a> {
    let from = x.r#type();
    if from == out {
        return x;
    }
    let (from_bits, to_bits) = (ffi::int_or_float_width(from).unwrap_or(0), ffi::int_or_float_width(out).unwrap_or(0));
    let i1: Type = IntegerType::new(e.context, 1).into();
    match (is_float(from), is_float(out)) {
        (true, true) if from_bits < to_bits => e.unary("arith.extf", x, out),
        (true, true) => e.unary("arith.truncf", x, out),
        (false, true) if from_bits == 1 => e.unary("arith.uitofp", x, out),
        (false, true) => e.unary("arith.sitofp", x, out),
        (true, false) if to_bits == 1 => {
            let zero = e.float(from, 0.0);
            e.value("arith.cmpf", &[x, zero], i1, &[("predicate", IntegerAttribute::new(e.i64_type(), 13).into())])
        }
        (true, false) => e.unary("arith.fptosi", x, out),
        (false, false) if to_bits == 1 => {
            let zero = e.integer(from, 0);
            e.value("arith.cmpi", &[x, zero], i1, &[("predicate", IntegerAttribute::new(e.i64_type(), 1).into())])
        }
        (false, false) if from_bits == 1 => e.unary("arith.extui", x, out),
        (false, false) if from_bits < to_bits => e.unary("arith.extsi", x, out),
        (false, false) => e.unary("arith.trunci", x, out),
    }
}

/// Groups of consecutive dimensions of `big` whose products are the
/// dimensions of `small` (unit dimensions joining a neighbouring group), if
/// there are such groups.
fn groups(big: &[i64], small: &[i64]) -> Option<Vec<Vec<usize>>> {
    if small.is_empty() {
        return big.iter().all(|d| *d == 1).then(Vec::new);
    }
    let mut result = Vec::new();
    let mut i = 0;
    for &size in small {
        let mut group = Vec::new();
        let mut product = 1;
        loop {
            let &dim = big.get(i)?;
            product *= dim;
            group.push(i);
            i += 1;
            if product == size {
                break;
            }
            if product > size && size != 0 {
                return None;
            }
        }
        result.push(group);
    }
    while i < big.len() {
        if big[i] != 1 {
            return None;
        }
        result.last_mut()?.push(i);
        i += 1;
    }
    Some(result)
}

/// `tensor.collapse_shape` or `expand_shape` of `input` to `result_type`;
/// both, through one dimension, when the dimensions do not group.
fn reshape<'c, 'a>(e: &'a Emitter<'c, '_>, input: Value<'c, 'a>, result_type: Type<'c>) -> Result<Value<'c, 'a>, String> {
    let (from, to) = (shape(input.r#type())?, shape(result_type)?);
    if from.iter().product::<i64>() != to.iter().product::<i64>() {
        return Err(format!("reshape of {from:?} to {to:?} changes the number of elements"));
    }
    if from == to {
        return Ok(input);
    }
    let collapse = |value: Value<'c, 'a>, groups: &[Vec<usize>], ty: Type<'c>| {
        e.value("tensor.collapse_shape", &[value], ty, &[("reassociation", reassociation_attribute(e.context, groups))])
    };
    let expand = |value: Value<'c, 'a>, groups: &[Vec<usize>], ty: Type<'c>, shape: &[i64]| {
        e.value(
            "tensor.expand_shape",
            &[value],
            ty,
            &[
                ("reassociation", reassociation_attribute(e.context, groups)),
                ("static_output_shape", DenseI64ArrayAttribute::new(e.context, shape).into()),
            ],
        )
    };
    if from.len() > to.len() {
        if let Some(groups) = groups(&from, &to) {
            return Ok(collapse(input, &groups, result_type));
        }
    } else if let Some(groups) = groups(&to, &from) {
        return Ok(expand(input, &groups, result_type, &to));
    }
    // Through one dimension.
    let count = from.iter().product::<i64>();
    let flat: Type = RankedTensorType::new(&[count as u64], element(result_type), None).into();
    let all = |n: usize| if n == 0 { vec![] } else { vec![(0..n).collect::<Vec<_>>()] };
    let flat_value = if from.len() == 1 { input } else { collapse(input, &all(from.len()), flat) };
    Ok(if to.len() == 1 { flat_value } else { expand(flat_value, &all(to.len()), result_type, &to) })
}

/// `tensor.pad` of `input` by `low`/`high` with `value` (a scalar).
fn pad<'c, 'a>(e: &'a Emitter<'c, '_>, input: Value<'c, 'a>, value: Value<'c, 'a>, low: &[i64], high: &[i64], result_type: Type<'c>) -> Value<'c, 'a> {
    let rank = low.len();
    let index = Type::index(e.context);
    let block = Block::new(&vec![(index, e.location); rank]);
    block.append_operation(build_operation(e.context, e.location, "tensor.yield", &[value], &[], &[], vec![]));
    let region = Region::new();
    region.append_block(block);
    e.op(
        "tensor.pad",
        &[input],
        &[result_type],
        &[
            ("static_low", DenseI64ArrayAttribute::new(e.context, low).into()),
            ("static_high", DenseI64ArrayAttribute::new(e.context, high).into()),
            ("operandSegmentSizes", e.attribute("array<i32: 1, 0, 0>")),
        ],
        vec![region],
    )
    .result(0)
    .expect("one result")
    .into()
}

/// `linalg.fill` of `result_type` with the scalar `value`.
fn fill<'c, 'a>(e: &'a Emitter<'c, '_>, value: Value<'c, 'a>, result_type: Type<'c>) -> Value<'c, 'a> {
    let element = element(result_type);
    let block = Block::new(&[(element, e.location), (element, e.location)]);
    let input: Value = block.argument(0).expect("two arguments").into();
    block.append_operation(build_operation(e.context, e.location, "linalg.yield", &[input], &[], &[], vec![]));
    let region = Region::new();
    region.append_block(block);
    let init = e.value("tensor.empty", &[], result_type, &[]);
    e.op("linalg.fill", &[value, init], &[result_type], &[("operandSegmentSizes", e.attribute("array<i32: 1, 1>"))], vec![region])
        .result(0)
        .expect("one result")
        .into()
}

fn zero<'c, 'a>(e: &'a Emitter<'c, '_>, ty: Type<'c>) -> Value<'c, 'a> {
    if is_float(ty) {
        e.float(ty, 0.0)
    } else {
        e.integer(ty, 0)
    }
}

/// Multiply-accumulate body of a contraction generic (its block arguments
/// lhs, rhs, acc), at the emitter's insertion point.
fn multiply_add<'c>(e: &Emitter<'c, '_>, body: melior::ir::BlockRef<'c, '_>, out: Type<'c>) {
    let (a, b, acc): (Value, Value, Value) =
        (body.argument(0).expect("lhs").into(), body.argument(1).expect("rhs").into(), body.argument(2).expect("acc").into());
    let (a, b) = (convert(e, a, out), convert(e, b, out));
    let float = is_float(out);
    let product = e.binary(if float { "arith.mulf" } else { "arith.muli" }, a, b);
    let sum = e.binary(if float { "arith.addf" } else { "arith.addi" }, acc, product);
    e.op("linalg.yield", &[sum], &[], &[], vec![]);
}

/// Whether a named linalg contraction's own body (linalg's region builder:
/// `cast_signed` of each operand to the result's element type) is the body
/// [`multiply_add`] writes for these element types: all floats, or all
/// integers wider than `i1` (`cast_signed` sign-extends an `i1`, StableHLO
/// converts it as 0/1).
fn named_types(types: &[Type]) -> bool {
    types.iter().all(|t| is_float(*t)) || types.iter().all(|t| int_width(*t).is_some_and(|w| w > 1))
}

/// A named linalg contraction `name` (`linalg.matmul`, a convolution, ...)
/// of `inputs` into a zero fill of `result_type`, with `attributes` and the
/// multiply-accumulate body its region builder would give it. The insertion
/// point is after it afterwards.
fn named<'c, 'a>(
    e: &'a Emitter<'c, '_>,
    name: &str,
    inputs: &[Value<'c, 'a>],
    result_type: Type<'c>,
    attributes: &[(&str, melior::ir::Attribute<'c>)],
) -> Value<'c, 'a> {
    let out = element(result_type);
    let init = fill(e, zero(e, out), result_type);
    let arguments: Vec<(Type, melior::ir::Location)> =
        inputs.iter().map(|v| (element(v.r#type()), e.location)).chain([(out, e.location)]).collect();
    let region = Region::new();
    region.append_block(Block::new(&arguments));
    let mut attributes = attributes.to_vec();
    attributes.push(("operandSegmentSizes", e.attribute(&format!("array<i32: {}, 1>", inputs.len()))));
    let operands: Vec<Value> = inputs.iter().copied().chain([init]).collect();
    let named = e.op(name, &operands, &[result_type], &attributes, vec![region]);
    let body = named.region(0).expect("one region").first_block().expect("one block");
    e.rewriter.set_insertion_point_to_end(body);
    multiply_add(e, body, out);
    e.rewriter.set_insertion_point_after(named);
    named.result(0).expect("one result").into()
}

/// `linalg.transpose` of `input`: result dimension `i` is input dimension
/// `permutation[i]`.
fn transpose<'c, 'a>(e: &'a Emitter<'c, '_>, input: Value<'c, 'a>, permutation: &[usize]) -> Result<Value<'c, 'a>, String> {
    let from = shape(input.r#type())?;
    let dims: Vec<u64> = permutation.iter().map(|p| from[*p] as u64).collect();
    let ty = element(input.r#type());
    let result_type: Type = RankedTensorType::new(&dims, ty, None).into();
    let block = Block::new(&[(ty, e.location), (ty, e.location)]);
    let value: Value = block.argument(0).expect("two arguments").into();
    block.append_operation(build_operation(e.context, e.location, "linalg.yield", &[value], &[], &[], vec![]));
    let region = Region::new();
    region.append_block(block);
    let init = e.value("tensor.empty", &[], result_type, &[]);
    let permutation: Vec<i64> = permutation.iter().map(|p| *p as i64).collect();
    let op = e.op(
        "linalg.transpose",
        &[input, init],
        &[result_type],
        &[("permutation", DenseI64ArrayAttribute::new(e.context, &permutation).into())],
        vec![region],
    );
    Ok(op.result(0).expect("one result").into())
}

/// `dot_general` as the named op upstream's `stablehlo-legalize-to-linalg`
/// (and so the JAX front) gives, where the dimension numbers fit one:
/// `linalg.matmul` (an operand stored transposed read through the op's
/// `indexing_maps`: no copy; leading free dimensions of the lhs collapsed
/// into the rows, a Dense layer on a sequence), `linalg.batch_matmul` (one
/// batch dimension, moved first by a `linalg.transpose` where it is not),
/// `linalg.matvec`, `linalg.vecmat` (operands swapped where the matrix is
/// the other way round) and `linalg.dot`. Named, a contraction keeps its
/// elementwise producers out (`linalg-fuse-elementwise-ops` would fuse a
/// bias and activation into a generic contraction, recomputed per
/// reduction step) and is what the graph stage's passes recognize.
/// `None`: the contraction generic.
fn named_dot<'c, 'a>(
    e: &'a Emitter<'c, '_>,
    operands: &[Value<'c, 'a>],
    shapes: (&[i64], &[i64]),
    batch: (&[usize], &[usize]),
    contracting: (&[usize], &[usize]),
    result_type: Type<'c>,
) -> Result<Option<Value<'c, 'a>>, String> {
    let (lhs, rhs) = (operands[0], operands[1]);
    if !named_types(&[element(lhs.r#type()), element(rhs.r#type()), element(result_type)]) || contracting.0.len() != 1 {
        return Ok(None);
    }
    let (lc, rc) = (contracting.0[0], contracting.1[0]);
    let maps = |exprs: [&str; 3], loops: usize| {
        let text: Vec<String> = exprs.iter().map(|x| map(loops, &x.split(", ").map(str::to_string).collect::<Vec<_>>())).collect();
        e.attribute(&format!("[{}]", text.join(", ")))
    };
    let matmul = |a: Value<'c, 'a>, b: Value<'c, 'a>, a_transposed: bool, b_transposed: bool, ty: Type<'c>| {
        let a_map = if a_transposed { "d2, d0" } else { "d0, d2" };
        let b_map = if b_transposed { "d1, d2" } else { "d2, d1" };
        named(e, "linalg.matmul", &[a, b], ty, &[("indexing_maps", maps([a_map, b_map, "d0, d1"], 3))])
    };
    let value = match (batch.0.len(), shapes.0.len(), shapes.1.len()) {
        (0, 2, 2) => matmul(lhs, rhs, lc == 0, rc == 1, result_type),
        (0, l, 2) if l > 2 && lc == l - 1 => {
            // [..., k] x [k, n] (or [n, k]): the free dimensions as rows.
            let rows: i64 = shapes.0[..l - 1].iter().product();
            let flat = |cols: i64, ty: Type<'c>| -> Type<'c> { RankedTensorType::new(&[rows as u64, cols as u64], ty, None).into() };
            let a = reshape(e, lhs, flat(shapes.0[l - 1], element(lhs.r#type())))?;
            let n = shapes.1[1 - rc];
            let product = matmul(a, rhs, false, rc == 1, flat(n, element(result_type)));
            reshape(e, product, result_type)?
        }
        (0, 2, 1) if lc == 1 => named(e, "linalg.matvec", &[lhs, rhs], result_type, &[]),
        (0, 2, 1) => named(e, "linalg.vecmat", &[rhs, lhs], result_type, &[]),
        (0, 1, 2) if rc == 0 => named(e, "linalg.vecmat", &[lhs, rhs], result_type, &[]),
        (0, 1, 2) => named(e, "linalg.matvec", &[rhs, lhs], result_type, &[]),
        (0, 1, 1) => named(e, "linalg.dot", &[lhs, rhs], result_type, &[]),
        (1, 3, 3) => {
            // The batch dimension first, the other two in their order.
            let first = |value: Value<'c, 'a>, b: usize, c: usize| -> Result<(Value<'c, 'a>, bool), String> {
                let rest: Vec<usize> = (0..3).filter(|d| *d != b).collect();
                let moved = if b == 0 { value } else { transpose(e, value, &[b, rest[0], rest[1]])? };
                Ok((moved, c == rest[1]))
            };
            // lhs [b, m, k] (k last), rhs [b, k, n] (k first).
            let (a, a_k_last) = first(lhs, batch.0[0], lc)?;
            let (b, b_k_last) = first(rhs, batch.1[0], rc)?;
            let a_map = if a_k_last { "d0, d1, d3" } else { "d0, d3, d1" };
            let b_map = if b_k_last { "d0, d2, d3" } else { "d0, d3, d2" };
            named(e, "linalg.batch_matmul", &[a, b], result_type, &[("indexing_maps", maps([a_map, b_map, "d0, d1, d2"], 4))])
        }
        _ => return Ok(None),
    };
    Ok(Some(value))
}

fn dot_general<'c, 'a>(e: &'a Emitter<'c, '_>, op: OperationRef<'c, '_>, operands: &[Value<'c, 'a>], result_type: Type<'c>) -> Result<Value<'c, 'a>, String> {
    let (lhs_shape, rhs_shape, out_shape) = (shape(operands[0].r#type())?, shape(operands[1].r#type())?, shape(result_type)?);
    let lb = checked_dims(&integers(op, "lhs_batching_dimensions")?, lhs_shape.len(), "lhs batching dimension")?;
    let rb = checked_dims(&integers(op, "rhs_batching_dimensions")?, rhs_shape.len(), "rhs batching dimension")?;
    let lc = checked_dims(&integers(op, "lhs_contracting_dimensions")?, lhs_shape.len(), "lhs contracting dimension")?;
    let rc = checked_dims(&integers(op, "rhs_contracting_dimensions")?, rhs_shape.len(), "rhs contracting dimension")?;
    if lb.len() != rb.len() || lc.len() != rc.len() {
        return Err("lhs and rhs dimension lists differ in length".into());
    }
    let lhs_free: Vec<usize> = (0..lhs_shape.len()).filter(|d| !lb.contains(d) && !lc.contains(d)).collect();
    let rhs_free: Vec<usize> = (0..rhs_shape.len()).filter(|d| !rb.contains(d) && !rc.contains(d)).collect();
    let n_out = lb.len() + lhs_free.len() + rhs_free.len();
    if n_out != out_shape.len() {
        return Err(format!("result of rank {} for {n_out} batch and free dimensions", out_shape.len()));
    }
    let loops = n_out + lc.len();
    let mut lhs_exprs = vec![String::new(); lhs_shape.len()];
    let mut rhs_exprs = vec![String::new(); rhs_shape.len()];
    for (i, (l, r)) in lb.iter().zip(&rb).enumerate() {
        lhs_exprs[*l] = format!("d{i}");
        rhs_exprs[*r] = format!("d{i}");
    }
    for (i, l) in lhs_free.iter().enumerate() {
        lhs_exprs[*l] = format!("d{}", lb.len() + i);
    }
    for (i, r) in rhs_free.iter().enumerate() {
        rhs_exprs[*r] = format!("d{}", lb.len() + lhs_free.len() + i);
    }
    for (i, (l, r)) in lc.iter().zip(&rc).enumerate() {
        if lhs_shape[*l] != rhs_shape[*r] {
            return Err(format!("contracting dimensions of sizes {} and {}", lhs_shape[*l], rhs_shape[*r]));
        }
        lhs_exprs[*l] = format!("d{}", n_out + i);
        rhs_exprs[*r] = format!("d{}", n_out + i);
    }
    if let Some(value) = named_dot(e, operands, (&lhs_shape, &rhs_shape), (&lb, &rb), (&lc, &rc), result_type)? {
        return Ok(value);
    }
    let out = element(result_type);
    let init = fill(e, zero(e, out), result_type);
    let out_exprs: Vec<String> = (0..n_out).map(|i| format!("d{i}")).collect();
    let maps = [map(loops, &lhs_exprs), map(loops, &rhs_exprs), map(loops, &out_exprs)];
    let parallel: Vec<bool> = (0..loops).map(|l| l < n_out).collect();
    let elements = [element(operands[0].r#type()), element(operands[1].r#type()), out];
    let generic = e.generic(operands, &[init], &maps, &parallel, &[result_type], &elements);
    multiply_add(e, generic.region(0).expect("one region").first_block().expect("one block"), out);
    Ok(generic.result(0).expect("one result").into())
}

fn reduce<'c, 'a>(e: &'a Emitter<'c, '_>, op: OperationRef<'c, '_>, operands: &[Value<'c, 'a>], result_type: Type<'c>) -> Result<OperationRef<'c, 'a>, String> {
    let in_shape = shape(operands[0].r#type())?;
    let dims = checked_dims(&integers(op, "dimensions")?, in_shape.len(), "reduced dimension")?;
    let reducer = string(op, "reducer").ok_or("missing attribute 'reducer'")?;
    let kept: Vec<usize> = (0..in_shape.len()).filter(|d| !dims.contains(d)).collect();
    let kept_shape: Vec<i64> = kept.iter().map(|d| in_shape[*d]).collect();
    if kept_shape != shape(result_type)? || !shape(operands[1].r#type())?.is_empty() {
        return Err("result shape does not match the kept dimensions (or the init value is not rank 0)".into());
    }
    let out = element(result_type);
    let combine = combiner(&reducer, out)?;
    let init_value = e.value("tensor.extract", &[operands[1]], out, &[]);
    let init = fill(e, init_value, result_type);
    let out_exprs: Vec<String> = kept.iter().map(|d| format!("d{d}")).collect();
    let maps = [identity(in_shape.len()), map(in_shape.len(), &out_exprs)];
    let parallel: Vec<bool> = (0..in_shape.len()).map(|d| !dims.contains(&d)).collect();
    let generic = e.generic(&operands[..1], &[init], &maps, &parallel, &[result_type], &[out, out]);
    let body = generic.region(0).expect("one region").first_block().expect("one block");
    let value = e.binary(combine, body.argument(1).expect("acc").into(), body.argument(0).expect("input").into());
    e.op("linalg.yield", &[value], &[], &[], vec![]);
    Ok(generic)
}

/// The arith op combining two elements of type `out` for `reducer`.
fn combiner(reducer: &str, out: Type) -> Result<&'static str, String> {
    let float = is_float(out);
    Ok(match reducer {
        "add" => if float { "arith.addf" } else { "arith.addi" },
        "multiply" => if float { "arith.mulf" } else { "arith.muli" },
        "maximum" => if float { "arith.maximumf" } else { "arith.maxsi" },
        "minimum" => if float { "arith.minimumf" } else { "arith.minsi" },
        "and" if !float => "arith.andi",
        "or" if !float => "arith.ori",
        other => return Err(format!("unsupported reducer '{other}' on {out}")),
    })
}

/// `reduce_window` (pooling): the input padded with the init value, then a
/// reduction generic over the output's and the window's dimensions (the
/// window's extent given by an empty tensor of its shape, as linalg's
/// pooling ops do), reading input[o * stride + w * dilation].
fn reduce_window<'c, 'a>(e: &'a Emitter<'c, '_>, op: OperationRef<'c, '_>, operands: &[Value<'c, 'a>], result_type: Type<'c>) -> Result<Value<'c, 'a>, String> {
    let (in_shape, out_shape) = (shape(operands[0].r#type())?, shape(result_type)?);
    let rank = in_shape.len();
    let window = integers(op, "window_dimensions")?;
    let strides = integers(op, "window_strides")?;
    let padding = integers(op, "padding")?;
    let dilations = integers(op, "window_dilations")?;
    if window.len() != rank || strides.len() != rank || dilations.len() != rank || padding.len() != 2 * rank || out_shape.len() != rank {
        return Err(format!("window attributes do not match the operand's rank {rank}"));
    }
    if !shape(operands[1].r#type())?.is_empty() {
        return Err("the init value is not rank 0".into());
    }
    if padding.iter().any(|p| *p < 0) || window.iter().chain(&strides).chain(&dilations).any(|v| *v < 1) {
        return Err("negative padding or non-positive window sizes are not supported".into());
    }
    let reducer = string(op, "reducer").ok_or("missing attribute 'reducer'")?;
    let out = element(result_type);
    let combine = combiner(&reducer, out)?;
    let (low, high): (Vec<i64>, Vec<i64>) = (0..rank).map(|d| (padding[2 * d], padding[2 * d + 1])).unzip();
    let padded_shape: Vec<i64> = (0..rank).map(|d| in_shape[d] + low[d] + high[d]).collect();
    for d in 0..rank {
        let extent = (window[d] - 1) * dilations[d] + 1;
        if padded_shape[d] < extent || out_shape[d] != (padded_shape[d] - extent) / strides[d] + 1 {
            return Err(format!("result dimension {d} ({}) does not match the window", out_shape[d]));
        }
    }
    let init_value = e.value("tensor.extract", &[operands[1]], out, &[]);
    let input = if low.iter().chain(&high).any(|p| *p != 0) {
        let dims: Vec<u64> = padded_shape.iter().map(|d| *d as u64).collect();
        pad(e, operands[0], init_value, &low, &high, RankedTensorType::new(&dims, out, None).into())
    } else {
        operands[0]
    };
    let window_dims: Vec<u64> = window.iter().map(|d| *d as u64).collect();
    let window_type: Type = RankedTensorType::new(&window_dims, out, None).into();
    let window_tensor = e.value("tensor.empty", &[], window_type, &[]);
    let init = fill(e, init_value, result_type);
    let loops = 2 * rank;
    let read: Vec<String> = (0..rank).map(|d| format!("d{d} * {} + d{} * {}", strides[d], rank + d, dilations[d])).collect();
    let over_window: Vec<String> = (0..rank).map(|d| format!("d{}", rank + d)).collect();
    let to_output: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let maps = [map(loops, &read), map(loops, &over_window), map(loops, &to_output)];
    let parallel: Vec<bool> = (0..loops).map(|l| l < rank).collect();
    let generic = e.generic(&[input, window_tensor], &[init], &maps, &parallel, &[result_type], &[out, out, out]);
    let body = generic.region(0).expect("one region").first_block().expect("one block");
    let value = e.binary(combine, body.argument(2).expect("acc").into(), body.argument(0).expect("input").into());
    e.op("linalg.yield", &[value], &[], &[], vec![]);
    Ok(generic.result(0).expect("one result").into())
}

fn convolution<'c, 'a>(e: &'a Emitter<'c, '_>, op: OperationRef<'c, '_>, operands: &[Value<'c, 'a>], result_type: Type<'c>) -> Result<Value<'c, 'a>, String> {
    let (in_shape, k_shape, out_shape) = (shape(operands[0].r#type())?, shape(operands[1].r#type())?, shape(result_type)?);
    let rank = in_shape.len();
    if k_shape.len() != rank || out_shape.len() != rank || rank < 2 {
        return Err("input, kernel and result ranks differ".into());
    }
    let one = |name: &str| -> Result<usize, String> { Ok(checked_dims(&[integer(op, name)?], rank, name)?[0]) };
    let list = |name: &str| -> Result<Vec<usize>, String> { checked_dims(&integers(op, name)?, rank, name) };
    let (ib, i_f, is) = (one("input_batch_dimension")?, one("input_feature_dimension")?, list("input_spatial_dimensions")?);
    let (ki, ko, ks) = (one("kernel_input_feature_dimension")?, one("kernel_output_feature_dimension")?, list("kernel_spatial_dimensions")?);
    let (ob, of, os) = (one("output_batch_dimension")?, one("output_feature_dimension")?, list("output_spatial_dimensions")?);
    let spatial = is.len();
    let (strides, padding, lhs_dilation, rhs_dilation) =
        (integers(op, "window_strides")?, integers(op, "padding")?, integers(op, "lhs_dilation")?, integers(op, "rhs_dilation")?);
    let (groups, batch_groups) = (integer(op, "feature_group_count")?, integer(op, "batch_group_count")?);
    if ks.len() != spatial || os.len() != spatial || spatial + 2 != rank {
        return Err("dimension numbers do not cover the tensors".into());
    }
    if strides.len() != spatial || rhs_dilation.len() != spatial || padding.len() != 2 * spatial || lhs_dilation.len() != spatial {
        return Err("window attributes do not match the spatial dimensions".into());
    }
    if lhs_dilation.iter().any(|d| *d != 1) {
        return Err("lhs dilation (transposed convolution) is not supported".into());
    }
    if batch_groups != 1 {
        return Err("batch_group_count other than 1 is not supported".into());
    }
    if strides.iter().chain(&rhs_dilation).any(|s| *s < 1) || padding.iter().any(|p| *p < 0) {
        return Err("strides and dilations must be positive, padding not negative".into());
    }
    let input_features = k_shape[ki];
    if groups < 1 || in_shape[i_f] != input_features * groups || k_shape[ko] % groups != 0 {
        return Err(format!("feature_group_count {groups} does not divide the features"));
    }
    let out = element(result_type);
    // Padding of the input's spatial dimensions.
    let mut input = operands[0];
    if padding.iter().any(|p| *p != 0) {
        let (mut low, mut high) = (vec![0; rank], vec![0; rank]);
        let mut padded_shape = in_shape.clone();
        for (k, d) in is.iter().enumerate() {
            low[*d] = padding[2 * k];
            high[*d] = padding[2 * k + 1];
            padded_shape[*d] += low[*d] + high[*d];
        }
        let in_element = element(input.r#type());
        let dims: Vec<u64> = padded_shape.iter().map(|d| *d as u64).collect();
        let padded: Type = RankedTensorType::new(&dims, in_element, None).into();
        input = pad(e, input, zero(e, in_element), &low, &high, padded);
    }
    // The named op where one fits (see `named_convolution`).
    let layout = ConvLayout { input: (ib, i_f, &is), kernel: (ki, ko, &ks), output: (ob, of, &os) };
    let geometry = (strides.as_slice(), rhs_dilation.as_slice());
    if let Some(value) = named_convolution(e, [input, operands[1]], (&in_shape, &k_shape), &layout, geometry, groups, result_type)? {
        return Ok(value);
    }
    // Loops: the output's dimensions (d0..), then the window (one per
    // spatial dimension), then the input features of a group.
    let window = |k: usize| format!("d{}", rank + k);
    let feature = format!("d{}", rank + spatial);
    let mut in_exprs = vec![String::new(); rank];
    let mut k_exprs = vec![String::new(); rank];
    in_exprs[ib] = format!("d{ob}");
    in_exprs[i_f] = if groups == 1 {
        feature.clone()
    } else {
        format!("(d{of} floordiv {}) * {input_features} + {feature}", k_shape[ko] / groups)
    };
    for k in 0..spatial {
        in_exprs[is[k]] = format!("d{} * {} + {} * {}", os[k], strides[k], window(k), rhs_dilation[k]);
        k_exprs[ks[k]] = window(k);
    }
    k_exprs[ki] = feature;
    k_exprs[ko] = format!("d{of}");
    let loops = rank + spatial + 1;
    let maps = [map(loops, &in_exprs), map(loops, &k_exprs), map(loops, &(0..rank).map(|d| format!("d{d}")).collect::<Vec<_>>())];
    let parallel: Vec<bool> = (0..loops).map(|l| l < rank).collect();
    let init = fill(e, zero(e, out), result_type);
    let elements = [element(input.r#type()), element(operands[1].r#type()), out];
    let inputs = [input, operands[1]];
    let generic = e.generic(&inputs, &[init], &maps, &parallel, &[result_type], &elements);
    multiply_add(e, generic.region(0).expect("one region").first_block().expect("one block"), out);
    Ok(generic.result(0).expect("one result").into())
}

/// A convolution's dimension numbers: (batch, feature, spatial) of the
/// input and output, (input feature, output feature, spatial) of the kernel.
struct ConvLayout<'l> {
    input: (usize, usize, &'l [usize]),
    kernel: (usize, usize, &'l [usize]),
    output: (usize, usize, &'l [usize]),
}

/// A convolution (its input already padded) as the named op upstream's
/// `stablehlo-legalize-to-linalg` gives where the layout fits one:
/// `linalg.conv_{1,2,3}d_n(d)(h)wc_(d)(h)wcf` (channels last, kernel
/// spatial-input-output: TensorFlow's and JAX's default) and
/// `linalg.conv_{1,2,3}d_nc(d)(h)w_fc(d)(h)w` (PyTorch's layout) without
/// feature groups; a channels-last 2-d depthwise convolution (one input
/// feature per group, as many groups as input features: Keras'
/// `DepthwiseConv2D`) as `linalg.depthwise_conv_2d_nhwc_hwc` (channel
/// multiplier 1) or `_hwcm` (the result's last two dimensions collapsed),
/// the kernel reshaped. Strides and rhs dilations become the op's
/// attributes. Named, a convolution keeps its elementwise producers out
/// (`linalg-fuse-elementwise-ops` fused the previous layer's bias and ReLU
/// into a generic one, recomputed per tap and output feature) and is what
/// the graph stage's passes recognize (`pb-channels-last`,
/// `pb-integer-contraction`). `None`: the generic form, also kept for a
/// single-channel filter (one input and one output feature: a blur or
/// Sobel, which `pb-unroll-filters` unrolls from the generic form) and for
/// other groupings.
fn named_convolution<'c, 'a>(
    e: &'a Emitter<'c, '_>,
    inputs: [Value<'c, 'a>; 2],
    shapes: (&[i64], &[i64]),
    layout: &ConvLayout,
    (strides, dilations): (&[i64], &[i64]),
    groups: i64,
    result_type: Type<'c>,
) -> Result<Option<Value<'c, 'a>>, String> {
    let (in_shape, k_shape) = shapes;
    let spatial = layout.input.2.len();
    if !named_types(&[element(inputs[0].r#type()), element(inputs[1].r#type()), element(result_type)]) || !(1..=3).contains(&spatial) {
        return Ok(None);
    }
    let (ki, ko, _) = layout.kernel;
    if k_shape[ki] == 1 && k_shape[ko] == 1 {
        return Ok(None);
    }
    let range = |from: usize| (from..from + spatial).collect::<Vec<_>>();
    // Channels last: [n, spatial..., c] x [spatial..., c, f] -> [n, spatial..., f].
    let last = layout.input == (0, spatial + 1, &range(1)[..])
        && layout.kernel == (spatial, spatial + 1, &range(0)[..])
        && layout.output == (0, spatial + 1, &range(1)[..]);
    // Channels first: [n, c, spatial...] x [f, c, spatial...] -> [n, f, spatial...].
    let first = layout.input == (0, 1, &range(2)[..]) && layout.kernel == (1, 0, &range(2)[..]) && layout.output == (0, 1, &range(2)[..]);
    let array = |values: &[i64]| {
        let text: Vec<String> = values.iter().map(i64::to_string).collect();
        e.attribute(&format!("dense<[{}]> : tensor<{spatial}xi64>", text.join(", ")))
    };
    let attributes = [("strides", array(strides)), ("dilations", array(dilations))];
    let letters = ["w", "hw", "dhw"][spatial - 1];
    if groups == 1 && (last || first) {
        let name = if last {
            format!("linalg.conv_{spatial}d_n{letters}c_{letters}cf")
        } else {
            format!("linalg.conv_{spatial}d_nc{letters}_fc{letters}")
        };
        return Ok(Some(named(e, &name, &inputs, result_type, &attributes)));
    }
    let channels = in_shape[layout.input.1];
    if !(last && spatial == 2 && groups == channels && k_shape[ki] == 1) {
        return Ok(None);
    }
    // Depthwise: kernel [kh, kw, 1, c * m] -> [kh, kw, c] or [kh, kw, c, m].
    let multiplier = k_shape[ko] / channels;
    let kernel_element = element(inputs[1].r#type());
    let mut kernel_dims: Vec<u64> = vec![k_shape[0] as u64, k_shape[1] as u64, channels as u64];
    if multiplier == 1 {
        let kernel = reshape(e, inputs[1], RankedTensorType::new(&kernel_dims, kernel_element, None).into())?;
        return Ok(Some(named(e, "linalg.depthwise_conv_2d_nhwc_hwc", &[inputs[0], kernel], result_type, &attributes)));
    }
    kernel_dims.push(multiplier as u64);
    let kernel = reshape(e, inputs[1], RankedTensorType::new(&kernel_dims, kernel_element, None).into())?;
    let mut out_dims: Vec<u64> = shape(result_type)?.iter().map(|d| *d as u64).collect();
    out_dims[3] = channels as u64;
    out_dims.push(multiplier as u64);
    let wide: Type = RankedTensorType::new(&out_dims, element(result_type), None).into();
    let value = named(e, "linalg.depthwise_conv_2d_nhwc_hwcm", &[inputs[0], kernel], wide, &attributes);
    Ok(Some(reshape(e, value, result_type)?))
}
