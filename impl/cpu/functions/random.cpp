// Family random: uniform, normal, bernoulli, dropout, random integers,
// randperm and multinomial sampling.
//
// The generator is counter-based (Philox-4x32 with 10 rounds): a draw is a
// pure function of (seed, counter), so results do not depend on the thread
// count or on the order in which elements are visited. Each call reads the
// caller's generator through diopiGeneratorGetSeedAndOffset, uses the counter
// blocks [offset, offset + used) — one 128-bit block per element or per
// sample — and stores offset + used back with diopiGeneratorSetSeedAndOffset,
// so the same seed and offset give the same bytes and consecutive calls draw
// fresh numbers. A NULL generator selects a process-wide default one.
//
// Element k of an output is the k-th in row-major order of its shape and uses
// block offset + k whatever the output's strides. Samples are first drawn
// into a contiguous temporary and then written through the ordinary strided
// loops. The adaptor passes every dtype through (convert_config.yaml), so
// float64 and int64 are produced natively.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "common/common.hpp"
#include "common/fastmath.hpp"
#include "common/isa.hpp"

namespace impl::cpu {

namespace {

// ---------------------------------------------------------------- the generator

struct Block {
    uint32_t w[4];
};

inline void mulhilo(uint32_t a, uint32_t b, uint32_t& hi, uint32_t& lo) {
    uint64_t p = (uint64_t)a * b;
    hi = (uint32_t)(p >> 32);
    lo = (uint32_t)p;
}

/// Philox-4x32-10 (Salmon et al., SC'11) of the 64-bit counter `ctr` under `seed`.
inline Block philox(uint64_t seed, uint64_t ctr) {
    uint32_t c0 = (uint32_t)ctr, c1 = (uint32_t)(ctr >> 32), c2 = 0, c3 = 0;
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    for (int r = 0; r < 10; ++r) {
        uint32_t hi0, lo0, hi1, lo1;
        mulhilo(0xD2511F53u, c0, hi0, lo0);
        mulhilo(0xCD9E8D57u, c2, hi1, lo1);
        uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
        c0 = n0;
        c1 = lo1;
        c2 = n2;
        c3 = lo0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    return Block{{c0, c1, c2, c3}};
}

/// Uniform in [0, 1) from 53 random bits.
CPU_FORCE_INLINE double unit53(uint32_t a, uint32_t b) { return (double)((((uint64_t)a << 32) | b) >> 11) * 0x1.0p-53; }
CPU_FORCE_INLINE uint64_t bits64(uint32_t a, uint32_t b) { return ((uint64_t)a << 32) | b; }

/// unit53 of words a, b for the batched loops: the same value, built from two exact 26/27-bit halves placed in
/// the mantissa of 2^52 (64-bit integer or, shift and a double subtract), because AVX2 has no 64-bit integer to
/// double conversion and GCC leaves a plain cast scalar there.
CPU_FORCE_INLINE double unit53Vec(uint32_t a, uint32_t b) {
    const uint64_t v = bits64(a, b) >> 11;  // < 2^53
    const uint64_t hb = (v >> 26) | 0x4330000000000000ull, lb = (v & 0x3ffffffull) | 0x4330000000000000ull;
    double h, l;
    std::memcpy(&h, &hb, sizeof h);
    std::memcpy(&l, &lb, sizeof l);
    return ((h - 0x1.0p52) * 0x1.0p26 + (l - 0x1.0p52)) * 0x1.0p-53;
}

/// Standard normal by Box-Muller (the second variate of the pair is discarded,
/// so that each element owns exactly one counter block).
CPU_FORCE_INLINE double normal01(const Block& b) {
    const double u1 = 1.0 - unit53(b.w[0], b.w[1]);  // (0, 1]: the log stays finite
    const double u2 = unit53(b.w[2], b.w[3]);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

/// The counters of one call: `base` is the first block it owns.
struct Stream {
    uint64_t seed = 0;
    uint64_t base = 0;
    Block at(uint64_t k) const { return philox(seed, base + k); }
};

/// Seed of the generator used when the caller passes none.
constexpr uint64_t kDefaultSeed = 0x853C49E6748FEA9Bull;
std::atomic<uint64_t> gDefaultOffset{0};

/// Reserves `used` counter blocks of `gen` and returns where they start; the
/// generator is advanced before any sample is drawn (arguments are checked first).
Stream reserve(diopiGeneratorHandle_t gen, uint64_t used) {
    Stream s;
    if (gen == nullptr) {
        s.seed = kDefaultSeed;
        s.base = gDefaultOffset.fetch_add(used);
        return s;
    }
    if (!diopiGeneratorGetSeedAndOffset || !diopiGeneratorSetSeedAndOffset)
        failCode(diopiNoImplement, "the runtime provides no diopiGeneratorGetSeedAndOffset/diopiGeneratorSetSeedAndOffset");
    uint64_t seed = 0, offset = 0;
    CPU_CHECK(diopiGeneratorGetSeedAndOffset(gen, &seed, &offset) == diopiSuccess, "cannot read the generator's seed and offset");
    CPU_CHECK(diopiGeneratorSetSeedAndOffset(gen, seed, offset + used) == diopiSuccess, "cannot advance the generator");
    s.seed = seed;
    s.base = offset;
    return s;
}

// ---------------------------------------------------------------- helpers

using SampleFloatTypes = TypeList<float, double, Half, BFloat16>;

// ---- batched draws: the same Philox blocks as Stream::at, computed for a run of counters in one loop that
// vectorises over the counters (the 32 x 32 -> 64-bit products become vector multiplies), compiled once per
// instruction-set level together with the transform of the words into samples.

constexpr int64_t kBatch = 256;

/// Words of blocks base + k for k in [0, n): w_j[k] = word j.
CPU_FORCE_INLINE void philoxBatch(uint64_t seed, uint64_t base, int64_t n, uint32_t* __restrict w0, uint32_t* __restrict w1,
                                  uint32_t* __restrict w2, uint32_t* __restrict w3) {
    // 32-bit words kept in 64-bit lanes: a product of two masked lanes is one unsigned 32 x 32 -> 64 vector multiply.
    const uint64_t M = 0xffffffffull, ks0 = seed & M, ks1 = seed >> 32;
    for (int64_t i = 0; i < n; ++i) {
        const uint64_t ctr = base + (uint64_t)i;
        uint64_t c0 = ctr & M, c1 = ctr >> 32, c2 = 0, c3 = 0, k0 = ks0, k1 = ks1;
#pragma GCC unroll 10
        for (int r = 0; r < 10; ++r) {
            const uint64_t p0 = (c0 & M) * 0xD2511F53ull, p1 = (c2 & M) * 0xCD9E8D57ull;
            const uint64_t n0 = (p1 >> 32) ^ c1 ^ k0, n2 = (p0 >> 32) ^ c3 ^ k1;
            c0 = n0;
            c1 = p1 & M;
            c2 = n2;
            c3 = p0 & M;
            k0 = (k0 + 0x9E3779B9ull) & M;
            k1 = (k1 + 0xBB67AE85ull) & M;
        }
        w0[i] = (uint32_t)c0;
        w1[i] = (uint32_t)c1;
        w2[i] = (uint32_t)c2;
        w3[i] = (uint32_t)c3;
    }
}

#if CPU_HAVE_X86_LEVELS
typedef unsigned long long U64x4 __attribute__((vector_size(32)));
typedef int I32x8 __attribute__((vector_size(32)));

/// philoxBatch for AVX2, eight counters at a time in two vectors of 64-bit lanes. AVX2 has no 64-bit vector
/// multiply, so GCC turns the portable form's masked products into three multiplies and shifts each; vpmuludq
/// (32 x 32 -> 64 of each lane's low half) is the one instruction Philox needs. Same words as philoxBatch.
// A call per batch of kBatch counters, not inlined: the caller is a template compiled for the baseline first.
CPU_TARGET_AVX2 __attribute__((noinline)) void philoxBatchAvx2(uint64_t seed, uint64_t base, int64_t n, uint32_t* __restrict w0,
                                                               uint32_t* __restrict w1, uint32_t* __restrict w2, uint32_t* __restrict w3) {
    const unsigned long long M = 0xffffffffull;
    const U64x4 K0 = U64x4{} + 0xD2511F53ull, K1 = U64x4{} + 0xCD9E8D57ull, MM = U64x4{} + M;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        U64x4 c0a, c0b, c1a, c1b, c2a = {}, c2b = {}, c3a = {}, c3b = {};
        for (int l = 0; l < 4; ++l) {
            const uint64_t ca = base + (uint64_t)(i + l), cb = base + (uint64_t)(i + 4 + l);
            c0a[l] = ca & M, c1a[l] = ca >> 32, c0b[l] = cb & M, c1b[l] = cb >> 32;
        }
        uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
#pragma GCC unroll 10
        for (int r = 0; r < 10; ++r) {
            const U64x4 vk0 = U64x4{} + k0, vk1 = U64x4{} + k1;
            const U64x4 p0a = (U64x4)__builtin_ia32_pmuludq256((I32x8)c0a, (I32x8)K0);
            const U64x4 p1a = (U64x4)__builtin_ia32_pmuludq256((I32x8)c2a, (I32x8)K1);
            const U64x4 p0b = (U64x4)__builtin_ia32_pmuludq256((I32x8)c0b, (I32x8)K0);
            const U64x4 p1b = (U64x4)__builtin_ia32_pmuludq256((I32x8)c2b, (I32x8)K1);
            c0a = (p1a >> 32) ^ c1a ^ vk0, c2a = (p0a >> 32) ^ c3a ^ vk1, c1a = p1a & MM, c3a = p0a & MM;
            c0b = (p1b >> 32) ^ c1b ^ vk0, c2b = (p0b >> 32) ^ c3b ^ vk1, c1b = p1b & MM, c3b = p0b & MM;
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        for (int l = 0; l < 4; ++l) {
            w0[i + l] = (uint32_t)c0a[l], w1[i + l] = (uint32_t)c1a[l], w2[i + l] = (uint32_t)c2a[l], w3[i + l] = (uint32_t)c3a[l];
            w0[i + 4 + l] = (uint32_t)c0b[l], w1[i + 4 + l] = (uint32_t)c1b[l], w2[i + 4 + l] = (uint32_t)c2b[l],
                       w3[i + 4 + l] = (uint32_t)c3b[l];
        }
    }
    if (i < n) philoxBatch(seed, base + (uint64_t)i, n - i, w0 + i, w1 + i, w2 + i, w3 + i);
}
#endif

/// ln x for positive normal floats (vectorisable): x = m 2^e with m in [sqrt(1/2), sqrt(2)), ln m from the series of
/// atanh in s = (m - 1) / (m + 1), |s| < 0.172, to about 1 float ulp.
CPU_FORCE_INLINE float logPosF(float x) {
    const uint32_t b = floatAsBits(x);
    int32_t e = (int32_t)(b >> 23) - 127;
    float m = bitsAsFloat((b & 0x7fffffu) | 0x3f800000u);
    const bool big = m > 1.41421356f;
    m = selectF(big, m * 0.5f, m);
    e += big ? 1 : 0;
    const float t = (m - 1.0f) / (m + 1.0f), t2 = t * t;
    const float poly = 1.0f + t2 * (0.333333333f + t2 * (0.2f + t2 * (0.142857143f + t2 * 0.111111111f)));
    return (float)e * 0.693147181f + 2.0f * t * poly;
}

/// cos(2 pi t) for t in [0, 1] (vectorisable): quadrant q = round(4 t), then sin / cos polynomials on |x| <= pi / 4.
CPU_FORCE_INLINE float cos2piF(float t) {
    const int32_t q = (int32_t)(4.0f * t + 0.5f);
    const float x = (t - 0.25f * (float)q) * 6.28318531f, x2 = x * x;
    const float sn = x * (1.0f + x2 * (-1.66666667e-1f + x2 * (8.33333333e-3f + x2 * (-1.98412698e-4f + x2 * 2.75573192e-6f))));
    const float cs = 1.0f + x2 * (-0.5f + x2 * (4.16666667e-2f + x2 * (-1.38888889e-3f + x2 * 2.48015873e-5f)));
    const float r = selectF((q & 1) != 0, sn, cs);
    return selectF(((q + 1) & 2) != 0, -r, r);
}

enum DrawKind : int {
    kUnit53 = 0,   ///< double in [0, 1) from words 0 and 1 (unit53)
    kNormal64 = 1, ///< double standard normal (normal01)
    kNormal32 = 2, ///< float standard normal: Box-Muller in float from words 0 and 2
    kInteger = 3,  ///< from + floor(bits64(words 0, 1) * range / 2^64) (range 0: 2^64), stored as O
    kUniform = 4,  ///< O(lo + (hi - lo) * unit53), kept below hi (clamped to `below`)
    kBernoulli = 5, ///< O(unit53 < probs[k]), probs of type O (may be the output itself)
};

struct DrawArgs {
    void* out;  ///< dense samples of the call, element k at index k

    int64_t k0, k1;
    uint64_t seed, base;
    uint64_t from = 0, range = 0;  ///< kInteger only
    double lo = 0, hi = 1, below = 1;  ///< kUniform bounds; kNormal32 / kNormal64: mean (lo) and std (hi)
    const void* probs = nullptr;       ///< kBernoulli only
};

template <int Kind, class O, bool Avx2Philox = false>
CPU_FORCE_INLINE void drawImpl(const DrawArgs& a) {
    alignas(64) uint32_t w[4][kBatch];
    for (int64_t c = a.k0; c < a.k1; c += kBatch) {
        const int64_t n = std::min(kBatch, a.k1 - c);
#if CPU_HAVE_X86_LEVELS
        if constexpr (Avx2Philox) philoxBatchAvx2(a.seed, a.base + (uint64_t)c, n, w[0], w[1], w[2], w[3]);
        else
#endif
            philoxBatch(a.seed, a.base + (uint64_t)c, n, w[0], w[1], w[2], w[3]);
        O* o = static_cast<O*>(a.out) + c;
        if constexpr (Kind == kUnit53) {
            for (int64_t i = 0; i < n; ++i) o[i] = O(unit53Vec(w[0][i], w[1][i]));
        } else if constexpr (Kind == kUniform) {
            const O hi = O(a.hi), below = O(a.below);
            const double lo = a.lo, span = a.hi - a.lo;
            const bool clampOn = a.hi > a.lo;  // from == to: every sample is from itself
            for (int64_t i = 0; i < n; ++i) {
                const O x = O(lo + span * unit53Vec(w[0][i], w[1][i]));
                o[i] = clampOn && x >= hi ? below : x;  // rounding to O may reach hi
            }
        } else if constexpr (Kind == kBernoulli) {
            const O* p = static_cast<const O*>(a.probs) + c;
            for (int64_t i = 0; i < n; ++i) {
                const double u = unit53Vec(w[0][i], w[1][i]);
                o[i] = u < double(p[i]) ? O(1) : O(0);
            }
        } else if constexpr (Kind == kNormal64) {
            const O mean = O(a.lo), sd = O(a.hi);
            for (int64_t i = 0; i < n; ++i) o[i] = mean + sd * O(normal01(Block{{w[0][i], w[1][i], w[2][i], w[3][i]}}));
        } else if constexpr (Kind == kInteger) {
            // The high half of a 64 x 64-bit product maps the bits onto [0, range) (no division per sample).
            for (int64_t i = 0; i < n; ++i) {
                const uint64_t x = bits64(w[0][i], w[1][i]);
                const uint64_t v = a.range ? (uint64_t)(((unsigned __int128)x * a.range) >> 64) : x;
                o[i] = O((int64_t)(a.from + v));
            }
        } else {
            const float mean = float(a.lo), sd = float(a.hi);
            for (int64_t i = 0; i < n; ++i) {
                const float u1 = (float)(int32_t)((w[0][i] >> 8) + 1) * 0x1.0p-24f;  // (0, 1]: the log stays finite
                const float u2 = (float)(int32_t)(w[2][i] >> 8) * 0x1.0p-24f;       // [0, 1)
                o[i] = mean + sd * (std::sqrt(-2.0f * logPosF(u1)) * cos2piF(u2));
            }
        }
    }
}

template <int Kind, class O>
void drawBase(const DrawArgs& a) {
    drawImpl<Kind, O>(a);
}
#if CPU_HAVE_X86_LEVELS
template <int Kind, class O>
CPU_TARGET_AVX2 void drawAvx2(const DrawArgs& a) {
    drawImpl<Kind, O, true>(a);
}
template <int Kind, class O>
CPU_TARGET_AVX512 void drawAvx512(const DrawArgs& a) {
    drawImpl<Kind, O>(a);
}
#endif

/// Fills the dense tensor t (of C++ type O) with element k drawn from block k of s.
template <int Kind, class O>
void drawTo(const TensorView& t, const Stream& s, DrawArgs a = DrawArgs{}) {
    void (*fn)(const DrawArgs&) = drawBase<Kind, O>;
#if CPU_HAVE_X86_LEVELS
    if (isa() == Isa::Avx512) fn = drawAvx512<Kind, O>;
    else if (isa() == Isa::Avx2) fn = drawAvx2<Kind, O>;
#endif
    a.out = t.data;
    a.seed = s.seed;
    a.base = s.base;
    parallelFor(t.numel, 16384, [&](int64_t b, int64_t e) {
        DrawArgs c = a;
        c.k0 = b;
        c.k1 = e;
        fn(c);
    });
}

/// A dense temporary of `shape` (float64; float32 for kNormal32, int64 for kInteger) drawn from s.
template <int Kind>
TensorView draw(diopiContextHandle_t ctx, const Shape& shape, const Stream& s, DrawArgs a = DrawArgs{}) {
    if constexpr (Kind == kNormal32) {
        TensorView t = newTensor(ctx, shape, diopi_dtype_float32);
        drawTo<Kind, float>(t, s, a);
        return t;
    } else if constexpr (Kind == kInteger) {
        TensorView t = newTensor(ctx, shape, diopi_dtype_int64);
        drawTo<Kind, int64_t>(t, s, a);
        return t;
    } else {
        TensorView t = newTensor(ctx, shape, diopi_dtype_float64);
        drawTo<Kind, double>(t, s, a);
        return t;
    }
}

void checkProbability(double p, const char* name) {
    CPU_CHECK(p >= 0.0 && p <= 1.0, name, " must be in [0, 1], got ", p);
}

void checkStd(double std) { CPU_CHECK(std >= 0.0, "std must be non-negative, got ", std); }

/// Fails unless every element of `t` lies in [lo, hi] (NaN fails too).
void checkAllIn(diopiContextHandle_t ctx, const TensorView& t, double lo, double hi, const char* what, const char* name) {
    if (t.numel == 0) return;
    if (t.isContiguous() && (t.dtype == diopi_dtype_float32 || t.dtype == diopi_dtype_float64)) {
        // Dense float: one branch-free pass (no float64 copy); a failure is located by the slow pass below.
        bool ok = true;
        dispatch<TypeList<float, double>>(t.dtype, name, [&](auto tag) {
            using T = typename decltype(tag)::type;
            const T* p = t.ptr<const T>();
            const T l = T(lo), h = T(hi);
            for (int64_t i = 0; i < t.numel; ++i) ok &= (p[i] >= l) & (p[i] <= h);
        });
        if (ok && lo == double(float(lo)) && (hi == double(float(hi)) || std::isinf(hi))) return;
    }
    TensorView c = contiguousAs(ctx, t, diopi_dtype_float64);
    const double* p = c.ptr<double>();
    for (int64_t i = 0; i < c.numel; ++i)
        CPU_CHECK(p[i] >= lo && p[i] <= hi, name, " must be ", what, ", got ", p[i], " at element ", i);
}

/// Normal samples with per-element mean/std (either may be a scalar): out = mean + std * z.
void normalInto(diopiContextHandle_t ctx, const TensorView& out, const TensorView* mean, double meanS, const TensorView* std, double stdS,
                diopiGeneratorHandle_t gen) {
    dispatch<SampleFloatTypes>(out.dtype, "out", [](auto) {});
    if (std) checkAllIn(ctx, *std, 0.0, std::numeric_limits<double>::infinity(), "non-negative", "std");
    Shape shape = out.shape;
    if (mean && std) {
        Shape bs = broadcastShapes(mean->shape, std->shape);
        CPU_CHECK(bs == shape, "out has shape ", shapeStr(shape), ", expected ", shapeStr(bs));
    } else if (mean || std) {
        const TensorView& t = mean ? *mean : *std;
        CPU_CHECK(t.shape == shape, "out has shape ", shapeStr(shape), ", expected ", shapeStr(t.shape));
    }
    if (out.numel == 0) return;
    Stream s = reserve(gen, (uint64_t)out.numel);
    // float64 samples come from double Box-Muller; the narrower dtypes from the (vectorised) float one.
    const bool dbl = out.dtype == diopi_dtype_float64;
    if (!mean && !std && out.isContiguous() && (dbl || out.dtype == diopi_dtype_float32)) {
        // Scalar mean and std into a dense output: drawn in place, no temporary.
        DrawArgs a;
        a.lo = meanS;
        a.hi = stdS;
        if (dbl) drawTo<kNormal64, double>(out, s, a);
        else drawTo<kNormal32, float>(out, s, a);
        return;
    }
    TensorView z = dbl ? draw<kNormal64>(ctx, shape, s) : draw<kNormal32>(ctx, shape, s);
    const diopiDtype_t ct = dbl ? diopi_dtype_float64 : diopi_dtype_float32;
    TensorView m = mean ? castTo(ctx, *mean, ct) : TensorView{};
    TensorView sd = std ? castTo(ctx, *std, ct) : TensorView{};
    dispatch<SampleFloatTypes>(out.dtype, "out", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using Z = std::conditional_t<std::is_same_v<T, double>, double, float>;
        const Z ms = Z(meanS), ss = Z(stdS);
        if (mean && std)
            ternaryLoop<T, Z, Z, Z>(out, m, sd, z, [](Z mu, Z sg, Z v) { return convert<T>(mu + sg * v); });
        else if (mean)
            binaryLoop<T, Z, Z>(out, m, z, [ss](Z mu, Z v) { return convert<T>(mu + ss * v); });
        else if (std)
            binaryLoop<T, Z, Z>(out, sd, z, [ms](Z sg, Z v) { return convert<T>(ms + sg * v); });
        else
            unaryLoop<T, Z>(out, z, [ms, ss](Z v) { return convert<T>(ms + ss * v); });
    });
}

/// 0/1 samples with per-element probabilities `probs` (broadcast to out) into out.
void bernoulliInto(diopiContextHandle_t ctx, const TensorView& out, const TensorView& probs, diopiGeneratorHandle_t gen) {
    dispatch<AllTypes>(out.dtype, "out", [](auto) {});
    checkAllIn(ctx, probs, 0.0, 1.0, "in [0, 1]", "input");
    if (out.numel == 0) return;
    // In place, probs and out are one tensor: the loop reads each element before writing it.
    Stream s = reserve(gen, (uint64_t)out.numel);
    if (probs.dtype == out.dtype && probs.shape == out.shape && out.isContiguous() && probs.isContiguous() &&
        (out.dtype == diopi_dtype_float32 || out.dtype == diopi_dtype_float64)) {
        // Dense float32 / float64 with one probability per element: drawn in place (each probability is read
        // before its element is written, so in place works too).
        DrawArgs a;
        a.probs = probs.data;
        if (out.dtype == diopi_dtype_float32) drawTo<kBernoulli, float>(out, s, a);
        else drawTo<kBernoulli, double>(out, s, a);
        return;
    }
    TensorView p = castTo(ctx, probs, diopi_dtype_float64);
    TensorView u = draw<kUnit53>(ctx, out.shape, s);
    dispatch<AllTypes>(out.dtype, "out", [&](auto tag) {
        using T = typename decltype(tag)::type;
        binaryLoop<T, double, double>(out, p, u, [](double pr, double v) { return convert<T>(v < pr ? 1 : 0); });
    });
}

/// Dropout on `in` into `out` (which may be `in` itself) with an optional mask.
void dropoutInto(diopiContextHandle_t ctx, const TensorView& out, const TensorView& in, diopiTensorHandle_t maskH, double p, bool train,
                 diopiGeneratorHandle_t gen) {
    checkProbability(p, "p");
    dispatch<SampleFloatTypes>(in.dtype, "input", [](auto) {});
    CPU_CHECK(out.dtype == in.dtype, "out is ", dtypeName(out.dtype), " but input is ", dtypeName(in.dtype));
    CPU_CHECK(out.shape == in.shape, "out has shape ", shapeStr(out.shape), ", expected ", shapeStr(in.shape));
    TensorView mask = viewOpt(maskH, "mask");
    if (mask.defined()) {
        dispatch<AllTypes>(mask.dtype, "mask", [](auto) {});
        CPU_CHECK(broadcastShapes(mask.shape, in.shape) == in.shape, "mask of shape ", shapeStr(mask.shape),
                  " does not broadcast to input's shape ", shapeStr(in.shape));
    }
    if (!train || p == 0.0) {
        // Identity, and no randomness is drawn.
        if (out.data != in.data) copyCast(out, in);
        if (mask.defined())
            dispatch<AllTypes>(mask.dtype, "mask", [&](auto tag) {
                using M = typename decltype(tag)::type;
                fillWith<M>(mask, convert<M>(1));
            });
        return;
    }
    // One keep/drop decision per mask element (a smaller mask drops whole channels).
    const Shape& keepShape = mask.defined() ? mask.shape : in.shape;
    const int64_t nKeep = shapeNumel(keepShape);
    const double q = 1.0 - p;
    Stream s = reserve(gen, (uint64_t)nKeep);
    TensorView keep = draw<kUnit53>(ctx, keepShape, s);
    {
        double* kp = keep.ptr<double>();
        for (int64_t i = 0; i < keep.numel; ++i) kp[i] = kp[i] < q ? 1.0 : 0.0;
    }
    dispatch<SampleFloatTypes>(in.dtype, "input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        // Kept values are divided by 1 - p in double and rounded once; dropped ones are exact zeros.
        binaryLoop<T, T, double>(out, in, keep, [q](T x, double k) { return convert<T>(k != 0.0 ? convert<double>(x) / q : 0.0); });
    });
    if (mask.defined()) copyCast(mask, keep);
}

/// Largest integer a floating dtype holds exactly with all smaller ones (2^digits).
int64_t exactIntLimit(diopiDtype_t dt) {
    switch (dt) {
        case diopi_dtype_float16: return int64_t(1) << 11;
        case diopi_dtype_bfloat16: return int64_t(1) << 8;
        case diopi_dtype_float32: return int64_t(1) << 24;
        case diopi_dtype_float64: return int64_t(1) << 53;
        default: return 0;
    }
}

}  // namespace

diopiError_t diopiDropout(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t mask, diopiConstTensorHandle_t input, double p,
                          bool train, diopiGeneratorHandle_t generator) {
    return guard(__func__, [&] { dropoutInto(ctx, view(out, "out"), view(input, "input"), mask, p, train, generator); });
}

diopiError_t diopiDropoutInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiTensorHandle_t mask, double p, bool train,
                             diopiGeneratorHandle_t generator) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        dropoutInto(ctx, t, t, mask, p, train, generator);
    });
}

