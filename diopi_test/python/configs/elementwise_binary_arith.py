"""Elementwise binary arithmetic: add, sub, mul, div, pow, addcmul/addcdiv,
clamp (both bounds, min only, max only), maximum/minimum, lerp and
remainder; tensor and scalar operands, in place and out of place.

Scalars reach C with the Python type of the value: int -> int64, float ->
float64, bool -> bool (so `2` and `2.0` are different cases). Out-of-place
outputs take PyTorch's promoted dtype; in-place variants keep the input's.
"""
from conformance.gen import mask, nonzero, positive, randint, randn, special, uniform
from conformance.reftorch import torch
from conformance.spec import FLOAT, INT, NUMERIC, SIGNED, Op, T, grid

BINARY_SHAPES = (
    ((2, 3), (2, 3)),
    ((4, 1, 5), (3, 1)),      # broadcasting both ways
    ((), ()),                 # 0-d
    ((0, 3), (1, 3)),         # empty
    ((128, 130), (130,)),
)
INPLACE_SHAPES = ((((2, 3), (2, 3))), ((4, 3, 5), (3, 1)), ((), ()), ((0, 3), (3,)))
UNARY_SHAPES = (((2, 3),), ((),), ((0, 4),), ((64, 65),))
SPECIAL_BINARY = (((64,), (64,)),)
SPECIAL_UNARY = (((64,),),)
# >= 1M elements (float32 only); the broadcast operand stays small.
LARGE_BINARY = (((1024, 1024), (1024,)),)
LARGE_UNARY = (((1024, 1024),),)
# Three operands (addcmul, addcdiv, lerp, clamp): broadcasting between all of them.
TERNARY_SHAPES = (
    ((2, 3), (2, 3), (2, 3)),
    ((4, 1, 5), (3, 1), (1, 5)),
    ((), (), ()),
    ((0, 3), (1, 3), (3,)),
    ((32, 33), (32, 1), (33,)),
)
TERNARY_INPLACE = (
    ((2, 3), (2, 3), (2, 3)),
    ((4, 3, 5), (3, 1), (5,)),
    ((), (), ()),
    ((0, 3), (3,), (1, 3)),
)


def sweep(shapes, first, rest=(), n=1):
    """(shape, params) pairs: `first` on every shape, each of `rest` on the first `n` shapes only."""
    return tuple((s, first) for s in shapes) + tuple((s, p) for p in rest for s in shapes[:n])


def _add(input, other, alpha):
    return torch.add(input, other, alpha=alpha)


def _sub(input, other, alpha):
    return torch.sub(input, other, alpha=alpha)


def _div(input, other, rounding_mode):
    return torch.div(input, other, rounding_mode=rounding_mode)


def _div_(input, other, rounding_mode):
    return input.div_(other, rounding_mode=rounding_mode)


# ---------------------------------------------------------------- add
add = Op("diopiAdd", _add, tensors=dict(input=T(), other=T()), shapes=BINARY_SHAPES, dtypes=NUMERIC, params=grid(alpha=[2]))
add_alpha1 = Op("diopiAdd", _add, tensors=dict(input=T(), other=T()), shapes=BINARY_SHAPES[:2], dtypes=NUMERIC, params=grid(alpha=[1]),
                name="add_alpha1")
add_float_alpha = Op("diopiAdd", _add, tensors=dict(input=T(), other=T()), shapes=BINARY_SHAPES[:2], dtypes=FLOAT,
                     params=grid(alpha=[0.5, -1.25]))
# bool + bool is logical or; the alpha of a bool sum must be bool.
add_bool = Op("diopiAdd", _add, tensors=dict(input=T(), other=T()), shapes=BINARY_SHAPES[:4], dtypes=("bool",),
              params=grid(alpha=[True]), name="add_bool")
# An integer alpha applies to bool tensors too (True + 2 * True is True; alpha 0 leaves input).
add_bool_int_alpha = Op("diopiAdd", _add, tensors=dict(input=T(), other=T()), shapes=BINARY_SHAPES[:4], dtypes=("bool",),
                        params=grid(alpha=[2, 0]), name="add_bool_int_alpha")
# Mixed dtypes: the result takes the promoted dtype.
add_mixed = Op("diopiAdd", _add, tensors=dict(input=T(), other=T(dtype="int32")), shapes=BINARY_SHAPES[:2], dtypes=FLOAT,
               params=grid(alpha=[2]), name="add_mixed_int32")
add_mixed_f32 = Op("diopiAdd", _add, tensors=dict(input=T(), other=T(dtype="float32")), shapes=BINARY_SHAPES[:2],
                   dtypes=("float16", "int64", "uint8", "bool"), params=grid(alpha=[1]), name="add_mixed_float32")
# Floating specials only: integer extremes would overflow, and wrapping is not promised.
add_special = Op("diopiAdd", _add, tensors=dict(input=T(special()), other=T(special())), shapes=SPECIAL_BINARY, dtypes=FLOAT,
                 params=grid(alpha=[1]), name="add_special")
add_large = Op("diopiAdd", _add, tensors=dict(input=T(), other=T()), shapes=LARGE_BINARY, dtypes=("float32",), params=grid(alpha=[2]),
               name="add_large")
add_inp = Op("diopiAddInp", lambda input, other, alpha: input.add_(other, alpha=alpha),
             tensors=dict(input=T(), other=T()), dtypes=NUMERIC, cases=sweep(INPLACE_SHAPES, dict(alpha=3), [dict(alpha=1)]))
add_inp_bool = Op("diopiAddInp", lambda input, other, alpha: input.add_(other, alpha=alpha),
                  tensors=dict(input=T(), other=T()), shapes=INPLACE_SHAPES, dtypes=("bool",), params=grid(alpha=[True]),
                  name="add_inp_bool")
