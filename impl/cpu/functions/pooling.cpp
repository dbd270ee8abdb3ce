// Family pooling: max / average pooling, fixed-window and adaptive, 1-d to
// 3-d, forward and backward, and the mode-generic Pool{1,2,3}d.
//
// Every variant runs on one 5-D description (N, C, D, H, W): missing batch
// and leading spatial dims become unit dims. Kernels take any layout: NCHW
// (what callers mostly pass) runs plane by plane without copies, and
// channels-last inputs run a channel-innermost forward. float64 computes in
// double, the other float types in float (16-bit ones rounded once when
// stored). Indices are flat positions inside one input plane, as in PyTorch.
//
// Plane-wise forward is separable: for one output row, the window's input
// rows are folded into a column buffer (elementwise max / sum, vectorised per
// instruction-set level), then each output reduces its columns. Backward
// passes are plane-local (one task owns a whole grad_input plane), so they
// need no atomics and add in a fixed order.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "common/common.hpp"
#include "common/fastmath.hpp"


namespace impl::cpu {

namespace {

enum class Kind { Max, Avg, AdaptiveMax, AdaptiveAvg };

struct PoolGeo {
    Kind kind = Kind::Max;
    int64_t N = 0, C = 0;
    int64_t I[3] = {1, 1, 1}, O[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0}, d[3] = {1, 1, 1};
    bool countIncludePad = true;
    int64_t divisor = 0;  ///< divisor_override (0: none)
    int64_t ISP() const { return I[0] * I[1] * I[2]; }
    int64_t OSP() const { return O[0] * O[1] * O[2]; }
    bool isMax() const { return kind == Kind::Max || kind == Kind::AdaptiveMax; }
};

struct Strides5 {
    int64_t n = 0, c = 0, d = 0, h = 0, w = 0;
};
inline Strides5 strides5(const TensorView& v) { return {v.strides[0], v.strides[1], v.strides[2], v.strides[3], v.strides[4]}; }

/// Windows of every output position along each dim, computed once per call:
/// input positions start, start + step, ... < end (clipped to the input), and
/// the per-dim factors of an average's divisor.
struct DimWindows {
    std::vector<int64_t> buf;  // one allocation for all the tables below
    int64_t *start[3], *end[3], *fac[3], *cnt[3];
    int64_t step[3] = {1, 1, 1};
    int64_t maxLen[3] = {1, 1, 1};  ///< most taps of one window per dim
    DimWindows(const DimWindows&) = delete;  // the tables point into buf
    DimWindows& operator=(const DimWindows&) = delete;
    explicit DimWindows(const PoolGeo& g) {
        buf.resize(4 * (g.O[0] + g.O[1] + g.O[2]));
        int64_t* q = buf.data();
        for (int i = 0; i < 3; ++i) {
            start[i] = q;
            end[i] = q + g.O[i];
            fac[i] = q + 2 * g.O[i];
            cnt[i] = q + 3 * g.O[i];
            q += 4 * g.O[i];
            maxLen[i] = 0;
            for (int64_t o = 0; o < g.O[i]; ++o) {
                int64_t st, en, f;
                if (g.kind == Kind::AdaptiveMax || g.kind == Kind::AdaptiveAvg) {
                    st = (o * g.I[i]) / g.O[i];
                    en = ((o + 1) * g.I[i] + g.O[i] - 1) / g.O[i];
                    f = en - st;
                } else if (g.kind == Kind::Max) {
                    st = o * g.s[i] - g.p[i];
                    en = std::min(st + (g.k[i] - 1) * g.d[i] + 1, g.I[i]);
                    while (st < 0) st += g.d[i];
                    f = 1;
                    step[i] = g.d[i];
                } else {
                    st = o * g.s[i] - g.p[i];
                    en = std::min(st + g.k[i], g.I[i] + g.p[i]);
                    f = en - st;
                    st = std::max<int64_t>(st, 0);
                    en = std::min(en, g.I[i]);
                }
                start[i][o] = st;
                end[i][o] = en;
                cnt[i][o] = en > st ? (en - st + step[i] - 1) / step[i] : 0;
                fac[i][o] = (g.kind == Kind::Avg && !g.countIncludePad) ? cnt[i][o] : f;
                maxLen[i] = std::max(maxLen[i], cnt[i][o]);
            }
        }
    }
};

// ---------------------------------------------------------------- vectorised primitives
//
// The few loops that touch every input element, compiled once per
// instruction-set level and picked once from isa(). A is float or double; a
// row id (flat (d, h) position of an input row) is int32 beside float and
// int64 beside double, so both vectorise with the same lane count.

template <class A>
using RowId = std::conditional_t<std::is_same_v<A, double>, int64_t, int32_t>;

template <class A>
struct Prims {
    using I = RowId<A>;
    // Vertical folds of one input row into the column buffer.
    void (*colMax)(const A*, A*, I*, int64_t, I);  ///< col = max(col, row), remembering the winning row id
    void (*colMaxV)(const A*, A*, int64_t);        ///< col = max(col, row), value only
    void (*addTo)(const A*, A*, int64_t);          ///< dst += src
    // Horizontal taps of fixed windows: for ow in [lo, hi), tap col[ow * s + off].
    void (*hMax)(const A*, A*, int64_t, int64_t, int64_t, int64_t);
    void (*hMaxIdx)(const A*, const I*, A*, int64_t*, int64_t, int64_t, int64_t, int64_t, int64_t);
    void (*hSum)(const A*, A*, int64_t, int64_t, int64_t, int64_t);
    void (*hAdd)(const A*, A*, int64_t, int64_t, int64_t, int64_t);  ///< backward of hSum: col[ow * s + off] += v[ow]
    // Reductions of one contiguous run of n >= kLanes columns (adaptive windows).
    A (*spanMax)(const A*, int64_t);                                ///< NaN if any
    A (*spanArgMax)(const A*, int64_t, int64_t*);  ///< max and its first position (one input row)
    A (*spanSum)(const A*, int64_t);
};

constexpr int kLanes = 16;

namespace body {
/// c ? a : b without a branch (the compiler may otherwise split loops into paths).
template <class A>
CPU_FORCE_INLINE A sel(bool c, A a, A b) {
    using U = std::conditional_t<sizeof(A) == 8, uint64_t, uint32_t>;
    U ua, ub;
    std::memcpy(&ua, &a, sizeof(A));
    std::memcpy(&ub, &b, sizeof(A));
    const U m = U(0) - U(c);
    const U r = (ua & m) | (ub & ~m);
    A out;
    std::memcpy(&out, &r, sizeof(A));
    return out;
}
/// The max step of PyTorch's scan: take v if greater or NaN (NaN stays).
template <class A>
CPU_FORCE_INLINE A maxStep(A best, A v) {
    return ((v > best) | (v != v)) ? v : best;
}
/// The same with flat indices: the first maximum in scan order, the last NaN,
/// whatever order the candidates come in (fi is the candidate's flat index).
template <class A>
CPU_FORCE_INLINE bool takeIdx(A best, int64_t bi, A v, int64_t fi) {
    return (v > best) | ((v == best) & (fi < bi)) | ((v != v) & ((best == best) | (fi > bi)));
}

template <class A, class I>
CPU_FORCE_INLINE void colMax(const A* __restrict r, A* __restrict c, I* __restrict ci, int64_t n, I rid) {
    for (int64_t w = 0; w < n; ++w) {
        const A v = r[w];
        const bool take = (v > c[w]) | (v != v);
        c[w] = take ? v : c[w];
        ci[w] = take ? rid : ci[w];
    }
}
template <class A>
CPU_FORCE_INLINE void colMaxV(const A* __restrict r, A* __restrict c, int64_t n) {
    for (int64_t w = 0; w < n; ++w) c[w] = maxStep(c[w], r[w]);
}
template <class A>
CPU_FORCE_INLINE void addTo(const A* __restrict s, A* __restrict d, int64_t n) {
    for (int64_t w = 0; w < n; ++w) d[w] += s[w];
}

// Strided taps with the common strides 1 and 2 as constants (vectorisable
// shuffles) and any other stride at run time.
template <int S, class A>
CPU_FORCE_INLINE void hMaxS(const A* __restrict col, A* __restrict acc, int64_t lo, int64_t hi, int64_t s, int64_t off) {
    const int64_t st = S ? S : s;
    for (int64_t ow = lo; ow < hi; ++ow) acc[ow] = maxStep(acc[ow], col[ow * st + off]);
}
template <class A>
CPU_FORCE_INLINE void hMax(const A* col, A* acc, int64_t lo, int64_t hi, int64_t s, int64_t off) {
    if (s == 1) hMaxS<1>(col, acc, lo, hi, s, off);
    else if (s == 2) hMaxS<2>(col, acc, lo, hi, s, off);
    else hMaxS<0>(col, acc, lo, hi, s, off);
}
template <int S, class A, class I>
CPU_FORCE_INLINE void hMaxIdxS(const A* __restrict col, const I* __restrict cr, A* __restrict acc, int64_t* __restrict ai, int64_t lo, int64_t hi,
                               int64_t s, int64_t off, int64_t I2) {
    const int64_t st = S ? S : s;
    for (int64_t ow = lo; ow < hi; ++ow) {
        const int64_t p = ow * st + off;
        const A v = col[p];
        const int64_t fi = int64_t(cr[p]) * I2 + p;
        const bool take = takeIdx(acc[ow], ai[ow], v, fi);
        acc[ow] = take ? v : acc[ow];
        ai[ow] = take ? fi : ai[ow];
    }
}
template <class A, class I>
CPU_FORCE_INLINE void hMaxIdx(const A* col, const I* cr, A* acc, int64_t* ai, int64_t lo, int64_t hi, int64_t s, int64_t off, int64_t I2) {
    if (s == 1) hMaxIdxS<1>(col, cr, acc, ai, lo, hi, s, off, I2);
    else if (s == 2) hMaxIdxS<2>(col, cr, acc, ai, lo, hi, s, off, I2);
    else hMaxIdxS<0>(col, cr, acc, ai, lo, hi, s, off, I2);
}
template <int S, class A>
CPU_FORCE_INLINE void hSumS(const A* __restrict col, A* __restrict acc, int64_t lo, int64_t hi, int64_t s, int64_t off) {
    const int64_t st = S ? S : s;
    for (int64_t ow = lo; ow < hi; ++ow) acc[ow] += col[ow * st + off];
}
template <class A>
CPU_FORCE_INLINE void hSum(const A* col, A* acc, int64_t lo, int64_t hi, int64_t s, int64_t off) {
    if (s == 1) hSumS<1>(col, acc, lo, hi, s, off);
    else if (s == 2) hSumS<2>(col, acc, lo, hi, s, off);
    else hSumS<0>(col, acc, lo, hi, s, off);
}

// Backward of hSum: col[ow * s + off] += v[ow] (one tap: distinct columns).
template <int S, class A>
CPU_FORCE_INLINE void hAddS(const A* __restrict v, A* __restrict col, int64_t lo, int64_t hi, int64_t s, int64_t off) {
    const int64_t st = S ? S : s;
    for (int64_t ow = lo; ow < hi; ++ow) col[ow * st + off] += v[ow];
}
template <class A>
CPU_FORCE_INLINE void hAdd(const A* v, A* col, int64_t lo, int64_t hi, int64_t s, int64_t off) {
    if (s == 1) hAddS<1>(v, col, lo, hi, s, off);
    else if (s == 2) hAddS<2>(v, col, lo, hi, s, off);
    else hAddS<0>(v, col, lo, hi, s, off);
}
}  // namespace body

#define POOL_PRIMS_LEVEL(NS, ATTR)                                                                                                   \
    namespace NS {                                                                                                                   \
    template <class A>                                                                                                               \
    ATTR void colMax(const A* r, A* c, RowId<A>* ci, int64_t n, RowId<A> rid) {                                                      \
        body::colMax(r, c, ci, n, rid);                                                                                              \
    }                                                                                                                                \
    template <class A>                                                                                                               \
    ATTR void colMaxV(const A* r, A* c, int64_t n) {                                                                                 \
        body::colMaxV(r, c, n);                                                                                                      \
    }                                                                                                                                \
    template <class A>                                                                                                               \
    ATTR void addTo(const A* s, A* d, int64_t n) {                                                                                   \
        body::addTo(s, d, n);                                                                                                        \
    }                                                                                                                                \
    template <class A>                                                                                                               \
    ATTR void hMax(const A* col, A* acc, int64_t lo, int64_t hi, int64_t s, int64_t off) {                                          \
        body::hMax(col, acc, lo, hi, s, off);                                                                                        \
    }                                                                                                                                \
    template <class A>                                                                                                               \
    ATTR void hMaxIdx(const A* col, const RowId<A>* cr, A* acc, int64_t* ai, int64_t lo, int64_t hi, int64_t s, int64_t off,         \
                      int64_t I2) {                                                                                                  \
        body::hMaxIdx(col, cr, acc, ai, lo, hi, s, off, I2);                                                                         \
    }                                                                                                                                \
    template <class A>                                                                                                               \
    ATTR void hSum(const A* col, A* acc, int64_t lo, int64_t hi, int64_t s, int64_t off) {                                          \
        body::hSum(col, acc, lo, hi, s, off);                                                                                        \
    }                                                                                                                                \
    template <class A>                                                                                                               \
    ATTR void hAdd(const A* v, A* col, int64_t lo, int64_t hi, int64_t s, int64_t off) {                                            \
        body::hAdd(v, col, lo, hi, s, off);                                                                                          \
    }                                                                                                                                \
    /* Run reductions in GCC vector types written here, inside the level's */                                                     \
    /* function (vector types are lowered per function before inlining). The */                                                   \
    /* last partial block re-reads the run's final lanes: harmless for a max, */                                                  \
    /* masked for a sum. n >= 64 / sizeof(A). */                                                                                  \
    template <class A>                                                                                                               \
    ATTR A spanMax(const A* p, int64_t n) {                                                                                          \
        typedef A V __attribute__((vector_size(64)));                                                                                \
        typedef A V2 __attribute__((vector_size(32)));                                                                               \
        typedef A V1 __attribute__((vector_size(16)));                                                                               \
        constexpr int L = 64 / int(sizeof(A));                                                                                       \
        V acc, v;                                                                                                                    \
        std::memcpy(&acc, p, sizeof acc);                                                                                            \
        int64_t i = L;                                                                                                               \
        for (; i + L <= n; i += L) {                                                                                                 \
            std::memcpy(&v, p + i, sizeof v);                                                                                        \
            acc = ((v > acc) | (v != v)) ? v : acc;                                                                                  \
        }                                                                                                                            \
        if (i < n) {                                                                                                                 \
            std::memcpy(&v, p + n - L, sizeof v);                                                                                    \
            acc = ((v > acc) | (v != v)) ? v : acc;                                                                                  \
        }                                                                                                                            \
        V2 x, y;                                                                                                                     \
        std::memcpy(&x, &acc, 32);                                                                                                   \
        std::memcpy(&y, reinterpret_cast<const char*>(&acc) + 32, 32);                                                               \
        x = ((y > x) | (y != y)) ? y : x;                                                                                            \
        V1 s, u;                                                                                                                     \
        std::memcpy(&s, &x, 16);                                                                                                     \
        std::memcpy(&u, reinterpret_cast<const char*>(&x) + 16, 16);                                                                 \
        s = ((u > s) | (u != u)) ? u : s;                                                                                            \
        A best = s[0];                                                                                                               \
        for (int j = 1; j < 16 / int(sizeof(A)); ++j) best = body::maxStep(best, A(s[j]));                                           \
        return best;                                                                                                                 \
    }                                                                                                                                \
    /* Max and its first position in the run (NaN: position unspecified). */                                                       \
    template <class A>                                                                                                               \
    ATTR A spanArgMax(const A* p, int64_t n, int64_t* pos) {                                                                         \
        typedef A V __attribute__((vector_size(64)));                                                                                \
        typedef RowId<A> VI __attribute__((vector_size(64)));                                                                        \
        constexpr int L = 64 / int(sizeof(A));                                                                                       \
        V acc, v;                                                                                                                    \
        VI at, cur;                                                                                                                  \
        for (int j = 0; j < L; ++j) cur[j] = RowId<A>(j);                                                                            \
        std::memcpy(&acc, p, sizeof acc);                                                                                            \
        at = cur;                                                                                                                    \
        int64_t i = L;                                                                                                               \
        for (; i + L <= n; i += L) {                                                                                                 \
            cur += L;                                                                                                                \
            std::memcpy(&v, p + i, sizeof v);                                                                                        \
            const auto take = (v > acc) | (v != v);                                                                                  \
            acc = take ? v : acc;                                                                                                    \
            at = take ? cur : at;                                                                                                    \
        }                                                                                                                            \
        if (i < n) {                                                                                                                 \
            cur += RowId<A>(n - L - (i - L));                                                                                        \
            std::memcpy(&v, p + n - L, sizeof v);                                                                                    \
            const auto take = (v > acc) | (v != v);                                                                                  \
            acc = take ? v : acc;                                                                                                    \
            at = take ? cur : at;                                                                                                    \
        }                                                                                                                            \
        A a[L];                                                                                                                      \
        RowId<A> q[L];                                                                                                               \
        std::memcpy(a, &acc, sizeof acc);                                                                                            \
        std::memcpy(q, &at, sizeof at);                                                                                              \
        A best = a[0];                                                                                                               \
        for (int j = 1; j < L; ++j) best = body::maxStep(best, a[j]);                                                                \
        int64_t first = n;                                                                                                           \
        for (int j = 0; j < L; ++j)                                                                                                  \
            if (a[j] == best) first = std::min<int64_t>(first, q[j]);                                                                \
        *pos = first;                                                                                                                \
        return best;                                                                                                                 \
    }                                                                                                                                \
    template <class A>                                                                                                               \
    ATTR A spanSum(const A* p, int64_t n) {                                                                                          \
        typedef A V __attribute__((vector_size(64)));                                                                                \
        constexpr int L = 64 / int(sizeof(A));                                                                                       \
        V acc, v;                                                                                                                    \
        std::memcpy(&acc, p, sizeof acc);                                                                                            \
        int64_t i = L;                                                                                                               \
        for (; i + L <= n; i += L) {                                                                                                 \
            std::memcpy(&v, p + i, sizeof v);                                                                                        \
            acc += v;                                                                                                                \
        }                                                                                                                            \
        A a[L];                                                                                                                      \
        std::memcpy(a, &acc, sizeof acc);                                                                                            \
        A s = 0;                                                                                                                     \
        for (; i < n; ++i) s += p[i];                                                                                                \
        for (int w = L / 2; w > 0; w /= 2)                                                                                           \
            for (int j = 0; j < w; ++j) a[j] += a[j + w];                                                                            \
        return a[0] + s;                                                                                                             \
    }                                                                                                                                \
    template <class A>                                                                                                               \
    Prims<A> prims() {                                                                                                               \
        return {&colMax<A>, &colMaxV<A>, &addTo<A>, &hMax<A>, &hMaxIdx<A>, &hSum<A>, &hAdd<A>, &spanMax<A>, &spanArgMax<A>, &spanSum<A>};     \
    }                                                                                                                                \
    }

POOL_PRIMS_LEVEL(lvl_base, )
#if CPU_HAVE_X86_LEVELS
POOL_PRIMS_LEVEL(lvl_avx2, CPU_TARGET_AVX2)
POOL_PRIMS_LEVEL(lvl_avx512, CPU_TARGET_AVX512)
#endif
#undef POOL_PRIMS_LEVEL

template <class A>
const Prims<A>& prims() {
    static const Prims<A> p = [] {
#if CPU_HAVE_X86_LEVELS
        if (isa() >= Isa::Avx512) return lvl_avx512::prims<A>();
        if (isa() >= Isa::Avx2) return lvl_avx2::prims<A>();
#endif
        return lvl_base::prims<A>();
    }();
    return p;
}

// ---------------------------------------------------------------- element access

using IndexTypes = TypeList<int64_t, int32_t, double, BFloat16>;

void loadIndexRow(const char* p, int64_t stride, int64_t n, diopiDtype_t dt, int64_t* dst) {
    dispatch<TypeList<int64_t, int32_t>>(dt, "indices", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* s = reinterpret_cast<const T*>(p);
        for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<int64_t>(s[i * stride]);
    });
}

void storeIndexRow(const int64_t* src, char* p, int64_t stride, int64_t n, diopiDtype_t dt) {
    dispatch<IndexTypes>(dt, "indices", [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* d = reinterpret_cast<T*>(p);
        for (int64_t i = 0; i < n; ++i) d[i * stride] = convert<T>(src[i]);
    });
}

inline int64_t taps(int64_t s, int64_t e, int64_t st) { return e > s ? (e - s + st - 1) / st : 0; }

// ---------------------------------------------------------------- forward

/// Tap j of a fixed window along W: output ow reads column ow * s + off for
/// ow in [lo, hi) (the outputs for which that column is inside the input).
struct Tap {
    int64_t off, lo, hi;
};
std::vector<Tap> widthTaps(const PoolGeo& g) {
    std::vector<Tap> taps;
    const int64_t s = g.s[2], I2 = g.I[2], O2 = g.O[2];
    for (int64_t j = 0; j < g.k[2]; ++j) {
        const int64_t off = j * g.d[2] - g.p[2];
        const int64_t lo = off >= 0 ? 0 : (-off + s - 1) / s;
        const int64_t hi = I2 - 1 - off >= 0 ? std::min(O2, (I2 - 1 - off) / s + 1) : 0;
        if (lo < hi) taps.push_back({off, lo, hi});
    }
    return taps;
}


/// Plane-wise forward: one task unit is one output row (n, c, od, oh).
template <class A>
void forwardPlanes(const PoolGeo& g, const DimWindows& W, const TensorView& x, const TensorView& y, const TensorView& idx) {
    using I = RowId<A>;
    const Prims<A>& P = prims<A>();
    const Strides5 xs = strides5(x), ys = strides5(y);
    const Strides5 is = idx.defined() ? strides5(idx) : Strides5{};
    const int64_t C = g.C, O0 = g.O[0], O1 = g.O[1], O2 = g.O[2], I1 = g.I[1], I2 = g.I[2];
    const bool isMax = g.isMax(), wantIdx = idx.defined();
    CPU_CHECK(!wantIdx || g.I[0] * I1 <= int64_t(std::numeric_limits<I>::max()), "input planes with more than 2^31 rows are not supported");
    const bool direct = x.dtype == dtypeOf<A>() && (xs.w == 1 || I2 == 1);
    const bool directOut = y.dtype == dtypeOf<A>() && (ys.w == 1 || O2 == 1);
    const int64_t units = g.N * C * O0 * O1;
    const int64_t work = std::max<int64_t>(1, W.maxLen[0] * W.maxLen[1] * I2 + O2 * W.maxLen[2]);
    const A ninf = -std::numeric_limits<A>::infinity();
    const int64_t kNone = std::numeric_limits<int64_t>::max();
    const bool fixed = g.kind == Kind::Max || g.kind == Kind::Avg;
    const std::vector<Tap> wtaps = fixed ? widthTaps(g) : std::vector<Tap>{};
    parallelFor(units, std::max<int64_t>(1, kParallelGrain / work), [&](int64_t b, int64_t e) {
        std::vector<A> col(I2), buf(direct ? 0 : I2), orow(directOut ? 0 : O2);
        std::vector<I> colr(wantIdx ? I2 : 0);
        std::vector<int64_t> irow(wantIdx ? O2 : 0);
        for (int64_t u = b; u < e; ++u) {
            const int64_t oh = u % O1, t = u / O1, od = t % O0, nc = t / O0, n = nc / C, c = nc % C;
            const char* plane = x.data + (n * xs.n + c * xs.c) * x.itemsize;
            auto row = [&](int64_t p0, int64_t p1) -> const A* {
                const char* r = plane + (p0 * xs.d + p1 * xs.h) * x.itemsize;
                if (direct) return reinterpret_cast<const A*>(r);
                loadRow(r, xs.w, I2, x.dtype, buf.data());
                return buf.data();
            };
            const int64_t s0 = W.start[0][od], e0 = W.end[0][od], st0 = W.step[0];
            const int64_t s1 = W.start[1][oh], e1 = W.end[1][oh], st1 = W.step[1];
            const int64_t nrows = taps(s0, e0, st0) * taps(s1, e1, st1);
            // Fold the window's rows into one column buffer.
            const A* cp = col.data();
            if (nrows == 1) {
                cp = row(s0, s1);
                if (wantIdx) std::fill(colr.begin(), colr.end(), I(s0 * I1 + s1));
            } else if (nrows == 0) {
                std::fill(col.begin(), col.end(), isMax ? ninf : A(0));
                if (wantIdx) std::fill(colr.begin(), colr.end(), I(std::max<int64_t>(s0, 0) * I1 + std::max<int64_t>(s1, 0)));
            } else {
                bool first = true;
                for (int64_t p0 = s0; p0 < e0; p0 += st0)
                    for (int64_t p1 = s1; p1 < e1; p1 += st1) {
                        const A* r = row(p0, p1);
                        const I rid = I(p0 * I1 + p1);
                        if (first) {
                            std::memcpy(col.data(), r, I2 * sizeof(A));
                            if (wantIdx) std::fill(colr.begin(), colr.end(), rid);
                            first = false;
                        } else if (!isMax) {
                            P.addTo(r, col.data(), I2);
                        } else if (wantIdx) {
                            P.colMax(r, col.data(), colr.data(), I2, rid);
                        } else {
                            P.colMaxV(r, col.data(), I2);
                        }
                    }
            }
            const I* cr = colr.data();
            char* ydst = y.data + (n * ys.n + c * ys.c + od * ys.d + oh * ys.h) * y.itemsize;
            A* out = directOut ? reinterpret_cast<A*>(ydst) : orow.data();
            const int64_t firstIdx = (std::max<int64_t>(s0, 0) * I1 + std::max<int64_t>(s1, 0)) * I2;  // + the window's first column
            if (fixed) {
                // Tap-major over the kernel's W taps, each over the outputs it reaches.
                std::fill(out, out + O2, isMax ? ninf : A(0));
                if (wantIdx) std::fill(irow.begin(), irow.end(), kNone);
                for (const Tap& tp : wtaps) {
                    if (!isMax) P.hSum(cp, out, tp.lo, tp.hi, g.s[2], tp.off);
                    else if (wantIdx) P.hMaxIdx(cp, cr, out, irow.data(), tp.lo, tp.hi, g.s[2], tp.off, I2);
                    else P.hMax(cp, out, tp.lo, tp.hi, g.s[2], tp.off);
                }
                if (wantIdx)
                    for (int64_t ow = 0; ow < O2; ++ow)
                        if (irow[ow] == kNone) irow[ow] = firstIdx + std::max<int64_t>(W.start[2][ow], 0);
            } else if (isMax) {
                for (int64_t ow = 0; ow < O2; ++ow) {
                    const int64_t s2 = W.start[2][ow], e2 = W.end[2][ow];
                    A best = ninf;
                    int64_t bi = kNone;
                    if (e2 - s2 >= kLanes && wantIdx && nrows <= 1) {
                        int64_t at = 0;
                        best = P.spanArgMax(cp + s2, e2 - s2, &at);
                        bi = int64_t(cr[s2 + at]) * I2 + s2 + at;
                    } else if (e2 - s2 >= kLanes) {
                        best = P.spanMax(cp + s2, e2 - s2);
                        if (wantIdx && best == best) {
                            // The least flat index holding the maximum (a predictable scan).
                            int64_t p2 = s2;
                            while (cp[p2] != best) ++p2;  // the first column holding it (there is one)
                            bi = int64_t(cr[p2]) * I2 + p2;
                            if (nrows > 1)  // another column may hold it in an earlier row
                                for (++p2; p2 < e2; ++p2)
                                    if (cp[p2] == best) bi = std::min<int64_t>(bi, int64_t(cr[p2]) * I2 + p2);
                        }
                    }
                    if (e2 - s2 < kLanes || (wantIdx && best != best)) {
                        best = ninf;
                        bi = kNone;
                        if (!wantIdx) {
                            for (int64_t p2 = s2; p2 < e2; ++p2) best = body::maxStep(best, cp[p2]);
                        } else {
                            for (int64_t p2 = s2; p2 < e2; ++p2) {
                                const A v = cp[p2];
                                const int64_t fi = int64_t(cr[p2]) * I2 + p2;
                                const bool take = body::takeIdx(best, bi, v, fi);
                                best = body::sel(take, v, best);
                                bi = take ? fi : bi;
                            }
                        }
                    }
                    out[ow] = best;
                    if (wantIdx) irow[ow] = bi == kNone ? firstIdx + s2 : bi;
                }
            } else {
                for (int64_t ow = 0; ow < O2; ++ow) {
                    const int64_t s2 = W.start[2][ow], e2 = W.end[2][ow];
                    A sum = 0;
                    if (e2 - s2 >= kLanes) {
                        sum = P.spanSum(cp + s2, e2 - s2);
                    } else {
                        for (int64_t p2 = s2; p2 < e2; ++p2) sum += cp[p2];
                    }
                    out[ow] = sum;
                }
            }
            if (!isMax) {
                // Average: divide by the window's divisor (0 for a window of padding only).
                const int64_t f01 = W.fac[0][od] * W.fac[1][oh], c01 = W.cnt[0][od] * W.cnt[1][oh];
                for (int64_t ow = 0; ow < O2; ++ow) {
                    const int64_t dv = g.divisor ? g.divisor : f01 * W.fac[2][ow];
                    out[ow] = (c01 == 0 || W.cnt[2][ow] == 0) ? A(0) : out[ow] / A(dv);
                }
            }
            if (!directOut) storeRow(orow.data(), ydst, ys.w, O2, y.dtype);
            if (wantIdx) storeIndexRow(irow.data(), idx.data + (n * is.n + c * is.c + od * is.d + oh * is.h) * idx.itemsize, is.w, O2, idx.dtype);
        }
    });
}

/// Channels-last forward: window taps outside, a contiguous run of channels
/// inside (x's channel stride is 1).
template <class A>
void forwardChannelsLast(const PoolGeo& g, const DimWindows& W, const TensorView& x, const TensorView& y, const TensorView& idx) {
    const Strides5 xs = strides5(x), ys = strides5(y);
    const Strides5 is = idx.defined() ? strides5(idx) : Strides5{};
    const int64_t OSP = g.OSP(), C = g.C, I1 = g.I[1], I2 = g.I[2];
    const bool isMax = g.isMax(), wantIdx = idx.defined();
    const bool direct = x.dtype == dtypeOf<A>();
    const A ninf = -std::numeric_limits<A>::infinity();
    const int64_t work = std::max<int64_t>(1, C * W.maxLen[0] * W.maxLen[1] * W.maxLen[2]);
    parallelFor(g.N * OSP, std::max<int64_t>(1, kParallelGrain / work), [&](int64_t b, int64_t e) {
        std::vector<A> acc(C), buf(direct ? 0 : C);
        std::vector<int64_t> best(wantIdx ? C : 0);
        for (int64_t r = b; r < e; ++r) {
            const int64_t n = r / OSP, opix = r % OSP;
            const int64_t ow = opix % g.O[2], oh = (opix / g.O[2]) % g.O[1], od = opix / (g.O[1] * g.O[2]);
            const int64_t s0 = W.start[0][od], e0 = W.end[0][od], s1 = W.start[1][oh], e1 = W.end[1][oh], s2 = W.start[2][ow], e2 = W.end[2][ow];
            A* a = acc.data();
            int64_t* bi = best.data();
            std::fill(acc.begin(), acc.end(), isMax ? ninf : A(0));
            if (wantIdx)
                std::fill(best.begin(), best.end(),
                          (std::max<int64_t>(s0, 0) * I1 + std::max<int64_t>(s1, 0)) * I2 + std::max<int64_t>(s2, 0));
            for (int64_t p0 = s0; p0 < e0; p0 += W.step[0])
                for (int64_t p1 = s1; p1 < e1; p1 += W.step[1])
                    for (int64_t p2 = s2; p2 < e2; p2 += W.step[2]) {
                        const char* sp = x.data + (n * xs.n + p0 * xs.d + p1 * xs.h + p2 * xs.w) * x.itemsize;
                        const A* src = reinterpret_cast<const A*>(sp);
                        if (!direct) {
                            loadRow(sp, 1, C, x.dtype, buf.data());
                            src = buf.data();
                        }
                        if (!isMax) {
                            for (int64_t c = 0; c < C; ++c) a[c] += src[c];
                        } else if (wantIdx) {
                            const int64_t pos = (p0 * I1 + p1) * I2 + p2;
                            for (int64_t c = 0; c < C; ++c) {
                                const A v = src[c];
                                const bool take = v > a[c] || v != v;
                                a[c] = take ? v : a[c];
                                bi[c] = take ? pos : bi[c];
                            }
                        } else {
                            for (int64_t c = 0; c < C; ++c) a[c] = (src[c] > a[c] || src[c] != src[c]) ? src[c] : a[c];
                        }
                    }
            if (!isMax) {
                const bool empty = W.cnt[0][od] * W.cnt[1][oh] * W.cnt[2][ow] == 0;
                const int64_t dv = g.divisor ? g.divisor : W.fac[0][od] * W.fac[1][oh] * W.fac[2][ow];
                for (int64_t c = 0; c < C; ++c) a[c] = empty ? A(0) : a[c] / A(dv);
            }
            storeRow(a, y.data + (n * ys.n + od * ys.d + oh * ys.h + ow * ys.w) * y.itemsize, ys.c, C, y.dtype);
            if (wantIdx) storeIndexRow(bi, idx.data + (n * is.n + od * is.d + oh * is.h + ow * is.w) * idx.itemsize, is.c, C, idx.dtype);
        }
    });
}

void forward(const PoolGeo& g, const TensorView& x, const TensorView& y, const TensorView& idx) {
    if (y.numel == 0) return;
    const DimWindows W(g);
    const bool channelsLast = x.strides[1] == 1 && g.C > 1 && x.strides[4] != 1;
    auto run = [&](auto tag) {
        using A = typename decltype(tag)::type;
        if (channelsLast) forwardChannelsLast<A>(g, W, x, y, idx);
        else forwardPlanes<A>(g, W, x, y, idx);
    };
    if (y.dtype == diopi_dtype_float64) run(Tag<double>{});
    else run(Tag<float>{});
}

// ---------------------------------------------------------------- backward

/// grad_input plane by plane (one task owns whole planes): zeroed, then the
/// max kinds add each gradient at its index and the average kinds spread
/// each gradient over its window (one output row at a time: first along W
/// into a column buffer, then added to each window row). Planes that are not
/// dense in A go through a scratch plane. Returns false if an index is out of
/// range.
template <class A>
bool backwardPlanes(const PoolGeo& g, const DimWindows& W, const TensorView& gx, const TensorView& gy, const TensorView& idx) {
    const Prims<A>& P = prims<A>();
    const Strides5 xs = strides5(gx), ys = strides5(gy);
    const Strides5 is = idx.defined() ? strides5(idx) : Strides5{};
    const int64_t C = g.C, I0 = g.I[0], I1 = g.I[1], I2 = g.I[2], O0 = g.O[0], O1 = g.O[1], O2 = g.O[2], ISP = g.ISP();
    const bool isMax = g.isMax();
    const bool fixed = g.kind == Kind::Avg;
    const std::vector<Tap> wtaps = fixed ? widthTaps(g) : std::vector<Tap>{};
    const bool dense = gx.dtype == dtypeOf<A>() && (I2 == 1 || xs.w == 1) && (I1 == 1 || xs.h == I2) && (I0 == 1 || xs.d == I1 * I2);
    const int64_t work = std::max<int64_t>(1, ISP + g.OSP() * (isMax ? 1 : W.maxLen[2] + 1));
    const bool directGo = gy.dtype == dtypeOf<A>() && (ys.w == 1 || O2 == 1);
    const bool directIdx = isMax && idx.dtype == diopi_dtype_int64 && (is.w == 1 || O2 == 1);
    std::atomic<bool> bad{false};
    parallelFor(g.N * C, std::max<int64_t>(1, kParallelGrain / work), [&](int64_t b, int64_t e) {
        std::vector<A> scratch(dense ? 0 : ISP), go(directGo ? 0 : O2), contrib(isMax ? 0 : I2), share(isMax ? 0 : O2);
        std::vector<int64_t> ix(isMax && !directIdx ? O2 : 0);
        for (int64_t nc = b; nc < e; ++nc) {
            const int64_t n = nc / C, c = nc % C;
            A* plane = dense ? reinterpret_cast<A*>(gx.data + (n * xs.n + c * xs.c) * gx.itemsize) : scratch.data();
            std::fill(plane, plane + ISP, A(0));
            for (int64_t od = 0; od < O0; ++od)
                for (int64_t oh = 0; oh < O1; ++oh) {
                    const char* gsrc = gy.data + (n * ys.n + c * ys.c + od * ys.d + oh * ys.h) * gy.itemsize;
                    const A* gr = reinterpret_cast<const A*>(gsrc);
                    if (!directGo) {
                        loadRow(gsrc, ys.w, O2, gy.dtype, go.data());
                        gr = go.data();
                    }
                    if (isMax) {
                        const char* isrc = idx.data + (n * is.n + c * is.c + od * is.d + oh * is.h) * idx.itemsize;
                        const int64_t* ir = reinterpret_cast<const int64_t*>(isrc);
                        if (!directIdx) {
                            loadIndexRow(isrc, is.w, O2, idx.dtype, ix.data());
                            ir = ix.data();
                        }
                        bool rowBad = false;
                        for (int64_t ow = 0; ow < O2; ++ow) {
                            const int64_t k = ir[ow];
                            const bool out = k < 0 || k >= ISP;
                            rowBad |= out;
                            plane[out ? 0 : k] += out ? A(0) : gr[ow];
                        }
                        if (rowBad) bad.store(true, std::memory_order_relaxed);
                        continue;
                    }
                    if (W.cnt[0][od] * W.cnt[1][oh] == 0) continue;
                    const int64_t f01 = W.fac[0][od] * W.fac[1][oh];
                    for (int64_t ow = 0; ow < O2; ++ow) {
                        const int64_t dv = g.divisor ? g.divisor : f01 * W.fac[2][ow];
                        share[ow] = W.cnt[2][ow] == 0 ? A(0) : gr[ow] / A(dv);
                    }
                    std::fill(contrib.begin(), contrib.end(), A(0));
                    if (fixed) {
                        // Tap-major (as the forward): one tap's columns are distinct.
                        for (const Tap& tp : wtaps) P.hAdd(share.data(), contrib.data(), tp.lo, tp.hi, g.s[2], tp.off);
                    } else {
                        for (int64_t ow = 0; ow < O2; ++ow)
                            for (int64_t p2 = W.start[2][ow]; p2 < W.end[2][ow]; ++p2) contrib[p2] += share[ow];
                    }
                    for (int64_t p0 = W.start[0][od]; p0 < W.end[0][od]; ++p0)
                        for (int64_t p1 = W.start[1][oh]; p1 < W.end[1][oh]; ++p1) P.addTo(contrib.data(), plane + (p0 * I1 + p1) * I2, I2);
                }
            if (!dense) {
                for (int64_t p0 = 0; p0 < I0; ++p0)
                    for (int64_t p1 = 0; p1 < I1; ++p1)
                        storeRow(plane + (p0 * I1 + p1) * I2, gx.data + (n * xs.n + c * xs.c + p0 * xs.d + p1 * xs.h) * gx.itemsize, xs.w, I2,
                                 gx.dtype);
            }
        }
    });
    return !bad.load();
}


/// (N, C, s...) or (C, s...) with `n` spatial dims as 5-D (N, C, D, H, W).
TensorView to5(const TensorView& v, int64_t n) {
    Shape sh = v.shape, st = v.strides;
    if (v.dim() == n + 1) {
        sh.insert(sh.begin(), 1);
        st.insert(st.begin(), 0);
    }
    for (int64_t i = n; i < 3; ++i) {
        sh.insert(sh.begin() + 2, 1);
        st.insert(st.begin() + 2, 0);
    }
    return v.restrided(sh, st);
}

std::vector<int64_t> expandArg(diopiSize_t v, int64_t n, const char* name, const std::vector<int64_t>& fallback) {
    Shape s = toShape(v);
    if (s.empty()) return fallback;
    if (s.size() == 1) return std::vector<int64_t>(n, s[0]);
    CPU_CHECK((int64_t)s.size() == n, name, " must have 1 or ", n, " entries, got ", s.size());
    return s;
}

void requireRank(const TensorView& x, int64_t n, const char* name) {
    CPU_CHECK(x.dim() == n + 1 || x.dim() == n + 2, name, " must be ", n + 1, "-D or ", n + 2, "-D for ", n, "-d pooling, got ", x.dim(), "-D");
}

void requireFloat(const TensorView& t, const char* name) { dispatch<FloatTypes>(t.dtype, name, [](auto) {}); }

void setInput(PoolGeo& g, const TensorView& x, int64_t n) {
    requireRank(x, n, "input");
    requireFloat(x, "input");
    TensorView x5 = to5(x, n);
    g.N = x5.shape[0];
    g.C = x5.shape[1];
    for (int i = 0; i < 3; ++i) g.I[i] = x5.shape[2 + i];
}

/// Fixed-window geometry (kind Max or Avg).
PoolGeo windowGeo(const TensorView& x, int64_t n, Kind kind, diopiSize_t kernel, diopiSize_t stride, diopiSize_t padding, const diopiSize_t* dilation,
                  bool ceil) {
    PoolGeo g;
    g.kind = kind;
    setInput(g, x, n);
    auto k = expandArg(kernel, n, "kernel_size", {});
    CPU_CHECK(!k.empty(), "kernel_size must not be empty");
    auto s = expandArg(stride, n, "stride", k);
    auto p = expandArg(padding, n, "padding", std::vector<int64_t>(n, 0));
    auto d = dilation ? expandArg(*dilation, n, "dilation", std::vector<int64_t>(n, 1)) : std::vector<int64_t>(n, 1);
    const int off = 3 - (int)n;
    for (int64_t i = 0; i < n; ++i) {
        CPU_CHECK(k[i] > 0, "kernel_size must be positive");
        CPU_CHECK(s[i] > 0, "stride must be positive");
        CPU_CHECK(d[i] > 0, "dilation must be positive");
        CPU_CHECK(p[i] >= 0 && p[i] <= k[i] / 2, "padding must be non-negative and at most half of the kernel size");
        if (kind == Kind::Avg) CPU_CHECK(d[i] == 1, "average pooling takes no dilation (all entries must be 1)");
        const int64_t L = g.I[i + off];
        const int64_t num = L + 2 * p[i] - d[i] * (k[i] - 1) - 1;
        const int64_t q = num + (ceil ? s[i] - 1 : 0);
        int64_t o = (q >= 0 ? q / s[i] : -((-q + s[i] - 1) / s[i])) + 1;  // floor division
        if (ceil && (o - 1) * s[i] >= L + p[i]) --o;
        CPU_CHECK(o >= 1, "output size is too small: input size ", L, " with the given window gives ", o);
        g.k[i + off] = k[i];
        g.s[i + off] = s[i];
        g.p[i + off] = p[i];
        g.d[i + off] = d[i];
        g.O[i + off] = std::max<int64_t>(o, 0);
    }
    return g;
}

PoolGeo adaptiveGeo(const TensorView& x, int64_t n, Kind kind, const std::vector<int64_t>& size) {
    PoolGeo g;
    g.kind = kind;
    setInput(g, x, n);
    CPU_CHECK((int64_t)size.size() == n, "output_size must have ", n, " entries");
    const int off = 3 - (int)n;
    for (int64_t i = 0; i < n; ++i) {
        CPU_CHECK(size[i] >= 0, "output_size must be non-negative");
        CPU_CHECK(g.I[i + off] > 0 || g.N * g.C == 0, "adaptive pooling needs non-empty spatial input dims");
        g.O[i + off] = size[i];
    }
    return g;
}

std::vector<int64_t> outputSizeArg(diopiSize_t s, int64_t n) {
    auto v = expandArg(s, n, "output_size", {});
    CPU_CHECK(!v.empty(), "output_size must not be empty");
    return v;
}

/// The output shape for x's rank.
Shape outShape(const TensorView& x, int64_t n, const PoolGeo& g) {
    Shape s(x.shape.begin(), x.shape.end() - n);
    for (int64_t i = 3 - n; i < 3; ++i) s.push_back(g.O[i]);
    return s;
}

void runForward(const PoolGeo& g, const TensorView& x, int64_t n, diopiTensorHandle_t out, diopiTensorHandle_t indices) {
    TensorView y = view(out, "out");
    requireFloat(y, "out");
    CPU_CHECK(y.dtype == x.dtype, "out dtype ", dtypeName(y.dtype), " differs from input dtype ", dtypeName(x.dtype));
    Shape want = outShape(x, n, g);
    CPU_CHECK(y.shape == want, "out shape ", shapeStr(y.shape), " must be ", shapeStr(want));
    TensorView idx;
    if (indices) {
        idx = view(indices, "indices");
        dispatch<IndexTypes>(idx.dtype, "indices", [](auto) {});
        CPU_CHECK(idx.shape == want, "indices shape ", shapeStr(idx.shape), " must be ", shapeStr(want));
        idx = to5(idx, n);
    }
    forward(g, to5(x, n), to5(y, n), idx);
}

/// grad_input of any pooling kind. Max kinds route each gradient through the caller's indices (those the forward
/// with indices produced): they are required, never recomputed, so a tie resolves as the caller's forward resolved it.
void runBackward(diopiContextHandle_t ctx, const PoolGeo& g, const TensorView& x, int64_t n, diopiTensorHandle_t grad_input,
                 diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t indices) {
    CPU_CHECK(!g.isMax() || indices, "indices is NULL: pass the indices the forward with indices produced");
    TensorView gx = view(grad_input, "grad_input"), gy = view(grad_output, "grad_output");
    requireFloat(gx, "grad_input");
    requireFloat(gy, "grad_output");
    CPU_CHECK(gx.shape == x.shape, "grad_input shape ", shapeStr(gx.shape), " must be ", shapeStr(x.shape));
    Shape want = outShape(x, n, g);
    CPU_CHECK(gy.shape == want, "grad_output shape ", shapeStr(gy.shape), " must be ", shapeStr(want));
    if (gx.numel == 0) return;
    TensorView idx;
    if (g.isMax() && gy.numel > 0) {
        idx = view(indices, "indices");
        if (idx.dtype != diopi_dtype_int32 && idx.dtype != diopi_dtype_int64)
            failCode(diopiDtypeNotSupported, "indices must be int32 or int64, got ", dtypeName(idx.dtype));
        CPU_CHECK(idx.shape == want, "indices shape ", shapeStr(idx.shape), " must be grad_output's ", shapeStr(want));
        idx = to5(idx, n);
    }
    const DimWindows W(g);
    bool ok = true;
    if (gx.dtype == diopi_dtype_float64) ok = backwardPlanes<double>(g, W, to5(gx, n), to5(gy, n), idx);
    else ok = backwardPlanes<float>(g, W, to5(gx, n), to5(gy, n), idx);
    CPU_CHECK(ok, "indices hold a position outside the input plane");
}

bool isMaxMode(const char* mode) {
    CPU_CHECK(mode, "mode must not be NULL (\"max\" or \"avg\")");
    if (std::strcmp(mode, "max") == 0) return true;
    if (std::strcmp(mode, "avg") == 0) return false;
    fail("mode must be \"max\" or \"avg\", got \"", mode, "\"");
}

PoolGeo genericGeo(const TensorView& x, int64_t n, const char* mode, diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding,
                   diopiSize_t dilation, bool ceil, bool exclusive, bool adaptive, const std::vector<int64_t>* outSize) {
    const bool mx = isMaxMode(mode);
    if (adaptive) {
        CPU_CHECK(outSize, "adaptive pooling needs output_size");
        return adaptiveGeo(x, n, mx ? Kind::AdaptiveMax : Kind::AdaptiveAvg, *outSize);
    }
    PoolGeo g = windowGeo(x, n, mx ? Kind::Max : Kind::Avg, ksize, stride, padding, mx ? &dilation : nullptr, ceil);
    if (!mx) {
        for (int64_t d : toShape(dilation)) CPU_CHECK(d == 1, "average pooling takes no dilation (all entries must be 1)");
        g.countIncludePad = !exclusive;
    }
    return g;
}

void setDivisor(PoolGeo& g, const int64_t* divisor) {
    if (!divisor) return;
    CPU_CHECK(*divisor != 0, "divisor_override must not be 0");
    g.divisor = *divisor;
}

/// Output spatial sizes of grad_output (the adaptive backward takes them from it).
std::vector<int64_t> gradSize(diopiConstTensorHandle_t grad_output, int64_t n) {
    TensorView gy = view(grad_output, "grad_output");
    CPU_CHECK(gy.dim() >= n, "grad_output has too few dims");
    return std::vector<int64_t>(gy.shape.end() - n, gy.shape.end());
}

// ---------------------------------------------------------------- per-rank entry points

void maxPool(diopiTensorHandle_t out, diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t n, diopiSize_t k, diopiSize_t s,
             diopiSize_t p, diopiSize_t d, bool ceil) {
    TensorView x = view(input, "input");
    runForward(windowGeo(x, n, Kind::Max, k, s, p, &d, ceil), x, n, out, indices);
}

void maxPoolBackward(diopiContextHandle_t ctx, diopiTensorHandle_t gi, diopiConstTensorHandle_t go, diopiConstTensorHandle_t input, int64_t n,
                     diopiSize_t k, diopiSize_t s, diopiSize_t p, diopiSize_t d, bool ceil, diopiConstTensorHandle_t indices) {
    TensorView x = view(input, "input");
    runBackward(ctx, windowGeo(x, n, Kind::Max, k, s, p, &d, ceil), x, n, gi, go, indices);
}

void avgPool(diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t n, diopiSize_t k, diopiSize_t s, diopiSize_t p, bool ceil, bool cip,
             const int64_t* divisor) {
    TensorView x = view(input, "input");
    PoolGeo g = windowGeo(x, n, Kind::Avg, k, s, p, nullptr, ceil);
    g.countIncludePad = cip;
    setDivisor(g, divisor);
    runForward(g, x, n, out, nullptr);
}

void avgPoolBackward(diopiContextHandle_t ctx, diopiTensorHandle_t gi, diopiConstTensorHandle_t go, diopiConstTensorHandle_t input, int64_t n,
                     diopiSize_t k, diopiSize_t s, diopiSize_t p, bool ceil, bool cip, const int64_t* divisor) {
    TensorView x = view(input, "input");
    PoolGeo g = windowGeo(x, n, Kind::Avg, k, s, p, nullptr, ceil);
    g.countIncludePad = cip;
    setDivisor(g, divisor);
    runBackward(ctx, g, x, n, gi, go, nullptr);
}

void adaptive(diopiTensorHandle_t out, diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t n, diopiSize_t size, Kind kind) {
    TensorView x = view(input, "input");
    runForward(adaptiveGeo(x, n, kind, outputSizeArg(size, n)), x, n, out, indices);
}

void adaptiveBackward(diopiContextHandle_t ctx, diopiTensorHandle_t gi, diopiConstTensorHandle_t go, diopiConstTensorHandle_t input, int64_t n,
                      Kind kind, diopiConstTensorHandle_t indices) {
    TensorView x = view(input, "input");
    runBackward(ctx, adaptiveGeo(x, n, kind, gradSize(go, n)), x, n, gi, go, indices);
}

void pool(diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t n, const char* mode, diopiSize_t ksize, diopiSize_t stride,
          diopiSize_t padding, diopiSize_t dilation, bool ceil, bool exclusive, bool adaptiveFlag, diopiSize_t outputSize) {
    TensorView x = view(input, "input");
    std::vector<int64_t> size;
    if (adaptiveFlag) size = outputSizeArg(outputSize, n);
    runForward(genericGeo(x, n, mode, ksize, stride, padding, dilation, ceil, exclusive, adaptiveFlag, &size), x, n, out, nullptr);
}

void poolBackward(diopiContextHandle_t ctx, diopiTensorHandle_t gi, diopiConstTensorHandle_t go, diopiConstTensorHandle_t input, int64_t n,
                  const char* mode, diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil, bool exclusive,
                  bool adaptiveFlag, diopiConstTensorHandle_t indices) {
    TensorView x = view(input, "input");
    std::vector<int64_t> size;
    if (adaptiveFlag) size = gradSize(go, n);
    PoolGeo g = genericGeo(x, n, mode, ksize, stride, padding, dilation, ceil, exclusive, adaptiveFlag, &size);
    runBackward(ctx, g, x, n, gi, go, g.isMax() ? indices : nullptr);
}

}  // namespace

