// LLM inference kernels (lightllm / vLLM / Ascend style): repetition penalties, KV-cache index copy, token
// attention (scores and softmax-reduce over a token table), paged attention over a block table and context
// (prefill) attention over packed sequences. Half types are computed in float32, float64 in float64.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "helper.hpp"

using namespace impl::aten;

namespace {

at::ScalarType computeType(const at::Tensor& t) { return t.scalar_type() == at::kDouble ? at::kDouble : at::kFloat; }

void requireFloating(const at::Tensor& t, const char* name) {
    if (!at::isFloatingType(t.scalar_type())) fail(std::string(name) + " must be a floating-point tensor", diopiDtypeNotSupported);
}

void requireIndex(const at::Tensor& t, const char* name) {
    if (at::isFloatingType(t.scalar_type()) || t.scalar_type() == at::kBool) fail(std::string(name) + " must be an integer tensor", diopiDtypeNotSupported);
}

void requireDim(const at::Tensor& t, int64_t dim, const char* name) {
    if (t.dim() != dim) fail(std::string(name) + " must be " + std::to_string(dim) + "-D, got " + std::to_string(t.dim()) + "-D");
}

// Values of an integer tensor, read on the host (row-major).
std::vector<int64_t> hostInts(const at::Tensor& t, const char* name) {
    requireIndex(t, name);
    at::Tensor h = t.to(at::kCPU).to(at::kLong).contiguous();
    return std::vector<int64_t>(h.data_ptr<int64_t>(), h.data_ptr<int64_t>() + h.numel());
}

// (S, Hk, D) -> (Hq, S, D), each key/value head repeated Hq / Hk times (query head h uses kv head h / (Hq / Hk)).
at::Tensor headsFirst(const at::Tensor& x, int64_t hq) {
    at::Tensor t = x.permute({1, 0, 2});
    int64_t hk = t.size(0);
    if (hk == 0 || hq % hk != 0) fail("the number of query heads must be a multiple of the number of key/value heads");
    return hk == hq ? t : t.repeat_interleave(hq / hk, 0);
}

// softmax(scale * q k^T) v for one sequence. q (Sq, Hq, D), k / v (Sk, Hk, D) in the compute dtype; causal: key j is
// taken for query i iff j <= i + Sk - Sq; excluded: bool broadcastable to (Hq, Sq, Sk), true = not taken. A query that
// takes no key gets 0. Returns (Sq, Hq, Dv).
at::Tensor attend(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, double scale, bool causal, const at::Tensor& excluded) {
    int64_t sq = q.size(0), hq = q.size(1), sk = k.size(0);
    at::Tensor qh = q.permute({1, 0, 2}), kh = headsFirst(k, hq), vh = headsFirst(v, hq);
    at::Tensor s = at::matmul(qh, kh.transpose(-2, -1)).mul(scale);
    at::Tensor allowed = at::ones({1, sq, sk}, q.options().dtype(at::kBool));
    if (causal) allowed = allowed.tril(sk - sq);
    if (excluded.defined()) allowed = allowed.logical_and(excluded.logical_not());
    allowed = allowed.expand({hq, sq, sk});
    at::Tensor p = at::softmax(s.masked_fill(allowed.logical_not(), -std::numeric_limits<double>::infinity()), -1);
    if (sk > 0) p = at::where(allowed.any(-1, true), p, at::zeros({}, p.options()));
    return at::matmul(p, vh).permute({1, 0, 2});
}

}  // namespace

