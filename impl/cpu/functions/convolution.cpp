// Family convolution: 2-d / 3-d convolutions (direct and transposed, forward
// and backward) as im2col + packed GEMM, plus im2col / col2im themselves.
//
// Everything runs on a 5-D "convolution orientation": x (N, Cin, D, H, W),
// y (N, Cout, OD, OH, OW), w (Cout, Cin/G, KD, KH, KW); 2-d tensors get a unit
// depth. A transposed convolution is the adjoint of the convolution with the
// same weight, so it reuses the three primitives with x and y swapped.
// Column matrices are laid out (image pixel) x (kd, kh, kw, ci): with the
// channels-last tensors the adaptor hands in, each window tap is a contiguous
// run of channels and the output rows are the NHWC output itself.
#include <algorithm>
#include <cstring>

#include "common/common.hpp"
#include "common/gemm.hpp"

namespace impl::cpu {

namespace {

struct Geo {
    int64_t N = 0, Cin = 0, Cout = 0, G = 1, Cig = 0, Cog = 0, K = 0;
    int64_t I[3] = {1, 1, 1}, O[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0}, d[3] = {1, 1, 1};
    int64_t ISP = 1, OSP = 1, KSP = 1;  // pixels per input / output image, taps per window
    bool pointwise() const {
        for (int i = 0; i < 3; ++i)
            if (k[i] != 1 || s[i] != 1 || p[i] != 0) return false;
        return true;
    }
};

/// A size argument with `n` entries (one entry is repeated; empty gives `fallback`).
std::vector<int64_t> spatialArg(diopiSize_t v, int64_t n, const char* name, int64_t fallback) {
    Shape s = toShape(v);
    if (s.empty()) return std::vector<int64_t>(n, fallback);
    if (s.size() == 1) return std::vector<int64_t>(n, s[0]);
    CPU_CHECK((int64_t)s.size() == n, name, " must have ", n, " entries, got ", s.size());
    return s;
}

/// A 4-D (N, C, H, W) view as 5-D with unit depth; 5-D views pass through.
TensorView to5d(const TensorView& v) {
    if (v.dim() == 5) return v;
    return v.restrided({v.shape[0], v.shape[1], 1, v.shape[2], v.shape[3]}, {v.strides[0], v.strides[1], 0, v.strides[2], v.strides[3]});
}

/// v (N, C, D, H, W) seen as (N, D, H, W, C).
TensorView channelsLast(const TensorView& v) {
    return v.restrided({v.shape[0], v.shape[2], v.shape[3], v.shape[4], v.shape[1]},
                       {v.strides[0], v.strides[2], v.strides[3], v.strides[4], v.strides[1]});
}

void requireFloat(const TensorView& t, const char* name) {
    if (t.dtype != diopi_dtype_float32 && t.dtype != diopi_dtype_float16 && t.dtype != diopi_dtype_bfloat16)
        failCode(diopiDtypeNotSupported, name, " dtype ", dtypeName(t.dtype), " is not supported");
}

/// Builds the geometry from 5-D x (conv input), w and the window arguments; y's
/// spatial size comes from the convolution formula.
Geo makeGeo(const TensorView& x, const TensorView& w, int64_t spatial, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation,
            int64_t groups) {
    CPU_CHECK(groups >= 1, "groups must be >= 1, got ", groups);
    Geo g;
    auto st = spatialArg(stride, spatial, "stride", 1), pa = spatialArg(padding, spatial, "padding", 0),
         di = spatialArg(dilation, spatial, "dilation", 1);
    const int off = 3 - (int)spatial;
    for (int64_t i = 0; i < spatial; ++i) {
        CPU_CHECK(st[i] > 0, "stride must be positive");
        CPU_CHECK(pa[i] >= 0, "padding must be non-negative");
        CPU_CHECK(di[i] > 0, "dilation must be positive");
        g.s[i + off] = st[i];
        g.p[i + off] = pa[i];
        g.d[i + off] = di[i];
    }
    g.N = x.shape[0];
    g.Cin = x.shape[1];
    g.Cout = w.shape[0];
    g.G = groups;
    CPU_CHECK(g.Cin % groups == 0 && g.Cout % groups == 0, "channels (", g.Cin, " in, ", g.Cout, " out) are not divisible by groups ", groups);
    g.Cig = g.Cin / groups;
    g.Cog = g.Cout / groups;
    CPU_CHECK(w.shape[1] == g.Cig, "weight has ", w.shape[1], " input channels per group, expected ", g.Cig);
    g.ISP = g.OSP = g.KSP = 1;
    for (int i = 0; i < 3; ++i) {
        g.I[i] = x.shape[2 + i];
        g.k[i] = w.shape[2 + i];
        CPU_CHECK(g.k[i] > 0, "kernel size must be positive");
        int64_t eff = g.I[i] + 2 * g.p[i] - g.d[i] * (g.k[i] - 1);
        CPU_CHECK(eff >= 1, "kernel (with dilation) is larger than the padded input");
        g.O[i] = (eff - 1) / g.s[i] + 1;
        g.ISP *= g.I[i];
        g.OSP *= g.O[i];
        g.KSP *= g.k[i];
    }
    g.K = g.KSP * g.Cig;
    return g;
}

Shape outShape(const Geo& g, int64_t spatial) {
    Shape s{g.N, g.Cout};
    for (int i = 3 - (int)spatial; i < 3; ++i) s.push_back(g.O[i]);
    return s;
}

/// Weight as a float matrix (Cout, K) with K ordered (kd, kh, kw, ci).
const float* weightMatrix(diopiContextHandle_t ctx, const TensorView& w, const Geo& g) {
    TensorView perm = w.restrided({g.Cout, g.k[0], g.k[1], g.k[2], g.Cig}, {w.strides[0], w.strides[2], w.strides[3], w.strides[4], w.strides[1]});
    if (perm.dtype == diopi_dtype_float32 && perm.isContiguous()) return perm.ptr<float>();
    TensorView t = newTensor(ctx, perm.shape, diopi_dtype_float32);
    copyCast(t, perm);
    return t.ptr<float>();
}

/// Rows [r0, r1) (global pixel index n*OSP + p) of the column matrix of group
/// `grp` into col ((r1-r0) x K). Serial: callers run it per chunk.
template <class T>
void im2colRows(const TensorView& x, const Geo& g, int64_t grp, int64_t r0, int64_t r1, float* col) {
    const T* base = x.ptr<T>() + grp * g.Cig * x.strides[1];
    const int64_t sn = x.strides[0], sc = x.strides[1], sd = x.strides[2], sh = x.strides[3], sw = x.strides[4];
    for (int64_t r = r0; r < r1; ++r) {
        int64_t q = r;
        const int64_t ow = q % g.O[2]; q /= g.O[2];
        const int64_t oh = q % g.O[1]; q /= g.O[1];
        const int64_t od = q % g.O[0]; q /= g.O[0];
        const int64_t n = q;
        float* dst = col + (r - r0) * g.K;
        for (int64_t kd = 0; kd < g.k[0]; ++kd) {
            const int64_t id = od * g.s[0] - g.p[0] + kd * g.d[0];
            for (int64_t kh = 0; kh < g.k[1]; ++kh) {
                const int64_t ih = oh * g.s[1] - g.p[1] + kh * g.d[1];
                for (int64_t kw = 0; kw < g.k[2]; ++kw, dst += g.Cig) {
                    const int64_t iw = ow * g.s[2] - g.p[2] + kw * g.d[2];
                    if (id < 0 || id >= g.I[0] || ih < 0 || ih >= g.I[1] || iw < 0 || iw >= g.I[2]) {
                        for (int64_t c = 0; c < g.Cig; ++c) dst[c] = 0.f;
                        continue;
                    }
                    const T* src = base + n * sn + id * sd + ih * sh + iw * sw;
                    if (sc == 1) {
                        for (int64_t c = 0; c < g.Cig; ++c) dst[c] = static_cast<float>(src[c]);
                    } else {
                        for (int64_t c = 0; c < g.Cig; ++c) dst[c] = static_cast<float>(src[c * sc]);
                    }
                }
            }
        }
    }
}

/// Transposed column block for channel-major inputs (NCHW-like): colT (K x
/// (r1-r0)), element (k, r) at colT[k * (r1-r0) + r - r0]. Walking output
/// pixels innermost reads each input row with a fixed stride.
template <class T>
void im2colRowsT(const TensorView& x, const Geo& g, int64_t grp, int64_t r0, int64_t r1, float* colT) {
    const T* base = x.ptr<T>() + grp * g.Cig * x.strides[1];
    const int64_t sn = x.strides[0], sc = x.strides[1], sd = x.strides[2], sh = x.strides[3], sw = x.strides[4];
    const int64_t rows = r1 - r0;
    for (int64_t kd = 0; kd < g.k[0]; ++kd)
        for (int64_t kh = 0; kh < g.k[1]; ++kh)
            for (int64_t kw = 0; kw < g.k[2]; ++kw)
                for (int64_t ci = 0; ci < g.Cig; ++ci) {
                    const int64_t kk = ((kd * g.k[1] + kh) * g.k[2] + kw) * g.Cig + ci;
                    float* dst = colT + kk * rows;
                    int64_t q = r0;
                    int64_t ow = q % g.O[2]; q /= g.O[2];
                    int64_t oh = q % g.O[1]; q /= g.O[1];
                    int64_t od = q % g.O[0];
                    int64_t n = q / g.O[0];
                    for (int64_t r = 0; r < rows;) {
                        // One output row (fixed n, od, oh): ow runs to the row end or the chunk end.
                        const int64_t len = std::min(g.O[2] - ow, rows - r);
                        const int64_t id = od * g.s[0] - g.p[0] + kd * g.d[0], ih = oh * g.s[1] - g.p[1] + kh * g.d[1];
                        if (id < 0 || id >= g.I[0] || ih < 0 || ih >= g.I[1]) {
                            for (int64_t t = 0; t < len; ++t) dst[r + t] = 0.f;
                        } else {
                            const T* src = base + n * sn + ci * sc + id * sd + ih * sh;
                            for (int64_t t = 0; t < len; ++t) {
                                const int64_t iw = (ow + t) * g.s[2] - g.p[2] + kw * g.d[2];
                                dst[r + t] = iw >= 0 && iw < g.I[2] ? static_cast<float>(src[iw * sw]) : 0.f;
                            }
                        }
                        r += len;
                        ow = 0;
                        if (++oh == g.O[1]) {
                            oh = 0;
                            if (++od == g.O[0]) {
                                od = 0;
                                ++n;
                            }
                        }
                    }
                }
}

using Im2colFn = void (*)(const TensorView&, const Geo&, int64_t, int64_t, int64_t, float*);

/// The typed im2col for x's dtype (chosen before any parallel region, so nothing throws inside).
/// `transposed` picks the K x rows layout, better for inputs whose channels are not innermost.
Im2colFn im2colFor(const TensorView& x, bool transposed) {
    Im2colFn f = nullptr;
    dispatch<FloatTypes>(x.dtype, "input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        f = transposed ? &im2colRowsT<T> : &im2colRows<T>;
    });
    return f;
}

/// Channel-major inputs (stride of C above that of W) use the transposed column layout.
bool channelMajor(const TensorView& x) { return x.strides[1] != 1 && x.strides[4] < x.strides[1]; }

/// Rows per cache-sized chunk of the column matrix (about 256 KB, whole register tiles).
int64_t chunkRows(const Geo& g, int64_t M) {
    int64_t r = (int64_t(64) << 10) / std::max<int64_t>(g.K, 1);
    r = std::max<int64_t>(24, r / 24 * 24);
    return std::min(r, M);
}

/// Runs body(chunk) for chunk in [0, n) on all threads (each thread keeps its
/// own scratch); a failure in a worker (out of memory) is reported afterwards.
template <class F>
void parallelChunks(int64_t n, int64_t work, F&& body) {
    bool failed = false;
#ifdef _OPENMP
    const bool par = n > 1 && work >= (int64_t(1) << 17) && omp_get_max_threads() > 1 && !omp_in_parallel();
#pragma omp parallel for schedule(dynamic, 1) if (par) reduction(|| : failed)
#endif
    for (int64_t c = 0; c < n; ++c) {
        try {
            body(c);
        } catch (...) {
            failed = true;
        }
    }
    CPU_CHECK(!failed, "out of host memory for convolution scratch buffers");
}

/// Adds the column gradients of group `grp` (rows of images [n0, n1)) into gx
/// (float, (N*ISP, Cin) row-major), gathering per input pixel (no write races).
void col2imRows(const float* col, const Geo& g, int64_t grp, int64_t n0, int64_t n1, float* gx) {
    const int64_t pixels = (n1 - n0) * g.ISP;
    parallelFor(pixels, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(g.K, 1)), [&](int64_t pb, int64_t pe) {
        for (int64_t px = pb; px < pe; ++px) {
            int64_t q = px;
            const int64_t iw = q % g.I[2]; q /= g.I[2];
            const int64_t ih = q % g.I[1]; q /= g.I[1];
            const int64_t id = q % g.I[0]; q /= g.I[0];
            const int64_t nl = q;  // image index inside the chunk
            float* dst = gx + ((n0 + nl) * g.ISP + (px - nl * g.ISP)) * g.Cin + grp * g.Cig;
            for (int64_t kd = 0; kd < g.k[0]; ++kd) {
                const int64_t td = id + g.p[0] - kd * g.d[0];
                if (td < 0 || td % g.s[0]) continue;
                const int64_t od = td / g.s[0];
                if (od >= g.O[0]) continue;
                for (int64_t kh = 0; kh < g.k[1]; ++kh) {
                    const int64_t th = ih + g.p[1] - kh * g.d[1];
                    if (th < 0 || th % g.s[1]) continue;
                    const int64_t oh = th / g.s[1];
                    if (oh >= g.O[1]) continue;
                    for (int64_t kw = 0; kw < g.k[2]; ++kw) {
                        const int64_t tw = iw + g.p[2] - kw * g.d[2];
                        if (tw < 0 || tw % g.s[2]) continue;
                        const int64_t ow = tw / g.s[2];
                        if (ow >= g.O[2]) continue;
                        const float* src = col + ((nl * g.O[0] + od) * g.O[1] * g.O[2] + oh * g.O[2] + ow) * g.K +
                                           ((kd * g.k[1] + kh) * g.k[2] + kw) * g.Cig;
                        for (int64_t c = 0; c < g.Cig; ++c) dst[c] += src[c];
                    }
                }
            }
        }
    });
}