diopiError_t diopiRandomInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, int64_t from, const int64_t* to, diopiGeneratorHandle_t generator) {
    return guard(__func__, [&] {
        TensorView t = view(inout, "inout");
        // Inclusive upper bound of the draw.
        int64_t hi = 0;
        if (isFloatingDtype(t.dtype)) {
            const int64_t lim = exactIntLimit(t.dtype);
            hi = to ? *to - 1 : lim;
            CPU_CHECK(from >= -lim && hi <= lim, "[", from, ", ", hi, "] is not exactly representable in ", dtypeName(t.dtype));
        } else {
            int64_t lo = 0, mx = 0;
            dispatch<TypeList<int64_t, int32_t, int16_t, int8_t, uint8_t, bool>>(t.dtype, "inout", [&](auto tag) {
                using T = typename decltype(tag)::type;
                lo = (int64_t)std::numeric_limits<T>::min();
                mx = (int64_t)std::numeric_limits<T>::max();
            });
            hi = to ? *to - 1 : mx;
            CPU_CHECK(from >= lo && hi <= mx, "[", from, ", ", hi, "] does not fit ", dtypeName(t.dtype));
        }
        CPU_CHECK(to == nullptr || from < *to, "from (", from, ") must be less than to (", *to, ")");
        CPU_CHECK(from <= hi, "from (", from, ") exceeds the largest value of ", dtypeName(t.dtype));
        if (t.numel == 0) return;
        // Number of values in [from, hi]; 0 stands for 2^64 (the whole int64 range).
        const uint64_t range = (uint64_t)hi - (uint64_t)from + 1;
        Stream s = reserve(generator, (uint64_t)t.numel);
        DrawArgs a;
        a.from = (uint64_t)from;
        a.range = range;
        if (t.isContiguous() && t.dtype == diopi_dtype_float32) {  // values up to 2^24: exact in float
            drawTo<kInteger, float>(t, s, a);
            return;
        }
        if (t.isContiguous() && t.dtype == diopi_dtype_int64) {
            drawTo<kInteger, int64_t>(t, s, a);
            return;
        }
        TensorView v = draw<kInteger>(ctx, t.shape, s, a);
        copyCast(t, v);
    });
}

