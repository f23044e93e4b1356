//! Shared plumbing of the passes that replace a top-level loop nest with a
//! kernel (`pb-register-tile`, `pb-transpose-tile`, `pb-matrix-tile` as
//! MLIR text; `pb-accumulate-tile` with builders): finding the nests and
//! reporting each decision, and putting a parsed kernel in a nest's place.
//!
//! The kernel is `func.func @pb_kernel(args...) { ... return }`; its
//! arguments stand for values of the enclosing function, bound by the
//! caller. (Building the kernels with IR builders instead of text is an
//! open item of issue 14.)

use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationLike, WalkOrder},
        Attribute, BlockRef, Location, OperationRef, RegionLike,
    },
    Context,
};
use pb_support::{ffi, ir::is_named};

/// The `affine.for` ops directly in the body of `func`, in order (collected
/// first: rewriting one replaces it).
pub fn top_level_loops<'c, 'a>(func: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    pb_support::ir::body_ops(func).into_iter().filter(|op| is_named(*op, "affine.for")).collect()
}

/// Runs `rewrite` on each top-level loop nest of `func` (collected first:
/// a rewrite replaces its nest) and, with `report`, prints the decision it
/// returns as a note of `pass` at the nest's location (read before the
/// nest is replaced).
pub fn rewrite_each_nest<'c, 'a>(
    func: OperationRef<'c, 'a>,
    pass: &str,
    report: bool,
    mut rewrite: impl FnMut(&'c Context, OperationRef<'c, 'a>) -> Option<String>,
) {
    for nest in top_level_loops(func) {
        let location = nest.location();
        let outcome = ffi::with_context(func, |context| rewrite(context, nest));
        if let (true, Some(message)) = (report, outcome) {
            crate::report::note(location, pass, &message);
        }
    }
}

/// Parses `text` (one `func.func` kernel), lets `bind` replace the uses of
/// its arguments (and do anything else before the nest goes), then moves
/// the kernel's body in place of `nest` and erases `nest`. `pass` names the
/// pass in the parse error.
pub fn splice<'c>(
    context: &'c Context,
    nest: OperationRef<'c, '_>,
    text: &str,
    pass: &str,
    bind: impl FnOnce(BlockRef<'c, '_>) -> Result<(), String>,
) -> Result<(), String> {
    if nest.results().any(ffi::has_uses) {
        return Err("internal error: the nest's results are used".into());
    }
    let module = ffi::parse_operation(context, &format!("module {{\n{text}}}"), pass)
        .ok_or_else(|| format!("internal error: generated kernel does not parse:\n{text}"))?;
    let func = module.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.first_operation()).ok_or("no kernel")?;
    let body = func.region(0).ok().and_then(|r| r.first_block()).ok_or("no kernel body")?;
    bind(body)?;
    // The kernel's ops stand for the nest's: they take its source
    // locations (profiles and diagnostics name the user's lines, not the
    // kernel text's).
    let location = source_location(context, nest);
    for op in ffi::collect_ops(func, WalkOrder::PreOrder, |_| true) {
        ffi::set_location(op, location);
    }
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if !is_named(op, "func.return") {
            ffi::move_before(op, nest);
        }
    }
    // SAFETY: the nest's results are unused (checked at the top) and nothing defined inside it is
    // visible outside it; its callers drop their handles into the nest (their SCoPs) once this
    // returns.
    unsafe { ffi::erase(nest) };
    drop(module);
    Ok(())
}

/// The distinct locations of the ops in `nest` (at most 16), fused into
/// one; the nest's own location when they are all the same.
fn source_location<'c>(context: &'c Context, nest: OperationRef<'c, '_>) -> Location<'c> {
    let mut distinct: Vec<Location<'c>> = Vec::new();
    for op in ffi::collect_ops(nest, WalkOrder::PreOrder, |_| true) {
        let location = op.location();
        if distinct.len() < 16 && !distinct.contains(&location) {
            distinct.push(location);
        }
    }
    match distinct.len() {
        0 | 1 => nest.location(),
        _ => Location::fused(context, &distinct, Attribute::unit(context)),
    }
}

/// Replaces the uses of the kernel argument at `position` by `value`.
pub fn bind_argument<'c>(body: BlockRef<'c, '_>, position: usize, value: melior::ir::Value<'c, '_>) -> Result<(), String> {
    let arg = body.argument(position).map_err(|e| e.to_string())?;
    ffi::replace_all_uses(arg.into(), value);
    Ok(())
}
