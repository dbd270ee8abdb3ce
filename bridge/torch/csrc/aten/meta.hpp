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

}  // namespace diopi_torch::meta
