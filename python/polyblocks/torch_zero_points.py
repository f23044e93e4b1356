"""Zero points of per-channel quantized weights compiled as the constants
they are.

A PT2E-quantized model (torchao's `convert_pt2e`) dequantizes each weight
per output channel, `(w - z[c]) * s[c]`, with the scales `s` and zero
points `z` as module buffers. Dynamo lifts buffers into graph inputs, so the
engine sees `z` as an argument it cannot read, and an integer product of
dequantized operands (`pb-integer-contraction`) must then keep the term
`z[c] * sum_k a[k]`: a sum over every row of the activations and a
correction per output element. Every weight quantizer we know of quantizes
weights symmetrically (torchao's X86 Inductor and XNNPACK quantizers; z is
all zeros), and then the term is zero.

So when the graph is compiled, each buffer or parameter used only as the
zero point of per-channel (de)quantizations whose value is all zeros is
replaced in the graph by `torch.zeros` of its shape and type: the engine
folds the term away. The compiled program is correct only while those
tensors stay zero, and Dynamo does not guard on their values: each call
checks that they are the same tensors with the same version counters (an
in-place update bumps the counter), and where one changed, that it is
still zero. If one is not any more, the graph runs in eager PyTorch from
then on, with a warning saying why (recompile with `torch._dynamo.reset()`).
"""

from __future__ import annotations

import threading
import warnings

import torch

from .torch_parameters import unchanged

# Largest zero-point tensor specialized: a weight's output channels.
_MAX_ELEMENTS = 1 << 16


def _per_channel_ops() -> set:
    ops = getattr(torch.ops, "quantized_decomposed", None)
    if ops is None:
        return set()
    found = set()
    for name in ("dequantize_per_channel", "quantize_per_channel"):
        packet = getattr(ops, name, None)
        if packet is not None:
            found.add(packet.default)
    return found


def _zero_point_argument(node: torch.fx.Node):
    """The node giving `node`'s zero points: positional argument 2 of
    `(de)quantize_per_channel(input, scales, zero_points, axis, ...)`."""
    if len(node.args) > 2:
        return node.args[2]
    return node.kwargs.get("zero_points")


def _is_static(node: torch.fx.Node) -> bool:
    """A module's parameter or buffer, as Dynamo lifted it into an input."""
    return node.meta.get("tensor_dict", {}).get("_dynamo_static_input_type") is not None


def zero_point_positions(gm: torch.fx.GraphModule, example_inputs) -> list[int]:
    """Positions of `gm`'s inputs that are parameters or buffers, integer,
    all zero in `example_inputs`, and used only as per-channel zero points."""
    per_channel = _per_channel_ops()
    if not per_channel:
        return []
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    used_as_zero_point = {
        _zero_point_argument(n) for n in gm.graph.nodes if n.op == "call_function" and n.target in per_channel
    }
    positions = []
    for position, node in enumerate(placeholders):
        if node not in used_as_zero_point or position >= len(example_inputs) or not _is_static(node):
            continue
        value = example_inputs[position]
        if not isinstance(value, torch.Tensor) or value.is_floating_point() or value.is_complex():
            continue
        if value.numel() > _MAX_ELEMENTS or bool(value.any()):
            continue
        if all(u.op == "call_function" and u.target in per_channel and _zero_point_argument(u) is node and node not in u.args[:2] for u in node.users):
            positions.append(position)
    return positions


def _read_as_zeros(gm: torch.fx.GraphModule, zeros: dict) -> None:
    """Makes every use of a placeholder in `zeros` (node: its example
    value) in `gm` read a `torch.zeros` of its shape and type instead. In
    place: AOTAutograd finds Dynamo's metadata (the parameters' sources,
    which inputs are static) on the graph module and its placeholders."""
    graph = gm.graph
    last = [n for n in graph.nodes if n.op == "placeholder"][-1]
    for node, value in zeros.items():
        with graph.inserting_after(last):
            constant = graph.call_function(torch.zeros, (tuple(value.shape),), {"dtype": value.dtype})
        for key in ("example_value", "val"):
            if key in node.meta:
                constant.meta[key] = node.meta[key]
        node.replace_all_uses_with(constant)
    gm.recompile()


def specialize(gm: torch.fx.GraphModule, example_inputs, compile_graph):
    """`compile_graph(gm, example_inputs)`, with the zero-point inputs found
    by `zero_point_positions` compiled as zeros and checked at each call."""
    positions = zero_point_positions(gm, example_inputs)
    if not positions:
        return compile_graph(gm, example_inputs)
    # The unspecialized graph, for PyTorch to run if a zero point changes.
    graph = torch.fx.Graph()
    graph.output(graph.graph_copy(gm.graph, {}))
    eager = torch.fx.GraphModule(gm, graph)
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    _read_as_zeros(gm, {placeholders[p]: example_inputs[p] for p in positions})
    compiled = compile_graph(gm, example_inputs)
    return ZeroPointGuard(compiled, eager, positions, [example_inputs[p] for p in positions])


class ZeroPointGuard:
    """Calls `compiled` while the inputs at `positions` are the tensors it
    was compiled with (same version) or still zero; else `eager` (the
    unspecialized graph, run by PyTorch) from then on."""

    def __init__(self, compiled, eager, positions: list[int], tensors: list):
        self.compiled = compiled
        self.eager = eager
        self.positions = positions
        self.held = [(t, t._version) for t in tensors]
        self.stale = False
        self.lock = threading.Lock()

    def _current(self, args) -> bool:
        return unchanged(self.held, self.positions, args)

    def _check(self, args) -> None:
        with self.lock:
            if self.stale or self._current(args):
                return
            changed = [args[p] for p in self.positions]
            if any(bool(t.any()) for t in changed):
                warnings.warn(
                    "polyblocks: a quantized weight's zero points were zero when the model was compiled "
                    "and are not any more; the graph runs in eager PyTorch from now on "
                    "(call torch._dynamo.reset() to compile it again)",
                    stacklevel=3,
                )
                self.stale = True
                return
            self.held = [(t, t._version) for t in changed]

    def __call__(self, *args):
        # Dynamo calls a backend's function with the graph's inputs, unboxed.
        if not self.stale and not self._current(args):
            self._check(args)
        if self.stale:
            return self.eager(*args)
        return self.compiled(*args)
