"""LLM inference kernels: sampling penalties, the KV-cache index copy, decode-stage token attention (scores, then
softmax and value reduction), paged attention and prefill (context) attention over packed sequences.

References are float64 math written out here and cast once. Index tensors (token ids, cache slots, block tables,
offsets) are derived in `prepare` from generated permutations and uniform draws, so every case has distinct ids and
slots. Sequences are never empty in the attention cases (a query without keys is a convention, not math).
"""
import math

from conformance.gen import arange_perm, mask, randint, randn, uniform
from conformance.reftorch import torch
from conformance.spec import FLOAT, Op, T


def _offsets(lens):
    out = [0]
    for n in lens:
        out.append(out[-1] + n)
    return out


def _idx(values, dtype):
    return torch.tensor(list(values), dtype=getattr(torch, dtype))


# ---------------------------------------------------------------- penalties
def _pen_prepare(keys, counts_raw, frac, idx_dtype):
    """Row b lists the tokens whose key is below frac, in the order of their keys (so ids are distinct but unsorted)."""
    ids, counts, lens = [], [], []
    for b in range(keys.shape[0]):
        row = keys[b]
        chosen = [int(i) for i in torch.argsort(row) if row[i] < frac]
        ids += chosen
        counts += [int(counts_raw[b, i]) for i in chosen]
        lens.append(len(chosen))
    return {"p_token_ids": _idx(ids, idx_dtype), "p_token_counts": _idx(counts, idx_dtype),
            "p_cumsum_seq_len": _idx(_offsets(lens), idx_dtype), "p_max_len_in_batch": max(lens + [0])}


def _pen_ref(logits, presence_penalty, frequency_penalty, p_token_ids, p_token_counts, p_cumsum_seq_len):
    out = logits.double().clone()
    cum = p_cumsum_seq_len.tolist()
    for b in range(out.shape[0]):
        ids = p_token_ids[cum[b]:cum[b + 1]].long()
        cnt = p_token_counts[cum[b]:cum[b + 1]].double()
        out[b, ids] -= cnt * frequency_penalty[b].double() + presence_penalty[b].double()
    return out.to(logits.dtype)


# (batch, vocab)
_PEN_SHAPES = ((1, 16), (3, 50), (4, 7), (2, 1000), (8, 4096))


def _pen_cases():
    out = []
    for b, v in _PEN_SHAPES:
        big = b * v > 16384
        for frac, idx in (((0.05, "int32"),) if big else ((0.2, "int32"), (0.6, "int64"), (0.0, "int32"))):
            out.append((((b, v), (b,), (b,), (b, v), (b, v)), dict(frac=frac, idx_dtype=idx)))
    return tuple(out)


apply_penalty = Op(
    "diopiApplyPenalty", _pen_ref,
    tensors=dict(logits=T(randn(3.0)), presence_penalty=T(uniform(0.0, 1.0)), frequency_penalty=T(uniform(0.0, 1.0)),
                 keys=T(uniform(0.0, 1.0), "float64"), counts_raw=T(randint(1, 6), "int64")),
    cases=_pen_cases(), prepare=_pen_prepare, extra=("keys", "counts_raw", "frac", "idx_dtype"), dtypes=FLOAT)


def _pen2_prepare(logits, keys, counts_raw, presence_penalty, frequency_penalty, repetition_penalty, frac, shared, idx_dtype):
    flat = keys.reshape(-1)
    ids = [int(i) for i in torch.argsort(flat) if flat[i] < frac]
    n = 1 if shared else len(ids)
    return {"p_token_ids": _idx(ids, idx_dtype), "p_token_counts": _idx([int(counts_raw.reshape(-1)[i]) for i in ids], idx_dtype),
            "presence_penalty": presence_penalty[:n], "frequency_penalty": frequency_penalty[:n], "repetition_penalty": repetition_penalty[:n]}


