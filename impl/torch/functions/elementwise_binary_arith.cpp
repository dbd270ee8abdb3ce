// Elementwise binary arithmetic: add, sub, mul, div, pow, addcmul/addcdiv, clamp (min/max), maximum/minimum,
// lerp and remainder, with their scalar and in-place variants.
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

// True division computes integer and bool operands in the default floating dtype; a rounding mode keeps them.
at::ScalarType divResult(at::ScalarType common, const std::optional<c10::string_view>& mode) { return mode ? common : floatResult(common); }

at::Scalar alphaOr1(const diopiScalar_t* alpha) { return alpha ? scalar(alpha, "alpha") : at::Scalar(1); }

at::Scalar valueOr1(const diopiScalar_t* value) { return value ? scalar(value, "value") : at::Scalar(1); }

std::optional<at::Scalar> optScalar(const diopiScalar_t* s, const char* name) {
    if (s == nullptr) return std::nullopt;
    return scalar(s, name);
}

// In-place variants whose result type may differ from the input's (an integer
// input clamped by float bounds, raised to a float power): the result is
// computed with the usual type promotion and written back in the input's dtype.
// The result must keep the input's shape (the input is never broadcast).
void writeBack(diopiTensorHandle_t input, const at::Tensor& result) { assign(input, result, "input"); }

void requireBound(bool hasMin, bool hasMax) {
    if (!hasMin && !hasMax) fail("at least one of min and max must be given (both are NULL)");
}

}  // namespace

extern "C" {

diopiError_t diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                      const diopiScalar_t* alpha) {
    DIOPI_IMPL_BEGIN
    at::Tensor a = tensor(input, "input"), b = tensor(other, "other");
    if (at::Tensor o = elementwiseOut(out, resultType(a, b), {a, b}); o.defined())
        at::add_out(o, a, b, alphaOr1(alpha));
    else
        assign(out, at::add(a, b, alphaOr1(alpha)));
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
    at::Tensor a = tensor(input, "input");
    at::Scalar b = scalar(other, "other");
    if (at::Tensor o = elementwiseOut(out, resultType(a, b), {a}); o.defined())
        at::add_out(o, a, wrappedScalar(b, o.scalar_type()), alphaOr1(alpha));
    else
        assign(out, at::add(a, b, alphaOr1(alpha)));
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
    at::Tensor a = tensor(input, "input"), b = tensor(other, "other");
    if (at::Tensor o = elementwiseOut(out, resultType(a, b), {a, b}); o.defined())
        at::sub_out(o, a, b, alphaOr1(alpha));
    else
        assign(out, at::sub(a, b, alphaOr1(alpha)));
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
    at::Tensor a = tensor(input, "input");
    at::Scalar b = scalar(other, "other");
    if (at::Tensor o = elementwiseOut(out, resultType(a, b), {a}); o.defined())
        at::sub_out(o, a, wrappedScalar(b, o.scalar_type()), alphaOr1(alpha));
    else
        assign(out, at::sub(a, b, alphaOr1(alpha)));
    DIOPI_IMPL_END
}

diopiError_t diopiSubInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other, const diopiScalar_t* alpha) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").sub_(scalar(other, "other"), alphaOr1(alpha));
    DIOPI_IMPL_END
}

diopiError_t diopiMul(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    at::Tensor a = tensor(input, "input"), b = tensor(other, "other");
    if (at::Tensor o = elementwiseOut(out, resultType(a, b), {a, b}); o.defined())
        at::mul_out(o, a, b);
    else
        assign(out, at::mul(a, b));
    DIOPI_IMPL_END
}

diopiError_t diopiMulInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").mul_(tensor(other, "other"));
    DIOPI_IMPL_END
}

