"""What every front shares: compiling MLIR text through the disk cache and
loading the result; debug dumps and per-stage timings."""

from __future__ import annotations

import pathlib
import time
import warnings

from . import cache, engine, log
from .runtime import Library, LibraryError

_log = log.get("jit")


def build_cached(key: str, make_text, options, what: str = "graph", extra_args: tuple = (), operators=None) -> Library:
    """The library for cache `key`, compiling `make_text()` (MLIR text) on a
    miss with pb-compile's flags for `options` and `extra_args` (which `key`
    must cover). The module's functions keep their names; the file is
    `libmodule.so`. With `report` a file name, the compile is added to that
    HTML report, its source `operators` (`html_report.Operator`s) drawn
    beside the kernels."""
    debug_dir = pathlib.Path(options.get("debug_dir") or "polyblocks_debug") / key if options.debug else None
    timings = {}

    def build(folder):
        started = time.perf_counter()
        text = make_text()
        timings["import"] = (time.perf_counter() - started) * 1e3
        # JIT libraries take their temporaries from per-thread pools that
        # the runtime keeps between calls (runtime.Function).
        args = [*options.engine_args(), "--pool", *extra_args]
        timings.update(engine.build_library(folder, text, "module", args, debug_dir, what))

    # A report explains a compilation: compile even when the cache has it.
    use_cache = bool(options.get("cache")) and not options.get("report")
    folder, hit = cache.lookup_or_build(key, build, use_cache=use_cache)
    if options.debug:
        where = "disk cache hit" if hit else ", ".join(f"{k} {v:.1f} ms" for k, v in timings.items())
        _log.info("compiled %s %s (%s); IR dumps in %s", what, key[:12], where, debug_dir)
    try:
        library = Library(folder / "libmodule.so")
    except (OSError, LibraryError):
        if not hit:
            raise
        # Evicted by another process between the lookup and the load.
        folder, hit = cache.lookup_or_build(key, build, use_cache=use_cache)
        library = Library(folder / "libmodule.so")
    threads = options.get("threads")
    if threads:
        setter = getattr(library._handle, "omp_set_num_threads", None)
        if setter is not None:
            setter(threads)
    report = options.get("report")
    if isinstance(report, str):
        from . import html_report

        notes_file = folder / "libmodule.report"
        notes = html_report.notes_of(notes_file.read_text()) if notes_file.exists() else []
        html_report.add_graph(report, what, operators or [], library, notes)
    return library


def compile_stablehlo(key: str, hlo: str, options, target, runner: str, via_jaxlib: bool = False):
    """The library for StableHLO text `hlo` (JAX and TF fronts), or `None`
    after one warning when the engine cannot compile it and the `fallback`
    option lets the framework (`runner`) run the function instead. The
    engine reads the StableHLO text itself (`pb_dialects::stablehlo`,
    `pb-legalize-stablehlo`); `via_jaxlib` converts it to linalg with
    jaxlib's passes first instead (`polyblocks.stablehlo`: no front uses it,
    benchmarks compare the two paths with it)."""
    name = getattr(target, "__name__", type(target).__name__)
    if via_jaxlib:
        from . import stablehlo

        make_text = lambda: stablehlo.to_linalg(hlo, options.profile)  # noqa: E731
    else:
        make_text = lambda: hlo  # noqa: E731
    try:
        return build_cached(key, make_text, options, f"{name}")
    except engine.CompileError as error:
        if not options.get("fallback"):
            raise
        lines = str(error).splitlines() or [""]
        # The diagnostic that names the op, not the driver's header line
        # ("pb-compile: error: invalid input:").
        errors = [line for line in lines if "error:" in line]
        first = next((line for line in errors if not line.startswith("pb-compile:")), errors[0] if errors else lines[0])
        warnings.warn(f"polyblocks: {name} runs with {runner} instead: {first.strip()}", stacklevel=4)
        return None
