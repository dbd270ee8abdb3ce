// Family pooling: max / average pooling, fixed-window and adaptive, 1-d to
// 3-d, forward and backward, and the mode-generic Pool{1,2,3}d.
//
// Every variant runs on one 5-D description (N, C, D, H, W): missing batch
// and leading spatial dims become unit dims. Forward kernels walk the output
// channel-innermost when the input is channels-last (the layout the adaptor
// gives 4-D pooling tensors), else plane by plane; window sums and maxima are
// taken in float. Indices are flat positions inside one input plane, as in
// PyTorch.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "common/common.hpp"

namespace impl::cpu {

namespace {

enum class Kind { Max, Avg, AdaptiveMax, AdaptiveAvg };

struct PoolGeo {
    Kind kind = Kind::Max;
    int64_t N = 0, C = 0;
    int64_t I[3] = {1, 1, 1}, O[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0}, d[3] = {1, 1, 1};
    bool countIncludePad = true;
    int64_t divisor = 0;  ///< divisor_override (0: none)
    int64_t ISP() const { return I[0] * I[1] * I[2]; }
    int64_t OSP() const { return O[0] * O[1] * O[2]; }
    bool isMax() const { return kind == Kind::Max || kind == Kind::AdaptiveMax; }
};

struct Strides5 {
    int64_t n, c, d, h, w;
};
inline Strides5 strides5(const TensorView& v) { return {v.strides[0], v.strides[1], v.strides[2], v.strides[3], v.strides[4]}; }

/// Windows of every output position along each dim, computed once per call.
struct DimWindows {
    std::vector<int64_t> start[3], end[3], psize[3];
    int64_t step[3];
    explicit DimWindows(const PoolGeo& g) {
        for (int i = 0; i < 3; ++i) {
            step[i] = 1;
            start[i].resize(g.O[i]);
            end[i].resize(g.O[i]);
            psize[i].resize(g.O[i]);
            for (int64_t o = 0; o < g.O[i]; ++o) {
                int64_t st, en, ps;
                if (g.kind == Kind::AdaptiveMax || g.kind == Kind::AdaptiveAvg) {
                    st = (o * g.I[i]) / g.O[i];
                    en = ((o + 1) * g.I[i] + g.O[i] - 1) / g.O[i];
                    ps = en - st;
                } else if (g.kind == Kind::Max) {
                    st = o * g.s[i] - g.p[i];
                    en = std::min(st + (g.k[i] - 1) * g.d[i] + 1, g.I[i]);
                    while (st < 0) st += g.d[i];
                    ps = 0;
                    step[i] = g.d[i];
                } else {
                    st = o * g.s[i] - g.p[i];
                    en = std::min(st + g.k[i], g.I[i] + g.p[i]);
                    ps = en - st;
                    st = std::max<int64_t>(st, 0);
                    en = std::min(en, g.I[i]);
                }
                start[i][o] = st;
                end[i][o] = en;
                psize[i][o] = ps;
            }
        }
    }
    /// Divisor of an average window (0 for an empty one).
    float divisor(const PoolGeo& g, int64_t a, int64_t b, int64_t c) const {
        const int64_t cnt = std::max<int64_t>(end[0][a] - start[0][a], 0) * std::max<int64_t>(end[1][b] - start[1][b], 0) *
                            std::max<int64_t>(end[2][c] - start[2][c], 0);
        if (g.kind == Kind::Avg) {
            if (cnt == 0) return 0.f;
            if (g.divisor) return (float)g.divisor;
            return (float)(g.countIncludePad ? psize[0][a] * psize[1][b] * psize[2][c] : cnt);
        }
        return (float)cnt;
    }
};

/// a[c] = max(a[c], src[c]) with NaN winning, recording the position of the
/// winner; branch-free with 32-bit positions (same lane count as float) so
/// the loop vectorises.
template <class T>
inline void maxRun(const T* __restrict src, float* __restrict a, int32_t* __restrict bi, int64_t C, int32_t pos) {
    for (int64_t c = 0; c < C; ++c) {
        const float v = static_cast<float>(src[c]);
        const bool take = v > a[c] || v != v;
        a[c] = take ? v : a[c];
        bi[c] = take ? pos : bi[c];
    }
}

template <class T>
inline void sumRun(const T* __restrict src, float* __restrict a, int64_t C) {
    for (int64_t c = 0; c < C; ++c) a[c] += static_cast<float>(src[c]);
}

/// Forward on 5-D views; idx (same shape as y, int32 or int64) may be undefined.
template <class T, class IT>
void forwardT(const PoolGeo& g, const TensorView& x, const TensorView& y, const TensorView& idx) {
    const Strides5 xs = strides5(x), ys = strides5(y);
    const Strides5 is = idx.defined() ? strides5(idx) : Strides5{0, 0, 0, 0, 0};
    const T* xp = x.ptr<T>();
    T* yp = y.ptr<T>();
    IT* ip = idx.defined() ? idx.ptr<IT>() : nullptr;
    const int64_t OSP = g.OSP(), C = g.C, I1 = g.I[1], I2 = g.I[2];
    const bool isMax = g.isMax();
    const DimWindows W(g);
    const float ninf = -std::numeric_limits<float>::infinity();
    if (xs.c == 1 && C > 1 && g.ISP() < (int64_t(1) << 31)) {
        // Channels-last: window taps outside, a contiguous run of channels inside.
        parallelFor(g.N * OSP, std::max<int64_t>(1, kParallelGrain / (C * 4)), [&](int64_t b, int64_t e) {
            std::vector<float> acc(C);
            std::vector<int32_t> best(C);
            for (int64_t r = b; r < e; ++r) {
                const int64_t n = r / OSP, opix = r % OSP;
                const int64_t ow = opix % g.O[2], oh = (opix / g.O[2]) % g.O[1], od = opix / (g.O[1] * g.O[2]);
                const int64_t s0 = W.start[0][od], e0 = W.end[0][od], s1 = W.start[1][oh], e1 = W.end[1][oh], s2 = W.start[2][ow],
                              e2 = W.end[2][ow];
                float* a = acc.data();
                int32_t* bi = best.data();
                const int32_t first = (int32_t)((s0 * I1 + s1) * I2 + s2);
                for (int64_t c = 0; c < C; ++c) {
                    a[c] = isMax ? ninf : 0.f;
                    bi[c] = first;
                }
                for (int64_t p0 = s0; p0 < e0; p0 += W.step[0])
                    for (int64_t p1 = s1; p1 < e1; p1 += W.step[1])
                        for (int64_t p2 = s2; p2 < e2; p2 += W.step[2]) {
                            const T* src = xp + n * xs.n + p0 * xs.d + p1 * xs.h + p2 * xs.w;
                            if (isMax) maxRun(src, a, bi, C, (int32_t)((p0 * I1 + p1) * I2 + p2));
                            else sumRun(src, a, C);
                        }
                T* dst = yp + n * ys.n + od * ys.d + oh * ys.h + ow * ys.w;
                if (isMax) {
                    for (int64_t c = 0; c < C; ++c) dst[c * ys.c] = T(a[c]);
                    if (ip) {
                        IT* id = ip + n * is.n + od * is.d + oh * is.h + ow * is.w;
                        for (int64_t c = 0; c < C; ++c) id[c * is.c] = static_cast<IT>(bi[c]);
                    }
                } else {
                    const float dv = W.divisor(g, od, oh, ow);
                    for (int64_t c = 0; c < C; ++c) dst[c * ys.c] = T(dv != 0.f ? a[c] / dv : 0.f);
                }
            }
        });
        return;
    }
    // Plane by plane (NCHW-like layouts).
    parallelFor(g.N * C, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(OSP * 4, 1)), [&](int64_t b, int64_t e) {
        for (int64_t nc = b; nc < e; ++nc) {
            const int64_t n = nc / C, c = nc % C;
            const T* plane = xp + n * xs.n + c * xs.c;
            for (int64_t od = 0; od < g.O[0]; ++od)
                for (int64_t oh = 0; oh < g.O[1]; ++oh)
                    for (int64_t ow = 0; ow < g.O[2]; ++ow) {
                        const int64_t s0 = W.start[0][od], e0 = W.end[0][od], s1 = W.start[1][oh], e1 = W.end[1][oh], s2 = W.start[2][ow],
                                      e2 = W.end[2][ow];
                        float acc = isMax ? ninf : 0.f;
                        int64_t bi = (s0 * I1 + s1) * I2 + s2;
                        for (int64_t p0 = s0; p0 < e0; p0 += W.step[0])
                            for (int64_t p1 = s1; p1 < e1; p1 += W.step[1]) {
                                const T* row = plane + p0 * xs.d + p1 * xs.h;
                                if (isMax) {
                                    for (int64_t p2 = s2; p2 < e2; p2 += W.step[2]) {
                                        const float v = static_cast<float>(row[p2 * xs.w]);
                                        if (v > acc || v != v) {
                                            acc = v;
                                            bi = (p0 * I1 + p1) * I2 + p2;
                                        }
                                    }
                                } else {
                                    for (int64_t p2 = s2; p2 < e2; ++p2) acc += static_cast<float>(row[p2 * xs.w]);
                                }
                            }
                        if (!isMax) {
                            const float dv = W.divisor(g, od, oh, ow);
                            acc = dv != 0.f ? acc / dv : 0.f;
                        }
                        yp[n * ys.n + c * ys.c + od * ys.d + oh * ys.h + ow * ys.w] = T(acc);
                        if (ip) ip[n * is.n + c * is.c + od * is.d + oh * is.h + ow * is.w] = static_cast<IT>(bi);
                    }
        }
    });
}

void forward(const PoolGeo& g, const TensorView& x, const TensorView& y, const TensorView& idx) {
    if (y.numel == 0) return;
    dispatch<FloatTypes>(x.dtype, "input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (idx.defined() && idx.dtype == diopi_dtype_int64) forwardT<T, int64_t>(g, x, y, idx);
        else forwardT<T, int32_t>(g, x, y, idx);
    });
}

