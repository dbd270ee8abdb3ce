// Elementwise binary arithmetic: add, sub, mul, div and their variants.
#include "helper.hpp"

using namespace impl::aten;

namespace {

std::optional<c10::string_view> roundMode(diopiRoundMode_t mode) {
    switch (mode) {
        case RoundModeNone: return std::nullopt;
        case RoundModeTrunc: return c10::string_view("trunc");
        case RoundModeFloor: return c10::string_view("floor");
        default: fail("invalid rounding_mode " + std::to_string(static_cast<int>(mode)));
    }
}

at::Scalar alphaOr1(const diopiScalar_t* alpha) { return alpha ? scalar(alpha, "alpha") : at::Scalar(1); }

}  // namespace

extern "C" {

diopiError_t diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                      const diopiScalar_t* alpha) {
    DIOPI_IMPL_BEGIN
    assign(out, at::add(tensor(input, "input"), tensor(other, "other"), alphaOr1(alpha)));
    DIOPI_IMPL_END
}

diopiError_t diopiAddInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").add_(tensor(other, "other"), alphaOr1(alpha));
    DIOPI_IMPL_END
}

diopiError_t diopiAddScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other,
                            const diopiScalar_t* alpha) {
    DIOPI_IMPL_BEGIN
    assign(out, at::add(tensor(input, "input"), scalar(other, "other"), alphaOr1(alpha)));
    DIOPI_IMPL_END
}

diopiError_t diopiAddInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other, const diopiScalar_t* alpha) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").add_(scalar(other, "other"), alphaOr1(alpha));
    DIOPI_IMPL_END
}

diopiError_t diopiSub(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                      const diopiScalar_t* alpha) {
    DIOPI_IMPL_BEGIN
    assign(out, at::sub(tensor(input, "input"), tensor(other, "other"), alphaOr1(alpha)));
    DIOPI_IMPL_END
}

diopiError_t diopiSubInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").sub_(tensor(other, "other"), alphaOr1(alpha));
    DIOPI_IMPL_END
}

diopiError_t diopiSubScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other,
                            const diopiScalar_t* alpha) {
    DIOPI_IMPL_BEGIN
    assign(out, at::sub(tensor(input, "input"), scalar(other, "other"), alphaOr1(alpha)));
    DIOPI_IMPL_END
}

diopiError_t diopiSubInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other, const diopiScalar_t* alpha) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").sub_(scalar(other, "other"), alphaOr1(alpha));
    DIOPI_IMPL_END
}

diopiError_t diopiMul(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    assign(out, at::mul(tensor(input, "input"), tensor(other, "other")));
    DIOPI_IMPL_END
}

diopiError_t diopiMulInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").mul_(tensor(other, "other"));
    DIOPI_IMPL_END
}

diopiError_t diopiMulScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other) {
    DIOPI_IMPL_BEGIN
    assign(out, at::mul(tensor(input, "input"), scalar(other, "other")));
    DIOPI_IMPL_END
}

diopiError_t diopiMulInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").mul_(scalar(other, "other"));
    DIOPI_IMPL_END
}

diopiError_t diopiDiv(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                      diopiRoundMode_t rounding_mode) {
    DIOPI_IMPL_BEGIN
    assign(out, at::div(tensor(input, "input"), tensor(other, "other"), roundMode(rounding_mode)));
    DIOPI_IMPL_END
}

diopiError_t diopiDivInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other, diopiRoundMode_t rounding_mode) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").div_(tensor(other, "other"), roundMode(rounding_mode));
    DIOPI_IMPL_END
}

diopiError_t diopiDivScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other,
                            diopiRoundMode_t rounding_mode) {
    DIOPI_IMPL_BEGIN
    assign(out, at::div(tensor(input, "input"), scalar(other, "other"), roundMode(rounding_mode)));
    DIOPI_IMPL_END
}

diopiError_t diopiDivInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other, diopiRoundMode_t rounding_mode) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").div_(scalar(other, "other"), roundMode(rounding_mode));
    DIOPI_IMPL_END
}

}  // extern "C"
