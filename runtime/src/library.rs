//! Loading a compiled library and calling its functions.

use crate::manifest::{Function, Manifest, Role};
use crate::pool::Pool;
use std::{
    ffi::c_void,
    fmt,
    path::{Path, PathBuf},
};

/// Why loading or calling failed.
#[derive(Debug, Clone, PartialEq)]
pub enum RuntimeError {
    /// The library or its manifest could not be read.
    Load(String),
    /// A function or symbol is missing.
    Symbol(String),
    /// The arguments do not match the compiled signature.
    Arguments(String),
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuntimeError::Load(m) => write!(f, "cannot load: {m}"),
            RuntimeError::Symbol(m) => write!(f, "missing symbol: {m}"),
            RuntimeError::Arguments(m) => write!(f, "bad arguments: {m}"),
        }
    }
}

impl std::error::Error for RuntimeError {}

/// A loaded shared library and its manifest.
pub struct Library {
    path: PathBuf,
    library: libloading::Library,
    manifest: Manifest,
}

/// The most pointer arguments a call supports (inputs + outputs + pool).
pub const MAX_ARGS: usize = 16;

impl Library {
    /// Loads `path` (a `.so`) and the manifest beside it (`.json`).
    pub fn open(path: &Path) -> Result<Self, RuntimeError> {
        let manifest_path = path.with_extension("json");
        let text = std::fs::read_to_string(&manifest_path)
            .map_err(|e| RuntimeError::Load(format!("{}: {e}", manifest_path.display())))?;
        let manifest: Manifest =
            serde_json::from_str(&text).map_err(|e| RuntimeError::Load(format!("{}: {e}", manifest_path.display())))?;
        // SAFETY: loading runs the library's initializers; polyblocks
        // libraries have none besides libomp's.
        let library = unsafe { libloading::Library::new(path) }
            .map_err(|e| RuntimeError::Load(format!("{}: {e}", path.display())))?;
        Ok(Self { path: path.to_path_buf(), library, manifest })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    pub(crate) fn raw(&self) -> &libloading::Library {
        &self.library
    }

    /// The manifest entry of function `name`.
    pub fn function(&self, name: &str) -> Result<&Function, RuntimeError> {
        self.manifest.functions.iter().find(|f| f.name == name).ok_or_else(|| {
            let names: Vec<_> = self.manifest.functions.iter().map(|f| f.name.as_str()).collect();
            RuntimeError::Symbol(format!("no function '{name}' in {} (has: {})", self.path.display(), names.join(", ")))
        })
    }

    /// Calls `name` with one byte buffer per input and output, in order, and
    /// the pool when the function takes one. Sizes are checked against the
    /// manifest before the call.
    pub fn call(&self, name: &str, buffers: &mut [&mut [u8]], pool: Option<&mut Pool>) -> Result<(), RuntimeError> {
        let function = self.function(name)?;
        let args: Vec<_> = function.args.iter().filter(|a| a.role != Role::UserMemory).collect();
        if let Some(scalar) = args.iter().find(|a| a.by_value) {
            return Err(RuntimeError::Arguments(format!(
                "{name}: argument '{}' is a scalar; the Rust runtime calls buffer-only functions",
                scalar.name
            )));
        }
        if buffers.len() != args.len() {
            return Err(RuntimeError::Arguments(format!(
                "{name} takes {} buffers (inputs then outputs), got {}",
                args.len(),
                buffers.len()
            )));
        }
        for (buffer, arg) in buffers.iter().zip(&args) {
            if buffer.len() as u64 != arg.bytes() {
                return Err(RuntimeError::Arguments(format!(
                    "{name}: buffer '{}' has {} bytes, expected {} ({})",
                    arg.name,
                    buffer.len(),
                    arg.bytes(),
                    arg.mlir_type
                )));
            }
        }
        let mut pointers: Vec<*mut c_void> = buffers.iter_mut().map(|b| b.as_mut_ptr() as *mut c_void).collect();
        match (function.user_memory_bytes, pool) {
            (Some(bytes), Some(pool)) if pool.len() as u64 >= bytes => pointers.push(pool.as_mut_ptr() as *mut c_void),
            (Some(bytes), Some(pool)) => {
                return Err(RuntimeError::Arguments(format!(
                    "{name} needs a pool of {bytes} bytes, got {}",
                    pool.len()
                )))
            }
            (Some(bytes), None) => {
                return Err(RuntimeError::Arguments(format!("{name} needs a pool of {bytes} bytes")))
            }
            (None, Some(_)) => return Err(RuntimeError::Arguments(format!("{name} takes no pool"))),
            (None, None) => {}
        }
        // SAFETY: the symbol is a `void f(void*...)` with exactly these many
        // pointer arguments (from the manifest written with the library), and
        // each buffer has the size the function reads or writes.
        unsafe { self.call_pointers(name, &pointers) }
    }

    /// Calls the library's function `name` with the pointers `p`.
    ///
    /// # Safety
    /// The symbol is a `void name(void *, ...)` taking exactly `p.len()`
    /// pointer arguments, and each pointer is valid for what the function
    /// reads and writes through it.
    unsafe fn call_pointers(&self, name: &str, p: &[*mut c_void]) -> Result<(), RuntimeError> {
        type P = *mut c_void;
        let symbol = format!("{name}\0");
        // SAFETY: the symbol is read as an address only; it is called below
        // with the type the caller's contract gives it.
        let address: libloading::Symbol<*const c_void> =
            unsafe { self.library.get(symbol.as_bytes()) }.map_err(|e| RuntimeError::Symbol(format!("{name}: {e}")))?;
        let f = *address;
        macro_rules! call {
            ($($i:literal),*) => {{
                // SAFETY: per the caller's contract, the symbol is a C
                // function of exactly these many pointer arguments.
                let f: unsafe extern "C" fn($(call!(@ty $i)),*) = unsafe { std::mem::transmute(f) };
                // SAFETY: per the caller's contract, every pointer is valid
                // for what the function reads and writes.
                unsafe { f($(p[$i]),*) }
            }};
            (@ty $i:literal) => { P };
        }
        match p.len() {
            1 => call!(0),
            2 => call!(0, 1),
            3 => call!(0, 1, 2),
            4 => call!(0, 1, 2, 3),
            5 => call!(0, 1, 2, 3, 4),
            6 => call!(0, 1, 2, 3, 4, 5),
            7 => call!(0, 1, 2, 3, 4, 5, 6),
            8 => call!(0, 1, 2, 3, 4, 5, 6, 7),
            9 => call!(0, 1, 2, 3, 4, 5, 6, 7, 8),
            10 => call!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
            11 => call!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
            12 => call!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
            13 => call!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
            14 => call!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13),
            15 => call!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14),
            16 => call!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
            n => {
                return Err(RuntimeError::Arguments(format!(
                    "{name} has {n} arguments; at most {MAX_ARGS} are supported"
                )))
            }
        }
        Ok(())
    }
}
