// RMS normalization (forward with the inverse RMS, and backward) over the trailing normalized_shape dims.
#include <string>
#include <vector>

#include "helper.hpp"

using namespace impl::aten;

namespace {

at::ScalarType computeType(const at::Tensor& t) { return t.scalar_type() == at::kDouble ? at::kDouble : at::kFloat; }

// The trailing dims normalized_shape names (checked against input) and the leading ones.
struct NormDims {
    std::vector<int64_t> normed, leading;
};

NormDims normDims(const at::Tensor& x, diopiSize_t normalized_shape) {
    at::IntArrayRef ns = ints(normalized_shape);
    int64_t k = static_cast<int64_t>(ns.size());
    if (k == 0) fail("normalized_shape must not be empty");
    if (x.dim() < k || x.sizes().slice(x.dim() - k) != ns) fail("normalized_shape must match the trailing dims of input");
    NormDims d;
    for (int64_t i = 0; i < x.dim(); ++i) (i < x.dim() - k ? d.leading : d.normed).push_back(i);
    return d;
}

void checkParam(const at::Tensor& p, diopiSize_t normalized_shape, const char* name) {
    if (p.defined() && p.sizes() != ints(normalized_shape)) fail(std::string(name) + " must have shape normalized_shape");
}

// inv_rms = 1 / sqrt(mean(x^2) + eps) over the normalized dims, kept as size-1 dims.
at::Tensor invRms(const at::Tensor& xf, const NormDims& d, double eps) { return (xf.pow(2).mean(d.normed, true) + eps).rsqrt(); }

void checkInvRms(const at::Tensor& t, const at::Tensor& r) {
    if (t.defined() && t.numel() != r.numel()) fail("inv_rms must hold one value per normalized row");
}

}  // namespace

extern "C" {

// out = input * inv_rms * weight + bias with inv_rms = 1 / sqrt(mean(input^2) + eps) over the trailing dims named by
// normalized_shape; weight / bias: normalized_shape, NULL = 1 / 0. inv_rms (NULL: not stored) holds one value per row:
// any shape with that many elements, e.g. input.shape[:-k], (rows,) or input.shape[:-k] + (1,) * k; float32 for half
// inputs (float64 for float64). Computed in float32 (float64 for float64), rounded once.
diopiError_t diopiRMSNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t inv_rms, diopiConstTensorHandle_t input,
                          diopiSize_t normalized_shape, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, double eps) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input"), w = optTensor(weight), b = optTensor(bias);
    if (!at::isFloatingType(x.scalar_type())) fail("input must be a floating-point tensor", diopiDtypeNotSupported);
    NormDims d = normDims(x, normalized_shape);
    checkParam(w, normalized_shape, "weight");
    checkParam(b, normalized_shape, "bias");
    auto ct = computeType(x);
    at::Tensor xf = x.to(ct), r = invRms(xf, d, eps);
    at::Tensor y = xf * r;
    if (w.defined()) y = y * w.to(ct);
    if (b.defined()) y = y + b.to(ct);
    assign(out, y, "out");
    if (inv_rms != nullptr) {
        at::Tensor o = tensor(inv_rms, "inv_rms");
        checkInvRms(o, r);
        assign(inv_rms, r.reshape(o.sizes()), "inv_rms");
    }
    DIOPI_IMPL_END
}

// Gradients of diopiRMSNorm. inv_rms (may be NULL) is the forward's and is only checked for size: the inverse RMS is
// recomputed from input and eps at full precision. With xhat = input * inv_rms and g = grad_output * weight:
//   grad_input = inv_rms * (g - xhat * mean(g * xhat)),  grad_weight = sum(grad_output * xhat),  grad_bias = sum(grad_output)
// (sums over the leading dims). NULL gradient handles are skipped.
diopiError_t diopiRMSNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight, diopiTensorHandle_t grad_bias,
                                  diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                  diopiConstTensorHandle_t bias, diopiConstTensorHandle_t inv_rms, diopiSize_t normalized_shape, double eps) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input"), go = tensor(grad_output, "grad_output"), w = optTensor(weight), b = optTensor(bias);
    if (!at::isFloatingType(x.scalar_type())) fail("input must be a floating-point tensor", diopiDtypeNotSupported);
    if (go.sizes() != x.sizes()) fail("grad_output must have the shape of input");
    NormDims d = normDims(x, normalized_shape);
    checkParam(w, normalized_shape, "weight");
    checkParam(b, normalized_shape, "bias");
    auto ct = computeType(x);
    at::Tensor xf = x.to(ct), dy = go.to(ct), r = invRms(xf, d, eps);
    checkInvRms(optTensor(inv_rms), r);
    at::Tensor xhat = xf * r;
    at::Tensor g = w.defined() ? dy * w.to(ct) : dy;
    if (grad_input != nullptr) assign(grad_input, r * (g - xhat * (g * xhat).mean(d.normed, true)), "grad_input");
    auto leadingSum = [&](const at::Tensor& t) { return d.leading.empty() ? t : t.sum(d.leading); };
    if (grad_weight != nullptr) assign(grad_weight, leadingSum(dy * xhat), "grad_weight");
    if (grad_bias != nullptr) assign(grad_bias, leadingSum(dy), "grad_bias");
    DIOPI_IMPL_END
}

}  // extern "C"
