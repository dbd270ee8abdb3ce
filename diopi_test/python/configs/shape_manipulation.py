"""cat, stack (lists of tensors) and transpose."""
from conformance.reftorch import torch
from conformance.spec import ALL, Op, T, TList

cat = Op("diopiCat", lambda tensors, dim: torch.cat(tensors, dim), tensors=dict(tensors=TList()),
         cases=(([[(2, 3), (4, 3)]], {"dim": 0}), ([[(2, 3), (2, 1), (2, 5)]], {"dim": 1}), ([[(2, 3, 4)]], {"dim": -1}),
                ([[(0, 3), (2, 3)]], {"dim": 0}), ([[(64, 512), (64, 512)]], {"dim": 1})),
         dtypes=ALL)
stack = Op("diopiStack", lambda tensors, dim: torch.stack(tensors, dim), tensors=dict(tensors=TList()),
           cases=(([[(2, 3), (2, 3)]], {"dim": 0}), ([[(2, 3)] * 3], {"dim": 2}), ([[(4,), (4,)]], {"dim": -1})),
           dtypes=ALL)
transpose = Op("diopiTranspose", lambda input, dim0, dim1: torch.transpose(input, dim0, dim1).contiguous(), tensors=dict(input=T()),
               cases=((((2, 3),), {"dim0": 0, "dim1": 1}), (((2, 3, 4),), {"dim0": 0, "dim1": 2}), (((5,),), {"dim0": 0, "dim1": -1})),
               dtypes=ALL)
