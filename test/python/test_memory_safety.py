"""Generated code under valgrind and AddressSanitizer, at odd sizes.

Every workload in examples/workloads/ and every program in
test/memcheck/programs/ (PyTorch programs at sizes 1, primes and sizes no
tile divides, imported by the PyTorch front's path: test/memcheck/generate.py)
is compiled AOT three times (owning its memory; with `-aot-user-memory`; for
a target with tiny caches, so that fusion and cache tiling happen at these
sizes) and called from a generated C driver that mallocs every buffer with
its exact size: valgrind (on the object pb-compile wrote, AVX2) and
AddressSanitizer (on the same optimized LLVM IR, instrumented by clang) must
report no invalid read or write, no use of uninitialised memory, no output
byte left unwritten and no definite leak; programs with index inputs run
again with indices far out of range. One test per program and variant.
test/memcheck/memcheck.py does the work; see docs/memory-safety.md.
scripts/memcheck.sh runs many more sizes.
"""

import concurrent.futures
import os
import pathlib
import shutil
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "test" / "memcheck"))

import memcheck  # noqa: E402

PROGRAMS = sorted((REPO / "examples" / "workloads").glob("*.mlir")) + sorted(
    (REPO / "test" / "memcheck" / "programs").glob("*.mlir"))

# (program stem, variant): (why it fails today, text every error must contain).
# Strict: a fix makes the test fail until the entry is removed; an error
# without that text fails it too. docs/memory-safety.md, "Results".
_POOL_REFUSES = "cannot place this allocation in the user memory pool"
KNOWN_FAILURES = {
    ("index_put_1x1x1x0", "pool"): (
        "-aot-user-memory rejects it: with one update the scatter's loops fold away and bufferization "
        "copies the destination inside the scf.if that skips out-of-bounds indices; pb-allocs-to-pool "
        "only pools allocations in the function body ('it is inside a loop', though it is an scf.if)",
        _POOL_REFUSES),
    ("scatter_add_1x1x1", "pool"): (
        "-aot-user-memory rejects it: as index_put_1x1x1x0, a single-update scatter's copy is allocated "
        "inside an scf.if, which pb-allocs-to-pool refuses",
        _POOL_REFUSES),
}


class KnownFailure(AssertionError):
    """The failure KNOWN_FAILURES describes, and no other."""


pytestmark = pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")


def _tools():
    return ("valgrind", "asan") if memcheck.have_asan() else ("valgrind",)


@pytest.fixture(scope="session")
def results(request, tmp_path_factory):
    """{program path: memcheck.check(...)} for the programs this session selected, two at a time."""
    selected = []
    for item in request.session.items:
        params = getattr(item, "callspec", None) and item.callspec.params
        if params and "program" in params and params["program"] not in selected:
            selected.append(params["program"])
    work = tmp_path_factory.mktemp("memcheck")
    tools = _tools()

    def one(path):
        folder = work / f"{path.parent.name}-{path.stem}"
        try:
            found = memcheck.check(path, folder, tools)
        except memcheck.Failure as error:
            return path, {variant: {"build": str(error)} for variant in memcheck.VARIANTS}
        if not any(error for steps in found.values() for error in steps.values()):
            shutil.rmtree(folder, ignore_errors=True)  # ~2 MB each; failures keep theirs
        return path, found

    jobs = int(os.environ.get("MEMCHECK_JOBS", "2"))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        return dict(pool.map(one, selected))


def _cases():
    for path in PROGRAMS:
        for variant in memcheck.VARIANTS:
            known = KNOWN_FAILURES.get((path.stem, variant))
            marks = [pytest.mark.xfail(reason=known[0], strict=True, raises=KnownFailure)] if known else []
            yield pytest.param(path, variant, marks=marks, id=f"{path.parent.name}/{path.stem}-{variant}")


@pytest.mark.parametrize("program,variant", list(_cases()))
def test_no_invalid_access(results, program, variant):
    steps = results[program][variant]
    errors = [f"[{step}] {error}" for step, error in steps.items() if error]
    message = f"{program.relative_to(REPO)} ({variant} variant):\n" + "\n".join(errors)
    known = KNOWN_FAILURES.get((program.stem, variant))
    if errors and known and all(known[1] in error for error in errors):
        raise KnownFailure(message)
    assert not errors, message


