"""Convolutions: 2-d and 3-d, direct and transposed, forward and backward, over
strides, padding, dilation, output padding and groups; im2col and col2im.

References compute in float64 and round to the case dtype. Backward cases
take their reference gradients from autograd; `has_bias=False` passes a
NULL bias (forward) or NULL bias_sizes (backward, grad_bias then NULL), and
`grads` names which gradients the case asks for (the others are NULL).
Cases stay batched NCHW / NCDHW so that channels-last variants can be
derived from them."""
from conformance.reftorch import torch, F
from conformance.spec import FLOAT, Op, T

_TOL = {"float16": (3e-2, 1e-2), "bfloat16": (1.5e-1, 3e-2, 0.05), "float32": (5e-4, 1e-4), "float64": (1e-9, 1e-7)}
_TOL_REASON = ("sums of C_in*prod(kernel) products (forward, grad_input) or of N*prod(out spatial) products (grad_weight), "
               "accumulated in an order that differs between algorithms; ATen's half kernels accumulate partly in half")

# (input, weight, stride, padding, dilation, groups, has_bias)
CONV2D = (
    ((2, 3, 8, 8), (4, 3, 3, 3), (1, 1), (0, 0), (1, 1), 1, True),
    ((1, 4, 9, 7), (6, 2, 3, 2), (2, 1), (1, 0), (1, 1), 2, True),
    ((2, 2, 10, 10), (2, 2, 3, 3), (1, 2), (2, 1), (2, 1), 1, True),
    ((1, 8, 6, 6), (8, 1, 3, 3), (1, 1), (1, 1), (1, 1), 8, True),     # depthwise
    ((2, 3, 7, 7), (5, 3, 1, 1), (1, 1), (0, 0), (1, 1), 1, False),    # 1x1, no bias
    ((1, 3, 5, 5), (2, 3, 5, 5), (1, 1), (0, 0), (1, 1), 1, False),    # kernel covers the input
    ((2, 4, 8, 8), (4, 4, 3, 3), (2, 2), (1, 1), (2, 2), 1, True),
    ((1, 6, 11, 9), (9, 2, 3, 3), (3, 2), (2, 2), (1, 2), 3, False),
    ((0, 3, 8, 8), (4, 3, 3, 3), (1, 1), (1, 1), (1, 1), 1, True),     # empty batch
    ((8, 16, 32, 32), (32, 16, 3, 3), (1, 1), (1, 1), (1, 1), 1, True),  # large: float32 only
    # Reductions deeper than one GEMM depth block (288 taps), kept smaller than
    # the other non-float32 cases so that they are never the timed case.
    ((1, 32, 3, 3), (1, 32, 3, 3), (1, 1), (1, 1), (1, 1), 1, False),    # forward / weight gradient
    ((1, 1, 3, 3), (32, 1, 3, 3), (1, 1), (1, 1), (1, 1), 1, False),     # input gradient
)
CONV3D = (
    ((2, 3, 5, 6, 6), (4, 3, 3, 3, 3), (1, 1, 1), (0, 0, 0), (1, 1, 1), 1, True),
    ((1, 4, 6, 5, 7), (6, 2, 3, 2, 3), (2, 1, 1), (1, 0, 1), (1, 1, 1), 2, True),
    ((1, 2, 7, 7, 7), (3, 2, 3, 3, 3), (1, 1, 1), (2, 2, 2), (2, 2, 2), 1, False),
    ((1, 4, 4, 5, 5), (4, 1, 3, 3, 3), (1, 1, 1), (1, 1, 1), (1, 1, 1), 4, False),  # depthwise
    ((1, 3, 5, 5, 5), (2, 3, 1, 1, 1), (2, 2, 2), (0, 0, 0), (1, 1, 1), 1, True),   # 1x1x1, strided
    ((2, 6, 6, 6, 6), (6, 2, 3, 3, 3), (1, 2, 3), (1, 1, 1), (1, 1, 1), 3, True),
    ((0, 3, 4, 4, 4), (2, 3, 2, 2, 2), (1, 1, 1), (0, 0, 0), (1, 1, 1), 1, True),   # empty batch
    ((2, 8, 16, 16, 16), (16, 8, 3, 3, 3), (1, 1, 1), (1, 1, 1), (1, 1, 1), 1, True),  # large
)
# (input, weight, stride, padding, output_padding, dilation, groups, has_bias); weight is (C_in, C_out/groups, k...)
CONVT2D = (
    ((2, 3, 5, 5), (3, 4, 3, 3), (1, 1), (0, 0), (0, 0), (1, 1), 1, True),
    ((1, 4, 4, 6), (4, 3, 3, 2), (2, 2), (1, 1), (1, 1), (1, 1), 2, True),
    ((2, 2, 6, 6), (2, 2, 3, 3), (2, 1), (1, 2), (1, 0), (1, 2), 1, True),
    ((1, 6, 5, 5), (6, 1, 3, 3), (2, 2), (1, 1), (1, 1), (1, 1), 6, False),  # depthwise
    ((1, 3, 3, 3), (3, 2, 1, 1), (3, 3), (0, 0), (0, 0), (1, 1), 1, False),
    ((2, 4, 5, 4), (4, 2, 2, 3), (3, 2), (0, 0), (2, 1), (1, 1), 2, True),
    ((0, 3, 4, 4), (3, 2, 3, 3), (1, 1), (0, 0), (0, 0), (1, 1), 1, True),   # empty batch
    ((8, 16, 24, 24), (16, 8, 4, 4), (2, 2), (1, 1), (0, 0), (1, 1), 1, True),  # large
    ((1, 16, 2, 2), (16, 1, 3, 3), (1, 1), (0, 0), (0, 0), (1, 1), 1, False),  # deep reduction (144 taps), small (never timed)
)
CONVT3D = (
    ((2, 3, 3, 4, 4), (3, 4, 3, 3, 3), (1, 1, 1), (0, 0, 0), (0, 0, 0), (1, 1, 1), 1, True),
    ((1, 4, 3, 4, 3), (4, 3, 3, 2, 3), (2, 2, 1), (1, 1, 0), (1, 0, 0), (1, 1, 1), 2, True),
    ((1, 2, 4, 4, 4), (2, 2, 3, 3, 3), (2, 1, 2), (1, 2, 0), (1, 0, 1), (1, 2, 1), 1, False),
    ((1, 4, 3, 3, 3), (4, 1, 3, 3, 3), (2, 2, 2), (1, 1, 1), (1, 1, 1), (1, 1, 1), 4, True),  # depthwise
    ((0, 3, 3, 3, 3), (3, 2, 2, 2, 2), (1, 1, 1), (0, 0, 0), (0, 0, 0), (1, 1, 1), 1, True),  # empty batch
    ((2, 16, 8, 16, 16), (16, 8, 4, 4, 4), (2, 2, 2), (1, 1, 1), (0, 0, 0), (1, 1, 1), 1, False),  # large
)