// ---------------------------------------------------------------- 1-d

diopiError_t diopiMaxPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    return guard(__func__, [&] { maxPool(out, nullptr, input, 1, kernel_size, stride, padding, dilation, ceil_mode); });
}

diopiError_t diopiMaxPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                    diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] {
        maxPoolBackward(ctx, grad_input, grad_output, input, 1, kernel_size, stride, padding, dilation, ceil_mode, indices);
    });
}

diopiError_t diopiMaxPool1dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                       diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    return guard(__func__, [&] {
        CPU_CHECK(indices, "indices is NULL");
        maxPool(out, indices, input, 1, kernel_size, stride, padding, dilation, ceil_mode);
    });
}

diopiError_t diopiAvgPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad) {
    return guard(__func__, [&] { avgPool(out, input, 1, kernel_size, stride, padding, ceil_mode, count_include_pad, nullptr); });
}

diopiError_t diopiAvgPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, bool ceil_mode,
                                    bool count_include_pad) {
    return guard(__func__, [&] {
        avgPoolBackward(ctx, grad_input, grad_output, input, 1, kernel_size, stride, padding, ceil_mode, count_include_pad, nullptr);
    });
}

diopiError_t diopiAdaptiveMaxPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] { adaptive(out, nullptr, input, 1, output_size, Kind::AdaptiveMax); });
}

