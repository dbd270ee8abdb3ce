// Shape manipulation: cat, stack, split, transpose, permute, expand, repeat, flip, roll, pad, unfold, tril/triu.
#include <cstring>
#include <string>

#include "helper.hpp"

using namespace impl::aten;

namespace {

// The shape at::cat gives `ts` joined along `dim` when every tensor has dtype `dtype` (then so does the result);
// nothing otherwise, or when ATen would refuse them. As in ATen, 1-d empty tensors are skipped.
std::optional<at::DimVector> catShape(const std::vector<at::Tensor>& ts, int64_t dim, at::ScalarType dtype) {
    const at::Tensor* first = nullptr;
    for (const auto& t : ts) {
        if (t.scalar_type() != dtype) return std::nullopt;
        if (!first && !(t.dim() == 1 && t.size(0) == 0)) first = &t;
    }
    if (!first || first->dim() == 0) return std::nullopt;
    int64_t ndim = first->dim(), d = dim < 0 ? dim + ndim : dim;
    if (d < 0 || d >= ndim) return std::nullopt;
    at::DimVector shape(first->sizes());
    shape[static_cast<size_t>(d)] = 0;
    for (const auto& t : ts) {
        if (t.dim() == 1 && t.size(0) == 0) continue;
        if (t.dim() != ndim) return std::nullopt;
        for (int64_t i = 0; i < ndim; ++i)
            if (i != d && t.size(i) != shape[static_cast<size_t>(i)]) return std::nullopt;
        shape[static_cast<size_t>(d)] += t.size(d);
    }
    return shape;
}

}  // namespace

extern "C" {

diopiError_t diopiCat(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t* tensors, int64_t num_inputs, int64_t dim) {
    DIOPI_IMPL_BEGIN
    std::vector<at::Tensor> ts = impl::aten::tensors(tensors, num_inputs, "tensors");
    at::Tensor o = tensor(out, "out");
    if (auto shape = catShape(ts, dim, o.scalar_type())) {
        std::vector<std::reference_wrapper<const at::Tensor>> inputs(ts.begin(), ts.end());
        if (at::Tensor d = directOut(o, *shape, o.scalar_type(), inputs); d.defined()) {
            at::cat_out(d, ts, dim);
            return;
        }
    }
    assign(o, at::cat(ts, dim));
    DIOPI_IMPL_END
}

diopiError_t diopiStack(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t* tensors, int64_t numTensors, int64_t dim) {
    DIOPI_IMPL_BEGIN
    assign(out, at::stack(impl::aten::tensors(tensors, numTensors, "tensors"), dim));
    DIOPI_IMPL_END
}

diopiError_t diopiTranspose(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim0, int64_t dim1) {
    DIOPI_IMPL_BEGIN
    assign(out, tensor(input, "input").transpose(dim0, dim1));
    DIOPI_IMPL_END
}

diopiError_t diopiSplitWithSizes(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, int64_t num_outs, diopiConstTensorHandle_t input,
                                 const diopiSize_t splitSizes, int64_t dim) {
    DIOPI_IMPL_BEGIN
    if (num_outs < 0 || (num_outs > 0 && outs == nullptr)) fail("outs is NULL or num_outs is negative");
    auto parts = at::split_with_sizes(tensor(input, "input"), ints(splitSizes), dim);
    if (static_cast<int64_t>(parts.size()) != num_outs)
        fail("num_outs (" + std::to_string(num_outs) + ") differs from the number of split sizes (" + std::to_string(parts.size()) + ")");
    for (int64_t i = 0; i < num_outs; ++i) assign(outs[i], parts[i], "outs[i]");
    DIOPI_IMPL_END
}

diopiError_t diopiPermute(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dims) {
    DIOPI_IMPL_BEGIN
    assign(out, tensor(input, "input").permute(ints(dims)));
    DIOPI_IMPL_END
}

diopiError_t diopiExpand(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    // The target shape is the output's.
    assign(out, tensor(input, "input").expand(tensor(out, "out").sizes()));
    DIOPI_IMPL_END
}

diopiError_t diopiRepeat(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t repeats_size) {
    DIOPI_IMPL_BEGIN
    assign(out, tensor(input, "input").repeat(ints(repeats_size)));
    DIOPI_IMPL_END
}

diopiError_t diopiFlip(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dims) {
    DIOPI_IMPL_BEGIN
    assign(out, at::flip(tensor(input, "input"), ints(dims)));
    DIOPI_IMPL_END
}

diopiError_t diopiRoll(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t shifts, diopiSize_t dims) {
    DIOPI_IMPL_BEGIN
    assign(out, at::roll(tensor(input, "input"), ints(shifts), ints(dims)));
    DIOPI_IMPL_END
}

diopiError_t diopiPad(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t pad, const char* mode,
                      const double* value) {
    DIOPI_IMPL_BEGIN
    std::string m = mode ? mode : "constant";
    if (m != "constant" && m != "reflect" && m != "replicate" && m != "circular")
        fail("mode must be constant, reflect, replicate or circular, got \"" + m + "\"");
    if (m != "constant" && value != nullptr && *value != 0.0) fail("a fill value is only meaningful for mode \"constant\"");
    std::optional<double> v;
    if (m == "constant" && value != nullptr) v = *value;
    assign(out, at::pad(tensor(input, "input"), ints(pad), m, v));
    DIOPI_IMPL_END
}

diopiError_t diopiUnfold(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim, int64_t size, int64_t step) {
    DIOPI_IMPL_BEGIN
    if (step <= 0) fail("step must be positive");
    assign(out, tensor(input, "input").unfold(dim, size, step));
    DIOPI_IMPL_END
}

diopiError_t diopiUnfoldBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output, diopiSize_t input_sizes,
                                 int64_t dim, int64_t size, int64_t step) {
    DIOPI_IMPL_BEGIN
    if (step <= 0) fail("step must be positive");
    assign(grad_input, at::unfold_backward(tensor(grad_output, "grad_output"), ints(input_sizes), dim, size, step), "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiTril(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t diagonal) {
    DIOPI_IMPL_BEGIN
    assign(out, at::tril(tensor(input, "input"), diagonal));
    DIOPI_IMPL_END
}

diopiError_t diopiTriu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t diagonal) {
    DIOPI_IMPL_BEGIN
    assign(out, at::triu(tensor(input, "input"), diagonal));
    DIOPI_IMPL_END
}

diopiError_t diopiTriuInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t diagonal) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").triu_(diagonal);
    DIOPI_IMPL_END
}

}  // extern "C"
