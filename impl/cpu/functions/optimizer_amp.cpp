// Family optimizer_amp: optimizer steps (sgd, adam, adamw, fused adamw,
// adadelta, rmsprop), gradient-norm clipping and the AMP loss-scale helpers.
//
// Every step reads its operands into S (double for float64, float otherwise),
// does the whole update there and rounds each updated tensor once when
// writing it back (a 16-bit parameter is not rounded between the steps of the
// update). Option flags and the set of written operands are template
// constants of the element loop so that it vectorises; the float32 loop is
// compiled per instruction-set level.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "common/common.hpp"
#include "common/fastmath.hpp"  // CPU_FORCE_INLINE

namespace impl::cpu {

namespace {

/// Operands of an in-place update: all share param's shape and dtype;
/// `write` marks the ones stored back. An absent optional operand is
/// represented by param itself and never written.
template <size_t N>
struct Update {
    std::array<TensorView, N> t;
    std::array<bool, N> write{};
};

/// Flag in a write mask: run the dense loop straight on the operands (faster
/// when the compiler vectorises it despite the aliasing checks; measured per step).
constexpr unsigned kDirect = 1u << 31;

/// The direct dense loop over elements [b, e): load, update, store the
/// operands of W; compiled once per instruction-set level for float.
template <unsigned W, class S, size_t N, class F>
CPU_FORCE_INLINE void directBody(const std::array<S*, N>& ptr, int64_t b, int64_t e, const F& f) {
    std::array<S*, N> p = ptr;
    for (int64_t j = b; j < e; ++j) {
        S v[N];
        for (size_t k = 0; k < N; ++k) v[k] = p[k][j];
        f(v);
        for (size_t k = 0; k < N; ++k)
            if ((W >> k) & 1u) p[k][j] = v[k];
    }
}
template <unsigned W, class S, size_t N, class F>
using DirectFn = void (*)(const std::array<S*, N>&, int64_t, int64_t, const F&);
template <unsigned W, class S, size_t N, class F>
void directBase(const std::array<S*, N>& p, int64_t b, int64_t e, const F& f) { directBody<W, S, N>(p, b, e, f); }
#if CPU_HAVE_X86_LEVELS
template <unsigned W, class S, size_t N, class F>
CPU_TARGET_AVX2 void directAvx2(const std::array<S*, N>& p, int64_t b, int64_t e, const F& f) { directBody<W, S, N>(p, b, e, f); }
template <unsigned W, class S, size_t N, class F>
CPU_TARGET_AVX512 void directAvx512(const std::array<S*, N>& p, int64_t b, int64_t e, const F& f) { directBody<W, S, N>(p, b, e, f); }
#endif
template <unsigned W, class S, size_t N, class F>
DirectFn<W, S, N, F> pickDirect() {
#if CPU_HAVE_X86_LEVELS
    if constexpr (std::is_same_v<S, float>) {
        if (isa() == Isa::Avx512) return directAvx512<W, S, N, F>;
        if (isa() == Isa::Avx2) return directAvx2<W, S, N, F>;
    }
#endif
    return directBase<W, S, N, F>;
}

/// For each element: v[k] = operand k in calc type S (double for float64,
/// float otherwise), f(v), store the writable ones. W is the write mask as a
/// constant (bit k: operand k; kDirect: see there), so that the dense loop of
/// a float32 or float64 update can run straight on the operands.
template <unsigned W, class T, size_t N, class F>
void updateLoop(const Update<N>& u, F f) {
    using S = acc_t<T>;
    const TensorView& p0 = u.t[0];
    if (p0.numel == 0) return;
    const std::array<bool, N> wr = u.write;
    bool dense = true;
    for (size_t k = 0; k < N; ++k) dense = dense && u.t[k].isContiguous();
    if constexpr (std::is_same_v<T, S> && (W & kDirect) != 0) {
        if (dense) {
            std::array<T*, N> ptr;
            for (size_t k = 0; k < N; ++k) ptr[k] = u.t[k].template ptr<T>();
            const DirectFn<W, S, N, F> run = pickDirect<W, S, N, F>();
            parallelFor(p0.numel, kParallelGrain, [&](int64_t b, int64_t e) { run(ptr, b, e, f); });
            return;
        }
    }
    if (dense) {
        // Block-wise: convert to arrays of S, update, store the written ones.
        constexpr int64_t B = 256;
        std::array<T*, N> ptr;
        for (size_t k = 0; k < N; ++k) ptr[k] = u.t[k].template ptr<T>();
        parallelFor(p0.numel, kParallelGrain, [&](int64_t b, int64_t e) {
            S buf[N][B];
            for (int64_t s = b; s < e; s += B) {
                const int64_t n = std::min(B, e - s);
                for (size_t k = 0; k < N; ++k)
                    for (int64_t j = 0; j < n; ++j) buf[k][j] = S(ptr[k][s + j]);
                for (int64_t j = 0; j < n; ++j) {
                    S v[N];
                    for (size_t k = 0; k < N; ++k) v[k] = buf[k][j];
                    f(v);
                    for (size_t k = 0; k < N; ++k) buf[k][j] = v[k];
                }
                for (size_t k = 0; k < N; ++k)
                    if (wr[k])
                        for (int64_t j = 0; j < n; ++j) ptr[k][s + j] = T(buf[k][j]);
            }
        });
        return;
    }
    std::array<const TensorView*, N> ops;
    for (size_t k = 0; k < N; ++k) ops[k] = &u.t[k];
    StridedPlan<N> plan(p0.shape, ops);
    plan.runAll([&](char** p, int64_t n, const int64_t* s) {
        std::array<char*, N> q;
        for (size_t k = 0; k < N; ++k) q[k] = p[k];
        S v[N];
        for (int64_t i = 0; i < n; ++i) {
            for (size_t k = 0; k < N; ++k) v[k] = S(*reinterpret_cast<const T*>(q[k]));
            f(v);
            for (size_t k = 0; k < N; ++k) {
                if (wr[k]) *reinterpret_cast<T*>(q[k]) = T(v[k]);
                q[k] += s[k];
            }
        }
    });
}

/// The float element types a step runs on; W as in updateLoop, and equal to
/// u.write (the flags that decide both are the same).
template <unsigned W, size_t N, class F>
void runUpdate(const Update<N>& u, F f) {
    for (size_t k = 0; k < N; ++k) CPU_CHECK(bool((W >> k) & 1u) == u.write[k], "internal error: write mask of operand ", k);
    dispatch<FloatTypes>(u.t[0].dtype, "param", [&](auto tag) {
        using T = typename decltype(tag)::type;
        updateLoop<W, T>(u, f);
    });
}

/// Builds the operand set: param first; `ins` in order with their names; a NULL
/// optional handle or one not `used` stands in as param (read, never written).
/// Read-only operands of another dtype are converted; in-place ones must match.
template <size_t N>
Update<N> makeUpdate(diopiContextHandle_t ctx, diopiTensorHandle_t param, const std::array<diopiConstTensorHandle_t, N - 1>& hs,
                     const std::array<const char*, N - 1>& names, const std::array<bool, N - 1>& inplace,
                     const std::array<bool, N - 1>& used) {
    Update<N> u;
    u.t[0] = view(param, "param");
    if (!isFloatingDtype(u.t[0].dtype)) failCode(diopiDtypeNotSupported, "param must be floating point, got ", dtypeName(u.t[0].dtype));
    u.write[0] = true;
    for (size_t k = 0; k + 1 < N; ++k) {
        if (!used[k]) {
            u.t[k + 1] = u.t[0];
            continue;
        }
        TensorView t = view(hs[k], names[k]);
        CPU_CHECK(t.shape == u.t[0].shape, names[k], " has shape ", shapeStr(t.shape), ", expected param's ", shapeStr(u.t[0].shape));
        if (t.dtype != u.t[0].dtype) {
            if (inplace[k])
                failCode(diopiDtypeNotSupported, names[k], " has dtype ", dtypeName(t.dtype), " but param has ", dtypeName(u.t[0].dtype));
            if (!isFloatingDtype(t.dtype)) failCode(diopiDtypeNotSupported, names[k], " must be floating point, got ", dtypeName(t.dtype));
            t = castTo(ctx, t, u.t[0].dtype);
        }
        u.t[k + 1] = t;
        u.write[k + 1] = inplace[k];
    }
    return u;
}

/// f(std::true_type{}) or f(std::false_type{}): turns a run-time flag into a
/// compile-time one inside the element loop.
template <class F>
void withFlag(bool b, F&& f) {
    if (b) f(std::true_type{});
    else f(std::false_type{});
}

struct AdamArgs {
    double lr, beta1, beta2, eps, weightDecay, step;
    bool amsgrad, decoupled, maximize;
};

// Adam adds weight_decay * param to the gradient (L2); AdamW first shrinks
// the parameter by lr * weight_decay (decoupled).
void adamStep(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad, diopiTensorHandle_t expAvg,
              diopiTensorHandle_t expAvgSq, diopiTensorHandle_t maxExpAvgSq, const AdamArgs& a) {
    CPU_CHECK(a.step >= 1, "step must be at least 1, got ", a.step);
    CPU_CHECK(!a.amsgrad || maxExpAvgSq, "amsgrad needs max_exp_avg_sq");
    Update<5> u = makeUpdate<5>(ctx, param, {grad, expAvg, expAvgSq, maxExpAvgSq}, {"grad", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"},
                                {false, true, true, true}, {true, true, true, a.amsgrad});
    const double bc1 = 1 - std::pow(a.beta1, a.step), sbc2 = std::sqrt(1 - std::pow(a.beta2, a.step));
    const double stepSize = a.lr / bc1, shrink = 1 - a.lr * a.weightDecay;
    const double b1d = a.beta1, b2d = a.beta2, epsd = a.eps, wdd = a.weightDecay, isbc2d = 1.0 / sbc2, ssd = stepSize, shd = shrink;
    withFlag(a.amsgrad, [&](auto ams) {
        withFlag(a.decoupled, [&](auto dec) {
            withFlag(a.maximize, [&](auto mx) {
                runUpdate<kDirect | 1u | 4u | 8u | (decltype(ams)::value ? 16u : 0u)>(u, [=](auto* v) {
                    using S = std::remove_pointer_t<decltype(v)>;
                    const S b1 = S(b1d), b2 = S(b2d), eps = S(epsd), wd = S(wdd), isbc2 = S(isbc2d), ss = S(ssd), sh = S(shd);
                    S p = v[0], g = decltype(mx)::value ? -v[1] : v[1];
                    if constexpr (decltype(dec)::value) p *= sh;
                    else g += wd * p;
                    const S m = b1 * v[2] + (1 - b1) * g;
                    const S s = b2 * v[3] + (1 - b2) * g * g;
                    S den;
                    if constexpr (decltype(ams)::value) {
                        const S vm = std::max(v[4], s);
                        v[4] = vm;
                        den = std::sqrt(vm) * isbc2 + eps;
                    } else {
                        den = std::sqrt(s) * isbc2 + eps;
                    }
                    v[0] = p - ss * m / den;
                    v[2] = m;
                    v[3] = s;
                });
            });
        });
    });
}

/// The single value of a one-element tensor, as double (read in place: these
/// helpers run on the tiny AMP/step tensors, where a temporary would cost more).
double scalarOf(diopiContextHandle_t ctx, const TensorView& t, const char* name) {
    CPU_CHECK(t.numel == 1, name, " must hold one element, got shape ", shapeStr(t.shape));
    double v = 0;
    dispatch<AllTypes>(t.dtype, name, [&](auto tag) {
        using T = typename decltype(tag)::type;
        v = convert<double>(*t.ptr<T>());
    });
    return v;
}

/// Writes v into the single element of t, rounded once to its dtype.
void setScalar(diopiContextHandle_t ctx, const TensorView& t, double v) {
    dispatch<AllTypes>(t.dtype, "scalar", [&](auto tag) {
        using T = typename decltype(tag)::type;
        *t.ptr<T>() = convert<T>(v);
    });
}

/// Reads every element of a float tensor as double: g(value).
template <class G>
void forEachValue(const TensorView& t, G&& g) {
    if (t.numel == 0) return;
    dispatch<TypeList<float, Half, BFloat16, double>>(t.dtype, "grads", [&](auto tag) {
        using T = typename decltype(tag)::type;
        std::array<const TensorView*, 1> ops{&t};
        StridedPlan<1> plan(t.shape, ops);
        plan.run(0, t.numel, [&](char** p, int64_t n, const int64_t* s) {
            const char* q = p[0];
            for (int64_t i = 0; i < n; ++i, q += s[0]) g(convert<double>(*reinterpret_cast<const T*>(q)));
        });
    });
}

/// Scales a float tensor in place: x = x * c, computed in double, rounded once.
void scaleInPlace(const TensorView& t, double c) {
    if (t.numel == 0) return;
    dispatch<FloatTypes>(t.dtype, "grads", [&](auto tag) {
        using T = typename decltype(tag)::type;
        unaryLoop<T, T>(t, t, [c](T x) { return convert<T>(double(acc_t<T>(x)) * c); });
    });
}

/// p-norm of a tensor's values (inf: max |x|, -inf: min |x|, 0: count of non-zeros).
double vectorNorm(const TensorView& t, double p, const char* what) {
    if (std::isinf(p)) {
        CPU_CHECK(t.numel > 0, "the ", p > 0 ? "" : "-", "infinity norm of the empty ", what, " is undefined");
        double r = p > 0 ? 0.0 : INFINITY;
        bool nan = false;
        forEachValue(t, [&](double x) {
            if (std::isnan(x)) nan = true;
            r = p > 0 ? std::max(r, std::fabs(x)) : std::min(r, std::fabs(x));
        });
        return nan ? NAN : r;
    }
    double acc = 0;
    if (p == 0) forEachValue(t, [&](double x) { acc += x != 0; });
    else if (p == 1) forEachValue(t, [&](double x) { acc += std::fabs(x); });
    else if (p == 2) forEachValue(t, [&](double x) { acc += x * x; });
    else forEachValue(t, [&](double x) { acc += std::pow(std::fabs(x), p); });
    if (p == 0 || p == 1) return acc;
    if (p == 2) return std::sqrt(acc);
    return std::pow(acc, 1.0 / p);
}

}  // namespace

// ---------------------------------------------------------------- SGD
// d = grad + weight_decay * param; with momentum buf = momentum * buf +
// (1 - dampening) * d and d = buf (nesterov: d + momentum * buf); param -= lr * d.
// grad is left unchanged.
diopiError_t diopiSgd(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiTensorHandle_t grad, diopiTensorHandle_t buf, double lr,
                      double momentum, double dampening, double weight_decay, bool nesterov) {
    return guard(__func__, [&] {
        CPU_CHECK(!nesterov || (momentum > 0 && dampening == 0), "nesterov needs a positive momentum and zero dampening");
        const bool useBuf = momentum != 0;
        CPU_CHECK(!useBuf || buf, "buf is NULL but momentum is ", momentum);
        Update<3> u = makeUpdate<3>(ctx, param, {grad, buf}, {"grad", "buf"}, {false, true}, {true, useBuf});
        withFlag(useBuf, [&](auto ub) {
            withFlag(nesterov, [&](auto nes) {
                runUpdate<kDirect | 1u | (decltype(ub)::value ? 4u : 0u)>(u, [=](auto* v) {
                    using S = std::remove_pointer_t<decltype(v)>;
                    const S lr_ = S(lr), mom = S(momentum), damp = S(dampening), wd = S(weight_decay);
                    S d = v[1] + wd * v[0];
                    if constexpr (decltype(ub)::value) {
                        const S b = mom * v[2] + (1 - damp) * d;
                        v[2] = b;
                        d = decltype(nes)::value ? d + mom * b : b;
                    }
                    v[0] -= lr_ * d;
                });
            });
        });
    });
}

// ---------------------------------------------------------------- Adam / AdamW
diopiError_t diopiAdam(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                       diopiTensorHandle_t exp_avg_sq, diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1, float beta2, float eps,
                       float weight_decay, int64_t step, bool amsgrad) {
    return guard(__func__, [&] {
        adamStep(ctx, param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, {lr, beta1, beta2, eps, weight_decay, double(step), amsgrad, false, false});
    });
}

diopiError_t diopiAdamW(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                        diopiTensorHandle_t exp_avg_sq, diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1, float beta2, float eps,
                        float weight_decay, int64_t step, bool amsgrad) {
    return guard(__func__, [&] {
        adamStep(ctx, param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, {lr, beta1, beta2, eps, weight_decay, double(step), amsgrad, true, false});
    });
}

// state_steps[i] (one element) is parameter i's step count, already incremented.
diopiError_t diopiFusedAdamW(diopiContextHandle_t ctx, diopiTensorHandle_t* params, diopiConstTensorHandle_t* grads, diopiTensorHandle_t* exp_avgs,
                             diopiTensorHandle_t* exp_avg_sqs, diopiTensorHandle_t* max_exp_avg_sqs, diopiConstTensorHandle_t* state_steps,
                             int64_t nums, double lr, double beta1, double beta2, double eps, double weight_decay, bool amsgrad, bool maximize) {
    return guard(__func__, [&] {
        CPU_CHECK(nums >= 0, "nums must not be negative, got ", nums);
        if (nums == 0) return;
        CPU_CHECK(params && grads && exp_avgs && exp_avg_sqs && state_steps, "a tensor array is NULL");
        CPU_CHECK(!amsgrad || max_exp_avg_sqs, "amsgrad needs max_exp_avg_sqs");
        for (int64_t i = 0; i < nums; ++i) {
            double step = scalarOf(ctx, view(state_steps[i], "state_steps"), "state_steps");
            AdamArgs a{lr, beta1, beta2, eps, weight_decay, step, amsgrad, true, maximize};
            adamStep(ctx, params[i], grads[i], exp_avgs[i], exp_avg_sqs[i], amsgrad ? max_exp_avg_sqs[i] : nullptr, a);
        }
    });
}

// ---------------------------------------------------------------- Adadelta
diopiError_t diopiAdadelta(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad, diopiTensorHandle_t square_avg,
                           diopiTensorHandle_t acc_delta, float lr, float rho, float eps, float weight_decay) {
    return guard(__func__, [&] {
        Update<4> u = makeUpdate<4>(ctx, param, {grad, square_avg, acc_delta}, {"grad", "square_avg", "acc_delta"}, {false, true, true},
                                    {true, true, true});
        runUpdate<kDirect | 1u | 4u | 8u>(u, [=](auto* v) {
            using S = std::remove_pointer_t<decltype(v)>;
            const S lr_ = S(lr), rho_ = S(rho), eps_ = S(eps), wd = S(weight_decay);
            const S g = v[1] + wd * v[0];
            const S sq = rho_ * v[2] + (1 - rho_) * g * g;
            const S delta = std::sqrt(v[3] + eps_) / std::sqrt(sq + eps_) * g;
            v[3] = rho_ * v[3] + (1 - rho_) * delta * delta;
            v[2] = sq;
            v[0] -= lr_ * delta;
        });
    });
}

// ---------------------------------------------------------------- RMSprop
// grad_avg is used (and may be NULL otherwise) when centered, momentum_buf when momentum > 0.
diopiError_t diopiRmsprop(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad, diopiTensorHandle_t square_avg,
                          diopiTensorHandle_t grad_avg, diopiTensorHandle_t momentum_buf, float lr, float alpha, float eps, float weight_decay,
                          float momentum, bool centered) {
    return guard(__func__, [&] {
        const bool useBuf = momentum > 0;
        CPU_CHECK(!centered || grad_avg, "centered needs grad_avg");
        CPU_CHECK(!useBuf || momentum_buf, "momentum > 0 needs momentum_buf");
        Update<5> u = makeUpdate<5>(ctx, param, {grad, square_avg, grad_avg, momentum_buf}, {"grad", "square_avg", "grad_avg", "momentum_buf"},
                                    {false, true, true, true}, {true, true, centered, useBuf});
        withFlag(centered, [&](auto cen) {
            withFlag(useBuf, [&](auto ub) {
                runUpdate<1u | 4u | (decltype(cen)::value ? 8u : 0u) | (decltype(ub)::value ? 16u : 0u)>(u, [=](auto* v) {
                    using S = std::remove_pointer_t<decltype(v)>;
                    const S lr_ = S(lr), a = S(alpha), eps_ = S(eps), wd = S(weight_decay), mom = S(momentum);
                    const S g = v[1] + wd * v[0];
                    const S sq = a * v[2] + (1 - a) * g * g;
                    v[2] = sq;
                    S avg;
                    if constexpr (decltype(cen)::value) {
                        const S ga = a * v[3] + (1 - a) * g;
                        v[3] = ga;
                        avg = std::sqrt(sq - ga * ga) + eps_;
                    } else {
                        avg = std::sqrt(sq) + eps_;
                    }
                    if constexpr (decltype(ub)::value) {
                        const S b = mom * v[4] + g / avg;
                        v[4] = b;
                        v[0] -= lr_ * b;
                    } else {
                        v[0] -= lr_ * g / avg;
                    }
                });
            });
        });
    });
}

// ---------------------------------------------------------------- gradient clipping
// out = the p-norm of the per-gradient p-norms; every gradient is scaled by
// min(1, max_norm / (out + 1e-6)).
diopiError_t diopiClipGradNorm(diopiContextHandle_t ctx, double* out, diopiTensorHandle_t* grads, int64_t num_grads, double max_norm,
                               double norm_type, bool error_if_nonfinite) {
    return guard(__func__, [&] {
        CPU_CHECK(out, "out is NULL");
        CPU_CHECK(num_grads >= 0, "num_grads must not be negative, got ", num_grads);
        CPU_CHECK(!std::isnan(norm_type), "norm_type is NaN");
        if (num_grads == 0) {
            *out = 0.0;
            return;
        }
        CPU_CHECK(grads, "grads array is NULL");
        std::vector<TensorView> gs;
        for (int64_t i = 0; i < num_grads; ++i) {
            gs.push_back(view(grads[i], "grads"));
            if (!isFloatingDtype(gs.back().dtype)) failCode(diopiDtypeNotSupported, "grads must be floating point, got ", dtypeName(gs.back().dtype));
        }
        TensorView norms = newTensor(ctx, {num_grads}, diopi_dtype_float64);
        for (int64_t i = 0; i < num_grads; ++i) norms.ptr<double>()[i] = vectorNorm(gs[i], norm_type, "gradient");
        double total = vectorNorm(norms, norm_type, "norm list");
        if (error_if_nonfinite && !std::isfinite(total))
            fail("the total norm of the gradients is non-finite, so it cannot be clipped (error_if_nonfinite)");
        double coef = std::min(1.0, max_norm / (total + 1e-6));
        if (coef < 1.0 || std::isnan(coef))
            for (auto& g : gs) scaleInPlace(g, coef);
        *out = total;
    });
}

// ---------------------------------------------------------------- AMP
// Every gradient is multiplied by inv_scale in place; found_inf (one element)
// is set to 1 when any gradient value is an inf or NaN, and never cleared.
diopiError_t diopiAmpForeachNonFiniteCheckAndUnscaleInp(diopiContextHandle_t ctx, diopiTensorHandle_t* scaled_grads, int64_t num_scaled_grads,
                                                        diopiTensorHandle_t found_inf, diopiConstTensorHandle_t inv_scale) {
    return guard(__func__, [&] {
        CPU_CHECK(num_scaled_grads >= 0, "num_scaled_grads must not be negative, got ", num_scaled_grads);
        CPU_CHECK(num_scaled_grads == 0 || scaled_grads, "scaled_grads array is NULL");
        TensorView fi = view(found_inf, "found_inf"), is = view(inv_scale, "inv_scale");
        if (!isFloatingDtype(fi.dtype)) failCode(diopiDtypeNotSupported, "found_inf must be floating point, got ", dtypeName(fi.dtype));
        if (!isFloatingDtype(is.dtype)) failCode(diopiDtypeNotSupported, "inv_scale must be floating point, got ", dtypeName(is.dtype));
        CPU_CHECK(fi.numel == 1, "found_inf must hold one element, got shape ", shapeStr(fi.shape));
        const double inv = scalarOf(ctx, is, "inv_scale");
        std::vector<TensorView> gs;
        for (int64_t i = 0; i < num_scaled_grads; ++i) {
            gs.push_back(view(scaled_grads[i], "scaled_grads"));
            if (!isFloatingDtype(gs.back().dtype))
                failCode(diopiDtypeNotSupported, "scaled_grads must be floating point, got ", dtypeName(gs.back().dtype));
        }
        bool bad = false;
        for (auto& g : gs) {
            if (g.numel == 0) continue;
            dispatch<FloatTypes>(g.dtype, "scaled_grads", [&](auto tag) {
                using T = typename decltype(tag)::type;
                std::array<const TensorView*, 1> ops{&g};
                StridedPlan<1> plan(g.shape, ops);
                plan.run(0, g.numel, [&](char** p, int64_t n, const int64_t* s) {
                    char* q = p[0];
                    for (int64_t i = 0; i < n; ++i, q += s[0]) {
                        const acc_t<T> x = acc_t<T>(*reinterpret_cast<T*>(q));
                        if (!std::isfinite(x)) bad = true;
                        // Exact product of a float and inv (a float32 or float64 value), rounded once.
                        *reinterpret_cast<T*>(q) = convert<T>(double(x) * inv);
                    }
                });
            });
        }
        if (bad) setScalar(ctx, fi, 1.0);
    });
}

// After an overflow the scale backs off and the tracker resets; after
// growth_interval clean steps the scale grows (if still finite) and the
// tracker resets.
diopiError_t diopiAmpUpdateScaleInp(diopiContextHandle_t ctx, diopiTensorHandle_t current_scale, diopiTensorHandle_t growth_tracker,
                                    diopiConstTensorHandle_t found_inf, double scale_growth_factor, double scale_backoff_factor,
                                    int32_t growth_interval) {
    return guard(__func__, [&] {
        CPU_CHECK(growth_interval > 0, "growth_interval must be positive, got ", growth_interval);
        TensorView cs = view(current_scale, "current_scale"), gt = view(growth_tracker, "growth_tracker"), fi = view(found_inf, "found_inf");
        if (!isFloatingDtype(cs.dtype)) failCode(diopiDtypeNotSupported, "current_scale must be floating point, got ", dtypeName(cs.dtype));
        if (!isIntegralDtype(gt.dtype)) failCode(diopiDtypeNotSupported, "growth_tracker must be an integer tensor, got ", dtypeName(gt.dtype));
        double scale = scalarOf(ctx, cs, "current_scale");
        double tracker = scalarOf(ctx, gt, "growth_tracker");
        double found = scalarOf(ctx, fi, "found_inf");
        if (found != 0) {
            setScalar(ctx, cs, scale * scale_backoff_factor);
            setScalar(ctx, gt, 0);
            return;
        }
        int64_t successful = int64_t(tracker) + 1;
        if (successful == growth_interval) {
            // The scale is a float tensor: grow it in float and keep it only if finite.
            // In the scale's own precision: float for float32, double for float64.
            const double grown = cs.dtype == diopi_dtype_float64 ? scale * scale_growth_factor
                                                                 : double(float(scale) * float(scale_growth_factor));
            if (std::isfinite(grown)) setScalar(ctx, cs, grown);
            setScalar(ctx, gt, 0);
        } else {
            setScalar(ctx, gt, double(successful));
        }
    });
}

}  // namespace impl::cpu