diopiError_t diopiUniformInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double from, double to, diopiGeneratorHandle_t generator) {
    return guard(__func__, [&] {
        TensorView t = view(inout, "inout");
        CPU_CHECK(std::isfinite(from) && std::isfinite(to) && from <= to, "need finite from <= to, got [", from, ", ", to, ")");
        if (!isFloatingDtype(t.dtype))
            failCode(diopiDtypeNotSupported, "inout dtype ", dtypeName(t.dtype),
                     " is not supported: continuous uniform samples need a floating-point tensor");
        dispatch<SampleFloatTypes>(t.dtype, "inout", [](auto) {});
        if (t.numel == 0) return;
        Stream s = reserve(generator, (uint64_t)t.numel);
        if (t.isContiguous() && (t.dtype == diopi_dtype_float32 || t.dtype == diopi_dtype_float64)) {
            // Dense float32 / float64: drawn in place; rounding may reach `to`, so such samples become its predecessor.
            DrawArgs a;
            a.lo = from;
            a.hi = to;
            if (t.dtype == diopi_dtype_float32) {
                a.below = to > from ? (double)std::nextafter((float)to, (float)from) : (double)(float)to;
                drawTo<kUniform, float>(t, s, a);
            } else {
                a.below = to > from ? std::nextafter(to, from) : to;
                drawTo<kUniform, double>(t, s, a);
            }
            return;
        }
        TensorView u = draw<kUnit53>(ctx, t.shape, s);
        dispatch<SampleFloatTypes>(t.dtype, "inout", [&](auto tag) {
            using T = typename decltype(tag)::type;
            // Rounding to T may reach `to`; keep float/double samples inside [from, to).
            T below = convert<T>(to);
            if constexpr (std::is_floating_point_v<T>)
                if (to > from) below = std::nextafter(T(to), T(from));
            unaryLoop<T, double>(t, u, [from, to, below](double v) {
                T x = convert<T>(from + (to - from) * v);
                if constexpr (std::is_floating_point_v<T>)
                    if (to > from && x >= T(to)) x = below;
                return x;
            });
        });
    });
}

