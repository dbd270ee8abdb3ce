// Attention for large language models: multi-head and flash attention (dense, variable-length and the
// Ascend-style "customized" layouts) forward and backward, scaled masked softmax and prompt flash attention.
//
// Shared conventions (all functions of this file):
// - Math: S = softmax_scale * q k^T (+ ALiBi bias), keys outside the causal mask / sliding window / user mask
//   are excluded, P = softmax(S) over the keys taken, out = dropout(P) v. Half types are computed in float32,
//   float64 in float64; the results are cast to the caller's output dtypes.
// - Causal masks and windows are aligned to the bottom-right corner (flash-attention >= 2.1): with
//   d = i + Sk - Sq - j, query i takes key j iff d >= 0 (causal), d <= window_size_left (when >= 0) and
//   d >= -window_size_right (when >= 0). A window size of -1 is unbounded. Sq == Sk gives the usual j <= i.
// - ALiBi: alibi_slopes (float32) of shape (Hq) or (B, Hq) adds -slope * |i + Sk - Sq - j| to the scaled score.
// - Grouped/multi-query attention: Hk may divide Hq; query head h uses key/value head h / (Hq / Hk).
// - softmax_lse = logsumexp over the keys taken of the scaled, biased scores (before dropout). A query row
//   that takes no key at all gets out = 0 and softmax_lse = +inf (the flash-attention convention).
// - Dropout (p > 0) keeps each probability with 1 - p and scales kept ones by 1 / (1 - p). The keep mask is
//   drawn with Bernoulli samples from `gen` (host generator, then moved to the tensors' device) in the order
//   batch, head, query, key (per sequence for variable-length calls). Backward functions that take `gen`
//   regenerate the same mask, so they must receive a generator in the state the forward started from.
// - Backward functions recompute the probabilities from q, k, v (the saved out / softmax_lse are checked
//   for shape only): the gradients are those of the exact math above. The exception is plain attention
//   through diopiFlashAttention(Backward), which uses ATen's fused CPU kernel (see "ATen's fused CPU attention").
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "helper.hpp"

using namespace impl::aten;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

at::ScalarType computeType(const at::Tensor& t) { return t.scalar_type() == at::kDouble ? at::kDouble : at::kFloat; }

void requireFloating(const at::Tensor& t, const char* name) {
    if (!at::isFloatingType(t.scalar_type())) fail(std::string(name) + " must be a floating-point tensor", diopiDtypeNotSupported);
}

void requireDim(const at::Tensor& t, int64_t dim, const char* name) {
    if (t.dim() != dim) fail(std::string(name) + " must be " + std::to_string(dim) + "-D, got " + std::to_string(t.dim()) + "-D");
}

void checkDropout(double p) {
    if (!(p >= 0.0 && p <= 1.0)) fail("dropout probability must be in [0, 1], got " + std::to_string(p));
}

// Integer values of a 1-D index tensor, read on the host.
std::vector<int64_t> hostInts(const at::Tensor& t, const char* name) {
    if (t.dim() != 1) fail(std::string(name) + " must be 1-D");
    if (at::isFloatingType(t.scalar_type()) || t.scalar_type() == at::kBool)
        fail(std::string(name) + " must be an integer tensor", diopiDtypeNotSupported);
    at::Tensor h = t.to(at::kCPU).to(at::kLong).contiguous();
    return std::vector<int64_t>(h.data_ptr<int64_t>(), h.data_ptr<int64_t>() + h.numel());
}

// A user mask as booleans: true = the key is excluded (bool masks as given, other dtypes: nonzero).
at::Tensor excludedFrom(const at::Tensor& m) { return m.scalar_type() == at::kBool ? m : m.ne(0); }

struct AttnSpec {
    double scale = 1.0;
    bool causal = false;
    int64_t windowLeft = -1, windowRight = -1;
    at::Tensor alibi;     // slopes (Hq) or (B, Hq); undefined: no bias
    at::Tensor excluded;  // bool, broadcastable to (B, Hq, Sq, Sk), true = excluded; undefined: none
    double dropout = 0.0;
    at::Generator* gen = nullptr;  // draws the keep mask when dropout > 0 and `keep` is not given
    at::Tensor keep;               // a given keep mask (B, Hq, Sq, Sk) (customized backward)
};

// (B, S, Hk, D) -> (B, Hq, S, D), repeating each key/value head Hq / Hk times.
at::Tensor headsFirst(const at::Tensor& x, int64_t hq) {
    at::Tensor t = permuted(x, {0, 2, 1, 3});
    int64_t hk = t.size(1);
    return hk == hq ? t : t.repeat_interleave(hq / hk, 1);
}

// (B, Hq, S, D) gradient -> (B, S, Hk, D), summing the query heads that share a key/value head.
at::Tensor foldHeads(const at::Tensor& g, int64_t hk) {
    int64_t b = g.size(0), hq = g.size(1), s = g.size(2), d = g.size(3);
    at::Tensor r = hq == hk ? g : g.reshape({b, hk, hq / hk, s, d}).sum(2);
    return permuted(r, {0, 2, 1, 3});
}

void checkQKV(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v) {
    requireDim(q, 4, "q");
    requireDim(k, 4, "k");
    requireDim(v, 4, "v");
    requireFloating(q, "q");
    requireFloating(k, "k");
    requireFloating(v, "v");
    if (k.size(0) != q.size(0) || v.size(0) != q.size(0)) fail("q, k and v must have the same batch size");
    if (k.size(1) != v.size(1)) fail("k and v must have the same sequence length");
    if (k.size(2) != v.size(2)) fail("k and v must have the same number of heads");
    if (k.size(3) != q.size(3)) fail("q and k must have the same head dimension");
    int64_t hq = q.size(2), hk = k.size(2);
    if (hk == 0 ? hq != 0 : hq % hk != 0) fail("the number of query heads must be a multiple of the number of key/value heads");
}

void checkAlibi(const at::Tensor& alibi, int64_t batch, int64_t hq) {
    if (!alibi.defined()) return;
    requireFloating(alibi, "alibi_slopes");
    bool ok = (alibi.dim() == 1 && alibi.size(0) == hq) || (alibi.dim() == 2 && alibi.size(0) == batch && alibi.size(1) == hq);
    if (!ok) fail("alibi_slopes must have shape (num_heads_q) or (batch, num_heads_q)");
}

// Scores and probabilities of one dense batch. q (B, Sq, Hq, D), k (B, Sk, Hk, D), v (B, Sk, Hk, Dv), all in the
// compute dtype. Each step is one ATen call on the whole batch: at the sizes of a training step the call count,
// not the arithmetic, is the cost, so masks are only built when the call has one.
struct Probs {
    at::Tensor qh, kh, vh;  // heads first, key/value heads repeated
    at::Tensor P;           // (B, Hq, Sq, Sk) softmax over the keys taken (0 elsewhere)
    at::Tensor m, l;        // forward only: (B, Hq, Sq, 1) row max (-inf without keys) and sum of exp(S - m)
    at::Tensor excluded;    // bool, broadcastable to (B, Hq, Sq, Sk): mask, window and causal (not dropout); undefined: none
    at::Tensor keep;        // (B, Hq, Sq, Sk) bool dropout keep mask, undefined without dropout
    double factor = 1.0;    // 1 / (1 - p)
};

// The keys a query may not take (true = excluded) as a bool tensor broadcastable to (B, Hq, Sq, Sk), or undefined when
// every key is taken. `diff` is i + Sk - Sq - j (the file comment's d), built only for windows and ALiBi.
at::Tensor excludedKeys(const AttnSpec& spec, int64_t sq, int64_t sk, const at::Device& device, const at::Tensor& diff) {
    auto flags = at::TensorOptions().dtype(at::kBool).device(device);
    at::Tensor ex;
    if (spec.windowLeft >= 0 || spec.windowRight >= 0) {
        ex = at::zeros({sq, sk}, flags);
        if (spec.causal) ex = ex.logical_or(diff.lt(0));
        if (spec.windowLeft >= 0) ex = ex.logical_or(diff.gt(spec.windowLeft));
        if (spec.windowRight >= 0) ex = ex.logical_or(diff.lt(-spec.windowRight));
    } else if (spec.causal) {
        // d < 0 <=> j > i + (Sk - Sq): the triangle above the diagonal shifted by Sk - Sq.
        ex = at::ones({sq, sk}, flags).triu_(sk - sq + 1);
    }
    if (spec.excluded.defined()) {
        at::Tensor user = spec.excluded.to(device);
        ex = ex.defined() ? ex.logical_or(user) : user;
    }
    return ex;
}

