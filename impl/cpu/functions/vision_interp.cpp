// Vision and interpolation: NMS, RoIAlign (forward / backward), grid sampling, nearest and (bi/tri)linear / bicubic
// resizing (forward / backward).
//
// Kernels read the caller's tensors where they are (any strides or layout). Resizing and grid sampling compute in
// double for float64 and in float otherwise (weights and coordinates from double where cheap), NMS and RoIAlign
// in double; each result is rounded once into the caller's output. Resizing is separable: each spatial axis is a
// small sparse matrix (output index -> a few input taps and weights); one output row at a time, the leading axes
// combine whole input rows and the last axis gathers from that row. The backward applies the transposed matrices,
// which turns the scatter-add of the gradient into a gather with a fixed order, so it is deterministic and needs no
// atomics. RoIAlign's backward parallelises over feature-map planes for the same reason.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "common/common.hpp"
#include "common/fastmath.hpp"


namespace impl::cpu {

namespace {

// ---------------------------------------------------------------- dense double buffers

struct Buffer {
    Shape shape;
    std::vector<double> v;
    TensorView view() {
        TensorView t;
        t.data = reinterpret_cast<char*>(v.data());
        t.dtype = diopi_dtype_float64;
        t.shape = shape;
        t.strides = contiguousStrides(shape);
        t.numel = (int64_t)v.size();
        t.itemsize = 8;
        return t;
    }
};

Buffer readDouble(const TensorView& t) {
    Buffer b;
    b.shape = t.shape;
    b.v.assign(t.numel, 0.0);
    if (t.numel) copyCast(b.view(), t);
    return b;
}

Buffer zeros(const Shape& shape) {
    Buffer b;
    b.shape = shape;
    b.v.assign(shapeNumel(shape), 0.0);
    return b;
}

void writeOut(const TensorView& out, Buffer& b) {
    CPU_CHECK(out.shape == b.shape, "output shape ", shapeStr(out.shape), " must be ", shapeStr(b.shape));
    if (out.numel == 0) return;
    if (!out.isContiguous()) return copyCast(out, b.view());
    dispatch<FloatTypes>(out.dtype, "out", [&](auto tag) {  // the common dense case without the general copy
        using T = typename decltype(tag)::type;
        T* d = out.ptr<T>();
        for (int64_t i = 0; i < out.numel; ++i) d[i] = T(static_cast<acc_t<T>>(b.v[i]));
    });
}

// One float element (offset in elements) as double, and back with one rounding.
double readElem(const TensorView& t, int64_t off) {
    double v = 0;
    dispatch<FloatTypes>(t.dtype, "tensor", [&](auto tag) {
        using T = typename decltype(tag)::type;
        v = double(acc_t<T>(t.ptr<T>()[off]));
    });
    return v;
}

void writeElem(const TensorView& t, int64_t off, double v) {
    dispatch<FloatTypes>(t.dtype, "tensor", [&](auto tag) {
        using T = typename decltype(tag)::type;
        t.ptr<T>()[off] = T(static_cast<acc_t<T>>(v));
    });
}

void requireFloat(const TensorView& t, const char* name) { dispatch<FloatTypes>(t.dtype, name, [](auto) {}); }

// ---------------------------------------------------------------- separable resizing

// One axis of a resize: row r (an output index) reads in[idx[k]] * w[k] for k in [start[r], start[r + 1]).
struct AxisOp {
    int64_t rows = 0, cols = 0;
    std::vector<int64_t> start{0}, idx;
    std::vector<double> w;
    void add(int64_t i, double weight) {
        idx.push_back(i);
        w.push_back(weight);
    }
    void endRow() { start.push_back((int64_t)idx.size()); }
};

// The transposed operator: row c lists the (output index, weight) pairs that read input c, in output order.
AxisOp transposed(const AxisOp& a) {
    AxisOp t;
    t.rows = a.cols;
    t.cols = a.rows;
    std::vector<int64_t> count(a.cols + 1, 0);
    for (int64_t i : a.idx) ++count[i + 1];
    std::partial_sum(count.begin(), count.end(), count.begin());
    t.start = count;
    t.idx.assign(a.idx.size(), 0);
    t.w.assign(a.w.size(), 0.0);
    std::vector<int64_t> fill(count.begin(), count.end() - 1);
    for (int64_t r = 0; r < a.rows; ++r) {
        for (int64_t k = a.start[r]; k < a.start[r + 1]; ++k) {
            int64_t pos = fill[a.idx[k]]++;
            t.idx[pos] = r;
            t.w[pos] = a.w[k];
        }
    }
    return t;
}

// torch's "nearest": source = floor(dst * in / out) computed in float, with exact paths for equal and doubled sizes.
AxisOp nearestOp(int64_t in, int64_t out) {
    AxisOp a;
    a.rows = out;
    a.cols = in;
    const float scale = (float)in / (float)out;
    for (int64_t o = 0; o < out; ++o) {
        int64_t s;
        if (out == in) s = o;
        else if (out == 2 * in) s = o >> 1;
        else s = std::min<int64_t>((int64_t)std::floor((float)o * scale), in - 1);
        a.add(s, 1.0);
        a.endRow();
    }
    return a;
}

double sourceScale(int64_t in, int64_t out, bool alignCorners) {
    if (alignCorners) return out > 1 ? double(in - 1) / double(out - 1) : 0.0;
    return double(in) / double(out);
}

// Source coordinate of output index o; linear modes clamp negative coordinates to 0, cubic does not.
double sourceCoord(double scale, int64_t o, bool alignCorners, bool cubic) {
    if (alignCorners) return scale * double(o);
    double s = scale * (double(o) + 0.5) - 0.5;
    return (!cubic && s < 0) ? 0.0 : s;
}

AxisOp linearOp(int64_t in, int64_t out, bool alignCorners) {
    AxisOp a;
    a.rows = out;
    a.cols = in;
    const double scale = sourceScale(in, out, alignCorners);
    for (int64_t o = 0; o < out; ++o) {
        double src = sourceCoord(scale, o, alignCorners, false);
        int64_t i0 = std::min<int64_t>((int64_t)std::floor(src), in - 1);
        double l = std::min(std::max(src - double(i0), 0.0), 1.0);
        int64_t i1 = i0 + (i0 < in - 1 ? 1 : 0);
        a.add(i0, 1.0 - l);
        a.add(i1, l);
        a.endRow();
    }
    return a;
}

// Cubic convolution (Keys, a = -0.75 as torch) over 4 taps; taps past the border read the edge pixel.
AxisOp cubicOp(int64_t in, int64_t out, bool alignCorners) {
    AxisOp a;
    a.rows = out;
    a.cols = in;
    const double A = -0.75;
    auto near = [A](double x) { return ((A + 2) * x - (A + 3)) * x * x + 1; };        // |x| <= 1
    auto far = [A](double x) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; };  // 1 < |x| < 2
    const double scale = sourceScale(in, out, alignCorners);
    for (int64_t o = 0; o < out; ++o) {
        double src = sourceCoord(scale, o, alignCorners, true);
        double f = std::floor(src);
        double t = src - f;
        int64_t i = (int64_t)f;
        double c[4] = {far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t)};
        for (int k = 0; k < 4; ++k) a.add(std::min(std::max<int64_t>(i - 1 + k, 0), in - 1), c[k]);
        a.endRow();
    }
    return a;
}

