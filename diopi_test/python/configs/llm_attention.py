"""LLM attention: multi-head and flash attention (dense, variable-length and the Ascend-style customized
layouts) forward and backward, scaled masked softmax and prompt flash attention.

The references are float64 math written out here: S = scale * q k^T - alibi_slope * |i + Sk - Sq - j|, keys
outside the causal mask / window / user mask excluded (bottom-right aligned, as flash-attention >= 2.1),
P = softmax(S), out = P v, softmax_lse = logsumexp(S). Backward references are torch.autograd of that math.
Only p_dropout = 0 is checked for values: with dropout > 0 the output is random, which the random-family
property checks cover later. Cases keep every query row with at least one key (a row without keys is an
implementation convention, not math), so Sq > Sk appears only without causal masks and windows.
"""
import math

import numpy as np

from conformance.gen import mask, randn, uniform
from conformance.reftorch import torch
from conformance.spec import Op, T

HALF = ("float16", "bfloat16")                # documented dtypes of the flash-attention family
MHA_DTYPES = ("float16", "float32", "float64")  # dtypes of the (deprecated) multi-head attention
SOFTMAX_DTYPES = ("float16", "bfloat16", "float32")

# The fp32 reference implementation differs from the float64 reference by accumulation order only; outputs of
# half types are rounded once, and a different rounding of the float32 value flips at most one ulp.
_BWD_TOL = {"float16": (2e-3, 2e-3), "bfloat16": (1.6e-2, 1.6e-2), "float32": (2e-5, 2e-5)}
_BWD_TOL_REASON = "gradients sum Sq or Sk products whose order differs between kernels; half types round once more"


def _f32(x):
    """Value of a C `float` parameter (the harness passes float params through a C float)."""
    return float(np.float32(x))


def _lse_dtype(q):
    return torch.float64 if q.dtype == torch.float64 else torch.float32


# ---------------------------------------------------------------- reference math
def _allowed(sq, sk, causal, wl, wr):
    i = torch.arange(sq).view(-1, 1)
    j = torch.arange(sk).view(1, -1)
    d = i + (sk - sq) - j
    ok = torch.ones(sq, sk, dtype=torch.bool)
    if causal:
        ok &= d >= 0
    if wl >= 0:
        ok &= d <= wl
    if wr >= 0:
        ok &= d >= -wr
    return ok, d


def _attn(q, k, v, scale, causal=False, wl=-1, wr=-1, alibi=None, excluded=None):
    """float64 attention. q (B, Sq, Hq, D), k / v (B, Sk, Hk, D) -> out (B, Sq, Hq, D), masked scores
    (B, Hq, Sq, Sk) (-inf where excluded) and the allowed mask."""
    b, sq, hq, _ = q.shape
    sk, hk = k.shape[1], k.shape[2]
    rep = hq // hk if hk else 1
    qh = q.permute(0, 2, 1, 3)
    kh = k.permute(0, 2, 1, 3).repeat_interleave(rep, 1)
    vh = v.permute(0, 2, 1, 3).repeat_interleave(rep, 1)
    s = qh @ kh.transpose(-1, -2) * scale
    ok, d = _allowed(sq, sk, causal, wl, wr)
    if alibi is not None:
        sl = alibi.double().view(1, hq, 1, 1) if alibi.dim() == 1 else alibi.double().view(b, hq, 1, 1)
        s = s - sl * d.abs().double()
    ok = ok.view(1, 1, sq, sk)
    if excluded is not None:
        ok = ok & ~excluded.bool()
    ok = ok.expand(b, hq, sq, sk)
    s = s.masked_fill(~ok, float("-inf"))
    p = torch.softmax(s, -1)
    return (p @ vh).permute(0, 2, 1, 3), s, ok


def _grads(fn, grad, q, k, v):
    """autograd of fn(q, k, v) -> out at float64 copies of q, k, v, seeded with grad."""
    x = [t.detach().double().requires_grad_(True) for t in (q, k, v)]
    out = fn(*x)
    return torch.autograd.grad(out, x, grad.double(), allow_unused=True)


def _cast3(gs, like):
    return tuple(g.to(t.dtype) for g, t in zip(gs, like))


# ---------------------------------------------------------------- shapes
def _dense(b, sq, sk, hq, hk, d):
    return (b, sq, hq, d), (b, sk, hk, d), (b, sk, hk, d)


# (B, Sq, Sk, Hq, Hk, D): square, Sq < Sk, Sq > Sk, grouped and multi-query heads, one query, empty batch, a long one
_MHA_SHAPES = ((2, 8, 8, 4, 4, 16), (1, 5, 9, 2, 2, 8), (2, 9, 6, 4, 4, 8), (1, 16, 16, 4, 1, 32), (3, 1, 7, 2, 2, 8),
               (2, 12, 12, 6, 2, 8), (0, 4, 4, 2, 2, 8), (1, 128, 128, 8, 8, 64))


def _mha_cases():
    out = []
    for b, sq, sk, hq, hk, d in _MHA_SHAPES:
        causal_ok = sq <= sk
        combos = [dict(is_causal=False, return_debug_mask=False, scale=1 / math.sqrt(d)),
                  dict(is_causal=False, return_debug_mask=True, scale=0.3)]
        if causal_ok:
            combos += [dict(is_causal=True, return_debug_mask=True, scale=1 / math.sqrt(d)),
                       dict(is_causal=True, return_debug_mask=False, scale=0.7)]
        if b * sq * hq * d > 65536:
            combos = combos[::2]
        for c in combos:
            out.append((_dense(b, sq, sk, hq, hk, d), dict(dropout_p=0.0, **c)))
    return tuple(out)


