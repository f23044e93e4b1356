"""First-call compile seconds of whole models (issue 19): polyblocks beside
torch.compile with Inductor's weight freezing (its fairest CPU setting),
each cell in a fresh process with empty caches, contenders taking turns.

    .venv/bin/python bench/first_call_bench.py [--only NAME ...] [--rounds R]
        [--engine PATH ...]

Models: torchvision resnet50 (batch 8), vit_b_16, densenet121,
efficientnet_b0, mobilenet_v3_large (batch 1; the last two are mostly
depthwise blocks),
Hugging Face BERT-base (12 layers, sequence 128, batch 1) from its default
config, each built as bench/models_bench.py builds it, and a JAX program of 25 unrolled gradient-descent steps on a
2048x128 least-squares problem (`static_argnums`, against `jax.jit`).

A cell is the wall time of the first call in a new Python process (model
built and frameworks imported before the clock starts): for polyblocks
Dynamo/AOTAutograd tracing (or `jax.jit(...).lower`), torch-mlir's import
and the engine, with an empty compile cache; for Inductor
(`TORCHINDUCTOR_FX_GRAPH_CACHE=0`, a fresh cache folder) its whole
compile. `--engine` names `pb-compile` binaries to compare (default: the
one the front finds), each a column; the ratio column is the peer over
the last of them. Every polyblocks output is checked
against eager (max abs error over the largest magnitude, at most 1e-3).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[1]

MODELS = {
    "resnet50": ("torchvision", "resnet50", 8),
    "vit_b_16": ("torchvision", "vit_b_16", 1),
    "densenet121": ("torchvision", "densenet121", 1),
    "efficientnet_b0": ("torchvision", "efficientnet_b0", 1),
    "mobilenet_v3_large": ("torchvision", "mobilenet_v3_large", 1),
    "bert-base": ("bert", None, 1),
    "jax-gd-25": ("jax", None, None),
}

CHILD = r'''
import json, os, sys, time
sys.path.insert(0, {python!r})
kind, name, batch, contender = {kind!r}, {name!r}, {batch!r}, {contender!r}
if kind == "jax":
    import jax, jax.numpy as jnp, numpy as np
    from polyblocks import polyblocks_jit_jax
    def loss(x, A, b):
        r = A @ x - b
        return 0.5 * jnp.dot(r, r)
    def gd(x, A, b, steps, lr):
        for _ in range(steps):
            x = x - lr * jax.grad(loss)(x, A, b)
        return x
    rng = np.random.default_rng(0)
    A = jnp.asarray(rng.standard_normal((2048, 128), dtype=np.float32) / 45)
    b = jnp.asarray(rng.standard_normal(2048, dtype=np.float32))
    args = (jnp.zeros(128, jnp.float32), A, b, 25, 0.1)
    ref = None
    if contender == "polyblocks":
        f = polyblocks_jit_jax(compile_options={{"target": "cpu", "static_argnums": (3, 4)}})(gd)
    else:
        f = jax.jit(gd, static_argnums=(3, 4))
    start = time.perf_counter()
    out = f(*args)
    out = jnp.asarray(out).block_until_ready()
    seconds = time.perf_counter() - start
    if contender == "polyblocks":
        ref = jax.jit(gd, static_argnums=(3, 4))(*args)
        error = float(jnp.abs(out - ref).max() / jnp.abs(ref).max())
    else:
        error = 0.0
else:
    import torch
    torch.manual_seed(0)
    torch.set_num_threads(int(os.environ.get("BENCH_THREADS", "2")))
    sys.path.insert(0, {bench!r})
    from models_bench import _hf, _vision
    make = _vision(name) if kind == "torchvision" else _hf("bert")
    model, args = make(batch)
    with torch.no_grad():
        ref = model(*args)
    if contender == "polyblocks":
        from polyblocks import polyblocks_jit_torch
        f = polyblocks_jit_torch(compile_options={{"target": "cpu"}})(model)
    else:
        import torch._inductor.config as inductor_config
        inductor_config.freezing = True
        f = torch.compile(model)
    with torch.no_grad():
        start = time.perf_counter()
        out = f(*args)
        seconds = time.perf_counter() - start
    error = float(((out - ref).abs().max() / ref.abs().max()).item())
print("RESULT " + json.dumps({{"seconds": seconds, "error": error}}))
'''


def run_cell(model: str, contender: str, engine: str | None) -> tuple[float | None, str]:
    kind, name, batch = MODELS[model]
    source = CHILD.format(python=str(REPO / "python"), bench=str(REPO / "bench"), kind=kind, name=name, batch=batch, contender=contender)
    with tempfile.TemporaryDirectory(prefix="pb-first-call-") as folder:
        env = dict(os.environ)
        env["POLYBLOCKS_CACHE_DIR"] = str(pathlib.Path(folder) / "polyblocks")
        env["TORCHINDUCTOR_CACHE_DIR"] = str(pathlib.Path(folder) / "inductor")
        env["TORCHINDUCTOR_FX_GRAPH_CACHE"] = "0"
        env["TRITON_CACHE_DIR"] = str(pathlib.Path(folder) / "triton")
        if engine:
            env["POLYBLOCKS_COMPILE"] = engine
        result = subprocess.run([sys.executable, "-c", source], env=env, capture_output=True, text=True, timeout=1800)
    for line in result.stdout.splitlines():
        if line.startswith("RESULT "):
            data = json.loads(line[len("RESULT "):])
            check = "ok" if data["error"] <= 1e-3 else f"WRONG ({data['error']:.1e})"
            return data["seconds"], check if contender == "polyblocks" else ""
    tail = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no output"]
    return None, f"failed: {tail[0][:120]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="models whose name contains one of these")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of all cells (median per cell)")
    parser.add_argument("--engine", nargs="*", default=[None], help="pb-compile binaries, one column each")
    args = parser.parse_args()
    models = [m for m in MODELS if not args.only or any(o in m for o in args.only)]
    contenders = [("polyblocks", e) for e in args.engine] + [("peer", None)]
    cells: dict[tuple[str, str, str | None], list[float]] = {}
    checks: dict[tuple[str, str, str | None], str] = {}
    for _ in range(args.rounds):
        for model in models:
            for contender, engine in contenders:
                seconds, check = run_cell(model, contender, engine)
                key = (model, contender, engine)
                if seconds is not None:
                    cells.setdefault(key, []).append(seconds)
                checks[key] = check
                print(f"{model} {contender} {engine or ''}: {seconds if seconds is None else round(seconds, 2)} s {check}", file=sys.stderr, flush=True)
    names = [f"polyblocks{'' if e is None else ' (' + pathlib.Path(e).name + ')'} s" for _, e in contenders[:-1]]
    print("| model | " + " | ".join(names) + " | peer s (torch.compile + freezing / jax.jit) | peer / polyblocks | check |")
    print("|---|" + "---:|" * (len(names) + 2) + "---|")
    for model in models:
        row = [model]
        ours = []
        for contender, engine in contenders:
            values = cells.get((model, contender, engine))
            median = statistics.median(values) if values else None
            row.append("failed" if median is None else f"{median:.2f}")
            ours.append(median)
        # Against the last polyblocks column (the newest engine).
        peer, newest = ours[-1], ours[-2]
        row.append(f"{peer / newest:.2f}x" if peer and newest else "")
        row.append("; ".join(checks.get((model, c, e), "") for c, e in contenders[:-1]))
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
