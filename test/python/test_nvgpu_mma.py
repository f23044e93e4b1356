"""Tensor cores on the nvgpu pipeline (`pb-gpu-mma`, issue 18), checked
without a GPU:

- f16 products (matmul with edges on every side, f16 sums onto a bias, a
  batch, an NHWC convolution with its bias and ReLU applied in the
  kernel's epilogue, tiles of 64 and 128) and 8-bit integer ones (s8 with
  edges; u8 with a requantization to int8 in the epilogue; u8 x s8 and
  s8 x u8, one operand offset by -128 and corrected) run in the emulation (barrier phases in turn, fragments as
  per-thread buffers) and match numpy in float64;
- their PTX has `wmma.mma.sync` and assembles with ptxas for sm_80 and
  sm_90;
- PyTorch half-precision Linear layers through the front, emulated, match
  eager."""

import pathlib

import numpy as np
import pytest
import torch

import polyblocks
from test_nvgpu import assemble, kernels_ptx, ptxas


def _conv_reference(x, w, bias):
    out = sum(np.einsum("nhwc,cf->nhwf", x[:, i : i + 8, j : j + 8, :], w[i, j]) for i in range(3) for j in range(3))
    return np.maximum(out + bias, 0)


GPU_WORKLOADS = pathlib.Path(__file__).resolve().parents[2] / "examples" / "gpu_workloads"

# examples/gpu_workloads/mma_NAME.mlir: input (shape, dtype) list, float64 reference.
INPUTS = {
    "edges": ([((100, 72), np.float16), ((72, 80), np.float16)], lambda a, b: a @ b),
    "bias_f16": ([((64, 48), np.float16), ((48, 96), np.float16), ((96,), np.float16)], lambda a, b, c: a @ b + c),
    "batch": ([((3, 40, 24), np.float16), ((3, 24, 50), np.float16)], lambda a, b: a @ b),
    "conv": ([((2, 10, 10, 8), np.float16), ((3, 3, 8, 20), np.float16), ((20,), np.float32)], _conv_reference),
    "tiles64": ([((512, 256), np.float16), ((256, 640), np.float16)], lambda a, b: a @ b),
    "tiles128": ([((2048, 64), np.float16), ((64, 2048), np.float16)], lambda a, b: a @ b),
}
def _requant_reference(a, b, bias):
    # u8 x u8 sums (exact in float64), the bias, a scale of 2^-10, rounded
    # half to even and clamped to int8.
    sums = a.astype(np.float64) % 256 @ (b.astype(np.float64) % 256) + bias
    return np.clip(np.round(sums * 0.0009765625), -128, 127)


INPUTS["int8"] = ([((100, 72), np.int8), ((72, 80), np.int8)], lambda a, b: a @ b)
INPUTS["u8s8"] = ([((100, 72), np.int8), ((72, 80), np.int8)], lambda a, b: (a % 256) @ b)
INPUTS["s8u8"] = ([((100, 72), np.int8), ((72, 80), np.int8)], lambda a, b: a @ (b % 256))
INPUTS["uint8_requant"] = ([((64, 96), np.int8), ((96, 128), np.int8), ((128,), np.int32)], _requant_reference)

# name: (MLIR, inputs, reference)
WORKLOADS = {name: ((GPU_WORKLOADS / f"mma_{name}.mlir").read_text(), *INPUTS[name]) for name in INPUTS}


def random_inputs(shapes):
    """Normal floats; integers over their whole 8-bit range (int32: small
    biases)."""
    rng = np.random.default_rng(0)
    inputs = []
    for shape, dtype in shapes:
        if dtype == np.int8:
            inputs.append(rng.integers(-128, 128, shape).astype(np.int8))
        elif dtype == np.int32:
            inputs.append(rng.integers(-5000, 5000, shape).astype(np.int32))
        else:
            inputs.append(rng.standard_normal(shape).astype(dtype))
    return inputs


