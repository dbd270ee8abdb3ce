// Losses: mse, smooth_l1, bce, bce_with_logits, sigmoid focal, nll (+ total weight), cross entropy, ctc; forward and backward.
#include "helper.hpp"

#include <ATen/ExpandUtils.h>
#include <ATen/core/Reduction.h>

#include <limits>

using namespace impl::aten;

namespace {

// Composite formulas evaluate half-precision inputs in float32 (ATen's opmath) and round once on assignment.
at::Tensor opmath(const at::Tensor& t) {
    if (!t.defined()) return t;
    auto st = t.scalar_type();
    return (st == at::kHalf || st == at::kBFloat16) ? t.to(at::kFloat) : t;
}

// Broadcast input and target to a common shape (elementwise losses broadcast like binary ops).
std::pair<at::Tensor, at::Tensor> broadcastPair(const at::Tensor& a, const at::Tensor& b) {
    auto shape = at::infer_size(a.sizes(), b.sizes());
    return {a.expand(shape), b.expand(shape)};
}

// Sums a broadcast gradient back to the input's shape.
at::Tensor sumToInput(const at::Tensor& g, at::IntArrayRef sizes) { return g.sizes() == sizes ? g : g.sum_to_size(sizes); }

int64_t reductionOf(diopiReduction_t r) {
    switch (r) {
        case ReductionNone: return at::Reduction::None;
        case ReductionMean: return at::Reduction::Mean;
        case ReductionSum: return at::Reduction::Sum;
        default: fail("reduction must be ReductionNone, ReductionMean or ReductionSum");
    }
}

at::Tensor reduce(const at::Tensor& loss, int64_t reduction) {
    if (reduction == at::Reduction::Mean) return loss.mean();
    if (reduction == at::Reduction::Sum) return loss.sum();
    return loss;
}

// The gradient of a reduced elementwise loss: `dloss` is d(loss_i)/d(input_i);
// grad_output is 0-d for mean/sum, the loss's shape for none.
at::Tensor chainReduced(const at::Tensor& dloss, const at::Tensor& gradOutput, int64_t reduction, at::IntArrayRef inputSizes) {
    at::Tensor g = dloss * gradOutput;
    if (reduction == at::Reduction::Mean) {
        int64_t n = 1;
        for (int64_t d : g.sizes()) n *= d;
        g = g / static_cast<double>(n);
    }
    return g.sum_to_size(inputSizes);
}

// ATen's CTC kernels index targets by the lengths without bounds checks: validate them first.
void checkCtc(const at::Tensor& lp, const at::Tensor& tg, const at::Tensor& il, const at::Tensor& tl) {
    if (lp.dim() != 3) fail("log_probs must be (T, N, C)");
    int64_t T = lp.size(0), N = lp.size(1);
    if (il.numel() != N || tl.numel() != N) fail("input_lengths and target_lengths need one entry per batch element");
    if (N == 0) return;
    if (il.min().item<int64_t>() < 0 || il.max().item<int64_t>() > T) fail("input_lengths must lie in [0, T]");
    if (tl.min().item<int64_t>() < 0) fail("target_lengths must not be negative");
    if (tg.dim() == 2) {
        if (tg.size(0) != N || tl.max().item<int64_t>() > tg.size(1)) fail("padded targets must be (N, S) with S >= every target length");
    } else if (tg.dim() == 1) {
        if (tl.sum().item<int64_t>() > tg.numel()) fail("concatenated targets are shorter than the sum of target_lengths");
    } else {
        fail("targets must be 1-d (concatenated) or 2-d (padded)");
    }
}

at::Tensor longTargets(const at::Tensor& t, const char* name) {
    if (at::isFloatingType(t.scalar_type()) || t.scalar_type() == at::kBool) fail(std::string(name) + " must hold integer class indices");
    return t.to(at::kLong);
}

// nll over an input of shape (C), (N, C) or (N, C, d1, ...), as the 2-d (rows, C) problem ATen's
// nll_loss_forward/backward solve; targets flattened alike.
struct Nll2d {
    at::Tensor input, target;
    std::vector<int64_t> rowSizes;  // input sizes with the class dim moved last
    bool oneD = false;
};

Nll2d nllFlatten(const at::Tensor& input, const at::Tensor& target) {
    Nll2d r;
    if (input.dim() < 1) fail("input must have a class dimension");
    if (input.dim() == 1) {
        if (target.dim() != 0) fail("for a 1-d input the target must be 0-d");
        r.oneD = true;
        r.input = input;
        r.target = target;
        return r;
    }
    at::Tensor moved = input.movedim(1, -1);
    r.rowSizes = moved.sizes().vec();
    std::vector<int64_t> expect(input.sizes().begin(), input.sizes().end());
    expect.erase(expect.begin() + 1);
    if (target.sizes().vec() != expect) fail("target shape must be input shape without the class dimension");
    r.input = moved.reshape({-1, input.size(1)});
    r.target = target.reshape({-1});
    return r;
}

at::Tensor nllUnflatten(const Nll2d& f, const at::Tensor& grad2d) {
    if (f.oneD) return grad2d;
    return grad2d.reshape(f.rowSizes).movedim(-1, 1);
}

// Sum of weight[target] over targets that are not ignore_index.
at::Tensor nllTotalWeight(const at::Tensor& target, const at::Tensor& weight, int64_t C, int64_t ignoreIndex, const at::TensorOptions& opts) {
    at::Tensor valid = target != ignoreIndex;
    at::Tensor safe = target.masked_fill(~valid, 0);
    if (((safe < 0) | (safe >= C)).any().item<bool>()) fail("target holds a class index out of range");
    at::Tensor w = weight.defined() ? weight.to(opts.dtype()) : at::ones({C}, opts);
    return (w.index_select(0, safe.reshape({-1})).reshape(safe.sizes()) * valid).sum();
}

at::Tensor nllBackward(const at::Tensor& go, const at::Tensor& input, const at::Tensor& target, const at::Tensor& weight, int64_t reduction,
                       int64_t ignoreIndex, const at::Tensor* totalWeight) {
    Nll2d f = nllFlatten(input, longTargets(target, "target"));
    at::Tensor tw = totalWeight ? totalWeight->to(input.scalar_type())
                                : nllTotalWeight(f.target, weight, input.size(input.dim() == 1 ? 0 : 1), ignoreIndex, input.options());
    at::Tensor go2 = (reduction == at::Reduction::None && !f.oneD) ? go.reshape({-1}) : go;
    at::Tensor g = at::nll_loss_backward(go2, f.input, f.target, weight, reduction, ignoreIndex, tw);
    return nllUnflatten(f, g);
}

// Cross entropy gradient. Moves the class dim last, forms the coefficient G of -log p
// in the loss, then applies the log-softmax backward.
at::Tensor crossEntropyBackward(const at::Tensor& go, const at::Tensor& x, const at::Tensor& target, const at::Tensor& weight, int64_t reduction,
                                int64_t ignoreIndex, double smoothing) {
    if (x.dim() < 1) fail("input must have a class dimension");
    bool noBatch = x.dim() == 1;
    at::Tensor xl = noBatch ? x.unsqueeze(0) : x.movedim(1, -1);
    int64_t C = xl.size(-1);
    at::Tensor w = weight.defined() ? weight.to(x.scalar_type()) : at::ones({C}, x.options());
    at::Tensor coef, denom;
    if (at::isFloatingType(target.scalar_type())) {
        if (target.sizes() != x.sizes()) fail("class-probability targets must have the input's shape");
        at::Tensor tl = (noBatch ? target.unsqueeze(0) : target.movedim(1, -1)).to(x.scalar_type());
        if (smoothing > 0) tl = tl * (1 - smoothing) + smoothing / C;
        coef = tl * w;
        denom = at::scalar_tensor(reduction == at::Reduction::Mean ? static_cast<double>(xl.numel() / std::max<int64_t>(C, 1)) : 1.0,
                                  x.options());
    } else {
        at::Tensor tl = longTargets(noBatch ? target.unsqueeze(0) : target, "target");
        if (tl.sizes() != xl.sizes().slice(0, xl.dim() - 1)) fail("target shape must be input shape without the class dimension");
        at::Tensor valid = tl != ignoreIndex;
        at::Tensor safe = tl.masked_fill(~valid, 0);
        if (((safe < 0) | (safe >= C)).any().item<bool>()) fail("target holds a class index out of range");
        at::Tensor wy = w.index_select(0, safe.reshape({-1})).reshape(safe.sizes()) * valid;
        coef = at::one_hot(safe, C).to(x.scalar_type()) * (1 - smoothing) * wy.unsqueeze(-1);
        if (smoothing > 0) coef = coef + (smoothing / C) * w * valid.unsqueeze(-1);
        denom = reduction == at::Reduction::Mean ? wy.sum() : at::scalar_tensor(1.0, x.options());
    }
    at::Tensor gol = go;
    if (reduction == at::Reduction::None) gol = (noBatch ? go.unsqueeze(0) : go).unsqueeze(-1);
    // Every target ignored under mean: the loss is 0/0, but its gradient is zero (as autograd gives).
    at::Tensor G = denom.item<double>() == 0 ? at::zeros_like(coef * gol) : -coef * gol / denom;
    at::Tensor gx = G - at::softmax(xl, -1) * G.sum(-1, true);
    return noBatch ? gx.squeeze(0) : gx.movedim(-1, 1);
}

// Entries of log_alpha that the recursion does not define (t >= input_length, or
// s >= 2 * target_length + 1): the header leaves them unspecified; -inf (log 0) keeps them deterministic.
at::Tensor ctcMaskAlpha(const at::Tensor& logAlpha, const at::Tensor& il, const at::Tensor& tl) {
    auto opts = il.options();
    at::Tensor t = at::arange(logAlpha.size(1), opts).view({1, -1, 1});
    at::Tensor s = at::arange(logAlpha.size(2), opts).view({1, 1, -1});
    at::Tensor undefined = (t >= il.view({-1, 1, 1})) | (s >= (2 * tl + 1).view({-1, 1, 1}));
    return logAlpha.masked_fill(undefined, -std::numeric_limits<double>::infinity());
}

}  // namespace