/// Backward into float gx (5-D strides gxs, zeroed here plane by plane); idx
/// is given for the max kinds. Returns false if an index is out of range.
template <class T, class IT>
bool backwardT(const PoolGeo& g, float* gx, const Strides5& gxs, const TensorView& gy, const TensorView& idx) {
    const Strides5 ys = strides5(gy);
    const Strides5 is = idx.defined() ? strides5(idx) : Strides5{0, 0, 0, 0, 0};
    const T* gp = gy.ptr<T>();
    const IT* ip = idx.defined() ? idx.ptr<IT>() : nullptr;
    const int64_t ISP = g.ISP(), C = g.C, I1 = g.I[1], I2 = g.I[2];
    const bool isMax = g.isMax();
    const DimWindows W(g);
    // A plane whose rows follow each other lets a flat index address it directly.
    const bool dense = (I1 == 1 || gxs.h == I2 * gxs.w) && (g.I[0] == 1 || gxs.d == I1 * I2 * gxs.w);
    bool bad = false;
    // One plane per task: every write stays inside its own plane.
    parallelFor(g.N * C, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(ISP * 2, 1)), [&](int64_t b, int64_t e) {
        for (int64_t nc = b; nc < e; ++nc) {
            const int64_t n = nc / C, c = nc % C;
            float* plane = gx + n * gxs.n + c * gxs.c;
            auto at = [&](int64_t a, int64_t bb, int64_t ee) -> float& { return plane[a * gxs.d + bb * gxs.h + ee * gxs.w]; };
            for (int64_t a = 0; a < g.I[0]; ++a)
                for (int64_t bb = 0; bb < I1; ++bb)
                    for (int64_t ee = 0; ee < I2; ++ee) at(a, bb, ee) = 0.f;
            for (int64_t od = 0; od < g.O[0]; ++od)
                for (int64_t oh = 0; oh < g.O[1]; ++oh)
                    for (int64_t ow = 0; ow < g.O[2]; ++ow) {
                        const float go = static_cast<float>(gp[n * ys.n + c * ys.c + od * ys.d + oh * ys.h + ow * ys.w]);
                        if (isMax) {
                            const int64_t k = static_cast<int64_t>(ip[n * is.n + c * is.c + od * is.d + oh * is.h + ow * is.w]);
                            if (k < 0 || k >= ISP) {
                                bad = true;
                                continue;
                            }
                            if (dense) plane[k * gxs.w] += go;
                            else at(k / (I1 * I2), (k / I2) % I1, k % I2) += go;
                            continue;
                        }
                        const float dv = W.divisor(g, od, oh, ow);
                        if (dv == 0.f) continue;
                        const float v = go / dv;
                        for (int64_t a = W.start[0][od]; a < W.end[0][od]; ++a)
                            for (int64_t bb = W.start[1][oh]; bb < W.end[1][oh]; ++bb)
                                for (int64_t ee = W.start[2][ow]; ee < W.end[2][ow]; ++ee) at(a, bb, ee) += v;
                    }
        }
    });
    return !bad;
}

