//! `pb-profile-names`: name each linalg op's location after what it
//! computes, so that a profile says which operator a kernel runs.
//!
//! Why: a profile (`pb-profile-kernels`) names kernels by the source
//! locations of their ops, and a line of a model often holds several
//! operators (`self.block(x)` of a convolution, a layer norm, two linear
//! layers and a GELU). Run at the start of the `graph` stage when profiling,
//! before fusion and lowering, each `linalg` op's location becomes
//! `NameLoc("<what>", <location>)`: the op's name without the dialect
//! (`matmul`, `conv_2d_nchw_fchw`), and for `linalg.generic` the math of
//! its body (`generic:erf,exp`), so the ops lowered from it, and the
//! kernels they end up in, carry it. Locations only: no op changes.
//!
//! ```mlir
//! %0 = linalg.matmul ins(...) outs(...) loc("model.py":3:0)
//! // becomes
//! %0 = linalg.matmul ins(...) outs(...) loc("matmul"("model.py":3:0))
//! ```

use melior::ir::{
    operation::{OperationLike, WalkOrder},
    Location, OperationRef,
};
use pb_support::{ffi, ir::op_name, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-profile-names",
    summary: "Name the location of each linalg op after its operator (profiles say what a kernel runs)",
    description: "Wraps the location of every `linalg` op in a name location: the op's name \
without the dialect, for `linalg.generic` `generic:` and the math ops of its body. Changes no op. \
Runs at the start of the cpu pipeline's `graph` stage when profiling is asked for.",
    anchor: "builtin.module",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<ProfileNames>,
};

#[derive(Clone, Default)]
struct ProfileNames;

impl RustPass for ProfileNames {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &[]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        for op in ffi::collect_ops(module, WalkOrder::PreOrder, |op| op_name(op).starts_with("linalg.")) {
            let name = operator_name(op);
            if name == "yield" || op.location().is_name() {
                continue;
            }
            ffi::with_context(op, |context| {
                let named = Location::name(context, &name, op.location());
                ffi::set_location(op, named);
            });
        }
        Ok(())
    }
}

/// `matmul`, `conv_2d_nchw_fchw`, `generic:erf,exp` (the body's math ops
/// in order, each once; `generic` when it has none: copies, broadcasts,
/// arithmetic only).
fn operator_name(op: OperationRef) -> String {
    let full = op_name(op);
    let short = full.trim_start_matches("linalg.").to_string();
    if short != "generic" {
        return short;
    }
    let mut math: Vec<String> = Vec::new();
    for inner in ffi::collect_ops(op, WalkOrder::PreOrder, |inner| op_name(inner).starts_with("math.")) {
        let name = op_name(inner).trim_start_matches("math.").to_string();
        if !math.contains(&name) {
            math.push(name);
        }
    }
    if math.is_empty() {
        short
    } else {
        format!("generic:{}", math.join(","))
    }
}
