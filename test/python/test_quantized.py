"""PyTorch models quantized with PT2E (torchao's X86 Inductor quantizer:
u8 activations per tensor, s8 weights per channel) against PyTorch's own
quantized reference.

Where the CPU has an 8-bit matrix unit (AMX-INT8) or 8-bit dot products
(AVX512-VNNI) the engine computes the contractions on the stored integers
(`pb-integer-contraction`, then `pb-matrix-tile`); elsewhere it keeps the
float contraction. Either way the
result must be as close to the quantized reference as that reference is to
its float model, and much closer in practice: the only difference is the
float rounding of the reference's own dequantized products.
"""

import pathlib

import pytest
import torch

from polyblocks.torch_polyblocks_compiler import polyblocks_jit_torch

from test_matrix_unit import INT8_UNIT, VNNI

pt2e = pytest.importorskip("torchao.quantization.pt2e.quantize_pt2e", reason="PT2E quantization lives in torchao")
x86 = pytest.importorskip("torchao.quantization.pt2e.quantizer.x86_inductor_quantizer")


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.up = torch.nn.Linear(96, 160)
        self.down = torch.nn.Linear(160, 80)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


class ConvBlock(torch.nn.Module):
    """Two padded 3x3 convolutions (one strided), ReLU, pooling, a linear head."""

    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(16, 32, 3, padding=1)
        self.c2 = torch.nn.Conv2d(32, 32, 3, padding=1, stride=2)
        self.head = torch.nn.Linear(32, 10)

    def forward(self, x):
        y = torch.relu(self.c1(x))
        y = torch.relu(self.c2(y))
        return self.head(y.mean((2, 3)))


class Bottleneck(torch.nn.Module):
    """ResNet-50's block shape: 1x1, 3x3, 1x1 convolutions with ReLUs. With
    the weights' zero points compiled as zeros, each requantized activation
    has one reader, the next convolution."""

    def __init__(self):
        super().__init__()
        self.reduce = torch.nn.Conv2d(64, 32, 1)
        self.conv = torch.nn.Conv2d(32, 32, 3, padding=1)
        self.expand = torch.nn.Conv2d(32, 64, 1)

    def forward(self, x):
        y = torch.relu(self.reduce(x))
        y = torch.relu(self.conv(y))
        return torch.relu(self.expand(y) + x)


class Pointwise(torch.nn.Module):
    """1x1 convolutions with a residual sum, on a map whose batch x rows x
    columns fill whole 32-row blocks (2 x 16 x 16): the products read
    their activations in place, rows flattened across images."""

    def __init__(self):
        super().__init__()
        self.expand = torch.nn.Conv2d(32, 64, 1)
        self.reduce = torch.nn.Conv2d(64, 32, 1)

    def forward(self, x):
        return torch.relu(self.reduce(torch.relu(self.expand(x))) + x)


def quantized(model, example):
    exported = torch.export.export(model, (example,)).module()
    quantizer = x86.X86InductorQuantizer()
    quantizer.set_global(x86.get_default_x86_inductor_quantization_config())
    prepared = pt2e.prepare_pt2e(exported, quantizer)
    prepared(example)
    return pt2e.convert_pt2e(prepared)


def compiled_with_dumps(q, tmp_path, units=None):
    """`q` through polyblocks (no fallback, no cache), its IR dumps in
    `tmp_path`; with `units`, the target's matrix units are those."""
    options = {"target": "cpu", "fallback": False, "cache": False, "debug": True, "debug_dir": str(tmp_path)}
    if units:
        options["target_overrides"] = f"matrix-units={units}"
    return polyblocks_jit_torch(compile_options=options)(q)


def dumps(tmp_path, stage: str) -> str:
    """The text of every dump of `stage` (e.g. "1-legalize.mlir") under `tmp_path`."""
    return "\n".join(p.read_text() for p in pathlib.Path(tmp_path).rglob(stage))


CASES = {
    "linear relu linear 64x96x160x80": (Mlp, (64, 96)),
    "conv block 2x16x20x20": (ConvBlock, (2, 16, 20, 20)),
    "bottleneck 1x64x14x14": (Bottleneck, (1, 64, 14, 14)),
    "pointwise 2x32x16x16": (Pointwise, (2, 32, 16, 16)),
}


