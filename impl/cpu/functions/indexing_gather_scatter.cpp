// Family indexing_gather_scatter: advanced indexing (index, index_put and the
// backward), index_select, select/slice with their scatters and backwards,
// masked fill/select/scatter, where, nonzero, index_fill, gather/scatter,
// one_hot and embedding. Every index is checked before any element moves;
// negative positions wrap only where the reference wraps them.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "common/common.hpp"
#include "common/fastmath.hpp"
#include "common/isa.hpp"
#include "common/movement.hpp"

namespace impl::cpu {

namespace {

void checkShape(const TensorView& out, const Shape& expect, const char* name = "out") {
    if (out.shape != expect) fail(name, " has shape ", shapeStr(out.shape), ", expected ", shapeStr(expect));
}

/// A boolean (or uint8) mask; both are one byte per element, read as != 0.
TensorView maskView(diopiConstTensorHandle_t h, const char* name) {
    TensorView m = view(h, name);
    if (m.dtype != diopi_dtype_bool && m.dtype != diopi_dtype_uint8)
        failCode(diopiDtypeNotSupported, name, " must be bool (or uint8), got ", dtypeName(m.dtype));
    return m;
}

/// v broadcast to `shape` (stride 0 along broadcast dims), no copy.
TensorView broadcastView(const TensorView& v, const Shape& shape) {
    const int64_t nd = shape.size(), off = nd - v.dim();
    CPU_CHECK(off >= 0, "cannot broadcast shape ", shapeStr(v.shape), " to ", shapeStr(shape));
    Shape st(nd, 0);
    for (int64_t d = 0; d < v.dim(); ++d) {
        if (v.shape[d] == shape[d + off]) st[d + off] = v.strides[d];
        else CPU_CHECK(v.shape[d] == 1, "cannot broadcast shape ", shapeStr(v.shape), " to ", shapeStr(shape));
    }
    return v.restrided(shape, st);
}

/// Dtype in which gradients of a floating `out` are summed: float64 for float64, float32 otherwise (16-bit sums
/// round once, at the store).
diopiDtype_t accDtype(const TensorView& out) { return out.dtype == diopi_dtype_float64 ? diopi_dtype_float64 : diopi_dtype_float32; }

/// `out` itself when it is dense and of its accumulation dtype (accumulate in place), else a temporary of that dtype.
TensorView denseAcc(diopiContextHandle_t ctx, const TensorView& out) {
    if (out.dtype == accDtype(out) && out.isContiguous()) return out;
    return newTensor(ctx, out.shape, accDtype(out));
}

/// Calls f(Tag<A>{}) with A = float or double, the C++ type of an accumulation dtype.
template <class F>
void withAcc(diopiDtype_t dt, F&& f) {
    if (dt == diopi_dtype_float64) f(Tag<double>{});
    else f(Tag<float>{});
}

void zeroFill(const TensorView& v) {
    dispatchBytes(v.itemsize, [&](auto tag) {
        using U = typename decltype(tag)::type;
        fillWith<U>(v, U(0));  // every supported dtype stores zero as all-zero bits
    });
}

/// The single element of a value tensor, converted to T.
template <class T>
T tensorValue(const TensorView& v, const char* name) {
    CPU_CHECK(v.numel == 1, name, " must hold exactly one element, got ", v.numel);
    T r{};
    TensorView dst;
    dst.data = reinterpret_cast<char*>(&r);
    dst.dtype = dtypeOf<T>();
    dst.numel = 1;
    dst.itemsize = sizeof(T);
    moveCopy(dst, v.restrided({}, {}));
    return r;
}

/// Calls f(k0, offs, n, innerStrides) for every innermost row of `shape`
/// (row-major; k0 is the linear index of the row's first position, offs[j]
/// its offset under strides[j], in elements). `f` must not throw.
template <size_t K, class F>
void forEachRow(const Shape& shape, const std::array<Shape, K>& strides, bool parallel, F&& f) {
    const int64_t nd = shape.size(), numel = shapeNumel(shape);
    if (numel == 0) return;
    std::array<int64_t, K> ist{};
    if (nd == 0) {
        f(int64_t(0), std::array<int64_t, K>{}, int64_t(1), ist);
        return;
    }
    for (size_t j = 0; j < K; ++j) ist[j] = strides[j][nd - 1];
    const int64_t inner = shape[nd - 1], rows = numel / inner;
    auto body = [&](int64_t b, int64_t e) {
        std::vector<int64_t> idx(nd, 0);
        int64_t rem = b;
        for (int64_t d = nd - 2; d >= 0; --d) {
            idx[d] = rem % shape[d];
            rem /= shape[d];
        }
        for (int64_t r = b; r < e; ++r) {
            std::array<int64_t, K> off{};
            for (int64_t d = 0; d + 1 < nd; ++d)
                for (size_t j = 0; j < K; ++j) off[j] += idx[d] * strides[j][d];
            f(r * inner, off, inner, ist);
            for (int64_t d = nd - 2; d >= 0; --d) {
                if (++idx[d] < shape[d]) break;
                idx[d] = 0;
            }
        }
    };
    if (parallel) parallelFor(rows, std::max<int64_t>(1, kParallelGrain / inner), body);
    else body(0, rows);
}

/// Calls f(k, offs) for every position k (row-major) of `shape`, where offs[j]
/// is the position's offset under strides[j] (in elements). `f` must not throw.
template <size_t K, class F>
void forEachPos(const Shape& shape, const std::array<Shape, K>& strides, bool parallel, F&& f) {
    forEachRow<K>(shape, strides, parallel, [&](int64_t k0, std::array<int64_t, K> off, int64_t n, const std::array<int64_t, K>& ist) {
        for (int64_t j = 0; j < n; ++j) {
            f(k0 + j, off);
            for (size_t q = 0; q < K; ++q) off[q] += ist[q];
        }
    });
}

enum class Reduce { None, Add, Multiply };

Reduce parseReduce(const char* reduce) {
    if (reduce == nullptr || reduce[0] == '\0' || std::strcmp(reduce, "none") == 0) return Reduce::None;
    if (std::strcmp(reduce, "add") == 0) return Reduce::Add;
    if (std::strcmp(reduce, "multiply") == 0) return Reduce::Multiply;
    fail("reduce must be \"add\" or \"multiply\" (or empty), got \"", reduce, "\"");
}

template <class T>
inline T combine(T a, T b, Reduce r) {
    using A = acc_t<T>;
    if (r == Reduce::Add) return T(A(a) + A(b));
    if (r == Reduce::Multiply) return T(A(a) * A(b));
    return b;
}

/// Extent of dim d, 1 for a 0-d tensor (which behaves as one element along dim 0).
int64_t extent(const TensorView& t, int64_t d) { return t.dim() == 0 ? 1 : t.shape[d]; }
int64_t strideOf(const TensorView& t, int64_t d) { return t.dim() == 0 ? 0 : t.strides[d]; }

// ---------------------------------------------------------------- gather / scatter core

/// Calls f(Tag<I>{}) for the C++ type of an int32/int64 index tensor.
template <class F>
void dispatchIndex(const TensorView& index, const char* name, F&& f) {
    if (index.dtype == diopi_dtype_int32) f(Tag<int32_t>{});
    else if (index.dtype == diopi_dtype_int64) f(Tag<int64_t>{});
    else failCode(diopiDtypeNotSupported, name, " must be an int32 or int64 tensor, got ", dtypeName(index.dtype));
}

/// Checks the shapes of gather/scatter (same rank, index no larger than
/// `other` anywhere and no larger than `self` except along dim) and that every
/// index lies in [0, size of self along dim), without copying the index.
void checkScatterIndex(const TensorView& self, const TensorView& index, const TensorView* other, int64_t d) {
    CPU_CHECK(index.dim() == self.dim(), "index must have the same rank as input (", index.dim(), " vs ", self.dim(), ")");
    for (int64_t j = 0; j < index.dim(); ++j) {
        if (j != d)
            CPU_CHECK(index.shape[j] <= self.shape[j], "index shape ", shapeStr(index.shape), " exceeds the input shape ",
                      shapeStr(self.shape), " in dimension ", j);
        if (other)
            CPU_CHECK(index.shape[j] <= other->shape[j], "index shape ", shapeStr(index.shape), " exceeds the src shape ",
                      shapeStr(other->shape), " in dimension ", j);
    }
    const int64_t n = extent(self, d);
    int64_t bad = 0;
    bool found = false;
    dispatchIndex(index, "index", [&](auto tag) {
        using I = typename decltype(tag)::type;
        const I* ip = index.ptr<I>();
        // Fast pass (parallel for large indices): the largest index of each row seen as unsigned, so that a negative
        // one counts as huge; a vectorisable max. Only a failing tensor is scanned again for the first bad value.
        std::atomic<bool> anyBad{false};
        const auto range = indexRangeFn<I>();
        forEachRow<1>(index.shape, {index.strides}, true, [&](int64_t, std::array<int64_t, 1> off, int64_t len, const std::array<int64_t, 1>& st) {
            const I* q = ip + off[0];
            if (len <= 0) return;
            int64_t lo = 0, hi = 0;
            if (st[0] == 1) {
                range(q, len, lo, hi);
            } else {
                lo = hi = q[0];
                for (int64_t j = 0; j < len; ++j) {
                    lo = std::min<int64_t>(lo, q[j * st[0]]);
                    hi = std::max<int64_t>(hi, q[j * st[0]]);
                }
            }
            if (lo < 0 || hi >= n) anyBad.store(true, std::memory_order_relaxed);
        });
        if (!anyBad.load()) return;
        forEachRow<1>(index.shape, {index.strides}, false, [&](int64_t, std::array<int64_t, 1> off, int64_t len, const std::array<int64_t, 1>& st) {
            if (found) return;
            const I* q = ip + off[0];
            for (int64_t j = 0; j < len; ++j) {
                int64_t v = q[j * st[0]];
                if (v < 0 || v >= n) {
                    bad = v;
                    found = true;
                    return;
                }
            }
        });
    });
    if (found) fail("index ", bad, " is out of bounds for dimension ", d, " with size ", n);
}

/// self[pos with dim replaced by index[pos]] (op)= src[pos] over every position of index.
template <class T, class I, bool kScalar>
void scatterInto(const TensorView& self, const TensorView& index, int64_t d, const T* src, const Shape& srcStrides, T value, Reduce r) {
    Shape sst = self.strides;
    if (self.dim() > 0) sst[d] = 0;
    const int64_t dstride = strideOf(self, d);
    T* base = self.ptr<T>();
    const I* ip = index.ptr<I>();
    // Without a reduction the written positions are distinct (else unspecified), so rows may run in parallel.
    forEachRow<3>(index.shape, {sst, srcStrides, index.strides}, r == Reduce::None,
                  [&](int64_t, std::array<int64_t, 3> off, int64_t n, const std::array<int64_t, 3>& st) {
                      T* o = base + off[0];
                      const I* q = ip + off[2];
                      for (int64_t j = 0; j < n; ++j) {
                          T* p = o + j * st[0] + int64_t(q[j * st[2]]) * dstride;
                          T v = kScalar ? value : src[off[1] + j * st[1]];
                          *p = combine<T>(*p, v, r);
                      }
                  });
}

void scatterImpl(diopiContextHandle_t ctx, const TensorView& out, const TensorView* input, int64_t dim, const TensorView* src,
                 const diopiScalar_t* value, const TensorView& index, const char* reduce) {
    Reduce r = parseReduce(reduce);
    if (input) checkShape(out, input->shape);
    int64_t d = wrapDimFor(dim, out.dim());
    TensorView s;
    if (src) {
        s = castTo(ctx, *src, out.dtype);
        CPU_CHECK(s.dim() == out.dim(), "src must have the same rank as input (", s.dim(), " vs ", out.dim(), ")");
    }
    checkScatterIndex(out, index, src ? &s : nullptr, d);
    if (input) moveCopy(out, *input);
    dispatch<AllTypes>(out.dtype, "input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        dispatchIndex(index, "index", [&](auto itag) {
            using I = typename decltype(itag)::type;
            if (src) scatterInto<T, I, false>(out, index, d, s.ptr<T>(), s.strides, T{}, r);
            else scatterInto<T, I, true>(out, index, d, nullptr, Shape(index.dim(), 0), scalarAs<T>(value, "value"), r);
        });
    });
}

