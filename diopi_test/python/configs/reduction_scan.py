"""sum and mean over lists of dims, max and min along one dim.

DIOPI has no keepdim argument: the rank of the output the caller passes
says whether reduced dims are kept, so keepdim is a harness-side parameter.
"""
from conformance.reftorch import torch
from conformance.spec import FLOAT, NUMERIC, Op, T

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
         cases=MAX_CASES, dtypes=FLOAT + ("int32", "int64", "uint8"), extra=("keepdim",))
min = Op("diopiMin", lambda input, dim, keepdim: tuple(torch.min(input, dim, keepdim)), tensors=dict(input=T()),
         cases=MAX_CASES, dtypes=FLOAT + ("int32", "int64", "uint8"), extra=("keepdim",))
