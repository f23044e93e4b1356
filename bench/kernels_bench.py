"""The kernel rows of the whole-models issue (issue 14), in one run:
PyTorch eager, torch.compile with Inductor's weight freezing, IREE and
polyblocks, float32, `torch.no_grad()`, contenders taking turns.

    .venv/bin/python bench/kernels_bench.py [--runs N] [--rounds R] [--only NAME ...] [--no-iree]

IREE (`pip install iree-base-compiler iree-base-runtime`, not in the
project's requirements: a peer to measure against, like Halide) compiles
the MLIR torch-mlir's FX importer makes of the same module (linalg on
tensors, the importer our front uses), parameters folded in as constants
(its fairest setting, as freezing is Inductor's), with
`--iree-llvmcpu-target-cpu=host --iree-opt-data-tiling=true
--iree-llvmcpu-enable-ukernels=none` (fully code-generated, as ours), run
by its `local-task` driver on 2 threads (`--task_topology_max_group_count=2`)
with the inputs already on its device. Without the wheels the column says
so and the rest runs.

The issue's rate targets are checked against this machine, measured in
the same run: conv3x3 64->64 at 56x56 reaches 60% of the FMA peak
(bench/fma_peak.c), matrix-vector and depthwise reach 60% of the streaming
bandwidth (bench/stream_bandwidth.c, ordinary stores: the bytes of one
read of every input and one write of every output). Every polyblocks and
IREE result is checked against eager.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import tempfile
import traceback
import warnings

import numpy as np
import torch

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
import polyhedral_bench as pb  # noqa: E402
from polyblocks.torch_polyblocks_compiler import _FunctionModule  # noqa: E402  (a function as a module, for torch.export)
from torch_bench import WARMUP_SECONDS  # noqa: E402

# ---------------------------------------------------------------------------
# The kernels. Each maker returns (module or function, inputs,
# (kind, amount)): kind "flops" (rated against the FMA peak) or "bytes"
# (against the streaming bandwidth), or None when the issue sets no rate.

FMA, BYTES = "flops", "bytes"


class ConvBiasRelu(torch.nn.Module):
    def __init__(self, channels=64):
        super().__init__()
        self.conv = torch.nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x):
        return torch.relu(self.conv(x))


def conv3x3():
    n, c, size = 1, 64, 56
    return ConvBiasRelu(c).eval(), (torch.randn(n, c, size, size),), (FMA, 2 * c * c * 9 * size * size * n)


def depthwise_pointwise():
    c, size = 96, 56
    module = torch.nn.Sequential(
        torch.nn.Conv2d(c, c, 3, padding=1, groups=c), torch.nn.ReLU6(), torch.nn.Conv2d(c, c, 1)
    ).eval()
    moved = 4 * (2 * c * size * size + c * 9 + c * c + 2 * c)  # input, output, weights, biases
    return module, (torch.randn(1, c, size, size),), (BYTES, moved)


def mlp():
    module = torch.nn.Sequential(torch.nn.Linear(768, 3072), torch.nn.GELU(), torch.nn.Linear(3072, 768)).eval()
    return module, (torch.randn(128, 768),), (FMA, 2 * 2 * 128 * 768 * 3072)


def layernorm_gelu():
    module = torch.nn.Sequential(torch.nn.LayerNorm(768), torch.nn.GELU()).eval()
    return module, (torch.randn(512, 768),), None


def matvec(a, x):
    """A^T (A x): two passes over A (the second needs all of A x)."""
    return a.t() @ (a @ x)


def matvec_make():
    n = 4000
    return matvec, (torch.randn(n, n), torch.randn(n)), (BYTES, 2 * 4 * n * n)


GD_STEPS, GD_RATE = 20, 1e-4


def gradient_descent(x, d):
    """The spec's gradient descent (JAX example) in PyTorch: GD_STEPS
    unrolled steps of w -= rate * X^T (X w - D)."""
    w = torch.zeros(x.shape[1], dtype=x.dtype)
    for _ in range(GD_STEPS):
        w = w - GD_RATE * (x.t() @ (x @ w - d))
    return w


def gradient_descent_make():
    rows, columns = 4096, 256
    return gradient_descent, (torch.randn(rows, columns), torch.randn(rows)), None


def covariance(data):
    """PolyBench covariance: columns centred, X^T X / (n - 1)."""
    centred = data - data.mean(0)
    return centred.t() @ centred / (data.shape[0] - 1)


def covariance_make():
    n, m = 2000, 1200
    return covariance, (torch.randn(n, m),), (FMA, 2 * n * m * m)


def transformer():
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(256, 4, 512, dropout=0.0, batch_first=True)
    module = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False).eval()
    return module, (torch.randn(4, 128, 256),), None


def matmul():
    n = 1024
    return torch.mm, (torch.randn(n, n), torch.randn(n, n)), (FMA, 2 * n**3)


KERNELS = {
    "conv3x3 + bias + relu, 1x64x56x56": conv3x3,
    "depthwise 3x3 + relu6 + pointwise, 1x96x56x56": depthwise_pointwise,
    "MLP 128x768x3072 (linear, gelu, linear)": mlp,
    "layernorm + gelu 512x768": layernorm_gelu,
    "matrix-vector A^T (A x), A 4000x4000": matvec_make,
    "20 steps of gradient descent 4096x256": gradient_descent_make,
    "covariance 2000x1200": covariance_make,
    "2-layer transformer encoder d=256, 4x128": transformer,
    "matmul 1024": matmul,
}

# The rate targets: name fragment -> fraction of the peak.
RATE_TARGETS = {"conv3x3": 0.60, "matrix-vector": 0.60, "depthwise": 0.60}

# ---------------------------------------------------------------------------
# IREE, where its wheels are installed.

IREE_FLAGS = ["--iree-llvmcpu-target-cpu=host", "--iree-opt-data-tiling=true", "--iree-llvmcpu-enable-ukernels=none"]


class IreeUnavailable(Exception):
    pass


def _iree_runtime(threads):
    try:
        import iree.compiler  # noqa: F401
        import iree.runtime as ireert
    except ImportError as error:
        raise IreeUnavailable(f"IREE not installed ({error.name}): pip install iree-base-compiler iree-base-runtime") from None
    if not getattr(_iree_runtime, "config", None):
        ireert.flags.parse_flags(f"--task_topology_max_group_count={threads}")
        _iree_runtime.config = ireert.Config("local-task")
    return ireert, _iree_runtime.config


def compile_iree(model, inputs, threads):
    """A callable running `model` compiled by IREE on `inputs` (already on
    its device), or raises."""
    import iree.compiler as ireec
    from torch_mlir import fx

    ireert, config = _iree_runtime(threads)
    module = model if isinstance(model, torch.nn.Module) else _FunctionModule(model)
    text = str(fx.export_and_import(module, *inputs, output_type="linalg-on-tensors", func_name="main"))
    binary = ireec.compile_str(text, target_backends=["llvm-cpu"], extra_args=IREE_FLAGS)
    context = ireert.SystemContext(config=config)
    context.add_vm_module(ireert.VmModule.copy_buffer(context.instance, binary))
    entry = context.modules.module["main"]
    device_inputs = [ireert.asdevicearray(config.device, t.numpy()) for t in inputs]

    def run(*_ignored):
        return entry(*device_inputs)

    return run


def _rel_check(result, reference):
    """("rel. error E ok|MISMATCH", ok): the largest error over the
    reference's largest magnitude, at most 1e-3."""
    got = result.to_host() if hasattr(result, "to_host") else np.asarray(result)
    want = reference.numpy()
    scale = max(float(np.abs(want).max()), 1e-30)
    error = float(np.abs(got - want).max()) / scale
    return f"rel. error {error:.1e} " + ("ok" if error <= 1e-3 else "MISMATCH"), error <= 1e-3


