"""Comparison tolerances: one table of defaults per dtype, overridden per
operator by its config (with a stated reason, recorded in the baseline),
capped by the magnitude of the expected values, and proven to reject a
wrong answer (`prove`). numpy only: run_test and the torch-free replay use it.

How a bound is chosen: the dtype's default (or the config's override) is
grown for long accumulations and deep composites (`resolve`), then capped
(`cap`): its rtol never exceeds RTOL_CAP, its atol never exceeds MAGNITUDE
times the largest finite |expected| of the output. A vendor's own stated
allowance (impl/<vendor>/device_configs.py, marked VENDOR) is used as given.

How it is proven: `prove` checks, for each output, that the expected values
off by WRONG (relative), all zeros, and the expected mean everywhere are each
rejected by the output's bound; integer, bool, empty and all-NaN outputs,
where a relative error is no wrong answer, are proven with a discrete one
(`discrete_wrong`); a check that cannot apply says why (an all-zero
floating output, one element whose mean is itself). gen_data runs it for every case; tests/test_tolerance_proof.py
runs it over the whole generated suite."""
import numpy as np

from . import compare

# dtype -> (atol, rtol). Integer and bool outputs are always compared exactly.
DEFAULT = {
    "float64": (1e-10, 1e-7),
    "float32": (1e-5, 1e-5),
    "float16": (1e-3, 1e-3),
    "bfloat16": (1e-2, 8e-3),
    "complex64": (1e-5, 1e-5),
    "complex128": (1e-10, 1e-7),
}


# The defaults hold for results that accumulate up to this many terms.
BASE_ACCUMULATION = 16


def split(accumulation):
    """(terms, steps) of a case's accumulation: an int is a number of terms;
    a dict may give "terms" and "steps" (see resolve)."""
    if isinstance(accumulation, dict):
        return int(accumulation.get("terms") or 1), int(accumulation.get("steps") or 1)
    return int(accumulation or 1), 1


# A wrong answer every bound is proven to reject: the expected values off by
# this relative error (well above each dtype's precision: bfloat16 keeps 8
# significant bits, 0.39%; float16 11; float32 24).
WRONG = {"float16": 1e-2, "bfloat16": 1e-2, "float32": 1e-3, "float64": 1e-3, "complex64": 1e-3, "complex128": 1e-3}

# Ceilings of every derived bound, chosen so that RTOL_CAP + MAGNITUDE < WRONG:
# then the largest expected element, off by WRONG, is always out of bounds.
# bfloat16 keeps its one ulp of rtol (two correct libraries may round to
# neighbouring values) and little absolute slack; the others keep several ulps.
RTOL_CAP = {"float16": 5e-3, "bfloat16": 8e-3, "float32": 5e-4, "float64": 5e-4, "complex64": 5e-4, "complex128": 5e-4}
# atol <= MAGNITUDE * max|expected|: an absolute bound covers rounding of
# intermediates at the output's own scale, so an output of magnitude 0.005 (a
# gradient of a mean) gets an atol of that order, not the dtype's 0.01.
MAGNITUDE = {"float16": 4e-3, "bfloat16": 1.5e-3, "float32": 4e-4, "float64": 4e-4, "complex64": 4e-4, "complex128": 4e-4}

# Below this largest |expected| an output is zero up to rounding (a gradient
# that cancels exactly, left as a residue of the reference's arithmetic): its
# scale says nothing about a correct library's error, so its atol is not capped.
NOISE = {"float16": 1e-4, "bfloat16": 1e-4, "float32": 1e-6, "float64": 1e-13, "complex64": 1e-6, "complex128": 1e-13}

# An override may carry a third element. VENDOR marks a vendor's stated
# allowance (device_configs.py TOLERANCES): used as given, never capped. A
# number is the config's own wrong answer for that dtype, larger than WRONG,
# where a correct library cannot do better (the caps grow in proportion; the
# config's tol_reason says why): bfloat16 kernels of ATen that round every
# partial sum to bfloat16 are a few percent off the float-accumulated result.
VENDOR = "vendor"


