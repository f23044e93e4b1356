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

Five more apps, written once in PyTorch in bench/image_apps.py (whose
functions are their reference: ``reference()`` runs them), are here as
Halide pipelines too (``IMAGE_APPS``; ``--only NAME`` runs one; shapes in
``APP_SIZES``): ``heat_3d`` (PolyBench heat-3d, 10 steps, 20 stages like
jacobi_2d's), ``interpolate`` (a 3-level 2x2 average pyramid upsampled
nearest and averaged), ``camera_pipe`` (Bayer 2x2 demosaic, white balance,
3x3 colour matrix, gamma: (H, W) -> (3, H/2, W/2)), ``bilateral_grid`` and
``local_laplacian`` (simplified apps/bilateral_grid and apps/local_laplacian
of Halide; their conv/bilinear steps sum in another order than PyTorch's
kernels, so they agree to ~1e-6 relative, not bit for bit). Their hand
schedules follow Halide's own apps (see ``_hand_<name>``). Known limits:
Adams2019 did not finish scheduling heat_3d's 20 stages in 7 minutes (and
grew to ~5 GB); Li2018's bilateral_grid schedule fuses the value/count
dimension c with x, y and splits it ShiftInwards, after which bounds
inference asks for c in [-4487, 4487] and a histogram of 8 GB (an error at
the dry run).

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
# The five apps of bench/image_apps.py (constants repeated from there so that
# this module imports without torch; `reference()` checks they agree).
IMAGE_APPS = ("heat_3d", "interpolate", "camera_pipe", "bilateral_grid", "local_laplacian")
ALL_PIPELINES = PIPELINES + IMAGE_APPS
HEAT_STEPS = 10
INTERP_LEVELS = 3
CAMERA_BLACK_LEVEL = 0.0625
CAMERA_WHITE_BALANCE = (2.0, 1.0, 1.5)
CAMERA_CCM = ((1.625, -0.4375, -0.1875), (-0.3125, 1.5, -0.1875), (0.0625, -0.5625, 1.5))
CAMERA_GAMMA = 1 / 2.2
BG_SPATIAL = 8
BG_BINS = 8
BG_BLUR = (1.0, 4.0, 6.0, 4.0, 1.0)  # / 16
LL_LEVELS = 8
LL_PYRAMID = 3
LL_ALPHA = 1.0 / (LL_LEVELS - 1)
LL_BETA = 1.0
LL_DOWN = (0.125, 0.375, 0.375, 0.125)
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
# The five apps of bench/image_apps.py: heat_3d, interpolate, camera_pipe,
# bilateral_grid, local_laplacian. The same float32 operations in the order
# of the PyTorch definitions where PyTorch fixes one (heat_3d, interpolate,
# the pointwise parts of camera_pipe); the conv2d/conv3d/einsum/bilinear
# steps of the other apps sum in PyTorch's kernels' order, so those agree
# to rounding only. Each algorithm returns (output Func, {name: Func or Var}
# for its hand schedule). Input reads that a schedule could take outside the
# input (autoschedulers compute stages over rounded-up regions) go through
# clamps; all other reads are in range by construction.


def _check_app_shape(name, shape):
    shape = tuple(shape)
    if name == "heat_3d":
        ok = len(shape) == 3 and min(shape) >= 3
        need = "(N0, N1, N2), each >= 3"
    elif name == "interpolate":
        step = 2**INTERP_LEVELS
        ok = len(shape) == 3 and shape[1] % step == 0 and shape[2] % step == 0 and shape[1] >= step and shape[2] >= step
        need = f"(C, H, W) with H, W multiples of {step}"
    elif name == "camera_pipe":
        ok = len(shape) == 2 and shape[0] % 2 == 0 and shape[1] % 2 == 0 and min(shape) >= 2
        need = "(H, W), H and W even"
    elif name == "bilateral_grid":
        ok = len(shape) == 2 and min(shape) >= 1
        need = "(H, W)"
    else:
        step = 2 ** (LL_PYRAMID - 1)
        ok = len(shape) == 2 and shape[0] % step == 0 and shape[1] % step == 0 and min(shape) >= step
        need = f"(H, W) with H, W multiples of {step}"
    if not ok:
        raise ValueError(f"{name} takes {need}, got {shape}")


