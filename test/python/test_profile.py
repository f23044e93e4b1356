"""`compile_options={"profile": True}`: per-kernel times of compiled code,
named by the user's source lines."""

import pathlib

import pytest

torch = pytest.importorskip("torch")

from polyblocks import polyblocks_jit_torch, profile  # noqa: E402


def test_profile_names_the_source_lines_of_each_kernel(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path))

    @polyblocks_jit_torch(compile_options={"profile": True})
    def block(x, w):
        y = torch.relu(x @ w)  # PROFILED-MATMUL
        return torch.softmax(y, dim=-1)  # PROFILED-SOFTMAX

    x, w = torch.randn(64, 48), torch.randn(48, 32)
    with torch.no_grad():
        profile.reset()
        for _ in range(3):
            out = block(x, w)
    torch.testing.assert_close(out, torch.softmax(torch.relu(x @ w), dim=-1))

    text = profile.report()
    this = pathlib.Path(__file__).name
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("polyblocks profile: graph"))
    assert " 3 calls" in header, text
    # The kernels are named by this file's lines (the source text shown).
    assert any(this in line and "PROFILED-MATMUL" in line for line in lines), text
    assert any(this in line and "PROFILED-SOFTMAX" in line for line in lines), text
    # Shares are of the function's time: positive, at most the whole.
    shares = [float(line.split("%")[0]) for line in lines[2:] if line.strip().endswith("]")]
    # The operators: the product, and the softmax's exponential.
    assert any("PROFILED-MATMUL" in line and "matmul" in line.rpartition("[")[2] for line in lines), text
    assert any("PROFILED-SOFTMAX" in line and "exp" in line.rpartition("[")[2] for line in lines), text
    assert shares and all(0 <= s <= 100 for s in shares) and 0 < sum(shares) <= 100.5, text


def test_profile_is_off_by_default(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("POLYBLOCKS_PROFILE", raising=False)

    @polyblocks_jit_torch
    def double(x):
        return x * 2  # NOT-PROFILED

    with torch.no_grad():
        double(torch.randn(16))
    assert "NOT-PROFILED" not in profile.report()
