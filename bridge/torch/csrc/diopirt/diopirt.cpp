// The caller's half of diopirt.h, implemented once over at::Tensor: any
// vendor library asks the `diopi` device for data pointers, shapes, strides,
// scratch tensors and generator state through these functions.
#include "aten/bridge.hpp"
#include "runtime/device_runtime.hpp"
#include "runtime/state.hpp"

#include <cstring>

namespace {

const at::Tensor& T(diopiConstTensorHandle_t h) { return reinterpret_cast<const diopiTensor*>(h)->t; }

template <class F>
diopiError_t guarded(F&& body) noexcept {
    try {
        return body();
    } catch (...) {
        return diopiErrorOccurred;
    }
}

}  // namespace

extern "C" {

DIOPI_RT_API const char* diopiGetVersion(void) { return "1.0.0"; }

DIOPI_RT_API diopiError_t diopiGetTensorData(diopiTensorHandle_t th, void** p) {
    if (!th || !p) return diopiErrorOccurred;
    return guarded([&] {
        *p = T(th).data_ptr();
        return diopiSuccess;
    });
}

DIOPI_RT_API diopiError_t diopiGetTensorDataConst(diopiConstTensorHandle_t th, const void** p) {
    if (!th || !p) return diopiErrorOccurred;
    return guarded([&] {
        *p = T(th).const_data_ptr();
        return diopiSuccess;
    });
}

DIOPI_RT_API diopiError_t diopiGetTensorShape(diopiConstTensorHandle_t th, diopiSize_t* size) {
    if (!th || !size) return diopiErrorOccurred;
    auto s = T(th).sizes();
    *size = diopiSize_t{s.data(), static_cast<int64_t>(s.size())};
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiGetTensorStride(diopiConstTensorHandle_t th, diopiSize_t* stride) {
    if (!th || !stride) return diopiErrorOccurred;
    auto s = T(th).strides();
    *stride = diopiSize_t{s.data(), static_cast<int64_t>(s.size())};
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiGetTensorDtype(diopiConstTensorHandle_t th, diopiDtype_t* dtype) {
    if (!th || !dtype) return diopiErrorOccurred;
    *dtype = diopi_torch::toDiopi(T(th).scalar_type());
    return *dtype == diopi_dtype_unsupported ? diopiDtypeNotSupported : diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiGetTensorDevice(diopiConstTensorHandle_t th, diopiDevice_t* device) {
    if (!th || !device) return diopiErrorOccurred;
    *device = T(th).is_cpu() ? diopi_host : diopi_device;
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiGetTensorNumel(diopiConstTensorHandle_t th, int64_t* numel) {
    if (!th || !numel) return diopiErrorOccurred;
    *numel = T(th).numel();
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiGetTensorElemSize(diopiConstTensorHandle_t th, int64_t* itemsize) {
    if (!th || !itemsize) return diopiErrorOccurred;
    *itemsize = static_cast<int64_t>(T(th).element_size());
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiGetTensorStoragePtr(diopiConstTensorHandle_t th, void** ptr) {
    if (!th || !ptr) return diopiErrorOccurred;
    *ptr = const_cast<void*>(T(th).storage().data());
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiGetTensorStorageOffset(diopiConstTensorHandle_t th, int64_t* offset) {
    if (!th || !offset) return diopiErrorOccurred;
    *offset = T(th).storage_offset();
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiGetTensorStorageNbytes(diopiConstTensorHandle_t th, size_t* nbytes) {
    if (!th || !nbytes) return diopiErrorOccurred;
    *nbytes = T(th).storage().nbytes();
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiGetTensorDeviceIndex(diopiConstTensorHandle_t th, diopiDeviceIndex_t* index) {
    if (!th || !index) return diopiErrorOccurred;
    *index = T(th).is_cpu() ? -1 : T(th).device().index();
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiGetCurrentDeviceIndex(diopiDeviceIndex_t* index) {
    if (!index) return diopiErrorOccurred;
    *index = diopi_torch::currentDeviceIndex();
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiIsTensorSparse(diopiConstTensorHandle_t th, bool* sparse) {
    if (!th || !sparse) return diopiErrorOccurred;
    *sparse = false;
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiGetTensorCrowIndices(diopiConstTensorHandle_t, diopiConstTensorHandle_t*) { return diopiNoImplement; }
DIOPI_RT_API diopiError_t diopiGetTensorColIndices(diopiConstTensorHandle_t, diopiConstTensorHandle_t*) { return diopiNoImplement; }
DIOPI_RT_API diopiError_t diopiGetTensorValues(diopiConstTensorHandle_t, diopiConstTensorHandle_t*) { return diopiNoImplement; }

DIOPI_RT_API diopiError_t diopiGetStream(diopiContextHandle_t ctx, diopiStreamHandle_t* stream) {
    if (!ctx || !stream) return diopiErrorOccurred;
    *stream = ctx->stream;
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiRequireTensor(diopiContextHandle_t ctx, diopiTensorHandle_t* tensor, const diopiSize_t* size,
                                             const diopiSize_t* stride, const diopiDtype_t dtype, const diopiDevice_t device) {
    if (!ctx || !tensor || !size || (size->len && !size->data)) return diopiErrorOccurred;
    return guarded([&] {
        at::IntArrayRef shape(size->data, static_cast<size_t>(size->len));
        auto options = at::TensorOptions().dtype(diopi_torch::toATen(dtype))
                           .device(device == diopi_host ? at::Device(at::kCPU) : diopi_torch::currentDevice());
        at::Tensor t = stride && stride->data ? at::empty_strided(shape, at::IntArrayRef(stride->data, stride->len), options)
                                              : at::empty(shape, options);
        ctx->handles.push_back(diopiTensor{t});
        *tensor = &ctx->handles.back();
        return diopiSuccess;
    });
}

DIOPI_RT_API diopiError_t diopiRequireBuffer(diopiContextHandle_t ctx, diopiTensorHandle_t* tensor, int64_t num_bytes, diopiDevice_t device) {
    if (num_bytes < 0) return diopiErrorOccurred;
    diopiSize_t size{&num_bytes, 1};
    return diopiRequireTensor(ctx, tensor, &size, nullptr, diopi_dtype_int8, device);
}

DIOPI_RT_API diopiError_t diopiGeneratorGetState(diopiContextHandle_t ctx, diopiConstGeneratorHandle_t gen, diopiTensorHandle_t* data) {
    if (!ctx || !gen || !data) return diopiErrorOccurred;
    return guarded([&] {
        auto bytes = diopi_torch::generatorState(gen);
        int64_t n = static_cast<int64_t>(bytes.size());
        diopiSize_t size{&n, 1};
        if (diopiRequireTensor(ctx, data, &size, nullptr, diopi_dtype_uint8, diopi_host) != diopiSuccess) return diopiErrorOccurred;
        if (n) std::memcpy(T(*data).data_ptr(), bytes.data(), bytes.size());
        return diopiSuccess;
    });
}

DIOPI_RT_API diopiError_t diopiGeneratorSetState(diopiGeneratorHandle_t gen, diopiConstTensorHandle_t state) {
    if (!gen || !state) return diopiErrorOccurred;
    return guarded([&] {
        at::Tensor s = T(state).cpu().contiguous();
        const auto* p = static_cast<const uint8_t*>(s.const_data_ptr());
        diopi_torch::setGeneratorState(gen, std::vector<uint8_t>(p, p + s.nbytes()));
        return diopiSuccess;
    });
}

DIOPI_RT_API diopiError_t diopiGeneratorGetSeedAndOffset(diopiGeneratorHandle_t gen, uint64_t* seed, uint64_t* offset) {
    if (!gen || !seed || !offset) return diopiErrorOccurred;
    diopi_torch::generatorSeedAndOffset(gen, seed, offset);
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiGeneratorSetSeedAndOffset(diopiGeneratorHandle_t gen, uint64_t seed, uint64_t offset) {
    if (!gen) return diopiErrorOccurred;
    diopi_torch::setGeneratorSeedAndOffset(gen, seed, offset);
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiRecordStart(const char*, void** record) {
    if (record) *record = nullptr;
    return diopiSuccess;
}

DIOPI_RT_API diopiError_t diopiRecordEnd(void** record) {
    if (record) *record = nullptr;
    return diopiSuccess;
}

}  // extern "C"
