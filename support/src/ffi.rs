//! Raw MLIR and LLVM C-API calls that melior 0.27 does not wrap.
//!
//! Every raw call into the MLIR C API (`mlir_sys`) made by the engine's
//! MLIR crates lives here, as do the calls into `diagnostics_shim.cpp` (the
//! few C++ entry points the C API lacks: remarks and warnings). The LLVM C API used to emit object code is
//! declared in `compiler/src/llvm_ffi.rs` and called only from the compiler
//! crate's `llvm.rs` and `split.rs`; ISL's raw calls stay in the polyhedral
//! crate's modules.
//! Code elsewhere may still hold `unsafe` blocks for melior's own unsafe
//! functions (lifetime casts with `Value::from_raw`) or for the wrappers
//! below that are `unsafe fn`; each carries a `// SAFETY:` comment
//! (`clippy::undocumented_unsafe_blocks` is on for the workspace).
//!
//! Conventions:
//!
//! - Handles (`OperationRef`, `Value`, `BlockRef`, `RegionRef`, attributes,
//!   types) follow melior's model: a handle names an IR object that is alive,
//!   in the context of its `'c` lifetime. melior's safe API never destroys
//!   an op or block while a handle to it can still be used, so a wrapper that
//!   only reads, creates, moves or relinks IR is as safe as melior's.
//! - A wrapper is a safe `fn` when no argument can make it undefined
//!   behaviour under that model. MLIR preconditions that a release build of
//!   LLVM does not check (an operand index in range, two ops in one block,
//!   an op not moved into itself) are checked here with `assert!`, so a
//!   wrong call panics instead of corrupting memory.
//! - A wrapper is an `unsafe fn` when its soundness depends on what the
//!   caller does with other handles, which the borrow checker does not see:
//!   destroying IR ([`erase`]) leaves every handle to the destroyed op, to
//!   what it contains, and every use of its results dangling. Its
//!   `# Safety` section states the contract, and every call states in a
//!   `// SAFETY:` comment why the contract holds there.
//! - Raw C handles (`MlirOperation`, `MlirValue`, `MlirPassManager`, ...)
//!   are never taken by a public function: callers pass melior's typed
//!   wrappers, whose lifetimes say what they borrow.

use melior::{
    ir::{operation::OperationPrintingFlags, Location, Module, Operation, OperationRef},
    pass::OperationPassManager,
    Context, StringRef,
};
use mlir_sys::{
    mlirAffineMapAttrGetValue, mlirModuleCreateParse, mlirOpPassManagerAddPipeline, mlirOperationCreateParse,
    mlirOperationPrintWithFlags, mlirPassManagerEnableTiming, mlirPrintPassPipeline, MlirStringRef,
};
use std::ffi::{c_char, c_void, CStr};

/// Appends each chunk a C-API printer hands us to the `String` behind `data`.
unsafe extern "C" fn append_to_string(chunk: MlirStringRef, data: *mut c_void) {
    // SAFETY: `data` is the `&mut String` passed by the callers below, alive for
    // the duration of the call and not otherwise borrowed during it.
    let out = unsafe { &mut *(data as *mut String) };
    // SAFETY: MLIR passes `chunk` as a valid (data, length) pair that lives
    // for the duration of the call.
    let bytes = unsafe { std::slice::from_raw_parts(chunk.data as *const u8, chunk.length) };
    out.push_str(&String::from_utf8_lossy(bytes));
}

/// `source` followed by a NUL byte, for MLIR's source parser: the text it
/// is given must be NUL-terminated (as `llvm::MemoryBuffer`s are), or it
/// reads past its end (AddressSanitizer in the engine fuzzer caught
/// `mlir::parseAsmSourceFile` reading the byte after a 1-byte input). Pass
/// `&buffer[..source.len()]` of the result.
fn nul_terminated(source: &str) -> String {
    let mut buffer = String::with_capacity(source.len() + 1);
    buffer.push_str(source);
    buffer.push('\0');
    buffer
}

/// Parses one top-level operation from `source`, giving locations the file
/// name `source_name`. Returns `None` on failure (diagnostics were emitted).
pub fn parse_operation<'c>(context: &'c Context, source: &str, source_name: &str) -> Option<Operation<'c>> {
    let buffer = nul_terminated(source);
    // SAFETY: the context outlives the returned operation (lifetime 'c); a null
    // result is checked before wrapping. `buffer` (NUL after the text) lives
    // through the call; the parsed IR keeps no reference to it.
    let raw = unsafe {
        mlirOperationCreateParse(
            context.to_raw(),
            StringRef::new(&buffer[..source.len()]).to_raw(),
            StringRef::new(source_name).to_raw(),
        )
    };
    if raw.ptr.is_null() {
        None
    } else {
        // SAFETY: a non-null, newly parsed op that nothing else owns.
        Some(unsafe { Operation::from_raw(raw) })
    }
}

