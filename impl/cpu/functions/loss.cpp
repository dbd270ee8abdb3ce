// Family loss: elementwise losses (mse, smooth L1, bce, bce with logits,
// sigmoid focal), class losses (nll, cross entropy); forward and backward.
//
// Elementwise losses evaluate every term in float (double for sums) from the
// caller's element type and round once when writing; inputs broadcast to a
// common shape and backward sums a broadcast gradient back to input's shape.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "common/common.hpp"

namespace impl::cpu {

namespace {

enum class Red { None, Mean, Sum };

Red reductionOf(diopiReduction_t r) {
    switch (r) {
        case ReductionNone: return Red::None;
        case ReductionMean: return Red::Mean;
        case ReductionSum: return Red::Sum;
        default: fail("reduction must be ReductionNone, ReductionMean or ReductionSum, got ", int(r));
    }
}

void needFloat(const TensorView& t, const char* name) {
    if (!isFloatingDtype(t.dtype)) failCode(diopiDtypeNotSupported, name, " must be floating point, got ", dtypeName(t.dtype));
}

/// A reduced loss goes to a single-element output (0-d, or any shape of one element).
void checkScalarOut(const TensorView& out, const char* name) {
    CPU_CHECK(out.numel == 1, name, " must hold one element for mean/sum reduction, got shape ", shapeStr(out.shape));
}

/// Elements per block of the dense fast paths: operands are converted to
/// float block-wise, so the loss formula runs over plain arrays.
constexpr int64_t kBlock = 256;

/// Period of an operand in out's row-major order when it is dense and its
/// shape (leading 1s dropped) is a suffix of `shape`: element i is p[i % period].
/// Covers dense same-shape operands, single elements (absent weights, reduced
/// grad_output) and per-class weights. 0 when it is none of those.
int64_t periodOf(const Shape& shape, const TensorView& t) {
    if (!t.isContiguous()) return 0;
    size_t lead = 0;
    while (lead < t.shape.size() && t.shape[lead] == 1) ++lead;
    const size_t rest = t.shape.size() - lead;
    if (rest > shape.size()) return 0;
    for (size_t d = 0; d < rest; ++d)
        if (t.shape[lead + d] != shape[shape.size() - rest + d]) return 0;
    return std::max<int64_t>(t.numel, 1);
}

template <size_t N>
bool periodic(const Shape& shape, const std::array<const TensorView*, N>& ins, std::array<int64_t, N>& period) {
    for (size_t k = 0; k < N; ++k)
        if ((period[k] = periodOf(shape, *ins[k])) == 0) return false;
    return true;
}

/// Converts elements [s, s + n) of each operand into buf[k].
template <class T, size_t N>
void loadBlock(const std::array<const TensorView*, N>& ins, const std::array<int64_t, N>& period, int64_t s, int64_t n,
               float (&buf)[N][kBlock]) {
    for (size_t k = 0; k < N; ++k) {
        const T* p = ins[k]->template ptr<T>();
        const int64_t per = period[k];
        if (per == 1) {
            const float v = float(p[0]);
            for (int64_t j = 0; j < n; ++j) buf[k][j] = v;
        } else if (s + n <= per) {
            for (int64_t j = 0; j < n; ++j) buf[k][j] = float(p[s + j]);
        } else {
            int64_t off = s % per;
            for (int64_t j = 0; j < n; ++j) {
                buf[k][j] = float(p[off]);
                if (++off == per) off = 0;
            }
        }
    }
}

/// res[j] = f(v) for the block, v[k] = buf[k][j].
template <size_t N, class F>
inline void evalBlock(const float (&buf)[N][kBlock], int64_t n, float* res, F& f) {
    for (int64_t j = 0; j < n; ++j) {
        float v[N];
        for (size_t k = 0; k < N; ++k) v[k] = buf[k][j];
        res[j] = f(v);
    }
}

/// out[i] = f(v) where v[k] is operand k's element as float; operands
/// broadcast to out's shape.
template <class T, size_t N, class F>
void mapLoss(const TensorView& out, const std::array<const TensorView*, N>& ins, F f) {
    if (out.numel == 0) return;
    std::array<int64_t, N> period;
    if (out.isContiguous() && periodic(out.shape, ins, period)) {
        T* o = out.ptr<T>();
        parallelFor(out.numel, kParallelGrain, [&](int64_t b, int64_t e) {
            float buf[N][kBlock], res[kBlock];
            for (int64_t s = b; s < e; s += kBlock) {
                const int64_t n = std::min(kBlock, e - s);
                loadBlock<T, N>(ins, period, s, n, buf);
                evalBlock<N>(buf, n, res, f);
                for (int64_t j = 0; j < n; ++j) o[s + j] = T(res[j]);
            }
        });
        return;
    }
    std::array<const TensorView*, N + 1> ops;
    ops[0] = &out;
    for (size_t k = 0; k < N; ++k) ops[k + 1] = ins[k];
    StridedPlan<N + 1> plan(out.shape, ops);
    plan.runAll([&](char** p, int64_t n, const int64_t* s) {
        std::array<char*, N + 1> q;
        for (size_t k = 0; k <= N; ++k) q[k] = p[k];
        float v[N];
        for (int64_t i = 0; i < n; ++i) {
            for (size_t k = 0; k < N; ++k) v[k] = float(*reinterpret_cast<const T*>(q[k + 1]));
            *reinterpret_cast<T*>(q[0]) = T(f(v));
            for (size_t k = 0; k <= N; ++k) q[k] += s[k];
        }
    });
}

/// Sum over the broadcast shape of f(v), accumulated in double; the split
/// into chunks does not depend on the thread count (reproducible sums).
template <class T, size_t N, class F>
double sumLoss(const Shape& shape, const std::array<const TensorView*, N>& ins, F f) {
    int64_t numel = shapeNumel(shape);
    if (numel == 0) return 0.0;
    int64_t chunks = std::max<int64_t>(1, std::min<int64_t>(64, numel / kParallelGrain));
    std::vector<double> part(chunks, 0.0);
    std::array<int64_t, N> period;
    if (periodic(shape, ins, period)) {
        parallelFor(chunks, 2, [&](int64_t cb, int64_t ce) {
            float buf[N][kBlock], res[kBlock];
            for (int64_t c = cb; c < ce; ++c) {
                double acc[4] = {0, 0, 0, 0};  // independent chains: the adds do not serialise
                const int64_t b = numel * c / chunks, e = numel * (c + 1) / chunks;
                for (int64_t s = b; s < e; s += kBlock) {
                    const int64_t n = std::min(kBlock, e - s);
                    loadBlock<T, N>(ins, period, s, n, buf);
                    evalBlock<N>(buf, n, res, f);
                    int64_t j = 0;
                    for (; j + 4 <= n; j += 4)
                        for (int q = 0; q < 4; ++q) acc[q] += res[j + q];
                    for (; j < n; ++j) acc[0] += res[j];
                }
                part[c] = (acc[0] + acc[1]) + (acc[2] + acc[3]);
            }
        });
    } else {
        StridedPlan<N> plan(shape, ins);
        parallelFor(chunks, 2, [&](int64_t cb, int64_t ce) {
            for (int64_t c = cb; c < ce; ++c) {
                double acc = 0.0;
                plan.run(numel * c / chunks, numel * (c + 1) / chunks, [&](char** p, int64_t n, const int64_t* s) {
                    std::array<char*, N> q;
                    for (size_t k = 0; k < N; ++k) q[k] = p[k];
                    float v[N];
                    for (int64_t i = 0; i < n; ++i) {
                        for (size_t k = 0; k < N; ++k) v[k] = float(*reinterpret_cast<const T*>(q[k]));
                        acc += double(f(v));
                        for (size_t k = 0; k < N; ++k) q[k] += s[k];
                    }
                });
                part[c] = acc;
            }
        });
    }
    double total = 0.0;
    for (double x : part) total += x;
    return total;
}

/// Writes `v` into the single element of `out` (any dtype, rounded once).
void writeScalar(diopiContextHandle_t ctx, const TensorView& out, double v) {
    TensorView tmp = newTensor(ctx, {}, diopi_dtype_float64);
    *tmp.ptr<double>() = v;
    copyCast(out.restrided({}, {}), tmp);
}

/// A 0-d tensor of value 1 in `dtype`: stands in for an absent weight (it broadcasts).
TensorView onesScalar(diopiContextHandle_t ctx, diopiDtype_t dtype) {
    TensorView t = newTensor(ctx, {}, dtype);
    writeScalar(ctx, t, 1.0);
    return t;
}

/// Forward of an elementwise loss: `ins` (input first) broadcast together;
/// f(v) is the per-element loss.
template <size_t N, class F>
void elementwiseLossForward(diopiContextHandle_t ctx, const TensorView& out, std::array<TensorView, N> ins, Red red, F f) {
    needFloat(ins[0], "input");
    diopiDtype_t dt = out.dtype;
    needFloat(out, "out");
    Shape bshape = ins[0].shape;
    for (size_t k = 1; k < N; ++k) bshape = broadcastShapes(bshape, ins[k].shape);
    for (size_t k = 0; k < N; ++k) ins[k] = castTo(ctx, ins[k], dt);
    std::array<const TensorView*, N> ptrs;
    for (size_t k = 0; k < N; ++k) ptrs[k] = &ins[k];
    if (red == Red::None) {
        CPU_CHECK(out.shape == bshape, "out has shape ", shapeStr(out.shape), ", expected ", shapeStr(bshape));
    } else {
        checkScalarOut(out, "out");
    }
    dispatch<FloatTypes>(dt, "out", [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (red == Red::None) {
            mapLoss<T, N>(out, ptrs, f);
            return;
        }
        double s = sumLoss<T, N>(bshape, ptrs, f);
        if (red == Red::Mean) s /= double(shapeNumel(bshape));
        writeScalar(ctx, out, s);
    });
}

/// Backward of an elementwise loss: grad_input = d(v) * grad_output (/ count
/// for mean), summed back to input's shape when the inputs broadcast.
/// `ins` are the forward operands (input first); d(v) gets v[0] = grad_output.
template <size_t N, class F>
void elementwiseLossBackward(diopiContextHandle_t ctx, const TensorView& gradIn, const TensorView& gradOut, std::array<TensorView, N> ins,
                             Red red, F d) {
    needFloat(ins[0], "input");
    needFloat(gradIn, "grad_input");
    diopiDtype_t dt = gradIn.dtype;
    CPU_CHECK(gradIn.shape == ins[0].shape, "grad_input has shape ", shapeStr(gradIn.shape), ", expected input's ", shapeStr(ins[0].shape));
    Shape bshape = ins[0].shape;
    for (size_t k = 1; k < N; ++k) bshape = broadcastShapes(bshape, ins[k].shape);
    TensorView go = castTo(ctx, gradOut, dt);
    if (red == Red::None) {
        CPU_CHECK(go.shape == bshape, "grad_output has shape ", shapeStr(go.shape), ", expected ", shapeStr(bshape));
    } else {
        CPU_CHECK(go.numel == 1, "grad_output must hold one element for mean/sum reduction, got shape ", shapeStr(go.shape));
        go = go.restrided({}, {});
    }
    for (size_t k = 0; k < N; ++k) ins[k] = castTo(ctx, ins[k], dt);
    std::array<const TensorView*, N + 1> ptrs;
    ptrs[0] = &go;
    for (size_t k = 0; k < N; ++k) ptrs[k + 1] = &ins[k];
    const float scale = red == Red::Mean ? float(1.0 / double(shapeNumel(bshape))) : 1.0f;
    auto g = [d, scale](const float* v) { return d(v) * v[0] * scale; };
    if (bshape == gradIn.shape) {
        dispatch<FloatTypes>(dt, "grad_input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            mapLoss<T, N + 1>(gradIn, ptrs, g);
        });
        return;
    }
    // Broadcast input: compute over the broadcast shape in float, then sum
    // over the broadcast dims into grad_input.
    TensorView full = newTensor(ctx, bshape, diopi_dtype_float32);
    {
        // mapLoss reads every operand as one type: bring them to float.
        std::array<TensorView, N + 1> cast;
        std::array<const TensorView*, N + 1> ops;
        for (size_t k = 0; k <= N; ++k) {
            cast[k] = castTo(ctx, *ptrs[k], diopi_dtype_float32);
            ops[k] = &cast[k];
        }
        mapLoss<float, N + 1>(full, ops, g);
    }
    const int64_t nd = (int64_t)bshape.size(), off = nd - gradIn.dim();
    std::vector<bool> mask(nd, false);
    Shape st(nd, 0);
    for (int64_t k = 0; k < nd; ++k) {
        if (k < off) {
            mask[k] = true;
        } else {
            mask[k] = gradIn.shape[k - off] == 1 && bshape[k] != 1;
            st[k] = gradIn.strides[k - off];
        }
    }
    TensorView o = gradIn.restrided(keptShape(full, mask), st);
    dispatch<FloatTypes>(dt, "grad_input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        reduceLoop<1>({&o}, full, mask, [&](char** po, const char* base, const ReduceWindow& w) {
            double acc = 0;
            w.each(base, [&](const char* p, int64_t) { acc += *reinterpret_cast<const float*>(p); });
            *reinterpret_cast<T*>(po[0]) = T(float(acc));
        });
    });
}

