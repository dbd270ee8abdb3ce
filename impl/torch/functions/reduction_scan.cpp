// Reductions and scans: sum, mean, std, prod, norm (+ backward), amax, max/min (along a dim and overall),
// any/all, argmax/argmin, cumsum (+ backward).
#include "helper.hpp"

#include <algorithm>
#include <bitset>
#include <cmath>

using namespace impl::aten;

namespace {

// An empty dim list reduces every dimension.
at::OptionalIntArrayRef dimsOrAll(diopiSize_t dim) {
    if (dim.len == 0) return std::nullopt;
    return ints(dim);
}

// A full reduction whose caller kept every dim as size 1.
at::Tensor keepAll(const at::Tensor& r, const at::Tensor& input, bool keep) {
    if (!keep) return r;
    return r.reshape(std::vector<int64_t>(static_cast<size_t>(input.dim()), 1));
}

// The reduced dims, wrapped and sorted (all dims for an empty list).
std::vector<int64_t> reducedDims(at::IntArrayRef dims, int64_t ndim) {
    std::vector<int64_t> out;
    if (dims.empty()) {
        for (int64_t d = 0; d < ndim; ++d) out.push_back(d);
        return out;
    }
    for (int64_t d : dims) {
        int64_t w = d < 0 ? d + ndim : d;
        if (w < 0 || w >= std::max<int64_t>(ndim, 1)) fail("dim " + std::to_string(d) + " out of range");
        out.push_back(w);
    }
    std::sort(out.begin(), out.end());
    if (std::adjacent_find(out.begin(), out.end()) != out.end()) fail("dim lists a dimension twice");
    return out;
}

// Restores the reduced dims (size 1) of a result computed without keepdim.
at::Tensor unsqueezeDims(at::Tensor t, const std::vector<int64_t>& dims, int64_t ndim) {
    if (t.dim() == ndim) return t;
    for (int64_t d : dims) t = t.unsqueeze(d);
    return t;
}

// The shape ATen gives a reduction of `in` over `dims` (every dim for an empty list); nothing when `dims` is
// invalid (out of range, repeated), for which ATen raises its own error on the usual path.
std::optional<at::DimVector> reductionShape(const at::Tensor& in, at::IntArrayRef dims, bool keepdim) {
    int64_t ndim = in.dim(), range = std::max<int64_t>(ndim, 1);
    if (ndim > 64) return std::nullopt;
    std::bitset<64> reduced;
    if (dims.empty()) reduced.set();
    for (int64_t d : dims) {
        int64_t w = d < 0 ? d + range : d;
        if (w < 0 || w >= range || reduced.test(static_cast<size_t>(w))) return std::nullopt;
        reduced.set(static_cast<size_t>(w));
    }
    at::DimVector shape;
    for (int64_t d = 0; d < ndim; ++d) {
        if (!reduced.test(static_cast<size_t>(d)))
            shape.push_back(in.size(d));
        else if (keepdim)
            shape.push_back(1);
    }
    return shape;
}

// ATen's argmax/argmin refuse bool, which the header lists: false < true, as in uint8.
at::Tensor orderable(const at::Tensor& t) { return t.scalar_type() == at::kBool ? t.to(at::kByte) : t; }

}  // namespace

extern "C" {

// ---- sum, mean, std, prod: the output's rank says whether reduced dims are kept
diopiError_t diopiSum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), o = tensor(out, "out");
    bool keep = keepdimFrom(o, in);
    if (auto shape = reductionShape(in, ints(dim), keep)) {
        if (at::Tensor d = directOut(o, *shape, o.scalar_type(), {in}); d.defined()) {
            at::sum_out(d, in, ints(dim), keep, o.scalar_type());
            return;
        }
    }
    assign(o, at::sum(in, ints(dim), keep, o.scalar_type()));
    DIOPI_IMPL_END
}

diopiError_t diopiMean(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), o = tensor(out, "out");
    bool keep = keepdimFrom(o, in);
    if (auto shape = reductionShape(in, ints(dim), keep)) {
        if (at::Tensor d = directOut(o, *shape, o.scalar_type(), {in}); d.defined()) {
            at::mean_out(d, in, ints(dim), keep, o.scalar_type());
            return;
        }
    }
    assign(o, at::mean(in, ints(dim), keep, o.scalar_type()));
    DIOPI_IMPL_END
}

// correction NULL means 1 (Bessel's correction).
diopiError_t diopiStd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dim,
                      const diopiScalar_t* correction) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), o = tensor(out, "out");
    if (!at::isFloatingType(in.scalar_type())) fail("std needs a floating-point input", diopiDtypeNotSupported);
    std::optional<at::Scalar> corr;
    if (correction) corr = scalar(correction, "correction");
    assign(out, at::std(in, dimsOrAll(dim), corr, keepdimFrom(o, in)));
    DIOPI_IMPL_END
}

// dim NULL: the product of every element.
diopiError_t diopiProd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), o = tensor(out, "out");
    bool keep = keepdimFrom(o, in);
    if (dim == nullptr) assign(out, keepAll(at::prod(in, o.scalar_type()), in, keep));
    else assign(out, at::prod(in, *dim, keep, o.scalar_type()));
    DIOPI_IMPL_END
}

// ---- norm: p-norm over dims (empty: all); p NULL means 2; p = +-inf, 0 and fractional p allowed
diopiError_t diopiNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* p,
                       diopiSize_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), o = tensor(out, "out");
    at::Scalar pv = p ? scalar(p, "p") : at::Scalar(2.0);
    bool keep = keepdimFrom(o, in);
    if (dim.len == 0) assign(out, keepAll(at::linalg_vector_norm(in, pv, std::nullopt, false, o.scalar_type()), in, keep));
    else assign(out, at::linalg_vector_norm(in, pv, ints(dim), keep, o.scalar_type()));
    DIOPI_IMPL_END
}

