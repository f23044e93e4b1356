"""The PyTorch front: every compiled result is compared with eager PyTorch."""

import os
import pathlib
import re
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import polyblocks  # noqa: E402
from polyblocks import cache, engine, options  # noqa: E402
from polyblocks.common_utils import validate_outputs  # noqa: E402
from polyblocks.torch_polyblocks_compiler import (  # noqa: E402
    CompiledGraph,
    UnsupportedInput,
    polyblocks_aot_torch,
    polyblocks_jit_torch,
    polymage_jit_torch,
)

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path / "cache"))
    torch._dynamo.reset()
    torch.manual_seed(0)


def check(compiled, eager, *inputs, rtol=1e-4, atol=1e-5):
    with torch.no_grad():
        report = validate_outputs(compiled(*inputs), eager(*inputs), rtol=rtol, atol=atol, verbose=False)
    assert report.ok, f"max abs {report.max_abs_error}, max rel {report.max_rel_error}"


def make_blur(height, width):
    def blur_x_blur_y(img):
        kernel = torch.tensor([0.0625, 0.25, 0.375, 0.25, 0.0625], device=img.device).float()
        blurx = torch.nn.functional.conv2d(img.view(3, 1, height, width), kernel.view(1, 1, 1, 5), stride=1, padding=0)
        blury = torch.nn.functional.conv2d(blurx, kernel.view(1, 1, 5, 1), stride=1, padding=0)
        return blury.view(3, height - 4, width - 4)

    return blur_x_blur_y


@pytest.mark.parametrize("height,width", [(5, 5), (37, 41), (64, 97)])
def test_spec_blur_x_blur_y(height, width):
    blur = make_blur(height, width)
    compiled = polyblocks_jit_torch(compile_options={"target": "cpu"})(blur)
    check(compiled, blur, torch.rand(3, height, width))


def test_inputs_are_never_written():
    # Bufferization used to reuse the dead input's buffer for the result of
    # this clone-and-update chain, overwriting the caller's tensor.
    def step(a):
        b = a.clone()
        b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:] + a[2:, 1:-1] + a[:-2, 1:-1])
        return b

    x = torch.rand(37, 41)
    original = x.clone()
    compiled = polyblocks_jit_torch()(step)
    with torch.no_grad():
        result = compiled(x)
    assert torch.equal(x, original)
    torch.testing.assert_close(result, step(original))


def test_large_outputs_are_reused_only_when_free():
    # Outputs of 32 MiB and more come from a pool of buffers already mapped;
    # a buffer must not be handed out again while a view of it is alive.
    side = 1700
    assert 3 * side * side * 4 >= polyblocks.torch_polyblocks_compiler._OutputPool.THRESHOLD
    blur = make_blur(side, side)
    compiled = polyblocks_jit_torch()(blur)
    a, b = torch.rand(3, side, side), torch.rand(3, side, side)
    with torch.no_grad():
        first_row = compiled(a)[0]  # the output tensor dies, its storage lives on in the view
        second = compiled(b)
        third = compiled(a)
        del third
        fourth = compiled(b)  # may reuse the third's buffer
    torch.testing.assert_close(first_row, blur(a)[0])
    torch.testing.assert_close(second, blur(b))
    torch.testing.assert_close(fourth, blur(b))
    assert first_row.data_ptr() != second.data_ptr()


@pytest.mark.cpu_only
def test_report_explains_fusion(caplog):
    # Large enough that fusing pays (a blur of 3x131x127 stays in cache
    # unfused, and the model says so).
    blur = make_blur(1031, 1027)
    compiled = polyblocks_jit_torch(compile_options={"report": True})(blur)
    check(compiled, blur, torch.rand(3, 1031, 1027))
    # The report is logged (logger "polyblocks", INFO).
    err = caplog.text
    assert "[pb-fuse] fused producers" in err, err
    assert "row tile" in err and "recomputation" in err, err


class ConvBiasRelu(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 16, kernel_size=3, stride=1, bias=True)

    def forward(self, x):
        return torch.nn.functional.relu(self.conv(x))


def test_conv_bias_relu_module_as_decorated_call_site():
    model = ConvBiasRelu().eval()
    check(polyblocks_jit_torch(model), model, torch.randn(2, 3, 17, 19))


