// Creation and fill: fill, zeros/ones, zero_, arange, linspace, meshgrid.
#include "helper.hpp"

using namespace impl::aten;

extern "C" {

diopiError_t diopiFill(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* value) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").fill_(scalar(value, "value"));
    DIOPI_IMPL_END
}

diopiError_t diopiZeroInp(diopiContextHandle_t ctx, diopiTensorHandle_t self) {
    DIOPI_IMPL_BEGIN
    tensor(self, "self").zero_();
    DIOPI_IMPL_END
}

diopiError_t diopiZeros(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiSize_t size) {
    DIOPI_IMPL_BEGIN
    at::Tensor o = tensor(out, "out");
    assign(out, at::zeros(ints(size), o.options()));
    DIOPI_IMPL_END
}

diopiError_t diopiOnes(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiSize_t size) {
    DIOPI_IMPL_BEGIN
    at::Tensor o = tensor(out, "out");
    assign(out, at::ones(ints(size), o.options()));
    DIOPI_IMPL_END
}

diopiError_t diopiArange(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* start, const diopiScalar_t* end,
                         const diopiScalar_t* step) {
    DIOPI_IMPL_BEGIN
    at::Tensor o = tensor(out, "out");
    at::Scalar st = step ? scalar(step, "step") : at::Scalar(1);
    assign(out, at::arange(scalar(start, "start"), scalar(end, "end"), st, o.options()));
    DIOPI_IMPL_END
}

diopiError_t diopiLinspace(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* start, const diopiScalar_t* end, int64_t steps) {
    DIOPI_IMPL_BEGIN
    if (steps < 0) fail("steps must be non-negative");
    at::Tensor o = tensor(out, "out");
    assign(out, at::linspace(scalar(start, "start"), scalar(end, "end"), steps, o.options()));
    DIOPI_IMPL_END
}

diopiError_t diopiMeshGrid(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs, int64_t inputsNum) {
    DIOPI_IMPL_BEGIN
    if (inputsNum > 0 && outs == nullptr) fail("outs is NULL");
    auto grids = at::meshgrid(impl::aten::tensors(inputs, inputsNum, "inputs"), "ij");
    for (int64_t i = 0; i < inputsNum; ++i) assign(outs[i], grids[i], "outs[i]");
    DIOPI_IMPL_END
}

}  // extern "C"
