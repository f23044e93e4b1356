"""Runs AOT-compiled programs under valgrind and AddressSanitizer.

For each program (a `.mlir` file), `pb-compile -aot` three times (see
VARIANTS: owning its memory, with `-aot-user-memory`, and for a target with
tiny caches so that fusion and cache tiling happen at small sizes), each for
`--cpu=x86-64-v3` (valgrind 3.19 does not decode AVX-512) and with the
optimized LLVM IR kept (`--emit-llvm`: the exact IR the object is emitted
from). A generated C driver includes the three headers, mallocs every input
and output buffer with its exact byte size (and the pool with exactly the
manifest's `user_memory_bytes`), fills the inputs deterministically (integer
index inputs within the range the program's `// memcheck: inputN range LO HI`
line states), calls each variant, asks memcheck whether every output byte is
defined (`VALGRIND_CHECK_MEM_IS_DEFINED`: an output element the code never
writes is reported with its offset), prints a checksum of each output and
frees everything.

  * valgrind: the driver linked with the objects pb-compile wrote runs under
    memcheck (invalid reads and writes past the exact-size blocks, uses of
    uninitialised values, undefined output bytes, definite leaks), with
    `--partial-loads-ok=no` so that a vector load hanging over the end of a
    buffer is reported even when its address is aligned.
  * asan: the same driver linked with the kept IR compiled by clang with
    `-fsanitize=address`, after marking every function `sanitize_address`
    (the instrumentation pass skips functions without the attribute, which
    only clang's front end adds). This also sees what valgrind cannot:
    overflows of the generated code's own stack buffers (pb-fuse's tile-local
    temporaries are allocas) and globals. Needs clang's sanitizer runtime
    (Debian: libclang-rt-22-dev); skipped without it.
  * wild (programs with index inputs): both tools again, one run per variant,
    with index inputs far outside their range and at their type's extremes:
    gathers must clamp, scatters skip, and the front's assertions
    (`cf.assert`, "index must be smaller than dim size") may abort; nothing
    may touch memory outside a buffer.

Library for test/python/test_memory_safety.py and CLI for
scripts/memcheck.sh:

    .venv/bin/python test/memcheck/memcheck.py [-j 2] [--tools valgrind,asan] [--no-wild] FILE_OR_DIR...
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[1]
PB_COMPILE = REPO / "target" / "debug" / "pb-compile"
CLANG = "/usr/lib/llvm-22/bin/clang"
OBJCOPY = "/usr/lib/llvm-22/bin/llvm-objcopy"
NM = "/usr/lib/llvm-22/bin/llvm-nm"
CPU = "x86-64-v3"
TOOLS = ("valgrind", "asan")

VALGRIND_FLAGS = [
    "-q",
    "--error-exitcode=3",
    "--leak-check=full",
    "--show-leak-kinds=definite",
    "--errors-for-leak-kinds=definite",
    "--partial-loads-ok=no",
]

C_TYPES = {
    "f32": "float", "f64": "double", "f16": "uint16_t", "bf16": "uint16_t", "i1": "bool",
    "complex<f32>": "float _Complex", "complex<f64>": "double _Complex",
    "i8": "int8_t", "i16": "int16_t", "i32": "int32_t",
}
BYTES = {"complex<f64>": 16, "f64": 8, "i64": 8, "index": 8, "complex<f32>": 8, "f32": 4, "i32": 4,
         "f16": 2, "bf16": 2, "i16": 2}


def c_type(dtype):
    return C_TYPES.get(dtype, "int64_t")


def nbytes(arg):
    n = BYTES.get(arg["dtype"], 1)
    for d in arg["shape"]:
        n *= d
    return n


def have_asan() -> bool:
    """Is clang's AddressSanitizer runtime installed?"""
    if not os.path.exists(CLANG):
        return False
    out = subprocess.run([CLANG, "-print-file-name=libclang_rt.asan-x86_64.a"], capture_output=True, text=True).stdout
    if os.path.exists(out.strip()):
        return True
    resource = subprocess.run([CLANG, "-print-resource-dir"], capture_output=True, text=True).stdout.strip()
    return any(pathlib.Path(resource).glob("lib/**/libclang_rt.asan*"))


