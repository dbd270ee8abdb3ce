// Normalization: batch norm (incl. the SyncBN stats / gather / elemt / backward-reduce pieces), layer norm (normalized_shape
// and begin_norm_axis forms), group norm, instance norm and Lp normalize, forward and backward.
#include "helper.hpp"

#include <cmath>

using namespace impl::aten;

namespace {

/// Accumulation dtype: float for half types, else the dtype itself.
at::ScalarType opmath(at::ScalarType t) { return (t == at::kHalf || t == at::kBFloat16) ? at::kFloat : t; }

void requireFloat(const at::Tensor& t, const char* name) {
    if (!at::isFloatingType(t.scalar_type())) fail(std::string(name) + " must be a floating-point tensor", diopiDtypeNotSupported);
}

/// Dims of `x` other than the channel dim 1.
std::vector<int64_t> nonChannelDims(const at::Tensor& x) {
    std::vector<int64_t> dims{0};
    for (int64_t d = 2; d < x.dim(); ++d) dims.push_back(d);
    return dims;
}

/// A per-channel vector viewed to broadcast against an (N, C, ...) tensor.
at::Tensor channelView(const at::Tensor& v, const at::Tensor& x, const char* name) {
    if (v.dim() != 1 || v.size(0) != x.size(1))
        fail(std::string(name) + " must be 1-D of size C=" + std::to_string(x.size(1)) + ", got shape " + c10::str(v.sizes()));
    std::vector<int64_t> shape(x.dim(), 1);
    shape[1] = x.size(1);
    return v.view(shape);
}

/// An optional per-channel vector (weight, bias, running or saved statistic) must be 1-D of size C: ATen's CPU kernels
/// index it by channel without checking.
void checkChannelVec(const at::Tensor& v, const at::Tensor& x, const char* name) {
    if (v.defined() && (v.dim() != 1 || v.size(0) != x.size(1)))
        fail(std::string(name) + " must be 1-D of size C=" + std::to_string(x.size(1)) + ", got shape " + c10::str(v.sizes()));
}

at::Tensor requireBatched(diopiConstTensorHandle_t h, const char* name) {
    at::Tensor x = tensor(h, name);
    if (x.dim() < 2) fail(std::string(name) + " must have at least 2 dims (N, C, ...), got " + std::to_string(x.dim()) + "-D");
    requireFloat(x, name);
    return x;
}

/// Writes a statistic into an output that holds the same number of elements (its shape is the caller's choice:
/// e.g. (N, G) or (N*G,) for group norm, (M...) or (M..., 1...) for layer norm).
void assignStat(diopiTensorHandle_t out, const at::Tensor& v, const char* name) {
    at::Tensor o = tensor(out, name);
    if (o.numel() != v.numel())
        fail(std::string(name) + " must hold " + std::to_string(v.numel()) + " elements, got shape " + c10::str(o.sizes()));
    assign(out, v.reshape(o.sizes()), name);
}

int64_t wrapDim(int64_t d, int64_t rank, const char* name) {
    if (d < -rank || d >= rank) fail(std::string(name) + " " + std::to_string(d) + " is out of range for a " + std::to_string(rank) + "-D input");
    return d < 0 ? d + rank : d;
}

/// Layer-norm statistics shape: the leading dims followed by ones.
std::vector<int64_t> statShape(const at::Tensor& x, int64_t axis) {
    std::vector<int64_t> s(x.sizes().begin(), x.sizes().begin() + axis);
    s.resize(x.dim(), 1);
    return s;
}

at::Tensor onesIfUndefined(const at::Tensor& w, at::IntArrayRef shape, const at::Tensor& like) {
    return w.defined() ? w : at::ones(shape, like.options());
}

void layerNormBackward(diopiTensorHandle_t gradInput, diopiTensorHandle_t gradWeight, diopiTensorHandle_t gradBias, const at::Tensor& go,
                       const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, const at::Tensor& mean, const at::Tensor& rstd,
                       int64_t axis) {
    at::IntArrayRef ns = x.sizes().slice(axis);
    std::vector<int64_t> ss = statShape(x, axis);
    int64_t m = 1;
    for (int64_t d = 0; d < axis; ++d) m *= x.size(d);
    if (mean.numel() != m || rstd.numel() != m) fail("mean and rstd must hold " + std::to_string(m) + " elements each");
    at::Tensor w = onesIfUndefined(weight, ns, x);
    at::Tensor b = bias.defined() ? bias : at::zeros(ns, x.options());
    // Statistics of a 16-bit input may come in float32 (the header allows both); ATen's CPU kernel takes them in the
    // input's dtype, as its own forward stores them.
    auto [gi, gw, gb] = at::native_layer_norm_backward(go, x, ns, mean.reshape(ss).to(x.scalar_type()).contiguous(),
                                                       rstd.reshape(ss).to(x.scalar_type()).contiguous(), w, b,
                                                       {gradInput != nullptr, gradWeight != nullptr, gradBias != nullptr});
    if (gradInput) assign(gradInput, gi, "grad_input");
    if (gradWeight) assign(gradWeight, gw, "grad_weight");
    if (gradBias) assign(gradBias, gb, "grad_bias");
}

/// Instance norm as batch norm over a (1, N*C, L) view: every (n, c) instance becomes one channel.
struct InstanceView {
    at::Tensor flat;    // (1, N*C, L)
    at::Tensor moved;   // input with the channel axis moved to dim 1
    at::Tensor weight;  // (N*C,) or undefined
    at::Tensor bias;
    int64_t n, c, axis;
};

InstanceView instanceView(const at::Tensor& x, int64_t axisArg, const at::Tensor& scale, const at::Tensor& bias) {
    if (x.dim() < 2) fail("input must have at least 2 dims (N, C, ...), got " + std::to_string(x.dim()) + "-D");
    requireFloat(x, "input");
    int64_t axis = wrapDim(axisArg, x.dim(), "axis");
    if (axis == 0) fail("axis must name the channel dim; dim 0 is the batch dim");
    InstanceView v;
    v.axis = axis;
    v.moved = x.movedim(axis, 1);
    v.n = v.moved.size(0);
    v.c = v.moved.size(1);
    int64_t l = 1;  // spatial extent, spelled out: -1 cannot be inferred for an empty batch
    for (int64_t d = 2; d < v.moved.dim(); ++d) l *= v.moved.size(d);
    v.flat = v.moved.reshape({1, v.n * v.c, l});
    auto perInstance = [&](const at::Tensor& p, const char* name) {
        if (!p.defined()) return at::Tensor();
        if (p.dim() != 1 || p.size(0) != v.c) fail(std::string(name) + " must be 1-D of size C=" + std::to_string(v.c));
        return p.repeat({v.n});
    };
    v.weight = perInstance(scale, "scale");
    v.bias = perInstance(bias, "bias");
    return v;
}

}  // namespace

