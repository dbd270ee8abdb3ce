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


def resolve(dtype, overrides=None):
    """(atol, rtol) for an output of `dtype`, or None for exact comparison."""
    if overrides and dtype in overrides:
        atol, rtol = overrides[dtype]
        return float(atol), float(rtol)
    return DEFAULT.get(dtype)
