//! `pb-compose-insert-slices`: an update of a slice of a slice becomes one
//! update of the whole tensor.
//!
//! Why: PyTorch writes a stencil step as `b = a.clone(); b[1:-1, 1:-1] = f(a)`.
//! Functionalized, the assignment through two slicing steps is two nested
//! `tensor.insert_slice`s: the interior goes into a row slice of `a`, and
//! that row slice back into `a`. Bufferized as is, each level is a buffer
//! of its own with a copy in and a copy out (a 2000x2000 jacobi-2d sweep
//! moved its data five times; the loop optimizer saw 38 producers in four
//! time steps). Composed, one `insert_slice` into `a` remains: one copy of
//! `a`, and `f` written into its interior.
//!
//! The rewrite, for static offsets, sizes and unit strides, no rank
//! reduction, all in one block:
//!
//! ```mlir
//! %e = tensor.extract_slice %a[1, 0] [6, 8] [1, 1] : tensor<8x8xf32> to tensor<6x8xf32>
//! %i = tensor.insert_slice %x into %e[0, 1] [6, 6] [1, 1] : tensor<6x6xf32> into tensor<6x8xf32>
//! %o = tensor.insert_slice %i into %a[1, 0] [6, 8] [1, 1] : tensor<6x8xf32> into tensor<8x8xf32>
//! // becomes
//! %o = tensor.insert_slice %x into %a[1, 1] [6, 6] [1, 1] : tensor<6x6xf32> into tensor<8x8xf32>
//! %i = tensor.extract_slice %o[1, 0] [6, 8] [1, 1] : tensor<8x8xf32> to tensor<6x8xf32>  // if %i has other uses
//! ```
//!
//! Valid because `%e` is the part of `%a` that `%i` is inserted back over:
//! the elements of `%i` not written by `%x` are `%a`'s own. Everything else
//! (dynamic offsets, strides, slices of another tensor, different positions)
//! is left alone.

use melior::{
    ir::{
        attribute::DenseI64ArrayAttribute,
        operation::{OperationLike, WalkOrder},
        r#type::RankedTensorType,
        Attribute, OperationRef, ShapedTypeLike, Value, ValueLike,
    },
    Context, IrRewriter,
};
use pb_support::{builder::Emitter, ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-compose-insert-slices",
    summary: "Compose an insert_slice into an extract_slice of a tensor, inserted back in place, into one insert_slice",
    description: "Rewrites `insert_slice(insert_slice(x into extract_slice(a)[p]) into a[p])` into \
`insert_slice(x into a[p + q])` (static offsets and sizes, unit strides, no rank reduction), so \
slice assignments through several slicing steps bufferize into one copy instead of a copy per \
level. Other uses of the inner update read a slice of the result.",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<ComposeInsertSlices>,
};

#[derive(Clone, Default)]
struct ComposeInsertSlices;

