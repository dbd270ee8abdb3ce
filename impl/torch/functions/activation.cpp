// Activations: relu, sigmoid, tanh (backward; forward lives in elementwise_unary), hardtanh, hardswish, threshold,
// gelu, leaky_relu, silu: forward, in place and backward.
#include "helper.hpp"

using namespace impl::aten;

namespace {

// "none" or "tanh" (NULL means "none"), as ATen's gelu spells it.
c10::string_view geluApproximate(const char* approximate) {
    if (approximate == nullptr) return "none";
    c10::string_view a(approximate);
    if (a != "none" && a != "tanh") fail("approximate must be \"none\" or \"tanh\", got \"" + std::string(approximate) + "\"");
    return a;
}

void checkMinMax(const at::Scalar& lo, const at::Scalar& hi) {
    if (lo.toDouble() > hi.toDouble()) fail("min_val must not exceed max_val");
}

}  // namespace

extern "C" {

// ---- relu
diopiError_t diopiRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::relu(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").relu_();
    DIOPI_IMPL_END
}

// ---- sigmoid
diopiError_t diopiSigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    if (at::Tensor o = elementwiseOut(out, floatResult(x.scalar_type()), {x}); o.defined())
        at::sigmoid_out(o, x);
    else
        assign(out, at::sigmoid(x));
    DIOPI_IMPL_END
}

diopiError_t diopiSigmoidInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").sigmoid_();
    DIOPI_IMPL_END
}

diopiError_t diopiSigmoidBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t output) {
    DIOPI_IMPL_BEGIN
    at::Tensor g = tensor(grad_output, "grad_output"), y = tensor(output, "output");
    if (at::Tensor o = elementwiseOut(grad_input, resultType(g, y), {g, y}, "grad_input"); o.defined())
        at::sigmoid_backward_out(o, g, y);
    else
        assign(grad_input, at::sigmoid_backward(g, y), "grad_input");
    DIOPI_IMPL_END
}

// ---- tanh (diopiTanh and diopiTanhInp are defined with the unary elementwise functions)
diopiError_t diopiTanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t output) {
    DIOPI_IMPL_BEGIN
    at::Tensor g = tensor(grad_output, "grad_output"), y = tensor(output, "output");
    if (at::Tensor o = elementwiseOut(grad_input, resultType(g, y), {g, y}, "grad_input"); o.defined())
        at::tanh_backward_out(o, g, y);
    else
        assign(grad_input, at::tanh_backward(g, y), "grad_input");
    DIOPI_IMPL_END
}

// ---- hardtanh
diopiError_t diopiHardtanh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* min_val,
                           const diopiScalar_t* max_val) {
    DIOPI_IMPL_BEGIN
    at::Scalar lo = scalar(min_val, "min_val"), hi = scalar(max_val, "max_val");
    checkMinMax(lo, hi);
    assign(out, at::hardtanh(tensor(input, "input"), lo, hi));
    DIOPI_IMPL_END
}

diopiError_t diopiHardtanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* min_val, const diopiScalar_t* max_val) {
    DIOPI_IMPL_BEGIN
    at::Scalar lo = scalar(min_val, "min_val"), hi = scalar(max_val, "max_val");
    checkMinMax(lo, hi);
    at::Tensor self = tensor(input, "input");
    at::hardtanh_(self, lo, hi);
    DIOPI_IMPL_END
}

diopiError_t diopiHardtanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                   diopiConstTensorHandle_t input, const diopiScalar_t* min_val, const diopiScalar_t* max_val) {
    DIOPI_IMPL_BEGIN
    at::Scalar lo = scalar(min_val, "min_val"), hi = scalar(max_val, "max_val");
    checkMinMax(lo, hi);
    assign(grad_input, at::hardtanh_backward(tensor(grad_output, "grad_output"), tensor(input, "input"), lo, hi), "grad_input");
    DIOPI_IMPL_END
}

// ---- hardswish
diopiError_t diopiHardswish(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(out, at::hardswish(tensor(input, "input")));
    DIOPI_IMPL_END
}

diopiError_t diopiHardswishInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    at::Tensor self = tensor(input, "input");
    at::hardswish_(self);
    DIOPI_IMPL_END
}

diopiError_t diopiHardswishBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(grad_input, at::hardswish_backward(tensor(grad_output, "grad_output"), tensor(input, "input")), "grad_input");
    DIOPI_IMPL_END
}

