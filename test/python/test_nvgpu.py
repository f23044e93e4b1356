"""The nvgpu pipeline, checked without a GPU (issue 18):

- every workload's mapped IR, emulated on the CPU (kernels as loops over
  grid and block), matches numpy: the mapping decisions are right;
- every workload's PTX assembles with NVIDIA's ptxas for sm_80 and sm_90:
  what upstream's lowering makes of it is valid for real hardware;
- the PyTorch front with target 'nvgpu' (emulated) matches eager;
- without a GPU, calling a library compiled for one raises an error naming
  what is missing, and the process goes on.

On a machine with an NVIDIA GPU, scripts/gpu-check.sh runs the kernels for
real."""

import pathlib
import re
import subprocess

import numpy as np
import pytest
import torch

import polyblocks
import references
from polyblocks import gpu_runtime
from test_cpu_workloads import REFERENCE, WORKLOADS, check, random_inputs

REPO = pathlib.Path(__file__).resolve().parents[2]


def ptxas() -> pathlib.Path:
    """NVIDIA's assembler from the nvidia-cuda-nvcc wheel (requirements.txt)."""
    import nvidia

    for root in nvidia.__path__:
        for candidate in pathlib.Path(root).glob("cu*/bin/ptxas"):
            return candidate
    pytest.fail("ptxas not found: the set-up installs nvidia-cuda-nvcc (requirements.txt)")


def workload_text(name):
    return (REPO / "examples" / "workloads" / f"{name}.mlir").read_text()


@pytest.mark.parametrize("name", WORKLOADS)
def test_emulated_mapping_matches_numpy(name, tmp_path):
    library = polyblocks.compile_mlir(workload_text(name), tmp_path, name, ["--gpu=sm_90", "--emulate"])
    function = library[name]
    inputs = random_inputs(function)
    reference = getattr(references, REFERENCE.get(name, name))
    check(function(*inputs), reference(*[i.astype(np.float64) for i in inputs]))


def kernels_ptx(text: str, chip: str, tmp_path: pathlib.Path, pipeline: str = "nvgpu") -> list[str]:
    """The PTX (AMDGPU assembly with `pipeline="amdgpu"`) of each kernel
    module of `text` compiled for `chip`."""
    source = tmp_path / "input.mlir"
    source.write_text(text)
    pb_opt = polyblocks.engine.engine_binary().parent / "pb-opt"
    if not pb_opt.exists():
        # A release pb-compile built alone (`cargo build --release -p
        # pb-compile`) is newer than the dev build but has no pb-opt beside it.
        pb_opt = pathlib.Path(__file__).resolve().parents[2] / "target" / "debug" / "pb-opt"
    lowered = subprocess.run(
        [str(pb_opt), str(source), f"--pb-pipeline={pipeline}", f"--pb-gpu={chip}", "--pb-stop-after=gpu-lower"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    unescape = lambda s: re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), s)
    return [unescape(m.group(1)) for m in re.finditer(r'assembly = "((?:[^"\\]|\\.)*)"', lowered)]


def assemble(code: str, command: list[str], path: pathlib.Path, what: str) -> pathlib.Path:
    """Writes `code` to `path` and runs `command` (an assembler, its
    target flags) on it into `path` with suffix `.o`; fails with the
    assembler's message, names `what`; the object's path."""
    path.write_text(code)
    output = path.with_suffix(".o")
    result = subprocess.run([*command, str(path), "-o", str(output)], capture_output=True, text=True)
    assert result.returncode == 0, f"{what}: {result.stderr}"
    return output


@pytest.mark.parametrize("chip", ["sm_80", "sm_90"])
def test_every_workload_assembles_with_ptxas(chip, tmp_path):
    assembler = [str(ptxas()), f"-arch={chip}"]
    count = 0
    for name in WORKLOADS:
        for index, ptx in enumerate(kernels_ptx(workload_text(name), chip, tmp_path)):
            assert f".target {chip}" in ptx
            assert "__nv_" not in ptx, f"{name}: a libdevice call in the PTX"
            assemble(ptx, assembler, tmp_path / f"{name}_{index}.ptx", f"{name} kernel {index}")
            count += 1
    assert count >= 2 * len(WORKLOADS)


def test_powf_in_f32_on_gpus(tmp_path):
    # GPUs fuse multiply-adds: powf with a constant exponent runs in f32
    # double-word arithmetic (FMA remainders), with no f64 instruction,
    # whose rate is 1/32 to 1/64 of f32's on consumer parts. (Its values:
    # the gamma workload, emulated, against numpy above.)
    kernels = kernels_ptx(workload_text("gamma"), "sm_80", tmp_path)
    assert kernels
    for ptx in kernels:
        assert ".f64" not in ptx
        assert "fma.rn.f32" in ptx


def test_torch_front_emulated_matches_eager():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(8, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(16 * 10 * 10, 10), torch.nn.LayerNorm(10))
    x = torch.randn(2, 8, 10, 10)
    compiled = polyblocks.polyblocks_jit_torch(compile_options={"target": "nvgpu", "emulate": True, "fallback": False})(model.eval())
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)


@pytest.mark.skipif(gpu_runtime.available(), reason="an NVIDIA GPU is present: scripts/gpu-check.sh runs the kernels")
def test_without_a_gpu_calls_raise_a_clear_error(tmp_path):
    library = polyblocks.compile_mlir(workload_text("matmul"), tmp_path, "matmul", ["--gpu=sm_80"])
    assert library.manifest["gpu"] == "sm_80"
    a, b = random_inputs(library["matmul"])
    with pytest.raises(gpu_runtime.GpuError, match="no NVIDIA driver: libcuda.so.1 was not found"):
        library["matmul"](a, b)
    # The process goes on: the same program compiled for the CPU runs.
    cpu = polyblocks.compile_mlir(workload_text("matmul"), tmp_path / "cpu", "matmul")
    check(cpu["matmul"](a, b), a.astype(np.float64) @ b)