// ---------------------------------------------------------------- per-level loops of the resize engine
//
// The loops touching every element, compiled once per instruction-set level (GCC vectorises them; the gathers use
// the level's gather instructions) and picked once from isa().
template <class A>
using MaskOf = std::conditional_t<std::is_same_v<A, double>, int64_t, int32_t>;  // a lane mask as wide as A
constexpr int64_t kGridBlock = 64;

template <class A>
struct ResizePrims {
    void (*scale)(const A*, A, A*, int64_t);       ///< d = w * s
    void (*axpy)(const A*, A, A*, int64_t);        ///< d += w * s
    void (*gather1)(const A*, const int32_t*, A*, int64_t);                 ///< out[o] = t[ix[o]]
    void (*gather2)(const A*, const int32_t*, const A*, A*, int64_t);       ///< out[o] = sum of 2 weighted taps
    // 2-d bilinear grid sampling of a block of m <= kGridBlock points (align_corners = false, zero padding):
    // taps() turns grid coordinates into 4 corner offsets (int32, within one plane), weights and in-range masks;
    // sample() sums them on one channel plane.
    void (*bilinearTaps)(const A*, const A*, int64_t, int32_t, int32_t, int32_t, int32_t, int32_t*, A*, MaskOf<A>*);
    void (*bilinearSample)(const A*, const int32_t*, const A*, const MaskOf<A>*, A*, int64_t);
};

namespace rbody {
template <class A>
CPU_FORCE_INLINE void scale(const A* __restrict s, A w, A* __restrict d, int64_t n) {
    for (int64_t i = 0; i < n; ++i) d[i] = w * s[i];
}
template <class A>
CPU_FORCE_INLINE void axpy(const A* __restrict s, A w, A* __restrict d, int64_t n) {
    for (int64_t i = 0; i < n; ++i) d[i] += w * s[i];
}
template <class A>
CPU_FORCE_INLINE void gather1(const A* __restrict t, const int32_t* __restrict ix, A* __restrict out, int64_t n) {
    for (int64_t o = 0; o < n; ++o) out[o] = t[ix[o]];
}
template <int K, class A>
CPU_FORCE_INLINE void gatherK(const A* __restrict t, const int32_t* __restrict ix, const A* __restrict w, A* __restrict out, int64_t n) {
    for (int64_t o = 0; o < n; ++o) {
        A acc = w[o * K] * t[ix[o * K]];
        for (int k = 1; k < K; ++k) acc += w[o * K + k] * t[ix[o * K + k]];
        out[o] = acc;
    }
}
// Corner k (bit 0: x + 1, bit 1: y + 1) of point j is at [k * kGridBlock + j] in off / w / ok.
template <class A>
CPU_FORCE_INLINE void bilinearTaps(const A* __restrict gx, const A* __restrict gy, int64_t m, int32_t W, int32_t H, int32_t sw, int32_t sh,
                                   int32_t* __restrict off, A* __restrict w, MaskOf<A>* __restrict ok) {
    using M = MaskOf<A>;
    for (int64_t j = 0; j < m; ++j) {
        const A cx = ((gx[j] + A(1)) * A(W) - A(1)) * A(0.5), cy = ((gy[j] + A(1)) * A(H) - A(1)) * A(0.5);
        // floor through a clamped integer conversion (NaN and far coordinates land outside: no corner in range)
        A qx = cx > A(-2) ? cx : A(-2), qy = cy > A(-2) ? cy : A(-2);
        qx = qx < A(W + 1) ? qx : A(W + 1);
        qy = qy < A(H + 1) ? qy : A(H + 1);
        M x0 = M(qx), y0 = M(qy);
        x0 -= A(x0) > qx ? M(1) : M(0);
        y0 -= A(y0) > qy ? M(1) : M(0);
        const A ax = cx - A(x0), ay = cy - A(y0);
        const bool inx0 = x0 >= 0 && x0 < W, inx1 = x0 + 1 >= 0 && x0 + 1 < W;
        const bool iny0 = y0 >= 0 && y0 < H, iny1 = y0 + 1 >= 0 && y0 + 1 < H;
        const int32_t o = int32_t(x0) * sw + int32_t(y0) * sh;
        const bool in[4] = {inx0 && iny0, inx1 && iny0, inx0 && iny1, inx1 && iny1};
        const int32_t d[4] = {0, sw, sh, sw + sh};
        const A wt[4] = {(A(1) - ax) * (A(1) - ay), ax * (A(1) - ay), (A(1) - ax) * ay, ax * ay};
        for (int k = 0; k < 4; ++k) {
            off[k * kGridBlock + j] = in[k] ? o + d[k] : 0;
            w[k * kGridBlock + j] = wt[k];
            ok[k * kGridBlock + j] = in[k] ? M(-1) : M(0);
        }
    }
}
template <class A>
CPU_FORCE_INLINE void bilinearSample(const A* __restrict src, const int32_t* __restrict off, const A* __restrict w, const MaskOf<A>* __restrict ok,
                                     A* __restrict out, int64_t m) {
    for (int64_t j = 0; j < m; ++j) {
        A acc = 0;
        for (int k = 0; k < 4; ++k) {
            const A v = w[k * kGridBlock + j] * src[off[k * kGridBlock + j]];
            acc += ok[k * kGridBlock + j] ? v : A(0);
        }
        out[j] = acc;
    }
}
}  // namespace rbody

