"""The TensorFlow front: every compiled result is compared with TF's own.

The PyTorch front must be loaded before TensorFlow in one process (see
test_import_order); this module imports it first for the whole test run."""

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

pytest.importorskip("torch")
import polyblocks.torch_polyblocks_compiler  # noqa: E402,F401 - before tensorflow

tf = pytest.importorskip("tensorflow")

from polyblocks import options  # noqa: E402
from polyblocks.common_utils import validate_outputs  # noqa: E402
from polyblocks.tf_polyblocks_compiler import polyblocks_jit_tf, polymage_jit_tf  # noqa: E402


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path / "cache"))


def random(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def check(compiled, eager, *args, rtol=1e-4, atol=1e-5):
    report = validate_outputs(compiled(*args), eager(*args), rtol=rtol, atol=atol, verbose=False)
    assert report.ok, f"max abs {report.max_abs_error}, max rel {report.max_rel_error}"


def make_blur(height, width):
    def blur_x_blur_y(img):
        kernel = tf.constant([0.0625, 0.25, 0.375, 0.25, 0.0625], dtype=tf.float32)
        img_reshaped = tf.reshape(img, [3, height, width, 1])
        blurx = tf.nn.conv2d(img_reshaped, tf.reshape(kernel, [1, 5, 1, 1]), [1, 1, 1, 1], "VALID")
        blury = tf.nn.conv2d(blurx, tf.reshape(kernel, [5, 1, 1, 1]), [1, 1, 1, 1], "VALID")
        return tf.reshape(blury, [3, height - 4, width - 4])

    return blur_x_blur_y


def test_spec_blur_x_blur_y_numpy_and_tensor_inputs():
    blur = make_blur(37, 41)
    compiled = polyblocks_jit_tf(compile_options={"target": "cpu"})(blur)
    img = random(3, 37, 41)
    check(compiled, blur, img)
    check(compiled, blur, tf.constant(img))


def test_spec_conv_bias_add_relu_with_input_signature():
    signature = [
        tf.TensorSpec(shape=(1, 12, 14, 3), dtype=tf.float32),
        tf.TensorSpec(shape=(3, 3, 3, 8), dtype=tf.float32),
        tf.TensorSpec(shape=(8,), dtype=tf.float32),
    ]

    def conv_bias_add_relu(img, filters, bias):
        conv = tf.nn.conv2d(img, filters, strides=(1, 1), padding="SAME", dilations=(1, 1))
        return tf.nn.relu(tf.nn.bias_add(conv, bias))

    compiled = polyblocks_jit_tf(input_signature=signature, compile_options={"target": "cpu"})(conv_bias_add_relu)
    check(compiled, conv_bias_add_relu, random(1, 12, 14, 3), random(3, 3, 3, 8, seed=1), random(8, seed=2))


def test_keras_model_weights_are_read_at_each_call():
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(4)])
    x = random(6, 5)
    model(x)
    compiled = polyblocks_jit_tf(model)
    check(compiled, model, x)
    model.layers[0].kernel.assign(model.layers[0].kernel * 2.0)
    check(compiled, model, x)


def test_new_shapes_compile_once_each(monkeypatch):
    from polyblocks import engine

    calls = []
    real = engine.run_engine
    monkeypatch.setattr(engine, "run_engine", lambda source, args, *rest: calls.append(source) or real(source, args, *rest))
    compiled = polyblocks_jit_tf(lambda x: tf.nn.softmax(x * 2.0))
    for shape in [(3, 4), (3, 4), (5, 4), (3, 4)]:
        x = random(*shape)
        np.testing.assert_allclose(compiled(x), tf.nn.softmax(x * 2.0), rtol=1e-5, atol=1e-6)
    assert len(calls) == 2


def test_unsupported_op_runs_with_xla_and_warns():
    def f(x):
        return tf.sort(x) * 2.0

    x = random(7)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = polyblocks_jit_tf(f)(x)
    assert any("runs with TensorFlow's XLA JIT instead" in str(w.message) for w in caught)
    np.testing.assert_allclose(out, f(x))


def test_bad_options():
    with pytest.raises(options.OptionError, match="unknown compile option"):
        polyblocks_jit_tf(lambda x: x, compile_options={"targets": "cpu"})
    with pytest.raises(options.OptionError, match="execution_backend"):
        polymage_jit_tf(lambda x: x, execution_backend="jax")


