// Family llm_inference: sampling penalties, the KV-cache index copy, decode-stage token attention (scores, then
// softmax and value reduction), paged attention over a block table and prefill (context) attention over packed
// sequences. The two full attentions use the blocked core of common/attention.hpp; 16-bit inputs compute in float, float64
// in double.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/attention_ops.hpp"
#include "common/common.hpp"

namespace impl::cpu {

using namespace attn_kernels;

namespace {

/// Element offset (in elements) of the flat row-major index `flat` of t.
int64_t offsetOfFlat(const TensorView& t, int64_t flat) {
    int64_t off = 0;
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
        off += (flat % t.shape[d]) * t.strides[d];
        flat /= t.shape[d];
    }
    return off;
}

/// A 1-D floating tensor as double values (exact for every float dtype).
std::vector<double> hostFloats(diopiContextHandle_t ctx, const TensorView& t, const char* name) {
    requireFloat(t, name);
    TensorView c = contiguousAs(ctx, t, diopi_dtype_float64);
    return std::vector<double>(c.ptr<const double>(), c.ptr<const double>() + c.numel);
}

/// Per-sequence lengths and starts of the token-attention calls, checked against b_loc and the score columns.
struct TokenTable {
    std::vector<int64_t> loc, starts, lens;
    int64_t cols = 0;
};

TokenTable tokenTable(diopiContextHandle_t ctx, diopiConstTensorHandle_t bLoc, diopiConstTensorHandle_t bStart, diopiConstTensorHandle_t bLen,
                      int64_t batch, int64_t maxInputLen, int64_t scoreCols, int64_t cacheRows) {
    TensorView loc = view(bLoc, "b_loc");
    requireDim(loc, 2, "b_loc");
    if (!isIntegralDtype(loc.dtype)) failCode(diopiDtypeNotSupported, "b_loc must be an integer tensor, got ", dtypeName(loc.dtype));
    TokenTable t;
    t.starts = hostInts(ctx, view(bStart, "b_start_loc"), "b_start_loc");
    t.lens = hostInts(ctx, view(bLen, "b_seq_len"), "b_seq_len");
    CPU_CHECK((int64_t)t.starts.size() == batch && (int64_t)t.lens.size() == batch && loc.shape[0] == batch,
              "b_loc, b_start_loc and b_seq_len must have one row / value per batch (", batch, ")");
    CPU_CHECK(maxInputLen >= 0 && maxInputLen <= loc.shape[1], "max_input_len (", maxInputLen, ") must lie in [0, b_loc.size(1) = ", loc.shape[1], "]");
    t.cols = loc.shape[1];
    TensorView lc = contiguousAs(ctx, loc, diopi_dtype_int64);
    t.loc.assign(lc.ptr<const int64_t>(), lc.ptr<const int64_t>() + lc.numel);
    for (int64_t b = 0; b < batch; ++b) {
        CPU_CHECK(t.lens[b] >= 0 && t.lens[b] <= maxInputLen, "b_seq_len[", b, "] = ", t.lens[b], " must lie in [0, max_input_len]");
        CPU_CHECK(t.starts[b] >= 0 && t.starts[b] + t.lens[b] <= scoreCols, "b_start_loc + b_seq_len of batch ", b, " exceeds the ", scoreCols,
                  " score columns");
        for (int64_t c = maxInputLen - t.lens[b]; c < maxInputLen; ++c) {
            int64_t r = t.loc[b * t.cols + c];
            CPU_CHECK(r >= 0 && r < cacheRows, "b_loc[", b, ", ", c, "] = ", r, " is outside the ", cacheRows, "-row cache");
        }
    }
    return t;
}

}  // namespace

// ---------------------------------------------------------------- sampling penalties