#define RESIZE_PRIMS_LEVEL(NS, ATTR)                                                                                                 \
    namespace NS {                                                                                                                   \
    template <class A>                                                                                                               \
    ATTR void scale(const A* s, A w, A* d, int64_t n) {                                                                              \
        rbody::scale(s, w, d, n);                                                                                                    \
    }                                                                                                                                \
    template <class A>                                                                                                               \
    ATTR void axpy(const A* s, A w, A* d, int64_t n) {                                                                               \
        rbody::axpy(s, w, d, n);                                                                                                     \
    }                                                                                                                                \
    template <class A>                                                                                                               \
    ATTR void gather1(const A* t, const int32_t* ix, A* out, int64_t n) {                                                            \
        rbody::gather1(t, ix, out, n);                                                                                               \
    }                                                                                                                                \
    template <class A>                                                                                                               \
    ATTR void gather2(const A* t, const int32_t* ix, const A* w, A* out, int64_t n) {                                                \
        rbody::gatherK<2>(t, ix, w, out, n);                                                                                         \
    }                                                                                                                                \
    template <class A>                                                                                                               \
    ATTR void bilinearTaps(const A* gx, const A* gy, int64_t m, int32_t W, int32_t H, int32_t sw, int32_t sh, int32_t* off, A* w,    \
                           MaskOf<A>* ok) {                                                                                          \
        rbody::bilinearTaps(gx, gy, m, W, H, sw, sh, off, w, ok);                                                                    \
    }                                                                                                                                \
    template <class A>                                                                                                               \
    ATTR void bilinearSample(const A* src, const int32_t* off, const A* w, const MaskOf<A>* ok, A* out, int64_t m) {                 \
        rbody::bilinearSample(src, off, w, ok, out, m);                                                                              \
    }                                                                                                                                \
    template <class A>                                                                                                               \
    ResizePrims<A> prims() {                                                                                                         \
        return {&scale<A>, &axpy<A>, &gather1<A>, &gather2<A>, &bilinearTaps<A>, &bilinearSample<A>};                               \
    }                                                                                                                                \
    }

RESIZE_PRIMS_LEVEL(lvl_base, )
#if CPU_HAVE_X86_LEVELS
RESIZE_PRIMS_LEVEL(lvl_avx2, CPU_TARGET_AVX2)
RESIZE_PRIMS_LEVEL(lvl_avx512, CPU_TARGET_AVX512)
#endif
#undef RESIZE_PRIMS_LEVEL

template <class A>
const ResizePrims<A>& resizePrims() {
    static const ResizePrims<A> p = [] {
#if CPU_HAVE_X86_LEVELS
        if (isa() >= Isa::Avx512) return lvl_avx512::prims<A>();
        if (isa() >= Isa::Avx2) return lvl_avx2::prims<A>();
#endif
        return lvl_base::prims<A>();
    }();
    return p;
}

// y = x resized by one operator per spatial axis (ops[a] maps x's size of spatial axis a to y's), computed in A
// straight from the caller's tensors (any strides and float dtype). One task unit is one output row (all spatial
// axes but the last): the leading axes' taps combine whole input rows into a row buffer (vectorised axpy), then the
// last axis' taps gather from it. Backward passes call this with the transposed operators (a fixed-order gather).
template <class A>
void resizeRows(const TensorView& x, const TensorView& y, const std::vector<AxisOp>& ops) {
    const int64_t nd = (int64_t)ops.size(), lead = nd - 1, C = x.shape[1];
    const int64_t Wi = x.shape.back(), Wo = y.shape.back();
    const int64_t xsw = x.strides.back(), ysw = y.strides.back();
    int64_t R = 1;  // output rows per plane
    for (int64_t a = 0; a < lead; ++a) R *= ops[a].rows;
    const int64_t units = y.shape[0] * C * R;
    if (units == 0 || Wo == 0) return;
    // The operators' weights in A; the last axis as a gather when it only copies (nearest, equal sizes).
    std::vector<std::vector<A>> wa(nd);
    for (int64_t a = 0; a < nd; ++a) wa[a].assign(ops[a].w.begin(), ops[a].w.end());
    const AxisOp& last = ops[nd - 1];
    const ResizePrims<A>& P = resizePrims<A>();
    // The last axis with the same tap count K on every output (1 nearest, 2 linear) runs a fixed gather.
    int64_t K = Wo > 0 ? last.start[1] - last.start[0] : 0;
    for (int64_t o = 0; o < Wo && K > 0; ++o)
        if (last.start[o + 1] - last.start[o] != K) K = 0;
    if (K != 1 && K != 2) K = 0;
    bool copyOnly = K == 1;
    for (int64_t o = 0; o < Wo && copyOnly; ++o) copyOnly = last.w[o] == 1.0;
    std::vector<int32_t> ix32(K ? last.idx.size() : 0);
    CPU_CHECK(Wi < (int64_t(1) << 31), "the last spatial dim is too large");
    for (size_t k = 0; k < ix32.size(); ++k) ix32[k] = (int32_t)last.idx[k];
    const bool direct = x.dtype == dtypeOf<A>() && (xsw == 1 || Wi == 1);
    const bool directOut = y.dtype == dtypeOf<A>() && (ysw == 1 || Wo == 1);
    int64_t rowTaps = 1;
    for (int64_t a = 0; a < lead; ++a) {
        int64_t m = 0;
        for (int64_t r = 0; r < ops[a].rows; ++r) m = std::max(m, ops[a].start[r + 1] - ops[a].start[r]);
        rowTaps *= std::max<int64_t>(m, 1);
    }
    const int64_t work = std::max<int64_t>(1, rowTaps * Wi + (int64_t)last.idx.size());
    parallelFor(units, std::max<int64_t>(1, kParallelGrain / work), [&](int64_t b, int64_t e) {
        std::vector<A> tmp(Wi), buf(direct ? 0 : Wi), orow(directOut ? 0 : Wo);
        std::vector<int64_t> toff, no, poff;  // input row offsets (elements) of the current output row's taps
        std::vector<A> tw, nw, pw;            // and their weights
        int64_t pnc = -1;                     // plane of the previous row (whose taps are poff, pw)
        A* prevOut = nullptr;
        for (int64_t u = b; u < e; ++u) {
            int64_t r = u % R;
            const int64_t nc = u / R, n = nc / C, c = nc % C;
            // Output row r -> per-axis output index (last leading axis fastest).
            int64_t oi[2] = {0, 0};
            for (int64_t a = lead - 1; a >= 0; --a) {
                oi[a] = r % ops[a].rows;
                r /= ops[a].rows;
            }
            toff.assign(1, 0);
            tw.assign(1, A(1));
            for (int64_t a = 0; a < lead; ++a) {
                const AxisOp& op = ops[a];
                const int64_t st = x.strides[2 + a];
                no.clear();
                nw.clear();
                for (size_t q = 0; q < toff.size(); ++q)
                    for (int64_t k = op.start[oi[a]]; k < op.start[oi[a] + 1]; ++k) {
                        no.push_back(toff[q] + op.idx[k] * st);
                        nw.push_back(tw[q] * wa[a][k]);
                    }
                toff.swap(no);
                tw.swap(nw);
            }
            const char* plane = x.data + (n * x.strides[0] + c * x.strides[1]) * x.itemsize;
            char* ydst = y.data + (n * y.strides[0] + c * y.strides[1]) * y.itemsize;
            for (int64_t a = 0; a < lead; ++a) ydst += oi[a] * y.strides[2 + a] * y.itemsize;
            A* out = directOut ? reinterpret_cast<A*>(ydst) : orow.data();
            // An output row with the previous row's taps (nearest / upsampling) is a copy of it.
            if (nc == pnc && toff == poff && tw == pw) {
                if (directOut) std::memcpy(out, prevOut, Wo * sizeof(A));
                else storeRow(orow.data(), ydst, ysw, Wo, y.dtype);
                prevOut = out;
                continue;
            }
            pnc = nc;
            poff = toff;
            pw = tw;
            prevOut = out;
            auto row = [&](int64_t off) -> const A* {
                const char* src = plane + off * x.itemsize;
                if (direct) return reinterpret_cast<const A*>(src);
                loadRow(src, xsw, Wi, x.dtype, buf.data());
                return buf.data();
            };
            // Combine the input rows.
            const A* t = tmp.data();
            if (toff.empty()) {
                std::fill(tmp.begin(), tmp.end(), A(0));
            } else if (toff.size() == 1 && tw[0] == A(1)) {
                t = row(toff[0]);
            } else {
                P.scale(row(toff[0]), tw[0], tmp.data(), Wi);
                for (size_t q = 1; q < toff.size(); ++q) P.axpy(row(toff[q]), tw[q], tmp.data(), Wi);
            }
            // Gather along the last axis.
            if (copyOnly) {
                P.gather1(t, ix32.data(), out, Wo);
            } else if (K == 2) {
                P.gather2(t, ix32.data(), wa[nd - 1].data(), out, Wo);
            } else {
                const int64_t* st = last.start.data();
                const int64_t* ix = last.idx.data();
                const A* w = wa[nd - 1].data();
                for (int64_t o = 0; o < Wo; ++o) {
                    A acc = 0;
                    for (int64_t k = st[o]; k < st[o + 1]; ++k) acc += w[k] * t[ix[k]];
                    out[o] = acc;
                }
            }
            if (!directOut) storeRow(orow.data(), ydst, ysw, Wo, y.dtype);
        }
    });
}