diopiError_t diopiAdaptiveMaxPool1dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                               diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] {
        CPU_CHECK(indices, "indices is NULL");
        adaptive(out, indices, input, 1, output_size, Kind::AdaptiveMax);
    });
}

diopiError_t diopiAdaptiveMaxPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] { adaptiveBackward(ctx, grad_input, grad_output, input, 1, Kind::AdaptiveMax, indices); });
}

diopiError_t diopiAdaptiveAvgPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { adaptiveBackward(ctx, grad_input, grad_output, input, 1, Kind::AdaptiveAvg, nullptr); });
}

diopiError_t diopiAdaptiveAvgPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] { adaptive(out, nullptr, input, 1, output_size, Kind::AdaptiveAvg); });
}

diopiError_t diopiPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize,
                         diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive,
                         diopiSize_t output_size) {
    return guard(__func__, [&] { pool(out, input, 1, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, output_size); });
}

diopiError_t diopiPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                 diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding,
                                 diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] {
        poolBackward(ctx, grad_input, grad_output, input, 1, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, indices);
    });
}

// ---------------------------------------------------------------- 2-d

diopiError_t diopiAvgPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad, const int64_t* divisor_override) {
    return guard(__func__, [&] { avgPool(out, input, 2, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override); });
}

