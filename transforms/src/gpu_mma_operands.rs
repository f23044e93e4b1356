//! What `pb-gpu-mma` multiplies: the element types of a product (f16
//! summed in f32, 8-bit integers summed in i32, f32 on the CUDA cores'
//! FMA units), the buffers its factors
//! read (an f16 operand a front widened into an f32 buffer is read where it
//! came from), and how a mixed-sign integer product is made one the tensor
//! cores take (`Offset`).

use crate::contraction_roles;
use melior::ir::{operation::OperationLike, OperationRef, Value, ValueLike};
use pb_polyhedral::{scop::Statement, Aff, Scop};
use pb_support::{ffi, ir::is_named};

/// Element types of a product: the operands' (f16 or 8-bit integers) and C's.
#[derive(Clone, Copy)]
pub(crate) struct Types {
    /// C's element type: f32, or f16 (rounded once from the f32 sums).
    pub c_f16: bool,
    /// 8-bit integer operands summed in i32: `Some((a_unsigned,
    /// b_unsigned))` (the factors' `(x, y)` until the roles are known).
    pub int8: Option<(bool, bool)>,
    /// f32 operands summed in f32: no tensor-core shape takes them at full
    /// precision, so they run as per-thread FMA tiles (`gpu_fma_tile`).
    pub f32: bool,
}

/// Which operand of a `u8 x s8` product runs offset by -128 (its bytes
/// XOR 0x80: the `wmma` integer shapes take one signedness), and so which
/// sums correct it: `128 x` B's column sums (A offset) or A's row sums (B
/// offset), from products with a fragment of ones.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Offset {
    A,
    B,
}

impl Types {
    /// The operands' element type in memory.
    pub fn operand(self) -> &'static str {
        if self.int8.is_some() {
            "i8"
        } else if self.f32 {
            "f32"
        } else {
            "f16"
        }
    }
    /// The operands' fragment element type (signedness explicit; an
    /// offset operand is signed).
    pub fn fragment(self) -> &'static str {
        match self.int8 {
            Some((true, true)) => "ui8",
            Some(_) => "si8",
            None => "f16",
        }
    }
    /// The operand offset by -128 to make a mixed-sign product signed.
    pub fn offset(self) -> Option<Offset> {
        match self.int8 {
            Some((true, false)) => Some(Offset::A),
            Some((false, true)) => Some(Offset::B),
            _ => None,
        }
    }
    /// The sums' type.
    pub fn sum(self) -> &'static str {
        if self.int8.is_some() { "i32" } else { "f32" }
    }
    pub fn bytes(self) -> i64 {
        if self.int8.is_some() {
            1
        } else if self.f32 {
            4
        } else {
            2
        }
    }
    /// Zero of type `ty` (an operand, a vector of them, or a sum), as an
    /// attribute's text.
    pub fn zero(self, ty: &str) -> String {
        let zero = if self.int8.is_some() { "0" } else { "0.0" };
        if ty.starts_with("vector") { format!("dense<{zero}> : {ty}") } else { format!("{zero} : {ty}") }
    }
    pub fn describe(self) -> &'static str {
        match self.int8 {
            Some((true, true)) => "u8 products summed in i32",
            Some((false, false)) => "s8 products summed in i32",
            Some((true, false)) => "u8 x s8 products summed in i32 (A's bytes offset by -128, 128 x B's column sums added back)",
            Some((false, true)) => "s8 x u8 products summed in i32 (B's bytes offset by -128, 128 x A's row sums added back)",
            None if self.f32 => "f32 products summed in f32, 4x8 per thread",
            None if self.c_f16 => "f16 products summed in f32 (rounded once to f16)",
            None => "f16 products summed in f32",
        }
    }
}

/// The f16 buffer a factor reads: an `arith.extf` f16 -> f32 of a load,
/// an f16 load (C f16), or an f32 load of a temporary that a nest before
/// filled with `extf` of an f16 buffer element for element (a front that
/// widens f16 operands to sum in f32, as torch-mlir does for PyTorch's
/// half-precision matmuls): the f16 buffer and that nest (dead once the
/// product reads around it).
fn f16_source<'c, 'a>(
    s: &Statement<'c, 'a>,
    factor: (usize, Option<OperationRef<'c, 'a>>),
    nest: OperationRef<'c, 'a>,
    sum_f16: bool,
) -> Option<(Value<'c, 'a>, Option<OperationRef<'c, 'a>>)> {
    let load = s.accesses[factor.0].op;
    let memref = load.operand(0).ok()?;
    let element = crate::emit_at::memref_element(memref)?.to_string();
    match factor.1 {
        Some(ext) => (is_named(ext, "arith.extf") && element == "f16" && !sum_f16).then_some((memref, None)),
        None if sum_f16 => (element == "f16").then_some((memref, None)),
        None => widened_f16(memref, nest).map(|(source, copy)| (source, Some(copy))),
    }
}

