// Copies and casts.
#include "helper.hpp"

using namespace impl::aten;

extern "C" {

diopiError_t diopiCastDtype(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    assign(out, in);
    DIOPI_IMPL_END
}

diopiError_t diopiCopyInp(diopiContextHandle_t ctx, diopiConstTensorHandle_t src, diopiTensorHandle_t dest) {
    DIOPI_IMPL_BEGIN
    tensor(dest, "dest").copy_(tensor(src, "src"));
    DIOPI_IMPL_END
}

}  // extern "C"
