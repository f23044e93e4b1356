"""ResNet-50's distinct convolutions one at a time: polyblocks beside eager
PyTorch (oneDNN), float32, no bias, 2 threads, `torch.no_grad()`.

    .venv/bin/python bench/resnet50_convs_bench.py [--batch 8] [--runs 7]

Each row: one `nn.Conv2d` (torchvision's padding, `k // 2`) compiled with
`polyblocks_jit_torch(compile_options={"target": "cpu", "fallback":
False})`, median of `--runs` warm calls of each contender, GFLOP/s, the
ratio eager / polyblocks (above 1: polyblocks faster), and the relative
error of polyblocks' output; the last line weights each shape by how often
it occurs in the model. `POLYBLOCKS_COMPILE` names another engine binary
(A/B runs).
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import torch

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
from polyblocks import polyblocks_jit_torch  # noqa: E402

sys.path.insert(0, str(REPO / "bench"))
from contractions_bench import median_ms  # noqa: E402

# (in channels, out channels, input map, kernel, stride, times in resnet50)
SHAPES = [
    (3, 64, 224, 7, 2, 1),
    (64, 64, 56, 1, 1, 1), (64, 64, 56, 3, 1, 3), (64, 256, 56, 1, 1, 4), (256, 64, 56, 1, 1, 2),
    (256, 128, 56, 1, 1, 1), (128, 128, 56, 3, 2, 1), (128, 512, 28, 1, 1, 4), (256, 512, 56, 1, 2, 1),
    (512, 128, 28, 1, 1, 3), (128, 128, 28, 3, 1, 3),
    (512, 256, 28, 1, 1, 1), (256, 256, 28, 3, 2, 1), (256, 1024, 14, 1, 1, 6), (512, 1024, 28, 1, 2, 1),
    (1024, 256, 14, 1, 1, 5), (256, 256, 14, 3, 1, 5),
    (1024, 512, 14, 1, 1, 1), (512, 512, 14, 3, 2, 1), (512, 2048, 7, 1, 1, 3), (1024, 2048, 14, 1, 2, 1),
    (2048, 512, 7, 1, 1, 2), (512, 512, 7, 3, 1, 2),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    torch.set_num_threads(2)
    print("| conv (in->out, map, kernel, stride) | times in the model | eager GFLOP/s | polyblocks GFLOP/s | eager / polyblocks | rel. error |")
    print("|---|---:|---:|---:|---:|---:|")
    total_eager = total_ours = 0.0
    for cin, cout, size, kernel, stride, count in SHAPES:
        out = (size + 2 * (kernel // 2) - kernel) // stride + 1
        flops = 2 * cout * cin * kernel * kernel * out * out * args.batch
        torch.manual_seed(0)
        module = torch.nn.Conv2d(cin, cout, kernel, stride, kernel // 2, bias=False).eval()
        x = torch.randn(args.batch, cin, size, size)
        with torch.no_grad():
            compiled = polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})(module)
            want = module(x)
            error = ((compiled(x) - want).abs().max() / want.abs().max()).item()
            ours = median_ms(compiled, (x,), args.runs, warmups=2)
            eager = median_ms(module, (x,), args.runs, warmups=2)
        total_eager += eager * count
        total_ours += ours * count
        name = f"{cin}->{cout}, {size}, {kernel}x{kernel}" + (f", s{stride}" if stride > 1 else "")
        print(f"| {name} | {count} | {flops / eager / 1e6:.0f} | {flops / ours / 1e6:.0f} | {eager / ours:.2f}x | {error:.1e} |",
              flush=True)
    print(f"| sum over the model (ms per call) | | {total_eager:.0f} | {total_ours:.0f} | {total_eager / total_ours:.2f}x | |")


if __name__ == "__main__":
    main()
