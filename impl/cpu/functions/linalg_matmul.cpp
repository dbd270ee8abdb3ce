// Family linalg_matmul: matrix products (mm, bmm, addmm, baddbmm, matmul,
// linear and their backward passes) on the packed GEMM of common/gemm.hpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "common/common.hpp"
#include "common/fastmath.hpp"
#include "common/gemm.hpp"

// The per-level kernels below pass GCC vector types between always-inlined
// helpers; the ABI note about such values never applies (nothing is called).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace impl::cpu {

namespace {

// ---------------------------------------------------------------- per-level kernels
// Hot loops are written once as templates over the vector width in bytes VB
// (16: baseline SSE2, 32: AVX2, 64: AVX-512) and compiled three times, each
// copy carrying its level's target attribute; `name(args...)` runs the copy of
// the level isa() chose. Everything a body calls is inlined into it.

template <class T, int VB>
struct VecOf {
    typedef T type __attribute__((vector_size(VB)));
};
template <class T, int VB>
using Vec = typename VecOf<T, VB>::type;

template <class V, class T>
CPU_FORCE_INLINE V vload(const T* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class V, class T>
CPU_FORCE_INLINE void vstore(T* p, const V& v) {
    std::memcpy(p, &v, sizeof v);
}
/// Loads a vector of VT (float or double lanes) and widens it to VD (double lanes).
template <class VD, class VT, class T>
CPU_FORCE_INLINE VD vloadWide(const T* p) {
    return __builtin_convertvector(vload<VT>(p), VD);
}
template <class V>
CPU_FORCE_INLINE V vabs(const V& v) {
    const V z = {};
    return v < z ? -v : v;
}

#define LINALG_LEVELS(name, body)                                                  \
    template <class... A>                                                          \
    void name##Base(A... a) {                                                      \
        body<16>(a...);                                                            \
    }                                                                              \
    template <class... A>                                                          \
    CPU_TARGET_AVX2 void name##Avx2(A... a) {                                      \
        body<32>(a...);                                                            \
    }                                                                              \
    template <class... A>                                                          \
    CPU_TARGET_AVX512 void name##Avx512(A... a) {                                  \
        body<64>(a...);                                                            \
    }                                                                              \
    template <class... A>                                                          \
    void name(A... a) {                                                            \
        switch (isa()) {                                                           \
            case Isa::Avx512: name##Avx512(a...); break;                           \
            case Isa::Avx2: name##Avx2(a...); break;                               \
            default: name##Base(a...); break;                                      \
        }                                                                          \
    }

/// The type a float kernel computes in for a dtype: double for float64, float otherwise.
inline diopiDtype_t workDtype(diopiDtype_t dt) { return dt == diopi_dtype_float64 ? diopi_dtype_float64 : diopi_dtype_float32; }

/// C = alpha * A @ B + beta * C on float or double operands (the GEMM of that precision).
void gemmW(int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t rsA, int64_t csA, const float* B, int64_t rsB,
           int64_t csB, float beta, float* C, int64_t rsC, int64_t csC) {
    sgemm(M, N, K, alpha, MatRef(A, diopi_dtype_float32, rsA, csA), MatRef(B, diopi_dtype_float32, rsB, csB), beta, C, rsC, csC);
}
void gemmW(int64_t M, int64_t N, int64_t K, double alpha, const double* A, int64_t rsA, int64_t csA, const double* B, int64_t rsB,
           int64_t csB, double beta, double* C, int64_t rsC, int64_t csC) {
    dgemm(M, N, K, alpha, MatRef(A, diopi_dtype_float64, rsA, csA), MatRef(B, diopi_dtype_float64, rsB, csB), beta, C, rsC, csC);
}

/// v with its leading dims merged into one batch dim (B, R, C), when the strides allow it.
bool merged3d(const TensorView& v, TensorView& out) {
    const int64_t nd = v.dim();
    int64_t b, bs;
    if (nd < 2 || !mergeDims(v, 0, nd - 2, b, bs)) return false;
    out = v.restrided({b, v.shape[nd - 2], v.shape[nd - 1]}, {bs, v.strides[nd - 2], v.strides[nd - 1]});
    return true;
}

void requireFloat(const TensorView& t, const char* name) {
    if (!isFloatingDtype(t.dtype)) failCode(diopiDtypeNotSupported, name, " dtype ", dtypeName(t.dtype), " is not supported");
}

/// out = a @ b for integer (B, M, K) x (B, K, N) views. Sums run in int64 and
/// wrap to T at the end: the same bits as wrapping after every step, as
/// two's-complement arithmetic is exact modulo 2^bits.
void intMatmul3d(const TensorView& o, const TensorView& a, const TensorView& b) {
    CPU_CHECK(a.dtype == o.dtype && b.dtype == o.dtype, "integer matrix products need one dtype for out, input and mat2; got ",
              dtypeName(o.dtype), ", ", dtypeName(a.dtype), ", ", dtypeName(b.dtype));
    dispatch<IntTypes>(o.dtype, "out", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const int64_t B = o.shape[0], M = o.shape[1], N = o.shape[2], K = a.shape[2];
        const T* pa = a.ptr<T>();
        const T* pb = b.ptr<T>();
        T* po = o.ptr<T>();
        parallelFor(B * M, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, N * K)), [&](int64_t r0, int64_t r1) {
            std::vector<int64_t> acc(N);
            for (int64_t r = r0; r < r1; ++r) {
                const int64_t bi = r / M, i = r % M;
                std::fill(acc.begin(), acc.end(), 0);
                for (int64_t k = 0; k < K; ++k) {
                    const int64_t x = pa[bi * a.strides[0] + i * a.strides[1] + k * a.strides[2]];
                    if (x == 0) continue;
                    const T* rowb = pb + bi * b.strides[0] + k * b.strides[1];
                    for (int64_t j = 0; j < N; ++j) acc[j] += x * int64_t(rowb[j * b.strides[2]]);
                }
                T* rowo = po + bi * o.strides[0] + i * o.strides[1];
                for (int64_t j = 0; j < N; ++j) rowo[j * o.strides[2]] = T(uint64_t(acc[j]));
            }
        });
    });
}

/// A 2-D view as a batch of one (B, M, N).
TensorView as3d(const TensorView& v) { return v.restrided({1, v.shape[0], v.shape[1]}, {0, v.strides[0], v.strides[1]}); }

/// v (..., R, C) viewed as (Bflat, R, C) when the leading dims merge; else a
/// contiguous copy (in dtype `dt`) so that they do.
TensorView flattenBatch(diopiContextHandle_t ctx, const TensorView& v, diopiDtype_t dt) {
    const int64_t n = v.dim();
    int64_t bs, bst;
    if (v.dtype == dt && mergeDims(v, 0, n - 2, bs, bst)) return v.restrided({bs, v.shape[n - 2], v.shape[n - 1]}, {bst, v.strides[n - 2], v.strides[n - 1]});
    TensorView c = contiguousAs(ctx, v, dt);
    int64_t b = shapeNumel(Shape(v.shape.begin(), v.shape.end() - 2));
    return c.restrided({b, v.shape[n - 2], v.shape[n - 1]}, {v.shape[n - 2] * v.shape[n - 1], v.shape[n - 1], 1});
}

/// v (..., C) as a matrix (R, C) (merged leading dims, or a contiguous copy).
TensorView flattenRows(diopiContextHandle_t ctx, const TensorView& v) {
    const int64_t n = v.dim();
    int64_t r, rs;
    if (mergeDims(v, 0, n - 1, r, rs)) return v.restrided({r, v.shape[n - 1]}, {rs, v.strides[n - 1]});
    TensorView c = contiguousAs(ctx, v, v.dtype);
    return c.restrided({shapeNumel(Shape(v.shape.begin(), v.shape.end() - 1)), v.shape[n - 1]}, {v.shape[n - 1], 1});
}

/// out (C) = sum over the rows of m (R, C), accumulated in double for float64, else in float.
void sumRows(diopiContextHandle_t ctx, const TensorView& out, const TensorView& m) {
    const int64_t R = m.shape[0], C = m.shape[1];
    CPU_CHECK(out.numel == C, "bias gradient has ", out.numel, " elements, expected ", C);
    const diopiDtype_t wd = workDtype(m.dtype == diopi_dtype_float64 ? m.dtype : out.dtype);
    TensorView acc = newTensor(ctx, {C}, wd);
    dispatch<TypeList<float, double>>(wd, "accumulator", [&](auto wtag) {
        using W = typename decltype(wtag)::type;
        W* a = acc.ptr<W>();
        std::fill(a, a + C, W(0));
        dispatch<FloatTypes>(m.dtype, "grad_output", [&](auto tag) {
            using T = typename decltype(tag)::type;
            const T* p = m.ptr<T>();
            // Columns split across threads: each thread owns its sums, rows stream through.
            parallelFor(C, R * C >= kParallelGrain ? std::max<int64_t>(1, C / 8) : C + 1, [&](int64_t b, int64_t e) {
                for (int64_t r = 0; r < R; ++r) {
                    const T* row = p + r * m.strides[0];
                    for (int64_t c = b; c < e; ++c) a[c] += static_cast<W>(row[c * m.strides[1]]);
                }
            });
        });
    });
    copyCast(out.restrided({C}, {out.dim() == 0 ? 0 : out.strides[out.dim() - 1]}), acc);
}

/// Sums `full` (broadcast shape) down to `dst`'s shape (dst's dims are a
/// right-aligned subset with size 1 or equal), writing dst in its dtype.
/// Sums run in double when either side is float64, else in float.
void sumToShape(diopiContextHandle_t ctx, const TensorView& dst, const TensorView& full) {
    if (dst.shape == full.shape) {
        copyCast(dst, full);
        return;
    }
    const diopiDtype_t wd = workDtype(full.dtype == diopi_dtype_float64 ? full.dtype : dst.dtype);
    TensorView acc = newTensor(ctx, dst.shape, wd);
    // acc seen with full's shape: broadcast dims get stride 0 and accumulate.
    const int64_t nd = full.dim(), off = nd - acc.dim();
    Shape st(nd, 0);
    for (int64_t d = 0; d < acc.dim(); ++d)
        if (acc.shape[d] == full.shape[d + off]) st[d + off] = acc.strides[d];
    TensorView accFull = acc.restrided(full.shape, st);
    TensorView fw = castTo(ctx, full, wd);
    dispatch<TypeList<float, double>>(wd, "accumulator", [&](auto wtag) {
        using W = typename decltype(wtag)::type;
        fillWith<W>(acc, W(0));
        StridedPlan<2> plan(full.shape, {&accFull, &fw});
        plan.run(0, plan.numel, [](char** p, int64_t n, const int64_t* s) {
            char* o = p[0];
            const char* i = p[1];
            for (int64_t k = 0; k < n; ++k, o += s[0], i += s[1]) *reinterpret_cast<W*>(o) += *reinterpret_cast<const W*>(i);
        });
    });
    copyCast(dst, acc);
}

