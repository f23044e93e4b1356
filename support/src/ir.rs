//! Small IR queries melior lacks, shared by passes and drivers.

use melior::ir::{
    attribute::{StringAttribute, TypeAttribute},
    block::BlockLike,
    operation::OperationLike,
    r#type::FunctionType,
    OperationRef, RegionLike,
};

/// The name of `op` (e.g. `"affine.for"`).
pub fn op_name(op: OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or_default().to_string()
}

/// An op without regions, memory effects or memref operands computing
/// scalars: constants, index and integer arithmetic.
pub fn is_pure_scalar(op: OperationRef) -> bool {
    use melior::ir::{TypeLike, ValueLike};
    let name = op_name(op);
    op.region_count() == 0
        && (name.starts_with("arith.") || name.starts_with("index.") || name == "affine.apply" || name == "ub.poison")
        && op.operands().all(|v| !v.r#type().is_mem_ref())
}

/// Is `op` named `name` (e.g. `"affine.for"`)?
pub fn is_named(op: OperationRef, name: &str) -> bool {
    op.name().as_string_ref().as_str() == Ok(name)
}

/// Does `op` make a view of its first operand (another memref value for
/// memory of that buffer, aliasing it)? `memref.view` (a typed slice of a byte
/// buffer) is not included: callers decide how to treat it.
pub fn is_view_op(op: OperationRef) -> bool {
    matches!(
        op.name().as_string_ref().as_str(),
        Ok("memref.subview"
            | "memref.cast"
            | "memref.reinterpret_cast"
            | "memref.collapse_shape"
            | "memref.expand_shape"
            | "memref.transpose")
    )
}

/// The `sym_name` of a symbol op (`func.func @name`), or "".
pub fn symbol_name(op: OperationRef) -> String {
    op.attribute("sym_name")
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_string())
        .unwrap_or_default()
}

/// The type of a `func.func`.
pub fn function_type<'c>(func: OperationRef<'c, '_>) -> Option<FunctionType<'c>> {
    func.attribute("function_type")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
        .and_then(|t| FunctionType::try_from(t.value()).ok())
}

/// A `func.func` with a body that is not private: part of the generated ABI.
pub fn is_public_definition(func: OperationRef) -> bool {
    let private = func
        .attribute("sym_visibility")
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .is_some_and(|s| s.value() == "private");
    let has_body = func.region(0).ok().and_then(|r| r.first_block()).is_some();
    !private && has_body
}

/// The ops directly in the first block of `op`'s first region (a module's
/// or a function's body), in order; collected first, so callers may
/// rewrite or replace them one by one.
pub fn body_ops<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    op.region(0).ok().and_then(|r| r.first_block()).map(block_ops).unwrap_or_default()
}

/// The ops directly in `block`, in order (the C API has no "previous op":
/// positions come from this list).
pub fn block_ops<'c, 'a>(block: melior::ir::BlockRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut result = Vec::new();
    let mut next = block.first_operation();
    while let Some(inner) = next {
        result.push(inner);
        next = inner.next_in_block();
    }
    result
}

/// The public function definitions directly in `module`'s body, in order.
pub fn public_functions<'c, 'a>(module: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    body_ops(module).into_iter().filter(|op| is_named(*op, "func.func") && is_public_definition(*op)).collect()
}

/// `op` itself, or the op enclosing it, that sits directly in `block`
/// (`None` when `op` is not inside `block`).
pub fn ancestor_in<'c, 'a>(op: OperationRef<'c, 'a>, block: melior::ir::BlockRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut current = op;
    loop {
        let parent_block = current.block()?;
        if parent_block == block {
            return Some(current);
        }
        current = parent_block.parent_operation()?;
    }
}

/// Erases a buffer nothing uses any more but its deallocations: those and
/// the op defining it. False (and nothing erased) if it has other users.
///
/// # Safety
///
/// As for [`crate::ffi::erase`] of the deallocations and of the op defining
/// `buffer` (kept if another of its results is used): the caller uses no
/// handle to them, to `buffer` or to anything inside that op afterwards.
pub unsafe fn erase_dead_buffer(buffer: melior::ir::Value) -> bool {
    let users = crate::ffi::users(buffer);
    if !users.iter().all(|user| is_named(*user, "memref.dealloc")) {
        return false;
    }
    for user in users {
        // SAFETY: per this function's contract; a deallocation has no results or regions.
        unsafe { crate::ffi::erase(user) };
    }
    let owner = crate::ffi::defining_op(buffer).filter(|owner| !owner.results().any(crate::ffi::has_uses));
    if let Some(owner) = owner {
        // SAFETY: per this function's contract; its results have no uses (checked above) and it has no
        // regions (memref.alloc and the like).
        unsafe { crate::ffi::erase(owner) };
    }
    true
}

