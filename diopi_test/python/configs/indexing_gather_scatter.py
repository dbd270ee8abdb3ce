"""Indexing, gather and scatter: advanced indexing (index, index_put and their
backward), index_select, select, slice and their scatters/backwards, masked
fill/select/scatter, where, nonzero, index_fill, gather/scatter, one_hot and
embedding.

Index tensors are generated as wide random integers and wrapped into range by
`prepare` (so one config serves every shape). Where writes to the same place
would make the result order-dependent (scatter without a reduction, index_put
without accumulate), indices are distinct along the written dimension.
Backward references come from torch.autograd (in float64) for floating dtypes.
"""
import numpy as np

from conformance import dtypes as _dt
from conformance.gen import arange_perm, mask, randint, randn, special, uniform
from conformance.reftorch import torch, F
from conformance.spec import FLOAT_NO_BF16, INT, Op, T, TList, grid

# The dtypes the interface documents for most of these functions (bfloat16 is not among them).
ALL9 = FLOAT_NO_BF16 + INT + ("bool",)
ALL10 = ALL9 + ("bfloat16",)  # backward functions that models call in bfloat16 (the captured case sets)
INT_BOOL = INT + ("bool",)
F3 = FLOAT_NO_BF16
WIDE = randint(0, 1 << 20)  # wrapped into range by prepare
_SLICE = slice


class _sparse:
    """Values of the dtype, half of them zero (nonzero, masks)."""

    def __call__(self, rng, shape, dtype):
        vals = randn()(rng, shape, dtype)
        keep = rng.random(shape) < 0.5
        return _dt.from_values(np.where(keep, vals.astype(np.float64) if dtype != "bool" else vals, 0), dtype)


class _zeros:
    def __call__(self, rng, shape, dtype):
        return _dt.from_values(np.zeros(shape), dtype)


def _size(t, dim):
    return t.shape[dim] if t.dim() else 1


def _f64_grad(fn, wrt, grad_output, dtype):
    x = wrt.detach().double().requires_grad_(True)
    y = fn(x)
    (g,) = torch.autograd.grad(y, x, grad_output.double())
    return g.to(dtype)


def _u8(indices):
    return tuple(i.bool() if i.dtype == torch.uint8 else i for i in indices)


# ============================================================ index (advanced indexing)
# (input, [index shapes]); integer indices are generated in [-3, 3) so negative positions are covered
# (every indexed dim has at least 3 elements).
INDEX_INT_CASES = (
    ((5, 4), [(3,)]),
    ((4, 4, 3), [(2, 3), (3,)]),          # index tensors broadcast against each other
    ((4, 5), [(6,), (6,)]),
    ((3, 4, 5), [(2, 1), (1, 3)]),
    ((3, 4, 5), [(2, 2), (2, 2), (2, 2)]),                          # 0-d index: one element out
    ((4, 3), [(0,)]),                      # no indices
)
index = Op("diopiIndex", lambda input, indices: input[_u8(indices)],
           tensors=dict(input=T(), indices=TList(randint(-3, 3), dtype="int64")),
           shapes=INDEX_INT_CASES, dtypes=ALL9 + ("bfloat16",))
index_0d = Op("diopiIndex", lambda input, indices: input[_u8(indices)],
              tensors=dict(input=T(), indices=TList(randint(-3, 3), dtype="int64")),
              shapes=(((6,), [()]), ((4, 3), [(), ()])), dtypes=("float16", "float32", "int8", "bool"), name="index_0d")  # 0-d indices
index_medium = Op("diopiIndex", lambda input, indices: input[_u8(indices)],
                 tensors=dict(input=T(), indices=TList(randint(0, 512), dtype="int64")),
                 shapes=(((512, 256), [(512,)]),), dtypes=("float32",), name="index_medium")
index_i32 = Op("diopiIndex", lambda input, indices: input[_u8(indices)],
               tensors=dict(input=T(), indices=TList(randint(-3, 3), dtype="int32")),
               shapes=INDEX_INT_CASES[:5], dtypes=("float32", "int64", "bool"), name="index_i32")
INDEX_MASK_CASES = (
    ((3, 4), [(3, 4)]),
    ((3, 4), [(3,)]),
    ((2, 3, 4), [(2, 3)]),
    ((5,), [(5,)]),
    ((0, 2), [(0,)]),
)
index_mask = Op("diopiIndex", lambda input, indices: input[_u8(indices)],
                tensors=dict(input=T(), indices=TList(mask(), dtype="bool")),
                shapes=INDEX_MASK_CASES, dtypes=F3 + ("int32", "bool"), name="index_mask")
index_mask_u8 = Op("diopiIndex", lambda input, indices: input[_u8(indices)],
                   tensors=dict(input=T(), indices=TList(mask(), dtype="uint8")),
                   shapes=INDEX_MASK_CASES[:3], dtypes=("float32", "int32"), name="index_mask_u8")


def _index_grad(zeros_like_input, indices, grad_output):
    g = _f64_grad(lambda x: x[_u8(indices)], zeros_like_input, grad_output, zeros_like_input.dtype)
    return g, None  # zeros_like_input is scratch space: its content after the call is not checked


# (zeros_like_input, [indices], grad_output); repeated indices accumulate.
INDEX_BW_CASES = (
    ((5, 4), [(3,)], (3, 4)),
    ((5, 4), [(8,)], (8, 4)),              # repeats are certain
    ((4, 4, 3), [(2, 3), (3,)], (2, 3, 3)),
    ((3, 4, 5), [(2, 1), (1, 3)], (2, 3, 5)),
    ((6,), [()], ()),
    ((4, 3), [(0,)], (0, 3)),
)
index_backward = Op("diopiIndexBackward", _index_grad,
                    tensors=dict(zeros_like_input=T(_zeros()), indices=TList(randint(-3, 3), dtype="int64"), grad_output=T()),
                    shapes=INDEX_BW_CASES, dtypes=F3,
                    tol={"float16": (2e-3, 2e-3)},
                    tol_reason="repeated indices add float16 gradients, rounded once by the float64 reference")