diopiError_t diopiMulScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other) {
    DIOPI_IMPL_BEGIN
    at::Tensor a = tensor(input, "input");
    at::Scalar b = scalar(other, "other");
    if (at::Tensor o = elementwiseOut(out, resultType(a, b), {a}); o.defined())
        at::mul_out(o, a, wrappedScalar(b, o.scalar_type()));
    else
        assign(out, at::mul(a, b));
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
    at::Tensor a = tensor(input, "input"), b = tensor(other, "other");
    auto mode = roundMode(rounding_mode);
    if (at::Tensor o = elementwiseOut(out, divResult(resultType(a, b), mode), {a, b}); o.defined())
        at::div_out(o, a, b, mode);
    else
        assign(out, at::div(a, b, mode));
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
    at::Tensor a = tensor(input, "input");
    at::Scalar b = scalar(other, "other");
    auto mode = roundMode(rounding_mode);
    if (at::Tensor o = elementwiseOut(out, divResult(resultType(a, b), mode), {a}); o.defined())
        at::div_out(o, a, wrappedScalar(b, o.scalar_type()), mode);
    else
        assign(out, at::div(a, b, mode));
    DIOPI_IMPL_END
}

diopiError_t diopiDivInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other, diopiRoundMode_t rounding_mode) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").div_(scalar(other, "other"), roundMode(rounding_mode));
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- pow

diopiError_t diopiPowScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* input, diopiConstTensorHandle_t exponent) {
    DIOPI_IMPL_BEGIN
    assign(out, at::pow(scalar(input, "input"), tensor(exponent, "exponent")));
    DIOPI_IMPL_END
}

diopiError_t diopiPow(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* exponent) {
    DIOPI_IMPL_BEGIN
    at::Tensor a = tensor(input, "input");
    at::Scalar e = scalar(exponent, "exponent");
    if (at::Tensor o = elementwiseOut(out, resultType(a, e), {a}); o.defined())
        at::pow_out(o, a, e);
    else
        assign(out, at::pow(a, e));
    DIOPI_IMPL_END
}

diopiError_t diopiPowInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* exponent) {
    DIOPI_IMPL_BEGIN
    writeBack(input, at::pow(tensor(input, "input"), scalar(exponent, "exponent")));
    DIOPI_IMPL_END
}

diopiError_t diopiPowTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t exponent) {
    DIOPI_IMPL_BEGIN
    at::Tensor a = tensor(input, "input"), e = tensor(exponent, "exponent");
    if (at::Tensor o = elementwiseOut(out, resultType(a, e), {a, e}); o.defined())
        at::pow_out(o, a, e);
    else
        assign(out, at::pow(a, e));
    DIOPI_IMPL_END
}

diopiError_t diopiPowInpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t exponent) {
    DIOPI_IMPL_BEGIN
    writeBack(input, at::pow(tensor(input, "input"), tensor(exponent, "exponent")));
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- addcmul, addcdiv

diopiError_t diopiAddcmul(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t tensor1,
                          diopiConstTensorHandle_t tensor2, const diopiScalar_t* value) {
    DIOPI_IMPL_BEGIN
    assign(out, at::addcmul(tensor(input, "input"), tensor(tensor1, "tensor1"), tensor(tensor2, "tensor2"), valueOr1(value)));
    DIOPI_IMPL_END
}

diopiError_t diopiAddcmulInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t tensor1, diopiConstTensorHandle_t tensor2,
                             const diopiScalar_t* value) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").addcmul_(tensor(tensor1, "tensor1"), tensor(tensor2, "tensor2"), valueOr1(value));
    DIOPI_IMPL_END
}

diopiError_t diopiAddcdiv(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t tensor1,
                          diopiConstTensorHandle_t tensor2, const diopiScalar_t* value) {
    DIOPI_IMPL_BEGIN
    assign(out, at::addcdiv(tensor(input, "input"), tensor(tensor1, "tensor1"), tensor(tensor2, "tensor2"), valueOr1(value)));
    DIOPI_IMPL_END
}

diopiError_t diopiAddcdivInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t tensor1, diopiConstTensorHandle_t tensor2,
                             const diopiScalar_t* value) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").addcdiv_(tensor(tensor1, "tensor1"), tensor(tensor2, "tensor2"), valueOr1(value));
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- clamp
// min(max(input, min), max): where min > max the result is max. A NULL min or
// max leaves that side unbounded (not both).

diopiError_t diopiClampScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* min,
                              const diopiScalar_t* max) {
    DIOPI_IMPL_BEGIN
    requireBound(min != nullptr, max != nullptr);
    assign(out, at::clamp(tensor(input, "input"), optScalar(min, "min"), optScalar(max, "max")));
    DIOPI_IMPL_END
}