// ---------------------------------------------------------------- argument handling

/// (N, C, s...) or (C, s...) with `n` spatial dims as 5-D (N, C, D, H, W).
TensorView to5(const TensorView& v, int64_t n) {
    Shape sh = v.shape, st = v.strides;
    if (v.dim() == n + 1) {
        sh.insert(sh.begin(), 1);
        st.insert(st.begin(), 0);
    }
    for (int64_t i = n; i < 3; ++i) {
        sh.insert(sh.begin() + 2, 1);
        st.insert(st.begin() + 2, 0);
    }
    return v.restrided(sh, st);
}

std::vector<int64_t> expandArg(diopiSize_t v, int64_t n, const char* name, const std::vector<int64_t>& fallback) {
    Shape s = toShape(v);
    if (s.empty()) return fallback;
    if (s.size() == 1) return std::vector<int64_t>(n, s[0]);
    CPU_CHECK((int64_t)s.size() == n, name, " must have 1 or ", n, " entries, got ", s.size());
    return s;
}

void requireRank(const TensorView& x, int64_t n, const char* name) {
    CPU_CHECK(x.dim() == n + 1 || x.dim() == n + 2, name, " must be ", n + 1, "-D or ", n + 2, "-D for ", n, "-d pooling, got ", x.dim(), "-D");
}

