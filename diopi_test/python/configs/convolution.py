"""2-d convolution, forward and backward, over strides, padding, dilation and groups."""
from conformance.reftorch import torch, F
from conformance.spec import FLOAT, Op, T

# (input, weight, stride, padding, dilation, groups)
CONVS = (
    ((2, 3, 8, 8), (4, 3, 3, 3), (1, 1), (0, 0), (1, 1), 1),
    ((1, 4, 9, 7), (6, 2, 3, 2), (2, 1), (1, 0), (1, 1), 2),
    ((2, 2, 10, 10), (2, 2, 3, 3), (1, 2), (2, 1), (2, 1), 1),
    ((1, 8, 6, 6), (8, 1, 3, 3), (1, 1), (1, 1), (1, 1), 8),   # depthwise
    ((4, 16, 28, 28), (32, 16, 3, 3), (1, 1), (1, 1), (1, 1), 1),
)
_TOL = {"float16": (1e-2, 1e-2), "bfloat16": (6e-2, 2e-2), "float32": (1e-4, 1e-4)}
_TOL_REASON = "accumulation over C_in*kH*kW products in an order that differs between algorithms"


def _params(stride, padding, dilation, groups):
    return {"stride": stride, "padding": padding, "dilation": dilation, "groups": groups}


convolution2d = Op(
    "diopiConvolution2d", lambda input, weight, bias, stride, padding, dilation, groups:
        F.conv2d(input, weight, bias, stride, padding, dilation, groups),
    tensors=dict(input=T(), weight=T(), bias=T()),
    cases=tuple(((i, w, (w[0],)), _params(s, p, d, g)) for i, w, s, p, d, g in CONVS),
    dtypes=FLOAT, tol=_TOL, tol_reason=_TOL_REASON)


def _out_shape(i, w, s, p, d):
    return (i[0], w[0]) + tuple((i[k + 2] + 2 * p[k] - d[k] * (w[k + 2] - 1) - 1) // s[k] + 1 for k in range(2))


def _conv_grads(grad_output, input, weight, bias_sizes, stride, padding, dilation, groups):
    x = input.detach().double().requires_grad_(True)
    w = weight.detach().double().requires_grad_(True)
    b = torch.zeros(bias_sizes, dtype=torch.float64, requires_grad=True)
    y = F.conv2d(x, w, b, stride, padding, dilation, groups)
    gi, gw, gb = torch.autograd.grad(y, (x, w, b), grad_output.double())
    return gi.to(input.dtype), gw.to(input.dtype), gb.to(input.dtype)


convolution2d_backward = Op(
    "diopiConvolution2dBackward", _conv_grads,
    tensors=dict(grad_output=T(), input=T(), weight=T()),
    cases=tuple(((_out_shape(i, w, s, p, d), i, w), dict(_params(s, p, d, g), bias_sizes=(w[0],))) for i, w, s, p, d, g in CONVS),
    dtypes=FLOAT, tol=_TOL, tol_reason=_TOL_REASON)