diopiError_t diopiClampInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* min, const diopiScalar_t* max) {
    DIOPI_IMPL_BEGIN
    requireBound(min != nullptr, max != nullptr);
    writeBack(input, at::clamp(tensor(input, "input"), optScalar(min, "min"), optScalar(max, "max")));
    DIOPI_IMPL_END
}

diopiError_t diopiClamp(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t min,
                        diopiConstTensorHandle_t max) {
    DIOPI_IMPL_BEGIN
    requireBound(min != nullptr, max != nullptr);
    assign(out, at::clamp(tensor(input, "input"), optional(min), optional(max)));
    DIOPI_IMPL_END
}

diopiError_t diopiClampInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t min, diopiConstTensorHandle_t max) {
    DIOPI_IMPL_BEGIN
    requireBound(min != nullptr, max != nullptr);
    writeBack(input, at::clamp(tensor(input, "input"), optional(min), optional(max)));
    DIOPI_IMPL_END
}

diopiError_t diopiClampMaxScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* max) {
    DIOPI_IMPL_BEGIN
    assign(out, at::clamp_max(tensor(input, "input"), scalar(max, "max")));
    DIOPI_IMPL_END
}

diopiError_t diopiClampMaxInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* max) {
    DIOPI_IMPL_BEGIN
    writeBack(input, at::clamp_max(tensor(input, "input"), scalar(max, "max")));
    DIOPI_IMPL_END
}

diopiError_t diopiClampMax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t max) {
    DIOPI_IMPL_BEGIN
    assign(out, at::clamp_max(tensor(input, "input"), tensor(max, "max")));
    DIOPI_IMPL_END
}

diopiError_t diopiClampMaxInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t max) {
    DIOPI_IMPL_BEGIN
    writeBack(input, at::clamp_max(tensor(input, "input"), tensor(max, "max")));
    DIOPI_IMPL_END
}

diopiError_t diopiClampMinScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* min) {
    DIOPI_IMPL_BEGIN
    assign(out, at::clamp_min(tensor(input, "input"), scalar(min, "min")));
    DIOPI_IMPL_END
}

diopiError_t diopiClampMinInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* min) {
    DIOPI_IMPL_BEGIN
    writeBack(input, at::clamp_min(tensor(input, "input"), scalar(min, "min")));
    DIOPI_IMPL_END
}

diopiError_t diopiClampMin(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t min) {
    DIOPI_IMPL_BEGIN
    assign(out, at::clamp_min(tensor(input, "input"), tensor(min, "min")));
    DIOPI_IMPL_END
}

diopiError_t diopiClampMinInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t min) {
    DIOPI_IMPL_BEGIN
    writeBack(input, at::clamp_min(tensor(input, "input"), tensor(min, "min")));
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- maximum, minimum (NaN propagates)

diopiError_t diopiMaximum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    assign(out, at::maximum(tensor(input, "input"), tensor(other, "other")));
    DIOPI_IMPL_END
}

diopiError_t diopiMinimum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    assign(out, at::minimum(tensor(input, "input"), tensor(other, "other")));
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- lerp: input + weight * (end - input)

diopiError_t diopiLerpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t end,
                             diopiConstTensorHandle_t weight) {
    DIOPI_IMPL_BEGIN
    assign(out, at::lerp(tensor(input, "input"), tensor(end, "end"), tensor(weight, "weight")));
    DIOPI_IMPL_END
}

diopiError_t diopiLerpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t end,
                             const diopiScalar_t* weight) {
    DIOPI_IMPL_BEGIN
    assign(out, at::lerp(tensor(input, "input"), tensor(end, "end"), scalar(weight, "weight")));
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- remainder: the result has the divisor's sign

diopiError_t diopiRemainderTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    assign(out, at::remainder(tensor(input, "input"), tensor(other, "other")));
    DIOPI_IMPL_END
}

diopiError_t diopiRemainderScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other) {
    DIOPI_IMPL_BEGIN
    assign(out, at::remainder(tensor(input, "input"), scalar(other, "other")));
    DIOPI_IMPL_END
}

diopiError_t diopiRemainder(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    assign(out, at::remainder(scalar(input, "input"), tensor(other, "other")));
    DIOPI_IMPL_END
}

}  // extern "C"
