"""The PyTorch front: `@polyblocks_jit_torch`, the `"polyblocks"` torch.compile
backend, `polyblocks_aot_torch` and `polymage_jit_torch`.

Path: TorchDynamo captures FX graphs; AOTAutograd turns them into aten
graphs with parameters lifted to inputs (weights are arguments, not
constants); torch-mlir's FX importer gives linalg-on-tensors text; the engine
(`pb-compile`) compiles it for the CPU; the compiled function is then called
directly on the tensors' memory, outputs allocated as torch tensors.

Shapes: the first graph of a function is static; when it is called with
other shapes, Dynamo traces once more with symbolic sizes, and the engine
compiles that graph once per concrete signature at its first call
(`_Specializing`), so the engine always sees static shapes and no number of
shapes sends a program back to eager.

Operators the engine cannot compile run in PyTorch: the graph is split with
FX's capability partitioner around them, each one is named once in a warning
with the user's source line, and the rest is still compiled.
"""

from __future__ import annotations

import functools
import hashlib
import math
import pathlib
import re
import sys
import threading
import warnings
import weakref

if "tensorflow" in sys.modules:
    # TensorFlow, TorchDynamo and torch-mlir each carry LLVM; loading the
    # latter two after TensorFlow aborts the whole process ("Option ...
    # registered more than once"). In the other order all three work.
    raise ImportError(
        "polyblocks: the PyTorch front must be imported before tensorflow in one process "
        "(import polyblocks.torch_polyblocks_compiler first): loading TorchDynamo and "
        "torch-mlir after TensorFlow aborts the process"
    )

import numpy as np
import torch
import torch._dynamo  # noqa: F401 - load now, before any TensorFlow import
from torch_mlir import fx as _torch_mlir_fx  # noqa: F401 - idem

from . import cache, engine, jit_common, log, runtime
from . import options as option_parsing
from .runtime import Library
from .torch_backend import polyblocks_backend

_log = log.get("torch")

__all__ = ["polyblocks_jit_torch", "polyblocks_aot_torch", "polymage_jit_torch", "polyblocks_backend"]

_TORCH_TO_MLIR = {
    torch.float32: "f32",
    torch.float64: "f64",
    torch.float16: "f16",
    torch.bfloat16: "bf16",
    torch.int64: "i64",
    torch.int32: "i32",
    torch.int16: "i16",
    torch.int8: "i8",
    torch.uint8: "i8",
    torch.bool: "i1",
    torch.complex64: "complex<f32>",
    torch.complex128: "complex<f64>",
}

# Operator targets found unsupported in this process (probed once each).
_unsupported: dict = {}
_warned: set = set()


class UnsupportedInput(TypeError):
    """A call whose arguments cannot go to the compiled code."""


def _innermost_frame(node) -> tuple[str, str, str] | None:
    """(file, line, function) of the innermost frame of `node`'s stack trace."""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', node.meta.get("stack_trace") or "")
    return frames[-1] if frames else None


def _source_line(node) -> str:
    frame = _innermost_frame(node)
    return f"{frame[0]}:{frame[1]}" if frame else "unknown location"


def _tensor_meta(value):
    return value if isinstance(value, torch.Tensor) else None


