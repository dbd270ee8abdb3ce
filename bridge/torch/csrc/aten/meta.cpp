// Result shapes of operators ATen gives no C++ meta kernel (only a Python
// one in torch._meta_registrations, whose first use imports torch._dynamo
// and whose every use runs Python). The generated kernels call these
// instead of dispatching to the Meta key (codegen: HAND_WRITTEN_META).
// Each follows the Python meta kernel it replaces: same sizes, strides,
// dtypes, and the error CUDA raises for a bad shape.
#include <ATen/ATen.h>
#include <ATen/ScalarOps.h>
#include <ATen/ops/add_meta_dispatch.h>
#include <ATen/ops/clamp_min_meta_dispatch.h>
#include <ATen/ops/div_meta_dispatch.h>
#include <ATen/ops/empty_like_native.h>
#include <ATen/ops/mean_meta_dispatch.h>
#include <ATen/ops/mul_meta_dispatch.h>
#include <ATen/ops/sub_meta_dispatch.h>
#include <ATen/ops/sum_meta_dispatch.h>

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

// As ATen computes these: the Scalar overload is the Tensor one with the number wrapped (a host
// wrapped number, which type promotion treats as a Python number and TensorIterator admits beside
// meta tensors); sum and mean of everything are the dim overloads with no dims; relu is clamp_min.
at::Tensor add_Scalar(const at::Tensor& self, const at::Scalar& other, const at::Scalar& alpha) {
    return at::meta::add(self, at::native::wrapped_scalar_tensor(other), alpha);
}
at::Tensor mul_Scalar(const at::Tensor& self, const at::Scalar& other) {
    return at::meta::mul(self, at::native::wrapped_scalar_tensor(other));
}
at::Tensor div_Scalar(const at::Tensor& self, const at::Scalar& other) {
    return at::meta::div(self, at::native::wrapped_scalar_tensor(other));
}
at::Tensor rsub_Scalar(const at::Tensor& self, const at::Scalar& other, const at::Scalar& alpha) {
    return at::meta::sub(at::native::wrapped_scalar_tensor(other), self, alpha);
}
at::Tensor sum(const at::Tensor& self, std::optional<at::ScalarType> dtype) {
    return at::meta::sum(self, at::IntArrayRef{}, false, dtype);
}
at::Tensor mean(const at::Tensor& self, std::optional<at::ScalarType> dtype) {
    return at::meta::mean(self, at::IntArrayRef{}, false, dtype);
}
at::Tensor relu(const at::Tensor& self) {
    TORCH_CHECK(self.scalar_type() != at::kBool, "Boolean inputs not supported for relu");
    return at::meta::clamp_min(self, 0);
}

namespace {

// The meta device whatever the call named (the kernel has already placed the call on its device).
at::TensorOptions metaOptions(OptDtype dtype, OptLayout layout) {
    return at::TensorOptions().dtype(dtype).layout(layout).device(at::kMeta);
}

at::Tensor like(const at::Tensor& self, OptDtype dtype, OptLayout layout, OptFormat format) {
    return at::native::empty_like(self, dtype, layout, at::Device(at::kMeta), false, format);
}

at::Tensor newEmpty(const at::Tensor& self, c10::SymIntArrayRef size, OptDtype dtype, OptLayout layout) {
    return at::empty_symint(size, self.options().merge_in(metaOptions(dtype, layout)));
}

// full's dtype when none is given: from the fill value, as ATen's infer_full_dtype.
at::ScalarType fullDtype(const at::Scalar& fill) {
    if (fill.isBoolean()) return at::kBool;
    if (fill.isIntegral(false)) return at::kLong;
    if (fill.isComplex()) return c10::toComplexType(c10::typeMetaToScalarType(at::get_default_dtype()));
    return c10::typeMetaToScalarType(at::get_default_dtype());
}

}  // namespace

at::Tensor ones_like(const at::Tensor& self, OptDtype dtype, OptLayout layout, OptDevice, std::optional<bool>, OptFormat format) {
    return like(self, dtype, layout, format);
}
at::Tensor zeros_like(const at::Tensor& self, OptDtype dtype, OptLayout layout, OptDevice, std::optional<bool>, OptFormat format) {
    return like(self, dtype, layout, format);
}
at::Tensor full_like(const at::Tensor& self, const at::Scalar&, OptDtype dtype, OptLayout layout, OptDevice, std::optional<bool>,
                     OptFormat format) {
    return like(self, dtype, layout, format);
}
at::Tensor new_zeros(const at::Tensor& self, c10::SymIntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice,
                     std::optional<bool>) {
    return newEmpty(self, size, dtype, layout);
}
at::Tensor new_ones(const at::Tensor& self, c10::SymIntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice,
                    std::optional<bool>) {
    return newEmpty(self, size, dtype, layout);
}
at::Tensor new_full(const at::Tensor& self, c10::SymIntArrayRef size, const at::Scalar&, OptDtype dtype, OptLayout layout,
                    OptDevice, std::optional<bool>) {
    return newEmpty(self, size, dtype, layout);
}
at::Tensor zeros(c10::SymIntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice, std::optional<bool>) {
    return at::empty_symint(size, metaOptions(dtype, layout));
}
at::Tensor ones(c10::SymIntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice, std::optional<bool>) {
    return at::empty_symint(size, metaOptions(dtype, layout));
}
at::Tensor full(c10::SymIntArrayRef size, const at::Scalar& fill, OptDtype dtype, OptLayout layout, OptDevice, std::optional<bool>) {
    return at::empty_symint(size, metaOptions(dtype.has_value() ? dtype : OptDtype(fullDtype(fill)), layout));
}
at::Tensor scalar_tensor(const at::Scalar&, OptDtype dtype, OptLayout layout, OptDevice, std::optional<bool>) {
    return at::empty({}, metaOptions(dtype, layout));
}

}  // namespace diopi_torch::meta