/// Parses `source` as the body of a new module. Unlike melior's
/// `Module::parse`, which makes the text a C string and panics on a NUL byte
/// in it, this allows NUL bytes (MLIR's lexer takes one inside the text for
/// white space). Returns `None` on failure (diagnostics were emitted).
pub fn parse_module<'c>(context: &'c Context, source: &str) -> Option<Module<'c>> {
    let buffer = nul_terminated(source);
    let text = StringRef::new(&buffer[..source.len()]);
    // SAFETY: the context outlives the returned module (lifetime 'c); a null
    // result becomes `None`; `buffer` lives through the call.
    unsafe { Module::from_option_raw(mlirModuleCreateParse(context.to_raw(), text.to_raw())) }
}

/// Adds textual pipeline elements (e.g. `canonicalize{max-iterations=3}`) to
/// `manager`, returning upstream's error message on failure.
pub fn add_upstream_pipeline(manager: OperationPassManager, elements: &str) -> Result<(), String> {
    let mut message = String::new();
    // SAFETY: the callback only appends to `message`, which outlives the call.
    let result = unsafe {
        mlirOpPassManagerAddPipeline(
            manager.to_raw(),
            StringRef::new(elements).to_raw(),
            Some(append_to_string),
            &mut message as *mut String as *mut c_void,
        )
    };
    if result.value != 0 {
        Ok(())
    } else {
        Err(message.trim().to_string())
    }
}

/// The textual form of the pipeline held by `manager`.
pub fn print_pipeline(manager: OperationPassManager) -> String {
    let mut text = String::new();
    // SAFETY: as in `add_upstream_pipeline`.
    unsafe { mlirPrintPassPipeline(manager.to_raw(), Some(append_to_string), &mut text as *mut String as *mut c_void) };
    text
}

/// A pass manager whose root runs on `anchor` ops (`builtin.module`), so
/// that misplaced op-specific passes are reported instead of accepted.
pub fn pass_manager_on<'c>(context: &'c Context, anchor: &str) -> melior::pass::PassManager<'c> {
    // SAFETY: the new pass manager is owned by the returned wrapper, which
    // cannot outlive the context.
    unsafe {
        melior::pass::PassManager::from_raw(mlir_sys::mlirPassManagerCreateOnOperation(
            context.to_raw(),
            StringRef::new(anchor).to_raw(),
        ))
    }
}

/// Turns on per-pass wall-clock timing; the report is printed to stderr when
/// the pass manager is destroyed.
pub fn enable_timing(manager: &melior::pass::PassManager) {
    // SAFETY: `manager` is a live pass manager, borrowed for the call.
    unsafe { mlirPassManagerEnableTiming(manager.to_raw()) }
}

/// Prints an operation with the given flags (generic form, debug info, ...).
pub fn print_operation(operation: OperationRef, flags: &OperationPrintingFlags) -> String {
    let mut text = String::new();
    // SAFETY: the flags and operation are alive; the callback appends to `text`.
    unsafe {
        mlirOperationPrintWithFlags(
            operation.to_raw(),
            flags.to_raw(),
            Some(append_to_string),
            &mut text as *mut String as *mut c_void,
        )
    };
    text
}

/// The `AffineMapAttr` holding `map` (melior has no wrapper for it).
pub fn affine_map_attribute(map: melior::ir::AffineMap) -> melior::ir::Attribute {
    // SAFETY: `map` is a valid affine map of a live context; the attribute
    // is owned by that context.
    unsafe { melior::ir::Attribute::from_raw(mlir_sys::mlirAffineMapAttrGet(map.to_raw())) }
}

/// The value of a float attribute, or of the one element of a splat dense
/// elements attribute of floats (`dense<0.5> : vector<8xf32>`); `None` for
/// any other attribute.
pub fn float_splat(attribute: melior::ir::Attribute) -> Option<f64> {
    use melior::ir::attribute::{AttributeLike, FloatAttribute};
    let float = |a: melior::ir::Attribute| if a.is_float() { FloatAttribute::try_from(a).ok().map(|f| f.value()) } else { None };
    if attribute.is_float() {
        return float(attribute);
    }
    // SAFETY: the type tests accept any attribute; the splat value is read
    // only from a dense elements attribute that is a splat, and is owned by
    // the same context.
    unsafe {
        let raw = attribute.to_raw();
        if !mlir_sys::mlirAttributeIsADenseElements(raw) || !mlir_sys::mlirDenseElementsAttrIsSplat(raw) {
            return None;
        }
        float(melior::ir::Attribute::from_raw(mlir_sys::mlirDenseElementsAttrGetSplatValue(raw)))
    }
}

