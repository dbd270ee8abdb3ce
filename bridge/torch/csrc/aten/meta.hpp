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
at::Tensor floor_divide(const at::Tensor& self, const at::Tensor& other);

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

// Operators models run every step: their CPU kernels' result allocation and shape checks.
at::Tensor clone(const at::Tensor& self, OptFormat format);
at::Tensor _to_copy(const at::Tensor& self, OptDtype dtype, OptLayout layout, OptDevice device, std::optional<bool> pin,
                    bool non_blocking, OptFormat format);
at::Tensor abs(const at::Tensor& self);
at::Tensor logical_not(const at::Tensor& self);
at::Tensor masked_fill_Scalar(const at::Tensor& self, const at::Tensor& mask, const at::Scalar& value);
at::Tensor masked_fill_Tensor(const at::Tensor& self, const at::Tensor& mask, const at::Tensor& value);
at::Tensor where_self(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other);
at::Tensor where_self_out(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other, const at::Tensor& out);
std::tuple<at::Tensor, at::Tensor> native_dropout(const at::Tensor& input, double p, std::optional<bool> train);
at::Tensor embedding(const at::Tensor& weight, const at::Tensor& indices, c10::SymInt padding_idx, bool scale_grad_by_freq,
                     bool sparse);
at::Tensor embedding_dense_backward(const at::Tensor& grad_output, const at::Tensor& indices, c10::SymInt num_weights,
                                    c10::SymInt padding_idx, bool scale_grad_by_freq);
std::tuple<at::Tensor, at::Tensor, at::Tensor> native_layer_norm(const at::Tensor& input, c10::SymIntArrayRef normalized_shape,
                                                                 const std::optional<at::Tensor>& weight,
                                                                 const std::optional<at::Tensor>& bias, double eps);
std::tuple<at::Tensor, at::Tensor, at::Tensor> native_layer_norm_backward(
    const at::Tensor& grad_out, const at::Tensor& input, c10::SymIntArrayRef normalized_shape, const at::Tensor& mean,
    const at::Tensor& rstd, const std::optional<at::Tensor>& weight, const std::optional<at::Tensor>& bias,
    std::array<bool, 3> output_mask);
std::tuple<at::Tensor, at::Tensor, at::Tensor> native_batch_norm(const at::Tensor& input, const std::optional<at::Tensor>& weight,
                                                                 const std::optional<at::Tensor>& bias,
                                                                 const std::optional<at::Tensor>& running_mean,
                                                                 const std::optional<at::Tensor>& running_var, bool training,
                                                                 double momentum, double eps);
std::tuple<at::Tensor, at::Tensor, at::Tensor> native_batch_norm_backward(
    const at::Tensor& grad_out, const at::Tensor& input, const std::optional<at::Tensor>& weight,
    const std::optional<at::Tensor>& running_mean, const std::optional<at::Tensor>& running_var,
    const std::optional<at::Tensor>& save_mean, const std::optional<at::Tensor>& save_invstd, bool train, double eps,
    std::array<bool, 3> output_mask);
at::Tensor select_backward(const at::Tensor& grad_output, c10::SymIntArrayRef input_sizes, int64_t dim, c10::SymInt index);
at::Tensor slice_backward(const at::Tensor& grad_output, c10::SymIntArrayRef input_sizes, int64_t dim, c10::SymInt start,
                          c10::SymInt end, c10::SymInt step);
at::Tensor arange(const at::Scalar& end, OptDtype dtype, OptLayout layout, OptDevice device, std::optional<bool> pin);
at::Tensor arange_start(const at::Scalar& start, const at::Scalar& end, OptDtype dtype, OptLayout layout, OptDevice device,
                        std::optional<bool> pin);
at::Tensor arange_start_step(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step, OptDtype dtype,
                             OptLayout layout, OptDevice device, std::optional<bool> pin);
at::Tensor constant_pad_nd(const at::Tensor& self, c10::SymIntArrayRef pad, const at::Scalar& value);

}  // namespace diopi_torch::meta