extern "C" {

// ---- mse
diopiError_t diopiMSELoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                          diopiReduction_t reduction) {
    DIOPI_IMPL_BEGIN
    auto [x, t] = broadcastPair(tensor(input, "input"), tensor(target, "target"));
    assign(out, at::mse_loss(x, t, reductionOf(reduction)));
    DIOPI_IMPL_END
}

diopiError_t diopiMSELossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiReduction_t reduction) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    auto [x, t] = broadcastPair(opmath(in), opmath(tensor(target, "target")));
    at::Tensor g = at::mse_loss_backward(opmath(tensor(grad_output, "grad_output")), x, t, reductionOf(reduction));
    assign(grad_input, sumToInput(g, in.sizes()), "grad_input");
    DIOPI_IMPL_END
}

// ---- smooth L1 (beta = 0 is the L1 loss)
diopiError_t diopiSmoothL1Loss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                               diopiReduction_t reduction, double beta) {
    DIOPI_IMPL_BEGIN
    if (beta < 0) fail("beta must be non-negative");
    auto [x, t] = broadcastPair(tensor(input, "input"), tensor(target, "target"));
    assign(out, at::smooth_l1_loss(x, t, reductionOf(reduction), beta));
    DIOPI_IMPL_END
}

diopiError_t diopiSmoothL1LossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                       diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiReduction_t reduction, double beta) {
    DIOPI_IMPL_BEGIN
    if (beta < 0) fail("beta must be non-negative");
    at::Tensor in = tensor(input, "input");
    auto [x, t] = broadcastPair(opmath(in), opmath(tensor(target, "target")));
    at::Tensor g = at::smooth_l1_loss_backward(opmath(tensor(grad_output, "grad_output")), x, t, reductionOf(reduction), beta);
    assign(grad_input, sumToInput(g, in.sizes()), "grad_input");
    DIOPI_IMPL_END
}

