//! `pb-vectorize`: turn innermost affine loops into SIMD loops of the
//! target's vector width, with a scalar remainder loop.
//!
//! A loop qualifies when it is innermost, has constant bounds, step 1, at
//! least `width` iterations, and its body holds only:
//! - `affine.load`/`affine.store` whose last index is `iv + e` (`e` free of
//!   `iv`) and other indices free of `iv` (contiguous: become
//!   `affine.vector_load`/`affine.vector_store`), loads whose last index is
//!   `2 * iv + e` (stride 2: a strided convolution's or pooling's input
//!   row; two vector loads, the second ending at the last element the
//!   iteration reads, and a `vector.shuffle` of the even elements), loads
//!   whose last index is `(iv + c) floordiv d + e` (an upsampled row, each
//!   element `d` times, `d` dividing the width: `width / d` elements loaded,
//!   two loads when the vector iterations start mid-group, and a shuffle
//!   repeating them), or loads with no index depending on `iv` (uniform:
//!   stay scalar, broadcast where needed). "Last index" skips trailing dimensions of extent 1 in an
//!   identity-layout memref (`x[n, c, 0, 0]` of a pooled `N x C x 1 x 1`
//!   array moves with `c` through consecutive elements): those accesses go
//!   through a `memref.collapse_shape` view without them;
//! - `arith`/`math` ops on scalars (cloned with vector types; operands that
//!   do not vary with `iv` are broadcast);
//! - gathers: `memref.load`s from a statically shaped identity-layout array
//!   of fewer than 2^31 elements that the loop does not store into, at
//!   indices computed in the body (`arith` ops on `index` values whose
//!   results only address gathers, the loop index among their operands as
//!   `iv + [0, 1, ..]`): one `vector.gather` from the array as one
//!   dimension at 32-bit row-major offsets; a gather whose indices do not
//!   vary stays a scalar load, broadcast;
//! - reductions (below).
//!
//! **Reductions.** A value combined across iterations with one associative
//! and commutative op is kept in a vector accumulator: lane `l` combines
//! iterations `l, l + width, ...`; after the vector loop `vector.reduction`
//! combines the lanes and the value the accumulator had before the loop, and
//! the scalar remainder loop continues from there. Two forms are recognized,
//! in which the accumulator is used by nothing but its combining op:
//! - through memory, as `affine-scalrep` leaves linalg's reductions (softmax
//!   and layernorm row sums and maxima): `%a = affine.load %m[e]`,
//!   `%s = <op> %a, %x`, `affine.store %s, %m[e]`, with `e` free of `iv`
//!   and no other access to `%m` in the loop;
//! - loop-carried: `affine.for ... iter_args(%a = %init)` yielding
//!   `<op> %a, %x`; every `iter_args` value must be such a reduction.
//!
//! The ops, with the vector accumulator's initial splat (the op's identity):
//! `arith.maximumf` (-inf) and `arith.minimumf` (+inf), exact in any order
//! (up to the sign of a zero result with `reassociate`, below);
//! `arith.addi`/`muli`/`andi`/`ori`/`xori`/`maxsi`/`minsi`/`maxui`/`minui`
//! (0, 1, all ones, 0, 0, min, max, 0, all ones), exact in any order
//! (not with `nsw`/`nuw` flags: partial sums in another order may overflow
//! where the sequential ones did not); and
//! `arith.addf` (-0.0) and `arith.mulf` (1.0), only with `reassociate`:
//! summing lanes separately changes the rounding of a float sum. That is the
//! trade every fast reduction makes (BLAS dot products, PyTorch's and
//! NumPy's own vectorized/pairwise sums): results agree with a sequential
//! sum within the usual tolerance (the error bound of a sum of `n` terms is
//! the same order, and splitting into `width` partial sums usually lowers
//! it), so the option defaults to true and the cpu pipeline keeps it;
//! `reassociate=false` leaves float sums and products scalar and every
//! rewrite bit-exact. With it, a vectorized division by a loop-invariant
//! value is also marked `arcp` (multiplied by the reciprocal, computed once:
//! a softmax's normalization, within 1 ulp of the division) unless the
//! quotient reaches a floor, a comparison or an integer conversion, where
//! one ulp can change the result entirely (`x // y`), and the vector
//! `maximumf`/`minimumf` of a reduction is marked `nsz`: a zero extremum may
//! come out as either zero (`-0.0 == +0.0`; PyTorch's vectorized max does
//! the same), NaN still propagates, and on x86 the step is `vmaxps` plus a
//! NaN fix-up instead of six dependent instructions. The final
//! `vector.reduction` of a float sum carries `fastmath<reassoc>` so LLVM
//! combines the lanes as a tree.
//!
//! A single vector accumulator would make the loop a chain of dependent
//! combining ops (latency-bound: on x86 `maximumf` is several dependent
//! instructions, for NaNs and signed zeros). With `accumulators=N` (default 4) each reduction has N vector
//! accumulators used in turn: the loop yields `(a1, ..., aN-1, a0 <op> x)`,
//! so N chains are in flight; after the loop they are combined pairwise.
//!
//! A long float sum (each of the `width * N` running sums adding more than
//! 64 terms) is summed in blocks: an outer loop over blocks carries the
//! totals and the vector loop starts each block from the identity, each
//! running sum adding about `sqrt(t)` of its `t` terms per block. The
//! rounding error then grows like `sqrt(t)` rather than `t`, as in a
//! cascade sum (an instance norm's mean over 8.4M float32 values was off
//! by 2e-6 relative, PyTorch's by 1e-7), for one vector add per block.
//!
//! **Latency-bound bodies.** A body evaluating a transcendental function
//! (`math.exp`, `expm1`, `log`, `log1p`, `tanh`, `erf`, `powf`: each
//! later a polynomial of 30-100 dependent ops, `pb-expand-math`) is one
//! long dependence chain per vector: the core's schedulers fill with its
//! waiting ops and it runs far below its issue width. Such a loop takes
//! `interleave` times the width; LLVM splits each wide op into native ones
//! side by side, two independent chains the core overlaps (the spec's
//! "interleaving"). Camera pipe's demosaic, colour matrix and gamma on
//! AVX2: 6.2 -> 4.6 ms. Bodies of loads, stores and a few arithmetic ops
//! stay at the native width (memory-bound; LLVM unrolls them).
//!
//! **Short loops.** What the vector loop leaves (or a loop shorter than a
//! vector: the 7 or 14 columns of a small feature map) takes vectors of
//! half the width, down to 2 lanes. When that would take several (7 = 4 +
//! 2 + 1, the last scalar: three copies of the body) it runs instead as
//! one iteration of the next power of two lanes with those past the end
//! masked off (`vector.create_mask`, `vector.maskedload` reading zeros
//! there, `vector.maskedstore`), if the body allows: element-wise over
//! contiguous and uniform accesses, no reduction (it would combine the
//! masked lanes), no gather or strided load (their extra loads are not
//! masked), no integer division (a zero lane would trap), and no memref
//! both read and written (LLVM keeps a row that a loop adds into in
//! registers between plain stores and loads, not masked ones: a depthwise
//! convolution's taps over 7x7 maps ran 1.5x slower masked). Only with
//! `masked`, which the cpu pipeline sets for targets with AVX-512 (mask
//! registers make masked loads and stores as cheap as plain ones; AVX2's
//! `vmaskmovps` stores are microcoded on some CPUs, and valgrind, which
//! checks the AVX2 builds, runs out of translation space on them).
//!
//! **Aligned stores.** A stencil's interior starts at column 1 (`b[1:-1,
//! 1:-1] = ...`), so a vector loop from there stores and loads vectors
//! that straddle vector boundaries, half of them across two cache lines
//! (two accesses each on AMD Zen 3: a 5-point stencil's loop ran 4.5
//! cycles per vector against 3.8 with its store and centre aligned, in a
//! C loop over L2-resident rows). With `align` (the cpu pipeline sets it),
//! a loop of at least 4 vectors, step 1 and constant bounds, whose first
//! store is contiguous at `iv + c` in a statically shaped identity-layout
//! memref whose rows hold whole vectors, first runs the iterations up to
//! the store's next vector boundary as a loop of their own (vectorized as
//! any short loop), then the vector loop from there. Buffers are aligned
//! (ours at 64 bytes; the runtime's and PyTorch's allocations too), so the
//! store's vectors are. jacobi-2d: 3.78 -> 3.64 ms.
//!
//! Loops with an outer reduction and a contiguous parallel loop inside
//! (column sums: `acc[j] += a[k][j]` with `j` innermost) need nothing
//! special: the store moves with the inner loop and is vectorized as usual.
//!
//! It refuses, leaving the loop scalar:
//! - stores whose address does not move with `iv` and are not a recognized
//!   reduction (an invariant store, a non-associative update such as
//!   `acc = acc - x`, an accumulator read elsewhere in the loop);
//! - a memref both stored and accessed at another address in the loop
//!   (`a[i] = a[i-1]`: a dependence carried by the loop);
//! - views (subview, cast, ...) that may overlap another accessed memref;
//! - contiguous loads and stores of elements narrower than a byte (`i1`:
//!   memory holds a byte per bool, a vector of them is packed into bits);
//! - anything else: index arithmetic on `iv`, nested regions, calls,
//!   `iter_args` values that are not reductions.
//!
//! ```mlir
//! affine.for %i = 0 to 37 {
//!   %x = affine.load %a[%i] : memref<37xf32>
//!   %y = arith.mulf %x, %c : f32
//!   affine.store %y, %b[%i] : memref<37xf32>
//! }
//! // with width=16 becomes
//! affine.for %i = 0 to 32 step 16 {
//!   %x = affine.vector_load %a[%i] : memref<37xf32>, vector<16xf32>
//!   %cv = vector.broadcast %c : f32 to vector<16xf32>
//!   %y = arith.mulf %x, %cv : vector<16xf32>
//!   affine.vector_store %y, %b[%i] : memref<37xf32>, vector<16xf32>
//! }
//! affine.for %i = 32 to 37 { ...the original scalar body... }
//!
//! affine.for %k = 0 to 40 {
//!   %x = affine.load %in[%r, %k] : memref<8x40xf32>
//!   %a = affine.load %acc[%r] : memref<8xf32>
//!   %s = arith.addf %a, %x : f32
//!   affine.store %s, %acc[%r] : memref<8xf32>
//! }
//! // with width=16 accumulators=1 becomes
//! %zero = arith.constant dense<-0.0> : vector<16xf32>
//! %v = affine.for %k = 0 to 32 step 16 iter_args(%va = %zero) -> (vector<16xf32>) {
//!   %x = affine.vector_load %in[%r, %k] : memref<8x40xf32>, vector<16xf32>
//!   %s = arith.addf %va, %x : vector<16xf32>
//!   affine.yield %s : vector<16xf32>
//! }
//! %a = affine.load %acc[%r] : memref<8xf32>
//! %t = vector.reduction <add>, %v, %a fastmath<reassoc> : vector<16xf32> into f32
//! affine.store %t, %acc[%r] : memref<8xf32>
//! affine.for %k = 32 to 40 { ...the original scalar body... }
//! ```