/// The elements of a dense elements attribute of integers or floats
/// (splats expanded), in row-major order, as integers or as f64 (f32 and
/// f64 elements are exact in f64); `None` for other attributes, other
/// element types, or more than `limit` elements.
pub fn dense_values(attribute: melior::ir::Attribute, limit: usize) -> Option<DenseValues> {
    use melior::ir::attribute::AttributeLike;
    // SAFETY: the type tests accept any attribute; elements are read only
    // from a dense elements attribute, at positions below its element count,
    // with the getter of its element type.
    unsafe {
        let raw = attribute.to_raw();
        if !mlir_sys::mlirAttributeIsADenseElements(raw) {
            return None;
        }
        let count = usize::try_from(mlir_sys::mlirElementsAttrGetNumElements(raw)).ok().filter(|n| *n <= limit)?;
        let element = mlir_sys::mlirShapedTypeGetElementType(mlir_sys::mlirAttributeGetType(raw));
        let splat = mlir_sys::mlirDenseElementsAttrIsSplat(raw);
        let position = |k: usize| if splat { 0 } else { k as isize };
        if mlir_sys::mlirTypeIsAF32(element) {
            return Some(DenseValues::Float((0..count).map(|k| mlir_sys::mlirDenseElementsAttrGetFloatValue(raw, position(k)) as f64).collect()));
        }
        if mlir_sys::mlirTypeIsAF64(element) {
            return Some(DenseValues::Float((0..count).map(|k| mlir_sys::mlirDenseElementsAttrGetDoubleValue(raw, position(k))).collect()));
        }
        if mlir_sys::mlirTypeIsAIndex(element) {
            return Some(DenseValues::Int((0..count).map(|k| mlir_sys::mlirDenseElementsAttrGetIndexValue(raw, position(k)) as i64).collect()));
        }
        if !mlir_sys::mlirTypeIsAInteger(element) {
            return None;
        }
        let values = match mlir_sys::mlirIntegerTypeGetWidth(element) {
            1 => (0..count).map(|k| mlir_sys::mlirDenseElementsAttrGetBoolValue(raw, position(k)) as i64).collect(),
            8 => (0..count).map(|k| mlir_sys::mlirDenseElementsAttrGetInt8Value(raw, position(k)) as i64).collect(),
            16 => (0..count).map(|k| mlir_sys::mlirDenseElementsAttrGetInt16Value(raw, position(k)) as i64).collect(),
            32 => (0..count).map(|k| mlir_sys::mlirDenseElementsAttrGetInt32Value(raw, position(k)) as i64).collect(),
            64 => (0..count).map(|k| mlir_sys::mlirDenseElementsAttrGetInt64Value(raw, position(k))).collect(),
            _ => return None,
        };
        Some(DenseValues::Int(values))
    }
}

/// What [`dense_values`] reads.
#[derive(Clone, Debug, PartialEq)]
pub enum DenseValues {
    Int(Vec<i64>),
    Float(Vec<f64>),
}

/// The affine map of an `AffineMapAttr` (melior has no wrapper for it), or
/// `None` for any other attribute.
pub fn affine_map_of(attribute: melior::ir::Attribute) -> Option<melior::ir::AffineMap> {
    use melior::ir::attribute::AttributeLike;
    // SAFETY: the attribute is checked to be an affine map attribute first.
    unsafe {
        mlir_sys::mlirAttributeIsAAffineMap(attribute.to_raw())
            .then(|| melior::ir::AffineMap::from_raw(mlirAffineMapAttrGetValue(attribute.to_raw())))
    }
}

/// A `file:line:col` location in the context of `like`.
pub fn file_line_col_location<'c>(like: Location<'c>, file: &str, line: usize, column: usize) -> Location<'c> {
    // SAFETY: the context of `like` lives for 'c, as does the new location.
    unsafe {
        let context = mlir_sys::mlirLocationGetContext(like.to_raw());
        Location::from_raw(mlir_sys::mlirLocationFileLineColGet(
            context,
            StringRef::new(file).to_raw(),
            line as u32,
            column as u32,
        ))
    }
}

/// True if some operation uses `value` (melior has no use-list API yet).
pub fn has_uses<'c>(value: impl melior::ir::ValueLike<'c> + Copy) -> bool {
    // SAFETY: the value is alive; the first-use handle is only tested.
    unsafe { !mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(value.to_raw())) }
}