/// Batched product on N-d operands with broadcast batch dims:
/// out (batch..., M, N) = a (batch_a..., M, K) @ b (batch_b..., K, N).
/// out's shape must be the broadcast result.
void batchedMatmul(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a, const TensorView& b) {
    const int64_t nd = out.dim();
    Shape batch(out.shape.begin(), out.shape.end() - 2);
    auto expand = [&](const TensorView& v) {
        Shape sh = batch, st(batch.size(), 0);
        const int64_t off = (int64_t)batch.size() - (v.dim() - 2);
        for (int64_t d = 0; d < v.dim() - 2; ++d) {
            if (v.shape[d] == batch[d + off]) st[d + off] = v.strides[d];
            else CPU_CHECK(v.shape[d] == 1, "batch dims ", shapeStr(v.shape), " do not broadcast to ", shapeStr(out.shape));
        }
        sh.push_back(v.shape[v.dim() - 2]);
        sh.push_back(v.shape[v.dim() - 1]);
        st.push_back(v.strides[v.dim() - 2]);
        st.push_back(v.strides[v.dim() - 1]);
        return v.restrided(sh, st);
    };
    TensorView ea = expand(a), eb = expand(b);
    // Fold the batch into the rows of a when b is shared by every batch (one big GEMM).
    int64_t rows, rs, bsz, bst;
    bool bShared = true;
    for (int64_t d = 0; d < nd - 2; ++d) bShared = bShared && (eb.strides[d] == 0 || eb.shape[d] == 1);
    if (bShared && nd > 2 && mergeDims(ea, 0, nd - 1, rows, rs) && mergeDims(out, 0, nd - 1, bsz, bst)) {
        TensorView a3 = ea.restrided({1, rows, ea.shape[nd - 1]}, {0, rs, ea.strides[nd - 1]});
        TensorView o3 = out.restrided({1, bsz, out.shape[nd - 1]}, {0, bst, out.strides[nd - 1]});
        TensorView b3 = eb.restrided({1, eb.shape[nd - 2], eb.shape[nd - 1]}, {0, eb.strides[nd - 2], eb.strides[nd - 1]});
        matmulViews(ctx, o3, a3, b3, 1.0, 0.0, nullptr);
        return;
    }
    TensorView fa = flattenBatch(ctx, ea, ea.dtype), fb = flattenBatch(ctx, eb, eb.dtype);
    int64_t ob, obs;
    if (mergeDims(out, 0, nd - 2, ob, obs)) {
        matmulViews(ctx, out.restrided({ob, out.shape[nd - 2], out.shape[nd - 1]}, {obs, out.strides[nd - 2], out.strides[nd - 1]}), fa, fb, 1.0,
                    0.0, nullptr);
        return;
    }
    TensorView tmp = newTensor(ctx, out.shape, out.dtype);
    matmulViews(ctx, flattenBatch(ctx, tmp, tmp.dtype), fa, fb, 1.0, 0.0, nullptr);
    copyCast(out, tmp);
}

/// Shapes of a matmul after promoting 1-D operands: a2 (..., M, K), b2 (..., K, N).
struct MatmulShapes {
    TensorView a2, b2;
    Shape full;  ///< broadcast result shape with both matrix dims
};

MatmulShapes promote(const TensorView& a, const TensorView& b) {
    CPU_CHECK(a.dim() >= 1 && b.dim() >= 1, "matmul operands must have at least one dimension");
    MatmulShapes s;
    s.a2 = a.dim() == 1 ? a.restrided({1, a.shape[0]}, {0, a.strides[0]}) : a;
    s.b2 = b.dim() == 1 ? b.restrided({b.shape[0], 1}, {b.strides[0], 0}) : b;
    const int64_t K = s.a2.shape[s.a2.dim() - 1];
    CPU_CHECK(s.b2.shape[s.b2.dim() - 2] == K, "matmul shapes ", shapeStr(a.shape), " and ", shapeStr(b.shape), " cannot be multiplied");
    Shape ba(s.a2.shape.begin(), s.a2.shape.end() - 2), bb(s.b2.shape.begin(), s.b2.shape.end() - 2);
    s.full = broadcastShapes(ba, bb);
    s.full.push_back(s.a2.shape[s.a2.dim() - 2]);
    s.full.push_back(s.b2.shape[s.b2.dim() - 1]);
    return s;
}

/// The result shape of matmul(a, b) (promoted dims removed again).
Shape matmulResultShape(const TensorView& a, const TensorView& b, const Shape& full) {
    Shape r(full.begin(), full.end() - 2);
    if (a.dim() > 1) r.push_back(full[full.size() - 2]);
    if (b.dim() > 1) r.push_back(full[full.size() - 1]);
    return r;
}

/// out viewed with the promoted full shape (inserting the removed unit dims).
TensorView outAsFull(const TensorView& out, const TensorView& a, const TensorView& b, const Shape& full) {
    Shape st(out.strides.begin(), out.strides.end());
    const int64_t nb = (int64_t)full.size() - 2;
    Shape fst(st.begin(), st.begin() + nb);
    int64_t k = nb;
    fst.push_back(a.dim() > 1 ? st[k++] : 0);
    fst.push_back(b.dim() > 1 ? st[k++] : 0);
    return out.restrided(full, fst);
}

}  // namespace

diopiError_t diopiMm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat2) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), a = view(input, "input"), b = view(mat2, "mat2");
        CPU_CHECK(a.dim() == 2 && b.dim() == 2 && o.dim() == 2, "mm expects 2-D input, mat2 and out");
        CPU_CHECK(a.shape[1] == b.shape[0], "mm shapes ", shapeStr(a.shape), " and ", shapeStr(b.shape), " cannot be multiplied");
        CPU_CHECK(o.shape == Shape({a.shape[0], b.shape[1]}), "out shape ", shapeStr(o.shape), " must be ", shapeStr({a.shape[0], b.shape[1]}));
        if (isIntegralDtype(o.dtype)) return intMatmul3d(as3d(o), as3d(a), as3d(b));
        requireFloat(o, "out");
        requireFloat(a, "input");
        requireFloat(b, "mat2");
        matmulViews(ctx, as3d(o), as3d(a), as3d(b), 1.0, 0.0, nullptr);
    });
}

diopiError_t diopiBmm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat2) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), a = view(input, "input"), b = view(mat2, "mat2");
        CPU_CHECK(a.dim() == 3 && b.dim() == 3 && o.dim() == 3, "bmm expects 3-D input, mat2 and out");
        CPU_CHECK(a.shape[0] == b.shape[0] && a.shape[2] == b.shape[1], "bmm shapes ", shapeStr(a.shape), " and ", shapeStr(b.shape),
                  " cannot be multiplied");
        CPU_CHECK(o.shape == Shape({a.shape[0], a.shape[1], b.shape[2]}), "out shape ", shapeStr(o.shape), " does not match the product");
        if (isIntegralDtype(o.dtype)) return intMatmul3d(o, a, b);
        requireFloat(o, "out");
        requireFloat(a, "input");
        requireFloat(b, "mat2");
        matmulViews(ctx, o, a, b, 1.0, 0.0, nullptr);
    });
}

diopiError_t diopiAddmm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat1,
                        diopiConstTensorHandle_t mat2, const diopiScalar_t* beta, const diopiScalar_t* alpha) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input"), a = view(mat1, "mat1"), b = view(mat2, "mat2");
        CPU_CHECK(a.dim() == 2 && b.dim() == 2 && o.dim() == 2, "addmm expects 2-D mat1, mat2 and out");
        CPU_CHECK(a.shape[1] == b.shape[0], "addmm shapes ", shapeStr(a.shape), " and ", shapeStr(b.shape), " cannot be multiplied");
        CPU_CHECK(o.shape == Shape({a.shape[0], b.shape[1]}), "out shape ", shapeStr(o.shape), " does not match the product");
        CPU_CHECK(in.dim() <= 2, "addmm input must have at most 2 dims");
        broadcastShapes(in.shape, o.shape);
        CPU_CHECK(broadcastShapes(in.shape, o.shape) == o.shape, "input ", shapeStr(in.shape), " does not broadcast to ", shapeStr(o.shape));
        requireFloat(o, "out");
        requireFloat(in, "input");
        requireFloat(a, "mat1");
        requireFloat(b, "mat2");
        const double be = beta ? scalarDouble(beta, "beta") : 1.0, al = alpha ? scalarDouble(alpha, "alpha") : 1.0;
        matmulViews(ctx, as3d(o), as3d(a), as3d(b), al, be, &in);
    });
}

namespace {
void baddbmm(diopiContextHandle_t ctx, const TensorView& o, const TensorView& in, const TensorView& a, const TensorView& b, double beta,
             double alpha) {
    CPU_CHECK(a.dim() == 3 && b.dim() == 3 && o.dim() == 3, "baddbmm expects 3-D batch1, batch2 and out");
    CPU_CHECK(a.shape[0] == b.shape[0] && a.shape[2] == b.shape[1], "baddbmm shapes ", shapeStr(a.shape), " and ", shapeStr(b.shape),
              " cannot be multiplied");
    CPU_CHECK(o.shape == Shape({a.shape[0], a.shape[1], b.shape[2]}), "out shape ", shapeStr(o.shape), " does not match the product");
    CPU_CHECK(broadcastShapes(in.shape, o.shape) == o.shape, "input ", shapeStr(in.shape), " does not broadcast to ", shapeStr(o.shape));
    requireFloat(o, "out");
    requireFloat(in, "input");
    requireFloat(a, "batch1");
    requireFloat(b, "batch2");
    matmulViews(ctx, o, a, b, alpha, beta, &in);
}
}  // namespace

diopiError_t diopiBaddbmm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t batch1,
                          diopiConstTensorHandle_t batch2, double beta, double alpha) {
    return guard(__func__, [&] {
        baddbmm(ctx, view(out, "out"), view(input, "input"), view(batch1, "batch1"), view(batch2, "batch2"), beta, alpha);
    });
}

diopiError_t diopiBaddbmmInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t batch1, diopiConstTensorHandle_t batch2,
                             double beta, double alpha) {
    return guard(__func__, [&] {
        TensorView in = view(input, "input");
        baddbmm(ctx, in, in, view(batch1, "batch1"), view(batch2, "batch2"), beta, alpha);
    });
}

diopiError_t diopiMatmul(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), a = view(input, "input"), b = view(other, "other");
        requireFloat(o, "out");
        requireFloat(a, "input");
        requireFloat(b, "other");
        MatmulShapes s = promote(a, b);
        Shape want = matmulResultShape(a, b, s.full);
        CPU_CHECK(o.shape == want, "out shape ", shapeStr(o.shape), " must be ", shapeStr(want));
        if (o.numel == 0) return;
        batchedMatmul(ctx, outAsFull(o, a, b, s.full), s.a2, s.b2);
    });
}