// ---- per-element formulas (float). With e = exp(-|x|) (one exp per element):
// log(1 + exp(-x)) = log1p(e) + max(-x, 0) and sigmoid(x) = 1/(1+e) or e/(1+e).
struct Logit {
    float lsn, sig;  // log(1 + exp(-x)), sigmoid(x)
    explicit Logit(float x) {
        const float e = std::exp(-std::fabs(x)), r = 1.0f / (1.0f + e);
        lsn = std::log1p(e) + std::max(-x, 0.0f);
        sig = x >= 0 ? r : e * r;
    }
};

// BCE with logits: (1 - t) x + (1 + (pw - 1) t) log(1 + exp(-x)), times w.
inline float bceLogitsTerm(float x, float t, float w, float pw) {
    return w * ((1.0f - t) * x + (1.0f + (pw - 1.0f) * t) * Logit(x).lsn);
}
inline float bceLogitsGrad(float x, float t, float w, float pw) {
    const float pt = pw * t;
    return w * ((pt + 1.0f - t) * Logit(x).sig - pt);
}

// u^g with the common focusing exponents done without pow().
inline float powGamma(float u, float g) {
    if (g == 2.0f) return u * u;
    if (g == 1.0f) return u;
    if (g == 0.0f) return 1.0f;
    return std::pow(u, g);
}

