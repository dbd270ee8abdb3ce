// Family loss: elementwise losses (mse, smooth L1, bce, bce with logits,
// sigmoid focal), class losses (nll, cross entropy), CTC; forward and backward.
//
// Every loss computes in calc_t<T>: double for float64, float for float32 and
// the 16-bit floats (rounded once when writing). Elementwise losses broadcast
// their inputs to a common shape and backward sums a broadcast gradient back
// to input's shape. The float formulas use the branch-free exp/log below,
// which vectorise; their hot loops are compiled once per instruction-set level.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <type_traits>
#include <cmath>
#include <vector>

#include "common/common.hpp"
#include "common/fastmath.hpp"

namespace impl::cpu {

namespace {

/// Type a loss computes in: double for float64, float otherwise.
template <class T>
using calc_t = acc_t<T>;

enum class Red { None, Mean, Sum };

Red reductionOf(diopiReduction_t r) {
    switch (r) {
        case ReductionNone: return Red::None;
        case ReductionMean: return Red::Mean;
        case ReductionSum: return Red::Sum;
        default: fail("reduction must be ReductionNone, ReductionMean or ReductionSum, got ", int(r));
    }
}

void needFloat(const TensorView& t, const char* name) {
    if (!isFloatingDtype(t.dtype)) failCode(diopiDtypeNotSupported, name, " must be floating point, got ", dtypeName(t.dtype));
}

/// A reduced loss goes to a single-element output (0-d, or any shape of one element).
void checkScalarOut(const TensorView& out, const char* name) {
    CPU_CHECK(out.numel == 1, name, " must hold one element for mean/sum reduction, got shape ", shapeStr(out.shape));
}

// ---------------------------------------------------------------- float math
// Branch-free float forms (selects instead of branches) that GCC vectorises
// when inlined into an array loop; the double forms call libm (float64 is for
// accuracy, not speed). Candidates for common/fastmath.hpp (logF, log1pF).

/// log(x) for float, within about 1 ulp: x = 2^e * m with m in [sqrt(1/2), sqrt(2)),
/// log(m) by a polynomial in m - 1. Subnormals are scaled first; 0 gives -inf,
/// negatives NaN, +inf stays +inf, NaN stays NaN.
CPU_FORCE_INLINE float logF(float x) {
    const bool sub = __builtin_isless(x, 1.17549435e-38f);
    const float xs = selectF(sub, x * 8388608.0f, x);  // * 2^23
    uint32_t b = floatAsBits(xs);
    int32_t e = (int32_t)(b >> 23) - 126;
    float m = bitsAsFloat((b & 0x007fffffu) | 0x3f000000u);  // [0.5, 1)
    const bool lo = __builtin_isless(m, 0.707106781186547524f);
    e -= (int32_t)lo;
    m = selectF(lo, m + m, m) - 1.0f;
    const float z = m * m;
    float y = 7.0376836292e-2f;
    y = y * m - 1.1514610310e-1f;
    y = y * m + 1.1676998740e-1f;
    y = y * m - 1.2420140846e-1f;
    y = y * m + 1.4249322787e-1f;
    y = y * m - 1.6668057665e-1f;
    y = y * m + 2.0000714765e-1f;
    y = y * m - 2.4999993993e-1f;
    y = y * m + 3.3333331174e-1f;
    y = y * m * z;
    const float fe = (float)(e - 23 * (int32_t)sub);
    y += -2.12194440e-4f * fe;
    y += -0.5f * z;
    float r = m + y + 0.693359375f * fe;
    r = selectF(__builtin_isless(x, 0.0f), __builtin_nanf(""), r);
    r = selectF(x == 0.0f, -__builtin_inff(), r);
    r = selectF(x == __builtin_inff(), x, r);
    return selectF(__builtin_isnan(x), x, r);
}

/// log(1 + u) for u >= -1 without losing small u: w = 1 + u is rounded, and
/// log(w) * u / (w - 1) corrects for that rounding (w == 1 means log1p(u) = u).
CPU_FORCE_INLINE float log1pF(float u) {
    const float w = 1.0f + u, d = w - 1.0f;
    const float r = logF(w) * (u / selectF(d == 0.0f, 1.0f, d));
    return selectF(d == 0.0f, u, selectF(__builtin_isinf(u), w, r));
}

template <class S>
CPU_FORCE_INLINE S expS(S x) {
    if constexpr (std::is_same_v<S, float>) return expF(x);
    else return std::exp(x);
}
template <class S>
CPU_FORCE_INLINE S logS(S x) {
    if constexpr (std::is_same_v<S, float>) return logF(x);
    else return std::log(x);
}
template <class S>
CPU_FORCE_INLINE S log1pS(S x) {
    if constexpr (std::is_same_v<S, float>) return log1pF(x);
    else return std::log1p(x);
}
/// c ? a : b, a blend for float.
template <class S>
CPU_FORCE_INLINE S sel(bool c, S a, S b) {
    if constexpr (std::is_same_v<S, float>) return selectF(c, a, b);
    else return c ? a : b;
}
/// u^g for u >= 0 and a general g (the common exponents are special-cased by the callers).
template <class S>
CPU_FORCE_INLINE S powS(S u, S g) {
    if constexpr (std::is_same_v<S, float>) {
        const float at0 = g == 0.0f ? 1.0f : (g > 0.0f ? 0.0f : __builtin_inff());  // loop-invariant
        return sel<S>(u == 0.0f, at0, expF(g * logF(u)));
    }
    else return std::pow(u, g);
}

// ---------------------------------------------------------------- elementwise loops
/// Elements per block of the dense paths.
constexpr int64_t kBlock = 512;

/// res[j] = f(v) with v[k] = src[k][j] (compute type S). The functor and
/// the pointers are copied to locals so that the compiler sees them constant.
template <class S, size_t N, class F>
CPU_FORCE_INLINE void evalBody(const S* const* src, int64_t n, S* res, const F& f0) {
    const F f = f0;
    const S* p[N];
    for (size_t k = 0; k < N; ++k) p[k] = src[k];
    for (int64_t j = 0; j < n; ++j) {
        S v[N];
        for (size_t k = 0; k < N; ++k) v[k] = p[k][j];
        res[j] = f(v);
    }
}
/// Sum of a block of values: sixteen lanes of S, returned in double.
template <class S>
double blockSum(const S* res, int64_t n) {
    constexpr int L = 16;
    S acc[L] = {};
    int64_t j = 0;
    for (; j + L <= n; j += L)
        for (int q = 0; q < L; ++q) acc[q] += res[j + q];
    double t = 0;
    for (; j < n; ++j) t += double(res[j]);
    for (int q = 0; q < L; ++q) t += double(acc[q]);
    return t;
}

template <class S, size_t N, class F>
void evalBase(const S* const* src, int64_t n, S* res, const F& f) { evalBody<S, N>(src, n, res, f); }
#if CPU_HAVE_X86_LEVELS
template <class S, size_t N, class F>
CPU_TARGET_AVX2 void evalAvx2(const S* const* src, int64_t n, S* res, const F& f) { evalBody<S, N>(src, n, res, f); }
template <class S, size_t N, class F>
CPU_TARGET_AVX512 void evalAvx512(const S* const* src, int64_t n, S* res, const F& f) { evalBody<S, N>(src, n, res, f); }
#endif

template <class S, size_t N, class F>
using EvalFn = void (*)(const S* const*, int64_t, S*, const F&);

/// The block kernels for the level in use; per-level code only for float.
template <class S, size_t N, class F>
EvalFn<S, N, F> pickEval() {
#if CPU_HAVE_X86_LEVELS
    if constexpr (std::is_same_v<S, float>) {
        if (isa() == Isa::Avx512) return evalAvx512<S, N, F>;
        if (isa() == Isa::Avx2) return evalAvx2<S, N, F>;
    }
#endif
    return evalBase<S, N, F>;
}
/// Period of an operand in out's row-major order when it is dense and its
/// shape (leading 1s dropped) is a suffix of `shape`: element i is p[i % period].
/// Covers dense same-shape operands, single elements (absent weights, reduced
/// grad_output) and per-class weights. 0 when it is none of those.
int64_t periodOf(const Shape& shape, const TensorView& t) {
    if (!t.isContiguous()) return 0;
    size_t lead = 0;
    while (lead < t.shape.size() && t.shape[lead] == 1) ++lead;
    const size_t rest = t.shape.size() - lead;
    if (rest > shape.size()) return 0;
    for (size_t d = 0; d < rest; ++d)
        if (t.shape[lead + d] != shape[shape.size() - rest + d]) return 0;
    return std::max<int64_t>(t.numel, 1);
}

template <size_t N>
bool periodic(const Shape& shape, const std::array<const TensorView*, N>& ins, std::array<int64_t, N>& period) {
    for (size_t k = 0; k < N; ++k)
        if ((period[k] = periodOf(shape, *ins[k])) == 0) return false;
    return true;
}

/// Points src[k] at elements [s, s + n) of operand k: straight into its data
/// when it holds them as S in a row, else converted into buf[k].
template <class T, class S, size_t N>
void loadBlock(const std::array<const TensorView*, N>& ins, const std::array<int64_t, N>& period, int64_t s, int64_t n,
               S (*buf)[kBlock], const S** src) {
    for (size_t k = 0; k < N; ++k) {
        const T* p = ins[k]->template ptr<T>();
        const int64_t per = period[k], off = s % per;
        if (per == 1) {
            const S v = S(p[0]);
            for (int64_t j = 0; j < n; ++j) buf[k][j] = v;
            src[k] = buf[k];
        } else if (off + n <= per) {
            if constexpr (std::is_same_v<T, S>) {
                src[k] = p + off;
            } else {
                for (int64_t j = 0; j < n; ++j) buf[k][j] = S(p[off + j]);
                src[k] = buf[k];
            }
        } else {
            // Wraps around the period: copy run by run (each run vectorises).
            int64_t o = off, j = 0;
            while (j < n) {
                const int64_t run = std::min(per - o, n - j);
                for (int64_t q = 0; q < run; ++q) buf[k][j + q] = S(p[o + q]);
                j += run;
                o = 0;
            }
            src[k] = buf[k];
        }
    }
}

/// out[i] = f(v) where v[k] is operand k's element in calc_t<T>; operands
/// broadcast to out's shape.
template <class T, size_t N, class F>
void mapLoss(const TensorView& out, const std::array<const TensorView*, N>& ins, const F& f) {
    using S = calc_t<T>;
    if (out.numel == 0) return;
    std::array<int64_t, N> period;
    if (out.isContiguous() && periodic(out.shape, ins, period)) {
        T* o = out.ptr<T>();
        const EvalFn<S, N, F> ev = pickEval<S, N, F>();
        parallelFor(out.numel, kParallelGrain, [&](int64_t b, int64_t e) {
            S buf[N][kBlock], res[kBlock];
            const S* src[N];
            for (int64_t s = b; s < e; s += kBlock) {
                const int64_t n = std::min(kBlock, e - s);
                loadBlock<T, S, N>(ins, period, s, n, buf, src);
                if constexpr (std::is_same_v<T, S>) {
                    ev(src, n, o + s, f);
                } else {
                    ev(src, n, res, f);
                    for (int64_t j = 0; j < n; ++j) o[s + j] = T(res[j]);
                }
            }
        });
        return;
    }
    std::array<const TensorView*, N + 1> ops;
    ops[0] = &out;
    for (size_t k = 0; k < N; ++k) ops[k + 1] = ins[k];
    StridedPlan<N + 1> plan(out.shape, ops);
    plan.runAll([&](char** p, int64_t n, const int64_t* s) {
        std::array<char*, N + 1> q;
        for (size_t k = 0; k <= N; ++k) q[k] = p[k];
        S v[N];
        for (int64_t i = 0; i < n; ++i) {
            for (size_t k = 0; k < N; ++k) v[k] = S(*reinterpret_cast<const T*>(q[k + 1]));
            *reinterpret_cast<T*>(q[0]) = T(f(v));
            for (size_t k = 0; k <= N; ++k) q[k] += s[k];
        }
    });
}

/// Sum over the broadcast shape of f(v), blocks accumulated in double; the
/// split into chunks does not depend on the thread count (reproducible sums).
template <class T, size_t N, class F>
double sumLoss(const Shape& shape, const std::array<const TensorView*, N>& ins, const F& f) {
    using S = calc_t<T>;
    int64_t numel = shapeNumel(shape);
    if (numel == 0) return 0.0;
    int64_t chunks = std::max<int64_t>(1, std::min<int64_t>(64, numel / kParallelGrain));
    std::vector<double> part(chunks, 0.0);
    std::array<int64_t, N> period;
    if (periodic(shape, ins, period)) {
        // Values block by block (the per-level kernel), then their sum.
        const EvalFn<S, N, F> ev = pickEval<S, N, F>();
        parallelFor(chunks, 2, [&](int64_t cb, int64_t ce) {
            S buf[N][kBlock], res[kBlock];
            const S* src[N];
            for (int64_t c = cb; c < ce; ++c) {
                double acc = 0;
                const int64_t b = numel * c / chunks, e = numel * (c + 1) / chunks;
                for (int64_t s = b; s < e; s += kBlock) {
                    const int64_t n = std::min(kBlock, e - s);
                    loadBlock<T, S, N>(ins, period, s, n, buf, src);
                    ev(src, n, res, f);
                    acc += blockSum<S>(res, n);
                }
                part[c] = acc;
            }
        });
    } else {
        StridedPlan<N> plan(shape, ins);
        parallelFor(chunks, 2, [&](int64_t cb, int64_t ce) {
            for (int64_t c = cb; c < ce; ++c) {
                double acc = 0.0;
                plan.run(numel * c / chunks, numel * (c + 1) / chunks, [&](char** p, int64_t n, const int64_t* s) {
                    std::array<char*, N> q;
                    for (size_t k = 0; k < N; ++k) q[k] = p[k];
                    S v[N];
                    for (int64_t i = 0; i < n; ++i) {
                        for (size_t k = 0; k < N; ++k) v[k] = S(*reinterpret_cast<const T*>(q[k]));
                        acc += double(f(v));
                        for (size_t k = 0; k < N; ++k) q[k] += s[k];
                    }
                });
                part[c] = acc;
            }
        });
    }
    double total = 0.0;
    for (double x : part) total += x;
    return total;
}

/// Writes `v` into the single element of `out` (any dtype, rounded once).
void writeScalar(diopiContextHandle_t ctx, const TensorView& out, double v) {
    TensorView tmp = newTensor(ctx, {}, diopi_dtype_float64);
    *tmp.ptr<double>() = v;
    copyCast(out.restrided({}, {}), tmp);
}

/// A 0-d tensor of value 1 in `dtype`: stands in for an absent weight (it broadcasts).
TensorView onesScalar(diopiContextHandle_t ctx, diopiDtype_t dtype) {
    TensorView t = newTensor(ctx, {}, dtype);
    writeScalar(ctx, t, 1.0);
    return t;
}

/// Forward of an elementwise loss: `ins` (input first) broadcast together;
/// f(v) is the per-element loss (f is a functor templated on the compute type).
template <size_t N, class F>
void elementwiseLossForward(diopiContextHandle_t ctx, const TensorView& out, std::array<TensorView, N> ins, Red red, const F& f) {
    needFloat(ins[0], "input");
    diopiDtype_t dt = out.dtype;
    needFloat(out, "out");
    Shape bshape = ins[0].shape;
    for (size_t k = 1; k < N; ++k) bshape = broadcastShapes(bshape, ins[k].shape);
    for (size_t k = 0; k < N; ++k) ins[k] = castTo(ctx, ins[k], dt);
    std::array<const TensorView*, N> ptrs;
    for (size_t k = 0; k < N; ++k) ptrs[k] = &ins[k];
    if (red == Red::None) {
        CPU_CHECK(out.shape == bshape, "out has shape ", shapeStr(out.shape), ", expected ", shapeStr(bshape));
    } else {
        checkScalarOut(out, "out");
    }
    dispatch<FloatTypes>(dt, "out", [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (red == Red::None) {
            mapLoss<T, N>(out, ptrs, f);
            return;
        }
        double s = sumLoss<T, N>(bshape, ptrs, f);
        if (red == Red::Mean) s /= double(shapeNumel(bshape));
        writeScalar(ctx, out, s);
    });
}

/// grad_output (v[0]) times the derivative d of the loss (v[1..]) times scale.
template <class D>
struct GradOf {
    D d;
    double scale;
    template <class S>
    CPU_FORCE_INLINE S operator()(const S* v) const {
        return d(v + 1) * v[0] * S(scale);
    }
};

/// Backward of an elementwise loss: grad_input = d(v) * grad_output (/ count
/// for mean), summed back to input's shape when the inputs broadcast.
/// `ins` are the forward operands (input first); d(v) gets them as v[0..N).
template <size_t N, class D>
void elementwiseLossBackward(diopiContextHandle_t ctx, const TensorView& gradIn, const TensorView& gradOut, std::array<TensorView, N> ins,
                             Red red, const D& d) {
    needFloat(ins[0], "input");
    needFloat(gradIn, "grad_input");
    diopiDtype_t dt = gradIn.dtype;
    CPU_CHECK(gradIn.shape == ins[0].shape, "grad_input has shape ", shapeStr(gradIn.shape), ", expected input's ", shapeStr(ins[0].shape));
    Shape bshape = ins[0].shape;
    for (size_t k = 1; k < N; ++k) bshape = broadcastShapes(bshape, ins[k].shape);
    TensorView go = castTo(ctx, gradOut, dt);
    if (red == Red::None) {
        CPU_CHECK(go.shape == bshape, "grad_output has shape ", shapeStr(go.shape), ", expected ", shapeStr(bshape));
    } else {
        CPU_CHECK(go.numel == 1, "grad_output must hold one element for mean/sum reduction, got shape ", shapeStr(go.shape));
        go = go.restrided({}, {});
    }
    for (size_t k = 0; k < N; ++k) ins[k] = castTo(ctx, ins[k], dt);
    std::array<const TensorView*, N + 1> ptrs;
    ptrs[0] = &go;
    for (size_t k = 0; k < N; ++k) ptrs[k + 1] = &ins[k];
    const GradOf<D> g{d, red == Red::Mean ? 1.0 / double(shapeNumel(bshape)) : 1.0};
    dispatch<FloatTypes>(dt, "grad_input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using S = calc_t<T>;
        if (bshape == gradIn.shape) {
            mapLoss<T, N + 1>(gradIn, ptrs, g);
            return;
        }
        // Broadcast input: compute over the broadcast shape in S, then sum
        // over the broadcast dims into grad_input.
        TensorView full = newTensor(ctx, bshape, dtypeOf<S>());
        {
            // mapLoss reads every operand as one type: bring them to S.
            std::array<TensorView, N + 1> cast;
            std::array<const TensorView*, N + 1> ops;
            for (size_t k = 0; k <= N; ++k) {
                cast[k] = castTo(ctx, *ptrs[k], dtypeOf<S>());
                ops[k] = &cast[k];
            }
            mapLoss<S, N + 1>(full, ops, g);
        }
        const int64_t nd = (int64_t)bshape.size(), off = nd - gradIn.dim();
        std::vector<bool> mask(nd, false);
        Shape st(nd, 0);
        for (int64_t k = 0; k < nd; ++k) {
            if (k < off) {
                mask[k] = true;
            } else {
                mask[k] = gradIn.shape[k - off] == 1 && bshape[k] != 1;
                st[k] = gradIn.strides[k - off];
            }
        }
        TensorView o = gradIn.restrided(keptShape(full, mask), st);
        reduceLoop<1>({&o}, full, mask, [&](char** po, const char* base, const ReduceWindow& w) {
            double acc = 0;
            w.each(base, [&](const char* p, int64_t) { acc += double(*reinterpret_cast<const S*>(p)); });
            *reinterpret_cast<T*>(po[0]) = T(S(acc));
        });
    });
}

// ---- per-element formulas, as functors templated on the compute type S.
// With e = exp(-|x|) (one exp per element): log(1 + exp(-x)) = log1p(e) +
// max(-x, 0) and sigmoid(x) = 1/(1+e) for x >= 0, e/(1+e) below.
template <class S>
struct Logit {
    S lsn, sig;  // log(1 + exp(-x)), sigmoid(x)
    CPU_FORCE_INLINE explicit Logit(S x) {
        const S e = expS<S>(-std::fabs(x)), r = S(1) / (S(1) + e);
        lsn = log1pS<S>(e) + std::max(-x, S(0));
        sig = sel<S>(x >= S(0), r, e * r);
    }
};

struct MseF {
    template <class S>
    CPU_FORCE_INLINE S operator()(const S* v) const {
        const S d = v[0] - v[1];
        return d * d;
    }
};
struct MseGradF {
    template <class S>
    CPU_FORCE_INLINE S operator()(const S* v) const { return S(2) * (v[0] - v[1]); }
};

// Smooth L1, written without data-dependent branches so the loops vectorise.
// loss: with m = min(|d|, beta), m * (|d| - m / 2) / beta; beta = 0 is plain L1.
struct SmoothL1F {
    double beta;
    template <class S>
    CPU_FORCE_INLINE S operator()(const S* v) const {
        const S a = std::fabs(v[0] - v[1]);
        if (beta == 0) return a;
        const S b = S(beta), m = std::min(a, b);
        return m * (a - S(0.5) * m) / b;
    }
};
// gradient: d / beta clamped to [-1, 1] (sign(d) for beta = 0). q / max(|q|, 1)
// is q inside the quadratic zone and sign(q) outside; the max is written with
// fabs only, which the compiler vectorises where it keeps a compare-and-branch.
struct SmoothL1GradF {
    double beta;
    template <class S>
    CPU_FORCE_INLINE S operator()(const S* v) const {
        const S d = v[0] - v[1];
        if (beta == 0) return S(d > 0) - S(d < 0);
        const S q = d / S(beta), a = std::fabs(q);
        return q / (S(0.5) * (a + S(1) + std::fabs(a - S(1))));
    }
};

// Binary cross entropy: log terms clamped at -100 (finite loss at 0 and 1); the
// gradient's denominator is kept away from 0 by 1e-12. v = (x, t, w).
struct BceF {
    template <class S>
    CPU_FORCE_INLINE S operator()(const S* v) const {
        const S lx = std::max(logS<S>(v[0]), S(-100)), l1x = std::max(log1pS<S>(-v[0]), S(-100));
        return -v[2] * (v[1] * lx + (S(1) - v[1]) * l1x);
    }
};
struct BceGradF {
    template <class S>
    CPU_FORCE_INLINE S operator()(const S* v) const {
        const S x = v[0];
        return v[2] * (x - v[1]) / std::max((S(1) - x) * x, S(1e-12));
    }
};

// BCE with logits, v = (x, t, w, pw): (1 - t) x + (1 + (pw - 1) t) log(1 + exp(-x)), times w.
struct BceLogitsF {
    template <class S>
    CPU_FORCE_INLINE S operator()(const S* v) const {
        const S x = v[0], t = v[1];
        return v[2] * ((S(1) - t) * x + (S(1) + (v[3] - S(1)) * t) * Logit<S>(x).lsn);
    }
};
struct BceLogitsGradF {
    template <class S>
    CPU_FORCE_INLINE S operator()(const S* v) const {
        const S pt = v[3] * v[1];
        return v[2] * ((pt + S(1) - v[1]) * Logit<S>(v[0]).sig - pt);
    }
};

/// u^g with the common focusing exponents (G = 0, 1, 2) done without pow();
/// G = 3 stands for any other g.
template <int G, class S>
CPU_FORCE_INLINE S powGamma(S u, S g) {
    if constexpr (G == 2) return u * u;
    else if constexpr (G == 1) return u;
    else if constexpr (G == 0) return S(1);
    else return powS<S>(u, g);
}

/// f(std::integral_constant<int, G>) with the exponent kind of gamma.
template <class F>
void withGamma(double gamma, F&& f) {
    if (gamma == 2.0) f(std::integral_constant<int, 2>{});
    else if (gamma == 1.0) f(std::integral_constant<int, 1>{});
    else if (gamma == 0.0) f(std::integral_constant<int, 0>{});
    else f(std::integral_constant<int, 3>{});
}

// Sigmoid focal loss, v = (x, t): ce * (1 - p_t)^gamma, weighted by
// alpha t + (1 - alpha)(1 - t) (wa = alpha, wb = 1 - alpha; both 1 when alpha < 0).
// G is the exponent kind (see powGamma); the dispatch keeps the loop branch-free.
template <int G>
struct FocalF {
    double wa, wb, gamma;
    template <class S>
    CPU_FORCE_INLINE S operator()(const S* v) const {
        const S x = v[0], t = v[1];
        const Logit<S> lg(x);
        const S p = lg.sig, ce = (S(1) - t) * x + lg.lsn;
        const S pt = p * t + (S(1) - p) * (S(1) - t);
        return ce * powGamma<G, S>(S(1) - pt, S(gamma)) * (S(wa) * t + S(wb) * (S(1) - t));
    }
};
// d/dx: (p - t) m + ce dm with m = u^gamma, u = 1 - p_t and
// dm = -gamma u^(gamma - 1) (2t - 1) p (1 - p).
template <int G>
struct FocalGradF {
    double wa, wb, gamma;
    template <class S>
    CPU_FORCE_INLINE S operator()(const S* v) const {
        const S x = v[0], t = v[1];
        const Logit<S> lg(x);
        const S p = lg.sig, ce = (S(1) - t) * x + lg.lsn;
        const S u = S(1) - (p * t + (S(1) - p) * (S(1) - t));
        const S m = powGamma<G, S>(u, S(gamma));
        S dm = S(0);
        if constexpr (G != 0) dm = S(-gamma) * powGamma<G == 3 ? 3 : G - 1, S>(u, S(gamma - 1.0)) * (S(2) * t - S(1)) * p * (S(1) - p);
        return ((p - t) * m + ce * dm) * (S(wa) * t + S(wb) * (S(1) - t));
    }
};

TensorView weightOr1(diopiContextHandle_t ctx, diopiConstTensorHandle_t h, const TensorView& like, const char* name) {
    if (!h) return onesScalar(ctx, like.dtype);
    TensorView w = view(h, name);
    needFloat(w, name);
    return w;
}

}  // namespace

