"""Logical and/or/not, bitwise and/or/not, comparisons eq/ne/ge/gt/le/lt
(tensor and scalar operands, in place and out of place) and equal.

Out-of-place comparisons and logical ops give bool. In-place variants write
the 0/1 result into the input's own dtype. Inputs are drawn from a few small
integers so that ties (and zeros, for logical ops) are frequent in every
dtype. Scalars reach C with the Python type of the value (int -> int64,
float -> float64, bool -> bool); negative integer scalars are kept away from
uint8 (PyTorch would wrap them into the tensor's dtype first).
"""
from conformance.gen import randint, special
from conformance.reftorch import torch
from conformance.spec import FLOAT, INT, NUMERIC, SIGNED, Op, T, grid

ALL = NUMERIC + ("bool",)
INT_BOOL = INT + ("bool",)
TIES = randint(-2, 3)       # -2..2: equal elements are common
ZEROS = randint(-1, 2)      # -1, 0, 1: a third are false

BINARY_SHAPES = (
    ((2, 3), (2, 3)),
    ((4, 1, 5), (3, 1)),      # broadcasting both ways
    ((), ()),                 # 0-d
    ((0, 3), (1, 3)),         # empty
    ((33, 65), (65,)),
)
INPLACE_SHAPES = (((2, 3), (2, 3)), ((4, 3, 5), (3, 1)), ((), ()), ((0, 3), (3,)))
UNARY_SHAPES = (((2, 3),), ((),), ((0, 4),), ((33, 65),))
SPECIAL_BINARY = (((64,), (64,)),)
SPECIAL_UNARY = (((64,),),)
# >= 1M elements; the broadcast operand stays small.
LARGE_BINARY = (((1024, 1024), (1024,)),)
LARGE_UNARY = (((1024, 1024),),)

# ---------------------------------------------------------------- logical


def _logical(name):
    fn = lambda input, other: getattr(torch, f"logical_{name}")(input, other)  # noqa: E731
    inp = lambda input, other: getattr(input, f"logical_{name}_")(other)  # noqa: E731
    C = name.capitalize()
    return [
        Op(f"diopiLogical{C}", fn, tensors=dict(input=T(ZEROS), other=T(ZEROS)), shapes=BINARY_SHAPES, dtypes=ALL),
        Op(f"diopiLogical{C}", fn, tensors=dict(input=T(special()), other=T(special())), shapes=SPECIAL_BINARY, dtypes=FLOAT,
           name=f"logical_{name}_special"),  # NaN and inf are true, +-0 false
        Op(f"diopiLogical{C}", fn, tensors=dict(input=T(ZEROS), other=T(ZEROS, dtype="bool")), shapes=BINARY_SHAPES[:2],
           dtypes=("float32", "int32", "uint8"), name=f"logical_{name}_mixed_bool"),
        Op(f"diopiLogical{C}Inp", inp, tensors=dict(input=T(ZEROS), other=T(ZEROS)), shapes=INPLACE_SHAPES, dtypes=ALL),
        Op(f"diopiLogical{C}Inp", inp, tensors=dict(input=T(ZEROS), other=T(ZEROS, dtype="float32")), shapes=INPLACE_SHAPES[:2],
           dtypes=("float16", "int64", "bool"), name=f"logical_{name}_inp_mixed_float32"),
        Op(f"diopiLogical{C}Inp", inp, tensors=dict(input=T(special()), other=T(special())), shapes=SPECIAL_BINARY, dtypes=FLOAT,
           name=f"logical_{name}_inp_special"),
    ]


logical_and = _logical("and")
logical_and_large = Op("diopiLogicalAnd", lambda input, other: torch.logical_and(input, other), tensors=dict(input=T(ZEROS), other=T(ZEROS)),
                       shapes=LARGE_BINARY, dtypes=("float32",), name="logical_and_large")
logical_or = _logical("or")
logical_not = [
    Op("diopiLogicalNot", lambda input: torch.logical_not(input), tensors=dict(input=T(ZEROS)), shapes=UNARY_SHAPES, dtypes=ALL),
    Op("diopiLogicalNot", lambda input: torch.logical_not(input), tensors=dict(input=T(special())), shapes=SPECIAL_UNARY, dtypes=FLOAT,
       name="logical_not_special"),
    Op("diopiLogicalNotInp", lambda input: input.logical_not_(), tensors=dict(input=T(ZEROS)), shapes=UNARY_SHAPES, dtypes=ALL),
    Op("diopiLogicalNotInp", lambda input: input.logical_not_(), tensors=dict(input=T(special())), shapes=SPECIAL_UNARY, dtypes=FLOAT,
       name="logical_not_inp_special"),
]

# ---------------------------------------------------------------- bitwise (integers and bool)
# Integer specials mix each dtype's extremes with small values (all bit patterns matter).
SCALAR_OPERANDS = (
    (SIGNED, [-4, 53, 0]),
    (("uint8",), [53, 240]),
    (("bool",), [True, False]),
)