// Sigmoid focal loss term and its derivative (alpha < 0 drops the alpha weighting).
inline float focalTerm(float x, float t, float alpha, float gamma) {
    const Logit lg(x);
    const float p = lg.sig, ce = (1.0f - t) * x + lg.lsn;
    const float pt = p * t + (1.0f - p) * (1.0f - t);
    float loss = ce * powGamma(1.0f - pt, gamma);
    if (alpha >= 0) loss *= alpha * t + (1.0f - alpha) * (1.0f - t);
    return loss;
}
inline float focalGrad(float x, float t, float alpha, float gamma) {
    const Logit lg(x);
    const float p = lg.sig, ce = (1.0f - t) * x + lg.lsn;
    const float pt = p * t + (1.0f - p) * (1.0f - t);
    const float m = powGamma(1.0f - pt, gamma);
    const float dm = gamma == 0 ? 0.0f : -gamma * powGamma(1.0f - pt, gamma - 1.0f) * (2.0f * t - 1.0f) * p * (1.0f - p);
    float d = (p - t) * m + ce * dm;
    if (alpha >= 0) d *= alpha * t + (1.0f - alpha) * (1.0f - t);
    return d;
}

// Written without data-dependent selects between trapping arithmetic, so the
// loops vectorise (random inputs would mispredict a branch half the time).
// ib = 1 / beta; beta = 0 (plain L1) has its own formulas.
// loss: with m = min(|d|, beta), m * (|d| - m / 2) / beta.
inline float smoothL1(float d, float beta, float ib) {
    const float a = std::fabs(d), m = std::min(a, beta);
    return m * (a - 0.5f * m) * ib;
}
// gradient: d / beta clamped to [-1, 1]
// (q / max(|q|, 1) is q inside the quadratic zone and sign(q) outside; the
// max is written with fabs only, which the compiler vectorises here where it
// keeps a compare-and-branch.)
inline float smoothL1Grad(float d, float ib) {
    const float q = d * ib, a = std::fabs(q);
    return q / (0.5f * (a + 1.0f + std::fabs(a - 1.0f)));
}
inline float signF(float d) { return float(d > 0) - float(d < 0); }

TensorView weightOr1(diopiContextHandle_t ctx, diopiConstTensorHandle_t h, const TensorView& like, const char* name) {
    if (!h) return onesScalar(ctx, like.dtype);
    TensorView w = view(h, name);
    needFloat(w, name);
    return w;
}

}  // namespace

// ---------------------------------------------------------------- mse
diopiError_t diopiMSELoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                          diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        elementwiseLossForward<2>(ctx, view(out, "out"), {view(input, "input"), view(target, "target")}, red, [](const float* v) {
            float d = v[0] - v[1];
            return d * d;
        });
    });
}

diopiError_t diopiMSELossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        elementwiseLossBackward<2>(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"),
                                   {view(input, "input"), view(target, "target")}, red,
                                   [](const float* v) { return 2.0f * (v[1] - v[2]); });
    });
}

// ---------------------------------------------------------------- smooth L1
diopiError_t diopiSmoothL1Loss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                               diopiReduction_t reduction, double beta) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        CPU_CHECK(beta >= 0, "beta must be non-negative, got ", beta);
        const float b = float(beta), ib = 1.0f / b;
        std::array<TensorView, 2> ins{view(input, "input"), view(target, "target")};
        if (b == 0.0f)
            elementwiseLossForward<2>(ctx, view(out, "out"), ins, red, [](const float* v) { return std::fabs(v[0] - v[1]); });
        else
            elementwiseLossForward<2>(ctx, view(out, "out"), ins, red, [b, ib](const float* v) { return smoothL1(v[0] - v[1], b, ib); });
    });
}

diopiError_t diopiSmoothL1LossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                       diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiReduction_t reduction, double beta) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        CPU_CHECK(beta >= 0, "beta must be non-negative, got ", beta);
        const float b = float(beta), ib = 1.0f / b;
        std::array<TensorView, 2> ins{view(input, "input"), view(target, "target")};
        TensorView gi = view(grad_input, "grad_input"), go = view(grad_output, "grad_output");
        if (b == 0.0f)
            elementwiseLossBackward<2>(ctx, gi, go, ins, red, [](const float* v) { return signF(v[1] - v[2]); });
        else
            elementwiseLossBackward<2>(ctx, gi, go, ins, red, [ib](const float* v) { return smoothL1Grad(v[1] - v[2], ib); });
    });
}

// ---------------------------------------------------------------- binary cross entropy
// Log terms are clamped at -100 (finite loss at 0 and 1); the gradient's
// denominator is kept away from 0 by 1e-12.
diopiError_t diopiBCELoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                          diopiConstTensorHandle_t weight, diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView x = view(input, "input"), t = view(target, "target");
        CPU_CHECK(x.shape == t.shape, "target shape ", shapeStr(t.shape), " differs from input shape ", shapeStr(x.shape));
        TensorView w = weightOr1(ctx, weight, x, "weight");
        CPU_CHECK(broadcastShapes(x.shape, w.shape) == x.shape, "weight shape ", shapeStr(w.shape), " does not broadcast to input");
        elementwiseLossForward<3>(ctx, view(out, "out"), {x, t, w}, red, [](const float* v) {
            float lx = std::max(std::log(v[0]), -100.0f), l1x = std::max(std::log1p(-v[0]), -100.0f);
            return -v[2] * (v[1] * lx + (1.0f - v[1]) * l1x);
        });
    });
}