@pytest.mark.parametrize("units", [None, "avx512-vnni"], ids=["host", "vnni"])
@pytest.mark.parametrize("case", CASES)
def test_pt2e_model_matches_quantized_reference(case, units, tmp_path):
    """On the host's units, and on VNNI's dot products alone (what a CPU
    with AVX512-VNNI but no AMX runs)."""
    if units and not VNNI:
        pytest.skip("this CPU has no AVX512-VNNI to run vpdpbusd on")
    make, shape = CASES[case]
    torch.manual_seed(0)
    model = make().eval()
    example = torch.randn(*shape)
    q = quantized(model, example)
    compiled = compiled_with_dumps(q, tmp_path, units)
    with torch.no_grad():
        x = torch.randn(*shape)
        reference = q(x)
        result = compiled(x)
        # Work on weights runs on the first call only (packs, sums kept
        # between calls): later calls must give the same result.
        for _ in range(2):
            assert torch.equal(compiled(x), result)
        float_deviation = (model(x) - reference).abs().max().item()
    error = (result - reference).abs().max().item()
    assert result.shape == reference.shape
    # The reference is float32 arithmetic on dequantized values; ours sums
    # the integers exactly. An intermediate value on a rounding boundary
    # may quantize one step apart, so the bound is the reference's own
    # deviation from its float model (the criterion), and in
    # practice it is far below it.
    assert error <= 0.5 * float_deviation, (error, float_deviation)
    legalized = dumps(tmp_path, "1-legalize.mlir")
    assert legalized, "no debug dump"
    integer_products = "arith.muli" in legalized and ": i8 to i32" in legalized
    float_contractions = any(op in legalized for op in ("linalg.matmul", "linalg.conv_2d"))
    # Hosts with an 8-bit unit compute every contraction on the integers;
    # others keep floats.
    on_integers = INT8_UNIT if units is None else True
    assert integer_products == on_integers and float_contractions == (not on_integers), legalized[:2000]
    if units:
        assert "vpdpbusd" in dumps(tmp_path, "5-llvm.mlir") and "tdpb" not in dumps(tmp_path, "5-llvm.mlir")


def _generic_bodies(text: str):
    """(iterator types line, body) of each `linalg.generic` in `text`."""
    for piece in text.split("linalg.generic")[1:]:
        head, _, rest = piece.partition("\n")
        yield head, rest.split("linalg.yield")[0]


def test_zero_points_compiled_as_zeros_then_guarded(tmp_path):
    """The weights' zero points (all zero: symmetric per-channel weights)
    compile as constants: no integer product takes the requantization of
    its input in (one reader left once the zero points' row sums are
    gone). Made non-zero in place after compiling, the model runs in eager
    PyTorch, with a warning, and matches the reference again."""
    torch.manual_seed(0)
    model = Bottleneck().eval()
    x = torch.randn(1, 64, 14, 14)
    q = quantized(model, x)
    compiled = compiled_with_dumps(q, tmp_path)
    with torch.no_grad():
        reference = q(x)
        assert (compiled(x) - reference).abs().max().item() <= 0.5 * (model(x) - reference).abs().max().item()
        graph = dumps(tmp_path, "2-graph.mlir")
        assert graph, "no debug dump"
        products = [body for head, body in _generic_bodies(graph) if "reduction" in head and "arith.muli" in body]
        if INT8_UNIT:
            assert products, graph[:2000]
        for body in products:
            assert "fptoui" not in body and "roundeven" not in body, body
        zero_points = [b for name, b in q.named_buffers() if "zero_point" in name and b.dtype == torch.int64 and b.numel() > 1]
        assert zero_points and all(not z.any() for z in zero_points)
        zero_points[0].add_(1)
        with pytest.warns(UserWarning, match="zero points"):
            result = compiled(x)
        torch.testing.assert_close(result, q(x), rtol=0, atol=0)


def test_weights_changed_in_place_are_seen(tmp_path):
    """Work on the weights alone (packed copies, the column sums a non-zero
    activation zero point needs: `pb-static-once`) is kept between calls
    and redone when a weight changes in place (its version counter)."""
    torch.manual_seed(0)
    model = Mlp().eval()
    x = torch.randn(64, 96)
    q = quantized(model, x)
    compiled = polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False, "cache": False})(q)
    with torch.no_grad():
        bound = 0.5 * (model(x) - q(x)).abs().max().item()
        assert (compiled(x) - q(x)).abs().max().item() <= bound
        weights = [b for _, b in q.named_buffers() if b.dtype == torch.int8 and b.dim() == 2]
        weights += [p for _, p in q.named_parameters() if p.dtype == torch.int8 and p.dim() == 2]
        assert weights, [(n, b.dtype) for n, b in q.named_buffers()]
        before = compiled(x).clone()
        weights[0].copy_(torch.roll(weights[0], 1, 0))  # a different weight, same scales
        reference = q(x)
        result = compiled(x)
        assert (reference - before).abs().max().item() > 0
        assert (result - reference).abs().max().item() <= bound