/// Runs `f` with the context of `op`.
pub fn with_context<'c, R: 'static>(op: OperationRef<'c, '_>, f: impl FnOnce(&'c Context) -> R) -> R {
    f(context_of(op))
}

/// The context of `op`, for as long as the op's context lives ('c).
///
/// melior's `ContextRef::to_ref` returns a reference into the `ContextRef`
/// value itself, so that value must outlive every use of the reference (and
/// a closure could smuggle the reference out of a scope that keeps it
/// alive). Instead the `ContextRef` is kept, once per context address, in a
/// per-thread table that is never freed: a `&Context` is only the context's
/// pointer, so the entry stays right for a later context at the same
/// address, and a few bytes per context address is all it costs.
pub fn context_of<'c>(op: OperationRef<'c, '_>) -> &'c Context {
    use melior::ContextRef;
    thread_local! {
        static CONTEXTS: std::cell::RefCell<std::collections::HashMap<usize, &'static ContextRef<'static>>> =
            Default::default();
    }
    // SAFETY: `op` is alive; its context lives for 'c.
    let raw = unsafe { mlir_sys::mlirOperationGetContext(op.to_raw()) };
    let stored: &'static ContextRef<'static> = CONTEXTS.with(|contexts| {
        *contexts.borrow_mut().entry(raw.ptr as usize).or_insert_with(|| {
            // SAFETY: `raw` is the live context of `op`. The `'static` is
            // never used as such: the reference handed out below is cut
            // down to 'c, which the context outlives.
            Box::leak(Box::new(unsafe { ContextRef::from_raw(raw) }))
        })
    });
    // SAFETY: `stored` is never freed, so the `&Context` it gives stays
    // valid; it holds the pointer of `op`'s context, alive for 'c.
    unsafe { stored.to_ref() }
}

/// The ops nested in `root` (itself included) that satisfy `keep`, in walk
/// order. melior's `walk` cannot let op references escape its callback;
/// these are ordinary handles into the IR `root` borrows ('a), like those of
/// melior's `first_operation`/`next_in_block`: each stays valid while its op
/// is alive. Only [`erase`] (an `unsafe fn`) destroys ops, and its contract
/// makes the caller account for every handle collected here.
pub fn collect_ops<'c, 'a>(
    root: OperationRef<'c, 'a>,
    order: melior::ir::operation::WalkOrder,
    mut keep: impl FnMut(OperationRef) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    use melior::ir::operation::{OperationLike, WalkResult};
    let mut raw = Vec::new();
    root.walk(order, |op| {
        if keep(op) {
            raw.push(op.to_raw());
        }
        WalkResult::Advance
    });
    // SAFETY: every op found is nested in `root`, so it lives as long as the
    // IR `root` borrows ('a) unless erased, which `erase`'s contract covers.
    raw.into_iter().map(|op| unsafe { OperationRef::from_raw(op) }).collect()
}

/// Sets (or replaces) attribute `name` of `op`. melior only allows this on
/// `OperationRefMut`, which walks and collected op lists do not give.
pub fn set_attribute(op: OperationRef, name: &str, attribute: melior::ir::Attribute) {
    use melior::ir::attribute::AttributeLike;
    // SAFETY: op and attribute are alive and belong to the same context.
    unsafe { mlir_sys::mlirOperationSetAttributeByName(op.to_raw(), StringRef::new(name).to_raw(), attribute.to_raw()) }
}

/// Sets the location of `op` (melior only allows this on `OperationRefMut`).
pub fn set_location(op: OperationRef, location: Location) {
    // SAFETY: op and location are alive and belong to the same context.
    unsafe { mlir_sys::mlirOperationSetLocation(op.to_raw(), location.to_raw()) }
}

/// A deep copy of `op` (with its regions), not inserted anywhere.
pub fn clone_operation<'c>(op: OperationRef<'c, '_>) -> Operation<'c> {
    // SAFETY: the clone is a new op owned by the returned value.
    unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) }
}

/// Replaces operand `index` of `op` (melior only allows this on
/// `OperationRefMut`). Panics if `op` has no operand `index`.
pub fn set_operand(op: OperationRef, index: usize, value: melior::ir::Value) {
    use melior::ir::{operation::OperationLike, ValueLike};
    // MLIR only asserts this in debug builds of LLVM; out of range, a
    // release build writes past the operand array.
    assert!(index < op.operand_count(), "operand {index} of an op with {} operands", op.operand_count());
    // SAFETY: op and value are alive in the same context; the index is in
    // range (checked above).
    unsafe { mlir_sys::mlirOperationSetOperand(op.to_raw(), index as isize, value.to_raw()) }
}

/// The element type of a `complex<T>` type (`T`), or `None` for other types.
pub fn complex_element<'c>(ty: melior::ir::Type<'c>) -> Option<melior::ir::Type<'c>> {
    use melior::ir::TypeLike;
    // SAFETY: `ty` is a live type; the element type is only read when it is
    // a complex type, and lives in the same context.
    unsafe {
        mlir_sys::mlirTypeIsAComplex(ty.to_raw())
            .then(|| melior::ir::Type::from_raw(mlir_sys::mlirComplexTypeGetElementType(ty.to_raw())))
    }
}

/// True if a memref type has the identity layout (contiguous, row-major).
pub fn has_identity_layout(memref: melior::ir::r#type::MemRefType) -> bool {
    use melior::ir::TypeLike;
    // SAFETY: the type is a live memref type; the layout attribute is only
    // inspected.
    unsafe {
        let layout = mlir_sys::mlirMemRefTypeGetLayout(memref.to_raw());
        mlir_sys::mlirAttributeIsAAffineMap(layout)
            && mlir_sys::mlirAffineMapIsIdentity(mlir_sys::mlirAffineMapAttrGetValue(layout))
    }
}

