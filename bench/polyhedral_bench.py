"""The benchmark of the polyhedral-core issue, in one run: PyTorch eager,
torch.compile (inductor) and polyblocks on each workload of the issue's
done-when list, the speed-up of polyblocks over the best of the two peers,
the issue's target and whether it is met.

    .venv/bin/python bench/polyhedral_bench.py [--runs N] [--rounds R] [--only NAME ...]

Workloads (float32, `torch.no_grad()`):

- image pipelines on 3x2048x2048 (target 25x), each in two formulations:
  with conv2d filters, as the spec writes blur_x_blur_y (bench/torch_bench.py)
  and as image libraries on PyTorch (kornia's filter2d, unsharp_mask,
  harris_response) write them; and with shifted slices, as PolyMage writes
  its stencils (torch.compile fuses those too). PolyMage's unsharp mask and
  harris corner; harris runs per channel on the 3 channels (PolyMage's runs
  on one grayscale channel; the `...`-sliced stencil is the same code, with
  3x the data);
- PolyBench jacobi-2d, 4 time steps (each two sweeps: B from A, A from B)
  on 2000x2000, as a pure function of A written with slice assignment
  (target 3x);
- softmax 12x512x512, layernorm+gelu 512x768, attention 12x512x64 as in
  bench/torch_bench.py (target: geometric mean of the three speed-ups 1.5x);
- f32 matmul (torch.mm) 1024 and 2048, also as GFLOP/s and % of this
  machine's FMA peak, measured in the same run by bench/fma_peak.c (target
  70% of peak).

Every polyblocks result is checked against eager in the same run; a
mismatch, a fallback of some operator to PyTorch (the front's warning), a
modified input, or a compile error is reported in the table and the run
goes on; exact error messages follow the table. "met" needs both the
speed target and a clean check.
"""

from __future__ import annotations

import argparse
import math
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import warnings

import torch

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
from polyblocks import polyblocks_jit_torch  # noqa: E402
from polyblocks.common_utils import validate_outputs  # noqa: E402

sys.path.insert(0, str(REPO / "bench"))
from torch_bench import WARMUP_SECONDS, steady_median  # noqa: E402

# ---------------------------------------------------------------------------
# Image pipelines. Every function is shape-generic over (..., H, W), so the
# tests (test/python/test_image_pipelines.py) run these very definitions at
# odd sizes.

BLUR_WEIGHTS = (0.0625, 0.25, 0.375, 0.25, 0.0625)


def blur_x_blur_y_conv(img):
    """The spec's blur_x_blur_y as in bench/torch_bench.py: (C, H, W) ->
    (C, H-4, W-4), a 5-tap blur along x then along y, as two conv2d."""
    channels, height, width = img.shape
    kernel = torch.tensor(BLUR_WEIGHTS, device=img.device).float()
    blurx = torch.nn.functional.conv2d(img.view(channels, 1, height, width), kernel.view(1, 1, 1, 5))
    blury = torch.nn.functional.conv2d(blurx, kernel.view(1, 1, 5, 1))
    return blury.view(channels, height - 4, width - 4)


def blur_x_blur_y(img):
    """The same blur with shifted slices: (..., H, W) -> (..., H-4, W-4)."""
    w0, w1, w2, w3, w4 = BLUR_WEIGHTS
    blurx = (
        w0 * img[..., :, 0:-4] + w1 * img[..., :, 1:-3] + w2 * img[..., :, 2:-2] + w3 * img[..., :, 3:-1] + w4 * img[..., :, 4:]
    )
    return (
        w0 * blurx[..., 0:-4, :]
        + w1 * blurx[..., 1:-3, :]
        + w2 * blurx[..., 2:-2, :]
        + w3 * blurx[..., 3:-1, :]
        + w4 * blurx[..., 4:, :]
    )


UNSHARP_WEIGHT = 3.0
UNSHARP_THRESHOLD = 0.001


def unsharp_mask(img):
    """PolyMage's unsharp mask: blur x, blur y, sharpen, threshold, on the
    cropped region: (..., H, W) -> (..., H-4, W-4)."""
    blurred = blur_x_blur_y(img)
    core = img[..., 2:-2, 2:-2]
    sharpened = core * (1 + UNSHARP_WEIGHT) - blurred * UNSHARP_WEIGHT
    return torch.where(torch.abs(core - blurred) < UNSHARP_THRESHOLD, core, sharpened)


