//! `pb-packed-entry-points`: every public function `f` of the LLVM-dialect
//! module gets a twin `f_packed(void **args)` that takes its arguments
//! through one array.
//!
//! Why: a model's graph takes one argument per parameter and activation,
//! and FFIs cap the count (Python's ctypes calls at most 1024 arguments:
//! 143 ResNet basic blocks, with their batch norms' four tensors each, took
//! 2005 and could not be called). `args[i]` points to argument `i`'s value
//! (a pointer for a buffer, the number itself for a scalar), the convention
//! of MLIR's ExecutionEngine; the twin loads each and calls `f`. The runtime
//! calls it when the argument count is past what it can pass directly.
//!
//! ```mlir
//! llvm.func @f(%a: !llvm.ptr, %n: i64) { ... }
//! // gains
//! llvm.func @f_packed(%args: !llvm.ptr) {
//!   %0 = llvm.getelementptr %args[0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//!   %1 = llvm.load %0 : !llvm.ptr -> !llvm.ptr
//!   %2 = llvm.load %1 : !llvm.ptr -> !llvm.ptr
//!   %3 = llvm.getelementptr %args[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//!   %4 = llvm.load %3 : !llvm.ptr -> !llvm.ptr
//!   %5 = llvm.load %4 : !llvm.ptr -> i64
//!   llvm.call @f(%2, %5) : (!llvm.ptr, i64) -> ()
//!   llvm.return
//! }
//! ```
//!
//! Public means defined, with external linkage (kernels, OpenMP bodies and
//! helpers are internal); functions returning a value are left alone (the
//! pipeline's public functions write results through out-parameters).

use melior::{
    ir::{
        attribute::{FlatSymbolRefAttribute, StringAttribute, TypeAttribute},
        operation::{OperationBuilder, OperationLike},
        Attribute, Block, BlockLike, BlockRef, Identifier, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use pb_support::{ffi, ir::is_named, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-packed-entry-points",
    summary: "Give each public LLVM function a twin taking its arguments through one array of pointers",
    description: "For each defined `llvm.func` with external linkage that returns nothing, adds \
`<name>_packed(!llvm.ptr)` whose argument points to an array of pointers, one per argument, each \
to that argument's value (MLIR ExecutionEngine's packed convention); it loads them and calls the \
function. Lets callers whose FFI limits the argument count (ctypes: 1024) call graphs with more \
parameters.",
    anchor: "builtin.module",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<PackedEntryPoints>,
};

#[derive(Clone, Default)]
struct PackedEntryPoints;

/// The suffix of the packed twin's name.
pub const SUFFIX: &str = "_packed";

impl RustPass for PackedEntryPoints {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["llvm"]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let Some(body) = module.region(0).ok().and_then(|r| r.first_block()) else { return Ok(()) };
        let mut functions = Vec::new();
        let mut next = body.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            if is_public_void_function(op) {
                functions.push(op);
            }
        }
        for function in functions {
            let name = pb_support::ir::symbol_name(function);
            let Some(entry) = function.region(0).ok().and_then(|r| r.first_block()) else { continue };
            let types: Vec<Type> = (0..entry.argument_count()).filter_map(|i| entry.argument(i).ok()).map(|a| a.r#type()).collect();
            ffi::with_context(function, |context| {
                body.insert_operation_after(function, packed_twin(context, &name, &types, function.location()));
            });
        }
        Ok(())
    }
}

fn is_public_void_function(op: OperationRef) -> bool {
    if !is_named(op, "llvm.func") || op.region(0).ok().and_then(|r| r.first_block()).is_none() {
        return false;
    }
    let external = op.attribute("linkage").map(|l| l.to_string().contains("external")).unwrap_or(true);
    let void = op.attribute("function_type").map(|t| t.to_string().starts_with("!llvm.func<void ")).unwrap_or(false);
    external && void
}

/// `name_packed(args)`: loads each argument through `args` and calls `name`.
fn packed_twin<'c>(context: &'c Context, name: &str, types: &[Type<'c>], location: Location<'c>) -> melior::ir::Operation<'c> {
    let named = |key: &str, attribute: Attribute<'c>| (Identifier::new(context, key), attribute);
    let ptr = Type::parse(context, "!llvm.ptr").expect("the LLVM pointer type");
    let region = Region::new();
    let block = region.append_block(Block::new(&[(ptr, location)]));
    let args: Value = block.argument(0).expect("the packed argument").into();
    let mut values = Vec::new();
    for (index, ty) in types.iter().enumerate() {
        let slot = block.append_operation(
            OperationBuilder::new("llvm.getelementptr", location)
                .add_operands(&[args])
                .add_results(&[ptr])
                .add_attributes(&[
                    named("elem_type", TypeAttribute::new(ptr).into()),
                    named("rawConstantIndices", Attribute::parse(context, &format!("array<i32: {index}>")).expect("indices")),
                ])
                .build()
                .expect("llvm.getelementptr is well-formed"),
        );
        let address = load(&block, slot.result(0).expect("one result").into(), ptr, location);
        values.push(load(&block, address, *ty, location));
    }
    block.append_operation(
        OperationBuilder::new("llvm.call", location)
            .add_operands(&values)
            .add_attributes(&[
                named("callee", FlatSymbolRefAttribute::new(context, name).into()),
                named("op_bundle_sizes", Attribute::parse(context, "array<i32>").expect("sizes")),
                named("operandSegmentSizes", Attribute::parse(context, &format!("array<i32: {}, 0>", values.len())).expect("sizes")),
            ])
            .build()
            .expect("llvm.call is well-formed"),
    );
    block.append_operation(OperationBuilder::new("llvm.return", location).build().expect("llvm.return"));
    let function_type = Type::parse(context, "!llvm.func<void (ptr)>").expect("the packed function type");
    OperationBuilder::new("llvm.func", location)
        .add_attributes(&[
            named("sym_name", StringAttribute::new(context, &format!("{name}{SUFFIX}")).into()),
            named("function_type", TypeAttribute::new(function_type).into()),
        ])
        .add_regions([region])
        .build()
        .expect("llvm.func is well-formed")
}

/// `llvm.load` of a `ty` from `address`, appended to `block`.
fn load<'c, 'a>(block: &BlockRef<'c, 'a>, address: Value<'c, 'a>, ty: Type<'c>, location: Location<'c>) -> Value<'c, 'a> {
    block
        .append_operation(
            OperationBuilder::new("llvm.load", location)
                .add_operands(&[address])
                .add_results(&[ty])
                .build()
                .expect("llvm.load is well-formed"),
        )
        .result(0)
        .expect("one result")
        .into()
}
