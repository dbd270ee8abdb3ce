// Data movement helpers shared by the indexing and shape families: views that
// narrow/select/permute a TensorView, dtype-agnostic element copies, index
// reading with range checks, and a gather driven by per-dimension offset tables.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "common.hpp"
#include "fastmath.hpp"
#include "isa.hpp"

namespace impl::cpu {

/// Calls f(Tag<U>{}) with an unsigned type of `itemsize` bytes: moving values
/// without arithmetic only needs their width, so one kernel serves every dtype.
template <class F>
void dispatchBytes(int64_t itemsize, F&& f) {
    switch (itemsize) {
        case 1: f(Tag<uint8_t>{}); break;
        case 2: f(Tag<uint16_t>{}); break;
        case 4: f(Tag<uint32_t>{}); break;
        case 8: f(Tag<uint64_t>{}); break;
        default: failCode(diopiDtypeNotSupported, "elements of ", itemsize, " bytes are not supported");
    }
}

/// v restricted to [start, start + len) along dim (no copy).
inline TensorView narrowView(const TensorView& v, int64_t dim, int64_t start, int64_t len) {
    Shape sh = v.shape;
    sh[dim] = len;
    return v.restrided(sh, v.strides, start * v.strides[dim]);
}

/// v with [start, start + step * len) taken every `step` along dim.
inline TensorView stepView(const TensorView& v, int64_t dim, int64_t start, int64_t len, int64_t step) {
    Shape sh = v.shape, st = v.strides;
    sh[dim] = len;
    int64_t off = start * st[dim];
    st[dim] *= step;
    return v.restrided(sh, st, off);
}

/// v at position i of dim, dim removed (no copy).
inline TensorView selectView(const TensorView& v, int64_t dim, int64_t i) {
    Shape sh = v.shape, st = v.strides;
    int64_t off = i * st[dim];
    sh.erase(sh.begin() + dim);
    st.erase(st.begin() + dim);
    return v.restrided(sh, st, off);
}

/// v with a size-1 dimension inserted at dim.
inline TensorView unsqueezeView(const TensorView& v, int64_t dim) {
    Shape sh = v.shape, st = v.strides;
    sh.insert(sh.begin() + dim, 1);
    st.insert(st.begin() + dim, 0);
    return v.restrided(sh, st);
}

/// Wraps a dim for a tensor of rank n (a 0-d tensor accepts 0 and -1).
inline int64_t wrapDimFor(int64_t d, int64_t n) {
    int64_t m = n == 0 ? 1 : n;
    if (d < -m || d >= m) fail("dim ", d, " out of range for a ", n, "-d tensor");
    return d < 0 ? d + m : d;
}

/// The values of an integer index tensor (int32/int64, plus the narrower
/// integer dtypes when `anyInt`) in row-major order.
inline std::vector<int64_t> readIndices(const TensorView& t, const char* name, bool anyInt = false) {
    std::vector<int64_t> out((size_t)t.numel);
    bool ok = t.dtype == diopi_dtype_int32 || t.dtype == diopi_dtype_int64 ||
              (anyInt && (t.dtype == diopi_dtype_int16 || t.dtype == diopi_dtype_int8 || t.dtype == diopi_dtype_uint8));
    if (!ok) failCode(diopiDtypeNotSupported, name, " must be an int32 or int64 tensor, got ", dtypeName(t.dtype));
    if (t.numel == 0) return out;
    TensorView dst;
    dst.data = reinterpret_cast<char*>(out.data());
    dst.dtype = diopi_dtype_int64;
    dst.shape = t.shape;
    dst.strides = contiguousStrides(t.shape);
    dst.numel = t.numel;
    dst.itemsize = 8;
    copyCast(dst, t);
    return out;
}

/// Checks every index against [0, n) or, with `wrapNegative`, [-n, n) (then
/// wrapped into [0, n)). Fails naming the first bad one.
inline void checkIndices(std::vector<int64_t>& idx, int64_t n, bool wrapNegative, const char* name, int64_t dim) {
    for (int64_t& i : idx) {
        int64_t j = (wrapNegative && i < 0) ? i + n : i;
        if (j < 0 || j >= n) fail(name, ": index ", i, " is out of bounds for dimension ", dim, " with size ", n);
        i = j;
    }
}

/// Smallest and largest value of a dense run of indices (n > 0), compiled per instruction-set level: 64-bit min / max
/// vectorise only from AVX2 on. indexRangeFn<I>() picks the copy for isa().
template <class I>
CPU_FORCE_INLINE void indexRangeImpl(const I* q, int64_t n, int64_t& lo, int64_t& hi) {
    I mn = q[0], mx = q[0];
#pragma omp simd reduction(min : mn) reduction(max : mx)
    for (int64_t j = 0; j < n; ++j) {
        mn = mn < q[j] ? mn : q[j];
        mx = mx > q[j] ? mx : q[j];
    }
    lo = mn;
    hi = mx;
}
template <class I>
inline void indexRangeBase(const I* q, int64_t n, int64_t& lo, int64_t& hi) {
    indexRangeImpl<I>(q, n, lo, hi);
}
#if CPU_HAVE_X86_LEVELS
template <class I>
CPU_TARGET_AVX2 inline void indexRangeAvx2(const I* q, int64_t n, int64_t& lo, int64_t& hi) {
    indexRangeImpl<I>(q, n, lo, hi);
}
template <class I>
CPU_TARGET_AVX512 inline void indexRangeAvx512(const I* q, int64_t n, int64_t& lo, int64_t& hi) {
    indexRangeImpl<I>(q, n, lo, hi);
}
#endif
template <class I>
inline void (*indexRangeFn())(const I*, int64_t, int64_t&, int64_t&) {
#if CPU_HAVE_X86_LEVELS
    if (isa() == Isa::Avx512) return indexRangeAvx512<I>;
    if (isa() == Isa::Avx2) return indexRangeAvx2<I>;
#endif
    return indexRangeBase<I>;
}

/// Byte offsets of the identity table of dim d of `in` (i -> i * stride).
inline std::vector<int64_t> identityTable(const TensorView& in, int64_t d) {
    std::vector<int64_t> t((size_t)in.shape[d]);
    for (int64_t i = 0; i < in.shape[d]; ++i) t[i] = i * in.strides[d] * in.itemsize;
    return t;
}

/// out[i_0, ..., i_k] = *(inBase + sum_d tab[d][i_d]) for same-width elements:
/// tab[d] (length out.shape[d]) holds byte offsets into the source per
/// position of dim d. Covers flips, rolls, repeats, padding and index_select.
inline void gatherTables(const TensorView& out, const char* inBase, const std::vector<std::vector<int64_t>>& tab) {
    if (out.numel == 0) return;
    const int64_t nd = out.dim();
    if (nd == 0) {
        std::memcpy(out.data, inBase, out.itemsize);
        return;
    }
    const int64_t inner = out.shape[nd - 1];
    const int64_t rows = out.numel / inner;
    const int64_t ost = out.strides[nd - 1];
    const int64_t isz = out.itemsize;
    const int64_t* lastTab = tab[nd - 1].data();
    // Runs of the innermost dim whose source is contiguous become memcpy calls
    // (whole rows for index_select/embedding, the interior of a padded row).
    std::vector<int64_t> runStart, runLen;
    if (ost == 1) {
        for (int64_t j = 0; j < inner; ++j) {
            if (j > 0 && lastTab[j] == lastTab[j - 1] + isz) {
                ++runLen.back();
            } else {
                runStart.push_back(j);
                runLen.push_back(1);
            }
        }
    }
    const bool useRuns = ost == 1 && (int64_t)runStart.size() * 4 <= inner;
    dispatchBytes(isz, [&](auto tag) {
        using U = typename decltype(tag)::type;
        parallelFor(rows, std::max<int64_t>(1, kParallelGrain / inner), [&](int64_t b, int64_t e) {
            std::vector<int64_t> idx(nd, 0);
            int64_t rem = b;
            for (int64_t d = nd - 2; d >= 0; --d) {
                idx[d] = rem % out.shape[d];
                rem /= out.shape[d];
            }
            for (int64_t r = b; r < e; ++r) {
                int64_t src = 0, dst = 0;
                for (int64_t d = 0; d + 1 < nd; ++d) {
                    src += tab[d][idx[d]];
                    dst += idx[d] * out.strides[d];
                }
                const char* s = inBase + src;
                U* o = reinterpret_cast<U*>(out.data) + dst;
                if (useRuns) {
                    for (size_t k = 0; k < runStart.size(); ++k)
                        std::memcpy(o + runStart[k], s + lastTab[runStart[k]], runLen[k] * sizeof(U));
                } else {
                    for (int64_t j = 0; j < inner; ++j) o[j * ost] = *reinterpret_cast<const U*>(s + lastTab[j]);
                }
                for (int64_t d = nd - 2; d >= 0; --d) {
                    if (++idx[d] < out.shape[d]) break;
                    idx[d] = 0;
                }
            }
        });
    });
}

/// Copies through square tiles when the destination's innermost dim is dense but the source's is not while another
/// dim of the source is dense (transposes, permutes): both sides then move whole cache lines. Returns false (and
/// does nothing) for other layouts.
inline bool moveTransposed(const StridedPlan<2>& plan, int64_t isz) {
    const int64_t nd = (int64_t)plan.shape.size();
    if (nd < 2) return false;
    const int64_t in = nd - 1;
    if (plan.strides[0][in] != isz || plan.strides[1][in] == isz || plan.strides[1][in] == 0) return false;
    int64_t k = -1;
    for (int64_t d = in - 1; d >= 0; --d)
        if (plan.strides[1][d] == isz) {
            k = d;
            break;
        }
    constexpr int64_t T = 16;  // tile edge (elements)
    if (k < 0 || plan.shape[k] < T || plan.shape[in] < T) return false;
    // Outer positions: every dim except k and the innermost one.
    Shape oshape, ost0, ost1;
    for (int64_t d = 0; d < in; ++d)
        if (d != k) {
            oshape.push_back(plan.shape[d]);
            ost0.push_back(plan.strides[0][d]);
            ost1.push_back(plan.strides[1][d]);
        }
    const int64_t nOuter = shapeNumel(oshape), nk = plan.shape[k], ni = plan.shape[in];
    const int64_t tk = (nk + T - 1) / T, ti = (ni + T - 1) / T, tiles = nOuter * tk * ti;
    const int64_t dk = plan.strides[0][k], si = plan.strides[1][in];
    dispatchBytes(isz, [&](auto tag) {
        using U = typename decltype(tag)::type;
        parallelFor(tiles, std::max<int64_t>(1, kParallelGrain / (T * T)), [&](int64_t b, int64_t e) {
            for (int64_t t = b; t < e; ++t) {
                int64_t o = t / (tk * ti), r = t % (tk * ti);
                const int64_t k0 = (r / ti) * T, i0 = (r % ti) * T;
                char* pd = plan.base[0];
                const char* ps = plan.base[1];
                for (int64_t d = (int64_t)oshape.size() - 1; d >= 0; --d) {
                    const int64_t x = o % oshape[d];
                    o /= oshape[d];
                    pd += x * ost0[d];
                    ps += x * ost1[d];
                }
                const int64_t k1 = std::min(k0 + T, nk), i1 = std::min(i0 + T, ni);
                for (int64_t kk = k0; kk < k1; ++kk) {
                    U* drow = reinterpret_cast<U*>(pd + kk * dk);
                    const char* scol = ps + kk * isz;
                    for (int64_t ii = i0; ii < i1; ++ii) drow[ii] = *reinterpret_cast<const U*>(scol + ii * si);
                }
            }
        });
    });
    return true;
}

/// dst = src (src broadcasts to dst's shape, any strides on both sides).
/// Same dtype: moves bytes, with memcpy for runs that are dense on both
/// sides; otherwise converts through copyCast.
inline void moveCopy(const TensorView& dst, const TensorView& src) {
    if (dst.numel == 0) return;
    if (dst.dtype != src.dtype) {
        copyCast(dst, src);
        return;
    }
    StridedPlan<2> plan(dst.shape, {&dst, &src});
    const int64_t isz = dst.itemsize;
    if (moveTransposed(plan, isz)) return;
    dispatchBytes(isz, [&](auto tag) {
        using U = typename decltype(tag)::type;
        auto runOne = [&](char** p, int64_t n, const int64_t* st) {
            // Byte strides are whole elements: typed loops with element strides (the unit-stride forms vectorise).
            const int64_t so = st[0] / isz, ss = st[1] / isz;
            U* o = reinterpret_cast<U*>(p[0]);
            const U* s = reinterpret_cast<const U*>(p[1]);
            if (so == 1 && ss == 1) {
                std::memcpy(o, s, n * isz);
            } else if (so == 1 && ss == 0) {
                const U v = *s;
                for (int64_t i = 0; i < n; ++i) o[i] = v;
            } else if (so == 1 && ss == -1) {  // flips
                for (int64_t i = 0; i < n; ++i) o[i] = s[-i];
            } else if (so == 1) {
                for (int64_t i = 0; i < n; ++i) o[i] = s[i * ss];
            } else if (ss == 0) {
                const U v = *s;
                for (int64_t i = 0; i < n; ++i) o[i * so] = v;
            } else {
                for (int64_t i = 0; i < n; ++i) o[i * so] = s[i * ss];
            }
        };
        if (plan.shape.size() == 2) {
            // Rows of a 2-d plan (expands, row slices) reached by pointer steps, without per-run index arithmetic.
            const int64_t rows = plan.shape[0], n = plan.shape[1];
            const int64_t r0 = plan.strides[0][0], r1 = plan.strides[1][0];
            const int64_t st[2] = {plan.strides[0][1], plan.strides[1][1]};
            parallelFor(rows, std::max<int64_t>(1, kParallelGrain / n), [&](int64_t b, int64_t e) {
                for (int64_t r = b; r < e; ++r) {
                    char* p[2] = {plan.base[0] + r * r0, plan.base[1] + r * r1};
                    runOne(p, n, st);
                }
            });
            return;
        }
        plan.runAll(runOne);
    });
}

}  // namespace impl::cpu
