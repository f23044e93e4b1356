#!/usr/bin/env python3
"""Runs torch-mlir's end-to-end test suite through the polyblocks PyTorch front.

For each case of the vendored suite (`torch_mlir_e2e_test/`, see README.md),
as torch-mlir's own framework does: the golden trace is recorded in eager
PyTorch (`generate_golden_trace`: the case's invoker calls a fresh module
through a tracing wrapper that clones each call's inputs); then another fresh
module from the case's factory is compiled with
`polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": ...})`
and every recorded call is replayed on it with clones of the same inputs.
Both run under `torch.no_grad()` (the suite is inference), each after
`torch.manual_seed(0)` so that modules with random weights are the same
twice; TorchDynamo and the front's per-process memos are reset for each
case. Outputs are compared by the rules of torch-mlir's `reporting.py`
(`ValueReport`), except that integer and boolean tensors must be equal.
A COMPILE_ERROR names the operators the front's fallback would run in
PyTorch (it compiles each operator alone to find them), else the operator
the error message names. The statuses are listed in `STATUSES`.

Cases run in worker processes (`--jobs` of them), one case at a time; each
result comes back over a pipe before the next case starts. A worker killed
by a signal costs only the case it was on (CRASH), a case past its time limit
is killed with its worker (TIMEOUT), and a fresh worker goes on with the
rest. Each run compiles into a fresh `POLYBLOCKS_CACHE_DIR`.

    .venv/bin/python test/e2e/run_suite.py [--filter REGEX] [--subset fast]
        [--jobs N] [--fallback] [--timeout S] [--out results.json]
        [--summary-md PATH] [--list]
"""

from __future__ import annotations

import argparse
import collections
import datetime
import faulthandler
import json
import os
import pathlib
import platform
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[1]
SUITE_COMMIT = "0029fc2e102c6d604696b33eb618116b4957a2e3"

STATUSES = {
    "PASS": "outputs match; every graph was compiled by the engine",
    "PASS_WITH_FALLBACK": "outputs match; some operators ran in PyTorch (`--fallback`)",
    "PASS_EAGER": "outputs match, but TorchDynamo ran part or all of the program in eager "
    "PyTorch (a graph break, or no tensor graph at all): the engine did not compile all of it",
    "MISMATCH": "compiled outputs differ from eager PyTorch (values, dtype or shape)",
    "COMPILE_ERROR": "the front or the engine could not compile a graph (the operator is named)",
    "RUNTIME_ERROR": "calling the compiled program raised an exception",
    "CRASH": "the worker process died (a signal or an abnormal exit)",
    "TIMEOUT": "past the per-case time limit while compiling or running the compiled program",
    "FRONT_ERROR": "failed before reaching polyblocks: in eager PyTorch or in TorchDynamo's tracing",
}
FAILURES = ("MISMATCH", "CRASH", "TIMEOUT", "RUNTIME_ERROR")
WORKER_START_LIMIT = 300  # seconds for a worker to import torch, torch-mlir and the suite


def load_tests() -> dict:
    """Registers the suite; returns its tests by name."""
    sys.path.insert(0, str(HERE))
    from torch_mlir_e2e_test.registry import GLOBAL_TEST_REGISTRY
    from torch_mlir_e2e_test.test_suite import register_all_tests

    register_all_tests()
    return {test.unique_name: test for test in GLOBAL_TEST_REGISTRY}


# ---------------------------------------------------------------- comparison