def resolve(dtype, overrides=None, accumulation=None, scale=None):
    """(atol, rtol) for an output of `dtype`, or None for exact comparison.

    `scale` is the output's magnitude (`magnitude(expected)`); with it, the
    bound is capped (`cap`) unless it is a vendor's allowance. Without it,
    the bound is the uncapped one (gen_data compares both to report the
    cases a cap tightened).

    `accumulation` is the number of terms summed into each output element
    (K of a GEMM, C_in*kH*kW of a convolution, N*H_out*W_out of its weight
    gradient, the reduced extent of a sum). Beyond BASE_ACCUMULATION the
    bounds grow with K: two correct summation orders differ by about
    eps * sqrt(K) * |partial sums|, and the partial sums of K unit-sized
    terms grow like sqrt(K), so the absolute bound scales with K / BASE and
    the relative one (the result itself grows like sqrt(K)) with its square
    root. ATen's own float32 weight gradient of a 7x7 convolution over
    4x112x112 positions (K = 50176) is 6.5e-3 away from float64; the bound
    there is 3.1e-2.

    It may also be a dict {"terms": K, "steps": D} for a composite: D is the
    depth of the formula, the number of operations on the longest path from
    an input to the output, each of which a correct library may round to the
    output's dtype (as an optimizer step written with in-place tensor ops
    does in float16). The defaults allow about one rounding; D independent
    roundings add up like a random walk, so both bounds grow with sqrt(D).
    The growth stays well below an error that is wrong for a reason: for a
    depth of 14 the float16 bounds are 3.7e-3 + 3.7e-3 * |expected|, which a
    result 1% off exceeds wherever |expected| > 0.6.
    """
    vendor, wrong = False, None
    if overrides and dtype in overrides:
        v = overrides[dtype]
        atol, rtol = float(v[0]), float(v[1])
        vendor = len(v) > 2 and v[2] == VENDOR
        wrong = float(v[2]) if len(v) > 2 and not vendor else None
    elif dtype in DEFAULT:
        atol, rtol = DEFAULT[dtype]
    else:
        return None
    terms, steps = split(accumulation)
    if terms > BASE_ACCUMULATION:
        ratio = terms / BASE_ACCUMULATION
        atol, rtol = atol * ratio, rtol * ratio ** 0.5
    if steps > 1:
        atol, rtol = atol * steps ** 0.5, rtol * steps ** 0.5
    if scale is not None and not vendor:
        atol, rtol = cap(dtype, atol, rtol, scale, wrong)
    return atol, rtol


def wrong_answer(dtype, overrides=None):
    """The relative error an output of `dtype` is proven to reject: WRONG,
    or the case's own (the third element of its override)."""
    v = (overrides or {}).get(dtype)
    if v is not None and len(v) > 2 and v[2] != VENDOR:
        return float(v[2])
    return WRONG.get(dtype, WRONG["float64"])


def cap(dtype, atol, rtol, scale, wrong=None):
    """A bound limited to RTOL_CAP and to MAGNITUDE * scale (the output's
    largest finite |expected|), both grown in proportion when the case
    declares a larger wrong answer. An all-zero output (scale 0) keeps its
    atol: a correct library may return -0.0 or a rounding residue there."""
    if dtype not in RTOL_CAP:
        return atol, rtol
    grow = max(1.0, wrong / WRONG[dtype]) if wrong else 1.0
    rtol = min(rtol, RTOL_CAP[dtype] * grow)
    if scale > NOISE[dtype] and np.isfinite(scale):
        atol = min(atol, MAGNITUDE[dtype] * grow * float(scale))
    return atol, rtol


def magnitude(values, defined=None):
    """The largest finite |value| (of the elements `defined` marks), 0.0 when
    there is none: the scale a bound is capped by."""
    v = np.abs(np.asarray(values))
    keep = np.isfinite(v)
    if defined is not None:
        keep &= np.asarray(defined, dtype=bool)
    return float(v[keep].max()) if keep.any() else 0.0


def plain(override):
    """(atol, rtol) of an override entry, without a VENDOR mark."""
    return float(override[0]), float(override[1])


# Why a check of `prove` cannot apply to an output (the keys of its counts).
EMPTY = "empty output: it has no values, only a shape (a wrong shape is rejected)"
NOT_FINITE = "no finite expected value: a constant of NaN or infinity is no wrong answer to try"
NONE_DEFINED = "no element is defined by the header"
ALL_ZERO = "every expected value is zero"
ROUNDING_ZERO = "every expected value is zero up to rounding (below NOISE)"
ONE_VALUE = "one value: its mean is itself"
CONSTANT = "the expected values vary less than the wrong answer: their mean is as right"
EXACT_CONSTANT = "compared exactly and all values equal: the constant output is the answer"
CHECKS = ("wrong", "zeros", "mean")


def is_discrete(values, dtype, tol):
    """Whether `prove` tries a discrete wrong answer for an output instead of
    a relative error: an integer or bool output (compared exactly: a 1% error
    of an integer is no integer), an empty one (only its shape can be wrong),
    or one whose every element is NaN or infinite (compared by identity)."""
    e = np.asarray(values)
    real = np.issubdtype(e.dtype, np.floating) or np.issubdtype(e.dtype, np.complexfloating)
    return tol is None or not real or e.size == 0 or not np.isfinite(e).any()