# ---------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="timed calls per contender and round (median)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds taking turns between contenders (best median)")
    parser.add_argument("--only", nargs="*", help="the kernels whose name contains one of these")
    parser.add_argument("--no-iree", action="store_true", help="leave IREE out")
    args = parser.parse_args()
    threads = torch.get_num_threads()
    selected = {name: make for name, make in KERNELS.items() if not args.only or any(o in name for o in args.only)}

    peak, peak_detail = pb.fma_peak()
    bandwidth = pb.stream_bandwidth()
    print(
        f"torch {torch.__version__}, {threads} threads; after the first call, {args.rounds} rounds taking turns, "
        f"each {WARMUP_SECONDS} s of warm-up and {args.runs} timed calls per contender: best median"
    )
    print(f"polyblocks: {pb._engine_description()}")
    print(f"load average at start: {pb._load()}")
    print(f"FMA peak (bench/fma_peak.c): {peak:.1f} GFLOP/s" if peak else f"FMA peak not measured: {peak_detail}")
    copy_gbs = bandwidth[0]
    print(f"streaming bandwidth (bench/stream_bandwidth.c, ordinary stores): {copy_gbs:.1f} GB/s" if copy_gbs
          else f"streaming bandwidth not measured: {bandwidth[1]}")
    iree_note = None
    if args.no_iree:
        iree_note = "left out (--no-iree)"
    else:
        try:
            _iree_runtime(threads)
            from iree.compiler.version import VERSION as iree_version  # type: ignore

            print(f"IREE {iree_version}: {' '.join(IREE_FLAGS)}, local-task, {threads} threads")
        except IreeUnavailable as error:
            iree_note = str(error)
        except ImportError:
            print(f"IREE: {' '.join(IREE_FLAGS)}, local-task, {threads} threads")
    if iree_note:
        print(f"IREE: {iree_note}")
    print()
    print("| kernel | eager ms | torch.compile+freezing ms | IREE ms | polyblocks ms | vs best peer | rate (polyblocks) | target | check (polyblocks; IREE) |")
    print("|---|---:|---:|---:|---:|---:|---|---|---|")

    failures, speedups = [], []
    torch._inductor.config.freezing = True
    with tempfile.TemporaryDirectory() as cache_dir, torch.no_grad():
        os.environ["POLYBLOCKS_CACHE_DIR"] = cache_dir  # real compiles
        for name, make in selected.items():
            torch.manual_seed(0)
            model, inputs, rate = make()
            torch._dynamo.reset()
            reference = model(*inputs)
            inductor_fn = pb.compile_inductor(model, inputs, name, failures)
            iree_fn, iree_check = None, iree_note or ""
            if not iree_note:
                try:
                    iree_fn = compile_iree(model, inputs, threads)
                    iree_check, _ = _rel_check(iree_fn(), reference)
                except Exception as error:  # noqa: BLE001
                    iree_fn, iree_check = None, f"IREE ERROR: {pb._first_line(error)}"
                    failures.append((name, "IREE", traceback.format_exc()))
            ours_fn, check, clean, detail = pb.compile_polyblocks(model, inputs, reference)
            if ours_fn is not None:
                # The criterion: error relative to the output's scale
                # (an element near zero of a long sum fails an elementwise
                # tolerance whatever the summation order).
                problems = [p for p in check.split("; ") if p != "ok" and not p.startswith("MISMATCH")]
                scaled, good = _rel_check(ours_fn(*inputs), reference)
                check, clean = "; ".join([scaled, *problems]), good and not problems
            if detail:
                failures.append((name, "polyblocks", detail))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                eager, inductor, iree, ours = pb.interleaved([model, inductor_fn, iree_fn, ours_fn], inputs, args.runs, args.rounds)
            peers = [t for t in (eager, inductor, iree) if t is not None]
            speedup = min(peers) / ours if ours and peers else None
            if speedup:
                speedups.append(speedup)
            rate_text, target = "", ""
            if rate and ours:
                kind, amount = rate
                per_second = amount / ours / 1e9
                unit, digits, reference, of = ("GFLOP/s", 0, peak, "FMA peak") if kind == FMA else ("GB/s", 1, copy_gbs, "streaming")
                fraction = per_second / reference if reference else None
                rate_text = f"{per_second:.{digits}f} {unit}" + (f" ({fraction:.0%} of {of})" if fraction is not None else "")
                wanted = next((v for k, v in RATE_TARGETS.items() if k in name), None)
                if wanted is not None:
                    met = fraction is not None and fraction >= wanted and clean
                    target = f">= {wanted:.0%}: {'met' if met else 'not met'}"

            print(
                f"| {name} | {pb.ms(eager)} | {pb.ms(inductor)} | {pb.ms(iree)} | {pb.ms(ours)} | "
                f"{f'{speedup:.2f}x' if speedup else 'n/a'} | {rate_text} | {target} | {pb._cell(check)}; {pb._cell(iree_check)} |",
                flush=True,
            )
        if speedups:
            geomean = pb.geometric_mean(speedups)
            print(f"| geomean ({len(speedups)} kernels) | | | | | {geomean:.2f}x | | | |")

    print(f"\nload average at end: {pb._load()}")
    if failures:
        print("\nErrors and warnings, in full:")
        for name, who, text in failures:
            print(f"\n--- {name} ({who}) ---\n{text.rstrip()}")


if __name__ == "__main__":
    main()
