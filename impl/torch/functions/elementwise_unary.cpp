// Elementwise unary math: abs, neg, sign, rounding, roots, trigonometric and hyperbolic functions,
// exponentials and logarithms, erf/erfinv, reciprocal, isnan; out of place and in place.
#include "helper.hpp"

using namespace impl::aten;

namespace {

// Integer and bool inputs of a floating-point function are computed in the
// output's floating dtype (at least float32): ATen would promote them to
// float32 anyway, and a float64 output keeps its precision this way.
at::Tensor floatingInput(diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    at::Tensor x = tensor(input, "input");
    if (at::isFloatingType(x.scalar_type()) || x.is_complex()) return x;
    at::Tensor o = tensor(out, "out");
    if (!at::isFloatingType(o.scalar_type())) return x;
    return x.to(at::promote_types(o.scalar_type(), at::kFloat));
}

// The in-place form of a floating-point function writes its result back into
// the input, which an integer or bool tensor cannot hold.
at::Tensor floatingInplace(diopiTensorHandle_t input, const char* op) {
    at::Tensor x = tensor(input, "input");
    if (!at::isFloatingType(x.scalar_type()) && !x.is_complex())
        fail(std::string("in-place ") + op + " needs a floating-point input (its result is not an integer), got " +
                 c10::toString(x.scalar_type()),
             diopiDtypeNotSupported);
    return x;
}

}  // namespace

// diopi<Name>(ctx, out, input) and diopi<Name>Inp(ctx, input) for a function
// whose result is floating-point whatever the input dtype.
#define DIOPI_FLOATING_UNARY(Name, op)                                                                                  \
    diopiError_t diopi##Name(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {      \
        DIOPI_IMPL_BEGIN                                                                                                \
        at::Tensor x = floatingInput(out, input);                                                                       \
        if (at::Tensor o = elementwiseOut(out, floatResult(x.scalar_type()), {x}); o.defined())                        \
            at::op##_out(o, x);                                                                                         \
        else                                                                                                            \
            assign(out, at::op(x));                                                                                     \
        DIOPI_IMPL_END                                                                                                  \
    }                                                                                                                   \
    diopiError_t diopi##Name##Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {                               \
        DIOPI_IMPL_BEGIN                                                                                                \
        floatingInplace(input, #op).op##_();                                                                            \
        DIOPI_IMPL_END                                                                                                  \
    }

extern "C" {

// ---------------------------------------------------------------- sign and magnitude

diopiError_t diopiAbs(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::abs(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiAbsInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").abs_();
    DIOPI_IMPL_END
}

diopiError_t diopiNeg(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    if (at::Tensor o = elementwiseOut(out, x.scalar_type(), {x}); o.defined())
        at::neg_out(o, x);
    else
        assign(out, at::neg(x));
    DIOPI_IMPL_END
}

diopiError_t diopiNegInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").neg_();
    DIOPI_IMPL_END
}

diopiError_t diopiSign(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::sign(tensor(input, "input")));
    DIOPI_IMPL_END
}

// sgn is sign for real inputs and z / |z| for complex ones.
diopiError_t diopiSgn(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::sgn(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiSgnInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").sgn_();
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- rounding

diopiError_t diopiFloor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::floor(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiFloorInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").floor_();
    DIOPI_IMPL_END
}

diopiError_t diopiCeil(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::ceil(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiCeilInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").ceil_();
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- roots and reciprocal

DIOPI_FLOATING_UNARY(Sqrt, sqrt)
DIOPI_FLOATING_UNARY(Rsqrt, rsqrt)
DIOPI_FLOATING_UNARY(Reciprocal, reciprocal)

// ---------------------------------------------------------------- trigonometric

DIOPI_FLOATING_UNARY(Sin, sin)
DIOPI_FLOATING_UNARY(Cos, cos)
DIOPI_FLOATING_UNARY(Tan, tan)
DIOPI_FLOATING_UNARY(Asin, asin)
DIOPI_FLOATING_UNARY(Acos, acos)
DIOPI_FLOATING_UNARY(Atan, atan)

// ---------------------------------------------------------------- hyperbolic

DIOPI_FLOATING_UNARY(Sinh, sinh)
DIOPI_FLOATING_UNARY(Cosh, cosh)
DIOPI_FLOATING_UNARY(Tanh, tanh)
DIOPI_FLOATING_UNARY(Asinh, asinh)
DIOPI_FLOATING_UNARY(Acosh, acosh)
DIOPI_FLOATING_UNARY(Atanh, atanh)

// ---------------------------------------------------------------- exponentials and logarithms

DIOPI_FLOATING_UNARY(Exp, exp)
DIOPI_FLOATING_UNARY(Expm1, expm1)
DIOPI_FLOATING_UNARY(Log, log)
DIOPI_FLOATING_UNARY(Log2, log2)
DIOPI_FLOATING_UNARY(Log10, log10)
DIOPI_FLOATING_UNARY(Log1p, log1p)

// ---------------------------------------------------------------- error function

DIOPI_FLOATING_UNARY(Erf, erf)
DIOPI_FLOATING_UNARY(Erfinv, erfinv)

// ---------------------------------------------------------------- classification

diopiError_t diopiIsNan(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::isnan(tensor(input, "input")));
    DIOPI_IMPL_END
}

}  // extern "C"
