// Family normalization: batch norm (with the synchronized batch norm pieces),
// layer norm (normalized_shape and begin_norm_axis forms), group norm,
// instance norm and Lp normalize; forward and backward.
//
// Everything computes in S (withCalc): double for float64 inputs, float for
// float32 and the 16-bit floats. Inputs are first brought to a dense [N, C, L]
// (or [rows, K]) array of S, whatever their layout (channels-last included);
// statistics accumulate in lanes of S flushed into double every 1024 terms
// (laneSum); results are computed densely (in the output itself when it is
// dense in S) and copied, rounded once, into the caller's outputs.
#include <algorithm>
#include <cmath>
#include <vector>

#include "common/common.hpp"
#include "common/fastmath.hpp"  // CPU_FORCE_INLINE

namespace impl::cpu {

namespace {

void needFloat(const TensorView& t, const char* name) {
    if (!isFloatingDtype(t.dtype)) failCode(diopiDtypeNotSupported, name, " must be floating point, got ", dtypeName(t.dtype));
}

/// t with dim `axis` moved to position 1 (a view, no copy).
TensorView moveAxisTo1(const TensorView& t, int64_t axis) {
    if (axis == 1) return t;
    Shape sh{t.shape[0], t.shape[axis]}, st{t.strides[0], t.strides[axis]};
    for (int64_t d = 1; d < t.dim(); ++d) {
        if (d == axis) continue;
        sh.push_back(t.shape[d]);
        st.push_back(t.strides[d]);
    }
    return t.restrided(sh, st);
}

/// Dense view [N, C, L] in the compute type S of an (N, C, ...) tensor whose channel dim is `axis`.
template <class S>
struct NCL {
    TensorView dense;  // contiguous S, moved shape
    Shape moved;       // shape with the channel dim at 1
    int64_t N = 0, C = 0, L = 1;
    S* data() const { return dense.ptr<S>(); }
};

template <class S>
NCL<S> toNCL(diopiContextHandle_t ctx, const TensorView& x, int64_t axis = 1) {
    NCL<S> r;
    TensorView m = moveAxisTo1(x, axis);
    r.dense = contiguousAs(ctx, m, dtypeOf<S>());
    r.moved = m.shape;
    r.N = m.shape[0];
    r.C = m.shape[1];
    for (int64_t d = 2; d < m.dim(); ++d) r.L *= m.shape[d];
    return r;
}

/// Copies a dense result of `ref`'s moved shape into `out` (channel dim `axis`).
/// (Nothing to do when the result was computed in place, see resultBuffer.)
void storeNCL(const TensorView& out, const TensorView& dense, int64_t axis = 1) {
    if (dense.data != out.data) copyCast(moveAxisTo1(out, axis), dense);
}

/// Where a dense float32 result of `shape` (channel dim moved to 1 when
/// axis != 1) is computed: `out` itself when it already is that dense float32
/// tensor, else a temporary that storeNCL copies out.
template <class S>
TensorView resultBuffer(diopiContextHandle_t ctx, const TensorView& out, const Shape& shape, int64_t axis) {
    if (axis == 1 && out.dtype == dtypeOf<S>() && out.shape == shape && out.isContiguous()) return out;
    return newTensor(ctx, shape, dtypeOf<S>());
}

/// A per-channel (or per-slice) parameter as a vector of `n` values in S;
/// `def` for a NULL handle. `shape` checks the exact shape when not empty.
template <class S>
std::vector<S> vecOf(diopiContextHandle_t ctx, diopiConstTensorHandle_t h, int64_t n, const char* name, S def, const Shape* shape = nullptr) {
    if (!h) return std::vector<S>(n, def);
    TensorView t = view(h, name);
    needFloat(t, name);
    if (shape) CPU_CHECK(t.shape == *shape, name, " must have shape ", shapeStr(*shape), ", got ", shapeStr(t.shape));
    else CPU_CHECK(t.dim() == 1 && t.shape[0] == n, name, " must be 1-D of size ", n, ", got shape ", shapeStr(t.shape));
    TensorView d = contiguousAs(ctx, t, dtypeOf<S>());
    return std::vector<S>(d.ptr<S>(), d.ptr<S>() + n);
}

/// Same but for a statistic given with any shape of `n` elements (row-major order).
template <class S>
std::vector<S> statOf(diopiContextHandle_t ctx, diopiConstTensorHandle_t h, int64_t n, const char* name) {
    TensorView t = view(h, name);
    needFloat(t, name);
    CPU_CHECK(t.numel == n, name, " must hold ", n, " elements, got shape ", shapeStr(t.shape));
    TensorView d = contiguousAs(ctx, t, dtypeOf<S>());
    return std::vector<S>(d.ptr<S>(), d.ptr<S>() + n);
}

/// Writes `v` (row-major) into an output holding v.size() elements, any shape/strides.
void storeVec(diopiContextHandle_t ctx, diopiTensorHandle_t h, const std::vector<double>& v, const char* name) {
    TensorView o = view(h, name);
    needFloat(o, name);
    CPU_CHECK(o.numel == (int64_t)v.size(), name, " must hold ", v.size(), " elements, got shape ", shapeStr(o.shape));
    if (v.empty()) return;
    TensorView d = newTensor(ctx, o.shape, diopi_dtype_float64);
    std::copy(v.begin(), v.end(), d.ptr<double>());
    copyCast(o, d);
}

int64_t wrapAxis(int64_t d, int64_t rank, const char* name) {
    CPU_CHECK(d >= -rank && d < rank, name, " ", d, " is out of range for a ", rank, "-D input");
    return d < 0 ? d + rank : d;
}

TensorView batched(diopiConstTensorHandle_t h, const char* name) {
    TensorView x = view(h, name);
    needFloat(x, name);
    CPU_CHECK(x.dim() >= 2, name, " must have at least 2 dims (N, C, ...), got ", x.dim(), "-D");
    return x;
}

void checkSameShape(const TensorView& a, const TensorView& b, const char* an, const char* bn) {
    CPU_CHECK(a.shape == b.shape, an, " has shape ", shapeStr(a.shape), " but ", bn, " has ", shapeStr(b.shape));
}

/// Sum of g(i) for i in [0, n): L lanes of S (no serial dependency) flushed
/// into a double every 1024 terms. Eight lanes by default; the AVX-512 row
/// kernels use sixteen (eight compile to shuffles there, while sixteen made
/// the baseline-compiled forward passes slower at two threads).
template <class S, int L = 8, class G>
CPU_FORCE_INLINE double laneSum(int64_t n, G&& g) {
    double total = 0;
    for (int64_t s = 0; s < n; s += 1024) {
        const int64_t e = std::min<int64_t>(n, s + 1024);
        S acc[L] = {};
        int64_t i = s;
        for (; i + L <= e; i += L)
            for (int q = 0; q < L; ++q) acc[q] += S(g(i + q));
        S r = 0;
        for (; i < e; ++i) r += S(g(i));
        for (int h = L / 2; h >= 1; h /= 2)
            for (int q = 0; q < h; ++q) acc[q] += acc[q + h];
        total += double(r) + double(acc[0]);
    }
    return total;
}

/// Per-channel sums over n and l of an [N, C, L] dense array: f(n, c, value-index) summed in double.
template <class S, class F>
std::vector<double> channelSums(const NCL<S>& x, F f) {
    std::vector<double> s(x.C, 0.0);
    parallelFor(x.C, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, x.N * x.L)), [&](int64_t cb, int64_t ce) {
        for (int64_t c = cb; c < ce; ++c) {
            double acc = 0;
            for (int64_t n = 0; n < x.N; ++n) {
                const int64_t base = (n * x.C + c) * x.L;
                acc += laneSum<S>(x.L, [&](int64_t l) { return S(f(n, c, base + l)); });
            }
            s[c] = acc;
        }
    });
    return s;
}

