// Optimizer steps (sgd, adam, adamw, fused adamw, adadelta, rmsprop), gradient clipping and AMP loss-scaling helpers.
// Each step updates its parameter and state tensors in place. Half-precision tensors are stepped in float32
// (float64 stays float64) and every updated tensor is rounded once when written back, so that the result is the
// exact step rounded to the parameter's dtype rather than a chain of half-precision roundings.
#include "helper.hpp"

#include <cmath>

using namespace impl::aten;

namespace {

at::ScalarType computeType(const at::Tensor& t) { return t.scalar_type() == at::kDouble ? at::kDouble : at::kFloat; }

/// The compute-precision copy of an in-place tensor, written back (rounded once) by flush().
struct Work {
    at::Tensor dst, val;
    explicit Work(const at::Tensor& t) : dst(t), val(t.defined() ? t.to(computeType(t)) : at::Tensor()) {}
    void flush() {
        if (dst.defined()) dst.copy_(val);
    }
};

struct AdamArgs {
    double lr, beta1, beta2, eps, weightDecay, step;
    bool amsgrad, decoupled, maximize;
};

// One Adam(W) step. Adam adds weight_decay * param to the gradient (L2); AdamW shrinks the parameter
// by lr * weight_decay first (decoupled). Bias corrections use the current step count (>= 1).
void adamStep(const at::Tensor& paramT, const at::Tensor& gradT, const at::Tensor& expAvgT, const at::Tensor& expAvgSqT,
              const at::Tensor& maxExpAvgSqT, const AdamArgs& a) {
    if (a.step < 1) fail("step must be at least 1");
    if (a.amsgrad && !maxExpAvgSqT.defined()) fail("amsgrad needs max_exp_avg_sq");
    Work wp(paramT), wm(expAvgT), wv(expAvgSqT), wx(a.amsgrad ? maxExpAvgSqT : at::Tensor());
    at::Tensor param = wp.val, expAvg = wm.val, expAvgSq = wv.val, maxExpAvgSq = wx.val;
    at::Tensor grad = gradT.to(param.scalar_type());
    at::Tensor g = a.maximize ? grad.neg() : grad;
    if (a.decoupled) param.mul_(1 - a.lr * a.weightDecay);
    else if (a.weightDecay != 0) g = g.add(param, a.weightDecay);
    expAvg.mul_(a.beta1).add_(g, 1 - a.beta1);
    expAvgSq.mul_(a.beta2).addcmul_(g, g, 1 - a.beta2);
    double bc1 = 1 - std::pow(a.beta1, a.step), bc2 = 1 - std::pow(a.beta2, a.step);
    at::Tensor denom;
    if (a.amsgrad) {
        maxExpAvgSq.copy_(at::maximum(maxExpAvgSq, expAvgSq));
        denom = (maxExpAvgSq.sqrt() / std::sqrt(bc2)).add_(a.eps);
    } else {
        denom = (expAvgSq.sqrt() / std::sqrt(bc2)).add_(a.eps);
    }
    param.addcdiv_(expAvg, denom, -a.lr / bc1);
    for (Work* w : {&wp, &wm, &wv, &wx}) w->flush();
}

}  // namespace

