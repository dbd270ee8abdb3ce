// Family reduction_scan: sum, mean, std, prod, norm (+ backward), amax,
// max/min (along a dim and overall), any/all, argmax/argmin, cumsum (+ backward).
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "common/common.hpp"
#include "common/fastmath.hpp"  // CPU_FORCE_INLINE

namespace impl::cpu {

namespace {

using IndexTypes = TypeList<int32_t, int64_t>;

/// Accumulator of sums/products: double for floats, int64 for integers and bool.
template <class T>
using wide_t = std::conditional_t<is_floating_v<T>, double, int64_t>;

std::vector<int64_t> dimsOf(const int64_t* dim) { return dim ? std::vector<int64_t>{*dim} : std::vector<int64_t>{}; }

void checkFloat(const TensorView& t, const char* name) {
    if (!isFloatingDtype(t.dtype)) failCode(diopiDtypeNotSupported, name, " dtype ", dtypeName(t.dtype), " is not supported (floating point only)");
}

/// True when the window is one run of contiguous elements of size `item`.
inline bool denseWindow(const ReduceWindow& w, int64_t item) { return w.sizes.size() == 1 && w.strides[0] == item; }

/// Calls g(value) for every element of the window, value converted to acc_t<T>.
template <class T, class G>
inline void eachValue(const char* base, const ReduceWindow& w, G&& g) {
    using A = acc_t<T>;
    if (denseWindow(w, sizeof(T))) {
        const T* p = reinterpret_cast<const T*>(base);
        const int64_t n = w.sizes[0];
        for (int64_t k = 0; k < n; ++k) g(A(p[k]));
    } else if (w.sizes.empty()) {
        g(A(*reinterpret_cast<const T*>(base)));
    } else {
        w.each(base, [&](const char* p, int64_t) { g(A(*reinterpret_cast<const T*>(p))); });
    }
}

// ---------------------------------------------------------------- dense float kernels
// Hot loops over a dense run of float32, compiled once per instruction-set
// level with GCC vector types of that level's register width (16, 32 or 64
// bytes: wider types would be split badly) and picked once from isa().
// Conditions are float comparisons used directly in ?: (integer mask vectors
// in between get scalarised).
typedef float RsF4 __attribute__((vector_size(16)));
typedef float RsF8 __attribute__((vector_size(32)));
typedef float RsF16 __attribute__((vector_size(64)));
typedef int32_t RsI4 __attribute__((vector_size(16)));
typedef int32_t RsI8 __attribute__((vector_size(32)));
typedef int32_t RsI16 __attribute__((vector_size(64)));
typedef double RsD2 __attribute__((vector_size(16)));
typedef double RsD4 __attribute__((vector_size(32)));
typedef double RsD8 __attribute__((vector_size(64)));

// (Loads through an out-parameter: returning a wide vector by value would
// change the ABI of the baseline build.)
template <class V, class E>
CPU_FORCE_INLINE void rsLoad(V& v, const E* p) { std::memcpy(&v, p, sizeof v); }

/// Sum of v (Kind 0), |v| (1) or v^2 (2): float lanes per block of 256,
/// blocks added in double.
template <class V, class VI, int Kind>
CPU_FORCE_INLINE double sumBody(const float* p, int64_t n) {
    constexpr int L = sizeof(V) / sizeof(float);
    const VI absMask = VI{} + 0x7fffffff;
    double total = 0;
    int64_t i = 0;
    constexpr int64_t B = 256;
    for (; i + B <= n; i += B) {
        V a0 = {}, a1 = {};
        for (int64_t j = 0; j < B; j += 2 * L) {
            V v0, v1;
            rsLoad(v0, p + i + j);
            rsLoad(v1, p + i + j + L);
            if constexpr (Kind == 1) {
                v0 = (V)((VI)v0 & absMask);
                v1 = (V)((VI)v1 & absMask);
            } else if constexpr (Kind == 2) {
                v0 = v0 * v0;
                v1 = v1 * v1;
            }
            a0 += v0;
            a1 += v1;
        }
        a0 += a1;
        double t = 0;
        for (int l = 0; l < L; ++l) t += a0[l];
        total += t;
    }
    for (; i < n; ++i) {
        const float v = p[i];
        total += Kind == 0 ? double(v) : Kind == 1 ? double(std::fabs(v)) : double(v) * double(v);
    }
    return total;
}

/// max/min (optionally of |x|): a blend per element; NaNs are caught by a
/// second blend into a float accumulator (a NaN anywhere gives NaN).
template <class V, class VI, bool IsMax, bool Abs>
CPU_FORCE_INLINE float extremeBody(const float* p, int64_t n) {
    constexpr int L = sizeof(V) / sizeof(float);
    const float init = IsMax ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
    const VI absMask = VI{} + 0x7fffffff;
    V m0 = V{} + init, m1 = m0, nan0 = V{}, nan1 = nan0;
    int64_t i = 0;
    for (; i + 2 * L <= n; i += 2 * L) {
        V a, b;
        rsLoad(a, p + i);
        rsLoad(b, p + i + L);
        if constexpr (Abs) {
            a = (V)((VI)a & absMask);
            b = (V)((VI)b & absMask);
        }
        nan0 = a == a ? nan0 : a;
        nan1 = b == b ? nan1 : b;
        if constexpr (IsMax) {
            m0 = a > m0 ? a : m0;
            m1 = b > m1 ? b : m1;
        } else {
            m0 = a < m0 ? a : m0;
            m1 = b < m1 ? b : m1;
        }
    }
    bool anyNan = false;
    float r = init;
    for (int l = 0; l < L; ++l) {
        anyNan = anyNan || nan0[l] != nan0[l] || nan1[l] != nan1[l];
        r = IsMax ? std::max(r, std::max(m0[l], m1[l])) : std::min(r, std::min(m0[l], m1[l]));
    }
    for (; i < n; ++i) {
        float v = Abs ? std::fabs(p[i]) : p[i];
        if (v != v) anyNan = true;
        r = IsMax ? (v > r ? v : r) : (v < r ? v : r);
    }
    return anyNan ? std::numeric_limits<float>::quiet_NaN() : r;
}

/// Product in double: double lanes, eight chains (the multiply latency is
/// the limit), combined as a tree.
template <class VH, class VD>
CPU_FORCE_INLINE double prodBody(const float* p, int64_t n) {
    constexpr int L = sizeof(VD) / sizeof(double);
    VD a[8];
    for (int c = 0; c < 8; ++c) a[c] = VD{} + 1.0;
    int64_t i = 0;
    for (; i + 8 * L <= n; i += 8 * L)
        for (int c = 0; c < 8; ++c) {
            VH v;
            rsLoad(v, p + i + c * L);
            a[c] *= __builtin_convertvector(v, VD);
        }
    for (int h = 4; h >= 1; h /= 2)
        for (int c = 0; c < h; ++c) a[c] *= a[c + h];
    double lanes[L];
    std::memcpy(lanes, &a[0], sizeof lanes);
    for (int h = L / 2; h >= 1; h /= 2)
        for (int c = 0; c < h; ++c) lanes[c] *= lanes[c + h];
    double r = lanes[0];
    for (; i < n; ++i) r *= double(p[i]);
    return r;
}

/// acc[i] = row[i] where it is better (max/min) or NaN; a NaN in acc stays.
template <class V, bool IsMax>
CPU_FORCE_INLINE void colExtremeBody(float* acc, const float* row, int64_t n) {
    constexpr int L = sizeof(V) / sizeof(float);
    int64_t i = 0;
    for (; i + L <= n; i += L) {
        V v, a;
        rsLoad(v, row + i);
        rsLoad(a, acc + i);
        // NaN first (a NaN in v replaces a; one in a stays, as no comparison
        // with it holds); this order also keeps GCC's AVX-512 code vectorised.
        a = v == v ? a : v;
        if constexpr (IsMax) a = v > a ? v : a;
        else a = v < a ? v : a;
        std::memcpy(acc + i, &a, sizeof a);
    }
    for (; i < n; ++i) {
        const float v = row[i], a = acc[i];
        acc[i] = ((IsMax ? v > a : v < a) || v != v) ? v : a;
    }
}

struct DenseFloatKernels {
    double (*sum[3])(const float*, int64_t);       // [Kind]: v, |v|, v^2
    float (*extreme[2][2])(const float*, int64_t);  // [IsMax][Abs]
    double (*prod)(const float*, int64_t);
    void (*colExtreme[2])(float*, const float*, int64_t);  // [IsMax]
};

// V: float vector of the level's width, VI: int32 one, VH/VD: floats and
// doubles of the same lane count for the double product.
#define CPU_RS_DENSE_KERNELS(NAME, ATTR, V, VI, VH, VD)                                                             \
    struct RsDense##NAME {                                                                                         \
        template <int K>                                                                                           \
        ATTR static double sum(const float* p, int64_t n) { return sumBody<V, VI, K>(p, n); }                      \
        template <bool M, bool A>                                                                                  \
        ATTR static float extreme(const float* p, int64_t n) { return extremeBody<V, VI, M, A>(p, n); }            \
        ATTR static double prod(const float* p, int64_t n) { return prodBody<VH, VD>(p, n); }                      \
        template <bool M>                                                                                          \
        ATTR static void colExtreme(float* a, const float* r, int64_t n) { colExtremeBody<V, M>(a, r, n); }        \
        static DenseFloatKernels get() {                                                                           \
            return {{&sum<0>, &sum<1>, &sum<2>},                                                                   \
                    {{&extreme<false, false>, &extreme<false, true>}, {&extreme<true, false>, &extreme<true, true>}}, \
                    &prod,                                                                                         \
                    {&colExtreme<false>, &colExtreme<true>}};                                                      \
        }                                                                                                          \
    };
typedef float RsF2 __attribute__((vector_size(8)));
CPU_RS_DENSE_KERNELS(Base, , RsF4, RsI4, RsF2, RsD2)
#if CPU_HAVE_X86_LEVELS
CPU_RS_DENSE_KERNELS(Avx2, CPU_TARGET_AVX2, RsF8, RsI8, RsF4, RsD4)
CPU_RS_DENSE_KERNELS(Avx512, CPU_TARGET_AVX512, RsF16, RsI16, RsF8, RsD8)
#endif
#undef CPU_RS_DENSE_KERNELS

#if CPU_HAVE_X86_LEVELS
/// The AVX-512 product with the native 8 floats -> 8 doubles conversion
/// (GCC splits __builtin_convertvector of that width into halves). GCC 12's
/// own header trips -Wmaybe-uninitialized in _mm512_cvtps_pd: silenced here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
CPU_TARGET_AVX512 double prodAvx512Native(const float* p, int64_t n) {
    __m512d a[8];
    for (int c = 0; c < 8; ++c) a[c] = _mm512_set1_pd(1.0);
    int64_t i = 0;
    for (; i + 64 <= n; i += 64)
        for (int c = 0; c < 8; ++c) a[c] = _mm512_mul_pd(a[c], _mm512_cvtps_pd(_mm256_loadu_ps(p + i + 8 * c)));
    for (int h = 4; h >= 1; h /= 2)
        for (int c = 0; c < h; ++c) a[c] = _mm512_mul_pd(a[c], a[c + h]);
    double lanes[8];
    _mm512_storeu_pd(lanes, a[0]);
    for (int h = 4; h >= 1; h /= 2)
        for (int c = 0; c < h; ++c) lanes[c] *= lanes[c + h];
    double r = lanes[0];
    for (; i < n; ++i) r *= double(p[i]);
    return r;
}
#pragma GCC diagnostic pop
#endif

const DenseFloatKernels& denseKernels() {
#if CPU_HAVE_X86_LEVELS
    static const DenseFloatKernels k = [] {
        DenseFloatKernels r = isa() == Isa::Avx512 ? RsDenseAvx512::get() : isa() == Isa::Avx2 ? RsDenseAvx2::get() : RsDenseBase::get();
        if (isa() == Isa::Avx512) r.prod = prodAvx512Native;
        return r;
    }();
#else
    static const DenseFloatKernels k = RsDenseBase::get();
#endif
    return k;
}

/// Sum of a window, accumulated in wide_t<T>; a dense float window adds in
/// float lanes per block of 256 and blocks in double (sumBody).
template <class T>
wide_t<T> windowSum(const char* base, const ReduceWindow& w) {
    using W = wide_t<T>;
    if constexpr (std::is_same_v<T, float>) {
        if (denseWindow(w, sizeof(float))) return denseKernels().sum[0](reinterpret_cast<const float*>(base), w.sizes[0]);
    }
    W acc = 0;
    eachValue<T>(base, w, [&](auto v) { acc += W(v); });
    return acc;
}

/// Reduction output checked and seen with the keepdim shape.
TensorView reductionOut(const TensorView& out, const TensorView& in, const std::vector<bool>& mask, const char* name) {
    return asKeepdim(out, in, mask, name);
}

/// Fails when some output position would reduce an empty window (no identity).
void checkNonEmptyWindow(const TensorView& in, const std::vector<bool>& mask, const char* what) {
    Shape kept = keptShape(in, mask);
    if (shapeNumel(kept) == 0) return;
    for (size_t d = 0; d < mask.size(); ++d)
        if (mask[d] && in.shape[d] == 0) fail("cannot compute ", what, " over an empty dimension (no identity)");
}

// ---------------------------------------------------------------- value reductions
// An op is an object with init() (identity), step(acc, v) and merge(acc, acc),
// v in acc_t<T>; written branch-free so the compiler can vectorise the lanes.

// Ops with a dense float kernel say so: kDenseFloat (max/min, kIsMax, kAbs),
// kDenseSumKind (0: sum, 1: sum of |v|, 2: sum of v^2; -1: none), kDenseProd.
template <class Op, class = void>
struct HasDenseFloat : std::false_type {};
template <class Op>
struct HasDenseFloat<Op, std::void_t<decltype(Op::kDenseFloat)>> : std::true_type {};
template <class Op, class = void>
struct DenseSumKind : std::integral_constant<int, -1> {};
template <class Op>
struct DenseSumKind<Op, std::void_t<decltype(Op::kDenseSumKind)>> : std::integral_constant<int, Op::kDenseSumKind> {};
template <class Op, class = void>
struct HasDenseProd : std::false_type {};
template <class Op>
struct HasDenseProd<Op, std::void_t<decltype(Op::kDenseProd)>> : std::true_type {};

/// One dense run: eight independent lanes (vectorisable), or an op's own float kernel.
template <class T, class Op>
auto denseAcc(const T* p, int64_t n, const Op& op) {
    using A = acc_t<T>;
    using Acc = decltype(op.init());
    if constexpr (std::is_same_v<T, float> && HasDenseFloat<Op>::value) {
        return Acc(denseKernels().extreme[Op::kIsMax][Op::kAbs](p, n));
    } else if constexpr (std::is_same_v<T, float> && DenseSumKind<Op>::value >= 0) {
        return Acc(denseKernels().sum[DenseSumKind<Op>::value](p, n));
    } else if constexpr (std::is_same_v<T, float> && HasDenseProd<Op>::value) {
        return Acc(denseKernels().prod(p, n));
    } else {
        Acc lane[8];
        for (auto& l : lane) l = op.init();
        int64_t i = 0;
        for (; i + 8 <= n; i += 8)
            for (int l = 0; l < 8; ++l) lane[l] = op.step(lane[l], A(p[i + l]));
        Acc r = lane[0];
        for (int l = 1; l < 8; ++l) r = op.merge(r, lane[l]);
        for (; i < n; ++i) r = op.step(r, A(p[i]));
        return r;
    }
}

/// Accumulates one window; a long dense window (a full reduction) is split
/// across threads, partial results merged in order.
template <class T, class Op>
auto accWindow(const char* base, const ReduceWindow& w, const Op& op) {
    using A = acc_t<T>;
    using Acc = decltype(op.init());
    if (denseWindow(w, sizeof(T))) {
        const T* p = reinterpret_cast<const T*>(base);
        const int64_t n = w.sizes[0];
        constexpr int64_t kMaxChunks = 64;
        const int64_t chunks = std::min<int64_t>(kMaxChunks, n / kParallelGrain);
        if (chunks < 2) return denseAcc<T>(p, n, op);
        Acc part[kMaxChunks];
        parallelFor(chunks, 1, [&](int64_t b, int64_t e) {
            for (int64_t c = b; c < e; ++c) part[c] = denseAcc<T>(p + n * c / chunks, n * (c + 1) / chunks - n * c / chunks, op);
        });
        Acc r = part[0];
        for (int64_t c = 1; c < chunks; ++c) r = op.merge(r, part[c]);
        return r;
    }
    Acc r = op.init();
    eachValue<T>(base, w, [&](A v) { r = op.step(r, v); });
    return r;
}

/// A contiguous input whose reduced dims form one block followed by kept
/// dims: seen as [outer, R, inner] with inner > 1 (e.g. a sum over dim 0).
struct ColumnPlan {
    bool ok = false;
    int64_t outer = 1, r = 1, inner = 1;
};

ColumnPlan columnPlan(const TensorView& in, const std::vector<bool>& mask) {
    ColumnPlan c;
    if (!in.isContiguous() || in.numel == 0) return c;
    int phase = 0;  // 0: before the reduced block, 1: inside, 2: after
    for (int64_t d = 0; d < in.dim(); ++d) {
        const int64_t sz = in.shape[d];
        if (sz == 1) continue;
        if (mask[d]) {
            if (phase == 2) return c;
            phase = 1;
            c.r *= sz;
        } else if (phase == 0) {
            c.outer *= sz;
        } else {
            phase = 2;
            c.inner *= sz;
        }
    }
    c.ok = phase == 2 && c.inner > 1;
    return c;
}

/// out[pos] = fin(reduction of op over pos's window), for every kept position.
/// `o` is the keepdim view of the output (element type O); fin must not throw.
template <class T, class O, class Op, class Fin>
void reduceValues(const TensorView& o, const TensorView& in, const std::vector<bool>& mask, const Op& op, Fin fin) {
    using A = acc_t<T>;
    using Acc = decltype(op.init());
    ColumnPlan c = columnPlan(in, mask);
    if (c.ok && o.isContiguous()) {
        // Walk rows of the reduced block, updating a strip of accumulators (unit stride).
        constexpr int64_t kStrip = 256;
        const int64_t strips = (c.inner + kStrip - 1) / kStrip;
        const T* x = in.ptr<T>();
        O* out = o.ptr<O>();
        const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, c.r * kStrip));
        parallelFor(c.outer * strips, grain, [&](int64_t b, int64_t e) {
            Acc acc[kStrip];
            for (int64_t t = b; t < e; ++t) {
                const int64_t oi = t / strips, i0 = (t % strips) * kStrip;
                const int64_t len = std::min(kStrip, c.inner - i0);
                for (int64_t i = 0; i < len; ++i) acc[i] = op.init();
                const T* row = x + oi * c.r * c.inner + i0;
                if constexpr (std::is_same_v<T, float> && HasDenseFloat<Op>::value) {
                    if constexpr (!Op::kAbs) {
                        const auto step = denseKernels().colExtreme[Op::kIsMax];
                        for (int64_t r = 0; r < c.r; ++r, row += c.inner) step(acc, row, len);
                    } else {
                        for (int64_t r = 0; r < c.r; ++r, row += c.inner)
                            for (int64_t i = 0; i < len; ++i) acc[i] = op.step(acc[i], A(row[i]));
                    }
                } else {
                    for (int64_t r = 0; r < c.r; ++r, row += c.inner)
                        for (int64_t i = 0; i < len; ++i) acc[i] = op.step(acc[i], A(row[i]));
                }
                O* dst = out + oi * c.inner + i0;
                for (int64_t i = 0; i < len; ++i) dst[i] = fin(acc[i]);
            }
        });
        return;
    }
    reduceLoop<1>({&o}, in, mask, [&](char** po, const char* base, const ReduceWindow& w) {
        *reinterpret_cast<O*>(po[0]) = fin(accWindow<T>(base, w, op));
    });
}

