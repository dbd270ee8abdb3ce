"""Large inputs are drawn in pieces: the same values for every array that
fits one piece, and the same statistics and determinism for larger ones."""
import numpy as np
import pytest

from conformance import gen

GENERATORS = [gen.randn(), gen.uniform(-2.0, 3.0), gen.nonzero(), gen.randint(0, 7), gen.mask(0.3)]


@pytest.mark.parametrize("g", GENERATORS, ids=lambda g: type(g).__name__)
def test_small_arrays_are_drawn_in_one_piece(g):
    a = g(np.random.default_rng(3), (5, 7), "float32")
    b = g._draw(np.random.default_rng(3), (5, 7), "float32")
    assert a.dtype == b.dtype and a.shape == (5, 7) and np.array_equal(a, b)


@pytest.mark.parametrize("dtype", ["bfloat16", "float32", "int64"])
def test_large_arrays_are_drawn_in_pieces_deterministically(monkeypatch, dtype):
    monkeypatch.setattr(gen, "CHUNK", 1000)
    g = gen.uniform(-2.0, 3.0)
    a = g(np.random.default_rng(7), (37, 101), dtype)
    b = g(np.random.default_rng(7), (37, 101), dtype)
    whole = g._draw(np.random.default_rng(7), (37, 101), dtype)
    assert a.shape == (37, 101) and a.dtype == whole.dtype and np.array_equal(a, b)

    def values(x):
        return (gen.dtypes.to_values(x.reshape(-1), dtype) if dtype == "bfloat16" else x).astype(np.float64)

    assert values(a).min() >= -2.0 and values(a).max() <= 3.0
    assert abs(values(a).mean() - values(whole).mean()) < 0.2  # same distribution, other draws


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32"])
def test_large_floating_arrays_take_the_fast_draws_with_the_same_statistics(monkeypatch, dtype):
    monkeypatch.setattr(gen, "CHUNK", 1 << 14)
    shape = (300, 1000)
    for g, mean, std, lo, hi in [(gen.randn(scale=2.0, shift=1.0), 1.0, 2.0, -12.0, 14.0),
                                 (gen.uniform(-2.0, 3.0), 0.5, 5 / 12 ** 0.5, -2.0, 3.0)]:
        a = g(np.random.default_rng(5), shape, dtype)
        assert a.shape == shape and a.dtype == gen.dtypes.storage(dtype)
        assert np.array_equal(a, g(np.random.default_rng(5), shape, dtype))  # a recipe draws it again
        assert not np.array_equal(a, g(np.random.default_rng(6), shape, dtype))
        v = gen.dtypes.to_values(a.reshape(-1), dtype).astype(np.float64)
        assert abs(v.mean() - mean) < 0.02 and abs(v.std() - std) < 0.02 * std
        assert v.min() >= lo and v.max() <= hi + 0.02  # uniform's upper end rounds in 16-bit dtypes
        assert len(np.unique(v)) > 1000  # not a handful of repeated values
