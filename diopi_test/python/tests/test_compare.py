"""Comparison rules and tolerances."""
import numpy as np
import pytest

from conformance import compare, dtypes, tolerances


def cmp(a, e, dtype="float32", tol=(1e-5, 1e-5)):
    return compare.compare(np.asarray(a, dtype=dtypes.storage(dtype)), np.asarray(e, dtype=dtypes.storage(dtype)), dtype, tol)


def test_equal_values_pass():
    assert cmp([1.0, 2.0], [1.0, 2.0]) is None


def test_nan_matches_nan_only():
    assert cmp([np.nan, 1.0], [np.nan, 1.0]) is None
    assert cmp([np.nan], [1.0]) is not None
    assert cmp([1.0], [np.nan]) is not None


def test_infinities_match_by_sign():
    assert cmp([np.inf, -np.inf], [np.inf, -np.inf]) is None
    mm = cmp([np.inf], [-np.inf])
    assert mm is not None and mm.count == 1
    assert cmp([1e30], [np.inf]) is not None


def test_tolerance_boundary():
    atol, rtol = 1e-3, 1e-2
    assert cmp([1.0 + 0.011 - 1e-6], [1.0], "float64", (atol, rtol)) is None
    assert cmp([1.0 + 0.011 + 1e-6], [1.0], "float64", (atol, rtol)) is not None


def test_integers_and_bools_are_exact_even_with_a_tolerance():
    assert cmp([3], [3], "int64") is None
    assert cmp([3], [4], "int64", (10, 10)) is not None
    assert cmp([True], [False], "bool") is not None


def test_mismatch_reports_position_and_errors():
    mm = cmp([[1.0, 2.0], [3.0, 5.0]], [[1.0, 2.0], [3.0, 4.0]])
    assert mm.first_index == (1, 1) and mm.count == 1 and mm.total == 4
    assert mm.max_abs == pytest.approx(1.0) and mm.max_rel == pytest.approx(0.25)
    assert "1/4 elements differ" in mm.describe()


def test_shape_mismatch_is_reported():
    mm = cmp([1.0, 2.0], [[1.0, 2.0]])
    assert mm is not None and "shape" in mm.reason


def test_zero_size_outputs_compare_equal():
    assert cmp(np.zeros((0, 3)), np.zeros((0, 3))) is None


def test_bfloat16_round_trip_and_rounding():
    x = np.array([1.0, -2.5, 3.140625, np.inf, -0.0], dtype=np.float32)
    assert np.array_equal(dtypes.bf16_to_f32(dtypes.f32_to_bf16(x)), x)
    # 1 + 2^-8 is halfway between two bfloat16 values: ties go to even (1.0)
    assert dtypes.bf16_to_f32(dtypes.f32_to_bf16(np.float32(1 + 2 ** -8))) == 1.0
    assert np.isnan(dtypes.bf16_to_f32(dtypes.f32_to_bf16(np.float32(np.nan))))


def test_bfloat16_outputs_compare_as_numbers():
    a = dtypes.f32_to_bf16([1.0, 2.0])
    e = dtypes.f32_to_bf16([1.0, 2.015625])  # one bfloat16 ulp above 2
    assert compare.compare(a, e, "bfloat16", tolerances.resolve("bfloat16")) is None
    assert compare.compare(a, e, "bfloat16", (0, 0)) is not None


def test_tolerance_overrides_win_over_defaults():
    assert tolerances.resolve("float16") == tolerances.DEFAULT["float16"]
    assert tolerances.resolve("float16", {"float16": [0.1, 0.2]}) == (0.1, 0.2)
    assert tolerances.resolve("int32") is None


def test_tolerance_grows_with_accumulation_length():
    base = tolerances.resolve("float32")
    assert tolerances.resolve("float32", accumulation=8) == base
    atol, rtol = tolerances.resolve("float32", accumulation=16 * 64)
    # The absolute bound grows like K (partial sums of K unit terms grow like sqrt(K),
    # their rounding like sqrt(K) more), the relative one like sqrt(K).
    assert atol == pytest.approx(base[0] * 64) and rtol == pytest.approx(base[1] * 8)
    assert tolerances.resolve("int32", accumulation=4096) is None
