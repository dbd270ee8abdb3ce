// Argument handling around the attention core (see attention_ops.hpp).
#include "attention_ops.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace impl::cpu::attn_kernels {

void requireFloat(const TensorView& t, const char* name) {
    if (!isFloatingDtype(t.dtype)) failCode(diopiDtypeNotSupported, name, " dtype ", dtypeName(t.dtype), " is not supported (floating types only)");
}

void requireDim(const TensorView& t, int64_t dim, const char* name) {
    CPU_CHECK(t.dim() == dim, name, " must be ", dim, "-D, got ", t.dim(), "-D");
}

std::vector<int64_t> hostInts(diopiContextHandle_t ctx, const TensorView& t, const char* name) {
    CPU_CHECK(t.dim() == 1, name, " must be 1-D, got ", t.dim(), "-D");
    if (!isIntegralDtype(t.dtype)) failCode(diopiDtypeNotSupported, name, " must be an integer tensor, got ", dtypeName(t.dtype));
    TensorView c = contiguousAs(ctx, t, diopi_dtype_int64);
    const int64_t* p = c.ptr<int64_t>();
    return std::vector<int64_t>(p, p + c.numel);
}

TensorView zerosOf(diopiContextHandle_t ctx, const Shape& shape, diopiDtype_t dtype) {
    TensorView t = newTensor(ctx, shape, dtype);
    if (t.numel > 0) std::memset(t.data, 0, (size_t)(t.numel * t.itemsize));
    return t;
}

diopiDtype_t computeDtype(std::initializer_list<diopiDtype_t> dts) {
    for (diopiDtype_t d : dts)
        if (d == diopi_dtype_float64) return diopi_dtype_float64;
    return diopi_dtype_float32;
}

void writeBack(const TensorView& dst, const TensorView& src, const char* name) {
    CPU_CHECK(dst.shape == src.shape, name, " must have shape ", shapeStr(src.shape), ", got ", shapeStr(dst.shape));
    copyCast(dst, src);
}

void pack(diopiContextHandle_t ctx, Problem& pr, const TensorView& q, const TensorView& k, const TensorView& v, int64_t rank) {
    requireDim(q, rank, "q");
    requireDim(k, rank, "k");
    requireDim(v, rank, "v");
    requireFloat(q, "q");
    requireFloat(k, "k");
    requireFloat(v, "v");
    for (int64_t d = 0; d + 3 < rank; ++d) CPU_CHECK(k.shape[d] == q.shape[d] && v.shape[d] == q.shape[d], "q, k and v must have the same batch size");
    CPU_CHECK(shapeNumel(Shape(k.shape.begin(), k.shape.end() - 2)) == shapeNumel(Shape(v.shape.begin(), v.shape.end() - 2)),
              "k and v must have the same sequence length");
    CPU_CHECK(k.size(-2) == v.size(-2), "k and v must have the same number of heads");
    CPU_CHECK(k.size(-1) == q.size(-1), "q and k must have the same head dimension");
    int64_t hq = q.size(-2), hk = k.size(-2);
    CPU_CHECK(hk == 0 ? hq == 0 : hq % hk == 0, "the number of query heads (", hq, ") must be a multiple of the number of key/value heads (", hk, ")");
    pr.spec.hq = hq;
    pr.spec.hk = hk == 0 ? 1 : hk;
    pr.spec.d = q.size(-1);
    pr.spec.dv = v.size(-1);
    pr.ct = computeDtype({q.dtype, k.dtype, v.dtype});
    pr.qf = contiguousAs(ctx, q, pr.ct);
    pr.kf = contiguousAs(ctx, k, pr.ct);
    pr.vf = contiguousAs(ctx, v, pr.ct);
    pr.tq = shapeNumel(Shape(q.shape.begin(), q.shape.end() - 2));
    pr.tk = shapeNumel(Shape(k.shape.begin(), k.shape.end() - 2));
}

void denseSeqs(Problem& pr) {
    const TensorView& q = pr.qf;
    int64_t b = q.shape[0], sq = q.shape[1], sk = pr.kf.shape[1];
    pr.batch = b;
    pr.seqs.clear();
    for (int64_t i = 0; i < b; ++i) {
        Seq s;
        s.b = i;
        s.q0 = i * sq;
        s.sq = sq;
        s.k0 = i * sk;
        s.sk = sk;
        pr.seqs.push_back(s);
    }
}

