"""torch-mlir's end-to-end suite through the PyTorch front: the fast subset.

`test/e2e/run_suite.py --subset fast` runs the cases of
`test/e2e/fast_subset.txt` in one worker process; each must end with the
status `test/e2e/expected.txt` gives it. Known bugs are listed there as
`xfail:MISMATCH` or `xfail:CRASH` with a reason; the check is strict, so a
fixed bug fails this test until its line is updated (the xfail list only
shrinks on purpose). See test/e2e/README.md.
"""

import json
import pathlib
import subprocess
import sys

E2E = pathlib.Path(__file__).resolve().parents[2] / "test" / "e2e"
KNOWN_BUGS = ("xfail:MISMATCH", "xfail:CRASH")


def expectations() -> dict:
    """Case name -> (expected status, reason), from expected.txt."""
    table = {}
    for line in (E2E / "expected.txt").read_text().splitlines():
        words = line.split("#", 1)[0].split(None, 2)
        if words:
            name, status, reason = (words + [""])[:3]
            assert status == "PASS" or status in KNOWN_BUGS, f"expected.txt: bad status {status!r} for {name}"
            assert status == "PASS" or reason, f"expected.txt: {name} is {status} without a reason"
            table[name] = (status, reason)
    return table


def test_fast_subset_matches_expectations(tmp_path):
    expected = expectations()
    subset = [line.split("#", 1)[0].strip() for line in (E2E / "fast_subset.txt").read_text().splitlines()]
    assert sorted(expected) == sorted(filter(None, subset)), "expected.txt and fast_subset.txt list different cases"

    out = tmp_path / "results.json"
    run = subprocess.run(
        [sys.executable, str(E2E / "run_suite.py"), "--subset", "fast", "--jobs", "1", "--out", str(out)],
        capture_output=True, text=True, timeout=280, check=False,
    )
    assert run.returncode == 0 and out.exists(), f"run_suite.py failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    results = json.loads(out.read_text())["results"]

    problems = []
    for name, (status, reason) in sorted(expected.items()):
        actual = results[name]["status"]
        detail = results[name].get("detail", "")
        if status in KNOWN_BUGS and actual == "PASS":
            problems.append(f"{name}: the known bug ({reason}) is fixed, it passes: mark it PASS in expected.txt")
        elif actual != status.removeprefix("xfail:"):
            problems.append(f"{name}: {actual} ({detail}), expected {status}")
    assert not problems, "\n".join(problems)
