//! `pb-fuse-elementwise`: upstream's elementwise fusion of `linalg.generic`
//! ops on tensors (`linalg-fuse-elementwise-ops`), except into the operands
//! of a contraction.
//!
//! Upstream fuses a single-use elementwise producer into any generic
//! consumer that reads it through a projected permutation, reductions
//! included. Where the consumer is a contraction — it has reduction loops
//! and its map for the operand leaves out one of its loops (a matmul's A
//! misses the column loop `j`, a convolution's input the output channel) —
//! the producer's body then runs once per value of the missing loop instead
//! of once per element: a 1x1 convolution with 512 output channels computes
//! its input's requantization 512 times, and the product is no longer a
//! plain multiply-accumulate that `pb-channels-last`, `pb-matrix-tile` or
//! `pb-register-tile` recognize. Named contractions (`linalg.matmul`,
//! `linalg.conv_2d_*`) were safe (upstream fuses into generics only), but
//! the integer products `pb-integer-contraction` builds are generics: with a
//! quantized model's weight zero points constant zero, the activations'
//! requantization had one reader left, the 1x1 convolutions of ResNet-50
//! took it in, and the model ran 30x slower (11 ms -> 300 ms).
//!
//! Everything else is upstream's pass as MLIR 22 runs it (the same
//! patterns: fusion, reshape folding by expansion, expand_shape bubbling,
//! constant folding, the linalg canonicalizations, under the same greedy
//! driver), plus patterns that move slices towards what they read, so
//! that layout shuffles between elementwise ops vanish (`fusion_shim.cpp`):
//! - a slice above a reshape (upstream's `populateBubbleUpExtractSliceOpPatterns`
//!   for tensors, and our own for a row of a collapsed tensor, which
//!   upstream's refuses at the last index);
//! - a slice within one input of a `tensor.concat` is a slice of that input;
//! - a slice of a `linalg.transpose` is the transpose of the input's slice;
//! - an elementwise generic read only through slices holding no more
//!   elements than it has (a Bayer mosaic's strided planes) is copied per
//!   slice, and a slice (any strides) of a generic with one use is the
//!   generic on its operands' slices (not with `linalg.index` in the body;
//!   upstream's linalg bubble-up pattern is not used: it left the indices
//!   unshifted, and a bilateral grid read the wrong plane);
//! - a `linalg.transpose` read only by elementwise generics, or of one, is
//!   a generic (fusion folds it into the maps); one read by a contraction
//!   stays for `pb-fold-transposes`.
//!
//! A camera pipeline (`torch.stack` of the mosaic's planes, an einsum
//! colour matrix, a gamma) became one elementwise op over the output
//! pixels, reading the mosaic in place (was: a full-size temporary, a
//! stacked buffer, two transposes and a flattened product).
//!
//! ```mlir
//! %q = linalg.generic {iterator_types = ["parallel", "parallel"]} ins(%x) { requantize }
//! %p = linalg.generic {indexing_maps = [(i, j, k) -> (i, k), (i, j, k) -> (k, j), (i, j, k) -> (i, j)],
//!        iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %w) { c + a * b }
//! // stays two ops (upstream: one, requantizing x[i, k] for every j)
//! ```

use melior::ir::OperationRef;
use pb_support::{ffi, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-fuse-elementwise",
    summary: "Upstream elementwise fusion of linalg generics, except into contraction operands",
    description: "Runs the patterns of upstream `linalg-fuse-elementwise-ops` (producer-consumer \
fusion of single-use generics on tensors, reshape folding by expansion, constant folding, linalg \
canonicalizations; slices moved above the reshapes, concatenations, transposes and elementwise ops \
they read; transposes between elementwise ops as generics), refusing to fuse a producer into an operand of a consumer with reduction loops \
whose map for that operand leaves out one of the loops (a contraction: the producer would run again \
for each value of the missing loop).",
    anchor: "func.func",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<FuseElementwise>,
};

#[derive(Clone, Default)]
struct FuseElementwise;

impl RustPass for FuseElementwise {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["linalg", "tensor", "affine", "arith"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        // Non-convergence is not a failure: upstream's pass ignores it too.
        let _converged = ffi::fuse_elementwise(root);
        Ok(())
    }
}
