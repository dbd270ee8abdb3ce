// Family activation: relu, hardtanh, hardswish, threshold, gelu, leaky relu,
// tanh, sigmoid and silu (forward, in place and backward).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "common/common.hpp"
#include "common/fastmath.hpp"

namespace impl::cpu {

namespace {

void checkSameShape(const TensorView& a, const TensorView& b, const char* na, const char* nb) {
    CPU_CHECK(a.shape == b.shape, na, " shape ", shapeStr(a.shape), " differs from ", nb, " shape ", shapeStr(b.shape));
}

/// out = f(input) for a function with a floating-point result: the input is
/// converted to out's dtype (torch's promotion), 16-bit floats compute in float.
template <class F>
void floatMap(diopiContextHandle_t ctx, const TensorView& out, TensorView in, F f) {
    if (!isFloatingDtype(out.dtype))
        failCode(diopiDtypeNotSupported, "out dtype ", dtypeName(out.dtype), " cannot hold a floating-point result");
    checkSameShape(out, in, "out", "input");
    in = castTo(ctx, in, out.dtype);
    dispatch<FloatTypes>(out.dtype, "out", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using A = acc_t<T>;
        unaryLoop<T, T>(out, in, [f](T x) { return T(f(A(x))); });
    });
}

/// floatMap with a four-wide float32 form `vf` used when out and input are
/// contiguous float32 of one shape (the common case); `sf` elsewhere.
template <class VF, class SF>
void floatMapFast(diopiContextHandle_t ctx, const TensorView& out, TensorView in, VF vf, SF sf) {
    if (out.dtype == diopi_dtype_float32 && in.dtype == diopi_dtype_float32 && in.shape == out.shape && out.isContiguous() &&
        in.isContiguous()) {
        float* o = out.ptr<float>();
        const float* x = in.ptr<float>();
        parallelFor(out.numel, kParallelGrain, [&](int64_t b, int64_t e) { map4(o + b, x + b, e - b, vf, sf); });
        return;
    }
    floatMap(ctx, out, in, sf);
}

/// tanh from e^(-2|x|) (no overflow), sign restored afterwards.
inline Vec4f tanh4(Vec4f x) {
    Vec4f ax = (Vec4f)((Vec4i)x & Vec4i{0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff});
    Vec4f t = exp4(splat4(-2.0f) * ax);
    Vec4f r = (splat4(1.0f) - t) / (splat4(1.0f) + t);
    return x < splat4(0.0f) ? -r : r;
}

// Branch-free float formulas (fastmath.hpp) shared by the array kernels below
// and the strided fallbacks, so both give the same results. They follow
// ATen's formulas, so inf/NaN inputs give the same results as the reference.
CPU_FORCE_INLINE float sigmoidV(float x) { return 1.0f / (1.0f + expF(-x)); }
CPU_FORCE_INLINE float siluV(float x) { return x / (1.0f + expF(-x)); }
CPU_FORCE_INLINE float siluGradV(float g, float x) {
    float s = sigmoidV(x);
    return g * s * (1.0f + x * (1.0f - s));
}

constexpr float kSqrt1_2 = 0.70710678118654752440f;
constexpr float kSqrt2OverPi = 0.79788456080286535588f;  // sqrt(2 / pi)
constexpr float kInvSqrt2Pi = 0.39894228040143267794f;    // 1 / sqrt(2 pi)
constexpr float kGeluKappa = 0.044715f;

CPU_FORCE_INLINE float geluExactV(float x) {
    float z = x * kSqrt1_2;
    return 0.5f * x * onePlusErfF(z, expF(-z * z));
}
CPU_FORCE_INLINE float geluExactGradV(float g, float x) {
    float z = x * kSqrt1_2;
    float ez = expF(-z * z);  // e^(-x^2 / 2): the erfc factor and the density share it
    float cdf = 0.5f * onePlusErfF(z, ez);
    float pdf = kInvSqrt2Pi * ez;
    return g * (cdf + x * pdf);
}
// With s = sigmoid(2y): (1 + tanh y) / 2 = s and 1 - tanh^2 y = 4 s (1 - s).
CPU_FORCE_INLINE float geluTanhV(float x) {
    float inner = kSqrt2OverPi * (x + kGeluKappa * x * x * x);
    return x * sigmoidV(2.0f * inner);
}
CPU_FORCE_INLINE float geluTanhGradV(float g, float x) {
    float x2 = x * x;
    float s = sigmoidV(2.0f * kSqrt2OverPi * (x + kGeluKappa * x2 * x));
    float innerGrad = kSqrt2OverPi * (1.0f + 3.0f * kGeluKappa * x2);
    return g * (s + 2.0f * x * (s * (1.0f - s)) * innerGrad);
}

// Array kernels for contiguous float data (auto-vectorised, see fastmath.hpp).
using Map1 = void (*)(float*, const float*, int64_t);
using Map2 = void (*)(float*, const float*, const float*, int64_t);
#define CPU_ACT_MAP1(name, fn)                                                   \
    CPU_SIMD_CLONES void name(float* o, const float* a, int64_t n) {             \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) o[i] = fn(a[i]);     \
    }
