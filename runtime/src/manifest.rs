//! The ABI of compiled functions, as written to `NAME.json` beside each
//! artifact.
//!
//! Every public function is `void name(in..., out..., [pool])`: each tensor a
//! plain pointer to contiguous row-major data owned by the caller, scalars by
//! value, results written in place.

use serde::{Deserialize, Serialize};

/// What an argument is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Input,
    Output,
    /// The caller-provided memory pool (`-aot-user-memory`).
    UserMemory,
}

/// One argument of a compiled function.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Arg {
    pub name: String,
    pub role: Role,
    /// MLIR element type: f32, f64, f16, bf16, i1, i8, i16, i32, i64, index.
    pub dtype: String,
    /// Static shape; empty for scalars and 0-d buffers.
    pub shape: Vec<u64>,
    /// Passed by value (a scalar) rather than as a pointer.
    pub by_value: bool,
    /// The memref type, as the header comment shows it.
    pub mlir_type: String,
}

impl Arg {
    /// Number of elements.
    pub fn elements(&self) -> u64 {
        self.shape.iter().product()
    }

    /// Bytes of the buffer (element size × elements).
    pub fn bytes(&self) -> u64 {
        self.elements() * dtype_bytes(&self.dtype)
    }
}

/// One compiled function.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Function {
    pub name: String,
    pub args: Vec<Arg>,
    /// Bytes the caller must provide as the trailing pool, with `-aot-user-memory`.
    pub user_memory_bytes: Option<u64>,
    /// Offset in the pool of a 32-bit word the caller sets to 0 when the
    /// inputs compiled as static (`--static-args`) are new: the function
    /// then prepares what it keeps from them (packed weights) again, and
    /// sets the word to 1. A fresh pool must start with it 0. `None`:
    /// nothing is kept between calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prepared_flag: Option<u64>,
}

impl Function {
    pub fn inputs(&self) -> impl Iterator<Item = &Arg> {
        self.args.iter().filter(|a| a.role == Role::Input)
    }

    pub fn outputs(&self) -> impl Iterator<Item = &Arg> {
        self.args.iter().filter(|a| a.role == Role::Output)
    }
}

/// Everything a caller needs to call the functions of one artifact.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub engine: String,
    pub functions: Vec<Function>,
    /// Messages of the run-time checks the code contains: after a call, a
    /// nonzero `pb_error_code` (exported global, int32) is the 1-based
    /// position of the check that failed (then reset it to 0).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
    /// Present when compiled with `--profile`: what the slots of the
    /// exported global `pb_profile_ns` (int64) count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<Profile>,
    /// The GPU the library's kernels were compiled for (`sm_90`), when it
    /// has any: it needs `libpb_gpu_runtime.so` loaded first (its `mgpu*`
    /// functions) and a driver at run time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu: Option<String>,
}

/// The slots of `pb_profile_ns`: one per kernel (nanoseconds), then per
/// function two (calls, nanoseconds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Per kernel, in slot order: its function, the op that is the kernel,
    /// and the source locations of its ops (`file:line<caller:line`).
    pub kernels: Vec<ProfiledKernel>,
    /// The functions, in the order of their two slots after the kernels'.
    pub functions: Vec<String>,
}

/// One timed kernel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfiledKernel {
    pub function: String,
    pub op: String,
    pub sources: Vec<String>,
}

/// Bytes of one element of `dtype` (i1 is stored as a byte).
pub fn dtype_bytes(dtype: &str) -> u64 {
    match dtype {
        "complex<f64>" => 16,
        "f64" | "i64" | "index" | "complex<f32>" => 8,
        "f32" | "i32" => 4,
        "f16" | "bf16" | "i16" => 2,
        _ => 1,
    }
}
