// Packed SGEMM: the classic three-level blocking (NC columns of B, KC depth,
// MC rows of A) around an MR x NR register-tile micro-kernel written with GCC
// vector extensions so the compiler emits full-width FMAs. The block loop is
// compiled twice - for AVX2+FMA and for the baseline ISA - and picked at run
// time, so the library stays portable without -march flags.
#include "gemm.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "common.hpp"

namespace impl::cpu {

namespace {

constexpr int64_t MR = 6, NR = 16;       // register tile: 12 accumulators of 8 floats
constexpr int64_t KC = 256;              // depth of a packed panel (B micro-panel stays in L1)
constexpr int64_t MC = 96;               // rows of A per packed block (L2)
constexpr int64_t NC = 2048;             // columns of B per packed panel (L3)

typedef float v8f __attribute__((vector_size(32), aligned(32)));

/// Per-thread packing buffers, kept across calls (OpenMP threads persist).
struct Buffers {
    float* a = nullptr;
    float* b = nullptr;
    Buffers() {
        a = static_cast<float*>(std::aligned_alloc(64, sizeof(float) * MC * KC));
        b = static_cast<float*>(std::aligned_alloc(64, sizeof(float) * KC * NC));
    }
    ~Buffers() {
        std::free(a);
        std::free(b);
    }
};

Buffers& buffers() {
    thread_local Buffers buf;
    if (!buf.a || !buf.b) throw std::bad_alloc();
    return buf;
}

// ---------------------------------------------------------------- packing

template <class T>
inline float ld(const char* base, int64_t idx) {
    return static_cast<float>(reinterpret_cast<const T*>(base)[idx]);
}

/// Packs rows [i0, i0+mc) x depth [p0, p0+kc) of A as MR-row slivers, k-major, zero padded.
template <class T>
void packA(const MatRef& A, int64_t i0, int64_t p0, int64_t mc, int64_t kc, float* dst) {
    for (int64_t ir = 0; ir < mc; ir += MR) {
        const int64_t mr = std::min(MR, mc - ir);
        float* d = dst + ir * kc;
        const int64_t rowBase = (i0 + ir) * A.rs + p0 * A.cs;
        if (std::is_same_v<T, float> && A.rs == 1 && mr == MR) {
            const float* s = reinterpret_cast<const float*>(A.data) + rowBase;
            for (int64_t k = 0; k < kc; ++k)
                for (int64_t i = 0; i < MR; ++i) d[k * MR + i] = s[k * A.cs + i];
            continue;
        }
        if (A.cs == 1 && mr == MR) {
            // Row-major A: six row streams interleaved into the sliver.
            const T* r0 = reinterpret_cast<const T*>(A.data) + rowBase;
            const T *r1 = r0 + A.rs, *r2 = r1 + A.rs, *r3 = r2 + A.rs, *r4 = r3 + A.rs, *r5 = r4 + A.rs;
            for (int64_t k = 0; k < kc; ++k, d += MR) {
                d[0] = static_cast<float>(r0[k]);
                d[1] = static_cast<float>(r1[k]);
                d[2] = static_cast<float>(r2[k]);
                d[3] = static_cast<float>(r3[k]);
                d[4] = static_cast<float>(r4[k]);
                d[5] = static_cast<float>(r5[k]);
            }
            continue;
        }
        for (int64_t i = 0; i < mr; ++i) {
            const int64_t r = rowBase + i * A.rs;
            for (int64_t k = 0; k < kc; ++k) d[k * MR + i] = ld<T>(A.data, r + k * A.cs);
        }
        for (int64_t i = mr; i < MR; ++i)
            for (int64_t k = 0; k < kc; ++k) d[k * MR + i] = 0.f;
    }
}

/// Packs depth [p0, p0+kc) x columns [j0, j0+nc) of B as NR-column slivers, k-major, zero padded.
template <class T>
void packB(const MatRef& B, int64_t p0, int64_t j0, int64_t kc, int64_t nc, float* dst) {
    for (int64_t jr = 0; jr < nc; jr += NR) {
        const int64_t nr = std::min(NR, nc - jr);
        float* d = dst + jr * kc;
        const int64_t colBase = p0 * B.rs + (j0 + jr) * B.cs;
        if (std::is_same_v<T, float> && B.cs == 1 && nr == NR) {
            const float* s = reinterpret_cast<const float*>(B.data) + colBase;
            for (int64_t k = 0; k < kc; ++k)
                for (int64_t j = 0; j < NR; ++j) d[k * NR + j] = s[k * B.rs + j];
            continue;
        }
        if (B.cs == 1) {
            for (int64_t k = 0; k < kc; ++k) {
                const int64_t r = colBase + k * B.rs;
                for (int64_t j = 0; j < nr; ++j) d[k * NR + j] = ld<T>(B.data, r + j);
                for (int64_t j = nr; j < NR; ++j) d[k * NR + j] = 0.f;
            }
            continue;
        }
        for (int64_t j = 0; j < nr; ++j) {
            const int64_t c = colBase + j * B.cs;
            for (int64_t k = 0; k < kc; ++k) d[k * NR + j] = ld<T>(B.data, c + k * B.rs);
        }
        for (int64_t j = nr; j < NR; ++j)
            for (int64_t k = 0; k < kc; ++k) d[k * NR + j] = 0.f;
    }
}

template <class F>
void byType(diopiDtype_t dt, F&& f) {
    switch (dt) {
        case diopi_dtype_float32: f(float{}); break;
        case diopi_dtype_float16: f(Half{}); break;
        case diopi_dtype_bfloat16: f(BFloat16{}); break;
        default: failCode(diopiDtypeNotSupported, "matrix product operand dtype ", dtypeName(dt), " is not supported");
    }
}

void packAAny(const MatRef& A, int64_t i0, int64_t p0, int64_t mc, int64_t kc, float* dst) {
    byType(A.dtype, [&](auto tag) { packA<decltype(tag)>(A, i0, p0, mc, kc, dst); });
}
void packBAny(const MatRef& B, int64_t p0, int64_t j0, int64_t kc, int64_t nc, float* dst) {
    byType(B.dtype, [&](auto tag) { packB<decltype(tag)>(B, p0, j0, kc, nc, dst); });
}

// ---------------------------------------------------------------- kernels

/// acc (MR x NR, row-major) = sum over k of a-sliver column k times b-sliver row k.
__attribute__((always_inline)) inline void microKernel(int64_t kc, const float* __restrict a, const float* __restrict b,
                                                       float* __restrict acc) {
    v8f c00 = {}, c01 = {}, c10 = {}, c11 = {}, c20 = {}, c21 = {}, c30 = {}, c31 = {}, c40 = {}, c41 = {}, c50 = {}, c51 = {};
    for (int64_t k = 0; k < kc; ++k) {
        const v8f b0 = *reinterpret_cast<const v8f*>(b);
        const v8f b1 = *reinterpret_cast<const v8f*>(b + 8);
        float x0;
        x0 = a[0]; c00 += x0 * b0; c01 += x0 * b1;
        x0 = a[1]; c10 += x0 * b0; c11 += x0 * b1;
        x0 = a[2]; c20 += x0 * b0; c21 += x0 * b1;
        x0 = a[3]; c30 += x0 * b0; c31 += x0 * b1;
        x0 = a[4]; c40 += x0 * b0; c41 += x0 * b1;
        x0 = a[5]; c50 += x0 * b0; c51 += x0 * b1;
        a += MR;
        b += NR;
    }
    v8f* o = reinterpret_cast<v8f*>(acc);
    o[0] = c00; o[1] = c01; o[2] = c10; o[3] = c11; o[4] = c20; o[5] = c21;
    o[6] = c30; o[7] = c31; o[8] = c40; o[9] = c41; o[10] = c50; o[11] = c51;
}

/// C block (mc x nc) = alpha * packedA @ packedB + beta * C block.
__attribute__((always_inline)) inline void macroBody(int64_t mc, int64_t nc, int64_t kc, float alpha, const float* pa, const float* pb,
                                                     float beta, float* C, int64_t rsC, int64_t csC) {
    alignas(64) float acc[MR * NR];
    for (int64_t jr = 0; jr < nc; jr += NR) {
        const int64_t nr = std::min(NR, nc - jr);
        for (int64_t ir = 0; ir < mc; ir += MR) {
            const int64_t mr = std::min(MR, mc - ir);
            microKernel(kc, pa + ir * kc, pb + jr * kc, acc);
            float* c = C + ir * rsC + jr * csC;
            if (csC == 1) {
                for (int64_t i = 0; i < mr; ++i) {
                    float* ci = c + i * rsC;
                    const float* ai = acc + i * NR;
                    if (beta == 0.f) {
                        for (int64_t j = 0; j < nr; ++j) ci[j] = alpha * ai[j];
                    } else {
                        for (int64_t j = 0; j < nr; ++j) ci[j] = alpha * ai[j] + beta * ci[j];
                    }
                }
            } else {
                for (int64_t i = 0; i < mr; ++i)
                    for (int64_t j = 0; j < nr; ++j) {
                        float& v = c[i * rsC + j * csC];
                        v = beta == 0.f ? alpha * acc[i * NR + j] : alpha * acc[i * NR + j] + beta * v;
                    }
            }
        }
    }
}

__attribute__((target("avx2,fma"))) void macroAvx2(int64_t mc, int64_t nc, int64_t kc, float alpha, const float* pa, const float* pb,
                                                   float beta, float* C, int64_t rsC, int64_t csC) {
    macroBody(mc, nc, kc, alpha, pa, pb, beta, C, rsC, csC);
}

void macroBase(int64_t mc, int64_t nc, int64_t kc, float alpha, const float* pa, const float* pb, float beta, float* C, int64_t rsC,
               int64_t csC) {
    macroBody(mc, nc, kc, alpha, pa, pb, beta, C, rsC, csC);
}

using MacroFn = void (*)(int64_t, int64_t, int64_t, float, const float*, const float*, float, float*, int64_t, int64_t);

MacroFn pickMacro() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return macroAvx2;
#endif
    return macroBase;
}

const MacroFn g_macro = pickMacro();

/// C = beta * C for an empty inner dimension (beta == 0 writes zeros).
void scaleC(int64_t M, int64_t N, float beta, float* C, int64_t rsC, int64_t csC) {
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            float& v = C[i * rsC + j * csC];
            v = beta == 0.f ? 0.f : beta * v;
        }
}