/// Sums of g and of g * (x - m) over one row of n values (laneSum each: two
/// simple passes vectorise where one with two accumulators does not).
template <class S>
void rowSums2(const S* g, const S* x, S m, int64_t n, double& sg, double& sgx) {
    sg = laneSum<S>(n, [g](int64_t i) { return g[i]; });
    sgx = laneSum<S>(n, [g, x, m](int64_t i) { return g[i] * (x[i] - m); });
}

/// Per channel c of [N, C, L] arrays: sg[c] = sum of g and sgx[c] = sum of
/// k(n, c) * g * (x - m(n, c)), with m and k constant per (n, c) row given as
/// double by mk(n, c, &m, &k). The deviation is taken from m rounded to S and
/// corrected exactly in double: sum g (x - m) = sum g (x - ms) - (m - ms) sum g.
template <class S, class MK>
void channelDot2(const NCL<S>& x, const NCL<S>& g, MK mk, std::vector<double>& sg, std::vector<double>& sgx) {
    sg.assign(x.C, 0.0);
    sgx.assign(x.C, 0.0);
    parallelFor(x.C, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, x.N * x.L)), [&](int64_t cb, int64_t ce) {
        for (int64_t c = cb; c < ce; ++c) {
            double a = 0, b = 0;
            for (int64_t n = 0; n < x.N; ++n) {
                const int64_t base = (n * x.C + c) * x.L;
                double m, k, s1, s2;
                mk(n, c, &m, &k);
                const S ms = S(m);
                rowSums2<S>(g.data() + base, x.data() + base, ms, x.L, s1, s2);
                a += s1;
                b += k * (s2 - (m - double(ms)) * s1);
            }
            sg[c] = a;
            sgx[c] = b;
        }
    });
}

/// Dense per-element map over [N, C, L]: out[i] = f(row, c, i), row = n * C + c.
template <class S, class F>
void channelMap(const NCL<S>& x, S* out, F f) {
    const int64_t rows = x.N * x.C, L = x.L, C = x.C;
    parallelFor(rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, L)), [&](int64_t rb, int64_t re) {
        for (int64_t r = rb; r < re; ++r) {
            const int64_t c = r % C;
            for (int64_t l = 0; l < L; ++l) out[r * L + l] = f(r, c, r * L + l);
        }
    });
}

/// Mean and biased variance of each contiguous block of `len` values (two passes, double).
template <class S>
void blockStats(const S* x, int64_t blocks, int64_t len, std::vector<double>& mean, std::vector<double>& var) {
    mean.assign(blocks, 0.0);
    var.assign(blocks, 0.0);
    parallelFor(blocks, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, len)), [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
            const S* p = x + i * len;
            const double s = laneSum<S>(len, [p](int64_t k) { return p[k]; });
            const double m = len ? s / len : 0.0;
            const S mf = S(m);
            // Deviations from the rounded mean, corrected by the mean's own
            // offset (sum (x - mf)^2 - len * (m - mf)^2) to stay exact.
            double q = laneSum<S>(len, [p, mf](int64_t k) {
                const S d = p[k] - mf;
                return d * d;
            });
            q -= double(len) * (m - double(mf)) * (m - double(mf));
            mean[i] = m;
            var[i] = len ? q / len : 0.0;
        }
    });
}

/// Calls f(Tag<S>{}) with the compute type for input dtype `dt`: double for
/// float64, float for the other float types.
template <class F>
void withCalc(diopiDtype_t dt, F&& f) {
    if (dt == diopi_dtype_float64) f(Tag<double>{});
    else f(Tag<float>{});
}

}  // namespace

// ================================================================ batch norm
diopiError_t diopiBatchNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t save_mean, diopiTensorHandle_t save_invstd,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias,
                            diopiTensorHandle_t running_mean, diopiTensorHandle_t running_var, bool training, double momentum, double eps) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            TensorView xv = batched(input, "input"), ov = view(out, "out");
            needFloat(ov, "out");
            checkSameShape(ov, xv, "out", "input");
            CPU_CHECK((running_mean == nullptr) == (running_var == nullptr), "running_mean and running_var must both be given or both be NULL");
            CPU_CHECK(training || running_mean, "evaluation mode (training=false) needs running_mean and running_var");
            CPU_CHECK(eps >= 0, "eps must be >= 0, got ", eps);
            auto x = toNCL<S>(ctx, xv);
            const int64_t C = x.C, M = x.N * x.L;
            std::vector<S> w = vecOf<S>(ctx, weight, C, "weight", 1.0f), b = vecOf<S>(ctx, bias, C, "bias", 0.0f);
            std::vector<double> mean(C), invstd(C);
            if (training) {
                std::vector<double> s = channelSums(x, [&](int64_t, int64_t, int64_t i) { return x.data()[i]; });
                for (int64_t c = 0; c < C; ++c) mean[c] = M ? s[c] / M : 0.0;
                std::vector<double> q = channelSums(x, [&](int64_t, int64_t c, int64_t i) {
                    double d = x.data()[i] - mean[c];
                    return d * d;
                });
                std::vector<double> var(C);
                for (int64_t c = 0; c < C; ++c) {
                    var[c] = M ? q[c] / M : 0.0;
                    invstd[c] = 1.0 / std::sqrt(var[c] + eps);
                }
                if (running_mean && M > 0) {
                    std::vector<S> rm = vecOf<S>(ctx, running_mean, C, "running_mean", 0.0f), rv = vecOf<S>(ctx, running_var, C, "running_var", 1.0f);
                    std::vector<double> nm(C), nv(C);
                    for (int64_t c = 0; c < C; ++c) {
                        nm[c] = (1 - momentum) * rm[c] + momentum * mean[c];
                        // Unbiased variance; a single value per channel gives inf/nan, as the definition does.
                        double unb = M > 1 ? var[c] * M / (M - 1) : var[c] * M / 0.0;
                        nv[c] = (1 - momentum) * rv[c] + momentum * unb;
                    }
                    storeVec(ctx, running_mean, nm, "running_mean");
                    storeVec(ctx, running_var, nv, "running_var");
                }
            } else {
                std::vector<S> rm = vecOf<S>(ctx, running_mean, C, "running_mean", 0.0f), rv = vecOf<S>(ctx, running_var, C, "running_var", 1.0f);
                for (int64_t c = 0; c < C; ++c) {
                    mean[c] = rm[c];
                    invstd[c] = 1.0 / std::sqrt(double(rv[c]) + eps);
                }
            }
            TensorView y = resultBuffer<S>(ctx, ov, x.moved, 1);
            std::vector<S> scale(C), shift(C);
            for (int64_t c = 0; c < C; ++c) {
                scale[c] = S(invstd[c] * w[c]);
                shift[c] = S(b[c] - mean[c] * invstd[c] * w[c]);
            }
            channelMap(x, y.template ptr<S>(), [&](int64_t, int64_t c, int64_t i) { return x.data()[i] * scale[c] + shift[c]; });
            storeNCL(ov, y);
            if (save_mean) storeVec(ctx, save_mean, mean, "save_mean");
            if (save_invstd) storeVec(ctx, save_invstd, invstd, "save_invstd");
        });
    });
}