// ---------------------------------------------------------------- mse
diopiError_t diopiMSELoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                          diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        elementwiseLossForward<2>(ctx, view(out, "out"), {view(input, "input"), view(target, "target")}, red, MseF{});
    });
}

diopiError_t diopiMSELossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        elementwiseLossBackward<2>(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"),
                                   {view(input, "input"), view(target, "target")}, red, MseGradF{});
    });
}

// ---------------------------------------------------------------- smooth L1
diopiError_t diopiSmoothL1Loss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                               diopiReduction_t reduction, double beta) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        CPU_CHECK(beta >= 0, "beta must be non-negative, got ", beta);
        elementwiseLossForward<2>(ctx, view(out, "out"), {view(input, "input"), view(target, "target")}, red, SmoothL1F{beta});
    });
}

diopiError_t diopiSmoothL1LossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                       diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiReduction_t reduction, double beta) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        CPU_CHECK(beta >= 0, "beta must be non-negative, got ", beta);
        elementwiseLossBackward<2>(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"),
                                   {view(input, "input"), view(target, "target")}, red, SmoothL1GradF{beta});
    });
}

// ---------------------------------------------------------------- binary cross entropy
diopiError_t diopiBCELoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                          diopiConstTensorHandle_t weight, diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView x = view(input, "input"), t = view(target, "target");
        CPU_CHECK(x.shape == t.shape, "target shape ", shapeStr(t.shape), " differs from input shape ", shapeStr(x.shape));
        TensorView w = weightOr1(ctx, weight, x, "weight");
        CPU_CHECK(broadcastShapes(x.shape, w.shape) == x.shape, "weight shape ", shapeStr(w.shape), " does not broadcast to input");
        elementwiseLossForward<3>(ctx, view(out, "out"), {x, t, w}, red, BceF{});
    });
}