/// Serial blocked GEMM on one tile of C; never throws (dtypes are checked by the caller).
void gemmSerial(int64_t M, int64_t N, int64_t K, float alpha, const MatRef& A, const MatRef& B, float beta, float* C, int64_t rsC,
                int64_t csC) {
    if (M <= 0 || N <= 0) return;
    if (K <= 0) {
        scaleC(M, N, beta, C, rsC, csC);
        return;
    }
    Buffers& buf = buffers();
    for (int64_t jc = 0; jc < N; jc += NC) {
        const int64_t nc = std::min(NC, N - jc);
        for (int64_t pc = 0; pc < K; pc += KC) {
            const int64_t kc = std::min(KC, K - pc);
            packBAny(B, pc, jc, kc, nc, buf.b);
            const float b = pc == 0 ? beta : 1.f;
            for (int64_t ic = 0; ic < M; ic += MC) {
                const int64_t mc = std::min(MC, M - ic);
                packAAny(A, ic, pc, mc, kc, buf.a);
                g_macro(mc, nc, kc, alpha, buf.a, buf.b, b, C + ic * rsC + jc * csC, rsC, csC);
            }
        }
    }
}

void checkOperand(const MatRef& X) {
    if (X.dtype != diopi_dtype_float32 && X.dtype != diopi_dtype_float16 && X.dtype != diopi_dtype_bfloat16)
        failCode(diopiDtypeNotSupported, "matrix product operand dtype ", dtypeName(X.dtype), " is not supported");
}

