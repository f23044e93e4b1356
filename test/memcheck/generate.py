"""Writes the linalg-on-tensors programs of the memory-safety suite.

Small PyTorch programs at odd sizes (1, primes, sizes no tile divides) go
through the PyTorch front's own import path: `torch.export`, the front's
decompositions (`polyblocks.torch_decompositions`), torch-mlir's FX importer
(Torch dialect, "raw") and `polyblocks.torch_lowering.lower` (the two
torch-mlir pipelines the front runs), giving the text the engine compiles.
Each file starts with `// memcheck:` lines that the checker reads: the
PyTorch expression, and for integer index inputs the range their values
must lie in (`// memcheck: input1 range 0 11`).

    .venv/bin/python test/memcheck/generate.py                 # the committed set -> test/memcheck/programs/
    .venv/bin/python test/memcheck/generate.py --set long -o DIR   # many more sizes (scripts/memcheck.sh)
    .venv/bin/python test/memcheck/generate.py -k conv         # only names containing "conv"

The committed set (`programs/`) is what test/python/test_memory_safety.py
compiles and runs; the long set is generated at run time by
scripts/memcheck.sh.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "python"))

import torch  # noqa: E402

F = torch.nn.functional


def _r(*shape):
    return torch.rand(*shape) * 2 - 1


def _idx(hi, *shape):
    """Index tensor with values in [0, hi) and the checker's range."""
    return torch.randint(0, hi, shape), (0, hi)


class Program:
    """`fn(*args)`; `ranges[i]` is the value range of integer input i."""

    def __init__(self, name, fn, args, text):
        self.name, self.fn, self.text = name, fn, text
        self.args, self.ranges = [], {}
        for i, arg in enumerate(args):
            if isinstance(arg, tuple):
                arg, self.ranges[i] = arg
            self.args.append(arg)


def _size_name(sizes):
    return "x".join(str(s) for s in sizes)


# Each family: (name, list of size tuples for the committed set, more sizes
# for the long set, builder(sizes) -> (fn, args, description)).
def _matmul(m, k, n):
    return lambda a, b: a @ b, [_r(m, k), _r(k, n)], f"a @ b, a {m}x{k}, b {k}x{n}"


def _linear(m, k, n):
    return lambda x, w, b: F.linear(x, w, b), [_r(m, k), _r(n, k), _r(n)], f"F.linear(x, w, b), x {m}x{k}, w {n}x{k}"


def _bmm(b, m, k, n):
    return lambda x, y: torch.bmm(x, y), [_r(b, m, k), _r(b, k, n)], f"torch.bmm, {b}x{m}x{k} @ {b}x{k}x{n}"