void resize(const TensorView& x, const TensorView& y, const std::vector<AxisOp>& ops) {
    if (y.dtype == diopi_dtype_float64) resizeRows<double>(x, y, ops);
    else resizeRows<float>(x, y, ops);
}

void requireInterpRank(const TensorView& x, const char* name) {
    CPU_CHECK(x.dim() >= 3 && x.dim() <= 5, name, " must be 3-D, 4-D or 5-D (N, C, spatial...), got shape ", shapeStr(x.shape));
}

Shape spatialOf(diopiSize_t s, int64_t n, const char* name) {
    Shape v = toShape(s);
    CPU_CHECK((int64_t)v.size() == n, name, " must have ", n, " entries, got ", shapeStr(v));
    for (int64_t x : v) CPU_CHECK(x > 0, name, " entries must be positive, got ", shapeStr(v));
    return v;
}

// in_size of a backward: the full input shape, or its spatial part (N and C then come from grad_output).
Shape fullInputSize(diopiSize_t inSize, const TensorView& go) {
    Shape v = toShape(inSize);
    if ((int64_t)v.size() == go.dim()) {
        CPU_CHECK(v[0] == go.shape[0] && v[1] == go.shape[1], "in_size ", shapeStr(v), " must share N and C with grad_output ", shapeStr(go.shape));
        return v;
    }
    CPU_CHECK((int64_t)v.size() == go.dim() - 2, "in_size must have ", go.dim() - 2, " (spatial) or ", go.dim(), " (full) entries, got ", shapeStr(v));
    Shape full{go.shape[0], go.shape[1]};
    full.insert(full.end(), v.begin(), v.end());
    return full;
}

// out_size of a backward: spatial entries, or the full output shape; must match grad_output.
void checkOutputSize(diopiSize_t outSize, const TensorView& go) {
    Shape v = toShape(outSize);
    Shape sp(go.shape.begin() + 2, go.shape.end());
    if ((int64_t)v.size() == go.dim()) v.erase(v.begin(), v.begin() + 2);
    CPU_CHECK(v == sp, "out_size ", shapeStr(toShape(outSize)), " does not match grad_output ", shapeStr(go.shape));
}

enum class Interp { Linear, Cubic };

Interp linearMode(const char* mode, int64_t rank) {
    CPU_CHECK(mode != nullptr, "mode is NULL");
    struct Entry {
        const char* name;
        Interp kind;
        int64_t rank;
    };
    static const Entry table[] = {{"linear", Interp::Linear, 3}, {"bilinear", Interp::Linear, 4}, {"bicubic", Interp::Cubic, 4}, {"trilinear", Interp::Linear, 5}};
    for (const Entry& e : table) {
        if (std::strcmp(mode, e.name) == 0) {
            CPU_CHECK(rank == e.rank, "mode \"", mode, "\" needs a ", e.rank, "-D tensor, got ", rank, "-D");
            return e.kind;
        }
    }
    fail("mode must be \"linear\", \"bilinear\", \"bicubic\" or \"trilinear\", got \"", mode, "\"");
}

std::vector<AxisOp> linearOps(const Shape& in, const Shape& out, bool alignCorners, Interp kind) {
    std::vector<AxisOp> ops;
    for (size_t d = 2; d < in.size(); ++d)
        ops.push_back(kind == Interp::Cubic ? cubicOp(in[d], out[d], alignCorners) : linearOp(in[d], out[d], alignCorners));
    return ops;
}

