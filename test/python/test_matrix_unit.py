"""bf16 and int8 contractions on the CPU's matrix unit (`pb-matrix-tile`, AMX).

Every program runs on any machine: where the CPU (and the OS) offer AMX
tiles the products run on them, elsewhere the same program compiles to the
vector path; results must match either way. Which path ran is checked from
the compiler's report. Code for the tiles is also generated for a target
that names them (`--target=matrix-units=...`) and checked in the object
without running it, so the generator is tested on machines without AMX.
"""

import pathlib
import re
import subprocess

import numpy as np
import pytest
import torch

import polyblocks
from polyblocks.torch_polyblocks_compiler import polyblocks_jit_torch

from test_cpu_workloads import ALLOWED_SYMBOLS

LLVM = pathlib.Path("/usr/lib/llvm-22/bin")


def host_has_amx() -> bool:
    flags = pathlib.Path("/proc/cpuinfo").read_text()
    return all(re.search(rf"\b{f}\b", flags) for f in ("amx_tile", "amx_bf16", "amx_int8"))


def host_has(*flags: str) -> bool:
    text = pathlib.Path("/proc/cpuinfo").read_text()
    return all(re.search(rf"\b{f}\b", text) for f in flags)


AMX = host_has_amx()
AMX_TARGET = "--target=matrix-units=amx-tile+amx-bf16+amx-int8"
# The 512-bit dot products the engine uses without AMX (Zen 4, Ice Lake...).
VNNI = host_has("avx512f", "avx512_vnni")
DOT_BF16 = host_has("avx512f", "avx512_bf16")
# Where the engine computes 8-bit products on the integers.
INT8_UNIT = AMX or VNNI


def _compiled(fn, units=None):
    options = {"target": "cpu", "fallback": False, "cache": False}
    if units:
        options["target_overrides"] = f"matrix-units={units}"
    return polyblocks_jit_torch(compile_options=options)(fn)


BF16_CASES = {
    "mm 64x96x80": (lambda a, b: a @ b, [(64, 96), (96, 80)]),
    "mm odd 37x50x29": (lambda a, b: a @ b, [(37, 50), (50, 29)]),
    "bmm 3x40x33x48": (torch.bmm, [(3, 40, 33), (3, 33, 48)]),
    "linear (transposed weight) 48x70x64": (lambda x, w: x @ w.T, [(48, 70), (64, 70)]),
}


@pytest.mark.parametrize("units", [None, "avx512-bf16"], ids=["host", "avx512-bf16"])
@pytest.mark.parametrize("case", BF16_CASES)
def test_bf16_products_match_float32_rounded_once(case, units):
    """On the host's units, and on AVX512-BF16's dot products alone."""
    if units and not DOT_BF16:
        pytest.skip("this CPU has no AVX512-BF16 to run vdpbf16ps on")
    fn, shapes = BF16_CASES[case]
    torch.manual_seed(0)
    inputs = [torch.randn(*s).to(torch.bfloat16) for s in shapes]
    result = _compiled(fn, units)(*inputs)
    reference = fn(*[x.float() for x in inputs])  # exact products, f32 sums
    assert result.dtype == torch.bfloat16 and result.shape == reference.shape
    # One rounding to bf16 at the end (8 bits of mantissa): within 2^-8 of
    # the f32 result, relative to its scale; summation order aside.
    scale = reference.abs().max().item()
    error = (result.float() - reference).abs().max().item()
    assert error <= scale * 2**-8 + 1e-3 * scale, (error, scale)


INT8_MLIR = """
func.func @mm(%a: tensor<70x130xi8>, %b: tensor<130x45xi8>) -> tensor<70x45xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<70x45xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<70x45xi32>) -> tensor<70x45xi32>
  %r = linalg.matmul ins(%a, %b : tensor<70x130xi8>, tensor<130x45xi8>) outs(%f : tensor<70x45xi32>) -> tensor<70x45xi32>
  return %r : tensor<70x45xi32>
}
func.func @mm_unsigned(%a: tensor<70x130xi8>, %b: tensor<130x45xi8>) -> tensor<70x45xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<70x45xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<70x45xi32>) -> tensor<70x45xi32>
  %r = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : tensor<70x130xi8>, tensor<130x45xi8>) outs(%f : tensor<70x45xi32>) -> tensor<70x45xi32>
  return %r : tensor<70x45xi32>
}
func.func @bmm_bias(%a: tensor<2x33x64xi8>, %b: tensor<2x64x40xi8>, %c: tensor<2x33x40xi32>) -> tensor<2x33x40xi32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x33x64xi8>, tensor<2x64x40xi8>) outs(%c : tensor<2x33x40xi32>) -> tensor<2x33x40xi32>
  return %r : tensor<2x33x40xi32>
}
"""


