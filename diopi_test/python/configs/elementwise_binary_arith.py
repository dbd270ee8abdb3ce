"""add, sub, mul, div: tensor and scalar operands, in place and out of place."""
from conformance.gen import nonzero, randn
from conformance.reftorch import torch
from conformance.spec import FLOAT, NUMERIC, Op, T, grid

BINARY_SHAPES = (
    ((2, 3), (2, 3)),
    ((4, 1, 5), (3, 1)),      # broadcasting both ways
    ((), ()),                 # 0-d
    ((0, 3), (1, 3)),         # empty
    ((128, 130), (130,)),
)
INPLACE_SHAPES = ((((2, 3), (2, 3))), ((4, 3, 5), (3, 1)), ((), ()), ((0, 3), (3,)))
UNARY_SHAPES = (((2, 3),), ((),), ((0, 4),), ((64, 65),))

add = Op("diopiAdd", lambda input, other, alpha: torch.add(input, other, alpha=alpha),
         tensors=dict(input=T(), other=T()), shapes=BINARY_SHAPES, dtypes=NUMERIC, params=grid(alpha=[1, 2]))
add_float_alpha = Op("diopiAdd", lambda input, other, alpha: torch.add(input, other, alpha=alpha),
                     tensors=dict(input=T(), other=T()), shapes=BINARY_SHAPES[:2], dtypes=FLOAT, params=grid(alpha=[0.5, -1.25]))
add_inp = Op("diopiAddInp", lambda input, other, alpha: input.add_(other, alpha=alpha),
             tensors=dict(input=T(), other=T()), shapes=INPLACE_SHAPES, dtypes=NUMERIC, params=grid(alpha=[1, 3]))
add_scalar = Op("diopiAddScalar", lambda input, other, alpha: torch.add(input, other, alpha=alpha),
                tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(other=[2.5, -1], alpha=[1, 0.5]))
add_scalar_int = Op("diopiAddScalar", lambda input, other, alpha: torch.add(input, other, alpha=alpha),
                    tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=("int32", "int64", "uint8"), params=grid(other=[3], alpha=[1, 2]))
add_inp_scalar = Op("diopiAddInpScalar", lambda input, other, alpha: input.add_(other, alpha=alpha),
                    tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(other=[2.5], alpha=[1, -2]))

sub = Op("diopiSub", lambda input, other, alpha: torch.sub(input, other, alpha=alpha),
         tensors=dict(input=T(), other=T()), shapes=BINARY_SHAPES, dtypes=FLOAT + ("int32", "int64", "int8"), params=grid(alpha=[1, 2]))
sub_inp = Op("diopiSubInp", lambda input, other, alpha: input.sub_(other, alpha=alpha),
             tensors=dict(input=T(), other=T()), shapes=INPLACE_SHAPES, dtypes=FLOAT, params=grid(alpha=[1, 0.5]))
sub_scalar = Op("diopiSubScalar", lambda input, other, alpha: torch.sub(input, other, alpha=alpha),
                tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(other=[1.5], alpha=[1, 2]))
sub_inp_scalar = Op("diopiSubInpScalar", lambda input, other, alpha: input.sub_(other, alpha=alpha),
                    tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(other=[1.5], alpha=[1]))

mul = Op("diopiMul", lambda input, other: torch.mul(input, other),
         tensors=dict(input=T(), other=T()), shapes=BINARY_SHAPES, dtypes=NUMERIC + ("bool",))
mul_inp = Op("diopiMulInp", lambda input, other: input.mul_(other),
             tensors=dict(input=T(), other=T()), shapes=INPLACE_SHAPES, dtypes=NUMERIC)
mul_scalar = Op("diopiMulScalar", lambda input, other: torch.mul(input, other),
                tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(other=[0.5, -3]))
mul_inp_scalar = Op("diopiMulInpScalar", lambda input, other: input.mul_(other),
                    tensors=dict(input=T()), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(other=[0.5, 4]))

ROUNDING = grid(rounding_mode=[None, "trunc", "floor"])
div = Op("diopiDiv", lambda input, other, rounding_mode: torch.div(input, other, rounding_mode=rounding_mode),
         tensors=dict(input=T(randn(scale=4)), other=T(nonzero())), shapes=BINARY_SHAPES, dtypes=FLOAT, params=ROUNDING)
div_int = Op("diopiDiv", lambda input, other, rounding_mode: torch.div(input, other, rounding_mode=rounding_mode),
             tensors=dict(input=T(randn(int_range=50)), other=T(nonzero(1, 9))), shapes=BINARY_SHAPES[:3],
             dtypes=("int32", "int64"), params=ROUNDING)
div_inp = Op("diopiDivInp", lambda input, other, rounding_mode: input.div_(other, rounding_mode=rounding_mode),
             tensors=dict(input=T(randn(scale=4)), other=T(nonzero())), shapes=INPLACE_SHAPES, dtypes=FLOAT, params=ROUNDING)
div_scalar = Op("diopiDivScalar", lambda input, other, rounding_mode: torch.div(input, other, rounding_mode=rounding_mode),
                tensors=dict(input=T(randn(scale=4))), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(other=[1.5, -0.75], rounding_mode=[None, "trunc", "floor"]))
div_inp_scalar = Op("diopiDivInpScalar", lambda input, other, rounding_mode: input.div_(other, rounding_mode=rounding_mode),
                    tensors=dict(input=T(randn(scale=4))), shapes=UNARY_SHAPES, dtypes=FLOAT, params=grid(other=[1.5], rounding_mode=[None, "floor"]))
