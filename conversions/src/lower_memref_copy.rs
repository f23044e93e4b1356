//! `pb-lower-memref-copy`: turn `memref.copy` into an elementwise
//! `linalg.generic` over memrefs.
//!
//! Bufferization and out-parameter conversion leave `memref.copy` ops. The
//! LLVM lowering turns those with non-contiguous (strided) operands into
//! calls to `memrefCopy` from MLIR's C runner library, a run-time dependency
//! our artifacts must not have. As a `linalg.generic`, a copy becomes plain
//! loops like everything else, visible to the loop optimizers (which can fuse
//! it away). Shapes must be static or at least ranked; unranked copies are
//! left alone.
//!
//! ```mlir
//! memref.copy %a, %b : memref<4x5xf32, strided<[10, 1]>> to memref<4x5xf32>
//! // becomes
//! linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
//!     ins(%a : memref<4x5xf32, strided<[10, 1]>>) outs(%b : memref<4x5xf32>) {
//! ^bb0(%in: f32, %out: f32):
//!   linalg.yield %in : f32
//! }
//! ```

use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationLike, WalkOrder},
        r#type::{MemRefType, ShapedTypeLike},
        OperationRef, RegionLike, ValueLike,
    },
    Context, IrRewriter,
};
use pb_support::{builder::Emitter, ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-lower-memref-copy",
    summary: "Rewrite memref.copy as an elementwise linalg.generic (no memrefCopy runtime call)",
    description: "Replaces each ranked `memref.copy` by a `linalg.generic` that yields its \
input, so copies become loops instead of calls into MLIR's C runner library, and loop passes \
can fuse them.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<LowerMemrefCopy>,
};

#[derive(Clone, Default)]
struct LowerMemrefCopy;

impl RustPass for LowerMemrefCopy {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["linalg"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let copies = ffi::collect_ops(root, WalkOrder::PreOrder, |op| ir::is_named(op, "memref.copy"));
        for copy in copies {
            ffi::with_context(copy, |context| lower(context, copy));
        }
        Ok(())
    }
}

fn lower<'c>(context: &'c Context, copy: OperationRef<'c, '_>) {
    let (Ok(source), Ok(target)) = (copy.operand(0), copy.operand(1)) else { return };
    let (Ok(source_type), Ok(target_type)) =
        (MemRefType::try_from(source.r#type()), MemRefType::try_from(target.r#type()))
    else {
        return; // unranked: leave it
    };
    let ir_rewriter = IrRewriter::from_op(copy);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(copy);
    let emitter = Emitter { context, rewriter: &rewriter, location: copy.location() };
    let elements = (source_type.element(), target_type.element());
    let generic = emitter.elementwise_generic(source, target, None, source_type.rank(), elements);
    let block = generic.region(0).expect("one region").first_block().expect("one block");
    emitter.op("linalg.yield", &[block.argument(0).expect("two arguments").into()], &[], &[], vec![]);
    rewriter.erase_op(copy);
}
