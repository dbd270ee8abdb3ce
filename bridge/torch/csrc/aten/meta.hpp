// Result shapes the device computes in C++ where ATen has only a Python meta
// kernel (meta.cpp). Arguments and results are meta tensors; the generated
// kernels call these through their MetaCache (codegen: HAND_WRITTEN_META).
#pragma once

#include <ATen/core/Tensor.h>

#include <array>
#include <optional>
#include <tuple>

namespace diopi_torch::meta {

at::Tensor convolution(const at::Tensor& input, const at::Tensor& weight, const std::optional<at::Tensor>& bias,
                       c10::SymIntArrayRef stride, c10::SymIntArrayRef padding, c10::SymIntArrayRef dilation, bool transposed,
                       c10::SymIntArrayRef output_padding, c10::SymInt groups);
std::tuple<at::Tensor, at::Tensor, at::Tensor> convolution_backward(
    const at::Tensor& grad_output, const at::Tensor& input, const at::Tensor& weight, at::OptionalSymIntArrayRef bias_sizes,
    c10::SymIntArrayRef stride, c10::SymIntArrayRef padding, c10::SymIntArrayRef dilation, bool transposed,
    c10::SymIntArrayRef output_padding, c10::SymInt groups, std::array<bool, 3> output_mask);

// Composite operators whose ATen kernel is one structured call: the same call's C++ meta function.
at::Tensor add_Scalar(const at::Tensor& self, const at::Scalar& other, const at::Scalar& alpha);
at::Tensor mul_Scalar(const at::Tensor& self, const at::Scalar& other);
at::Tensor div_Scalar(const at::Tensor& self, const at::Scalar& other);
at::Tensor rsub_Scalar(const at::Tensor& self, const at::Scalar& other, const at::Scalar& alpha);
at::Tensor sum(const at::Tensor& self, std::optional<at::ScalarType> dtype);
at::Tensor mean(const at::Tensor& self, std::optional<at::ScalarType> dtype);
at::Tensor relu(const at::Tensor& self);

// Factories: an empty meta tensor as ATen's composite kernel makes it before filling it.
using OptDtype = std::optional<at::ScalarType>;
using OptLayout = std::optional<at::Layout>;
using OptDevice = std::optional<at::Device>;
using OptFormat = std::optional<at::MemoryFormat>;
at::Tensor ones_like(const at::Tensor& self, OptDtype dtype, OptLayout layout, OptDevice device, std::optional<bool> pin,
                     OptFormat format);
at::Tensor zeros_like(const at::Tensor& self, OptDtype dtype, OptLayout layout, OptDevice device, std::optional<bool> pin,
                      OptFormat format);
at::Tensor full_like(const at::Tensor& self, const at::Scalar& fill, OptDtype dtype, OptLayout layout, OptDevice device,
                     std::optional<bool> pin, OptFormat format);
at::Tensor new_zeros(const at::Tensor& self, c10::SymIntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device,
                     std::optional<bool> pin);
at::Tensor new_ones(const at::Tensor& self, c10::SymIntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device,
                    std::optional<bool> pin);
at::Tensor new_full(const at::Tensor& self, c10::SymIntArrayRef size, const at::Scalar& fill, OptDtype dtype, OptLayout layout,
                    OptDevice device, std::optional<bool> pin);
at::Tensor zeros(c10::SymIntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device, std::optional<bool> pin);
at::Tensor ones(c10::SymIntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device, std::optional<bool> pin);
at::Tensor full(c10::SymIntArrayRef size, const at::Scalar& fill, OptDtype dtype, OptLayout layout, OptDevice device,
                std::optional<bool> pin);
at::Tensor scalar_tensor(const at::Scalar& s, OptDtype dtype, OptLayout layout, OptDevice device, std::optional<bool> pin);

}  // namespace diopi_torch::meta