@pytest.mark.parametrize("m,k,n", [(257, 131, 509), (1021, 67, 97), (7, 3, 5)])
def test_matmul_at_prime_sizes(m, k, n):
    # Register tiles (6 x 64) and cache tiles that divide nothing: the
    # remainder rows and columns must be computed exactly once.
    compiled = polyblocks_jit_torch()(torch.mm)
    check(compiled, torch.mm, torch.randn(m, k), torch.randn(k, n), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shape", [(2, 14, 14, 24), (1, 7, 9, 20)])
def test_linear_layers_over_channels_last_activations(shape):
    # convnext's blocks: Linear layers over NHWC activations, whose rows
    # reach the product as 2 or 3 loops flattened (the reshape folded into
    # the accesses); odd sizes leave row and column tails.
    torch.manual_seed(0)
    channels = shape[-1]
    mlp = torch.nn.Sequential(
        torch.nn.Linear(channels, 4 * channels), torch.nn.GELU(), torch.nn.Linear(4 * channels, channels)
    ).eval()
    with torch.no_grad():
        check(polyblocks_jit_torch()(mlp), mlp, torch.randn(*shape), rtol=1e-4, atol=1e-4)


def test_sequence_first_attention_projections():
    # nn.MultiheadAttention over (L, N, E) activations: the projections'
    # rows are (position, batch) pairs, 5 per position, which the
    # contraction path runs as one product of L * N rows.
    torch.manual_seed(0)
    attention = torch.nn.MultiheadAttention(24, 4).eval()
    x = torch.randn(13, 5, 24)

    def attend(x):
        return attention(x, x, x, need_weights=False)[0]

    with torch.no_grad():
        check(polyblocks_jit_torch()(attend), attend, x, rtol=1e-4, atol=1e-4)


class SmallResNet(torch.nn.Module):
    """ResNet's ops at odd sizes: a strided stem, batch norm, max pool, a
    residual block with a strided 1x1 downsample, global average pool,
    flatten and a linear layer."""

    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 16, 5, stride=2, padding=2, bias=False)
        self.bn = torch.nn.BatchNorm2d(16)
        self.pool = torch.nn.MaxPool2d(3, stride=2, padding=1)
        self.conv1 = torch.nn.Conv2d(16, 24, 3, stride=2, padding=1, bias=False)
        self.bn1 = torch.nn.BatchNorm2d(24)
        self.conv2 = torch.nn.Conv2d(24, 24, 3, padding=1)
        self.down = torch.nn.Conv2d(16, 24, 1, stride=2)
        self.fc = torch.nn.Linear(24, 10)
        for bn in (self.bn, self.bn1):
            bn.running_mean.uniform_(-0.5, 0.5)
            bn.running_var.uniform_(0.5, 2.0)

    def forward(self, x):
        x = self.pool(torch.relu(self.bn(self.stem(x))))
        y = self.conv2(torch.relu(self.bn1(self.conv1(x))))
        x = torch.relu(y + self.down(x))
        return self.fc(torch.flatten(torch.nn.functional.adaptive_avg_pool2d(x, 1), 1))


@pytest.mark.parametrize("channels_last", [True, False])
def test_convolution_network_in_either_layout(channels_last, tmp_path):
    # pb-channels-last stores the feature maps N x H x W x C inside the
    # graph (the default); the result is eager's either way, and the graph
    # stage shows which layout ran.
    model = SmallResNet().eval()
    options = {"channels_last": channels_last, "debug": True, "debug_dir": str(tmp_path / "dump")}
    compiled = polyblocks_jit_torch(compile_options=options)(model)
    check(compiled, model, torch.randn(2, 3, 29, 31), rtol=1e-4, atol=1e-4)
    graph = "".join(path.read_text() for path in (tmp_path / "dump").rglob("2-graph.mlir"))
    # The stem's output: 2 x 16 x 15 x 16 in NCHW, 2 x 15 x 16 x 16 stored channels-last.
    assert ("memref<2x15x16x16xf32>" in graph) == channels_last
    assert "memref<2x16x15x16xf32>" in graph or channels_last


def test_strided_and_transposed_contractions():
    # Stride-2 convolution (B gathered by the packing copy) and x @ w.T
    # (B transposed), at odd sizes.
    conv = torch.nn.Conv2d(5, 24, 3, stride=2).eval()
    check(polyblocks_jit_torch()(conv), conv, torch.randn(1, 5, 71, 69), rtol=1e-4, atol=1e-4)

    def scaled_scores(q, k):
        return (q * 0.125) @ (k * 0.125).transpose(-1, -2)

    check(polyblocks_jit_torch()(scaled_scores), scaled_scores, torch.randn(3, 37, 16), torch.randn(3, 131, 16))