def compare(value, golden, where: str = "output") -> list[str]:
    """How `value` differs from `golden` (empty if it matches), by the rules
    of torch-mlir's `ValueReport`: a 1-tuple stands for its element; float
    scalars within a relative 1e-4; other scalars, and tuple/list/dict
    structure, equal; tensors of the same shape and dtype, floating ones
    `allclose(rtol=1e-3, atol=1e-7, equal_nan=True)`, others equal."""
    import torch

    if isinstance(value, tuple) and len(value) == 1:
        value = value[0]
    if isinstance(golden, tuple) and len(golden) == 1:
        golden = golden[0]
    if isinstance(golden, float):
        if not isinstance(value, float):
            return [f"{where}: a {type(value).__name__}, expected a float"]
        if abs(value - golden) > 1e-4 * abs(golden):
            return [f"{where}: {value!r}, expected {golden!r}"]
        return []
    if isinstance(golden, (int, str)):
        if type(value) is not type(golden) or value != golden:
            return [f"{where}: {value!r}, expected {golden!r}"]
        return []
    if isinstance(golden, (tuple, list, dict)):
        if type(value) is not type(golden):
            return [f"{where}: a {type(value).__name__}, expected a {type(golden).__name__}"]
        if isinstance(golden, dict):
            if sorted(value) != sorted(golden):
                return [f"{where}: keys {sorted(value)}, expected {sorted(golden)}"]
            pairs = [(value[k], golden[k], f"{where}[{k!r}]") for k in sorted(golden)]
        else:
            if len(value) != len(golden):
                return [f"{where}: {len(value)} elements, expected {len(golden)}"]
            pairs = [(v, g, f"{where}[{i}]") for i, (v, g) in enumerate(zip(value, golden))]
        return [difference for v, g, w in pairs for difference in compare(v, g, w)]
    if isinstance(golden, torch.Tensor):
        if not isinstance(value, torch.Tensor):
            return [f"{where}: a {type(value).__name__}, expected a tensor"]
        if value.shape != golden.shape:
            return [f"{where}: shape {tuple(value.shape)}, expected {tuple(golden.shape)}"]
        if value.dtype != golden.dtype:
            return [f"{where}: dtype {value.dtype}, expected {golden.dtype}"]
        difference = _tensor_difference(value, golden)
        return [f"{where}: {difference}"] if difference else []
    return [f"{where}: unexpected golden value of type {type(golden).__name__}"]


def _tensor_difference(value, golden) -> str | None:
    """None if two tensors of one shape and dtype match (floating ones
    `allclose(rtol=1e-3, atol=1e-7, equal_nan=True)`, half precision
    compared in float32: the same values, faster; others equal), else how
    many elements differ, the largest error and the element furthest past
    the tolerance."""
    import torch

    if golden.is_floating_point() or golden.is_complex():
        v, g = (value, golden) if golden.element_size() > 2 else (value.float(), golden.float())
        if torch.allclose(v, g, rtol=1e-3, atol=1e-7, equal_nan=True):
            return None
        same = (v == g) | (v.isnan() & g.isnan())  # equal_nan; an infinity against itself
        error = (v - g).abs().masked_fill(same, 0).nan_to_num(nan=float("inf"), posinf=float("inf"))
        # > 1 where allclose fails (infinite for an infinity against another value)
        excess = (error / (1e-7 + 1e-3 * g.abs())).nan_to_num(nan=float("inf"), posinf=float("inf"))
        excess = excess.masked_fill(same, 0)
        wrong = int((excess > 1).sum())
    else:
        if torch.equal(value, golden):
            return None
        error = excess = (value.to(torch.float64) - golden.to(torch.float64)).abs()
        wrong = int((value != golden).sum())
    worst = int(excess.flatten().argmax())
    index = tuple(int(i) for i in torch.unravel_index(torch.tensor(worst), golden.shape)) if golden.dim() else ()
    return (
        f"{wrong} of {golden.numel()} elements differ ({golden.dtype}), max abs error {float(error.max()):.4g}; "
        f"worst at {list(index)}: got {value[index].item()!r}, expected {golden[index].item()!r}"
    )


# ------------------------------------------------------------------- worker