diopiError_t diopiBCELossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                  diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView x = view(input, "input"), t = view(target, "target");
        CPU_CHECK(x.shape == t.shape, "target shape ", shapeStr(t.shape), " differs from input shape ", shapeStr(x.shape));
        TensorView w = weightOr1(ctx, weight, x, "weight");
        CPU_CHECK(broadcastShapes(x.shape, w.shape) == x.shape, "weight shape ", shapeStr(w.shape), " does not broadcast to input");
        elementwiseLossBackward<3>(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), {x, t, w}, red, BceGradF{});
    });
}

// ---------------------------------------------------------------- binary cross entropy with logits
diopiError_t diopiBCEWithLogits(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                                diopiConstTensorHandle_t weight, diopiConstTensorHandle_t pos_weight, diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView x = view(input, "input"), t = view(target, "target");
        TensorView w = weightOr1(ctx, weight, x, "weight"), pw = weightOr1(ctx, pos_weight, x, "pos_weight");
        elementwiseLossForward<4>(ctx, view(out, "out"), {x, t, w, pw}, red, BceLogitsF{});
    });
}

diopiError_t diopiBCEWithLogitsBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                        diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                        diopiConstTensorHandle_t pos_weight, diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView x = view(input, "input"), t = view(target, "target");
        TensorView w = weightOr1(ctx, weight, x, "weight"), pw = weightOr1(ctx, pos_weight, x, "pos_weight");
        elementwiseLossBackward<4>(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), {x, t, w, pw}, red,
                                   BceLogitsGradF{});
    });
}