at::Tensor keyDistance(int64_t sq, int64_t sk, const at::Device& device) {
    auto li = at::TensorOptions().dtype(at::kLong).device(device);
    return at::arange(sq, li).view({sq, 1}) + (sk - sq) - at::arange(sk, li).view({1, sk});
}

// `stats`: also the row max and sum the forward's statistics need (the backward takes P alone).
Probs probs(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, const AttnSpec& spec, bool stats) {
    Probs r;
    int64_t b = q.size(0), sq = q.size(1), hq = q.size(2), sk = k.size(1);
    r.qh = permuted(q, {0, 2, 1, 3});
    r.kh = headsFirst(k, hq);
    r.vh = headsFirst(v, hq);
    at::Tensor s = at::matmul(r.qh, r.kh.transpose(-2, -1)).mul_(spec.scale);
    bool windowed = spec.windowLeft >= 0 || spec.windowRight >= 0;
    at::Tensor diff = windowed || spec.alibi.defined() ? keyDistance(sq, sk, q.device()) : at::Tensor();
    if (spec.alibi.defined()) {
        at::Tensor slopes = spec.alibi.to(q.device(), q.scalar_type());
        slopes = slopes.dim() == 1 ? slopes.view({1, hq, 1, 1}) : slopes.view({b, hq, 1, 1});
        s = s - slopes * diff.abs().to(q.scalar_type()).view({1, 1, sq, sk});
    }
    r.excluded = excludedKeys(spec, sq, sk, q.device(), diff);
    if (r.excluded.defined()) s.masked_fill_(r.excluded, -kInf);
    if (!stats) {
        // A row with no key at all has only -inf scores; the safe softmax gives it zeros, as the forward does.
        r.P = sk == 0 ? s : r.excluded.defined() ? at::_safe_softmax(s, -1) : at::softmax(s, -1);
    } else if (sk == 0) {
        r.P = s;
        r.m = at::full({b, hq, sq, 1}, -kInf, q.options());
        r.l = at::zeros({b, hq, sq, 1}, q.options());
    } else {
        r.m = s.amax(-1, true);
        // exp(-inf - 0) = 0 on a row with no key; elsewhere the row max is finite. Such a row sums to 0 and any other
        // row to at least 1 (its maximum contributes exp(0)), so dividing by max(l, 1) only changes the empty rows.
        at::Tensor e = r.excluded.defined() ? (s - r.m.masked_fill(r.m.eq(-kInf), 0.0)).exp_() : (s - r.m).exp_();
        r.l = e.sum(-1, true);
        r.P = r.excluded.defined() ? e.div_(r.l.clamp_min(1.0)) : e.div_(r.l);
    }
    if (spec.dropout > 0) {
        r.factor = spec.dropout < 1.0 ? 1.0 / (1.0 - spec.dropout) : 0.0;
        if (spec.keep.defined()) {
            if (spec.keep.sizes() != r.P.sizes()) fail("dropout_mask does not have the shape (batch, heads, seqlen_q, seqlen_k) of the forward");
            r.keep = excludedFrom(spec.keep).to(q.device());
        } else {
            if (spec.gen == nullptr) fail("dropout needs a generator");
            at::Tensor u = at::empty(r.P.sizes(), at::TensorOptions().dtype(at::kFloat));
            u.bernoulli_(1.0 - spec.dropout, *spec.gen);
            r.keep = u.to(q.device()).to(at::kBool);
        }
    }
    return r;
}

at::Tensor dropped(const Probs& p) { return p.keep.defined() ? p.P.mul(p.keep).mul_(p.factor) : p.P; }

struct AttnResult {
    at::Tensor out;       // (B, Sq, Hq, Dv)
    at::Tensor lse;       // (B, Hq, Sq)
    at::Tensor rowMax;    // (B, Hq, Sq)
    at::Tensor rowSum;    // (B, Hq, Sq)
    at::Tensor excluded;  // as Probs::excluded
    at::Tensor keep;      // dropout keep mask or undefined
};

// (B, Hq, Sq, Sk) bool: true where key j took part for query i (allowed and kept by dropout).
at::Tensor taken(const AttnResult& r, int64_t sk) {
    int64_t b = r.out.size(0), sq = r.out.size(1), hq = r.out.size(2);
    at::Tensor t = r.excluded.defined() ? r.excluded.logical_not() : at::ones({sq, sk}, r.out.options().dtype(at::kBool));
    t = t.expand({b, hq, sq, sk});
    return r.keep.defined() ? t.logical_and(r.keep) : t.contiguous();
}

AttnResult attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, const AttnSpec& spec) {
    Probs p = probs(q, k, v, spec, /*stats=*/true);
    AttnResult r;
    r.out = at::matmul(dropped(p), p.vh).permute({0, 2, 1, 3});
    at::Tensor lse = p.m + p.l.log();
    // A row with no key: flash-attention's +inf (the sum is 0 there and only there).
    r.lse = (p.excluded.defined() || k.size(1) == 0 ? lse.masked_fill_(p.l.eq(0), kInf) : lse).squeeze(-1);
    r.rowMax = p.m.squeeze(-1);
    r.rowSum = p.l.squeeze(-1);
    r.excluded = p.excluded;
    r.keep = p.keep;
    return r;
}

struct AttnGrads {
    at::Tensor dq, dk, dv;  // shaped like q, k, v
};

AttnGrads attentionBackward(const at::Tensor& dout, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, const AttnSpec& spec) {
    Probs p = probs(q, k, v, spec, /*stats=*/false);
    at::Tensor doh = permuted(dout, {0, 2, 1, 3});
    at::Tensor pd = dropped(p);
    at::Tensor dvh = at::matmul(pd.transpose(-2, -1), doh);
    at::Tensor dP = at::matmul(doh, p.vh.transpose(-2, -1));
    if (p.keep.defined()) dP.mul_(p.keep).mul_(p.factor);
    at::Tensor dS = p.P * (dP - (dP * p.P).sum(-1, true));
    at::Tensor dqh = at::matmul(dS, p.kh).mul_(spec.scale);
    at::Tensor dkh = at::matmul(dS.transpose(-2, -1), p.qh).mul_(spec.scale);
    int64_t hk = k.size(2);
    return {permuted(dqh, {0, 2, 1, 3}), foldHeads(dkh, hk), foldHeads(dvh, hk)};
}

// ---- ATen's fused CPU attention
// When a call is plain attention (no bias, window, user mask or dropout, and a causal mask only when it is square:
// ATen aligns it top-left, this file bottom-right, and the two agree when Sq == Sk), ATen's own flash-attention
// kernel computes it in one pass, as eager PyTorch does on the CPU; the math path above costs a dozen calls.
bool fusedFits(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, const AttnSpec& spec) {
    return q.device().is_cpu() && !spec.alibi.defined() && !spec.excluded.defined() && spec.windowLeft < 0 && spec.windowRight < 0 &&
           spec.dropout == 0 && (!spec.causal || q.size(1) == k.size(1)) && q.numel() > 0 && k.numel() > 0 && v.size(3) == q.size(3);
}

// (B, S, H, D) -> (B, H, S, D) as the kernel reads it, with unit stride in D. Grouped queries need no repeated
// key/value heads: the kernel takes Hk dividing Hq, and its key/value gradients have Hk heads.
at::Tensor fusedOperand(const at::Tensor& x) {
    at::Tensor t = permuted(x, {0, 2, 1, 3});
    return t.stride(-1) == 1 ? t : t.contiguous();
}

AttnResult fusedAttention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, const AttnSpec& spec) {
    auto [out, lse] = at::_scaled_dot_product_flash_attention_for_cpu(fusedOperand(q), fusedOperand(k), fusedOperand(v), 0.0, spec.causal,
                                                                        std::nullopt, spec.scale);
    AttnResult r;
    r.out = permuted(out, {0, 2, 1, 3});
    r.lse = lse;
    return r;
}