class CompiledGraph:
    """An FX graph compiled by the engine; called with tensors, returns the
    graph's outputs (a list)."""

    def __init__(self, library: Library, output_specs: list):
        self.function = library["graph"]
        self.output_specs = output_specs  # (shape, dtype) per output
        self.library = library
        # What each argument must be, prepared once: the per-call checks are
        # tuple comparisons.
        self._expected = [
            (
                frozenset(t for t, m in _TORCH_TO_MLIR.items() if m == spec["dtype"]),
                torch.Size(spec["shape"]),
                spec["dtype"],
            )
            for spec in self.function.inputs
        ]
        # (shape, dtype, small enough for torch.empty) per output.
        self._outputs = [
            (shape, dtype, math.prod(shape) * torch.empty((), dtype=dtype).element_size() < _OutputPool.THRESHOLD)
            for shape, dtype in output_specs
        ]

    def __call__(self, *args):
        expected = self._expected
        if len(args) != len(expected):
            raise UnsupportedInput(f"compiled graph takes {len(expected)} tensors, got {len(args)}")
        # The common case in few operations (this runs on every call); any
        # mismatch takes the slow path, which names it.
        pointers, keep = [], None
        for arg, (dtypes, shape, _) in zip(args, expected):
            if type(arg) is not torch.Tensor and not isinstance(arg, torch.Tensor):
                self._reject(args)
            if arg.dtype not in dtypes or arg.shape != shape or not arg.is_cpu:
                self._reject(args)
            if not arg.is_contiguous():
                arg = arg.contiguous()
                keep = (keep or []) + [arg]  # alive until the call returns
            pointers.append(arg.data_ptr())
        outputs = self._call_with_new_outputs(pointers)
        del keep
        return outputs

    def trusted_call(self, *args):
        """`__call__` without the per-argument checks, for callers that
        guarantee what they were: the TorchDynamo path, whose guards check
        every tensor's dtype, device, shape and strides against the
        examples this graph was compiled for (see `for_guarded_examples`).
        ~2 us less per call (a third of the Python around a small kernel)."""
        return self._call_with_new_outputs([arg.data_ptr() for arg in args])

    def _call_with_new_outputs(self, pointers: list) -> list:
        """Allocates the outputs, appends their addresses to the inputs'
        `pointers` and calls the compiled function."""
        outputs = [
            torch.empty(shape, dtype=dtype) if small else _OUTPUTS.empty(shape, dtype)
            for shape, dtype, small in self._outputs
        ]
        for output in outputs:
            pointers.append(output.data_ptr())
        self.function.call_pointers(pointers)
        return outputs

    def for_guarded_examples(self, example_inputs):
        """The call to use when every call's tensors are guarded to match
        `example_inputs`: `trusted_call` if those match what the graph
        takes and are contiguous (so nothing is to be copied), else the
        checked `__call__`."""
        matches = len(example_inputs) == len(self._expected) and all(
            isinstance(example, torch.Tensor)
            and example.dtype in dtypes
            and example.shape == shape
            and example.is_contiguous()
            and example.device.type == "cpu"
            for example, (dtypes, shape, _) in zip(example_inputs, self._expected)
        )
        return self.trusted_call if matches else self

    def _reject(self, args):
        """Raises UnsupportedInput naming the first argument that does not
        match what the graph was compiled for."""
        for position, (arg, (dtypes, shape, mlir_dtype)) in enumerate(zip(args, self._expected)):
            if not isinstance(arg, torch.Tensor):
                raise UnsupportedInput(f"argument {position} is {type(arg).__name__}, not a tensor")
            if arg.device.type != "cpu":
                raise UnsupportedInput(f"argument {position} is on {arg.device}; the cpu target needs host tensors")
            if arg.dtype not in dtypes or arg.shape != shape:
                raise UnsupportedInput(
                    f"argument {position} is {arg.dtype}{tuple(arg.shape)}, compiled for {mlir_dtype}{tuple(shape)}"
                )
        raise UnsupportedInput("arguments do not match the compiled graph")


class _OutputPool:
    """Reuses the memory of large outputs the program no longer holds.

    A fresh buffer of 32 MiB or more (glibc maps those anew each time) costs
    one page fault per 4 KiB on its first write (48 MB: ~12,000 faults,
    longer than a fused image pipeline); a buffer that came back is already
    mapped. A buffer returns to the pool
    only when the tensor storage that owns it is freed (every view of it is
    gone), through a finalizer on a private array object only that storage
    references. Thread-safe: list append/pop are atomic in CPython.
    """

    # Smaller outputs come from torch.empty: glibc serves them from its heap
    # (its mmap threshold grows to 32 MiB after the first large free), where
    # pages stay mapped, and torch.empty costs ~1 us against ~5 us here.
    THRESHOLD = 32 << 20
    KEEP = 4  # buffers kept per size

    def __init__(self):
        self.free = {}

    def empty(self, shape, dtype):
        size = math.prod(shape) * torch.empty((), dtype=dtype).element_size()
        if size < self.THRESHOLD:
            return torch.empty(shape, dtype=dtype)
        free = self.free.setdefault(size, [])
        try:
            buffer = free.pop()
        except IndexError:
            buffer = runtime.aligned_empty((size,), np.uint8)
        holder = buffer.view()
        weakref.finalize(holder, self._give_back, free, buffer)
        return torch.from_numpy(holder).view(dtype).view(shape)

    def _give_back(self, free, buffer):
        if len(free) < self.KEEP:
            free.append(buffer)


_OUTPUTS = _OutputPool()


def _empty_output(shape, dtype):
    """A fresh output tensor (large ones from memory already mapped)."""
    return _OUTPUTS.empty(shape, dtype)


def _graph_key(gm: torch.fx.GraphModule, example_inputs, options, static_positions=()) -> str:
    specs = [
        (tuple(t.shape), str(t.dtype), tuple(t.stride())) if isinstance(t, torch.Tensor) else repr(t)
        for t in example_inputs
    ]
    digest = hashlib.sha256()
    for name, buffer in sorted(list(gm.named_buffers()) + list(gm.named_parameters())):
        digest.update(name.encode())
        digest.update(buffer.detach().contiguous().cpu().numpy().tobytes())
    parts = ["torch", gm.code, repr(specs), digest.hexdigest(), options.cache_key()]
    if static_positions:
        parts.append(f"static={list(static_positions)}")
    return cache.key(*parts)