use crate::affine_access::{
    access_kind, access_kind_before, constant_bound, constant_map, defined_in, dim_plus_constant, elementwise, is_named, is_view,
    same_address, same_value, Access,
};
use melior::{
    ir::{
        attribute::{ArrayAttribute, IntegerAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, WalkOrder},
        r#type::{IntegerType, MemRefType, ShapedTypeLike},
        Attribute, Block, BlockRef, Identifier, Location, OperationRef, Region, RegionLike, Type, TypeLike, Value,
        ValueLike,
    },
    Context, IrRewriter,
};
use pb_support::{builder, ffi, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};
use std::collections::HashMap;

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-vectorize",
    summary:
        "Vectorize innermost affine loops with contiguous accesses and reductions (vector loop + scalar remainder)",
    description: "Rewrites each qualifying innermost `affine.for` into a loop of step `width` over \
`affine.vector_load`/`affine.vector_store` and vector `arith`/`math` ops, followed by the original \
loop for the remaining iterations. Reductions (an accumulator in memory at an address free of the \
loop, or an `iter_args` value, combined by one associative op) use a vector accumulator and a final \
`vector.reduction`; float sums and products only with `reassociate`. Refuses other loop-carried \
dependences and invariant stores, possibly overlapping views and non-elementwise ops. What remains \
(or a loop shorter than `width`) takes vectors of half the width, or, when its trip count is not a \
power of two and its body is element-wise over contiguous accesses with no memref both read and \
written and `masked` is set, one iteration of masked loads and stores \
(`vector.maskedload`/`maskedstore`). With `align`, a long loop whose store starts mid-vector in \
rows of whole vectors first runs the iterations up to the store's next vector boundary, so that the \
vector loop stores aligned vectors. The cpu pipeline sets `width` to the target's f32 lanes, \
`masked` where the target has AVX-512's mask registers, and `align`.",
    anchor: "func.func",
    options: &[
        PassOption {
            name: "width",
            kind: OptionKind::UInt,
            default: "8",
            help: "Vector length in elements (16 for f32 on AVX-512)",
        },
        PassOption {
            name: "accumulators",
            kind: OptionKind::UInt,
            default: "4",
            help: "Vector accumulators per reduction, updated in turn: independent chains hide the latency \
of the combining op (1: a single chain)",
        },
        PassOption {
            name: "interleave",
            kind: OptionKind::UInt,
            default: "1",
            help: "Loops whose body evaluates a transcendental math op (exp, expm1, log, log1p, tanh, erf, \
powf) take this many times `width`: independent chains side by side for a latency-bound body",
        },
        PassOption {
            name: "masked",
            kind: OptionKind::Bool,
            default: "false",
            help: "Run a short remainder whose trip count is not a power of two as one masked vector \
iteration (cheap with AVX-512's mask registers; AVX2's vmaskmov stores are slow on some CPUs)",
        },
        PassOption {
            name: "align",
            kind: OptionKind::Bool,
            default: "false",
            help: "Peel the first iterations of a long loop whose store would start mid-vector, so that \
the vector loop stores whole aligned vectors (see \"Aligned stores\")",
        },
        PassOption {
            name: "reassociate",
            kind: OptionKind::Bool,
            default: "true",
            help: "Vectorize float sum and product reductions (changes rounding, like any fast sum); \
max/min and integer reductions are exact and always vectorized",
        },
    ],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(Vectorize {
        width: options.uint("width").max(1),
        accumulators: options.uint("accumulators").max(1),
        interleave: options.uint("interleave").max(1),
        reassociate: options.bool("reassociate"),
        masked: options.bool("masked"),
        align: options.bool("align"),
    })
}

#[derive(Clone)]
struct Vectorize {
    width: u64,
    accumulators: u64,
    /// Width factor for latency-bound bodies (see "Latency-bound bodies").
    interleave: u64,
    reassociate: bool,
    /// Masked remainders (see "Short loops").
    masked: bool,
    /// Aligned stores (see "Aligned stores").
    align: bool,
}

impl RustPass for Vectorize {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["affine", "arith", "math", "memref", "vector"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        if self.width < 2 {
            return Ok(());
        }
        let loops = ffi::collect_ops(root, WalkOrder::PostOrder, |op| is_named(op, "affine.for"));
        for candidate in loops {
            if self.align {
                if let Some(peel) = alignment_peel(candidate, self.width) {
                    let prologue = split_before(ffi::context_of(candidate), candidate, peel);
                    self.vectorize_loop(prologue);
                }
            }
            self.vectorize_loop(candidate);
        }
        Ok(())
    }
}

impl Vectorize {
    /// Vectorizes `candidate` if it qualifies: the main vector loop, then
    /// what remains at half the width (or masked).
    fn vectorize_loop(&self, candidate: OperationRef) {
        {
            // A loop shorter than a vector (the 14 or 7 columns of a small
            // feature map), or what remains after the vector loop, takes
            // vectors of half the width, down to 2 lanes: 14 columns run as
            // 8 + 4 + 2 lanes instead of 14 scalar iterations (an
            // exponential per element in EfficientNet's SiLU on 14x14 and
            // 7x7 maps).
            let mut width = if self.interleave > 1 && latency_bound(candidate) { self.width * self.interleave } else { self.width };
            loop {
                let trip = constant_bound(candidate, "upperBoundMap").zip(constant_bound(candidate, "lowerBoundMap")).map(|(u, l)| u - l);
                let Some(trip) = trip else { break };
                // Fewer iterations than a vector, not a power of two (7
                // columns, or 12 left after a 16-lane loop over 28): one
                // masked vector iteration where halving would take 4 + 2
                // + 1 lanes (three copies of the body, the last scalar).
                if self.masked && trip > 2 && trip < self.width as i64 && !(trip as u64).is_power_of_two() {
                    let lanes = (trip as u64).next_power_of_two();
                    if let Some(plan) = analyze_masked(candidate, lanes, self.reassociate) {
                        ffi::with_context(candidate, |context| apply_masked(context, candidate, &plan, lanes, trip));
                        break;
                    }
                }
                while width > 2 && trip < width as i64 {
                    width /= 2;
                }
                let Some(plan) = analyze(candidate, width, self.reassociate) else { break };
                let whole = plan.main_end == plan.upper;
                ffi::with_context(candidate, |context| {
                    apply(context, candidate, &plan, width, self.accumulators);
                });
                if whole || width <= 2 {
                    break;
                }
                width /= 2;
            }
        }
    }
}

