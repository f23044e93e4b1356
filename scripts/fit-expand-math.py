#!/usr/bin/env python3
"""Fits the f32 polynomial coefficients of `pb-expand-math`
(conversions/src/expand_math.rs) and checks the expansions by emulating them
in f32, with and without fused multiply-adds.

    .venv/bin/python scripts/fit-expand-math.py          # prints the Rust constants and the errors

Each polynomial is a minimax fit (Lawson's iteratively reweighted least
squares on Chebyshev points, against mpmath at 100 bits) of the relative
error of the function it serves. Coefficients are rounded to f32 one at a
time, lowest power first, refitting the remaining ones after each rounding so
that later coefficients absorb the rounding of earlier ones. The emulation
below mirrors the op sequence of the Rust expansion step by step: change both
together.
"""

import sys

import mpmath as mp
import numpy as np
import scipy.special

mp.mp.prec = 100
F = np.float32


# ---------------------------------------------------------------- fitting


def lawson(basis, target, weight, iters=300):
    """Coefficients c minimizing max |weight * (basis @ c - target)|."""
    lw = np.ones(len(target)) / len(target)
    best = None
    for _ in range(iters):
        sw = np.sqrt(lw) * weight
        c, *_ = np.linalg.lstsq(basis * sw[:, None], target * sw, rcond=None)
        err = np.abs((basis @ c - target) * weight)
        if best is None or err.max() < best[0]:
            best = (err.max(), c)
        lw = lw * err
        lw /= lw.sum()
    return best[1]


def fit(t, target, weight, degree):
    """sum_k c_k t^k ~ target, c_k in f32, rounded lowest power first."""
    coeffs, rest = [], target.copy()
    for k in range(degree + 1):
        basis = np.stack([t**p for p in range(k, degree + 1)], axis=1)
        c = float(F(lawson(basis, rest, weight)[0]))
        coeffs.append(c)
        rest = rest - c * t**k
    return coeffs


def chebyshev(lo, hi, n=3001):
    return lo + (hi - lo) * (np.cos(np.linspace(0, np.pi, n)) * 0.5 + 0.5)


def exact(f, xs):
    return np.array([float(f(mp.mpf(float(x)))) for x in xs])


LN2 = mp.log(2)
LOG2E = F(1 / LN2)  # = std::f32::consts::LOG2_E in the Rust source
LN2_HI = F(round(float(LN2) * 2**16) / 2**16)  # 16 significant bits: n * LN2_HI is exact for |n| < 256
LN2_LO = F(float(LN2 - mp.mpf(float(LN2_HI))))
ROUND_MAGIC = F(1.5 * 2**23)

# e^r - 1 = r + r^2 q(r) on |r| <= ln2/2 (plus a margin: n comes from a rounded product),
# relative to e^r - 1 (so that exp, expm1 and tanh all get it to < 1 ulp).
r = chebyshev(-float(LN2 / 2) * 1.0002, float(LN2 / 2) * 1.0002, 4000)
r = r[r != 0]
EXP_Q = fit(r, exact(lambda v: (mp.expm1(v) - v) / v**2, r), r**2 / np.abs(exact(mp.expm1, r)), 4)

# tanh(a) = a + a^3 p(a^2) for a < TANH_SMALL.
TANH_SMALL = F(0.4)
TANH_CLAMP = F(9.1)
a = chebyshev(1e-6, float(TANH_SMALL) * 1.0001)
TANH_P = fit(a * a, exact(lambda v: (mp.tanh(v) - v) / v**3, a), a**3 / exact(mp.tanh, a), 3)

# erf(a) = a + a q(a^2) for a < ERF_SMALL; 1 - p(a - ERFC_CENTER) up to ERF_ONE
# (one polynomial: no per-lane choice of coefficients); 1 from ERF_ONE.
ERF_SMALL = F(1.0)
ERF_ONE = F(3.9375)  # erfc(3.9375) = 2.6e-8 < 2^-25: erf rounds to 1
a = chebyshev(1e-4, float(ERF_SMALL) * 1.0001)
ERF_Q = fit(a * a, exact(lambda v: mp.erf(v) / v - 1, a), a / exact(mp.erf, a), 7)
ERFC_CENTER = F((float(ERF_SMALL) + float(ERF_ONE)) / 2)
a = chebyshev(float(ERF_SMALL), float(ERF_ONE), 6001)
ERFC_P = fit(a - ERFC_CENTER, exact(mp.erfc, a), np.ones_like(a), 14)

