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

torchvision's ResNets reuse one `nn.ReLU` module twice per block. With
torch 2.15's export (non-strict), the quantizer's source partitions come
from `nn_module_stack`, so both calls of that module form one partition
with two outputs, and torchao 0.18's X86 quantizer raises "Input
partition has more than one output node". `split_shared_modules` gives
each call of a reused single-op module a partition of its own
(`source_fn_stack` per call) before quantizing; the model and its
quantization are otherwise what the quantizer makes.

`--models` picks rows (default: all); whole models (torchvision's ResNets,
a BERT-base encoder) run at `--batch`. `--matrix-units avx512-vnni` has
polyblocks use VNNI's dot products alone (what a CPU without AMX runs).
The peers: eager, `torch.compile`, and `torch.compile` with Inductor's
weight freezing (its fairest CPU setting; the int8 convolutions then run
in oneDNN).
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


def _torchvision(name):
    def make():
        import torchvision

        return getattr(torchvision.models, name)(weights=None)

    return make


def _bert():
    """BERT-base from its default config (random weights), token ids in, the
    last hidden state out (bench/models_bench.py's model)."""
    from models_bench import MODELS as FLOAT_MODELS

    return FLOAT_MODELS["bert-base"](1)[0]


MODELS = {
    "MLP 128x768x3072 (linear, relu, linear)": (Mlp, (128, 768)),
    "conv block 1x64x56x56 (2 conv3x3 + linear)": (ConvBlock, (1, 64, 56, 56)),
    "resnet18": (_torchvision("resnet18"), "image"),
    "resnet50": (_torchvision("resnet50"), "image"),
    "bert-base (sequence 128)": (_bert, "tokens"),
}


def example(shape, batch):
    """The input of a row: a fixed shape, images or token ids at `batch`."""
    if shape == "image":
        return torch.randn(batch, 3, 224, 224)
    if shape == "tokens":
        return torch.randint(0, 30522, (batch, 128))
    return torch.randn(*shape)


def split_shared_modules(graph_module):
    """Gives each call of a module that the program calls more than once
    (a ResNet block's one ReLU) a source partition of its own, where all
    of its calls are the same single op: the quantizer then annotates each
    call as the pattern it is (see the module docstring)."""
    import importlib

    def resolve(cls):
        if isinstance(cls, type):
            return cls
        module, _, name = cls.rpartition(".")
        return getattr(importlib.import_module(module), name)

    calls = {}
    for node in graph_module.graph.nodes:
        stack = node.meta.get("nn_module_stack")
        if node.op == "call_function" and stack and "source_fn_stack" not in node.meta:
            fqn, cls = list(stack.values())[-1]
            calls.setdefault(fqn, []).append((node, cls))
    for fqn, nodes in calls.items():
        if len(nodes) > 1 and len({node.target for node, _ in nodes}) == 1:
            for node, cls in nodes:
                node.meta["source_fn_stack"] = [(f"{fqn}#{node.name}", resolve(cls))]
    return graph_module


def quantize(model, example):
    exported = split_shared_modules(torch.export.export(model, (example,)).module())
    # Code whose result nobody uses (BERT's pooler when only the hidden
    # states are returned) forms partitions without outputs, which the
    # quantizer's pattern matching cannot take.
    exported.graph.eliminate_dead_code()
    exported.recompile()
    quantizer = x86.X86InductorQuantizer()
    quantizer.set_global(x86.get_default_x86_inductor_quantization_config())
    prepared = prepare_pt2e(exported, quantizer)
    prepared(example)
    return convert_pt2e(prepared)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=1, help="batch of the torchvision models")
    parser.add_argument("--models", nargs="*", help="rows whose name contains one of these (default: all)")
    parser.add_argument(
        "--matrix-units",
        help="the units polyblocks may use instead of the host's, e.g. 'avx512-vnni' (what a CPU with VNNI but no AMX runs) or 'none'",
    )
    args = parser.parse_args()
    torch.set_num_threads(2)
    options = {"target": "cpu", "fallback": False}
    if args.matrix_units:
        options["target_overrides"] = f"matrix-units={args.matrix_units}"
    print(f"CPU units: {units()}" + (f"; polyblocks told the target has: {args.matrix_units}" if args.matrix_units else "") + "\n")
    print(
        "| model | eager int8 ms | torch.compile int8 ms | compile+freezing int8 ms | polyblocks int8 ms | polyblocks f32 ms "
        "| vs best peer | vs our f32 | error (ours / reference vs float) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, (make, shape) in MODELS.items():
        if args.models and not any(m in name for m in args.models):
            continue
        torch.manual_seed(0)
        model = make().eval()
        x = example(shape, args.batch)
        q = quantize(model, x)
        with torch.no_grad():

            def peer():
                torch._dynamo.reset()
                compiled = torch.compile(q)
                compiled(x)
                return compiled

            compiled = peer()
            # Freezing is read when the graph compiles, at the first call.
            torch._inductor.config.freezing = True
            try:
                frozen = peer()
            finally:
                torch._inductor.config.freezing = False
            contenders = {
                "eager": q,
                "compile": compiled,
                "frozen": frozen,
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
        peer_ms = min(best["eager"], best["compile"], best["frozen"])
        label = f"{name}, batch {args.batch}" if isinstance(shape, str) else name
        print(
            f"| {label} | {best['eager']:.2f} | {best['compile']:.2f} | {best['frozen']:.2f} | {best['ours']:.2f} | {best['ours f32']:.2f} "
            f"| {peer_ms / best['ours']:.2f}x | {best['ours f32'] / best['ours']:.2f}x | {error:.1e} / {deviation:.1e} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
