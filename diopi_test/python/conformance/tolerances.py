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


def resolve(dtype, overrides=None, accumulation=None):
    """(atol, rtol) for an output of `dtype`, or None for exact comparison.

    `accumulation` is the number of terms summed into each output element
    (K of a GEMM, C_in*kH*kW of a convolution, the reduced extent of a sum).
    Rounding errors of a long sum grow like sqrt(K) when summation orders
    differ, so beyond BASE_ACCUMULATION both bounds scale by
    sqrt(K / BASE_ACCUMULATION) instead of one fixed atol serving every size.
    """
    if overrides and dtype in overrides:
        atol, rtol = (float(v) for v in overrides[dtype])
    elif dtype in DEFAULT:
        atol, rtol = DEFAULT[dtype]
    else:
        return None
    if accumulation and accumulation > BASE_ACCUMULATION:
        scale = (accumulation / BASE_ACCUMULATION) ** 0.5
        atol, rtol = atol * scale, rtol * scale
    return atol, rtol
