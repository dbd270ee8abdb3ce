// Element types: 16-bit floats, dtype <-> C++ type mapping and dispatch.
#pragma once

#include <diopi/diopirt.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "error.hpp"

namespace impl::cpu {

namespace detail {
inline float f32FromBits(uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}
inline uint32_t f32Bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}
/// c ? a : b through a mask: GCC turns a plain ?: between two computed values
/// into a branch here, and a loop with a branch does not vectorise.
inline uint32_t select(bool c, uint32_t a, uint32_t b) {
    uint32_t m = 0u - (uint32_t)c;
    return (a & m) | (b & ~m);
}
}  // namespace detail

// The conversions below are branch-free (masked selects on integers), so loops over
// them vectorise; they give the same bits as the IEEE round-to-nearest-even
// conversions for every input (checked exhaustively against branchy forms).

/// IEEE binary16 stored as raw bits; arithmetic goes through float.
struct Half {
    uint16_t bits = 0;
    Half() = default;
    Half(float f) : bits(fromFloat(f)) {}  // NOLINT: implicit on purpose, like float
    operator float() const { return toFloat(bits); }
    static float toFloat(uint16_t h) {
        uint32_t em = h & 0x7fffu;
        // Normal and subnormal halves: exponent and mantissa moved into a float
        // and rescaled by 2^112, which is exact for both.
        float f = detail::f32FromBits(em << 13) * 5.192296858534828e+33f;
        uint32_t b = detail::f32Bits(f);
        b = detail::select(em >= 0x7c00u, 0x7f800000u | (em << 13), b);  // inf, NaN (payload kept)
        return detail::f32FromBits(b | ((uint32_t)(h & 0x8000u) << 16));
    }
    static uint16_t fromFloat(float f) {
        uint32_t x = detail::f32Bits(f);
        uint32_t sign = (x >> 16) & 0x8000u;
        uint32_t a = x & 0x7fffffffu;
        // Normal results: rebias the exponent (-112 << 23) and round to nearest even.
        uint32_t normal = (a + 0xc8000fffu + ((a >> 13) & 1u)) >> 13;
        // Subnormal results and zero: adding 0.5 aligns the half ulp (2^-24) with the float lsb.
        uint32_t sub = detail::f32Bits(detail::f32FromBits(a) + 0.5f) - 0x3f000000u;
        uint32_t r = detail::select(a < 0x38800000u, sub, normal);
        r = detail::select(a >= 0x477ff000u, 0x7c00u, r);           // rounds to inf
        r = detail::select(a > 0x7f800000u, 0x7c00u | 0x200u, r);  // NaN stays a (quiet) NaN
        return (uint16_t)(sign | r);
    }
};

/// bfloat16: the upper half of a binary32, rounded to nearest even.
struct BFloat16 {
    uint16_t bits = 0;
    BFloat16() = default;
    BFloat16(float f) : bits(fromFloat(f)) {}  // NOLINT
    operator float() const { return detail::f32FromBits((uint32_t)bits << 16); }
    static uint16_t fromFloat(float f) {
        uint32_t x = detail::f32Bits(f);
        uint32_t r = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
        return (uint16_t)detail::select((x & 0x7fffffffu) > 0x7f800000u, (x >> 16) | 0x40u, r);  // quiet NaN
    }
};

template <class T>
inline constexpr bool is_reduced_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;
template <class T>
inline constexpr bool is_floating_v = std::is_floating_point_v<T> || is_reduced_float_v<T>;
/// Type used for arithmetic on T (16-bit floats compute in float).
template <class T>
using acc_t = std::conditional_t<is_reduced_float_v<T>, float, T>;

