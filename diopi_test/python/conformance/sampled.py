"""Large expected outputs checked from a seeded sample and block sums.

A model case at real size produces outputs of hundreds of MiB (the weight
gradient of a 4096x11008 projection, an lm-head gradient of 32000x4096).
Inputs are redrawn from recipes (regen.py), but outputs need the reference,
and run_test has no torch. Such an output is stored as:

  * the values at SAMPLES positions drawn from the case seed (the positions
    are drawn again on replay, so only the values are stored), compared
    element by element with the usual tolerance;
  * for BLOCKS contiguous blocks of the flattened output, the sum of the
    values and the sum of their magnitudes (float64). A produced output
    passes a block when |sum(actual) - sum(expected)| <= atol * n +
    rtol * sum(|expected|) (+ float64 rounding): the bound follows from the
    elementwise rule, so a correct result always passes, while a wrong row,
    a missed block, a transposed result or an unwritten (NaN sentinel)
    element does not.

Every element of the produced output is read, so nothing escapes the block
check; a few MiB per output are stored instead of hundreds. The encoded
array keeps `"data": None`, so every reader that does not know this module
treats it as a shape-only spec.
"""
import numpy as np

from . import compare, dtypes

# Outputs at least this large are sampled (when the case asks for it).
MIN_BYTES = 4 << 20
SAMPLES = 1 << 17
BLOCKS = 4096
KEY = "sampled"


def is_sampled(enc):
    return isinstance(enc, dict) and "__nd__" in enc and enc.get("data") is None and isinstance(enc.get(KEY), dict)


def _positions(seed, n, count):
    rng = np.random.default_rng([int(seed), 0x5A3D])
    return np.unique(rng.integers(0, n, size=min(count, n), dtype=np.int64))


def _bounds(n, blocks):
    return np.linspace(0, n, min(blocks, n) + 1).astype(np.int64)


def _block_stats(flat, dtype, bounds):
    """(sums, magnitude sums) per block, float64, computed block by block
    from the storage array (a 545M-element bfloat16 output never becomes one
    float32 or float64 array)."""
    sums = np.empty(len(bounds) - 1)
    mags = np.empty(len(bounds) - 1)
    for i in range(len(bounds) - 1):
        chunk = np.asarray(dtypes.to_values(flat[bounds[i]:bounds[i + 1]], dtype), dtype=np.float64)
        sums[i] = chunk.sum()
        mags[i] = np.abs(chunk).sum()
    return sums, mags


def encode(array, dtype, seed):
    """The sampled encoding of a reference output, or None when it must be
    stored whole (small, not real-valued, or holding NaN/inf)."""
    a = np.ascontiguousarray(array)
    if a.nbytes < MIN_BYTES or dtype not in dtypes.FLOATING + dtypes.INTEGER:
        return None
    bounds = _bounds(a.size, BLOCKS)
    sums, mags = _block_stats(a.reshape(-1), dtype, bounds)
    # A NaN or an infinity anywhere makes its block's magnitude sum NaN or inf
    # (finite values cannot reach float64's range).
    if dtype in dtypes.FLOATING and not np.isfinite(mags).all():
        return None
    pos = _positions(seed, a.size, SAMPLES)
    return {"__nd__": dtype, "shape": list(a.shape), "data": None,
            KEY: {"seed": int(seed), "samples": SAMPLES, "blocks": BLOCKS,
                  "values": a.reshape(-1)[pos].tobytes(), "block_sum": sums.tobytes(), "block_abs": mags.tobytes()}}


def check(actual, dtype, enc, tol):
    """None when the produced `actual` (storage array) agrees with the
    sampled reference `enc`, else a compare.Mismatch. `tol` is (atol, rtol)
    or None for exact comparison."""
    s = enc[KEY]
    shape = tuple(int(d) for d in enc["shape"])
    if tuple(actual.shape) != shape:
        return compare.Mismatch(f"shape {list(actual.shape)} != expected {list(shape)}")
    n = int(np.prod(shape, dtype=np.int64))
    pos = _positions(s["seed"], n, int(s["samples"]))
    st = dtypes.storage(dtype)
    expected = np.frombuffer(s["values"], dtype=st)
    if expected.size != pos.size:
        return compare.Mismatch("sampled reference does not match its shape")
    flat = np.ascontiguousarray(actual).reshape(-1)
    mm = compare.compare(flat[pos], expected, dtype, tol)
    if mm is not None:
        mm.reason = f"at {pos.size} sampled positions: {mm.reason}"
        if mm.first_index:
            mm.first_index = tuple(int(i) for i in np.unravel_index(int(pos[mm.first_index[0]]), shape))
        return mm
    bounds = _bounds(n, int(s["blocks"]))
    sums, mags = _block_stats(flat, dtype, bounds)
    esums = np.frombuffer(s["block_sum"], dtype=np.float64)
    emags = np.frombuffer(s["block_abs"], dtype=np.float64)
    counts = np.diff(bounds).astype(np.float64)
    atol, rtol = (0.0, 0.0) if tol is None or dtype not in dtypes.FLOATING else tol
    with np.errstate(invalid="ignore"):
        diff = np.abs(sums - esums)
        allowed = atol * counts + rtol * emags + 1e-12 * (emags + np.abs(mags))
        bad = ~(diff <= allowed)  # NaN (an unwritten sentinel, an invalid value) is bad
    if not bad.any():
        return None
    i = int(np.argmax(bad))
    first = tuple(int(x) for x in np.unravel_index(int(bounds[i]), shape))
    return compare.Mismatch(
        f"{int(bad.sum())} of {bad.size} blocks of ~{int(counts[i])} elements sum differently beyond "
        f"atol={atol:g} rtol={rtol:g} (block {i}, from element {list(first)}: sum {sums[i]:.6g}, expected "
        f"{esums[i]:.6g}, allowed difference {allowed[i]:.3g})", max_abs=float(np.nanmax(np.where(bad, diff, 0))),
        count=int(bad.sum()), total=int(bad.size), first_index=first, first_actual=float(sums[i]),
        first_expected=float(esums[i]))