// Gradients from the forward's output and row log-sum-exp (the kernel recomputes the probabilities from them).
AttnGrads fusedAttentionBackward(const at::Tensor& dout, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, const at::Tensor& out,
                                 const at::Tensor& lse, const AttnSpec& spec) {
    auto [dq, dk, dv] = at::_scaled_dot_product_flash_attention_for_cpu_backward(
        fusedOperand(dout), fusedOperand(q), fusedOperand(k), fusedOperand(v), fusedOperand(out), lse.contiguous(), 0.0, spec.causal,
        std::nullopt, spec.scale);
    return {permuted(dq, {0, 2, 1, 3}), permuted(dk, {0, 2, 1, 3}), permuted(dv, {0, 2, 1, 3})};
}

// `t` in the compute dtype; the tensor itself when it has it (Tensor::to would still pass through the dispatcher).
at::Tensor inCompute(const at::Tensor& t, at::ScalarType ct) { return t.scalar_type() == ct ? t : t.to(ct); }

void assignOpt(diopiTensorHandle_t h, const at::Tensor& t, const char* name) {
    if (h != nullptr) assign(h, t, name);
}

void checkShapeLike(diopiConstTensorHandle_t h, at::IntArrayRef sizes, const char* name) {
    if (h == nullptr) return;
    at::Tensor t = tensor(h, name);
    if (t.sizes() != sizes) fail(std::string(name) + " does not have the shape of the forward's result");
}

// ---- variable-length batches
struct Segments {
    std::vector<int64_t> q, k;  // B + 1 offsets each
    int64_t batch() const { return static_cast<int64_t>(q.size()) - 1; }
    int64_t sq(int64_t b) const { return q[b + 1] - q[b]; }
    int64_t sk(int64_t b) const { return k[b + 1] - k[b]; }
};

Segments segments(std::vector<int64_t> cq, std::vector<int64_t> ck, int64_t totalQ, int64_t totalK, int64_t maxQ, int64_t maxK, bool leadingZero) {
    if (cq.size() != ck.size()) fail("cum_seq_q and cum_seq_k(v) must have the same length");
    if (!leadingZero) {
        // Ascend-style lists hold the end offsets only; a list that starts with 0 in both is taken as (B + 1) offsets.
        if (cq.empty() || cq[0] != 0 || ck[0] != 0) {
            cq.insert(cq.begin(), 0);
            ck.insert(ck.begin(), 0);
        }
    }
    if (cq.empty()) fail("cum_seq_q must hold batch_size + 1 offsets");
    Segments s{cq, ck};
    for (size_t i = 0; i + 1 < cq.size(); ++i) {
        if (cq[i] < 0 || cq[i + 1] < cq[i] || ck[i] < 0 || ck[i + 1] < ck[i]) fail("cumulative sequence lengths must be non-negative and non-decreasing");
        if (maxQ >= 0 && cq[i + 1] - cq[i] > maxQ) fail("a query sequence is longer than max_seqlen_q");
        if (maxK >= 0 && ck[i + 1] - ck[i] > maxK) fail("a key sequence is longer than max_seqlen_k");
    }
    if (cq.back() > totalQ) fail("cum_seq_q exceeds the number of query tokens");
    if (ck.back() > totalK) fail("cum_seq_k(v) exceeds the number of key tokens");
    return s;
}

void checkVarLenQKV(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v) {
    requireDim(q, 3, "q");
    requireDim(k, 3, "k");
    requireDim(v, 3, "v");
    checkQKV(q.unsqueeze(0), k.unsqueeze(0), v.unsqueeze(0));
}

// One sequence's slice of the spec: ALiBi row b of a (B, Hq) table, the user mask cut to (sq, sk).
AttnSpec sequenceSpec(const AttnSpec& spec, int64_t b, const at::Tensor& excluded) {
    AttnSpec s = spec;
    if (spec.alibi.defined() && spec.alibi.dim() == 2) s.alibi = spec.alibi[b];
    s.excluded = excluded;
    return s;
}

// A user mask cut to the (sq, sk) block it applies to. A causal call whose mask is smaller than the block takes
// it as a compressed causal mask (Ascend's 2048 x 2048 form) and ignores it.
at::Tensor maskBlock(const at::Tensor& mask, int64_t sq, int64_t sk, bool causal) {
    if (!mask.defined()) return mask;
    if (mask.dim() < 2) fail("attention_mask must have at least 2 dims (seqlen_q, seqlen_k)");
    int64_t mq = mask.size(-2), mk = mask.size(-1);
    if (mq < sq || mk < sk) {
        if (causal) return at::Tensor();
        fail("attention_mask is smaller than (seqlen_q, seqlen_k)");
    }
    return excludedFrom(mask.narrow(-2, 0, sq).narrow(-1, 0, sk));
}

struct VarLenOut {
    at::Tensor out;                     // (Tq, Hq, Dv)
    std::vector<AttnResult> sequences;  // per sequence, batch of one
};

VarLenOut varlenForward(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, const Segments& seg, const AttnSpec& spec,
                        const at::Tensor& userMask) {
    VarLenOut r;
    r.out = at::zeros({q.size(0), q.size(1), v.size(2)}, q.options());
    for (int64_t b = 0; b < seg.batch(); ++b) {
        int64_t sq = seg.sq(b), sk = seg.sk(b);
        at::Tensor qb = q.narrow(0, seg.q[b], sq).unsqueeze(0);
        at::Tensor kb = k.narrow(0, seg.k[b], sk).unsqueeze(0);
        at::Tensor vb = v.narrow(0, seg.k[b], sk).unsqueeze(0);
        AttnResult a = attention(qb, kb, vb, sequenceSpec(spec, b, maskBlock(userMask, sq, sk, spec.causal)));
        r.out.narrow(0, seg.q[b], sq).copy_(a.out[0]);
        r.sequences.push_back(a);
    }
    return r;
}

AttnGrads varlenBackward(const at::Tensor& dout, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, const Segments& seg,
                         const AttnSpec& spec, const at::Tensor& userMask, const at::Tensor& keepFlat) {
    AttnGrads g{at::zeros_like(q), at::zeros_like(k), at::zeros_like(v)};
    int64_t offset = 0, hq = q.size(1);
    for (int64_t b = 0; b < seg.batch(); ++b) {
        int64_t sq = seg.sq(b), sk = seg.sk(b);
        AttnSpec s = sequenceSpec(spec, b, maskBlock(userMask, sq, sk, spec.causal));
        if (keepFlat.defined()) {
            int64_t n = hq * sq * sk;
            if (offset + n > keepFlat.numel()) fail("dropout_mask is smaller than the forward's");
            s.keep = keepFlat.narrow(0, offset, n).view({1, hq, sq, sk});
            offset += n;
        }
        AttnGrads gb = attentionBackward(dout.narrow(0, seg.q[b], sq).unsqueeze(0), q.narrow(0, seg.q[b], sq).unsqueeze(0),
                                         k.narrow(0, seg.k[b], sk).unsqueeze(0), v.narrow(0, seg.k[b], sk).unsqueeze(0), s);
        g.dq.narrow(0, seg.q[b], sq).add_(gb.dq[0]);
        g.dk.narrow(0, seg.k[b], sk).add_(gb.dk[0]);
        g.dv.narrow(0, seg.k[b], sk).add_(gb.dv[0]);
    }
    if (keepFlat.defined() && offset != keepFlat.numel()) fail("dropout_mask does not match the sequences of the call");
    return g;
}

// softmax_lse of a variable-length call in the caller's layout: (B, Hq, max_seqlen_q) padded with +inf after each
// sequence's end, or (Hq, total_q) unpadded (flash-attention >= 2.6).
at::Tensor varlenLse(const at::Tensor& lseOut, const VarLenOut& r, const Segments& seg, int64_t hq, int64_t totalQ) {
    auto opts = r.out.options();
    if (lseOut.dim() == 3) {
        if (lseOut.size(0) != seg.batch() || lseOut.size(1) != hq) fail("softmax_lse must have shape (batch, heads, max_seqlen_q) or (heads, total_q)");
        at::Tensor lse = at::full({seg.batch(), hq, lseOut.size(2)}, kInf, opts);
        for (int64_t b = 0; b < seg.batch(); ++b) {
            if (seg.sq(b) > lseOut.size(2)) fail("softmax_lse is shorter than a query sequence");
            lse[b].narrow(1, 0, seg.sq(b)).copy_(r.sequences[b].lse[0]);
        }
        return lse;
    }
    if (lseOut.dim() == 2) {
        if (lseOut.size(0) != hq || lseOut.size(1) != totalQ) fail("softmax_lse must have shape (batch, heads, max_seqlen_q) or (heads, total_q)");
        at::Tensor lse = at::full({hq, totalQ}, kInf, opts);
        for (int64_t b = 0; b < seg.batch(); ++b) lse.narrow(1, seg.q[b], seg.sq(b)).copy_(r.sequences[b].lse[0]);
        return lse;
    }
    fail("softmax_lse must have shape (batch, heads, max_seqlen_q) or (heads, total_q)");
}

