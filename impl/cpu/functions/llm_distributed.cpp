// Fused distributed operators. This library runs in one process without a communicator, so every collective
// spans a world of one rank.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "common/common.hpp"
#include "common/gemm.hpp"

namespace impl::cpu {

namespace {

// v seen as (batch, rows, cols): the leading dims merged into one batch dim; a contiguous copy when their strides
// do not allow the merge.
TensorView as3d(diopiContextHandle_t ctx, const TensorView& v, diopiDtype_t dtype, bool& copied) {
    const int64_t nd = v.dim();
    int64_t b = 1, bs = 0;
    copied = false;
    TensorView src = v;
    if (!mergeDims(v, 0, nd - 2, b, bs)) {
        src = contiguousAs(ctx, v, dtype);
        copied = true;
        mergeDims(src, 0, nd - 2, b, bs);
    }
    return src.restrided({b, v.shape[nd - 2], v.shape[nd - 1]}, {bs, src.strides[nd - 2], src.strides[nd - 1]});
}

/// out (rows x N) = a (rows x K) @ b (K x N) (+ bias) with the depth split across threads, for the
/// shape of a row-parallel layer: few rows and outputs, a long K. Each thread multiplies its slice of
/// K into a partial product of its own (one pass over its part of a and b, where splitting rows would
/// make every thread pack all of b), and the partials are summed. Returns false (nothing done) for
/// other shapes, or on one thread.
bool splitDepthMatmul(diopiContextHandle_t ctx, const TensorView& o, const TensorView& a, const TensorView& b, const TensorView& c) {
    const int64_t nd = a.dim(), K = b.shape[0], N = b.shape[1];
    int64_t rows, rs, orows, ors;
    if (!mergeDims(a, 0, nd - 1, rows, rs) || !mergeDims(o, 0, nd - 1, orows, ors)) return false;
    int nt = 1;
#ifdef _OPENMP
    nt = inParallelRegion() ? 1 : omp_get_max_threads();
#endif
    constexpr int64_t kMinSlice = 4096;  // depth per thread: keeps the partial sums a small fraction of the work
    if (nt < 2 || rows * N > 4096 || K < 2 * kMinSlice || rows * N * K < (int64_t(1) << 21)) return false;
    const int64_t parts = std::min<int64_t>(nt, K / kMinSlice);
    const bool dbl = o.dtype == diopi_dtype_float64;
    const diopiDtype_t wd = dbl ? diopi_dtype_float64 : diopi_dtype_float32;
    // Operands in double for a float64 out; otherwise as they are (the float GEMM reads 16-bit floats), float64 narrowed.
    auto opDtype = [&](diopiDtype_t dt) { return dbl || dt == diopi_dtype_float64 ? wd : dt; };
    TensorView av = castTo(ctx, a.restrided({rows, a.shape[nd - 1]}, {rs, a.strides[nd - 1]}), opDtype(a.dtype));
    TensorView bv = castTo(ctx, b, opDtype(b.dtype));
    TensorView part = newTensor(ctx, {parts, rows, N}, wd);
    const int64_t as0 = av.strides[0], as1 = av.strides[1], bs0 = bv.strides[0], bs1 = bv.strides[1];
    const int64_t ia = av.itemsize, ib = bv.itemsize;
    bool failed = false;
    parallelFor(parts, 1, [&](int64_t p0, int64_t p1) {
        for (int64_t p = p0; p < p1; ++p) {
            const int64_t k0 = K * p / parts, k1 = K * (p + 1) / parts;
            try {
                if (dbl) {
                    dgemm(rows, N, k1 - k0, 1.0, MatRef(av.data + k0 * as1 * ia, av.dtype, as0, as1), MatRef(bv.data + k0 * bs0 * ib, bv.dtype, bs0, bs1),
                          0.0, part.ptr<double>() + p * rows * N, N, 1);
                } else {
                    sgemm(rows, N, k1 - k0, 1.f, MatRef(av.data + k0 * as1 * ia, av.dtype, as0, as1), MatRef(bv.data + k0 * bs0 * ib, bv.dtype, bs0, bs1),
                          0.f, part.ptr<float>() + p * rows * N, N, 1);
                }
            } catch (...) {
#pragma omp atomic write
                failed = true;
            }
        }
    });
    if (failed) fail("a worker thread failed (out of memory?)");
    // Partials summed into the first (all dense), plus the bias of each column.
    TensorView cw = c.defined() ? castTo(ctx, c, wd) : c;
    auto reduce = [&](auto* s) {
        using W = std::remove_pointer_t<decltype(s)>;
        for (int64_t p = 1; p < parts; ++p)
            for (int64_t i = 0; i < rows * N; ++i) s[i] += s[p * rows * N + i];
        if (!cw.defined()) return;
        const W* bias = cw.ptr<W>();
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t j = 0; j < N; ++j) s[r * N + j] += bias[j * cw.strides[0]];
    };
    if (dbl) reduce(part.ptr<double>());
    else reduce(part.ptr<float>());
    TensorView sum = part.restrided({rows, N}, {N, 1});
    copyCast(o.restrided({orows, N}, {ors, o.strides[nd - 1]}), sum);
    return true;
}

}  // namespace

