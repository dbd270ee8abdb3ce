"""Sorting and selection: sort (and its backward), argsort, topk, unique.

Indices are compared exactly, so every case keeps them well defined: a stable sort fixes the order of equal
elements, so stable cases use inputs full of ties; an unstable sort, and topk, may order equal elements either
way, so their inputs hold distinct values (`distinct`). Sorted values are compared whatever the ties.
Unique with sorted=false leaves the order of the distinct values to the library, so those cases use inputs whose
result has at most one distinct value or slice (then the order, the inverse and the counts are all fixed).
"""
import dataclasses

import numpy as np

from conformance import dtypes
from conformance.gen import arange_perm, randint, randn
from conformance.reftorch import torch
from conformance.spec import Op, T

SORT_DTYPES = ("float16", "float32", "float64", "int8", "uint8", "int16", "int32", "int64")   # sort, topk
ARGSORT_DTYPES = SORT_DTYPES + ("bool",)
UNIQUE_DTYPES = ARGSORT_DTYPES


@dataclasses.dataclass(frozen=True)
class distinct:
    """Pairwise distinct values, exact in every dtype: a random permutation of 0..n-1 (n = numel), times `step`,
    minus `offset` * n (floats). Integer dtypes take the permutation shifted to fit the dtype (n must fit its range)."""
    step: float = 0.125
    offset: float = 0.5

    def __call__(self, rng, shape, dtype):
        n = int(np.prod(shape)) if len(shape) else 1
        perm = rng.permutation(n).reshape(shape).astype(np.float64)
        if dtype in dtypes.INTEGER:
            info = np.iinfo(dtypes.storage(dtype))
            return dtypes.from_values(perm + max(info.min, -(n // 2)), dtype)
        return dtypes.from_values(perm * self.step - self.offset * n * self.step, dtype)


TIES = randint(0, 4)   # few distinct values: many ties


# ---------------------------------------------------------------- sort
# (shape, dim); shapes stay below 128 elements so that `distinct` fits int8.
SORT_ROWS = (((5, 7), 1), ((5, 7), 0), ((2, 3, 4), -1), ((2, 3, 4), 1), ((9,), 0), ((), 0), ((0, 4), 1), ((3, 1), 1))


def _sort(input, dim, descending, pStable=None):
    v, i = torch.sort(input, dim=dim, descending=descending, stable=bool(pStable))
    return v, i


def _sort_cases(rows, stables):
    return tuple(((s,), {"dim": d, "descending": desc, "pStable": st}) for s, d in rows for desc in (False, True) for st in stables)


sort = Op("diopiSort", _sort, tensors=dict(input=T(distinct())), cases=_sort_cases(SORT_ROWS, (None, False, True)),
          dtypes=SORT_DTYPES)
# A stable sort keeps equal elements in input order, so ties are well defined.
sort_stable_ties = Op("diopiSort", _sort, tensors=dict(input=T(TIES)), cases=_sort_cases(SORT_ROWS, (True,)),
                      dtypes=SORT_DTYPES, name="sort_stable_ties")
# NaN sorts above every number; the NaN-free part is distinct, and NaNs are sorted stably.
sort_nan = Op("diopiSort", lambda input, dim, descending, pStable: torch.sort(input, dim=dim, descending=descending, stable=True),
              tensors=dict(input=T(randn())), prepare=lambda input: {"input": _with_nans(input)},
              cases=tuple(((s,), {"dim": d, "descending": desc, "pStable": True}) for s, d in SORT_ROWS[:2] for desc in (False, True)),
              dtypes=("float32", "float64"), name="sort_nan")
sort_large = Op("diopiSort", _sort, tensors=dict(input=T(arange_perm())),
                cases=((((256, 1024),), {"dim": 1, "descending": False, "pStable": None}),),  # topk_large takes 1M elements
                dtypes=("float32",), name="sort_large")


def _with_nans(x):
    x = x.clone()
    x.view(-1)[::4] = float("nan")
    return x


# ---------------------------------------------------------------- argsort (dim NULL: the last dim)
def _argsort(input, stable, dim, descending):
    x = input.to(torch.uint8) if input.dtype == torch.bool else input  # torch sorts bool as false < true
    return torch.argsort(x, dim=-1 if dim is None else dim, descending=descending, stable=stable)


ARGSORT_ROWS = SORT_ROWS + (((4, 6), None), ((2, 3, 4), None))
argsort = Op("diopiArgsort", _argsort, tensors=dict(input=T(distinct())),
             cases=tuple(((s,), {"stable": st, "dim": d, "descending": desc}) for s, d in ARGSORT_ROWS for desc in (False, True)
                         for st in (False, True)),
             dtypes=SORT_DTYPES)
argsort_stable_ties = Op("diopiArgsort", _argsort, tensors=dict(input=T(TIES)),
                         cases=tuple(((s,), {"stable": True, "dim": d, "descending": desc}) for s, d in ARGSORT_ROWS for desc in (False, True)),
                         dtypes=ARGSORT_DTYPES, name="argsort_stable_ties")
argsort_large = Op("diopiArgsort", _argsort, tensors=dict(input=T(arange_perm())),
                   cases=((((256, 1024),), {"stable": False, "dim": None, "descending": False}),), dtypes=("float32",),
                   name="argsort_large")

# ---------------------------------------------------------------- topk
# (shape, k, dim); sorted=false leaves the order of the k results open, so those cases take k = 1 or an extent of 1.
TOPK_ROWS = (((5, 7), 3, 1), ((5, 7), 1, 0), ((5, 7), 7, 1), ((5, 7), 0, 1), ((2, 3, 4), 2, -1), ((2, 3, 4), 3, 1), ((9,), 4, 0),
             ((), 1, 0), ((0, 4), 2, 1))


def _topk(input, k, dim, largest, sorted):
    return tuple(torch.topk(input, k, dim, largest, sorted))


topk = Op("diopiTopk", _topk, tensors=dict(input=T(distinct())),
          cases=tuple(((s,), {"k": k, "dim": d, "largest": lg, "sorted": True}) for s, k, d in TOPK_ROWS for lg in (True, False))
          + tuple(((s,), {"k": 1, "dim": d, "largest": lg, "sorted": False}) for s, _, d in TOPK_ROWS[:3] for lg in (True, False)),
          dtypes=SORT_DTYPES)
topk_large = Op("diopiTopk", _topk, tensors=dict(input=T(arange_perm())),
                cases=((((1 << 20,),), {"k": 100, "dim": 0, "largest": True, "sorted": True}),
                       (((256, 4096),), {"k": 10, "dim": 1, "largest": False, "sorted": True})),
                dtypes=("float32",), name="topk_large")

# ---------------------------------------------------------------- sort backward
# indices come from a sort (keepdim=true: a permutation along dim) or an arg-max (keepdim=false: dim removed), so no
# position receives two gradients.
SB_ROWS = (((5, 7), 1, True), ((5, 7), 0, True), ((2, 3, 4), -1, True), ((2, 3, 4), 1, False), ((5, 7), 0, False), ((9,), 0, True),
           ((9,), 0, False), ((0, 4), 1, True), ((256, 1024), 1, True))


def _sb_shape(shape, dim, keepdim):
    return shape if keepdim else tuple(s for i, s in enumerate(shape) if i != dim % len(shape))


def _sb_prepare(grad_output, source, dim, keepdim, idx_dtype):
    idx = torch.argsort(source, dim=dim) if keepdim else torch.argmax(source, dim=dim)
    return {"indices": idx.to(getattr(torch, idx_dtype)), "sizes": tuple(source.shape)}


def _sb_ref(grad_output, indices, dim, sizes, keepdim):
    g, idx = grad_output, indices.long()
    if not keepdim:
        g, idx = g.unsqueeze(dim), idx.unsqueeze(dim)
    return torch.zeros(sizes, dtype=g.dtype).scatter(dim, idx, g)


sort_backward = Op("diopiSortBackward", _sb_ref, tensors=dict(grad_output=T(), source=T(randn(), dtype="float64")),
                   cases=tuple(((_sb_shape(s, d, kd), s), {"dim": d, "keepdim": kd, "idx_dtype": it}) for s, d, kd in SB_ROWS
                               for it in (("int64", "int32") if s[0] < 256 else ("int64",))),
                   dtypes=("float16", "bfloat16", "float32", "float64"), prepare=_sb_prepare, extra=("source", "idx_dtype"))

# ---------------------------------------------------------------- unique
UNIQUE_SHAPES = ((12,), (3, 5), (2, 3, 4), (), (0,), (1,), (4096, 64))


def _unique(input, sorted, return_counts, dim=None, with_inverse=True):
    r = torch.unique(input, sorted=True, return_inverse=True, return_counts=True, dim=dim)
    return r[0], (r[1] if with_inverse else None), (r[2] if return_counts else None)


def _unique_cases(shapes, dims, flags, sorted_values=(True,)):
    out = []
    for s in shapes:
        for d in dims(s):
            for srt in sorted_values:
                for rc, inv in flags:
                    out.append(((s,), {"dim": d, "sorted": srt, "return_counts": rc, "with_inverse": inv}))
    return tuple(out)


FLAGS = ((False, False), (True, False), (False, True), (True, True))


unique = Op("diopiUnique", _unique, tensors=dict(input=T(TIES)),
            cases=_unique_cases(UNIQUE_SHAPES[:6], lambda s: (None,), FLAGS) + _unique_cases(UNIQUE_SHAPES[6:], lambda s: (None,), FLAGS[3:]),
            dtypes=UNIQUE_DTYPES, extra=("with_inverse",))
# Distinct slices along dim (rows that repeat: two values per element keep repeats likely).
unique_dim = Op("diopiUnique", _unique, tensors=dict(input=T(randint(0, 2))),
                cases=_unique_cases(((6, 3), (2, 5, 3), (8, 2)), lambda s: tuple(range(len(s))) + (-1,), FLAGS),
                dtypes=UNIQUE_DTYPES, extra=("with_inverse",), name="unique_dim")
# sorted=false: inputs with one distinct value (constant), one element, or none, whose result is order-free.
unique_unsorted = Op("diopiUnique", _unique, tensors=dict(input=T(randint(3, 4))),
                     cases=_unique_cases(((6,), (2, 3), (), (0,), (1,)), lambda s: (None,), FLAGS, sorted_values=(False,))
                     + _unique_cases(((4, 3),), lambda s: (0, 1), FLAGS, sorted_values=(False,)),
                     dtypes=UNIQUE_DTYPES, extra=("with_inverse",), name="unique_unsorted")
