"""Regression tests: each program once gave a wrong result or crashed the
user's process; each test is named after what it caught. Results are
compared with eager PyTorch, exactly for integers and bools."""

import pytest

torch = pytest.importorskip("torch")

from polyblocks.torch_polyblocks_compiler import polyblocks_jit_torch  # noqa: E402

STRICT = {"target": "cpu", "fallback": False}


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path / "cache"))
    torch._dynamo.reset()
    torch.manual_seed(0)


def same(fn, *inputs, options=STRICT):
    with torch.no_grad():
        expected = fn(*[x.clone() for x in inputs])
        got = polyblocks_jit_torch(compile_options=options)(fn)(*[x.clone() for x in inputs])
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if expected.is_floating_point():
        torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-6)
    else:
        assert torch.equal(got, expected), f"{got} != {expected}"


def test_bool_sum_reads_a_byte_per_bool():
    # pb-vectorize loaded vector<16xi1>, packed in bits: 6 instead of 70.
    same(lambda x: x.sum(), torch.rand(128) > 0.45)


def test_bool_row_sums_and_mask_mean():
    same(lambda x: x.sum(1), torch.rand(3, 100) > 0.3)
    same(lambda x: (x > 0.5).float().mean(), torch.rand(4096))


def test_bool_comparison_results_stored():
    same(lambda x, y: torch.logical_xor(x > 0.5, y), torch.rand(5, 67), torch.rand(67) > 0.5)


@pytest.mark.parametrize(
    "fn,shapes",
    [
        (torch.mm, [(4, 0), (0, 5)]),
        (torch.bmm, [(2, 4, 0), (2, 0, 5)]),
        (torch.matmul, [(3, 0), (0,)]),
    ],
    ids=["mm", "bmm", "mv"],
)
def test_product_with_an_inner_dimension_of_zero(fn, shapes):
    # A 4x0 argument made MLIR pass memref descriptors where the caller
    # passes pointers: SIGSEGV in the compiled function.
    same(fn, *[torch.rand(*shape) for shape in shapes])


def test_trace_of_an_empty_matrix():
    same(torch.trace, torch.rand(0, 0))


def test_torch_mlir_crash_is_an_error_not_a_dead_process():
    # torch-mlir's lowering of an int8 product with a Python number emits an
    # error and then dereferences a null value (SIGSEGV): it runs in a worker
    # process, so the caller gets an exception quoting torch-mlir instead.
    from torch_mlir import fx

    from polyblocks import engine, torch_lowering

    class ByteProduct(torch.nn.Module):
        def forward(self, a):
            return a * 3

    exported = torch.export.export(ByteProduct(), (torch.ones(4, dtype=torch.int8),))
    raw = fx.export_and_import(exported, output_type="raw", func_name="graph")
    with pytest.raises(engine.CompileError, match="torch-mlir crashed"):
        torch_lowering.lower(raw.operation.get_asm())
    # The next graph gets a fresh worker; through the front, our
    # decompositions avoid the crash and compute PyTorch's wrapped results.
    a = torch.randint(-100, 100, (5, 7), dtype=torch.int8)
    b = torch.randint(-100, 100, (7, 3), dtype=torch.int8)
    same(lambda x: x * 3, a)
    same(torch.mm, a, b)
    same(torch.bmm, a.to(torch.uint8)[None], b.to(torch.uint8)[None])


def test_isfinite_of_nan():
    # PyTorch's isfinite is (x == x) * (|x| != inf); torch-mlir folded x == x
    # to true, so NaN came out finite.
    same(torch.isfinite, torch.tensor([-torch.inf, torch.inf, torch.nan, -2.3, 0.0, 1.5]))
    same(lambda x: x == x, torch.tensor([1.0, torch.nan, 3.0]))


