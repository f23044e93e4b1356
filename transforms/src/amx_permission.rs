//! `pb-amx-permission`: a module that uses AMX tiles asks Linux for them
//! when it is loaded.
//!
//! Linux (5.16 and later) gives a process the AMX tile state only on
//! request (`arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)`); the
//! first tile instruction of a process that has not asked dies with
//! SIGILL. PyTorch asks in oneDNN; generated code must not depend on
//! someone else having asked, in a JIT library or in an AOT object linked
//! into a user's program. So a module containing `amx.*` ops gets an
//! internal constructor (`llvm.mlir.global_ctors`) making the system call
//! itself (inline `syscall`: no library import; the request is for the
//! whole process and repeating it is harmless, so each part of a module
//! compiled in parallel may carry its copy).
//!
//! Whether the OS grants the request is checked when the target is
//! detected (`TargetDesc::host` lists no AMX unit otherwise), so code for
//! the tiles is only generated where this call succeeds.
//!
//! ```mlir
//! llvm.mlir.global_ctors ctors = [@pb_request_amx], priorities = [65535 : i32], data = [#llvm.zero]
//! llvm.func internal @pb_request_amx() {
//!   ... llvm.inline_asm has_side_effects "syscall" (158, 0x1023, 18) ...
//! }
//! ```

use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, WalkOrder},
    Attribute, Block, Location, OperationRef, Region, RegionLike, Type,
};
use pb_support::{builder::build_operation, ffi, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-amx-permission",
    summary: "Give a module using AMX tiles a constructor that requests them from Linux (arch_prctl)",
    description: "When the module contains amx.* ops, adds `llvm.func internal @pb_request_amx` \
(an inline `syscall` of arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)) and registers it in \
`llvm.mlir.global_ctors`, so the library or AOT object asks for the tile state when it is loaded \
(without it the first tile instruction raises SIGILL). Other modules are unchanged.",
    anchor: "builtin.module",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<AmxPermission>,
};

#[derive(Clone, Default)]
struct AmxPermission;

const FUNCTION: &str = "pb_request_amx";
/// x86-64 Linux: `SYS_arch_prctl`, `ARCH_REQ_XCOMP_PERM`, `XFEATURE_XTILEDATA`.
const SYSCALL: [i64; 3] = [158, 0x1023, 18];

impl RustPass for AmxPermission {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["llvm"]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let uses_amx = !ffi::collect_ops(module, WalkOrder::PreOrder, |op| {
            op.name().as_string_ref().as_str().is_ok_and(|name| name.starts_with("amx."))
        })
        .is_empty();
        let present = !ffi::collect_ops(module, WalkOrder::PreOrder, |op| {
            op.attribute("sym_name").is_ok_and(|name| name.to_string() == format!("\"{FUNCTION}\""))
        })
        .is_empty();
        if !uses_amx || present {
            return Ok(());
        }
        let Some(body) = module.region(0).ok().and_then(|r| r.first_block()) else { return Ok(()) };
        ffi::with_context(module, |context| {
            let location = Location::unknown(context);
            let attribute = |text: &str| Attribute::parse(context, text).expect("valid attribute");
            let i64_type = Type::parse(context, "i64").expect("i64");
            let region = Region::new();
            let block = region.append_block(Block::new(&[]));
            let arguments: Vec<_> = SYSCALL
                .iter()
                .map(|value| {
                    let constant = build_operation(context, location, "llvm.mlir.constant", &[], &[i64_type], &[("value", attribute(&format!("{value} : i64")))], vec![]);
                    block.append_operation(constant).result(0).expect("constant").into()
                })
                .collect();
            let constraints = attribute("\"={rax},{rax},{rdi},{rsi},~{rcx},~{r11},~{memory}\"");
            let call = build_operation(
                context,
                location,
                "llvm.inline_asm",
                &arguments,
                &[i64_type],
                &[
                    ("asm_string", attribute("\"syscall\"")),
                    ("constraints", constraints),
                    ("has_side_effects", Attribute::unit(context)),
                ],
                vec![],
            );
            block.append_operation(call);
            block.append_operation(build_operation(context, location, "llvm.return", &[], &[], &[], vec![]));
            let function = build_operation(
                context,
                location,
                "llvm.func",
                &[],
                &[],
                &[
                    ("sym_name", attribute(&format!("\"{FUNCTION}\""))),
                    ("function_type", attribute("!llvm.func<void ()>")),
                    ("linkage", attribute("#llvm.linkage<internal>")),
                ],
                vec![region],
            );
            body.append_operation(function);
            let constructors = build_operation(
                context,
                location,
                "llvm.mlir.global_ctors",
                &[],
                &[],
                &[
                    ("ctors", attribute(&format!("[@{FUNCTION}]"))),
                    ("priorities", attribute("[65535 : i32]")),
                    ("data", attribute("[#llvm.zero]")),
                ],
                vec![],
            );
            body.append_operation(constructors);
        });
        Ok(())
    }
}

