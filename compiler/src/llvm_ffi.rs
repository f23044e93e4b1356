//! The LLVM C API the compiler crate calls (object code emission in
//! `llvm.rs`, module splitting in `split.rs`): declarations of the functions
//! (linked in with MLIR, statically) and of their opaque handle types.
//!
//! Every function here is unsafe to call: handles must be live and of the
//! kind named, and ownership follows the LLVM C API's documentation. The
//! callers in `llvm.rs` and `split.rs` are `unsafe fn`s with a `# Safety`
//! section or safe functions whose `unsafe` blocks say in a `// SAFETY:`
//! comment why each call's handles are live.

use mlir_sys::{LLVMContextRef, LLVMModuleRef};
use std::ffi::{c_char, c_int, c_uint, c_void};

pub(crate) type TargetRef = *mut c_void;
pub(crate) type TargetMachineRef = *mut c_void;
pub(crate) type TargetDataRef = *mut c_void;
pub(crate) type MemoryBufferRef = *mut c_void;
pub(crate) type ErrorRef = *mut c_void;
pub(crate) type PassBuilderOptionsRef = *mut c_void;
pub(crate) type ValueRef = *mut c_void;
pub(crate) type TypeRef = *mut c_void;
pub(crate) type BasicBlockRef = *mut c_void;
pub(crate) type AttributeRef = *mut c_void;

extern "C" {
    pub(crate) fn LLVMContextCreate() -> LLVMContextRef;
    pub(crate) fn LLVMContextDispose(context: LLVMContextRef);
    pub(crate) fn LLVMDisposeModule(module: LLVMModuleRef);
    pub(crate) fn LLVMPrintModuleToString(module: LLVMModuleRef) -> *mut c_char;
    pub(crate) fn LLVMDisposeMessage(message: *mut c_char);
    pub(crate) fn LLVMSetTarget(module: LLVMModuleRef, triple: *const c_char);
    pub(crate) fn LLVMSetModuleDataLayout(module: LLVMModuleRef, layout: TargetDataRef);

    pub(crate) fn LLVMInitializeX86TargetInfo();
    pub(crate) fn LLVMInitializeX86Target();
    pub(crate) fn LLVMInitializeX86TargetMC();
    pub(crate) fn LLVMInitializeX86AsmPrinter();
    pub(crate) fn LLVMInitializeX86AsmParser();
    pub(crate) fn LLVMParseCommandLineOptions(argc: c_int, argv: *const *const c_char, overview: *const c_char);

    pub(crate) fn LLVMGetDefaultTargetTriple() -> *mut c_char;
    pub(crate) fn LLVMGetHostCPUName() -> *mut c_char;
    pub(crate) fn LLVMGetHostCPUFeatures() -> *mut c_char;
    pub(crate) fn LLVMGetTargetFromTriple(triple: *const c_char, target: *mut TargetRef, error: *mut *mut c_char) -> c_int;
    pub(crate) fn LLVMCreateTargetMachine(
        target: TargetRef,
        triple: *const c_char,
        cpu: *const c_char,
        features: *const c_char,
        level: c_int,
        reloc: c_int,
        code_model: c_int,
    ) -> TargetMachineRef;
    pub(crate) fn LLVMDisposeTargetMachine(machine: TargetMachineRef);
    pub(crate) fn LLVMCreateTargetDataLayout(machine: TargetMachineRef) -> TargetDataRef;
    pub(crate) fn LLVMDisposeTargetData(data: TargetDataRef);
    pub(crate) fn LLVMTargetMachineEmitToMemoryBuffer(
        machine: TargetMachineRef,
        module: LLVMModuleRef,
        file_type: c_int,
        error: *mut *mut c_char,
        buffer: *mut MemoryBufferRef,
    ) -> c_int;
    pub(crate) fn LLVMGetBufferStart(buffer: MemoryBufferRef) -> *const c_char;
    pub(crate) fn LLVMGetBufferSize(buffer: MemoryBufferRef) -> usize;
    pub(crate) fn LLVMDisposeMemoryBuffer(buffer: MemoryBufferRef);

    pub(crate) fn LLVMCreatePassBuilderOptions() -> PassBuilderOptionsRef;
    pub(crate) fn LLVMDisposePassBuilderOptions(options: PassBuilderOptionsRef);
    pub(crate) fn LLVMRunPasses(
        module: LLVMModuleRef,
        passes: *const c_char,
        machine: TargetMachineRef,
        options: PassBuilderOptionsRef,
    ) -> ErrorRef;
    pub(crate) fn LLVMGetErrorMessage(error: ErrorRef) -> *mut c_char;
    pub(crate) fn LLVMDisposeErrorMessage(message: *mut c_char);
}