// ---------------------------------------------------------------- advanced indexing

/// Index tensors of an advanced indexing call, after expanding masks and
/// broadcasting: one value vector per indexed dim, in row-major order of bshape.
struct AdvIndex {
    Shape bshape;
    std::vector<int64_t> dims;
    std::vector<std::vector<int64_t>> vals;
    bool adjacent = true;
    Shape resultShape;
    /// Permutation of result dims into [index dims..., remaining dims...].
    std::vector<int64_t> canonical;
    Shape rest;  ///< input dims that are not indexed, in order
};

AdvIndex parseIndices(const TensorView& in, const diopiConstTensorHandle_t* hs, int64_t n) {
    CPU_CHECK(n >= 0, "indices count is negative");
    CPU_CHECK(n == 0 || hs, "indices is NULL");
    // One entry per indexed dim: (dim, tensor of indices).
    std::vector<std::pair<int64_t, TensorView>> entries;
    std::vector<std::vector<int64_t>> maskVals;  // storage of expanded masks
    std::vector<Shape> maskShapes;
    int64_t p = 0;
    bool any = false;
    std::vector<std::pair<int64_t, size_t>> fromMask;  // (dim, index into maskVals)
    for (int64_t i = 0; i < n; ++i) {
        if (!hs[i]) {
            ++p;
            continue;
        }
        any = true;
        TensorView t = view(hs[i], "indices[i]");
        if (t.dtype == diopi_dtype_bool || t.dtype == diopi_dtype_uint8) {
            CPU_CHECK(p + t.dim() <= in.dim(), "too many indices for a ", in.dim(), "-d tensor");
            for (int64_t j = 0; j < t.dim(); ++j)
                CPU_CHECK(t.shape[j] == in.shape[p + j], "mask shape ", shapeStr(t.shape), " does not match the indexed shape at dim ",
                          p + j, " (size ", in.shape[p + j], ")");
            // A 0-d mask would add a dim of size 0 or 1 without indexing any; not supported here.
            CPU_CHECK(t.dim() > 0, "0-d boolean masks are not supported");
            // The mask's true positions, one coordinate vector per mask dim.
            std::vector<std::vector<int64_t>> coords(t.dim());
            Shape cst = t.strides;
            forEachPos<1>(t.shape, {cst}, false, [&](int64_t k, const std::array<int64_t, 1>& off) {
                if (reinterpret_cast<const uint8_t*>(t.data)[off[0]]) {
                    int64_t rem = k;
                    for (int64_t j = t.dim() - 1; j >= 0; --j) {
                        coords[j].push_back(rem % t.shape[j]);
                        rem /= t.shape[j];
                    }
                }
            });
            for (int64_t j = 0; j < t.dim(); ++j) {
                maskShapes.push_back({(int64_t)coords[j].size()});
                maskVals.push_back(std::move(coords[j]));
                fromMask.push_back({p + j, maskVals.size() - 1});
            }
            p += t.dim();
        } else {
            if (t.dtype != diopi_dtype_int32 && t.dtype != diopi_dtype_int64)
                failCode(diopiDtypeNotSupported, "indices must be int64, int32, uint8 or bool tensors, got ", dtypeName(t.dtype));
            CPU_CHECK(p < in.dim(), "too many indices for a ", in.dim(), "-d tensor");
            entries.push_back({p, t});
            ++p;
        }
    }
    CPU_CHECK(any, "at least one index must be provided");
    AdvIndex a;
    // Broadcast every index (integer tensors and expanded masks) together.
    Shape bs;
    bool first = true;
    for (auto& e : entries) bs = first ? (first = false, e.second.shape) : broadcastShapes(bs, e.second.shape);
    for (auto& s : maskShapes) bs = first ? (first = false, s) : broadcastShapes(bs, s);
    a.bshape = bs;
    const int64_t nb = shapeNumel(bs);
    std::vector<std::pair<int64_t, std::vector<int64_t>>> all;
    for (auto& e : entries) {
        std::vector<int64_t> v((size_t)nb);
        if (nb > 0) {
            TensorView dst;
            dst.data = reinterpret_cast<char*>(v.data());
            dst.dtype = diopi_dtype_int64;
            dst.shape = bs;
            dst.strides = contiguousStrides(bs);
            dst.numel = nb;
            dst.itemsize = 8;
            moveCopy(dst, e.second);
        }
        all.push_back({e.first, std::move(v)});
    }
    for (auto& fm : fromMask) {
        const std::vector<int64_t>& src = maskVals[fm.second];
        // A 1-D coordinate list broadcast to bs (only bs == [count] or size-1 dims broadcast it).
        std::vector<int64_t> v((size_t)nb);
        int64_t len = src.size();
        for (int64_t k = 0; k < nb; ++k) v[k] = len == 1 ? src[0] : src[k % std::max<int64_t>(len, 1)];
        all.push_back({fm.first, std::move(v)});
    }
    std::sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (size_t k = 0; k < all.size(); ++k) {
        CPU_CHECK(k == 0 || all[k].first != all[k - 1].first, "dimension ", all[k].first, " is indexed twice");
        a.dims.push_back(all[k].first);
        checkIndices(all[k].second, in.shape[all[k].first], true, "indices", all[k].first);
        a.vals.push_back(std::move(all[k].second));
    }
    for (size_t k = 1; k < a.dims.size(); ++k)
        if (a.dims[k] != a.dims[k - 1] + 1) a.adjacent = false;
    // Result shape and the permutation that brings it to [bshape..., rest...].
    const int64_t nbd = bs.size();
    std::vector<bool> indexed(in.dim(), false);
    for (int64_t d : a.dims) indexed[d] = true;
    std::vector<int64_t> restDims;
    for (int64_t d = 0; d < in.dim(); ++d)
        if (!indexed[d]) restDims.push_back(d);
    for (int64_t d : restDims) a.rest.push_back(d);
    if (a.adjacent) {
        int64_t f = a.dims.front();
        int64_t nbefore = 0;
        for (int64_t d : restDims)
            if (d < f) ++nbefore;
        for (int64_t k = 0; k < nbefore; ++k) a.resultShape.push_back(in.shape[restDims[k]]);
        for (int64_t s : bs) a.resultShape.push_back(s);
        for (size_t k = nbefore; k < restDims.size(); ++k) a.resultShape.push_back(in.shape[restDims[k]]);
        for (int64_t k = 0; k < nbd; ++k) a.canonical.push_back(nbefore + k);
        for (int64_t k = 0; k < nbefore; ++k) a.canonical.push_back(k);
        for (size_t k = nbefore; k < restDims.size(); ++k) a.canonical.push_back(nbd + k);
    } else {
        a.resultShape = bs;
        for (int64_t d : restDims) a.resultShape.push_back(in.shape[d]);
        for (int64_t k = 0; k < (int64_t)a.resultShape.size(); ++k) a.canonical.push_back(k);
    }
    return a;
}

