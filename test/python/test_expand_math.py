"""pb-expand-math on compiled code: f32 exp, expm1, log, tanh and erf, on
vectors and on scalars, compared in ulps with numpy's float64 functions over
dense sweeps, a stride through every f32 bit pattern, and special values.

The module goes through pb-opt (the pass, then upstream lowering to the LLVM
dialect), mlir-translate and clang, once for the host CPU (LLVM fuses the
pass's `contract` multiply-adds into FMAs) and once for baseline x86-64 (no
FMA), since the expansions must be accurate either way."""

import ctypes
import pathlib
import platform
import subprocess

import numpy as np
import pytest
import scipy.special

REPO = pathlib.Path(__file__).resolve().parents[2]
LLVM = pathlib.Path("/usr/lib/llvm-22/bin")
LOWER = (
    "builtin.module(func.func(pb-expand-math),convert-math-to-llvm,convert-math-to-libm,convert-vector-to-scf,"
    "convert-scf-to-cf,convert-vector-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,"
    "convert-cf-to-llvm,reconcile-unrealized-casts)"
)
LANES = 16

# function: (numpy float64 reference, max ulps, dense sweep ranges)
FUNCTIONS = {
    "exp": (np.exp, 1.5, [(-104.0, 89.0), (-1.0, 1.0)]),
    "expm1": (np.expm1, 2.0, [(-20.0, 20.0), (-1.0, 1.0), (-1e-3, 1e-3), (-104.0, 89.0)]),
    "log": (np.log, 1.5, [(0.0, 4.0), (0.5, 2.0), (0.0, 1e6)]),
    "tanh": (np.tanh, 2.0, [(-10.0, 10.0), (-1.0, 1.0), (-1e-3, 1e-3)]),
    "erf": (scipy.special.erf, 1.5, [(-4.5, 4.5), (-1.0, 1.0), (-1e-3, 1e-3)]),
}

SPECIALS = np.array(
    [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-45, -1e-45, 1e-38, 1.17549435e-38, 3.4028235e38, -3.4028235e38,
     88.72283, 88.72284, 88.7229, 89.0, -87.33655, -103.97208, -103.97209, -104.0, -105.0, 0.4, 0.875, 1.75, 2.75,
     3.9375, 9.0, 9.1, 9.2, 0.34657359, -0.34657359, 0.70710677, 1.4142135],
    dtype=np.float32,
)

MODULE = """
func.func @vector(%x: memref<?xf32>, %y: memref<?xf32>) {{
  %c0 = arith.constant 0 : index
  %step = arith.constant {lanes} : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %step {{
    %v = vector.load %x[%i] : memref<?xf32>, vector<{lanes}xf32>
    %r = math.{op} %v : vector<{lanes}xf32>
    vector.store %r, %y[%i] : memref<?xf32>, vector<{lanes}xf32>
  }}
  return
}}

func.func @scalar(%x: memref<?xf32>, %y: memref<?xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {{
    %v = memref.load %x[%i] : memref<?xf32>
    %r = math.{op} %v : f32
    memref.store %r, %y[%i] : memref<?xf32>
  }}
  return
}}
"""


def pb_opt():
    return REPO / "target" / "debug" / "pb-opt"


def build(tmp_path, op, cpu, lower=LOWER, text=None):
    """The shared library of `text` (default: MODULE for `op`) through pb-opt
    (`lower`), mlir-translate and clang for `cpu`; its LLVM IR is left in
    `{op}-{cpu}.ll`."""
    source = tmp_path / f"{op}.mlir"
    source.write_text(MODULE.format(op=op, lanes=LANES) if text is None else text)
    lowered = subprocess.run([pb_opt(), source, f"--pass-pipeline={lower}"], capture_output=True, text=True, check=True).stdout
    ir = subprocess.run([LLVM / "mlir-translate", "--mlir-to-llvmir"], input=lowered, capture_output=True, text=True, check=True).stdout
    (tmp_path / f"{op}-{cpu}.ll").write_text(ir)
    library = tmp_path / f"lib{op}-{cpu}.so"
    subprocess.run([LLVM / "clang", "-O3", f"-march={cpu}", "-shared", "-fPIC", "-Wno-override-module",
                    tmp_path / f"{op}-{cpu}.ll", "-o", library], check=True)
    return library