// ---- Ascend-style layouts of the customized variants
struct Layout {
    std::string name;
    int64_t headDim = 0;
};

// q/k/v in `layout` -> (B, S, N, D). For BSH / SBH the hidden size is N * D with D = q_hidden / head_num.
at::Tensor toBSND(const at::Tensor& x, const Layout& l, const char* name) {
    if (l.name == "BSND") {
        requireDim(x, 4, name);
        return x;
    }
    if (l.name == "BNSD") {
        requireDim(x, 4, name);
        return permuted(x, {0, 2, 1, 3});
    }
    if (l.name == "BSH" || l.name == "SBH") {
        requireDim(x, 3, name);
        at::Tensor t = l.name == "SBH" ? permuted(x, {1, 0, 2}) : x;
        if (l.headDim <= 0 || t.size(2) % l.headDim != 0) fail(std::string(name) + ": hidden size is not a multiple of the head dimension");
        return t.reshape({t.size(0), t.size(1), t.size(2) / l.headDim, l.headDim});
    }
    fail("input_layout must be one of \"BSND\", \"BNSD\", \"BSH\", \"SBH\"");
}

at::Tensor fromBSND(const at::Tensor& x, const Layout& l) {
    if (l.name == "BSND") return x;
    if (l.name == "BNSD") return permuted(x, {0, 2, 1, 3});
    at::Tensor t = x.reshape({x.size(0), x.size(1), x.size(2) * x.size(3)});
    return l.name == "SBH" ? permuted(t, {1, 0, 2}) : t;
}

Layout parseLayout(const char* layout, const at::Tensor& q, int64_t headNum) {
    if (layout == nullptr) fail("input_layout is NULL");
    Layout l{layout, 0};
    if (l.name == "BSH" || l.name == "SBH") {
        requireDim(q, 3, "q");
        if (headNum <= 0 || q.size(2) % headNum != 0) fail("head_num must be positive and divide the hidden size of q");
        l.headDim = q.size(2) / headNum;
    } else if (l.name != "BSND" && l.name != "BNSD") {
        fail("input_layout must be one of \"BSND\", \"BNSD\", \"BSH\", \"SBH\"");
    }
    return l;
}

// softmax_max / softmax_sum of the customized variants: (..., 8) float32, the row statistic repeated 8 times. A view:
// storeOut's copy into the library-allocated tensor is the only one.
at::Tensor repeat8(const at::Tensor& x) { return x.to(at::kFloat).unsqueeze(-1).expand({-1, -1, -1, 8}); }

void storeOut(diopiContextHandle_t ctx, diopiTensorHandle_t* slot, const at::Tensor& t) {
    if (slot != nullptr) *slot = requireLike(ctx, t);
}

std::optional<at::Generator> dropoutGenerator(diopiContextHandle_t ctx, diopiGeneratorHandle_t gen, double p) {
    if (p > 0) return generator(ctx, gen);
    return std::nullopt;
}

}  // namespace