def _output_specs(gm: torch.fx.GraphModule):
    output = next(n for n in gm.graph.nodes if n.op == "output")
    values = output.args[0] if isinstance(output.args[0], (tuple, list)) else (output.args[0],)
    specs = []
    for value in values:
        meta = _tensor_meta(getattr(value, "meta", {}).get("val"))
        if meta is None:
            return None  # non-tensor outputs: not for the engine
        specs.append((tuple(meta.shape), meta.dtype))
    return specs


def _import(gm: torch.fx.GraphModule, keep_locations: bool = False) -> str:
    """linalg-on-tensors text of `gm`: imported by torch-mlir here, lowered
    in a worker process (`torch_lowering`: torch-mlir's lowering can crash).
    `keep_locations`: the linalg ops keep their source lines (profiles name
    them; off otherwise, so that editing a comment does not miss the cache)."""
    from torch_mlir import fx

    from . import torch_lowering

    with log.no_implicit_root_handler():
        module = fx.stateless_fx_import(gm, output_type="raw", model_name="graph")
    # With locations: torch-mlir's diagnostics then name the user's source line.
    return torch_lowering.lower(module.operation.get_asm(enable_debug_info=True), keep_locations)


def _report_operators(gm, options):
    """The graph's operators for an HTML report (`report` a file name)."""
    if not isinstance(options.get("report"), str):
        return None
    from . import html_report

    index = {}
    operators = []
    for node in gm.graph.nodes:
        if node.op not in ("call_function", "call_method", "call_module"):
            continue
        frame = _innermost_frame(node)
        target = getattr(node.target, "__name__", str(node.target))
        inputs = [index[a] for a in node.all_input_nodes if a in index]
        index[node] = len(operators)
        name = target.replace("aten.", "").replace(".default", "")
        operators.append(html_report.Operator(name, f"{frame[0]}:{frame[1]}" if frame else "", inputs))
    return operators


def _graph_name(gm) -> str:
    """How progress messages name a graph: its operator count and the
    source line of its first operator (`graph of 12 operators from
    forward (model.py:40)`)."""
    operators = [n for n in gm.graph.nodes if n.op in ("call_function", "call_method", "call_module")]
    name = f"graph of {len(operators)} operator{'s' if len(operators) != 1 else ''}"
    for node in operators:
        frame = _innermost_frame(node)
        if frame:
            file, line, function = frame
            return f"{name} from {function} ({pathlib.Path(file).name}:{line})"
    return name


def _compile_whole(gm, example_inputs, options, static_positions=()) -> CompiledGraph:
    """Compiles all of `gm` or raises (engine.CompileError, import errors).
    `static_positions`: inputs that change only when the caller says so
    (`CompiledGraph.function.invalidate_prepared`): parameters, whose packed
    copies the compiled code then keeps between calls."""
    specs = _output_specs(gm)
    if specs is None:
        raise engine.CompileError("the graph returns non-tensor values")
    static_positions = sorted(set(static_positions))
    key = _graph_key(gm, example_inputs, options, static_positions)
    extra = (f"--static-args={','.join(map(str, static_positions))}",) if static_positions else ()
    library = jit_common.build_cached(
        key, lambda: _import(gm, options.profile), options, _graph_name(gm), extra, _report_operators(gm, options)
    )
    return CompiledGraph(library, specs)


def _probe(node, options) -> bool:
    """Does the engine compile `node` alone? Memoized per operator."""
    if node.target in _unsupported:
        return not _unsupported[node.target]
    graph = torch.fx.Graph()
    mapping = {}
    for value in node.all_input_nodes:
        placeholder = graph.placeholder(value.name)
        placeholder.meta = dict(value.meta)
        mapping[value] = placeholder
    copy = graph.node_copy(node, lambda n: mapping[n])
    graph.output(copy)
    probe = torch.fx.GraphModule(torch.nn.Module(), graph)
    examples = [n.meta.get("val") for n in node.all_input_nodes]
    try:
        _compile_whole(probe, examples, options)
        ok = True
    except Exception:  # noqa: BLE001 - any failure means "not supported"
        ok = False
    _unsupported[node.target] = not ok
    return ok