# ---------------------------------------------------------------- multi-head attention
def _mha_ref(q, k, v, is_causal, return_debug_mask, scale):
    out, s, ok = _attn(q.double(), k.double(), v.double(), scale, is_causal)
    lse = torch.logsumexp(s, -1).to(_lse_dtype(q))
    return q, k, v, out.to(q.dtype), lse, (ok if return_debug_mask else None)


multi_head_attention = Op(
    "diopiMultiHeadAttention", _mha_ref, tensors=dict(q=T(), k=T(), v=T()), cases=_mha_cases(), dtypes=MHA_DTYPES,
    tol={"float32": (2e-5, 2e-5)}, tol_reason="float32 softmax and products accumulate in a different order")


def _mha_saved(q, k, v, is_causal, scale):
    out, s, _ = _attn(q.double(), k.double(), v.double(), scale, is_causal)
    return {"out": out.to(q.dtype), "softmax_lse": torch.logsumexp(s, -1).to(_lse_dtype(q))}


def _mha_bwd_ref(grad_out, q, k, v, is_causal, scale):
    return _cast3(_grads(lambda a, b, c: _attn(a, b, c, scale, is_causal)[0], grad_out, q, k, v), (q, k, v))


def _bwd_cases(cases, drop=("return_debug_mask",)):
    """Backward cases from forward ones: grad_out (shaped like out = q's shape with v's head dim) goes first."""
    res = []
    for (qs, ks, vs), p in cases:
        res.append(((qs[:-1] + vs[-1:], qs, ks, vs), {n: x for n, x in p.items() if n not in drop}))
    return tuple(res)


multi_head_attention_backward = Op(
    "diopiMultiHeadAttentionBackward", _mha_bwd_ref, tensors=dict(grad_out=T(), q=T(), k=T(), v=T()),
    cases=_bwd_cases(_mha_cases()), prepare=_mha_saved, dtypes=MHA_DTYPES, tol=_BWD_TOL, tol_reason=_BWD_TOL_REASON)


# ---------------------------------------------------------------- variable length
def _offsets(lens):
    return [0] + list(np.cumsum(lens).astype(int))


def _varlen(f, q, k, v, seqs_q, seqs_k, per_seq=None):
    """Applies f(qb, kb, vb, b) -> (outb, extra) per sequence on (T, H, D) tensors; returns out (zeros outside)."""
    cq, ck = _offsets(seqs_q), _offsets(seqs_k)
    out = torch.zeros(q.shape[0], q.shape[1], v.shape[2], dtype=q.dtype)
    extras = []
    for b in range(len(seqs_q)):
        o, e = f(q[cq[b]:cq[b + 1]].unsqueeze(0), k[ck[b]:ck[b + 1]].unsqueeze(0), v[ck[b]:ck[b + 1]].unsqueeze(0), b)
        out = out.index_copy(0, torch.arange(cq[b], cq[b + 1]), o[0]) if cq[b + 1] > cq[b] else out
        extras.append(e)
    return out, extras


def _varlen_attn(q, k, v, seqs_q, seqs_k, scale, causal=False, wl=-1, wr=-1, alibi=None, masks=None):
    def f(qb, kb, vb, b):
        al = None if alibi is None else (alibi if alibi.dim() == 1 else alibi[b])
        ex = None if masks is None else masks[b]
        o, s, ok = _attn(qb, kb, vb, scale, causal, wl, wr, al, ex)
        return o, (s, ok)
    return _varlen(f, q, k, v, seqs_q, seqs_k)


def _lse_layout(extras, seqs_q, hq, layout, max_q, dtype):
    """softmax_lse in the (B, H, max_q) padded layout (only used without padding) or the (H, total_q) one."""
    lses = [torch.logsumexp(s, -1)[0] for s, _ in extras]  # (H, sq) each
    if layout == "padded":
        return torch.stack([torch.nn.functional.pad(x, (0, max_q - x.shape[1]), value=float("inf")) for x in lses]).to(dtype)
    return torch.cat(lses, 1).to(dtype) if lses else torch.zeros(hq, 0, dtype=dtype)


# (seqlens_q, seqlens_k, Hq, Hk, D)
_VARLEN = (((3, 5, 2), (3, 5, 2), 4, 4, 8), ((4, 4, 4), (6, 5, 4), 2, 2, 16), ((7, 1), (7, 1), 4, 2, 8),
           ((6, 6), (6, 6), 2, 2, 8), ((1, 9, 3, 5), (4, 9, 3, 8), 4, 1, 8), ((5,), (3,), 2, 2, 8),
           ((64, 100, 36), (64, 100, 36), 8, 8, 64))


def _varlen_shapes(sq, sk, hq, hk, d):
    return (sum(sq), hq, d), (sum(sk), hk, d), (sum(sk), hk, d)


def _causal_ok(sq, sk):
    return all(a <= b for a, b in zip(sq, sk))


def _mha_varlen_cases():
    out = []
    for sq, sk, hq, hk, d in _VARLEN:
        base = dict(seqlens_q=sq, seqlens_k=sk, max_q=max(sq), max_k=max(sk), dropout_p=0.0)
        uniform_q = len(set(sq)) == 1
        combos = [dict(is_causal=False, return_debug_mask=True, scale=1 / math.sqrt(d), lse_layout="padded" if uniform_q else "unpadded",
                       cum_dtype="int64")]
        if _causal_ok(sq, sk):
            combos.append(dict(is_causal=True, return_debug_mask=False, scale=0.5, lse_layout="unpadded", cum_dtype="int32"))
        if sum(sq) * hq * d <= 4096:
            combos.append(dict(is_causal=_causal_ok(sq, sk), return_debug_mask=True, scale=0.25, lse_layout="unpadded", cum_dtype="int32"))
        for c in combos:
            out.append((_varlen_shapes(sq, sk, hq, hk, d), dict(base, **c)))
    return tuple(out)