def _pen2_ref(logits, presence_penalty, frequency_penalty, repetition_penalty, p_token_ids, p_token_counts):
    flat = logits.double().reshape(-1).clone()
    ids = p_token_ids.long()
    x = flat[ids]
    r, f, p = repetition_penalty.double(), frequency_penalty.double(), presence_penalty.double()
    x = torch.where(x > 0, x / r, x * r)
    flat[ids] = x - p_token_counts.double() * f - p
    return flat.reshape(logits.shape).to(logits.dtype)


def _pen2_cases():
    out = []
    # logits are addressed flat: 2-D (batch, vocab) shapes and one 3-D one
    for shape in tuple(_PEN_SHAPES) + ((2, 3, 20),):
        n = math.prod(shape)
        big = n > 16384
        for frac, shared, idx in (((0.05, False, "int32"),) if big else ((0.3, False, "int32"), (0.5, True, "int64"), (0.0, False, "int64"))):
            out.append(((shape, shape, shape, (n,), (n,), (n,)), dict(frac=frac, shared=shared, idx_dtype=idx)))
    return tuple(out)


apply_penalty_v2 = Op(
    "diopiApplyPenaltyV2", _pen2_ref,
    tensors=dict(logits=T(randn(3.0)), keys=T(uniform(0.0, 1.0), "float64"), counts_raw=T(randint(1, 6), "int64"),
                 presence_penalty=T(uniform(0.0, 1.0)), frequency_penalty=T(uniform(0.0, 1.0)), repetition_penalty=T(uniform(0.5, 2.0))),
    cases=_pen2_cases(), prepare=_pen2_prepare, extra=("keys", "counts_raw", "frac", "shared", "idx_dtype"), dtypes=FLOAT)


# ---------------------------------------------------------------- KV cache copy
def _copy_prepare(k, perm, idx_dtype):
    return {"dest_loc": perm[:k.shape[0]].to(getattr(torch, idx_dtype))}


def _copy_ref(out, k, dest_loc):
    res = out.clone()
    res[dest_loc.long()] = k
    return res


# (cache rows M, new rows N, heads, head_dim)
_COPY = ((8, 3, 2, 4), (16, 16, 1, 8), (10, 1, 4, 16), (5, 0, 2, 4), (64, 20, 8, 32), (1024, 256, 8, 64))

dest_index_copy_kv = Op(
    "diopiDestIndexCopyKV", _copy_ref, tensors=dict(out=T(), k=T(), perm=T(arange_perm(), "int64")),
    cases=tuple((((m, h, d), (n, h, d), (m,)), dict(idx_dtype=i)) for m, n, h, d in _COPY for i in ("int32", "int64")
                if m * h * d <= 65536 or i == "int64"),
    prepare=_copy_prepare, extra=("perm", "idx_dtype"), dtypes=FLOAT + ("int32", "int8"))


# ---------------------------------------------------------------- token attention (decode)
def _token_tables(perm, seq_lens, max_input_len, idx_dtype):
    """b_loc (B, max_input_len) with each sequence's cache slots right-aligned (padding 0), start offsets, lengths."""
    rows, used = [], 0
    for n in seq_lens:
        slots = perm[used:used + n].tolist()
        used += n
        rows.append([0] * (max_input_len - n) + slots)
    dt = getattr(torch, idx_dtype)
    return {"b_loc": torch.tensor(rows, dtype=dt).reshape(len(seq_lens), max_input_len), "b_start_loc": _idx(_offsets(seq_lens)[:-1], idx_dtype),
            "b_seq_len": _idx(seq_lens, idx_dtype)}


def _ta_prepare(perm, seq_lens, max_input_len, idx_dtype):
    return _token_tables(perm, seq_lens, max_input_len, idx_dtype)


def _ta_ref(q, k, seq_lens, b_loc, max_input_len):
    h, d = q.shape[1], q.shape[2]
    cols = []
    for b, n in enumerate(seq_lens):
        slots = b_loc[b, max_input_len - n:].long()
        keys = k.double()[slots]  # (n, H, D)
        cols.append(torch.einsum("hd,nhd->hn", q[b].double(), keys) / math.sqrt(d))
    return torch.cat(cols, 1).to(q.dtype) if cols else torch.zeros(h, 0, dtype=q.dtype)


