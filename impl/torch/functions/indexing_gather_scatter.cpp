// Indexing, gather and scatter: index/index_put, index_select, select/slice (and scatters), masked ops, where, gather/scatter,
// index_fill, nonzero, one_hot and embedding.
#include <cstring>
#include <string>

#include "helper.hpp"

using namespace impl::aten;

namespace {

/// Index tensors for advanced indexing; a NULL entry selects the whole dimension (Python's `:`).
c10::List<std::optional<at::Tensor>> indexList(const diopiConstTensorHandle_t* hs, int64_t n, const char* name) {
    if (n < 0) fail(std::string(name) + ": negative count");
    if (n > 0 && hs == nullptr) fail(std::string(name) + " is NULL");
    c10::List<std::optional<at::Tensor>> list;
    bool any = false;
    for (int64_t i = 0; i < n; ++i) {
        std::optional<at::Tensor> t = optional(hs[i]);
        if (t.has_value()) {
            any = true;
            auto st = t->scalar_type();
            if (st != at::kLong && st != at::kInt && st != at::kByte && st != at::kBool)
                fail(std::string(name) + " must be int64, int32, uint8 or bool tensors", diopiDtypeNotSupported);
            if (st == at::kByte) t = t->to(at::kBool);  // uint8 indices are masks
        }
        list.push_back(t);
    }
    if (n > 0 && !any) fail(std::string(name) + ": every index tensor is NULL");
    return list;
}

/// An index tensor for gather/scatter/index_fill (int32 or int64) as int64.
at::Tensor longIndex(diopiConstTensorHandle_t h, const char* name) {
    at::Tensor t = tensor(h, name);
    if (t.scalar_type() != at::kLong && t.scalar_type() != at::kInt) fail(std::string(name) + " must be int32 or int64", diopiDtypeNotSupported);
    return t.to(at::kLong);
}

at::Tensor boolMask(diopiConstTensorHandle_t h, const char* name) {
    at::Tensor t = tensor(h, name);
    if (t.scalar_type() != at::kBool && t.scalar_type() != at::kByte) fail(std::string(name) + " must be bool (or uint8)", diopiDtypeNotSupported);
    return t.to(at::kBool);
}

/// A fill value given as a tensor: it must hold exactly one element.
at::Tensor valueTensor(diopiConstTensorHandle_t h, const char* name) {
    at::Tensor v = tensor(h, name);
    if (v.numel() != 1) fail(std::string(name) + " must hold exactly one element");
    return v.reshape({});
}

/// The scatter reduction: NULL or "" replaces, "add" and "multiply" accumulate.
std::optional<std::string> reduction(const char* reduce) {
    if (reduce == nullptr || reduce[0] == '\0' || std::strcmp(reduce, "none") == 0) return std::nullopt;
    if (std::strcmp(reduce, "add") == 0 || std::strcmp(reduce, "multiply") == 0) return std::string(reduce);
    fail(std::string("reduce must be \"add\" or \"multiply\" (or empty), got \"") + reduce + "\"");
}

at::Tensor scatterTensor(const at::Tensor& in, int64_t dim, const at::Tensor& index, const at::Tensor& src, const char* reduce) {
    auto r = reduction(reduce);
    return r ? at::scatter(in, dim, index, src, *r) : at::scatter(in, dim, index, src);
}

at::Tensor scatterScalar(const at::Tensor& in, int64_t dim, const at::Tensor& index, const at::Scalar& value, const char* reduce) {
    auto r = reduction(reduce);
    return r ? at::scatter(in, dim, index, value, *r) : at::scatter(in, dim, index, value);
}

}  // namespace