impl RustPass for ComposeInsertSlices {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["tensor"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        // Rewrite until nothing matches: a composed update may complete the
        // pattern of an enclosing one.
        loop {
            let outers = ffi::collect_ops(func, WalkOrder::PreOrder, |op| ir::is_named(op, "tensor.insert_slice"));
            let mut changed = false;
            for outer in outers {
                if let Some(matched) = Match::find(outer) {
                    ffi::with_context(outer, |context| matched.rewrite(context));
                    changed = true;
                    break; // the collected list may hold erased ops now
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

/// Static offsets, sizes and strides of a slice op (no dynamic operands).
#[derive(Clone, PartialEq, Debug)]
struct Slice {
    offsets: Vec<i64>,
    sizes: Vec<i64>,
    strides: Vec<i64>,
}

impl Slice {
    fn of(op: OperationRef, operands: usize) -> Option<Slice> {
        if op.operand_count() != operands {
            return None; // dynamic offsets, sizes or strides
        }
        let read = |name: &str| -> Option<Vec<i64>> {
            let array = DenseI64ArrayAttribute::try_from(op.attribute(name).ok()?).ok()?;
            (0..array.len()).map(|k| array.element(k).ok()).collect()
        };
        let slice = Slice { offsets: read("static_offsets")?, sizes: read("static_sizes")?, strides: read("static_strides")? };
        slice.strides.iter().all(|s| *s == 1).then_some(slice)
    }
}


/// The attributes of a `tensor.insert_slice` (`operands` 2: source and
/// destination) or `tensor.extract_slice` (1: source) with static offsets,
/// sizes and strides.
pub(crate) fn static_slice_attributes<'c>(
    emitter: &Emitter<'c, '_>,
    offsets: &[i64],
    sizes: &[i64],
    strides: &[i64],
    operands: usize,
) -> Vec<(&'static str, Attribute<'c>)> {
    let context = emitter.context;
    let segments = if operands == 2 { "array<i32: 1, 1, 0, 0, 0>" } else { "array<i32: 1, 0, 0, 0>" };
    vec![
        ("static_offsets", DenseI64ArrayAttribute::new(context, offsets).into()),
        ("static_sizes", DenseI64ArrayAttribute::new(context, sizes).into()),
        ("static_strides", DenseI64ArrayAttribute::new(context, strides).into()),
        ("operandSegmentSizes", emitter.attribute(segments)),
    ]
}

fn rank(value: Value) -> Option<usize> {
    RankedTensorType::try_from(value.r#type()).ok().map(|t| t.rank())
}

/// `outer = insert_slice(inner into a[p])`, `inner = insert_slice(x into e[q])`,
/// `e = extract_slice(a[p])`.
struct Match<'c, 'a> {
    outer: OperationRef<'c, 'a>,
    inner: OperationRef<'c, 'a>,
    extract: OperationRef<'c, 'a>,
    composed: Slice,
    outer_slice: Slice,
}

impl<'c, 'a> Match<'c, 'a> {
    fn find(outer: OperationRef<'c, 'a>) -> Option<Self> {
        let outer_slice = Slice::of(outer, 2)?;
        let (inner_value, whole) = (outer.operand(0).ok()?, outer.operand(1).ok()?);
        let inner = ffi::defining_op(inner_value).filter(|op| ir::is_named(*op, "tensor.insert_slice"))?;
        let inner_slice = Slice::of(inner, 2)?;
        let (x, part) = (inner.operand(0).ok()?, inner.operand(1).ok()?);
        let extract = ffi::defining_op(part).filter(|op| ir::is_named(*op, "tensor.extract_slice"))?;
        if Slice::of(extract, 1)? != outer_slice || extract.operand(0).ok()? != whole {
            return None;
        }
        // No rank reduction anywhere, and one block (so the rewrite at the
        // inner update dominates every use of the outer one).
        let ranks = [rank(x)?, rank(part)?, rank(inner_value)?, rank(whole)?];
        if ranks.iter().any(|r| *r != ranks[0]) || inner.block() != outer.block() || extract.block() != outer.block() {
            return None;
        }
        let composed = Slice {
            offsets: outer_slice.offsets.iter().zip(&inner_slice.offsets).map(|(p, q)| p + q).collect(),
            sizes: inner_slice.sizes.clone(),
            strides: inner_slice.strides.clone(),
        };
        Some(Match { outer, inner, extract, composed, outer_slice })
    }

    fn rewrite(self, context: &'c Context) {
        let (Ok(x), Ok(whole), Ok(inner_value)) = (self.inner.operand(0), self.outer.operand(1), self.inner.result(0)) else {
            return;
        };
        let Ok(outer_value) = self.outer.result(0) else { return };
        let ir_rewriter = IrRewriter::from_op(self.inner);
        let rewriter = ir_rewriter.as_rewriter_base();
        rewriter.set_insertion_point_before(self.inner);
        let emitter = Emitter { context, rewriter: &rewriter, location: self.outer.location() };
        let attributes = |slice: &Slice, operands: usize| static_slice_attributes(&emitter, &slice.offsets, &slice.sizes, &slice.strides, operands);
        let updated = emitter.value("tensor.insert_slice", &[x, whole], outer_value.r#type(), &attributes(&self.composed, 2));
        ffi::replace_all_uses(outer_value.into(), updated);
        // SAFETY: the outer slice's one result was just replaced by `updated`; it has no regions, and
        // the caller re-collects the slices after each rewrite.
        unsafe { ffi::erase(self.outer) };
        if ffi::has_uses(inner_value) {
            let slice = emitter.value("tensor.extract_slice", &[updated], inner_value.r#type(), &attributes(&self.outer_slice, 1));
            ffi::replace_all_uses(inner_value.into(), slice);
        }
        // SAFETY: the inner slice's only user was the erased outer slice, and any other use was just
        // replaced; it has no regions.
        unsafe { ffi::erase(self.inner) };
        if !self.extract.result(0).is_ok_and(ffi::has_uses) {
            // SAFETY: the extract's result has no uses (checked on this line); it has no regions.
            unsafe { ffi::erase(self.extract) };
        }
    }
}
