"""Work on parameters done once per parameter version, not once per call.

An inference graph from AOTAutograd takes the module's parameters and
buffers as inputs, and part of it depends on nothing else: every
`nn.Linear` transposes its weight (`aten.t`, which the engine materializes as
a transposing copy, 20% of BERT's time on CPU), a batch norm in eval mode
computes `gamma / sqrt(var + eps)`. Here that part is split off: the
*prepare* graph (those operators, parameters in, prepared tensors out) runs
in PyTorch when the parameters change, its results are kept, contiguous,
and the engine compiles the rest, which takes them as further inputs.

"Change" is PyTorch's own notion: the same tensor objects with the same
version counters (every in-place update — an optimizer step,
`load_state_dict`, `with torch.no_grad(): p.mul_(2)` — bumps the counter).
A write through `p.data` does not bump it and is not seen: use in-place
ops on the parameter itself. The prepared tensors hold as much memory as
the parameters they come from (a transposed copy of each weight): the
operators hoisted are the ones whose result takes no more bytes than the
largest parameter they read, and chains of pure reshapes (free in the
engine) stay. Counting bytes keeps widening casts in the engine: an int8
weight's dequantization (or a bf16 weight's upcast) would otherwise become
a prepared float32 copy, four (two) times the memory, and hide the 8-bit
operand from the engine's integer contractions.

The prepare graph runs in PyTorch because it runs once per parameter
version: compiling it would cost an engine compile per model for work that
takes milliseconds once (Inductor's freezing folds the same operators by
running them eagerly too). Only inference graphs are split: a training
graph saves values for its backward.
"""

from __future__ import annotations

import math
import threading

import torch

_aten = torch.ops.aten

# Views that keep row-major order: free in the engine, not worth an input.
_REORDER_FREE = {
    _aten.view.default,
    _aten._unsafe_view.default,
    _aten.reshape.default,
    _aten.unsqueeze.default,
    _aten.squeeze.default,
    _aten.squeeze.dim,
    _aten.squeeze.dims,
    _aten.alias.default,
    _aten.detach.default,
}


def _pure(node: torch.fx.Node) -> bool:
    """An ATen operator without side effects or randomness, with one tensor result."""
    target = node.target
    if node.op != "call_function" or not isinstance(target, torch._ops.OpOverload):
        return False
    if target._schema.is_mutable or torch.Tag.nondeterministic_seeded in target.tags:
        return False
    return isinstance(node.meta.get("val"), torch.Tensor)


def _numel(node: torch.fx.Node) -> int:
    value = node.meta.get("val")
    return math.prod(value.shape) if isinstance(value, torch.Tensor) else 0


def _nbytes(node: torch.fx.Node) -> int:
    value = node.meta.get("val")
    return _numel(node) * value.element_size() if isinstance(value, torch.Tensor) else 0


class Split:
    """`gm` without its parameter-only work (`main`, taking the original
    inputs then the prepared tensors) and that work (`prepare`, taking the
    inputs at `parameter_positions`)."""

    def __init__(self, main: torch.fx.GraphModule, prepare: torch.fx.GraphModule, parameter_positions: list[int], prepared_examples: list):
        self.main = main
        self.prepare = prepare
        self.parameter_positions = parameter_positions
        self.prepared_examples = prepared_examples


def split(gm: torch.fx.GraphModule, parameter_indices) -> Split | None:
    """Splits the parameter-only work off `gm` (an inference graph whose
    inputs at `parameter_indices` are parameters or buffers), or `None` when
    there is none worth it."""
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    parameters = {placeholders[i] for i in parameter_indices if i < len(placeholders)}
    if not parameters:
        return None
    constant: set = set(parameters) | {n for n in gm.graph.nodes if n.op == "get_attr"}
    # Per constant node: the largest parameter it reads, and whether it
    # does more than reshape.
    largest: dict = {n: _nbytes(n) for n in constant}
    reorders: dict = {n: False for n in constant}
    for node in gm.graph.nodes:
        if node in constant or not _pure(node):
            continue
        inputs = node.all_input_nodes
        if inputs and all(i in constant for i in inputs):
            constant.add(node)
            largest[node] = max(largest[i] for i in inputs)
            reorders[node] = node.target not in _REORDER_FREE or any(reorders[i] for i in inputs)
    hoisted = [
        n
        for n in gm.graph.nodes
        if n in constant
        and n.op == "call_function"
        and any(u not in constant for u in n.users)
        and reorders[n]
        and _nbytes(n) <= largest[n]
    ]
    if not hoisted:
        return None
    prepare, positions = _prepare_graph(gm, placeholders, hoisted)
    main = _main_graph(gm, placeholders, hoisted)
    examples = [torch.empty(tuple(h.meta["val"].shape), dtype=h.meta["val"].dtype) for h in hoisted]
    return Split(main, prepare, positions, examples)