std::vector<AxisOp> nearestOps(const Shape& in, const Shape& out) {
    std::vector<AxisOp> ops;
    for (size_t d = 2; d < in.size(); ++d) ops.push_back(nearestOp(in[d], out[d]));
    return ops;
}

std::vector<AxisOp> transposedAll(const std::vector<AxisOp>& ops) {
    std::vector<AxisOp> t;
    for (const AxisOp& a : ops) t.push_back(transposed(a));
    return t;
}

// Forward resize of `input` into `out` with per-axis operators built from (input shape, output shape).
template <class MakeOps>
void resizeForward(const TensorView& o, const TensorView& x, diopiSize_t size, MakeOps&& makeOps) {
    requireFloat(x, "input");
    requireFloat(o, "out");
    requireInterpRank(x, "input");
    Shape s = spatialOf(size, x.dim() - 2, "size");
    Shape want{x.shape[0], x.shape[1]};
    want.insert(want.end(), s.begin(), s.end());
    CPU_CHECK(o.shape == want, "out shape ", shapeStr(o.shape), " must be ", shapeStr(want));
    for (int64_t d = 2; d < x.dim(); ++d) CPU_CHECK(x.shape[d] > 0, "input spatial dims must be non-empty, got ", shapeStr(x.shape));
    if (o.numel == 0) return;
    std::vector<AxisOp> ops = makeOps(x.shape, want);
    resize(x, o, ops);
}

template <class MakeOps>
void resizeBackward(const TensorView& gi, const TensorView& go, diopiSize_t out_size, diopiSize_t in_size, MakeOps&& makeOps) {
    requireFloat(go, "grad_output");
    requireFloat(gi, "grad_input");
    requireInterpRank(go, "grad_output");
    checkOutputSize(out_size, go);
    Shape in = fullInputSize(in_size, go);
    CPU_CHECK(gi.shape == in, "grad_input shape ", shapeStr(gi.shape), " must be in_size ", shapeStr(in));
    for (int64_t d = 2; d < go.dim(); ++d) CPU_CHECK(in[d] > 0 && go.shape[d] > 0, "spatial sizes must be positive");
    if (gi.numel == 0) return;
    std::vector<AxisOp> ops = transposedAll(makeOps(in, go.shape));
    resize(go, gi, ops);
}

// ---------------------------------------------------------------- RoIAlign

// Bilinear taps of every bin of one RoI on an H x W plane: bin q reads plane[idx[k]] * w[k] for k in
// [start[q], start[q + 1]), weights already divided by the sample count.
struct RoiTaps {
    int64_t batch = 0;
    std::vector<int64_t> start{0}, idx;
    std::vector<double> w;
};

// Adds the bilinear taps of sample (y, x); nothing for a sample outside [-1, size] on either axis.
void addSample(double y, double x, int64_t H, int64_t W, double scale, RoiTaps& t) {
    if (y < -1.0 || y > double(H) || x < -1.0 || x > double(W)) return;
    y = std::max(y, 0.0);
    x = std::max(x, 0.0);
    int64_t y0 = (int64_t)y, x0 = (int64_t)x, y1, x1;
    if (y0 >= H - 1) {
        y0 = y1 = H - 1;
        y = double(y0);
    } else {
        y1 = y0 + 1;
    }
    if (x0 >= W - 1) {
        x0 = x1 = W - 1;
        x = double(x0);
    } else {
        x1 = x0 + 1;
    }
    const double ly = y - double(y0), lx = x - double(x0), hy = 1.0 - ly, hx = 1.0 - lx;
    const int64_t id[4] = {y0 * W + x0, y0 * W + x1, y1 * W + x0, y1 * W + x1};
    const double wt[4] = {hy * hx, hy * lx, ly * hx, ly * lx};
    for (int k = 0; k < 4; ++k) {
        t.idx.push_back(id[k]);
        t.w.push_back(wt[k] * scale);
    }
}

std::vector<RoiTaps> roiTaps(const TensorView& rois, int64_t N, int64_t H, int64_t W, double spatialScale, int64_t ph, int64_t pw,
                             int64_t samplingRatio, bool aligned) {
    requireFloat(rois, "rois");
    CPU_CHECK(rois.dim() == 2 && rois.shape[1] == 5, "rois must be (K, 5): batch index, x1, y1, x2, y2; got shape ", shapeStr(rois.shape));
    CPU_CHECK(ph > 0 && pw > 0, "pooled_height and pooled_width must be positive, got ", ph, " and ", pw);
    Buffer r = readDouble(rois);
    const int64_t K = rois.shape[0];
    std::vector<RoiTaps> all(K);
    const double off = aligned ? 0.5 : 0.0;
    for (int64_t k = 0; k < K; ++k) {
        const double* q = r.v.data() + k * 5;
        CPU_CHECK(q[0] >= 0 && q[0] < double(N) && q[0] == std::floor(q[0]), "rois[", k, ", 0] must be a batch index in [0, ", N, "), got ", q[0]);
        RoiTaps& t = all[k];
        t.batch = (int64_t)q[0];
        const double sw = q[1] * spatialScale - off, sh = q[2] * spatialScale - off;
        double rw = q[3] * spatialScale - off - sw, rh = q[4] * spatialScale - off - sh;
        if (!aligned) {  // legacy behaviour: a degenerate RoI covers at least one pixel
            rw = std::max(rw, 1.0);
            rh = std::max(rh, 1.0);
        }
        const double bh = rh / double(ph), bw = rw / double(pw);
        const int64_t gh = samplingRatio > 0 ? samplingRatio : (int64_t)std::ceil(rh / double(ph));
        const int64_t gw = samplingRatio > 0 ? samplingRatio : (int64_t)std::ceil(rw / double(pw));
        const double inv = 1.0 / double(std::max<int64_t>(gh * gw, 1));
        const int64_t cap = ph * pw * std::max<int64_t>(gh, 0) * std::max<int64_t>(gw, 0) * 4;
        t.idx.reserve(cap);
        t.w.reserve(cap);
        t.start.reserve(ph * pw + 1);
        for (int64_t i = 0; i < ph; ++i) {
            for (int64_t j = 0; j < pw; ++j) {
                for (int64_t iy = 0; iy < gh; ++iy) {
                    const double y = sh + double(i) * bh + (double(iy) + 0.5) * bh / double(gh);
                    for (int64_t ix = 0; ix < gw; ++ix) addSample(y, sw + double(j) * bw + (double(ix) + 0.5) * bw / double(gw), H, W, inv, t);
                }
                t.start.push_back((int64_t)t.idx.size());
            }
        }
    }
    return all;
}

