// Softmax and log-softmax, forward and backward.
#include "helper.hpp"

using namespace impl::aten;

extern "C" {

diopiError_t diopiSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor o = tensor(out, "out"), x = tensor(input, "input");
    if (at::Tensor d = directOut(o, x.sizes(), o.scalar_type(), {x}); d.defined())
        at::softmax_out(d, x, dim, o.scalar_type());
    else
        assign(o, at::softmax(x, dim, o.scalar_type()));
    DIOPI_IMPL_END
}

diopiError_t diopiSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t output, int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor go = tensor(grad_output, "grad_output"), y = tensor(output, "output");
    if (at::Tensor d = directOut(grad_input, go.sizes(), go.scalar_type(), {go, y}, "grad_input"); d.defined())
        at::_softmax_backward_data_out(d, go, y, dim, go.scalar_type());
    else
        assign(grad_input, at::_softmax_backward_data(go, y, dim, go.scalar_type()), "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiLogSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor o = tensor(out, "out"), x = tensor(input, "input");
    if (at::Tensor d = directOut(o, x.sizes(), o.scalar_type(), {x}); d.defined())
        at::log_softmax_out(d, x, dim, o.scalar_type());
    else
        assign(o, at::log_softmax(x, dim, o.scalar_type()));
    DIOPI_IMPL_END
}

diopiError_t diopiLogSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                     diopiConstTensorHandle_t output, int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor go = tensor(grad_output, "grad_output"), y = tensor(output, "output");
    if (at::Tensor d = directOut(grad_input, go.sizes(), go.scalar_type(), {go, y}, "grad_input"); d.defined())
        at::_log_softmax_backward_data_out(d, go, y, dim, go.scalar_type());
    else
        assign(grad_input, at::_log_softmax_backward_data(go, y, dim, go.scalar_type()), "grad_input");
    DIOPI_IMPL_END
}

}  // extern "C"