#define CPU_ACT_MAP2(name, fn)                                                                     \
    CPU_SIMD_CLONES void name(float* o, const float* a, const float* b, int64_t n) {               \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) o[i] = fn(a[i], b[i]);                 \
    }
CPU_ACT_MAP1(sigmoidArr, sigmoidV)
CPU_ACT_MAP1(siluArr, siluV)
CPU_ACT_MAP1(geluExactArr, geluExactV)
CPU_ACT_MAP1(geluTanhArr, geluTanhV)
CPU_ACT_MAP2(siluGradArr, siluGradV)
CPU_ACT_MAP2(geluExactGradArr, geluExactGradV)
CPU_ACT_MAP2(geluTanhGradArr, geluTanhGradV)
#undef CPU_ACT_MAP1
#undef CPU_ACT_MAP2

/// 16-bit data goes through a float buffer in blocks of this many elements.
constexpr int64_t kBlock = 512;

template <class T>
void runMap1(T* o, const T* a, int64_t n, Map1 f) {
    if constexpr (std::is_same_v<T, float>) {
        f(o, a, n);
    } else {
        float buf[kBlock];
        for (int64_t i = 0; i < n; i += kBlock) {
            int64_t m = std::min(kBlock, n - i);
            for (int64_t j = 0; j < m; ++j) buf[j] = float(a[i + j]);
            f(buf, buf, m);
            for (int64_t j = 0; j < m; ++j) o[i + j] = T(buf[j]);
        }
    }
}

template <class T>
void runMap2(T* o, const T* a, const T* b, int64_t n, Map2 f) {
    if constexpr (std::is_same_v<T, float>) {
        f(o, a, b, n);
    } else {
        float ba[kBlock], bb[kBlock];
        for (int64_t i = 0; i < n; i += kBlock) {
            int64_t m = std::min(kBlock, n - i);
            for (int64_t j = 0; j < m; ++j) {
                ba[j] = float(a[i + j]);
                bb[j] = float(b[i + j]);
            }
            f(ba, ba, bb, m);
            for (int64_t j = 0; j < m; ++j) o[i + j] = T(ba[j]);
        }
    }
}

/// floatMap with an array kernel for the case of contiguous out and input of
/// one shape (after the input is converted to out's dtype); `sf` elsewhere.
template <class SF>
void floatMapArr(diopiContextHandle_t ctx, const TensorView& out, TensorView in, Map1 arr, SF sf) {
    if (!isFloatingDtype(out.dtype))
        failCode(diopiDtypeNotSupported, "out dtype ", dtypeName(out.dtype), " cannot hold a floating-point result");
    checkSameShape(out, in, "out", "input");
    in = castTo(ctx, in, out.dtype);
    if (out.isContiguous() && in.isContiguous()) {
        dispatch<FloatTypes>(out.dtype, "out", [&](auto tag) {
            using T = typename decltype(tag)::type;
            T* o = out.ptr<T>();
            const T* x = in.ptr<T>();
            parallelFor(out.numel, kParallelGrain, [&](int64_t b, int64_t e) { runMap1<T>(o + b, x + b, e - b, arr); });
        });
        return;
    }
    floatMap(ctx, out, in, sf);
}

