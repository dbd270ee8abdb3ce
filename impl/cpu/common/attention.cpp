// The blocked attention core (see attention.hpp for the conventions).
//
// A query block against a key block is a handful of small matrix products (scores, weights times values and, in
// the backward, the four gradient products), done by a register-blocked GEMM whose tile fits each level's
// registers, over packed, zero-padded tiles. The float kernels
// are compiled once per instruction-set level (isa()), the double ones once: float64 is for correctness.
#include "attention.hpp"

// The vector helpers are always inlined, so the ABI note on passing such vectors by value does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

#include <algorithm>
#include <cmath>
#include <cstring>
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

/// a . b with the sum split across vector lanes.
template <class S>
CPU_FORCE_INLINE S dotSimd(const S* a, const S* b, int64_t n) {
    S s = 0;
#pragma omp simd reduction(+ : s)
    for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

template <class S>
CPU_FORCE_INLINE S dot(const S* a, const S* b, int64_t n) {
    S s = 0;
    for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

// ---- a small register-blocked GEMM on generic vectors: the blocks of attention are products of (rows x head dim)
// tiles, which this turns into FMAs that reuse each loaded vector once per row of the tile. The tile fits the
// level's register file: 4 rows x 4 zmm at AVX-512 (16 accumulators of 32 registers), 4 rows x 2 ymm at AVX2 and
// 4 rows x 2 xmm at the baseline (8 accumulators of 16 registers); wider tiles spill there and run several times
// slower.
template <class S, int VB>
struct VecOf {
    typedef S type __attribute__((vector_size(VB)));
};
template <class S, int VB>
using Vec = typename VecOf<S, VB>::type;
/// Row length granularity of B and C handed to gemm: the widest tile of any level (4 vectors of 64 bytes), so
/// every level's tile width divides it.
template <class S>
constexpr int64_t kTileW = 4 * 64 / (int64_t)sizeof(S);

template <class S, int VB>
CPU_FORCE_INLINE Vec<S, VB> vload(const S* p) {
    Vec<S, VB> v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class S, int VB>
CPU_FORCE_INLINE void vstore(S* p, Vec<S, VB> v) {
    std::memcpy(p, &v, sizeof v);
}

/// c_r[0, NV * lanes) (+)= sum_p a_r[p * sa] * B[p * ldb + (0, NV * lanes)] for the R rows r.
template <class S, int VB, int NV, int R>
CPU_FORCE_INLINE void micro(const S* const* a, int64_t sa, int64_t k, const S* B, int64_t ldb, S* const* c, bool accumulate) {
    using V = Vec<S, VB>;
    constexpr int64_t L = VB / (int64_t)sizeof(S);
    V x[R][NV];
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
        for (int v = 0; v < NV; ++v) x[r][v] = V{};
    for (int64_t p = 0; p < k; ++p) {
        const S* b = B + p * ldb;
        V bv[NV];
#pragma GCC unroll 16
        for (int v = 0; v < NV; ++v) bv[v] = vload<S, VB>(b + v * L);
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r) {
            const V av = V{} + a[r][p * sa];
#pragma GCC unroll 16
            for (int v = 0; v < NV; ++v) x[r][v] += av * bv[v];
        }
    }
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
        for (int v = 0; v < NV; ++v) {
            if (accumulate) x[r][v] += vload<S, VB>(c[r] + v * L);
            vstore<S, VB>(c[r] + v * L, x[r][v]);
        }
}

/// C (m x n, row stride ldc) (+)= A (m x k: element (i, p) at A[i * ra + p * sa]) times B (k x n, row stride ldb).
/// n is a multiple of kTileW; `dummy` (kTileW values) absorbs the rows of the last tile beyond m.
template <class S, int VB, int NV>
CPU_FORCE_INLINE void gemmImpl(S* C, int64_t ldc, const S* A, int64_t ra, int64_t sa, const S* B, int64_t ldb, int64_t m, int64_t k, int64_t n,
                               bool accumulate, S* dummy) {
    constexpr int64_t W = NV * (VB / (int64_t)sizeof(S));
    static_assert(kTileW<S> % W == 0, "a level's tile must divide the padding granularity");
    int64_t i0 = 0;
    for (; i0 + 4 <= m; i0 += 4) {
        const S* a[4] = {A + i0 * ra, A + (i0 + 1) * ra, A + (i0 + 2) * ra, A + (i0 + 3) * ra};
        for (int64_t j0 = 0; j0 < n; j0 += W) {
            S* c0 = C + i0 * ldc + j0;
            S* c[4] = {c0, c0 + ldc, c0 + 2 * ldc, c0 + 3 * ldc};
            micro<S, VB, NV, 4>(a, sa, k, B + j0, ldb, c, accumulate);
        }
    }
    for (; i0 < m; ++i0) {
        const S* a[1] = {A + i0 * ra};
        for (int64_t j0 = 0; j0 < n; j0 += W) {
            S* c[1] = {C + i0 * ldc + j0};
            micro<S, VB, NV, 1>(a, sa, k, B + j0, ldb, c, accumulate);
        }
    }
    (void)dummy;
}

// One compiled copy of the GEMM per level (float) and one for double; the block kernels call it through a pointer,
// so its unrolled micro tile is not inlined into every call site (compile time).
template <class S>
using GemmFn = void (*)(S*, int64_t, const S*, int64_t, int64_t, const S*, int64_t, int64_t, int64_t, int64_t, bool, S*);
#define CPU_ATTN_GEMM(name, S, VB, NV, attr)                                                                                          \
    attr void name(S* C, int64_t ldc, const S* A, int64_t ra, int64_t sa, const S* B, int64_t ldb, int64_t m, int64_t k, int64_t n, \
                   bool accumulate, S* dummy) {                                                                                     \
        gemmImpl<S, VB, NV>(C, ldc, A, ra, sa, B, ldb, m, k, n, accumulate, dummy);                                                \
    }
CPU_ATTN_GEMM(gemmBaseF, float, 16, 2, )
CPU_ATTN_GEMM(gemmBaseD, double, 16, 2, )
#if CPU_HAVE_X86_LEVELS
CPU_ATTN_GEMM(gemmAvx2F, float, 32, 2, CPU_TARGET_AVX2)
CPU_ATTN_GEMM(gemmAvx512F, float, 64, 4, CPU_TARGET_AVX512)
#endif
#undef CPU_ATTN_GEMM

template <class S>
GemmFn<S> pickGemm() {
    if constexpr (std::is_same_v<S, double>) {
        return gemmBaseD;
    } else {
#if CPU_HAVE_X86_LEVELS
        if (isa() == Isa::Avx512) return gemmAvx512F;
        if (isa() == Isa::Avx2) return gemmAvx2F;
#endif
        return gemmBaseF;
    }
}

inline int64_t roundUp(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

/// Rows [j0, j0 + nk) of one key/value head transposed into t (d, kKeyBlock); missing columns are zero.
template <class S>
CPU_FORCE_INLINE void transposeBlock(S* __restrict t, const RowsT<S>& x, int64_t head, const Seq& s, int64_t j0, int64_t nk, int64_t d) {
    for (int64_t jj = 0; jj < nk; ++jj) {
        const S* r = x.row(head, keyRow(s, j0 + jj));
        for (int64_t c = 0; c < d; ++c) t[c * kKeyBlock + jj] = r[c];
    }
    if (nk < kKeyBlock)
        for (int64_t c = 0; c < d; ++c)
            for (int64_t jj = nk; jj < kKeyBlock; ++jj) t[c * kKeyBlock + jj] = 0;
}

/// n rows (row(i) gives each source row) of width w copied into a dense (n, wp) buffer, zero-padded to wp.
template <class S, class RowF>
CPU_FORCE_INLINE void packRows(S* __restrict dst, int64_t n, int64_t w, int64_t wp, RowF row) {
    for (int64_t i = 0; i < n; ++i) {
        const S* r = row(i);
        S* o = dst + i * wp;
        for (int64_t c = 0; c < w; ++c) o[c] = r[c];
        for (int64_t c = w; c < wp; ++c) o[c] = 0;
    }
}

/// Turns raw dots sr[a..e) (key j = j0 + index) of query i into scaled, biased scores (-inf where masked);
/// returns their maximum.
template <class S>
CPU_FORCE_INLINE S finishScores(S* sr, const Spec& spec, const Seq& s, int64_t h, S slope, S scale, int64_t i, int64_t j0, int64_t a, int64_t e) {
    S bm = negInf<S>();
    if (!s.mask.p && slope == S(0)) {
        // `omp simd` lets the maximum (and the sums below) run in vector lanes instead of element by element.
#pragma omp simd reduction(max : bm)
        for (int64_t jj = a; jj < e; ++jj) {
            const S x = sr[jj] * scale;
            sr[jj] = x;
            bm = bm > x ? bm : x;
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

/// Per-thread scratch of the block kernels (widths padded to whole micro tiles).
template <class S>
struct Work {
    int64_t dp = 0, dvp = 0;
    GemmFn<S> gemm = nullptr;
    std::vector<S> acc, kt, vt, sc, dps, vpk, kpk, qpk, dopk, dkb, dvb, dqb, dummy;
    void reserve(const Spec& spec, bool backward) {
        gemm = pickGemm<S>();
        dp = roundUp(std::max<int64_t>(spec.d, 1), kTileW<S>);
        dvp = roundUp(std::max<int64_t>(spec.dv, 1), kTileW<S>);
        const int64_t d = std::max<int64_t>(spec.d, 1), dv = std::max<int64_t>(spec.dv, 1);
        acc.resize((size_t)(kQueryBlock * dvp));
        kt.resize((size_t)(d * kKeyBlock));
        sc.resize((size_t)(kQueryBlock * kKeyBlock));
        vpk.resize((size_t)(kKeyBlock * dvp));
        dummy.resize((size_t)kTileW<S>);
        if (!backward) return;
        vt.resize((size_t)(dv * kKeyBlock));
        dps.resize((size_t)(kQueryBlock * kKeyBlock));
        kpk.resize((size_t)(kKeyBlock * dp));
        qpk.resize((size_t)(kQueryBlock * dp));
        dopk.resize((size_t)(kQueryBlock * dvp));
        dkb.resize((size_t)(kKeyBlock * dp));
        dvb.resize((size_t)(kKeyBlock * dvp));
        dqb.resize((size_t)(kQueryBlock * dp));
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
    Work<S>& W = *A.w;
    const int64_t h = A.h, i0 = A.i0, nq = A.i1 - A.i0, d = spec.d, dv = spec.dv, dvp = W.dvp, kvh = h / (spec.hq / spec.hk);
    const S slope = slopeOf<S>(spec, s, h), scale = S(spec.scale);
    const bool dropping = spec.drop.p > 0.0;
    const S keepScale = spec.drop.p < 1.0 ? S(1.0 / (1.0 - spec.drop.p)) : S(0);
    S* acc = W.acc.data();
    S* sc = W.sc.data();
    S* m = A.m;
    S* l = A.l;
    int64_t lo[kQueryBlock], hi[kQueryBlock];
    for (int64_t c = 0; c < nq * dvp; ++c) acc[c] = 0;
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
        const bool single = nq == 1;  // one query (decoding): dot products and axpys, no packing
        if (single) {
            const S* qi = A.q.row(h, s.q0 + i0);
            for (int64_t jj = 0; jj < nk; ++jj) sc[jj] = dotSimd<S>(qi, A.k.row(kvh, keyRow(s, j0 + jj)), d);
        } else {
            transposeBlock<S>(W.kt.data(), A.k, kvh, s, j0, nk, d);
            // Raw scores of the whole block: (nq x d) query rows times the (d x 64) transposed keys.
            W.gemm(sc, kKeyBlock, A.q.row(h, s.q0 + i0), A.q.rs, 1, W.kt.data(), kKeyBlock, nq, d, kKeyBlock, false, W.dummy.data());
        }
        bool any = false;
        for (int64_t r = 0; r < nq; ++r) {
            S* sr = sc + r * kKeyBlock;
            const int64_t i = i0 + r, a = std::max(j0, lo[r]) - j0, e = std::min(j1, hi[r]) - j0;
            S bm = negInf<S>();
            if (a < e) bm = finishScores<S>(sr, spec, s, h, slope, scale, i, j0, a, e);
            if (bm == negInf<S>()) {  // nothing taken in this block: weights 0
                for (int64_t jj = 0; jj < nk; ++jj) sr[jj] = 0;
                continue;
            }
            any = true;
            const S mn = std::max(m[r], bm);
            if (m[r] != mn) {
                const S corr = m[r] == negInf<S>() ? S(0) : std::exp(m[r] - mn);
                l[r] *= corr;
                S* ar = acc + r * dvp;
                for (int64_t c = 0; c < dvp; ++c) ar[c] *= corr;
                m[r] = mn;
            }
            for (int64_t jj = 0; jj < a; ++jj) sr[jj] = 0;
            S sum = 0;
#pragma omp simd reduction(+ : sum)
            for (int64_t jj = a; jj < e; ++jj) {
                const S wgt = expS<S>(sr[jj] - mn);
                sr[jj] = wgt;
                sum += wgt;
            }
            for (int64_t jj = e; jj < nk; ++jj) sr[jj] = 0;
            l[r] += sum;
            if (dropping)
                for (int64_t jj = a; jj < e; ++jj)
                    sr[jj] = keepAt(spec.drop, s.dropBase + (uint64_t)((h * s.sq + i) * s.sk + j0 + jj)) ? sr[jj] * keepScale : S(0);
        }
        if (!any) continue;
        if (single) {
            for (int64_t jj = 0; jj < nk; ++jj) {
                const S wgt = sc[jj];
                if (wgt == S(0)) continue;
                const S* vr = A.v.row(kvh, keyRow(s, j0 + jj));
                for (int64_t c = 0; c < dv; ++c) acc[c] += wgt * vr[c];
            }
            continue;
        }
        // acc (nq x dv) += P (nq x nk) times the block's value rows.
        packRows<S>(W.vpk.data(), nk, dv, dvp, [&](int64_t jj) { return A.v.row(kvh, keyRow(s, j0 + jj)); });
        W.gemm(acc, dvp, sc, kKeyBlock, 1, W.vpk.data(), dvp, nq, nk, dvp, true, W.dummy.data());
    }
    for (int64_t r = 0; r < nq; ++r) {
        S* o = A.out + r * A.outRs;
        const S inv = l[r] > S(0) ? S(1) / l[r] : S(0);
        for (int64_t c = 0; c < dv; ++c) o[c] = acc[r * dvp + c] * inv;
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
    Work<S>& W = *A.w;
    const int64_t rep = spec.hq / spec.hk, d = spec.d, dvn = spec.dv, kvh = A.kvh, dp = W.dp, dvp = W.dvp;
    const bool dropping = spec.drop.p > 0.0;
    const S keepScale = spec.drop.p < 1.0 ? S(1.0 / (1.0 - spec.drop.p)) : S(0), scale = S(spec.scale);
    S* o = A.o->data();
    S* lse = A.lse->data();
    S* delta = A.delta->data();
    S* sc = W.sc.data();
    S* dps = W.dps.data();
    S* dummy = W.dummy.data();
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
            bool packed = false;
            for (int64_t i0 = 0; i0 < s.sq; i0 += kQueryBlock) {
                const int64_t nq = std::min(kQueryBlock, s.sq - i0);
                int64_t lo[kQueryBlock], hi[kQueryBlock];
                bool any = false;
                for (int64_t r = 0; r < nq; ++r) {
                    keyRange(spec, s, i0 + r, lo[r], hi[r]);
                    if (lse[i0 + r] != negInf<S>() && std::max(j0, lo[r]) < std::min(j1, hi[r])) any = true;
                }
                if (!any) continue;
                if (!packed) {
                    transposeBlock<S>(W.kt.data(), A.k, kvh, s, j0, nk, d);
                    transposeBlock<S>(W.vt.data(), A.v, kvh, s, j0, nk, dvn);
                    packRows<S>(W.kpk.data(), nk, d, dp, [&](int64_t jj) { return A.k.row(kvh, keyRow(s, j0 + jj)); });
                    std::fill(W.dkb.begin(), W.dkb.begin() + nk * dp, S(0));
                    std::fill(W.dvb.begin(), W.dvb.begin() + nk * dvp, S(0));
                    packed = true;
                }
                // S = Q K^T and dP = dO V^T of the (nq x nk) block.
                W.gemm(sc, kKeyBlock, A.q.row(h, s.q0 + i0), A.q.rs, 1, W.kt.data(), kKeyBlock, nq, d, kKeyBlock, false, dummy);
                W.gemm(dps, kKeyBlock, A.dout.row(h, s.q0 + i0), A.dout.rs, 1, W.vt.data(), kKeyBlock, nq, dvn, kKeyBlock, false, dummy);
                for (int64_t r = 0; r < nq; ++r) {
                    const int64_t i = i0 + r;
                    S* sr = sc + r * kKeyBlock;
                    S* dr = dps + r * kKeyBlock;
                    const int64_t a = std::max(j0, lo[r]) - j0, e = std::min(j1, hi[r]) - j0;
                    if (lse[i] == negInf<S>() || a >= e) {
                        for (int64_t jj = 0; jj < nk; ++jj) sr[jj] = dr[jj] = 0;
                        continue;
                    }
                    finishScores<S>(sr, spec, s, h, slope, scale, i, j0, a, e);
                    const S li = lse[i], di = delta[i];
                    for (int64_t jj = 0; jj < a; ++jj) sr[jj] = dr[jj] = 0;
                    for (int64_t jj = e; jj < nk; ++jj) sr[jj] = dr[jj] = 0;
                    // sr <- P * z (weights of dV), dr <- dS = P (z dP - delta) scale.
                    if (!dropping) {
                        for (int64_t jj = a; jj < e; ++jj) {
                            const S p = expS<S>(sr[jj] - li);
                            sr[jj] = p;
                            dr[jj] = p * (dr[jj] - di) * scale;
                        }
                    } else {
                        for (int64_t jj = a; jj < e; ++jj) {
                            const S p = expS<S>(sr[jj] - li);
                            const S z = keepAt(spec.drop, s.dropBase + (uint64_t)((h * s.sq + i) * s.sk + j0 + jj)) ? keepScale : S(0);
                            sr[jj] = p * z;
                            dr[jj] = p * (z * dr[jj] - di) * scale;
                        }
                    }
                }
                packRows<S>(W.qpk.data(), nq, d, dp, [&](int64_t r) { return A.q.row(h, s.q0 + i0 + r); });
                packRows<S>(W.dopk.data(), nq, dvn, dvp, [&](int64_t r) { return A.dout.row(h, s.q0 + i0 + r); });
                // dV += (P z)^T dO, dK += dS^T Q, dQ = dS K.
                W.gemm(W.dvb.data(), dvp, sc, 1, kKeyBlock, W.dopk.data(), dvp, nk, nq, dvp, true, dummy);
                W.gemm(W.dkb.data(), dp, dps, 1, kKeyBlock, W.qpk.data(), dp, nk, nq, dp, true, dummy);
                W.gemm(W.dqb.data(), dp, dps, kKeyBlock, 1, W.kpk.data(), dp, nq, nk, dp, false, dummy);
                for (int64_t r = 0; r < nq; ++r) {
                    S* dqi = A.dq.row(h, s.q0 + i0 + r);
                    const S* src = W.dqb.data() + r * dp;
                    for (int64_t c = 0; c < d; ++c) dqi[c] += src[c];
                }
            }
            if (!packed) continue;
            for (int64_t jj = 0; jj < nk; ++jj) {
                const int64_t kr = keyRow(s, j0 + jj);
                S* dkr = A.dk.row(kvh, kr);
                S* dvr = A.dv.row(kvh, kr);
                const S* sk = W.dkb.data() + jj * dp;
                const S* sv = W.dvb.data() + jj * dvp;
                for (int64_t c = 0; c < d; ++c) dkr[c] += sk[c];
                for (int64_t c = 0; c < dvn; ++c) dvr[c] += sv[c];
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
        w.reserve(spec, false);
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
        w.reserve(spec, true);
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