diopiError_t diopiMatmulBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_other,
                                 diopiConstTensorHandle_t grad_out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    return guard(__func__, [&] {
        TensorView g = view(grad_out, "grad_out"), a = view(input, "input"), b = view(other, "other");
        requireFloat(g, "grad_out");
        requireFloat(a, "input");
        requireFloat(b, "other");
        MatmulShapes s = promote(a, b);
        Shape want = matmulResultShape(a, b, s.full);
        CPU_CHECK(g.shape == want, "grad_out shape ", shapeStr(g.shape), " must be ", shapeStr(want));
        TensorView gf = outAsFull(g, a, b, s.full);
        const int64_t nd = (int64_t)s.full.size();
        auto mT = [](const TensorView& v) {
            Shape sh = v.shape, st = v.strides;
            std::swap(sh[sh.size() - 1], sh[sh.size() - 2]);
            std::swap(st[st.size() - 1], st[st.size() - 2]);
            return v.restrided(sh, st);
        };
        if (grad_input) {
            TensorView gi = view(grad_input, "grad_input");
            requireFloat(gi, "grad_input");
            CPU_CHECK(gi.shape == a.shape, "grad_input shape ", shapeStr(gi.shape), " must be ", shapeStr(a.shape));
            Shape fullA(s.full.begin(), s.full.end() - 1);
            fullA.push_back(s.a2.shape.back());
            TensorView t = newTensor(ctx, fullA, workDtype(gi.dtype));
            batchedMatmul(ctx, t, gf, mT(s.b2));
            TensorView gi2 = a.dim() == 1 ? gi.restrided({1, gi.shape[0]}, {0, gi.strides[0]}) : gi;
            sumToShape(ctx, gi2, t);
        }
        if (grad_other) {
            TensorView go = view(grad_other, "grad_other");
            requireFloat(go, "grad_other");
            CPU_CHECK(go.shape == b.shape, "grad_other shape ", shapeStr(go.shape), " must be ", shapeStr(b.shape));
            TensorView go2 = b.dim() == 1 ? go.restrided({go.shape[0], 1}, {go.strides[0], 0}) : go;
            // b shared across the batch: one GEMM with the batch folded into the depth.
            bool bShared = s.b2.dim() == 2;
            int64_t r1, s1, r2, s2;
            TensorView ea = s.a2;
            if (bShared && ea.dim() == nd && mergeDims(ea, 0, nd - 1, r1, s1) && mergeDims(gf, 0, nd - 1, r2, s2) && r1 == r2) {
                TensorView a2d = ea.restrided({r1, ea.shape[nd - 1]}, {s1, ea.strides[nd - 1]});
                TensorView g2d = gf.restrided({r2, gf.shape[nd - 1]}, {s2, gf.strides[nd - 1]});
                matmulViews(ctx, as3d(go2), as3d(mT(a2d)), as3d(g2d), 1.0, 0.0, nullptr);
            } else {
                Shape fullB(s.full.begin(), s.full.end() - 2);
                fullB.push_back(s.b2.shape[s.b2.dim() - 2]);
                fullB.push_back(s.full.back());
                TensorView t = newTensor(ctx, fullB, workDtype(go.dtype));
                batchedMatmul(ctx, t, mT(s.a2), gf);
                sumToShape(ctx, go2, t);
            }
        }
    });
}

diopiError_t diopiLinear(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                         diopiConstTensorHandle_t bias) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), x = view(input, "input"), w = view(weight, "weight"), bv = viewOpt(bias, "bias");
        requireFloat(o, "out");
        requireFloat(x, "input");
        requireFloat(w, "weight");
        CPU_CHECK(x.dim() >= 1 && w.dim() == 2, "linear expects input with >= 1 dim and a 2-D weight");
        CPU_CHECK(x.shape.back() == w.shape[1], "input features ", x.shape.back(), " differ from weight's ", w.shape[1]);
        Shape want(x.shape.begin(), x.shape.end() - 1);
        want.push_back(w.shape[0]);
        CPU_CHECK(o.shape == want, "out shape ", shapeStr(o.shape), " must be ", shapeStr(want));
        if (bv.defined()) {
            requireFloat(bv, "bias");
            CPU_CHECK(bv.numel == w.shape[0] && bv.dim() <= 1, "bias must have shape (", w.shape[0], ")");
        }
        if (o.numel == 0) return;
        TensorView x2 = flattenRows(ctx, x);
        TensorView wt = w.restrided({w.shape[1], w.shape[0]}, {w.strides[1], w.strides[0]});
        TensorView bias1 = bv.defined() ? bv.restrided({w.shape[0]}, {bv.dim() == 0 ? 0 : bv.strides[0]}) : bv;
        int64_t r, rs;
        if (mergeDims(o, 0, o.dim() - 1, r, rs)) {
            matmulViews(ctx, as3d(o.restrided({r, o.shape.back()}, {rs, o.strides.back()})), as3d(x2), as3d(wt), 1.0, 1.0,
                        bv.defined() ? &bias1 : nullptr);
        } else {
            TensorView t = newTensor(ctx, {x2.shape[0], w.shape[0]}, o.dtype);
            matmulViews(ctx, as3d(t), as3d(x2), as3d(wt), 1.0, 1.0, bv.defined() ? &bias1 : nullptr);
            copyCast(o, t.reshaped(o.shape));
        }
    });
}

diopiError_t diopiLinearBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                 diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                 diopiConstTensorHandle_t weight) {
    return guard(__func__, [&] {
        TensorView g = view(grad_output, "grad_output"), x = view(input, "input"), w = view(weight, "weight");
        requireFloat(g, "grad_output");
        requireFloat(x, "input");
        requireFloat(w, "weight");
        CPU_CHECK(x.dim() >= 1 && w.dim() == 2, "linear expects input with >= 1 dim and a 2-D weight");
        CPU_CHECK(x.shape.back() == w.shape[1], "input features ", x.shape.back(), " differ from weight's ", w.shape[1]);
        Shape want(x.shape.begin(), x.shape.end() - 1);
        want.push_back(w.shape[0]);
        CPU_CHECK(g.shape == want, "grad_output shape ", shapeStr(g.shape), " must be ", shapeStr(want));
        TensorView g2 = flattenRows(ctx, g), x2 = flattenRows(ctx, x);
        if (grad_input) {
            TensorView gi = view(grad_input, "grad_input");
            requireFloat(gi, "grad_input");
            CPU_CHECK(gi.shape == x.shape, "grad_input shape ", shapeStr(gi.shape), " must be ", shapeStr(x.shape));
            int64_t r, rs;
            if (gi.numel == 0) {
            } else if (mergeDims(gi, 0, gi.dim() - 1, r, rs)) {
                matmulViews(ctx, as3d(gi.restrided({r, gi.shape.back()}, {rs, gi.strides.back()})), as3d(g2), as3d(w), 1.0, 0.0, nullptr);
            } else {
                TensorView t = newTensor(ctx, {x2.shape[0], x2.shape[1]}, gi.dtype);
                matmulViews(ctx, as3d(t), as3d(g2), as3d(w), 1.0, 0.0, nullptr);
                copyCast(gi, t.reshaped(gi.shape));
            }
        }
        if (grad_weight) {
            TensorView gw = view(grad_weight, "grad_weight");
            requireFloat(gw, "grad_weight");
            CPU_CHECK(gw.shape == w.shape, "grad_weight shape ", shapeStr(gw.shape), " must be ", shapeStr(w.shape));
            TensorView g2t = g2.restrided({g2.shape[1], g2.shape[0]}, {g2.strides[1], g2.strides[0]});
            matmulViews(ctx, as3d(gw), as3d(g2t), as3d(x2), 1.0, 0.0, nullptr);
        }
        if (grad_bias) {
            TensorView gb = view(grad_bias, "grad_bias");
            requireFloat(gb, "grad_bias");
            sumRows(ctx, gb, g2);
        }
    });
}

namespace {

// ---------------------------------------------------------------- vector norms
// A norm is a reduction of one kind; its lanes accumulate in double.
enum NormKind { kNormCount, kNormSumAbs, kNormSumSq, kNormMaxAbs, kNormMinAbs, kNormPow };

/// Combines two partial results of one kind (max/min propagate NaN).
inline double normCombine(int kind, double a, double b) {
    if (kind == kNormMaxAbs || kind == kNormMinAbs) {
        if (std::isnan(a) || std::isnan(b)) return NAN;
        return kind == kNormMaxAbs ? std::max(a, b) : std::min(a, b);
    }
    return a + b;
}
inline double normInit(int kind) { return kind == kNormMinAbs ? INFINITY : 0.0; }

/// Partial norm of n contiguous float or double values (before the final root).
/// Vectors of T's own width: float sums run in float over blocks of at most
/// 2048 values (64 terms per lane), each block then added in double.
template <int VB, class T>
CPU_FORCE_INLINE void normContigBody(const T* x, int64_t n, int kind, double p, double* out) {
    using V = Vec<T, VB>;
    constexpr int64_t L = VB / sizeof(T);
    const V zero = {};
    int64_t i = 0;
    double r = normInit(kind);
    if (kind == kNormSumSq || kind == kNormSumAbs || kind == kNormCount) {
        const V one = zero + T(1);
        r = 0.0;
        while (i + 4 * L <= n) {
            const int64_t start = i;
            V a0 = zero, a1 = zero, a2 = zero, a3 = zero;
            const int64_t e = std::is_same_v<T, float> ? std::min<int64_t>(n, i + 2048) : n;
            for (; i + 4 * L <= e; i += 4 * L) {
                V v0 = vload<V>(x + i), v1 = vload<V>(x + i + L), v2 = vload<V>(x + i + 2 * L), v3 = vload<V>(x + i + 3 * L);
                if (kind == kNormSumSq) {
                    a0 += v0 * v0;
                    a1 += v1 * v1;
                    a2 += v2 * v2;
                    a3 += v3 * v3;
                } else if (kind == kNormSumAbs) {
                    a0 += vabs(v0);
                    a1 += vabs(v1);
                    a2 += vabs(v2);
                    a3 += vabs(v3);
                } else {
                    a0 += v0 != zero ? one : zero;
                    a1 += v1 != zero ? one : zero;
                    a2 += v2 != zero ? one : zero;
                    a3 += v3 != zero ? one : zero;
                }
            }
            a0 = (a0 + a1) + (a2 + a3);
            double part = 0.0;
            for (int64_t l = 0; l < L; ++l) part += (double)a0[l];
            if (!std::isfinite(part)) {
                // Squares of large floats overflow in float (or a NaN came in): this block again in double.
                part = 0.0;
                for (int64_t q = start; q < i; ++q) {
                    const double v = x[q];
                    part += kind == kNormSumSq ? v * v : kind == kNormSumAbs ? std::fabs(v) : (v != 0.0 ? 1.0 : 0.0);
                }
            }
            r += part;
        }
        for (; i < n; ++i) {
            const double v = x[i];
            r += kind == kNormSumSq ? v * v : kind == kNormSumAbs ? std::fabs(v) : (v != 0.0 ? 1.0 : 0.0);
        }
    } else if (kind == kNormMaxAbs || kind == kNormMinAbs) {
        // A NaN lane wins and stays: later comparisons with it are false.
        const bool mx = kind == kNormMaxAbs;
        V m0 = zero + (T)r, m1 = m0;
        for (; i + 2 * L <= n; i += 2 * L) {
            V v0 = vabs(vload<V>(x + i)), v1 = vabs(vload<V>(x + i + L));
            if (mx) {
                m0 = (v0 > m0) | (v0 != v0) ? v0 : m0;
                m1 = (v1 > m1) | (v1 != v1) ? v1 : m1;
            } else {
                m0 = (v0 < m0) | (v0 != v0) ? v0 : m0;
                m1 = (v1 < m1) | (v1 != v1) ? v1 : m1;
            }
        }
        for (int64_t l = 0; l < L; ++l) r = normCombine(kind, normCombine(kind, r, (double)m0[l]), (double)m1[l]);
        for (; i < n; ++i) r = normCombine(kind, r, std::fabs((double)x[i]));
    } else {
        r = 0.0;
        for (; i < n; ++i) r += std::pow(std::fabs((double)x[i]), p);
    }
    *out = r;
}
LINALG_LEVELS(normContig, normContigBody)

/// Partial norm of n values of any float type at a stride of `step` bytes.
template <class T>
double normPartial(const char* base, int64_t n, int64_t step, int kind, double p) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        if (step == (int64_t)sizeof(T)) {
            double r;
            normContig(reinterpret_cast<const T*>(base), n, kind, p, &r);
            return r;
        }
    } else if (step == (int64_t)sizeof(T)) {
        // 16-bit floats: widened to float a chunk at a time, then the float kernel.
        float buf[256];
        const T* x = reinterpret_cast<const T*>(base);
        double r = normInit(kind);
        for (int64_t i0 = 0; i0 < n; i0 += 256) {
            const int64_t m = std::min<int64_t>(256, n - i0);
            for (int64_t i = 0; i < m; ++i) buf[i] = static_cast<float>(x[i0 + i]);
            double part;
            normContig(static_cast<const float*>(buf), m, kind, p, &part);
            r = normCombine(kind, r, part);
        }
        return r;
    }
    double r = normInit(kind);
    for (int64_t i = 0; i < n; ++i) {
        const double v = std::fabs((double)static_cast<acc_t<T>>(*reinterpret_cast<const T*>(base + i * step)));
        switch (kind) {
            case kNormCount: r += v != 0.0 ? 1.0 : 0.0; break;
            case kNormSumAbs: r += v; break;
            case kNormSumSq: r += v * v; break;
            case kNormPow: r += std::pow(v, p); break;
            default: r = normCombine(kind, r, v); break;
        }
    }
    return r;
}

