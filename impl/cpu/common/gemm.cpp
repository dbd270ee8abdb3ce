// Packed GEMM in float and double: the classic three-level blocking (NC
// columns of B, KC depth, MC rows of A) around an MR x NR register-tile
// micro-kernel written with GCC vector extensions, so the compiler emits
// full-width FMAs. Every kernel is compiled once per instruction-set level
// (baseline SSE2, AVX2+FMA, AVX-512) and the level is picked once from isa().
// Beside the plain GEMM, two serial entry points for convolutions: an
// "offset" GEMM whose B rows are windows of one array (implicit im2col, no
// packing of B) and a dot-product GEMM whose operands are both contiguous
// along the reduction (weight gradients).
#include "gemm.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "common.hpp"
#include "fastmath.hpp"
#include "isa.hpp"

// Vector-typed helpers are always inlined into a function compiled for the
// level of their vectors, so the by-value ABI warning does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace impl::cpu {

namespace {

typedef float vf4 __attribute__((vector_size(16)));
typedef float vf8 __attribute__((vector_size(32)));
typedef float vf16 __attribute__((vector_size(64)));
typedef double vd2 __attribute__((vector_size(16)));
typedef double vd4 __attribute__((vector_size(32)));
typedef double vd8 __attribute__((vector_size(64)));

template <class V>
using elem_t = std::remove_cv_t<std::remove_reference_t<decltype(V{}[0])>>;

template <class V>
CPU_FORCE_INLINE V vload(const elem_t<V>* p) {
    V v;
    std::memcpy(&v, p, sizeof(V));  // an unaligned vector load
    return v;
}
template <class V>
CPU_FORCE_INLINE void vstore(elem_t<V>* p, V v) {
    std::memcpy(p, &v, sizeof(V));
}

// ---------------------------------------------------------------- micro-kernels

/// c (MR x NR, row stride ldc) = [c +] A-sliver @ B-rows over kc: the A sliver
/// is packed k-major (MR values per k); B row k starts at b + off[k] (OFF) or
/// at b + k * NR (a packed sliver). All NR columns are read and written.
template <class V, int MR, int NV, bool OFF>
CPU_FORCE_INLINE void microKernel(int64_t kc, const elem_t<V>* __restrict a, const elem_t<V>* __restrict b, const int64_t* __restrict off,
                                  elem_t<V>* __restrict c, int64_t ldc, bool accumulate) {
    using S = elem_t<V>;
    constexpr int L = sizeof(V) / sizeof(S), NR = NV * L;
    V acc[MR][NV];
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) acc[i][v] = V{};
    for (int64_t k = 0; k < kc; ++k) {
        const S* bk = OFF ? b + off[k] : b + k * NR;
        V bv[NV];
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) bv[v] = vload<V>(bk + v * L);
#pragma GCC unroll 16
        for (int i = 0; i < MR; ++i) {
            const S x = a[i];
#pragma GCC unroll 4
            for (int v = 0; v < NV; ++v) acc[i][v] += x * bv[v];
        }
        a += MR;
    }
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) {
            S* p = c + i * ldc + v * L;
            vstore<V>(p, accumulate ? vload<V>(p) + acc[i][v] : acc[i][v]);
        }
}

/// c[i * ldc + j] += sum over r < reps (two nested levels, DotReps) of
/// dot(a[i] + offA(r), b[j] + offB(r)) over J elements, i < MA, j < NB. The
/// lanes are summed once, after all repetitions.
template <class V, int MA, int NB>
CPU_FORCE_INLINE void dotKernel(int64_t J, const DotReps& rp, const elem_t<V>* const* a, const elem_t<V>* const* b, elem_t<V>* c,
                                int64_t ldc) {
    using S = elem_t<V>;
    constexpr int L = sizeof(V) / sizeof(S);
    V acc[MA][NB];
#pragma GCC unroll 8
    for (int i = 0; i < MA; ++i)
#pragma GCC unroll 8
        for (int j = 0; j < NB; ++j) acc[i][j] = V{};
    S tail[MA][NB] = {};
    for (int64_t r1 = 0; r1 < rp.n1; ++r1)
        for (int64_t r2 = 0; r2 < rp.n2; ++r2) {
            const S* ap[MA];
            const S* bp[NB];
            for (int i = 0; i < MA; ++i) ap[i] = a[i] + r1 * rp.sa1 + r2 * rp.sa2;
            for (int j = 0; j < NB; ++j) bp[j] = b[j] + r1 * rp.sb1 + r2 * rp.sb2;
            int64_t t = 0;
            for (; t + L <= J; t += L) {
                V bv[NB];
#pragma GCC unroll 8
                for (int j = 0; j < NB; ++j) bv[j] = vload<V>(bp[j] + t);
#pragma GCC unroll 8
                for (int i = 0; i < MA; ++i) {
                    const V av = vload<V>(ap[i] + t);
#pragma GCC unroll 8
                    for (int j = 0; j < NB; ++j) acc[i][j] += av * bv[j];
                }
            }
            for (; t < J; ++t)
                for (int i = 0; i < MA; ++i)
                    for (int j = 0; j < NB; ++j) tail[i][j] += ap[i][t] * bp[j][t];
        }
    for (int i = 0; i < MA; ++i)
        for (int j = 0; j < NB; ++j) {
            S s = tail[i][j];
            for (int l = 0; l < L; ++l) s += acc[i][j][l];
            c[i * ldc + j] += s;
        }
}