int maxThreads() {
#ifdef _OPENMP
    return omp_in_parallel() ? 1 : omp_get_max_threads();
#else
    return 1;
#endif
}

// Below this many multiply-adds a second thread costs more than it saves.
constexpr int64_t kGemmParallelWork = 1 << 17;

}  // namespace

void sgemm(int64_t M, int64_t N, int64_t K, float alpha, const MatRef& A, const MatRef& B, float beta, float* C, int64_t rsC, int64_t csC) {
    if (M <= 0 || N <= 0) return;
    checkOperand(A);
    checkOperand(B);
    buffers();  // allocation failures surface here, outside any parallel region
    int nt = maxThreads();
    if (nt <= 1 || M * N * std::max<int64_t>(K, 1) < kGemmParallelWork) {
        gemmSerial(M, N, K, alpha, A, B, beta, C, rsC, csC);
        return;
    }
    // One rectangular tile of C per thread, split along the longer side in whole register tiles.
    const bool splitM = (M + MR - 1) / MR >= (N + NR - 1) / NR;
    const int64_t unit = splitM ? MR : NR, len = splitM ? M : N;
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
                gemmSerial(e - b, N, K, alpha, MatRef(A.data + b * A.rs * itemSize(A.dtype), A.dtype, A.rs, A.cs), B, beta, C + b * rsC, rsC,
                           csC);
            else
                gemmSerial(M, e - b, K, alpha, A, MatRef(B.data + b * B.cs * itemSize(B.dtype), B.dtype, B.rs, B.cs), beta, C + b * csC,
                           rsC, csC);
        } catch (...) {
            failed = true;  // a worker's packing buffer could not be allocated
        }
    }
    if (failed) fail("out of host memory for the packing buffers");
