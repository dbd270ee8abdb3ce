// Shape manipulation: cat, stack, transpose.
#include "helper.hpp"

using namespace impl::aten;

extern "C" {

diopiError_t diopiCat(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t* tensors, int64_t num_inputs, int64_t dim) {
    DIOPI_IMPL_BEGIN
    assign(out, at::cat(impl::aten::tensors(tensors, num_inputs, "tensors"), dim));
    DIOPI_IMPL_END
}

diopiError_t diopiStack(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t* tensors, int64_t numTensors, int64_t dim) {
    DIOPI_IMPL_BEGIN
    assign(out, at::stack(impl::aten::tensors(tensors, numTensors, "tensors"), dim));
    DIOPI_IMPL_END
}

diopiError_t diopiTranspose(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim0, int64_t dim1) {
    DIOPI_IMPL_BEGIN
    assign(out, tensor(input, "input").transpose(dim0, dim1));
    DIOPI_IMPL_END
}

}  // extern "C"
