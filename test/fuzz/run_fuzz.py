"""Differential fuzzing: random PyTorch programs (gen.py), each compiled with
`polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})`
under `torch.no_grad()` and compared with eager PyTorch.

    .venv/bin/python test/fuzz/run_fuzz.py --seed 0 --programs 500 [--jobs 2] [--out DIR] [--minimize]

Programs run in worker processes (`--worker`), one at a time each; a worker
reports every result before it gets the next program, so a worker that dies
costs one program (CRASH) and is restarted, and one that does not answer
within `--timeout` seconds is killed with its children (TIMEOUT).

Statuses:
  PASS          same dtypes, shapes and values (floats within a tolerance
                scaled to the program's least precise float dtype and its
                longest reduction; NaN at the same places; ints and bools
                exact); inputs left as eager leaves them.
  MISMATCH      anything else.
  CRASH         the worker died (signal or exit).
  TIMEOUT       no result in time.
  COMPILE_ERROR the engine or torch-mlir rejected an operator (a coverage
                gap, counted by operator).
  ENGINE_ERROR  compilation failed otherwise: pb-compile crashed, a pass
                failed on valid input, a Python error in the front.
  INVALID       eager PyTorch rejected the program (a generator bug).

Every MISMATCH, CRASH, TIMEOUT and ENGINE_ERROR is written to `--out` as a
standalone script (`.venv/bin/python FILE` prints eager against compiled),
after minimization with `--minimize` (statements deleted while the program
still fails the same way).
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import inspect
import json
import math
import os
import pathlib
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
FAILURES = ("MISMATCH", "CRASH", "TIMEOUT", "ENGINE_ERROR", "INVALID")
COMPILE_OPTIONS = {"target": "cpu", "fallback": False}
TOLERANCES = {"float16": (1e-2, 1e-2), "float32": (1e-4, 1e-5), "float64": (1e-7, 1e-9)}
PROGRAMS_PER_WORKER = 200  # a fresh worker now and then: loaded libraries pile up
STARTUP_TIMEOUT = 120
MINIMIZED_PER_KIND = 3  # failing programs minimized per (status, key); MISMATCH: all


def tolerance(lowest_float: str, longest_reduction: int) -> tuple[float, float]:
    """(rtol, atol) for a program: by its least precise float dtype, looser
    by sqrt(n / 16) for reductions of n > 16 terms (atol is further scaled
    by each output's magnitude in `compare`)."""
    rtol, atol = TOLERANCES[lowest_float]
    scale = max(1.0, math.sqrt(longest_reduction / 16))
    return rtol * scale, atol * scale


def compare(expected, actual, eager_inputs, compiled_inputs, rtol, atol):
    """None if `actual` (and the inputs after the compiled call) match eager,
    else what differs first."""
    import torch

    if len(actual) != len(expected):
        return f"compiled returned {len(actual)} values, eager {len(expected)}"
    pairs = [(f"output {i}", e, a) for i, (e, a) in enumerate(zip(expected, actual))]
    pairs += [(f"input x{i} after the call", e, a) for i, (e, a) in enumerate(zip(eager_inputs, compiled_inputs))]
    for what, e, a in pairs:
        if not isinstance(a, torch.Tensor):
            return f"{what}: compiled returned {type(a).__name__}"
        if a.dtype != e.dtype or a.shape != e.shape:
            return f"{what}: compiled {a.dtype}{list(a.shape)}, eager {e.dtype}{list(e.shape)}"
        if e.is_floating_point():
            e64, a64 = e.double(), a.double()
            nan = torch.isnan(e64)
            if not torch.equal(nan, torch.isnan(a64)):
                return f"{what}: NaN at other places (eager {int(nan.sum())}, compiled {int(torch.isnan(a64).sum())})"
            values = e64[~nan]
            scale = max(1.0, float(values.abs().max())) if values.numel() else 1.0
            close = (e64 == a64) | ((a64 - e64).abs() <= atol * scale + rtol * e64.abs())
            bad = ~nan & ~close
        else:
            bad = e != a
        if bad.any():
            first = tuple(int(i) for i in bad.nonzero()[0])
            return (
                f"{what} ({e.dtype}{list(e.shape)}): {int(bad.sum())} of {e.numel()} elements differ; "
                f"at {list(first)} eager {e[first].item()!r}, compiled {a[first].item()!r}"
            )
    return None


# ---- the worker -----------------------------------------------------------

_UNSUPPORTED = (
    re.compile(r"unsupported op '([\w.]+)'"),
    re.compile(r"custom op '([\w.]+)'"),
    re.compile(r"name = \"torch\.(aten\.[\w.]+)\""),
    re.compile(r"failed to legalize operation 'torch\.(aten\.[\w.]+)'"),
)


def classify(error: BaseException, program) -> tuple[str, str, str]:
    """(status, key, detail) of a compile-time exception: COMPILE_ERROR keyed
    by the operator rejected, else ENGINE_ERROR keyed by its first error."""
    chain, seen = [], error
    while seen is not None and len(chain) < 8:
        chain.append(f"{type(seen).__name__}: {seen}")
        seen = seen.__cause__ or seen.__context__
    text = "\n".join(chain)
    detail = text[:6000]
    if "pb-compile crashed" in text:
        signal_name = re.search(r"pb-compile crashed \((\w+)\)", text).group(1)
        return "ENGINE_ERROR", f"pb-compile crashed ({signal_name})", detail
    for pattern in _UNSUPPORTED:
        match = pattern.search(text)
        if match:
            return "COMPILE_ERROR", match.group(1), detail
    if "torch-mlir" in text:
        # torch-mlir failed on something other than a named operator (a
        # constant it could not convert): name the statement it came from.
        located = re.search(r'loc\("<fuzz [\d:]+>":(\d+)', text)
        if located:
            line = program.source().splitlines()[int(located.group(1)) - 1]
            call = re.search(r"= (?:torch\.nn\.functional\.|torch\.)(\w+)|\.(\w+)\(", line)
            return "COMPILE_ERROR", f"{(call.group(1) or call.group(2)) if call else line.strip()} (torch-mlir)", detail
        what = re.search(r"failed to legalize operation '([\w.]+)'|torch-mlir crashed \((\w+)\)", text)
        return "COMPILE_ERROR", f"torch-mlir: {what.group(0) if what else 'failed'}", detail
    errors = [line for line in text.splitlines() if "error:" in line and "stage failed" not in line]
    stage = re.search(r"the '(\w+)' stage failed", text)
    first = re.sub(r"^.*?error: ", "", errors[0].strip()) if errors else chain[-1].splitlines()[0]
    key = (f"{stage.group(1)} stage: " if stage else "") + re.sub(r"\d+", "N", first)
    return "ENGINE_ERROR", key[:120], detail


def evaluate(program) -> dict:
    """Runs `program` eagerly and compiled; the result record."""
    import torch
    from torch._dynamo.utils import counters

    import polyblocks

    rtol, atol = tolerance(program.lowest_float, program.longest_reduction)
    eager_inputs = program.make_inputs()
    with torch.no_grad():
        try:
            expected = program.function()(*eager_inputs)
        except Exception as error:  # noqa: BLE001 - reported
            return {"status": "INVALID", "key": type(error).__name__, "detail": str(error)[:2000]}
        torch._dynamo.reset()
        counters.clear()
        compiled_inputs = program.make_inputs()
        try:
            compiled = polyblocks.polyblocks_jit_torch(compile_options=COMPILE_OPTIONS)(program.function())
            actual = compiled(*compiled_inputs)
        except Exception as error:  # noqa: BLE001 - classified
            status, key, detail = classify(error, program)
            return {"status": status, "key": key, "detail": detail}
    breaks = sum(counters["graph_break"].values())
    problem = compare(expected, actual, eager_inputs, compiled_inputs, rtol, atol)
    if problem:
        return {"status": "MISMATCH", "key": "wrong values", "detail": problem, "graph_breaks": breaks}
    return {"status": "PASS", "key": "", "detail": "", "graph_breaks": breaks}


def worker_main() -> None:
    """Reads one task (JSON) per line from stdin, writes one result per line.
    Results go to the original stdout; everything else printed goes to
    stderr (the parent's log file), where faulthandler also writes."""
    import ctypes
    import faulthandler
    import warnings

    ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: end with the parent
    results = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    faulthandler.enable()
    warnings.simplefilter("ignore")
    sys.path.insert(0, str(HERE))
    import torch

    import gen
    import polyblocks  # noqa: F401 - loads the front before the first program

    torch.set_num_threads(1)
    print("ready", file=results)
    for line in sys.stdin:
        task = json.loads(line)
        if "program" in task:
            program = gen.Program.from_json(task["program"])
        else:
            program = gen.generate(task["seed"], task["index"])
        started = time.perf_counter()
        print(f"== {program.name}", file=sys.stderr, flush=True)
        result = evaluate(program)
        result["seconds"] = round(time.perf_counter() - started, 3)
        print(json.dumps(result), file=results)


class Worker:
    """The parent's handle on one worker process (restarted as needed)."""

    def __init__(self, log_path: pathlib.Path, cache_dir: str):
        self.log_path = log_path
        self.env = {**os.environ, "POLYBLOCKS_CACHE_DIR": cache_dir, "PYTHONUNBUFFERED": "1"}
        self.process = None
        self.served = 0
        self.buffer = b""

    def start(self):
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, str(pathlib.Path(__file__).resolve()), "--worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                env=self.env,
                start_new_session=True,  # its own process group: killed with its children
            )
        self.buffer = b""
        self.served = 0
        if self._read_line(STARTUP_TIMEOUT) != "ready":
            tail = self._log_tail(0)
            self.stop()
            raise RuntimeError(f"fuzz worker did not start; its log ends with:\n{tail}")

    def stop(self):
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()
            self.process = None

    def run(self, task: dict, timeout: float) -> dict:
        if self.process is None or self.served >= PROGRAMS_PER_WORKER:
            self.stop()
            self.start()
        self.served += 1
        offset = self.log_path.stat().st_size
        try:
            self.process.stdin.write((json.dumps(task) + "\n").encode())
            self.process.stdin.flush()
        except BrokenPipeError:
            pass
        line = self._read_line(timeout)
        if line is None:
            self.stop()
            return {"status": "TIMEOUT", "key": f"no result in {timeout:g} s", "detail": self._log_tail(offset)}
        if line == "":
            code = self.process.wait()
            self.stop()
            how = signal.Signals(-code).name if code < 0 else f"exit status {code}"
            return {"status": "CRASH", "key": f"worker died ({how})", "detail": self._log_tail(offset)}
        return json.loads(line)

    def _read_line(self, timeout: float) -> str | None:
        """The next line from the worker; "" at its end, None on timeout."""
        deadline = time.monotonic() + timeout
        fd = self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return ""
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()

    def _log_tail(self, offset: int) -> str:
        with open(self.log_path, "rb") as log:
            log.seek(offset)
            return log.read().decode(errors="replace")[-4000:]