# An integer `other` added into a float input keeps the input's dtype.
add_inp_mixed = Op("diopiAddInp", lambda input, other, alpha: input.add_(other, alpha=alpha),
                   tensors=dict(input=T(), other=T(dtype="int32")), shapes=INPLACE_SHAPES[:2], dtypes=FLOAT, params=grid(alpha=[2]),
                   name="add_inp_mixed")
add_scalar = Op("diopiAddScalar", _add, tensors=dict(input=T()), dtypes=FLOAT,
                cases=sweep(UNARY_SHAPES, dict(other=2.5, alpha=0.5), grid(other=[-1], alpha=[1, 2])))
add_scalar_int = Op("diopiAddScalar", _add, tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=INT, params=grid(other=[3], alpha=[1, 2]))
# A float scalar added to an integer tensor gives a float32 result.
add_scalar_int_float = Op("diopiAddScalar", _add, tensors=dict(input=T()), shapes=UNARY_SHAPES[:2], dtypes=INT,
                          params=grid(other=[2.5], alpha=[1]), name="add_scalar_int_float")
add_inp_scalar = Op("diopiAddInpScalar", lambda input, other, alpha: input.add_(other, alpha=alpha),
                    tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(other=[2.5], alpha=[1, -2]))
add_inp_scalar_int = Op("diopiAddInpScalar", lambda input, other, alpha: input.add_(other, alpha=alpha),
                        tensors=dict(input=T()), shapes=UNARY_SHAPES[:3], dtypes=INT, params=grid(other=[3], alpha=[1, 2]),
                        name="add_inp_scalar_int")
add_inp_scalar_bool = Op("diopiAddInpScalar", lambda input, other, alpha: input.add_(other, alpha=alpha),
                         tensors=dict(input=T()), shapes=UNARY_SHAPES[:3], dtypes=("bool",), params=grid(other=[True, False], alpha=[True]),
                         name="add_inp_scalar_bool")

# ---------------------------------------------------------------- sub
# bool - bool is not defined (PyTorch refuses it), so bool is left out.
sub = Op("diopiSub", _sub, tensors=dict(input=T(), other=T()), shapes=BINARY_SHAPES, dtypes=NUMERIC, params=grid(alpha=[2]))
sub_alpha1 = Op("diopiSub", _sub, tensors=dict(input=T(), other=T()), shapes=BINARY_SHAPES[:1], dtypes=NUMERIC, params=grid(alpha=[1]),
                name="sub_alpha1")
sub_float_alpha = Op("diopiSub", _sub, tensors=dict(input=T(), other=T()), shapes=BINARY_SHAPES[:2], dtypes=FLOAT,
                     params=grid(alpha=[0.5]), name="sub_float_alpha")
sub_mixed = Op("diopiSub", _sub, tensors=dict(input=T(dtype="int64"), other=T()), shapes=BINARY_SHAPES[:2], dtypes=FLOAT,
               params=grid(alpha=[1]), name="sub_mixed_int64")
sub_special = Op("diopiSub", _sub, tensors=dict(input=T(special()), other=T(special())), shapes=SPECIAL_BINARY, dtypes=FLOAT,
                 params=grid(alpha=[1]), name="sub_special")
sub_inp = Op("diopiSubInp", lambda input, other, alpha: input.sub_(other, alpha=alpha),
             tensors=dict(input=T(), other=T()), shapes=INPLACE_SHAPES, dtypes=FLOAT, params=grid(alpha=[1, 0.5]))
sub_inp_int = Op("diopiSubInp", lambda input, other, alpha: input.sub_(other, alpha=alpha),
                 tensors=dict(input=T(), other=T()), dtypes=INT, cases=sweep(INPLACE_SHAPES, dict(alpha=2), [dict(alpha=1)]), name="sub_inp_int")
sub_scalar = Op("diopiSubScalar", _sub, tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(other=[1.5], alpha=[1, 2]))
sub_scalar_int = Op("diopiSubScalar", _sub, tensors=dict(input=T(randn(int_range=20))), dtypes=INT,
                    cases=sweep(UNARY_SHAPES, dict(other=3, alpha=2), [dict(other=3, alpha=1)]), name="sub_scalar_int")
sub_inp_scalar = Op("diopiSubInpScalar", lambda input, other, alpha: input.sub_(other, alpha=alpha),
                    tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(other=[1.5], alpha=[1, -0.5]))
sub_inp_scalar_int = Op("diopiSubInpScalar", lambda input, other, alpha: input.sub_(other, alpha=alpha),
                        tensors=dict(input=T(randn(int_range=20))), shapes=UNARY_SHAPES[:3], dtypes=INT, params=grid(other=[2], alpha=[1, 3]),
                        name="sub_inp_scalar_int")

# ---------------------------------------------------------------- mul
mul = Op("diopiMul", lambda input, other: torch.mul(input, other),
         tensors=dict(input=T(), other=T()), shapes=BINARY_SHAPES, dtypes=NUMERIC + ("bool",))
mul_mixed = Op("diopiMul", lambda input, other: torch.mul(input, other),
               tensors=dict(input=T(), other=T(dtype="bool")), shapes=BINARY_SHAPES[:2], dtypes=FLOAT + ("int32",), name="mul_mixed_bool")
mul_special = Op("diopiMul", lambda input, other: torch.mul(input, other),
                 tensors=dict(input=T(special()), other=T(special())), shapes=SPECIAL_BINARY, dtypes=FLOAT, name="mul_special")
mul_inp = Op("diopiMulInp", lambda input, other: input.mul_(other),
             tensors=dict(input=T(), other=T()), shapes=INPLACE_SHAPES, dtypes=NUMERIC + ("bool",))
mul_scalar = Op("diopiMulScalar", lambda input, other: torch.mul(input, other),
                tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(other=[0.5, -3]))