index_backward_medium = Op("diopiIndexBackward", _index_grad,
                          tensors=dict(zeros_like_input=T(_zeros()), indices=TList(randint(0, 512), dtype="int64"), grad_output=T()),
                          shapes=(((512, 256), [(512,)], (512, 256)),), dtypes=("float32",), name="index_backward_medium")
index_backward_i32 = Op("diopiIndexBackward", _index_grad,
                        tensors=dict(zeros_like_input=T(_zeros()), indices=TList(randint(-3, 3), dtype="int32"), grad_output=T()),
                        shapes=INDEX_BW_CASES[:4], dtypes=("float32",), name="index_backward_i32")
index_backward_mask = Op("diopiIndexBackward", _index_grad,
                         tensors=dict(zeros_like_input=T(_zeros()), indices=TList(mask(), dtype="bool"), go_src=T()), extra=("go_src",),
                         prepare=lambda indices, go_src: {"grad_output": go_src[tuple(indices)]},
                         shapes=(((3, 4), [(3, 4)], (3, 4)), ((3, 4), [(3,)], (3, 4)), ((2, 3, 4), [(2, 3)], (2, 3, 4)), ((5,), [(5,)], (5,))),
                         dtypes=F3, name="index_backward_mask")


# ============================================================ index_put
def _put_ref(input, values, indices, accumulate):
    return torch.index_put(input, _u8(indices), values, accumulate)


def _put_inp_ref(input, values, indices, accumulate):
    return input.index_put_(_u8(indices), values, accumulate)


# Without accumulate every index tensor is a permutation of 0..n-1 of its own shape, so the
# indexed positions are distinct. (input, values, [indices])
PUT_DISTINCT = (
    ((5, 4), (3, 4), [(3,)]),
    ((5, 4), (4,), [(3,)]),                # values broadcast over the indexed rows
    ((4, 5), (4,), [(4,), (4,)]),
    ((3, 4, 5), (2, 3, 5), [(2, 1), (1, 3)]),
    ((4, 4, 3), (), [(2,), (2,), (2,)]),   # one value for every position
    ((4, 3), (0, 3), [(0,)]),
    ((512, 256), (128, 256), [(128,)]),
)
PUT_ACC = (
    ((5, 4), (8, 4), [(8,)]),
    ((4, 5), (6,), [(6,), (6,)]),
    ((3, 4, 5), (2, 3, 5), [(2, 1), (1, 3)]),
    ((4, 3), (), [(5,)]),
)
ACC_DT = F3 + ("int32", "uint8", "bool")  # accumulate: a subset (every dtype runs without accumulate)
_PUT_TOL = {"float16": (2e-3, 2e-3)}
_PUT_TOL_REASON = "accumulated float16 values in an order that may differ"
index_put = Op("diopiIndexPut", _put_ref,
               tensors=dict(input=T(), values=T(), indices=TList(arange_perm(), dtype="int64")),
               shapes=PUT_DISTINCT, params=({"accumulate": False},), dtypes=ALL9 + ("bfloat16",))
index_put_acc = Op("diopiIndexPut", _put_ref,
                   tensors=dict(input=T(), values=T(), indices=TList(randint(-3, 3), dtype="int64")),
                   shapes=PUT_ACC, params=({"accumulate": True},), dtypes=ACC_DT, tol=_PUT_TOL, tol_reason=_PUT_TOL_REASON,
                   name="index_put_acc")
index_put_i32 = Op("diopiIndexPut", _put_ref,
                   tensors=dict(input=T(), values=T(), indices=TList(arange_perm(), dtype="int32")),
                   shapes=PUT_DISTINCT[:4], params=grid(accumulate=[False, True]), dtypes=("float32", "int32"), name="index_put_i32")
index_put_inp = Op("diopiIndexPutInp", _put_inp_ref,
                   tensors=dict(input=T(), values=T(), indices=TList(arange_perm(), dtype="int64")),
                   shapes=PUT_DISTINCT[:-1], params=({"accumulate": False},), dtypes=ALL9 + ("bfloat16",))
index_put_inp_acc = Op("diopiIndexPutInp", _put_inp_ref,
                       tensors=dict(input=T(), values=T(), indices=TList(randint(-3, 3), dtype="int64")),
                       shapes=PUT_ACC, params=({"accumulate": True},), dtypes=ACC_DT, tol=_PUT_TOL, tol_reason=_PUT_TOL_REASON,
                       name="index_put_inp_acc")
index_put_inp_i32 = Op("diopiIndexPutInp", _put_inp_ref,
                       tensors=dict(input=T(), values=T(), indices=TList(arange_perm(), dtype="int32")),
                       shapes=PUT_DISTINCT[:4], params=grid(accumulate=[False, True]), dtypes=("float32", "int32"),
                       name="index_put_inp_i32")


# ============================================================ index_select
def _wrap_index(dim, input, index):
    return {"index": index % max(_size(input, dim), 1)}


INDEX_SELECT_CASES = (
    (((5, 4), (3,)), {"dim": 0}),
    (((5, 4), (7,)), {"dim": 1}),          # repeats
    (((2, 3, 4), (2,)), {"dim": -1}),
    (((2, 3, 4), (5,)), {"dim": 1}),
    (((6,), (4,)), {"dim": 0}),
    (((), (1,)), {"dim": 0}),
    (((5, 4), (0,)), {"dim": 0}),
    (((0, 4), (2,)), {"dim": 1}),
    (((1024, 1024), (1024,)), {"dim": 0}),   # large: 1M elements gathered by rows
)
index_select = Op("diopiIndexSelect", lambda input, dim, index: torch.index_select(input, dim, index),
                  tensors=dict(input=T(), index=T(WIDE, dtype="int64")), prepare=_wrap_index,
                  cases=INDEX_SELECT_CASES, dtypes=ALL9 + ("bfloat16",))
