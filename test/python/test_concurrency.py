"""Concurrency (issue 13 item 7): processes and threads compiling the same and
different programs into one cache directory at once.

Every result must be correct and compiled (no silent eager fallback), every
cache entry complete and loadable, nothing half-written left behind, and
nothing may deadlock: each process runs under a timeout. The programs and
the per-process checks are in concurrency_worker.py.
"""

import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

pytest.importorskip("torch")

from polyblocks import engine, runtime  # noqa: E402
from polyblocks.runtime import Library  # noqa: E402

WORKER = pathlib.Path(__file__).with_name("concurrency_worker.py")
PROCESSES = 4
# Generous: the 4 processes take ~30-60 s on 2 busy cores; past this a
# process is taken to be deadlocked.
TIMEOUT = 400


def _env(cache_dir, **extra):
    env = {k: v for k, v in os.environ.items() if k not in ("POLYBLOCKS_DEBUG", "POLYBLOCKS_COMPILE")}
    env.update(POLYBLOCKS_CACHE_DIR=str(cache_dir), **extra)
    return env


def _check_cache(cache_dir: pathlib.Path, threads: int = 1) -> int:
    """Every entry complete (built into a temporary folder, renamed into
    place with `done`), loadable and callable, by `threads` threads at once
    (ctypes loading one path in several threads); no partial folder or
    temporary file left. Returns the number of entries."""
    entries = []
    for path in sorted(cache_dir.iterdir()):
        if path.suffix == ".lock":
            assert path.is_file() and (cache_dir / path.stem).is_dir(), f"lock without an entry: {path.name}"
            continue
        assert not path.name.startswith("."), f"partial build left behind: {path.name} {sorted(os.listdir(path))}"
        assert re.fullmatch(r"[0-9a-f]{32}", path.name) and path.is_dir(), f"unexpected {path.name}"
        files = {p.name for p in path.iterdir()}
        assert files == {"done", "module.mlir", "libmodule.so", "libmodule.json"}, f"{path.name}: {sorted(files)}"
        entries.append(path)

    def load_and_call(_):
        for path in entries:
            function = Library(path / "libmodule.so")["graph"]
            function(*[0 if spec["by_value"] else np.zeros(spec["shape"], runtime._DTYPES[spec["dtype"]]) for spec in function.inputs])

    _in_threads(threads, load_and_call)
    return len(entries)


def test_threads_and_processes_share_one_cache(tmp_path):
    cache_dir, sync_dir = tmp_path / "cache", tmp_path / "sync"
    sync_dir.mkdir()
    started = time.monotonic()
    # Output to files, not pipes: a pipe read after another process's
    # could fill up and stall its writer.
    logs = [tmp_path / f"process-{index}.log" for index in range(PROCESSES)]
    processes = []
    for index, log in enumerate(logs):
        with open(log, "w") as out:
            processes.append(
                subprocess.Popen(
                    [sys.executable, str(WORKER), str(index), str(PROCESSES), str(sync_dir)],
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env=_env(cache_dir),
                    start_new_session=True,  # its own process group: killed with its children
                )
            )
    try:
        for process in processes:
            try:
                process.wait(timeout=max(TIMEOUT - (time.monotonic() - started), 1))
            except subprocess.TimeoutExpired:
                tails = "\n".join(log.read_text()[-2000:] for log in logs)
                pytest.fail(f"a process ran over {TIMEOUT} s (deadlock?):\n{tails}")
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    outputs, results = [log.read_text() for log in logs], []
    for process, output in zip(processes, outputs):
        lines = [line for line in output.splitlines() if line.startswith("RESULT ")]
        assert process.returncode == 0 and lines, f"worker failed (exit {process.returncode}):\n{output[-6000:]}"
        results.append(json.loads(lines[-1][len("RESULT ") :]))
    errors = [error for result in results for error in result["errors"]]
    assert not errors, "\n".join(errors[:10]) + "\n" + "\n".join(o[-3000:] for o in outputs)
    assert all(result["threads_done"] == 8 for result in results)
    # Each key compiled once, by one thread of one process.
    builds = [key for result in results for key in result["builds"]]
    assert len(builds) == len(set(builds)), f"keys compiled twice: {sorted(k for k in set(builds) if builds.count(k) > 1)}"
    assert sorted(builds) == sorted(p.name for p in cache_dir.iterdir() if p.suffix != ".lock")
    # Keys: 2 shared programs (+ the second shape of one), 8 per-thread
    # programs in 2 shapes shared by the processes, 32 unique ones.
    assert _check_cache(cache_dir, threads=8) == 3 + 2 * 8 + PROCESSES * 8


def _wait_for(condition, what: str, timeout: float = 120, processes=()):
    deadline = time.monotonic() + timeout
    while not condition():
        for process in processes:
            if process.poll() is not None:
                pytest.fail(f"{what}: a process exited early:\n{process.stdout.read()[-4000:]}")
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting until {what}")
        time.sleep(0.05)