// Training: grad_input = (dy - sum_dy / M - xmu * invstd^2 * sum_dy_xmu / M) * invstd * w with the saved
// statistics; evaluation: dy * w / sqrt(running_var + eps).
diopiError_t diopiBatchNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                    diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t weight, diopiConstTensorHandle_t running_mean, diopiConstTensorHandle_t running_var,
                                    diopiConstTensorHandle_t save_mean, diopiConstTensorHandle_t save_invstd, bool training, double eps) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            TensorView xv = batched(input, "input"), gov = view(grad_output, "grad_output");
            needFloat(gov, "grad_output");
            checkSameShape(gov, xv, "grad_output", "input");
            CPU_CHECK(!training || (save_mean && save_invstd), "training mode needs save_mean and save_invstd");
            CPU_CHECK(training || (running_mean && running_var), "evaluation mode (training=false) needs running_mean and running_var");
            auto x = toNCL<S>(ctx, xv), g = toNCL<S>(ctx, gov);
            const int64_t C = x.C, M = x.N * x.L;
            std::vector<S> w = vecOf<S>(ctx, weight, C, "weight", 1.0f);
            std::vector<double> mean(C), invstd(C);
            if (training) {
                std::vector<S> sm = vecOf<S>(ctx, save_mean, C, "save_mean", 0.0f), si = vecOf<S>(ctx, save_invstd, C, "save_invstd", 1.0f);
                for (int64_t c = 0; c < C; ++c) {
                    mean[c] = sm[c];
                    invstd[c] = si[c];
                }
            } else {
                std::vector<S> rm = vecOf<S>(ctx, running_mean, C, "running_mean", 0.0f), rv = vecOf<S>(ctx, running_var, C, "running_var", 1.0f);
                for (int64_t c = 0; c < C; ++c) {
                    mean[c] = rm[c];
                    invstd[c] = 1.0 / std::sqrt(double(rv[c]) + eps);
                }
            }
            std::vector<double> sdy, sdx;
            channelDot2(x, g, [&](int64_t, int64_t c, double* m, double* k) { *m = mean[c], *k = 1.0; }, sdy, sdx);
            if (grad_input) {
                TensorView gi = view(grad_input, "grad_input");
                needFloat(gi, "grad_input");
                checkSameShape(gi, xv, "grad_input", "input");
                TensorView r = resultBuffer<S>(ctx, gi, x.moved, 1);
                std::vector<S> a(C), k(C), bb(C), mu(C);
                for (int64_t c = 0; c < C; ++c) {
                    mu[c] = S(mean[c]);
                    a[c] = S(invstd[c] * w[c]);
                    if (training && M > 0) {
                        k[c] = S(invstd[c] * invstd[c] * sdx[c] / M);
                        bb[c] = S(sdy[c] / M);
                    }
                }
                if (training) channelMap(x, r.template ptr<S>(), [&](int64_t, int64_t c, int64_t i) { return (g.data()[i] - bb[c] - (x.data()[i] - mu[c]) * k[c]) * a[c]; });
                else channelMap(x, r.template ptr<S>(), [&](int64_t, int64_t c, int64_t i) { return g.data()[i] * a[c]; });
                storeNCL(gi, r);
            }
            if (grad_weight) {
                std::vector<double> gw(C);
                for (int64_t c = 0; c < C; ++c) gw[c] = sdx[c] * invstd[c];
                storeVec(ctx, grad_weight, gw, "grad_weight");
            }
            if (grad_bias) storeVec(ctx, grad_bias, sdy, "grad_bias");
        });
    });
}

diopiError_t diopiBatchNormStats(diopiContextHandle_t ctx, diopiTensorHandle_t mean, diopiTensorHandle_t invstd, diopiConstTensorHandle_t input,
                                 double eps) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            auto x = toNCL<S>(ctx, batched(input, "input"));
            const int64_t C = x.C, M = x.N * x.L;
            std::vector<double> s = channelSums(x, [&](int64_t, int64_t, int64_t i) { return x.data()[i]; }), mu(C), is(C);
            for (int64_t c = 0; c < C; ++c) mu[c] = s[c] / M;
            std::vector<double> q = channelSums(x, [&](int64_t, int64_t c, int64_t i) {
                double d = x.data()[i] - mu[c];
                return d * d;
            });
            for (int64_t c = 0; c < C; ++c) is[c] = 1.0 / std::sqrt(q[c] / M + eps);
            storeVec(ctx, mean, mu, "mean");
            storeVec(ctx, invstd, is, "invstd");
        });
    });
}

// mean = sum_k n_k mean_k / sum n; var = sum_k n_k (1/invstd_k^2 - eps + (mean_k - mean)^2) / sum n.
diopiError_t diopiBatchNormGatherStatsWithCounts(diopiContextHandle_t ctx, diopiTensorHandle_t mean, diopiTensorHandle_t invstd,
                                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t mean_all, diopiConstTensorHandle_t invstd_all,
                                                 diopiTensorHandle_t running_mean, diopiTensorHandle_t running_var, float momentum, float eps,
                                                 diopiConstTensorHandle_t counts) {
    return guard(__func__, [&] {
        withCalc(view(mean_all, "mean_all").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            batched(input, "input");
            TensorView ma = view(mean_all, "mean_all"), ia = view(invstd_all, "invstd_all"), cn = view(counts, "counts");
            needFloat(ma, "mean_all");
            needFloat(ia, "invstd_all");
            CPU_CHECK(ma.dim() == 2 && ia.shape == ma.shape, "mean_all and invstd_all must be 2-D (world, C) of the same shape");
            const int64_t W = ma.shape[0], C = ma.shape[1];
            CPU_CHECK(cn.dim() == 1 && cn.shape[0] == W, "counts must be 1-D with one entry per row of mean_all");
            TensorView m = contiguousAs(ctx, ma, dtypeOf<S>()), iv = contiguousAs(ctx, ia, dtypeOf<S>());
            TensorView n = contiguousAs(ctx, cn, dtypeOf<S>());
            double total = 0;
            for (int64_t k = 0; k < W; ++k) total += n.template ptr<S>()[k];
            std::vector<double> mu(C, 0.0), var(C, 0.0), is(C);
            const double e = eps, mom = momentum;
            for (int64_t c = 0; c < C; ++c) {
                for (int64_t k = 0; k < W; ++k) mu[c] += double(n.template ptr<S>()[k]) * m.template ptr<S>()[k * C + c];
                mu[c] /= total;
                for (int64_t k = 0; k < W; ++k) {
                    double i = iv.template ptr<S>()[k * C + c], d = m.template ptr<S>()[k * C + c] - mu[c];
                    var[c] += double(n.template ptr<S>()[k]) * (1.0 / (i * i) - e + d * d);
                }
                var[c] /= total;
                is[c] = 1.0 / std::sqrt(var[c] + e);
            }
            storeVec(ctx, mean, mu, "mean");
            storeVec(ctx, invstd, is, "invstd");
            if (running_mean) {
                std::vector<S> rm = vecOf<S>(ctx, running_mean, C, "running_mean", 0.0f);
                std::vector<double> r(C);
                for (int64_t c = 0; c < C; ++c) r[c] = rm[c] * (1 - mom) + mu[c] * mom;
                storeVec(ctx, running_mean, r, "running_mean");
            }
            if (running_var) {
                std::vector<S> rv = vecOf<S>(ctx, running_var, C, "running_var", 0.0f);
                std::vector<double> r(C);
                for (int64_t c = 0; c < C; ++c) r[c] = rv[c] * (1 - mom) + var[c] * total / (total - 1) * mom;
                storeVec(ctx, running_var, r, "running_var");
            }
        });
    });
}