diopiError_t diopiBCELossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                  diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView x = view(input, "input"), t = view(target, "target");
        CPU_CHECK(x.shape == t.shape, "target shape ", shapeStr(t.shape), " differs from input shape ", shapeStr(x.shape));
        TensorView w = weightOr1(ctx, weight, x, "weight");
        CPU_CHECK(broadcastShapes(x.shape, w.shape) == x.shape, "weight shape ", shapeStr(w.shape), " does not broadcast to input");
        elementwiseLossBackward<3>(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), {x, t, w}, red, [](const float* v) {
            float xi = v[1];
            return v[3] * (xi - v[2]) / std::max((1.0f - xi) * xi, 1e-12f);
        });
    });
}

// ---------------------------------------------------------------- binary cross entropy with logits
diopiError_t diopiBCEWithLogits(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                                diopiConstTensorHandle_t weight, diopiConstTensorHandle_t pos_weight, diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView x = view(input, "input"), t = view(target, "target");
        TensorView w = weightOr1(ctx, weight, x, "weight"), pw = weightOr1(ctx, pos_weight, x, "pos_weight");
        elementwiseLossForward<4>(ctx, view(out, "out"), {x, t, w, pw}, red,
                                  [](const float* v) { return bceLogitsTerm(v[0], v[1], v[2], v[3]); });
    });
}

diopiError_t diopiBCEWithLogitsBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                        diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                        diopiConstTensorHandle_t pos_weight, diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView x = view(input, "input"), t = view(target, "target");
        TensorView w = weightOr1(ctx, weight, x, "weight"), pw = weightOr1(ctx, pos_weight, x, "pos_weight");
        elementwiseLossBackward<4>(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), {x, t, w, pw}, red,
                                   [](const float* v) { return bceLogitsGrad(v[1], v[2], v[3], v[4]); });
    });
}

// ---------------------------------------------------------------- sigmoid focal loss
diopiError_t diopiSigmoidFocalLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t inputs, diopiConstTensorHandle_t targets,
                                   float alpha, float gamma, diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        CPU_CHECK(gamma >= 0, "gamma must be non-negative, got ", gamma);
        TensorView x = view(inputs, "inputs"), t = view(targets, "targets");
        CPU_CHECK(x.shape == t.shape, "targets shape ", shapeStr(t.shape), " differs from inputs shape ", shapeStr(x.shape));
        elementwiseLossForward<2>(ctx, view(out, "out"), {x, t}, red,
                                  [alpha, gamma](const float* v) { return focalTerm(v[0], v[1], alpha, gamma); });
    });
}

// grad_output is only read (the header declares it non-const).
diopiError_t diopiSigmoidFocalLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                           diopiConstTensorHandle_t target, diopiTensorHandle_t grad_input, float gamma, float alpha,
                                           diopiReduction_t reduction) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        CPU_CHECK(gamma >= 0, "gamma must be non-negative, got ", gamma);
        TensorView x = view(input, "input"), t = view(target, "target");
        CPU_CHECK(x.shape == t.shape, "target shape ", shapeStr(t.shape), " differs from input shape ", shapeStr(x.shape));
        elementwiseLossBackward<2>(ctx, view(grad_input, "grad_input"), view(grad_output, "grad_output"), {x, t}, red,
                                   [alpha, gamma](const float* v) { return focalGrad(v[1], v[2], alpha, gamma); });
    });
}