def _compile_with_fallback(gm, example_inputs, options):
    """Compiles what the engine supports; the rest runs in PyTorch."""
    from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
    from torch.fx.passes.operator_support import OperatorSupport

    class Support(OperatorSupport):
        def is_node_supported(self, submodules, node):
            if node.op != "call_function":
                return False
            if node.target is getattr(__import__("operator"), "getitem"):
                return True
            return _probe(node, options)

    for node in gm.graph.nodes:
        if node.op == "call_function" and not Support().is_node_supported({}, node):
            where = _source_line(node)
            if (node.target, where) not in _warned:
                _warned.add((node.target, where))
                warnings.warn(
                    f"polyblocks: {node.target} is not supported by the engine; running it in PyTorch ({where})",
                    stacklevel=2,
                )
    partitioned = CapabilityBasedPartitioner(gm, Support(), allows_single_node_partition=True).partition_and_fuse()
    for name, submodule in list(partitioned.named_children()):
        if not isinstance(submodule, torch.fx.GraphModule):
            continue
        examples = [n.meta.get("val") for n in submodule.graph.nodes if n.op == "placeholder"]
        try:
            compiled = _compile_whole(submodule, examples, options)
        except Exception as error:  # noqa: BLE001 - keep the partition in PyTorch
            warnings.warn(f"polyblocks: a subgraph stays in PyTorch: {str(error).splitlines()[0]}", stacklevel=2)
            continue
        setattr(partitioned, name, _CompiledSubmodule(compiled, _returns_tuple(submodule)))
    partitioned.recompile()
    return partitioned


def _returns_tuple(gm) -> bool:
    output = next(n for n in gm.graph.nodes if n.op == "output")
    return isinstance(output.args[0], (tuple, list))


class _CompiledSubmodule(torch.nn.Module):
    def __init__(self, compiled: CompiledGraph, returns_tuple: bool):
        super().__init__()
        self.compiled = compiled
        self.returns_tuple = returns_tuple

    def forward(self, *args):
        outputs = self.compiled(*args)
        return tuple(outputs) if self.returns_tuple else outputs[0]


def _fx_compiler(options, trusted: bool, inference: bool = False):
    """AOTAutograd's forward compiler; `trusted`: Dynamo guards each call's
    tensors against the examples (see `CompiledGraph.for_guarded_examples`);
    `inference`: graphs without a backward, whose parameter-only work is
    done once per parameter version (`torch_parameters`)."""
    from functorch.compile import make_boxed_func

    def compile_fx(gm: torch.fx.GraphModule, example_inputs):
        # AOTAutograd may call us with a fake-tensor mode active; compiling
        # reads real constants and weights.
        from torch._subclasses.fake_tensor import unset_fake_temporarily

        # Under the tracing lock: AOTAutograd compiles a backward graph at
        # its first backward call, outside Dynamo's compile.
        with _TRACING_LOCK, unset_fake_temporarily():
            return compile_real(gm, example_inputs)

    def compile_real(gm: torch.fx.GraphModule, example_inputs):
        gm, with_nones = _without_none_outputs(gm)
        try:
            return make_boxed_func(with_nones(_compile_graph(gm, example_inputs, options, trusted, inference)))
        except Exception as error:
            if not options.get("fallback"):
                raise
            if options.debug:
                _log.info("whole graph not compiled (%s); splitting it", str(error).splitlines()[0])
        fallback = _compile_with_fallback(gm, example_inputs, options)
        return make_boxed_func(with_nones(fallback.forward))

    return compile_fx


def _without_none_outputs(gm: torch.fx.GraphModule):
    """AOTAutograd's backward graphs return None as the gradient of each
    input that needs none (the data, frozen weights); the engine compiles
    graphs of tensors only. Returns a copy of `gm` without those outputs
    and a wrapper that puts the Nones back into a call's outputs."""
    output = next(n for n in gm.graph.nodes if n.op == "output")
    values = output.args[0]
    kept = [i for i, v in enumerate(values) if v is not None] if isinstance(values, (tuple, list)) else []
    if not kept or len(kept) == len(values):  # no None, or nothing left for the engine
        return gm, lambda call: call
    graph = torch.fx.Graph()
    copied = graph.graph_copy(gm.graph, {})
    graph.output(tuple(copied[i] for i in kept))
    count = len(values)

    def with_nones(call):
        def call_with_nones(*args):
            outputs = [None] * count
            for position, value in zip(kept, call(*args)):
                outputs[position] = value
            return outputs

        return call_with_nones

    return torch.fx.GraphModule(gm, graph), with_nones


# Static input positions for a graph compiled outside Dynamo's tracing
# context (`_Specializing`, at call time), where AOTAutograd has no Dynamo
# metadata to find them in.
_STATIC_INPUTS = threading.local()


def _parameter_indices() -> list[int]:
    """Positions of the current AOTAutograd graph's inputs that are the
    module's parameters and buffers (AOTAutograd's static inputs)."""
    override = getattr(_STATIC_INPUTS, "positions", None)
    if override is not None:
        return list(override)
    context = torch._guards.TracingContext.try_get()
    metadata = getattr(context, "fw_metadata", None)
    return list(getattr(metadata, "static_input_indices", None) or [])


