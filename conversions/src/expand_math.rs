//! `pb-expand-math`: expand f32 `math.exp`, `math.expm1`, `math.log`,
//! `math.tanh`, `math.erf` and `math.powf` (scalars and fixed-length
//! vectors) into `arith` polynomial approximations, so that no vendor math
//! library is called.
//!
//! Without it the `llvm` stage sends these ops to LLVM intrinsics or libm,
//! and a `vector<16xf32>` exp becomes 16 scalar `expf` calls, most of the
//! time of a softmax or a GELU. Expanded, they are ~20-50 vector instructions
//! (multiply-adds, compares, selects, integer ops on the exponent bits) that
//! LLVM schedules with the rest of the loop.
//!
//! Accuracy (f32, against a 64-bit reference, emulated over dense sweeps by
//! `scripts/fit-expand-math.py` and measured on compiled code by
//! `test/python/test_expand_math.py`): exp and log within 1.02 ulp, erf
//! within 1.24 ulp (1.07 with FMA; 1.4 from tables on AVX-512), tanh
//! within 1.5 ulp, expm1 within 1.65 ulp, powf within 0.51 ulp, with or
//! without fused multiply-adds.
//!
//! - **exp**: x clamped to [-104, 88.8]; x = n ln2 + r with n = round(x
//!   log2e) (the 1.5*2^23 rounding trick, which also gives n as an integer)
//!   and r = x - n ln2_hi - n ln2_lo (Cody-Waite: ln2_hi has 16 significant
//!   bits, so n ln2_hi is exact); e^r = 1 + r + r^2 q(r), q of degree 4;
//!   times 2^(n/2) and 2^(n - n/2), each built in the exponent bits, so that
//!   subnormal results round once and overflow gives +inf. With the
//!   `x86-avx512` option (AVX-512F targets; the cpu pipeline sets it there),
//!   a `vector<16xf32>` is scaled by one `vscalefps` instead (the same single
//!   rounding, eight ops fewer: a softmax ~10% faster).
//! - **expm1**: the same reduction, then 2 (2^(n-1) (1 + u) - 1/2) with
//!   u = e^r - 1 (no cancellation near 0); x clamped to [-30, 88.8]; tiny x
//!   returned as is.
//! - **tanh**: odd; for |x| < 0.4, x + x^3 p(x^2) (p of degree 3); else
//!   e/(e + 2) with e = e^(2|x|) - 1 = (2^n - 1) + 2^n u, |x| clamped to
//!   9.1 (where tanh rounds to 1); sign restored with `math.copysign`.
//! - **erf**: odd; for |x| < 1, x + x q(x^2) (q of degree 7); up to
//!   3.9375, 1 - p(|x| - 2.46875) with p a degree-14 fit of erfc on [1,
//!   3.9375] (one polynomial for all lanes: ~30 vector ops, half of what
//!   three pieces with per-lane coefficient selects took), evaluated as
//!   even and odd halves in t^2 (two short chains); beyond, 1. With
//!   `x86-avx512`, a `vector<16xf32>` instead takes one degree-5
//!   polynomial in t = 4|x| - floor(4|x|) whose coefficients each lane
//!   reads for its interval floor(4|x|) from 16-entry tables (`vpermps`):
//!   ~20 ops and 11 constants against ~36 ops and 30 constants (which the
//!   loop around a GELU spilled and shuffled between registers): GELU on
//!   512x768 67 -> 40 us; within 1.4 ulp.
//! - **log**: x = 2^e m with m in [sqrt(1/2), sqrt(2)) read from the bits
//!   (subnormals scaled by 2^23 first); log(1 + f) = f + f^2 q(f), q of
//!   degree 8, plus e ln2 in two parts.
//! - **powf**: C's `powf`, evaluated in f64 so that the result is rounded
//!   once from a value within ~2^-30 relative: t = y log2|x| (the
//!   exponent and mantissa m from the f32 bits of |x| in 32-bit lanes, a
//!   subnormal scaled by 2^24 first: AVX2 has no 64-bit arithmetic shift
//!   nor 64-bit integer to f64 conversion; then in f64 2 atanh(s) with
//!   s = (m - 1)/(m + 1), |s| < 0.172, to s^15), then 2^t = 2^n 2^r
//!   (n = round(t), |r| <= 1/2, a degree-7 fit within 2^-34, 2^n in the
//!   exponent bits; 8-lane gamma on Zen 3 15% faster than from the f64
//!   bits with a degree-10 Taylor polynomial; both polynomials by Estrin's
//!   scheme, whose short dependent chains a vector loop overlaps: 3x1024^2
//!   gamma 14.5 -> 13.2 ms against Horner's, eager's 20; t clamped to +-200 so that
//!   over- and underflow happen in the final f32 rounding). Signs and
//!   special values as C: x^0 = 1 and 1^y = 1 (even for NaN), (-1)^+-inf =
//!   1, a negative finite x to a non-integer power is NaN, odd integer
//!   powers keep x's sign (-0 and -inf too). A constant exponent of 2 or 3
//!   is x x or x x x, as PyTorch's CPU kernels compute them (bit for bit),
//!   and of 0.5 the IEEE square root (as PyTorch's, whose vectorized
//!   kernel can miss it by a bit).
//! - **powf with a constant exponent on FMA targets** (option `fma`, set
//!   from the target description): for |y| <= 8 (gamma curves, roots,
//!   reciprocals, small integer powers) the same reduction in f32
//!   double-word arithmetic instead of f64, within 1 ulp (as PyTorch's
//!   vectorized powf, Sleef's u10; 0.87-0.95 ulp measured): log2 m =
//!   K s + s^3 q(s^2) with s = (m - 1)/(m + 1) as a pair (the division's
//!   remainder by FMA), K s an exact pair, y e and y log2 m exact pairs
//!   summed by Fast2Sum, 2^r - 1 = r ln2 + r^2 p(r) with r ln2 added last.
//!   Fast2Sum (not 2Sum) where the operands' order is known, Estrin's
//!   scheme for both polynomials, and no second division (1/(m + 1) =
//!   (1 - s)/2): the chain the core waits on is short. ~95 instructions
//!   per 8 lanes on AVX2 against the f64 path's ~130; gamma (x^(1/2.2))
//!   on 3x1024^2 floats, Zen 3, 2 threads: 4.8 ms (f64) -> 2.8 ms (this,
//!   with `pb-vectorize`'s interleaving), eager 9.9. The error-free steps
//!   carry no `contract` flag.
//!
//! Special values follow libm: exp(-inf) = 0, exp(+inf) = +inf, log(0) =
//! -inf, log(x < 0) = NaN, log(+inf) = +inf, tanh(+-inf) = +-1, erf(+-inf) =
//! +-1, expm1(-inf) = -1, and NaN in gives NaN out (clamps are compare-and-
//! select, which keep NaN). Multiplies and adds carry `fastmath<contract>`
//! so LLVM fuses them where the target has FMA; no `math.fma` is emitted (it
//! would be a libm call on targets without FMA).
//!
//! Only f32 is expanded: f64 (and f16, bf16) ops, tensors and scalable
//! vectors are left to the existing lowering (LLVM intrinsics and libm).
//! Options (all true by default) select the functions: `exp`, `expm1`,
//! `log`, `tanh`, `erf`, `powf`.
//!
//! ```mlir
//! %y = math.exp %x : vector<16xf32>
//! // becomes
//! %c = arith.constant dense<-1.040000e+02> : vector<16xf32>
//! %0 = arith.cmpf olt, %x, %c : vector<16xf32>
//! %1 = arith.select %0, %c, %x : vector<16xi1>, vector<16xf32>
//! ... arith.mulf/addf fastmath<contract>, arith.bitcast, arith.shrsi/shli/addi ...
//! %y = arith.mulf %10, %11 fastmath<contract> : vector<16xf32>
//! ```
//!
//! Coefficients are minimax fits rounded to f32 by
//! `scripts/fit-expand-math.py`, which also emulates each expansion op for op:
//! change both together.