# erf on AVX-512 (x86-avx512): |x| clamped to ERF_ONE, u = 4|x|, interval
# i = floor(u) (16 intervals of width 1/4), t = u - i in [0, 1), and
# erf = c0[i] + t c1[i] + t^2 (c2[i] + t (c3[i] + ...)): the coefficients of
# each lane's interval picked from 16-entry tables by one vpermps each. Term
# t c1 added last keeps small |x| relative-accurate; interval 0 has c0 = 0
# and c1 = the f32 nearest (2/sqrt(pi))/4, the rest fitted around it.
ERF_TABLE_SCALE = F(4)
ERF_TABLE_DEGREE = 5


def fit_erf_tables():
    tables = []
    for i in range(16):
        hi = min(1.0, float(ERF_ONE * ERF_TABLE_SCALE) - i)
        t = chebyshev(0, hi * 1.0001, 2001)
        t = t[t > 0] if i == 0 else t
        x = (i + t) / float(ERF_TABLE_SCALE)
        want = exact(mp.erf, x)
        if i == 0:
            c1 = F(2 / mp.sqrt(mp.pi) / float(ERF_TABLE_SCALE))
            rest = fit(t, (want - float(c1) * t) / t**2, t**2 / want, ERF_TABLE_DEGREE - 2)
            tables.append([0.0, float(c1)] + rest)
        else:
            c0 = fit(t, want, 1 / want, ERF_TABLE_DEGREE)
            tables.append(c0)
    return np.array(tables, dtype=F).T  # [power][interval]


ERF_TABLES = fit_erf_tables()

# log(1 + f) = f + f^2 q(f) for f in [sqrt(1/2) - 1, sqrt(2) - 1).
SQRT_HALF_BITS = 0x3F3504F3
f = chebyshev(float(np.int32(SQRT_HALF_BITS).view(F)) - 1, float(mp.sqrt(2)) - 1, 4000)
f = f[np.abs(f) > 1e-7]
LOG_Q = fit(f, exact(lambda v: (mp.log1p(v) - v) / v**2, f), f * f / np.abs(exact(mp.log1p, f)), 8)

# powf with a constant exponent on an FMA target, in f32 double-word
# arithmetic: log2 m = K s + s^3 q(s^2), s = (m - 1)/(m + 1), |s| < 0.1716
# (K = 2 log2(e)), relative to log2 m; 2^r - 1 = r ln2 + r^2 p(r) for
# |r| <= POW_R_MAX (1/2, plus y times the low part of log2 m, |y| <= 8),
# relative to 2^r.
POW_K = 2 / LN2
POW_R_MAX = 0.545
s = chebyshev(1e-4, 0.17158, 4000)
POW_LOG2_Q = fit(s * s, exact(lambda v: (mp.log((1 + v) / (1 - v)) / LN2 - POW_K * v) / v**3, s), s**3 / exact(lambda v: mp.log((1 + v) / (1 - v)) / LN2, s), 3)
r = chebyshev(-POW_R_MAX, POW_R_MAX, 4000)
r = r[np.abs(r) > 1e-6]
POW_EXP2_P = fit(r, exact(lambda v: (mp.power(2, v) - 1 - v * LN2) / v**2, r), r**2 / exact(lambda v: mp.power(2, v), r), 6)


# ------------------------------------------------------------- emulation


def r32(v):
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(v, dtype=np.float64).astype(F)


def mul(a, b):
    return r32(np.float64(a) * b)


def add(a, b):
    return r32(np.float64(a) + b)


def sub(a, b):
    return r32(np.float64(a) - b)


def madd(a, b, c, fma):
    """a * b + c: `arith.mulf` + `arith.addf` with `contract`, fused or not by LLVM."""
    if fma:
        return r32(np.float64(a) * np.float64(b) + c)  # the f32 product is exact in f64
    return add(mul(a, b), c)