extern "C" {

// ---- SGD with momentum: buf = momentum * buf + (1 - dampening) * d_p (buf may be NULL when momentum is 0);
// d_p = grad + weight_decay * param; nesterov uses d_p + momentum * buf. grad is left unchanged.
diopiError_t diopiSgd(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiTensorHandle_t grad, diopiTensorHandle_t buf, double lr,
                      double momentum, double dampening, double weight_decay, bool nesterov) {
    DIOPI_IMPL_BEGIN
    at::Tensor p = tensor(param, "param"), g = tensor(grad, "grad");
    if (nesterov && (momentum <= 0 || dampening != 0)) fail("nesterov needs a positive momentum and zero dampening");
    at::Tensor d = weight_decay != 0 ? g.add(p, weight_decay) : g;
    if (momentum != 0) {
        at::Tensor b = tensor(buf, "buf");
        b.mul_(momentum).add_(d, 1 - dampening);
        d = nesterov ? d.add(b, momentum) : b;
    }
    p.add_(d, -lr);
    DIOPI_IMPL_END
}

// ---- Adam / AdamW on one parameter; max_exp_avg_sq may be NULL unless amsgrad
diopiError_t diopiAdam(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                       diopiTensorHandle_t exp_avg_sq, diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1, float beta2, float eps,
                       float weight_decay, int64_t step, bool amsgrad) {
    DIOPI_IMPL_BEGIN
    AdamArgs a{lr, beta1, beta2, eps, weight_decay, static_cast<double>(step), amsgrad, false, false};
    adamStep(tensor(param, "param"), tensor(grad, "grad"), tensor(exp_avg, "exp_avg"), tensor(exp_avg_sq, "exp_avg_sq"),
             optTensor(max_exp_avg_sq), a);
    DIOPI_IMPL_END
}

diopiError_t diopiAdamW(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                        diopiTensorHandle_t exp_avg_sq, diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1, float beta2, float eps,
                        float weight_decay, int64_t step, bool amsgrad) {
    DIOPI_IMPL_BEGIN
    AdamArgs a{lr, beta1, beta2, eps, weight_decay, static_cast<double>(step), amsgrad, true, false};
    adamStep(tensor(param, "param"), tensor(grad, "grad"), tensor(exp_avg, "exp_avg"), tensor(exp_avg_sq, "exp_avg_sq"),
             optTensor(max_exp_avg_sq), a);
    DIOPI_IMPL_END
}

// ---- AdamW over lists of parameters; state_steps[i] (one element) holds parameter i's current step
// count, already incremented. max_exp_avg_sqs may be NULL unless amsgrad.
diopiError_t diopiFusedAdamW(diopiContextHandle_t ctx, diopiTensorHandle_t* params, diopiConstTensorHandle_t* grads, diopiTensorHandle_t* exp_avgs,
                             diopiTensorHandle_t* exp_avg_sqs, diopiTensorHandle_t* max_exp_avg_sqs, diopiConstTensorHandle_t* state_steps,
                             int64_t nums, double lr, double beta1, double beta2, double eps, double weight_decay, bool amsgrad, bool maximize) {
    DIOPI_IMPL_BEGIN
    auto ps = tensors(params, nums, "params");
    auto gs = tensors(grads, nums, "grads");
    auto m1 = tensors(exp_avgs, nums, "exp_avgs");
    auto m2 = tensors(exp_avg_sqs, nums, "exp_avg_sqs");
    auto steps = tensors(state_steps, nums, "state_steps");
    std::vector<at::Tensor> mx;
    if (amsgrad) mx = tensors(max_exp_avg_sqs, nums, "max_exp_avg_sqs");
    for (int64_t i = 0; i < nums; ++i) {
        if (steps[i].numel() != 1) fail("state_steps must hold one element per parameter");
        AdamArgs a{lr, beta1, beta2, eps, weight_decay, steps[i].item<double>(), amsgrad, true, maximize};
        adamStep(ps[i], gs[i], m1[i], m2[i], amsgrad ? mx[i] : at::Tensor(), a);
    }
    DIOPI_IMPL_END
}

// ---- Adadelta
diopiError_t diopiAdadelta(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad, diopiTensorHandle_t square_avg,
                           diopiTensorHandle_t acc_delta, float lr, float rho, float eps, float weight_decay) {
    DIOPI_IMPL_BEGIN
    double lr_ = lr, rho_ = rho, eps_ = eps, wd = weight_decay;
    Work wp(tensor(param, "param")), wsq(tensor(square_avg, "square_avg")), wacc(tensor(acc_delta, "acc_delta"));
    at::Tensor p = wp.val, sq = wsq.val, acc = wacc.val;
    at::Tensor g = tensor(grad, "grad").to(p.scalar_type());
    if (wd != 0) g = g.add(p, wd);
    sq.mul_(rho_).addcmul_(g, g, 1 - rho_);
    at::Tensor std_ = sq.add(eps_).sqrt_();
    at::Tensor delta = acc.add(eps_).sqrt_().div_(std_).mul_(g);
    acc.mul_(rho_).addcmul_(delta, delta, 1 - rho_);
    p.add_(delta, -lr_);
    for (Work* w : {&wp, &wsq, &wacc}) w->flush();
    DIOPI_IMPL_END
}

// ---- RMSprop; grad_avg is used (and may be NULL otherwise) when centered, momentum_buf when momentum > 0
diopiError_t diopiRmsprop(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad, diopiTensorHandle_t square_avg,
                          diopiTensorHandle_t grad_avg, diopiTensorHandle_t momentum_buf, float lr, float alpha, float eps, float weight_decay,
                          float momentum, bool centered) {
    DIOPI_IMPL_BEGIN
    double lr_ = lr, alpha_ = alpha, eps_ = eps, wd = weight_decay, mom = momentum;
    Work wp(tensor(param, "param")), wsq(tensor(square_avg, "square_avg"));
    Work wga(centered ? tensor(grad_avg, "grad_avg") : at::Tensor()), wb(mom > 0 ? tensor(momentum_buf, "momentum_buf") : at::Tensor());
    at::Tensor p = wp.val, sq = wsq.val;
    at::Tensor g = tensor(grad, "grad").to(p.scalar_type());
    if (wd != 0) g = g.add(p, wd);
    sq.mul_(alpha_).addcmul_(g, g, 1 - alpha_);
    at::Tensor avg;
    if (centered) {
        at::Tensor ga = wga.val;
        ga.mul_(alpha_).add_(g, 1 - alpha_);
        avg = sq.addcmul(ga, ga, -1).sqrt_();
    } else {
        avg = sq.sqrt();
    }
    avg.add_(eps_);
    if (mom > 0) {
        at::Tensor b = wb.val;
        b.mul_(mom).addcdiv_(g, avg);
        p.add_(b, -lr_);
    } else {
        p.addcdiv_(g, avg, -lr_);
    }
    for (Work* w : {&wp, &wsq, &wga, &wb}) w->flush();
    DIOPI_IMPL_END
}

// ---- clip_grad_norm_: out = the p-norm of the per-gradient p-norms; every gradient is scaled by
// min(1, max_norm / (out + 1e-6)).
diopiError_t diopiClipGradNorm(diopiContextHandle_t ctx, double* out, diopiTensorHandle_t* grads, int64_t num_grads, double max_norm,
                               double norm_type, bool error_if_nonfinite) {
    DIOPI_IMPL_BEGIN
    if (out == nullptr) fail("out is NULL");
    auto gs = tensors(grads, num_grads, "grads");
    if (gs.empty()) {
        *out = 0.0;
        return;
    }
    std::vector<at::Tensor> norms;
    for (const auto& g : gs) norms.push_back(at::linalg_vector_norm(g, norm_type));
    at::Tensor total = at::linalg_vector_norm(at::stack(norms), norm_type);
    if (error_if_nonfinite && !at::isfinite(total).item<bool>())
        fail("the total norm of the gradients is non-finite, so it cannot be clipped (error_if_nonfinite)");
    at::Tensor coef = (max_norm / (total + 1e-6)).clamp_max(1.0);
    for (auto& g : gs) g.mul_(coef);
    *out = total.item<double>();
    DIOPI_IMPL_END
}

// ---- AMP: unscale gradients by inv_scale in place, setting found_inf (one float element) to 1 when any
// gradient holds an inf or NaN; then grow or back off the loss scale.
diopiError_t diopiAmpForeachNonFiniteCheckAndUnscaleInp(diopiContextHandle_t ctx, diopiTensorHandle_t* scaled_grads, int64_t num_scaled_grads,
                                                        diopiTensorHandle_t found_inf, diopiConstTensorHandle_t inv_scale) {
    DIOPI_IMPL_BEGIN
    auto gs = tensors(scaled_grads, num_scaled_grads, "scaled_grads");
    at::Tensor fi = tensor(found_inf, "found_inf");
    at::_amp_foreach_non_finite_check_and_unscale_(gs, fi, tensor(inv_scale, "inv_scale"));
    DIOPI_IMPL_END
}

diopiError_t diopiAmpUpdateScaleInp(diopiContextHandle_t ctx, diopiTensorHandle_t current_scale, diopiTensorHandle_t growth_tracker,
                                    diopiConstTensorHandle_t found_inf, double scale_growth_factor, double scale_backoff_factor,
                                    int32_t growth_interval) {
    DIOPI_IMPL_BEGIN
    if (growth_interval <= 0) fail("growth_interval must be positive");
    at::Tensor s = tensor(current_scale, "current_scale"), gt = tensor(growth_tracker, "growth_tracker");
    at::_amp_update_scale_(s, gt, tensor(found_inf, "found_inf"), scale_growth_factor, scale_backoff_factor, growth_interval);
    DIOPI_IMPL_END
}

}  // extern "C"
