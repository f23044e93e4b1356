"""Run time of whole models compiled by two or more `pb-compile` binaries,
in one process (an A/B of an engine change): each variant compiles the
model through `polyblocks_jit_torch` with its own empty cache
(`POLYBLOCKS_COMPILE` names the binary), its output is checked against
eager, then the variants take turns: 3 rounds of 5 calls, best median.

    .venv/bin/python bench/engine_ab_bench.py MODEL BATCH A,B
        # binaries at /tmp/ct/pbc-A and /tmp/ct/pbc-B (--dir to change)
    .venv/bin/python bench/engine_ab_bench.py MODEL BATCH prepack_weights=0,prepack_weights=1
        # one engine (the workspace's), a compile option set per variant

MODEL is one of bench/models_bench.py's models, densenet121, one of
bench/image_apps.py's pipelines, or one of bench/polyhedral_bench.py's
stencils (blur_x_blur_y, unsharp_mask, harris, their _conv forms, jacobi_2d)
(BATCH ignored for those two: their benchmark sizes). The first
call's seconds are printed too, but the first variant's include one-time
imports and warm-up: compare compile time with bench/first_call_bench.py.
"""
import os
import shutil
import statistics
import sys
import time

import torch
REPO = __import__("pathlib").Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python")); sys.path.insert(0, str(REPO / "bench"))
from models_bench import MODELS, _vision
MODELS.setdefault("densenet121", _vision("densenet121"))
from polyblocks import polyblocks_jit_torch
import argparse
parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("model")
parser.add_argument("batch", type=int)
parser.add_argument("variants", help="comma-separated names: binaries DIR/pbc-NAME, or OPTION=INT compile options")
parser.add_argument("--dir", default="/tmp/ct")
parser.add_argument("--threads", type=int, default=2, help="threads of every variant (one thread: steadier A/B readings on a noisy VM)")
parser.add_argument("--rounds", type=int, default=3)
cli = parser.parse_args()
torch.set_num_threads(cli.threads)
name, batch, variants = cli.model, cli.batch, cli.variants.split(",")
if name in MODELS:
    model, args = MODELS[name](batch)
else:
    import image_apps
    import polyhedral_bench
    stencils = {f.__name__: f for f in (polyhedral_bench.blur_x_blur_y, polyhedral_bench.blur_x_blur_y_conv,
                                        polyhedral_bench.unsharp_mask, polyhedral_bench.unsharp_mask_conv,
                                        polyhedral_bench.harris, polyhedral_bench.harris_conv, polyhedral_bench.jacobi_2d)}
    if name in image_apps.APPS:
        app, shape, _ = image_apps.APPS[name]
    elif name in stencils:
        app, shape = stencils[name], ((2000, 2000) if name == "jacobi_2d" else (3, 2048, 2048))
    else:
        sys.exit(f"unknown model, image app or stencil {name!r}")
    model, args = app, (torch.rand(*shape, generator=torch.Generator().manual_seed(0)),)
with torch.no_grad(): ref = model(*args)
fns = {}
for v in variants:
    options = {"target": "cpu", "threads": cli.threads}
    if "=" in v:
        option, value = v.split("=", 1)
        options[option] = int(value)
    else:
        os.environ["POLYBLOCKS_COMPILE"] = f"{cli.dir}/pbc-{v}"
    os.environ["POLYBLOCKS_CACHE_DIR"] = f"{cli.dir}/cache-{v}"
    shutil.rmtree(f"{cli.dir}/cache-{v}", ignore_errors=True)
    f = polyblocks_jit_torch(compile_options=options)(model)
    t = time.perf_counter()
    with torch.no_grad(): out = f(*args)
    first = time.perf_counter() - t
    r = out if isinstance(out, torch.Tensor) else out[0]
    rr = ref if isinstance(ref, torch.Tensor) else ref[0]
    err = ((r - rr).abs().max() / rr.abs().max()).item()
    print(v, "first call s", round(first, 2), "rel err", f"{err:.1e}", flush=True)
    fns[v] = f
best = {v: 1e9 for v in variants}
for rnd in range(cli.rounds):
    for v in variants:
        ts = []
        with torch.no_grad():
            for _ in range(5):
                t = time.perf_counter(); fns[v](*args); ts.append(time.perf_counter() - t)
        best[v] = min(best[v], statistics.median(ts))
print({v: round(best[v]*1e3, 2) for v in variants})