// logits (B, V) in place: for the entries t of batch b (p_cumsum_seq_len[b] <= t < p_cumsum_seq_len[b + 1]),
// logits[b, p_token_ids[t]] -= p_token_counts[t] * frequency_penalty[b] + presence_penalty[b], in float (double for float64).
diopiError_t diopiApplyPenalty(diopiContextHandle_t ctx, diopiTensorHandle_t logits, diopiConstTensorHandle_t presence_penalty,
                               diopiConstTensorHandle_t frequency_penalty, diopiConstTensorHandle_t p_token_ids,
                               diopiConstTensorHandle_t p_token_counts, diopiConstTensorHandle_t p_cumsum_seq_len, int p_max_len_in_batch) {
    return guard(__func__, [&] {
        TensorView L = view(logits, "logits");
        requireFloat(L, "logits");
        requireDim(L, 2, "logits");
        std::vector<double> pres = hostFloats(ctx, view(presence_penalty, "presence_penalty"), "presence_penalty");
        std::vector<double> freq = hostFloats(ctx, view(frequency_penalty, "frequency_penalty"), "frequency_penalty");
        std::vector<int64_t> ids = hostInts(ctx, view(p_token_ids, "p_token_ids"), "p_token_ids");
        std::vector<int64_t> counts = hostInts(ctx, view(p_token_counts, "p_token_counts"), "p_token_counts");
        std::vector<int64_t> cum = hostInts(ctx, view(p_cumsum_seq_len, "p_cumsum_seq_len"), "p_cumsum_seq_len");
        const int64_t b = L.shape[0], vocab = L.shape[1], n = (int64_t)ids.size();
        CPU_CHECK((int64_t)counts.size() == n, "p_token_counts must have the shape of p_token_ids");
        CPU_CHECK((int64_t)cum.size() == b + 1, "p_cumsum_seq_len must hold batch_size + 1 = ", b + 1, " offsets, got ", cum.size());
        CPU_CHECK((int64_t)pres.size() == b && (int64_t)freq.size() == b, "presence_penalty and frequency_penalty must hold one value per batch");
        for (int64_t i = 0; i < b; ++i) {
            CPU_CHECK(cum[i] >= 0 && cum[i + 1] >= cum[i] && cum[i + 1] <= n, "p_cumsum_seq_len must be non-decreasing offsets into p_token_ids");
            CPU_CHECK(cum[i + 1] - cum[i] <= p_max_len_in_batch, "batch ", i, " has more tokens than p_max_len_in_batch (", p_max_len_in_batch, ")");
            for (int64_t t = cum[i]; t < cum[i + 1]; ++t)
                CPU_CHECK(ids[t] >= 0 && ids[t] < vocab, "p_token_ids[", t, "] = ", ids[t], " is outside the vocabulary of ", vocab);
        }
        dispatch<FloatTypes>(L.dtype, "logits", [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;  // float for 16-bit and float32 logits, double for float64
            T* p = L.ptr<T>();
            for (int64_t i = 0; i < b; ++i)
                for (int64_t t = cum[i]; t < cum[i + 1]; ++t) {
                    T& x = p[i * L.strides[0] + ids[t] * L.strides[1]];
                    x = T(A(x) - (A(counts[t]) * A(freq[i]) + A(pres[i])));
                }
        });
    });
}

// logits (any shape) in place, addressed flat: x = logits.flat[id]; x = x > 0 ? x / r : x * r; x -= count * f + p,
// the penalties holding one value per id or a single value.
diopiError_t diopiApplyPenaltyV2(diopiContextHandle_t ctx, diopiTensorHandle_t logits, diopiConstTensorHandle_t presence_penalty,
                                 diopiConstTensorHandle_t frequency_penalty, diopiConstTensorHandle_t repetition_penalty,
                                 diopiConstTensorHandle_t p_token_ids, diopiConstTensorHandle_t p_token_counts) {
    return guard(__func__, [&] {
        TensorView L = view(logits, "logits");
        requireFloat(L, "logits");
        std::vector<int64_t> ids = hostInts(ctx, view(p_token_ids, "p_token_ids"), "p_token_ids");
        std::vector<int64_t> counts = hostInts(ctx, view(p_token_counts, "p_token_counts"), "p_token_counts");
        const int64_t n = (int64_t)ids.size();
        CPU_CHECK((int64_t)counts.size() == n, "p_token_counts must have the shape of p_token_ids");
        auto penalty = [&](diopiConstTensorHandle_t h, const char* name) {
            TensorView t = view(h, name);
            CPU_CHECK(t.numel == n || t.numel == 1, name, " must hold one value per token id (", n, ") or a single value, got ", t.numel);
            requireFloat(t, name);
            TensorView c = contiguousAs(ctx, t, diopi_dtype_float64);
            return std::vector<double>(c.ptr<const double>(), c.ptr<const double>() + c.numel);
        };
        std::vector<double> pres = penalty(presence_penalty, "presence_penalty"), freq = penalty(frequency_penalty, "frequency_penalty"),
                           rep = penalty(repetition_penalty, "repetition_penalty");
        for (int64_t t = 0; t < n; ++t) CPU_CHECK(ids[t] >= 0 && ids[t] < L.numel, "p_token_ids[", t, "] = ", ids[t], " is outside logits");
        auto at = [](const std::vector<double>& v, int64_t t) { return v.size() == 1 ? v[0] : v[t]; };
        dispatch<FloatTypes>(L.dtype, "logits", [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;  // float for 16-bit and float32 logits, double for float64
            T* p = L.ptr<T>();
            for (int64_t t = 0; t < n; ++t) {
                T& x = p[offsetOfFlat(L, ids[t])];
                A y = A(x), r = A(at(rep, t));
                y = y > A(0) ? y / r : y * r;
                x = T(y - A(counts[t]) * A(at(freq, t)) - A(at(pres, t)));
            }
        });
    });
}

