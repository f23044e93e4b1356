"""Differential check of the nvgpu pipeline: each MLIR module compiled for
the CPU and for an NVIDIA GPU, run on the same inputs, outputs compared.

    gpu_check.py prepare OUT [--torch] [--gpu=sm_90] MODULE.mlir...
        # here: compile both, inputs, expected outputs (--torch: also the
        # PyTorch programs of torch_programs(), with their real inputs)
    gpu_check.py run OUT                      # on a GPU machine: run the GPU libraries, compare

`prepare` needs the engine (pb-compile); `run` needs only numpy, the
`polyblocks` package (its runtime) and libpb_gpu_runtime.so copied into
OUT, so it runs on a machine with a GPU but without this project's
toolchain (scripts/gpu-check.sh drives both)."""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python"))

from polyblocks import runtime  # noqa: E402

# Error allowed, relative to the largest expected magnitude (the CPU and
# the GPU sum in different orders, and only the CPU contracts into FMAs).
TOLERANCE = {"f32": 1e-4, "f64": 1e-10, "f16": 1e-2, "bf16": 5e-2}


def torch_programs():
    """PyTorch programs whose compiled graphs are checked with their real
    inputs (parameters included), captured from a CPU run."""
    import torch
    import torchvision

    torch.manual_seed(0)
    return {
        "mlp": (
            torch.nn.Sequential(torch.nn.Linear(768, 1024), torch.nn.GELU(), torch.nn.Linear(1024, 768)),
            (torch.randn(128, 768),),
        ),
        "encoder": (
            torch.nn.TransformerEncoder(
                torch.nn.TransformerEncoderLayer(256, 4, 1024, batch_first=True, dropout=0.0), 2, enable_nested_tensor=False
            ),
            (torch.randn(2, 64, 256),),
        ),
        "mobilenet_v3_small": (torchvision.models.mobilenet_v3_small(), (torch.randn(1, 3, 224, 224),)),
        "conv_bias_relu": (
            torch.nn.Sequential(torch.nn.Conv2d(64, 64, 3, padding=1), torch.nn.ReLU()),
            (torch.randn(1, 64, 56, 56),),
        ),
        "layernorm_gelu": (torch.nn.Sequential(torch.nn.LayerNorm(768), torch.nn.GELU()), (torch.randn(512, 768),)),
    }


def capture_torch(out: pathlib.Path) -> list[tuple[str, str, dict]]:
    """Compiles each program of `torch_programs` for the CPU through the
    PyTorch front; returns (name, MLIR text, arrays: the graph's inputs and
    outputs of one call, named as `prepare` stores them)."""
    import os
    import tempfile

    import torch

    os.environ["POLYBLOCKS_CACHE_DIR"] = tempfile.mkdtemp(prefix="polyblocks-gpu-check-")
    from polyblocks import polyblocks_jit_torch

    captured: list = []
    original = runtime.Function.call_pointers

    def recording(self, pointers):
        original(self, pointers)
        arrays = {}
        specs = self.inputs + self.outputs
        for index, (pointer, spec) in enumerate(zip(pointers, specs)):
            dtype = np.dtype(runtime._DTYPES[spec["dtype"]])
            count = int(np.prod(spec["shape"], dtype=np.int64))
            buffer = (ctypes.c_char * (count * dtype.itemsize)).from_address(int(pointer)) if count else b""
            array = np.frombuffer(bytes(buffer), dtype=dtype).reshape(spec["shape"]).copy()
            role = "in" if index < len(self.inputs) else "out"
            position = index if role == "in" else index - len(self.inputs)
            arrays[f"{self.name}.{role}{position}"] = array
        captured.append(arrays)

    import ctypes

    runtime.Function.call_pointers = recording
    cases = []
    try:
        for name, (model, inputs) in torch_programs().items():
            before = set(pathlib.Path(os.environ["POLYBLOCKS_CACHE_DIR"]).glob("*/module.mlir"))
            captured.clear()
            compiled = polyblocks_jit_torch(compile_options={"fallback": False})(model.eval())
            with torch.no_grad():
                compiled(*inputs)
            modules = sorted(set(pathlib.Path(os.environ["POLYBLOCKS_CACHE_DIR"]).glob("*/module.mlir")) - before)
            if len(modules) != 1 or len(captured) != 1:
                print(f"{name}: expected one compiled graph, got {len(modules)}")
                continue
            cases.append((name, modules[0].read_text(), captured[0]))
    finally:
        runtime.Function.call_pointers = original
    return cases