use melior::{
    ir::{
        attribute::{DenseElementsAttribute, FloatAttribute, IntegerAttribute},
        operation::{OperationLike, WalkOrder},
        r#type::IntegerType,
        Attribute, OperationRef, Type, TypeLike, Value, ValueLike,
    },
    Context, IrRewriter,
};
use pb_support::{builder::Emitter, ffi, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

static ID: PassId = PassId::new();

const fn flag(name: &'static str, help: &'static str) -> PassOption {
    PassOption { name, kind: OptionKind::Bool, default: "true", help }
}

pub static INFO: PassInfo = PassInfo {
    argument: "pb-expand-math",
    summary: "Expand f32 math.exp/expm1/log/tanh/erf/powf into arith polynomial approximations (no libm calls)",
    description: "Replaces each f32 (scalar or fixed-length vector) `math.exp`, `math.expm1`, \
`math.log`, `math.tanh`, `math.erf` and `math.powf` by range reduction and polynomials in `arith` ops \
(powf evaluated in f64, or with a constant exponent in f32 double-word arithmetic where the target has FMA), within 1.7 ulp, preserving infinities, NaN, overflow and subnormal results. Other element types, \
tensors and scalable vectors are left alone.",
    anchor: "func.func",
    options: &[
        flag("exp", "Expand math.exp"),
        flag("expm1", "Expand math.expm1"),
        flag("log", "Expand math.log"),
        flag("tanh", "Expand math.tanh"),
        flag("erf", "Expand math.erf"),
        flag("powf", "Expand math.powf"),
        PassOption {
            name: "fma",
            kind: OptionKind::Bool,
            default: "false",
            help: "The target fuses multiply-adds in hardware: powf with a constant exponent |y| <= 8 is \
evaluated in f32 double-word arithmetic (error-free products by math.fma), within 1 ulp, instead of in f64 \
(0.51 ulp, about twice the instructions). Without hardware FMA math.fma would be a libm call",
        },
        PassOption {
            name: "x86-avx512",
            kind: OptionKind::Bool,
            default: "false",
            help: "vector<16xf32> may use AVX-512F instructions: exp scales by 2^n with vscalefps \
(x86vector.avx512.mask.scalef), erf picks per-lane coefficients from tables with vpermps: \
only for targets with AVX-512F",
        },
    ],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    let enabled = MathFn::ALL.into_iter().filter(|f| options.bool(f.option())).collect();
    Box::new(ExpandMath { enabled, avx512: options.bool("x86-avx512"), fma: options.bool("fma") })
}

#[derive(Clone)]
struct ExpandMath {
    enabled: Vec<MathFn>,
    avx512: bool,
    fma: bool,
}

impl RustPass for ExpandMath {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["arith", "llvm", "math", "x86vector"]
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let ops = ffi::collect_ops(root, WalkOrder::PreOrder, |op| {
            MathFn::of(op).is_some_and(|f| self.enabled.contains(&f)) && expandable(op)
        });
        for op in ops {
            let function = MathFn::of(op).expect("collected");
            ffi::with_context(op, |context| replace(context, op, function, self.avx512, self.fma));
        }
        Ok(())
    }
}

/// A function this pass expands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MathFn {
    Exp,
    Expm1,
    Log,
    Tanh,
    Erf,
    /// Binary: `math.powf %x, %y`.
    Pow,
}

impl MathFn {
    pub const ALL: [MathFn; 6] = [MathFn::Exp, MathFn::Expm1, MathFn::Log, MathFn::Tanh, MathFn::Erf, MathFn::Pow];

    /// The function computed by `op`, if it is one of ours.
    pub fn of(op: OperationRef) -> Option<MathFn> {
        match op.name().as_string_ref().as_str().ok()? {
            "math.exp" => Some(MathFn::Exp),
            "math.expm1" => Some(MathFn::Expm1),
            "math.log" => Some(MathFn::Log),
            "math.tanh" => Some(MathFn::Tanh),
            "math.erf" => Some(MathFn::Erf),
            "math.powf" => Some(MathFn::Pow),
            _ => None,
        }
    }

    /// The pass option that enables it.
    pub fn option(self) -> &'static str {
        match self {
            MathFn::Exp => "exp",
            MathFn::Expm1 => "expm1",
            MathFn::Log => "log",
            MathFn::Tanh => "tanh",
            MathFn::Erf => "erf",
            MathFn::Pow => "powf",
        }
    }
}

