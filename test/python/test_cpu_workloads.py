"""Compile each workload of examples/workloads/ with pb-compile, run it on
random inputs, and compare with the numpy reference of the same name."""

import pathlib
import re
import subprocess

import numpy as np
import pytest

import polyblocks
import references

REPO = pathlib.Path(__file__).resolve().parents[2]
WORKLOADS = sorted(p.stem for p in (REPO / "examples" / "workloads").glob("*.mlir"))

# Workloads whose reference is named differently.
REFERENCE = {"matmul_1x1x1": "matmul", "blur_x_blur_y_odd": "blur_x_blur_y", "softmax_wide": "softmax", "layernorm_wide": "layernorm"}


def random_inputs(function, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(spec["shape"]).astype(np.float32) for spec in function.inputs]


def check(outputs, expected):
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    assert len(outputs) == len(expected)
    for got, want in zip(outputs, expected):
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


def test_every_workload_has_a_reference():
    for name in WORKLOADS:
        assert hasattr(references, REFERENCE.get(name, name)), name


@pytest.mark.parametrize("name", WORKLOADS)
def test_workload_matches_numpy(name, tmp_path):
    library = polyblocks.compile_mlir((REPO / "examples" / "workloads" / f"{name}.mlir").read_text(), tmp_path, name)
    function = library[name]
    inputs = random_inputs(function)
    reference = getattr(references, REFERENCE.get(name, name))
    check(function(*inputs), reference(*[i.astype(np.float64) for i in inputs]))


def test_single_threaded_and_256_bit_targets_agree(tmp_path):
    text = (REPO / "examples" / "workloads" / "conv2d_nchw_bias_relu.mlir").read_text()
    serial = polyblocks.compile_mlir(text, tmp_path / "serial", "conv", ["--target=cores=1 vector-bits=256"])
    inputs = random_inputs(serial["conv2d_nchw_bias_relu"], seed=3)
    check(serial["conv2d_nchw_bias_relu"](*inputs), references.conv2d_nchw_bias_relu(*inputs))


def test_wrong_arguments_are_clear_errors(tmp_path):
    library = polyblocks.compile_mlir((REPO / "examples" / "workloads" / "matmul.mlir").read_text(), tmp_path, "mm")
    matmul = library["matmul"]
    a, b = random_inputs(matmul)
    with pytest.raises(polyblocks.LibraryError, match="takes 2 inputs, got 1"):
        matmul(a)
    with pytest.raises(polyblocks.LibraryError, match="dtype float64, expected float32"):
        matmul(a.astype(np.float64), b)
    with pytest.raises(polyblocks.LibraryError, match=r"shape \(45, 67\), expected \(67, 45\)"):
        matmul(a.T.copy(), b)
    with pytest.raises(polyblocks.LibraryError, match="no function 'nope'"):
        library["nope"]


def test_non_contiguous_inputs_are_handled(tmp_path):
    library = polyblocks.compile_mlir((REPO / "examples" / "workloads" / "matmul.mlir").read_text(), tmp_path, "mm")
    rng = np.random.default_rng(1)
    a = rng.standard_normal((45, 67)).astype(np.float32).T  # a transposed view
    b = rng.standard_normal((45, 29)).astype(np.float32)
    check(library["matmul"](a, b), a.astype(np.float64) @ b)


def test_unsupported_input_names_the_op(tmp_path):
    text = 'func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = "tm_tensor.attention"(%x) : (tensor<8xf32>) -> tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n'
    with pytest.raises(polyblocks.CompileError, match=r"f.mlir:2:8: error: unsupported op 'tm_tensor.attention'"):
        polyblocks.compile_mlir(text, tmp_path, "f")


def test_dynamic_shapes_are_a_clear_error(tmp_path):
    text = "func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {\n  return %x : tensor<?xf32>\n}\n"
    with pytest.raises(polyblocks.CompileError, match="argument 0 of type 'tensor<\\?xf32>' has a dynamic shape"):
        polyblocks.compile_mlir(text, tmp_path, "f")


def test_unknown_element_type_is_a_clear_error(tmp_path):
    text = "func.func @f(%x: tensor<4xcomplex<i32>>) -> tensor<4xcomplex<i32>> {\n  return %x : tensor<4xcomplex<i32>>\n}\n"
    with pytest.raises(polyblocks.CompileError, match="element type 'complex<i32>'"):
        polyblocks.compile_mlir(text, tmp_path, "f")


# What generated code may call: libc, libm and the OpenMP runtime. Never a
# BLAS, DNN or MLIR runtime library.
ALLOWED_SYMBOLS = re.compile(
    r"^(__kmpc_\w+|omp_\w+|malloc|free|aligned_alloc|posix_memalign|memset|memcpy|memmove"
    # f32 exp, expm1, log, tanh, erf and pow are expanded inline
    # (pb-expand-math): only their f64 forms may be called.
    r"|(sin|cos|tan|sqrt|fmod|atan2?|acos|asin|cbrt|log1p|log2|log10|exp2)f?|(exp|log|tanh|erf|expm1|pow)"
    r"|__cxa_finalize|__gmon_start__|_ITM_\w+)(@.*)?$"
)