def _compile_graph(gm, example_inputs, options, trusted: bool, inference: bool):
    """The engine's compile of `gm`, called as AOTAutograd calls it; in
    inference graphs, the work on parameters alone is split off and done
    once per parameter version (`torch_parameters`)."""
    from . import torch_parameters

    # Parameters (and the tensors prepared from them) are static inputs of
    # inference graphs: the engine keeps their packed copies between calls,
    # prepared again when one is another tensor or has a new version.
    parameters = _parameter_indices() if inference else []
    parameters = [p for p in parameters if p < len(example_inputs) and isinstance(example_inputs[p], torch.Tensor)]
    parts = torch_parameters.split(gm, parameters) if inference else None
    if not options.get("prepack_weights"):
        static = []
    elif parts is None:
        static = parameters
    else:
        static = [*parameters, *range(len(example_inputs), len(example_inputs) + len(parts.prepared_examples))]
    if parts is None:
        compiled = _compile_whole(gm, example_inputs, options, static)
        call = compiled.for_guarded_examples(example_inputs) if trusted else compiled
        if not compiled.function.prepares:
            return call
        return torch_parameters.WithPreparedParameters(None, [], call, parameters, compiled.function.invalidate_prepared)
    examples = [*example_inputs, *parts.prepared_examples]
    compiled = _compile_whole(parts.main, examples, options, static)
    call = compiled.for_guarded_examples(examples) if trusted else compiled
    watched, invalidate = (parameters, compiled.function.invalidate_prepared) if compiled.function.prepares else ([], None)
    return torch_parameters.WithPreparedParameters(parts.prepare, parts.parameter_positions, call, watched, invalidate)


def make_backend(compile_options: dict | None = None):
    """A torch.compile backend compiling with the engine under `compile_options`.

    Graphs come from TorchDynamo with static shapes first; after a call with
    other shapes, Dynamo traces once more with symbolic sizes, and that graph
    is compiled for each concrete signature when it is first called
    (`_Specializing`): the engine always sees static shapes, and a program
    called with many shapes never reaches Dynamo's recompile limit (past
    which it would silently run eager)."""
    from torch._dynamo.backends.common import aot_autograd

    from . import torch_decompositions, torch_quantized_pooling, torch_zero_points

    options = option_parsing.parse(compile_options)
    # The decompositions torch-mlir's own export path applies (composite
    # operators such as batch norm become ones it lowers to linalg), with
    # variance kept in the input's precision.
    def aot(trusted):
        # Backward graphs take saved tensors and incoming gradients, which
        # no guard checks (a gradient may be an expanded view): never trusted.
        return aot_autograd(
            fw_compiler=_fx_compiler(options, trusted),
            bw_compiler=_fx_compiler(options, trusted=False),
            inference_compiler=_fx_compiler(options, trusted, inference=True),
            decompositions=torch_decompositions.table(),
        )

    # Static graphs: Dynamo's guards check every tensor against the
    # examples. `_Specializing` keys its graphs by shape and dtype only
    # (strides may differ between calls): those check their arguments.
    static, specialized = aot(trusted=True), aot(trusted=False)

    def backend(gm: torch.fx.GraphModule, example_inputs):
        _prims_views_as_aten(gm)
        if any(_is_symbolic(value) for value in example_inputs):
            return _Specializing(gm, specialized)
        # Max pooling of quantized activations on their integers.
        torch_quantized_pooling.pool_integers(gm)
        # Zero points of quantized weights that are zero compile as
        # constants (checked at each call).
        return torch_zero_points.specialize(gm, example_inputs, static)

    return backend