extern "C" {

// ---------------------------------------------------------------- advanced indexing

diopiError_t diopiIndex(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t* indices,
                        int64_t nums) {
    DIOPI_IMPL_BEGIN
    if (out == nullptr) fail("out is NULL");
    *out = requireLike(ctx, at::index(tensor(input, "input"), indexList(indices, nums, "indices")));
    DIOPI_IMPL_END
}

diopiError_t diopiIndexBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t zeros_like_input,
                                diopiConstTensorHandle_t* indices, int64_t nums, diopiConstTensorHandle_t grad_output) {
    DIOPI_IMPL_BEGIN
    at::Tensor acc = tensor(zeros_like_input, "zeros_like_input");
    // Gradients of repeated indices add up.
    acc.index_put_(indexList(indices, nums, "indices"), tensor(grad_output, "grad_output"), /*accumulate=*/true);
    assign(grad_input, acc, "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiIndexPutInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t values, diopiConstTensorHandle_t* indices,
                              int64_t indices_counts, bool accumulate) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").index_put_(indexList(indices, indices_counts, "indices"), tensor(values, "values"), accumulate);
    DIOPI_IMPL_END
}

diopiError_t diopiIndexPut(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t values,
                           diopiConstTensorHandle_t* indices, int64_t indices_counts, bool accumulate) {
    DIOPI_IMPL_BEGIN
    assign(out, at::index_put(tensor(input, "input"), indexList(indices, indices_counts, "indices"), tensor(values, "values"), accumulate));
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- index_select, select, slice

diopiError_t diopiIndexSelect(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                              diopiConstTensorHandle_t index) {
    DIOPI_IMPL_BEGIN
    assign(out, at::index_select(tensor(input, "input"), dim, longIndex(index, "index")));
    DIOPI_IMPL_END
}

diopiError_t diopiIndexSelectBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad, diopiSize_t input_sizes,
                                      int64_t dim, diopiConstTensorHandle_t index) {
    DIOPI_IMPL_BEGIN
    at::Tensor g = tensor(grad, "grad");
    at::Tensor result = at::zeros(ints(input_sizes), g.options());
    result.index_add_(dim, longIndex(index, "index"), g);
    assign(grad_input, result, "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiSelect(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim, int64_t index) {
    DIOPI_IMPL_BEGIN
    assign(out, tensor(input, "input").select(dim, index));
    DIOPI_IMPL_END
}

diopiError_t diopiSelectBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output, diopiSize_t input_sizes,
                                 int64_t dim, int64_t index) {
    DIOPI_IMPL_BEGIN
    assign(grad_input, at::select_backward(tensor(grad_output, "grad_output"), ints(input_sizes), dim, index), "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiSelectScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t src,
                                int64_t dim, int64_t index) {
    DIOPI_IMPL_BEGIN
    assign(out, at::select_scatter(tensor(input, "input"), tensor(src, "src"), dim, index));
    DIOPI_IMPL_END
}

diopiError_t diopiSlice(diopiContextHandle_t ctx, diopiTensorHandle_t null_out, diopiConstTensorHandle_t input, int64_t dim, int64_t start,
                        int64_t end, int64_t step) {
    DIOPI_IMPL_BEGIN
    if (step <= 0) fail("step must be positive");
    assign(null_out, tensor(input, "input").slice(dim, start, end, step), "null_out");
    DIOPI_IMPL_END
}

diopiError_t diopiSliceBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output, diopiSize_t input_sizes,
                                int64_t dim, int64_t start, int64_t end, int64_t step) {
    DIOPI_IMPL_BEGIN
    if (step <= 0) fail("step must be positive");
    at::Tensor g = tensor(grad_output, "grad_output");
    // ATen's own formula (zeros, the gradient copied into the slice) written straight into the caller's output.
    if (at::Tensor o = directOut(grad_input, ints(input_sizes), g.scalar_type(), {g}, "grad_input"); o.defined()) {
        o.zero_();
        o.slice(dim, start, end, step).copy_(g);
        return;
    }
    assign(grad_input, at::slice_backward(g, ints(input_sizes), dim, start, end, step), "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiSliceScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t src,
                               int64_t dim, int64_t start, int64_t end, int64_t step) {
    DIOPI_IMPL_BEGIN
    if (step <= 0) fail("step must be positive");
    assign(out, at::slice_scatter(tensor(input, "input"), tensor(src, "src"), dim, start, end, step));
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- masks and where

diopiError_t diopiMaskedScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask,
                                diopiConstTensorHandle_t source) {
    DIOPI_IMPL_BEGIN
    assign(out, at::masked_scatter(tensor(input, "input"), boolMask(mask, "mask"), tensor(source, "source")));
    DIOPI_IMPL_END
}

diopiError_t diopiMaskedSelect(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask) {
    DIOPI_IMPL_BEGIN
    if (out == nullptr) fail("out is NULL");
    *out = requireLike(ctx, at::masked_select(tensor(input, "input"), boolMask(mask, "mask")));
    DIOPI_IMPL_END
}

diopiError_t diopiMaskedSelectBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                       diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    at::Tensor m = boolMask(mask, "mask");
    at::Tensor g = tensor(grad_output, "grad_output");
    // Scatter the gradient over the broadcast shape, then sum over the dims the mask broadcast the input along.
    at::Tensor full = at::zeros(at::infer_size(in.sizes(), m.sizes()), g.options());
    full.masked_scatter_(m, g);
    assign(grad_input, at::sum_to(full, in.sizes()), "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiMaskedFill(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask,
                             diopiConstTensorHandle_t value) {
    DIOPI_IMPL_BEGIN
    assign(out, at::masked_fill(tensor(input, "input"), boolMask(mask, "mask"), valueTensor(value, "value")));
    DIOPI_IMPL_END
}

diopiError_t diopiMaskedFillInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t mask, diopiConstTensorHandle_t value) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").masked_fill_(boolMask(mask, "mask"), valueTensor(value, "value"));
    DIOPI_IMPL_END
}

