// Result shapes of operators ATen gives no C++ meta kernel (only a Python
// one in torch._meta_registrations, whose first use imports torch._dynamo
// and whose every use runs Python). The generated kernels call these
// instead of dispatching to the Meta key (codegen: HAND_WRITTEN_META).
// Each follows the Python meta kernel it replaces: same sizes, strides,
// dtypes, and the error CUDA raises for a bad shape.
#include <ATen/ATen.h>
#include <ATen/ExpandUtils.h>
#include <ATen/ScalarOps.h>
#include <ATen/TensorIterator.h>
#include <ATen/native/RangeUtils.h>
#include <ATen/native/TypeProperties.h>
#include <ATen/native/layer_norm.h>
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
// floor_divide is division rounded toward minus infinity, div.Tensor_mode's "floor" (a Python number as divisor too).
at::Tensor floor_divide(const at::Tensor& self, const at::Tensor& other) {
    return at::meta::div(self, other, "floor");
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

// Operators models run every step (embeddings, norms, masks, copies): each as ATen's CPU
// kernel allocates its results before computing them, with its argument checks where a
// shape can be wrong, so the device's results and errors are the CPU's.
namespace {

// The output TensorIterator gives `inputs` (broadcast shape, strides following the inputs'
// layout), as the CPU kernel's iterator resizes its empty result: only shapes and strides
// matter here, so the inputs keep their dtypes.
at::Tensor iteratorResult(at::ScalarType dtype, std::initializer_list<at::Tensor> inputs) {
    at::Tensor out = at::empty({0}, inputs.begin()->options().dtype(dtype));
    at::TensorIteratorConfig config;
    config.check_all_same_dtype(false).add_output(out);
    for (const auto& t : inputs) config.add_const_input(t);
    config.build();
    return out;
}

// Norm statistics are float for a half or bfloat16 input with float parameters, else the input's dtype.
at::ScalarType paramDtype(const at::Tensor& input, std::initializer_list<std::optional<at::Tensor>> params) {
    if (!at::isReducedFloatingType(input.scalar_type())) return input.scalar_type();
    for (const auto& p : params) {
        if (p.has_value() && p->defined() && p->scalar_type() == at::kFloat) return at::kFloat;
    }
    return input.scalar_type();
}

at::Tensor contiguousLike(const at::Tensor& t) {
    return at::native::empty_like(t, std::nullopt, std::nullopt, at::Device(at::kMeta), false, at::MemoryFormat::Contiguous);
}

// checkScalarTypes' message as the CPU words it: a meta copy would name itself "MetaFloatType".
void checkIndices(const at::Tensor& indices, int pos, const char* op) {
    const auto t = indices.scalar_type();
    TORCH_CHECK(t == at::kLong || t == at::kInt, "Expected tensor for argument #", pos, " 'indices' to have one of the following ",
                "scalar types: Long, Int; but got torch.", c10::toString(t), "Tensor instead (while checking arguments for ", op, ")");
}

at::ScalarType arangeDtype(OptDtype dtype, std::initializer_list<at::Scalar> values) {
    if (dtype.has_value()) return *dtype;
    for (const auto& v : values) {
        if (!v.isIntegral(true)) return c10::typeMetaToScalarType(at::get_default_dtype());
    }
    return at::kLong;
}

}  // namespace

at::Tensor clone(const at::Tensor& self, OptFormat format) {
    return like(self, std::nullopt, std::nullopt, format);
}
at::Tensor _to_copy(const at::Tensor& self, OptDtype dtype, OptLayout layout, OptDevice, std::optional<bool>, bool, OptFormat format) {
    return like(self, dtype, layout, format);
}
at::Tensor abs(const at::Tensor& self) {
    const auto dtype = self.is_complex() ? c10::toRealValueType(self.scalar_type()) : self.scalar_type();
    return iteratorResult(dtype, {self});
}
at::Tensor logical_not(const at::Tensor& self) {
    return iteratorResult(at::kBool, {self});
}
// The CPU expands both, clones the expanded input contiguous and fills it in place.
at::Tensor masked_fill_Scalar(const at::Tensor& self, const at::Tensor& mask, const at::Scalar&) {
    const auto shape = at::infer_size(mask.sizes(), self.sizes());
    TORCH_CHECK(mask.scalar_type() == at::kBool, "masked_fill_ only supports boolean masks, but got mask with dtype ", mask.dtype());
    return at::empty(shape, self.options());
}
at::Tensor masked_fill_Tensor(const at::Tensor& self, const at::Tensor& mask, const at::Tensor& value) {
    TORCH_CHECK(value.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ", value.dim(),
                " dimension(s).");
    return masked_fill_Scalar(self, mask, 0);
}
at::Tensor where_self(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other) {
    TORCH_CHECK(condition.scalar_type() == at::kBool || condition.scalar_type() == at::kByte,
                "where expected condition to be a boolean tensor, but got a tensor with dtype ", condition.scalar_type());
    return iteratorResult(at::native::result_type(self, other), {condition, self, other});
}

at::Tensor where_self_out(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other, const at::Tensor& out) {
    const auto type = at::native::result_type(self, other);
    TORCH_CHECK(out.scalar_type() == type, "Expected out type to be ", type, " but got ", out.scalar_type());
    return where_self(condition, self, other);
}

// Training: a bool mask drawn like the input, the output input * mask * scale; evaluation: a clone and a mask of ones.
std::tuple<at::Tensor, at::Tensor> native_dropout(const at::Tensor& input, double, std::optional<bool> train) {
    const auto same = like(input, std::nullopt, std::nullopt, std::nullopt);
    if (input.numel() == 0) return {same, same};  // the CPU returns the input and an empty mask of its dtype
    at::Tensor mask = like(input, at::kBool, std::nullopt, std::nullopt);
    if (train.has_value() && !*train) return {same, mask};
    return {iteratorResult(input.scalar_type(), {input, mask}), mask};
}

at::Tensor embedding(const at::Tensor& weight, const at::Tensor& indices, c10::SymInt, bool, bool) {
    TORCH_CHECK(weight.dim() == 2, "'weight' must be 2-D");
    checkIndices(indices, 1, "embedding");
    auto shape = indices.sizes().vec();
    shape.push_back(weight.size(1));
    return at::empty(shape, weight.options());
}
at::Tensor embedding_dense_backward(const at::Tensor& grad_output, const at::Tensor& indices, c10::SymInt num_weights, c10::SymInt,
                                    bool) {
    checkIndices(indices, 2, "embedding_backward");
    return at::empty({num_weights.expect_int(), grad_output.size(-1)}, grad_output.options());
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> native_layer_norm(const at::Tensor& input, c10::SymIntArrayRef normalized_shape,
                                                                 const std::optional<at::Tensor>& weight,
                                                                 const std::optional<at::Tensor>& bias, double) {
    const auto shape = C10_AS_INTARRAYREF_SLOW(normalized_shape);
    at::native::_check_layer_norm_inputs(input, shape, weight.value_or(at::Tensor()), bias.value_or(at::Tensor()));
    const int64_t axis = input.dim() - static_cast<int64_t>(shape.size());
    std::vector<int64_t> stat(input.sizes().begin(), input.sizes().begin() + axis);
    stat.resize(input.dim(), 1);
    const auto options = input.options().dtype(paramDtype(input, {weight, bias}));
    return {contiguousLike(input), at::empty(stat, options), at::empty(stat, options)};
}
std::tuple<at::Tensor, at::Tensor, at::Tensor> native_layer_norm_backward(
    const at::Tensor& grad_out, const at::Tensor& input, c10::SymIntArrayRef normalized_shape, const at::Tensor&, const at::Tensor&,
    const std::optional<at::Tensor>& weight, const std::optional<at::Tensor>& bias, std::array<bool, 3> output_mask) {
    at::native::_check_layer_norm_inputs(input, C10_AS_INTARRAYREF_SLOW(normalized_shape), weight.value_or(at::Tensor()),
                                         bias.value_or(at::Tensor()));
    at::Tensor grad_input, grad_weight, grad_bias;
    if (output_mask[0]) grad_input = contiguousLike(input);
    if (output_mask[1] && weight.has_value() && weight->defined()) grad_weight = contiguousLike(*weight);
    if (output_mask[2] && bias.has_value() && bias->defined()) grad_bias = contiguousLike(*bias);
    (void)grad_out;
    return {grad_input, grad_weight, grad_bias};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> native_batch_norm(const at::Tensor& input, const std::optional<at::Tensor>& weight,
                                                                 const std::optional<at::Tensor>& bias,
                                                                 const std::optional<at::Tensor>& running_mean,
                                                                 const std::optional<at::Tensor>& running_var, bool training,
                                                                 double, double) {
    const auto options = input.options().dtype(paramDtype(input, {weight, bias, running_mean, running_var}));
    const int64_t stats = training ? input.size(1) : 0;  // eval mode saves no statistics
    return {at::empty(input.sizes(), input.options().memory_format(input.suggest_memory_format())), at::empty({stats}, options),
            at::empty({stats}, options)};
}
std::tuple<at::Tensor, at::Tensor, at::Tensor> native_batch_norm_backward(
    const at::Tensor& grad_out, const at::Tensor& input, const std::optional<at::Tensor>& weight,
    const std::optional<at::Tensor>& running_mean, const std::optional<at::Tensor>& running_var,
    const std::optional<at::Tensor>& save_mean, const std::optional<at::Tensor>& save_invstd, bool, double,
    std::array<bool, 3> output_mask) {
    const auto options = input.options().dtype(paramDtype(input, {weight, running_mean, running_var, save_mean, save_invstd}));
    at::Tensor grad_input, grad_weight, grad_bias;
    if (output_mask[0]) grad_input = at::empty(input.sizes(), input.options().memory_format(input.suggest_memory_format()));
    if (output_mask[1]) grad_weight = at::empty({input.size(1)}, options);
    if (output_mask[2]) grad_bias = at::empty({input.size(1)}, options);
    (void)grad_out;
    return {grad_input, grad_weight, grad_bias};
}

// ATen's composite backward of a view: a zero tensor of the viewed input's sizes, the gradient copied in.
at::Tensor select_backward(const at::Tensor& grad_output, c10::SymIntArrayRef input_sizes, int64_t, c10::SymInt) {
    return at::empty_symint(input_sizes, grad_output.options());
}
at::Tensor slice_backward(const at::Tensor& grad_output, c10::SymIntArrayRef input_sizes, int64_t, c10::SymInt, c10::SymInt,
                          c10::SymInt) {
    return at::empty_symint(input_sizes, grad_output.options());
}

at::Tensor arange_start_step(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step, OptDtype dtype,
                             OptLayout layout, OptDevice, std::optional<bool>) {
    const auto type = arangeDtype(dtype, {start, end, step});
    // CPU computes the length in int64 for a long result and in double for every other dtype.
    const int64_t n = type == at::kLong ? at::native::compute_arange_size<int64_t>(start, end, step)
                                        : at::native::compute_arange_size<double>(start, end, step);
    return at::empty({n}, metaOptions(type, layout));
}
at::Tensor arange(const at::Scalar& end, OptDtype dtype, OptLayout layout, OptDevice device, std::optional<bool> pin) {
    return arange_start_step(0, end, 1, dtype, layout, device, pin);
}
at::Tensor arange_start(const at::Scalar& start, const at::Scalar& end, OptDtype dtype, OptLayout layout, OptDevice device,
                        std::optional<bool> pin) {
    return arange_start_step(start, end, 1, dtype, layout, device, pin);
}

at::Tensor constant_pad_nd(const at::Tensor& self, c10::SymIntArrayRef pad_sym, const at::Scalar&) {
    const auto pad = C10_AS_INTARRAYREF_SLOW(pad_sym);
    TORCH_CHECK(pad.size() % 2 == 0, "Length of pad must be even but instead it equals ", pad.size());
    const int64_t dims = self.dim(), padded = static_cast<int64_t>(pad.size() / 2), kept = dims - padded;
    TORCH_CHECK(dims >= padded, "Length of pad should be no more than twice the number of dimensions of the input. Pad length is ",
                pad.size(), "while the input has ", dims, "dimensions.");
    bool shrinks_only = true;
    for (auto p : pad) shrinks_only = shrinks_only && p <= 0;
    if (shrinks_only) {  // CPU narrows the input and clones it: the clone keeps the input's layout
        at::Tensor view = self;
        for (int64_t i = 0; i < padded; ++i) {
            const int64_t d = dims - 1 - i;
            view = view.narrow(d, -pad[2 * i], view.size(d) + pad[2 * i] + pad[2 * i + 1]);
        }
        return like(view, std::nullopt, std::nullopt, std::nullopt);
    }
    // CPU narrows away the negative pads first (narrow's errors), then pads the rest.
    at::Tensor view = self;
    std::vector<int64_t> shape(self.sizes().begin(), self.sizes().begin() + kept);
    for (int64_t i = 0; i < padded; ++i) {
        const int64_t d = dims - 1 - i, before = pad[2 * i], after = pad[2 * i + 1];
        view = view.narrow(d, -std::min<int64_t>(before, 0), view.size(d) + std::min<int64_t>(before, 0) + std::min<int64_t>(after, 0));
    }
    for (int64_t d = kept; d < dims; ++d) {
        const int64_t i = dims - 1 - d, before = pad[2 * i], after = pad[2 * i + 1];
        const int64_t n = self.size(d) + before + after;
        TORCH_CHECK(n >= 0, "The input size ", self.size(d), ", plus negative padding ", before, " and ", after,
                    " resulted in a negative output size, which is invalid. Check dimension ", d, " of your input.");
        shape.push_back(n);
    }
    return at::empty(shape, self.options().memory_format(self.suggest_memory_format()));
}

}  // namespace diopi_torch::meta
