// Family convolution: 2-d / 3-d convolutions (direct and transposed, forward
// and backward) as implicit GEMMs, plus im2col / col2im themselves.
//
// Everything runs on a 5-D "convolution orientation": x (N, Cin, D, H, W),
// y (N, Cout, OD, OH, OW), w (Cout, Cin/G, KD, KH, KW); 2-d tensors get a unit
// depth. A transposed convolution is the adjoint of the convolution with the
// same weight, so it reuses the three primitives with x and y swapped.
//
// No column matrix is ever materialised. The input is copied once into a
// zero-padded buffer split into stride phases (Phased below): there every
// window tap (ci, kd, kh, kw) of every output pixel is a fixed offset from the
// pixel's position, and the pixels of one output depth slice are consecutive
// when each output row is given the buffer's row pitch (the few columns past
// the row end are computed and dropped). The GEMM then reads B(k, j) =
// buf[off[k] + j] straight from the buffer (offsetGemm). The input gradient
// is split into stride phases of its own pixels, each a stride-1 correlation
// of the padded output gradient with a sub-kernel (no zero insertion, no
// col2im), and the weight gradient is a grid of dot products between
// output-gradient rows and buffer rows (dotGemm). float64 computes in double,
// the other float dtypes in float (16-bit values converted while copying).
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "common/common.hpp"
#include "common/gemm.hpp"