def _error_line(error: BaseException) -> str:
    """The line of an exception's message that says what went wrong: the
    engine's first `error:`, else torch-mlir's first diagnostic (the last
    one when its lowering crashed: those come last), else the first line;
    with temporary paths removed and source locations shortened."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    errors = [x for x in lines if "error:" in x and "stage failed" not in x and "invalid input" not in x]
    diagnostics = [x for x in lines if x.startswith("loc(")]
    if errors:
        line = errors[0]
    elif diagnostics:
        line = diagnostics[-1] if lines[0].startswith("torch-mlir crashed") else diagnostics[0]
    else:
        line = lines[0] if lines else ""
    line = re.sub(r"\S*/module\.mlir:\d+:\d+:\s*|loc\(unknown\):\s*", "", line)
    line = re.sub(r"/\S*/(lib\w+\.so)", r"\1", line)
    line = re.sub(r'loc\("(?:[^"]*/)?([^"/]+)":(\d+):\d+\):', r"\1:\2:", line)
    return f"{type(error).__name__}: {line}"[:300]


# Where the front's and the engine's messages name an operator, most
# specific first.
_OPERATOR_PATTERNS = (
    r"failed to legalize operation 'torch\.operator'.*?name = \"torch\.([\w.]+)\"",
    r"failed to legalize operation '(?:torch\.)?([\w.]+)'",
    r"(?:unsupported op|cannot lower|custom op) '([\w.]+)'",
    r"'([a-z_]+\.[\w.]+)' op\b",
    r"\b((?:aten|prims)(?:\.|::)\w+)",
    r"(undefined symbol: \w+)",
    r"element type '([^']+)', which the cpu pipeline does not support",
)


def operator_of(message: str) -> str:
    """The operator an error message names ('?' when none)."""
    for pattern in _OPERATOR_PATTERNS:
        match = re.search(pattern, message)
        if match:
            return match.group(1).replace("::", ".")
    return "?"


def _classify_error(error: BaseException) -> dict:
    """The result for an exception raised while compiling or running."""
    from torch._dynamo.exc import BackendCompilerFailed, TorchDynamoException

    from polyblocks import CompileError

    if isinstance(error, (BackendCompilerFailed, CompileError)):
        inner = getattr(error, "inner_exception", error)
        return {"status": "COMPILE_ERROR", "operator": operator_of(str(inner)), "detail": _error_line(inner)}
    if isinstance(error, TorchDynamoException):
        return {"status": "FRONT_ERROR", "detail": f"TorchDynamo: {_error_line(error)}"}
    return {"status": "RUNTIME_ERROR", "detail": _error_line(error)}


def _symbol(module, path: str):
    """The callable a trace item names ("forward", "" for the module)."""
    for name in filter(None, path.split(".")):
        module = getattr(module, name)
    return module


def _replay(test, golden: list, fallback: bool) -> tuple[list, list]:
    """Compiles a fresh module of `test` and makes the calls of the `golden`
    trace on it; returns their outputs and the warnings raised."""
    import torch

    from polyblocks import torch_polyblocks_compiler as front
    from torch_mlir_e2e_test import framework

    torch._dynamo.reset()  # no graph or guard of an earlier compilation
    front._warned.clear()  # warn about each fallback again
    front._unsupported.clear()  # probe operators again (memoized by operator, not by dtype)
    with warnings.catch_warnings(record=True) as caught, torch.no_grad():
        warnings.simplefilter("always")
        torch.manual_seed(0)
        module = front.polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": fallback})(
            test.program_factory()
        )
        outputs = [_symbol(module, item.symbol)(*framework.clone_torch_script_value(item.inputs)) for item in golden]
    return outputs, [str(w.message) for w in caught if str(w.message).startswith("polyblocks:")]


def _unsupported_operators(test, golden: list) -> list[str]:
    """The operators the front runs in PyTorch when `test` is compiled with
    fallback on (it compiles each operator alone to find them)."""
    try:
        _, fallbacks = _replay(test, golden, fallback=True)
    except Exception:  # noqa: BLE001 - then none is named
        return []
    named = (re.match(r"polyblocks: (\S+) is not supported by the engine", w) for w in fallbacks)
    return sorted({m.group(1).removesuffix(".default") for m in named if m})


def run_case(test, fallback: bool, phase) -> dict:
    """Runs one case (see the module doc); `phase(name, result)` is called
    as it enters the "golden", "compile" and "naming" phases (the last with
    the COMPILE_ERROR result it is completing)."""
    import torch
    from torch._dynamo.utils import counters

    from torch_mlir_e2e_test import framework

    phase("golden")
    try:
        with torch.no_grad():
            torch.manual_seed(0)
            golden = framework.generate_golden_trace(test)
    except Exception as error:  # noqa: BLE001 - any failure of eager PyTorch
        return {"status": "FRONT_ERROR", "detail": f"eager PyTorch: {_error_line(error)}"}
    phase("compile")
    counters.clear()
    try:
        outputs, fallbacks = _replay(test, golden, fallback)
    except Exception as error:  # noqa: BLE001 - classified
        result = _classify_error(error)
        if result["status"] == "COMPILE_ERROR" and not fallback:
            # The operator as the program has it, rather than what it became.
            phase("naming", result)
            result["operator"] = ", ".join(_unsupported_operators(test, golden)) or result["operator"]
        return result
    differences = [d for i, item in enumerate(golden) for d in compare(outputs[i], item.output, f"call {i} output")]
    if differences:
        return {"status": "MISMATCH", "detail": "; ".join(differences)[:500]}
    if fallbacks:
        return {"status": "PASS_WITH_FALLBACK", "detail": "; ".join(sorted({w.split(";")[0] for w in fallbacks}))[:500]}
    graphs = counters["stats"]["unique_graphs"]
    breaks = sorted(counters["graph_break"])
    if breaks or not graphs:
        reasons = "; ".join(reason.splitlines()[0] for reason in breaks) or "no tensor graph"
        return {"status": "PASS_EAGER", "detail": f"{graphs} graphs compiled; {reasons}"[:500]}
    return {"status": "PASS"}


def worker(results_fd: int, fallback: bool) -> None:
    """Runs the cases named on stdin, one per line, writing a JSON line per
    event to `results_fd`: {"ready"} once loaded, {"phase"} as a case
    enters a phase, {"result"} when it is done."""
    results = os.fdopen(results_fd, "w", buffering=1)

    def send(**message):
        results.write(json.dumps(message) + "\n")

    faulthandler.enable()  # a crash prints the Python stack into the log
    sys.path.insert(0, str(REPO / "python"))
    import polyblocks.torch_polyblocks_compiler  # noqa: F401 - fails here, not in a case

    tests = load_tests()
    send(ready=True)
    for line in sys.stdin:
        name = line.strip()
        print(f"=== {name}", file=sys.stderr, flush=True)
        send(result=run_case(tests[name], fallback, lambda phase, result=None: send(phase=phase, partial=result)))


# ------------------------------------------------------------------- driver


class Worker:
    """A worker process (its own session, so that killing it kills the
    pb-compile it runs) and the case it is on."""

    def __init__(self, fallback: bool, env: dict, log: pathlib.Path):
        read, write = os.pipe()
        argv = [sys.executable, __file__, "--worker", str(write), *(["--fallback"] if fallback else [])]
        self.log = log
        with open(log, "a") as output:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=output, stderr=subprocess.STDOUT,
                pass_fds=(write,), env=env, start_new_session=True, text=True,
            )
        os.close(write)
        self.fd = read
        self.buffer = b""
        self.ready = False
        self.case = None
        self.phase = None
        self.partial = None  # a COMPILE_ERROR whose operator is being named
        self.started = time.monotonic()
        self.deadline = self.started + WORKER_START_LIMIT

    def messages(self):
        """The complete messages read now; None at end of file."""
        data = os.read(self.fd, 1 << 16)
        if not data:
            return None
        *lines, self.buffer = (self.buffer + data).split(b"\n")
        return [json.loads(line) for line in lines]

    def start(self, name: str, limit: float):
        self.case, self.phase, self.partial = name, "start", None
        self.started = time.monotonic()
        self.deadline = self.started + limit
        self.process.stdin.write(name + "\n")
        self.process.stdin.flush()

    def finish(self):
        """Closes the worker's input: it exits when idle."""
        self.case, self.deadline = None, float("inf")
        self.process.stdin.close()

    def kill(self):
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:  # already gone
            pass
        self.process.wait()

    def death(self) -> str:
        """How the process ended, and what it printed on its case: the
        innermost Python frames of a fatal error (faulthandler), else the
        last lines."""
        code = self.process.wait()
        how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exited with status {code}"
        text = self.log.read_text(errors="replace")
        tail = text.rsplit(f"=== {self.case}\n", 1)[-1] if self.case else text
        lines = [line.strip() for line in tail.splitlines() if line.strip()]
        fatal = next((i for i, line in enumerate(lines) if line.startswith("Fatal Python error")), None)
        if fatal is not None:
            lines = [lines[fatal], *[line for line in lines[fatal:] if line.startswith("File ")][:3]]
        else:
            lines = lines[-4:]
        return f"{how}: {' | '.join(lines)}"[:500]