template <class T>
struct SumOp {
    static constexpr int kDenseSumKind = 0;
    using W = wide_t<T>;
    W init() const { return 0; }
    W step(W a, acc_t<T> v) const { return a + W(v); }
    W merge(W a, W b) const { return a + b; }
};

template <class T>
struct ProdOp {
    // Integers wrap around (unsigned arithmetic keeps it defined).
    static constexpr bool kDenseProd = true;
    using W = std::conditional_t<is_floating_v<T>, double, uint64_t>;
    W init() const { return 1; }
    W step(W a, acc_t<T> v) const {
        if constexpr (is_floating_v<T>) return a * double(v);
        else return a * (uint64_t)(int64_t)v;
    }
    W merge(W a, W b) const { return a * b; }
};

/// max (IsMax) or min; a NaN, once met, sticks.
template <class T, bool IsMax>
struct ExtremeOp {
    using A = acc_t<T>;
    static constexpr bool kDenseFloat = true, kIsMax = IsMax, kAbs = false;
    A init() const {
        if constexpr (std::is_same_v<A, bool>) return !IsMax;
        else if constexpr (std::is_floating_point_v<A>) return IsMax ? -std::numeric_limits<A>::infinity() : std::numeric_limits<A>::infinity();
        else return IsMax ? std::numeric_limits<A>::lowest() : std::numeric_limits<A>::max();
    }
    A step(A a, A v) const {
        bool take = IsMax ? (v > a) : (v < a);
        if constexpr (std::is_floating_point_v<A>) take = take || (v != v);
        return take ? v : a;
    }
    A merge(A a, A b) const { return step(a, b); }
};