void requireFloat(const TensorView& t, const char* name) {
    if (t.dtype != diopi_dtype_float32 && t.dtype != diopi_dtype_float16 && t.dtype != diopi_dtype_bfloat16)
        failCode(diopiDtypeNotSupported, name, " dtype ", dtypeName(t.dtype), " is not supported");
}

void setInput(PoolGeo& g, const TensorView& x, int64_t n) {
    requireRank(x, n, "input");
    requireFloat(x, "input");
    TensorView x5 = to5(x, n);
    g.N = x5.shape[0];
    g.C = x5.shape[1];
    for (int i = 0; i < 3; ++i) g.I[i] = x5.shape[2 + i];
}

/// Fixed-window geometry (kind Max or Avg).
PoolGeo windowGeo(const TensorView& x, int64_t n, Kind kind, diopiSize_t kernel, diopiSize_t stride, diopiSize_t padding, const diopiSize_t* dilation,
                  bool ceil) {
    PoolGeo g;
    g.kind = kind;
    setInput(g, x, n);
    auto k = expandArg(kernel, n, "kernel_size", {});
    CPU_CHECK(!k.empty(), "kernel_size must not be empty");
    auto s = expandArg(stride, n, "stride", k);
    auto p = expandArg(padding, n, "padding", std::vector<int64_t>(n, 0));
    auto d = dilation ? expandArg(*dilation, n, "dilation", std::vector<int64_t>(n, 1)) : std::vector<int64_t>(n, 1);
    const int off = 3 - (int)n;
    for (int64_t i = 0; i < n; ++i) {
        CPU_CHECK(k[i] > 0, "kernel_size must be positive");
        CPU_CHECK(s[i] > 0, "stride must be positive");
        CPU_CHECK(d[i] > 0, "dilation must be positive");
        CPU_CHECK(p[i] >= 0 && p[i] <= k[i] / 2, "padding must be non-negative and at most half of the kernel size");
        if (kind == Kind::Avg) CPU_CHECK(d[i] == 1, "average pooling takes no dilation (all entries must be 1)");
        const int64_t L = g.I[i + off];
        const int64_t num = L + 2 * p[i] - d[i] * (k[i] - 1) - 1;
        const int64_t q = num + (ceil ? s[i] - 1 : 0);
        int64_t o = (q >= 0 ? q / s[i] : -((-q + s[i] - 1) / s[i])) + 1;  // floor division
        if (ceil && (o - 1) * s[i] >= L + p[i]) --o;
        CPU_CHECK(o >= 1, "output size is too small: input size ", L, " with the given window gives ", o);
        g.k[i + off] = k[i];
        g.s[i + off] = s[i];
        g.p[i + off] = p[i];
        g.d[i + off] = d[i];
        g.O[i + off] = std::max<int64_t>(o, 0);
    }
    return g;
}

