"""A compiled model in torch.distributed DistributedDataParallel (gloo, two
processes on localhost): `torch.compile(ddp_model, backend="polyblocks")`
trains a few SGD steps with the losses, gradients and parameters of eager
DDP. The per-rank checks are in ddp_worker.py; here, that both ranks passed
them and that the engine compiled every graph (no split, no fallback)."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time

import pytest

torch = pytest.importorskip("torch")
dist = pytest.importorskip("torch.distributed")

if not (dist.is_available() and dist.is_gloo_available()):
    pytest.skip("torch.distributed with gloo is not available", allow_module_level=True)

WORKER = pathlib.Path(__file__).with_name("ddp_worker.py")
WORLD = 2
# The two ranks take ~30 s on 2 cores (mostly the engine's compiles of
# 4 graphs); past this one is taken to hang (a rank that died leaves the
# other waiting in a collective until gloo's own 120 s timeout).
TIMEOUT = 240


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run_ranks(tmp_path: pathlib.Path, port: int) -> list[tuple[int, str]]:
    env = {k: v for k, v in os.environ.items() if k not in ("POLYBLOCKS_DEBUG",)}
    env.update(
        POLYBLOCKS_CACHE_DIR=str(tmp_path / "cache"),
        OMP_NUM_THREADS="1",
        MASTER_ADDR="127.0.0.1",
        MASTER_PORT=str(port),
        GLOO_SOCKET_IFNAME="lo",  # the loopback device, whatever the host name resolves to
    )
    logs = [tmp_path / f"rank-{rank}-port-{port}.log" for rank in range(WORLD)]
    processes = []
    # Output to files, not pipes: an unread pipe could fill and stall a rank.
    for rank, log in enumerate(logs):
        with open(log, "w") as out:
            processes.append(
                subprocess.Popen(
                    [sys.executable, str(WORKER), str(rank), str(WORLD), str(port)],
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env=env,
                    start_new_session=True,  # its own process group: killed with its children
                )
            )
    started = time.monotonic()
    try:
        for process in processes:
            try:
                process.wait(timeout=max(TIMEOUT - (time.monotonic() - started), 1))
            except subprocess.TimeoutExpired:
                tails = "\n".join(f"--- rank {r}:\n{log.read_text()[-3000:]}" for r, log in enumerate(logs))
                pytest.fail(f"a rank ran over {TIMEOUT} s (hang?):\n{tails}")
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    return [(process.returncode, log.read_text()) for process, log in zip(processes, logs)]


def test_compiled_model_in_ddp_trains_like_eager_ddp(tmp_path):
    for attempt in range(3):
        outcomes = _run_ranks(tmp_path, _free_port())
        # The port was free when picked; another program may have taken it
        # before rank 0 bound it: pick another.
        if not any(code != 0 and "Address already in use" in output for code, output in outcomes):
            break
    results = []
    for rank, (code, output) in enumerate(outcomes):
        lines = [line for line in output.splitlines() if line.startswith("RESULT ")]
        others = "\n".join(f"--- rank {r}:\n{o[-4000:]}" for r, (_, o) in enumerate(outcomes) if r != rank)
        assert code == 0 and lines, f"rank {rank} failed (exit {code}):\n{output[-8000:]}\n{others}"
        results.append(json.loads(lines[-1][len("RESULT ") :]))

    for rank, result in enumerate(results):
        assert result["rank"] == rank
        context = f"rank {rank}: {result}"
        assert not result["splits"], "graphs not compiled whole by the engine:\n" + "\n".join(result["splits"])
        graphs = result["graphs"]
        forward, backward = graphs.count("forward"), graphs.count("backward")
        # DDPOptimizer cut the model at DDP's bucket boundaries: several
        # pieces, each one a compiled forward and a compiled backward.
        assert forward >= 2 and backward == forward and len(graphs) == forward + backward, context
        # The three Linear layers are in the compiled forward graphs; their
        # backward is two products each but for the first layer's input
        # gradient, which the data does not need.
        assert result["matmuls"]["forward"] == 3 and result["matmuls"]["backward"] == 5, context
        # Each step ran every compiled graph once, none more (no piece split
        # into several engine calls), in the forward and in the backward.
        assert result["forward_calls"] == [forward] * 3 and result["backward_calls"] == [backward] * 3, context
        assert len(result["losses"]) == 3
    # The ranks trained on their own data (gradients equal only through
    # DDP's all-reduce, which the workers checked).
    assert results[0]["losses"] != results[1]["losses"]
    # Both ranks compiled the same graphs into the one cache.
    entries = [p for p in (tmp_path / "cache").iterdir() if p.is_dir()]
    assert len(entries) == len(results[0]["graphs"]), sorted(p.name for p in entries)


def test_backward_graph_with_none_gradients_compiles_whole(tmp_path, monkeypatch):
    """AOTAutograd's backward graph returns None as the gradient of the
    data (which needs none): the front compiles the graph's tensor outputs
    whole, with the fallback off, and puts the Nones back (it used to
    reject the graph: "the graph returns non-tensor values", then split it
    with the fallback on, or fail with it off)."""
    from polyblocks.torch_polyblocks_compiler import make_backend

    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path / "cache"))
    torch._dynamo.reset()
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    compiled = torch.compile(model, backend=make_backend({"fallback": False}))
    x = torch.randn(5, 16)
    compiled(x).square().sum().backward()
    ours = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    model(x).square().sum().backward()
    for got, want in zip(ours, (p.grad for p in model.parameters())):
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-5)
    assert x.grad is None
    torch._dynamo.reset()