index_select_i32 = Op("diopiIndexSelect", lambda input, dim, index: torch.index_select(input, dim, index),
                      tensors=dict(input=T(), index=T(WIDE, dtype="int32")), prepare=_wrap_index,
                      cases=INDEX_SELECT_CASES[:6], dtypes=("float32", "int64", "bool"), name="index_select_i32")


def _index_select_grad(grad, input_sizes, dim, index):
    z = torch.zeros(input_sizes, dtype=grad.dtype)
    return _f64_grad(lambda x: torch.index_select(x, dim, index.long()), z, grad, grad.dtype)


def _wrap_sizes(dim, input_sizes, index):
    n = input_sizes[dim] if len(input_sizes) else 1
    return {"index": index % max(n, 1)}


# (grad shape, index shape), input_sizes, dim
IS_BW = (
    ((3, 4), (3,), (5, 4), 0),
    ((7, 4), (7,), (5, 4), 0),            # repeats accumulate
    ((5, 9), (9,), (5, 4), 1),             # repeats accumulate
    ((2, 3, 2), (2,), (2, 3, 4), -1),
    ((6,), (6,), (4,), 0),
    ((0, 4), (0,), (5, 4), 0),
    ((256, 1024), (256,), (256, 1024), 0),
)
index_select_backward = Op("diopiIndexSelectBackward", _index_select_grad,
                           tensors=dict(grad=T(), index=T(WIDE, dtype="int64")), prepare=_wrap_sizes,
                           cases=tuple(((g, i), {"input_sizes": s, "dim": d}) for g, i, s, d in IS_BW), dtypes=F3,
                           tol={"float16": (2e-3, 2e-3)}, tol_reason="repeated indices add float16 gradients")
index_select_backward_i32 = Op("diopiIndexSelectBackward", _index_select_grad,
                               tensors=dict(grad=T(), index=T(WIDE, dtype="int32")), prepare=_wrap_sizes,
                               cases=tuple(((g, i), {"input_sizes": s, "dim": d}) for g, i, s, d in IS_BW[:5]), dtypes=("float32",),
                               name="index_select_backward_i32")


# ============================================================ select, slice and their scatters / backwards
SELECT_CASES = (
    (((3, 4),), {"dim": 0, "index": 1}),
    (((3, 4),), {"dim": 1, "index": -1}),
    (((2, 3, 4),), {"dim": 1, "index": 2}),
    (((2, 3, 4),), {"dim": -1, "index": 0}),
    (((2, 3, 4),), {"dim": 0, "index": -2}),
    (((5,),), {"dim": 0, "index": 3}),      # 0-d result
    (((0, 4),), {"dim": 1, "index": 0}),    # empty result
    (((2, 256, 300),), {"dim": 0, "index": 1}),
)
select = Op("diopiSelect", lambda input, dim, index: input.select(dim, index), tensors=dict(input=T()),
            cases=SELECT_CASES, dtypes=ALL9)


def _select_shape(shape, dim, index):
    return tuple(s for i, s in enumerate(shape) if i != dim % len(shape))


select_backward = Op("diopiSelectBackward",
                     lambda grad_output, input_sizes, dim, index: torch.ops.aten.select_backward(grad_output, input_sizes, dim, index),
                     tensors=dict(grad_output=T()),
                     cases=tuple(((_select_shape(s[0], p["dim"], p["index"]),), dict(p, input_sizes=s[0])) for s, p in SELECT_CASES),
                     dtypes=ALL10)
select_scatter = Op("diopiSelectScatter", lambda input, src, dim, index: torch.select_scatter(input, src, dim, index),
                    tensors=dict(input=T(), src=T()),
                    cases=tuple(((s[0], _select_shape(s[0], p["dim"], p["index"])), p) for s, p in SELECT_CASES),
                    dtypes=ALL9)


def _slice(input, dim, start, end, step):
    idx = [slice(None)] * input.dim()
    idx[dim] = slice(start, end, step)
    return input[tuple(idx)]


SLICE_CASES = (
    (((6, 4),), {"dim": 0, "start": 1, "end": 5, "step": 1}),
    (((6, 4),), {"dim": 0, "start": 0, "end": 6, "step": 2}),
    (((6, 7),), {"dim": 1, "start": 1, "end": 7, "step": 3}),
    (((2, 5, 3),), {"dim": 1, "start": -3, "end": 5, "step": 1}),   # negative start
    (((2, 5, 3),), {"dim": -1, "start": 0, "end": 100, "step": 2}),  # end past the size
    (((8,),), {"dim": 0, "start": 2, "end": -1, "step": 2}),          # negative end
    (((8,),), {"dim": 0, "start": 5, "end": 5, "step": 1}),           # empty slice
    (((0, 3),), {"dim": 1, "start": 0, "end": 2, "step": 1}),
    (((256, 600),), {"dim": 1, "start": 0, "end": 600, "step": 2}),
)
slice_ = Op("diopiSlice", _slice, tensors=dict(input=T()), cases=SLICE_CASES, dtypes=ALL9, name="slice")


def _slice_shape(shape, p):
    d = p["dim"] % len(shape)
    n = len(range(*_SLICE(p["start"], p["end"], p["step"]).indices(shape[d])))
    return tuple(n if i == d else s for i, s in enumerate(shape))


