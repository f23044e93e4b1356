"""Whole models on CPU beside the peers a user would pick instead (issue 14):
PyTorch eager, torch.compile (Inductor), torch.compile with Inductor's weight
freezing (its fairest CPU setting) and `polyblocks_jit_torch`, float32,
`torch.no_grad()`, in one process, contenders taking turns in rounds.

    .venv/bin/python bench/models_bench.py [--batch 1 8] [--only NAME ...] [--runs N] [--rounds R]

Models: torchvision resnet18, resnet50, mobilenet_v3_large, efficientnet_b0,
convnext_tiny, vit_b_16 (images 224x224), and Hugging Face `transformers`
BERT-base and GPT-2 (12 layers each, sequence 128) built from their default
configs with random weights (no download). Every model is in eval mode with
seeded random weights.

Columns: milliseconds per call of each contender (the lowest of its round
medians, as in bench/polyhedral_bench.py), the speed-up of polyblocks over
the best peer, the first call's seconds (compile included) of torch.compile
with freezing and of polyblocks (an empty compile cache), and the check:
polyblocks' output against eager's, max abs error relative to the output's
largest magnitude (at most 1e-3 passes), and whether any operator fell back
to PyTorch. A contender that fails is reported in its cell; the run goes on.
"""

from __future__ import annotations

import argparse
import math
import os
import pathlib
import sys
import tempfile
import time
import traceback
import warnings

import torch

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "bench"))
from polyblocks import polyblocks_jit_torch  # noqa: E402
from polyhedral_bench import _engine_description, _first_line, _load, interleaved  # noqa: E402

TOLERANCE = 1e-3
IMAGE = (3, 224, 224)
SEQUENCE = 128


def _vision(name):
    def make(batch):
        import torchvision

        model = getattr(torchvision.models, name)(weights=None).eval()
        # torchvision zero-initializes some parameters (ViT's classifier
        # head: its output would be the zero bias, checking nothing).
        with torch.no_grad():
            for parameter in model.parameters():
                if not parameter.any():
                    parameter.normal_(std=0.02)
        return model, (torch.randn(batch, *IMAGE),)

    return make


class LastHidden(torch.nn.Module):
    """A transformers model taking token ids, returning its last hidden state."""

    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, ids):
        return self.inner(input_ids=ids).last_hidden_state


def _hf(kind):
    """A transformers model from its default config, random weights; the
    callable takes token ids and returns the last hidden state."""

    def make(batch):
        import transformers

        if kind == "bert":
            config = transformers.BertConfig()
            model = transformers.BertModel(config)
        else:
            config = transformers.GPT2Config()
            model = transformers.GPT2Model(config)
        config.use_cache = False
        model.eval()
        ids = torch.randint(0, config.vocab_size, (batch, SEQUENCE))
        return LastHidden(model).eval(), (ids,)

    return make


MODELS = {
    "resnet18": _vision("resnet18"),
    "resnet50": _vision("resnet50"),
    "mobilenet_v3_large": _vision("mobilenet_v3_large"),
    "efficientnet_b0": _vision("efficientnet_b0"),
    "convnext_tiny": _vision("convnext_tiny"),
    "vit_b_16": _vision("vit_b_16"),
    "bert-base": _hf("bert"),
    "gpt2": _hf("gpt2"),
}


def _first_call(make_fn):
    """(callable or None, seconds of the first call, output or error text)."""
    start = time.perf_counter()
    try:
        fn, out = make_fn()
    except Exception as error:  # noqa: BLE001 - reported in the table
        traceback.print_exc()
        return None, time.perf_counter() - start, _first_line(error)
    return fn, time.perf_counter() - start, out


def _relative_error(out, reference) -> float:
    return float((out - reference).abs().max() / reference.abs().max().clamp_min(1e-30))


def run_model(name, batch, runs, rounds):
    torch.manual_seed(0)
    model, inputs = MODELS[name](batch)
    with torch.no_grad():
        reference = model(*inputs)

        def peer(**options):
            def make():
                torch._dynamo.reset()
                compiled = torch.compile(model, **options)
                return compiled, compiled(*inputs)

            return make

        eager = model
        compiled, compile_s, _ = _first_call(peer())
        # Freezing constant-folds the weights into the graph (Inductor's
        # recommended CPU inference setting); it is read at compile time.
        torch._inductor.config.freezing = True
        try:
            frozen, frozen_s, _ = _first_call(peer())
        finally:
            torch._inductor.config.freezing = False

        def ours():
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                fn = polyblocks_jit_torch(model, compile_options={"target": "cpu", "fallback": True})
                out = fn(*inputs)
            fallbacks = sorted({str(w.message).splitlines()[0] for w in caught if "polyblocks" in str(w.message)})
            return fn, (out, fallbacks)

        pb, pb_s, pb_result = _first_call(ours)
        if pb is None:
            check = f"ERROR: {pb_result}"
        else:
            out, fallbacks = pb_result
            error = _relative_error(out, reference)
            check = f"rel. error {error:.1e}" + (" ok" if error <= TOLERANCE else " MISMATCH")
            if fallbacks:
                check += "; FALLBACK: " + "; ".join(fallbacks)
        times = interleaved([eager, compiled, frozen, pb], inputs, runs, rounds)
    return times, compile_s, frozen_s, pb_s, check


def _ms(seconds):
    return f"{seconds * 1e3:.2f}" if seconds is not None else "failed"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--only", nargs="*", help="models whose name contains one of these")
    parser.add_argument("--runs", type=int, default=5, help="timed calls per contender and round (median)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds taking turns between contenders (best median)")
    args = parser.parse_args()
    threads = int(os.environ.get("OMP_NUM_THREADS", os.cpu_count() or 1))
    torch.set_num_threads(threads)
    # An empty compile cache: the compile seconds are a first compile.
    os.environ.setdefault("POLYBLOCKS_CACHE_DIR", tempfile.mkdtemp(prefix="pb-models-bench-"))
    print(f"torch {torch.__version__}, {threads} threads; {args.rounds} rounds taking turns, {args.runs} timed calls each")
    print(f"polyblocks: {_engine_description()}")
    print(f"load average at start: {_load()}", flush=True)
    header = (
        "| model | batch | eager ms | torch.compile ms | compile+freezing ms | polyblocks ms | vs best peer "
        "| compile s (freezing / polyblocks) | check |"
    )
    rows, speedups = [], []
    for name in MODELS:
        if args.only and not any(o in name for o in args.only):
            continue
        for batch in args.batch:
            try:
                times, compile_s, frozen_s, pb_s, check = run_model(name, batch, args.runs, args.rounds)
            except Exception as error:  # noqa: BLE001 - reported in the table
                traceback.print_exc()
                rows.append(f"| {name} | {batch} | | | | | | | ERROR: {_first_line(error)} |")
                continue
            peers = [t for t in times[:3] if t is not None]
            ratio = min(peers) / times[3] if peers and times[3] is not None else None
            if ratio is not None:
                speedups.append(ratio)
            rows.append(
                f"| {name} | {batch} | {' | '.join(_ms(t) for t in times)} | "
                f"{f'{ratio:.2f}x' if ratio else ''} | {frozen_s:.1f} / {pb_s:.1f} | {check} |"
            )
            print(rows[-1], flush=True)
    print(f"load average at end: {_load()}\n")
    print(header)
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    print("\n".join(rows))
    if speedups:
        geomean = math.exp(sum(math.log(s) for s in speedups) / len(speedups))
        print(f"| geomean | | | | | | {geomean:.2f}x | | |")


if __name__ == "__main__":
    main()
