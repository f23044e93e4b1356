"""Differential check of the nvgpu pipeline: each MLIR module compiled for
the CPU and for an NVIDIA GPU, run on the same inputs, outputs compared.

    gpu_check.py prepare OUT MODULE.mlir...   # here: compile both, inputs, expected outputs
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

TOLERANCE = {"f32": (2e-4, 2e-5), "f64": (1e-9, 1e-12), "f16": (1e-2, 1e-3), "bf16": (5e-2, 1e-2)}


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


def prepare(out: pathlib.Path, modules: list[pathlib.Path], chip: str) -> None:
    from polyblocks import engine

    out.mkdir(parents=True, exist_ok=True)
    cases = []
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
            arrays.update({f"{function_name}.out{i}": a for i, a in enumerate(outputs)})
        np.savez(case / "data.npz", **arrays)
        shutil.rmtree(case / "cpu")
        cases.append(name)
    shutil.copy(engine.engine_binary().parent / "libpb_gpu_runtime.so", out / "libpb_gpu_runtime.so")
    (out / "cases.json").write_text(json.dumps({"chip": chip, "cases": cases}, indent=1))
    print(f"prepared {len(cases)} cases for {chip} in {out}")


def run(out: pathlib.Path) -> int:
    import os

    os.environ["POLYBLOCKS_GPU_RUNTIME"] = str(out / "libpb_gpu_runtime.so")
    listing = json.loads((out / "cases.json").read_text())
    failures = 0
    print(f"{'case':32} {'result':8} {'max abs err':>12} {'gpu ms':>9}")
    for name in listing["cases"]:
        case = out / name
        data = np.load(case / "data.npz")
        try:
            library = runtime.Library(case / "gpu" / "libmodule.so")
            for function_name, function in library.functions.items():
                inputs = inputs_for(library.manifest, function_name)
                if not np.isclose(checksum(inputs), data[f"{function_name}.checksum"][0], rtol=1e-9):
                    raise RuntimeError("this numpy draws other random inputs than the preparing one did")
                outputs = function(*inputs)
                outputs = outputs if isinstance(outputs, tuple) else (outputs,)
                started = time.perf_counter()
                repeats = 5
                for _ in range(repeats):
                    function(*inputs)
                elapsed = (time.perf_counter() - started) / repeats * 1e3
                worst = 0.0
                ok = True
                for i, (got, spec) in enumerate(zip(outputs, function.outputs)):
                    expected = data[f"{function_name}.out{i}"]
                    rtol, atol = TOLERANCE.get(spec["dtype"], (0, 0))
                    if got.dtype.kind in "fc":
                        worst = max(worst, float(np.max(np.abs(got.astype(np.float64) - expected), initial=0)))
                        ok &= np.allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True)
                    else:
                        ok &= np.array_equal(got, expected)
                failures += not ok
                print(f"{name + '.' + function_name:32} {'ok' if ok else 'WRONG':8} {worst:12.3g} {elapsed:9.3f}")
        except Exception as error:  # noqa: BLE001 - every failure is reported, the rest still run
            failures += 1
            print(f"{name:32} {'ERROR':8} {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
    print(f"{len(listing['cases']) - failures} of {len(listing['cases'])} cases match the CPU")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "prepare":
        chip = "sm_90"
        files = [pathlib.Path(a) for a in sys.argv[3:] if not a.startswith("--gpu=")]
        chip = next((a.split("=", 1)[1] for a in sys.argv[3:] if a.startswith("--gpu=")), chip)
        prepare(pathlib.Path(sys.argv[2]), files, chip)
    elif len(sys.argv) == 3 and sys.argv[1] == "run":
        sys.exit(run(pathlib.Path(sys.argv[2])))
    else:
        print(__doc__)
        sys.exit(2)
