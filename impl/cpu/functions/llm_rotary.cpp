// Rotary position embedding: the out-of-place operator (half-split or interleaved pairs, conj, partial rotary
// width) and the in-place query/key variant in the rotate-half form. Both are written as two strided elementwise
// passes over views of the pair members, so any layout of x, out and the tables works without copies of the tables.
#include <array>
#include <vector>

#include "common/common.hpp"

namespace impl::cpu {

namespace {

// The last dim of v narrowed to `n` elements starting at `first`, stepping `step` elements.
TensorView lastDimSlice(const TensorView& v, int64_t first, int64_t n, int64_t step) {
    Shape sh = v.shape, st = v.strides;
    sh.back() = n;
    st.back() = v.strides.back() * step;
    return v.restrided(sh, st, first * v.strides.back());
}

// o1 = x1 * c1 - x2 * s1 and o2 = x2 * c2 + x1 * s2 (s negated when conj). x1 / x2 must not alias o1 / o2.
// Tables broadcast to the outputs' shape; arithmetic in float (double for float64), one rounding per result.
void rotatePairs(const TensorView& o1, const TensorView& o2, const TensorView& x1, const TensorView& x2, const TensorView& c1,
                 const TensorView& s1, const TensorView& c2, const TensorView& s2, bool conj) {
    dispatch<FloatTypes>(o1.dtype, "x", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using A = acc_t<T>;
        const A sign = conj ? A(-1) : A(1);
        elementwise<T, T, T, T, T>(o1, {&x1, &x2, &c1, &s1}, [sign](T a, T b, T c, T s) {
            return T(A(a) * A(c) - A(b) * (sign * A(s)));
        });
        elementwise<T, T, T, T, T>(o2, {&x1, &x2, &c2, &s2}, [sign](T a, T b, T c, T s) {
            return T(A(b) * A(c) + A(a) * (sign * A(s)));
        });
    });
}

// A dense copy of v (in-place rotation reads every element after its partner was overwritten).
TensorView denseCopy(diopiContextHandle_t ctx, const TensorView& v) {
    TensorView t = newTensor(ctx, v.shape, v.dtype);
    copyCast(t, v);
    return t;
}

// q / k as (..., heads, dim): a tensor of 3 or more dims whose last dim is dim is taken as is, otherwise the last dim
// holds heads * dim and is split (a view: splitting one dim never needs a copy).
TensorView headsView(const TensorView& t, int64_t dim, const char* name) {
    CPU_CHECK(t.dim() >= 2, name, " must have at least 2 dims, got ", shapeStr(t.shape));
    if (t.size(-1) == dim && t.dim() >= 3) return t;
    CPU_CHECK(t.size(-1) % dim == 0, name, ": last dim ", t.size(-1), " is not a multiple of dim ", dim);
    Shape sh(t.shape.begin(), t.shape.end() - 1), st(t.strides.begin(), t.strides.end() - 1);
    const int64_t s = t.strides.back();
    sh.push_back(t.size(-1) / dim);
    st.push_back(s * dim);
    sh.push_back(dim);
    st.push_back(s);
    return t.restrided(sh, st);
}

// A cos / sin table against a rank-`rank` (..., heads, dim) tensor: lower-rank tables get a size-1 head axis before
// the last dim, e.g. (T, c) -> (T, 1, c), then broadcast from the right.
TensorView tableView(const TensorView& c, int64_t rank, const char* name) {
    CPU_CHECK(c.dim() >= 1 && c.dim() <= rank, name, " ", shapeStr(c.shape), " has more dims than the rotated tensor");
    if (c.dim() == rank) return c;
    Shape sh = c.shape, st = c.strides;
    sh.insert(sh.end() - 1, 1);
    st.insert(st.end() - 1, 0);
    return c.restrided(sh, st);
}

/// Calls f(offsets) for every position of `outer` (row-major) in parallel chunks, offsets[k] being the position's
/// element offset under strides[k]. f must not throw.
template <size_t K, class F>
void forRows(const Shape& outer, const std::array<Shape, K>& strides, int64_t rowWork, F&& f) {
    const int64_t rows = shapeNumel(outer), nd = (int64_t)outer.size();
    parallelFor(rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, rowWork)), [&](int64_t b, int64_t e) {
        std::vector<int64_t> idx((size_t)nd, 0);
        int64_t rem = b;
        for (int64_t k = nd - 1; k >= 0; --k) {
            idx[k] = rem % outer[k];
            rem /= outer[k];
        }
        for (int64_t r = b; r < e; ++r) {
            std::array<int64_t, K> off{};
            for (int64_t k = 0; k < nd; ++k)
                for (size_t q = 0; q < K; ++q) off[q] += idx[k] * strides[q][k];
            f(off);
            for (int64_t k = nd - 1; k >= 0; --k) {
                if (++idx[k] < outer[k]) break;
                idx[k] = 0;
            }
        }
    });
}

