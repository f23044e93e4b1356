r"""Fuzz repro: program 3:134 (MISMATCH: wrong values).

Found by test/fuzz/run_fuzz.py --seed 3 --start 134 --programs 1.
Status: fixed in the front (var/var_mean/std of float16/bfloat16 computed
in float32 and rounded once, as PyTorch's kernel accumulates);
test_half_precision_variance_accumulates_in_float32.

Run: .venv/bin/python THIS_FILE (exit status 1: compiled differs from eager).

output 0 (torch.float16[1, 1]): 1 of 1 elements differ; at [0, 0] eager 384.25, compiled inf
"""

import os
import sys
import tempfile

import torch

COMPILE_OPTIONS = {'target': 'cpu', 'fallback': False}
RTOL, ATOL = 0.0775, 0.0775


def make_inputs():
    x0 = (torch.randint(-16, 17, [31, 7], generator=torch.Generator().manual_seed(120311466)) / 8).to(torch.float16)
    x1 = (torch.randint(-16, 17, [7, 62], generator=torch.Generator().manual_seed(700734861)) / 8).to(torch.float16)[..., ::2]
    return [x0, x1]


def f(x0, x1):
    v0 = x0 @ x1
    v1 = v0 * v0
    v2 = v1.var(dim=(0, 1), keepdim=True, correction=1)
    return v2,


def compare(expected, actual, eager_inputs, compiled_inputs, rtol, atol):
    """None if `actual` (and the inputs after the compiled call) match eager,
    else what differs first."""
    import torch

    if len(actual) != len(expected):
        return f"compiled returned {len(actual)} values, eager {len(expected)}"
    pairs = [(f"output {i}", e, a) for i, (e, a) in enumerate(zip(expected, actual))]
    pairs += [(f"input x{i} after the call", e, a) for i, (e, a) in enumerate(zip(eager_inputs, compiled_inputs))]
    for what, e, a in pairs:
        if not isinstance(a, torch.Tensor):
            return f"{what}: compiled returned {type(a).__name__}"
        if a.dtype != e.dtype or a.shape != e.shape:
            return f"{what}: compiled {a.dtype}{list(a.shape)}, eager {e.dtype}{list(e.shape)}"
        if e.is_floating_point():
            e64, a64 = e.double(), a.double()
            nan = torch.isnan(e64)
            if not torch.equal(nan, torch.isnan(a64)):
                return f"{what}: NaN at other places (eager {int(nan.sum())}, compiled {int(torch.isnan(a64).sum())})"
            values = e64[~nan]
            scale = max(1.0, float(values.abs().max())) if values.numel() else 1.0
            close = (e64 == a64) | ((a64 - e64).abs() <= atol * scale + rtol * e64.abs())
            bad = ~nan & ~close
        else:
            bad = e != a
        if bad.any():
            first = tuple(int(i) for i in bad.nonzero()[0])
            return (
                f"{what} ({e.dtype}{list(e.shape)}): {int(bad.sum())} of {e.numel()} elements differ; "
                f"at {list(first)} eager {e[first].item()!r}, compiled {a[first].item()!r}"
            )
    return None


if __name__ == "__main__":
    os.environ.setdefault("POLYBLOCKS_CACHE_DIR", tempfile.mkdtemp(prefix="fuzz-repro-"))
    import polyblocks

    eager_inputs, compiled_inputs = make_inputs(), make_inputs()
    with torch.no_grad():
        expected = f(*eager_inputs)
        compiled = polyblocks.polyblocks_jit_torch(compile_options=COMPILE_OPTIONS)(f)
        actual = compiled(*compiled_inputs)
    for i, (e, a) in enumerate(zip(expected, actual)):
        print(f"output {i}: eager {e.dtype}{list(e.shape)}\n{e}\ncompiled {a.dtype}{list(a.shape)}\n{a}\n")
    problem = compare(expected, actual, eager_inputs, compiled_inputs, RTOL, ATOL)
    print(problem or "compiled matches eager")
    sys.exit(1 if problem else 0)