/// Reusable per-calling-thread float scratch. Fresh multi-megabyte temporaries
/// on every call cost more in page faults than the GEMM itself.
enum Slot { kColSlot = 0, kOutSlot = 1, kGradSlot = 2 };

TensorView scratchView(Slot slot, const Shape& shape, const Shape& strides) {
    thread_local std::vector<float> bufs[3];
    std::vector<float>& b = bufs[slot];
    const int64_t n = std::max<int64_t>(shapeNumel(shape), 1);
    if ((int64_t)b.size() < n) {
        std::vector<float>().swap(b);
        b.resize(n);
    }
    TensorView v;
    v.data = reinterpret_cast<char*>(b.data());
    v.dtype = diopi_dtype_float32;
    v.shape = shape;
    v.strides = strides;
    v.numel = shapeNumel(shape);
    v.itemsize = 4;
    return v;
}

/// Images per chunk so that one column buffer stays below ~64 MB.
int64_t chunkImages(const Geo& g) {
    const int64_t perImage = std::max<int64_t>(1, g.OSP * g.K);
    return std::max<int64_t>(1, std::min<int64_t>(g.N, (int64_t(1) << 18) / perImage));
}

/// Rows (n, d, h, w) of a 5-D view as one matrix dim: stride of a row and of a channel.
bool rowMatrix(const TensorView& v, int64_t& rs, int64_t& cs) {
    int64_t rows;
    if (!mergeDims(channelsLast(v), 0, 4, rows, rs)) return false;
    cs = v.strides[1];
    return true;
}