inline double normFinish(int kind, double r, double p) {
    if (kind == kNormSumSq) return std::sqrt(r);
    if (kind == kNormPow) return std::pow(r, 1.0 / p);
    return r;
}

}  // namespace

diopiError_t diopiLinalgVecNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiScalar_t* ord,
                                diopiSize_t dim, bool keepdim) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), x = view(input, "input");
        requireFloat(x, "input");
        requireFloat(o, "out");
        const double p = ord ? scalarDouble(ord, "ord") : 2.0;
        CPU_CHECK(!std::isnan(p), "ord must not be NaN");
        auto mask = reduceMask(x, dim);
        Shape want = keepdim ? keptShape(x, mask) : squeezedShape(x, mask);
        CPU_CHECK(o.shape == want, "out shape ", shapeStr(o.shape), " must be ", shapeStr(want));
        int64_t window = 1;
        for (int64_t d = 0; d < x.dim(); ++d)
            if (mask[d]) window *= x.shape[d];
        if (std::isinf(p)) CPU_CHECK(window > 0 || o.numel == 0, "the ", p > 0 ? "inf" : "-inf", " norm of an empty reduction is undefined");
        if (o.numel == 0) return;
        const int kind = p == INFINITY ? kNormMaxAbs : p == -INFINITY ? kNormMinAbs : p == 0.0 ? kNormCount : p == 1.0 ? kNormSumAbs
                         : p == 2.0 ? kNormSumSq : kNormPow;
        TensorView ok = asKeepdim(o, x, mask);
        // Norms are computed in double, then rounded once to out's dtype.
        TensorView acc = newTensor(ctx, ok.shape, diopi_dtype_float64);
        dispatch<FloatTypes>(x.dtype, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            if (o.numel == 1 && x.isContiguous() && window >= 4 * kParallelGrain) {
                // One long contiguous window: partial norms of chunks on all threads.
                const int64_t chunks = std::min<int64_t>(64, window / kParallelGrain);
                std::vector<double> part(chunks);
                parallelFor(chunks, 1, [&](int64_t c0, int64_t c1) {
                    for (int64_t c = c0; c < c1; ++c) {
                        const int64_t b = window * c / chunks, e = window * (c + 1) / chunks;
                        part[c] = normPartial<T>(x.data + b * x.itemsize, e - b, x.itemsize, kind, p);
                    }
                });
                double r = normInit(kind);
                for (double v : part) r = normCombine(kind, r, v);
                *acc.ptr<double>() = normFinish(kind, r, p);
                return;
            }
            reduceLoop<1>({&acc}, x, mask, [&](char** po, const char* base, const ReduceWindow& w) {
                double r;
                if (w.sizes.size() <= 1) {
                    r = w.sizes.empty() ? normPartial<T>(base, 1, x.itemsize, kind, p) : normPartial<T>(base, w.sizes[0], w.strides[0], kind, p);
                } else {
                    // Several reduced dims that do not coalesce: rows of the innermost one.
                    r = normInit(kind);
                    const int64_t inner = w.sizes.back(), is = w.strides.back();
                    w.each(base, [&](const char* e, int64_t k) {
                        if (k % inner == 0) r = normCombine(kind, r, normPartial<T>(e, inner, is, kind, p));
                    });
                }
                *reinterpret_cast<double*>(po[0]) = normFinish(kind, r, p);
            });
        });
        copyCast(ok, acc);
    });
}

namespace {

// ---------------------------------------------------------------- cdist
// Distances are computed exactly (differences, never the |a|^2 + |b|^2 - 2ab
// GEMM shortcut) for every compute_mode, in double for float64 and in float
// otherwise. The p = 0, 1, 2, inf forward kernel tiles 4 rows of x1 against
// 2 vectors of x2 rows (x2 packed transposed, so lanes are x2 rows).

struct CdistShapes {
    Shape batch;
    int64_t B = 1, P = 0, R = 0, M = 0;
};

CdistShapes cdistShapes(const TensorView& x1, const TensorView& x2) {
    CPU_CHECK(x1.dim() >= 2 && x2.dim() >= 2, "cdist inputs must have at least 2 dimensions");
    requireFloat(x1, "input1");
    requireFloat(x2, "input2");
    CdistShapes c;
    c.M = x1.shape.back();
    CPU_CHECK(x2.shape.back() == c.M, "input1 and input2 must have the same number of columns (", c.M, " vs ", x2.shape.back(), ")");
    c.batch = broadcastShapes(Shape(x1.shape.begin(), x1.shape.end() - 2), Shape(x2.shape.begin(), x2.shape.end() - 2));
    c.B = shapeNumel(c.batch);
    c.P = x1.shape[x1.dim() - 2];
    c.R = x2.shape[x2.dim() - 2];
    return c;
}

/// A zeroed buffer of `count` elements of dtype wd into which v (batch_v..., rows, M) is
/// copied broadcast to `batch`, element (b, r, m) landing at b * bs + r * rs + m * ms.
TensorView packBroadcast(diopiContextHandle_t ctx, const TensorView& v, const Shape& batch, int64_t count, int64_t bs, int64_t rs, int64_t ms,
                         diopiDtype_t wd) {
    TensorView buf = newTensor(ctx, {count}, wd);
    std::memset(buf.data, 0, count * buf.itemsize);
    Shape sh = batch, st = contiguousStrides(batch);
    for (auto& x : st) x *= bs;
    sh.push_back(v.shape[v.dim() - 2]);
    sh.push_back(v.shape.back());
    st.push_back(rs);
    st.push_back(ms);
    copyCast(buf.restrided(sh, st), v);
    return buf;
}

/// v as (B, rows, M) of dtype wd with unit column stride: v itself when it already
/// is one (same batch, mergeable), else a contiguous broadcast copy.
TensorView rowsOperand(diopiContextHandle_t ctx, const TensorView& v, const Shape& batch, int64_t B, diopiDtype_t wd) {
    TensorView v3;
    if (v.dtype == wd && Shape(v.shape.begin(), v.shape.end() - 2) == batch && merged3d(v, v3) && (v3.strides[2] == 1 || v3.shape[2] <= 1))
        return v3;
    const int64_t rows = v.shape[v.dim() - 2], M = v.shape.back();
    TensorView t = packBroadcast(ctx, v, batch, B * rows * M, rows * M, M, 1, wd);
    return t.restrided({B, rows, M}, {rows * M, M, 1});
}

constexpr int64_t kCdistRowTile = 4;   // rows of x1 per tile
constexpr int64_t kCdistColAlign = 32;  // x2 rows padded to two vectors of the widest level

/// One tile row block: rows [0, 4) of A (row stride M) against all x2 rows of Bt
/// (M x Rpad, transposed); writes rows [0, rows) x [0, R) of D.
template <int VB, class W, int KIND>
CPU_FORCE_INLINE void cdistQuadK(const W* A, const W* Bt, int64_t M, int64_t Rpad, int64_t R, int64_t rows, W* D, int64_t rsD,
                                 int64_t csD) {
    using V = Vec<W, VB>;
    constexpr int64_t L = VB / sizeof(W);
    const V zero = {}, one = zero + W(1);
    alignas(64) W res[kCdistRowTile][2 * L];
    for (int64_t j0 = 0; j0 < R; j0 += 2 * L) {
        V c[kCdistRowTile][2];
        for (int64_t r = 0; r < kCdistRowTile; ++r) c[r][0] = c[r][1] = zero;
        const W* b = Bt + j0;
        for (int64_t k = 0; k < M; ++k, b += Rpad) {
            const V b0 = vload<V>(b), b1 = vload<V>(b + L);
            for (int64_t r = 0; r < kCdistRowTile; ++r) {
                const V u = zero + A[r * M + k];
                V d0 = u - b0, d1 = u - b1;
                if (KIND == kNormSumSq) {
                    c[r][0] += d0 * d0;
                    c[r][1] += d1 * d1;
                } else if (KIND == kNormSumAbs) {
                    c[r][0] += vabs(d0);
                    c[r][1] += vabs(d1);
                } else if (KIND == kNormCount) {
                    c[r][0] += d0 != zero ? one : zero;
                    c[r][1] += d1 != zero ? one : zero;
                } else {  // max |d|, NaN sticky
                    d0 = vabs(d0);
                    d1 = vabs(d1);
                    c[r][0] = (d0 > c[r][0]) | (d0 != d0) ? d0 : c[r][0];
                    c[r][1] = (d1 > c[r][1]) | (d1 != d1) ? d1 : c[r][1];
                }
            }
        }
        for (int64_t r = 0; r < kCdistRowTile; ++r) {
            vstore(res[r], c[r][0]);
            vstore(res[r] + L, c[r][1]);
        }
        const int64_t nj = std::min(2 * L, R - j0);
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t j = 0; j < nj; ++j) {
                const W v = res[r][j];
                D[r * rsD + (j0 + j) * csD] = KIND == kNormSumSq ? std::sqrt(v) : v;
            }
    }
}

