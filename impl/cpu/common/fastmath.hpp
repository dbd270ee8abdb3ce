// Vectorisable float math and per-level array loops for the contiguous float
// paths of the elementwise families.
//
// The math below is written as scalar, branch-free float (and a little double)
// code: plain loops over arrays of it are vectorised by GCC/Clang (selects
// become blends, the integer tricks vector integer ops), with no libm call.
// The loops are compiled once per instruction-set level (CPU_TARGET_AVX2 /
// CPU_TARGET_AVX512, isa.hpp) and the level is taken from isa(), so
// DIOPI_CPU_ISA can force the baseline path. Float64 tensors do not come
// here: their kernels use libm in double.
//
// Comparisons use the quiet __builtin_is* forms: an ordinary < may trap on NaN
// under the default -ftrapping-math, which stops GCC from if-converting it.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "dtype.hpp"
#include "isa.hpp"
#include "parallel.hpp"
#include "tensor.hpp"

/// Helpers called from the per-level loops are forced inline, so that they are
/// compiled for the loop's level.
#if defined(__GNUC__)
#define CPU_FORCE_INLINE inline __attribute__((always_inline))
#else
#define CPU_FORCE_INLINE inline
#endif

namespace impl::cpu {

// ---------------------------------------------------------------- bits and selects

CPU_FORCE_INLINE float bitsAsFloat(uint32_t b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}
CPU_FORCE_INLINE uint32_t floatAsBits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}
CPU_FORCE_INLINE double bitsAsDouble(uint64_t b) {
    double f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}