namespace impl::cpu {

namespace {

struct Geo {
    int64_t N = 0, Cin = 0, Cout = 0, G = 1, Cig = 0, Cog = 0, K = 0;
    int64_t I[3] = {1, 1, 1}, O[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0}, d[3] = {1, 1, 1};
    int64_t ISP = 1, OSP = 1, KSP = 1;  // pixels per input / output image, taps per window
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

void requireFloat(const TensorView& t, const char* name) {
    if (t.dtype != diopi_dtype_float32 && t.dtype != diopi_dtype_float16 && t.dtype != diopi_dtype_bfloat16 &&
        t.dtype != diopi_dtype_float64)
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

/// Storage dtypes the typed loops of compute type S read and write: double
/// computes only float64 tensors (others are cast first, see DoubleOperands),
/// float computes the 32- and 16-bit floats.
template <class S>
using StorageTypes = std::conditional_t<std::is_same_v<S, double>, TypeList<double>, TypeList<float, Half, BFloat16>>;

int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }
int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/// Per-thread reusable buffers, 64-byte aligned, grown on demand: fresh
/// multi-megabyte temporaries on every call cost more in page faults than the
/// arithmetic. Slots of the calling thread and of workers are distinct.
enum Slot { kSrcSlot = 0, kGradSlot = 1, kTileSlot = 2, kAccSlot = 3, kPartSlot = 4, kSlots = 5 };

template <class S>
S* scratchBuf(Slot slot, int64_t n) {
    struct Buf {
        void* p = nullptr;
        int64_t bytes = 0;
        ~Buf() { std::free(p); }
    };
    thread_local Buf bufs[kSlots];
    Buf& b = bufs[slot];
    const int64_t want = roundUp(std::max<int64_t>(n, 1) * (int64_t)sizeof(S), 64) + 64;
    if (b.bytes < want) {
        std::free(b.p);
        b.p = std::aligned_alloc(64, want);
        b.bytes = b.p ? want : 0;
        if (!b.p) throw std::bad_alloc();
    }
    return static_cast<S*>(b.p);
}

/// Runs body(task) for task in [0, n) on all threads, each thread taking one
/// contiguous range of tasks (neighbouring tasks write neighbouring output,
/// so threads do not share cache lines); a failure in a worker (out of
/// memory) is reported afterwards.
template <class F>
void parallelChunks(int64_t n, int64_t work, F&& body) {
    bool failed = false;
#ifdef _OPENMP
    const bool par = n > 1 && work >= (int64_t(1) << 17) && omp_get_max_threads() > 1 && !inParallelRegion();
#pragma omp parallel for schedule(static) if (par) reduction(|| : failed)
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

/// Images per batch so that the per-image buffers of a batch stay near 32 MB.
int64_t batchImages(int64_t perImageBytes, int64_t N) {
    return std::max<int64_t>(1, std::min<int64_t>(N, (int64_t(32) << 20) / std::max<int64_t>(perImageBytes, 1)));
}

// ---------------------------------------------------------------- phased buffers

/// A zero-padded copy of a 5-D tensor (N, C, D, H, W) split into stride
/// phases: element [n][c][a0][a1][a2][q0][q1][q2] holds src[n][c][q0*s0 + a0 - lo0]
/// [q1*s1 + a1 - lo1][q2*s2 + a2 - lo2] (zero outside the source). A source
/// position q*s + a with a < s is then at a fixed offset, tap(), from q.
struct Phased {
    int64_t s[3] = {1, 1, 1}, lo[3] = {0, 0, 0}, Q[3] = {1, 1, 1};
    int64_t plane = 1, chan = 1, image = 1;

    void finish() {
        plane = Q[0] * Q[1] * Q[2];
        chan = s[0] * s[1] * s[2] * plane;
    }
    /// Offset of padded position (p0, p1, p2) (all >= 0) from the start of its channel.
    int64_t tap(int64_t p0, int64_t p1, int64_t p2) const {
        const int64_t ph = ((p0 % s[0]) * s[1] + p1 % s[1]) * s[2] + p2 % s[2];
        return ph * plane + ((p0 / s[0]) * Q[1] + p1 / s[1]) * Q[2] + p2 / s[2];
    }
    int64_t slice() const { return Q[1] * Q[2]; }
};

/// Fills images [n0, n0+count) of v into dst (count * P.image elements, the
/// slack after the channels zeroed).
template <class S, class T>
void fillPhased(const TensorView& v, int64_t n0, int64_t count, const Phased& P, S* dst) {
    const int64_t C = v.shape[1], I[3] = {v.shape[2], v.shape[3], v.shape[4]};
    const int64_t st[5] = {v.strides[0], v.strides[1], v.strides[2], v.strides[3], v.strides[4]};
    const T* base = v.ptr<T>();
    parallelFor(count * C, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(P.chan, 1)), [&](int64_t b, int64_t e) {
        for (int64_t idx = b; idx < e; ++idx) {
            const int64_t ni = idx / C, c = idx % C;
            S* d = dst + ni * P.image + c * P.chan;
            const T* src = base + (n0 + ni) * st[0] + c * st[1];
            for (int64_t a0 = 0; a0 < P.s[0]; ++a0)
                for (int64_t a1 = 0; a1 < P.s[1]; ++a1)
                    for (int64_t a2 = 0; a2 < P.s[2]; ++a2, d += P.plane) {
                        // Columns q2 with 0 <= q2*s2 + a2 - lo2 < I2.
                        const int64_t qa = std::min(P.Q[2], std::max<int64_t>(0, -floorDiv(a2 - P.lo[2], P.s[2])));
                        const int64_t qb = std::max(qa, std::min<int64_t>(P.Q[2], floorDiv(I[2] - 1 + P.lo[2] - a2, P.s[2]) + 1));
                        const int64_t step = P.s[2] * st[4];
                        for (int64_t q0 = 0; q0 < P.Q[0]; ++q0) {
                            S* blk = d + q0 * P.slice();
                            const int64_t i0 = q0 * P.s[0] + a0 - P.lo[0];
                            if (i0 < 0 || i0 >= I[0]) {
                                std::memset(blk, 0, sizeof(S) * P.slice());
                                continue;
                            }
                            for (int64_t q1 = 0; q1 < P.Q[1]; ++q1) {
                                S* row = blk + q1 * P.Q[2];
                                const int64_t i1 = q1 * P.s[1] + a1 - P.lo[1];
                                if (i1 < 0 || i1 >= I[1]) {
                                    std::memset(row, 0, sizeof(S) * P.Q[2]);
                                    continue;
                                }
                                for (int64_t q2 = 0; q2 < qa; ++q2) row[q2] = S(0);
                                const T* s = src + i0 * st[2] + i1 * st[3] + (qa * P.s[2] + a2 - P.lo[2]) * st[4];
                                if (std::is_same_v<S, T> && step == 1) {
                                    std::memcpy(row + qa, s, sizeof(S) * (qb - qa));
                                } else {
                                    for (int64_t q2 = qa; q2 < qb; ++q2, s += step) row[q2] = toCompute<S>(*s);
                                }
                                for (int64_t q2 = qb; q2 < P.Q[2]; ++q2) row[q2] = S(0);
                            }
                        }
                    }
            if (c == C - 1) std::fill(dst + ni * P.image + C * P.chan, dst + (ni + 1) * P.image, S(0));
        }
    });
}

template <class S>
void fillPhasedAny(const TensorView& v, int64_t n0, int64_t count, const Phased& P, S* dst, const char* name) {
    dispatch<StorageTypes<S>>(v.dtype, name, [&](auto tag) { fillPhased<S, typename decltype(tag)::type>(v, n0, count, P, dst); });
}

/// The phased input buffer of a forward convolution: taps at p + k*d.
Phased forwardPhased(const Geo& g) {
    Phased P;
    for (int i = 0; i < 3; ++i) {
        P.s[i] = g.s[i];
        P.lo[i] = g.p[i];
        P.Q[i] = std::max((g.I[i] + 2 * g.p[i] + g.s[i] - 1) / g.s[i], g.O[i] + (g.k[i] - 1) * g.d[i] / g.s[i]);
    }
    P.finish();
    return P;
}

/// Offsets of the taps (ci, kd, kh, kw) of one group, in weight order.
std::vector<int64_t> forwardOffsets(const Geo& g, const Phased& P) {
    std::vector<int64_t> off(g.K);
    int64_t k = 0;
    for (int64_t ci = 0; ci < g.Cig; ++ci)
        for (int64_t kd = 0; kd < g.k[0]; ++kd)
            for (int64_t kh = 0; kh < g.k[1]; ++kh)
                for (int64_t kw = 0; kw < g.k[2]; ++kw) off[k++] = ci * P.chan + P.tap(kd * g.d[0], kh * g.d[1], kw * g.d[2]);
    return off;
}

int64_t maxOf(const std::vector<int64_t>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

// ---------------------------------------------------------------- storing tiles

/// Where the columns of a GEMM tile go: column j of depth slice q0 is output
/// position (q0*s0 + a0, (j / pitch)*s1 + a1, (j % pitch)*s2 + a2) when
/// j % pitch < valid; rows are channels c0 + i of image n.
struct OutMap {
    int64_t n = 0, c0 = 0, q0 = 0;
    int64_t s[3] = {1, 1, 1}, a[3] = {0, 0, 0};
    int64_t pitch = 1, valid = 1;
};

/// out[...] = C[i][j - j0] (+ bias[c0 + i]) for rows i < M and columns [j0, j0+nc).
template <class S, class Y>
void storeTile(const TensorView& out, const S* C, int64_t ldc, int64_t M, int64_t j0, int64_t nc, const OutMap& m, const S* bias) {
    const int64_t* st = out.strides.data();
    Y* base = out.ptr<Y>() + m.n * st[0] + (m.q0 * m.s[0] + m.a[0]) * st[2];
    const int64_t step = m.s[2] * st[4];
    for (int64_t q1 = j0 / m.pitch; q1 * m.pitch < j0 + nc; ++q1) {
        // Columns of output row q1 inside the tile, then the valid ones.
        const int64_t rowStart = q1 * m.pitch, jb = std::max(j0, rowStart), je = std::min(j0 + nc, rowStart + m.valid);
        if (jb >= je) continue;
        Y* row = base + (q1 * m.s[1] + m.a[1]) * st[3] + m.a[2] * st[4] + (jb - rowStart) * step;
        const S* ci = C + (jb - j0);
        for (int64_t i = 0; i < M; ++i, ci += ldc) {
            Y* r = row + (m.c0 + i) * st[1];
            const S bv = bias ? bias[m.c0 + i] : S(0);
            if (step == 1) {
                for (int64_t j = 0; j < je - jb; ++j) r[j] = fromCompute<Y>(ci[j] + bv);
            } else {
                for (int64_t j = 0; j < je - jb; ++j) r[j * step] = fromCompute<Y>(ci[j] + bv);
            }
        }
    }
}

template <class S>
using StoreFn = void (*)(const TensorView&, const S*, int64_t, int64_t, int64_t, int64_t, const OutMap&, const S*);

/// The typed store for out's dtype (chosen before any parallel region, so nothing throws inside).
template <class S>
StoreFn<S> storeFor(const TensorView& out, const char* name) {
    StoreFn<S> f = nullptr;
    dispatch<StorageTypes<S>>(out.dtype, name, [&](auto tag) { f = &storeTile<S, typename decltype(tag)::type>; });
    return f;
}

/// Columns per GEMM task: the tile (rows x columns) stays near 64 KB.
int64_t tileCols(int64_t Mp, int64_t N, int64_t nr, int64_t elem) {
    const int64_t c = std::max(nr, ((int64_t(64) << 10) / elem / std::max<int64_t>(Mp, 1)) / nr * nr);
    return std::min(c, roundUp(N, nr));
}

// ---------------------------------------------------------------- the three primitives

/// y = conv(x, w) + bias, all 5-D, computed in S.
template <class S>
void convForwardT(diopiContextHandle_t ctx, const TensorView& y, const TensorView& x, const TensorView& w, const TensorView* bias,
                  const Geo& g) {
    if (y.numel == 0) return;
    const PanelShape ps = panelShape<S>();
    const diopiDtype_t sd = dtypeOf<S>();
    const int64_t Mp = roundUp(g.Cog, ps.mr), K = g.K;
    std::vector<S> pa(std::max<int64_t>(1, g.G * Mp * K));
    if (K > 0) {
        TensorView wd = contiguousAs(ctx, w, sd);  // (Cout, Cig, k...): rows of K in tap order
        for (int64_t grp = 0; grp < g.G; ++grp) packPanelA<S>(g.Cog, K, wd.ptr<S>() + grp * g.Cog * K, K, 1, pa.data() + grp * Mp * K);
    }
    TensorView bd;
    const S* bp = nullptr;
    if (bias && bias->defined()) {
        bd = contiguousAs(ctx, *bias, sd);
        bp = bd.ptr<S>();
    }
    Phased P = forwardPhased(g);
    const std::vector<int64_t> off = forwardOffsets(g, P);
    const int64_t N = g.O[1] * P.Q[2], Np = roundUp(N, ps.nr);
    P.image = roundUp(std::max(g.Cin * P.chan, (g.G - 1) * g.Cig * P.chan + maxOf(off) + (g.O[0] - 1) * P.slice() + Np) + 16, 16);
    const int64_t NC = tileCols(Mp, N, ps.nr, sizeof(S)), chunks = (N + NC - 1) / NC;
    const StoreFn<S> store = storeFor<S>(y, "out");
    const int64_t per = batchImages(P.image * sizeof(S), g.N);
    S* src = scratchBuf<S>(kSrcSlot, per * P.image);
    for (int64_t n0 = 0; n0 < g.N; n0 += per) {
        const int64_t cnt = std::min(per, g.N - n0);
        fillPhasedAny<S>(x, n0, cnt, P, src, "input");
        const int64_t tasks = cnt * g.G * g.O[0] * chunks;
        parallelChunks(tasks, cnt * g.G * g.O[0] * N * Mp * std::max<int64_t>(K, 1), [&](int64_t t) {
            const int64_t ch = t % chunks;
            t /= chunks;
            const int64_t o0 = t % g.O[0];
            t /= g.O[0];
            const int64_t grp = t % g.G, ni = t / g.G;
            const int64_t j0 = ch * NC, nc = std::min(NC, N - j0);
            S* C = scratchBuf<S>(kTileSlot, Mp * NC);
            offsetGemm<S>(g.Cog, nc, K, pa.data() + grp * Mp * K, src + ni * P.image + grp * g.Cig * P.chan + o0 * P.slice() + j0, off.data(),
                          C, NC);
            OutMap m;
            m.n = n0 + ni;
            m.c0 = grp * g.Cog;
            m.q0 = o0;
            m.pitch = P.Q[2];
            m.valid = g.O[2];
            store(y, C, NC, g.Cog, j0, nc, m, bp);
        });
    }
}

/// One stride phase of the input gradient along one dim: the taps k with
/// (a + p - k*d) divisible by s, each reading the output gradient at q + c.
struct PhaseTaps {
    std::vector<int64_t> k, c;
    int64_t count = 0;  // input positions a, a + s, ... below I
};

/// gx = conv^T(gy, w) (+ bias per gx channel): the input gradient of
/// y = conv(x, w), or a transposed convolution. 5-D, computed in S.
template <class S>
void convTransposeT(diopiContextHandle_t ctx, const TensorView& gx, const TensorView& gy, const TensorView& w, const TensorView* bias,
                    const Geo& g) {
    if (gx.numel == 0) return;
    const PanelShape ps = panelShape<S>();
    const diopiDtype_t sd = dtypeOf<S>();
    std::vector<PhaseTaps> taps[3];
    Phased G;  // the output gradient, zero padded (stride 1: no phases)
    for (int i = 0; i < 3; ++i) {
        int64_t cmin = 0, cmax = 0;
        bool any = false;
        taps[i].resize(g.s[i]);
        for (int64_t a = 0; a < g.s[i]; ++a) {
            PhaseTaps& t = taps[i][a];
            t.count = a < g.I[i] ? (g.I[i] - a + g.s[i] - 1) / g.s[i] : 0;
            for (int64_t k = 0; k < g.k[i]; ++k) {
                const int64_t r = a + g.p[i] - k * g.d[i];
                if (floorDiv(r, g.s[i]) * g.s[i] != r) continue;
                const int64_t c = floorDiv(r, g.s[i]);
                t.k.push_back(k);
                t.c.push_back(c);
                cmin = any ? std::min(cmin, c) : c;
                cmax = any ? std::max(cmax, c) : c;
                any = true;
            }
        }
        const int64_t maxQ = (g.I[i] + g.s[i] - 1) / g.s[i];
        G.lo[i] = std::max<int64_t>(0, -cmin);
        G.Q[i] = G.lo[i] + std::max(g.O[i], any ? maxQ + cmax : 0);
    }
    G.finish();
    // Per phase: its taps (as offsets into G and as weight columns) and its packed weights.
    struct Phase {
        int64_t a[3], cnt[3], K, N;
        std::vector<int64_t> off;
        std::vector<S> pa;
    };
    std::vector<Phase> phases;
    const int64_t Mp = roundUp(g.Cig, ps.mr);
    TensorView wd = contiguousAs(ctx, w, sd);  // (Cout, Cig, k0, k1, k2)
    const S* wp = wd.ptr<S>();
    int64_t need = g.Cout * G.chan;
    for (int64_t a0 = 0; a0 < g.s[0]; ++a0)
        for (int64_t a1 = 0; a1 < g.s[1]; ++a1)
            for (int64_t a2 = 0; a2 < g.s[2]; ++a2) {
                const PhaseTaps &t0 = taps[0][a0], &t1 = taps[1][a1], &t2 = taps[2][a2];
                if (t0.count == 0 || t1.count == 0 || t2.count == 0) continue;
                Phase ph;
                ph.a[0] = a0, ph.a[1] = a1, ph.a[2] = a2;
                ph.cnt[0] = t0.count, ph.cnt[1] = t1.count, ph.cnt[2] = t2.count;
                const int64_t nt = (int64_t)(t0.k.size() * t1.k.size() * t2.k.size());
                ph.K = g.Cog * nt;
                ph.N = t1.count * G.Q[2];
                ph.off.reserve(ph.K);
                std::vector<int64_t> wcol;  // weight offset of each column inside (Cig, k...) of one output channel
                for (int64_t co = 0; co < g.Cog; ++co)
                    for (size_t i0 = 0; i0 < t0.k.size(); ++i0)
                        for (size_t i1 = 0; i1 < t1.k.size(); ++i1)
                            for (size_t i2 = 0; i2 < t2.k.size(); ++i2) {
                                ph.off.push_back(co * G.chan + G.tap(t0.c[i0] + G.lo[0], t1.c[i1] + G.lo[1], t2.c[i2] + G.lo[2]));
                                wcol.push_back(co * g.Cig * g.KSP + (t0.k[i0] * g.k[1] + t1.k[i1]) * g.k[2] + t2.k[i2]);
                            }
                // A (Cig x K) per group: A[ci][col] = w[grp*Cog + co, ci, taps].
                ph.pa.resize(std::max<int64_t>(1, g.G * Mp * ph.K));
                std::vector<S> dense(std::max<int64_t>(1, g.Cig * ph.K));
                for (int64_t grp = 0; grp < g.G && ph.K > 0; ++grp) {
                    const S* wg = wp + grp * g.Cog * g.Cig * g.KSP;
                    for (int64_t ci = 0; ci < g.Cig; ++ci)
                        for (int64_t col = 0; col < ph.K; ++col) dense[ci * ph.K + col] = wg[wcol[col] + ci * g.KSP];
                    packPanelA<S>(g.Cig, ph.K, dense.data(), ph.K, 1, ph.pa.data() + grp * Mp * ph.K);
                }
                need = std::max(need, (g.G - 1) * g.Cog * G.chan + maxOf(ph.off) + (t0.count - 1) * G.slice() + roundUp(ph.N, ps.nr));
                phases.push_back(std::move(ph));
            }
    G.image = roundUp(need + 16, 16);
    // Tasks of one image and group: (phase, depth slice, column chunk).
    struct Task {
        int64_t ph, q0, j0, nc, NC;
    };
    std::vector<Task> list;
    int64_t maxNC = ps.nr, flops = 0;
    // Slices outermost, phases inside: the phases of one slice interleave in
    // the same output rows, so they should be computed by the same thread.
    int64_t maxQ0 = 0;
    for (const Phase& ph : phases) {
        maxNC = std::max(maxNC, tileCols(Mp, ph.N, ps.nr, sizeof(S)));
        maxQ0 = std::max(maxQ0, ph.cnt[0]);
        flops += ph.cnt[0] * ph.N * Mp * std::max<int64_t>(ph.K, 1);
    }
    for (int64_t q0 = 0; q0 < maxQ0; ++q0)
        for (int64_t p = 0; p < (int64_t)phases.size(); ++p) {
            const Phase& ph = phases[p];
            if (q0 >= ph.cnt[0]) continue;
            const int64_t NC = tileCols(Mp, ph.N, ps.nr, sizeof(S));
            for (int64_t j0 = 0; j0 < ph.N; j0 += NC) list.push_back(Task{p, q0, j0, std::min(NC, ph.N - j0), NC});
        }
    TensorView bd;
    const S* bp = nullptr;
    if (bias && bias->defined()) {
        bd = contiguousAs(ctx, *bias, sd);
        bp = bd.ptr<S>();
    }
    const StoreFn<S> store = storeFor<S>(gx, "grad_input");
    const int64_t per = batchImages(G.image * sizeof(S), g.N);
    S* src = scratchBuf<S>(kSrcSlot, per * G.image);
    const int64_t L = (int64_t)list.size();
    for (int64_t n0 = 0; n0 < g.N; n0 += per) {
        const int64_t cnt = std::min(per, g.N - n0);
        fillPhasedAny<S>(gy, n0, cnt, G, src, "grad_output");
        parallelChunks(cnt * g.G * L, cnt * g.G * flops, [&](int64_t t) {
            const Task& tk = list[t % L];
            t /= L;
            const int64_t grp = t % g.G, ni = t / g.G;
            const Phase& ph = phases[tk.ph];
            S* C = scratchBuf<S>(kTileSlot, Mp * maxNC);
            offsetGemm<S>(g.Cig, tk.nc, ph.K, ph.pa.data() + grp * Mp * ph.K,
                          src + ni * G.image + grp * g.Cog * G.chan + tk.q0 * G.slice() + tk.j0, ph.off.data(), C, tk.NC);
            OutMap m;
            m.n = n0 + ni;
            m.c0 = grp * g.Cig;
            m.q0 = tk.q0;
            for (int i = 0; i < 3; ++i) {
                m.s[i] = g.s[i];
                m.a[i] = ph.a[i];
            }
            m.pitch = G.Q[2];
            m.valid = ph.cnt[2];
            store(gx, C, tk.NC, g.Cig, tk.j0, tk.nc, m, bp);
        });
    }
}

/// True when v[0..n) holds no infinity or NaN (a branch-free scan that vectorises).
template <class S>
bool allFinite(const S* v, int64_t n) {
    // x * 0 is 0 for finite x and NaN otherwise; 16 partial sums keep the loop vectorisable.
    S part[16] = {};
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        for (int l = 0; l < 16; ++l) part[l] += v[i + l] * S(0);
    for (; i < n; ++i) part[0] += v[i] * S(0);
    S all = 0;
    for (int l = 0; l < 16; ++l) all += part[l];
    return all == S(0);
}

/// gw = the weight gradient of y = conv(x, w) contracted with gy; 5-D, in S.
template <class S>
void convGradWeightT(diopiContextHandle_t ctx, const TensorView& gw, const TensorView& gy, const TensorView& x, const Geo& g) {
    if (gw.numel == 0) return;
    const PanelShape ps = panelShape<S>();
    const int64_t K = g.K, Mp = roundUp(g.Cog, ps.ma), Kp = roundUp(K, ps.nb);
    S* acc = scratchBuf<S>(kAccSlot, g.G * Mp * Kp);
    std::fill(acc, acc + g.G * Mp * Kp, S(0));
    if (g.N * g.OSP > 0) {
        Phased P = forwardPhased(g);
        const std::vector<int64_t> off = forwardOffsets(g, P);
        // One depth slice of output pixels at the buffer's row pitch, padded to whole vectors.
        const int64_t J = roundUp(g.O[1] * P.Q[2], 16);
        P.image = roundUp(std::max(g.Cin * P.chan, (g.G - 1) * g.Cig * P.chan + maxOf(off) + (g.O[0] - 1) * P.slice() + J) + 16, 16);
        const int64_t gyImage = g.Cout * g.O[0] * J;
        const int64_t per = batchImages((P.image + gyImage) * sizeof(S), g.N);
        S* src = scratchBuf<S>(kSrcSlot, per * P.image);
        S* gyE = scratchBuf<S>(kGradSlot, per * gyImage);
        // Tasks: blocks of whole nb-wide column tiles of one group.
        const int64_t tiles = Kp / ps.nb, tilesPer = std::max<int64_t>(1, tiles / 8), blocks = (tiles + tilesPer - 1) / tilesPer;
        for (int64_t n0 = 0; n0 < g.N; n0 += per) {
            const int64_t cnt = std::min(per, g.N - n0);
            fillPhasedAny<S>(x, n0, cnt, P, src, "input");
            // gy rows at the same pitch, zero past each row's end (so the extra columns add nothing).
            dispatch<StorageTypes<S>>(gy.dtype, "grad_output", [&](auto tag) {
                using T = typename decltype(tag)::type;
                const int64_t* st = gy.strides.data();
                parallelFor(cnt * g.Cout, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(g.O[0] * J, 1)), [&](int64_t b, int64_t e) {
                    for (int64_t idx = b; idx < e; ++idx) {
                        const int64_t ni = idx / g.Cout, co = idx % g.Cout;
                        const T* s = gy.ptr<T>() + (n0 + ni) * st[0] + co * st[1];
                        S* d = gyE + idx * g.O[0] * J;
                        for (int64_t o0 = 0; o0 < g.O[0]; ++o0) {
                            for (int64_t o1 = 0; o1 < g.O[1]; ++o1) {
                                S* r = d + o0 * J + o1 * P.Q[2];
                                const T* sr = s + o0 * st[2] + o1 * st[3];
                                for (int64_t o2 = 0; o2 < g.O[2]; ++o2) r[o2] = toCompute<S>(sr[o2 * st[4]]);
                                std::fill(r + g.O[2], r + P.Q[2], S(0));
                            }
                            std::fill(d + o0 * J + g.O[1] * P.Q[2], d + (o0 + 1) * J, S(0));
                        }
                    }
                });
            });
            // The columns past each row's end pair a zero gradient with some input
            // value; an infinite or NaN input there would turn 0 * inf into NaN.
            // Such inputs take the row-by-row path, which reads valid columns only.
            const bool finite = allFinite(src, cnt * P.image);
            // Column tiles [k0, k0 + kn) of group grp over images [i0, i1), added into c (+ grp, k0 offsets).
            auto block = [&](int64_t grp, int64_t blk, int64_t i0, int64_t i1, S* c) {
                const int64_t k0 = blk * tilesPer * ps.nb, kn = std::min(tilesPer * ps.nb, Kp - k0);
                std::vector<const S*> arows(Mp), brows(kn);
                for (int64_t i = 0; i < Mp; ++i) arows[i] = gyE + i0 * gyImage + (grp * g.Cog + std::min(i, g.Cog - 1)) * g.O[0] * J;
                const S* b = src + i0 * P.image + grp * g.Cig * P.chan;
                for (int64_t j = 0; j < kn; ++j) brows[j] = b + off[std::min(k0 + j, K - 1)];
                c += grp * Mp * Kp + k0;
                if (finite) {
                    // Every image and every depth slice: both operands advance by fixed strides.
                    DotReps rp;
                    rp.n1 = i1 - i0, rp.sa1 = gyImage, rp.sb1 = P.image;
                    rp.n2 = g.O[0], rp.sa2 = J, rp.sb2 = P.slice();
                    dotGemm<S>(Mp, kn, J, rp, arows.data(), brows.data(), c, Kp);
                    return;
                }
                std::vector<const S*> ar(Mp), br(kn);
                for (int64_t ni = 0; ni < i1 - i0; ++ni)
                    for (int64_t o0 = 0; o0 < g.O[0]; ++o0) {
                        for (int64_t i = 0; i < Mp; ++i) ar[i] = arows[i] + ni * gyImage + o0 * J;
                        for (int64_t j = 0; j < kn; ++j) br[j] = brows[j] + ni * P.image + o0 * P.slice();
                        DotReps rp;  // the output rows of one slice, valid columns only
                        rp.n2 = g.O[1], rp.sa2 = P.Q[2], rp.sb2 = P.Q[2];
                        dotGemm<S>(Mp, kn, g.O[2], rp, ar.data(), br.data(), c, Kp);
                    }
            };
            int nt = 1;
#ifdef _OPENMP
            nt = inParallelRegion() ? 1 : omp_get_max_threads();
#endif
            const int64_t work = cnt * g.OSP * g.Cout * K, accSize = g.G * Mp * Kp;
            if (nt > 1 && cnt >= nt) {
                // Threads split the images, each summing a private gradient, so
                // each reads only its own images. (Every call sums its vector
                // lanes once: one call per tile covers all of a thread's images.)
                S* part = scratchBuf<S>(kPartSlot, nt * accSize);
                std::fill(part, part + nt * accSize, S(0));
                parallelChunks(nt, work, [&](int64_t t) {
                    const int64_t i0 = cnt * t / nt, i1 = cnt * (t + 1) / nt;
                    for (int64_t grp = 0; grp < g.G; ++grp)
                        for (int64_t blk = 0; blk < blocks; ++blk) block(grp, blk, i0, i1, part + t * accSize);
                });
                for (int t = 0; t < nt; ++t)
                    for (int64_t i = 0; i < accSize; ++i) acc[i] += part[t * accSize + i];
            } else {
                // Few images: threads split the column tiles instead.
                parallelChunks(g.G * blocks, work, [&](int64_t t) { block(t / blocks, t % blocks, 0, cnt, acc); });
            }
        }
    }
    // gw[grp*Cog + co][k] = acc[grp][co][k], k in (ci, taps) order.
    dispatch<StorageTypes<S>>(gw.dtype, "grad_weight", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const int64_t* st = gw.strides.data();
        for (int64_t co = 0; co < g.Cout; ++co) {
            const S* a = acc + (co / g.Cog) * Mp * Kp + (co % g.Cog) * Kp;
            int64_t k = 0;
            for (int64_t ci = 0; ci < g.Cig; ++ci)
                for (int64_t kd = 0; kd < g.k[0]; ++kd)
                    for (int64_t kh = 0; kh < g.k[1]; ++kh)
                        for (int64_t kw = 0; kw < g.k[2]; ++kw)
                            gw.ptr<T>()[co * st[0] + ci * st[1] + kd * st[2] + kh * st[3] + kw * st[4]] = fromCompute<T>(a[k++]);
        }
    });
}

/// Sum of n elements of r (element stride step) in A; eight partial sums so
/// that the contiguous case vectorises.
template <class A, class T>
A sumRow(const T* r, int64_t n, int64_t step) {
    A part[8] = {};
    int64_t i = 0;
    if (step == 1) {
        for (; i + 8 <= n; i += 8)
            for (int l = 0; l < 8; ++l) part[l] += convert<A>(r[i + l]);
    }
    for (; i < n; ++i) part[0] += convert<A>(r[i * step]);
    return ((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7]));
}

/// gb[c] = sum of t over every dim but the channel dim 1 (t is 5-D), summed in A.
template <class A>
void sumChannelsT(diopiContextHandle_t ctx, const TensorView& gb, const TensorView& t) {
    const int64_t C = t.shape[1];
    CPU_CHECK(gb.numel == C, "grad_bias has ", gb.numel, " elements, expected ", C);
    TensorView acc = newTensor(ctx, {C}, dtypeOf<A>());
    A* a = acc.ptr<A>();
    dispatch<StorageTypes<A>>(t.dtype, "grad_output", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const int64_t* st = t.strides.data();
        int64_t plane, pstride;  // a channel's pixels as one run when the strides allow
        const bool flat = mergeDims(t, 2, 5, plane, pstride);
        parallelFor(C, t.numel >= kParallelGrain ? 1 : C + 1, [&](int64_t b, int64_t e) {
            for (int64_t c = b; c < e; ++c) {
                A s = A(0);
                for (int64_t n = 0; n < t.shape[0]; ++n) {
                    const T* base = t.ptr<T>() + n * st[0] + c * st[1];
                    if (flat) {
                        s += sumRow<A>(base, plane, pstride);
                        continue;
                    }
                    for (int64_t d = 0; d < t.shape[2]; ++d)
                        for (int64_t h = 0; h < t.shape[3]; ++h) s += sumRow<A>(base + d * st[2] + h * st[3], t.shape[4], st[4]);
                }
                a[c] = s;
            }
        });
    });
    copyCast(gb.restrided({C}, {gb.dim() ? gb.strides[gb.dim() - 1] : 0}), acc);
}

