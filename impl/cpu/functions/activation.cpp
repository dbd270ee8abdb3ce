// Family activation: relu, hardtanh, hardswish, threshold, gelu, leaky relu,
// tanh, sigmoid and silu (forward, in place and backward).
#include <cmath>
#include <cstring>

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

inline Vec4f sigmoid4(Vec4f x) { return splat4(1.0f) / (splat4(1.0f) + exp4(-x)); }
inline Vec4f silu4(Vec4f x) { return x / (splat4(1.0f) + exp4(-x)); }
/// tanh from e^(-2|x|) (no overflow), sign restored afterwards.
inline Vec4f tanh4(Vec4f x) {
    Vec4f ax = (Vec4f)((Vec4i)x & Vec4i{0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff});
    Vec4f t = exp4(splat4(-2.0f) * ax);
    Vec4f r = (splat4(1.0f) - t) / (splat4(1.0f) + t);
    return x < splat4(0.0f) ? -r : r;
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

constexpr float kSqrt1_2 = 0.70710678118654752440f;
constexpr float kSqrt2OverPi = 0.79788456080286535588f;  // sqrt(2 / pi)
constexpr float kInvSqrt2Pi = 0.39894228040143267794f;    // 1 / sqrt(2 pi)
constexpr float kGeluKappa = 0.044715f;

inline float geluExact(float x) { return 0.5f * x * (1.0f + std::erf(x * kSqrt1_2)); }
inline float geluTanh(float x) {
    float inner = kSqrt2OverPi * (x + kGeluKappa * x * x * x);
    return 0.5f * x * (1.0f + std::tanh(inner));
}
inline float geluExactGrad(float x) {
    float cdf = 0.5f * (1.0f + std::erf(x * kSqrt1_2));
    float pdf = kInvSqrt2Pi * std::exp(-0.5f * x * x);
    return cdf + x * pdf;
}
inline float geluTanhGrad(float x) {
    float x2 = x * x;
    float t = std::tanh(kSqrt2OverPi * (x + kGeluKappa * x2 * x));
    float left = 0.5f * x, right = 1.0f + t;
    return 0.5f * right + left * (1.0f - t * t) * kSqrt2OverPi * (1.0f + 3.0f * kGeluKappa * x2);
}

inline float sigmoidF(float x) { return 1.0f / (1.0f + std::exp(-x)); }

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
        if (k == GeluKind::Exact) floatMap(ctx, view(out, "out"), view(input, "input"), geluExact);
        else floatMap(ctx, view(out, "out"), view(input, "input"), geluTanh);
    });
}

diopiError_t diopiGeluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t input, const char* approximate) {
    return guard(__func__, [&] {
        GeluKind k = geluKind(approximate);
        TensorView gi = view(grad_input, "grad_input"), go = view(grad_output, "grad_output"), x = view(input, "input");
        if (k == GeluKind::Exact) floatBackward(ctx, gi, go, x, "input", [](float g, float v) { return g * geluExactGrad(v); });
        else floatBackward(ctx, gi, go, x, "input", [](float g, float v) { return g * geluTanhGrad(v); });
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
    return guard(__func__, [&] { floatMapFast(ctx, view(out, "out"), view(input, "input"), sigmoid4, sigmoidF); });
}

diopiError_t diopiSigmoidInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = inplaceFloat(input);
        floatMapFast(ctx, t, t, sigmoid4, sigmoidF);
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
    return guard(__func__, [&] { floatMapFast(ctx, view(out, "out"), view(input, "input"), silu4, [](float x) { return x * sigmoidF(x); }); });
}

diopiError_t diopiSiluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = inplaceFloat(input);
        floatMapFast(ctx, t, t, silu4, [](float x) { return x * sigmoidF(x); });
    });
}

diopiError_t diopiSiluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        floatBackward(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), view(input, "input"), "input",
                      [](float g, float x) {
                          float s = sigmoidF(x);
                          return g * s * (1.0f + x * (1.0f - s));
                      });
    });
}

}  // namespace impl::cpu