# Square products timed beside PyTorch's (cuBLAS) on the GPU: f16 x f16 ->
# f32 (tensor cores) and f32 (FMA tiles; PyTorch's f32 matmul default, no
# TF32); too large for a CPU reference, so `run` checks them against
# PyTorch's float32 product on the GPU (or numpy's).
GEMM_SIZES = (2048, 4096)
GEMM_TYPES = ("f16", "f32")


def gemm_module(name: str, n: int, element: str) -> str:
    return f"""func.func @{name}(%a: tensor<{n}x{n}x{element}>, %b: tensor<{n}x{n}x{element}>) -> tensor<{n}x{n}xf32> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{n}x{n}xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  %c = linalg.matmul ins(%a, %b : tensor<{n}x{n}x{element}>, tensor<{n}x{n}x{element}>) outs(%f : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  return %c : tensor<{n}x{n}xf32>
}}
"""


# Calls timed per function (the median is reported).
TIMED_CALLS = 10


def kernel_ms(function, inputs) -> float:
    """Median over TIMED_CALLS calls of the summed GPU time of one call's
    kernels (CUDA events around each launch; host copies and launch
    overhead left out)."""
    from polyblocks import gpu_runtime

    gpu_runtime.kernel_timing(True)
    try:
        times = []
        for _ in range(TIMED_CALLS):
            function(*inputs)
            times.append(gpu_runtime.kernel_time_ms())
    finally:
        gpu_runtime.kernel_timing(False)
    return sorted(times)[len(times) // 2]


# Elements of an expected output stored whole; larger ones keep rows.
LARGEST_STORED = 1 << 19


def checksum(arrays: list[np.ndarray]) -> float:
    return float(sum(np.sum(a, dtype=np.float64) for a in arrays))


def inputs_for(manifest: dict, function_name: str) -> list[np.ndarray]:
    """Inputs of a function, drawn from a seed of its name."""
    function = next(f for f in manifest["functions"] if f["name"] == function_name)
    rng = np.random.default_rng(sum(map(ord, function_name)))
    values = []
    for spec in function["args"]:
        if spec["role"] != "input":
            continue
        dtype = np.dtype(runtime._DTYPES[spec["dtype"]])
        shape = tuple(spec["shape"])
        if dtype.kind == "f":
            values.append(rng.standard_normal(shape).astype(dtype))
        elif dtype.kind == "b":
            values.append(rng.integers(0, 2, shape).astype(dtype))
        else:
            values.append(rng.integers(0, 3, shape).astype(dtype))
    return values


def prepare(out: pathlib.Path, modules: list[pathlib.Path], chip: str, with_torch: bool) -> None:
    from polyblocks import engine

    out.mkdir(parents=True, exist_ok=True)
    cases = []
    if with_torch:
        for name, text, arrays in capture_torch(out):
            case = out / name
            try:
                engine.build_library(case / "gpu", text, "module", [f"--gpu={chip}"])
            except engine.CompileError as error:
                print(f"{name}: does not compile: {str(error).splitlines()[0]}")
                continue
            np.savez(case / "data.npz", **arrays)
            cases.append(name)
    for module in modules:
        name = module.stem
        case = out / name
        case.mkdir(exist_ok=True)
        text = module.read_text()
        try:
            engine.build_library(case / "cpu", text, "module")
            engine.build_library(case / "gpu", text, "module", [f"--gpu={chip}"])
        except engine.CompileError as error:
            print(f"{name}: does not compile: {str(error).splitlines()[0]}")
            continue
        library = runtime.Library(case / "cpu" / "libmodule.so")
        arrays = {}
        for function_name, function in library.functions.items():
            # Inputs are not stored (model parameters are large): `run`
            # draws the same ones from the same seed, checked by their sum.
            inputs = inputs_for(library.manifest, function_name)
            outputs = function(*inputs)
            outputs = outputs if isinstance(outputs, tuple) else (outputs,)
            arrays[f"{function_name}.checksum"] = np.array([checksum(inputs)])
            for i, a in enumerate(outputs):
                # Large outputs keep every STRIDE-th row (the device tool
                # carries 64 MiB): enough rows of every tile to catch a
                # wrong mapping.
                stride = -(-a.size // LARGEST_STORED) if a.ndim else 1
                arrays[f"{function_name}.out{i}"] = a[::stride] if stride > 1 else a
                arrays[f"{function_name}.out{i}.stride"] = np.array([stride])
        np.savez(case / "data.npz", **arrays)
        shutil.rmtree(case / "cpu")
        cases.append(name)
    benches = []
    for element in GEMM_TYPES:
        for size in GEMM_SIZES:
            name = f"gemm_{element}_{size}"
            try:
                engine.build_library(out / name / "gpu", gemm_module(name, size, element), "module", [f"--gpu={chip}"])
            except engine.CompileError as error:
                print(f"{name}: does not compile: {str(error).splitlines()[0]}")
                continue
            benches.append({"name": name, "size": size, "element": element})
    shutil.copy(engine.engine_binary().parent / "libpb_gpu_runtime.so", out / "libpb_gpu_runtime.so")
    (out / "cases.json").write_text(json.dumps({"chip": chip, "cases": cases, "gemms": benches}, indent=1))
    print(f"prepared {len(cases)} cases for {chip} in {out}")


def run(out: pathlib.Path) -> int:
    import os

    os.environ["POLYBLOCKS_GPU_RUNTIME"] = str(out / "libpb_gpu_runtime.so")
    listing = json.loads((out / "cases.json").read_text())
    failures = 0
    # gpu ms: the median call, host arrays in and out (copies included).
    # kernel ms: the median call's kernels alone (CUDA events).
    print(f"{'case':32} {'result':8} {'max rel err':>12} {'gpu ms':>9} {'kernel ms':>10}")
    ours: dict[str, float] = {}
    profiles: dict[str, list] = {}
    from polyblocks import gpu_runtime

    for name in listing["cases"]:
        case = out / name
        data = np.load(case / "data.npz")
        try:
            library = runtime.Library(case / "gpu" / "libmodule.so")
            for function_name, function in library.functions.items():
                if f"{function_name}.in0" in data:
                    inputs = [data[f"{function_name}.in{i}"] for i in range(len(function.inputs))]
                else:
                    inputs = inputs_for(library.manifest, function_name)
                    if not np.isclose(checksum(inputs), data[f"{function_name}.checksum"][0], rtol=1e-9):
                        raise RuntimeError("this numpy draws other random inputs than the preparing one did")
                outputs = function(*inputs)
                outputs = outputs if isinstance(outputs, tuple) else (outputs,)
                times = []
                for _ in range(TIMED_CALLS):
                    started = time.perf_counter()
                    function(*inputs)
                    times.append((time.perf_counter() - started) * 1e3)
                elapsed = sorted(times)[len(times) // 2]
                kernels = kernel_ms(function, inputs)
                ours[name] = ours.get(name, 0.0) + kernels
                profiles[f"{name}.{function_name}"] = gpu_runtime.kernel_profile()
                worst = 0.0
                ok = True
                for i, (got, spec) in enumerate(zip(outputs, function.outputs)):
                    expected = data[f"{function_name}.out{i}"]
                    stride_key = f"{function_name}.out{i}.stride"
                    if stride_key in data and int(data[stride_key][0]) > 1:
                        got = got[:: int(data[stride_key][0])]
                    if got.dtype.kind in "fc":
                        scale = max(1.0, float(np.max(np.abs(expected), initial=0)))
                        error = float(np.max(np.abs(got.astype(np.float64) - expected), initial=0)) / scale
                        worst = max(worst, error)
                        finite = np.isfinite(expected).all() and np.isfinite(got).all()
                        ok &= finite and error <= TOLERANCE.get(spec["dtype"], 0)
                    else:
                        ok &= np.array_equal(got, expected)
                failures += not ok
                print(f"{name + '.' + function_name:32} {'ok' if ok else 'WRONG':8} {worst:12.3g} {elapsed:9.3f} {kernels:10.3f}")
        except Exception as error:  # noqa: BLE001 - every failure is reported, the rest still run
            failures += 1
            print(f"{name:32} {'ERROR':8} {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
    print(f"{len(listing['cases']) - failures} of {len(listing['cases'])} cases match the CPU")
    print_profiles(profiles)
    failures += run_gemms(out, listing.get("gemms", []))
    time_torch([name for name in listing["cases"] if "." not in name], ours)
    return 1 if failures else 0


def print_profiles(profiles: dict[str, list], top: int = 4) -> None:
    """Where each case's kernel time goes: its slowest kernels (per call;
    the profile holds `kernel_ms`'s TIMED_CALLS calls)."""
    print("slowest kernels per call (ms, launches): case: kernel ...")
    calls = TIMED_CALLS
    for case, rows in profiles.items():
        total = sum(ms for _, _, ms in rows) / calls
        if total < 0.05:
            continue
        shown = ", ".join(f"{name} {ms / calls:.3f} ({count // calls})" for name, count, ms in rows[:top])
        print(f"  {case} {total:.3f} in {sum(c for _, c, _ in rows) // calls} launches: {shown}")


def run_gemms(out: pathlib.Path, gemms: list[dict]) -> int:
    """The square products: checked against a float32 product of the same
    inputs, timed (kernels alone) beside PyTorch's matmul of the same type
    on the GPU (f32 without TF32, PyTorch's default); returns the number
    that fail."""
    try:
        import torch

        cuda = torch.cuda.is_available()
        # f32 products in f32 (PyTorch's default; said here, not assumed).
        torch.backends.cuda.matmul.allow_tf32 = False
    except ImportError:
        cuda = False
    failures = 0
    print(f"{'gemm':16} {'result':8} {'max rel err':>12} {'kernel ms':>10} {'TFLOP/s':>8} {'torch ms':>9} {'torch TFLOP/s':>14}")
    for gemm in gemms:
        name, n = gemm["name"], gemm["size"]
        try:
            library = runtime.Library(out / name / "gpu" / "libmodule.so")
            function = library.functions[name]
            rng = np.random.default_rng(n)
            dtype = np.float16 if gemm["element"] == "f16" else np.float32
            a = rng.standard_normal((n, n)).astype(dtype)
            b = rng.standard_normal((n, n)).astype(dtype)
            got = function(a, b)
            if cuda:
                expected = (torch.from_numpy(a).cuda().float() @ torch.from_numpy(b).cuda().float()).cpu().numpy()
            else:
                expected = a.astype(np.float32) @ b.astype(np.float32)
            error = float(np.max(np.abs(got - expected))) / max(1.0, float(np.max(np.abs(expected))))
            ok = bool(np.isfinite(got).all()) and error <= TOLERANCE["f32"]
            failures += not ok
            ms = kernel_ms(function, (a, b))
            flops = 2.0 * n**3
            peer = ""
            if cuda:
                ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                times = []
                for _ in range(13):
                    start.record()
                    torch.matmul(ta, tb)
                    end.record()
                    end.synchronize()
                    times.append(start.elapsed_time(end))
                torch_ms = sorted(times[3:])[5]
                peer = f"{torch_ms:9.3f} {flops / torch_ms / 1e9:14.1f}"
            print(f"{name:16} {'ok' if ok else 'WRONG':8} {error:12.3g} {ms:10.3f} {flops / ms / 1e9:8.1f} {peer}")
        except Exception as error:  # noqa: BLE001 - every failure is reported, the rest still run
            failures += 1
            print(f"{name:16} {'ERROR':8} {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
    return failures


def time_torch(names: list[str], ours: dict[str, float] | None = None) -> None:
    """PyTorch eager and torch.compile on the same GPU, for the PyTorch
    programs among `names` (inputs and parameters resident on the GPU, as
    PyTorch users keep them), where PyTorch has CUDA."""
    try:
        import torch

        programs = torch_programs()
    except Exception as error:  # noqa: BLE001 - an optional comparison
        print(f"(no PyTorch comparison: {type(error).__name__}: {error})")
        return
    if not torch.cuda.is_available():
        print("(no PyTorch comparison: PyTorch has no CUDA here)")
        return

    def median_ms(function, inputs, repeats=20):
        with torch.no_grad():
            for _ in range(3):
                function(*inputs)
            torch.cuda.synchronize()
            times = []
            for _ in range(repeats):
                started = time.perf_counter()
                function(*inputs)
                torch.cuda.synchronize()
                times.append((time.perf_counter() - started) * 1e3)
        return sorted(times)[len(times) // 2]

    ours = ours or {}
    # polyblocks kernel ms: our kernels alone, from the check above (PyTorch's
    # times are wall times of resident inputs, launches included).
    print(f"{'program':24} {'eager ms':>9} {'torch.compile ms':>17} {'polyblocks kernel ms':>21}")
    for name in names:
        if name not in programs:
            continue
        model, inputs = programs[name]
        model = model.eval().cuda()
        inputs = tuple(i.cuda() for i in inputs)
        eager = median_ms(model, inputs)
        try:
            compiled = f"{median_ms(torch.compile(model), inputs):17.3f}"
        except Exception as error:  # noqa: BLE001 - Inductor may be missing pieces here
            compiled = f"{'(' + type(error).__name__ + ')':>17}"
        print(f"{name:24} {eager:9.3f} {compiled} {ours.get(name, float('nan')):21.3f}")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "prepare":
        chip = "sm_90"
        files = [pathlib.Path(a) for a in sys.argv[3:] if not a.startswith("--")]
        chip = next((a.split("=", 1)[1] for a in sys.argv[3:] if a.startswith("--gpu=")), chip)
        prepare(pathlib.Path(sys.argv[2]), files, chip, "--torch" in sys.argv[3:])
    elif len(sys.argv) == 3 and sys.argv[1] == "run":
        sys.exit(run(pathlib.Path(sys.argv[2])))
    else:
        print(__doc__)
        sys.exit(2)