/// How many iterations to run before the vector loop so that its store
/// writes whole vectors at vector-aligned addresses (see "Aligned
/// stores"), when that is not already so: a long loop (at least 4
/// vectors) of step 1 with constant bounds and no results whose first
/// store is contiguous at `iv + c` in a statically shaped identity-layout
/// memref whose rows hold whole vectors (its last extent a multiple of
/// `width`), so that the element's place in its vector is `(iv + c) mod
/// width` in every row, the buffer itself aligned (allocations are).
fn alignment_peel(candidate: OperationRef, width: u64) -> Option<i64> {
    let width = width as i64;
    let step = candidate.attribute("step").ok().and_then(|a| IntegerAttribute::try_from(a).ok())?.value();
    let (lower, upper) = (constant_bound(candidate, "lowerBoundMap")?, constant_bound(candidate, "upperBoundMap")?);
    if step != 1 || candidate.result_count() != 0 || upper - lower < 4 * width {
        return None;
    }
    let body = candidate.region(0).ok()?.first_block()?;
    let iv: Value = body.argument(0).ok()?.into();
    let mut next = body.first_operation();
    let store = loop {
        let op = next?;
        if is_named(op, "affine.store") {
            break op;
        }
        next = op.next_in_block();
    };
    if access_kind(store, 2, iv, body) != Some(Access::Contiguous) {
        return None;
    }
    let memref = MemRefType::try_from(store.operand(1).ok()?.r#type()).ok()?;
    let rank = memref.rank();
    if rank == 0 || !ffi::has_identity_layout(memref) || (0..rank).any(|d| extent(memref, d) <= 0) || extent(memref, rank - 1) % width != 0 {
        return None;
    }
    // The last index: `iv` or `iv + c` (`c + iv`).
    let map = ffi::affine_map_of(store.attribute("map").ok()?)?;
    let position = store.operands().skip(2).position(|v| same_value(v, iv))?;
    let offset = dim_plus_constant(map.result(map.result_count() - 1).ok()?, position)?;
    let misplaced = (lower + offset).rem_euclid(width);
    (misplaced != 0).then_some(width - misplaced)
}

/// Splits `original` (constant bounds) after its first `count`
/// iterations: a copy running them is inserted before it, and `original`
/// starts after them. Returns the copy.
fn split_before<'c, 'a>(context: &'c Context, original: OperationRef<'c, 'a>, count: i64) -> OperationRef<'c, 'a> {
    let lower = constant_bound(original, "lowerBoundMap").expect("constant lower bound");
    let block = original.block().expect("a loop in a block");
    let copy = block.insert_operation_before(original, ffi::clone_operation(original));
    ffi::set_attribute(copy, "upperBoundMap", constant_map(context, lower + count));
    ffi::set_attribute(original, "lowerBoundMap", constant_map(context, lower + count));
    copy
}

/// Does the body of `candidate` evaluate a transcendental math op (see
/// "Latency-bound bodies")?
fn latency_bound(candidate: OperationRef) -> bool {
    const LONG: [&str; 7] = ["math.exp", "math.expm1", "math.log", "math.log1p", "math.tanh", "math.erf", "math.powf"];
    !ffi::collect_ops(candidate, WalkOrder::PreOrder, |op| LONG.iter().any(|name| is_named(op, name))).is_empty()
}

/// Is `op` the combining step of a float max/min reduction of `plan`?
fn is_signed_zero_extremum_step(plan: &Plan, op: OperationRef) -> bool {
    plan.reductions.iter().any(|r| {
        r.step.to_raw().ptr == op.to_raw().ptr && matches!(r.combiner.kind, "maximumf" | "minimumf")
    })
}

/// How the scalar loop maps to the vector loop.
struct Plan<'c, 'a> {
    lower: i64,
    main_end: i64,
    upper: i64,
    /// Loop-carried values first (in `iter_args` order), then those through
    /// memory; the vector loop carries `accumulators` vectors for each.
    reductions: Vec<Reduction<'c, 'a>>,
    /// With `reassociate`: divisions by a loop-invariant value may become
    /// multiplications by its reciprocal, and max/min reductions ignore the
    /// sign of zeros (see where `apply` adds `arcp` and `nsz`).
    relaxed: bool,
    /// Loads and stores moving with the loop, in body order: the op, how it
    /// moves (contiguous or stride 2) and along which index, as the number
    /// of trailing dimensions of extent 1 after it (`x[n, c, 0, 0]`: 2).
    /// Accesses with such dimensions go through a view without them.
    moving: Vec<(OperationRef<'c, 'a>, Access, usize)>,
}

/// A reduction of the scalar loop.
struct Reduction<'c, 'a> {
    /// The scalar accumulator inside the body: the `iter_args` block argument
    /// or the load's result.
    accumulator: Value<'c, 'a>,
    /// The combining op `<op> accumulator, x`: its result is stored or
    /// yielded.
    step: OperationRef<'c, 'a>,
    combiner: Combiner,
    carrier: Carrier<'c, 'a>,
}

enum Carrier<'c, 'a> {
    /// `iter_args` value number `n` (operand, block argument `n + 1`, result).
    Carried(usize),
    /// `%a = affine.load %m[e]` ... `affine.store %s, %m[e]`.
    Memory { load: OperationRef<'c, 'a>, store: OperationRef<'c, 'a> },
}

/// A combining op: its `vector.reduction` kind and identity.
#[derive(Clone, Copy)]
struct Combiner {
    kind: &'static str,
    identity: Identity,
    /// Float sum or product: reassociating changes rounding.
    reassociates: bool,
}

#[derive(Clone, Copy)]
enum Identity {
    Zero,
    NegativeZero,
    One,
    AllOnes,
    SignedMin,
    SignedMax,
    NegativeInfinity,
    PositiveInfinity,
}

fn combiner(op_name: &str) -> Option<Combiner> {
    use Identity::*;
    let (kind, identity, reassociates) = match op_name {
        "arith.addf" => ("add", NegativeZero, true),
        "arith.mulf" => ("mul", One, true),
        "arith.maximumf" => ("maximumf", NegativeInfinity, false),
        "arith.minimumf" => ("minimumf", PositiveInfinity, false),
        "arith.addi" => ("add", Zero, false),
        "arith.muli" => ("mul", One, false),
        "arith.andi" => ("and", AllOnes, false),
        "arith.ori" => ("or", Zero, false),
        "arith.xori" => ("xor", Zero, false),
        "arith.maxsi" => ("maxsi", SignedMin, false),
        "arith.minsi" => ("minsi", SignedMax, false),
        "arith.maxui" => ("maxui", Zero, false),
        "arith.minui" => ("minui", AllOnes, false),
        _ => return None,
    };
    Some(Combiner { kind, identity, reassociates })
}

/// The literal of `identity` for a scalar type (f16, bf16, f32, f64, or an
/// integer of 1 to 64 bits), as written in a `dense<...>` attribute.
fn identity_literal(identity: Identity, ty: Type) -> Option<String> {
    use Identity::*;
    if ty.is_float() {
        let infinity = |negative: bool| -> Option<&'static str> {
            Some(match (ty.to_string().as_str(), negative) {
                ("f16", true) => "0xFC00",
                ("f16", false) => "0x7C00",
                ("bf16", true) => "0xFF80",
                ("bf16", false) => "0x7F80",
                ("f32", true) => "0xFF800000",
                ("f32", false) => "0x7F800000",
                ("f64", true) => "0xFFF0000000000000",
                ("f64", false) => "0x7FF0000000000000",
                _ => return None,
            })
        };
        return Some(match identity {
            NegativeZero => "-0.0".into(),
            One => "1.0".into(),
            NegativeInfinity => infinity(true)?.into(),
            PositiveInfinity => infinity(false)?.into(),
            _ => return None,
        });
    }
    let bits = IntegerType::try_from(ty).ok()?.width();
    if bits == 1 {
        // i1 (an "all"/"any" flag: a softmax's fully masked rows): one bit is
        // all ones and, as a signed number, the minimum.
        return Some(match identity {
            Zero | SignedMax => "false".into(),
            One | AllOnes | SignedMin => "true".into(),
            _ => return None,
        });
    }
    if !(2..=64).contains(&bits) {
        return None;
    }
    let half = 1i128 << (bits - 1);
    Some(match identity {
        Zero => "0".into(),
        One => "1".into(),
        AllOnes => "-1".into(),
        SignedMin => (-half).to_string(),
        SignedMax => (half - 1).to_string(),
        _ => return None,
    })
}

/// How many times ops of `body` use `value` (bodies here have no regions).
fn use_count(body: BlockRef, value: Value) -> usize {
    let mut count = 0;
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        count += op.operands().filter(|v| same_value(*v, value)).count();
    }
    count
}

/// The op of `body` defining `value`, if any.
fn defining_op<'c, 'a>(value: Value<'c, 'a>, body: BlockRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    defined_in(value, body).then(|| ffi::defining_op(value)).flatten()
}

/// If `next` (used once, by the store or yield) is `<op> accumulator, x`
/// with a combining op allowed here and `accumulator` used only there, that
/// op and its kind.
fn reduction_step<'c, 'a>(
    accumulator: Value<'c, 'a>,
    next: Value<'c, 'a>,
    body: BlockRef<'c, 'a>,
    reassociate: bool,
) -> Option<(OperationRef<'c, 'a>, Combiner)> {
    let op = defining_op(next, body)?;
    let name = op.name();
    let combiner = combiner(name.as_string_ref().as_str().ok()?)?;
    let ty = next.r#type();
    let uses_accumulator = op.operands().filter(|v| same_value(*v, accumulator)).count();
    // `nsw`/`nuw` promise that no partial sum of the sequential order
    // overflows; partial sums in another order might (poison).
    let wrapping = op.attribute("overflowFlags").map_or(true, |flags| flags.to_string() == "#arith.overflow<none>");
    let ok = op.operand_count() == 2
        && wrapping
        && uses_accumulator == 1
        && use_count(body, accumulator) == 1
        && use_count(body, next) == 1
        && (reassociate || !combiner.reassociates)
        && identity_literal(combiner.identity, ty).is_some();
    ok.then_some((op, combiner))
}