# ---- the parent -----------------------------------------------------------


@dataclasses.dataclass
class Result:
    seed: int
    index: int
    status: str
    key: str
    detail: str
    seconds: float = 0.0
    graph_breaks: int = 0
    repro: str = ""

    @property
    def name(self) -> str:
        return f"{self.seed}:{self.index}"


def on_workers(items: list, jobs: int, work_dir: pathlib.Path, handle) -> None:
    """Calls `handle(worker, item)` for every item, on `jobs` threads with a
    worker process each."""
    queue = collections.deque(items)
    lock = threading.Lock()

    def drive(job: int):
        worker = Worker(work_dir / f"worker{job}.log", str(work_dir / "cache"))
        try:
            while True:
                with lock:
                    if not queue:
                        return
                    item = queue.popleft()
                handle(worker, item)
        finally:
            worker.stop()

    threads = [threading.Thread(target=drive, args=(job,)) for job in range(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def minimize(program, result: Result, worker: Worker, timeout: float, budget: int = 150):
    """A smaller program failing like `result`: outputs dropped, then
    statements deleted (their uses replaced by an operand or a new input of
    the same shape and dtype) while the status and key stay the same."""
    import gen

    trials = [0]

    def still_fails(candidate) -> bool:
        if trials[0] >= budget:
            return False
        trials[0] += 1
        record = worker.run({"program": candidate.to_json()}, timeout)
        return record["status"] == result.status and (result.status == "MISMATCH" or record["key"] == result.key)

    best = program
    changed = True
    while changed and trials[0] < budget:
        changed = False
        for candidate in gen.smaller_programs(best):
            if still_fails(candidate):
                best, changed = candidate, True
                break
    return best


REPRO_MAIN = '''
if __name__ == "__main__":
    os.environ.setdefault("POLYBLOCKS_CACHE_DIR", tempfile.mkdtemp(prefix="fuzz-repro-"))
    import polyblocks

    eager_inputs, compiled_inputs = make_inputs(), make_inputs()
    with torch.no_grad():
        expected = f(*eager_inputs)
        compiled = polyblocks.polyblocks_jit_torch(compile_options=COMPILE_OPTIONS)(f)
        actual = compiled(*compiled_inputs)
    for i, (e, a) in enumerate(zip(expected, actual)):
        print(f"output {i}: eager {e.dtype}{list(e.shape)}\\n{e}\\ncompiled {a.dtype}{list(a.shape)}\\n{a}\\n")
    problem = compare(expected, actual, eager_inputs, compiled_inputs, RTOL, ATOL)
    print(problem or "compiled matches eager")
    sys.exit(1 if problem else 0)
'''


def repro_script(program, result: Result, original) -> str:
    """A standalone script for `program`: eager against compiled."""
    rtol, atol = tolerance(program.lowest_float, program.longest_reduction)
    header = [
        f'r"""Fuzz repro: program {result.name} ({result.status}: {result.key}).',
        "",
        f"Found by test/fuzz/run_fuzz.py --seed {result.seed} --start {result.index} --programs 1.",
        "Run: .venv/bin/python THIS_FILE (exit status 1: compiled differs from eager).",
        "",
        *[line.replace('"""', "'''") for line in result.detail.strip().splitlines()[:12]],
    ]
    if original.source() != program.source():
        header += ["", "Before minimization:", "", *original.source().splitlines()]
    return "\n".join(
        [
            *header,
            '"""',
            "",
            "import os",
            "import sys",
            "import tempfile",
            "",
            "import torch",
            "",
            f"COMPILE_OPTIONS = {COMPILE_OPTIONS!r}",
            f"RTOL, ATOL = {rtol!r}, {atol!r}",
            "",
            "",
            program.inputs_source(),
            "",
            program.source(),
            "",
            inspect.getsource(compare),
            REPRO_MAIN,
        ]
    )


def summarize(results: list, elapsed: float, jobs: int) -> str:
    """A Markdown summary: counts, failures by kind, coverage gaps by operator."""
    counts = collections.Counter(r.status for r in results)
    seeds = sorted({r.seed for r in results})
    first, last = min(r.index for r in results), max(r.index for r in results)
    lines = [
        f"Seed {', '.join(map(str, seeds))}, programs {first}..{last} ({len(results)}), {jobs} job(s), "
        f"{elapsed:.0f} s wall, {sum(r.seconds for r in results) / max(1, len(results)):.2f} s per program "
        f"in the worker.",
        "",
        "| status | programs |",
        "|---|---|",
        *[f"| {status} | {counts[status]} |" for status in ("PASS", "COMPILE_ERROR", *FAILURES) if counts[status]],
        "",
    ]
    breaks = sum(1 for r in results if r.graph_breaks)
    if breaks:
        lines += [f"Programs with graph breaks (part ran eagerly): {breaks}.", ""]
    failures = [r for r in results if r.status in FAILURES]
    if failures:
        lines += ["| program | status | what | repro |", "|---|---|---|---|"]
        for r in failures:
            what = (r.detail if r.status == "MISMATCH" else r.key).replace("|", "\\|").replace("\n", " ")[:160]
            lines.append(f"| {r.name} | {r.status} | {what} | {r.repro} |")
        lines.append("")
    gaps = collections.Counter(r.key for r in results if r.status == "COMPILE_ERROR")
    if gaps:
        lines += ["| operator rejected (COMPILE_ERROR) | programs |", "|---|---|"]
        lines += [f"| `{op}` | {n} |" for op, n in gaps.most_common()]
        lines.append("")
    return "\n".join(lines)


def load_known_failures(path: pathlib.Path) -> dict:
    """`seed:index` -> reason, from lines `seed:index STATUS reason` (# comments)."""
    known = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, status, *reason = line.split(None, 2)
            known[name] = (status, reason[0] if reason else "")
    return known


def run_tasks(tasks: list, jobs: int, timeout: float, out: pathlib.Path | None, do_minimize: bool = False,
              quiet: bool = False) -> list:
    """Runs `tasks` ((seed, index) pairs); with `out`, writes a repro per
    failure (minimized if asked), results.jsonl and summary.md there."""
    sys.path.insert(0, str(HERE))
    import gen

    work_dir = pathlib.Path(tempfile.mkdtemp(prefix="polyblocks-fuzz-"))
    started = time.monotonic()
    results = [None] * len(tasks)
    lock = threading.Lock()

    def run_one(worker, item):
        position, (seed, index) = item
        results[position] = Result(seed, index, **worker.run({"seed": seed, "index": index}, timeout))
        with lock:
            done = sum(r is not None for r in results)
            if not quiet and (done % 25 == 0 or done == len(tasks)):
                counts = collections.Counter(r.status for r in results if r is not None)
                print(f"[{done}/{len(tasks)}, {time.monotonic() - started:.0f} s] {dict(counts)}", flush=True)

    # Minimizing takes tens of runs: all mismatches, the first few of each other kind.
    shrunk = collections.Counter()

    def save_repro(worker, r):
        with lock:
            shrunk[r.status, r.key] += 1
            shrink = do_minimize and (r.status == "MISMATCH" or shrunk[r.status, r.key] <= MINIMIZED_PER_KIND)
        original = gen.generate(r.seed, r.index)
        small = minimize(original, r, worker, min(timeout, 30)) if shrink else original
        path = out / f"{r.status.lower()}_{r.seed}_{r.index}.py"
        path.write_text(repro_script(small, r, original))
        r.repro = str(path)

    try:
        on_workers(list(enumerate(tasks)), jobs, work_dir, run_one)
        failures = [r for r in results if r.status in FAILURES]
        if out is not None and failures:
            out.mkdir(parents=True, exist_ok=True)
            on_workers(failures, jobs, work_dir, save_repro)
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        with open(out / "results.jsonl", "w") as f:
            for r in results:
                f.write(json.dumps(dataclasses.asdict(r)) + "\n")
        (out / "summary.md").write_text(summarize(results, time.monotonic() - started, jobs))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=int, default=0, help="index of the first program")
    parser.add_argument("--programs", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60, help="seconds per program")
    parser.add_argument("--out", type=pathlib.Path, default=None, help="repros, results.jsonl and summary.md")
    parser.add_argument("--minimize", action="store_true", help="shrink failing programs before saving them")
    args = parser.parse_args()
    if args.worker:
        worker_main()
        return 0
    out = args.out or pathlib.Path(tempfile.gettempdir()) / f"polyblocks-fuzz-seed{args.seed}"
    started = time.monotonic()
    tasks = [(args.seed, args.start + i) for i in range(args.programs)]
    results = run_tasks(tasks, args.jobs, args.timeout, out, args.minimize)
    print(summarize(results, time.monotonic() - started, args.jobs))
    print(f"results in {out}")
    return 1 if any(r.status in FAILURES for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