diopiError_t diopiBatchNormElemt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                 diopiConstTensorHandle_t bias, diopiConstTensorHandle_t mean, diopiConstTensorHandle_t invstd, float eps) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            (void)eps;  // invstd already includes it
            TensorView xv = batched(input, "input"), ov = view(out, "out");
            needFloat(ov, "out");
            checkSameShape(ov, xv, "out", "input");
            CPU_CHECK(mean && invstd, "mean and invstd are required");
            auto x = toNCL<S>(ctx, xv);
            const int64_t C = x.C;
            std::vector<S> w = vecOf<S>(ctx, weight, C, "weight", 1.0f), b = vecOf<S>(ctx, bias, C, "bias", 0.0f);
            std::vector<S> mu = vecOf<S>(ctx, mean, C, "mean", 0.0f), is = vecOf<S>(ctx, invstd, C, "invstd", 1.0f);
            TensorView y = resultBuffer<S>(ctx, ov, x.moved, 1);
            channelMap(x, y.template ptr<S>(), [&](int64_t, int64_t c, int64_t i) { return (x.data()[i] - mu[c]) * is[c] * w[c] + b[c]; });
            storeNCL(ov, y);
        });
    });
}

diopiError_t diopiBatchNormBackwardReduce(diopiContextHandle_t ctx, diopiTensorHandle_t sum_dy, diopiTensorHandle_t sum_dy_xmu,
                                          diopiTensorHandle_t grad_weight, diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_out,
                                          diopiConstTensorHandle_t input, diopiConstTensorHandle_t mean, diopiConstTensorHandle_t invstd,
                                          diopiConstTensorHandle_t weight, bool input_g, bool weight_g, bool bias_g) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            (void)weight;  // the reductions do not involve the scale
            TensorView xv = batched(input, "input"), gv = view(grad_out, "grad_out");
            needFloat(gv, "grad_out");
            checkSameShape(gv, xv, "grad_out", "input");
            auto x = toNCL<S>(ctx, xv), g = toNCL<S>(ctx, gv);
            const int64_t C = x.C;
            std::vector<S> mu = vecOf<S>(ctx, mean, C, "mean", 0.0f);
            CPU_CHECK(mean, "mean is NULL");
            std::vector<double> sdy, sdx;
            channelDot2(x, g, [&](int64_t, int64_t c, double* m, double* k) { *m = double(mu[c]), *k = 1.0; }, sdy, sdx);
            if (input_g) {
                if (sum_dy) storeVec(ctx, sum_dy, sdy, "sum_dy");
                if (sum_dy_xmu) storeVec(ctx, sum_dy_xmu, sdx, "sum_dy_xmu");
            }
            if (weight_g && grad_weight) {
                CPU_CHECK(invstd, "invstd is NULL");
                std::vector<S> is = vecOf<S>(ctx, invstd, C, "invstd", 1.0f);
                std::vector<double> gw(C);
                for (int64_t c = 0; c < C; ++c) gw[c] = sdx[c] * is[c];
                storeVec(ctx, grad_weight, gw, "grad_weight");
            }
            if (bias_g && grad_bias) storeVec(ctx, grad_bias, sdy, "grad_bias");
        });
    });
}

diopiError_t diopiBatchNormBackwardElemt(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_out,
                                         diopiConstTensorHandle_t input, diopiConstTensorHandle_t mean, diopiConstTensorHandle_t invstd,
                                         diopiConstTensorHandle_t weight, diopiConstTensorHandle_t sum_dy, diopiConstTensorHandle_t sum_dy_xmu,
                                         diopiConstTensorHandle_t count) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            TensorView xv = batched(input, "input"), gv = view(grad_out, "grad_out"), giv = view(grad_input, "grad_input");
            needFloat(gv, "grad_out");
            needFloat(giv, "grad_input");
            checkSameShape(gv, xv, "grad_out", "input");
            checkSameShape(giv, xv, "grad_input", "input");
            CPU_CHECK(mean && invstd && sum_dy && sum_dy_xmu, "mean, invstd, sum_dy and sum_dy_xmu are required");
            TensorView cv = view(count, "count");
            if (!isFloatingDtype(cv.dtype) && !isIntegralDtype(cv.dtype))
                failCode(diopiDtypeNotSupported, "count must be an integer or floating-point tensor, got ", dtypeName(cv.dtype));
            TensorView cd = contiguousAs(ctx, cv, diopi_dtype_float64);
            double total = 0;
            for (int64_t k = 0; k < cd.numel; ++k) total += cd.ptr<double>()[k];
            auto x = toNCL<S>(ctx, xv), g = toNCL<S>(ctx, gv);
            const int64_t C = x.C;
            std::vector<S> mu = vecOf<S>(ctx, mean, C, "mean", 0.0f), is = vecOf<S>(ctx, invstd, C, "invstd", 1.0f), w = vecOf<S>(ctx, weight, C, "weight", 1.0f);
            std::vector<S> sd = vecOf<S>(ctx, sum_dy, C, "sum_dy", 0.0f), sdx = vecOf<S>(ctx, sum_dy_xmu, C, "sum_dy_xmu", 0.0f);
            std::vector<S> a(C), k(C), bb(C);
            for (int64_t c = 0; c < C; ++c) {
                a[c] = is[c] * w[c];
                k[c] = S(double(is[c]) * is[c] * sdx[c] / total);
                bb[c] = S(sd[c] / total);
            }
            TensorView r = resultBuffer<S>(ctx, giv, x.moved, 1);
            channelMap(x, r.template ptr<S>(), [&](int64_t, int64_t c, int64_t i) { return (g.data()[i] - bb[c] - (x.data()[i] - mu[c]) * k[c]) * a[c]; });
            storeNCL(giv, r);
        });
    });
}

