"""Weights packed once per parameter version against packed per call
(`compile_options={"prepack_weights": ...}`), kernel by kernel: linear
layers (the weight is the vector operand B) and convolutions (the weight
is the broadcast operand A), beside eager PyTorch, float32, 2 threads,
`torch.no_grad()`.

    .venv/bin/python bench/prepack_bench.py [--rounds N]

Each row: the three contenders take turns (N rounds of 10 calls, best
median), outputs checked against eager; GFLOP/s and the gain of
prepacking (per-call time over prepacked time).
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

import torch

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
from polyblocks import polyblocks_jit_torch  # noqa: E402


def mlp(rows):
    def make():
        module = torch.nn.Sequential(torch.nn.Linear(768, 3072), torch.nn.GELU(), torch.nn.Linear(3072, 768)).eval()
        return module, torch.randn(rows, 768), 2 * 2 * rows * 768 * 3072

    return make


def conv(cin, cout, size, kernel, stride):
    def make():
        module = torch.nn.Sequential(torch.nn.Conv2d(cin, cout, kernel, stride, kernel // 2), torch.nn.ReLU()).eval()
        out = (size + 2 * (kernel // 2) - kernel) // stride + 1
        return module, torch.randn(1, cin, size, size), 2 * cout * cin * kernel * kernel * out * out

    return make


KERNELS = {
    "MLP 128x768x3072": mlp(128),
    "MLP 8x768x3072": mlp(8),
    "conv1x1 2048->512 7x7": conv(2048, 512, 7, 1, 1),
    "conv1x1 1024->256 14x14": conv(1024, 256, 14, 1, 1),
    "conv1x1 256->64 56x56": conv(256, 64, 56, 1, 1),
    "conv3x3 64->64 56x56": conv(64, 64, 56, 3, 1),
    "conv3x3 512->512 7x7": conv(512, 512, 7, 3, 1),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    cli = parser.parse_args()
    torch.set_num_threads(2)
    print("| kernel | eager ms | per call ms | prepacked ms | GFLOP/s eager / per call / prepacked | prepacking gain | check |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, make in KERNELS.items():
        torch.manual_seed(0)
        module, x, flops = make()
        contenders = {
            "eager": module,
            "per call": polyblocks_jit_torch(module, compile_options={"prepack_weights": False}),
            "prepacked": polyblocks_jit_torch(module, compile_options={"prepack_weights": True}),
        }
        best = dict.fromkeys(contenders, float("inf"))
        with torch.no_grad():
            reference = module(x)
            errors = [((f(x) - reference).abs().max() / reference.abs().max()).item() for f in contenders.values()]
            for _ in range(cli.rounds):
                for key, f in contenders.items():
                    times = []
                    for _ in range(10):
                        start = time.perf_counter()
                        f(x)
                        times.append(time.perf_counter() - start)
                    best[key] = min(best[key], statistics.median(times))
        rates = " / ".join(f"{flops / best[k] / 1e9:.0f}" for k in contenders)
        check = f"rel. error {max(errors):.1e} " + ("ok" if max(errors) <= 1e-4 else "MISMATCH")
        print(
            f"| {name} | {best['eager'] * 1e3:.2f} | {best['per call'] * 1e3:.2f} | {best['prepacked'] * 1e3:.2f} | "
            f"{rates} | {best['per call'] / best['prepacked']:.2f}x | {check} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