def _cum_tensors(seqlens_q, seqlens_k, cum_dtype):
    dt = getattr(torch, cum_dtype)
    return torch.tensor(_offsets(seqlens_q), dtype=dt), torch.tensor(_offsets(seqlens_k), dtype=dt)


def _mha_varlen_prepare(seqlens_q, seqlens_k, cum_dtype):
    cq, ck = _cum_tensors(seqlens_q, seqlens_k, cum_dtype)
    return {"cum_seq_q": cq, "cum_seq_k": ck}


def _debug_mask(extras, max_q, max_k, hq):
    m = torch.zeros(len(extras), hq, max_q, max_k, dtype=torch.bool)
    for b, (_, ok) in enumerate(extras):
        m[b, :, :ok.shape[2], :ok.shape[3]] = ok[0]
    return m


def _mha_varlen_ref(q, k, v, seqlens_q, seqlens_k, max_q, max_k, is_causal, return_debug_mask, scale, lse_layout):
    out, ex = _varlen_attn(q.double(), k.double(), v.double(), seqlens_q, seqlens_k, scale, is_causal)
    lse = _lse_layout(ex, seqlens_q, q.shape[1], lse_layout, max_q, _lse_dtype(q))
    dm = _debug_mask(ex, max_q, max_k, q.shape[1]) if return_debug_mask else None
    return q, k, v, out.to(q.dtype), lse, dm


_VARLEN_EXTRA = ("seqlens_q", "seqlens_k", "lse_layout", "cum_dtype")

multi_head_attention_var_len = Op(
    "diopiMultiHeadAttentionVarLen", _mha_varlen_ref, tensors=dict(q=T(), k=T(), v=T()), cases=_mha_varlen_cases(),
    prepare=_mha_varlen_prepare, extra=_VARLEN_EXTRA, dtypes=MHA_DTYPES,
    tol={"float32": (2e-5, 2e-5)}, tol_reason="float32 softmax and products accumulate in a different order")


def _mha_varlen_saved(q, k, v, seqlens_q, seqlens_k, max_q, is_causal, scale, lse_layout, cum_dtype):
    out, ex = _varlen_attn(q.double(), k.double(), v.double(), seqlens_q, seqlens_k, scale, is_causal)
    cq, ck = _cum_tensors(seqlens_q, seqlens_k, cum_dtype)
    return {"out": out.to(q.dtype), "softmax_lse": _lse_layout(ex, seqlens_q, q.shape[1], lse_layout, max_q, _lse_dtype(q)),
            "cum_seq_q": cq, "cum_seq_k": ck}


def _mha_varlen_bwd_ref(grad_out, q, k, v, seqlens_q, seqlens_k, is_causal, scale):
    f = lambda a, b, c: _varlen_attn(a, b, c, seqlens_q, seqlens_k, scale, is_causal)[0]  # noqa: E731
    return _cast3(_grads(f, grad_out, q, k, v), (q, k, v))


multi_head_attention_var_len_backward = Op(
    "diopiMultiHeadAttentionVarLenBackward", _mha_varlen_bwd_ref, tensors=dict(grad_out=T(), q=T(), k=T(), v=T()),
    cases=_bwd_cases(_mha_varlen_cases()), prepare=_mha_varlen_saved, extra=_VARLEN_EXTRA, dtypes=MHA_DTYPES,
    tol=_BWD_TOL, tol_reason=_BWD_TOL_REASON)


# ---------------------------------------------------------------- flash attention
_ALIBI = uniform(0.05, 1.0)

# (B, Sq, Sk, Hq, Hk, D)
_FLASH_SHAPES = ((2, 8, 8, 4, 4, 16), (1, 6, 11, 4, 2, 8), (2, 10, 7, 2, 2, 8), (1, 16, 16, 8, 1, 32), (2, 1, 9, 4, 4, 8),
                 (0, 4, 4, 2, 2, 8), (2, 256, 256, 8, 8, 64))
# (is_causal, window_size_left, window_size_right, alibi) combinations; windows are checked where Sq <= Sk
_FLASH_COMBOS = ((False, -1, -1, None), (True, -1, -1, None), (False, -1, -1, "h"), (True, -1, -1, "bh"), (False, 2, 2, None),
                 (True, 3, -1, None), (False, -1, 1, "h"), (False, 4, 0, None), (True, 0, 0, "bh"))


def _flash_cases():
    out = []
    for b, sq, sk, hq, hk, d in _FLASH_SHAPES:
        big = b * sq * hq * d > 65536
        combos = _FLASH_COMBOS if sq <= sk else tuple(c for c in _FLASH_COMBOS if not c[0] and c[1] < 0 and c[2] < 0)
        if big:
            combos = (_FLASH_COMBOS[1], _FLASH_COMBOS[8])
        for i, (causal, wl, wr, al) in enumerate(combos):
            scale = 1 / math.sqrt(d) if i % 3 else 0.5
            alibi_shape = (b, hq) if al == "bh" else (hq,)
            out.append((_dense(b, sq, sk, hq, hk, d) + (alibi_shape,),
                        dict(p_dropout=0.0, softmax_scale=scale, is_causal=causal, window_size_left=wl, window_size_right=wr,
                             alibi=al is not None)))
    return tuple(out)


def _alibi_prepare(alibi_slopes, alibi):
    return {"alibi_slopes": alibi_slopes if alibi else None}


def _flash_ref(q, k, v, alibi_slopes, softmax_scale, is_causal, window_size_left, window_size_right):
    out, s, _ = _attn(q.double(), k.double(), v.double(), _f32(softmax_scale), is_causal, window_size_left, window_size_right, alibi_slopes)
    return out.to(q.dtype), torch.logsumexp(s, -1).float()