@pytest.mark.parametrize("name", WORKLOADS)
def test_emulated_tensor_cores_match_numpy(name, tmp_path):
    text, shapes, reference = WORKLOADS[name]
    library = polyblocks.compile_mlir(text, tmp_path, f"mma_{name}", ["--gpu=sm_90", "--emulate"])
    inputs = random_inputs(shapes)
    out = library[f"mma_{name}"](*inputs)
    expected = reference(*[i.astype(np.float64) for i in inputs])
    assert out.shape == expected.shape
    if np.issubdtype(out.dtype, np.integer):
        # Integer sums are exact.
        assert np.array_equal(out.astype(np.float64), expected), f"{name}: {np.abs(out - expected).max()} off"
        return
    # Sums in f32 of exact f16 products; an f16 result is rounded once.
    tolerance = 2e-3 if out.dtype == np.float16 else 1e-5
    error = np.abs(out.astype(np.float64) - expected).max() / np.abs(expected).max()
    assert error <= tolerance, f"{name}: relative error {error:.2e}"


@pytest.mark.parametrize("chip", ["sm_80", "sm_90"])
def test_tensor_core_ptx_assembles(chip, tmp_path):
    assembler = [str(ptxas()), f"-arch={chip}"]
    for name, (text, _, _) in WORKLOADS.items():
        ptx = kernels_ptx(text, chip, tmp_path)
        signed = "m16n16k16.s32.s8.s8.s32"
        instruction = {"int8": signed, "u8s8": signed, "s8u8": signed, "uint8_requant": "m16n16k16.s32.u8.u8.s32"}.get(name, "m16n16k16.f32.f32")
        assert any(f"wmma.mma.sync.aligned.row.row.{instruction}" in p for p in ptx), f"{name}: no tensor-core instruction"
        assert any(".shared" in p for p in ptx), f"{name}: no shared memory"
        if name in ("edges", "tiles64", "tiles128"):
            # Operands contiguous along the block's rows: 16-byte copies.
            assert any("ld.global.v4" in p and "st.shared.v4" in p for p in ptx), f"{name}: no 16-byte copies"
        if name in ("conv", "uint8_requant"):
            # The bias and ReLU (the requantization) run in the tensor-core
            # kernel's epilogue.
            assert len(ptx) == 1, f"{name}: {len(ptx)} kernels"
        for index, kernel in enumerate(ptx):
            assemble(kernel, assembler, tmp_path / f"{name}_{index}.ptx", f"{name} kernel {index}")


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


def test_torch_half_convolutions_emulated_match_eager():
    # NCHW half convolutions from the front: 2 x 12 x 12 output pixels as
    # the rows, the 3 x 3 window and channels as the reductions, on the
    # tensor cores (the lit tests check the mapping; this, the numbers).
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(32, 32, 3, padding=1)).half().eval()
    x = torch.randn(2, 16, 12, 12).half()
    compiled = polyblocks.polyblocks_jit_torch(compile_options={"target": "nvgpu", "emulate": True, "fallback": False})(model)
    with torch.no_grad():
        out = compiled(x)
        expected = model.float()(x.float())
    assert out.dtype == torch.float16
    assert ((out.float() - expected).abs().max() / expected.abs().max()).item() <= 2e-3


@pytest.mark.parametrize("kind", ["mlp", "convolutions"])
def test_pt2e_quantized_models_emulated_on_tensor_cores_match_the_quantized_reference(kind):
    # PT2E's u8 activations by s8 weights: A offset by -128 on the tensor
    # cores, B's column sums added back; the requantization in the epilogue.
    from test_quantized import quantized

    torch.manual_seed(0)
    if kind == "mlp":
        model = torch.nn.Sequential(torch.nn.Linear(64, 96), torch.nn.ReLU(), torch.nn.Linear(96, 32)).eval()
        x = torch.randn(40, 64)
    else:
        model = torch.nn.Sequential(torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(32, 32, 1)).eval()
        x = torch.randn(2, 16, 10, 10)
    q = quantized(model, x)
    compiled = polyblocks.polyblocks_jit_torch(compile_options={"target": "nvgpu", "emulate": True, "fallback": False})(q)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), q(x), rtol=0, atol=1e-5)
