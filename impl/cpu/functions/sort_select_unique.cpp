// Family sort_select_unique: sort (+ backward), argsort, topk, unique.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <numeric>
#include <utility>
#include <vector>

#include "common/common.hpp"
#include "common/fastmath.hpp"
#include "common/isa.hpp"
#include "common/movement.hpp"

namespace impl::cpu {

namespace {

using IndexTypes = TypeList<int32_t, int64_t>;
using SortTypes = TypeList<float, Half, BFloat16, double, int32_t, int64_t, int8_t, uint8_t, int16_t, bool>;
/// unique also sees 64-bit dtypes when the adaptor leaves them unconverted.
using UniqueTypes = TypeList<float, Half, BFloat16, double, int32_t, int64_t, int8_t, uint8_t, int16_t, bool>;

/// Comparison value of an element: floats compare as float, the rest as themselves.
template <class T>
using key_t = std::conditional_t<is_reduced_float_v<T>, float, std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>>;

template <class K>
inline bool isNanK(K v) {
    if constexpr (std::is_floating_point_v<K>) return std::isnan(v);
    else return false;
}

/// Strict order with NaN above every number (NaNs compare equal among themselves).
template <class K>
inline bool lessNan(K a, K b) {
    if constexpr (std::is_floating_point_v<K>) return a < b || (std::isnan(b) && !std::isnan(a));
    else return a < b;
}

/// Calls f(bases) once per line along `dim` of tensors that agree on every
/// other dim (their extents along `dim` may differ). 0-d tensors are one line.
template <size_t N, class F>
void linesAlong(const std::array<const TensorView*, N>& ts, int64_t dim, F&& f) {
    const TensorView& t0 = *ts[0];
    Shape outer = t0.shape;
    if (!outer.empty()) outer[dim] = 1;
    if (shapeNumel(outer) == 0) return;
    std::array<TensorView, N> vs;
    std::array<const TensorView*, N> ops;
    for (size_t k = 0; k < N; ++k) {
        const TensorView& t = *ts[k];
        CPU_CHECK(t.dim() == t0.dim(), "rank mismatch: ", shapeStr(t.shape), " vs ", shapeStr(t0.shape));
        for (int64_t d = 0; d < t.dim(); ++d)
            CPU_CHECK(d == dim || t.shape[d] == t0.shape[d], "shape mismatch outside dim ", dim, ": ", shapeStr(t.shape), " vs ",
                      shapeStr(t0.shape));
        vs[k] = t.restrided(outer, t.strides);
        ops[k] = &vs[k];
    }
    StridedPlan<N> plan(outer, ops);
    const int64_t len = t0.dim() ? std::max<int64_t>(1, t0.shape[dim]) : 1;
    plan.runAll(
        [&](char** p, int64_t n, const int64_t* s) {
            std::array<char*, N> b;
            for (size_t k = 0; k < N; ++k) b[k] = p[k];
            for (int64_t i = 0; i < n; ++i) {
                f(b.data());
                for (size_t k = 0; k < N; ++k) b[k] += s[k];
            }
        },
        std::max<int64_t>(1, kParallelGrain / len));
}

inline int64_t extent(const TensorView& t, int64_t d) { return t.dim() ? t.shape[d] : 1; }
inline int64_t strideAt(const TensorView& t, int64_t d) { return t.dim() ? t.strides[d] : 0; }

/// Per-thread scratch of (key, position) pairs; reused across lines.
template <class K>
std::vector<std::pair<K, int64_t>>& scratch(int64_t n) {
    thread_local std::vector<std::pair<K, int64_t>> buf;
    buf.resize((size_t)n);
    return buf;
}

// ---- radix sort on order-preserving unsigned keys
// Every element maps to an unsigned integer whose order is the element order of torch.sort (NaN above every number,
// -0.0 equal to 0.0); descending complements it. A stable LSD radix sort of (key, position) pairs then gives the
// stable order directly, which is several times faster than a comparison sort of pairs.

/// Unsigned key type of T: 32 bits up to 32-bit types, 64 bits for double / int64.
template <class T>
using ukey_t = std::conditional_t<(sizeof(T) > 4), uint64_t, uint32_t>;

template <class T>
CPU_FORCE_INLINE ukey_t<T> orderKey(T v) {
    if constexpr (std::is_same_v<T, double>) {
        uint64_t u;
        if (std::isnan(v)) return ~uint64_t(0);  // every NaN is the largest and they tie
        if (v == 0.0) v = 0.0;                   // -0.0 ties with 0.0
        std::memcpy(&u, &v, 8);
        return (u >> 63) ? ~u : (u | (uint64_t(1) << 63));
    } else if constexpr (is_floating_v<T>) {
        // Branch-free (vectorises): sign-magnitude bits to an unsigned order; -0 ties with 0, NaN is the largest.
        const float f = float(v);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        const uint32_t k = u ^ ((uint32_t)((int32_t)u >> 31) | 0x80000000u);
        const uint32_t z = f == 0.0f ? 0x80000000u : k;
        return __builtin_isnan(f) ? ~uint32_t(0) : z;
    } else if constexpr (std::is_same_v<T, int64_t>) {
        return uint64_t(v) ^ (uint64_t(1) << 63);
    } else if constexpr (std::is_signed_v<T>) {
        return uint32_t(int32_t(v)) ^ 0x80000000u;
    } else {
        return uint32_t(v);
    }
}

template <class U>
struct KeyPos {
    U k;
    uint32_t i;
};

/// Lines longer than this fall back to a comparison sort (positions no longer fit 32 bits).
constexpr int64_t kRadixMaxLine = int64_t(1) << 32;

/// Sorts a[0..n) stably by key (tmp: scratch of n pairs); the result is in a (swapped with tmp as needed).
template <class U>
void radixSortPairs(std::vector<KeyPos<U>>& a, std::vector<KeyPos<U>>& tmp, int64_t n) {
    constexpr int kBytes = sizeof(U);
    if (n <= 64) {
        // Insertion sort: small lines pay no histogram cost; strict > keeps it stable.
        for (int64_t j = 1; j < n; ++j) {
            KeyPos<U> x = a[j];
            int64_t p = j;
            while (p > 0 && a[p - 1].k > x.k) {
                a[p] = a[p - 1];
                --p;
            }
            a[p] = x;
        }
        return;
    }
    uint32_t hist[kBytes][256];
    std::memset(hist, 0, sizeof(hist));
    for (int64_t j = 0; j < n; ++j) {
        U k = a[j].k;
        for (int b = 0; b < kBytes; ++b) ++hist[b][(k >> (8 * b)) & 0xff];
    }
    tmp.resize((size_t)n);
    KeyPos<U>* src = a.data();
    KeyPos<U>* dst = tmp.data();
    for (int b = 0; b < kBytes; ++b) {
        uint32_t* h = hist[b];
        // A byte every key shares leaves the order as it is.
        if (h[(src[0].k >> (8 * b)) & 0xff] == (uint32_t)n) continue;
        uint32_t sum = 0;
        for (int c = 0; c < 256; ++c) {
            uint32_t t = h[c];
            h[c] = sum;
            sum += t;
        }
        for (int64_t j = 0; j < n; ++j) dst[h[(src[j].k >> (8 * b)) & 0xff]++] = src[j];
        std::swap(src, dst);
    }
    if (src != a.data()) std::memcpy(a.data(), src, (size_t)n * sizeof(KeyPos<U>));
}

/// Stable order of one line of n elements read at x (element stride sx): returns (key, position) pairs in order.
template <class T>
std::vector<KeyPos<ukey_t<T>>>& orderLine(const T* x, int64_t sx, int64_t n, bool descending) {
    using U = ukey_t<T>;
    thread_local std::vector<KeyPos<U>> a, tmp;
    a.resize((size_t)n);
    const U flip = descending ? ~U(0) : U(0);
    if (sx == 1) {
        for (int64_t j = 0; j < n; ++j) a[j] = {U(orderKey<T>(x[j]) ^ flip), (uint32_t)j};
    } else {
        for (int64_t j = 0; j < n; ++j) a[j] = {U(orderKey<T>(x[j * sx]) ^ flip), (uint32_t)j};
    }
    radixSortPairs<U>(a, tmp, n);
    return a;
}

/// Whether any of x[0, n) has an order key (xor flip) below thr: the scan topk runs over most of a long line, compiled
/// per instruction-set level for float lines (the key transform and compare vectorise).
template <class T>
CPU_FORCE_INLINE bool anyKeyBelowImpl(const T* x, int64_t n, ukey_t<T> thr, ukey_t<T> flip) {
    using U = ukey_t<T>;
    U hit = 0;
    for (int64_t t = 0; t < n; ++t) hit |= U(U(orderKey<T>(x[t]) ^ flip) < thr);
    return hit != 0;
}
inline bool anyKeyBelowBase(const float* x, int64_t n, uint32_t thr, uint32_t flip) { return anyKeyBelowImpl<float>(x, n, thr, flip); }
#if CPU_HAVE_X86_LEVELS
CPU_TARGET_AVX2 inline bool anyKeyBelowAvx2(const float* x, int64_t n, uint32_t thr, uint32_t flip) { return anyKeyBelowImpl<float>(x, n, thr, flip); }
CPU_TARGET_AVX512 inline bool anyKeyBelowAvx512(const float* x, int64_t n, uint32_t thr, uint32_t flip) {
    return anyKeyBelowImpl<float>(x, n, thr, flip);
}
#endif
inline bool (*anyKeyBelowF())(const float*, int64_t, uint32_t, uint32_t) {
#if CPU_HAVE_X86_LEVELS
    if (isa() == Isa::Avx512) return anyKeyBelowAvx512;
    if (isa() == Isa::Avx2) return anyKeyBelowAvx2;
#endif
    return anyKeyBelowBase;
}

template <class U>
inline bool keyPosLess(const KeyPos<U>& a, const KeyPos<U>& b) {
    return a.k < b.k || (a.k == b.k && a.i < b.i);
}

/// Per-thread heap of topk's k best (key, position) pairs.
template <class U>
std::vector<KeyPos<U>>& topkHeap(int64_t k) {
    thread_local std::vector<KeyPos<U>> h;
    h.resize((size_t)k);
    return h;
}

/// Bound on the elements of one line, so per-line scratch cannot fail mid-loop.
void checkLine(int64_t n) { CPU_CHECK(n < kRadixMaxLine, "a line of ", n, " elements is too long to sort"); }

void sortImpl(diopiContextHandle_t ctx, const TensorView* values, const TensorView& indices, TensorView in, int64_t dim, bool descending) {
    const int64_t d = in.wrapDim(dim);
    if (values) CPU_CHECK(values->shape == in.shape, "values shape ", shapeStr(values->shape), " differs from input shape ", shapeStr(in.shape));
    CPU_CHECK(indices.shape == in.shape, "indices shape ", shapeStr(indices.shape), " differs from input shape ", shapeStr(in.shape));
    if (values) in = castTo(ctx, in, values->dtype);
    const int64_t n = extent(in, d);
    checkLine(n);
    const int64_t si = strideAt(in, d), sv = values ? strideAt(*values, d) : 0, sx = strideAt(indices, d);
    dispatch<SortTypes>(in.dtype, "input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        dispatch<IndexTypes>(indices.dtype, "indices", [&](auto itag) {
            using I = typename decltype(itag)::type;
            if (values) {
                linesAlong<3>({&in, values, &indices}, d, [&](char** b) {
                    const T* x = reinterpret_cast<const T*>(b[0]);
                    auto& v = orderLine<T>(x, si, n, descending);
                    T* ov = reinterpret_cast<T*>(b[1]);
                    I* oi = reinterpret_cast<I*>(b[2]);
                    for (int64_t j = 0; j < n; ++j) {
                        const int64_t p = v[j].i;
                        ov[j * sv] = x[p * si];
                        oi[j * sx] = I(p);
                    }
                });
            } else {
                linesAlong<2>({&in, &indices}, d, [&](char** b) {
                    auto& v = orderLine<T>(reinterpret_cast<const T*>(b[0]), si, n, descending);
                    I* oi = reinterpret_cast<I*>(b[1]);
                    for (int64_t j = 0; j < n; ++j) oi[j * sx] = I(v[j].i);
                });
            }
        });
    });
}

