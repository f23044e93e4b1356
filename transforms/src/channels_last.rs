//! `pb-channels-last`: the feature maps of a convolutional network stored
//! channels-last (NCHW tensors kept as N x H x W x C), converted only where
//! the graph enters or leaves that layout.
//!
//! Why: in NCHW a convolution's output rows are its feature map's pixels, so
//! the vector lanes of `pb-register-tile` run along a map that is often
//! narrow (14x14, 7x7: 196 and 49 columns leave part of the last vectors
//! empty, and that tile is load-bound) and its input is gathered into
//! packed panels on every call (im2col). Stored channels-last, the lanes run
//! along the output channels (a multiple of the vector width in every
//! network we know), the pixels become rows (a short last row tile still
//! keeps the FMA units busy), the weights are the packed-once operand, and
//! a 1x1 convolution reads its input in place. This is the layout
//! oneDNN and Inductor's frozen graphs run convolutions in.
//!
//! How: a layout is a property of how a value is stored, and a
//! `linalg.generic` reads and writes any operand through its own indexing
//! map; storing a value channels-last only permutes the results of the maps
//! that access it (`(n, c, h, w)` becomes `(n, h, w, c)`). So:
//!
//! 1. Convolutions, pooling and transposes on static rank-4 tensors
//!    (`linalg.conv_2d_nchw_fchw`, `depthwise_conv_2d_nchw_chw`,
//!    `pooling_nchw_max`/`_sum`, `transpose`)
//!    become `linalg.generic`s with their own body (their region moves
//!    over). A generic that is a convolution already (the `i8 x i8 ->
//!    i32` product `pb-integer-contraction` makes of a quantized one,
//!    `is_convolution_generic`) counts as one: the matrix unit then reads
//!    its input's channels contiguously, 64 bytes per row of a tile.
//! 2. Which values are stored channels-last is decided in program order:
//!    every convolution's result; a generic's rank-4 result when more of its
//!    rank-4 inputs run along its channel loop in their innermost stored
//!    dimension than along its width loop (a broadcast or fill does not
//!    vote: its elements do not depend on the layout; batch norm, activations and
//!    residual adds after a convolution follow it; a transpose to NHWC,
//!    as ConvNeXt writes before its layer norm, becomes a plain copy; code
//!    on other rank-4 tensors, such as attention heads, is not touched); a
//!    `tensor.pad` of such a value (constant padding); a `tensor.concat`
//!    of such values (along the stored position of its dimension:
//!    DenseNet's concatenations along the channels stay one buffer that
//!    `pb-concat-prefixes` extends, instead of a transposing copy back to
//!    NCHW per piece and per concatenation).
//! 3. Those values get the permuted type and every generic accessing them
//!    the permuted map; an output's initial value gets the new layout too
//!    (a fresh `tensor.empty`, a copy of its `linalg.fill` or
//!    `linalg.broadcast`, else a transposing copy); any other use (a
//!    reshape, a slice, the function's result) reads a transposing copy
//!    back to NCHW.
//! 4. A convolution whose input is still NCHW where the region starts (the
//!    graph's input) reads a channels-last copy of it when the input has
//!    at least `width` channels (`convert_inputs`).
//!
//! The program computes the same values: only storage order changes, and
//! the conversions at the boundary are exact copies.
//!
//! Where: graphs whose every convolution is a dense or depthwise 2-D one,
//! and only dense convolutions with at least a vector's worth of output
//! channels (`width`) start a region; a depthwise convolution (a generic
//! like the dense ones) is stored channels-last when its input is, its
//! `[C, KH, KW]` weights read from a `[KH, KW, C]` copy, so that
//! `pb-accumulate-tile` keeps a tile of pixels x channels in registers
//! over its taps, each tap one vector load per register even at stride 2.
//! Measured on ResNet-18/50 (1.07-1.26x); with depthwise networks
//! included (session 52, Zen 3, batch 8): EfficientNet-B0 1.16x,
//! MobileNetV3-Large 1.08x, ConvNeXt-Tiny 1.02x. A graph with a grouped
//! convolution is left as it is.

use std::collections::HashSet;

