// Family llm_attention: multi-head and flash attention (forward and backward), the Ascend-style "customized" flash
// attention with its layouts, the variable-length variants of all three, scaled masked softmax and prompt flash
// attention. Every attention goes through the blocked core of common/attention.hpp on float copies of q, k and v
// (double copies for float64; 16-bit inputs accumulate in float); the conventions (bottom-right aligned causal masks and windows, ALiBi,
// dropout counters, rows without keys) are written there.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "common/attention_ops.hpp"
#include "common/common.hpp"
#include "common/fastmath.hpp"
#include "common/isa.hpp"

namespace impl::cpu {

using namespace attn_kernels;

namespace {

/// A dense (B, S, H, D) problem from q, k, v views of that layout.
Problem denseProblem(diopiContextHandle_t ctx, const TensorView& q, const TensorView& k, const TensorView& v, double scale, bool causal,
                     int64_t wl, int64_t wr) {
    Problem pr;
    pack(ctx, pr, q, k, v, 4);
    denseSeqs(pr);
    pr.spec.scale = scale;
    pr.spec.causal = causal;
    pr.spec.windowLeft = wl;
    pr.spec.windowRight = wr;
    return pr;
}

/// (B, Hq, Sq) row statistics of a dense forward in `dtype` (float32 or float64); f maps (m, l) to the stored value.
template <class F>
TensorView denseRowStat(diopiContextHandle_t ctx, const Problem& pr, const std::vector<double>& m, const std::vector<double>& l, int64_t repeat,
                        diopiDtype_t dtype, F f) {
    int64_t b = pr.qf.shape[0], sq = pr.qf.shape[1], hq = pr.spec.hq;
    Shape shape{b, hq, sq};
    if (repeat > 1) shape.push_back(repeat);
    TensorView t = newTensor(ctx, shape, diopi_dtype_float64);
    double* p = t.ptr<double>();
    for (int64_t i = 0; i < b; ++i)
        for (int64_t h = 0; h < hq; ++h)
            for (int64_t s = 0; s < sq; ++s) {
                int64_t src = h * pr.tq + i * sq + s;
                double val = f(m[src], l[src]);
                for (int64_t r = 0; r < repeat; ++r) p[((i * hq + h) * sq + s) * repeat + r] = val;
            }
    return castTo(ctx, t, dtype);
}

void writeGrads(const Grads& g, diopiTensorHandle_t gq, diopiTensorHandle_t gk, diopiTensorHandle_t gv) {
    if (gq) writeBack(view(gq, "grad_q"), g.dq, "grad_q");
    if (gk) writeBack(view(gk, "grad_k"), g.dk, "grad_k");
    if (gv) writeBack(view(gv, "grad_v"), g.dv, "grad_v");
}

void checkSavedShape(diopiConstTensorHandle_t h, const Shape& shape, const char* name) {
    if (h == nullptr) return;
    TensorView t = view(h, name);
    CPU_CHECK(t.shape == shape, name, " must have shape ", shapeStr(shape), " (the forward's), got ", shapeStr(t.shape));
}

// ---- Ascend layouts: every layout is a restrided (B, S, N, D) view, no copy.
struct Layout {
    std::string name;
    int64_t headDim = 0;
};

Layout parseLayout(const char* layout, const TensorView& q, int64_t headNum) {
    CPU_CHECK(layout != nullptr, "input_layout is NULL");
    Layout l{layout, 0};
    if (l.name == "BSH" || l.name == "SBH") {
        requireDim(q, 3, "q");
        CPU_CHECK(headNum > 0 && q.shape[2] % headNum == 0, "head_num (", headNum, ") must be positive and divide the hidden size ", q.shape[2], " of q");
        l.headDim = q.shape[2] / headNum;
    } else {
        CPU_CHECK(l.name == "BSND" || l.name == "BNSD", "input_layout must be one of \"BSND\", \"BNSD\", \"BSH\", \"SBH\", got \"", l.name, "\"");
    }
    return l;
}

TensorView toBSND(const TensorView& x, const Layout& l, const char* name) {
    if (l.name == "BSND") {
        requireDim(x, 4, name);
        return x;
    }
    if (l.name == "BNSD") {
        requireDim(x, 4, name);
        return x.restrided({x.shape[0], x.shape[2], x.shape[1], x.shape[3]}, {x.strides[0], x.strides[2], x.strides[1], x.strides[3]});
    }
    requireDim(x, 3, name);
    CPU_CHECK(l.headDim > 0 && x.shape[2] % l.headDim == 0, name, ": hidden size ", x.shape[2], " is not a multiple of the head dimension ", l.headDim);
    int64_t bi = l.name == "SBH" ? 1 : 0, si = 1 - bi, n = x.shape[2] / l.headDim;
    return x.restrided({x.shape[bi], x.shape[si], n, l.headDim}, {x.strides[bi], x.strides[si], x.strides[2] * l.headDim, x.strides[2]});
}

/// A callee-allocated output: stores the handle when the slot is given.
void storeSlot(diopiTensorHandle_t* slot, const TensorView& t) {
    if (slot != nullptr) *slot = t.handle;
}

/// q (B*S, H*D) or (B, S, H*D) as (B, S, H, D) (splitting dims is always a restride).
TensorView promptView(const TensorView& x, int64_t b, int64_t s, int64_t heads, int64_t dim, const char* name) {
    CPU_CHECK(x.numel == b * s * heads * dim, name, " must hold batch * max_input_len * heads * dim = ", b * s * heads * dim, " elements, got ",
              x.numel);
    if (x.dim() == 2) return x.restrided({b, s, heads, dim}, {s * x.strides[0], x.strides[0], dim * x.strides[1], x.strides[1]});
    CPU_CHECK(x.dim() == 3, name, " must be 2-D (B*S, H*D) or 3-D (B, S, H*D), got ", x.dim(), "-D");
    CPU_CHECK(x.shape[0] == b && x.shape[1] == s, name, " must have shape (", b, ", ", s, ", H*D), got ", shapeStr(x.shape));
    return x.restrided({b, s, heads, dim}, {x.strides[0], x.strides[1], dim * x.strides[2], x.strides[2]});
}

/// Masked positions of scaled masked softmax as a bool tensor of x's shape (true = masked).
TensorView softmaxMask(diopiContextHandle_t ctx, const TensorView& x, diopiConstTensorHandle_t mask, bool fixedTriu) {
    TensorView m = newTensor(ctx, x.shape, diopi_dtype_bool);
    if (fixedTriu) {
        CPU_CHECK(x.dim() >= 2, "fixed_triu_mask needs at least 2 dims, got ", x.dim());
        int64_t r = x.size(-2), c = x.size(-1);
        uint8_t* p = m.ptr<uint8_t>();
        for (int64_t e = 0; e < m.numel; ++e) p[e] = (e % c) > (e / c) % r ? 1 : 0;
        return m;
    }
    TensorView mv = view(mask, "mask");
    CPU_CHECK(broadcastShapes(mv.shape, x.shape) == x.shape, "mask ", shapeStr(mv.shape), " does not broadcast to ", shapeStr(x.shape));
    copyCast(m, mv);
    return m;
}


Problem varlenProblem(diopiContextHandle_t ctx, const TensorView& q, const TensorView& k, const TensorView& v, const std::vector<int64_t>& cq,
                      const std::vector<int64_t>& ck, int64_t maxQ, int64_t maxK, double scale, bool causal, int64_t wl, int64_t wr) {
    Problem pr;
    pack(ctx, pr, q, k, v, 3);
    varlenSeqs(pr, cq, ck, maxQ, maxK);
    pr.spec.scale = scale;
    pr.spec.causal = causal;
    pr.spec.windowLeft = wl;
    pr.spec.windowRight = wr;
    return pr;
}

/// Ascend-style boundary lists: either B + 1 offsets starting at 0 or only the B end offsets.
void ascendOffsets(diopiSize_t cq, diopiSize_t ck, std::vector<int64_t>& q, std::vector<int64_t>& k) {
    q = toShape(cq);
    k = toShape(ck);
    CPU_CHECK(q.size() == k.size(), "cum_seq_q and cum_seq_kv must have the same length, got ", q.size(), " and ", k.size());
    if (q.empty() || q[0] != 0 || k[0] != 0) {
        q.insert(q.begin(), 0);
        k.insert(k.begin(), 0);
    }
}

/// (Tq, N, 8) float32: a row statistic of every query token repeated 8 times (-inf / 0 outside every sequence).
TensorView tokenStat(diopiContextHandle_t ctx, const Problem& pr, const std::vector<double>& x) {
    int64_t hq = pr.spec.hq;
    TensorView t = newTensor(ctx, {pr.tq, hq, 8}, diopi_dtype_float32);
    float* p = t.ptr<float>();
    for (int64_t i = 0; i < pr.tq; ++i)
        for (int64_t h = 0; h < hq; ++h)
            for (int64_t r = 0; r < 8; ++r) p[(i * hq + h) * 8 + r] = (float)x[h * pr.tq + i];
    return t;
}

}  // namespace

// ---------------------------------------------------------------- multi-head attention (deprecated entry points)

diopiError_t diopiMultiHeadAttention(diopiContextHandle_t ctx, diopiTensorHandle_t q, diopiTensorHandle_t k, diopiTensorHandle_t v, double dropout_p,
                                     bool is_causal, bool return_debug_mask, double scale, diopiTensorHandle_t out, diopiTensorHandle_t softmax_lse,
                                     diopiGeneratorHandle_t gen, diopiTensorHandle_t debug_attn_mask) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out");
        Problem pr = denseProblem(ctx, view(q, "q"), view(k, "k"), view(v, "v"), scale, is_causal, -1, -1);
        setDropout(pr, dropout_p, gen, true);
        std::vector<double> m, l;
        TensorView res = runForward(ctx, pr, &m, &l);
        writeBack(o, res, "out");
        if (softmax_lse) writeBack(view(softmax_lse, "softmax_lse"), denseRowStat(ctx, pr, m, l, 1, diopi_dtype_float64, lseOf), "softmax_lse");
        if (return_debug_mask && debug_attn_mask)
            writeDebugMask(ctx, view(debug_attn_mask, "debug_attn_mask"), pr, pr.qf.shape[1], pr.kf.shape[1]);
    });
}