diopiError_t diopiBernoulli(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiGeneratorHandle_t generator) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        CPU_CHECK(o.shape == in.shape, "out has shape ", shapeStr(o.shape), ", expected ", shapeStr(in.shape));
        bernoulliInto(ctx, o, in, generator);
    });
}

diopiError_t diopiBernoulliInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, diopiGeneratorHandle_t generator) {
    return guard(__func__, [&] {
        TensorView t = view(inout, "inout");
        bernoulliInto(ctx, t, t, generator);
    });
}

diopiError_t diopiBernoulliScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, double p, diopiGeneratorHandle_t generator) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out");
        checkProbability(p, "p");
        TensorView pv = newTensor(ctx, Shape{}, diopi_dtype_float64);
        *pv.ptr<double>() = p;
        bernoulliInto(ctx, o, pv, generator);
    });
}

diopiError_t diopiRandperm(diopiContextHandle_t ctx, diopiTensorHandle_t out, int64_t n, diopiGeneratorHandle_t generator) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out");
        CPU_CHECK(n >= 0, "n must be non-negative, got ", n);
        CPU_CHECK(o.shape == Shape{n}, "out has shape ", shapeStr(o.shape), ", expected [", n, "]");
        dispatch<TypeList<int64_t, int32_t, int16_t, float, double>>(o.dtype, "out", [&](auto tag) {
            using T = typename decltype(tag)::type;
            if constexpr (std::is_integral_v<T>)
                CPU_CHECK(n == 0 || n - 1 <= (int64_t)std::numeric_limits<T>::max(), "n = ", n, " does not fit ", dtypeName(o.dtype));
            else
                CPU_CHECK(n <= exactIntLimit(o.dtype), "n = ", n, " is not exactly representable in ", dtypeName(o.dtype));
        });
        if (n == 0) return;
        // Fisher-Yates from the top: step i swaps position i with a uniform j in [0, i], using block i.
        Stream s = reserve(generator, (uint64_t)n);
        // The 64 random bits of every block first (batched), then the swaps; j = floor(bits * (i + 1) / 2^64).
        // Scratch reused across calls (fresh large allocations cost a page fault per 4 KB on every call).
        thread_local std::vector<int64_t> bitsBuf;
        bitsBuf.resize((size_t)n);
        TensorView bits;
        bits.data = reinterpret_cast<char*>(bitsBuf.data());
        bits.dtype = diopi_dtype_int64;
        bits.shape = Shape{n};
        bits.strides = Shape{1};
        bits.numel = n;
        bits.itemsize = 8;
        drawTo<kInteger, int64_t>(bits, s);
        const uint64_t* bp = reinterpret_cast<const uint64_t*>(bitsBuf.data());
        const bool direct = o.dtype == diopi_dtype_int64 && o.isContiguous();
        TensorView v = direct ? o : newTensor(ctx, Shape{n}, diopi_dtype_int64);
        int64_t* p = v.ptr<int64_t>();
        for (int64_t i = 0; i < n; ++i) p[i] = i;
        for (int64_t i = n - 1; i > 0; --i) {
            const int64_t j = (int64_t)(((unsigned __int128)bp[i] * (uint64_t)(i + 1)) >> 64);
            std::swap(p[i], p[j]);
        }
        if (!direct) copyCast(o, v);
    });
}