use melior::{
    ir::{
        attribute::{ArrayAttribute, DenseI64ArrayAttribute},
        block::BlockLike,
        operation::OperationLike,
        r#type::{RankedTensorType, ShapedTypeLike},
        AffineExpr, AffineMap, Attribute, OperationRef, RegionLike, Type, Value, ValueLike,
    },
    Context, IrRewriter,
};
use pb_support::{builder::Emitter, ffi, ir, ir::op_name, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

use pb_polyhedral::Aff;

use crate::linalg_ops::{generalize, maps_of, segments};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-channels-last",
    summary: "Store the feature maps of convolutions channels-last (NHWC), converting only at the boundary",
    description: "In a graph whose convolutions are all dense or depthwise 2-D ones, generalizes convolutions, \
poolings and transposes on static NCHW tensors into linalg.generic, then stores each dense convolution's \
result (with at least `width` output channels), and the rank-4 results that follow it in the \
channel loop (batch norms, activations, depthwise convolutions, residual adds, pads, pools, concatenations), as N x H x W x C: the indexing \
maps of every generic that accesses them are permuted, their writers' loops put in storage order, \
outputs' initial values rebuilt in the new layout, and any other use reads a transposing copy; a \
convolution's NCHW input with at least `width` channels (the graph's input) is read through a \
channels-last copy. The values computed are unchanged.",
    anchor: "func.func",
    options: &[PassOption {
        name: "width",
        kind: OptionKind::UInt,
        default: "16",
        help: "f32 lanes of a vector register: convolutions with fewer output channels keep NCHW",
    }],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(ChannelsLast { width: options.uint("width").max(1) as i64 })
}

#[derive(Clone)]
struct ChannelsLast {
    width: i64,
}

/// Stored dimension `i` holds logical (NCHW) dimension `STORED[i]`.
const STORED: [usize; 4] = [0, 2, 3, 1];
/// Logical dimension `i` is stored at position `POSITION[i]`.
const POSITION: [usize; 4] = [0, 3, 1, 2];

impl RustPass for ChannelsLast {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["linalg", "tensor"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        ffi::with_context(func, |context| {
            // Only graphs whose every convolution is a dense or depthwise
            // 2-D one: their layout then reaches only ops that run at least
            // as fast channels-last (convolutions, elementwise ops, pads,
            // pools), and every dense convolution takes it (a 1x1
            // convolution reads its input in place instead of packing it
            // per call). A depthwise convolution follows its input like an
            // elementwise op (its lanes run along the channels, a tap is one
            // vector load, strides do not split vectors); grouped ones are
            // not done yet.
            let ops = ir::body_ops(func);
            let convolution = |name: &str| name.starts_with("linalg.conv_") || name.starts_with("linalg.depthwise_conv_");
            let known = |name: &str| name == "linalg.conv_2d_nchw_fchw" || name == "linalg.depthwise_conv_2d_nchw_chw";
            if ops.iter().map(|op| op_name(*op)).any(|name| convolution(&name) && !known(&name)) {
                return;
            }
            // Lanes along the channels need a vector's worth of them: a
            // filter over single-channel images (a blur written as conv2d)
            // keeps its maps as rows. Nothing changes without such a
            // convolution.
            let wide = |op: OperationRef| {
                (op_name(op) == "linalg.conv_2d_nchw_fchw" || is_convolution_generic(op))
                    && op.result(0).is_ok_and(|r| has_channels(r.into(), self.width))
            };
            if !ops.iter().any(|op| wide(*op)) {
                return;
            }
            let mut convolutions = HashSet::new();
            for op in ops {
                let seed = wide(op);
                // (`result(0)` of an op without results would print the whole,
                // half-rewritten function into its error.)
                let images = op.result_count() == 1 && op.result(0).is_ok_and(|r| is_image(r.into()));
                // (A generic that is a convolution already, e.g. the
                // integer product pb-integer-contraction makes of a
                // quantized one, is kept as it is.)
                let generic = if is_convolution_generic(op) { Some(op) } else { images.then(|| generalize(context, op)).flatten() };
                if let Some(generic) = generic {
                    if seed {
                        convolutions.insert(generic.to_raw().ptr as usize);
                    }
                }
            }
            if convolutions.is_empty() {
                return;
            }
            // (Never empty: every convolution's result is stored.)
            let stored = decide(func, &convolutions);
            relayout(context, func, &stored);
            convert_inputs(context, func, &convolutions, &stored, self.width);
        });
        Ok(())
    }
}

