"""Elementwise unary math, out of place and in place: abs, neg, sign, sgn,
floor, ceil, sqrt, rsqrt, reciprocal, trigonometric and hyperbolic functions
and their inverses, exp, expm1, log, log2, log10, log1p, erf, erfinv, isnan.

Inputs stay inside each function's domain (a separate special-value case per
function feeds NaN, +-inf and +-0, and out-of-domain values along with them).
Integer and bool inputs of a floating-point function give a float32 output,
as in PyTorch.

The in-place forms of sin, cos, tan, asin, acos, log and log2 take floating
inputs only: their result is not an integer, and ATen refuses
`int_tensor.sin_()` ("result type Float can't be cast"). DIOPI 1.0 lists
integer dtypes for them; our header does not (tests/test_header_interface.py,
NOT_COMPUTABLE).
"""
from .complex import COMPLEX, crandn, cspecial
from conformance.gen import nonzero, positive, randn, special, uniform
from conformance.reftorch import torch
from conformance.spec import FLOAT, INT, Op, T

SHAPES = (
    ((2, 3),),
    ((),),            # 0-d
    ((0, 5),),        # empty
    ((7,),),          # shorter than a vector register
    ((3, 4, 5, 6),),
    ((65, 67),),      # vector body plus a ragged tail
)
LARGE = (((1024, 1025),),)  # > 1M elements, float32 only
INPLACE_SHAPES = (((2, 3),), ((),), ((0, 5),), ((7,),), ((3, 4, 5, 6),))
SPECIAL_SHAPES = (((5, 32),),)

BOOL = ("bool",)
# Undocumented functions still get a few integer inputs (promotion to float32).
FEW_INT = ("int32", "int64", "uint8")


def unary(cname, fn, gen=randn(), dtypes=FLOAT, *, large=False, special_dtypes=None, inplace=True, inplace_dtypes=FLOAT):
    """The Ops of diopi<cname> and diopi<cname>Inp for torch function `fn`:
    regular inputs from `gen`, special values, and (unless inplace=False) the
    in-place form with the same inputs."""
    stem = "".join("_" + c.lower() if c.isupper() else c for c in cname).lstrip("_")
    ops = [
        Op(f"diopi{cname}", lambda input: getattr(torch, fn)(input), tensors=dict(input=T(gen)),
           shapes=SHAPES + (LARGE if large else ()), dtypes=dtypes),
        Op(f"diopi{cname}", lambda input: getattr(torch, fn)(input), tensors=dict(input=T(special())),
           shapes=SPECIAL_SHAPES, dtypes=special_dtypes or dtypes, name=f"{stem}_special"),
    ]
    if inplace:
        ops += [
            Op(f"diopi{cname}Inp", lambda input: getattr(input, fn + "_")(), tensors=dict(input=T(gen)),
               shapes=INPLACE_SHAPES, dtypes=inplace_dtypes),
            Op(f"diopi{cname}Inp", lambda input: getattr(input, fn + "_")(), tensors=dict(input=T(special())),
               shapes=SPECIAL_SHAPES, dtypes=FLOAT, name=f"{stem}_inp_special"),
        ]
    return tuple(ops)


# ---------------------------------------------------------------- sign and magnitude
# Integer extremes are included: abs(INT_MIN) and neg(INT_MIN) wrap around in two's complement.
abs = unary("Abs", "abs", randn(), FLOAT + INT, large=True, inplace_dtypes=FLOAT + INT)
neg = unary("Neg", "neg", randn(), FLOAT + INT, inplace_dtypes=FLOAT + INT)
sign = unary("Sign", "sign", randn(), FLOAT + INT + BOOL, inplace=False)
sgn = unary("Sgn", "sgn", randn(), FLOAT + INT + BOOL, inplace_dtypes=FLOAT + INT)
# For complex z, sgn(z) = z / |z| (0 for z = 0).
sgn_complex = (
    Op("diopiSgn", lambda input: torch.sgn(input), tensors=dict(input=T(crandn())), shapes=SHAPES, dtypes=COMPLEX,
       name="sgn_complex"),
    Op("diopiSgn", lambda input: torch.sgn(input), tensors=dict(input=T(cspecial())), shapes=SPECIAL_SHAPES,
       dtypes=COMPLEX, name="sgn_complex_special"),
    Op("diopiSgnInp", lambda input: input.sgn_(), tensors=dict(input=T(crandn())), shapes=INPLACE_SHAPES,
       dtypes=COMPLEX, name="sgn_inp_complex"),
)

# ---------------------------------------------------------------- rounding
floor = unary("Floor", "floor", randn(scale=4), FLOAT)
ceil = unary("Ceil", "ceil", randn(scale=4), FLOAT)
# Magnitudes past 2^10 (float16), 2^7 (bfloat16) and beyond: values that are already integers must come back unchanged.
floor_wide = Op("diopiFloor", lambda input: torch.floor(input), tensors=dict(input=T(randn(scale=3000))),
                shapes=(((7,),), ((65, 67),)), dtypes=FLOAT, name="floor_wide")