mul_scalar_int = Op("diopiMulScalar", lambda input, other: torch.mul(input, other),
                    tensors=dict(input=T()), dtypes=INT, cases=sweep(UNARY_SHAPES, dict(other=3), [dict(other=0)]), name="mul_scalar_int")
mul_scalar_bool = Op("diopiMulScalar", lambda input, other: torch.mul(input, other),
                     tensors=dict(input=T()), shapes=UNARY_SHAPES[:3], dtypes=("bool",), params=grid(other=[True, False]),
                     name="mul_scalar_bool")
mul_inp_scalar = Op("diopiMulInpScalar", lambda input, other: input.mul_(other),
                    tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(other=[0.5, 4]))
mul_inp_scalar_int = Op("diopiMulInpScalar", lambda input, other: input.mul_(other),
                        tensors=dict(input=T()), shapes=UNARY_SHAPES[:3], dtypes=INT, params=grid(other=[2]), name="mul_inp_scalar_int")
# a bool tensor keeps its dtype only with a bool factor (torch refuses an int or float one in place)
mul_inp_scalar_bool = Op("diopiMulInpScalar", lambda input, other: input.mul_(other),
                         tensors=dict(input=T()), shapes=UNARY_SHAPES[:3], dtypes=("bool",), params=grid(other=[True, False]),
                         name="mul_inp_scalar_bool")

# ---------------------------------------------------------------- div
ROUNDING = grid(rounding_mode=[None, "trunc", "floor"])
ROUNDED = [dict(rounding_mode="trunc"), dict(rounding_mode="floor")]
div = Op("diopiDiv", _div, tensors=dict(input=T(randn(scale=4)), other=T(nonzero())), dtypes=FLOAT,
         cases=sweep(BINARY_SHAPES, dict(rounding_mode=None), ROUNDED, n=2))
# float16 / bfloat16 trunc and floor round the quotient as computed in the dtype (see diopiDiv), which differs by
# one from rounding the exact quotient for a share of these elements. The quotients stay below the size where the
# dtype's tolerance would absorb a difference of one (float16 under ~780, bfloat16 under ~120); 256 elements keep
# the vectorised path torch takes for every tensor larger than one element.
ROUNDED_HALF = (("float16", uniform(-70, 70), nonzero(0.09, 0.2)), ("bfloat16", uniform(-12, 12), nonzero(0.1, 0.2)))
div_rounded_half = [Op("diopiDiv", _div, tensors=dict(input=T(num), other=T(den)), shapes=(((256,), (256,)), ((16, 16), (16,))),
                       dtypes=(dt,), params=grid(rounding_mode=["trunc", "floor"]), name=f"div_rounded_{dt}")
                    for dt, num, den in ROUNDED_HALF]
div_inp_rounded_half = [Op("diopiDivInp", _div_, tensors=dict(input=T(num), other=T(den)), shapes=(((256,), (256,)),),
                           dtypes=(dt,), params=grid(rounding_mode=["trunc", "floor"]), name=f"div_inp_rounded_{dt}")
                        for dt, num, den in ROUNDED_HALF]
# True division of integers gives float32; trunc/floor keep the integer dtype.
div_int = Op("diopiDiv", _div, tensors=dict(input=T(randn(int_range=50)), other=T(nonzero(1, 9))), shapes=BINARY_SHAPES[:2],
             dtypes=INT, params=ROUNDING)
div_bool = Op("diopiDiv", _div, tensors=dict(input=T(), other=T(nonzero())), shapes=BINARY_SHAPES[:3], dtypes=("bool",),
              params=grid(rounding_mode=[None]), name="div_bool")
div_mixed = Op("diopiDiv", _div, tensors=dict(input=T(randn(scale=4)), other=T(nonzero(1, 9), dtype="int32")), shapes=BINARY_SHAPES[1:2],
               dtypes=FLOAT, params=ROUNDING, name="div_mixed_int32")
# Division by +-0 and of specials (floor division of infinities is left out:
# PyTorch's floor rule derives it from fmod and gives NaN there).
div_special = Op("diopiDiv", _div, tensors=dict(input=T(special()), other=T(special())), shapes=SPECIAL_BINARY, dtypes=FLOAT,
                 params=grid(rounding_mode=[None, "trunc"]), name="div_special")
div_inp = Op("diopiDivInp", _div_, tensors=dict(input=T(randn(scale=4)), other=T(nonzero())), dtypes=FLOAT,
             cases=sweep(INPLACE_SHAPES, dict(rounding_mode=None), ROUNDED, n=2))
# In place, an integer input cannot hold a true quotient: trunc and floor only.
div_inp_int = Op("diopiDivInp", _div_, tensors=dict(input=T(randn(int_range=50)), other=T(nonzero(1, 9))), shapes=INPLACE_SHAPES[:2],
                 dtypes=INT, params=grid(rounding_mode=["trunc", "floor"]), name="div_inp_int")
div_scalar = Op("diopiDivScalar", _div, tensors=dict(input=T(randn(scale=4))), dtypes=FLOAT,
                cases=sweep(UNARY_SHAPES, dict(other=1.5, rounding_mode=None), [dict(other=1.5, **r) for r in ROUNDED], n=2))
div_scalar_neg_float = Op("diopiDivScalar", _div, tensors=dict(input=T(randn(scale=4))), shapes=UNARY_SHAPES[:1], dtypes=FLOAT,
                          params=grid(other=[-0.75], rounding_mode=[None, "trunc", "floor"]), name="div_scalar_neg_float")
div_scalar_int = Op("diopiDivScalar", _div, tensors=dict(input=T(randn(int_range=50))), shapes=UNARY_SHAPES[:2], dtypes=INT,
                    params=grid(other=[3], rounding_mode=[None, "trunc", "floor"]), name="div_scalar_int")
