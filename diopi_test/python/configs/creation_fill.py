"""fill, zero_inp, ones, zeros, arange, linspace and meshgrid."""
from conformance.reftorch import torch
from conformance.spec import ALL, FLOAT, Op, T, TList, grid

fill = Op("diopiFill", lambda input, value: input.fill_(value), tensors=dict(input=T()),
          shapes=(((2, 3),), ((),), ((0, 2),), ((512, 512),)), dtypes=FLOAT, params=grid(value=[1.5, -2, 0.0]))
fill_int = Op("diopiFill", lambda input, value: input.fill_(value), tensors=dict(input=T()),
              shapes=(((2, 3),), ((),)), dtypes=ALL, params=grid(value=[1, 0]), name="fill_int")


# ---------------------------------------------------------------- creation
# Creation functions take no input tensor: `like` (a 0-d tensor of the case dtype, seen by the reference only)
# carries the dtype of the output the harness allocates.
_LIKE = dict(like=T())
_INT_OUT = ("int16", "int32", "int64")


def _arange(like, start, end, step):
    return torch.arange(start, end, step, dtype=torch.float64).to(like.dtype)


arange = Op("diopiArange", _arange, tensors=_LIKE, extra=("like",), dtypes=("float32", "float64"),
            cases=tuple((((),), dict(start=a, end=b, step=c))
                        for a, b, c in ((0, 10, 1), (0.5, 3.7, 0.3), (10, -2, -1.5), (1, 1, 1), (-5, 5, 0.25), (3, 4, 5),
                                        (0.0, 1.0, 0.1), (-1e3, 1e3, 7), (0, 70000, 1), (0, 1, 1),
                                        (-2.5, -2.4, 0.01), (100, 0, -3), (0.1, 0.9, 0.2), (-1, 1, 1e-3), (5, 6.5, 0.5), (1e6, 1e6 + 10, 1),
                                        (0, -10, -0.75), (7, 8, 0.125))))


def _linspace(like, start, end, steps):
    return torch.linspace(start, end, steps, dtype=like.dtype)


linspace = Op("diopiLinspace", _linspace, tensors=_LIKE, extra=("like",), dtypes=("float32", "float64", "float16") + _INT_OUT,
              cases=tuple((((),), dict(start=a, end=b, steps=n))
                          for a, b, n in ((0, 10, 11), (0.0, 1.0, 5), (-3.5, 2.25, 7), (5, -5, 4), (2, 2, 3), (1.5, 8, 1), (0, 1, 0),
                                          (-100, 100, 1000), (0, 1, 20000))))


def _meshgrid(inputs):
    return [g for g in torch.meshgrid(*inputs, indexing="ij")]


meshgrid = Op("diopiMeshGrid", _meshgrid, tensors=dict(inputs=TList()), dtypes=("float32", "float64"),
              shapes=(([(3,)],), ([(3,), (4,)],), ([(2,), (3,), (4,)],), ([(), (5,)],), ([(0,), (3,)],), ([(1,), (2,), (3,), (2,)],),
                      ([(256,), (300,)],), ([(1,)],), ([(5,), (1,)],), ([(2,), (), (3,)],), ([(4,), (4,), (4,)],), ([(3,), (2,), (1,), (2,), (2,)],),
                      ([(7,), (0,)],), ([(9,), (6,)],), ([(), ()],)))

_SIZES = ((2, 3), (), (0, 4), (7,), (2, 3, 4, 5), (1, 1, 1), (5, 1, 6, 2, 3))
_CREATE_DTYPES = ("float32", "float64", "float16") + _INT_OUT + ("int8", "uint8")

ones = Op("diopiOnes", lambda like, size: torch.ones(size, dtype=like.dtype), tensors=_LIKE, extra=("like",), dtypes=_CREATE_DTYPES,
          cases=tuple((((),), dict(size=s)) for s in _SIZES))
zeros = Op("diopiZeros", lambda like, size: torch.zeros(size, dtype=like.dtype), tensors=_LIKE, extra=("like",), dtypes=_CREATE_DTYPES,
           cases=tuple((((),), dict(size=s)) for s in _SIZES))
zero_inp = Op("diopiZeroInp", lambda self: torch.zeros_like(self), tensors=dict(self=T()), dtypes=_CREATE_DTYPES + ("bfloat16",),
              shapes=tuple((s,) for s in _SIZES + ((300, 256),)))