// ---------------------------------------------------------------- sigmoid focal loss
diopiError_t diopiSigmoidFocalLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t inputs, diopiConstTensorHandle_t targets,
                                   float alpha, float gamma, diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        CPU_CHECK(gamma >= 0, "gamma must be non-negative, got ", gamma);
        TensorView x = view(inputs, "inputs"), t = view(targets, "targets");
        CPU_CHECK(x.shape == t.shape, "targets shape ", shapeStr(t.shape), " differs from inputs shape ", shapeStr(x.shape));
        const double a = alpha;
        withGamma(gamma, [&](auto gk) {
            const FocalF<decltype(gk)::value> f{a >= 0 ? a : 1.0, a >= 0 ? 1.0 - a : 1.0, double(gamma)};
            elementwiseLossForward<2>(ctx, view(out, "out"), {x, t}, red, f);
        });
    });
}

// grad_output is only read (the header declares it non-const).
diopiError_t diopiSigmoidFocalLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                           diopiConstTensorHandle_t target, diopiTensorHandle_t grad_input, float gamma, float alpha,
                                           diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        CPU_CHECK(gamma >= 0, "gamma must be non-negative, got ", gamma);
        TensorView x = view(input, "input"), t = view(target, "target");
        CPU_CHECK(x.shape == t.shape, "target shape ", shapeStr(t.shape), " differs from input shape ", shapeStr(x.shape));
        const double a = alpha;
        withGamma(gamma, [&](auto gk) {
            const FocalGradF<decltype(gk)::value> d{a >= 0 ? a : 1.0, a >= 0 ? 1.0 - a : 1.0, double(gamma)};
            elementwiseLossBackward<2>(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), {x, t}, red, d);
        });
    });
}

