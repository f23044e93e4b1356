//! GPU target descriptions: what a GPU we generate code for offers.
//!
//! The GPU pipelines read their numbers from here (multiprocessors, warp
//! size, threads and shared memory per block, the matrix units' shapes and
//! types) instead of hard-coding them, as the cpu pipeline reads
//! [`crate::target::TargetDesc`]. Descriptions are named by the chip
//! (`sm_80`, `sm_86`, `sm_89`, `sm_90`, `gfx1100`); the numbers are the
//! vendors' published ones for the largest part of each chip (A100, RTX
//! 3090-class GA102, L40-class AD102, H100 SXM, Radeon 7900 XTX).

use std::fmt;

/// Who makes the GPU: decides the lowering (NVVM/PTX or ROCDL/AMDGPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuVendor {
    Nvidia,
    Amd,
}

/// One matrix-unit instruction shape: `m x n x k` with its operand and
/// accumulator element types (`f16`, `f32`, `i8`, `i32`).
#[derive(Clone, Debug, PartialEq)]
pub struct MmaShape {
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub operands: &'static str,
    pub accumulator: &'static str,
}

/// The GPU we compile for.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuDesc {
    /// The chip: `sm_90`, `gfx1100`, ...
    pub chip: &'static str,
    pub vendor: GpuVendor,
    /// Streaming multiprocessors (NVIDIA) or compute units (AMD).
    pub multiprocessors: u32,
    /// Threads that execute in lock step: 32 (NVIDIA, RDNA wave32).
    pub warp_size: u32,
    /// Most threads one block may have.
    pub max_threads_per_block: u32,
    /// Most threads resident on one multiprocessor.
    pub max_threads_per_multiprocessor: u32,
    /// Shared memory (LDS) one block may use, in bytes.
    pub shared_bytes_per_block: u32,
    /// Shared memory of one multiprocessor, in bytes.
    pub shared_bytes_per_multiprocessor: u32,
    /// 32-bit registers of one multiprocessor.
    pub registers_per_multiprocessor: u32,
    /// Warps a multiprocessor runs matrix instructions for at once: its
    /// sub-partitions, each with its own tensor core (4 since Volta), or
    /// an RDNA compute unit's SIMDs (2).
    pub mma_units_per_multiprocessor: u32,
    /// PTX ISA features LLVM must target (`+ptx80`); empty for AMD.
    pub features: &'static str,
    /// Matrix-unit shapes (tensor cores, WMMA).
    pub mma: Vec<MmaShape>,
}

fn ampere_mma() -> Vec<MmaShape> {
    vec![
        MmaShape { m: 16, n: 8, k: 16, operands: "f16", accumulator: "f32" },
        MmaShape { m: 16, n: 8, k: 16, operands: "f16", accumulator: "f16" },
        MmaShape { m: 16, n: 8, k: 32, operands: "i8", accumulator: "i32" },
    ]
}

impl GpuDesc {
    /// The chips we have descriptions of.
    pub const CHIPS: &'static [&'static str] = &["sm_80", "sm_86", "sm_89", "sm_90", "gfx1100"];

    /// The description of `chip` (one of [`GpuDesc::CHIPS`]).
    pub fn named(chip: &str) -> Result<Self, String> {
        let nvidia = |chip, multiprocessors, max_threads_per_multiprocessor, shared_block, shared_sm, features| GpuDesc {
            chip,
            vendor: GpuVendor::Nvidia,
            multiprocessors,
            warp_size: 32,
            max_threads_per_block: 1024,
            max_threads_per_multiprocessor,
            shared_bytes_per_block: shared_block,
            shared_bytes_per_multiprocessor: shared_sm,
            registers_per_multiprocessor: 65536,
            mma_units_per_multiprocessor: 4,
            features,
            mma: ampere_mma(),
        };
        Ok(match chip {
            "sm_80" => nvidia("sm_80", 108, 2048, 163 * 1024, 164 * 1024, "+ptx70"),
            "sm_86" => nvidia("sm_86", 82, 1536, 99 * 1024, 100 * 1024, "+ptx71"),
            "sm_89" => nvidia("sm_89", 142, 1536, 99 * 1024, 100 * 1024, "+ptx78"),
            "sm_90" => nvidia("sm_90", 132, 2048, 227 * 1024, 228 * 1024, "+ptx80"),
            "gfx1100" => GpuDesc {
                chip: "gfx1100",
                vendor: GpuVendor::Amd,
                multiprocessors: 96,
                warp_size: 32,
                max_threads_per_block: 1024,
                max_threads_per_multiprocessor: 2048,
                shared_bytes_per_block: 64 * 1024,
                shared_bytes_per_multiprocessor: 128 * 1024,
                registers_per_multiprocessor: 2 * 65536,
                mma_units_per_multiprocessor: 2,
                features: "",
                mma: vec![MmaShape { m: 16, n: 16, k: 16, operands: "f16", accumulator: "f32" }],
            },
            _ => return Err(format!("unknown GPU '{chip}' (known: {})", Self::CHIPS.join(", "))),
        })
    }

    /// The default chip of a vendor's pipeline (`nvgpu`: sm_80, the oldest
    /// we describe, so that the PTX runs on every later GPU).
    pub fn default_for(vendor: GpuVendor) -> Self {
        let chip = match vendor {
            GpuVendor::Nvidia => "sm_80",
            GpuVendor::Amd => "gfx1100",
        };
        Self::named(chip).expect("the default chips are described")
    }

    /// Threads per block for a simple (one element per thread) kernel of
    /// `iterations` work items: a multiple of the warp size, at most 256 (8
    /// warps: several blocks fit on a multiprocessor, so one waiting on
    /// memory leaves others to run), and small enough that the grid covers
    /// every multiprocessor when the work is small.
    pub fn threads_for(&self, iterations: u64) -> u32 {
        let per_multiprocessor = iterations / u64::from(self.multiprocessors.max(1));
        let mut threads = self.warp_size.max(1);
        while threads < 256.min(self.max_threads_per_block) && u64::from(threads) * 2 <= per_multiprocessor {
            threads *= 2;
        }
        threads
    }
}

impl fmt::Display for GpuDesc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "chip: {} ({:?})", self.chip, self.vendor)?;
        writeln!(f, "multiprocessors: {}", self.multiprocessors)?;
        writeln!(f, "warp size: {}", self.warp_size)?;
        writeln!(f, "threads: {} per block, {} per multiprocessor", self.max_threads_per_block, self.max_threads_per_multiprocessor)?;
        writeln!(f, "shared memory: {} B per block, {} B per multiprocessor", self.shared_bytes_per_block, self.shared_bytes_per_multiprocessor)?;
        writeln!(f, "registers: {} per multiprocessor", self.registers_per_multiprocessor)?;
        writeln!(f, "matrix units: {} per multiprocessor", self.mma_units_per_multiprocessor)?;
        let mma: Vec<String> =
            self.mma.iter().map(|s| format!("{}x{}x{} {}->{}", s.m, s.n, s.k, s.operands, s.accumulator)).collect();
        write!(f, "matrix units: {}", mma.join(", "))
    }
}