template <class T, bool Any>
struct AnyAllOp {
    bool init() const { return !Any; }
    bool step(bool a, acc_t<T> v) const { return Any ? (a || v != acc_t<T>(0)) : (a && v != acc_t<T>(0)); }
    bool merge(bool a, bool b) const { return Any ? (a || b) : (a && b); }
};

// ---------------------------------------------------------------- sum / mean / prod
enum class SumKind { Sum, Mean };

template <SumKind K>
void sumLike(diopiContextHandle_t ctx, const TensorView& out, TensorView in, const std::vector<bool>& mask) {
    if constexpr (K == SumKind::Mean) checkFloat(out, "out");
    TensorView o = reductionOut(out, in, mask, "out");
    // The output's dtype is the accumulation/result type (torch.sum(..., dtype=out.dtype)).
    in = castTo(ctx, in, out.dtype);
    const ReduceWindow win = makeWindow(in, mask);
    const double count = (double)win.numel;
    dispatch<NumericBoolTypes>(out.dtype, "out", [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (K == SumKind::Mean) {
            reduceValues<T, T>(o, in, mask, SumOp<T>{}, [count](wide_t<T> s) { return convert<T>(double(s) / count); });
        } else if constexpr (std::is_same_v<T, float>) {
            // float sums: lanes of float within blocks, blocks in double (see windowSum).
            ColumnPlan c = columnPlan(in, mask);
            if (c.ok && o.isContiguous()) {
                reduceValues<T, T>(o, in, mask, SumOp<T>{}, [](double s) { return float(s); });
            } else {
                reduceLoop<1>({&o}, in, mask, [&](char** po, const char* base, const ReduceWindow& w) {
                    *reinterpret_cast<float*>(po[0]) = float(windowSum<float>(base, w));
                });
            }
        } else {
            reduceValues<T, T>(o, in, mask, SumOp<T>{}, [](wide_t<T> s) { return convert<T>(s); });
        }
    });
}

