"""Helpers shared by the fronts: comparing compiled results with eager ones."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class ValidationReport:
    max_abs_error: float
    max_rel_error: float
    ok: bool

    def __bool__(self):
        return self.ok


def _arrays(value):
    if isinstance(value, (tuple, list)):
        out = []
        for item in value:
            out.extend(_arrays(item))
        return out
    if isinstance(value, dict):  # by key: frameworks may reorder dicts
        return _arrays([value[k] for k in sorted(value)])
    if hasattr(value, "detach"):  # torch
        return [value.detach().cpu().numpy()]
    if hasattr(value, "numpy") and not isinstance(value, np.ndarray):  # tf / jax
        return [np.asarray(value.numpy())]
    return [np.asarray(value)]


def validate_outputs(compiled, reference, rtol: float = 1e-4, atol: float = 1e-5, verbose: bool = True) -> ValidationReport:
    """Compares a compiled result with the framework's eager result.

    Both may be tensors (torch, tf, jax), numpy arrays, or nested tuples,
    lists and dicts of them. Reports the largest absolute and relative error
    and whether every element is within `atol + rtol * |reference|`.
    """
    got, want = _arrays(compiled), _arrays(reference)
    if len(got) != len(want):
        raise ValueError(f"compiled result has {len(got)} arrays, reference has {len(want)}")
    max_abs = max_rel = 0.0
    ok = True
    for index, (g, w) in enumerate(zip(got, want)):
        if g.shape != w.shape:
            raise ValueError(f"output {index}: shape {g.shape} differs from the reference's {w.shape}")
        g64, w64 = g.astype(np.float64), w.astype(np.float64)
        # Equal values (infinities of one sign included) and NaN where the
        # reference has NaN are no error; inf - inf would be NaN.
        nan_g, nan_w = np.isnan(g64), np.isnan(w64)
        with np.errstate(invalid="ignore"):
            diff = np.where((g64 == w64) | (nan_g & nan_w), 0.0, np.abs(g64 - w64))
        if diff.size:
            with np.errstate(invalid="ignore"):  # inf / inf where both are infinite
                max_abs = max(max_abs, float(np.nanmax(diff)))
                max_rel = max(max_rel, float(np.nanmax(diff / np.maximum(np.abs(w64), 1e-30))))
        with np.errstate(invalid="ignore"):
            within = diff <= atol + rtol * np.abs(np.where(np.isfinite(w64), w64, 0.0))
        ok &= bool(np.all(within) and np.array_equal(nan_g, nan_w))
    report = ValidationReport(max_abs, max_rel, ok)
    if verbose:
        verdict = "match" if ok else "MISMATCH"
        print(f"polyblocks: outputs {verdict}: max abs error {max_abs:.3e}, max rel error {max_rel:.3e}")
    return report
