"""Reductions and scans: sum, mean, std, prod, vector norm (+ backward), amax, max/min along one dim and over
all elements, any/all, argmax/argmin, cumsum (+ backward).

DIOPI has no keepdim argument: the rank of the output the caller passes
says whether reduced dims are kept, so keepdim is a harness-side parameter.
"""
import math

from conformance.gen import mask, nonzero, randint, randn, special, uniform
from conformance.reftorch import torch
from conformance.spec import FLOAT, INT, NUMERIC, Op, T

# (shape, dims, keepdim)
REDUCTIONS = (
    ((2, 3, 4), (1,), False), ((2, 3, 4), (0, 2), True), ((2, 3, 4), (), False), ((5,), (0,), False),
    ((), (), False), ((0, 3), (0,), False), ((3, 4), (-1,), True), ((256, 1024), (1,), False),
)
CASES = tuple((((shape,)), {"dim": dims, "keepdim": keep}) for shape, dims, keep in REDUCTIONS)


def _sum(input, dim, keepdim):
    # Integer and bool sums accumulate in int64, as torch.sum does.
    dtype = input.dtype if input.is_floating_point() else torch.int64
    return torch.sum(input, dim=list(dim), keepdim=keepdim, dtype=dtype)


sum = Op("diopiSum", _sum, tensors=dict(input=T()), cases=CASES, dtypes=NUMERIC + ("bool",), extra=("keepdim",))
mean = Op("diopiMean", lambda input, dim, keepdim: torch.mean(input, dim=list(dim), keepdim=keepdim),
          tensors=dict(input=T()), cases=CASES, dtypes=FLOAT, extra=("keepdim",))

MAX_CASES = tuple((((shape,)), {"dim": dim, "keepdim": keep})
                  for shape, dim, keep in (((2, 3, 4), 1, False), ((2, 3, 4), 0, True), ((7,), 0, False), ((64, 513), -1, False)))
max = Op("diopiMax", lambda input, dim, keepdim: tuple(torch.max(input, dim, keepdim)), tensors=dict(input=T()),
         cases=MAX_CASES, dtypes=FLOAT + INT + ("bool",), extra=("keepdim",))
min = Op("diopiMin", lambda input, dim, keepdim: tuple(torch.min(input, dim, keepdim)), tensors=dict(input=T()),
         cases=MAX_CASES, dtypes=FLOAT + INT + ("bool",), extra=("keepdim",))


# ================================================================ the other reductions and scans
HALF_UP = ("float16", "float32", "float64")              # dtypes the header lists for norm, std, cumsum backward
NO_BF16 = HALF_UP + ("int8", "uint8", "int16", "int32", "int64", "bool")  # any/all, argmax/argmin, max_all/min_all, cumsum
AMAX_DTYPES = HALF_UP + ("int8", "uint8", "int16", "int32", "int64")


def _reduced_shape(shape, dims, keepdim):
    """Shape of a reduction of `shape` over `dims` (empty: all), in plain Python."""
    nd = len(shape)
    ds = {d % nd for d in dims} if (dims and nd) else set(range(nd))
    if keepdim:
        return tuple(1 if i in ds else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in ds)


def _terms(input_shape, dims):
    """How many elements each output of a reduction over `dims` sums."""
    nd = len(input_shape)
    ds = {d % nd for d in dims} if (dims and nd) else set(range(nd))
    return math.prod(input_shape[d] for d in ds) if nd else 1


# ---------------------------------------------------------------- any / all
# Inputs that are mostly false (any) or mostly true (all), so that both results occur; the mask generator stores
# 0 / 1 in every dtype. The float cases after them mix in NaN, +-inf (true) and +-0.0 (false).
ANY_ALL_CASES = tuple(((shape,), {"dim": dim, "keepdim": keep}) for shape, dim, keep in (
    ((4, 5), 1, False), ((4, 5), 0, True), ((3, 4, 5), -1, False), ((3, 4, 5), None, False), ((3, 4, 5), None, True),
    ((), None, False), ((), 0, False), ((0, 4), 1, False), ((0, 4), 0, False), ((0,), None, False), ((4096, 300), 1, False)))


