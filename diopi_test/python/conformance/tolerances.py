"""Comparison tolerances: one table of defaults per dtype, overridden per
operator by its config (with a stated reason, recorded in the baseline)."""

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


def resolve(dtype, overrides=None, accumulation=None):
    """(atol, rtol) for an output of `dtype`, or None for exact comparison.

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
    if overrides and dtype in overrides:
        atol, rtol = (float(v) for v in overrides[dtype])
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
    return atol, rtol
