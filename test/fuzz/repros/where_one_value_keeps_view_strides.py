r"""Fuzz repro: program 5:164 (MISMATCH: wrong values).

Found by test/fuzz/run_fuzz.py --seed 5 --start 164 --programs 1.
Run: .venv/bin/python THIS_FILE (exit status 1: compiled differs from eager).

output 2 (torch.float64[5, 2, 31]): 29 of 310 elements differ; at [2, 1, 0] eager -2.453125, compiled -1.640625
"""

import os
import sys
import tempfile

import torch

COMPILE_OPTIONS = {'target': 'cpu', 'fallback': False}
RTOL, ATOL = 1e-07, 1e-09


def make_inputs():
    x0 = (torch.randint(-16, 17, [2, 3, 5], generator=torch.Generator().manual_seed(529328401)) / 8).to(torch.float64)
    x1 = torch.randint(0, 2, [5, 2, 3], generator=torch.Generator().manual_seed(818653281)).bool()
    x2 = (torch.randint(-16, 17, [], generator=torch.Generator().manual_seed(1429979067)) / 8).to(torch.float64)
    x3 = (torch.randint(-16, 17, [5, 3, 31], generator=torch.Generator().manual_seed(391138691)) / 8).to(torch.float64)
    return [x0, x1, x2, x3]


def f(x0, x1, x2, x3):
    v0 = x0.transpose(0, 2)
    v1 = torch.movedim(v0, 2, 1)
    v2 = torch.abs(x0)
    v3 = torch.where(x1, v1, v1)
    v4 = v3.reshape(-1)
    v5 = v4.select(0, 17)
    v6 = v5.copy_(x2)
    v7 = torch.bmm(v3, x3)
    v8 = v7.to(torch.float64)
    return v2, v6, v8


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
