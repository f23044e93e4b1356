//! `pb-empty-args`: arguments of public functions that hold no elements
//! (`memref<4x0xf32>`) are passed as `memref<0xT>` pointers; inside, their
//! uses read a local buffer of the original type, which no access touches.
//!
//! Why: the generated C ABI passes every statically shaped memref as a plain
//! pointer (`convert-func-to-llvm{use-bare-ptr-memref-call-conv}`), but
//! MLIR refuses that convention for a memref whose identity-layout strides
//! it cannot compute (a zero dimension that is not the outermost, as in
//! `4x0`), and then silently lowers the whole function with memref
//! descriptors. The caller passes pointers, the callee reads descriptors:
//! a matrix product with an inner dimension of zero (`torch.mm` of 4x0 and
//! 0x5) crashed the user's process. A buffer of zero elements has no
//! content to read or write, so the argument only has to keep its place in
//! the signature; any op still using the value (a loop of zero trips, a
//! view) gets a zero-element `memref.alloca` of the same type.
//!
//! ```mlir
//! func.func @f(%a: memref<4x0xf32>, %b: memref<0x5xf32>, %c: memref<4x5xf32>) {
//!   ... uses of %a ...
//! // becomes
//! func.func @f(%a: memref<0xf32>, %b: memref<0xf32>, %c: memref<4x5xf32>) {
//!   %0 = memref.alloca() : memref<0x5xf32>
//!   %1 = memref.alloca() : memref<4x0xf32>
//!   ... uses of %0 ...
//! ```
//!
//! One-dimensional ones (a zero-sized pool `memref<0xi8>`) are left alone;
//! every other empty argument is rewritten, whether or not MLIR's rule
//! would have taken it (`0x5` it does, `4x0` it does not): one rule, the
//! same code. The ABI manifest, recorded before
//! this pass runs (after the cpu pipeline's `lower` stage), keeps the
//! original shapes, so callers are still checked against `4x0`.

use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::{DimSize, MemRefType, ShapedTypeLike},
        Attribute, OperationRef, RegionLike, Type, Value,
    },
    Context,
};
use pb_support::{ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-empty-args",
    summary: "Pass zero-element memref arguments of public functions as memref<0xT> (a plain pointer)",
    description: "Each memref argument of a public `func.func` with a static shape of zero elements \
that the bare-pointer calling convention cannot take (e.g. `memref<4x0xf32>`: MLIR cannot compute \
its strides and would lower the whole function with memref descriptors, breaking the C ABI) \
becomes `memref<0xT>`; its uses read a zero-element `memref.alloca` of the original type instead. \
Runs before `convert-func-to-llvm` in the cpu pipeline's `llvm` stage.",
    anchor: "builtin.module",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<EmptyArgs>,
};

#[derive(Clone, Default)]
struct EmptyArgs;

impl RustPass for EmptyArgs {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["memref"]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        for func in ir::public_functions(module) {
            ffi::with_context(func, |context| rewrite(context, func));
        }
        Ok(())
    }
}

/// The `memref<0xT>` an argument of type `ty` becomes, if it is a memref of
/// zero elements other than a one-dimensional identity-layout one.
fn replacement<'c>(ty: Type<'c>) -> Option<Type<'c>> {
    let memref = MemRefType::try_from(ty).ok()?;
    if !memref.has_static_shape() {
        return None;
    }
    let empty = (0..memref.rank()).any(|i| matches!(memref.dim_size(i), Ok(DimSize::Static(0))));
    if !empty || (memref.rank() == 1 && ffi::has_identity_layout(memref)) {
        return None;
    }
    Some(MemRefType::new(memref.element(), &[0], None, memref.memory_space()).into())
}

fn rewrite<'c>(context: &'c Context, func: OperationRef<'c, '_>) {
    let Some(function_type) = ir::function_type(func) else { return };
    let Some(entry) = func.region(0).ok().and_then(|r| r.first_block()) else { return };
    let mut inputs: Vec<Type> = (0..function_type.input_count()).filter_map(|i| function_type.input(i).ok()).collect();
    let mut changed = false;
    for (position, input) in inputs.iter_mut().enumerate() {
        let Some(pointer_type) = replacement(*input) else { continue };
        let Ok(argument) = entry.argument(position) else { continue };
        let local = OperationBuilder::new("memref.alloca", func.location())
            .add_attributes(&[(
                melior::ir::Identifier::new(context, "operandSegmentSizes"),
                Attribute::parse(context, "array<i32: 0, 0>").expect("segment sizes"),
            )])
            .add_results(&[*input])
            .build()
            .expect("memref.alloca is well-formed");
        let local = match entry.first_operation() {
            Some(first) => entry.insert_operation_before(first, local),
            None => entry.append_operation(local),
        };
        let local: Value = local.result(0).expect("alloca result").into();
        ffi::replace_all_uses(argument.into(), local);
        argument.set_type(pointer_type);
        *input = pointer_type;
        changed = true;
    }
    if changed {
        ir::set_function_inputs(context, func, &inputs);
    }
}
