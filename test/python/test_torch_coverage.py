"""Operators the engine compiles beyond linalg's named ops: torch-mlir's
tm_tensor scatter, scan, sort and topk (pb-lower-tm-tensor), and random
numbers, complex numbers. Compiled with
fallback off and compared with eager PyTorch (exactly for integers)."""

import pytest

torch = pytest.importorskip("torch")

from polyblocks.torch_polyblocks_compiler import polyblocks_jit_torch  # noqa: E402


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path / "cache"))
    torch._dynamo.reset()
    torch.manual_seed(0)


def same(fn, *inputs):
    with torch.no_grad():
        expected = fn(*[x.clone() for x in inputs])
        got = polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})(fn)(*inputs)
    expected, got = torch.utils._pytree.tree_leaves(expected), torch.utils._pytree.tree_leaves(got)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        torch.testing.assert_close(g, e, rtol=1e-5, atol=1e-5)


CASES = {
    "index_put": (lambda x, i, v: torch.index_put(x, (i,), v), torch.rand(10, 4), torch.tensor([1, 3, -2]), torch.rand(3, 4)),
    "index_put_accumulate_repeated": (
        lambda x, i, v: torch.index_put(x, (i,), v, accumulate=True),
        torch.rand(10, 4),
        torch.tensor([1, 3, 3, -7]),
        torch.rand(4, 4),
    ),
    "index_put_two_indices": (
        lambda x, i, j, v: torch.index_put(x, (i, j), v, accumulate=True),
        torch.rand(7, 5),
        torch.tensor([1, 3, 3]),
        torch.tensor([0, 2, 2]),
        torch.rand(3),
    ),
    "scatter_add": (lambda x, i, v: x.scatter_add(1, i, v), torch.rand(3, 5), torch.randint(0, 5, (3, 4)), torch.rand(3, 4)),
    "scatter": (lambda x, i, v: x.scatter(0, i, v), torch.rand(5, 3), torch.tensor([[4, 0, 2], [1, 3, 0]]), torch.rand(2, 3)),
    "cumsum": (lambda x: torch.cumsum(x, 1), torch.rand(3, 37)),
    "cumsum_first_dim_int": (lambda x: torch.cumsum(x, 0), torch.randint(-9, 9, (6, 5))),
    "cumprod": (lambda x: torch.cumprod(x, -1), torch.rand(3, 7) + 0.5),
    "sort": (lambda x: torch.sort(x, dim=1, stable=True), torch.randn(3, 17)),
    "sort_descending_ties": (lambda x: torch.sort(x, dim=0, descending=True, stable=True), torch.randint(0, 4, (9, 4))),
    "topk": (lambda x: torch.topk(x, 3, 1), torch.rand(3, 50)),
    "kthvalue": (lambda x: torch.kthvalue(x, 2, 1), torch.rand(3, 7)),
    "complex_multiply": (lambda x, y: x * y, torch.randn(3, 4, dtype=torch.complex64), torch.randn(3, 4, dtype=torch.complex64)),
    "complex_parts": (lambda x: torch.real(x) * 2 - torch.imag(x), torch.randn(3, 4, dtype=torch.complex64)),
    "complex_create": (lambda r, i: torch.complex(r, i), torch.rand(5), torch.rand(5)),
    "view_as_real": (lambda x: torch.view_as_real(x) + 1, torch.randn(3, 4, dtype=torch.complex64)),
    "polar": (lambda m, p: torch.polar(m, p), torch.rand(5, dtype=torch.float64), torch.rand(5, dtype=torch.float64)),
    "complex_norm": (lambda x: torch.linalg.vector_norm(x), torch.randn(3, 4, dtype=torch.complex64)),
    "avg_pool2d_unbatched": (lambda x: torch.nn.functional.avg_pool2d(x, 3, 2, 1, ceil_mode=True), torch.rand(5, 11, 16)),
    "max_pool2d_unbatched": (lambda x: torch.nn.functional.max_pool2d(x, 3, 2, 1), torch.rand(6, 10, 16)),
    "adaptive_max_pool2d": (
        lambda x: torch.nn.functional.adaptive_max_pool2d(x, (7, 13), return_indices=True),
        torch.rand(2, 8, 10, 16),
    ),
    "adaptive_max_pool1d_unbatched": (lambda x: torch.nn.functional.adaptive_max_pool1d(x, 7), torch.rand(8, 10)),
    "clamp_integers_by_floats": (lambda x: torch.clamp(x, min=-2.5, max=2.5), torch.randint(-10, 10, (3, 5))),
    "rfft": (lambda x: torch.fft.rfft(x, dim=0), torch.rand(16, 9)),
    "rfft2_ortho": (lambda x: torch.fft.rfft2(x, norm="ortho"), torch.rand(3, 6, 7)),
    "stft": (
        lambda x: torch.stft(x, n_fft=8, hop_length=2, return_complex=True, window=torch.hann_window(8)),
        torch.rand(2, 40),
    ),
    "integer_power": (lambda x: x**3 + x**0 - x**13, torch.randint(-5, 5, (20,))),
    "argsort": (lambda x: torch.argsort(x, dim=-1, stable=True), torch.randn(2, 3, 11)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_operator(name):
    fn, *inputs = CASES[name]
    same(fn, *inputs)


def test_random_numbers():
    # torch-mlir keeps the generator's seed in an ml_program global, which
    # bufferizes to a memref.global: each call draws new numbers. They are
    # not PyTorch's stream (as with torch.compile), so check statistics.
    def draw(x):
        r = torch.rand_like(x)
        return r, torch.nn.functional.dropout(torch.ones_like(x), 0.3, training=True), torch.randn_like(x)

    compiled = polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})(draw)
    with torch.no_grad():
        x = torch.zeros(400, 250)
        (uniform, dropped, normal), (again, _, _) = compiled(x), compiled(x)
    assert 0.0 <= uniform.min() and uniform.max() < 1.0
    assert abs(uniform.mean().item() - 0.5) < 0.01 and abs(uniform.std().item() - 12**-0.5) < 0.01
    assert not torch.equal(uniform, again)
    assert abs((dropped == 0).float().mean().item() - 0.3) < 0.01
    assert torch.allclose(dropped[dropped != 0], torch.tensor(1 / 0.7))
    assert abs(normal.mean().item()) < 0.02 and abs(normal.std().item() - 1.0) < 0.02


def test_randint_draws_integers_uniformly():
    # torch-mlir converted uniform(low, high) to the result type: floats
    # that were not integers, and negative draws truncated toward zero.
    def draw():
        return torch.randint(-3, 4, (70000,)), torch.ops.aten.randint(high=10, size=[50000], dtype=torch.float64)

    with torch.no_grad():
        small, wide = polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})(draw)()
    assert small.dtype == torch.int64 and wide.dtype == torch.float64
    assert torch.equal(wide, wide.floor()) and wide.min() == 0 and wide.max() == 9
    counts = torch.bincount(small + 3)
    assert len(counts) == 7 and (counts - 10000).abs().max() < 600


@pytest.mark.parametrize(
    "name,fn,shape",
    [
        ("view_of", lambda x: torch.ops.prims.view_of(x) * 2, (3, 4)),
        ("squeeze", lambda x: torch.ops.prims.squeeze(x, [1, 2]) + 1, (3, 1, 1, 4)),
        ("split_dim", lambda x: torch.ops.prims.split_dim(x, 1, 2) * 3, (3, 8)),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_primitive_views_called_directly(name, fn, shape):
    same(fn, torch.rand(*shape))
