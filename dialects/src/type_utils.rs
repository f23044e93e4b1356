//! Small helpers on builtin types shared by the dialect modules.

use melior::ir::{
    r#type::{RankedTensorType, ShapedTypeLike},
    Type, TypeLike,
};

/// Splits a type into (shape, element): `(Some(dims), elem)` for a ranked
/// tensor, `(None, t)` for a scalar. Dynamic dims are `None`.
pub fn shape_and_element(ty: Type) -> (Option<Vec<Option<u64>>>, Type) {
    if let Ok(tensor) = RankedTensorType::try_from(ty) {
        let dims = (0..tensor.rank())
            .map(|i| match tensor.dim_size(i) {
                Ok(melior::ir::r#type::DimSize::Static(n)) => Some(n),
                _ => None,
            })
            .collect();
        (Some(dims), tensor.element())
    } else {
        (None, ty)
    }
}

/// The sizes of a ranked tensor type whose every size is static.
pub fn static_shape(ty: Type) -> Option<Vec<i64>> {
    shape_and_element(ty).0?.into_iter().map(|d| d.map(|n| n as i64)).collect()
}

/// The sizes of a memref type whose every size is static (`None` for any
/// other type: `static_shape` is for tensors).
pub fn memref_static_shape(ty: Type) -> Option<Vec<i64>> {
    let memref = melior::ir::r#type::MemRefType::try_from(ty).ok()?;
    (0..memref.rank())
        .map(|d| match memref.dim_size(d) {
            Ok(melior::ir::r#type::DimSize::Static(n)) => Some(n as i64),
            _ => None,
        })
        .collect()
}

/// `ty` with its element type replaced by `element` (a scalar stays scalar).
pub fn with_element<'c>(ty: Type<'c>, element: Type<'c>) -> Type<'c> {
    match RankedTensorType::try_from(ty) {
        Ok(tensor) => {
            let dims: Vec<u64> = (0..tensor.rank())
                .map(|i| match tensor.dim_size(i) {
                    Ok(melior::ir::r#type::DimSize::Static(n)) => n,
                    _ => i64::MIN as u64, // MLIR's kDynamic
                })
                .collect();
            RankedTensorType::new(&dims, element, tensor.encoding()).into()
        }
        Err(_) => element,
    }
}

/// Bit width of a signless integer type, or `None`.
pub fn signless_int_width(ty: Type) -> Option<u32> {
    melior::ir::r#type::IntegerType::try_from(ty).ok().filter(|t| t.is_signless()).map(|t| t.width())
}

/// True for the float types the quantization ops accept.
pub fn is_quant_float(ty: Type) -> bool {
    ty.is_f16() || ty.is_bf16() || ty.is_f32() || ty.is_f64()
}