/// Strides of table t (right-aligned, broadcast) over the leading dims `outer` (0 where t has size 1 or no dim).
Shape broadcastLeading(const TensorView& t, const Shape& outer) {
    const int64_t nd = (int64_t)outer.size(), tl = t.dim() - 1, off = nd - tl;
    CPU_CHECK(off >= 0, "table ", shapeStr(t.shape), " has more dims than the rotated tensor");
    Shape st((size_t)nd, 0);
    for (int64_t k = 0; k < tl; ++k) {
        if (t.shape[k] == outer[k + off]) st[k + off] = t.shape[k] == 1 ? 0 : t.strides[k];
        else CPU_CHECK(t.shape[k] == 1, "table ", shapeStr(t.shape), " does not broadcast to the leading dims ", shapeStr(outer));
    }
    return st;
}

/// Rotates one head row x[0 .. dim) in place in the rotate-half form (pairs i, i + dim / 2 are read before written).
template <class T>
inline void rotateHalfRow(T* x, int64_t half, const T* c1, const T* s1, const T* c2, const T* s2) {
    using A = acc_t<T>;
    for (int64_t i = 0; i < half; ++i) {
        const A a = A(x[i]), b = A(x[i + half]);
        x[i] = T(a * A(c1[i]) - b * A(s1[i]));
        x[i + half] = T(b * A(c2[i]) + a * A(s2[i]));
    }
}

void rotateInPlace(diopiContextHandle_t ctx, const TensorView& t, const TensorView& cosT, const TensorView& sinT, int64_t dim, const char* name) {
    dispatch<FloatTypes>(t.dtype, name, [](auto) {});
    TensorView o = headsView(t, dim, name);
    if (o.numel == 0) return;
    const int64_t half = dim / 2, rank = o.dim();
    TensorView c = tableView(castTo(ctx, cosT, t.dtype), rank, "cos"), s = tableView(castTo(ctx, sinT, t.dtype), rank, "sin");
    const int64_t cw = c.size(-1);
    CPU_CHECK(cw == dim || cw == half, "cos / sin last dim must be dim (", dim, ") or dim / 2, got ", cw);
    const Shape lead(o.shape.begin(), o.shape.end() - 1);
    CPU_CHECK(broadcastShapes(Shape(c.shape.begin(), c.shape.end() - 1), lead) == lead, "cos ", shapeStr(cosT.shape), " does not broadcast to ",
              shapeStr(o.shape));
    if (o.strides.back() == 1) {
        // Direct path: every head row is rotated in place, reading its table row through broadcast strides.
        if (c.strides.back() != 1) c = contiguousAs(ctx, c, c.dtype);
        if (s.strides.back() != 1 || s.strides != c.strides) {
            s = contiguousAs(ctx, s, s.dtype);
            c = contiguousAs(ctx, c, c.dtype);
        }
        Shape outer(o.shape.begin(), o.shape.end() - 1);  // leading dims and heads
        Shape ost(o.strides.begin(), o.strides.end() - 1), cst(outer.size(), 0);
        for (size_t k = 0; k < outer.size(); ++k) cst[k] = c.shape[k] == 1 ? 0 : c.strides[k];
        dispatch<FloatTypes>(o.dtype, name, [&](auto tag) {
            using T = typename decltype(tag)::type;
            T* op = o.ptr<T>();
            const T* cp = c.ptr<const T>();
            const T* sp = s.ptr<const T>();
            const int64_t second = cw == dim ? half : 0;
            forRows<2>(outer, {ost, cst}, dim, [&](const std::array<int64_t, 2>& off) {
                const int64_t co = off[1];
                rotateHalfRow<T>(op + off[0], half, cp + co, sp + co, cp + co + second, sp + co + second);
            });
        });
        return;
    }
    TensorView x = denseCopy(ctx, o);
    TensorView c1, c2, s1, s2;
    if (cw == dim) {  // rotate-half tables: separate cosines for the two halves
        c1 = lastDimSlice(c, 0, half, 1), c2 = lastDimSlice(c, half, half, 1);
        s1 = lastDimSlice(s, 0, half, 1), s2 = lastDimSlice(s, half, half, 1);
    } else {
        c1 = c2 = c, s1 = s2 = s;
    }
    rotatePairs(lastDimSlice(o, 0, half, 1), lastDimSlice(o, half, half, 1), lastDimSlice(x, 0, half, 1), lastDimSlice(x, half, half, 1), c1, s1,
                c2, s2, false);
}

}  // namespace

