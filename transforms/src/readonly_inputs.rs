//! `pb-readonly-inputs`: mark every tensor argument of a public function
//! `bufferization.writable = false`, so bufferization never writes into the
//! caller's input buffers.
//!
//! Why: one-shot bufferization treats function arguments as writable by
//! default and reuses an input's buffer for a result when the input is dead
//! afterwards (e.g. PyTorch's `a = b.clone(); a[1:-1] = ...` chains in a
//! stencil). Frameworks pass their tensors' memory straight to the compiled
//! code, and PyTorch, JAX and TensorFlow programs never mutate inputs: a
//! write there corrupts the user's data (found on jacobi-2d, whose input
//! came back overwritten). With the attribute, bufferization copies instead.
//!
//! ```mlir
//! func.func @f(%a: tensor<4xf32>) -> tensor<4xf32>
//! // becomes
//! func.func @f(%a: tensor<4xf32> {bufferization.writable = false}) -> tensor<4xf32>
//! ```

use melior::{
    ir::{attribute::BoolAttribute, OperationRef, TypeLike},
    Context,
};
use pb_support::{ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-readonly-inputs",
    summary: "Mark tensor arguments of public functions non-writable so bufferization never writes into inputs",
    description: "Adds `bufferization.writable = false` to every tensor argument of each public \
function (keeping other argument attributes). Runs before one-shot bufferization in the cpu \
pipeline: compiled programs must not modify the caller's input tensors.",
    anchor: "builtin.module",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<ReadonlyInputs>,
};

#[derive(Clone, Default)]
struct ReadonlyInputs;

impl RustPass for ReadonlyInputs {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &[]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        for func in ir::public_functions(module) {
            ffi::with_context(func, |context| mark(context, func));
        }
        Ok(())
    }
}

fn mark<'c>(context: &'c Context, func: OperationRef<'c, '_>) {
    let Some(function_type) = ir::function_type(func) else { return };
    let is_tensor = |k: usize| function_type.input(k).map(|t| t.is_ranked_tensor() || t.is_tensor()).unwrap_or(false);
    ir::add_argument_attribute(context, func, "bufferization.writable", BoolAttribute::new(context, false).into(), is_tensor);
}