// ---------------------------------------------------------------- unique helpers
/// Stores a 1-d int64 vector into a callee-allocated tensor.
TensorView newInt64(diopiContextHandle_t ctx, const std::vector<int64_t>& v) {
    TensorView t = newTensor(ctx, Shape{(int64_t)v.size()}, diopi_dtype_int64);
    std::copy(v.begin(), v.end(), t.ptr<int64_t>());
    return t;
}

/// Writes an int64 buffer of `shape` into a caller tensor of any index dtype/strides.
void writeIndices(diopiContextHandle_t ctx, const TensorView& dst, const Shape& shape, const std::vector<int64_t>& v) {
    CPU_CHECK(dst.shape == shape, "indices has shape ", shapeStr(dst.shape), ", expected ", shapeStr(shape));
    if (!isIntegralDtype(dst.dtype)) failCode(diopiDtypeNotSupported, "indices dtype ", dtypeName(dst.dtype), " is not supported");
    TensorView tmp = newTensor(ctx, shape, diopi_dtype_int64);
    std::copy(v.begin(), v.end(), tmp.ptr<int64_t>());
    copyCast(dst, tmp);
}

}  // namespace

diopiError_t diopiSort(diopiContextHandle_t ctx, diopiTensorHandle_t values, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                       int64_t dim, bool descending, const bool* pStable) {
    return guard(__func__, [&] {
        // The sort is always stable, which also satisfies a caller that does not ask for stability.
        TensorView v = view(values, "values");
        sortImpl(ctx, &v, view(indices, "indices"), view(input, "input"), dim, descending);
    });
}

