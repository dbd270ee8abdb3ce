"""mm, bmm, linear and its backward."""
from conformance.reftorch import torch, F
from conformance.spec import FLOAT, Op, T

# GEMMs accumulate k products: half types get a looser bound.
_TOL = {"float16": (1e-2, 1e-2), "bfloat16": (5e-2, 2e-2), "float32": (1e-4, 1e-4)}
_TOL_REASON = "accumulation over k products; blocked GEMMs sum in a different order than the reference"

mm = Op("diopiMm", lambda input, mat2: torch.mm(input, mat2), tensors=dict(input=T(), mat2=T()),
        shapes=(((3, 4), (4, 5)), ((1, 7), (7, 1)), ((0, 3), (3, 2)), ((128, 256), (256, 64))),
        dtypes=FLOAT, tol=_TOL, tol_reason=_TOL_REASON)
bmm = Op("diopiBmm", lambda input, mat2: torch.bmm(input, mat2), tensors=dict(input=T(), mat2=T()),
         shapes=(((2, 3, 4), (2, 4, 5)), ((1, 1, 7), (1, 7, 1)), ((8, 64, 32), (8, 32, 48))),
         dtypes=FLOAT, tol=_TOL, tol_reason=_TOL_REASON)
linear = Op("diopiLinear", lambda input, weight, bias=None: F.linear(input, weight, bias),
            tensors=dict(input=T(), weight=T(), bias=T()),
            shapes=(((4, 8), (3, 8), (3,)), ((2, 5, 8), (6, 8), (6,)), ((64, 256), (128, 256), (128,))),
            dtypes=FLOAT, tol=_TOL, tol_reason=_TOL_REASON)
linear_no_bias = Op("diopiLinear", lambda input, weight: F.linear(input, weight),
                    tensors=dict(input=T(), weight=T()), shapes=(((4, 8), (3, 8)), ((2, 5, 8), (6, 8))),
                    dtypes=FLOAT, tol=_TOL, tol_reason=_TOL_REASON, name="linear_no_bias")


def _linear_grads(grad_output, input, weight):
    x = input.detach().double().requires_grad_(True)
    w = weight.detach().double().requires_grad_(True)
    b = torch.zeros(weight.shape[0], dtype=torch.float64, requires_grad=True)
    y = F.linear(x, w, b)
    gi, gw, gb = torch.autograd.grad(y, (x, w, b), grad_output.double())
    return gi.to(input.dtype), gw.to(input.dtype), gb.to(input.dtype)


linear_backward = Op("diopiLinearBackward", _linear_grads, tensors=dict(grad_output=T(), input=T(), weight=T()),
                     shapes=(((4, 3), (4, 8), (3, 8)), ((2, 5, 6), (2, 5, 8), (6, 8)), ((64, 128), (64, 256), (128, 256))),
                     dtypes=FLOAT, tol=_TOL, tol_reason=_TOL_REASON)