// x (..., D); cos / sin (..., R/2) with R <= D, broadcastable from the right to x[..., :R/2]; out like x. With
// (x1, x2) the two halves of x[..., :R] (or its even / odd features when interleaved):
//   out1 = x1 cos - x2 sin,  out2 = x1 sin + x2 cos   (conj negates sin)
// stored where x1 / x2 came from; features past R are copied.
diopiError_t diopiRotaryEmbedding(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t x, diopiConstTensorHandle_t cos,
                                  diopiConstTensorHandle_t sin, const bool conj, const bool interleaved) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), xv = view(x, "x"), c = view(cos, "cos"), s = view(sin, "sin");
        dispatch<FloatTypes>(xv.dtype, "x", [](auto) {});
        CPU_CHECK(o.dtype == xv.dtype, "out dtype ", dtypeName(o.dtype), " must match x dtype ", dtypeName(xv.dtype));
        CPU_CHECK(xv.dim() >= 1, "x must have at least 1 dim");
        CPU_CHECK(o.shape == xv.shape, "out shape ", shapeStr(o.shape), " must match x shape ", shapeStr(xv.shape));
        CPU_CHECK(c.shape == s.shape, "cos ", shapeStr(c.shape), " and sin ", shapeStr(s.shape), " must have the same shape");
        CPU_CHECK(c.dim() >= 1, "cos must have at least 1 dim");
        const int64_t d = xv.size(-1), half = c.size(-1), r = 2 * half;
        CPU_CHECK(r <= d, "cos / sin last dim ", half, " must be at most half of x's last dim ", d);
        if (o.numel == 0) return;
        c = castTo(ctx, c, xv.dtype);
        s = castTo(ctx, s, xv.dtype);
        const Shape outer(xv.shape.begin(), xv.shape.end() - 1);
        if (o.strides.back() == 1 && xv.strides.back() == 1 && (o.data == xv.data ? o.strides == xv.strides : true)) {
            // Direct path: each row of out from its row of x (pairs are read before written, so out may be x) and
            // its table row, reached through broadcast strides.
            c = contiguousAs(ctx, c, c.dtype);
            s = contiguousAs(ctx, s, s.dtype);
            const Shape cst = broadcastLeading(c, outer);
            const Shape ost(o.strides.begin(), o.strides.end() - 1), xst(xv.strides.begin(), xv.strides.end() - 1);
            dispatch<FloatTypes>(xv.dtype, "x", [&](auto tag) {
                using T = typename decltype(tag)::type;
                using A = acc_t<T>;
                T* op = o.ptr<T>();
                const T* xp = xv.ptr<const T>();
                const T* cp = c.ptr<const T>();
                const T* sp = s.ptr<const T>();
                const A sign = conj ? A(-1) : A(1);
                const int64_t p2 = interleaved ? 1 : half, step = interleaved ? 2 : 1;
                forRows<3>(outer, {ost, xst, cst}, d, [&](const std::array<int64_t, 3>& off) {
                    T* orow = op + off[0];
                    const T* xr = xp + off[1];
                    const T* cr = cp + off[2];
                    const T* sr = sp + off[2];
                    for (int64_t i = 0; i < half; ++i) {
                        const A a = A(xr[i * step]), b = A(xr[i * step + p2]), cc = A(cr[i]), ss = sign * A(sr[i]);
                        orow[i * step] = T(a * cc - b * ss);
                        orow[i * step + p2] = T(b * cc + a * ss);
                    }
                    if (orow != xr)
                        for (int64_t i = r; i < d; ++i) orow[i] = xr[i];
                });
            });
            return;
        }
        // x and out are distinct tensors for this out-of-place operator, but a caller may pass the same memory.
        if (o.data == xv.data) xv = denseCopy(ctx, xv);
        const int64_t first2 = interleaved ? 1 : half, step = interleaved ? 2 : 1;
        rotatePairs(lastDimSlice(o, 0, half, step), lastDimSlice(o, first2, half, step), lastDimSlice(xv, 0, half, step),
                    lastDimSlice(xv, first2, half, step), c, s, c, s, conj);
        if (r < d) copyCast(lastDimSlice(o, r, d - r, 1), lastDimSlice(xv, r, d - r, 1));
    });
}

// In place on query and key (key may be NULL): every head of size dim is rotated in the rotate-half form
//   out[:dim/2] = x0 c0 - x1 s0,  out[dim/2:] = x1 c1 + x0 s1
// where cos / sin have last dim dim / 2 (c0 = c1) or dim (c0 / c1 their halves), and leading dims indexing tokens.
diopiError_t diopiRotaryEmbeddingV2(diopiContextHandle_t ctx, diopiTensorHandle_t query, diopiTensorHandle_t key, diopiConstTensorHandle_t cos,
                                    diopiConstTensorHandle_t sin, int64_t dim) {
    return guard(__func__, [&] {
        CPU_CHECK(dim > 0 && dim % 2 == 0, "dim must be positive and even, got ", dim);
        TensorView q = view(query, "query"), c = view(cos, "cos"), s = view(sin, "sin");
        CPU_CHECK(c.shape == s.shape, "cos ", shapeStr(c.shape), " and sin ", shapeStr(s.shape), " must have the same shape");
        rotateInPlace(ctx, q, c, s, dim, "query");
        if (key != nullptr) rotateInPlace(ctx, view(key, "key"), c, s, dim, "key");
    });
}

}  // namespace impl::cpu