def _shift(a, dy, dx, border):
    """a(y+dy, x+dx) over the interior that leaves `border` pixels each side."""
    height, width = a.shape[-2], a.shape[-1]
    return a[..., border + dy : height - border + dy, border + dx : width - border + dx]


def harris(img):
    """PolyMage's harris corner detector per channel: (..., H, W) -> (..., H-4, W-4).

    Ix, Iy: 3x3 Sobel stencils scaled by 1/12; Ixx, Iyy, Ixy: products;
    Sxx, Syy, Sxy: 3x3 box sums; result det - 0.04 * trace^2."""
    c = 1.0 / 12

    def at(dy, dx):
        return _shift(img, dy, dx, 1)

    iy = -c * at(-1, -1) + c * at(1, -1) - 2 * c * at(-1, 0) + 2 * c * at(1, 0) - c * at(-1, 1) + c * at(1, 1)
    ix = -c * at(-1, -1) + c * at(-1, 1) - 2 * c * at(0, -1) + 2 * c * at(0, 1) - c * at(1, -1) + c * at(1, 1)
    ixx, iyy, ixy = ix * ix, iy * iy, ix * iy

    def box(a):
        total = _shift(a, -1, -1, 1)
        for dy, dx in ((-1, 0), (-1, 1), (0, -1), (0, 0), (0, 1), (1, -1), (1, 0), (1, 1)):
            total = total + _shift(a, dy, dx, 1)
        return total

    sxx, syy, sxy = box(ixx), box(iyy), box(ixy)
    det = sxx * syy - sxy * sxy
    trace = sxx + syy
    return det - 0.04 * trace * trace


def _filter2d(img, kernel):
    """Each channel of (C, H, W) correlated with a 2-D kernel over the valid
    region, as kornia's `filter2d` does it: one single-channel conv2d per
    channel (the channels as the batch)."""
    channels, height, width = img.shape
    rows, columns = kernel.shape
    weight = kernel.to(img.dtype).view(1, 1, rows, columns)
    out = torch.nn.functional.conv2d(img.view(channels, 1, height, width), weight)
    return out.view(channels, height - rows + 1, width - columns + 1)


def unsharp_mask_conv(img):
    """The unsharp mask with the spec's blur (two conv2d), as an image
    library built on conv2d (kornia's `unsharp_mask`) computes it."""
    blurred = blur_x_blur_y_conv(img)
    core = img[..., 2:-2, 2:-2]
    sharpened = core * (1 + UNSHARP_WEIGHT) - blurred * UNSHARP_WEIGHT
    return torch.where(torch.abs(core - blurred) < UNSHARP_THRESHOLD, core, sharpened)


def harris_conv(img):
    """Harris with its stencils as conv2d (Sobel gradients and box sums, as
    kornia's `harris_response` filters): the same values as `harris`."""
    c = 1.0 / 12
    sobel_y = torch.tensor([[-c, -2 * c, -c], [0.0, 0.0, 0.0], [c, 2 * c, c]])
    sobel_x = torch.tensor([[-c, 0.0, c], [-2 * c, 0.0, 2 * c], [-c, 0.0, c]])
    box = torch.ones(3, 3)
    iy, ix = _filter2d(img, sobel_y), _filter2d(img, sobel_x)
    sxx, syy, sxy = _filter2d(ix * ix, box), _filter2d(iy * iy, box), _filter2d(ix * iy, box)
    det = sxx * syy - sxy * sxy
    trace = sxx + syy
    return det - 0.04 * trace * trace


JACOBI_STEPS = 4


def jacobi_2d(a, steps=JACOBI_STEPS):
    """PolyBench jacobi-2d as a pure function of A: `steps` time steps, each
    B[1:-1, 1:-1] from A then A[1:-1, 1:-1] from B (5-point average); the
    borders of B start as A's (PolyBench initializes B separately)."""
    for _ in range(steps):
        b = a.clone()
        b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:] + a[2:, 1:-1] + a[:-2, 1:-1])
        a = b.clone()
        a[1:-1, 1:-1] = 0.2 * (b[1:-1, 1:-1] + b[1:-1, :-2] + b[1:-1, 2:] + b[2:, 1:-1] + b[:-2, 1:-1])
    return a