template <int VB, class W>
CPU_FORCE_INLINE void cdistQuadBody(const W* A, const W* Bt, int64_t M, int64_t Rpad, int64_t R, int64_t rows, int kind, W* D, int64_t rsD,
                                    int64_t csD) {
    switch (kind) {
        case kNormSumSq: cdistQuadK<VB, W, kNormSumSq>(A, Bt, M, Rpad, R, rows, D, rsD, csD); break;
        case kNormSumAbs: cdistQuadK<VB, W, kNormSumAbs>(A, Bt, M, Rpad, R, rows, D, rsD, csD); break;
        default: cdistQuadK<VB, W, kNormMaxAbs>(A, Bt, M, Rpad, R, rows, D, rsD, csD); break;
    }
}
LINALG_LEVELS(cdistQuadVec, cdistQuadBody)

/// p = 1, 2 and inf on the per-level kernels; p = 0 (a count, rarely asked for) compiled once.
template <class W>
void cdistQuad(const W* A, const W* Bt, int64_t M, int64_t Rpad, int64_t R, int64_t rows, int kind, W* D, int64_t rsD, int64_t csD) {
    if (kind == kNormCount) cdistQuadK<16, W, kNormCount>(A, Bt, M, Rpad, R, rows, D, rsD, csD);
    else cdistQuadVec(A, Bt, M, Rpad, R, rows, kind, D, rsD, csD);
}

/// Arguments of the cdist backward row kernel: pointers of dtype W, strides in elements.
template <class W>
struct CdistBwdArgs {
    const W *x1, *x2, *g, *d;
    int64_t x1bs, x1rs, x2bs, x2rs, gbs, grs, gcs, dbs, drs, dcs;
    W* out;  // (B, P, M), rows of stride outrs, unit column stride
    int64_t outbs, outrs;
    int64_t P, R, M;
    W p;
};

/// For p = 2 (term w_j (u - v_j), w_j = grad / dist) and p = 1 (term grad sign(u - v_j)): columns
/// [k0, M) of one grad_input row in vectors of VBc bytes (as many as fit), the sum over the listed
/// x2 rows kept in a register. Returns the first column not done.
template <int VBc, int KIND, class W>
CPU_FORCE_INLINE int64_t cdistBwdCols(const W* u, const W* x2, int64_t x2rs, const int64_t* js, const W* ws, int64_t nj, W* acc, int64_t k0,
                                      int64_t M) {
    using V = Vec<W, VBc>;
    constexpr int64_t L = VBc / sizeof(W);
    const V zero = {};
    for (; k0 + L <= M; k0 += L) {
        const V uu = vload<V>(u + k0);
        V a = vload<V>(acc + k0);
        for (int64_t t = 0; t < nj; ++t) {
            const V d = uu - vload<V>(x2 + js[t] * x2rs + k0);
            if (KIND == kNormSumSq) a += ws[t] * d;
            else a += d > zero ? zero + ws[t] : d < zero ? zero - ws[t] : zero;
        }
        vstore(acc + k0, a);
    }
    return k0;
}

/// grad_input rows [r0, r1) (flattened batch * P): sum over x2 rows j of grad * d dist / d x1.
template <int VB, class W, int KIND>
CPU_FORCE_INLINE void cdistBwdK(const CdistBwdArgs<W>& a, int64_t r0, int64_t r1) {
    const int64_t M = a.M;
    constexpr int64_t JB = 256;  // x2 rows per pass: their weights stay on the stack
    int64_t js[JB];
    W ws[JB];
    for (int64_t row = r0; row < r1; ++row) {
        const int64_t bb = row / a.P, i = row % a.P;
        const W* u = a.x1 + bb * a.x1bs + i * a.x1rs;
        const W* x2 = a.x2 + bb * a.x2bs;
        W* acc = a.out + bb * a.outbs + i * a.outrs;
        for (int64_t k = 0; k < M; ++k) acc[k] = W(0);
        const W* g = a.g + bb * a.gbs + i * a.grs;
        const W* dd = a.d + bb * a.dbs + i * a.drs;
        for (int64_t j0 = 0; j0 < a.R; j0 += JB) {
            // The x2 rows that contribute (grad and distance nonzero), with their weights.
            int64_t nj = 0;
            for (int64_t j = j0; j < std::min(a.R, j0 + JB); ++j) {
                const W gr = g[j * a.gcs], dist = dd[j * a.dcs];
                if (gr == W(0) || dist == W(0)) continue;
                js[nj] = j;
                ws[nj++] = KIND == kNormSumSq ? gr / dist : gr;
            }
            if (KIND == kNormSumSq || KIND == kNormSumAbs) {
                int64_t k0 = cdistBwdCols<VB, KIND>(u, x2, a.x2rs, js, ws, nj, acc, 0, M);
                if (VB > 32) k0 = cdistBwdCols<32, KIND>(u, x2, a.x2rs, js, ws, nj, acc, k0, M);
                if (VB > 16) k0 = cdistBwdCols<16, KIND>(u, x2, a.x2rs, js, ws, nj, acc, k0, M);
                for (int64_t k = k0; k < M; ++k) {
                    W s = acc[k];
                    for (int64_t t = 0; t < nj; ++t) {
                        const W diff = u[k] - x2[js[t] * a.x2rs + k];
                        s += KIND == kNormSumSq ? ws[t] * diff : diff > W(0) ? ws[t] : diff < W(0) ? -ws[t] : W(0);
                    }
                    acc[k] = s;
                }
                continue;
            }
            for (int64_t t = 0; t < nj; ++t) {
                const W gr = ws[t], dist = dd[js[t] * a.dcs];
                const W* v = x2 + js[t] * a.x2rs;
                if (KIND == kNormMaxAbs) {
                    // The coordinates attaining the maximum get the gradient: the maximum is recomputed
                    // from these inputs, since the given cdist may carry another rounding.
                    W mx = W(0);
                    for (int64_t k = 0; k < M; ++k) mx = std::max(mx, std::fabs(u[k] - v[k]));
                    for (int64_t k = 0; k < M; ++k) {
                        const W diff = u[k] - v[k];
                        if (std::fabs(diff) == mx) acc[k] += diff > W(0) ? gr : diff < W(0) ? -gr : W(0);
                    }
                } else {
                    for (int64_t k = 0; k < M; ++k) {
                        const W diff = u[k] - v[k];
                        if (diff == W(0)) continue;
                        const W t2 = std::pow(std::fabs(diff) / dist, a.p - W(1));
                        acc[k] += diff > W(0) ? gr * t2 : -gr * t2;
                    }
                }
            }
        }
    }
}

template <int VB, class W>
CPU_FORCE_INLINE void cdistBwdBody(const CdistBwdArgs<W>* a, int kind, int64_t r0, int64_t r1) {
    if (kind == kNormSumSq) cdistBwdK<VB, W, kNormSumSq>(*a, r0, r1);
    else cdistBwdK<VB, W, kNormSumAbs>(*a, r0, r1);
}
LINALG_LEVELS(cdistBwdVec, cdistBwdBody)

/// p = 1 and 2 on the per-level kernels; p = inf and other p (scalar per coordinate) compiled once.
template <class W>
void cdistBwd(const CdistBwdArgs<W>* a, int kind, int64_t r0, int64_t r1) {
    if (kind == kNormSumSq || kind == kNormSumAbs) cdistBwdVec(a, kind, r0, r1);
    else if (kind == kNormMaxAbs) cdistBwdK<16, W, kNormMaxAbs>(*a, r0, r1);
    else cdistBwdK<16, W, kNormPow>(*a, r0, r1);
}

/// v broadcast to (B, P, R) of dtype wd: v itself when it has that form, else a contiguous copy.
TensorView fullOperand(diopiContextHandle_t ctx, const TensorView& v, const Shape& full, int64_t B, diopiDtype_t wd) {
    TensorView v3;
    if (v.dtype == wd && v.shape == full && merged3d(v, v3)) return v3;
    TensorView t = newTensor(ctx, full, wd);
    copyCast(t, v);
    const int64_t n = (int64_t)full.size();
    return t.restrided({B, full[n - 2], full[n - 1]}, {full[n - 2] * full[n - 1], full[n - 1], 1});
}

}  // namespace

diopiError_t diopiCdist(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input1, diopiConstTensorHandle_t input2,
                        double p, const int64_t* compute_mode) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), x1 = view(input1, "input1"), x2 = view(input2, "input2");
        requireFloat(o, "out");
        CPU_CHECK(p >= 0 && !std::isnan(p), "p must be non-negative");
        CPU_CHECK(!compute_mode || (*compute_mode >= 0 && *compute_mode <= 2), "compute_mode must be 0, 1 or 2");
        CdistShapes c = cdistShapes(x1, x2);
        Shape want = c.batch;
        want.push_back(c.P);
        want.push_back(c.R);
        CPU_CHECK(o.shape == want, "out shape ", shapeStr(o.shape), " must be ", shapeStr(want));
        if (o.numel == 0) return;
        const diopiDtype_t wd = x1.dtype == diopi_dtype_float64 || x2.dtype == diopi_dtype_float64 ? diopi_dtype_float64 : diopi_dtype_float32;
        const int64_t B = c.B, P = c.P, R = c.R, M = c.M;
        // Results go straight into out when it has the work dtype and a (B, P, R) form.
        TensorView d3, tmp;
        if (!(o.dtype == wd && merged3d(o, d3))) {
            tmp = newTensor(ctx, {B, P, R}, wd);
            d3 = tmp;
        }
        const int kind = p == 0.0 ? kNormCount : p == 1.0 ? kNormSumAbs : p == 2.0 ? kNormSumSq : std::isinf(p) ? kNormMaxAbs : kNormPow;
        dispatch<TypeList<float, double>>(wd, "input1", [&](auto tag) {
            using W = typename decltype(tag)::type;
            W* D = d3.ptr<W>();
            const int64_t dbs = d3.strides[0], drs = d3.strides[1], dcs = d3.strides[2];
            if (kind == kNormPow) {
                // Any other p: pow per coordinate, in double.
                TensorView A = rowsOperand(ctx, x1, c.batch, B, wd), Bm = rowsOperand(ctx, x2, c.batch, B, wd);
                const W* pa = A.ptr<W>();
                const W* pb = Bm.ptr<W>();
                parallelFor(B * P * R, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(8 * M, 1)), [&](int64_t s, int64_t e) {
                    for (int64_t q = s; q < e; ++q) {
                        const int64_t bj = q % R, bi = (q / R) % P, bb = q / (P * R);
                        const W* u = pa + bb * A.strides[0] + bi * A.strides[1];
                        const W* v = pb + bb * Bm.strides[0] + bj * Bm.strides[1];
                        double r = 0.0;
                        for (int64_t k = 0; k < M; ++k) r += std::pow(std::fabs((double)u[k] - (double)v[k]), p);
                        D[bb * dbs + bi * drs + bj * dcs] = (W)std::pow(r, 1.0 / p);
                    }
                });
                return;
            }
            const int64_t Ppad = (P + kCdistRowTile - 1) / kCdistRowTile * kCdistRowTile;
            const int64_t Rpad = (R + kCdistColAlign - 1) / kCdistColAlign * kCdistColAlign;
            TensorView Ap = packBroadcast(ctx, x1, c.batch, B * Ppad * M, Ppad * M, M, 1, wd);
            TensorView Bt = packBroadcast(ctx, x2, c.batch, B * M * Rpad, M * Rpad, 1, Rpad, wd);
            const W* pa = Ap.ptr<W>();
            const W* pb = Bt.ptr<W>();
            const int64_t quads = Ppad / kCdistRowTile;
            parallelFor(B * quads, std::max<int64_t>(1, (int64_t(1) << 16) / std::max<int64_t>(kCdistRowTile * R * M, 1)), [&](int64_t s, int64_t e) {
                for (int64_t q = s; q < e; ++q) {
                    const int64_t bb = q / quads, i0 = (q % quads) * kCdistRowTile;
                    cdistQuad(pa + (bb * Ppad + i0) * M, pb + bb * M * Rpad, M, Rpad, R, std::min(kCdistRowTile, P - i0), kind,
                              D + bb * dbs + i0 * drs, drs, dcs);
                }
            });
        });
        if (tmp.defined()) copyCast(o, tmp.reshaped(o.shape));
    });
}