/// y = conv(x, w) + bias, all 5-D.
void convForwardCore(diopiContextHandle_t ctx, const TensorView& y, const TensorView& x, const TensorView& w, const TensorView* bias,
                     const Geo& g) {
    if (y.numel == 0) return;
    // Output rows written in place when y is float32 and its pixels form one row stride.
    int64_t yrs, ycs;
    const bool direct = y.dtype == diopi_dtype_float32 && rowMatrix(y, yrs, ycs);
    // Else, when each image's pixels form one row stride (NCHW-like float32 y), chunks stay inside
    // one image and still write y in place.
    int64_t irs = 0, rowsImg = 0;
    const bool perImage = !direct && y.dtype == diopi_dtype_float32 && mergeDims(channelsLast(y), 1, 4, rowsImg, irs);
    TensorView ybuf = direct || perImage ? y : scratchView(kOutSlot, y.shape, {g.OSP * g.Cout, 1, g.O[1] * g.O[2] * g.Cout, g.O[2] * g.Cout, g.Cout});
    if (perImage) {
        yrs = irs;
        ycs = y.strides[1];
    } else if (!direct) {
        yrs = g.Cout;
        ycs = 1;
    }
    float beta = 0.f;
    if (bias && bias->defined()) {
        copyCast(ybuf, bias->restrided({1, g.Cout, 1, 1, 1}, {0, bias->dim() ? bias->strides[0] : 0, 0, 0, 0}));
        beta = 1.f;
    }
    const float* wm = weightMatrix(ctx, w, g);
    float* yp = ybuf.ptr<float>();
    if (g.K == 0) {
        if (beta == 0.f) fillWith<float>(ybuf, 0.f);
    } else if (!perImage && g.pointwise() && [&] { int64_t r, c; return rowMatrix(x, r, c); }()) {
        // 1x1 window, unit stride, no padding: the input itself is the column matrix.
        int64_t xrs, xcs;
        rowMatrix(x, xrs, xcs);
        const TensorView& xv = x;
        for (int64_t grp = 0; grp < g.G; ++grp)
            sgemm(g.N * g.OSP, g.Cog, g.Cig, 1.f, MatRef(xv.data + grp * g.Cig * xcs * xv.itemsize, xv.dtype, xrs, xcs),
                  MatRef(wm + grp * g.Cog * g.K, diopi_dtype_float32, 1, g.K), beta, yp + grp * g.Cog * ycs, yrs, ycs);
    } else {
        // Cache-sized row chunks: im2col into per-thread scratch, then a serial GEMM.
        const bool tr = channelMajor(x);
        Im2colFn fill = im2colFor(x, tr);
        const int64_t M = g.N * g.OSP;
        const int64_t rowsPer = perImage ? chunkRows(g, g.OSP) : chunkRows(g, M);
        const int64_t perImg = (g.OSP + rowsPer - 1) / rowsPer;  // chunks per image (per-image mode)
        const int64_t chunks = perImage ? g.N * perImg : (M + rowsPer - 1) / rowsPer;
        parallelChunks(chunks, M * g.Cout * g.K, [&](int64_t c) {
            int64_t r0, r1;
            float* cp;
            if (perImage) {
                const int64_t n = c / perImg, p0 = (c % perImg) * rowsPer;
                r0 = n * g.OSP + p0;
                r1 = n * g.OSP + std::min(g.OSP, p0 + rowsPer);
                cp = yp + n * y.strides[0] + p0 * yrs;
            } else {
                r0 = c * rowsPer;
                r1 = std::min(M, r0 + rowsPer);
                cp = yp + r0 * yrs;
            }
            float* col = scratchView(kColSlot, {rowsPer, g.K}, {g.K, 1}).ptr<float>();
            const MatRef A = tr ? MatRef(col, diopi_dtype_float32, 1, r1 - r0) : MatRef(col, diopi_dtype_float32, g.K, 1);
            for (int64_t grp = 0; grp < g.G; ++grp) {
                fill(x, g, grp, r0, r1, col);
                if (tr && yrs == 1) {
                    // Channel-major y: compute y^T = W colT so that pixel runs are stored contiguously.
                    sgemm(g.Cog, r1 - r0, g.K, 1.f, MatRef(wm + grp * g.Cog * g.K, diopi_dtype_float32, g.K, 1),
                          MatRef(col, diopi_dtype_float32, r1 - r0, 1), beta, cp + grp * g.Cog * ycs, ycs, yrs);
                } else {
                    sgemm(r1 - r0, g.Cog, g.K, 1.f, A, MatRef(wm + grp * g.Cog * g.K, diopi_dtype_float32, 1, g.K), beta, cp + grp * g.Cog * ycs,
                          yrs, ycs);
                }
            }
        });
    }
    if (!direct && !perImage) copyCast(y, ybuf);
}