flash_attention = Op(
    "diopiFlashAttention", _flash_ref, tensors=dict(q=T(), k=T(), v=T(), alibi_slopes=T(_ALIBI, "float32")), cases=_flash_cases(),
    prepare=_alibi_prepare, extra=("alibi",), dtypes=HALF, large_dtypes=("float16",))


def _flash_saved(q, k, v, alibi_slopes, alibi, softmax_scale, is_causal, window_size_left, window_size_right):
    al = alibi_slopes if alibi else None
    out, s, _ = _attn(q.double(), k.double(), v.double(), _f32(softmax_scale), is_causal, window_size_left, window_size_right, al)
    return {"alibi_slopes": al, "attention_out": out.to(q.dtype), "softmax_lse": torch.logsumexp(s, -1).float()}


def _flash_bwd_ref(grad_output, q, k, v, alibi_slopes, softmax_scale, is_causal, window_size_left, window_size_right):
    f = lambda a, b, c: _attn(a, b, c, _f32(softmax_scale), is_causal, window_size_left, window_size_right, alibi_slopes)[0]  # noqa: E731
    return _cast3(_grads(f, grad_output, q, k, v), (q, k, v))


def _flash_bwd_cases(cases):
    return tuple(((qs[:-1] + vs[-1:], qs, ks, vs, al), p) for (qs, ks, vs, al), p in cases)


flash_attention_backward = Op(
    "diopiFlashAttentionBackward", _flash_bwd_ref, tensors=dict(grad_output=T(), q=T(), k=T(), v=T(), alibi_slopes=T(_ALIBI, "float32")),
    cases=_flash_bwd_cases(_flash_cases()), prepare=_flash_saved, extra=("alibi",), dtypes=HALF, large_dtypes=("float16",),
    tol=_BWD_TOL, tol_reason=_BWD_TOL_REASON)


# ---------------------------------------------------------------- flash attention, variable length
_FLASH_VARLEN_COMBOS = ((False, -1, -1, None), (True, -1, -1, "h"), (False, 2, 1, "bh"), (True, 4, -1, None), (False, -1, -1, "bh"))


def _flash_varlen_cases():
    out = []
    for sq, sk, hq, hk, d in _VARLEN:
        big = sum(sq) * hq * d > 65536
        combos = _FLASH_VARLEN_COMBOS if _causal_ok(sq, sk) else tuple(c for c in _FLASH_VARLEN_COMBOS if not c[0] and c[1] < 0 and c[2] < 0)
        if big:
            combos = combos[1:2]
        uniform_q = len(set(sq)) == 1
        for i, (causal, wl, wr, al) in enumerate(combos):
            layout = "padded" if uniform_q and i % 2 == 0 else "unpadded"
            out.append((_varlen_shapes(sq, sk, hq, hk, d) + ((len(sq), hq) if al == "bh" else (hq,),),
                        dict(seqlens_q=sq, seqlens_k=sk, max_seqlen_q=max(sq), max_seqlen_kv=max(sk), p_dropout=0.0,
                             softmax_scale=0.5 if i == 2 else 1 / math.sqrt(d), is_causal=causal, window_size_left=wl,
                             window_size_right=wr, alibi=al is not None, lse_layout=layout)))
    return tuple(out)


def _flash_varlen_prepare(alibi_slopes, alibi, seqlens_q, seqlens_k):
    cq, ck = _cum_tensors(seqlens_q, seqlens_k, "int32")
    return {"alibi_slopes": alibi_slopes if alibi else None, "cum_seq_q": cq, "cum_seq_kv": ck}


def _flash_varlen_ref(q, k, v, alibi_slopes, seqlens_q, seqlens_k, max_seqlen_q, softmax_scale, is_causal, window_size_left,
                      window_size_right, lse_layout):
    out, ex = _varlen_attn(q.double(), k.double(), v.double(), seqlens_q, seqlens_k, _f32(softmax_scale), is_causal, window_size_left,
                           window_size_right, alibi_slopes)
    return out.to(q.dtype), _lse_layout(ex, seqlens_q, q.shape[1], lse_layout, max_seqlen_q, torch.float32)


_FLASH_VARLEN_EXTRA = ("seqlens_q", "seqlens_k", "lse_layout", "alibi")

flash_attention_var_len = Op(
    "diopiFlashAttentionVarLen", _flash_varlen_ref, tensors=dict(q=T(), k=T(), v=T(), alibi_slopes=T(_ALIBI, "float32")),
    cases=_flash_varlen_cases(), prepare=_flash_varlen_prepare, extra=_FLASH_VARLEN_EXTRA, dtypes=HALF, large_dtypes=("float16",))


def _flash_varlen_saved(q, k, v, alibi_slopes, alibi, seqlens_q, seqlens_k, max_seqlen_q, softmax_scale, is_causal, window_size_left,
                        window_size_right, lse_layout):
    al = alibi_slopes if alibi else None
    out, lse = _flash_varlen_ref(q, k, v, al, seqlens_q, seqlens_k, max_seqlen_q, softmax_scale, is_causal, window_size_left,
                                 window_size_right, lse_layout)
    cq, ck = _cum_tensors(seqlens_q, seqlens_k, "int32")
    return {"alibi_slopes": al, "attention_out": out, "softmax_lse": lse, "cum_seq_q": cq, "cum_seq_kv": ck}