def _bitwise(name):
    fn = lambda input, other: getattr(torch, f"bitwise_{name}")(input, other)  # noqa: E731
    inp = lambda input, other: getattr(input, f"bitwise_{name}_")(other)  # noqa: E731
    C = name.capitalize()
    ops = [
        Op(f"diopiBitwise{C}", fn, tensors=dict(input=T(special()), other=T(special())), shapes=BINARY_SHAPES, dtypes=INT_BOOL),
        Op(f"diopiBitwise{C}", fn, tensors=dict(input=T(special()), other=T(special(), dtype="int16")), shapes=BINARY_SHAPES[:2],
           dtypes=("int8", "uint8", "bool"), name=f"bitwise_{name}_mixed_int16"),
        Op(f"diopiBitwise{C}Inp", inp, tensors=dict(input=T(special()), other=T(special())), shapes=INPLACE_SHAPES, dtypes=INT_BOOL),
    ]
    for dtypes, values in SCALAR_OPERANDS:
        tag = dtypes[0] if len(dtypes) == 1 else "signed"
        ops.append(Op(f"diopiBitwise{C}Scalar", fn, tensors=dict(input=T(special())), shapes=UNARY_SHAPES[:3], dtypes=dtypes,
                      params=grid(other=values), name=f"bitwise_{name}_scalar_{tag}"))
        ops.append(Op(f"diopiBitwise{C}InpScalar", inp, tensors=dict(input=T(special())), shapes=UNARY_SHAPES[:2], dtypes=dtypes,
                      params=grid(other=values), name=f"bitwise_{name}_inp_scalar_{tag}"))
    return ops


bitwise_and = _bitwise("and")
bitwise_and_large = Op("diopiBitwiseAnd", lambda input, other: torch.bitwise_and(input, other),
                       tensors=dict(input=T(special()), other=T(special())), shapes=LARGE_BINARY,
                       dtypes=("uint8",), large_dtypes=("uint8",), name="bitwise_and_large")
bitwise_or = _bitwise("or")
bitwise_not = [
    Op("diopiBitwiseNot", lambda input: torch.bitwise_not(input), tensors=dict(input=T(special())), shapes=UNARY_SHAPES, dtypes=INT_BOOL),
    Op("diopiBitwiseNot", lambda input: torch.bitwise_not(input), tensors=dict(input=T(special())), shapes=LARGE_UNARY,
       dtypes=("int16",), large_dtypes=("int16",), name="bitwise_not_large"),
    Op("diopiBitwiseNotInp", lambda input: input.bitwise_not_(), tensors=dict(input=T(special())), shapes=UNARY_SHAPES, dtypes=INT_BOOL),
]

# ---------------------------------------------------------------- comparisons


def _comparison(name):
    fn = lambda input, other: getattr(torch, name)(input, other)  # noqa: E731
    inp = lambda input, other: getattr(input, f"{name}_")(other)  # noqa: E731
    C = name.capitalize()
    return [
        Op(f"diopi{C}", fn, tensors=dict(input=T(TIES), other=T(TIES)), shapes=BINARY_SHAPES, dtypes=ALL),
        # NaN compares unequal to everything (itself included); infinities order.
        Op(f"diopi{C}", fn, tensors=dict(input=T(special()), other=T(special())), shapes=SPECIAL_BINARY, dtypes=FLOAT + INT,
           name=f"{name}_special"),
        Op(f"diopi{C}", fn, tensors=dict(input=T(TIES), other=T(TIES, dtype="float32")), shapes=BINARY_SHAPES[1:2],
           dtypes=("float16", "int32", "int64", "uint8", "bool"), name=f"{name}_mixed_float32"),
        Op(f"diopi{C}Inp", inp, tensors=dict(input=T(TIES), other=T(TIES)), shapes=INPLACE_SHAPES, dtypes=ALL),
        Op(f"diopi{C}Inp", inp, tensors=dict(input=T(TIES), other=T(TIES, dtype="float32")), shapes=INPLACE_SHAPES[1:2],
           dtypes=("float16", "int32", "bool"), name=f"{name}_inp_mixed_float32"),
        Op(f"diopi{C}Inp", inp, tensors=dict(input=T(special()), other=T(special())), shapes=SPECIAL_BINARY, dtypes=FLOAT,
           name=f"{name}_inp_special"),
        Op(f"diopi{C}Scalar", fn, tensors=dict(input=T(TIES)), dtypes=ALL,
           cases=((((33, 65),), dict(other=1)), (((),), dict(other=-1.5)), (((0, 4),), dict(other=1)), (((2, 3),), dict(other=True)))),
        Op(f"diopi{C}Scalar", fn, tensors=dict(input=T(TIES)), shapes=UNARY_SHAPES[:1], dtypes=SIGNED + FLOAT,
           params=grid(other=[-1]), name=f"{name}_scalar_negative"),
        Op(f"diopi{C}Scalar", fn, tensors=dict(input=T(special())), shapes=SPECIAL_UNARY, dtypes=FLOAT,
           params=grid(other=[0.0, float("inf"), float("nan")]), name=f"{name}_scalar_special"),
        Op(f"diopi{C}InpScalar", inp, tensors=dict(input=T(TIES)), dtypes=ALL,
           cases=((((2, 3),), dict(other=1)), (((),), dict(other=-1.5)), (((0, 4),), dict(other=0)))),
        Op(f"diopi{C}InpScalar", inp, tensors=dict(input=T(special())), shapes=SPECIAL_UNARY, dtypes=FLOAT,
           params=grid(other=[0.0, float("-inf")]), name=f"{name}_inp_scalar_special"),
    ]