// ================================================================ layer norm
namespace {

/// Layer norm backward over rows [r0, r1) of K values: grad_input rows into
/// rp (when given) and the weight/bias gradient sums into aw/ab (when given).
template <class S>
CPU_FORCE_INLINE void lnBwdRowsBody(const S* xp, const S* gp, const S* wp, const S* mean, const S* rstd, int64_t K, int64_t r0, int64_t r1,
                                    S* rp, S* aw, S* ab) {
    for (int64_t row = r0; row < r1; ++row) {
        const S m = mean[row], s = rstd[row];
        const S *xr = xp + row * K, *gr = gp + row * K;
        if (rp) {
            const double sg = laneSum<S, 16>(K, [=](int64_t k) { return gr[k] * wp[k]; });
            const double sgx = laneSum<S, 16>(K, [=](int64_t k) { return gr[k] * wp[k] * ((xr[k] - m) * s); });
            const S a = S(sg / K), c = S(sgx / K);
            S* o = rp + row * K;
            for (int64_t k = 0; k < K; ++k) o[k] = s * (gr[k] * wp[k] - a - (xr[k] - m) * s * c);
        }
        if (aw)
            for (int64_t k = 0; k < K; ++k) {
                aw[k] += gr[k] * ((xr[k] - m) * s);
                ab[k] += gr[k];
            }
    }
}

template <class S>
using LnBwdRowsFn = void (*)(const S*, const S*, const S*, const S*, const S*, int64_t, int64_t, int64_t, S*, S*, S*);

#define CPU_NORM_LN_ROWS(NAME, ATTR)                                                                                            \
    template <class S>                                                                                                          \
    ATTR void lnBwdRows##NAME(const S* xp, const S* gp, const S* wp, const S* mean, const S* rstd, int64_t K, int64_t r0,       \
                              int64_t r1, S* rp, S* aw, S* ab) {                                                                \
        lnBwdRowsBody<S>(xp, gp, wp, mean, rstd, K, r0, r1, rp, aw, ab);                                                        \
    }
CPU_NORM_LN_ROWS(Base, )
#if CPU_HAVE_X86_LEVELS
CPU_NORM_LN_ROWS(Avx2, CPU_TARGET_AVX2)
CPU_NORM_LN_ROWS(Avx512, CPU_TARGET_AVX512)
#endif
#undef CPU_NORM_LN_ROWS

/// The row kernel for the level in use (per-level code for float only).
template <class S>
LnBwdRowsFn<S> lnBwdRows() {
#if CPU_HAVE_X86_LEVELS
    if constexpr (std::is_same_v<S, float>) {
        if (isa() == Isa::Avx512) return lnBwdRowsAvx512<float>;
        if (isa() == Isa::Avx2) return lnBwdRowsAvx2<float>;
    }
#endif
    return lnBwdRowsBase<S>;
}

/// input seen as rows x K with K = prod(shape[axis:]).
template <class S>
void layerNormForward(diopiContextHandle_t ctx, const TensorView& xv, const TensorView& ov, diopiConstTensorHandle_t weight,
                      diopiConstTensorHandle_t bias, int64_t axis, double eps, diopiTensorHandle_t meanOut, diopiTensorHandle_t rstdOut) {
    needFloat(ov, "out");
    checkSameShape(ov, xv, "out", "input");
    Shape ns(xv.shape.begin() + axis, xv.shape.end());
    const int64_t K = shapeNumel(ns), R = K ? xv.numel / K : shapeNumel(Shape(xv.shape.begin(), xv.shape.begin() + axis));
    std::vector<S> w = vecOf<S>(ctx, weight, K, "weight", 1.0f, &ns), b = vecOf<S>(ctx, bias, K, "bias", 0.0f, &ns);
    TensorView x = contiguousAs(ctx, xv, dtypeOf<S>());
    std::vector<double> mean, var;
    blockStats(x.ptr<S>(), R, K, mean, var);
    std::vector<double> rstd(R);
    for (int64_t r = 0; r < R; ++r) rstd[r] = 1.0 / std::sqrt(var[r] + eps);
    TensorView y = resultBuffer<S>(ctx, ov, xv.shape, 1);
    const S* xp = x.ptr<S>();
    S* yp = y.ptr<S>();
    parallelFor(R, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, K)), [&](int64_t rb, int64_t re) {
        for (int64_t r = rb; r < re; ++r) {
            const S m = S(mean[r]), s = S(rstd[r]);
            for (int64_t k = 0; k < K; ++k) yp[r * K + k] = (xp[r * K + k] - m) * s * w[k] + b[k];
        }
    });
    storeNCL(ov, y);
    if (meanOut) storeVec(ctx, meanOut, mean, "mean");
    if (rstdOut) storeVec(ctx, rstdOut, rstd, "rstd");
}

/// grad_input = rstd * (g - mean(g) - xhat * mean(g * xhat)) per row with g = dy * w;
/// grad_weight = sum over rows of dy * xhat, grad_bias = sum over rows of dy.
template <class S>
void layerNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t gradInput, diopiTensorHandle_t gradWeight, diopiTensorHandle_t gradBias,
                       const TensorView& gov, const TensorView& xv, diopiConstTensorHandle_t weight, const std::vector<S>& mean,
                       const std::vector<S>& rstd, int64_t axis) {
    needFloat(gov, "grad_output");
    checkSameShape(gov, xv, "grad_output", "input");
    Shape ns(xv.shape.begin() + axis, xv.shape.end());
    const int64_t K = shapeNumel(ns), R = (int64_t)mean.size();
    std::vector<S> w = vecOf<S>(ctx, weight, K, "weight", 1.0f, &ns);
    TensorView x = contiguousAs(ctx, xv, dtypeOf<S>()), g = contiguousAs(ctx, gov, dtypeOf<S>());
    const S *xp = x.ptr<S>(), *gp = g.ptr<S>();
    TensorView giv, r;
    S* rp = nullptr;
    if (gradInput) {
        giv = view(gradInput, "grad_input");
        needFloat(giv, "grad_input");
        checkSameShape(giv, xv, "grad_input", "input");
        r = resultBuffer<S>(ctx, giv, xv.shape, 1);
        rp = r.ptr<S>();
    }
    const bool wb = gradWeight || gradBias;
    // One pass over the rows in fixed blocks of kRows: each row's gradient, and
    // the block's weight/bias gradient sums in S (flushed per block into
    // double below, in block order: the result does not depend on the threads).
    constexpr int64_t kRows = 64;
    const int64_t blocks = (R + kRows - 1) / kRows;
    std::vector<S> pw(wb ? blocks * K : 0), pb(wb ? blocks * K : 0);
    const S* wp = w.data();
    const LnBwdRowsFn<S> rowsFn = lnBwdRows<S>();
    parallelFor(blocks, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, kRows * K)), [&](int64_t bb, int64_t be) {
        for (int64_t blk = bb; blk < be; ++blk)
            rowsFn(xp, gp, wp, mean.data(), rstd.data(), K, blk * kRows, std::min(R, (blk + 1) * kRows), rp,
                   wb ? pw.data() + blk * K : nullptr, wb ? pb.data() + blk * K : nullptr);
    });
    if (rp) storeNCL(giv, r);
    if (wb) {
        std::vector<double> gw(K, 0.0), gb(K, 0.0);
        for (int64_t blk = 0; blk < blocks; ++blk)
            for (int64_t k = 0; k < K; ++k) {
                gw[k] += double(pw[blk * K + k]);
                gb[k] += double(pb[blk * K + k]);
            }
        if (gradWeight) storeVec(ctx, gradWeight, gw, "grad_weight");
        if (gradBias) storeVec(ctx, gradBias, gb, "grad_bias");
    }
}