def _any_all(fn):
    def ref(input, dim, keepdim):
        r = fn(input) if dim is None else fn(input, dim, keepdim)
        return r.reshape([1] * input.dim()) if (dim is None and keepdim) else r
    return ref


any = Op("diopiAny", _any_all(torch.any), tensors=dict(input=T(mask(0.08))), cases=ANY_ALL_CASES, dtypes=NO_BF16,
         extra=("keepdim",))
all = Op("diopiAll", _any_all(torch.all), tensors=dict(input=T(mask(0.92))), cases=ANY_ALL_CASES, dtypes=NO_BF16,
         extra=("keepdim",))
any_special = Op("diopiAny", _any_all(torch.any), tensors=dict(input=T(special(0.6))), cases=ANY_ALL_CASES[:5], dtypes=HALF_UP,
                 extra=("keepdim",), name="any_special")
all_special = Op("diopiAll", _any_all(torch.all), tensors=dict(input=T(special(0.6))), cases=ANY_ALL_CASES[:5], dtypes=HALF_UP,
                 extra=("keepdim",), name="all_special")

# ---------------------------------------------------------------- argmax / argmin
# The header fixes the index of the first occurrence of a repeated extreme, so ties (frequent in the integer and bool
# cases, whose values are small) are compared too.
ARG_CASES = tuple(((shape,), {"dim": dim, "keepdim": keep}) for shape, dim, keep in (
    ((4, 5), 1, False), ((4, 5), 0, True), ((3, 4, 5), -1, True), ((3, 4, 5), 1, False), ((3, 4, 5), None, False),
    ((3, 4, 5), None, True), ((7,), 0, False), ((), None, False), ((), 0, True), ((1024, 1024), None, False),
    ((64, 4097), 1, False)))


def _arg(fn):
    # torch refuses bool here; false < true, as in uint8.
    return lambda input, dim, keepdim: fn(input.to(torch.uint8) if input.dtype == torch.bool else input, dim, keepdim)


argmax = Op("diopiArgmax", _arg(torch.argmax), tensors=dict(input=T()), cases=ARG_CASES, dtypes=NO_BF16)
argmin = Op("diopiArgmin", _arg(torch.argmin), tensors=dict(input=T()), cases=ARG_CASES, dtypes=NO_BF16)

# ---------------------------------------------------------------- max_all / min_all (non-empty inputs only)
ALL_SHAPES = (((3, 4),), ((),), ((1,),), ((2, 3, 4, 5),), ((2048, 1024),))
max_all = Op("diopiMaxAll", lambda input: torch.max(input), tensors=dict(input=T()), shapes=ALL_SHAPES, dtypes=NO_BF16)
min_all = Op("diopiMinAll", lambda input: torch.min(input), tensors=dict(input=T()), shapes=ALL_SHAPES, dtypes=NO_BF16)
# NaN wins over every number (and so does a NaN in a large input).
max_all_nan = Op("diopiMaxAll", lambda input: torch.max(input), tensors=dict(input=T(special(0.05))),
                 shapes=(((8, 9),), ((3,),)), dtypes=HALF_UP, name="max_all_special")
min_all_nan = Op("diopiMinAll", lambda input: torch.min(input), tensors=dict(input=T(special(0.05))),
                 shapes=(((8, 9),), ((3,),)), dtypes=HALF_UP, name="min_all_special")

# ---------------------------------------------------------------- amax (explicit keepdim; empty dim: all)
AMAX_CASES = tuple(((shape,), {"dim": dims, "keepdim": keep}) for shape, dims, keep in (
    ((3, 4, 5), (1,), False), ((3, 4, 5), (0, 2), True), ((3, 4, 5), (-1,), False), ((3, 4, 5), (), False),
    ((3, 4, 5), (), True), ((6,), (0,), False), ((), (), False), ((2, 3, 4, 5), (1, 2, 3), False), ((256, 1024), (0,), False)))
amax = Op("diopiAmax", lambda self, dim, keepdim: torch.amax(self, list(dim), keepdim), tensors=dict(self=T()),
          cases=AMAX_CASES, dtypes=AMAX_DTYPES)
