"""Seeded random PyTorch programs for differential fuzzing of the engine.

`generate(seed, index)` builds program `index` of `seed` on its own
(`random.Random(f"fuzz:{seed}:{index}")`): a function `def f(x0, x1, ...)`
of 3-12 statements, emitted as Python source, plus the code that creates its
inputs (one seeded `torch.Generator` per input), so that any program can be
written out as a standalone script.

The generator runs each candidate statement eagerly as it goes and keeps it
only if PyTorch accepts it and its result is sane (dtype among float16/32/64,
int32/64 and bool, at most `MAX_NUMEL` elements, floats finite and moderate,
integers small). Shapes, dtypes, broadcasting and type promotion are
therefore PyTorch's own, never re-derived here.

Keeping compiled and eager results comparable: float inputs are either
uniform in [-2, 2] or *exact* (multiples of 1/8 in [-2, 2]). Each value
carries `q`, the number of fractional bits that make it an integer, or
`None` once rounding may have happened (exp, division, mean, ...);
`q` follows add, multiply, sums and matmuls while the result stays exactly
representable. Operations that are discontinuous in their float inputs
(comparisons, floor/round, casts to integers or bool, argmax,
floor_divide/remainder, logical ops, sqrt near 0) are applied only to exact
values, so a rounding difference in an earlier step can never flip them.
Integer values stay below 2**24 in magnitude, so int arithmetic never
overflows and casts to float are exact.
"""

from __future__ import annotations

import dataclasses
import math
import random
import warnings

import torch

SIZES = (1, 1, 2, 3, 4, 5, 7, 8, 13, 16, 17, 31, 37)
MAX_NUMEL = 4096
START_NUMEL = 1024
DTYPES = ("float32", "float32", "float32", "float64", "float16", "int32", "int64", "int64", "bool")
FLOATS = ("float16", "float32", "float64")
INTS = ("int32", "int64")
MANTISSA = {"float16": 11, "float32": 24, "float64": 53}
FLOAT_LIMIT = {"float16": 1e3, "float32": 1e4, "float64": 1e4}
INT_LIMIT = 2**24
EXACT_CONSTANTS = (0.5, 2, 3, -1, 1.5, 0.25, -2, 4)


def _dtype_name(tensor: torch.Tensor) -> str:
    return str(tensor.dtype).removeprefix("torch.")


@dataclasses.dataclass
class Input:
    """One argument of the program and how to create it."""

    name: str
    shape: tuple
    dtype: str
    kind: str  # "uniform" or "exact" (floats), "int", "bool", "index" (int64 in [0, high))
    seed: int
    high: int = 0
    layout: str = "contiguous"  # or "transposed" (a permuted view), "strided" (every other column)

    def code(self) -> str:
        shape = list(self.shape)
        if self.layout == "transposed":
            shape = shape[::-1]
        elif self.layout == "strided":
            shape[-1] *= 2
        g = f"torch.Generator().manual_seed({self.seed})"
        if self.kind == "uniform":
            make = f"(torch.rand({shape}, generator={g}, dtype=torch.float64) * 4 - 2).to(torch.{self.dtype})"
        elif self.kind == "exact":
            make = f"(torch.randint(-16, 17, {shape}, generator={g}) / 8).to(torch.{self.dtype})"
        elif self.kind == "int":
            make = f"torch.randint(-20, 21, {shape}, generator={g}, dtype=torch.{self.dtype})"
        elif self.kind == "bool":
            make = f"torch.randint(0, 2, {shape}, generator={g}).bool()"
        else:
            make = f"torch.randint(0, {self.high}, {shape}, generator={g})"
        if self.layout == "transposed":
            make += f".permute({list(range(len(shape)))[::-1]})"
        elif self.layout == "strided":
            make += "[..., ::2]"
        return f"{self.name} = {make}"


@dataclasses.dataclass
class Stmt:
    """`out = code` with `{0}`, `{1}`, ... standing for `args`; a code that
    mentions `{out}` is a statement of its own (slice assignment)."""

    out: str
    code: str
    args: list
    shape: tuple
    dtype: str
    inplace: bool = False

    def line(self) -> str:
        text = self.code.replace("{out}", self.out).format(*self.args)
        return text if "{out}" in self.code else f"{self.out} = {text}"


@dataclasses.dataclass
class Program:
    """A generated program: inputs, statements, returned variables."""

    seed: int
    index: int
    inputs: list
    stmts: list
    outputs: list
    lowest_float: str = "float64"  # the least precise float dtype anywhere
    longest_reduction: int = 1  # the most terms summed into one value

    @property
    def name(self) -> str:
        return f"{self.seed}:{self.index}"

    def source(self) -> str:
        lines = [f"def f({', '.join(i.name for i in self.inputs)}):"]
        lines += [f"    {s.line()}" for s in self.stmts]
        outs = ", ".join(self.outputs)
        lines.append(f"    return {outs}{',' if len(self.outputs) == 1 else ''}")
        return "\n".join(lines) + "\n"

    def inputs_source(self) -> str:
        lines = ["def make_inputs():"]
        lines += [f"    {i.code()}" for i in self.inputs]
        lines.append(f"    return [{', '.join(i.name for i in self.inputs)}]")
        return "\n".join(lines) + "\n"

    def function(self):
        """The program as a Python function (fresh on each call)."""
        scope = {"torch": torch}
        exec(compile(self.source(), f"<fuzz {self.name}>", "exec"), scope)
        return scope["f"]

    def make_inputs(self) -> list:
        scope = {"torch": torch}
        exec(self.inputs_source(), scope)
        return scope["make_inputs"]()

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @staticmethod
    def from_json(data: dict) -> "Program":
        data = dict(data)
        data["inputs"] = [Input(**{**i, "shape": tuple(i["shape"])}) for i in data["inputs"]]
        data["stmts"] = [Stmt(**{**s, "shape": tuple(s["shape"])}) for s in data["stmts"]]
        return Program(**data)


