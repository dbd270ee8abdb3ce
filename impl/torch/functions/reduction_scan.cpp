// Reductions: sum, mean, max/min along a dimension.
#include "helper.hpp"

using namespace impl::aten;

extern "C" {

diopiError_t diopiSum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), o = tensor(out, "out");
    assign(out, at::sum(in, ints(dim), keepdimFrom(o, in), o.scalar_type()));
    DIOPI_IMPL_END
}

diopiError_t diopiMean(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), o = tensor(out, "out");
    assign(out, at::mean(in, ints(dim), keepdimFrom(o, in), o.scalar_type()));
    DIOPI_IMPL_END
}

diopiError_t diopiMax(diopiContextHandle_t ctx, diopiTensorHandle_t max, diopiTensorHandle_t max_indices, diopiConstTensorHandle_t input,
                      int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), o = tensor(max, "max");
    auto [values, indices] = at::max(in, dim, keepdimFrom(o, in));
    assign(max, values, "max");
    assign(max_indices, indices, "max_indices");
    DIOPI_IMPL_END
}

diopiError_t diopiMin(diopiContextHandle_t ctx, diopiTensorHandle_t min, diopiTensorHandle_t min_indices, diopiConstTensorHandle_t input,
                      int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), o = tensor(min, "min");
    auto [values, indices] = at::min(in, dim, keepdimFrom(o, in));
    assign(min, values, "min");
    assign(min_indices, indices, "min_indices");
    DIOPI_IMPL_END
}

}  // extern "C"