/// Computes in double when any operand is float64, else in float.
bool wantDouble(std::initializer_list<const TensorView*> ts) {
    for (const TensorView* t : ts)
        if (t && t->defined() && t->dtype == diopi_dtype_float64) return true;
    return false;
}

/// float64 views of mixed-dtype operands (rare) so that the double loops
/// only see float64: inputs are cast, an output is computed into a float64
/// temporary and copied back by finish().
struct DoubleOperands {
    diopiContextHandle_t ctx;
    TensorView out, tmp;
    TensorView in(const TensorView& v) const { return v.dtype == diopi_dtype_float64 ? v : castTo(ctx, v, diopi_dtype_float64); }
    const TensorView& target(const TensorView& o) {
        out = o;
        tmp = o.dtype == diopi_dtype_float64 ? o : newTensor(ctx, o.shape, diopi_dtype_float64);
        return tmp;
    }
    void finish() const {
        if (tmp.data != out.data) copyCast(out, tmp);
    }
};

void convForwardCore(diopiContextHandle_t ctx, const TensorView& y, const TensorView& x, const TensorView& w, const TensorView* bias,
                     const Geo& g) {
    if (!wantDouble({&y, &x, &w, bias})) return convForwardT<float>(ctx, y, x, w, bias, g);
    DoubleOperands d{ctx};
    TensorView b = bias && bias->defined() ? d.in(*bias) : TensorView();
    convForwardT<double>(ctx, d.target(y), d.in(x), d.in(w), b.defined() ? &b : nullptr, g);
    d.finish();
}