diopiError_t diopiMultiHeadAttentionBackward(diopiContextHandle_t ctx, diopiConstTensorHandle_t grad_out, diopiConstTensorHandle_t q,
                                             diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiConstTensorHandle_t out,
                                             diopiConstTensorHandle_t softmax_lse, double dropout_p, bool is_causal, diopiGeneratorHandle_t gen,
                                             double scale, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k, diopiTensorHandle_t grad_v) {
    return guard(__func__, [&] {
        TensorView dO = view(grad_out, "grad_out");
        Problem pr = denseProblem(ctx, view(q, "q"), view(k, "k"), view(v, "v"), scale, is_causal, -1, -1);
        checkSavedShape(out, dO.shape, "out");
        checkSavedShape(softmax_lse, {pr.qf.shape[0], pr.spec.hq, pr.qf.shape[1]}, "softmax_lse");
        setDropout(pr, dropout_p, gen, false);
        writeGrads(runBackward(ctx, pr, dO), grad_q, grad_k, grad_v);
    });
}

// ---------------------------------------------------------------- flash attention

diopiError_t diopiFlashAttention(diopiContextHandle_t ctx, diopiTensorHandle_t attention_out, diopiTensorHandle_t softmax_lse,
                                 diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k, diopiConstTensorHandle_t v,
                                 diopiConstTensorHandle_t alibi_slopes, float p_dropout, float softmax_scale, bool is_causal,
                                 int32_t window_size_left, int32_t window_size_right) {
    return guard(__func__, [&] {
        TensorView o = view(attention_out, "attention_out");
        Problem pr = denseProblem(ctx, view(q, "q"), view(k, "k"), view(v, "v"), softmax_scale, is_causal, window_size_left, window_size_right);
        setAlibi(ctx, pr, viewOpt(alibi_slopes, "alibi_slopes"));
        setDropout(pr, p_dropout, gen, true);
        std::vector<double> m, l;
        TensorView res = runForward(ctx, pr, &m, &l);
        writeBack(o, res, "attention_out");
        if (softmax_lse) writeBack(view(softmax_lse, "softmax_lse"), denseRowStat(ctx, pr, m, l, 1, diopi_dtype_float64, lseOf), "softmax_lse");
    });
}

