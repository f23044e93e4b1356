"""The spec's blur_x_blur_y, compiled by polyblocks with one line, timed
beside eager PyTorch and torch.compile (the README's main command).

    .venv/bin/python examples/blur_demo.py [HEIGHT WIDTH]
"""

import pathlib
import statistics
import sys
import time

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python"))
from polyblocks import polyblocks_jit_torch  # noqa: E402
from polyblocks.common_utils import validate_outputs  # noqa: E402

height, width = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) == 3 else (2048, 2048)


def blur_x_blur_y(img):
    # A regular image convolution in the X direction and then in the Y direction.
    kernel = torch.tensor([0.0625, 0.25, 0.375, 0.25, 0.0625], device=img.device).float()
    blur_kernel = kernel.view(1, 1, 1, 5)
    img_reshaped = img.view(3, 1, height, width)
    # The output is two short at each end.
    blurx = torch.nn.functional.conv2d(img_reshaped, blur_kernel, stride=1, padding=0)
    blur_kernel = kernel.view(1, 1, 5, 1)
    blury = torch.nn.functional.conv2d(blurx, blur_kernel, stride=1, padding=0)
    return blury.view(3, height - 4, width - 4)


# The one-line annotation, applied at the call site.
blur_polyblocks = polyblocks_jit_torch(compile_options={"target": "cpu"})(blur_x_blur_y)
blur_inductor = torch.compile(blur_x_blur_y)


def measure(fn, img, runs=10):
    start = time.perf_counter()
    out = fn(img)
    first = time.perf_counter() - start
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(img)
        times.append(time.perf_counter() - start)
    return out, first, statistics.median(times)


img = torch.rand(3, height, width)
with torch.no_grad():
    reference, _, eager = measure(blur_x_blur_y, img)
    _, inductor_first, inductor = measure(blur_inductor, img)
    out, polyblocks_first, polyblocks = measure(blur_polyblocks, img)
validate_outputs(out, reference)
print(f"blur_x_blur_y 3x{height}x{width}, median of 10 runs:")
print(f"  PyTorch eager   {eager * 1e3:9.2f} ms")
print(f"  torch.compile   {inductor * 1e3:9.2f} ms   (first call {inductor_first:.1f} s)")
print(f"  polyblocks      {polyblocks * 1e3:9.2f} ms   (first call {polyblocks_first:.1f} s)"
      f"   {eager / polyblocks:.1f}x eager, {inductor / polyblocks:.1f}x torch.compile")