def _blocked_on(lock_file: pathlib.Path) -> bool:
    """Is some process waiting for the flock of `lock_file` (a `->` line of
    /proc/locks names the blocked waiter and the file's inode)?"""
    inode = lock_file.stat().st_ino
    with open("/proc/locks") as locks:
        return any("->" in line and "FLOCK" in line and line.split()[-3].endswith(f":{inode}") for line in locks)


def test_a_build_killed_midway_leaves_the_cache_usable(tmp_path):
    """A process killed (SIGKILL, with its children) while the engine
    compiles key K holds K's lock and has a partial folder: a process
    waiting for that lock gets it, builds K, and nothing of the dead build
    is left."""
    cache_dir = tmp_path / "cache"
    stalled = tmp_path / "stalled"
    # The engine, behind a wrapper that stalls when asked to: both
    # processes use the wrapper, so they compute the same cache key.
    wrapper = tmp_path / "pb-compile"
    wrapper.write_text(
        "#!/bin/sh\n"
        # (Not when the front asks for the option table: only compiles stall.)
        'if [ -n "$PB_TEST_STALL" ] && [ "$1" != "--list-options" ]; then touch "$PB_TEST_STALL"; sleep 300; fi\n'
        f'exec "{engine.engine_binary()}" "$@"\n'
    )
    wrapper.chmod(0o755)

    def start(**extra):
        return subprocess.Popen(
            [sys.executable, str(WORKER), "--one", "0.25"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=_env(cache_dir, POLYBLOCKS_COMPILE=str(wrapper), **extra),
            start_new_session=True,  # its own process group: killed with its children
        )

    doomed = start(PB_TEST_STALL=str(stalled))
    survivor = None
    try:
        _wait_for(stalled.exists, "the first process is in the engine", processes=[doomed])
        (lock_file,) = cache_dir.glob("*.lock")
        assert list(cache_dir.glob(".*-*")), "no partial folder while building"
        survivor = start()
        _wait_for(lambda: _blocked_on(lock_file), "the second process waits for the lock", processes=[survivor])
        os.killpg(doomed.pid, signal.SIGKILL)
        doomed.wait()
        try:
            output, _ = survivor.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            pytest.fail("the second process never finished (a lock held by the dead one?)")
        assert survivor.returncode == 0 and "OK" in output, output[-6000:]
    finally:
        for process in (doomed, survivor):
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    assert _check_cache(cache_dir) == 1


@pytest.fixture
def torch_front(tmp_path, monkeypatch):
    """The PyTorch front in this process, with a private cache; counts the
    calls that ran compiled code."""
    import torch

    from polyblocks import torch_polyblocks_compiler

    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path / "cache"))
    torch._dynamo.reset()
    calls = []
    real = runtime.Function.call_pointers

    def counting(self, pointers):
        calls.append(None)  # list.append: atomic
        return real(self, pointers)

    monkeypatch.setattr(runtime.Function, "call_pointers", counting)
    yield torch, torch_polyblocks_compiler, calls
    torch._dynamo.reset()


def _in_threads(count, work):
    errors = []

    def run(index):
        try:
            work(index)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "deadlock"
    assert not errors, errors


def test_threads_making_the_first_call_at_once_compile_it_once(torch_front):
    """TorchDynamo looks its cache up before taking its compile lock: 8
    threads making the first call at once each compiled and added an
    entry, using up its recompile limit (8), and the next shape ran in
    eager PyTorch."""
    torch, front, calls = torch_front

    def program(x):
        return torch.relu(x) * 3.0 - 1.0

    compiled = front.polyblocks_jit_torch(program)
    barrier = threading.Barrier(8)

    def work(index):
        with torch.no_grad():
            for rows in (4, 5):  # the second shape: Dynamo's symbolic-shape graph
                barrier.wait(timeout=TIMEOUT)
                for _ in range(2):
                    x = torch.randn(rows, 6)
                    torch.testing.assert_close(compiled(x), program(x))

    _in_threads(8, work)
    assert len(calls) == 8 * 2 * 2, "calls ran in eager PyTorch"


def test_overlapping_calls_leave_the_attention_fast_path_flag_alone(torch_front):
    """The front turns PyTorch's (process-wide) MHA fast path off during
    calls; with each call saving and restoring it, A saved on, B saved off,
    A restored on, B restored off: off for good."""
    torch, front, calls = torch_front
    inside = threading.Barrier(2)
    first_returned = threading.Event()
    armed = []

    @torch._dynamo.disable
    def rendezvous():
        if armed:  # both calls inside; the second one returns last
            if inside.wait(timeout=TIMEOUT) == 0:
                first_returned.wait(timeout=TIMEOUT)

    def program(x):
        y = x * 2.0
        rendezvous()
        return y + 1.0

    compiled = front.polyblocks_jit_torch(program)
    x = torch.randn(3, 5)
    torch.testing.assert_close(compiled(x), program(x))  # compiled before the threads
    armed.append(True)
    assert torch.backends.mha.get_fastpath_enabled()

    def work(index):
        torch.testing.assert_close(compiled(x), x * 2.0 + 1.0)
        first_returned.set()

    _in_threads(2, work)
    assert torch.backends.mha.get_fastpath_enabled(), "the fast path was left off"