ceil_wide = Op("diopiCeil", lambda input: torch.ceil(input), tensors=dict(input=T(randn(scale=3000))),
               shapes=(((7,),), ((65, 67),)), dtypes=FLOAT, name="ceil_wide")


# Integer inputs are already integers: floor and ceil return them unchanged (extremes included).
def rounding_of_integers(cname, fn):
    stem = cname.lower()
    out = lambda input: getattr(torch, fn)(input)
    return (
        Op(f"diopi{cname}", out, tensors=dict(input=T(randn(scale=1000))), shapes=SHAPES, dtypes=INT, name=f"{stem}_int"),
        Op(f"diopi{cname}", out, tensors=dict(input=T(special())), shapes=SPECIAL_SHAPES, dtypes=INT,
           name=f"{stem}_int_special"),
        Op(f"diopi{cname}Inp", lambda input: getattr(input, fn + "_")(), tensors=dict(input=T(randn(scale=1000))),
           shapes=INPLACE_SHAPES, dtypes=INT, name=f"{stem}_inp_int"),
    )


floor_int = rounding_of_integers("Floor", "floor")
ceil_int = rounding_of_integers("Ceil", "ceil")

# ---------------------------------------------------------------- roots and reciprocal
# sqrt documents float16 and float32; float64 and bfloat16 are kept (ATen supports them).
sqrt = unary("Sqrt", "sqrt", positive(0.0, 9.0), FLOAT, large=True)
rsqrt = unary("Rsqrt", "rsqrt", positive(0.05, 9.0), FLOAT + FEW_INT)
reciprocal = unary("Reciprocal", "reciprocal", nonzero(0.1, 8.0), FLOAT + FEW_INT)

# ---------------------------------------------------------------- trigonometric
sin = unary("Sin", "sin", randn(scale=3), FLOAT + INT, large=True)
cos = unary("Cos", "cos", randn(scale=3), FLOAT + INT)
# Arguments up to a few thousand: many multiples of pi/2 to reduce (impl/cpu
# vectorises below 4096 and uses libm for blocks beyond, both met here).
sin_wide = Op("diopiSin", lambda input: torch.sin(input), tensors=dict(input=T(randn(scale=1000))),
              shapes=(((7,),), ((65, 67),)), dtypes=FLOAT, name="sin_wide")
cos_wide = Op("diopiCos", lambda input: torch.cos(input), tensors=dict(input=T(randn(scale=1000))),
              shapes=(((7,),), ((65, 67),)), dtypes=FLOAT, name="cos_wide")
# Away from the poles at +-pi/2 (integers: -1, 0, 1).
tan = unary("Tan", "tan", uniform(-1.4, 1.4), FLOAT + INT)
asin = unary("Asin", "asin", uniform(-1.0, 1.0), FLOAT + INT)
acos = unary("Acos", "acos", uniform(-1.0, 1.0), FLOAT + INT)
atan = unary("Atan", "atan", randn(scale=3), FLOAT + FEW_INT)

# ---------------------------------------------------------------- hyperbolic
sinh = unary("Sinh", "sinh", randn(scale=2), FLOAT + FEW_INT)
cosh = unary("Cosh", "cosh", randn(scale=2), FLOAT + FEW_INT)
# diopiTanh is filed under activation in families.tsv; its cases live here with the other unary functions.
tanh = unary("Tanh", "tanh", randn(scale=3), FLOAT + FEW_INT, large=True)
asinh = unary("Asinh", "asinh", randn(scale=3), FLOAT + FEW_INT)
acosh = unary("Acosh", "acosh", uniform(1.0, 8.0), FLOAT + FEW_INT)
atanh = unary("Atanh", "atanh", uniform(-0.95, 0.95), FLOAT + ("int32",))

# ---------------------------------------------------------------- exponentials and logarithms
exp = unary("Exp", "exp", randn(), FLOAT + INT + BOOL, large=True)
expm1 = unary("Expm1", "expm1", randn(), FLOAT + INT + BOOL)
log = unary("Log", "log", positive(0.01, 20.0), FLOAT + INT, large=True)
log2 = unary("Log2", "log2", positive(0.01, 20.0), FLOAT + INT)
log10 = unary("Log10", "log10", positive(0.01, 20.0), FLOAT + FEW_INT)
log1p = unary("Log1p", "log1p", uniform(-0.9, 5.0), FLOAT + FEW_INT)

# ---------------------------------------------------------------- error function
erf = unary("Erf", "erf", randn(scale=2), FLOAT + FEW_INT)
erfinv = unary("Erfinv", "erfinv", uniform(-0.99, 0.99), FLOAT + ("int32",))

# ---------------------------------------------------------------- classification
isnan = (
    Op("diopiIsNan", lambda input: torch.isnan(input), tensors=dict(input=T(special())),
       shapes=SHAPES + LARGE, dtypes=FLOAT + INT + BOOL),
    Op("diopiIsNan", lambda input: torch.isnan(input), tensors=dict(input=T(special(p=0.9))),
       shapes=SPECIAL_SHAPES, dtypes=FLOAT, name="is_nan_mostly_special"),
)
