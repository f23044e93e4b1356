//! Parallel code generation: one LLVM module cut into parts by function,
//! each part optimized and compiled to its own object, the parts shared
//! among the threads as they become free.
//!
//! LLVM's optimization and code generation of one module run on one core;
//! for a model they are most of the compile time (resnet50: 4 of 7 s). The
//! `cpu` pipeline has already made the module's heavy functions separate:
//! each kernel is an outlined, `noinline` function (`pb-outline-kernels`),
//! called from the public functions. Those functions and the public ones
//! are the *units* a part owns; each part is a copy of the whole module
//! (through bitcode, in a context of its own) in which the units owned by
//! other parts become declarations. Everything else (the OpenMP bodies
//! outlined from a kernel, small helpers, private constants) stays in every
//! copy and is kept by LLVM's dead-code elimination only where it is used.
//! A unit called from another part, and a mutable global shared by parts,
//! is given external linkage with hidden visibility: the parts link into
//! one shared library without exporting it.
//!
//! Code is the same as from one module except across unit boundaries, where
//! nothing is inlined anyway (`noinline`); an internal kernel called from
//! another part keeps the C calling convention instead of LLVM's `fastcc`.

use std::collections::HashMap;
use std::ffi::{c_char, c_uint, CString};

use crate::llvm::{take_buffer, OwnedModule};
use crate::llvm_ffi::*;
use mlir_sys::LLVMModuleRef;



const EXTERNAL_LINKAGE: c_uint = 0;
const INTERNAL_LINKAGE: c_uint = 8;
const PRIVATE_LINKAGE: c_uint = 9;
const HIDDEN_VISIBILITY: c_uint = 1;
const FUNCTION_INDEX: c_uint = !0;

/// Below this many instructions in its units, a module is compiled whole.
/// Measured on 2 cores: two kernels of 118 instructions took 3 ms longer in
/// two parts (the bitcode copies and a second object); a 5-operator MLP of
/// 2,900 instructions 40 ms less (230 -> 190 ms), resnet50 4.5 -> 2.7 s.
const MIN_SPLIT_INSTRUCTIONS: usize = 1000;

/// Parts per code generation thread, taken from a queue. Each part is read
/// from the whole module's bitcode (~60 ms for ResNet-50's), but sizes in
/// instructions predict compile time loosely (a register tile's unrolled
/// block costs more per instruction than a copy loop): with one part per
/// thread, ResNet-50's two took 3.1 and 4.5 s. Its code generation on 2
/// cores, 3 runs each: one part per thread 5.3, 4.8, 5.0 s; two 5.1, 5.0,
/// 5.1; three 4.3, 4.4, 4.6; five 4.3, 4.4, 4.4.
pub(crate) const PARTS_PER_THREAD: usize = 3;

/// Which part owns each unit; part 0 also owns the shared mutable globals.
pub(crate) struct Plan {
    pub parts: usize,
    owner: HashMap<String, usize>,
}

/// The name of a global value ("" for an unnamed one).
unsafe fn name(value: ValueRef) -> String {
    let mut length = 0;
    // SAFETY: (the caller's contract) `value` is a live global value.
    let pointer = unsafe { LLVMGetValueName2(value, &mut length) };
    if pointer.is_null() {
        return String::new();
    }
    // SAFETY: LLVM returns `length` bytes owned by the value.
    String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(pointer as *const u8, length) }).into_owned()
}

unsafe fn set_name(value: ValueRef, text: &str) {
    // SAFETY: (the caller's contract) `value` is a live global value.
    unsafe { LLVMSetValueName2(value, text.as_ptr() as *const c_char, text.len()) }
}

fn is_local(linkage: c_uint) -> bool {
    linkage == INTERNAL_LINKAGE || linkage == PRIVATE_LINKAGE
}

/// The values of an LLVM list: `first`, then `next` of each until null.
fn walk<T>(first: *mut T, next: impl Fn(*mut T) -> *mut T) -> Vec<*mut T> {
    let mut out = Vec::new();
    let mut item = first;
    while !item.is_null() {
        out.push(item);
        item = next(item);
    }
    out
}

unsafe fn functions(module: LLVMModuleRef) -> Vec<ValueRef> {
    // SAFETY: (the caller's contract) `module` is live; iteration does not modify it.
    unsafe { walk(LLVMGetFirstFunction(module), |f| LLVMGetNextFunction(f)) }
}