// ---------------------------------------------------------------- class losses (nll, cross entropy)
namespace {

/// Calls f(Tag<S>{}) with the compute type of a class loss on `dt` input.
template <class F>
void withCalc(diopiDtype_t dt, F&& f) {
    if (dt == diopi_dtype_float64) f(Tag<double>{});
    else f(Tag<float>{});
}

/// input (C), (N, C) or (N, C, d1, ...) seen as [outer, C, inner] rows:
/// position p = n * inner + i; class c of position p at
/// x + n * C * inner + c * inner + i. Everything is made dense (in S) first.
template <class S>
struct ClassProblem {
    TensorView x;  // dense copy of input in S
    int64_t N = 1, C = 0, inner = 1;
    Shape posShape;  // shape of a per-position tensor (target for index targets)
    int64_t positions() const { return N * inner; }
    const S* at(int64_t p) const { return x.ptr<S>() + (p / inner) * C * inner + p % inner; }
};

template <class S>
ClassProblem<S> classProblem(diopiContextHandle_t ctx, const TensorView& in) {
    needFloat(in, "input");
    CPU_CHECK(in.dim() >= 1, "input must have a class dimension");
    ClassProblem<S> cp;
    cp.x = contiguousAs(ctx, in, dtypeOf<S>());
    if (in.dim() == 1) {
        cp.C = in.shape[0];
    } else {
        cp.N = in.shape[0];
        cp.C = in.shape[1];
        for (int64_t d = 2; d < in.dim(); ++d) cp.inner *= in.shape[d];
        cp.posShape.push_back(cp.N);
        for (int64_t d = 2; d < in.dim(); ++d) cp.posShape.push_back(in.shape[d]);
    }
    return cp;
}

/// Class indices (int64 or any integer dtype, read as int64); checks the
/// shape and the range (ignore_index excepted).
const int64_t* classTargets(diopiContextHandle_t ctx, const TensorView& t, const Shape& posShape, int64_t C, int64_t ignoreIndex) {
    if (!isIntegralDtype(t.dtype)) failCode(diopiDtypeNotSupported, "target must hold integer class indices, got ", dtypeName(t.dtype));
    CPU_CHECK(t.shape == posShape, "target has shape ", shapeStr(t.shape), ", expected ", shapeStr(posShape));
    TensorView d = contiguousAs(ctx, t, diopi_dtype_int64);
    const int64_t* v = d.ptr<int64_t>();
    for (int64_t i = 0; i < d.numel; ++i)
        if (v[i] != ignoreIndex && (v[i] < 0 || v[i] >= C)) fail("target holds class index ", v[i], " out of range [0, ", C, ")");
    return v;
}

template <class S>
std::vector<S> classWeights(diopiContextHandle_t ctx, diopiConstTensorHandle_t h, int64_t C) {
    if (!h) return std::vector<S>(C, S(1));
    TensorView w = view(h, "weight");
    needFloat(w, "weight");
    CPU_CHECK(w.dim() == 1 && w.shape[0] == C, "weight must have shape [", C, "], got ", shapeStr(w.shape));
    TensorView d = contiguousAs(ctx, w, dtypeOf<S>());
    return std::vector<S>(d.ptr<S>(), d.ptr<S>() + C);
}

/// Writes per-position values `loss` to out: as they are for none, else their
/// sum divided by `denom`.
template <class S>
void writeClassLoss(diopiContextHandle_t ctx, const TensorView& out, const Shape& posShape, const std::vector<S>& loss, Red red, double denom) {
    if (red == Red::None) {
        CPU_CHECK(out.shape == posShape, "out has shape ", shapeStr(out.shape), ", expected ", shapeStr(posShape));
        TensorView tmp = newTensor(ctx, posShape, dtypeOf<S>());
        std::copy(loss.begin(), loss.end(), tmp.ptr<S>());
        copyCast(out, tmp);
        return;
    }
    checkScalarOut(out, "out");
    double s = 0;
    for (S v : loss) s += double(v);
    if (red == Red::Mean) s /= denom;
    writeScalar(ctx, out, s);
}

/// grad_output per position (none) or the single value (mean/sum), in S.
template <class S>
std::vector<S> classGradOut(diopiContextHandle_t ctx, const TensorView& go, const Shape& posShape, Red red) {
    needFloat(go, "grad_output");
    if (red == Red::None) {
        CPU_CHECK(go.shape == posShape, "grad_output has shape ", shapeStr(go.shape), ", expected ", shapeStr(posShape));
    } else {
        CPU_CHECK(go.numel == 1, "grad_output must hold one element for mean/sum reduction, got shape ", shapeStr(go.shape));
    }
    TensorView d = contiguousAs(ctx, go, dtypeOf<S>());
    return std::vector<S>(d.ptr<S>(), d.ptr<S>() + d.numel);
}

/// Where a dense [N, C, inner] gradient in S is computed: grad_input itself
/// when it is that already (finishClassGrad then has nothing to copy).
template <class S>
TensorView classGradTemp(diopiContextHandle_t ctx, const TensorView& gradIn, const TensorView& in) {
    needFloat(gradIn, "grad_input");
    CPU_CHECK(gradIn.shape == in.shape, "grad_input has shape ", shapeStr(gradIn.shape), ", expected input's ", shapeStr(in.shape));
    if (gradIn.dtype == dtypeOf<S>() && gradIn.isContiguous()) return gradIn;
    return newTensor(ctx, in.shape, dtypeOf<S>());
}

void finishClassGrad(const TensorView& gradIn, const TensorView& g) {
    if (g.data != gradIn.data) copyCast(gradIn, g);
}

template <class S>
void nllForward(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t totalWeight, const TensorView& in,
                diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, Red red, int64_t ignoreIndex) {
    TensorView o = view(out, "out");
    ClassProblem<S> cp = classProblem<S>(ctx, in);
    const int64_t* y = classTargets(ctx, view(target, "target"), cp.posShape, cp.C, ignoreIndex);
    std::vector<S> w = classWeights<S>(ctx, weight, cp.C);
    const int64_t P = cp.positions();
    std::vector<S> loss(P, S(0));
    double tw = 0;
    for (int64_t p = 0; p < P; ++p) {
        if (y[p] == ignoreIndex) continue;
        const S wy = w[y[p]];
        loss[p] = -wy * cp.at(p)[y[p] * cp.inner];
        tw += double(wy);
    }
    writeClassLoss<S>(ctx, o, cp.posShape, loss, red, tw);
    if (totalWeight) {
        TensorView t = view(totalWeight, "totalWeight");
        CPU_CHECK(t.numel == 1, "totalWeight must hold one element, got shape ", shapeStr(t.shape));
        writeScalar(ctx, t, tw);
    }
}

template <class S>
void nllBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output, const TensorView& in,
                 diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, const double* totalWeight, Red red, int64_t ignoreIndex) {
    TensorView gi = view(grad_input, "grad_input");
    // Only the shape of input matters here: no dense copy of its values.
    needFloat(in, "input");
    CPU_CHECK(in.dim() >= 1, "input must have a class dimension");
    const int64_t C = in.dim() == 1 ? in.shape[0] : in.shape[1];
    int64_t inner = 1;
    Shape posShape;
    if (in.dim() > 1) {
        posShape.push_back(in.shape[0]);
        for (int64_t d = 2; d < in.dim(); ++d) {
            inner *= in.shape[d];
            posShape.push_back(in.shape[d]);
        }
    }
    const int64_t* y = classTargets(ctx, view(target, "target"), posShape, C, ignoreIndex);
    std::vector<S> w = classWeights<S>(ctx, weight, C);
    std::vector<S> go = classGradOut<S>(ctx, view(grad_output, "grad_output"), posShape, red);
    TensorView g = classGradTemp<S>(ctx, gi, in);
    S* gp = g.ptr<S>();
    std::fill(gp, gp + g.numel, S(0));
    const int64_t P = shapeNumel(posShape);
    double tw = 0;
    if (red == Red::Mean) {
        if (totalWeight) {
            tw = *totalWeight;
        } else {
            for (int64_t p = 0; p < P; ++p)
                if (y[p] != ignoreIndex) tw += double(w[y[p]]);
        }
    }
    for (int64_t p = 0; p < P; ++p) {
        if (y[p] == ignoreIndex) continue;
        double v = -double(w[y[p]]) * double(go[red == Red::None ? p : 0]);
        if (red == Red::Mean) v /= tw;
        gp[(p / inner) * C * inner + y[p] * inner + p % inner] = S(v);
    }
    finishClassGrad(gi, g);
}

/// Cross entropy pieces shared by forward and backward. Per position p the
/// loss is sum_c coef[c] * (lse - x[c]) with lse = log sum exp(x) and
///   coef[c] = (t[c] * a + b) * w[c]                       (probability targets)
///   coef[c] = b * w[c] + (1 - eps) * w[y] * [c == y]      (index targets)
/// where a = 1 - eps and b = eps / C (label smoothing eps).
template <class S>
struct CeSetup {
    ClassProblem<S> cp;
    bool probs = false;
    const int64_t* y = nullptr;  // index targets
    TensorView t;                // dense probability targets in S, input's layout
    std::vector<S> w;
    double eps = 0;
    S a() const { return S(1 - eps); }
    S b() const { return S(eps / double(cp.C)); }
};

template <class S>
CeSetup<S> ceSetup(diopiContextHandle_t ctx, const TensorView& in, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                   int64_t ignoreIndex, double smoothing) {
    CPU_CHECK(smoothing >= 0 && smoothing <= 1, "label_smoothing must lie in [0, 1], got ", smoothing);
    CeSetup<S> s;
    s.cp = classProblem<S>(ctx, in);
    TensorView t = view(target, "target");
    s.probs = isFloatingDtype(t.dtype);
    if (s.probs) {
        CPU_CHECK(t.shape == in.shape, "probability target has shape ", shapeStr(t.shape), ", expected input's ", shapeStr(in.shape));
        s.t = contiguousAs(ctx, t, dtypeOf<S>());
    } else {
        s.y = classTargets(ctx, t, s.cp.posShape, s.cp.C, ignoreIndex);
    }
    s.w = classWeights<S>(ctx, weight, s.cp.C);
    s.eps = smoothing;
    return s;
}

/// The mean-reduction divisor: summed target weight of valid positions
/// (index targets) or the position count (probabilities).
template <class S>
double ceDenom(const CeSetup<S>& s, int64_t ignoreIndex) {
    if (s.probs) return double(s.cp.positions());
    double d = 0;
    for (int64_t p = 0; p < s.cp.positions(); ++p)
        if (s.y[p] != ignoreIndex) d += double(s.w[s.y[p]]);
    return d;
}

// ---- row kernels of the cross entropy over C classes in a row (unit stride),
// compiled once per level for float; double uses the plain instantiation.