CPU_FORCE_INLINE uint64_t doubleAsBits(double f) {
    uint64_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

/// c ? a : b through a bit mask. A plain ?: with an arithmetic arm invites GCC to
/// split the loop body into paths (and then not vectorise it, as the float
/// operations on a path may trap); the mask form stays straight-line code.
CPU_FORCE_INLINE float selectF(bool c, float a, float b) {
    uint32_t m = 0u - (uint32_t)c;
    return bitsAsFloat((floatAsBits(a) & m) | (floatAsBits(b) & ~m));
}
CPU_FORCE_INLINE double selectD(bool c, double a, double b) {
    uint64_t m = 0u - (uint64_t)c;
    return bitsAsDouble((doubleAsBits(a) & m) | (doubleAsBits(b) & ~m));
}
CPU_FORCE_INLINE float absF(float x) { return bitsAsFloat(floatAsBits(x) & 0x7fffffffu); }
/// |m| with the sign of s.
CPU_FORCE_INLINE float withSignOf(float m, float s) {
    return bitsAsFloat((floatAsBits(m) & 0x7fffffffu) | (floatAsBits(s) & 0x80000000u));
}
CPU_FORCE_INLINE bool isNanF(float x) { return __builtin_isunordered(x, x); }

constexpr float kInfF = std::numeric_limits<float>::infinity();
constexpr float kNanF = std::numeric_limits<float>::quiet_NaN();

// ---------------------------------------------------------------- exp family

/// e^x within about 1 float ulp over the whole range (subnormal results too).
/// x is clamped to [-104, 89], beyond which the result is 0 or +inf anyway;
/// the selects let NaN through, and NaN then propagates through the arithmetic.
CPU_FORCE_INLINE float expF(float x) {
    x = selectF(__builtin_isless(x, -104.0f), -104.0f, x);
    x = selectF(__builtin_isgreater(x, 89.0f), 89.0f, x);
    // Adding 1.5 * 2^23 rounds x / ln2 to the nearest integer n, which then
    // sits in the low mantissa bits of t.
    const float kShift = 12582912.0f;
    float t = x * 1.44269504088896341f + kShift;
    int32_t n = (int32_t)(floatAsBits(t) - floatAsBits(kShift));
    float fn = t - kShift;
    // r = x - n ln2 in two parts (the first product is exact), |r| <= ln2 / 2.
    float r = x - fn * 0.693359375f - fn * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    // 2^n as two normal factors, so n in [-150, 128] needs no special case.
    int32_t n1 = n >> 1, n2 = n - n1;
    return p * bitsAsFloat((uint32_t)(n1 + 127) << 23) * bitsAsFloat((uint32_t)(n2 + 127) << 23);
}

/// e^x - 1 without cancellation near 0: x = n ln2 + r, |r| <= ln2 / 2, then
/// 2^n (e^r - 1) + (2^n - 1) with e^r - 1 from its Taylor series (error below
/// 2e-8 relative). Large x goes through expF (the -1 no longer matters).
CPU_FORCE_INLINE float expm1F(float x) {
    float xc = selectF(__builtin_isless(x, -25.0f), -25.0f, x);
    xc = selectF(__builtin_isgreater(xc, 80.0f), 80.0f, xc);
    const float kShift = 12582912.0f;
    float t = xc * 1.44269504088896341f + kShift;
    int32_t n = (int32_t)(floatAsBits(t) - floatAsBits(kShift));
    float fn = t - kShift;
    float r = xc - fn * 0.693359375f - fn * -2.12194440e-4f;
    float p = 1.98412698e-4f;  // 1/5040
    p = p * r + 1.38888889e-3f;
    p = p * r + 8.33333333e-3f;
    p = p * r + 4.16666667e-2f;
    p = p * r + 1.66666667e-1f;
    p = p * r + 0.5f;
    p = p * r * r + r;
    float scale = bitsAsFloat((uint32_t)(n + 127) << 23);
    float y = scale * p + (scale - 1.0f);
    y = selectF(__builtin_isgreater(x, 80.0f), expF(x), y);
    y = selectF(__builtin_isless(x, -25.0f), -1.0f, y);
    return selectF(x == 0.0f, x, y);  // expm1(-0) = -0
}

/// erfc(u) * e^(u^2) for u >= 0 (u > 10 is treated as 10, where the factor
/// e^(-u^2) has long reached 0): a polynomial in w = 1 / (1 + u / 2),
/// least-squares fitted on [0, 10]; relative error below 4e-7 in float.
CPU_FORCE_INLINE float erfcxPosF(float u) {
    u = selectF(__builtin_isgreater(u, 10.0f), 10.0f, u);
    float w = 1.0f / (1.0f + 0.5f * u);
    float p = 3.240250051e-02f;
    p = p * w - 2.362438887e-01f;
    p = p * w + 7.057833076e-01f;
    p = p * w - 1.058795452e+00f;
    p = p * w + 7.668587565e-01f;
    p = p * w - 3.009807169e-01f;
    p = p * w + 3.047524393e-01f;
    p = p * w + 2.183143198e-01f;
    p = p * w + 2.861310244e-01f;
    p = p * w + 2.817660570e-01f;
    p = p * w + 1.169140069e-05f;
    return p;
}

/// 1 + erf(z) without cancellation on the negative side (it is erfc(-z) there),
/// given ez = e^(-z^2) (callers often need it too). NaN in, NaN out.
CPU_FORCE_INLINE float onePlusErfF(float z, float ez) {
    float az = absF(z);
    float e = ez * erfcxPosF(az);  // erfc(|z|)
    return selectF(__builtin_isgreaterequal(z, 0.0f), 2.0f - e, e);
}

/// erf(x): its Taylor series in x^2 for |x| < 1 (terms up to x^21, truncation
/// below 2e-9), 1 - erfc(|x|) with the sign of x beyond.
CPU_FORCE_INLINE float erfF(float x) {
    float ax = absF(x);
    float z = x * x;
    // Horner in z of 2/sqrt(pi) * sum (-1)^k z^k / (k! (2k + 1)), k = 0..10.
    float q = 1.480719282e-08f;
    q = q * z - 1.636584469e-07f;
    q = q * z + 1.646211437e-06f;
    q = q * z - 1.492565036e-05f;
    q = q * z + 1.205533298e-04f;
    q = q * z - 8.548327023e-04f;
    q = q * z + 5.223977625e-03f;
    q = q * z - 2.686617065e-02f;
    q = q * z + 1.128379167e-01f;
    q = q * z - 3.761263890e-01f;
    q = q * z + 1.128379167e+00f;
    float lo = x * q;
    float ec = expF(-z) * erfcxPosF(ax);  // erfc(|x|)
    float hi = withSignOf(1.0f - ec, x);
    return selectF(__builtin_isless(ax, 1.0f), lo, hi);
}

// ---------------------------------------------------------------- log family

/// ln of the mantissa and the exponent of a positive finite x (subnormals
/// too): x = 2^e m with m in [sqrt(1/2), sqrt(2)), ln m = f + y from a
/// polynomial in f = m - 1 (Cephes' logf form, about 1 ulp).
CPU_FORCE_INLINE void logParts(float x, float& fe, float& f, float& y) {
    bool sub = __builtin_isless(x, 1.17549435e-38f);
    float xs = selectF(sub, x * 8388608.0f, x);
    uint32_t b = floatAsBits(xs);
    int32_t e = (int32_t)((b >> 23) & 0xffu) - 126 - (sub ? 23 : 0);
    float m = bitsAsFloat((b & 0x007fffffu) | 0x3f000000u);  // [0.5, 1)
    bool lo = __builtin_isless(m, 0.707106781186547524f);
    e -= (int32_t)lo;
    f = selectF(lo, m + m, m) - 1.0f;
    fe = (float)e;
    float z = f * f;
    float p = 7.0376836292e-2f;
    p = p * f - 1.1514610310e-1f;
    p = p * f + 1.1676998740e-1f;
    p = p * f - 1.2420140846e-1f;
    p = p * f + 1.4249322787e-1f;
    p = p * f - 1.6668057665e-1f;
    p = p * f + 2.0000714765e-1f;
    p = p * f - 2.4999993993e-1f;
    p = p * f + 3.3333331174e-1f;
    y = f * z * p - 0.5f * z;
}

/// The special results of every logarithm: NaN below 0 and for NaN, -inf at 0, +inf at +inf.
CPU_FORCE_INLINE float logSpecials(float x, float r) {
    r = selectF(x == 0.0f, -kInfF, r);
    r = selectF(x == kInfF, kInfF, r);
    r = selectF(__builtin_isless(x, 0.0f) | isNanF(x), kNanF, r);
    return r;
}

CPU_FORCE_INLINE float logF(float x) {
    float fe, f, y;
    logParts(x, fe, f, y);
    float r = fe * -2.12194440e-4f + y + f + fe * 0.693359375f;
    return logSpecials(x, r);
}
CPU_FORCE_INLINE float log2F(float x) {
    float fe, f, y;
    logParts(x, fe, f, y);
    float r = fe + (f + y) * 1.44269504088896341f;
    return logSpecials(x, r);
}
CPU_FORCE_INLINE float log10F(float x) {
    float fe, f, y;
    logParts(x, fe, f, y);
    float r = fe * 7.00731903e-08f + (f + y) * 0.434294481903251828f + fe * 0.30102992f;
    return logSpecials(x, r);
}
/// ln(1 + x): ln(u) for u = 1 + x, corrected by the rounding of u, (x - (u - 1)) / u.
CPU_FORCE_INLINE float log1pF(float x) {
    float u = 1.0f + x;
    float r = logF(u) + (x - (u - 1.0f)) / u;
    r = selectF(u == 1.0f, x, r);
    r = selectF(x == kInfF, kInfF, r);
    r = selectF(x == -1.0f, -kInfF, r);
    return r;
}

// ---------------------------------------------------------------- hyperbolic

CPU_FORCE_INLINE float sigmoidF(float x) { return 1.0f / (1.0f + expF(-x)); }

/// tanh(|x|) = -E / (E + 2) with E = e^(-2|x|) - 1 (no cancellation), sign restored.
CPU_FORCE_INLINE float tanhF(float x) {
    float e = expm1F(-2.0f * absF(x));
    return withSignOf(-e / (e + 2.0f), x);
}
/// sinh |x| = (E + E / (E + 1)) / 2 with E = e^|x| - 1; beyond 20, (e^(|x|/2))^2 / 2
/// (no early overflow).
CPU_FORCE_INLINE float sinhF(float x) {
    float ax = absF(x);
    float e = expm1F(selectF(__builtin_isgreater(ax, 20.0f), 0.0f, ax));
    float small = 0.5f * (e + e / (e + 1.0f));
    float h = expF(0.5f * ax);
    float big = (0.5f * h) * h;
    return withSignOf(selectF(__builtin_isgreater(ax, 20.0f), big, small), x);
}
CPU_FORCE_INLINE float coshF(float x) {
    float ax = absF(x);
    float h = expF(0.5f * ax);
    float big = (0.5f * h) * h;
    float e = expF(selectF(__builtin_isgreater(ax, 20.0f), 0.0f, ax));
    float small = 0.5f * (e + 1.0f / e);
    return selectF(__builtin_isgreater(ax, 20.0f), big, small);
}
/// atanh |x| = ln1p(2|x| / (1 - |x|)) / 2 with the sign of x (1 - |x| is exact
/// near 1, the argument of ln1p never negative); +-1 give +-inf, beyond NaN.
CPU_FORCE_INLINE float atanhF(float x) {
    float a = absF(x);
    float r = 0.5f * log1pF((a + a) / (1.0f - a));
    r = selectF(__builtin_isgreater(a, 1.0f), kNanF, r);
    return withSignOf(r, x);
}
/// asinh |x| = ln1p(|x| + x^2 / (1 + sqrt(1 + x^2))), ln|x| + ln 2 beyond 2^28 (x^2 would overflow).
CPU_FORCE_INLINE float asinhF(float x) {
    float ax = absF(x);
    bool big = __builtin_isgreater(ax, 268435456.0f);
    float a = selectF(big, 1.0f, ax);
    float z = a * a;
    float r = log1pF(a + z / (1.0f + __builtin_sqrtf(1.0f + z)));
    r = selectF(big, logF(ax) + 0.693147180559945309f, r);
    return withSignOf(r, x);
}
/// acosh x = ln1p(t + sqrt(2t + t^2)), t = x - 1 (exact near 1); ln x + ln 2 beyond 2^28; NaN below 1.
CPU_FORCE_INLINE float acoshF(float x) {
    bool big = __builtin_isgreater(x, 268435456.0f);
    float t = selectF(big, 0.0f, x - 1.0f);
    float r = log1pF(t + __builtin_sqrtf(t + t + t * t));
    r = selectF(big, logF(x) + 0.693147180559945309f, r);
    return selectF(__builtin_isless(x, 1.0f) | isNanF(x), kNanF, r);
}

// ---------------------------------------------------------------- trigonometric

/// Inputs with |x| above this take the library path (the reduction below uses
/// pi/2 in three 12-bit parts, exact products for |x / (pi/2)| < 2^12).
constexpr float kTrigMaxF = 4096.0f;

/// x = n pi/2 + r, |r| <= pi/4 (for |x| <= kTrigMaxF).
CPU_FORCE_INLINE float trigReduce(float x, int32_t& n) {
    const float kShift = 12582912.0f;
    float t = x * 0.636619772367581343f + kShift;
    n = (int32_t)(floatAsBits(t) - floatAsBits(kShift));
    float fn = t - kShift;
    return ((x - fn * 1.57080078125f) - fn * -4.453584551811218e-06f) - fn * -8.705515752716053e-10f;
}
CPU_FORCE_INLINE float sinPoly(float r) {
    float z = r * r;
    return r + r * z * ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f);
}
CPU_FORCE_INLINE float cosPoly(float r) {
    float z = r * r;
    return 1.0f - 0.5f * z + z * z * ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z + 4.166664568298827e-2f);
}
/// sin x (Cos = false) or cos x (Cos = true) for |x| <= kTrigMaxF.
template <bool Cos>
CPU_FORCE_INLINE float sinCosF(float x) {
    int32_t n;
    float r = trigReduce(x, n);
    if (Cos) n += 1;  // cos x = sin(x + pi/2)
    float v = selectF(n & 1, cosPoly(r), sinPoly(r));
    v = bitsAsFloat(floatAsBits(v) ^ ((uint32_t)(n & 2) << 30));
    return Cos ? v : selectF(x == 0.0f, x, v);  // sin(-0) = -0
}
/// tan x for |x| <= kTrigMaxF: Cephes' tanf polynomial on |r| <= pi/4, -1/tan r in odd quadrants.
CPU_FORCE_INLINE float tanF(float x) {
    int32_t n;
    float r = trigReduce(x, n);
    float z = r * r;
    float p = 9.38540185543e-3f;
    p = p * z + 3.11992232697e-3f;
    p = p * z + 2.44301354525e-2f;
    p = p * z + 5.34112807005e-2f;
    p = p * z + 1.33387994085e-1f;
    p = p * z + 3.33331568548e-1f;
    float t = p * z * r + r;
    t = selectF(n & 1, -1.0f / t, t);
    return selectF(x == 0.0f, x, t);  // tan(-0) = -0
}

