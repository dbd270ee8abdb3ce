// Complex numbers: building them (polar, complex) and taking them apart (real, imag, conj).
#include "helper.hpp"

using namespace impl::aten;

namespace {

// The two real parts of a complex number must agree in dtype: ATen would
// promote silently, but a vendor kernel reads both with one element type.
void requireSameRealDtype(const at::Tensor& a, const char* aName, const at::Tensor& b, const char* bName) {
    if (a.scalar_type() != b.scalar_type())
        fail(std::string(aName) + " is " + c10::toString(a.scalar_type()) + " but " + bName + " is " + c10::toString(b.scalar_type()) +
                 "; both must have the same floating-point dtype",
             diopiDtypeNotSupported);
    if (!at::isFloatingType(a.scalar_type()))
        fail(std::string(aName) + " and " + bName + " must be floating-point, got " + c10::toString(a.scalar_type()),
             diopiDtypeNotSupported);
}

}  // namespace

extern "C" {

diopiError_t diopiPolar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t abs, diopiConstTensorHandle_t angle) {
    DIOPI_IMPL_BEGIN
    at::Tensor a = tensor(abs, "abs");
    at::Tensor t = tensor(angle, "angle");
    requireSameRealDtype(a, "abs", t, "angle");
    assign(out, at::polar(a, t));
    DIOPI_IMPL_END
}

diopiError_t diopiComplex(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t real, diopiConstTensorHandle_t imag) {
    DIOPI_IMPL_BEGIN
    at::Tensor re = tensor(real, "real");
    at::Tensor im = tensor(imag, "imag");
    requireSameRealDtype(re, "real", im, "imag");
    assign(out, at::complex(re, im));
    DIOPI_IMPL_END
}

diopiError_t diopiConj(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    // conj_physical materialises the conjugate (for a real input: a copy).
    assign(out, at::conj_physical(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiImag(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    if (!in.is_complex())
        fail(std::string("input must be complex, got ") + c10::toString(in.scalar_type()), diopiDtypeNotSupported);
    assign(out, at::imag(in));
    DIOPI_IMPL_END
}

diopiError_t diopiReal(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    // A real input is its own real part.
    assign(out, at::real(tensor(input, "input")));
    DIOPI_IMPL_END
}

}  // extern "C"
