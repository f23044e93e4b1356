"""Convolution layers one at a time (conv + bias + ReLU, float32, 2 threads)
beside torch.compile with Inductor's weight freezing (oneDNN), contenders
taking turns in one process; optionally several engine binaries (A/B).

    .venv/bin/python bench/conv_layers_bench.py                 # ResNet-18's 3x3 layers, batch 1
    .venv/bin/python bench/conv_layers_bench.py 256x14x1 512x7x8 --engines /tmp/ct/pbc-a /tmp/ct/pbc-b

A shape is `CxHxB[xKxSxCIN]`: C output channels over an H x H map, batch
B, kernel K (3), stride S (1), CIN input channels (C). Each row prints
milliseconds per call (best of the rounds' medians) and GFLOP/s per
contender, and the largest error relative to the output's scale over the
polyblocks variants.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys

import torch

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "bench"))
from polyblocks import polyblocks_jit_torch  # noqa: E402
from polyhedral_bench import interleaved  # noqa: E402

RESNET18 = ["64x56x1", "128x28x1", "256x14x1", "512x7x1"]


class ConvReLU(torch.nn.Module):
    def __init__(self, cin, cout, k, stride):
        super().__init__()
        self.conv = torch.nn.Conv2d(cin, cout, k, stride=stride, padding=k // 2)

    def forward(self, x):
        return torch.relu(self.conv(x))


def parse(shape: str):
    values = [int(v) for v in shape.split("x")]
    c, h, b = values[:3]
    k = values[3] if len(values) > 3 else 3
    stride = values[4] if len(values) > 4 else 1
    cin = values[5] if len(values) > 5 else c
    return c, h, b, k, stride, cin


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shapes", nargs="*", default=RESNET18)
    parser.add_argument("--engines", nargs="*", default=[], help="pb-compile binaries (default: the workspace's)")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=5)
    cli = parser.parse_args()
    torch.set_num_threads(2)
    engines = cli.engines or [None]
    for shape in cli.shapes:
        c, h, b, k, stride, cin = parse(shape)
        torch.manual_seed(0)
        model = ConvReLU(cin, c, k, stride).eval()
        x = torch.randn(b, cin, h, h)
        with torch.no_grad():
            reference = model(x)
            torch._dynamo.reset()
            torch._inductor.config.freezing = True
            try:
                peer = torch.compile(model)
                peer(x)
            finally:
                torch._inductor.config.freezing = False
            contenders, error = [peer], 0.0
            for engine in engines:
                if engine:
                    os.environ["POLYBLOCKS_COMPILE"] = engine
                ours = polyblocks_jit_torch(model, compile_options={"target": "cpu", "cache": False})
                out = ours(x)
                error = max(error, float((out - reference).abs().max() / reference.abs().max()))
                contenders.append(ours)
            os.environ.pop("POLYBLOCKS_COMPILE", None)
            seconds = interleaved(contenders, (x,), cli.runs, cli.rounds)
        flops = 2 * b * c * cin * k * k * (h // stride) ** 2
        names = ["torch.compile+freezing"] + [pathlib.Path(e).name if e else "polyblocks" for e in engines]
        cells = [f"{n} {t * 1e3:.3f} ms ({flops / t / 1e9:.0f} GFLOP/s)" for n, t in zip(names, seconds)]
        print(f"{shape}: " + "; ".join(cells) + f"; rel. error {error:.1e}", flush=True)


if __name__ == "__main__":
    main()
