// Activations: relu, sigmoid.
#include "helper.hpp"

using namespace impl::aten;

extern "C" {

diopiError_t diopiRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::relu(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").relu_();
    DIOPI_IMPL_END
}

diopiError_t diopiSigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::sigmoid(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiSigmoidInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").sigmoid_();
    DIOPI_IMPL_END
}

}  // extern "C"