diopiError_t diopiCdistBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                diopiConstTensorHandle_t input1, diopiConstTensorHandle_t input2, double p, diopiConstTensorHandle_t cdist) {
    return guard(__func__, [&] {
        TensorView gi = view(grad_input, "grad_input"), g = view(grad_output, "grad_output"), x1 = view(input1, "input1"),
                   x2 = view(input2, "input2"), dv = view(cdist, "cdist");
        requireFloat(gi, "grad_input");
        requireFloat(g, "grad_output");
        requireFloat(dv, "cdist");
        CPU_CHECK(p >= 0 && !std::isnan(p), "p must be non-negative");
        CPU_CHECK(gi.shape == x1.shape, "grad_input shape ", shapeStr(gi.shape), " must be ", shapeStr(x1.shape));
        CdistShapes c = cdistShapes(x1, x2);
        Shape full = c.batch;
        full.push_back(c.P);
        full.push_back(c.R);
        CPU_CHECK(broadcastShapes(g.shape, full) == full && broadcastShapes(dv.shape, full) == full, "grad_output and cdist must broadcast to ",
                  shapeStr(full));
        if (gi.numel == 0) return;
        const diopiDtype_t wd = x1.dtype == diopi_dtype_float64 || x2.dtype == diopi_dtype_float64 || g.dtype == diopi_dtype_float64 ||
                                        gi.dtype == diopi_dtype_float64
                                    ? diopi_dtype_float64
                                    : diopi_dtype_float32;
        Shape fullA = c.batch;
        fullA.push_back(c.P);
        fullA.push_back(c.M);
        // The gradient goes straight into grad_input when it has the work dtype, no broadcast batch
        // and unit column stride; otherwise into a dense buffer summed down to its shape.
        TensorView o3, tmp;
        if (!(gi.dtype == wd && gi.shape == fullA && merged3d(gi, o3) && (o3.strides[2] == 1 || c.M <= 1))) {
            tmp = newTensor(ctx, fullA, wd);
            o3 = tmp.restrided({c.B, c.P, c.M}, {c.P * c.M, c.M, 1});
        }
        if (p == 0.0) {
            // The count of differing coordinates is piecewise constant.
            dispatch<TypeList<float, double>>(wd, "grad_input", [&](auto tag) {
                using W = typename decltype(tag)::type;
                fillWith<W>(o3, W(0));
            });
        } else {
            TensorView A = rowsOperand(ctx, x1, c.batch, c.B, wd), Bm = rowsOperand(ctx, x2, c.batch, c.B, wd);
            TensorView G = fullOperand(ctx, g, full, c.B, wd), D = fullOperand(ctx, dv, full, c.B, wd);
            const int kind = p == 1.0 ? kNormSumAbs : p == 2.0 ? kNormSumSq : std::isinf(p) ? kNormMaxAbs : kNormPow;
            dispatch<TypeList<float, double>>(wd, "grad_input", [&](auto tag) {
                using W = typename decltype(tag)::type;
                CdistBwdArgs<W> a{A.ptr<W>(), Bm.ptr<W>(), G.ptr<W>(), D.ptr<W>(), A.strides[0], A.strides[1], Bm.strides[0], Bm.strides[1],
                                  G.strides[0], G.strides[1], G.strides[2], D.strides[0], D.strides[1], D.strides[2], o3.ptr<W>(), o3.strides[0],
                                  o3.strides[1], c.P, c.R, c.M, (W)p};
                const CdistBwdArgs<W>* pa = &a;
                parallelFor(c.B * c.P, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(c.R * c.M, 1)),
                            [&](int64_t s, int64_t e) { cdistBwd(pa, kind, s, e); });
            });
        }
        if (tmp.defined()) sumToShape(ctx, gi, tmp);
    });
}

namespace {

// ---------------------------------------------------------------- triangular solves and Cholesky
// Blocked by rows: a block of rows is first updated with one GEMM by every row
// already solved (factored), then finished by a per-level kernel whose inner
// loops run along contiguous rows.

constexpr int64_t kCholBlock = 32;
constexpr int64_t kTrsmBlock = 64;
// A solve stays in the row kernel while the solved rows of one column group (n rows
// of up to 64 columns) fit this many bytes: they stay in L2, and a GEMM per block of
// rows would cost more than it saves.
constexpr int64_t kTrsmRowKernelBytes = int64_t(128) << 10;

/// Rows [i0, i1) of op(A) X = X solved in place, op(A)(i, j) at A[i * rsA + j * csA]
/// (upper: from the bottom row up), the contributions of solved rows outside the
/// block already subtracted. X is n x k with row stride ldx.
template <int VB, class W>
CPU_FORCE_INLINE void trsmBlockBody(const W* A, int64_t rsA, int64_t csA, W* X, int64_t ldx, int64_t i0, int64_t i1, int64_t k, bool upper,
                                    bool unit) {
    using V = Vec<W, VB>;
    constexpr int64_t L = VB / sizeof(W);
    const int64_t nb = i1 - i0;
    int64_t c0 = 0;
    for (; c0 + 4 * L <= k; c0 += 4 * L) {
        for (int64_t t = 0; t < nb; ++t) {
            const int64_t i = upper ? i1 - 1 - t : i0 + t, jb = upper ? i + 1 : i0, je = upper ? i1 : i;
            W* xi = X + i * ldx + c0;
            V a0 = vload<V>(xi), a1 = vload<V>(xi + L), a2 = vload<V>(xi + 2 * L), a3 = vload<V>(xi + 3 * L);
            for (int64_t j = jb; j < je; ++j) {
                const W s = A[i * rsA + j * csA];
                const W* xj = X + j * ldx + c0;
                a0 -= s * vload<V>(xj);
                a1 -= s * vload<V>(xj + L);
                a2 -= s * vload<V>(xj + 2 * L);
                a3 -= s * vload<V>(xj + 3 * L);
            }
            if (!unit) {
                const W d = A[i * rsA + i * csA];
                a0 /= d;
                a1 /= d;
                a2 /= d;
                a3 /= d;
            }
            vstore(xi, a0);
            vstore(xi + L, a1);
            vstore(xi + 2 * L, a2);
            vstore(xi + 3 * L, a3);
        }
    }
    for (; c0 + L <= k; c0 += L) {
        for (int64_t t = 0; t < nb; ++t) {
            const int64_t i = upper ? i1 - 1 - t : i0 + t, jb = upper ? i + 1 : i0, je = upper ? i1 : i;
            W* xi = X + i * ldx + c0;
            V a0 = vload<V>(xi);
            for (int64_t j = jb; j < je; ++j) a0 -= A[i * rsA + j * csA] * vload<V>(X + j * ldx + c0);
            if (!unit) a0 /= A[i * rsA + i * csA];
            vstore(xi, a0);
        }
    }
    for (; c0 < k; ++c0) {
        for (int64_t t = 0; t < nb; ++t) {
            const int64_t i = upper ? i1 - 1 - t : i0 + t, jb = upper ? i + 1 : i0, je = upper ? i1 : i;
            W v = X[i * ldx + c0];
            for (int64_t j = jb; j < je; ++j) v -= A[i * rsA + j * csA] * X[j * ldx + c0];
            X[i * ldx + c0] = unit ? v : v / A[i * rsA + i * csA];
        }
    }
}
LINALG_LEVELS(trsmBlock, trsmBlockBody)

/// Solves op(A) X = X in place for one n x n triangular op(A) (element (i, j) at
/// A[i * rsA + j * csA], only its `upper` or lower triangle read) and X (n x k,
/// row stride ldx).
template <class W>
void trsm(const W* A, int64_t rsA, int64_t csA, W* X, int64_t ldx, int64_t n, int64_t k, bool upper, bool unit) {
    if (n <= 0 || k <= 0) return;
    const int64_t nb = n * std::min<int64_t>(k, 64) * (int64_t)sizeof(W) <= kTrsmRowKernelBytes ? n : kTrsmBlock;
    for (int64_t b = 0; b < n; b += nb) {
        const int64_t i0 = upper ? std::max<int64_t>(0, n - b - nb) : b, i1 = upper ? n - b : std::min(n, b + nb);
        if (!upper && i0 > 0) gemmW(i1 - i0, k, i0, W(-1), A + i0 * rsA, rsA, csA, X, ldx, 1, W(1), X + i0 * ldx, ldx, 1);
        if (upper && i1 < n)
            gemmW(i1 - i0, k, n - i1, W(-1), A + i0 * rsA + i1 * csA, rsA, csA, X + i1 * ldx, ldx, 1, W(1), X + i0 * ldx, ldx, 1);
        trsmBlock(A, rsA, csA, X, ldx, i0, i1, k, upper, unit);
    }
}

/// Rows [k0, k1) of the upper Cholesky factor U (A = U^T U) in place: A is n x n
/// row-major, its upper triangle holding the matrix with the updates by rows < k0
/// applied. *status = 0, or j + 1 for the first pivot j that is not positive.
template <int VB, class W>
CPU_FORCE_INLINE void cholPanelBody(W* A, int64_t n, int64_t k0, int64_t k1, int64_t* status) {
    *status = 0;
    for (int64_t k = k0; k < k1; ++k) {
        W* rk = A + k * n;
        const W d = rk[k];
        if (!(d > W(0))) {
            *status = k + 1;
            return;
        }
        const W s = std::sqrt(d), inv = W(1) / s;
        rk[k] = s;
        for (int64_t j = k + 1; j < n; ++j) rk[j] *= inv;
        for (int64_t i = k + 1; i < k1; ++i) {
            const W a = rk[i];
            W* __restrict ri = A + i * n;
            const W* __restrict rkk = rk;
            for (int64_t j = i; j < n; ++j) ri[j] -= a * rkk[j];
        }
    }
}
LINALG_LEVELS(cholPanel, cholPanelBody)

/// Upper Cholesky factor of the n x n matrix in A's upper triangle, in place (the strict
/// lower triangle is zeroed). Returns 0 or the LAPACK-style info (first bad pivot + 1);
/// rows from the failing pivot on are zero then.
template <class W>
int64_t cholUpper(W* A, int64_t n) {
    int64_t status = 0;
    for (int64_t k0 = 0; k0 < n && status == 0; k0 += kCholBlock) {
        const int64_t k1 = std::min(n, k0 + kCholBlock);
        // A[k0:k1, k0:n] -= U[0:k0, k0:k1]^T U[0:k0, k0:n]
        if (k0 > 0) gemmW(k1 - k0, n - k0, k0, W(-1), A + k0, 1, n, A + k0, n, 1, W(1), A + k0 * n + k0, n, 1);
        cholPanel(A, n, k0, k1, &status);
    }
    const int64_t good = status ? status - 1 : n;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < (i < good ? i : n); ++j) A[i * n + j] = W(0);
    return status;
}

