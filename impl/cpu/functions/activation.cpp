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

// Float forms for the array kernels (fastmath.hpp), shared with the strided
// fallbacks of the 16-bit types. They follow ATen's formulas, so inf/NaN
// inputs give the same results as the reference. Float64 uses the generic
// forms below them (libm in double).
CPU_FORCE_INLINE float siluV(float x) { return x / (1.0f + expF(-x)); }
CPU_FORCE_INLINE float siluGradV(float g, float x) {
    float s = sigmoidF(x);
    return g * s * (1.0f + x * (1.0f - s));
}

constexpr double kSqrt1_2 = 0.70710678118654752440;
constexpr double kSqrt2OverPi = 0.79788456080286535588;  // sqrt(2 / pi)
constexpr double kInvSqrt2Pi = 0.39894228040143267794;    // 1 / sqrt(2 pi)
constexpr double kGeluKappa = 0.044715;

CPU_FORCE_INLINE float geluExactV(float x) {
    float z = x * float(kSqrt1_2);
    return 0.5f * x * onePlusErfF(z, expF(-z * z));
}
CPU_FORCE_INLINE float geluExactGradV(float g, float x) {
    float z = x * float(kSqrt1_2);
    float ez = expF(-z * z);  // e^(-x^2 / 2): the erfc factor and the density share it
    float cdf = 0.5f * onePlusErfF(z, ez);
    float pdf = float(kInvSqrt2Pi) * ez;
    return g * (cdf + x * pdf);
}
// With s = sigmoid(2y): (1 + tanh y) / 2 = s and 1 - tanh^2 y = 4 s (1 - s).
CPU_FORCE_INLINE float geluTanhV(float x) {
    float inner = float(kSqrt2OverPi) * (x + float(kGeluKappa) * x * x * x);
    return x * sigmoidF(2.0f * inner);
}
CPU_FORCE_INLINE float geluTanhGradV(float g, float x) {
    float x2 = x * x;
    float s = sigmoidF(2.0f * float(kSqrt2OverPi) * (x + float(kGeluKappa) * x2 * x));
    float innerGrad = float(kSqrt2OverPi) * (1.0f + 3.0f * float(kGeluKappa) * x2);
    return g * (s + 2.0f * x * (s * (1.0f - s)) * innerGrad);
}

// Generic forms: float (strided float32, picking the float forms above) or double (libm).
template <class A>
A sigmoidG(A x) {
    if constexpr (std::is_same_v<A, float>) return sigmoidF(x);
    else return A(1) / (A(1) + std::exp(-x));
}
template <class A>
A siluG(A x) {
    if constexpr (std::is_same_v<A, float>) return siluV(x);
    else return x / (A(1) + std::exp(-x));
}
template <class A>
A siluGradG(A g, A x) {
    if constexpr (std::is_same_v<A, float>) return siluGradV(g, x);
    A s = sigmoidG(x);
    return g * s * (A(1) + x * (A(1) - s));
}
template <class A>
A geluExactG(A x) {
    if constexpr (std::is_same_v<A, float>) return geluExactV(x);
    else return A(0.5) * x * (A(1) + std::erf(x * A(kSqrt1_2)));
}
template <class A>
A geluExactGradG(A g, A x) {
    if constexpr (std::is_same_v<A, float>) return geluExactGradV(g, x);
    A cdf = A(0.5) * (A(1) + std::erf(x * A(kSqrt1_2)));
    A pdf = A(kInvSqrt2Pi) * std::exp(A(-0.5) * x * x);
    return g * (cdf + x * pdf);
}
template <class A>
A geluTanhG(A x) {
    if constexpr (std::is_same_v<A, float>) return geluTanhV(x);
    A inner = A(kSqrt2OverPi) * (x + A(kGeluKappa) * x * x * x);
    return A(0.5) * x * (A(1) + std::tanh(inner));
}
template <class A>
A geluTanhGradG(A g, A x) {
    if constexpr (std::is_same_v<A, float>) return geluTanhGradV(g, x);
    A x2 = x * x;
    A t = std::tanh(A(kSqrt2OverPi) * (x + A(kGeluKappa) * x2 * x));
    A innerGrad = A(kSqrt2OverPi) * (A(1) + A(3) * A(kGeluKappa) * x2);
    return g * (A(0.5) * (A(1) + t) + A(0.5) * x * (A(1) - t * t) * innerGrad);
}
template <class A>
A tanhG(A x) {
    if constexpr (std::is_same_v<A, float>) return tanhF(x);
    else return std::tanh(x);
}