extern "C" {

// ---- sampling penalties

// logits (B, V), updated in place. For batch b, entries t in [p_cumsum_seq_len[b], p_cumsum_seq_len[b+1]) of
// p_token_ids / p_token_counts (1-D integer tensors) name a token id and its count:
//   logits[b, id] -= count * frequency_penalty[b] + presence_penalty[b]     (penalties: (B) floating).
// p_cumsum_seq_len: B + 1 integer offsets; every batch's token count must be <= p_max_len_in_batch. The ids of one
// batch must be distinct. Computed in float32 (float64 for float64 logits), rounded once.
diopiError_t diopiApplyPenalty(diopiContextHandle_t ctx, diopiTensorHandle_t logits, diopiConstTensorHandle_t presence_penalty,
                               diopiConstTensorHandle_t frequency_penalty, diopiConstTensorHandle_t p_token_ids,
                               diopiConstTensorHandle_t p_token_counts, diopiConstTensorHandle_t p_cumsum_seq_len, int p_max_len_in_batch) {
    DIOPI_IMPL_BEGIN
    at::Tensor L = tensor(logits, "logits");
    requireFloating(L, "logits");
    requireDim(L, 2, "logits");
    at::Tensor pres = tensor(presence_penalty, "presence_penalty"), freq = tensor(frequency_penalty, "frequency_penalty");
    at::Tensor ids = tensor(p_token_ids, "p_token_ids"), counts = tensor(p_token_counts, "p_token_counts");
    requireIndex(ids, "p_token_ids");
    requireDim(ids, 1, "p_token_ids");
    if (counts.sizes() != ids.sizes()) fail("p_token_counts must have the shape of p_token_ids");
    std::vector<int64_t> cum = hostInts(tensor(p_cumsum_seq_len, "p_cumsum_seq_len"), "p_cumsum_seq_len");
    int64_t b = L.size(0), n = ids.size(0);
    if (static_cast<int64_t>(cum.size()) != b + 1) fail("p_cumsum_seq_len must hold batch_size + 1 offsets");
    if (pres.numel() != b || freq.numel() != b) fail("presence_penalty and frequency_penalty must hold one value per batch");
    std::vector<int64_t> rows;
    for (int64_t i = 0; i < b; ++i) {
        if (cum[i] < 0 || cum[i + 1] < cum[i] || cum[i + 1] > n) fail("p_cumsum_seq_len must be non-decreasing offsets into p_token_ids");
        if (cum[i + 1] - cum[i] > p_max_len_in_batch) fail("a batch has more tokens than p_max_len_in_batch");
        rows.insert(rows.end(), static_cast<size_t>(cum[i + 1] - cum[i]), i);
    }
    auto ct = computeType(L);
    auto li = at::TensorOptions().dtype(at::kLong).device(L.device());
    int64_t first = cum[0], used = cum[b] - cum[0];
    at::Tensor r = at::tensor(rows, at::TensorOptions().dtype(at::kLong)).to(L.device());
    at::Tensor c = ids.narrow(0, first, used).to(li);
    if (used > 0 && (c.min().item<int64_t>() < 0 || c.max().item<int64_t>() >= L.size(1))) fail("p_token_ids out of the vocabulary");
    at::Tensor cur = L.index({r, c}).to(ct);
    at::Tensor cnt = counts.narrow(0, first, used).to(L.device(), ct);
    at::Tensor upd = cur - cnt * freq.reshape({-1}).to(L.device(), ct).index({r}) - pres.reshape({-1}).to(L.device(), ct).index({r});
    L.index_put_({r, c}, upd.to(L.scalar_type()));
    DIOPI_IMPL_END
}

// logits (any shape, updated in place) seen as one flat vector. Entry t of p_token_ids (1-D integer, flat indices
// into logits, e.g. batch * vocab + token; distinct) and p_token_counts gets
//   x = logits.flat[id];  x = x > 0 ? x / repetition : x * repetition;  x -= count * frequency + presence
// where the three penalties are 1-D floating tensors with one value per entry of p_token_ids (or a single value).
diopiError_t diopiApplyPenaltyV2(diopiContextHandle_t ctx, diopiTensorHandle_t logits, diopiConstTensorHandle_t presence_penalty,
                                 diopiConstTensorHandle_t frequency_penalty, diopiConstTensorHandle_t repetition_penalty,
                                 diopiConstTensorHandle_t p_token_ids, diopiConstTensorHandle_t p_token_counts) {
    DIOPI_IMPL_BEGIN
    at::Tensor L = tensor(logits, "logits");
    requireFloating(L, "logits");
    at::Tensor ids = tensor(p_token_ids, "p_token_ids"), counts = tensor(p_token_counts, "p_token_counts");
    requireIndex(ids, "p_token_ids");
    requireDim(ids, 1, "p_token_ids");
    if (counts.sizes() != ids.sizes()) fail("p_token_counts must have the shape of p_token_ids");
    int64_t n = ids.size(0);
    auto ct = computeType(L);
    auto penalty = [&](diopiConstTensorHandle_t h, const char* name) {
        at::Tensor p = tensor(h, name);
        if (p.numel() != n && p.numel() != 1) fail(std::string(name) + " must hold one value per token id (or a single value)");
        return p.reshape({-1}).to(L.device(), ct);
    };
    at::Tensor pres = penalty(presence_penalty, "presence_penalty"), freq = penalty(frequency_penalty, "frequency_penalty"),
               rep = penalty(repetition_penalty, "repetition_penalty");
    at::Tensor c = ids.to(L.device(), at::kLong);
    if (n > 0 && (c.min().item<int64_t>() < 0 || c.max().item<int64_t>() >= L.numel())) fail("p_token_ids out of range of logits");
    at::Tensor flat = L.reshape({-1}).to(ct, false, true);
    at::Tensor cur = flat.index_select(0, c);
    cur = at::where(cur.gt(0), cur / rep, cur * rep);
    cur = cur - counts.to(L.device(), ct) * freq - pres;
    flat.index_put_({c}, cur);
    L.copy_(flat.view(L.sizes()));
    DIOPI_IMPL_END
}

// ---- KV cache

// out[dest_loc[i]] = k[i] for i < k.size(0); other rows of out are left as they are. out (M, ...), k (N, ...) with
// the same trailing dims, dest_loc (N) integer in [0, M), distinct. Any dtype (k is cast to out's dtype).
diopiError_t diopiDestIndexCopyKV(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t k, diopiConstTensorHandle_t dest_loc) {
    DIOPI_IMPL_BEGIN
    at::Tensor o = tensor(out, "out"), K = tensor(k, "k"), loc = tensor(dest_loc, "dest_loc");
    requireIndex(loc, "dest_loc");
    requireDim(loc, 1, "dest_loc");
    if (K.dim() != o.dim() || K.dim() < 1 || K.sizes().slice(1) != o.sizes().slice(1)) fail("k and out must have the same trailing dims");
    if (loc.size(0) != K.size(0)) fail("dest_loc must hold one index per row of k");
    at::Tensor l = loc.to(o.device(), at::kLong);
    if (l.numel() > 0 && (l.min().item<int64_t>() < 0 || l.max().item<int64_t>() >= o.size(0))) fail("dest_loc out of range of out");
    o.index_copy_(0, l, K.to(o.scalar_type()));
    DIOPI_IMPL_END
}

// ---- token attention (lightllm)

// token_attention_out (H, sum_len): for batch b with len = b_seq_len[b] and start = b_start_loc[b], and t < len,
//   out[h, start + t] = q[b, h] . k[b_loc[b, max_input_len - len + t], h / (H / Hk)] / sqrt(D)
// q (B, H, D), k (M, Hk, D) (the KV cache), b_loc (B, >= max_input_len) integer token table holding each sequence's
// slots right-aligned at max_input_len. Columns no sequence covers are left as they are.
diopiError_t diopiTokenAttentionInference(diopiContextHandle_t ctx, diopiTensorHandle_t token_attention_out, diopiConstTensorHandle_t q,
                                          diopiConstTensorHandle_t k, diopiConstTensorHandle_t b_loc, diopiConstTensorHandle_t b_start_loc,
                                          diopiConstTensorHandle_t b_seq_len, int max_input_len) {
    DIOPI_IMPL_BEGIN
    at::Tensor o = tensor(token_attention_out, "token_attention_out"), Q = tensor(q, "q"), K = tensor(k, "k"), loc = tensor(b_loc, "b_loc");
    requireFloating(Q, "q");
    requireDim(Q, 3, "q");
    requireDim(K, 3, "k");
    requireDim(o, 2, "token_attention_out");
    requireDim(loc, 2, "b_loc");
    requireIndex(loc, "b_loc");
    int64_t b = Q.size(0), h = Q.size(1), d = Q.size(2);
    std::vector<int64_t> starts = hostInts(tensor(b_start_loc, "b_start_loc"), "b_start_loc"), lens = hostInts(tensor(b_seq_len, "b_seq_len"), "b_seq_len");
    if (static_cast<int64_t>(starts.size()) != b || static_cast<int64_t>(lens.size()) != b || loc.size(0) != b)
        fail("b_loc, b_start_loc and b_seq_len must have one row / value per batch of q");
    if (K.size(2) != d) fail("q and k must have the same head dimension");
    if (o.size(0) != h) fail("token_attention_out must have shape (heads, sum_len)");
    if (max_input_len < 0 || max_input_len > loc.size(1)) fail("max_input_len must lie in [0, b_loc.size(1)]");
    auto ct = computeType(Q);
    double scale = 1.0 / std::sqrt(static_cast<double>(d));
    for (int64_t i = 0; i < b; ++i) {
        int64_t len = lens[i], start = starts[i];
        if (len < 0 || len > max_input_len) fail("b_seq_len must lie in [0, max_input_len]");
        if (start < 0 || start + len > o.size(1)) fail("b_start_loc + b_seq_len exceeds token_attention_out");
        at::Tensor slots = loc[i].narrow(0, max_input_len - len, len).to(at::kLong);
        at::Tensor keys = headsFirst(K.index_select(0, slots).to(ct), h);              // (H, len, D)
        at::Tensor s = at::matmul(keys, Q[i].to(ct).unsqueeze(-1)).squeeze(-1) * scale;  // (H, len)
        o.narrow(1, start, len).copy_(s);
    }
    DIOPI_IMPL_END
}

// out (B, H, D): out[b, h] = softmax(logics[h, start : start + len]) @ v[b_loc[b, max_input_len - len + t], h / (H / Hk)]
// over t < len, with start = b_start_loc[b], len = b_seq_len[b]. logics (H, sum_len), v (M, Hk, D), b_loc as in
// diopiTokenAttentionInference. other_kv_index (a padding slot for vectorised kernels) does not affect the result.
// A batch with len = 0 gets 0.
diopiError_t diopiTokenSoftmaxReduceVInference(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t logics,
                                               diopiConstTensorHandle_t v, diopiConstTensorHandle_t b_loc, diopiConstTensorHandle_t b_start_loc,
                                               diopiConstTensorHandle_t b_seq_len, int max_input_len, int other_kv_index) {
    DIOPI_IMPL_BEGIN
    at::Tensor o = tensor(out, "out"), lg = tensor(logics, "logics"), V = tensor(v, "v"), loc = tensor(b_loc, "b_loc");
    requireFloating(lg, "logics");
    requireDim(o, 3, "out");
    requireDim(lg, 2, "logics");
    requireDim(V, 3, "v");
    requireDim(loc, 2, "b_loc");
    requireIndex(loc, "b_loc");
    int64_t b = o.size(0), h = o.size(1);
    std::vector<int64_t> starts = hostInts(tensor(b_start_loc, "b_start_loc"), "b_start_loc"), lens = hostInts(tensor(b_seq_len, "b_seq_len"), "b_seq_len");
    if (static_cast<int64_t>(starts.size()) != b || static_cast<int64_t>(lens.size()) != b || loc.size(0) != b)
        fail("b_loc, b_start_loc and b_seq_len must have one row / value per batch of out");
    if (lg.size(0) != h) fail("logics must have shape (heads, sum_len)");
    if (o.size(2) != V.size(2)) fail("out and v must have the same head dimension");
    if (max_input_len < 0 || max_input_len > loc.size(1)) fail("max_input_len must lie in [0, b_loc.size(1)]");
    auto ct = computeType(V);
    at::Tensor res = at::zeros({b, h, V.size(2)}, V.options().dtype(ct));
    for (int64_t i = 0; i < b; ++i) {
        int64_t len = lens[i], start = starts[i];
        if (len < 0 || len > max_input_len) fail("b_seq_len must lie in [0, max_input_len]");
        if (start < 0 || start + len > lg.size(1)) fail("b_start_loc + b_seq_len exceeds logics");
        if (len == 0) continue;
        at::Tensor slots = loc[i].narrow(0, max_input_len - len, len).to(at::kLong);
        at::Tensor p = at::softmax(lg.narrow(1, start, len).to(ct), -1);  // (H, len)
        at::Tensor vals = headsFirst(V.index_select(0, slots).to(ct), h);  // (H, len, D)
        res[i].copy_(at::matmul(p.unsqueeze(1), vals).squeeze(1));
    }
    assign(out, res, "out");
    DIOPI_IMPL_END
}

// ---- paged attention (decode)

// One query token per batch entry attends to its cached keys through a block table. q (B, num_heads * dim),
// (B, 1, num_heads * dim) or (B, num_heads, dim); out has q's shape. k / v: the cache, any shape whose elements are
// (slots, num_kv_heads, dim) with slots = num_blocks * block_size (e.g. (num_blocks, block_size, num_kv_heads * dim)).
// Token t < actual_seq_lengths[b] of batch b lives in slot block_table[b, t / block_size] * block_size + t % block_size.
// attenMask: NULL or integer / bool (B|1, ..., L) with L >= every length (seen as (B|1, L)), nonzero = key excluded.
// Scale 1 / sqrt(dim); no causal mask (all cached keys are in the past). A batch with no key gets 0.
diopiError_t diopiPagedAttention(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k,
                                 diopiConstTensorHandle_t v, diopiConstTensorHandle_t attenMask, diopiSize_t actual_seq_lengths, int64_t num_heads,
                                 int64_t num_kv_heads, int64_t dim, diopiConstTensorHandle_t block_table, int64_t block_size) {
    DIOPI_IMPL_BEGIN
    at::Tensor Q0 = tensor(q, "q"), K0 = tensor(k, "k"), V0 = tensor(v, "v"), bt = tensor(block_table, "block_table");
    requireFloating(Q0, "q");
    requireIndex(bt, "block_table");
    requireDim(bt, 2, "block_table");
    at::IntArrayRef lens = ints(actual_seq_lengths);
    int64_t b = static_cast<int64_t>(lens.size());
    if (dim <= 0 || num_heads <= 0 || num_kv_heads <= 0 || num_heads % num_kv_heads != 0)
        fail("dim and the head counts must be positive, num_kv_heads dividing num_heads");
    if (block_size <= 0) fail("block_size must be positive");
    if (Q0.dim() < 1 || Q0.size(0) != b || Q0.numel() != b * num_heads * dim) fail("q must hold (batch, num_heads * dim) elements, batch = len(actual_seq_lengths)");
    if (bt.size(0) != b) fail("block_table must have one row per batch");
    if (K0.numel() % (num_kv_heads * dim) != 0 || V0.numel() != K0.numel()) fail("k and v must hold (slots, num_kv_heads, dim) elements");
    auto ct = computeType(Q0);
    at::Tensor Q = Q0.reshape({b, num_heads, dim}).to(ct);
    at::Tensor K = K0.reshape({-1, num_kv_heads, dim}), V = V0.reshape({-1, num_kv_heads, dim});
    int64_t slotsTotal = K.size(0);
    at::Tensor mask = optTensor(attenMask);
    if (mask.defined()) {
        if (mask.dim() < 1) fail("attenMask must have at least 1 dim");
        mask = mask.reshape({-1, mask.size(-1)});
        if (mask.size(0) != 1 && mask.size(0) != b) fail("attenMask must have 1 or batch rows");
    }
    std::vector<int64_t> table = hostInts(bt, "block_table");
    int64_t maxBlocks = bt.size(1);
    at::Tensor res = at::zeros({b, num_heads, dim}, Q.options());
    for (int64_t i = 0; i < b; ++i) {
        int64_t len = lens[i];
        if (len < 0) fail("actual_seq_lengths must be non-negative");
        if ((len + block_size - 1) / block_size > maxBlocks) fail("a sequence needs more blocks than block_table has columns");
        std::vector<int64_t> slots(static_cast<size_t>(len));
        for (int64_t t = 0; t < len; ++t) {
            int64_t blk = table[i * maxBlocks + t / block_size];
            int64_t slot = blk * block_size + t % block_size;
            if (blk < 0 || slot >= slotsTotal) fail("block_table names a block outside the cache");
            slots[t] = slot;
        }
        at::Tensor idx = at::tensor(slots, at::TensorOptions().dtype(at::kLong)).to(K.device());
        at::Tensor excluded;
        if (mask.defined()) {
            if (mask.size(1) < len) fail("attenMask is shorter than a sequence");
            at::Tensor m = mask[mask.size(0) == 1 ? 0 : i].narrow(0, 0, len);
            excluded = (m.scalar_type() == at::kBool ? m : m.ne(0)).view({1, 1, len});
        }
        at::Tensor r = attend(Q[i].unsqueeze(0), K.index_select(0, idx).to(ct), V.index_select(0, idx).to(ct), 1.0 / std::sqrt(static_cast<double>(dim)),
                              false, excluded);
        res[i].copy_(r[0]);
    }
    assign(out, res.reshape(Q0.sizes()), "out");
    DIOPI_IMPL_END
}

// ---- context (prefill) attention (lightllm)

// q (T, H, D), k / v (T, Hk, D) packed sequences; sequence b is rows [b_start_loc[b], b_start_loc[b] + b_seq_len[b])
// of all three; causal attention within it with scale 1 / sqrt(D) is written to the same rows of
// context_attention_out (T, H, D). Rows no sequence covers are left as they are. Every length must be <= max_input_len.
diopiError_t diopiContextAttentionInference(diopiContextHandle_t ctx, diopiTensorHandle_t context_attention_out, diopiConstTensorHandle_t q,
                                            diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiConstTensorHandle_t b_start_loc,
                                            diopiConstTensorHandle_t b_seq_len, int max_input_len) {
    DIOPI_IMPL_BEGIN
    at::Tensor o = tensor(context_attention_out, "context_attention_out"), Q = tensor(q, "q"), K = tensor(k, "k"), V = tensor(v, "v");
    requireFloating(Q, "q");
    requireDim(Q, 3, "q");
    requireDim(K, 3, "k");
    requireDim(V, 3, "v");
    if (o.sizes() != at::IntArrayRef({Q.size(0), Q.size(1), V.size(2)})) fail("context_attention_out must have shape (T, heads, head_dim)");
    if (K.size(0) != Q.size(0) || V.size(0) != Q.size(0) || K.size(2) != Q.size(2) || V.size(1) != K.size(1))
        fail("q, k and v must have the same number of tokens and head dimension");
    std::vector<int64_t> starts = hostInts(tensor(b_start_loc, "b_start_loc"), "b_start_loc"), lens = hostInts(tensor(b_seq_len, "b_seq_len"), "b_seq_len");
    if (starts.size() != lens.size()) fail("b_start_loc and b_seq_len must have the same length");
    auto ct = computeType(Q);
    double scale = 1.0 / std::sqrt(static_cast<double>(Q.size(2)));
    for (size_t i = 0; i < starts.size(); ++i) {
        int64_t start = starts[i], len = lens[i];
        if (len < 0 || len > max_input_len) fail("b_seq_len must lie in [0, max_input_len]");
        if (start < 0 || start + len > Q.size(0)) fail("b_start_loc + b_seq_len exceeds the number of tokens");
        at::Tensor r = attend(Q.narrow(0, start, len).to(ct), K.narrow(0, start, len).to(ct), V.narrow(0, start, len).to(ct), scale, true, at::Tensor());
        o.narrow(0, start, len).copy_(r);
    }
    DIOPI_IMPL_END
}

}  // extern "C"
