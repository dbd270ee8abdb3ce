"""RMS normalization forward (with the inverse RMS) and backward.

Reference: float64 math cast once, out = input / sqrt(mean(input^2) + eps) * weight (+ bias) over the trailing
normalized_shape dims; inv_rms has the leading dims of input, in float32 (float64 for float64 inputs). Backward
references are torch.autograd of that math at the forward's inputs; the inv_rms the backward receives is the
forward's (rounded to its dtype).
"""
import math

from conformance.gen import randn
from conformance.reftorch import torch
from conformance.spec import FLOAT, Op, T


def _dims(input, normalized_shape):
    return tuple(range(input.dim() - len(normalized_shape), input.dim()))


def _inv_rms_dtype(input):
    return torch.float64 if input.dtype == torch.float64 else torch.float32


def _rms_math(x, weight, bias, normalized_shape, eps):
    r = (x.pow(2).mean(_dims(x, normalized_shape), keepdim=True) + eps).rsqrt()
    y = x * r * weight
    if bias is not None:
        y = y + bias
    return y, r


def _with_bias_prepare(bias, has_bias):
    return {"bias": bias if has_bias else None}


def _ref(input, weight, bias, normalized_shape, eps):
    y, r = _rms_math(input.double(), weight.double(), None if bias is None else bias.double(), normalized_shape, eps)
    lead = input.shape[:input.dim() - len(normalized_shape)]
    return y.to(input.dtype), r.reshape(lead).to(_inv_rms_dtype(input))


# (input shape, number of normalised trailing dims): tokens x hidden, batched, 2 normalised dims, a 0-row batch,
# one row, and a large one
_SHAPES = (((4, 16), 1), ((2, 3, 32), 1), ((3, 4, 5), 2), ((0, 8), 1), ((1, 7), 1), ((2, 3, 4, 8), 1), ((6,), 1), ((512, 1024), 1))


def _cases(backward=False):
    out = []
    for shape, k in _SHAPES:
        ns = shape[len(shape) - k:]
        big = math.prod(shape) > 65536
        for has_bias, eps in (((True, 1e-6),) if big else ((False, 1e-6), (True, 1e-5), (False, 0.1))):
            shapes = (shape, ns, ns)
            if backward:
                shapes = (shape,) + shapes
            out.append((shapes, dict(normalized_shape=ns, eps=eps, has_bias=has_bias)))
    return tuple(out)


def _accum(input, normalized_shape):
    return math.prod(input.shape[input.dim() - len(normalized_shape):])


rms_norm = Op("diopiRMSNorm", _ref, tensors=dict(input=T(), weight=T(randn(0.5, 1.0)), bias=T(randn(0.2))), cases=_cases(),
              prepare=_with_bias_prepare, extra=("has_bias",), dtypes=FLOAT, accumulation=_accum)


def _bwd_prepare(input, weight, bias, has_bias, normalized_shape, eps):
    b = bias if has_bias else None
    _, r = _ref(input, weight, b, normalized_shape, eps)
    return {"bias": b, "inv_rms": r}


def _bwd_ref(grad_output, input, weight, bias, normalized_shape, eps):
    x, w = input.detach().double().requires_grad_(True), weight.detach().double().requires_grad_(True)
    args = [x, w]
    b = None
    if bias is not None:
        b = bias.detach().double().requires_grad_(True)
        args.append(b)
    y, _ = _rms_math(x, w, b, normalized_shape, eps)
    grads = torch.autograd.grad(y, args, grad_output.double())
    gb = grads[2].to(input.dtype) if bias is not None else None
    return grads[0].to(input.dtype), grads[1].to(input.dtype), gb


def _bwd_accum(input, normalized_shape):
    return max(_accum(input, normalized_shape), input.numel() // max(_accum(input, normalized_shape), 1))


rms_norm_backward = Op(
    "diopiRMSNormBackward", _bwd_ref, tensors=dict(grad_output=T(), input=T(), weight=T(randn(0.5, 1.0)), bias=T(randn(0.2))),
    cases=_cases(True), prepare=_bwd_prepare, extra=("has_bias",), dtypes=FLOAT, accumulation=_bwd_accum)