amax_nan = Op("diopiAmax", lambda self, dim, keepdim: torch.amax(self, list(dim), keepdim), tensors=dict(self=T(special(0.1))),
              cases=AMAX_CASES[:2], dtypes=HALF_UP, name="amax_special")

# ---------------------------------------------------------------- prod (dim NULL: every element)
# Factors near 1 keep long products finite; integer cases use small factors over short extents (int64 results, as
# torch.prod gives).
PROD_CASES = tuple(((shape,), {"dim": dim, "keepdim": keep}) for shape, dim, keep in (
    ((3, 4), 1, False), ((3, 4), 0, True), ((2, 3, 4), -1, False), ((2, 3, 4), None, False), ((2, 3, 4), None, True),
    ((5,), 0, False), ((), None, False), ((0, 3), 0, False), ((0, 3), None, False), ((512, 512), 1, False)))


def _prod(input, dim, keepdim):
    dtype = input.dtype if input.is_floating_point() else torch.int64
    r = torch.prod(input, dtype=dtype) if dim is None else torch.prod(input, dim, keepdim, dtype=dtype)
    return r.reshape([1] * input.dim()) if (dim is None and keepdim) else r


def _prod_terms(input, dim):
    return input.numel() if dim is None else (input.shape[dim] if input.dim() else 1)


prod = Op("diopiProd", _prod, tensors=dict(input=T(uniform(0.8, 1.25))), cases=PROD_CASES, dtypes=FLOAT, extra=("keepdim",),
          accumulation=_prod_terms)
prod_int = Op("diopiProd", _prod, tensors=dict(input=T(randint(-3, 4))), cases=PROD_CASES[:8], dtypes=("int32", "int64"),
              extra=("keepdim",), name="prod_int")
prod_signed = Op("diopiProd", _prod, tensors=dict(input=T(uniform(-1.5, 1.5))), cases=PROD_CASES[:6], dtypes=FLOAT,
                 extra=("keepdim",), accumulation=_prod_terms, name="prod_signed", tol={"bfloat16": (1e-2, 8e-3, 0.03)},
                 tol_reason="a product of n factors rounds n times in bfloat16 (ATen's is 1.2% off for 24): proven for a 3% error")

# ---------------------------------------------------------------- std
STD_SHAPES = (((3, 4, 5), (1,), False), ((3, 4, 5), (0, 2), True), ((3, 4, 5), (), False), ((8,), (0,), False),
              ((2, 3, 4, 5), (-1, 1), False), ((1, 5), (0,), False), ((0, 4), (1,), False), ((512, 2048), (1,), False))
STD_CASES = tuple(((shape,), {"dim": dims, "correction": c, "keepdim": keep})
                  for shape, dims, keep in STD_SHAPES for c in (1, 0, 2, 2.5) if (c == 1 or shape[0] < 512))
std = Op("diopiStd", lambda input, dim, correction, keepdim: torch.std(input, list(dim) or None, correction=correction, keepdim=keepdim),
         tensors=dict(input=T(randn(scale=2.0, shift=1.0))), cases=STD_CASES, dtypes=HALF_UP, extra=("keepdim",),
         accumulation=lambda input, dim: _terms(tuple(input.shape), dim))

# ---------------------------------------------------------------- vector norm and its backward
NORM_PS = (2.0, 1.0, 3.0, 0.5, float("inf"), float("-inf"), 0.0)
NORM_SHAPES = (((3, 4, 5), (1,), False), ((3, 4, 5), (0, 2), True), ((3, 4, 5), (), False), ((3, 4, 5), (), True),
               ((6,), (0,), False), ((), (), False), ((0, 4), (1,), False))
NORM_CASES = tuple(((shape,), {"p": p, "dim": dims, "keepdim": keep}) for shape, dims, keep in NORM_SHAPES for p in NORM_PS) + (
    (((1024, 1024),), {"p": 2.0, "dim": (), "keepdim": False}), (((256, 4096),), {"p": 1.0, "dim": (1,), "keepdim": False}))