def test_transposes_read_by_reductions_are_folded(tmp_path):
    # A^T (A x), a least-squares step and a column sum of a transpose: the
    # transposes are read through permuted maps (pb-fold-transposes), no
    # copy is left; odd sizes leave tails of every vector width.
    def normal_equations(a, x):
        return a.t() @ (a @ x)

    def step(x, w, d):
        return w - 1e-3 * (x.T @ (x @ w - d))

    def head_scale(q):
        return q.permute(0, 2, 1, 3) * 0.125

    dump = {"debug": True, "debug_dir": str(tmp_path / "dump")}
    check(polyblocks_jit_torch(compile_options=dump)(normal_equations), normal_equations, torch.randn(301, 277), torch.randn(277), rtol=1e-4, atol=1e-3)
    graph = "".join(path.read_text() for path in (tmp_path / "dump").rglob("2-graph.mlir"))
    assert "linalg.transpose" not in graph
    check(polyblocks_jit_torch()(step), step, torch.randn(203, 45), torch.randn(45), torch.randn(203), atol=1e-4)
    check(polyblocks_jit_torch()(lambda a: a.t().sum(1)), lambda a: a.t().sum(1), torch.randn(67, 531), atol=1e-4)
    check(polyblocks_jit_torch()(head_scale), head_scale, torch.randn(2, 19, 3, 24))


def test_forward_hooks_of_the_module_still_run():
    """The decorated module calls the original's compiled `forward` (a
    shorter call path) only while the original has no forward hooks; with
    hooks, the compiled module runs them like eager."""
    model = torch.nn.Linear(8, 4)
    compiled = polyblocks_jit_torch(model)
    x = torch.randn(3, 8)
    check(compiled, model, x)
    handle = model.register_forward_hook(lambda module, inputs, output: output * 2 + 1)
    check(compiled, model, x)
    handle.remove()
    check(compiled, model, x)


def test_gradients_through_a_compiled_module():
    """With grad enabled, AOTAutograd compiles a forward graph that returns
    an output twice (the result and the same tensor saved for backward;
    pb-compile used to crash on it) and a backward graph whose incoming
    gradient is an expanded view: both compiled, gradients as eager's."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 8), torch.nn.Tanh())
    compiled = polyblocks_jit_torch(model)
    x = torch.randn(5, 16)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no part of either graph left to PyTorch
        compiled(x).sum().backward()
    ours = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    model(x).sum().backward()
    for got, want in zip(ours, (p.grad for p in model.parameters())):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)


def test_mlp():
    model = torch.nn.Sequential(torch.nn.Linear(33, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10)).eval()
    check(polyblocks_jit_torch(model), model, torch.randn(7, 33))


def test_softmax_function_decorator_without_arguments():
    @polyblocks_jit_torch
    def softmax(x):
        return torch.softmax(x, dim=-1)

    check(softmax, lambda x: torch.softmax(x, dim=-1), torch.randn(12, 51, 37))


def test_row_maxima_propagate_nan_and_keep_infinities():
    """Max/min reductions are vectorized with a relaxed (`nsz`) step: NaN
    anywhere in a row (first, middle or last lane of a vector, or in the
    scalar remainder) still makes the row's result NaN, infinities win or
    lose as they should, and a zero maximum equals eager's."""

    def reductions(x):
        return torch.amax(x, dim=-1), torch.amin(x, dim=-1), torch.softmax(x, dim=-1)

    x = torch.randn(8, 70)
    x[0, 0] = float("nan")
    x[1, 31] = float("nan")
    x[2, 69] = float("nan")  # the scalar remainder
    x[3, :] = float("-inf")
    x[3, 5] = float("inf")
    x[4, :] = -torch.rand(70)
    x[4, 17] = -0.0
    x[4, 40] = 0.0
    x[5, 10] = float("inf")
    x[6, 22] = float("-inf")
    compiled = polyblocks_jit_torch(reductions)
    with torch.no_grad():
        got, want = compiled(x), reductions(x)
    for g, w in zip(got, want):
        assert torch.equal(torch.isnan(g), torch.isnan(w))
    check(compiled, reductions, x)