extern "C" {
    pub(crate) fn LLVMWriteBitcodeToMemoryBuffer(module: LLVMModuleRef) -> MemoryBufferRef;
    pub(crate) fn LLVMCreateMemoryBufferWithMemoryRangeCopy(data: *const c_char, length: usize, name: *const c_char) -> MemoryBufferRef;
    pub(crate) fn LLVMParseBitcodeInContext2(context: LLVMContextRef, buffer: MemoryBufferRef, module: *mut LLVMModuleRef) -> c_int;

    pub(crate) fn LLVMGetFirstFunction(module: LLVMModuleRef) -> ValueRef;
    pub(crate) fn LLVMGetNextFunction(function: ValueRef) -> ValueRef;
    pub(crate) fn LLVMGetFirstGlobal(module: LLVMModuleRef) -> ValueRef;
    pub(crate) fn LLVMGetNextGlobal(global: ValueRef) -> ValueRef;
    pub(crate) fn LLVMIsDeclaration(global: ValueRef) -> c_int;
    pub(crate) fn LLVMGetLinkage(global: ValueRef) -> c_uint;
    pub(crate) fn LLVMSetLinkage(global: ValueRef, linkage: c_uint);
    pub(crate) fn LLVMGetVisibility(global: ValueRef) -> c_uint;
    pub(crate) fn LLVMSetVisibility(global: ValueRef, visibility: c_uint);
    pub(crate) fn LLVMGetValueName2(value: ValueRef, length: *mut usize) -> *const c_char;
    pub(crate) fn LLVMSetValueName2(value: ValueRef, name: *const c_char, length: usize);
    pub(crate) fn LLVMGlobalGetValueType(global: ValueRef) -> TypeRef;
    pub(crate) fn LLVMReplaceAllUsesWith(old: ValueRef, new: ValueRef);
    pub(crate) fn LLVMAddFunction(module: LLVMModuleRef, name: *const c_char, ty: TypeRef) -> ValueRef;
    pub(crate) fn LLVMDeleteFunction(function: ValueRef);
    pub(crate) fn LLVMAddGlobal(module: LLVMModuleRef, ty: TypeRef, name: *const c_char) -> ValueRef;
    pub(crate) fn LLVMDeleteGlobal(global: ValueRef);
    pub(crate) fn LLVMIsGlobalConstant(global: ValueRef) -> c_int;
    pub(crate) fn LLVMSetGlobalConstant(global: ValueRef, constant: c_int);
    pub(crate) fn LLVMIsThreadLocal(global: ValueRef) -> c_int;
    pub(crate) fn LLVMSetThreadLocal(global: ValueRef, thread_local: c_int);
    pub(crate) fn LLVMGetAlignment(value: ValueRef) -> c_uint;
    pub(crate) fn LLVMSetAlignment(value: ValueRef, bytes: c_uint);
    pub(crate) fn LLVMGetEnumAttributeKindForName(name: *const c_char, length: usize) -> c_uint;
    pub(crate) fn LLVMGetEnumAttributeAtIndex(function: ValueRef, index: c_uint, kind: c_uint) -> AttributeRef;

    pub(crate) fn LLVMGetFirstBasicBlock(function: ValueRef) -> BasicBlockRef;
    pub(crate) fn LLVMGetNextBasicBlock(block: BasicBlockRef) -> BasicBlockRef;
    pub(crate) fn LLVMGetFirstInstruction(block: BasicBlockRef) -> ValueRef;
    pub(crate) fn LLVMGetNextInstruction(instruction: ValueRef) -> ValueRef;
    pub(crate) fn LLVMGetNumOperands(value: ValueRef) -> c_int;
    pub(crate) fn LLVMGetOperand(value: ValueRef, index: c_uint) -> ValueRef;
    pub(crate) fn LLVMIsAFunction(value: ValueRef) -> ValueRef;
}
