// Packed, cache-blocked GEMM shared by the matrix-product, linear and
// convolution kernels, with micro-kernels per instruction-set level (isa()).
// sgemm operands may be float32, float16 or bfloat16 with any element
// strides: packing converts them to float, so products always accumulate in
// float. dgemm computes float64 in double.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tensor.hpp"

namespace impl::cpu {

/// An operand element converted to the compute type S (float or double). Half
/// takes a branch-free path (a rescaling multiply handles normals and
/// subnormals alike; bit-identical to Half's own conversion) so that packing
/// and copying loops vectorise.
template <class S, class T>
inline S toCompute(T v) {
    if constexpr (std::is_same_v<T, Half>) {
        const uint32_t h = v.bits, em = h & 0x7fffu;
        uint32_t u = em << 13;
        float f;
        std::memcpy(&f, &u, 4);
        f *= 0x1p112f;
        std::memcpy(&u, &f, 4);
        const uint32_t special = 0u - (uint32_t)(em >= 0x7c00u);  // inf / NaN: all exponent bits set
        u = (u & ~special) | ((0x7f800000u | ((em & 0x3ffu) << 13)) & special);
        u |= (h & 0x8000u) << 16;
        std::memcpy(&f, &u, 4);
        return static_cast<S>(f);
    } else {
        return static_cast<S>(static_cast<acc_t<T>>(v));
    }
}

/// float -> float16 / bfloat16 bits, rounded to nearest even through
/// branch-free bit arithmetic (bit-identical to Half / BFloat16's own
/// conversions, NaN quieted) so that storing loops vectorise.
inline uint16_t halfBits(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u, absx = x & 0x7fffffffu;
    const uint32_t normal = (absx + 0xc8000fffu + ((absx >> 13) & 1u)) >> 13;  // rebias, round to nearest even
    float a;
    std::memcpy(&a, &absx, 4);
    a += 0.5f;  // half subnormals: the float add rounds at the half ulp (2^-24)
    uint32_t r;
    std::memcpy(&r, &a, 4);
    // Masks instead of branches: subnormal result, overflow to inf, quiet NaN.
    const uint32_t sub = 0u - (uint32_t)(absx < 0x38800000u), inf = 0u - (uint32_t)(absx >= 0x477ff000u),
                   nan = 0u - (uint32_t)(absx > 0x7f800000u);
    uint32_t res = ((r - 0x3f000000u) & sub) | (normal & ~sub);
    res = (0x7c00u & inf) | (res & ~inf);
    res = (0x7e00u & nan) | (res & ~nan);
    return (uint16_t)(sign | res);
}
inline uint16_t bf16Bits(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
    return (uint16_t)((x & 0x7fffffffu) > 0x7f800000u ? (x >> 16) | 0x40u : rounded);
}

/// A compute value (float or double) stored as T, rounded like convert<T>.
template <class T, class S>
inline T fromCompute(S v) {
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
        T out;
        out.bits = std::is_same_v<T, Half> ? halfBits(static_cast<float>(v)) : bf16Bits(static_cast<float>(v));
        return out;
    } else {
        return static_cast<T>(v);
    }
}

/// A read-only matrix operand: element (i, j) is at data + (i*rs + j*cs) * itemsize.
struct MatRef {
    const char* data = nullptr;
    diopiDtype_t dtype = diopi_dtype_float32;
    int64_t rs = 0, cs = 0;  ///< row / column strides in elements
    MatRef() = default;
    MatRef(const void* d, diopiDtype_t t, int64_t r, int64_t c) : data(static_cast<const char*>(d)), dtype(t), rs(r), cs(c) {}
    /// The transposed operand (no copy).
    MatRef t() const { return MatRef(data, dtype, cs, rs); }
};

/// C = alpha * A @ B + beta * C with A (M x K), B (K x N) and a float C whose
/// element (i, j) is at C[i*rsC + j*csC]. beta == 0 never reads C (NaN in C does
/// not propagate). Runs on all OpenMP threads unless called inside a parallel
/// region. A and B must be float32, float16 or bfloat16.
void sgemm(int64_t M, int64_t N, int64_t K, float alpha, const MatRef& A, const MatRef& B, float beta, float* C, int64_t rsC,
           int64_t csC);