div_scalar_int_float = Op("diopiDivScalar", _div, tensors=dict(input=T(randn(int_range=50))), shapes=UNARY_SHAPES[:1], dtypes=INT,
                          params=grid(other=[2.5], rounding_mode=[None, "floor"]), name="div_scalar_int_float")
div_scalar_neg = Op("diopiDivScalar", _div, tensors=dict(input=T(randn(int_range=50))), shapes=UNARY_SHAPES[:1], dtypes=SIGNED,
                    params=grid(other=[-4], rounding_mode=[None, "trunc", "floor"]), name="div_scalar_neg")
div_scalar_bool = Op("diopiDivScalar", _div, tensors=dict(input=T()), shapes=UNARY_SHAPES[:2], dtypes=("bool",),
                     params=grid(other=[2], rounding_mode=[None]), name="div_scalar_bool")
div_inp_scalar = Op("diopiDivInpScalar", _div_, tensors=dict(input=T(randn(scale=4))), dtypes=FLOAT,
                    cases=sweep(UNARY_SHAPES, dict(other=1.5, rounding_mode=None), [dict(other=-0.75, **r) for r in ROUNDED], n=2))
div_inp_scalar_int = Op("diopiDivInpScalar", _div_, tensors=dict(input=T(randn(int_range=50))), shapes=UNARY_SHAPES[:2], dtypes=INT,
                        params=grid(other=[3], rounding_mode=["trunc", "floor"]), name="div_inp_scalar_int")

# ---------------------------------------------------------------- pow
# Integer powers stay small (|base| <= 3, exponent <= 4) so no dtype overflows;
# integers to negative integer powers are an error in PyTorch and left out.
INT_BASE = uniform(-3, 3)
INT_EXP = uniform(0, 4)
# Exponents PyTorch does not special-case differently from C pow() on NaN/inf/-0.
SPECIAL_EXPONENTS = [0, 2, 3, -1, -2, 1.5]


def _pow(input, exponent):
    return torch.pow(input, exponent)


pow = Op("diopiPow", _pow, tensors=dict(input=T(positive(0.1, 4.0))), dtypes=FLOAT,
         cases=sweep(UNARY_SHAPES, dict(exponent=2), grid(exponent=[0.5, -1.5]), n=2))
pow_neg_base = Op("diopiPow", _pow, tensors=dict(input=T(randn(scale=2))), dtypes=FLOAT,
                  cases=sweep(UNARY_SHAPES[:2], dict(exponent=3), grid(exponent=[-2, 0.5, 0])), name="pow_neg_base")
pow_int = Op("diopiPow", _pow, tensors=dict(input=T(INT_BASE)), shapes=UNARY_SHAPES[:3], dtypes=INT, params=grid(exponent=[0, 3]), name="pow_int")
# An integer tensor to a float power gives float32.
pow_int_float = Op("diopiPow", _pow, tensors=dict(input=T(uniform(0, 9))), shapes=UNARY_SHAPES[:2], dtypes=INT,
                   params=grid(exponent=[0.5]), name="pow_int_float")
pow_bool_exponent = Op("diopiPow", _pow, tensors=dict(input=T()), shapes=UNARY_SHAPES[:1], dtypes=FLOAT + ("int32",),
                       params=grid(exponent=[True, False]), name="pow_bool_exponent")
pow_special = Op("diopiPow", _pow, tensors=dict(input=T(special())), shapes=SPECIAL_UNARY, dtypes=FLOAT,
                 params=grid(exponent=SPECIAL_EXPONENTS), name="pow_special")
pow_large = Op("diopiPow", _pow, tensors=dict(input=T(positive(0.1, 4.0))), shapes=LARGE_UNARY, dtypes=("float32",),
               params=grid(exponent=[2.5]), name="pow_large")
pow_inp = Op("diopiPowInp", lambda input, exponent: input.pow_(exponent), tensors=dict(input=T(positive(0.1, 4.0))),
             dtypes=FLOAT, cases=sweep(UNARY_SHAPES, dict(exponent=2), grid(exponent=[0.5, -1.5])))
# Integer inputs in place: integer exponents only (a float power of an
# integer would be truncated back into it, which is fragile at exact powers).
pow_inp_int = Op("diopiPowInp", lambda input, exponent: input.pow_(exponent), tensors=dict(input=T(INT_BASE)),
                 shapes=UNARY_SHAPES[:3], dtypes=INT, params=grid(exponent=[0, 3]), name="pow_inp_int")
pow_inp_special = Op("diopiPowInp", lambda input, exponent: input.pow_(exponent), tensors=dict(input=T(special())),
                     shapes=SPECIAL_UNARY, dtypes=FLOAT, params=grid(exponent=[2, -1]), name="pow_inp_special")

pow_tensor = Op("diopiPowTensor", _pow, tensors=dict(input=T(positive(0.1, 4.0)), exponent=T(randn())), shapes=BINARY_SHAPES, dtypes=FLOAT)
pow_tensor_int = Op("diopiPowTensor", _pow, tensors=dict(input=T(INT_BASE), exponent=T(INT_EXP)), shapes=BINARY_SHAPES, dtypes=INT,
                    name="pow_tensor_int")
pow_tensor_bool_exponent = Op("diopiPowTensor", _pow, tensors=dict(input=T(randn(scale=2)), exponent=T(mask(), dtype="bool")),
                              shapes=BINARY_SHAPES[:3], dtypes=FLOAT + ("int32",), name="pow_tensor_bool_exponent")
# Mixed dtypes: float base with integer exponents, integer base with float exponents.
pow_tensor_int_exponent = Op("diopiPowTensor", _pow, tensors=dict(input=T(randn(scale=2)), exponent=T(uniform(-3, 4), dtype="int32")),
                             shapes=BINARY_SHAPES[:3], dtypes=FLOAT, name="pow_tensor_int_exponent")