def _vnorm(x, p, dim, keepdim):
    return torch.linalg.vector_norm(x, p, dim=list(dim) or None, keepdim=keepdim)


# The reference norms in float64 and rounds once.
norm = Op("diopiNorm", lambda input, p, dim, keepdim: _vnorm(input.double(), p, dim, keepdim).to(input.dtype),
          tensors=dict(input=T()), cases=NORM_CASES, dtypes=HALF_UP, extra=("keepdim",),
          accumulation=lambda input, dim: _terms(tuple(input.shape), dim))
# An integer p passes as an integer scalar.
norm_int_p = Op("diopiNorm", lambda input, p, dim, keepdim: _vnorm(input.double(), p, dim, keepdim).to(input.dtype),
                tensors=dict(input=T()), cases=tuple(((s,), {"p": p, "dim": d, "keepdim": k}) for s, d, k in NORM_SHAPES[:3] for p in (1, 2, 3)),
                dtypes=HALF_UP, extra=("keepdim",), name="norm_int_p")

NORM_BWD_PS = (2.0, 1.0, 3.0, 1.5, float("inf"), float("-inf"), 0.0)
NORM_BWD_CASES = tuple(((_reduced_shape(shape, dims, keep), shape), {"dim": dims, "p": p, "keepdim": keep})
                       for shape, dims, keep in NORM_SHAPES[:6] for p in NORM_BWD_PS) + (
    (((256,), (256, 1024)), {"dim": (1,), "p": 2.0, "keepdim": False}),)


def _norm_saved(self, p, dim, keepdim):
    return {"norm": _vnorm(self.double(), p, dim, keepdim).to(self.dtype)}


def _norm_grad(grad_output, self, p, dim, keepdim):
    x = self.detach().double().requires_grad_(True)
    # p = 0 counts non-zeros: a constant, whose gradient is zero.
    (g,) = torch.autograd.grad(_vnorm(x, p, dim, keepdim), x, grad_output.double(), allow_unused=True, materialize_grads=True)
    return g.to(self.dtype)


# Inputs bounded away from 0 so that fractional p (|x|^(p-1)) stays well conditioned.
norm_backward = Op("diopiNormBackward", _norm_grad, tensors=dict(grad_output=T(), self=T(nonzero(0.25, 2.0))),
                   cases=NORM_BWD_CASES, dtypes=HALF_UP, extra=("keepdim",), prepare=_norm_saved)

# ---------------------------------------------------------------- cumsum and its backward
CUMSUM_CASES = tuple(((shape,), {"dim": dim}) for shape, dim in (
    ((3, 4), 1), ((3, 4), 0), ((2, 3, 4), -1), ((2, 3, 4), 1), ((7,), 0), ((), 0), ((), -1), ((0, 3), 1), ((3, 0), 1),
    ((256, 1024), 1)))  # argmax, max_all and norm take the 1M-element inputs (small outputs)


def _cumsum(input, dim):
    # Float prefix sums in float64, rounded once; integer and bool ones accumulate in int64, as torch.cumsum does.
    if input.is_floating_point():
        return torch.cumsum(input.double(), dim).to(input.dtype)
    return torch.cumsum(input, dim, dtype=torch.int64)


def _extent(input, dim):
    return input.shape[dim] if input.dim() else 1


cumsum = Op("diopiCumsum", _cumsum, tensors=dict(input=T()), cases=CUMSUM_CASES, dtypes=NO_BF16,
            accumulation=_extent)


def _cumsum_grad(grad_output, dim):
    """Suffix sums: the gradient of a prefix sum (float64, rounded once)."""
    g = grad_output.double()
    if g.dim() == 0:
        return grad_output.clone()
    return g.flip(dim).cumsum(dim).flip(dim).to(grad_output.dtype)


cumsum_backward = Op("diopiCumsumBackward", _cumsum_grad, tensors=dict(grad_output=T()),
                     cases=CUMSUM_CASES[:-1] + ((((1024, 256),), {"dim": 0}),), dtypes=HALF_UP,
                     accumulation=lambda grad_output, dim: _extent(grad_output, dim))
