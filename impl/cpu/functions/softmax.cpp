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

// Line kernels on contiguous float arrays, auto-vectorised (fastmath.hpp).
// Sums are split over SIMD lanes, which only reorders the float additions.

/// Largest element. A NaN may or may not win here; it reaches the result
/// anyway through the exp sum below, making the whole line NaN like ATen.
CPU_SIMD_CLONES float lineMax(const float* x, int64_t n) {
    float m = -std::numeric_limits<float>::infinity();
#pragma omp simd reduction(max : m)
    for (int64_t i = 0; i < n; ++i) m = m < x[i] ? x[i] : m;
    return m;
}

/// o[i] = exp(x[i] - mx); returns their sum.
CPU_SIMD_CLONES float expShiftStore(float* o, const float* x, int64_t n, float mx) {
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for (int64_t i = 0; i < n; ++i) {
        float e = expF(x[i] - mx);
        o[i] = e;
        s += e;
    }
    return s;
}

/// Sum of exp(x[i] - mx).
CPU_SIMD_CLONES float expShiftSum(const float* x, int64_t n, float mx) {
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for (int64_t i = 0; i < n; ++i) s += expF(x[i] - mx);
    return s;
}

CPU_SIMD_CLONES void scaleBy(float* o, int64_t n, float k) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) o[i] *= k;
}

/// o[i] = x[i] - mx - lse (the same order of operations as ATen).
CPU_SIMD_CLONES void shiftBy(float* o, const float* x, int64_t n, float mx, float lse) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) o[i] = x[i] - mx - lse;
}

CPU_SIMD_CLONES float lineSum(const float* g, int64_t n) {
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for (int64_t i = 0; i < n; ++i) s += g[i];
    return s;
}

CPU_SIMD_CLONES float lineDot(const float* g, const float* y, int64_t n) {
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for (int64_t i = 0; i < n; ++i) s += g[i] * y[i];
    return s;
}

/// r = y * (g - dot) (softmax) or r = g - exp(y) * sum (log-softmax), `d` being dot or sum.
CPU_SIMD_CLONES void softmaxGradLine(float* r, const float* g, const float* y, int64_t n, float d) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) r[i] = y[i] * (g[i] - d);
}
CPU_SIMD_CLONES void logSoftmaxGradLine(float* r, const float* g, const float* y, int64_t n, float d) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) r[i] = g[i] - expF(y[i]) * d;
}

/// Softmax or log-softmax of one dense float line; o may equal x.
template <bool Log>
void softmaxLine(float* o, const float* x, int64_t n) {
    const float mx = lineMax(x, n);
    // An all -inf line gives -inf - -inf = NaN everywhere, as torch does.
    if constexpr (Log) {
        const float lse = std::log(expShiftSum(x, n, mx));
        shiftBy(o, x, n, mx, lse);
    } else {
        const float sum = expShiftStore(o, x, n, mx);
        scaleBy(o, n, 1.0f / sum);
    }
}

/// A per-thread float scratch line of at least n elements.
float* scratch(int64_t n, int which) {
    thread_local std::vector<float> bufs[3];
    std::vector<float>& b = bufs[which];
    if ((int64_t)b.size() < n) b.resize(n);
    return b.data();
}

template <class T>
const float* gatherLine(const T* p, int64_t n, int64_t s, int which) {
    if constexpr (std::is_same_v<T, float>)
        if (s == 1) return p;
    float* b = scratch(n, which);
    for (int64_t j = 0; j < n; ++j) b[j] = float(p[j * s]);
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
    dispatch<FloatTypes>(out.dtype, "out", [&](auto tag) {
        using T = typename decltype(tag)::type;
        lineLoop<2>({&out, &in}, ld.dim, [&](char** b) {
            T* o = reinterpret_cast<T*>(b[0]);
            const T* x = reinterpret_cast<const T*>(b[1]);
            if constexpr (std::is_same_v<T, float>) {
                if (si == 1 && so == 1) {
                    softmaxLine<Log>(o, x, n);
                    return;
                }
            }
            // Other lines (strided, 16-bit) are computed in a float buffer.
            float* buf = scratch(n, 0);
            for (int64_t j = 0; j < n; ++j) buf[j] = float(x[j * si]);
            softmaxLine<Log>(buf, buf, n);
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
    dispatch<FloatTypes>(gi.dtype, "grad_input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        lineLoop<3>({&gi, &go, &y}, ld.dim, [&](char** b) {
            T* r = reinterpret_cast<T*>(b[0]);
            const float* g = gatherLine(reinterpret_cast<const T*>(b[1]), n, s1, 1);
            const float* o = gatherLine(reinterpret_cast<const T*>(b[2]), n, s2, 2);
            bool direct = std::is_same_v<T, float> && s0 == 1;
            float* rr = direct ? reinterpret_cast<float*>(r) : scratch(n, 0);
            if constexpr (Log) {
                // grad - exp(output) * sum(grad)
                logSoftmaxGradLine(rr, g, o, n, lineSum(g, n));
            } else {
                // output * (grad - sum(grad * output))
                softmaxGradLine(rr, g, o, n, lineDot(g, o, n));
            }
            if (!direct)
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
