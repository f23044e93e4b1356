//! `pb-split-empty-tensors`: every use of a `tensor.empty` gets an empty
//! tensor of its own.
//!
//! Why: CSE merges the identical `tensor.empty` ops of a function into one
//! value, which then initializes every operator's output. One-Shot
//! Bufferize treats all those outputs as aliases of that one value and
//! checks each write against every read of every alias: its analysis grew
//! with the cube of the operator count (a stack of 500 convolutions spent
//! 174 s there, 4.7 s at 150). An empty tensor has no contents, so a copy
//! per use means the same program; each output then has its own small alias
//! set, and the analysis is linear. The buffers are the same either way:
//! an output that is not read bufferizes to an allocation of its own.
//!
//! ```mlir
//! %e = tensor.empty() : tensor<4xf32>
//! %a = linalg.generic ... outs(%e : tensor<4xf32>)
//! %b = linalg.generic ... outs(%e : tensor<4xf32>)
//! // becomes
//! %e = tensor.empty() : tensor<4xf32>
//! %a = linalg.generic ... outs(%e : tensor<4xf32>)
//! %e_1 = tensor.empty() : tensor<4xf32>
//! %b = linalg.generic ... outs(%e_1 : tensor<4xf32>)
//! ```
//!
//! The copy goes right before its user (dynamic sizes are operands of the
//! original, which dominates every user). Runs right before bufferization,
//! after the last CSE.
//!
//! An elementwise `linalg.generic` (all loops parallel) whose output starts
//! as an empty tensor it never reads, and that has an input of the output's
//! type and indexing map which a linalg op computed and which is last read
//! there (its other users are linalg ops earlier in the same block that
//! only read it), writes over that input instead: the input dies there, so
//! bufferization updates its buffer in place (an activation after a
//! convolution runs in the convolution's buffer; layer norm's centring
//! overwrites the sum it was computed from), as it did when the shared
//! empty tensor tied all outputs together.
//!
//! A `linalg.fill` of an empty tensor with several uses (CSE merged the
//! zero fills of every convolution of a shape) is repeated per use the same
//! way: one fill per output instead of one fill copied into each.

use melior::ir::{
    attribute::ArrayAttribute,
    operation::{OperationLike, WalkOrder},
    BlockLike, OperationRef, RegionLike, Value, ValueLike,
};
use crate::linalg_ops::{all_parallel, is_linalg, segments};
use pb_support::{ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-split-empty-tensors",
    summary: "Give each use of a tensor.empty its own tensor.empty",
    description: "Clones every `tensor.empty` with several uses once per further use, right before \
the user. CSE shares one empty tensor between all operator outputs of a shape, which makes \
One-Shot Bufferize's alias analysis cubic in the number of operators; one empty tensor per use \
keeps its alias sets small. The program and its buffers are unchanged. A fill (or a reshape of \
one) shared by several outputs is likewise repeated per output, so no output starts as a copy of \
another's zeros.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<SplitEmptyTensors>,
};

#[derive(Clone, Default)]
struct SplitEmptyTensors;

impl RustPass for SplitEmptyTensors {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["linalg"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        split_fills(func);
        let empties = ffi::collect_ops(func, WalkOrder::PreOrder, |op| ir::is_named(op, "tensor.empty"));
        for empty in empties {
            let Ok(result) = empty.result(0) else { continue };
            let mut kept_one = false;
            for (user, index) in ffi::uses(result.into()) {
                if let Some(input) = dying_input(user, index) {
                    ffi::set_operand(user, index, input);
                    continue;
                }
                // The first other use keeps the original.
                if !kept_one {
                    kept_one = true;
                    continue;
                }
                let Some(block) = user.block() else { continue };
                let copy = block.insert_operation_before(user, ffi::clone_operation(empty));
                if let Ok(value) = copy.result(0) {
                    ffi::set_operand(user, index, value.into());
                }
            }
            if !kept_one && !ffi::has_uses(result) {
                // SAFETY: the tensor.empty has no regions and no uses left (checked on this line); the
                // loop does not use it again.
                unsafe { ffi::erase(empty) };
            }
        }
        Ok(())
    }
}