diopiError_t diopiFlashAttentionBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k, diopiTensorHandle_t grad_v,
                                         diopiConstTensorHandle_t grad_output, diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q,
                                         diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiConstTensorHandle_t alibi_slopes,
                                         diopiConstTensorHandle_t attention_out, diopiConstTensorHandle_t softmax_lse, float p_dropout,
                                         float softmax_scale, bool is_causal, int32_t window_size_left, int32_t window_size_right) {
    return guard(__func__, [&] {
        TensorView dO = view(grad_output, "grad_output");
        Problem pr = denseProblem(ctx, view(q, "q"), view(k, "k"), view(v, "v"), softmax_scale, is_causal, window_size_left, window_size_right);
        checkSavedShape(attention_out, dO.shape, "attention_out");
        checkSavedShape(softmax_lse, {pr.qf.shape[0], pr.spec.hq, pr.qf.shape[1]}, "softmax_lse");
        setAlibi(ctx, pr, viewOpt(alibi_slopes, "alibi_slopes"));
        setDropout(pr, p_dropout, gen, false);
        writeGrads(runBackward(ctx, pr, dO), grad_q, grad_k, grad_v);
    });
}

// ---------------------------------------------------------------- customized (Ascend-style) flash attention
// softmax_max / softmax_sum: (B, N, Sq, 8) float32, the row statistic repeated 8 times; softmax_out: an empty float32
// tensor; dropout_mask (p_dropout > 0 only): the bool keep mask (B, N, Sq, Sk) the backward reads.

diopiError_t diopiCustomizedFlashAttention(diopiContextHandle_t ctx, diopiTensorHandle_t attention_out, diopiTensorHandle_t* dropout_mask,
                                           diopiTensorHandle_t* softmax_max, diopiTensorHandle_t* softmax_sum, diopiTensorHandle_t* softmax_out,
                                           diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k,
                                           diopiConstTensorHandle_t v, diopiConstTensorHandle_t alibi_slopes, diopiConstTensorHandle_t attention_mask,
                                           float p_dropout, float softmax_scale, bool is_causal, int32_t window_size_left,
                                           int32_t window_size_right, int32_t head_num, const char* input_layout) {
    return guard(__func__, [&] {
        TensorView q0 = view(q, "q"), o = view(attention_out, "attention_out");
        Layout lay = parseLayout(input_layout, q0, head_num);
        Problem pr = denseProblem(ctx, toBSND(q0, lay, "q"), toBSND(view(k, "k"), lay, "k"), toBSND(view(v, "v"), lay, "v"), softmax_scale,
                                  is_causal, window_size_left, window_size_right);
        setAlibi(ctx, pr, viewOpt(alibi_slopes, "alibi_slopes"));
        setMask(ctx, pr, viewOpt(attention_mask, "attention_mask"), true);
        setDropout(pr, p_dropout, gen, true);
        if (p_dropout > 0) {
            int64_t b = pr.qf.shape[0], sq = pr.qf.shape[1], sk = pr.kf.shape[1];
            storeSlot(dropout_mask, drawKeepMask(ctx, pr, {b, pr.spec.hq, sq, sk}));
        }
        std::vector<double> m, l;
        TensorView res = runForward(ctx, pr, &m, &l);
        writeBack(toBSND(o, lay, "attention_out"), res, "attention_out");
        storeSlot(softmax_max, denseRowStat(ctx, pr, m, l, 8, diopi_dtype_float32, [](double mx, double) { return mx; }));
        storeSlot(softmax_sum, denseRowStat(ctx, pr, m, l, 8, diopi_dtype_float32, [](double, double sum) { return sum; }));
        storeSlot(softmax_out, newTensor(ctx, {0}, diopi_dtype_float32));
    });
}