// ---------------------------------------------------------------- class losses (nll, cross entropy)
namespace {

/// input (C), (N, C) or (N, C, d1, ...) seen as [outer, C, inner] rows:
/// position p = n * inner + i; class c of position p at
/// base + n * sN + c * sC + i-th inner offset. Everything is made dense first.
struct ClassProblem {
    TensorView x;       // dense float32 copy of input
    int64_t N = 1, C = 0, inner = 1;
    Shape posShape;     // shape of a per-position tensor (target for index targets)
    int64_t positions() const { return N * inner; }
    const float* at(int64_t p) const { return x.ptr<float>() + (p / inner) * C * inner + p % inner; }
};

ClassProblem classProblem(diopiContextHandle_t ctx, const TensorView& in) {
    needFloat(in, "input");
    CPU_CHECK(in.dim() >= 1, "input must have a class dimension");
    ClassProblem cp;
    cp.x = contiguousAs(ctx, in, diopi_dtype_float32);
    if (in.dim() == 1) {
        cp.C = in.shape[0];
    } else {
        cp.N = in.shape[0];
        cp.C = in.shape[1];
        for (int64_t d = 2; d < in.dim(); ++d) cp.inner *= in.shape[d];
        cp.posShape.push_back(cp.N);
        for (int64_t d = 2; d < in.dim(); ++d) cp.posShape.push_back(in.shape[d]);
    }
    return cp;
}

/// Dense int32 class indices; checks the shape and the range (ignore_index excepted).
std::vector<int32_t> classTargets(diopiContextHandle_t ctx, const TensorView& t, const ClassProblem& cp, int64_t ignoreIndex) {
    if (isFloatingDtype(t.dtype) || t.dtype == diopi_dtype_bool)
        failCode(diopiDtypeNotSupported, "target must hold integer class indices, got ", dtypeName(t.dtype));
    CPU_CHECK(t.shape == cp.posShape, "target has shape ", shapeStr(t.shape), ", expected ", shapeStr(cp.posShape));
    TensorView d = contiguousAs(ctx, t, diopi_dtype_int32);
    std::vector<int32_t> v(d.ptr<int32_t>(), d.ptr<int32_t>() + d.numel);
    for (int32_t y : v)
        if (y != ignoreIndex && (y < 0 || y >= cp.C)) fail("target holds class index ", y, " out of range [0, ", cp.C, ")");
    return v;
}

std::vector<float> classWeights(diopiContextHandle_t ctx, diopiConstTensorHandle_t h, int64_t C) {
    if (!h) return std::vector<float>(C, 1.0f);
    TensorView w = view(h, "weight");
    needFloat(w, "weight");
    CPU_CHECK(w.dim() == 1 && w.shape[0] == C, "weight must have shape [", C, "], got ", shapeStr(w.shape));
    TensorView d = contiguousAs(ctx, w, diopi_dtype_float32);
    return std::vector<float>(d.ptr<float>(), d.ptr<float>() + C);
}

/// Writes per-position values `loss` (positions of cp) to out: as they are
/// for none, else their sum divided by `denom`.
void writeClassLoss(diopiContextHandle_t ctx, const TensorView& out, const ClassProblem& cp, const std::vector<float>& loss, Red red,
                    double denom) {
    if (red == Red::None) {
        CPU_CHECK(out.shape == cp.posShape, "out has shape ", shapeStr(out.shape), ", expected ", shapeStr(cp.posShape));
        TensorView tmp = newTensor(ctx, cp.posShape, diopi_dtype_float32);
        std::copy(loss.begin(), loss.end(), tmp.ptr<float>());
        copyCast(out, tmp);
        return;
    }
    checkScalarOut(out, "out");
    double s = 0;
    for (float v : loss) s += v;
    if (red == Red::Mean) s /= denom;
    writeScalar(ctx, out, s);
}

/// grad_output per position (none) or the single value (mean/sum), as float.
std::vector<float> classGradOut(diopiContextHandle_t ctx, const TensorView& go, const ClassProblem& cp, Red red) {
    needFloat(go, "grad_output");
    if (red == Red::None) {
        CPU_CHECK(go.shape == cp.posShape, "grad_output has shape ", shapeStr(go.shape), ", expected ", shapeStr(cp.posShape));
    } else {
        CPU_CHECK(go.numel == 1, "grad_output must hold one element for mean/sum reduction, got shape ", shapeStr(go.shape));
    }
    TensorView d = contiguousAs(ctx, go, diopi_dtype_float32);
    return std::vector<float>(d.ptr<float>(), d.ptr<float>() + d.numel);
}

/// Writes a dense float [N, C, inner] gradient into grad_input (any strides/dtype).
TensorView classGradTemp(diopiContextHandle_t ctx, const TensorView& gradIn, const TensorView& in) {
    needFloat(gradIn, "grad_input");
    CPU_CHECK(gradIn.shape == in.shape, "grad_input has shape ", shapeStr(gradIn.shape), ", expected input's ", shapeStr(in.shape));
    // A dense float32 grad_input is written directly (finishClassGrad then has nothing to copy).
    if (gradIn.dtype == diopi_dtype_float32 && gradIn.isContiguous()) return gradIn;
    return newTensor(ctx, in.shape, diopi_dtype_float32);
}

void finishClassGrad(const TensorView& gradIn, const TensorView& g) {
    if (g.data != gradIn.data) copyCast(gradIn, g);
}

void nllForward(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t totalWeight, diopiConstTensorHandle_t input,
                diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, diopiReduction_t reduction, int64_t ignoreIndex) {
    Red red = reductionOf(reduction);
    TensorView o = view(out, "out");
    ClassProblem cp = classProblem(ctx, view(input, "input"));
    std::vector<int32_t> y = classTargets(ctx, view(target, "target"), cp, ignoreIndex);
    std::vector<float> w = classWeights(ctx, weight, cp.C);
    const int64_t P = cp.positions();
    std::vector<float> loss(P, 0.0f);
    double tw = 0;
    for (int64_t p = 0; p < P; ++p) {
        if (y[p] == ignoreIndex) continue;
        float wy = w[y[p]];
        loss[p] = -wy * cp.at(p)[y[p] * cp.inner];
        tw += wy;
    }
    writeClassLoss(ctx, o, cp, loss, red, tw);
    if (totalWeight) {
        TensorView t = view(totalWeight, "totalWeight");
        CPU_CHECK(t.numel == 1, "totalWeight must hold one element, got shape ", shapeStr(t.shape));
        writeScalar(ctx, t, tw);
    }
}

void nllBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                 diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, const double* totalWeight, diopiReduction_t reduction,
                 int64_t ignoreIndex) {
    Red red = reductionOf(reduction);
    TensorView in = view(input, "input"), gi = view(grad_input, "grad_input");
    ClassProblem cp = classProblem(ctx, in);
    std::vector<int32_t> y = classTargets(ctx, view(target, "target"), cp, ignoreIndex);
    std::vector<float> w = classWeights(ctx, weight, cp.C);
    std::vector<float> go = classGradOut(ctx, view(grad_output, "grad_output"), cp, red);
    TensorView g = classGradTemp(ctx, gi, in);
    std::fill(g.ptr<float>(), g.ptr<float>() + g.numel, 0.0f);
    const int64_t P = cp.positions();
    double tw = 0;
    if (red == Red::Mean) {
        if (totalWeight) {
            tw = *totalWeight;
        } else {
            for (int64_t p = 0; p < P; ++p)
                if (y[p] != ignoreIndex) tw += w[y[p]];
        }
    }
    for (int64_t p = 0; p < P; ++p) {
        if (y[p] == ignoreIndex) continue;
        double v = -double(w[y[p]]) * go[red == Red::None ? p : 0];
        if (red == Red::Mean) v /= tw;
        g.ptr<float>()[(p / cp.inner) * cp.C * cp.inner + y[p] * cp.inner + p % cp.inner] = float(v);
    }
    finishClassGrad(gi, g);
}

/// Cross entropy pieces shared by forward and backward: per position the
/// log-softmax over classes (lse = log sum exp) and the target coefficients.
struct CeSetup {
    ClassProblem cp;
    bool probs = false;
    std::vector<int32_t> y;   // index targets
    TensorView t;             // dense float probability targets, input's layout
    std::vector<float> w;
    double eps = 0;
};

CeSetup ceSetup(diopiContextHandle_t ctx, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                int64_t ignoreIndex, double smoothing) {
    CPU_CHECK(smoothing >= 0 && smoothing <= 1, "label_smoothing must lie in [0, 1], got ", smoothing);
    CeSetup s;
    TensorView in = view(input, "input");
    s.cp = classProblem(ctx, in);
    TensorView t = view(target, "target");
    s.probs = isFloatingDtype(t.dtype);
    if (s.probs) {
        CPU_CHECK(t.shape == in.shape, "probability target has shape ", shapeStr(t.shape), ", expected input's ", shapeStr(in.shape));
        s.t = contiguousAs(ctx, t, diopi_dtype_float32);
    } else {
        s.y = classTargets(ctx, t, s.cp, ignoreIndex);
    }
    s.w = classWeights(ctx, weight, s.cp.C);
    s.eps = smoothing;
    return s;
}

