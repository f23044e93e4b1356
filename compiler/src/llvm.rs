//! The LLVM step: LLVM-dialect MLIR → LLVM IR (MLIR's translation) →
//! optimized (`default<O3>`) → native object code for the host CPU, with the
//! host's features (AVX-512, AMX, ...) taken from LLVM's host detection, not
//! from the CPU name (which can be wrong in VMs).
//!
//! The LLVM C API is linked in with MLIR (static); the few functions we need
//! are declared here, each used behind a safe function.

use melior::ir::Module;
use crate::split;
use mlir_sys::{LLVMContextRef, LLVMModuleRef};
use std::ffi::{c_char, c_int, c_void, CStr, CString};

type TargetRef = *mut c_void;
type TargetMachineRef = *mut c_void;
type TargetDataRef = *mut c_void;
pub(crate) type MemoryBufferRef = *mut c_void;
type ErrorRef = *mut c_void;
type PassBuilderOptionsRef = *mut c_void;

extern "C" {
    pub(crate) fn LLVMContextCreate() -> LLVMContextRef;
    pub(crate) fn LLVMContextDispose(context: LLVMContextRef);
    pub(crate) fn LLVMDisposeModule(module: LLVMModuleRef);
    fn LLVMPrintModuleToString(module: LLVMModuleRef) -> *mut c_char;
    fn LLVMDisposeMessage(message: *mut c_char);
    fn LLVMSetTarget(module: LLVMModuleRef, triple: *const c_char);
    fn LLVMSetModuleDataLayout(module: LLVMModuleRef, layout: TargetDataRef);

    fn LLVMInitializeX86TargetInfo();
    fn LLVMInitializeX86Target();
    fn LLVMInitializeX86TargetMC();
    fn LLVMInitializeX86AsmPrinter();
    fn LLVMInitializeX86AsmParser();
    fn LLVMParseCommandLineOptions(argc: c_int, argv: *const *const c_char, overview: *const c_char);

    fn LLVMGetDefaultTargetTriple() -> *mut c_char;
    fn LLVMGetHostCPUName() -> *mut c_char;
    fn LLVMGetHostCPUFeatures() -> *mut c_char;
    fn LLVMGetTargetFromTriple(triple: *const c_char, target: *mut TargetRef, error: *mut *mut c_char) -> c_int;
    fn LLVMCreateTargetMachine(
        target: TargetRef,
        triple: *const c_char,
        cpu: *const c_char,
        features: *const c_char,
        level: c_int,
        reloc: c_int,
        code_model: c_int,
    ) -> TargetMachineRef;
    fn LLVMDisposeTargetMachine(machine: TargetMachineRef);
    fn LLVMCreateTargetDataLayout(machine: TargetMachineRef) -> TargetDataRef;
    fn LLVMDisposeTargetData(data: TargetDataRef);
    fn LLVMTargetMachineEmitToMemoryBuffer(
        machine: TargetMachineRef,
        module: LLVMModuleRef,
        file_type: c_int,
        error: *mut *mut c_char,
        buffer: *mut MemoryBufferRef,
    ) -> c_int;
    fn LLVMGetBufferStart(buffer: MemoryBufferRef) -> *const c_char;
    fn LLVMGetBufferSize(buffer: MemoryBufferRef) -> usize;
    pub(crate) fn LLVMDisposeMemoryBuffer(buffer: MemoryBufferRef);

    fn LLVMCreatePassBuilderOptions() -> PassBuilderOptionsRef;
    fn LLVMDisposePassBuilderOptions(options: PassBuilderOptionsRef);
    fn LLVMRunPasses(
        module: LLVMModuleRef,
        passes: *const c_char,
        machine: TargetMachineRef,
        options: PassBuilderOptionsRef,
    ) -> ErrorRef;
    fn LLVMGetErrorMessage(error: ErrorRef) -> *mut c_char;
    fn LLVMDisposeErrorMessage(message: *mut c_char);
}

const CODEGEN_AGGRESSIVE: c_int = 3;
const RELOC_PIC: c_int = 2;
const CODE_MODEL_DEFAULT: c_int = 0;
const OBJECT_FILE: c_int = 1;

/// Takes an LLVM-owned message and returns it as a String.
fn take_message(message: *mut c_char) -> String {
    if message.is_null() {
        return String::new();
    }
    // SAFETY: LLVM returns a NUL-terminated string we own and must dispose.
    let text = unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned();
    unsafe { LLVMDisposeMessage(message) };
    text
}