diopiError_t diopiCustomizedFlashAttentionBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k,
                                                   diopiTensorHandle_t grad_v, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t q,
                                                   diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiConstTensorHandle_t alibi_slopes,
                                                   diopiConstTensorHandle_t attention_out, diopiConstTensorHandle_t attention_mask,
                                                   diopiConstTensorHandle_t dropout_mask, diopiConstTensorHandle_t softmax_max,
                                                   diopiConstTensorHandle_t softmax_sum, diopiConstTensorHandle_t softmax_out, float p_dropout,
                                                   float softmax_scale, bool is_causal, int32_t window_size_left, int32_t window_size_right,
                                                   int32_t head_num, const char* input_layout) {
    return guard(__func__, [&] {
        TensorView q0 = view(q, "q");
        Layout lay = parseLayout(input_layout, q0, head_num);
        Problem pr = denseProblem(ctx, toBSND(q0, lay, "q"), toBSND(view(k, "k"), lay, "k"), toBSND(view(v, "v"), lay, "v"), softmax_scale,
                                  is_causal, window_size_left, window_size_right);
        setAlibi(ctx, pr, viewOpt(alibi_slopes, "alibi_slopes"));
        setMask(ctx, pr, viewOpt(attention_mask, "attention_mask"), true);
        checkDropout(p_dropout);
        pr.spec.drop.p = p_dropout;
        if (p_dropout > 0) useKeepMask(ctx, pr, viewOpt(dropout_mask, "dropout_mask"));
        Grads g = runBackward(ctx, pr, toBSND(view(grad_output, "grad_output"), lay, "grad_output"));
        if (grad_q) writeBack(toBSND(view(grad_q, "grad_q"), lay, "grad_q"), g.dq, "grad_q");
        if (grad_k) writeBack(toBSND(view(grad_k, "grad_k"), lay, "grad_k"), g.dk, "grad_k");
        if (grad_v) writeBack(toBSND(view(grad_v, "grad_v"), lay, "grad_v"), g.dv, "grad_v");
    });
}

// ================================================================ variable-length variants
// Sequences packed along the token axis, q (Tq, Hq, D) and k / v (Tk, Hk, D), each attending only within itself
// (causal masks and windows bottom-right aligned per sequence). Rows outside every sequence get 0 (outputs and
// gradients) and +inf (softmax_lse).
// ---------------------------------------------------------------- multi-head attention (deprecated), cum_seq_* tensors

diopiError_t diopiMultiHeadAttentionVarLen(diopiContextHandle_t ctx, diopiTensorHandle_t q, diopiTensorHandle_t k, diopiTensorHandle_t v,
                                           diopiConstTensorHandle_t cum_seq_q, diopiConstTensorHandle_t cum_seq_k, int64_t max_q, int64_t max_k,
                                           double dropout_p, bool is_causal, bool return_debug_mask, double scale, diopiTensorHandle_t out,
                                           diopiTensorHandle_t softmax_lse, diopiGeneratorHandle_t gen, diopiTensorHandle_t debug_attn_mask) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out");
        Problem pr = varlenProblem(ctx, view(q, "q"), view(k, "k"), view(v, "v"), hostInts(ctx, view(cum_seq_q, "cum_seq_q"), "cum_seq_q"),
                                   hostInts(ctx, view(cum_seq_k, "cum_seq_k"), "cum_seq_k"), max_q, max_k, scale, is_causal, -1, -1);
        setDropout(pr, dropout_p, gen, true);
        std::vector<double> m, l;
        TensorView res = runForward(ctx, pr, &m, &l);
        writeBack(o, res, "out");
        if (softmax_lse) writeVarlenLse(ctx, view(softmax_lse, "softmax_lse"), pr, m, l);
        if (return_debug_mask && debug_attn_mask) {
            TensorView dm = view(debug_attn_mask, "debug_attn_mask");
            CPU_CHECK(dm.dim() == 4, "debug_attn_mask must have shape (batch, heads, max_q, max_k), got ", shapeStr(dm.shape));
            writeDebugMask(ctx, dm, pr, dm.shape[2], dm.shape[3]);
        }
    });
}

diopiError_t diopiMultiHeadAttentionVarLenBackward(diopiContextHandle_t ctx, diopiConstTensorHandle_t grad_out, diopiConstTensorHandle_t q,
                                                   diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiConstTensorHandle_t out,
                                                   diopiConstTensorHandle_t softmax_lse, diopiConstTensorHandle_t cum_seq_q,
                                                   diopiConstTensorHandle_t cum_seq_k, int64_t max_q, int64_t max_k, double dropout_p, bool is_causal,
                                                   diopiGeneratorHandle_t gen, double scale, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k,
                                                   diopiTensorHandle_t grad_v) {
    return guard(__func__, [&] {
        TensorView dO = view(grad_out, "grad_out");
        Problem pr = varlenProblem(ctx, view(q, "q"), view(k, "k"), view(v, "v"), hostInts(ctx, view(cum_seq_q, "cum_seq_q"), "cum_seq_q"),
                                   hostInts(ctx, view(cum_seq_k, "cum_seq_k"), "cum_seq_k"), max_q, max_k, scale, is_causal, -1, -1);
        if (out) CPU_CHECK(view(out, "out").shape == dO.shape, "out must have the shape of grad_out");
        setDropout(pr, dropout_p, gen, false);
        writeGrads(runBackward(ctx, pr, dO), grad_q, grad_k, grad_v);
    });
}