// ---------------------------------------------------------------- grid sample

// Samples one output location: calls f(plane offset, weight) for each in-bounds tap of the bilinear / nearest
// interpolation at normalised coordinates g (x, y[, z]) on a plane of `sizes` (W, H[, D]) (align_corners = false).
template <class F>
void gridTaps(const double* g, const int64_t* sizes, const int64_t* strides, int nd, bool nearest, F&& f) {
    double c[3];
    for (int a = 0; a < nd; ++a) c[a] = ((g[a] + 1.0) * double(sizes[a]) - 1.0) / 2.0;
    // offset (elements, the input's strides) of integer coordinates (x, y, z)
    auto offset = [&](const int64_t* p) {
        int64_t o = 0;
        for (int a = 0; a < nd; ++a) o += p[a] * strides[a];
        return o;
    };
    if (nearest) {
        int64_t p[3];
        for (int a = 0; a < nd; ++a) {
            double r = std::nearbyint(c[a]);
            if (!(r >= 0 && r < double(sizes[a]))) return;
            p[a] = (int64_t)r;
        }
        f(offset(p), 1.0);
        return;
    }
    int64_t lo[3];
    double frac[3];
    for (int a = 0; a < nd; ++a) {
        double fl = std::floor(c[a]);
        lo[a] = (int64_t)fl;
        frac[a] = c[a] - fl;
    }
    for (int corner = 0; corner < (1 << nd); ++corner) {
        int64_t p[3];
        double w = 1.0;
        bool inside = true;
        for (int a = 0; a < nd; ++a) {
            const int hi = (corner >> a) & 1;
            p[a] = lo[a] + hi;
            w *= hi ? frac[a] : 1.0 - frac[a];
            inside = inside && p[a] >= 0 && p[a] < sizes[a];
        }
        if (inside) f(offset(p), w);
    }
}

}  // namespace

// ---------------------------------------------------------------- NMS

diopiError_t diopiNms(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t boxes, diopiConstTensorHandle_t confidence,
                      double iou_threshold) {
    return guard(__func__, [&] {
        CPU_CHECK(out != nullptr, "out is NULL");
        TensorView b = view(boxes, "boxes"), s = view(confidence, "confidence");
        requireFloat(b, "boxes");
        requireFloat(s, "confidence");
        CPU_CHECK(b.dim() == 2 && b.shape[1] == 4, "boxes must be (K, 4): x1, y1, x2, y2; got shape ", shapeStr(b.shape));
        CPU_CHECK(s.dim() == 1 && s.shape[0] == b.shape[0], "confidence must be 1-D with one score per box, got shape ", shapeStr(s.shape));
        const int64_t k = b.shape[0];
        Buffer bd = readDouble(b), sd = readDouble(s);
        const double* bp = bd.v.data();
        const double* sp = sd.v.data();
        std::vector<int64_t> order(k);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { return sp[i] > sp[j]; });
        std::vector<double> area(k);
        for (int64_t i = 0; i < k; ++i) area[i] = (bp[i * 4 + 2] - bp[i * 4]) * (bp[i * 4 + 3] - bp[i * 4 + 1]);
        std::vector<char> removed(k, 0);
        std::vector<int64_t> keep;
        for (int64_t a = 0; a < k; ++a) {
            const int64_t i = order[a];
            if (removed[i]) continue;
            keep.push_back(i);
            for (int64_t c = a + 1; c < k; ++c) {
                const int64_t j = order[c];
                if (removed[j]) continue;
                const double w = std::max(0.0, std::min(bp[i * 4 + 2], bp[j * 4 + 2]) - std::max(bp[i * 4], bp[j * 4]));
                const double h = std::max(0.0, std::min(bp[i * 4 + 3], bp[j * 4 + 3]) - std::max(bp[i * 4 + 1], bp[j * 4 + 1]));
                const double inter = w * h;
                if (inter / (area[i] + area[j] - inter) > iou_threshold) removed[j] = 1;
            }
        }
        TensorView o = newTensor(ctx, {(int64_t)keep.size()}, diopi_dtype_int64);
        if (!keep.empty()) std::memcpy(o.data, keep.data(), keep.size() * sizeof(int64_t));
        *out = o.handle;
    });
}

// ---------------------------------------------------------------- RoIAlign

diopiError_t diopiRoiAlign(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t rois,
                           double spatial_scale, int64_t pooled_height, int64_t pooled_width, int64_t sampling_ratio, bool aligned) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), x = view(input, "input"), r = view(rois, "rois");
        requireFloat(x, "input");
        requireFloat(o, "out");
        CPU_CHECK(x.dim() == 4, "input must be (N, C, H, W), got shape ", shapeStr(x.shape));
        const int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
        std::vector<RoiTaps> taps = roiTaps(r, N, H, W, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned);
        const int64_t K = (int64_t)taps.size(), bins = pooled_height * pooled_width;
        Buffer y = zeros({K, C, pooled_height, pooled_width});
        CPU_CHECK(o.shape == y.shape, "out shape ", shapeStr(o.shape), " must be ", shapeStr(y.shape));
        if (o.numel == 0) return;
        // Read the input where it is: tap positions become offsets with its strides.
        for (RoiTaps& t : taps)
            for (int64_t& id : t.idx) id = (id / W) * x.strides[2] + (id % W) * x.strides[3];
        double* yp = y.v.data();
        dispatch<FloatTypes>(x.dtype, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            const T* xp = x.ptr<T>();
            parallelFor(K * C, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, bins * 16)), [&](int64_t b, int64_t e) {
                for (int64_t q = b; q < e; ++q) {
                    const RoiTaps& t = taps[q / C];
                    const T* plane = xp + t.batch * x.strides[0] + (q % C) * x.strides[1];
                    for (int64_t bin = 0; bin < bins; ++bin) {
                        double acc = 0;
                        for (int64_t k = t.start[bin]; k < t.start[bin + 1]; ++k) acc += t.w[k] * double(acc_t<T>(plane[t.idx[k]]));
                        yp[q * bins + bin] = acc;
                    }
                }
            });
        });
        writeOut(o, y);
    });
}