def test_layernorm_gelu():
    model = torch.nn.Sequential(torch.nn.LayerNorm(768), torch.nn.GELU()).eval()
    check(polyblocks_jit_torch(model), model, torch.randn(5, 768))


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_alone_compiles_as_eager_computes_it(tmp_path, approximate):
    """GELU by PyTorch's own decomposition: x (1/sqrt(2)) as eager does it,
    not torch-mlir's division; tanh-GELU's x^3 reaches the llvm stage as a
    vectorized math.fpowi (which once failed there). No fallback warning."""
    model = torch.nn.GELU(approximate=approximate)
    options = {"debug": True, "debug_dir": str(tmp_path), "cache": False, "fallback": False}
    x = torch.cat([torch.randn(7, 48) * 3, torch.linspace(-6, 6, 48)[None]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check(polyblocks_jit_torch(model, compile_options=options), model, x)
    graphs = [g.read_text() for g in tmp_path.rglob("2-graph.mlir")]
    assert graphs and not any("arith.divf" in g for g in graphs)


@pytest.mark.cpu_only
def test_float_powers_are_computed_inline(tmp_path):
    """Float powers by a tensor of exponents and by constants (gamma 1/2.2,
    2, 3, 0.5): eager's values (2 and 3 bit for bit, as its kernels compute
    them: products; 0.5 the IEEE square root, which eager's vectorized
    kernel can miss by a bit), vectorized, with no call to libm's powf."""

    def powers(x, y):
        a = x.abs()
        return a**y, torch.pow(a.clamp(0.0, 1.0), 1 / 2.2), x**2.0, x**3.0, a**0.5, torch.pow(x, y.round())

    options = {"debug": True, "debug_dir": str(tmp_path), "cache": False, "fallback": False}
    x = torch.cat([torch.randn(5, 64) * 4, torch.tensor([[0.0, -0.0, 1.0, -1.0] * 16])])
    y = torch.cat([torch.randn(5, 64) * 3, torch.tensor([[0.0, 2.5, -3.0, 7.0] * 16])])
    compiled = polyblocks_jit_torch(powers, compile_options=options)
    got, want = compiled(x, y), powers(x, y)
    for g, w in zip(got, want):
        torch.testing.assert_close(g, w, rtol=2e-6, atol=0, equal_nan=True)
    for k in (2, 3):
        assert torch.equal(got[k], want[k])
    assert np.array_equal(got[4].numpy(), np.sqrt(np.abs(x.numpy())))
    llvm = "".join(p.read_text() for p in tmp_path.rglob("5-llvm.mlir"))
    assert "llvm.fmul" in llvm and "powf" not in llvm and "llvm.intr.pow" not in llvm


GATHER_PROGRAMS = {
    "replicate_pad": lambda x: torch.nn.functional.pad(x, (1, 2, 3, 1), mode="replicate"),
    "reflect_pad": lambda x: torch.nn.functional.pad(x, (2, 2, 1, 1), mode="reflect"),
    "nearest_x2": lambda x: torch.nn.functional.interpolate(x, scale_factor=2, mode="nearest"),
    "nearest_to_size": lambda x: torch.nn.functional.interpolate(x, size=(23, 40), mode="nearest"),
    "bilinear_x2": lambda x: torch.nn.functional.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False),
    "bilinear_corners": lambda x: torch.nn.functional.interpolate(x, size=(20, 31), mode="bilinear", align_corners=True),
    "roll_flip": lambda x: torch.roll(x, shifts=(2, -3), dims=(2, 3)).flip(-1) * 2.0,
}


@pytest.mark.parametrize("name", sorted(GATHER_PROGRAMS))
def test_index_computing_ops_match_eager(tmp_path, name):
    """Padding, upsampling, roll and flip, which PyTorch decomposes into
    gathers with computed indices (pb-affine-gathers reads those that are
    piecewise affine through affine maps): eager's values exactly, at an
    odd size, with no fallback. The paddings and nearest upsampling by 2
    keep no gather."""
    program = GATHER_PROGRAMS[name]
    options = {"debug": True, "debug_dir": str(tmp_path), "cache": False, "fallback": False}
    x = torch.randn(2, 3, 11, 17)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = polyblocks_jit_torch(program, compile_options=options)(x)
    want = program(x)
    torch.testing.assert_close(got, want, rtol=1e-6, atol=1e-6)
    if name in ("replicate_pad", "reflect_pad", "nearest_x2"):
        assert torch.equal(got, want)
        graphs = "".join(g.read_text() for g in tmp_path.rglob("2-graph.mlir"))
        assert graphs and "memref.load" not in graphs and "tensor.extract " not in graphs, name


@pytest.mark.cpu_only
@pytest.mark.parametrize("contract", [True, False])
def test_fp_contract_option(tmp_path, contract):
    """`fp_contract` (default on): x * w + b reaches LLVM as one contractable
    pair (a fused multiply-add); off, as separately rounded ops. Either way
    the result is eager's within rounding."""

    def scale_shift(x, w, b):
        return x * w + b

    options = {"debug": True, "debug_dir": str(tmp_path), "cache": False, "fp_contract": contract}
    inputs = (torch.randn(33, 48), torch.randn(48), torch.randn(48))
    check(polyblocks_jit_torch(scale_shift, compile_options=options), scale_shift, *inputs)
    llvm = "".join(p.read_text() for p in tmp_path.rglob("5-llvm.mlir"))
    assert "llvm.fmul" in llvm
    assert ("fastmath<contract>" in llvm) == contract


def test_variance_stays_in_input_precision(tmp_path):
    """LayerNorm, GroupNorm and torch.var compute in float32 (torch-mlir's
    own lowering converts the input to float64), with eager's results."""
    model = torch.nn.Sequential(torch.nn.LayerNorm(33), torch.nn.GroupNorm(3, 6)).eval()
    options = {"debug": True, "debug_dir": str(tmp_path), "cache": False}
    check(polyblocks_jit_torch(model, compile_options=options), model, torch.randn(2, 6, 7, 33))
    graphs = list(tmp_path.rglob("2-graph.mlir"))
    assert graphs and not any("xf64>" in g.read_text() for g in graphs)

    def variance(x):
        return torch.var(x, dim=1, correction=1), torch.var_mean(x, dim=(0, 2), keepdim=True)

    check(polyblocks_jit_torch(variance), variance, torch.randn(4, 9, 5))


def test_scaled_dot_product_attention():
    def attention(q, k, v):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v)

    q, k, v = (torch.randn(2, 12, 31, 64) for _ in range(3))
    check(polyblocks_jit_torch(attention), attention, q, k, v, rtol=1e-4, atol=1e-5)


