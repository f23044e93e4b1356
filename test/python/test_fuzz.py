"""A seeded slice of the differential fuzzer (test/fuzz): random PyTorch
programs compiled with @polyblocks_jit_torch and compared with eager.

No program may end MISMATCH, CRASH, TIMEOUT, ENGINE_ERROR or INVALID unless
test/fuzz/known_failures.txt lists it with that status; a listed program
that no longer fails that way fails the test too (strict xfail: fixed bugs
leave the list). COMPILE_ERROR (an operator the engine or torch-mlir
rejects) is a coverage gap, not a failure. Listed programs outside the slice
run as well, so every entry is checked.
"""

import pathlib
import sys

import pytest

pytest.importorskip("torch")

FUZZ = pathlib.Path(__file__).resolve().parents[1] / "fuzz"
sys.path.insert(0, str(FUZZ))

import run_fuzz  # noqa: E402

SEED = 0
PROGRAMS = 300  # ~0.3 s each with two workers, plus the listed timeouts
JOBS = 2
TIMEOUT = 20  # seconds per program; a small program compiles in about one


def test_fuzzed_programs_match_eager(tmp_path):
    known = run_fuzz.load_known_failures(FUZZ / "known_failures.txt")
    tasks = [(SEED, i) for i in range(PROGRAMS)]
    tasks += sorted({tuple(map(int, name.split(":"))) for name in known} - set(tasks))
    results = run_fuzz.run_tasks(tasks, JOBS, TIMEOUT, tmp_path, quiet=True)
    problems = []
    for r in results:
        listed = known.get(r.name)
        if r.status in run_fuzz.FAILURES and (listed is None or listed[0] != r.status):
            problems.append(f"{r.name} {r.status}: {r.key} (repro: {r.repro})")
        elif listed is not None and listed[0] != r.status:
            problems.append(f"{r.name} is listed as {listed[0]} ({listed[1]}) but is now {r.status}: remove it")
    assert not problems, "\n".join(problems)
