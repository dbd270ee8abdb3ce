"""Shape manipulation: cat, stack and split_with_sizes (lists of tensors),
transpose, permute, expand, repeat, flip, roll, pad (every mode), unfold (and
its backward), tril/triu.

Most of these move values without arithmetic, so every dtype the interface
documents runs (bfloat16 is not among them). unfold_backward sums
overlapping windows: its reference is torch.autograd in float64.
"""
from conformance.gen import special
from conformance.reftorch import torch, F
from conformance.spec import FLOAT_NO_BF16, INT, Op, T, TList, grid

ALL9 = FLOAT_NO_BF16 + INT + ("bool",)
F3 = FLOAT_NO_BF16

# ============================================================ cat, stack, split
cat = Op("diopiCat", lambda tensors, dim: torch.cat(tensors, dim), tensors=dict(tensors=TList()),
         cases=(([[(2, 3), (4, 3)]], {"dim": 0}),
                ([[(2, 3), (2, 1), (2, 5)]], {"dim": 1}),
                ([[(2, 3, 4)]], {"dim": -1}),                      # a single tensor
                ([[(2, 3, 4), (2, 3, 1)]], {"dim": -1}),
                ([[(2, 3, 4), (2, 2, 4), (2, 1, 4), (2, 5, 4)]], {"dim": 1}),
                ([[(3,), (5,), (1,)]], {"dim": 0}),
                ([[(0, 3), (2, 3)]], {"dim": 0}),                  # an empty part
                ([[(2, 0), (2, 0)]], {"dim": 1}),                  # an empty result
                ([[(1, 2, 3, 2)] * 8], {"dim": 2}),                # many inputs
                ([[(64, 256), (64, 256)]], {"dim": 1}),
                ([[(512, 1024), (512, 1024)]], {"dim": 0})),       # large: 1M elements
         dtypes=ALL9 + ("bfloat16",))
stack = Op("diopiStack", lambda tensors, dim: torch.stack(tensors, dim), tensors=dict(tensors=TList()),
           cases=(([[(2, 3), (2, 3)]], {"dim": 0}),
                  ([[(2, 3)] * 3], {"dim": 2}),
                  ([[(2, 3)] * 3], {"dim": 1}),
                  ([[(4,), (4,)]], {"dim": -1}),
                  ([[(2, 3, 4)] * 2], {"dim": -2}),
                  ([[(), (), ()]], {"dim": 0}),                    # 0-d inputs
                  ([[(3,)]], {"dim": 0}),                          # a single tensor
                  ([[(0, 3), (0, 3)]], {"dim": 1}),
                  ([[(256, 256)] * 4], {"dim": 1})),
           dtypes=ALL9)


def _split(input, splitSizes, dim):
    return list(torch.split(input, list(splitSizes), dim))


split_with_sizes = Op("diopiSplitWithSizes", _split, tensors=dict(input=T()),
                      cases=((((6, 4),), {"splitSizes": (2, 4), "dim": 0}),
                             (((6, 4),), {"splitSizes": (1, 1, 2), "dim": 1}),
                             (((6, 4),), {"splitSizes": (6,), "dim": 0}),
                             (((2, 7, 3),), {"splitSizes": (3, 0, 4), "dim": 1}),  # a zero-size part
                             (((2, 7, 3),), {"splitSizes": (1, 2), "dim": -1}),
                             (((9,),), {"splitSizes": (2, 3, 4), "dim": 0}),
                             (((0, 4),), {"splitSizes": (0,), "dim": 0}),
                             (((512, 256),), {"splitSizes": (100, 300, 112), "dim": 0})),
                      dtypes=ALL9)

