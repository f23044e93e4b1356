"""The wheel, as a user installs it: `scripts/build-wheel.sh` packs the dev
engine, the wheel goes into a fresh virtual environment outside the
checkout, and programs compile and run there through every entry point with
nothing from the checkout or from LLVM 22's folder: the engine is the
wheel's, it links with the machine's `cc`, and compiled code loads the
OpenMP runtime the wheel carries.

The machine "has PyTorch and JAX": the fresh environment sees the project
environment's site-packages through a .pth file (after its own), so the
frameworks are there but the checkout's editable polyblocks is not."""

import json
import os
import pathlib
import subprocess
import sys
import sysconfig
import textwrap

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    root = tmp_path_factory.mktemp("wheel")
    assert REPO not in root.parents
    built = subprocess.run(
        [REPO / "scripts" / "build-wheel.sh", "--profile", "dev", "-o", root / "dist"],
        capture_output=True, text=True,
    )
    assert built.returncode == 0, built.stderr
    wheel = pathlib.Path(built.stdout.split()[-1])
    env_dir = root / "env"
    subprocess.run([sys.executable, "-m", "venv", env_dir], check=True)
    python = env_dir / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", wheel], check=True)
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    pathlib.Path(site, "frameworks.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return env_dir, root


def run_in(venv, *scripts, **extra_env):
    """Runs the `scripts` (one after the other) with the fresh environment's python, from a folder
    outside the checkout, with a plain PATH and no polyblocks variables but
    a private cache; returns its stdout."""
    env_dir, root = venv
    work = root / "work"
    work.mkdir(exist_ok=True)
    env = {"HOME": str(root / "home"), "PATH": "/usr/bin:/bin", "POLYBLOCKS_CACHE_DIR": str(root / "cache"), **extra_env}
    result = subprocess.run([env_dir / "bin" / "python", "-c", "".join(map(textwrap.dedent, scripts))], cwd=work, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


CHECK_INSTALL = """
    import json, pathlib, polyblocks.engine as engine
    libomp = [line.split()[-1] for line in open("/proc/self/maps") if "libomp" in line]
    print(json.dumps({"package": polyblocks.__file__, "engine": str(engine.engine_binary()), "libomp": libomp}))
"""


def check_install(venv, out):
    env_dir, _ = venv
    facts = json.loads(out.strip().splitlines()[-1])
    assert facts["package"].startswith(str(env_dir)), facts
    assert facts["engine"] == str(env_dir / "bin" / "pb-compile"), facts
    # The parallel loops ran on the wheel's OpenMP runtime, not LLVM 22's.
    assert facts["libomp"] and all(p.startswith(str(env_dir)) for p in facts["libomp"]), facts
    return facts


def test_jit_torch_compile_and_aot_work_from_the_wheel(venv):
    env_dir, root = venv
    out = run_in(venv, """
        import torch, polyblocks
        from polyblocks import polyblocks_jit_torch, polyblocks_aot_torch

        @polyblocks_jit_torch(compile_options={"target": "cpu"})
        def f(x, w):
            return torch.relu(x @ w) + 1

        x, w = torch.randn(256, 192), torch.randn(192, 320)
        with torch.no_grad():
            torch.testing.assert_close(f(x, w), torch.relu(x @ w) + 1, rtol=1e-4, atol=1e-4)
            # The backend by name, found through the package's entry point.
            g = torch.compile(lambda a: torch.tanh(a) * 2, backend="polyblocks")
            torch.testing.assert_close(g(x), torch.tanh(x) * 2)
            artifact = polyblocks_aot_torch(compile_options={"aot_dir": "aot", "aot_name": "scale"})(lambda a: a * 3 + 1)(
                torch.ones(4, 8))
        print(" ".join(artifact.link_flags))
    """, CHECK_INSTALL)
    check_install(venv, out)
    flags = out.strip().splitlines()[-2].split()
    assert any(f.startswith("-L" + str(env_dir)) for f in flags), flags
    assert not any("llvm-22" in f for f in flags), flags
    # The AOT object links into a C program with the machine's cc and the
    # flags the artifact gives.
    work = root / "work"
    header = (work / "aot" / "scale.h").read_text()
    assert "void scale(" in header, header
    driver = work / "main.c"
    driver.write_text(textwrap.dedent("""
        #include <stdio.h>
        #include "scale.h"
        int main(void) {
          float in[32], out[32];
          for (int i = 0; i < 32; i++) in[i] = (float)i;
          scale(in, out);
          for (int i = 0; i < 32; i++) if (out[i] != 3.0f * i + 1.0f) { printf("bad %d %f\\n", i, out[i]); return 1; }
          return 0;
        }
    """))
    subprocess.run(["cc", "-I", work / "aot", driver, work / "aot" / "scale.o", *flags, "-o", work / "main"], check=True)
    subprocess.run([work / "main"], check=True, env={"PATH": "/usr/bin:/bin"})


def test_jax_front_works_from_the_wheel(venv):
    out = run_in(venv, """
        import jax.numpy as jnp, numpy as np, polyblocks
        from polyblocks import polyblocks_jit_jax

        @polyblocks_jit_jax
        def f(a, b):
            return jnp.maximum(a @ b, 0.0) * 2

        a, b = np.random.rand(128, 96).astype(np.float32), np.random.rand(96, 160).astype(np.float32)
        np.testing.assert_allclose(np.asarray(f(a, b)), np.maximum(a @ b, 0) * 2, rtol=1e-4)
    """, CHECK_INSTALL)
    check_install(venv, out)


def test_a_missing_linker_or_framework_is_a_clear_error(venv):
    env_dir, root = venv
    out = run_in(venv, """
        import numpy as np, polyblocks
        try:
            polyblocks.compile_mlir("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> { return %a : tensor<4xf32> }")
        except polyblocks.CompileError as error:
            print(error)
    """, POLYBLOCKS_CC="no-such-cc")
    assert "POLYBLOCKS_CC names 'no-such-cc'" in out, out
    # Without the frameworks (no .pth to them), a front says what to install.
    bare = root / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", bare], check=True)
    site = subprocess.run([bare / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # The installed package (its folder) and numpy only.
    package = pathlib.Path(subprocess.run([env_dir / "bin" / "python", "-c", "import polyblocks; print(polyblocks.__file__)"],
                                          capture_output=True, text=True, check=True).stdout.strip()).parent
    pathlib.Path(site, "pb.pth").write_text(f"{package.parent}\n")
    frameworks = pathlib.Path(sysconfig.get_path("purelib"))
    for name in ("numpy", "numpy.libs"):
        if (frameworks / name).exists():
            os.symlink(frameworks / name, pathlib.Path(site) / name)
    result = subprocess.run([bare / "bin" / "python", "-c", "import polyblocks; polyblocks.polyblocks_jit_torch"],
                            capture_output=True, text=True, cwd=root, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode != 0
    assert "needs the Python package 'torch'" in result.stderr and "polyblocks[torch]" in result.stderr, result.stderr
