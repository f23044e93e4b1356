"""Image pipelines and a stencil through the PyTorch front, at small and odd
sizes, against eager PyTorch: the very definitions that
bench/polyhedral_bench.py times at full size (blur_x_blur_y, PolyMage's
unsharp mask and harris corner, written with slices and with conv2d,
PolyBench jacobi-2d)."""


import pytest

torch = pytest.importorskip("torch")

from conftest import bench_module  # noqa: E402
from polyblocks.common_utils import validate_outputs  # noqa: E402
from polyblocks.torch_polyblocks_compiler import polyblocks_jit_torch  # noqa: E402

bench = bench_module("polyhedral_bench")


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path / "cache"))
    torch._dynamo.reset()
    torch.manual_seed(0)


def check(fn, *inputs, rtol=1e-4, atol=1e-5):
    """Compiles `fn`, compares its result with eager's (computed first, on
    copies) and checks that the inputs are unchanged."""
    originals = [t.clone() for t in inputs]
    with torch.no_grad():
        reference = fn(*[t.clone() for t in inputs])
        compiled = polyblocks_jit_torch(compile_options={"target": "cpu"})(fn)(*inputs)
    report = validate_outputs(compiled, reference, rtol=rtol, atol=atol, verbose=False)
    assert report.ok, f"max abs {report.max_abs_error}, max rel {report.max_rel_error}"
    for index, (before, after) in enumerate(zip(originals, inputs)):
        assert torch.equal(before, after), f"the compiled code modified input {index}"


@pytest.mark.parametrize("shape", [(3, 37, 41), (1, 1021, 1019)])
def test_blur_x_blur_y_slices(shape):
    check(bench.blur_x_blur_y, torch.rand(*shape))


def test_blur_x_blur_y_conv2d():
    check(bench.blur_x_blur_y_conv, torch.rand(3, 37, 41))


def test_blur_conv2d_and_slices_agree():
    img = torch.rand(3, 37, 41)
    torch.testing.assert_close(bench.blur_x_blur_y(img), bench.blur_x_blur_y_conv(img))


@pytest.mark.parametrize("shape", [(3, 37, 41), (2, 9, 6)])
def test_unsharp_mask(shape):
    check(bench.unsharp_mask, torch.rand(*shape))


def test_unsharp_mask_takes_both_branches():
    # A flat image is below the threshold everywhere (kept), a noisy one
    # mostly above (sharpened): both sides of the where() are exercised.
    img = torch.rand(3, 37, 41)
    img[:, :, :20] = 0.5
    blurred = bench.blur_x_blur_y(img)
    kept = torch.abs(img[..., 2:-2, 2:-2] - blurred) < bench.UNSHARP_THRESHOLD
    assert kept.any() and not kept.all()
    check(bench.unsharp_mask, img)


@pytest.mark.parametrize("shape", [(3, 37, 41), (1, 1021, 1019), (5, 5)])
def test_harris(shape):
    check(bench.harris, torch.rand(*shape))


@pytest.mark.parametrize("shape", [(3, 37, 41), (1, 1021, 1019)])
def test_harris_conv2d(shape):
    check(bench.harris_conv, torch.rand(*shape))


@pytest.mark.parametrize("shape", [(3, 37, 41), (2, 1021, 1019)])
def test_unsharp_mask_conv2d(shape):
    check(bench.unsharp_mask_conv, torch.rand(*shape))


def test_conv2d_and_slice_formulations_agree():
    img = torch.rand(3, 37, 41)
    torch.testing.assert_close(bench.harris(img), bench.harris_conv(img))
    torch.testing.assert_close(bench.unsharp_mask(img), bench.unsharp_mask_conv(img))


def test_harris_matches_conv2d_formulation():
    """The slicing stencils are PolyMage's: the same as Sobel/12 and 3x3 box
    filters written as conv2d."""
    img = torch.rand(2, 19, 23)
    x = img.view(2, 1, 19, 23)
    sobel = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]) / 12
    ix = torch.nn.functional.conv2d(x, sobel.view(1, 1, 3, 3))
    iy = torch.nn.functional.conv2d(x, sobel.t().contiguous().view(1, 1, 3, 3))
    box = torch.ones(1, 1, 3, 3)
    sxx = torch.nn.functional.conv2d(ix * ix, box)
    syy = torch.nn.functional.conv2d(iy * iy, box)
    sxy = torch.nn.functional.conv2d(ix * iy, box)
    expected = (sxx * syy - sxy * sxy - 0.04 * (sxx + syy) ** 2).view(2, 15, 19)
    torch.testing.assert_close(bench.harris(img), expected)


@pytest.mark.parametrize("shape", [(37, 41), (101, 67)])
def test_jacobi_2d(shape):
    # The slice assignments once ran in place in the caller's input (the
    # engine's bufferization wrote into a dead input's buffer): check()
    # also checks that the input is unchanged.
    check(bench.jacobi_2d, torch.rand(*shape))


def test_filter_weights_passed_in():
    """A 3x3 filter whose weights are an argument (pb-unroll-filters reads
    them once per call): a second call with other weights gives that call's
    result, not the first call's."""

    def filtered(img, kernel):
        return torch.nn.functional.conv2d(img, kernel) * 2.0

    img = torch.rand(2, 1, 29, 33)
    first, second = torch.rand(1, 1, 3, 3), torch.rand(1, 1, 3, 3)
    with torch.no_grad():
        compiled = polyblocks_jit_torch(compile_options={"target": "cpu"})(filtered)
        for kernel in (first, second):
            report = validate_outputs(compiled(img, kernel), filtered(img, kernel), rtol=1e-4, atol=1e-5, verbose=False)
            assert report.ok, f"max abs {report.max_abs_error}"


def test_strided_padded_filter_chain():
    """A 5x5 blur with zero padding and stride 2 (one pyramid level), then a
    3x3 box filter: windows through strided slices of a padded image."""
    gauss = torch.tensor([1.0, 4.0, 6.0, 4.0, 1.0]) / 16

    def pyramid_level(img):
        kernel = (gauss[:, None] * gauss[None, :]).view(1, 1, 5, 5)
        down = torch.nn.functional.conv2d(img, kernel, stride=2, padding=2)
        return torch.nn.functional.conv2d(down, torch.ones(1, 1, 3, 3) / 9)

    check(pyramid_level, torch.rand(3, 1, 67, 45))


def test_conv2d_filters_become_elementwise_sums(tmp_path):
    """The graph stage holds no convolution for filters written as conv2d
    with a fixed kernel: they are sums of shifted reads, as in the slice
    form, and the whole blur is one kernel."""
    with torch.no_grad():
        compiled = polyblocks_jit_torch(
            compile_options={"target": "cpu", "debug": True, "debug_dir": str(tmp_path), "cache": False}
        )(bench.blur_x_blur_y_conv)
        # Large enough that the model fuses (the temporary outgrows the caches).
        img = torch.rand(3, 1024, 1030)
        report = validate_outputs(compiled(img), bench.blur_x_blur_y_conv(img), rtol=1e-4, atol=1e-5, verbose=False)
    assert report.ok
    graph = next(tmp_path.rglob("2-graph.mlir")).read_text()
    assert "linalg.conv_2d" not in graph
    affine = next(tmp_path.rglob("3-affine.mlir")).read_text()
    assert affine.count("pb.kernel}") == 1, "both blur stages fused into one kernel"