/// Grad-output operand as rows x channels; a float copy when its pixels do not merge.
MatRef gradRows(diopiContextHandle_t ctx, const TensorView& gy, const Geo& g) {
    int64_t rs, cs;
    if (rowMatrix(gy, rs, cs)) return MatRef(gy.data, gy.dtype, rs, cs);
    TensorView t = scratchView(kGradSlot, gy.shape, {g.OSP * g.Cout, 1, g.O[1] * g.O[2] * g.Cout, g.O[2] * g.Cout, g.Cout});
    copyCast(t, gy);
    return MatRef(t.data, diopi_dtype_float32, g.Cout, 1);
}

/// gx = conv^T(gy, w): the input gradient of y = conv(x, w).
void convGradInputCore(diopiContextHandle_t ctx, const TensorView& gx, const TensorView& gy, const TensorView& w, const Geo& g) {
    if (gx.numel == 0) return;
    TensorView buf = scratchView(kOutSlot, gx.shape, {g.ISP * g.Cin, 1, g.I[1] * g.I[2] * g.Cin, g.I[2] * g.Cin, g.Cin});
    float* gxp = buf.ptr<float>();
    std::fill(gxp, gxp + buf.numel, 0.f);
    if (g.OSP > 0 && g.Cout > 0) {
        const float* wm = weightMatrix(ctx, w, g);
        MatRef go = gradRows(ctx, gy, g);
        const int64_t gi = itemSize(go.dtype);
        const int64_t per = chunkImages(g);
        TensorView col = scratchView(kColSlot, {per * g.OSP, g.K}, {g.K, 1});
        for (int64_t n0 = 0; n0 < g.N; n0 += per) {
            const int64_t n1 = std::min(g.N, n0 + per);
            for (int64_t grp = 0; grp < g.G; ++grp) {
                MatRef a(go.data + (n0 * g.OSP * go.rs + grp * g.Cog * go.cs) * gi, go.dtype, go.rs, go.cs);
                sgemm((n1 - n0) * g.OSP, g.K, g.Cog, 1.f, a, MatRef(wm + grp * g.Cog * g.K, diopi_dtype_float32, g.K, 1), 0.f, col.ptr<float>(),
                      g.K, 1);
                col2imRows(col.ptr<float>(), g, grp, n0, n1, gxp);
            }
        }
    }
    copyCast(gx, buf);
}