// ---------------------------------------------------------------- block loops

/// Blocking of the packed GEMM for one element type and level.
template <class S>
struct Blocking {
    int64_t mr, nr, kc, mc, nc;
};

template <class S>
constexpr int64_t kcFor(int64_t nr) {
    // One packed B sliver (kc x nr) in 16 KB: it stays in a 32 KB L1 beside the A sliver.
    return std::max<int64_t>(64, (int64_t(16) << 10) / (nr * (int64_t)sizeof(S)));
}

/// C block (mc x nc) = alpha * packedA @ packedB + beta * C block, any C strides.
template <class V, int MR, int NV>
CPU_FORCE_INLINE void macroBody(int64_t mc, int64_t nc, int64_t kc, elem_t<V> alpha, const elem_t<V>* pa, const elem_t<V>* pb, elem_t<V> beta,
                                elem_t<V>* C, int64_t rsC, int64_t csC) {
    using S = elem_t<V>;
    constexpr int64_t NR = NV * (sizeof(V) / sizeof(S));
    alignas(64) S acc[MR * NR];
    for (int64_t jr = 0; jr < nc; jr += NR) {
        const int64_t nr = std::min(NR, nc - jr);
        for (int64_t ir = 0; ir < mc; ir += MR) {
            const int64_t mr = std::min<int64_t>(MR, mc - ir);
            S* c = C + ir * rsC + jr * csC;
            // Whole tiles of a unit-column-stride C with alpha 1 and beta 0 or 1 go
            // straight to C; the others through a local tile. (One call site: the
            // unrolled kernel is big.)
            const bool direct = csC == 1 && nr == NR && mr == MR && alpha == S(1) && (beta == S(0) || beta == S(1));
            microKernel<V, MR, NV, false>(kc, pa + ir * kc, pb + jr * kc, nullptr, direct ? c : acc, direct ? rsC : NR,
                                          direct && beta == S(1));
            if (direct) continue;
            for (int64_t i = 0; i < mr; ++i) {
                const S* ai = acc + i * NR;
                if (csC == 1) {
                    S* ci = c + i * rsC;
                    if (beta == S(0)) {
                        for (int64_t j = 0; j < nr; ++j) ci[j] = alpha * ai[j];
                    } else {
                        for (int64_t j = 0; j < nr; ++j) ci[j] = alpha * ai[j] + beta * ci[j];
                    }
                } else {
                    for (int64_t j = 0; j < nr; ++j) {
                        S& v = c[i * rsC + j * csC];
                        v = beta == S(0) ? alpha * ai[j] : alpha * ai[j] + beta * v;  // beta == 0 never reads C
                    }
                }
            }
        }
    }
}

/// Serial offset GEMM: C (rows rounded up to MR, columns up to NR, row stride
/// ldc) = packedA (M x K, MR-row slivers of the full depth) @ B with B(k, j) = b[off[k] + j].
template <class V, int MR, int NV>
CPU_FORCE_INLINE void offsetBody(int64_t M, int64_t N, int64_t K, const elem_t<V>* pa, const elem_t<V>* b, const int64_t* off, elem_t<V>* C,
                                 int64_t ldc) {
    using S = elem_t<V>;
    constexpr int64_t NR = NV * (sizeof(V) / sizeof(S));
    const int64_t Mp = (M + MR - 1) / MR * MR, Np = (N + NR - 1) / NR * NR;
    if (K <= 0) {
        for (int64_t i = 0; i < Mp; ++i) std::fill(C + i * ldc, C + i * ldc + Np, S(0));
        return;
    }
    constexpr int64_t KCmax = kcFor<S>(NR);
    const int64_t blocks = (K + KCmax - 1) / KCmax;
    for (int64_t blk = 0; blk < blocks; ++blk) {
        const int64_t p0 = K * blk / blocks, p1 = K * (blk + 1) / blocks;
        for (int64_t jr = 0; jr < Np; jr += NR)
            for (int64_t ir = 0; ir < Mp; ir += MR)
                microKernel<V, MR, NV, true>(p1 - p0, pa + ir * K + p0 * MR, b + jr, off + p0, C + ir * ldc + jr, ldc, blk > 0);
    }
}

