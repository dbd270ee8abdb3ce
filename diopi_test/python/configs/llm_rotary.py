"""Rotary position embedding: the out-of-place operator (half-split or interleaved pairs, conj, partial rotary
width) and the in-place query/key variant in the rotate-half form.

Reference: float64 math cast once. cos / sin are cos(theta) / sin(theta) of random angles, in the case dtype.
"""
from conformance.gen import uniform
from conformance.reftorch import torch
from conformance.spec import FLOAT, Op, T

_ANGLE = T(uniform(-3.2, 3.2))


def _tables(theta):
    t = theta.double()
    return {"cos": t.cos().to(theta.dtype), "sin": t.sin().to(theta.dtype)}


def _rot_prepare(cos):
    return _tables(cos)  # `cos` holds the generated angles; sin is derived from the same ones


def _rot_ref(x, cos, sin, conj, interleaved):
    xf, c, s = x.double(), cos.double(), sin.double()
    if conj:
        s = -s
    half = c.shape[-1]
    r = 2 * half
    xr = xf[..., :r]
    x1, x2 = (xr[..., 0::2], xr[..., 1::2]) if interleaved else (xr[..., :half], xr[..., half:])
    o1, o2 = x1 * c - x2 * s, x1 * s + x2 * c
    rot = torch.stack([o1, o2], -1).flatten(-2) if interleaved else torch.cat([o1, o2], -1)
    return torch.cat([rot, xf[..., r:]], -1).to(x.dtype)


# (x, cos): (B, S, H, D) with (S, 1, D/2), partial rotary width, (T, H, D) with (T, 1, D/2), a 2-D x, an empty batch, one large
_ROT_SHAPES = (((2, 5, 3, 8), (5, 1, 4)), ((1, 4, 2, 16), (4, 1, 4)), ((6, 4, 8), (6, 1, 4)), ((7, 6), (7, 3)), ((2, 3, 2, 10), (3, 1, 3)),
               ((0, 3, 2, 8), (3, 1, 4)), ((2, 128, 8, 64), (128, 1, 32)))

rotary_embedding = Op(
    "diopiRotaryEmbedding", _rot_ref, tensors=dict(x=T(), cos=_ANGLE, sin=_ANGLE), prepare=_rot_prepare, dtypes=FLOAT,
    cases=tuple(((x, c, c), dict(conj=cj, interleaved=il)) for x, c in _ROT_SHAPES for cj in (False, True) for il in (False, True)
                if x[0] * x[1] < 256 or (cj, il) == (False, False)))


def _v2_ref(query, key, cos, sin, dim):
    def rot(t):
        x = t.double().reshape(*t.shape[:-1], t.shape[-1] // dim, dim) if t.shape[-1] != dim or t.dim() < 3 else t.double()
        c, s = cos.double(), sin.double()
        if c.dim() < x.dim():
            c, s = c.unsqueeze(-2), s.unsqueeze(-2)
        if c.shape[-1] == dim // 2:
            c, s = torch.cat([c, c], -1), torch.cat([s, s], -1)
        h = dim // 2
        rotate_half = torch.cat([-x[..., h:], x[..., :h]], -1)
        return (x * c + rotate_half * s).reshape(t.shape).to(t.dtype)
    return rot(query), rot(key)


# (query, key, cos) and dim: packed (T, heads * dim) with (T, dim) or (T, dim / 2) tables, fewer kv heads, 4-D
# (B, S, heads, dim) with (B, S, 1, dim), zero tokens, one large
_V2 = ((((5, 32), (5, 16), (5, 8)), 8), (((5, 32), (5, 32), (5, 4)), 8), (((3, 64), (3, 16), (3, 16)), 16),
       (((2, 4, 3, 8), (2, 4, 1, 8), (2, 4, 1, 8)), 8), (((1, 6, 2, 16), (1, 6, 2, 16), (1, 6, 1, 8)), 16), (((0, 16), (0, 8), (0, 8)), 8),
       (((1, 12), (1, 12), (1, 6)), 6), (((4, 24), (4, 24), (4, 6)), 6), (((3, 2, 8), (3, 1, 8), (3, 8)), 8),
       (((2, 5, 32), (2, 5, 16), (2, 5, 8)), 8), (((7, 2, 4), (7, 2, 4), (7, 2)), 4), (((256, 4096), (256, 1024), (256, 128)), 128))

rotary_embedding_v2 = Op(
    "diopiRotaryEmbeddingV2", _v2_ref, tensors=dict(query=T(), key=T(), cos=_ANGLE, sin=_ANGLE), prepare=_rot_prepare, dtypes=FLOAT,
    cases=tuple(((q, k, c, c), dict(dim=d)) for (q, k, c), d in _V2))
