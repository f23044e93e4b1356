"""TensorFlow programs through `@polyblocks_jit_tf` on its two StableHLO
paths: the engine's own (`pb_dialects::stablehlo` + `pb-legalize-stablehlo`,
the default) and jaxlib's `stablehlo-legalize-to-linalg` (the JAX front's,
forced here by wrapping `jit_common.compile_stablehlo`; the default is not
changed). Each program also runs as a plain `tf.function` (TF's executor),
which gives the reference results and a reference time.

Timing: the variants run interleaved in rounds (each round calls every
variant `--calls` times, the order rotating from round to round), after
one warm-up call each; the number is the
median over all warm calls. Threads: `--threads` (compile option `threads`,
and OMP_NUM_THREADS / TF's intra-op pool).

    OMP_NUM_THREADS=2 POLYBLOCKS_COMPILE=target/release/pb-compile \\
        .venv/bin/python bench/tf_paths_bench.py [--rounds 8] [--calls 10] \\
        [--baseline-engine OLD/pb-compile]

`--baseline-engine` adds a column: the engine path compiled by another
build of pb-compile (before a change), in the same interleaved rounds.

The compile cache goes to a fresh temporary folder unless
POLYBLOCKS_CACHE_DIR is set (the jaxlib path and the baseline build get cache keys of their own).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import numpy as np

os.environ.setdefault("POLYBLOCKS_CACHE_DIR", tempfile.mkdtemp(prefix="pb-tf-paths-"))

import tensorflow as tf  # noqa: E402

from polyblocks import jit_common  # noqa: E402
from polyblocks.tf_polyblocks_compiler import polyblocks_jit_tf  # noqa: E402

_original = jit_common.compile_stablehlo
# How the next compile goes: jaxlib's conversion or not, and which
# pb-compile (None: $POLYBLOCKS_COMPILE / the checkout's).
_mode = {"via_jaxlib": False, "engine": None}


def _compile_stablehlo(key, hlo, options, target, runner, via_jaxlib=True):
    forced, engine = _mode["via_jaxlib"], _mode["engine"]
    saved = os.environ.get("POLYBLOCKS_COMPILE")
    if engine:
        os.environ["POLYBLOCKS_COMPILE"] = engine
    try:
        suffix = ("-jaxlib" if forced else "") + ("-baseline" if engine else "")
        return _original(key + suffix, hlo, options, target, runner, via_jaxlib=forced)
    finally:
        if engine:
            if saved is None:
                os.environ.pop("POLYBLOCKS_COMPILE", None)
            else:
                os.environ["POLYBLOCKS_COMPILE"] = saved


jit_common.compile_stablehlo = _compile_stablehlo


def programs(rng):
    """(name, callable, inputs): Keras models and TF functions."""
    keras = tf.keras
    out = []

    x = rng.standard_normal((1, 56, 56, 64)).astype(np.float32)
    conv = keras.Sequential([keras.Input((56, 56, 64), batch_size=1), keras.layers.Conv2D(64, 3, padding="same", activation="relu")])
    out.append(("conv3x3+bias+relu 1x56x56x64", conv, [x]))

    x = rng.standard_normal((4, 64, 64, 3)).astype(np.float32)
    cnn = keras.Sequential(
        [
            keras.Input((64, 64, 3), batch_size=4),
            keras.layers.Conv2D(32, 3, strides=2, padding="same", activation="relu"),
            keras.layers.Conv2D(64, 3, padding="same", activation="relu"),
            keras.layers.DepthwiseConv2D(3, padding="same", activation="relu"),
            keras.layers.Conv2D(64, 1, activation="relu"),
            keras.layers.Conv2D(128, 3, strides=2, padding="valid", activation="relu"),
            keras.layers.GlobalAveragePooling2D(),
            keras.layers.Dense(10),
        ]
    )
    out.append(("small CNN 4x64x64x3 (conv, depthwise, 1x1, GAP, dense)", cnn, [x]))

    x = rng.standard_normal((128, 768)).astype(np.float32)
    mlp = keras.Sequential(
        [keras.Input((768,), batch_size=128), keras.layers.Dense(3072, activation="relu"), keras.layers.Dense(768)]
    )
    out.append(("MLP 128x768x3072x768 (relu)", mlp, [x]))

    a = rng.standard_normal((16, 256, 64)).astype(np.float32)
    b = rng.standard_normal((16, 64, 256)).astype(np.float32)
    out.append(("tf.linalg.matmul 16x256x64 @ 16x64x256", lambda p, q: tf.linalg.matmul(p, q), [a, b]))

    q = rng.standard_normal((16, 256, 64)).astype(np.float32)
    k = rng.standard_normal((16, 256, 64)).astype(np.float32)
    out.append(("tf.linalg.matmul 16x256x64 @ (16x256x64)^T", lambda p, r: tf.linalg.matmul(p, r, transpose_b=True), [q, k]))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", help="run the programs whose name contains this")
    parser.add_argument("--baseline-engine", help="also time the engine path compiled by this pb-compile (an older build)")
    args = parser.parse_args()
    tf.config.threading.set_intra_op_parallelism_threads(args.threads)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    options = {"threads": args.threads}
    rng = np.random.default_rng(0)

    baseline = "  baseline ms  baseline/engine" if args.baseline_engine else ""
    print(f"{'program':58s} {'TF ms':>8s} {'engine ms':>10s} {'jaxlib ms':>10s} {'jaxlib/engine':>14s}{baseline}")
    for name, target, inputs in programs(rng):
        if args.only and args.only not in name:
            continue
        reference_fn = tf.function(target)
        engine_fn = polyblocks_jit_tf(target, compile_options=options)
        jaxlib_fn = polyblocks_jit_tf(target, compile_options=options)
        expected = np.asarray(reference_fn(*inputs))
        _mode["via_jaxlib"] = False
        got_engine = np.asarray(engine_fn(*inputs))
        _mode["via_jaxlib"] = True
        got_jaxlib = np.asarray(jaxlib_fn(*inputs))
        _mode["via_jaxlib"] = False
        variants = {"tf": reference_fn, "engine": engine_fn, "jaxlib": jaxlib_fn}
        results = {"engine": got_engine, "jaxlib": got_jaxlib}
        if args.baseline_engine:
            variants["baseline"] = polyblocks_jit_tf(target, compile_options=options)
            _mode["engine"] = args.baseline_engine
            results["baseline"] = np.asarray(variants["baseline"](*inputs))
            _mode["engine"] = None
        scale = max(1.0, float(np.abs(expected).max()))
        for label, got in results.items():
            error = float(np.abs(got - expected).max()) / scale
            if error > 1e-4:
                raise SystemExit(f"{name}: {label} path differs from TF (max error {error:.2e} relative to {scale:.3g})")
        times = {label: [] for label in variants}
        labels = list(variants)
        for round_number in range(args.rounds):
            # The order rotates: what runs right after TF (whose pool threads
            # spin on for a while) or after another variant changes.
            shift = round_number % len(labels)
            for label in labels[shift:] + labels[:shift]:
                fn = variants[label]
                for _ in range(args.calls):
                    start = time.perf_counter()
                    result = fn(*inputs)
                    np.asarray(result)
                    times[label].append(time.perf_counter() - start)
        ms = {label: statistics.median(t) * 1e3 for label, t in times.items()}
        line = f"{name:58s} {ms['tf']:8.3f} {ms['engine']:10.3f} {ms['jaxlib']:10.3f} {ms['jaxlib'] / ms['engine']:13.2f}x"
        if args.baseline_engine:
            line += f" {ms['baseline']:12.3f} {ms['baseline'] / ms['engine']:15.2f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