// ---------------------------------------------------------------- flash attention, cum_seq_* int tensors

diopiError_t diopiFlashAttentionVarLen(diopiContextHandle_t ctx, diopiTensorHandle_t attention_out, diopiTensorHandle_t softmax_lse,
                                       diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k, diopiConstTensorHandle_t v,
                                       diopiConstTensorHandle_t cum_seq_q, diopiConstTensorHandle_t cum_seq_kv, diopiConstTensorHandle_t alibi_slopes,
                                       int32_t max_seqlen_q, int32_t max_seqlen_kv, float p_dropout, float softmax_scale, bool is_causal,
                                       int32_t window_size_left, int32_t window_size_right) {
    return guard(__func__, [&] {
        TensorView o = view(attention_out, "attention_out");
        Problem pr = varlenProblem(ctx, view(q, "q"), view(k, "k"), view(v, "v"), hostInts(ctx, view(cum_seq_q, "cum_seq_q"), "cum_seq_q"),
                                   hostInts(ctx, view(cum_seq_kv, "cum_seq_kv"), "cum_seq_kv"), max_seqlen_q, max_seqlen_kv, softmax_scale,
                                   is_causal, window_size_left, window_size_right);
        setAlibi(ctx, pr, viewOpt(alibi_slopes, "alibi_slopes"));
        setDropout(pr, p_dropout, gen, true);
        std::vector<double> m, l;
        TensorView res = runForward(ctx, pr, &m, &l);
        writeBack(o, res, "attention_out");
        if (softmax_lse) writeVarlenLse(ctx, view(softmax_lse, "softmax_lse"), pr, m, l);
    });
}

diopiError_t diopiFlashAttentionVarLenBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k,
                                               diopiTensorHandle_t grad_v, diopiConstTensorHandle_t grad_output, diopiGeneratorHandle_t gen,
                                               diopiConstTensorHandle_t q, diopiConstTensorHandle_t k, diopiConstTensorHandle_t v,
                                               diopiConstTensorHandle_t cum_seq_q, diopiConstTensorHandle_t cum_seq_kv,
                                               diopiConstTensorHandle_t alibi_slopes, diopiConstTensorHandle_t attention_out,
                                               diopiConstTensorHandle_t softmax_lse, int32_t max_seqlen_q, int32_t max_seqlen_kv, float p_dropout,
                                               float softmax_scale, bool is_causal, int32_t window_size_left, int32_t window_size_right) {
    return guard(__func__, [&] {
        TensorView dO = view(grad_output, "grad_output");
        Problem pr = varlenProblem(ctx, view(q, "q"), view(k, "k"), view(v, "v"), hostInts(ctx, view(cum_seq_q, "cum_seq_q"), "cum_seq_q"),
                                   hostInts(ctx, view(cum_seq_kv, "cum_seq_kv"), "cum_seq_kv"), max_seqlen_q, max_seqlen_kv, softmax_scale,
                                   is_causal, window_size_left, window_size_right);
        if (attention_out) CPU_CHECK(view(attention_out, "attention_out").shape == dO.shape, "attention_out must have the shape of grad_output");
        setAlibi(ctx, pr, viewOpt(alibi_slopes, "alibi_slopes"));
        setDropout(pr, p_dropout, gen, false);
        writeGrads(runBackward(ctx, pr, dO), grad_q, grad_k, grad_v);
    });
}

// ---------------------------------------------------------------- customized ("TND"), host boundary lists
// attention_mask: NULL or bool (Sq_max, Sk_max), cut to each sequence's top-left block (ignored by a causal call when
// smaller: a compressed causal mask). softmax_max / softmax_sum: (Tq, N, 8) float32; softmax_out: empty float32;
// dropout_mask (p_dropout > 0): bool, the keep masks (N, sq, sk) of the sequences flattened in order.

