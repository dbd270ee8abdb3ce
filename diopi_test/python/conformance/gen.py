"""Seeded input generators (numpy only).

A generator is called with a numpy Generator, a shape and a DIOPI dtype
name, and returns an array in that dtype's numpy storage. Generators adapt
to the dtype: `randn()` gives normal floats, small signed integers for
integer dtypes and random booleans for bool, so one config serves all.
"""
import dataclasses
import functools

import numpy as np

from . import dtypes


def _finish(values, dtype):
    return dtypes.from_values(values, dtype)


# Arrays above this many elements are drawn in pieces of it, in order, from
# the one generator: a 128256x4096 embedding gradient drawn whole would pass
# through float64 temporaries of 4 GiB each. Smaller arrays (every generic
# case) are drawn in one piece, exactly as before.
CHUNK = 1 << 22


def _chunked(draw, rng, shape, dtype):
    """draw(rng, shape, dtype) for elementwise-independent generators, in
    pieces of CHUNK elements when the array is larger."""
    n = int(np.prod(shape, dtype=np.int64))
    if n <= CHUNK:
        return draw(rng, shape, dtype)
    out = None
    for start in range(0, n, CHUNK):
        piece = draw(rng, (min(CHUNK, n - start),), dtype)
        if out is None:
            out = np.empty(n, dtype=piece.dtype)
        out[start:start + piece.size] = piece
    return out.reshape(shape)


# Floating arrays above CHUNK elements (a model's weights and gradients at
# real size: a 152064x3584 embedding has 545M) are drawn the fast way: normal
# values picked by 16 random bits from a fixed table of 65536 sorted normal
# draws, uniform ones drawn in float32. About 4x faster than float64 draws
# rounded to the dtype, which dominated gen_data and run_test of an LLM.
TABLE = 1 << 16


@functools.lru_cache(maxsize=None)
def _normal_table(dtype, scale, shift):
    base = np.sort(np.random.default_rng(0x4E4F524D).standard_normal(TABLE))
    return dtypes.from_values(base * scale + shift, dtype)


def _pick(rng, shape, table):
    """Entries of `table` at uniformly random positions, CHUNK at a time."""
    n = int(np.prod(shape, dtype=np.int64))
    out = np.empty(n, dtype=table.dtype)
    for start in range(0, n, CHUNK):
        k = min(CHUNK, n - start)
        np.take(table, rng.integers(0, TABLE, size=k, dtype=np.uint16), out=out[start:start + k], mode="clip")
    return out.reshape(shape)


def _uniform32(rng, shape, dtype, lo, hi):
    def draw(rng, shape, dtype):
        return _finish(np.float32(lo) + np.float32(hi - lo) * rng.random(shape, dtype=np.float32), dtype)
    return _chunked(draw, rng, shape, dtype)


def _large_float(shape, dtype):
    return dtype in dtypes.FLOATING and dtype != "float64" and int(np.prod(shape, dtype=np.int64)) > CHUNK


def _int_bounds(dtype, lo, hi):
    info = np.iinfo(dtypes.storage(dtype))
    return max(lo, info.min), min(hi, info.max)


@dataclasses.dataclass(frozen=True)
class randn:
    """Normal(shift, scale) floats; integers in [-int_range, int_range]."""
    scale: float = 1.0
    shift: float = 0.0
    int_range: int = 10

    def __call__(self, rng, shape, dtype):
        if _large_float(shape, dtype):
            return _pick(rng, shape, _normal_table(dtype, float(self.scale), float(self.shift)))
        return _chunked(self._draw, rng, shape, dtype)

    def _draw(self, rng, shape, dtype):
        if dtype == "bool":
            return rng.random(shape) < 0.5
        if dtype in dtypes.INTEGER:
            lo, hi = _int_bounds(dtype, -self.int_range, self.int_range)
            return _finish(rng.integers(lo, hi + 1, size=shape), dtype)
        return _finish(rng.standard_normal(shape) * self.scale + self.shift, dtype)


@dataclasses.dataclass(frozen=True)
class uniform:
    """Uniform floats in [lo, hi); integers in [ceil(lo), floor(hi)]."""
    lo: float = 0.0
    hi: float = 1.0

    def __call__(self, rng, shape, dtype):
        if _large_float(shape, dtype):
            return _uniform32(rng, shape, dtype, self.lo, self.hi)
        return _chunked(self._draw, rng, shape, dtype)

    def _draw(self, rng, shape, dtype):
        if dtype == "bool":
            return rng.random(shape) < 0.5
        if dtype in dtypes.INTEGER:
            lo, hi = _int_bounds(dtype, int(np.ceil(self.lo)), int(np.floor(self.hi)))
            return _finish(rng.integers(lo, hi + 1, size=shape), dtype)
        return _finish(rng.uniform(self.lo, self.hi, size=shape), dtype)