def run_cases(names: list[str], tests: dict, args) -> dict:
    """Runs `names` in `args.jobs` workers; returns results by name."""
    pending = collections.deque(names)
    results = {}
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="pb-e2e-"))
    env = {**os.environ, "POLYBLOCKS_CACHE_DIR": str(scratch / "cache")}
    selector = selectors.DefaultSelector()
    workers = []

    def spawn():
        worker = Worker(args.fallback, env, scratch / f"worker{len(results)}-{time.monotonic_ns()}.log")
        selector.register(worker.fd, selectors.EVENT_READ, worker)
        workers.append(worker)

    def retire(worker):
        selector.unregister(worker.fd)
        os.close(worker.fd)
        workers.remove(worker)
        if pending:
            spawn()

    def record(worker, result):
        result["seconds"] = round(time.monotonic() - worker.started, 1)
        results[worker.case] = result
        detail = f"  {result.get('detail', '')}" if result["status"] not in ("PASS", "PASS_EAGER") else ""
        print(f"[{len(results)}/{len(names)}] {result['status']:<18} {worker.case} ({result['seconds']}s){detail}",
              flush=True)
        worker.case = None

    def lost(worker, status, detail):
        """Records the case of a worker that died or was killed."""
        if worker.partial:  # it was naming the operator of a COMPILE_ERROR
            partial = worker.partial
            record(worker, {**partial, "detail": f"{partial['detail']} (then, naming the operator: {detail})"})
        else:
            record(worker, {"status": status, "detail": detail})

    def next_case(worker):
        if pending:
            name = pending.popleft()
            worker.start(name, min(args.timeout, tests[name].timeout_seconds))
        else:
            worker.finish()

    try:
        for _ in range(min(args.jobs, len(pending))):
            spawn()
        while workers:
            deadline = min(w.deadline for w in workers)
            for key, _ in selector.select(None if deadline == float("inf") else max(deadline - time.monotonic(), 0)):
                worker = key.data
                messages = worker.messages()
                if messages is None:  # the worker is gone
                    if worker.case:
                        lost(worker, "CRASH", worker.death())
                    elif not worker.ready:
                        sys.exit(f"run_suite: a worker failed to start: {worker.death()}")
                    retire(worker)
                    continue
                for message in messages:
                    if "phase" in message:
                        worker.phase, worker.partial = message["phase"], message["partial"]
                        continue
                    if "result" in message:
                        record(worker, message["result"])
                    worker.ready = True
                    next_case(worker)
            for worker in [w for w in workers if w.deadline <= time.monotonic()]:
                worker.kill()
                if not worker.case:
                    sys.exit(f"run_suite: a worker did not start in {WORKER_START_LIMIT}s")
                limit = round(worker.deadline - worker.started)
                if worker.phase == "golden":
                    record(worker, {"status": "FRONT_ERROR", "detail": f"eager PyTorch ran past {limit}s"})
                else:
                    lost(worker, "TIMEOUT", f"no result in {limit}s ({worker.phase})")
                retire(worker)
    finally:
        for worker in workers:
            worker.kill()
        shutil.rmtree(scratch, ignore_errors=True)
    return results