PoolGeo adaptiveGeo(const TensorView& x, int64_t n, Kind kind, const std::vector<int64_t>& size) {
    PoolGeo g;
    g.kind = kind;
    setInput(g, x, n);
    CPU_CHECK((int64_t)size.size() == n, "output_size must have ", n, " entries");
    const int off = 3 - (int)n;
    for (int64_t i = 0; i < n; ++i) {
        CPU_CHECK(size[i] >= 0, "output_size must be non-negative");
        CPU_CHECK(g.I[i + off] > 0 || g.N * g.C == 0, "adaptive pooling needs non-empty spatial input dims");
        g.O[i + off] = size[i];
    }
    return g;
}

std::vector<int64_t> outputSizeArg(diopiSize_t s, int64_t n) {
    auto v = expandArg(s, n, "output_size", {});
    CPU_CHECK(!v.empty(), "output_size must not be empty");
    return v;
}

/// The output shape for x's rank.
Shape outShape(const TensorView& x, int64_t n, const PoolGeo& g) {
    Shape s(x.shape.begin(), x.shape.end() - n);
    for (int64_t i = 3 - n; i < 3; ++i) s.push_back(g.O[i]);
    return s;
}

void runForward(const PoolGeo& g, const TensorView& x, int64_t n, diopiTensorHandle_t out, diopiTensorHandle_t indices) {
    TensorView y = view(out, "out");
    requireFloat(y, "out");
    CPU_CHECK(y.dtype == x.dtype, "out dtype ", dtypeName(y.dtype), " differs from input dtype ", dtypeName(x.dtype));
    Shape want = outShape(x, n, g);
    CPU_CHECK(y.shape == want, "out shape ", shapeStr(y.shape), " must be ", shapeStr(want));
    TensorView idx;
    if (indices) {
        idx = view(indices, "indices");
        if (idx.dtype != diopi_dtype_int32 && idx.dtype != diopi_dtype_int64)
            failCode(diopiDtypeNotSupported, "indices must be int32 or int64, got ", dtypeName(idx.dtype));
        CPU_CHECK(idx.shape == want, "indices shape ", shapeStr(idx.shape), " must be ", shapeStr(want));
        idx = to5(idx, n);
    }
    forward(g, to5(x, n), to5(y, n), idx);
}

/// grad_input of any pooling kind. Max kinds route each gradient through the caller's indices (those the forward
/// with indices produced): they are required, never recomputed, so a tie resolves as the caller's forward resolved it.
void runBackward(diopiContextHandle_t ctx, const PoolGeo& g, const TensorView& x, int64_t n, diopiTensorHandle_t grad_input,
                 diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t indices) {
    CPU_CHECK(!g.isMax() || indices, "indices is NULL: pass the indices the forward with indices produced");
    TensorView gx = view(grad_input, "grad_input"), gy = view(grad_output, "grad_output");
    requireFloat(gx, "grad_input");
    requireFloat(gy, "grad_output");
    CPU_CHECK(gx.shape == x.shape, "grad_input shape ", shapeStr(gx.shape), " must be ", shapeStr(x.shape));
    Shape want = outShape(x, n, g);
    CPU_CHECK(gy.shape == want, "grad_output shape ", shapeStr(gy.shape), " must be ", shapeStr(want));
    if (gx.numel == 0) return;
    TensorView idx;
    if (g.isMax() && gy.numel > 0) {
        idx = view(indices, "indices");
        if (idx.dtype != diopi_dtype_int32 && idx.dtype != diopi_dtype_int64)
            failCode(diopiDtypeNotSupported, "indices must be int32 or int64, got ", dtypeName(idx.dtype));
        CPU_CHECK(idx.shape == want, "indices shape ", shapeStr(idx.shape), " must be grad_output's ", shapeStr(want));
        idx = to5(idx, n);
    }
    // float32 gradients accumulate in place (any strides); 16-bit ones in a float buffer.
    TensorView gx5 = to5(gx, n);
    TensorView acc = gx5.dtype == diopi_dtype_float32 ? gx5 : newTensor(ctx, gx5.shape, diopi_dtype_float32);
    bool ok = true;
    dispatch<FloatTypes>(gy.dtype, "grad_output", [&](auto tag) {
        using T = typename decltype(tag)::type;
        ok = idx.defined() && idx.dtype == diopi_dtype_int64 ? backwardT<T, int64_t>(g, acc.ptr<float>(), strides5(acc), to5(gy, n), idx)
                                                              : backwardT<T, int32_t>(g, acc.ptr<float>(), strides5(acc), to5(gy, n), idx);
    });
    CPU_CHECK(ok, "indices hold a position outside the input plane");
    if (acc.data != gx5.data) copyCast(gx5, acc);
}