/// The array kernel of a float form: body(o, a, n) with o[i] = f(a[i]).
template <class F>
auto arr1(F f) {
    return [f](float* o, const float* a, int64_t n) { simd::map1(o, a, n, f); };
}
/// body(o, g, x, n) with o[i] = f(g[i], x[i]).
template <class F>
auto arr2(F f) {
    return [f](float* o, const float* a, const float* b, int64_t n) { simd::map2(o, a, b, n, f); };
}

/// floatMap with an array kernel for contiguous float32 and 16-bit out and
/// input of one shape (after the input is converted to out's dtype); `sf`
/// (generic, double for float64) elsewhere.
template <class Body, class SF>
void floatMapArr(diopiContextHandle_t ctx, const TensorView& out, TensorView in, Body body, SF sf) {
    if (!isFloatingDtype(out.dtype))
        failCode(diopiDtypeNotSupported, "out dtype ", dtypeName(out.dtype), " cannot hold a floating-point result");
    checkSameShape(out, in, "out", "input");
    in = castTo(ctx, in, out.dtype);
    if (denseViaFloat(out, in, body)) return;
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

/// floatBackward with an array kernel body(gi, go, x, n) for contiguous float32 and 16-bit operands.
template <class Body, class F>
void floatBackwardArr(diopiContextHandle_t ctx, const TensorView& gi, TensorView go, TensorView x, const char* xname, Body body, F f) {
    if (!isFloatingDtype(gi.dtype))
        failCode(diopiDtypeNotSupported, "grad_input dtype ", dtypeName(gi.dtype), " is not a floating-point dtype");
    checkSameShape(gi, go, "grad_input", "grad_output");
    checkSameShape(gi, x, "grad_input", xname);
    go = castTo(ctx, go, gi.dtype);
    x = castTo(ctx, x, gi.dtype);
    if (gi.dtype != diopi_dtype_float64 && gi.isContiguous() && go.isContiguous() && x.isContiguous()) {
        dispatch<TypeList<float, Half, BFloat16>>(gi.dtype, "grad_input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            T* r = gi.ptr<T>();
            const T* g = go.ptr<T>();
            const T* v = x.ptr<T>();
            parallelFor(gi.numel, kParallelGrain,
                        [&](int64_t b, int64_t e) { simd::viaFloat2<T>(r + b, g + b, v + b, e - b, body); });
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
double scalarIn(const diopiScalar_t* s, const char* name, diopiDtype_t dt) {
    double v = scalarDouble(s, name);
    double r = 0;
    dispatch<FloatTypes>(dt, "input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        r = double(acc_t<T>(T(acc_t<T>(v))));
    });
    return r;
}

enum class GeluKind { Exact, Tanh };

GeluKind geluKind(const char* approximate) {
    if (approximate == nullptr || std::strcmp(approximate, "none") == 0) return GeluKind::Exact;
    if (std::strcmp(approximate, "tanh") == 0) return GeluKind::Tanh;
    fail("approximate must be \"none\" or \"tanh\", got \"", approximate, "\"");
}


// Branch-free float forms of the piecewise functions (fastmath.hpp selects);
// the generic forms beside them serve float64 and strided data.
CPU_FORCE_INLINE float hardswishV(float x) {
    float r = x + 3.0f;
    r = selectF(__builtin_isless(r, 0.0f), 0.0f, r);
    r = selectF(__builtin_isgreater(r, 6.0f), 6.0f, r);
    return x * r / 6.0f;
}
template <class A>
A hardswishG(A x) {
    A r = x + A(3);
    r = r < A(0) ? A(0) : (r > A(6) ? A(6) : r);
    return x * r / A(6);
}
// Boundaries as torch's hardswish_backward: x = -3 gets 0, x = 3 gets grad.
CPU_FORCE_INLINE float hardswishGradV(float g, float x) {
    float mid = g * (x / 3.0f + 0.5f);
    float r = selectF(__builtin_isless(x, 3.0f), mid, g);
    return selectF(__builtin_islessequal(x, -3.0f), 0.0f, r);
}
template <class A>
A hardswishGradG(A g, A x) {
    return x <= A(-3) ? A(0) : (x < A(3) ? g * (x / A(3) + A(0.5)) : g);
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
    if (isFloatingDtype(out.dtype)) {
        // NaN stays NaN, as in torch.
        floatMapArr(ctx, out, in, arr1([](float x) { return selectF(__builtin_isgreater(x, 0.0f) | isNanF(x), x, 0.0f); }),
                    [](auto x) { return reluOf(x); });
        return;
    }
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
    double l = scalarIn(min_val, "min_val", out.dtype), h = scalarIn(max_val, "max_val", out.dtype);
    const float lf = float(l), hf = float(h);
    // NaN passes through (neither comparison holds), like torch.clamp.
    floatMapArr(
        ctx, out, in,
        arr1([lf, hf](float x) {
            x = selectF(__builtin_isless(x, lf), lf, x);
            return selectF(__builtin_isgreater(x, hf), hf, x);
        }),
        [l, h](auto x) {
            using A = decltype(x);
            return x < A(l) ? A(l) : (x > A(h) ? A(h) : x);
        });
}

void threshold(diopiContextHandle_t ctx, const TensorView& out, const TensorView& in, const diopiScalar_t* thr, const diopiScalar_t* value) {
    double t = scalarIn(thr, "threshold", out.dtype), v = scalarIn(value, "value", out.dtype);
    const float tf = float(t), vf = float(v);
    // Written as "x <= t ? value : x" so NaN keeps NaN, as ATen does.
    floatMapArr(ctx, out, in, arr1([tf, vf](float x) { return selectF(__builtin_islessequal(x, tf), vf, x); }), [t, v](auto x) {
        using A = decltype(x);
        return x <= A(t) ? A(v) : x;
    });
}

void leakyRelu(diopiContextHandle_t ctx, const TensorView& out, const TensorView& in, const diopiScalar_t* slope) {
    const double s = scalarDouble(slope, "negative_slope");
    const float sf = float(s);
    floatMapArr(ctx, out, in, arr1([sf](float x) { return selectF(__builtin_isgreater(x, 0.0f), x, x * sf); }), [s](auto x) {
        using A = decltype(x);
        return x > A(0) ? x : x * A(s);
    });
}

// Kernels shared by the out-of-place and in-place forms (one instantiation per level).
const auto kHardswishArr = arr1([](float x) { return hardswishV(x); });
const auto kHardswishLib = [](auto x) { return hardswishG(x); };
const auto kTanhArr = arr1([](float x) { return tanhF(x); });
const auto kTanhLib = [](auto x) { return tanhG(x); };
const auto kSigmoidArr = arr1([](float x) { return sigmoidF(x); });
const auto kSigmoidLib = [](auto x) { return sigmoidG(x); };
const auto kSiluArr = arr1([](float x) { return siluV(x); });
const auto kSiluLib = [](auto x) { return siluG(x); };

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
        double l = scalarIn(min_val, "min_val", gi.dtype), h = scalarIn(max_val, "max_val", gi.dtype);
        const float lf = float(l), hf = float(h);
        // Zero gradient on and beyond the bounds.
        floatBackwardArr(
            ctx, gi, view(grad_output, "grad_output"), view(input, "input"), "input",
            arr2([lf, hf](float g, float x) { return selectF(__builtin_islessequal(x, lf) | __builtin_isgreaterequal(x, hf), 0.0f, g); }),
            [l, h](auto g, auto x) {
                using A = decltype(x);
                return (x <= A(l) || x >= A(h)) ? A(0) : g;
            });
    });
}

