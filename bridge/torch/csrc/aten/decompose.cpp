// Operators the counted CPU fallback could not serve: ATen hands them to this
// device (as it hands them to CUDA) but the CPU has no kernel for them, or no
// kernel for the dtype. Each is computed here another way, so the fallback
// never turns a model that works on CUDA into an error:
//  - the fused RNN cells ATen picks for every non-CPU device (LSTM, GRU and
//    their cells): decomposed into elementwise operators the device serves,
//    with the workspace layout CUDA's kernels use, so autograd's formulas
//    (derivatives.yaml) take the backward kernels below;
//  - histc of an integer tensor (CUDA counts integers, the CPU refuses them),
//    counted with the device's own operators;
//  - native_dropout_backward, which has CPU and CUDA kernels but no
//    decomposition: the gradient times the kept mask and the scale;
//  - matrix products with an output dtype (mm/bmm/addmm/baddbmm .dtype);
//  - the statistics kernels of nn.SyncBatchNorm (batch_norm_stats, ...);
//  - record_stream, which the device's caching allocator serves;
//  - fused Adam and AdamW where DIOPI has no function (a grad scaler's arguments, Adam's L2 decay):
//    reached through the fallback (addDecomposition), not registered here, as the mapping serves
//    _fused_adamw_ itself.
// tests/ops/test_fallback_coverage.py walks every operator that can reach the
// fallback and checks none of them lacks a way to run.
#include <ATen/native/Resize.h>
#include <torch/library.h>

#include "aten/bridge.hpp"
#include "runtime/allocator.hpp"