// ---- threshold: x > threshold ? x : value
diopiError_t diopiThreshold(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* threshold,
                            const diopiScalar_t* value) {
    DIOPI_IMPL_BEGIN
    assign(out, at::threshold(tensor(input, "input"), scalar(threshold, "threshold"), scalar(value, "value")));
    DIOPI_IMPL_END
}

diopiError_t diopiThresholdInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* threshold, const diopiScalar_t* value) {
    DIOPI_IMPL_BEGIN
    at::Tensor self = tensor(input, "input");
    at::threshold_(self, scalar(threshold, "threshold"), scalar(value, "value"));
    DIOPI_IMPL_END
}

diopiError_t diopiThresholdBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, const diopiScalar_t* threshold) {
    DIOPI_IMPL_BEGIN
    assign(grad_input, at::threshold_backward(tensor(grad_output, "grad_output"), tensor(input, "input"), scalar(threshold, "threshold")),
           "grad_input");
    DIOPI_IMPL_END
}

// ---- gelu: x * Phi(x) (or its tanh approximation); gelu(+inf) = +inf, gelu(-inf) = NaN (inf * 0)
diopiError_t diopiGelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* approximate) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    c10::string_view approx = geluApproximate(approximate);
    // ATen's vectorised float32/bfloat16 erf kernel returns NaN at +inf; its scalar path and float64 give +inf.
    bool fixInf = at::isFloatingType(x.scalar_type());
    if (at::Tensor o = elementwiseOut(out, x.scalar_type(), {x}); o.defined()) {
        at::gelu_out(o, x, approx);
        if (fixInf) at::where_out(o, at::isposinf(x), x, o);
        return;
    }
    at::Tensor y = at::gelu(x, approx);
    if (fixInf) y = at::where(at::isposinf(x), x, y);
    assign(out, y);
    DIOPI_IMPL_END
}

diopiError_t diopiGeluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t input, const char* approximate) {
    DIOPI_IMPL_BEGIN
    at::Tensor g = tensor(grad_output, "grad_output"), x = tensor(input, "input");
    c10::string_view approx = geluApproximate(approximate);
    if (at::Tensor o = elementwiseOut(grad_input, resultType(g, x), {g, x}, "grad_input"); o.defined())
        at::gelu_backward_out(o, g, x, approx);
    else
        assign(grad_input, at::gelu_backward(g, x, approx), "grad_input");
    DIOPI_IMPL_END
}

// ---- leaky_relu
diopiError_t diopiLeakyRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                            const diopiScalar_t* negative_slope) {
    DIOPI_IMPL_BEGIN
    assign(out, at::leaky_relu(tensor(input, "input"), scalar(negative_slope, "negative_slope")));
    DIOPI_IMPL_END
}

diopiError_t diopiLeakyReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* negative_slope) {
    DIOPI_IMPL_BEGIN
    at::Tensor self = tensor(input, "input");
    at::leaky_relu_(self, scalar(negative_slope, "negative_slope"));
    DIOPI_IMPL_END
}

// input_is_result: `input` holds the forward's output (an in-place forward overwrote
// its input); the sign test is the same for a non-negative slope.
diopiError_t diopiLeakyReluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, const diopiScalar_t* negative_slope, bool input_is_result) {
    DIOPI_IMPL_BEGIN
    at::Scalar slope = scalar(negative_slope, "negative_slope");
    if (input_is_result && slope.toDouble() < 0)
        fail("input_is_result needs a non-negative negative_slope (the input's sign cannot be recovered from the result)");
    assign(grad_input, at::leaky_relu_backward(tensor(grad_output, "grad_output"), tensor(input, "input"), slope, input_is_result),
           "grad_input");
    DIOPI_IMPL_END
}

// ---- silu: x * sigmoid(x)
diopiError_t diopiSilu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    if (at::Tensor o = elementwiseOut(out, x.scalar_type(), {x}); o.defined())
        at::silu_out(o, x);
    else
        assign(out, at::silu(x));
    DIOPI_IMPL_END
}

diopiError_t diopiSiluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    at::Tensor self = tensor(input, "input");
    at::silu_(self);
    DIOPI_IMPL_END
}

diopiError_t diopiSiluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    at::Tensor g = tensor(grad_output, "grad_output"), x = tensor(input, "input");
    if (at::Tensor o = elementwiseOut(grad_input, resultType(g, x), {g, x}, "grad_input"); o.defined())
        at::silu_backward_out(o, g, x);
    else
        assign(grad_input, at::silu_backward(g, x), "grad_input");
    DIOPI_IMPL_END
}

}  // extern "C"