def _split_dim(a, dim, outer_length):
    dim = dim % a.dim()
    return torch.ops.aten.view.default(a, [*a.shape[:dim], outer_length, a.shape[dim] // outer_length, *a.shape[dim + 1 :]])


def _prims_views_as_aten(gm: torch.fx.GraphModule) -> None:
    """PyTorch's primitive views called directly (`prims.view_of`,
    `prims.squeeze`, `prims.split_dim`) become the ATen views they are:
    AOTAutograd's functionalization refuses non-ATen ops whose outputs
    alias their inputs."""
    prims, aten = torch.ops.prims, torch.ops.aten
    views = {}
    for packet, aten_view in ((prims.view_of, aten.alias.default), (prims.squeeze, aten.squeeze.dims), (prims.split_dim, _split_dim)):
        views[packet] = views[packet.default] = aten_view
    changed = False
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target in views:
            node.target = views[node.target]
            changed = True
    if changed:
        gm.recompile()


def _is_symbolic(value) -> bool:
    if isinstance(value, torch.SymInt):
        return True
    return isinstance(value, torch.Tensor) and any(isinstance(d, torch.SymInt) for d in value.shape)


# What every trace and compile of the front holds: TorchDynamo's own compile
# lock (reentrant), which Dynamo holds while it traces a frame and calls the
# backend. AOTAutograd's tracing (make_fx, FX's symbolic tracer) keeps state
# in module globals (`torch.fx._symbolic_trace`'s CURRENT_PATCHER): a
# `_Specializing` graph compiling its shape at call time, outside that lock,
# while another thread's Dynamo compile traced, failed with
# "AssertionError: CURRENT_PATCHER is None in finally block" (found by
# test_concurrency.py).
_TRACING_LOCK = getattr(torch._dynamo.convert_frame, "compile_lock", None) or threading.RLock()


class _Specializing:
    """A graph with symbolic sizes, compiled (by `compile_static`, with the
    call's tensors as examples and its integers as constants) once per
    signature of shapes, dtypes and integer arguments; later calls cost one
    dict lookup."""

    def __init__(self, gm: torch.fx.GraphModule, compile_static):
        self.gm = gm
        self.compile_static = compile_static
        self.compiled = {}
        self.lock = threading.Lock()

    def __call__(self, *args):
        key = tuple((a.shape, a.dtype) if isinstance(a, torch.Tensor) else a for a in args)
        tensors = [a for a in args if isinstance(a, torch.Tensor)]
        compiled = self.compiled.get(key)
        if compiled is None:
            with self.lock:
                compiled = self.compiled.get(key)
                if compiled is None:
                    # This runs when the graph is called, outside Dynamo's
                    # compile lock: see _TRACING_LOCK.
                    with _TRACING_LOCK:
                        _STATIC_INPUTS.positions = _static_tensor_positions(self.gm, args)
                        try:
                            compiled = self.compiled[key] = self.compile_static(_with_constants(self.gm, args), tensors)
                        finally:
                            _STATIC_INPUTS.positions = None
        return compiled(*tensors)


def _static_tensor_positions(gm: torch.fx.GraphModule, args) -> list[int]:
    """Positions among the tensor arguments of `gm` (what `_with_constants`
    keeps) of the inputs Dynamo marked static: the module's parameters and
    buffers. A module whose `forward` Dynamo has seen before with other
    shapes (a second `nn.Sequential`, resnet50 after resnet18) is traced
    with symbolic sizes and compiled here, where AOTAutograd finds no
    Dynamo metadata: without these positions its parameter-only work (the
    weight transposes) ran on every call."""
    positions, tensor_position = [], 0
    for node, value in zip(gm.graph.find_nodes(op="placeholder"), args):
        if not isinstance(value, torch.Tensor):
            continue
        if node.meta.get("tensor_dict", {}).get("_dynamo_static_input_type") is not None:
            positions.append(tensor_position)
        tensor_position += 1
    return positions


def _with_constants(gm: torch.fx.GraphModule, args) -> torch.fx.GraphModule:
    """`gm` with each non-tensor input (a size Dynamo made symbolic) replaced
    by its value in `args`: what is left takes the tensors alone."""
    graph = torch.fx.Graph()
    env = {}
    inputs = iter(args)
    for node in gm.graph.nodes:
        if node.op == "placeholder":
            value = next(inputs)
            if not isinstance(value, torch.Tensor):
                env[node] = value
                continue
        if node.op == "output":
            graph.output(torch.fx.map_arg(node.args[0], lambda n: env[n]))
            continue
        env[node] = graph.node_copy(node, lambda n: env[n])
    return torch.fx.GraphModule(gm, graph)


# Registered here too for a package run without its entry points installed
# (a source folder on PYTHONPATH); installed, the entry point registered it
# already, which register_backend reports as a duplicate name.
if "polyblocks" not in torch._dynamo.list_backends(exclude_tags=()):
    torch._dynamo.register_backend(polyblocks_backend, name="polyblocks")


def polyblocks_jit_torch(fn=None, *, compile_options: dict | None = None):
    """Compiles a function or `nn.Module` with polyblocks when called.

    Use as `@polyblocks_jit_torch`, `@polyblocks_jit_torch(compile_options={...})`
    or at the call site: `polyblocks_jit_torch(compile_options={...})(model)`.
    Each new combination of input shapes and dtypes compiles once (and is
    cached on disk across processes).
    """
    backend = make_backend(compile_options)

    def decorate(target):
        if isinstance(target, torch.nn.Module):
            return _PolyblocksModule(target, backend)
        compiled = torch.compile(target, backend=backend)
        first_calls = _FirstCallsSerialized()

        @functools.wraps(target)
        def call(*args, **kwargs):
            with _traceable_layers():
                return first_calls.run(compiled, args, kwargs)

        return call

    return decorate(fn) if fn is not None else decorate


def _signature(value):
    """What of a call's argument TorchDynamo's guards mostly check, hashable:
    a tensor's shape, dtype and whether it requires grad; containers item by
    item; other values by type (Dynamo makes the sizes and floats it sees
    vary symbolic: keying them by value would only add entries)."""
    if isinstance(value, torch.Tensor):
        return (value.shape, value.dtype, value.requires_grad)
    if type(value) in (tuple, list):
        return (type(value), *map(_signature, value))
    if type(value) is dict:
        return (dict, *((k, _signature(v)) for k, v in value.items()))
    if value is None or type(value) in (bool, str):
        return value
    return type(value)


class _FirstCallsSerialized:
    """Runs the first call of each argument signature of one compiled
    function or module under a lock; later calls with that signature run
    concurrently, lock-free.

    TorchDynamo looks up its cache of compiled frames before taking its
    compile lock and does not look again after: N threads making the first
    call of a function at once each compile it (one after the other) and
    each adds a cache entry, identical but counted against the recompile
    limit (8) of the code object. Eight threads used it up on one shape, and
    the function's next shape then ran in eager PyTorch, silently (found by
    test_concurrency.py: 8 threads x 4 processes). Serialized, the first
    thread compiles and the others find its entry.

    Signatures are approximate (`_signature`): a new one costs one
    serialized call, a recompile it does not see (a new stride or a guarded
    global) just compiles as Dynamo would without this. The lock is
    reentrant, for a compiled function that calls itself (a first call that
    waits for another thread's first call of the same function would
    deadlock: keep such hand-offs outside compiled functions)."""

    LIMIT = 4096  # signatures remembered; past that, start over

    def __init__(self):
        self.lock = threading.RLock()
        self.seen = set()

    def run(self, compiled, args, kwargs, state=None):
        """`compiled(*args, **kwargs)`; `state`: what else its guards check
        (a module's `training`)."""
        # `_signature((compiled, state, torch.is_grad_enabled(), args,
        # kwargs))`, faster for plain tensors (this runs on every call).
        signature = [compiled, state, torch.is_grad_enabled()]
        for arg in args:
            if type(arg) is torch.Tensor:
                signature.append((arg.shape, arg.dtype, arg.requires_grad))
            else:
                signature.append(_signature(arg))
        if kwargs:
            signature.append(_signature(kwargs))
        signature = tuple(signature)
        if signature in self.seen:
            return compiled(*args, **kwargs)
        with self.lock, _recompiles_allowed():
            result = compiled(*args, **kwargs)
            if len(self.seen) >= self.LIMIT:
                self.seen.clear()
            self.seen.add(signature)
        return result


def _recompiles_allowed():
    """Dynamo's recompile limits, raised for a first call.

    Dynamo counts compiled entries per code object, not per compiled
    module: every `nn.Conv2d` shares `Conv2d.forward`, so the ninth conv
    module a program compiles (one per layer, or one per model of a sweep)
    found eight entries whose guards fail (their own parameters) and ran in
    eager PyTorch, silently. A first call of a signature is exactly where a
    new entry is wanted; steady calls keep Dynamo's limits."""
    return torch._dynamo.config.patch(
        recompile_limit=max(torch._dynamo.config.recompile_limit, 1024),
        accumulated_recompile_limit=max(torch._dynamo.config.accumulated_recompile_limit, 4096),
    )


# `_traceable_layers` state: the calls inside one and the flag's value
# before the first of them.
_fast_path_lock = threading.Lock()
_fast_path_users = 0
_fast_path_saved = True


class _traceable_layers:
    """Turns off PyTorch's fused fast path of nn.MultiheadAttention and
    nn.TransformerEncoderLayer (`_transformer_encoder_layer_fwd`, a single
    opaque operator) while tracing, so that the layers reach the engine as
    the matmuls, softmaxes and norms they are made of.

    The flag is process-wide: with each call saving and restoring it, two
    threads' overlapping calls (A saves True, B saves False, A restores
    True, B restores False) left it off for good, and a thread tracing
    after A's restore saw it on (found by test_concurrency.py). So the first
    of the overlapping calls saves it and the last one restores it."""

    def __enter__(self):
        global _fast_path_users, _fast_path_saved
        with _fast_path_lock:
            if _fast_path_users == 0:
                _fast_path_saved = torch.backends.mha.get_fastpath_enabled()
                torch.backends.mha.set_fastpath_enabled(False)
            _fast_path_users += 1

    def __exit__(self, *exc):
        global _fast_path_users
        with _fast_path_lock:
            _fast_path_users -= 1
            if _fast_path_users == 0:
                torch.backends.mha.set_fastpath_enabled(_fast_path_saved)


def _has_fused_fast_path(module: torch.nn.Module) -> bool:
    """Does `module` contain a layer with PyTorch's opaque inference fast
    path (see `_traceable_layers`)?"""
    return any(isinstance(m, (torch.nn.MultiheadAttention, torch.nn.TransformerEncoderLayer)) for m in module.modules())


class _PolyblocksModule(torch.nn.Module):
    """A module compiled by polyblocks; attributes not its own are the
    original module's.

    The call path is kept short (it is paid on every call, ~14 us of a
    LayerNorm+GELU of 80): the original's `forward` is what is compiled
    (a compiled module adds its own `nn.Module` call, ~2.4 us) unless the
    original has forward hooks, which only the compiled module runs; the
    fast-path switch of `_traceable_layers` is flipped only around modules
    that contain such layers."""

    def __init__(self, original: torch.nn.Module, backend):
        super().__init__()
        self._original = original
        self._compiled = torch.compile(original, backend=backend)
        self._compiled_forward = torch.compile(original.forward, backend=backend)
        self._fused_layers = _has_fused_fast_path(original)
        self._first_calls = _FirstCallsSerialized()

    def forward(self, *args, **kwargs):
        original = self._original
        hooks = torch.nn.modules.module
        if (
            original._forward_hooks
            or original._forward_pre_hooks
            or hooks._global_forward_hooks
            or hooks._global_forward_pre_hooks
        ):
            compiled = self._compiled
        else:
            compiled = self._compiled_forward
        if not self._fused_layers:
            return self._first_calls.run(compiled, args, kwargs, original.training)
        with _traceable_layers():
            return self._first_calls.run(compiled, args, kwargs, original.training)

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self._original, name)


def polymage_jit_torch(fn=None, *, execution_backend: str = "polyblocks", compile_options: dict | None = None):
    """Runs `fn` through `execution_backend`: 'std' (eager PyTorch),
    'inductor' (torch.compile's default) or 'polyblocks'."""
    backends = ("std", "inductor", "polyblocks")
    if execution_backend not in backends:
        raise option_parsing.OptionError(f"execution_backend must be one of {backends}, got {execution_backend!r}")

    def decorate(target):
        if execution_backend == "std":
            return target
        if execution_backend == "inductor":
            return torch.compile(target, backend="inductor", dynamic=False)
        return polyblocks_jit_torch(target, compile_options=compile_options)

    return decorate(fn) if fn is not None else decorate


class AotArtifact:
    """What `polyblocks_aot_torch` wrote."""

    def __init__(self, object_path: pathlib.Path, header_path: pathlib.Path, link_flags: list[str]):
        self.object_path = object_path
        self.header_path = header_path
        self.manifest_path = object_path.with_suffix(".json")
        # What a C program needs on its link line besides the object: LLVM's
        # OpenMP runtime (the one the wheel carries) and libm, e.g.
        # `cc main.c NAME.o *artifact.link_flags`.
        self.link_flags = link_flags

    def __repr__(self):
        return f"AotArtifact({self.object_path}, {self.header_path})"


def polyblocks_aot_torch(compile_options: dict | None = None):
    """`polyblocks_aot_torch(compile_options)(model)(*inputs)`: compiles `model`
    for these inputs ahead of time into `NAME.o` and `NAME.h` (and
    `NAME.json`), prints where, and returns an `AotArtifact`."""
    options = option_parsing.parse(compile_options)

    def bind(model):
        def run(*inputs):
            from torch_mlir import fx

            name = options.get("aot_name") or (type(model).__name__ if isinstance(model, torch.nn.Module) else model.__name__)
            name = re.sub(r"\W", "_", name)
            module = model if isinstance(model, torch.nn.Module) else _FunctionModule(model)
            with torch.no_grad():
                with log.no_implicit_root_handler():
                    mlir = str(fx.export_and_import(module, *inputs, output_type="linalg-on-tensors", func_name=name))
            out_dir = pathlib.Path(options.get("aot_dir"))
            out_dir.mkdir(parents=True, exist_ok=True)
            source = out_dir / f"{name}.mlir"
            source.write_text(mlir)
            args = ["-aot", "-aot-name", name, "-o", str(out_dir), *options.engine_args()]
            if options.get("user_memory"):
                args.append("-aot-user-memory")
            stderr = engine.run_engine(source, args)
            flags = next((line.split(":", 2)[2].split() for line in stderr.splitlines() if line.startswith("pb-compile: link flags:")), [])
            artifact = AotArtifact(out_dir / f"{name}.o", out_dir / f"{name}.h", flags)
            print(f"polyblocks: wrote {artifact.object_path} and {artifact.header_path}")
            return artifact

        return run

    return bind


class _FunctionModule(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)