/// Serial dot GEMM over whole tiles: C[i][j] += dot(a[i], b[j]), M a multiple of MA, N of NB.
template <class V, int MA, int NB>
CPU_FORCE_INLINE void dotBody(int64_t M, int64_t N, int64_t J, const DotReps& rp, const elem_t<V>* const* a, const elem_t<V>* const* b,
                              elem_t<V>* C, int64_t ldc) {
    for (int64_t i = 0; i < M; i += MA)
        for (int64_t j = 0; j < N; j += NB) dotKernel<V, MA, NB>(J, rp, a + i, b + j, C + i * ldc + j, ldc);
}

template <class S>
using MacroFn = void (*)(int64_t, int64_t, int64_t, S, const S*, const S*, S, S*, int64_t, int64_t);
template <class S>
using OffsetFn = void (*)(int64_t, int64_t, int64_t, const S*, const S*, const int64_t*, S*, int64_t);
template <class S>
using DotFn = void (*)(int64_t, int64_t, int64_t, const DotReps&, const S* const*, const S* const*, S*, int64_t);

/// Instantiates the three block loops of one element type at one level.
#define CPU_GEMM_LEVEL(NAME, ATTR, V, MR, NV, MA, NB)                                                                                        \
    ATTR void NAME##Macro(int64_t mc, int64_t nc, int64_t kc, elem_t<V> alpha, const elem_t<V>* pa, const elem_t<V>* pb, elem_t<V> beta, \
                          elem_t<V>* C, int64_t rsC, int64_t csC) {                                                                       \
        macroBody<V, MR, NV>(mc, nc, kc, alpha, pa, pb, beta, C, rsC, csC);                                                              \
    }                                                                                                                                    \
    ATTR void NAME##Offset(int64_t M, int64_t N, int64_t K, const elem_t<V>* pa, const elem_t<V>* b, const int64_t* off, elem_t<V>* C,   \
                           int64_t ldc) {                                                                                                \
        offsetBody<V, MR, NV>(M, N, K, pa, b, off, C, ldc);                                                                              \
    }                                                                                                                                    \
    ATTR void NAME##Dot(int64_t M, int64_t N, int64_t J, const DotReps& rp, const elem_t<V>* const* a, const elem_t<V>* const* b,       \
                        elem_t<V>* C, int64_t ldc) {                                                                                      \
        dotBody<V, MA, NB>(M, N, J, rp, a, b, C, ldc);                                                                                    \
    }

// Register budgets: AVX-512 has 32 vector registers; an 8 x 2-vector tile
// (16 accumulators, enough to hide the FMA latency) was as fast as wider ones
// and wastes no columns on the common multiples of 32 (float) / 16 (double);
// the dot tile has 24 accumulators. AVX2 and SSE2 have 16 registers: 12
// accumulators + the B vectors + a broadcast.
CPU_GEMM_LEVEL(f32Base, , vf4, 6, 2, 3, 3)
CPU_GEMM_LEVEL(f64Base, , vd2, 6, 2, 3, 3)
#if CPU_HAVE_X86_LEVELS
CPU_GEMM_LEVEL(f32Avx2, CPU_TARGET_AVX2, vf8, 6, 2, 3, 3)
CPU_GEMM_LEVEL(f64Avx2, CPU_TARGET_AVX2, vd4, 6, 2, 3, 3)
CPU_GEMM_LEVEL(f32Avx512, CPU_TARGET_AVX512, vf16, 8, 2, 4, 6)
CPU_GEMM_LEVEL(f64Avx512, CPU_TARGET_AVX512, vd8, 8, 2, 4, 6)
#endif
#undef CPU_GEMM_LEVEL

/// The kernels and blocking of one element type at the level isa() chose.
template <class S>
struct Level {
    Blocking<S> blk;
    int64_t ma = 1, nb = 1;  // dot-kernel tile
    MacroFn<S> macro = nullptr;
    OffsetFn<S> offset = nullptr;
    DotFn<S> dot = nullptr;
};

template <class S>
Level<S> makeLevel(int64_t mr, int64_t nr, int64_t ma, int64_t nb, MacroFn<S> m, OffsetFn<S> o, DotFn<S> d) {
    Level<S> l;
    l.blk.mr = mr;
    l.blk.nr = nr;
    l.blk.kc = kcFor<S>(nr);
    // A block (mc x kc) within ~192 KB of L2, B panel (kc x nc) within ~1 MB.
    l.blk.mc = std::max<int64_t>(mr, ((int64_t(192) << 10) / (l.blk.kc * (int64_t)sizeof(S))) / mr * mr);
    l.blk.nc = std::max<int64_t>(nr, ((int64_t(1) << 20) / (l.blk.kc * (int64_t)sizeof(S))) / nr * nr);
    l.ma = ma;
    l.nb = nb;
    l.macro = m;
    l.offset = o;
    l.dot = d;
    return l;
}