# ============================================================ transpose, permute, expand, repeat
# Outputs are dense: the references return contiguous copies of the views.
transpose = Op("diopiTranspose", lambda input, dim0, dim1: torch.transpose(input, dim0, dim1).contiguous(), tensors=dict(input=T()),
               cases=((((2, 3),), {"dim0": 0, "dim1": 1}),
                      (((2, 3, 4),), {"dim0": 0, "dim1": 2}),
                      (((2, 3, 4),), {"dim0": -1, "dim1": 1}),
                      (((2, 3, 4, 5),), {"dim0": 1, "dim1": 2}),
                      (((2, 3),), {"dim0": 1, "dim1": 1}),      # the same dim: a copy
                      (((5,),), {"dim0": 0, "dim1": -1}),
                      (((),), {"dim0": 0, "dim1": -1}),
                      (((0, 3),), {"dim0": 0, "dim1": 1}),
                      (((256, 300),), {"dim0": 0, "dim1": 1})),
               dtypes=ALL9)
permute = Op("diopiPermute", lambda input, dims: input.permute(dims).contiguous(), tensors=dict(input=T()),
             cases=((((2, 3),), {"dims": (1, 0)}),
                    (((2, 3, 4),), {"dims": (2, 0, 1)}),
                    (((2, 3, 4),), {"dims": (0, 1, 2)}),
                    (((2, 3, 4),), {"dims": (-1, -3, -2)}),
                    (((2, 3, 4, 5),), {"dims": (0, 2, 3, 1)}),     # NCHW -> NHWC
                    (((2, 1, 3, 1, 2),), {"dims": (4, 3, 2, 1, 0)}),
                    (((),), {"dims": ()}),
                    (((0, 3, 2),), {"dims": (2, 0, 1)}),
                    (((16, 64, 32, 32),), {"dims": (0, 2, 3, 1)})),  # large
             dtypes=ALL9)
expand = Op("diopiExpand", lambda input, size: input.expand(size).contiguous(), tensors=dict(input=T()), extra=("size",),
            cases=((((3, 1),), {"size": (3, 4)}),
                   (((1, 4),), {"size": (3, 4)}),
                   (((4,),), {"size": (2, 3, 4)}),               # new leading dims
                   (((2, 1, 3),), {"size": (2, 5, 3)}),
                   (((2, 1, 3),), {"size": (4, 2, 2, 3)}),
                   (((),), {"size": (2, 3)}),
                   (((2, 3),), {"size": (2, 3)}),                # nothing to expand: a copy
                   (((1, 3),), {"size": (0, 3)})),
            dtypes=ALL9)
# The input is small whatever the output: the large case is float32 only.
expand_large = Op("diopiExpand", lambda input, size: input.expand(size).contiguous(), tensors=dict(input=T()), extra=("size",),
                  cases=((((1, 1024),), {"size": (1024, 1024)}),), dtypes=("float32",), name="expand_large")
REPEAT = (
    (((2, 3),), {"repeats_size": (2, 1)}),
    (((2, 3),), {"repeats_size": (1, 3)}),
    (((2, 3),), {"repeats_size": (2, 2, 2)}),        # more repeats than dims: new leading dims
    (((3,),), {"repeats_size": (4,)}),
    (((2, 1, 3),), {"repeats_size": (1, 4, 1)}),
    (((),), {"repeats_size": (3, 2)}),
    (((2, 3),), {"repeats_size": (0, 2)}),           # an empty result
    (((2, 3),), {"repeats_size": (1, 1)}),
)
repeat = Op("diopiRepeat", lambda input, repeats_size: input.repeat(repeats_size), tensors=dict(input=T()),
            cases=REPEAT, dtypes=("float32", "float64"))
repeat_medium = Op("diopiRepeat", lambda input, repeats_size: input.repeat(repeats_size), tensors=dict(input=T()),
                   cases=((((128, 128),), {"repeats_size": (3, 2)}),), dtypes=("float32",), name="repeat_medium")