diopiError_t diopiArgsort(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, bool stable, const int64_t* dim,
                          bool descending) {
    return guard(__func__, [&] { sortImpl(ctx, nullptr, view(out, "out"), view(input, "input"), dim ? *dim : -1, descending); });
}

diopiError_t diopiTopk(diopiContextHandle_t ctx, diopiTensorHandle_t values, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                       int64_t k, int64_t dim, bool largest, bool sorted) {
    return guard(__func__, [&] {
        TensorView ov = view(values, "values"), oi = view(indices, "indices"), in = view(input, "input");
        const int64_t d = in.wrapDim(dim);
        const int64_t n = extent(in, d);
        CPU_CHECK(k >= 0 && k <= n, "k (", k, ") out of range for a dimension of size ", n);
        Shape expect = in.shape;
        if (!expect.empty()) expect[d] = k;
        CPU_CHECK(ov.shape == expect, "values has shape ", shapeStr(ov.shape), ", expected ", shapeStr(expect));
        CPU_CHECK(oi.shape == expect, "indices has shape ", shapeStr(oi.shape), ", expected ", shapeStr(expect));
        checkLine(n);
        if (k == 0) return;
        in = castTo(ctx, in, ov.dtype);
        const int64_t si = strideAt(in, d), sv = strideAt(ov, d), sx = strideAt(oi, d);
        dispatch<SortTypes>(in.dtype, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            using K = key_t<T>;
            dispatch<IndexTypes>(oi.dtype, "indices", [&](auto itag) {
                using I = typename decltype(itag)::type;
                linesAlong<3>({&in, &ov, &oi}, d, [&](char** b) {
                    const T* x = reinterpret_cast<const T*>(b[0]);
                    if (k * 8 <= n) {
                        // Few results: keep the k best in a heap while scanning; most elements fail one compare.
                        using U = ukey_t<T>;
                        const U flip = largest ? ~U(0) : U(0);  // the best elements have the smallest keys
                        const auto scanF = anyKeyBelowF();
                        auto& h = topkHeap<U>(k);
                        for (int64_t j = 0; j < k; ++j) h[j] = {U(orderKey<T>(x[j * si]) ^ flip), (uint32_t)j};
                        std::make_heap(h.begin(), h.end(), keyPosLess<U>);
                        auto offer = [&](U key, int64_t j) {
                            if (key < h.front().k) {  // equal keys keep the earlier position
                                std::pop_heap(h.begin(), h.end(), keyPosLess<U>);
                                h.back() = {key, (uint32_t)j};
                                std::push_heap(h.begin(), h.end(), keyPosLess<U>);
                            }
                        };
                        int64_t j = k;
                        if (si == 1) {
                            // Blocks that hold no candidate are skipped after a vectorisable scan.
                            constexpr int64_t kChunk = 64;
                            for (; j + kChunk <= n; j += kChunk) {
                                const U thr = h.front().k;
                                bool any;
                                if constexpr (std::is_same_v<T, float>) any = scanF(x + j, kChunk, thr, flip);
                                else any = anyKeyBelowImpl<T>(x + j, kChunk, thr, flip);
                                if (!any) continue;
                                for (int64_t t = 0; t < kChunk; ++t) offer(U(orderKey<T>(x[j + t]) ^ flip), j + t);
                            }
                        }
                        for (; j < n; ++j) offer(U(orderKey<T>(x[j * si]) ^ flip), j);
                        std::sort_heap(h.begin(), h.end(), keyPosLess<U>);
                        T* pv = reinterpret_cast<T*>(b[1]);
                        I* pi = reinterpret_cast<I*>(b[2]);
                        for (int64_t t = 0; t < k; ++t) {
                            pv[t * sv] = x[(int64_t)h[t].i * si];
                            pi[t * sx] = I(h[t].i);
                        }
                        return;
                    }
                    auto& v = scratch<K>(n);
                    for (int64_t j = 0; j < n; ++j) v[j] = {K(x[j * si]), j};
                    // Ties go to the lower position, so the result is deterministic.
                    auto cmp = [largest](const std::pair<K, int64_t>& a, const std::pair<K, int64_t>& b) {
                        if (largest ? lessNan(b.first, a.first) : lessNan(a.first, b.first)) return true;
                        if (largest ? lessNan(a.first, b.first) : lessNan(b.first, a.first)) return false;
                        return a.second < b.second;
                    };
                    // Sorted output either way: a valid order for sorted=false too.
                    std::partial_sort(v.begin(), v.begin() + k, v.end(), cmp);
                    T* pv = reinterpret_cast<T*>(b[1]);
                    I* pi = reinterpret_cast<I*>(b[2]);
                    for (int64_t j = 0; j < k; ++j) {
                        pv[j * sv] = T(v[j].first);
                        pi[j * sx] = I(v[j].second);
                    }
                });
            });
        });
    });
}