template <class S>
const Level<S>& level();

template <>
const Level<float>& level<float>() {
    static const Level<float> l = [] {
#if CPU_HAVE_X86_LEVELS
        if (isa() >= Isa::Avx512) return makeLevel<float>(8, 32, 4, 6, f32Avx512Macro, f32Avx512Offset, f32Avx512Dot);
        if (isa() >= Isa::Avx2) return makeLevel<float>(6, 16, 3, 3, f32Avx2Macro, f32Avx2Offset, f32Avx2Dot);
#endif
        return makeLevel<float>(6, 8, 3, 3, f32BaseMacro, f32BaseOffset, f32BaseDot);
    }();
    return l;
}

template <>
const Level<double>& level<double>() {
    static const Level<double> l = [] {
#if CPU_HAVE_X86_LEVELS
        if (isa() >= Isa::Avx512) return makeLevel<double>(8, 16, 4, 6, f64Avx512Macro, f64Avx512Offset, f64Avx512Dot);
        if (isa() >= Isa::Avx2) return makeLevel<double>(6, 8, 3, 3, f64Avx2Macro, f64Avx2Offset, f64Avx2Dot);
#endif
        return makeLevel<double>(6, 4, 3, 3, f64BaseMacro, f64BaseOffset, f64BaseDot);
    }();
    return l;
}

// ---------------------------------------------------------------- packing

/// Per-thread packing buffers, kept across calls (OpenMP threads persist).
template <class S>
struct Buffers {
    S* a = nullptr;
    S* b = nullptr;
    Buffers() {
        const Blocking<S>& k = level<S>().blk;
        a = static_cast<S*>(std::aligned_alloc(64, (sizeof(S) * k.mc * k.kc + 63) / 64 * 64));
        b = static_cast<S*>(std::aligned_alloc(64, (sizeof(S) * k.kc * k.nc + 63) / 64 * 64));
    }
    ~Buffers() {
        std::free(a);
        std::free(b);
    }
};

template <class S>
Buffers<S>& buffers() {
    thread_local Buffers<S> buf;
    if (!buf.a || !buf.b) throw std::bad_alloc();
    return buf;
}

/// d[0..n) = src[0..n) converted to S: a plain loop over dense memory, so
/// the 16-bit conversions vectorise (compiled per level below).
template <class S, class T>
CPU_FORCE_INLINE void convertRowBody(const T* __restrict src, S* __restrict d, int64_t n) {
    for (int64_t j = 0; j < n; ++j) d[j] = toCompute<S>(src[j]);
}
/// d[0..n) = float16 (HALF) or bfloat16 bits of r[0..n).
template <bool HALF>
CPU_FORCE_INLINE void bitsRowBody(const float* __restrict r, uint16_t* __restrict d, int64_t n) {
    for (int64_t j = 0; j < n; ++j) d[j] = HALF ? halfBits(r[j]) : bf16Bits(r[j]);
}

#define CPU_CONVERT_LEVEL(NAME, ATTR)                                                                                                    \
    ATTR void NAME##FromHalf(const Half* s, float* d, int64_t n) { convertRowBody(s, d, n); }                                          \
    ATTR void NAME##FromBf16(const BFloat16* s, float* d, int64_t n) { convertRowBody(s, d, n); }                                      \
    ATTR void NAME##ToHalf(const float* r, uint16_t* d, int64_t n) { bitsRowBody<true>(r, d, n); }                                     \
    ATTR void NAME##ToBf16(const float* r, uint16_t* d, int64_t n) { bitsRowBody<false>(r, d, n); }
CPU_CONVERT_LEVEL(cvtBase, )
#if CPU_HAVE_X86_LEVELS
CPU_CONVERT_LEVEL(cvtAvx2, CPU_TARGET_AVX2)
CPU_CONVERT_LEVEL(cvtAvx512, CPU_TARGET_AVX512)
#endif
#undef CPU_CONVERT_LEVEL

/// The 16-bit conversion loops of the level isa() chose.
struct Converters {
    void (*fromHalf)(const Half*, float*, int64_t);
    void (*fromBf16)(const BFloat16*, float*, int64_t);
    void (*toHalf)(const float*, uint16_t*, int64_t);
    void (*toBf16)(const float*, uint16_t*, int64_t);
};

const Converters& converters() {
    static const Converters c = [] {
#if CPU_HAVE_X86_LEVELS
        if (isa() >= Isa::Avx512) return Converters{cvtAvx512FromHalf, cvtAvx512FromBf16, cvtAvx512ToHalf, cvtAvx512ToBf16};
        if (isa() >= Isa::Avx2) return Converters{cvtAvx2FromHalf, cvtAvx2FromBf16, cvtAvx2ToHalf, cvtAvx2ToBf16};
#endif
        return Converters{cvtBaseFromHalf, cvtBaseFromBf16, cvtBaseToHalf, cvtBaseToBf16};
    }();
    return c;
}

