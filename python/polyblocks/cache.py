"""The on-disk compile cache: one folder per compiled program.

Keyed by the program (its text, or for PyTorch the FX graph and input
specs), the options that affect code, the engine build and the CPU's
features. Entries are written into a temporary folder and renamed into
place (atomic on one file system); a per-key lock file serializes compiles
of the same key across processes and threads, so concurrent users never see
half-written entries and do not compile twice.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import pathlib
import shutil
import tempfile
import threading
from contextlib import contextmanager

from . import engine

_thread_locks: dict[str, threading.Lock] = {}
_thread_locks_guard = threading.Lock()


def cache_dir() -> pathlib.Path:
    root = os.environ.get("POLYBLOCKS_CACHE_DIR")
    return pathlib.Path(root) if root else pathlib.Path.home() / ".cache" / "polyblocks"


def _cpu_features() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return os.uname().machine


def key(*parts: str) -> str:
    """A cache key over `parts`, the engine build and the CPU."""
    digest = hashlib.sha256()
    for part in (*parts, engine.engine_identity(), _cpu_features()):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:32]


@contextmanager
def _locked(entry: pathlib.Path):
    with _thread_locks_guard:
        lock = _thread_locks.setdefault(str(entry), threading.Lock())
    with lock:
        entry.parent.mkdir(parents=True, exist_ok=True)
        with open(entry.with_suffix(".lock"), "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


def lookup_or_build(cache_key: str, build, use_cache: bool = True) -> tuple[pathlib.Path, bool]:
    """The folder of `cache_key`, built by `build(folder)` if absent.

    Returns (folder, hit). With `use_cache` false, builds into a fresh
    temporary folder every time.
    """
    if not use_cache:
        folder = pathlib.Path(tempfile.mkdtemp(prefix="polyblocks-"))
        build(folder)
        return folder, False
    entry = cache_dir() / cache_key
    if (entry / "done").exists():
        return entry, True
    with _locked(entry):
        if (entry / "done").exists():
            return entry, True
        # Folders a build of this key left when its process died (kill -9,
        # OOM) before renaming or removing them: no one else builds this
        # key while we hold its lock, so they are garbage. Without this
        # they stayed forever (found by test_concurrency.py).
        for stale in entry.parent.glob(f".{cache_key}-*"):
            shutil.rmtree(stale, ignore_errors=True)
        partial = pathlib.Path(tempfile.mkdtemp(prefix=f".{cache_key}-", dir=entry.parent))
        try:
            build(partial)
            (partial / "done").write_text("")
            if entry.exists():
                shutil.rmtree(entry)
            os.rename(partial, entry)
        except BaseException:
            shutil.rmtree(partial, ignore_errors=True)
            raise
    return entry, False
