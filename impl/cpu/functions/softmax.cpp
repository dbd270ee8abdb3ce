// Family softmax: softmax and log-softmax along one dim, forward and backward.
#include <cmath>
#include <limits>

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
            float mx = -std::numeric_limits<float>::infinity();
            for (int64_t j = 0; j < n; ++j) {
                float v = float(x[j * si]);
                // A NaN makes the whole line NaN, like ATen.
                if (!(v <= mx)) mx = v;
            }
            // An all -inf line gives -inf - -inf = NaN everywhere, as torch does.
            float sum = 0.0f;
            if constexpr (std::is_same_v<T, float>) {
                if (si == 1 && (so == 1 || Log)) {
                    // Dense float32 line: four-wide exp, writing exp(x - max) (softmax) or only summing (log-softmax).
                    const Vec4f m4 = splat4(mx);
                    Vec4f acc = splat4(0.0f);
                    int64_t j = 0;
                    for (; j + 4 <= n; j += 4) {
                        Vec4f e = exp4(load4(x + j) - m4);
                        if constexpr (!Log) store4(o + j, e);
                        acc += e;
                    }
                    sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
                    for (; j < n; ++j) {
                        float e = std::exp(x[j] - mx);
                        if constexpr (!Log) o[j] = e;
                        sum += e;
                    }
                    if constexpr (Log) {
                        const float sub = mx + std::log(sum);
                        for (int64_t k = 0; k < n; ++k) o[k * so] = x[k] - sub;
                    } else {
                        const float inv = 1.0f / sum;
                        for (int64_t k = 0; k < n; ++k) o[k] *= inv;
                    }
                    return;
                }
            }
            if constexpr (std::is_same_v<T, float> && !Log) {
                for (int64_t j = 0; j < n; ++j) {
                    float e = std::exp(float(x[j * si]) - mx);
                    o[j * so] = e;
                    sum += e;
                }
                float inv = 1.0f / sum;
                for (int64_t j = 0; j < n; ++j) o[j * so] *= inv;
            } else {
                for (int64_t j = 0; j < n; ++j) sum += std::exp(float(x[j * si]) - mx);
                if constexpr (Log) {
                    float lse = std::log(sum);
                    for (int64_t j = 0; j < n; ++j) o[j * so] = T(float(x[j * si]) - mx - lse);
                } else {
                    float inv = 1.0f / sum;
                    for (int64_t j = 0; j < n; ++j) o[j * so] = T(std::exp(float(x[j * si]) - mx) * inv);
                }
            }
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
            const T* g = reinterpret_cast<const T*>(b[1]);
            const T* o = reinterpret_cast<const T*>(b[2]);
            float dot = 0.0f;
            if constexpr (Log) {
                // grad - exp(output) * sum(grad)
                for (int64_t j = 0; j < n; ++j) dot += float(g[j * s1]);
                for (int64_t j = 0; j < n; ++j) r[j * s0] = T(float(g[j * s1]) - std::exp(float(o[j * s2])) * dot);
            } else {
                // output * (grad - sum(grad * output))
                for (int64_t j = 0; j < n; ++j) dot += float(g[j * s1]) * float(o[j * s2]);
                for (int64_t j = 0; j < n; ++j) r[j * s0] = T(float(o[j * s2]) * (float(g[j * s1]) - dot));
            }
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