unsafe fn globals(module: LLVMModuleRef) -> Vec<ValueRef> {
    // SAFETY: (the caller's contract) as for `functions`.
    unsafe { walk(LLVMGetFirstGlobal(module), |g| LLVMGetNextGlobal(g)) }
}

/// The instructions of `function`, and the functions they refer to.
unsafe fn body(function: ValueRef) -> (usize, Vec<ValueRef>) {
    let (mut count, mut referenced) = (0, Vec::new());
    // SAFETY: (the caller's contract) `function` is a live function; read only.
    unsafe {
        for block in walk(LLVMGetFirstBasicBlock(function), |b| LLVMGetNextBasicBlock(b)) {
            for instruction in walk(LLVMGetFirstInstruction(block), |i| LLVMGetNextInstruction(i)) {
                count += 1;
                for i in 0..LLVMGetNumOperands(instruction).max(0) as c_uint {
                    let operand = LLVMGetOperand(instruction, i);
                    if !operand.is_null() && !LLVMIsAFunction(operand).is_null() {
                        referenced.push(operand);
                    }
                }
            }
        }
    }
    (count, referenced)
}

/// Gives every unnamed global value a name (parts refer to each other's by
/// name); the same names in every copy, as the copies keep the order.
unsafe fn name_unnamed(module: LLVMModuleRef) {
    // SAFETY: (the caller's contract) `module` is live and used by this thread alone.
    unsafe {
        for (i, value) in functions(module).into_iter().chain(globals(module)).enumerate() {
            if name(value).is_empty() {
                set_name(value, &format!("__pb_part_value_{i}"));
            }
        }
    }
}

/// Splits `module`'s units among at most `threads` x [`PARTS_PER_THREAD`]
/// parts, balancing their instruction counts (with the helpers each unit
/// alone uses), or `None` when one part would do.
pub(crate) unsafe fn plan(module: LLVMModuleRef, threads: usize) -> Option<Plan> {
    if threads < 2 {
        return None;
    }
    // SAFETY: (the caller's contract) `module` is live and used by this thread alone.
    unsafe {
        let noinline = LLVMGetEnumAttributeKindForName(c"noinline".as_ptr(), "noinline".len());
        let defined: Vec<ValueRef> = functions(module).into_iter().filter(|f| LLVMIsDeclaration(*f) == 0).collect();
        let is_unit = |f: ValueRef| {
            !is_local(LLVMGetLinkage(f)) || !LLVMGetEnumAttributeAtIndex(f, FUNCTION_INDEX, noinline).is_null()
        };
        let bodies: HashMap<ValueRef, (usize, Vec<ValueRef>)> = defined.iter().map(|f| (*f, body(*f))).collect();
        let mut units: Vec<(String, usize)> = Vec::new();
        for f in defined.iter().copied().filter(|f| is_unit(*f)) {
            // The unit's size with the non-unit functions it reaches (the
            // OpenMP bodies outlined from it).
            let (mut size, mut stack, mut seen) = (0, vec![f], vec![f]);
            while let Some(g) = stack.pop() {
                let Some((count, referenced)) = bodies.get(&g) else { continue };
                size += count;
                for r in referenced {
                    if !seen.contains(r) && bodies.contains_key(r) && !is_unit(*r) {
                        seen.push(*r);
                        stack.push(*r);
                    }
                }
            }
            units.push((name(f), size));
        }
        let total: usize = units.iter().map(|(_, size)| size).sum();
        let parts = (threads * PARTS_PER_THREAD).min(units.len());
        if parts < 2 || total < MIN_SPLIT_INSTRUCTIONS || units.iter().any(|(n, _)| n.is_empty()) {
            return None;
        }
        // Largest first, each to the lightest part.
        units.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let mut load = vec![0usize; parts];
        let mut owner = HashMap::new();
        for (unit, size) in units {
            let part = (0..parts).min_by_key(|p| load[*p]).unwrap_or(0);
            load[part] += size;
            owner.insert(unit, part);
        }
        Some(Plan { parts, owner })
    }
}

/// `module` as bitcode.
pub(crate) unsafe fn bitcode(module: LLVMModuleRef) -> Vec<u8> {
    // SAFETY: (the caller's contract) `module` is live; the buffer is copied, then freed.
    unsafe {
        name_unnamed(module);
        take_buffer(LLVMWriteBitcodeToMemoryBuffer(module))
    }
}

