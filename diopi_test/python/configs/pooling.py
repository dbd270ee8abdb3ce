"""Pooling: max / avg, fixed-window and adaptive, 1-d to 3-d, forward and
backward, and the mode-generic Pool{1,2,3}d (mode "max" | "avg";
exclusive=True leaves padding out of the average; adaptive=True pools to
output_size and ignores the window arguments).

Indices are flat positions within one (spatial) plane of the input, as
PyTorch returns them. Max-pooling inputs hold distinct values within each
plane (see `distinct`), so the arg-max - and with it the indices and the
gradient's route - is unique. Backward references come from autograd in
float64. Max-pooling backward cases always pass the indices the forward
with indices gives: the header requires them (as DIOPI 1.0 does), so a
library may route the gradient through them alone. A stride of None (empty diopiSize_t) means stride = kernel_size.
Cases stay batched N,C,spatial (plus a few unbatched ones)."""
import dataclasses
import inspect

import numpy as np

from conformance import dtypes
from conformance.gen import randn
from conformance.reftorch import torch, F
from conformance.spec import FLOAT, Op, T

F32_64 = ("float32", "float64")  # avg_pool3d has no half / bfloat16 kernels on CPU in ATen


@dataclasses.dataclass(frozen=True)
class distinct:
    """Values that do not repeat within one plane of the last `plane_dims`
    dims (so max pooling has no ties), also in float16 / bfloat16: drawn
    without replacement from the dtype's representable values in [-4, 4]."""
    plane_dims: int = 2

    def __call__(self, rng, shape, dtype):
        if dtype not in ("float16", "bfloat16"):
            return randn()(rng, shape, dtype)
        pool = _representable(dtype)
        n = int(np.prod(shape)) if len(shape) else 1
        plane = int(np.prod(shape[-self.plane_dims:])) if len(shape) else 1
        if n == 0:
            return dtypes.from_values(np.zeros(shape), dtype)
        vals = np.concatenate([rng.choice(pool, size=plane, replace=plane > len(pool)) for _ in range(n // plane)])
        return dtypes.from_values(vals.reshape(shape), dtype)


def _representable(dtype):
    steps = 1024 if dtype == "float16" else 128
    mags = np.concatenate([2.0 ** e * (1 + np.arange(steps) / steps) for e in range(-8, 2)])
    vals = np.concatenate([mags, -mags])
    exact = dtypes.to_values(dtypes.from_values(vals, dtype), dtype).astype(np.float64)
    return np.unique(exact)


def _out_len(length, k, s, p, d, ceil):
    num = length + 2 * p - d * (k - 1) - 1
    out = (-(-num // s) if ceil else num // s) + 1
    if ceil and (out - 1) * s >= length + p:
        out -= 1
    return out


def _pool_shape(shape, n, k, s, p, d, ceil):
    s = s or k
    return tuple(shape[:-n]) + tuple(_out_len(shape[-n + i], k[i], s[i], p[i], d[i], ceil) for i in range(n))


def _adaptive_shape(shape, n, size):
    return tuple(shape[:-n]) + tuple(size)


# ---------------------------------------------------------------- case tables
# windows: (input shape, kernel, stride, padding, dilation, ceil_mode)
WINDOWS = {
    1: (
        ((2, 3, 16), (3,), (2,), (1,), (1,), False),
        ((1, 4, 15), (2,), None, (0,), (1,), False),          # stride defaults to the kernel
        ((2, 2, 17), (4,), (3,), (2,), (1,), True),           # ceil mode
        ((1, 3, 20), (3,), (1,), (1,), (2,), False),          # dilation
        ((3, 11), (3,), (2,), (0,), (1,), True),              # unbatched
        ((2, 2, 7), (7,), (1,), (3,), (1,), False),           # kernel spans the input
        ((0, 3, 10), (2,), (2,), (0,), (1,), False),          # empty batch
        ((8, 32, 300), (3,), (2,), (1,), (1,), False),        # large: float32 only
    ),
    2: (
        ((2, 3, 8, 8), (2, 2), (2, 2), (0, 0), (1, 1), False),
        ((1, 4, 9, 7), (3, 3), (2, 2), (1, 1), (1, 1), False),
        ((2, 2, 10, 11), (3, 2), (2, 3), (1, 0), (1, 1), True),
        ((1, 3, 12, 12), (3, 3), (1, 1), (1, 1), (2, 2), False),
        ((2, 3, 7, 9), (2, 3), None, (0, 1), (1, 1), True),
        ((3, 6, 6), (3, 3), (3, 3), (1, 1), (1, 1), True),
        ((1, 2, 5, 5), (5, 5), (1, 1), (2, 2), (1, 1), False),
        ((0, 3, 8, 8), (2, 2), (2, 2), (0, 0), (1, 1), False),
        ((4, 8, 48, 48), (3, 3), (2, 2), (1, 1), (1, 1), False),
    ),
    3: (
        ((2, 3, 6, 6, 6), (2, 2, 2), (2, 2, 2), (0, 0, 0), (1, 1, 1), False),
        ((1, 2, 7, 6, 5), (3, 3, 3), (2, 2, 2), (1, 1, 1), (1, 1, 1), False),
        ((1, 2, 7, 8, 9), (3, 2, 2), (2, 3, 2), (1, 0, 1), (1, 1, 1), True),
        ((1, 2, 9, 9, 9), (3, 3, 3), (1, 1, 1), (1, 1, 1), (2, 2, 2), False),
        ((2, 5, 5, 6), (2, 2, 3), None, (0, 1, 1), (1, 1, 1), True),
        ((0, 2, 4, 4, 4), (2, 2, 2), (2, 2, 2), (0, 0, 0), (1, 1, 1), False),
        ((2, 8, 16, 16, 18), (2, 2, 2), (2, 2, 2), (0, 0, 0), (1, 1, 1), False),
    ),
}
# One ~1M-element case for the most used kernels (float32 only).
HUGE = {2: ((16, 16, 64, 64), (2, 2), (2, 2), (0, 0), (1, 1), False)}

# adaptive: (input shape, output_size)
ADAPTIVE = {
    1: (((2, 3, 16), (4,)), ((1, 4, 15), (4,)), ((2, 2, 7), (10,)), ((3, 11), (1,)), ((2, 3, 9), (9,)), ((0, 3, 8), (3,)),
        ((8, 32, 300), (7,))),
    2: (((2, 3, 8, 8), (4, 4)), ((1, 4, 9, 7), (4, 3)), ((2, 2, 5, 6), (7, 8)), ((3, 10, 10), (1, 1)), ((1, 3, 7, 7), (7, 7)),
        ((2, 3, 11, 13), (3, 5)), ((0, 3, 8, 8), (2, 2)), ((4, 8, 48, 48), (5, 5))),
    3: (((2, 3, 6, 6, 6), (3, 3, 3)), ((1, 2, 7, 6, 5), (3, 2, 4)), ((1, 2, 3, 4, 5), (5, 4, 3)), ((2, 5, 5, 6), (1, 1, 1)),
        ((0, 2, 4, 4, 4), (2, 2, 2)), ((2, 8, 16, 16, 18), (4, 4, 4))),
}

_MAX = {1: "max_pool1d", 2: "max_pool2d", 3: "max_pool3d"}
_AVG = {1: "avg_pool1d", 2: "avg_pool2d", 3: "avg_pool3d"}
_AMAX = {1: "adaptive_max_pool1d", 2: "adaptive_max_pool2d", 3: "adaptive_max_pool3d"}
_AAVG = {1: "adaptive_avg_pool1d", 2: "adaptive_avg_pool2d", 3: "adaptive_avg_pool3d"}


def _grad(y_fn):
    """grad_input = autograd of y_fn(x, **params) at float64 x, seeded with grad_output (params: the
    case arguments y_fn names)."""
    names = set(inspect.signature(y_fn).parameters)

    def ref(input, grad_output, **kw):
        x = input.detach().double().requires_grad_(True)
        (g,) = torch.autograd.grad(y_fn(x, **{k: v for k, v in kw.items() if k in names}), x, grad_output.double())
        return g.to(input.dtype)
    return ref


# Backward kernels add the gradients of overlapping windows in the storage dtype, the reference in
# float64: with half types a sum of several windows may land a few units in the last place away.
_BWD_TOL = dict(tol={"float16": (4e-3, 1e-2), "bfloat16": (8e-2, 4e-2, 0.05)},
                tol_reason="overlapping windows sum gradients in the storage dtype; the reference sums in float64 "
                           "(ATen's bfloat16 kernels land a few percent off: their bound is proven for a 5% error)")


# Adaptive averages sum their window in bfloat16 in ATen (a rounding per partial sum), the reference in float64.
_AVG_TOL = {"bfloat16": (1e-2, 2e-2, 0.03)}
_AVG_TOL_REASON = "ATen sums bfloat16 windows in bfloat16, the reference in float64: proven for a 3% error in bfloat16"


# ---------------------------------------------------------------- max pooling

def _max_params(k, s, p, d, ceil):
    return dict(kernel_size=k, stride=s, padding=p, dilation=d, ceil_mode=ceil)


def _max_call(n, x, kernel_size, stride, padding, dilation, ceil_mode, **extra):
    return getattr(F, _MAX[n])(x, kernel_size, stride, padding, dilation, ceil_mode=ceil_mode, **extra)


def _max_ops(n, func, with_indices_func, backward_func):
    windows = WINDOWS[n] + ((HUGE[n],) if n in HUGE else ())
    fwd = Op(func, lambda input, **kw: _max_call(n, input, **kw), tensors=dict(input=T(distinct(n))),
             cases=tuple(((w[0],), _max_params(*w[1:])) for w in windows), dtypes=FLOAT)
    with_idx = Op(with_indices_func, lambda input, **kw: tuple(_max_call(n, input, return_indices=True, **kw)),
                  tensors=dict(input=T(distinct(n))), cases=tuple(((w[0],), _max_params(*w[1:])) for w in WINDOWS[n]), dtypes=FLOAT)

    def prepare(input, kernel_size, stride, padding, dilation, ceil_mode, index_dtype="int64"):
        _, idx = _max_call(n, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)
        return {"indices": idx.to(getattr(torch, index_dtype))}

    def bwd_ref(input, grad_output, kernel_size, stride, padding, dilation, ceil_mode):
        return _grad(lambda x: _max_call(n, x, kernel_size, stride, padding, dilation, ceil_mode))(input, grad_output)

    cases = tuple(((_pool_shape(shape, n, k, s, p, d, ceil), shape), _max_params(k, s, p, d, ceil)) for shape, k, s, p, d, ceil in WINDOWS[n])
    bwd = Op(backward_func, bwd_ref, tensors=dict(grad_output=T(), input=T(distinct(n))), cases=cases, dtypes=FLOAT, prepare=prepare, **_BWD_TOL)
    return fwd, with_idx, bwd, prepare, bwd_ref


max_pool1d, max_pool1d_with_indices, max_pool1d_backward, _prep1, _ref1 = _max_ops(
    1, "diopiMaxPool1d", "diopiMaxPool1dWithIndices", "diopiMaxPool1dBackward")
max_pool2d, max_pool2d_with_indices, max_pool2d_backward, _prep2, _ref2 = _max_ops(
    2, "diopiMaxPool2d", "diopiMaxPool2dWithIndices", "diopiMaxPool2dBackward")
max_pool3d, max_pool3d_with_indices, max_pool3d_backward, _prep3, _ref3 = _max_ops(
    3, "diopiMaxPool3d", "diopiMaxPool3dWithIndices", "diopiMaxPool3dBackward")

# The 2-d indices are documented as int32 or int64: int32 variants of the forward and the backward.
max_pool2d_with_indices_int32 = Op(
    "diopiMaxPool2dWithIndices", lambda input, **kw: (lambda o, i: (o, i.int()))(*_max_call(2, input, return_indices=True, **kw)),
    tensors=dict(input=T(distinct(2))), cases=tuple(((w[0],), _max_params(*w[1:])) for w in WINDOWS[2][:5]), dtypes=("float16", "float32"),
    name="max_pool2d_with_indices_int32")
max_pool2d_backward_int32 = Op(
    "diopiMaxPool2dBackward", _ref2, tensors=dict(grad_output=T(), input=T(distinct(2))),
    cases=tuple(((_pool_shape(w[0], 2, *w[1:]), w[0]), dict(_max_params(*w[1:]), index_dtype="int32")) for w in WINDOWS[2][:5]),
    dtypes=("float16", "float32"), extra=("index_dtype",), prepare=_prep2, name="max_pool2d_backward_int32")


# ---------------------------------------------------------------- average pooling

def _avg_cases(n):
    """(shape, params) for average pooling: the dilation-free windows, with and without padding in the count,
    and (2-d / 3-d) a divisor override."""
    cases = []
    for shape, k, s, p, d, ceil in WINDOWS[n]:
        if any(x != 1 for x in d):
            continue
        base = dict(kernel_size=k, stride=s, padding=p, ceil_mode=ceil)
        for cip in ((True, False) if any(p) or ceil else (True,)):
            params = dict(base, count_include_pad=cip)
            if n > 1:
                params["divisor_override"] = None
            cases.append((shape, params))
        if n > 1 and shape[0] != 0 and len(cases) < 6:
            cases.append((shape, dict(base, count_include_pad=True, divisor_override=3)))
    return cases


def _avg_call(n, x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override=None):
    kw = {} if n == 1 else {"divisor_override": divisor_override}
    return getattr(F, _AVG[n])(x, kernel_size, stride, padding, ceil_mode, count_include_pad, **kw)


def _avg_ops(n, func, backward_func, dtypes_):
    cases = _avg_cases(n)
    if n in HUGE:
        shape, k, s, p, _, ceil = HUGE[n]
        cases.append((shape, dict(kernel_size=k, stride=s, padding=p, ceil_mode=ceil, count_include_pad=True, divisor_override=None)))
    fwd = Op(func, lambda input, **kw: _avg_call(n, input.double(), **kw).to(input.dtype), tensors=dict(input=T()),
             cases=tuple(((shape,), params) for shape, params in cases), dtypes=dtypes_)

    def bwd_ref(input, grad_output, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override=None):
        return _grad(lambda x: _avg_call(n, x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override))(input, grad_output)

    bwd = Op(backward_func, bwd_ref, tensors=dict(grad_output=T(), input=T()),
             cases=tuple(((_pool_shape(shape, n, p["kernel_size"], p["stride"], p["padding"], (1,) * n, p["ceil_mode"]), shape), p)
                         for shape, p in _avg_cases(n)), dtypes=dtypes_,
             tol={"bfloat16": (1e-2, 2e-2, 0.05)},
             tol_reason="ATen adds the gradients of overlapping windows in bfloat16 (up to 5.7% off near zero), "
                        "the reference in float64: proven for a 5% error in bfloat16")
    return fwd, bwd


avg_pool1d, avg_pool1d_backward = _avg_ops(1, "diopiAvgPool1d", "diopiAvgPool1dBackward", FLOAT)
avg_pool2d, avg_pool2d_backward = _avg_ops(2, "diopiAvgPool2d", "diopiAvgPool2dBackward", FLOAT)
avg_pool3d, avg_pool3d_backward = _avg_ops(3, "diopiAvgPool3d", "diopiAvgPool3dBackward", F32_64)


# ---------------------------------------------------------------- adaptive pooling

def _adaptive_overlap(input, output_size):
    """Adaptive windows overlap when the output is larger than the input: an input element collects the gradients of
    up to ceil(out / in) + 1 windows per dim, which a library may add in the storage dtype, one rounding each
    (tolerances.resolve "steps")."""
    steps = 1
    for i, o in zip(input.shape[input.dim() - len(output_size):], output_size):
        steps *= -(-o // i) + 1 if i and o > i else 1
    return {"steps": steps}


def _adaptive_ops(n, avg_func, avg_backward_func, max_func, max_indices_func, max_backward_func):
    aavg, amax = getattr(F, _AAVG[n]), getattr(F, _AMAX[n])
    fwd_cases = tuple(((shape,), dict(output_size=size)) for shape, size in ADAPTIVE[n])
    bwd_cases = tuple(((_adaptive_shape(shape, n, size), shape), {}) for shape, size in ADAPTIVE[n])
    avg = Op(avg_func, lambda input, output_size: aavg(input.double(), output_size).to(input.dtype), tensors=dict(input=T()),
             tol=_AVG_TOL, tol_reason=_AVG_TOL_REASON,
             cases=fwd_cases, dtypes=FLOAT)
    avg_bwd = Op(avg_backward_func, _grad(lambda x, output_size: aavg(x, output_size)), tol=_AVG_TOL, tol_reason=_AVG_TOL_REASON,
                 tensors=dict(grad_output=T(), input=T()), cases=tuple(((g, s), dict(output_size=g[-n:])) for (g, s), _ in bwd_cases),
                 dtypes=FLOAT, extra=("output_size",))
    mx = Op(max_func, lambda input, output_size: amax(input, output_size), tensors=dict(input=T(distinct(n))), cases=fwd_cases, dtypes=FLOAT)
    mx_idx = Op(max_indices_func, lambda input, output_size: tuple(amax(input, output_size, return_indices=True)),
                tensors=dict(input=T(distinct(n))), cases=fwd_cases, dtypes=FLOAT)

    def prepare(input, output_size):
        return {"indices": amax(input, output_size, return_indices=True)[1]}

    mx_bwd = Op(max_backward_func, _grad(lambda x, output_size: amax(x, output_size)),
                tensors=dict(grad_output=T(), input=T(distinct(n))),
                cases=tuple(((g, s), dict(output_size=g[-n:])) for (g, s), _ in bwd_cases),
                dtypes=FLOAT, extra=("output_size",), prepare=prepare, accumulation=_adaptive_overlap)
    return avg, avg_bwd, mx, mx_idx, mx_bwd


(adaptive_avg_pool1d, adaptive_avg_pool1d_backward, adaptive_max_pool1d, adaptive_max_pool1d_with_indices,
 adaptive_max_pool1d_backward) = _adaptive_ops(1, "diopiAdaptiveAvgPool1d", "diopiAdaptiveAvgPool1dBackward", "diopiAdaptiveMaxPool1d",
                                               "diopiAdaptiveMaxPool1dWithIndices", "diopiAdaptiveMaxPool1dBackward")
(adaptive_avg_pool2d, adaptive_avg_pool2d_backward, adaptive_max_pool2d, adaptive_max_pool2d_with_indices,
 adaptive_max_pool2d_backward) = _adaptive_ops(2, "diopiAdaptiveAvgPool2d", "diopiAdaptiveAvgPool2dBackward", "diopiAdaptiveMaxPool2d",
                                               "diopiAdaptiveMaxPool2dWithIndices", "diopiAdaptiveMaxPool2dBackward")
(adaptive_avg_pool3d, adaptive_avg_pool3d_backward, adaptive_max_pool3d, adaptive_max_pool3d_with_indices,
 adaptive_max_pool3d_backward) = _adaptive_ops(3, "diopiAdaptiveAvgPool3d", "diopiAdaptiveAvgPool3dBackward", "diopiAdaptiveMaxPool3d",
                                               "diopiAdaptiveMaxPool3dWithIndices", "diopiAdaptiveMaxPool3dBackward")


# ---------------------------------------------------------------- mode-generic Pool{n}d

def _generic(n, x, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, output_size=None, return_indices=False):
    if adaptive:
        if mode == "max":
            return getattr(F, _AMAX[n])(x, output_size, return_indices=return_indices)
        return getattr(F, _AAVG[n])(x, output_size)
    if mode == "max":
        return _max_call(n, x, ksize, stride, padding, dilation, ceil_mode, return_indices=return_indices)
    return _avg_call(n, x, ksize, stride, padding, ceil_mode, not exclusive)


def _generic_cases(n, avg_windows=True):
    """(shape, params, out shape): max windows, avg windows (exclusive or not), adaptive max / avg."""
    out = []
    last = len(WINDOWS[n]) - 1
    for i, (shape, k, s, p, d, ceil) in enumerate(WINDOWS[n]):
        base = dict(ksize=k, stride=s, padding=p, dilation=d, ceil_mode=ceil, adaptive=False, output_size=None)
        go = _pool_shape(shape, n, k, s, p, d, ceil)
        if i % 2 == 0 or i == last:
            out.append((shape, dict(base, mode="max", exclusive=False), go))
        if avg_windows and all(x == 1 for x in d) and (i % 2 == 1 or i == last):
            for excl in ((True, False) if any(p) or ceil else (True,)):
                out.append((shape, dict(base, mode="avg", exclusive=excl), go))
    for i, (shape, size) in enumerate(ADAPTIVE[n]):
        if i % 2 == 0 or shape[0] == 0:
            for mode in ("max", "avg"):
                out.append((shape, dict(mode=mode, ksize=(2,) * n, stride=None, padding=(0,) * n, dilation=(1,) * n, ceil_mode=False,
                                        exclusive=True, adaptive=True, output_size=size), _adaptive_shape(shape, n, size)))
    return out


def _generic_ops(n, func, backward_func, name=None, dtypes_=FLOAT, avg_windows=True, only_avg_windows=False):
    def keep(p):
        return (p["mode"] == "avg" and not p["adaptive"]) if only_avg_windows else not (avg_windows is False and p["mode"] == "avg" and not p["adaptive"])

    cases = [c for c in _generic_cases(n, avg_windows=avg_windows or only_avg_windows) if keep(c[1])]

    def fwd_ref(input, mode, **kw):
        x = input if mode == "max" else input.double()
        return _generic(n, x, mode, **kw).to(input.dtype)

    fwd = Op(func, fwd_ref, tensors=dict(input=T(distinct(n))), cases=tuple(((s,), p) for s, p, _ in cases), dtypes=dtypes_, name=name)

    # Max mode requires the indices; avg mode takes none (NULL).
    def prepare(input, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, output_size):
        if mode != "max":
            return {"indices": None}
        return {"indices": _generic(n, input, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, output_size,
                                    return_indices=True)[1]}

    def bwd_ref(input, grad_output, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, output_size):
        return _grad(lambda x: _generic(n, x, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, output_size))(
            input, grad_output)

    bwd_cases = tuple(((go, s), p) for s, p, go in cases)
    bwd = Op(backward_func, bwd_ref, tensors=dict(grad_output=T(), input=T(distinct(n))), cases=bwd_cases, dtypes=dtypes_,
             extra=("output_size",), prepare=prepare, name=None if name is None else name + "_backward", **_BWD_TOL)
    return fwd, bwd


pool1d, pool1d_backward = _generic_ops(1, "diopiPool1d", "diopiPool1dBackward")
pool2d, pool2d_backward = _generic_ops(2, "diopiPool2d", "diopiPool2dBackward")
# 3-d: the window average has no half kernels on CPU, so those cases run in float32 / float64 only.
pool3d, pool3d_backward = _generic_ops(3, "diopiPool3d", "diopiPool3dBackward", avg_windows=False)
pool3d_avg, pool3d_avg_backward = _generic_ops(3, "diopiPool3d", "diopiPool3dBackward", name="pool3d_avg", dtypes_=F32_64, only_avg_windows=True)