extern "C" {

// ---- multi-head attention (deprecated flash-attention entry points)

// q, k, v: (B, Sq|Sk, H, D) (Hk may divide Hq); they are declared writable for historical reasons and are not
// modified. out (B, Sq, Hq, D); softmax_lse (B, Hq, Sq) (NULL: not stored); debug_attn_mask (B, Hq, Sq, Sk) bool,
// written when return_debug_mask is set and the handle is not NULL: true where key j took part for query i (causal
// mask and dropout applied). scale multiplies q k^T as given. Causal: bottom-right aligned (see the file comment).
diopiError_t diopiMultiHeadAttention(diopiContextHandle_t ctx, diopiTensorHandle_t q, diopiTensorHandle_t k, diopiTensorHandle_t v, double dropout_p,
                                     bool is_causal, bool return_debug_mask, double scale, diopiTensorHandle_t out, diopiTensorHandle_t softmax_lse,
                                     diopiGeneratorHandle_t gen, diopiTensorHandle_t debug_attn_mask) {
    DIOPI_IMPL_BEGIN
    at::Tensor Q = tensor(q, "q"), K = tensor(k, "k"), V = tensor(v, "v");
    checkQKV(Q, K, V);
    checkDropout(dropout_p);
    auto ct = computeType(Q);
    auto g = dropoutGenerator(ctx, gen, dropout_p);
    AttnSpec spec;
    spec.scale = scale;
    spec.causal = is_causal;
    spec.dropout = dropout_p;
    spec.gen = g ? &*g : nullptr;
    AttnResult r = attention(Q.to(ct), K.to(ct), V.to(ct), spec);
    assign(out, r.out, "out");
    assignOpt(softmax_lse, r.lse, "softmax_lse");
    if (return_debug_mask) assignOpt(debug_attn_mask, taken(r, K.size(1)), "debug_attn_mask");
    if (g) saveGenerator(ctx, gen, *g);
    DIOPI_IMPL_END
}

// Gradients of diopiMultiHeadAttention (same layouts); out / softmax_lse are the forward's (shape-checked, not used).
// With dropout, gen must be in the state the forward started from. NULL gradient handles are skipped.
diopiError_t diopiMultiHeadAttentionBackward(diopiContextHandle_t ctx, diopiConstTensorHandle_t grad_out, diopiConstTensorHandle_t q,
                                             diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiConstTensorHandle_t out,
                                             diopiConstTensorHandle_t softmax_lse, double dropout_p, bool is_causal, diopiGeneratorHandle_t gen,
                                             double scale, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k, diopiTensorHandle_t grad_v) {
    DIOPI_IMPL_BEGIN
    at::Tensor Q = tensor(q, "q"), K = tensor(k, "k"), V = tensor(v, "v"), dO = tensor(grad_out, "grad_out");
    checkQKV(Q, K, V);
    checkDropout(dropout_p);
    if (dO.sizes() != at::IntArrayRef({Q.size(0), Q.size(1), Q.size(2), V.size(3)})) fail("grad_out must have the shape of the forward's out");
    checkShapeLike(out, dO.sizes(), "out");
    checkShapeLike(softmax_lse, {Q.size(0), Q.size(2), Q.size(1)}, "softmax_lse");
    auto ct = computeType(Q);
    auto g = dropoutGenerator(ctx, gen, dropout_p);
    AttnSpec spec;
    spec.scale = scale;
    spec.causal = is_causal;
    spec.dropout = dropout_p;
    spec.gen = g ? &*g : nullptr;
    AttnGrads gr = attentionBackward(dO.to(ct), Q.to(ct), K.to(ct), V.to(ct), spec);
    assignOpt(grad_q, gr.dq, "grad_q");
    assignOpt(grad_k, gr.dk, "grad_k");
    assignOpt(grad_v, gr.dv, "grad_v");
    DIOPI_IMPL_END
}

// Variable-length multi-head attention. q (Tq, Hq, D), k / v (Tk, Hk, D); sequence b is rows [cum_seq_q[b],
// cum_seq_q[b+1]) of q and [cum_seq_k[b], cum_seq_k[b+1]) of k / v (integer tensors of B + 1 offsets); every
// sequence must be at most max_q / max_k long. out (Tq, Hq, D) (rows outside every sequence: 0). softmax_lse
// (B, Hq, max_q), +inf past each sequence's end, or (Hq, Tq). debug_attn_mask (B, Hq, max_q, max_k) bool, false
// outside each sequence. Causal masks are bottom-right aligned per sequence.
diopiError_t diopiMultiHeadAttentionVarLen(diopiContextHandle_t ctx, diopiTensorHandle_t q, diopiTensorHandle_t k, diopiTensorHandle_t v,
                                           diopiConstTensorHandle_t cum_seq_q, diopiConstTensorHandle_t cum_seq_k, int64_t max_q, int64_t max_k,
                                           double dropout_p, bool is_causal, bool return_debug_mask, double scale, diopiTensorHandle_t out,
                                           diopiTensorHandle_t softmax_lse, diopiGeneratorHandle_t gen, diopiTensorHandle_t debug_attn_mask) {
    DIOPI_IMPL_BEGIN
    at::Tensor Q = tensor(q, "q"), K = tensor(k, "k"), V = tensor(v, "v");
    checkVarLenQKV(Q, K, V);
    checkDropout(dropout_p);
    Segments seg = segments(hostInts(tensor(cum_seq_q, "cum_seq_q"), "cum_seq_q"), hostInts(tensor(cum_seq_k, "cum_seq_k"), "cum_seq_k"), Q.size(0),
                            K.size(0), max_q, max_k, true);
    auto ct = computeType(Q);
    auto g = dropoutGenerator(ctx, gen, dropout_p);
    AttnSpec spec;
    spec.scale = scale;
    spec.causal = is_causal;
    spec.dropout = dropout_p;
    spec.gen = g ? &*g : nullptr;
    VarLenOut r = varlenForward(Q.to(ct), K.to(ct), V.to(ct), seg, spec, at::Tensor());
    assign(out, r.out, "out");
    if (softmax_lse != nullptr) assign(softmax_lse, varlenLse(tensor(softmax_lse, "softmax_lse"), r, seg, Q.size(1), Q.size(0)), "softmax_lse");
    if (return_debug_mask && debug_attn_mask != nullptr) {
        at::Tensor dm = tensor(debug_attn_mask, "debug_attn_mask");
        if (dm.dim() != 4 || dm.size(0) != seg.batch() || dm.size(1) != Q.size(1)) fail("debug_attn_mask must have shape (batch, heads, max_q, max_k)");
        at::Tensor m = at::zeros(dm.sizes(), Q.options().dtype(at::kBool));
        for (int64_t b = 0; b < seg.batch(); ++b) {
            if (seg.sq(b) > dm.size(2) || seg.sk(b) > dm.size(3)) fail("debug_attn_mask is smaller than a sequence");
            m[b].narrow(1, 0, seg.sq(b)).narrow(2, 0, seg.sk(b)).copy_(taken(r.sequences[b], seg.sk(b))[0]);
        }
        assign(debug_attn_mask, m, "debug_attn_mask");
    }
    if (g) saveGenerator(ctx, gen, *g);
    DIOPI_IMPL_END
}

// Gradients of diopiMultiHeadAttentionVarLen (same layouts; out / softmax_lse are not used). Rows outside every
// sequence get zero gradients.
diopiError_t diopiMultiHeadAttentionVarLenBackward(diopiContextHandle_t ctx, diopiConstTensorHandle_t grad_out, diopiConstTensorHandle_t q,
                                                   diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiConstTensorHandle_t out,
                                                   diopiConstTensorHandle_t softmax_lse, diopiConstTensorHandle_t cum_seq_q,
                                                   diopiConstTensorHandle_t cum_seq_k, int64_t max_q, int64_t max_k, double dropout_p, bool is_causal,
                                                   diopiGeneratorHandle_t gen, double scale, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k,
                                                   diopiTensorHandle_t grad_v) {
    DIOPI_IMPL_BEGIN
    at::Tensor Q = tensor(q, "q"), K = tensor(k, "k"), V = tensor(v, "v"), dO = tensor(grad_out, "grad_out");
    checkVarLenQKV(Q, K, V);
    checkDropout(dropout_p);
    if (dO.sizes() != at::IntArrayRef({Q.size(0), Q.size(1), V.size(2)})) fail("grad_out must have the shape of the forward's out");
    checkShapeLike(out, dO.sizes(), "out");
    Segments seg = segments(hostInts(tensor(cum_seq_q, "cum_seq_q"), "cum_seq_q"), hostInts(tensor(cum_seq_k, "cum_seq_k"), "cum_seq_k"), Q.size(0),
                            K.size(0), max_q, max_k, true);
    auto ct = computeType(Q);
    auto g = dropoutGenerator(ctx, gen, dropout_p);
    AttnSpec spec;
    spec.scale = scale;
    spec.causal = is_causal;
    spec.dropout = dropout_p;
    spec.gen = g ? &*g : nullptr;
    AttnGrads gr = varlenBackward(dO.to(ct), Q.to(ct), K.to(ct), V.to(ct), seg, spec, at::Tensor(), at::Tensor());
    assignOpt(grad_q, gr.dq, "grad_q");
    assignOpt(grad_k, gr.dk, "grad_k");
    assignOpt(grad_v, gr.dv, "grad_v");
    DIOPI_IMPL_END
}

// ---- flash attention

// q (B, Sq, Hq, D), k / v (B, Sk, Hk, D) (Hk divides Hq); attention_out (B, Sq, Hq, D); softmax_lse (B, Hq, Sq)
// float32. alibi_slopes: NULL or float32 (Hq) / (B, Hq). Causal and windows: bottom-right aligned, -1 unbounded.
// softmax_scale multiplies q k^T as given.
diopiError_t diopiFlashAttention(diopiContextHandle_t ctx, diopiTensorHandle_t attention_out, diopiTensorHandle_t softmax_lse,
                                 diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k, diopiConstTensorHandle_t v,
                                 diopiConstTensorHandle_t alibi_slopes, float p_dropout, float softmax_scale, bool is_causal,
                                 int32_t window_size_left, int32_t window_size_right) {
    DIOPI_IMPL_BEGIN
    at::Tensor Q = tensor(q, "q"), K = tensor(k, "k"), V = tensor(v, "v");
    checkQKV(Q, K, V);
    checkDropout(p_dropout);
    auto ct = computeType(Q);
    auto g = dropoutGenerator(ctx, gen, p_dropout);
    AttnSpec spec;
    spec.scale = softmax_scale;
    spec.causal = is_causal;
    spec.windowLeft = window_size_left;
    spec.windowRight = window_size_right;
    spec.alibi = optTensor(alibi_slopes);
    checkAlibi(spec.alibi, Q.size(0), Q.size(2));
    spec.dropout = p_dropout;
    spec.gen = g ? &*g : nullptr;
    const at::Tensor q1 = inCompute(Q, ct), k1 = inCompute(K, ct), v1 = inCompute(V, ct);
    AttnResult r = fusedFits(Q, K, V, spec) ? fusedAttention(q1, k1, v1, spec) : attention(q1, k1, v1, spec);
    assign(attention_out, r.out, "attention_out");
    assignOpt(softmax_lse, r.lse, "softmax_lse");
    if (g) saveGenerator(ctx, gen, *g);
    DIOPI_IMPL_END
}

// Gradients of diopiFlashAttention (same layouts). attention_out / softmax_lse are the forward's: plain attention in
// float32 computes the gradients from them with ATen's fused kernel; every other call recomputes the
// probabilities (then they may be NULL). With dropout, gen must be in the state the forward started from.
diopiError_t diopiFlashAttentionBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k, diopiTensorHandle_t grad_v,
                                         diopiConstTensorHandle_t grad_output, diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q,
                                         diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiConstTensorHandle_t alibi_slopes,
                                         diopiConstTensorHandle_t attention_out, diopiConstTensorHandle_t softmax_lse, float p_dropout,
                                         float softmax_scale, bool is_causal, int32_t window_size_left, int32_t window_size_right) {
    DIOPI_IMPL_BEGIN
    at::Tensor Q = tensor(q, "q"), K = tensor(k, "k"), V = tensor(v, "v"), dO = tensor(grad_output, "grad_output");
    checkQKV(Q, K, V);
    checkDropout(p_dropout);
    if (dO.sizes() != at::IntArrayRef({Q.size(0), Q.size(1), Q.size(2), V.size(3)})) fail("grad_output must have the shape of attention_out");
    checkShapeLike(attention_out, dO.sizes(), "attention_out");
    checkShapeLike(softmax_lse, {Q.size(0), Q.size(2), Q.size(1)}, "softmax_lse");
    auto ct = computeType(Q);
    auto g = dropoutGenerator(ctx, gen, p_dropout);
    AttnSpec spec;
    spec.scale = softmax_scale;
    spec.causal = is_causal;
    spec.windowLeft = window_size_left;
    spec.windowRight = window_size_right;
    spec.alibi = optTensor(alibi_slopes);
    checkAlibi(spec.alibi, Q.size(0), Q.size(2));
    spec.dropout = p_dropout;
    spec.gen = g ? &*g : nullptr;
    // The fused kernel takes the forward's output and statistics as they are stored: only a float32 call keeps them
    // exact enough (a 16-bit output is rounded, float64 statistics would be float32); the others recompute.
    bool fused = fusedFits(Q, K, V, spec) && Q.scalar_type() == at::kFloat && attention_out != nullptr && softmax_lse != nullptr;
    const at::Tensor dO1 = inCompute(dO, ct), q1 = inCompute(Q, ct), k1 = inCompute(K, ct), v1 = inCompute(V, ct);
    AttnGrads gr = fused ? fusedAttentionBackward(dO1, q1, k1, v1, inCompute(tensor(attention_out, "attention_out"), ct),
                                                  inCompute(tensor(softmax_lse, "softmax_lse"), ct), spec)
                         : attentionBackward(dO1, q1, k1, v1, spec);
    assignOpt(grad_q, gr.dq, "grad_q");
    assignOpt(grad_k, gr.dk, "grad_k");
    assignOpt(grad_v, gr.dv, "grad_v");
    DIOPI_IMPL_END
}