/// Batched form: for b < batch, C_b = alpha * A_b @ B_b + beta * C_b where operand
/// X_b starts batchStride elements after X_{b-1} (0 broadcasts one matrix).
/// Parallelises over batches when they are many and small.
void sgemmBatched(int64_t batch, int64_t M, int64_t N, int64_t K, float alpha, const MatRef& A, int64_t bsA, const MatRef& B,
                  int64_t bsB, float beta, float* C, int64_t bsC, int64_t rsC, int64_t csC);

/// Double-precision GEMM for float64 operands: C = alpha * A @ B + beta * C with
/// A and B float64 (any strides) and a double C; accumulates in double.
/// beta == 0 never reads C. Same threading rules as sgemm.
void dgemm(int64_t M, int64_t N, int64_t K, double alpha, const MatRef& A, const MatRef& B, double beta, double* C, int64_t rsC,
           int64_t csC);

/// Batched dgemm, with the batch strides of sgemmBatched.
void dgemmBatched(int64_t batch, int64_t M, int64_t N, int64_t K, double alpha, const MatRef& A, int64_t bsA, const MatRef& B,
                  int64_t bsB, double beta, double* C, int64_t bsC, int64_t rsC, int64_t csC);

/// Register tiles at the current level: the offset GEMM writes C in whole
/// mr x nr tiles; the dot GEMM works on whole ma x nb tiles.
struct PanelShape {
    int64_t mr, nr, ma, nb;
};
/// S is float or double (explicitly instantiated for both).
template <class S>
PanelShape panelShape();

/// Packs A (M x K, element (i, k) at src[i*rs + k*cs]) for offsetGemm: M
/// rounded up to mr rows (zeros), i.e. roundUp(M, mr) * K elements at dst.
template <class S>
void packPanelA(int64_t M, int64_t K, const S* src, int64_t rs, int64_t cs, S* dst);

/// Serial implicit-im2col GEMM: C = A @ B with A packed by packPanelA and
/// B(k, j) = b[off[k] + j]. C has row stride ldc and is written in whole
/// tiles: roundUp(M, mr) rows by roundUp(N, nr) columns, so B is read up to
/// b[off[k] + roundUp(N, nr) - 1] (the caller provides that slack). K == 0
/// writes zeros.
template <class S>
void offsetGemm(int64_t M, int64_t N, int64_t K, const S* packedA, const S* b, const int64_t* off, S* C, int64_t ldc);

/// Repetitions of a dot GEMM: n1 x n2 pairs of row sets, set (r1, r2) at
/// element offsets r1*sa1 + r2*sa2 (a rows) and r1*sb1 + r2*sb2 (b rows).
struct DotReps {
    int64_t n1 = 1, sa1 = 0, sb1 = 0;
    int64_t n2 = 1, sa2 = 0, sb2 = 0;
};

/// Serial dot-product GEMM: C[i*ldc + j] += sum over the repetitions and
/// t < J of a[i][offA + t] * b[j][offB + t] for i < M, j < N; M must be a
/// multiple of ma and N of nb (repeat row pointers and ignore the extra
/// results to pad). Fastest when J is a multiple of 16 and the a rows are
/// 64-byte aligned; vector lanes are summed once per call.
template <class S>
void dotGemm(int64_t M, int64_t N, int64_t J, const DotReps& reps, const S* const* a, const S* const* b, S* C, int64_t ldc);

/// out[b] = alpha * a[b] @ b[b] + beta * add[b] on 3-D views: a (B, M, K), b (B, K, N),
/// out (B, M, N), add broadcastable to out or undefined (then beta is ignored).
/// Views may have any strides (stride 0 batches broadcast) and float dtypes;
/// computes in double when out is float64 (operands cast to it), otherwise in
/// float, and writes out in its own dtype.
void matmulViews(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a, const TensorView& b, double alpha, double beta,
                 const TensorView* add);

/// Merges dims [d0, d1) of v into one dim of `size` elements and element
/// stride `stride` when the strides allow it (size-1 dims never block a merge).
inline bool mergeDims(const TensorView& v, int64_t d0, int64_t d1, int64_t& size, int64_t& stride) {
    size = 1;
    stride = 1;
    bool first = true;
    for (int64_t d = d1 - 1; d >= d0; --d) {
        if (v.shape[d] == 1) continue;
        if (first) {
            stride = v.strides[d];
            first = false;
        } else if (v.strides[d] != stride * size) {
            return false;
        }
        size *= v.shape[d];
    }
    for (int64_t d = d0; d < d1; ++d)
        if (v.shape[d] == 0) size = 0;
    return true;
}

}  // namespace impl::cpu