def test_int8_products_are_exact(tmp_path):
    library = polyblocks.compile_mlir(INT8_MLIR, tmp_path, "int8")
    rng = np.random.default_rng(0)
    a = rng.integers(-128, 128, (70, 130)).astype(np.int8)
    b = rng.integers(-128, 128, (130, 45)).astype(np.int8)
    assert np.array_equal(library["mm"](a, b), a.astype(np.int64) @ b.astype(np.int64))
    unsigned = a.view(np.uint8).astype(np.int64) @ b.view(np.uint8).astype(np.int64)
    assert np.array_equal(library["mm_unsigned"](a, b), unsigned)
    x = rng.integers(-128, 128, (2, 33, 64)).astype(np.int8)
    y = rng.integers(-128, 128, (2, 64, 40)).astype(np.int8)
    bias = rng.integers(-1000, 1000, (2, 33, 40)).astype(np.int32)
    # The accumulator's initial contents (a bias) are kept.
    assert np.array_equal(library["bmm_bias"](x, y, bias), bias + x.astype(np.int64) @ y.astype(np.int64))


MIXED_MLIR = """
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @u8s8(%a: tensor<70x130xi8>, %b: tensor<130x45xi8>, %c: tensor<70x45xi32>) -> tensor<70x45xi32> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<70x130xi8>, tensor<130x45xi8>) outs(%c : tensor<70x45xi32>) {
  ^bb0(%x: i8, %y: i8, %s: i32):
    %xi = arith.extui %x : i8 to i32
    %yi = arith.extsi %y : i8 to i32
    %p = arith.muli %xi, %yi : i32
    %t = arith.addi %s, %p : i32
    linalg.yield %t : i32
  } -> tensor<70x45xi32>
  return %r : tensor<70x45xi32>
}
func.func @s8u8(%a: tensor<64x256xi8>, %b: tensor<256x96xi8>) -> tensor<64x96xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<64x96xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<64x96xi32>) -> tensor<64x96xi32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x256xi8>, tensor<256x96xi8>) outs(%f : tensor<64x96xi32>) {
  ^bb0(%x: i8, %y: i8, %s: i32):
    %xi = arith.extsi %x : i8 to i32
    %yi = arith.extui %y : i8 to i32
    %p = arith.muli %xi, %yi : i32
    %t = arith.addi %s, %p : i32
    linalg.yield %t : i32
  } -> tensor<64x96xi32>
  return %r : tensor<64x96xi32>
}
"""