slice_backward = Op("diopiSliceBackward",
                    lambda grad_output, input_sizes, dim, start, end, step:
                        torch.ops.aten.slice_backward(grad_output, input_sizes, dim, start, end, step),
                    tensors=dict(grad_output=T()),
                    cases=tuple(((_slice_shape(s[0], p),), dict(p, input_sizes=s[0])) for s, p in SLICE_CASES),
                    dtypes=ALL10)
slice_scatter = Op("diopiSliceScatter",
                   lambda input, src, dim, start, end, step: torch.slice_scatter(input, src, dim, start, end, step),
                   tensors=dict(input=T(), src=T()),
                   cases=tuple(((s[0], _slice_shape(s[0], p)), p) for s, p in SLICE_CASES),
                   dtypes=ALL9)


# ============================================================ masked scatter / select / fill, where, nonzero
MASKED_SCATTER = (
    ((2, 3), (2, 3), (2, 3)),
    ((3, 4), (4,), (3, 4)),                # mask broadcast
    ((4,), (3, 4), (12,)),                 # input broadcast by the mask
    ((2, 3), (2, 3), (10,)),               # source longer than needed
    ((), (), ()),
    ((0, 3), (0, 3), (0,)),
    ((512, 512), (512, 512), (512, 512)),
)
masked_scatter = Op("diopiMaskedScatter", lambda input, mask, source: torch.masked_scatter(input, mask, source),
                    tensors=dict(input=T(), mask=T(mask(), dtype="bool"), source=T()),
                    shapes=MASKED_SCATTER, dtypes=ALL9)

MASK_SHAPES = (
    ((2, 3), (2, 3)),
    ((3, 4), (4,)),
    ((4,), (3, 4)),                        # the mask broadcasts the input
    ((2, 3, 4), (3, 1)),
    ((), ()),
    ((0, 3), (0, 3)),
    ((512, 512), (512, 512)),
)
masked_select = Op("diopiMaskedSelect", lambda input, mask: torch.masked_select(input, mask),
                   tensors=dict(input=T(), mask=T(mask(), dtype="bool")), shapes=MASK_SHAPES, dtypes=ALL9)
masked_select_u8 = Op("diopiMaskedSelect", lambda input, mask: torch.masked_select(input, mask.bool()),
                      tensors=dict(input=T(), mask=T(mask(), dtype="uint8")), shapes=MASK_SHAPES[:3], dtypes=("float32",),
                      name="masked_select_u8")


def _msb_prepare(go_src, mask):
    return {"grad_output": torch.masked_select(go_src, mask)}


def _msb_ref(grad_output, input, mask):
    return _f64_grad(lambda x: torch.masked_select(x, mask), input, grad_output, input.dtype)


# (go_src: the broadcast shape, input, mask): grad_output is go_src at the selected positions.
masked_select_backward = Op("diopiMaskedSelectBackward", _msb_ref,
                            tensors=dict(go_src=T(), input=T(), mask=T(mask(), dtype="bool")), extra=("go_src",), prepare=_msb_prepare,
                            shapes=tuple((np.broadcast_shapes(i, m), i, m) for i, m in MASK_SHAPES[:-1]) + (((256, 256),) * 3,),
                            dtypes=F3,
                            tol={"float16": (2e-3, 2e-3)}, tol_reason="gradients summed over the dims the mask broadcasts the input along")

MASKED_FILL_SHAPES = (
    ((2, 3), (2, 3), ()),
    ((3, 4), (4,), ()),
    ((2, 3, 4), (3, 1), ()),
    ((4,), (3, 4), ()),                    # the mask broadcasts the input (out of place only)
    ((), (), ()),
    ((0, 3), (0, 3), ()),
    ((512, 512), (512, 512), ()),
)
MASKED_FILL_INP_SHAPES = tuple(s for s in MASKED_FILL_SHAPES if np.broadcast_shapes(s[0], s[1]) == s[0])
_SMALL = lambda shapes: tuple(s for s in shapes if np.prod(s[0]) < 4096)  # noqa: E731
masked_fill = Op("diopiMaskedFill", lambda input, mask, value: torch.masked_fill(input, mask, value),
                 tensors=dict(input=T(), mask=T(mask(), dtype="bool"), value=T()), shapes=MASKED_FILL_SHAPES, dtypes=F3)
masked_fill_special = Op("diopiMaskedFill", lambda input, mask, value: torch.masked_fill(input, mask, value),
                         tensors=dict(input=T(special()), mask=T(mask(), dtype="bool"), value=T(special(p=1.0))),
                         shapes=(((64,), (64,), ()),) * 4, dtypes=F3, name="masked_fill_special")
masked_fill_inp = Op("diopiMaskedFillInp", lambda input, mask, value: input.masked_fill_(mask, value),
                     tensors=dict(input=T(), mask=T(mask(), dtype="bool"), value=T()), shapes=_SMALL(MASKED_FILL_INP_SHAPES), dtypes=F3)
FILL_VALUES = [1.5, -2, float("nan"), float("-inf")]
masked_fill_scalar = Op("diopiMaskedFillScalar", lambda input, mask, value: torch.masked_fill(input, mask, value),
                        tensors=dict(input=T(), mask=T(mask(), dtype="bool")), shapes=tuple(s[:2] for s in _SMALL(MASKED_FILL_SHAPES)),
                        params=grid(value=FILL_VALUES), dtypes=F3)
masked_fill_inp_scalar = Op("diopiMaskedFillInpScalar", lambda input, mask, value: input.masked_fill_(mask, value),
                            tensors=dict(input=T(), mask=T(mask(), dtype="bool")), shapes=tuple(s[:2] for s in _SMALL(MASKED_FILL_INP_SHAPES)),
                            params=grid(value=FILL_VALUES), dtypes=F3)