void convTransposeCore(diopiContextHandle_t ctx, const TensorView& gx, const TensorView& gy, const TensorView& w, const TensorView* bias,
                       const Geo& g) {
    if (!wantDouble({&gx, &gy, &w, bias})) return convTransposeT<float>(ctx, gx, gy, w, bias, g);
    DoubleOperands d{ctx};
    TensorView b = bias && bias->defined() ? d.in(*bias) : TensorView();
    convTransposeT<double>(ctx, d.target(gx), d.in(gy), d.in(w), b.defined() ? &b : nullptr, g);
    d.finish();
}

void convGradWeightCore(diopiContextHandle_t ctx, const TensorView& gw, const TensorView& gy, const TensorView& x, const Geo& g) {
    if (!wantDouble({&gw, &gy, &x})) return convGradWeightT<float>(ctx, gw, gy, x, g);
    DoubleOperands d{ctx};
    convGradWeightT<double>(ctx, d.target(gw), d.in(gy), d.in(x), g);
    d.finish();
}

void sumChannels(diopiContextHandle_t ctx, const TensorView& gb, const TensorView& t) {
    if (!wantDouble({&gb, &t})) return sumChannelsT<float>(ctx, gb, t);
    sumChannelsT<double>(ctx, gb, t.dtype == diopi_dtype_float64 ? t : castTo(ctx, t, diopi_dtype_float64));
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
        convTransposeCore(ctx, spatial == 2 ? to5d(gx) : gx, gy5, w5, nullptr, g);
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
    convTransposeCore(ctx, y5, x5, w5, b.defined() ? &b : nullptr, g);
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
        // Pure data movement: elements are copied as unsigned words of their size (zero bits are zero in every dtype).
        dispatch<AllTypes>(x.dtype, "input", [](auto) {});  // refuses dtypes it does not list (complex)
        // Output columns ow whose iw = ow*s - p + j*d lies in [0, W), per kernel column j.
        std::vector<int64_t> owLo(u.k[1]), owHi(u.k[1]);
        for (int64_t j = 0; j < u.k[1]; ++j) {
            const int64_t shift = j * u.d[1] - u.p[1];
            owLo[j] = std::min(u.O[1], std::max<int64_t>(0, -floorDiv(shift, u.s[1])));
            owHi[j] = std::max(owLo[j], std::min(u.O[1], floorDiv(W - 1 - shift, u.s[1]) + 1));
        }
        auto run = [&](auto tag) {
            using T = decltype(tag);
            const int64_t xs = x4.strides[3], ds = o3.strides[2];
            parallelFor(N * C, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(KK * L, 1)), [&](int64_t b, int64_t e) {
                for (int64_t nc = b; nc < e; ++nc) {
                    const int64_t n = nc / C, c = nc % C;
                    const T* src = reinterpret_cast<const T*>(x4.data) + n * x4.strides[0] + c * x4.strides[1];
                    for (int64_t i = 0; i < u.k[0]; ++i)
                        for (int64_t j = 0; j < u.k[1]; ++j) {
                            T* dst = reinterpret_cast<T*>(o3.data) + n * o3.strides[0] + (c * KK + i * u.k[1] + j) * o3.strides[1];
                            const int64_t shift = j * u.d[1] - u.p[1], lo = owLo[j], hi = owHi[j];
                            for (int64_t oh = 0; oh < u.O[0]; ++oh) {
                                const int64_t ih = oh * u.s[0] - u.p[0] + i * u.d[0];
                                T* drow = dst + oh * u.O[1] * ds;
                                if (ih < 0 || ih >= H) {
                                    for (int64_t ow = 0; ow < u.O[1]; ++ow) drow[ow * ds] = T(0);
                                    continue;
                                }
                                const T* srow = src + ih * x4.strides[2];
                                for (int64_t ow = 0; ow < lo; ++ow) drow[ow * ds] = T(0);
                                if (ds == 1 && xs == 1 && u.s[1] == 1) {
                                    std::memcpy(drow + lo, srow + lo + shift, sizeof(T) * (hi - lo));
                                } else {
                                    for (int64_t ow = lo; ow < hi; ++ow) drow[ow * ds] = srow[(ow * u.s[1] + shift) * xs];
                                }
                                for (int64_t ow = hi; ow < u.O[1]; ++ow) drow[ow * ds] = T(0);
                            }
                        }
                }
            });
        };
        switch (itemSize(x.dtype)) {
            case 1: run(uint8_t{}); break;
            case 2: run(uint16_t{}); break;
            case 4: run(uint32_t{}); break;
            default: run(uint64_t{}); break;
        }
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
        // Overlapping blocks are summed in acc_t (double for float64, float otherwise),
        // straight into out when it is a dense tensor of that type.
        TensorView acc;
        dispatch<FloatTypes>(x.dtype, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            acc = o.dtype == dtypeOf<A>() && o.isContiguous() ? o : newTensor(ctx, {N, C, H, W}, dtypeOf<A>());
            // Output columns ow whose iw = ow*s - p + j*d lies in [0, W), per kernel column j.
            std::vector<int64_t> owLo(u.k[1]), owHi(u.k[1]);
            for (int64_t j = 0; j < u.k[1]; ++j) {
                const int64_t shift = j * u.d[1] - u.p[1];
                owLo[j] = std::min(u.O[1], std::max<int64_t>(0, -floorDiv(shift, u.s[1])));
                owHi[j] = std::max(owLo[j], std::min(u.O[1], floorDiv(W - 1 - shift, u.s[1]) + 1));
            }
            parallelFor(N * C, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(KK * L, 1)), [&](int64_t b, int64_t e) {
                for (int64_t nc = b; nc < e; ++nc) {
                    const int64_t n = nc / C, c = nc % C;
                    A* dst = acc.ptr<A>() + nc * H * W;
                    std::fill(dst, dst + H * W, A(0));
                    for (int64_t i = 0; i < u.k[0]; ++i)
                        for (int64_t j = 0; j < u.k[1]; ++j) {
                            const T* src = x3.ptr<T>() + n * x3.strides[0] + (c * KK + i * u.k[1] + j) * x3.strides[1];
                            const int64_t ls = x3.strides[2];
                            for (int64_t oh = 0; oh < u.O[0]; ++oh) {
                                const int64_t ih = oh * u.s[0] - u.p[0] + i * u.d[0];
                                if (ih < 0 || ih >= H) continue;
                                A* drow = dst + ih * W;
                                const int64_t shift = j * u.d[1] - u.p[1];
                                const T* srow = src + oh * u.O[1] * ls;
                                for (int64_t ow = owLo[j]; ow < owHi[j]; ++ow) drow[ow * u.s[1] + shift] += static_cast<A>(srow[ow * ls]);
                            }
                        }
                }
            });
        });
        if (acc.data != o.data) copyCast(o, x.dim() == 3 ? acc : acc.reshaped({C, H, W}));
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
