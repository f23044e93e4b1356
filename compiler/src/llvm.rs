//! The LLVM step: LLVM-dialect MLIR → LLVM IR (MLIR's translation) →
//! optimized (`default<O3>`) → native object code for the host CPU, with the
//! host's features (AVX-512, AMX, ...) taken from LLVM's host detection, not
//! from the CPU name (which can be wrong in VMs).
//!
//! The LLVM C API is linked in with MLIR (static); the few functions we need
//! are declared in `llvm_ffi.rs`, each used behind a safe function here.

use melior::ir::Module;
use crate::split;
use mlir_sys::{LLVMContextRef, LLVMModuleRef};
use crate::llvm_ffi::*;
use std::ffi::{c_char, c_int, CStr, CString};



const CODEGEN_AGGRESSIVE: c_int = 3;
const RELOC_PIC: c_int = 2;
const CODE_MODEL_DEFAULT: c_int = 0;
const OBJECT_FILE: c_int = 1;

/// Takes an LLVM-owned message and returns it as a String.
///
/// # Safety
/// `message` is null or a NUL-terminated message LLVM handed to the caller
/// to dispose; it is disposed here.
unsafe fn take_message(message: *mut c_char) -> String {
    if message.is_null() {
        return String::new();
    }
    // SAFETY: LLVM returns a NUL-terminated string we own and must dispose.
    let text = unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned();
    // SAFETY: the message is ours (as above), disposed once, not used after.
    unsafe { LLVMDisposeMessage(message) };
    text
}

/// The bytes of an LLVM memory buffer, which is then freed.
///
/// # Safety
/// `buffer` is a live buffer owned by the caller; it is disposed here.
pub(crate) unsafe fn take_buffer(buffer: MemoryBufferRef) -> Vec<u8> {
    // SAFETY: (the caller's contract) the buffer holds `LLVMGetBufferSize` bytes.
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
    // SAFETY: these return NUL-terminated strings the caller owns, which
    // `take_message` disposes.
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
///
/// `-unroll-threshold=150` (LLVM's default at O3: 300): our passes unroll
/// and jam what gains from it (register tiles, `pb-unroll-jam`, the
/// vectorizer's interleaving), and LLVM's own unrolling of the loops they
/// leave (a batch norm over 864 channels became 84 copies of its vector
/// body) mostly grew the code: DenseNet-121's optimization and code
/// generation took 4.57 s, 3.41 s at 150 and 3.11 s at 50; but at 50
/// ConvNeXt-T's patchifying convolutions (kernel = stride) lost their
/// unrolled taps (61.2 against 60.0 ms at 150 and at 300). Run time at 150
/// even on ConvNeXt-T, DenseNet-121, jacobi-2d and harris, at 50 on
/// ResNet-18, ResNet-50 batch 8, MobileNetV3, EfficientNet-B0, ViT-B/16,
/// BERT, GPT-2 and camera pipe (engines in one process, docs/performance.md
/// session 55).
///
/// `$POLYBLOCKS_LLVM_OPTIONS` adds LLVM's own command-line options, for
/// engine developers (e.g. `-disable-lsr` to see what loop strength
/// reduction costs in compile and run time); words separated by spaces.
/// Not part of the disk-cache key: use it with an empty cache.
fn set_codegen_options() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let mut words =
            vec![c"pb-compile".to_owned(), c"-combiner-store-merging=0".to_owned(), c"-unroll-threshold=150".to_owned()];
        let extra = std::env::var("POLYBLOCKS_LLVM_OPTIONS").unwrap_or_default();
        words.extend(extra.split_whitespace().filter_map(|w| CString::new(w).ok()));
        let arguments: Vec<*const c_char> = words.iter().map(|w| w.as_ptr()).collect();
        // SAFETY: NUL-terminated strings that outlive the call; LLVM parses
        // them once, before any code generation in this process.
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
        let llvm_module = pb_support::ffi::translate_to_llvm_ir(module, context);
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
        // Parts outnumber the threads (`split::PARTS_PER_THREAD`): each
        // thread takes the next part left until none is, so a part that
        // compiles slower than its size suggests delays no other.
        let next = std::sync::atomic::AtomicUsize::new(0);
        let mut results: Vec<Option<Result<IrAndObject, String>>> = (0..plan.parts).map(|_| None).collect();
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads.min(plan.parts))
                .map(|_| {
                    let (bitcode, plan, next) = (&bitcode, &plan, &next);
                    // Each part creates, uses and disposes its own LLVM
                    // context and module (inside the unsafe block above).
                    scope.spawn(move || {
                        let mut finished = Vec::new();
                        loop {
                            let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            if index >= plan.parts {
                                return finished;
                            }
                            let result = split::part(bitcode, plan, index)
                                .and_then(|part| optimize_and_emit(part.module, opt_level, cpu, keep_ir));
                            finished.push((index, result));
                        }
                    })
                })
                .collect();
            // Joined here, so that a panicking thread (its parts left
            // without a result: an error below) does not panic the scope.
            for (index, result) in workers.into_iter().filter_map(|worker| worker.join().ok()).flatten() {
                results[index] = Some(result);
            }
        });
        let mut native = NativeCode { llvm_ir: keep_ir.then(String::new), objects: Vec::new() };
        for (index, result) in results.into_iter().enumerate() {
            let (ir, object) = result.ok_or("an LLVM code generation thread panicked")??;
            if let (Some(all), Some(ir)) = (native.llvm_ir.as_mut(), ir) {
                all.push_str(&format!("; ---- part {index} of {} (compiled in parallel)\n{ir}", plan.parts));
            }
            native.objects.push(object);
        }
        Ok(native)
    }
}

/// Optimizes `module` and emits its object code (and its IR with `keep_ir`).
///
/// # Safety
/// `module` is a live LLVM module that this thread alone uses meanwhile.
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
    // SAFETY: `module` is live and used by this thread alone (the caller's
    // contract); the C strings outlive the calls; the target machine and
    // data layout created here are disposed here, after their last use.
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

/// # Safety
/// As for [`optimize_and_emit`]; `machine` is a live target machine.
unsafe fn run_and_emit(
    module: LLVMModuleRef,
    machine: TargetMachineRef,
    opt_level: u8,
    keep_ir: bool,
) -> Result<IrAndObject, String> {
    // SAFETY: `module` and `machine` are live and used by this thread alone
    // (the caller's contract); the pass options, error and buffers created
    // here are disposed here, after their last use.
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