@pytest.mark.parametrize("target", ["nvgpu", "amdgpu"])
def test_scalars_between_kernels_and_constant_taps_emulated(target):
    # A 0-d sum computed in a one-thread kernel and read by the next kernel
    # (it stays on the device, in a 0-d buffer), and a separable blur whose
    # filter taps are a constant the host reads once for the kernels.
    from test_torch_front import make_blur

    options = {"target": target, "emulate": True, "fallback": False}
    normalize = lambda x: x / x.sum() + torch.where(x > x.mean(), x, torch.zeros_like(x))
    blur = make_blur(37, 41)
    for function, x in [(normalize, torch.rand(5, 33)), (blur, torch.rand(3, 37, 41))]:
        compiled = polyblocks.polyblocks_jit_torch(compile_options=options)(function)
        with torch.no_grad():
            torch.testing.assert_close(compiled(x), function(x), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("target", ["nvgpu", "amdgpu"])
def test_reductions_across_threads_emulated(target, caplog):
    # Row reductions spread over a warp or more per row (pb-gpu-map's
    # cross-thread reductions: lanes' partial folds, a tree in workgroup
    # memory with barriers), emulated phase by phase: layer norm and softmax
    # rows (301 rows: two a block, the last block padded), a mean and a
    # maximum over h and w (two loops flattened), an integer sum; column
    # sums with columns on x and lanes on y.
    class Reductions(torch.nn.Module):
        def forward(self, x, y, z):
            return (
                torch.nn.functional.layer_norm(x, (x.shape[-1],)),
                torch.softmax(x * 0.5, dim=-1),
                y.mean(dim=(2, 3)),
                y.amax(dim=(2, 3)),
                z.sum(dim=-1),
                x.sum(dim=0),
            )

    torch.manual_seed(0)
    inputs = (torch.randn(301, 200), torch.randn(3, 5, 9, 11), torch.randint(-5, 5, (7, 129), dtype=torch.int32))
    model = Reductions()
    options = {"target": target, "emulate": True, "fallback": False, "report": True}
    compiled = polyblocks.polyblocks_jit_torch(compile_options=options)(model)
    with torch.no_grad():
        for got, expected in zip(compiled(*inputs), model(*inputs)):
            torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-5)
    # The rows did go over threads (the report, logged by "polyblocks").
    assert "parallel band 301 reducing 200 iterations per point over 32 threads, blocks of 32x2" in caplog.text, caplog.text
    assert "parallel band 3x5 reducing 99 iterations" in caplog.text, caplog.text
    assert "parallel band 200 reducing 301 iterations per point over 8 threads (points on x" in caplog.text, caplog.text


def test_encoder_projections_on_fma_tiles_emulated(caplog):
    # A transformer encoder layer: its projections read the input through
    # a transpose and reshape whose loops pb-fuse-elementwise splits
    # (C[2 i + i', 32 j + j']); the contraction roles flatten them back into
    # rows and columns, so every product runs as FMA tiles (none one
    # thread per output), and the emulated result matches eager.
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(32, 2, 64, batch_first=True, dropout=0.0).eval()
    model = torch.nn.TransformerEncoder(layer, 1, enable_nested_tensor=False).eval()
    x = torch.randn(2, 16, 32)
    options = {"target": "nvgpu", "emulate": True, "fallback": False, "report": True}
    compiled = polyblocks.polyblocks_jit_torch(compile_options=options)(model)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)
    assert "no row and column loops" not in caplog.text, caplog.text
    assert caplog.text.count("[pb-gpu-mma] FMA units") >= 4, caplog.text


def test_split_reductions_emulated(caplog):
    # Few outputs over many reductions (64 x 48 over 1024): the blocks
    # would leave the GPU idle, so the reductions split over the grid's z
    # and each block adds its partial sums into C atomically (the zero
    # fill kept, run before). Emulated blocks run in turn: the sums match.
    torch.manual_seed(0)
    model = torch.nn.Linear(1024, 48, bias=False).eval()
    x = torch.randn(64, 1024)
    options = {"target": "nvgpu", "emulate": True, "fallback": False, "report": True}
    compiled = polyblocks.polyblocks_jit_torch(compile_options=options)(model)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
    assert "the reductions split" in caplog.text and "added into C atomically" in caplog.text, caplog.text


@pytest.mark.parametrize("chip", ["sm_80", "sm_90"])
def test_split_reductions_assemble_with_atomic_adds(chip, tmp_path):
    # The split product's PTX: ptxas takes it, and C is added into with
    # f32 atomics (not stored: other blocks add their shares too).
    text = """func.func @split(%a: tensor<64x1024xf32>, %b: tensor<1024x48xf32>) -> tensor<64x48xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x48xf32>) outs(%f : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %c : tensor<64x48xf32>
}"""
    kernels = kernels_ptx(text, chip, tmp_path)
    atomics = [ptx for ptx in kernels if re.search(r"\b(red|atom)\.global(\.gpu)?(\.relaxed)?\.add\.f32", ptx)]
    assert atomics, "no f32 atomic add in the split product's PTX"
    for index, ptx in enumerate(kernels):
        assemble(ptx, [str(ptxas()), f"-arch={chip}"], tmp_path / f"split_{index}.ptx", f"split kernel {index}")