/// The same view with its last two dims swapped (no copy).
TensorView swapLast(const TensorView& v) {
    Shape sh = v.shape, st = v.strides;
    std::swap(sh[sh.size() - 1], sh[sh.size() - 2]);
    std::swap(st[st.size() - 1], st[st.size() - 2]);
    return v.restrided(sh, st);
}

/// Runs f(begin, end) over [0, n) like parallelFor, turning an exception thrown on
/// a worker (out of memory in a GEMM's buffers) into one thrown here.
template <class F>
void parallelForChecked(int64_t n, int64_t grain, F&& f) {
    if (n <= 0) return;
    if (n == 1 || n < grain) {  // serial: no thread team for one piece of work
        f(int64_t(0), n);
        return;
    }
    bool failed = false;
    parallelFor(n, grain, [&](int64_t b, int64_t e) {
        try {
            f(b, e);
        } catch (...) {
#pragma omp atomic write
            failed = true;
        }
    });
    if (failed) fail("a worker thread failed (out of memory?)");
}

}  // namespace

diopiError_t diopiCholesky(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t info, diopiConstTensorHandle_t mat, bool upper,
                           bool checkerror) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), a = view(mat, "mat");
        requireFloat(o, "out");
        requireFloat(a, "mat");
        CPU_CHECK(a.dim() >= 2 && a.shape[a.dim() - 1] == a.shape[a.dim() - 2], "mat must be (..., n, n), got ", shapeStr(a.shape));
        CPU_CHECK(o.shape == a.shape, "out shape ", shapeStr(o.shape), " must be ", shapeStr(a.shape));
        const int64_t n = a.shape.back();
        Shape batch(a.shape.begin(), a.shape.end() - 2);
        TensorView inf;
        if (info) {
            inf = view(info, "info");
            CPU_CHECK(isIntegralDtype(inf.dtype), "info must have an integer dtype");
            CPU_CHECK(inf.shape == batch, "info shape ", shapeStr(inf.shape), " must be ", shapeStr(batch));
        }
        const int64_t B = shapeNumel(batch);
        const diopiDtype_t wd = workDtype(a.dtype == diopi_dtype_float64 ? a.dtype : o.dtype);
        // U (A = U^T U) is factored in place in a copy holding the chosen triangle as an upper one:
        // a lower input is read transposed, and the lower result written transposed.
        TensorView U = newTensor(ctx, a.shape, wd);
        copyCast(upper ? U : swapLast(U), a);
        TensorView st = newTensor(ctx, batch, diopi_dtype_int64);
        int64_t* sp = st.ptr<int64_t>();
        dispatch<TypeList<float, double>>(wd, "mat", [&](auto tag) {
            using W = typename decltype(tag)::type;
            W* Up = U.ptr<W>();
            parallelForChecked(B, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n * n * n / 4, 1)), [&](int64_t b0, int64_t b1) {
                for (int64_t bi = b0; bi < b1; ++bi) sp[bi] = cholUpper(Up + bi * n * n, n);
            });
        });
        bool anyFail = false;
        for (int64_t bi = 0; bi < B; ++bi) anyFail = anyFail || sp[bi] != 0;
        CPU_CHECK(!(checkerror && anyFail), "the matrix is not positive-definite");
        copyCast(o, upper ? U : swapLast(U));
        if (inf.defined()) copyCast(inf, st);
    });
}

diopiError_t diopiTriangularSolve(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t cloned_mat, diopiConstTensorHandle_t b,
                                  diopiConstTensorHandle_t mat, bool upper, bool transpose, bool unitriangular) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), bv = view(b, "b"), a = view(mat, "mat");
        requireFloat(o, "out");
        requireFloat(bv, "b");
        requireFloat(a, "mat");
        CPU_CHECK(a.dim() >= 2 && bv.dim() >= 2, "b and mat must have at least 2 dimensions");
        const int64_t n = a.shape.back(), k = bv.shape.back();
        CPU_CHECK(a.shape[a.dim() - 2] == n, "mat must be square, got ", shapeStr(a.shape));
        CPU_CHECK(bv.shape[bv.dim() - 2] == n, "b has ", bv.shape[bv.dim() - 2], " rows, mat has ", n);
        Shape batch = broadcastShapes(Shape(bv.shape.begin(), bv.shape.end() - 2), Shape(a.shape.begin(), a.shape.end() - 2));
        Shape xs = batch, ms = batch;
        xs.push_back(n);
        xs.push_back(k);
        ms.push_back(n);
        ms.push_back(n);
        CPU_CHECK(o.shape == xs, "out shape ", shapeStr(o.shape), " must be ", shapeStr(xs));
        TensorView cm;
        if (cloned_mat) {
            cm = view(cloned_mat, "cloned_mat");
            CPU_CHECK(cm.shape == a.shape || cm.shape == ms, "cloned_mat shape ", shapeStr(cm.shape), " must be ", shapeStr(a.shape), " or ",
                      shapeStr(ms));
        }
        if (o.numel > 0) {
            const diopiDtype_t wd =
                bv.dtype == diopi_dtype_float64 || a.dtype == diopi_dtype_float64 || o.dtype == diopi_dtype_float64 ? diopi_dtype_float64
                                                                                                                    : diopi_dtype_float32;
            const int64_t B = shapeNumel(batch);
            // X: out itself when it has the work dtype and dense rows, else a dense buffer.
            TensorView X3, tmp;
            if (!(o.dtype == wd && merged3d(o, X3) && (X3.strides[2] == 1 || k == 1) && o.data != bv.data && o.data != a.data)) {
                tmp = newTensor(ctx, xs, wd);
                X3 = tmp.restrided({B, n, k}, {n * k, k, 1});
            }
            copyCast(X3.restrided(xs, [&] {
                         Shape st = contiguousStrides(batch);
                         for (auto& v : st) v *= X3.strides[0];
                         st.push_back(X3.strides[1]);
                         st.push_back(X3.strides[2]);
                         return st;
                     }()),
                     bv);
            TensorView M3;
            if (!(a.dtype == wd && Shape(a.shape.begin(), a.shape.end() - 2) == batch && merged3d(a, M3))) {
                TensorView m = newTensor(ctx, ms, wd);
                copyCast(m, a);
                M3 = m.restrided({B, n, n}, {n * n, n, 1});
            }
            // op(A) = A or A^T (strides swapped); A^T of an upper matrix is lower.
            const int64_t rsA = transpose ? M3.strides[2] : M3.strides[1], csA = transpose ? M3.strides[1] : M3.strides[2];
            const bool effUpper = upper != transpose;
            // Independent column groups of one system go to different threads when the batch is small.
            const int64_t work = n * n * k;
            int64_t parts = 1;
            if (B < 2 && work >= (int64_t(1) << 20)) parts = std::max<int64_t>(1, std::min<int64_t>(k / 64, 8));
            dispatch<TypeList<float, double>>(wd, "b", [&](auto tag) {
                using W = typename decltype(tag)::type;
                W* Xp = X3.ptr<W>();
                const W* Mp = M3.ptr<W>();
                const int64_t ldx = X3.strides[1], cs = X3.strides[2];
                parallelForChecked(B * parts, work * parts >= (int64_t(1) << 18) ? 1 : B * parts + 1, [&](int64_t s0, int64_t s1) {
                    for (int64_t q = s0; q < s1; ++q) {
                        const int64_t bi = q / parts, c = q % parts, cb = k * c / parts, ce = k * (c + 1) / parts;
                        // k == 1 with a strided column: rows of one element at stride ldx.
                        trsm<W>(Mp + bi * M3.strides[0], rsA, csA, Xp + bi * X3.strides[0] + cb * cs, ldx, n, ce - cb, effUpper, unitriangular);
                    }
                });
            });
            if (tmp.defined()) copyCast(o, tmp);
        }
        if (cm.defined()) copyCast(cm, a);
    });
}

namespace {

/// A float64 copy of v broadcast to `shape` (contiguous).
TensorView expandedDouble(diopiContextHandle_t ctx, const TensorView& v, const Shape& shape) {
    TensorView t = newTensor(ctx, shape, diopi_dtype_float64);
    copyCast(t, v);
    return t;
}

}  // namespace

diopiError_t diopiCholeskyBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_mat, diopiConstTensorHandle_t grad_output,
                                   diopiConstTensorHandle_t L, bool upper) {
    return guard(__func__, [&] {
        TensorView gm = view(grad_mat, "grad_mat"), go = view(grad_output, "grad_output"), l = view(L, "L");
        requireFloat(gm, "grad_mat");
        requireFloat(go, "grad_output");
        requireFloat(l, "L");
        CPU_CHECK(l.dim() >= 2 && l.shape[l.dim() - 1] == l.shape[l.dim() - 2], "L must be (..., n, n), got ", shapeStr(l.shape));
        CPU_CHECK(go.shape == l.shape && gm.shape == l.shape, "grad_output and grad_mat must have L's shape ", shapeStr(l.shape));
        const int64_t n = l.shape.back(), B = shapeNumel(Shape(l.shape.begin(), l.shape.end() - 2));
        if (gm.numel == 0) return;
        const diopiDtype_t wd =
            l.dtype == diopi_dtype_float64 || go.dtype == diopi_dtype_float64 || gm.dtype == diopi_dtype_float64 ? diopi_dtype_float64
                                                                                                                : diopi_dtype_float32;
        // Lower factor and its gradient (an upper factor and its gradient are read transposed), dense.
        TensorView Lo = newTensor(ctx, l.shape, wd), Gl = newTensor(ctx, l.shape, wd), S = newTensor(ctx, l.shape, wd);
        copyCast(upper ? swapLast(Lo) : Lo, l);
        copyCast(upper ? swapLast(Gl) : Gl, go);
        dispatch<TypeList<float, double>>(wd, "L", [&](auto tag) {
            using W = typename decltype(tag)::type;
            const W* Lp = Lo.ptr<W>();
            const W* Gp = Gl.ptr<W>();
            W* Sp = S.ptr<W>();
            parallelForChecked(B, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n * n * n, 1)), [&](int64_t b0, int64_t b1) {
                for (int64_t bi = b0; bi < b1; ++bi) {
                    const W* lo = Lp + bi * n * n;
                    W* P = Sp + bi * n * n;
                    // phi = L^T gL, then P = (tril(phi) + strict_tril(phi)^T) / 2 (symmetric).
                    gemmW(n, n, n, W(1), lo, 1, n, Gp + bi * n * n, n, 1, W(0), P, n, 1);
                    for (int64_t i = 0; i < n; ++i) {
                        for (int64_t j = 0; j < i; ++j) P[j * n + i] = P[i * n + j] = W(0.5) * P[i * n + j];
                        P[i * n + i] *= W(0.5);
                    }
                    // S = L^-T P L^-1: Y = L^-T P, then Z = L^-T Y^T = S^T (written out transposed below).
                    trsm<W>(lo, 1, n, P, n, n, n, true, false);
                    for (int64_t i = 0; i < n; ++i)
                        for (int64_t j = 0; j < i; ++j) std::swap(P[i * n + j], P[j * n + i]);
                    trsm<W>(lo, 1, n, P, n, n, n, true, false);
                }
            });
        });
        copyCast(gm, swapLast(S));
    });
}

