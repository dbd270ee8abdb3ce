// Foreach ops: one operation over a list of tensors (add/mul by a scalar or a 0-d tensor, per-tensor norm).
#include <string>

#include "helper.hpp"

using namespace impl::aten;

namespace {

/// Writes each result into the caller's list of outputs.
void assignAll(diopiTensorHandle_t* outs, int64_t n, const std::vector<at::Tensor>& results) {
    if (n > 0 && outs == nullptr) fail("outs is NULL");
    if (static_cast<int64_t>(results.size()) != n) fail("outs and inputs differ in length");
    for (int64_t i = 0; i < n; ++i) assign(outs[i], results[i], ("outs[" + std::to_string(i) + "]").c_str());
}

/// The 0-d multiplier of the Tensor variants (a one-element tensor is accepted as well).
at::Tensor scalarTensor(diopiConstTensorHandle_t h) {
    at::Tensor t = tensor(h, "other");
    if (t.numel() != 1) fail("other must hold exactly one element");
    return t.reshape({});
}

}  // namespace

extern "C" {

diopiError_t diopiForeachaddScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs, int64_t inputSize,
                                   const diopiScalar_t* other) {
    DIOPI_IMPL_BEGIN
    assignAll(outs, inputSize, at::_foreach_add(tensors(inputs, inputSize, "inputs"), scalar(other, "other")));
    DIOPI_IMPL_END
}

diopiError_t diopiForeachaddInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* inputs, int64_t inputSize, const diopiScalar_t* other) {
    DIOPI_IMPL_BEGIN
    at::_foreach_add_(tensors(inputs, inputSize, "inputs"), scalar(other, "other"));
    DIOPI_IMPL_END
}

diopiError_t diopiForeachmulScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs, int64_t inputSize,
                                   const diopiScalar_t* other) {
    DIOPI_IMPL_BEGIN
    assignAll(outs, inputSize, at::_foreach_mul(tensors(inputs, inputSize, "inputs"), scalar(other, "other")));
    DIOPI_IMPL_END
}

diopiError_t diopiForeachmulInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* inputs, int64_t inputSize, const diopiScalar_t* other) {
    DIOPI_IMPL_BEGIN
    at::_foreach_mul_(tensors(inputs, inputSize, "inputs"), scalar(other, "other"));
    DIOPI_IMPL_END
}

diopiError_t diopiForeachmulTensor(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs, int64_t inputSize,
                                   const diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    assignAll(outs, inputSize, at::_foreach_mul(tensors(inputs, inputSize, "inputs"), scalarTensor(other)));
    DIOPI_IMPL_END
}

diopiError_t diopiForeachmulInpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t* inputs, int64_t inputSize, const diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    at::_foreach_mul_(tensors(inputs, inputSize, "inputs"), scalarTensor(other));
    DIOPI_IMPL_END
}

diopiError_t diopiForeachnormScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs, int64_t inputSize,
                                    const diopiScalar_t* ord) {
    DIOPI_IMPL_BEGIN
    at::Scalar p = ord ? scalar(ord, "ord") : at::Scalar(2.0);
    assignAll(outs, inputSize, at::_foreach_norm(tensors(inputs, inputSize, "inputs"), p));
    DIOPI_IMPL_END
}

}  // extern "C"