/// t (shaped like the indexing result) viewed in [bshape..., rest...] order.
TensorView canonicalView(const TensorView& t, const AdvIndex& a) {
    Shape sh, st;
    for (int64_t k : a.canonical) {
        sh.push_back(t.shape[k]);
        st.push_back(t.strides[k]);
    }
    return t.restrided(sh, st);
}

/// Offsets (elements) of every index position into `in`, and the shape/strides of the remaining dims.
std::vector<int64_t> baseOffsets(const TensorView& in, const AdvIndex& a) {
    const int64_t nb = shapeNumel(a.bshape);
    std::vector<int64_t> off((size_t)nb, 0);
    for (size_t j = 0; j < a.dims.size(); ++j) {
        int64_t st = in.strides[a.dims[j]];
        for (int64_t k = 0; k < nb; ++k) off[k] += a.vals[j][k] * st;
    }
    return off;
}

/// Offsets of every bshape position in a canonical view's leading dims.
std::vector<int64_t> leadOffsets(const TensorView& c, const Shape& bshape) {
    const int64_t nbd = bshape.size();
    std::vector<int64_t> off((size_t)shapeNumel(bshape));
    Shape st(c.strides.begin(), c.strides.begin() + nbd);
    forEachPos<1>(bshape, {st}, false, [&](int64_t k, const std::array<int64_t, 1>& o) { off[k] = o[0]; });
    return off;
}

/// out = in[indices]; out is the result shape (any strides).
void indexGather(const TensorView& out, const TensorView& in, const AdvIndex& a) {
    TensorView c = canonicalView(out, a);
    const int64_t nbd = a.bshape.size();
    Shape rsh(c.shape.begin() + nbd, c.shape.end()), rost(c.strides.begin() + nbd, c.strides.end()), rist;
    for (int64_t d : a.rest) rist.push_back(in.strides[d]);
    std::vector<int64_t> ib = baseOffsets(in, a), ob = leadOffsets(c, a.bshape);
    const int64_t nb = ib.size(), nr = shapeNumel(rsh);
    if (nb == 0 || nr == 0) return;
    dispatchBytes(in.itemsize, [&](auto tag) {
        using U = typename decltype(tag)::type;
        const U* src = in.ptr<U>();
        U* dst = out.ptr<U>();
        parallelFor(nb, std::max<int64_t>(1, kParallelGrain / nr), [&](int64_t b, int64_t e) {
            for (int64_t k = b; k < e; ++k) {
                const U* s = src + ib[k];
                U* o = dst + ob[k];
                forEachRow<2>(rsh, {rost, rist}, false, [&](int64_t, std::array<int64_t, 2> off, int64_t n, const std::array<int64_t, 2>& st) {
                    if (st[0] == 1 && st[1] == 1) {
                        std::memcpy(o + off[0], s + off[1], n * sizeof(U));
                    } else {
                        for (int64_t j = 0; j < n; ++j) o[off[0] + j * st[0]] = s[off[1] + j * st[1]];
                    }
                });
            }
        });
    });
}