namespace diopi_torch {
namespace {

// ---------------------------------------------------------------- LSTM / GRU cells

at::Tensor withBias(at::Tensor gates, const std::optional<at::Tensor>& bias) {
    if (bias.has_value() && bias->defined()) return gates + *bias;
    return gates;
}

// Workspace: the activated gates (i, f, g, o), as CUDA's kernel keeps them.
std::tuple<at::Tensor, at::Tensor, at::Tensor> lstmCell(const at::Tensor& inputGates, const at::Tensor& hiddenGates,
                                                        const at::Tensor& cx, const std::optional<at::Tensor>& inputBias,
                                                        const std::optional<at::Tensor>& hiddenBias) {
    at::Tensor gates = withBias(withBias(inputGates + hiddenGates, inputBias), hiddenBias);
    auto c = gates.chunk(4, 1);
    at::Tensor i = c[0].sigmoid(), f = c[1].sigmoid(), g = c[2].tanh(), o = c[3].sigmoid();
    at::Tensor cy = f * cx + i * g;
    at::Tensor hy = o * cy.tanh();
    return {hy, cy, at::cat({i, f, g, o}, 1)};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> lstmCellBackward(const std::optional<at::Tensor>& gradHy,
                                                                const std::optional<at::Tensor>& gradCy, const at::Tensor& cx,
                                                                const at::Tensor& cy, const at::Tensor& workspace, bool hasBias) {
    const bool hasHy = gradHy.has_value() && gradHy->defined(), hasCy = gradCy.has_value() && gradCy->defined();
    if (!hasHy && !hasCy) return {at::Tensor(), at::Tensor(), at::Tensor()};
    auto w = workspace.chunk(4, 1);
    const at::Tensor &i = w[0], &f = w[1], &g = w[2], &o = w[3];
    at::Tensor tanhCy = cy.tanh();
    at::Tensor gcx = hasCy ? gradCy->clone() : at::zeros_like(cy);
    at::Tensor go = at::zeros_like(o);
    if (hasHy) {
        gcx = gcx + *gradHy * o * (1 - tanhCy * tanhCy);
        go = *gradHy * tanhCy * o * (1 - o);
    }
    at::Tensor gi = gcx * g * i * (1 - i);
    at::Tensor gf = gcx * cx * f * (1 - f);
    at::Tensor gg = gcx * i * (1 - g * g);
    at::Tensor gradGates = at::cat({gi, gf, gg, go}, 1);
    at::Tensor gradBias = hasBias ? gradGates.sum(0) : at::Tensor();
    return {gradGates, gcx * f, gradBias};
}

// Workspace: (r, z, n, hx, hn) with hn the hidden part of the new gate, biased, as CUDA's kernel keeps them.
std::tuple<at::Tensor, at::Tensor> gruCell(const at::Tensor& inputGates, const at::Tensor& hiddenGates, const at::Tensor& hx,
                                           const std::optional<at::Tensor>& inputBias, const std::optional<at::Tensor>& hiddenBias) {
    auto ig = withBias(inputGates, inputBias).chunk(3, 1);
    auto hg = withBias(hiddenGates, hiddenBias).chunk(3, 1);
    at::Tensor r = (ig[0] + hg[0]).sigmoid();
    at::Tensor z = (ig[1] + hg[1]).sigmoid();
    at::Tensor n = (ig[2] + r * hg[2]).tanh();
    at::Tensor hy = n + z * (hx - n);
    return {hy, at::cat({r, z, n, hx, hg[2]}, 1)};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor, at::Tensor> gruCellBackward(const at::Tensor& gradHy,
                                                                                       const at::Tensor& workspace, bool hasBias) {
    auto w = workspace.chunk(5, 1);
    const at::Tensor &r = w[0], &z = w[1], &n = w[2], &hx = w[3], &hn = w[4];
    at::Tensor gz = gradHy * (hx - n) * z * (1 - z);
    at::Tensor gn = gradHy * (1 - z) * (1 - n * n);
    at::Tensor gr = gn * hn * r * (1 - r);
    at::Tensor gradInput = at::cat({gr, gz, gn}, 1);
    at::Tensor gradHidden = at::cat({gr, gz, gn * r}, 1);
    at::Tensor gradHx = gradHy * z;
    if (!hasBias) return {gradInput, gradHidden, gradHx, at::Tensor(), at::Tensor()};
    return {gradInput, gradHidden, gradHx, gradInput.sum(0), gradHidden.sum(0)};
}

// ---------------------------------------------------------------- histc of integers

// torch.histc of integers as CUDA counts them: the range [min, max] (from the data when both are equal, widened by
// one on each side when that is empty too); values outside it are not counted; a value's bin is computed in integer
// arithmetic, the top edge belonging to the last bin. Computed on the device: each value's bin, values outside the
// range sent to a spare bin past the last, the counts accumulated by index_put_ and the spare bin cut off.
at::Tensor histcKernel(const at::Tensor& self, int64_t bins, const at::Scalar& min, const at::Scalar& max) {
    if (!at::isIntegralType(self.scalar_type(), /*includeBool=*/false))
        return fallback<at::_ops::histc>("no mapping entry", self, bins, min, max);
    TORCH_CHECK(bins > 0, "bins must be > 0");
    int64_t lo = 0, hi = 0;
    AT_DISPATCH_INTEGRAL_TYPES(self.scalar_type(), "histc", [&] {  // the range in the input's own type, as CUDA takes it
        lo = static_cast<scalar_t>(min.to<int64_t>());
        hi = static_cast<scalar_t>(max.to<int64_t>());
    });
    at::Tensor values = self.reshape(-1).to(at::kLong);
    if (lo == hi && values.numel() > 0) {  // the range from the data: read back to the host, as CUDA's histc does
        lo = values.min().item<int64_t>();
        hi = values.max().item<int64_t>();
    }
    if (lo == hi) {
        lo -= 1;
        hi += 1;
    }
    TORCH_CHECK(lo < hi, "max must be larger than min");
    at::Tensor inside = at::bitwise_and(values.ge(lo), values.le(hi));
    at::Tensor bin = values.sub(lo).mul(bins).floor_divide(hi - lo).clamp(0, bins - 1);
    bin = at::where(inside, bin, at::scalar_tensor(bins, bin.options()));
    at::Tensor counts = at::zeros({bins + 1}, values.options());
    counts.index_put_({bin}, at::ones_like(bin), /*accumulate=*/true);
    return counts.narrow(0, 0, bins).to(self.scalar_type());
}

at::Tensor& histcOut(const at::Tensor& self, int64_t bins, const at::Scalar& min, const at::Scalar& max, at::Tensor& out) {
    if (!at::isIntegralType(self.scalar_type(), false))
        return fallback<at::_ops::histc_out>("no mapping entry", self, bins, min, max, out);
    at::Tensor r = histcKernel(self, bins, min, max);
    at::native::resize_output(out, r.sizes());
    out.copy_(r);
    return out;
}

// ---------------------------------------------------------------- dropout's backward

// The CPU's formula, in its order: the gradient times the mask (bool, promoted) times the scale.
at::Tensor nativeDropoutBackward(const at::Tensor& grad, const at::Tensor& mask, double scale) {
    return grad.mul(mask).mul(scale);
}

// ---------------------------------------------------------------- products with an output dtype

void checkOutDtype(const at::Tensor& mat, c10::ScalarType outDtype) {
    TORCH_CHECK(outDtype == mat.scalar_type() ||
                    (outDtype == at::kFloat && (mat.scalar_type() == at::kHalf || mat.scalar_type() == at::kBFloat16)),
                "out_dtype must be the same as input dtype or fp32 for fp16/bf16 inputs");
}

at::Tensor mmDtype(const at::Tensor& self, const at::Tensor& mat2, c10::ScalarType outDtype) {
    checkOutDtype(self, outDtype);
    return at::mm(self.to(outDtype), mat2.to(outDtype));
}
at::Tensor bmmDtype(const at::Tensor& self, const at::Tensor& mat2, c10::ScalarType outDtype) {
    checkOutDtype(self, outDtype);
    return at::bmm(self.to(outDtype), mat2.to(outDtype));
}
at::Tensor addmmDtype(const at::Tensor& self, const at::Tensor& m1, const at::Tensor& m2, c10::ScalarType outDtype,
                      const at::Scalar& beta, const at::Scalar& alpha) {
    checkOutDtype(m1, outDtype);
    return at::addmm(self.to(outDtype), m1.to(outDtype), m2.to(outDtype), beta, alpha);
}
at::Tensor baddbmmDtype(const at::Tensor& self, const at::Tensor& b1, const at::Tensor& b2, c10::ScalarType outDtype,
                        const at::Scalar& beta, const at::Scalar& alpha) {
    checkOutDtype(b1, outDtype);
    return at::baddbmm(self.to(outDtype), b1.to(outDtype), b2.to(outDtype), beta, alpha);
}
at::Tensor& intoOut(const at::Tensor& r, at::Tensor& out) {
    TORCH_CHECK(out.scalar_type() == r.scalar_type(), "out_dtype must be the same as the dtype of the provided out tensor");
    at::native::resize_output(out, r.sizes());
    return out.copy_(r);
}
at::Tensor& mmDtypeOut(const at::Tensor& self, const at::Tensor& mat2, c10::ScalarType outDtype, at::Tensor& out) {
    return intoOut(mmDtype(self, mat2, outDtype), out);
}
at::Tensor& bmmDtypeOut(const at::Tensor& self, const at::Tensor& mat2, c10::ScalarType outDtype, at::Tensor& out) {
    return intoOut(bmmDtype(self, mat2, outDtype), out);
}
at::Tensor& addmmDtypeOut(const at::Tensor& self, const at::Tensor& m1, const at::Tensor& m2, c10::ScalarType outDtype,
                          const at::Scalar& beta, const at::Scalar& alpha, at::Tensor& out) {
    return intoOut(addmmDtype(self, m1, m2, outDtype, beta, alpha), out);
}
at::Tensor& baddbmmDtypeOut(const at::Tensor& self, const at::Tensor& b1, const at::Tensor& b2, c10::ScalarType outDtype,
                            const at::Scalar& beta, const at::Scalar& alpha, at::Tensor& out) {
    return intoOut(baddbmmDtype(self, b1, b2, outDtype, beta, alpha), out);
}

// ---------------------------------------------------------------- SyncBatchNorm's kernels

// The statistics kernels nn.SyncBatchNorm runs on every rank (CUDA's only).
// Channels are dim 1; statistics of a 16-bit input are float32, as CUDA's are.
std::vector<int64_t> reducedDims(const at::Tensor& input) {
    std::vector<int64_t> dims{0};
    for (int64_t d = 2; d < input.dim(); ++d) dims.push_back(d);
    return dims;
}
at::Tensor perChannel(const at::Tensor& t, const at::Tensor& input) {
    std::vector<int64_t> shape(input.dim(), 1);
    shape[1] = input.size(1);
    return t.reshape(shape);
}
at::Tensor statsInput(const at::Tensor& input) {
    return at::isReducedFloatingType(input.scalar_type()) ? input.to(at::kFloat) : input;
}

std::tuple<at::Tensor, at::Tensor> batchNormStats(const at::Tensor& input, double eps) {
    at::Tensor x = statsInput(input);
    auto dims = reducedDims(x);
    at::Tensor mean = x.mean(dims);
    at::Tensor var = (x - perChannel(mean, x)).square().mean(dims);
    return {mean, (var + eps).rsqrt()};
}

at::Tensor batchNormElemt(const at::Tensor& input, const std::optional<at::Tensor>& weight, const std::optional<at::Tensor>& bias,
                          const at::Tensor& mean, const at::Tensor& invstd, double eps) {
    at::Tensor y = (statsInput(input) - perChannel(mean, input)) * perChannel(invstd, input);
    if (weight.has_value() && weight->defined()) y = y * perChannel(*weight, input);
    if (bias.has_value() && bias->defined()) y = y + perChannel(*bias, input);
    return y.to(input.scalar_type());
}

at::Tensor& batchNormElemtOut(const at::Tensor& input, const std::optional<at::Tensor>& weight, const std::optional<at::Tensor>& bias,
                              const at::Tensor& mean, const at::Tensor& invstd, double eps, at::Tensor& out) {
    at::Tensor r = batchNormElemt(input, weight, bias, mean, invstd, eps);
    at::native::resize_output(out, r.sizes());
    return out.copy_(r);
}

// Every rank's (mean, invstd, count) into the global statistics; the running ones are updated in place
// with the unbiased variance, as F.batch_norm does.
std::tuple<at::Tensor, at::Tensor> batchNormGatherStatsWithCounts(const at::Tensor& input, const at::Tensor& mean,
                                                                  const at::Tensor& invstd,
                                                                  const std::optional<at::Tensor>& runningMean,
                                                                  const std::optional<at::Tensor>& runningVar, double momentum,
                                                                  double eps, const at::Tensor& counts) {
    at::Tensor c = counts.to(mean.scalar_type()).reshape({-1, 1});
    at::Tensor n = c.sum();
    at::Tensor gmean = (c * mean).sum(0) / n;
    at::Tensor var = invstd.square().reciprocal() - eps;
    at::Tensor gvar = (c * (var + (mean - gmean).square())).sum(0) / n;
    if (runningMean.has_value() && runningMean->defined())
        runningMean->copy_(*runningMean * (1 - momentum) + gmean.to(runningMean->scalar_type()) * momentum);
    if (runningVar.has_value() && runningVar->defined())
        runningVar->copy_(*runningVar * (1 - momentum) + (gvar * n / (n - 1)).to(runningVar->scalar_type()) * momentum);
    return {gmean, (gvar + eps).rsqrt()};
}

std::tuple<at::Tensor, at::Tensor> batchNormGatherStats(const at::Tensor& input, const at::Tensor& mean, const at::Tensor& invstd,
                                                        const std::optional<at::Tensor>& runningMean,
                                                        const std::optional<at::Tensor>& runningVar, double momentum, double eps,
                                                        int64_t count) {
    at::Tensor counts = at::full({mean.size(0)}, static_cast<double>(count), mean.options());
    return batchNormGatherStatsWithCounts(input, mean, invstd, runningMean, runningVar, momentum, eps, counts);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor> batchNormBackwardReduce(
    const at::Tensor& gradOut, const at::Tensor& input, const at::Tensor& mean, const at::Tensor& invstd,
    const std::optional<at::Tensor>& weight, bool inputG, bool weightG, bool biasG) {
    auto dims = reducedDims(input);
    at::Tensor dy = statsInput(gradOut);
    at::Tensor sumDy = dy.sum(dims);
    at::Tensor sumDyXmu = (dy * (statsInput(input) - perChannel(mean, input))).sum(dims);
    at::Tensor gradWeight, gradBias;
    const bool hasWeight = weight.has_value() && weight->defined();
    if (weightG && hasWeight) gradWeight = (sumDyXmu * invstd).to(weight->scalar_type());
    if (biasG && hasWeight) gradBias = sumDy.to(weight->scalar_type());
    if (!inputG) return {at::Tensor(), at::Tensor(), gradWeight, gradBias};
    return {sumDy, sumDyXmu, gradWeight, gradBias};
}

at::Tensor batchNormBackwardElemt(const at::Tensor& gradOut, const at::Tensor& input, const at::Tensor& mean, const at::Tensor& invstd,
                                  const std::optional<at::Tensor>& weight, const at::Tensor& sumDy, const at::Tensor& sumDyXmu,
                                  const at::Tensor& count) {
    at::Tensor n = count.to(sumDy.scalar_type()).sum();
    at::Tensor meanDy = perChannel(sumDy / n, input);
    at::Tensor meanDyXmu = perChannel(sumDyXmu / n, input);
    at::Tensor is = perChannel(invstd, input);
    at::Tensor g = (statsInput(gradOut) - meanDy - (statsInput(input) - perChannel(mean, input)) * is.square() * meanDyXmu) * is;
    if (weight.has_value() && weight->defined()) g = g * perChannel(*weight, input);
    return g.to(input.scalar_type());
}

// ---------------------------------------------------------------- fused Adam / AdamW

// torch.optim's fused Adam and AdamW on this device. The mapping serves _fused_adamw_ by diopiFusedAdamW,
// which has no grad_scale or found_inf (what GradScaler passes), and Adam's L2 decay has no DIOPI function;
// the fallback brings those calls here. ATen's kernels (CPU and CUDA) skip the whole step when found_inf is
// exactly 1, leaving the grads scaled too; otherwise each grad is divided by grad_scale and written back
// into the grad before the update. Here the same, with found_inf never read on the host (on a chip it is
// still being computed): the update runs on copies and where(found_inf == 1, old, new) picks on the device.
// One parameter at a time, so the copies never exceed one parameter's state.
void fusedAdam(const char* aten, bool decoupled, at::TensorList params, at::TensorList grads, at::TensorList expAvgs,
               at::TensorList expAvgSqs, at::TensorList maxExpAvgSqs, at::TensorList steps, double lr, double beta1,
               double beta2, double weightDecay, double eps, bool amsgrad, bool maximize,
               const std::optional<at::Tensor>& gradScale, const std::optional<at::Tensor>& foundInf) {
    auto guard = DeviceCheck::scope(aten, params, grads, expAvgs, expAvgSqs, maxExpAvgSqs, steps, gradScale, foundInf);
    const size_t n = params.size();
    TORCH_CHECK(grads.size() == n, "Expected grads.size() == n_tensors to be true, but got false.");
    TORCH_CHECK(expAvgs.size() == n, "Expected exp_avgs.size() == n_tensors to be true, but got false.");
    TORCH_CHECK(expAvgSqs.size() == n, "Expected exp_avg_sqs.size() == n_tensors to be true, but got false.");
    TORCH_CHECK(maxExpAvgSqs.size() == (amsgrad ? n : 0), amsgrad ? "Expected max_exp_avg_sqs.size() == n_tensors to be true, but got false."
                                                                  : "Expected max_exp_avg_sqs.size() == 0 to be true, but got false.");
    TORCH_CHECK(steps.size() == n, "Expected state_steps.size() == n_tensors to be true, but got false.");
    const bool scaled = present(gradScale), skippable = present(foundInf);
    const at::Tensor skip = skippable ? foundInf->eq(1) : at::Tensor();
    for (size_t i = 0; i < n; ++i) {
        const at::Tensor unscaled = scaled ? grads[i].div(*gradScale) : grads[i];
        // Adam's L2 decay folded into the gradient AdamW updates with; AdamW negates it under maximize, hence the sign.
        const at::Tensor g = decoupled || weightDecay == 0 ? unscaled : unscaled.add(params[i], maximize ? -weightDecay : weightDecay);
        std::vector<at::Tensor> state{params[i], expAvgs[i], expAvgSqs[i]};
        if (amsgrad) state.push_back(maxExpAvgSqs[i]);
        std::vector<at::Tensor> next = state;
        if (skippable)
            for (at::Tensor& t : next) t = t.clone();
        std::vector<at::Tensor> maxSq;
        if (amsgrad) maxSq.push_back(next[3]);
        at::_fused_adamw_({next[0]}, {g}, {next[1]}, {next[2]}, maxSq, {steps[i]}, lr, beta1, beta2, decoupled ? weightDecay : 0.0, eps,
                          amsgrad, maximize);
        if (skippable)
            for (size_t k = 0; k < state.size(); ++k) state[k].copy_(at::where(skip, state[k], next[k]));
        if (scaled) grads[i].copy_(skippable ? at::where(skip, grads[i], unscaled) : unscaled);
    }
}

void fusedAdamW(at::TensorList params, at::TensorList grads, at::TensorList expAvgs, at::TensorList expAvgSqs,
                at::TensorList maxExpAvgSqs, at::TensorList steps, double lr, double beta1, double beta2, double weightDecay,
                double eps, bool amsgrad, bool maximize, const std::optional<at::Tensor>& gradScale,
                const std::optional<at::Tensor>& foundInf) {
    if (!present(gradScale) && !present(foundInf))  // the mapping's own call, declined by the vendor: nothing to add here
        return fallback<at::_ops::_fused_adamw_>(decomposedReason(), params, grads, expAvgs, expAvgSqs, maxExpAvgSqs, steps,
                                                 lr, beta1, beta2, weightDecay, eps, amsgrad, maximize, gradScale, foundInf);
    fusedAdam("_fused_adamw_", true, params, grads, expAvgs, expAvgSqs, maxExpAvgSqs, steps, lr, beta1, beta2, weightDecay, eps,
              amsgrad, maximize, gradScale, foundInf);
}

void fusedAdamL2(at::TensorList params, at::TensorList grads, at::TensorList expAvgs, at::TensorList expAvgSqs,
                 at::TensorList maxExpAvgSqs, at::TensorList steps, double lr, double beta1, double beta2, double weightDecay,
                 double eps, bool amsgrad, bool maximize, const std::optional<at::Tensor>& gradScale,
                 const std::optional<at::Tensor>& foundInf) {
    fusedAdam("_fused_adam_", false, params, grads, expAvgs, expAvgSqs, maxExpAvgSqs, steps, lr, beta1, beta2, weightDecay, eps,
              amsgrad, maximize, gradScale, foundInf);
}

const bool kFusedAdamDecomposed = [] {
    addDecomposition("_fused_adamw_", c10::KernelFunction::makeFromUnboxedFunction(TORCH_FN(fusedAdamW)));
    addDecomposition("_fused_adam_", c10::KernelFunction::makeFromUnboxedFunction(TORCH_FN(fusedAdamL2)));
    return true;
}();

// ---------------------------------------------------------------- streams

void recordStream(at::Tensor& self, c10::Stream s) {
    TORCH_CHECK(s.device_type() == c10::DeviceType::PrivateUse1, "record_stream: the stream is not a diopi stream");
    deviceAllocator()->recordStream(self.storage().data_ptr(), s);
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
    m.impl("_thnn_fused_lstm_cell", lstmCell);
    m.impl("_thnn_fused_lstm_cell_backward_impl", lstmCellBackward);
    m.impl("_thnn_fused_gru_cell", gruCell);
    m.impl("_thnn_fused_gru_cell_backward", gruCellBackward);
    m.impl("histc", histcKernel);
    m.impl("histc.out", histcOut);
    m.impl("native_dropout_backward", nativeDropoutBackward);
    m.impl("mm.dtype", mmDtype);
    m.impl("bmm.dtype", bmmDtype);
    m.impl("addmm.dtype", addmmDtype);
    m.impl("baddbmm.dtype", baddbmmDtype);
    m.impl("mm.dtype_out", mmDtypeOut);
    m.impl("bmm.dtype_out", bmmDtypeOut);
    m.impl("addmm.dtype_out", addmmDtypeOut);
    m.impl("baddbmm.dtype_out", baddbmmDtypeOut);
    m.impl("record_stream", recordStream);
    m.impl("batch_norm_stats", batchNormStats);
    m.impl("batch_norm_elemt", batchNormElemt);
    m.impl("batch_norm_elemt.out", batchNormElemtOut);
    m.impl("batch_norm_gather_stats", batchNormGatherStats);
    m.impl("batch_norm_gather_stats_with_counts", batchNormGatherStatsWithCounts);
    m.impl("batch_norm_backward_reduce", batchNormBackwardReduce);
    m.impl("batch_norm_backward_elemt", batchNormBackwardElemt);
}

}  // namespace
}  // namespace diopi_torch
