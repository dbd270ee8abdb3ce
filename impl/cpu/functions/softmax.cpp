// Family softmax: softmax and log-softmax along one dim, forward and backward.
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "common/common.hpp"
#include "common/fastmath.hpp"

namespace impl::cpu {

namespace {

/// Wrapped dim and its element stride (a 0-d tensor is one line of length 1).
struct LineDim {
    int64_t dim = 0, len = 1;
};

LineDim lineDim(const TensorView& t, int64_t dim) {
    LineDim ld;
    ld.dim = t.wrapDim(dim);
    ld.len = t.dim() ? t.shape[ld.dim] : 1;
    return ld;
}

inline int64_t strideOf(const TensorView& t, int64_t d) { return t.dim() ? t.strides[d] : 0; }

void checkFloatOut(const TensorView& t, const char* name) {
    if (!isFloatingDtype(t.dtype)) failCode(diopiDtypeNotSupported, name, " dtype ", dtypeName(t.dtype), " is not supported");
}

// Line kernels on contiguous float arrays, compiled once per instruction-set
// level (fastmath.hpp) and picked once from isa(). Sums are split over SIMD
// lanes, which only reorders the float additions.
struct LineKernels {
    float (*max)(const float*, int64_t);
    float (*expShiftStore)(float*, const float*, int64_t, float);
    float (*expShiftSum)(const float*, int64_t, float);
    void (*scale)(float*, int64_t, float);
    void (*shift)(float*, const float*, int64_t, float, float);
    float (*sum)(const float*, int64_t);
    float (*dot)(const float*, const float*, int64_t);
    void (*softmaxGrad)(float*, const float*, const float*, int64_t, float);
    void (*logSoftmaxGrad)(float*, const float*, const float*, int64_t, float);
};

#define CPU_SOFTMAX_LINES(NS, ATTR)                                                                  \
    namespace NS {                                                                                   \
    /* Largest element. A NaN may or may not win here; it reaches the result */                      \
    /* anyway through the exp sum, making the whole line NaN like ATen. */                           \
    ATTR float lineMax(const float* x, int64_t n) {                                                  \
        float m = -std::numeric_limits<float>::infinity();                                           \
        _Pragma("omp simd reduction(max : m)") for (int64_t i = 0; i < n; ++i) m = m < x[i] ? x[i] : m; \
        return m;                                                                                    \
    }                                                                                                \
    /* o[i] = exp(x[i] - mx); returns their sum. */                                                  \
    ATTR float expShiftStore(float* o, const float* x, int64_t n, float mx) {                        \
        float s = 0.0f;                                                                              \
        _Pragma("omp simd reduction(+ : s)") for (int64_t i = 0; i < n; ++i) {                       \
            float e = expF(x[i] - mx);                                                               \
            o[i] = e;                                                                                \
            s += e;                                                                                  \
        }                                                                                            \
        return s;                                                                                    \
    }                                                                                                \
    ATTR float expShiftSum(const float* x, int64_t n, float mx) {                                    \
        float s = 0.0f;                                                                              \
        _Pragma("omp simd reduction(+ : s)") for (int64_t i = 0; i < n; ++i) s += expF(x[i] - mx);   \
        return s;                                                                                    \
    }                                                                                                \
    ATTR void scaleBy(float* o, int64_t n, float k) {                                                \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) o[i] *= k;                               \
    }                                                                                                \
    /* o[i] = x[i] - mx - lse (the same order of operations as ATen). */                             \
    ATTR void shiftBy(float* o, const float* x, int64_t n, float mx, float lse) {                    \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) o[i] = x[i] - mx - lse;                  \
    }                                                                                                \
    ATTR float lineSum(const float* g, int64_t n) {                                                  \
        float s = 0.0f;                                                                              \
        _Pragma("omp simd reduction(+ : s)") for (int64_t i = 0; i < n; ++i) s += g[i];              \
        return s;                                                                                    \
    }                                                                                                \
    ATTR float lineDot(const float* g, const float* y, int64_t n) {                                  \
        float s = 0.0f;                                                                              \
        _Pragma("omp simd reduction(+ : s)") for (int64_t i = 0; i < n; ++i) s += g[i] * y[i];       \
        return s;                                                                                    \
    }                                                                                                \
    /* r = y * (g - dot) (softmax) or r = g - exp(y) * sum (log-softmax). */                         \
    ATTR void softmaxGradLine(float* r, const float* g, const float* y, int64_t n, float d) {         \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) r[i] = y[i] * (g[i] - d);                \
    }                                                                                                \
    ATTR void logSoftmaxGradLine(float* r, const float* g, const float* y, int64_t n, float d) {     \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) r[i] = g[i] - expF(y[i]) * d;            \
    }                                                                                                \
    const LineKernels kKernels = {lineMax, expShiftStore, expShiftSum, scaleBy,       shiftBy,       \
                                  lineSum, lineDot,       softmaxGradLine, logSoftmaxGradLine};      \
    }