diopiError_t diopiMaskedFillScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask,
                                   const diopiScalar_t* value) {
    DIOPI_IMPL_BEGIN
    assign(out, at::masked_fill(tensor(input, "input"), boolMask(mask, "mask"), scalar(value, "value")));
    DIOPI_IMPL_END
}

diopiError_t diopiMaskedFillInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t mask, const diopiScalar_t* value) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").masked_fill_(boolMask(mask, "mask"), scalar(value, "value"));
    DIOPI_IMPL_END
}

diopiError_t diopiWhere(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t condition, diopiConstTensorHandle_t input,
                        diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    at::Tensor c = boolMask(condition, "condition"), a = tensor(input, "input"), b = tensor(other, "other");
    if (at::Tensor o = elementwiseOut(out, resultType(a, b), {c, a, b}); o.defined())
        at::where_out(o, c, a, b);
    else
        assign(out, at::where(c, a, b));
    DIOPI_IMPL_END
}

diopiError_t diopiNonzero(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    if (out == nullptr) fail("out is NULL");
    *out = requireLike(ctx, at::nonzero(tensor(input, "input")));
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- index_fill

diopiError_t diopiIndexFillScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                  diopiConstTensorHandle_t index, const diopiScalar_t* value) {
    DIOPI_IMPL_BEGIN
    assign(out, at::index_fill(tensor(input, "input"), dim, longIndex(index, "index"), scalar(value, "value")));
    DIOPI_IMPL_END
}

diopiError_t diopiIndexFill(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                            diopiConstTensorHandle_t index, diopiConstTensorHandle_t value) {
    DIOPI_IMPL_BEGIN
    assign(out, at::index_fill(tensor(input, "input"), dim, longIndex(index, "index"), valueTensor(value, "value")));
    DIOPI_IMPL_END
}

diopiError_t diopiIndexFillInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t index,
                                     const diopiScalar_t* value) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").index_fill_(dim, longIndex(index, "index"), scalar(value, "value"));
    DIOPI_IMPL_END
}

