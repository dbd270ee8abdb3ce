// Logical (and, or, not), bitwise (and, or, not) and comparison (eq, ne, ge, gt, le, lt, equal) operators.
// Out-of-place comparisons and logical ops give bool; in-place variants write 0/1 in the input's own dtype.
#include "helper.hpp"

using namespace impl::aten;

namespace {

/// Bitwise operators are defined on integers and bool only.
const at::Tensor& integral(const at::Tensor& t, const char* name) {
    if (!at::isIntegralType(t.scalar_type(), /*includeBool=*/true))
        fail(std::string(name) + ": bitwise operators take integer or bool tensors, got " + c10::toString(t.scalar_type()),
             diopiDtypeNotSupported);
    return t;
}

at::Scalar integralScalar(const diopiScalar_t* s, const char* name) {
    at::Scalar v = scalar(s, name);
    if (v.isFloatingPoint() || v.isComplex()) fail(std::string(name) + ": bitwise operators take an integer or bool scalar", diopiDtypeNotSupported);
    return v;
}

}  // namespace

extern "C" {

// ---------------------------------------------------------------- logical

diopiError_t diopiLogicalAnd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    assign(out, at::logical_and(tensor(input, "input"), tensor(other, "other")));
    DIOPI_IMPL_END
}

diopiError_t diopiLogicalAndInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").logical_and_(tensor(other, "other"));
    DIOPI_IMPL_END
}

diopiError_t diopiLogicalOr(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    assign(out, at::logical_or(tensor(input, "input"), tensor(other, "other")));
    DIOPI_IMPL_END
}

diopiError_t diopiLogicalOrInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").logical_or_(tensor(other, "other"));
    DIOPI_IMPL_END
}

diopiError_t diopiLogicalNot(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::logical_not(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiLogicalNotInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").logical_not_();
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- bitwise

diopiError_t diopiBitwiseAnd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    assign(out, at::bitwise_and(integral(tensor(input, "input"), "input"), integral(tensor(other, "other"), "other")));
    DIOPI_IMPL_END
}

diopiError_t diopiBitwiseAndInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    integral(in, "input").bitwise_and_(integral(tensor(other, "other"), "other"));
    DIOPI_IMPL_END
}

diopiError_t diopiBitwiseAndScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other) {
    DIOPI_IMPL_BEGIN
    assign(out, at::bitwise_and(integral(tensor(input, "input"), "input"), integralScalar(other, "other")));
    DIOPI_IMPL_END
}

diopiError_t diopiBitwiseAndInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    integral(in, "input").bitwise_and_(integralScalar(other, "other"));
    DIOPI_IMPL_END
}

diopiError_t diopiBitwiseOr(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    assign(out, at::bitwise_or(integral(tensor(input, "input"), "input"), integral(tensor(other, "other"), "other")));
    DIOPI_IMPL_END
}

diopiError_t diopiBitwiseOrInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    integral(in, "input").bitwise_or_(integral(tensor(other, "other"), "other"));
    DIOPI_IMPL_END
}

diopiError_t diopiBitwiseOrScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other) {
    DIOPI_IMPL_BEGIN
    assign(out, at::bitwise_or(integral(tensor(input, "input"), "input"), integralScalar(other, "other")));
    DIOPI_IMPL_END
}

diopiError_t diopiBitwiseOrInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    integral(in, "input").bitwise_or_(integralScalar(other, "other"));
    DIOPI_IMPL_END
}

diopiError_t diopiBitwiseNot(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::bitwise_not(integral(tensor(input, "input"), "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiBitwiseNotInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    integral(in, "input").bitwise_not_();
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- comparisons
// Each comparison comes as tensor/tensor, tensor/scalar and their in-place forms.

#define DIOPI_COMPARISON(Name, op)                                                                                                          \
    diopiError_t diopi##Name(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,                           \
                             diopiConstTensorHandle_t other) {                                                                             \
        DIOPI_IMPL_BEGIN                                                                                                                    \
        at::Tensor a = tensor(input, "input"), b = tensor(other, "other");                                                                 \
        if (at::Tensor o = elementwiseOut(out, at::kBool, {a, b}); o.defined())                                                            \
            at::op##_out(o, a, b);                                                                                                          \
        else                                                                                                                                \
            assign(out, at::op(a, b));                                                                                                      \
        DIOPI_IMPL_END                                                                                                                      \
    }                                                                                                                                       \
    diopiError_t diopi##Name##Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other) {                   \
        DIOPI_IMPL_BEGIN                                                                                                                    \
        tensor(input, "input").op##_(tensor(other, "other"));                                                                               \
        DIOPI_IMPL_END                                                                                                                      \
    }                                                                                                                                       \
    diopiError_t diopi##Name##Scalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,                   \
                                     const diopiScalar_t* other) {                                                                         \
        DIOPI_IMPL_BEGIN                                                                                                                    \
        at::Tensor a = tensor(input, "input");                                                                                              \
        at::Scalar b = scalar(other, "other");                                                                                              \
        if (at::Tensor o = elementwiseOut(out, at::kBool, {a}); o.defined())                                                               \
            at::op##_out(o, a, b);                                                                                                          \
        else                                                                                                                                \
            assign(out, at::op(a, b));                                                                                                      \
        DIOPI_IMPL_END                                                                                                                      \
    }                                                                                                                                       \
    diopiError_t diopi##Name##InpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other) {                 \
        DIOPI_IMPL_BEGIN                                                                                                                    \
        tensor(input, "input").op##_(scalar(other, "other"));                                                                               \
        DIOPI_IMPL_END                                                                                                                      \
    }

DIOPI_COMPARISON(Eq, eq)
DIOPI_COMPARISON(Ne, ne)
DIOPI_COMPARISON(Ge, ge)
DIOPI_COMPARISON(Gt, gt)
DIOPI_COMPARISON(Le, le)
DIOPI_COMPARISON(Lt, lt)

#undef DIOPI_COMPARISON

// Same shape and equal elements (NaN is unequal to everything); tensors of
// different shapes are unequal.
diopiError_t diopiEqual(diopiContextHandle_t ctx, bool* out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    if (out == nullptr) fail("out is NULL");
    *out = at::equal(tensor(input, "input"), tensor(other, "other"));
    DIOPI_IMPL_END
}

diopiError_t diopiIsIn(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t elements,
                       diopiConstTensorHandle_t test_elements, bool assume_unique, bool invert) {
    DIOPI_IMPL_BEGIN
    at::Tensor e = tensor(elements, "elements");
    if (e.scalar_type() == at::kBool) fail("elements: bool is not a listed dtype", diopiDtypeNotSupported);
    // ATen flattens test_elements with view(): a strided one must be made contiguous first.
    assign(out, at::isin(e.contiguous(), tensor(test_elements, "test_elements").contiguous(), assume_unique, invert));
    DIOPI_IMPL_END
}

}  // extern "C"