@dataclasses.dataclass
class _Cand:
    """A candidate statement and its exactness rule: `exact` is (q, bound)
    where every intermediate value has magnitude <= bound, or None."""

    code: str
    args: list
    exact: tuple | None = None
    inplace: bool = False
    terms: int = 1


def _q_of_constant(c) -> int:
    q = 0
    while c * 2**q != int(c * 2**q):
        q += 1
    return q


def _broadcast(a: tuple, b: tuple):
    try:
        return tuple(torch.broadcast_shapes(a, b))
    except RuntimeError:
        return None


class _Builder:
    """Grows one program statement by statement, running each eagerly."""

    def __init__(self, seed: int, index: int):
        self.rng = random.Random(f"fuzz:{seed}:{index}")
        self.program = Program(seed, index, [], [], [])
        self.env = {}  # name -> tensor, as eager execution leaves it
        self.q = {}  # name -> fractional bits if exact, else None

    # ---- variables -------------------------------------------------------

    def names(self, pred=lambda t: True) -> list:
        return [n for n, t in self.env.items() if pred(t)]

    def pick(self, pred=lambda t: True, exact=False):
        """A variable satisfying `pred` (and exact if asked): the newest
        statement result half of the time, so programs form chains."""
        names = [n for n in self.names(pred) if not exact or self.q[n] is not None]
        if not names:
            return None
        stmts = [s.out for s in self.program.stmts if s.out in names]
        if stmts and self.rng.random() < 0.5:
            return stmts[-1]
        return self.rng.choice(names)

    def bound(self, name) -> float:
        t = self.env[name]
        if t.numel() == 0:
            return 0.0
        return float(t.abs().max()) if t.dtype != torch.bool else 1.0

    def lin(self, *names, consts=()):
        """Exactness of a value built by adds, selects and moves of `names`."""
        qs = [self.q[n] for n in names] + [_q_of_constant(c) for c in consts]
        if None in qs:
            return None
        return max(qs), sum(self.bound(n) for n in names) + sum(abs(c) for c in consts)

    def mul(self, a, b, terms=1):
        if self.q[a] is None or self.q[b] is None:
            return None
        return self.q[a] + self.q[b], terms * self.bound(a) * self.bound(b)

    def random_shape(self, limit=START_NUMEL) -> tuple:
        while True:
            rank = self.rng.choices(range(5), weights=(1, 4, 7, 5, 3))[0]
            shape = tuple(self.rng.choice(SIZES) for _ in range(rank))
            if math.prod(shape) <= limit:
                return shape

    def random_dtype(self, like=None) -> str:
        if like is not None and self.rng.random() < 0.7:
            return like
        return self.rng.choice(DTYPES)

    def fresh(self, shape, dtype, kind=None, high=0) -> str:
        """A new input of `shape` and `dtype`, created and added to env."""
        if kind is None:
            if dtype in FLOATS:
                kind = self.rng.choice(("uniform", "exact"))
            else:
                kind = "bool" if dtype == "bool" else "int"
        layout = "contiguous"
        r = self.rng.random()
        if r < 0.12 and len(shape) >= 2:
            layout = "transposed"
        elif r < 0.2 and len(shape) >= 1 and 2 * math.prod(shape) <= MAX_NUMEL:
            layout = "strided"
        spec = Input(f"x{len(self.program.inputs)}", tuple(shape), dtype, kind, self.rng.getrandbits(31), high, layout)
        self.program.inputs.append(spec)
        scope = {"torch": torch}
        exec(spec.code(), scope)
        self.env[spec.name] = scope[spec.name]
        self.q[spec.name] = 3 if kind == "exact" else (None if kind == "uniform" else 0)
        return spec.name

    def partner(self, shape, dtype=None, exact=False, fit=False) -> str:
        """A second operand broadcasting with `shape` (to exactly `shape` if
        `fit`): an existing variable or a fresh input."""
        dtype = dtype or self.random_dtype()

        def ok(t):
            if _dtype_name(t) != dtype:
                return False
            out = _broadcast(shape, tuple(t.shape))
            return out is not None and (out == tuple(shape) if fit else math.prod(out) <= MAX_NUMEL)

        names = [n for n in self.names(ok) if not exact or self.q[n] is not None]
        if names and self.rng.random() < 0.5:
            return self.rng.choice(names)
        return self.fresh(self.broadcast_shape(shape, grow=not fit), dtype, "exact" if exact and dtype in FLOATS else None)

    def partner_exact_shape(self, shape, dtype, wild_dim=None) -> str:
        """An operand of exactly `shape` (any size along `wild_dim`)."""

        def ok(t):
            if _dtype_name(t) != dtype or t.dim() != len(shape):
                return False
            return all(i == wild_dim or s == x for i, (s, x) in enumerate(zip(t.shape, shape)))

        names = self.names(ok)
        if names and self.rng.random() < 0.5:
            return self.rng.choice(names)
        return self.fresh(shape, dtype)

    def broadcast_shape(self, shape, grow=True) -> tuple:
        if self.rng.random() < 0.5:
            return tuple(shape)
        keep = self.rng.randint(0, len(shape))
        out = [s if self.rng.random() < 0.7 else 1 for s in shape[len(shape) - keep :]]
        if grow and self.rng.random() < 0.15 and 3 * math.prod(shape) <= MAX_NUMEL:
            out.insert(0, self.rng.choice((2, 3)))
        return tuple(out)

    # ---- statements ------------------------------------------------------

    def accept(self, cand: _Cand) -> bool:
        """Runs `cand`; keeps it if PyTorch accepts it and values stay sane."""
        out = f"v{len(self.program.stmts)}"
        stmt = Stmt(out, cand.code, list(cand.args), (), "", cand.inplace)
        if cand.inplace and any(self.shares_storage(cand.args[0], other) for other in cand.args[1:]):
            # `v2.add_(v2.diagonal())`: eager reads elements it has already
            # updated, in an order PyTorch does not define.
            return False
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(stmt.line(), {"torch": torch}, self.env)
            value = self.env[out]
            touched = [out] + (self.aliases(cand.args[0]) if cand.inplace else [])
            ok = isinstance(value, torch.Tensor) and all(self.sane(self.env[n]) for n in touched)
            ok = ok and self.well_conditioned(cand)
        except Exception:  # noqa: BLE001 - PyTorch rejected the candidate
            ok = False
        if not ok:
            self.replay() if cand.inplace else self.env.pop(out, None)
            return False
        stmt.shape, stmt.dtype = tuple(value.shape), _dtype_name(value)
        self.program.stmts.append(stmt)
        self.q[out] = self.exactness(value, cand.exact)
        if cand.inplace:
            for name in self.aliases(cand.args[0]):
                old = self.q[name]
                merged = None if old is None or self.q[out] is None else (max(old, self.q[out]), 0)
                self.q[name] = self.exactness(self.env[name], merged)
        self.note_precision(value, cand.terms)
        return True

    def exactness(self, value: torch.Tensor, rule):
        dtype = _dtype_name(value)
        if dtype not in FLOATS:
            return 0
        if rule is None:
            return None
        q, bound = rule
        magnitude = max(bound, float(value.abs().max()) if value.numel() else 0.0)
        return q if magnitude * 2**q < 2 ** MANTISSA[dtype] else None

    def note_precision(self, value, terms):
        dtype = _dtype_name(value)
        if dtype in FLOATS and MANTISSA[dtype] < MANTISSA[self.program.lowest_float]:
            self.program.lowest_float = dtype
        self.program.longest_reduction = max(self.program.longest_reduction, terms)

    def well_conditioned(self, cand: _Cand) -> bool:
        """False for a layer norm of rows whose spread is small beside their
        values: it divides rounding errors of `x - mean` by the spread (an
        error of ~20 ulps of its input where the largest value is 20 times
        the standard deviation), and a sum of its outputs, exactly zero,
        is then that noise alone, legitimately different in any two
        implementations (fuzz seed 4 program 8581: eager -7.1e-6, ours
        6.9e-6, float64 -2e-15)."""
        if not cand.code.startswith("torch.nn.functional.layer_norm("):
            return True
        x = self.env[cand.args[0]].double()
        if x.dim() == 0 or x.numel() == 0:
            return True
        spread = x.std(-1, unbiased=False)
        largest = x.abs().amax(-1)
        return bool((largest <= 4 * spread).all())

    @staticmethod
    def sane(t: torch.Tensor) -> bool:
        dtype = _dtype_name(t)
        if dtype not in FLOATS + INTS + ("bool",) or not 0 < t.numel() <= MAX_NUMEL:
            return False
        if dtype in FLOATS:
            return bool(torch.isfinite(t).all()) and float(t.abs().max()) <= FLOAT_LIMIT[dtype]
        if dtype in INTS:
            return int(t.abs().max()) < INT_LIMIT
        return True

    def shares_storage(self, name, other) -> bool:
        return self.env[name].untyped_storage().data_ptr() == self.env[other].untyped_storage().data_ptr()

    def aliases(self, name) -> list:
        storage = self.env[name].untyped_storage().data_ptr()
        return [n for n, t in self.env.items() if t.untyped_storage().data_ptr() == storage]

    def replay(self):
        """Rebuilds env from scratch (after a rejected in-place statement)."""
        self.env = {}
        for spec in self.program.inputs:
            scope = {"torch": torch}
            exec(spec.code(), scope)
            self.env[spec.name] = scope[spec.name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for stmt in self.program.stmts:
                exec(stmt.line(), {"torch": torch}, self.env)

    def writable(self, t: torch.Tensor) -> bool:
        """In-place targets: intermediates that alias no input and repeat no
        element (no expanded dimension)."""
        storage = t.untyped_storage().data_ptr()
        inputs = {self.env[i.name].untyped_storage().data_ptr() for i in self.program.inputs}
        expanded = any(st == 0 and sz > 1 for st, sz in zip(t.stride(), t.shape))
        return storage not in inputs and not expanded and t.dtype != torch.bool

    def dims(self, t, allow_none=True):
        """A random reduction `dim` argument for `t` (None: all of it)."""
        rank = max(t.dim(), 1)
        r = self.rng.random()
        if allow_none and r < 0.2:
            return None
        if r < 0.35 and t.dim() >= 2:
            return tuple(sorted(self.rng.sample(range(rank), 2)))
        d = self.rng.randrange(rank)
        return d - rank if self.rng.random() < 0.3 else d


def _terms(t, dim) -> int:
    if dim is None:
        return t.numel()
    if t.dim() == 0:
        return 1
    dims = dim if isinstance(dim, tuple) else (dim,)
    return math.prod(t.shape[d] for d in dims)


# ---- operator generators: each returns a _Cand or None ------------------

_SMOOTH = (
    "torch.exp({0})", "torch.log({0}.abs() + 1)", "torch.tanh({0})", "torch.sigmoid({0})",
    "torch.sqrt({0}.abs() + 1)", "torch.rsqrt({0}.abs() + 1)", "torch.sin({0})", "torch.cos({0})",
    "torch.erf({0})", "torch.nn.functional.gelu({0})", "torch.nn.functional.silu({0})",
    "torch.expm1({0})", "torch.log1p({0}.abs())", "torch.reciprocal({0}.abs() + 1)", "{0} / 3",
    "torch.nn.functional.softplus({0})", "torch.atan({0})", "torch.nn.functional.elu({0})",
)


def op_smooth(b: _Builder):
    a = b.pick(lambda t: t.is_floating_point())
    if a is None:
        return None
    code = b.rng.choice(_SMOOTH)
    if "exp" in code and b.bound(a) > 6:
        code = "torch.tanh({0})"
    return _Cand(code, [a])


def op_exact_unary(b: _Builder):
    a = b.pick(lambda t: t.dtype != torch.bool)
    if a is None:
        return None
    c = b.rng.choice(EXACT_CONSTANTS)
    lo = b.rng.choice((-1.5, -1, 0, 0.5))
    code, rule = b.rng.choice(
        (
            ("torch.abs({0})", b.lin(a)),
            ("-{0}", b.lin(a)),
            ("torch.relu({0})", b.lin(a)),
            (f"{{0}}.clamp({lo}, {lo + 2})", b.lin(a, consts=(lo, lo + 2))),
            (f"torch.clamp({{0}}, min={lo})", b.lin(a, consts=(lo,))),
            (f"{{0}} * {c}", None if b.q[a] is None else (b.q[a] + _q_of_constant(c), b.bound(a) * abs(c))),
            (f"{{0}} + {c}", b.lin(a, consts=(c,))),
            ("torch.square({0})", b.mul(a, a)),
            ("{0} / 2", None if b.q[a] is None else (b.q[a] + 1, b.bound(a))),
        )
    )
    return _Cand(code, [a], rule)


def op_discontinuous_unary(b: _Builder):
    a = b.pick(exact=True)
    if a is None:
        return None
    t = b.env[a]
    if t.is_floating_point():
        code = b.rng.choice(
            ("torch.floor({0})", "torch.ceil({0})", "torch.round({0})", "torch.trunc({0})", "torch.sign({0})",
             "torch.frac({0})", "torch.sqrt({0}.abs())", "({0} > 0)", "{0}.bool()")
        )
        rule = (b.q[a], b.bound(a) + 1) if "sqrt" not in code else None
        return _Cand(code, [a], rule)
    if t.dtype == torch.bool:
        return _Cand(b.rng.choice(("~{0}", "torch.logical_not({0})", "{0}.int()", "{0}.float()")), [a], (0, 1))
    c = b.rng.choice((2, 3, -3, 5, 7))
    code = b.rng.choice(
        (f"{{0}} // {c}", f"{{0}} % {c}", "~{0}", f"{{0}} & {abs(c)}", f"torch.bitwise_xor({{0}}, {c})",
         f"torch.fmod({{0}}, {c})", f"torch.div({{0}}, {c}, rounding_mode='trunc')", "torch.sign({0})")
    )
    return _Cand(code, [a], (0, b.bound(a) + 8))


def op_cast(b: _Builder):
    target = b.rng.choice(DTYPES)
    exact_needed = target not in FLOATS
    a = b.pick(exact=exact_needed)
    if a is None:
        return None
    form = b.rng.choice((f".to(torch.{target})", {"float32": ".float()", "float64": ".double()", "float16": ".half()",
                                                 "int32": ".int()", "int64": ".long()", "bool": ".bool()"}[target]))
    return _Cand("{0}" + form, [a], b.lin(a))


def op_binary(b: _Builder):
    a = b.pick(lambda t: t.dtype != torch.bool or b.rng.random() < 0.3)
    if a is None:
        return None
    t = b.env[a]
    other = b.partner(tuple(t.shape), b.random_dtype(_dtype_name(t)))
    code, rule = b.rng.choice(
        (
            ("{0} + {1}", b.lin(a, other)),
            ("{0} - {1}", b.lin(a, other)),
            ("{0} * {1}", b.mul(a, other)),
            ("torch.maximum({0}, {1})", b.lin(a, other)),
            ("torch.minimum({0}, {1})", b.lin(a, other)),
            ("torch.add({0}, {1}, alpha=2)", b.lin(a, other, other)),
            ("{0} / ({1}.abs() + 1)", None),
            ("torch.clamp({0}, min={1})", b.lin(a, other)),
        )
    )
    return _Cand(code, [a, other], rule)


def op_discontinuous_binary(b: _Builder):
    a = b.pick(exact=True)
    if a is None:
        return None
    t = b.env[a]
    other = b.partner(tuple(t.shape), b.random_dtype(_dtype_name(t)), exact=True)
    both_integral = not t.is_floating_point() and not b.env[other].is_floating_point()
    choices = [
        (b.rng.choice(("{0} < {1}", "{0} <= {1}", "{0} == {1}", "{0} != {1}", "{0} > {1}", "{0} >= {1}")), (0, 1)),
        (b.rng.choice(("torch.logical_and({0}, {1})", "torch.logical_or({0}, {1})", "torch.logical_xor({0}, {1})")),
         (0, 1)),
        ("torch.floor_divide({0}, {1}.abs() + 1)", (0, b.bound(a) + 1)),
        ("torch.floor_divide({0}, -({1}.abs() + 1))", (0, b.bound(a) + 1)),
        ("torch.remainder({0}, {1}.abs() + 1)", b.lin(a, other, consts=(1,))),
        ("torch.remainder({0}, -({1}.abs() + 1))", b.lin(a, other, consts=(1,))),
        ("torch.fmod({0}, {1}.abs() + 1)", b.lin(a, other, consts=(1,))),
        ("torch.div({0}, {1}.abs() + 1, rounding_mode='floor')", (0, b.bound(a) + 1)),
        ("torch.div({0}, {1}.abs() + 1, rounding_mode='trunc')", (0, b.bound(a) + 1)),
    ]
    if both_integral:
        choices.append((b.rng.choice(("{0} & {1}", "{0} | {1}", "{0} ^ {1}")), (0, 2 * b.bound(a) + 2 * b.bound(other))))
    code, rule = b.rng.choice(choices)
    return _Cand(code, [a, other], rule)


def op_pow(b: _Builder):
    a = b.pick(lambda t: t.dtype != torch.bool and float(t.abs().max()) <= 20)
    if a is None:
        return None
    k = b.rng.choice((2, 3))
    rule = None if b.q[a] is None else (b.q[a] * k, b.bound(a) ** k)
    return _Cand(b.rng.choice((f"torch.pow({{0}}, {k})", f"{{0}} ** {k}")), [a], rule)


def op_where(b: _Builder):
    a = b.pick()
    if a is None:
        return None
    t = b.env[a]
    cond = b.partner(tuple(t.shape), "bool")
    if b.rng.random() < 0.7:
        other = b.partner(tuple(t.shape), b.random_dtype(_dtype_name(t)))
        return _Cand("torch.where({0}, {1}, {2})", [cond, a, other], b.lin(a, other))
    c = b.rng.choice(EXACT_CONSTANTS)
    form = b.rng.choice((f"{{1}}.masked_fill({{0}}, {c})", f"torch.where({{0}}, {{1}}, {c})"))
    return _Cand(form, [cond, a], b.lin(a, consts=(c,)))


def op_inplace(b: _Builder):
    a = b.pick(b.writable)
    if a is None:
        return None
    t = b.env[a]
    dtype = _dtype_name(t)
    c = b.rng.choice(EXACT_CONSTANTS if t.is_floating_point() else (2, 3, -1))
    kind = b.rng.randrange(4)
    if kind == 0:
        other = b.partner(tuple(t.shape), dtype, fit=True)
        code, rule = b.rng.choice(
            (("{0}.add_({1})", b.lin(a, other)), ("{0}.sub_({1})", b.lin(a, other)), ("{0}.mul_({1})", b.mul(a, other)),
             ("{0}.copy_({1})", b.lin(other)))
        )
        return _Cand(code, [a, other], rule, inplace=True)
    if kind == 1:
        mask = b.partner(tuple(t.shape), "bool", fit=True)
        return _Cand(f"{{0}}.masked_fill_({{1}}, {c})", [a, mask], b.lin(a, consts=(c,)), inplace=True)
    if kind == 2:
        view = _slice_text(b, t)
        if view is None:
            return None
        region = tuple(eval(f"t{view}", {"t": t}).shape)  # noqa: S307 - text built here
        other = b.partner(region, dtype, fit=True)
        return _Cand(f"{{0}}{view} = {{1}}; {{out}} = {{0}}", [a, other], b.lin(a, other), inplace=True)
    lo = b.rng.choice((-1, 0, 1))
    code, rule = b.rng.choice(
        (
            (f"{{0}}.mul_({c})", None if b.q[a] is None else (b.q[a] + _q_of_constant(c), b.bound(a) * abs(c))),
            (f"{{0}}.add_({c})", b.lin(a, consts=(c,))),
            (f"{{0}}.clamp_({lo}, {lo + 1})", b.lin(a, consts=(lo, lo + 1))),
            ("{0}.relu_()", b.lin(a)),
            ("{0}.neg_()", b.lin(a)),
            ("{0}.abs_()", b.lin(a)),
            ("{0}.tanh_()" if t.is_floating_point() else "{0}.abs_()", None if t.is_floating_point() else b.lin(a)),
        )
    )
    return _Cand(code, [a], rule, inplace=True)


def _slice_text(b: _Builder, t) -> str | None:
    """An indexing suffix like `[1:5:2, :, 3]` that selects at least one element."""
    if t.dim() == 0:
        return None
    parts = []
    for size in t.shape:
        r = b.rng.random()
        if r < 0.4 or size == 1:
            parts.append(":")
        elif r < 0.5:
            parts.append(str(b.rng.randrange(-size, size)))
        else:
            start = b.rng.randrange(size)
            stop = b.rng.randint(start + 1, size)
            step = b.rng.choice((1, 2, 3))
            parts.append(f"{start}:{stop if stop < size else ''}{':' + str(step) if step > 1 else ''}")
    while parts and parts[-1] == ":" and len(parts) > 1:
        parts.pop()
    return "[" + ", ".join(parts) + "]"


def _factor(numel: int, rng: random.Random) -> list:
    """A random shape of `numel` elements (1 to 4 dimensions)."""
    dims = []
    rest = numel
    for _ in range(rng.randint(0, 3)):
        divisors = [d for d in range(1, rest + 1) if rest % d == 0]
        d = rng.choice(divisors)
        dims.append(d)
        rest //= d
    dims.append(rest)
    rng.shuffle(dims)
    return dims


def op_view(b: _Builder):
    a = b.pick()
    if a is None:
        return None
    t = b.env[a]
    rank = t.dim()
    rng = b.rng
    options = ["{0}.contiguous()", "{0}.clone()", f"{{0}}.unsqueeze({rng.randint(-rank - 1, rank)})",
               f"{{0}}.reshape({_factor(t.numel(), rng)})", f"{{0}}.view({_factor(t.numel(), rng)})", "{0}.reshape(-1)"]
    pad_value = rng.choice(EXACT_CONSTANTS)
    if rank >= 1:
        d = rng.randrange(rank)
        size = t.shape[d]
        start = rng.randrange(size)
        ones = [i for i, s in enumerate(t.shape) if s == 1]
        pads = [rng.randint(0, 2) for _ in range(2 * rng.randint(1, min(rank, 2)))]
        options += [
            _slice_text(b, t),
            f"{{0}}.squeeze({rng.choice(ones) if ones else d})",
            "{0}.squeeze()",
            f"torch.flip({{0}}, [{d}])",
            f"torch.roll({{0}}, {rng.randint(-3, 3)}, {d})",
            f"{{0}}.narrow({d}, {start}, {rng.randint(1, size - start)})",
            f"{{0}}.select({d}, {rng.randrange(-size, size)})",
            f"{{0}}.expand({_expand_shape(t, rng)})",
            f"torch.nn.functional.pad({{0}}, {pads}, value={pad_value})",
        ]
    if rank >= 2:
        perm = list(range(rank))
        rng.shuffle(perm)
        d1, d2 = rng.sample(range(rank), 2)
        options += [
            f"{{0}}.transpose({d1}, {d2})",
            f"{{0}}.permute({perm})",
            "{0}.mT",
            f"{{0}}.flatten({min(d1, d2)}, {max(d1, d2)})",
            f"torch.movedim({{0}}, {d1}, {d2})",
            f"torch.tril({{0}}, {rng.randint(-1, 1)})",
            f"torch.triu({{0}}, {rng.randint(-1, 1)})",
            f"{{0}}.diagonal({rng.randint(-1, 1)}, {d1}, {d2})",
            f"torch.chunk({{0}}, {rng.randint(1, 3)}, {d1})[0]",
        ]
    if rank == 2:
        options.append("{0}.t()")
    code = rng.choice(options)
    return _Cand(code, [a], b.lin(a, consts=(pad_value,) if "pad" in code else ()))


def _expand_shape(t, rng) -> list:
    shape = [rng.choice((2, 3, 5)) if s == 1 and rng.random() < 0.7 else -1 for s in t.shape]
    if rng.random() < 0.3:
        shape.insert(0, rng.choice((2, 3)))
    return shape


def op_reduce(b: _Builder):
    a = b.pick()
    if a is None:
        return None
    t = b.env[a]
    floating = t.is_floating_point()
    dim = b.dims(t)
    keep = b.rng.random() < 0.5
    args = "" if dim is None else f"dim={dim}, keepdim={keep}"
    single = b.dims(t, allow_none=False)
    single = single if not isinstance(single, tuple) else single[0]
    n = _terms(t, dim)
    exact = b.q[a] is not None
    rule_sum = None if not exact else (b.q[a], n * b.bound(a))
    choices = [
        (f"{{0}}.sum({args})", rule_sum, n),
        (f"{{0}}.amax({args})" if dim is not None else "{0}.amax()", b.lin(a), 1),
        (f"{{0}}.amin({args})" if dim is not None else "{0}.amin()", b.lin(a), 1),
        (f"{{0}}.cumsum({single})", None if not exact else (b.q[a], _terms(t, single) * b.bound(a)),
         _terms(t, single)),
    ]
    if b.bound(a) <= 2 and _terms(t, single) <= 8:
        choices.append((f"{{0}}.prod({single}, keepdim={keep})", None if floating else (0, 0), _terms(t, single)))
    if floating:
        choices += [
            (f"{{0}}.mean({args})", None, n),
            (f"torch.logsumexp({{0}}, {single}, keepdim={keep})", None, _terms(t, single)),
            (f"torch.softmax({{0}}, {single})", None, _terms(t, single)),
            (f"torch.log_softmax({{0}}, {single})", None, _terms(t, single)),
            (f"torch.max({{0}}, {single}, keepdim={keep}).values", b.lin(a), 1),
            (f"{{0}}.var({args}{', ' if args else ''}correction={b.rng.choice((0, 1))})", None, n),
            (f"torch.nn.functional.layer_norm({{0}}, {list(t.shape[-1:])})", None, t.shape[-1] if t.dim() else 1),
        ]
    if exact:
        choices += [
            (f"{{0}}.argmax({single}, keepdim={keep})", (0, 0), 1),
            (f"{{0}}.argmin({single}, keepdim={keep})", (0, 0), 1),
            ("{0}.argmax()", (0, 0), 1),
            (f"torch.max({{0}}, {single}, keepdim={keep}).indices", (0, 0), 1),
            (f"{{0}}.any({args})" if dim is not None else "{0}.any()", (0, 0), 1),
            (f"{{0}}.all({single}, keepdim={keep})", (0, 0), 1),
        ]
    code, rule, terms = b.rng.choice(choices)
    return _Cand(code, [a], rule, terms=terms)


def op_matmul(b: _Builder):
    a = b.pick(lambda t: 1 <= t.dim() <= 3 and t.dtype != torch.bool)
    if a is None:
        return None
    t = b.env[a]
    dtype = _dtype_name(t)
    k = t.shape[-1]
    n = b.rng.choice(SIZES)
    rng = b.rng
    if t.dim() == 3 and rng.random() < 0.5:
        w = b.fresh((t.shape[0], k, n), dtype)
        code = "torch.bmm({0}, {1})"
    elif rng.random() < 0.25:
        w = b.fresh((n, k), dtype)
        if rng.random() < 0.5:
            bias = b.fresh((n,), dtype)
            return _Cand("torch.nn.functional.linear({0}, {1}, {2})", [a, w, bias], None, terms=k)
        code = "torch.nn.functional.linear({0}, {1})"
    else:
        shape = rng.choice(((k, n), (k,), (rng.choice((1, t.shape[0])), k, n)))
        w = b.partner_exact_shape(shape, dtype)
        code = rng.choice(("{0} @ {1}", "torch.matmul({0}, {1})"))
    return _Cand(code, [a, w], b.mul(a, w, terms=k), terms=k)


def op_conv(b: _Builder):
    a = b.pick(lambda t: t.is_floating_point() and t.dim() in (3, 4) and min(t.shape[-2:]) >= 2)
    rng = b.rng
    if a is None:
        a = b.fresh((rng.choice((1, 2)), rng.choice((1, 2, 3, 4)), rng.choice(SIZES[4:]), rng.choice(SIZES[4:])),
                    rng.choice(("float32", "float32", "float64")))
    t = b.env[a]
    dtype = _dtype_name(t)
    c, h, w = t.shape[-3:]
    if rng.random() < 0.3:
        kernel, stride = rng.randint(1, min(3, h, w)), rng.randint(1, 2)
        padding = rng.randint(0, kernel // 2)
        pool = rng.choice(("max_pool2d", "avg_pool2d"))
        code = f"torch.nn.functional.{pool}({{0}}, {kernel}, {stride}, {padding}, ceil_mode={rng.random() < 0.3})"
        return _Cand(code, [a], b.lin(a) if pool == "max_pool2d" else None, terms=kernel * kernel)
    groups = rng.choice([g for g in (1, 2, 3) if c % g == 0])
    cout = groups * rng.randint(1, 3)
    kh, kw = rng.randint(1, min(3, h)), rng.randint(1, min(3, w))
    weight = b.fresh((cout, c // groups, kh, kw), dtype)
    stride, dilation = rng.randint(1, 2), rng.choice((1, 1, 2))
    padding = rng.randint(0, 2)
    args = [a, weight]
    bias = "None"
    if rng.random() < 0.5:
        args.append(b.fresh((cout,), dtype))
        bias = "{2}"
    code = f"torch.nn.functional.conv2d({{0}}, {{1}}, {bias}, {stride}, {padding}, {dilation}, {groups})"
    terms = c // groups * kh * kw
    return _Cand(code, args, b.mul(a, weight, terms=terms), terms=terms)


def op_index(b: _Builder):
    a = b.pick(lambda t: t.dim() >= 1)
    if a is None:
        return None
    t = b.env[a]
    rng = b.rng
    d = rng.randrange(t.dim())
    size = t.shape[d]
    kind = rng.randrange(5)
    if kind == 0:
        if rng.random() < 0.5:
            values = [rng.randrange(size) for _ in range(rng.randint(1, 6))]
            return _Cand(f"torch.index_select({{0}}, {d}, torch.tensor({values}))", [a], b.lin(a))
        idx = b.fresh((rng.randint(1, 6),), "int64", "index", size)
        return _Cand(f"torch.index_select({{0}}, {d}, {{1}})", [a, idx], b.lin(a))
    if kind == 1:
        shape = [rng.randint(1, s) if i != d else rng.randint(1, 5) for i, s in enumerate(t.shape)]
        idx = b.fresh(tuple(shape), "int64", "index", size)
        return _Cand(f"torch.gather({{0}}, {d}, {{1}})", [a, idx], b.lin(a))
    if kind == 2 and t.dim() == 2 and t.is_floating_point():
        idx = b.fresh(tuple(rng.randint(1, 5) for _ in range(rng.randint(1, 2))), "int64", "index", t.shape[0])
        return _Cand("torch.nn.functional.embedding({1}, {0})", [a, idx], b.lin(a))
    idx = b.fresh(tuple(rng.randint(1, 5) for _ in range(rng.randint(1, 2))), "int64", "index", t.shape[0])
    if kind == 3 or t.dim() < 2:
        return _Cand("{0}[{1}]", [a, idx], b.lin(a))
    idx = b.fresh((rng.randint(1, 5),), "int64", "index", t.shape[1])
    return _Cand("{0}[:, {1}]", [a, idx], b.lin(a))


def op_cat(b: _Builder):
    a = b.pick()
    if a is None:
        return None
    t = b.env[a]
    rng = b.rng
    dtype = b.random_dtype(_dtype_name(t))
    if t.dim() >= 1 and rng.random() < 0.6:
        d = rng.randrange(t.dim())
        shape = list(t.shape)
        shape[d] = rng.choice(SIZES)
        other = b.partner_exact_shape(tuple(shape), dtype, wild_dim=d)
        form = rng.choice(("torch.cat([{0}, {1}], dim=%d)", "torch.cat([{0}, {1}, {0}], %d)"))
        return _Cand(form % (d - t.dim() if rng.random() < 0.3 else d), [a, other], b.lin(a, other))
    other = b.partner_exact_shape(tuple(t.shape), dtype)
    d = rng.randint(-t.dim() - 1, t.dim())
    return _Cand(f"torch.stack([{{0}}, {{1}}], {d})", [a, other], b.lin(a, other))


OPS = (
    (op_smooth, 10),
    (op_exact_unary, 8),
    (op_discontinuous_unary, 6),
    (op_cast, 5),
    (op_binary, 12),
    (op_discontinuous_binary, 7),
    (op_pow, 2),
    (op_where, 4),
    (op_inplace, 8),
    (op_view, 16),
    (op_reduce, 12),
    (op_matmul, 5),
    (op_conv, 2),
    (op_index, 5),
    (op_cat, 5),
)


def generate(seed: int, index: int) -> Program:
    """Program `index` of `seed` (independent of every other program)."""
    b = _Builder(seed, index)
    rng = b.rng
    b.fresh(b.random_shape(), rng.choice(DTYPES))
    if rng.random() < 0.4:
        b.fresh(b.random_shape(), rng.choice(DTYPES))
    wanted = rng.randint(3, 12)
    functions, weights = zip(*OPS)
    for _ in range(40 * wanted):
        if len(b.program.stmts) >= wanted:
            break
        inputs_before = len(b.program.inputs)
        cand = rng.choices(functions, weights)[0](b)
        if cand is None or not b.accept(cand):
            for spec in b.program.inputs[inputs_before:]:
                b.env.pop(spec.name, None)
            del b.program.inputs[inputs_before:]
    for spec in b.program.inputs:
        b.note_precision(b.env[spec.name], 1)
    b.program.outputs = _sinks(b.program)
    return b.program


def _sinks(program: Program) -> list:
    """Statement results nothing later reads (the last four): returning
    them all keeps every statement alive in the compiled graph."""
    read = {a for s in program.stmts for a in s.args}
    sinks = [s.out for s in program.stmts if s.out not in read]
    if not sinks:
        sinks = [program.stmts[-1].out] if program.stmts else [program.inputs[0].name]
    return sinks[-4:]


def smaller_programs(program: Program):
    """Candidate reductions of `program`, smallest changes last: one output
    kept, or one statement deleted with its uses replaced by an operand of
    the same shape and dtype (else by a new input). Each is pruned of dead
    statements and unused inputs."""
    if len(program.outputs) > 1:
        for out in program.outputs:
            yield _pruned(dataclasses.replace(program, outputs=[out]))
    meta = {i.name: (tuple(i.shape), i.dtype) for i in program.inputs}
    meta.update({s.out: (tuple(s.shape), s.dtype) for s in program.stmts})
    for k in reversed(range(len(program.stmts))):
        stmt = program.stmts[k]
        same = [a for a in dict.fromkeys(stmt.args) if meta[a] == meta[stmt.out]]
        inputs = list(program.inputs)
        if not same:
            number = 1 + max(int(i.name[1:]) for i in program.inputs)
            kind = "exact" if stmt.dtype in FLOATS else ("bool" if stmt.dtype == "bool" else "int")
            inputs.append(Input(f"x{number}", tuple(stmt.shape), stmt.dtype, kind, 1000 + number))
            same = [inputs[-1].name]
        for replacement in same:
            rename = {stmt.out: replacement}
            stmts = [
                dataclasses.replace(s, args=[rename.get(a, a) for a in s.args]) for s in program.stmts if s is not stmt
            ]
            outputs = list(dict.fromkeys(rename.get(o, o) for o in program.outputs))
            yield _pruned(dataclasses.replace(program, inputs=inputs, stmts=stmts, outputs=outputs))


def _pruned(program: Program) -> Program:
    """`program` without statements nothing reads (in-place ones stay) and
    without unused inputs."""
    stmts = list(program.stmts)
    while True:
        read = {a for s in stmts for a in s.args} | set(program.outputs)
        kept = [s for s in stmts if s.inplace or s.out in read]
        if len(kept) == len(stmts):
            break
        stmts = kept
    read = {a for s in stmts for a in s.args} | set(program.outputs)
    inputs = [i for i in program.inputs if i.name in read]
    return dataclasses.replace(program, inputs=inputs, stmts=stmts)
