// Matrix products: mm, bmm, linear (+ backward).
#include "helper.hpp"

using namespace impl::aten;

extern "C" {

diopiError_t diopiMm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat2) {
    DIOPI_IMPL_BEGIN
    assign(out, at::mm(tensor(input, "input"), tensor(mat2, "mat2")));
    DIOPI_IMPL_END
}

diopiError_t diopiBmm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat2) {
    DIOPI_IMPL_BEGIN
    assign(out, at::bmm(tensor(input, "input"), tensor(mat2, "mat2")));
    DIOPI_IMPL_END
}

diopiError_t diopiLinear(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                         diopiConstTensorHandle_t bias) {
    DIOPI_IMPL_BEGIN
    assign(out, at::linear(tensor(input, "input"), tensor(weight, "weight"), optional(bias)));
    DIOPI_IMPL_END
}

diopiError_t diopiLinearBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                 diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                 diopiConstTensorHandle_t weight) {
    DIOPI_IMPL_BEGIN
    at::Tensor go = tensor(grad_output, "grad_output"), in = tensor(input, "input"), w = tensor(weight, "weight");
    if (grad_input) assign(grad_input, at::matmul(go, w), "grad_input");
    // Fold leading batch dimensions so the weight gradient is one GEMM.
    at::Tensor go2 = go.reshape({-1, go.size(-1)});
    if (grad_weight) assign(grad_weight, at::mm(go2.t(), in.reshape({-1, in.size(-1)})), "grad_weight");
    if (grad_bias) assign(grad_bias, go2.sum(0), "grad_bias");
    DIOPI_IMPL_END
}

}  // extern "C"
