"""What run_test checks after a call that returned success: the memory
around and inside the harness's tensors (guard bytes, metadata, read-only
inputs), then each output against its reference, telling outputs left as
the sentinel apart from wrong values."""
import numpy as np

from . import compare, dtypes, sampled, store, tolerances
from .arguments import sentinel_value
from .call import metadata
from .verdicts import GAP_WRITE, INPUT_MODIFIED, METADATA, OOB_WRITE


def memory_problem(lib, call):
    """(verdict, detail) for the first thing the call broke outside its
    outputs, in the order run_test reports them, or None:
    OOB_WRITE (detail None), METADATA ((before, after) of the first changed
    tensor), GAP_WRITE (labels of the outputs written between their
    elements), INPUT_MODIFIED (labels of the modified inputs)."""
    for t in call.tensors:
        if lib.rt.dt_tensor_guard_ok(t.handle) != 1:
            return OOB_WRITE, None
    for t, meta in call.meta:
        now = metadata(lib, t.handle)
        if now != meta:
            return METADATA, (meta, now)
    gaps = gap_writes(call)
    if gaps:
        return GAP_WRITE, gaps
    modified = [name for name, t in call.read_only if t.storage_bytes() != t.initial]
    if modified:
        return INPUT_MODIFIED, modified
    return None


def gap_writes(call):
    """Labels of written tensors whose storage changed outside their view:
    a strided output's gaps are part of its allocation, not of the tensor."""
    read_only = {id(t) for _, t in call.read_only}
    out = []
    for t in call.tensors:
        if id(t) in read_only:
            continue
        itemsize = dtypes.storage(t.dtype).itemsize
        n = len(t.initial) // itemsize
        numel = int(np.prod(t.shape)) if t.shape else 1
        if numel == 0 or n <= numel:
            continue  # no gaps (dense, or overlapping views)
        outside = np.ones(n, dtype=bool)
        np.lib.stride_tricks.as_strided(outside, t.shape, list(t.strides))[...] = False
        now = np.frombuffer(t.storage_bytes(), dtype=np.uint8).reshape(n, itemsize)
        before = np.frombuffer(t.initial, dtype=np.uint8).reshape(n, itemsize)
        if (now[outside] != before[outside]).any():
            out.append(t.label)
    return out


def number_tolerance(tol_over):
    """(atol, rtol) of a floating number output (a double* result): the
    case's first override, else float64's default."""
    return tolerances.DEFAULT["float64"] if not tol_over else tolerances.plain(next(iter(tol_over.values())))


def expected_values(expected):
    """(numbers, dtype, defined mask or None) of an encoded expected output:
    the whole array, or the stored sample of a sampled one."""
    if sampled.is_sampled(expected):
        dtype = expected["__nd__"]
        raw = np.frombuffer(expected[sampled.KEY]["values"], dtype=dtypes.storage(dtype))
        return dtypes.to_values(raw, dtype), dtype, None
    arr, dtype = store.decode_array(expected)
    return dtypes.to_values(arr, dtype), dtype, defined_mask(expected)


def output_tolerance(expected, tol_over, accumulation=None):
    """The bound an encoded expected output is compared with: the dtype's
    (or the case's) tolerance grown for its accumulation and capped by the
    output's own magnitude (tolerances.resolve). None: exact."""
    values, dtype, mask = expected_values(expected)
    if dtype not in tolerances.DEFAULT and not (tol_over and dtype in tol_over):
        return None
    return tolerances.resolve(dtype, tol_over, accumulation, tolerances.magnitude(values, mask))


def defined_mask(expected):
    """The boolean mask stored with an expected output the header defines only
    in part (compare.Defined), or None when every element is defined."""
    enc = expected.get("defined") if isinstance(expected, dict) else None
    if enc is None:
        return None
    if not store.is_encoded_array(enc) or store.is_spec(enc):
        raise store.BaselineError("malformed defined mask in baseline")
    mask, dtype = store.decode_array(enc)
    if dtype != "bool" or list(mask.shape) != list(expected.get("shape", ())):
        raise store.BaselineError(f"defined mask ({dtype}, shape {list(mask.shape)}) does not fit its output's shape "
                                  f"{expected.get('shape')}")
    return mask


