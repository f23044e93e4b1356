//! `pb-distinct-results`: give each tensor result of a public function its
//! own value: a result that repeats an earlier one is returned as a copy
//! (`bufferization.alloc_tensor() copy(...)`).
//!
//! Why: a function returning one tensor twice is valid (AOTAutograd's
//! training graphs do it: the output and the same tensor saved for the
//! backward pass), but upstream `buffer-results-to-out-params` crashes on
//! one buffer returned twice (a segmentation fault in pb-compile). Each
//! result becomes an out-parameter of its own, so each needs its own
//! buffer anyway; the copy is what the caller would get from two results.
//!
//! ```mlir
//! return %y, %y : tensor<4x8xf32>, tensor<4x8xf32>
//! // becomes
//! %0 = bufferization.alloc_tensor() copy(%y) : tensor<4x8xf32>
//! return %y, %0 : tensor<4x8xf32>, tensor<4x8xf32>
//! ```

use melior::{
    ir::{operation::OperationLike, Attribute, OperationRef, TypeLike, ValueLike},
    Context, IrRewriter,
};
use pb_support::{builder::Emitter, ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-distinct-results",
    summary: "Return a copy for each tensor result of a public function that repeats an earlier result",
    description: "In each public function, a `func.return` operand that is the same tensor value as \
an earlier operand is replaced by `bufferization.alloc_tensor() copy(...)` of it, so that every \
result bufferizes to a buffer of its own (upstream buffer-results-to-out-params crashes on one \
buffer returned twice). Runs before bufferization in the cpu pipeline.",
    anchor: "builtin.module",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<DistinctResults>,
};

#[derive(Clone, Default)]
struct DistinctResults;

impl RustPass for DistinctResults {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["bufferization"]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        for func in ir::public_functions(module) {
            let returns = ffi::collect_ops(func, melior::ir::operation::WalkOrder::PreOrder, |op| ir::is_named(op, "func.return"));
            for ret in returns {
                ffi::with_context(ret, |context| copy_repeated(context, ret));
            }
        }
        Ok(())
    }
}

/// Replaces each operand of `ret` equal to an earlier one by a copy.
fn copy_repeated<'c>(context: &'c Context, ret: OperationRef<'c, '_>) {
    let mut seen = Vec::new();
    for index in 0..ret.operand_count() {
        let Some(value) = ffi::operand(ret, index) else { continue };
        let raw = value.to_raw().ptr;
        if !seen.contains(&raw) {
            seen.push(raw);
            continue;
        }
        if !value.r#type().is_ranked_tensor() {
            continue;
        }
        let ir_rewriter = IrRewriter::from_op(ret);
        let rewriter = ir_rewriter.as_rewriter_base();
        rewriter.set_insertion_point_before(ret);
        let emitter = Emitter { context, rewriter: &rewriter, location: ret.location() };
        let segments = Attribute::parse(context, "array<i32: 0, 1, 0>").expect("segment sizes");
        let copy = emitter.value("bufferization.alloc_tensor", &[value], value.r#type(), &[("operandSegmentSizes", segments)]);
        ffi::set_operand(ret, index, copy);
    }
}
