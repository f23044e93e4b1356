"""Why `AtenInstanceNormModuleFp16_basic` is a MISMATCH against eager:
compares eager PyTorch and polyblocks with a float64 reference of the same
algorithm (statistics computed exactly, then rounded to float16 as
PyTorch's batch-norm kernel rounds them), and shows which summation
reproduces eager's rounded `rstd`.

    .venv/bin/python test/e2e/instance_norm_fp16_check.py [--elements N]

Takes about a minute at the suite's 8,388,608 elements per channel.
"""

import argparse
import pathlib
import sys

import numpy as np
import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))
from polyblocks import polyblocks_jit_torch  # noqa: E402


def instance_norm(x, w, b):
    return torch.ops.aten.instance_norm(x, w, b, None, None, True, 0.0, 1e-05, False)


def differing(a, g):
    return int((~torch.isclose(a.float(), g.float(), rtol=1e-3, atol=1e-7)).sum())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--elements", type=int, default=8388608)
    n = parser.parse_args().elements
    torch.manual_seed(0)
    x = torch.rand(1, 32, n).to(torch.float16)
    w, b = torch.rand(32).to(torch.float16), torch.rand(32).to(torch.float16)
    eager = instance_norm(x, w, b)
    ours = polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})(instance_norm)(x, w, b)

    xd = x.double()
    mean = xd.mean(-1, keepdim=True)
    rstd = (((xd - mean) ** 2).mean(-1, keepdim=True) + 1e-5).rsqrt()
    channel = (1, -1, 1)
    exact = (xd - mean.half().double()) * rstd.half().double() * w.double().view(channel) + b.double().view(channel)
    exact = exact.half()
    print(f"elements differing, {n} per channel: eager vs float64 reference {differing(eager, exact)}, "
          f"polyblocks vs float64 reference {differing(ours, exact)}, polyblocks vs eager {differing(ours, eager)}")

    # Eager's rstd, from its batch-norm kernel, against sums of the squared
    # deviations in float32 run sequentially in `lanes` interleaved lanes.
    _, _, eager_rstd = torch.ops.aten.native_batch_norm(x, None, None, None, None, True, 0.0, 1e-5)
    deviations = (x[0].float() - mean[0].float()).numpy()
    squares = deviations * deviations
    for lanes in (1, 8, 16, 0):
        if lanes:
            total = np.cumsum(squares.reshape(32, -1, lanes), axis=1, dtype=np.float32)[:, -1, :].sum(-1, dtype=np.float32)
            label = f"{lanes} sequential float32 lanes"
        else:
            total = squares.astype(np.float64).sum(-1)
            label = "float64"
        rstd_f16 = (torch.tensor(total / n).double() + 1e-5).rsqrt().half()
        print(f"channels whose float16 rstd differs from eager's, variance summed in {label}: "
              f"{int((rstd_f16 != eager_rstd.half()).sum())} of 32")


if __name__ == "__main__":
    main()
