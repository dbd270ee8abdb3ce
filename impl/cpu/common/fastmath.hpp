// Four-wide float math on GCC/Clang vector types, for the contiguous float32
// paths of exp-based kernels (std::exp is an opaque call that the compiler
// cannot vectorise). Vector ternaries are element-wise blends, so the special
// cases below cost no branches.
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