/// C++ type -> DIOPI dtype.
template <class T> constexpr diopiDtype_t dtypeOf();
template <> constexpr diopiDtype_t dtypeOf<int8_t>() { return diopi_dtype_int8; }
template <> constexpr diopiDtype_t dtypeOf<uint8_t>() { return diopi_dtype_uint8; }
template <> constexpr diopiDtype_t dtypeOf<int16_t>() { return diopi_dtype_int16; }
template <> constexpr diopiDtype_t dtypeOf<uint16_t>() { return diopi_dtype_uint16; }
template <> constexpr diopiDtype_t dtypeOf<int32_t>() { return diopi_dtype_int32; }
template <> constexpr diopiDtype_t dtypeOf<uint32_t>() { return diopi_dtype_uint32; }
template <> constexpr diopiDtype_t dtypeOf<int64_t>() { return diopi_dtype_int64; }
template <> constexpr diopiDtype_t dtypeOf<uint64_t>() { return diopi_dtype_uint64; }
template <> constexpr diopiDtype_t dtypeOf<Half>() { return diopi_dtype_float16; }
template <> constexpr diopiDtype_t dtypeOf<float>() { return diopi_dtype_float32; }
template <> constexpr diopiDtype_t dtypeOf<double>() { return diopi_dtype_float64; }
template <> constexpr diopiDtype_t dtypeOf<bool>() { return diopi_dtype_bool; }
template <> constexpr diopiDtype_t dtypeOf<BFloat16>() { return diopi_dtype_bfloat16; }

const char* dtypeName(diopiDtype_t dt);
/// Bytes per element; 0 for a dtype this library cannot store.
int64_t itemSize(diopiDtype_t dt);
bool isFloatingDtype(diopiDtype_t dt);   ///< float16/32/64, bfloat16
bool isIntegralDtype(diopiDtype_t dt);   ///< signed/unsigned ints (not bool)

/// A type list for dispatch().
template <class... Ts> struct TypeList {};
/// Passed to dispatch() callbacks: `using T = typename decltype(tag)::type;`
template <class T> struct Tag { using type = T; };

/// Float types kernels compute in: float64 in double, float32 in float, and
/// the 16-bit floats in float (acc_t), rounded once when stored.
using FloatTypes = TypeList<float, Half, BFloat16, double>;
/// Integer types kernels compute in, int64 included (nothing is narrowed).
using IntTypes = TypeList<int32_t, int64_t, int8_t, uint8_t, int16_t>;
using NumericTypes = TypeList<float, Half, BFloat16, double, int32_t, int64_t, int8_t, uint8_t, int16_t>;
using NumericBoolTypes = TypeList<float, Half, BFloat16, double, int32_t, int64_t, int8_t, uint8_t, int16_t, bool>;
/// Every storable dtype, incl. 64-bit ones (copies, casts, data movement).
using AllTypes = TypeList<float, Half, BFloat16, double, int32_t, int64_t, int8_t, uint8_t, int16_t, bool,
                          uint16_t, uint32_t, uint64_t>;

namespace detail {
template <class F, class T, class... Ts>
bool dispatchOne(diopiDtype_t dt, F& f, TypeList<T, Ts...>) {
    if (dt == dtypeOf<T>()) {
        f(Tag<T>{});
        return true;
    }
    if constexpr (sizeof...(Ts) > 0) return dispatchOne(dt, f, TypeList<Ts...>{});
    return false;
}
}  // namespace detail

/// Calls f(Tag<T>{}) for the C++ type T of `dt` if it is in List, else fails
/// with diopiDtypeNotSupported naming `what` (e.g. "input").
template <class List, class F>
void dispatch(diopiDtype_t dt, const char* what, F&& f) {
    if (!detail::dispatchOne(dt, f, List{})) failCode(diopiDtypeNotSupported, what, " dtype ", dtypeName(dt), " is not supported");
}

/// Converts between any two element types with torch-like rules
/// (to bool: != 0; float -> int truncates toward zero).
template <class To, class From>
inline To convert(From v) {
    if constexpr (std::is_same_v<To, From>) {
        return v;
    } else if constexpr (is_reduced_float_v<From>) {
        return convert<To>(static_cast<float>(v));
    } else if constexpr (is_reduced_float_v<To>) {
        return To(static_cast<float>(v));
    } else if constexpr (std::is_same_v<To, bool>) {
        return v != From(0);
    } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
        // NaN/out-of-range would be UB in C++; clamp through int64 like most CPUs do.
        if (std::isnan(v)) return To(0);
        if (v >= (From)9.2e18 || v <= (From)-9.2e18) return To(0);
        return static_cast<To>(static_cast<int64_t>(v));
    } else {
        return static_cast<To>(v);
    }
}

}  // namespace impl::cpu