/// Emits an error diagnostic at `location` through the context's handlers.
pub fn emit_error(location: Location, message: &str) {
    let message = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: the location is alive and the message NUL-terminated.
    unsafe { mlir_sys::mlirEmitError(location.to_raw(), message.as_ptr()) }
}

/// The dialect handle of an upstream dialect by namespace (`"arith"`), for
/// a pass's dependent dialects; `None` for names MLIR's C API has no handle
/// for (our IRDL dialects, `pbq` and `stablehlo`, which every context of
/// `pb_dialects::create_context` loads anyway).
pub fn dialect_handle(namespace: &str) -> Option<melior::dialect::DialectHandle> {
    use mlir_sys::*;
    let get: unsafe extern "C" fn() -> MlirDialectHandle = match namespace {
        "affine" => mlirGetDialectHandle__affine__,
        "amdgpu" => mlirGetDialectHandle__amdgpu__,
        "amx" => mlirGetDialectHandle__amx__,
        "arith" => mlirGetDialectHandle__arith__,
        "bufferization" => mlirGetDialectHandle__bufferization__,
        "cf" => mlirGetDialectHandle__cf__,
        "complex" => mlirGetDialectHandle__complex__,
        "func" => mlirGetDialectHandle__func__,
        "gpu" => mlirGetDialectHandle__gpu__,
        "index" => mlirGetDialectHandle__index__,
        "linalg" => mlirGetDialectHandle__linalg__,
        "llvm" => mlirGetDialectHandle__llvm__,
        "math" => mlirGetDialectHandle__math__,
        "memref" => mlirGetDialectHandle__memref__,
        "nvvm" => mlirGetDialectHandle__nvvm__,
        "scf" => mlirGetDialectHandle__scf__,
        "tensor" => mlirGetDialectHandle__tensor__,
        "ub" => mlirGetDialectHandle__ub__,
        "vector" => mlirGetDialectHandle__vector__,
        "x86vector" => mlirGetDialectHandle__x86vector__,
        _ => return None,
    };
    // SAFETY: each getter returns a pointer to a static dialect registration
    // hook of the linked MLIR; it takes no arguments and is always valid.
    Some(unsafe { melior::dialect::DialectHandle::from_raw(get()) })
}

extern "C" {
    /// From `diagnostics_shim.cpp`: `mlir::emitRemark(unwrap(location), message)`.
    fn pbEmitRemark(location: mlir_sys::MlirLocation, message: *const c_char);
    /// From `diagnostics_shim.cpp`: `mlir::emitWarning(unwrap(location), message)`.
    fn pbEmitWarning(location: mlir_sys::MlirLocation, message: *const c_char);
    /// From `fusion_shim.cpp`: upstream's elementwise fusion patterns on
    /// `op`, refusing producers read by a contraction.
    fn pbFuseElementwise(op: mlir_sys::MlirOperation) -> bool;
}

/// Upstream's elementwise fusion (`linalg-fuse-elementwise-ops`: its
/// patterns, greedily, top-down) on the ops nested in `op`, except that no
/// producer is fused into an operand that a consumer with reduction loops
/// reads without one of its loops. False when the driver did not converge
/// (upstream's pass ignores that too).
pub fn fuse_elementwise(op: OperationRef) -> bool {
    // SAFETY: `op` is alive; the shim rewrites only ops nested in it, as a
    // pass anchored on it may.
    unsafe { pbFuseElementwise(op.to_raw()) }
}

/// Emits a remark diagnostic at `location` through the context's handlers
/// (`file:line:col: remark: message` from pb-opt; `expected-remark` with
/// `--verify-diagnostics`). MLIR's diagnostic engine is thread-safe: passes
/// running in parallel may call this.
pub fn emit_remark(location: Location, message: &str) {
    let message = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: the location is alive (its context lives for its lifetime) and
    // the message NUL-terminated; the shim only reads both during the call.
    unsafe { pbEmitRemark(location.to_raw(), message.as_ptr()) }
}

/// Emits a warning diagnostic at `location`, as [`emit_remark`].
pub fn emit_warning(location: Location, message: &str) {
    let message = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: as in `emit_remark`.
    unsafe { pbEmitWarning(location.to_raw(), message.as_ptr()) }
}

/// File name, line and column of a `FileLineColRange` location, looking
/// through name, call-site (callee side) and fused locations.
pub fn file_line_col(location: Location) -> Option<(String, usize, usize)> {
    if location.is_file_line_col_range() {
        let name = location.file_line_col_range_filename().as_string_ref().as_str().ok()?.to_string();
        return Some((name, location.file_line_col_range_start_line(), location.file_line_col_range_start_column()));
    }
    if location.is_name() {
        return file_line_col(location.name_child_location());
    }
    if location.is_call_site() {
        return file_line_col(location.call_site_callee());
    }
    if location.is_fused() {
        return (0..location.fused_num_locations()).find_map(|i| file_line_col(location.fused_location(i)));
    }
    None
}

