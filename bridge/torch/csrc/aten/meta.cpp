// Result shapes of operators ATen gives no C++ meta kernel (only a Python
// one in torch._meta_registrations, whose first use imports torch._dynamo
// and whose every use runs Python). The generated kernels call these
// instead of dispatching to the Meta key (codegen: HAND_WRITTEN_META).
// Each follows the Python meta kernel it replaces: same sizes, strides,
// dtypes, and the error CUDA raises for a bad shape.
#include <ATen/ATen.h>

#include "aten/meta.hpp"

#include <sstream>

namespace diopi_torch::meta {
namespace {

// A convolution parameter given once for every spatial dimension.
int64_t param(c10::SymIntArrayRef values, size_t dim) {
    return values.size() == 1 ? values[0].expect_int() : values[dim].expect_int();
}

at::MemoryFormat convMemoryFormat(const at::Tensor& input, const at::Tensor& weight) {
    // Both operands decide, as every GPU backend's determine_backend_memory_format does.
    const auto a = input.suggest_memory_format(), b = weight.suggest_memory_format();
    if (a == at::MemoryFormat::ChannelsLast || b == at::MemoryFormat::ChannelsLast) return at::MemoryFormat::ChannelsLast;
    if (a == at::MemoryFormat::ChannelsLast3d || b == at::MemoryFormat::ChannelsLast3d) return at::MemoryFormat::ChannelsLast3d;
    return at::MemoryFormat::Contiguous;
}

}  // namespace

at::Tensor convolution(const at::Tensor& input, const at::Tensor& weight, const std::optional<at::Tensor>& bias,
                       c10::SymIntArrayRef stride, c10::SymIntArrayRef padding, c10::SymIntArrayRef dilation, bool transposed,
                       c10::SymIntArrayRef output_padding, c10::SymInt groups) {
    const int64_t g = groups.expect_int();
    TORCH_CHECK(input.dim() >= 3 && weight.dim() == input.dim(), "Expected ", input.dim(), "-dimensional weight for ",
                input.dim(), "-dimensional input ", input.sizes(), ", but got ", weight.dim(), "-dimensional weight of size ",
                weight.sizes(), " instead");
    int64_t channels;
    if (transposed) {
        channels = g * weight.size(1);
    } else {
        channels = weight.size(0);
        // CUDA's message (check_shape_forward in ATen's Convolution.cpp).
        TORCH_CHECK(weight.size(1) * g == input.size(1), "Given groups=", g, ", weight of size ", weight.sizes(),
                    ", expected input", input.sizes(), " to have ", weight.size(1) * g, " channels, but got ", input.size(1),
                    " channels instead");
    }
    std::vector<int64_t> shape{input.size(0), input.size(1) == 0 ? 0 : channels};
    std::ostringstream padded, kernel;  // CUDA's message for a kernel larger than the padded input
    bool fits = true;
    for (int64_t d = 2; d < input.dim(); ++d) {
        const size_t i = d - 2;
        const int64_t len = input.size(d), k = weight.size(d);
        const int64_t s = param(stride, i), p = param(padding, i), dil = param(dilation, i);
        padded << (i ? " x " : "") << len + 2 * p;
        kernel << (i ? " x " : "") << dil * (k - 1) + 1;
        fits = fits && len + 2 * p >= dil * (k - 1) + 1;
        shape.push_back(transposed ? (len - 1) * s - 2 * p + dil * (k - 1) + param(output_padding, i) + 1
                                   : (len + 2 * p - dil * (k - 1) - 1) / s + 1);
    }
    TORCH_CHECK(fits || transposed, "Calculated padded input size per channel: (", padded.str(), "). Kernel size: (",
                kernel.str(), "). Kernel size can't be greater than actual input size");
    (void)bias;
    // Contiguous, as the Python meta kernel leaves it (a meta tensor carries no backend to pick a format).
    return at::empty(shape, input.options());
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> convolution_backward(
    const at::Tensor& grad_output, const at::Tensor& input, const at::Tensor& weight, at::OptionalSymIntArrayRef bias_sizes,
    c10::SymIntArrayRef, c10::SymIntArrayRef, c10::SymIntArrayRef, bool, c10::SymIntArrayRef, c10::SymInt,
    std::array<bool, 3> output_mask) {
    const auto format = convMemoryFormat(input, weight);
    at::Tensor grad_input, grad_weight, grad_bias;
    if (output_mask[0]) grad_input = at::empty(input.sizes(), grad_output.options().memory_format(format));
    if (output_mask[1]) grad_weight = at::empty(weight.sizes(), grad_output.options().memory_format(format));
    if (output_mask[2]) {
        TORCH_CHECK(bias_sizes.has_value(), "convolution_backward: bias_sizes is needed for the bias gradient");
        grad_bias = at::empty(C10_AS_INTARRAYREF_SLOW(*bias_sizes), grad_output.options());
    }
    return {grad_input, grad_weight, grad_bias};
}

}  // namespace diopi_torch::meta
