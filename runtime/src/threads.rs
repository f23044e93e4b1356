//! The number of threads OpenMP gives parallel loops of loaded code.
//!
//! Generated code uses libomp; its thread count is process-wide. By default
//! it is the number of cores; `set_num_threads` changes it (benchmarks,
//! `OMP_NUM_THREADS`-free control from a host program).

use crate::library::{Library, RuntimeError};

/// Sets the OpenMP thread count through `library`'s libomp. Libraries without
/// parallel loops may not link libomp: then this is an error saying so.
pub fn set_num_threads(library: &Library, threads: usize) -> Result<(), RuntimeError> {
    let threads = i32::try_from(threads.max(1)).unwrap_or(i32::MAX);
    // SAFETY: omp_set_num_threads has this C signature in every libomp.
    unsafe {
        let set: libloading::Symbol<unsafe extern "C" fn(i32)> = library
            .raw()
            .get(b"omp_set_num_threads\0")
            .map_err(|_| RuntimeError::Symbol("omp_set_num_threads (the library does not use OpenMP)".into()))?;
        set(threads);
    }
    Ok(())
}