// Ascend-style flash attention. q / k / v in input_layout: "BSND" (B, S, N, D), "BNSD" (B, N, S, D), "BSH" (B, S, N*D)
// or "SBH" (S, B, N*D); for BSH / SBH head_num is q's head count (D = hidden / head_num; k / v may have fewer heads).
// attention_out has q's layout. attention_mask: NULL or bool (nonzero: excluded) broadcastable to (B, N, Sq, Sk) after
// its last two dims are cut to (Sq, Sk); it combines with is_causal (bottom-right aligned) and the window. A causal
// call may pass a smaller mask (Ascend's compressed 2048 x 2048 causal mask): it is then ignored.
// Library-allocated outputs (slots may be NULL): softmax_max / softmax_sum (B, N, Sq, 8) float32, the row max of the
// scaled scores over the keys taken and the sum of exp(score - max), repeated 8 times; softmax_out: an empty float32
// tensor (reserved); dropout_mask (p_dropout > 0 only): the bool keep mask (B, N, Sq, Sk) the backward needs.
diopiError_t diopiCustomizedFlashAttention(diopiContextHandle_t ctx, diopiTensorHandle_t attention_out, diopiTensorHandle_t* dropout_mask,
                                           diopiTensorHandle_t* softmax_max, diopiTensorHandle_t* softmax_sum, diopiTensorHandle_t* softmax_out,
                                           diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k,
                                           diopiConstTensorHandle_t v, diopiConstTensorHandle_t alibi_slopes, diopiConstTensorHandle_t attention_mask,
                                           float p_dropout, float softmax_scale, bool is_causal, int32_t window_size_left,
                                           int32_t window_size_right, int32_t head_num, const char* input_layout) {
    DIOPI_IMPL_BEGIN
    at::Tensor Q0 = tensor(q, "q");
    Layout lay = parseLayout(input_layout, Q0, head_num);
    at::Tensor Q = toBSND(Q0, lay, "q"), K = toBSND(tensor(k, "k"), lay, "k"), V = toBSND(tensor(v, "v"), lay, "v");
    checkQKV(Q, K, V);
    checkDropout(p_dropout);
    auto ct = computeType(Q);
    auto g = dropoutGenerator(ctx, gen, p_dropout);
    AttnSpec spec;
    spec.scale = softmax_scale;
    spec.causal = is_causal;
    spec.windowLeft = window_size_left;
    spec.windowRight = window_size_right;
    spec.alibi = optTensor(alibi_slopes);
    checkAlibi(spec.alibi, Q.size(0), Q.size(2));
    spec.excluded = maskBlock(optTensor(attention_mask), Q.size(1), K.size(1), is_causal);
    spec.dropout = p_dropout;
    spec.gen = g ? &*g : nullptr;
    AttnResult r = attention(Q.to(ct), K.to(ct), V.to(ct), spec);
    assign(attention_out, fromBSND(r.out, lay), "attention_out");
    if (r.keep.defined()) storeOut(ctx, dropout_mask, r.keep);
    storeOut(ctx, softmax_max, repeat8(r.rowMax));
    storeOut(ctx, softmax_sum, repeat8(r.rowSum));
    storeOut(ctx, softmax_out, at::empty({0}, Q.options().dtype(at::kFloat)));
    if (g) saveGenerator(ctx, gen, *g);
    DIOPI_IMPL_END
}

// Gradients of diopiCustomizedFlashAttention (same layouts and mask rules). dropout_mask: the forward's keep mask,
// required when p_dropout > 0. attention_out, softmax_max, softmax_sum and softmax_out are not needed (probabilities
// are recomputed).
diopiError_t diopiCustomizedFlashAttentionBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k,
                                                   diopiTensorHandle_t grad_v, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t q,
                                                   diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiConstTensorHandle_t alibi_slopes,
                                                   diopiConstTensorHandle_t attention_out, diopiConstTensorHandle_t attention_mask,
                                                   diopiConstTensorHandle_t dropout_mask, diopiConstTensorHandle_t softmax_max,
                                                   diopiConstTensorHandle_t softmax_sum, diopiConstTensorHandle_t softmax_out, float p_dropout,
                                                   float softmax_scale, bool is_causal, int32_t window_size_left, int32_t window_size_right,
                                                   int32_t head_num, const char* input_layout) {
    DIOPI_IMPL_BEGIN
    at::Tensor Q0 = tensor(q, "q");
    Layout lay = parseLayout(input_layout, Q0, head_num);
    at::Tensor Q = toBSND(Q0, lay, "q"), K = toBSND(tensor(k, "k"), lay, "k"), V = toBSND(tensor(v, "v"), lay, "v");
    checkQKV(Q, K, V);
    checkDropout(p_dropout);
    at::Tensor dO = toBSND(tensor(grad_output, "grad_output"), lay, "grad_output");
    if (dO.sizes() != at::IntArrayRef({Q.size(0), Q.size(1), Q.size(2), V.size(3)})) fail("grad_output must have the shape of attention_out");
    auto ct = computeType(Q);
    AttnSpec spec;
    spec.scale = softmax_scale;
    spec.causal = is_causal;
    spec.windowLeft = window_size_left;
    spec.windowRight = window_size_right;
    spec.alibi = optTensor(alibi_slopes);
    checkAlibi(spec.alibi, Q.size(0), Q.size(2));
    spec.excluded = maskBlock(optTensor(attention_mask), Q.size(1), K.size(1), is_causal);
    spec.dropout = p_dropout;
    if (p_dropout > 0) {
        if (dropout_mask == nullptr) fail("p_dropout > 0 needs the dropout_mask of the forward");
        spec.keep = tensor(dropout_mask, "dropout_mask");
    }
    AttnGrads gr = attentionBackward(dO.to(ct), Q.to(ct), K.to(ct), V.to(ct), spec);
    assignOpt(grad_q, fromBSND(gr.dq, lay), "grad_q");
    assignOpt(grad_k, fromBSND(gr.dk, lay), "grad_k");
    assignOpt(grad_v, fromBSND(gr.dv, lay), "grad_v");
    DIOPI_IMPL_END
}

// Variable-length flash attention. q (Tq, Hq, D), k / v (Tk, Hk, D); cum_seq_q / cum_seq_kv: int32 tensors of B + 1
// offsets (sequence b is rows [cum[b], cum[b+1])), each sequence at most max_seqlen_q / max_seqlen_kv long.
// attention_out (Tq, Hq, D), rows outside every sequence 0. softmax_lse float32 (B, Hq, max_seqlen_q) (+inf past a
// sequence's end) or (Hq, Tq). ALiBi (Hq) / (B, Hq); causal and windows bottom-right aligned per sequence.
diopiError_t diopiFlashAttentionVarLen(diopiContextHandle_t ctx, diopiTensorHandle_t attention_out, diopiTensorHandle_t softmax_lse,
                                       diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k, diopiConstTensorHandle_t v,
                                       diopiConstTensorHandle_t cum_seq_q, diopiConstTensorHandle_t cum_seq_kv, diopiConstTensorHandle_t alibi_slopes,
                                       int32_t max_seqlen_q, int32_t max_seqlen_kv, float p_dropout, float softmax_scale, bool is_causal,
                                       int32_t window_size_left, int32_t window_size_right) {
    DIOPI_IMPL_BEGIN
    at::Tensor Q = tensor(q, "q"), K = tensor(k, "k"), V = tensor(v, "v");
    checkVarLenQKV(Q, K, V);
    checkDropout(p_dropout);
    Segments seg = segments(hostInts(tensor(cum_seq_q, "cum_seq_q"), "cum_seq_q"), hostInts(tensor(cum_seq_kv, "cum_seq_kv"), "cum_seq_kv"),
                            Q.size(0), K.size(0), max_seqlen_q, max_seqlen_kv, true);
    auto ct = computeType(Q);
    auto g = dropoutGenerator(ctx, gen, p_dropout);
    AttnSpec spec;
    spec.scale = softmax_scale;
    spec.causal = is_causal;
    spec.windowLeft = window_size_left;
    spec.windowRight = window_size_right;
    spec.alibi = optTensor(alibi_slopes);
    checkAlibi(spec.alibi, seg.batch(), Q.size(1));
    spec.dropout = p_dropout;
    spec.gen = g ? &*g : nullptr;
    VarLenOut r = varlenForward(Q.to(ct), K.to(ct), V.to(ct), seg, spec, at::Tensor());
    assign(attention_out, r.out, "attention_out");
    if (softmax_lse != nullptr) assign(softmax_lse, varlenLse(tensor(softmax_lse, "softmax_lse"), r, seg, Q.size(1), Q.size(0)), "softmax_lse");
    if (g) saveGenerator(ctx, gen, *g);
    DIOPI_IMPL_END
}

