"""The JAX front's two StableHLO paths, interleaved: the engine reading
JAX's StableHLO itself (the front's path) and jaxlib's conversion to linalg
(`compile_stablehlo(..., via_jaxlib=True)`, kept for this comparison), on a
flax CNN with max and average pooling and on matmul + layer norm +
softmax. Results are checked against jax.jit.

    OMP_NUM_THREADS=2 .venv/bin/python bench/jax_paths_bench.py
"""
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python"))
import numpy as np, jax, jax.numpy as jnp
import flax.linen as nn
from polyblocks import jit_common, polyblocks_jit_jax
real = jit_common.compile_stablehlo
class CNN(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Conv(32, (3, 3))(x)); x = nn.max_pool(x, (2, 2), strides=(2, 2))
        x = nn.relu(nn.Conv(64, (3, 3))(x)); x = nn.avg_pool(x, (2, 2), strides=(2, 2))
        return nn.Dense(10)(x.reshape((x.shape[0], -1)))
m = CNN(); x = jnp.ones((8, 64, 64, 3)); params = m.init(jax.random.PRNGKey(0), x)
def cnn(p, x): return m.apply(p, x)
def ln(x, w): 
    y = x @ w; mu = y.mean(-1, keepdims=True); v = jnp.mean(jnp.square(y - mu), -1, keepdims=True)
    return jax.nn.softmax((y - mu) / jnp.sqrt(v + 1e-5), -1)
xs = np.random.rand(256, 512).astype(np.float32); ws = np.random.rand(512, 768).astype(np.float32)
progs = {"cnn": (cnn, (params, x)), "matmul+layernorm+softmax": (ln, (xs, ws))}
for name, (f, args) in progs.items():
    fns = {}
    for via in (True, False):
        jit_common.compile_stablehlo = lambda *a, via=via, **k: real(*a[:5], via_jaxlib=via)
        g = polyblocks_jit_jax(f, compile_options={"cache": False}); out = g(*args); fns[via] = g
        jit_common.compile_stablehlo = real
    ref = np.asarray(jax.jit(f)(*args))
    times = {True: [], False: []}
    for r in range(5):
        for via in (True, False):
            g = fns[via]; t = time.perf_counter()
            for _ in range(10): g(*args)
            times[via].append((time.perf_counter() - t) / 10 * 1e3)
    err = {v: float(np.max(np.abs(np.asarray(fns[v](*args)) - ref))) for v in (True, False)}
    print(f"{name}: jaxlib path {np.median(times[True]):.2f} ms, engine path {np.median(times[False]):.2f} ms, ratio {np.median(times[True])/np.median(times[False]):.2f}x, err {err}")
