"""Side-by-side benchmark of the PyTorch front, in one run: PyTorch eager,
torch.compile (inductor) and polyblocks, median run time and ratios, plus
compile (first-call) time.

    .venv/bin/python bench/torch_bench.py [--runs N] [--only NAME ...]

Prints a markdown table for docs/performance.md. Every polyblocks result is
checked against eager first; a mismatch is reported in the table.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import tempfile
import time
import warnings

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python"))
from polyblocks import polyblocks_jit_torch  # noqa: E402
from polyblocks.common_utils import validate_outputs  # noqa: E402


def blur(height, width):
    def blur_x_blur_y(img):
        kernel = torch.tensor([0.0625, 0.25, 0.375, 0.25, 0.0625], device=img.device).float()
        blurx = torch.nn.functional.conv2d(img.view(3, 1, height, width), kernel.view(1, 1, 1, 5))
        blury = torch.nn.functional.conv2d(blurx, kernel.view(1, 1, 5, 1))
        return blury.view(3, height - 4, width - 4)

    return blur_x_blur_y, (torch.rand(3, height, width),)


class ConvBiasRelu(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(64, 64, 3, padding=1)

    def forward(self, x):
        return torch.relu(self.conv(x))


def workloads():
    import torchvision

    layer = torch.nn.TransformerEncoderLayer(256, 4, 512, dropout=0.0, batch_first=True)
    return {
        "blur_x_blur_y 3x2048x2048": lambda: blur(2048, 2048),
        "conv3x3+bias+relu 1x64x56x56": lambda: (ConvBiasRelu().eval(), (torch.randn(1, 64, 56, 56),)),
        "mlp 256x1024x1024x10": lambda: (
            torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 10)).eval(),
            (torch.randn(256, 1024),),
        ),
        "softmax 12x512x512": lambda: (lambda x: torch.softmax(x, -1), (torch.randn(12, 512, 512),)),
        "layernorm+gelu 512x768": lambda: (
            torch.nn.Sequential(torch.nn.LayerNorm(768), torch.nn.GELU()).eval(),
            (torch.randn(512, 768),),
        ),
        "attention 12x512x64": lambda: (
            lambda q, k, v: torch.nn.functional.scaled_dot_product_attention(q, k, v),
            tuple(torch.randn(1, 12, 512, 64) for _ in range(3)),
        ),
        "resnet18 1x3x224x224": lambda: (torchvision.models.resnet18(weights=None).eval(), (torch.randn(1, 3, 224, 224),)),
        "transformer encoder 2x(256) 4x128": lambda: (
            torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False).eval(),
            (torch.randn(4, 128, 256),),
        ),
    }


WARMUP_SECONDS = 0.3


def timed(fn, inputs, runs):
    """(first result, first call's seconds, median seconds of `runs` calls
    after a warm-up: see `steady_median`)."""
    start = time.perf_counter()
    out = fn(*inputs)
    first = time.perf_counter() - start
    return out, first, steady_median(fn, inputs, runs)


def steady_median(fn, inputs, runs):
    """Median seconds of `runs` calls, after WARMUP_SECONDS of untimed calls
    (at least 3), the same for every contender.

    On these VMs the first tens of calls after a compile were seen running
    2-3x slower than the rest (cause not found: nothing else of ours runs),
    and a contender's OpenMP threads may still spin from its last call; the
    tables report the steady state a loop sees.
    """
    warm_until, calls = time.perf_counter() + WARMUP_SECONDS, 0
    while calls < 3 or time.perf_counter() < warm_until:
        fn(*inputs)
        calls += 1
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(*inputs)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    torch.manual_seed(0)
    print("| workload | eager ms | torch.compile ms | polyblocks ms | vs eager | vs torch.compile | "
          "compile s (inductor / polyblocks) | check |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as cache_dir, torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import os

        os.environ["POLYBLOCKS_CACHE_DIR"] = cache_dir  # measure real compiles
        for name, make in workloads().items():
            if args.only and not any(o in name for o in args.only):
                continue
            model, inputs = make()
            torch._dynamo.reset()
            reference, _, eager = timed(model, inputs, args.runs)
            _, inductor_compile, inductor = timed(torch.compile(model, backend="inductor", dynamic=False), inputs, args.runs)
            ours, ours_compile, polyblocks = timed(polyblocks_jit_torch(model), inputs, args.runs)
            report = validate_outputs(ours, reference, rtol=1e-3, atol=1e-4, verbose=False)
            check = "ok" if report.ok else f"MISMATCH ({report.max_abs_error:.1e})"
            print(
                f"| {name} | {eager * 1e3:.2f} | {inductor * 1e3:.2f} | {polyblocks * 1e3:.2f} | "
                f"{eager / polyblocks:.2f}x | {inductor / polyblocks:.2f}x | "
                f"{inductor_compile:.1f} / {ours_compile:.1f} | {check} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
