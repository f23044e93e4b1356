"""The on-disk compile cache: one folder per compiled program.

Keyed by the program (its text, or for PyTorch the FX graph and input
specs), the options that affect code, the engine build and the CPU's
features. Entries are written into a temporary folder and renamed into
place (atomic on one file system); a per-key lock file serializes compiles
of the same key across processes and threads, so concurrent users never see
half-written entries and do not compile twice.

Sharing: the folder (`$POLYBLOCKS_CACHE_DIR`, default
`~/.cache/polyblocks`) may be shared by processes and by hosts on a shared
file system: keys cover the engine build and the CPU features, so hosts
only reuse what was compiled for a machine like theirs; renames are atomic
and the per-key locks are `flock`s, which NFSv4 and Lustre honour.

Size: after each new entry, the least recently used entries (a hit
touches its entry) are evicted until the cache is under
`$POLYBLOCKS_CACHE_SIZE` (bytes, or with a K/M/G/T suffix; default 10G;
0: no limit). Entries being compiled or evicted by another process are
skipped. `clear()` empties it; `size()` says how big it is. Evicting or
clearing an entry that a running process has loaded is safe: the library
stays mapped until that process ends.
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

from . import engine, log

_log = log.get("cache")
DEFAULT_SIZE_LIMIT = 10 << 30

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


def size_limit() -> int:
    """`$POLYBLOCKS_CACHE_SIZE` in bytes (0: no limit)."""
    text = os.environ.get("POLYBLOCKS_CACHE_SIZE", "").strip().upper().removesuffix("B")
    if not text:
        return DEFAULT_SIZE_LIMIT
    scale = 1 << (10 * "KMGT".index(text[-1]) + 10) if text[-1] in "KMGT" else 1
    try:
        return int(float(text.rstrip("KMGT")) * scale)
    except ValueError:
        raise ValueError(f"POLYBLOCKS_CACHE_SIZE={os.environ['POLYBLOCKS_CACHE_SIZE']!r}: expected bytes, e.g. 2G") from None


def _entries() -> list[pathlib.Path]:
    root = cache_dir()
    if not root.is_dir():
        return []
    return [p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".") and (p / "done").exists()]


def _entry_size(entry: pathlib.Path) -> int:
    total = 0
    for folder, _, files in os.walk(entry):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                pass
    return total


def size() -> int:
    """Bytes the cache's complete entries take."""
    return sum(_entry_size(e) for e in _entries())


@contextmanager
def _try_locked(entry: pathlib.Path):
    """Yields True holding `entry`'s lock, or False if someone holds it."""
    try:
        handle = open(entry.with_suffix(".lock"), "a")
    except OSError:
        yield False
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _remove(entry: pathlib.Path) -> bool:
    """Removes `entry` unless another process holds its lock. The folder
    is renamed away first, so no reader ever sees it half-deleted."""
    with _try_locked(entry) as locked:
        if not locked or not entry.exists():
            return False
        doomed = entry.parent / f".{entry.name}-evicted-{os.getpid()}-{threading.get_ident()}"
        try:
            os.rename(entry, doomed)
        except OSError:
            return False
    shutil.rmtree(doomed, ignore_errors=True)
    # The (empty) lock file stays: a process waiting on it must lock the
    # same file as one that comes later.
    return True


def clear() -> int:
    """Removes every entry no one is compiling right now; returns how many."""
    removed = sum(_remove(entry) for entry in _entries())
    _log.debug("cleared %d cache entries from %s", removed, cache_dir())
    return removed


def _evict(limit: int, keep: pathlib.Path) -> None:
    """Evicts least recently used entries (never `keep`) until the cache
    takes at most `limit` bytes."""
    if limit <= 0:
        return
    sized = [(e, _entry_size(e)) for e in _entries()]
    total = sum(s for _, s in sized)
    if total <= limit:
        return

    def last_used(item):
        try:
            return (item[0] / "done").stat().st_mtime
        except OSError:
            return 0.0

    for entry, bytes_ in sorted(sized, key=last_used):
        if total <= limit:
            break
        if entry != keep and _remove(entry):
            total -= bytes_
            _log.debug("evicted cache entry %s (%d bytes; limit %d)", entry.name, bytes_, limit)


def _touch(entry: pathlib.Path) -> None:
    """Marks `entry` used now (its `done` file's time orders evictions)."""
    try:
        os.utime(entry / "done")
    except OSError:
        pass


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
        _touch(entry)
        return entry, True
    with _locked(entry):
        if (entry / "done").exists():
            _touch(entry)
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
    _evict(size_limit(), keep=entry)
    return entry, False