/// self[indices] = values (or += with accumulate); values broadcast to the result shape.
void indexPut(const TensorView& self, const TensorView& values, const AdvIndex& a, bool accumulate) {
    TensorView vb = broadcastView(values, a.resultShape);
    TensorView c = canonicalView(vb, a);
    const int64_t nbd = a.bshape.size();
    Shape rsh(c.shape.begin() + nbd, c.shape.end()), rvst(c.strides.begin() + nbd, c.strides.end()), rist;
    for (int64_t d : a.rest) rist.push_back(self.strides[d]);
    std::vector<int64_t> ib = baseOffsets(self, a), vbo = leadOffsets(c, a.bshape);
    const int64_t nb = ib.size(), nr = shapeNumel(rsh);
    if (nb == 0 || nr == 0) return;
    dispatch<AllTypes>(self.dtype, "input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using A = acc_t<T>;
        const T* src = values.ptr<T>();
        T* dst = self.ptr<T>();
        // Accumulation runs serially: repeated indices add into the same element.
        auto body = [&](int64_t b, int64_t e) {
            for (int64_t k = b; k < e; ++k) {
                T* o = dst + ib[k];
                const T* s = src + vbo[k];
                forEachRow<2>(rsh, {rist, rvst}, false, [&](int64_t, std::array<int64_t, 2> off, int64_t n, const std::array<int64_t, 2>& st) {
                    T* po = o + off[0];
                    const T* ps = s + off[1];
                    if (accumulate) {
                        for (int64_t j = 0; j < n; ++j) po[j * st[0]] = T(A(po[j * st[0]]) + A(ps[j * st[1]]));
                    } else {
                        for (int64_t j = 0; j < n; ++j) po[j * st[0]] = ps[j * st[1]];
                    }
                });
            }
        };
        if (accumulate) body(0, nb);
        else parallelFor(nb, std::max<int64_t>(1, kParallelGrain / nr), body);
    });
}

/// Reads a mask and input broadcast together, calling f(k, inPtr, pos) for each true position in row-major order.
Shape maskedShape(const TensorView& in, const TensorView& mask) { return broadcastShapes(in.shape, mask.shape); }

int64_t countTrue(const TensorView& maskB) {
    int64_t n = 0;
    const uint8_t* m = reinterpret_cast<const uint8_t*>(maskB.data);
    if (maskB.isContiguous()) {
        for (int64_t i = 0; i < maskB.numel; ++i) n += m[i] != 0;
        return n;
    }
    forEachPos<1>(maskB.shape, {maskB.strides}, false, [&](int64_t, const std::array<int64_t, 1>& off) { n += m[off[0]] != 0; });
    return n;
}

}  // namespace

// ---------------------------------------------------------------- advanced indexing

diopiError_t diopiIndex(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t* indices,
                        int64_t nums) {
    return guard(__func__, [&] {
        CPU_CHECK(out, "out is NULL");
        TensorView in = view(input, "input");
        AdvIndex a = parseIndices(in, indices, nums);
        TensorView o = newTensor(ctx, a.resultShape, in.dtype);
        indexGather(o, in, a);
        *out = o.handle;
    });
}

diopiError_t diopiIndexBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t zeros_like_input,
                                diopiConstTensorHandle_t* indices, int64_t nums, diopiConstTensorHandle_t grad_output) {
    return guard(__func__, [&] {
        TensorView gi = view(grad_input, "grad_input"), z = view(zeros_like_input, "zeros_like_input");
        TensorView go = view(grad_output, "grad_output");
        checkShape(gi, z.shape, "grad_input");
        AdvIndex a = parseIndices(z, indices, nums);
        // Sums of repeated indices are formed in float32 (float64 for float64) and rounded once.
        diopiDtype_t accT = isFloatingDtype(gi.dtype) ? accDtype(gi) : gi.dtype;
        TensorView g = castTo(ctx, go, accT);
        broadcastView(g, a.resultShape);  // validates the shape before anything is written
        TensorView acc = gi.dtype == accT && gi.isContiguous() ? gi : newTensor(ctx, z.shape, accT);
        if (acc.data != z.data) moveCopy(acc, z);
        indexPut(acc, g, a, true);
        if (acc.data != gi.data) moveCopy(gi, acc);
    });
}

diopiError_t diopiIndexPutInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t values, diopiConstTensorHandle_t* indices,
                              int64_t indices_counts, bool accumulate) {
    return guard(__func__, [&] {
        TensorView in = view(input, "input");
        AdvIndex a = parseIndices(in, indices, indices_counts);
        TensorView v = castTo(ctx, view(values, "values"), in.dtype);
        indexPut(in, v, a, accumulate);
    });
}

diopiError_t diopiIndexPut(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t values,
                           diopiConstTensorHandle_t* indices, int64_t indices_counts, bool accumulate) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        checkShape(o, in.shape);
        AdvIndex a = parseIndices(o, indices, indices_counts);
        TensorView v = castTo(ctx, view(values, "values"), o.dtype);
        broadcastView(v, a.resultShape);  // validate before touching out
        moveCopy(o, in);
        indexPut(o, v, a, accumulate);
    });
}

// ---------------------------------------------------------------- index_select, select, slice

diopiError_t diopiIndexSelect(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                              diopiConstTensorHandle_t index) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input"), ix = view(index, "index");
        CPU_CHECK(ix.dim() <= 1, "index must be 0-d or 1-d, got ", ix.dim(), " dims");
        int64_t d = in.wrapDim(dim);
        std::vector<int64_t> idx = readIndices(ix, "index");
        checkIndices(idx, extent(in, d), false, "index", d);
        Shape expect = in.shape;
        if (in.dim() > 0) expect[d] = idx.size();
        else CPU_CHECK(idx.size() == 1, "index of a 0-d input must hold one element");
        checkShape(o, expect);
        TensorView src = castTo(ctx, in, o.dtype);
        std::vector<std::vector<int64_t>> tab(src.dim());
        for (int64_t j = 0; j < src.dim(); ++j) {
            if (j != d) {
                tab[j] = identityTable(src, j);
                continue;
            }
            tab[j].resize(idx.size());
            for (size_t k = 0; k < idx.size(); ++k) tab[j][k] = idx[k] * src.strides[j] * src.itemsize;
        }
        gatherTables(o, src.data, tab);
    });
}

diopiError_t diopiIndexSelectBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad, diopiSize_t input_sizes,
                                      int64_t dim, diopiConstTensorHandle_t index) {
    return guard(__func__, [&] {
        TensorView gi = view(grad_input, "grad_input"), g = view(grad, "grad"), ix = view(index, "index");
        Shape in = toShape(input_sizes);
        checkShape(gi, in, "grad_input");
        CPU_CHECK(ix.dim() <= 1, "index must be 0-d or 1-d, got ", ix.dim(), " dims");
        const int64_t nd = in.size(), d = wrapDimFor(dim, nd), n = nd == 0 ? 1 : in[d];
        std::vector<int64_t> idx = readIndices(ix, "index");
        checkIndices(idx, n, false, "index", d);
        Shape gs = in;
        if (nd > 0) gs[d] = idx.size();
        checkShape(g, gs, "grad");
        if (!isFloatingDtype(gi.dtype)) failCode(diopiDtypeNotSupported, "grad_input must be floating point, got ", dtypeName(gi.dtype));
        // Sum in a dense float buffer viewed as (outer, n, inner).
        TensorView acc = denseAcc(ctx, gi);
        zeroFill(acc);
        TensorView gc = contiguousAs(ctx, g, acc.dtype);
        int64_t outer = 1, inner = 1;
        for (int64_t j = 0; j < nd; ++j) {
            if (j < d) outer *= in[j];
            if (j > d) inner *= in[j];
        }
        const int64_t m = idx.size();
        withAcc(acc.dtype, [&](auto tag) {
            using S = typename decltype(tag)::type;
            S* A = acc.ptr<S>();
            const S* G = gc.ptr<S>();
            for (int64_t o = 0; o < outer; ++o)
                for (int64_t k = 0; k < m; ++k) {
                    S* dst = A + (o * n + idx[k]) * inner;
                    const S* src = G + (o * m + k) * inner;
                    for (int64_t i = 0; i < inner; ++i) dst[i] += src[i];
                }
        });
        if (acc.data != gi.data) moveCopy(gi, acc);
    });
}