extern "C" {

// ---------------------------------------------------------------- batch norm

diopiError_t diopiBatchNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t save_mean, diopiTensorHandle_t save_invstd,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias,
                            diopiTensorHandle_t running_mean, diopiTensorHandle_t running_var, bool training, double momentum, double eps) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = requireBatched(input, "input");
    at::Tensor rm = optTensor(running_mean), rv = optTensor(running_var);
    if (rm.defined() != rv.defined()) fail("running_mean and running_var must both be given or both be NULL");
    if (!training && !rm.defined()) fail("evaluation mode (training=false) needs running_mean and running_var");
    if (eps < 0) fail("eps must be >= 0");
    checkChannelVec(optTensor(weight), x, "weight");
    checkChannelVec(optTensor(bias), x, "bias");
    checkChannelVec(rm, x, "running_mean");
    checkChannelVec(rv, x, "running_var");
    // Half types normalize in float: ATen's half CPU kernel loses about 1% on short channels.
    at::ScalarType acc = opmath(x.scalar_type());
    auto up = [&](const at::Tensor& t) { return t.defined() ? t.to(acc).contiguous() : t; };
    at::Tensor rmA = up(rm), rvA = up(rv);
    auto [o, sm, si] = at::native_batch_norm(x.to(acc), up(optTensor(weight)), up(optTensor(bias)), rmA, rvA, training, momentum, eps);
    if (training && rm.defined()) {  // the running statistics were updated in the float copies
        rm.copy_(rmA);
        rv.copy_(rvA);
    }
    assign(out, o);
    if (!training) {  // statistics used: the running ones
        sm = rm;
        si = at::rsqrt(rv.to(opmath(rv.scalar_type())) + eps);
    }
    if (save_mean) assign(save_mean, sm, "save_mean");
    if (save_invstd) assign(save_invstd, si, "save_invstd");
    DIOPI_IMPL_END
}