CPU_SOFTMAX_LINES(lines_base, )
#if CPU_HAVE_X86_LEVELS
CPU_SOFTMAX_LINES(lines_avx2, CPU_TARGET_AVX2)
CPU_SOFTMAX_LINES(lines_avx512, CPU_TARGET_AVX512)
#endif
#undef CPU_SOFTMAX_LINES

const LineKernels& lines() {
#if CPU_HAVE_X86_LEVELS
    switch (isa()) {
        case Isa::Avx512: return lines_avx512::kKernels;
        case Isa::Avx2: return lines_avx2::kKernels;
        default: break;
    }
#endif
    return lines_base::kKernels;
}

/// Softmax or log-softmax of one dense float line; o may equal x.
template <bool Log>
void softmaxLine(const LineKernels& k, float* o, const float* x, int64_t n) {
    const float mx = k.max(x, n);
    // An all -inf line gives -inf - -inf = NaN everywhere, as torch does.
    if constexpr (Log) {
        const float lse = std::log(k.expShiftSum(x, n, mx));
        k.shift(o, x, n, mx, lse);
    } else {
        const float sum = k.expShiftStore(o, x, n, mx);
        k.scale(o, n, 1.0f / sum);
    }
}

/// The same in double (float64 tensors), with libm.
template <bool Log>
void softmaxLineD(double* o, const double* x, int64_t n) {
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t i = 0; i < n; ++i) mx = mx < x[i] || std::isnan(x[i]) ? x[i] : mx;
    double s = 0.0;
    if constexpr (Log) {
        for (int64_t i = 0; i < n; ++i) s += std::exp(x[i] - mx);
        const double lse = std::log(s);
        for (int64_t i = 0; i < n; ++i) o[i] = x[i] - mx - lse;
    } else {
        for (int64_t i = 0; i < n; ++i) {
            o[i] = std::exp(x[i] - mx);
            s += o[i];
        }
        const double inv = 1.0 / s;
        for (int64_t i = 0; i < n; ++i) o[i] *= inv;
    }
}

/// A per-thread scratch line of at least n elements of C.
template <class C>
C* scratch(int64_t n, int which) {
    thread_local std::vector<C> bufs[3];
    std::vector<C>& b = bufs[which];
    if ((int64_t)b.size() < n) b.resize(n);
    return b.data();
}

/// Line p (stride s) in compute type C: p itself when dense and of type C, else a scratch copy.
template <class C, class T>
const C* gatherLine(const T* p, int64_t n, int64_t s, int which) {
    if constexpr (std::is_same_v<T, C>)
        if (s == 1) return p;
    C* b = scratch<C>(n, which);
    if constexpr (is_reduced_float_v<T> && std::is_same_v<C, float>) {
        if (s == 1) {
            simd::widen(b, p, n);
            return b;
        }
    }
    for (int64_t j = 0; j < n; ++j) b[j] = C(p[j * s]);
    return b;
}