/// f32 operands (one, two for powf) and result, all of one type: f32 or a
/// fixed-length vector of f32.
fn expandable(op: OperationRef) -> bool {
    let arity = if MathFn::of(op) == Some(MathFn::Pow) { 2 } else { 1 };
    if op.operand_count() != arity || op.result_count() != 1 {
        return false;
    }
    let Ok(result) = op.result(0) else { return false };
    (0..arity).all(|k| ffi::operand(op, k).is_some_and(|v| v.r#type() == result.r#type())) && is_f32_like(result.r#type())
}

/// f32, or a vector of f32 with no scalable dimension.
pub fn is_f32_like(ty: Type) -> bool {
    ty.is_f32() || (ty.is_vector() && !ty.is_scalable_vector() && ty.to_string().ends_with("xf32>"))
}

/// Replaces `op` (checked by [`expandable`]) by its expansion.
fn replace<'c>(context: &'c Context, op: OperationRef<'c, '_>, function: MathFn, avx512: bool, fma: bool) {
    let x = op.operand(0).expect("checked: one operand");
    let ir_rewriter = IrRewriter::from_op(op);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(op);
    let emitter = Emitter { context, rewriter: &rewriter, location: op.location() };
    let value = match function {
        MathFn::Pow => {
            let y = op.operand(1).expect("checked: two operands");
            let b = F32Builder::new(&emitter, x.r#type());
            pow(&b, x, y, fma)
        }
        _ => expand(&emitter, function, x, avx512),
    };
    rewriter.replace_op_with_values(op, &[value]);
}

/// Emits `function(x)` for `x` of type f32 or vector of f32 (see
/// [`is_f32_like`]) at the emitter's insertion point; with `avx512` (the
/// target has AVX-512F), a `vector<16xf32>` may use AVX-512 instructions
/// (exp scales with `vscalefps`, erf reads coefficient tables with `vpermps`).
pub fn expand<'c, 'e>(emitter: &'e Emitter<'c, '_>, function: MathFn, x: Value<'c, '_>, avx512: bool) -> Value<'c, 'e> {
    let mut b = F32Builder::new(emitter, x.r#type());
    b.avx512 = avx512 && x.r#type().to_string() == "vector<16xf32>";
    match function {
        MathFn::Exp => exp(&b, x),
        MathFn::Expm1 => expm1(&b, x),
        MathFn::Log => log(&b, x),
        MathFn::Tanh => tanh(&b, x),
        MathFn::Erf => erf(&b, x),
        MathFn::Pow => panic!("powf takes two operands: see `pow`"),
    }
}

// ------------------------------------------------------------ constants
// From scripts/fit-expand-math.py.

const LOG2E: f32 = std::f32::consts::LOG2_E;
/// ln 2 with 16 significant bits (n * LN2_HI is exact for |n| < 256), and the rest.
const LN2_HI: f32 = 6.9314575e-1;
const LN2_LO: f32 = 1.4286068e-6;
/// 1.5 * 2^23: x + ROUND_MAGIC rounds x (|x| < 2^22) to an integer, held in
/// the low mantissa bits.
const ROUND_MAGIC: f32 = 12_582_912.0;

/// e^r - 1 = r + r^2 EXP_Q(r), |r| <= ln2/2.
const EXP_Q: [f32; 5] = [4.9999997e-1, 1.6666546e-1, 4.166744e-2, 8.366256e-3, 1.3870321e-3];

/// tanh(a) = a + a^3 TANH_P(a^2), a < TANH_SMALL.
const TANH_P: [f32; 4] = [-3.33333e-1, 1.3331208e-1, -5.356115e-2, 1.8741267e-2];
const TANH_SMALL: f32 = 0.4;
/// tanh(a) rounds to 1 in f32 from a = 9.01.
const TANH_CLAMP: f32 = 9.1;

/// erf(a) = a + a ERF_Q(a^2), a < ERF_SMALL.
const ERF_Q: [f32; 8] = [
    1.2837917e-1,
    -3.761263e-1,
    1.12836316e-1,
    -2.6856497e-2,
    5.1958114e-3,
    -8.118032e-4,
    8.627826e-5,
    -2.1887863e-6,
];
const ERF_SMALL: f32 = 1.0;
/// erfc(3.9375) = 2.6e-8 < 2^-25: erf rounds to 1 from there.
const ERF_ONE: f32 = 3.9375;
/// erf(a) = 1 - ERFC_P(a - ERFC_CENTER) on [ERF_SMALL, ERF_ONE]: one
/// polynomial, so every lane evaluates the same coefficients (no selects).
const ERFC_CENTER: f32 = 2.46875;
const ERFC_P: [f32; 15] = [
    4.806048e-4,
    -2.5441127e-3,
    6.280956e-3,
    -9.490669e-3,
    9.61982e-3,
    -6.6458965e-3,
    2.9090743e-3,
    -4.838142e-4,
    -3.3373467e-4,
    2.9323922e-4,
    -7.7235294e-5,
    -2.3042248e-5,
    1.6985683e-5,
    -2.0357787e-7,
    -1.0469466e-6,
];

/// erf on AVX-512 (`erf_tables`): u = ERF_TABLE_SCALE |x|, i = floor(u),
/// t = u - i, erf = ERF_TABLES[0][i] + t ERF_TABLES[1][i] + t^2 (ERF_TABLES[2][i] + t (...)).
const ERF_TABLE_SCALE: f32 = 4.0;
const ERF_TABLES: [[f32; 16]; 6] = [
    [
        0., 2.763264e-1, 5.204999e-1, 7.1115565e-1, 8.427008e-1, 9.2290014e-1, 9.6610516e-1, 9.866717e-1, 9.953223e-1,
        9.985373e-1, 9.99593e-1, 9.998994e-1, 9.999779e-1, 9.999957e-1, 9.999993e-1, 9.999999e-1,
    ],
    [
        2.820948e-1, 2.6500335e-1, 2.1969526e-1, 1.607323e-1, 1.0377724e-1, 5.9130173e-2, 2.9732332e-2, 1.3193478e-2,
        5.166295e-3, 1.7851884e-3, 5.451266e-4, 1.4637629e-4, 3.5266734e-5, 7.071407e-6, 7.9281614e-7, 3.66507e-7,
    ],
    [
        -6.2201346e-9, -1.6559508e-2, -2.745761e-2, -3.0134063e-2, -2.594698e-2, -1.847875e-2, -1.1149158e-2,
        -5.7709995e-3, -2.580768e-3, -1.0020359e-3, -3.4334563e-4, -9.962187e-5, -2.8623139e-5, -4.6558957e-6,
        1.9402034e-6, -1.2974715e-6,
    ],
    [
        -5.878409e-3, -4.8471326e-3, -2.3070055e-3, 4.08041e-4, 2.1709288e-3, 2.6233457e-3, 2.1698356e-3, 1.4068575e-3,
        7.4726733e-4, 3.334546e-4, 1.3682616e-4, 4.0264436e-5, 1.7970435e-5, 1.1567232e-7, -6.4820683e-6, 3.447574e-6,
    ],
    [
        5.3963076e-6, 5.3062884e-4, 7.514627e-4, 6.057638e-4, 2.5666575e-4, -3.8424983e-5, -1.8252888e-4,
        -1.8837246e-4, -1.2791487e-4, -6.733004e-5, -3.9059232e-5, -9.334116e-6, -9.500529e-6, 1.8979289e-6,
        6.8981117e-6, -4.4810813e-6,
    ],
    [
        1.0461684e-4, 4.6156947e-5, -2.6348931e-5, -6.690143e-5, -5.8503356e-5, -3.1342406e-5, -3.975829e-6,
        9.613527e-6, 1.0115096e-5, 6.4675896e-6, 6.8135305e-6, 8.3671443e-7, 2.699157e-6, -8.8167116e-7,
        -2.5500385e-6, 2.159033e-6,
    ],
];

/// log(1 + f) = f + f^2 LOG_Q(f), f in [sqrt(1/2) - 1, sqrt(2) - 1).
const LOG_Q: [f32; 9] = [
    -4.9999988e-1,
    3.3333322e-1,
    -2.5001603e-1,
    2.0002207e-1,
    -1.6608872e-1,
    1.4177395e-1,
    -1.3239951e-1,
    1.293009e-1,
    -7.6601006e-2,
];
/// Bits of the f32 nearest below sqrt(1/2).
const SQRT_HALF_BITS: i32 = 0x3F35_04F3;
const MANTISSA_MASK: i32 = 0x007F_FFFF;
const ONE_BITS: i32 = 0x3F80_0000;

/// powf in f64: log(m) = 2 atanh(s) = 2 s (1 + s^2 POW_ATANH(s^2)), the
/// series' coefficients 1/3, 1/5, ... (|s| < 0.172: the next term is below
/// 2^-40 relative).
const POW_ATANH: [f64; 7] = [1.0 / 3.0, 1.0 / 5.0, 1.0 / 7.0, 1.0 / 9.0, 1.0 / 11.0, 1.0 / 13.0, 1.0 / 15.0];
/// 2^r for |r| <= 1/2: a degree-7 fit at Chebyshev nodes (relative error
/// below 5.6e-11, 2^-34: a thousandth of an f32 ulp), low degree first.
const POW_EXP2: [f64; 8] = [
    0.9999999999595618,
    0.6931471805568324,
    0.24022651213498092,
    0.055504109063258665,
    0.009618025613318034,
    0.0013333478473685416,
    0.00015469729214118296,
    1.5303700711365693e-05,
];
/// 2^24, and the exponent it adds: a subnormal f32 scaled into the normal
/// range before its bits are read.
const TWO_24: f32 = 16_777_216.0;
/// 1.5 * 2^52: t + ROUND_MAGIC_64 rounds t to an integer held in the low bits.
const ROUND_MAGIC_64: f64 = 6_755_399_441_055_744.0;
/// |y log2|x|| beyond this over- or underflows any f32 (and stays a normal
/// f64 exponent).
const POW_T_CLAMP: f64 = 200.0;
/// The largest |y| of a constant exponent that [`pow_constant_f32`]
/// evaluates within 1 ulp (its log2 carries ~2^-32 relative error,
/// which y scales).
const POW_F32_MAX_EXPONENT: f64 = 8.0;
/// log2 m = K s + s^3 POW_LOG2_Q(s^2), |s| < 0.1716 (K = 2 log2(e)).
const POW_LOG2_Q: [f32; 4] = [9.617967e-1, 5.770788e-1, 4.119273e-1, 3.3648843e-1];
/// 2^r - 1 = r ln2 + r^2 POW_EXP2_P(r), |r| <= 0.545 (1/2 plus y times
/// log2's low part).
const POW_EXP2_P: [f32; 7] = [2.402265e-1, 5.550411e-2, 9.618124e-3, 1.3333398e-3, 1.5406484e-4, 1.5325451e-5, 1.2737734e-6];

// --------------------------------------------------------- expansions

fn exp<'c, 'e>(b: &F32Builder<'c, 'e, '_>, x: Value<'c, '_>) -> Value<'c, 'e> {
    let x = b.clamp(x, -104.0, 88.8);
    if b.avx512 {
        // p 2^n in one instruction, rounded once (subnormal results
        // included) and +inf on overflow: what the two factors below do in
        // eight.
        let (nf, r) = reduce_float(b, x);
        return b.scale(b.add(expm1_reduced(b, r), b.f(1.0)), nf);
    }
    let (n, r) = reduce(b, x);
    let p = b.add(expm1_reduced(b, r), b.f(1.0));
    // 2^n in two factors: each is a normal number for n in [-151, 128].
    let half = b.int("arith.shrsi", n, b.i(1));
    let rest = b.int("arith.subi", n, half);
    b.mul(b.mul(p, b.pow2(half)), b.pow2(rest))
}

fn expm1<'c, 'e>(b: &F32Builder<'c, 'e, '_>, x: Value<'c, '_>) -> Value<'c, 'e> {
    let (n, r) = reduce(b, b.clamp(x, -30.0, 88.8));
    let u = expm1_reduced(b, r);
    // e^x - 1 = 2 (2^(n-1) (1 + u) - 1/2): 2^(n-1) is finite for n = 128,
    // and 2^(n-1) - 1/2 is exact for the n where it matters.
    let s = b.pow2(b.int("arith.subi", n, b.i(1)));
    let em1 = b.mul(b.madd(s, u, b.sub(s, b.f(0.5))), b.f(2.0));
    // 2^(n-1) u loses bits when u is subnormal: x itself is the answer there.
    let tiny = b.cmp(OLT, b.abs(x), b.f(f32::from_bits(0x1F80_0000))); // 2^-64
    b.select(tiny, x, em1)
}

fn tanh<'c, 'e>(b: &F32Builder<'c, 'e, '_>, x: Value<'c, '_>) -> Value<'c, 'e> {
    let a = b.abs(x);
    let clamped = b.select(b.cmp(OGT, a, b.f(TANH_CLAMP)), b.f(TANH_CLAMP), a);
    // tanh(a) = (e^2a - 1) / (e^2a + 1) with e^2a - 1 = (2^n - 1) + 2^n u,
    // exact in 2^n - 1 (n in [0, 27]) and free of cancellation.
    let (n, r) = reduce(b, b.add(clamped, clamped));
    let u = expm1_reduced(b, r);
    let s = b.pow2(n);
    let em1 = b.madd(s, u, b.sub(s, b.f(1.0)));
    let large = b.div(em1, b.add(em1, b.f(2.0)));
    let a2 = b.mul(a, a);
    let small = b.madd(b.mul(a, a2), b.horner(a2, &TANH_P), a);
    let value = b.select(b.cmp(OLT, a, b.f(TANH_SMALL)), small, large);
    b.copysign(value, x)
}

fn erf<'c, 'e>(b: &F32Builder<'c, 'e, '_>, x: Value<'c, '_>) -> Value<'c, 'e> {
    let abs = b.abs(x);
    let a = b.select(b.cmp(OGT, abs, b.f(ERF_ONE)), b.f(ERF_ONE), abs);
    if b.avx512 {
        return b.copysign(erf_tables(b, a), x);
    }
    let small = b.madd(a, b.horner(b.mul(a, a), &ERF_Q), a);
    let large = b.sub(b.f(1.0), b.horner_even_odd(b.sub(a, b.f(ERFC_CENTER)), &ERFC_P));
    let value = b.select(b.cmp(OLT, a, b.f(ERF_SMALL)), small, large);
    b.copysign(value, x)
}

/// erf(a) for a in [0, ERF_ONE] (or NaN) on AVX-512: a degree-5
/// polynomial in t = 4a - floor(4a) whose coefficients each lane picks for
/// its interval floor(4a) from 16-entry tables, one `vpermps` per
/// coefficient: ~20 ops against ~36 for the two polynomials of the generic
/// expansion (and 11 constants in registers, not 30: the loop around the
/// generic one spilled and shuffled its constants; GELU 67 -> 40 us).
fn erf_tables<'c, 'e>(b: &F32Builder<'c, 'e, '_>, a: Value<'c, 'e>) -> Value<'c, 'e> {
    let u = b.mul(a, b.f(ERF_TABLE_SCALE));
    let floor = b.emitter.unary("math.floor", u, b.float);
    // floor + 2^23 is exact for 0..15 and holds the interval in its low
    // mantissa bits, the only index bits vpermps reads; NaN gives some
    // index, and t (so the result) stays NaN.
    let index = b.bitcast_to_int(b.add(floor, b.f(8_388_608.0)));
    let t = b.sub(u, floor);
    let c: Vec<Value<'c, 'e>> = ERF_TABLES.iter().map(|table| b.permute(table, index)).collect();
    let (c0, c1, high) = (c[0], c[1], &c[2..]);
    let (last, rest) = high.split_last().expect("degree above 2");
    let acc = rest.iter().rev().fold(*last, |acc, ck| b.madd(acc, t, *ck));
    // c0 + t^2 (...) first, t c1 last: for interval 0 (c0 = 0) the result
    // is one rounding of t c1 plus a small term, accurate relative to erf.
    b.madd(t, c1, b.madd(b.mul(t, t), acc, c0))
}

fn log<'c, 'e>(b: &F32Builder<'c, 'e, '_>, x: Value<'c, '_>) -> Value<'c, 'e> {
    // Subnormals (and everything not positive, sorted out at the end) are
    // scaled by 2^23 into the normal range.
    let subnormal = b.cmp(OLT, x, b.f(f32::MIN_POSITIVE));
    let scaled = b.select(subnormal, b.mul(x, b.f(8_388_608.0)), x);
    let bias = b.select(subnormal, b.i(127 + 23), b.i(127));
    // Shift the bits so that the exponent field steps at sqrt(1/2), not 1:
    // m in [sqrt(1/2), sqrt(2)).
    let bits = b.int("arith.addi", b.bitcast_to_int(scaled), b.i(ONE_BITS - SQRT_HALF_BITS));
    let e = b.int("arith.subi", b.int("arith.shrsi", bits, b.i(23)), bias);
    let m_bits = b.int("arith.addi", b.int("arith.andi", bits, b.i(MANTISSA_MASK)), b.i(SQRT_HALF_BITS));
    let f = b.sub(b.bitcast_to_float(m_bits), b.f(1.0));
    let log1p = b.madd(b.mul(f, f), b.horner(f, &LOG_Q), f);
    let ef = b.emitter.unary("arith.sitofp", e, b.float);
    let value = b.madd(ef, b.f(LN2_HI), b.madd(ef, b.f(LN2_LO), log1p));
    let inf = b.f(f32::INFINITY);
    let value = b.select(b.cmp(OEQ, x, inf), inf, value);
    // 0 -> -inf; negative and NaN -> NaN.
    let special = b.select(b.cmp(OEQ, x, b.f(0.0)), b.f(f32::NEG_INFINITY), b.f(f32::NAN));
    b.select(b.cmp(OGT, x, b.f(0.0)), value, special)
}

/// x = n ln2 + r, |r| <= ln2/2 (slightly more: n comes from a rounded
/// product); n as an integer. x must be within +-2^21.
fn reduce<'c, 'e>(b: &F32Builder<'c, 'e, '_>, x: Value<'c, '_>) -> (Value<'c, 'e>, Value<'c, 'e>) {
    let t = b.madd(x, b.f(LOG2E), b.f(ROUND_MAGIC));
    let nf = b.sub(t, b.f(ROUND_MAGIC));
    let n = b.int("arith.subi", b.bitcast_to_int(t), b.i(ROUND_MAGIC.to_bits() as i32));
    let r = b.madd(nf, b.f(-LN2_HI), x);
    (n, b.madd(nf, b.f(-LN2_LO), r))
}

/// [`reduce`] with n as a float (for `vscalefps`).
fn reduce_float<'c, 'e>(b: &F32Builder<'c, 'e, '_>, x: Value<'c, '_>) -> (Value<'c, 'e>, Value<'c, 'e>) {
    let nf = b.sub(b.madd(x, b.f(LOG2E), b.f(ROUND_MAGIC)), b.f(ROUND_MAGIC));
    let r = b.madd(nf, b.f(-LN2_HI), x);
    (nf, b.madd(nf, b.f(-LN2_LO), r))
}

/// e^r - 1 for |r| <= ln2/2, within 1 ulp.
fn expm1_reduced<'c, 'e>(b: &F32Builder<'c, 'e, '_>, r: Value<'c, 'e>) -> Value<'c, 'e> {
    b.madd(b.mul(r, r), b.horner(r, &EXP_Q), r)
}

/// C's `powf(x, y)` (see the module documentation); `fma`: the target
/// has hardware FMA.
fn pow<'c, 'e>(b: &F32Builder<'c, 'e, '_>, x: Value<'c, '_>, y: Value<'c, '_>, fma: bool) -> Value<'c, 'e> {
    let constant = constant_splat(y);
    match constant {
        Some(2.0) => return b.mul(x, x),
        Some(3.0) => return b.mul(b.mul(x, x), x),
        Some(0.5) => return b.emitter.unary("math.sqrt", x, b.float),
        _ => {}
    }
    let magnitude = match constant {
        Some(c) if fma && c.abs() <= POW_F32_MAX_EXPONENT => pow_constant_f32(b, b.abs(x), y, c),
        _ => {
            let d = b.wide();
            let yd = b.emitter.unary("arith.extf", y, d.float);
            let t = d.mul(yd, log2_wide(b, &d, b.abs(x)));
            b.emitter.unary("arith.truncf", exp2_wide(&d, t), b.float)
        }
    };
    // Signs: y an integer (+-inf counts as an even one), odd or not.
    let floor = b.emitter.unary("math.floor", y, b.float);
    let integer = b.cmp(OEQ, floor, y);
    let half = b.mul(y, b.f(0.5));
    let odd = b.and(integer, b.cmp(ONE, b.emitter.unary("math.floor", half, b.float), half));
    let value = b.select(odd, b.copysign(magnitude, x), magnitude);
    // A negative finite base to a non-integer power has no real value.
    let negative = b.and(b.cmp(OLT, x, b.f(0.0)), b.cmp(OGT, x, b.f(f32::NEG_INFINITY)));
    let value = b.select(b.and(negative, b.not(integer)), b.f(f32::NAN), value);
    // x^0 = 1^y = 1, whatever the other is; (-1)^+-inf = 1.
    let one = b.f(1.0);
    let unit_base = b.cmp(OEQ, x, one);
    let zero_power = b.cmp(OEQ, y, b.f(0.0));
    let minus_one_infinite = b.and(b.cmp(OEQ, b.abs(x), one), b.cmp(OEQ, b.abs(y), b.f(f32::INFINITY)));
    b.select(b.or(b.or(unit_base, zero_power), minus_one_infinite), one, value)
}

/// |x|^y for a constant y (value `c`, |c| <= [`POW_F32_MAX_EXPONENT`]) in
/// f32 double-word arithmetic, on targets with FMA (see the module
/// documentation); `a` = |x|: zero, subnormal, normal, +inf or NaN.
fn pow_constant_f32<'c, 'e>(b: &F32Builder<'c, 'e, '_>, a: Value<'c, '_>, y: Value<'c, '_>, c: f64) -> Value<'c, 'e> {
    let (e, lh, ll) = log2_double_word(b, a);
    // t = y (e + l) = sh + sl: y e and y lh exact as pairs (FMA), summed by
    // Fast2Sum; the low parts together.
    let th = b.exact("arith.mulf", y, e);
    let tl = b.fma(y, e, b.neg(th));
    let uh = b.exact("arith.mulf", y, lh);
    let ul = b.exact("arith.addf", b.fma(y, lh, b.neg(uh)), b.exact("arith.mulf", y, ll));
    // |th| >= |uh| unless e = 0 (then th = 0): Fast2Sum is exact.
    let (sh, err) = b.fast_two_sum(th, uh);
    let sl = b.exact("arith.addf", err, b.exact("arith.addf", tl, ul));
    // 2^t = 2^n 2^(r + rl): n = round(sh) (sh clamped so that 2^n over- or
    // underflows in the final scaling), sh - n exact, then r + rl = that
    // plus sl, renormalized.
    let sh = b.clamp(sh, -POW_T_CLAMP as f32, POW_T_CLAMP as f32);
    let rounded = b.exact("arith.addf", sh, b.f(ROUND_MAGIC));
    let nf = b.exact("arith.subf", rounded, b.f(ROUND_MAGIC));
    let n = b.int("arith.subi", b.bitcast_to_int(rounded), b.i(ROUND_MAGIC.to_bits() as i32));
    // sl is below an ulp or two of sh: |sh - n| is 0 or at least an ulp of
    // sh, so Fast2Sum is exact or off by far less than rl matters.
    let (r, rl) = b.fast_two_sum(b.exact("arith.subf", sh, nf), sl);
    // 2^r - 1 = r ln2 + r^2 p(r), ln2 = c0h + c0l; r c0h added last, so
    // that the only rounding at p's scale is 1 + that.
    let c0h = std::f64::consts::LN_2 as f32;
    let c0l = (std::f64::consts::LN_2 - c0h as f64) as f32;
    let low = b.fma(r, b.f(c0l), b.exact("arith.mulf", rl, b.f(c0h)));
    let inner = b.fma(b.exact("arith.mulf", r, r), b.estrin(r, &POW_EXP2_P.map(f64::from)), low);
    let p = b.exact("arith.addf", b.f(1.0), b.fma(r, b.f(c0h), inner));
    let half = b.int("arith.shrsi", n, b.i(1));
    let rest = b.int("arith.subi", n, half);
    let value = b.mul(b.mul(p, b.pow2(half)), b.pow2(rest));
    // 0, +inf and NaN bases (whose bits the reduction above misreads).
    let (at_zero, at_infinity) = if c > 0.0 { (0.0, f32::INFINITY) } else { (f32::INFINITY, 0.0) };
    let value = b.select(b.cmp(OEQ, a, b.f(0.0)), b.f(at_zero), value);
    let value = b.select(b.cmp(OEQ, a, b.f(f32::INFINITY)), b.f(at_infinity), value);
    b.select(b.cmp(UNO, a, a), a, value)
}

/// log2(a) for a finite positive f32 `a` as (e, lh, ll): the exponent e
/// (an integer, as f32) and the log2 of the mantissa m in [sqrt(1/2),
/// sqrt(2)) as a pair lh + ll (|ll| < |lh| / 200), within ~2^-32 relative:
/// K s + s^3 q(s^2), s = (m - 1)/(m + 1) as a pair (FMA remainders), K s
/// exact as a pair, the tail s^3 q(s^2) (~1% of the value) in f32.
fn log2_double_word<'c, 'e>(b: &F32Builder<'c, 'e, '_>, a: Value<'c, '_>) -> (Value<'c, 'e>, Value<'c, 'e>, Value<'c, 'e>) {
    let (e, m) = exponent_and_mantissa(b, a);
    let one = b.f(1.0);
    // m - 1 is exact; m + 1 = dh + dl exactly (dh - 1 is exact).
    let f = b.exact("arith.subf", m, one);
    let dh = b.exact("arith.addf", m, one);
    let dl = b.exact("arith.subf", m, b.exact("arith.subf", dh, one));
    let qh = b.exact("arith.divf", f, dh);
    let minus_qh = b.neg(qh);
    let remainder = b.fma(minus_qh, dl, b.fma(minus_qh, dh, f));
    // ql = remainder / (m + 1), with 1 / (m + 1) = (1 - qh) / 2 (qh's
    // rounding changes ql by 2^-24 of itself): no second division.
    let half_remainder = b.exact("arith.mulf", remainder, b.f(0.5));
    let ql = b.fma(minus_qh, half_remainder, half_remainder);
    let s2 = b.exact("arith.mulf", qh, qh);
    let tail = b.exact("arith.mulf", b.exact("arith.mulf", qh, s2), b.estrin(s2, &POW_LOG2_Q.map(f64::from)));
    let k = 2.0 * std::f64::consts::LOG2_E;
    let (kh, kl) = (k as f32, (k - (k as f32) as f64) as f32);
    // K s as lh + (its FMA rounding error, K's and ql's parts, the tail),
    // not renormalized: the low part (< 0.5% of lh) reaches 2^r through
    // y ll, within the polynomial's range.
    let lh = b.exact("arith.mulf", qh, b.f(kh));
    let low = b.fma(qh, b.f(kl), b.exact("arith.mulf", ql, b.f(kh)));
    let ll = b.exact("arith.addf", b.fma(qh, b.f(kh), b.neg(lh)), b.exact("arith.addf", low, tail));
    (b.emitter.unary("arith.sitofp", e, b.float), lh, ll)
}

/// |x| = 2^e m for x = |an f32| read from its bits: the exponent e (i32
/// lanes) and the mantissa m in [sqrt(1/2), sqrt(2)) (a subnormal scaled
/// by 2^24 first; zero, +inf and NaN give some e and m, which the callers
/// replace). Shared by powf's f64 and f32 double-word logarithms.
fn exponent_and_mantissa<'c, 'e>(b: &F32Builder<'c, 'e, '_>, x: Value<'c, '_>) -> (Value<'c, 'e>, Value<'c, 'e>) {
    let subnormal = b.cmp(OLT, x, b.f(f32::MIN_POSITIVE));
    let normal = b.select(subnormal, b.mul(x, b.f(TWO_24)), x);
    let bits = b.int("arith.addi", b.bitcast_to_int(normal), b.i(ONE_BITS - SQRT_HALF_BITS));
    let e = b.int("arith.subi", b.int("arith.shrsi", bits, b.i(23)), b.i(127));
    let e = b.int("arith.subi", e, b.select(subnormal, b.i(24), b.i(0)));
    let m_bits = b.int("arith.addi", b.int("arith.andi", bits, b.i(MANTISSA_MASK)), b.i(SQRT_HALF_BITS));
    (e, b.bitcast_to_float(m_bits))
}

/// log2(x) in f64 for x = |an f32| (so zero, subnormal, normal, +inf or
/// NaN), within ~2^-40 relative. The exponent and mantissa are taken from
/// the f32's bits (32-bit integer lanes; AVX2 has no 64-bit arithmetic
/// shift or 64-bit integer to f64 conversion, which the f64 bits needed:
/// a third of the expansion's instructions there), the mantissa extended
/// to f64 exactly, and the series evaluated in f64.
fn log2_wide<'c, 'e>(b: &F32Builder<'c, 'e, '_>, d: &F32Builder<'c, 'e, '_>, x: Value<'c, '_>) -> Value<'c, 'e> {
    let (e, m) = exponent_and_mantissa(b, x);
    let m = b.emitter.unary("arith.extf", m, d.float);
    let s = d.div(d.sub(m, d.d(1.0)), d.add(m, d.d(1.0)));
    let s2 = d.mul(s, s);
    let series = d.estrin(s2, &POW_ATANH);
    // ln m = 2s + 2s s^2 (...); log2 = e + ln m log2(e).
    let two_s = d.add(s, s);
    let ln_m = d.madd(d.mul(two_s, s2), series, two_s);
    let ef = d.emitter.unary("arith.sitofp", e, d.float);
    let value = d.madd(ln_m, d.d(std::f64::consts::LOG2_E), ef);
    let inf = d.d(f64::INFINITY);
    let value = d.select(b.cmp(OEQ, x, b.f(f32::INFINITY)), inf, value);
    let special = d.select(b.cmp(OEQ, x, b.f(0.0)), d.d(f64::NEG_INFINITY), d.d(f64::NAN));
    d.select(b.cmp(OGT, x, b.f(0.0)), value, special)
}

/// 2^t in f64, t clamped to +-[`POW_T_CLAMP`] (NaN stays NaN).
fn exp2_wide<'c, 'e>(d: &F32Builder<'c, 'e, '_>, t: Value<'c, '_>) -> Value<'c, 'e> {
    let (lo, hi) = (d.d(-POW_T_CLAMP), d.d(POW_T_CLAMP));
    let t = d.select(d.cmp(OLT, t, lo), lo, t);
    let t = d.select(d.cmp(OGT, t, hi), hi, t);
    let rounded = d.add(t, d.d(ROUND_MAGIC_64));
    let nf = d.sub(rounded, d.d(ROUND_MAGIC_64));
    let n = d.int("arith.subi", d.bitcast_to_int(rounded), d.l(ROUND_MAGIC_64.to_bits() as i64));
    let r = d.sub(t, nf);
    let p = d.estrin(r, &POW_EXP2);
    let scale = d.bitcast_to_float(d.int("arith.shli", d.int("arith.addi", n, d.l(1023)), d.l(52)));
    d.mul(p, scale)
}

/// The value of a constant `value`: a float, a vector splat of one, or
/// either broadcast or rounded from f64 (as the front's `x ** 2.0` and the
/// vectorizer leave them).
fn constant_splat(value: Value) -> Option<f64> {
    let op = ffi::defining_op(value)?;
    match op.name().as_string_ref().as_str().ok()? {
        "arith.constant" => ffi::float_splat(op.attribute("value").ok()?),
        "vector.broadcast" | "vector.splat" => constant_splat(ffi::operand(op, 0)?),
        "arith.truncf" => constant_splat(ffi::operand(op, 0)?).map(|v| v as f32 as f64),
        _ => None,
    }
}

// ------------------------------------------------------------ builder

// `arith.cmpf` predicates.
const OEQ: i64 = 1;
const OGT: i64 = 2;
const OLT: i64 = 4;
const ONE: i64 = 6;
const UNO: i64 = 14;

/// Emits arith/math ops on one f32-like type (f32 or a vector of f32) and
/// its i32 and i1 counterparts (or, made by [`F32Builder::wide`], on the
/// same shape of f64 and i64).
struct F32Builder<'c, 'e, 'r> {
    emitter: &'e Emitter<'c, 'r>,
    float: Type<'c>,
    /// The element types of `float` and `int`.
    scalar_float: Type<'c>,
    scalar_int: Type<'c>,
    int: Type<'c>,
    bool: Type<'c>,
    vector: bool,
    contract: Attribute<'c>,
    /// `vector<16xf32>` on an AVX-512F target: `scale` may use `vscalefps`,
    /// `permute` is `vpermps`.
    avx512: bool,
}

impl<'c, 'e, 'r> F32Builder<'c, 'e, 'r> {
    fn new(emitter: &'e Emitter<'c, 'r>, float: Type<'c>) -> Self {
        Self::with_elements(emitter, float, "f32", "i32")
    }

    /// The same shape with f64 and i64 elements.
    fn wide(&self) -> Self {
        Self::with_elements(self.emitter, self.float, "f64", "i64")
    }

    /// Types of the shape of `shape` (f32 or a vector of it) with elements
    /// `float_element` and `int_element`.
    fn with_elements(emitter: &'e Emitter<'c, 'r>, shape: Type<'c>, float_element: &str, int_element: &str) -> Self {
        let context = emitter.context;
        let vector = shape.is_vector();
        let float = shape;
        // vector<...xf32> -> vector<...xi32>: same shape, other element.
        let like = |element: &str| -> Type<'c> {
            if vector {
                let text = float.to_string();
                let shape = &text[..text.len() - "f32>".len()];
                Type::parse(context, &format!("{shape}{element}>")).expect("a vector type")
            } else {
                Type::parse(context, element).expect("a scalar type")
            }
        };
        let contract = Attribute::parse(context, "#arith.fastmath<contract>").expect("fastmath attribute");
        let scalar = |element: &str| Type::parse(context, element).expect("a scalar type");
        Self {
            emitter,
            float: like(float_element),
            scalar_float: scalar(float_element),
            scalar_int: scalar(int_element),
            int: like(int_element),
            bool: like("i1"),
            vector,
            contract,
            avx512: false,
        }
    }

    fn splat(&self, ty: Type<'c>, scalar: Attribute<'c>) -> Attribute<'c> {
        if self.vector {
            DenseElementsAttribute::new(ty, &[scalar]).expect("a vector type").into()
        } else {
            scalar
        }
    }

    /// A float constant.
    fn f(&self, value: f32) -> Value<'c, 'e> {
        self.d(value as f64)
    }

    /// A float constant given in f64 (rounded to the element type).
    fn d(&self, value: f64) -> Value<'c, 'e> {
        let scalar = FloatAttribute::new(self.emitter.context, self.scalar_float, value).into();
        self.emitter.value("arith.constant", &[], self.float, &[("value", self.splat(self.float, scalar))])
    }

    /// An integer constant (i32, or i64 for a wide builder).
    fn i(&self, value: i32) -> Value<'c, 'e> {
        self.l(value as i64)
    }

    fn l(&self, value: i64) -> Value<'c, 'e> {
        let scalar = IntegerAttribute::new(self.scalar_int, value).into();
        self.emitter.value("arith.constant", &[], self.int, &[("value", self.splat(self.int, scalar))])
    }

    fn float_op(&self, name: &str, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'e> {
        self.emitter.value(name, &[lhs, rhs], self.float, &[("fastmath", self.contract)])
    }

    fn mul(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'e> {
        self.float_op("arith.mulf", lhs, rhs)
    }

    fn add(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'e> {
        self.float_op("arith.addf", lhs, rhs)
    }

    fn sub(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'e> {
        self.float_op("arith.subf", lhs, rhs)
    }

    fn div(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'e> {
        self.float_op("arith.divf", lhs, rhs)
    }

    /// An f32 op without `contract`: LLVM must not fuse it with a product
    /// (the error-free transformations of double-word arithmetic).
    fn exact(&self, name: &str, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'e> {
        self.emitter.value(name, &[lhs, rhs], self.float, &[])
    }

    fn neg(&self, x: Value<'c, '_>) -> Value<'c, 'e> {
        self.emitter.unary("arith.negf", x, self.float)
    }

    /// a * b + c rounded once: `math.fma` (a hardware FMA, or a libm call
    /// where the target has none: only for FMA targets).
    fn fma(&self, a: Value<'c, '_>, b: Value<'c, '_>, c: Value<'c, '_>) -> Value<'c, 'e> {
        self.emitter.value("math.fma", &[a, b, c], self.float, &[])
    }

    /// (s, err) with s = fl(a + b) and a + b = s + err exactly when |a| >=
    /// |b| or a = 0 (Dekker's Fast2Sum: three ops, a chain of three).
    fn fast_two_sum(&self, a: Value<'c, 'e>, b: Value<'c, 'e>) -> (Value<'c, 'e>, Value<'c, 'e>) {
        let s = self.exact("arith.addf", a, b);
        (s, self.exact("arith.subf", b, self.exact("arith.subf", s, a)))
    }

    /// a * b + c, fused by LLVM where the target has FMA.
    fn madd(&self, a: Value<'c, '_>, b: Value<'c, '_>, c: Value<'c, '_>) -> Value<'c, 'e> {
        self.add(self.mul(a, b), c)
    }

    /// c[0] + t (c[1] + t (c[2] + ...)).
    fn horner(&self, t: Value<'c, 'e>, coefficients: &[f32]) -> Value<'c, 'e> {
        let (last, rest) = coefficients.split_last().expect("at least one coefficient");
        rest.iter().rev().fold(self.f(*last), |acc, c| self.madd(acc, t, self.f(*c)))
    }

    /// c[0] + c[1] t + c[2] t^2 + ... (coefficients given in f64) by
    /// Estrin's scheme: pairs c[2k] + c[2k+1] t, then pairs of those with
    /// t^2, t^4, ...: a chain of log2(n) multiply-adds instead of Horner's
    /// n, for powf's long f64 polynomials, whose dependent chains bound a
    /// vector loop around them (the rounding differs from Horner's by a
    /// few f64 ulps, far below the f32 result's).
    fn estrin(&self, t: Value<'c, '_>, coefficients: &[f64]) -> Value<'c, 'e> {
        let mut terms: Vec<Value<'c, 'e>> = coefficients
            .chunks(2)
            .map(|pair| match pair {
                [a, b] => self.madd(self.d(*b), t, self.d(*a)),
                [a] => self.d(*a),
                _ => unreachable!("chunks of two"),
            })
            .collect();
        let mut power = self.mul(t, t);
        while terms.len() > 1 {
            terms = terms
                .chunks(2)
                .map(|pair| match pair {
                    [low, high] => self.madd(*high, power, *low),
                    [low] => *low,
                    _ => unreachable!("chunks of two"),
                })
                .collect();
            power = self.mul(power, power);
        }
        terms[0]
    }

    /// The same polynomial as two Horner chains in t^2 (even and odd
    /// coefficients), joined by one multiply-add: half the dependent
    /// latency, so a vector loop around a long polynomial is not bound by
    /// one chain (erf's degree-14 erfc: GELU ~1.3x faster).
    fn horner_even_odd(&self, t: Value<'c, 'e>, coefficients: &[f32]) -> Value<'c, 'e> {
        let t2 = self.mul(t, t);
        let even: Vec<f32> = coefficients.iter().step_by(2).copied().collect();
        let odd: Vec<f32> = coefficients.iter().skip(1).step_by(2).copied().collect();
        self.madd(self.horner(t2, &odd), t, self.horner(t2, &even))
    }

    fn cmp(&self, predicate: i64, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'e> {
        let predicate = IntegerAttribute::new(IntegerType::new(self.emitter.context, 64).into(), predicate).into();
        self.emitter.value("arith.cmpf", &[lhs, rhs], self.bool, &[("predicate", predicate)])
    }

    fn and(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'e> {
        self.emitter.value("arith.andi", &[lhs, rhs], self.bool, &[])
    }

    fn or(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'e> {
        self.emitter.value("arith.ori", &[lhs, rhs], self.bool, &[])
    }

    fn not(&self, x: Value<'c, '_>) -> Value<'c, 'e> {
        let scalar = IntegerAttribute::new(IntegerType::new(self.emitter.context, 1).into(), -1).into();
        let all = self.emitter.value("arith.constant", &[], self.bool, &[("value", self.splat(self.bool, scalar))]);
        self.emitter.value("arith.xori", &[x, all], self.bool, &[])
    }

    fn select(&self, condition: Value<'c, '_>, then: Value<'c, '_>, otherwise: Value<'c, '_>) -> Value<'c, 'e> {
        self.emitter.value("arith.select", &[condition, then, otherwise], then.r#type(), &[])
    }

    /// x clamped to [lo, hi]; NaN stays NaN.
    fn clamp(&self, x: Value<'c, '_>, lo: f32, hi: f32) -> Value<'c, 'e> {
        let (lo, hi) = (self.f(lo), self.f(hi));
        let x = self.select(self.cmp(OLT, x, lo), lo, x);
        self.select(self.cmp(OGT, x, hi), hi, x)
    }

    fn abs(&self, x: Value<'c, '_>) -> Value<'c, 'e> {
        self.emitter.unary("math.absf", x, self.float)
    }

    fn copysign(&self, magnitude: Value<'c, '_>, sign: Value<'c, '_>) -> Value<'c, 'e> {
        self.emitter.value("math.copysign", &[magnitude, sign], self.float, &[])
    }

    /// An integer op on the i32 type.
    fn int(&self, name: &str, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'e> {
        self.emitter.value(name, &[lhs, rhs], self.int, &[])
    }

    fn bitcast_to_int(&self, x: Value<'c, '_>) -> Value<'c, 'e> {
        self.emitter.unary("arith.bitcast", x, self.int)
    }

    fn bitcast_to_float(&self, x: Value<'c, '_>) -> Value<'c, 'e> {
        self.emitter.unary("arith.bitcast", x, self.float)
    }

    /// p 2^floor(n), one rounding: AVX-512's `vscalefps` (all lanes
    /// enabled; the intrinsic's operands are value, exponent, pass-through).
    fn scale(&self, p: Value<'c, '_>, n: Value<'c, '_>) -> Value<'c, 'e> {
        let context = self.emitter.context;
        let constant = |ty: &str, value: i64| -> Value<'c, 'e> {
            let ty = Type::parse(context, ty).expect("integer type");
            let attribute = IntegerAttribute::new(ty, value).into();
            self.emitter.value("arith.constant", &[], ty, &[("value", attribute)])
        };
        let all_lanes = constant("i16", -1);
        let current_rounding = constant("i32", 4);
        self.emitter.value("x86vector.avx512.mask.scalef", &[p, n, p, all_lanes, current_rounding], self.float, &[])
    }

    /// `table[index[l]]` in each lane l of a `vector<16xf32>` (index bits
    /// 0-3): AVX-512's `vpermps`, the table a constant vector.
    fn permute(&self, table: &[f32; 16], index: Value<'c, '_>) -> Value<'c, 'e> {
        let context = self.emitter.context;
        let elements: Vec<Attribute<'c>> = table
            .iter()
            .map(|&v| FloatAttribute::new(context, Type::float32(context), v as f64).into())
            .collect();
        let value = DenseElementsAttribute::new(self.float, &elements).expect("16 elements").into();
        let table = self.emitter.value("arith.constant", &[], self.float, &[("value", value)]);
        let attribute = |text: &str| Attribute::parse(context, text).expect("call_intrinsic attribute");
        self.emitter.value(
            "llvm.call_intrinsic",
            &[table, index],
            self.float,
            &[
                ("intrin", attribute("\"llvm.x86.avx512.permvar.sf.512\"")),
                ("fastmathFlags", attribute("#llvm.fastmath<none>")),
                ("op_bundle_sizes", attribute("array<i32>")),
                ("operandSegmentSizes", attribute("array<i32: 2, 0>")),
            ],
        )
    }

    /// 2^n for integer n in [-126, 127], built in the exponent field.
    fn pow2(&self, n: Value<'c, '_>) -> Value<'c, 'e> {
        let biased = self.int("arith.addi", n, self.i(127));
        self.bitcast_to_float(self.int("arith.shli", biased, self.i(23)))
    }
}
