"""Compile time against program size (issue 19): generated PyTorch programs
of 10, 30, 100, 300 and 1000 operators in four families, each compiled
through the front with an empty cache, then its MLIR compiled again by
`pb-compile --timing --pass-timing` alone for the engine's stages and passes.

    .venv/bin/python bench/compile_scaling_bench.py [--sizes 10 30 100 300 1000]
        [--only FAMILY ...] [--timeout S] [--svg docs/compile-scaling.svg]

Families (float32; "operators" counts the torch calls of the program, as
FX sees them: modules and functions):

- `elementwise`: a chain of pointwise functions on a 256x1024 tensor
  (add, mul, tanh, relu, sigmoid, sub in turn), each with its own constant;
- `matmul`: `x = tanh(x @ W_i)` on 64x128 by 128x128 weights (2 operators per step);
- `conv`: `relu(conv3x3(x))` on 1x16x32x32, 16 channels (2 operators per layer);
- `residual`: ResNet basic blocks on 1x16x16x16 (conv, batch norm, relu,
  conv, batch norm, add, relu: 7 operators per block).

Each program's output is checked against eager. The table has, per
program: the first call's seconds (Dynamo/AOTAutograd tracing, torch-mlir's
import and the engine), the engine's seconds alone, its slowest stage and
its slowest pass. The growth column is the time at this size over the time
at the size before it (the issue's bound: from 100 to 1000 operators at most
12x). `--svg` writes a log-log picture: compile seconds against operators,
one line per family, first call solid and engine dashed, with a dotted line
of slope 1 (linear growth) for reference.
"""

from __future__ import annotations

import argparse
import math
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

import torch

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
from polyblocks import engine, polyblocks_jit_torch  # noqa: E402

SIZES = (10, 30, 100, 300, 1000)


class Elementwise(torch.nn.Module):
    def __init__(self, operators):
        super().__init__()
        self.operators = operators

    def forward(self, x):
        for i in range(self.operators):
            c = 1.0 + (i % 7) / 64.0
            kind = i % 6
            if kind == 0:
                x = x + c
            elif kind == 1:
                x = x * (1.0 / c)
            elif kind == 2:
                x = torch.tanh(x)
            elif kind == 3:
                x = torch.relu(x)
            elif kind == 4:
                x = torch.sigmoid(x)
            else:
                x = x - c / 2
        return x