/// The bytes of an LLVM memory buffer, which is then freed.
///
/// # Safety
/// `buffer` is a live buffer owned by the caller; it is disposed here.
pub(crate) unsafe fn take_buffer(buffer: MemoryBufferRef) -> Vec<u8> {
    // SAFETY (caller): the buffer holds `LLVMGetBufferSize` bytes.
    unsafe {
        let bytes = std::slice::from_raw_parts(LLVMGetBufferStart(buffer) as *const u8, LLVMGetBufferSize(buffer)).to_vec();
        LLVMDisposeMemoryBuffer(buffer);
        bytes
    }
}

/// An LLVM module and the context it lives in, disposed together.
pub(crate) struct OwnedModule {
    context: LLVMContextRef,
    pub module: LLVMModuleRef,
}

impl OwnedModule {
    /// Takes ownership of `module`, the only module of `context`.
    ///
    /// # Safety
    /// Both are live and owned by nobody else.
    pub(crate) unsafe fn new(context: LLVMContextRef, module: LLVMModuleRef) -> Self {
        Self { context, module }
    }
}

impl Drop for OwnedModule {
    fn drop(&mut self) {
        // SAFETY: `new`'s contract: this value owns both.
        unsafe {
            LLVMDisposeModule(self.module);
            LLVMContextDispose(self.context);
        }
    }
}

/// What the LLVM step produces.
pub struct NativeCode {
    /// The optimized LLVM IR (of every part, in order), when asked for.
    pub llvm_ir: Option<String>,
    /// ELF relocatable objects, one per part the module was compiled in
    /// (`split`): linked together, they are the program.
    pub objects: Vec<Vec<u8>>,
}

/// One part's optimized LLVM IR (when asked for) and object code.
type IrAndObject = (Option<String>, Vec<u8>);

/// Host triple, CPU name and feature string as LLVM detects them.
pub fn host_target() -> (String, String, String) {
    // SAFETY: these return owned strings.
    unsafe {
        (
            take_message(LLVMGetDefaultTargetTriple()),
            take_message(LLVMGetHostCPUName()),
            take_message(LLVMGetHostCPUFeatures()),
        )
    }
}

/// LLVM code generation options, set once per process.
///
/// `-combiner-store-merging=0`: the DAG combiner's merging of adjacent
/// stores into wider ones compares every store of a basic block with the
/// others; our kernels' unrolled vector blocks hold hundreds of stores that
/// are vectors already. Compiled as one module (AOT, `--codegen-threads=1`)
/// DenseNet-121's code generation took 8.8 s, 6.6 s without the search
/// (`perf`: `getStoreMergeCandidates`, `BaseIndexOffset::match`); run time
/// unchanged (resnet50, BERT, mobilenet_v3).
fn set_codegen_options() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let arguments = [c"pb-compile".as_ptr(), c"-combiner-store-merging=0".as_ptr()];
        // SAFETY: NUL-terminated static strings; LLVM parses them once,
        // before any code generation in this process.
        unsafe { LLVMParseCommandLineOptions(arguments.len() as c_int, arguments.as_ptr(), std::ptr::null()) };
    });
}