diopiError_t diopiSortBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output, int64_t dim,
                               diopiConstTensorHandle_t indices, diopiSize_t sizes, bool keepdim) {
    return guard(__func__, [&] {
        TensorView gi = view(grad_input, "grad_input"), go = view(grad_output, "grad_output"), idx = view(indices, "indices");
        Shape full = toShape(sizes);
        CPU_CHECK(gi.shape == full, "grad_input has shape ", shapeStr(gi.shape), ", expected sizes ", shapeStr(full));
        if (!isFloatingDtype(gi.dtype)) failCode(diopiDtypeNotSupported, "grad_input dtype ", dtypeName(gi.dtype), " is not supported");
        const int64_t d = gi.wrapDim(dim);
        CPU_CHECK(go.shape == idx.shape, "grad_output shape ", shapeStr(go.shape), " differs from indices shape ", shapeStr(idx.shape));
        go = castTo(ctx, go, gi.dtype);
        if (!keepdim && gi.dim() > 0) {
            // Re-insert the selected dim with extent 1.
            CPU_CHECK(go.dim() == gi.dim() - 1, "grad_output rank ", go.dim(), " should be ", gi.dim() - 1, " when keepdim is false");
            auto ins = [d](const TensorView& t) {
                Shape s = t.shape, st = t.strides;
                s.insert(s.begin() + d, 1);
                st.insert(st.begin() + d, 0);
                return t.restrided(s, st);
            };
            go = ins(go);
            idx = ins(idx);
        }
        const int64_t n = extent(gi, d), m = extent(go, d);
        const int64_t s0 = strideAt(gi, d), s1 = strideAt(go, d), s2 = strideAt(idx, d);
        std::atomic<bool> bad{false};
        dispatch<FloatTypes>(gi.dtype, "grad_input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            // Each line is zeroed right before its scatter, while it is in cache (one pass over grad_input).
            if (n == 0 || gi.numel == 0) return;
            dispatch<IndexTypes>(idx.dtype, "indices", [&](auto itag) {
                using I = typename decltype(itag)::type;
                const auto range = indexRangeFn<I>();
                linesAlong<3>({&gi, &go, &idx}, d, [&bad, n, m, s0, s1, s2, range](char** b) {
                    T* r = reinterpret_cast<T*>(b[0]);
                    const T* g = reinterpret_cast<const T*>(b[1]);
                    const I* ix = reinterpret_cast<const I*>(b[2]);
                    if (s0 == 1) std::memset(static_cast<void*>(r), 0, (size_t)n * sizeof(T));
                    else
                        for (int64_t j = 0; j < n; ++j) r[j * s0] = T(0.0f);
                    // Validate the whole line first so the scatter loop has no branch.
                    bool ok = true;
                    if (s2 == 1) {
                        int64_t lo = 0, hi = 0;
                        if (m > 0) range(ix, m, lo, hi);
                        ok = lo >= 0 && hi < n;
                    } else {
                        for (int64_t j = 0; j < m; ++j) ok &= (uint64_t)(int64_t)ix[j * s2] < (uint64_t)n;
                    }
                    if (!ok) {
                        bad.store(true, std::memory_order_relaxed);
                        return;
                    }
                    if (s0 == 1 && s1 == 1 && s2 == 1) {
                        for (int64_t j = 0; j < m; ++j) r[(int64_t)ix[j]] = g[j];
                    } else {
                        for (int64_t j = 0; j < m; ++j) r[(int64_t)ix[j * s2] * s0] = g[j * s1];
                    }
                });
            });
        });
        CPU_CHECK(!bad.load(), "indices hold a position outside [0, ", n, ")");
    });
}