@pytest.mark.parametrize("mode", ["floor", "trunc"])
def test_integer_division_by_a_python_int_is_exact(mode):
    # torch-mlir divided in float64: 9223372036854775806 // 2**30 was off by one.
    big = torch.tensor([9223372036854775806, -9223372036854775807, 1073741824, -3])
    same(lambda a: torch.div(a, 1073741824, rounding_mode=mode), big)
    same(lambda a: torch.div(a, -7, rounding_mode=mode), big)
    same(lambda a: a // 1073741824, big)
    divisors = torch.tensor([1073741824, 3, -2, -2])
    same(lambda a, b: a // b, big, divisors)
    same(lambda a, b: torch.remainder(a, b), big, divisors)


def test_half_precision_instance_norm_rounds_its_statistics_like_pytorch():
    # PyTorch's kernel normalizes with statistics rounded to float16; its
    # decomposition (kept in float32) differed in half of the outputs.
    x = torch.rand(1, 4, 4096).to(torch.float16)
    w = torch.rand(4).to(torch.float16)

    def instance_norm(x, w, b):
        return torch.ops.aten.instance_norm(x, w, b, None, None, True, 0.0, 1e-5, False)

    with torch.no_grad():
        expected = instance_norm(x, w, w)
        got = polyblocks_jit_torch(compile_options=STRICT)(instance_norm)(x, w, w)
    assert got.dtype == torch.float16
    torch.testing.assert_close(got, expected, rtol=1e-3, atol=1e-7)


def test_bfloat16_conversions_need_no_runtime_library():
    # f32 -> bf16 truncation became a call to compiler-rt's __truncsfbf2,
    # which the compiled library could not resolve.
    x = torch.randn(3, 40).to(torch.bfloat16)
    with torch.no_grad():
        got = polyblocks_jit_torch(compile_options=STRICT)(lambda t: (t.float() * 3).to(torch.bfloat16))(x)
    assert torch.equal(got, (x.float() * 3).to(torch.bfloat16))


def test_nearest_upsampling_with_scales_past_the_input_clamps():
    # floor(i / 2.3) runs past a 2-row input: the compiled code read beyond
    # the buffer (values up to 1e25, different on each call); PyTorch clamps.
    def upsample(x):
        return torch._C._nn.upsample_nearest2d(x, output_size=[6, 10], scales_h=2.3, scales_w=4.7)

    same(upsample, torch.rand(2, 3, 2, 2))


def test_threshold_backward_promotes_like_pytorch():
    # An int64 gradient with a float32 input gives float32 in PyTorch; the
    # decomposition returned int64.
    same(
        lambda g, x: torch.ops.aten.threshold_backward(g, x, 0.5),
        torch.randint(0, 20, (4, 5)),
        torch.rand(4, 5),
    )
    same(lambda g, x: torch.ops.aten.threshold_backward(g, x, 0.5), torch.rand(4, 5), torch.rand(4, 5))


@pytest.mark.parametrize("out_channels,groups", [(4, 4), (8, 4), (4, 2), (10, 1)])
def test_padded_strided_dilated_grouped_convolution(out_channels, groups):
    # Fusing the padding into the convolution left a disjunctive guard that
    # code generation refused ("the expression operator Ge").
    conv = torch.nn.Conv2d(4, out_channels, 3, padding=3, stride=2, dilation=3, bias=False, groups=groups).eval()
    x = torch.rand(5, 4, 10, 20)
    with torch.no_grad():
        expected = conv(x)
        got = polyblocks_jit_torch(compile_options=STRICT)(conv)(x)
    torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-5)


# On the GPU targets the runtime deallocation's ownership flag would come back
# from the GPU to the host: refused there with an error naming it.
@pytest.mark.cpu_only
def test_nll_loss_backward_with_runtime_deallocation():
    # Bufferization's @dealloc_helper (dynamic memrefs) stayed a func.func
    # under the bare-pointer convention: the LLVM module did not verify.
    def backward(g, x, t, w):
        return torch.ops.aten.nll_loss_backward(g, x, target=t, weight=None, reduction=0, ignore_index=10, total_weight=w)

    same(backward, torch.rand(1), torch.rand(3), torch.tensor([2, 3, 0]), torch.tensor(3.0))


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.float64])
def test_floor_division_by_a_broadcast_divisor_is_exact(dtype):
    # The vectorizer multiplied by the reciprocal of a loop-invariant
    # divisor: -97.5 * (1/1.625) floored to -61 instead of -60 (fuzzer).
    x = (torch.arange(-1600, 1601) / 16).to(dtype)
    y = torch.tensor([1.625], dtype=dtype)
    same(lambda a, b: torch.floor_divide(a, b), x, y)
    same(lambda a, b: torch.fmod(a, b), x, y)
    same(lambda a, b: torch.div(a, b, rounding_mode="trunc"), x, y)