def discrete_wrong(values, defined=None):
    """The discrete wrong answer of an output (see is_discrete): one element
    more along each empty dimension; a bool flipped or an integer off by one
    in the first defined element; a finite 0 where NaN or infinity is
    expected."""
    e = np.asarray(values)
    if e.size == 0:
        return np.zeros(tuple(max(1, n) for n in e.shape) or (1,), dtype=e.dtype)
    w = e.copy()
    flat = w.reshape(-1)
    keep = np.ones(e.size, dtype=bool) if defined is None else np.asarray(defined, dtype=bool).reshape(-1)
    i = int(np.argmax(keep))
    if e.dtype == np.bool_:
        flat[i] = not flat[i]
    elif np.issubdtype(e.dtype, np.integer):
        flat[i] = flat[i] + 1 if flat[i] < np.iinfo(e.dtype).max else flat[i] - 1
    else:
        flat[i] = 0
    return w


def prove(values, dtype, tol, defined=None, wrong=None):
    """Whether the bound `tol` ((atol, rtol), or None: exact) of an output
    whose expected values are `values` (numbers: bfloat16 already widened)
    rejects three wrong answers: the values off by `wrong` (relative; default
    WRONG[dtype]), zeros, and their mean everywhere. Returns (failed, exempt): the checks
    whose wrong answer passes, and {check: reason} for those that cannot
    apply. The comparison is compare.compare's rule.

    A discrete output (is_discrete) tries discrete_wrong instead of the
    relative error, with compare.compare itself; its constant outputs are
    the most common value (a mean need not be an integer), exempt when they
    are the answer.

    Otherwise only finite, defined elements take part: NaN and infinities are
    compared by identity, and would reject any constant for a reason
    unrelated to the bound."""
    e = np.asarray(values)
    keep = np.ones(e.shape, dtype=bool) if defined is None else np.asarray(defined, dtype=bool).copy()
    real = np.issubdtype(e.dtype, np.floating) or np.issubdtype(e.dtype, np.complexfloating)
    if e.size and not keep.any():
        return [], dict.fromkeys(CHECKS, NONE_DEFINED)
    if e.size == 0:
        rejected = compare.compare(discrete_wrong(e), e, "float64" if real else "int64", tol) is not None
        return ([] if rejected else ["wrong"]), {"zeros": EMPTY, "mean": EMPTY}
    exact = tol is None or not real
    if real:
        finite = keep & np.isfinite(e)
        if not finite.any():
            failed = [name for name, w in (("wrong", discrete_wrong(e, keep)), ("zeros", np.zeros_like(e)))
                      if compare.compare(w, e, "float64", tol, None if defined is None else keep) is None]
            return failed, {"mean": NOT_FINITE}
        keep = finite
    vals = e[keep]
    if real:
        vals = vals.astype(np.complex128 if np.iscomplexobj(vals) else np.float64)
    wrong = wrong or WRONG.get(dtype, WRONG["float64"])

    def passes(wrong):
        # compare.compare's rule on finite values (no NaN or infinity takes part here), without building
        # its mismatch report: this runs three times per output of every case of the suite.
        if exact:
            return bool(np.array_equal(wrong, vals))
        atol, rtol = tol
        return bool(np.all(np.abs(wrong - vals) <= atol + rtol * np.abs(vals)))

    failed, exempt = [], {}
    if exact:
        # the wrong answer goes through run_test's own comparison, which decides how integers are compared
        if compare.compare(discrete_wrong(e, defined), e, dtype, tol, defined) is None:
            failed.append("wrong")
        uniq, counts = np.unique(vals, return_counts=True)
        const = uniq[np.argmax(counts)]  # the most common value
        for check, c in (("zeros", 0), ("mean", const)):
            if np.all(vals == c):
                exempt[check] = ALL_ZERO if c == 0 else ONE_VALUE if vals.size == 1 else EXACT_CONSTANT
            elif passes(np.full(vals.shape, c, dtype=vals.dtype)):
                failed.append(check)
        return failed, exempt
    if not np.any(vals != 0):
        return [], dict.fromkeys(CHECKS, ALL_ZERO)
    if float(np.max(np.abs(vals))) <= NOISE.get(dtype, 0.0):
        return [], dict.fromkeys(CHECKS, ROUNDING_ZERO)
    if passes(vals * (1.0 + wrong)):
        failed.append("wrong")
    if passes(np.zeros_like(vals)):
        failed.append("zeros")
    if vals.size == 1:
        exempt["mean"] = ONE_VALUE
    else:
        const = vals.mean()
        if passes(np.full(vals.shape, const, dtype=vals.dtype)):
            spread = float(np.max(np.abs(vals - const)))
            if spread <= wrong * float(np.max(np.abs(vals))):
                exempt["mean"] = CONSTANT  # the values differ by less than the wrong answer does
            else:
                failed.append("mean")
    return failed, exempt
