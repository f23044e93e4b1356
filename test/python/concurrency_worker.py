"""One process of test_concurrency.py: THREADS threads compiling with
`polyblocks_jit_torch` into the shared $POLYBLOCKS_CACHE_DIR at once.

Usage: concurrency_worker.py PROCESS_INDEX PROCESSES SYNC_DIR
    Waits until all PROCESSES have imported torch (files in SYNC_DIR), then
    runs the threads; prints one line `RESULT {json}`.
Usage: concurrency_worker.py --one SCALE
    Compiles and checks `unique_program(SCALE)` once (the crash test).

Programs (T = thread, P = process):
- `shared_fn`, `softmax_fn`: one compiled object for all threads of the
  process, one cache key in all processes; `shared_fn` is called with two
  shapes (the second takes Dynamo's symbolic-shape path, `_Specializing`).
- `per_thread_program(T)`, with two shapes: the same 16 keys in every
  process.
- `unique_program(1 + P * THREADS + T)`: a key no one else compiles.
Each thread starts at a barrier, calls each program CALLS times, and
compares with eager PyTorch; every call must have run compiled code
(counted in `runtime.Function.call_pointers`), not fallen back to eager.
The result lists the keys this process compiled (each key must be
compiled once in all) and whether PyTorch's MHA fast-path flag, which the
front turns off around calls, was left as it was.
"""

from __future__ import annotations

import json
import pathlib
import sys
import threading
import time
import traceback
import warnings

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))

import torch  # noqa: E402

from polyblocks import cache, polyblocks_jit_torch, runtime  # noqa: E402

# A fallback to PyTorch would make "compiled == eager" pass without
# compiling: as in pytest.ini, a polyblocks warning is an error.
warnings.filterwarnings("error", "polyblocks", UserWarning)

THREADS = 8
CALLS = 3
OPTIONS = {"target": "cpu"}

_counts = threading.local()
_real_call_pointers = runtime.Function.call_pointers


def _counting_call_pointers(self, pointers):
    _counts.n = getattr(_counts, "n", 0) + 1
    return _real_call_pointers(self, pointers)


runtime.Function.call_pointers = _counting_call_pointers

_builds = []  # keys this process compiled (cache misses)
_real_lookup_or_build = cache.lookup_or_build


def _counting_lookup_or_build(cache_key, build, use_cache=True):
    folder, hit = _real_lookup_or_build(cache_key, build, use_cache)
    if not hit:
        _builds.append(cache_key)
    return folder, hit


cache.lookup_or_build = _counting_lookup_or_build


def shared_program(x):
    return torch.relu(x * 2.0 + 1.0) - x.sum(dim=-1, keepdim=True)


def softmax_rows(x):
    return torch.softmax(x * 0.5, dim=-1)


def _define(source: str):
    """A function of its own (its own code object: TorchDynamo keeps its
    compiled graphs per code object, and closures of one `def` share one)."""
    namespace = {"torch": torch}
    exec(source, namespace)  # noqa: S102 - test programs
    return namespace["program"]


def per_thread_program(thread: int):
    return _define(f"def program(x):\n    return torch.tanh(x) * x.mean(dim=0, keepdim=True) + {thread}.0\n")


def unique_program(scale: float):
    return _define(f"def program(x, y):\n    return x * {scale!r} + torch.sigmoid(y)\n")


shared_fn = polyblocks_jit_torch(compile_options=OPTIONS)(shared_program)
softmax_fn = polyblocks_jit_torch(compile_options=OPTIONS)(softmax_rows)


def work(process: int, thread: int, barrier: threading.Barrier, errors: list, counts: dict):
    try:
        per_thread_eager = per_thread_program(thread)
        per_thread_fn = polyblocks_jit_torch(compile_options=OPTIONS)(per_thread_eager)
        unique_eager = unique_program(1.0 + process * THREADS + thread)
        unique_fn = polyblocks_jit_torch(compile_options=OPTIONS)(unique_eager)
        generator = torch.Generator().manual_seed(process * 100 + thread)

        def rand(*shape):
            return torch.randn(*shape, generator=generator)

        cases = [
            (shared_fn, shared_program, lambda: (rand(6, 16),)),
            (softmax_fn, softmax_rows, lambda: (rand(5, 33),)),
            (per_thread_fn, per_thread_eager, lambda: (rand(4, 8 + thread),)),
            (unique_fn, unique_eager, lambda: (rand(3, 7), rand(3, 7))),
            # Second shapes: Dynamo's symbolic-shape graphs, which the front
            # compiles per shape at call time, outside Dynamo's compile lock.
            (shared_fn, shared_program, lambda: (rand(9, 16),)),
            (per_thread_fn, per_thread_eager, lambda: (rand(5, 8 + thread),)),
        ]
        barrier.wait(timeout=120)
        expected_calls = 0
        with torch.no_grad():
            for _ in range(CALLS):
                for compiled, eager, make_inputs in cases:
                    inputs = make_inputs()
                    torch.testing.assert_close(compiled(*inputs), eager(*inputs), rtol=1e-4, atol=1e-5)
                    expected_calls += 1
        counts[thread] = (getattr(_counts, "n", 0), expected_calls)
    except BaseException:  # noqa: BLE001 - reported to the test
        errors.append(f"process {process} thread {thread}:\n{traceback.format_exc()}")


def wait_for_all(sync_dir: pathlib.Path, process: int, processes: int):
    """Every process starts its threads at about the same time (after the
    seconds each one spends importing torch)."""
    (sync_dir / f"ready-{process}").write_text("")
    deadline = time.monotonic() + 120
    while len(list(sync_dir.glob("ready-*"))) < processes:
        if time.monotonic() > deadline:
            raise TimeoutError("the other processes never got ready")
        time.sleep(0.02)


def main_threads(process: int, processes: int, sync_dir: pathlib.Path):
    wait_for_all(sync_dir, process, processes)
    started = time.monotonic()
    errors, counts = [], {}
    barrier = threading.Barrier(THREADS)
    threads = [threading.Thread(target=work, args=(process, t, barrier, errors, counts)) for t in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for thread, (ran, expected) in sorted(counts.items()):
        if ran < expected:
            errors.append(f"process {process} thread {thread}: {ran} compiled calls for {expected} calls (eager fallback?)")
    # The front turns PyTorch's fused attention fast path off around calls
    # (a process-wide flag): concurrent calls must leave it as it was.
    if not torch.backends.mha.get_fastpath_enabled():
        errors.append(f"process {process}: the MHA fast path was left disabled")
    result = {
        "process": process,
        "errors": errors,
        "seconds": time.monotonic() - started,
        "threads_done": len(counts),
        "builds": _builds,
    }
    print("RESULT " + json.dumps(result), flush=True)


def main_one(scale: float):
    """The program of the crash test, compiled and checked once."""
    eager = unique_program(scale)
    compiled = polyblocks_jit_torch(compile_options=OPTIONS)(eager)
    x, y = torch.randn(3, 7), torch.randn(3, 7)
    print("COMPILING", flush=True)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x, y), eager(x, y), rtol=1e-4, atol=1e-5)
    assert getattr(_counts, "n", 0) == 1, "the compiled code did not run"
    print("OK", flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "--one":
        main_one(float(sys.argv[2]))
    else:
        main_threads(int(sys.argv[1]), int(sys.argv[2]), pathlib.Path(sys.argv[3]))
