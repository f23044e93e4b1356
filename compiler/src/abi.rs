//! Reading the C ABI of compiled functions off the bufferized IR.
//!
//! Every public `func.func` becomes `void name(in..., out..., [pool])` (see
//! `pb_runtime::manifest`, whose types describe it in `NAME.json`; the
//! header `NAME.h` shows the same in C).

use melior::ir::{
    operation::OperationLike,
    r#type::{IntegerType, MemRefType, RankedTensorType, ShapedTypeLike},
    OperationRef, Type, TypeLike,
};
pub use pb_runtime::manifest::{dtype_bytes, Arg, Function, Manifest, Role};

/// The C type of one element of `dtype`.
pub fn c_type(dtype: &str) -> &'static str {
    match dtype {
        "f32" => "float",
        "f64" => "double",
        "f16" | "bf16" => "uint16_t",
        "i1" => "bool",
        "complex<f32>" => "float _Complex",
        "complex<f64>" => "double _Complex",
        "i8" => "int8_t",
        "i16" => "int16_t",
        "i32" => "int32_t",
        _ => "int64_t",
    }
}

fn element_name(ty: Type) -> String {
    if let Ok(int) = IntegerType::try_from(ty) {
        return format!("i{}", int.width());
    }
    ty.to_string()
}

/// `(dtype, shape, by_value)` of an argument type (tensor, memref or scalar).
pub fn describe(ty: Type) -> (String, Vec<u64>, bool) {
    let shaped = RankedTensorType::try_from(ty)
        .map(|t| (t.element(), (0..t.rank()).map(|i| dim(&t, i)).collect::<Vec<_>>()))
        .or_else(|_| MemRefType::try_from(ty).map(|t| (t.element(), (0..t.rank()).map(|i| dim(&t, i)).collect())));
    match shaped {
        Ok((element, shape)) => (element_name(element), shape, false),
        Err(_) => (element_name(ty), vec![], !ty.is_mem_ref()),
    }
}

fn dim<'c>(shaped: &impl ShapedTypeLike<'c>, i: usize) -> u64 {
    match shaped.dim_size(i) {
        Ok(melior::ir::r#type::DimSize::Static(n)) => n,
        _ => 0,
    }
}

/// The ABI of `func` after bufferization: its first `inputs` arguments are
/// inputs, then outputs, then (with a pool) the pool.
pub fn function_abi(func: OperationRef, inputs: usize, user_memory: bool) -> Option<Function> {
    let function_type = pb_support::ir::function_type(func)?;
    let count = function_type.input_count();
    let mut args = Vec::new();
    for i in 0..count {
        let ty = function_type.input(i).ok()?;
        let (dtype, shape, by_value) = describe(ty);
        let (role, name) = if user_memory && i == count - 1 {
            (Role::UserMemory, "user_memory".to_string())
        } else if i < inputs {
            (Role::Input, format!("input{i}"))
        } else {
            (Role::Output, format!("output{}", i - inputs))
        };
        args.push(Arg { name, role, dtype, shape, by_value, mlir_type: ty.to_string() });
    }
    let user_memory_bytes = user_memory.then(|| args.last().map(Arg::bytes).unwrap_or(0));
    let prepared_flag = func
        .attribute(pb_transforms::allocs_to_pool::PREPARED_FLAG_OFFSET)
        .ok()
        .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
        .map(|offset| offset.value() as u64);
    Some(Function { name: pb_support::ir::symbol_name(func), args, user_memory_bytes, prepared_flag })
}