#else
    gemmSerial(M, N, K, alpha, A, B, beta, C, rsC, csC);
#endif
}

void sgemmBatched(int64_t batch, int64_t M, int64_t N, int64_t K, float alpha, const MatRef& A, int64_t bsA, const MatRef& B,
                  int64_t bsB, float beta, float* C, int64_t bsC, int64_t rsC, int64_t csC) {
    if (batch <= 0 || M <= 0 || N <= 0) return;
    checkOperand(A);
    checkOperand(B);
    const int64_t ia = itemSize(A.dtype), ib = itemSize(B.dtype);
    auto one = [&](int64_t i, bool parallel) {
        MatRef a(A.data + i * bsA * ia, A.dtype, A.rs, A.cs), b(B.data + i * bsB * ib, B.dtype, B.rs, B.cs);
        if (parallel) sgemm(M, N, K, alpha, a, b, beta, C + i * bsC, rsC, csC);
        else gemmSerial(M, N, K, alpha, a, b, beta, C + i * bsC, rsC, csC);
    };
    int nt = maxThreads();
    const int64_t work = M * N * std::max<int64_t>(K, 1);
    // Many small products: one whole product per thread; otherwise threads share each product.
    if (nt > 1 && batch > 1 && (batch % nt == 0 || batch >= 4 * nt || work < kGemmParallelWork) && batch * work >= kGemmParallelWork) {
        buffers();
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

// ---------------------------------------------------------------- double

namespace {

constexpr int64_t DKC = 128, DNC = 512;  // a (DKC x DNC) double panel of B: 512 KB

/// Rows [i0, i1) of C = alpha * A @ B + beta * C, B packed per (DKC x DNC)
/// panel into `pb`; the j loop over a packed row is unit-stride, so it vectorises.
void dgemmRows(int64_t i0, int64_t i1, int64_t N, int64_t K, double alpha, const MatRef& A, const MatRef& B, double beta, double* C,
               int64_t rsC, int64_t csC, double* pb, double* row) {
    const double* a = reinterpret_cast<const double*>(A.data);
    const double* b = reinterpret_cast<const double*>(B.data);
    for (int64_t jc = 0; jc < N; jc += DNC) {
        const int64_t nc = std::min(DNC, N - jc);
        for (int64_t pc = 0; pc < K; pc += DKC) {
            const int64_t kc = std::min(DKC, K - pc);
            for (int64_t k = 0; k < kc; ++k)
                for (int64_t j = 0; j < nc; ++j) pb[k * nc + j] = b[(pc + k) * B.rs + (jc + j) * B.cs];
            for (int64_t i = i0; i < i1; ++i) {
                double* c = C + i * rsC + jc * csC;
                for (int64_t j = 0; j < nc; ++j) row[j] = 0.0;
                for (int64_t k = 0; k < kc; ++k) {
                    const double x = a[i * A.rs + (pc + k) * A.cs];
                    const double* bk = pb + k * nc;
                    for (int64_t j = 0; j < nc; ++j) row[j] += x * bk[j];
                }
                if (pc > 0) {
                    for (int64_t j = 0; j < nc; ++j) c[j * csC] += alpha * row[j];
                } else if (beta == 0.0) {  // C is not read: NaN there does not propagate
                    for (int64_t j = 0; j < nc; ++j) c[j * csC] = alpha * row[j];
                } else {
                    for (int64_t j = 0; j < nc; ++j) c[j * csC] = beta * c[j * csC] + alpha * row[j];
                }
            }
        }
    }
}

void checkDouble(const MatRef& X) {
    if (X.dtype != diopi_dtype_float64)
        failCode(diopiDtypeNotSupported, "double matrix product operand dtype ", dtypeName(X.dtype), " is not float64");
}

}  // namespace

void dgemm(int64_t M, int64_t N, int64_t K, double alpha, const MatRef& A, const MatRef& B, double beta, double* C, int64_t rsC,
           int64_t csC) {
    if (M <= 0 || N <= 0) return;
    checkDouble(A);
    checkDouble(B);
    if (K <= 0) {
        for (int64_t i = 0; i < M; ++i)
            for (int64_t j = 0; j < N; ++j) C[i * rsC + j * csC] = beta == 0.0 ? 0.0 : beta * C[i * rsC + j * csC];
        return;
    }
    const int64_t work = M * N * K;
    const int nt = work < kGemmParallelWork ? 1 : maxThreads();
    const int64_t parts = std::min<int64_t>(nt, M);
    bool failed = false;
#ifdef _OPENMP
#pragma omp parallel for num_threads(parts) schedule(static) reduction(|| : failed) if (parts > 1)
#endif
    for (int64_t t = 0; t < parts; ++t) {
        const int64_t i0 = M * t / parts, i1 = M * (t + 1) / parts;
        double* pb = static_cast<double*>(std::malloc(sizeof(double) * (DKC * DNC + DNC)));
        if (pb == nullptr) {
            failed = true;
            continue;
        }
        dgemmRows(i0, i1, N, K, alpha, A, B, beta, C, rsC, csC, pb, pb + DKC * DNC);
        std::free(pb);
    }
    if (failed) fail("out of host memory for the packing buffers");
}

void dgemmBatched(int64_t batch, int64_t M, int64_t N, int64_t K, double alpha, const MatRef& A, int64_t bsA, const MatRef& B,
                  int64_t bsB, double beta, double* C, int64_t bsC, int64_t rsC, int64_t csC) {
    for (int64_t i = 0; i < batch; ++i)
        dgemm(M, N, K, alpha, MatRef(A.data + i * bsA * 8, A.dtype, A.rs, A.cs), MatRef(B.data + i * bsB * 8, B.dtype, B.rs, B.cs), beta,
              C + i * bsC, rsC, csC);
}

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
    // Accumulate in a float buffer unless out is float32 already.
    TensorView c = out.dtype == diopi_dtype_float32 ? out : newTensor(ctx, out.shape, diopi_dtype_float32);
    const bool useAdd = add && add->defined() && beta != 0.0;
    if (useAdd && !(add->data == c.data && add->dtype == c.dtype && add->shape == c.shape && add->strides == c.strides)) copyCast(c, *add);
    TensorView av = castTo(ctx, a, a.dtype == diopi_dtype_float64 ? diopi_dtype_float32 : a.dtype);
    TensorView bv = castTo(ctx, b, b.dtype == diopi_dtype_float64 ? diopi_dtype_float32 : b.dtype);
    sgemmBatched(B, M, N, K, (float)alpha, MatRef(av.data, av.dtype, av.strides[1], av.strides[2]), av.shape[0] == 1 ? 0 : av.strides[0],
                 MatRef(bv.data, bv.dtype, bv.strides[1], bv.strides[2]), bv.shape[0] == 1 ? 0 : bv.strides[0], useAdd ? (float)beta : 0.f,
                 c.ptr<float>(), c.strides[0], c.strides[1], c.strides[2]);
    if (c.data != out.data) copyCast(out, c);
}

}  // namespace impl::cpu
