// Convolutions.
#include "helper.hpp"

using namespace impl::aten;

extern "C" {

diopiError_t diopiConvolution2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups) {
    DIOPI_IMPL_BEGIN
    assign(out, at::convolution(tensor(input, "input"), tensor(weight, "weight"), optional(bias), ints(stride), ints(padding), ints(dilation),
                                /*transposed=*/false, /*output_padding=*/{0, 0}, groups));
    DIOPI_IMPL_END
}

diopiError_t diopiConvolution2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                        diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                        diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes, diopiSize_t stride, diopiSize_t padding,
                                        diopiSize_t dilation, int64_t groups) {
    DIOPI_IMPL_BEGIN
    std::optional<at::IntArrayRef> biasSizes;
    if (bias_sizes) biasSizes = ints(*bias_sizes);
    auto [gi, gw, gb] = at::convolution_backward(tensor(grad_output, "grad_output"), tensor(input, "input"), tensor(weight, "weight"), biasSizes,
                                                 ints(stride), ints(padding), ints(dilation), false, {0, 0}, groups,
                                                 {grad_input != nullptr, grad_weight != nullptr, grad_bias != nullptr && bias_sizes != nullptr});
    if (grad_input) assign(grad_input, gi, "grad_input");
    if (grad_weight) assign(grad_weight, gw, "grad_weight");
    if (grad_bias && bias_sizes) assign(grad_bias, gb, "grad_bias");
    DIOPI_IMPL_END
}

}  // extern "C"