// ---------------------------------------------------------------- hardswish
diopiError_t diopiHardswish(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        floatMapArr(ctx, view(out, "out"), view(input, "input"), kHardswishArr, kHardswishLib);
    });
}

diopiError_t diopiHardswishInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = inplaceFloat(input);
        floatMapArr(ctx, t, t, kHardswishArr, kHardswishLib);
    });
}

diopiError_t diopiHardswishBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        floatBackwardArr(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), view(input, "input"), "input",
                         arr2([](float g, float x) { return hardswishGradV(g, x); }), [](auto g, auto x) { return hardswishGradG(g, x); });
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
        double t = scalarIn(threshold, "threshold", gi.dtype);
        const float tf = float(t);
        floatBackwardArr(ctx, gi, view(grad_output, "grad_output"), view(input, "input"), "input",
                         arr2([tf](float g, float x) { return selectF(__builtin_islessequal(x, tf), 0.0f, g); }), [t](auto g, auto x) {
                             using A = decltype(x);
                             return x <= A(t) ? A(0) : g;
                         });
    });
}

// ---------------------------------------------------------------- gelu
diopiError_t diopiGelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* approximate) {
    return guard(__func__, [&] {
        GeluKind k = geluKind(approximate);
        if (k == GeluKind::Exact)
            floatMapArr(ctx, view(out, "out"), view(input, "input"), arr1([](float x) { return geluExactV(x); }),
                        [](auto x) { return geluExactG(x); });
        else
            floatMapArr(ctx, view(out, "out"), view(input, "input"), arr1([](float x) { return geluTanhV(x); }),
                        [](auto x) { return geluTanhG(x); });
    });
}