/// Per position p: coef[c] (the weight of -log p_c in the loss) into `coef`;
/// returns false for an ignored position (all coefficients zero).
bool ceCoef(const CeSetup& s, int64_t p, int64_t ignoreIndex, double* coef) {
    const int64_t C = s.cp.C, inner = s.cp.inner;
    if (s.probs) {
        const float* tp = s.t.ptr<float>() + (p / inner) * C * inner + p % inner;
        for (int64_t c = 0; c < C; ++c) coef[c] = (double(tp[c * inner]) * (1 - s.eps) + s.eps / C) * s.w[c];
        return true;
    }
    int32_t y = s.y[p];
    if (y == ignoreIndex) {
        for (int64_t c = 0; c < C; ++c) coef[c] = 0;
        return false;
    }
    for (int64_t c = 0; c < C; ++c) coef[c] = s.eps / C * s.w[c];
    coef[y] += (1 - s.eps) * s.w[y];
    return true;
}

/// The mean-reduction divisor: summed target weight of valid positions
/// (index targets) or the position count (probabilities).
double ceDenom(const CeSetup& s, int64_t ignoreIndex) {
    if (s.probs) return double(s.cp.positions());
    double d = 0;
    for (int32_t y : s.y)
        if (y != ignoreIndex) d += s.w[y];
    return d;
}

/// e[c] = exp(x[c] - max) in float; returns log sum exp(x) (sum in double).
double expShifted(const float* x, int64_t C, int64_t stride, float* e, double* sumOut) {
    float m = -INFINITY;
    for (int64_t c = 0; c < C; ++c) m = std::max(m, x[c * stride]);
    if (m == -INFINITY) m = 0;  // every logit -inf: leave the result to IEEE arithmetic
    double s = 0;
    for (int64_t c = 0; c < C; ++c) {
        e[c] = std::exp(x[c * stride] - m);
        s += e[c];
    }
    *sumOut = s;
    return m + std::log(s);
}

}  // namespace

diopiError_t diopiNLLLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                          diopiConstTensorHandle_t weight, diopiReduction_t reduction, int64_t ignore_index) {
    return guard(__func__, [&] { nllForward(ctx, out, nullptr, input, target, weight, reduction, ignore_index); });
}

diopiError_t diopiNLLLossV2(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t totalWeight, diopiConstTensorHandle_t input,
                            diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, diopiReduction_t reduction, int64_t ignore_index) {
    return guard(__func__, [&] {
        CPU_CHECK(totalWeight, "totalWeight is NULL");
        nllForward(ctx, out, totalWeight, input, target, weight, reduction, ignore_index);
    });
}

diopiError_t diopiNLLLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                  diopiReduction_t reduction, int64_t ignore_index) {
    return guard(__func__, [&] { nllBackward(ctx, grad_input, grad_output, input, target, weight, nullptr, reduction, ignore_index); });
}

diopiError_t diopiNLLLossV2Backward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                    diopiConstTensorHandle_t totalWeight, diopiReduction_t reduction, int64_t ignore_index) {
    return guard(__func__, [&] {
        TensorView t = view(totalWeight, "totalWeight");
        CPU_CHECK(t.numel == 1, "totalWeight must hold one element, got shape ", shapeStr(t.shape));
        TensorView d = newTensor(ctx, {}, diopi_dtype_float64);
        copyCast(d, t.restrided({}, {}));
        double tw = *d.ptr<double>();
        nllBackward(ctx, grad_input, grad_output, input, target, weight, &tw, reduction, ignore_index);
    });
}

// loss(p) = sum_c coef[c] * (lse - x[c]); mean divides the sum by ceDenom.
diopiError_t diopiCrossEntropyLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                                   diopiConstTensorHandle_t weight, diopiReduction_t reduction, int64_t ignore_index, double label_smoothing) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView o = view(out, "out");
        CeSetup s = ceSetup(ctx, input, target, weight, ignore_index, label_smoothing);
        const int64_t P = s.cp.positions(), C = s.cp.C, inner = s.cp.inner;
        std::vector<float> loss(P, 0.0f);
        std::atomic<bool> oom{false};
        parallelFor(P, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(C, 1)), [&](int64_t b, int64_t e) {
            // Scratch per chunk; an allocation failure must not escape an OpenMP thread.
            std::vector<double> coef;
            std::vector<float> ex;
            try {
                coef.resize(C);
                ex.resize(C);
            } catch (...) {
                oom = true;
                return;
            }
            for (int64_t p = b; p < e; ++p) {
                if (!ceCoef(s, p, ignore_index, coef.data())) continue;
                const float* x = s.cp.at(p);
                double sum, lse = expShifted(x, C, inner, ex.data(), &sum), acc = 0;
                for (int64_t c = 0; c < C; ++c) acc += coef[c] * (lse - x[c * inner]);
                loss[p] = float(acc);
            }
        });
        CPU_CHECK(!oom, "out of host memory");
        writeClassLoss(ctx, o, s.cp, loss, red, red == Red::Mean ? ceDenom(s, ignore_index) : 1.0);
    });
}

// d loss / d x[c] = G * (softmax[c] * sum_c' coef[c'] - coef[c]) with G = grad_output / denom.
diopiError_t diopiCrossEntropyLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                           diopiReduction_t reduction, int64_t ignore_index, double label_smoothing) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView in = view(input, "input"), gi = view(grad_input, "grad_input");
        CeSetup s = ceSetup(ctx, input, target, weight, ignore_index, label_smoothing);
        std::vector<float> go = classGradOut(ctx, view(grad_output, "grad_output"), s.cp, red);
        TensorView g = classGradTemp(ctx, gi, in);
        const int64_t P = s.cp.positions(), C = s.cp.C, inner = s.cp.inner;
        double denom = red == Red::Mean ? ceDenom(s, ignore_index) : 1.0;
        float* gp = g.ptr<float>();
        std::atomic<bool> oom{false};
        parallelFor(P, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(C, 1)), [&](int64_t b, int64_t e) {
            // Scratch per chunk; an allocation failure must not escape an OpenMP thread.
            std::vector<double> coef;
            std::vector<float> ex;
            try {
                coef.resize(C);
                ex.resize(C);
            } catch (...) {
                oom = true;
                return;
            }
            for (int64_t p = b; p < e; ++p) {
                float* gx = gp + (p / inner) * C * inner + p % inner;
                bool valid = ceCoef(s, p, ignore_index, coef.data());
                // Every target ignored under mean: 0/0 loss, zero gradient.
                if (!valid || denom == 0) {
                    for (int64_t c = 0; c < C; ++c) gx[c * inner] = 0.0f;
                    continue;
                }
                const float* x = s.cp.at(p);
                double esum, sum = 0;
                expShifted(x, C, inner, ex.data(), &esum);
                for (int64_t c = 0; c < C; ++c) sum += coef[c];
                const double G = double(go[red == Red::None ? p : 0]) / denom, k = sum / esum;
                for (int64_t c = 0; c < C; ++c) gx[c * inner] = float(G * (ex[c] * k - coef[c]));
            }
        });
        CPU_CHECK(!oom, "out of host memory");
        finishClassGrad(gi, g);
    });
}