template <class S, class T>
void convertRow(const T* __restrict src, S* __restrict d, int64_t n) {
    if constexpr (std::is_same_v<S, float> && std::is_same_v<T, Half>) {
        converters().fromHalf(src, d, n);
    } else if constexpr (std::is_same_v<S, float> && std::is_same_v<T, BFloat16>) {
        converters().fromBf16(src, d, n);
    } else {
        convertRowBody(src, d, n);
    }
}

/// A row of n elements as S: the row itself when T is S, else converted into buf.
template <class S, class T>
const S* s2row(const T* s, S* buf, int64_t n) {
    if constexpr (std::is_same_v<S, T>) {
        return s;
    } else {
        convertRow(s, buf, n);
        return buf;
    }
}

/// Packs rows [i0, i0+mc) x depth [p0, p0+kc) of A as MR-row slivers, k-major, zero padded.
template <class S, class T>
void packA(const MatRef& A, int64_t i0, int64_t p0, int64_t mc, int64_t kc, int64_t MR, S* dst) {
    S row[1024];  // one converted row segment (kc is at most a few hundred)
    for (int64_t ir = 0; ir < mc; ir += MR) {
        const int64_t mr = std::min(MR, mc - ir);
        S* d = dst + ir * kc;
        const int64_t rowBase = (i0 + ir) * A.rs + p0 * A.cs;
        const T* src = reinterpret_cast<const T*>(A.data) + rowBase;
        if (A.rs == 1) {
            // Column-major A: each k is a run of mr values.
            for (int64_t k = 0; k < kc; ++k) {
                convertRow(src + k * A.cs, d + k * MR, mr);
                for (int64_t i = mr; i < MR; ++i) d[k * MR + i] = S(0);
            }
            continue;
        }
        for (int64_t i = 0; i < mr; ++i) {
            const T* s = src + i * A.rs;
            if (A.cs == 1 && kc <= 1024) {
                const S* r = s2row(s, row, kc);
                for (int64_t k = 0; k < kc; ++k) d[k * MR + i] = r[k];
            } else {
                for (int64_t k = 0; k < kc; ++k) d[k * MR + i] = toCompute<S>(s[k * A.cs]);
            }
        }
        for (int64_t i = mr; i < MR; ++i)
            for (int64_t k = 0; k < kc; ++k) d[k * MR + i] = S(0);
    }
}

/// Packs depth [p0, p0+kc) x columns [j0, j0+nc) of B as NR-column slivers, k-major, zero padded.
template <class S, class T>
void packB(const MatRef& B, int64_t p0, int64_t j0, int64_t kc, int64_t nc, int64_t NR, S* dst) {
    for (int64_t jr = 0; jr < nc; jr += NR) {
        const int64_t nr = std::min(NR, nc - jr);
        S* d = dst + jr * kc;
        const T* src = reinterpret_cast<const T*>(B.data) + p0 * B.rs + (j0 + jr) * B.cs;
        if (B.cs == 1) {
            for (int64_t k = 0; k < kc; ++k) {
                S* dk = d + k * NR;
                convertRow(src + k * B.rs, dk, nr);
                for (int64_t j = nr; j < NR; ++j) dk[j] = S(0);
            }
            continue;
        }
        for (int64_t j = 0; j < nr; ++j) {
            const T* s = src + j * B.cs;
            if (B.rs == 1) {
                for (int64_t k = 0; k < kc; ++k) d[k * NR + j] = toCompute<S>(s[k]);
            } else {
                for (int64_t k = 0; k < kc; ++k) d[k * NR + j] = toCompute<S>(s[k * B.rs]);
            }
        }
        for (int64_t j = nr; j < NR; ++j)
            for (int64_t k = 0; k < kc; ++k) d[k * NR + j] = S(0);
    }
}

/// Calls f(T{}) with T the C++ type of an operand dtype computed in S.
template <class S, class F>
void byType(diopiDtype_t dt, F&& f) {
    if constexpr (std::is_same_v<S, double>) {
        if (dt == diopi_dtype_float64) return f(double{});
    } else {
        switch (dt) {
            case diopi_dtype_float32: return f(float{});
            case diopi_dtype_float16: return f(Half{});
            case diopi_dtype_bfloat16: return f(BFloat16{});
            default: break;
        }
    }
    failCode(diopiDtypeNotSupported, "matrix product operand dtype ", dtypeName(dt), " is not supported");
}

/// C = beta * C for an empty inner dimension (beta == 0 writes zeros).
template <class S>
void scaleC(int64_t M, int64_t N, S beta, S* C, int64_t rsC, int64_t csC) {
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            S& v = C[i * rsC + j * csC];
            v = beta == S(0) ? S(0) : beta * v;
        }
}