/// Whether `candidate` can be vectorized, and how.
fn analyze<'c, 'a>(candidate: OperationRef<'c, 'a>, width: u64, reassociate: bool) -> Option<Plan<'c, 'a>> {
    analyze_trips(candidate, width, reassociate, false)
}

/// The plan for running all of `candidate` (fewer than `width` iterations)
/// as one vector iteration whose lanes past its end are masked off: only
/// element-wise bodies over contiguous and uniform accesses. The lanes
/// masked off compute on zeros and are never stored, so no reductions
/// (they would combine them), gathers or strided loads (their extra loads
/// are not masked), and no integer division (a zero divisor traps).
fn analyze_masked<'c, 'a>(candidate: OperationRef<'c, 'a>, width: u64, reassociate: bool) -> Option<Plan<'c, 'a>> {
    let plan = analyze_trips(candidate, width, reassociate, true)?;
    // (Every `iter_args` value is a reduction: none either.)
    if !plan.reductions.is_empty() || plan.moving.iter().any(|(_, kind, _)| *kind != Access::Contiguous) {
        return None;
    }
    // Nor a memref both read and written (a convolution adding each tap
    // into its output row): LLVM forwards a plain store to the next load
    // of the same row and keeps the row in registers across the unrolled
    // taps, a masked store it does not (a depthwise 3x3 over 7x7 maps ran
    // 1.5x slower masked).
    let read_and_written = plan.moving.iter().any(|(store, _, _)| {
        is_named(*store, "affine.store")
            && plan.moving.iter().any(|(load, _, _)| is_named(*load, "affine.load") && load.operand(0).ok().zip(store.operand(1).ok()).is_some_and(|(a, b)| same_value(a, b)))
    });
    if read_and_written {
        return None;
    }
    let body = candidate.region(0).ok()?.first_block()?;
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let name = op.name();
        let name = name.as_string_ref().as_str().ok()?;
        let traps = matches!(
            name,
            "arith.divsi" | "arith.divui" | "arith.remsi" | "arith.remui" | "arith.ceildivsi" | "arith.ceildivui" | "arith.floordivsi"
        );
        if name == "memref.load" || traps {
            return None;
        }
    }
    Some(Plan { main_end: plan.lower + width as i64, upper: plan.lower + width as i64, ..plan })
}

fn analyze_trips<'c, 'a>(candidate: OperationRef<'c, 'a>, width: u64, reassociate: bool, masked: bool) -> Option<Plan<'c, 'a>> {
    // With constant bounds, the only operands are the `iter_args` values.
    if candidate.operand_count() != candidate.result_count() {
        return None;
    }
    let step = candidate.attribute("step").ok().and_then(|a| IntegerAttribute::try_from(a).ok())?.value();
    let (lower, upper) = (constant_bound(candidate, "lowerBoundMap")?, constant_bound(candidate, "upperBoundMap")?);
    let trip = upper - lower;
    if step != 1 || (!masked && trip < width as i64) || (masked && (trip < 1 || trip > width as i64)) {
        return None;
    }
    let body = candidate.region(0).ok()?.first_block()?;
    let iv: Value = body.argument(0).ok()?.into();
    let mut reductions = Vec::new();
    let terminator = body.terminator()?;
    for n in 0..candidate.result_count() {
        let accumulator: Value = body.argument(n + 1).ok()?.into();
        let (step, combiner) = reduction_step(accumulator, terminator.operand(n).ok()?, body, reassociate)?;
        reductions.push(Reduction { accumulator, step, combiner, carrier: Carrier::Carried(n) });
    }
    let mut moving = Vec::new();
    let mut stored: Vec<(Value, OperationRef)> = Vec::new();
    let mut accessed: Vec<(Value, OperationRef)> = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let name = op.name();
        let name = name.as_string_ref().as_str().ok()?;
        if op.region_count() != 0 {
            return None;
        }
        match name {
            "affine.yield" => {}
            "affine.load" => {
                let (kind, units) = classify_access(op, 1, iv, body)?;
                if kind != Access::Uniform {
                    if !byte_addressed(op.result(0).ok()?.r#type()) || (kind == Access::Stride2 && !width.is_multiple_of(2)) {
                        return None;
                    }
                    if let Access::Repeat { divisor, .. } = kind {
                        if divisor as u64 > width || !width.is_multiple_of(divisor as u64) {
                            return None;
                        }
                    }
                    moving.push((op, kind, units));
                }
                accessed.push((op.operand(0).ok()?, op));
            }
            "memref.load" => {
                // A gather when its indices vary with `iv` (see `gather`):
                // needs the array as one contiguous run of elements.
                let memref = op.operand(0).ok()?;
                let ty = MemRefType::try_from(memref.r#type()).ok()?;
                let elements = (0..ty.rank()).map(|d| extent(ty, d)).try_fold(1i64, |n, e| (e > 0).then(|| n.checked_mul(e)).flatten())?;
                if !ffi::has_identity_layout(ty) || !byte_addressed(op.result(0).ok()?.r#type()) || elements > i32::MAX as i64 {
                    return None;
                }
                accessed.push((memref, op));
            }
            "affine.store" => {
                let memref = op.operand(1).ok()?;
                let (kind, units) = classify_access(op, 2, iv, body)?;
                if kind != Access::Contiguous {
                    reductions.push(memory_reduction(op, body, reassociate)?);
                } else if !byte_addressed(op.operand(0).ok()?.r#type()) {
                    return None;
                } else {
                    moving.push((op, kind, units));
                }
                stored.push((memref, op));
                accessed.push((memref, op));
            }
            _ if (name.starts_with("arith.") || name.starts_with("math.")) && elementwise(op) => {}
            _ if name.starts_with("arith.") && gather_index(op, 0) => {}
            _ => return None,
        }
    }
    for (memref, store) in &stored {
        for (other, access) in &accessed {
            if same_value(*memref, *other) {
                if !same_address(*store, *access) {
                    return None;
                }
            } else if is_view(*memref) || is_view(*other) {
                return None;
            }
        }
    }
    // A memory accumulator is accessed by its load and store only: another
    // read of it, even at its address, would see partial sums.
    for reduction in &reductions {
        if let Carrier::Memory { load, store } = reduction.carrier {
            let memref = store.operand(1).ok()?;
            let is_own =
                |op: &OperationRef| op.to_raw().ptr == load.to_raw().ptr || op.to_raw().ptr == store.to_raw().ptr;
            if accessed.iter().any(|(other, op)| same_value(memref, *other) && !is_own(op)) {
                return None;
            }
        }
    }
    let main_end = lower + trip / width as i64 * width as i64;
    Some(Plan { lower, main_end, upper, reductions, relaxed: reassociate, moving })
}