// ---------------------------------------------------------------- CTC
namespace {

/// CTC problem in double: log_probs (T, N, C), per-sample targets and lengths.
struct Ctc {
    int64_t T = 0, N = 0, C = 0, blank = 0, S = 0;  // S: max extended length 2 * max target length + 1
    std::vector<double> lp;                          // [T][N][C]
    std::vector<std::vector<int32_t>> targets;
    std::vector<int64_t> il, tl;
    double at(int64_t t, int64_t n, int64_t c) const { return lp[(t * N + n) * C + c]; }
    int64_t label(int64_t n, int64_t s) const { return s % 2 == 0 ? blank : targets[n][s / 2]; }
};

std::vector<int64_t> intsOf(diopiContextHandle_t ctx, const TensorView& t, const char* name) {
    if (isFloatingDtype(t.dtype) || t.dtype == diopi_dtype_bool) failCode(diopiDtypeNotSupported, name, " must hold integers, got ", dtypeName(t.dtype));
    TensorView d = contiguousAs(ctx, t, diopi_dtype_int32);
    return std::vector<int64_t>(d.ptr<int32_t>(), d.ptr<int32_t>() + d.numel);
}

Ctc ctcSetup(diopiContextHandle_t ctx, diopiConstTensorHandle_t logProbs, diopiConstTensorHandle_t targets, diopiConstTensorHandle_t inputLengths,
             diopiConstTensorHandle_t targetLengths, int64_t blank) {
    Ctc p;
    TensorView lp = view(logProbs, "log_probs");
    needFloat(lp, "log_probs");
    CPU_CHECK(lp.dim() == 3, "log_probs must be (T, N, C), got shape ", shapeStr(lp.shape));
    p.T = lp.shape[0];
    p.N = lp.shape[1];
    p.C = lp.shape[2];
    p.blank = blank;
    CPU_CHECK(blank >= 0 && blank < p.C, "blank ", blank, " is out of range [0, ", p.C, ")");
    TensorView d = contiguousAs(ctx, lp, diopi_dtype_float32);
    p.lp.assign(d.ptr<float>(), d.ptr<float>() + d.numel);
    TensorView tg = view(targets, "targets");
    p.il = intsOf(ctx, view(inputLengths, "input_lengths"), "input_lengths");
    p.tl = intsOf(ctx, view(targetLengths, "target_lengths"), "target_lengths");
    CPU_CHECK((int64_t)p.il.size() == p.N && (int64_t)p.tl.size() == p.N, "input_lengths and target_lengths need one entry per batch element");
    std::vector<int64_t> tv = intsOf(ctx, tg, "targets");
    int64_t maxL = 0, off = 0;
    for (int64_t n = 0; n < p.N; ++n) {
        CPU_CHECK(p.il[n] >= 0 && p.il[n] <= p.T, "input_lengths must lie in [0, T]");
        CPU_CHECK(p.tl[n] >= 0, "target_lengths must not be negative");
        maxL = std::max(maxL, p.tl[n]);
        std::vector<int32_t> t(p.tl[n]);
        if (tg.dim() == 2) {
            CPU_CHECK(tg.shape[0] == p.N && p.tl[n] <= tg.shape[1], "padded targets must be (N, S) with S >= every target length");
            for (int64_t k = 0; k < p.tl[n]; ++k) t[k] = int32_t(tv[n * tg.shape[1] + k]);
        } else {
            CPU_CHECK(tg.dim() == 1, "targets must be 1-d (concatenated) or 2-d (padded)");
            CPU_CHECK(off + p.tl[n] <= tg.numel, "concatenated targets are shorter than the sum of target_lengths");
            for (int64_t k = 0; k < p.tl[n]; ++k) t[k] = int32_t(tv[off + k]);
            off += p.tl[n];
        }
        for (int32_t c : t) CPU_CHECK(c >= 0 && c < p.C, "target class ", c, " is out of range [0, ", p.C, ")");
        p.targets.push_back(std::move(t));
    }
    p.S = 2 * maxL + 1;
    return p;
}

inline double logAdd(double a, double b) {
    if (a == -INFINITY) return b;
    if (b == -INFINITY) return a;
    double m = std::max(a, b);
    return m + std::log(std::exp(a - m) + std::exp(b - m));
}

/// Forward variables of sample n: alpha[t * S + s] (-inf where undefined); returns the negative log likelihood.
double ctcAlpha(const Ctc& p, int64_t n, std::vector<double>& alpha) {
    const int64_t S = p.S, Sn = 2 * p.tl[n] + 1, Tn = p.il[n];
    alpha.assign(p.T * S, -INFINITY);
    if (Tn == 0) return Sn == 1 ? 0.0 : INFINITY;
    alpha[0] = p.at(0, n, p.blank);
    if (Sn > 1) alpha[1] = p.at(0, n, p.label(n, 1));
    for (int64_t t = 1; t < Tn; ++t) {
        for (int64_t s = 0; s < Sn; ++s) {
            const int64_t l = p.label(n, s);
            double a = alpha[(t - 1) * S + s];
            if (s >= 1) a = logAdd(a, alpha[(t - 1) * S + s - 1]);
            if (s >= 2 && l != p.blank && l != p.label(n, s - 2)) a = logAdd(a, alpha[(t - 1) * S + s - 2]);
            alpha[t * S + s] = a == -INFINITY ? -INFINITY : a + p.at(t, n, l);
        }
    }
    double ll = alpha[(Tn - 1) * S + Sn - 1];
    if (Sn > 1) ll = logAdd(ll, alpha[(Tn - 1) * S + Sn - 2]);
    return -ll;
}

}  // namespace

