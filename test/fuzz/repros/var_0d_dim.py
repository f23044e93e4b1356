"""Tensor.var (and std) of a 0-d tensor with dim=0 fails with an IndexError
in the PyTorch front (ENGINE_ERROR).

Found by the fuzzer: seed 0, programs 1012 and 2340. Eager accepts dim 0 (or -1) on a
0-d tensor and returns a 0-d result (0.0 with correction=0, nan with
correction=1). The front's decomposition
(python/polyblocks/torch_decompositions.py, var_mean_correction) maps the
dims with `d % max(x.dim(), 1)` and then reads `x.shape[d]`, which does
not exist for a 0-d tensor: "IndexError: tuple index out of range" while
tracing, so the program cannot be compiled at all.

Status: fixed by commit 47e150d (0-d var decomposed); kept as a
regression check.

Run: .venv/bin/python test/fuzz/repros/var_0d_dim.py
(exit status 1 if the bug is back).
"""

import os
import sys
import tempfile

os.environ.setdefault("POLYBLOCKS_CACHE_DIR", tempfile.mkdtemp(prefix="fuzz-repro-"))

import torch  # noqa: E402

import polyblocks  # noqa: E402


def f(x):
    return x.var(dim=0, keepdim=True, correction=0)


x = torch.tensor(1.25)
print("eager:", f(x))
with torch.no_grad():
    try:
        actual = polyblocks.polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})(f)(x)
    except Exception as error:  # noqa: BLE001 - the bug being shown
        print(f"compiled: {type(error).__name__}: {str(error).splitlines()[0]}")
        sys.exit(1)
print("compiled:", actual)
sys.exit(0 if torch.equal(actual, f(x)) else 1)
