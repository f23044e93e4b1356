"""Tensor cores on the nvgpu pipeline (`pb-gpu-mma`, issue 18), checked
without a GPU:

- f16 products (matmul with edges on every side, f16 sums onto a bias, a
  batch, an NHWC convolution with its bias and ReLU applied in the
  kernel's epilogue, tiles of 64 and 128) run in the emulation (barrier phases in turn, fragments as
  per-thread buffers) and match numpy in float64;
- their PTX has `wmma.mma.sync` and assembles with ptxas for sm_80 and
  sm_90;
- PyTorch half-precision Linear layers through the front, emulated, match
  eager."""

import numpy as np
import pytest
import torch

import polyblocks
from test_nvgpu import kernels_ptx, ptxas


def _matmul(name, m, k, n, out="f32", fill=True):
    zero = "0.0 : f32" if out == "f32" else "0.0 : f16"
    return f"""
func.func @{name}(%a: tensor<{m}x{k}xf16>, %b: tensor<{k}x{n}xf16>) -> tensor<{m}x{n}x{out}> {{
  %z = arith.constant {zero}
  %e = tensor.empty() : tensor<{m}x{n}x{out}>
  %f = linalg.fill ins(%z : {out}) outs(%e : tensor<{m}x{n}x{out}>) -> tensor<{m}x{n}x{out}>
  %c = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf16>, tensor<{k}x{n}xf16>) outs(%f : tensor<{m}x{n}x{out}>) -> tensor<{m}x{n}x{out}>
  return %c : tensor<{m}x{n}x{out}>
}}"""


BIAS_F16 = """
func.func @bias_f16(%a: tensor<64x48xf16>, %b: tensor<48x96xf16>, %bias: tensor<96xf16>) -> tensor<64x96xf16> {
  %e = tensor.empty() : tensor<64x96xf16>
  %f = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<96xf16>) outs(%e : tensor<64x96xf16>) {
  ^bb0(%x: f16, %o: f16):
    linalg.yield %x : f16
  } -> tensor<64x96xf16>
  %c = linalg.matmul ins(%a, %b : tensor<64x48xf16>, tensor<48x96xf16>) outs(%f : tensor<64x96xf16>) -> tensor<64x96xf16>
  return %c : tensor<64x96xf16>
}"""

BATCH = """
func.func @batch(%a: tensor<3x40x24xf16>, %b: tensor<3x24x50xf16>) -> tensor<3x40x50xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x40x50xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x40x50xf32>) -> tensor<3x40x50xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x40x24xf16>, tensor<3x24x50xf16>) outs(%f : tensor<3x40x50xf32>) -> tensor<3x40x50xf32>
  return %c : tensor<3x40x50xf32>
}"""

CONV = """
func.func @conv(%x: tensor<2x10x10x8xf16>, %w: tensor<3x3x8x20xf16>, %bias: tensor<20xf32>) -> tensor<2x8x8x20xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x20xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x8x8x20xf32>) -> tensor<2x8x8x20xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<2x10x10x8xf16>, tensor<3x3x8x20xf16>) outs(%f : tensor<2x8x8x20xf32>) -> tensor<2x8x8x20xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %bias : tensor<2x8x8x20xf32>, tensor<20xf32>) outs(%e : tensor<2x8x8x20xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<2x8x8x20xf32>
  return %r : tensor<2x8x8x20xf32>
}"""


def _conv_reference(x, w, bias):
    out = sum(np.einsum("nhwc,cf->nhwf", x[:, i : i + 8, j : j + 8, :], w[i, j]) for i in range(3) for j in range(3))
    return np.maximum(out + bias, 0)


# name: (MLIR, input (shape, dtype) list, float64 reference)
WORKLOADS = {
    "edges": (_matmul("edges", 100, 72, 80), [((100, 72), np.float16), ((72, 80), np.float16)], lambda a, b: a @ b),
    "bias_f16": (BIAS_F16, [((64, 48), np.float16), ((48, 96), np.float16), ((96,), np.float16)], lambda a, b, c: a @ b + c),
    "batch": (BATCH, [((3, 40, 24), np.float16), ((3, 24, 50), np.float16)], lambda a, b: a @ b),
    "conv": (CONV, [((2, 10, 10, 8), np.float16), ((3, 3, 8, 20), np.float16), ((20,), np.float32)], _conv_reference),
    "tiles64": (_matmul("tiles64", 512, 256, 640), [((512, 256), np.float16), ((256, 640), np.float16)], lambda a, b: a @ b),
    "tiles128": (_matmul("tiles128", 2048, 64, 2048), [((2048, 64), np.float16), ((64, 2048), np.float16)], lambda a, b: a @ b),
}


@pytest.mark.parametrize("name", WORKLOADS)
def test_emulated_tensor_cores_match_numpy(name, tmp_path):
    text, shapes, reference = WORKLOADS[name]
    library = polyblocks.compile_mlir(text, tmp_path, name, ["--gpu=sm_90", "--emulate"])
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(shape).astype(dtype) for shape, dtype in shapes]
    out = library[name](*inputs)
    expected = reference(*[i.astype(np.float64) for i in inputs])
    assert out.shape == expected.shape
    # Sums in f32 of exact f16 products; an f16 result is rounded once.
    tolerance = 2e-3 if out.dtype == np.float16 else 1e-5
    error = np.abs(out.astype(np.float64) - expected).max() / np.abs(expected).max()
    assert error <= tolerance, f"{name}: relative error {error:.2e}"


@pytest.mark.parametrize("chip", ["sm_80", "sm_90"])
def test_tensor_core_ptx_assembles(chip, tmp_path):
    assembler = ptxas()
    import subprocess

    for name, (text, _, _) in WORKLOADS.items():
        ptx = kernels_ptx(text, chip, tmp_path)
        assert any("wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32" in p for p in ptx), f"{name}: no tensor-core instruction"
        assert any(".shared" in p for p in ptx), f"{name}: no shared memory"
        if name == "conv":
            # The bias and ReLU run in the tensor-core kernel's epilogue.
            assert len(ptx) == 1, f"conv: {len(ptx)} kernels"
        for index, kernel in enumerate(ptx):
            path = tmp_path / f"{name}_{index}.ptx"
            path.write_text(kernel)
            result = subprocess.run([str(assembler), f"-arch={chip}", str(path), "-o", str(tmp_path / "k.cubin")], capture_output=True, text=True)
            assert result.returncode == 0, f"{name} kernel {index}: {result.stderr}"


def test_torch_half_linear_emulated_matches_eager():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 96), torch.nn.ReLU(), torch.nn.Linear(96, 32)).half().eval()
    x = torch.randn(40, 64).half()
    compiled = polyblocks.polyblocks_jit_torch(compile_options={"target": "nvgpu", "emulate": True, "fallback": False})(model)
    with torch.no_grad():
        out = compiled(x)
        expected = model.float()(x.float())
    assert out.dtype == torch.float16
    error = ((out.float() - expected).abs().max() / expected.abs().max()).item()
    assert error <= 2e-3