// ---------------------------------------------------------------- max / min
/// True when v should replace best: strictly better, or a NaN (which wins).
template <bool IsMax, class A>
inline bool better(A v, A best) {
    if constexpr (IsMax) return !(v <= best);
    else return !(v >= best);
}

template <class A>
inline bool isNan(A v) {
    if constexpr (std::is_floating_point_v<A>) return std::isnan(v);
    else return false;
}

/// Position (row-major in the window) and value of the first extreme, NaN first.
template <bool IsMax, class T>
inline std::pair<acc_t<T>, int64_t> windowExtreme(const char* base, const ReduceWindow& w) {
    using A = acc_t<T>;
    A best = A(*reinterpret_cast<const T*>(base));
    int64_t at = 0;
    if (isNan(best)) return {best, 0};
    if (denseWindow(w, sizeof(T))) {
        const T* p = reinterpret_cast<const T*>(base);
        const int64_t n = w.sizes[0];
        for (int64_t k = 1; k < n; ++k) {
            A v = A(p[k]);
            if (better<IsMax>(v, best)) {
                best = v;
                at = k;
                if (isNan(v)) break;
            }
        }
        return {best, at};
    }
    bool stop = false;
    w.each(base, [&](const char* p, int64_t k) {
        if (stop) return;
        A v = A(*reinterpret_cast<const T*>(p));
        if (better<IsMax>(v, best)) {
            best = v;
            at = k;
            if (isNan(v)) stop = true;
        }
    });
    return {best, at};
}