int64_t rowsBefore(const TensorView& x, int64_t axis) { return shapeNumel(Shape(x.shape.begin(), x.shape.begin() + axis)); }

}  // namespace

diopiError_t diopiLayerNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t save_mean, diopiTensorHandle_t save_invstd,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias,
                            diopiSize_t normalized_shape, double eps) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            TensorView x = view(input, "input");
            needFloat(x, "input");
            Shape ns = toShape(normalized_shape);
            CPU_CHECK(!ns.empty() && (int64_t)ns.size() <= x.dim(), "normalized_shape must have 1 to input.dim() entries");
            int64_t axis = x.dim() - (int64_t)ns.size();
            CPU_CHECK(Shape(x.shape.begin() + axis, x.shape.end()) == ns, "normalized_shape ", shapeStr(ns), " does not match the trailing dims of ",
                      shapeStr(x.shape));
            layerNormForward<S>(ctx, x, view(out, "out"), weight, bias, axis, eps, save_mean, save_invstd);
        });
    });
}

diopiError_t diopiLayerNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                    diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiConstTensorHandle_t mean,
                                    diopiConstTensorHandle_t rstd, diopiSize_t normalized_shape) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            (void)bias;  // the gradient does not depend on the shift
            TensorView x = view(input, "input");
            needFloat(x, "input");
            Shape ns = toShape(normalized_shape);
            CPU_CHECK(!ns.empty() && (int64_t)ns.size() <= x.dim(), "normalized_shape must have 1 to input.dim() entries");
            int64_t axis = x.dim() - (int64_t)ns.size();
            CPU_CHECK(Shape(x.shape.begin() + axis, x.shape.end()) == ns, "normalized_shape ", shapeStr(ns), " does not match the trailing dims of ",
                      shapeStr(x.shape));
            const int64_t R = rowsBefore(x, axis);
            std::vector<S> mu = statOf<S>(ctx, mean, R, "mean"), rs = statOf<S>(ctx, rstd, R, "rstd");
            layerNormBackward<S>(ctx, grad_input, grad_weight, grad_bias, view(grad_output, "grad_output"), x, weight, mu, rs, axis);
        });
    });
}

// running_var receives rstd = 1/sqrt(var + eps) of each slice, the statistic diopiLayerNormGBBackward takes (the
// name is DIOPI 1.0's).
diopiError_t diopiLayerNormGB(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t running_mean, diopiTensorHandle_t running_var,
                              diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, const double eps,
                              const int64_t begin_norm_axis) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            TensorView x = view(input, "input");
            needFloat(x, "input");
            CPU_CHECK(x.dim() >= 1, "input must have at least 1 dim");
            int64_t axis = wrapAxis(begin_norm_axis, x.dim(), "begin_norm_axis");
            layerNormForward<S>(ctx, x, view(out, "out"), weight, bias, axis, eps, running_mean, running_var);
        });
    });
}

// running_std is rstd = 1/sqrt(var + eps) of each slice, as diopiLayerNormGB writes it.
diopiError_t diopiLayerNormGBBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                      diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiConstTensorHandle_t running_mean,
                                      diopiConstTensorHandle_t running_std, const int64_t begin_norm_axis) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            (void)bias;
            TensorView x = view(input, "input");
            needFloat(x, "input");
            CPU_CHECK(x.dim() >= 1, "input must have at least 1 dim");
            int64_t axis = wrapAxis(begin_norm_axis, x.dim(), "begin_norm_axis");
            const int64_t R = rowsBefore(x, axis);
            std::vector<S> mu = statOf<S>(ctx, running_mean, R, "running_mean"), rs = statOf<S>(ctx, running_std, R, "running_std");
            layerNormBackward<S>(ctx, grad_input, grad_weight, grad_bias, view(grad_output, "grad_output"), x, weight, mu, rs, axis);
        });
    });
}

// ================================================================ group norm
namespace {
void checkGroups(int64_t C, int64_t G) {
    CPU_CHECK(G > 0 && C % G == 0, "num_groups must be positive and divide C=", C, ", got ", G);
}
}  // namespace

diopiError_t diopiGroupNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t save_mean, diopiTensorHandle_t save_invstd,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, int64_t num_groups,
                            double eps) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            TensorView xv = batched(input, "input"), ov = view(out, "out");
            needFloat(ov, "out");
            checkSameShape(ov, xv, "out", "input");
            auto x = toNCL<S>(ctx, xv);
            const int64_t N = x.N, C = x.C, G = num_groups;
            checkGroups(C, G);
            const int64_t D = C / G, len = D * x.L;
            std::vector<S> w = vecOf<S>(ctx, weight, C, "weight", 1.0f), b = vecOf<S>(ctx, bias, C, "bias", 0.0f);
            std::vector<double> mean, var;
            blockStats(x.data(), N * G, len, mean, var);
            std::vector<double> rstd(N * G);
            for (int64_t i = 0; i < N * G; ++i) rstd[i] = 1.0 / std::sqrt(var[i] + eps);
            // Per (n, c) row: y = x * scale + shift.
            std::vector<S> sc(N * C), sh(N * C);
            for (int64_t r = 0; r < N * C; ++r) {
                const int64_t c = r % C, grp = (r / C) * G + c / D;
                sc[r] = S(rstd[grp] * w[c]);
                sh[r] = S(b[c] - mean[grp] * rstd[grp] * w[c]);
            }
            TensorView y = resultBuffer<S>(ctx, ov, x.moved, 1);
            channelMap(x, y.template ptr<S>(), [&](int64_t r, int64_t, int64_t i) { return x.data()[i] * sc[r] + sh[r]; });
            storeNCL(ov, y);
            if (save_mean) storeVec(ctx, save_mean, mean, "save_mean");
            if (save_invstd) storeVec(ctx, save_invstd, rstd, "save_invstd");
        });
    });
}