pow_tensor_float_exponent = Op("diopiPowTensor", _pow, tensors=dict(input=T(uniform(0, 9)), exponent=T(randn(), dtype="float32")),
                               shapes=BINARY_SHAPES[:3], dtypes=("int32", "int64", "uint8"), name="pow_tensor_float_exponent")
# C pow() rules: pow(1, NaN) = 1, pow(NaN, 0) = 1, pow(-inf, -inf) = 0, ...
pow_tensor_special = Op("diopiPowTensor", _pow, tensors=dict(input=T(special(0.5)), exponent=T(special(0.5))),
                        shapes=(((16, 1), (16,)),), dtypes=("float32", "float64"), name="pow_tensor_special")
pow_tensor_large = Op("diopiPowTensor", _pow, tensors=dict(input=T(positive(0.1, 4.0)), exponent=T(randn())), shapes=LARGE_BINARY,
                      dtypes=("float32",), name="pow_tensor_large")
pow_inp_tensor = Op("diopiPowInpTensor", lambda input, exponent: input.pow_(exponent),
                    tensors=dict(input=T(positive(0.1, 4.0)), exponent=T(randn())), shapes=INPLACE_SHAPES, dtypes=FLOAT)
pow_inp_tensor_int_exponent = Op("diopiPowInpTensor", lambda input, exponent: input.pow_(exponent),
                                 tensors=dict(input=T(randn(scale=2)), exponent=T(uniform(-3, 4), dtype="int64")), shapes=INPLACE_SHAPES,
                                 dtypes=FLOAT, name="pow_inp_tensor_int_exponent")
pow_inp_tensor_bool_exponent = Op("diopiPowInpTensor", lambda input, exponent: input.pow_(exponent),
                                  tensors=dict(input=T(randn(scale=2)), exponent=T(mask(), dtype="bool")), shapes=INPLACE_SHAPES[:2],
                                  dtypes=FLOAT, name="pow_inp_tensor_bool_exponent")

# diopiPowScalar: a scalar base to a tensor of exponents.
pow_scalar = Op("diopiPowScalar", lambda input, exponent: torch.pow(input, exponent), tensors=dict(exponent=T(randn())),
                dtypes=FLOAT, cases=sweep(UNARY_SHAPES, dict(input=2.0), grid(input=[0.5, 3])))
pow_scalar_int = Op("diopiPowScalar", lambda input, exponent: torch.pow(input, exponent), tensors=dict(exponent=T(INT_EXP)),
                    shapes=UNARY_SHAPES[:2], dtypes=INT, params=grid(input=[2, 3, 2.5]), name="pow_scalar_int")
pow_scalar_neg = Op("diopiPowScalar", lambda input, exponent: torch.pow(input, exponent), tensors=dict(exponent=T(INT_EXP)),
                    shapes=UNARY_SHAPES[:2], dtypes=SIGNED, params=grid(input=[-2]), name="pow_scalar_neg")
pow_scalar_bool = Op("diopiPowScalar", lambda input, exponent: torch.pow(input, exponent), tensors=dict(exponent=T()),
                     shapes=UNARY_SHAPES[:3], dtypes=("bool",), params=grid(input=[2.5, 3]), name="pow_scalar_bool")
pow_scalar_special = Op("diopiPowScalar", lambda input, exponent: torch.pow(input, exponent), tensors=dict(exponent=T(special())),
                        shapes=SPECIAL_UNARY, dtypes=FLOAT, params=grid(input=[2.0, 0.5, 1.0]), name="pow_scalar_special")

# ---------------------------------------------------------------- addcmul, addcdiv: input + value * t1 (*|/) t2


def _addcmul(input, tensor1, tensor2, value):
    return torch.addcmul(input, tensor1, tensor2, value=value)


def _addcdiv(input, tensor1, tensor2, value):
    return torch.addcdiv(input, tensor1, tensor2, value=value)


# value=0.5 on every shape, the other values on the first.
VALUES = dict(cases=sweep(TERNARY_SHAPES, dict(value=0.5), grid(value=[1.0, -2.0])))
addcmul = Op("diopiAddcmul", _addcmul, tensors=dict(input=T(), tensor1=T(), tensor2=T()), dtypes=FLOAT, **VALUES)
addcmul_special = Op("diopiAddcmul", _addcmul, tensors=dict(input=T(special()), tensor1=T(special()), tensor2=T()),
                     shapes=(((64,), (64,), (64,)),), dtypes=FLOAT, params=grid(value=[1.0]), name="addcmul_special")
addcmul_large = Op("diopiAddcmul", _addcmul, tensors=dict(input=T(), tensor1=T(), tensor2=T()),
                   shapes=(((1024, 1024), (1024, 1), (1024,)),), dtypes=("float32",), params=grid(value=[0.5]), name="addcmul_large")
addcmul_inp = Op("diopiAddcmulInp", lambda input, tensor1, tensor2, value: input.addcmul_(tensor1, tensor2, value=value),
                 tensors=dict(input=T(), tensor1=T(), tensor2=T()), shapes=TERNARY_INPLACE, dtypes=FLOAT, params=grid(value=[1.0, -0.5]))
addcdiv = Op("diopiAddcdiv", _addcdiv, tensors=dict(input=T(), tensor1=T(), tensor2=T(nonzero())), dtypes=FLOAT, **VALUES)
addcdiv_special = Op("diopiAddcdiv", _addcdiv, tensors=dict(input=T(special()), tensor1=T(special()), tensor2=T(special())),
                     shapes=(((64,), (64,), (64,)),), dtypes=FLOAT, params=grid(value=[1.0]), name="addcdiv_special")
addcdiv_inp = Op("diopiAddcdivInp", lambda input, tensor1, tensor2, value: input.addcdiv_(tensor1, tensor2, value=value),
                 tensors=dict(input=T(), tensor1=T(), tensor2=T(nonzero())), shapes=TERNARY_INPLACE, dtypes=FLOAT,
                 params=grid(value=[1.0, -0.5]))

