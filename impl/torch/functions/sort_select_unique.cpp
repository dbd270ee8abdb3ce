// Sorting and selection: sort (and its backward), argsort, topk, unique.
#include "helper.hpp"

using namespace impl::aten;

extern "C" {

diopiError_t diopiSort(diopiContextHandle_t ctx, diopiTensorHandle_t values, diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t dim,
                       bool descending, const bool* pStable) {
    DIOPI_IMPL_BEGIN
    std::optional<bool> stable;
    if (pStable != nullptr) stable = *pStable;
    auto [v, i] = at::sort(tensor(input, "input"), stable, dim, descending);
    assign(values, v, "values");
    assign(indices, i, "indices");
    DIOPI_IMPL_END
}

diopiError_t diopiSortBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output, int64_t dim,
                               diopiConstTensorHandle_t indices, diopiSize_t sizes, bool keepdim) {
    DIOPI_IMPL_BEGIN
    // Each gradient element goes back to the input position its index names. keepdim=false: grad_output and
    // indices lack `dim` (a value-selecting reduction such as max along a dim).
    at::Tensor g = tensor(grad_output, "grad_output");
    at::Tensor idx = tensor(indices, "indices");
    if (idx.scalar_type() != at::kLong && idx.scalar_type() != at::kInt) fail("indices must be int32 or int64", diopiDtypeNotSupported);
    idx = idx.to(at::kLong);
    at::IntArrayRef full = ints(sizes);
    if (!keepdim && !full.empty()) {
        int64_t d = c10::maybe_wrap_dim(dim, static_cast<int64_t>(full.size()));
        g = g.unsqueeze(d);
        idx = idx.unsqueeze(d);
    }
    at::Tensor result = at::zeros(full, g.options());
    result.scatter_(dim, idx, g);
    assign(grad_input, result, "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiArgsort(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, bool stable, const int64_t* dim,
                          bool descending) {
    DIOPI_IMPL_BEGIN
    assign(out, at::argsort(tensor(input, "input"), stable, dim ? *dim : -1, descending));
    DIOPI_IMPL_END
}

diopiError_t diopiTopk(diopiContextHandle_t ctx, diopiTensorHandle_t values, diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t k,
                       int64_t dim, bool largest, bool sorted) {
    DIOPI_IMPL_BEGIN
    auto [v, i] = at::topk(tensor(input, "input"), k, dim, largest, sorted);
    assign(values, v, "values");
    assign(indices, i, "indices");
    DIOPI_IMPL_END
}

diopiError_t diopiUnique(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input, const int64_t* dim, bool sorted,
                         bool return_counts, diopiTensorHandle_t indices, diopiTensorHandle_t* counts) {
    DIOPI_IMPL_BEGIN
    if (out == nullptr) fail("out is NULL");
    if (return_counts && counts == nullptr) fail("return_counts is set but counts is NULL");
    at::Tensor in = tensor(input, "input");
    bool inverse = indices != nullptr;
    std::tuple<at::Tensor, at::Tensor, at::Tensor> r =
        dim ? at::unique_dim(in, *dim, sorted, inverse, return_counts) : at::_unique2(in, sorted, inverse, return_counts);
    *out = requireLike(ctx, std::get<0>(r));
    if (inverse) assign(indices, std::get<1>(r), "indices");
    if (return_counts) *counts = requireLike(ctx, std::get<2>(r));
    DIOPI_IMPL_END
}

}  // extern "C"