/// Serial blocked GEMM on one tile of C (dtypes are checked by the caller).
template <class S>
void gemmSerial(int64_t M, int64_t N, int64_t K, S alpha, const MatRef& A, const MatRef& B, S beta, S* C, int64_t rsC, int64_t csC) {
    if (M <= 0 || N <= 0) return;
    if (K <= 0) {
        scaleC(M, N, beta, C, rsC, csC);
        return;
    }
    const Level<S>& lv = level<S>();
    const Blocking<S>& bk = lv.blk;
    Buffers<S>& buf = buffers<S>();
    // Even depth blocks: a 1.1 * KC depth becomes two halves, not a full block and a sliver.
    const int64_t kBlocks = (K + bk.kc - 1) / bk.kc;
    for (int64_t jc = 0; jc < N; jc += bk.nc) {
        const int64_t nc = std::min(bk.nc, N - jc);
        for (int64_t kb = 0; kb < kBlocks; ++kb) {
            const int64_t pc = K * kb / kBlocks, kc = K * (kb + 1) / kBlocks - pc;
            byType<S>(B.dtype, [&](auto tag) { packB<S, decltype(tag)>(B, pc, jc, kc, nc, bk.nr, buf.b); });
            const S b = kb == 0 ? beta : S(1);
            for (int64_t ic = 0; ic < M; ic += bk.mc) {
                const int64_t mc = std::min(bk.mc, M - ic);
                byType<S>(A.dtype, [&](auto tag) { packA<S, decltype(tag)>(A, ic, pc, mc, kc, bk.mr, buf.a); });
                lv.macro(mc, nc, kc, alpha, buf.a, buf.b, b, C + ic * rsC + jc * csC, rsC, csC);
            }
        }
    }
}

template <class S>
void checkOperand(const MatRef& X) {
    byType<S>(X.dtype, [](auto) {});
}

int maxThreads() {
#ifdef _OPENMP
    return inParallelRegion() ? 1 : omp_get_max_threads();
#else
    return 1;
#endif
}

// Below this many multiply-adds a second thread costs more than it saves.
constexpr int64_t kGemmParallelWork = 1 << 17;

template <class S>
void gemmAny(int64_t M, int64_t N, int64_t K, S alpha, const MatRef& A, const MatRef& B, S beta, S* C, int64_t rsC, int64_t csC) {
    if (M <= 0 || N <= 0) return;
    checkOperand<S>(A);
    checkOperand<S>(B);
    buffers<S>();  // allocation failures surface here, outside any parallel region
    const int nt = maxThreads();
    if (nt <= 1 || M * N * std::max<int64_t>(K, 1) < kGemmParallelWork) {
        gemmSerial<S>(M, N, K, alpha, A, B, beta, C, rsC, csC);
        return;
    }
    // One rectangular tile of C per thread, split along the longer side in whole register tiles.
    const Blocking<S>& bk = level<S>().blk;
    const bool splitM = (M + bk.mr - 1) / bk.mr >= (N + bk.nr - 1) / bk.nr;
    const int64_t unit = splitM ? bk.mr : bk.nr, len = splitM ? M : N;
    const int64_t units = (len + unit - 1) / unit;
    const int64_t parts = std::min<int64_t>(nt, units);
#ifdef _OPENMP
    bool failed = false;
#pragma omp parallel for num_threads(parts) schedule(static) reduction(|| : failed)
    for (int64_t t = 0; t < parts; ++t) {
        const int64_t b = std::min(len, units * t / parts * unit), e = std::min(len, units * (t + 1) / parts * unit);
        if (b >= e) continue;
        try {
            if (splitM)
                gemmSerial<S>(e - b, N, K, alpha, MatRef(A.data + b * A.rs * itemSize(A.dtype), A.dtype, A.rs, A.cs), B, beta, C + b * rsC,
                              rsC, csC);
            else
                gemmSerial<S>(M, e - b, K, alpha, A, MatRef(B.data + b * B.cs * itemSize(B.dtype), B.dtype, B.rs, B.cs), beta, C + b * csC,
                              rsC, csC);
        } catch (...) {
            failed = true;  // a worker's packing buffer could not be allocated
        }
    }
    if (failed) fail("out of host memory for the packing buffers");
#else
    gemmSerial<S>(M, N, K, alpha, A, B, beta, C, rsC, csC);
#endif
}

