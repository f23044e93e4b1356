r"""Fuzz repro: program 0:279 (MISMATCH: wrong values).

Found by test/fuzz/run_fuzz.py --seed 0 --start 279 --programs 1.
Run: .venv/bin/python THIS_FILE (exit status 1: compiled differs from eager).

output 1 (torch.float32[31]): 18 of 31 elements differ; at [1] eager -4.0, compiled -1.3958989381790161
"""

import os
import sys
import tempfile

import torch

COMPILE_OPTIONS = {'target': 'cpu', 'fallback': False}
RTOL, ATOL = 0.0001, 1e-05


def make_inputs():
    x0 = (torch.rand([8, 31], generator=torch.Generator().manual_seed(318424554), dtype=torch.float64) * 4 - 2).to(torch.float32)
    x1 = (torch.rand([2, 31], generator=torch.Generator().manual_seed(2084566278), dtype=torch.float64) * 4 - 2).to(torch.float32)
    x2 = torch.randint(0, 2, [2, 31], generator=torch.Generator().manual_seed(298821222)).bool()
    return [x0, x1, x2]


def f(x0, x1, x2):
    v0 = x0.to(torch.float64)
    v1 = torch.cat([x0, x1], dim=0)
    v2 = x1 / 2
    v3 = torch.sqrt(v2.abs() + 1)
    v4 = v3.masked_fill_(x2, 4)
    v5 = v0.amin(dim=0, keepdim=False)
    v6 = torch.max(v4, 0, keepdim=False).values
    v7 = -v6
    v8 = v0.select(0, -6)
    v9 = v8.squeeze(0)
    v10 = v1.mean(dim=-2, keepdim=True)
    return v5, v7, v9, v10


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