diopiError_t diopiRoiAlignBackward(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t grad, diopiConstTensorHandle_t rois,
                                   double spatial_scale, int64_t pooled_height, int64_t pooled_width, int64_t batch_size, int64_t channels,
                                   int64_t height, int64_t width, int64_t sampling_ratio, bool aligned) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), g = view(grad, "grad"), r = view(rois, "rois");
        requireFloat(g, "grad");
        requireFloat(o, "out");
        CPU_CHECK(batch_size >= 0 && channels >= 0 && height > 0 && width > 0, "batch_size and channels must be >= 0, height and width > 0");
        std::vector<RoiTaps> taps = roiTaps(r, batch_size, height, width, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned);
        const int64_t K = (int64_t)taps.size(), bins = pooled_height * pooled_width, C = channels, HW = height * width;
        CPU_CHECK(g.shape == Shape({K, C, pooled_height, pooled_width}), "grad must have shape (K, channels, pooled_height, pooled_width) = ",
                  shapeStr({K, C, pooled_height, pooled_width}), ", got ", shapeStr(g.shape));
        Buffer res = zeros({batch_size, C, height, width});
        CPU_CHECK(o.shape == res.shape, "out shape ", shapeStr(o.shape), " must be ", shapeStr(res.shape));
        if (o.numel == 0) return;
        // RoIs of each image, in RoI order: every plane then sums its contributions in one fixed order.
        std::vector<std::vector<int64_t>> byBatch(batch_size);
        for (int64_t k = 0; k < K; ++k) byBatch[taps[k].batch].push_back(k);
        double* op = res.v.data();
        int64_t nTaps = 0;
        for (const RoiTaps& tk : taps) nTaps += (int64_t)tk.idx.size();
        const int64_t work = std::max<int64_t>(1, HW + nTaps / std::max<int64_t>(1, batch_size));  // per plane
        std::vector<int64_t> binOff(bins);  // grad offset of each bin (grad read where it is)
        for (int64_t bin = 0; bin < bins; ++bin) binOff[bin] = (bin / pooled_width) * g.strides[2] + (bin % pooled_width) * g.strides[3];
        dispatch<FloatTypes>(g.dtype, "grad", [&](auto tag) {
            using T = typename decltype(tag)::type;
            const T* gp = g.ptr<T>();
            parallelFor(batch_size * C, std::max<int64_t>(1, kParallelGrain / work), [&](int64_t b, int64_t e) {
                for (int64_t p = b; p < e; ++p) {
                    const int64_t n = p / C, c = p % C;
                    double* plane = op + p * HW;
                    for (int64_t k : byBatch[n]) {
                        const RoiTaps& t = taps[k];
                        const T* gk = gp + k * g.strides[0] + c * g.strides[1];
                        for (int64_t bin = 0; bin < bins; ++bin) {
                            const double gv = double(acc_t<T>(gk[binOff[bin]]));
                            for (int64_t q = t.start[bin]; q < t.start[bin + 1]; ++q) plane[t.idx[q]] += t.w[q] * gv;
                        }
                    }
                }
            });
        });
        writeOut(o, res);
    });
}

// ---------------------------------------------------------------- grid sample

