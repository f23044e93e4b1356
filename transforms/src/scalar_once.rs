//! `pb-scalar-once`: the loops of code that runs once per version of the
//! static arguments stay scalar in LLVM.
//!
//! Why: packing a weight into the blocked layout a kernel reads
//! (`pb-register-tile`, `pb-matrix-tile`) or computing from weights only
//! (`pb-static-once`) runs under `scf.if` on the prepared flag: on the
//! first call, and again only when the caller changes the weights. Such a
//! copy reads the weight across its rows (a stride of a whole row per
//! element), which LLVM's loop vectorizer turns into gathers, with
//! run-time alias checks and a scalar remainder beside them, that its loop
//! strength reduction and instruction selection then work through. In
//! ResNet-50 (batch 8) all 1585 of the module's gathers were in such code,
//! which runs once. Compile time spent on code that never runs again is
//! compile time the user waits for.
//!
//! What: every `scf.for` inside an `scf.if` marked `pb.once` (the marker
//! the passes put on the prepared-flag branches they build) gets
//! `loop_annotation = #llvm.loop_annotation<vectorize = <disable = true>>`,
//! which the lowering to `cf` and the LLVM dialect carries to the loop's
//! latch branch as `llvm.loop.vectorize.enable = false`. LLVM still
//! optimizes these loops otherwise (unrolling, address arithmetic). Loops
//! of code that runs on every call are not touched.
//!
//! ```mlir
//! scf.if %stale {                                   // {pb.once}
//!   scf.for %k = %c0 to %c512 step %c1 { ... }
//!   // becomes scf.for ... { ... } {loop_annotation = #llvm.loop_annotation<vectorize = <disable = true>>}
//! } {pb.once}
//! ```
//!
//! Runs in the cpu pipeline's lower stage, after `lower-affine` (which
//! makes the `scf.for` loops) and before the conversion to `cf`.

use melior::ir::{operation::{OperationLike, WalkOrder}, Attribute, OperationRef};
use pb_support::{ffi, ir::is_named, PassFailed, PassId, PassInfo, RustPass};

/// The unit attribute on an `scf.if` whose region runs only when the
/// function's prepared flag is 0 (once per version of the static
/// arguments).
pub const ONCE: &str = "pb.once";

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-scalar-once",
    summary: "Loops of code that runs once per version of the static arguments are not vectorized by LLVM",
    description: "Every scf.for inside an scf.if marked pb.once (a prepared-flag branch: weight packing, \
work on static arguments only) gets loop_annotation = #llvm.loop_annotation<vectorize = <disable = true>>, \
carried to LLVM's loop metadata: code that runs once is not vectorized (with gathers, alias checks and \
remainders) at the expense of compile time. Other loops are unchanged.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<ScalarOnce>,
};

#[derive(Clone, Default)]
struct ScalarOnce;

impl RustPass for ScalarOnce {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        // An attribute of the `llvm` dialect, no op: every context loads it
        // (`pb_dialects::create_context`).
        &[]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let branches = ffi::collect_ops(root, WalkOrder::PreOrder, |op| is_named(op, "scf.if") && op.attribute(ONCE).is_ok());
        if branches.is_empty() {
            return Ok(());
        }
        let annotated = ffi::with_context(root, |context| {
            let Some(scalar) = Attribute::parse(context, "#llvm.loop_annotation<vectorize = <disable = true>>") else {
                ffi::emit_error(root.location(), "pb-scalar-once: the llvm dialect is not loaded in this context");
                return false;
            };
            for branch in branches {
                for l in ffi::collect_ops(branch, WalkOrder::PreOrder, |op| is_named(op, "scf.for")) {
                    ffi::set_attribute(l, "loop_annotation", scalar);
                }
            }
            true
        });
        PassFailed::unless(annotated)?;
        Ok(())
    }
}