def _no_bias(bias, has_bias):
    return {} if has_bias else {"bias": None}


def _forward(fn):
    def ref(input, weight, bias, stride, padding, dilation, groups, output_padding=None):
        kw = {} if output_padding is None else {"output_padding": output_padding}
        b = None if bias is None else bias.double()
        return fn(input.double(), weight.double(), b, stride=stride, padding=padding, dilation=dilation, groups=groups, **kw).to(input.dtype)
    return ref


def _conv_out(i, w, s, p, d):
    return (i[0], w[0]) + tuple((i[k + 2] + 2 * p[k] - d[k] * (w[k + 2] - 1) - 1) // s[k] + 1 for k in range(len(s)))


def _convt_out(i, w, s, p, op, d, g):
    return (i[0], w[1] * g) + tuple((i[k + 2] - 1) * s[k] - 2 * p[k] + d[k] * (w[k + 2] - 1) + op[k] + 1 for k in range(len(s)))


def _backward(fn):
    """Reference gradients (grad_input, grad_weight, grad_bias) by autograd; `grads` picks the ones asked for."""
    def ref(grad_output, input, weight, bias_sizes, stride, padding, dilation, groups, grads, output_padding=None):
        kw = {} if output_padding is None else {"output_padding": output_padding}
        x = input.detach().double().requires_grad_(True)
        w = weight.detach().double().requires_grad_(True)
        b = None if bias_sizes is None else torch.zeros(bias_sizes, dtype=torch.float64, requires_grad=True)
        y = fn(x, w, b, stride=stride, padding=padding, dilation=dilation, groups=groups, **kw)
        gi, gw = torch.autograd.grad(y, (x, w), grad_output.double(), retain_graph=b is not None)
        gb = None if b is None else torch.autograd.grad(y, b, grad_output.double())[0].to(input.dtype)
        return (gi.to(input.dtype) if "input" in grads else None, gw.to(input.dtype) if "weight" in grads else None,
                gb if "bias" in grads else None)
    return ref


ALL_GRADS = ("input", "weight", "bias")


def _grad_variants(k):
    """Which gradients a backward case asks for: all, and for two configs a single one."""
    return (ALL_GRADS, ("input",), ("weight",)) if k in (1, 2) else (ALL_GRADS,)


def _conv_cases(table):
    return tuple(((i, w, (w[0],)), dict(stride=s, padding=p, dilation=d, groups=g, has_bias=hb)) for i, w, s, p, d, g, hb in table)


def _conv_backward_cases(table):
    return tuple(((_conv_out(i, w, s, p, d), i, w), dict(stride=s, padding=p, dilation=d, groups=g, bias_sizes=(w[0],) if hb else None, grads=gr))
                 for k, (i, w, s, p, d, g, hb) in enumerate(table) for gr in _grad_variants(k))


def _convt_cases(table):
    return tuple(((i, w, (w[1] * g,)), dict(stride=s, padding=p, output_padding=op, dilation=d, groups=g, has_bias=hb))
                 for i, w, s, p, op, d, g, hb in table)


def _convt_backward_cases(table):
    return tuple(((_convt_out(i, w, s, p, op, d, g), i, w),
                  dict(stride=s, padding=p, dilation=d, output_padding=op, groups=g, bias_sizes=(w[1] * g,) if hb else None, grads=gr))
                 for k, (i, w, s, p, op, d, g, hb) in enumerate(table) for gr in _grad_variants(k))


def _conv_op(func, fn, cases):
    return Op(func, _forward(fn), tensors=dict(input=T(), weight=T(), bias=T()), cases=cases, dtypes=FLOAT,
              extra=("has_bias",), prepare=_no_bias, tol=_TOL, tol_reason=_TOL_REASON)


def _conv_backward_op(func, fn, cases):
    return Op(func, _backward(fn), tensors=dict(grad_output=T(), input=T(), weight=T()), cases=cases, dtypes=FLOAT, extra=("grads",),
              tol=_TOL, tol_reason=_TOL_REASON)


convolution2d = _conv_op("diopiConvolution2d", F.conv2d, _conv_cases(CONV2D))
convolution2d_backward = _conv_backward_op("diopiConvolution2dBackward", F.conv2d, _conv_backward_cases(CONV2D))
convolution3d = _conv_op("diopiConvolution3d", F.conv3d, _conv_cases(CONV3D))
convolution3d_backward = _conv_backward_op("diopiConvolution3dBackward", F.conv3d, _conv_backward_cases(CONV3D))
conv_transpose2d = _conv_op("diopiConvTranspose2d", F.conv_transpose2d, _convt_cases(CONVT2D))
conv_transpose2d_backward = _conv_backward_op("diopiConvTranspose2dBackward", F.conv_transpose2d, _convt_backward_cases(CONVT2D))
conv_transpose3d = _conv_op("diopiConvTranspose3d", F.conv_transpose3d, _convt_cases(CONVT3D))
conv_transpose3d_backward = _conv_backward_op("diopiConvTranspose3dBackward", F.conv_transpose3d, _convt_backward_cases(CONVT3D))

# im2col / col2im: (input spatial (C, H, W), kernel_size, dilation, padding, stride)
UNFOLDS = (
    ((3, 6, 6), (3, 3), (1, 1), (0, 0), (1, 1)),
    ((2, 7, 5), (2, 3), (1, 1), (1, 0), (2, 1)),
    ((4, 9, 9), (3, 3), (2, 2), (2, 2), (1, 1)),
    ((1, 8, 8), (2, 2), (1, 1), (0, 0), (2, 2)),      # non-overlapping blocks
    ((2, 5, 6), (1, 1), (1, 1), (0, 0), (1, 1)),
    ((3, 10, 7), (3, 2), (2, 3), (1, 2), (3, 2)),
    ((2, 4, 4), (4, 4), (1, 1), (0, 0), (1, 1)),      # one block
)


def _blocks(hw, k, d, p, s):
    return tuple((hw[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(2))


def _unfold_cases():
    cases = []
    for n in (2, None, 0):  # batched, unbatched (C, H, W), empty batch
        for chw, k, d, p, s in UNFOLDS if n == 2 else UNFOLDS[:3]:
            shape = chw if n is None else (n,) + chw
            cases.append(((shape,), dict(kernel_size=k, dilation=d, padding=p, stride=s)))
    cases.append((((4, 16, 40, 40),), dict(kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), stride=(2, 2))))  # large
    return tuple(cases)


def _fold_cases():
    cases = []
    for n in (2, None, 0):
        for (c, h, w), k, d, p, s in UNFOLDS if n == 2 else UNFOLDS[:3]:
            b = _blocks((h, w), k, d, p, s)
            shape = (c * k[0] * k[1], b[0] * b[1])
            cases.append((((shape if n is None else (n,) + shape),), dict(output_size=(h, w), kernel_size=k, dilation=d, padding=p, stride=s)))
    cases.append((((4, 64, 400),), dict(output_size=(40, 40), kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), stride=(2, 2))))  # large
    return tuple(cases)


im2col = Op("diopiIm2Col", lambda input, kernel_size, dilation, padding, stride: F.unfold(input, kernel_size, dilation, padding, stride),
            tensors=dict(input=T()), cases=_unfold_cases(), dtypes=FLOAT)
col2im = Op("diopiCol2Im", lambda input, output_size, kernel_size, dilation, padding, stride:
            F.fold(input.double(), output_size, kernel_size, dilation, padding, stride).to(input.dtype),
            tensors=dict(input=T()), cases=_fold_cases(), dtypes=FLOAT, tol=_TOL,
            tol_reason="overlapping blocks are summed; ATen's half kernels accumulate in half")