/// A convolution whose input image is still NCHW where the region starts
/// (the graph's input, padded or not) reads a channels-last copy of it
/// when it has at least `width` channels: one transposing copy (blocked
/// through registers by `pb-transpose-tile`) instead of the register
/// tiler gathering the input into packed panels on every call, each
/// element once per filter tap (conv3x3 64->64 at 56x56: the gathering was
/// a fifth of the convolution's time). Narrow inputs (an RGB stem) keep
/// their packing: a channel vector would be mostly empty.
fn convert_inputs(context: &Context, func: OperationRef, convolutions: &HashSet<usize>, stored: &HashSet<usize>, width: i64) {
    for op in ir::body_ops(func) {
        if !convolutions.contains(&(op.to_raw().ptr as usize)) {
            continue;
        }
        let Some(input) = ffi::operand(op, 0) else { continue };
        if stored.contains(&value_key(input)) || !has_channels(input, width) {
            continue;
        }
        permute_map(context, op, 0, &STORED);
        insert_transposed(context, op, 0, input, true);
    }
}

/// True for a `linalg.generic` computing a dense 2-D NCHW convolution:
/// output `(n, f, h, w)`, filter `(f, c, kh, kw)` and input
/// `(n, c, s*h + d*kh, s*w + d*kw)` over seven loops, the last three
/// reductions (what `linalg.conv_2d_nchw_fchw` generalizes to, and the
/// integer product of a quantized convolution). Its body is not read: the
/// layout only permutes the maps.
fn is_convolution_generic(op: OperationRef) -> bool {
    if op_name(op) != "linalg.generic" || segments(op) != Some((2, 1)) || op.result_count() != 1 {
        return false;
    }
    let Some(maps) = maps_of(op) else { return false };
    let affs = |m: &AffineMap| -> Option<Vec<Aff>> {
        (m.dim_count() == 7 && m.result_count() == 4)
            .then(|| (0..4).map(|r| m.result(r).ok().and_then(Aff::from_mlir)).collect::<Option<Vec<_>>>())
            .flatten()
    };
    let (Some(input), Some(filter), Some(output)) = (affs(&maps[0]), affs(&maps[1]), affs(&maps[2])) else { return false };
    let dim = |e: &Aff| if let Aff::Dim(d) = e { Some(*d) } else { None };
    let (Some(n), Some(f), Some(h), Some(w)) = (dim(&output[0]), dim(&output[1]), dim(&output[2]), dim(&output[3])) else {
        return false;
    };
    let (Some(f2), Some(c), Some(kh), Some(kw)) = (dim(&filter[0]), dim(&filter[1]), dim(&filter[2]), dim(&filter[3])) else {
        return false;
    };
    let outputs = [n, f, h, w];
    let window = |e: &Aff, spatial: usize, tap: usize| {
        e.coefficient(spatial).is_some_and(|s| s > 0)
            && e.coefficient(tap).is_some_and(|t| t > 0)
            && (0..7).all(|d| d == spatial || d == tap || !e.uses_dim(d))
    };
    f2 == f
        && [c, kh, kw].iter().all(|d| !outputs.contains(d))
        && c != kh && c != kw && kh != kw
        && dim(&input[0]) == Some(n)
        && dim(&input[1]) == Some(c)
        && window(&input[2], h, kh)
        && window(&input[3], w, kw)
}

/// True for a broadcast or fill: its elements do not depend on the layout it
/// is read in (fused into its reader it is recomputed per element), so it
/// takes no part in deciding a layout.
fn layout_free(value: Value) -> bool {
    ffi::defining_op(value).is_some_and(|op| matches!(op_name(op).as_str(), "linalg.broadcast" | "linalg.fill"))
}

/// Values and ops are told apart by their address.
fn value_key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