/// grad_input = f(grad_output, x) elementwise, computed in float for 16-bit types.
template <class F>
void floatBackward(diopiContextHandle_t ctx, const TensorView& gi, TensorView go, TensorView x, const char* xname, F f) {
    if (!isFloatingDtype(gi.dtype))
        failCode(diopiDtypeNotSupported, "grad_input dtype ", dtypeName(gi.dtype), " is not a floating-point dtype");
    checkSameShape(gi, go, "grad_input", "grad_output");
    checkSameShape(gi, x, "grad_input", xname);
    go = castTo(ctx, go, gi.dtype);
    x = castTo(ctx, x, gi.dtype);
    dispatch<FloatTypes>(gi.dtype, "grad_input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using A = acc_t<T>;
        binaryLoop<T, T, T>(gi, go, x, [f](T g, T v) { return T(f(A(g), A(v))); });
    });
}

/// floatBackward with an array kernel arr(gi, go, x) for contiguous operands.
template <class F>
void floatBackwardArr(diopiContextHandle_t ctx, const TensorView& gi, TensorView go, TensorView x, const char* xname, Map2 arr, F f) {
    if (!isFloatingDtype(gi.dtype))
        failCode(diopiDtypeNotSupported, "grad_input dtype ", dtypeName(gi.dtype), " is not a floating-point dtype");
    checkSameShape(gi, go, "grad_input", "grad_output");
    checkSameShape(gi, x, "grad_input", xname);
    go = castTo(ctx, go, gi.dtype);
    x = castTo(ctx, x, gi.dtype);
    if (gi.isContiguous() && go.isContiguous() && x.isContiguous()) {
        dispatch<FloatTypes>(gi.dtype, "grad_input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            T* r = gi.ptr<T>();
            const T* g = go.ptr<T>();
            const T* v = x.ptr<T>();
            parallelFor(gi.numel, kParallelGrain, [&](int64_t b, int64_t e) { runMap2<T>(r + b, g + b, v + b, e - b, arr); });
        });
        return;
    }
    floatBackward(ctx, gi, go, x, xname, f);
}

TensorView inplaceFloat(diopiTensorHandle_t h) {
    TensorView t = view(h, "input");
    if (!isFloatingDtype(t.dtype))
        failCode(diopiDtypeNotSupported, "in-place form needs a floating-point input, got ", dtypeName(t.dtype));
    return t;
}

/// A scalar parameter rounded to the tensor's element type, as ATen compares
/// against `scalar.to<scalar_t>()`; returned in compute precision.
float scalarIn(const diopiScalar_t* s, const char* name, diopiDtype_t dt) {
    double v = scalarDouble(s, name);
    float r = 0;
    dispatch<FloatTypes>(dt, "input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        r = float(T(float(v)));
    });
    return r;
}

enum class GeluKind { Exact, Tanh };

GeluKind geluKind(const char* approximate) {
    if (approximate == nullptr || std::strcmp(approximate, "none") == 0) return GeluKind::Exact;
    if (std::strcmp(approximate, "tanh") == 0) return GeluKind::Tanh;
    fail("approximate must be \"none\" or \"tanh\", got \"", approximate, "\"");
}


inline float hardswishF(float x) {
    float r = x + 3.0f;
    r = r < 0.0f ? 0.0f : (r > 6.0f ? 6.0f : r);
    return x * r / 6.0f;
}

template <class A>
inline A reluOf(A x) {
    if constexpr (std::is_floating_point_v<A>) {
        return std::isnan(x) ? x : (x > A(0) ? x : A(0));
    } else {
        return x > A(0) ? x : A(0);
    }
}

void relu(diopiContextHandle_t ctx, const TensorView& out, TensorView in) {
    checkSameShape(out, in, "out", "input");
    in = castTo(ctx, in, out.dtype);
    dispatch<NumericTypes>(out.dtype, "out", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using A = acc_t<T>;
        unaryLoop<T, T>(out, in, [](T x) { return T(reluOf(A(x))); });
    });
}

