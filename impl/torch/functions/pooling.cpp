// Pooling: max / avg, fixed-window and adaptive, 1-d to 3-d, forward and backward, and the mode-generic Pool{1,2,3}d.
#include "helper.hpp"

#include <cstring>

using namespace impl::aten;

namespace {

/// Window parameters expanded to one entry per spatial dim.
struct Window {
    std::vector<int64_t> kernel, stride, padding, dilation;
};

std::vector<int64_t> expand(diopiSize_t s, int64_t n, const char* name, const std::vector<int64_t>& fallback) {
    at::IntArrayRef v = ints(s);
    if (v.empty()) return fallback;
    if (v.size() == 1) return std::vector<int64_t>(n, v[0]);
    if (static_cast<int64_t>(v.size()) != n) fail(std::string(name) + " must have 1 or " + std::to_string(n) + " entries, got " + std::to_string(v.size()));
    return v.vec();
}

Window window(int64_t n, diopiSize_t kernel, diopiSize_t stride, diopiSize_t padding, const diopiSize_t* dilation) {
    Window w;
    w.kernel = expand(kernel, n, "kernel_size", {});
    if (w.kernel.empty()) fail("kernel_size must not be empty");
    w.stride = expand(stride, n, "stride", w.kernel);  // an empty stride means stride = kernel_size
    w.padding = expand(padding, n, "padding", std::vector<int64_t>(n, 0));
    w.dilation = dilation ? expand(*dilation, n, "dilation", std::vector<int64_t>(n, 1)) : std::vector<int64_t>(n, 1);
    return w;
}

/// 1-d pooling runs as 2-d pooling over an (1, L) plane: window entries get a leading 1 (0 for padding).
Window lift1d(const Window& w) {
    return {{1, w.kernel[0]}, {1, w.stride[0]}, {0, w.padding[0]}, {1, w.dilation[0]}};
}

void requireRank(const at::Tensor& x, int64_t n, const char* name) {
    if (x.dim() != n + 1 && x.dim() != n + 2)
        fail(std::string(name) + " must be " + std::to_string(n + 1) + "-D or " + std::to_string(n + 2) + "-D for " + std::to_string(n) +
             "-d pooling, got " + std::to_string(x.dim()) + "-D");
}

/// The pooled input. ATen takes memory formats only for batched tensors, so an unbatched one is made contiguous.
at::Tensor input1(diopiConstTensorHandle_t h, int64_t n) {
    at::Tensor x = tensor(h, "input");
    requireRank(x, n, "input");
    return x.dim() == n + 1 ? x.contiguous() : x;
}

at::Tensor gradOutput(diopiConstTensorHandle_t h, int64_t n) {
    at::Tensor g = tensor(h, "grad_output");
    return g.dim() == n + 1 ? g.contiguous() : g;
}

// The max-pooling backward routes each gradient through the indices its forward produced: they are required
// (recomputing them could pick another arg-max on ties and would hide a caller's missing argument).
at::Tensor longIndices(diopiConstTensorHandle_t h) {
    if (h == nullptr) fail("indices is NULL: pass the indices the forward with indices produced");
    at::Tensor i = tensor(h, "indices");
    if (i.scalar_type() != at::kLong && i.scalar_type() != at::kInt) fail("indices must be int32 or int64", diopiDtypeNotSupported);
    return i.to(at::kLong);
}

// ---- max pooling

// ATen's backward kernels trust their arguments to come from a matching forward and read out of
// bounds otherwise: check what can be checked without recomputing the forward.
void checkBackward(const at::Tensor& go, const at::Tensor& x, int64_t n, const at::Tensor& idx) {
    if (go.dim() != x.dim()) fail("grad_output and input must have the same rank");
    if (go.sizes().slice(0, go.dim() - n) != x.sizes().slice(0, x.dim() - n))
        fail("grad_output and input must agree in their batch and channel dimensions");
    bool emptySpatial = false;
    for (int64_t d = x.dim() - n; d < x.dim(); ++d) emptySpatial |= x.size(d) == 0;
    if (emptySpatial && go.numel() != 0) fail("input has an empty spatial dimension but grad_output is not empty");
    if (idx.defined() && idx.sizes() != go.sizes()) fail("indices must have grad_output's shape");
}

std::tuple<at::Tensor, at::Tensor> maxPool(const at::Tensor& x, int64_t n, const Window& w, bool ceil) {
    if (n == 1) {
        Window l = lift1d(w);
        auto [o, i] = at::max_pool2d_with_indices(x.unsqueeze(-2), l.kernel, l.stride, l.padding, l.dilation, ceil);
        return {o.squeeze(-2), i.squeeze(-2)};
    }
    if (n == 2) return at::max_pool2d_with_indices(x, w.kernel, w.stride, w.padding, w.dilation, ceil);
    return at::max_pool3d_with_indices(x, w.kernel, w.stride, w.padding, w.dilation, ceil);
}

at::Tensor maxPoolBackward(const at::Tensor& go, const at::Tensor& x, int64_t n, const Window& w, bool ceil, at::Tensor idx) {
    checkBackward(go, x, n, idx);
    if (n == 1) {
        Window l = lift1d(w);
        return at::max_pool2d_with_indices_backward(go.unsqueeze(-2), x.unsqueeze(-2), l.kernel, l.stride, l.padding, l.dilation, ceil, idx.unsqueeze(-2))
            .squeeze(-2);
    }
    if (n == 2) return at::max_pool2d_with_indices_backward(go, x, w.kernel, w.stride, w.padding, w.dilation, ceil, idx);
    return at::max_pool3d_with_indices_backward(go, x, w.kernel, w.stride, w.padding, w.dilation, ceil, idx);
}

// ---- average pooling

at::Tensor avgPool(const at::Tensor& x, int64_t n, const Window& w, bool ceil, bool countIncludePad, std::optional<int64_t> divisor) {
    for (int64_t d : w.dilation)
        if (d != 1) fail("average pooling takes no dilation (all entries must be 1)");
    if (divisor && *divisor == 0) fail("divisor_override must not be 0");
    if (n == 1) {
        Window l = lift1d(w);
        return at::avg_pool2d(x.unsqueeze(-2), l.kernel, l.stride, l.padding, ceil, countIncludePad, divisor).squeeze(-2);
    }
    if (n == 2) return at::avg_pool2d(x, w.kernel, w.stride, w.padding, ceil, countIncludePad, divisor);
    return at::avg_pool3d(x, w.kernel, w.stride, w.padding, ceil, countIncludePad, divisor);
}

at::Tensor avgPoolBackward(const at::Tensor& go, const at::Tensor& x, int64_t n, const Window& w, bool ceil, bool countIncludePad,
                           std::optional<int64_t> divisor) {
    checkBackward(go, x, n, at::Tensor());
    for (int64_t d : w.dilation)
        if (d != 1) fail("average pooling takes no dilation (all entries must be 1)");
    if (divisor && *divisor == 0) fail("divisor_override must not be 0");
    if (n == 1) {
        Window l = lift1d(w);
        return at::avg_pool2d_backward(go.unsqueeze(-2), x.unsqueeze(-2), l.kernel, l.stride, l.padding, ceil, countIncludePad, divisor).squeeze(-2);
    }
    if (n == 2) return at::avg_pool2d_backward(go, x, w.kernel, w.stride, w.padding, ceil, countIncludePad, divisor);
    return at::avg_pool3d_backward(go, x, w.kernel, w.stride, w.padding, ceil, countIncludePad, divisor);
}

// ---- adaptive pooling

std::vector<int64_t> outputSize(diopiSize_t s, int64_t n) {
    std::vector<int64_t> v = expand(s, n, "output_size", {});
    if (v.empty()) fail("output_size must not be empty");
    return v;
}

at::Tensor adaptiveAvg(const at::Tensor& x, int64_t n, const std::vector<int64_t>& size) {
    if (n == 1) return at::adaptive_avg_pool1d(x, size);
    if (n == 2) return at::adaptive_avg_pool2d(x, size);
    return at::adaptive_avg_pool3d(x, size);
}

at::Tensor adaptiveAvgBackward(const at::Tensor& go, const at::Tensor& x, int64_t n) {
    checkBackward(go, x, n, at::Tensor());
    if (n == 1) return at::_adaptive_avg_pool2d_backward(go.unsqueeze(-2), x.unsqueeze(-2)).squeeze(-2);
    if (n == 2) return at::_adaptive_avg_pool2d_backward(go, x);
    return at::_adaptive_avg_pool3d_backward(go, x);
}

std::tuple<at::Tensor, at::Tensor> adaptiveMax(const at::Tensor& x, int64_t n, const std::vector<int64_t>& size) {
    if (n == 1) return at::adaptive_max_pool1d(x, size);
    if (n == 2) return at::adaptive_max_pool2d(x, size);
    return at::adaptive_max_pool3d(x, size);
}

at::Tensor adaptiveMaxBackward(const at::Tensor& go, const at::Tensor& x, int64_t n, at::Tensor idx) {
    checkBackward(go, x, n, idx);
    if (n == 1) return at::adaptive_max_pool2d_backward(go.unsqueeze(-2), x.unsqueeze(-2), idx.unsqueeze(-2)).squeeze(-2);
    if (n == 2) return at::adaptive_max_pool2d_backward(go, x, idx);
    // ATen's 3-d kernel reads grad_output and indices as dense NCDHW buffers whatever their strides.
    return at::adaptive_max_pool3d_backward(go.contiguous(), x.contiguous(), idx.contiguous());
}

// ---- mode-generic pooling (Pool1d/2d/3d)

bool isMax(const char* mode) {
    if (!mode) fail("mode must not be NULL (\"max\" or \"avg\")");
    if (std::strcmp(mode, "max") == 0) return true;
    if (std::strcmp(mode, "avg") == 0) return false;
    fail(std::string("mode must be \"max\" or \"avg\", got \"") + mode + "\"");
}

at::Tensor pool(const at::Tensor& x, int64_t n, const char* mode, diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation,
                bool ceil, bool exclusive, bool adaptive, diopiSize_t outSize) {
    bool max = isMax(mode);
    if (adaptive) {
        std::vector<int64_t> size = outputSize(outSize, n);
        return max ? std::get<0>(adaptiveMax(x, n, size)) : adaptiveAvg(x, n, size);
    }
    Window w = window(n, ksize, stride, padding, &dilation);
    return max ? std::get<0>(maxPool(x, n, w, ceil)) : avgPool(x, n, w, ceil, !exclusive, std::nullopt);
}

at::Tensor poolBackward(const at::Tensor& go, const at::Tensor& x, int64_t n, const char* mode, diopiSize_t ksize, diopiSize_t stride,
                        diopiSize_t padding, diopiSize_t dilation, bool ceil, bool exclusive, bool adaptive, diopiConstTensorHandle_t indices) {
    bool max = isMax(mode);
    at::Tensor idx = max ? longIndices(indices) : at::Tensor();
    if (adaptive) return max ? adaptiveMaxBackward(go, x, n, idx) : adaptiveAvgBackward(go, x, n);
    Window w = window(n, ksize, stride, padding, &dilation);
    return max ? maxPoolBackward(go, x, n, w, ceil, idx) : avgPoolBackward(go, x, n, w, ceil, !exclusive, std::nullopt);
}

std::optional<int64_t> divisor(const int64_t* d) { return d ? std::optional<int64_t>(*d) : std::nullopt; }

}  // namespace