// ---------------------------------------------------------------- KV cache

// out[dest_loc[i]] = k[i] (cast to out's dtype); other rows of out are left as they are.
diopiError_t diopiDestIndexCopyKV(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t k, diopiConstTensorHandle_t dest_loc) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), K = view(k, "k");
        std::vector<int64_t> loc = hostInts(ctx, view(dest_loc, "dest_loc"), "dest_loc");
        CPU_CHECK(K.dim() >= 1 && K.dim() == o.dim() && Shape(K.shape.begin() + 1, K.shape.end()) == Shape(o.shape.begin() + 1, o.shape.end()),
                  "k ", shapeStr(K.shape), " and out ", shapeStr(o.shape), " must have the same trailing dims");
        CPU_CHECK((int64_t)loc.size() == K.shape[0], "dest_loc must hold one index per row of k (", K.shape[0], "), got ", loc.size());
        for (size_t i = 0; i < loc.size(); ++i)
            CPU_CHECK(loc[i] >= 0 && loc[i] < o.shape[0], "dest_loc[", i, "] = ", loc[i], " is outside the ", o.shape[0], " rows of out");
        Shape rowShape(K.shape.begin() + 1, K.shape.end()), oStr(o.strides.begin() + 1, o.strides.end()), kStr(K.strides.begin() + 1, K.strides.end());
        const int64_t rowElems = shapeNumel(rowShape);
        if (o.dtype == K.dtype && oStr == contiguousStrides(rowShape) && kStr == oStr) {
            // Dense rows of one dtype: one memcpy per row.
            const size_t bytes = (size_t)(rowElems * o.itemsize);
            for (size_t i = 0; i < loc.size(); ++i)
                std::memcpy(o.data + loc[i] * o.strides[0] * o.itemsize, K.data + (int64_t)i * K.strides[0] * K.itemsize, bytes);
            return;
        }
        for (size_t i = 0; i < loc.size(); ++i)
            copyCast(o.restrided(rowShape, oStr, loc[i] * o.strides[0]), K.restrided(rowShape, kStr, (int64_t)i * K.strides[0]));
    });
}

// ---------------------------------------------------------------- token attention (decode)