def test_polymage_backends_agree():
    def f(x):
        return tf.tanh(x) * x

    x = random(8, 16)
    for backend in ("std", "xla", "polyblocks"):
        np.testing.assert_allclose(polymage_jit_tf(f, execution_backend=backend)(x), f(x), rtol=1e-6, atol=1e-6)


def test_blur_gives_the_same_numbers_in_all_three_frameworks():
    import jax
    import torch

    from polyblocks import polyblocks_jit_jax, polyblocks_jit_torch

    height, width = 29, 33
    img = random(3, height, width)
    taps = np.array([0.0625, 0.25, 0.375, 0.25, 0.0625], np.float32)

    def torch_blur(x):
        k = torch.tensor(taps)
        bx = torch.nn.functional.conv2d(x.view(3, 1, height, width), k.view(1, 1, 1, 5))
        return torch.nn.functional.conv2d(bx, k.view(1, 1, 5, 1)).view(3, height - 4, width - 4)

    def jax_blur(x):
        x = x.reshape(3, 1, height, width)
        bx = jax.lax.conv(x, taps.reshape(1, 1, 1, 5), (1, 1), "VALID")
        return jax.lax.conv(bx, taps.reshape(1, 1, 5, 1), (1, 1), "VALID").reshape(3, height - 4, width - 4)

    with torch.no_grad():
        from_torch = polyblocks_jit_torch(torch_blur)(torch.from_numpy(img)).numpy()
    from_tf = polyblocks_jit_tf(make_blur(height, width))(img).numpy()
    from_jax = np.asarray(polyblocks_jit_jax(jax_blur)(img))
    np.testing.assert_allclose(from_torch, from_tf, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(from_jax, from_tf, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(from_tf, make_blur(height, width)(img), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("order", ["torch-first", "tf-first"])
def test_import_order(order):
    first, second = ("polyblocks.torch_polyblocks_compiler", "tensorflow")
    if order == "tf-first":
        first, second = second, first
    script = (
        f"import {first}\n"
        "try:\n"
        f"    import {second}\n"
        "    print('both loaded')\n"
        "except ImportError as error:\n"
        "    print('ImportError:', error)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]  # never an abort
    if order == "torch-first":
        assert "both loaded" in result.stdout
    else:
        assert "must be imported before tensorflow" in result.stdout


NO_JAX_SCRIPT = """
import importlib.abc
import sys
import warnings


class NoJax(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("jax", "jaxlib"):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked by the test)", name=name)
        return None


sys.meta_path.insert(0, NoJax())

import numpy as np
import tensorflow as tf

from polyblocks.tf_polyblocks_compiler import polyblocks_jit_tf

rng = np.random.default_rng(0)
img, filters, bias = (rng.standard_normal(s).astype(np.float32) for s in [(1, 9, 11, 3), (3, 3, 3, 4), (4,)])


def conv_bias_relu_softmax(img, filters, bias):
    conv = tf.nn.conv2d(img, filters, strides=(1, 1), padding="SAME")
    return tf.nn.softmax(tf.nn.relu(tf.nn.bias_add(conv, bias)) * 2.0)


model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(3)])
x = rng.standard_normal((5, 7)).astype(np.float32)
model(x)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    got = polyblocks_jit_tf(conv_bias_relu_softmax)(img, filters, bias)
    got_model = polyblocks_jit_tf(model)(x)
fallbacks = [str(w.message) for w in caught if "polyblocks" in str(w.message)]
assert not fallbacks, fallbacks
np.testing.assert_allclose(got, conv_bias_relu_softmax(img, filters, bias), rtol=1e-4, atol=1e-5)
np.testing.assert_allclose(got_model, model(x), rtol=1e-4, atol=1e-5)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("jax", "jaxlib"))
assert not loaded, loaded
print("compiled without jax")
"""


def test_works_without_jax(tmp_path):
    # Importing jax or jaxlib fails in this process: the engine reads TF's
    # StableHLO itself (no jaxlib passes), and nothing falls back to XLA.
    env = {**os.environ, "POLYBLOCKS_CACHE_DIR": str(tmp_path / "cache")}
    result = subprocess.run([sys.executable, "-c", NO_JAX_SCRIPT], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "compiled without jax" in result.stdout
