"""The Halide peer of the image/stencil pipelines of bench/polyhedral_bench.py.

    .venv/bin/python bench/halide_peer.py [--runs N] [--threads T] [--only NAME ...]

Each pipeline is written once as a Halide algorithm with exactly the
semantics of the PyTorch definition in bench/polyhedral_bench.py (the same
float32 operations in the same order; compiled with Halide's
``strict_float`` target feature, so no a * b + c is contracted into an FMA,
the results match the PyTorch and numpy ones bit for bit with every
schedule):

- ``blur_x_blur_y``: (C, H, W) -> (C, H-4, W-4), a 5-tap blur along x, then
  along y (``BLUR_WEIGHTS``), valid region only;
- ``unsharp_mask``: PolyMage's unsharp mask on the same cropped region,
  ``where(|core - blurred| < UNSHARP_THRESHOLD, core, core * (1 + W) - blurred * W)``;
- ``harris``: PolyMage's harris per channel: Sobel/12 gradients, their
  products, 3x3 box sums, ``det - 0.04 * trace^2``, (C, H, W) -> (C, H-4, W-4);
- ``jacobi_2d``: PolyBench jacobi-2d, ``JACOBI_STEPS`` (4) time steps of two
  5-point sweeps (B from A, then A from B) on (N, N); the borders never
  change (B starts as a copy of A, as PolyBench initializes it).

Halide indexes with x innermost: the numpy array (C, H, W) is the Halide
buffer (x=W, y=H, c=C); ``hl.Buffer(arr)`` reverses the axes of a C-contiguous
numpy array by default (``reverse_axes=True``), which is what is used here,
and ``build()``'s callable passes numpy arrays through it without a copy.

Schedules (``SCHEDULES``):

- ``hand``: the style of Halide's own apps (apps/blur, apps/unsharp,
  apps/harris CPU schedules). The output is split into strips of 32 rows;
  strips and channels are fused into one parallel loop; x is vectorized by
  the target's natural float32 vector width (8 on AVX2). Intermediate
  stages (blur_x; Ix and Iy) are stored per strip and computed per output
  row (``store_at(out, strip).compute_at(out, yi)``: Halide's sliding
  window, each input row is blurred once per strip); the small pointwise
  stages (blur_y in unsharp, the gradient products, the box sums) are
  inlined. jacobi_2d: each of the 8 sweeps is its own stage, computed at
  root, parallel over strips of rows, vectorized along x (no fusion of time
  steps).
- ``Adams2019``, ``Mullapudi2016``, ``Li2018``: Halide's autoschedulers,
  loaded from the plugins shipped in the ``halide`` wheel, applied with the
  estimates of the actual input and output shapes and
  ``parallelism = threads``. Mullapudi2016 also gets this machine's
  last-level cache size (``MULLAPUDI_LLC_BYTES``, 32 MiB L3 of the
  benchmark's EPYC) and its default balance (40). Adams2019 runs with the
  cost-model weights baked into its plugin (trained by Halide on another
  machine) and its default beam search.

Threads: Halide's JIT runtime has one thread pool per process, created on
the first parallel loop with ``HL_NUM_THREADS`` workers (the environment
variable, read once; the Python API has no call for
``halide_set_num_threads``). ``build()`` sets ``HL_NUM_THREADS`` to
``threads`` before anything has run and refuses (ValueError) a different
count once the pool exists; run different thread counts in different
processes.

Compilation happens once in ``build()`` (``Pipeline.compile_to_callable``
for the JIT host target with the ImageParam as the only argument); the
returned callable only wraps the numpy arrays in ``hl.Buffer`` (reused when
the same arrays come back) and runs the compiled pipeline into the
preallocated output: a few microseconds per call.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import time

import numpy as np

import halide as hl

REPO = pathlib.Path(__file__).resolve().parents[1]

# The constants of bench/polyhedral_bench.py (repeated here so that this
# module imports without torch; `__main__` checks they agree).
BLUR_WEIGHTS = (0.0625, 0.25, 0.375, 0.25, 0.0625)
UNSHARP_WEIGHT = 3.0
UNSHARP_THRESHOLD = 0.001
JACOBI_STEPS = 4

PIPELINES = ("blur_x_blur_y", "unsharp_mask", "harris", "jacobi_2d")
SCHEDULES = ("hand", "Adams2019", "Mullapudi2016", "Li2018")

STRIP = 32  # rows per parallel strip in the hand schedules
MULLAPUDI_LLC_BYTES = 32 * 1024 * 1024

_PLUGINS = {
    "Adams2019": "libautoschedule_adams2019.so",
    "Mullapudi2016": "libautoschedule_mullapudi2016.so",
    "Li2018": "libautoschedule_li2018.so",
}
_loaded_plugins: set[str] = set()
_threads_in_effect: int | None = None  # HL_NUM_THREADS once a pipeline ran


def _f32(value):
    """A float32 constant (Halide warns on Python floats not exact in f32)."""
    return hl.f32(float(np.float32(value)))


# ---------------------------------------------------------------------------
# Algorithms. Each returns (output Func, {name: Func} of the intermediate
# stages the hand schedule refers to). Constants are float32, products and
# sums in the order of the PyTorch definitions.


def _weighted_sum(terms):
    total = terms[0]
    for term in terms[1:]:
        total = total + term
    return total


def _blur(inp, x, y, c):
    blur_x = hl.Func("blur_x")
    blur_y = hl.Func("blur_y")
    w = [_f32(v) for v in BLUR_WEIGHTS]
    blur_x[x, y, c] = _weighted_sum([w[k] * inp[x + k, y, c] for k in range(5)])
    blur_y[x, y, c] = _weighted_sum([w[k] * blur_x[x, y + k, c] for k in range(5)])
    return blur_y, blur_x


def _algorithm_blur_x_blur_y(inp, x, y, c):
    blur_y, blur_x = _blur(inp, x, y, c)
    return blur_y, {"blur_x": blur_x}


def _algorithm_unsharp_mask(inp, x, y, c):
    blurred, blur_x = _blur(inp, x, y, c)
    out = hl.Func("unsharp")
    core = inp[x + 2, y + 2, c]
    weight = _f32(UNSHARP_WEIGHT)
    sharpened = core * _f32(1 + UNSHARP_WEIGHT) - blurred[x, y, c] * weight
    out[x, y, c] = hl.select(hl.abs(core - blurred[x, y, c]) < _f32(UNSHARP_THRESHOLD), core, sharpened)
    return out, {"blur_x": blur_x, "blur_y": blurred}


def _algorithm_harris(inp, x, y, c):
    # Ix, Iy at image coordinates (x, y) (defined for 1 <= x < W-1); the
    # output at (x, y) is the harris response at image pixel (x+2, y+2).
    k = 1.0 / 12
    ck, c2k, mck = _f32(k), _f32(2 * k), _f32(-k)

    def at(dy, dx):
        return inp[x + dx, y + dy, c]

    ix, iy = hl.Func("Ix"), hl.Func("Iy")
    iy[x, y, c] = mck * at(-1, -1) + ck * at(1, -1) - c2k * at(-1, 0) + c2k * at(1, 0) - ck * at(-1, 1) + ck * at(1, 1)
    ix[x, y, c] = mck * at(-1, -1) + ck * at(-1, 1) - c2k * at(0, -1) + c2k * at(0, 1) - ck * at(1, -1) + ck * at(1, 1)
    ixx, iyy, ixy = hl.Func("Ixx"), hl.Func("Iyy"), hl.Func("Ixy")
    ixx[x, y, c] = ix[x, y, c] * ix[x, y, c]
    iyy[x, y, c] = iy[x, y, c] * iy[x, y, c]
    ixy[x, y, c] = ix[x, y, c] * iy[x, y, c]

    offsets = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 0), (0, 1), (1, -1), (1, 0), (1, 1))

    def box(name, f):
        s = hl.Func(name)
        s[x, y, c] = _weighted_sum([f[x + 2 + dx, y + 2 + dy, c] for dy, dx in offsets])
        return s

    sxx, syy, sxy = box("Sxx", ixx), box("Syy", iyy), box("Sxy", ixy)
    out = hl.Func("harris")
    det = sxx[x, y, c] * syy[x, y, c] - sxy[x, y, c] * sxy[x, y, c]
    trace = sxx[x, y, c] + syy[x, y, c]
    out[x, y, c] = det - _f32(0.04) * trace * trace
    return out, {"Ix": ix, "Iy": iy}


def _algorithm_jacobi_2d(inp, x, y):
    """8 stages (B_1, A_1, ..., B_4, A_4), each a full N x N image: the 5-point
    average inside, the input's value on the border (select on x, y).

    No read can leave [0, N), whatever region a schedule computes a stage
    over (autoschedulers' ShiftInwards tiles compute stages slightly
    outside it; with plain reads, Adams2019's schedule at 1021x1021 read
    the input at x = -31): the five stencil reads go through a clamp marked
    `likely` (Halide's BoundaryConditions.repeat_edge), which Halide's loop
    partitioning removes from the steady-state loop, and the border value
    is read from the input at plainly clamped coordinates. (Reading the
    border value through a `likely` clamp as well made the hand schedule
    4-5x slower.) Values computed outside [0, N) are never used."""
    n_x, n_y = inp.width(), inp.height()
    interior = (x > 0) & (x < n_x - 1) & (y > 0) & (y < n_y - 1)
    border = inp[hl.clamp(x, 0, n_x - 1), hl.clamp(y, 0, n_y - 1)]
    fifth = _f32(0.2)
    stages = []
    prev = inp
    for t in range(JACOBI_STEPS):
        for name in ("B", "A"):
            nb = hl.BoundaryConditions.repeat_edge(prev, [(0, n_x), (0, n_y)])
            cur = hl.Func(f"{name}_{t + 1}")
            avg = fifth * (nb[x, y] + nb[x - 1, y] + nb[x + 1, y] + nb[x, y + 1] + nb[x, y - 1])
            cur[x, y] = hl.select(interior, avg, border)
            stages.append(cur)
            prev = cur
    return stages[-1], {"stages": stages[:-1]}


# ---------------------------------------------------------------------------
# Schedules.


# Strips are split with GuardWithIf (the last strip is short), x is
# vectorized with ShiftInwards (Halide's default; the last vector overlaps
# the one before) when the output is at least one vector wide.


def _hand_image(out, stages, x, y, c, lanes, out_width):
    yo, yi, strip = hl.Var("yo"), hl.Var("yi"), hl.Var("strip")
    out.split(y, yo, yi, STRIP, hl.TailStrategy.GuardWithIf).reorder(x, yi, yo, c).fuse(yo, c, strip).parallel(strip)
    if out_width >= lanes:
        out.vectorize(x, lanes)
    for name in ("blur_x", "Ix", "Iy"):
        if name in stages:
            stages[name].store_at(out, strip).compute_at(out, yi)
            if out_width >= lanes:
                stages[name].vectorize(x, lanes)


def _hand_jacobi(out, stages, x, y, lanes, out_width):
    yo, yi = hl.Var("yo"), hl.Var("yi")
    for f in stages["stages"] + [out]:
        if f is not out:
            f.compute_root()
        f.split(y, yo, yi, STRIP, hl.TailStrategy.GuardWithIf).parallel(yo)
        if out_width >= lanes:
            f.vectorize(x, lanes)


def _load_plugin(schedule):
    if schedule in _loaded_plugins:
        return
    path = pathlib.Path(hl.__file__).resolve().parent / "lib64" / _PLUGINS[schedule]
    if not path.exists():
        raise RuntimeError(f"Halide autoscheduler plugin {schedule} not found at {path}")
    hl.load_plugin(str(path))
    _loaded_plugins.add(schedule)


def _autoscheduler_params(schedule, threads):
    params = {"parallelism": str(threads)}
    if schedule == "Mullapudi2016":
        params.update({"last_level_cache_size": str(MULLAPUDI_LLC_BYTES), "balance": "40"})
    return hl.AutoschedulerParams(schedule, params)


# ---------------------------------------------------------------------------
# build()


def output_shape(name, input_shape):
    if name == "jacobi_2d":
        return tuple(input_shape)
    channels, height, width = input_shape
    return (channels, height - 4, width - 4)


def _set_threads(threads):
    global _threads_in_effect
    if _threads_in_effect is not None and _threads_in_effect != threads:
        raise ValueError(
            f"Halide's thread pool already runs {_threads_in_effect} threads in this process "
            f"(HL_NUM_THREADS is read once); run threads={threads} in another process"
        )
    os.environ["HL_NUM_THREADS"] = str(threads)


class _Runner:
    """The compiled pipeline: call(inp, out) realizes into `out`."""

    def __init__(self, callable_, name, schedule, threads, schedule_source):
        self._callable = callable_
        self.name, self.schedule, self.threads = name, schedule, threads
        self.schedule_source = schedule_source  # the autoscheduler's output, or None
        self._arrays = self._buffers = None

    def __call__(self, inp, out):
        global _threads_in_effect
        if self._arrays is None or self._arrays[0] is not inp or self._arrays[1] is not out:
            for arr in (inp, out):
                if arr.dtype != np.float32 or not arr.flags.c_contiguous:
                    raise ValueError("halide_peer wants C-contiguous float32 arrays")
            if not out.flags.writeable:
                raise ValueError("the output array is read-only")
            self._arrays = (inp, out)
            self._buffers = (hl.Buffer(inp), hl.Buffer(out))
        _threads_in_effect = self.threads
        try:
            self._callable(*self._buffers)
        except Exception as error:
            shape = tuple(inp.shape)
            raise RuntimeError(f"Halide pipeline {self.name} {shape} with schedule {self.schedule} failed: {error}") from error
        return out


def build(name, schedule, input_shape, threads=2, strict_float=True, dry_run=True):
    """Compile pipeline `name` with `schedule` for `input_shape` (the numpy
    shape: (C, H, W), or (N, N) for jacobi_2d); returns fn(inp, out) that
    runs it on numpy float32 arrays, writing `out` (shape output_shape()).

    strict_float: compile for the target with Halide's `strict_float`
    feature (no contraction of a * b + c into FMA), so the float32 results
    are those of the PyTorch definitions bit for bit; without it unsharp_mask's
    threshold test can flip on a pixel (an error of 3 * threshold).

    dry_run: run the compiled pipeline once on zeros of `input_shape`, so
    that a schedule that cannot run at this shape (an out-of-bounds read
    the bounds check catches) fails here, in build(), not at the first
    call. Errors of the autoscheduler, of compilation and of the dry run
    are raised as RuntimeError naming the pipeline, schedule and shape."""
    if name not in PIPELINES:
        raise ValueError(f"unknown pipeline {name!r}; known: {PIPELINES}")
    if schedule not in SCHEDULES:
        raise ValueError(f"unknown schedule {schedule!r}; known: {SCHEDULES}")
    _set_threads(threads)
    target = hl.get_jit_target_from_environment()
    if strict_float:
        target = target.with_feature(hl.TargetFeature.StrictFloat)
    lanes = target.natural_vector_size(hl.Float(32))
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    out_shape = output_shape(name, input_shape)

    if name == "jacobi_2d":
        if len(input_shape) != 2:
            raise ValueError(f"jacobi_2d takes (N, N), got {input_shape}")
        inp = hl.ImageParam(hl.Float(32), 2, "input")
        out, stages = _algorithm_jacobi_2d(inp, x, y)
    else:
        if len(input_shape) != 3 or input_shape[1] < 5 or input_shape[2] < 5:
            raise ValueError(f"{name} takes (C, H, W) with H, W >= 5, got {input_shape}")
        inp = hl.ImageParam(hl.Float(32), 3, "input")
        out, stages = globals()[f"_algorithm_{name}"](inp, x, y, c)

    schedule_source = None
    if schedule == "hand":
        if name == "jacobi_2d":
            _hand_jacobi(out, stages, x, y, lanes, out_shape[-1])
        else:
            _hand_image(out, stages, x, y, c, lanes, out_shape[-1])
        pipeline = hl.Pipeline(out)
    else:
        _load_plugin(schedule)
        # Halide dims are the numpy dims reversed.
        inp.set_estimates([hl.Range(0, extent) for extent in reversed(input_shape)])
        out.set_estimates([hl.Range(0, extent) for extent in reversed(out_shape)])
        pipeline = hl.Pipeline(out)
        try:
            result = pipeline.apply_autoscheduler(target, _autoscheduler_params(schedule, threads))
        except Exception as error:  # Halide raises RuntimeError/HalideError
            raise RuntimeError(f"Halide autoscheduler {schedule} failed on {name} {tuple(input_shape)}: {error}") from error
        schedule_source = result.schedule_source
    try:
        callable_ = pipeline.compile_to_callable([inp], target)
    except Exception as error:
        raise RuntimeError(f"Halide failed to compile {name} {tuple(input_shape)} with schedule {schedule}: {error}") from error
    runner = _Runner(callable_, name, schedule, threads, schedule_source)
    if dry_run:
        runner(np.zeros(input_shape, np.float32), np.empty(out_shape, np.float32))
    return runner


# ---------------------------------------------------------------------------
# numpy reference: an independent re-implementation of the same math.


def _ref_blur(img):
    w = [np.float32(v) for v in BLUR_WEIGHTS]
    width, height = img.shape[-1], img.shape[-2]
    bx = sum((w[k] * img[..., :, k : width - 4 + k] for k in range(1, 5)), w[0] * img[..., :, 0 : width - 4])
    return sum((w[k] * bx[..., k : height - 4 + k, :] for k in range(1, 5)), w[0] * bx[..., 0 : height - 4, :])


def reference(name, inp):
    """The pipeline `name` on a float32 numpy array, in numpy (float32)."""
    inp = np.asarray(inp, dtype=np.float32)
    if name == "blur_x_blur_y":
        return _ref_blur(inp)
    if name == "unsharp_mask":
        blurred = _ref_blur(inp)
        core = inp[..., 2:-2, 2:-2]
        weight = np.float32(UNSHARP_WEIGHT)
        sharpened = core * np.float32(1 + UNSHARP_WEIGHT) - blurred * weight
        return np.where(np.abs(core - blurred) < np.float32(UNSHARP_THRESHOLD), core, sharpened)
    if name == "harris":
        h, w = inp.shape[-2], inp.shape[-1]
        k = np.float32(1.0 / 12)

        def at(a, dy, dx, border=1):
            return a[..., border + dy : a.shape[-2] - border + dy, border + dx : a.shape[-1] - border + dx]

        p = lambda dy, dx: at(inp, dy, dx)  # noqa: E731
        two_k = np.float32(2 * k)
        iy = -k * p(-1, -1) + k * p(1, -1) - two_k * p(-1, 0) + two_k * p(1, 0) - k * p(-1, 1) + k * p(1, 1)
        ix = -k * p(-1, -1) + k * p(-1, 1) - two_k * p(0, -1) + two_k * p(0, 1) - k * p(1, -1) + k * p(1, 1)
        assert ix.shape[-2:] == (h - 2, w - 2)
        offsets = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 0), (0, 1), (1, -1), (1, 0), (1, 1))

        def box(a):
            total = at(a, *offsets[0])
            for dy, dx in offsets[1:]:
                total = total + at(a, dy, dx)
            return total

        sxx, syy, sxy = box(ix * ix), box(iy * iy), box(ix * iy)
        trace = sxx + syy
        return (sxx * syy - sxy * sxy) - np.float32(0.04) * trace * trace
    if name == "jacobi_2d":
        a = inp.copy()
        fifth = np.float32(0.2)
        for _ in range(JACOBI_STEPS):
            b = a.copy()
            b[1:-1, 1:-1] = fifth * (a[1:-1, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:] + a[2:, 1:-1] + a[:-2, 1:-1])
            a = b.copy()
            a[1:-1, 1:-1] = fifth * (b[1:-1, 1:-1] + b[1:-1, :-2] + b[1:-1, 2:] + b[2:, 1:-1] + b[:-2, 1:-1])
        return a
    raise ValueError(f"unknown pipeline {name!r}")


def relative_error(got, want):
    """max |got - want| / max(1, max |want|)."""
    return float(np.max(np.abs(got.astype(np.float64) - want)) / max(1.0, float(np.max(np.abs(want)))))


# ---------------------------------------------------------------------------
# __main__: correctness at a benchmark size and an odd size, and timings.

SIZES = {
    "image": [(3, 2048, 2048), (3, 1021, 1019)],
    "jacobi_2d": [(2000, 2000), (1021, 1021)],
}
TOLERANCE = 1e-4


def _median_ms(fn, inp, out, runs):
    fn(inp, out)  # warm-up
    fn(inp, out)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(inp, out)
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)


def _check_torch(name, inp, got):
    """The result against bench/polyhedral_bench.py's PyTorch definition."""
    import torch

    sys.path.insert(0, str(REPO / "bench"))
    import polyhedral_bench as pb

    assert pb.BLUR_WEIGHTS == BLUR_WEIGHTS and pb.JACOBI_STEPS == JACOBI_STEPS
    assert (pb.UNSHARP_WEIGHT, pb.UNSHARP_THRESHOLD) == (UNSHARP_WEIGHT, UNSHARP_THRESHOLD)
    with torch.no_grad():
        want = getattr(pb, name)(torch.from_numpy(inp.copy())).numpy()
    return relative_error(got, want)


def _halide_version():
    from importlib import metadata

    try:
        return metadata.version("halide")
    except metadata.PackageNotFoundError:
        return "?"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None, help="pipelines to run")
    parser.add_argument("--schedules", nargs="*", default=list(SCHEDULES))
    args = parser.parse_args(argv)

    rng = np.random.default_rng(0)
    print(f"Halide {_halide_version()}, target {hl.get_jit_target_from_environment()}, "
          f"HL_NUM_THREADS={args.threads}, median of {args.runs} runs")
    header = f"{'pipeline':<14} {'shape':<16} {'schedule':<14} {'compile s':>9} {'ms':>9} {'rel err':>9} {'torch err':>9}  check"
    print(header)
    print("-" * len(header))
    failures = 0
    for name in args.only or PIPELINES:
        for shape in SIZES["jacobi_2d" if name == "jacobi_2d" else "image"]:
            inp = rng.random(shape, dtype=np.float32)
            want = reference(name, inp)
            odd = shape[-1] % 2 == 1
            for schedule in args.schedules:
                label = f"{name:<14} {'x'.join(map(str, shape)):<16} {schedule:<14}"
                try:
                    start = time.perf_counter()
                    fn = build(name, schedule, shape, threads=args.threads)
                    compile_s = time.perf_counter() - start
                    out = np.full(output_shape(name, shape), np.nan, dtype=np.float32)
                    fn(inp, out)
                    err = relative_error(out, want)
                    torch_err = _check_torch(name, inp, out) if odd else None
                    ms = _median_ms(fn, inp, out, args.runs)
                except Exception as error:  # noqa: BLE001 - the table records it
                    failures += 1
                    print(f"{label} FAILED: {str(error).splitlines()[0][:200]}")
                    continue
                ok = err <= TOLERANCE and (torch_err is None or torch_err <= TOLERANCE)
                failures += not ok
                torch_col = f"{torch_err:9.1e}" if torch_err is not None else f"{'-':>9}"
                print(f"{label} {compile_s:9.2f} {ms:9.3f} {err:9.1e} {torch_col}  {'ok' if ok else 'MISMATCH'}", flush=True)
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