// token_attention_out[h, start_b + t] = q[b, h] . k[b_loc[b, max_input_len - len_b + t], h / (H / Hk)] / sqrt(D).
// Score columns no sequence covers are left as they are.
diopiError_t diopiTokenAttentionInference(diopiContextHandle_t ctx, diopiTensorHandle_t token_attention_out, diopiConstTensorHandle_t q,
                                          diopiConstTensorHandle_t k, diopiConstTensorHandle_t b_loc, diopiConstTensorHandle_t b_start_loc,
                                          diopiConstTensorHandle_t b_seq_len, int max_input_len) {
    return guard(__func__, [&] {
        TensorView o = view(token_attention_out, "token_attention_out"), Q = view(q, "q"), K = view(k, "k");
        requireFloat(Q, "q");
        requireFloat(K, "k");
        requireFloat(o, "token_attention_out");
        requireDim(Q, 3, "q");
        requireDim(K, 3, "k");
        requireDim(o, 2, "token_attention_out");
        const int64_t b = Q.shape[0], h = Q.shape[1], d = Q.shape[2], hk = K.shape[1];
        CPU_CHECK(K.shape[2] == d, "q and k must have the same head dimension");
        CPU_CHECK(hk > 0 && h % hk == 0, "the heads of q (", h, ") must be a multiple of the heads of k (", hk, ")");
        CPU_CHECK(o.shape[0] == h, "token_attention_out must have shape (heads, total_tokens), got ", shapeStr(o.shape));
        TokenTable tt = tokenTable(ctx, b_loc, b_start_loc, b_seq_len, b, max_input_len, o.shape[1], K.shape[0]);
        const diopiDtype_t ct = computeDtype({Q.dtype, K.dtype, o.dtype});
        TensorView qf = contiguousAs(ctx, Q, ct), kf = contiguousAs(ctx, K, ct);
        TensorView res = newTensor(ctx, {h, o.shape[1]}, ct);
        const int64_t rep = h / hk;
        dispatch<TypeList<float, double>>(ct, "q", [&](auto tag) {
            using S = typename decltype(tag)::type;
            const S scale = S(1.0 / std::sqrt((double)d));
            const S *qp = qf.ptr<const S>(), *kp = kf.ptr<const S>();
            S* rp = res.ptr<S>();
            parallelFor(b * h, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, max_input_len * d)), [&](int64_t tb, int64_t te) {
                for (int64_t t = tb; t < te; ++t) {
                    int64_t i = t / h, hh = t % h, len = tt.lens[i];
                    const S* qi = qp + (i * h + hh) * d;
                    for (int64_t c = 0; c < len; ++c) {
                        const S* kr = kp + (tt.loc[i * tt.cols + max_input_len - len + c] * hk + hh / rep) * d;
                        S s = 0;
                        for (int64_t e = 0; e < d; ++e) s += qi[e] * kr[e];
                        rp[hh * o.shape[1] + tt.starts[i] + c] = s * scale;
                    }
                }
            });
        });
        // Only the covered columns are written back.
        for (int64_t i = 0; i < b; ++i) {
            if (tt.lens[i] == 0) continue;
            Shape sh{h, tt.lens[i]};
            copyCast(o.restrided(sh, o.strides, tt.starts[i] * o.strides[1]), res.restrided(sh, res.strides, tt.starts[i]));
        }
    });
}

// out[b, h] = softmax(logics[h, start_b : start_b + len_b]) @ v[b_loc[b, max_input_len - len_b + t], h / (H / Hk)].
// other_kv_index only matters to kernels that load padded positions; a batch without tokens gets 0.
diopiError_t diopiTokenSoftmaxReduceVInference(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t logics,
                                               diopiConstTensorHandle_t v, diopiConstTensorHandle_t b_loc, diopiConstTensorHandle_t b_start_loc,
                                               diopiConstTensorHandle_t b_seq_len, int max_input_len, int other_kv_index) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), lg = view(logics, "logics"), V = view(v, "v");
        requireFloat(lg, "logics");
        requireFloat(V, "v");
        requireFloat(o, "out");
        requireDim(o, 3, "out");
        requireDim(lg, 2, "logics");
        requireDim(V, 3, "v");
        const int64_t b = o.shape[0], h = o.shape[1], d = o.shape[2], hk = V.shape[1];
        CPU_CHECK(lg.shape[0] == h, "logics must have shape (heads, total_tokens), got ", shapeStr(lg.shape));
        CPU_CHECK(V.shape[2] == d, "out and v must have the same head dimension");
        CPU_CHECK(hk > 0 && h % hk == 0, "the heads of out (", h, ") must be a multiple of the heads of v (", hk, ")");
        TokenTable tt = tokenTable(ctx, b_loc, b_start_loc, b_seq_len, b, max_input_len, lg.shape[1], V.shape[0]);
        const diopiDtype_t ct = computeDtype({lg.dtype, V.dtype, o.dtype});
        TensorView lf = contiguousAs(ctx, lg, ct), vf = contiguousAs(ctx, V, ct);
        TensorView res = zerosOf(ctx, {b, h, d}, ct);
        const int64_t cols = lg.shape[1], rep = h / hk;
        dispatch<TypeList<float, double>>(ct, "logics", [&](auto tag) {
            using S = typename decltype(tag)::type;
            const S *lp = lf.ptr<const S>(), *vp = vf.ptr<const S>();
            S* rp = res.ptr<S>();
            parallelFor(b * h, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, max_input_len * d)), [&](int64_t tb, int64_t te) {
                std::vector<S> w;
                for (int64_t t = tb; t < te; ++t) {
                    int64_t i = t / h, hh = t % h, len = tt.lens[i];
                    if (len == 0) continue;
                    const S* s = lp + hh * cols + tt.starts[i];
                    S mx = -std::numeric_limits<S>::infinity(), sum = 0;
                    for (int64_t c = 0; c < len; ++c) mx = std::max(mx, s[c]);
                    w.resize((size_t)len);
                    for (int64_t c = 0; c < len; ++c) sum += (w[c] = std::exp(s[c] - mx));
                    S* acc = rp + (i * h + hh) * d;
                    for (int64_t c = 0; c < len; ++c) {
                        const S* vr = vp + (tt.loc[i * tt.cols + max_input_len - len + c] * hk + hh / rep) * d;
                        const S wc = w[c] / sum;
                        for (int64_t e = 0; e < d; ++e) acc[e] += wc * vr[e];
                    }
                }
            });
        });
        copyCast(o, res);
    });
}