def test_a_hanging_torch_mlir_lowering_is_stopped(monkeypatch):
    # torch-mlir's lowering looped forever on a 0-d softmax (now decomposed);
    # whatever else makes it hang, the call ends with an error.
    from polyblocks import torch_lowering

    monkeypatch.setenv("POLYBLOCKS_LOWERING_TIMEOUT", "0")  # polls once: no lowering answers at once
    with pytest.raises(Exception, match="did not finish lowering"):
        with torch.no_grad():
            polyblocks_jit_torch(compile_options=STRICT)(lambda x: torch.tanh(x) @ x.T)(torch.rand(64, 64))
    monkeypatch.setenv("POLYBLOCKS_LOWERING_TIMEOUT", "300")
    assert torch_lowering._worker is None  # the stopped worker is replaced on the next graph


def test_zero_dimensional_softmax_variance_and_roll():
    # Found by the fuzzer: torch-mlir never finished lowering a 0-d softmax;
    # var(dim=0) of a 0-d tensor failed in our decomposition; rolls by a
    # multiple of the size (or more) failed to compile or rolled wrongly.
    same(lambda x: torch.softmax(x, 0) + torch.log_softmax(x, 0), torch.tensor(1.25))
    same(lambda x: x.var(dim=0, keepdim=True, correction=0), torch.tensor(1.25))
    for shift in (0, 2, 5, 6, -6):
        same(lambda x, s=shift: torch.roll(x, s, 0), torch.arange(5.0))
    same(lambda x: torch.roll(x, (1, -7), (0, 1)), torch.rand(3, 4))
    same(lambda x: torch.roll(x, 3), torch.rand(3, 4))


def test_reciprocal_of_zero_is_infinity_not_an_abort():
    # torch-mlir's reciprocal asserts a nonzero element: the compiled code
    # called abort() and killed the process.
    same(torch.reciprocal, torch.tensor([1.0, 0.0, -0.0, 2.0, float("inf")]))
    same(torch.reciprocal, torch.tensor([1, 0, 2]))


def test_a_failed_run_time_check_raises_instead_of_aborting(tmp_path):
    # torch-mlir guards some lowerings with cf.assert; MLIR lowers a failed
    # one to abort(), killing the caller. Compiled code now records the
    # check and the runtime raises its message after the call.
    import numpy as np

    from polyblocks import compile_mlir
    from polyblocks.runtime import CheckFailed

    text = """
    func.func @checked(%x: tensor<4xf32>) -> tensor<4xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<4xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                           iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
      ^bb0(%a: f32, %o: f32):
        %ok = arith.cmpf one, %a, %zero : f32
        cf.assert %ok, "unimplemented: tensor with zero element"
        %y = arith.mulf %a, %a : f32
        linalg.yield %y : f32
      } -> tensor<4xf32>
      return %r : tensor<4xf32>
    }
    """
    checked = compile_mlir(text, tmp_path)["checked"]
    np.testing.assert_array_equal(checked(np.array([1, 2, 3, 4], np.float32)), [1, 4, 9, 16])
    with pytest.raises(CheckFailed, match="tensor with zero element"):
        checked(np.array([1, 0, 3, 4], np.float32))
    np.testing.assert_array_equal(checked(np.array([1, 2, 3, 5], np.float32)), [1, 4, 9, 25])


def test_gathers_checked_only_where_indices_may_leave_the_tensor():
    # torch.gather's index checks (cf.assert) on indices clamped in the
    # program are proven and dropped (pb-prove-asserts: local laplacian's
    # level lookups); indices the caller passes stay checked and raise.
    from polyblocks.runtime import CheckFailed

    def levels(table, x):
        li = (x * 7).to(torch.int64).clamp(0, 6)
        frac = x * 7 - li
        return (1 - frac) * torch.gather(table, 0, li) + frac * torch.gather(table, 0, li + 1)

    table = torch.randn(8, 37, 29)
    same(levels, table, torch.rand(1, 37, 29))
    same(levels, table, torch.rand(1, 37, 29) * 3 - 1)

    def lookup(table, index):
        return torch.gather(table, 0, index) * 2

    compiled = polyblocks_jit_torch(compile_options=STRICT)(lookup)
    index = torch.randint(0, 8, (1, 37, 29))
    torch.testing.assert_close(compiled(table, index), lookup(table, index))
    index[0, 5, 7] = 8
    with pytest.raises(CheckFailed, match="index must be smaller than dim size"):
        compiled(table, index)