void varlenSeqs(Problem& pr, const std::vector<int64_t>& cq, const std::vector<int64_t>& ck, int64_t maxQ, int64_t maxK) {
    CPU_CHECK(cq.size() == ck.size(), "the query and key offsets must have the same length, got ", cq.size(), " and ", ck.size());
    CPU_CHECK(!cq.empty(), "the cumulative sequence lengths must hold batch_size + 1 offsets");
    pr.seqs.clear();
    for (size_t i = 0; i + 1 < cq.size(); ++i) {
        CPU_CHECK(cq[i] >= 0 && cq[i + 1] >= cq[i] && ck[i] >= 0 && ck[i + 1] >= ck[i],
                  "cumulative sequence lengths must be non-negative and non-decreasing");
        Seq s;
        s.b = (int64_t)i;
        s.q0 = cq[i];
        s.sq = cq[i + 1] - cq[i];
        s.k0 = ck[i];
        s.sk = ck[i + 1] - ck[i];
        CPU_CHECK(maxQ < 0 || s.sq <= maxQ, "query sequence ", i, " (", s.sq, " tokens) is longer than the maximum ", maxQ);
        CPU_CHECK(maxK < 0 || s.sk <= maxK, "key sequence ", i, " (", s.sk, " tokens) is longer than the maximum ", maxK);
        pr.seqs.push_back(s);
    }
    CPU_CHECK(cq.back() <= pr.tq, "the query offsets exceed the ", pr.tq, " query tokens");
    CPU_CHECK(ck.back() <= pr.tk, "the key offsets exceed the ", pr.tk, " key tokens");
    pr.batch = (int64_t)pr.seqs.size();
}

void setAlibi(diopiContextHandle_t ctx, Problem& pr, const TensorView& alibi) {
    if (!alibi.defined()) return;
    requireFloat(alibi, "alibi_slopes");
    int64_t hq = pr.spec.hq;
    bool ok = (alibi.dim() == 1 && alibi.shape[0] == hq) || (alibi.dim() == 2 && alibi.shape[0] == pr.batch && alibi.shape[1] == hq);
    CPU_CHECK(ok, "alibi_slopes must have shape (", hq, ") or (", pr.batch, ", ", hq, "), got ", shapeStr(alibi.shape));
    TensorView a = contiguousAs(ctx, alibi, diopi_dtype_float64);
    pr.spec.alibi = a.ptr<const double>();
    pr.spec.alibiBatchStride = alibi.dim() == 2 ? hq : 0;
}

void setMask(diopiContextHandle_t ctx, Problem& pr, const TensorView& mask, bool perBatch) {
    if (!mask.defined()) return;
    CPU_CHECK(mask.dim() >= 2 && mask.dim() <= 4, "attention_mask must have 2 to 4 dims, got ", mask.dim());
    int64_t mq = mask.size(-2), mk = mask.size(-1);
    for (const Seq& s : pr.seqs) {
        if (mq < s.sq || mk < s.sk) {
            if (pr.spec.causal) return;  // a compressed causal mask: the causal flag already says it all
            fail("attention_mask ", shapeStr(mask.shape), " is smaller than a (", s.sq, ", ", s.sk, ") score block");
        }
    }
    TensorView m = contiguousAs(ctx, mask, diopi_dtype_bool);
    Shape sz(4 - m.dim(), 1), st(4 - m.dim(), 0);
    sz.insert(sz.end(), m.shape.begin(), m.shape.end());
    st.insert(st.end(), m.strides.begin(), m.strides.end());
    int64_t nb = perBatch ? pr.batch : 1;
    CPU_CHECK(sz[0] == 1 || sz[0] == nb, "attention_mask's batch dim must be 1 or ", nb, ", got ", sz[0]);
    CPU_CHECK(sz[1] == 1 || sz[1] == pr.spec.hq, "attention_mask's head dim must be 1 or ", pr.spec.hq, ", got ", sz[1]);
    int64_t sb = sz[0] == 1 ? 0 : st[0], sh = sz[1] == 1 ? 0 : st[1];
    const uint8_t* base = m.ptr<const uint8_t>();
    for (Seq& s : pr.seqs) s.mask = attn::Mask{base + (perBatch ? s.b * sb : 0), sh, st[2], st[3]};
}

void checkDropout(double p) { CPU_CHECK(p >= 0.0 && p <= 1.0, "dropout probability must be in [0, 1], got ", p); }

namespace {
// Without a generator handle the forward draws from this process-wide counter (never repeated).
std::atomic<uint64_t> gFallbackOffset{0};
constexpr uint64_t kFallbackSeed = 0x2545f4914f6cdd1dull;

/// Gives each sequence its first dropout counter (sequences in order); returns the count.
uint64_t numberDrops(Problem& pr) {
    uint64_t base = 0;
    for (Seq& s : pr.seqs) {
        s.dropBase = base;
        base += (uint64_t)(pr.spec.hq * s.sq * s.sk);
    }
    return base;
}

}  // namespace