diopiError_t diopiGridSample(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t grid,
                             const char* mode) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), x = view(input, "input"), gr = view(grid, "grid");
        requireFloat(x, "input");
        requireFloat(gr, "grid");
        requireFloat(o, "out");
        CPU_CHECK(mode != nullptr, "mode is NULL");
        const bool nearest = std::strcmp(mode, "nearest") == 0;
        if (!nearest && std::strcmp(mode, "bilinear") != 0) {
            if (std::strcmp(mode, "bicubic") == 0) failCode(diopiNoImplement, "mode \"bicubic\" is not implemented by this library");
            fail("mode must be \"bilinear\" or \"nearest\", got \"", mode, "\"");
        }
        CPU_CHECK(x.dim() == 4 || x.dim() == 5, "input must be (N, C, H, W) or (N, C, D, H, W), got shape ", shapeStr(x.shape));
        const int nd = (int)x.dim() - 2;
        CPU_CHECK(gr.dim() == x.dim() && gr.shape.back() == nd && gr.shape[0] == x.shape[0], "grid must be (N, spatial_out..., ", nd,
                  ") with the batch of input ", shapeStr(x.shape), ", got shape ", shapeStr(gr.shape));
        Shape want{x.shape[0], x.shape[1]};
        want.insert(want.end(), gr.shape.begin() + 1, gr.shape.end() - 1);
        CPU_CHECK(o.shape == want, "out shape ", shapeStr(o.shape), " must be ", shapeStr(want));
        if (o.numel == 0) return;
        const int64_t N = x.shape[0], C = x.shape[1];
        int64_t sizes[3];  // (W, H[, D]): the order of the grid's coordinates
        for (int a = 0; a < nd; ++a) sizes[a] = x.shape[x.dim() - 1 - a];
        int64_t S = 1;
        for (int64_t d = 2; d < o.dim(); ++d) S *= o.shape[d];
        int64_t xst[3];  // the input's strides in the grid's coordinate order
        for (int a = 0; a < nd; ++a) xst[a] = x.strides[x.dim() - 1 - a];
        const bool sameOut = o.dtype == x.dtype;
        // Sample the input where it is: coordinates and weights in double, sums in the input's compute type (float
        // for float32 and 16-bit inputs, double for float64), one rounding into out.
        auto run = [&](auto atag) {
            using A = typename decltype(atag)::type;
            const bool native = x.dtype == dtypeOf<A>();
            const ResizePrims<A>& P = resizePrims<A>();
            const int K = nearest ? 1 : 1 << nd;
            const int64_t lim = int64_t(1) << 30;
            const bool fast2d = nd == 2 && !nearest && native && sameOut && gr.dtype == x.dtype && sizes[0] < lim && sizes[1] < lim &&
                                std::abs(xst[0]) * sizes[0] + std::abs(xst[1]) * sizes[1] < lim;
            if (fast2d) {
                // Blocks of points of one image: corner taps by vector code, then each channel plane in turn.
                const A* xa = reinterpret_cast<const A*>(x.data);
                const A* ga = reinterpret_cast<const A*>(gr.data);
                A* ya = reinterpret_cast<A*>(o.data);
                parallelFor(N * S, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, C * 8)), [&](int64_t b, int64_t e) {
                    std::vector<A> gxv(kGridBlock), gyv(kGridBlock), w(4 * kGridBlock), vals(kGridBlock);
                    std::vector<int32_t> off(4 * kGridBlock);
                    std::vector<MaskOf<A>> ok(4 * kGridBlock);
                    std::vector<int64_t> yoffs(kGridBlock);
                    const int64_t H2 = gr.shape[1], W2 = gr.shape[2];
                    int64_t q = b;
                    while (q < e) {
                        const int64_t n = q / S, s0 = q % S;
                        const int64_t m = std::min({kGridBlock, e - q, S - s0});
                        int64_t h = s0 / W2, wq = s0 % W2;
                        for (int64_t j = 0; j < m; ++j) {
                            const int64_t goff = n * gr.strides[0] + h * gr.strides[1] + wq * gr.strides[2];
                            gxv[j] = ga[goff];
                            gyv[j] = ga[goff + gr.strides[3]];
                            yoffs[j] = n * o.strides[0] + h * o.strides[2] + wq * o.strides[3];
                            if (++wq == W2) {
                                wq = 0;
                                ++h;
                            }
                        }
                        (void)H2;
                        P.bilinearTaps(gxv.data(), gyv.data(), m, int32_t(sizes[0]), int32_t(sizes[1]), int32_t(xst[0]), int32_t(xst[1]), off.data(),
                                       w.data(), ok.data());
                        for (int64_t c = 0; c < C; ++c) {
                            P.bilinearSample(xa + n * x.strides[0] + c * x.strides[1], off.data(), w.data(), ok.data(), vals.data(), m);
                            for (int64_t j = 0; j < m; ++j) ya[yoffs[j] + c * o.strides[1]] = vals[j];
                        }
                        q += m;
                    }
                });
                return;
            }
            parallelFor(N * S, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, C * 8)), [&](int64_t b, int64_t e) {
                // Taps of every point of the chunk first, then channel by channel (each channel plane read together).
                const int64_t m = e - b;
                std::vector<int64_t> toff(m * K, 0), yoffs(m);
                std::vector<A> tw(m * K, A(0));
                // Output position of q = b, then stepped along (no divisions per point).
                int64_t pos[4] = {0, 0, 0, 0};  // n, then the output spatial indices
                {
                    int64_t rem = b % S;
                    pos[0] = b / S;
                    for (int64_t d = nd; d >= 1; --d) {
                        pos[d] = rem % gr.shape[d];
                        rem /= gr.shape[d];
                    }
                }
                for (int64_t q = b; q < e; ++q) {
                    const int64_t n = pos[0], j = q - b;
                    int64_t goff = n * gr.strides[0], yoff = n * o.strides[0];
                    for (int64_t d = 1; d <= nd; ++d) {
                        goff += pos[d] * gr.strides[d];
                        yoff += pos[d] * o.strides[d + 1];
                    }
                    for (int64_t d = nd; d >= 0; --d) {  // step to the next position
                        if (d == 0 || ++pos[d] < gr.shape[d]) {
                            if (d == 0) ++pos[0];
                            break;
                        }
                        pos[d] = 0;
                    }
                    yoffs[j] = yoff;
                    double gp[3];
                    for (int a = 0; a < nd; ++a) gp[a] = readElem(gr, goff + a * gr.strides[nd + 1]);
                    int k = 0;
                    gridTaps(gp, sizes, xst, nd, nearest, [&](int64_t off, double w) {
                        toff[j * K + k] = n * x.strides[0] + off;
                        tw[j * K + k] = A(w);
                        ++k;
                    });
                    for (; k < K; ++k) toff[j * K + k] = n * x.strides[0];  // a valid address, weight 0
                }
                // Channel by channel: each channel plane is read together.
                auto channels = [&](auto ttag) {
                    using T = typename decltype(ttag)::type;
                    for (int64_t c = 0; c < C; ++c) {
                        const T* base = x.ptr<T>() + c * x.strides[1];
                        for (int64_t j = 0; j < m; ++j) {
                            A acc = 0;
                            for (int k = 0; k < K; ++k) acc += tw[j * K + k] * A(acc_t<T>(base[toff[j * K + k]]));
                            const int64_t yo = yoffs[j] + c * o.strides[1];
                            if (sameOut) o.ptr<T>()[yo] = T(static_cast<acc_t<T>>(acc));
                            else writeElem(o, yo, double(acc));
                        }
                    }
                };
                if constexpr (std::is_same_v<A, double>) {
                    channels(Tag<double>{});
                } else if (x.dtype == diopi_dtype_float16) {
                    channels(Tag<Half>{});
                } else if (x.dtype == diopi_dtype_bfloat16) {
                    channels(Tag<BFloat16>{});
                } else {
                    channels(Tag<float>{});
                }
            });
        };
        if (x.dtype == diopi_dtype_float64) run(Tag<double>{});
        else run(Tag<float>{});
    });
}

// ---------------------------------------------------------------- resizing

diopiError_t diopiUpsampleNearest(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t size) {
    return guard(__func__, [&] { resizeForward(view(out, "out"), view(input, "input"), size, nearestOps); });
}

diopiError_t diopiUpsampleNearestBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                          diopiSize_t out_size, diopiSize_t in_size) {
    return guard(__func__, [&] { resizeBackward(view(grad_input, "grad_input"), view(grad_output, "grad_output"), out_size, in_size, nearestOps); });
}

diopiError_t diopiUpsampleLinear(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t size,
                                 bool align_corners, const char* mode) {
    return guard(__func__, [&] {
        TensorView x = view(input, "input");
        requireInterpRank(x, "input");
        Interp kind = linearMode(mode, x.dim());
        resizeForward(view(out, "out"), x, size, [&](const Shape& in, const Shape& o) { return linearOps(in, o, align_corners, kind); });
    });
}

diopiError_t diopiUpsampleLinearBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                         diopiSize_t out_size, diopiSize_t in_size, bool align_corners, const char* mode) {
    return guard(__func__, [&] {
        TensorView go = view(grad_output, "grad_output");
        requireInterpRank(go, "grad_output");
        Interp kind = linearMode(mode, go.dim());
        resizeBackward(view(grad_input, "grad_input"), go, out_size, in_size,
                       [&](const Shape& in, const Shape& o) { return linearOps(in, o, align_corners, kind); });
    });
}

}  // namespace impl::cpu
