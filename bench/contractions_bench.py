"""Contraction kernels of real networks, one at a time: polyblocks beside
PyTorch eager (oneDNN/MKL), float32, 2 threads, `torch.no_grad()`.

    .venv/bin/python bench/contractions_bench.py [--runs N] [--only NAME ...]

The convolutions of resnet18/50 (3x3 at 56, 28, 14 and 7 pixels, the 7x7
stride-2 stem, a 1x1 projection), a transformer MLP block (128 tokens,
768 -> 3072 -> 768 with GELU) and a square matmul. Each row: median of
`--runs` calls after 3 warm-ups, GFLOP/s, the ratio eager / polyblocks
(above 1: polyblocks faster) and the relative error of polyblocks' output.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

import torch

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
from polyblocks import polyblocks_jit_torch  # noqa: E402


def conv(cin, cout, size, kernel, stride):
    def make():
        module = torch.nn.Sequential(torch.nn.Conv2d(cin, cout, kernel, stride, kernel // 2), torch.nn.ReLU()).eval()
        out = (size + 2 * (kernel // 2) - kernel) // stride + 1
        return module, (torch.randn(1, cin, size, size),), 2 * cout * cin * kernel * kernel * out * out

    return make


def mlp():
    module = torch.nn.Sequential(torch.nn.Linear(768, 3072), torch.nn.GELU(), torch.nn.Linear(3072, 768)).eval()
    return module, (torch.randn(128, 768),), 2 * 2 * 128 * 768 * 3072


def matmul():
    return torch.mm, (torch.randn(1024, 1024), torch.randn(1024, 1024)), 2 * 1024**3


KERNELS = {
    "conv3x3 64->64 56x56": conv(64, 64, 56, 3, 1),
    "conv3x3 64->128 56x56 stride 2": conv(64, 128, 56, 3, 2),
    "conv3x3 128->128 28x28": conv(128, 128, 28, 3, 1),
    "conv3x3 256->256 14x14": conv(256, 256, 14, 3, 1),
    "conv3x3 512->512 7x7": conv(512, 512, 7, 3, 1),
    "conv1x1 64->256 56x56": conv(64, 256, 56, 1, 1),
    "conv7x7 3->64 224x224 stride 2 (stem)": conv(3, 64, 224, 7, 2),
    "MLP 128x768x3072 (linear, gelu, linear)": mlp,
    "matmul 1024": matmul,
}


def median_ms(fn, inputs, runs, warmups=3):
    """Median milliseconds of `runs` calls after `warmups` untimed ones."""
    for _ in range(warmups):
        fn(*inputs)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(*inputs)
        times.append(time.perf_counter() - start)
    return sorted(times)[runs // 2] * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    torch.set_num_threads(2)
    torch.manual_seed(0)
    print("| kernel | eager ms | polyblocks ms | GFLOP/s eager / polyblocks | eager / polyblocks | rel. error |")
    print("|---|---:|---:|---:|---:|---:|")
    with torch.no_grad():
        for name, make in KERNELS.items():
            if args.only and not any(o in name for o in args.only):
                continue
            fn, inputs, flops = make()
            compiled = polyblocks_jit_torch(fn, compile_options={"fallback": False})
            out, reference = compiled(*inputs), fn(*inputs)
            error = float((out - reference).abs().max() / reference.abs().max())
            eager, ours = median_ms(fn, inputs, args.runs), median_ms(compiled, inputs, args.runs)
            print(
                f"| {name} | {eager:.3f} | {ours:.3f} | {flops / eager / 1e6:.0f} / {flops / ours / 1e6:.0f} "
                f"| {eager / ours:.2f}x | {error:.1e} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