diopiError_t diopiCustomizedFlashAttentionVarLen(diopiContextHandle_t ctx, diopiTensorHandle_t attention_out, diopiTensorHandle_t* dropout_mask,
                                                 diopiTensorHandle_t* softmax_max, diopiTensorHandle_t* softmax_sum, diopiTensorHandle_t* softmax_out,
                                                 diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k,
                                                 diopiConstTensorHandle_t v, diopiSize_t cum_seq_q, diopiSize_t cum_seq_kv,
                                                 diopiConstTensorHandle_t alibi_slopes, diopiConstTensorHandle_t attention_mask, int32_t max_seqlen_q,
                                                 int32_t max_seqlen_kv, float p_dropout, float softmax_scale, bool is_causal,
                                                 int32_t window_size_left, int32_t window_size_right) {
    return guard(__func__, [&] {
        TensorView o = view(attention_out, "attention_out");
        std::vector<int64_t> cq, ck;
        ascendOffsets(cum_seq_q, cum_seq_kv, cq, ck);
        Problem pr = varlenProblem(ctx, view(q, "q"), view(k, "k"), view(v, "v"), cq, ck, max_seqlen_q, max_seqlen_kv, softmax_scale, is_causal,
                                   window_size_left, window_size_right);
        setAlibi(ctx, pr, viewOpt(alibi_slopes, "alibi_slopes"));
        setMask(ctx, pr, viewOpt(attention_mask, "attention_mask"), false);
        setDropout(pr, p_dropout, gen, true);
        if (p_dropout > 0) {
            TensorView keep = drawKeepMask(ctx, pr, {(int64_t)attn::dropCount(pr.spec, pr.seqs)});
            if (dropout_mask) *dropout_mask = keep.handle;
        }
        std::vector<double> m, l;
        TensorView res = runForward(ctx, pr, &m, &l);
        writeBack(o, res, "attention_out");
        if (softmax_max) *softmax_max = tokenStat(ctx, pr, m).handle;
        if (softmax_sum) *softmax_sum = tokenStat(ctx, pr, l).handle;
        if (softmax_out) *softmax_out = newTensor(ctx, {0}, diopi_dtype_float32).handle;
    });
}

diopiError_t diopiCustomizedFlashAttentionVarLenBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k,
                                                         diopiTensorHandle_t grad_v, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t q,
                                                         diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiSize_t cum_seq_q,
                                                         diopiSize_t cum_seq_kv, diopiConstTensorHandle_t alibi_slopes,
                                                         diopiConstTensorHandle_t attention_out, diopiConstTensorHandle_t attention_mask,
                                                         diopiConstTensorHandle_t dropout_mask, diopiConstTensorHandle_t softmax_max,
                                                         diopiConstTensorHandle_t softmax_sum, diopiConstTensorHandle_t softmax_out,
                                                         int32_t max_seqlen_q, int32_t max_seqlen_kv, float p_dropout, float softmax_scale,
                                                         bool is_causal, int32_t window_size_left, int32_t window_size_right) {
    return guard(__func__, [&] {
        std::vector<int64_t> cq, ck;
        ascendOffsets(cum_seq_q, cum_seq_kv, cq, ck);
        Problem pr = varlenProblem(ctx, view(q, "q"), view(k, "k"), view(v, "v"), cq, ck, max_seqlen_q, max_seqlen_kv, softmax_scale, is_causal,
                                   window_size_left, window_size_right);
        setAlibi(ctx, pr, viewOpt(alibi_slopes, "alibi_slopes"));
        setMask(ctx, pr, viewOpt(attention_mask, "attention_mask"), false);
        checkDropout(p_dropout);
        pr.spec.drop.p = p_dropout;
        if (p_dropout > 0) useKeepMask(ctx, pr, viewOpt(dropout_mask, "dropout_mask"));
        writeGrads(runBackward(ctx, pr, view(grad_output, "grad_output")), grad_q, grad_k, grad_v);
    });
}

// ---------------------------------------------------------------- scaled masked softmax (Megatron style)
// Masked scores are set to -10000 after scaling (a fully masked row is uniform, as in the fused kernels); mask
// is any dtype, nonzero = masked, broadcast to input. fixed_triu_mask ignores mask and masks j > i instead.