# ============================================================ flip, roll
FLIP = (
    (((2, 3),), {"dims": (0,)}),
    (((2, 3),), {"dims": (1,)}),
    (((2, 3),), {"dims": (0, 1)}),
    (((2, 3, 4),), {"dims": (-1,)}),
    (((2, 3, 4),), {"dims": (0, 2)}),
    (((7,),), {"dims": (0,)}),
    (((),), {"dims": ()}),
    (((0, 3),), {"dims": (1,)}),
    (((256, 300),), {"dims": (1,)}),
)
flip = Op("diopiFlip", lambda input, dims: torch.flip(input, dims), tensors=dict(input=T()), cases=FLIP, dtypes=ALL9)
ROLL = (
    (((2, 3),), {"shifts": (1,), "dims": (1,)}),
    (((2, 3),), {"shifts": (-1,), "dims": (0,)}),
    (((2, 3),), {"shifts": (4,), "dims": (1,)}),     # more than the size
    (((2, 3),), {"shifts": (2,), "dims": ()}),       # no dims: the flattened tensor rolls
    (((2, 3, 4),), {"shifts": (1, -2), "dims": (0, 2)}),
    (((2, 3, 4),), {"shifts": (5,), "dims": (-1,)}),
    (((7,),), {"shifts": (-10,), "dims": (0,)}),
    (((0, 3),), {"shifts": (1,), "dims": (1,)}),
    (((256, 300),), {"shifts": (3, -5), "dims": (0, 1)}),
)
roll = Op("diopiRoll", lambda input, shifts, dims: torch.roll(input, shifts, dims), tensors=dict(input=T()), cases=ROLL, dtypes=ALL9)


# ============================================================ pad
def _pad(input, pad, mode, value):
    if mode == "constant":
        return F.pad(input, pad, mode="constant", value=0.0 if value is None else value)
    return F.pad(input, pad, mode=mode)


PAD_CONSTANT = (
    (((2, 3),), {"pad": (1, 2)}),
    (((2, 3),), {"pad": (1, 1, 2, 0)}),
    (((2, 3, 4),), {"pad": (0, 1, 1, 0, 2, 2)}),
    (((2, 3, 4),), {"pad": (-1, 1)}),                 # negative padding crops
    (((2, 3, 4),), {"pad": (1, -2, 0, 1)}),
    (((5,),), {"pad": (3, 0)}),
    (((0, 3),), {"pad": (1, 1)}),
    (((2, 3),), {"pad": (0, 0)}),
    (((300, 300),), {"pad": (12, 12, 12, 12)}),
)
pad = Op("diopiPad", _pad, tensors=dict(input=T()),
         cases=tuple((s, dict(p, mode="constant", value=v)) for s, p in PAD_CONSTANT for v in (None, 1.5, -2.0)
                     if v is None or s[0][0] < 100),
         dtypes=F3)
pad_special = Op("diopiPad", _pad, tensors=dict(input=T(special())),
                 cases=((((8, 8),), {"pad": (1, 1, 1, 1), "mode": "constant", "value": float("nan")}),
                        (((8, 8),), {"pad": (1, 1, 1, 1), "mode": "constant", "value": float("-inf")}),
                        (((8, 8),), {"pad": (2, 1), "mode": "reflect", "value": None}),
                        (((8, 8),), {"pad": (2, 1), "mode": "replicate", "value": None})),
                 dtypes=F3, name="pad_special")
# reflect / replicate / circular pad the last 1, 2 or 3 dims of a (batch, channel, ...) tensor.
PAD_MODES = (
    ((2, 3, 5), (2, 1)),
    ((2, 3, 5), (0, 3)),
    ((3, 5), (1, 1)),                                 # unbatched
    ((1, 2, 4, 5), (1, 2, 3, 0)),
    ((2, 3, 4, 4), (3, 3, 3, 3)),
    ((2, 4, 4), (1, 1, 2, 2)),                        # unbatched 2-d
    ((1, 2, 3, 4, 5), (1, 1, 2, 0, 1, 2)),
    ((0, 3, 5), (1, 1)),
    ((4, 16, 128, 128), (2, 2, 2, 2)),                # large
)
pad_modes = Op("diopiPad", _pad, tensors=dict(input=T()),
               cases=tuple((((s,), {"pad": p, "mode": m, "value": None})) for s, p in PAD_MODES for m in ("reflect", "replicate", "circular")
                           if not (m == "reflect" and s[0] == 0) and (m == "replicate" or s[-1] < 128)),
               dtypes=F3, name="pad_modes")