/// Part `index` of `plan`: the module read from `bitcode` into a new
/// context, with the units other parts own turned into declarations.
pub(crate) unsafe fn part(bitcode: &[u8], plan: &Plan, index: usize) -> Result<OwnedModule, String> {
    // SAFETY: everything created here belongs to the returned value or is
    // freed here; the bitcode is copied into LLVM's buffer.
    unsafe {
        let context = LLVMContextCreate();
        let label = CString::new(format!("part{index}")).unwrap_or_default();
        let buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(bitcode.as_ptr() as *const c_char, bitcode.len(), label.as_ptr());
        let mut module: LLVMModuleRef = std::ptr::null_mut();
        let failed = LLVMParseBitcodeInContext2(context, buffer, &mut module) != 0;
        LLVMDisposeMemoryBuffer(buffer);
        if failed || module.is_null() {
            LLVMContextDispose(context);
            return Err(format!("cannot read back part {index} of the module's bitcode"));
        }
        let owned = OwnedModule::new(context, module);
        restrict(module, plan, index);
        Ok(owned)
    }
}

unsafe fn restrict(module: LLVMModuleRef, plan: &Plan, index: usize) {
    // SAFETY: (the caller's contract) `module` is live and used by this thread alone.
    unsafe {
        for f in functions(module) {
            let Some(&owner) = plan.owner.get(&name(f)) else { continue };
            let local = is_local(LLVMGetLinkage(f));
            if owner == index {
                if local {
                    LLVMSetLinkage(f, EXTERNAL_LINKAGE);
                    LLVMSetVisibility(f, HIDDEN_VISIBILITY);
                }
            } else {
                declare_function(module, f, local);
            }
        }
        for g in globals(module) {
            let linkage = LLVMGetLinkage(g);
            if LLVMIsDeclaration(g) != 0 || (is_local(linkage) && LLVMIsGlobalConstant(g) != 0) {
                continue; // declared, or a private constant: each part has its copy
            }
            if index == 0 {
                if is_local(linkage) {
                    LLVMSetLinkage(g, EXTERNAL_LINKAGE);
                    LLVMSetVisibility(g, HIDDEN_VISIBILITY);
                }
            } else {
                declare_global(module, g, is_local(linkage) || LLVMGetVisibility(g) == HIDDEN_VISIBILITY);
            }
        }
    }
}

/// Replaces function `f` by a declaration of the same name and type.
unsafe fn declare_function(module: LLVMModuleRef, f: ValueRef, hidden: bool) {
    // SAFETY: (the caller's contract) `f` belongs to `module`; its uses move to the
    // declaration before it is erased (which drops its body's references).
    unsafe {
        let original = name(f);
        set_name(f, &format!("{original}.pb_defined_elsewhere"));
        let c_name = CString::new(original).unwrap_or_default();
        let declaration = LLVMAddFunction(module, c_name.as_ptr(), LLVMGlobalGetValueType(f));
        LLVMReplaceAllUsesWith(f, declaration);
        LLVMDeleteFunction(f);
        LLVMSetLinkage(declaration, EXTERNAL_LINKAGE);
        if hidden {
            LLVMSetVisibility(declaration, HIDDEN_VISIBILITY);
        }
    }
}

/// Replaces global variable `g` by a declaration of the same name and type.
unsafe fn declare_global(module: LLVMModuleRef, g: ValueRef, hidden: bool) {
    // SAFETY: (the caller's contract) as for `declare_function`.
    unsafe {
        let original = name(g);
        set_name(g, &format!("{original}.pb_defined_elsewhere"));
        let c_name = CString::new(original).unwrap_or_default();
        let declaration = LLVMAddGlobal(module, LLVMGlobalGetValueType(g), c_name.as_ptr());
        LLVMSetGlobalConstant(declaration, LLVMIsGlobalConstant(g));
        LLVMSetThreadLocal(declaration, LLVMIsThreadLocal(g));
        LLVMSetAlignment(declaration, LLVMGetAlignment(g));
        LLVMReplaceAllUsesWith(g, declaration);
        LLVMDeleteGlobal(g);
        LLVMSetLinkage(declaration, EXTERNAL_LINKAGE);
        if hidden {
            LLVMSetVisibility(declaration, HIDDEN_VISIBILITY);
        }
    }
}