// ---- binary cross entropy on probabilities; weight broadcasts to the input
diopiError_t diopiBCELoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                          diopiConstTensorHandle_t weight, diopiReduction_t reduction) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), w = optTensor(weight);
    if (w.defined()) w = w.expand(in.sizes());
    assign(out, at::binary_cross_entropy(in, tensor(target, "target"), w, reductionOf(reduction)));
    DIOPI_IMPL_END
}

diopiError_t diopiBCELossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                  diopiReduction_t reduction) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), w = optTensor(weight);
    if (w.defined()) w = w.expand(in.sizes());
    assign(grad_input, at::binary_cross_entropy_backward(tensor(grad_output, "grad_output"), in, tensor(target, "target"), w, reductionOf(reduction)),
           "grad_input");
    DIOPI_IMPL_END
}

// ---- binary cross entropy on logits; weight and pos_weight broadcast to the input
diopiError_t diopiBCEWithLogits(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                                diopiConstTensorHandle_t weight, diopiConstTensorHandle_t pos_weight, diopiReduction_t reduction) {
    DIOPI_IMPL_BEGIN
    assign(out, at::binary_cross_entropy_with_logits(tensor(input, "input"), tensor(target, "target"), optional(weight), optional(pos_weight),
                                                     reductionOf(reduction)));
    DIOPI_IMPL_END
}