# ---------------------------------------------------------------------------
# The workloads: name -> (make, group, flops). `make` returns
# (callable, inputs); `group` picks the target.

IMAGE, JACOBI, ML, MATMUL = "image", "jacobi", "ml", "matmul"
TARGETS = {IMAGE: "25x", JACOBI: "3x", ML: "1.5x geomean", MATMUL: "70% of FMA peak"}


def _image(fn, size=(3, 2048, 2048)):
    return lambda: (fn, (torch.rand(*size),))


def workloads():
    return {
        "blur_x_blur_y 3x2048x2048 (conv2d)": (_image(blur_x_blur_y_conv), IMAGE, None),
        "blur_x_blur_y 3x2048x2048 (slices)": (_image(blur_x_blur_y), IMAGE, None),
        "unsharp mask 3x2048x2048 (conv2d)": (_image(unsharp_mask_conv), IMAGE, None),
        "unsharp mask 3x2048x2048 (slices)": (_image(unsharp_mask), IMAGE, None),
        "harris 3x2048x2048 (conv2d, per channel)": (_image(harris_conv), IMAGE, None),
        "harris 3x2048x2048 (slices, per channel)": (_image(harris), IMAGE, None),
        "jacobi-2d 4 steps 2000x2000": (lambda: (jacobi_2d, (torch.rand(2000, 2000),)), JACOBI, None),
        "softmax 12x512x512": (lambda: (lambda x: torch.softmax(x, -1), (torch.randn(12, 512, 512),)), ML, None),
        "layernorm+gelu 512x768": (
            lambda: (torch.nn.Sequential(torch.nn.LayerNorm(768), torch.nn.GELU()).eval(), (torch.randn(512, 768),)),
            ML,
            None,
        ),
        "attention 12x512x64": (
            lambda: (
                lambda q, k, v: torch.nn.functional.scaled_dot_product_attention(q, k, v),
                tuple(torch.randn(1, 12, 512, 64) for _ in range(3)),
            ),
            ML,
            None,
        ),
        "matmul f32 1024": (lambda: (torch.mm, (torch.randn(1024, 1024), torch.randn(1024, 1024))), MATMUL, 2 * 1024**3),
        "matmul f32 2048": (lambda: (torch.mm, (torch.randn(2048, 2048), torch.randn(2048, 2048))), MATMUL, 2 * 2048**3),
    }


# ---------------------------------------------------------------------------
# Measuring.


def run_c_tool(source, runs=1):
    """Builds bench/`source` (a measuring tool: clang, -O2 -march=native
    -fopenmp) and runs it `runs` times: ([{name: value} per run], None), or
    (None, reason) when it does not build or run. Each tool prints
    "name value" lines."""
    clang = shutil.which("clang-22") or "/usr/lib/llvm-22/bin/clang"
    with tempfile.TemporaryDirectory() as tmp:
        binary = pathlib.Path(tmp) / pathlib.Path(source).stem
        build = subprocess.run(
            [clang, "-O2", "-march=native", "-fopenmp", str(REPO / "bench" / source), "-o", str(binary)],
            capture_output=True,
            text=True,
        )
        if build.returncode != 0:
            return None, f"{source} did not build: {build.stderr.strip()}"
        results = []
        for _ in range(runs):
            run = subprocess.run([str(binary)], capture_output=True, text=True)
            if run.returncode != 0:
                return None, f"{source} failed: {run.stdout} {run.stderr}"
            results.append(dict(line.split() for line in run.stdout.splitlines() if len(line.split()) == 2))
        return results, None


def fma_peak(attempts=3):
    """GFLOP/s of bench/fma_peak.c on all threads, best of `attempts` runs
    (each already the best of 5 inside); (None, reason) when it cannot run."""
    runs, error = run_c_tool("fma_peak.c", attempts)
    if runs is None:
        return None, error
    if any("peak_gflops" not in values for values in runs):
        return None, f"fma_peak printed no peak_gflops: {runs}"
    values = max(runs, key=lambda v: float(v["peak_gflops"]))
    detail = ", ".join(f"{k} {v}" for k, v in values.items() if k != "peak_gflops")
    return float(values["peak_gflops"]), detail