/// asin t for |t| <= 1/2 (Cephes' asinf polynomial).
CPU_FORCE_INLINE float asinSmall(float t) {
    float z = t * t;
    float p = 4.2163199048e-2f;
    p = p * z + 2.4181311049e-2f;
    p = p * z + 4.5470025998e-2f;
    p = p * z + 7.4953002686e-2f;
    p = p * z + 1.6666752422e-1f;
    return p * z * t + t;
}
/// asin x; beyond |x| = 1/2 through asin |x| = pi/2 - 2 asin sqrt((1 - |x|) / 2). NaN beyond 1.
CPU_FORCE_INLINE float asinF(float x) {
    float a = absF(x);
    bool big = __builtin_isgreater(a, 0.5f);
    float t = selectF(big, __builtin_sqrtf(0.5f * (1.0f - a)), a);
    float r = asinSmall(t);
    r = selectF(big, 1.57079632679489662f - (r + r), r);
    r = selectF(__builtin_isgreater(a, 1.0f), kNanF, r);
    return withSignOf(r, x);
}
/// acos x = pi/2 - asin x near 0; 2 asin sqrt((1 - |x|) / 2) (or pi minus it) beyond |x| = 1/2.
CPU_FORCE_INLINE float acosF(float x) {
    float a = absF(x);
    bool big = __builtin_isgreater(a, 0.5f);
    float t = selectF(big, __builtin_sqrtf(0.5f * (1.0f - a)), x);
    float r = asinSmall(t);
    float rb = selectF(__builtin_isgreater(x, 0.0f), r + r, 3.14159265358979324f - (r + r));
    r = selectF(big, rb, 1.57079632679489662f - r);
    return selectF(__builtin_isgreater(a, 1.0f), kNanF, r);
}
/// atan x: |x| reduced below tan(pi/8) around 0, pi/4 or pi/2 (Cephes' atanf).
CPU_FORCE_INLINE float atanF(float x) {
    float a = absF(x);
    bool far = __builtin_isgreater(a, 2.414213562373095f);
    bool mid = __builtin_isgreater(a, 0.4142135623730950f);
    float t = selectF(far, -1.0f / a, selectF(mid, (a - 1.0f) / (a + 1.0f), a));
    float y0 = selectF(far, 1.57079632679489662f, selectF(mid, 0.785398163397448310f, 0.0f));
    float z = t * t;
    float p = 8.05374449538e-2f;
    p = p * z - 1.38776856032e-1f;
    p = p * z + 1.99777106478e-1f;
    p = p * z - 3.33329491539e-1f;
    return withSignOf(y0 + (p * z * t + t), x);
}