// grad_output and norm have the forward output's shape (reduced dims kept or not).
diopiError_t diopiNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t self, diopiConstTensorHandle_t norm, diopiSize_t dim, const diopiScalar_t* p) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(self, "self");
    double pv = p ? scalar(p, "p").toDouble() : 2.0;
    std::vector<int64_t> dims = reducedDims(ints(dim), x.dim());
    at::Tensor g = unsqueezeDims(tensor(grad_output, "grad_output"), dims, x.dim());
    at::Tensor n = unsqueezeDims(tensor(norm, "norm"), dims, x.dim());
    at::Tensor gi;
    if (pv == 0) {
        gi = at::zeros_like(x);
    } else if (pv == 1) {
        gi = x.sgn() * g;
    } else if (pv == 2) {
        gi = x * (g / n).masked_fill(n == 0, 0);
    } else if (std::isinf(pv)) {
        // Gradient flows to the elements that attain the norm, shared among ties.
        at::Tensor xa = x.abs();
        at::Tensor mask = (xa == n) | xa.isnan();
        gi = x.sgn() * ((g / mask.sum(dims, true)) * mask);
    } else {
        at::Tensor scaled = pv < 1 ? x.sgn() * x.abs().pow(pv - 1).masked_fill(x == 0, 0) : x * x.abs().pow(pv - 2);
        gi = scaled * (g / n.pow(pv - 1)).masked_fill(n == 0, 0);
    }
    assign(grad_input, gi, "grad_input");
    DIOPI_IMPL_END
}

// ---- amax: keepdim is explicit here; empty dim reduces all
diopiError_t diopiAmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t self, diopiSize_t dim, bool keepdim) {
    DIOPI_IMPL_BEGIN
    assign(out, at::amax(tensor(self, "self"), ints(dim), keepdim));
    DIOPI_IMPL_END
}

// ---- max/min along one dim (values and indices), and over all elements
diopiError_t diopiMax(diopiContextHandle_t ctx, diopiTensorHandle_t max, diopiTensorHandle_t max_indices, diopiConstTensorHandle_t input,
                      int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), o = tensor(max, "max");
    auto [values, indices] = at::max(in, dim, keepdimFrom(o, in));
    assign(max, values, "max");
    assign(max_indices, indices, "max_indices");
    DIOPI_IMPL_END
}

diopiError_t diopiMin(diopiContextHandle_t ctx, diopiTensorHandle_t min, diopiTensorHandle_t min_indices, diopiConstTensorHandle_t input,
                      int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), o = tensor(min, "min");
    auto [values, indices] = at::min(in, dim, keepdimFrom(o, in));
    assign(min, values, "min");
    assign(min_indices, indices, "min_indices");
    DIOPI_IMPL_END
}

diopiError_t diopiMaxAll(diopiContextHandle_t ctx, diopiTensorHandle_t max, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    if (in.numel() == 0) fail("max of an empty tensor");
    assign(max, at::max(in), "max");
    DIOPI_IMPL_END
}

diopiError_t diopiMinAll(diopiContextHandle_t ctx, diopiTensorHandle_t min, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    if (in.numel() == 0) fail("min of an empty tensor");
    assign(min, at::min(in), "min");
    DIOPI_IMPL_END
}

// ---- any/all: dim NULL reduces every element; out is bool
diopiError_t diopiAny(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), o = tensor(out, "out");
    bool keep = keepdimFrom(o, in);
    if (dim == nullptr) assign(out, keepAll(at::any(in), in, keep));
    else assign(out, at::any(in, *dim, keep));
    DIOPI_IMPL_END
}

diopiError_t diopiAll(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input"), o = tensor(out, "out");
    bool keep = keepdimFrom(o, in);
    if (dim == nullptr) assign(out, keepAll(at::all(in), in, keep));
    else assign(out, at::all(in, *dim, keep));
    DIOPI_IMPL_END
}

// ---- argmax/argmin: dim NULL indexes the flattened input
diopiError_t diopiArgmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim, bool keepdim) {
    DIOPI_IMPL_BEGIN
    std::optional<int64_t> d;
    if (dim) d = *dim;
    assign(out, at::argmax(orderable(tensor(input, "input")), d, keepdim));
    DIOPI_IMPL_END
}

diopiError_t diopiArgmin(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim, bool keepdim) {
    DIOPI_IMPL_BEGIN
    std::optional<int64_t> d;
    if (dim) d = *dim;
    assign(out, at::argmin(orderable(tensor(input, "input")), d, keepdim));
    DIOPI_IMPL_END
}

// ---- cumsum: accumulates in the output's dtype
diopiError_t diopiCumsum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor o = tensor(out, "out");
    assign(out, at::cumsum(tensor(input, "input"), dim, o.scalar_type()));
    DIOPI_IMPL_END
}

// The gradient of a prefix sum is the suffix sum of the gradient.
diopiError_t diopiCumsumBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output, int64_t dim) {
    DIOPI_IMPL_BEGIN
    at::Tensor g = tensor(grad_output, "grad_output");
    if (g.dim() == 0) {
        if (dim != 0 && dim != -1) fail("dim out of range for a 0-d tensor");
        assign(grad_input, g, "grad_input");
    } else {
        assign(grad_input, g.flip({dim}).cumsum(dim).flip({dim}), "grad_input");
    }
    DIOPI_IMPL_END
}

}  // extern "C"
