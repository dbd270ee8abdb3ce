// Vectorisable float math for the contiguous float paths of exp-based kernels
// (std::exp is an opaque call that the compiler cannot vectorise): four-wide
// forms on GCC/Clang vector types, whose ternaries are element-wise blends, and
// below them scalar branch-free forms for auto-vectorised array loops.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

namespace impl::cpu {

typedef float Vec4f __attribute__((vector_size(16)));
typedef int32_t Vec4i __attribute__((vector_size(16)));

inline Vec4f splat4(float v) { return Vec4f{v, v, v, v}; }
inline Vec4f load4(const float* p) {
    Vec4f v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
inline void store4(float* p, Vec4f v) { std::memcpy(p, &v, sizeof v); }

/// exp(x), within a few float ulp for normal results: x = n ln2 + r with
/// |r| <= ln2/2, a degree-6 polynomial for e^r, then scaling by 2^(n-1) * 2
/// through the exponent bits (n - 1 keeps n = 128 representable). Overflow
/// gives +inf, x < -86.5 (results near or below the normal range) gives 0,
/// NaN stays NaN.
inline Vec4f exp4(Vec4f x) {
    const float kMaxX = 88.7228317f;  // ln(FLT_MAX)
    const float kMinX = -86.5f;       // keeps the biased exponent n - 1 + 127 >= 1
    Vec4f xc = x < splat4(kMinX) ? splat4(kMinX) : x;
    xc = xc > splat4(kMaxX) ? splat4(kMaxX) : xc;
    xc = x != x ? splat4(0.0f) : xc;  // defined integer conversion below
    Vec4f fn = xc * splat4(1.44269504088896341f);
    fn = fn + (fn >= splat4(0.0f) ? splat4(0.5f) : splat4(-0.5f));
    Vec4i n = __builtin_convertvector(fn, Vec4i);  // round half away from zero
    fn = __builtin_convertvector(n, Vec4f);
    Vec4f r = xc - fn * splat4(0.693359375f) - fn * splat4(-2.12194440e-4f);
    Vec4f p = splat4(1.9875691500e-4f);
    p = p * r + splat4(1.3981999507e-3f);
    p = p * r + splat4(8.3334519073e-3f);
    p = p * r + splat4(4.1665795894e-2f);
    p = p * r + splat4(1.6666665459e-1f);
    p = p * r + splat4(5.0000001201e-1f);
    p = p * r * r + r + splat4(1.0f);
    Vec4i bits = (n + 126) << 23;
    Vec4f scale;
    std::memcpy(&scale, &bits, sizeof scale);
    Vec4f y = p * scale * splat4(2.0f);
    y = x > splat4(kMaxX) ? splat4(std::numeric_limits<float>::infinity()) : y;
    y = x < splat4(kMinX) ? splat4(0.0f) : y;
    return x != x ? x : y;
}

/// Applies vf to groups of four and sf to the remainder: out[i] = f(in[i]).
template <class VF, class SF>
inline void map4(float* out, const float* in, int64_t n, VF vf, SF sf) {
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) store4(out + i, vf(load4(in + i)));
    for (; i < n; ++i) out[i] = sf(in[i]);
}

}  // namespace impl::cpu

// ---------------------------------------------------------------------------
// Scalar, branch-free float forms of exp and erfc. They inline into plain
// loops over float arrays, which GCC vectorises at -O3 (selects become blends,
// the integer tricks become vector integer ops); no libm call is involved.
// Comparisons use the quiet __builtin_is* forms: an ordinary < may trap on NaN
// under the default -ftrapping-math, which stops GCC from if-converting it.

namespace impl::cpu {

/// Compiles a hot array kernel twice on x86-64 with GCC: for AVX2+FMA and for
/// the baseline, picked at load time by CPU features (the build uses no
/// -march). "arch=<cpu name>" would not do: it dispatches on the CPU model.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && __GNUC__ >= 12
#define CPU_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#elif defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define CPU_SIMD_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CPU_SIMD_CLONES
#endif
/// Helpers called from such kernels: GCC does not inline a plain inline
/// function into a clone built for another -march unless forced.
#if defined(__GNUC__)
#define CPU_FORCE_INLINE inline __attribute__((always_inline))
#else
#define CPU_FORCE_INLINE inline
#endif

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

/// c ? a : b through a bit mask. A plain ?: with a constant arm invites GCC to
/// split the loop body into paths (and then not vectorise it, as the float
/// operations on a path may trap); the mask form stays straight-line code.
CPU_FORCE_INLINE float selectF(bool c, float a, float b) {
    uint32_t m = 0u - (uint32_t)c;
    return bitsAsFloat((floatAsBits(a) & m) | (floatAsBits(b) & ~m));
}

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
    float az = __builtin_fabsf(z);
    float e = ez * erfcxPosF(az);  // erfc(|z|)
    return selectF(__builtin_isgreaterequal(z, 0.0f), 2.0f - e, e);
}

}  // namespace impl::cpu