namespace {

/// One softmax row of scaled masked softmax: masked where mask[j] != 0 (mask given) or j > lim (fixed triu).
template <class S>
CPU_FORCE_INLINE void smsRowImpl(const S* x, const uint8_t* mask, int64_t lim, S* y, int64_t n, S sc) {
    // `omp simd` reductions let the max and the sum run in vector lanes (a plain loop adds in order, lane by lane).
    S mx = -std::numeric_limits<S>::infinity();
    if (mask) {
        // x is read unconditionally so that the select is a vector blend (a load under the mask stays scalar).
#pragma omp simd reduction(max : mx)
        for (int64_t j = 0; j < n; ++j) {
            const S xs = x[j] * sc;
            S v;
            if constexpr (std::is_same_v<S, float>) v = selectF(mask[j] != 0, -10000.0f, xs);  // a bit select (vectorises)
            else v = mask[j] ? S(-10000) : xs;
            y[j] = v;
            mx = mx > v ? mx : v;
        }
    } else {
#pragma omp simd reduction(max : mx)
        for (int64_t j = 0; j < n; ++j) {
            const S xs = x[j] * sc;
            const S v = j > lim ? S(-10000) : xs;
            y[j] = v;
            mx = mx > v ? mx : v;
        }
    }
    S sum = 0;
    if constexpr (std::is_same_v<S, float>) {
#pragma omp simd reduction(+ : sum)
        for (int64_t j = 0; j < n; ++j) {
            const float e = expF(y[j] - mx);
            y[j] = e;
            sum += e;
        }
    } else {
        for (int64_t j = 0; j < n; ++j) sum += (y[j] = std::exp(y[j] - mx));
    }
    if constexpr (std::is_same_v<S, float>) {
        const float inv = 1.0f / sum;  // float rows: one division per row
        for (int64_t j = 0; j < n; ++j) y[j] *= inv;
    } else {
        for (int64_t j = 0; j < n; ++j) y[j] /= sum;
    }
}

/// Rows [b, e) of a dense (rows, n) problem; rowMask(r) gives the mask row (or null) and triu limit of row r.
struct SmsRows {
    const void* x;
    void* y;
    int64_t n, b, e;
    double scale;
    const uint8_t* mask;  ///< broadcast mask (null: fixed triu)
    const int64_t* maskOff;  ///< byte offset of each row's mask row
    int64_t rowsPerMatrix;   ///< fixed triu: row r is row r % rowsPerMatrix of its matrix
};

template <class S>
CPU_FORCE_INLINE void smsRunImpl(const SmsRows& a) {
    const S* x = static_cast<const S*>(a.x);
    S* y = static_cast<S*>(a.y);
    for (int64_t r = a.b; r < a.e; ++r)
        smsRowImpl<S>(x + r * a.n, a.mask ? a.mask + a.maskOff[r] : nullptr, a.mask ? 0 : r % a.rowsPerMatrix, y + r * a.n, a.n, S(a.scale));
}

void smsRunD(const SmsRows& a) { smsRunImpl<double>(a); }
void smsRunF(const SmsRows& a) { smsRunImpl<float>(a); }
#if CPU_HAVE_X86_LEVELS
CPU_TARGET_AVX2 void smsRunAvx2(const SmsRows& a) { smsRunImpl<float>(a); }
CPU_TARGET_AVX512 void smsRunAvx512(const SmsRows& a) { smsRunImpl<float>(a); }
#endif

void (*smsRunFloat())(const SmsRows&) {
#if CPU_HAVE_X86_LEVELS
    if (isa() == Isa::Avx512) return smsRunAvx512;
    if (isa() == Isa::Avx2) return smsRunAvx2;
#endif
    return smsRunF;
}

/// Byte offsets of the mask row of every row of x (mask broadcast to x, as bool, last dim dense).
std::vector<int64_t> maskRowOffsets(const TensorView& m, const Shape& xshape) {
    const int64_t nd = (int64_t)xshape.size() - 1, off = (int64_t)xshape.size() - m.dim();
    Shape outer(xshape.begin(), xshape.end() - 1), st(nd, 0);
    for (int64_t k = 0; k < nd; ++k) {
        const int64_t mk = k - off;
        if (mk >= 0 && m.shape[mk] != 1) st[k] = m.strides[mk];
    }
    const int64_t rows = shapeNumel(outer);
    std::vector<int64_t> res((size_t)rows);
    std::vector<int64_t> idx((size_t)nd, 0);
    for (int64_t r = 0; r < rows; ++r) {
        int64_t o = 0;
        for (int64_t k = 0; k < nd; ++k) o += idx[k] * st[k];
        res[r] = o;
        for (int64_t k = nd - 1; k >= 0; --k) {
            if (++idx[k] < outer[k]) break;
            idx[k] = 0;
        }
    }
    return res;
}

}  // namespace

diopiError_t diopiScaledMaskedSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t output, diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t mask, double scale, bool fixed_triu_mask) {
    return guard(__func__, [&] {
        TensorView x = view(input, "input"), o = view(output, "output");
        requireFloat(x, "input");
        requireFloat(o, "output");
        CPU_CHECK(x.dim() >= 1, "input must have at least 1 dim");
        CPU_CHECK(o.shape == x.shape, "output must have the shape ", shapeStr(x.shape), " of input, got ", shapeStr(o.shape));
        const diopiDtype_t ct = computeDtype({x.dtype, o.dtype});
        TensorView xf = contiguousAs(ctx, x, ct);
        // output itself is the result buffer when it is dense of the compute dtype (no extra pass).
        const bool direct = o.dtype == ct && o.isContiguous();
        TensorView res = direct ? o : newTensor(ctx, x.shape, ct);
        const int64_t n = x.size(-1), rows = n ? x.numel / n : 0;
        SmsRows a{xf.data, res.data, n, 0, 0, scale, nullptr, nullptr, 1};
        std::vector<int64_t> offs;
        TensorView mb;
        if (fixed_triu_mask) {
            CPU_CHECK(x.dim() >= 2, "fixed_triu_mask needs at least 2 dims, got ", x.dim());
            a.rowsPerMatrix = std::max<int64_t>(1, x.size(-2));
        } else {
            // The mask is read in place through broadcast strides (only its own elements are converted to bool).
            TensorView mv = view(mask, "mask");
            CPU_CHECK(broadcastShapes(mv.shape, x.shape) == x.shape, "mask ", shapeStr(mv.shape), " does not broadcast to ", shapeStr(x.shape));
            mb = contiguousAs(ctx, mv, diopi_dtype_bool);
            if ((mb.dim() == 0 || mb.shape.back() == 1) && n != 1) {  // a mask broadcast along the row: expand it
                mb = newTensor(ctx, x.shape, diopi_dtype_bool);
                copyCast(mb, mv);
            }
            offs = maskRowOffsets(mb, x.shape);
            a.mask = mb.ptr<const uint8_t>();
            a.maskOff = offs.data();
        }
        void (*run)(const SmsRows&) = ct == diopi_dtype_float64 ? smsRunD : smsRunFloat();
        parallelFor(rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
            SmsRows t = a;
            t.b = b;
            t.e = e;
            run(t);
        });
        if (!direct) copyCast(o, res);
    });
}

