"""Image and stencil pipelines beside the peer an image-processing user would
pick: Halide, with its autoschedulers (Adams2019, Mullapudi2016, Li2018) and
a simple hand schedule (bench/halide_peer.py), in one run with PyTorch eager,
torch.compile and polyblocks, against the memory floor of this machine.

    .venv/bin/python bench/stencil_bench.py [--runs N] [--rounds R] [--only NAME ...]
        [--schedules hand Adams2019 ...] [--odd] [--apps [NAME ...]]

Needs the `halide` wheel (benchmark environment only: `pip install halide`).

Per pipeline (float32; the PyTorch definitions of bench/polyhedral_bench.py,
polyblocks given each formulation: shifted slices and conv2d filters):

- every contender's result is checked (polyblocks against eager, the Halide
  schedules against eager too, each at the benchmark size and, with
  `--odd`, at an odd size: 3x1021x1019, jacobi 1021x1021);
- then they take turns for R rounds, each a warm-up and N timed calls per
  contender; a contender's time is its best round median (slow phases of
  these VMs hit everyone alike);
- the memory floor: (input + output bytes) / the streaming bandwidth
  measured in the same run (bench/stream_bandwidth.c: b = s * a on both
  cores, ordinary stores; non-temporal stores shown beside it).

Halide is timed at its default float semantics (FMA contraction allowed,
its fastest), as polyblocks is (fp_contract on); its results are checked
with the same tolerance as ours, and pixels where a contracted FMA flips
unsharp mask's threshold test are counted and shown, not hidden.

"vs best Halide" is the best autoscheduler's time over polyblocks' (> 1:
polyblocks faster); "x floor" is polyblocks' time over the memory floor.
"""

from __future__ import annotations

import argparse
import math
import os
import pathlib
import sys
import tempfile
import time
import traceback
import warnings

import numpy as np
import torch

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "python"))
import polyhedral_bench as pb  # noqa: E402
from torch_bench import steady_median  # noqa: E402

AUTOSCHEDULERS = ("Adams2019", "Mullapudi2016", "Li2018")

# name -> (halide pipeline, {formulation: torch fn}, input shape, odd shape)
PIPELINES = {
    "blur_x_blur_y": ("blur_x_blur_y", {"slices": pb.blur_x_blur_y, "conv2d": pb.blur_x_blur_y_conv}, (3, 2048, 2048), (3, 1021, 1019)),
    "unsharp mask": ("unsharp_mask", {"slices": pb.unsharp_mask, "conv2d": pb.unsharp_mask_conv}, (3, 2048, 2048), (3, 1021, 1019)),
    "harris": ("harris", {"slices": pb.harris, "conv2d": pb.harris_conv}, (3, 2048, 2048), (3, 1021, 1019)),
    "jacobi-2d 4 steps": ("jacobi_2d", {"slices": pb.jacobi_2d}, (2000, 2000), (1021, 1021)),
}

# The apps of bench/image_apps.py (one formulation each, as written; shown
# in the "slices" column), with `--apps`. heat-3d's ten steps take pb-fuse
# minutes to plan (docs/performance.md), so it needs `--apps heat_3d`.
APPS_BY_DEFAULT = ("interpolate", "camera_pipe", "bilateral_grid", "local_laplacian")


def app_pipelines(names):
    import image_apps

    return {name: (name, {"slices": image_apps.APPS[name][0]}, image_apps.APPS[name][1], image_apps.APPS[name][2]) for name in names}


RTOL, ATOL = 1e-3, 1e-4


def wrong_elements(got, want):
    bad = ~np.isclose(got, want, rtol=RTOL, atol=ATOL)
    return int(bad.sum()), bad.size


def check_text(got, want):
    wrong, total = wrong_elements(got, want)
    if wrong == 0:
        return "ok", True
    return f"{wrong} of {total} elements off (max abs {np.abs(got - want).max():.1e})", False


def halide_contender(name, schedule, shape, odd_shape, reference, odd_reference, halide_peer):
    """(fn(img) or None, check text, build seconds)."""
    start = time.perf_counter()
    try:
        runner = halide_peer.build(name, schedule, shape, threads=torch.get_num_threads(), strict_float=False)
    except Exception as error:  # noqa: BLE001 - reported in the table
        return None, f"FAILED: {pb._first_line(error)}", time.perf_counter() - start
    seconds = time.perf_counter() - start
    out = np.empty(halide_peer.output_shape(name, shape), np.float32)
    texts, clean = [], True
    for img, want in ((reference[0], reference[1]), (odd_reference[0], odd_reference[1]) if odd_reference else (None, None)):
        if img is None:
            continue
        result = np.empty(halide_peer.output_shape(name, img.shape), np.float32)
        try:
            runner(img, result)
        except Exception as error:  # noqa: BLE001
            return None, f"FAILED at {img.shape}: {pb._first_line(error)}", seconds
        text, ok = check_text(result, want)
        clean &= ok
        if not ok:
            texts.append(f"{'x'.join(map(str, img.shape))}: {text}")
    img = reference[0]
    return (lambda: runner(img, out)), ("ok" if clean else "; ".join(texts)), seconds


