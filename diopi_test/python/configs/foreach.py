"""Foreach operators: add / mul of a list of tensors by one scalar or one 0-d tensor (out-of-place and in place)
and the per-tensor vector norm.

The references are the torch._foreach_* functions the header names; results follow torch's type promotion (an
integer list plus a float scalar gives float outputs). In-place variants keep the list's dtype, so they take only
scalars that do not promote it (torch refuses the others).
"""
import math

from conformance.gen import randn
from conformance.reftorch import torch
from conformance.spec import Op, T, TList

# dtypes the header lists for the foreach lists (no bfloat16)
_FLOATS = ("float64", "float32", "float16")
_INTS = ("int64", "int32", "int16", "int8", "uint8")
_ALL = _FLOATS + _INTS + ("bool",)

# lists of shapes: one tensor, mixed ranks with a 0-d and an empty one, a 4-D one (channels_last applies), many
# small ones, and one large list
_LISTS = (((3, 4),), ((5,), (2, 3), (), (0, 4)), ((2, 3, 4, 5), (7,)), ((1,), (2,), (3,), (4,), (5,), (6,), (7,), (8,)),
          ((16, 16), (4, 4, 4)), ((300, 256), (1000,)))
# one list of >= 1M elements for the norm only (its outputs are 0-d, so the baseline stays small)
_HUGE = ((1024, 1024), (7,))


def _lists():
    # no empty list: torch's foreach functions refuse one
    return [list(s) for s in _LISTS]


def _cases(scalars, extra_shapes=()):
    out = []
    for ls in _lists():
        big = sum(math.prod(s) for s in ls) > 65536
        for v in (scalars[:1] if big else scalars):
            out.append(((ls,) + tuple(extra_shapes), dict(other=v)))
    return tuple(out)


_NUMBERS = (2, -3, 1.5, -0.25, 0)
_INT_NUMBERS = (2, -3, 0, 1)


def _add(inputs, other):
    return list(torch._foreach_add(inputs, other))


def _mul(inputs, other):
    return list(torch._foreach_mul(inputs, other))


def _add_inp(inputs, other):
    torch._foreach_add_(inputs, other)
    return inputs


def _mul_inp(inputs, other):
    torch._foreach_mul_(inputs, other)
    return inputs


foreachadd_scalar = Op("diopiForeachaddScalar", _add, tensors=dict(inputs=TList()), cases=_cases(_NUMBERS), dtypes=_ALL)
foreachmul_scalar = Op("diopiForeachmulScalar", _mul, tensors=dict(inputs=TList()), cases=_cases(_NUMBERS), dtypes=_ALL)

foreachadd_inp_scalar = [
    Op("diopiForeachaddInpScalar", _add_inp, tensors=dict(inputs=TList()), cases=_cases(_NUMBERS), dtypes=_FLOATS),
    Op("diopiForeachaddInpScalar", _add_inp, tensors=dict(inputs=TList()), cases=_cases(_INT_NUMBERS), dtypes=_INTS,
       name="foreachadd_inp_scalar_int"),
]
foreachmul_inp_scalar = [
    Op("diopiForeachmulInpScalar", _mul_inp, tensors=dict(inputs=TList()), cases=_cases(_NUMBERS), dtypes=_FLOATS),
    Op("diopiForeachmulInpScalar", _mul_inp, tensors=dict(inputs=TList()), cases=_cases(_INT_NUMBERS), dtypes=_INTS,
       name="foreachmul_inp_scalar_int"),
    # a bool list stays bool only when multiplied by a bool
    Op("diopiForeachmulInpScalar", _mul_inp, tensors=dict(inputs=TList()), cases=_cases((True, False)), dtypes=("bool",),
       name="foreachmul_inp_scalar_bool"),
]


# ---------------------------------------------------------------- multiplication by a 0-d tensor
def _tensor_cases():
    out = []
    for ls in _lists():
        out.append(((ls, ()), {}))
    return tuple(out)


foreachmul_tensor = [
    Op("diopiForeachmulTensor", _mul, tensors=dict(inputs=TList(), other=T(randn(2.0))), cases=_tensor_cases(), dtypes=_ALL),
    # a float multiplier promotes integer lists to float outputs
    Op("diopiForeachmulTensor", _mul, tensors=dict(inputs=TList(), other=T(randn(2.0), "float32")), cases=_tensor_cases(),
       dtypes=_INTS + ("bool", "float16", "float64"), name="foreachmul_tensor_f32"),
]
foreachmul_inp_tensor = [
    Op("diopiForeachmulInpTensor", _mul_inp, tensors=dict(inputs=TList(), other=T(randn(2.0))),
       cases=_tensor_cases(), dtypes=_FLOATS + _INTS),
    # a bool list stays bool only when multiplied by a bool
    Op("diopiForeachmulInpTensor", _mul_inp, tensors=dict(inputs=TList(), other=T(randn(2.0))),
       cases=_tensor_cases(), dtypes=("bool",), name="foreachmul_inp_tensor_bool"),
]


# ---------------------------------------------------------------- norms
def _norm(inputs, ord):
    return [torch.linalg.vector_norm(x.double(), ord).to(x.dtype) for x in inputs]


def _norm_cases():
    out = []
    for ls in _lists():
        big = sum(math.prod(s) for s in ls) > 65536
        for o in ((2,) if big else (2, 1, 3, 0.5, float("inf"), 0)):
            if o == float("inf") and any(0 in s for s in ls):
                continue  # the infinity norm of an empty tensor is undefined (torch raises)
            out.append(((ls,), dict(ord=o)))
    out.append(((list(_HUGE),), dict(ord=2)))
    return tuple(out)


foreachnorm_scalar = Op("diopiForeachnormScalar", _norm, tensors=dict(inputs=TList()), cases=_norm_cases(), dtypes=_FLOATS,
                        accumulation=lambda inputs: max([x.numel() for x in inputs] + [1]))