diopiError_t diopiUnique(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input, const int64_t* dim, bool sorted,
                         bool return_counts, diopiTensorHandle_t indices, diopiTensorHandle_t* counts) {
    return guard(__func__, [&] {
        CPU_CHECK(out != nullptr, "out is NULL");
        CPU_CHECK(!return_counts || counts != nullptr, "return_counts is set but counts is NULL");
        TensorView in = view(input, "input");
        TensorView inv = viewOpt(indices, "indices");
        // Distinct values are always returned sorted: that is a valid order for sorted=false too.
        dispatch<UniqueTypes>(in.dtype, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            using K = key_t<T>;
            if (dim == nullptr) {
                TensorView c = contiguousAs(ctx, in, in.dtype);
                const int64_t n = c.numel;
                const T* x = c.ptr<T>();
                checkLine(n);
                auto& v = orderLine<T>(x, 1, n, false);
                std::vector<int64_t> inverse((size_t)n), cnt;
                std::vector<K> uniq;
                for (int64_t j = 0; j < n; ++j) {
                    const K val = K(x[v[j].i]);
                    // NaNs never compare equal, so each stays distinct (as torch.unique does).
                    if (uniq.empty() || !(val == uniq.back())) {
                        uniq.push_back(val);
                        cnt.push_back(0);
                    }
                    cnt.back() += 1;
                    inverse[v[j].i] = (int64_t)uniq.size() - 1;
                }
                TensorView o = newTensor(ctx, Shape{(int64_t)uniq.size()}, in.dtype);
                for (size_t j = 0; j < uniq.size(); ++j) o.ptr<T>()[j] = T(uniq[j]);
                *out = o.handle;
                if (inv.defined()) writeIndices(ctx, inv, in.shape, inverse);
                if (return_counts) *counts = newInt64(ctx, cnt).handle;
                return;
            }
            // Distinct slices along dim, ordered lexicographically.
            const int64_t d = in.wrapDim(*dim);
            CPU_CHECK(in.dim() > 0, "unique along a dim needs a tensor with at least one dim");
            const int64_t ns = in.shape[d];
            // Move dim to the front and make it dense: slice s is row s of a [ns, inner] matrix.
            Shape perm, pst;
            perm.push_back(ns);
            pst.push_back(in.strides[d]);
            for (int64_t k = 0; k < in.dim(); ++k)
                if (k != d) {
                    perm.push_back(in.shape[k]);
                    pst.push_back(in.strides[k]);
                }
            TensorView moved = newTensor(ctx, perm, in.dtype);
            copyCast(moved, in.restrided(perm, pst));
            const int64_t inner = ns ? moved.numel / ns : shapeNumel(Shape(perm.begin() + 1, perm.end()));
            const T* x = moved.ptr<T>();
            auto sliceLess = [&](int64_t a, int64_t b) {
                for (int64_t j = 0; j < inner; ++j) {
                    K u = K(x[a * inner + j]), w = K(x[b * inner + j]);
                    if (lessNan(u, w)) return true;
                    if (lessNan(w, u)) return false;
                }
                return false;
            };
            std::vector<int64_t> order((size_t)ns);
            std::iota(order.begin(), order.end(), int64_t(0));
            std::stable_sort(order.begin(), order.end(), sliceLess);
            std::vector<int64_t> inverse((size_t)ns), cnt, firsts;
            for (int64_t j = 0; j < ns; ++j) {
                if (firsts.empty() || sliceLess(firsts.back(), order[j])) {
                    firsts.push_back(order[j]);
                    cnt.push_back(0);
                }
                cnt.back() += 1;
                inverse[order[j]] = (int64_t)firsts.size() - 1;
            }
            const int64_t u = (int64_t)firsts.size();
            // Result: the distinct slices stacked along dim (other dims as in input).
            Shape oshape = in.shape;
            oshape[d] = u;
            TensorView o = newTensor(ctx, oshape, in.dtype);
            Shape ost;
            ost.push_back(o.strides[d]);
            for (int64_t k = 0; k < in.dim(); ++k)
                if (k != d) ost.push_back(o.strides[k]);
            Shape operm = perm;
            operm[0] = u;
            TensorView om = o.restrided(operm, ost);
            TensorView packed = newTensor(ctx, operm, in.dtype);
            for (int64_t s = 0; s < u; ++s)
                std::copy(x + firsts[s] * inner, x + (firsts[s] + 1) * inner, packed.ptr<T>() + s * inner);
            copyCast(om, packed);
            *out = o.handle;
            if (inv.defined()) writeIndices(ctx, inv, Shape{ns}, inverse);
            if (return_counts) *counts = newInt64(ctx, cnt).handle;
        });
    });
}

}  // namespace impl::cpu