def test_bool_clamp_and_sort_are_unsigned():
    # torch-mlir compared bools as signed 1-bit integers (true is -1):
    # clamp's min and max were swapped and True sorted first (fuzzer).
    x = torch.tensor([False, False, True, True])
    y = torch.tensor([False, True, False, True])
    same(lambda a, b: torch.clamp(a, min=b), x, y)
    same(lambda a, b: torch.clamp(a, max=b), x, y)
    same(lambda a, b: torch.sort(torch.stack([a, b]), dim=0, stable=True).values, x, y)


def test_class_token_concatenated_before_patch_rows():
    # ViT's input: pb-fuse tiled the concatenation's rows while ISL gave the
    # token's copy (needed by the first row tile only) a loop nest of its
    # own, writing local buffers no tile read: row 0 came out wrong.
    token = torch.randn(1, 1, 768)

    def embed(patches):
        x = patches.reshape(1, 768, 196).permute(0, 2, 1)
        return torch.cat([token.expand(1, -1, -1), x], dim=1) * 2

    same(embed, torch.randn(1, 768, 14, 14))


def test_squeeze_excitation_after_a_strided_depthwise_convolution():
    # pb-fuse cuts the pool out of a group and fuses the rest; pb-vectorize
    # gathers the stride-2 input rows and reads the pooled N x C x 1 x 1
    # array through a view without its unit dimensions.
    conv = torch.nn.Conv2d(24, 24, 3, stride=2, padding=1, groups=24)
    fc1 = torch.nn.Conv2d(24, 8, 1)
    fc2 = torch.nn.Conv2d(8, 24, 1)

    def block(x):
        y = torch.nn.functional.silu(conv(torch.nn.functional.silu(x)))
        s = torch.sigmoid(fc2(torch.nn.functional.silu(fc1(y.mean((2, 3), keepdim=True)))))
        return y * s

    same(block, torch.randn(2, 24, 37, 37))