def ranges(source: str) -> dict[str, tuple[int, int]]:
    """`// memcheck: inputN range LO HI` lines of a program."""
    return {m[1]: (int(m[2]), int(m[3]))
            for m in re.finditer(r"^// memcheck: (\w+) range (-?\d+) (-?\d+)$", source, re.M)}


class Failure(Exception):
    """A step failed; the message names the program, the tool and the first error."""


def _run(cmd, what, **kwargs):
    result = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise Failure(f"{what} failed (exit {result.returncode}):\n{(result.stdout + result.stderr)[-3000:]}")
    return result


# Each program is compiled three ways; the functions of all three link into one driver, those of
# the second and third renamed with a suffix (`llvm-objcopy --redefine-sym`).
#   own:   the function allocates its temporaries itself;
#   pool:  -aot-user-memory, every temporary in the caller's pool (exactly user_memory_bytes);
#   small: owning its memory, for a target with tiny caches (1 KiB L1, 4 KiB L2, 16 KiB L3), so
#          that pb-fuse's overlapped tiles (tile-local stack buffers) and pb-register-tile's cache
#          tiles, which the host's caches only call for on large arrays, appear at these small
#          sizes, with tiles that do not divide them.
# Every variant's target description says what `--cpu=x86-64-v3` has, 256-bit vectors (the
# host's may be AVX-512: its 16-lane loops and masked remainders, vmaskmov under AVX2, exhaust
# valgrind's translation space).
TARGET = "vector-bits=256"
VARIANTS = {
    "own": [f"--target={TARGET}"],
    "pool": ["-aot-user-memory", f"--target={TARGET}"],
    "small": [f"--target=l1=1K l2=4K l3=16K {TARGET}"],
}


def suffix(variant: str) -> str:
    return "" if variant == "own" else f"__{variant}"


