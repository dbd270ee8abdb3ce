// The blocked attention core (see attention.hpp for the conventions).
//
// Scores of a query row against a key block come from the key block transposed into a (d, keys) scratch, so the
// inner loop runs over keys with unit stride and vectorises without a horizontal sum per key. The float kernels
// are compiled once per instruction-set level (isa()), the double ones once: float64 is for correctness.
#include "attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "fastmath.hpp"
#include "isa.hpp"
#include "parallel.hpp"

namespace impl::cpu::attn {

namespace {

constexpr int64_t kQueryBlock = 16;  // query rows sharing one pass over the keys
constexpr int64_t kKeyBlock = 64;    // keys whose rows stay in cache while the query block visits them

template <class S>
constexpr S negInf() {
    return -std::numeric_limits<S>::infinity();
}

inline uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

/// Key range [lo, hi) that causal masking and the window leave to query i.
CPU_FORCE_INLINE void keyRange(const Spec& spec, const Seq& s, int64_t i, int64_t& lo, int64_t& hi) {
    int64_t diag = i + s.sk - s.sq;  // key aligned with query i
    lo = 0;
    hi = s.sk;
    if (spec.causal) hi = std::min(hi, diag + 1);
    if (spec.windowRight >= 0) hi = std::min(hi, diag + spec.windowRight + 1);
    if (spec.windowLeft >= 0) lo = std::max(lo, diag - spec.windowLeft);
    if (hi < lo) hi = lo;
}

CPU_FORCE_INLINE int64_t keyRow(const Seq& s, int64_t j) { return s.kRows ? s.kRows[j] : s.k0 + j; }

CPU_FORCE_INLINE bool masked(const Seq& s, int64_t h, int64_t i, int64_t j) {
    return s.mask.p && s.mask.p[h * s.mask.sh + i * s.mask.si + j * s.mask.sj] != 0;
}

template <class S>
CPU_FORCE_INLINE S slopeOf(const Spec& spec, const Seq& s, int64_t h) {
    return spec.alibi ? S(spec.alibi[s.b * spec.alibiBatchStride + h]) : S(0);
}

/// e^x, vectorisable for float; 0 for x = -inf.
template <class S>
CPU_FORCE_INLINE S expS(S x) {
    if constexpr (std::is_same_v<S, float>) return selectF(__builtin_isgreater(x, -104.0f), expF(x), 0.0f);
    else return std::exp(x);
}

template <class S>
CPU_FORCE_INLINE void axpy(S* __restrict y, const S* __restrict x, S a, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] += a * x[i];
}

template <class S>
CPU_FORCE_INLINE S dot(const S* a, const S* b, int64_t n) {
    S s = 0;
    for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

/// Rows [j0, j0 + nk) of one key/value head transposed into t (d, kKeyBlock).
template <class S>
CPU_FORCE_INLINE void transposeBlock(S* __restrict t, const RowsT<S>& x, int64_t head, const Seq& s, int64_t j0, int64_t nk, int64_t d) {
    for (int64_t jj = 0; jj < nk; ++jj) {
        const S* r = x.row(head, keyRow(s, j0 + jj));
        for (int64_t c = 0; c < d; ++c) t[c * kKeyBlock + jj] = r[c];
    }
}

/// sr[jj] = qi . key jj for jj < nk, from the transposed block kt.
template <class S>
CPU_FORCE_INLINE void blockDots(S* __restrict sr, const S* __restrict qi, const S* __restrict kt, int64_t nk, int64_t d) {
    for (int64_t jj = 0; jj < nk; ++jj) sr[jj] = 0;
    for (int64_t c = 0; c < d; ++c) {
        const S qc = qi[c];
        const S* kc = kt + c * kKeyBlock;
        for (int64_t jj = 0; jj < nk; ++jj) sr[jj] += qc * kc[jj];
    }
}

/// Turns raw dots sr[a..e) (key j = j0 + index) of query i into scaled, biased scores (-inf where masked);
/// returns their maximum.
template <class S>
CPU_FORCE_INLINE S finishScores(S* sr, const Spec& spec, const Seq& s, int64_t h, S slope, S scale, int64_t i, int64_t j0, int64_t a, int64_t e) {
    S bm = negInf<S>();
    if (!s.mask.p && slope == S(0)) {
        for (int64_t jj = a; jj < e; ++jj) {
            const S x = sr[jj] * scale;
            sr[jj] = x;
            bm = std::max(bm, x);
        }
        return bm;
    }
    for (int64_t jj = a; jj < e; ++jj) {
        const int64_t j = j0 + jj;
        S x = sr[jj] * scale;
        if (slope != S(0)) x -= slope * S(std::llabs(i + s.sk - s.sq - j));
        if (masked(s, h, i, j)) x = negInf<S>();
        sr[jj] = x;
        bm = std::max(bm, x);
    }
    return bm;
}

/// Per-thread scratch of the block kernels.
template <class S>
struct Work {
    std::vector<S> acc, kt, vt, sc, dp;
    void reserve(const Spec& spec) {
        acc.resize((size_t)(kQueryBlock * std::max<int64_t>(spec.dv, 1)));
        kt.resize((size_t)(std::max<int64_t>(spec.d, 1) * kKeyBlock));
        vt.resize((size_t)(std::max<int64_t>(spec.dv, 1) * kKeyBlock));
        sc.resize((size_t)kKeyBlock);
        dp.resize((size_t)kKeyBlock);
    }
};

/// One query block of one head: queries [i0, i1) of sequence s and head h.
template <class S>
struct FwdArgs {
    const Spec* spec;
    const Seq* s;
    int64_t h, i0, i1;
    RowsT<S> q, k, v;
    S* out;  ///< row 0 = query i0, row stride outRs
    int64_t outRs;
    S* m;  ///< kQueryBlock row maxima (out)
    S* l;  ///< kQueryBlock row sums (out)
    Work<S>* w;
};

template <class S>
CPU_FORCE_INLINE void forwardBlockImpl(const FwdArgs<S>& A) {
    const Spec& spec = *A.spec;
    const Seq& s = *A.s;
    const int64_t h = A.h, i0 = A.i0, nq = A.i1 - A.i0, d = spec.d, dv = spec.dv, kvh = h / (spec.hq / spec.hk);
    const S slope = slopeOf<S>(spec, s, h), scale = S(spec.scale);
    const bool dropping = spec.drop.p > 0.0;
    const S keepScale = spec.drop.p < 1.0 ? S(1.0 / (1.0 - spec.drop.p)) : S(0);
    S* acc = A.w->acc.data();
    S* kt = A.w->kt.data();
    S* sr = A.w->sc.data();
    S* m = A.m;
    S* l = A.l;
    int64_t lo[kQueryBlock], hi[kQueryBlock];
    for (int64_t c = 0; c < nq * dv; ++c) acc[c] = 0;
    int64_t blockLo = s.sk, blockHi = 0;
    for (int64_t r = 0; r < nq; ++r) {
        keyRange(spec, s, i0 + r, lo[r], hi[r]);
        if (lo[r] < hi[r]) {
            blockLo = std::min(blockLo, lo[r]);
            blockHi = std::max(blockHi, hi[r]);
        }
        m[r] = negInf<S>();
        l[r] = 0;
    }
    for (int64_t j0 = blockLo; j0 < blockHi; j0 += kKeyBlock) {
        const int64_t j1 = std::min(j0 + kKeyBlock, blockHi), nk = j1 - j0;
        transposeBlock<S>(kt, A.k, kvh, s, j0, nk, d);
        for (int64_t r = 0; r < nq; ++r) {
            const int64_t i = i0 + r, a = std::max(j0, lo[r]) - j0, e = std::min(j1, hi[r]) - j0;
            if (a >= e) continue;
            blockDots<S>(sr, A.q.row(h, s.q0 + i), kt, nk, d);
            const S bm = finishScores<S>(sr, spec, s, h, slope, scale, i, j0, a, e);
            if (bm == negInf<S>()) continue;
            const S mn = std::max(m[r], bm);
            S* ar = acc + r * dv;
            if (m[r] != mn) {
                const S corr = m[r] == negInf<S>() ? S(0) : std::exp(m[r] - mn);
                l[r] *= corr;
                for (int64_t c = 0; c < dv; ++c) ar[c] *= corr;
                m[r] = mn;
            }
            S sum = 0;
            for (int64_t jj = a; jj < e; ++jj) {
                const S wgt = expS<S>(sr[jj] - mn);
                sr[jj] = wgt;
                sum += wgt;
            }
            l[r] += sum;
            if (dropping)
                for (int64_t jj = a; jj < e; ++jj)
                    sr[jj] = keepAt(spec.drop, s.dropBase + (uint64_t)((h * s.sq + i) * s.sk + j0 + jj)) ? sr[jj] * keepScale : S(0);
            for (int64_t jj = a; jj < e; ++jj)
                if (sr[jj] != S(0)) axpy<S>(ar, A.v.row(kvh, keyRow(s, j0 + jj)), sr[jj], dv);
        }
    }
    for (int64_t r = 0; r < nq; ++r) {
        S* o = A.out + r * A.outRs;
        const S inv = l[r] > S(0) ? S(1) / l[r] : S(0);
        for (int64_t c = 0; c < dv; ++c) o[c] = acc[r * dv + c] * inv;
    }
}

/// Gradients of the query heads of one key/value head of one sequence.
template <class S>
struct BwdArgs {
    const Spec* spec;
    const Seq* s;
    int64_t kvh;
    RowsT<S> q, k, v, dout;
    OutRowsT<S> dq, dk, dv;
    Work<S>* w;
    std::vector<S>* o;
    std::vector<S>* lse;
    std::vector<S>* delta;
};

template <class S>
CPU_FORCE_INLINE void backwardTaskImpl(const BwdArgs<S>& A) {
    const Spec& spec = *A.spec;
    const Seq& s = *A.s;
    const int64_t rep = spec.hq / spec.hk, d = spec.d, dvn = spec.dv, kvh = A.kvh;
    const bool dropping = spec.drop.p > 0.0;
    const S keepScale = spec.drop.p < 1.0 ? S(1.0 / (1.0 - spec.drop.p)) : S(0), scale = S(spec.scale);
    S* o = A.o->data();
    S* lse = A.lse->data();
    S* delta = A.delta->data();
    S* kt = A.w->kt.data();
    S* vt = A.w->vt.data();
    S* sr = A.w->sc.data();
    S* dp = A.w->dp.data();
    for (int64_t h = kvh * rep; h < (kvh + 1) * rep; ++h) {
        // Recompute this head's output and row statistics: P = exp(S - lse), delta_i = dO_i . O_i.
        S m[kQueryBlock], l[kQueryBlock];
        for (int64_t i0 = 0; i0 < s.sq; i0 += kQueryBlock) {
            const int64_t i1 = std::min(i0 + kQueryBlock, s.sq);
            FwdArgs<S> fa{&spec, &s, h, i0, i1, A.q, A.k, A.v, o + i0 * dvn, dvn, m, l, A.w};
            forwardBlockImpl<S>(fa);
            for (int64_t i = i0; i < i1; ++i) {
                lse[i] = l[i - i0] > S(0) ? m[i - i0] + std::log(l[i - i0]) : negInf<S>();
                delta[i] = dot<S>(A.dout.row(h, s.q0 + i), o + i * dvn, dvn);
            }
        }
        const S slope = slopeOf<S>(spec, s, h);
        for (int64_t j0 = 0; j0 < s.sk; j0 += kKeyBlock) {
            const int64_t j1 = std::min(j0 + kKeyBlock, s.sk), nk = j1 - j0;
            transposeBlock<S>(kt, A.k, kvh, s, j0, nk, d);
            transposeBlock<S>(vt, A.v, kvh, s, j0, nk, dvn);
            for (int64_t i = 0; i < s.sq; ++i) {
                if (lse[i] == negInf<S>()) continue;
                int64_t lo, hi;
                keyRange(spec, s, i, lo, hi);
                const int64_t a = std::max(j0, lo) - j0, e = std::min(j1, hi) - j0;
                if (a >= e) continue;
                const S* qi = A.q.row(h, s.q0 + i);
                const S* doi = A.dout.row(h, s.q0 + i);
                S* dqi = A.dq.row(h, s.q0 + i);
                blockDots<S>(sr, qi, kt, nk, d);
                blockDots<S>(dp, doi, vt, nk, dvn);
                finishScores<S>(sr, spec, s, h, slope, scale, i, j0, a, e);
                const S li = lse[i], di = delta[i];
                for (int64_t jj = a; jj < e; ++jj) sr[jj] = expS<S>(sr[jj] - li);  // P (0 where masked)
                for (int64_t jj = a; jj < e; ++jj) {
                    const S p = sr[jj];
                    if (p == S(0)) continue;
                    const int64_t kr = keyRow(s, j0 + jj);
                    S z = 1;
                    if (dropping) z = keepAt(spec.drop, s.dropBase + (uint64_t)((h * s.sq + i) * s.sk + j0 + jj)) ? keepScale : S(0);
                    if (z != S(0)) axpy<S>(A.dv.row(kvh, kr), doi, p * z, dvn);
                    const S ds = p * (z * dp[jj] - di) * scale;
                    axpy<S>(dqi, A.k.row(kvh, kr), ds, d);
                    axpy<S>(A.dk.row(kvh, kr), qi, ds, d);
                }
            }
        }
    }
}

// ---- one compiled copy per instruction-set level (float), one for double
template <class S>
using FwdFn = void (*)(const FwdArgs<S>&);
template <class S>
using BwdFn = void (*)(const BwdArgs<S>&);

void fwdBaseF(const FwdArgs<float>& a) { forwardBlockImpl<float>(a); }
void bwdBaseF(const BwdArgs<float>& a) { backwardTaskImpl<float>(a); }
void fwdBaseD(const FwdArgs<double>& a) { forwardBlockImpl<double>(a); }
void bwdBaseD(const BwdArgs<double>& a) { backwardTaskImpl<double>(a); }
#if CPU_HAVE_X86_LEVELS
CPU_TARGET_AVX2 void fwdAvx2F(const FwdArgs<float>& a) { forwardBlockImpl<float>(a); }
CPU_TARGET_AVX2 void bwdAvx2F(const BwdArgs<float>& a) { backwardTaskImpl<float>(a); }
CPU_TARGET_AVX512 void fwdAvx512F(const FwdArgs<float>& a) { forwardBlockImpl<float>(a); }
CPU_TARGET_AVX512 void bwdAvx512F(const BwdArgs<float>& a) { backwardTaskImpl<float>(a); }
#endif

template <class S>
FwdFn<S> pickForward() {
    if constexpr (std::is_same_v<S, double>) {
        return fwdBaseD;
    } else {
#if CPU_HAVE_X86_LEVELS
        if (isa() == Isa::Avx512) return fwdAvx512F;
        if (isa() == Isa::Avx2) return fwdAvx2F;
#endif
        return fwdBaseF;
    }
}

template <class S>
BwdFn<S> pickBackward() {
    if constexpr (std::is_same_v<S, double>) {
        return bwdBaseD;
    } else {
#if CPU_HAVE_X86_LEVELS
        if (isa() == Isa::Avx512) return bwdAvx512F;
        if (isa() == Isa::Avx2) return bwdAvx2F;
#endif
        return bwdBaseF;
    }
}

}  // namespace

bool keepAt(const Dropout& drop, uint64_t idx) {
    if (drop.keep) return drop.keep[idx] != 0;
    // Counter-based draw: the same seed, offset and index always give the same bit, in any thread order.
    uint64_t x = mix64(drop.seed * 0x9e3779b97f4a7c15ull + mix64(drop.offset + idx));
    double u = (double)(x >> 11) * (1.0 / 9007199254740992.0);
    return u >= drop.p;
}

uint64_t dropCount(const Spec& spec, const std::vector<Seq>& seqs) {
    uint64_t n = 0;
    for (const Seq& s : seqs) n += (uint64_t)(spec.hq * s.sq * s.sk);
    return n;
}

bool allowed(const Spec& spec, const Seq& s, int64_t h, int64_t i, int64_t j) {
    int64_t lo, hi;
    keyRange(spec, s, i, lo, hi);
    return j >= lo && j < hi && !masked(s, h, i, j);
}

template <class S>
void forward(const Spec& spec, const std::vector<Seq>& seqs, RowsT<S> q, RowsT<S> k, RowsT<S> v, OutRowsT<S> out, StatsT<S> stats) {
    struct Task {
        int64_t seq, h, i0, i1;
    };
    std::vector<Task> tasks;
    for (int64_t n = 0; n < (int64_t)seqs.size(); ++n)
        for (int64_t h = 0; h < spec.hq; ++h)
            for (int64_t i0 = 0; i0 < seqs[n].sq; i0 += kQueryBlock) tasks.push_back({n, h, i0, std::min(i0 + kQueryBlock, seqs[n].sq)});
    // Threads only when the work (query rows x keys x head dim) pays for their start.
    int64_t work = 0;
    for (const Seq& s : seqs) work += s.sq * s.sk;
    work *= spec.hq * (spec.d + spec.dv);
    const FwdFn<S> fn = pickForward<S>();
    parallelFor((int64_t)tasks.size(), work >= (int64_t(1) << 18) ? 2 : (int64_t)tasks.size() + 1, [&](int64_t tb, int64_t te) {
        Work<S> w;
        w.reserve(spec);
        S m[kQueryBlock], l[kQueryBlock];
        for (int64_t t = tb; t < te; ++t) {
            const Task& tk = tasks[t];
            const Seq& s = seqs[tk.seq];
            FwdArgs<S> a{&spec, &s, tk.h, tk.i0, tk.i1, q, k, v, out.row(tk.h, s.q0 + tk.i0), out.rs, m, l, &w};
            fn(a);
            for (int64_t i = tk.i0; i < tk.i1; ++i) {
                int64_t off = tk.h * stats.hs + (s.q0 + i) * stats.rs;
                if (stats.m) stats.m[off] = m[i - tk.i0];
                if (stats.l) stats.l[off] = l[i - tk.i0];
            }
        }
    });
}

template <class S>
void backward(const Spec& spec, const std::vector<Seq>& seqs, RowsT<S> q, RowsT<S> k, RowsT<S> v, RowsT<S> dout, OutRowsT<S> dq, OutRowsT<S> dk,
              OutRowsT<S> dv) {
    const int64_t nTasks = (int64_t)seqs.size() * spec.hk;
    int64_t work = 0;
    for (const Seq& s : seqs) work += s.sq * s.sk;
    work *= spec.hq * (spec.d + spec.dv);
    const BwdFn<S> fn = pickBackward<S>();
    parallelFor(nTasks, work >= (int64_t(1) << 17) ? 1 : nTasks + 1, [&](int64_t tb, int64_t te) {
        Work<S> w;
        w.reserve(spec);
        std::vector<S> o, lse, delta;
        for (int64_t t = tb; t < te; ++t) {
            const Seq& s = seqs[t / spec.hk];
            o.resize((size_t)(s.sq * spec.dv));
            lse.resize((size_t)s.sq);
            delta.resize((size_t)s.sq);
            BwdArgs<S> a{&spec, &s, t % spec.hk, q, k, v, dout, dq, dk, dv, &w, &o, &lse, &delta};
            fn(a);
        }
    });
}

template void forward<float>(const Spec&, const std::vector<Seq>&, RowsT<float>, RowsT<float>, RowsT<float>, OutRowsT<float>, StatsT<float>);
template void forward<double>(const Spec&, const std::vector<Seq>&, RowsT<double>, RowsT<double>, RowsT<double>, OutRowsT<double>, StatsT<double>);
template void backward<float>(const Spec&, const std::vector<Seq>&, RowsT<float>, RowsT<float>, RowsT<float>, RowsT<float>, OutRowsT<float>,
                              OutRowsT<float>, OutRowsT<float>);
template void backward<double>(const Spec&, const std::vector<Seq>&, RowsT<double>, RowsT<double>, RowsT<double>, RowsT<double>, OutRowsT<double>,
                               OutRowsT<double>, OutRowsT<double>);

}  // namespace impl::cpu::attn