def test_int8_dot_products_are_exact(tmp_path):
    """Unsigned by signed bytes on VNNI's dot products (no AMX named):
    edges in every dimension (70 x 45 over 130) summed into a given C, and
    the signed operand on the row side."""
    if not VNNI:
        pytest.skip("this CPU has no AVX512-VNNI to run vpdpbusd on")
    (tmp_path / "in.mlir").write_text(MIXED_MLIR)
    assert _report(tmp_path, ["--target=matrix-units=avx512-vnni"]).count("[pb-matrix-tile] dot products: i8 products") == 2
    library = polyblocks.compile_mlir(MIXED_MLIR, tmp_path, "mixed", ["--target=matrix-units=avx512-vnni"])
    rng = np.random.default_rng(0)
    a = rng.integers(0, 256, (70, 130)).astype(np.uint8)
    b = rng.integers(-128, 128, (130, 45)).astype(np.int8)
    c = rng.integers(-1000, 1000, (70, 45)).astype(np.int32)
    assert np.array_equal(library["u8s8"](a.view(np.int8), b, c), c + a.astype(np.int64) @ b.astype(np.int64))
    x = rng.integers(-128, 128, (64, 256)).astype(np.int8)
    y = rng.integers(0, 256, (256, 96)).astype(np.uint8)
    assert np.array_equal(library["s8u8"](x, y.view(np.int8)), x.astype(np.int64) @ y.astype(np.int64))
    # Signed by signed (A offset by 128, the offset's sums taken out), with
    # reductions in chunks (a 3 KB L1: 32 of 130 at a time) and without.
    for l1 in ("48K", "3K"):
        target = f"--target=matrix-units=avx512-vnni l1={l1}"
        signed = polyblocks.compile_mlir(INT8_MLIR, tmp_path / l1, "int8", [target])
        a = rng.integers(-128, 128, (70, 130)).astype(np.int8)
        b = rng.integers(-128, 128, (130, 45)).astype(np.int8)
        assert np.array_equal(signed["mm"](a, b), a.astype(np.int64) @ b.astype(np.int64))
        x = rng.integers(-128, 128, (2, 33, 64)).astype(np.int8)
        y = rng.integers(-128, 128, (2, 64, 40)).astype(np.int8)
        bias = rng.integers(-1000, 1000, (2, 33, 40)).astype(np.int32)
        assert np.array_equal(signed["bmm_bias"](x, y, bias), bias + x.astype(np.int64) @ y.astype(np.int64))


def test_dot_product_code_for_a_target_that_names_vnni(tmp_path):
    """Generated (not run) for a CPU with VNNI, on any machine."""
    (tmp_path / "in.mlir").write_text(MIXED_MLIR)
    _report(tmp_path, ["--target=matrix-units=avx512-vnni vector-bits=512", "--cpu=znver4"])
    disassembly = subprocess.run([str(LLVM / "llvm-objdump"), "-d", str(tmp_path / "lib.so")], capture_output=True, text=True, check=True).stdout
    assert "vpdpbusd" in disassembly and "ldtilecfg" not in disassembly


def _report(tmp_path, extra):
    out = subprocess.run(
        [str(polyblocks.engine.engine_binary()), str(tmp_path / "in.mlir"), "--report", *extra, "-o", str(tmp_path / "lib.so")],
        capture_output=True, text=True,
    )
    assert out.returncode == 0, out.stderr
    return out.stderr


def test_host_runs_products_on_the_matrix_unit_when_it_has_one(tmp_path):
    (tmp_path / "in.mlir").write_text(INT8_MLIR)
    notes = _report(tmp_path, [])
    on_unit = notes.count("[pb-matrix-tile] matrix unit: i8 products")
    assert on_unit == (3 if AMX else 0), notes
    # Without AMX, VNNI takes the two signed products (not u8 x u8).
    on_dots = notes.count("[pb-matrix-tile] dot products: i8 products")
    assert on_dots == (2 if VNNI and not AMX else 0), notes


def test_tile_code_for_a_target_that_names_the_unit(tmp_path):
    (tmp_path / "in.mlir").write_text(INT8_MLIR)
    _report(tmp_path, [AMX_TARGET, "--cpu=sapphirerapids"])
    disassembly = subprocess.run([str(LLVM / "llvm-objdump"), "-d", str(tmp_path / "lib.so")], capture_output=True, text=True, check=True).stdout
    assert "tdpbssd" in disassembly and "tdpbuud" in disassembly and "ldtilecfg" in disassembly
    # The OS is asked for the tiles by an inline system call in a
    # constructor: no new import.
    undefined = subprocess.run([str(LLVM / "llvm-nm"), "-D", "--undefined-only", str(tmp_path / "lib.so")], capture_output=True, text=True, check=True).stdout.split()
    assert not [s for s in undefined if s not in ("U", "w", "v") and not ALLOWED_SYMBOLS.match(s)]
    assert "syscall" in disassembly


def test_targets_without_the_unit_keep_the_vector_path(tmp_path):
    (tmp_path / "in.mlir").write_text(INT8_MLIR)
    notes = _report(tmp_path, ["--target=matrix-units=none"])
    assert "[pb-matrix-tile]" not in notes
