"""Numeric comparison of an output against its reference.

Rules: shapes must match; integers and bools compare exactly; floats pass
when |actual - expected| <= atol + rtol * |expected|, NaN matches NaN and
an infinity matches only the same infinity.

An output the header defines only in part (the padding of CTC's log_alpha)
is compared where its `defined` mask is true; the mask is data stored with
the expected output (see `Defined`), and mismatch counts are out of the
defined elements.
"""
import dataclasses

import numpy as np

from . import dtypes


@dataclasses.dataclass(frozen=True)
class Defined:
    """What a reference returns for an output whose elements are only partly
    defined by the header: the value, and a boolean mask of its shape, true
    where the value is defined. gen_data stores the mask with the expected
    output; run_test compares only there."""
    value: object
    mask: object


@dataclasses.dataclass
class Mismatch:
    reason: str
    max_abs: float = float("nan")
    max_rel: float = float("nan")
    count: int = 0
    total: int = 0
    first_index: tuple = ()
    first_actual: object = None
    first_expected: object = None

    def describe(self):
        if self.count == 0:
            return self.reason
        return (f"{self.reason}: {self.count}/{self.total} elements differ, max abs {self.max_abs:.3g}, "
                f"max rel {self.max_rel:.3g}, first at {list(self.first_index)}: "
                f"got {self.first_actual!r}, expected {self.first_expected!r}")


def compare(actual, expected, dtype, tol, defined=None):
    """None when `actual` matches, else a Mismatch. `tol` is (atol, rtol) or
    None for exact comparison. `defined` (a boolean array of the expected
    shape, or None for all) limits the comparison to the elements it marks."""
    if tuple(actual.shape) != tuple(expected.shape):
        return Mismatch(f"shape {list(actual.shape)} != expected {list(expected.shape)}")
    if defined is not None and tuple(np.shape(defined)) != tuple(expected.shape):
        raise ValueError(f"defined mask of shape {list(np.shape(defined))} for an output of shape {list(expected.shape)}")
    a = dtypes.to_values(actual, dtype)
    e = dtypes.to_values(expected, dtype)
    if a.size == 0:
        return None
    total = int(a.size) if defined is None else int(np.count_nonzero(defined))
    if tol is None or not (np.issubdtype(e.dtype, np.floating) or np.issubdtype(e.dtype, np.complexfloating)):
        bad = a != e
        if defined is not None:
            bad &= defined
        if not bad.any():
            return None
        with np.errstate(invalid="ignore", over="ignore"):
            d = np.abs(a.astype(np.float64) - e.astype(np.float64))
            rel = d / np.maximum(np.abs(e.astype(np.float64)), 1.0)
        reason = "values differ (exact comparison)" + ("" if defined is None else " (defined elements only)")
        return _mismatch(reason, a, e, bad, d, rel, total)
    atol, rtol = tol
    a64 = a.astype(np.complex128 if np.iscomplexobj(e) else np.float64)
    e64 = e.astype(a64.dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        nan_a, nan_e = np.isnan(a64), np.isnan(e64)
        inf_a, inf_e = np.isinf(a64), np.isinf(e64)
        diff = np.abs(a64 - e64)
        finite = ~(nan_a | nan_e | inf_a | inf_e)
        close = np.zeros(a.shape, dtype=bool)
        close[finite] = diff[finite] <= atol + rtol * np.abs(e64[finite])
        close |= nan_a & nan_e
        close |= inf_a & inf_e & (a64 == e64)
        mag = np.abs(e64)
        rel = np.where(finite & (mag > 0), diff / np.where(mag > 0, mag, 1.0), np.where(finite & (diff == 0), 0.0, np.inf))
    bad = ~close
    if defined is not None:
        bad &= defined
    if not bad.any():
        return None
    reason = f"values differ beyond atol={atol:g} rtol={rtol:g}" + ("" if defined is None else " (defined elements only)")
    return _mismatch(reason, a, e, bad, np.where(finite, diff, np.inf), rel, total)


def _mismatch(reason, a, e, bad, diff, rel, total):
    idx = tuple(int(i) for i in np.argwhere(bad)[0]) if a.ndim else ()
    return Mismatch(reason, float(np.max(diff[bad])), float(np.max(rel[bad])), int(bad.sum()), total, idx,
                    a[idx].item(), e[idx].item())