// ---------------------------------------------------------------- erfinv

/// erfinv(x): Giles' single-precision approximation ("Approximating the erfinv
/// function", 2010); its error, below 3e-7 relative, is under that of a
/// Newton step in float (measured against a long-double reference).
CPU_FORCE_INLINE float erfinvF(float x) {
    float ax = absF(x);
    float w = -logF((1.0f - ax) * (1.0f + ax));
    float w1 = w - 2.5f;
    float p1 = 2.81022636e-08f;
    p1 = 3.43273939e-07f + p1 * w1;
    p1 = -3.5233877e-06f + p1 * w1;
    p1 = -4.39150654e-06f + p1 * w1;
    p1 = 0.00021858087f + p1 * w1;
    p1 = -0.00125372503f + p1 * w1;
    p1 = -0.00417768164f + p1 * w1;
    p1 = 0.246640727f + p1 * w1;
    p1 = 1.50140941f + p1 * w1;
    float w2 = __builtin_sqrtf(selectF(__builtin_isless(w, 5.0f), 5.0f, w)) - 3.0f;
    float p2 = -0.000200214257f;
    p2 = 0.000100950558f + p2 * w2;
    p2 = 0.00134934322f + p2 * w2;
    p2 = -0.00367342844f + p2 * w2;
    p2 = 0.00573950773f + p2 * w2;
    p2 = -0.0076224613f + p2 * w2;
    p2 = 0.00943887047f + p2 * w2;
    p2 = 1.00167406f + p2 * w2;
    p2 = 2.83297682f + p2 * w2;
    float y = selectF(__builtin_isless(w, 5.0f), p1, p2) * ax;
    y = selectF(ax == 1.0f, kInfF, y);
    y = selectF(__builtin_isgreater(ax, 1.0f) | isNanF(x), kNanF, y);
    return withSignOf(y, x);
}