diopiError_t diopiNormal(diopiContextHandle_t ctx, diopiTensorHandle_t out, double mean, double std, diopiGeneratorHandle_t generator) {
    return guard(__func__, [&] {
        checkStd(std);
        normalInto(ctx, view(out, "out"), nullptr, mean, nullptr, std, generator);
    });
}

diopiError_t diopiNormalInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double mean, double std, diopiGeneratorHandle_t generator) {
    return guard(__func__, [&] {
        checkStd(std);
        normalInto(ctx, view(inout, "inout"), nullptr, mean, nullptr, std, generator);
    });
}

diopiError_t diopiNormalTensorScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t mean, double std,
                                     diopiGeneratorHandle_t generator) {
    return guard(__func__, [&] {
        checkStd(std);
        TensorView m = view(mean, "mean");
        normalInto(ctx, view(out, "out"), &m, 0.0, nullptr, std, generator);
    });
}

diopiError_t diopiNormalScalarTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, double mean, diopiConstTensorHandle_t std,
                                     diopiGeneratorHandle_t generator) {
    return guard(__func__, [&] {
        TensorView sd = view(std, "std");
        normalInto(ctx, view(out, "out"), nullptr, mean, &sd, 0.0, generator);
    });
}

diopiError_t diopiNormalTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t mean, diopiConstTensorHandle_t std,
                               diopiGeneratorHandle_t generator) {
    return guard(__func__, [&] {
        TensorView m = view(mean, "mean"), sd = view(std, "std");
        normalInto(ctx, view(out, "out"), &m, 0.0, &sd, 0.0, generator);
    });
}