def stream_bandwidth():
    """(copy GB/s, non-temporal copy GB/s) of bench/stream_bandwidth.c, or
    (None, reason)."""
    runs, error = run_c_tool("stream_bandwidth.c")
    if runs is None:
        return None, error
    if "copy_gbs" not in runs[0]:
        return None, f"stream_bandwidth printed no copy_gbs: {runs[0]}"
    return float(runs[0]["copy_gbs"]), float(runs[0]["nt_copy_gbs"])


def _engine_description() -> str:
    """The commit, whether the tree differs from it, and the engine binary used."""
    from polyblocks import engine

    def git(*args):
        result = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True)
        return result.stdout.strip() if result.returncode == 0 else "?"

    dirty = " (+ uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no") else ""
    try:
        binary = engine.engine_binary()
        built = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(binary.stat().st_mtime))
        where = f"{binary.relative_to(REPO) if binary.is_relative_to(REPO) else binary}, built {built}"
    except Exception as error:  # noqa: BLE001
        where = f"engine not found: {error}"
    return f"commit {git('rev-parse', '--short', 'HEAD')}{dirty}; {where}"


def _load() -> str:
    try:
        return " ".join(pathlib.Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def _cell(text: str) -> str:
    """Text fit for one markdown table cell."""
    return re.sub(r"\s+", " ", text.replace("|", "\\|")).strip()


def _first_line(error: BaseException) -> str:
    lines = [line for line in str(error).splitlines() if line.strip()]
    return f"{type(error).__name__}: {lines[0] if lines else ''}"


def compile_polyblocks(model, inputs, reference):
    """(compiled fn or None, check text, clean?, full error text or None),
    after the first call (which compiles) and its check against eager."""
    before = [t.clone() for t in inputs]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            compiled = polyblocks_jit_torch(model)
            out = compiled(*inputs)
        except Exception as error:  # noqa: BLE001 - reported in the table
            return None, f"COMPILE/RUN ERROR: {_first_line(error)}", False, traceback.format_exc()
    problems = []
    fallbacks = sorted({str(w.message) for w in caught if str(w.message).startswith("polyblocks")})
    if fallbacks:
        problems.append("FALLBACK: " + "; ".join(fallbacks))
    try:
        report = validate_outputs(out, reference, rtol=1e-3, atol=1e-4, verbose=False)
        if not report.ok:
            wrong = _count_wrong(out, reference)
            problems.append(f"MISMATCH (max abs {report.max_abs_error:.1e}, {wrong})")
    except Exception as error:  # noqa: BLE001
        problems.append(f"MISMATCH ({_first_line(error)})")
    # The first call's result is checked above; an input changed by the
    # compiled code (written in place) is a bug too.
    changed = [i for i, (b, a) in enumerate(zip(before, inputs)) if not torch.equal(b, a)]
    if changed:
        problems.append(f"MODIFIES INPUT {', '.join(map(str, changed))}")
    check = "; ".join(problems) or "ok"
    full = "\n".join(fallbacks) or None
    return compiled, check, not problems, full


def compile_inductor(model, inputs, name, failures):
    """`torch.compile(model)` after its first (compiling) call, or None with
    the traceback added to `failures` as (name, "torch.compile", text)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compiled = torch.compile(model, backend="inductor", dynamic=False)
            compiled(*inputs)
            return compiled
        except Exception:  # noqa: BLE001 - reported after the table
            failures.append((name, "torch.compile", traceback.format_exc()))
            return None


def ms(seconds):
    """Milliseconds for a table cell ("n/a" for None)."""
    return f"{seconds * 1e3:.2f}" if seconds is not None else "n/a"


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def interleaved(contenders, inputs, runs, rounds):
    """Seconds per call of each contender (None stays None): `rounds` rounds,
    in each every contender gets `steady_median` (warm-up, then `runs` timed
    calls); its time is the lowest of its per-round medians.

    Rounds take turns so that a slow phase of the machine (seen here for
    seconds at a time on these VMs) hits every contender alike."""
    best = [None] * len(contenders)
    for _ in range(rounds):
        for index, fn in enumerate(contenders):
            if fn is None:
                continue
            median = steady_median(fn, inputs, runs)
            best[index] = median if best[index] is None else min(best[index], median)
    return best


def _count_wrong(out, reference):
    try:
        got = out if isinstance(out, torch.Tensor) else out[0]
        want = reference if isinstance(reference, torch.Tensor) else reference[0]
        bad = ~torch.isclose(got, want, rtol=1e-3, atol=1e-4)
        return f"{int(bad.sum())} of {bad.numel()} elements"
    except Exception:  # noqa: BLE001
        return "count unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="timed calls per contender and round (median)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds taking turns between contenders (best median)")
    parser.add_argument("--only", nargs="*", help="run the workloads whose name contains one of these")
    args = parser.parse_args()
    torch.manual_seed(0)
    selected = {
        name: spec for name, spec in workloads().items() if not args.only or any(o in name for o in args.only)
    }

    peak, peak_detail = (None, "")
    if any(group == MATMUL for _, group, _ in selected.values()):
        peak, peak_detail = fma_peak()

    print(
        f"torch {torch.__version__}, {torch.get_num_threads()} threads; after the first call, {args.rounds} rounds "
        f"taking turns, each {WARMUP_SECONDS} s of warm-up and {args.runs} timed calls per contender: best median"
    )
    print(f"polyblocks: {_engine_description()}")
    print(f"load average at start: {_load()}")
    if peak is not None:
        print(f"FMA peak (bench/fma_peak.c, best of 3x5 runs): {peak:.1f} GFLOP/s ({peak_detail})")
    elif peak_detail:
        print(f"FMA peak not measured: {peak_detail}")
    print()
    print("| workload | eager ms | torch.compile ms | polyblocks ms | vs best peer | GFLOP/s eager / compile / polyblocks "
          "(polyblocks % of FMA peak) | target | met | check |")
    print("|---|---:|---:|---:|---:|---:|---|---|---|")

    failures = []
    ml_speedups, ml_clean = [], True
    with tempfile.TemporaryDirectory() as cache_dir, torch.no_grad():
        os.environ["POLYBLOCKS_CACHE_DIR"] = cache_dir  # measure real compiles
        for name, (make, group, flops) in selected.items():
            model, inputs = make()
            torch._dynamo.reset()
            reference = model(*inputs)
            inductor_fn = compile_inductor(model, inputs, name, failures)
            ours_fn, check, clean, detail = compile_polyblocks(model, inputs, reference)
            if detail:
                failures.append((name, "polyblocks", detail))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                eager, inductor, ours = interleaved([model, inductor_fn, ours_fn], inputs, args.runs, args.rounds)

            best_peer = min(t for t in (eager, inductor) if t is not None)
            speedup = best_peer / ours if ours else None
            rate = ""
            target = TARGETS[group]
            if group == MATMUL:
                def gflops(t):
                    return f"{flops / t / 1e9:.0f}" if t else "n/a"

                rate = f"{gflops(eager)} / {gflops(inductor)} / {gflops(ours)}"
                if ours and peak:
                    fraction = flops / ours / 1e9 / peak
                    rate += f" ({fraction:.0%})"
                    met = "yes" if fraction >= 0.70 and clean else "no"
                else:
                    met = "no"
            elif group == ML:
                met = "(geomean)"
                if speedup:
                    ml_speedups.append(speedup)
                ml_clean &= clean and speedup is not None
            else:
                needed = 25.0 if group == IMAGE else 3.0
                met = "yes" if speedup and speedup >= needed and clean else "no"

            print(
                f"| {name} | {ms(eager)} | {ms(inductor)} | {ms(ours)} | "
                f"{f'{speedup:.2f}x' if speedup else 'n/a'} | {rate} | {target} | {met} | {_cell(check)} |",
                flush=True,
            )

        if ml_speedups:
            geomean = geometric_mean(ml_speedups)
            complete = len(ml_speedups) == 3
            met = "yes" if complete and ml_clean and geomean >= 1.5 else "no"
            label = "geomean softmax, layernorm+gelu, attention" + ("" if complete else f" ({len(ml_speedups)} of 3)")
            print(f"| {label} | | | | {geomean:.2f}x | | 1.5x | {met} | |", flush=True)

    print(f"\nload average at end: {_load()}")
    if failures:
        print()
        print("Errors and warnings, in full:")
        for name, who, text in failures:
            print(f"\n--- {name} ({who}) ---\n{text.rstrip()}")


if __name__ == "__main__":
    main()
