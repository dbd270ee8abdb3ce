// Softmax and log-softmax, forward and backward.
#include "helper.hpp"

using namespace impl::aten;

extern "C" {

diopiError_t diopiSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor o = tensor(out, "out");
    assign(out, at::softmax(tensor(input, "input"), dim, o.scalar_type()));
    DIOPI_IMPL_END
}

diopiError_t diopiSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t output, int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor go = tensor(grad_output, "grad_output");
    assign(grad_input, at::_softmax_backward_data(go, tensor(output, "output"), dim, go.scalar_type()), "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiLogSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor o = tensor(out, "out");
    assign(out, at::log_softmax(tensor(input, "input"), dim, o.scalar_type()));
    DIOPI_IMPL_END
}

diopiError_t diopiLogSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                     diopiConstTensorHandle_t output, int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor go = tensor(grad_output, "grad_output");
    assign(grad_input, at::_log_softmax_backward_data(go, tensor(output, "output"), dim, go.scalar_type()), "grad_input");
    DIOPI_IMPL_END
}

}  // extern "C"