// d/dx = (pos_weight * t + 1 - t) * sigmoid(x) - pos_weight * t  (times weight).
diopiError_t diopiBCEWithLogitsBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                        diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                        diopiConstTensorHandle_t pos_weight, diopiReduction_t reduction) {
    DIOPI_IMPL_BEGIN
    int64_t red = reductionOf(reduction);
    at::Tensor x = opmath(tensor(input, "input")), t = opmath(tensor(target, "target")), w = opmath(optTensor(weight)),
               pw = opmath(optTensor(pos_weight));
    at::Tensor sig = at::sigmoid(x);
    at::Tensor d;
    if (pw.defined()) {
        at::Tensor pt = pw * t;
        d = (pt + 1 - t) * sig - pt;
    } else {
        d = sig - t;
    }
    if (w.defined()) d = d * w;
    assign(grad_input, chainReduced(d.expand(x.sizes()), opmath(tensor(grad_output, "grad_output")), red, x.sizes()), "grad_input");
    DIOPI_IMPL_END
}

// ---- sigmoid focal loss (RetinaNet): alpha_t * (1 - p_t)^gamma * bce_with_logits, alpha < 0 disables alpha_t
diopiError_t diopiSigmoidFocalLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t inputs, diopiConstTensorHandle_t targets,
                                   float alpha, float gamma, diopiReduction_t reduction) {
    DIOPI_IMPL_BEGIN
    int64_t red = reductionOf(reduction);
    at::Tensor x = opmath(tensor(inputs, "inputs")), t = opmath(tensor(targets, "targets"));
    if (gamma < 0) fail("gamma must be non-negative");
    at::Tensor p = at::sigmoid(x);
    at::Tensor ce = at::binary_cross_entropy_with_logits(x, t, {}, {}, at::Reduction::None);
    at::Tensor pt = p * t + (1 - p) * (1 - t);
    at::Tensor loss = ce * at::pow(1 - pt, static_cast<double>(gamma));
    if (alpha >= 0) loss = (alpha * t + (1 - alpha) * (1 - t)) * loss;
    assign(out, reduce(loss, red));
    DIOPI_IMPL_END
}

// grad_output is read only (the header declares it non-const).
diopiError_t diopiSigmoidFocalLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                           diopiConstTensorHandle_t target, diopiTensorHandle_t grad_input, float gamma, float alpha,
                                           diopiReduction_t reduction) {
    DIOPI_IMPL_BEGIN
    int64_t red = reductionOf(reduction);
    at::Tensor x = opmath(tensor(input, "input")), t = opmath(tensor(target, "target")), go = opmath(tensor(grad_output, "grad_output"));
    if (gamma < 0) fail("gamma must be non-negative");
    double g = gamma;
    at::Tensor p = at::sigmoid(x);
    at::Tensor ce = at::binary_cross_entropy_with_logits(x, t, {}, {}, at::Reduction::None);
    at::Tensor pt = p * t + (1 - p) * (1 - t);
    at::Tensor m = at::pow(1 - pt, g);
    // d(1 - p_t)/dx = -(2t - 1) p (1 - p)
    at::Tensor dm = g == 0 ? at::zeros_like(x) : -g * at::pow(1 - pt, g - 1) * (2 * t - 1) * p * (1 - p);
    at::Tensor d = (p - t) * m + ce * dm;
    if (alpha >= 0) d = (alpha * t + (1 - alpha) * (1 - t)) * d;
    assign(grad_input, chainReduced(d, go, red, x.sizes()), "grad_input");
    DIOPI_IMPL_END
}

