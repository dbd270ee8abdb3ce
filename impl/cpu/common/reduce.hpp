// Reductions over a set of dims, and per-line loops along one dim
// (scans, softmax, sort-like kernels).
#pragma once

#include <array>
#include <vector>

#include "loops.hpp"

namespace impl::cpu {

/// Which dims of `in` are reduced: the listed ones (negative allowed), or
/// every dim when the list is empty. Fails on out-of-range or repeated dims.
std::vector<bool> reduceMask(const TensorView& in, diopiSize_t dims);
std::vector<bool> reduceMask(const TensorView& in, const std::vector<int64_t>& dims);
/// Shape of the result with reduced dims kept as size 1 (keepdim form).
Shape keptShape(const TensorView& in, const std::vector<bool>& mask);
/// Shape with reduced dims removed.
Shape squeezedShape(const TensorView& in, const std::vector<bool>& mask);
/// `out` seen with the keepdim shape: accepts an out with the input's rank
/// (keepdim) or with the reduced dims removed; fails on any other shape.
TensorView asKeepdim(const TensorView& out, const TensorView& in, const std::vector<bool>& mask, const char* name = "out");
/// DIOPI reductions infer keepdim from the output's rank.
inline bool keepdimFrom(const TensorView& out, const TensorView& in) { return in.dim() > 0 && out.dim() == in.dim(); }

/// The reduced part of a reduction: visits the elements of one output
/// position's reduction window in row-major order.
struct ReduceWindow {
    Shape sizes;    // coalesced reduced sizes
    Shape strides;  // byte strides
    int64_t numel = 1;

    /// g(const char* elem, int64_t k) for k = 0 .. numel-1.
    template <class G>
    void each(const char* base, G&& g) const {
        const size_t nd = sizes.size();
        if (nd == 0) {
            g(base, int64_t(0));
            return;
        }
        if (nd == 1) {
            const int64_t s = strides[0];
            for (int64_t k = 0; k < sizes[0]; ++k) g(base + k * s, k);
            return;
        }
        std::vector<int64_t> idx(nd, 0);
        const int64_t inner = sizes[nd - 1], is = strides[nd - 1];
        int64_t k = 0;
        while (k < numel) {
            const char* p = base;
            for (size_t d = 0; d + 1 < nd; ++d) p += idx[d] * strides[d];
            for (int64_t j = 0; j < inner; ++j) g(p + j * is, k++);
            for (size_t d = nd - 1; d-- > 0;) {
                if (++idx[d] < sizes[d]) break;
                idx[d] = 0;
            }
        }
    }
};

ReduceWindow makeWindow(const TensorView& in, const std::vector<bool>& mask);

/// For every output position calls f(outPtrs, inBase, window): outPtrs[k]
/// points at that position's element in outs[k] (keepdim-shaped views, see
/// asKeepdim), inBase at the first element of its window in `in`.
/// `f` must not throw (it may run on OpenMP threads).
template <size_t NO, class F>
void reduceLoop(const std::array<const TensorView*, NO>& outs, const TensorView& in, const std::vector<bool>& mask, F&& f) {
    ReduceWindow win = makeWindow(in, mask);
    TensorView inKept = in.restrided(keptShape(in, mask), in.strides);
    std::array<const TensorView*, NO + 1> ops;
    for (size_t k = 0; k < NO; ++k) ops[k] = outs[k];
    ops[NO] = &inKept;
    StridedPlan<NO + 1> plan(inKept.shape, ops);
    // At least 2: parallelFor would otherwise open a one-thread region for a
    // single output position, and a parallel loop inside the callback (a full
    // reduction splits its window, see reduction_scan.cpp) would then start
    // nested threads on every call (milliseconds under load).
    int64_t grain = std::max<int64_t>(2, kParallelGrain / std::max<int64_t>(1, win.numel));
    plan.runAll(
        [&](char** p, int64_t n, const int64_t* s) {
            std::array<char*, NO> po;
            for (size_t k = 0; k < NO; ++k) po[k] = p[k];
            const char* pi = p[NO];
            for (int64_t i = 0; i < n; ++i) {
                f(po.data(), pi, win);
                for (size_t k = 0; k < NO; ++k) po[k] += s[k];
                pi += s[NO];
            }
        },
        grain);
}

/// For tensors of one shape, calls f(bases) once per line along `dim`:
/// bases[k] is the line start in ts[k]; step with ts[k]->stride(dim) elements.
/// `f` must not throw.
template <size_t N, class F>
void lineLoop(const std::array<const TensorView*, N>& ts, int64_t dim, F&& f) {
    const TensorView& t0 = *ts[0];
    if (t0.numel == 0) return;
    Shape outer = t0.shape;
    int64_t len = 1;
    if (!outer.empty()) {
        len = outer[dim];
        outer[dim] = 1;
    }
    std::array<TensorView, N> vs;
    std::array<const TensorView*, N> ops;
    for (size_t k = 0; k < N; ++k) {
        CPU_CHECK(ts[k]->shape == t0.shape, "shape mismatch: ", shapeStr(ts[k]->shape), " vs ", shapeStr(t0.shape));
        vs[k] = ts[k]->restrided(outer, ts[k]->strides);
        ops[k] = &vs[k];
    }
    StridedPlan<N> plan(outer, ops);
    int64_t grain = std::max<int64_t>(2, kParallelGrain / std::max<int64_t>(1, len));  // >= 2: see reduceLoop
    plan.runAll(
        [&](char** p, int64_t n, const int64_t* s) {
            std::array<char*, N> b;
            for (size_t k = 0; k < N; ++k) b[k] = p[k];
            for (int64_t i = 0; i < n; ++i) {
                f(b.data());
                for (size_t k = 0; k < N; ++k) b[k] += s[k];
            }
        },
        grain);
}

}  // namespace impl::cpu