masked_fill_inp_scalar_int = Op("diopiMaskedFillInpScalar", lambda input, mask, value: input.masked_fill_(mask, value),
                                tensors=dict(input=T(), mask=T(mask(), dtype="bool")),
                                shapes=tuple(s[:2] for s in _SMALL(MASKED_FILL_INP_SHAPES)), params=grid(value=[7, -2]),
                                dtypes=("int64",), name="masked_fill_inp_scalar_int")

WHERE_SHAPES = (
    ((2, 3), (2, 3), (2, 3)),
    ((3, 1), (1, 4), (3, 4)),
    ((4,), (3, 4), (1,)),
    ((), (2, 2), ()),
    ((), (), ()),
    ((2, 1, 3), (4, 1), (3,)),
    ((0, 3), (0, 3), (1, 3)),
    ((1024, 1024), (1024, 1024), ()),      # large
)
where = Op("diopiWhere", lambda condition, input, other: torch.where(condition.bool(), input, other),
           tensors=dict(condition=T(mask(), dtype="bool"), input=T(), other=T()), shapes=WHERE_SHAPES, dtypes=ALL9)
where_u8 = Op("diopiWhere", lambda condition, input, other: torch.where(condition.bool(), input, other),
              tensors=dict(condition=T(mask(), dtype="uint8"), input=T(), other=T()), shapes=WHERE_SHAPES[:4],
              dtypes=("float32", "int32", "bool"), name="where_u8")
# input and other of different dtypes: the output takes the promoted dtype.
where_mixed = Op("diopiWhere", lambda condition, input, other: torch.where(condition, input, other),
                 tensors=dict(condition=T(mask(), dtype="bool"), input=T(), other=T(dtype="float32")), shapes=WHERE_SHAPES[:4],
                 dtypes=("float16", "float64", "int32", "uint8", "bool"), name="where_mixed")
where_special = Op("diopiWhere", lambda condition, input, other: torch.where(condition, input, other),
                   tensors=dict(condition=T(mask(), dtype="bool"), input=T(special()), other=T(special())),
                   shapes=(((64,), (64,), (64,)),), dtypes=F3, name="where_special")

NONZERO_SHAPES = (((7,),), ((3, 4),), ((2, 3, 4),), ((),), ((0, 3),), ((2, 1, 1, 3),), ((256, 512),))
nonzero = Op("diopiNonzero", lambda input: torch.nonzero(input), tensors=dict(input=T(_sparse())), shapes=NONZERO_SHAPES, dtypes=ALL9)
nonzero_special = Op("diopiNonzero", lambda input: torch.nonzero(input), tensors=dict(input=T(special())),
                     shapes=(((64,),),), dtypes=F3, name="nonzero_special")  # NaN and inf count as nonzero, -0.0 does not
nonzero_all = Op("diopiNonzero", lambda input: torch.nonzero(input), tensors=dict(input=T(_zeros())),
                 shapes=(((3, 4),),), dtypes=("float32", "int32", "bool"), name="nonzero_none")  # an empty (0, 2) result


# ============================================================ index_fill
INDEX_FILL_CASES = (
    (((5, 4), (2,)), {"dim": 0}),
    (((5, 4), (6,)), {"dim": 1}),          # repeated indices
    (((2, 3, 4), (2,)), {"dim": -1}),
    (((2, 3, 4), (1,)), {"dim": 1}),
    (((6,), (3,)), {"dim": 0}),
    (((), ()), {"dim": 0}),
    (((5, 4), (0,)), {"dim": 0}),
    (((256, 512), (100,)), {"dim": 1}),
)


def _grid_cases(cases, **axes):
    return tuple((s, dict(p, **g)) for s, p in cases for g in grid(**axes))


_IF_REF = lambda input, dim, index, value: torch.index_fill(input, dim, index.long(), value)        # noqa: E731
_IF_INP_REF = lambda input, dim, index, value: input.index_fill_(dim, index.long(), value)         # noqa: E731
index_fill_scalar = Op("diopiIndexFillScalar", _IF_REF, tensors=dict(input=T(), index=T(WIDE, dtype="int64")), prepare=_wrap_index,
                       cases=_grid_cases(INDEX_FILL_CASES, value=[1]), dtypes=ALL9)
index_fill_scalar_float = Op("diopiIndexFillScalar", _IF_REF, tensors=dict(input=T(), index=T(WIDE, dtype="int64")),
                             prepare=_wrap_index, cases=_grid_cases(INDEX_FILL_CASES[:4], value=[-2.5, float("nan")]), dtypes=F3,
                             name="index_fill_scalar_float")
index_fill_scalar_i32 = Op("diopiIndexFillScalar", _IF_REF, tensors=dict(input=T(), index=T(WIDE, dtype="int32")),
                           prepare=_wrap_index, cases=_grid_cases(INDEX_FILL_CASES[:5], value=[3]), dtypes=("float32", "int64"),
                           name="index_fill_scalar_i32")
index_fill_inp_scalar = Op("diopiIndexFillInpScalar", _IF_INP_REF, tensors=dict(input=T(), index=T(WIDE, dtype="int64")),
                           prepare=_wrap_index, cases=_grid_cases(INDEX_FILL_CASES[:-1], value=[1]), dtypes=ALL9)
index_fill_inp_scalar_float = Op("diopiIndexFillInpScalar", _IF_INP_REF, tensors=dict(input=T(), index=T(WIDE, dtype="int64")),
                                 prepare=_wrap_index, cases=_grid_cases(INDEX_FILL_CASES[:4], value=[-2.5, float("inf")]), dtypes=F3,
                                 name="index_fill_inp_scalar_float")
