import pathlib
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python"))


def bench_module(name):
    """bench/<name>.py as a module: the benchmarks' definitions are the
    programs some tests compile."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pytest_addoption(parser):
    parser.addoption(
        "--gpu-emulate",
        choices=("nvgpu", "amdgpu"),
        default=None,
        help="compile every program the tests compile for the CPU for this GPU target instead, emulated "
        "(the GPU mapping run on the CPU); tests marked cpu_only (they check CPU code or CPU reports) are skipped",
    )


def pytest_configure(config):
    config.addinivalue_line("markers", "cpu_only: checks CPU-specific code or reports; skipped under --gpu-emulate")
    target = config.getoption("--gpu-emulate")
    if not target:
        return
    from polyblocks import options

    parse = options.parse

    def parse_for_gpu(compile_options=None, allowed=None):
        chosen = dict(compile_options or {})
        if chosen.get("target", "cpu") == "cpu" and not chosen.get("user_memory"):
            chosen["target"] = target
            chosen["emulate"] = True
            # CPU target descriptions and thread counts do not apply.
            chosen.pop("target_overrides", None)
            chosen.pop("threads", None)
        return parse(chosen, allowed)

    options.parse = parse_for_gpu


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--gpu-emulate"):
        return
    import pytest

    skip = pytest.mark.skip(reason="checks CPU-specific code or reports (--gpu-emulate)")
    for item in items:
        if "cpu_only" in item.keywords:
            item.add_marker(skip)