/// The flags of `op`'s `fastmath` attribute (`#arith.fastmath<a,b>`; empty
/// without one or for `none`).
pub fn fastmath_flags(op: OperationRef) -> Vec<String> {
    let Some(text) = op.attribute("fastmath").ok().map(|a| a.to_string()) else { return Vec::new() };
    let inner = text.trim_start_matches("#arith.fastmath<").trim_end_matches('>');
    inner.split(',').map(str::trim).filter(|f| !f.is_empty() && *f != "none").map(str::to_string).collect()
}

/// Adds `flag` to `op`'s `fastmath` flags (nothing when they already imply
/// it).
pub fn add_fastmath_flag(context: &melior::Context, op: OperationRef, flag: &str) {
    if let Some(flags) = fastmath_flags_with(op, flag) {
        set_fastmath_flags(context, op, &flags);
    }
}

/// Removes `flag` from `op`'s `fastmath` flags (nothing when it is not
/// there; `fast`, which implies every flag, is left alone).
pub fn remove_fastmath_flag(context: &melior::Context, op: OperationRef, flag: &str) {
    let flags = fastmath_flags(op);
    if flags.iter().any(|f| f == flag) {
        let rest: Vec<String> = flags.into_iter().filter(|f| f != flag).collect();
        set_fastmath_flags(context, op, &rest);
    }
}

/// Sets `op`'s `fastmath` attribute to `flags` (`none` when empty).
fn set_fastmath_flags(context: &melior::Context, op: OperationRef, flags: &[String]) {
    let list = if flags.is_empty() { "none".to_string() } else { flags.join(",") };
    if let Some(attribute) = melior::ir::Attribute::parse(context, &format!("#arith.fastmath<{list}>")) {
        crate::ffi::set_attribute(op, "fastmath", attribute);
    }
}

/// `op`'s `fastmath` flags with `flag` added, or `None` when they already
/// have it (or `fast`, which implies every flag).
pub fn fastmath_flags_with(op: OperationRef, flag: &str) -> Option<Vec<String>> {
    let mut flags = fastmath_flags(op);
    if flags.iter().any(|f| f == flag || f == "fast") {
        return None;
    }
    flags.push(flag.to_string());
    Some(flags)
}

/// Whether a result of one rounding error more in `value` (as `arcp` gives a
/// division) stays a small error wherever it flows: every use, followed
/// through the results of the ops using it, is arithmetic or math that
/// changes little when its operand does, and none is an op where a tiny
/// change can change the result entirely: `floor`, `ceil`, `round`,
/// `trunc`, float-to-integer conversions, comparisons, `remf`. (x * (1/y)
/// may be one unit below x / y = -60 exactly: floored, -61.)
pub fn only_continuous_uses(value: melior::ir::Value) -> bool {
    const DISCONTINUOUS: &[&str] = &[
        "math.floor",
        "math.ceil",
        "math.round",
        "math.roundeven",
        "math.trunc",
        "arith.fptosi",
        "arith.fptoui",
        "arith.cmpf",
        "arith.remf",
    ];
    let mut pending = vec![value];
    let mut seen: Vec<*const std::ffi::c_void> = Vec::new();
    while let Some(value) = pending.pop() {
        for user in crate::ffi::users(value) {
            let name = user.name();
            let name = name.as_string_ref().as_str().unwrap_or("");
            if DISCONTINUOUS.contains(&name) {
                return false;
            }
            if seen.contains(&(user.to_raw().ptr as *const _)) {
                continue;
            }
            seen.push(user.to_raw().ptr as *const _);
            pending.extend(user.results().map(melior::ir::Value::from));
        }
    }
    true
}

/// Gives `func` the argument types `inputs` in its `function_type`, keeping
/// its results (the entry block's arguments are the caller's to change).
pub fn set_function_inputs<'c>(context: &'c melior::Context, func: OperationRef<'c, '_>, inputs: &[melior::ir::Type<'c>]) {
    let Some(function_type) = function_type(func) else { return };
    let results: Vec<melior::ir::Type> =
        (0..function_type.result_count()).filter_map(|i| function_type.result(i).ok()).collect();
    let updated = melior::ir::r#type::FunctionType::new(context, inputs, &results);
    crate::ffi::set_attribute(func, "function_type", melior::ir::attribute::TypeAttribute::new(updated.into()).into());
}

/// Is `op` nested (at any depth) inside an op named `name`?
pub fn is_inside(op: OperationRef, name: &str) -> bool {
    let mut parent = op.block().and_then(|b| b.parent_operation());
    while let Some(p) = parent {
        if is_named(p, name) {
            return true;
        }
        parent = p.block().and_then(|b| b.parent_operation());
    }
    false
}

