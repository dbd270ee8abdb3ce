"""softmax and log_softmax, forward and backward.

Backward cases feed the forward's output, as autograd saves it, and check
the gradient autograd computes."""
from conformance.gen import randn
from conformance.reftorch import torch
from conformance.spec import FLOAT, Op, T, grid

SHAPES = (((2, 5),), ((3, 4, 5),), ((7,),), ((0, 4),), ((64, 1000),))
DIMS = grid(dim=[-1, 0])


def _grad(fn):
    """Reference backward: autograd of `fn` at `input`, seeded with grad_output."""
    def ref(input, grad_output, dim):
        x = input.detach().double().requires_grad_(True)
        y = fn(x, dim)
        (g,) = torch.autograd.grad(y, x, grad_output.double())
        return g.to(input.dtype)
    return ref


def _saved_output(fn):
    return lambda input, dim: {"output": fn(input.double(), dim).to(input.dtype)}


softmax = Op("diopiSoftmax", lambda input, dim: torch.softmax(input, dim), tensors=dict(input=T(randn(scale=3))),
             shapes=SHAPES, dtypes=FLOAT, params=DIMS)
log_softmax = Op("diopiLogSoftmax", lambda input, dim: torch.log_softmax(input, dim), tensors=dict(input=T(randn(scale=3))),
                 shapes=SHAPES, dtypes=FLOAT, params=DIMS)
softmax_backward = Op("diopiSoftmaxBackward", _grad(torch.softmax),
                      tensors=dict(input=T(randn(scale=3)), grad_output=T()), extra=("input",), prepare=_saved_output(torch.softmax),
                      shapes=tuple((s[0], s[0]) for s in SHAPES), dtypes=FLOAT, params=DIMS,
                      tol={"float16": (2e-3, 1.5e-2, 0.03), "bfloat16": (1.6e-2, 1.6e-2, 0.05)},
                      tol_reason="the reference works in float64 from a rounded saved output; half types lose a bit more "
                                 "(y * (g - sum(g * y)) cancels; ATen's float16 is 1.4% off: proven for a 3% error in float16, 5% in bfloat16)")
log_softmax_backward = Op("diopiLogSoftmaxBackward", _grad(torch.log_softmax),
                          tensors=dict(input=T(randn(scale=3)), grad_output=T()), extra=("input",), prepare=_saved_output(torch.log_softmax),
                          shapes=tuple((s[0], s[0]) for s in SHAPES), dtypes=FLOAT, params=DIMS,
                          tol={"float16": (4e-3, 4e-3), "bfloat16": (3e-2, 3e-2)},
                          tol_reason="the reference works in float64 from a rounded saved output; half types lose a bit more")