diopiError_t diopiGroupNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                    diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t weight, diopiConstTensorHandle_t mean, diopiConstTensorHandle_t rstd, int64_t num_groups) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            TensorView xv = batched(input, "input"), gov = view(grad_output, "grad_output");
            needFloat(gov, "grad_output");
            checkSameShape(gov, xv, "grad_output", "input");
            auto x = toNCL<S>(ctx, xv), g = toNCL<S>(ctx, gov);
            const int64_t N = x.N, C = x.C, G = num_groups, L = x.L;
            checkGroups(C, G);
            const int64_t D = C / G, len = D * L;
            std::vector<S> w = vecOf<S>(ctx, weight, C, "weight", 1.0f);
            std::vector<S> mu = statOf<S>(ctx, mean, N * G, "mean"), rs = statOf<S>(ctx, rstd, N * G, "rstd");
            const S *xp = x.data(), *gp = g.data();
            // One pass for the sums: per (n, c) row of L values s1 = sum g and
            // s2 = sum g * (x - mean of its group); everything else follows
            // from them (group sums weighted by w, weight/bias gradients).
            const int64_t rows = N * C;
            std::vector<double> s1(rows), s2(rows);
            parallelFor(rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, L)), [&](int64_t rb, int64_t re) {
                for (int64_t r = rb; r < re; ++r) rowSums2<S>(gp + r * L, xp + r * L, mu[(r / C) * G + (r % C) / D], L, s1[r], s2[r]);
            });
            if (grad_input) {
                TensorView giv = view(grad_input, "grad_input");
                needFloat(giv, "grad_input");
                checkSameShape(giv, xv, "grad_input", "input");
                TensorView r = resultBuffer<S>(ctx, giv, x.moved, 1);
                S* rp = r.template ptr<S>();
                // Per group: a = mean of g * w, c = mean of g * w * xhat.
                std::vector<S> ga(N * G), gc(N * G);
                for (int64_t ng = 0; ng < N * G; ++ng) {
                    const int64_t n = ng / G, g0 = ng % G;
                    double sg = 0, sgx = 0;
                    for (int64_t d = 0; d < D; ++d) {
                        const int64_t c = g0 * D + d;
                        sg += double(w[c]) * s1[n * C + c];
                        sgx += double(w[c]) * s2[n * C + c];
                    }
                    ga[ng] = len ? S(sg / len) : S(0);
                    gc[ng] = len ? S(sgx * double(rs[ng]) / len) : S(0);
                }
                parallelFor(rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, L)), [&](int64_t rb, int64_t re) {
                    for (int64_t row = rb; row < re; ++row) {
                        const int64_t ng = (row / C) * G + (row % C) / D;
                        const S m = mu[ng], s = rs[ng], wc = w[row % C], a = ga[ng], c = gc[ng];
                        const S *gq = gp + row * L, *xq = xp + row * L;
                        S* o = rp + row * L;
                        for (int64_t l = 0; l < L; ++l) o[l] = s * (gq[l] * wc - a - (xq[l] - m) * s * c);
                    }
                });
                storeNCL(giv, r);
            }
            if (grad_weight || grad_bias) {
                std::vector<double> gb(C, 0.0), gw(C, 0.0);
                for (int64_t n = 0; n < N; ++n)
                    for (int64_t c = 0; c < C; ++c) {
                        gb[c] += s1[n * C + c];
                        gw[c] += s2[n * C + c] * double(rs[n * G + c / D]);
                    }
                if (grad_weight) storeVec(ctx, grad_weight, gw, "grad_weight");
                if (grad_bias) storeVec(ctx, grad_bias, gb, "grad_bias");
            }
        });
    });
}

// ================================================================ instance norm
diopiError_t diopiInstanceNorm(diopiContextHandle_t ctx, diopiTensorHandle_t output, diopiConstTensorHandle_t input, const int64_t axis,
                               diopiConstTensorHandle_t scale, diopiConstTensorHandle_t bias, const double eps) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            TensorView xv = batched(input, "input"), ov = view(output, "output");
            needFloat(ov, "output");
            checkSameShape(ov, xv, "output", "input");
            int64_t ax = wrapAxis(axis, xv.dim(), "axis");
            CPU_CHECK(ax != 0, "axis must name the channel dim; dim 0 is the batch dim");
            auto x = toNCL<S>(ctx, xv, ax);
            const int64_t C = x.C;
            std::vector<S> w = vecOf<S>(ctx, scale, C, "scale", 1.0f), b = vecOf<S>(ctx, bias, C, "bias", 0.0f);
            std::vector<double> mean, var;
            blockStats(x.data(), x.N * C, x.L, mean, var);
            std::vector<S> sc(x.N * C), sh(x.N * C);
            for (int64_t r = 0; r < x.N * C; ++r) {
                const double is = 1.0 / std::sqrt(var[r] + eps);
                sc[r] = S(is * w[r % C]);
                sh[r] = S(b[r % C] - mean[r] * is * w[r % C]);
            }
            TensorView y = resultBuffer<S>(ctx, ov, x.moved, ax);
            channelMap(x, y.template ptr<S>(), [&](int64_t r, int64_t, int64_t i) { return x.data()[i] * sc[r] + sh[r]; });
            storeNCL(ov, y, ax);
        });
    });
}

diopiError_t diopiInstanceNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_scale,
                                       diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t scale, diopiConstTensorHandle_t bias, const int64_t axis, const double eps) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            (void)bias;
            TensorView xv = batched(input, "input"), gov = view(grad_output, "grad_output");
            needFloat(gov, "grad_output");
            checkSameShape(gov, xv, "grad_output", "input");
            int64_t ax = wrapAxis(axis, xv.dim(), "axis");
            CPU_CHECK(ax != 0, "axis must name the channel dim; dim 0 is the batch dim");
            auto x = toNCL<S>(ctx, xv, ax), g = toNCL<S>(ctx, gov, ax);
            const int64_t C = x.C, L = x.L, R = x.N * C;
            std::vector<S> w = vecOf<S>(ctx, scale, C, "scale", 1.0f);
            std::vector<double> mean, var;
            blockStats(x.data(), R, L, mean, var);
            std::vector<S> mu(R), rs(R);
            for (int64_t r = 0; r < R; ++r) {
                mu[r] = S(mean[r]);
                rs[r] = S(1.0 / std::sqrt(var[r] + eps));
            }
            const S *xp = x.data(), *gp = g.data();
            if (grad_input) {
                TensorView giv = view(grad_input, "grad_input");
                needFloat(giv, "grad_input");
                checkSameShape(giv, xv, "grad_input", "input");
                TensorView out = resultBuffer<S>(ctx, giv, x.moved, ax);
                S* op = out.template ptr<S>();
                parallelFor(R, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, L)), [&](int64_t b, int64_t e) {
                    for (int64_t r = b; r < e; ++r) {
                        const S wc = w[r % C], m = mu[r], s = rs[r];
                        const int64_t off = r * L;
                        const S *gq = gp + off, *xq = xp + off;
                        const double sg = laneSum<S>(L, [=](int64_t l) { return gq[l] * wc; });
                        const double sgx = laneSum<S>(L, [=](int64_t l) { return gq[l] * wc * ((xq[l] - m) * s); });
                        const S a = L ? S(sg / L) : 0.0f, c = L ? S(sgx / L) : 0.0f;
                        for (int64_t l = 0; l < L; ++l) op[off + l] = s * (gp[off + l] * wc - a - (xp[off + l] - m) * s * c);
                    }
                });
                storeNCL(giv, out, ax);
            }
            if (grad_scale || grad_bias) {
                std::vector<double> gb, gs;
                channelDot2(x, g, [&](int64_t n, int64_t c, double* m, double* k) { *m = double(mu[n * C + c]), *k = double(rs[n * C + c]); }, gb, gs);
                if (grad_scale) storeVec(ctx, grad_scale, gs, "grad_scale");
                if (grad_bias) storeVec(ctx, grad_bias, gb, "grad_bias");
            }
        });
    });
}