// ---- negative log likelihood over (C), (N, C) or (N, C, d1, ...) log-probabilities
diopiError_t diopiNLLLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                          diopiConstTensorHandle_t weight, diopiReduction_t reduction, int64_t ignore_index) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    Nll2d f = nllFlatten(in, longTargets(tensor(target, "target"), "target"));
    int64_t red = reductionOf(reduction);
    at::Tensor o = std::get<0>(at::nll_loss_forward(f.input, f.target, optTensor(weight), red, ignore_index));
    if (red == at::Reduction::None && !f.oneD) o = o.reshape(tensor(target, "target").sizes());
    assign(out, o);
    DIOPI_IMPL_END
}

diopiError_t diopiNLLLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                  diopiReduction_t reduction, int64_t ignore_index) {
    DIOPI_IMPL_BEGIN
    assign(grad_input,
           nllBackward(tensor(grad_output, "grad_output"), tensor(input, "input"), tensor(target, "target"), optTensor(weight),
                       reductionOf(reduction), ignore_index, nullptr),
           "grad_input");
    DIOPI_IMPL_END
}

// totalWeight (0-d): the sum of weight[target] over targets other than ignore_index, for every reduction.
diopiError_t diopiNLLLossV2(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t totalWeight, diopiConstTensorHandle_t input,
                            diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, diopiReduction_t reduction, int64_t ignore_index) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), w = optTensor(weight);
    Nll2d f = nllFlatten(in, longTargets(tensor(target, "target"), "target"));
    int64_t red = reductionOf(reduction);
    auto [o, tw] = at::nll_loss_forward(f.input, f.target, w, red, ignore_index);
    if (red == at::Reduction::None && !f.oneD) o = o.reshape(tensor(target, "target").sizes());
    assign(out, o);
    // ATen sums the weights of the targets taken (and checks their range) under mean and sum; without a reduction it
    // leaves the total at 0, which DIOPI's totalWeight is not.
    if (red == at::Reduction::None) tw = nllTotalWeight(f.target, w, in.size(in.dim() == 1 ? 0 : 1), ignore_index, in.options());
    assign(totalWeight, tw, "totalWeight");
    DIOPI_IMPL_END
}

diopiError_t diopiNLLLossV2Backward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                    diopiConstTensorHandle_t totalWeight, diopiReduction_t reduction, int64_t ignore_index) {
    DIOPI_IMPL_BEGIN
    at::Tensor tw = tensor(totalWeight, "totalWeight");
    assign(grad_input,
           nllBackward(tensor(grad_output, "grad_output"), tensor(input, "input"), tensor(target, "target"), optTensor(weight),
                       reductionOf(reduction), ignore_index, &tw),
           "grad_input");
    DIOPI_IMPL_END
}

// ---- cross entropy: class-index targets (integer) or class probabilities (floating, the input's shape)
diopiError_t diopiCrossEntropyLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                                   diopiConstTensorHandle_t weight, diopiReduction_t reduction, int64_t ignore_index, double label_smoothing) {
    DIOPI_IMPL_BEGIN
    if (label_smoothing < 0 || label_smoothing > 1) fail("label_smoothing must lie in [0, 1]");
    at::Tensor t = tensor(target, "target");
    if (!at::isFloatingType(t.scalar_type())) t = longTargets(t, "target");
    assign(out, at::cross_entropy_loss(tensor(input, "input"), t, optional(weight), reductionOf(reduction), ignore_index, label_smoothing));
    DIOPI_IMPL_END
}

diopiError_t diopiCrossEntropyLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                           diopiReduction_t reduction, int64_t ignore_index, double label_smoothing) {
    DIOPI_IMPL_BEGIN
    if (label_smoothing < 0 || label_smoothing > 1) fail("label_smoothing must lie in [0, 1]");
    assign(grad_input,
           crossEntropyBackward(opmath(tensor(grad_output, "grad_output")), opmath(tensor(input, "input")), opmath(tensor(target, "target")),
                                opmath(optTensor(weight)), reductionOf(reduction), ignore_index, label_smoothing),
           "grad_input");
    DIOPI_IMPL_END
}