/// `file:line:col` of `location` ([`file_line_col`]) for one-line messages
/// on stderr, or `<unknown>`.
pub fn place(location: Location) -> String {
    file_line_col(location).map_or_else(|| "<unknown>".to_string(), |(file, line, column)| format!("{file}:{line}:{column}"))
}

type FatalErrorHandler = extern "C" fn(reason: *const c_char);

extern "C" {
    /// From LLVM's C API (`llvm-c/ErrorHandling.h`), linked in with MLIR.
    fn LLVMInstallFatalErrorHandler(handler: FatalErrorHandler);
}

static FATAL_PREFIX: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();

extern "C" fn report_fatal(reason: *const c_char) {
    // SAFETY: LLVM passes a NUL-terminated message.
    let reason = unsafe { CStr::from_ptr(reason) }.to_string_lossy();
    let prefix = FATAL_PREFIX.get().copied().unwrap_or("polyblocks");
    eprintln!("{prefix}: error: {reason}");
    std::process::exit(1);
}

/// Makes LLVM/MLIR fatal errors (`report_fatal_error`) print one clean line
/// prefixed by `tool` and exit with status 1 instead of aborting with a stack
/// trace. Call once at start-up of a command-line tool, before any threads.
pub fn install_fatal_error_handler(tool: &'static str) {
    let _ = FATAL_PREFIX.set(tool);
    // SAFETY: installs a handler that never returns into LLVM; called once at
    // start-up from the main thread.
    unsafe { LLVMInstallFatalErrorHandler(report_fatal) }
}

/// Replaces all operands of `op` (the count may change).
pub fn set_operands(op: OperationRef, values: &[melior::ir::Value]) {
    use melior::ir::ValueLike;
    let raw: Vec<mlir_sys::MlirValue> = values.iter().map(|v| v.to_raw()).collect();
    // SAFETY: op and values are alive in the same context; MLIR copies the array.
    unsafe { mlir_sys::mlirOperationSetOperands(op.to_raw(), raw.len() as isize, raw.as_ptr()) }
}

/// Removes `op` from its block (if any) and destroys it, with its regions.
///
/// # Safety
///
/// Destroying the op frees it, its results, and every block, block argument
/// and op nested in it. The caller guarantees that:
///
/// - the results of `op`, and the values defined inside it (block
///   arguments, results of nested ops), have no uses left outside `op`
///   (MLIR only asserts this in debug builds; a use left behind dangles);
/// - no handle to `op`, to one of its results, or to anything nested in it
///   (an `OperationRef`, `Value`, `BlockRef` or `RegionRef` kept in a
///   variable, a collected list or a map) is used after the call;
/// - `op` is not being walked: no melior `walk` over an op containing it
///   is in progress.
pub unsafe fn erase(op: OperationRef) {
    // SAFETY: the op is alive (melior's handle model); per the contract,
    // nothing refers to it, its results or its contents any more.
    unsafe {
        mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
        mlir_sys::mlirOperationDestroy(op.to_raw());
    }
}

/// Moves `op` right before `before` (both in blocks of the same region
/// tree). Panics if either is not in a block, or if `before` is `op` or
/// nested in it.
pub fn move_before(op: OperationRef, before: OperationRef) {
    use melior::ir::operation::OperationLike;
    // MLIR only asserts these in debug builds: without a block it follows a
    // null pointer; moving an op before itself corrupts the block's op list.
    assert!(op.block().is_some() && before.block().is_some(), "move_before: an op not in a block");
    assert!(!is_ancestor_or_self(op, before), "move_before: moving an op into itself");
    // SAFETY: both ops are alive and in blocks (checked above), and `before`
    // is not `op` or inside it; MLIR unlinks and relinks.
    unsafe { mlir_sys::mlirOperationMoveBefore(op.to_raw(), before.to_raw()) }
}

/// Uses of a value: the ops that use it.
pub fn users<'c, 'a>(value: melior::ir::Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    use melior::ir::ValueLike;
    let mut users = Vec::new();
    // SAFETY: walks the use list of a live value; owners are live ops.
    unsafe {
        let mut use_ = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !use_.ptr.is_null() {
            users.push(OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(use_)));
            use_ = mlir_sys::mlirOpOperandGetNextUse(use_);
        }
    }
    users
}