// ---------------------------------------------------------------- pow through double

/// e^x in double for |x| <= 745 (a clamp keeps the scale normal; the callers
/// round to float, where those ends are 0 and inf anyway). About 1e-15 relative.
CPU_FORCE_INLINE double expD(double x) {
    x = selectD(__builtin_isless(x, -700.0), -700.0, x);
    x = selectD(__builtin_isgreater(x, 700.0), 700.0, x);
    const double kShift = 6755399441055744.0;  // 1.5 * 2^52
    double t = x * 1.4426950408889634 + kShift;
    int64_t n = (int64_t)(doubleAsBits(t) - doubleAsBits(kShift));
    double fn = t - kShift;
    double r = x - fn * 6.93147180369123816490e-01 - fn * 1.90821492927058770002e-10;
    double p = 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r * r + r + 1.0;
    return p * bitsAsDouble((uint64_t)(n + 1023) << 52);
}
/// ln x in double for positive normal double x (every positive finite float):
/// x = 2^e m, m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s), s = (m - 1) / (m + 1).
CPU_FORCE_INLINE double logD(double x) {
    uint64_t b = doubleAsBits(x);
    uint64_t eb = b >> 52;  // biased exponent (x > 0)
    double m = bitsAsDouble((b & 0x000fffffffffffffull) | 0x3ff0000000000000ull);  // [1, 2)
    bool hi = __builtin_isgreater(m, 1.4142135623730951);
    m = selectD(hi, 0.5 * m, m);
    // The exponent as a double without an int64 conversion (not in AVX2).
    double e = bitsAsDouble(0x4330000000000000ull | (eb + (uint64_t)hi)) - 4503599627370496.0 - 1023.0;
    double s = (m - 1.0) / (m + 1.0);
    double z = s * s;
    double p = 2.0 / 19.0;
    p = p * z + 2.0 / 17.0;
    p = p * z + 2.0 / 15.0;
    p = p * z + 2.0 / 13.0;
    p = p * z + 2.0 / 11.0;
    p = p * z + 2.0 / 9.0;
    p = p * z + 2.0 / 7.0;
    p = p * z + 2.0 / 5.0;
    p = p * z + 2.0 / 3.0;
    return e * 6.93147180559945309417e-01 + (s * z * p + 2.0 * s);
}
/// x^y for x > 0 finite and y finite (callers check): e^(y ln x) in double,
/// which leaves well under one float ulp of error.
CPU_FORCE_INLINE float powPosF(float x, float y) { return (float)expD((double)y * logD((double)x)); }
/// b^y for a precomputed lb = ln b (b > 0 finite) and finite y.
CPU_FORCE_INLINE float expScaledF(double lb, float y) { return (float)expD((double)y * lb); }