def test_resnet18():
    torchvision = pytest.importorskip("torchvision")
    model = torchvision.models.resnet18(weights=None).eval()
    check(polyblocks_jit_torch(model), model, torch.randn(1, 3, 64, 64), rtol=1e-3, atol=1e-4)


def test_two_layer_transformer_encoder():
    layer = torch.nn.TransformerEncoderLayer(64, 4, 128, dropout=0.0, batch_first=True)
    model = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False).eval()
    check(polyblocks_jit_torch(model), model, torch.randn(2, 9, 64), rtol=1e-4, atol=1e-5)


def test_weights_are_arguments_not_constants():
    model = torch.nn.Linear(6, 4).eval()
    compiled = polyblocks_jit_torch(model)
    x = torch.randn(3, 6)
    check(compiled, model, x)
    with torch.no_grad():
        model.weight.mul_(2.0)  # new values, same shapes: no recompilation needed
    check(compiled, model, x)


def count_compiles(monkeypatch):
    calls = []
    real = engine.run_engine

    def counting(source, args, *rest):
        calls.append(source)
        return real(source, args, *rest)

    monkeypatch.setattr(engine, "run_engine", counting)
    return calls


def test_same_shapes_never_recompile(monkeypatch):
    calls = count_compiles(monkeypatch)
    compiled = polyblocks_jit_torch(lambda x: torch.tanh(x) + 1)
    with torch.no_grad():
        for _ in range(3):
            compiled(torch.randn(4, 5))
        assert len(calls) == 1
        compiled(torch.randn(6, 5))
        assert len(calls) == 2


def test_many_shapes_stay_compiled(monkeypatch):
    """After a second shape TorchDynamo traces symbolic sizes; the engine
    compiles that graph once per concrete signature (sizes and integer
    arguments as constants). Past Dynamo's recompile limit (8) a program
    with dynamic=False would silently run eager; here every call runs
    compiled code, each signature compiled once."""
    runs = []
    for name in ("__call__", "trusted_call"):  # checked (specialized graphs) and guarded (the static one)
        real = getattr(CompiledGraph, name)
        monkeypatch.setattr(CompiledGraph, name, lambda self, *args, real=real: runs.append(1) or real(self, *args))
    calls = count_compiles(monkeypatch)

    def scaled_softmax(x, k):
        return torch.softmax(x * k, -1) + x.shape[0]

    compiled = polyblocks_jit_torch(scaled_softmax)
    signatures = [(rows, k) for rows in range(2, 14) for k in (2, 3)]
    with torch.no_grad():
        for rows, k in signatures + signatures[:3]:
            x = torch.randn(rows, 7)
            check(compiled, scaled_softmax, x, k)
    assert len(runs) == len(signatures) + 3  # compiled code on every call
    assert len(calls) <= len(signatures) + 2


