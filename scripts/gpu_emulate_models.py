"""Whole models of bench/models_bench.py compiled for a GPU target and run
in emulation (the mapped IR on the CPU), each output compared with eager
PyTorch: a check of every GPU mapping decision on real networks, on a
machine without a GPU (slow: minutes; not part of the test command).

    .venv/bin/python scripts/gpu_emulate_models.py nvgpu resnet18 bert-base ...
    .venv/bin/python scripts/gpu_emulate_models.py amdgpu resnet18

Prints each model's largest error relative to the output's largest
magnitude; exits nonzero if any model fails or differs by more than 1e-4."""

import pathlib
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "python"))

import torch  # noqa: E402
from models_bench import MODELS  # noqa: E402

from polyblocks import polyblocks_jit_torch  # noqa: E402


def first(output):
    return output if isinstance(output, torch.Tensor) else output[0]


def main(target: str, names: list[str]) -> int:
    torch.set_num_threads(2)
    failures = 0
    for name in names:
        model, args = MODELS[name](1)
        started = time.time()
        try:
            options = {"target": target, "emulate": True, "fallback": False}
            compiled = polyblocks_jit_torch(compile_options=options)(model)
            with torch.no_grad():
                got, expected = first(compiled(*args)), first(model(*args))
            error = ((got - expected).abs().max() / expected.abs().max().clamp(min=1)).item()
            ok = error <= 1e-4
            failures += not ok
            print(f"{name}: {'ok' if ok else 'WRONG'}, relative error {error:.2e} ({time.time() - started:.0f} s)", flush=True)
        except Exception as error:  # noqa: BLE001 - every model is reported
            failures += 1
            print(f"{name}: FAILED {type(error).__name__}: {str(error)[:400]}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("nvgpu", "amdgpu") or any(n not in MODELS for n in sys.argv[2:]):
        print(__doc__)
        print("models:", ", ".join(MODELS))
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