diopiError_t diopiScaledMaskedSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t output, diopiConstTensorHandle_t mask, double scale, bool fixed_triu_mask) {
    return guard(__func__, [&] {
        TensorView go = view(grad_output, "grad_output"), y = view(output, "output"), gi = view(grad_input, "grad_input");
        requireFloat(go, "grad_output");
        requireFloat(y, "output");
        requireFloat(gi, "grad_input");
        CPU_CHECK(y.dim() >= 1, "output must have at least 1 dim");
        CPU_CHECK(go.shape == y.shape && gi.shape == y.shape, "grad_output, output and grad_input must have the same shape");
        const diopiDtype_t ct = computeDtype({go.dtype, y.dtype, gi.dtype});
        TensorView gf = contiguousAs(ctx, go, ct), yf = contiguousAs(ctx, y, ct);
        TensorView m = softmaxMask(ctx, y, mask, fixed_triu_mask);
        TensorView res = newTensor(ctx, y.shape, ct);
        const int64_t n = y.size(-1), rows = n ? y.numel / n : 0;
        const uint8_t* mp = m.ptr<const uint8_t>();
        dispatch<TypeList<float, double>>(ct, "grad_output", [&](auto tag) {
            using S = typename decltype(tag)::type;
            const S *gp = gf.ptr<const S>(), *yp = yf.ptr<const S>();
            S* rp = res.ptr<S>();
            const S sc = S(scale);
            parallelFor(rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
                for (int64_t r = b; r < e; ++r) {
                    const S *g = gp + r * n, *p = yp + r * n;
                    S dot = 0;
                    for (int64_t j = 0; j < n; ++j) dot += g[j] * p[j];
                    // Masked scores are constants of the input, so their gradient is 0.
                    for (int64_t j = 0; j < n; ++j) rp[r * n + j] = mp[r * n + j] ? S(0) : sc * p[j] * (g[j] - dot);
                }
            });
        });
        copyCast(gi, res);
    });
}

// ---------------------------------------------------------------- prompt flash attention (prefill)
// query (B*S, H*D) or (B, S, H*D), S = max_input_len; sequence b takes its first actual_seq_lengths[b] rows as queries
// and keys, causal, scale 1 / sqrt(dim). atten_mask: NULL or (S', S''), (B|1, S', S'') or (B|1, 1, S', S''), nonzero =
// excluded, cut to each sequence's top-left block. Padding rows of out are 0.

diopiError_t diopiPromptFlashAttention(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t query, diopiConstTensorHandle_t key,
                                       diopiConstTensorHandle_t value, diopiConstTensorHandle_t atten_mask, diopiSize_t actual_seq_lengths,
                                       int64_t max_input_len, int64_t num_heads, int64_t num_kv_heads, int64_t dim) {
    return guard(__func__, [&] {
        TensorView q0 = view(query, "query"), o = view(out, "out");
        Shape lens = toShape(actual_seq_lengths);
        const int64_t b = (int64_t)lens.size(), s = max_input_len;
        CPU_CHECK(dim > 0 && num_heads > 0 && num_kv_heads > 0 && num_heads % num_kv_heads == 0,
                  "dim and the head counts must be positive, num_kv_heads dividing num_heads");
        CPU_CHECK(s >= 0, "max_input_len must be non-negative, got ", s);
        CPU_CHECK(o.shape == q0.shape, "out must have the shape ", shapeStr(q0.shape), " of query, got ", shapeStr(o.shape));
        Problem pr;
        pack(ctx, pr, promptView(q0, b, s, num_heads, dim, "query"), promptView(view(key, "key"), b, s, num_kv_heads, dim, "key"),
             promptView(view(value, "value"), b, s, num_kv_heads, dim, "value"), 4);
        pr.batch = b;
        for (int64_t i = 0; i < b; ++i) {
            CPU_CHECK(lens[i] >= 0 && lens[i] <= s, "actual_seq_lengths[", i, "] = ", lens[i], " must lie in [0, max_input_len]");
            Seq sq;
            sq.b = i;
            sq.q0 = sq.k0 = i * s;
            sq.sq = sq.sk = lens[i];
            pr.seqs.push_back(sq);
        }
        pr.spec.scale = 1.0 / std::sqrt((double)dim);
        pr.spec.causal = true;
        TensorView m = viewOpt(atten_mask, "atten_mask");
        if (m.defined()) {
            CPU_CHECK(m.dim() >= 2 && m.dim() <= 4, "atten_mask must have 2, 3 or 4 dims, got ", m.dim());
            if (m.dim() == 4) CPU_CHECK(m.shape[1] == 1, "a 4-D atten_mask must have shape (B|1, 1, S, S), got ", shapeStr(m.shape));
            // A 3-D mask's leading dim is the batch: give it a head dim of 1.
            if (m.dim() == 3) m = m.restrided({m.shape[0], 1, m.shape[1], m.shape[2]}, {m.strides[0], 0, m.strides[1], m.strides[2]});
            for (int64_t i = 0; i < b; ++i)
                CPU_CHECK(m.size(-2) >= lens[i] && m.size(-1) >= lens[i], "atten_mask ", shapeStr(m.shape), " is smaller than sequence ", i);
            setMask(ctx, pr, m, true);
        }
        TensorView res = runForward(ctx, pr);
        writeBack(promptView(o, b, s, num_heads, dim, "out"), res, "out");
    });
}

}  // namespace impl::cpu