/// max of a row (NaN is left to the exp sum to propagate); float rows in
/// 16-lane vectors (a plain max reduction does not vectorise without fast-math).
typedef float CeVec16 __attribute__((vector_size(64)));
template <class S>
CPU_FORCE_INLINE S rowMaxBody(const S* x, int64_t n) {
    S r = -std::numeric_limits<S>::infinity();
    int64_t j = 0;
    if constexpr (std::is_same_v<S, float>) {
        if (n >= 16) {
            CeVec16 m;
            std::memcpy(&m, x, sizeof m);
            for (j = 16; j + 16 <= n; j += 16) {
                CeVec16 v;
                std::memcpy(&v, x + j, sizeof v);
                m = v > m ? v : m;
            }
            for (int q = 0; q < 16; ++q) r = std::max(r, m[q]);
        }
    }
    for (; j < n; ++j) r = std::max(r, x[j]);
    return r;
}
/// e[c] = exp(x[c] - m); returns their sum (lanes in S).
template <class S>
CPU_FORCE_INLINE S rowExpBody(const S* x, int64_t n, S m, S* e) {
    for (int64_t j = 0; j < n; ++j) e[j] = expS<S>(x[j] - m);
    constexpr int L = 16;
    S acc[L] = {};
    int64_t j = 0;
    for (; j + L <= n; j += L)
        for (int q = 0; q < L; ++q) acc[q] += e[j + q];
    S r = 0;
    for (; j < n; ++j) r += e[j];
    for (int q = 0; q < L; ++q) r += acc[q];
    return r;
}
/// sum_c (t[c] * a + b) * w[c] * (lse - x[c]) (t == nullptr: t[c] = 0), and
/// into *k the sum of the coefficients.
template <class S>
CPU_FORCE_INLINE S rowCoefBody(const S* x, const S* t, const S* w, S a, S b, S lse, int64_t n, S* k) {
    constexpr int L = 16;
    S acc[L] = {}, kc[L] = {};
    int64_t j = 0;
    if (t) {
        for (; j + L <= n; j += L)
            for (int q = 0; q < L; ++q) {
                const S c = (t[j + q] * a + b) * w[j + q];
                acc[q] += c * (lse - x[j + q]);
                kc[q] += c;
            }
    } else {
        for (; j + L <= n; j += L)
            for (int q = 0; q < L; ++q) {
                const S c = b * w[j + q];
                acc[q] += c * (lse - x[j + q]);
                kc[q] += c;
            }
    }
    S r = 0, kr = 0;
    for (; j < n; ++j) {
        const S c = ((t ? t[j] : S(0)) * a + b) * w[j];
        r += c * (lse - x[j]);
        kr += c;
    }
    for (int q = 0; q < L; ++q) {
        r += acc[q];
        kr += kc[q];
    }
    *k = kr;
    return r;
}
/// g[c] = e[c] * kk - G * (t[c] * a + b) * w[c]   (t == nullptr: t[c] = 0).
template <class S>
CPU_FORCE_INLINE void rowGradBody(const S* e, const S* t, const S* w, S a, S b, S kk, S G, int64_t n, S* g) {
    if (t) {
        for (int64_t j = 0; j < n; ++j) g[j] = e[j] * kk - G * (t[j] * a + b) * w[j];
    } else {
        const S gb = G * b;
        for (int64_t j = 0; j < n; ++j) g[j] = e[j] * kk - gb * w[j];
    }
}

template <class S>
struct CeRowKernels {
    S (*max)(const S*, int64_t);
    S (*exp)(const S*, int64_t, S, S*);
    S (*coef)(const S*, const S*, const S*, S, S, S, int64_t, S*);
    void (*grad)(const S*, const S*, const S*, S, S, S, S, int64_t, S*);
};

#define CPU_LOSS_CE_ROWS(NAME, ATTR)                                                                                      \
    template <class S>                                                                                                    \
    struct CeRows##NAME {                                                                                                 \
        ATTR static S max(const S* x, int64_t n) { return rowMaxBody<S>(x, n); }                                          \
        ATTR static S exp(const S* x, int64_t n, S m, S* e) { return rowExpBody<S>(x, n, m, e); }                         \
        ATTR static S coef(const S* x, const S* t, const S* w, S a, S b, S lse, int64_t n, S* k) {                        \
            return rowCoefBody<S>(x, t, w, a, b, lse, n, k);                                                              \
        }                                                                                                                 \
        ATTR static void grad(const S* e, const S* t, const S* w, S a, S b, S kk, S G, int64_t n, S* g) {                 \
            rowGradBody<S>(e, t, w, a, b, kk, G, n, g);                                                                   \
        }                                                                                                                 \
        static CeRowKernels<S> get() { return {&max, &exp, &coef, &grad}; }                                               \
    };
CPU_LOSS_CE_ROWS(Base, )
#if CPU_HAVE_X86_LEVELS
CPU_LOSS_CE_ROWS(Avx2, CPU_TARGET_AVX2)
CPU_LOSS_CE_ROWS(Avx512, CPU_TARGET_AVX512)
#endif
#undef CPU_LOSS_CE_ROWS

template <class S>
CeRowKernels<S> ceRows() {
#if CPU_HAVE_X86_LEVELS
    if constexpr (std::is_same_v<S, float>) {
        static const CeRowKernels<float> k = isa() == Isa::Avx512 ? CeRowsAvx512<float>::get()
                                             : isa() == Isa::Avx2 ? CeRowsAvx2<float>::get()
                                                                  : CeRowsBase<float>::get();
        return k;
    }
#endif
    return CeRowsBase<S>::get();
}

/// A row of position p gathered into unit stride (a view into the dense copy
/// when inner == 1, else copied into `buf`).
template <class S>
const S* ceRow(const ClassProblem<S>& cp, const S* base, int64_t p, S* buf) {
    const int64_t C = cp.C, inner = cp.inner;
    const S* x = base + (p / inner) * C * inner + p % inner;
    if (inner == 1) return x;
    for (int64_t c = 0; c < C; ++c) buf[c] = x[c * inner];
    return buf;
}

template <class S>
void ceForward(diopiContextHandle_t ctx, const TensorView& o, const TensorView& in, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
               Red red, int64_t ignoreIndex, double smoothing) {
    CeSetup<S> s = ceSetup<S>(ctx, in, target, weight, ignoreIndex, smoothing);
    const int64_t P = s.cp.positions(), C = s.cp.C;
    const CeRowKernels<S> k = ceRows<S>();
    const S a = s.a(), b = s.b();
    std::vector<S> loss(P, S(0));
    std::atomic<bool> oom{false};
    parallelFor(P, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(C, 1)), [&](int64_t pb, int64_t pe) {
        // Scratch per chunk; an allocation failure must not escape an OpenMP thread.
        std::vector<S> scratch;
        try {
            scratch.resize(3 * C);
        } catch (...) {
            oom = true;
            return;
        }
        S *ex = scratch.data(), *xb = ex + C, *tb = xb + C;
        for (int64_t p = pb; p < pe; ++p) {
            if (!s.probs && s.y[p] == ignoreIndex) continue;
            const S* x = ceRow(s.cp, s.cp.x.template ptr<S>(), p, xb);
            S m = k.max(x, C);
            if (m == -std::numeric_limits<S>::infinity()) m = 0;  // every logit -inf: leave the result to IEEE arithmetic
            const S lse = m + std::log(k.exp(x, C, m, ex));
            S kk;
            if (s.probs) {
                loss[p] = k.coef(x, ceRow(s.cp, s.t.template ptr<S>(), p, tb), s.w.data(), a, b, lse, C, &kk);
            } else {
                const int64_t y = s.y[p];
                S l = s.eps != 0 ? k.coef(x, nullptr, s.w.data(), a, b, lse, C, &kk) : S(0);
                loss[p] = l + a * s.w[y] * (lse - x[y]);
            }
        }
    });
    CPU_CHECK(!oom, "out of host memory");
    writeClassLoss<S>(ctx, o, s.cp.posShape, loss, red, red == Red::Mean ? ceDenom(s, ignoreIndex) : 1.0);
}

// d loss / d x[c] = G * (softmax[c] * sum_c' coef[c'] - coef[c]) with G = grad_output / denom.
template <class S>
void ceBackward(diopiContextHandle_t ctx, const TensorView& gi, diopiConstTensorHandle_t grad_output, const TensorView& in,
                diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, Red red, int64_t ignoreIndex, double smoothing) {
    CeSetup<S> s = ceSetup<S>(ctx, in, target, weight, ignoreIndex, smoothing);
    std::vector<S> go = classGradOut<S>(ctx, view(grad_output, "grad_output"), s.cp.posShape, red);
    TensorView g = classGradTemp<S>(ctx, gi, in);
    const int64_t P = s.cp.positions(), C = s.cp.C, inner = s.cp.inner;
    const double denom = red == Red::Mean ? ceDenom(s, ignoreIndex) : 1.0;
    const CeRowKernels<S> k = ceRows<S>();
    const S a = s.a(), b = s.b();
    S Wsum = 0;  // sum of the class weights (index targets with smoothing)
    for (S v : s.w) Wsum += v;
    S* gp = g.ptr<S>();
    std::atomic<bool> oom{false};
    parallelFor(P, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(C, 1)), [&](int64_t pb, int64_t pe) {
        std::vector<S> scratch;
        try {
            scratch.resize(4 * C);
        } catch (...) {
            oom = true;
            return;
        }
        S *ex = scratch.data(), *xb = ex + C, *tb = xb + C, *gb = tb + C;
        for (int64_t p = pb; p < pe; ++p) {
            S* gx = gp + (p / inner) * C * inner + p % inner;
            S* gr = inner == 1 ? gx : gb;
            const bool valid = s.probs || s.y[p] != ignoreIndex;
            // Every target ignored under mean: 0/0 loss, zero gradient.
            if (!valid || denom == 0) {
                for (int64_t c = 0; c < C; ++c) gx[c * inner] = S(0);
                continue;
            }
            const S* x = ceRow(s.cp, s.cp.x.template ptr<S>(), p, xb);
            S m = k.max(x, C);
            if (m == -std::numeric_limits<S>::infinity()) m = 0;
            const S esum = k.exp(x, C, m, ex);
            const S G = S(double(go[red == Red::None ? p : 0]) / denom);
            if (s.probs) {
                const S* t = ceRow(s.cp, s.t.template ptr<S>(), p, tb);
                S K = 0;
                for (int64_t c = 0; c < C; ++c) K += (t[c] * a + b) * s.w[c];
                k.grad(ex, t, s.w.data(), a, b, G * K / esum, G, C, gr);
            } else {
                const int64_t y = s.y[p];
                const S K = b * Wsum + a * s.w[y];
                k.grad(ex, nullptr, s.w.data(), a, b, G * K / esum, G, C, gr);
                gr[y] -= G * a * s.w[y];
            }
            if (inner != 1)
                for (int64_t c = 0; c < C; ++c) gx[c * inner] = gr[c];
        }
    });
    CPU_CHECK(!oom, "out of host memory");
    finishClassGrad(gi, g);
}

}  // namespace