class MatmulChain(torch.nn.Module):
    def __init__(self, operators):
        super().__init__()
        steps = max(1, operators // 2)
        self.weights = torch.nn.ParameterList(torch.nn.Parameter(torch.randn(128, 128) / 11.3) for _ in range(steps))

    def forward(self, x):
        for w in self.weights:
            x = torch.tanh(x @ w)
        return x


class ConvStack(torch.nn.Module):
    def __init__(self, operators):
        super().__init__()
        layers = max(1, operators // 2)
        self.convs = torch.nn.ModuleList(torch.nn.Conv2d(16, 16, 3, padding=1) for _ in range(layers))

    def forward(self, x):
        for conv in self.convs:
            x = torch.relu(conv(x))
        return x


class BasicBlock(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(16, 16, 3, padding=1, bias=False)
        self.bn1 = torch.nn.BatchNorm2d(16)
        self.conv2 = torch.nn.Conv2d(16, 16, 3, padding=1, bias=False)
        self.bn2 = torch.nn.BatchNorm2d(16)

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(x + y)


class Residual(torch.nn.Module):
    def __init__(self, operators):
        super().__init__()
        self.blocks = torch.nn.Sequential(*(BasicBlock() for _ in range(max(1, round(operators / 7)))))

    def forward(self, x):
        return self.blocks(x)


FAMILIES = {
    "elementwise": (Elementwise, lambda: torch.randn(256, 1024)),
    "matmul": (MatmulChain, lambda: torch.randn(64, 128)),
    "conv": (ConvStack, lambda: torch.randn(1, 16, 32, 32)),
    "residual": (Residual, lambda: torch.randn(1, 16, 16, 16)),
}


def operator_count(model: torch.nn.Module, x: torch.Tensor) -> int:
    """Calls of modules and functions in the program, as torch.fx traces it."""
    graph = torch.fx.symbolic_trace(model).graph
    return sum(1 for node in graph.nodes if node.op in ("call_module", "call_function", "call_method"))


def parse_pass_timing(stderr: str) -> dict[str, float]:
    """Pass name -> seconds, summed over the stages' MLIR timing reports
    (`pb-compile --pass-timing`); pipeline nesting lines are left out."""
    seconds: dict[str, float] = {}
    # With threads, MLIR reports user time before wall time; the last
    # column before the name is the wall time.
    for match in re.finditer(r"^\s+(?:[\d.]+ \(\s*[\d.]+%\)\s+)*([\d.]+) \(\s*[\d.]+%\)\s+(\S.*)$", stderr, re.M):
        name = match.group(2).strip()
        if name.startswith("'") or name in ("Total", "Rest") or name.endswith("Pipeline"):
            continue
        seconds[name] = seconds.get(name, 0.0) + float(match.group(1))
    return seconds


def measure(family: str, operators: int, timeout: float) -> dict:
    make_model, make_input = FAMILIES[family]
    torch.manual_seed(0)
    model = make_model(operators).eval()
    x = make_input()
    row = {"family": family, "operators": operator_count(model, x)}
    with torch.no_grad():
        reference = model(x)
        with tempfile.TemporaryDirectory(prefix="pb-scaling-") as cache:
            os.environ["POLYBLOCKS_CACHE_DIR"] = cache
            try:
                torch._dynamo.reset()
                start = time.perf_counter()
                out = polyblocks_jit_torch(model, compile_options={"target": "cpu", "fallback": False})(x)
                row["first_call_s"] = time.perf_counter() - start
                error = float((out - reference).abs().max() / reference.abs().max().clamp_min(1e-30))
                row["check"] = "ok" if error <= 1e-3 else f"MISMATCH {error:.1e}"
                sources = sorted(pathlib.Path(cache).rglob("*.mlir"))
                row.update(engine_alone(sources, timeout))
            except Exception as error:  # noqa: BLE001 - reported in the table
                row["check"] = f"ERROR: {str(error).splitlines()[0][:120]}"
            finally:
                del os.environ["POLYBLOCKS_CACHE_DIR"]
    return row


def engine_alone(sources: list[pathlib.Path], timeout: float) -> dict:
    """`pb-compile --timing --pass-timing --pool` on each module the front
    wrote: seconds, per stage and per pass, summed over the modules."""
    stages: dict[str, float] = {}
    passes: dict[str, float] = {}
    total = 0.0
    for source in sources:
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            result = subprocess.run(
                [str(engine.engine_binary()), str(source), "-o", f"{out}/lib.so", "--pool", "--timing", "--pass-timing"],
                capture_output=True,
                text=True,
                timeout=timeout,
            )
            total += time.perf_counter() - start
        if result.returncode != 0:
            raise RuntimeError(f"pb-compile failed on {source.name}: {result.stderr.strip()[:200]}")
        for stage, ms in engine.parse_timings(result.stderr).items():
            stages[stage] = stages.get(stage, 0.0) + ms / 1e3
        for name, seconds in parse_pass_timing(result.stderr).items():
            passes[name] = passes.get(name, 0.0) + seconds
    return {"engine_s": total, "modules": len(sources), "stages": stages, "passes": passes}


def _top(times: dict[str, float]) -> str:
    if not times:
        return ""
    name, seconds = max(times.items(), key=lambda item: item[1])
    return f"{name} {seconds:.2f}"


def table(rows: list[dict]) -> str:
    lines = [
        "| family | operators | first call s | growth | engine s | growth | slowest stage s | slowest pass s | check |",
        "|---|---:|---:|---:|---:|---:|---|---|---|",
    ]
    previous: dict[str, dict] = {}
    for row in rows:
        before = previous.get(row["family"])

        def growth(key):
            if before is None or key not in row or key not in before:
                return ""
            return f"{row[key] / before[key]:.1f}x"

        first = f"{row['first_call_s']:.2f}" if "first_call_s" in row else ""
        eng = f"{row['engine_s']:.2f}" if "engine_s" in row else ""
        lines.append(
            f"| {row['family']} | {row['operators']} | {first} | {growth('first_call_s')} | {eng} | "
            f"{growth('engine_s')} | {_top(row.get('stages', {}))} | {_top(row.get('passes', {}))} | {row['check']} |"
        )
        previous[row["family"]] = row
    return "\n".join(lines)


COLOURS = {"elementwise": "#1f77b4", "matmul": "#d62728", "conv": "#2ca02c", "residual": "#9467bd"}


def svg(rows: list[dict]) -> str:
    """A log-log line chart of seconds against operators, drawn by hand (no
    plotting package in the environment)."""
    width, height, left, bottom, top, right = 640, 420, 60, 50, 20, 150
    points = [(r["operators"], r[k]) for r in rows for k in ("first_call_s", "engine_s") if k in r]
    xs = [math.log10(p[0]) for p in points]
    ys = [math.log10(max(p[1], 1e-3)) for p in points]
    x0, x1 = math.floor(min(xs)), math.ceil(max(xs))
    y0, y1 = math.floor(min(ys)), math.ceil(max(ys))
    y1 = max(y1, y0 + 1)

    def px(ops):
        return left + (math.log10(ops) - x0) / (x1 - x0) * (width - left - right)

    def py(seconds):
        return height - bottom - (math.log10(max(seconds, 1e-3)) - y0) / (y1 - y0) * (height - bottom - top)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for e in range(x0, x1 + 1):
        x = px(10**e)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - bottom}" stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{height - bottom + 16}" text-anchor="middle">{10**e}</text>')
    for e in range(y0, y1 + 1):
        y = py(10**e)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{10.0**e:g}</text>')
    out.append(f'<text x="{(left + width - right) / 2}" y="{height - 12}" text-anchor="middle">operators</text>')
    out.append(
        f'<text x="16" y="{(top + height - bottom) / 2}" text-anchor="middle" '
        f'transform="rotate(-90 16 {(top + height - bottom) / 2})">compile seconds</text>'
    )
    # Linear growth for reference: slope 1 through the lowest point at the
    # smallest size.
    smallest = min(p[0] for p in points)
    base = min(p[1] for p in points if p[0] == smallest)
    largest = max(p[0] for p in points)
    out.append(
        f'<line x1="{px(smallest):.1f}" y1="{py(base):.1f}" x2="{px(largest):.1f}" '
        f'y2="{py(base * largest / smallest):.1f}" stroke="#888" stroke-dasharray="1,3"/>'
    )
    for index, family in enumerate(COLOURS):
        series = [r for r in rows if r["family"] == family]
        colour = COLOURS[family]
        for key, dash in (("first_call_s", ""), ("engine_s", ' stroke-dasharray="5,4"')):
            coords = [f"{px(r['operators']):.1f},{py(r[key]):.1f}" for r in series if key in r]
            if len(coords) > 1:
                out.append(f'<polyline points="{" ".join(coords)}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        y = top + 16 + 18 * index
        out.append(f'<line x1="{width - right + 12}" y1="{y - 4}" x2="{width - right + 36}" y2="{y - 4}" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{width - right + 42}" y="{y}">{family}</text>')
    y = top + 16 + 18 * len(COLOURS) + 10
    out.append(f'<text x="{width - right + 12}" y="{y}">solid: first call</text>')
    out.append(f'<text x="{width - right + 12}" y="{y + 16}">dashed: engine</text>')
    out.append(f'<text x="{width - right + 12}" y="{y + 32}">dotted: linear</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--only", nargs="*", help="families to run")
    parser.add_argument("--timeout", type=float, default=900, help="seconds allowed to one pb-compile")
    parser.add_argument("--svg", help="write the log-log picture here")
    parser.add_argument("--passes", type=int, default=0, help="also list the N slowest passes per program")
    args = parser.parse_args()
    torch.set_num_threads(2)
    measure("elementwise", 2, args.timeout)  # imports and first-use costs out of the first row
    rows = []
    for family in FAMILIES:
        if args.only and family not in args.only:
            continue
        for size in args.sizes:
            row = measure(family, size, args.timeout)
            rows.append(row)
            print(f"{family} {row['operators']}: first call {row.get('first_call_s', 0):.2f} s, engine "
                  f"{row.get('engine_s', 0):.2f} s, {row['check']}", file=sys.stderr, flush=True)
            if args.passes:
                slow = sorted(row.get("passes", {}).items(), key=lambda item: -item[1])[: args.passes]
                print("   " + ", ".join(f"{n} {s:.2f}" for n, s in slow), file=sys.stderr, flush=True)
    print(table(rows))
    if args.svg:
        pathlib.Path(args.svg).write_text(svg(rows))


if __name__ == "__main__":
    main()
