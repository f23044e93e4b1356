"""Rounding divisions by a broadcast one-element divisor are off by one
where the quotient is an exact integer (MISMATCH).

Found by the fuzzer in its first runs (float16 floor_divide). Eager
computes x / y correctly rounded, so -97.5 // 1.625 is exactly -60; the
compiled code gives -61. The divisor is loop-invariant, and the vectorizer
marks such divisions `arcp` (transforms/src/vectorize.rs,
operand_expr.rs: "multiplied by the reciprocal, within 1 ulp"):
x * (1/y) = -60.0000004 floors to -61. The 1-ulp error is harmless in a
softmax but not before floor/trunc: torch.floor_divide,
torch.div(rounding_mode="trunc") and torch.fmod (which then is off by a
whole divisor: -98.0 fmod 6.125 gives -6.125 instead of -0.0) all differ,
in float16, float32 and float64 (which elements depends on the dtype).
Plain x / y is 1 ulp off in about half of the elements.

Status: fixed by commit 5a54d2e (no arcp for a quotient that is floored,
compared or converted); kept as a regression check.

Run: .venv/bin/python test/fuzz/repros/floor_divide_broadcast_divisor.py
(exit status 1 if the bug is back).
"""

import os
import sys
import tempfile

os.environ.setdefault("POLYBLOCKS_CACHE_DIR", tempfile.mkdtemp(prefix="fuzz-repro-"))

import torch  # noqa: E402

import polyblocks  # noqa: E402

OPERATIONS = {
    "floor_divide": torch.floor_divide,
    "div trunc": lambda x, y: torch.div(x, y, rounding_mode="trunc"),
    "fmod": torch.fmod,
}

failed = False
for name, f in OPERATIONS.items():
    for dtype, divisor in ((torch.float16, 2.75), (torch.float32, 1.625), (torch.float64, 6.125)):
        # Multiples of 1/8: each quotient is an exact integer or far from one.
        x = (torch.arange(-800, 801) / 8).to(dtype)
        y = torch.tensor([divisor], dtype=dtype)
        torch._dynamo.reset()
        compiled = polyblocks.polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})(f)
        with torch.no_grad():
            expected, actual = f(x, y), compiled(x, y)
        wrong = (expected != actual).nonzero().flatten().tolist()
        examples = ", ".join(f"x={x[i].item()}: eager {expected[i].item()}, compiled {actual[i].item()}" for i in wrong[:2])
        print(f"{name} {dtype} by {divisor}: {len(wrong)} of {x.numel()} differ  {examples}")
        failed |= bool(wrong)
print("MISMATCH" if failed else "compiled matches eager")
sys.exit(1 if failed else 0)
