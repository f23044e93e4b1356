"""torch.softmax of a 0-d tensor never finishes compiling (TIMEOUT).

Found by the fuzzer: seed 0, programs 1760 and 2309 (softmax of a
log_softmax of a 0-d float64 input; softmax of a 0-d float32 input).
Eager returns tensor(1.). Compiling hangs in the
torch-mlir lowering worker (python/polyblocks/torch_lowering.py: the
Python process waits forever in `_receive` while the worker spins at
100% CPU in the Torch-to-linalg pipeline), so the user's call never
returns: the front has no time limit on that worker. log_softmax of a 0-d
tensor hangs the same way.

Status: fixed by commit 47e150d (0-d softmax/log_softmax decomposed; the
lowering worker is also stopped after 300 s); kept as a regression check.

Run: .venv/bin/python test/fuzz/repros/softmax_0d_hangs.py
(gives up after 60 s, killing the spinning worker, with exit status 1
if the bug is back).
"""

import faulthandler
import os
import signal
import sys
import tempfile
import threading

os.environ.setdefault("POLYBLOCKS_CACHE_DIR", tempfile.mkdtemp(prefix="fuzz-repro-"))

import torch  # noqa: E402

import polyblocks  # noqa: E402


def f(x):
    return torch.softmax(x, -1)


def give_up():
    print("compiled: no result after 60 s; where the caller waits:", flush=True)
    faulthandler.dump_traceback(all_threads=True)
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children") as children:
            for pid in children.read().split():
                os.kill(int(pid), signal.SIGKILL)  # the lowering worker
    os._exit(1)


x = torch.tensor(0.5)
print("eager:", f(x))
timer = threading.Timer(60, give_up)
timer.start()
with torch.no_grad():
    actual = polyblocks.polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})(f)(x)
timer.cancel()
print("compiled:", actual)
sys.exit(0 if torch.equal(actual, f(x)) else 1)