// ---- CTC over log_probs (T, N, C); targets (N, S) padded or 1-d concatenated.
// neg_log_likelihood (N) is unreduced and keeps infinities; out applies zero_infinity and the
// reduction (mean divides each sample by its target length first).
diopiError_t diopiCTCLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t neg_log_likelihood, diopiTensorHandle_t log_alpha,
                          diopiConstTensorHandle_t log_probs, diopiConstTensorHandle_t targets, diopiConstTensorHandle_t input_lengths,
                          diopiConstTensorHandle_t target_lengths, int64_t blank, diopiReduction_t reduction, bool zero_infinity) {
    DIOPI_IMPL_BEGIN
    int64_t red = reductionOf(reduction);
    at::Tensor lp = tensor(log_probs, "log_probs");
    if (lp.dim() != 3) fail("log_probs must be (T, N, C)");
    at::Tensor tg = longTargets(tensor(targets, "targets"), "targets");
    at::Tensor il = longTargets(tensor(input_lengths, "input_lengths"), "input_lengths");
    at::Tensor tl = longTargets(tensor(target_lengths, "target_lengths"), "target_lengths");
    checkCtc(lp, tg, il, tl);
    // ATen's CPU CTC kernel indexes its arguments as if dense: hand it contiguous copies.
    lp = lp.contiguous();
    tg = tg.contiguous();
    auto [nll, alpha] = at::_ctc_loss(lp, tg, il.contiguous(), tl.contiguous(), blank, zero_infinity);
    if (neg_log_likelihood) assign(neg_log_likelihood, nll, "neg_log_likelihood");
    if (log_alpha) assign(log_alpha, ctcMaskAlpha(alpha, il, tl), "log_alpha");
    at::Tensor res = nll;
    if (zero_infinity) res = at::where(at::isinf(res), at::zeros({}, res.options()), res);
    if (red == at::Reduction::Mean) res = (res / tl.clamp_min(1).to(res.scalar_type())).mean();
    else if (red == at::Reduction::Sum) res = res.sum();
    assign(out, res);
    DIOPI_IMPL_END
}

diopiError_t diopiCTCLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t log_probs, diopiConstTensorHandle_t targets, diopiConstTensorHandle_t input_lengths,
                                  diopiConstTensorHandle_t target_lengths, diopiConstTensorHandle_t neg_log_likelihood, diopiConstTensorHandle_t log_alpha,
                                  int64_t blank, diopiReduction_t reduction, bool zero_infinity) {
    DIOPI_IMPL_BEGIN
    int64_t red = reductionOf(reduction);
    at::Tensor lp = tensor(log_probs, "log_probs");
    if (lp.dim() != 3) fail("log_probs must be (T, N, C)");
    at::Tensor tg = longTargets(tensor(targets, "targets"), "targets");
    at::Tensor il = longTargets(tensor(input_lengths, "input_lengths"), "input_lengths");
    at::Tensor tl = longTargets(tensor(target_lengths, "target_lengths"), "target_lengths");
    at::Tensor go = tensor(grad_output, "grad_output");
    checkCtc(lp, tg, il, tl);
    int64_t n = lp.size(1);
    at::Tensor nllT = tensor(neg_log_likelihood, "neg_log_likelihood"), alphaT = tensor(log_alpha, "log_alpha");
    if (nllT.numel() != n) fail("neg_log_likelihood needs one entry per batch element");
    if (alphaT.dim() != 3 || alphaT.size(0) != n || alphaT.size(1) != lp.size(0))
        fail("log_alpha must be (N, T, 2 * max target length + 1) as the forward returned it");
    at::Tensor perSample;
    if (red == at::Reduction::Mean) perSample = go.expand({n}) / tl.clamp_min(1).to(lp.scalar_type()) / static_cast<double>(n);
    else if (red == at::Reduction::Sum) perSample = go.expand({n});
    else perSample = go;
    at::Tensor g = at::_ctc_loss_backward(perSample.contiguous(), lp.contiguous(), tg.contiguous(), il.contiguous(), tl.contiguous(),
                                          nllT.contiguous(), alphaT.contiguous(), blank, zero_infinity);
    assign(grad_input, g, "grad_input");
    DIOPI_IMPL_END
}

}  // extern "C"