index_fill = Op("diopiIndexFill", _IF_REF, tensors=dict(input=T(), index=T(WIDE, dtype="int64"), value=T()), prepare=_wrap_index,
                cases=tuple(((s[0], s[1], ()), p) for s, p in INDEX_FILL_CASES), dtypes=ALL9)
index_fill_i32 = Op("diopiIndexFill", _IF_REF, tensors=dict(input=T(), index=T(WIDE, dtype="int32"), value=T()), prepare=_wrap_index,
                    cases=tuple(((s[0], s[1], ()), p) for s, p in INDEX_FILL_CASES[:5]), dtypes=("float32", "int64"),
                    name="index_fill_i32")
index_fill_inp = Op("diopiIndexFillInp", _IF_INP_REF, tensors=dict(input=T(), index=T(WIDE, dtype="int64"), value=T()),
                    prepare=_wrap_index, cases=tuple(((s[0], s[1], ()), p) for s, p in INDEX_FILL_CASES[:-1]), dtypes=ALL9)


# ============================================================ gather and scatter
# (input, index), dim: index sizes may not exceed the input's except along dim.
GATHER_CASES = (
    (((3, 4), (2, 4)), {"dim": 0}),
    (((3, 4), (3, 6)), {"dim": 1}),        # longer than the input along dim (repeats)
    (((3, 4), (1, 2)), {"dim": 1}),        # smaller in the other dim
    (((2, 3, 4), (2, 3, 2)), {"dim": -1}),
    (((2, 3, 4), (1, 2, 4)), {"dim": 1}),
    (((4, 3, 2), (5, 3, 2)), {"dim": 0}),
    (((6,), (4,)), {"dim": 0}),
    (((), ()), {"dim": 0}),
    (((3, 4), (0, 4)), {"dim": 0}),
    (((1024, 1024), (1024, 256)), {"dim": 1}),   # large
)
gather = Op("diopiGather", lambda input, dim, index: torch.gather(input, dim, index), tensors=dict(input=T(), index=T(WIDE, dtype="int64")),
            prepare=_wrap_index, cases=GATHER_CASES, dtypes=ALL9)
gather_i32 = Op("diopiGather", lambda input, dim, index: torch.gather(input, dim, index.long()),
                tensors=dict(input=T(), index=T(WIDE, dtype="int32")), prepare=_wrap_index, cases=GATHER_CASES[:8],
                dtypes=("float32", "int64", "bool"), name="gather_i32")


def _gather_grad(grad_output, input, dim, index):
    idx = index.long()
    if input.dtype.is_floating_point:
        return _f64_grad(lambda x: torch.gather(x, dim, idx), input, grad_output, input.dtype)
    return torch.zeros_like(input).scatter_add(dim, idx, grad_output)


gather_backward = Op("diopiGatherBackward", _gather_grad,
                     tensors=dict(grad_output=T(), input=T(), index=T(WIDE, dtype="int64")), prepare=_wrap_index,
                     cases=tuple(((s[1], s[0], s[1]), p) for s, p in GATHER_CASES[:-1]) + ((((256, 128), (256, 256), (256, 128)), {"dim": 1}),),
                     dtypes=ALL9,
                     tol={"float16": (2e-3, 2e-3)}, tol_reason="repeated indices add float16 gradients")
gather_backward_i32 = Op("diopiGatherBackward", _gather_grad,
                         tensors=dict(grad_output=T(), input=T(), index=T(WIDE, dtype="int32")), prepare=_wrap_index,
                         cases=tuple(((s[1], s[0], s[1]), p) for s, p in GATHER_CASES[:8]), dtypes=("float32", "int32"),
                         name="gather_backward_i32")


def _scatter_ref(input, dim, src, index, reduce):
    if reduce is None:
        return torch.scatter(input, dim, index.long(), src)
    return torch.scatter(input, dim, index.long(), src, reduce=reduce)


def _scatter_inp_ref(input, dim, src, index, reduce):
    return input.copy_(_scatter_ref(input, dim, src, index, reduce))


def _scatter_value_ref(input, dim, value, index, reduce):
    if reduce is None:
        return torch.scatter(input, dim, index.long(), value)
    return torch.scatter(input, dim, index.long(), value, reduce=reduce)


def _scatter_value_inp_ref(input, dim, value, index, reduce):
    return input.copy_(_scatter_value_ref(input, dim, value, index, reduce))


def _distinct_index(dim, k, index, dtype):
    """`index` arrives as float keys sized like the input along dim: argsort and keep k per line,
    so no two writes of a line land on the same element."""
    if index.dim() == 0:
        return {"index": torch.zeros((), dtype=dtype)}
    return {"index": torch.argsort(index, dim=dim).narrow(dim, 0, k).to(dtype).contiguous()}


def _prep_distinct_i64(dim, k, index):
    return _distinct_index(dim, k, index, torch.int64)


def _prep_distinct_i32(dim, k, index):
    return _distinct_index(dim, k, index, torch.int32)


# (input, src, keys), dim, k: keys have the input's size along dim; the index keeps k of them.
SCATTER_DISTINCT = (
    (((3, 4), (2, 4), (3, 4)), {"dim": 0, "k": 2}),
    (((3, 5), (3, 5), (3, 5)), {"dim": 1, "k": 3}),
    (((3, 5), (4, 6), (2, 5)), {"dim": 1, "k": 4}),        # src larger than the index
    (((2, 3, 4), (2, 3, 4), (2, 2, 4)), {"dim": -1, "k": 2}),
    (((2, 3, 4), (2, 3, 4), (2, 3, 3)), {"dim": 1, "k": 3}),
    (((6,), (6,), (6,)), {"dim": 0, "k": 6}),
    (((), (), ()), {"dim": 0, "k": 1}),
    (((3, 4), (0, 4), (3, 4)), {"dim": 0, "k": 0}),
    (((1024, 1024), (1024, 128), (1024, 1024)), {"dim": 1, "k": 128}),   # large
)
_KEYS = T(uniform(0, 1), dtype="float64")
scatter = Op("diopiScatter", _scatter_ref, tensors=dict(input=T(), src=T(), index=_KEYS), extra=("k",), prepare=_prep_distinct_i64,
             cases=_grid_cases(SCATTER_DISTINCT, reduce=[None]), dtypes=ALL9)
