"""Max pooling of quantized activations on their integers.

PT2E quantizes the result of a max pooling (`max_pool2d -> quantize`, per
tensor). Quantization `clamp(round(x / s) + z)` with `s > 0` is monotone
(never decreasing), and a maximum commutes with every monotone function,
so

    quantize(max_pool2d(x)) == max_pool2d(quantize(x))

element for element, padding included (the float pooling pads with -inf,
the integer one with the type's lowest value: neither wins a window, which
always holds an element of the input). Quantizing first makes the
pooling read and write 8-bit values (computed in int16: torch-mlir's
integer maximum is signed) instead of float32, and the quantization joins
the producer's epilogue: ResNet's stem writes its feature map as bytes,
not floats, and the pooling reads a quarter of the memory.
"""

from __future__ import annotations

import torch

_WIDE = torch.int16


def _quantize_op():
    """PT2E's `quantize_per_tensor`, if its library is loaded."""
    ops = getattr(torch.ops, "quantized_decomposed", None)
    if ops is None or not hasattr(ops, "quantize_per_tensor"):
        return None
    return ops.quantize_per_tensor.default


def _constant_params(node: torch.fx.Node):
    """(scale, zero point, min, max, dtype) when all are constants."""
    params = tuple(node.args[1:6])
    if len(params) != 5 or any(isinstance(p, torch.fx.Node) for p in params):
        return None
    return params


def pool_integers(gm: torch.fx.GraphModule) -> int:
    """Rewrites each `quantize(max_pool2d(x))` (constant parameters, a
    positive scale, the pooling read by nothing else) as a max pooling of
    `quantize(x)`; in place. Returns how many it rewrote."""
    quantize = _quantize_op()
    if quantize is None:
        return 0
    rewritten = 0
    for pool in list(gm.graph.nodes):
        if pool.op != "call_function" or pool.target is not torch.ops.aten.max_pool2d.default:
            continue
        users = list(pool.users)
        if len(users) != 1 or users[0].target is not quantize or users[0].args[0] is not pool:
            continue
        requantize = users[0]
        params = _constant_params(requantize)
        if params is None or not params[0] > 0 or params[4] not in (torch.uint8, torch.int8):
            continue
        graph = gm.graph
        with graph.inserting_before(pool):
            quantized = graph.call_function(quantize, (pool.args[0], *requantize.args[1:6]), dict(requantize.kwargs))
            wide = graph.call_function(torch.ops.aten._to_copy.default, (quantized,), {"dtype": _WIDE})
            pooled = graph.call_function(torch.ops.aten.max_pool2d.default, (wide, *pool.args[1:]), dict(pool.kwargs))
            narrow = graph.call_function(torch.ops.aten._to_copy.default, (pooled,), {"dtype": params[4]})
        requantize.replace_all_uses_with(narrow)
        graph.erase_node(requantize)
        graph.erase_node(pool)
        rewritten += 1
    if rewritten:
        gm.recompile()
    return rewritten
