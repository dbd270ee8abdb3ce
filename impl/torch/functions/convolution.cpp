// Convolutions: 2-d and 3-d, direct and transposed, forward and backward; im2col / col2im.
#include "helper.hpp"

using namespace impl::aten;

namespace {

/// Checks the rank of a convolution operand: batched NC + `spatial` dims.
void requireRank(const at::Tensor& t, int64_t spatial, const char* name) {
    if (t.dim() != spatial + 2)
        fail(std::string(name) + " must be " + std::to_string(spatial + 2) + "-D (N, C, spatial...), got " + std::to_string(t.dim()) + "-D");
}

/// A size argument of `n` entries; a single entry is repeated over all spatial dims.
std::vector<int64_t> spatialArg(diopiSize_t s, int64_t n, const char* name, int64_t fallback) {
    at::IntArrayRef v = ints(s);
    if (v.empty()) return std::vector<int64_t>(n, fallback);
    if (static_cast<int64_t>(v.size()) == 1) return std::vector<int64_t>(n, v[0]);
    if (static_cast<int64_t>(v.size()) != n) fail(std::string(name) + " must have " + std::to_string(n) + " entries, got " + std::to_string(v.size()));
    return v.vec();
}

void convForward(diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias,
                 diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, diopiSize_t* outputPadding, int64_t groups, int64_t spatial,
                 bool transposed) {
    at::Tensor x = tensor(input, "input");
    at::Tensor w = tensor(weight, "weight");
    requireRank(x, spatial, "input");
    requireRank(w, spatial, "weight");
    if (groups < 1) fail("groups must be >= 1, got " + std::to_string(groups));
    std::vector<int64_t> op(spatial, 0);
    if (outputPadding) op = spatialArg(*outputPadding, spatial, "output_padding", 0);
    assign(out, at::convolution(x, w, optional(bias), spatialArg(stride, spatial, "stride", 1), spatialArg(padding, spatial, "padding", 0),
                                spatialArg(dilation, spatial, "dilation", 1), transposed, op, groups));
}

void convBackward(diopiTensorHandle_t gradInput, diopiTensorHandle_t gradWeight, diopiTensorHandle_t gradBias, diopiConstTensorHandle_t gradOutput,
                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiSize_t* biasSizes, diopiSize_t stride, diopiSize_t padding,
                  diopiSize_t dilation, diopiSize_t* outputPadding, int64_t groups, int64_t spatial, bool transposed) {
    at::Tensor go = tensor(gradOutput, "grad_output");
    at::Tensor x = tensor(input, "input");
    at::Tensor w = tensor(weight, "weight");
    requireRank(x, spatial, "input");
    requireRank(w, spatial, "weight");
    requireRank(go, spatial, "grad_output");
    if (groups < 1) fail("groups must be >= 1, got " + std::to_string(groups));
    std::optional<at::IntArrayRef> bs;
    if (biasSizes) bs = ints(*biasSizes);
    std::vector<int64_t> op(spatial, 0);
    if (outputPadding) op = spatialArg(*outputPadding, spatial, "output_padding", 0);
    const bool wantBias = gradBias != nullptr && biasSizes != nullptr;
    auto [gi, gw, gb] = at::convolution_backward(go, x, w, bs, spatialArg(stride, spatial, "stride", 1), spatialArg(padding, spatial, "padding", 0),
                                                 spatialArg(dilation, spatial, "dilation", 1), transposed, op, groups,
                                                 {gradInput != nullptr, gradWeight != nullptr, wantBias});
    if (gradInput) assign(gradInput, gi, "grad_input");
    if (gradWeight) assign(gradWeight, gw, "grad_weight");
    if (wantBias) assign(gradBias, gb, "grad_bias");
}

}  // namespace

extern "C" {

diopiError_t diopiConvolution2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups) {
    DIOPI_IMPL_BEGIN
    convForward(out, input, weight, bias, stride, padding, dilation, nullptr, groups, 2, false);
    DIOPI_IMPL_END
}