def _conv(n, c, h, w, o, k, stride, pad, groups, dil=1):
    def fn(x, wt, b):
        return torch.relu(F.conv2d(x, wt, b, stride=stride, padding=pad, groups=groups, dilation=dil))

    return (fn, [_r(n, c, h, w), _r(o, c // groups, k, k), _r(o)],
            f"relu(F.conv2d(x, w, b, stride={stride}, padding={pad}, groups={groups}, dilation={dil})), "
            f"x {n}x{c}x{h}x{w}, w {o}x{c // groups}x{k}x{k}")


def _depthwise(n, c, h, w, k, stride, pad):
    return _conv(n, c, h, w, c, k, stride, pad, c)


def _maxpool(n, c, h, w, k, stride, pad, ceil):
    return (lambda x: F.max_pool2d(x, k, stride, pad, ceil_mode=bool(ceil)), [_r(n, c, h, w)],
            f"F.max_pool2d(x, {k}, {stride}, {pad}, ceil_mode={bool(ceil)}), x {n}x{c}x{h}x{w}")


def _avgpool(n, c, h, w, k, stride, pad, ceil):
    return (lambda x: F.avg_pool2d(x, k, stride, pad, ceil_mode=bool(ceil), count_include_pad=False),
            [_r(n, c, h, w)],
            f"F.avg_pool2d(x, {k}, {stride}, {pad}, ceil_mode={bool(ceil)}, count_include_pad=False), x {n}x{c}x{h}x{w}")


def _adaptive(n, c, h, w, oh, ow):
    return (lambda x: F.adaptive_avg_pool2d(x, (oh, ow)), [_r(n, c, h, w)],
            f"F.adaptive_avg_pool2d(x, ({oh}, {ow})), x {n}x{c}x{h}x{w}")


def _softmax(r, n):
    return lambda x: torch.softmax(x, -1), [_r(r, n)], f"torch.softmax(x, -1), x {r}x{n}"


def _log_softmax(r, n):
    return lambda x: torch.log_softmax(x, -1), [_r(r, n)], f"torch.log_softmax(x, -1), x {r}x{n}"


def _layernorm(r, n):
    return (lambda x, g, b: F.layer_norm(x, (n,), g, b), [_r(r, n), _r(n), _r(n)],
            f"F.layer_norm(x, ({n},), g, b), x {r}x{n}")


def _broadcast(a, b, c):
    def fn(x, y, z):
        s = x + y * z
        return torch.where(s > 0, F.gelu(s), torch.sigmoid(s) * y)

    return (fn, [_r(a, 1, c), _r(b, 1), _r(c)],
            f"s = x + y * z; where(s > 0, gelu(s), sigmoid(s) * y), x {a}x1x{c}, y {b}x1, z {c}")


def _reductions(m, n):
    def fn(x):
        return x.sum(0), x.amax(1), x.mean(), torch.argmax(x, 1), x.var(1)

    return fn, [_r(m, n)], f"x.sum(0), x.amax(1), x.mean(), argmax(x, 1), x.var(1), x {m}x{n}"


def _transpose(a, b, c):
    return (lambda x, y: (x.permute(2, 0, 1) * 2, y.t() + 1), [_r(a, b, c), _r(a, c)],
            f"x.permute(2, 0, 1) * 2, y.t() + 1, x {a}x{b}x{c}, y {a}x{c}")


def _embedding(v, d, n):
    return lambda w, i: F.embedding(i, w), [_r(v, d), _idx(v, n)], f"F.embedding(i, w), w {v}x{d}, i {n}"


def _index_select(m, n, k):
    return (lambda x, i, j: (torch.index_select(x, 0, i), torch.index_select(x, 1, j)), [_r(m, n), _idx(m, k), _idx(n, k)],
            f"index_select(x, 0, i), index_select(x, 1, j), x {m}x{n}, i, j {k}")


def _gather(m, n, k):
    return (lambda x, i: torch.gather(x, 1, i), [_r(m, n), _idx(n, m, k)],
            f"torch.gather(x, 1, i), x {m}x{n}, i {m}x{k}")


def _cumsum(*shape):
    dim = len(shape) - 1 if shape[-1] != 3 else 0
    return lambda x: torch.cumsum(x, dim), [_r(*shape)], f"torch.cumsum(x, {dim}), x {_size_name(shape)}"


def _sort(m, n, descending):
    return (lambda x: torch.sort(x, -1, descending=bool(descending)), [_r(m, n)],
            f"torch.sort(x, -1, descending={bool(descending)}), x {m}x{n}")


def _topk(m, n, k):
    return lambda x: torch.topk(x, k, -1), [_r(m, n)], f"torch.topk(x, {k}, -1), x {m}x{n}"


def _index_put(m, n, k, accumulate):
    return (lambda x, i, v: torch.index_put(x, (i,), v, accumulate=bool(accumulate)), [_r(m, n), _idx(m, k), _r(k, n)],
            f"torch.index_put(x, (i,), v, accumulate={bool(accumulate)}), x {m}x{n}, i {k}, v {k}x{n}")


def _scatter_add(m, n, k):
    return (lambda x, i, v: x.scatter_add(1, i, v), [_r(m, n), _idx(n, m, k), _r(m, k)],
            f"x.scatter_add(1, i, v), x {m}x{n}, i {m}x{k}, v {m}x{k}")


def _interpolate(n, c, h, w, oh, ow):
    return (lambda x: (F.interpolate(x, (oh, ow), mode="bilinear"), F.interpolate(x, (oh, ow), mode="nearest")),
            [_r(n, c, h, w)], f"F.interpolate(x, ({oh}, {ow})) bilinear and nearest, x {n}x{c}x{h}x{w}")


def _movement(m, n):
    def fn(x):
        return F.pad(x, (2, 1, 1, 2), mode="reflect"), torch.roll(x, 3, 1), torch.flip(x, (0,)), x[:, 1::3] * 2

    return fn, [_r(1, m, n)], f"F.pad reflect (2, 1, 1, 2), roll(x, 3, 1), flip(x, 0), x[:, 1::3] * 2, x 1x{m}x{n}"


FAMILIES = [
    ("matmul", _matmul, [(1, 1, 1), (7, 13, 5), (37, 29, 17), (65, 3, 129)],
     [(2, 3, 2), (17, 1, 23), (97, 61, 7), (129, 65, 31), (3, 257, 5), (127, 127, 127), (1, 97, 1), (31, 31, 1)]),
    ("linear", _linear, [(1, 1, 1), (5, 13, 7), (33, 17, 3)], [(3, 97, 11), (67, 5, 33), (1, 129, 65)]),
    ("bmm", _bmm, [(1, 1, 1, 1), (3, 7, 13, 5), (2, 17, 9, 31)], [(5, 33, 1, 7), (4, 65, 33, 17), (7, 1, 13, 1), (2, 63, 65, 67)]),
    ("conv2d", _conv, [(1, 1, 1, 1, 1, 1, 1, 0, 1), (1, 3, 7, 9, 5, 3, 1, 0, 1), (2, 3, 13, 11, 4, 3, 2, 1, 1),
                       (1, 4, 9, 7, 6, 3, 1, 1, 2)],
     [(1, 2, 17, 15, 3, 5, 1, 2, 1, 2), (1, 3, 5, 5, 7, 5, 3, 2, 1), (3, 1, 31, 29, 5, 3, 2, 0, 1),
      (1, 6, 11, 13, 9, 1, 2, 0, 3), (1, 16, 19, 17, 33, 3, 1, 1, 1), (1, 3, 3, 3, 1, 3, 1, 0, 1)]),
    ("depthwise", _depthwise, [(1, 5, 11, 13, 3, 2, 1), (2, 1, 7, 5, 3, 1, 1)],
     [(1, 7, 17, 19, 5, 1, 2), (1, 13, 9, 9, 3, 2, 0), (1, 32, 15, 15, 3, 1, 1)]),
    ("maxpool", _maxpool, [(1, 3, 13, 11, 3, 2, 1, 0), (2, 2, 7, 9, 2, 2, 0, 1)],
     [(1, 1, 1, 1, 1, 1, 0, 0), (1, 5, 17, 19, 3, 3, 1, 1), (1, 2, 31, 29, 5, 2, 2, 0)]),
    ("avgpool", _avgpool, [(1, 3, 13, 11, 3, 2, 1, 0), (2, 2, 7, 9, 2, 2, 0, 1)],
     [(1, 1, 1, 1, 1, 1, 0, 0), (1, 5, 17, 19, 3, 3, 1, 1)]),
    ("adaptive_avgpool", _adaptive, [(1, 3, 7, 5, 1, 1), (1, 2, 9, 9, 3, 3)], [(1, 4, 13, 11, 1, 1), (2, 3, 15, 10, 5, 2)]),
    ("softmax", _softmax, [(3, 1), (3, 17), (3, 97)], [(1, 1), (5, 33), (7, 257), (2, 1031)]),
    ("log_softmax", _log_softmax, [(5, 17)], [(1, 1), (3, 97)]),
    ("layernorm", _layernorm, [(3, 1), (3, 17), (3, 97)], [(1, 1), (5, 33), (7, 257), (2, 1031)]),
    ("broadcast", _broadcast, [(1, 1, 1), (7, 5, 13), (3, 17, 1)], [(1, 31, 97), (13, 1, 33), (5, 7, 129)]),
    ("reductions", _reductions, [(1, 1), (13, 7), (37, 101)], [(1, 97), (97, 1), (5, 257), (129, 33)]),
    ("transpose", _transpose, [(3, 7, 5), (1, 17, 1), (29, 31, 3)], [(1, 1, 1), (33, 65, 17), (17, 13, 129)]),
    ("embedding", _embedding, [(1, 1, 3), (11, 7, 5)], [(97, 13, 17), (3, 129, 1), (257, 33, 31)]),
    ("index_select", _index_select, [(1, 1, 1), (11, 7, 5)], [(97, 13, 17), (5, 65, 3)]),
    ("gather", _gather, [(1, 1, 1), (5, 7, 3)], [(13, 97, 17), (31, 5, 7)]),
    ("cumsum", _cumsum, [(1,), (7, 13), (17, 3)], [(97,), (1, 1), (13, 65), (129, 3)]),
    ("sort", _sort, [(1, 1, 0), (5, 13, 0), (3, 17, 1)], [(7, 97, 0), (1, 33, 1), (17, 2, 0)]),
    ("topk", _topk, [(1, 5, 1), (7, 13, 3), (3, 97, 5)], [(1, 1, 1), (5, 33, 33), (2, 257, 7)]),
    ("index_put", _index_put, [(1, 1, 1, 0), (10, 4, 3, 0), (10, 4, 3, 1)], [(13, 7, 17, 1), (97, 5, 31, 0), (5, 33, 5, 1)]),
    ("scatter_add", _scatter_add, [(1, 1, 1), (3, 5, 4)], [(7, 13, 11), (17, 97, 5)]),
    ("interpolate", _interpolate, [(1, 2, 7, 5, 13, 11)], [(1, 1, 1, 1, 3, 5), (1, 3, 17, 13, 7, 29)]),
    ("movement", _movement, [(5, 7)], [(3, 4), (17, 13)]),
]


def programs(which: str):
    """The Programs of the "quick" (committed) or "long" set."""
    torch.manual_seed(0)
    for family, build, quick, long in FAMILIES:
        for sizes in quick if which == "quick" else long:
            fn, args, text = build(*sizes)
            yield Program(f"{family}_{_size_name(sizes)}", fn, args, text)


class _Module(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


def lower(program: Program) -> str:
    """linalg-on-tensors text of `program`, by the PyTorch front's path."""
    from torch_mlir import fx

    from polyblocks import torch_decompositions, torch_lowering

    with torch.no_grad():
        exported = torch.export.export(_Module(program.fn), tuple(program.args))
        exported = exported.run_decompositions(torch_decompositions.table())
        module = fx.export_and_import(exported, output_type="raw", func_name=program.name)
    text = torch_lowering.lower(module.operation.get_asm())
    header = [f"// memcheck: {program.text}"]
    header += [f"// memcheck: input{i} range {lo} {hi}" for i, (lo, hi) in sorted(program.ranges.items())]
    return "\n".join(header) + "\n" + text


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=["quick", "long"], default="quick")
    parser.add_argument("-o", "--out", type=pathlib.Path, default=HERE / "programs")
    parser.add_argument("-k", default="", help="only programs whose name contains this")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    failed = []
    for program in programs(args.set):
        if args.k not in program.name:
            continue
        try:
            text = lower(program)
        except Exception as error:  # noqa: BLE001 - report and go on
            failed.append(program.name)
            print(f"{program.name}: not lowered: {str(error).splitlines()[0] if str(error) else type(error).__name__}")
            continue
        (args.out / f"{program.name}.mlir").write_text(text)
        print(f"{program.name}: {program.text}")
    if failed:
        sys.exit(f"{len(failed)} programs could not be lowered: {' '.join(failed)}")


if __name__ == "__main__":
    main()
