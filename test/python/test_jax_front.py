"""The JAX front: every compiled result is compared with JAX's own."""

import warnings

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from polyblocks import options  # noqa: E402
from polyblocks.common_utils import validate_outputs  # noqa: E402
from polyblocks.jax_polyblocks_compiler import polyblocks_jit_jax, polymage_jit_jax  # noqa: E402


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path / "cache"))


def random(*shape, seed=0):
    return jax.device_put(np.random.default_rng(seed).standard_normal(shape).astype(np.float32), jax.devices("cpu")[0])


def check(compiled, eager, *args, rtol=1e-4, atol=1e-5):
    report = validate_outputs(compiled(*args), eager(*args), rtol=rtol, atol=atol, verbose=False)
    assert report.ok, f"max abs {report.max_abs_error}, max rel {report.max_rel_error}"


def blur_x_blur_y_flax(height, width):
    """The spec's JAX blur: flax nn.Conv with fixed 1x5 and 5x1 kernels."""
    import flax.linen as nn

    taps = np.array([0.0625, 0.25, 0.375, 0.25, 0.0625], np.float32)

    class Blur(nn.Module):
        @nn.compact
        def __call__(self, img):
            x = jnp.reshape(img, [3, height, width, 1])
            x = nn.Conv(1, kernel_size=[1, 5], padding="VALID", use_bias=False, name="blurx")(x)
            x = nn.Conv(1, kernel_size=[5, 1], padding="VALID", use_bias=False, name="blury")(x)
            return jnp.reshape(x, [3, height - 4, width - 4])

    model = Blur()
    variables = {"params": {"blurx": {"kernel": taps.reshape(1, 5, 1, 1)}, "blury": {"kernel": taps.reshape(5, 1, 1, 1)}}}
    return model, variables


def test_spec_blur_x_blur_y_with_flax_conv():
    model, variables = blur_x_blur_y_flax(37, 41)

    def blur(variables, img):
        return model.apply(variables, img)

    check(polyblocks_jit_jax(compile_options={"target": "cpu"})(blur), blur, variables, random(3, 37, 41))


def test_flax_cnn_with_parameters_as_arguments():
    import flax.linen as nn

    class CNN(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.relu(nn.Conv(8, kernel_size=(3, 3))(x))
            x = nn.max_pool(x, window_shape=(2, 2), strides=(2, 2))
            x = x.reshape((x.shape[0], -1))
            return nn.softmax(nn.Dense(10)(x))

    model = CNN()
    x = random(2, 12, 12, 3)
    variables = model.init(jax.random.PRNGKey(0), x)

    @polyblocks_jit_jax(compile_options={"target": "cpu"})
    def forward(variables, x):
        return model.apply(variables, x)

    check(forward, model.apply, variables, x)
    bumped = jax.tree_util.tree_map(lambda p: p * 1.5, variables)  # same shapes: no recompilation
    check(forward, model.apply, bumped, x)


def gradient_descent(X, D, learning_rate=0.0001, num_iterations=1000):
    w = jnp.zeros(X.shape[1])
    for _ in range(num_iterations):
        w = w - learning_rate * (X.T @ (X @ w - D))
    return w


def test_spec_gradient_descent_with_static_argnums():
    compiled = polyblocks_jit_jax(gradient_descent, compile_options={"target": "cpu", "debug": False, "static_argnums": (2, 3)})
    X, D = random(64, 8), random(64, seed=1)
    check(compiled, gradient_descent, X, D, 0.001, 50, rtol=1e-3, atol=1e-5)
    check(compiled, gradient_descent, X, D, 0.002, 20, rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize(
    "name,fn,shapes",
    [
        ("softmax", lambda x: jax.nn.softmax(x, axis=-1), [(12, 51, 37)]),
        (
            "layernorm",
            lambda x, g, b: (x - x.mean(-1, keepdims=True)) / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5) * g + b,
            [(5, 768), (768,), (768,)],
        ),
        (
            "attention",
            lambda q, k, v: jax.nn.softmax(q @ k.swapaxes(-1, -2) / 8.0, axis=-1) @ v,
            [(12, 31, 64), (12, 31, 64), (12, 31, 64)],
        ),
    ],
)
def test_softmax_layernorm_attention(name, fn, shapes):
    args = [random(*shape, seed=i) for i, shape in enumerate(shapes)]
    check(polyblocks_jit_jax(fn), fn, *args)


def test_pytrees_in_and_out():
    def f(params, x):
        return {"y": x @ params["w"] + params["b"], "norm": jnp.sum(x * x)}

    params = {"w": random(5, 3), "b": random(3, seed=2)}
    check(polyblocks_jit_jax(f), f, params, random(4, 5, seed=3))


def test_unsupported_op_runs_with_jax_jit_and_warns():
    def f(x):
        return jnp.sort(x) * 2

    x = random(9)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = polyblocks_jit_jax(f)(x)
    assert any("stablehlo.sort" in str(w.message) for w in caught), [str(w.message) for w in caught]
    np.testing.assert_allclose(out, f(x))
    with pytest.raises(Exception, match="stablehlo.sort"):
        polyblocks_jit_jax(f, compile_options={"fallback": False})(x)


def test_bad_inputs():
    with pytest.raises(options.OptionError, match="unknown compile option"):
        polyblocks_jit_jax(lambda x: x, compile_options={"static_argnum": (1,)})
    with pytest.raises(ValueError, match="static_argnums"):  # JAX checks the signature
        polyblocks_jit_jax(lambda x: x, compile_options={"static_argnums": (3,)})
    with pytest.raises(options.OptionError, match="static_argnums names argument 3"):  # we check the call
        polyblocks_jit_jax(lambda *xs: xs[0], compile_options={"static_argnums": (3,)})(random(2))
    with pytest.raises(TypeError):
        polyblocks_jit_jax(lambda x, n: x * n, compile_options={"static_argnums": (1,)})(random(2), [1, 2])


def test_polymage_backends_agree():
    def f(x):
        return jnp.tanh(x) * x

    x = random(8, 16)
    for backend in ("std", "xla", "polyblocks"):
        np.testing.assert_allclose(polymage_jit_jax(f, execution_backend=backend)(x), f(x), rtol=1e-6, atol=1e-6)