def positive(lo=0.1, hi=4.0):
    return uniform(lo, hi)


@dataclasses.dataclass(frozen=True)
class nonzero:
    """Values bounded away from zero (divisors): magnitude in [lo, hi], random sign."""
    lo: float = 0.5
    hi: float = 4.0

    def __call__(self, rng, shape, dtype):
        return _chunked(self._draw, rng, shape, dtype)

    def _draw(self, rng, shape, dtype):
        mag = uniform(self.lo, self.hi)(rng, shape, dtype if dtype != "bool" else "float32")
        if dtype == "bool":
            return np.ones(shape, dtype=bool)
        if dtype.startswith("uint"):
            return mag
        sign = np.where(rng.random(shape) < 0.5, -1, 1)
        if dtype == "bfloat16":
            return dtypes.f32_to_bf16(dtypes.bf16_to_f32(mag) * sign)
        return (mag * sign).astype(mag.dtype)


@dataclasses.dataclass(frozen=True)
class randint:
    """Integers in [lo, hi) whatever the dtype (indices, labels, counts)."""
    lo: int
    hi: int

    def __call__(self, rng, shape, dtype):
        return _chunked(self._draw, rng, shape, dtype)

    def _draw(self, rng, shape, dtype):
        return _finish(rng.integers(self.lo, self.hi, size=shape), dtype)


@dataclasses.dataclass(frozen=True)
class mask:
    """Booleans that are true with probability p (stored in `dtype`)."""
    p: float = 0.5

    def __call__(self, rng, shape, dtype):
        return _chunked(self._draw, rng, shape, dtype)

    def _draw(self, rng, shape, dtype):
        return _finish(rng.random(shape) < self.p, dtype)


@dataclasses.dataclass(frozen=True)
class special:
    """Normal floats salted with NaN, +-inf and +-0 (a fraction `p` of them);
    for integers, the dtype's extremes mixed with small values."""
    p: float = 0.25

    def __call__(self, rng, shape, dtype):
        if dtype == "bool":
            return rng.random(shape) < 0.5
        if dtype in dtypes.INTEGER:
            info = np.iinfo(dtypes.storage(dtype))
            base = randn()(rng, shape, dtype)
            pick = rng.random(shape)
            vals = np.where(pick < self.p / 2, info.min, np.where(pick < self.p, info.max, base))
            return vals.astype(dtypes.storage(dtype))
        vals = rng.standard_normal(shape)
        pool = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0])
        pick = rng.random(shape) < self.p
        vals = np.where(pick, pool[rng.integers(0, len(pool), size=shape)], vals)
        return _finish(vals, dtype)


@dataclasses.dataclass(frozen=True)
class arange_perm:
    """A random permutation of 0..n-1 along the flattened tensor."""

    def __call__(self, rng, shape, dtype):
        n = int(np.prod(shape)) if len(shape) else 1
        return _finish(rng.permutation(n).reshape(shape), dtype)


@dataclasses.dataclass(frozen=True)
class distinct:
    """Integers in [0, hi), distinct along `axis` (scatter indices: with a
    repeated index, which value an overwriting scatter keeps is unspecified)."""
    hi: int
    axis: int = -1

    def __call__(self, rng, shape, dtype):
        if not len(shape) or 0 in shape:
            return _finish(rng.integers(0, self.hi, size=shape), dtype)
        axis = self.axis % len(shape)
        moved = tuple(n for i, n in enumerate(shape) if i != axis)
        k = shape[axis]
        if k > self.hi:  # cannot be distinct: plain draws
            return _finish(rng.integers(0, self.hi, size=shape), dtype)
        picks = np.argsort(rng.random(moved + (self.hi,)), axis=-1)[..., :k]
        return _finish(np.moveaxis(picks, -1, axis), dtype)


@dataclasses.dataclass(frozen=True)
class softmax_out:
    """What softmax (log=1: log_softmax) along `axis` returns for normal
    inputs: the `output` a softmax backward reads, consistent with itself
    (probabilities summing to one), not independent noise."""
    axis: int = -1
    log: int = 0

    def __call__(self, rng, shape, dtype):
        x = rng.standard_normal(shape)
        if not len(shape) or 0 in shape:
            return _finish(x, dtype)
        m = x.max(axis=self.axis, keepdims=True)
        y = x - (m + np.log(np.exp(x - m).sum(axis=self.axis, keepdims=True)))
        return _finish(y if self.log else np.exp(y), dtype)
