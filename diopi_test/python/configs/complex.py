"""Complex numbers: polar, complex (built from two real tensors), and conj,
real, imag (taken from complex tensors; conj and real also accept real
tensors, where they are the identity).

Complex inputs come from the local generators below (conformance.gen makes
real values only).

Dtypes: polar and complex take float32 / float64 parts. float16 parts would
give complex32, which the harness cannot store (and ATen's complex32
support is experimental); bfloat16 has no complex counterpart.
"""
import dataclasses
import math

import numpy as np

from conformance import dtypes as dt
from conformance.gen import positive, randn, special, uniform
from conformance.reftorch import torch
from conformance.spec import FLOAT, Op, T

COMPLEX = ("complex64", "complex128")
PARTS = ("float32", "float64")


@dataclasses.dataclass(frozen=True)
class crandn:
    """Complex dtypes: real and imaginary parts Normal(0, scale); real dtypes: randn."""
    scale: float = 1.0

    def __call__(self, rng, shape, dtype):
        if dtype not in dt.COMPLEX:
            return randn(scale=self.scale)(rng, shape, dtype)
        z = rng.standard_normal(shape) * self.scale + 1j * (rng.standard_normal(shape) * self.scale)
        return np.asarray(z).astype(dt.storage(dtype))


@dataclasses.dataclass(frozen=True)
class cspecial:
    """Complex dtypes: each part independently salted with NaN, +-inf and +-0
    (a fraction `p` of each); real dtypes: gen.special."""
    p: float = 0.25

    def __call__(self, rng, shape, dtype):
        if dtype not in dt.COMPLEX:
            return special(self.p)(rng, shape, dtype)
        re = special(self.p)(rng, shape, "float64")
        im = special(self.p)(rng, shape, "float64")
        z = np.empty(shape, dtype=np.complex128)
        z.real, z.imag = re, im
        return z.astype(dt.storage(dtype))


SHAPES = (
    ((2, 3),),
    ((),),            # 0-d
    ((0, 5),),        # empty
    ((7,),),
    ((3, 4, 5, 6),),
    ((65, 67),),      # vector body plus a ragged tail
)
SPECIAL_SHAPES = (((5, 32),),)
BINARY_SHAPES = (
    ((2, 3), (2, 3)),
    ((), ()),                 # 0-d
    ((0, 5), (0, 5)),         # empty
    ((4, 1, 5), (3, 1)),      # broadcasting both ways
    ((3, 4, 5, 6), (6,)),
    ((65, 67), (65, 67)),
    ((), (3, 4)),             # 0-d against a tensor
)

# ---------------------------------------------------------------- building complex numbers
polar = (
    Op("diopiPolar", lambda abs, angle: torch.polar(abs, angle),
       tensors=dict(abs=T(positive(0.0, 5.0)), angle=T(uniform(-math.pi, math.pi))),
       shapes=BINARY_SHAPES, dtypes=PARTS),
    # Large angles (argument reduction) and a negative radius.
    Op("diopiPolar", lambda abs, angle: torch.polar(abs, angle),
       tensors=dict(abs=T(randn(scale=3)), angle=T(randn(scale=100))),
       shapes=BINARY_SHAPES[:4], dtypes=PARTS, name="polar_wide"),
    Op("diopiPolar", lambda abs, angle: torch.polar(abs, angle),
       tensors=dict(abs=T(special()), angle=T(special())),
       shapes=(((5, 32), (5, 32)),), dtypes=PARTS, name="polar_special"),
)

complex = (
    Op("diopiComplex", lambda real, imag: torch.complex(real, imag),
       tensors=dict(real=T(randn()), imag=T(randn())), shapes=BINARY_SHAPES, dtypes=PARTS),
    Op("diopiComplex", lambda real, imag: torch.complex(real, imag),
       tensors=dict(real=T(special()), imag=T(special())),
       shapes=(((5, 32), (5, 32)),), dtypes=PARTS, name="complex_special"),
)

# ---------------------------------------------------------------- taking them apart
conj = (
    Op("diopiConj", lambda input: torch.conj_physical(input), tensors=dict(input=T(crandn())),
       shapes=SHAPES, dtypes=COMPLEX + FLOAT),
    Op("diopiConj", lambda input: torch.conj_physical(input), tensors=dict(input=T(cspecial())),
       shapes=SPECIAL_SHAPES, dtypes=COMPLEX + FLOAT, name="conj_special"),
)

real = (
    Op("diopiReal", lambda input: torch.real(input).clone(), tensors=dict(input=T(crandn())),
       shapes=SHAPES, dtypes=COMPLEX + FLOAT),
    Op("diopiReal", lambda input: torch.real(input).clone(), tensors=dict(input=T(cspecial())),
       shapes=SPECIAL_SHAPES, dtypes=COMPLEX + FLOAT, name="real_special"),
)

imag = (
    Op("diopiImag", lambda input: torch.imag(input).clone(), tensors=dict(input=T(crandn())),
       shapes=SHAPES, dtypes=COMPLEX),
    Op("diopiImag", lambda input: torch.imag(input).clone(), tensors=dict(input=T(cspecial())),
       shapes=SPECIAL_SHAPES, dtypes=COMPLEX, name="imag_special"),
)