eq = _comparison("eq")
ne = _comparison("ne")
ge = _comparison("ge")
gt = _comparison("gt")
le = _comparison("le")
lt = _comparison("lt")
lt_large = Op("diopiLt", lambda input, other: torch.lt(input, other), tensors=dict(input=T(TIES), other=T(TIES)),
              shapes=LARGE_BINARY, dtypes=("float32",), name="lt_large")
eq_scalar_large = Op("diopiEqScalar", lambda input, other: torch.eq(input, other), tensors=dict(input=T(TIES)),
                     shapes=LARGE_UNARY, dtypes=("int8",), large_dtypes=("int8",), params=grid(other=[1]), name="eq_scalar_large")

# ---------------------------------------------------------------- equal: same shape and all elements equal


def _equal_prepare(input, other, mode):
    """other for a case: an independent draw, a copy of input, or a copy with
    one element changed."""
    if mode == "random":
        return {}
    o = input.clone()
    if mode == "one_diff" and o.numel():
        flat = o.view(-1)
        flat[-1] = ~flat[-1] if o.dtype == torch.bool else flat[-1] + 1
    if mode == "signed_zero":
        o = torch.where(o == 0, -o, o)  # -0 equals +0
    return {"other": o}


def _equal(input, other):
    return torch.equal(input, other)


equal = Op("diopiEqual", _equal, tensors=dict(input=T(TIES), other=T(TIES)), dtypes=ALL, extra=("mode",), prepare=_equal_prepare,
           cases=(
               (((2, 3), (2, 3)), dict(mode="same")),
               (((2, 3), (2, 3)), dict(mode="random")),
               (((2, 3), (2, 3)), dict(mode="one_diff")),
               (((33, 65), (33, 65)), dict(mode="one_diff")),
           ))
equal_edges = Op("diopiEqual", _equal, tensors=dict(input=T(TIES), other=T(TIES)), dtypes=("float32", "int64", "bool"), extra=("mode",),
                 prepare=_equal_prepare, name="equal_edges",
                 cases=(
                     (((), ()), dict(mode="same")),
                     (((), ()), dict(mode="one_diff")),
                     (((0, 3), (0, 3)), dict(mode="same")),
                     (((2, 3), (3, 2)), dict(mode="random")),     # different shapes: unequal
                     (((2, 3), (3,)), dict(mode="random")),       # broadcastable is not enough
                 ))
equal_large = Op("diopiEqual", _equal, tensors=dict(input=T(TIES), other=T(TIES)), dtypes=("int8",), large_dtypes=("int8",), extra=("mode",),
                 prepare=_equal_prepare, cases=((((1024, 1024), (1024, 1024)), dict(mode="same")),), name="equal_large")
# NaN makes a tensor unequal to its own copy; -0 and +0 are equal.
equal_special = Op("diopiEqual", _equal, tensors=dict(input=T(special()), other=T(special())), dtypes=FLOAT, extra=("mode",),
                   prepare=_equal_prepare, cases=((((64,), (64,)), dict(mode="same")),), name="equal_special")
equal_signed_zero = Op("diopiEqual", _equal, tensors=dict(input=T(TIES), other=T(TIES)), dtypes=FLOAT, extra=("mode",),
                       prepare=_equal_prepare, cases=((((4, 5), (4, 5)), dict(mode="signed_zero")),), name="equal_signed_zero")

# ---------------------------------------------------------------- isin: membership in a set of values
ISIN_DTYPES = ("float64", "float32", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8")


def _isin(elements, test_elements, assume_unique, invert):
    return torch.isin(elements, test_elements, assume_unique=assume_unique, invert=invert)


isin = Op("diopiIsIn", _isin, tensors=dict(elements=T(TIES), test_elements=T(TIES)), dtypes=ISIN_DTYPES,
          shapes=(((2, 3), (4,)), ((5,), (2, 2)), ((), (3,)), ((0, 4), (3,)), ((3, 4), (0,)), ((33, 65), (5,))),
          params=grid(assume_unique=[False], invert=[False, True]))
# A generation step: the last token of each sequence against the end tokens (int64 ids).
isin_tokens = Op("diopiIsIn", _isin, tensors=dict(elements=T(randint(0, 128)), test_elements=T(randint(0, 128))),
                 dtypes=("int64",), shapes=(((8,), (3,)), ((1,), (1,))), params=grid(assume_unique=[False], invert=[False]),
                 name="isin_tokens")
# NaN is a member of nothing, not even of a set that holds NaN.
isin_special = Op("diopiIsIn", _isin, tensors=dict(elements=T(special()), test_elements=T(special())), dtypes=FLOAT,
                  shapes=(((64,), (64,)),), params=grid(assume_unique=[False], invert=[False, True]), name="isin_special")