// ---------------------------------------------------------------- per-level loops

namespace simd {

// Each loop exists in three versions; the suffix names the level. Everything
// they call is inlined into them (flatten): GCC would otherwise keep a large
// functor out of line, compiled for the baseline and called per element.
#if defined(__GNUC__)
#define CPU_FLATTEN __attribute__((flatten))
#else
#define CPU_FLATTEN
#endif
#define CPU_SIMD_LOOPS(SUFFIX, ATTR)                                                                                \
    template <class To, class Ta, class F>                                                                          \
    ATTR CPU_FLATTEN void map1##SUFFIX(To* o, const Ta* a, int64_t n, const F& f) {                                 \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) o[i] = f(a[i]);                                         \
    }                                                                                                               \
    template <class To, class Ta, class Tb, class F>                                                                \
    ATTR CPU_FLATTEN void map2##SUFFIX(To* o, const Ta* a, const Tb* b, int64_t n, const F& f) {                    \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i]);                                   \
    }                                                                                                               \
    template <class To, class Ta, class Tb, class Tc, class F>                                                      \
    ATTR CPU_FLATTEN void map3##SUFFIX(To* o, const Ta* a, const Tb* b, const Tc* c, int64_t n, const F& f) {       \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i], c[i]);                             \
    }                                                                                                               \
    template <class T>                                                                                              \
    ATTR void fill##SUFFIX(T* o, int64_t n, T v) {                                                                  \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) o[i] = v;                                               \
    }                                                                                                               \
    template <class F>                                                                                              \
    ATTR CPU_FLATTEN bool all1##SUFFIX(const float* a, int64_t n, const F& f) {                                     \
        int bad = 0;                                                                                                \
        _Pragma("omp simd reduction(| : bad)") for (int64_t i = 0; i < n; ++i) bad |= f(a[i]) ? 0 : 1;              \
        return bad == 0;                                                                                            \
    }                                                                                                               \
    template <class F>                                                                                              \
    ATTR CPU_FLATTEN bool all2##SUFFIX(const float* a, const float* b, int64_t n, const F& f) {                     \
        int bad = 0;                                                                                                \
        _Pragma("omp simd reduction(| : bad)") for (int64_t i = 0; i < n; ++i) bad |= f(a[i], b[i]) ? 0 : 1;        \
        return bad == 0;                                                                                            \
    }

CPU_SIMD_LOOPS(Base, )
#if CPU_HAVE_X86_LEVELS
CPU_SIMD_LOOPS(Avx2, CPU_TARGET_AVX2)
CPU_SIMD_LOOPS(Avx512, CPU_TARGET_AVX512)
#define CPU_SIMD_PICK(NAME, ...)                                                \
    do {                                                                        \
        switch (isa()) {                                                        \
            case Isa::Avx512: return NAME##Avx512(__VA_ARGS__);                 \
            case Isa::Avx2: return NAME##Avx2(__VA_ARGS__);                     \
            default: return NAME##Base(__VA_ARGS__);                            \
        }                                                                       \
    } while (0)
#else
#define CPU_SIMD_PICK(NAME, ...) return NAME##Base(__VA_ARGS__)
#endif
#undef CPU_SIMD_LOOPS

/// o[i] = f(a[i]) over n elements (o may be a), at the level isa() chose.
template <class To, class Ta, class F>
void map1(To* o, const Ta* a, int64_t n, const F& f) {
    CPU_SIMD_PICK(map1, o, a, n, f);
}
/// o[i] = f(a[i], b[i]) (o may be a or b).
template <class To, class Ta, class Tb, class F>
void map2(To* o, const Ta* a, const Tb* b, int64_t n, const F& f) {
    CPU_SIMD_PICK(map2, o, a, b, n, f);
}
/// o[i] = f(a[i], b[i], c[i]).
template <class To, class Ta, class Tb, class Tc, class F>
void map3(To* o, const Ta* a, const Tb* b, const Tc* c, int64_t n, const F& f) {
    CPU_SIMD_PICK(map3, o, a, b, c, n, f);
}
/// o[i] = v for a plain arithmetic T (wide stores at the chosen level).
template <class T>
void fill(T* o, int64_t n, T v) {
    CPU_SIMD_PICK(fill, o, n, v);
}
/// Whether f(a[i]) holds for every i.
template <class F>
bool all1(const float* a, int64_t n, const F& f) {
    CPU_SIMD_PICK(all1, a, n, f);
}
template <class F>
bool all2(const float* a, const float* b, int64_t n, const F& f) {
    CPU_SIMD_PICK(all2, a, b, n, f);
}

