//! `pb-check-cpu-input`: reject, with a located error naming the op, any
//! input the `cpu` pipeline cannot compile, before a later pass fails in a
//! less helpful way (or, worse, silently produces something else).
//!
//! It checks:
//! - every op belongs to a dialect the pipeline lowers (builtin, func, arith,
//!   math, linalg, tensor, tosa, pbq, bufferization, memref, affine, scf,
//!   vector, index, cf, llvm, complex, and ml_program, whose mutable globals hold
//!   torch-mlir's random-number seed and bufferize to `memref.global`);
//!   anything else, e.g. torch-mlir's
//!   `tm_tensor.attention`, is "unsupported op 'tm_tensor.attention'"
//!   (its scatter, scan and sort are lowered before, `pb-lower-tm-tensor`);
//! - public functions take ranked tensors, memrefs or scalars, and return
//!   ranked tensors or memrefs, with static shapes (the generated C ABI
//!   passes plain pointers, so shapes must be known at compile time) of
//!   supported element types.
//!
//! The pass changes nothing; it fails the pipeline with one error per
//! problem.

use melior::ir::{
    operation::{OperationLike, WalkOrder},
    r#type::{IntegerType, MemRefType, RankedTensorType, ShapedTypeLike},
    OperationRef, Type, TypeLike,
};
use pb_support::{ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-check-cpu-input",
    summary: "Report ops and function signatures the cpu pipeline cannot compile",
    description: "Fails with one located error per unsupported op (named with its dialect) and \
per public-function argument or result whose shape is dynamic or whose element type is not \
supported. Changes nothing. First pass of the `cpu` pipeline.",
    anchor: "builtin.module",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<CheckCpuInput>,
};

/// Dialects whose ops the cpu pipeline lowers.
pub const SUPPORTED_DIALECTS: &[&str] = &[
    "builtin",
    "func",
    "arith",
    "math",
    "linalg",
    "tensor",
    "tosa",
    "pbq",
    "bufferization",
    "memref",
    "affine",
    "scf",
    "vector",
    "index",
    "cf",
    "llvm",
    "ml_program",
    "complex",
];

#[derive(Clone, Default)]
struct CheckCpuInput;

impl RustPass for CheckCpuInput {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &[]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let problems = check(root);
        for (op, message) in &problems {
            ffi::emit_error(op.location(), message);
        }
        PassFailed::unless(problems.is_empty())
    }
}

/// Every problem under `root`, with the op to report it at.
pub fn check<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<(OperationRef<'c, 'a>, String)> {
    let mut problems = Vec::new();
    for op in ffi::collect_ops(root, WalkOrder::PreOrder, |_| true) {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or("?").to_string();
        let dialect = name.split('.').next().unwrap_or("");
        if !SUPPORTED_DIALECTS.contains(&dialect) {
            problems.push((
                op,
                format!("unsupported op '{name}': the cpu pipeline does not lower the '{dialect}' dialect"),
            ));
            continue;
        }
        if name == "func.func" && ir::is_public_definition(op) {
            problems.extend(check_signature(op).into_iter().map(|m| (op, m)));
        }
    }
    problems
}

fn check_signature(func: OperationRef) -> Vec<String> {
    let symbol = ir::symbol_name(func);
    let Some(function_type) = ir::function_type(func) else {
        return vec![format!("function @{symbol} has no function type")];
    };
    let mut problems = Vec::new();
    for i in 0..function_type.input_count() {
        let Ok(ty) = function_type.input(i) else { continue };
        if let Err(reason) = check_abi_type(ty) {
            problems.push(format!("function @{symbol}: argument {i} of type '{ty}' {reason}"));
        }
    }
    for i in 0..function_type.result_count() {
        let Ok(ty) = function_type.result(i) else { continue };
        let reason = if ty.is_ranked_tensor() || ty.is_mem_ref() || ty.is_unranked_tensor() || ty.is_unranked_mem_ref()
        {
            check_abi_type(ty).err()
        } else {
            Some("is a scalar; results cross the C ABI as buffers, so return a 0-d tensor".to_string())
        };
        if let Some(reason) = reason {
            problems.push(format!("function @{symbol}: result {i} of type '{ty}' {reason}"));
        }
    }
    problems
}

/// Can `ty` cross the generated C ABI (a plain pointer or scalar)?
fn check_abi_type(ty: Type) -> Result<(), String> {
    if ty.is_unranked_tensor() || ty.is_unranked_mem_ref() {
        return Err("is unranked; the cpu pipeline needs static shapes".into());
    }
    let shaped = RankedTensorType::try_from(ty)
        .map(|t| (t.has_static_shape(), t.element()))
        .or_else(|_| MemRefType::try_from(ty).map(|t| (t.has_static_shape(), t.element())));
    let element = match shaped {
        Ok((true, element)) => element,
        Ok((false, _)) => {
            return Err("has a dynamic shape; the cpu pipeline needs static shapes (specialize the shapes first)".into())
        }
        Err(_) if ty.is_ranked_tensor() || ty.is_mem_ref() => return Err("is not supported".into()),
        Err(_) => ty,
    };
    let integer =
        IntegerType::try_from(element).is_ok_and(|i| i.is_signless() && [1, 8, 16, 32, 64].contains(&i.width()));
    let float = |t: Type| t.is_f16() || t.is_bf16() || t.is_f32() || t.is_f64();
    let complex = ffi::complex_element(element).is_some_and(|part| part.is_f32() || part.is_f64());
    if integer || float(element) || complex || element.is_index() {
        Ok(())
    } else {
        Err(format!("has element type '{element}', which the cpu pipeline does not support"))
    }
}
