// The caller's half of diopirt.h over at::Tensor: any vendor library asks the
// `diopi` device for data pointers, shapes, strides, scratch tensors and
// generator state through these functions. The argument checks, status codes
// and exception barrier are the shared piece's (diopi_support/caller_runtime.hpp);
// what is said here is only how an at::Tensor answers.
#include "aten/bridge.hpp"
#include "runtime/device_runtime.hpp"
#include "runtime/state.hpp"

#include "diopi_support/caller_runtime.hpp"

namespace diopi_torch {
namespace {

const at::Tensor& T(diopiConstTensorHandle_t h) { return reinterpret_cast<const diopiTensor*>(h)->t; }

diopiSize_t sizeOf(at::IntArrayRef s) { return diopiSize_t{s.data(), static_cast<int64_t>(s.size())}; }

struct AtenTensors {
    // The mutable pointer materializes a copy-on-write storage before the vendor writes.
    static void* data(diopiTensorHandle_t h) { return reinterpret_cast<diopiTensor*>(h)->t.data_ptr(); }
    static const void* constData(diopiConstTensorHandle_t h) { return T(h).const_data_ptr(); }
    static diopiSize_t shape(diopiConstTensorHandle_t h) { return sizeOf(T(h).sizes()); }
    static diopiSize_t stride(diopiConstTensorHandle_t h) { return sizeOf(T(h).strides()); }
    static diopiDtype_t dtype(diopiConstTensorHandle_t h) { return toDiopi(T(h).scalar_type()); }
    static diopiDevice_t device(diopiConstTensorHandle_t h) { return T(h).is_cpu() ? diopi_host : diopi_device; }
    static int64_t numel(diopiConstTensorHandle_t h) { return T(h).numel(); }
    static void* storagePtr(diopiConstTensorHandle_t h) { return const_cast<void*>(T(h).storage().data()); }
    static int64_t storageOffset(diopiConstTensorHandle_t h) { return T(h).storage_offset(); }
    static size_t storageNbytes(diopiConstTensorHandle_t h) { return T(h).storage().nbytes(); }
    static diopiDeviceIndex_t deviceIndex(diopiConstTensorHandle_t h) { return T(h).is_cpu() ? -1 : T(h).device().index(); }
    static diopiDeviceIndex_t currentDeviceIndex() { return diopi_torch::currentDeviceIndex(); }
    static diopiStreamHandle_t stream(diopiContextHandle_t ctx) { return ctx->stream; }

    static diopiTensorHandle_t requireTensor(diopiContextHandle_t ctx, const diopiSize_t& size, const diopiSize_t* stride, diopiDtype_t dtype,
                                             diopiDevice_t device) {
        at::IntArrayRef shape(size.data, static_cast<size_t>(size.len));
        auto options = at::TensorOptions().dtype(toATen(dtype)).device(device == diopi_host ? at::Device(at::kCPU) : currentDevice());
        at::Tensor t = stride ? at::empty_strided(shape, at::IntArrayRef(stride->data, static_cast<size_t>(stride->len)), options)
                              : at::empty(shape, options);
        ctx->handles.push_back(diopiTensor{t});
        return &ctx->handles.back();
    }
    static std::vector<uint8_t> hostBytes(diopiConstTensorHandle_t h) {
        at::Tensor s = T(h).cpu().contiguous();
        const auto* p = static_cast<const uint8_t*>(s.const_data_ptr());
        return std::vector<uint8_t>(p, p + s.nbytes());
    }

    static std::vector<uint8_t> generatorState(diopiConstGeneratorHandle_t g) { return diopi_torch::generatorState(g); }
    static void setGeneratorState(diopiGeneratorHandle_t g, std::vector<uint8_t> s) { diopi_torch::setGeneratorState(g, std::move(s)); }
    static void seedAndOffset(diopiGeneratorHandle_t g, uint64_t* seed, uint64_t* offset) { generatorSeedAndOffset(g, seed, offset); }
    static void setSeedAndOffset(diopiGeneratorHandle_t g, uint64_t seed, uint64_t offset) { setGeneratorSeedAndOffset(g, seed, offset); }
    // The vendor reports the failed call's status; the device has no per-thread message for its callbacks.
    static void error(const char*) {}
};

}  // namespace
}  // namespace diopi_torch

DIOPI_SUPPORT_DEFINE_CALLER_RUNTIME(diopi_torch::AtenTensors)