# ---------------------------------------------------------------- clamp
# min(max(input, min), max): where min > max every element becomes max. A
# NULL (None) bound leaves that side open. Integer inputs with float bounds
# give float32 out of place; in place they keep the input dtype, so the
# in-place integer cases use integer-valued bounds (no rounding question).
LO, HI = uniform(-1.0, 0.0), uniform(0.0, 1.0)
LO_INT, HI_INT = randint(-4, 0), randint(0, 5)
CLAMP_SCALAR_BOUNDS = (dict(min=-0.5, max=0.5), dict(min=None, max=0.3), dict(min=-0.2, max=None), dict(min=1.0, max=-1.0))


def _clamp(input, min=None, max=None):
    return torch.clamp(input, min=min, max=max)


def _clamp_(input, min=None, max=None):
    # PyTorch refuses an in-place float clamp of an integer tensor; DIOPI
    # writes the clamped value back in the input's dtype.
    return input.copy_(torch.clamp(input, min=min, max=max))


clamp_scalar = Op("diopiClampScalar", _clamp, tensors=dict(input=T()), dtypes=FLOAT,
                  cases=sweep(UNARY_SHAPES, CLAMP_SCALAR_BOUNDS[0], CLAMP_SCALAR_BOUNDS[1:], n=2))
clamp_scalar_int = Op("diopiClampScalar", _clamp, tensors=dict(input=T()), shapes=UNARY_SHAPES[:2], dtypes=SIGNED,
                      params=(dict(min=-2.5, max=3.5), dict(min=-2.0, max=None), dict(min=None, max=1.0)), name="clamp_scalar_int")
clamp_scalar_special = Op("diopiClampScalar", _clamp, tensors=dict(input=T(special())), shapes=SPECIAL_UNARY, dtypes=FLOAT,
                          params=(dict(min=-1.0, max=1.0),), name="clamp_scalar_special")
clamp_scalar_large = Op("diopiClampScalar", _clamp, tensors=dict(input=T()), shapes=LARGE_UNARY, dtypes=("float32",),
                        params=(dict(min=-0.5, max=0.5),), name="clamp_scalar_large")
clamp_inp_scalar = Op("diopiClampInpScalar", _clamp_, tensors=dict(input=T()), dtypes=FLOAT,
                      cases=sweep(UNARY_SHAPES, CLAMP_SCALAR_BOUNDS[0], CLAMP_SCALAR_BOUNDS[1:]))
clamp_inp_scalar_int = Op("diopiClampInpScalar", _clamp_, tensors=dict(input=T()), shapes=UNARY_SHAPES[:2], dtypes=SIGNED,
                          params=(dict(min=-2.0, max=3.0), dict(min=None, max=1.0), dict(min=0.0, max=None)), name="clamp_inp_scalar_int")

clamp = Op("diopiClamp", _clamp, tensors=dict(input=T(), min=T(LO), max=T(HI)), shapes=TERNARY_SHAPES, dtypes=FLOAT)
clamp_min_only = Op("diopiClamp", _clamp, tensors=dict(input=T(), min=T(LO)), shapes=BINARY_SHAPES[:2], dtypes=FLOAT,
                    params=grid(max=[None]), name="clamp_min_only")
clamp_max_only = Op("diopiClamp", _clamp, tensors=dict(input=T(), max=T(HI)), shapes=BINARY_SHAPES[:2], dtypes=FLOAT,
                    params=grid(min=[None]), name="clamp_max_only")
clamp_crossed = Op("diopiClamp", _clamp, tensors=dict(input=T(), min=T(uniform(0.5, 1.0)), max=T(uniform(-1.0, -0.5))),
                   shapes=TERNARY_SHAPES[:2], dtypes=FLOAT, name="clamp_crossed")
clamp_int = Op("diopiClamp", _clamp, tensors=dict(input=T(), min=T(uniform(-5.0, 2.0), dtype="float32"), max=T(uniform(2.0, 8.0), dtype="float32")),
               shapes=TERNARY_SHAPES[:2], dtypes=INT, name="clamp_int")
clamp_mixed = Op("diopiClamp", _clamp, tensors=dict(input=T(), min=T(LO, dtype="float64"), max=T(HI, dtype="float64")),
                 shapes=TERNARY_SHAPES[:2], dtypes=("float16", "float32"), name="clamp_mixed_float64")
# Specials in the input (NaN stays NaN, infinities are clamped); the bounds stay finite.
clamp_special = Op("diopiClamp", _clamp, tensors=dict(input=T(special()), min=T(LO), max=T(HI)),
                   shapes=(((64,), (64,), (64,)),), dtypes=FLOAT, name="clamp_special")
clamp_inp = Op("diopiClampInp", _clamp_, tensors=dict(input=T(), min=T(LO), max=T(HI)), shapes=TERNARY_INPLACE, dtypes=FLOAT)
clamp_inp_min_only = Op("diopiClampInp", _clamp_, tensors=dict(input=T(), min=T(LO)), shapes=INPLACE_SHAPES[:2], dtypes=FLOAT,
                        params=grid(max=[None]), name="clamp_inp_min_only")
clamp_inp_max_only = Op("diopiClampInp", _clamp_, tensors=dict(input=T(), max=T(HI)), shapes=INPLACE_SHAPES[:2], dtypes=FLOAT,
                        params=grid(min=[None]), name="clamp_inp_max_only")
clamp_inp_int = Op("diopiClampInp", _clamp_, tensors=dict(input=T(), min=T(LO_INT, dtype="float32"), max=T(HI_INT, dtype="float32")),
                   shapes=TERNARY_INPLACE, dtypes=SIGNED, name="clamp_inp_int")


def _clamp_max(input, max):
    return torch.clamp_max(input, max)