def test_many_modules_of_one_class_stay_compiled(monkeypatch):
    """Dynamo counts compiled entries per code object: every nn.Linear
    shares `Linear.forward`, and the ninth Linear module compiled in a
    process used to run in eager PyTorch, silently (its recompile limit is
    8). Each module's first call may add an entry; every call runs compiled
    code."""
    runs = []
    for name in ("__call__", "trusted_call"):
        real = getattr(CompiledGraph, name)
        monkeypatch.setattr(CompiledGraph, name, lambda self, *args, real=real: runs.append(1) or real(self, *args))
    modules = [torch.nn.Linear(3 + n, 5).eval() for n in range(12)]
    with torch.no_grad():
        for module in modules:
            check(polyblocks_jit_torch(module), module, torch.randn(4, module.in_features))
    assert len(runs) == len(modules)


def test_a_new_process_hits_the_disk_cache(tmp_path):
    script = (
        "import sys, torch\n"
        f"sys.path.insert(0, {str(REPO / 'python')!r})\n"
        "from polyblocks import polyblocks_jit_torch\n"
        "f = polyblocks_jit_torch(lambda x: x * 3 + 1, compile_options={'debug': True, 'debug_dir': sys.argv[1]})\n"
        "with torch.no_grad():\n"
        "    print(f(torch.ones(2, 3)).sum().item())\n"
    )
    env = dict(os.environ)
    runs = [
        subprocess.run([sys.executable, "-c", script, str(tmp_path / "dumps")], capture_output=True, text=True, env=env, check=True)
        for _ in range(2)
    ]
    assert "24.0" in runs[0].stdout and "24.0" in runs[1].stdout
    # The debug option's messages are logged (stderr without a logging set-up).
    assert "legalize" in runs[0].stderr and "disk cache hit" not in runs[0].stderr
    assert "disk cache hit" in runs[1].stderr
    dumps = next((tmp_path / "dumps").iterdir())
    assert {p.name for p in dumps.iterdir()} >= {"1-legalize.mlir", "3-affine.mlir", "5-llvm.mlir", "6-optimized.ll"}


