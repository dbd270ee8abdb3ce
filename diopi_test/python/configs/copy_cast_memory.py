"""cast_dtype (every pair of dtypes) and copy_inp (with broadcasting)."""
from conformance.gen import randn
from conformance.reftorch import torch
from conformance.spec import ALL, Op, T

_TORCH_NAMES = {"bool": "bool"}


def _cast(to):
    return lambda input: input.to(getattr(torch, to))


cast_dtype = [
    Op("diopiCastDtype", _cast(to), tensors=dict(input=T(randn(scale=20))), shapes=(((3, 4),), ((),), ((0,),)),
       dtypes=tuple(d for d in ALL if d != to), name=f"cast_dtype_to_{to}")
    for to in ALL
]

copy_inp = Op("diopiCopyInp", lambda src, dest: dest.copy_(src), tensors=dict(src=T(), dest=T()),
              shapes=(((2, 3), (2, 3)), ((3,), (4, 3)), ((), (2, 2)), ((256, 256), (256, 256))), dtypes=ALL)