diopiError_t diopiAvgPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, bool ceil_mode,
                                    bool count_include_pad, const int64_t* divisor_override) {
    return guard(__func__, [&] {
        avgPoolBackward(ctx, grad_input, grad_output, input, 2, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
    });
}

diopiError_t diopiMaxPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    return guard(__func__, [&] { maxPool(out, nullptr, input, 2, kernel_size, stride, padding, dilation, ceil_mode); });
}

diopiError_t diopiMaxPool2dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                       diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    return guard(__func__, [&] {
        CPU_CHECK(indices, "indices is NULL");
        maxPool(out, indices, input, 2, kernel_size, stride, padding, dilation, ceil_mode);
    });
}

diopiError_t diopiMaxPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                    diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] {
        maxPoolBackward(ctx, grad_input, grad_output, input, 2, kernel_size, stride, padding, dilation, ceil_mode, indices);
    });
}

diopiError_t diopiPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize,
                         diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive,
                         diopiSize_t output_size) {
    return guard(__func__, [&] { pool(out, input, 2, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, output_size); });
}

diopiError_t diopiPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                 diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding,
                                 diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] {
        poolBackward(ctx, grad_input, grad_output, input, 2, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, indices);
    });
}

diopiError_t diopiAdaptiveAvgPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] { adaptive(out, nullptr, input, 2, output_size, Kind::AdaptiveAvg); });
}

diopiError_t diopiAdaptiveAvgPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { adaptiveBackward(ctx, grad_input, grad_output, input, 2, Kind::AdaptiveAvg, nullptr); });
}

diopiError_t diopiAdaptiveMaxPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] { adaptive(out, nullptr, input, 2, output_size, Kind::AdaptiveMax); });
}

diopiError_t diopiAdaptiveMaxPool2dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                               diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] {
        CPU_CHECK(indices, "indices is NULL");
        adaptive(out, indices, input, 2, output_size, Kind::AdaptiveMax);
    });
}

diopiError_t diopiAdaptiveMaxPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] { adaptiveBackward(ctx, grad_input, grad_output, input, 2, Kind::AdaptiveMax, indices); });
}

// ---------------------------------------------------------------- 3-d

diopiError_t diopiAvgPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad, const int64_t* divisor_override) {
    return guard(__func__, [&] { avgPool(out, input, 3, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override); });
}

diopiError_t diopiAvgPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, bool ceil_mode,
                                    bool count_include_pad, const int64_t* divisor_override) {
    return guard(__func__, [&] {
        avgPoolBackward(ctx, grad_input, grad_output, input, 3, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
    });
}

diopiError_t diopiMaxPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    return guard(__func__, [&] { maxPool(out, nullptr, input, 3, kernel_size, stride, padding, dilation, ceil_mode); });
}