def check_output(name, produced, expected, tol_over, accumulation=None):
    """(failure message, compare.Mismatch or None) for one output, or (None, None)."""
    if expected is None:
        return None, None
    if isinstance(expected, list):
        if not isinstance(produced, list) or len(produced) != len(expected):
            return f"{name}: expected {len(expected)} tensors", None
        for i, (pv, ev) in enumerate(zip(produced, expected)):
            msg, mm = check_output(f"{name}[{i}]", pv, ev, tol_over, accumulation)
            if msg:
                return msg, mm
        return None, None
    if sampled.is_sampled(expected):  # a large reference kept as a sample + block sums
        arr, adtype = produced
        if adtype != expected["__nd__"]:
            return f"{name}: dtype {adtype}, expected {expected['__nd__']}", None
        mm = sampled.check(arr, adtype, expected, output_tolerance(expected, tol_over, accumulation))
        return (f"{name}: {mm.describe()}", mm) if mm else (None, None)
    if store.is_encoded_array(expected):
        exp, edtype = store.decode_array(expected)
        arr, adtype = produced
        if adtype != edtype:
            return f"{name}: dtype {adtype}, expected {edtype}", None
        mm = compare.compare(arr, exp, edtype, output_tolerance(expected, tol_over, accumulation), defined_mask(expected))
        return (f"{name}: {mm.describe()}", mm) if mm else (None, None)
    # plain numbers (bool*/double* outputs)
    if isinstance(expected, float):
        atol, rtol = number_tolerance(tol_over)
        ok = abs(float(produced) - expected) <= atol + rtol * abs(expected) or (produced != produced and expected != expected)
    else:
        ok = produced == expected
    return (None, None) if ok else (f"{name}: got {produced!r}, expected {expected!r}", None)


def is_sentinel(arr, dtype, variant):
    """Elementwise: does `arr` hold the sentinel of `variant`?"""
    s = sentinel_value(dtype, variant)
    if dtype in dtypes.FLOATING and variant == 0:
        return np.isnan(dtypes.to_values(arr, dtype))
    raw = np.ascontiguousarray(arr).view(np.uint8).reshape(arr.shape + (arr.dtype.itemsize,))
    return (raw == s.view(np.uint8)).all(axis=-1)


def expected_has_sentinel(record, variant):
    """Whether some expected output element equals the sentinel (then an
    unwritten element could pass unseen, and the case runs again)."""
    for enc in record["outputs"].values():
        for e in (enc if isinstance(enc, list) else [enc]):
            if store.is_encoded_array(e) and not store.is_spec(e):
                arr, dtype = store.decode_array(e)
                hit = is_sentinel(arr, dtype, variant) if arr.size else None
                mask = defined_mask(e)
                if hit is not None and (hit if mask is None else hit & mask).any():
                    return True
    return False


def unwritten(arg, produced):
    """True when an output tensor that started as the sentinel still holds
    it somewhere the reference holds something else."""
    expected = arg.expected
    if not arg.prefilled or not isinstance(produced, tuple) or not store.is_encoded_array(expected) or store.is_spec(expected):
        return False
    arr, dtype = produced
    exp, _ = store.decode_array(expected)
    if arr.shape != exp.shape or not arr.size:
        return False
    variant = arg.tensors[0].fill
    left = is_sentinel(arr, dtype, variant) & ~is_sentinel(exp, dtype, variant)
    mask = defined_mask(expected)  # elements outside it may be left unwritten
    return bool((left if mask is None else left & mask).any())


def first_difference(first, second):
    """Name of the first output whose bytes differ between two runs, or None."""
    for name, value in first.items():
        a = value if isinstance(value, list) else [value]
        b = second.get(name)
        b = b if isinstance(b, list) else [b]
        if any(x is None or y is None or x[0].tobytes() != y[0].tobytes() for x, y in zip(a, b)):
            return name
    return None
