//! `pb-asserts-to-errors`: a failed `cf.assert` records an error code in the
//! exported global `pb_error_code` instead of aborting the process.
//!
//! Why: torch-mlir guards some lowerings with run-time checks
//! (`cf.assert`: "unimplemented: determinants requiring permutations and
//! singular matrices", shape checks of dynamic sizes). Lowered by MLIR, a
//! failed assert calls `abort()`: the user's Python process dies where
//! PyTorch would raise an exception. Here each assert becomes a store of its
//! message's code (1 for the first message, 2 for the second...) into
//! `pb_error_code`, taken only when the check fails, and execution goes on;
//! the messages are listed in the module attribute `pb.error_messages`, which
//! the compile driver copies into the artifact's manifest. The Python
//! runtime reads the global after each call of such a library and raises the
//! message (then resets it); C callers of AOT artifacts can do the same (the
//! header declares the global and lists the codes).
//!
//! ```mlir
//! cf.assert %ok, "unimplemented: singular matrix"
//! // becomes
//! memref.global @pb_error_code : memref<i32> = dense<0>   (once per module)
//! %bad = arith.xori %ok, %true : i1
//! scf.if %bad {
//!   %flag = memref.get_global @pb_error_code : memref<i32>
//!   memref.store %c1_i32, %flag[] : memref<i32>
//! }
//! ```

use melior::{
    ir::{
        attribute::{ArrayAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, WalkOrder},
        r#type::{IntegerType, MemRefType},
        Attribute, Block, Identifier, OperationRef, Region, RegionLike, Type,
    },
    Context, IrRewriter,
};
use pb_support::{builder::Emitter, ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

/// The exported global holding the code of the last failed check (0: none).
pub const ERROR_GLOBAL: &str = "pb_error_code";
/// The module attribute listing the messages, code `n` at position `n - 1`.
pub const MESSAGES_ATTRIBUTE: &str = "pb.error_messages";

pub static INFO: PassInfo = PassInfo {
    argument: "pb-asserts-to-errors",
    summary: "Turn cf.assert into a store of an error code in the exported global pb_error_code",
    description: "Each `cf.assert` becomes `scf.if` (the condition is false) storing its message's \
code (1-based) into the public `memref.global @pb_error_code : memref<i32>`; the messages are \
listed in the module attribute `pb.error_messages`. Generated code then never aborts the caller's \
process: the runtime reports the message after the call. Runs at the start of the cpu \
pipeline's `llvm` stage.",
    anchor: "builtin.module",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<AssertsToErrors>,
};

#[derive(Clone, Default)]
struct AssertsToErrors;

impl RustPass for AssertsToErrors {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["arith", "memref", "scf"]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let asserts = ffi::collect_ops(module, WalkOrder::PreOrder, |op| ir::is_named(op, "cf.assert"));
        if asserts.is_empty() {
            return Ok(());
        }
        ffi::with_context(module, |context| rewrite(context, module, &asserts));
        Ok(())
    }
}

fn message(assert: OperationRef) -> String {
    assert
        .attribute("msg")
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map_or_else(|| "a run-time check of the compiled code failed".to_string(), |s| s.value().to_string())
}

fn rewrite<'c>(context: &'c Context, module: OperationRef<'c, '_>, asserts: &[OperationRef<'c, '_>]) {
    let i32_type: Type = IntegerType::new(context, 32).into();
    let flag_type: Type = MemRefType::new(i32_type, &[], None, None).into();
    let named = |name: &str, attribute: Attribute<'c>| (Identifier::new(context, name), attribute);
    let body = module.region(0).expect("module region").first_block().expect("module block");
    let global = OperationBuilder::new("memref.global", module.location())
        .add_attributes(&[
            named("sym_name", StringAttribute::new(context, ERROR_GLOBAL).into()),
            named("type", TypeAttribute::new(flag_type).into()),
            named("initial_value", Attribute::parse(context, "dense<0> : tensor<i32>").expect("zero")),
        ])
        .build()
        .expect("memref.global is well-formed");
    match body.first_operation() {
        Some(first) => body.insert_operation_before(first, global),
        None => body.append_operation(global),
    };

    let mut messages: Vec<String> = Vec::new();
    for assert in asserts {
        let text = message(*assert);
        let code = match messages.iter().position(|m| *m == text) {
            Some(position) => position + 1,
            None => {
                messages.push(text);
                messages.len()
            }
        };
        let Some(ok) = ffi::operand(*assert, 0) else { continue };
        let ir_rewriter = IrRewriter::from_op(*assert);
        let rewriter = ir_rewriter.as_rewriter_base();
        rewriter.set_insertion_point_before(*assert);
        let e = Emitter { context, rewriter: &rewriter, location: assert.location() };
        let bool_type: Type = IntegerType::new(context, 1).into();
        let yes = e.value("arith.constant", &[], bool_type, &[("value", IntegerAttribute::new(bool_type, 1).into())]);
        let failed = e.binary("arith.xori", ok, yes);
        let region = Region::new();
        region.append_block(Block::new(&[]));
        let branch = e.op("scf.if", &[failed], &[], &[], vec![region, Region::new()]);
        e.rewriter.set_insertion_point_to_end(branch.region(0).expect("then").first_block().expect("block"));
        let code = e.value("arith.constant", &[], i32_type, &[("value", IntegerAttribute::new(i32_type, code as i64).into())]);
        let symbol = Attribute::parse(context, &format!("@{ERROR_GLOBAL}")).expect("symbol reference");
        let flag = e.value("memref.get_global", &[], flag_type, &[("name", symbol)]);
        e.op("memref.store", &[code, flag], &[], &[], vec![]);
        e.op("scf.yield", &[], &[], &[], vec![]);
        rewriter.erase_op(*assert);
    }
    let list: Vec<Attribute> = messages.iter().map(|m| StringAttribute::new(context, m).into()).collect();
    ffi::set_attribute(module, MESSAGES_ATTRIBUTE, ArrayAttribute::new(context, &list).into());
}
