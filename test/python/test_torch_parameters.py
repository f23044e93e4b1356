"""Work on parameters alone (weight transposes, folded batch-norm scales) is
done once per parameter version, not per call (`torch_parameters`)."""

import pathlib

import pytest

torch = pytest.importorskip("torch")

from polyblocks import polyblocks_jit_torch, torch_parameters  # noqa: E402


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(24, 32)
        self.fc2 = torch.nn.Linear(32, 8)
        self.bn = torch.nn.BatchNorm1d(32)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


@pytest.fixture
def counted(monkeypatch):
    """Counts splits that hoisted something and runs of the prepare graphs."""
    counts = {"split": 0, "prepare": 0}
    split = torch_parameters.split

    def counting_split(gm, indices):
        parts = split(gm, indices)
        if parts is not None:
            counts["split"] += 1
            prepare = parts.prepare

            def run(*args):
                counts["prepare"] += 1
                return prepare(*args)

            parts.prepare = run
        return parts

    monkeypatch.setattr(torch_parameters, "split", counting_split)
    return counts


def test_parameter_work_runs_once_per_version(tmp_path, monkeypatch, counted):
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path))
    torch.manual_seed(0)
    model = Block().eval()
    with torch.no_grad():
        model.bn.running_mean.normal_()
        model.bn.running_var.uniform_(0.5, 2.0)
    compiled = polyblocks_jit_torch(model)
    x = torch.randn(16, 24)
    with torch.no_grad():
        for _ in range(3):
            torch.testing.assert_close(compiled(x), model(x))
        assert counted["split"] == 1 and counted["prepare"] == 1, counted
        # An in-place update bumps the version: prepared again, and used.
        model.fc1.weight.mul_(-2.0)
        model.bn.running_var.add_(1.0)
        torch.testing.assert_close(compiled(x), model(x))
        assert counted["prepare"] == 2, counted
        # A new state loaded in place as well.
        model.load_state_dict(Block().state_dict())
        torch.testing.assert_close(compiled(x), model(x))
        torch.testing.assert_close(compiled(x), model(x))
        assert counted["prepare"] == 3, counted


def test_a_function_of_plain_tensors_is_not_split(tmp_path, monkeypatch, counted):
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path))

    @polyblocks_jit_torch
    def linear(x, w):
        return x @ w.t()

    x, w = torch.randn(8, 16), torch.randn(12, 16)
    with torch.no_grad():
        torch.testing.assert_close(linear(x, w), x @ w.t())
        w.mul_(3.0)
        torch.testing.assert_close(linear(x, w), x @ w.t())
    # `w` is an input, not a parameter: its transpose stays in the graph.
    assert counted["split"] == 0, counted


def test_training_graphs_are_not_split(tmp_path, monkeypatch, counted):
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path))
    model = torch.nn.Linear(6, 4)
    compiled = polyblocks_jit_torch(model)
    x = torch.randn(5, 6)
    out = compiled(x)
    out.sum().backward()
    reference = torch.nn.Linear(6, 4)
    reference.load_state_dict(model.state_dict())
    torch.testing.assert_close(out, reference(x))
    assert counted["split"] == 0, counted


def test_a_second_module_with_the_same_forward_is_split_too(tmp_path, monkeypatch, counted):
    # Dynamo traces a forward it has seen with other shapes (a second
    # nn.Sequential; resnet50 after resnet18) with symbolic sizes, and that
    # graph compiles at call time, outside Dynamo's tracing context: its
    # parameter-only work (the Linear transposes) ran on every call.
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path))
    torch._dynamo.reset()
    torch.manual_seed(0)
    first = torch.nn.Sequential(torch.nn.Linear(12, 20), torch.nn.ReLU()).eval()
    second = torch.nn.Sequential(torch.nn.Linear(24, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8)).eval()
    with torch.no_grad():
        x = torch.randn(5, 12)
        torch.testing.assert_close(polyblocks_jit_torch(first)(x), first(x))
        splits = counted["split"]
        compiled, y = polyblocks_jit_torch(second), torch.randn(16, 24)
        for _ in range(3):
            torch.testing.assert_close(compiled(y), second(y))
        assert counted["split"] == splits + 1 and counted["prepare"] == splits + 1, counted
        # A version bump is seen there as well.
        second[0].weight.mul_(-2.0)
        torch.testing.assert_close(compiled(y), second(y))
        assert counted["prepare"] == splits + 2, counted