/// Uses of a value: each using op with the operand's position in it.
pub fn uses<'c, 'a>(value: melior::ir::Value<'c, 'a>) -> Vec<(OperationRef<'c, 'a>, usize)> {
    use melior::ir::ValueLike;
    let mut uses = Vec::new();
    // SAFETY: walks the use list of a live value; owners are live ops.
    unsafe {
        let mut use_ = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !use_.ptr.is_null() {
            let owner = OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(use_));
            uses.push((owner, mlir_sys::mlirOpOperandGetOperandNumber(use_) as usize));
            use_ = mlir_sys::mlirOpOperandGetNextUse(use_);
        }
    }
    uses
}

/// True if `op` comes before `other`. Panics unless both are in the same
/// block (callers compare `block()` before asking).
pub fn is_before_in_block(op: OperationRef, other: OperationRef) -> bool {
    use melior::ir::operation::OperationLike;
    // MLIR only asserts this in debug builds; an op without a block is a
    // null pointer followed.
    assert!(op.block().is_some() && op.block() == other.block(), "is_before_in_block: ops in different blocks");
    // SAFETY: both ops are alive and in the same block (checked above).
    unsafe { mlir_sys::mlirOperationIsBeforeInBlock(op.to_raw(), other.to_raw()) }
}

/// Replaces every use of `old` by `new`.
pub fn replace_all_uses(old: melior::ir::Value, new: melior::ir::Value) {
    use melior::ir::ValueLike;
    // SAFETY: both values are alive in the same context and of the same type
    // (checked by the verifier afterwards).
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) }
}

/// Moves `op` to the end of `block` (from wherever it is). Panics if
/// `block` is nested in `op`.
pub fn move_to_end(op: OperationRef, block: melior::ir::BlockRef) {
    use melior::ir::BlockLike;
    assert!(
        !block.parent_operation().is_some_and(|parent| is_ancestor_or_self(op, parent)),
        "move_to_end: moving an op into itself"
    );
    // SAFETY: both are alive and the block is not inside the op (checked
    // above); the op is unlinked from its block (if any) and appended.
    unsafe {
        mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
        mlir_sys::mlirBlockAppendOwnedOperation(block.to_raw(), op.to_raw());
    }
}

/// The op defining `value`, or `None` for a block argument. Use this, not
/// melior's `OperationResult::try_from`: on a block argument that one
/// prints the value into its error, which builds the printer state of the
/// whole enclosing function (quadratic compile time on large functions).
pub fn defining_op<'c, 'a>(value: melior::ir::Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    use melior::ir::ValueLike;
    // SAFETY: `value` is alive; its owner op is alive as long as it is.
    unsafe {
        if !mlir_sys::mlirValueIsAOpResult(value.to_raw()) {
            return None;
        }
        Some(OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(value.to_raw())))
    }
}

/// `value` as a block argument, or `None` for an op result. Use this, not
/// melior's `BlockArgument::try_from`, for the reason given at
/// [`defining_op`] (an op result is printed into its error).
pub fn block_argument<'c, 'a>(value: melior::ir::Value<'c, 'a>) -> Option<melior::ir::block::BlockArgument<'c, 'a>> {
    use melior::ir::ValueLike;
    if value.is_block_argument() {
        melior::ir::block::BlockArgument::try_from(value).ok()
    } else {
        None
    }
}

/// Operand `index` of `op`, or `None` past the last. melior's
/// `operand(index)` prints the whole op into its out-of-range error (see
/// [`defining_op`]).
pub fn operand<'c, 'a>(op: OperationRef<'c, 'a>, index: usize) -> Option<melior::ir::Value<'c, 'a>> {
    use melior::ir::operation::OperationLike;
    (index < op.operand_count()).then(|| op.operand(index).ok()).flatten()
}

/// Result `index` of `op`, or `None` past the last: as [`operand`], for
/// melior's `result(index)` (probing every op of a function for result 0
/// that way cost `pb-fold-clamps` 1.5 s of ViT-B/16's compile).
pub fn result<'c, 'a>(op: OperationRef<'c, 'a>, index: usize) -> Option<melior::ir::Value<'c, 'a>> {
    use melior::ir::operation::OperationLike;
    (index < op.result_count()).then(|| op.result(index).ok().map(Into::into)).flatten()
}

/// Inserts a block argument of type `ty` at position `index` of `block`
/// (the arguments after it move up by one); the new argument.
pub fn insert_block_argument<'c, 'a>(
    block: melior::ir::BlockRef<'c, 'a>,
    index: usize,
    ty: melior::ir::Type<'c>,
    location: Location<'c>,
) -> melior::ir::Value<'c, 'a> {
    use melior::ir::{BlockLike, TypeLike};
    assert!(index <= block.argument_count(), "block argument position {index} out of range");
    // SAFETY: the block is alive; the position is at most the argument count
    // (checked above); the new argument lives as long as the block.
    unsafe {
        melior::ir::Value::from_raw(mlir_sys::mlirBlockInsertArgument(
            block.to_raw(),
            index as isize,
            ty.to_raw(),
            location.to_raw(),
        ))
    }
}