diopiError_t diopiIndexFillInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t index,
                               diopiConstTensorHandle_t value) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").index_fill_(dim, longIndex(index, "index"), valueTensor(value, "value"));
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- gather and scatter

diopiError_t diopiGather(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                         diopiConstTensorHandle_t index) {
    DIOPI_IMPL_BEGIN
    assign(out, at::gather(tensor(input, "input"), dim, longIndex(index, "index")));
    DIOPI_IMPL_END
}

diopiError_t diopiGatherBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                 diopiConstTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t index) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    at::Tensor g = tensor(grad_output, "grad_output");
    at::Tensor result = at::zeros(in.sizes(), g.options());
    result.scatter_add_(dim, longIndex(index, "index"), g);
    assign(grad_input, result, "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t src,
                          diopiConstTensorHandle_t index, const char* reduce) {
    DIOPI_IMPL_BEGIN
    assign(out, scatterTensor(tensor(input, "input"), dim, longIndex(index, "index"), tensor(src, "src"), reduce));
    DIOPI_IMPL_END
}

diopiError_t diopiScatterInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t src,
                             diopiConstTensorHandle_t index, const char* reduce) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    in.copy_(scatterTensor(in, dim, longIndex(index, "index"), tensor(src, "src"), reduce));
    DIOPI_IMPL_END
}

diopiError_t diopiScatterScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                const diopiScalar_t* value, diopiConstTensorHandle_t index, const char* reduce) {
    DIOPI_IMPL_BEGIN
    assign(out, scatterScalar(tensor(input, "input"), dim, longIndex(index, "index"), scalar(value, "value"), reduce));
    DIOPI_IMPL_END
}

diopiError_t diopiScatterInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, const diopiScalar_t* value,
                                   diopiConstTensorHandle_t index, const char* reduce) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    in.copy_(scatterScalar(in, dim, longIndex(index, "index"), scalar(value, "value"), reduce));
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- one_hot and embedding

diopiError_t diopiOneHot(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t num_classes) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    if (in.scalar_type() != at::kLong && in.scalar_type() != at::kInt) fail("input must be int32 or int64", diopiDtypeNotSupported);
    if (num_classes == 0 || num_classes < -1) fail("num_classes must be positive, or -1 to infer it from the data");
    assign(out, at::one_hot(in.to(at::kLong), num_classes));
    DIOPI_IMPL_END
}

diopiError_t diopiEmbedding(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t indices,
                            int64_t padding_idx, bool scale_grad_byfreq, bool sparse) {
    DIOPI_IMPL_BEGIN
    assign(out, at::embedding(tensor(weight, "weight"), longIndex(indices, "indices"), padding_idx, scale_grad_byfreq, sparse));
    DIOPI_IMPL_END
}

diopiError_t diopiEmbeddingBackward(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t grad, diopiConstTensorHandle_t indices,
                                    int64_t num_weights, int64_t padding_idx, bool scale_grad_byfreq, bool sparse) {
    DIOPI_IMPL_BEGIN
    // The result is always written densely; `sparse` only names the layout a framework would keep.
    at::Tensor result =
        at::embedding_dense_backward(tensor(grad, "grad"), longIndex(indices, "indices"), num_weights, padding_idx, scale_grad_byfreq);
    assign(out, result);
    DIOPI_IMPL_END
}

diopiError_t diopiEmbeddingRenorm_(diopiContextHandle_t ctx, diopiTensorHandle_t inout, diopiConstTensorHandle_t indices, double max_norm,
                                   double norm_type) {
    DIOPI_IMPL_BEGIN
    at::Tensor w = tensor(inout, "inout");
    if (w.dim() != 2) fail("inout must be a 2-D embedding matrix");
    at::embedding_renorm_(w, longIndex(indices, "indices"), max_norm, norm_type);
    DIOPI_IMPL_END
}

}  // extern "C"
