"""torch.roll with a shift that is 0 modulo the size, or whose magnitude
exceeds the size, fails to compile (ENGINE_ERROR) or rolls by the wrong
amount (MISMATCH).

Found by the fuzzer: seed 0, programs 69, 76, 80, 272, 345 and 24 more of
3000 (rolls along dimensions of size 1 or 2 with the fuzzer's
shifts of -3..3). PyTorch takes the shift modulo the size; torch-mlir's
lowering of aten.roll (what the front hands the engine) does not. It
emits concat(x[size - s:], x[:size - s]) with the bounds clamped:
- shift 0, or shift == size: concat(x, <empty slice>), which is right,
  but pb-compile cannot compile a concat whose last operand is empty
  (see concat_empty_last_operand.py): "offset 0 is out-of-bounds: 5 >= 5";
- shift 6 on size 5: the same concat(x, <empty>), i.e. no roll at all
  (wrong, and it fails to compile the same way);
- shift -6 on size 5: concat(<empty>, x), which compiles and returns x
  unrolled (eager rolls by -1).
A decomposition of aten.roll taking shifts modulo the size in
python/polyblocks/torch_decompositions.py would fix the front's part.

Status: fixed in the front by commit 47e150d (shifts taken modulo the
size); the engine's part remains, see concat_empty_last_operand.py.

Run: .venv/bin/python test/fuzz/repros/roll_shift_out_of_range.py
(exit status 1 if the bug is back).
"""

import os
import sys
import tempfile

os.environ.setdefault("POLYBLOCKS_CACHE_DIR", tempfile.mkdtemp(prefix="fuzz-repro-"))

import torch  # noqa: E402

import polyblocks  # noqa: E402

failed = False
x = torch.arange(5.0)
for shift in (0, 5, 6, -6, 2):
    def f(t, shift=shift):
        return torch.roll(t, shift, 0)

    torch._dynamo.reset()
    compiled = polyblocks.polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})(f)
    with torch.no_grad():
        expected = f(x)
        try:
            actual = compiled(x)
        except Exception as error:  # noqa: BLE001 - the bug being shown
            lines = [line.strip() for line in str(error).splitlines() if "error:" in line]
            print(f"shift {shift}: eager {expected.tolist()}, compile error: {lines[-1] if lines else error}")
            failed = True
            continue
    ok = torch.equal(expected, actual)
    print(f"shift {shift}: eager {expected.tolist()}, compiled {actual.tolist()}{'' if ok else '  MISMATCH'}")
    failed |= not ok
sys.exit(1 if failed else 0)
