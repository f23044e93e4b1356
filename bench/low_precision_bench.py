"""bf16 matrix products beside PyTorch and our own float32 (issue 16).

    .venv/bin/python bench/low_precision_bench.py [--sizes 1024 2048] [--rounds 3] [--runs 10]

Per size n: `a @ b` of two n x n bfloat16 matrices through eager PyTorch
(oneDNN), `torch.compile` and `polyblocks_jit_torch`, and the same product
in float32 through polyblocks; contenders take turns in `--rounds` rounds
of `--runs` calls each (median per round, then the best round), 2
threads. Prints a markdown table with the CPU's matrix units (AMX tiles
are used by polyblocks where `pb-matrix-tile` finds them) and each
result's error relative to the exact float32 product.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import sys

import torch

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "bench"))
from contractions_bench import median_ms  # noqa: E402
from polyblocks import polyblocks_jit_torch  # noqa: E402


def product(a, b):
    return a @ b


def units() -> str:
    flags = pathlib.Path("/proc/cpuinfo").read_text()
    found = [f for f in ("amx_tile", "amx_bf16", "amx_int8", "avx512_bf16") if re.search(rf"\b{f}\b", flags)]
    return ", ".join(found) or "none"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[1024, 2048])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    torch.set_num_threads(2)
    torch.manual_seed(0)
    print(f"CPU units: {units()}\n")
    print("| n | eager bf16 ms | torch.compile bf16 ms | polyblocks bf16 ms | polyblocks f32 ms | vs best peer | vs our f32 | error (ours / eager) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    for n in args.sizes:
        a, b = torch.randn(n, n), torch.randn(n, n)
        low = (a.bfloat16(), b.bfloat16())
        contenders = {
            "eager": (product, low),
            "compile": (torch.compile(product), low),
            "ours": (polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})(product), low),
            "ours f32": (polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})(product), (a, b)),
        }
        best = {name: float("inf") for name in contenders}
        for _ in range(args.rounds):
            for name, (fn, inputs) in contenders.items():
                best[name] = min(best[name], median_ms(fn, inputs, args.runs))
        exact = low[0].float() @ low[1].float()
        scale = exact.abs().max().item()
        error = {name: (contenders[name][0](*low).float() - exact).abs().max().item() / scale for name in ("eager", "ours")}
        peer = min(best["eager"], best["compile"])
        print(
            f"| {n} | {best['eager']:.2f} | {best['compile']:.2f} | {best['ours']:.2f} | {best['ours f32']:.2f} "
            f"| {peer / best['ours']:.2f}x | {best['ours f32'] / best['ours']:.2f}x | {error['ours']:.1e} / {error['eager']:.1e} |"
        )


if __name__ == "__main__":
    main()
