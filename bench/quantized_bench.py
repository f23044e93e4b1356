"""PT2E int8 models beside eager and torch.compile of the same quantized model (issue 16).

    .venv/bin/python bench/quantized_bench.py [--rounds 3] [--runs 20]

Each model is quantized with torchao's PT2E flow (`X86InductorQuantizer`,
its default static configuration: u8 activations per tensor, s8 weights per
channel) from random weights, calibrated on one input, and run through
eager PyTorch, `torch.compile` and `polyblocks_jit_torch`; the float model
through polyblocks is the fourth contender. Contenders take turns in
`--rounds` rounds of `--runs` calls (median per round, best round), 2
threads, under `torch.no_grad()`. Prints a markdown table with the error of
ours against the quantized reference and the reference's own deviation
from its float model.

torchao 0.18's X86 quantizer rejects torchvision's resnet18 ("Input
partition has more than one output node", raised while annotating a
conv + unary pattern), also with the binary (conv + add) annotations
disabled, the batch norms folded first and the ReLUs made out of place; so
the models here are blocks written for it.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import torch

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "bench"))
from contractions_bench import median_ms  # noqa: E402
from low_precision_bench import units  # noqa: E402
from polyblocks import polyblocks_jit_torch  # noqa: E402
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e  # noqa: E402
import torchao.quantization.pt2e.quantizer.x86_inductor_quantizer as x86  # noqa: E402


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.up = torch.nn.Linear(768, 3072)
        self.down = torch.nn.Linear(3072, 768)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


class ConvBlock(torch.nn.Module):
    """The issue's quantized conv block: two 3x3 convolutions and a linear head."""

    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(64, 64, 3, padding=1)
        self.c2 = torch.nn.Conv2d(64, 64, 3, padding=1)
        self.head = torch.nn.Linear(64, 10)

    def forward(self, x):
        y = torch.relu(self.c1(x))
        y = torch.relu(self.c2(y))
        return self.head(y.mean((2, 3)))


MODELS = {
    "MLP 128x768x3072 (linear, relu, linear)": (Mlp, (128, 768)),
    "conv block 1x64x56x56 (2 conv3x3 + linear)": (ConvBlock, (1, 64, 56, 56)),
}


def quantize(model, example):
    exported = torch.export.export(model, (example,)).module()
    quantizer = x86.X86InductorQuantizer()
    quantizer.set_global(x86.get_default_x86_inductor_quantization_config())
    prepared = prepare_pt2e(exported, quantizer)
    prepared(example)
    return convert_pt2e(prepared)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    torch.set_num_threads(2)
    options = {"target": "cpu", "fallback": False}
    print(f"CPU units: {units()}\n")
    print("| model | eager int8 ms | torch.compile int8 ms | polyblocks int8 ms | polyblocks f32 ms | vs best peer | vs our f32 | error (ours / reference vs float) |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for name, (make, shape) in MODELS.items():
        torch.manual_seed(0)
        model = make().eval()
        x = torch.randn(*shape)
        q = quantize(model, x)
        with torch.no_grad():
            contenders = {
                "eager": q,
                "compile": torch.compile(q),
                "ours": polyblocks_jit_torch(compile_options=options)(q),
                "ours f32": polyblocks_jit_torch(compile_options=options)(model),
            }
            best = {n: float("inf") for n in contenders}
            for _ in range(args.rounds):
                for n, fn in contenders.items():
                    best[n] = min(best[n], median_ms(fn, (x,), args.runs))
            reference = q(x)
            error = (contenders["ours"](x) - reference).abs().max().item()
            deviation = (model(x) - reference).abs().max().item()
        peer = min(best["eager"], best["compile"])
        print(
            f"| {name} | {best['eager']:.2f} | {best['compile']:.2f} | {best['ours']:.2f} | {best['ours f32']:.2f} "
            f"| {peer / best['ours']:.2f}x | {best['ours f32'] / best['ours']:.2f}x | {error:.1e} / {deviation:.1e} |"
        )


if __name__ == "__main__":
    main()