/// Whether an index output (int32 or int64) is int64; fails for other dtypes.
/// Indices are stored through a branch per output position rather than a
/// kernel per index dtype (which doubled the max/min/argmax instantiations).
bool indexIs64(diopiDtype_t dt, const char* what) {
    bool i64 = false;
    dispatch<IndexTypes>(dt, what, [&](auto tag) { i64 = std::is_same_v<typename decltype(tag)::type, int64_t>; });
    return i64;
}
inline void storeIndex(char* p, bool i64, int64_t v) {
    if (i64) *reinterpret_cast<int64_t*>(p) = v;
    else *reinterpret_cast<int32_t*>(p) = int32_t(v);
}

template <bool IsMax>
void maxMinDim(diopiContextHandle_t ctx, const TensorView& values, const TensorView& indices, TensorView in, int64_t dim) {
    auto mask = reduceMask(in, std::vector<int64_t>{dim});
    checkNonEmptyWindow(in, mask, IsMax ? "max" : "min");
    TensorView ov = reductionOut(values, in, mask, IsMax ? "max" : "min");
    TensorView oi = reductionOut(indices, in, mask, IsMax ? "max_indices" : "min_indices");
    CPU_CHECK(ov.shape == oi.shape, "values and indices shapes differ");
    in = castTo(ctx, in, values.dtype);
    const bool i64 = indexIs64(indices.dtype, "indices");
    dispatch<NumericBoolTypes>(values.dtype, IsMax ? "max" : "min", [&](auto tag) {
        using T = typename decltype(tag)::type;
        reduceLoop<2>({&ov, &oi}, in, mask, [&](char** po, const char* base, const ReduceWindow& w) {
            auto r = windowExtreme<IsMax, T>(base, w);
            *reinterpret_cast<T*>(po[0]) = T(r.first);
            storeIndex(po[1], i64, r.second);
        });
    });
}

template <bool IsMax>
void maxMinAll(diopiContextHandle_t ctx, const TensorView& out, TensorView in) {
    CPU_CHECK(in.numel > 0, IsMax ? "max" : "min", " of an empty tensor");
    CPU_CHECK(out.numel == 1, "output must have one element, got shape ", shapeStr(out.shape));
    auto mask = reduceMask(in, std::vector<int64_t>{});
    TensorView o = reductionOut(out, in, mask, IsMax ? "max" : "min");
    in = castTo(ctx, in, out.dtype);
    dispatch<NumericBoolTypes>(out.dtype, IsMax ? "max" : "min", [&](auto tag) {
        using T = typename decltype(tag)::type;
        reduceValues<T, T>(o, in, mask, ExtremeOp<T, IsMax>{}, [](acc_t<T> v) { return T(v); });
    });
}

template <bool IsMax>
void argExtreme(const TensorView& out, const TensorView& in, const int64_t* dim, bool keepdim) {
    auto mask = reduceMask(in, dimsOf(dim));
    CPU_CHECK(in.numel > 0 || dim != nullptr, "arg", IsMax ? "max" : "min", " of an empty tensor");
    checkNonEmptyWindow(in, mask, IsMax ? "argmax" : "argmin");
    Shape expect = keepdim ? keptShape(in, mask) : (dim ? squeezedShape(in, mask) : Shape{});
    CPU_CHECK(out.shape == expect || (out.numel == 1 && shapeNumel(expect) == 1), "out has shape ", shapeStr(out.shape), ", expected ",
              shapeStr(expect));
    TensorView o = reductionOut(out, in, mask, "out");
    const bool i64 = indexIs64(out.dtype, "out");
    dispatch<NumericBoolTypes>(in.dtype, "input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        reduceLoop<1>({&o}, in, mask, [&](char** po, const char* base, const ReduceWindow& w) {
            storeIndex(po[0], i64, windowExtreme<IsMax, T>(base, w).second);
        });
    });
}