def compile_variant(path: pathlib.Path, work: pathlib.Path, variant: str):
    """pb-compile one variant (object, header, manifest and kept IR); its manifest functions."""
    name = f"{variant}_{path.stem}"
    extra = VARIANTS[variant]
    cmd = [PB_COMPILE, path, "-aot", "-aot-name", name, "-o", work, f"--cpu={CPU}", "--emit-llvm", *extra]
    with open(work / f"{name}.ll", "w") as ll:
        result = subprocess.run([str(c) for c in cmd], stdout=ll, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        raise Failure(f"pb-compile {' '.join(map(str, cmd[2:]))} failed:\n{result.stderr[-3000:]}")
    return json.loads((work / f"{name}.json").read_text())["functions"]


def _fill(arg, bounds):
    """C statements filling input `arg` (pointer `p`, `n` elements) deterministically."""
    dtype = arg["dtype"]
    if dtype in ("f32", "f64"):
        return "for (size_t k = 0; k < n; k++) p[k] = (mc_next() % 2001) / 1000.0 - 1.0;"
    if dtype in ("complex<f32>", "complex<f64>"):
        real = "float" if dtype == "complex<f32>" else "double"
        return (f"{real} *q = ({real} *)p; for (size_t k = 0; k < 2 * n; k++) q[k] = (mc_next() % 2001) / 1000.0 - 1.0;")
    if dtype == "f16":  # 0.5 .. 1 and -1 .. -0.5
        return "for (size_t k = 0; k < n; k++) p[k] = (uint16_t)(0x3800 + mc_next() % 0x400) | (mc_next() & 1 ? 0x8000 : 0);"
    if dtype == "bf16":
        return "for (size_t k = 0; k < n; k++) p[k] = (uint16_t)(0x3f00 + mc_next() % 0x80) | (mc_next() & 1 ? 0x8000 : 0);"
    if dtype == "i1":
        return "for (size_t k = 0; k < n; k++) p[k] = mc_next() & 1;"
    if arg["name"] in bounds:  # an index: in range, or anything with MEMCHECK_WILD set
        lo, hi = bounds[arg["name"]]
        bits = {"i8": 8, "i16": 16, "i32": 32}.get(dtype, 64)
        return f"for (size_t k = 0; k < n; k++) p[k] = ({c_type(dtype)})mc_index({lo}LL, {max(hi, lo + 1)}LL, {bits});"
    return f"for (size_t k = 0; k < n; k++) p[k] = ({c_type(dtype)})(mc_next() % 4);"


def driver_source(path: pathlib.Path, variants, symbols=None) -> str:
    """The C driver calling every function of every variant in `variants` ({variant: functions});
    `symbols` ({variant: every global symbol its object defines}) are renamed like the functions.
    Artifacts with run-time checks define `pb_error_code`: it must stay 0 for in-range inputs."""
    bounds = ranges(path.read_text())
    symbols = symbols or {v: [f["name"] for f in functions] for v, functions in variants.items()}
    stem = path.stem
    lines = [
        "#include <stdbool.h>", "#include <stdint.h>", "#include <stdio.h>", "#include <stdlib.h>", "#include <string.h>",
        "#include <valgrind/memcheck.h>", "",
    ]
    for variant in variants:
        names = symbols[variant] if suffix(variant) else []
        lines += [f"#define {n} {n}{suffix(variant)}" for n in names] + [f'#include "{variant}_{stem}.h"']
        lines += [f"#undef {n}" for n in names]
    lines += [
        "",
        "static uint64_t mc_state = 0x9E3779B97F4A7C15ULL;",
        "static uint64_t mc_next(void) { mc_state ^= mc_state << 13; mc_state ^= mc_state >> 7; mc_state ^= mc_state << 17; return mc_state >> 11; }",
        "static uint64_t mc_fnv(const void *data, size_t bytes) {",
        "  const unsigned char *c = data; uint64_t h = 0xcbf29ce484222325ULL;",
        "  for (size_t k = 0; k < bytes; k++) h = (h ^ c[k]) * 0x100000001b3ULL;",
        "  return h;",
        "}",
        "/* An index in [lo, hi); with MEMCHECK_WILD set, one far outside it or the type's extremes. */",
        "static int mc_wild;",
        "static long long mc_index(long long lo, long long hi, int bits) {",
        "  unsigned long long span = (unsigned long long)(hi - lo);",
        "  long long max = bits == 64 ? INT64_MAX : (1LL << (bits - 1)) - 1;",
        "  if (!mc_wild) return lo + (long long)(mc_next() % span);",
        "  switch (mc_next() % 8) {",
        "    case 0: return -max - 1;",
        "    case 1: return max;",
        "    default: return lo - 2 * (long long)span - 3 + (long long)(mc_next() % (5 * span + 7));",
        "  }",
        "}",
        "static void *mc_malloc(size_t bytes) {",
        "  void *p = malloc(bytes);",
        "  if (!p && bytes) { fprintf(stderr, \"out of memory\\n\"); exit(2); }",
        "  return p;",
        "}",
        "",
        "/* driver [VARIANT]: calls the functions of every variant, or of VARIANT only. */",
        "int main(int argc, char **argv) {",
        "  int undefined = 0;",
        "  const char *only = argc > 1 ? argv[1] : NULL;",
        "  mc_wild = getenv(\"MEMCHECK_WILD\") != NULL;",
        "  setvbuf(stdout, NULL, _IONBF, 0);  /* a failed assertion's message (puts) survives its abort */",
    ]
    for variant in variants:
        lines.append(f'  if (!only || !strcmp(only, "{variant}")) {{')
        lines.append(f'  fprintf(stderr, "memcheck: begin {variant}\\n");')
        for function in variants[variant]:
            symbol = function["name"] + suffix(variant)
            lines.append(f"  {{ /* {symbol} */")
            lines.append("    mc_state = 0x9E3779B97F4A7C15ULL;")
            call = []
            for i, arg in enumerate(function["args"]):
                var = f"a{i}"
                if arg["role"] == "user_memory":
                    pool = function["user_memory_bytes"] or 0
                    lines.append(f"    int8_t *{var} = NULL;  /* exactly user_memory_bytes, 64-byte aligned */")
                    lines.append(f"    if ({pool} && posix_memalign((void **)&{var}, 64, {pool})) return 2;")
                    call.append(var)
                    continue
                ct = c_type(arg["dtype"])
                if arg["by_value"]:
                    value = "1" if arg["dtype"] not in ("f32", "f64") else "0.5"
                    lines.append(f"    {ct} {var} = {value};")
                    call.append(var)
                    continue
                size = nbytes(arg)
                lines.append(f"    {ct} *{var} = mc_malloc({size});  /* {arg['name']}: {arg['mlir_type']} */")
                if arg["role"] == "input":
                    elements = size // max(BYTES.get(arg["dtype"], 1), 1)
                    fill = _fill(arg, bounds)
                    lines.append(f"    {{ {ct} *p = {var}; size_t n = {elements}; {fill} }}")
                call.append(var)
            lines.append(f"    {symbol}({', '.join(call)});")
            if "pb_error_code" in symbols[variant]:
                code = "pb_error_code" + suffix(variant)
                lines.append(f"    if ({code}) {{")
                lines.append(f'      printf("{symbol}: pb_error_code %d\\n", (int){code});')
                lines.append(f'      if (!mc_wild) {{ fprintf(stderr, "memcheck-error: {symbol}: pb_error_code %d with in-range inputs\\n", (int){code}); undefined = 1; }}')
                lines.append(f"      {code} = 0;")
                lines.append("    }")
            for i, arg in enumerate(function["args"]):
                if arg["role"] == "output" and not arg["by_value"]:
                    size = nbytes(arg)
                    lines.append(f"    if (VALGRIND_CHECK_MEM_IS_DEFINED(a{i}, {size})) {{")
                    lines.append(f"      fprintf(stderr, \"memcheck-error: {symbol}: {arg['name']} ({arg['mlir_type']}) has undefined bytes\\n\");")
                    lines.append("      undefined = 1;")
                    lines.append("    }")
                    lines.append(f"    printf(\"{symbol} {arg['name']} %016llx\\n\", (unsigned long long)mc_fnv(a{i}, {size}));")
            for i, arg in enumerate(function["args"]):
                if not arg["by_value"]:
                    lines.append(f"    free(a{i});")
            lines.append("  }")
        lines.append(f'  fprintf(stderr, "memcheck: end {variant}\\n");')
        lines.append("  }")
    lines += ["  return undefined ? 4 : 0;", "}", ""]
    return "\n".join(lines)


def defined_symbols(obj: pathlib.Path) -> list[str]:
    """The global symbols `obj` defines: its functions, and `pb_error_code` where it has run-time checks."""
    out = _run([NM, "--defined-only", "--extern-only", "--format=just-symbols", obj], "llvm-nm").stdout
    return out.split()


def _rename(obj: pathlib.Path, variant: str, symbols):
    """Gives the global symbols of `obj` the variant's suffix, so that all variants link into one driver."""
    if suffix(variant):
        _run([OBJCOPY, *(f"--redefine-sym={s}={s}{suffix(variant)}" for s in symbols), obj], "llvm-objcopy")


def sanitize_ir(ll: str) -> str:
    """Marks every defined function `sanitize_address`."""
    return re.sub(r"^(define [^\n]*?)\s*\{$", r"\1 sanitize_address {", ll, flags=re.M)


def _segments(stderr: str):
    """stderr cut at the driver's `memcheck: begin/end VARIANT` lines: [(variant or None, text)]."""
    segments, current, text = [], None, []
    for line in stderr.splitlines():
        m = re.match(r"memcheck: (begin|end) (\w+)$", line)
        if m:
            segments.append((current, "\n".join(text)))
            current, text = (m[2] if m[1] == "begin" else None), []
        else:
            text.append(line)
    segments.append((current, "\n".join(text)))
    return segments


def valgrind_errors(text: str) -> list[str]:
    """The error blocks in valgrind's -q output (`==PID==` lines up to a blank one), warnings left out."""
    blocks, block = [], []
    for line in text.splitlines() + [""]:
        m = re.match(r"==\d+== ?(.*)", line)
        if m and m[1].strip():
            block.append(m[1])
            continue
        if block and not block[0].startswith("Warning"):
            blocks.append("\n".join(block[:40]))
        block = []
        if not m and line.startswith("memcheck-error:"):
            blocks.append(line)
    return blocks


def asan_errors(text: str) -> list[str]:
    """AddressSanitizer's or LeakSanitizer's report in `text`, if any."""
    m = re.search(r"ERROR: (AddressSanitizer|LeakSanitizer).*", text, re.S)
    return [m[0][:4000]] if m else []


def attribute(stderr: str, returncode: int, variants, errors) -> dict[str, str | None]:
    """{variant: first error or None}: errors between a variant's begin and end lines are its own;
    those after (leaks, reported at exit) belong to the variant whose suffixed function they name,
    else to the first."""
    found = {v: [] for v in variants}
    for variant, text in _segments(stderr):
        for error in errors(text):
            named = [v for v in variants if suffix(v) and f"{suffix(v)} " in error]
            owner = variant or (named[0] if named else next(iter(variants)))
            found[owner].append(error)
    if returncode != 0 and not any(found.values()):
        for variant in variants:  # unexplained: a crash, a signal
            found[variant].append(f"exit {returncode}:\n{stderr[-3000:]}")
    return {v: (f"{len(e)} error(s); the first:\n{e[0]}" if e else None) for v, e in found.items()}


def check(path: pathlib.Path, work: pathlib.Path, tools=TOOLS, wild=True) -> dict[str, dict[str, str | None]]:
    """Compiles and runs `path` under each tool: {variant: {step: None when clean, else the error}},
    steps "compile", the tools, and "TOOL wild" (index inputs out of range) for programs with
    index inputs when `wild`."""
    work.mkdir(parents=True, exist_ok=True)
    stem = path.stem
    results = {v: {} for v in VARIANTS}
    variants = {}
    for variant in VARIANTS:
        try:
            variants[variant] = compile_variant(path, work, variant)
            results[variant]["compile"] = None
        except Failure as error:
            results[variant]["compile"] = str(error)
    if not variants:
        return results
    symbols = {v: defined_symbols(work / f"{v}_{stem}.o") for v in variants}
    driver = work / "driver.c"
    driver.write_text(driver_source(path, variants, symbols))
    env = {**os.environ, "OMP_NUM_THREADS": "2", "KMP_BLOCKTIME": "0"}
    base = [CLANG, "-O1", "-gdwarf-4", "-march=x86-64-v3", "-I", work, driver]
    for variant in variants:
        _rename(work / f"{variant}_{stem}.o", variant, symbols[variant])

    def record(tool, found):
        for variant, error in found.items():
            results[variant][tool] = error

    def valgrind(exe, args=(), wild=False):
        # An abort leaves the driver's buffers allocated: no leak check then.
        flags = VALGRIND_FLAGS + (["--leak-check=no"] if wild else [])
        run_env = {**env, "MEMCHECK_WILD": "1"} if wild else env
        result = subprocess.run(["valgrind", *flags, exe, *args], capture_output=True, text=True, env=run_env)
        found = attribute(result.stderr, _status(result, wild), _only(variants, args), valgrind_errors)
        if any(e and "ninitialised" in e for e in found.values()):
            # Again with origins: where the undefined bytes come from.
            again = subprocess.run(["valgrind", *flags, "--track-origins=yes", exe, *args],
                                   capture_output=True, text=True, env=run_env)
            found = attribute(again.stderr, _status(again, wild), _only(variants, args), valgrind_errors)
        return found

    def asan(exe, args=(), wild=False):
        options = f"detect_leaks={0 if wild else 1}:detect_stack_use_after_return=1"
        run_env = {**env, "ASAN_OPTIONS": options, **({"MEMCHECK_WILD": "1"} if wild else {})}
        result = subprocess.run([exe, *args], capture_output=True, text=True, env=run_env)
        return attribute(result.stderr, _status(result, wild), _only(variants, args), asan_errors)

    executables = {}
    if "valgrind" in tools:
        exe = work / "driver_valgrind"
        _run([*base, *(work / f"{v}_{stem}.o" for v in variants), "-fopenmp", "-lm", "-o", exe], "clang (valgrind driver)")
        executables["valgrind"] = (exe, valgrind)
    if "asan" in tools:
        objects = []
        for variant in variants:
            ll = work / f"{variant}_{stem}.asan.ll"
            ir = sanitize_ir((work / f"{variant}_{stem}.ll").read_text())
            for symbol in symbols[variant] if suffix(variant) else []:
                # Renamed in the IR: ASan records global names (its ODR check would see two pb_error_code).
                ir = re.sub(rf"@{re.escape(symbol)}(?![\w$])", f"@{symbol}{suffix(variant)}", ir)
            ll.write_text(ir)
            obj = ll.with_suffix(".o")
            _run([CLANG, "-O1", "-march=x86-64-v3", "-fsanitize=address", "-c", ll, "-o", obj], "clang -fsanitize=address (IR)")
            objects.append(obj)
        exe = work / "driver_asan"
        _run([*base, *objects, "-fsanitize=address", "-fopenmp", "-lm", "-o", exe], "clang (asan driver)")
        executables["asan"] = (exe, asan)
    for tool, (exe, run) in executables.items():
        record(tool, run(exe))
        if wild and ranges(path.read_text()):
            # Index inputs far out of range: gathers clamp, scatters skip, front-end
            # assertions (cf.assert: "index must be smaller than dim size") abort;
            # none may touch memory outside a buffer. One run per variant (an abort
            # ends the process).
            for variant in variants:
                record(f"{tool} wild", run(exe, [variant], wild=True))
    return results


def _status(result, wild):
    """The exit status, with an abort by a failed front-end assertion (wild indices) counted as 0."""
    if wild and result.returncode == -6 and re.search(r"^index must be", result.stdout, re.M):
        return 0
    return result.returncode


def _only(variants, args):
    return {v: variants[v] for v in args} if args else variants


def collect(paths) -> list[pathlib.Path]:
    files = []
    for p in map(pathlib.Path, paths):
        files += sorted(p.glob("*.mlir")) if p.is_dir() else [p]
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", help=".mlir files or folders of them")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--tools", default=",".join(TOOLS))
    parser.add_argument("--work", type=pathlib.Path, help="keep the build folders here")
    parser.add_argument("--no-wild", action="store_true", help="no runs with out-of-range indices")
    args = parser.parse_args()
    tools = [t for t in args.tools.split(",") if t]
    if "asan" in tools and not have_asan():
        print("memcheck: clang's ASan runtime is missing (libclang-rt-22-dev): asan skipped")
        tools.remove("asan")
    if "valgrind" in tools and shutil.which("valgrind") is None:
        sys.exit("memcheck: valgrind is not installed")
    import tempfile

    work = args.work or pathlib.Path(tempfile.mkdtemp(prefix="memcheck-"))
    files = collect(args.paths)
    start = time.time()
    failures = []

    def one(path):
        try:
            return path, check(path, work / f"{path.parent.name}-{path.stem}", tools, wild=not args.no_wild)
        except Failure as error:
            return path, {"own": {"build": str(error)}}

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for path, results in pool.map(one, files):
            bad = [(v, step, error) for v, steps in results.items() for step, error in steps.items() if error]
            print(f"{'FAIL' if bad else 'ok  '} {path.parent.name}/{path.name}", flush=True)
            for variant, step, error in bad:
                print(f"  [{variant} {step}] " + error.replace("\n", "\n    "), flush=True)
                failures.append(f"{path} [{variant} {step}]")
    print(f"memcheck: {len(files)} programs x {len(VARIANTS)} variants ({', '.join(VARIANTS)}) x "
          f"{len(tools)} tools ({', '.join(tools)}): {len(failures)} failures, {time.time() - start:.0f} s")
    for failure in failures:
        print(f"  failed: {failure}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
