"""The same programs through PyTorch, JAX and TensorFlow, in one run: each
framework's own execution (eager / jax.jit / TF executor and TF XLA) beside
polyblocks through that framework's front. Equivalent programs should run
alike through polyblocks whatever the framework (the spec calls a large gap
a performance bug).

    .venv/bin/python bench/frameworks_bench.py [--runs N] [--size H W]
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np

import polyblocks.torch_polyblocks_compiler  # noqa: F401 - before tensorflow
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import tensorflow as tf  # noqa: E402
import torch  # noqa: E402

from polyblocks import polyblocks_jit_jax, polyblocks_jit_tf, polyblocks_jit_torch  # noqa: E402
from polyblocks.common_utils import validate_outputs  # noqa: E402

TAPS = np.array([0.0625, 0.25, 0.375, 0.25, 0.0625], np.float32)


def median_ms(fn, *args, runs):
    result = fn(*args)  # compile / warm up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        out = fn(*args)
        if hasattr(out, "block_until_ready"):
            out.block_until_ready()
        times.append(time.perf_counter() - start)
    return result, statistics.median(times) * 1e3


def blur_programs(h, w):
    def torch_blur(img):
        k = torch.tensor(TAPS)
        bx = torch.nn.functional.conv2d(img.view(3, 1, h, w), k.view(1, 1, 1, 5))
        return torch.nn.functional.conv2d(bx, k.view(1, 1, 5, 1)).view(3, h - 4, w - 4)

    def jax_blur(img):
        x = img.reshape(3, 1, h, w)
        bx = jax.lax.conv(x, TAPS.reshape(1, 1, 1, 5), (1, 1), "VALID")
        return jax.lax.conv(bx, TAPS.reshape(1, 1, 5, 1), (1, 1), "VALID").reshape(3, h - 4, w - 4)

    def tf_blur(img):
        k = tf.constant(TAPS)
        bx = tf.nn.conv2d(tf.reshape(img, [3, h, w, 1]), tf.reshape(k, [1, 5, 1, 1]), [1, 1, 1, 1], "VALID")
        by = tf.nn.conv2d(bx, tf.reshape(k, [5, 1, 1, 1]), [1, 1, 1, 1], "VALID")
        return tf.reshape(by, [3, h - 4, w - 4])

    return torch_blur, jax_blur, tf_blur


def row(name, framework, own, ours, reference, result, runs, *args):
    _, own_ms = median_ms(own, *args, runs=runs)
    out, ours_ms = median_ms(ours, *args, runs=runs)
    report = validate_outputs(np.asarray(out), reference, rtol=1e-4, atol=1e-5, verbose=False)
    check = "ok" if report.ok else f"MISMATCH ({report.max_abs_error:.1e})"
    print(f"| {name} | {framework} | {own_ms:.2f} | {ours_ms:.2f} | {own_ms / ours_ms:.2f}x | {check} |", flush=True)
    result.append(ours_ms)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--size", type=int, nargs=2, default=(2048, 2048))
    args = parser.parse_args()
    h, w = args.size
    img = np.random.default_rng(0).random((3, h, w), dtype=np.float32)
    torch_blur, jax_blur, tf_blur = blur_programs(h, w)
    with torch.no_grad():
        reference = torch_blur(torch.from_numpy(img)).numpy()
    print("| program | framework (own execution) | own ms | polyblocks ms | speed-up | check |")
    print("|---|---|---:|---:|---:|---|")
    blur_times = []
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        name = f"blur_x_blur_y 3x{h}x{w}"
        timg = torch.from_numpy(img)
        ours_torch = polyblocks_jit_torch(torch_blur)
        row(name, "PyTorch (eager)", torch_blur, ours_torch, reference, blur_times, args.runs, timg)
        row(name, "PyTorch (torch.compile)", torch.compile(torch_blur), ours_torch, reference, [], args.runs, timg)
        jimg = jax.device_put(img)
        row(name, "JAX (jax.jit)", jax.jit(jax_blur), polyblocks_jit_jax(jax_blur), reference, blur_times, args.runs, jimg)
        ours_tf = polyblocks_jit_tf(tf_blur)
        row(name, "TensorFlow (tf.function)", tf.function(tf_blur), ours_tf, reference, blur_times, args.runs, img)
        row(name, "TensorFlow (XLA)", tf.function(tf_blur, jit_compile=True), ours_tf, reference, [], args.runs, img)
        rng = np.random.default_rng(1)
        x = jax.device_put(rng.standard_normal((12, 512, 512), dtype=np.float32))
        softmax = lambda v: jax.nn.softmax(v, axis=-1)  # noqa: E731
        row("softmax 12x512x512", "JAX (jax.jit)", jax.jit(softmax), polyblocks_jit_jax(softmax), np.asarray(softmax(x)), [], args.runs, x)
        y = jax.device_put(rng.standard_normal((512, 768), dtype=np.float32))
        layernorm_gelu = lambda v: jax.nn.gelu((v - v.mean(-1, keepdims=True)) / jnp.sqrt(v.var(-1, keepdims=True) + 1e-5))  # noqa: E731
        row("layernorm+gelu 512x768", "JAX (jax.jit)", jax.jit(layernorm_gelu), polyblocks_jit_jax(layernorm_gelu), np.asarray(layernorm_gelu(y)), [], args.runs, y)
        q = jax.device_put(rng.standard_normal((12, 512, 64), dtype=np.float32))
        attention = lambda a: jax.nn.softmax(a @ a.swapaxes(-1, -2) / 8.0, axis=-1) @ a  # noqa: E731
        row("attention 12x512x64", "JAX (jax.jit)", jax.jit(attention), polyblocks_jit_jax(attention), np.asarray(attention(q)), [], args.runs, q)
    spread = max(blur_times) / min(blur_times)
    print(f"\npolyblocks blur through PyTorch / JAX / TensorFlow: {' / '.join(f'{t:.1f}' for t in blur_times)} ms "
          f"(slowest/fastest {spread:.2f})")


if __name__ == "__main__":
    main()
