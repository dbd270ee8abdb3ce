// Strided N-operand iteration with broadcasting, and the elementwise loops
// built on it. Operand 0 is the output: its shape drives the iteration and
// every input broadcasts to it (size-1 or missing dims get stride 0).
#pragma once

#include <array>
#include <tuple>
#include <type_traits>
#include <cstdint>
#include <utility>
#include <vector>

#include "parallel.hpp"
#include "tensor.hpp"

namespace impl::cpu {

/// A non-owning reference to a callable inner(char** ptrs, int64_t n, const
/// int64_t* strides), called once per run of the innermost dim. Plans take it
/// instead of a template parameter: the index walk and the threading are then
/// compiled once per operand count, not again for every kernel's lambda.
class RunRef {
    void* obj_;
    void (*call_)(void*, char**, int64_t, const int64_t*);

public:
    template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, RunRef>>>
    RunRef(F&& f)  // NOLINT: implicit, so plans are called with a lambda
        : obj_(const_cast<void*>(static_cast<const void*>(&f))),
          call_([](void* o, char** p, int64_t n, const int64_t* s) { (*static_cast<std::remove_reference_t<F>*>(o))(p, n, s); }) {}
    void operator()(char** p, int64_t n, const int64_t* s) const { call_(obj_, p, n, s); }
};

/// Iteration plan over `shape` for N operands with byte strides; adjacent
/// dims that are contiguous for every operand are merged, size-1 dims dropped.
template <size_t N>
struct StridedPlan {
    Shape shape;                           // coalesced sizes, outermost first
    std::array<Shape, N> strides;          // byte strides per operand
    std::array<char*, N> base{};
    int64_t numel = 1;

    StridedPlan(const Shape& outShape, const std::array<const TensorView*, N>& ops) {
        const int64_t nd = (int64_t)outShape.size();
        for (size_t k = 0; k < N; ++k) {
            const TensorView& t = *ops[k];
            base[k] = t.data;
            if (t.dim() > nd) fail("cannot broadcast shape ", shapeStr(t.shape), " to ", shapeStr(outShape));
        }
        numel = shapeNumel(outShape);
        // Broadcast each operand and drop size-1 dims.
        std::array<Shape, N> bs;
        Shape sz;
        for (int64_t d = 0; d < nd; ++d) {
            if (outShape[d] == 1) continue;
            sz.push_back(outShape[d]);
            for (size_t k = 0; k < N; ++k) {
                const TensorView& t = *ops[k];
                int64_t td = d - (nd - t.dim());
                int64_t st = 0;
                if (td >= 0) {
                    int64_t s = t.shape[td];
                    if (s == outShape[d]) st = t.strides[td] * t.itemsize;
                    else if (s != 1) fail("cannot broadcast shape ", shapeStr(t.shape), " to ", shapeStr(outShape));
                }
                bs[k].push_back(st);
            }
        }
        for (size_t k = 0; k < N; ++k) {
            const TensorView& t = *ops[k];
            int64_t off = nd - t.dim();
            for (int64_t d = 0; d < t.dim(); ++d)
                if (t.shape[d] != 1 && t.shape[d] != outShape[d + off])
                    fail("cannot broadcast shape ", shapeStr(t.shape), " to ", shapeStr(outShape));
        }
        // Merge dim i into i+1 (i outer) when stride[i] == stride[i+1] * size[i+1] for all operands.
        for (size_t i = 0; i < sz.size(); ++i) {
            if (!shape.empty()) {
                size_t j = shape.size() - 1;
                bool ok = true;
                for (size_t k = 0; k < N; ++k)
                    if (strides[k][j] != bs[k][i] * sz[i]) { ok = false; break; }
                if (ok) {
                    shape[j] *= sz[i];
                    for (size_t k = 0; k < N; ++k) strides[k][j] = bs[k][i];
                    continue;
                }
            }
            shape.push_back(sz[i]);
            for (size_t k = 0; k < N; ++k) strides[k].push_back(bs[k][i]);
        }
    }

    /// Calls inner(ptrs, n, innerStrides) over runs of the innermost dim, for
    /// the elements with linear (row-major) index in [begin, end).
    void run(int64_t begin, int64_t end, RunRef inner) const {
        const int64_t nd = (int64_t)shape.size();
        std::array<int64_t, N> istr{};
        if (nd == 0) {
            if (begin < end) {
                std::array<char*, N> p = base;
                inner(p.data(), int64_t(1), istr.data());
            }
            return;
        }
        for (size_t k = 0; k < N; ++k) istr[k] = strides[k][nd - 1];
        const int64_t inner_n = shape[nd - 1];
        std::vector<int64_t> idx(nd, 0);
        int64_t rem = begin;
        for (int64_t d = nd - 1; d >= 0; --d) {
            idx[d] = rem % shape[d];
            rem /= shape[d];
        }
        std::array<char*, N> p;
        int64_t pos = begin;
        while (pos < end) {
            for (size_t k = 0; k < N; ++k) {
                char* q = base[k];
                for (int64_t d = 0; d < nd; ++d) q += idx[d] * strides[k][d];
                p[k] = q;
            }
            int64_t n = std::min(inner_n - idx[nd - 1], end - pos);
            inner(p.data(), n, istr.data());
            pos += n;
            idx[nd - 1] += n;
            for (int64_t d = nd - 1; d > 0 && idx[d] >= shape[d]; --d) {
                idx[d] = 0;
                ++idx[d - 1];
            }
        }
    }