// 16-bit floats <-> float over arrays. Half uses the F16C instructions at the
// AVX2 and AVX-512 levels (round to nearest even, as Half::fromFloat; only NaN
// payloads may differ); everything else is the branch-free scalar conversion
// of dtype.hpp, vectorised by the compiler at each level.
#define CPU_CVT_LOOPS(SUFFIX, ATTR)                                                                                 \
    template <class T>                                                                                              \
    ATTR CPU_FLATTEN void widen##SUFFIX(float* o, const T* a, int64_t n) {                                          \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) o[i] = float(a[i]);                                     \
    }                                                                                                               \
    template <class T>                                                                                              \
    ATTR CPU_FLATTEN void narrow##SUFFIX(T* o, const float* a, int64_t n) {                                         \
        /* Stored as bits: a store of the struct through a temporary does not vectorise. */                         \
        uint16_t* p = reinterpret_cast<uint16_t*>(o);                                                               \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) p[i] = T::fromFloat(a[i]);                              \
    }
CPU_CVT_LOOPS(Base, )
#if CPU_HAVE_X86_LEVELS
CPU_CVT_LOOPS(Avx2, CPU_TARGET_AVX2)
CPU_CVT_LOOPS(Avx512, CPU_TARGET_AVX512)
// The F16C builtins on GCC vector types: <immintrin.h> costs a third of a second
// to parse in every file that includes this header.
typedef short CpuF16x8 __attribute__((vector_size(16)));
typedef float CpuF32x8 __attribute__((vector_size(32)));
CPU_TARGET_AVX2 inline void widenF16c(float* o, const Half* a, int64_t n) {
    const uint16_t* p = reinterpret_cast<const uint16_t*>(a);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        CpuF16x8 h;
        std::memcpy(&h, p + i, sizeof h);
        const CpuF32x8 f = __builtin_ia32_vcvtph2ps256(h);
        std::memcpy(o + i, &f, sizeof f);
    }
    for (; i < n; ++i) o[i] = Half::toFloat(p[i]);
}
CPU_TARGET_AVX2 inline void narrowF16c(Half* o, const float* a, int64_t n) {
    uint16_t* p = reinterpret_cast<uint16_t*>(o);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        CpuF32x8 f;
        std::memcpy(&f, a + i, sizeof f);
        const CpuF16x8 h = __builtin_ia32_vcvtps2ph256(f, 0);  // 0: round to nearest even
        std::memcpy(p + i, &h, sizeof h);
    }
    for (; i < n; ++i) p[i] = Half::fromFloat(a[i]);
}
#endif
#undef CPU_CVT_LOOPS

/// o[i] = float(a[i]) for a 16-bit float T (Half, BFloat16).
template <class T>
void widen(float* o, const T* a, int64_t n) {
#if CPU_HAVE_X86_LEVELS
    if constexpr (std::is_same_v<T, Half>)
        if (isa() >= Isa::Avx2) return widenF16c(o, a, n);
#endif
    CPU_SIMD_PICK(widen, o, a, n);
}
/// o[i] = T(a[i]), rounded to nearest even.
template <class T>
void narrow(T* o, const float* a, int64_t n) {
#if CPU_HAVE_X86_LEVELS
    if constexpr (std::is_same_v<T, Half>)
        if (isa() >= Isa::Avx2) return narrowF16c(o, a, n);
#endif
    CPU_SIMD_PICK(narrow, o, a, n);
}
#undef CPU_SIMD_PICK

/// Blocks of this many elements: the domain check of a block and its
/// computation then read the same L1-resident data.
constexpr int64_t kBlock = 1024;

