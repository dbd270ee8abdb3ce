// Elementwise unary math: abs, neg, exp, sqrt, tanh and their in-place forms.
#include "helper.hpp"

using namespace impl::aten;

extern "C" {

diopiError_t diopiAbs(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::abs(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiAbsInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").abs_();
    DIOPI_IMPL_END
}

diopiError_t diopiNeg(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::neg(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiNegInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").neg_();
    DIOPI_IMPL_END
}

diopiError_t diopiExp(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::exp(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiExpInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").exp_();
    DIOPI_IMPL_END
}

diopiError_t diopiSqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::sqrt(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiSqrtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").sqrt_();
    DIOPI_IMPL_END
}

diopiError_t diopiTanh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::tanh(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiTanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").tanh_();
    DIOPI_IMPL_END
}

}  // extern "C"