void setDropout(Problem& pr, double p, diopiGeneratorHandle_t gen, bool advance) {
    checkDropout(p);
    pr.spec.drop = attn::Dropout();
    pr.spec.drop.p = p;
    if (p <= 0.0) return;
    uint64_t total = numberDrops(pr);
    if (gen == nullptr) {
        CPU_CHECK(advance, "dropout > 0 needs the generator (in the state the forward started from) to regenerate the dropout pattern");
        pr.spec.drop.seed = kFallbackSeed;
        pr.spec.drop.offset = gFallbackOffset.fetch_add(total);
        return;
    }
    CPU_CHECK(diopiGeneratorGetSeedAndOffset != nullptr && diopiGeneratorSetSeedAndOffset != nullptr, "the runtime provides no generator functions");
    uint64_t seed = 0, offset = 0;
    CPU_CHECK(diopiGeneratorGetSeedAndOffset(gen, &seed, &offset) == diopiSuccess, "cannot read the generator's seed and offset");
    pr.spec.drop.seed = seed;
    pr.spec.drop.offset = offset;
    if (advance) CPU_CHECK(diopiGeneratorSetSeedAndOffset(gen, seed, offset + total) == diopiSuccess, "cannot advance the generator");
}

namespace {
/// Calls f(Tag<S>{}) with S the C++ type of the compute dtype.
template <class F>
void withCompute(diopiDtype_t ct, F&& f) {
    if (ct == diopi_dtype_float64) f(Tag<double>{});
    else f(Tag<float>{});
}
}  // namespace

TensorView runForward(diopiContextHandle_t ctx, const Problem& pr, std::vector<double>* m, std::vector<double>* l) {
    Shape os(pr.qf.shape.begin(), pr.qf.shape.end() - 1);
    os.push_back(pr.spec.dv);
    TensorView out = zerosOf(ctx, os, pr.ct);
    const size_t nstat = (size_t)(pr.spec.hq * pr.tq);
    withCompute(pr.ct, [&](auto tag) {
        using S = typename decltype(tag)::type;
        std::vector<S> ms, ls;
        attn::StatsT<S> st;
        if (m) ms.assign(nstat, -std::numeric_limits<S>::infinity());
        if (l) ls.assign(nstat, S(0));
        st.m = m ? ms.data() : nullptr;
        st.l = l ? ls.data() : nullptr;
        st.rs = 1;
        st.hs = pr.tq;
        attn::forward<S>(pr.spec, pr.seqs, rowsOf<S>(pr.qf), rowsOf<S>(pr.kf), rowsOf<S>(pr.vf), outRowsOf<S>(out), st);
        if (m) m->assign(ms.begin(), ms.end());
        if (l) l->assign(ls.begin(), ls.end());
    });
    return out;
}

Grads runBackward(diopiContextHandle_t ctx, const Problem& pr, const TensorView& dout) {
    requireFloat(dout, "grad_output");
    Shape os(pr.qf.shape.begin(), pr.qf.shape.end() - 1);
    os.push_back(pr.spec.dv);
    CPU_CHECK(dout.shape == os, "grad_output must have the shape ", shapeStr(os), " of the forward's output, got ", shapeStr(dout.shape));
    for (size_t a = 0; a < pr.seqs.size(); ++a)
        for (size_t b = a + 1; b < pr.seqs.size(); ++b) {
            const Seq &x = pr.seqs[a], &y = pr.seqs[b];
            CPU_CHECK(x.sk == 0 || y.sk == 0 || x.k0 + x.sk <= y.k0 || y.k0 + y.sk <= x.k0, "key sequences ", a, " and ", b, " overlap");
        }
    TensorView dof = contiguousAs(ctx, dout, pr.ct);
    Grads g{zerosOf(ctx, pr.qf.shape, pr.ct), zerosOf(ctx, pr.kf.shape, pr.ct), zerosOf(ctx, pr.vf.shape, pr.ct)};
    withCompute(pr.ct, [&](auto tag) {
        using S = typename decltype(tag)::type;
        attn::backward<S>(pr.spec, pr.seqs, rowsOf<S>(pr.qf), rowsOf<S>(pr.kf), rowsOf<S>(pr.vf), rowsOf<S>(dof), outRowsOf<S>(g.dq),
                          outRowsOf<S>(g.dk), outRowsOf<S>(g.dv));
    });
    return g;
}