# int64: attention masks are padded (GPT-2's 0/1 mask in constant mode); the other modes move integers just as well.
pad_int64 = Op("diopiPad", _pad, tensors=dict(input=T()),
               cases=tuple((s, dict(p, mode="constant", value=v)) for s, p in PAD_CONSTANT if s[0][0] < 100 for v in (None, -2.0))
               + tuple((((s,), {"pad": p, "mode": m, "value": None})) for s, p in PAD_MODES[:7]
                       for m in ("reflect", "replicate", "circular")),
               dtypes=("int64",), name="pad_int64")


# ============================================================ unfold and its backward
UNFOLD = (
    ((7,), 0, 2, 1),
    ((7,), 0, 3, 2),
    ((7,), 0, 7, 1),                                  # one window
    ((4, 6), 1, 3, 3),                                # windows side by side
    ((4, 6), 0, 2, 1),
    ((2, 5, 3), -2, 2, 2),                            # the last element is left out
    ((2, 5, 3), 2, 1, 1),
    ((), 0, 1, 1),
    ((0, 5), 1, 2, 1),
    ((256, 300), 1, 4, 4),
)
unfold = Op("diopiUnfold", lambda input, dim, size, step: input.unfold(dim, size, step).contiguous(), tensors=dict(input=T()),
            cases=tuple(((s,), {"dim": d, "size": z, "step": t}) for s, d, z, t in UNFOLD), dtypes=F3)


def _unfold_shape(shape, dim, size, step):
    if not shape:
        return (size,)
    d = dim % len(shape)
    n = (shape[d] - size) // step + 1
    return tuple(n if i == d else v for i, v in enumerate(shape)) + (size,)


def _unfold_grad(grad_output, input_sizes, dim, size, step):
    x = torch.zeros(input_sizes, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(x.unfold(dim, size, step), x, grad_output.double())
    return g.to(grad_output.dtype)


unfold_backward = Op("diopiUnfoldBackward", _unfold_grad, tensors=dict(grad_output=T()),
                     cases=tuple(((_unfold_shape(s, d, z, t),), {"input_sizes": s, "dim": d, "size": z, "step": t})
                                 for s, d, z, t in UNFOLD),
                     dtypes=F3, tol={"float16": (2e-3, 2e-3)}, tol_reason="overlapping windows add float16 gradients")

# ============================================================ tril, triu
TRI = (
    ((4, 4), 0), ((4, 4), 1), ((4, 4), -1), ((3, 5), 2), ((5, 3), -2), ((4, 4), 10), ((4, 4), -10),
    ((2, 3, 4), 0),                                   # batched
    ((2, 2, 3, 3), -1),
    ((0, 3), 0),
    ((256, 300), 0),
)
TRI_CASES = tuple(((s,), {"diagonal": d}) for s, d in TRI)
tril = Op("diopiTril", lambda input, diagonal: torch.tril(input, diagonal), tensors=dict(input=T()), cases=TRI_CASES, dtypes=ALL9)
tril_large = Op("diopiTril", lambda input, diagonal: torch.tril(input, diagonal), tensors=dict(input=T()),
                cases=((((1024, 1024),), {"diagonal": 3}),), dtypes=("float32",), name="tril_large")
triu = Op("diopiTriu", lambda input, diagonal: torch.triu(input, diagonal), tensors=dict(input=T()), cases=TRI_CASES, dtypes=ALL9)
triu_inp = Op("diopiTriuInp", lambda input, diagonal: input.triu_(diagonal), tensors=dict(input=T()), cases=TRI_CASES[:-1], dtypes=ALL9)
