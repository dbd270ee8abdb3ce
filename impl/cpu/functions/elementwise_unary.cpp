// Family elementwise_unary: math functions applied elementwise.
#include <cmath>

#include "common/common.hpp"
#include "common/fastmath.hpp"

namespace impl::cpu {

namespace {

/// unaryLoop<T, T>(out, in, x -> T(f(A(x)))), with contiguous 16-bit floats
/// widened and narrowed a block at a time around f in the per-level loops
/// (converting element by element in the generic loop ran 3-10x behind ATen).
/// (TryDense false: the caller already ran the dense 16-bit case its own way.)
template <class T, bool TryDense = true, class F>
void unaryOf(const TensorView& out, const TensorView& in, const F& f) {
    using A = acc_t<T>;
    if constexpr (is_reduced_float_v<T> && TryDense) {
        auto body = [&](float* d, const float* a, int64_t n) { simd::map1(d, a, n, [&f](float v) { return float(f(v)); }); };
        if (denseViaFloatAs<T>(out, in, body)) return;
    }
    unaryLoop<T, T>(out, in, [f](T x) { return T(f(A(x))); });
}

/// out = f(input) for a floating-point function: integer/bool inputs are
/// converted to out's floating dtype first (torch's promotion), 16-bit floats
/// compute in float.
template <bool TryDense = true, class F>
void floatUnary(diopiContextHandle_t ctx, const TensorView& out, TensorView in, F f) {
    if (!isFloatingDtype(out.dtype))
        failCode(diopiDtypeNotSupported, "out dtype ", dtypeName(out.dtype), " cannot hold a floating-point result");
    CPU_CHECK(in.shape == out.shape, "out shape ", shapeStr(out.shape), " differs from input shape ", shapeStr(in.shape));
    in = castTo(ctx, in, out.dtype);
    dispatch<FloatTypes>(out.dtype, "out", [&](auto tag) { unaryOf<typename decltype(tag)::type, TryDense>(out, in, f); });
}

/// out = f(input) for a function defined on every numeric type (abs, neg, sign).
template <class List, class F>
void numericUnary(diopiContextHandle_t ctx, const TensorView& out, TensorView in, F f) {
    CPU_CHECK(in.shape == out.shape, "out shape ", shapeStr(out.shape), " differs from input shape ", shapeStr(in.shape));
    in = castTo(ctx, in, out.dtype);
    dispatch<List>(out.dtype, "out", [&](auto tag) { unaryOf<typename decltype(tag)::type>(out, in, f); });
}

/// floatUnary with an array kernel for contiguous float32 and 16-bit data:
/// body(float* o, const float* a, int64_t n) runs the vectorised float form
/// (16-bit floats through a float buffer); float64 and strided data use `f`
/// (libm, in double for float64).
template <class Body, class F>
void floatUnaryArr(diopiContextHandle_t ctx, const TensorView& out, TensorView in, Body body, F f) {
    if (!isFloatingDtype(out.dtype))
        failCode(diopiDtypeNotSupported, "out dtype ", dtypeName(out.dtype), " cannot hold a floating-point result");
    CPU_CHECK(in.shape == out.shape, "out shape ", shapeStr(out.shape), " differs from input shape ", shapeStr(in.shape));
    in = castTo(ctx, in, out.dtype);
    if (denseViaFloat(out, in, body)) return;
    floatUnary<false>(ctx, out, in, f);  // dense 16-bit data never gets here
}

TensorView inplaceFloat(diopiTensorHandle_t h) {
    TensorView t = view(h, "input");
    if (!isFloatingDtype(t.dtype))
        failCode(diopiDtypeNotSupported, "in-place form needs a floating-point input, got ", dtypeName(t.dtype));
    return t;
}

// erfinv: initial guess from a rational approximation (Giles, 2010), then two
// Newton steps on erf(y) - x in double precision.
double erfinvD(double x) {
    if (std::isnan(x) || x < -1.0 || x > 1.0) return std::nan("");
    if (x == 1.0) return INFINITY;
    if (x == -1.0) return -INFINITY;
    double w = -std::log((1.0 - x) * (1.0 + x)), p;
    if (w < 5.0) {
        w -= 2.5;
        p = 2.81022636e-08;
        p = 3.43273939e-07 + p * w;
        p = -3.5233877e-06 + p * w;
        p = -4.39150654e-06 + p * w;
        p = 0.00021858087 + p * w;
        p = -0.00125372503 + p * w;
        p = -0.00417768164 + p * w;
        p = 0.246640727 + p * w;
        p = 1.50140941 + p * w;
    } else {
        w = std::sqrt(w) - 3.0;
        p = -0.000200214257;
        p = 0.000100950558 + p * w;
        p = 0.00134934322 + p * w;
        p = -0.00367342844 + p * w;
        p = 0.00573950773 + p * w;
        p = -0.0076224613 + p * w;
        p = 0.00943887047 + p * w;
        p = 1.00167406 + p * w;
        p = 2.83297682 + p * w;
    }
    double y = p * x;
    const double k = 1.1283791670955126;  // 2/sqrt(pi)
    for (int i = 0; i < 2; ++i) y -= (std::erf(y) - x) / (k * std::exp(-y * y));
    return y;
}

template <class A>
A signOf(A x) {
    if constexpr (std::is_same_v<A, bool>) {
        return x;
    } else if constexpr (std::is_floating_point_v<A>) {
        // NaN compares false both ways, so its sign is 0 (as in torch).
        return A((A(0) < x) - (x < A(0)));
    } else {
        return A((A(0) < x) - (x < A(0)));
    }
}

template <class A>
A absOf(A x) {
    if constexpr (std::is_same_v<A, bool> || std::is_unsigned_v<A>) {
        return x;
    } else if constexpr (std::is_floating_point_v<A>) {
        return std::fabs(x);
    } else {
        // Wraps at the minimum like two's complement hardware (no UB).
        using U = std::make_unsigned_t<A>;
        return x < 0 ? A(U(0) - U(x)) : x;
    }
}

template <class A>
A negOf(A x) {
    if constexpr (std::is_integral_v<A> && !std::is_same_v<A, bool>) {
        using U = std::make_unsigned_t<A>;
        return A(U(0) - U(x));
    } else {
        return -x;
    }
}

/// Complex element stored as two reals (complex64: float, complex128: double).
template <class R>
struct Cplx {
    R re, im;
};

/// sgn of complex tensors: z / |z|, and 0 for z == 0. Returns false when the
/// dtypes are not complex (the real path handles them).
bool complexSgn(diopiContextHandle_t ctx, const TensorView& out, TensorView in) {
    bool c64 = out.dtype == diopi_dtype_complex64, c128 = out.dtype == diopi_dtype_complex128;
    bool ic = in.dtype == diopi_dtype_complex64 || in.dtype == diopi_dtype_complex128;
    if (!c64 && !c128 && !ic) return false;
    CPU_CHECK(in.shape == out.shape, "out shape ", shapeStr(out.shape), " differs from input shape ", shapeStr(in.shape));
    if (in.dtype != out.dtype)
        failCode(diopiDtypeNotSupported, "sgn of ", dtypeName(in.dtype), " into ", dtypeName(out.dtype), " is not supported");
    auto run = [&](auto zero) {
        using R = decltype(zero);
        using C = Cplx<R>;
        unaryLoop<C, C>(out, in, [](C z) {
            if (z.re == R(0) && z.im == R(0)) return C{R(0), R(0)};
            R a = std::hypot(z.re, z.im);
            return C{z.re / a, z.im / a};
        });
    };
    if (c64) run(0.0f);
    else run(0.0);
    return true;
}

}  // namespace

// EXPR: the libm form (float64, strided data); VEXPR: the vectorised float form.
#define CPU_UNARY_ARR(VEXPR) [](float* o, const float* a, int64_t n) { simd::map1(o, a, n, [](float x) { return VEXPR; }); }
// Trigonometric forms reduce exactly only for |x| <= kTrigMaxF: blocks with larger (or non-finite) inputs use libm.
#define CPU_UNARY_ARR_TRIG(VEXPR, EXPR)                                                                   \
    [](float* o, const float* a, int64_t n) {                                                             \
        simd::map1Checked(                                                                                \
            o, a, n, [](float x) { return VEXPR; }, [](float x) { return __builtin_isless(absF(x), kTrigMaxF); }, \
            [](float x) { return EXPR; });                                                                \
    }
// The kernels are shared by the out-of-place and in-place forms (one
// instantiation per level instead of two).
#define CPU_UNARY_FLOAT_ARR(Name, EXPR, ARR)                                                                   \
    namespace {                                                                                                \
    const auto kArr##Name = ARR;                                                                               \
    const auto kLib##Name = [](auto x) { return EXPR; };                                                       \
    }                                                                                                          \
    diopiError_t diopi##Name(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) { \
        return guard(__func__, [&] { floatUnaryArr(ctx, view(out, "out"), view(input, "input"), kArr##Name, kLib##Name); }); \
    }                                                                                                          \
    diopiError_t diopi##Name##Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {                        \
        return guard(__func__, [&] {                                                                           \
            TensorView t = inplaceFloat(input);                                                                \
            floatUnaryArr(ctx, t, t, kArr##Name, kLib##Name);                                                  \
        });                                                                                                    \
    }
#define CPU_UNARY_FLOAT(Name, EXPR, VEXPR) CPU_UNARY_FLOAT_ARR(Name, EXPR, CPU_UNARY_ARR(VEXPR))
#define CPU_UNARY_FLOAT_TRIG(Name, EXPR, VEXPR) CPU_UNARY_FLOAT_ARR(Name, EXPR, CPU_UNARY_ARR_TRIG(VEXPR, EXPR))

// Rounding to an integer leaves integer inputs unchanged (the header documents
// integer dtypes for floor and ceil; torch returns them as they are).
#define CPU_UNARY_ROUNDING(Name, EXPR)                                                                         \
    namespace {                                                                                                \
    const auto kArr##Name = CPU_UNARY_ARR(EXPR);                                                               \
    const auto kLib##Name = [](auto x) { return EXPR; };                                                       \
    }                                                                                                          \
    diopiError_t diopi##Name(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) { \
        return guard(__func__, [&] {                                                                           \
            TensorView o = view(out, "out"), in = view(input, "input");                                       \
            if (in.dtype == diopi_dtype_bool) failCode(diopiDtypeNotSupported, "bool input is not supported");  \
            if (!isIntegralDtype(in.dtype))                                                                    \
                return floatUnaryArr(ctx, o, in, kArr##Name, kLib##Name);                                      \
            CPU_CHECK(in.shape == o.shape, "out shape ", shapeStr(o.shape), " differs from input shape ", shapeStr(in.shape)); \
            copyCast(o, in);                                                                                   \
        });                                                                                                    \
    }                                                                                                          \
    diopiError_t diopi##Name##Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {                        \
        return guard(__func__, [&] {                                                                           \
            TensorView t = view(input, "input");                                                               \
            if (isIntegralDtype(t.dtype)) return; /* already integers */                                       \
            t = inplaceFloat(input);                                                                           \
            floatUnaryArr(ctx, t, t, kArr##Name, kLib##Name);                                                  \
        });                                                                                                    \
    }

CPU_UNARY_ROUNDING(Floor, std::floor(x))
CPU_UNARY_ROUNDING(Ceil, std::ceil(x))
#undef CPU_UNARY_ROUNDING

CPU_UNARY_FLOAT(Sqrt, std::sqrt(x), __builtin_sqrtf(x))
CPU_UNARY_FLOAT(Rsqrt, decltype(x)(1) / std::sqrt(x), 1.0f / __builtin_sqrtf(x))
CPU_UNARY_FLOAT(Reciprocal, decltype(x)(1) / x, 1.0f / x)
CPU_UNARY_FLOAT_TRIG(Sin, std::sin(x), sinCosF<false>(x))
CPU_UNARY_FLOAT_TRIG(Cos, std::cos(x), sinCosF<true>(x))
CPU_UNARY_FLOAT_TRIG(Tan, std::tan(x), tanF(x))
CPU_UNARY_FLOAT(Sinh, std::sinh(x), sinhF(x))
CPU_UNARY_FLOAT(Cosh, std::cosh(x), coshF(x))
CPU_UNARY_FLOAT(Asinh, std::asinh(x), asinhF(x))
CPU_UNARY_FLOAT(Acosh, std::acosh(x), acoshF(x))
CPU_UNARY_FLOAT(Atanh, std::atanh(x), atanhF(x))
CPU_UNARY_FLOAT(Exp, std::exp(x), expF(x))
CPU_UNARY_FLOAT(Expm1, std::expm1(x), expm1F(x))
CPU_UNARY_FLOAT(Log, std::log(x), logF(x))
CPU_UNARY_FLOAT(Log2, std::log2(x), log2F(x))
CPU_UNARY_FLOAT(Log10, std::log10(x), log10F(x))
CPU_UNARY_FLOAT(Log1p, std::log1p(x), log1pF(x))
CPU_UNARY_FLOAT(Erf, std::erf(x), erfF(x))
CPU_UNARY_FLOAT(Erfinv, decltype(x)(erfinvD(double(x))), erfinvF(x))

CPU_UNARY_FLOAT(Asin, std::asin(x), asinF(x))
CPU_UNARY_FLOAT(Acos, std::acos(x), acosF(x))
CPU_UNARY_FLOAT(Atan, std::atan(x), atanF(x))

#undef CPU_UNARY_FLOAT_TRIG
#undef CPU_UNARY_ARR_TRIG
#undef CPU_UNARY_ARR
#undef CPU_UNARY_FLOAT_ARR
#undef CPU_UNARY_FLOAT

diopiError_t diopiAbs(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        numericUnary<NumericTypes>(ctx, view(out, "out"), view(input, "input"), [](auto x) { return absOf(x); });
    });
}
diopiError_t diopiAbsInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        numericUnary<NumericTypes>(ctx, t, t, [](auto x) { return absOf(x); });
    });
}
diopiError_t diopiNeg(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        numericUnary<NumericTypes>(ctx, view(out, "out"), view(input, "input"), [](auto x) { return negOf(x); });
    });
}
diopiError_t diopiNegInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        numericUnary<NumericTypes>(ctx, t, t, [](auto x) { return negOf(x); });
    });
}
diopiError_t diopiSign(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        numericUnary<NumericBoolTypes>(ctx, view(out, "out"), view(input, "input"), [](auto x) { return signOf(x); });
    });
}
diopiError_t diopiSgn(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        if (complexSgn(ctx, view(out, "out"), view(input, "input"))) return;
        numericUnary<NumericBoolTypes>(ctx, view(out, "out"), view(input, "input"), [](auto x) { return signOf(x); });
    });
}
diopiError_t diopiSgnInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        if (complexSgn(ctx, t, t)) return;
        numericUnary<NumericBoolTypes>(ctx, t, t, [](auto x) { return signOf(x); });
    });
}

diopiError_t diopiIsNan(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), i = view(input, "input");
        CPU_CHECK(o.shape == i.shape, "out shape ", shapeStr(o.shape), " differs from input shape ", shapeStr(i.shape));
        TensorView ob = o.dtype == diopi_dtype_bool ? o : newTensor(ctx, o.shape, diopi_dtype_bool);
        dispatch<NumericBoolTypes>(i.dtype, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            unaryLoop<bool, T>(ob, i, [](T x) {
                if constexpr (is_floating_v<T>) return std::isnan(float(x));
                else return false;
            });
        });
        if (ob.data != o.data) copyCast(o, ob);
    });
}

}  // namespace impl::cpu