/// The static shape of a ranked tensor value.
fn static_shape(value: Value) -> Option<Vec<i64>> {
    pb_dialects::type_utils::static_shape(value.r#type())
}

/// True for an NCHW image with at least `width` channels (a vector's worth).
fn has_channels(value: Value, width: i64) -> bool {
    static_shape(value).is_some_and(|s| s.len() == 4 && s[1] >= width)
}

fn is_image(value: Value) -> bool {
    static_shape(value).is_some_and(|s| s.len() == 4)
}

/// The channels-last type of a rank-4 tensor type.
fn stored_type<'c>(ty: Type<'c>) -> Type<'c> {
    let tensor = RankedTensorType::try_from(ty).expect("ranked tensor");
    let shape = pb_dialects::type_utils::static_shape(ty).expect("static shape checked");
    let stored: Vec<u64> = STORED.iter().map(|d| shape[*d] as u64).collect();
    RankedTensorType::new(&stored, tensor.element(), None).into()
}

/// The values (raw pointers) stored channels-last: convolution results, and
/// what follows them in the channel loop (see the module comment).
fn decide(func: OperationRef, convolutions: &HashSet<usize>) -> HashSet<usize> {
    let mut stored: HashSet<usize> = HashSet::new();
    for op in ir::body_ops(func) {
        match op_name(op).as_str() {
            "linalg.generic" => {
                let Some((inputs, outputs)) = segments(op) else { continue };
                let Some(maps) = maps_of(op) else { continue };
                if maps.len() != inputs + outputs || op.result_count() != outputs {
                    continue;
                }
                for r in 0..outputs {
                    let Ok(result) = op.result(r) else { continue };
                    let output_map = maps[inputs + r];
                    if !is_image(result.into()) || output_map.result_count() != 4 {
                        continue;
                    }
                    let chosen = convolutions.contains(&(op.to_raw().ptr as usize)) || {
                        let (channel, width) = (output_map.result(1).ok(), output_map.result(3).ok());
                        let mut votes = 0i32;
                        for (i, map) in maps.iter().enumerate().take(inputs) {
                            let Some(input) = ffi::operand(op, i).filter(|v| is_image(*v) && !layout_free(*v)) else { continue };
                            // The loop running along the input's innermost
                            // stored dimension.
                            let innermost = map.result(if stored.contains(&value_key(input)) { 1 } else { 3 }).ok();
                            votes += i32::from(innermost == channel) - i32::from(innermost == width);
                        }
                        votes > 0
                    };
                    if chosen {
                        stored.insert(value_key(result.into()));
                    }
                }
            }
            // A concatenation of channels-last values along any dimension
            // (DenseNet's `torch.cat(features, 1)`): the same
            // concatenation along that dimension's stored position.
            "tensor.concat" => {
                let Ok(result) = op.result(0) else { continue };
                let operands_stored =
                    op.operand_count() > 0 && (0..op.operand_count()).all(|i| ffi::operand(op, i).is_some_and(|v| stored.contains(&value_key(v))));
                if is_image(result.into()) && concat_dim(op).is_some() && operands_stored {
                    stored.insert(value_key(result.into()));
                }
            }
            "tensor.pad" => {
                let Some(source) = ffi::operand(op, 0) else { continue };
                let Ok(result) = op.result(0) else { continue };
                if op.operand_count() == 1 && stored.contains(&value_key(source)) && constant_padding(op) {
                    stored.insert(value_key(result.into()));
                }
            }
            _ => {}
        }
    }
    stored
}

/// True if a `tensor.pad`'s body yields a value defined outside it (it does
/// not depend on the position, which the layout changes).
fn constant_padding(pad: OperationRef) -> bool {
    let Some(body) = pad.region(0).ok().and_then(|r| r.first_block()) else { return false };
    let Some(terminator) = body.terminator() else { return false };
    body.first_operation().is_some_and(|first| first == terminator)
        && ffi::operand(terminator, 0).is_some_and(|v| ffi::defining_block(v) != Some(body))
}