class Mlp(torch.nn.Module):
    """Large enough for register-tiled products: a convolution whose
    weights are the broadcast operand (A) and linear layers whose weights
    are the vector operand (B), both packed once per parameter version."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(6, 20, 3, padding=1)
        self.fc1 = torch.nn.Linear(96, 160)
        self.fc2 = torch.nn.Linear(160, 70)

    def forward(self, x):
        y = torch.relu(self.conv(x.reshape(2, 6, 20, 16)))
        return self.fc2(torch.nn.functional.gelu(self.fc1(x + y.sum(1).reshape(40, 16).repeat(1, 6))))


@pytest.mark.cpu_only
@pytest.mark.parametrize("channels_last", [True, False])
@pytest.mark.parametrize("prepack", [True, False])
def test_prepacked_weights_follow_parameter_updates(tmp_path, monkeypatch, caplog, prepack, channels_last):
    """With `prepack_weights` the engine keeps each Linear weight packed
    between calls; every way a parameter changes (in place, a new state, a
    new tensor) must reach the next call, in every thread's pool."""
    import threading

    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path))
    torch.manual_seed(0)
    model = Mlp().eval()
    options = {"report": True, "prepack_weights": prepack, "channels_last": channels_last}
    compiled = polyblocks_jit_torch(model, compile_options=options)
    x = torch.randn(40, 96)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
        report = caplog.text
        # The Linear weights are B; the convolution's weights are A in
        # NCHW, B channels-last (its lanes along the output channels).
        assert report.count("B packed once per parameter version") == prepack * (2 + channels_last), report
        assert ("A packed once per parameter version" in report) == (prepack and not channels_last), report
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
        model.fc1.weight.mul_(-2.0)
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
        model.conv.weight.add_(0.25)
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
        model.load_state_dict(Mlp().state_dict())
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
        model.fc2.weight = torch.nn.Parameter(torch.randn(70, 160))
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)

        # Other threads have pools of their own: packed on their first
        # call, and again after an update made in the main thread.
        errors = []

        def check():
            try:
                for _ in range(2):
                    torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
            except AssertionError as error:
                errors.append(error)

        for _ in range(2):
            threads = [threading.Thread(target=check) for _ in range(3)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            model.fc2.weight.add_(0.5)
            torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
        assert not errors, errors[0]




class ConvThenLinear(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(16, 32, 3, padding=1)
        self.fc = torch.nn.Linear(300, 392)

    def forward(self, image, x):
        return torch.relu(self.conv(image)), self.fc(x)


@pytest.mark.cpu_only
@pytest.mark.parametrize("channels_last", [False, True])
def test_column_blocks_keep_results_exact(tmp_path, monkeypatch, caplog, channels_last):
    """Caches described as small (16 KiB L1, 64 KiB L2) make the register
    tiles take C's columns in blocks that stay in L2 across the reduction
    blocks: a linear layer's 392 columns (its tail panel, half a vector,
    in the last block) and, per image, an NCHW convolution's 1600 pixels.
    The target is described with 512-bit vectors on every host (on an AVX2
    one, LLVM splits each 16-lane vector in two): the model's choice
    depends on the register tile, and 8-lane tiles over these caches make
    column blocks cost more A passes than the C passes they save."""
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path))
    torch.manual_seed(0)
    model = ConvThenLinear().eval()
    options = {"report": True, "threads": 2, "channels_last": channels_last, "target_overrides": "l1=16K l2=64K vector-bits=512"}
    compiled = polyblocks_jit_torch(model, compile_options=options)
    image, x = torch.randn(2, 16, 40, 40), torch.randn(400, 300)
    with torch.no_grad():
        for got, expected in zip(compiled(image, x), model(image, x)):
            torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-4)
    assert caplog.text.count(" columns x ") >= 1 + (not channels_last), caplog.text


