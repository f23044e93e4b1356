"""The amdgpu pipeline (issue 18), checked without a GPU: the nvgpu
pipeline's mapping with the gfx1100 (RDNA3) description, lowered through
ROCDL to AMDGPU code.

- every workload's mapped IR, emulated on the CPU, matches numpy;
- every workload's kernels (and the f16 products, with RDNA3 WMMA
  instructions) become gfx1100 assembly without calls into
  AMD's device libraries, which LLVM's assembler turns into code objects;
- the PyTorch front with target 'amdgpu' (emulated) matches eager;
- a library compiled for gfx1100 loads, and calling it raises an error
  saying why (no HIP runtime yet), without losing the process."""

import pathlib

import numpy as np
import pytest
import torch

import polyblocks
import references
from polyblocks import gpu_runtime
from test_cpu_workloads import REFERENCE, WORKLOADS, check, random_inputs
from test_nvgpu import assemble, kernels_ptx, workload_text

LLVM_MC = pathlib.Path("/usr/lib/llvm-22/bin/llvm-mc")
LLVM_MC_GFX1100 = [str(LLVM_MC), "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj"]


@pytest.mark.parametrize("name", WORKLOADS)
def test_emulated_mapping_matches_numpy_on_gfx1100(name, tmp_path):
    library = polyblocks.compile_mlir(workload_text(name), tmp_path, name, ["--gpu=gfx1100", "--emulate"])
    function = library[name]
    inputs = random_inputs(function)
    reference = getattr(references, REFERENCE.get(name, name))
    check(function(*inputs), reference(*[i.astype(np.float64) for i in inputs]))


def test_every_workload_becomes_gfx1100_code_objects(tmp_path):
    count = 0
    for name in WORKLOADS:
        for index, code in enumerate(kernels_ptx(workload_text(name), "gfx1100", tmp_path, pipeline="amdgpu")):
            assert '.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"' in code, name
            assert "__ocml_" not in code and "__ockl_" not in code, f"{name}: a call into AMD's device libraries"
            if LLVM_MC.exists():
                obj = assemble(code, LLVM_MC_GFX1100, tmp_path / f"{name}_{index}.s", f"{name} kernel {index}")
                assert obj.read_bytes()[:4] == b"\x7fELF"
            count += 1
    assert count >= len(WORKLOADS)


def test_torch_front_emulated_amdgpu_matches_eager():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(4, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(8 * 6 * 6, 10), torch.nn.Softmax(dim=1))
    x = torch.randn(2, 4, 6, 6)
    compiled = polyblocks.polyblocks_jit_torch(compile_options={"target": "amdgpu", "emulate": True, "fallback": False})(model.eval())
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)


def test_amdgpu_library_calls_raise_a_clear_error(tmp_path):
    library = polyblocks.compile_mlir(workload_text("matmul"), tmp_path, "matmul", ["--gpu=gfx1100"])
    assert library.manifest["gpu"] == "gfx1100"
    a, b = random_inputs(library["matmul"])
    with pytest.raises(gpu_runtime.GpuError, match="AMD GPU gfx1100 cannot run yet .* 'emulate': True"):
        library["matmul"](a, b)
    cpu = polyblocks.compile_mlir(workload_text("matmul"), tmp_path / "cpu", "matmul")
    check(cpu["matmul"](a, b), a.astype(np.float64) @ b)


@pytest.mark.parametrize("name", ["edges", "conv", "tiles64"])
def test_emulated_tensor_cores_on_gfx1100_match_numpy(name, tmp_path):
    from test_nvgpu_mma import WORKLOADS as MMA
    from test_nvgpu_mma import random_inputs as mma_inputs

    text, shapes, reference = MMA[name]
    library = polyblocks.compile_mlir(text, tmp_path, f"mma_{name}", ["--gpu=gfx1100", "--emulate"])
    inputs = mma_inputs(shapes)
    out = library[f"mma_{name}"](*inputs)
    expected = reference(*[i.astype(np.float64) for i in inputs])
    assert np.abs(out.astype(np.float64) - expected).max() / np.abs(expected).max() <= 1e-5


def test_tensor_cores_become_rdna3_wmma_instructions(tmp_path):
    from test_nvgpu_mma import WORKLOADS as MMA

    for name, (text, shapes, _) in MMA.items():
        if shapes[0][1] != np.float16:
            continue  # 8-bit products: no gfx1100 shape described yet
        code = kernels_ptx(text, "gfx1100", tmp_path, pipeline="amdgpu")
        assert any("v_wmma_f32_16x16x16_f16" in c for c in code), f"{name}: no WMMA instruction"
        if LLVM_MC.exists():
            for index, kernel in enumerate(code):
                assemble(kernel, LLVM_MC_GFX1100, tmp_path / f"{name}_{index}.s", f"{name} kernel {index}")
