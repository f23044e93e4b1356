"""Torch IR to linalg-on-tensors, in a worker process.

torch-mlir imports an FX graph into its Torch dialect in the user's process
(that needs the live `torch` objects), but its lowering to linalg runs
MLIR passes that can crash: some conversion patterns emit an error and go
on with a null value (torch-mlir's own TODO #3506; `torch.mm` of two int8
matrices is one), and the process dies with SIGSEGV. A compiler must never
take its user's process down, so the lowering runs here: a long-lived
worker (`python -m polyblocks.torch_lowering`, which loads torch-mlir's
MLIR bindings but not torch) receives the Torch IR as text, runs the same
two pipelines as `torch_mlir.fx.stateless_fx_import`, and sends back the
linalg text or the diagnostics. If it dies, the graph gets a `CompileError`
quoting what it printed (the failing op and its source line), and the next
graph starts a fresh worker; one that takes longer than 300 s is stopped
the same way. A worker costs ~0.3 s to start, once per
Python process.

Messages in both directions: an 8-byte little-endian length, then UTF-8
text; requests start with `locations\\n` (keep source locations) or `-\\n`,
replies with `ok\\n` or `error\\n`.
"""

from __future__ import annotations

import atexit
import os
import queue
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading

from .engine import CompileError

# The folder holding the `polyblocks` package, for the worker's imports.
_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What `torch_mlir.fx.stateless_fx_import(..., output_type="linalg-on-tensors")`
# runs after importing (fx.py `_module_lowering`, compiler_utils.py
# `lower_mlir_module`).
PIPELINES = (
    (
        "Lowering TorchFX IR -> Torch Backend IR",
        "builtin.module(func.func(torch-match-quantized-custom-ops), "
        "torchdynamo-export-to-torch-backend-pipeline{ extra-library=})",
    ),
    (
        "Lowering Torch Backend IR -> Linalg-on-Tensors Backend IR",
        "builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline{allow-non-finites=True})",
    ),
)


def _send(stream, text: str) -> None:
    data = text.encode()
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def _receive(stream) -> str | None:
    """The next message, or None at end of stream."""
    header = stream.read(8)
    if len(header) < 8:
        return None
    (length,) = struct.unpack("<Q", header)
    data = stream.read(length)
    return data.decode() if len(data) == length else None


_PARENT_VARIABLE = "POLYBLOCKS_LOWERING_PARENT"
_spawn_requests: queue.SimpleQueue = queue.SimpleQueue()
_spawner_lock = threading.Lock()
_spawner: threading.Thread | None = None


def _spawner_loop() -> None:
    while True:
        make, box, done = _spawn_requests.get()
        try:
            box.append(make())
        except BaseException as error:  # noqa: BLE001 - handed to the caller
            box.append(error)
        done.set()


def _spawn(make):
    """`make()` run on one daemon thread that lives as long as the process:
    a worker's PR_SET_PDEATHSIG fires when the thread that started it ends,
    and fronts may compile from short-lived threads."""
    global _spawner
    with _spawner_lock:
        if _spawner is None:
            _spawner = threading.Thread(target=_spawner_loop, daemon=True, name="polyblocks-lowering-spawner")
            _spawner.start()
    box: list = []
    done = threading.Event()
    _spawn_requests.put((make, box, done))
    done.wait()
    if isinstance(box[0], BaseException):
        raise box[0]
    return box[0]