def select(tests: dict, args) -> list[str]:
    names = sorted(tests)
    if args.subset:
        listed = read_list(HERE / f"{args.subset}_subset.txt")
        unknown = sorted(set(listed) - set(tests))
        if unknown:
            sys.exit(f"run_suite: not in the suite: {', '.join(unknown)}")
        names = sorted(set(names) & set(listed))
    if args.filter:
        names = [n for n in names if re.search(args.filter, n)]
    return names


def read_list(path: pathlib.Path) -> list[str]:
    """The first word of each line of `path`, comments (#) and blank lines
    left out."""
    lines = (line.split("#", 1)[0].split() for line in path.read_text().splitlines())
    return [words[0] for words in lines if words]


# ------------------------------------------------------------------- report


def _table(title: str, header: str, groups: dict) -> list[str]:
    """A markdown table of `groups` (key -> case names), largest first."""
    lines = ["", title, "", f"| {header} | cases | e.g. |", "|---|---:|---|"]
    for key, cases in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"| {key} | {len(cases)} | {cases[0]} |")
    return lines


def summary(results: dict) -> list[str]:
    """The summary in markdown: counts; the operators COMPILE_ERRORs name
    (a case naming several counts for each); every failure and FRONT_ERROR
    with its detail; PASS_EAGER by reason."""
    counts = collections.Counter(r["status"] for r in results.values())
    lines = ["| status | cases | meaning |", "|---|---:|---|"]
    lines += [f"| {s} | {counts[s]} | {meaning} |" for s, meaning in STATUSES.items() if counts[s]]
    lines.append(f"| total | {len(results)} | |")
    operators, eager = collections.defaultdict(list), collections.defaultdict(list)
    for name, result in sorted(results.items()):
        if result["status"] == "COMPILE_ERROR":
            for operator in result["operator"].split(", "):
                operators[f"`{operator}`"].append(name)
        elif result["status"] == "PASS_EAGER":
            eager[result["detail"].split("; ", 1)[1]].append(name)
    if operators:
        lines += _table("COMPILE_ERROR by operator:", "operator", operators)
    for status in (*FAILURES, "FRONT_ERROR"):
        failed = {n: r for n, r in sorted(results.items()) if r["status"] == status}
        if failed:
            lines += ["", f"{status} ({len(failed)}):", ""]
            lines += [f"- `{name}`: {result['detail']}" for name, result in failed.items()]
    if eager:
        lines += _table("PASS_EAGER by reason (TorchDynamo's graph breaks):", "reason", eager)
    return lines