scatter_i32 = Op("diopiScatter", _scatter_ref, tensors=dict(input=T(), src=T(), index=_KEYS), extra=("k",), prepare=_prep_distinct_i32,
                 cases=_grid_cases(SCATTER_DISTINCT[:4], reduce=[None]), dtypes=("float32", "int64", "bool"), name="scatter_i32")
scatter_inp = Op("diopiScatterInp", _scatter_inp_ref, tensors=dict(input=T(), src=T(), index=_KEYS), extra=("k",),
                 prepare=_prep_distinct_i64, cases=_grid_cases(SCATTER_DISTINCT[:6], reduce=[None]), dtypes=ALL9)
# Reductions: repeated indices are meant to combine (add / multiply), so indices are random.
SCATTER_REDUCE = (
    (((3, 4), (5, 4), (5, 4)), {"dim": 0}),
    (((3, 5), (3, 7), (3, 7)), {"dim": 1}),
    (((2, 3, 4), (2, 3, 4), (2, 3, 4)), {"dim": -1}),
    (((6,), (6,), (4,)), {"dim": 0}),
    (((3, 4), (0, 4), (0, 4)), {"dim": 0}),
    (((256, 256), (256, 256), (256, 256)), {"dim": 0}),
)
REDUCE_DT = F3 + ("int16", "bool")  # the reductions run on a subset of the dtypes (all of them run without)
_SR_TOL = {"float16": (2e-3, 4e-3), "float32": (1e-5, 2e-5)}
_SR_TOL_REASON = "repeated indices combine values in an order that may differ (sums and products)"
scatter_reduce = Op("diopiScatter", _scatter_ref, tensors=dict(input=T(), src=T(), index=T(WIDE, dtype="int64")), prepare=_wrap_index,
                    cases=_grid_cases(SCATTER_REDUCE, reduce=["add", "multiply"]), dtypes=REDUCE_DT, tol=_SR_TOL,
                    tol_reason=_SR_TOL_REASON, name="scatter_reduce")
scatter_inp_reduce = Op("diopiScatterInp", _scatter_inp_ref, tensors=dict(input=T(), src=T(), index=T(WIDE, dtype="int64")),
                        prepare=_wrap_index, cases=_grid_cases(SCATTER_REDUCE[:3], reduce=["add", "multiply"]), dtypes=REDUCE_DT,
                        tol=_SR_TOL, tol_reason=_SR_TOL_REASON, name="scatter_inp_reduce")

# A scalar value: every write of a line stores the same value, so indices may repeat.
SCATTER_VALUE = tuple(((s[0], s[2]), p) for s, p in SCATTER_REDUCE)
scatter_scalar = Op("diopiScatterScalar", _scatter_value_ref, tensors=dict(input=T(), index=T(WIDE, dtype="int64")), prepare=_wrap_index,
                    cases=_grid_cases(SCATTER_VALUE, value=[3], reduce=[None]) + _grid_cases(SCATTER_VALUE[:4], value=[2], reduce=["add", "multiply"]),
                    dtypes=ALL9)
scatter_scalar_float = Op("diopiScatterScalar", _scatter_value_ref, tensors=dict(input=T(), index=T(WIDE, dtype="int64")),
                          prepare=_wrap_index, cases=_grid_cases(SCATTER_VALUE[:4], value=[-1.5, float("inf")], reduce=[None]),
                          dtypes=F3, name="scatter_scalar_float")
scatter_scalar_0d = Op("diopiScatterScalar", _scatter_value_ref, tensors=dict(input=T(), index=T(WIDE, dtype="int64")),
                       prepare=_wrap_index, cases=((((), ()), {"dim": 0, "value": 3, "reduce": None}),), dtypes=("float32", "int32"),
                       name="scatter_scalar_0d")
scatter_inp_scalar = Op("diopiScatterInpScalar", _scatter_value_inp_ref, tensors=dict(input=T(), index=T(WIDE, dtype="int64")),
                        prepare=_wrap_index,
                        cases=_grid_cases(SCATTER_VALUE[:5], value=[3], reduce=[None]) + _grid_cases(SCATTER_VALUE[:3], value=[2], reduce=["add", "multiply"]),
                        dtypes=ALL9)


# ============================================================ one_hot
ONE_HOT = (
    (((5,),), {"num_classes": 5}),
    (((5,),), {"num_classes": 8}),
    (((2, 3),), {"num_classes": 4}),
    (((2, 3, 2),), {"num_classes": 3}),
    (((),), {"num_classes": 6}),
    (((0,),), {"num_classes": 3}),
    (((7,),), {"num_classes": -1}),        # inferred: max + 1
    (((64, 64),), {"num_classes": 16}),
)


def _one_hot_prep(input, num_classes):
    n = num_classes if num_classes > 0 else 4
    return {"input": input % n}


one_hot = Op("diopiOneHot", lambda input, num_classes: F.one_hot(input.long(), num_classes),
             tensors=dict(input=T(WIDE)), prepare=_one_hot_prep, cases=ONE_HOT, dtypes=("int64", "int32"))


# ============================================================ embedding
def _emb_prep(weight, indices):
    return {"indices": indices % weight.shape[0]}