def horner(t, coeffs, fma):
    acc = np.full_like(t, F(coeffs[-1]))
    for c in reversed(coeffs[:-1]):
        acc = madd(acc, t, F(c), fma)
    return acc


def horner_even_odd(t, coeffs, fma):
    """Two Horner chains in t^2 (even and odd coefficients), then one madd."""
    t2 = mul(t, t)
    return madd(horner(t2, coeffs[1::2], fma), t, horner(t2, coeffs[0::2], fma), fma)


def bits(v):
    return v.view(np.int32)


def from_bits(i):
    return np.asarray(i, dtype=np.int32).view(F)


def pow2(n):
    return from_bits((n + 127) << 23)


def reduce(x, fma):
    """x = n ln2 + r: n = round(x log2e) through the 1.5*2^23 trick."""
    t = madd(x, LOG2E, ROUND_MAGIC, fma)
    nf = sub(t, ROUND_MAGIC)
    n = bits(t) - bits(np.full_like(t, ROUND_MAGIC))
    rr = madd(nf, -LN2_HI, x, fma)
    return n, madd(nf, -LN2_LO, rr, fma)


def expm1_reduced(rr, fma):
    return madd(mul(rr, rr), horner(rr, EXP_Q, fma), rr, fma)


def clamp(x, lo, hi):
    x = np.where(x < F(lo), F(lo), x)
    return np.where(x > F(hi), F(hi), x)


def exp32(x, fma):
    n, rr = reduce(clamp(x, -104.0, 88.8), fma)
    p = add(expm1_reduced(rr, fma), F(1))
    half = n >> 1
    return mul(mul(p, pow2(half)), pow2(n - half))


def expm1_32(x, fma):
    n, rr = reduce(clamp(x, -30.0, 88.8), fma)
    u = expm1_reduced(rr, fma)
    s = pow2(n - 1)
    em1 = mul(madd(s, u, sub(s, F(0.5)), fma), F(2))
    return np.where(np.abs(x) < F(2.0**-60), x, em1)


def tanh32(x, fma):
    a = np.abs(x)
    c = np.where(a > TANH_CLAMP, TANH_CLAMP, a)
    n, rr = reduce(add(c, c), fma)
    u = expm1_reduced(rr, fma)
    s = pow2(n)
    em1 = madd(s, u, sub(s, F(1)), fma)
    large = r32(np.float64(em1) / add(em1, F(2)))
    a2 = mul(a, a)
    small = madd(mul(a, a2), horner(a2, TANH_P, fma), a, fma)
    return np.copysign(np.where(a < TANH_SMALL, small, large), x)


def erf32(x, fma):
    a = np.abs(x)
    a = np.where(a > ERF_ONE, ERF_ONE, a)
    small = madd(a, horner(mul(a, a), ERF_Q, fma), a, fma)
    large = sub(F(1), horner_even_odd(sub(a, ERFC_CENTER), ERFC_P, fma))
    return np.copysign(np.where(a < ERF_SMALL, small, large), x)


def erf32_avx512(x, fma):
    a = np.abs(x)
    a = np.where(a > ERF_ONE, ERF_ONE, a)
    u = mul(a, ERF_TABLE_SCALE)
    fl = np.floor(u)
    i = np.where(np.isnan(fl), 0, fl).astype(np.int32)  # vpermps reads the index bits of fl + 2^23
    t = sub(u, fl)
    c = ERF_TABLES[:, i]
    acc = c[-1]
    for k in range(ERF_TABLE_DEGREE - 1, 1, -1):
        acc = madd(acc, t, c[k], fma)
    value = madd(t, c[1], madd(mul(t, t), acc, c[0], fma), fma)
    return np.copysign(value, x)


def log32(x, fma):
    subnormal = x < F(2.0**-126)
    xs = np.where(subnormal, mul(x, F(2.0**23)), x)
    bias = np.where(subnormal, np.int32(127 + 23), np.int32(127))
    ix = bits(xs) + np.int32(0x3F800000 - SQRT_HALF_BITS)
    e = (ix >> 23) - bias
    m = from_bits((ix & np.int32(0x007FFFFF)) + np.int32(SQRT_HALF_BITS))
    f = sub(m, F(1))
    ef = e.astype(F)
    lp = madd(mul(f, f), horner(f, LOG_Q, fma), f, fma)
    res = madd(ef, LN2_HI, madd(ef, LN2_LO, lp, fma), fma)
    res = np.where(x == F(np.inf), F(np.inf), res)
    return np.where(x > 0, res, np.where(x == 0, F(-np.inf), F(np.nan)))