def test_concurrent_builds_of_one_key_build_once(tmp_path):
    built = []

    def build(folder):
        built.append(folder)
        (folder / "artifact").write_text("x")

    results = []
    threads = [threading.Thread(target=lambda: results.append(cache.lookup_or_build("k" * 32, build))) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(built) == 1
    assert len({folder for folder, _ in results}) == 1
    assert all((folder / "artifact").read_text() == "x" for folder, _ in results)


def test_threads_call_one_compiled_function_with_their_own_pools():
    """JIT temporaries come from a pool per thread (runtime.Function): calls
    from several threads at once must not share one."""
    import threading

    def pipeline(x):
        # Temporaries between the reductions and the elementwise ops.
        t = torch.softmax(x * 2.0, dim=-1)
        return torch.relu(t - t.mean(dim=-1, keepdim=True)) + torch.tanh(x)

    compiled = polyblocks_jit_torch(pipeline)
    inputs = [torch.randn(64, 257) for _ in range(8)]
    with torch.no_grad():
        compiled(inputs[0])
        results, errors = {}, []

        def work(index):
            try:
                for _ in range(20):
                    results[index] = compiled(inputs[index])
            except Exception as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors, errors
        for index, x in enumerate(inputs):
            report = validate_outputs(results[index], pipeline(x), rtol=1e-4, atol=1e-5, verbose=False)
            assert report.ok, f"thread {index}: max abs {report.max_abs_error}"


def test_unsupported_operator_runs_in_pytorch_with_one_warning():
    def model(x):
        y = torch.special.zeta(x, x + 2)  # no linalg lowering for zeta
        return torch.relu(y) * 2 + x

    compiled = polyblocks_jit_torch(model)
    x = torch.rand(4, 6) + 1
    with warnings.catch_warnings(record=True) as caught, torch.no_grad():
        warnings.simplefilter("always")
        out = compiled(x)
    messages = [str(w.message) for w in caught if "polyblocks" in str(w.message)]
    assert len(messages) == 1, messages
    assert "aten.special_zeta" in messages[0] and "test_torch_front.py:" in messages[0]
    torch.testing.assert_close(out, model(x))


def test_fallback_can_be_turned_off():
    compiled = polyblocks_jit_torch(lambda x: torch.special.zeta(x, x + 2), compile_options={"fallback": False})
    with pytest.raises(Exception, match="zeta"), torch.no_grad():
        compiled(torch.rand(3, 4) + 1)


def test_other_dtypes_and_non_contiguous_inputs():
    compiled = polyblocks_jit_torch(lambda x, y: x @ y + 1)
    a, b = torch.randn(5, 7, dtype=torch.float64), torch.randn(7, 3, dtype=torch.float64)
    check(compiled, lambda x, y: x @ y + 1, a, b)
    transposed = torch.randn(7, 5).t()  # not contiguous
    check(compiled, lambda x, y: x @ y + 1, transposed, torch.randn(7, 3))


def test_wrong_rank_is_an_error_like_eager():
    compiled = polyblocks_jit_torch(lambda x, w: torch.nn.functional.conv2d(x, w))
    with pytest.raises(Exception), torch.no_grad():
        compiled(torch.randn(3, 8), torch.randn(2, 3, 3, 3))


def test_compiled_graph_checks_its_arguments(tmp_path):
    library = polyblocks.compile_mlir((REPO / "examples" / "workloads" / "matmul.mlir").read_text(), tmp_path, "graph_src")
    library.functions["graph"] = library.functions.pop("matmul")
    graph = CompiledGraph(library, [((67, 29), torch.float32)])
    with pytest.raises(UnsupportedInput, match="compiled for f32"):
        graph(torch.randn(67, 45, dtype=torch.float64), torch.randn(45, 29))
    with pytest.raises(UnsupportedInput, match="takes 2 tensors"):
        graph(torch.randn(67, 45))
    out = graph(torch.ones(67, 45), torch.ones(45, 29))[0]
    assert torch.all(out == 45)


def test_an_engine_crash_is_reported_as_ours(tmp_path, monkeypatch):
    """A pb-compile killed by a signal is named as an internal error with
    the module to report, not as "exited with -11"."""
    fake = tmp_path / "pb-compile"
    fake.write_text("#!/bin/sh\nkill -SEGV $$\n")
    fake.chmod(0o755)
    monkeypatch.setenv("POLYBLOCKS_COMPILE", str(fake))
    source = tmp_path / "module.mlir"
    source.write_text("module {}\n")
    with pytest.raises(engine.CompileError, match=r"pb-compile crashed \(SIGSEGV\) compiling .*module\.mlir: an internal error"):
        engine.run_engine(source, [])


@pytest.mark.cpu_only
def test_unknown_and_unavailable_options_are_clear_errors():
    with pytest.raises(options.OptionError, match=r"unknown compile option\(s\) 'tagret'; valid options are:\n  target:"):
        polyblocks_jit_torch(compile_options={"tagret": "cpu"})
    with pytest.raises(options.OptionError, match="target must be one of 'cpu', 'nvgpu', 'amdgpu', got 'tpu'"):
        polyblocks_jit_torch(compile_options={"target": "tpu"})
    with pytest.raises(options.OptionError, match="gpu must be one of 'sm_80'"):
        polyblocks_jit_torch(compile_options={"target": "nvgpu", "gpu": "sm_70"})
    with pytest.raises(options.OptionError, match="gpu must be one of 'gfx1100' for target 'amdgpu', got 'sm_90'"):
        polyblocks_jit_torch(compile_options={"target": "amdgpu", "gpu": "sm_90"})
    with pytest.raises(options.OptionError, match="need target 'nvgpu' or 'amdgpu'"):
        polyblocks_jit_torch(compile_options={"emulate": True})
    with pytest.raises(options.OptionError, match="opt_level"):
        polyblocks_jit_torch(compile_options={"opt_level": 7})


@pytest.mark.cpu_only
def test_compile_budget_spent_leaves_the_rest_unfused_with_a_warning():
    # A blur of a blur: two loop nests pb-fuse would fuse. With a budget
    # that is spent before pb-fuse runs, they stay apart, the result is the
    # same, and the user is told why and what to change.
    def f(x):
        y = x[:, 1:] + x[:, :-1]
        return y[1:, :] + y[:-1, :]

    x = torch.randn(300, 301)
    with torch.no_grad():
        reference = f(x)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = polyblocks_jit_torch(f, compile_options={"compile_budget": 1e-6, "cache": False})(x)
    torch.testing.assert_close(out, reference)
    messages = [str(w.message) for w in caught]
    assert any(re.search(r"\[pb-fuse\] compile budget spent: .* left unfused .*compile_budget", m) for m in messages), messages
    assert any("[pb-forward-copies] compile budget spent" in m for m in messages), messages
    with pytest.raises(options.OptionError, match="compile_budget"):
        polyblocks_jit_torch(compile_options={"compile_budget": -1})
    with pytest.raises(options.OptionError, match="compile_budget"):
        polyblocks_jit_torch(compile_options={"compile_budget": "60"})


def test_polymage_backends_agree():
    def f(x):
        return torch.sigmoid(x) * x

    x = torch.randn(8, 16)
    assert polymage_jit_torch(f, execution_backend="std") is f
    with torch.no_grad():
        reference = f(x)
        for backend in ("inductor", "polyblocks"):
            torch.testing.assert_close(polymage_jit_torch(f, execution_backend=backend)(x), reference)
    with pytest.raises(options.OptionError, match="execution_backend"):
        polymage_jit_torch(f, execution_backend="tvm")


def test_registered_torch_compile_backend():
    f = torch.compile(lambda x: torch.exp(x) - 1, backend="polyblocks")
    x = torch.randn(5, 5)
    with torch.no_grad():
        torch.testing.assert_close(f(x), torch.exp(x) - 1)


def test_validate_outputs_reports_errors():
    good = validate_outputs(torch.ones(3), torch.ones(3) + 1e-7, verbose=False)
    assert good.ok and good.max_abs_error < 1e-6
    bad = validate_outputs((torch.ones(3), torch.zeros(2)), (torch.ones(3), torch.ones(2)), verbose=False)
    assert not bad.ok and bad.max_abs_error == 1.0
    with pytest.raises(ValueError, match="shape"):
        validate_outputs(torch.ones(3), torch.ones(4), verbose=False)
    # NaN and infinities where the reference has them match; elsewhere not.
    special = torch.tensor([float("nan"), float("inf"), float("-inf"), 1.0])
    assert validate_outputs(special.clone(), special, verbose=False).ok
    for index, wrong in [(0, 1.0), (1, 1e30), (2, float("inf")), (3, float("nan")), (3, float("inf"))]:
        changed = special.clone()
        changed[index] = wrong
        assert not validate_outputs(changed, special, verbose=False).ok, (index, wrong)


def test_aot_writes_object_and_header(tmp_path, capsys):
    model = ConvBiasRelu().eval()
    artifact = polyblocks_aot_torch(compile_options={"aot_dir": str(tmp_path), "aot_name": "conv_bias_relu"})(model)(
        torch.randn(1, 3, 16, 16)
    )
    assert f"wrote {artifact.object_path}" in capsys.readouterr().out
    header = artifact.header_path.read_text()
    assert "void conv_bias_relu(" in header
    assert "Type/shape of input0 is memref<1x3x16x16xf32>." in header
    assert "memref<1x16x14x14xf32>" in header
    symbols = subprocess.run(["/usr/lib/llvm-22/bin/llvm-nm", artifact.object_path], capture_output=True, text=True).stdout
    assert " T conv_bias_relu" in symbols


class DenseBlock(torch.nn.Module):
    """DenseNet's block: every layer reads the concatenation of all earlier
    features (one buffer after pb-concat-prefixes)."""

    def __init__(self, channels=8, growth=4, layers=4):
        super().__init__()
        self.layers = torch.nn.ModuleList(
            torch.nn.Sequential(
                torch.nn.BatchNorm2d(channels + k * growth),
                torch.nn.ReLU(),
                torch.nn.Conv2d(channels + k * growth, growth, 3, padding=1, bias=False),
            )
            for k in range(layers)
        )

    def forward(self, x):
        features = [x]
        for layer in self.layers:
            features.append(layer(torch.cat(features, 1)))
        return torch.cat(features, 1)


def test_dense_block_concatenations():
    block = DenseBlock().eval()
    with torch.no_grad():
        for parameter in block.parameters():
            parameter.normal_(std=0.3)
    check(polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})(block), block, torch.randn(2, 8, 9, 9))


def test_dense_block_concatenations_channels_last():
    # Channels wide enough for a vector: the block's feature maps are
    # stored channels-last, its concatenations along the channels too.
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, padding=1), DenseBlock(channels=16, growth=16, layers=3)).eval()
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.normal_(std=0.2)
    check(polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})(model), model, torch.randn(2, 3, 9, 9))


def test_concatenations_read_after_they_grow():
    # Each shorter concatenation is also returned (read after later pieces
    # are inserted into the shared buffer) and one piece is used twice.
    def grow(a, b, c):
        first = torch.cat([a, b], 0)
        second = torch.cat([a, b, c * first[:2]], 0)
        third = torch.cat([a, b, c * first[:2], torch.tanh(second[1:3])], 0)
        return first * 2, second + 1, third

    inputs = (torch.randn(2, 5), torch.randn(3, 5), torch.randn(2, 5))
    check(polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False})(grow), grow, *inputs)