void hardtanh(diopiContextHandle_t ctx, const TensorView& out, const TensorView& in, const diopiScalar_t* min_val, const diopiScalar_t* max_val) {
    double lo = scalarDouble(min_val, "min_val"), hi = scalarDouble(max_val, "max_val");
    CPU_CHECK(!(lo > hi), "min_val (", lo, ") must not exceed max_val (", hi, ")");
    float l = scalarIn(min_val, "min_val", out.dtype), h = scalarIn(max_val, "max_val", out.dtype);
    // NaN passes through (neither comparison holds), like torch.clamp.
    floatMap(ctx, out, in, [l, h](float x) { return x < l ? l : (x > h ? h : x); });
}

void threshold(diopiContextHandle_t ctx, const TensorView& out, const TensorView& in, const diopiScalar_t* thr, const diopiScalar_t* value) {
    float t = scalarIn(thr, "threshold", out.dtype), v = scalarIn(value, "value", out.dtype);
    // Written as "x <= t ? value : x" so NaN keeps NaN, as ATen does.
    floatMap(ctx, out, in, [t, v](float x) { return x <= t ? v : x; });
}

void leakyRelu(diopiContextHandle_t ctx, const TensorView& out, const TensorView& in, const diopiScalar_t* slope) {
    float s = (float)scalarDouble(slope, "negative_slope");
    floatMap(ctx, out, in, [s](float x) { return x > 0.0f ? x : x * s; });
}

}  // namespace

// ---------------------------------------------------------------- relu
diopiError_t diopiRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { relu(ctx, view(out, "out"), view(input, "input")); });
}

diopiError_t diopiReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        relu(ctx, t, t);
    });
}

// ---------------------------------------------------------------- hardtanh
diopiError_t diopiHardtanh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* min_val,
                           const diopiScalar_t* max_val) {
    return guard(__func__, [&] { hardtanh(ctx, view(out, "out"), view(input, "input"), min_val, max_val); });
}

diopiError_t diopiHardtanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* min_val, const diopiScalar_t* max_val) {
    return guard(__func__, [&] {
        TensorView t = inplaceFloat(input);
        hardtanh(ctx, t, t, min_val, max_val);
    });
}

diopiError_t diopiHardtanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                   diopiConstTensorHandle_t input, const diopiScalar_t* min_val, const diopiScalar_t* max_val) {
    return guard(__func__, [&] {
        TensorView gi = view(grad_input, "grad_input");
        double lo = scalarDouble(min_val, "min_val"), hi = scalarDouble(max_val, "max_val");
        CPU_CHECK(!(lo > hi), "min_val (", lo, ") must not exceed max_val (", hi, ")");
        if (!isFloatingDtype(gi.dtype)) failCode(diopiDtypeNotSupported, "grad_input dtype ", dtypeName(gi.dtype), " is not supported");
        float l = scalarIn(min_val, "min_val", gi.dtype), h = scalarIn(max_val, "max_val", gi.dtype);
        // Zero gradient on and beyond the bounds.
        floatBackward(ctx, gi, view(grad_output, "grad_output"), view(input, "input"), "input",
                      [l, h](float g, float x) { return (x <= l || x >= h) ? 0.0f : g; });
    });
}

// ---------------------------------------------------------------- hardswish
diopiError_t diopiHardswish(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { floatMap(ctx, view(out, "out"), view(input, "input"), hardswishF); });
}

diopiError_t diopiHardswishInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = inplaceFloat(input);
        floatMap(ctx, t, t, hardswishF);
    });
}

diopiError_t diopiHardswishBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        floatBackward(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), view(input, "input"), "input",
                      // Boundaries as torch's hardswish_backward: x = -3 gets 0, x = 3 gets grad.
                      [](float g, float x) { return x <= -3.0f ? 0.0f : (x < 3.0f ? g * (x / 3.0f + 0.5f) : g); });
    });
}

// ---------------------------------------------------------------- threshold
diopiError_t diopiThreshold(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* threshold,
                            const diopiScalar_t* value) {
    return guard(__func__, [&] { impl::cpu::threshold(ctx, view(out, "out"), view(input, "input"), threshold, value); });
}

diopiError_t diopiThresholdInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* threshold, const diopiScalar_t* value) {
    return guard(__func__, [&] {
        TensorView t = inplaceFloat(input);
        impl::cpu::threshold(ctx, t, t, threshold, value);
    });
}