class _Worker:
    """One worker process; `lower` is serialized by a lock."""

    def __init__(self):
        self._log = tempfile.TemporaryFile()
        path = os.pathsep.join(filter(None, [_PACKAGE_ROOT, os.environ.get("PYTHONPATH")]))
        self._process = _spawn(
            lambda: subprocess.Popen(
                [sys.executable, "-m", "polyblocks.torch_lowering"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
                env={**os.environ, "PYTHONPATH": path, _PARENT_VARIABLE: str(os.getpid())},
            )
        )

    def lower(self, torch_ir: str, keep_locations: bool = False) -> str:
        # What the worker prints from here on is about this graph.
        self._log_start = os.fstat(self._log.fileno()).st_size
        try:
            _send(self._process.stdin, ("locations" if keep_locations else "-") + "\n" + torch_ir)
            ready, _, _ = select.select([self._process.stdout], [], [], _timeout_seconds())
            if not ready:
                self._process.kill()
                self._process.wait()
                raise CompileError(
                    f"torch-mlir did not finish lowering the graph to linalg in {_timeout_seconds():g} s "
                    "(stopped; POLYBLOCKS_LOWERING_TIMEOUT sets the limit)"
                )
            reply = _receive(self._process.stdout)
        except (BrokenPipeError, OSError):
            reply = None
        if reply is None:
            raise CompileError(self._crash_message())
        status, _, body = reply.partition("\n")
        if status != "ok":
            raise CompileError(f"torch-mlir could not lower the graph to linalg:\n{body}")
        return body

    def _crash_message(self) -> str:
        code = self._process.wait()
        name = signal.Signals(-code).name if code < 0 and -code in signal.valid_signals() else f"exit status {code}"
        self._log.seek(getattr(self, "_log_start", 0))
        printed = self._log.read().decode(errors="replace").strip()
        return (
            f"torch-mlir crashed ({name}) lowering the graph to linalg; an operator it cannot lower "
            f"(the error before the crash names it):\n{printed[-4000:]}"
        )

    def alive(self) -> bool:
        return self._process.poll() is None

    def close(self) -> None:
        """Ends the worker: closing its input makes it leave its loop."""
        for stream in (self._process.stdin, self._process.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._log.close()


def _timeout_seconds() -> float:
    """How long one lowering may take: torch-mlir loops forever on some
    graphs (a softmax of a 0-d tensor did), and a call must not hang."""
    return float(os.environ.get("POLYBLOCKS_LOWERING_TIMEOUT", "300"))


_worker: _Worker | None = None
_lock = threading.Lock()


@atexit.register
def _close_worker() -> None:
    global _worker
    with _lock:
        if _worker is not None:
            _worker.close()
            _worker = None


def lower(torch_ir: str, keep_locations: bool = False) -> str:
    """linalg-on-tensors text for the Torch IR text `torch_ir` (torch-mlir's
    raw FX import), with its source locations if `keep_locations`;
    `CompileError` if torch-mlir fails or crashes."""
    global _worker
    with _lock:
        if _worker is None or not _worker.alive():
            _worker = _Worker()
        worker = _worker
        try:
            return worker.lower(torch_ir, keep_locations)
        finally:
            if not worker.alive():
                _worker = None


def _ops(module):
    """Every op of `module`'s functions, outermost first."""
    pending = [module.operation]
    while pending:
        op = pending.pop()
        yield op
        for region in op.regions:
            for block in region.blocks:
                pending.extend(block.operations)


def _serve() -> None:
    """The worker's loop: Torch IR text in, linalg text (or diagnostics) out."""
    from torch_mlir import ir
    from torch_mlir.dialects import torch as torch_dialect
    from torch_mlir.passmanager import PassManager

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while (message := _receive(stdin)) is not None:
        flag, _, text = message.partition("\n")
        diagnostics: list[str] = []

        def note(diagnostic, diagnostics=diagnostics):
            message = f"{diagnostic.location}: {diagnostic.message}"
            diagnostics.append(message)
            print(message, file=sys.stderr, flush=True)  # read by the parent if this process dies
            return True

        with ir.Context() as context:
            torch_dialect.register_dialect(context)
            context.emit_error_diagnostics = True
            context.attach_diagnostic_handler(note)
            try:
                module = ir.Module.parse(text)
                for description, pipeline in PIPELINES:
                    try:
                        PassManager.parse(pipeline).run(module.operation)
                    except Exception as error:  # noqa: BLE001 - reported to the parent
                        raise RuntimeError(f"{description} failed: {error}") from None
                # The engine parses ops of dialects it does not register
                # (tm_tensor: scatter, scan, sort, topk) only in generic form.
                generic = any(op.operation.name.startswith("tm_tensor.") for op in _ops(module))
                _send(stdout, "ok\n" + module.operation.get_asm(print_generic_op_form=generic, enable_debug_info=flag == "locations"))
            except Exception as error:  # noqa: BLE001 - reported to the parent
                _send(stdout, "error\n" + "\n".join([*diagnostics, str(error)]))


def _exit_with_parent() -> None:
    """Has the kernel end this worker when the thread that started it is
    gone (Linux): a lowering that never finishes, or grows without bound
    (one reached 23 GB), would otherwise outlive a parent killed mid-call,
    since the worker notices its closed input only between graphs. The
    parent starts workers from one thread that lives as long as it does
    (`_spawn`). A parent already gone before this ran: exit now."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if str(os.getppid()) != os.environ.get(_PARENT_VARIABLE):
        os._exit(1)


if __name__ == "__main__":
    _exit_with_parent()
    _serve()