diopiError_t diopiNLLLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                          diopiConstTensorHandle_t weight, diopiReduction_t reduction, int64_t ignore_index) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView in = view(input, "input");
        withCalc(in.dtype, [&](auto tag) {
            nllForward<typename decltype(tag)::type>(ctx, out, nullptr, in, target, weight, red, ignore_index);
        });
    });
}

diopiError_t diopiNLLLossV2(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t totalWeight, diopiConstTensorHandle_t input,
                            diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, diopiReduction_t reduction, int64_t ignore_index) {
    return guard(__func__, [&] {
        CPU_CHECK(totalWeight, "totalWeight is NULL");
        Red red = reductionOf(reduction);
        TensorView in = view(input, "input");
        withCalc(in.dtype, [&](auto tag) {
            nllForward<typename decltype(tag)::type>(ctx, out, totalWeight, in, target, weight, red, ignore_index);
        });
    });
}

diopiError_t diopiNLLLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                  diopiReduction_t reduction, int64_t ignore_index) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView in = view(input, "input");
        withCalc(in.dtype, [&](auto tag) {
            nllBackward<typename decltype(tag)::type>(ctx, grad_input, grad_output, in, target, weight, nullptr, red, ignore_index);
        });
    });
}

diopiError_t diopiNLLLossV2Backward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                    diopiConstTensorHandle_t totalWeight, diopiReduction_t reduction, int64_t ignore_index) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView t = view(totalWeight, "totalWeight");
        CPU_CHECK(t.numel == 1, "totalWeight must hold one element, got shape ", shapeStr(t.shape));
        TensorView d = newTensor(ctx, {}, diopi_dtype_float64);
        copyCast(d, t.restrided({}, {}));
        double tw = *d.ptr<double>();
        TensorView in = view(input, "input");
        withCalc(in.dtype, [&](auto tag) {
            nllBackward<typename decltype(tag)::type>(ctx, grad_input, grad_output, in, target, weight, &tw, red, ignore_index);
        });
    });
}

// loss(p) = sum_c coef[c] * (lse - x[c]); mean divides the sum by ceDenom.
diopiError_t diopiCrossEntropyLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                                   diopiConstTensorHandle_t weight, diopiReduction_t reduction, int64_t ignore_index, double label_smoothing) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView o = view(out, "out"), in = view(input, "input");
        withCalc(in.dtype, [&](auto tag) {
            ceForward<typename decltype(tag)::type>(ctx, o, in, target, weight, red, ignore_index, label_smoothing);
        });
    });
}

diopiError_t diopiCrossEntropyLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                           diopiReduction_t reduction, int64_t ignore_index, double label_smoothing) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView in = view(input, "input"), gi = view(grad_input, "grad_input");
        withCalc(in.dtype, [&](auto tag) {
            ceBackward<typename decltype(tag)::type>(ctx, gi, grad_output, in, target, weight, red, ignore_index, label_smoothing);
        });
    });
}

// ---------------------------------------------------------------- CTC
namespace {

/// CTC problem in double: log_probs (T, N, C), per-sample targets and lengths.
struct Ctc {
    int64_t T = 0, N = 0, C = 0, blank = 0, S = 0;  // S: max extended length 2 * max target length + 1
    std::vector<double> lp;                          // [T][N][C]
    std::vector<std::vector<int64_t>> targets;
    std::vector<int64_t> il, tl;
    double at(int64_t t, int64_t n, int64_t c) const { return lp[(t * N + n) * C + c]; }
    int64_t label(int64_t n, int64_t s) const { return s % 2 == 0 ? blank : targets[n][s / 2]; }
};

/// A contiguous view of host memory (CTC's small tables live in std::vector:
/// cheaper than context temporaries for tensors of a few thousand elements).
template <class E>
TensorView hostView(std::vector<E>& v, const Shape& shape) {
    TensorView t;
    t.data = reinterpret_cast<char*>(v.data());
    t.dtype = dtypeOf<E>();
    t.shape = shape;
    t.strides = contiguousStrides(shape);
    t.numel = shapeNumel(shape);
    t.itemsize = sizeof(E);
    return t;
}

/// Elements of t (any strides and dtype) converted to E, row-major.
template <class E>
std::vector<E> valuesOf(const TensorView& t) {
    std::vector<E> v(t.numel);
    if (t.numel) copyCast(hostView(v, t.shape), t);
    return v;
}

std::vector<int64_t> intsOf(diopiContextHandle_t ctx, const TensorView& t, const char* name) {
    if (isFloatingDtype(t.dtype) || t.dtype == diopi_dtype_bool) failCode(diopiDtypeNotSupported, name, " must hold integers, got ", dtypeName(t.dtype));
    return valuesOf<int64_t>(t);
}

Ctc ctcSetup(diopiContextHandle_t ctx, diopiConstTensorHandle_t logProbs, diopiConstTensorHandle_t targets, diopiConstTensorHandle_t inputLengths,
             diopiConstTensorHandle_t targetLengths, int64_t blank) {
    Ctc p;
    TensorView lp = view(logProbs, "log_probs");
    needFloat(lp, "log_probs");
    CPU_CHECK(lp.dim() == 3, "log_probs must be (T, N, C), got shape ", shapeStr(lp.shape));
    p.T = lp.shape[0];
    p.N = lp.shape[1];
    p.C = lp.shape[2];
    p.blank = blank;
    CPU_CHECK(blank >= 0 && blank < p.C, "blank ", blank, " is out of range [0, ", p.C, ")");
    p.lp = valuesOf<double>(lp);
    TensorView tg = view(targets, "targets");
    p.il = intsOf(ctx, view(inputLengths, "input_lengths"), "input_lengths");
    p.tl = intsOf(ctx, view(targetLengths, "target_lengths"), "target_lengths");
    CPU_CHECK((int64_t)p.il.size() == p.N && (int64_t)p.tl.size() == p.N, "input_lengths and target_lengths need one entry per batch element");
    std::vector<int64_t> tv = intsOf(ctx, tg, "targets");
    int64_t maxL = 0, off = 0;
    for (int64_t n = 0; n < p.N; ++n) {
        CPU_CHECK(p.il[n] >= 0 && p.il[n] <= p.T, "input_lengths must lie in [0, T]");
        CPU_CHECK(p.tl[n] >= 0, "target_lengths must not be negative");
        maxL = std::max(maxL, p.tl[n]);
        std::vector<int64_t> t(p.tl[n]);
        if (tg.dim() == 2) {
            CPU_CHECK(tg.shape[0] == p.N && p.tl[n] <= tg.shape[1], "padded targets must be (N, S) with S >= every target length");
            for (int64_t k = 0; k < p.tl[n]; ++k) t[k] = tv[n * tg.shape[1] + k];
        } else {
            CPU_CHECK(tg.dim() == 1, "targets must be 1-d (concatenated) or 2-d (padded)");
            CPU_CHECK(off + p.tl[n] <= tg.numel, "concatenated targets are shorter than the sum of target_lengths");
            for (int64_t k = 0; k < p.tl[n]; ++k) t[k] = tv[off + k];
            off += p.tl[n];
        }
        for (int64_t c : t) CPU_CHECK(c >= 0 && c < p.C, "target class ", c, " is out of range [0, ", p.C, ")");
        p.targets.push_back(std::move(t));
    }
    p.S = 2 * maxL + 1;
    return p;
}

/// log(e^a + e^b + e^c): two exps and one log around the largest term.
inline double logAdd3(double a, double b, double c) {
    const double m = std::max(a, std::max(b, c));
    if (m == -INFINITY) return -INFINITY;
    return m + std::log(std::exp(a - m) + std::exp(b - m) + std::exp(c - m));
}

/// log(e^a + e^b): one exp and one log1p.
inline double logAdd(double a, double b) {
    if (a == -INFINITY) return b;
    if (b == -INFINITY) return a;
    return a > b ? a + std::log1p(std::exp(b - a)) : b + std::log1p(std::exp(a - b));
}

/// Forward variables of sample n: alpha[t * S + s] (-inf where undefined); returns the negative log likelihood.
double ctcAlpha(const Ctc& p, int64_t n, std::vector<double>& alpha) {
    const int64_t S = p.S, Sn = 2 * p.tl[n] + 1, Tn = p.il[n];
    alpha.assign(p.T * S, -INFINITY);
    if (Tn == 0) return Sn == 1 ? 0.0 : INFINITY;
    alpha[0] = p.at(0, n, p.blank);
    if (Sn > 1) alpha[1] = p.at(0, n, p.label(n, 1));
    for (int64_t t = 1; t < Tn; ++t) {
        for (int64_t s = 0; s < Sn; ++s) {
            const int64_t l = p.label(n, s);
            double a = alpha[(t - 1) * S + s];
            if (s >= 1) a = logAdd(a, alpha[(t - 1) * S + s - 1]);
            if (s >= 2 && l != p.blank && l != p.label(n, s - 2)) a = logAdd(a, alpha[(t - 1) * S + s - 2]);
            alpha[t * S + s] = a == -INFINITY ? -INFINITY : a + p.at(t, n, l);
        }
    }
    double ll = alpha[(Tn - 1) * S + Sn - 1];
    if (Sn > 1) ll = logAdd(ll, alpha[(Tn - 1) * S + Sn - 2]);
    return -ll;
}

}  // namespace