def imports(library):
    out = subprocess.run([LLVM / "llvm-nm", "-D", "--undefined-only", library], capture_output=True, text=True, check=True)
    return [s for s in out.stdout.split() if s not in ("U", "w", "v")]


def call(library, name, x):
    n = len(x)
    padded = np.zeros(-(-n // LANES) * LANES, dtype=np.float32)
    padded[:n] = x
    y = np.empty_like(padded)
    function = getattr(ctypes.CDLL(str(library)), name)
    memref = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64]
    function.argtypes = memref + memref
    function.restype = None
    size = len(padded)
    function(padded.ctypes.data, padded.ctypes.data, 0, size, 1, y.ctypes.data, y.ctypes.data, 0, size, 1)
    return y[:n]


def inputs(ranges):
    rng = np.random.default_rng(0)
    parts = [SPECIALS, -SPECIALS]
    for lo, hi in ranges:
        parts += [np.linspace(lo, hi, 1_000_003), rng.uniform(lo, hi, 1_000_000)]
    # Every 997th f32 bit pattern: all exponents, both signs, NaNs, infinities, subnormals.
    parts.append(np.arange(0, 2**32, 997, dtype=np.uint64).astype(np.uint32).view(np.float32))
    return np.concatenate([p.astype(np.float32) for p in parts])


def ulps(got, want):
    """|got - want| in ulps of the f32 nearest want (subnormal spacing below 2^-126)."""
    exponent = np.floor(np.log2(np.maximum(np.abs(want), 2.0**-126)))
    return np.abs(got.astype(np.float64) - want) / 2.0 ** (exponent - 23)


def check(x, got, reference, max_ulps):
    with np.errstate(all="ignore"):
        want = reference(x.astype(np.float64))
        want32 = want.astype(np.float32)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan), f"NaN mismatch at x = {x[np.isnan(got) != nan][:5]}"
    infinite = np.isinf(want32)
    mismatch = infinite & (got != want32)
    assert not mismatch.any(), f"expected {want32[mismatch][:5]} at x = {x[mismatch][:5]}, got {got[mismatch][:5]}"
    finite = ~nan & ~infinite
    assert np.isfinite(got[finite]).all(), f"non-finite results at x = {x[finite][~np.isfinite(got[finite])][:5]}"
    errors = ulps(got[finite], want[finite])
    worst = np.argmax(errors)
    assert errors[worst] <= max_ulps, f"{errors[worst]:.3f} ulps at x = {x[finite][worst]!r}"
    return errors[worst]


CPUS = ["native", "x86-64"] if platform.machine() == "x86_64" else ["native"]


@pytest.mark.parametrize("cpu", CPUS)
@pytest.mark.parametrize("op", sorted(FUNCTIONS))
def test_expansion_is_accurate(tmp_path, op, cpu):
    reference, max_ulps, ranges = FUNCTIONS[op]
    library = build(tmp_path, op, cpu)
    assert not [s for s in imports(library) if s.rstrip("f").startswith(op)], "the f32 function must not call libm"
    x = inputs(ranges)
    for name in ("vector", "scalar"):
        got = call(library, name, x)
        worst = check(x, got, reference, max_ulps)
        print(f"{op} {name} {cpu}: max {worst:.3f} ulp over {len(x)} inputs")


def host_has_avx512f():
    try:
        return " avx512f" in pathlib.Path("/proc/cpuinfo").read_text()
    except OSError:
        return False


AVX512_INSTRUCTION = {"exp": "vscalefps", "erf": "vpermps"}


@pytest.mark.skipif(not host_has_avx512f(), reason="needs AVX-512F")
@pytest.mark.parametrize("op", sorted(AVX512_INSTRUCTION))
def test_avx512_expansions_are_accurate(tmp_path, op):
    """The cpu pipeline's expansions on AVX-512 hosts (x86-avx512): exp
    applies 2^n by vscalefps (x86vector.avx512.mask.scalef) instead of two
    exponent-built factors, erf reads per-interval coefficients from tables
    by vpermps (llvm.call_intrinsic); each within the same ulp bound as the
    generic expansion, subnormal results, overflow and specials included."""
    lower = LOWER.replace("pb-expand-math", "pb-expand-math{x86-avx512=true}").replace(
        "convert-vector-to-llvm", "convert-vector-to-llvm{enable-x86vector=true}"
    )
    library = build(tmp_path, op, "native", lower)
    assert AVX512_INSTRUCTION[op] in subprocess.run(
        [LLVM / "llvm-objdump", "-d", library], capture_output=True, text=True, check=True
    ).stdout
    reference, max_ulps, ranges = FUNCTIONS[op]
    x = inputs(ranges)
    worst = check(x, call(library, "vector", x), reference, max_ulps)
    print(f"{op} vector with {AVX512_INSTRUCTION[op]}: max {worst:.3f} ulp over {len(x)} inputs")