/// The ops of `block` but its last (the terminator), in order; collected
/// first, so callers may move or rewrite them one by one.
pub fn ops_before_terminator<'c, 'a>(block: melior::ir::BlockRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if next.is_some() {
            ops.push(op);
        }
    }
    ops
}

/// The value of an `arith.constant` of integer or index type, if `value`
/// is one.
pub fn constant_int(value: melior::ir::Value) -> Option<i64> {
    let op = crate::ffi::defining_op(value)?;
    if !is_named(op, "arith.constant") {
        return None;
    }
    // Checked first: melior's `try_from` prints a mismatching attribute
    // (a whole dense constant) into its error.
    use melior::ir::attribute::AttributeLike;
    let attribute = op.attribute("value").ok().filter(|a| a.is_integer())?;
    melior::ir::attribute::IntegerAttribute::try_from(attribute).ok().map(|a| a.value())
}

/// The unit attribute a driver puts on a public function's argument whose
/// contents change only between calls that the caller announces: a
/// model's parameter. Passes may keep work derived from it between calls
/// (`pb-register-tile`'s prepacked weights).
pub const STATIC_ARGUMENT: &str = "pb.static";

/// Does argument `index` of `func.func` `func` carry attribute `name`?
pub fn argument_has_attribute(func: OperationRef, index: usize, name: &str) -> bool {
    argument_attributes(func, index).is_some_and(|entry| entry.element_by_name(name).is_some())
}

/// The attribute dictionary of argument `index` of `func.func` `func`.
fn argument_attributes<'c>(func: OperationRef<'c, '_>, index: usize) -> Option<melior::ir::attribute::DictionaryAttribute<'c>> {
    use melior::ir::attribute::{ArrayAttribute, DictionaryAttribute};
    let array = ArrayAttribute::try_from(func.attribute("arg_attrs").ok()?).ok()?;
    DictionaryAttribute::try_from(array.element(index).ok()?).ok()
}

/// Is `value` defined inside `op`, by an op or as a block argument of a
/// region nested in it?
pub fn defined_inside(value: melior::ir::Value, op: OperationRef) -> bool {
    let mut parent = crate::ffi::defining_block(value).and_then(|b| b.parent_operation());
    while let Some(p) = parent {
        if p == op {
            return true;
        }
        parent = p.block().and_then(|b| b.parent_operation());
    }
    false
}

/// The buffer `value` views: its source through every view op
/// ([`is_view_op`]), or `value` itself.
pub fn view_root<'c: 'a, 'a>(value: melior::ir::Value<'c, 'a>) -> melior::ir::Value<'c, 'a> {
    let mut value = value;
    while let Some(source) = crate::ffi::defining_op(value).filter(|op| is_view_op(*op)).and_then(|op| crate::ffi::operand(op, 0)) {
        value = source;
    }
    value
}

/// Is `value` an argument of a function's entry block marked
/// [`STATIC_ARGUMENT`], or a view of one ([`is_view_op`]: a weight read
/// through a reshape)?
pub fn is_static_argument(value: melior::ir::Value) -> bool {
    let value = view_root(value);
    let Some(argument) = crate::ffi::block_argument(value) else { return false };
    let block = argument.owner();
    let Some(func) = block.parent_operation().filter(|op| is_named(*op, "func.func")) else { return false };
    let is_entry = func.region(0).ok().and_then(|r| r.first_block()).is_some_and(|entry| entry == block);
    is_entry && argument_has_attribute(func, argument.argument_number(), STATIC_ARGUMENT)
}

/// Adds attribute `name` = `value` to each argument `k` of `func` for
/// which `which(k)` holds and that has no `name` yet, keeping the
/// arguments' other attributes (one new `arg_attrs`, built, not parsed).
pub fn add_argument_attribute<'c>(
    context: &'c melior::Context,
    func: OperationRef<'c, '_>,
    name: &str,
    value: melior::ir::Attribute<'c>,
    which: impl Fn(usize) -> bool,
) {
    use melior::ir::{
        attribute::{ArrayAttribute, Attribute, DictionaryAttribute},
        Identifier,
    };
    let Some(function_type) = function_type(func) else { return };
    let items: Vec<Attribute> = (0..function_type.input_count())
        .map(|k| {
            let mut entries: Vec<_> = argument_attributes(func, k).map_or_else(Vec::new, |d| (0..d.len()).filter_map(|e| d.element(e).ok()).collect());
            if which(k) && !entries.iter().any(|(id, _)| id.as_string_ref().as_str() == Ok(name)) {
                entries.push((Identifier::new(context, name), value));
            }
            DictionaryAttribute::new(context, &entries).into()
        })
        .collect();
    crate::ffi::set_attribute(func, "arg_attrs", ArrayAttribute::new(context, &items).into());
}