diopiError_t diopiCTCLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t neg_log_likelihood, diopiTensorHandle_t log_alpha,
                          diopiConstTensorHandle_t log_probs, diopiConstTensorHandle_t targets, diopiConstTensorHandle_t input_lengths,
                          diopiConstTensorHandle_t target_lengths, int64_t blank, diopiReduction_t reduction, bool zero_infinity) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView o = view(out, "out");
        needFloat(o, "out");
        Ctc p = ctcSetup(ctx, log_probs, targets, input_lengths, target_lengths, blank);
        if (red == Red::None) CPU_CHECK(o.numel == p.N, "out must hold one loss per batch element, got shape ", shapeStr(o.shape));
        else checkScalarOut(o, "out");
        std::vector<double> nll(p.N), table(p.N * p.T * p.S), alpha;
        for (int64_t n = 0; n < p.N; ++n) {
            nll[n] = ctcAlpha(p, n, alpha);
            std::copy(alpha.begin(), alpha.end(), table.begin() + n * p.T * p.S);
        }
        if (neg_log_likelihood) {
            TensorView t = view(neg_log_likelihood, "neg_log_likelihood");
            CPU_CHECK(t.numel == p.N, "neg_log_likelihood must hold N elements, got shape ", shapeStr(t.shape));
            copyCast(t, hostView(nll, t.shape));
        }
        if (log_alpha) {
            TensorView t = view(log_alpha, "log_alpha");
            CPU_CHECK(t.shape == Shape({p.N, p.T, p.S}), "log_alpha must have shape ", shapeStr({p.N, p.T, p.S}), ", got ", shapeStr(t.shape));
            copyCast(t, hostView(table, t.shape));
        }
        std::vector<double> loss = nll;
        if (zero_infinity)
            for (double& v : loss)
                if (std::isinf(v)) v = 0;
        if (red == Red::None) {
            copyCast(o, hostView(loss, o.shape));
            return;
        }
        double s = 0;
        for (int64_t n = 0; n < p.N; ++n) s += red == Red::Mean ? loss[n] / double(std::max<int64_t>(p.tl[n], 1)) : loss[n];
        if (red == Red::Mean) s /= double(p.N);
        writeScalar(ctx, o, s);
    });
}

// grad[t, n, c] = (exp(lp) - exp(log sum_{s: l(s) = c} alpha * beta + nll - lp)) * g_n for t < input_length, else 0.
// alpha and nll are the saved ones (their defined entries), read in double; beta is computed here in double.
diopiError_t diopiCTCLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t log_probs, diopiConstTensorHandle_t targets, diopiConstTensorHandle_t input_lengths,
                                  diopiConstTensorHandle_t target_lengths, diopiConstTensorHandle_t neg_log_likelihood, diopiConstTensorHandle_t log_alpha,
                                  int64_t blank, diopiReduction_t reduction, bool zero_infinity) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        Ctc p = ctcSetup(ctx, log_probs, targets, input_lengths, target_lengths, blank);
        TensorView gi = view(grad_input, "grad_input");
        needFloat(gi, "grad_input");
        CPU_CHECK(gi.shape == Shape({p.T, p.N, p.C}), "grad_input must have log_probs' shape, got ", shapeStr(gi.shape));
        TensorView nllT = view(neg_log_likelihood, "neg_log_likelihood"), alphaT = view(log_alpha, "log_alpha");
        CPU_CHECK(nllT.numel == p.N, "neg_log_likelihood needs one entry per batch element");
        CPU_CHECK(alphaT.dim() == 3 && alphaT.shape[0] == p.N && alphaT.shape[1] == p.T,
                  "log_alpha must be (N, T, 2 * max target length + 1) as the forward returned it");
        TensorView go = view(grad_output, "grad_output");
        needFloat(go, "grad_output");
        if (red == Red::None) CPU_CHECK(go.numel == p.N, "grad_output must hold N elements, got shape ", shapeStr(go.shape));
        else CPU_CHECK(go.numel == 1, "grad_output must hold one element, got shape ", shapeStr(go.shape));
        needFloat(nllT, "neg_log_likelihood");
        needFloat(alphaT, "log_alpha");
        CPU_CHECK(alphaT.shape[2] >= p.S, "log_alpha must be (N, T, 2 * max target length + 1) as the forward returned it");
        const std::vector<double> godv = valuesOf<double>(go), adv = valuesOf<double>(alphaT), ndv = valuesOf<double>(nllT);
        const int64_t Sa = alphaT.shape[2];
        const int64_t S = p.S;
        // Samples run in parallel (one per chunk at least) when each has enough
        // work; their scratch is allocated up front (nothing may allocate or
        // throw on the threads).
        std::vector<double> grad(p.T * p.N * p.C, 0.0), betaAll(p.N * p.T * S), lcabAll(p.N * p.C);
        parallelFor(p.N, p.T * S >= 256 ? 1 : p.N + 1, [&](int64_t nb, int64_t ne) {
            for (int64_t n = nb; n < ne; ++n) {
                double* beta = betaAll.data() + n * p.T * S;
                double* lcab = lcabAll.data() + n * p.C;
                double gr = godv[red == Red::None ? n : 0];
                if (red == Red::Mean) gr = gr / double(std::max<int64_t>(p.tl[n], 1)) / double(p.N);
                const double nll = ndv[n];
                const double* alpha = adv.data() + n * p.T * Sa;  // alpha[t * Sa + s]
                const int64_t Sn = 2 * p.tl[n] + 1, Tn = p.il[n];
                if (Tn == 0 || (zero_infinity && std::isinf(nll))) continue;
                std::fill(beta, beta + p.T * S, -INFINITY);
                beta[(Tn - 1) * S + Sn - 1] = p.at(Tn - 1, n, p.blank);
                if (Sn > 1) beta[(Tn - 1) * S + Sn - 2] = p.at(Tn - 1, n, p.label(n, Sn - 2));
                for (int64_t t = Tn - 2; t >= 0; --t) {
                    for (int64_t s = 0; s < Sn; ++s) {
                        const int64_t l = p.label(n, s);
                        const double b0 = beta[(t + 1) * S + s], b1 = s + 1 < Sn ? beta[(t + 1) * S + s + 1] : -INFINITY;
                        const double b2 = s + 2 < Sn && l != p.blank && l != p.label(n, s + 2) ? beta[(t + 1) * S + s + 2] : -INFINITY;
                        const double b = logAdd3(b0, b1, b2);
                        beta[t * S + s] = b == -INFINITY ? -INFINITY : b + p.at(t, n, l);
                    }
                }
                for (int64_t t = 0; t < Tn; ++t) {
                    // Per class: sum over its positions s of exp(alpha + beta - M),
                    // M the largest alpha + beta at t (one exp per position).
                    double M = -INFINITY;
                    for (int64_t s = 0; s < Sn; ++s) M = std::max(M, alpha[t * Sa + s] + beta[t * S + s]);
                    std::fill(lcab, lcab + p.C, 0.0);
                    if (M != -INFINITY)
                        for (int64_t s = 0; s < Sn; ++s) lcab[p.label(n, s)] += std::exp(alpha[t * Sa + s] + beta[t * S + s] - M);
                    for (int64_t c = 0; c < p.C; ++c) {
                        const double lp = p.at(t, n, c);
                        // exp(log(sum) + M + nll - lp); a class on no path has log(0) = -inf there.
                        const double occ = lcab[c] > 0 ? lcab[c] * std::exp(M + nll - lp) : std::exp(-INFINITY + nll - lp);
                        grad[(t * p.N + n) * p.C + c] = (std::exp(lp) - occ) * gr;
                    }
                }
            }
        });
        copyCast(gi, hostView(grad, gi.shape));
    });
}

}  // namespace impl::cpu