def test_known_failures_name_programs():
    stems = {path.stem for path in PROGRAMS}
    assert all(stem in stems for stem, _ in KNOWN_FAILURES), {stem for stem, _ in KNOWN_FAILURES} - stems


def test_asan_runtime_available():
    if not memcheck.have_asan():
        pytest.skip("clang's AddressSanitizer runtime is missing (Debian: libclang-rt-22-dev): "
                    "only valgrind checks the generated code")


def test_checker_catches_an_overflow(tmp_path):
    """The driver's buffers are exact: with the output declared one element short, the generated
    code's store into it is reported by each tool."""
    import subprocess

    program = REPO / "examples" / "workloads" / "matmul_1x1x1.mlir"
    functions = memcheck.compile_variant(program, tmp_path, "own")
    functions[0]["args"][-1]["shape"] = [0]  # output0: 1x1 -> 0 elements: its store is out of bounds
    (tmp_path / "driver.c").write_text(memcheck.driver_source(program, {"own": functions}))
    compile_driver = [memcheck.CLANG, "-O1", "-gdwarf-4", "-I", tmp_path, tmp_path / "driver.c"]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    memcheck._run([*compile_driver, tmp_path / "own_matmul_1x1x1.o", "-fopenmp", "-lm", "-o", tmp_path / "v"], "clang")
    run = subprocess.run(["valgrind", *memcheck.VALGRIND_FLAGS, tmp_path / "v"], capture_output=True, text=True, env=env)
    found = memcheck.attribute(run.stderr, run.returncode, {"own": functions}, memcheck.valgrind_errors)
    assert found["own"] and "Invalid write" in found["own"], run.stderr[-2000:]
    if memcheck.have_asan():
        ll = tmp_path / "asan.ll"
        ll.write_text(memcheck.sanitize_ir((tmp_path / "own_matmul_1x1x1.ll").read_text()))
        memcheck._run([memcheck.CLANG, "-O1", "-fsanitize=address", "-c", ll, "-o", tmp_path / "asan.o"], "clang")
        memcheck._run([*compile_driver, tmp_path / "asan.o", "-fsanitize=address", "-fopenmp", "-lm", "-o",
                       tmp_path / "a"], "clang")
        run = subprocess.run([tmp_path / "a"], capture_output=True, text=True, env=env)
        found = memcheck.attribute(run.stderr, run.returncode, {"own": functions}, memcheck.asan_errors)
        assert found["own"] and "heap-buffer-overflow" in found["own"], run.stderr[-2000:]


def test_checker_catches_an_unwritten_output(tmp_path):
    """With the output declared one element longer than the code writes, memcheck reports its
    undefined bytes: an output element generated code forgot would be found the same way."""
    import subprocess

    program = REPO / "examples" / "workloads" / "matmul_1x1x1.mlir"
    functions = memcheck.compile_variant(program, tmp_path, "own")
    functions[0]["args"][-1]["shape"] = [2]  # output0: 1x1 -> 2 elements: the second is never written
    (tmp_path / "driver.c").write_text(memcheck.driver_source(program, {"own": functions}))
    memcheck._run([memcheck.CLANG, "-O1", "-gdwarf-4", "-I", tmp_path, tmp_path / "driver.c",
                   tmp_path / "own_matmul_1x1x1.o", "-fopenmp", "-lm", "-o", tmp_path / "v"], "clang")
    run = subprocess.run(["valgrind", *memcheck.VALGRIND_FLAGS, tmp_path / "v"], capture_output=True, text=True,
                         env={**os.environ, "OMP_NUM_THREADS": "1"})
    found = memcheck.attribute(run.stderr, run.returncode, {"own": functions}, memcheck.valgrind_errors)
    assert found["own"] and "Uninitialised byte(s) found during client check request" in found["own"], run.stderr
    assert "output0 (memref<1x1xf32>) has undefined bytes" in run.stderr