EMB = (
    ((10, 8), (4,)),
    ((10, 8), (2, 3)),
    ((7, 3), ()),
    ((7, 3), (0,)),
    ((5, 1), (6,)),
    ((100, 64), (8, 16)),
    ((1024, 256), (1024,)),
)
embedding = Op("diopiEmbedding",
               lambda weight, indices, padding_idx, scale_grad_byfreq, sparse: F.embedding(indices.long(), weight),
               tensors=dict(weight=T(), indices=T(WIDE, dtype="int64")), prepare=_emb_prep,
               cases=tuple((s, {"padding_idx": -1, "scale_grad_byfreq": False, "sparse": False}) for s in EMB)
               + tuple((s, {"padding_idx": 0, "scale_grad_byfreq": True, "sparse": False}) for s in EMB[:2]),
               dtypes=("float32", "float64", "float16", "bfloat16"))
embedding_i32 = Op("diopiEmbedding",
                   lambda weight, indices, padding_idx, scale_grad_byfreq, sparse: F.embedding(indices.long(), weight),
                   tensors=dict(weight=T(), indices=T(WIDE, dtype="int32")), prepare=_emb_prep,
                   cases=tuple((s, {"padding_idx": -1, "scale_grad_byfreq": False, "sparse": False}) for s in EMB[:5]),
                   dtypes=("float32", "float64"), name="embedding_i32")


def _emb_bw_prep(grad, indices, num_weights):
    return {"indices": indices % num_weights}


def _emb_bw_ref(grad, indices, num_weights, padding_idx, scale_grad_byfreq):
    # The ATen op's raw padding_idx: -1 means none (not the last row).
    w = torch.zeros((num_weights, grad.shape[-1]), dtype=torch.float64, requires_grad=True)
    y = torch.embedding(w, indices.long(), padding_idx, scale_grad_byfreq, False)
    (g,) = torch.autograd.grad(y, w, grad.double())
    return g.to(grad.dtype)


# (grad, indices), num_weights
EMB_BW = (
    ((4, 8), (4,), 10),
    ((2, 3, 8), (2, 3), 5),                # repeats certain
    ((3,), (), 7),
    ((0, 3), (0,), 7),
    ((6, 1), (6,), 3),
    ((8, 16, 64), (8, 16), 100),
    ((256, 1024), (256,), 300),
)
embedding_backward = Op("diopiEmbeddingBackward", _emb_bw_ref,
                        tensors=dict(grad=T(), indices=T(WIDE, dtype="int64")), prepare=_emb_bw_prep,
                        cases=tuple(((g, i), {"num_weights": n, "padding_idx": pad, "scale_grad_byfreq": sc, "sparse": False})
                                    for g, i, n in EMB_BW for pad, sc in ((-1, False), (0, False), (-1, True), (2, True))
                                    if not (g[0] > 128 and (pad, sc) != (-1, False))),
                        dtypes=("float32", "float64", "bfloat16"),
                        tol={"float32": (1e-5, 2e-5)}, tol_reason="gradients of repeated indices summed in an order that may differ")
embedding_backward_sparse = Op("diopiEmbeddingBackward", _emb_bw_ref,
                               tensors=dict(grad=T(), indices=T(WIDE, dtype="int64")), prepare=_emb_bw_prep,
                               cases=tuple(((g, i), {"num_weights": n, "padding_idx": -1, "scale_grad_byfreq": False, "sparse": True})
                                           for g, i, n in EMB_BW[:3]),
                               dtypes=("float32",), tol={"float32": (1e-5, 2e-5)},
                               tol_reason="gradients of repeated indices summed in an order that may differ",
                               name="embedding_backward_sparse")  # `sparse` names a framework layout; the result is dense
embedding_backward_i32 = Op("diopiEmbeddingBackward", _emb_bw_ref,
                            tensors=dict(grad=T(), indices=T(WIDE, dtype="int32")), prepare=_emb_bw_prep,
                            cases=tuple(((g, i), {"num_weights": n, "padding_idx": -1, "scale_grad_byfreq": False, "sparse": False})
                                        for g, i, n in EMB_BW[:5]),
                            dtypes=("float32", "float64"), tol={"float32": (1e-5, 2e-5)},
                            tol_reason="gradients of repeated indices summed in an order that may differ", name="embedding_backward_i32")


def _renorm_ref(inout, indices, max_norm, norm_type):
    return torch.embedding_renorm_(inout, indices.long(), max_norm, norm_type)


# (inout, indices): rows of ~N(0,1) values of width 8 have norms around 2.8, so max_norm 1 and 2 scale most
# of them and 5 few; repeated indices renorm a row once.
RENORM = (((10, 8), (4,)), ((10, 8), (12,)), ((6, 3), (2, 2)), ((5, 4), ()), ((5, 4), (0,)))
RENORM_PARAMS = grid(max_norm=[1.0, 2.0, 5.0], norm_type=[2.0]) + grid(max_norm=[1.0], norm_type=[1.0, 3.5])
embedding_renorm_ = Op("diopiEmbeddingRenorm_", _renorm_ref,
                       tensors=dict(inout=T(), indices=T(WIDE, dtype="int64")), prepare=lambda inout, indices: {"indices": indices % inout.shape[0]},
                       cases=tuple((s, p) for s in RENORM for p in RENORM_PARAMS) + ((((1000, 64), (500,)), {"max_norm": 6.0, "norm_type": 2.0}),),
                       dtypes=("float32", "float64"), name="embedding_renorm")
embedding_renorm_i32 = Op("diopiEmbeddingRenorm_", _renorm_ref,
                          tensors=dict(inout=T(), indices=T(WIDE, dtype="int32")),
                          prepare=lambda inout, indices: {"indices": indices % inout.shape[0]},
                          shapes=RENORM[:3], params=grid(max_norm=[1.0], norm_type=[2.0]), dtypes=("float32", "float64"),
                          name="embedding_renorm_i32")