diopiError_t diopiBatchNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                    diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t weight, diopiConstTensorHandle_t running_mean, diopiConstTensorHandle_t running_var,
                                    diopiConstTensorHandle_t save_mean, diopiConstTensorHandle_t save_invstd, bool training, double eps) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = requireBatched(input, "input");
    at::Tensor go = tensor(grad_output, "grad_output");
    at::Tensor sm = optTensor(save_mean), si = optTensor(save_invstd);
    at::Tensor rm = optTensor(running_mean), rv = optTensor(running_var);
    if (training && (!sm.defined() || !si.defined())) fail("training mode needs save_mean and save_invstd");
    if (!training && (!rm.defined() || !rv.defined())) fail("evaluation mode (training=false) needs running_mean and running_var");
    if (go.sizes() != x.sizes()) fail("grad_output and input must have the same shape");
    checkChannelVec(optTensor(weight), x, "weight");
    checkChannelVec(rm, x, "running_mean");
    checkChannelVec(rv, x, "running_var");
    checkChannelVec(sm, x, "save_mean");
    checkChannelVec(si, x, "save_invstd");
    if (x.numel() == 0) {  // ATen divides by the element count: an empty batch has zero gradients
        if (grad_input) assign(grad_input, at::zeros_like(go), "grad_input");
        if (grad_weight) assign(grad_weight, at::zeros({x.size(1)}, x.options()), "grad_weight");
        if (grad_bias) assign(grad_bias, at::zeros({x.size(1)}, x.options()), "grad_bias");
        return;
    }
    // Saved statistics of a 16-bit input may come in float32 (the header allows both). ATen's CPU kernel takes every
    // statistic in one dtype: float32 when a parameter is float32 (mixed precision, as under autocast), else the
    // input's dtype, as its own forward stores them.
    at::Tensor w = optTensor(weight);
    bool mixed = (w.defined() && w.scalar_type() == at::kFloat) || (rm.defined() && rm.scalar_type() == at::kFloat) ||
                 (rv.defined() && rv.scalar_type() == at::kFloat);
    at::ScalarType statType = mixed ? at::kFloat : x.scalar_type();
    auto asStat = [&](const at::Tensor& t) { return t.defined() ? t.to(statType) : t; };
    auto [gi, gw, gb] = at::native_batch_norm_backward(go, x, optional(weight), asStat(rm), asStat(rv), asStat(sm), asStat(si), training, eps,
                                                       {grad_input != nullptr, grad_weight != nullptr, grad_bias != nullptr});
    if (grad_input) assign(grad_input, gi, "grad_input");
    if (grad_weight) assign(grad_weight, gw, "grad_weight");
    if (grad_bias) assign(grad_bias, gb, "grad_bias");
    DIOPI_IMPL_END
}

diopiError_t diopiBatchNormStats(diopiContextHandle_t ctx, diopiTensorHandle_t mean, diopiTensorHandle_t invstd, diopiConstTensorHandle_t input,
                                 double eps) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = requireBatched(input, "input");
    at::Tensor acc = x.to(opmath(x.scalar_type()));
    auto [var, mu] = at::var_mean(acc, nonChannelDims(x), /*correction=*/0, /*keepdim=*/false);
    assign(mean, mu, "mean");
    assign(invstd, at::rsqrt(var + eps), "invstd");
    DIOPI_IMPL_END
}