// ---------------------------------------------------------------- paged attention (decode)

// One query token per batch entry attends to its cached keys: token t < actual_seq_lengths[b] lives in cache slot
// block_table[b, t / block_size] * block_size + t % block_size of k / v, whose elements are (slots, num_kv_heads, dim).
// q (B, num_heads * dim) (or any shape holding that, out alike). attenMask: NULL or (B|1, ..., L), nonzero = excluded.
diopiError_t diopiPagedAttention(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k,
                                 diopiConstTensorHandle_t v, diopiConstTensorHandle_t attenMask, diopiSize_t actual_seq_lengths, int64_t num_heads,
                                 int64_t num_kv_heads, int64_t dim, diopiConstTensorHandle_t block_table, int64_t block_size) {
    return guard(__func__, [&] {
        TensorView Q = view(q, "q"), K = view(k, "k"), V = view(v, "v"), o = view(out, "out"), bt = view(block_table, "block_table");
        requireFloat(Q, "q");
        requireFloat(K, "k");
        requireFloat(V, "v");
        requireDim(bt, 2, "block_table");
        Shape lens = toShape(actual_seq_lengths);
        const int64_t b = (int64_t)lens.size();
        CPU_CHECK(dim > 0 && num_heads > 0 && num_kv_heads > 0 && num_heads % num_kv_heads == 0,
                  "dim and the head counts must be positive, num_kv_heads dividing num_heads");
        CPU_CHECK(block_size > 0, "block_size must be positive, got ", block_size);
        CPU_CHECK(Q.dim() >= 1 && Q.shape[0] == b && Q.numel == b * num_heads * dim, "q must hold (batch, num_heads * dim) elements with batch = ", b,
                  ", got ", shapeStr(Q.shape));
        CPU_CHECK(o.shape == Q.shape, "out must have the shape ", shapeStr(Q.shape), " of q, got ", shapeStr(o.shape));
        CPU_CHECK(bt.shape[0] == b, "block_table must have one row per batch (", b, ")");
        CPU_CHECK(K.numel % (num_kv_heads * dim) == 0 && V.numel == K.numel, "k and v must hold (slots, num_kv_heads, dim) elements");
        std::vector<int64_t> table;
        {
            if (!isIntegralDtype(bt.dtype)) failCode(diopiDtypeNotSupported, "block_table must be an integer tensor, got ", dtypeName(bt.dtype));
            TensorView t = contiguousAs(ctx, bt, diopi_dtype_int64);
            table.assign(t.ptr<const int64_t>(), t.ptr<const int64_t>() + t.numel);
        }
        const int64_t slots = K.numel / (num_kv_heads * dim), maxBlocks = bt.shape[1];
        Problem pr;
        // Dense copies in the callers' element order, then read as (rows, heads, dim).
        pr.ct = computeDtype({Q.dtype, K.dtype, V.dtype});
        TensorView qc = contiguousAs(ctx, Q, pr.ct), kc = contiguousAs(ctx, K, pr.ct), vc = contiguousAs(ctx, V, pr.ct);
        pr.qf = qc.reshaped({b, num_heads, dim});
        pr.kf = kc.reshaped({slots, num_kv_heads, dim});
        pr.vf = vc.reshaped({slots, num_kv_heads, dim});
        pr.tq = b;
        pr.tk = slots;
        pr.batch = b;
        pr.spec.hq = num_heads;
        pr.spec.hk = num_kv_heads;
        pr.spec.d = pr.spec.dv = dim;
        pr.spec.scale = 1.0 / std::sqrt((double)dim);
        std::vector<std::vector<int64_t>> rows((size_t)b);
        for (int64_t i = 0; i < b; ++i) {
            CPU_CHECK(lens[i] >= 0, "actual_seq_lengths[", i, "] must be non-negative");
            CPU_CHECK((lens[i] + block_size - 1) / block_size <= maxBlocks, "sequence ", i, " needs more blocks than block_table has columns");
            for (int64_t t = 0; t < lens[i]; ++t) {
                int64_t blk = table[i * maxBlocks + t / block_size], slot = blk * block_size + t % block_size;
                CPU_CHECK(blk >= 0 && slot < slots, "block_table[", i, ", ", t / block_size, "] = ", blk, " names a block outside the cache");
                rows[i].push_back(slot);
            }
            Seq s;
            s.b = i;
            s.q0 = i;
            s.sq = 1;
            s.sk = lens[i];
            s.kRows = rows[i].data();
            pr.seqs.push_back(s);
        }
        TensorView m = viewOpt(attenMask, "attenMask");
        if (m.defined()) {
            CPU_CHECK(m.dim() >= 1, "attenMask must have at least 1 dim");
            TensorView mb = contiguousAs(ctx, m, diopi_dtype_bool);
            int64_t len = m.shape[m.dim() - 1], nrows = mb.numel / std::max<int64_t>(len, 1);
            CPU_CHECK(nrows == 1 || nrows == b, "attenMask must have 1 or batch rows of keys, got ", shapeStr(m.shape));
            for (int64_t i = 0; i < b; ++i) {
                CPU_CHECK(len >= lens[i], "attenMask (", len, " keys) is shorter than sequence ", i);
                pr.seqs[i].mask = attn::Mask{mb.ptr<const uint8_t>() + (nrows == 1 ? 0 : i * len), 0, 0, 1};
            }
        }
        TensorView res = runForward(ctx, pr);
        copyCast(o, res.reshaped(Q.shape));
    });
}