/// The f16 buffer whose elements `memref` (f32) holds widened, and the
/// nest before `nest` that wrote them: the only other writer of `memref`,
/// a nest storing `extf(X[idx])` into `memref[idx]` for every element.
fn widened_f16<'c, 'a>(memref: Value<'c, 'a>, nest: OperationRef<'c, 'a>) -> Option<(Value<'c, 'a>, OperationRef<'c, 'a>)> {
    let block = nest.block()?;
    let writers: Vec<OperationRef> = ffi::users(memref)
        .into_iter()
        .filter(|u| is_named(*u, "affine.store") && u.operand(1).ok() == Some(memref))
        .filter_map(|u| pb_support::ir::ancestor_in(u, block))
        .collect();
    let [writer] = writers.as_slice() else { return None };
    if *writer == nest || !is_named(*writer, "affine.for") || !ffi::is_before_in_block(*writer, nest) {
        return None;
    }
    let scop = Scop::extract(&[*writer]).ok()?;
    let [statement] = scop.statements.as_slice() else { return None };
    let [read, write] = statement.accesses.as_slice() else { return None };
    if read.write || !write.write || !read.exact || !write.exact || read.indices != write.indices {
        return None;
    }
    let ext = ffi::defining_op(write.op.operand(0).ok()?)?;
    let source = read.op.operand(0).ok()?;
    if !is_named(ext, "arith.extf") || ext.operand(0).ok()? != read.op.result(0).ok()?.into()
        || crate::emit_at::memref_element(source)?.to_string() != "f16"
        || statement.ops.iter().filter(|op| !is_named(**op, "affine.apply")).count() != 3
    {
        return None;
    }
    // Every element: the indices are the loops, each over its whole extent.
    let shape = &scop.arrays[write.array].shape;
    let covers = write.indices.len() == shape.len()
        && write.indices.iter().zip(shape).all(|(index, extent)| match index {
            Aff::Dim(d) => statement.bounds[*d].constant() == Some((0, *extent)) && statement.bounds[*d].step == 1,
            _ => false,
        });
    covers.then_some((source, *writer))
}

/// The f16 product `mac` computes, if it is one: its types and the f16
/// buffers (with the widening nests read around) of its factors `x`, `y`.
#[allow(clippy::type_complexity)]
pub(crate) fn f16_product<'c, 'a>(
    s: &Statement<'c, 'a>,
    mac: &contraction_roles::Mac<'c, 'a>,
    nest: OperationRef<'c, 'a>,
) -> Option<(Types, [(Value<'c, 'a>, Option<OperationRef<'c, 'a>>); 2])> {
    if !is_named(mac.add, "arith.addf") || !is_named(mac.mul, "arith.mulf") {
        return None;
    }
    let sum = mac.add.result(0).ok()?.r#type().to_string();
    let sum_f16 = match sum.as_str() {
        "f16" => true,
        "f32" => false,
        _ => return None,
    };
    let x = f16_source(s, mac.x, nest, sum_f16)?;
    let y = f16_source(s, mac.y, nest, sum_f16)?;
    Some((Types { c_f16: sum_f16, int8: None, f32: false }, [x, y]))
}

/// The 8-bit integer product `mac` computes, if it is one (`extsi` or
/// `extui` i8 -> i32 of both factors, summed in i32): its types and the
/// factors' buffers. Factors of different signedness: `Err` with why.
#[allow(clippy::type_complexity)]
pub(crate) fn int8_product<'c, 'a>(
    s: &Statement<'c, 'a>,
    mac: &contraction_roles::Mac<'c, 'a>,
) -> Option<Result<(Types, [(Value<'c, 'a>, Option<OperationRef<'c, 'a>>); 2]), String>> {
    if !is_named(mac.add, "arith.addi") || !is_named(mac.mul, "arith.muli") || mac.add.result(0).ok()?.r#type().to_string() != "i32" {
        return None;
    }
    let factor = |(k, ext): (usize, Option<OperationRef<'c, 'a>>)| -> Option<(Value<'c, 'a>, bool)> {
        let ext = ext?;
        let unsigned = is_named(ext, "arith.extui");
        if !unsigned && !is_named(ext, "arith.extsi") || ext.operand(0).ok()?.r#type().to_string() != "i8" {
            return None;
        }
        Some((s.accesses[k].op.operand(0).ok()?, unsigned))
    };
    let (x, ux) = factor(mac.x)?;
    let (y, uy) = factor(mac.y)?;
    Some(Ok((Types { c_f16: false, int8: Some((ux, uy)), f32: false }, [(x, None), (y, None)])))
}

/// The f32 product `mac` computes, if it is one (f32 loads multiplied and
/// summed in f32, nothing widened): its types and the factors' buffers.
#[allow(clippy::type_complexity)]
pub(crate) fn f32_product<'c, 'a>(
    s: &Statement<'c, 'a>,
    mac: &contraction_roles::Mac<'c, 'a>,
) -> Option<(Types, [(Value<'c, 'a>, Option<OperationRef<'c, 'a>>); 2])> {
    if !is_named(mac.add, "arith.addf") || !is_named(mac.mul, "arith.mulf") || mac.add.result(0).ok()?.r#type().to_string() != "f32" {
        return None;
    }
    let factor = |(k, ext): (usize, Option<OperationRef<'c, 'a>>)| -> Option<Value<'c, 'a>> {
        let memref = s.accesses[k].op.operand(0).ok()?;
        (ext.is_none() && crate::emit_at::memref_element(memref)?.to_string() == "f32").then_some(memref)
    };
    let (x, y) = (factor(mac.x)?, factor(mac.y)?);
    Some((Types { c_f16: false, int8: None, f32: true }, [(x, None), (y, None)]))
}