diopiError_t diopiBatchNormGatherStatsWithCounts(diopiContextHandle_t ctx, diopiTensorHandle_t mean, diopiTensorHandle_t invstd,
                                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t mean_all, diopiConstTensorHandle_t invstd_all,
                                                 diopiTensorHandle_t running_mean, diopiTensorHandle_t running_var, float momentum, float eps,
                                                 diopiConstTensorHandle_t counts) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = requireBatched(input, "input");
    at::ScalarType acc = opmath(x.scalar_type());
    at::Tensor ma = tensor(mean_all, "mean_all").to(acc), ia = tensor(invstd_all, "invstd_all").to(acc);
    at::Tensor n = tensor(counts, "counts").to(acc);
    if (ma.dim() != 2 || ia.sizes() != ma.sizes()) fail("mean_all and invstd_all must be 2-D (world, C) of the same shape");
    if (n.dim() != 1 || n.size(0) != ma.size(0)) fail("counts must be 1-D with one entry per row of mean_all");
    at::Tensor w = n.unsqueeze(1);
    at::Tensor total = n.sum();
    at::Tensor mu = (ma * w).sum(0) / total;
    // Each group's biased variance is 1/invstd^2 - eps; merge them around the global mean.
    at::Tensor var = ((ia.pow(-2) - static_cast<double>(eps) + (ma - mu).pow(2)) * w).sum(0) / total;
    assign(mean, mu, "mean");
    assign(invstd, at::rsqrt(var + static_cast<double>(eps)), "invstd");
    const double m = momentum;
    if (running_mean) {
        at::Tensor rm = tensor(running_mean, "running_mean");
        rm.copy_(rm.to(acc) * (1 - m) + mu * m);
    }
    if (running_var) {
        at::Tensor rv = tensor(running_var, "running_var");
        rv.copy_(rv.to(acc) * (1 - m) + var * total / (total - 1) * m);
    }
    DIOPI_IMPL_END
}

diopiError_t diopiBatchNormElemt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                 diopiConstTensorHandle_t bias, diopiConstTensorHandle_t mean, diopiConstTensorHandle_t invstd, float eps) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = requireBatched(input, "input");
    at::ScalarType acc = opmath(x.scalar_type());
    at::Tensor y = (x.to(acc) - channelView(tensor(mean, "mean").to(acc), x, "mean")) * channelView(tensor(invstd, "invstd").to(acc), x, "invstd");
    if (weight) y = y * channelView(tensor(weight, "weight").to(acc), x, "weight");
    if (bias) y = y + channelView(tensor(bias, "bias").to(acc), x, "bias");
    assign(out, y);
    DIOPI_IMPL_END
}

diopiError_t diopiBatchNormBackwardReduce(diopiContextHandle_t ctx, diopiTensorHandle_t sum_dy, diopiTensorHandle_t sum_dy_xmu,
                                          diopiTensorHandle_t grad_weight, diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_out,
                                          diopiConstTensorHandle_t input, diopiConstTensorHandle_t mean, diopiConstTensorHandle_t invstd,
                                          diopiConstTensorHandle_t weight, bool input_g, bool weight_g, bool bias_g) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = requireBatched(input, "input");
    at::ScalarType acc = opmath(x.scalar_type());
    at::Tensor dy = tensor(grad_out, "grad_out").to(acc);
    if (dy.sizes() != x.sizes()) fail("grad_out and input must have the same shape");
    std::vector<int64_t> dims = nonChannelDims(x);
    at::Tensor sdy = dy.sum(dims);
    at::Tensor sdyxmu = (dy * (x.to(acc) - channelView(tensor(mean, "mean").to(acc), x, "mean"))).sum(dims);
    if (input_g) {
        if (sum_dy) assign(sum_dy, sdy, "sum_dy");
        if (sum_dy_xmu) assign(sum_dy_xmu, sdyxmu, "sum_dy_xmu");
    }
    if (weight_g && grad_weight) assign(grad_weight, sdyxmu * tensor(invstd, "invstd").to(acc), "grad_weight");
    if (bias_g && grad_bias) assign(grad_bias, sdy, "grad_bias");
    DIOPI_IMPL_END
}