/// How an access moves with `iv` (`access_kind`), and how many trailing
/// dimensions of extent 1 were set aside to find it contiguous (or of
/// stride 2) in the dimension before them: `x[n, c, 0, 0]` of a pooled
/// `N x C x 1 x 1` array (a squeeze-excitation's 1x1 convolutions) moves
/// with `c` through consecutive elements when the layout is the identity.
fn classify_access(op: OperationRef, first_index: usize, iv: Value, body: BlockRef) -> Option<(Access, usize)> {
    let kind = access_kind(op, first_index, iv, body);
    if kind.is_some() {
        return kind.map(|k| (k, 0));
    }
    let memref = MemRefType::try_from(op.operand(first_index - 1).ok()?.r#type()).ok()?;
    if !ffi::has_identity_layout(memref) {
        return None;
    }
    let rank = memref.rank();
    let units = (0..rank).rev().take_while(|d| extent(memref, *d) == 1).count();
    (1..=units.min(rank.saturating_sub(1)))
        .find_map(|u| access_kind_before(op, first_index, iv, body, u).filter(|k| *k != Access::Uniform).map(|k| (k, u)))
}

/// Whether a vector of `element`s has the layout of that many consecutive
/// elements in memory. A memref of `i1` (PyTorch's bool) keeps one byte per
/// element, but LLVM packs `vector<16xi1>` into 16 bits: a vector load of
/// bools would read 16 elements' bits out of two bytes (a `sum` of 128
/// bools gave 6 instead of 70). Such accesses stay scalar; `i1` values
/// computed in registers (comparisons, selects) still vectorize.
fn byte_addressed(element: Type) -> bool {
    if element.is_float() || element.is_index() {
        return true;
    }
    IntegerType::try_from(element).is_ok_and(|ty| ty.width() % 8 == 0)
}

/// A store at an address free of `iv` that is a reduction through memory:
/// `affine.store (<op> (affine.load %m[e]), %x), %m[e]`.
fn memory_reduction<'c, 'a>(
    store: OperationRef<'c, 'a>,
    body: BlockRef<'c, 'a>,
    reassociate: bool,
) -> Option<Reduction<'c, 'a>> {
    let memref = store.operand(1).ok()?;
    let next = store.operand(0).ok()?;
    let load = defining_op(next, body)?.operands().find_map(|v| {
        let load = defining_op(v, body)?;
        (is_named(load, "affine.load") && same_value(load.operand(0).ok()?, memref) && same_address(load, store))
            .then_some(load)
    })?;
    let accumulator: Value = load.result(0).ok()?.into();
    let (step, combiner) = reduction_step(accumulator, next, body, reassociate)?;
    Some(Reduction { accumulator, step, combiner, carrier: Carrier::Memory { load, store } })
}

/// A value of the vector body: varying per lane, or the same for all lanes.
#[derive(Clone, Copy)]
enum Lane<'c, 'a> {
    Vector(Value<'c, 'a>),
    Uniform(Value<'c, 'a>),
}

impl<'c, 'a> Lane<'c, 'a> {
    fn value(self) -> Value<'c, 'a> {
        match self {
            Lane::Vector(v) | Lane::Uniform(v) => v,
        }
    }
}

/// Emits the vector loop before `original`, then the lane combination of
/// each reduction, and shrinks `original` to the remainder (or erases it).
/// Returns the vector loop (inside the summation blocks' loop, if any).
///
/// Each reduction gets `accumulators` vector accumulators (at most one per
/// vector iteration), rotated through the `iter_args`: the loop yields
/// `(a1, ..., aN-1, a0 <op> x)`, so each chain is extended every N
/// iterations and N combining ops are in flight.
fn apply<'c, 'a>(
    context: &'c Context,
    original: OperationRef<'c, 'a>,
    plan: &Plan<'c, 'a>,
    width: u64,
    accumulators: u64,
) -> OperationRef<'c, 'a> {
    let location = original.location();
    let index = Type::index(context);
    let named = |name: &str, attribute: Attribute<'c>| (Identifier::new(context, name), attribute);
    let vector_of = |ty: Type<'c>| -> Type<'c> { Type::vector(&[width], ty) };
    let ir_rewriter = IrRewriter::from_op(original);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(original);
    let chains = (accumulators as i64).min((plan.main_end - plan.lower) / width as i64).max(1) as usize;

    // Views without the trailing unit dimensions, before the loop.
    let mut views: HashMap<usize, (Value, usize)> = HashMap::new();
    for &(op, _, units) in plan.moving.iter().filter(|(_, _, units)| *units > 0) {
        let memref = op.operand(if is_named(op, "affine.store") { 1 } else { 0 }).expect("memref");
        let view = rewriter.insert(without_unit_dims(context, memref, units, location));
        views.insert(op.to_raw().ptr as usize, (view.result(0).expect("view").into(), units));
    }

    // Gathered arrays as one dimension, before the loop.
    let mut flat: HashMap<usize, Value> = HashMap::new();
    let mut next = original.region(0).expect("region").first_block().expect("block").first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if is_named(op, "memref.load") {
            let memref = op.operand(0).expect("memref");
            let rank = MemRefType::try_from(memref.r#type()).expect("memref").rank();
            if rank != 1 && !flat.contains_key(&(memref.to_raw().ptr as usize)) {
                let view = rewriter.insert(collapsed(context, memref, std::slice::from_ref(&(0..rank)), location));
                flat.insert(memref.to_raw().ptr as usize, view.result(0).expect("view").into());
            }
        }
    }

    // Vector accumulators start as the identity splat.
    let mut accumulator_types: Vec<Type> = Vec::new();
    let mut initial: Vec<Value> = Vec::new();
    for reduction in &plan.reductions {
        let ty = vector_of(reduction.accumulator.r#type());
        let literal =
            identity_literal(reduction.combiner.identity, reduction.accumulator.r#type()).expect("checked by analyze");
        let splat = Attribute::parse(context, &format!("dense<{literal}> : {ty}")).expect("identity splat");
        let constant = OperationBuilder::new("arith.constant", location)
            .add_attributes(&[named("value", splat)])
            .add_results(&[ty])
            .build()
            .expect("constant");
        let identity: Value = rewriter.insert(constant).result(0).expect("result").into();
        accumulator_types.extend(std::iter::repeat_n(ty, chains));
        initial.extend(std::iter::repeat_n(identity, chains));
    }

    let mut block_arguments = vec![(index, location)];
    block_arguments.extend(accumulator_types.iter().map(|ty| (*ty, location)));
    let region = Region::new();
    region.append_block(Block::new(&block_arguments));
    // Long float sums are summed in blocks (see `summation_block`): an
    // outer loop over blocks carries the totals, the vector loop starts
    // each block from the identity.
    let block = summation_block(plan, width as i64, chains as i64);
    let whole_range = (constant_map(context, plan.lower), constant_map(context, plan.main_end));
    let block_loop = block.map(|length| {
        let region = Region::new();
        region.append_block(Block::new(&block_arguments));
        let outer = builder::affine_for_carrying(context, location, whole_range, &[], length, &initial, region)
            .expect("affine.for is well-formed");
        (length, rewriter.insert(outer))
    });
    let (bounds, bound_operands) = match block_loop {
        Some((length, outer)) => {
            let start: Value = outer.region(0).expect("region").first_block().expect("block").argument(0).expect("iv").into();
            let lower = Attribute::parse(context, "affine_map<(d0) -> (d0)>").expect("map");
            let upper = Attribute::parse(context, &format!("affine_map<(d0) -> (d0 + {length}, {})>", plan.main_end))
                .expect("map");
            ((lower, upper), vec![start])
        }
        None => (whole_range, Vec::new()),
    };
    let vector_loop =
        builder::affine_for_carrying(context, location, bounds, &bound_operands, width as i64, &initial, region)
            .expect("affine.for is well-formed");
    let block_loop = block_loop.map(|(_, outer)| outer);
    let vector_loop = match block_loop {
        Some(outer) => {
            let outer_body = outer.region(0).expect("region").first_block().expect("block");
            let inner = outer_body.append_operation(vector_loop);
            // Each block's partial sums added to the totals, by the
            // combining op itself.
            let mut totals = Vec::new();
            for (n, reduction) in plan.reductions.iter().enumerate() {
                for k in 0..chains {
                    let slot = n * chains + k;
                    let op = outer_body.append_operation(ffi::clone_operation(reduction.step));
                    ffi::set_operand(op, 0, outer_body.argument(1 + slot).expect("total").into());
                    ffi::set_operand(op, 1, inner.result(slot).expect("partial").into());
                    let result = op.result(0).expect("result");
                    result.set_type(accumulator_types[slot]);
                    totals.push(Value::from(result));
                }
            }
            outer_body.append_operation(
                OperationBuilder::new("affine.yield", location).add_operands(&totals).build().expect("yield"),
            );
            inner
        }
        None => rewriter.insert(vector_loop),
    };
    let results = block_loop.unwrap_or(vector_loop);
    let new_body = vector_loop.region(0).expect("region").first_block().expect("block");
    let old_body = original.region(0).expect("region").first_block().expect("block");
    let old_iv: Value = old_body.argument(0).expect("iv").into();

    // Values of the scalar body → their counterpart in the vector body.
    let mut lanes: HashMap<usize, Lane> = HashMap::new();
    let key = |v: Value| v.to_raw().ptr as usize;
    lanes.insert(key(old_iv), Lane::Uniform(new_body.argument(0).expect("iv").into()));
    // The accumulators' loads and stores disappear from the vector body.
    let mut skipped: Vec<usize> = Vec::new();
    for (n, reduction) in plan.reductions.iter().enumerate() {
        let vector_accumulator: Value = new_body.argument(1 + n * chains).expect("accumulator").into();
        lanes.insert(key(reduction.accumulator), Lane::Vector(vector_accumulator));
        if let Carrier::Memory { load, store } = reduction.carrier {
            skipped.extend([load.to_raw().ptr as usize, store.to_raw().ptr as usize]);
        }
    }

    // Index arithmetic on `iv` and gathers indexed by it (a gather's
    // address) see each lane's own iteration: `iv + [0, 1, .., width - 1]`.
    let per_lane = |op: OperationRef| is_named(op, "memref.load") || op.name().as_string_ref().as_str().is_ok_and(|n| n.starts_with("arith."));
    let mut lane_ivs: Option<Value> = None;
    let mut next = old_body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if per_lane(op) && op.operands().any(|v| same_value(v, old_iv)) {
            let iv: Value = new_body.argument(0).expect("iv").into();
            let ivs = broadcast(new_body, Lane::Uniform(iv), vector_of, location);
            let steps = (0..width).map(|k| k.to_string()).collect::<Vec<_>>().join(", ");
            let steps = Attribute::parse(context, &format!("dense<[{steps}]> : {}", vector_of(index))).expect("lane steps");
            let steps: Value = new_body
                .append_operation(
                    OperationBuilder::new("arith.constant", location)
                        .add_attributes(&[named("value", steps)])
                        .add_results(&[vector_of(index)])
                        .build()
                        .expect("constant"),
                )
                .result(0)
                .expect("result")
                .into();
            let sum = OperationBuilder::new("arith.addi", location).add_operands(&[ivs, steps]).add_results(&[vector_of(index)]).build().expect("addi");
            lane_ivs = Some(new_body.append_operation(sum).result(0).expect("result").into());
            break;
        }
    }
    let mut next = old_body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or("");
        if name == "affine.yield" || skipped.contains(&(op.to_raw().ptr as usize)) {
            continue;
        }
        // Values from outside the loop are uniform and used as they are.
        let op_per_lane = per_lane(op);
        let operands: Vec<Lane> = op
            .operands()
            .map(|v| match lane_ivs {
                Some(ivs) if op_per_lane && same_value(v, old_iv) => Lane::Vector(ivs),
                _ => lanes.get(&key(v)).copied().unwrap_or(Lane::Uniform(v)),
            })
            .collect();
        let scalars: Vec<Value> = operands.iter().map(|l| l.value()).collect();
        let moves_with_iv = op.operands().any(|v| same_value(v, old_iv));
        let map = || named("map", op.attribute("map").expect("affine access has a map"));
        // The memref and map of a vector access: through the view without
        // trailing unit dimensions where there is one.
        let view = views.get(&(op.to_raw().ptr as usize)).copied();
        let vector_map = || match view {
            Some((_, units)) => named("map", drop_last_results(context, op, units)),
            None => map(),
        };
        match name {
            "affine.load" if moves_with_iv => {
                let element = op.result(0).expect("load result").r#type();
                let mut operands = scalars.clone();
                if let Some((memref, _)) = view {
                    operands[0] = memref;
                }
                // `lanes` consecutive elements from the address `map` gives.
                let load = |map: Attribute<'c>, lanes: u64| {
                    let load = OperationBuilder::new("affine.vector_load", location)
                        .add_operands(&operands)
                        .add_results(&[Type::vector(&[lanes], element)])
                        .add_attributes(&[named("map", map)])
                        .build()
                        .expect("vector load");
                    Value::from(new_body.append_operation(load).result(0).expect("result"))
                };
                let kind = plan.moving.iter().find(|(access, _, _)| *access == op).map(|(_, kind, _)| *kind);
                let value = match kind {
                    Some(Access::Stride2) => stride2_load(context, vector_map().1, (width, element), &load, new_body, location),
                    Some(Access::Repeat { divisor, offset }) => {
                        // Vector iterations start at lower + k width: the
                        // same phase within the divisor every time.
                        let phase = (plan.lower + offset).rem_euclid(divisor);
                        repeat_load(context, vector_map().1, (width, divisor, phase, element), &load, new_body, location)
                    }
                    _ => load(vector_map().1, width),
                };
                lanes.insert(key(op.result(0).expect("result").into()), Lane::Vector(value));
            }
            "memref.load" if operands[1..].iter().any(|l| matches!(l, Lane::Vector(_))) => {
                let memref = op.operand(0).expect("memref");
                let view = flat.get(&(memref.to_raw().ptr as usize)).copied().unwrap_or(memref);
                let value = gather(context, new_body, (memref, view), &operands[1..], width, location);
                lanes.insert(key(op.result(0).expect("result").into()), Lane::Vector(value));
            }
            "affine.store" => {
                let mut values = vec![broadcast(new_body, operands[0], vector_of, location)];
                values.extend_from_slice(&scalars[1..]);
                if let Some((memref, _)) = view {
                    values[1] = memref;
                }
                let store = OperationBuilder::new("affine.vector_store", location)
                    .add_operands(&values)
                    .add_attributes(&[vector_map()])
                    .build()
                    .expect("vector store");
                new_body.append_operation(store);
            }
            _ => {
                // Uniform loads and elementwise ops (combining steps
                // included): clone with remapped operands; if any operand
                // varies, all become vectors.
                let varying = operands.iter().any(|l| matches!(l, Lane::Vector(_)));
                let values: Vec<Value> = if varying {
                    operands.iter().map(|l| broadcast(new_body, *l, vector_of, location)).collect()
                } else {
                    scalars
                };
                let clone = new_body.append_operation(ffi::clone_operation(op));
                for (i, value) in values.iter().enumerate() {
                    ffi::set_operand(clone, i, *value);
                }
                // A division by a loop-invariant value: `arcp` lets LLVM
                // multiply by the divisor's reciprocal, computed once outside
                // the loop (a softmax's division by the row sum, as PyTorch's
                // own kernel does; within 1 ulp).
                // Not where the quotient is floored, compared or converted
                // to an integer: one unit less can change the result entirely.
                if plan.relaxed
                    && varying
                    && name == "arith.divf"
                    && matches!(operands.get(1), Some(Lane::Uniform(_)))
                    && op.result(0).is_ok_and(|q| pb_support::ir::only_continuous_uses(q.into()))
                {
                    pb_support::ir::add_fastmath_flag(context, clone, "arcp");
                }
                // A max/min reduction's vector step: with `nsz` a lane whose
                // extremum is a zero may keep either zero's sign (-0.0 ==
                // +0.0), NaN still propagates. On x86 the exact op is 6
                // dependent instructions (ordering signed zeros first), with
                // `nsz` it is `vmaxps` and a NaN fix-up: a softmax's row
                // maximum took half of its time before.
                if plan.relaxed && is_signed_zero_extremum_step(plan, op) {
                    pb_support::ir::add_fastmath_flag(context, clone, "nsz");
                }
                for (result, old) in clone.results().zip(op.results()) {
                    if varying {
                        result.set_type(vector_of(old.r#type()));
                        lanes.insert(key(old.into()), Lane::Vector(result.into()));
                    } else {
                        lanes.insert(key(old.into()), Lane::Uniform(result.into()));
                    }
                }
            }
        }
    }
    // Each accumulator's next value (what the scalar body yielded or
    // stored) goes to the back of its rotation.
    let mut yielded: Vec<Value> = Vec::new();
    for (n, reduction) in plan.reductions.iter().enumerate() {
        let next: Value = reduction.step.result(0).expect("combined value").into();
        yielded.extend((1..chains).map(|k| Value::from(new_body.argument(1 + n * chains + k).expect("accumulator"))));
        yielded.push(lanes[&key(next)].value());
    }
    new_body.append_operation(
        OperationBuilder::new("affine.yield", location).add_operands(&yielded).build().expect("yield"),
    );

    // After the vector loop: lanes and the incoming value, combined.
    for (n, reduction) in plan.reductions.iter().enumerate() {
        let incoming: Value = match reduction.carrier {
            Carrier::Carried(n) => original.operand(n).expect("init"),
            Carrier::Memory { store, .. } => {
                let load = OperationBuilder::new("affine.load", location)
                    .add_operands(&store.operands().skip(1).collect::<Vec<_>>())
                    .add_results(&[reduction.accumulator.r#type()])
                    .add_attributes(&[named("map", store.attribute("map").expect("map"))])
                    .build()
                    .expect("load");
                rewriter.insert(load).result(0).expect("result").into()
            }
        };
        let kind = Attribute::parse(context, &format!("#vector.kind<{}>", reduction.combiner.kind)).expect("kind");
        let mut attributes = vec![named("kind", kind)];
        if reduction.combiner.reassociates {
            attributes
                .push(named("fastmath", Attribute::parse(context, "#arith.fastmath<reassoc>").expect("fastmath")));
        }
        // The chains pairwise, with the combining op itself.
        let mut partial: Vec<Value> =
            (0..chains).map(|k| results.result(n * chains + k).expect("result").into()).collect();
        while partial.len() > 1 {
            let pairs: Vec<Value> = partial
                .chunks(2)
                .map(|pair| match pair {
                    [a, b] => {
                        let op = rewriter.insert(ffi::clone_operation(reduction.step));
                        ffi::set_operand(op, 0, *a);
                        ffi::set_operand(op, 1, *b);
                        let result = op.result(0).expect("result");
                        result.set_type(a.r#type());
                        result.into()
                    }
                    _ => pair[0],
                })
                .collect();
            partial = pairs;
        }
        let combined = OperationBuilder::new("vector.reduction", location)
            .add_operands(&[partial[0], incoming])
            .add_results(&[reduction.accumulator.r#type()])
            .add_attributes(&attributes)
            .build()
            .expect("vector.reduction");
        let combined: Value = rewriter.insert(combined).result(0).expect("result").into();
        match reduction.carrier {
            Carrier::Carried(n) => {
                if plan.main_end == plan.upper {
                    rewriter.replace_all_uses_with(original.result(n).expect("result").into(), combined);
                } else {
                    ffi::set_operand(original, n, combined);
                }
            }
            Carrier::Memory { store, .. } => {
                let mut operands = vec![combined];
                operands.extend(store.operands().skip(1));
                let store = OperationBuilder::new("affine.store", location)
                    .add_operands(&operands)
                    .add_attributes(&[named("map", store.attribute("map").expect("map"))])
                    .build()
                    .expect("store");
                rewriter.insert(store);
            }
        }
    }

    if plan.main_end == plan.upper {
        rewriter.erase_op(original);
    } else {
        ffi::set_attribute(original, "lowerBoundMap", constant_map(context, plan.main_end));
    }
    // SAFETY: the vector loop is in `original`'s block (or in the block
    // loop there), which outlives the rewriter it was inserted with.
    unsafe { OperationRef::from_raw(vector_loop.to_raw()) }
}

/// Vectorizes `original` (its `plan` from `analyze_masked`) as one vector
/// iteration of `width` lanes of which the first `valid` are its
/// iterations: `apply`'s vector loop, then each vector load and store in
/// it as `vector.maskedload` (masked lanes read as zero) and
/// `vector.maskedstore` under `vector.create_mask valid`, their indices
/// the access maps' results applied to the map operands.
fn apply_masked<'c, 'a>(context: &'c Context, original: OperationRef<'c, 'a>, plan: &Plan<'c, 'a>, width: u64, valid: i64) {
    let vector_loop = apply(context, original, plan, width, 1);
    let body = vector_loop.region(0).expect("region").first_block().expect("block");
    let first = body.first_operation().expect("the loop body");
    let location = vector_loop.location();
    let ir_rewriter = IrRewriter::from_op(first);
    let rewriter = ir_rewriter.as_rewriter_base();
    let build = |name: &str, operands: &[Value<'c, '_>], results: &[Type<'c>], attributes: &[(&str, Attribute<'c>)]| {
        builder::build_operation(context, location, name, operands, results, attributes, vec![])
    };
    rewriter.set_insertion_point_before(first);
    let index = Type::index(context);
    let count = rewriter.insert(build("arith.constant", &[], &[index], &[("value", IntegerAttribute::new(index, valid).into())]));
    let mask_type = Type::vector(&[width], IntegerType::new(context, 1).into());
    let mask: Value = rewriter.insert(build("vector.create_mask", &[count.result(0).expect("count").into()], &[mask_type], &[])).result(0).expect("mask").into();
    let mut next = Some(first);
    while let Some(op) = next {
        next = op.next_in_block();
        let load = is_named(op, "affine.vector_load");
        if !load && !is_named(op, "affine.vector_store") {
            continue;
        }
        rewriter.set_insertion_point_before(op);
        let memref_position = if load { 0 } else { 1 };
        let map = ffi::affine_map_of(op.attribute("map").expect("map")).expect("an affine map");
        let map_operands: Vec<Value> = op.operands().skip(memref_position + 1).collect();
        let memref = op.operand(memref_position).expect("memref");
        let mut operands = vec![memref];
        for r in 0..map.result_count() {
            let single = melior::ir::AffineMap::new(context, map.dim_count(), map.symbol_count(), &[map.result(r).expect("result")]);
            let apply = rewriter.insert(build("affine.apply", &map_operands, &[index], &[("map", ffi::affine_map_attribute(single))]));
            operands.push(apply.result(0).expect("index").into());
        }
        operands.push(mask);
        if load {
            let ty = op.result(0).expect("result").r#type();
            let element = MemRefType::try_from(memref.r#type()).expect("a memref").element();
            let zero_value: Attribute = if element.is_float() {
                melior::ir::attribute::FloatAttribute::new(context, element, 0.0).into()
            } else {
                IntegerAttribute::new(element, 0).into()
            };
            let zero = rewriter.insert(build("arith.constant", &[], &[element], &[("value", zero_value)]));
            let passthru = rewriter.insert(build("vector.broadcast", &[zero.result(0).expect("zero").into()], &[ty], &[]));
            operands.push(passthru.result(0).expect("passthru").into());
            let masked = rewriter.insert(build("vector.maskedload", &operands, &[ty], &[]));
            rewriter.replace_all_uses_with(op.result(0).expect("result").into(), masked.result(0).expect("loaded").into());
        } else {
            operands.push(op.operand(0).expect("value"));
            rewriter.insert(build("vector.maskedstore", &operands, &[], &[]));
        }
        rewriter.erase_op(op);
    }
}

/// The block length (elements, a multiple of `width`) for summing a long
/// float reduction in blocks, or `None` when it is not summed in blocks.
///
/// A vector reduction keeps `width * chains` running sums; each adds
/// `t = n / (width * chains)` terms, so its rounding error grows like `t`
/// (8.4 million float32 terms, an instance norm's row: relative errors of
/// 2e-6 in the mean, 5e-5 in the variance, where PyTorch's cascade sum
/// gets 1e-7). Summed in blocks of `b` terms per running sum, then block
/// after block, the error grows like `b + t / b`, least at `b = sqrt(t)`:
/// for 8.4M terms about 1/180 of the error, for one extra vector add per
/// block. Sums of up to `width * chains * 64` terms (every row of a
/// model's softmax or layer norm) are left alone: their error is already
/// within about 64 roundings, and blocking would only add loop overhead.
/// Only float sums and products are blocked (max, min and integer
/// reductions are exact), and only with `reassociate`.
fn summation_block(plan: &Plan, width: i64, chains: i64) -> Option<i64> {
    if !plan.relaxed || !plan.reductions.iter().any(|r| r.combiner.reassociates) {
        return None;
    }
    let lanes = width * chains;
    let terms = (plan.main_end - plan.lower) / lanes;
    if terms <= 64 {
        return None;
    }
    let per_block = (terms as f64).sqrt().ceil() as i64;
    Some(per_block * lanes)
}

/// The `width` elements `x[2 l + e]` of a stride-2 load, from two vector
/// loads that stay within the elements the scalar loop reads: one at `e`
/// (lanes `e .. e + width - 1`) and one ending at the last element read,
/// `e + 2 (width - 1)`; a shuffle picks the even offsets of the first and the
/// rest from the second. (One load of `2 width` elements would read an
/// element past the last, which may lie past the end of the buffer.)
fn stride2_load<'c, 'a>(
    context: &'c Context,
    map_attribute: Attribute<'c>,
    (width, element): (u64, Type<'c>),
    load: &dyn Fn(Attribute<'c>, u64) -> Value<'c, 'a>,
    block: BlockRef<'c, 'a>,
    location: Location<'c>,
) -> Value<'c, 'a> {
    let low = load(map_attribute, width);
    let high = load(last_index_plus(context, map_attribute, width as i64 - 1), width);
    // Lane l < width/2: element 2l of `low`; lane l >= width/2: element
    // 2l - (width - 1) of `high`, which is 2l + 1 among the concatenation.
    let half = width as i64 / 2;
    let mask: Vec<i64> = (0..width as i64).map(|l| if l < half { 2 * l } else { 2 * l + 1 }).collect();
    shuffle(context, block, location, (low, high), &mask, Type::vector(&[width], element))
}

/// The `width` elements `x[(l + phase) floordiv divisor + b]` (lane `l`;
/// `b` the address `map` gives at the vector iteration) of a load whose
/// index repeats each element `divisor` times: one load of `width /
/// divisor` elements at `b` (two, at `b` and `b + 1`, when `phase > 0`
/// makes the lanes reach one element further), and a shuffle repeating
/// them. Reads only elements the scalar loop reads.
fn repeat_load<'c, 'a>(
    context: &'c Context,
    map_attribute: Attribute<'c>,
    (width, divisor, phase, element): (u64, i64, i64, Type<'c>),
    load: &dyn Fn(Attribute<'c>, u64) -> Value<'c, 'a>,
    block: BlockRef<'c, 'a>,
    location: Location<'c>,
) -> Value<'c, 'a> {
    let part = width / divisor as u64;
    let low = load(map_attribute, part);
    // Element j of lane l: (l + phase) floordiv divisor; past the first
    // load's last element, the second load's last (the same element + 1).
    let high = if phase > 0 { load(last_index_plus(context, map_attribute, 1), part) } else { low };
    let mask: Vec<i64> = (0..width as i64)
        .map(|l| {
            let j = (l + phase).div_euclid(divisor);
            if j < part as i64 { j } else { part as i64 + j - 1 }
        })
        .collect();
    shuffle(context, block, location, (low, high), &mask, Type::vector(&[width], element))
}

/// The access map `map_attribute` with `k` added to its last index.
fn last_index_plus<'c>(context: &'c Context, map_attribute: Attribute<'c>, k: i64) -> Attribute<'c> {
    let map = ffi::affine_map_of(map_attribute).expect("affine map");
    let mut results: Vec<melior::ir::AffineExpr> = (0..map.result_count()).map(|r| map.result(r).expect("result")).collect();
    let last = results.len() - 1;
    results[last] = results[last] + melior::ir::AffineExpr::constant(context, k);
    ffi::affine_map_attribute(melior::ir::AffineMap::new(context, map.dim_count(), map.symbol_count(), &results))
}

/// `vector.shuffle` of `low` and `high` by `mask` (indices into their
/// concatenation), appended to `block`.
fn shuffle<'c, 'a>(
    context: &'c Context,
    block: BlockRef<'c, 'a>,
    location: Location<'c>,
    (low, high): (Value<'c, 'a>, Value<'c, 'a>),
    mask: &[i64],
    result: Type<'c>,
) -> Value<'c, 'a> {
    let shuffle = OperationBuilder::new("vector.shuffle", location)
        .add_operands(&[low, high])
        .add_results(&[result])
        .add_attributes(&[(Identifier::new(context, "mask"), melior::ir::attribute::DenseI64ArrayAttribute::new(context, mask).into())])
        .build()
        .expect("vector.shuffle");
    block.append_operation(shuffle).result(0).expect("result").into()
}

/// `memref.collapse_shape` of `memref` merging its last `units + 1`
/// dimensions (the last `units` of extent 1) into one.
pub(crate) fn without_unit_dims<'c>(context: &'c Context, memref: Value<'c, '_>, units: usize, location: Location<'c>) -> melior::ir::Operation<'c> {
    let rank = MemRefType::try_from(memref.r#type()).expect("memref").rank();
    let mut groups: Vec<std::ops::Range<usize>> = (0..rank - units - 1).map(|d| d..d + 1).collect();
    groups.push(rank - units - 1..rank);
    collapsed(context, memref, &groups, location)
}

/// `memref` (static, identity layout) with each group of consecutive
/// dimensions as one (`memref.collapse_shape`).
fn collapsed<'c>(context: &'c Context, memref: Value<'c, '_>, groups: &[std::ops::Range<usize>], location: Location<'c>) -> melior::ir::Operation<'c> {
    let ty = MemRefType::try_from(memref.r#type()).expect("memref");
    let shape: Vec<i64> = groups.iter().map(|g| g.clone().map(|d| extent(ty, d)).product()).collect();
    let i64_type: Type = IntegerType::new(context, 64).into();
    let reassociation: Vec<Attribute> = groups
        .iter()
        .map(|g| {
            let members: Vec<Attribute> = g.clone().map(|d| IntegerAttribute::new(i64_type, d as i64).into()).collect();
            ArrayAttribute::new(context, &members).into()
        })
        .collect();
    OperationBuilder::new("memref.collapse_shape", location)
        .add_operands(&[memref])
        .add_results(&[MemRefType::new(ty.element(), &shape, None, None).into()])
        .add_attributes(&[(Identifier::new(context, "reassociation"), ArrayAttribute::new(context, &reassociation).into())])
        .build()
        .expect("memref.collapse_shape")
}

/// An `arith` op on `index` values whose results only address gathers
/// (`memref.load` indices, directly or through more such ops): vectorized
/// as vectors of indices. Other index arithmetic (affine operands) cannot
/// take vectors and keeps the loop scalar.
fn gather_index(op: OperationRef, depth: usize) -> bool {
    let indices = op.results().any(|r| r.r#type().is_index()) || op.operands().any(|v| v.r#type().is_index());
    depth < 16
        && indices
        && op.region_count() == 0
        && op.result_count() > 0
        && op.results().all(|result| {
            ffi::users(result.into()).iter().all(|user| {
                (is_named(*user, "memref.load") && !user.operand(0).is_ok_and(|m| same_value(m, result.into())))
                    || (user.name().as_string_ref().as_str().is_ok_and(|n| n.starts_with("arith.")) && gather_index(*user, depth + 1))
            })
        })
}

/// `vector.gather` of the `width` elements a `memref.load` at per-lane
/// `indices` reads: the row-major offset of each lane's element (index
/// arithmetic, uniform parts scalar) as 32-bit offsets into `view`, the
/// array as one dimension (`analyze` checked that it has fewer than 2^31
/// elements), every lane enabled. x86 has gather instructions from AVX2 on
/// (`vgatherdps`); elsewhere LLVM loads the lanes one by one, as the scalar
/// loop did, and the arithmetic around them is still vectorized.
fn gather<'c, 'a>(
    context: &'c Context,
    body: BlockRef<'c, 'a>,
    (memref, view): (Value<'c, 'a>, Value<'c, 'a>),
    indices: &[Lane<'c, 'a>],
    width: u64,
    location: Location<'c>,
) -> Value<'c, 'a> {
    let ty = MemRefType::try_from(memref.r#type()).expect("memref");
    let i32_type: Type = IntegerType::new(context, 32).into();
    let vector_of = |ty: Type<'c>| -> Type<'c> { Type::vector(&[width], ty) };
    let append = |op: melior::ir::Operation<'c>| -> Value<'c, 'a> { body.append_operation(op).result(0).expect("result").into() };
    let constant = |ty: Type<'c>, value: i64| {
        append(
            OperationBuilder::new("arith.constant", location)
                .add_attributes(&[(Identifier::new(context, "value"), IntegerAttribute::new(ty, value).into())])
                .add_results(&[ty])
                .build()
                .expect("constant"),
        )
    };
    // Each index as 32 bits (in bounds, every partial offset below is
    // smaller than the array): x86 has no 64-bit vector multiply below
    // AVX-512DQ.
    let narrow = |lane: Lane<'c, 'a>| -> Lane<'c, 'a> {
        let (value, ty, vector) = match lane {
            Lane::Uniform(v) => (v, i32_type, false),
            Lane::Vector(v) => (v, vector_of(i32_type), true),
        };
        let cast = append(OperationBuilder::new("arith.index_cast", location).add_operands(&[value]).add_results(&[ty]).build().expect("index_cast"));
        if vector { Lane::Vector(cast) } else { Lane::Uniform(cast) }
    };
    let binary = |name: &str, a: Lane<'c, 'a>, b: Lane<'c, 'a>| -> Lane<'c, 'a> {
        let (a, b, ty) = match (a, b) {
            (Lane::Uniform(a), Lane::Uniform(b)) => (a, b, i32_type),
            _ => (broadcast(body, a, vector_of, location), broadcast(body, b, vector_of, location), vector_of(i32_type)),
        };
        let value = append(OperationBuilder::new(name, location).add_operands(&[a, b]).add_results(&[ty]).build().expect("offset op"));
        if ty == i32_type { Lane::Uniform(value) } else { Lane::Vector(value) }
    };
    // Horner's scheme over the dimensions: ((i0 * n1 + i1) * n2 + i2) ...
    let mut offset = narrow(indices[0]);
    for (d, lane) in indices.iter().enumerate().skip(1) {
        offset = binary("arith.muli", offset, Lane::Uniform(constant(i32_type, extent(ty, d))));
        offset = binary("arith.addi", offset, narrow(*lane));
    }
    let offsets = broadcast(body, offset, vector_of, location);
    let element = ty.element();
    let splat = |ty: Type<'c>, literal: &str| {
        let value = Attribute::parse(context, &format!("dense<{literal}> : {ty}")).expect("splat");
        append(
            OperationBuilder::new("arith.constant", location)
                .add_attributes(&[(Identifier::new(context, "value"), value)])
                .add_results(&[ty])
                .build()
                .expect("constant"),
        )
    };
    let mask = splat(vector_of(IntegerType::new(context, 1).into()), "true");
    let zero_literal = if element.is_float() { "0.0" } else { "0" };
    let pass_through = splat(vector_of(element), zero_literal);
    let base = constant(Type::index(context), 0);
    let gather = OperationBuilder::new("vector.gather", location)
        .add_operands(&[view, base, offsets, mask, pass_through])
        .add_results(&[vector_of(element)])
        .build()
        .expect("vector.gather");
    append(gather)
}

/// Extent `d` of `memref` (`i64::MIN` when dynamic, as MLIR writes it).
fn extent(memref: MemRefType, d: usize) -> i64 {
    match memref.dim_size(d) {
        Ok(melior::ir::r#type::DimSize::Static(n)) => n as i64,
        _ => i64::MIN,
    }
}

/// The map of an affine access without its last `units` results.
fn drop_last_results<'c>(context: &'c Context, op: OperationRef<'c, '_>, units: usize) -> Attribute<'c> {
    let map = ffi::affine_map_of(op.attribute("map").expect("map")).expect("affine map");
    let results: Vec<melior::ir::AffineExpr> = (0..map.result_count() - units).map(|k| map.result(k).expect("result")).collect();
    ffi::affine_map_attribute(melior::ir::AffineMap::new(context, map.dim_count(), map.symbol_count(), &results))
}

/// A vector operand for `lane`: itself, or a broadcast of a uniform scalar
/// appended to `block`.
fn broadcast<'c, 'a>(
    block: BlockRef<'c, 'a>,
    lane: Lane<'c, 'a>,
    vector_of: impl Fn(Type<'c>) -> Type<'c>,
    location: Location<'c>,
) -> Value<'c, 'a> {
    match lane {
        Lane::Vector(v) => v,
        Lane::Uniform(v) => {
            let op = OperationBuilder::new("vector.broadcast", location)
                .add_operands(&[v])
                .add_results(&[vector_of(v.r#type())])
                .build()
                .expect("broadcast");
            block.append_operation(op).result(0).expect("result").into()
        }
    }
}