void writeVarlenLse(diopiContextHandle_t ctx, const TensorView& dst, const Problem& pr, const std::vector<double>& m,
                    const std::vector<double>& l) {
    const double inf = std::numeric_limits<double>::infinity();
    int64_t hq = pr.spec.hq, nb = (int64_t)pr.seqs.size();
    if (dst.dim() == 3) {
        CPU_CHECK(dst.shape[0] == nb && dst.shape[1] == hq, "softmax_lse must have shape (batch, heads, max_seqlen_q) or (heads, total_q), got ",
                  shapeStr(dst.shape));
        int64_t mq = dst.shape[2];
        TensorView t = newTensor(ctx, dst.shape, diopi_dtype_float64);
        double* p = t.ptr<double>();
        std::fill(p, p + t.numel, inf);
        for (int64_t b = 0; b < nb; ++b) {
            const Seq& s = pr.seqs[b];
            CPU_CHECK(s.sq <= mq, "softmax_lse is shorter than query sequence ", b);
            for (int64_t h = 0; h < hq; ++h)
                for (int64_t i = 0; i < s.sq; ++i) p[(b * hq + h) * mq + i] = lseOf(m[h * pr.tq + s.q0 + i], l[h * pr.tq + s.q0 + i]);
        }
        copyCast(dst, t);
        return;
    }
    CPU_CHECK(dst.dim() == 2 && dst.shape[0] == hq && dst.shape[1] == pr.tq,
              "softmax_lse must have shape (batch, heads, max_seqlen_q) or (heads, total_q), got ", shapeStr(dst.shape));
    TensorView t = newTensor(ctx, dst.shape, diopi_dtype_float64);
    double* p = t.ptr<double>();
    std::fill(p, p + t.numel, inf);
    for (const Seq& s : pr.seqs)
        for (int64_t h = 0; h < hq; ++h)
            for (int64_t i = s.q0; i < s.q0 + s.sq; ++i) p[h * pr.tq + i] = lseOf(m[h * pr.tq + i], l[h * pr.tq + i]);
    copyCast(dst, t);
}

void writeDebugMask(diopiContextHandle_t ctx, const TensorView& dst, const Problem& pr, int64_t maxQ, int64_t maxK) {
    int64_t hq = pr.spec.hq, nb = (int64_t)pr.seqs.size();
    Shape want{nb, hq, maxQ, maxK};
    CPU_CHECK(dst.shape == want, "debug_attn_mask must have shape ", shapeStr(want), ", got ", shapeStr(dst.shape));
    TensorView t = newTensor(ctx, want, diopi_dtype_bool);
    uint8_t* p = t.ptr<uint8_t>();
    if (t.numel > 0) std::memset(p, 0, (size_t)t.numel);
    for (int64_t b = 0; b < nb; ++b) {
        const Seq& s = pr.seqs[b];
        CPU_CHECK(s.sq <= maxQ && s.sk <= maxK, "debug_attn_mask is smaller than sequence ", b);
        for (int64_t h = 0; h < hq; ++h)
            for (int64_t i = 0; i < s.sq; ++i)
                for (int64_t j = 0; j < s.sk; ++j) {
                    bool taken = attn::allowed(pr.spec, s, h, i, j);
                    if (taken && pr.spec.drop.p > 0) taken = attn::keepAt(pr.spec.drop, s.dropBase + (uint64_t)((h * s.sq + i) * s.sk + j));
                    p[((b * hq + h) * maxQ + i) * maxK + j] = taken ? 1 : 0;
                }
    }
    copyCast(dst, t);
}

TensorView drawKeepMask(diopiContextHandle_t ctx, Problem& pr, const Shape& shape) {
    uint64_t n = attn::dropCount(pr.spec, pr.seqs);
    CPU_CHECK((uint64_t)shapeNumel(shape) == n, "internal: keep mask shape ", shapeStr(shape), " does not hold ", n, " draws");
    TensorView t = newTensor(ctx, shape, diopi_dtype_bool);
    uint8_t* p = t.ptr<uint8_t>();
    const attn::Dropout d = pr.spec.drop;
    parallelFor((int64_t)n, kParallelGrain, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) p[i] = attn::keepAt(d, (uint64_t)i) ? 1 : 0;
    });
    pr.spec.drop.keep = p;
    return t;
}

void useKeepMask(diopiContextHandle_t ctx, Problem& pr, const TensorView& mask) {
    CPU_CHECK(mask.defined(), "p_dropout > 0 needs the dropout_mask of the forward");
    uint64_t n = numberDrops(pr);
    CPU_CHECK((uint64_t)mask.numel == n, "dropout_mask holds ", mask.numel, " elements, the forward drew ", n);
    TensorView m = contiguousAs(ctx, mask, diopi_dtype_bool);
    pr.spec.drop.keep = m.ptr<const uint8_t>();
}

}  // namespace impl::cpu::attn_kernels