diopiError_t diopiMultinomial(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t num_samples,
                              bool replacement, diopiGeneratorHandle_t generator) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        CPU_CHECK(in.dim() == 1 || in.dim() == 2, "input must be 1-D or 2-D, got shape ", shapeStr(in.shape));
        dispatch<SampleFloatTypes>(in.dtype, "input", [](auto) {});
        dispatch<TypeList<int64_t, int32_t>>(o.dtype, "out", [](auto) {});
        CPU_CHECK(num_samples > 0, "num_samples must be positive, got ", num_samples);
        const int64_t rows = in.dim() == 2 ? in.size(0) : 1, cats = in.size(-1);
        CPU_CHECK(cats > 0, "input has no categories");
        Shape want = in.dim() == 2 ? Shape{rows, num_samples} : Shape{num_samples};
        CPU_CHECK(o.shape == want, "out has shape ", shapeStr(o.shape), ", expected ", shapeStr(want));
        TensorView w = contiguousAs(ctx, in, diopi_dtype_float64);
        const double* wp = w.ptr<double>();
        for (int64_t r = 0; r < rows; ++r) {
            int64_t nonzero = 0;
            double sum = 0;
            for (int64_t c = 0; c < cats; ++c) {
                const double x = wp[r * cats + c];
                CPU_CHECK(std::isfinite(x) && x >= 0, "weights must be finite and non-negative, got ", x, " in row ", r);
                nonzero += x > 0;
                sum += x;
            }
            CPU_CHECK(sum > 0, "row ", r, " has no positive weight");
            CPU_CHECK(replacement || num_samples <= nonzero, "cannot draw ", num_samples, " samples without replacement from row ", r,
                      ", which has ", nonzero, " categories of non-zero weight");
        }
        if (rows == 0) return;
        // Blocks per row: one per sample with replacement, one per category without.
        const int64_t perRow = replacement ? num_samples : cats;
        Stream s = reserve(generator, (uint64_t)(rows * perRow));
        TensorView v = newTensor(ctx, Shape{rows, num_samples}, diopi_dtype_int64);
        int64_t* vp = v.ptr<int64_t>();
        parallelFor(rows, 1, [&](int64_t r0, int64_t r1) {
            std::vector<double> acc(cats);
            std::vector<std::pair<double, int64_t>> keys;
            for (int64_t r = r0; r < r1; ++r) {
                const double* row = wp + r * cats;
                int64_t* dst = vp + r * num_samples;
                const uint64_t first = (uint64_t)(r * perRow);
                if (replacement) {
                    // Inverse CDF: the first category whose cumulative weight exceeds u * total
                    // (zero-weight categories never satisfy that first).
                    double run = 0;
                    for (int64_t c = 0; c < cats; ++c) acc[c] = run += row[c];
                    for (int64_t k = 0; k < num_samples; ++k) {
                        Block b = s.at(first + (uint64_t)k);
                        const double x = unit53(b.w[0], b.w[1]) * run;
                        int64_t c = std::upper_bound(acc.begin(), acc.end(), x) - acc.begin();
                        dst[k] = std::min(c, cats - 1);
                    }
                } else {
                    // Exponential race: category c finishes at E_c / w_c; the order in which
                    // categories finish is a draw without replacement with these weights.
                    keys.clear();
                    for (int64_t c = 0; c < cats; ++c) {
                        if (!(row[c] > 0)) continue;
                        Block b = s.at(first + (uint64_t)c);
                        const double e = -std::log(1.0 - unit53(b.w[0], b.w[1]));
                        keys.emplace_back(e / row[c], c);
                    }
                    std::partial_sort(keys.begin(), keys.begin() + num_samples, keys.end());
                    for (int64_t k = 0; k < num_samples; ++k) dst[k] = keys[k].second;
                }
            }
        });
        copyCast(o, v.restrided(want, contiguousStrides(want)));
    });
}

}  // namespace impl::cpu
