"""AOT artifacts from pb-compile, used from C: the object and header link
into a C program whose results are checked, with and without the user
memory pool, and under valgrind (no invalid access, no definite leak)."""

import pathlib
import re
import shutil
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
CLANG = "/usr/lib/llvm-22/bin/clang"


def pb_compile(*args):
    subprocess.run([str(REPO / "target" / "debug" / "pb-compile"), *map(str, args)], check=True, capture_output=True)


def build(tmp_path, user_memory, cpu=None, extra=()):
    flags = ["-aot", "-aot-name", "blur", "-o", tmp_path, *extra] + (["-aot-user-memory"] if user_memory else [])
    flags += [f"--cpu={cpu}"] if cpu else []
    pb_compile(REPO / "examples" / "workloads" / "blur_x_blur_y.mlir", *flags)
    header = (tmp_path / "blur.h").read_text()
    defines = []
    if user_memory:
        pool = int(re.search(r"Requires (\d+) bytes", header).group(1))
        assert pool >= 3 * 37 * 37 * 4, "the intermediate blur must live in the pool"
        defines = ["-DUSER_MEMORY", f"-DBLUR_POOL_BYTES={pool}"]
    exe = tmp_path / "driver"
    subprocess.run(
        [CLANG, "-O1", "-gdwarf-4", *defines, "-I", tmp_path, REPO / "test" / "aot" / "blur_driver.c", tmp_path / "blur.o",
         "-fopenmp", "-lm", "-o", exe],
        check=True,
    )
    return exe, header


@pytest.mark.parametrize("user_memory", [False, True], ids=["own-memory", "user-memory"])
def test_c_program_gets_correct_results(tmp_path, user_memory):
    exe, header = build(tmp_path, user_memory)
    expected = "int8_t *user_memory" if user_memory else "float *output0);"
    assert expected in header
    assert "Type/shape of input0 is memref<3x37x41xf32>." in header
    result = subprocess.run([exe], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_user_memory_object_allocates_nothing(tmp_path):
    build(tmp_path, True)
    undefined = subprocess.run(["/usr/lib/llvm-22/bin/llvm-nm", "--undefined-only", tmp_path / "blur.o"],
                               capture_output=True, text=True, check=True).stdout
    assert "malloc" not in undefined and "free" not in undefined, undefined
    # Without a pool and without fusion the intermediate is heap-allocated
    # (fused, it becomes a stack buffer: see test_fused_object_allocates_nothing).
    build(tmp_path / "own", False, extra=["--no-fuse"])
    undefined = subprocess.run(["/usr/lib/llvm-22/bin/llvm-nm", "--undefined-only", tmp_path / "own" / "blur.o"],
                               capture_output=True, text=True, check=True).stdout
    assert "malloc" in undefined, "without a pool the intermediate is heap-allocated"


def test_fused_object_allocates_nothing(tmp_path):
    # pb-fuse contracts the blur's intermediate into a tile-local (stack)
    # buffer where the model says it pays: with a 64 KiB L2 a 3x131x127 image
    # no longer fits in cache.
    pb_compile(REPO / "examples" / "workloads" / "blur_x_blur_y_odd.mlir", "-aot", "-aot-name", "blur", "-o", tmp_path,
               "--target=l2=64K")
    undefined = subprocess.run(["/usr/lib/llvm-22/bin/llvm-nm", "--undefined-only", tmp_path / "blur.o"],
                               capture_output=True, text=True, check=True).stdout
    assert "malloc" not in undefined, undefined


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
@pytest.mark.parametrize("user_memory", [False, True], ids=["own-memory", "user-memory"])
def test_runs_clean_under_valgrind(tmp_path, user_memory):
    # Valgrind 3.19 does not decode AVX-512: generate AVX2 code for this run.
    exe, _ = build(tmp_path, user_memory, cpu="x86-64-v3")
    result = subprocess.run(
        ["valgrind", "--error-exitcode=3", "--leak-check=full", "--errors-for-leak-kinds=definite", exe],
        capture_output=True, text=True, env={"OMP_NUM_THREADS": "2"},
    )
    assert result.returncode == 0, result.stderr[-3000:]




def test_static_weight_is_kept_in_the_callers_memory(tmp_path):
    """`--static-args` with `-aot-user-memory`: the header names the
    prepared flag's offset, and a C program sees the weight packed once,
    kept while unannounced changes happen, and packed again after it zeroes
    the flag."""
    source = REPO / "test" / "aot" / "linear.mlir"
    pb_compile(source, "-aot", "-aot-name", "linear", "-aot-user-memory", "--static-args=1", "-o", tmp_path)
    header = (tmp_path / "linear.h").read_text()
    assert "#define LINEAR_PREPARED_FLAG_OFFSET 0" in header, header
    pool = int(re.search(r"Requires (\d+) bytes", header).group(1))
    assert pool >= 96 * 70 * 4, "the packed weight lives in the caller's memory"
    exe = tmp_path / "driver"
    subprocess.run(
        [CLANG, "-O1", f"-DLINEAR_POOL_BYTES={pool}", "-I", tmp_path, REPO / "test" / "aot" / "linear_driver.c", tmp_path / "linear.o",
         "-fopenmp", "-lm", "-o", exe],
        check=True,
    )
    result = subprocess.run([exe], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