// ---------------------------------------------------------------- any / all
template <bool Any>
void anyAll(diopiContextHandle_t ctx, const TensorView& out, const TensorView& in, const int64_t* dim) {
    auto mask = reduceMask(in, dimsOf(dim));
    TensorView o = reductionOut(out, in, mask, "out");
    // Reduced into bool, then converted to out's dtype when that is another one: the result is
    // 0 or 1 either way, and a kernel per (input, output) dtype pair cost 200 instantiations.
    dispatch<NumericBoolTypes>(out.dtype, "out", [](auto) {});  // out's dtype must be one of these
    TensorView r = out.dtype == diopi_dtype_bool ? o : newTensor(ctx, o.shape, diopi_dtype_bool);
    dispatch<NumericBoolTypes>(in.dtype, "input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        // NaN counts as non-zero; an empty window gives the identity (any: false, all: true).
        reduceValues<T, bool>(r, in, mask, AnyAllOp<T, Any>{}, [](bool v) { return v; });
    });
    if (r.data != o.data) copyCast(o, r);
}

// ---------------------------------------------------------------- norm
enum class NormKind { Zero, One, Two, Inf, NegInf, General };

NormKind normKind(double p) {
    if (p == 0) return NormKind::Zero;
    if (p == 1) return NormKind::One;
    if (p == 2) return NormKind::Two;
    if (std::isinf(p)) return p > 0 ? NormKind::Inf : NormKind::NegInf;
    return NormKind::General;
}

/// sum of f(|x|) in double (p = 0, 1, 2, general p).
template <class T, NormKind K>
struct NormSumOp {
    static constexpr int kDenseSumKind = K == NormKind::One ? 1 : K == NormKind::Two ? 2 : -1;
    double p = 2;
    double init() const { return 0; }
    double step(double a, acc_t<T> v) const {
        double x = double(v);
        if constexpr (K == NormKind::Zero) return a + (x != 0 ? 1.0 : 0.0);
        else if constexpr (K == NormKind::One) return a + std::fabs(x);
        else if constexpr (K == NormKind::Two) return a + x * x;
        else return a + std::pow(std::fabs(x), p);
    }
    double merge(double a, double b) const { return a + b; }
};

/// max (or min) of |x|, NaN sticky.
template <class T, bool IsMax>
struct AbsExtremeOp : ExtremeOp<T, IsMax> {
    static constexpr bool kAbs = true;
    acc_t<T> step(acc_t<T> a, acc_t<T> v) const { return ExtremeOp<T, IsMax>::step(a, std::fabs(v)); }
};

template <class T>
void normReduce(const TensorView& o, const TensorView& in, const std::vector<bool>& mask, double p) {
    auto toT = [](double v) { return convert<T>(v); };
    switch (normKind(p)) {
        case NormKind::Zero: reduceValues<T, T>(o, in, mask, NormSumOp<T, NormKind::Zero>{}, toT); break;
        case NormKind::One: reduceValues<T, T>(o, in, mask, NormSumOp<T, NormKind::One>{}, toT); break;
        case NormKind::Two:
            reduceValues<T, T>(o, in, mask, NormSumOp<T, NormKind::Two>{}, [](double v) { return convert<T>(std::sqrt(v)); });
            break;
        case NormKind::Inf: reduceValues<T, T>(o, in, mask, AbsExtremeOp<T, true>{}, [](acc_t<T> v) { return T(v); }); break;
        case NormKind::NegInf: reduceValues<T, T>(o, in, mask, AbsExtremeOp<T, false>{}, [](acc_t<T> v) { return T(v); }); break;
        case NormKind::General:
            reduceValues<T, T>(o, in, mask, NormSumOp<T, NormKind::General>{p}, [p](double v) { return convert<T>(std::pow(v, 1.0 / p)); });
            break;
    }
}

/// Number of rows when the reduced dims of `in` are exactly its trailing dims
/// (each output position owns one contiguous row of a dense input); -1 otherwise.
int64_t trailingRows(const TensorView& in, const std::vector<bool>& mask) {
    int64_t rows = 1;
    bool reduced = false;
    for (int64_t d = 0; d < in.dim(); ++d) {
        if (mask[d]) reduced = true;
        else if (reduced && in.shape[d] != 1) return -1;
        else if (!reduced) rows *= in.shape[d];
    }
    return rows;
}

// ---------------------------------------------------------------- cumsum
template <bool Reverse>
void cumsumLines(const TensorView& out, const TensorView& in, int64_t dim) {
    const int64_t d = out.wrapDim(dim);
    const int64_t n = out.dim() ? out.shape[d] : 1;
    const int64_t so = out.dim() ? out.strides[d] : 0, si = in.dim() ? in.strides[d] : 0;
    dispatch<NumericBoolTypes>(out.dtype, "out", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using W = wide_t<T>;
        lineLoop<2>({&out, &in}, d, [&](char** b) {
            T* o = reinterpret_cast<T*>(b[0]);
            const T* x = reinterpret_cast<const T*>(b[1]);
            W acc = 0;
            for (int64_t j = 0; j < n; ++j) {
                int64_t k = Reverse ? n - 1 - j : j;
                if constexpr (std::is_integral_v<W>) {
                    acc = (int64_t)((uint64_t)acc + (uint64_t)convert<int64_t>(x[k * si]));
                } else {
                    acc += double(acc_t<T>(x[k * si]));
                }
                o[k * so] = convert<T>(acc);
            }
        });
    });
}

}  // namespace

// ---------------------------------------------------------------- exported kernels
diopiError_t diopiSum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dim) {
    return guard(__func__, [&] {
        TensorView in = view(input, "input");
        sumLike<SumKind::Sum>(ctx, view(out, "out"), in, reduceMask(in, dim));
    });
}