def fma32(a, b, c):
    """One rounding of a b + c (the f64 product of two f32 is exact)."""
    return r32(np.float64(a) * np.float64(b) + np.float64(c))


def fast_two_sum(a, b):
    """(s, err): s = fl(a + b), a + b = s + err exactly when |a| >= |b|
    (or a = 0); otherwise err is still within an ulp of the rounding error."""
    s = add(a, b)
    return s, sub(b, sub(s, a))


def estrin(t, coeffs):
    """The Rust builder's Estrin scheme (pairs, then pairs of pairs), with FMA."""
    terms = [fma32(np.full_like(t, F(pair[1])), t, np.full_like(t, F(pair[0]))) if len(pair) == 2 else np.full_like(t, F(pair[0]))
             for pair in (coeffs[i:i + 2] for i in range(0, len(coeffs), 2))]
    power = mul(t, t)
    while len(terms) > 1:
        terms = [fma32(pair[1], power, pair[0]) if len(pair) == 2 else pair[0] for pair in (terms[i:i + 2] for i in range(0, len(terms), 2))]
        power = mul(power, power)
    return terms[0]


def pow32_constant(x, y):
    """powf(|x|, y) for a constant y, |y| <= 8, x finite and positive (the
    f32 double-word expansion; FMA targets only)."""
    y = F(y)
    subnormal = x < F(2.0**-126)
    xs = np.where(subnormal, mul(x, F(2.0**24)), x)
    ix = bits(xs) + np.int32(0x3F800000 - SQRT_HALF_BITS)
    e = (ix >> 23) - 127 - np.where(subnormal, np.int32(24), np.int32(0))
    m = from_bits((ix & np.int32(0x007FFFFF)) + np.int32(SQRT_HALF_BITS))
    f = sub(m, F(1))
    dh = add(m, F(1))
    dl = sub(m, sub(dh, F(1)))
    qh = r32(np.float64(f) / np.float64(dh))
    rem = fma32(-qh, dh, f)
    rem = fma32(-qh, dl, rem)
    half = mul(rem, F(0.5))
    ql = fma32(-qh, half, half)  # rem / dh, as 1 / dh = (1 - qh) / 2
    s2 = mul(qh, qh)
    tail = mul(mul(qh, s2), estrin(s2, POW_LOG2_Q))
    kh = F(POW_K)
    kl = F(POW_K - mp.mpf(float(kh)))
    lh = mul(qh, kh)
    ll = add(fma32(qh, kh, -lh), add(fma32(qh, kl, mul(ql, kh)), tail))
    ef = e.astype(F)
    th = mul(y, ef)
    tl = fma32(y, ef, -th)
    uh = mul(y, lh)
    ul = add(fma32(y, lh, -uh), mul(y, ll))
    sh, err = fast_two_sum(th, uh)
    sl = add(err, add(tl, ul))
    sh = clamp(sh, F(-200), F(200))
    nf = sub(add(sh, ROUND_MAGIC), ROUND_MAGIC)
    r, rl = fast_two_sum(sub(sh, nf), sl)
    c0h = F(LN2)
    c0l = F(LN2 - mp.mpf(float(c0h)))
    inner = fma32(mul(r, r), estrin(r, POW_EXP2_P), fma32(r, c0l, mul(rl, c0h)))
    p = add(F(1), fma32(r, c0h, inner))
    n = nf.astype(np.int32)
    half = n >> 1
    return mul(mul(p, pow2(half)), pow2(n - half))


# ----------------------------------------------------------------- checks


def ulps(got, want):
    """|got - want| in f32 ulps of want (subnormal spacing below 2^-126)."""
    e = np.floor(np.log2(np.maximum(np.abs(want), 2.0**-126)))
    return np.abs(np.float64(got) - want) / 2.0 ** (e - 23)