diopiError_t diopiBatchNormBackwardElemt(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_out,
                                         diopiConstTensorHandle_t input, diopiConstTensorHandle_t mean, diopiConstTensorHandle_t invstd,
                                         diopiConstTensorHandle_t weight, diopiConstTensorHandle_t sum_dy, diopiConstTensorHandle_t sum_dy_xmu,
                                         diopiConstTensorHandle_t count) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = requireBatched(input, "input");
    at::ScalarType acc = opmath(x.scalar_type());
    at::Tensor cnt = tensor(count, "count");
    if (at::isFloatingType(cnt.scalar_type()) == false && cnt.scalar_type() != at::kInt && cnt.scalar_type() != at::kLong)
        fail("count must be an integer or floating-point tensor", diopiDtypeNotSupported);
    at::Tensor total = cnt.to(acc).sum();
    at::Tensor is = channelView(tensor(invstd, "invstd").to(acc), x, "invstd");
    at::Tensor meanDy = channelView(tensor(sum_dy, "sum_dy").to(acc), x, "sum_dy") / total;
    at::Tensor meanDyXmu = channelView(tensor(sum_dy_xmu, "sum_dy_xmu").to(acc), x, "sum_dy_xmu") / total;
    at::Tensor xmu = x.to(acc) - channelView(tensor(mean, "mean").to(acc), x, "mean");
    at::Tensor gi = (tensor(grad_out, "grad_out").to(acc) - meanDy - xmu * is * is * meanDyXmu) * is;
    if (weight) gi = gi * channelView(tensor(weight, "weight").to(acc), x, "weight");
    assign(grad_input, gi, "grad_input");
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- layer norm

diopiError_t diopiLayerNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t save_mean, diopiTensorHandle_t save_invstd,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias,
                            diopiSize_t normalized_shape, double eps) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    requireFloat(x, "input");
    at::IntArrayRef ns = ints(normalized_shape);
    if (ns.empty()) fail("normalized_shape must not be empty");
    auto [o, mean, rstd] = at::native_layer_norm(x, ns, optional(weight), optional(bias), eps);
    assign(out, o);
    if (save_mean) assignStat(save_mean, mean, "save_mean");
    if (save_invstd) assignStat(save_invstd, rstd, "save_invstd");
    DIOPI_IMPL_END
}

diopiError_t diopiLayerNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                    diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiConstTensorHandle_t mean,
                                    diopiConstTensorHandle_t rstd, diopiSize_t normalized_shape) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    requireFloat(x, "input");
    at::IntArrayRef ns = ints(normalized_shape);
    if (ns.empty() || ns.size() > static_cast<size_t>(x.dim())) fail("normalized_shape must have 1 to input.dim() entries");
    int64_t axis = x.dim() - static_cast<int64_t>(ns.size());
    if (x.sizes().slice(axis) != ns) fail("normalized_shape must match the trailing dims of input");
    layerNormBackward(grad_input, grad_weight, grad_bias, tensor(grad_output, "grad_output"), x, optTensor(weight), optTensor(bias),
                      tensor(mean, "mean"), tensor(rstd, "rstd"), axis);
    DIOPI_IMPL_END
}

diopiError_t diopiLayerNormGB(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t running_mean, diopiTensorHandle_t running_var,
                              diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, const double eps,
                              const int64_t begin_norm_axis) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    requireFloat(x, "input");
    if (x.dim() == 0) fail("input must have at least 1 dim");
    int64_t axis = wrapDim(begin_norm_axis, x.dim(), "begin_norm_axis");
    at::IntArrayRef ns = x.sizes().slice(axis);
    auto [o, mean, rstd] = at::native_layer_norm(x, ns, optional(weight), optional(bias), eps);
    assign(out, o);
    if (running_mean) assignStat(running_mean, mean, "running_mean");
    // Despite its name running_var receives rstd = 1/sqrt(var + eps), the statistic the backward takes (DIOPI 1.0).
    if (running_var) assignStat(running_var, rstd, "running_var");
    DIOPI_IMPL_END
}

diopiError_t diopiLayerNormGBBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                      diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiConstTensorHandle_t running_mean,
                                      diopiConstTensorHandle_t running_std, const int64_t begin_norm_axis) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    requireFloat(x, "input");
    if (x.dim() == 0) fail("input must have at least 1 dim");
    int64_t axis = wrapDim(begin_norm_axis, x.dim(), "begin_norm_axis");
    // running_std holds rstd = 1/sqrt(var + eps) as diopiLayerNormGB writes it (the name is DIOPI 1.0's); ATen wants the
    // statistics in the input's dtype.
    layerNormBackward(grad_input, grad_weight, grad_bias, tensor(grad_output, "grad_output"), x, optTensor(weight), optTensor(bias),
                      tensor(running_mean, "running_mean").to(x.scalar_type()), tensor(running_std, "running_std").to(x.scalar_type()), axis);
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- group norm

