"""What users of a Python library expect: messages through `logging`
(progress of long compiles naming the program and the stage), and a disk
cache they can size, clear and share."""

import fcntl
import logging
import os
import time

import numpy as np
import pytest

import polyblocks
from polyblocks import cache, log

ADD = """
func.func @add(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.add ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
"""


def test_compile_progress_and_details_go_through_logging(tmp_path, monkeypatch, caplog):
    # Every compile counts as long: its stages are reported as they start.
    monkeypatch.setattr(log, "PROGRESS_AFTER_S", 0.0)
    with caplog.at_level(logging.DEBUG, logger="polyblocks"):
        library = polyblocks.compile_mlir(ADD, tmp_path, "add")
    a, b = np.arange(64, dtype=np.float32), np.ones(64, dtype=np.float32)
    np.testing.assert_array_equal(library["add"](a, b), a + b)
    records = [r for r in caplog.records if r.name.startswith("polyblocks")]
    progress = [r.getMessage() for r in records if r.levelno == logging.INFO and "stage" in r.getMessage()]
    stages = [m.split("stage ")[1].split()[0] for m in progress]
    assert stages[-1] == "codegen" and len(stages) >= 3, progress
    assert all(m.startswith("compiling add.mlir: stage ") for m in progress), progress
    assert any(r.levelno == logging.DEBUG and r.getMessage().startswith("compiled add.mlir in") for r in records)


def test_quick_compiles_say_nothing_at_the_default_level(tmp_path, caplog):
    with caplog.at_level(logging.INFO, logger="polyblocks"):
        polyblocks.compile_mlir(ADD, tmp_path, "add")
    assert not [r for r in caplog.records if r.name.startswith("polyblocks")]


def fake_build(size):
    return lambda folder: (folder / "libmodule.so").write_bytes(b"x" * size)


def test_cache_evicts_least_recently_used_entries_past_its_size(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("POLYBLOCKS_CACHE_SIZE", "3K")
    assert cache.size_limit() == 3072
    for name in "abc":
        cache.lookup_or_build(name * 32, fake_build(1000))
        time.sleep(0.02)
    # A hit makes "a" the most recently used: "b" goes first.
    assert cache.lookup_or_build("a" * 32, fake_build(1000))[1]
    time.sleep(0.02)
    folder, hit = cache.lookup_or_build("d" * 32, fake_build(1000))
    assert not hit and folder.exists()
    assert sorted(e.name[0] for e in cache._entries()) == ["a", "c", "d"]
    assert cache.size() == 3000


def test_cache_clear_skips_entries_another_process_holds(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("POLYBLOCKS_CACHE_SIZE", "0")
    for name in "ab":
        cache.lookup_or_build(name * 32, fake_build(10))
    # A lock held through another open file (as another process's would be).
    with open(tmp_path / ("a" * 32 + ".lock"), "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert cache.clear() == 1
    assert [e.name for e in cache._entries()] == ["a" * 32]
    assert cache.clear() == 1 and cache.size() == 0
    assert not [p for p in os.listdir(tmp_path) if not p.endswith(".lock")]


def test_bad_cache_size_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("POLYBLOCKS_CACHE_SIZE", "lots")
    with pytest.raises(ValueError, match="POLYBLOCKS_CACHE_SIZE='lots'"):
        cache.size_limit()


def test_html_report_draws_the_fused_groups_over_the_source_graph(tmp_path, monkeypatch):
    import re

    import torch

    from polyblocks import html_report, polyblocks_jit_torch
    from polyblocks.options import OptionError

    monkeypatch.setenv("POLYBLOCKS_CACHE_DIR", str(tmp_path / "cache"))
    page = tmp_path / "report.html"

    def blur(x):
        y = (x[:, :, :-2] + x[:, :, 1:-1] + x[:, :, 2:]) / 3
        return torch.relu((y[:, :-2] + y[:, 1:-1] + y[:, 2:]) / 3 - 0.1)

    compiled = polyblocks_jit_torch(blur, compile_options={"report": str(page)})
    x = torch.rand(3, 300, 301)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), blur(x))
    text = page.read_text()
    assert text.startswith("<!doctype html>") and "<svg" in text
    # One box per source operator (slices, adds, divisions, relu...) and
    # per kernel; lines join operators to the kernels of their line.
    graph = next(iter(html_report._pages.values()))[-1]
    assert len(graph.operators) >= 10 and graph.kernels
    assert text.count("<rect") >= len(graph.operators) + len(graph.kernels)
    assert "<line " in text
    fused = [k for k in graph.kernels if len(html_report._lines(k["sources"])) >= 2]
    assert fused, "the blur's two lines end in one kernel"
    # The model's decisions, next to the source line they are about.
    assert "pb-fuse" in text and "y = (x[:, :, :-2]" in text
    # At exit (or write_all), the kernels' shares of the run time.
    html_report.write_all()
    assert re.search(r"\d+\.\d%</td>", page.read_text())
    with pytest.raises(OptionError, match="report must be True, False or the name of an .html file"):
        polyblocks_jit_torch(blur, compile_options={"report": "report.txt"})