// ================================================================ Lp normalize
namespace {

/// Input with dim `axis` moved last, dense in S, as rows x K.
template <class S>
struct Lines {
    TensorView dense;
    Shape moved;
    int64_t rows = 1, K = 1, axis = 0;
};

TensorView moveAxisLast(const TensorView& t, int64_t axis) {
    if (t.dim() == 0 || axis == t.dim() - 1) return t;
    Shape sh, st;
    for (int64_t d = 0; d < t.dim(); ++d)
        if (d != axis) {
            sh.push_back(t.shape[d]);
            st.push_back(t.strides[d]);
        }
    sh.push_back(t.shape[axis]);
    st.push_back(t.strides[axis]);
    return t.restrided(sh, st);
}

template <class S>
Lines<S> toLines(diopiContextHandle_t ctx, const TensorView& x, int64_t axis) {
    Lines<S> l;
    l.axis = axis;
    TensorView m = moveAxisLast(x, axis);
    l.dense = contiguousAs(ctx, m, dtypeOf<S>());
    l.moved = m.shape;
    l.K = x.dim() ? x.shape[axis] : 1;
    l.rows = l.K ? x.numel / l.K : 0;
    return l;
}

template <class S>
double lineNorm(const S* x, int64_t K, double p) {
    if (std::isinf(p)) {
        double r = p > 0 ? 0.0 : INFINITY;
        for (int64_t k = 0; k < K; ++k) r = p > 0 ? std::max(r, double(std::fabs(x[k]))) : std::min(r, double(std::fabs(x[k])));
        return r;
    }
    double acc = 0;
    if (p == 0) {
        for (int64_t k = 0; k < K; ++k) acc += x[k] != 0;
        return acc;
    }
    if (p == 1) return laneSum<S>(K, [x](int64_t k) { return std::fabs(x[k]); });
    if (p == 2) return std::sqrt(laneSum<S>(K, [x](int64_t k) { return x[k] * x[k]; }));
    for (int64_t k = 0; k < K; ++k) acc += std::pow(std::fabs(double(x[k])), p);
    return std::pow(acc, 1.0 / p);
}

double sgn(double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }

}  // namespace

diopiError_t diopiNormalize(diopiContextHandle_t ctx, diopiTensorHandle_t output, diopiConstTensorHandle_t input, const float p, const int64_t axis,
                            const double eps) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            TensorView xv = view(input, "input"), ov = view(output, "output");
            needFloat(xv, "input");
            needFloat(ov, "output");
            checkSameShape(ov, xv, "output", "input");
            CPU_CHECK(!std::isnan(p), "p is NaN");
            int64_t ax = wrapAxis(axis, std::max<int64_t>(xv.dim(), 1), "axis");
            auto l = toLines<S>(ctx, xv, ax);
            // Computed in output itself when it is dense in S along the moved layout.
            const TensorView om = moveAxisLast(ov, ax);
            const bool direct = om.dtype == dtypeOf<S>() && om.isContiguous();
            TensorView y = direct ? om : newTensor(ctx, l.moved, dtypeOf<S>());
            const S* xp = l.dense.template ptr<S>();
            S* yp = y.template ptr<S>();
            const int64_t K = l.K;
            parallelFor(l.rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, K)), [&](int64_t b, int64_t e) {
                for (int64_t r = b; r < e; ++r) {
                    const double den = std::max(lineNorm(xp + r * K, K, p), eps);
                    const S inv = S(1.0 / den);
                    for (int64_t k = 0; k < K; ++k) yp[r * K + k] = xp[r * K + k] * inv;
                }
            });
            if (!direct) copyCast(om, y);
        });
    });
}

// y = x / max(n, eps): dx = g / den - [n >= eps] * sum(g * x) / den^2 * dn/dx.
diopiError_t diopiNormalizeBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, const float p, const int64_t axis, const double eps) {
    return guard(__func__, [&] {
        withCalc(view(input, "input").dtype, [&](auto tag_) {
            using S = typename decltype(tag_)::type;
            TensorView xv = view(input, "input"), gov = view(grad_output, "grad_output"), giv = view(grad_input, "grad_input");
            needFloat(xv, "input");
            needFloat(gov, "grad_output");
            needFloat(giv, "grad_input");
            checkSameShape(gov, xv, "grad_output", "input");
            checkSameShape(giv, xv, "grad_input", "input");
            CPU_CHECK(!std::isnan(p), "p is NaN");
            int64_t ax = wrapAxis(axis, std::max<int64_t>(xv.dim(), 1), "axis");
            auto lx = toLines<S>(ctx, xv, ax), lg = toLines<S>(ctx, gov, ax);
            const TensorView gm = moveAxisLast(giv, ax);
            const bool direct = gm.dtype == dtypeOf<S>() && gm.isContiguous();
            TensorView r = direct ? gm : newTensor(ctx, lx.moved, dtypeOf<S>());
            const S *xp = lx.dense.template ptr<S>(), *gp = lg.dense.template ptr<S>();
            S* rp = r.template ptr<S>();
            const int64_t K = lx.K;
            const double pd = p;
            parallelFor(lx.rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, K)), [&](int64_t b, int64_t e) {
                for (int64_t row = b; row < e; ++row) {
                    const S *x = xp + row * K, *g = gp + row * K;
                    S* o = rp + row * K;
                    const double n = lineNorm(x, K, pd), den = std::max(n, eps);
                    const double sgx = laneSum<S>(K, [=](int64_t k) { return g[k] * x[k]; });
                    double coeff = n < eps ? 0.0 : sgx / (den * den);
                    if (pd == 2) {
                        // dn/dx = x / n: one vectorisable pass.
                        const S a = S(1.0 / den), c = n == 0 ? S(0) : S(coeff / n);
                        for (int64_t k = 0; k < K; ++k) o[k] = g[k] * a - c * x[k];
                        continue;
                    }
                    int64_t hits = 0;
                    if (std::isinf(pd))
                        for (int64_t k = 0; k < K; ++k) hits += std::fabs(x[k]) == n;
                    for (int64_t k = 0; k < K; ++k) {
                        double xi = x[k], dn;
                        if (pd == 0) dn = 0;
                        else if (pd == 1) dn = sgn(xi);
                        else if (std::isinf(pd)) dn = std::fabs(xi) == n ? sgn(xi) / double(hits) : 0.0;
                        else if (pd == 2) dn = n == 0 ? 0.0 : xi / n;
                        else dn = n == 0 ? 0.0 : xi * std::pow(std::fabs(xi), pd - 2) / std::pow(n, pd - 1);
                        o[k] = S(g[k] / den - coeff * dn);
                    }
                }
            });
            if (!direct) copyCast(gm, r);
        });
    });
}

}  // namespace impl::cpu