def _flash_varlen_bwd_ref(grad_output, q, k, v, alibi_slopes, seqlens_q, seqlens_k, softmax_scale, is_causal, window_size_left,
                          window_size_right):
    f = lambda a, b, c: _varlen_attn(a, b, c, seqlens_q, seqlens_k, _f32(softmax_scale), is_causal, window_size_left,  # noqa: E731
                                     window_size_right, alibi_slopes)[0]
    return _cast3(_grads(f, grad_output, q, k, v), (q, k, v))


flash_attention_var_len_backward = Op(
    "diopiFlashAttentionVarLenBackward", _flash_varlen_bwd_ref,
    tensors=dict(grad_output=T(), q=T(), k=T(), v=T(), alibi_slopes=T(_ALIBI, "float32")),
    cases=_flash_bwd_cases(_flash_varlen_cases()), prepare=_flash_varlen_saved, extra=_FLASH_VARLEN_EXTRA, dtypes=HALF,
    large_dtypes=("float16",), tol=_BWD_TOL, tol_reason=_BWD_TOL_REASON)


# ---------------------------------------------------------------- customized (Ascend-style) flash attention
def _to_bsnd(x, layout, n):
    if layout == "BSND":
        return x
    if layout == "BNSD":
        return x.permute(0, 2, 1, 3)
    t = x.permute(1, 0, 2) if layout == "SBH" else x
    return t.reshape(t.shape[0], t.shape[1], n, t.shape[2] // n)


def _from_bsnd(x, layout):
    if layout == "BSND":
        return x
    if layout == "BNSD":
        return x.permute(0, 2, 1, 3)
    t = x.reshape(x.shape[0], x.shape[1], x.shape[2] * x.shape[3])
    return t.permute(1, 0, 2) if layout == "SBH" else t


def _in_layout(shape, layout):
    """(B, S, N, D) shape -> the shape of that tensor in `layout`."""
    b, s, n, d = shape
    return {"BSND": (b, s, n, d), "BNSD": (b, n, s, d), "BSH": (b, s, n * d), "SBH": (s, b, n * d)}[layout]


def _user_mask(attention_mask, mask_kind, sq, sk):
    """The case's attention_mask: None, the materialised bottom-right causal mask (Ascend callers pass one with
    is_causal), or a random mask that keeps every row's diagonal key."""
    if mask_kind == "none":
        return None
    i = torch.arange(sq).view(-1, 1)
    j = torch.arange(sk).view(1, -1)
    d = i + (sk - sq) - j
    if mask_kind == "causal":
        return (d < 0).expand(attention_mask.shape).contiguous()
    return attention_mask & ~(d == 0)


# (B, Sq, Sk, N, Nk, D)
_CUST_SHAPES = ((2, 8, 8, 4, 4, 16), (1, 6, 10, 4, 2, 8), (2, 9, 5, 2, 2, 8), (0, 4, 4, 2, 2, 8), (1, 128, 128, 8, 8, 64))
# (layout, is_causal, mask_kind, mask_shape, window_left, window_right, alibi)
_CUST_COMBOS = (("BSND", False, "none", "2d", -1, -1, None), ("BSND", True, "causal", "2d", -1, -1, None),
                ("BNSD", False, "random", "2d", -1, -1, "h"), ("BSH", True, "none", "2d", -1, -1, None),
                ("SBH", True, "causal", "2d", -1, -1, "bh"), ("BSH", False, "random", "4d", -1, -1, None),
                ("BSND", True, "causal", "4d", 3, -1, None), ("SBH", False, "none", "2d", 2, 2, "h"),
                ("BNSD", True, "none", "2d", -1, -1, "h"))


def _cust_cases():
    out = []
    for b, sq, sk, n, nk, d in _CUST_SHAPES:
        big = b * sq * n * d > 65536
        combos = _CUST_COMBOS if sq <= sk else tuple(c for c in _CUST_COMBOS if not c[1] and c[4] < 0 and c[5] < 0)
        if big:
            combos = (_CUST_COMBOS[1], _CUST_COMBOS[4])
        for i, (layout, causal, mk, ms, wl, wr, al) in enumerate(combos):
            qs, ks, vs = (_in_layout(s, layout) for s in _dense(b, sq, sk, n, nk, d))
            mshape = (sq, sk) if ms == "2d" else (b, 1, sq, sk)
            out.append(((qs, ks, vs, (b, n) if al == "bh" else (n,), mshape),
                        dict(p_dropout=0.0, softmax_scale=0.4 if i % 4 == 3 else 1 / math.sqrt(d), is_causal=causal,
                             window_size_left=wl, window_size_right=wr, head_num=n, input_layout=layout, alibi=al is not None,
                             mask_kind=mk)))
    return tuple(out)


def _cust_prepare(alibi_slopes, alibi, attention_mask, mask_kind, q, k, input_layout, head_num):
    qs, ks = _to_bsnd(q, input_layout, head_num), None
    ks = _to_bsnd(k, input_layout, head_num) if input_layout not in ("BSH", "SBH") else k
    sq = qs.shape[1]
    sk = ks.shape[1] if input_layout not in ("BSH", "SBH") else (k.shape[1] if input_layout == "BSH" else k.shape[0])
    return {"alibi_slopes": alibi_slopes if alibi else None, "attention_mask": _user_mask(attention_mask, mask_kind, sq, sk)}


def _cust_math(q, k, v, alibi_slopes, attention_mask, softmax_scale, is_causal, window_size_left, window_size_right, head_num, input_layout):
    qd = _to_bsnd(q, input_layout, head_num)
    dh = qd.shape[-1]
    kd = _to_bsnd(k, input_layout, k.shape[-1] // dh if input_layout in ("BSH", "SBH") else k.shape[2])
    vd = _to_bsnd(v, input_layout, v.shape[-1] // dh if input_layout in ("BSH", "SBH") else v.shape[2])
    out, s, ok = _attn(qd, kd, vd, _f32(softmax_scale), is_causal, window_size_left, window_size_right, alibi_slopes, attention_mask)
    return _from_bsnd(out, input_layout), s


def _cust_stats(s):
    m = s.amax(-1)
    ssum = torch.exp(s - m.unsqueeze(-1)).sum(-1)
    rep = lambda x: x.unsqueeze(-1).expand(*x.shape, 8).float()  # noqa: E731
    return rep(m), rep(ssum), torch.zeros(0, dtype=torch.float32)


def _cust_ref(q, k, v, alibi_slopes, attention_mask, softmax_scale, is_causal, window_size_left, window_size_right, head_num, input_layout):
    out, s = _cust_math(q.double(), k.double(), v.double(), alibi_slopes, attention_mask, softmax_scale, is_causal, window_size_left,
                        window_size_right, head_num, input_layout)
    mx, sm, so = _cust_stats(s)
    return out.to(q.dtype), None, mx, sm, so


_CUST_TENSORS = dict(q=T(), k=T(), v=T(), alibi_slopes=T(_ALIBI, "float32"), attention_mask=T(mask(0.3), "bool"))
_CUST_EXTRA = ("alibi", "mask_kind")

customized_flash_attention = Op(
    "diopiCustomizedFlashAttention", _cust_ref, tensors=_CUST_TENSORS, cases=_cust_cases(), prepare=_cust_prepare, extra=_CUST_EXTRA,
    dtypes=HALF, large_dtypes=("float16",))


def _cust_saved(q, k, v, alibi_slopes, alibi, attention_mask, mask_kind, softmax_scale, is_causal, window_size_left, window_size_right,
                head_num, input_layout):
    p = _cust_prepare(alibi_slopes, alibi, attention_mask, mask_kind, q, k, input_layout, head_num)
    out, _, mx, sm, so = _cust_ref(q, k, v, p["alibi_slopes"], p["attention_mask"], softmax_scale, is_causal, window_size_left,
                                   window_size_right, head_num, input_layout)
    return dict(p, attention_out=out, dropout_mask=None, softmax_max=mx, softmax_sum=sm, softmax_out=so)


def _cust_bwd_ref(grad_output, q, k, v, alibi_slopes, attention_mask, softmax_scale, is_causal, window_size_left, window_size_right,
                  head_num, input_layout):
    f = lambda a, b, c: _cust_math(a, b, c, alibi_slopes, attention_mask, softmax_scale, is_causal, window_size_left,  # noqa: E731
                                   window_size_right, head_num, input_layout)[0]
    return _cast3(_grads(f, grad_output, q, k, v), (q, k, v))


def _cust_bwd_cases(cases):
    res = []
    for (qs, ks, vs, al, ms), p in cases:
        lay = p["input_layout"]
        if lay in ("BSH", "SBH"):  # grad_output: q's layout with v's hidden size
            go = qs[:2] + (qs[2] // ks[2] * vs[2],)
        else:
            go = qs[:-1] + vs[-1:]
        res.append(((go, qs, ks, vs, al, ms), p))
    return tuple(res)


customized_flash_attention_backward = Op(
    "diopiCustomizedFlashAttentionBackward", _cust_bwd_ref, tensors=dict(grad_output=T(), **_CUST_TENSORS), cases=_cust_bwd_cases(_cust_cases()),
    prepare=_cust_saved, extra=_CUST_EXTRA, dtypes=HALF, large_dtypes=("float16",), tol=_BWD_TOL, tol_reason=_BWD_TOL_REASON)


# ---------------------------------------------------------------- customized, variable length ("TND")
# (layout, is_causal, mask_kind, window_left, window_right, alibi, cum_style)
_CVAR_COMBOS = ((False, "none", -1, -1, None, "offsets"), (True, "causal", -1, -1, None, "ends"), (False, "random", -1, -1, "h", "ends"),
                (True, "none", 2, -1, "bh", "offsets"), (False, "none", 1, 1, None, "ends"))


def _cvar_cases():
    out = []
    for sq, sk, hq, hk, d in _VARLEN:
        big = sum(sq) * hq * d > 65536
        combos = _CVAR_COMBOS if _causal_ok(sq, sk) else tuple(c for c in _CVAR_COMBOS if not c[0] and c[2] < 0 and c[3] < 0)
        if big:
            combos = combos[1:2]
        for i, (causal, mk, wl, wr, al, style) in enumerate(combos):
            out.append((_varlen_shapes(sq, sk, hq, hk, d) + ((len(sq), hq) if al == "bh" else (hq,), (max(sq), max(sk))),
                        dict(seqlens_q=sq, seqlens_k=sk, max_seqlen_q=max(sq), max_seqlen_kv=max(sk), p_dropout=0.0,
                             softmax_scale=0.5 if i == 2 else 1 / math.sqrt(d), is_causal=causal, window_size_left=wl,
                             window_size_right=wr, alibi=al is not None, mask_kind=mk, cum_style=style)))
    return tuple(out)


def _cum_sizes(seqlens_q, seqlens_k, cum_style):
    cq, ck = _offsets(seqlens_q), _offsets(seqlens_k)
    if cum_style == "ends":
        cq, ck = cq[1:], ck[1:]
    return tuple(int(x) for x in cq), tuple(int(x) for x in ck)


def _seq_masks(attention_mask, seqlens_q, seqlens_k):
    """Each sequence's block of the (Sq_max, Sk_max) mask (the top-left (sq, sk) corner)."""
    if attention_mask is None:
        return None
    return [attention_mask[:a, :b] for a, b in zip(seqlens_q, seqlens_k)]


def _cvar_mask(attention_mask, mask_kind, seqlens_q, seqlens_k):
    """Causal: the materialised causal mask of the longest sequence; every sequence has sq == sk in causal cases,
    so its top-left corner is that sequence's causal mask. Random: keeps the diagonal of every sequence's block."""
    if mask_kind == "none":
        return None
    mq, mk = attention_mask.shape
    if mask_kind == "causal":
        return torch.ones(mq, mk, dtype=torch.bool).triu(1)
    return attention_mask & ~torch.eye(mq, mk, dtype=torch.bool)


def _cvar_prepare(alibi_slopes, alibi, attention_mask, mask_kind, seqlens_q, seqlens_k, cum_style):
    cq, ck = _cum_sizes(seqlens_q, seqlens_k, cum_style)
    return {"alibi_slopes": alibi_slopes if alibi else None, "attention_mask": _cvar_mask(attention_mask, mask_kind, seqlens_q, seqlens_k),
            "cum_seq_q": cq, "cum_seq_kv": ck}


def _cvar_math(q, k, v, alibi_slopes, attention_mask, seqlens_q, seqlens_k, softmax_scale, is_causal, window_size_left, window_size_right):
    return _varlen_attn(q, k, v, seqlens_q, seqlens_k, _f32(softmax_scale), is_causal, window_size_left, window_size_right, alibi_slopes,
                        _seq_masks(attention_mask, seqlens_q, seqlens_k))


def _cvar_ref(q, k, v, alibi_slopes, attention_mask, seqlens_q, seqlens_k, softmax_scale, is_causal, window_size_left, window_size_right):
    out, ex = _cvar_math(q.double(), k.double(), v.double(), alibi_slopes, attention_mask, seqlens_q, seqlens_k, softmax_scale, is_causal,
                         window_size_left, window_size_right)
    stats = [(s[0].amax(-1), torch.exp(s[0] - s[0].amax(-1, keepdim=True)).sum(-1)) for s, _ in ex]  # (N, sq) each
    n = q.shape[1]
    mx = torch.cat([m.t() for m, _ in stats]) if stats else torch.zeros(0, n, dtype=torch.float64)
    sm = torch.cat([x.t() for _, x in stats]) if stats else torch.zeros(0, n, dtype=torch.float64)
    rep = lambda x: x.unsqueeze(-1).expand(*x.shape, 8).float()  # noqa: E731
    return out.to(q.dtype), None, rep(mx), rep(sm), torch.zeros(0, dtype=torch.float32)


_CVAR_EXTRA = ("seqlens_q", "seqlens_k", "alibi", "mask_kind", "cum_style")
_CVAR_TENSORS = dict(q=T(), k=T(), v=T(), alibi_slopes=T(_ALIBI, "float32"), attention_mask=T(mask(0.3), "bool"))

customized_flash_attention_var_len = Op(
    "diopiCustomizedFlashAttentionVarLen", _cvar_ref, tensors=_CVAR_TENSORS, cases=_cvar_cases(), prepare=_cvar_prepare, extra=_CVAR_EXTRA,
    dtypes=HALF, large_dtypes=("float16",))


def _cvar_saved(q, k, v, alibi_slopes, alibi, attention_mask, mask_kind, seqlens_q, seqlens_k, cum_style, softmax_scale, is_causal,
                window_size_left, window_size_right):
    p = _cvar_prepare(alibi_slopes, alibi, attention_mask, mask_kind, seqlens_q, seqlens_k, cum_style)
    out, _, mx, sm, so = _cvar_ref(q, k, v, p["alibi_slopes"], p["attention_mask"], seqlens_q, seqlens_k, softmax_scale, is_causal,
                                   window_size_left, window_size_right)
    return dict(p, attention_out=out, dropout_mask=None, softmax_max=mx, softmax_sum=sm, softmax_out=so)


def _cvar_bwd_ref(grad_output, q, k, v, alibi_slopes, attention_mask, seqlens_q, seqlens_k, softmax_scale, is_causal, window_size_left,
                  window_size_right):
    f = lambda a, b, c: _cvar_math(a, b, c, alibi_slopes, attention_mask, seqlens_q, seqlens_k, softmax_scale, is_causal,  # noqa: E731
                                   window_size_left, window_size_right)[0]
    return _cast3(_grads(f, grad_output, q, k, v), (q, k, v))


customized_flash_attention_var_len_backward = Op(
    "diopiCustomizedFlashAttentionVarLenBackward", _cvar_bwd_ref, tensors=dict(grad_output=T(), **_CVAR_TENSORS),
    cases=tuple(((qs[:-1] + vs[-1:], qs, ks, vs, al, ms), p) for (qs, ks, vs, al, ms), p in _cvar_cases()),
    prepare=_cvar_saved, extra=_CVAR_EXTRA, dtypes=HALF, large_dtypes=("float16",), tol=_BWD_TOL, tol_reason=_BWD_TOL_REASON)


# ---------------------------------------------------------------- scaled masked softmax
def _sms_math(x, mask, scale, fixed_triu_mask):
    if fixed_triu_mask:
        excl = torch.ones(x.shape[-2], x.shape[-1], dtype=torch.bool).triu(1)
    else:
        excl = mask != 0
    return torch.softmax((x * scale).masked_fill(excl, -10000.0), -1)


def _sms_prepare(mask):
    """Keeps key 0 of every row, so that no row is fully masked."""
    m = mask.clone()
    m[..., 0] = 0
    return {"mask": m}


def _sms_ref(input, mask, scale, fixed_triu_mask):
    return _sms_math(input.double(), mask, scale, fixed_triu_mask).to(input.dtype)


# (input, mask): mask per batch and query, shared over heads, or as large as input
_SMS_SHAPES = (((2, 4, 8, 8), (2, 1, 8, 8)), ((1, 2, 5, 16), (1, 2, 5, 16)), ((3, 1, 7, 3), (1, 1, 7, 3)), ((2, 3, 1, 9), (2, 1, 1, 9)),
               ((0, 2, 4, 4), (0, 1, 4, 4)), ((4, 8, 64, 64), (4, 1, 64, 64)))
_SMS_PARAMS = (dict(scale=1.0, fixed_triu_mask=False), dict(scale=0.125, fixed_triu_mask=False), dict(scale=2.0, fixed_triu_mask=True))

scaled_masked_softmax = Op(
    "diopiScaledMaskedSoftmax", _sms_ref, tensors=dict(input=T(randn(scale=3)), mask=T(mask(0.3))),
    cases=tuple((s, p) for s in _SMS_SHAPES for p in _SMS_PARAMS if not (p["fixed_triu_mask"] and s[0][-2] > s[0][-1])),
    prepare=_sms_prepare, dtypes=SOFTMAX_DTYPES)


def _sms_saved(input, mask, scale, fixed_triu_mask):
    m = _sms_prepare(mask)["mask"]
    return {"mask": m, "output": _sms_math(input.double(), m, scale, fixed_triu_mask).to(input.dtype)}


def _sms_bwd_ref(grad_output, input, mask, scale, fixed_triu_mask):
    x = input.detach().double().requires_grad_(True)
    (g,) = torch.autograd.grad(_sms_math(x, mask, scale, fixed_triu_mask), x, grad_output.double())
    return g.to(input.dtype)


scaled_masked_softmax_backward = Op(
    "diopiScaledMaskedSoftmaxBackward", _sms_bwd_ref, tensors=dict(grad_output=T(), input=T(randn(scale=3)), mask=T(mask(0.3))),
    cases=tuple(((s[0],) + s, p) for s in _SMS_SHAPES for p in _SMS_PARAMS if not (p["fixed_triu_mask"] and s[0][-2] > s[0][-1])),
    prepare=_sms_saved, extra=("input",), dtypes=SOFTMAX_DTYPES,
    tol={"float16": (4e-3, 4e-3), "bfloat16": (3e-2, 3e-2, 0.05)},
    tol_reason="the reference differentiates at the float64 input; the operator works from the rounded saved output "
               "(bfloat16 cancels in g - sum(g * y): proven for a 5% error)")


# ---------------------------------------------------------------- prompt flash attention
def _pfa_math(query, key, value, atten_mask, actual_seq_lengths, max_input_len, num_heads, num_kv_heads, dim):
    b, s = len(actual_seq_lengths), max_input_len
    q = query.reshape(b, s, num_heads, dim)
    k = key.reshape(b, s, num_kv_heads, dim)
    v = value.reshape(b, s, num_kv_heads, dim)
    out = torch.zeros(b, s, num_heads, dim, dtype=q.dtype)
    m = atten_mask
    if m is not None and m.dim() == 4:
        m = m[:, 0]
    for i, n in enumerate(actual_seq_lengths):
        ex = None
        if m is not None:
            mi = m if m.dim() == 2 else m[0 if m.shape[0] == 1 else i]
            ex = mi[:n, :n] != 0
        o, _, _ = _attn(q[i:i + 1, :n], k[i:i + 1, :n], v[i:i + 1, :n], 1 / math.sqrt(dim), True, alibi=None, excluded=ex)
        out[i, :n] = o[0]
    return out.reshape(query.shape)


def _pfa_prepare(atten_mask, mask_kind, max_input_len):
    if mask_kind == "none":
        return {"atten_mask": None}
    if mask_kind == "causal":
        return {"atten_mask": torch.ones(atten_mask.shape, dtype=torch.bool).triu(1)}
    return {"atten_mask": atten_mask & ~torch.eye(atten_mask.shape[-2], atten_mask.shape[-1], dtype=torch.bool)}


def _pfa_ref(query, key, value, atten_mask, actual_seq_lengths, max_input_len, num_heads, num_kv_heads, dim):
    return _pfa_math(query.double(), key.double(), value.double(), atten_mask, actual_seq_lengths, max_input_len, num_heads, num_kv_heads,
                     dim).to(query.dtype)


# (lengths, max_input_len, heads, kv_heads, dim, rank of query (2: (B*S, H*D), 3: (B, S, H*D)), mask shape)
_PFA = (((5, 8), 8, 4, 4, 8, 2, (8, 8)), ((3, 6, 6), 6, 2, 1, 16, 3, (3, 6, 6)), ((7,), 7, 4, 2, 8, 2, (1, 1, 7, 7)),
        ((4, 1, 9), 10, 2, 2, 8, 3, (10, 10)), ((0, 3), 4, 2, 2, 8, 2, (4, 4)), ((128, 100), 128, 8, 8, 64, 3, (128, 128)))


def _pfa_cases():
    out = []
    for lens, s, h, hk, d, rank, ms in _PFA:
        b = len(lens)
        shp = (lambda n: (b * s, n * d)) if rank == 2 else (lambda n: (b, s, n * d))  # noqa: E731
        kinds = ("none", "causal", "random") if b * s * h * d <= 65536 else ("causal",)
        for mk in kinds:
            out.append(((shp(h), shp(hk), shp(hk), ms), dict(actual_seq_lengths=lens, max_input_len=s, num_heads=h, num_kv_heads=hk, dim=d,
                                                              mask_kind=mk)))
    return tuple(out)


prompt_flash_attention = Op(
    "diopiPromptFlashAttention", _pfa_ref, tensors=dict(query=T(), key=T(), value=T(), atten_mask=T(mask(0.3), "bool")),
    cases=_pfa_cases(), prepare=_pfa_prepare, extra=("mask_kind",), dtypes=SOFTMAX_DTYPES)