/// A `linalg.fill` of an empty tensor that initializes several outputs
/// (CSE merged the fills of one shape) is repeated, with its empty tensor,
/// right before each further user: bufferization would otherwise fill one
/// buffer and copy it into every output, and each copy is one more writer
/// of the output for the loop passes (`pb-forward-copies` moves only
/// temporaries with one writer). The same holds for a reshape of such a
/// fill (`tensor.expand_shape`/`collapse_shape`, e.g. a linear layer's
/// zero accumulator seen as 1 x tokens x features): the whole chain is
/// repeated. (ViT-B/16 copied one zero buffer of 2.4 MB into each of its
/// 12 MLPs' accumulators, and likewise for the attention's projections.)
fn split_fills(func: OperationRef) {
    let chains = ffi::collect_ops(func, WalkOrder::PreOrder, |op| {
        ["linalg.fill", "tensor.expand_shape", "tensor.collapse_shape"].iter().any(|name| ir::is_named(op, name))
    });
    for op in chains {
        let Some(chain) = fill_chain(op) else { continue };
        let Some(result) = ffi::result(op, 0) else { continue };
        for (user, index) in ffi::uses(result).into_iter().skip(1) {
            let Some(block) = user.block() else { continue };
            // Each op of the chain takes the copy of the one before it
            // (a fill as its init, operand 1; a reshape as its source).
            let mut previous: Option<Value> = None;
            for link in &chain {
                let copy = block.insert_operation_before(user, ffi::clone_operation(*link));
                if let Some(value) = previous {
                    let operand = if ir::is_named(*link, "linalg.fill") { 1 } else { 0 };
                    ffi::set_operand(copy, operand, value);
                }
                previous = copy.result(0).ok().map(Into::into);
            }
            if let Some(value) = previous {
                ffi::set_operand(user, index, value);
            }
        }
    }
}

/// The ops making `op`'s value from an empty tensor, `op` last, when one
/// of them is a fill: a fill of an empty tensor, or of a reshape of one,
/// and reshapes of such a fill (`[tensor.empty, reshapes.., linalg.fill,
/// reshapes..]`).
fn fill_chain<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<Vec<OperationRef<'c, 'a>>> {
    let chain = empty_chain(op)?;
    chain.iter().any(|link| ir::is_named(*link, "linalg.fill")).then_some(chain)
}

/// The ops making `op`'s value from an empty tensor through fills and
/// reshapes, `op` last.
fn empty_chain<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<Vec<OperationRef<'c, 'a>>> {
    if ir::is_named(op, "tensor.empty") {
        return Some(vec![op]);
    }
    let source = if ir::is_named(op, "linalg.fill") && op.result_count() == 1 {
        1
    } else if ir::is_named(op, "tensor.expand_shape") || ir::is_named(op, "tensor.collapse_shape") {
        0
    } else {
        return None;
    };
    let mut chain = empty_chain(ffi::defining_op(ffi::operand(op, source)?)?)?;
    chain.push(op);
    Some(chain)
}

/// For output operand `index` of an elementwise `linalg.generic` that the
/// body never reads: an input of the same type and indexing map, computed
/// by a linalg op and used by nothing else, that the output can overwrite.
fn dying_input<'c, 'a>(generic: OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>> {
    if !ir::is_named(generic, "linalg.generic") {
        return None;
    }
    if !all_parallel(generic) {
        return None;
    }
    let (inputs, _) = segments(generic)?;
    let body = generic.region(0).ok()?.first_block()?;
    if index < inputs || body.argument_count() != generic.operand_count() || ffi::has_uses(body.argument(index).ok()?) {
        return None;
    }
    let maps = ArrayAttribute::try_from(generic.attribute("indexing_maps").ok()?).ok()?;
    let output = ffi::operand(generic, index)?;
    let output_map = maps.element(index).ok()?;
    (0..inputs).find_map(|k| {
        let input = ffi::operand(generic, k)?;
        let producer = ffi::defining_op(input)?;
        let fits = input.r#type() == output.r#type()
            && maps.element(k).ok()? == output_map
            && is_linalg(producer)
            && last_read_by(input, generic);
        fits.then_some(input)
    })
}

/// True if `generic` reads `value` once and every other user is a linalg
/// op earlier in the same block that takes it as an input only (reads it,
/// returns no view of it).
fn last_read_by(value: Value, generic: OperationRef) -> bool {
    let mut here = 0;
    ffi::uses(value).into_iter().all(|(user, index)| {
        if user == generic {
            here += 1;
            return here == 1;
        }
        let linalg_input = is_linalg(user) && segments(user).is_some_and(|(inputs, _)| index < inputs);
        linalg_input && user.block() == generic.block() && ffi::is_before_in_block(user, generic)
    })
}