// Gradients of diopiFlashAttentionVarLen (same layouts; attention_out / softmax_lse not used). With dropout, gen must
// be in the state the forward started from.
diopiError_t diopiFlashAttentionVarLenBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k,
                                               diopiTensorHandle_t grad_v, diopiConstTensorHandle_t grad_output, diopiGeneratorHandle_t gen,
                                               diopiConstTensorHandle_t q, diopiConstTensorHandle_t k, diopiConstTensorHandle_t v,
                                               diopiConstTensorHandle_t cum_seq_q, diopiConstTensorHandle_t cum_seq_kv,
                                               diopiConstTensorHandle_t alibi_slopes, diopiConstTensorHandle_t attention_out,
                                               diopiConstTensorHandle_t softmax_lse, int32_t max_seqlen_q, int32_t max_seqlen_kv, float p_dropout,
                                               float softmax_scale, bool is_causal, int32_t window_size_left, int32_t window_size_right) {
    DIOPI_IMPL_BEGIN
    at::Tensor Q = tensor(q, "q"), K = tensor(k, "k"), V = tensor(v, "v"), dO = tensor(grad_output, "grad_output");
    checkVarLenQKV(Q, K, V);
    checkDropout(p_dropout);
    if (dO.sizes() != at::IntArrayRef({Q.size(0), Q.size(1), V.size(2)})) fail("grad_output must have the shape of attention_out");
    checkShapeLike(attention_out, dO.sizes(), "attention_out");
    Segments seg = segments(hostInts(tensor(cum_seq_q, "cum_seq_q"), "cum_seq_q"), hostInts(tensor(cum_seq_kv, "cum_seq_kv"), "cum_seq_kv"),
                            Q.size(0), K.size(0), max_seqlen_q, max_seqlen_kv, true);
    auto ct = computeType(Q);
    auto g = dropoutGenerator(ctx, gen, p_dropout);
    AttnSpec spec;
    spec.scale = softmax_scale;
    spec.causal = is_causal;
    spec.windowLeft = window_size_left;
    spec.windowRight = window_size_right;
    spec.alibi = optTensor(alibi_slopes);
    checkAlibi(spec.alibi, seg.batch(), Q.size(1));
    spec.dropout = p_dropout;
    spec.gen = g ? &*g : nullptr;
    AttnGrads gr = varlenBackward(dO.to(ct), Q.to(ct), K.to(ct), V.to(ct), seg, spec, at::Tensor(), at::Tensor());
    assignOpt(grad_q, gr.dq, "grad_q");
    assignOpt(grad_k, gr.dk, "grad_k");
    assignOpt(grad_v, gr.dv, "grad_v");
    DIOPI_IMPL_END
}

// Ascend-style variable-length flash attention, layout "TND": q (Tq, N, D), k / v (Tk, Nk, D). cum_seq_q /
// cum_seq_kv (size lists) hold either B + 1 offsets starting with 0 or, Ascend-style, the B end offsets. attention_mask:
// NULL or bool (Sq_max, Sk_max) (leading dims of size 1 allowed), cut to each sequence's (sq, sk) block (same
// compressed-causal rule as diopiCustomizedFlashAttention). softmax_max / softmax_sum: (Tq, N, 8) float32; softmax_out:
// empty float32; dropout_mask (p_dropout > 0): bool, the keep masks (N, sq, sk) of the sequences flattened in order.
diopiError_t diopiCustomizedFlashAttentionVarLen(diopiContextHandle_t ctx, diopiTensorHandle_t attention_out, diopiTensorHandle_t* dropout_mask,
                                                 diopiTensorHandle_t* softmax_max, diopiTensorHandle_t* softmax_sum, diopiTensorHandle_t* softmax_out,
                                                 diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k,
                                                 diopiConstTensorHandle_t v, diopiSize_t cum_seq_q, diopiSize_t cum_seq_kv,
                                                 diopiConstTensorHandle_t alibi_slopes, diopiConstTensorHandle_t attention_mask, int32_t max_seqlen_q,
                                                 int32_t max_seqlen_kv, float p_dropout, float softmax_scale, bool is_causal,
                                                 int32_t window_size_left, int32_t window_size_right) {
    DIOPI_IMPL_BEGIN
    at::Tensor Q = tensor(q, "q"), K = tensor(k, "k"), V = tensor(v, "v");
    checkVarLenQKV(Q, K, V);
    checkDropout(p_dropout);
    at::IntArrayRef cq = ints(cum_seq_q), ck = ints(cum_seq_kv);
    Segments seg = segments(std::vector<int64_t>(cq.begin(), cq.end()), std::vector<int64_t>(ck.begin(), ck.end()), Q.size(0), K.size(0),
                            max_seqlen_q, max_seqlen_kv, false);
    auto ct = computeType(Q);
    auto g = dropoutGenerator(ctx, gen, p_dropout);
    AttnSpec spec;
    spec.scale = softmax_scale;
    spec.causal = is_causal;
    spec.windowLeft = window_size_left;
    spec.windowRight = window_size_right;
    spec.alibi = optTensor(alibi_slopes);
    checkAlibi(spec.alibi, seg.batch(), Q.size(1));
    spec.dropout = p_dropout;
    spec.gen = g ? &*g : nullptr;
    VarLenOut r = varlenForward(Q.to(ct), K.to(ct), V.to(ct), seg, spec, optTensor(attention_mask));
    assign(attention_out, r.out, "attention_out");
    int64_t tq = Q.size(0), n = Q.size(1);
    at::Tensor mx = at::full({tq, n}, -kInf, r.out.options()), sm = at::zeros({tq, n}, r.out.options());
    std::vector<at::Tensor> keeps;
    for (int64_t b = 0; b < seg.batch(); ++b) {
        const AttnResult& a = r.sequences[b];
        mx.narrow(0, seg.q[b], seg.sq(b)).copy_(a.rowMax[0].transpose(0, 1));
        sm.narrow(0, seg.q[b], seg.sq(b)).copy_(a.rowSum[0].transpose(0, 1));
        if (a.keep.defined()) keeps.push_back(a.keep.reshape({-1}));
    }
    if (p_dropout > 0) storeOut(ctx, dropout_mask, keeps.empty() ? at::empty({0}, Q.options().dtype(at::kBool)) : at::cat(keeps));
    storeOut(ctx, softmax_max, mx.unsqueeze(-1).expand({-1, -1, 8}).to(at::kFloat).contiguous());
    storeOut(ctx, softmax_sum, sm.unsqueeze(-1).expand({-1, -1, 8}).to(at::kFloat).contiguous());
    storeOut(ctx, softmax_out, at::empty({0}, Q.options().dtype(at::kFloat)));
    if (g) saveGenerator(ctx, gen, *g);
    DIOPI_IMPL_END
}