/// Gives the chosen values their channels-last types and every access the
/// permuted map; transposing copies where a use cannot take the new layout.
fn relayout(context: &Context, func: OperationRef, stored: &HashSet<usize>) {
    // Producers first, in program order (an output's initial value may
    // itself be stored channels-last, and is then already retyped).
    let mut values = Vec::new();
    for op in ir::body_ops(func) {
        for r in 0..op.result_count() {
            let Ok(result) = op.result(r) else { continue };
            if !stored.contains(&value_key(result.into())) {
                continue;
            }
            values.push(Value::from(result));
            match op_name(op).as_str() {
                "linalg.generic" => retype_generic_result(context, op, r, stored),
                "tensor.concat" => retype_concat(context, op),
                _ => retype_pad(context, op),
            }
        }
    }
    // Loops in the order the stored outputs are laid out.
    for op in ir::body_ops(func) {
        if op_name(op) != "linalg.generic" {
            continue;
        }
        let first_stored = (0..op.result_count()).find(|r| op.result(*r).is_ok_and(|v| stored.contains(&value_key(v.into()))));
        if let Some(r) = first_stored {
            relayout_free_inputs(context, op, stored);
            reorder_loops(context, op, r);
            channel_innermost_operands(context, op, r, stored);
        }
    }
    // Then every use.
    for value in values {
        for (user, index) in ffi::uses(value) {
            if !rewrite_use(context, user, index, stored) {
                insert_transposed(context, user, index, value, false);
            }
        }
    }
}