def polyblocks_contender(fn, img, reference, odd):
    """(fn() or None, check text)."""
    compiled, check, clean, _ = pb.compile_polyblocks(fn, (img,), reference)
    if compiled is None:
        return None, check
    if odd is not None:
        odd_img, odd_reference = odd
        out = compiled(odd_img)
        text, ok = check_text(out.numpy(), odd_reference.numpy())
        if not ok:
            check = f"{check}; {'x'.join(map(str, odd_img.shape))}: {text}"
    return (lambda: compiled(img)), check


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--schedules", nargs="*", default=["hand", *AUTOSCHEDULERS])
    parser.add_argument("--odd", action="store_true", help="also check every contender at an odd size")
    parser.add_argument("--no-peers", action="store_true", help="skip eager and torch.compile timings")
    parser.add_argument(
        "--apps",
        nargs="*",
        help=f"also the apps of bench/image_apps.py (no names: {', '.join(APPS_BY_DEFAULT)}; heat_3d only by name)",
    )
    args = parser.parse_args()
    pipelines = dict(PIPELINES)
    if args.apps is not None:
        pipelines.update(app_pipelines(args.apps or APPS_BY_DEFAULT))
    import halide_peer

    torch.manual_seed(0)
    threads = torch.get_num_threads()
    bandwidth = pb.stream_bandwidth()
    print(f"torch {torch.__version__}, halide {halide_peer._halide_version()}, {threads} threads; "
          f"{args.rounds} rounds taking turns, each {pb.WARMUP_SECONDS} s of warm-up and {args.runs} timed calls per contender: best median")
    print(f"polyblocks: {pb._engine_description()}")
    print(f"load average at start: {pb._load()}")
    if bandwidth[0] is not None:
        print(f"streaming bandwidth (bench/stream_bandwidth.c, b = s * a, {threads} threads): "
              f"{bandwidth[0]:.1f} GB/s ordinary stores, {bandwidth[1]:.1f} GB/s non-temporal stores")
    else:
        print(f"streaming bandwidth not measured: {bandwidth[1]}")
    print()
    schedules = args.schedules
    header = ["pipeline", "eager ms", "torch.compile ms", "polyblocks slices ms", "polyblocks conv2d ms"]
    header += [f"Halide {s} ms" for s in schedules]
    header += ["memory floor ms", "vs best Halide autoscheduler", "x floor", "checks"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * 0 + "---|" + "---:|" * (len(header) - 2) + "---|")

    ratios, failures = [], []
    with tempfile.TemporaryDirectory() as cache_dir, torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        os.environ["POLYBLOCKS_CACHE_DIR"] = cache_dir
        for label, (halide_name, forms, shape, odd_shape) in pipelines.items():
            if args.only and not any(o in label for o in args.only):
                continue
            img = torch.rand(*shape)
            odd_img = torch.rand(*odd_shape) if args.odd else None
            first = next(iter(forms.values()))
            reference = first(img)
            odd_reference = first(odd_img) if odd_img is not None else None
            checks, contenders, names = [], [], []

            def add(name, fn):
                names.append(name)
                contenders.append(fn)

            if not args.no_peers:
                add("eager", lambda: first(img))
                try:
                    inductor = torch.compile(first, backend="inductor", dynamic=False)
                    inductor(img)
                    add("torch.compile", lambda: inductor(img))
                except Exception:  # noqa: BLE001
                    add("torch.compile", None)
                    failures.append((label, "torch.compile", traceback.format_exc()))
            else:
                add("eager", None)
                add("torch.compile", None)
            for form in ("slices", "conv2d"):
                if form not in forms:
                    add(f"polyblocks {form}", None)
                    continue
                torch._dynamo.reset()
                fn, check = polyblocks_contender(
                    forms[form], img, reference, (odd_img, odd_reference) if odd_img is not None else None
                )
                add(f"polyblocks {form}", fn)
                if check != "ok":
                    checks.append(f"polyblocks {form}: {check}")
            for schedule in schedules:
                fn, check, seconds = halide_contender(
                    halide_name,
                    schedule,
                    shape,
                    odd_shape,
                    (img.numpy(), reference.numpy()),
                    (odd_img.numpy(), odd_reference.numpy()) if odd_img is not None else None,
                    halide_peer,
                )
                add(f"Halide {schedule}", fn)
                if check != "ok":
                    checks.append(f"Halide {schedule}: {check}")
            times = pb.interleaved(contenders, (), args.runs, args.rounds)
            by_name = dict(zip(names, times))

            bytes_moved = (img.numel() + reference.numel()) * 4
            floor = bytes_moved / (bandwidth[0] * 1e9) if bandwidth[0] else None
            ours = [t for t in (by_name["polyblocks slices"], by_name["polyblocks conv2d"]) if t is not None]
            ours_best = max(ours) if ours else None  # the slower formulation: both must be fast
            autos = [by_name[f"Halide {s}"] for s in schedules if s in AUTOSCHEDULERS and by_name[f"Halide {s}"] is not None]
            versus = min(autos) / ours_best if autos and ours_best else None
            if versus:
                ratios.append(versus)

            def ms(t):
                return f"{t * 1e3:.2f}" if t is not None else "n/a"

            cells = [label, ms(by_name["eager"]), ms(by_name["torch.compile"]), ms(by_name["polyblocks slices"]), ms(by_name["polyblocks conv2d"])]
            cells += [ms(by_name[f"Halide {s}"]) for s in schedules]
            cells += [ms(floor), f"{versus:.2f}x" if versus else "n/a", f"{ours_best / floor:.2f}" if floor and ours_best else "n/a"]
            cells.append(pb._cell("; ".join(checks)) or "ok")
            print("| " + " | ".join(cells) + " |", flush=True)

    if ratios:
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"\ngeomean vs best Halide autoscheduler (slower polyblocks formulation per pipeline): {geomean:.2f}x")
    print(f"load average at end: {pb._load()}")
    for label, who, text in failures:
        print(f"\n--- {label} ({who}) ---\n{text.rstrip()}")


if __name__ == "__main__":
    main()