bool isMaxMode(const char* mode) {
    CPU_CHECK(mode, "mode must not be NULL (\"max\" or \"avg\")");
    if (std::strcmp(mode, "max") == 0) return true;
    if (std::strcmp(mode, "avg") == 0) return false;
    fail("mode must be \"max\" or \"avg\", got \"", mode, "\"");
}

PoolGeo genericGeo(const TensorView& x, int64_t n, const char* mode, diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding,
                   diopiSize_t dilation, bool ceil, bool exclusive, bool adaptive, const std::vector<int64_t>* outSize) {
    const bool mx = isMaxMode(mode);
    if (adaptive) {
        CPU_CHECK(outSize, "adaptive pooling needs output_size");
        return adaptiveGeo(x, n, mx ? Kind::AdaptiveMax : Kind::AdaptiveAvg, *outSize);
    }
    PoolGeo g = windowGeo(x, n, mx ? Kind::Max : Kind::Avg, ksize, stride, padding, mx ? &dilation : nullptr, ceil);
    if (!mx) {
        for (int64_t d : toShape(dilation)) CPU_CHECK(d == 1, "average pooling takes no dilation (all entries must be 1)");
        g.countIncludePad = !exclusive;
    }
    return g;
}

void setDivisor(PoolGeo& g, const int64_t* divisor) {
    if (!divisor) return;
    CPU_CHECK(*divisor != 0, "divisor_override must not be 0");
    g.divisor = *divisor;
}

/// Output spatial sizes of grad_output (the adaptive backward takes them from it).
std::vector<int64_t> gradSize(diopiConstTensorHandle_t grad_output, int64_t n) {
    TensorView gy = view(grad_output, "grad_output");
    CPU_CHECK(gy.dim() >= n, "grad_output has too few dims");
    return std::vector<int64_t>(gy.shape.end() - n, gy.shape.end());
}

// ---------------------------------------------------------------- per-rank entry points

void maxPool(diopiTensorHandle_t out, diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t n, diopiSize_t k, diopiSize_t s,
             diopiSize_t p, diopiSize_t d, bool ceil) {
    TensorView x = view(input, "input");
    runForward(windowGeo(x, n, Kind::Max, k, s, p, &d, ceil), x, n, out, indices);
}

void maxPoolBackward(diopiContextHandle_t ctx, diopiTensorHandle_t gi, diopiConstTensorHandle_t go, diopiConstTensorHandle_t input, int64_t n,
                     diopiSize_t k, diopiSize_t s, diopiSize_t p, diopiSize_t d, bool ceil, diopiConstTensorHandle_t indices) {
    TensorView x = view(input, "input");
    runBackward(ctx, windowGeo(x, n, Kind::Max, k, s, p, &d, ceil), x, n, gi, go, indices);
}

void avgPool(diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t n, diopiSize_t k, diopiSize_t s, diopiSize_t p, bool ceil, bool cip,
             const int64_t* divisor) {
    TensorView x = view(input, "input");
    PoolGeo g = windowGeo(x, n, Kind::Avg, k, s, p, nullptr, ceil);
    g.countIncludePad = cip;
    setDivisor(g, divisor);
    runForward(g, x, n, out, nullptr);
}

void avgPoolBackward(diopiContextHandle_t ctx, diopiTensorHandle_t gi, diopiConstTensorHandle_t go, diopiConstTensorHandle_t input, int64_t n,
                     diopiSize_t k, diopiSize_t s, diopiSize_t p, bool ceil, bool cip, const int64_t* divisor) {
    TensorView x = view(input, "input");
    PoolGeo g = windowGeo(x, n, Kind::Avg, k, s, p, nullptr, ceil);
    g.countIncludePad = cip;
    setDivisor(g, divisor);
    runBackward(ctx, g, x, n, gi, go, nullptr);
}

void adaptive(diopiTensorHandle_t out, diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t n, diopiSize_t size, Kind kind) {
    TensorView x = view(input, "input");
    runForward(adaptiveGeo(x, n, kind, outputSizeArg(size, n)), x, n, out, indices);
}