@pytest.mark.parametrize("name", WORKLOADS)
def test_generated_code_calls_no_library_but_libc_libm_openmp(name, tmp_path):
    library = polyblocks.compile_mlir((REPO / "examples" / "workloads" / f"{name}.mlir").read_text(), tmp_path, name)
    undefined = subprocess.run(
        ["/usr/lib/llvm-22/bin/llvm-nm", "-D", "--undefined-only", str(library.path)],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    symbols = [s for s in undefined if s not in ("U", "w", "v")]
    assert symbols, "expected at least the OpenMP or libc imports"
    unexpected = [s for s in symbols if not ALLOWED_SYMBOLS.match(s)]
    assert not unexpected, f"{name} imports {unexpected}"
    needed = subprocess.run(["/usr/lib/llvm-22/bin/llvm-readelf", "-d", str(library.path)], capture_output=True, text=True, check=True).stdout
    for line in needed.splitlines():
        if "NEEDED" in line:
            assert re.search(r"\[(libomp\.so\.5|libm\.so\.6|libc\.so\.6)\]", line), line


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("name", ["attention", "conv2d_nchw_bias_relu"])
def test_parallel_code_generation_gives_the_same_program(name, threads, tmp_path):
    """`--codegen-threads`: the module compiled in parts, in parallel, links
    into a library that computes the same and exports only the public
    function and its packed twin (the kernels stay hidden)."""
    text = (REPO / "examples" / "workloads" / f"{name}.mlir").read_text()
    debug = tmp_path / "ir"
    # (The convolution in NCHW: channels-last, its code is below the size
    # worth splitting.)
    layout = ["--no-channels-last"] if name.startswith("conv") else []
    library = polyblocks.compile_mlir(text, tmp_path, name, [f"--codegen-threads={threads}", f"--debug-dir={debug}", *layout])
    llvm_ir = (debug / "6-optimized.ll").read_text()
    if threads == 1:
        assert "; ---- part" not in llvm_ir
    else:
        # Up to three parts per thread (taken from a queue), at least two.
        parts = re.search(r"; ---- part 1 of (\d+) ", llvm_ir)
        assert parts is not None and 2 <= int(parts.group(1)) <= 3 * threads
    exported = subprocess.run(
        ["/usr/lib/llvm-22/bin/llvm-nm", "-D", "--defined-only", "--format=just-symbols", str(library.path)],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    assert sorted(exported) == [name, f"{name}_packed"]
    function = library[name]
    inputs = random_inputs(function, seed=5)
    check(function(*inputs), getattr(references, name)(*[i.astype(np.float64) for i in inputs]))


def test_functions_with_more_arguments_than_ctypes_passes(tmp_path):
    # ctypes calls with at most 1024 arguments; past that the runtime calls
    # the function's packed twin (one array of pointers to the arguments),
    # scalars passed by value included.
    count = 1030
    args = ", ".join(f"%a{i}: tensor<2xf32>" for i in range(count))
    lines = [f"func.func @many({args}, %s: f32) -> tensor<2xf32> {{"]
    total = "%a0"
    for i in range(1, count):
        lines.append(f"  %t{i} = arith.addf {total}, %a{i} : tensor<2xf32>")
        total = f"%t{i}"
    lines.append("  %splat = tensor.splat %s : tensor<2xf32>")
    lines.append(f"  %r = arith.mulf {total}, %splat : tensor<2xf32>")
    lines.append("  return %r : tensor<2xf32>")
    lines.append("}")
    library = polyblocks.compile_mlir("\n".join(lines), tmp_path, "many")
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(2).astype(np.float32) for _ in range(count)]
    out = library["many"](*inputs, 0.5)
    expected = np.zeros(2, np.float32)
    for x in inputs:
        expected = expected + x
    np.testing.assert_allclose(out, expected * np.float32(0.5), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", ["attention", "conv2d_nchw_bias_relu"])
def test_verifying_each_pass_or_each_stage_gives_the_same_program(name, tmp_path, monkeypatch):
    """By default the engine verifies the IR once per stage (MLIR's check
    after every pass is ~10% of a model's compile); `--verify-each` (or
    $POLYBLOCKS_VERIFY_EACH, which the test command sets) checks after
    every pass. Either way every stage's IR is the same and the program
    computes the same."""
    monkeypatch.setenv("POLYBLOCKS_VERIFY_EACH", "0")
    text = (REPO / "examples" / "workloads" / f"{name}.mlir").read_text()
    dumps = {}
    for variant, flags in {"stage": [], "each": ["--verify-each"]}.items():
        debug = tmp_path / variant / "ir"
        library = polyblocks.compile_mlir(text, tmp_path / variant, name, [f"--debug-dir={debug}", *flags])
        dumps[variant] = {p.name: p.read_text() for p in sorted(debug.glob("*-*.mlir"))}
        function = library[name]
        inputs = random_inputs(function, seed=7)
        check(function(*inputs), getattr(references, name)(*[i.astype(np.float64) for i in inputs]))
    assert len(dumps["stage"]) == 5 and dumps["stage"] == dumps["each"]