def _app_output_shape(name, input_shape):
    if name == "camera_pipe":
        height, width = input_shape
        return (3, height // 2, width // 2)
    return tuple(input_shape)


def _torch_reference(name, inp):
    """bench/image_apps.py's torch function on `inp` (torch imported here)."""
    import torch

    if str(REPO / "bench") not in sys.path:
        sys.path.insert(0, str(REPO / "bench"))
    import image_apps

    for constant in (
        "HEAT_STEPS", "INTERP_LEVELS", "CAMERA_BLACK_LEVEL", "CAMERA_WHITE_BALANCE", "CAMERA_CCM", "CAMERA_GAMMA",
        "BG_SPATIAL", "BG_BINS", "BG_BLUR", "LL_LEVELS", "LL_PYRAMID", "LL_ALPHA", "LL_BETA", "LL_DOWN",
    ):
        if getattr(image_apps, constant) != globals()[constant]:
            raise AssertionError(f"{constant} differs between bench/image_apps.py and bench/halide_peer.py")
    with torch.no_grad():
        return image_apps.APPS[name][0](torch.from_numpy(inp.copy())).numpy()


def _algorithm_heat_3d(inp):
    """20 stages (B_1, A_1, ..., B_10, A_10), each the whole array: the
    7-point update inside, the input's value on the border (as jacobi_2d).
    Halide (x, y, z) is numpy (axis 2, axis 1, axis 0); PyTorch sums the
    axis-0 term first, so z comes first here."""
    x, y, z = hl.Var("x"), hl.Var("y"), hl.Var("z")
    n = [inp.dim(d).extent() for d in range(3)]
    interior = (x > 0) & (x < n[0] - 1) & (y > 0) & (y < n[1] - 1) & (z > 0) & (z < n[2] - 1)
    border = inp[hl.clamp(x, 0, n[0] - 1), hl.clamp(y, 0, n[1] - 1), hl.clamp(z, 0, n[2] - 1)]
    eighth, two = _f32(0.125), _f32(2.0)
    stages = []
    prev = inp
    for t in range(HEAT_STEPS):
        for name in ("B", "A"):
            nb = hl.BoundaryConditions.repeat_edge(prev, [(0, n[0]), (0, n[1]), (0, n[2])])
            cur = hl.Func(f"{name}_{t + 1}")
            c = nb[x, y, z]
            value = (
                eighth * (nb[x, y, z + 1] - two * c + nb[x, y, z - 1])
                + eighth * (nb[x, y + 1, z] - two * c + nb[x, y - 1, z])
                + eighth * (nb[x + 1, y, z] - two * c + nb[x - 1, y, z])
                + c
            )
            cur[x, y, z] = hl.select(interior, value, border)
            stages.append(cur)
            prev = cur
    return stages[-1], {"stages": stages[:-1], "vars": (x, y, z)}


def _hand_heat_3d(out, stages, lanes, out_shape):
    """Each of the 20 sweeps its own stage at root (as jacobi_2d's hand
    schedule), parallel over planes z, vectorized along x."""
    x, y, z = stages["vars"]
    for f in stages["stages"] + [out]:
        if f is not out:
            f.compute_root()
        f.parallel(z)
        if out_shape[-1] >= lanes:
            f.vectorize(x, lanes)


def _algorithm_interpolate(inp):
    """down_k = 2x2 average of down_{k-1} (sum in avg_pool2d's order, then
    / 4); output = (input + down_1 + down_2 + down_3 upsampled nearest) / 4.
    H, W are multiples of 8, so every read is inside its level."""
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    quarter = _f32(0.25)
    levels = [inp]
    for k in range(1, INTERP_LEVELS + 1):
        p = levels[-1]
        down = hl.Func(f"down_{k}")
        down[x, y, c] = (p[2 * x, 2 * y, c] + p[2 * x + 1, 2 * y, c] + p[2 * x, 2 * y + 1, c] + p[2 * x + 1, 2 * y + 1, c]) * quarter
        levels.append(down)
    total = inp[x, y, c]
    for k in range(1, INTERP_LEVELS + 1):
        total = total + levels[k][x // 2**k, y // 2**k, c]
    out = hl.Func("interpolate")
    out[x, y, c] = total / _f32(INTERP_LEVELS + 1)
    return out, {"levels": levels[1:], "vars": (x, y, c)}


def _hand_interpolate(out, stages, lanes, out_shape):
    """The levels at root (as Halide's apps/interpolate), parallel over rows,
    vectorized along x; the output in parallel strips of rows x channels."""
    x, y, c = stages["vars"]
    for level in stages["levels"]:
        level.compute_root().parallel(y, 8).vectorize(x, lanes)
    yo, yi, strip = hl.Var("yo"), hl.Var("yi"), hl.Var("strip")
    out.split(y, yo, yi, STRIP, hl.TailStrategy.GuardWithIf).reorder(x, yi, yo, c).fuse(yo, c, strip).parallel(strip)
    out.vectorize(x, lanes)


def _algorithm_camera_pipe(inp):
    """Bayer (x, y) -> (x, y, c): black level, 2x2 demosaic, white balance,
    the colour matrix (sum over j in order), clamp, gamma (Halide's pow)."""
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    linear = hl.Func("linear")
    linear[x, y] = (inp[x, y] - _f32(CAMERA_BLACK_LEVEL)) * _f32(1.0 / (1.0 - CAMERA_BLACK_LEVEL))
    r = linear[2 * x, 2 * y]
    g = _f32(0.5) * (linear[2 * x + 1, 2 * y] + linear[2 * x, 2 * y + 1])
    b = linear[2 * x + 1, 2 * y + 1]
    balanced = hl.Func("balanced")
    wr, wg, wb = (_f32(v) for v in CAMERA_WHITE_BALANCE)
    balanced[x, y, c] = hl.select(c == 0, r * wr, c == 1, g * wg, b * wb)
    rows = []
    for i in range(3):
        m = [_f32(v) for v in CAMERA_CCM[i]]
        rows.append(m[0] * balanced[x, y, 0] + m[1] * balanced[x, y, 1] + m[2] * balanced[x, y, 2])
    out = hl.Func("camera_pipe")
    corrected = hl.select(c == 0, rows[0], c == 1, rows[1], rows[2])
    out[x, y, c] = hl.pow(hl.clamp(corrected, _f32(0.0), _f32(1.0)), _f32(CAMERA_GAMMA))
    return out, {"vars": (x, y, c)}


def _hand_camera_pipe(out, stages, lanes, out_shape):
    """One fused loop nest: parallel strips of rows, x vectorized, the three
    channels unrolled inside (each Bayer block is read once per vector)."""
    x, y, c = stages["vars"]
    xo, xi, yo, yi = hl.Var("xo"), hl.Var("xi"), hl.Var("yo"), hl.Var("yi")
    out.bound(c, 0, 3)
    out.split(y, yo, yi, STRIP, hl.TailStrategy.GuardWithIf)
    if out_shape[-1] >= lanes:
        out.split(x, xo, xi, lanes).reorder(xi, c, xo, yi, yo).vectorize(xi).unroll(c)
    else:
        out.reorder(c, x, yi, yo).unroll(c)
    out.parallel(yo)


def _algorithm_bilateral_grid(inp):
    """Halide's apps/bilateral_grid on one channel with bench/image_apps.py's
    grid: histogram(gx, gy, z, c) (c = 0: sum of values, 1: count) gathers
    the s x s pixels of its cell (an RDom; pixels outside the image add 0,
    so cells outside the grid are 0, which is conv3d's zero padding);
    blur along z, x, y; trilinear slicing; value / count."""
    x, y, z, c = hl.Var("x"), hl.Var("y"), hl.Var("z"), hl.Var("c")
    width, height = inp.width(), inp.height()
    s, bins = BG_SPATIAL, BG_BINS
    clamped = hl.Func("clamped")
    clamped[x, y] = hl.clamp(inp[hl.clamp(x, 0, width - 1), hl.clamp(y, 0, height - 1)], _f32(0.0), _f32(1.0))

    histogram = hl.Func("histogram")
    histogram[x, y, z, c] = _f32(0.0)
    r = hl.RDom([hl.Range(0, s), hl.Range(0, s)], "r")
    px, py = x * s + r.x - s // 2, y * s + r.y - s // 2
    inside = (px >= 0) & (px < width) & (py >= 0) & (py < height)
    value = clamped[px, py]
    zc = hl.clamp(hl.cast(hl.Int(32), value * _f32(bins) + _f32(0.5)), 0, bins)
    histogram[x, y, zc, c] = histogram[x, y, zc, c] + hl.select(inside, hl.select(c == 0, value, _f32(1.0)), _f32(0.0))

    w = [_f32(v / 16) for v in BG_BLUR]
    blurz, blurx, blury = hl.Func("blurz"), hl.Func("blurx"), hl.Func("blury")
    blurz[x, y, z, c] = _weighted_sum([w[k] * histogram[x, y, z + k - 2, c] for k in range(5)])
    blurx[x, y, z, c] = _weighted_sum([w[k] * blurz[x + k - 2, y, z, c] for k in range(5)])
    blury[x, y, z, c] = _weighted_sum([w[k] * blurx[x, y + k - 2, z, c] for k in range(5)])

    zv = clamped[x, y] * _f32(bins)
    zif = hl.min(hl.floor(zv), _f32(bins - 1))
    zf = zv - zif
    zi = hl.clamp(hl.cast(hl.Int(32), zif), 0, bins - 1)
    xi, yi = x // s, y // s
    xf = hl.cast(hl.Float(32), x % s) / _f32(s)
    yf = hl.cast(hl.Float(32), y % s) / _f32(s)
    one = _f32(1.0)

    def lerp(a, b, t):
        return a * (one - t) + b * t

    def plane(dz, cc):
        def at(dy, dx):
            return blury[xi + dx, yi + dy, zi + dz, cc]

        return lerp(lerp(at(0, 0), at(0, 1), xf), lerp(at(1, 0), at(1, 1), xf), yf)

    interpolated = hl.Func("interpolated")
    interpolated[x, y, c] = lerp(plane(0, c), plane(1, c), zf)
    out = hl.Func("bilateral_grid")
    out[x, y] = interpolated[x, y, 0] / interpolated[x, y, 1]
    return out, {"histogram": histogram, "r": r, "blurz": blurz, "blurx": blurx, "blury": blury, "vars": (x, y, z, c)}


def _hand_bilateral_grid(out, stages, lanes, out_shape):
    """Halide's apps/bilateral_grid CPU schedule: the histogram per row of
    blurz, each blur at root (parallel, vectorized along x, c unrolled), the
    slicing fused into the output (parallel strips, vectorized)."""
    x, y, z, c = stages["vars"]
    r = stages["r"]
    histogram, blurz, blurx, blury = (stages[k] for k in ("histogram", "blurz", "blurx", "blury"))
    blurz.compute_root().reorder(c, z, x, y).parallel(y).vectorize(x, lanes).unroll(c)
    histogram.compute_at(blurz, y)
    histogram.update(0).reorder(c, r.x, r.y, x, y).unroll(c)
    blurx.compute_root().reorder(c, x, y, z).parallel(z).vectorize(x, lanes).unroll(c)
    blury.compute_root().reorder(c, x, y, z).parallel(z).vectorize(x, lanes).unroll(c)
    yo, yi = hl.Var("yo"), hl.Var("yi")
    out.split(y, yo, yi, STRIP, hl.TailStrategy.GuardWithIf).parallel(yo)
    if out_shape[-1] >= lanes:
        out.vectorize(x, lanes)


def _algorithm_local_laplacian(inp):
    """Halide's apps/local_laplacian on one channel with bench/image_apps.py's
    constants: levels k of the remapped image (computed, no lookup table),
    Gaussian/Laplacian pyramids, the Laplacian coefficient interpolated
    between intensity levels (data-dependent k), collapse. Level j is
    (W >> j) x (H >> j); downsampling and upsampling read their input level
    at clamped coordinates (PyTorch's replicate padding and bilinear edge
    clamping)."""
    x, y, k = hl.Var("x"), hl.Var("y"), hl.Var("k")
    levels_k, levels_j = LL_LEVELS, LL_PYRAMID
    sizes = [(inp.width() // 2**j, inp.height() // 2**j) for j in range(levels_j)]
    gray = hl.Func("gray")
    gray[x, y] = hl.BoundaryConditions.repeat_edge(inp)[x, y]

    def down(f, j, name, extra):
        """Level j (from f at level j - 1): [1, 3, 3, 1] / 8 along x, then y."""
        wp, hp = sizes[j - 1]
        w = [_f32(v) for v in LL_DOWN]
        dx, dy = hl.Func(name + "_x"), hl.Func(name)
        dx[[x, y] + extra] = _weighted_sum([w[t] * f[[hl.clamp(2 * x - 1 + t, 0, wp - 1), y] + extra] for t in range(4)])
        dy[[x, y] + extra] = _weighted_sum([w[t] * dx[[x, hl.clamp(2 * y - 1 + t, 0, hp - 1)] + extra] for t in range(4)])
        return dy

    def up(f, j, name, extra):
        """Level j (from f at level j + 1): 0.25 / 0.75 along x, then y."""
        wq, hq = sizes[j + 1]
        quarter, three_quarters = _f32(0.25), _f32(0.75)
        ux, uy = hl.Func(name + "_x"), hl.Func(name)
        ux[[x, y] + extra] = (
            quarter * f[[hl.clamp(x // 2 - 1 + 2 * (x % 2), 0, wq - 1), y] + extra]
            + three_quarters * f[[hl.clamp(x // 2, 0, wq - 1), y] + extra]
        )
        uy[[x, y] + extra] = (
            quarter * ux[[x, hl.clamp(y // 2 - 1 + 2 * (y % 2), 0, hq - 1)] + extra]
            + three_quarters * ux[[x, hl.clamp(y // 2, 0, hq - 1)] + extra]
        )
        return uy

    level = hl.cast(hl.Float(32), k) * _f32(1.0 / (levels_k - 1))
    diff = gray[x, y] - level
    d = diff * _f32(levels_k - 1)
    g_pyramid = [hl.Func("gPyramid_0")]
    g_pyramid[0][x, y, k] = _f32(LL_BETA) * diff + level + _f32(LL_ALPHA) * d * hl.exp(-d * d / _f32(2.0))
    in_pyramid = [gray]
    for j in range(1, levels_j):
        g_pyramid.append(down(g_pyramid[-1], j, f"gPyramid_{j}", [k]))
        in_pyramid.append(down(in_pyramid[-1], j, f"inGPyramid_{j}", []))
    l_pyramid = []
    for j in range(levels_j):
        lp = hl.Func(f"lPyramid_{j}")
        if j < levels_j - 1:
            lp[x, y, k] = g_pyramid[j][x, y, k] - up(g_pyramid[j + 1], j, f"gUp_{j}", [k])[x, y, k]
        else:
            lp[x, y, k] = g_pyramid[j][x, y, k]
        l_pyramid.append(lp)
    out_l = []
    for j in range(levels_j):
        position = in_pyramid[j][x, y] * _f32(levels_k - 1)
        li = hl.clamp(hl.cast(hl.Int(32), position), 0, levels_k - 2)
        lf = position - hl.cast(hl.Float(32), li)
        ol = hl.Func(f"outLPyramid_{j}")
        ol[x, y] = (_f32(1.0) - lf) * l_pyramid[j][x, y, li] + lf * l_pyramid[j][x, y, li + 1]
        out_l.append(ol)
    out_g = [None] * levels_j
    out_g[-1] = out_l[-1]
    for j in range(levels_j - 2, -1, -1):
        og = hl.Func(f"outGPyramid_{j}")
        og[x, y] = up(out_g[j + 1], j, f"outUp_{j}", [])[x, y] + out_l[j][x, y]
        out_g[j] = og
    return out_g[0], {
        "gray": gray, "g_pyramid": g_pyramid, "in_pyramid": in_pyramid[1:], "out_g": out_g[1:], "vars": (x, y, k),
    }


def _hand_local_laplacian(out, stages, lanes, out_shape):
    """Halide's apps/local_laplacian CPU schedule: the Gaussian pyramids of
    the remapped levels (k inside y, storage (x, k, y)), of the input and
    of the output at root, parallel over rows, vectorized along x; the
    Laplacian levels, the interpolation between intensity levels and the
    x passes of down/upsampling inlined."""
    x, y, k = stages["vars"]
    for f in [stages["gray"]] + stages["in_pyramid"] + stages["out_g"]:
        f.compute_root().parallel(y, 8).vectorize(x, lanes)
    for f in stages["g_pyramid"]:
        f.compute_root().reorder_storage(x, k, y).reorder(x, k, y).parallel(y, 4).vectorize(x, lanes)
    out.parallel(y, 8).vectorize(x, lanes)


# ---------------------------------------------------------------------------
# build()


def output_shape(name, input_shape):
    if name in IMAGE_APPS:
        return _app_output_shape(name, input_shape)
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
    if name not in ALL_PIPELINES:
        raise ValueError(f"unknown pipeline {name!r}; known: {ALL_PIPELINES}")
    if schedule not in SCHEDULES:
        raise ValueError(f"unknown schedule {schedule!r}; known: {SCHEDULES}")
    _set_threads(threads)
    target = hl.get_jit_target_from_environment()
    if strict_float:
        target = target.with_feature(hl.TargetFeature.StrictFloat)
    lanes = target.natural_vector_size(hl.Float(32))
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    out_shape = output_shape(name, input_shape)

    if name in IMAGE_APPS:
        _check_app_shape(name, input_shape)
        inp = hl.ImageParam(hl.Float(32), len(input_shape), "input")
        out, stages = globals()[f"_algorithm_{name}"](inp)
    elif name == "jacobi_2d":
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
        if name in IMAGE_APPS:
            globals()[f"_hand_{name}"](out, stages, lanes, out_shape)
        elif name == "jacobi_2d":
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
    if name in IMAGE_APPS:
        return _torch_reference(name, inp)
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
# bench/image_apps.py's APPS shapes (benchmark, odd); `--only NAME` runs them.
APP_SIZES = {
    "heat_3d": [(128, 128, 128), (67, 67, 67)],
    "interpolate": [(3, 2048, 2048), (3, 1016, 1000)],
    "camera_pipe": [(2048, 2048), (1018, 1022)],
    "bilateral_grid": [(2048, 2048), (1016, 1000)],
    "local_laplacian": [(1024, 1024), (1016, 1000)],
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
    parser.add_argument("--only", nargs="*", default=None,
                        help=f"pipelines to run (default: {', '.join(PIPELINES)}; also {', '.join(IMAGE_APPS)})")
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
        if name in IMAGE_APPS:
            shapes = APP_SIZES[name]
        else:
            shapes = SIZES["jacobi_2d" if name == "jacobi_2d" else "image"]
        for shape in shapes:
            inp = rng.random(shape, dtype=np.float32)
            want = reference(name, inp)
            # The new apps' reference is their torch function already.
            odd = shape[-1] % 2 == 1 and name in PIPELINES
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