diopiError_t diopiGeluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t input, const char* approximate) {
    return guard(__func__, [&] {
        GeluKind k = geluKind(approximate);
        TensorView gi = view(grad_input, "grad_input"), go = view(grad_output, "grad_output"), x = view(input, "input");
        if (k == GeluKind::Exact)
            floatBackwardArr(ctx, gi, go, x, "input", arr2([](float g, float v) { return geluExactGradV(g, v); }),
                             [](auto g, auto v) { return geluExactGradG(g, v); });
        else
            floatBackwardArr(ctx, gi, go, x, "input", arr2([](float g, float v) { return geluTanhGradV(g, v); }),
                             [](auto g, auto v) { return geluTanhGradG(g, v); });
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
        const double s = scalarDouble(negative_slope, "negative_slope");
        const float sf = float(s);
        // With a negative slope the forward flips signs, so its result no longer tells which branch was taken.
        CPU_CHECK(!(input_is_result && s < 0), "input_is_result needs a non-negative negative_slope");
        floatBackwardArr(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), view(input, "input"), "input",
                         arr2([sf](float g, float x) { return selectF(__builtin_isgreater(x, 0.0f), g, g * sf); }), [s](auto g, auto x) {
                             using A = decltype(x);
                             return x > A(0) ? g : g * A(s);
                         });
    });
}

// ---------------------------------------------------------------- tanh
diopiError_t diopiTanh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        floatMapArr(ctx, view(out, "out"), view(input, "input"), kTanhArr, kTanhLib);
    });
}

diopiError_t diopiTanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = inplaceFloat(input);
        floatMapArr(ctx, t, t, kTanhArr, kTanhLib);
    });
}

diopiError_t diopiTanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t output) {
    return guard(__func__, [&] {
        floatBackwardArr(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), view(output, "output"), "output",
                         arr2([](float g, float y) { return g * (1.0f - y * y); }), [](auto g, auto y) { return g * (decltype(y)(1) - y * y); });
    });
}

// ---------------------------------------------------------------- sigmoid
diopiError_t diopiSigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        floatMapArr(ctx, view(out, "out"), view(input, "input"), kSigmoidArr, kSigmoidLib);
    });
}

diopiError_t diopiSigmoidInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = inplaceFloat(input);
        floatMapArr(ctx, t, t, kSigmoidArr, kSigmoidLib);
    });
}

diopiError_t diopiSigmoidBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t output) {
    return guard(__func__, [&] {
        floatBackwardArr(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), view(output, "output"), "output",
                         arr2([](float g, float y) { return g * y * (1.0f - y); }),
                         [](auto g, auto y) { return g * y * (decltype(y)(1) - y); });
    });
}

// ---------------------------------------------------------------- silu
diopiError_t diopiSilu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        floatMapArr(ctx, view(out, "out"), view(input, "input"), kSiluArr, kSiluLib);
    });
}

diopiError_t diopiSiluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = inplaceFloat(input);
        floatMapArr(ctx, t, t, kSiluArr, kSiluLib);
    });
}

diopiError_t diopiSiluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        floatBackwardArr(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), view(input, "input"), "input",
                         arr2([](float g, float x) { return siluGradV(g, x); }), [](auto g, auto x) { return siluGradG(g, x); });
    });
}

}  // namespace impl::cpu
