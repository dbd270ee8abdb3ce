// The blocked attention core (see attention.hpp for the conventions).
#include "attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "parallel.hpp"

namespace impl::cpu::attn {

namespace {

constexpr int64_t kQueryBlock = 16;  // query rows sharing one pass over the keys
constexpr int64_t kKeyBlock = 64;    // keys whose rows stay in cache while the query block visits them
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

inline float dot(const float* a, const float* b, int64_t n) {
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

inline void axpy(float* y, const float* x, float a, int64_t n) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] += a * x[i];
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
inline void keyRange(const Spec& spec, const Seq& s, int64_t i, int64_t& lo, int64_t& hi) {
    int64_t diag = i + s.sk - s.sq;  // key aligned with query i
    lo = 0;
    hi = s.sk;
    if (spec.causal) hi = std::min(hi, diag + 1);
    if (spec.windowRight >= 0) hi = std::min(hi, diag + spec.windowRight + 1);
    if (spec.windowLeft >= 0) lo = std::max(lo, diag - spec.windowLeft);
    if (hi < lo) hi = lo;
}

inline int64_t keyRow(const Seq& s, int64_t j) { return s.kRows ? s.kRows[j] : s.k0 + j; }

inline bool masked(const Seq& s, int64_t h, int64_t i, int64_t j) {
    return s.mask.p && s.mask.p[h * s.mask.sh + i * s.mask.si + j * s.mask.sj] != 0;
}

inline float slopeOf(const Spec& spec, const Seq& s, int64_t h) {
    return spec.alibi ? spec.alibi[s.b * spec.alibiBatchStride + h] : 0.0f;
}

/// Scaled, biased score of (i, j) or -inf when the mask excludes it.
inline float score(const Spec& spec, const Seq& s, int64_t h, float slope, const float* qi, const float* kj, int64_t i, int64_t j) {
    if (masked(s, h, i, j)) return kNegInf;
    float x = dot(qi, kj, spec.d) * spec.scale;
    if (slope != 0.0f) x -= slope * (float)std::llabs(i + s.sk - s.sq - j);
    return x;
}

/// Queries [i0, i1) of sequence s and head h: writes their output rows (row stride outRs floats from out, row 0 =
/// query i0) and optional row statistics m / l (indexed from 0 = query i0).
void forwardBlock(const Spec& spec, const Seq& s, int64_t h, int64_t i0, int64_t i1, const Rows& q, const Rows& k, const Rows& v,
                  float* out, int64_t outRs, float* mOut, float* lOut) {
    const int64_t nq = i1 - i0, dv = spec.dv, kvh = h / (spec.hq / spec.hk);
    const float slope = slopeOf(spec, s, h);
    const bool dropping = spec.drop.p > 0.0;
    const float keepScale = spec.drop.p < 1.0 ? (float)(1.0 / (1.0 - spec.drop.p)) : 0.0f;
    int64_t lo[kQueryBlock], hi[kQueryBlock];
    float m[kQueryBlock], l[kQueryBlock], sc[kKeyBlock];
    std::vector<float> acc((size_t)(nq * dv), 0.0f);
    int64_t blockLo = s.sk, blockHi = 0;
    for (int64_t r = 0; r < nq; ++r) {
        keyRange(spec, s, i0 + r, lo[r], hi[r]);
        if (lo[r] < hi[r]) {
            blockLo = std::min(blockLo, lo[r]);
            blockHi = std::max(blockHi, hi[r]);
        }
        m[r] = kNegInf;
        l[r] = 0.0f;
    }
    const float* kp[kKeyBlock];
    const float* vp[kKeyBlock];
    for (int64_t j0 = blockLo; j0 < blockHi; j0 += kKeyBlock) {
        const int64_t j1 = std::min(j0 + kKeyBlock, blockHi);
        for (int64_t j = j0; j < j1; ++j) {
            kp[j - j0] = k.row(kvh, keyRow(s, j));
            vp[j - j0] = v.row(kvh, keyRow(s, j));
        }
        for (int64_t r = 0; r < nq; ++r) {
            const int64_t i = i0 + r, a = std::max(j0, lo[r]), e = std::min(j1, hi[r]);
            if (a >= e) continue;
            const float* qi = q.row(h, s.q0 + i);
            float bm = kNegInf;
            for (int64_t j = a; j < e; ++j) {
                float x = score(spec, s, h, slope, qi, kp[j - j0], i, j);
                sc[j - j0] = x;
                bm = std::max(bm, x);
            }
            if (bm == kNegInf) continue;
            const float mn = std::max(m[r], bm);
            float* ar = acc.data() + r * dv;
            if (m[r] != mn) {
                const float corr = m[r] == kNegInf ? 0.0f : std::exp(m[r] - mn);
                l[r] *= corr;
                for (int64_t c = 0; c < dv; ++c) ar[c] *= corr;
                m[r] = mn;
            }
            for (int64_t j = a; j < e; ++j) {
                if (sc[j - j0] == kNegInf) continue;
                const float w = std::exp(sc[j - j0] - mn);
                l[r] += w;
                float wv = w;
                if (dropping) wv = keepAt(spec.drop, s.dropBase + (uint64_t)((h * s.sq + i) * s.sk + j)) ? w * keepScale : 0.0f;
                if (wv != 0.0f) axpy(ar, vp[j - j0], wv, dv);
            }
        }
    }
    for (int64_t r = 0; r < nq; ++r) {
        float* o = out + r * outRs;
        const float inv = l[r] > 0.0f ? 1.0f / l[r] : 0.0f;
        for (int64_t c = 0; c < dv; ++c) o[c] = acc[r * dv + c] * inv;
        if (mOut) mOut[r] = m[r];
        if (lOut) lOut[r] = l[r];
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

void forward(const Spec& spec, const std::vector<Seq>& seqs, Rows q, Rows k, Rows v, OutRows out, Stats stats) {
    struct Task {
        int64_t seq, h, i0, i1;
    };
    std::vector<Task> tasks;
    for (int64_t n = 0; n < (int64_t)seqs.size(); ++n)
        for (int64_t h = 0; h < spec.hq; ++h)
            for (int64_t i0 = 0; i0 < seqs[n].sq; i0 += kQueryBlock) tasks.push_back({n, h, i0, std::min(i0 + kQueryBlock, seqs[n].sq)});
    parallelFor((int64_t)tasks.size(), 2, [&](int64_t tb, int64_t te) {
        float m[kQueryBlock], l[kQueryBlock];
        for (int64_t t = tb; t < te; ++t) {
            const Task& tk = tasks[t];
            const Seq& s = seqs[tk.seq];
            forwardBlock(spec, s, tk.h, tk.i0, tk.i1, q, k, v, out.row(tk.h, s.q0 + tk.i0), out.rs, m, l);
            for (int64_t i = tk.i0; i < tk.i1; ++i) {
                int64_t off = tk.h * stats.hs + (s.q0 + i) * stats.rs;
                if (stats.m) stats.m[off] = m[i - tk.i0];
                if (stats.l) stats.l[off] = l[i - tk.i0];
            }
        }
    });
}

void backward(const Spec& spec, const std::vector<Seq>& seqs, Rows q, Rows k, Rows v, Rows dout, OutRows dq, OutRows dk, OutRows dv) {
    const int64_t rep = spec.hq / spec.hk, d = spec.d, dvn = spec.dv;
    const bool dropping = spec.drop.p > 0.0;
    const float keepScale = spec.drop.p < 1.0 ? (float)(1.0 / (1.0 - spec.drop.p)) : 0.0f;
    const int64_t nTasks = (int64_t)seqs.size() * spec.hk;
    parallelFor(nTasks, 1, [&](int64_t tb, int64_t te) {
        std::vector<float> o, lse, delta;
        for (int64_t t = tb; t < te; ++t) {
            const Seq& s = seqs[t / spec.hk];
            const int64_t kvh = t % spec.hk;
            o.resize((size_t)(s.sq * dvn));
            lse.resize((size_t)s.sq);
            delta.resize((size_t)s.sq);
            for (int64_t h = kvh * rep; h < (kvh + 1) * rep; ++h) {
                // Recompute this head's output and row statistics: P = exp(S - lse), delta_i = dO_i . O_i.
                float m[kQueryBlock], l[kQueryBlock];
                for (int64_t i0 = 0; i0 < s.sq; i0 += kQueryBlock) {
                    int64_t i1 = std::min(i0 + kQueryBlock, s.sq);
                    forwardBlock(spec, s, h, i0, i1, q, k, v, o.data() + i0 * dvn, dvn, m, l);
                    for (int64_t i = i0; i < i1; ++i) {
                        lse[i] = l[i - i0] > 0.0f ? m[i - i0] + std::log(l[i - i0]) : kNegInf;
                        delta[i] = dot(dout.row(h, s.q0 + i), o.data() + i * dvn, dvn);
                    }
                }
                const float slope = slopeOf(spec, s, h);
                for (int64_t j0 = 0; j0 < s.sk; j0 += kKeyBlock) {
                    const int64_t j1 = std::min(j0 + kKeyBlock, s.sk);
                    for (int64_t i = 0; i < s.sq; ++i) {
                        if (lse[i] == kNegInf) continue;
                        int64_t lo, hi;
                        keyRange(spec, s, i, lo, hi);
                        const int64_t a = std::max(j0, lo), e = std::min(j1, hi);
                        if (a >= e) continue;
                        const float* qi = q.row(h, s.q0 + i);
                        const float* doi = dout.row(h, s.q0 + i);
                        float* dqi = dq.row(h, s.q0 + i);
                        for (int64_t j = a; j < e; ++j) {
                            const int64_t kr = keyRow(s, j);
                            const float* kj = k.row(kvh, kr);
                            float x = score(spec, s, h, slope, qi, kj, i, j);
                            if (x == kNegInf) continue;
                            const float p = std::exp(x - lse[i]);
                            float z = 1.0f;
                            if (dropping) z = keepAt(spec.drop, s.dropBase + (uint64_t)((h * s.sq + i) * s.sk + j)) ? keepScale : 0.0f;
                            const float* vj = v.row(kvh, kr);
                            if (z != 0.0f) axpy(dv.row(kvh, kr), doi, p * z, dvn);
                            const float ds = p * (z * dot(doi, vj, dvn) - delta[i]) * spec.scale;
                            axpy(dqi, kj, ds, d);
                            axpy(dk.row(kvh, kr), qi, ds, d);
                        }
                    }
                }
            }
        }
    });
}

}  // namespace impl::cpu::attn