diopiError_t diopiMean(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dim) {
    return guard(__func__, [&] {
        TensorView in = view(input, "input");
        sumLike<SumKind::Mean>(ctx, view(out, "out"), in, reduceMask(in, dim));
    });
}

diopiError_t diopiStd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dim,
                      const diopiScalar_t* correction) {
    return guard(__func__, [&] {
        TensorView o0 = view(out, "out"), in = view(input, "input");
        checkFloat(in, "input");
        checkFloat(o0, "out");
        // NULL correction means Bessel's correction.
        const double corr = correction ? scalarDouble(correction, "correction") : 1.0;
        auto mask = reduceMask(in, dim);
        TensorView o = reductionOut(o0, in, mask, "out");
        in = castTo(ctx, in, o0.dtype);
        const ReduceWindow win = makeWindow(in, mask);
        const double n = (double)win.numel;
        const double denom = std::max(0.0, n - corr);
        dispatch<FloatTypes>(o0.dtype, "out", [&](auto tag) {
            using T = typename decltype(tag)::type;
            reduceLoop<1>({&o}, in, mask, [&](char** po, const char* base, const ReduceWindow& w) {
                // Two passes (mean, then squared deviations) in double for accuracy.
                double mean = double(windowSum<T>(base, w)) / n;
                double m2 = 0;
                eachValue<T>(base, w, [&](auto v) {
                    double dv = double(v) - mean;
                    m2 += dv * dv;
                });
                *reinterpret_cast<T*>(po[0]) = convert<T>(std::sqrt(m2 / denom));
            });
        });
    });
}

diopiError_t diopiProd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim) {
    return guard(__func__, [&] {
        TensorView o0 = view(out, "out"), in = view(input, "input");
        auto mask = reduceMask(in, dimsOf(dim));
        TensorView o = reductionOut(o0, in, mask, "out");
        in = castTo(ctx, in, o0.dtype);
        dispatch<NumericBoolTypes>(o0.dtype, "out", [&](auto tag) {
            using T = typename decltype(tag)::type;
            // Integer products wrap around like int64 arithmetic, then narrow to out.
            reduceValues<T, T>(o, in, mask, ProdOp<T>{}, [](typename ProdOp<T>::W v) {
                if constexpr (is_floating_v<T>) return convert<T>(v);
                else return convert<T>((int64_t)v);
            });
        });
    });
}

diopiError_t diopiNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* p,
                       diopiSize_t dim) {
    return guard(__func__, [&] {
        TensorView o0 = view(out, "out"), in = view(input, "input");
        checkFloat(o0, "out");
        const double pv = p ? scalarDouble(p, "p") : 2.0;  // NULL p: Euclidean norm
        CPU_CHECK(!std::isnan(pv), "p must not be NaN");
        auto mask = reduceMask(in, dim);
        if (std::isinf(pv)) checkNonEmptyWindow(in, mask, "an infinity norm");
        TensorView o = reductionOut(o0, in, mask, "out");
        in = castTo(ctx, in, o0.dtype);
        dispatch<FloatTypes>(o0.dtype, "out", [&](auto tag) {
            using T = typename decltype(tag)::type;
            normReduce<T>(o, in, mask, pv);
        });
    });
}

diopiError_t diopiNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t self, diopiConstTensorHandle_t norm, diopiSize_t dim, const diopiScalar_t* p) {
    return guard(__func__, [&] {
        TensorView gi = view(grad_input, "grad_input"), x = view(self, "self");
        TensorView go0 = view(grad_output, "grad_output"), n0 = view(norm, "norm");
        checkFloat(gi, "grad_input");
        CPU_CHECK(gi.shape == x.shape, "grad_input shape ", shapeStr(gi.shape), " differs from self shape ", shapeStr(x.shape));
        const double pv = p ? scalarDouble(p, "p") : 2.0;
        CPU_CHECK(!std::isnan(pv), "p must not be NaN");
        auto mask = reduceMask(x, dim);
        // grad_output and norm in keepdim form: they broadcast over the reduced dims.
        TensorView go = castTo(ctx, reductionOut(go0, x, mask, "grad_output"), gi.dtype);
        TensorView nv = castTo(ctx, reductionOut(n0, x, mask, "norm"), gi.dtype);
        x = castTo(ctx, x, gi.dtype);
        dispatch<FloatTypes>(gi.dtype, "grad_input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            auto sgn = [](A v) { return v > 0 ? A(1) : (v < 0 ? -A(1) : (std::isnan(v) ? v : A(0))); };
            if (pv == 0) {
                fillWith<T>(gi, T(A(0)));
            } else if (pv == 1) {
                ternaryLoop<T, T, T, T>(gi, x, go, nv, [sgn](T a, T g, T) { return T(sgn(A(a)) * A(g)); });
            } else if (pv == 2 && trailingRows(x, mask) >= 0 && x.isContiguous() && gi.isContiguous()) {
                // Reduced dims trailing and dense: per row r of K values, grad = x * (g_r / n_r).
                const int64_t R = trailingRows(x, mask), K = R ? x.numel / R : 0;
                TensorView gd = newTensor(ctx, keptShape(x, mask), gi.dtype), nd = newTensor(ctx, keptShape(x, mask), gi.dtype);
                copyCast(gd, go);
                copyCast(nd, nv);
                const T *xp = x.ptr<T>(), *gp = gd.ptr<T>(), *np = nd.ptr<T>();
                T* op = gi.ptr<T>();
                parallelFor(R, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, K)), [&](int64_t rb, int64_t re) {
                    for (int64_t r = rb; r < re; ++r) {
                        const A n = A(np[r]), sc = n == 0 ? A(0) : A(gp[r]) / n;
                        const T* xr = xp + r * K;
                        T* orow = op + r * K;
                        for (int64_t k = 0; k < K; ++k) orow[k] = T(A(xr[k]) * sc);
                    }
                });
            } else if (pv == 2) {
                ternaryLoop<T, T, T, T>(gi, x, go, nv, [](T a, T g, T nn) {
                    A n = A(nn);
                    return T(n == 0 ? A(0) : A(a) * (A(g) / n));
                });
            } else if (std::isinf(pv)) {
                // The gradient goes to the elements that attain the norm, shared among ties (NaN counts as attaining).
                TensorView cnt = newTensor(ctx, keptShape(x, mask), dtypeOf<A>());
                reduceLoop<2>({&cnt, &nv}, x, mask, [&](char** po, const char* base, const ReduceWindow& w) {
                    A nn = A(*reinterpret_cast<const T*>(po[1]));
                    A c = 0;
                    eachValue<T>(base, w, [&](auto v) {
                        A a = std::fabs(A(v));
                        if (a == nn || std::isnan(a)) c += 1;
                    });
                    *reinterpret_cast<A*>(po[0]) = c;
                });
                elementwise<T, T, T, T, A>(gi, {&x, &go, &nv, &cnt}, [sgn](T a, T g, T nn, A c) {
                    A av = std::fabs(A(a));
                    bool hit = av == A(nn) || std::isnan(av);
                    return T(hit ? sgn(A(a)) * (A(g) / c) : A(0));
                });
            } else {
                const A pf = A(pv);
                ternaryLoop<T, T, T, T>(gi, x, go, nv, [pf, sgn](T a, T g, T nn) {
                    A v = A(a), n = A(nn);
                    A scaled = pf < 1 ? (v == 0 ? A(0) : sgn(v) * std::pow(std::fabs(v), pf - 1))
                                          : v * std::pow(std::fabs(v), pf - 2);
                    return T(n == 0 ? A(0) : scaled * (A(g) / std::pow(n, pf - 1)));
                });
            }
        });
    });
}

