//! # pb-dialects
//!
//! The dialects of polyblocks-rs. Each is defined in IRDL (`irdl/*.irdl.mlir`,
//! embedded in the binary) and loaded into every context made by
//! [`create_context`]; each has a Rust module with typed builders, accessors
//! and the semantic checks IRDL cannot express.
//!
//! - [`pbq`] — per-tensor affine quantization (quantize / dequantize /
//!   requantize), the form PyTorch PT2E graphs are imported into.
//! - [`stablehlo`] — the StableHLO ops the JAX and TensorFlow fronts give,
//!   in generic form, and the importer of their pretty text.
//!
//! Depends on pb-support and melior only.

pub mod pbq;
pub mod stablehlo;
pub mod type_utils;

use melior::{
    dialect::DialectRegistry,
    ir::{operation::OperationLike, Module, OperationRef},
    utility::{register_all_dialects, register_all_llvm_translations, register_all_passes},
    Context,
};

/// IRDL sources of our dialects, by file name.
pub const IRDL_SOURCES: &[(&str, &str)] = &[
    ("pbq.irdl.mlir", include_str!("../irdl/pbq.irdl.mlir")),
    ("stablehlo.irdl.mlir", include_str!("../irdl/stablehlo.irdl.mlir")),
];

/// A context with every upstream dialect loaded, upstream passes and LLVM
/// translations registered, and our IRDL dialects loaded.
pub fn create_context() -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    register_all_passes();
    register_all_llvm_translations(&context);
    load_dialects(&context);
    context
}

/// Loads our IRDL dialects into `context`.
///
/// The IRDL text ships inside the binary and is checked by the lit tests, so
/// a failure here is a build defect; it panics with the parser's reason.
pub fn load_dialects(context: &Context) {
    for (name, source) in IRDL_SOURCES {
        let module =
            Module::parse(context, source).unwrap_or_else(|| panic!("built-in IRDL file {name} does not parse"));
        assert!(melior::utility::load_irdl_dialects(&module), "built-in IRDL file {name} does not load");
    }
}

/// Runs the semantic checks of all our dialects on `op` and everything nested
/// in it, emitting an error diagnostic per problem. Returns false if any.
pub fn verify(op: OperationRef) -> bool {
    let mut ok = true;
    op.walk(melior::ir::operation::WalkOrder::PreOrder, |nested| {
        let name = nested.name();
        if let Ok(name) = name.as_string_ref().as_str() {
            if name.starts_with("pbq.") {
                ok &= pbq::verify_op(nested);
            }
        }
        melior::ir::operation::WalkResult::Advance
    });
    ok
}