// ---------------------------------------------------------------- context attention (prefill)

// q (T, H, D), k / v (T, Hk, D): sequence b is rows [b_start_loc[b], b_start_loc[b] + b_seq_len[b]) of all three,
// causal within itself, scale 1 / sqrt(D); its rows of context_attention_out are written, other rows left as they are.
diopiError_t diopiContextAttentionInference(diopiContextHandle_t ctx, diopiTensorHandle_t context_attention_out, diopiConstTensorHandle_t q,
                                            diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiConstTensorHandle_t b_start_loc,
                                            diopiConstTensorHandle_t b_seq_len, int max_input_len) {
    return guard(__func__, [&] {
        TensorView o = view(context_attention_out, "context_attention_out");
        Problem pr;
        pack(ctx, pr, view(q, "q"), view(k, "k"), view(v, "v"), 3);
        CPU_CHECK(pr.tk == pr.tq, "q, k and v must have the same number of tokens");
        Shape want{pr.tq, pr.spec.hq, pr.spec.dv};
        CPU_CHECK(o.shape == want, "context_attention_out must have shape ", shapeStr(want), ", got ", shapeStr(o.shape));
        std::vector<int64_t> starts = hostInts(ctx, view(b_start_loc, "b_start_loc"), "b_start_loc");
        std::vector<int64_t> lens = hostInts(ctx, view(b_seq_len, "b_seq_len"), "b_seq_len");
        CPU_CHECK(starts.size() == lens.size(), "b_start_loc and b_seq_len must have the same length");
        for (size_t i = 0; i < starts.size(); ++i) {
            CPU_CHECK(lens[i] >= 0 && lens[i] <= max_input_len, "b_seq_len[", i, "] = ", lens[i], " must lie in [0, max_input_len]");
            CPU_CHECK(starts[i] >= 0 && starts[i] + lens[i] <= pr.tq, "b_start_loc + b_seq_len of sequence ", i, " exceeds the ", pr.tq, " tokens");
            Seq s;
            s.b = (int64_t)i;
            s.q0 = s.k0 = starts[i];
            s.sq = s.sk = lens[i];
            pr.seqs.push_back(s);
        }
        pr.batch = (int64_t)pr.seqs.size();
        pr.spec.scale = 1.0 / std::sqrt((double)pr.spec.d);
        pr.spec.causal = true;
        TensorView res = runForward(ctx, pr);
        for (const Seq& s : pr.seqs) {
            if (s.sq == 0) continue;
            Shape sh{s.sq, pr.spec.hq, pr.spec.dv};
            copyCast(o.restrided(sh, o.strides, s.q0 * o.strides[0]), res.restrided(sh, res.strides, s.q0 * res.strides[0]));
        }
    });
}

}  // namespace impl::cpu