def _cone(hoisted) -> set:
    """The nodes the hoisted values are computed from."""
    seen, pending = set(), list(hoisted)
    while pending:
        node = pending.pop()
        if node not in seen:
            seen.add(node)
            pending.extend(node.all_input_nodes)
    return seen


def _prepare_graph(gm, placeholders, hoisted):
    cone = _cone(hoisted)
    graph = torch.fx.Graph()
    env: dict = {}
    positions = []
    for position, node in enumerate(placeholders):
        if node in cone:
            env[node] = graph.placeholder(node.name)
            env[node].meta = dict(node.meta)
            positions.append(position)
    for node in gm.graph.nodes:
        if node in cone and node.op != "placeholder":
            env[node] = graph.node_copy(node, lambda n: env[n])
    graph.output(tuple(env[h] for h in hoisted))
    return torch.fx.GraphModule(gm, graph), positions


def _main_graph(gm, placeholders, hoisted):
    graph = torch.fx.Graph()
    env: dict = {}
    for node in placeholders:
        env[node] = graph.node_copy(node, lambda n: env[n])
    for k, node in enumerate(hoisted):
        value = node.meta["val"]
        env[node] = graph.placeholder(f"prepared_{k}")
        # The prepared tensor is contiguous whatever the view's strides were.
        env[node].meta = {**node.meta, "val": value.contiguous() if hasattr(value, "contiguous") else value}
    for node in gm.graph.nodes:
        if node.op == "placeholder" or node in env:
            continue
        if node.op == "output":
            graph.output(torch.fx.map_arg(node.args[0], lambda n: env[n]))
            continue
        env[node] = graph.node_copy(node, lambda n: env[n])
    graph.eliminate_dead_code()
    main = torch.fx.GraphModule(gm, graph)
    main.recompile()
    return main


def unchanged(held, positions, args) -> bool:
    """Whether `args` at `positions` are the tensors of `held` (pairs of
    tensor and version counter, in the same order), at the same versions."""
    for position, (tensor, version) in zip(positions, held):
        arg = args[position]
        if arg is not tensor or arg._version != version:
            return False
    return True


class WithPreparedParameters:
    """Calls `call(*args, *prepared)`, running `prepare` (if any) on the
    parameters in `args` at `positions` again only when one of them is
    another tensor or has a new version. The parameters at `watched` too
    (the compiled code's static inputs, a superset): when one of them
    changes, `invalidate()` tells the compiled code that what it keeps
    from them (packed weights) is stale."""

    def __init__(self, prepare, positions: list[int], call, watched: list[int] = (), invalidate=None):
        self.prepare = prepare
        self.positions = positions
        self.call = call
        self.watched = sorted(set(positions) | set(watched))
        self.invalidate = invalidate
        self.held: list | None = None  # [(tensor, version)] per watched position: kept alive, so ids stay theirs
        self.prepared: list = []
        self.lock = threading.Lock()

    def _current(self, args) -> bool:
        return self.held is not None and unchanged(self.held, self.watched, args)

    def __call__(self, *args):
        if not self._current(args):
            with self.lock:
                if not self._current(args):
                    if self.prepare is not None:
                        parameters = [args[p] for p in self.positions]
                        with torch.no_grad():
                            outputs = self.prepare(*parameters)
                        self.prepared = [o.contiguous() for o in outputs]
                    if self.invalidate is not None:
                        self.invalidate()
                    self.held = [(args[p], args[p]._version) for p in self.watched]
        return self.call(*args, *self.prepared)
