"""One rank of test_ddp.py: a model compiled with `torch.compile(...,
backend="polyblocks")` inside DistributedDataParallel (gloo) trains a few
SGD steps next to the same model in eager DDP, from the same weights and on
the same data; losses, gradients and parameters must match.

Usage: ddp_worker.py RANK WORLD_SIZE PORT

Prints one line `RESULT {json}` at the end (the rank's own checks passed;
the test checks the counts in it); any failure is an exception, exit
status non-zero.

Proof that the engine ran the training, not eager PyTorch:
- a polyblocks warning (the front's fallback to PyTorch) is an error, and
  no graph may take the front's splitting path (`_compile_with_fallback`)
  at all: each is compiled whole;
- every graph AOTAutograd hands the front (forward and backward, one pair
  per piece that Dynamo's DDPOptimizer cut at DDP's bucket boundaries) is
  counted with the matrix products in it (the model's three Linear layers
  must all be in compiled graphs, so none ran in an eager graph break), as
  is every call of engine-compiled code (`runtime.Function.call_pointers`)
  in the forward and in the backward of each step.
"""

from __future__ import annotations

import datetime
import json
import pathlib
import sys
import warnings

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
from torch.nn.parallel import DistributedDataParallel as DDP  # noqa: E402

from polyblocks import runtime  # noqa: E402
from polyblocks import torch_polyblocks_compiler as front  # noqa: E402

# As in pytest.ini: a fallback to PyTorch would make "compiled == eager"
# pass without compiling.
warnings.filterwarnings("error", "polyblocks", UserWarning)

STEPS = 3
BATCH = 8
IN = 64
LR = 0.05
# DDP's smallest bucket cap that DDPOptimizer takes (its first bucket is
# capped at 1 MiB, and no bucket may be smaller): the model's 1.2 MB of
# parameters fill several buckets, so DDPOptimizer splits the Dynamo graph
# at their boundaries into several subgraphs (each compiled, forward and
# backward).
BUCKET_CAP_MB = 1
RTOL, ATOL = 1e-4, 1e-5

_calls = {"n": 0}
_real_call_pointers = runtime.Function.call_pointers


def _counting_call_pointers(self, pointers):
    _calls["n"] += 1
    return _real_call_pointers(self, pointers)


runtime.Function.call_pointers = _counting_call_pointers

_graphs = []  # "forward" / "backward" / "inference", per graph compiled
_matmuls = {"forward": 0, "backward": 0, "inference": 0}  # aten.mm/addmm in them
_real_compile_graph = front._compile_graph


def _counting_compile_graph(gm, example_inputs, options, trusted, inference):
    # AOTAutograd's backward compiler is the only untrusted, non-inference
    # one on static shapes (see make_backend).
    kind = "inference" if inference else "forward" if trusted else "backward"
    _graphs.append(kind)
    _matmuls[kind] += sum(
        n.op == "call_function" and n.target in (torch.ops.aten.mm.default, torch.ops.aten.addmm.default)
        for n in gm.graph.nodes
    )
    return _real_compile_graph(gm, example_inputs, options, trusted, inference)


front._compile_graph = _counting_compile_graph

# Graphs the engine did not compile whole (split, parts maybe left to
# PyTorch): none may be.
_splits = []
_real_compile_with_fallback = front._compile_with_fallback


def _recording_compile_with_fallback(gm, example_inputs, options):
    _splits.append(gm.code)
    return _real_compile_with_fallback(gm, example_inputs, options)


front._compile_with_fallback = _recording_compile_with_fallback


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(IN, 512)
        self.fc2 = torch.nn.Linear(512, 512)  # 1 MiB of weights
        self.fc3 = torch.nn.Linear(512, 3)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = torch.tanh(self.fc2(x))
        return self.fc3(x)


def batch(rank: int, step: int):
    """Each rank its own data; the same for both models."""
    generator = torch.Generator().manual_seed(1000 + 100 * rank + step)
    return torch.randn(BATCH, IN, generator=generator), torch.randn(BATCH, 3, generator=generator)