diopiError_t diopiAmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t self, diopiSize_t dim, bool keepdim) {
    return guard(__func__, [&] {
        TensorView o0 = view(out, "out"), in = view(self, "self");
        auto mask = reduceMask(in, dim);
        checkNonEmptyWindow(in, mask, "amax");
        Shape expect = keepdim ? keptShape(in, mask) : squeezedShape(in, mask);
        CPU_CHECK(o0.shape == expect, "out has shape ", shapeStr(o0.shape), ", expected ", shapeStr(expect));
        TensorView o = reductionOut(o0, in, mask, "out");
        in = castTo(ctx, in, o0.dtype);
        dispatch<NumericBoolTypes>(o0.dtype, "out", [&](auto tag) {
            using T = typename decltype(tag)::type;
            reduceValues<T, T>(o, in, mask, ExtremeOp<T, true>{}, [](acc_t<T> v) { return T(v); });
        });
    });
}

diopiError_t diopiMax(diopiContextHandle_t ctx, diopiTensorHandle_t max, diopiTensorHandle_t max_indices, diopiConstTensorHandle_t input,
                      int64_t dim) {
    return guard(__func__, [&] { maxMinDim<true>(ctx, view(max, "max"), view(max_indices, "max_indices"), view(input, "input"), dim); });
}

diopiError_t diopiMin(diopiContextHandle_t ctx, diopiTensorHandle_t min, diopiTensorHandle_t min_indices, diopiConstTensorHandle_t input,
                      int64_t dim) {
    return guard(__func__, [&] { maxMinDim<false>(ctx, view(min, "min"), view(min_indices, "min_indices"), view(input, "input"), dim); });
}

diopiError_t diopiMaxAll(diopiContextHandle_t ctx, diopiTensorHandle_t max, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { maxMinAll<true>(ctx, view(max, "max"), view(input, "input")); });
}

diopiError_t diopiMinAll(diopiContextHandle_t ctx, diopiTensorHandle_t min, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { maxMinAll<false>(ctx, view(min, "min"), view(input, "input")); });
}

diopiError_t diopiAny(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim) {
    return guard(__func__, [&] { anyAll<true>(ctx, view(out, "out"), view(input, "input"), dim); });
}

diopiError_t diopiAll(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim) {
    return guard(__func__, [&] { anyAll<false>(ctx, view(out, "out"), view(input, "input"), dim); });
}

diopiError_t diopiArgmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim, bool keepdim) {
    return guard(__func__, [&] { argExtreme<true>(view(out, "out"), view(input, "input"), dim, keepdim); });
}

diopiError_t diopiArgmin(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim, bool keepdim) {
    return guard(__func__, [&] { argExtreme<false>(view(out, "out"), view(input, "input"), dim, keepdim); });
}

diopiError_t diopiCumsum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        CPU_CHECK(o.shape == in.shape, "out shape ", shapeStr(o.shape), " differs from input shape ", shapeStr(in.shape));
        in.wrapDim(dim);
        // Accumulates in the output's dtype, as torch.cumsum(input, dim, dtype=out.dtype).
        in = castTo(ctx, in, o.dtype);
        cumsumLines<false>(o, in, dim);
    });
}

diopiError_t diopiCumsumBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output, int64_t dim) {
    return guard(__func__, [&] {
        TensorView gi = view(grad_input, "grad_input"), go = view(grad_output, "grad_output");
        checkFloat(gi, "grad_input");
        CPU_CHECK(gi.shape == go.shape, "grad_input shape ", shapeStr(gi.shape), " differs from grad_output shape ", shapeStr(go.shape));
        go.wrapDim(dim);
        go = castTo(ctx, go, gi.dtype);
        // The gradient of a prefix sum is the suffix sum of the gradient.
        cumsumLines<true>(gi, go, dim);
    });
}

}  // namespace impl::cpu