void adaptiveBackward(diopiContextHandle_t ctx, diopiTensorHandle_t gi, diopiConstTensorHandle_t go, diopiConstTensorHandle_t input, int64_t n,
                      Kind kind, diopiConstTensorHandle_t indices) {
    TensorView x = view(input, "input");
    runBackward(ctx, adaptiveGeo(x, n, kind, gradSize(go, n)), x, n, gi, go, indices);
}

void pool(diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t n, const char* mode, diopiSize_t ksize, diopiSize_t stride,
          diopiSize_t padding, diopiSize_t dilation, bool ceil, bool exclusive, bool adaptiveFlag, diopiSize_t outputSize) {
    TensorView x = view(input, "input");
    std::vector<int64_t> size;
    if (adaptiveFlag) size = outputSizeArg(outputSize, n);
    runForward(genericGeo(x, n, mode, ksize, stride, padding, dilation, ceil, exclusive, adaptiveFlag, &size), x, n, out, nullptr);
}

void poolBackward(diopiContextHandle_t ctx, diopiTensorHandle_t gi, diopiConstTensorHandle_t go, diopiConstTensorHandle_t input, int64_t n,
                  const char* mode, diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil, bool exclusive,
                  bool adaptiveFlag, diopiConstTensorHandle_t indices) {
    TensorView x = view(input, "input");
    std::vector<int64_t> size;
    if (adaptiveFlag) size = gradSize(go, n);
    PoolGeo g = genericGeo(x, n, mode, ksize, stride, padding, dilation, ceil, exclusive, adaptiveFlag, &size);
    runBackward(ctx, g, x, n, gi, go, g.isMax() ? indices : nullptr);
}

}  // namespace

// ---------------------------------------------------------------- 1-d

diopiError_t diopiMaxPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    return guard(__func__, [&] { maxPool(out, nullptr, input, 1, kernel_size, stride, padding, dilation, ceil_mode); });
}

diopiError_t diopiMaxPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                    diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] {
        maxPoolBackward(ctx, grad_input, grad_output, input, 1, kernel_size, stride, padding, dilation, ceil_mode, indices);
    });
}

diopiError_t diopiMaxPool1dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                       diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    return guard(__func__, [&] {
        CPU_CHECK(indices, "indices is NULL");
        maxPool(out, indices, input, 1, kernel_size, stride, padding, dilation, ceil_mode);
    });
}

diopiError_t diopiAvgPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad) {
    return guard(__func__, [&] { avgPool(out, input, 1, kernel_size, stride, padding, ceil_mode, count_include_pad, nullptr); });
}

diopiError_t diopiAvgPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, bool ceil_mode,
                                    bool count_include_pad) {
    return guard(__func__, [&] {
        avgPoolBackward(ctx, grad_input, grad_output, input, 1, kernel_size, stride, padding, ceil_mode, count_include_pad, nullptr);
    });
}

diopiError_t diopiAdaptiveMaxPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] { adaptive(out, nullptr, input, 1, output_size, Kind::AdaptiveMax); });
}

diopiError_t diopiAdaptiveMaxPool1dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                               diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] {
        CPU_CHECK(indices, "indices is NULL");
        adaptive(out, indices, input, 1, output_size, Kind::AdaptiveMax);
    });
}

diopiError_t diopiAdaptiveMaxPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] { adaptiveBackward(ctx, grad_input, grad_output, input, 1, Kind::AdaptiveMax, indices); });
}

diopiError_t diopiAdaptiveAvgPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { adaptiveBackward(ctx, grad_input, grad_output, input, 1, Kind::AdaptiveAvg, nullptr); });
}

diopiError_t diopiAdaptiveAvgPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] { adaptive(out, nullptr, input, 1, output_size, Kind::AdaptiveAvg); });
}

diopiError_t diopiPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize,
                         diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive,
                         diopiSize_t output_size) {
    return guard(__func__, [&] { pool(out, input, 1, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, output_size); });
}

diopiError_t diopiPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                 diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding,
                                 diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] {
        poolBackward(ctx, grad_input, grad_output, input, 1, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, indices);
    });
}

// ---------------------------------------------------------------- 2-d

diopiError_t diopiAvgPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad, const int64_t* divisor_override) {
    return guard(__func__, [&] { avgPool(out, input, 2, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override); });
}

diopiError_t diopiAvgPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, bool ceil_mode,
                                    bool count_include_pad, const int64_t* divisor_override) {
    return guard(__func__, [&] {
        avgPoolBackward(ctx, grad_input, grad_output, input, 2, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
    });
}

diopiError_t diopiMaxPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    return guard(__func__, [&] { maxPool(out, nullptr, input, 2, kernel_size, stride, padding, dilation, ceil_mode); });
}