    /// Runs over all elements, split across threads when large.
    void runAll(RunRef inner, int64_t grain = kParallelGrain) const {
        parallelFor(numel, grain, [&](int64_t b, int64_t e) { run(b, e, inner); });
    }
};

/// True when `small` (contiguous) equals the trailing dims of `full`'s shape,
/// i.e. it repeats once per row of `full` (the common bias/row broadcast).
inline bool isRowOf(const TensorView& small, const Shape& full) {
    if (!small.isContiguous()) return false;
    size_t lead = 0;
    while (lead < small.shape.size() && small.shape[lead] == 1) ++lead;
    size_t n = small.shape.size() - lead;
    if (n > full.size()) return false;
    for (size_t i = 0; i < n; ++i)
        if (small.shape[lead + i] != full[full.size() - n + i]) return false;
    return true;
}

namespace detail {
/// o[i] = f(in0[i], ...) over n dense elements. One out-of-line copy per
/// instantiation, shared by the all-contiguous path and the dense runs of the
/// strided path: inlined into both, the vectorised loop (with its alias checks
/// and epilogues) was compiled twice for every operator and dtype.
template <class To, class... Ti, class F, size_t... I>
__attribute__((noinline)) void denseRun(To* o, const char* const* in, int64_t n, F& f, std::index_sequence<I...>) {
    for (int64_t i = 0; i < n; ++i) o[i] = f(reinterpret_cast<const Ti*>(in[I])[i]...);
}

template <class To, class... Ti, class F, size_t... I>
void elementwiseImpl(const TensorView& out, const std::array<const TensorView*, sizeof...(Ti)>& ins, F& f,
                     std::index_sequence<I...> seq) {
    constexpr size_t N = sizeof...(Ti) + 1;
    if (out.numel == 0) return;
    // Fast path: everything contiguous with the same shape -> plain typed loop.
    bool fast = out.isContiguous() && ((ins[I]->shape == out.shape && ins[I]->isContiguous()) && ...);
    if (fast) {
        To* o = out.ptr<To>();
        parallelFor(out.numel, kParallelGrain, [&](int64_t b, int64_t e) {
            const char* in[sizeof...(Ti) + 1] = {(ins[I]->data + b * (int64_t)sizeof(Ti))..., nullptr};
            denseRun<To, Ti...>(o + b, in, e - b, f, seq);
        });
        return;
    }
    std::array<const TensorView*, N> ops{&out, ins[I]...};
    StridedPlan<N> plan(out.shape, ops);
    plan.runAll([&](char** p, int64_t n, const int64_t* s) {
        // Runs that are dense in every operand (rows of a broadcast, say) get a loop on plain typed arrays:
        // GCC vectorises the generic stride loop below only where it happens to version it for unit
        // strides, which depends on how it was inlined (a uint8 broadcast was 25x slower on one thread).
        if (s[0] == (int64_t)sizeof(To) && ((s[I + 1] == (int64_t)sizeof(Ti)) && ...)) {
            return denseRun<To, Ti...>(reinterpret_cast<To*>(p[0]), p + 1, n, f, seq);
        }
        char* po = p[0];
        char* pi[N];
        (void)pi;  // unused when the functor takes no inputs (fills)
        for (size_t k = 0; k + 1 < N; ++k) pi[k] = p[k + 1];
        for (int64_t i = 0; i < n; ++i) {
            *reinterpret_cast<To*>(po) = f(*reinterpret_cast<const Ti*>(pi[I])...);
            po += s[0];
            ((pi[I] += s[I + 1]), ...);
        }
    });
}
}  // namespace detail

/// out[i] = f(in0[i], in1[i], ...) with the element types given explicitly:
/// elementwise<float, float, float>(out, {&a, &b}, [](float x, float y) { return x + y; });
/// Inputs broadcast to out's shape; any strides. `f` must not throw.
template <class To, class... Ti, class F>
void elementwise(const TensorView& out, std::array<const TensorView*, sizeof...(Ti)> ins, F&& f) {
    detail::elementwiseImpl<To, Ti...>(out, ins, f, std::index_sequence_for<Ti...>{});
}

/// Convenience wrappers for one, two and three inputs.
template <class To, class Ta, class F>
void unaryLoop(const TensorView& out, const TensorView& a, F&& f) { elementwise<To, Ta>(out, {&a}, f); }
template <class To, class Ta, class Tb, class F>
void binaryLoop(const TensorView& out, const TensorView& a, const TensorView& b, F&& f) {
    elementwise<To, Ta, Tb>(out, {&a, &b}, f);
}
template <class To, class Ta, class Tb, class Tc, class F>
void ternaryLoop(const TensorView& out, const TensorView& a, const TensorView& b, const TensorView& c, F&& f) {
    elementwise<To, Ta, Tb, Tc>(out, {&a, &b, &c}, f);
}

/// Fills every element of `out` (any strides) with value v of type T.
template <class T>
void fillWith(const TensorView& out, T v) {
    elementwise<T>(out, {}, [v]() { return v; });
}

}  // namespace impl::cpu