diopiError_t diopiTriangularSolveBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_b, diopiTensorHandle_t grad_mat,
                                          diopiConstTensorHandle_t grad_x, diopiConstTensorHandle_t grad_cloned_mat, diopiConstTensorHandle_t x,
                                          diopiConstTensorHandle_t b, diopiConstTensorHandle_t mat, bool upper, bool transpose,
                                          bool unitriangular) {
    return guard(__func__, [&] {
        TensorView xv = view(x, "x"), bv = view(b, "b"), a = view(mat, "mat"), gx = viewOpt(grad_x, "grad_x"),
                   gcm = viewOpt(grad_cloned_mat, "grad_cloned_mat");
        requireFloat(xv, "x");
        requireFloat(bv, "b");
        requireFloat(a, "mat");
        CPU_CHECK(a.dim() >= 2 && bv.dim() >= 2, "b and mat must have at least 2 dimensions");
        const int64_t n = a.shape.back(), k = bv.shape.back();
        CPU_CHECK(a.shape[a.dim() - 2] == n && bv.shape[bv.dim() - 2] == n, "mat must be square with as many rows as b");
        Shape batch = broadcastShapes(Shape(bv.shape.begin(), bv.shape.end() - 2), Shape(a.shape.begin(), a.shape.end() - 2));
        Shape xs = batch, ms = batch;
        xs.push_back(n);
        xs.push_back(k);
        ms.push_back(n);
        ms.push_back(n);
        CPU_CHECK(xv.shape == xs, "x shape ", shapeStr(xv.shape), " must be ", shapeStr(xs));
        TensorView gbFull = newTensor(ctx, xs, diopi_dtype_float64), gaFull = newTensor(ctx, ms, diopi_dtype_float64);
        std::fill(gbFull.ptr<double>(), gbFull.ptr<double>() + gbFull.numel, 0.0);
        std::fill(gaFull.ptr<double>(), gaFull.ptr<double>() + gaFull.numel, 0.0);
        if (gx.defined()) {
            requireFloat(gx, "grad_x");
            CPU_CHECK(gx.shape == xs, "grad_x shape ", shapeStr(gx.shape), " must be ", shapeStr(xs));
            copyCast(gbFull, gx);
            TensorView M = expandedDouble(ctx, a, ms), X = expandedDouble(ctx, xv, xs);
            const double* Mp = M.ptr<double>();
            const double* Xp = X.ptr<double>();
            double* GB = gbFull.ptr<double>();
            double* GA = gaFull.ptr<double>();
            const int64_t B = shapeNumel(batch);
            parallelForChecked(B, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n * n * std::max<int64_t>(k, 1), 1)), [&](int64_t b0, int64_t b1) {
                for (int64_t bi = b0; bi < b1; ++bi) {
                    double* gb = GB + bi * n * k;
                    const double* xx = Xp + bi * n * k;
                    // grad_b solves the adjoint system op(A)^T grad_b = grad_x.
                    trsm<double>(Mp + bi * n * n, transpose ? n : 1, transpose ? 1 : n, gb, k, n, k, upper == transpose, unitriangular);
                    double* ga = GA + bi * n * n;
                    for (int64_t i = 0; i < n; ++i)
                        for (int64_t j = 0; j < n; ++j) {
                            const bool keep = upper ? (unitriangular ? j > i : j >= i) : (unitriangular ? j < i : j <= i);
                            if (!keep) continue;
                            double v = 0.0;
                            // -(grad_b x^T) or, for the transposed system, -(x grad_b^T).
                            if (transpose) for (int64_t c = 0; c < k; ++c) v += xx[i * k + c] * gb[j * k + c];
                            else for (int64_t c = 0; c < k; ++c) v += gb[i * k + c] * xx[j * k + c];
                            ga[i * n + j] = -v;
                        }
                }
            });
        }
        if (grad_b) {
            TensorView gbo = view(grad_b, "grad_b");
            requireFloat(gbo, "grad_b");
            CPU_CHECK(gbo.shape == bv.shape, "grad_b shape ", shapeStr(gbo.shape), " must be ", shapeStr(bv.shape));
            sumToShape(ctx, gbo, gbFull);
        }
        if (grad_mat) {
            TensorView gmo = view(grad_mat, "grad_mat");
            requireFloat(gmo, "grad_mat");
            CPU_CHECK(gmo.shape == a.shape, "grad_mat shape ", shapeStr(gmo.shape), " must be ", shapeStr(a.shape));
            if (!gcm.defined()) {
                sumToShape(ctx, gmo, gaFull);
            } else {
                requireFloat(gcm, "grad_cloned_mat");
                CPU_CHECK(gcm.shape == a.shape || gcm.shape == ms, "grad_cloned_mat shape ", shapeStr(gcm.shape), " must be ", shapeStr(a.shape),
                          " or ", shapeStr(ms));
                // Both parts summed in double, then rounded once to grad_mat's dtype.
                TensorView s1 = newTensor(ctx, a.shape, diopi_dtype_float64), s2 = newTensor(ctx, a.shape, diopi_dtype_float64);
                sumToShape(ctx, s1, gaFull);
                sumToShape(ctx, s2, gcm);
                binaryLoop<double, double, double>(s1, s1, s2, [](double u, double v) { return u + v; });
                copyCast(gmo, s1);
            }
        }
    });
}

diopiError_t diopiLinalgQR(diopiContextHandle_t ctx, diopiConstTensorHandle_t A, const char* mode, diopiTensorHandle_t Q, diopiTensorHandle_t R) {
    return guard(__func__, [&] {
        TensorView a = view(A, "A"), r = view(R, "R");
        requireFloat(a, "A");
        requireFloat(r, "R");
        const char* md = mode ? mode : "reduced";
        const bool complete = std::strcmp(md, "complete") == 0, onlyR = std::strcmp(md, "r") == 0;
        CPU_CHECK(complete || onlyR || std::strcmp(md, "reduced") == 0, "mode must be \"reduced\", \"complete\" or \"r\"");
        CPU_CHECK(a.dim() >= 2, "A must have at least 2 dimensions");
        const int64_t m = a.shape[a.dim() - 2], n = a.shape.back(), k = std::min(m, n);
        Shape batch(a.shape.begin(), a.shape.end() - 2);
        const int64_t B = shapeNumel(batch);
        Shape rs = batch, qs = batch;
        rs.push_back(complete ? m : k);
        rs.push_back(n);
        qs.push_back(m);
        qs.push_back(complete ? m : k);
        CPU_CHECK(r.shape == rs, "R shape ", shapeStr(r.shape), " must be ", shapeStr(rs));
        TensorView q;
        if (Q && !onlyR) {
            q = view(Q, "Q");
            requireFloat(q, "Q");
            CPU_CHECK(q.shape == qs, "Q shape ", shapeStr(q.shape), " must be ", shapeStr(qs));
        }
        const int64_t rr = rs[rs.size() - 2], qc = qs.back();
        TensorView Ad = expandedDouble(ctx, a, a.shape);
        TensorView Rd = newTensor(ctx, rs, diopi_dtype_float64), Qd = newTensor(ctx, qs, diopi_dtype_float64);
        double* Ap = Ad.ptr<double>();
        double* Rp = Rd.ptr<double>();
        double* Qp = Qd.ptr<double>();
        // Householder reflections H_j = I - tau v v^T with LAPACK's sign choice (beta = -sign(alpha) * norm),
        // so that results match the reference factorisation.
        parallelFor(B, 1, [&](int64_t b0, int64_t b1) {
            std::vector<double> tau(k), v(m);
            for (int64_t bi = b0; bi < b1; ++bi) {
                double* W = Ap + bi * m * n;  // factorised in place: R above the diagonal, reflectors below
                for (int64_t j = 0; j < k; ++j) {
                    const double alpha = W[j * n + j];
                    double xn = 0.0;
                    for (int64_t i = j + 1; i < m; ++i) xn += W[i * n + j] * W[i * n + j];
                    xn = std::sqrt(xn);
                    if (xn == 0.0) {
                        tau[j] = 0.0;
                        continue;
                    }
                    const double beta = -std::copysign(std::hypot(alpha, xn), alpha);
                    tau[j] = (beta - alpha) / beta;
                    const double sc = 1.0 / (alpha - beta);
                    for (int64_t i = j + 1; i < m; ++i) W[i * n + j] *= sc;
                    W[j * n + j] = beta;
                    for (int64_t c = j + 1; c < n; ++c) {
                        double w = W[j * n + c];
                        for (int64_t i = j + 1; i < m; ++i) w += W[i * n + j] * W[i * n + c];
                        w *= tau[j];
                        W[j * n + c] -= w;
                        for (int64_t i = j + 1; i < m; ++i) W[i * n + c] -= W[i * n + j] * w;
                    }
                }
                double* Rb = Rp + bi * rr * n;
                for (int64_t i = 0; i < rr; ++i)
                    for (int64_t c = 0; c < n; ++c) Rb[i * n + c] = c >= i && i < m ? W[i * n + c] : 0.0;
                if (!q.defined()) continue;
                double* Qb = Qp + bi * m * qc;
                for (int64_t i = 0; i < m; ++i)
                    for (int64_t c = 0; c < qc; ++c) Qb[i * qc + c] = i == c ? 1.0 : 0.0;
                for (int64_t j = k - 1; j >= 0; --j) {
                    if (tau[j] == 0.0) continue;
                    v[j] = 1.0;
                    for (int64_t i = j + 1; i < m; ++i) v[i] = W[i * n + j];
                    for (int64_t c = 0; c < qc; ++c) {
                        double w = 0.0;
                        for (int64_t i = j; i < m; ++i) w += v[i] * Qb[i * qc + c];
                        w *= tau[j];
                        for (int64_t i = j; i < m; ++i) Qb[i * qc + c] -= v[i] * w;
                    }
                }
            }
        });
        copyCast(r, Rd);
        if (q.defined()) copyCast(q, Qd);
    });
}

}  // namespace impl::cpu