diopiError_t diopiSelect(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim, int64_t index) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        CPU_CHECK(in.dim() > 0, "select() cannot be applied to a 0-d tensor");
        int64_t d = in.wrapDim(dim);
        std::vector<int64_t> i{index};
        checkIndices(i, in.shape[d], true, "index", d);
        TensorView s = selectView(in, d, i[0]);
        checkShape(o, s.shape);
        moveCopy(o, s);
    });
}

diopiError_t diopiSelectBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output, diopiSize_t input_sizes,
                                 int64_t dim, int64_t index) {
    return guard(__func__, [&] {
        TensorView gi = view(grad_input, "grad_input"), go = view(grad_output, "grad_output");
        checkShape(gi, toShape(input_sizes), "grad_input");
        CPU_CHECK(gi.dim() > 0, "input_sizes must have at least one dimension");
        int64_t d = gi.wrapDim(dim);
        std::vector<int64_t> i{index};
        checkIndices(i, gi.shape[d], true, "index", d);
        TensorView s = selectView(gi, d, i[0]);
        checkShape(go, s.shape, "grad_output");
        zeroFill(gi);
        moveCopy(s, go);
    });
}

diopiError_t diopiSelectScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t src,
                                int64_t dim, int64_t index) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input"), s = view(src, "src");
        checkShape(o, in.shape);
        CPU_CHECK(in.dim() > 0, "select_scatter needs an input with at least one dimension");
        int64_t d = in.wrapDim(dim);
        std::vector<int64_t> i{index};
        checkIndices(i, in.shape[d], true, "index", d);
        TensorView dst = selectView(o, d, i[0]);
        checkShape(s, dst.shape, "src");
        moveCopy(o, in);
        moveCopy(dst, s);
    });
}

namespace {
/// Python slice semantics: clamps start/end into [0, n]; returns the element count.
int64_t sliceRange(int64_t n, int64_t& start, int64_t end, int64_t step) {
    CPU_CHECK(step > 0, "step must be positive, got ", step);
    if (start < 0) start += n;
    if (end < 0) end += n;
    start = std::min(std::max<int64_t>(start, 0), n);
    end = std::min(std::max(end, start), n);
    return (end - start + step - 1) / step;
}
}  // namespace

diopiError_t diopiSlice(diopiContextHandle_t ctx, diopiTensorHandle_t null_out, diopiConstTensorHandle_t input, int64_t dim, int64_t start,
                        int64_t end, int64_t step) {
    return guard(__func__, [&] {
        TensorView o = view(null_out, "null_out"), in = view(input, "input");
        CPU_CHECK(in.dim() > 0, "slice() cannot be applied to a 0-d tensor");
        int64_t d = in.wrapDim(dim);
        int64_t len = sliceRange(in.shape[d], start, end, step);
        TensorView s = stepView(in, d, start, len, step);
        checkShape(o, s.shape, "null_out");
        moveCopy(o, s);
    });
}

diopiError_t diopiSliceBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output, diopiSize_t input_sizes,
                                int64_t dim, int64_t start, int64_t end, int64_t step) {
    return guard(__func__, [&] {
        TensorView gi = view(grad_input, "grad_input"), go = view(grad_output, "grad_output");
        checkShape(gi, toShape(input_sizes), "grad_input");
        CPU_CHECK(gi.dim() > 0, "input_sizes must have at least one dimension");
        int64_t d = gi.wrapDim(dim);
        int64_t len = sliceRange(gi.shape[d], start, end, step);
        TensorView s = stepView(gi, d, start, len, step);
        checkShape(go, s.shape, "grad_output");
        zeroFill(gi);
        moveCopy(s, go);
    });
}

diopiError_t diopiSliceScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t src,
                               int64_t dim, int64_t start, int64_t end, int64_t step) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input"), s = view(src, "src");
        checkShape(o, in.shape);
        CPU_CHECK(in.dim() > 0, "slice_scatter needs an input with at least one dimension");
        int64_t d = in.wrapDim(dim);
        int64_t len = sliceRange(in.shape[d], start, end, step);
        TensorView dst = stepView(o, d, start, len, step);
        checkShape(s, dst.shape, "src");
        moveCopy(o, in);
        moveCopy(dst, s);
    });
}

// ---------------------------------------------------------------- masks and where

diopiError_t diopiMaskedScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask,
                                diopiConstTensorHandle_t source) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input"), m = maskView(mask, "mask"), s = view(source, "source");
        Shape bs = maskedShape(in, m);
        checkShape(o, bs);
        TensorView mb = broadcastView(m, bs);
        int64_t need = countTrue(mb);
        CPU_CHECK(s.numel >= need, "source has ", s.numel, " elements but the mask selects ", need);
        TensorView sc = contiguousAs(ctx, s, o.dtype);
        moveCopy(o, in);
        const uint8_t* mp = reinterpret_cast<const uint8_t*>(mb.data);
        dispatchBytes(o.itemsize, [&](auto tag) {
            using U = typename decltype(tag)::type;
            U* op = o.ptr<U>();
            const U* sp = sc.ptr<U>();
            int64_t k = 0;
            if (o.isContiguous() && mb.isContiguous() && need > 0) {
                // Branch-free: read the next source element (clamped in range) and keep it only where selected.
                const int64_t last = need - 1;
                for (int64_t i = 0; i < o.numel; ++i) {
                    const bool sel = mp[i] != 0;
                    const U v = sp[std::min(k, last)];
                    op[i] = sel ? v : op[i];
                    k += sel;
                }
                return;
            }
            forEachPos<2>(bs, {o.strides, mb.strides}, false, [&](int64_t, const std::array<int64_t, 2>& off) {
                if (mp[off[1]]) op[off[0]] = sp[k++];
            });
        });
    });
}

diopiError_t diopiMaskedSelect(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask) {
    return guard(__func__, [&] {
        CPU_CHECK(out, "out is NULL");
        TensorView in = view(input, "input"), m = maskView(mask, "mask");
        Shape bs = maskedShape(in, m);
        TensorView mb = broadcastView(m, bs), ib = broadcastView(in, bs);
        int64_t n = countTrue(mb);
        TensorView o = newTensor(ctx, {n}, in.dtype);
        const uint8_t* mp = reinterpret_cast<const uint8_t*>(mb.data);
        dispatchBytes(in.itemsize, [&](auto tag) {
            using U = typename decltype(tag)::type;
            U* op = o.ptr<U>();
            const U* ip = ib.ptr<U>();
            if (ib.isContiguous() && mb.isContiguous()) {
                // Branch-free compaction: every element is stored at the next free slot, which only a selected one
                // advances; the loop stops once all n are placed, so the store never leaves the output.
                int64_t k = 0;
                for (int64_t i = 0; i < ib.numel && k < n; ++i) {
                    op[k] = ip[i];
                    k += mp[i] != 0;
                }
                return;
            }
            int64_t k = 0;
            forEachPos<2>(bs, {ib.strides, mb.strides}, false, [&](int64_t, const std::array<int64_t, 2>& off) {
                if (mp[off[1]]) op[k++] = ip[off[0]];
            });
        });
        *out = o.handle;
    });
}

