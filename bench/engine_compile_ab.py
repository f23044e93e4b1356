"""Compile time of `pb-compile` binaries on the same modules (issue 19):
the engine alone, without the fronts' tracing, one process per compile,
rounds with the order of the engines flipped each round.

    # save the module and flags a model's first call hands the engine
    .venv/bin/python bench/engine_compile_ab.py capture resnet50 8 /tmp/modules
    # then time engines on every saved module
    .venv/bin/python bench/engine_compile_ab.py time /tmp/modules ENGINE_A ENGINE_B [--rounds 3]

MODEL is one of bench/models_bench.py's models (or densenet121). Prints,
per module and engine, the median and least wall seconds and each stage's
median (`--timing`).
"""

import argparse
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[1]


def capture(model: str, batch: int, folder: pathlib.Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(REPO / "python"))
    from polyblocks import engine

    real = engine.engine_binary()
    tag = f"{model}-b{batch}"
    wrapper = folder / "capture.sh"
    wrapper.write_text(
        "#!/bin/sh\ncase \"$1\" in *.mlir)\n"
        f"  cp \"$1\" {folder}/{tag}.mlir; shift; echo \"$@\" > {folder}/{tag}.args;\n"
        f"  exec {real} {folder}/{tag}.mlir \"$@\";;\nesac\nexec {real} \"$@\"\n"
    )
    wrapper.chmod(0o755)
    child = (
        "import sys, torch; sys.path.insert(0, %r); sys.path.insert(0, %r)\n"
        "from models_bench import MODELS, _vision\nMODELS.setdefault('densenet121', _vision('densenet121'))\n"
        "from polyblocks import polyblocks_jit_torch\nmodel, args = MODELS[%r](%d)\n"
        "with torch.no_grad(): polyblocks_jit_torch(compile_options={'target': 'cpu'})(model)(*args)\n"
    ) % (str(REPO / "python"), str(REPO / "bench"), model, batch)
    env = dict(os.environ, POLYBLOCKS_COMPILE=str(wrapper), POLYBLOCKS_CACHE_DIR=tempfile.mkdtemp())
    subprocess.run([sys.executable, "-c", child], env=env, check=True)
    print(f"saved {folder}/{tag}.mlir and its flags")


def flags_of(args_file: pathlib.Path) -> list[str]:
    words = args_file.read_text().split()
    # Drop the output the front chose; each run writes its own.
    out = [w for i, w in enumerate(words) if w != "-o" and (i == 0 or words[i - 1] != "-o")]
    return [w for w in out if w != "--progress"]


def time_engines(folder: pathlib.Path, engines: list[str], rounds: int) -> None:
    modules = sorted(folder.glob("*.mlir"))
    walls: dict = {}
    stages: dict = {}
    env = {k: v for k, v in os.environ.items() if k != "POLYBLOCKS_VERIFY_EACH"}
    with tempfile.TemporaryDirectory() as scratch:
        for r in range(rounds):
            order = engines if r % 2 == 0 else engines[::-1]
            for module in modules:
                flags = flags_of(module.with_suffix(".args"))
                for e in order:
                    start = time.perf_counter()
                    done = subprocess.run([e, str(module), *flags, "--timing", "-o", f"{scratch}/x.so"], env=env, capture_output=True, text=True, check=True)
                    walls.setdefault((module.stem, e), []).append(time.perf_counter() - start)
                    for name, ms in re.findall(r"^\s*([\w-]+):\s+([\d.]+) ms$", done.stderr, re.M):
                        stages.setdefault((module.stem, e), {}).setdefault(name, []).append(float(ms) / 1e3)
    for module in modules:
        print(module.stem)
        for e in engines:
            w = walls[(module.stem, e)]
            parts = " ".join(f"{k} {statistics.median(v):.2f}" for k, v in stages[(module.stem, e)].items())
            print(f"  {e}: median {statistics.median(w):.2f} s, least {min(w):.2f} s | {parts}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    c = sub.add_parser("capture")
    c.add_argument("model")
    c.add_argument("batch", type=int)
    c.add_argument("folder", type=pathlib.Path)
    t = sub.add_parser("time")
    t.add_argument("folder", type=pathlib.Path)
    t.add_argument("engines", nargs="+")
    t.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.mode == "capture":
        capture(args.model, args.batch, args.folder)
    else:
        time_engines(args.folder, args.engines, args.rounds)


if __name__ == "__main__":
    main()