# (seq_lens, max_input_len, heads, head_dim, cache rows)
_TOKEN = (((3, 5), 6, 2, 8, 16), ((1,), 1, 4, 16, 4), ((7, 2, 4, 1), 8, 2, 8, 20), ((10, 10), 10, 1, 32, 24), ((5, 9, 3), 12, 4, 64, 40),
          ((200, 150, 256), 256, 8, 64, 700), ((100, 37), 128, 8, 32, 4096))


def _ta_cases():
    out = []
    for lens, mx, h, d, m in _TOKEN:
        big = m * h * d > 65536
        for idx in (("int32",) if big else ("int32", "int64")):
            out.append((((len(lens), h, d), (m, h, d), (m,)), dict(seq_lens=lens, max_input_len=mx, idx_dtype=idx)))
    return tuple(out)


token_attention_inference = Op(
    "diopiTokenAttentionInference", _ta_ref, tensors=dict(q=T(), k=T(), perm=T(arange_perm(), "int64")), cases=_ta_cases(),
    prepare=_ta_prepare, extra=("perm", "seq_lens", "idx_dtype"), dtypes=FLOAT, accumulation=lambda q: q.shape[2])


def _tsr_prepare(perm, seq_lens, max_input_len, idx_dtype):
    return dict(_token_tables(perm, seq_lens, max_input_len, idx_dtype), other_kv_index=0)


def _tsr_ref(logics, v, seq_lens, b_loc, max_input_len):
    outs, start = [], 0
    for b, n in enumerate(seq_lens):
        p = torch.softmax(logics[:, start:start + n].double(), -1)  # (H, n)
        vals = v.double()[b_loc[b, max_input_len - n:].long()]      # (n, H, D)
        outs.append(torch.einsum("hn,nhd->hd", p, vals))
        start += n
    return torch.stack(outs).to(v.dtype)


def _tsr_cases():
    out = []
    for lens, mx, h, d, m in _TOKEN:
        big = m * h * d > 65536
        for idx in (("int32",) if big else ("int32", "int64")):
            out.append((((h, sum(lens)), (m, h, d), (m,)), dict(seq_lens=lens, max_input_len=mx, idx_dtype=idx)))
    return tuple(out)


token_softmax_reduce_v_inference = Op(
    "diopiTokenSoftmaxReduceVInference", _tsr_ref, tensors=dict(logics=T(randn(2.0)), v=T(), perm=T(arange_perm(), "int64")),
    cases=_tsr_cases(), prepare=_tsr_prepare, extra=("perm", "seq_lens", "idx_dtype"), dtypes=FLOAT,
    accumulation=lambda logics: max(logics.shape[1], 1))