diopiError_t diopiConvolution2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                        diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                        diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes, diopiSize_t stride, diopiSize_t padding,
                                        diopiSize_t dilation, int64_t groups) {
    DIOPI_IMPL_BEGIN
    convBackward(grad_input, grad_weight, grad_bias, grad_output, input, weight, bias_sizes, stride, padding, dilation, nullptr, groups, 2, false);
    DIOPI_IMPL_END
}

diopiError_t diopiConvolution3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups) {
    DIOPI_IMPL_BEGIN
    convForward(out, input, weight, bias, stride, padding, dilation, nullptr, groups, 3, false);
    DIOPI_IMPL_END
}

diopiError_t diopiConvolution3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                        diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                        diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes, diopiSize_t stride, diopiSize_t padding,
                                        diopiSize_t dilation, int64_t groups) {
    DIOPI_IMPL_BEGIN
    convBackward(grad_input, grad_weight, grad_bias, grad_output, input, weight, bias_sizes, stride, padding, dilation, nullptr, groups, 3, false);
    DIOPI_IMPL_END
}

diopiError_t diopiConvTranspose2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                  diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding, diopiSize_t output_padding, int64_t groups,
                                  diopiSize_t dilation) {
    DIOPI_IMPL_BEGIN
    convForward(out, input, weight, bias, stride, padding, dilation, &output_padding, groups, 2, true);
    DIOPI_IMPL_END
}

diopiError_t diopiConvTranspose2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                          diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes, diopiSize_t stride, diopiSize_t padding,
                                          diopiSize_t dilation, diopiSize_t output_padding, int64_t groups) {
    DIOPI_IMPL_BEGIN
    convBackward(grad_input, grad_weight, grad_bias, grad_output, input, weight, bias_sizes, stride, padding, dilation, &output_padding, groups, 2, true);
    DIOPI_IMPL_END
}

diopiError_t diopiConvTranspose3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                  diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding, diopiSize_t output_padding, int64_t groups,
                                  diopiSize_t dilation) {
    DIOPI_IMPL_BEGIN
    convForward(out, input, weight, bias, stride, padding, dilation, &output_padding, groups, 3, true);
    DIOPI_IMPL_END
}

diopiError_t diopiConvTranspose3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                          diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes, diopiSize_t stride, diopiSize_t padding,
                                          diopiSize_t dilation, diopiSize_t output_padding, int64_t groups) {
    DIOPI_IMPL_BEGIN
    convBackward(grad_input, grad_weight, grad_bias, grad_output, input, weight, bias_sizes, stride, padding, dilation, &output_padding, groups, 3, true);
    DIOPI_IMPL_END
}

diopiError_t diopiIm2Col(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                         diopiSize_t dilation, diopiSize_t padding, diopiSize_t stride) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    if (x.dim() != 3 && x.dim() != 4) fail("input must be 3-D (C, H, W) or 4-D (N, C, H, W), got " + std::to_string(x.dim()) + "-D");
    assign(out, at::im2col(x, spatialArg(kernel_size, 2, "kernel_size", 1), spatialArg(dilation, 2, "dilation", 1), spatialArg(padding, 2, "padding", 0),
                           spatialArg(stride, 2, "stride", 1)));
    DIOPI_IMPL_END
}

diopiError_t diopiCol2Im(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size,
                         diopiSize_t kernel_size, diopiSize_t dilation, diopiSize_t padding, diopiSize_t stride) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    if (x.dim() != 2 && x.dim() != 3) fail("input must be 2-D (C*kH*kW, L) or 3-D (N, C*kH*kW, L), got " + std::to_string(x.dim()) + "-D");
    assign(out, at::col2im(x, spatialArg(output_size, 2, "output_size", 1), spatialArg(kernel_size, 2, "kernel_size", 1),
                           spatialArg(dilation, 2, "dilation", 1), spatialArg(padding, 2, "padding", 0), spatialArg(stride, 2, "stride", 1)));
    DIOPI_IMPL_END
}

}  // extern "C"