def git_commit() -> str:
    """The short commit, and whether tracked files differ from it."""
    def git(*args):
        return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True).stdout.strip()

    changed = git("status", "--porcelain", "--untracked-files=no")
    return (git("rev-parse", "--short", "HEAD") or "unknown") + (" with uncommitted changes" if changed else "")


def cpu_model() -> str:
    with open("/proc/cpuinfo") as cpuinfo:
        return next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), "unknown")


def write_json(path: pathlib.Path, meta: dict, results: dict):
    """Writes the results, one case per line (small diffs between runs)."""
    body = ",\n".join(f"  {json.dumps(name)}: {json.dumps(results[name])}" for name in sorted(results))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'{{\n"meta": {json.dumps(meta)},\n"results": {{\n{body}\n}}\n}}\n')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--filter", help="run the cases whose name matches this regular expression")
    parser.add_argument("--subset", choices=["fast"], help="run the cases listed in test/e2e/<subset>_subset.txt")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--fallback", action="store_true", help="compile with fallback on")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per case (default 120, or the case's own)")
    parser.add_argument("--out", type=pathlib.Path, help="write per-case results as JSON")
    parser.add_argument("--summary-md", type=pathlib.Path, help="write the summary as markdown")
    parser.add_argument("--list", action="store_true", help="list the selected cases and exit")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        return worker(args.worker, args.fallback)
    tests = load_tests()
    names = select(tests, args)
    if args.list:
        print("\n".join(names))
        return None
    started, date, commit = time.monotonic(), datetime.datetime.now().astimezone(), git_commit()
    results = run_cases(names, tests, args)
    meta = {
        "command": " ".join(["run_suite.py", *sys.argv[1:]]),
        "mode": "fallback on" if args.fallback else "fallback off",
        "date": date.isoformat(timespec="seconds"),
        "commit": commit if git_commit() == commit else f"{commit} (at the start; {git_commit()} at the end)",
        "suite": f"llvm/torch-mlir {SUITE_COMMIT}",
        "machine": f"{os.cpu_count()} cores, {cpu_model()} ({platform.machine()})",
        "seconds": round(time.monotonic() - started),
        "counts": dict(collections.Counter(r["status"] for r in results.values()).most_common()),
    }
    lines = summary(results)
    print("\n" + "\n".join(lines))
    print(f"\n{len(results)} cases in {meta['seconds']} s ({meta['mode']})")
    if args.out:
        write_json(args.out, meta, results)
    if args.summary_md:
        header = [f"# torch-mlir e2e suite through polyblocks ({meta['mode']})", "",
                  f"`{meta['command']}` at {meta['commit']}, {meta['date']}, {meta['seconds']} s", ""]
        args.summary_md.write_text("\n".join(header + lines) + "\n")
    return None


if __name__ == "__main__":
    main()
