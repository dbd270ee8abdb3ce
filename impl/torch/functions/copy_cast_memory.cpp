// Copies, casts and memory layouts: cast_dtype, copy_, contiguous, native memory formats, destruction hook.
#include "helper.hpp"

using namespace impl::aten;

namespace {

/// The tensor `src` laid out in `format` (ATen has no 1-d channels-last format: NLC is built by permuting).
at::Tensor inFormat(const at::Tensor& src, int64_t format) {
    switch (format) {
        case Contiguous: return src.contiguous(at::MemoryFormat::Contiguous);
        case Preserve: return src.contiguous(src.suggest_memory_format());
        case ChannelsLast:
            if (src.dim() != 4) fail("channels_last needs a 4-D tensor");
            return src.contiguous(at::MemoryFormat::ChannelsLast);
        case ChannelsLast3d:
            if (src.dim() != 5) fail("channels_last_3d needs a 5-D tensor");
            return src.contiguous(at::MemoryFormat::ChannelsLast3d);
        case ChannelsLast1d:
            if (src.dim() != 3) fail("channels_last_1d needs a 3-D tensor");
            return src.transpose(1, 2).contiguous().transpose(1, 2);
        default: fail("unknown memory format " + std::to_string(format));
    }
}

/// A context-owned copy of `src` that keeps its strides (so the layout survives).
diopiTensorHandle_t requireStrided(diopiContextHandle_t ctx, const at::Tensor& src) {
    diopiTensorHandle_t h = nullptr;
    auto sizes = src.sizes();
    auto strides = src.strides();
    diopiSize_t size{sizes.data(), static_cast<int64_t>(sizes.size())};
    diopiSize_t stride{strides.data(), static_cast<int64_t>(strides.size())};
    if (diopiRequireTensor(ctx, &h, &size, &stride, fromATen(src.scalar_type()), diopi_host) != diopiSuccess || h == nullptr)
        fail("diopiRequireTensor failed");
    tensor(h, "required").copy_(src);
    return h;
}

}  // namespace

extern "C" {

diopiError_t diopiCastDtype(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    at::Tensor in = tensor(input, "input");
    assign(out, in);
    DIOPI_IMPL_END
}

diopiError_t diopiCopyInp(diopiContextHandle_t ctx, diopiConstTensorHandle_t src, diopiTensorHandle_t dest) {
    DIOPI_IMPL_BEGIN
    tensor(dest, "dest").copy_(tensor(src, "src"));
    DIOPI_IMPL_END
}

diopiError_t diopiContiguous(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input, diopiMemoryFormat_t memoryFormat) {
    DIOPI_IMPL_BEGIN
    if (out == nullptr) fail("out is NULL");
    *out = requireStrided(ctx, inFormat(tensor(input, "input"), memoryFormat));
    DIOPI_IMPL_END
}

// ATen has no device-native layouts: the native format of this implementation is the diopiMemoryFormat_t layout.
diopiError_t diopiNativeMemoryFormatCast(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiTensorHandle_t in, int64_t format) {
    DIOPI_IMPL_BEGIN
    if (out == nullptr) fail("out is NULL");
    *out = requireStrided(ctx, inFormat(tensor(in, "in"), format));
    DIOPI_IMPL_END
}

diopiError_t diopiGetNativeMemoryFormat(diopiContextHandle_t ctx, diopiConstTensorHandle_t input, int64_t* format) {
    DIOPI_IMPL_BEGIN
    if (format == nullptr) fail("format is NULL");
    switch (tensor(input, "input").suggest_memory_format()) {
        case at::MemoryFormat::ChannelsLast: *format = ChannelsLast; break;
        case at::MemoryFormat::ChannelsLast3d: *format = ChannelsLast3d; break;
        default: *format = Contiguous; break;
    }
    DIOPI_IMPL_END
}

// Storage is owned by the caller's runtime; nothing of this library hangs on a tensor.
diopiError_t diopiTensorDestructionHook(diopiContextHandle_t ctx, void* ptr) {
    DIOPI_IMPL_BEGIN
    (void)ptr;
    DIOPI_IMPL_END
}

}  // extern "C"