// Gradients of diopiCustomizedFlashAttentionVarLen (same layouts and rules; dropout_mask required when p_dropout > 0;
// attention_out and the softmax statistics are not needed).
diopiError_t diopiCustomizedFlashAttentionVarLenBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k,
                                                         diopiTensorHandle_t grad_v, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t q,
                                                         diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiSize_t cum_seq_q,
                                                         diopiSize_t cum_seq_kv, diopiConstTensorHandle_t alibi_slopes,
                                                         diopiConstTensorHandle_t attention_out, diopiConstTensorHandle_t attention_mask,
                                                         diopiConstTensorHandle_t dropout_mask, diopiConstTensorHandle_t softmax_max,
                                                         diopiConstTensorHandle_t softmax_sum, diopiConstTensorHandle_t softmax_out,
                                                         int32_t max_seqlen_q, int32_t max_seqlen_kv, float p_dropout, float softmax_scale,
                                                         bool is_causal, int32_t window_size_left, int32_t window_size_right) {
    DIOPI_IMPL_BEGIN
    at::Tensor Q = tensor(q, "q"), K = tensor(k, "k"), V = tensor(v, "v"), dO = tensor(grad_output, "grad_output");
    checkVarLenQKV(Q, K, V);
    checkDropout(p_dropout);
    if (dO.sizes() != at::IntArrayRef({Q.size(0), Q.size(1), V.size(2)})) fail("grad_output must have the shape of attention_out");
    at::IntArrayRef cq = ints(cum_seq_q), ck = ints(cum_seq_kv);
    Segments seg = segments(std::vector<int64_t>(cq.begin(), cq.end()), std::vector<int64_t>(ck.begin(), ck.end()), Q.size(0), K.size(0),
                            max_seqlen_q, max_seqlen_kv, false);
    auto ct = computeType(Q);
    AttnSpec spec;
    spec.scale = softmax_scale;
    spec.causal = is_causal;
    spec.windowLeft = window_size_left;
    spec.windowRight = window_size_right;
    spec.alibi = optTensor(alibi_slopes);
    checkAlibi(spec.alibi, seg.batch(), Q.size(1));
    spec.dropout = p_dropout;
    at::Tensor keep;
    if (p_dropout > 0) {
        if (dropout_mask == nullptr) fail("p_dropout > 0 needs the dropout_mask of the forward");
        keep = excludedFrom(tensor(dropout_mask, "dropout_mask")).reshape({-1});
    }
    AttnGrads gr = varlenBackward(dO.to(ct), Q.to(ct), K.to(ct), V.to(ct), seg, spec, optTensor(attention_mask), keep);
    assignOpt(grad_q, gr.dq, "grad_q");
    assignOpt(grad_k, gr.dk, "grad_k");
    assignOpt(grad_v, gr.dv, "grad_v");
    DIOPI_IMPL_END
}

// ---- scaled masked softmax (Megatron style)

// output = softmax(x) over the last dim with x = input * scale and masked positions set to -10000 (so a fully masked
// row is uniform). mask: broadcastable to input, nonzero = masked (any dtype). fixed_triu_mask: mask is ignored (may
// be NULL) and the strict upper triangle of the last two dims (j > i) is masked instead.
diopiError_t diopiScaledMaskedSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t output, diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t mask, double scale, bool fixed_triu_mask) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    requireFloating(x, "input");
    at::Tensor excl;
    if (fixed_triu_mask) {
        if (x.dim() < 2) fail("fixed_triu_mask needs an input of at least 2 dims");
        excl = at::ones({x.size(-2), x.size(-1)}, x.options().dtype(at::kBool)).triu(1);
    } else {
        excl = excludedFrom(tensor(mask, "mask"));
    }
    at::Tensor s = x.to(computeType(x)).mul(scale).masked_fill(excl, -10000.0);
    assign(output, x.size(-1) == 0 ? s : at::softmax(s, -1), "output");
    DIOPI_IMPL_END
}

// grad_input = scale * output * (grad_output - sum(grad_output * output, -1)), zero at masked positions (the masked
// scores are constants). output is the forward's result; mask / fixed_triu_mask as in the forward.
diopiError_t diopiScaledMaskedSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t output, diopiConstTensorHandle_t mask, double scale, bool fixed_triu_mask) {
    DIOPI_IMPL_BEGIN
    at::Tensor go = tensor(grad_output, "grad_output"), y = tensor(output, "output");
    requireFloating(go, "grad_output");
    if (go.sizes() != y.sizes()) fail("grad_output and output must have the same shape");
    at::Tensor excl;
    if (fixed_triu_mask) {
        if (y.dim() < 2) fail("fixed_triu_mask needs an output of at least 2 dims");
        excl = at::ones({y.size(-2), y.size(-1)}, y.options().dtype(at::kBool)).triu(1);
    } else {
        excl = excludedFrom(tensor(mask, "mask"));
    }
    auto ct = computeType(go);
    at::Tensor p = y.to(ct), g = go.to(ct);
    at::Tensor gi = (p * (g - (g * p).sum(-1, true))).mul(scale).masked_fill(excl, 0.0);
    assign(grad_input, gi, "grad_input");
    DIOPI_IMPL_END
}

// ---- prompt (prefill) flash attention, Ascend style

// query (B * S, Hq * dim) with S = max_input_len, or (B, S, Hq * dim); key / value likewise with Hk = num_kv_heads
// heads; out has query's shape. Sequence b takes its first actual_seq_lengths[b] rows (as queries and as keys);
// attention is causal within it, scale 1 / sqrt(dim). atten_mask: NULL or (S', S''), (B|1, S', S'') or
// (B|1, 1, S', S'') with S', S'' >= each length, nonzero = excluded, applied on top of the causal mask. Padding rows
// (past a sequence's length) of out are 0.
diopiError_t diopiPromptFlashAttention(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t query, diopiConstTensorHandle_t key,
                                       diopiConstTensorHandle_t value, diopiConstTensorHandle_t atten_mask, diopiSize_t actual_seq_lengths,
                                       int64_t max_input_len, int64_t num_heads, int64_t num_kv_heads, int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor Q0 = tensor(query, "query"), K0 = tensor(key, "key"), V0 = tensor(value, "value");
    requireFloating(Q0, "query");
    at::IntArrayRef lens = ints(actual_seq_lengths);
    int64_t b = static_cast<int64_t>(lens.size()), s = max_input_len;
    if (dim <= 0 || num_heads <= 0 || num_kv_heads <= 0 || num_heads % num_kv_heads != 0)
        fail("dim and the head counts must be positive, num_kv_heads dividing num_heads");
    if (s < 0) fail("max_input_len must be non-negative");
    auto view = [&](const at::Tensor& x, int64_t heads, const char* name) {
        if (x.numel() != b * s * heads * dim) fail(std::string(name) + " must hold batch * max_input_len * heads * dim elements");
        if (x.dim() != 2 && x.dim() != 3) fail(std::string(name) + " must be 2-D (B*S, H*D) or 3-D (B, S, H*D)");
        return x.reshape({b, s, heads, dim});
    };
    auto ct = computeType(Q0);
    at::Tensor Q = view(Q0, num_heads, "query").to(ct), K = view(K0, num_kv_heads, "key").to(ct), V = view(V0, num_kv_heads, "value").to(ct);
    at::Tensor mask = optTensor(atten_mask);
    if (mask.defined()) {
        if (mask.dim() == 4) {
            if (mask.size(1) != 1) fail("a 4-D atten_mask must have shape (B|1, 1, S, S)");
            mask = mask.squeeze(1);
        }
        if (mask.dim() == 3 && mask.size(0) != 1 && mask.size(0) != b) fail("atten_mask's batch dim must be 1 or the batch size");
        if (mask.dim() < 2 || mask.dim() > 3) fail("atten_mask must have 2, 3 or 4 dims");
    }
    at::Tensor o = at::zeros({b, s, num_heads, dim}, Q.options());
    for (int64_t i = 0; i < b; ++i) {
        int64_t len = lens[i];
        if (len < 0 || len > s) fail("actual_seq_lengths must lie in [0, max_input_len]");
        AttnSpec spec;
        spec.scale = 1.0 / std::sqrt(static_cast<double>(dim));
        spec.causal = true;
        if (mask.defined()) {
            at::Tensor m = mask.dim() == 3 ? mask[mask.size(0) == 1 ? 0 : i] : mask;
            if (m.size(0) < len || m.size(1) < len) fail("atten_mask is smaller than a sequence");
            spec.excluded = excludedFrom(m.narrow(0, 0, len).narrow(1, 0, len));
        }
        AttnResult r = attention(Q[i].narrow(0, 0, len).unsqueeze(0), K[i].narrow(0, 0, len).unsqueeze(0), V[i].narrow(0, 0, len).unsqueeze(0), spec);
        o[i].narrow(0, 0, len).copy_(r.out[0]);
    }
    at::Tensor result = o.reshape(Q0.sizes());
    assign(out, result, "out");
    DIOPI_IMPL_END
}

}  // extern "C"