@pytest.mark.skipif(not host_has_avx512f(), reason="needs AVX-512F")
def test_avx512_only_when_generating_for_the_host(tmp_path):
    """The cpu pipeline uses vscalefps and vpermps on an AVX-512F host,
    never in code generated for another CPU (`--cpu`), which may lack
    AVX-512."""
    from polyblocks.engine import engine_binary

    source = tmp_path / "softmax.mlir"
    source.write_text(
        "func.func @f(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {\n"
        "  %e = math.exp %x : tensor<4x64xf32>\n"
        "  %r = math.erf %e : tensor<4x64xf32>\n"
        "  return %r : tensor<4x64xf32>\n}\n"
    )

    def llvm_ir(*flags):
        run = subprocess.run([engine_binary(), source, "--emit-llvm", *flags], capture_output=True, text=True, cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        # Printing the IR writes no library (it used to land in the caller's directory).
        assert not list(tmp_path.glob("lib*")), run.stderr
        return run.stdout

    host, other = llvm_ir(), llvm_ir("--cpu=x86-64-v3")
    assert "scalef" in host and "permvar" in host
    assert "scalef" not in other and "permvar" not in other


def test_odd_functions_are_exactly_odd(tmp_path):
    x = inputs([(0.0, 10.0)])
    x = x[np.isfinite(x)]
    for op in ("tanh", "erf"):
        library = build(tmp_path, op, "native")
        assert np.array_equal(call(library, "vector", -x), -call(library, "vector", x))


POW_MODULE = """
func.func @vector(%x: memref<?xf32>, %y: memref<?xf32>, %z: memref<?xf32>) {{
  %c0 = arith.constant 0 : index
  %step = arith.constant {lanes} : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %step {{
    %a = vector.load %x[%i] : memref<?xf32>, vector<{lanes}xf32>
    %b = vector.load %y[%i] : memref<?xf32>, vector<{lanes}xf32>
    %r = math.powf %a, %b : vector<{lanes}xf32>
    vector.store %r, %z[%i] : memref<?xf32>, vector<{lanes}xf32>
  }}
  return
}}

func.func @scalar(%x: memref<?xf32>, %y: memref<?xf32>, %z: memref<?xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {{
    %a = memref.load %x[%i] : memref<?xf32>
    %b = memref.load %y[%i] : memref<?xf32>
    %r = math.powf %a, %b : f32
    memref.store %r, %z[%i] : memref<?xf32>
  }}
  return
}}
"""


def call2(library, name, x, y):
    n = len(x)
    size = -(-n // LANES) * LANES
    a, b = np.ones(size, dtype=np.float32), np.ones(size, dtype=np.float32)
    a[:n], b[:n] = x, y
    z = np.empty_like(a)
    function = getattr(ctypes.CDLL(str(library)), name)
    memref = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64]
    function.argtypes = memref * 3
    function.restype = None
    function(*[v for arr in (a, b, z) for v in (arr.ctypes.data, arr.ctypes.data, 0, size, 1)])
    return z[:n]


def pow_inputs():
    """(x, y) pairs: every pair of special values, dense sweeps of x per
    exponent (gamma 1/2.2, halves, integers, large ones that under- and
    overflow), random pairs over wide ranges, negative bases with integer
    exponents."""
    rng = np.random.default_rng(1)
    specials = np.concatenate([SPECIALS, -SPECIALS, np.float32([0.5, 2.0, 3.0, 0.25, 1.5, 2.5, 127.0, 128.0, 149.0, 150.0, 1e10])])
    xs, ys = [np.repeat(specials, len(specials))], [np.tile(specials, len(specials))]
    for y in (1 / 2.2, 2.2, 0.5, 2.0, 3.0, -1.0, -0.5, 1.0, 7.0, -7.0, 33.3, -33.3, 0.001, 100.0, -100.0):
        x = np.concatenate([np.linspace(0.0, 4.0, 200_003), rng.uniform(0.0, 1e4, 100_000), rng.uniform(0, 1e-30, 50_000)])
        xs.append(x)
        ys.append(np.full(len(x), y))
    xs.append(rng.uniform(0.0, 10.0, 1_000_000))
    ys.append(rng.uniform(-40.0, 40.0, 1_000_000))
    x = np.exp(rng.uniform(-80.0, 80.0, 1_000_000))
    xs.append(x)
    ys.append(rng.uniform(-120.0, 120.0, 1_000_000) / np.log(x))
    xs.append(rng.uniform(-10.0, 10.0, 200_000))
    ys.append(rng.integers(-30, 30, 200_000))
    # Every 997th bit pattern as x, and as y with x = 1.5 / 0.7.
    bits = np.arange(0, 2**32, 997, dtype=np.uint64).astype(np.uint32).view(np.float32)
    xs += [bits, np.full(len(bits), 1.5), np.full(len(bits), 0.7)]
    ys += [np.full(len(bits), 0.75), bits, bits]
    with np.errstate(all="ignore"):  # exponents past the f32 range become +-inf
        return np.concatenate(xs).astype(np.float32), np.concatenate(ys).astype(np.float32)


@pytest.mark.parametrize("cpu", CPUS)
def test_powf_expansion_is_accurate(tmp_path, cpu):
    """powf within 0.51 ulp of the exact value (f64 evaluation, one final
    rounding), with C's special values, on vectors and scalars, with and
    without FMA; no libm call."""
    library = build(tmp_path, "powf", cpu, text=POW_MODULE.format(lanes=LANES))
    assert not [s for s in imports(library) if s.startswith("pow")], "powf must not call libm"
    x, y = pow_inputs()
    with np.errstate(all="ignore"):
        want = np.power(x.astype(np.float64), y.astype(np.float64))
    # numpy's float64 pow is C's pow: the same special values as powf.
    for name in ("vector", "scalar"):
        got = call2(library, name, x, y)
        with np.errstate(all="ignore"):
            worst = check_values(x, y, got, want, 0.51)
        print(f"powf {name} {cpu}: max {worst:.3f} ulp over {len(x)} inputs")


def check_values(x, y, got, want, max_ulps):
    want32 = want.astype(np.float32)
    nan = np.isnan(want)
    bad = np.isnan(got) != nan
    assert not bad.any(), f"NaN mismatch at (x, y) = {list(zip(x[bad][:5], y[bad][:5]))}, got {got[bad][:5]}"
    exact = np.isinf(want32) | (want32 == 0)
    mismatch = exact & ((got != want32) | (np.signbit(got) != np.signbit(want32)))
    assert not mismatch.any(), (
        f"expected {want32[mismatch][:5]} at (x, y) = {list(zip(x[mismatch][:5], y[mismatch][:5]))}, got {got[mismatch][:5]}"
    )
    finite = ~nan & ~exact
    assert np.isfinite(got[finite]).all()
    errors = ulps(got[finite], want[finite])
    worst = np.argmax(errors)
    assert errors[worst] <= max_ulps, f"{errors[worst]:.3f} ulps at (x, y) = ({x[finite][worst]!r}, {y[finite][worst]!r})"
    return errors[worst]


POW_CONSTANT_MODULE = """
func.func @vector(%x: memref<?xf32>, %y: memref<?xf32>) {{
  %c0 = arith.constant 0 : index
  %step = arith.constant {lanes} : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %b = arith.constant dense<{exponent}> : vector<{lanes}xf32>
  scf.for %i = %c0 to %n step %step {{
    %a = vector.load %x[%i] : memref<?xf32>, vector<{lanes}xf32>
    %r = math.powf %a, %b : vector<{lanes}xf32>
    vector.store %r, %y[%i] : memref<?xf32>, vector<{lanes}xf32>
  }}
  return
}}

func.func @scalar(%x: memref<?xf32>, %y: memref<?xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %b = arith.constant {exponent} : f32
  scf.for %i = %c0 to %n step %c1 {{
    %a = memref.load %x[%i] : memref<?xf32>
    %r = math.powf %a, %b : f32
    memref.store %r, %y[%i] : memref<?xf32>
  }}
  return
}}
"""


def host_has_fma():
    try:
        return " fma" in pathlib.Path("/proc/cpuinfo").read_text()
    except OSError:
        return False


# Gamma curves, roots, reciprocals, odd and even integers, the bound |y| = 8
# and the smallest exponents; 8.5 is past the bound (the f64 evaluation).
POW_CONSTANTS = [1 / 2.2, 2.2, 1 / 2.4, 2.4, 1 / 3, 0.75, -0.5, -1.0, -2.0, 4.0, 7.0, -7.0, 8.0, -8.0, 1e-3, -1e-30, 8.5]


@pytest.mark.skipif(platform.machine() != "x86_64" or not host_has_fma(), reason="needs an x86 host with FMA")
def test_powf_with_a_constant_exponent_on_fma_targets(tmp_path):
    """powf(x, c) for a constant |c| <= 8 on an FMA target (pb-expand-math's
    `fma`): f32 double-word arithmetic with math.fma, within 1 ulp (as
    PyTorch's vectorized powf, Sleef's u10) over
    every 997th bit pattern of x (both signs, subnormals, infinities, NaN)
    and dense sweeps; C's special values; no libm call; and far fewer
    instructions than the f64 evaluation (none of them on doubles)."""
    lower = LOWER.replace("pb-expand-math", "pb-expand-math{fma=true}")
    rng = np.random.default_rng(2)
    bits = np.arange(0, 2**32, 997, dtype=np.uint64).astype(np.uint32).view(np.float32)
    x = np.concatenate([SPECIALS, -SPECIALS, np.linspace(0.0, 4.0, 200_003, dtype=np.float32),
                        rng.uniform(0.0, 1e4, 100_000).astype(np.float32), bits])
    for number, exponent in enumerate(POW_CONSTANTS):
        exponent = float(np.float32(exponent))
        # A library name per exponent: ctypes keeps a loaded path's library.
        op = f"powc{number}"
        library = build(tmp_path, op, "native", lower, POW_CONSTANT_MODULE.format(lanes=LANES, exponent=repr(exponent)))
        ir = (tmp_path / f"{op}-native.ll").read_text()
        assert not [s for s in imports(library) if s.startswith(("pow", "fma"))], "no libm call"
        assert ("double" in ir) == (abs(exponent) > 8), "f32 evaluation exactly for |y| <= 8"
        with np.errstate(all="ignore"):
            want = np.power(x.astype(np.float64), exponent)
        for name in ("vector", "scalar"):
            got = call(library, name, x)
            with np.errstate(all="ignore"):
                worst = check_values(x, np.full(len(x), exponent, np.float32), got, want, 1.0 if abs(exponent) <= 8 else 0.51)
            print(f"powf(x, {exponent!r}) {name}: max {worst:.3f} ulp over {len(x)} inputs")


@pytest.mark.skipif(platform.machine() != "x86_64" or not host_has_fma(), reason="needs an x86 host with FMA")
def test_fma_powf_only_for_fma_targets(tmp_path):
    """The cpu pipeline evaluates a constant-exponent powf in f32 where the
    target description has FMA (the host's, detected), in f64 for another
    CPU (`--cpu`), which may lack FMA, unless its target names `fma=true`."""
    from polyblocks.engine import engine_binary

    source = tmp_path / "gamma.mlir"
    source.write_text(
        "func.func @f(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {\n"
        "  %g = arith.constant dense<0.4545> : tensor<4x64xf32>\n"
        "  %r = math.powf %x, %g : tensor<4x64xf32>\n"
        "  return %r : tensor<4x64xf32>\n}\n"
    )

    def llvm_ir(*flags):
        run = subprocess.run([engine_binary(), source, "--emit-llvm", *flags], capture_output=True, text=True, cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        return run.stdout

    host, other, named = llvm_ir(), llvm_ir("--cpu=x86-64"), llvm_ir("--cpu=x86-64-v3", "--target=fma=true")
    assert "double" not in host and "llvm.fma" in host
    assert "double" in other and "llvm.fma" not in other
    assert "double" not in named and "llvm.fma" in named