// out = x1 @ x2 (+ bias) followed by an all-reduce over `group`. This library has no collective interface and so no
// communicators: every group is a world of one (as diopi/functions_ext.h allows). With one rank the reduction is the identity, so
// `group`, comm_turn and stream_mode have no effect; reduce_op must be "sum" (NULL or "" mean "sum"), as any other
// reduction over several ranks would not be a plain matmul. x1 (..., M, K), x2 (K, N), bias NULL or (N).
diopiError_t diopiMatmulAllReduce(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t x1, diopiConstTensorHandle_t x2,
                                  diopiConstTensorHandle_t bias, const char* group, const char* reduce_op, int64_t comm_turn, int64_t stream_mode) {
    return guard(__func__, [&] {
        CPU_CHECK(reduce_op == nullptr || reduce_op[0] == '\0' || std::strcmp(reduce_op, "sum") == 0, "reduce_op must be \"sum\", got \"",
                  reduce_op ? reduce_op : "", "\"");
        TensorView o = view(out, "out"), a = view(x1, "x1"), b = view(x2, "x2"), c = viewOpt(bias, "bias");
        dispatch<FloatTypes>(a.dtype, "x1", [](auto) {});
        dispatch<FloatTypes>(b.dtype, "x2", [](auto) {});
        dispatch<FloatTypes>(o.dtype, "out", [](auto) {});
        if (c.defined()) dispatch<FloatTypes>(c.dtype, "bias", [](auto) {});
        CPU_CHECK(a.dim() >= 2, "x1 must have at least 2 dims (..., M, K), got ", shapeStr(a.shape));
        CPU_CHECK(b.dim() == 2, "x2 must be 2-D (K, N), got ", shapeStr(b.shape));
        CPU_CHECK(a.size(-1) == b.size(0), "x1 ", shapeStr(a.shape), " and x2 ", shapeStr(b.shape), " cannot be multiplied");
        Shape want(a.shape.begin(), a.shape.end() - 1);
        want.push_back(b.size(1));
        CPU_CHECK(o.shape == want, "out shape ", shapeStr(o.shape), " must be ", shapeStr(want));
        if (c.defined()) CPU_CHECK(c.dim() == 1 && c.size(0) == b.size(1), "bias must have shape (", b.size(1), "), got ", shapeStr(c.shape));
        if (o.numel == 0) return;
        if (splitDepthMatmul(ctx, o, a, b, c)) return;
        bool copiedA = false, copiedO = false;
        TensorView a3 = as3d(ctx, a, a.dtype, copiedA);
        TensorView o3 = as3d(ctx, o, o.dtype, copiedO);
        TensorView tmp;
        if (copiedO) {  // out's leading dims cannot be merged: compute into a dense temporary
            tmp = newTensor(ctx, o.shape, o.dtype);
            o3 = tmp.restrided(o3.shape, contiguousStrides(o3.shape));
        }
        TensorView b3 = b.restrided({1, b.shape[0], b.shape[1]}, {0, b.strides[0], b.strides[1]});
        matmulViews(ctx, o3, a3, b3, 1.0, c.defined() ? 1.0 : 0.0, c.defined() ? &c : nullptr);
        if (copiedO) copyCast(o, tmp);
    });
}

}  // namespace impl::cpu