diopiError_t diopiCTCLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t neg_log_likelihood, diopiTensorHandle_t log_alpha,
                          diopiConstTensorHandle_t log_probs, diopiConstTensorHandle_t targets, diopiConstTensorHandle_t input_lengths,
                          diopiConstTensorHandle_t target_lengths, int64_t blank, diopiReduction_t reduction, bool zero_infinity) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        TensorView o = view(out, "out");
        needFloat(o, "out");
        Ctc p = ctcSetup(ctx, log_probs, targets, input_lengths, target_lengths, blank);
        if (red == Red::None) CPU_CHECK(o.numel == p.N, "out must hold one loss per batch element, got shape ", shapeStr(o.shape));
        else checkScalarOut(o, "out");
        std::vector<double> nll(p.N), table(p.N * p.T * p.S), alpha;
        for (int64_t n = 0; n < p.N; ++n) {
            nll[n] = ctcAlpha(p, n, alpha);
            std::copy(alpha.begin(), alpha.end(), table.begin() + n * p.T * p.S);
        }
        if (neg_log_likelihood) {
            TensorView t = view(neg_log_likelihood, "neg_log_likelihood");
            CPU_CHECK(t.numel == p.N, "neg_log_likelihood must hold N elements, got shape ", shapeStr(t.shape));
            TensorView d = newTensor(ctx, t.shape, diopi_dtype_float64);
            std::copy(nll.begin(), nll.end(), d.ptr<double>());
            copyCast(t, d);
        }
        if (log_alpha) {
            TensorView t = view(log_alpha, "log_alpha");
            CPU_CHECK(t.shape == Shape({p.N, p.T, p.S}), "log_alpha must have shape ", shapeStr({p.N, p.T, p.S}), ", got ", shapeStr(t.shape));
            TensorView d = newTensor(ctx, t.shape, diopi_dtype_float64);
            std::copy(table.begin(), table.end(), d.ptr<double>());
            copyCast(t, d);
        }
        std::vector<double> loss = nll;
        if (zero_infinity)
            for (double& v : loss)
                if (std::isinf(v)) v = 0;
        if (red == Red::None) {
            TensorView d = newTensor(ctx, o.shape, diopi_dtype_float64);
            std::copy(loss.begin(), loss.end(), d.ptr<double>());
            copyCast(o, d);
            return;
        }
        double s = 0;
        for (int64_t n = 0; n < p.N; ++n) s += red == Red::Mean ? loss[n] / double(std::max<int64_t>(p.tl[n], 1)) : loss[n];
        if (red == Red::Mean) s /= double(p.N);
        writeScalar(ctx, o, s);
    });
}

// grad[t, n, c] = (exp(lp) - exp(log sum_{s: l(s) = c} alpha * beta + nll - lp)) * g_n for t < input_length, else 0.
// The alignment tables are recomputed in double from log_probs; the saved ones are only checked for shape.
diopiError_t diopiCTCLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t log_probs, diopiConstTensorHandle_t targets, diopiConstTensorHandle_t input_lengths,
                                  diopiConstTensorHandle_t target_lengths, diopiConstTensorHandle_t neg_log_likelihood, diopiConstTensorHandle_t log_alpha,
                                  int64_t blank, diopiReduction_t reduction, bool zero_infinity) {
    return guard(__func__, [&] {
        Red red = reductionOf(reduction);
        Ctc p = ctcSetup(ctx, log_probs, targets, input_lengths, target_lengths, blank);
        TensorView gi = view(grad_input, "grad_input");
        needFloat(gi, "grad_input");
        CPU_CHECK(gi.shape == Shape({p.T, p.N, p.C}), "grad_input must have log_probs' shape, got ", shapeStr(gi.shape));
        TensorView nllT = view(neg_log_likelihood, "neg_log_likelihood"), alphaT = view(log_alpha, "log_alpha");
        CPU_CHECK(nllT.numel == p.N, "neg_log_likelihood needs one entry per batch element");
        CPU_CHECK(alphaT.dim() == 3 && alphaT.shape[0] == p.N && alphaT.shape[1] == p.T,
                  "log_alpha must be (N, T, 2 * max target length + 1) as the forward returned it");
        TensorView go = view(grad_output, "grad_output");
        needFloat(go, "grad_output");
        if (red == Red::None) CPU_CHECK(go.numel == p.N, "grad_output must hold N elements, got shape ", shapeStr(go.shape));
        else CPU_CHECK(go.numel == 1, "grad_output must hold one element, got shape ", shapeStr(go.shape));
        TensorView god = contiguousAs(ctx, go, diopi_dtype_float32);
        std::vector<double> grad(p.T * p.N * p.C, 0.0), alpha, beta(p.T * p.S), lcab(p.C);
        const int64_t S = p.S;
        for (int64_t n = 0; n < p.N; ++n) {
            double gr = god.ptr<float>()[red == Red::None ? n : 0];
            if (red == Red::Mean) gr = gr / double(std::max<int64_t>(p.tl[n], 1)) / double(p.N);
            double nll = ctcAlpha(p, n, alpha);
            const int64_t Sn = 2 * p.tl[n] + 1, Tn = p.il[n];
            if (Tn == 0 || (zero_infinity && std::isinf(nll))) continue;
            std::fill(beta.begin(), beta.end(), -INFINITY);
            beta[(Tn - 1) * S + Sn - 1] = p.at(Tn - 1, n, p.blank);
            if (Sn > 1) beta[(Tn - 1) * S + Sn - 2] = p.at(Tn - 1, n, p.label(n, Sn - 2));
            for (int64_t t = Tn - 2; t >= 0; --t) {
                for (int64_t s = 0; s < Sn; ++s) {
                    const int64_t l = p.label(n, s);
                    double b = beta[(t + 1) * S + s];
                    if (s + 1 < Sn) b = logAdd(b, beta[(t + 1) * S + s + 1]);
                    if (s + 2 < Sn && l != p.blank && l != p.label(n, s + 2)) b = logAdd(b, beta[(t + 1) * S + s + 2]);
                    beta[t * S + s] = b == -INFINITY ? -INFINITY : b + p.at(t, n, l);
                }
            }
            for (int64_t t = 0; t < Tn; ++t) {
                std::fill(lcab.begin(), lcab.end(), -INFINITY);
                for (int64_t s = 0; s < Sn; ++s) {
                    double ab = alpha[t * S + s] + beta[t * S + s];
                    int64_t l = p.label(n, s);
                    lcab[l] = logAdd(lcab[l], ab);
                }
                for (int64_t c = 0; c < p.C; ++c) {
                    double lp = p.at(t, n, c);
                    grad[(t * p.N + n) * p.C + c] = (std::exp(lp) - std::exp(lcab[c] + nll - lp)) * gr;
                }
            }
        }
        TensorView d = newTensor(ctx, gi.shape, diopi_dtype_float64);
        std::copy(grad.begin(), grad.end(), d.ptr<double>());
        copyCast(gi, d);
    });
}

}  // namespace impl::cpu