template <class S>
void gemmBatchedAny(int64_t batch, int64_t M, int64_t N, int64_t K, S alpha, const MatRef& A, int64_t bsA, const MatRef& B, int64_t bsB,
                    S beta, S* C, int64_t bsC, int64_t rsC, int64_t csC) {
    if (batch <= 0 || M <= 0 || N <= 0) return;
    checkOperand<S>(A);
    checkOperand<S>(B);
    const int64_t ia = itemSize(A.dtype), ib = itemSize(B.dtype);
    auto one = [&](int64_t i, bool parallel) {
        MatRef a(A.data + i * bsA * ia, A.dtype, A.rs, A.cs), b(B.data + i * bsB * ib, B.dtype, B.rs, B.cs);
        if (parallel) gemmAny<S>(M, N, K, alpha, a, b, beta, C + i * bsC, rsC, csC);
        else gemmSerial<S>(M, N, K, alpha, a, b, beta, C + i * bsC, rsC, csC);
    };
    const int nt = maxThreads();
    const int64_t work = M * N * std::max<int64_t>(K, 1);
    // Many small products: one whole product per thread; otherwise threads share each product.
    if (nt > 1 && batch > 1 && (batch % nt == 0 || batch >= 4 * nt || work < kGemmParallelWork) && batch * work >= kGemmParallelWork) {
        buffers<S>();
#ifdef _OPENMP
        bool failed = false;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) reduction(|| : failed)
        for (int64_t i = 0; i < batch; ++i) {
            try {
                one(i, false);
            } catch (...) {
                failed = true;
            }
        }
        if (failed) fail("out of host memory for the packing buffers");
        return;
#endif
    }
    for (int64_t i = 0; i < batch; ++i) one(i, true);
}

}  // namespace

void sgemm(int64_t M, int64_t N, int64_t K, float alpha, const MatRef& A, const MatRef& B, float beta, float* C, int64_t rsC, int64_t csC) {
    gemmAny<float>(M, N, K, alpha, A, B, beta, C, rsC, csC);
}

void sgemmBatched(int64_t batch, int64_t M, int64_t N, int64_t K, float alpha, const MatRef& A, int64_t bsA, const MatRef& B,
                  int64_t bsB, float beta, float* C, int64_t bsC, int64_t rsC, int64_t csC) {
    gemmBatchedAny<float>(batch, M, N, K, alpha, A, bsA, B, bsB, beta, C, bsC, rsC, csC);
}

void dgemm(int64_t M, int64_t N, int64_t K, double alpha, const MatRef& A, const MatRef& B, double beta, double* C, int64_t rsC,
           int64_t csC) {
    gemmAny<double>(M, N, K, alpha, A, B, beta, C, rsC, csC);
}

void dgemmBatched(int64_t batch, int64_t M, int64_t N, int64_t K, double alpha, const MatRef& A, int64_t bsA, const MatRef& B,
                  int64_t bsB, double beta, double* C, int64_t bsC, int64_t rsC, int64_t csC) {
    gemmBatchedAny<double>(batch, M, N, K, alpha, A, bsA, B, bsB, beta, C, bsC, rsC, csC);
}

// ---------------------------------------------------------------- convolution entry points

template <class S>
PanelShape panelShape() {
    const Level<S>& l = level<S>();
    return PanelShape{l.blk.mr, l.blk.nr, l.ma, l.nb};
}

template <class S>
void packPanelA(int64_t M, int64_t K, const S* src, int64_t rs, int64_t cs, S* dst) {
    const int64_t MR = level<S>().blk.mr;
    for (int64_t ir = 0; ir < M; ir += MR) {
        const int64_t mr = std::min(MR, M - ir);
        S* d = dst + ir * K;
        for (int64_t i = 0; i < MR; ++i) {
            if (i < mr) {
                const S* s = src + (ir + i) * rs;
                for (int64_t k = 0; k < K; ++k) d[k * MR + i] = s[k * cs];
            } else {
                for (int64_t k = 0; k < K; ++k) d[k * MR + i] = S(0);
            }
        }
    }
}

template <class S>
void offsetGemm(int64_t M, int64_t N, int64_t K, const S* packedA, const S* b, const int64_t* off, S* C, int64_t ldc) {
    if (M <= 0 || N <= 0) return;
    level<S>().offset(M, N, K, packedA, b, off, C, ldc);
}

template <class S>
void dotGemm(int64_t M, int64_t N, int64_t J, const DotReps& reps, const S* const* a, const S* const* b, S* C, int64_t ldc) {
    if (M <= 0 || N <= 0 || J <= 0 || reps.n1 <= 0 || reps.n2 <= 0) return;
    level<S>().dot(M, N, J, reps, a, b, C, ldc);
}

template PanelShape panelShape<float>();
template PanelShape panelShape<double>();
template void packPanelA<float>(int64_t, int64_t, const float*, int64_t, int64_t, float*);
template void packPanelA<double>(int64_t, int64_t, const double*, int64_t, int64_t, double*);
template void offsetGemm<float>(int64_t, int64_t, int64_t, const float*, const float*, const int64_t*, float*, int64_t);
template void offsetGemm<double>(int64_t, int64_t, int64_t, const double*, const double*, const int64_t*, double*, int64_t);
template void dotGemm<float>(int64_t, int64_t, int64_t, const DotReps&, const float* const*, const float* const*, float*, int64_t);
template void dotGemm<double>(int64_t, int64_t, int64_t, const DotReps&, const double* const*, const double* const*, double*, int64_t);