/// The block `value` is defined in: its defining op's block, or the block
/// it is an argument of.
pub fn defining_block<'c, 'a>(value: melior::ir::Value<'c, 'a>) -> Option<melior::ir::BlockRef<'c, 'a>> {
    use melior::ir::{operation::OperationLike, ValueLike};
    if let Some(op) = defining_op(value) {
        return op.block();
    }
    // SAFETY: `value` is alive and (not an op result) a block argument;
    // its owner block lives as long as it does.
    unsafe {
        if !mlir_sys::mlirValueIsABlockArgument(value.to_raw()) {
            return None;
        }
        melior::ir::BlockRef::from_option_raw(mlir_sys::mlirBlockArgumentGetOwner(value.to_raw()))
    }
}

/// Changes the type of `value` in place (an op result or block argument).
/// The caller makes every user agree with the new type before the IR is
/// verified again.
pub fn set_type(value: melior::ir::Value, ty: melior::ir::Type) {
    use melior::ir::{TypeLike, ValueLike};
    // SAFETY: value and type are alive in the same context; MLIR only
    // records the type (users are the caller's contract, checked by the
    // verifier after the pass).
    unsafe { mlir_sys::mlirValueSetType(value.to_raw(), ty.to_raw()) }
}

/// Moves the blocks of `source` (left empty) into `target`, a new region
/// that must be empty (checked: MLIR would destroy its blocks first, which
/// handles into them could still name).
pub fn take_body(target: &melior::ir::Region, source: melior::ir::RegionRef) {
    use melior::ir::RegionLike;
    assert!(target.first_block().is_none(), "take_body: the target region has blocks");
    // SAFETY: both regions are alive and the target is empty (checked
    // above), so nothing is destroyed; MLIR splices the block list.
    unsafe { mlir_sys::mlirRegionTakeBody(target.to_raw(), source.to_raw()) }
}

/// True if `op` is `other` or one of its ancestors (through parent ops).
fn is_ancestor_or_self(op: OperationRef, other: OperationRef) -> bool {
    use melior::ir::operation::OperationLike;
    let mut current = Some(other);
    while let Some(candidate) = current {
        if candidate == op {
            return true;
        }
        current = candidate.parent_operation();
    }
    false
}

/// The width in bits of an integer or float type; `None` for other types.
pub fn int_or_float_width(ty: melior::ir::Type) -> Option<u32> {
    use melior::ir::TypeLike;
    // SAFETY: `ty` is a live type; each width is read only after the type
    // test for its kind.
    unsafe {
        if mlir_sys::mlirTypeIsAInteger(ty.to_raw()) {
            Some(mlir_sys::mlirIntegerTypeGetWidth(ty.to_raw()))
        } else if mlir_sys::mlirTypeIsAFloat(ty.to_raw()) {
            Some(mlir_sys::mlirFloatTypeGetWidth(ty.to_raw()))
        } else {
            None
        }
    }
}

/// `expr` with each dimension `d_i` replaced by result `i` of `map` (and
/// symbols by the map's symbols): MLIR's `AffineExpr::compose`.
pub fn compose_expr<'c>(expr: melior::ir::AffineExpr<'c>, map: melior::ir::AffineMap<'c>) -> melior::ir::AffineExpr<'c> {
    // SAFETY: both are uniqued in the same live context; the result is too.
    unsafe { melior::ir::AffineExpr::from_raw(mlir_sys::mlirAffineExprCompose(expr.to_raw(), map.to_raw())) }
}

/// `map` with each dimension `d_i` replaced by result `i` of `with`: a map
/// over `with`'s dimensions and symbols (`map ∘ with`).
pub fn compose_map<'c>(context: &'c Context, map: melior::ir::AffineMap<'c>, with: melior::ir::AffineMap<'c>) -> melior::ir::AffineMap<'c> {
    let results: Vec<melior::ir::AffineExpr<'c>> =
        (0..map.result_count()).filter_map(|i| map.result(i).ok()).map(|e| compose_expr(e, with)).collect();
    melior::ir::AffineMap::new(context, with.dim_count(), with.symbol_count(), &results)
}

/// MLIR's translation of `module` (LLVM dialect only) to an LLVM IR module
/// in `llvm_context`; null on failure (diagnostics were emitted).
///
/// # Safety
///
/// `llvm_context` is a live LLVM context that no other thread uses during
/// the call. The module returned belongs to it: the caller disposes of it
/// (before the context) and uses it only while the context is alive.
pub unsafe fn translate_to_llvm_ir(module: &Module, llvm_context: mlir_sys::LLVMContextRef) -> mlir_sys::LLVMModuleRef {
    // SAFETY: `module` is alive for the call; the context per the contract.
    unsafe { mlir_sys::mlirTranslateModuleToLLVMIR(module.as_operation().to_raw(), llvm_context) }
}