def test_quantize_matches_pytorch_on_rounding_ties():
    """`quantize_per_tensor` is PyTorch's product by the reciprocal of the
    scale, then rounding: values on a .5 boundary of `x / scale` (where a
    division and a product by the reciprocal round apart) quantize to the
    reference's integers, every one of them."""
    from torch.ao.quantization.fx import _decomposed  # noqa: F401  registers quantized_decomposed

    def quantize(x):
        return torch.ops.quantized_decomposed.quantize_per_tensor.default(x, 0.0123, 3, 0, 255, torch.uint8)

    x = ((torch.arange(1 << 14) % 250) + 0.5).float() * 0.0123
    compiled = polyblocks_jit_torch(compile_options={"target": "cpu", "fallback": False, "cache": False})(quantize)
    reference = quantize(x)
    result = compiled(x)
    assert result.dtype == torch.uint8
    assert torch.equal(result, reference), (result.int() - reference.int()).abs().gt(0).sum().item()


def test_bert_encoder_every_linear_on_integers(tmp_path):
    """A small BERT encoder (Hugging Face, random weights) quantized by
    PT2E: matches the reference, later calls repeat the first's result, and
    every linear layer is an integer product, the attention output's too
    (PyTorch multiplies its `[batch, tokens, features]` input by the weight
    broadcast over the batch); only attention's two products per layer,
    which the quantizer leaves float, stay float batch products."""
    transformers = pytest.importorskip("transformers")
    import sys

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
    from models_bench import LastHidden
    from quantized_bench import quantize

    torch.manual_seed(0)
    layers = 2
    config = transformers.BertConfig(hidden_size=64, num_hidden_layers=layers, num_attention_heads=4, intermediate_size=128, vocab_size=500)
    model = LastHidden(transformers.BertModel(config).eval()).eval()
    ids = torch.randint(0, 500, (2, 16))
    q = quantize(model, ids)
    compiled = compiled_with_dumps(q, tmp_path)
    with torch.no_grad():
        reference = q(ids)
        result = compiled(ids)
        for _ in range(2):
            assert torch.equal(compiled(ids), result)
        bound = 0.5 * (model(ids) - reference).abs().max().item()
    assert (result - reference).abs().max().item() <= bound
    if INT8_UNIT:
        legalized = dumps(tmp_path, "1-legalize.mlir")
        assert legalized.count("linalg.batch_matmul") == 2 * layers, legalized.count("linalg.batch_matmul")


class StemPool(torch.nn.Module):
    """ResNet's stem: a strided 7x7 convolution, ReLU, 3x3 max pooling
    (padded), then a convolution."""

    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 16, 7, stride=2, padding=3)
        self.pool = torch.nn.MaxPool2d(3, 2, 1)
        self.conv = torch.nn.Conv2d(16, 16, 3, padding=1)

    def forward(self, x):
        return self.conv(self.pool(torch.relu(self.stem(x))))


def test_max_pooling_on_integers(tmp_path):
    """PT2E quantizes a max pooling's result; quantizing is monotone, so
    the front pools the quantized integers instead (in int16), bit for bit
    the same values: the result matches the reference as closely as with
    a float pooling, and the pooling in the compiled module is on integers."""
    torch.manual_seed(0)
    model = StemPool().eval()
    x = torch.randn(2, 3, 32, 32)
    q = quantized(model, x)
    compiled = compiled_with_dumps(q, tmp_path)
    with torch.no_grad():
        reference = q(x)
        result = compiled(x)
        bound = 0.5 * (model(x) - reference).abs().max().item()
    assert (result - reference).abs().max().item() <= bound
    legalized = dumps(tmp_path, "1-legalize.mlir")
    pools = [line for line in legalized.splitlines() if "linalg.pooling_nchw_max" in line]
    assert pools and all("xi16>" in line for line in pools), pools