diopiError_t diopiGroupNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t save_mean, diopiTensorHandle_t save_invstd,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, int64_t num_groups,
                            double eps) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = requireBatched(input, "input");
    int64_t n = x.size(0), c = x.size(1);
    if (num_groups <= 0 || c % num_groups != 0)
        fail("num_groups must be positive and divide C=" + std::to_string(c) + ", got " + std::to_string(num_groups));
    int64_t hw = c == 0 || n == 0 ? 1 : x.numel() / (n * c);
    for (int64_t d = 2; d < x.dim(); ++d)
        if (x.size(d) == 0) hw = 0;
    checkChannelVec(optTensor(weight), x, "weight");
    checkChannelVec(optTensor(bias), x, "bias");
    // ATen's CPU kernel reads weight and bias as dense arrays: pass them contiguous.
    auto dense = [](diopiConstTensorHandle_t h) { return h ? std::optional<at::Tensor>(optTensor(h).contiguous()) : std::nullopt; };
    auto [o, mean, rstd] = at::native_group_norm(x.contiguous(), dense(weight), dense(bias), n, c, hw, num_groups, eps);
    assign(out, o);
    if (save_mean) assignStat(save_mean, mean, "save_mean");
    if (save_invstd) assignStat(save_invstd, rstd, "save_invstd");
    DIOPI_IMPL_END
}

diopiError_t diopiGroupNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                    diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t weight, diopiConstTensorHandle_t mean, diopiConstTensorHandle_t rstd, int64_t num_groups) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = requireBatched(input, "input");
    int64_t n = x.size(0), c = x.size(1);
    if (num_groups <= 0 || c % num_groups != 0)
        fail("num_groups must be positive and divide C=" + std::to_string(c) + ", got " + std::to_string(num_groups));
    int64_t hw = c == 0 || n == 0 ? 1 : x.numel() / (n * c);
    for (int64_t d = 2; d < x.dim(); ++d)
        if (x.size(d) == 0) hw = 0;
    at::Tensor mu = tensor(mean, "mean"), rs = tensor(rstd, "rstd");
    if (mu.numel() != n * num_groups || rs.numel() != n * num_groups) fail("mean and rstd must hold N*num_groups elements each");
    checkChannelVec(optTensor(weight), x, "weight");
    if (tensor(grad_output, "grad_output").sizes() != x.sizes()) fail("grad_output and input must have the same shape");
    at::Tensor w = onesIfUndefined(optTensor(weight), {c}, x).contiguous();  // read as a dense array by ATen
    auto [gi, gw, gb] = at::native_group_norm_backward(tensor(grad_output, "grad_output").contiguous(), x.contiguous(), mu.reshape({n, num_groups}).contiguous(),
                                                       rs.reshape({n, num_groups}).contiguous(), w, n, c, hw, num_groups,
                                                       {grad_input != nullptr, grad_weight != nullptr, grad_bias != nullptr});
    if (grad_input) assign(grad_input, gi, "grad_input");
    if (grad_weight) assign(grad_weight, gw, "grad_weight");
    if (grad_bias) assign(grad_bias, gb, "grad_bias");
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- instance norm

diopiError_t diopiInstanceNorm(diopiContextHandle_t ctx, diopiTensorHandle_t output, diopiConstTensorHandle_t input, const int64_t axis,
                               diopiConstTensorHandle_t scale, diopiConstTensorHandle_t bias, const double eps) {
    DIOPI_IMPL_BEGIN
    InstanceView v = instanceView(tensor(input, "input"), axis, optTensor(scale), optTensor(bias));
    if (v.flat.numel() == 0) {  // no instance or no position: nothing to normalize (ATen refuses empty batch norm)
        assign(output, tensor(input, "input").clone(), "output");
        return;
    }
    auto [o, sm, si] = at::native_batch_norm(v.flat, v.weight, v.bias, {}, {}, /*training=*/true, 0.0, eps);
    assign(output, o.reshape(v.moved.sizes()).movedim(1, v.axis), "output");
    DIOPI_IMPL_END
}