extern "C" {

// ---------------------------------------------------------------- 1-d

diopiError_t diopiMaxPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    DIOPI_IMPL_BEGIN
    assign(out, std::get<0>(maxPool(input1(input, 1), 1, window(1, kernel_size, stride, padding, &dilation), ceil_mode)));
    DIOPI_IMPL_END
}

diopiError_t diopiMaxPool1dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                       diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    DIOPI_IMPL_BEGIN
    auto [o, i] = maxPool(input1(input, 1), 1, window(1, kernel_size, stride, padding, &dilation), ceil_mode);
    assign(out, o);
    assign(indices, i, "indices");
    DIOPI_IMPL_END
}

diopiError_t diopiMaxPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                    diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices) {
    DIOPI_IMPL_BEGIN
    at::Tensor idx = longIndices(indices);
    assign(grad_input,
           maxPoolBackward(gradOutput(grad_output, 1), input1(input, 1), 1, window(1, kernel_size, stride, padding, &dilation), ceil_mode, idx),
           "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiAvgPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad) {
    DIOPI_IMPL_BEGIN
    assign(out, avgPool(input1(input, 1), 1, window(1, kernel_size, stride, padding, nullptr), ceil_mode, count_include_pad, std::nullopt));
    DIOPI_IMPL_END
}

diopiError_t diopiAvgPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, bool ceil_mode,
                                    bool count_include_pad) {
    DIOPI_IMPL_BEGIN
    assign(grad_input,
           avgPoolBackward(gradOutput(grad_output, 1), input1(input, 1), 1, window(1, kernel_size, stride, padding, nullptr), ceil_mode,
                           count_include_pad, std::nullopt),
           "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveAvgPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    DIOPI_IMPL_BEGIN
    assign(out, adaptiveAvg(input1(input, 1), 1, outputSize(output_size, 1)));
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveAvgPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(grad_input, adaptiveAvgBackward(gradOutput(grad_output, 1), input1(input, 1), 1), "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveMaxPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    DIOPI_IMPL_BEGIN
    assign(out, std::get<0>(adaptiveMax(input1(input, 1), 1, outputSize(output_size, 1))));
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveMaxPool1dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                               diopiConstTensorHandle_t input, diopiSize_t output_size) {
    DIOPI_IMPL_BEGIN
    auto [o, i] = adaptiveMax(input1(input, 1), 1, outputSize(output_size, 1));
    assign(out, o);
    assign(indices, i, "indices");
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveMaxPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices) {
    DIOPI_IMPL_BEGIN
    at::Tensor idx = longIndices(indices);
    assign(grad_input, adaptiveMaxBackward(gradOutput(grad_output, 1), input1(input, 1), 1, idx), "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize,
                         diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive,
                         diopiSize_t output_size) {
    DIOPI_IMPL_BEGIN
    assign(out, pool(input1(input, 1), 1, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, output_size));
    DIOPI_IMPL_END
}

diopiError_t diopiPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                 diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding,
                                 diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive, diopiConstTensorHandle_t indices) {
    DIOPI_IMPL_BEGIN
    assign(grad_input,
           poolBackward(gradOutput(grad_output, 1), input1(input, 1), 1, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive,
                        indices),
           "grad_input");
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- 2-d

diopiError_t diopiMaxPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    DIOPI_IMPL_BEGIN
    assign(out, std::get<0>(maxPool(input1(input, 2), 2, window(2, kernel_size, stride, padding, &dilation), ceil_mode)));
    DIOPI_IMPL_END
}

diopiError_t diopiMaxPool2dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                       diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    DIOPI_IMPL_BEGIN
    auto [o, i] = maxPool(input1(input, 2), 2, window(2, kernel_size, stride, padding, &dilation), ceil_mode);
    assign(out, o);
    assign(indices, i, "indices");
    DIOPI_IMPL_END
}

diopiError_t diopiMaxPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                    diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices) {
    DIOPI_IMPL_BEGIN
    at::Tensor idx = longIndices(indices);
    assign(grad_input,
           maxPoolBackward(gradOutput(grad_output, 2), input1(input, 2), 2, window(2, kernel_size, stride, padding, &dilation), ceil_mode, idx),
           "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiAvgPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad, const int64_t* divisor_override) {
    DIOPI_IMPL_BEGIN
    assign(out, avgPool(input1(input, 2), 2, window(2, kernel_size, stride, padding, nullptr), ceil_mode, count_include_pad, divisor(divisor_override)));
    DIOPI_IMPL_END
}

diopiError_t diopiAvgPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, bool ceil_mode,
                                    bool count_include_pad, const int64_t* divisor_override) {
    DIOPI_IMPL_BEGIN
    assign(grad_input,
           avgPoolBackward(gradOutput(grad_output, 2), input1(input, 2), 2, window(2, kernel_size, stride, padding, nullptr), ceil_mode,
                           count_include_pad, divisor(divisor_override)),
           "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveAvgPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    DIOPI_IMPL_BEGIN
    assign(out, adaptiveAvg(input1(input, 2), 2, outputSize(output_size, 2)));
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveAvgPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(grad_input, adaptiveAvgBackward(gradOutput(grad_output, 2), input1(input, 2), 2), "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveMaxPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    DIOPI_IMPL_BEGIN
    assign(out, std::get<0>(adaptiveMax(input1(input, 2), 2, outputSize(output_size, 2))));
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveMaxPool2dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                               diopiConstTensorHandle_t input, diopiSize_t output_size) {
    DIOPI_IMPL_BEGIN
    auto [o, i] = adaptiveMax(input1(input, 2), 2, outputSize(output_size, 2));
    assign(out, o);
    assign(indices, i, "indices");
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveMaxPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices) {
    DIOPI_IMPL_BEGIN
    at::Tensor idx = longIndices(indices);
    assign(grad_input, adaptiveMaxBackward(gradOutput(grad_output, 2), input1(input, 2), 2, idx), "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize,
                         diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive,
                         diopiSize_t output_size) {
    DIOPI_IMPL_BEGIN
    assign(out, pool(input1(input, 2), 2, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, output_size));
    DIOPI_IMPL_END
}

diopiError_t diopiPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                 diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding,
                                 diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive, diopiConstTensorHandle_t indices) {
    DIOPI_IMPL_BEGIN
    assign(grad_input,
           poolBackward(gradOutput(grad_output, 2), input1(input, 2), 2, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive,
                        indices),
           "grad_input");
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- 3-d

diopiError_t diopiMaxPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    DIOPI_IMPL_BEGIN
    assign(out, std::get<0>(maxPool(input1(input, 3), 3, window(3, kernel_size, stride, padding, &dilation), ceil_mode)));
    DIOPI_IMPL_END
}

diopiError_t diopiMaxPool3dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                       diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
    DIOPI_IMPL_BEGIN
    auto [o, i] = maxPool(input1(input, 3), 3, window(3, kernel_size, stride, padding, &dilation), ceil_mode);
    assign(out, o);
    assign(indices, i, "indices");
    DIOPI_IMPL_END
}

diopiError_t diopiMaxPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                    diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices) {
    DIOPI_IMPL_BEGIN
    at::Tensor idx = longIndices(indices);
    assign(grad_input,
           maxPoolBackward(gradOutput(grad_output, 3), input1(input, 3), 3, window(3, kernel_size, stride, padding, &dilation), ceil_mode, idx),
           "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiAvgPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad, const int64_t* divisor_override) {
    DIOPI_IMPL_BEGIN
    assign(out, avgPool(input1(input, 3), 3, window(3, kernel_size, stride, padding, nullptr), ceil_mode, count_include_pad, divisor(divisor_override)));
    DIOPI_IMPL_END
}

diopiError_t diopiAvgPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding, bool ceil_mode,
                                    bool count_include_pad, const int64_t* divisor_override) {
    DIOPI_IMPL_BEGIN
    assign(grad_input,
           avgPoolBackward(gradOutput(grad_output, 3), input1(input, 3), 3, window(3, kernel_size, stride, padding, nullptr), ceil_mode,
                           count_include_pad, divisor(divisor_override)),
           "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveAvgPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    DIOPI_IMPL_BEGIN
    assign(out, adaptiveAvg(input1(input, 3), 3, outputSize(output_size, 3)));
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveAvgPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    assign(grad_input, adaptiveAvgBackward(gradOutput(grad_output, 3), input1(input, 3), 3), "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveMaxPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size) {
    DIOPI_IMPL_BEGIN
    assign(out, std::get<0>(adaptiveMax(input1(input, 3), 3, outputSize(output_size, 3))));
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveMaxPool3dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                               diopiConstTensorHandle_t input, diopiSize_t output_size) {
    DIOPI_IMPL_BEGIN
    auto [o, i] = adaptiveMax(input1(input, 3), 3, outputSize(output_size, 3));
    assign(out, o);
    assign(indices, i, "indices");
    DIOPI_IMPL_END
}

diopiError_t diopiAdaptiveMaxPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices) {
    DIOPI_IMPL_BEGIN
    at::Tensor idx = longIndices(indices);
    assign(grad_input, adaptiveMaxBackward(gradOutput(grad_output, 3), input1(input, 3), 3, idx), "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize,
                         diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive,
                         diopiSize_t output_size) {
    DIOPI_IMPL_BEGIN
    assign(out, pool(input1(input, 3), 3, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive, output_size));
    DIOPI_IMPL_END
}

diopiError_t diopiPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                 diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding,
                                 diopiSize_t dilation, const bool ceil_mode, const bool exclusive, const bool adaptive, diopiConstTensorHandle_t indices) {
    DIOPI_IMPL_BEGIN
    assign(grad_input,
           poolBackward(gradOutput(grad_output, 3), input1(input, 3), 3, mode, ksize, stride, padding, dilation, ceil_mode, exclusive, adaptive,
                        indices),
           "grad_input");
    DIOPI_IMPL_END
}

}  // extern "C"