@pytest.mark.parametrize("channels,kernel,stride", [(20, 3, 1), (36, 5, 2), (48, 3, 2)])
def test_inverted_residual_blocks_run_channels_last(channels, kernel, stride):
    # A depthwise convolution between dense ones is stored channels-last
    # with them (pb-channels-last): its weights read from a [KH, KW, C]
    # copy, its taps kept in registers over pixels x channels
    # (pb-accumulate-tile), channel counts that fill no whole vector, odd
    # maps, strides and a squeeze-excitation pool on the same layout. (24
    # input channels: more than pb-unroll-filters turns into elementwise
    # sums, so the expansion stays a convolution and starts the region.)
    expand = torch.nn.Conv2d(24, channels, 1, bias=False)
    depthwise = torch.nn.Conv2d(channels, channels, kernel, stride=stride, padding=kernel // 2, groups=channels, bias=False)
    squeeze, excite = torch.nn.Conv2d(channels, 4, 1), torch.nn.Conv2d(4, channels, 1)
    project = torch.nn.Conv2d(channels, 24, 1, bias=False)
    norms = [torch.nn.BatchNorm2d(c).eval() for c in (channels, channels, 24)]
    for norm in norms:
        norm.running_mean.uniform_(-0.5, 0.5)
        norm.running_var.uniform_(0.5, 2.0)
    silu = torch.nn.functional.silu

    def block(x):
        y = silu(norms[0](expand(x)))
        y = silu(norms[1](depthwise(y)))
        y = y * torch.sigmoid(excite(silu(squeeze(y.mean((2, 3), keepdim=True)))))
        y = norms[2](project(y))
        return y + x if stride == 1 else y

    same(block, torch.randn(2, 24, 13, 13))


def same_all(fn, *inputs):
    """`same` for a function returning a tuple."""
    with torch.no_grad():
        expected = fn(*[x.clone() for x in inputs])
        got = polyblocks_jit_torch(compile_options=STRICT)(fn)(*[x.clone() for x in inputs])
    for e, g in zip(expected, got, strict=True):
        assert g.dtype == e.dtype and g.shape == e.shape
        if e.dtype in (torch.float16, torch.bfloat16):
            # Each op rounds to 16 bits as in eager, but our float32 math
            # functions are not eager's: the last bit may differ.
            torch.testing.assert_close(g, e, equal_nan=True)
        elif e.is_floating_point():
            torch.testing.assert_close(g, e, rtol=1e-5, atol=1e-6, equal_nan=True)
        else:
            assert torch.equal(g, e), f"{g} != {e}"


def test_comparisons_of_mixed_types_compare_promoted_values():
    # torch-mlir chose an unsigned predicate from a bool or uint8 first
    # operand (a negative int64 compared above True: fuzz program 0:3295)
    # and converted uint8 to float as if signed.
    b = torch.rand(3, 16) > 0.5
    i = torch.randint(-20, 21, (3, 16))
    u = torch.randint(0, 256, (3, 16), dtype=torch.uint8)
    f = torch.randn(3, 16) * 100
    same_all(lambda b, i, u, f: (b < i, b >= i, u > i, u <= f, u == f, i > u, b < -1, u < 0.5), b, i, u, f)


def test_uint8_operands_are_widened_unsigned():
    # Products, max/min, divisions and sums of uint8 with wider types
    # sign-extended 200 to -56.
    u = torch.randint(0, 256, (4, 9), dtype=torch.uint8)
    i = torch.randint(-3, 3, (4, 9), dtype=torch.int32)
    f = torch.randn(4, 9)
    same_all(
        lambda u, i, f: (u * i, torch.maximum(u, i), torch.minimum(f, u), u / i.abs().add(1), u.sum(), u.abs(), u * 0.5, u & i),
        u, i, f,
    )


def test_bitwise_and_fmod_by_a_number():
    # torch-mlir lowers neither aten.bitwise_xor.Scalar nor an integer
    # fmod by a number (compile errors in 100 of 3000 fuzzed programs).
    x = torch.randint(-50, 50, (5, 7))
    same_all(lambda x: (x ^ 5, x | 3, x & -2, torch.fmod(x, -3), torch.remainder(x, 4)), x)


def test_float_fmod_is_exact():
    # torch-mlir's a - trunc(a / b) * b rounds the quotient: in float16
    # almost every result with a quotient above ~100 was wrong (fuzz 0:5543).
    a = torch.randn(1000) * 1000
    b = torch.rand(1000) * 3 + 0.1
    a[:4] = torch.tensor([-4.0, -0.0, 5.0, float("inf")])
    for dtype in (torch.float16, torch.float32):
        same_all(lambda a, b: (torch.fmod(a, b), torch.fmod(a, 1.5)), a.to(dtype), b.to(dtype))


def test_sum_of_a_0d_tensor_broadcast_by_its_consumer():
    # Elementwise fusion ran the 0-d sum's read-modify-write of its init
    # once per element of the broadcasting product: [0, 2 v^2] for [0, 0]
    # (fuzz program 0:8546).
    same(lambda x, w: (x / 2.5).var(correction=0) * w, torch.tensor(0.7), torch.tensor([1.0, 2.0, 3.0]))


def test_where_with_one_value_as_both_branches():
    # torch-mlir folded where(c, x, x) to the 0-d x: an invalid cast, or a
    # lowering that never finished (fuzz program 0:5615, a TIMEOUT).
    x = torch.randint(-20, 21, (4,))
    c = torch.tensor([True, False])
    idx = torch.randint(0, 2, (2, 8))[..., ::2]
    same(lambda x, c, idx: torch.where(c, x.max(0).indices, x.max(0).indices)[idx] ** 2, x, c, idx)


def test_product_of_a_masked_operand():
    # `tril(x) @ w`: the fused mask reads the reduction loop's index; the
    # register tile's packing text kept naming the erased loop (pb-compile
    # crashed: fuzz program 0:8967).
    x = torch.randn(5, 5, 3)
    w = torch.randn(1, 3, 17)
    same(lambda x, w: torch.tril(x, 1) @ w, x, w)


def test_bfloat16_arithmetic_needs_no_runtime_library():
    # bf16 fmod/exp rounded through compiler-rt's __truncsfbf2, which the
    # generated library cannot import (it failed to load).
    a = (torch.randn(256) * 10).to(torch.bfloat16)
    b = (torch.rand(256) * 3 + 0.1).to(torch.bfloat16)
    same_all(lambda a, b: (torch.fmod(a, b), a * b, torch.exp(a / 10)), a, b)
    exact = polyblocks_jit_torch(compile_options=STRICT)(lambda a, b: torch.fmod(a, b))(a, b)
    assert torch.equal(exact, torch.fmod(a, b))


def test_uint8_division_sorting_and_any():
    # torch-mlir divides, sorts and takes remainders of uint8 as signed
    # bytes (200 // 3 computed as -56 // 3) and does not lower `any` of uint8.
    u = torch.randint(0, 256, (4, 9), dtype=torch.uint8)
    same_all(lambda u: (u // 3, u % 7, u // -1, u.sort(1).values, u.topk(3, 1).values, u.any(1), u.all(0), (u > 100) ** 2), u)


def test_bfloat16_sorts_and_sums_in_float32():
    # The sort's loops carried bf16 values (compiler-rt calls the library
    # cannot import); a bf16 accumulator rounded every partial sum.
    x = (torch.randn(8, 33) * 4).to(torch.bfloat16)
    same_all(lambda x: (x.sort(1).values, x.topk(4, 1).values), x)
    summed = polyblocks_jit_torch(compile_options=STRICT)(lambda x: x.sum(0))(x)
    assert torch.equal(summed, x.sum(0))


def test_half_precision_cumulative_sums_accumulate_in_float32():
    # PyTorch accumulates a float16/bfloat16 cumsum/cumprod in float32 and
    # rounds each result once; a float16 accumulator was one unit off in
    # places, and cos of such a running sum near 60 off by 0.03 (fuzz 2:505).
    # The sums are compared exactly: both accumulate in order in float32.
    torch.manual_seed(0)
    for dtype in (torch.float16, torch.bfloat16):
        x = (torch.rand(31, 16, dtype=torch.float64) * 4 - 2).to(dtype)
        with torch.no_grad():
            got = polyblocks_jit_torch(compile_options=STRICT)(lambda t: (t.cumsum(0), torch.cos(t.cumsum(0))))(x)
        assert torch.equal(got[0], x.cumsum(0))
        torch.testing.assert_close(got[1], torch.cos(x.cumsum(0)))
    u = torch.randint(0, 256, (40,), dtype=torch.uint8)
    same_all(lambda t: (t.cumsum(0), t[::2].cumsum(0) * 2), u)


def test_half_precision_conversions_round_between_fused_ops():
    # int64 -> float16 rounds 2197 to 2196 before the remainder; the llvm
    # stage's float32 emulation let folding drop that rounding inside the
    # fused kernel: remainder(2197, -2.125) gave -0.25, PyTorch -1.25
    # (fuzz 3:6893). Each op's result is rounded to 16 bits, as in eager.
    cubes = torch.tensor([2197, 2195, -2197, 4097, 60001], dtype=torch.int64)
    for dtype in (torch.float16, torch.bfloat16):
        divisor = torch.tensor([-2.125, 3.5, 1.75, -1.5, 2.25], dtype=dtype)
        with torch.no_grad():
            got = polyblocks_jit_torch(compile_options=STRICT)(lambda a, b: torch.remainder(a, b) * b + b)(cubes, divisor)
        assert torch.equal(got, torch.remainder(cubes, divisor) * divisor + divisor), dtype


def test_half_precision_variance_accumulates_in_float32():
    # PyTorch computes var/std of float16/bfloat16 in float32 and rounds
    # once: squared deviations of values near 800 summed in float16
    # overflowed to inf (fuzz 3:134).
    torch.manual_seed(0)
    for dtype in (torch.float16, torch.bfloat16):
        x = (torch.rand(31, 7, dtype=torch.float64) * 800).to(dtype)
        with torch.no_grad():
            got = polyblocks_jit_torch(compile_options=STRICT)(
                lambda t: (t.var(dim=(0, 1), keepdim=True), torch.var_mean(t, dim=0), t.std(dim=1))
            )(x)
        want = (x.var(dim=(0, 1), keepdim=True), torch.var_mean(x, dim=0), x.std(dim=1))
        assert torch.isfinite(got[0]).all(), dtype
        torch.testing.assert_close(got[0], want[0])
        torch.testing.assert_close(got[1][0], want[1][0])
        torch.testing.assert_close(got[1][1], want[1][1])
        torch.testing.assert_close(got[2], want[2])



def test_clamp_by_tensor_bounds_of_other_dtypes():
    # torch-mlir compared an int64 input with float bounds (arith.cmpf on
    # i64) and int32 with int64 bounds: compile errors in 100+ fuzzed
    # programs per 10,000. The operands are promoted to the result dtype
    # first, as PyTorch does.
    x = torch.tensor([1, 5, -3, 7], dtype=torch.int64)
    same_all(lambda t, lo: (torch.clamp(t, min=lo), torch.clamp(t.to(torch.int32), min=lo.round().long())),
             x, torch.tensor([0.5, 2.5, -1.0, 8.25]))
    same_all(lambda t, lo, hi: (torch.clamp(t.half(), min=lo, max=hi), torch.clamp(t.to(torch.uint8), max=hi)),
             x.abs(), torch.tensor([0.0, 2.0, -1.0, 1.0]), torch.tensor(3.0, dtype=torch.float64))


def test_reductions_of_0d_tensors_along_a_dim():
    # PyTorch reduces a 0-d tensor along dim 0 or -1; torch-mlir rejected
    # max/min.dim, prod.dim_int, all/any.dim, cumsum/cumprod, argmax/argmin,
    # amax/amin and logsumexp of one (about 230 fuzz COMPILE_ERRORs per
    # 10,000 programs). They run on the value as a 1-element vector.
    x = torch.tensor(2.5)
    same_all(lambda t: (*torch.max(t, 0), *torch.min(t, -1, keepdim=True), t.prod(0), (t > 1).all(0),
                        (t > 3).any(-1, keepdim=True), (t > 1).cumsum(0), t.cumprod(0), t.argmax(0),
                        t.argmin(0, keepdim=True), t.amax(0), torch.logsumexp(t, 0)), x)


def test_in_place_ops_on_diagonals():
    # An in-place op on x.diagonal(...) becomes aten.diagonal_scatter,
    # which torch-mlir does not lower (fuzz COMPILE_ERRORs "failed to
    # legalize torch.constant.int"). Offsets of both signs, swapped and
    # negative dims, a batched diagonal.
    x = torch.arange(24, dtype=torch.float32).reshape(8, 3)
    y = torch.arange(120, dtype=torch.float32).reshape(2, 5, 4, 3)

    def diagonals(a, b):
        a, b = a * 1, b * 1
        a.diagonal(0, 0, 1).neg_()
        a.diagonal(-1, 1, 0).mul_(3)
        a.diagonal(2, 0, 1).masked_fill_(torch.tensor([True]), -2)
        b.diagonal(1, 1, -1).add_(100)
        return a, b, torch.diagonal_scatter(b, b.diagonal(-2, 3, 0) * 2, -2, 3, 0)

    same_all(diagonals, x, y)


def test_where_of_equal_branches_broadcast_by_the_condition():
    # where(c, x, x.clone()) and where(c, x.squeeze(), x): torch-mlir folds
    # the branches as one value and returned it unbroadcast to c's larger
    # shape (fuzz 3:3445, 3:6848: "type of return operand doesn't match").
    x = torch.arange(12, dtype=torch.int64).reshape(1, 2, 6)
    c = torch.tensor([True, False, True]).reshape(3, 1, 1, 1)
    same_all(lambda c, x: (torch.where(c, x, x.clone()), torch.where(c[:2, 0], x[0, :1].squeeze(), x[0, 0])), c, x)


def test_where_of_one_value_is_contiguous_so_updates_through_its_reshape_stay():
    # where(c, v, v) of a permuted view became a clone that kept the view's
    # strides: `reshape(-1)` then copied instead of viewing, and the
    # in-place update through it did not reach the product (fuzz 5:164).
    def f(x, c, s, y):
        p = torch.movedim(x.transpose(0, 2), 2, 1)
        v = torch.where(c, p, p)
        v.reshape(-1).select(0, 17).copy_(s)
        return torch.bmm(v, y)

    x = (torch.arange(30, dtype=torch.float64).reshape(2, 3, 5) - 15) / 8
    c = torch.arange(30).reshape(5, 2, 3) % 3 == 0
    same(f, x, c, torch.tensor(-2.5, dtype=torch.float64), torch.linspace(-1, 1, 5 * 3 * 31, dtype=torch.float64).reshape(5, 3, 31))


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int8, torch.int16])
def test_floats_to_narrow_integers_as_pytorch_converts_them(dtype):
    # torch-mlir converted floats to uint8 with a signed conversion to i8:
    # vectorized, 200.0 became 127 (an image written back as bytes). As
    # PyTorch on x86: through int32, then the low bits (300.0 -> 44).
    x = torch.linspace(-300.0, 300.0, 4099)
    same(lambda v: (v * 1.0).to(dtype), x)
    same(lambda v: torch.clamp(torch.round(v), 0, 255).to(dtype), x)