diopiError_t diopiMaskedSelectBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                       diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask) {
    return guard(__func__, [&] {
        TensorView gi = view(grad_input, "grad_input"), go = view(grad_output, "grad_output"), in = view(input, "input");
        TensorView m = maskView(mask, "mask");
        checkShape(gi, in.shape, "grad_input");
        if (!isFloatingDtype(gi.dtype)) failCode(diopiDtypeNotSupported, "grad_input must be floating point, got ", dtypeName(gi.dtype));
        Shape bs = maskedShape(in, m);
        TensorView mb = broadcastView(m, bs);
        int64_t n = countTrue(mb);
        CPU_CHECK(go.dim() == 1 && go.numel == n, "grad_output must be 1-d with ", n, " elements, got shape ", shapeStr(go.shape));
        // Positions where the mask broadcast the input sum their gradients.
        TensorView acc = denseAcc(ctx, gi);
        zeroFill(acc);
        TensorView ab = broadcastView(acc, bs);
        TensorView g = contiguousAs(ctx, go, acc.dtype);
        const uint8_t* mp = reinterpret_cast<const uint8_t*>(mb.data);
        withAcc(acc.dtype, [&](auto tag) {
            using S = typename decltype(tag)::type;
            S* ap = ab.ptr<S>();
            const S* gp = g.ptr<S>();
            int64_t k = 0;
            if (ab.isContiguous() && mb.isContiguous() && n > 0) {
                // No broadcast: each position receives at most one gradient (branch-free, clamped read).
                const int64_t last = n - 1;
                for (int64_t i = 0; i < ab.numel; ++i) {
                    const bool sel = mp[i] != 0;
                    const S v = gp[std::min(k, last)];
                    ap[i] = sel ? v : ap[i];
                    k += sel;
                }
                return;
            }
            forEachPos<2>(bs, {ab.strides, mb.strides}, false, [&](int64_t, const std::array<int64_t, 2>& off) {
                if (mp[off[1]]) ap[off[0]] += gp[k++];
            });
        });
        if (acc.data != gi.data) moveCopy(gi, acc);
    });
}

namespace {
/// The bytes of getValue(Tag<T>{}) for T the type of dt (in the low bytes).
/// Fills and selects then run on unsigned elements of dt's width: they copy
/// bits, so one kernel per width serves every dtype (and every caller).
template <class GetValue>
uint64_t valueBits(diopiDtype_t dt, GetValue& getValue) {
    uint64_t bits = 0;
    dispatch<AllTypes>(dt, "input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T v = getValue(tag);
        static_assert(sizeof(T) <= sizeof(bits), "element wider than 8 bytes");
        std::memcpy(&bits, &v, sizeof(T));
    });
    return bits;
}

/// out = mask ? value : in (in already of out's dtype and broadcast to it), on raw elements.
void maskedFillBits(const TensorView& out, const TensorView& in, const TensorView& mask, uint64_t bits) {
    dispatchBytes(out.itemsize, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T v;
        std::memcpy(&v, &bits, sizeof(T));
        if (out.isContiguous() && in.isContiguous() && in.shape == out.shape && mask.isContiguous() && mask.shape == out.shape) {
            // Dense and unbroadcast: a plain select loop (vectorises), parallel when large.
            T* op = out.ptr<T>();
            const T* ip = in.ptr<const T>();
            const uint8_t* mp = mask.ptr<const uint8_t>();
            parallelFor(out.numel, kParallelGrain * 4, [&](int64_t lo, int64_t hi) {
                for (int64_t i = lo; i < hi; ++i) op[i] = mp[i] ? v : ip[i];
            });
            return;
        }
        binaryLoop<T, T, uint8_t>(out, in, mask, [v](T x, uint8_t m) { return m ? v : x; });
    });
}

/// out = mask ? value : input, broadcasting input and mask to out.
template <class GetValue>
void maskedFill(diopiContextHandle_t ctx, const TensorView& out, const TensorView& input, const TensorView& mask, bool inplace, GetValue getValue) {
    Shape bs = maskedShape(input, mask);
    if (inplace) CPU_CHECK(bs == input.shape, "mask shape ", shapeStr(mask.shape), " does not broadcast to the input shape ", shapeStr(input.shape));
    checkShape(out, bs);
    TensorView in = castTo(ctx, input, out.dtype);
    maskedFillBits(out, in, mask, valueBits(out.dtype, getValue));
}
}  // namespace

diopiError_t diopiMaskedFill(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask,
                             diopiConstTensorHandle_t value) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), v = view(value, "value");
        maskedFill(ctx, o, view(input, "input"), maskView(mask, "mask"), false, [&](auto tag) {
            return tensorValue<typename decltype(tag)::type>(v, "value");
        });
    });
}

diopiError_t diopiMaskedFillInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t mask, diopiConstTensorHandle_t value) {
    return guard(__func__, [&] {
        TensorView i = view(input, "input"), v = view(value, "value");
        maskedFill(ctx, i, i, maskView(mask, "mask"), true, [&](auto tag) { return tensorValue<typename decltype(tag)::type>(v, "value"); });
    });
}

diopiError_t diopiMaskedFillScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask,
                                   const diopiScalar_t* value) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out");
        maskedFill(ctx, o, view(input, "input"), maskView(mask, "mask"), false,
                   [&](auto tag) { return scalarAs<typename decltype(tag)::type>(value, "value"); });
    });
}

diopiError_t diopiMaskedFillInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t mask, const diopiScalar_t* value) {
    return guard(__func__, [&] {
        TensorView i = view(input, "input");
        maskedFill(ctx, i, i, maskView(mask, "mask"), true, [&](auto tag) { return scalarAs<typename decltype(tag)::type>(value, "value"); });
    });
}

diopiError_t diopiWhere(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t condition, diopiConstTensorHandle_t input,
                        diopiConstTensorHandle_t other) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), c = maskView(condition, "condition");
        TensorView a = view(input, "input"), b = view(other, "other");
        checkShape(o, broadcastShapes(broadcastShapes(c.shape, a.shape), b.shape));
        a = castTo(ctx, a, o.dtype);
        b = castTo(ctx, b, o.dtype);
        // Dense operands of out's shape or single values: a plain select loop (vectorises), parallel when large.
        dispatch<AllTypes>(o.dtype, "out", [](auto) {});
        auto denseOrOne = [&](const TensorView& t) { return t.numel == 1 || (t.shape == o.shape && t.isContiguous()); };
        if (o.isContiguous() && c.shape == o.shape && c.isContiguous() && denseOrOne(a) && denseOrOne(b) && o.numel > 1) {
            const uint8_t* cp = c.ptr<const uint8_t>();
            const bool a1 = a.numel == 1, b1 = b.numel == 1;
            dispatchBytes(o.itemsize, [&](auto tag) {
                using U = typename decltype(tag)::type;
                U* op = o.ptr<U>();
                const U* ap = a.ptr<const U>();
                const U* bp = b.ptr<const U>();
                parallelFor(o.numel, kParallelGrain * 4, [&](int64_t lo, int64_t hi) {
                    if (a1 && b1) {
                        const U x = *ap, y = *bp;
                        for (int64_t i = lo; i < hi; ++i) op[i] = cp[i] ? x : y;
                    } else if (a1) {
                        const U x = *ap;
                        for (int64_t i = lo; i < hi; ++i) op[i] = cp[i] ? x : bp[i];
                    } else if (b1) {
                        const U y = *bp;
                        for (int64_t i = lo; i < hi; ++i) op[i] = cp[i] ? ap[i] : y;
                    } else {
                        for (int64_t i = lo; i < hi; ++i) op[i] = cp[i] ? ap[i] : bp[i];
                    }
                });
            });
            return;
        }
        dispatchBytes(o.itemsize, [&](auto tag) {  // a select copies bits: one loop per element width
            using T = typename decltype(tag)::type;
            ternaryLoop<T, uint8_t, T, T>(o, c, a, b, [](uint8_t m, T x, T y) { return m ? x : y; });
        });
    });
}