diopiError_t diopiInstanceNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_scale,
                                       diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t scale, diopiConstTensorHandle_t bias, const int64_t axis, const double eps) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    InstanceView v = instanceView(x, axis, optTensor(scale), optTensor(bias));
    at::Tensor go = tensor(grad_output, "grad_output");
    if (go.sizes() != x.sizes()) fail("grad_output and input must have the same shape");
    if (v.flat.numel() == 0) {  // an empty input: empty grad_input, zero parameter gradients
        if (grad_input) assign(grad_input, at::zeros_like(go), "grad_input");
        if (grad_scale) assign(grad_scale, at::zeros({v.c}, x.options()), "grad_scale");
        if (grad_bias) assign(grad_bias, at::zeros({v.c}, x.options()), "grad_bias");
        return;
    }
    at::Tensor g = go.movedim(v.axis, 1).reshape(v.flat.sizes());
    auto [o, sm, si] = at::native_batch_norm(v.flat, v.weight, v.bias, {}, {}, /*training=*/true, 0.0, eps);
    auto [gi, gw, gb] = at::native_batch_norm_backward(g, v.flat, v.weight, {}, {}, sm, si, /*train=*/true, eps,
                                                       {grad_input != nullptr, grad_scale != nullptr, grad_bias != nullptr});
    if (grad_input) assign(grad_input, gi.reshape(v.moved.sizes()).movedim(1, v.axis), "grad_input");
    if (grad_scale) assign(grad_scale, gw.view({v.n, v.c}).sum(0), "grad_scale");
    if (grad_bias) assign(grad_bias, gb.view({v.n, v.c}).sum(0), "grad_bias");
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- Lp normalize

diopiError_t diopiNormalize(diopiContextHandle_t ctx, diopiTensorHandle_t output, diopiConstTensorHandle_t input, const float p, const int64_t axis,
                            const double eps) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    requireFloat(x, "input");
    int64_t d = wrapDim(axis, std::max<int64_t>(x.dim(), 1), "axis");
    at::Tensor n = at::linalg_vector_norm(x, p, {d}, /*keepdim=*/true);
    assign(output, x / n.clamp_min(eps), "output");
    DIOPI_IMPL_END
}

diopiError_t diopiNormalizeBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, const float p, const int64_t axis, const double eps) {
    DIOPI_IMPL_BEGIN
    at::Tensor x0 = tensor(input, "input");
    requireFloat(x0, "input");
    int64_t d = wrapDim(axis, std::max<int64_t>(x0.dim(), 1), "axis");
    at::ScalarType acc = opmath(x0.scalar_type());
    at::Tensor x = x0.to(acc);
    at::Tensor g = tensor(grad_output, "grad_output").to(acc);
    if (g.sizes() != x.sizes()) fail("grad_output and input must have the same shape");
    // y = x / max(n, eps), n = ||x||_p along `axis`.
    at::Tensor n = at::linalg_vector_norm(x, p, {d}, /*keepdim=*/true);
    at::Tensor den = n.clamp_min(eps);
    at::Tensor gi = g / den;
    at::Tensor dn;
    if (p == 0) {
        dn = at::zeros_like(x);
    } else if (p == 1) {
        dn = x.sgn();
    } else if (std::isinf(p)) {
        at::Tensor hit = (x.abs() == n).to(acc);
        dn = hit * x.sgn() / hit.sum({d}, true);
    } else if (p == 2) {
        dn = (x / n).masked_fill(n == 0, 0);
    } else {
        dn = (x * x.abs().pow(p - 2) / n.pow(p - 1)).masked_fill(n == 0, 0);
    }
    // The clamp passes the gradient only where n >= eps.
    at::Tensor coeff = ((g * x).sum({d}, true) / (den * den)).masked_fill(n < eps, 0);
    assign(grad_input, gi - coeff * dn, "grad_input");
    DIOPI_IMPL_END
}

}  // extern "C"