/// map1 with a library fallback: blocks where ok(a[i]) fails somewhere are
/// computed by sf element by element (e.g. trig far from 0, negative bases).
template <class F, class Ok, class SF>
void map1Checked(float* o, const float* a, int64_t n, const F& f, const Ok& ok, const SF& sf) {
    for (int64_t i = 0; i < n; i += kBlock) {
        int64_t m = n - i < kBlock ? n - i : kBlock;
        if (all1(a + i, m, ok)) {
            map1(o + i, a + i, m, f);
        } else {
            for (int64_t j = i; j < i + m; ++j) o[j] = sf(a[j]);
        }
    }
}
template <class F, class Ok, class SF>
void map2Checked(float* o, const float* a, const float* b, int64_t n, const F& f, const Ok& ok, const SF& sf) {
    for (int64_t i = 0; i < n; i += kBlock) {
        int64_t m = n - i < kBlock ? n - i : kBlock;
        if (all2(a + i, b + i, m, ok)) {
            map2(o + i, a + i, b + i, m, f);
        } else {
            for (int64_t j = i; j < i + m; ++j) o[j] = sf(a[j], b[j]);
        }
    }
}

/// Runs body(float* o, const float* a, int64_t n) over n elements of T: float
/// data directly (o may be a), 16-bit floats through a float buffer in blocks.
template <class T, class Body>
void viaFloat1(T* o, const T* a, int64_t n, const Body& body) {
    if constexpr (std::is_same_v<T, float>) {
        body(o, a, n);
    } else {
        float buf[kBlock];
        for (int64_t i = 0; i < n; i += kBlock) {
            int64_t m = n - i < kBlock ? n - i : kBlock;
            widen(buf, a + i, m);
            body(buf, buf, m);
            narrow(o + i, buf, m);
        }
    }
}
/// The same for body(float* o, const float* a, const float* b, int64_t n).
template <class T, class Body>
void viaFloat2(T* o, const T* a, const T* b, int64_t n, const Body& body) {
    if constexpr (std::is_same_v<T, float>) {
        body(o, a, b, n);
    } else {
        float ba[kBlock], bb[kBlock];
        for (int64_t i = 0; i < n; i += kBlock) {
            int64_t m = n - i < kBlock ? n - i : kBlock;
            widen(ba, a + i, m);
            widen(bb, b + i, m);
            body(ba, ba, bb, m);
            narrow(o + i, ba, m);
        }
    }
}

}  // namespace simd

/// denseViaFloat for a caller that knows out's element type T (float32 or a
/// 16-bit float): only that type's loops are compiled.
template <class T, class Body>
bool denseViaFloatAs(const TensorView& out, const TensorView& in, const Body& body) {
    if (out.dtype != dtypeOf<T>() || in.dtype != out.dtype || !out.isContiguous() || !in.isContiguous()) return false;
    T* o = out.ptr<T>();
    const T* x = in.ptr<T>();
    parallelFor(out.numel, kParallelGrain, [&](int64_t b, int64_t e) { simd::viaFloat1<T>(o + b, x + b, e - b, body); });
    return true;
}

/// For a contiguous out and in of one dtype among float32, float16 and
/// bfloat16: runs body(float* o, const float* a, int64_t n) over them in
/// parallel chunks (16-bit data widened and narrowed a block at a time) and
/// returns true. False for anything else (float64, strided data), which the
/// caller's element loop handles.
template <class Body>
bool denseViaFloat(const TensorView& out, const TensorView& in, const Body& body) {
    switch (out.dtype) {
        case diopi_dtype_float32: return denseViaFloatAs<float>(out, in, body);
        case diopi_dtype_float16: return denseViaFloatAs<Half>(out, in, body);
        case diopi_dtype_bfloat16: return denseViaFloatAs<BFloat16>(out, in, body);
        default: return false;
    }
}

/// dst[i] = element i (stride in elements) of a floating row of dtype dt, as A
/// (double only for float64 tensors, float for the others: fewer instantiations).
template <class A>
void loadRow(const char* p, int64_t stride, int64_t n, diopiDtype_t dt, A* dst) {
    using Types = std::conditional_t<std::is_same_v<A, double>, TypeList<double>, TypeList<float, Half, BFloat16>>;
    dispatch<Types>(dt, "tensor", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* s = reinterpret_cast<const T*>(p);
        if constexpr (is_reduced_float_v<T>)
            if (stride == 1) return simd::widen(dst, s, n);
        for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<A>(static_cast<acc_t<T>>(s[i * stride]));
    });
}

/// Element i of a floating row of dtype dt = src[i], rounded once.
template <class A>
void storeRow(const A* src, char* p, int64_t stride, int64_t n, diopiDtype_t dt) {
    using Types = std::conditional_t<std::is_same_v<A, double>, TypeList<double>, TypeList<float, Half, BFloat16>>;
    dispatch<Types>(dt, "tensor", [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* d = reinterpret_cast<T*>(p);
        if constexpr (is_reduced_float_v<T>)
            if (stride == 1) return simd::narrow(d, src, n);
        for (int64_t i = 0; i < n; ++i) d[i * stride] = T(static_cast<acc_t<T>>(src[i]));
    });
}

}  // namespace impl::cpu