/// Output `r` of a generic becomes channels-last: its map, its type and
/// its initial value.
fn retype_generic_result(context: &Context, generic: OperationRef, r: usize, stored: &HashSet<usize>) {
    let (inputs, _) = segments(generic).expect("checked by decide");
    let index = inputs + r;
    permute_map(context, generic, index, &STORED);
    let result: Value = generic.result(r).expect("result").into();
    ffi::set_type(result, stored_type(result.r#type()));
    let init = ffi::operand(generic, index).expect("output operand");
    if stored.contains(&value_key(init)) {
        return;
    }
    let body = generic.region(0).ok().and_then(|region| region.first_block()).expect("body");
    let read = body.argument(index).map(ffi::has_uses).unwrap_or(true);
    if read {
        rebuild_init(context, generic, index, init);
    } else {
        insert_empty(context, generic, index, stored_type(init.r#type()));
    }
}

/// A `tensor.pad` of a channels-last value: its type and padding amounts.
fn retype_pad(context: &Context, pad: OperationRef) {
    let result: Value = pad.result(0).expect("result").into();
    ffi::set_type(result, stored_type(result.r#type()));
    for name in ["static_low", "static_high"] {
        let Some(amounts) = pad.attribute(name).ok().and_then(|a| DenseI64ArrayAttribute::try_from(a).ok()) else { continue };
        let permuted: Vec<i64> = STORED.iter().map(|d| amounts.element(*d).unwrap_or(0)).collect();
        ffi::set_attribute(pad, name, DenseI64ArrayAttribute::new(context, &permuted).into());
    }
}

/// The (logical, NCHW) dimension a rank-4 `tensor.concat` concatenates along.
fn concat_dim(concat: OperationRef) -> Option<usize> {
    let dim = concat.attribute("dim").ok().and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())?;
    usize::try_from(dim.value()).ok().filter(|d| *d < POSITION.len())
}

/// Sets `op`'s i64 attribute `name` to `value` (a `dim` of `linalg.index`
/// or `tensor.concat`).
fn set_dim(context: &Context, op: OperationRef, name: &str, value: usize) {
    let ty = melior::ir::r#type::IntegerType::new(context, 64).into();
    ffi::set_attribute(op, name, melior::ir::attribute::IntegerAttribute::new(ty, value as i64).into());
}

/// A `tensor.concat` of channels-last values: its type and the position of
/// the dimension it concatenates along (`decide` checked it has one).
fn retype_concat(context: &Context, concat: OperationRef) {
    let result: Value = concat.result(0).expect("result").into();
    ffi::set_type(result, stored_type(result.r#type()));
    let logical = concat_dim(concat).expect("checked by decide");
    set_dim(context, concat, "dim", POSITION[logical]);
}

/// Rewrites one use of a channels-last value in place; false when the user
/// cannot read it that way (it then gets a transposing copy).
fn rewrite_use(context: &Context, user: OperationRef, index: usize, stored: &HashSet<usize>) -> bool {
    match op_name(user).as_str() {
        "linalg.generic" => {
            let Some((inputs, outputs)) = segments(user) else { return false };
            if index < inputs {
                permute_map(context, user, index, &STORED);
                true
            } else {
                // An initial value: fine where the result is stored too.
                index < inputs + outputs
                    && user.result(index - inputs).is_ok_and(|r| stored.contains(&value_key(r.into())))
            }
        }
        "tensor.pad" | "tensor.concat" => user.result(0).is_ok_and(|r| stored.contains(&value_key(r.into()))),
        _ => false,
    }
}

/// Puts the results of a generic's map `index` in `order` (result `i` is
/// the old result `order[i]`): the operand is now stored with its
/// dimensions in that order (`STORED`: channels-last).
fn permute_map(context: &Context, generic: OperationRef, index: usize, order: &[usize]) {
    let mut maps = maps_of(generic).expect("generic maps");
    let map = maps[index];
    let results: Vec<AffineExpr> = order.iter().map(|d| map.result(*d).expect("a result per dimension")).collect();
    maps[index] = AffineMap::new(context, map.dim_count(), map.symbol_count(), &results);
    let attributes: Vec<Attribute> = maps.iter().map(|m| ffi::affine_map_attribute(*m)).collect();
    ffi::set_attribute(generic, "indexing_maps", ArrayAttribute::new(context, &attributes).into());
}

/// Operand `index` of `op` becomes a new `tensor.empty` of type `ty`
/// (created just before `op`).
fn insert_empty<'c>(context: &'c Context, op: OperationRef<'c, '_>, index: usize, ty: Type<'c>) {
    let rewriter = IrRewriter::from_op(op);
    let rewriter = rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(op);
    let emitter = Emitter { context, rewriter: &rewriter, location: op.location() };
    ffi::set_operand(op, index, emitter.value("tensor.empty", &[], ty, &[]));
}

/// Output operand `index` of `generic`, an NCHW initial value that its body
/// reads, rebuilt channels-last before it: a copy of its `linalg.fill` or
/// `linalg.broadcast` into a new empty tensor, else a transposing copy.
fn rebuild_init<'c>(context: &'c Context, generic: OperationRef<'c, '_>, index: usize, init: Value<'c, '_>) {
    let ty = stored_type(init.r#type());
    let producer = ffi::defining_op(init).filter(|p| p.operand_count() == 2);
    let name = producer.map(op_name).unwrap_or_default();
    let dimensions = match (name.as_str(), producer) {
        ("linalg.fill", _) => Some(None),
        ("linalg.broadcast", Some(broadcast)) => broadcast_dimensions(broadcast).map(Some),
        _ => None,
    };
    let (Some(producer), Some(dimensions)) = (producer, dimensions) else {
        insert_transposed(context, generic, index, init, true);
        return;
    };
    let block = generic.block().expect("in a block");
    let copy = block.insert_operation_before(generic, ffi::clone_operation(producer));
    insert_empty(context, copy, 1, ty);
    let result: Value = copy.result(0).expect("result").into();
    ffi::set_type(result, ty);
    if let Some(dimensions) = dimensions {
        ffi::set_attribute(copy, "dimensions", DenseI64ArrayAttribute::new(context, &dimensions).into());
    }
    ffi::set_operand(generic, index, result);
    // The NCHW fill or broadcast is dead now, unless something else reads
    // it: erased, or bufferization would still write it (a whole feature
    // map of bias values nobody reads).
    erase_if_unused(producer);
}

/// The NCHW broadcast or fill inputs of a generic whose result is stored
/// channels-last (a convolution's bias, broadcast to its whole output, read
/// by the quantized product's epilogue) are made channels-last too, as an
/// output's initial value is: read across the channel loop, a broadcast
/// would be a strided gather of a whole feature map.
fn relayout_free_inputs(context: &Context, generic: OperationRef, stored: &HashSet<usize>) {
    let Some((inputs, _)) = segments(generic) else { return };
    for i in 0..inputs {
        let Some(input) = ffi::operand(generic, i) else { continue };
        if is_image(input) && layout_free(input) && !stored.contains(&value_key(input)) {
            permute_map(context, generic, i, &STORED);
            rebuild_init(context, generic, i, input);
        }
    }
}

/// Erases `op` (a fill or broadcast on tensors) when its result has no
/// uses, and then the `tensor.empty` it wrote into when that has none.
fn erase_if_unused(op: OperationRef) {
    if op.result(0).is_ok_and(ffi::has_uses) {
        return;
    }
    let init = ffi::operand(op, op.operand_count().saturating_sub(1)).and_then(ffi::defining_op);
    // SAFETY: the op's one result has no uses; nothing nested in it is
    // used outside it, and no handle to it is kept (the caller's
    // `producer` is not used after this call).
    unsafe { ffi::erase(op) };
    if let Some(empty) = init.filter(|e| op_name(*e) == "tensor.empty" && e.result(0).is_ok_and(|r| !ffi::has_uses(r))) {
        // SAFETY: an unused tensor.empty without regions, not held elsewhere.
        unsafe { ffi::erase(empty) };
    }
}

/// The `dimensions` (the output dimensions the input is broadcast along) of
/// a `linalg.broadcast` to a rank-4 tensor once its output is stored
/// channels-last, or `None` when the input's dimensions would then appear
/// in another order.
fn broadcast_dimensions(broadcast: OperationRef) -> Option<Vec<i64>> {
    let added = DenseI64ArrayAttribute::try_from(broadcast.attribute("dimensions").ok()?).ok()?;
    let added: Vec<usize> = (0..added.len()).map(|i| added.element(i).ok().and_then(|d| usize::try_from(d).ok())).collect::<Option<_>>()?;
    if added.iter().any(|d| *d >= 4) {
        return None;
    }
    let kept: Vec<usize> = STORED.iter().copied().filter(|d| !added.contains(d)).collect();
    if !kept.windows(2).all(|w| w[0] < w[1]) {
        return None;
    }
    let mut moved: Vec<i64> = added.iter().map(|d| POSITION[*d] as i64).collect();
    moved.sort_unstable();
    Some(moved)
}

/// Operand `index` of `user` becomes a copy of rank-4 `value` made just
/// before it: into channels-last order (`to_stored`) from NCHW, or back.
fn insert_transposed<'c>(context: &'c Context, user: OperationRef<'c, '_>, index: usize, value: Value<'c, '_>, to_stored: bool) {
    insert_permuted_copy(context, user, index, value, if to_stored { &STORED } else { &POSITION });
}

/// Renumbers the loops of a generic so that output `r` (stored
/// channels-last) is written in storage order: the loops indexing its
/// dimensions first, in that order, then the others (reductions) as they
/// were. Every map, the loop kinds and the body's `linalg.index` follow.
/// Without it an elementwise op after a convolution kept its NCHW loop
/// order and wrote channels-last memory with a stride of the channel count
/// in its innermost loop (ResNet-18's batch norms: 12x slower).
fn reorder_loops(context: &Context, generic: OperationRef, r: usize) {
    let Some((inputs, _)) = segments(generic) else { return };
    let Some(maps) = maps_of(generic) else { return };
    let Some(iterators) = generic.attribute("iterator_types").ok().and_then(|a| ArrayAttribute::try_from(a).ok()) else { return };
    let loops = maps[inputs + r].dim_count();
    // order[new position] = old loop.
    let mut order: Vec<usize> = Vec::with_capacity(loops);
    let output = maps[inputs + r];
    for i in 0..output.result_count() {
        let Ok(expr) = output.result(i) else { return };
        if let Some(d) = (0..loops).find(|d| expr == AffineExpr::dim(context, *d)) {
            if !order.contains(&d) {
                order.push(d);
            }
        }
    }
    let rest: Vec<usize> = (0..loops).filter(|d| !order.contains(d)).collect();
    order.extend(rest);
    if order.iter().enumerate().all(|(new, old)| new == *old) || iterators.len() != loops {
        return;
    }
    // Old loop d is new loop position(d).
    let position = |old: usize| order.iter().position(|d| *d == old).expect("permutation");
    let renumber = AffineMap::new(context, loops, 0, &(0..loops).map(|d| AffineExpr::dim(context, position(d))).collect::<Vec<_>>());
    let renumbered: Vec<Attribute> = maps
        .iter()
        .map(|map| ffi::affine_map_attribute(ffi::compose_map(context, *map, renumber)))
        .collect();
    let kinds: Vec<Attribute> = order.iter().map(|old| iterators.element(*old).expect("iterator")).collect();
    ffi::set_attribute(generic, "indexing_maps", ArrayAttribute::new(context, &renumbered).into());
    ffi::set_attribute(generic, "iterator_types", ArrayAttribute::new(context, &kinds).into());
    let indices = ffi::collect_ops(generic, melior::ir::operation::WalkOrder::PreOrder, |op| ir::is_named(op, "linalg.index"));
    for index in indices {
        let Some(old) = crate::linalg_ops::index_dim(index) else { continue };
        if old < loops {
            set_dim(context, index, "dim", position(old));
        }
    }
}

/// The other operands of a generic writing output `r` channels-last that
/// the channel loop walks with a stride (a table indexed by channel first,
/// `T[c, k]`, such as a depthwise convolution's weights) are read from a
/// copy with that dimension last (`T[k, c]`), so that a vector of
/// channels is one load:
/// `pb-accumulate-tile` and `pb-vectorize` take strided operands a lane at
/// a time (depthwise convolutions ran 3-7x slower that way). The copies
/// are of small parameters, made once per call.
fn channel_innermost_operands(context: &Context, generic: OperationRef, r: usize, stored: &HashSet<usize>) {
    let Some((inputs, _)) = segments(generic) else { return };
    let Some(maps) = maps_of(generic) else { return };
    let output = maps[inputs + r];
    let Ok(channel) = output.result(output.result_count() - 1) else { return };
    for (i, map) in maps.iter().enumerate().take(inputs) {
        let Some(operand) = ffi::operand(generic, i) else { continue };
        let Some(shape) = static_shape(operand) else { continue };
        if stored.contains(&value_key(operand)) || shape.len() < 2 || map.result_count() != shape.len() {
            continue;
        }
        let Some(p) = (0..shape.len()).find(|p| map.result(*p).is_ok_and(|e| e == channel)) else { continue };
        // Already contiguous along the channels (what follows is unit
        // dimensions), or read as a whole image: nothing to gain.
        if shape[p + 1..].iter().all(|n| *n == 1) || shape.len() == 4 {
            continue;
        }
        let mut order: Vec<usize> = (0..shape.len()).filter(|d| *d != p).collect();
        order.push(p);
        insert_permuted_copy(context, generic, i, operand, &order);
        permute_map(context, generic, i, &order);
    }
}

/// Operand `index` of `user` becomes a copy of static `value` with its
/// dimensions in `order` (copy dimension `i` is `value`'s `order[i]`),
/// made just before it.
fn insert_permuted_copy<'c>(context: &'c Context, user: OperationRef<'c, '_>, index: usize, value: Value<'c, '_>, order: &[usize]) {
    let shape = static_shape(value).expect("static");
    let element = RankedTensorType::try_from(value.r#type()).expect("tensor").element();
    let rank = shape.len();
    let result_shape: Vec<u64> = order.iter().map(|d| shape[*d] as u64).collect();
    let result_type: Type = RankedTensorType::new(&result_shape, element, None).into();
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let input: Vec<String> = (0..rank).map(|j| format!("d{}", order.iter().position(|d| *d == j).expect("permutation"))).collect();
    let rewriter = IrRewriter::from_op(user);
    let rewriter = rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(user);
    let emitter = Emitter { context, rewriter: &rewriter, location: user.location() };
    let init = emitter.value("tensor.empty", &[], result_type, &[]);
    let generic = emitter.generic(
        &[value],
        &[init],
        &[
            format!("affine_map<({}) -> ({})>", dims.join(", "), input.join(", ")),
            format!("affine_map<({0}) -> ({0})>", dims.join(", ")),
        ],
        &vec![true; rank],
        &[result_type],
        &[element, element],
    );
    let body = generic.region(0).ok().and_then(|r| r.first_block()).expect("body");
    let element_value: Value = body.argument(0).expect("input element").into();
    emitter.op("linalg.yield", &[element_value], &[], &[], vec![]);
    ffi::set_operand(user, index, generic.result(0).expect("result").into());
}
