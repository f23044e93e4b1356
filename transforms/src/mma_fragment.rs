//! The `!gpu.mma_matrix` fragment type (warp-level values of
//! `gpu.subgroup_mma_*`), read from its text: melior has no accessor. Shared
//! by the passes that rewrite fragments (`pb-gpu-emulate`,
//! `pb-gpu-wmma-lanes`).

use melior::ir::Type;

/// A fragment type `!gpu.mma_matrix<ROWSxCOLUMNSxELEMENT, "KIND">`.
pub(crate) struct Fragment {
    pub rows: i64,
    pub columns: i64,
    /// `f16`, `f32`, `si8`, `ui8`, `i32`.
    pub element: String,
    /// `AOp`, `BOp` or `COp`.
    pub kind: String,
}

/// `ty` as a fragment type, if it is one.
pub(crate) fn parse(ty: Type) -> Option<Fragment> {
    let text = ty.to_string();
    let inner = text.strip_prefix("!gpu.mma_matrix<")?.strip_suffix('>')?;
    let (shape, kind) = inner.split_once(',')?;
    let parts: Vec<&str> = shape.split('x').collect();
    let [rows, columns, element] = parts.as_slice() else { return None };
    Some(Fragment {
        rows: rows.parse().ok()?,
        columns: columns.parse().ok()?,
        element: element.to_string(),
        kind: kind.trim().trim_matches('"').to_string(),
    })
}