diopiError_t diopiNonzero(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        CPU_CHECK(out, "out is NULL");
        TensorView in = view(input, "input");
        const int64_t nd = in.dim();
        dispatch<AllTypes>(in.dtype, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            const T* p = in.ptr<T>();
            auto nz = [](T v) { return convert<bool>(v); };  // NaN counts, -0.0 does not
            int64_t n = 0;
            forEachPos<1>(in.shape, {in.strides}, false, [&](int64_t, const std::array<int64_t, 1>& off) { n += nz(p[off[0]]); });
            TensorView o = newTensor(ctx, {n, nd}, diopi_dtype_int64);
            int64_t* q = o.ptr<int64_t>();
            forEachPos<1>(in.shape, {in.strides}, false, [&](int64_t k, const std::array<int64_t, 1>& off) {
                if (!nz(p[off[0]])) return;
                int64_t rem = k;
                for (int64_t d = nd - 1; d >= 0; --d) {
                    q[d] = rem % in.shape[d];
                    rem /= in.shape[d];
                }
                q += nd;
            });
            *out = o.handle;
        });
    });
}

// ---------------------------------------------------------------- index_fill

namespace {
template <class GetValue>
void indexFill(diopiContextHandle_t ctx, const TensorView& out, const TensorView* input, int64_t dim, const TensorView& index, GetValue getValue) {
    if (input) checkShape(out, input->shape);
    CPU_CHECK(index.dim() <= 1, "index must be 0-d or 1-d, got ", index.dim(), " dims");
    int64_t d = out.wrapDim(dim);
    std::vector<int64_t> idx = readIndices(index, "index");
    checkIndices(idx, extent(out, d), true, "index", d);
    const uint64_t bits = valueBits(out.dtype, getValue);  // before moveCopy: a bad value writes nothing
    if (input) moveCopy(out, *input);
    dispatchBytes(out.itemsize, [&](auto tag) {  // fills copy bits: one loop per element width
        using T = typename decltype(tag)::type;
        T v;
        std::memcpy(&v, &bits, sizeof(T));
        if (out.dim() == 0) {
            if (!idx.empty()) fillWith<T>(out, v);
            return;
        }
        if (out.isContiguous()) {
            // (outer, n, inner) view: each index fills one run of `inner` elements per outer position.
            int64_t outer = 1, inner = 1;
            for (int64_t j = 0; j < out.dim(); ++j) {
                if (j < d) outer *= out.shape[j];
                if (j > d) inner *= out.shape[j];
            }
            const int64_t n = out.shape[d];
            T* p = out.ptr<T>();
            for (int64_t o = 0; o < outer; ++o) {
                T* row = p + o * n * inner;
                for (int64_t i : idx) std::fill_n(row + i * inner, inner, v);
            }
            return;
        }
        for (int64_t i : idx) fillWith<T>(selectView(out, d, i), v);
    });
}
}  // namespace

diopiError_t diopiIndexFillScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                  diopiConstTensorHandle_t index, const diopiScalar_t* value) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        indexFill(ctx, o, &in, dim, view(index, "index"), [&](auto tag) { return scalarAs<typename decltype(tag)::type>(value, "value"); });
    });
}

diopiError_t diopiIndexFill(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                            diopiConstTensorHandle_t index, diopiConstTensorHandle_t value) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input"), v = view(value, "value");
        indexFill(ctx, o, &in, dim, view(index, "index"), [&](auto tag) { return tensorValue<typename decltype(tag)::type>(v, "value"); });
    });
}

diopiError_t diopiIndexFillInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t index,
                                     const diopiScalar_t* value) {
    return guard(__func__, [&] {
        TensorView i = view(input, "input");
        indexFill(ctx, i, nullptr, dim, view(index, "index"), [&](auto tag) { return scalarAs<typename decltype(tag)::type>(value, "value"); });
    });
}

diopiError_t diopiIndexFillInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t index,
                               diopiConstTensorHandle_t value) {
    return guard(__func__, [&] {
        TensorView i = view(input, "input"), v = view(value, "value");
        indexFill(ctx, i, nullptr, dim, view(index, "index"), [&](auto tag) { return tensorValue<typename decltype(tag)::type>(v, "value"); });
    });
}

// ---------------------------------------------------------------- gather and scatter

diopiError_t diopiGather(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                         diopiConstTensorHandle_t index) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input"), ix = view(index, "index");
        int64_t d = in.wrapDim(dim);
        checkScatterIndex(in, ix, nullptr, d);
        checkShape(o, ix.shape);
        TensorView src = castTo(ctx, in, o.dtype);
        Shape ist = src.strides;
        if (src.dim() > 0) ist[d] = 0;
        const int64_t dstride = strideOf(src, d);
        dispatchIndex(ix, "index", [&](auto itag) {
            using I = typename decltype(itag)::type;
            const I* ip = ix.ptr<I>();
            dispatchBytes(o.itemsize, [&](auto tag) {
                using U = typename decltype(tag)::type;
                const U* sp = src.ptr<U>();
                U* op = o.ptr<U>();
                forEachRow<3>(ix.shape, {o.strides, ist, ix.strides}, true,
                              [&](int64_t, std::array<int64_t, 3> off, int64_t n, const std::array<int64_t, 3>& st) {
                                  U* po = op + off[0];
                                  const U* ps = sp + off[1];
                                  const I* q = ip + off[2];
                                  if (st[0] == 1 && st[1] == 0 && st[2] == 1 && dstride == 1) {
                                      // Gathering along a dense last dim: a plain table lookup per row.
                                      for (int64_t j = 0; j < n; ++j) po[j] = ps[q[j]];
                                  } else {
                                      for (int64_t j = 0; j < n; ++j) po[j * st[0]] = ps[j * st[1] + int64_t(q[j * st[2]]) * dstride];
                                  }
                              });
            });
        });
    });
}

diopiError_t diopiGatherBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                 diopiConstTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t index) {
    return guard(__func__, [&] {
        TensorView gi = view(grad_input, "grad_input"), go = view(grad_output, "grad_output"), in = view(input, "input");
        TensorView ix = view(index, "index");
        checkShape(gi, in.shape, "grad_input");
        checkShape(go, ix.shape, "grad_output");
        // Sums of repeated positions: float32 for floating dtypes (float64 for float64), 32-bit ints otherwise (narrow
        // ints and bool wrap as in the reference).
        diopiDtype_t accT = isFloatingDtype(gi.dtype) ? accDtype(gi) : diopi_dtype_int32;
        if (gi.dtype == diopi_dtype_int64) accT = diopi_dtype_int64;
        TensorView acc = gi.dtype == accT && gi.isContiguous() ? gi : newTensor(ctx, in.shape, accT);
        zeroFill(acc);
        TensorView src = castTo(ctx, go, accT);
        scatterImpl(ctx, acc, nullptr, dim, &src, nullptr, ix, "add");
        if (acc.data != gi.data) moveCopy(gi, acc);
    });
}

diopiError_t diopiScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t src,
                          diopiConstTensorHandle_t index, const char* reduce) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input"), s = view(src, "src");
        scatterImpl(ctx, o, &in, dim, &s, nullptr, view(index, "index"), reduce);
    });
}

