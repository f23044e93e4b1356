//! Memory pools for code compiled with `-aot-user-memory`: one 64-byte-aligned
//! block of the size the header (or manifest) states, reusable across calls.

use std::alloc::{alloc_zeroed, dealloc, Layout};

/// The alignment the compiler assumes for pool offsets.
pub const POOL_ALIGNMENT: usize = 64;

/// An owned, aligned, zero-initialized block of memory.
pub struct Pool {
    pointer: *mut u8,
    layout: Layout,
}

impl Pool {
    /// A pool of `bytes` bytes (at least one, so the pointer is never null).
    pub fn new(bytes: usize) -> Result<Self, String> {
        let layout = Layout::from_size_align(bytes.max(1), POOL_ALIGNMENT).map_err(|e| e.to_string())?;
        // SAFETY: the layout has a non-zero size.
        let pointer = unsafe { alloc_zeroed(layout) };
        if pointer.is_null() {
            return Err(format!("cannot allocate a memory pool of {bytes} bytes"));
        }
        Ok(Self { pointer, layout })
    }

    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.pointer
    }

    pub fn len(&self) -> usize {
        self.layout.size()
    }

    pub fn is_empty(&self) -> bool {
        false
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { dealloc(self.pointer, self.layout) }
    }
}

// SAFETY: the pool is plain memory it owns alone (the raw pointer is not
// shared); moving it between threads is fine.
unsafe impl Send for Pool {}