diopiError_t diopiThresholdBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, const diopiScalar_t* threshold) {
    return guard(__func__, [&] {
        TensorView gi = view(grad_input, "grad_input");
        if (!isFloatingDtype(gi.dtype)) failCode(diopiDtypeNotSupported, "grad_input dtype ", dtypeName(gi.dtype), " is not supported");
        float t = scalarIn(threshold, "threshold", gi.dtype);
        floatBackward(ctx, gi, view(grad_output, "grad_output"), view(input, "input"), "input",
                      [t](float g, float x) { return x <= t ? 0.0f : g; });
    });
}

// ---------------------------------------------------------------- gelu
diopiError_t diopiGelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* approximate) {
    return guard(__func__, [&] {
        GeluKind k = geluKind(approximate);
        if (k == GeluKind::Exact) floatMapArr(ctx, view(out, "out"), view(input, "input"), geluExactArr, geluExactV);
        else floatMapArr(ctx, view(out, "out"), view(input, "input"), geluTanhArr, geluTanhV);
    });
}

diopiError_t diopiGeluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t input, const char* approximate) {
    return guard(__func__, [&] {
        GeluKind k = geluKind(approximate);
        TensorView gi = view(grad_input, "grad_input"), go = view(grad_output, "grad_output"), x = view(input, "input");
        if (k == GeluKind::Exact) floatBackwardArr(ctx, gi, go, x, "input", geluExactGradArr, geluExactGradV);
        else floatBackwardArr(ctx, gi, go, x, "input", geluTanhGradArr, geluTanhGradV);
    });
}

// ---------------------------------------------------------------- leaky relu
diopiError_t diopiLeakyRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                            const diopiScalar_t* negative_slope) {
    return guard(__func__, [&] { leakyRelu(ctx, view(out, "out"), view(input, "input"), negative_slope); });
}

diopiError_t diopiLeakyReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* negative_slope) {
    return guard(__func__, [&] {
        TensorView t = inplaceFloat(input);
        leakyRelu(ctx, t, t, negative_slope);
    });
}

diopiError_t diopiLeakyReluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, const diopiScalar_t* negative_slope, bool input_is_result) {
    return guard(__func__, [&] {
        float s = (float)scalarDouble(negative_slope, "negative_slope");
        // With a negative slope the forward flips signs, so its result no longer tells which branch was taken.
        CPU_CHECK(!(input_is_result && s < 0), "input_is_result needs a non-negative negative_slope");
        floatBackward(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), view(input, "input"), "input",
                      [s](float g, float x) { return x > 0.0f ? g : g * s; });
    });
}

// ---------------------------------------------------------------- tanh
diopiError_t diopiTanh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { floatMapFast(ctx, view(out, "out"), view(input, "input"), tanh4, [](float x) { return std::tanh(x); }); });
}

diopiError_t diopiTanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = inplaceFloat(input);
        floatMapFast(ctx, t, t, tanh4, [](float x) { return std::tanh(x); });
    });
}

diopiError_t diopiTanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t output) {
    return guard(__func__, [&] {
        floatBackward(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), view(output, "output"), "output",
                      [](float g, float y) { return g * (1.0f - y * y); });
    });
}

// ---------------------------------------------------------------- sigmoid
diopiError_t diopiSigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { floatMapArr(ctx, view(out, "out"), view(input, "input"), sigmoidArr, sigmoidV); });
}

diopiError_t diopiSigmoidInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = inplaceFloat(input);
        floatMapArr(ctx, t, t, sigmoidArr, sigmoidV);
    });
}

diopiError_t diopiSigmoidBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t output) {
    return guard(__func__, [&] {
        floatBackward(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), view(output, "output"), "output",
                      [](float g, float y) { return g * y * (1.0f - y); });
    });
}

// ---------------------------------------------------------------- silu
diopiError_t diopiSilu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { floatMapArr(ctx, view(out, "out"), view(input, "input"), siluArr, siluV); });
}

diopiError_t diopiSiluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = inplaceFloat(input);
        floatMapArr(ctx, t, t, siluArr, siluV);
    });
}

diopiError_t diopiSiluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        floatBackwardArr(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), view(input, "input"), "input", siluGradArr,
                         siluGradV);
    });
}

}  // namespace impl::cpu