diopiError_t diopiMaxPool3dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                       diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    return guard(__func__, [&] {
        CPU_CHECK(indices, "indices is NULL");
        maxPool(out, indices, input, 3, kernel_size, stride, padding, dilation, ceil_mode);
    });
}

diopiError_t diopiMaxPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                    diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] {
        maxPoolBackward(ctx, grad_input, grad_output, input, 3, kernel_size, stride, padding, dilation, ceil_mode, indices);
    });
}

diopiError_t diopiAdaptiveAvgPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] { adaptive(out, nullptr, input, 3, output_size, Kind::AdaptiveAvg); });
}

diopiError_t diopiAdaptiveAvgPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { adaptiveBackward(ctx, grad_input, grad_output, input, 3, Kind::AdaptiveAvg, nullptr); });
}

diopiError_t diopiAdaptiveMaxPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] { adaptive(out, nullptr, input, 3, output_size, Kind::AdaptiveMax); });
}

diopiError_t diopiAdaptiveMaxPool3dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                               diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] {
        CPU_CHECK(indices, "indices is NULL");
        adaptive(out, indices, input, 3, output_size, Kind::AdaptiveMax);
    });
}

diopiError_t diopiAdaptiveMaxPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] { adaptiveBackward(ctx, grad_input, grad_output, input, 3, Kind::AdaptiveMax, indices); });
}

diopiError_t diopiPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize,
                         diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive,
                         diopiSize_t output_size) {
    return guard(__func__, [&] { pool(out, input, 3, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, output_size); });
}

diopiError_t diopiPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                 diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding,
                                 diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] {
        poolBackward(ctx, grad_input, grad_output, input, 3, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, indices);
    });
}

}  // namespace impl::cpu