def gathered(tensor: torch.Tensor) -> list[torch.Tensor]:
    parts = [torch.empty_like(tensor) for _ in range(dist.get_world_size())]
    dist.all_gather(parts, tensor.contiguous())
    return parts


def main(rank: int, world: int, port: int):
    torch.set_num_threads(1)
    dist.init_process_group(
        "gloo",
        init_method=f"tcp://127.0.0.1:{port}",
        rank=rank,
        world_size=world,
        timeout=datetime.timedelta(seconds=120),
    )
    try:
        torch.manual_seed(0)  # identical initial weights on every rank
        base = Net()
        eager_model = DDP(Net(), bucket_cap_mb=BUCKET_CAP_MB)
        ddp_model = DDP(Net(), bucket_cap_mb=BUCKET_CAP_MB)
        eager_model.module.load_state_dict(base.state_dict())
        ddp_model.module.load_state_dict(base.state_dict())
        compiled_model = torch.compile(ddp_model, backend="polyblocks")
        eager_opt = torch.optim.SGD(eager_model.parameters(), lr=LR)
        compiled_opt = torch.optim.SGD(ddp_model.parameters(), lr=LR)
        names = [name for name, _ in base.named_parameters()]

        losses, forward_calls, backward_calls = [], [], []
        for step in range(STEPS):
            x, y = batch(rank, step)
            eager_loss = torch.nn.functional.mse_loss(eager_model(x), y)
            eager_opt.zero_grad()
            eager_loss.backward()

            before = _calls["n"]
            compiled_loss = torch.nn.functional.mse_loss(compiled_model(x), y)
            forward_calls.append(_calls["n"] - before)
            compiled_opt.zero_grad()
            before = _calls["n"]
            compiled_loss.backward()
            backward_calls.append(_calls["n"] - before)

            torch.testing.assert_close(compiled_loss, eager_loss, rtol=RTOL, atol=ATOL, msg=lambda m: f"loss, step {step}: {m}")
            for name, p_eager, p_compiled in zip(names, eager_model.module.parameters(), ddp_model.module.parameters()):
                assert p_compiled.grad is not None, f"step {step}: no gradient for {name}"
                torch.testing.assert_close(
                    p_compiled.grad, p_eager.grad, rtol=RTOL, atol=ATOL, msg=lambda m: f"grad {name}, step {step}: {m}"
                )
                # DDP averaged them: every rank holds the same gradient
                # (the ranks' data differ, so only the all-reduce makes
                # them equal).
                for other, grad in enumerate(gathered(p_compiled.grad)):
                    torch.testing.assert_close(
                        grad, p_compiled.grad, rtol=0, atol=0, msg=lambda m: f"grad {name} of rank {other}, step {step}: {m}"
                    )
            losses.append(compiled_loss.detach().item())
            eager_opt.step()
            compiled_opt.step()

        for name, p_eager, p_compiled in zip(names, eager_model.module.parameters(), ddp_model.module.parameters()):
            torch.testing.assert_close(p_compiled, p_eager, rtol=RTOL, atol=ATOL, msg=lambda m: f"parameter {name}: {m}")
            for other, value in enumerate(gathered(p_compiled.detach())):
                torch.testing.assert_close(value, p_compiled.detach(), rtol=0, atol=0, msg=lambda m: f"{name} of rank {other}: {m}")
        # Training moved the weights.
        assert not torch.allclose(ddp_model.module.fc1.weight, base.fc1.weight)

        from torch._dynamo.utils import counters

        result = {
            "rank": rank,
            "losses": losses,
            "graphs": _graphs,
            "matmuls": _matmuls,
            "splits": _splits,
            "forward_calls": forward_calls,
            "backward_calls": backward_calls,
            # Dynamo breaks DDP's own forward (its logger and hooks), not
            # the model's: reported for a failure's message.
            "graph_breaks": sorted(str(k).splitlines()[0] for k in counters["graph_break"]),
        }
        dist.barrier()
    finally:
        dist.destroy_process_group()
    print("RESULT " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