def _clamp_max_(input, max):
    return input.copy_(torch.clamp_max(input, max))


def _clamp_min(input, min):
    return torch.clamp_min(input, min)


def _clamp_min_(input, min):
    return input.copy_(torch.clamp_min(input, min))


clamp_max_scalar = Op("diopiClampMaxScalar", _clamp_max, tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(max=[0.3, -1.0]))
clamp_max_scalar_int = Op("diopiClampMaxScalar", _clamp_max, tensors=dict(input=T()), shapes=UNARY_SHAPES[:2], dtypes=SIGNED,
                          params=grid(max=[2.5, -1.0]), name="clamp_max_scalar_int")
clamp_max_scalar_special = Op("diopiClampMaxScalar", _clamp_max, tensors=dict(input=T(special())), shapes=SPECIAL_UNARY, dtypes=FLOAT,
                              params=grid(max=[0.5]), name="clamp_max_scalar_special")
clamp_max_inp_scalar = Op("diopiClampMaxInpScalar", _clamp_max_, tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT,
                          params=grid(max=[0.3, -1.0]))
clamp_max_inp_scalar_int = Op("diopiClampMaxInpScalar", _clamp_max_, tensors=dict(input=T()), shapes=UNARY_SHAPES[:3], dtypes=SIGNED,
                              params=grid(max=[2.0, -1.0]), name="clamp_max_inp_scalar_int")
clamp_max = Op("diopiClampMax", _clamp_max, tensors=dict(input=T(), max=T()), shapes=BINARY_SHAPES, dtypes=FLOAT)
clamp_max_int = Op("diopiClampMax", _clamp_max, tensors=dict(input=T(), max=T(uniform(-3.0, 3.0), dtype="float32")), shapes=BINARY_SHAPES[:3],
                   dtypes=SIGNED, name="clamp_max_int")
clamp_max_special = Op("diopiClampMax", _clamp_max, tensors=dict(input=T(special()), max=T(HI)), shapes=SPECIAL_BINARY,
                       dtypes=FLOAT, name="clamp_max_special")
clamp_max_inp = Op("diopiClampMaxInp", _clamp_max_, tensors=dict(input=T(), max=T()), shapes=INPLACE_SHAPES, dtypes=FLOAT)
clamp_max_inp_int = Op("diopiClampMaxInp", _clamp_max_, tensors=dict(input=T(), max=T(randint(-3, 4), dtype="float32")),
                       shapes=INPLACE_SHAPES, dtypes=SIGNED, name="clamp_max_inp_int")

clamp_min_scalar = Op("diopiClampMinScalar", _clamp_min, tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(min=[-0.3, 1.0]))
clamp_min_scalar_int = Op("diopiClampMinScalar", _clamp_min, tensors=dict(input=T()), shapes=UNARY_SHAPES[:2], dtypes=SIGNED,
                          params=grid(min=[-2.5, 1.0]), name="clamp_min_scalar_int")
clamp_min_scalar_special = Op("diopiClampMinScalar", _clamp_min, tensors=dict(input=T(special())), shapes=SPECIAL_UNARY, dtypes=FLOAT,
                              params=grid(min=[-0.5]), name="clamp_min_scalar_special")
clamp_min_inp_scalar = Op("diopiClampMinInpScalar", _clamp_min_, tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT,
                          params=grid(min=[-0.3, 1.0]))
clamp_min_inp_scalar_int = Op("diopiClampMinInpScalar", _clamp_min_, tensors=dict(input=T()), shapes=UNARY_SHAPES[:3], dtypes=SIGNED,
                              params=grid(min=[-2.0, 1.0]), name="clamp_min_inp_scalar_int")
clamp_min = Op("diopiClampMin", _clamp_min, tensors=dict(input=T(), min=T()), shapes=BINARY_SHAPES, dtypes=FLOAT)
clamp_min_int = Op("diopiClampMin", _clamp_min, tensors=dict(input=T(), min=T(uniform(-3.0, 3.0), dtype="float32")), shapes=BINARY_SHAPES[:3],
                   dtypes=SIGNED, name="clamp_min_int")
clamp_min_special = Op("diopiClampMin", _clamp_min, tensors=dict(input=T(special()), min=T(LO)), shapes=SPECIAL_BINARY,
                       dtypes=FLOAT, name="clamp_min_special")
clamp_min_inp = Op("diopiClampMinInp", _clamp_min_, tensors=dict(input=T(), min=T()), shapes=INPLACE_SHAPES, dtypes=FLOAT)
clamp_min_inp_int = Op("diopiClampMinInp", _clamp_min_, tensors=dict(input=T(), min=T(randint(-3, 4), dtype="float32")),
                       shapes=INPLACE_SHAPES, dtypes=SIGNED, name="clamp_min_inp_int")

# ---------------------------------------------------------------- maximum, minimum (NaN propagates)
ALL_DTYPES = NUMERIC + ("bool",)
maximum = Op("diopiMaximum", lambda input, other: torch.maximum(input, other), tensors=dict(input=T(), other=T()),
             shapes=BINARY_SHAPES, dtypes=ALL_DTYPES)
maximum_mixed = Op("diopiMaximum", lambda input, other: torch.maximum(input, other), tensors=dict(input=T(), other=T(dtype="int32")),
                   shapes=BINARY_SHAPES[:2], dtypes=FLOAT + ("int64",), name="maximum_mixed_int32")
maximum_special = Op("diopiMaximum", lambda input, other: torch.maximum(input, other), tensors=dict(input=T(special()), other=T(special())),
                     shapes=SPECIAL_BINARY, dtypes=FLOAT + INT, name="maximum_special")
maximum_large = Op("diopiMaximum", lambda input, other: torch.maximum(input, other), tensors=dict(input=T(), other=T()),
                   shapes=LARGE_BINARY, dtypes=("float32",), name="maximum_large")