/// gw = d(conv(x, w))/dw contracted with gy.
void convGradWeightCore(diopiContextHandle_t ctx, const TensorView& gw, const TensorView& gy, const TensorView& x, const Geo& g) {
    if (gw.numel == 0) return;
    TensorView buf = scratchView(kOutSlot, {g.Cout, g.k[0], g.k[1], g.k[2], g.Cig}, contiguousStrides({g.Cout, g.k[0], g.k[1], g.k[2], g.Cig}));
    float* gwp = buf.ptr<float>();
    const int64_t rows = g.N * g.OSP;
    if (rows == 0) {
        std::fill(gwp, gwp + buf.numel, 0.f);
    } else {
        MatRef go = gradRows(ctx, gy, g);
        const int64_t gi = itemSize(go.dtype);
        const TensorView& xv = x;
        int64_t xrs, xcs;
        if (g.pointwise() && rowMatrix(xv, xrs, xcs)) {
            for (int64_t grp = 0; grp < g.G; ++grp)
                sgemm(g.Cog, g.Cig, rows, 1.f, MatRef(go.data + grp * g.Cog * go.cs * gi, go.dtype, go.cs, go.rs),
                      MatRef(xv.data + grp * g.Cig * xcs * xv.itemsize, xv.dtype, xrs, xcs), 0.f, gwp + grp * g.Cog * g.K, g.K, 1);
        } else {
            // Row chunks in parallel, each thread summing into its own partial gradient.
            const bool tr = channelMajor(xv);
            Im2colFn fill = im2colFor(xv, tr);
            const int64_t rowsPer = chunkRows(g, rows), chunks = (rows + rowsPer - 1) / rowsPer;
            int nt = 1;
#ifdef _OPENMP
            nt = omp_in_parallel() ? 1 : omp_get_max_threads();
#endif
            const int64_t wsize = g.Cout * g.K;
            TensorView partial = newTensor(ctx, {(int64_t)nt, wsize}, diopi_dtype_float32);
            float* pp = partial.ptr<float>();
            std::fill(pp, pp + partial.numel, 0.f);
            parallelChunks(chunks, rows * g.Cout * g.K, [&](int64_t c) {
                int tid = 0;
#ifdef _OPENMP
                tid = omp_get_thread_num();
#endif
                const int64_t r0 = c * rowsPer, r1 = std::min(rows, r0 + rowsPer);
                float* col = scratchView(kColSlot, {rowsPer, g.K}, {g.K, 1}).ptr<float>();
                for (int64_t grp = 0; grp < g.G; ++grp) {
                    fill(xv, g, grp, r0, r1, col);
                    MatRef aT(go.data + (r0 * go.rs + grp * g.Cog * go.cs) * gi, go.dtype, go.cs, go.rs);
                    const MatRef Bc = tr ? MatRef(col, diopi_dtype_float32, 1, r1 - r0) : MatRef(col, diopi_dtype_float32, g.K, 1);
                    sgemm(g.Cog, g.K, r1 - r0, 1.f, aT, Bc, 1.f, pp + tid * wsize + grp * g.Cog * g.K, g.K, 1);
                }
            });
            for (int64_t i = 0; i < wsize; ++i) {
                float v = 0.f;
                for (int t = 0; t < nt; ++t) v += pp[t * wsize + i];
                gwp[i] = v;
            }
        }
    }
    TensorView perm = gw.restrided({g.Cout, g.k[0], g.k[1], g.k[2], g.Cig}, {gw.strides[0], gw.strides[2], gw.strides[3], gw.strides[4], gw.strides[1]});
    copyCast(perm, buf);
}

/// gb[c] = sum of t over every dim but the channel dim 1 (t is 5-D).
void sumChannels(diopiContextHandle_t ctx, const TensorView& gb, const TensorView& t) {
    const int64_t C = t.shape[1];
    CPU_CHECK(gb.numel == C, "grad_bias has ", gb.numel, " elements, expected ", C);
    TensorView acc = newTensor(ctx, {C}, diopi_dtype_float32);
    float* a = acc.ptr<float>();
    std::fill(a, a + C, 0.f);
    TensorView cl = channelsLast(t);
    int64_t rows, rs;
    TensorView m;
    if (mergeDims(cl, 0, 4, rows, rs)) {
        m = cl.restrided({rows, C}, {rs, t.strides[1]});
    } else {
        TensorView c = contiguousAs(ctx, cl, t.dtype);
        m = c.restrided({c.numel / std::max<int64_t>(C, 1), C}, {C, 1});
    }
    dispatch<FloatTypes>(m.dtype, "grad_output", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* p = m.ptr<T>();
        const int64_t R = m.shape[0];
        parallelFor(C, R * C >= kParallelGrain ? std::max<int64_t>(1, C / 8) : C + 1, [&](int64_t b, int64_t e) {
            for (int64_t r = 0; r < R; ++r) {
                const T* row = p + r * m.strides[0];
                for (int64_t c = b; c < e; ++c) a[c] += static_cast<float>(row[c * m.strides[1]]);
            }
        });
    });
    copyCast(gb.restrided({C}, {gb.dim() ? gb.strides[gb.dim() - 1] : 0}), acc);
}

void checkRank(const TensorView& t, int64_t spatial, const char* name) {
    CPU_CHECK(t.dim() == spatial + 2, name, " must be ", spatial + 2, "-D (N, C, spatial...), got ", t.dim(), "-D");
}

// ---------------------------------------------------------------- entry helpers

void convolution(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                 diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups, int64_t spatial) {
    TensorView y = view(out, "out"), x = view(input, "input"), w = view(weight, "weight"), b = viewOpt(bias, "bias");
    checkRank(x, spatial, "input");
    checkRank(w, spatial, "weight");
    requireFloat(y, "out");
    requireFloat(x, "input");
    requireFloat(w, "weight");
    TensorView x5 = spatial == 2 ? to5d(x) : x, w5 = spatial == 2 ? to5d(w) : w;
    Geo g = makeGeo(x5, w5, spatial, stride, padding, dilation, groups);
    Shape want = outShape(g, spatial);
    CPU_CHECK(y.shape == want, "out shape ", shapeStr(y.shape), " must be ", shapeStr(want));
    if (b.defined()) {
        requireFloat(b, "bias");
        CPU_CHECK(b.dim() == 1 && b.shape[0] == g.Cout, "bias must have shape (", g.Cout, ")");
    }
    convForwardCore(ctx, spatial == 2 ? to5d(y) : y, x5, w5, b.defined() ? &b : nullptr, g);
}

void convolutionBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight, diopiTensorHandle_t grad_bias,
                         diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                         diopiSize_t* bias_sizes, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups, int64_t spatial) {
    TensorView gy = view(grad_output, "grad_output"), x = view(input, "input"), w = view(weight, "weight");
    checkRank(x, spatial, "input");
    checkRank(w, spatial, "weight");
    checkRank(gy, spatial, "grad_output");
    requireFloat(gy, "grad_output");
    requireFloat(x, "input");
    requireFloat(w, "weight");
    TensorView x5 = spatial == 2 ? to5d(x) : x, w5 = spatial == 2 ? to5d(w) : w, gy5 = spatial == 2 ? to5d(gy) : gy;
    Geo g = makeGeo(x5, w5, spatial, stride, padding, dilation, groups);
    Shape want = outShape(g, spatial);
    CPU_CHECK(gy.shape == want, "grad_output shape ", shapeStr(gy.shape), " must be ", shapeStr(want));
    if (grad_input) {
        TensorView gx = view(grad_input, "grad_input");
        requireFloat(gx, "grad_input");
        CPU_CHECK(gx.shape == x.shape, "grad_input shape ", shapeStr(gx.shape), " must be ", shapeStr(x.shape));
        convGradInputCore(ctx, spatial == 2 ? to5d(gx) : gx, gy5, w5, g);
    }
    if (grad_weight) {
        TensorView gw = view(grad_weight, "grad_weight");
        requireFloat(gw, "grad_weight");
        CPU_CHECK(gw.shape == w.shape, "grad_weight shape ", shapeStr(gw.shape), " must be ", shapeStr(w.shape));
        convGradWeightCore(ctx, spatial == 2 ? to5d(gw) : gw, gy5, x5, g);
    }
    if (grad_bias && bias_sizes) {
        TensorView gb = view(grad_bias, "grad_bias");
        requireFloat(gb, "grad_bias");
        sumChannels(ctx, gb, gy5);
    }
}

/// Geometry of a transposed convolution seen as the convolution it is the
/// adjoint of: conv input = transposed output (shape from the formula).
Geo transposedGeo(const TensorView& x5, const TensorView& w5, int64_t spatial, diopiSize_t stride, diopiSize_t padding,
                  diopiSize_t outputPadding, diopiSize_t dilation, int64_t groups, Shape& yShape) {
    CPU_CHECK(groups >= 1, "groups must be >= 1, got ", groups);
    auto st = spatialArg(stride, spatial, "stride", 1), pa = spatialArg(padding, spatial, "padding", 0),
         op = spatialArg(outputPadding, spatial, "output_padding", 0), di = spatialArg(dilation, spatial, "dilation", 1);
    CPU_CHECK(x5.shape[1] == w5.shape[0], "input has ", x5.shape[1], " channels but weight expects ", w5.shape[0]);
    const int off = 3 - (int)spatial;
    Shape ySp;
    yShape = {x5.shape[0], w5.shape[1] * groups};
    for (int64_t i = 0; i < 3; ++i) {
        if (i < off) {
            ySp.push_back(1);
            continue;
        }
        const int64_t j = i - off;
        CPU_CHECK(st[j] > 0 && di[j] > 0 && pa[j] >= 0 && op[j] >= 0, "stride/dilation must be positive, padding/output_padding non-negative");
        CPU_CHECK(op[j] < st[j] || op[j] < di[j], "output_padding must be smaller than stride or dilation");
        const int64_t len = (x5.shape[2 + i] - 1) * st[j] - 2 * pa[j] + di[j] * (w5.shape[2 + i] - 1) + op[j] + 1;
        CPU_CHECK(len > 0, "transposed convolution output would be empty");
        ySp.push_back(len);
        yShape.push_back(len);
    }
    // Conv-orientation input: (N, C_out, ySp...).
    TensorView fake = x5.restrided({x5.shape[0], w5.shape[1] * groups, ySp[0], ySp[1], ySp[2]}, {0, 0, 0, 0, 0});
    // Conv weight (C_out_conv = C_in_T, C_in_conv/G = C_out_T/G, k...) is w5 as is.
    Geo g = makeGeo(fake, w5, spatial, stride, padding, dilation, groups);
    for (int i = 0; i < 3; ++i)
        CPU_CHECK(g.O[i] == x5.shape[2 + i], "transposed convolution sizes are inconsistent");
    return g;
}

void convTranspose(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                   diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding, diopiSize_t output_padding, int64_t groups,
                   diopiSize_t dilation, int64_t spatial) {
    TensorView y = view(out, "out"), x = view(input, "input"), w = view(weight, "weight"), b = viewOpt(bias, "bias");
    checkRank(x, spatial, "input");
    checkRank(w, spatial, "weight");
    requireFloat(y, "out");
    requireFloat(x, "input");
    requireFloat(w, "weight");
    TensorView x5 = spatial == 2 ? to5d(x) : x, w5 = spatial == 2 ? to5d(w) : w;
    Shape want;
    Geo g = transposedGeo(x5, w5, spatial, stride, padding, output_padding, dilation, groups, want);
    CPU_CHECK(y.shape == want, "out shape ", shapeStr(y.shape), " must be ", shapeStr(want));
    TensorView y5 = spatial == 2 ? to5d(y) : y;
    if (b.defined()) {
        requireFloat(b, "bias");
        CPU_CHECK(b.dim() == 1 && b.shape[0] == want[1], "bias must have shape (", want[1], ")");
    }
    if (y.numel == 0) return;
    if (!b.defined()) {
        convGradInputCore(ctx, y5, x5, w5, g);
        return;
    }
    TensorView t = newTensor(ctx, y5.shape, diopi_dtype_float32);
    convGradInputCore(ctx, t, x5, w5, g);
    TensorView bb = b.restrided({1, want[1], 1, 1, 1}, {0, b.strides[0], 0, 0, 0});
    dispatch<FloatTypes>(y.dtype, "out", [&](auto tag) {
        using T = typename decltype(tag)::type;
        TensorView bf = castTo(ctx, bb, diopi_dtype_float32);
        binaryLoop<T, float, float>(y5, t, bf, [](float v, float c) { return T(v + c); });
    });
}

void convTransposeBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight, diopiTensorHandle_t grad_bias,
                           diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                           diopiSize_t* bias_sizes, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, diopiSize_t output_padding,
                           int64_t groups, int64_t spatial) {
    TensorView gy = view(grad_output, "grad_output"), x = view(input, "input"), w = view(weight, "weight");
    checkRank(x, spatial, "input");
    checkRank(w, spatial, "weight");
    checkRank(gy, spatial, "grad_output");
    requireFloat(gy, "grad_output");
    requireFloat(x, "input");
    requireFloat(w, "weight");
    TensorView x5 = spatial == 2 ? to5d(x) : x, w5 = spatial == 2 ? to5d(w) : w, gy5 = spatial == 2 ? to5d(gy) : gy;
    Shape want;
    Geo g = transposedGeo(x5, w5, spatial, stride, padding, output_padding, dilation, groups, want);
    CPU_CHECK(gy.shape == want, "grad_output shape ", shapeStr(gy.shape), " must be ", shapeStr(want));
    if (grad_input) {
        TensorView gx = view(grad_input, "grad_input");
        requireFloat(gx, "grad_input");
        CPU_CHECK(gx.shape == x.shape, "grad_input shape ", shapeStr(gx.shape), " must be ", shapeStr(x.shape));
        convForwardCore(ctx, spatial == 2 ? to5d(gx) : gx, gy5, w5, nullptr, g);
    }
    if (grad_weight) {
        TensorView gw = view(grad_weight, "grad_weight");
        requireFloat(gw, "grad_weight");
        CPU_CHECK(gw.shape == w.shape, "grad_weight shape ", shapeStr(gw.shape), " must be ", shapeStr(w.shape));
        convGradWeightCore(ctx, spatial == 2 ? to5d(gw) : gw, x5, gy5, g);
    }
    if (grad_bias && bias_sizes) {
        TensorView gb = view(grad_bias, "grad_bias");
        requireFloat(gb, "grad_bias");
        sumChannels(ctx, gb, gy5);
    }
}

/// Unfold / fold window arguments for a (C, H, W) plane.
struct Unfold {
    int64_t k[2], d[2], p[2], s[2], O[2];
};

Unfold unfoldArgs(diopiSize_t kernel_size, diopiSize_t dilation, diopiSize_t padding, diopiSize_t stride, int64_t H, int64_t W) {
    auto k = spatialArg(kernel_size, 2, "kernel_size", 1), d = spatialArg(dilation, 2, "dilation", 1), p = spatialArg(padding, 2, "padding", 0),
         s = spatialArg(stride, 2, "stride", 1);
    Unfold u;
    const int64_t in[2] = {H, W};
    for (int i = 0; i < 2; ++i) {
        CPU_CHECK(k[i] > 0 && d[i] > 0 && s[i] > 0 && p[i] >= 0, "kernel_size, dilation and stride must be positive, padding non-negative");
        u.k[i] = k[i];
        u.d[i] = d[i];
        u.p[i] = p[i];
        u.s[i] = s[i];
        const int64_t eff = in[i] + 2 * p[i] - d[i] * (k[i] - 1);
        CPU_CHECK(eff >= 1, "the window (with dilation) is larger than the padded input");
        u.O[i] = (eff - 1) / s[i] + 1;
    }
    return u;
}

}  // namespace

diopiError_t diopiIm2Col(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                         diopiSize_t dilation, diopiSize_t padding, diopiSize_t stride) {
    return guard(__func__, [&] {
        TensorView x = view(input, "input"), o = view(out, "out");
        CPU_CHECK(x.dim() == 3 || x.dim() == 4, "input must be 3-D (C, H, W) or 4-D (N, C, H, W), got ", x.dim(), "-D");
        TensorView x4 = x.dim() == 4 ? x : x.restrided({1, x.shape[0], x.shape[1], x.shape[2]}, {0, x.strides[0], x.strides[1], x.strides[2]});
        const int64_t N = x4.shape[0], C = x4.shape[1], H = x4.shape[2], W = x4.shape[3];
        Unfold u = unfoldArgs(kernel_size, dilation, padding, stride, H, W);
        const int64_t KK = u.k[0] * u.k[1], L = u.O[0] * u.O[1];
        Shape want = x.dim() == 4 ? Shape{N, C * KK, L} : Shape{C * KK, L};
        CPU_CHECK(o.shape == want, "out shape ", shapeStr(o.shape), " must be ", shapeStr(want));
        CPU_CHECK(o.dtype == x.dtype, "out dtype must equal input dtype");
        TensorView o3 = o.dim() == 3 ? o : o.restrided({1, o.shape[0], o.shape[1]}, {0, o.strides[0], o.strides[1]});
        dispatch<AllTypes>(x.dtype, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            parallelFor(N * C, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(KK * L, 1)), [&](int64_t b, int64_t e) {
                for (int64_t nc = b; nc < e; ++nc) {
                    const int64_t n = nc / C, c = nc % C;
                    const T* src = x4.ptr<T>() + n * x4.strides[0] + c * x4.strides[1];
                    for (int64_t i = 0; i < u.k[0]; ++i)
                        for (int64_t j = 0; j < u.k[1]; ++j) {
                            T* dst = o3.ptr<T>() + n * o3.strides[0] + (c * KK + i * u.k[1] + j) * o3.strides[1];
                            for (int64_t oh = 0; oh < u.O[0]; ++oh) {
                                const int64_t ih = oh * u.s[0] - u.p[0] + i * u.d[0];
                                for (int64_t ow = 0; ow < u.O[1]; ++ow) {
                                    const int64_t iw = ow * u.s[1] - u.p[1] + j * u.d[1];
                                    const bool in = ih >= 0 && ih < H && iw >= 0 && iw < W;
                                    dst[(oh * u.O[1] + ow) * o3.strides[2]] = in ? src[ih * x4.strides[2] + iw * x4.strides[3]] : T(0);
                                }
                            }
                        }
                }
            });
        });
    });
}