class Conv3x3ReLU(torch.nn.Module):
    def __init__(self, cin: int, cout: int):
        super().__init__()
        self.conv = torch.nn.Conv2d(cin, cout, 3, padding=1)

    def forward(self, x):
        return torch.relu(self.conv(x))


@pytest.mark.cpu_only
@pytest.mark.parametrize(
    "target, packed",
    [
        ("l1=32K l1-ways=8 l2=128K vector-bits=256", "packed 37 reductions at a time"),
        ("l1=32K l1-ways=8 l2=512K vector-bits=256", "packed 111 reductions at a time"),
        ("l1=64K l1-ways=8 l2=128K vector-bits=512", "x 18 reductions (B micro-panel 40 KiB, prepacked of 64 KiB L1, A block 18 KiB, packed of"),
    ],
)
def test_input_packed_in_spans_keeps_results_exact(tmp_path, monkeypatch, caplog, target, packed):
    """A 3x3 convolution over a 7x7 map of 512 channels on a 32 KiB 8-way
    L1: the taps' lines of the input crowd two L1 sets, so the register
    tile packs the input, with 8-lane vectors a span of reduction blocks at
    a time (37 or 111 channels, not whole cache lines of 16: each span
    copies whole lines as vectors and its last partial line by scalars),
    with 16-lane vectors (LLVM splits them on an AVX2 host) per reduction
    block of 18 (one whole line, one partial), over 49 rows (8 tiles of 6
    and a tail of one)."""
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path))
    torch.manual_seed(0)
    model = Conv3x3ReLU(512, 128).eval()
    options = {"report": True, "threads": 2, "target_overrides": target}
    compiled = polyblocks_jit_torch(model, compile_options=options)
    x = torch.randn(1, 512, 7, 7)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
    assert packed in caplog.text, caplog.text


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--static-args=1"], "'--static-args' needs a pool"),
        (["--pool", "--static-args=1,x"], "invalid static argument position 'x'"),
        (["--pool", "--static-args=5"], "static argument 5: @linear has no input 5"),
        (["--static-args=1", "-aot"], "'--static-args' needs a pool"),
    ],
)
def test_static_arguments_misused_are_clear_errors(tmp_path, flags, message):
    import subprocess

    from polyblocks import engine

    source = pathlib.Path(__file__).resolve().parents[1] / "aot" / "linear.mlir"
    run = subprocess.run([str(engine.engine_binary()), str(source), *flags, "-o", str(tmp_path / "out.so")], capture_output=True, text=True)
    assert run.returncode != 0 and run.returncode > 0, run
    assert message in run.stderr, run.stderr


def test_static_weight_is_described_in_the_manifest(tmp_path):
    """A JIT library with a prepacked weight tells its caller where the
    prepared flag is; the same program without static inputs has none."""
    import json
    import subprocess

    from polyblocks import engine

    source = pathlib.Path(__file__).resolve().parents[1] / "aot" / "linear.mlir"
    flags = {}
    for name, extra in (("static", ["--static-args=1"]), ("plain", [])):
        subprocess.run([str(engine.engine_binary()), str(source), "--pool", *extra, "-o", str(tmp_path / f"{name}.so")], check=True, capture_output=True)
        manifest = json.loads((tmp_path / f"{name}.json").read_text())
        flags[name] = [f.get("prepared_flag") for f in manifest["functions"]]
    assert flags == {"static": [0], "plain": [None]}, flags