minimum = Op("diopiMinimum", lambda input, other: torch.minimum(input, other), tensors=dict(input=T(), other=T()),
             shapes=BINARY_SHAPES, dtypes=ALL_DTYPES)
minimum_mixed = Op("diopiMinimum", lambda input, other: torch.minimum(input, other), tensors=dict(input=T(), other=T(dtype="float32")),
                   shapes=BINARY_SHAPES[:2], dtypes=("float16", "int32", "uint8", "bool"), name="minimum_mixed_float32")
minimum_special = Op("diopiMinimum", lambda input, other: torch.minimum(input, other), tensors=dict(input=T(special()), other=T(special())),
                     shapes=SPECIAL_BINARY, dtypes=FLOAT + INT, name="minimum_special")

# ---------------------------------------------------------------- lerp: input + weight * (end - input)
# Floating dtypes only (PyTorch has no integer lerp).
lerp_tensor = Op("diopiLerpTensor", lambda input, end, weight: torch.lerp(input, end, weight),
                 tensors=dict(input=T(), end=T(), weight=T(uniform(-0.5, 1.5))), shapes=TERNARY_SHAPES, dtypes=FLOAT)
# 0/1 weights give exactly input / end.
lerp_tensor_ends = Op("diopiLerpTensor", lambda input, end, weight: torch.lerp(input, end, weight),
                      tensors=dict(input=T(), end=T(), weight=T(randint(0, 2))), shapes=TERNARY_SHAPES[:2], dtypes=FLOAT, name="lerp_tensor_ends")
lerp_tensor_large = Op("diopiLerpTensor", lambda input, end, weight: torch.lerp(input, end, weight),
                       tensors=dict(input=T(), end=T(), weight=T(uniform(0.0, 1.0))), shapes=(((1024, 1024), (1024,), (1024, 1)),),
                       dtypes=("float32",), name="lerp_tensor_large")
lerp_scalar = Op("diopiLerpScalar", lambda input, end, weight: torch.lerp(input, end, weight),
                 tensors=dict(input=T(), end=T()), shapes=BINARY_SHAPES, dtypes=FLOAT, params=grid(weight=[0.3, 0.75]))
# The end points and weights outside [0, 1] (extrapolation).
lerp_scalar_edges = Op("diopiLerpScalar", lambda input, end, weight: torch.lerp(input, end, weight),
                       tensors=dict(input=T(), end=T()), shapes=BINARY_SHAPES[:2], dtypes=FLOAT, params=grid(weight=[0.0, 1.0, -0.5, 1.5]),
                       name="lerp_scalar_edges")

# ---------------------------------------------------------------- remainder: input - floor(input / other) * other
# (the result has the divisor's sign). Integer divisors are never 0 (an error
# in PyTorch); negative integer scalars are kept away from uint8 (they would wrap).


def _remainder(input, other):
    return torch.remainder(input, other)


remainder_tensor = Op("diopiRemainderTensor", _remainder, tensors=dict(input=T(randn(scale=4)), other=T(nonzero())), shapes=BINARY_SHAPES,
                      dtypes=FLOAT)
remainder_tensor_int = Op("diopiRemainderTensor", _remainder, tensors=dict(input=T(randn(int_range=50)), other=T(nonzero(1, 9))),
                          shapes=BINARY_SHAPES, dtypes=INT, name="remainder_tensor_int")
remainder_tensor_mixed = Op("diopiRemainderTensor", _remainder, tensors=dict(input=T(randn(int_range=50)), other=T(nonzero(), dtype="float32")),
                            shapes=BINARY_SHAPES[:2], dtypes=("int32", "int64", "uint8"), name="remainder_tensor_mixed_float32")
remainder_tensor_special = Op("diopiRemainderTensor", _remainder, tensors=dict(input=T(special()), other=T(nonzero())),
                              shapes=SPECIAL_BINARY, dtypes=FLOAT, name="remainder_tensor_special")
remainder_scalar = Op("diopiRemainderScalar", _remainder, tensors=dict(input=T(randn(scale=4))), shapes=UNARY_SHAPES[:3], dtypes=FLOAT,
                      params=grid(other=[1.5, -0.7, 3]))
remainder_scalar_int = Op("diopiRemainderScalar", _remainder, tensors=dict(input=T(randn(int_range=50))), shapes=UNARY_SHAPES[:2],
                          dtypes=INT, params=grid(other=[3, 7, 2.5]), name="remainder_scalar_int")
remainder_scalar_neg = Op("diopiRemainderScalar", _remainder, tensors=dict(input=T(randn(int_range=50))), shapes=UNARY_SHAPES[:2],
                          dtypes=SIGNED, params=grid(other=[-4]), name="remainder_scalar_neg")
remainder_scalar_special = Op("diopiRemainderScalar", _remainder, tensors=dict(input=T(special())), shapes=SPECIAL_UNARY, dtypes=FLOAT,
                              params=grid(other=[2.0, -1.5]), name="remainder_scalar_special")
# diopiRemainder: a scalar dividend, a tensor of divisors.
remainder = Op("diopiRemainder", lambda input, other: torch.remainder(input, other), tensors=dict(other=T(nonzero())),
               shapes=UNARY_SHAPES[:3], dtypes=FLOAT, params=grid(input=[2.5, -7, 0.3]))
remainder_int = Op("diopiRemainder", lambda input, other: torch.remainder(input, other), tensors=dict(other=T(nonzero(1, 9))),
                   shapes=UNARY_SHAPES[:3], dtypes=INT, params=grid(input=[5, 2.5]), name="remainder_int")
remainder_neg = Op("diopiRemainder", lambda input, other: torch.remainder(input, other), tensors=dict(other=T(nonzero(1, 9))),
                   shapes=UNARY_SHAPES[:2], dtypes=SIGNED, params=grid(input=[-7]), name="remainder_neg")