template <bool Log>
void softmaxForward(diopiContextHandle_t ctx, const TensorView& out, TensorView in, int64_t dim) {
    checkFloatOut(out, "out");
    CPU_CHECK(in.shape == out.shape, "out shape ", shapeStr(out.shape), " differs from input shape ", shapeStr(in.shape));
    // torch.softmax(input, dim, dtype=out.dtype): the input is converted first.
    in = castTo(ctx, in, out.dtype);
    LineDim ld = lineDim(in, dim);
    const int64_t n = ld.len, si = strideOf(in, ld.dim), so = strideOf(out, ld.dim);
    const LineKernels& k = lines();
    dispatch<FloatTypes>(out.dtype, "out", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using C = std::conditional_t<std::is_same_v<T, double>, double, float>;  // compute type
        lineLoop<2>({&out, &in}, ld.dim, [&](char** b) {
            T* o = reinterpret_cast<T*>(b[0]);
            const T* x = reinterpret_cast<const T*>(b[1]);
            auto run = [&](C* dst, const C* src) {
                if constexpr (std::is_same_v<C, double>) softmaxLineD<Log>(dst, src, n);
                else softmaxLine<Log>(k, dst, src, n);
            };
            if constexpr (std::is_same_v<T, C>) {
                if (si == 1 && so == 1) {
                    run(o, x);
                    return;
                }
            }
            // Other lines (strided, 16-bit) are computed in a buffer.
            C* buf = scratch<C>(n, 0);
            if constexpr (is_reduced_float_v<T>) {
                if (si == 1 && so == 1) {  // per-level conversions, not one element at a time
                    simd::widen(buf, x, n);
                    run(buf, buf);
                    simd::narrow(o, buf, n);
                    return;
                }
            }
            for (int64_t j = 0; j < n; ++j) buf[j] = C(x[j * si]);
            run(buf, buf);
            for (int64_t j = 0; j < n; ++j) o[j * so] = T(buf[j]);
        });
    });
}

template <bool Log>
void softmaxBackward(diopiContextHandle_t ctx, const TensorView& gi, TensorView go, TensorView y, int64_t dim) {
    checkFloatOut(gi, "grad_input");
    CPU_CHECK(go.shape == gi.shape, "grad_output shape ", shapeStr(go.shape), " differs from grad_input shape ", shapeStr(gi.shape));
    CPU_CHECK(y.shape == gi.shape, "output shape ", shapeStr(y.shape), " differs from grad_input shape ", shapeStr(gi.shape));
    go = castTo(ctx, go, gi.dtype);
    y = castTo(ctx, y, gi.dtype);
    LineDim ld = lineDim(gi, dim);
    const int64_t n = ld.len, s0 = strideOf(gi, ld.dim), s1 = strideOf(go, ld.dim), s2 = strideOf(y, ld.dim);
    const LineKernels& k = lines();
    dispatch<FloatTypes>(gi.dtype, "grad_input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
        lineLoop<3>({&gi, &go, &y}, ld.dim, [&](char** b) {
            T* r = reinterpret_cast<T*>(b[0]);
            const C* g = gatherLine<C>(reinterpret_cast<const T*>(b[1]), n, s1, 1);
            const C* o = gatherLine<C>(reinterpret_cast<const T*>(b[2]), n, s2, 2);
            bool direct = std::is_same_v<T, C> && s0 == 1;
            C* rr = direct ? reinterpret_cast<C*>(r) : scratch<C>(n, 0);
            if constexpr (std::is_same_v<C, double>) {
                double d = 0.0;
                if constexpr (Log) {
                    // grad - exp(output) * sum(grad)
                    for (int64_t j = 0; j < n; ++j) d += g[j];
                    for (int64_t j = 0; j < n; ++j) rr[j] = g[j] - std::exp(o[j]) * d;
                } else {
                    // output * (grad - sum(grad * output))
                    for (int64_t j = 0; j < n; ++j) d += g[j] * o[j];
                    for (int64_t j = 0; j < n; ++j) rr[j] = o[j] * (g[j] - d);
                }
            } else if constexpr (Log) {
                k.logSoftmaxGrad(rr, g, o, n, k.sum(g, n));
            } else {
                k.softmaxGrad(rr, g, o, n, k.dot(g, o, n));
            }
            if (direct) return;
            if constexpr (is_reduced_float_v<T>) {
                if (s0 == 1) return simd::narrow(r, rr, n);
            }
            for (int64_t j = 0; j < n; ++j) r[j * s0] = T(rr[j]);
        });
    });
}

}  // namespace

diopiError_t diopiSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim) {
    return guard(__func__, [&] { softmaxForward<false>(ctx, view(out, "out"), view(input, "input"), dim); });
}

diopiError_t diopiLogSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim) {
    return guard(__func__, [&] { softmaxForward<true>(ctx, view(out, "out"), view(input, "input"), dim); });
}

diopiError_t diopiSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t output, int64_t dim) {
    return guard(__func__, [&] {
        softmaxBackward<false>(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), view(output, "output"), dim);
    });
}

diopiError_t diopiLogSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                     diopiConstTensorHandle_t output, int64_t dim) {
    return guard(__func__, [&] {
        softmaxBackward<true>(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), view(output, "output"), dim);
    });
}

}  // namespace impl::cpu
