"""The image apps of bench/image_apps.py (the peers of Halide's apps in
bench/halide_peer.py) through the PyTorch front at small, odd sizes,
against eager PyTorch: each compiles with no operator falling back."""

import warnings

import pytest

torch = pytest.importorskip("torch")

from conftest import bench_module  # noqa: E402
from polyblocks.common_utils import validate_outputs  # noqa: E402
from polyblocks.torch_polyblocks_compiler import polyblocks_jit_torch  # noqa: E402

apps = bench_module("image_apps")


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path / "cache"))
    torch._dynamo.reset()
    torch.manual_seed(0)


def check(fn, img, rtol=1e-3, atol=1e-4):
    with torch.no_grad(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reference = fn(img.clone())
        compiled = polyblocks_jit_torch(compile_options={"target": "cpu"})(fn)(img)
    fallbacks = [str(w.message) for w in caught if str(w.message).startswith("polyblocks")]
    assert not fallbacks, fallbacks
    report = validate_outputs(compiled, reference, rtol=rtol, atol=atol, verbose=False)
    assert report.ok, f"max abs {report.max_abs_error}, max rel {report.max_rel_error}"


def test_interpolate():
    check(apps.interpolate, torch.rand(3, 40, 56))


def test_camera_pipe():
    check(apps.camera_pipe, torch.rand(38, 46))


@pytest.mark.parametrize("shape", [(37, 29), (301, 257)])
def test_bilateral_grid(shape):
    # (301 x 257: large enough that the slicing's gathers fuse with the
    # clamp before them and the division after them, pb-fuse)
    check(apps.bilateral_grid, torch.rand(*shape))


@pytest.mark.parametrize("shape", [(36, 28), (260, 196)])
def test_local_laplacian(shape):
    # (260 x 196: its two pyramids fuse chain by chain, pb-fuse)
    check(apps.local_laplacian, torch.rand(*shape))


def test_heat_3d_one_step():
    """One time step (the benchmark's ten take minutes to compile: pb-fuse's
    planning of 3-D stencil steps, noted in docs/performance.md)."""
    check(lambda a: apps.heat_3d(a, steps=1), torch.rand(13, 11, 9))