diopiError_t diopiCol2Im(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size,
                         diopiSize_t kernel_size, diopiSize_t dilation, diopiSize_t padding, diopiSize_t stride) {
    return guard(__func__, [&] {
        TensorView x = view(input, "input"), o = view(out, "out");
        CPU_CHECK(x.dim() == 2 || x.dim() == 3, "input must be 2-D (C*kH*kW, L) or 3-D (N, C*kH*kW, L), got ", x.dim(), "-D");
        auto os = spatialArg(output_size, 2, "output_size", 1);
        CPU_CHECK(os[0] > 0 && os[1] > 0, "output_size must be positive");
        const int64_t H = os[0], W = os[1];
        Unfold u = unfoldArgs(kernel_size, dilation, padding, stride, H, W);
        TensorView x3 = x.dim() == 3 ? x : x.restrided({1, x.shape[0], x.shape[1]}, {0, x.strides[0], x.strides[1]});
        const int64_t N = x3.shape[0], KK = u.k[0] * u.k[1], L = u.O[0] * u.O[1];
        CPU_CHECK(x3.shape[1] % KK == 0, "input dim ", x.dim() - 2, " (", x3.shape[1], ") is not divisible by the kernel size ", KK);
        CPU_CHECK(x3.shape[2] == L, "input has ", x3.shape[2], " blocks, the sizes give ", L);
        const int64_t C = x3.shape[1] / KK;
        Shape want = x.dim() == 3 ? Shape{N, C, H, W} : Shape{C, H, W};
        CPU_CHECK(o.shape == want, "out shape ", shapeStr(o.shape), " must be ", shapeStr(want));
        if (!isFloatingDtype(o.dtype)) failCode(diopiDtypeNotSupported, "out dtype ", dtypeName(o.dtype), " is not supported");
        TensorView acc = newTensor(ctx, {N, C, H, W}, diopi_dtype_float32);
        dispatch<FloatTypes>(x.dtype, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            parallelFor(N * C, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(KK * L, 1)), [&](int64_t b, int64_t e) {
                for (int64_t nc = b; nc < e; ++nc) {
                    const int64_t n = nc / C, c = nc % C;
                    float* dst = acc.ptr<float>() + nc * H * W;
                    std::fill(dst, dst + H * W, 0.f);
                    for (int64_t i = 0; i < u.k[0]; ++i)
                        for (int64_t j = 0; j < u.k[1]; ++j) {
                            const T* src = x3.ptr<T>() + n * x3.strides[0] + (c * KK + i * u.k[1] + j) * x3.strides[1];
                            for (int64_t oh = 0; oh < u.O[0]; ++oh) {
                                const int64_t ih = oh * u.s[0] - u.p[0] + i * u.d[0];
                                if (ih < 0 || ih >= H) continue;
                                for (int64_t ow = 0; ow < u.O[1]; ++ow) {
                                    const int64_t iw = ow * u.s[1] - u.p[1] + j * u.d[1];
                                    if (iw >= 0 && iw < W) dst[ih * W + iw] += static_cast<float>(src[(oh * u.O[1] + ow) * x3.strides[2]]);
                                }
                            }
                        }
                }
            });
        });
        copyCast(o, x.dim() == 3 ? acc : acc.reshaped({C, H, W}));
    });
}

diopiError_t diopiConvolution2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups) {
    return guard(__func__, [&] { convolution(ctx, out, input, weight, bias, stride, padding, dilation, groups, 2); });
}

diopiError_t diopiConvolution2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                        diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                        diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes, diopiSize_t stride, diopiSize_t padding,
                                        diopiSize_t dilation, int64_t groups) {
    return guard(__func__, [&] {
        convolutionBackward(ctx, grad_input, grad_weight, grad_bias, grad_output, input, weight, bias_sizes, stride, padding, dilation, groups, 2);
    });
}

diopiError_t diopiConvolution3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups) {
    return guard(__func__, [&] { convolution(ctx, out, input, weight, bias, stride, padding, dilation, groups, 3); });
}

diopiError_t diopiConvolution3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                        diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                        diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes, diopiSize_t stride, diopiSize_t padding,
                                        diopiSize_t dilation, int64_t groups) {
    return guard(__func__, [&] {
        convolutionBackward(ctx, grad_input, grad_weight, grad_bias, grad_output, input, weight, bias_sizes, stride, padding, dilation, groups, 3);
    });
}

diopiError_t diopiConvTranspose2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                  diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding, diopiSize_t output_padding, int64_t groups,
                                  diopiSize_t dilation) {
    return guard(__func__, [&] { convTranspose(ctx, out, input, weight, bias, stride, padding, output_padding, groups, dilation, 2); });
}

diopiError_t diopiConvTranspose2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                          diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes, diopiSize_t stride, diopiSize_t padding,
                                          diopiSize_t dilation, diopiSize_t output_padding, int64_t groups) {
    return guard(__func__, [&] {
        convTransposeBackward(ctx, grad_input, grad_weight, grad_bias, grad_output, input, weight, bias_sizes, stride, padding, dilation,
                              output_padding, groups, 2);
    });
}

diopiError_t diopiConvTranspose3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                  diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding, diopiSize_t output_padding, int64_t groups,
                                  diopiSize_t dilation) {
    return guard(__func__, [&] { convTranspose(ctx, out, input, weight, bias, stride, padding, output_padding, groups, dilation, 3); });
}

diopiError_t diopiConvTranspose3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                          diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes, diopiSize_t stride, diopiSize_t padding,
                                          diopiSize_t dilation, diopiSize_t output_padding, int64_t groups) {
    return guard(__func__, [&] {
        convTransposeBackward(ctx, grad_input, grad_weight, grad_bias, grad_output, input, weight, bias_sizes, stride, padding, dilation,
                              output_padding, groups, 3);
    });
}

}  // namespace impl::cpu