/// Translates `module` (LLVM dialect only), optimizes at `opt_level`
/// (0 to 3) for the host, or for LLVM CPU `cpu` with its default features
/// (e.g. `x86-64-v3` for AVX2 machines), and emits object code: one object,
/// or with `threads` above 1 and a module large enough, one per part of the
/// module, parts optimized and compiled in parallel (`split`).
pub fn compile_to_object(
    module: &Module,
    opt_level: u8,
    cpu: Option<&str>,
    keep_ir: bool,
    threads: usize,
) -> Result<NativeCode, String> {
    // SAFETY: each LLVM object is created, used and disposed here (or by
    // the part's owner, on its thread); nothing escapes but copied bytes
    // and strings.
    unsafe {
        LLVMInitializeX86TargetInfo();
        LLVMInitializeX86Target();
        LLVMInitializeX86TargetMC();
        LLVMInitializeX86AsmPrinter();
        // Inline assembly (pb-amx-permission's system call) is parsed when emitted.
        LLVMInitializeX86AsmParser();
        set_codegen_options();

        let context = LLVMContextCreate();
        let llvm_module = mlir_sys::mlirTranslateModuleToLLVMIR(module.as_operation().to_raw(), context);
        if llvm_module.is_null() {
            LLVMContextDispose(context);
            return Err("translation of the LLVM dialect to LLVM IR failed (see the errors above)".into());
        }
        let whole = OwnedModule::new(context, llvm_module);
        let Some(plan) = split::plan(whole.module, threads) else {
            let (llvm_ir, object) = optimize_and_emit(whole.module, opt_level, cpu, keep_ir)?;
            return Ok(NativeCode { llvm_ir, objects: vec![object] });
        };
        let bitcode = split::bitcode(whole.module);
        drop(whole);
        let results: Vec<Result<IrAndObject, String>> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..plan.parts)
                .map(|index| {
                    let (bitcode, plan) = (&bitcode, &plan);
                    // Each thread creates, uses and disposes its own LLVM
                    // context and module (inside the unsafe block above).
                    scope.spawn(move || {
                        let part = split::part(bitcode, plan, index)?;
                        optimize_and_emit(part.module, opt_level, cpu, keep_ir)
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|worker| worker.join().unwrap_or_else(|_| Err("an LLVM code generation thread panicked".into())))
                .collect()
        });
        let mut native = NativeCode { llvm_ir: keep_ir.then(String::new), objects: Vec::new() };
        for (index, result) in results.into_iter().enumerate() {
            let (ir, object) = result?;
            if let (Some(all), Some(ir)) = (native.llvm_ir.as_mut(), ir) {
                all.push_str(&format!("; ---- part {index} of {} (compiled in parallel)\n{ir}", plan.parts));
            }
            native.objects.push(object);
        }
        Ok(native)
    }
}

unsafe fn optimize_and_emit(
    module: LLVMModuleRef,
    opt_level: u8,
    cpu: Option<&str>,
    keep_ir: bool,
) -> Result<IrAndObject, String> {
    let (triple, host_cpu, host_features) = host_target();
    let (cpu, features) = match cpu {
        Some(cpu) => (cpu.to_string(), String::new()),
        None => (host_cpu, host_features),
    };
    let c = |s: &str| CString::new(s).unwrap_or_default();
    let (triple_c, cpu_c, features_c) = (c(&triple), c(&cpu), c(&features));
    let mut target: TargetRef = std::ptr::null_mut();
    let mut error: *mut c_char = std::ptr::null_mut();
    unsafe {
        if LLVMGetTargetFromTriple(triple_c.as_ptr(), &mut target, &mut error) != 0 {
            return Err(format!("no LLVM target for {triple}: {}", take_message(error)));
        }
        let machine = LLVMCreateTargetMachine(
            target,
            triple_c.as_ptr(),
            cpu_c.as_ptr(),
            features_c.as_ptr(),
            CODEGEN_AGGRESSIVE,
            RELOC_PIC,
            CODE_MODEL_DEFAULT,
        );
        if machine.is_null() {
            return Err(format!("cannot create an LLVM target machine for {triple} ({cpu})"));
        }
        LLVMSetTarget(module, triple_c.as_ptr());
        let layout = LLVMCreateTargetDataLayout(machine);
        LLVMSetModuleDataLayout(module, layout);
        LLVMDisposeTargetData(layout);

        let result = run_and_emit(module, machine, opt_level, keep_ir);
        LLVMDisposeTargetMachine(machine);
        result
    }
}

unsafe fn run_and_emit(
    module: LLVMModuleRef,
    machine: TargetMachineRef,
    opt_level: u8,
    keep_ir: bool,
) -> Result<IrAndObject, String> {
    unsafe {
        let passes = CString::new(format!("default<O{}>", opt_level.min(3))).unwrap_or_default();
        let options = LLVMCreatePassBuilderOptions();
        let error = LLVMRunPasses(module, passes.as_ptr(), machine, options);
        LLVMDisposePassBuilderOptions(options);
        if !error.is_null() {
            let message = LLVMGetErrorMessage(error);
            let text = CStr::from_ptr(message).to_string_lossy().into_owned();
            LLVMDisposeErrorMessage(message);
            return Err(format!("LLVM optimization failed: {text}"));
        }
        let llvm_ir = keep_ir.then(|| take_message(LLVMPrintModuleToString(module)));
        let mut message: *mut c_char = std::ptr::null_mut();
        let mut buffer: MemoryBufferRef = std::ptr::null_mut();
        if LLVMTargetMachineEmitToMemoryBuffer(machine, module, OBJECT_FILE, &mut message, &mut buffer) != 0 {
            return Err(format!("LLVM code generation failed: {}", take_message(message)));
        }
        Ok((llvm_ir, take_buffer(buffer)))
    }
}