# ---------------------------------------------------------------- paged attention (decode)
def _pa_prepare(bperm, attenMask, actual_seq_lengths, block_size, with_mask):
    b = len(actual_seq_lengths)
    max_blocks = max(-(-n // block_size) for n in actual_seq_lengths)
    table = bperm[:b * max_blocks].reshape(b, max_blocks).to(torch.int32)
    m = None
    if with_mask:
        m = attenMask.clone()
        m[:, 0] = False  # every sequence keeps a key
    return {"block_table": table, "attenMask": m}


def _pa_ref(q, k, v, attenMask, actual_seq_lengths, num_heads, num_kv_heads, dim, block_table, block_size):
    kc = k.double().reshape(-1, num_kv_heads, dim)
    vc = v.double().reshape(-1, num_kv_heads, dim)
    rep = num_heads // num_kv_heads
    outs = []
    for b, n in enumerate(actual_seq_lengths):
        slots = torch.tensor([int(block_table[b, t // block_size]) * block_size + t % block_size for t in range(n)], dtype=torch.long)
        kb = kc[slots].repeat_interleave(rep, 1)  # (n, H, D)
        vb = vc[slots].repeat_interleave(rep, 1)
        qb = q[b].double().reshape(num_heads, dim)
        s = torch.einsum("hd,nhd->hn", qb, kb) / math.sqrt(dim)
        if attenMask is not None:
            s = s.masked_fill(attenMask[b, :n].bool().view(1, n), float("-inf"))
        outs.append(torch.einsum("hn,nhd->hd", torch.softmax(s, -1), vb).reshape(-1))
    return torch.stack(outs).to(q.dtype)


# (seq lengths, heads, kv heads, dim, block_size, cache blocks)
_PAGED = (((5, 3), 2, 2, 8, 4, 6), ((16,), 4, 1, 16, 8, 3), ((1, 7, 12), 4, 2, 8, 4, 12), ((9, 9), 2, 2, 32, 16, 4),
          ((4,), 2, 1, 8, 2, 3), ((2, 2), 6, 3, 4, 1, 4), ((3, 11), 2, 2, 16, 8, 5), ((33, 64, 20, 7), 8, 2, 64, 16, 20),
          ((200, 57), 8, 4, 128, 16, 256))


def _pa_cases():
    out = []
    for lens, h, hk, d, bs, nb in _PAGED:
        big = nb * bs * hk * d > 16384
        for with_mask in ((True,) if big else (False, True)):
            out.append((((len(lens), h * d), (nb, bs, hk * d), (nb, bs, hk * d), (len(lens), max(lens)), (nb,)),
                        dict(actual_seq_lengths=lens, num_heads=h, num_kv_heads=hk, dim=d, block_size=bs, with_mask=with_mask)))
    return tuple(out)


paged_attention = Op(
    "diopiPagedAttention", _pa_ref,
    tensors=dict(q=T(), k=T(), v=T(), attenMask=T(mask(0.3), "bool"), bperm=T(arange_perm(), "int64")), cases=_pa_cases(),
    prepare=_pa_prepare, extra=("bperm", "with_mask"), dtypes=FLOAT, accumulation=lambda dim: dim)


# ---------------------------------------------------------------- context attention (prefill)
def _ca_prepare(seq_lens, idx_dtype):
    return {"b_start_loc": _idx(_offsets(seq_lens)[:-1], idx_dtype), "b_seq_len": _idx(seq_lens, idx_dtype)}


def _ca_ref(q, k, v, seq_lens):
    out = torch.zeros(q.shape, dtype=torch.float64)
    d = q.shape[2]
    for s, n in zip(_offsets(seq_lens), seq_lens):
        qb, kb, vb = (t[s:s + n].double().transpose(0, 1) for t in (q, k, v))  # (H, n, D)
        sc = qb @ kb.transpose(-1, -2) / math.sqrt(d)
        sc = sc.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float("-inf"))
        out[s:s + n] = (torch.softmax(sc, -1) @ vb).transpose(0, 1)
    return out.to(q.dtype)


# (seq_lens, max_input_len, heads, head_dim)
_CONTEXT = (((3, 5), 5, 2, 8), ((1,), 4, 4, 16), ((7, 2, 4, 1), 8, 2, 8), ((16, 16), 16, 1, 32), ((20, 9), 32, 4, 64), ((128, 100, 60), 128, 8, 64))


def _ca_cases():
    out = []
    for lens, mx, h, d in _CONTEXT:
        t = sum(lens)
        big = t * h * d > 65536
        for idx in (("int32",) if big else ("int32", "int64")):
            out.append((((t, h, d),) * 3, dict(seq_lens=lens, max_input_len=mx, idx_dtype=idx)))
    return tuple(out)


context_attention_inference = Op(
    "diopiContextAttentionInference", _ca_ref, tensors=dict(q=T(), k=T(), v=T()), cases=_ca_cases(), prepare=_ca_prepare,
    extra=("seq_lens", "idx_dtype"), dtypes=FLOAT, accumulation=lambda q: q.shape[2])