// ---------------------------------------------------------------- views

namespace {

/// A dense float32 view of `shape` over a per-thread buffer reused across calls.
TensorView floatScratch(const Shape& shape) {
    thread_local std::vector<float> buf;
    const int64_t n = shapeNumel(shape);
    if ((int64_t)buf.size() < n) {
        std::vector<float>().swap(buf);
        buf.resize(n);
    }
    TensorView v;
    v.data = reinterpret_cast<char*>(buf.data());
    v.dtype = diopi_dtype_float32;
    v.shape = shape;
    v.strides = contiguousStrides(shape);
    v.numel = n;
    v.itemsize = 4;
    return v;
}

/// out (3-D, any strides) = c (dense float32 of the same shape).
void storeFrom(const TensorView& out, const TensorView& c) {
    const bool half = out.dtype == diopi_dtype_float16;
    if ((!half && out.dtype != diopi_dtype_bfloat16) || out.strides[2] != 1) {
        copyCast(out, c);
        return;
    }
    const float* src = c.ptr<float>();
    const int64_t B = out.shape[0], M = out.shape[1], N = out.shape[2];
    for (int64_t b = 0; b < B; ++b)
        for (int64_t i = 0; i < M; ++i) {
            uint16_t* d = reinterpret_cast<uint16_t*>(out.data) + b * out.strides[0] + i * out.strides[1];
            (half ? converters().toHalf : converters().toBf16)(src + (b * M + i) * N, d, N);
        }
}

}  // namespace

void matmulViews(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a, const TensorView& b, double alpha, double beta,
                 const TensorView* add) {
    CPU_CHECK(out.dim() == 3 && a.dim() == 3 && b.dim() == 3, "matrix product expects 3-D operands");
    const int64_t B = out.shape[0], M = out.shape[1], N = out.shape[2], K = a.shape[2];
    CPU_CHECK(a.shape[1] == M && b.shape[2] == N && b.shape[1] == K && (a.shape[0] == B || a.shape[0] == 1) &&
                  (b.shape[0] == B || b.shape[0] == 1),
              "matrix product shapes ", shapeStr(a.shape), " @ ", shapeStr(b.shape), " do not give ", shapeStr(out.shape));
    if (!isFloatingDtype(out.dtype)) failCode(diopiDtypeNotSupported, "out dtype ", dtypeName(out.dtype), " is not supported");
    if (out.numel == 0) return;
    if (out.dtype == diopi_dtype_float64) {
        TensorView c = out;
        const bool useAdd = add && add->defined() && beta != 0.0;
        if (useAdd && !(add->data == c.data && add->dtype == c.dtype && add->shape == c.shape && add->strides == c.strides)) copyCast(c, *add);
        TensorView av = castTo(ctx, a, diopi_dtype_float64), bv = castTo(ctx, b, diopi_dtype_float64);
        dgemmBatched(B, M, N, K, alpha, MatRef(av.data, av.dtype, av.strides[1], av.strides[2]), av.shape[0] == 1 ? 0 : av.strides[0],
                     MatRef(bv.data, bv.dtype, bv.strides[1], bv.strides[2]), bv.shape[0] == 1 ? 0 : bv.strides[0], useAdd ? beta : 0.0,
                     c.ptr<double>(), c.strides[0], c.strides[1], c.strides[2]);
        return;
    }
    // Accumulate in a float buffer unless out is float32 already (a reused
    // per-thread buffer: a fresh temporary costs page faults on every call).
    TensorView c = out.dtype == diopi_dtype_float32 ? out : floatScratch(out.shape);
    const bool useAdd = add && add->defined() && beta != 0.0;
    if (useAdd && !(add->data == c.data && add->dtype == c.dtype && add->shape == c.shape && add->strides == c.strides)) copyCast(c, *add);
    TensorView av = castTo(ctx, a, a.dtype == diopi_dtype_float64 ? diopi_dtype_float32 : a.dtype);
    TensorView bv = castTo(ctx, b, b.dtype == diopi_dtype_float64 ? diopi_dtype_float32 : b.dtype);
    sgemmBatched(B, M, N, K, (float)alpha, MatRef(av.data, av.dtype, av.strides[1], av.strides[2]), av.shape[0] == 1 ? 0 : av.strides[0],
                 MatRef(bv.data, bv.dtype, bv.strides[1], bv.strides[2]), bv.shape[0] == 1 ? 0 : bv.strides[0], useAdd ? (float)beta : 0.f,
                 c.ptr<float>(), c.strides[0], c.strides[1], c.strides[2]);
    if (c.data != out.data) storeFrom(out, c);
}

}  // namespace impl::cpu