diopiError_t diopiMaxPool2dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                       diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    return guard(__func__, [&] {
        CPU_CHECK(indices, "indices is NULL");
        maxPool(out, indices, input, 2, kernel_size, stride, padding, dilation, ceil_mode);
    });
}

diopiError_t diopiMaxPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                    diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] {
        maxPoolBackward(ctx, grad_input, grad_output, input, 2, kernel_size, stride, padding, dilation, ceil_mode, indices);
    });
}

diopiError_t diopiPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize,
                         diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive,
                         diopiSize_t output_size) {
    return guard(__func__, [&] { pool(out, input, 2, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, output_size); });
}

diopiError_t diopiPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                 diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding,
                                 diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] {
        poolBackward(ctx, grad_input, grad_output, input, 2, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, indices);
    });
}

diopiError_t diopiAdaptiveAvgPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] { adaptive(out, nullptr, input, 2, output_size, Kind::AdaptiveAvg); });
}

diopiError_t diopiAdaptiveAvgPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { adaptiveBackward(ctx, grad_input, grad_output, input, 2, Kind::AdaptiveAvg, nullptr); });
}

diopiError_t diopiAdaptiveMaxPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] { adaptive(out, nullptr, input, 2, output_size, Kind::AdaptiveMax); });
}

diopiError_t diopiAdaptiveMaxPool2dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                               diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] {
        CPU_CHECK(indices, "indices is NULL");
        adaptive(out, indices, input, 2, output_size, Kind::AdaptiveMax);
    });
}

diopiError_t diopiAdaptiveMaxPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] { adaptiveBackward(ctx, grad_input, grad_output, input, 2, Kind::AdaptiveMax, indices); });
}

// ---------------------------------------------------------------- 3-d

diopiError_t diopiAvgPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad, const int64_t* divisor_override) {
    return guard(__func__, [&] { avgPool(out, input, 3, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override); });
}

diopiError_t diopiAvgPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, bool ceil_mode,
                                    bool count_include_pad, const int64_t* divisor_override) {
    return guard(__func__, [&] {
        avgPoolBackward(ctx, grad_input, grad_output, input, 3, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
    });
}

diopiError_t diopiMaxPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    return guard(__func__, [&] { maxPool(out, nullptr, input, 3, kernel_size, stride, padding, dilation, ceil_mode); });
}

diopiError_t diopiMaxPool3dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                       diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    return guard(__func__, [&] {
        CPU_CHECK(indices, "indices is NULL");
        maxPool(out, indices, input, 3, kernel_size, stride, padding, dilation, ceil_mode);
    });
}

diopiError_t diopiMaxPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                    diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] {
        maxPoolBackward(ctx, grad_input, grad_output, input, 3, kernel_size, stride, padding, dilation, ceil_mode, indices);
    });
}

diopiError_t diopiAdaptiveAvgPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] { adaptive(out, nullptr, input, 3, output_size, Kind::AdaptiveAvg); });
}

diopiError_t diopiAdaptiveAvgPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { adaptiveBackward(ctx, grad_input, grad_output, input, 3, Kind::AdaptiveAvg, nullptr); });
}

diopiError_t diopiAdaptiveMaxPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] { adaptive(out, nullptr, input, 3, output_size, Kind::AdaptiveMax); });
}

diopiError_t diopiAdaptiveMaxPool3dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                               diopiConstTensorHandle_t input, diopiSize_t output_size) {
    return guard(__func__, [&] {
        CPU_CHECK(indices, "indices is NULL");
        adaptive(out, indices, input, 3, output_size, Kind::AdaptiveMax);
    });
}

diopiError_t diopiAdaptiveMaxPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] { adaptiveBackward(ctx, grad_input, grad_output, input, 3, Kind::AdaptiveMax, indices); });
}

diopiError_t diopiPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize,
                         diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive,
                         diopiSize_t output_size) {
    return guard(__func__, [&] { pool(out, input, 3, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, output_size); });
}

diopiError_t diopiPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                 diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding,
                                 diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive, diopiConstTensorHandle_t indices) {
    return guard(__func__, [&] {
        poolBackward(ctx, grad_input, grad_output, input, 3, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, indices);
    });
}

}  // namespace impl::cpu