def report():
    rng = np.random.default_rng(0)

    def grid(lo, hi, n=1_000_000):
        return np.concatenate([np.linspace(lo, hi, n), rng.uniform(lo, hi, n)]).astype(F)

    cases = {
        "exp": (exp32, np.exp, np.concatenate([grid(-104, 89), grid(-1, 1)])),
        "expm1": (expm1_32, np.expm1, np.concatenate([grid(-20, 20), grid(-1, 1), grid(-1e-3, 1e-3), grid(-100, 89)])),
        "tanh": (tanh32, np.tanh, np.concatenate([grid(-10, 10), grid(-1, 1), grid(-1e-3, 1e-3)])),
        "erf": (erf32, scipy.special.erf, np.concatenate([grid(-4.5, 4.5), grid(-1, 1), grid(-1e-3, 1e-3)])),
        "erf (x86-avx512)": (erf32_avx512, scipy.special.erf, np.concatenate([grid(-4.5, 4.5), grid(-1, 1), grid(-1e-3, 1e-3)])),
        "log": (log32, np.log, np.concatenate([grid(1e-3, 10), grid(0.5, 2), (2.0 ** rng.uniform(-149, 128, 1_000_000)).astype(F)])),
    }
    for name, (ours, reference, x) in cases.items():
        x = np.concatenate([x, np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, 1e-45, -1e-45], F)])
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            want = reference(np.float64(x))
            want32 = want.astype(F)
        finite = np.isfinite(want32)
        for fma in (False, True):
            got = ours(x, fma)
            e = ulps(got[finite], want[finite])
            normal = finite & (np.abs(want) >= 2.0**-126)
            rel = np.max(np.abs(np.float64(got[normal]) - want[normal]) / np.abs(want[normal]))
            special = ~finite
            specials_ok = np.array_equal(np.isnan(got[special]), np.isnan(want32[special])) and np.array_equal(
                got[special & ~np.isnan(want32)], want32[special & ~np.isnan(want32)]
            )
            print(
                f"{name:16} fma={int(fma)}: max {e.max():.3f} ulp at {x[finite][np.argmax(e)]!r}, "
                f"max relative error {rel:.3g}; infinities and NaN as expected: {specials_ok}"
            )
    x = np.concatenate([grid(0, 4), (2.0 ** rng.uniform(-149, 128, 1_000_000)).astype(F)])
    x = x[x > 0]
    for y in (1 / 2.2, 2.4, -0.5, 1 / 3, 7.0, -8.0):
        with np.errstate(over="ignore", under="ignore"):
            want = np.power(np.float64(x), np.float64(F(y)))
            got = pow32_constant(x, y)
            finite = np.isfinite(want.astype(F)) & (want.astype(F) != 0)
        e = ulps(got[finite], want[finite])
        print(f"powf(x, {F(y)!r:12}) fma=1: max {e.max():.3f} ulp at {x[finite][np.argmax(e)]!r}")


def literal(v):
    """The shortest decimal that reads back as the f32 `v` (what clippy wants)."""
    text = np.format_float_scientific(F(v), unique=True, exp_digits=1).replace("e+0", "").replace("e+", "e")
    assert F(text) == F(v)
    return text


def rust(name, values):
    body = ", ".join(literal(v) for v in values)
    return f"const {name}: [f32; {len(values)}] = [{body}];"


if __name__ == "__main__":
    print(f"const LOG2E: f32 = {literal(LOG2E)};\nconst LN2_HI: f32 = {literal(LN2_HI)};\nconst LN2_LO: f32 = {literal(LN2_LO)};")
    print(rust("EXP_Q", EXP_Q))
    print(rust("TANH_P", TANH_P))
    print(rust("ERF_Q", ERF_Q))
    print(f"const ERFC_CENTER: f32 = {literal(ERFC_CENTER)};")
    print(rust("ERFC_P", ERFC_P))
    for power, row in enumerate(ERF_TABLES):
        print(rust(f"ERF_TABLE_{power}", row))
    print(rust("LOG_Q", LOG_Q))
    print(rust("POW_LOG2_Q", POW_LOG2_Q))
    print(rust("POW_EXP2_P", POW_EXP2_P))
    if "--no-check" not in sys.argv:
        report()