diopiError_t diopiScatterInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t src,
                             diopiConstTensorHandle_t index, const char* reduce) {
    return guard(__func__, [&] {
        TensorView i = view(input, "input"), s = view(src, "src");
        scatterImpl(ctx, i, nullptr, dim, &s, nullptr, view(index, "index"), reduce);
    });
}

diopiError_t diopiScatterScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                const diopiScalar_t* value, diopiConstTensorHandle_t index, const char* reduce) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        CPU_CHECK(value, "value is NULL");
        scatterImpl(ctx, o, &in, dim, nullptr, value, view(index, "index"), reduce);
    });
}

diopiError_t diopiScatterInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, const diopiScalar_t* value,
                                   diopiConstTensorHandle_t index, const char* reduce) {
    return guard(__func__, [&] {
        TensorView i = view(input, "input");
        CPU_CHECK(value, "value is NULL");
        scatterImpl(ctx, i, nullptr, dim, nullptr, value, view(index, "index"), reduce);
    });
}

// ---------------------------------------------------------------- one_hot and embedding

diopiError_t diopiOneHot(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t num_classes) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        CPU_CHECK(num_classes > 0 || num_classes == -1, "num_classes must be positive, or -1 to infer it from the data");
        std::vector<int64_t> lab = readIndices(in, "input");
        if (num_classes == -1) {
            CPU_CHECK(!lab.empty(), "cannot infer the number of classes from an empty tensor");
            num_classes = *std::max_element(lab.begin(), lab.end()) + 1;
        }
        for (int64_t v : lab) {
            CPU_CHECK(v >= 0, "class values must be non-negative, got ", v);
            CPU_CHECK(v < num_classes, "class value ", v, " is not smaller than num_classes ", num_classes);
        }
        Shape expect = in.shape;
        expect.push_back(num_classes);
        checkShape(o, expect);
        zeroFill(o);
        Shape ost(o.strides.begin(), o.strides.end() - 1);
        const int64_t cst = o.strides.back();
        dispatch<AllTypes>(o.dtype, "out", [&](auto tag) {
            using T = typename decltype(tag)::type;
            T* op = o.ptr<T>();
            const T one = convert<T>(1);
            forEachPos<1>(in.shape, {ost}, false, [&](int64_t k, const std::array<int64_t, 1>& off) { op[off[0] + lab[k] * cst] = one; });
        });
    });
}

diopiError_t diopiEmbedding(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t indices,
                            int64_t padding_idx, bool scale_grad_byfreq, bool sparse) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), w = view(weight, "weight"), ix = view(indices, "indices");
        CPU_CHECK(w.dim() == 2, "weight must be 2-d, got ", w.dim(), " dims");
        std::vector<int64_t> idx = readIndices(ix, "indices");
        checkIndices(idx, w.shape[0], false, "indices", 0);
        Shape expect = ix.shape;
        expect.push_back(w.shape[1]);
        checkShape(o, expect);
        const int64_t K = idx.size(), D = w.shape[1];
        TensorView src = castTo(ctx, w, o.dtype);
        TensorView dst = o.isContiguous() ? o.reshaped({K, D}) : newTensor(ctx, {K, D}, o.dtype);
        std::vector<std::vector<int64_t>> tab(2);
        tab[0].resize(K);
        for (int64_t k = 0; k < K; ++k) tab[0][k] = idx[k] * src.strides[0] * src.itemsize;
        tab[1] = identityTable(src, 1);
        gatherTables(dst, src.data, tab);
        if (dst.data != o.data) moveCopy(o, dst.reshaped(o.shape));
    });
}

diopiError_t diopiEmbeddingBackward(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t grad, diopiConstTensorHandle_t indices,
                                    int64_t num_weights, int64_t padding_idx, bool scale_grad_byfreq, bool sparse) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), g = view(grad, "grad"), ix = view(indices, "indices");
        CPU_CHECK(num_weights >= 0, "num_weights must be non-negative");
        CPU_CHECK(g.dim() == ix.dim() + 1, "grad must have shape indices.shape + (embedding_dim,)");
        for (int64_t j = 0; j < ix.dim(); ++j)
            CPU_CHECK(g.shape[j] == ix.shape[j], "grad shape ", shapeStr(g.shape), " does not start with the indices shape ", shapeStr(ix.shape));
        const int64_t D = g.shape.back();
        checkShape(o, {num_weights, D});
        if (!isFloatingDtype(o.dtype)) failCode(diopiDtypeNotSupported, "out must be floating point, got ", dtypeName(o.dtype));
        std::vector<int64_t> idx = readIndices(ix, "indices");
        // The padding row never receives gradient (-1 means no padding row, as in the ATen op).
        for (int64_t v : idx)
            if (v != padding_idx) CPU_CHECK(v >= 0 && v < num_weights, "index ", v, " is out of range for ", num_weights, " embeddings");
        std::vector<int64_t> counts;
        if (scale_grad_byfreq) {
            counts.assign(num_weights, 0);
            for (int64_t v : idx)
                if (v >= 0 && v < num_weights) ++counts[v];
        }
        TensorView acc = denseAcc(ctx, o);
        zeroFill(acc);
        TensorView gc = contiguousAs(ctx, g, acc.dtype);
        withAcc(acc.dtype, [&](auto tag) {
            using S = typename decltype(tag)::type;
            S* A = acc.ptr<S>();
            const S* G = gc.ptr<S>();
            for (size_t k = 0; k < idx.size(); ++k) {
                int64_t r = idx[k];
                if (r == padding_idx) continue;
                const S* gr = G + k * D;
                S* ar = A + r * D;
                if (scale_grad_byfreq) {
                    const S s = S(1) / S(counts[r]);
                    for (int64_t j = 0; j < D; ++j) ar[j] += gr[j] * s;
                } else {
                    for (int64_t j = 0; j < D; ++j) ar[j] += gr[j];
                }
            }
        });
        if (acc.data != o.data) moveCopy(o, acc);
    });
}

diopiError_t diopiEmbeddingRenorm_(diopiContextHandle_t ctx, diopiTensorHandle_t inout, diopiConstTensorHandle_t indices, double max_norm,
                                   double norm_type) {
    return guard(__func__, [&] {
        TensorView w = view(inout, "inout"), ix = view(indices, "indices");
        CPU_CHECK(w.dim() == 2, "inout must be a 2-d embedding matrix");
        std::vector<int64_t> idx = readIndices(ix, "indices");
        checkIndices(idx, w.shape[0], true, "indices", 0);
        std::sort(idx.begin(), idx.end());
        idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
        const int64_t D = w.shape[1], rs = w.strides[0], cs = w.strides[1];
        dispatch<FloatTypes>(w.dtype, "inout", [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;  // the scale multiplies in float (double for float64)
            T* base = w.ptr<T>();
            for (int64_t r : idx) {
                T* row = base + r * rs;
                double norm = 0;
                if (std::isinf(norm_type)) {
                    for (int64_t j = 0; j < D; ++j) norm = std::max(norm, std::fabs(double(A(row[j * cs]))));
                } else if (norm_type == 0) {
                    for (int64_t j = 0; j < D; ++j) norm += A(row[j * cs]) != A(0);
                } else {
                    for (int64_t j = 0; j < D; ++j) norm += std::pow(std::fabs(double(A(row[j * cs]))), norm_type);
                    norm = std::pow(norm, 1.0 / norm_type);
                }
                if (norm > max_norm) {
                    const A scale = A(max_norm / (norm + 1e-7));
                    for (int64_t j = 0; j < D; ++j) row[j * cs] = T(A(row[j * cs]) * scale);
                }
            }
        });
    });
}

}  // namespace impl::cpu
